/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: sizing planner, false-positive prediction and cardinality
 * estimate, in integer fixed-point arithmetic.
 *
 * One header-only implementation for the kernel module (no floating point),
 * BPF programs (clang -target bpf; merely including it is fine) and
 * userspace.  No libc, no floating point, no __int128: products go through
 * 32-bit halves (kb_mul128()), quotients are computed bit by bit
 * (kb_div_fx()), except in kb_fl_div_u32(), which divides a u64 by a u32
 * with the '/' operator (one instruction on x86_64, arm64 and BPF).
 *
 * Number formats:
 *
 *   Q32.32   logarithms and exponents, __s64: value * 2^32 (KB_LN_SHIFT).
 *            ln x of a u64 x is at most 44.4, ln p of any p >= 2^-62 is at
 *            least -43; the range of +-2^31 is ample.
 *   Q8.56    precise logarithms ("hp"), __s64: value * 2^56 (KB_HP_SHIFT),
 *            used where a logarithm is multiplied by a large integer or
 *            where two close logarithms are subtracted.
 *   Q2.62    probabilities and fractions, __u64: value * 2^62
 *            (KB_P_SHIFT); KB_P_ONE = 1 << 62 is exactly 1.0.  The
 *            resolution is 2^-62 (2.2e-19): relative 2.2e-7 at p = 1e-12.
 *   pico     probabilities that cross the ABI, __u64 in units of 1e-12
 *            (KBLOOM_P_UNIT, see kbloom_base.h).
 *
 * Formulas (B = KBLOOM_BLOCK_BITS = 512):
 *
 *   standard, counting  p = (1 - e^(-k n / m))^k
 *       (the exponential form of the classical formula, as in DESIGN.md;
 *       it differs from (1 - (1 - 1/m)^(k n))^k by a relative O(k/m))
 *   blocked             p = sum_i Pois_{B n / m}(i) (1 - (1 - 1/B)^(i k))^k
 *       (Putze, Sanders, Singler 2007: a key's block receives a Poisson
 *       number of other keys.  The terms are products in a small
 *       floating-point format (struct kb_fl), so that neither e^-lambda nor
 *       tiny terms underflow; Pois(i) comes from ln Pois(mode) and the
 *       ratios lambda / i.  The sum runs from the mode outwards over
 *       i in [lambda - w, lambda + w], w = 12 sqrt(lambda) + 20, and stops
 *       early once a proven bound on the rest is below 2^-40 of the sum)
 *   cardinality         n_est = -(m / k) ln(1 - ones / m)
 *
 * Accuracy (measured by tests/core/plan_test.c against double precision):
 * predicted p is within 1e-6 relative for p >= 1e-12.
 *
 * Cost: kb_plan() evaluates the formula 50 to 200 times; an evaluation of
 * the standard formula takes about 0.5 us, of the blocked one 2 to 50 us
 * (about 50 ns per Poisson term).  Measured worst case of kb_plan() on
 * x86_64: under 1 ms (blocked), under 0.05 ms (standard, counting).  The
 * loops are bounded but long: plan from process context.  kb_n_est() is
 * cheap (about 130 ns in an XDP program) and passes the BPF verifier.
 */
#ifndef _UAPI_KBLOOM_PLAN_H
#define _UAPI_KBLOOM_PLAN_H

#include <linux/types.h>
#include <linux/errno.h>
#include "kbloom_base.h"

#define KB_LN_SHIFT	32			/* logarithms: Q32.32 */
#define KB_LN_ONE	0x100000000LL		/* 1.0 in Q32.32 */
#define KB_HP_SHIFT	56			/* precise logarithms: Q8.56 */
#define KB_P_SHIFT	62			/* probabilities: Q2.62 */
#define KB_P_ONE	0x4000000000000000ULL	/* 1.0 in Q62 */

/* ln(0) as returned by the Q32.32 logarithms: finite, safe to add to */
#define KB_LN_NEG_INF	(-(1LL << 62))
/* ln(0) as returned by the Q8.56 logarithm (callers avoid it) */
#define KB_HP_NEG_INF	(-0x7fffffffffffffffLL - 1)

/* kb_n_est() of a full filter: the estimate is unbounded */
#define KB_N_EST_INF	(~0ULL)

#define KB_LN2_Q62	0x2c5c85fdf473de6bULL	/* ln 2 */
#define KB_LN2_Q32	2977044472LL		/* ln 2 */
#define KB_LOG2E_Q24	24204406ULL		/* 1 / ln 2, rounded down */
#define KB_LOG2E_Q62	0x5c551d94ae0bf85dULL	/* 1 / ln 2, rounded down */
#define KB_LN_1E12_HP	0x1ba18a998fffa044LL	/* ln 1e12 */
#define KB_LN_SQRT_2PI	3946810947LL		/* ln(2 pi) / 2, Q32.32 */
#define KB_INV24_Q64	0x0aaaaaaaaaaaaaaaULL	/* 1 / 24 */
#define KB_INV2880_Q64	0x0016c16c16c16c16ULL	/* 1 / 2880 */

/* e^x is below half a Q62 unit for x <= -44 */
#define KB_EXP_MIN	(44LL << KB_LN_SHIFT)

/*
 * -ln(1 - 2^-j) for j = 1..32, Q62, rounded to nearest.  The logarithm
 * divides its argument by factors (1 - 2^-j) down to 1, the exponential
 * multiplies 1 by them: shifts and subtractions only.
 */
static const __u64 kb_ln1m_tab[32] = {
	0x2c5c85fdf473de6bULL, 0x1269621134db9278ULL, 0x088bc74113f23defULL,
	0x0421662d678e81a2ULL, 0x02082bb13ce8888eULL, 0x0102056589358475ULL,
	0x008080abac46f389ULL, 0x0040201565622cd6ULL, 0x00200802abab113cULL,
	0x0010020055655889ULL, 0x000800800aabaac4ULL, 0x0004002001556556ULL,
	0x00020008002aababULL, 0x0001000200055565ULL, 0x000080008000aaacULL,
	0x0000400020001555ULL, 0x00002000080002abULL, 0x0000100002000055ULL,
	0x000008000080000bULL, 0x0000040000200001ULL, 0x0000020000080000ULL,
	0x0000010000020000ULL, 0x0000008000008000ULL, 0x0000004000002000ULL,
	0x0000002000000800ULL, 0x0000001000000200ULL, 0x0000000800000080ULL,
	0x0000000400000020ULL, 0x0000000200000008ULL, 0x0000000100000002ULL,
	0x0000000080000001ULL, 0x0000000040000000ULL,
};

/**
 * struct kb_plan - result of kb_plan()
 * @m:            bits (standard, blocked) or counters (counting)
 * @k:            probes per key
 * @counter_bits: counter width (counting), 0 for bit filters
 * @bytes:        size of the bit or counter array, a multiple of 8
 * @fpr_pico:     predicted false-positive probability at n, pico units
 */
struct kb_plan {
	__u64 m;
	__u32 k;
	__u32 counter_bits;
	__u64 bytes;
	__u64 fpr_pico;
};

/* ---- 64-bit integer helpers ------------------------------------------ */

/**
 * kb_mul128() - full 64 x 64 -> 128 bit product through 32-bit halves
 * @a: factor
 * @b: factor
 * @hi: receives the high 64 bits
 *
 * Return: the low 64 bits.
 */
static inline __u64 kb_mul128(__u64 a, __u64 b, __u64 *hi)
{
	__u64 al = (__u32)a, ah = a >> 32;
	__u64 bl = (__u32)b, bh = b >> 32;
	__u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	__u64 mid = (ll >> 32) + (__u32)lh + (__u32)hl;

	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return (mid << 32) | (__u32)ll;
}

/* High 64 bits of a * b */
static inline __u64 kb_mulhi64(__u64 a, __u64 b)
{
	__u64 hi;

	kb_mul128(a, b, &hi);
	return hi;
}

/* floor(a * b / 2^s) for 1 <= s <= 63, saturating at U64_MAX */
static inline __u64 kb_mul_shr(__u64 a, __u64 b, unsigned int s)
{
	__u64 hi, lo = kb_mul128(a, b, &hi);

	if (hi >> s)
		return ~0ULL;
	return (hi << (64 - s)) | (lo >> s);
}

/* Index of the most significant set bit, 0..63; x != 0 */
static inline int kb_fls64(__u64 x)
{
	int r = 0;

	if (x >> 32) {
		x >>= 32;
		r += 32;
	}
	if (x >> 16) {
		x >>= 16;
		r += 16;
	}
	if (x >> 8) {
		x >>= 8;
		r += 8;
	}
	if (x >> 4) {
		x >>= 4;
		r += 4;
	}
	if (x >> 2) {
		x >>= 2;
		r += 2;
	}
	return r + (int)(x >> 1);
}

/**
 * kb_div_fx() - fixed-point quotient floor(num * 2^fb / den)
 * @num: dividend
 * @den: divisor, non-zero
 * @fb: fraction bits of the result, 0..63
 *
 * Restoring division, one quotient bit per step, so that no 64-bit division
 * helper is needed on any architecture.
 *
 * Return: the quotient, or U64_MAX if it does not fit in 64 bits.
 */
static inline __u64 kb_div_fx(__u64 num, __u64 den, unsigned int fb)
{
	__u64 q = 0, r = 0, c;
	int i;

	if (!num)
		return 0;
	for (i = kb_fls64(num) + (int)fb; i >= 0; i--) {
		c = r >> 63;
		r <<= 1;
		if (i >= (int)fb)
			r |= (num >> (i - (int)fb)) & 1;
		if (c || r >= den) {
			r -= den;
			if (i >= 64)
				return ~0ULL;
			q |= 1ULL << i;
		}
	}
	return q;
}

/* floor(sqrt(x)) */
static inline __u64 kb_isqrt(__u64 x)
{
	__u64 r = 0, b = 1ULL << 62;

	while (b > x)
		b >>= 2;
	while (b) {
		if (x >= r + b) {
			x -= r + b;
			r = (r >> 1) + b;
		} else {
			r >>= 1;
		}
		b >>= 2;
	}
	return r;
}

/* (a * b) / 2^s for a signed a, 1 <= s <= 63; the result must fit */
static inline __s64 kb_smul_shr(__s64 a, __u64 b, unsigned int s)
{
	__u64 v = kb_mul_shr(a < 0 ? -(__u64)a : (__u64)a, b, s);

	return a < 0 ? -(__s64)v : (__s64)v;
}

/* ---- logarithm and exponential --------------------------------------- */

/*
 * ln t for t in [1, 2), Q62 in and out.  t is divided by (1 - 2^-j),
 * j = 2..32, at most twice each, while it stays >= 1; what is left is
 * 1 + d with d < 2^-31, and ln(1 + d) = d to within 2^-63.
 */
static inline __u64 kb_ln_mant(__u64 t)
{
	__u64 acc = 0;
	int j, rep;

	for (j = 2; j <= 32; j++) {
		for (rep = 0; rep < 2; rep++) {
			if (t - (t >> j) < KB_P_ONE)
				break;
			t -= t >> j;
			acc += kb_ln1m_tab[j - 1];
		}
	}
	return acc + (t - KB_P_ONE);
}

/**
 * kb_ln_hp() - precise natural logarithm of a fixed-point value
 * @x: the value times 2^@fb, non-zero
 * @fb: fraction bits of @x, 0..63
 *
 * Absolute error below 2^-54.
 *
 * Return: ln(x / 2^fb) in Q8.56, or KB_HP_NEG_INF for x == 0.
 */
static inline __s64 kb_ln_hp(__u64 x, unsigned int fb)
{
	__u64 t, lm, hi, lo, l2;
	int e, ex;

	if (!x)
		return KB_HP_NEG_INF;
	e = kb_fls64(x);
	t = e < 63 ? x << (62 - e) : x >> 1;
	lm = (kb_ln_mant(t) + 32) >> (KB_P_SHIFT - KB_HP_SHIFT);
	ex = e - (int)fb;
	lo = kb_mul128(KB_LN2_Q62, (__u64)(ex < 0 ? -ex : ex), &hi);
	l2 = (hi << 58) | (lo >> 6);	/* |ex| ln 2 < 44, Q56 */
	return ex < 0 ? (__s64)lm - (__s64)l2 : (__s64)(lm + l2);
}

/* Q8.56 to Q32.32, rounded */
static inline __s64 kb_hp_to_ln(__s64 h)
{
	return (h + (1LL << 23)) >> 24;
}

/**
 * kb_ln_fx() - natural logarithm of a fixed-point value
 * @x: the value times 2^@fb
 * @fb: fraction bits of @x, 0..63 (0 for an integer, 62 for Q62)
 *
 * Return: ln(x / 2^fb) in Q32.32, or KB_LN_NEG_INF for x == 0.
 */
static inline __s64 kb_ln_fx(__u64 x, unsigned int fb)
{
	if (!x)
		return KB_LN_NEG_INF;
	return kb_hp_to_ln(kb_ln_hp(x, fb));
}

/* ln x of an integer, Q32.32 */
static inline __s64 kb_ln_u64(__u64 x)
{
	return kb_ln_fx(x, 0);
}

/**
 * kb_nln1m() - -ln(1 - num / den), accurate for a tiny ratio
 * @num: numerator, num < den
 * @den: denominator
 *
 * Computed as ln den - ln(den - num) from exact integers: the absolute
 * error is below 2^-53, i.e. a relative error below 2^-21 even for
 * num / den = 2^-32 (one set bit in the largest filter).
 *
 * Return: the value in Q8.56 (0 for num == 0; 0 for num >= den, which has
 * no finite value; callers check).
 */
static inline __s64 kb_nln1m(__u64 num, __u64 den)
{
	__s64 d;

	if (!num || num >= den)
		return 0;
	d = kb_ln_hp(den, 0) - kb_ln_hp(den - num, 0);
	return d > 0 ? d : 0;
}

/*
 * e^-r for r in [0, ln 2), Q62 in and out: 1 is multiplied by (1 - 2^-j),
 * j = 2..32, at most twice each, while r >= -ln(1 - 2^-j); the remainder
 * r < 2^-31 contributes a factor 1 - r to within 2^-63.
 */
static inline __u64 kb_exp_mant(__u64 r)
{
	__u64 z = KB_P_ONE;
	int j, rep;

	for (j = 2; j <= 32; j++) {
		for (rep = 0; rep < 2; rep++) {
			if (r < kb_ln1m_tab[j - 1])
				break;
			r -= kb_ln1m_tab[j - 1];
			z -= z >> j;
		}
	}
	return z - kb_mul_shr(z, r, KB_P_SHIFT);
}

/*
 * Splits ax >= 0 (Q32.32) as q ln 2 + r with 0 <= r < ln 2 (r in Q62).
 */
static inline __u64 kb_exp_split(__u64 ax, __u64 *r)
{
	__u64 q, t;

	kb_mul128(ax, KB_LOG2E_Q62, &q);
	q >>= 30;				/* floor(ax / ln 2) or one less */
	t = (ax << 30) - q * KB_LN2_Q62;	/* exact modulo 2^64 */
	if ((__s64)t < 0)
		t = 0;				/* rounding of KB_LN2_Q62 */
	if (t >= KB_LN2_Q62) {
		t -= KB_LN2_Q62;
		q++;
	}
	*r = t;
	return q;
}

/**
 * kb_exp_q32() - exponential of a non-positive value
 * @x: exponent, Q32.32, <= 0 (positive values give 1.0)
 *
 * Error below 2^-57 relative plus 2^-62 absolute (the Q62 rounding).
 *
 * Return: e^x in Q62 (0 when e^x < 2^-63).
 */
static inline __u64 kb_exp_q32(__s64 x)
{
	__u64 q, r, z;

	if (x >= 0)
		return KB_P_ONE;
	if (x <= -KB_EXP_MIN)
		return 0;
	q = kb_exp_split((__u64)-x, &r);
	z = kb_exp_mant(r);
	if (q >= 63)
		return 0;
	return q ? (z + (1ULL << (q - 1))) >> q : z;
}

/* ---- floating point in integers --------------------------------------- */

/*
 * A tiny floating-point number for sums of products that span hundreds of
 * binary orders of magnitude: the value is m * 2^(e - 63) with bit 63 of m
 * set, or zero when m == 0.  Operations truncate (relative error 2^-63).
 */
struct kb_fl {
	__u64 m;
	__s32 e;
};

static inline struct kb_fl kb_fl_make(__u64 m, __s32 e)
{
	struct kb_fl z = { m, e };

	return z;
}

/* x / 2^fb */
static inline struct kb_fl kb_fl_from(__u64 x, int fb)
{
	int t;

	if (!x)
		return kb_fl_make(0, 0);
	t = kb_fls64(x);
	return kb_fl_make(x << (63 - t), t - fb);
}

/* num / den to 63 bits, den != 0 */
static inline struct kb_fl kb_fl_div(__u64 num, __u64 den)
{
	int s, d;

	if (!num)
		return kb_fl_make(0, 0);
	s = 63 - kb_fls64(num);
	d = kb_fls64(den);
	return kb_fl_from(kb_div_fx(num << s, den, d), s + d);
}

static inline struct kb_fl kb_fl_mul(struct kb_fl a, struct kb_fl b)
{
	__u64 hi, lo = kb_mul128(a.m, b.m, &hi);
	__u64 s = (hi >> 63) ^ 1;	/* 1 when the product needs a shift */

	return kb_fl_make((hi << s) | ((lo >> 63) & s),
			  a.e + b.e + 1 - (__s32)s);
}

/* a * i for a 32-bit integer i */
static inline struct kb_fl kb_fl_mul_u32(struct kb_fl a, __u32 i)
{
	__u64 hi, lo = kb_mul128(a.m, i, &hi);
	int s;

	if (!hi)
		return kb_fl_from(lo, -a.e + 63);
	s = kb_fls64(hi) + 1;
	return kb_fl_make((hi << (64 - s)) | (lo >> s), a.e + s);
}

/*
 * a / d for a 32-bit d != 0.  The only 64-bit divisions in this file: they
 * compile to one instruction on x86_64, arm64 and BPF (a 32-bit kernel
 * would need div_u64() here).
 */
static inline struct kb_fl kb_fl_div_u32(struct kb_fl a, __u32 d)
{
	__u64 q, r;
	int s;

	if (!a.m)
		return a;
	q = a.m / d;
	r = a.m - q * d;
	s = 63 - kb_fls64(q);	/* q >= 2^31, s <= 32, r << s < 2^64 */
	if (s)
		q = (q << s) | ((r << s) / d);
	return kb_fl_make(q, a.e - s);
}

static inline struct kb_fl kb_fl_add(struct kb_fl a, struct kb_fl b)
{
	struct kb_fl t;
	__u64 m;

	if (!b.m)
		return a;
	if (!a.m)
		return b;
	if (b.e > a.e) {
		t = a;
		a = b;
		b = t;
	}
	if (a.e - b.e >= 64)
		return a;
	m = a.m + (b.m >> (a.e - b.e));
	if (m < a.m)
		return kb_fl_make((m >> 1) | (1ULL << 63), a.e + 1);
	return kb_fl_make(m, a.e);
}

/* a > b */
static inline int kb_fl_gt(struct kb_fl a, struct kb_fl b)
{
	if (!a.m || !b.m)
		return a.m > b.m;
	if (a.e != b.e)
		return a.e > b.e;
	return a.m > b.m;
}

static inline struct kb_fl kb_fl_pow(struct kb_fl a, __u32 e)
{
	struct kb_fl r = kb_fl_make(1ULL << 63, 0);

	while (e) {
		if (e & 1)
			r = kb_fl_mul(r, a);
		e >>= 1;
		if (e)
			a = kb_fl_mul(a, a);
	}
	return r;
}

/* e^x for x <= 0 in Q32.32, without underflow */
static inline struct kb_fl kb_fl_exp(__s64 x)
{
	struct kb_fl z;
	__u64 q, r;

	if (x >= 0)
		return kb_fl_make(1ULL << 63, 0);
	q = kb_exp_split((__u64)-x, &r);
	if (q >> 30)
		return kb_fl_make(0, 0);
	z = kb_fl_from(kb_exp_mant(r), KB_P_SHIFT);
	z.e -= (__s32)q;
	return z;
}

/* ln a in Q32.32 (KB_LN_NEG_INF for 0) */
static inline __s64 kb_fl_ln(struct kb_fl a)
{
	if (!a.m)
		return KB_LN_NEG_INF;
	return kb_ln_fx(a.m, 63) + kb_smul_shr(a.e, KB_LN2_Q62, 30);
}

/* a in Q62, saturated */
static inline __u64 kb_fl_q62(struct kb_fl a)
{
	if (!a.m || a.e < -62)
		return 0;
	if (a.e > 1)
		return ~0ULL;
	return a.m >> (1 - a.e);
}

/* ---- false-positive probability -------------------------------------- */

/* ln((1 - e^-a) / a) for 0 <= a < 1/16, Q32.32: -a/2 + a^2/24 - a^4/2880 */
static inline __s64 kb_ln_expm1_rel(__u64 a)
{
	__u64 a2 = kb_mul_shr(a, a, 32);
	__u64 a4 = kb_mul_shr(a2, a2, 32);

	return -(__s64)((a + 1) >> 1) + (__s64)kb_mulhi64(a2, KB_INV24_Q64) -
	       (__s64)kb_mulhi64(a4, KB_INV2880_Q64);
}

#define KB_A_SMALL	(1ULL << (KB_LN_SHIFT - 4))	/* a = 1/16 */
#define KB_A_SAT	(48ULL << KB_LN_SHIFT)		/* p == 1 to Q62 */

/*
 * ln p of a standard filter, Q32.32: k ln(1 - e^-a), a = k n / m.  For a
 * small a, 1 - e^-a is a * e^(ln((1 - e^-a) / a)) and ln a comes exactly
 * from the integers k n and m.  n < 2^55.
 */
static inline __s64 kb_ln_fpr_std(__u64 m, __u32 k, __u64 n)
{
	__u64 num = n * k, a;
	__s64 l;

	a = kb_div_fx(num, m, KB_LN_SHIFT);
	if (a >= KB_A_SAT)
		return 0;
	if (a < KB_A_SMALL) {
		l = kb_hp_to_ln(kb_ln_hp(num, 0) - kb_ln_hp(m, 0));
		l += kb_ln_expm1_rel(a);
	} else {
		l = kb_ln_fx(KB_P_ONE - kb_exp_q32(-(__s64)a), KB_P_SHIFT);
	}
	return l * (__s64)k;
}

/* Blocked filters: lambda beyond which p == 1 for every k */
#define KB_BLK_LAMBDA_MAX	0x100000U
/* all terms from i on have p(i) == 1 to Q62 once i k >= 48 * 512.5 */
#define KB_BLK_SAT		24600ULL
/* the tail is dropped once it is below 2^-40 of the sum */
#define KB_BLK_EPS		40

/* State of one evaluation of the blocked formula */
struct kb_blk {
	struct kb_fl lam;	/* lambda = B n / m */
	struct kb_fl ilam;	/* 1 / lambda */
	struct kb_fl y;		/* (1 - 1/B)^k */
	struct kb_fl yinv;	/* (1 - 1/B)^-k */
	struct kb_fl lim;	/* give up once the sum exceeds this */
	struct kb_fl sum;
	__u32 k;
	__u32 i0;	/* floor(lambda), the mode of the Poisson law */
	__u32 sq;	/* isqrt(i0) + 1 >= sqrt(lambda) */
	__u32 lo;	/* summation window, lo >= 1 */
	__u32 hi;
	__s32 lsq;	/* log2(sq) rounded up, plus one */
};

/* a^e in Q62 for a <= 2 and a result below 4 */
static inline __u64 kb_pow_q62(__u64 a, __u64 e)
{
	__u64 r = KB_P_ONE;

	while (e) {
		if (e & 1)
			r = kb_mul_shr(r, a, KB_P_SHIFT);
		e >>= 1;
		if (e)
			a = kb_mul_shr(a, a, KB_P_SHIFT);
	}
	return r;
}

/* ln(n!) in Q32.32 for n < KB_BLK_LAMBDA_MAX */
static inline __s64 kb_lnfact(__u32 n)
{
	__u64 f = 1, n3;
	__s64 r;
	__u32 j;

	if (n <= 20) {		/* 20! < 2^63 */
		for (j = 2; j <= n; j++)
			f *= j;
		return kb_ln_u64(f);
	}
	/*
	 * Stirling: (n + 1/2) ln n - n + ln(2 pi) / 2 + 1 / (12 n)
	 * - 1 / (360 n^3) + 1 / (1260 n^5), within 2^-33 from n = 21 on
	 */
	r = (__s64)kb_mul_shr(2 * (__u64)n + 1, (__u64)kb_ln_hp(n, 0), 25);
	r -= (__s64)n * KB_LN_ONE;
	r += KB_LN_SQRT_2PI + (__s64)kb_div_fx(1, 12 * (__u64)n, KB_LN_SHIFT);
	if (n < 1024) {
		n3 = (__u64)n * n * n;
		r -= (__s64)kb_div_fx(1, 360 * n3, KB_LN_SHIFT);
		r += (__s64)kb_div_fx(1, 1260 * n3 * n * n, KB_LN_SHIFT);
	}
	return r;
}

/* Adds Pois(i) (1 - u)^k, u = (1 - 1/B)^(i k); the new sum */
static inline struct kb_fl kb_blk_add(struct kb_blk *b, struct kb_fl pois,
				      struct kb_fl u)
{
	__u64 v = KB_P_ONE - kb_fl_q62(u);
	struct kb_fl t;

	t = kb_fl_mul(pois, kb_fl_pow(kb_fl_from(v, KB_P_SHIFT), b->k));
	b->sum = kb_fl_add(b->sum, t);
	return t;
}

/*
 * Terms i0, i0 - 1, ... down to the window.  Below lambda - sqrt(lambda)
 * each term is at most 1 - 1/sqrt(lambda) times the one above it, so the
 * rest is below sqrt(lambda) times the current term.  Returns 1 when the
 * sum exceeds the limit.
 */
static inline int kb_blk_down(struct kb_blk *b, struct kb_fl pois,
			      struct kb_fl u)
{
	struct kb_fl t;
	__u32 i;

	for (i = b->i0; i >= b->lo; i--) {
		t = kb_blk_add(b, pois, u);
		if (kb_fl_gt(b->sum, b->lim))
			return 1;
		if (i + b->sq <= b->i0 &&
		    (!t.m || t.e + b->lsq < b->sum.e - KB_BLK_EPS))
			break;
		pois = kb_fl_mul(kb_fl_mul_u32(pois, i), b->ilam);
		u = kb_fl_mul(u, b->yinv);
	}
	return 0;
}

/*
 * Terms i0 + 1, ... up to the window.  Above lambda + sqrt(lambda) the
 * Poisson probabilities fall by a factor 1 - 1/sqrt(lambda) or faster and
 * p(i) <= 1, so the rest is below sqrt(lambda) Pois(i).
 */
static inline int kb_blk_up(struct kb_blk *b, struct kb_fl pois,
			    struct kb_fl u)
{
	__u32 i;

	for (i = b->i0 + 1; i <= b->hi; i++) {
		pois = kb_fl_div_u32(kb_fl_mul(pois, b->lam), i);
		u = kb_fl_mul(u, b->y);
		kb_blk_add(b, pois, u);
		if (kb_fl_gt(b->sum, b->lim))
			return 1;
		if (i > b->i0 + b->sq &&
		    (!pois.m || pois.e + b->lsq < b->sum.e - KB_BLK_EPS))
			break;
	}
	return 0;
}

/* Sets up the evaluation; returns 1 when p == 1 to Q62.  n < 2^55. */
static inline int kb_blk_init(struct kb_blk *b, __u64 m, __u32 k, __u64 n,
			      __s64 lnlim)
{
	__u64 num = n * KBLOOM_BLOCK_BITS;
	__u64 i0 = kb_div_fx(num, m, 0);
	__u32 w;

	if (i0 >= KB_BLK_LAMBDA_MAX)
		return 1;
	b->k = k;
	b->i0 = (__u32)i0;
	b->sq = (__u32)kb_isqrt(i0) + 1;
	b->lsq = kb_fls64(b->sq) + 2;
	w = 12 * b->sq + 20;
	b->lo = b->i0 > w ? b->i0 - w : 1;
	b->hi = b->i0 + w;
	if ((__u64)b->lo * k >= KB_BLK_SAT)
		return 1;
	b->lam = kb_fl_div(num, m);
	b->ilam = kb_fl_div(m, num);
	b->y = kb_fl_from(kb_pow_q62(KB_P_ONE - KB_P_ONE / KBLOOM_BLOCK_BITS,
				     k), KB_P_SHIFT);
	b->yinv = kb_fl_from(kb_pow_q62(KB_P_ONE + KB_P_ONE /
					(KBLOOM_BLOCK_BITS - 1), k),
			     KB_P_SHIFT);
	b->lim = kb_fl_exp(lnlim);
	b->sum = kb_fl_make(0, 0);
	return 0;
}

/*
 * ln p of a blocked filter, Q32.32: the sum of Pois(i) (1 - (1 - 1/B)^(i k))^k
 * from the mode outwards, or ln of a partial sum above lnlim (<= 0) as soon
 * as one is.  n < 2^55.
 */
static inline __s64 kb_ln_fpr_blocked(__u64 m, __u32 k, __u64 n,
				      __s64 lnlim)
{
	struct kb_blk b;
	struct kb_fl pois, u;
	__s64 lnp;

	if (kb_blk_init(&b, m, k, n, lnlim))
		return 0;
	/* ln Pois(i0) = i0 ln lambda - lambda - ln(i0!) */
	lnp = kb_smul_shr(kb_ln_hp(n * KBLOOM_BLOCK_BITS, 0) - kb_ln_hp(m, 0),
			  b.i0, KB_HP_SHIFT - KB_LN_SHIFT);
	lnp -= (__s64)kb_div_fx(n * KBLOOM_BLOCK_BITS, m, KB_LN_SHIFT);
	pois = kb_fl_exp(lnp - kb_lnfact(b.i0));
	u = kb_fl_pow(b.y, b.i0);
	if (b.i0 < 1 || !kb_blk_down(&b, pois, u))
		kb_blk_up(&b, pois, u);
	lnp = kb_fl_ln(b.sum);
	return lnp < 0 ? lnp : 0;
}

static inline int kb_type_ok(__u32 type)
{
	return type == KBLOOM_TYPE_STANDARD || type == KBLOOM_TYPE_BLOCKED ||
	       type == KBLOOM_TYPE_COUNTING;
}

/*
 * ln p in Q32.32, or, for blocked filters, possibly only the ln of a partial
 * sum once that exceeds lnlim (<= 0): enough to compare p with e^lnlim.
 */
static inline __s64 kb_ln_fpr_lim(__u32 type, __u64 m, __u32 k, __u64 n,
				  __s64 lnlim)
{
	int s;

	if (!kb_type_ok(type) || !m || k < KBLOOM_K_MIN || k > KBLOOM_K_MAX)
		return 0;
	if (!n)
		return KB_LN_NEG_INF;
	if (n >> 55) {	/* keep n * 512 and n * k in 64 bits */
		s = kb_fls64(n) - 54;
		n >>= s;
		m >>= s;
		if (!m)
			return 0;
	}
	if (type == KBLOOM_TYPE_BLOCKED)
		return kb_ln_fpr_blocked(m, k, n, lnlim);
	return kb_ln_fpr_std(m, k, n);
}

/**
 * kb_plan_ln_fpr() - ln of the predicted false-positive probability
 * @type: KBLOOM_TYPE_*
 * @m: bits or counters, non-zero (any value; no alignment needed)
 * @k: probes per key, KBLOOM_K_MIN..KBLOOM_K_MAX
 * @n: keys inserted
 *
 * Return: ln p in Q32.32 (<= 0); KB_LN_NEG_INF for n == 0; 0 (p = 1) for
 * invalid parameters.
 */
static inline __s64 kb_plan_ln_fpr(__u32 type, __u64 m, __u32 k, __u64 n)
{
	return kb_ln_fpr_lim(type, m, k, n, 0);
}

/**
 * kb_plan_fpr() - predicted false-positive probability
 * @type: KBLOOM_TYPE_STANDARD, _COUNTING (classical formula) or _BLOCKED
 * @m: bits or counters, non-zero
 * @k: probes per key, KBLOOM_K_MIN..KBLOOM_K_MAX
 * @n: keys inserted
 *
 * Return: p in Q62 (KB_P_ONE is 1.0); 0 for n == 0; KB_P_ONE for invalid
 * parameters (unknown type, m == 0, k out of range).
 */
static inline __u64 kb_plan_fpr(__u32 type, __u64 m, __u32 k, __u64 n)
{
	return kb_exp_q32(kb_plan_ln_fpr(type, m, k, n));
}

/* A Q62 probability in pico units, rounded */
static inline __u64 kb_p_to_pico(__u64 p)
{
	__u64 hi, lo = kb_mul128(p, KBLOOM_P_UNIT, &hi);

	lo += 1ULL << (KB_P_SHIFT - 1);
	hi += lo < (1ULL << (KB_P_SHIFT - 1));
	return (hi << (64 - KB_P_SHIFT)) | (lo >> KB_P_SHIFT);
}

/* kb_plan_fpr() in units of 1e-12 (KBLOOM_P_UNIT), rounded */
static inline __u64 kb_plan_fpr_pico(__u32 type, __u64 m, __u32 k, __u64 n)
{
	return kb_p_to_pico(kb_plan_fpr(type, m, k, n));
}

/* ---- explicit parameters ---------------------------------------------- */

/* Granularity of m: whole blocks, or whole 64-bit words of bits/counters */
static inline __u64 kb_plan_step(__u32 type)
{
	return type == KBLOOM_TYPE_BLOCKED ? KBLOOM_BLOCK_BITS : 64;
}

/* Counter width of a counting filter: 0 selects the default */
static inline __u32 kb_counter_bits(__u32 counter_bits)
{
	if (!counter_bits)
		return KBLOOM_COUNTER_BITS_DEFAULT;
	if (counter_bits == KBLOOM_COUNTER_BITS_DEFAULT ||
	    counter_bits == KBLOOM_COUNTER_BITS_WIDE)
		return counter_bits;
	return 0;
}

/**
 * kb_plan_bytes() - size of the bit or counter array
 * @type: KBLOOM_TYPE_*
 * @m: bits or counters
 * @counter_bits: counter width of a counting filter (0: default); ignored
 *                for bit filters
 *
 * Return: bytes, rounded up to whole 64-bit words (U64_MAX if that does
 * not fit); 0 for an unknown type or counter width.
 */
static inline __u64 kb_plan_bytes(__u32 type, __u64 m, __u32 counter_bits)
{
	unsigned int per_word;	/* log2 of bits or counters per 64-bit word */
	__u64 words;

	if (!kb_type_ok(type))
		return 0;
	if (type != KBLOOM_TYPE_COUNTING)
		per_word = 6;
	else if (kb_counter_bits(counter_bits) == 4)
		per_word = 4;
	else if (kb_counter_bits(counter_bits) == 8)
		per_word = 3;
	else
		return 0;
	words = (m >> per_word) + !!(m & ((1ULL << per_word) - 1));
	return words >> 61 ? ~0ULL : words << 3;
}

/**
 * kb_plan_check() - validate explicit filter parameters
 * @type: KBLOOM_TYPE_*
 * @m: bits or counters: KBLOOM_M_MIN..KBLOOM_M_MAX, a multiple of 512
 *     (blocked) or of 64 (standard, counting: whole 64-bit words)
 * @k: probes per key, KBLOOM_K_MIN..KBLOOM_K_MAX
 * @counter_bits: counting filters: 0 (default 4), 4 or 8; ignored for bit
 *                filters
 *
 * Checked in this order: type, k, counter width, m.
 *
 * Return: 0, -EINVAL, or -E2BIG when m exceeds KBLOOM_M_MAX.
 */
static inline int kb_plan_check(__u32 type, __u64 m, __u32 k,
				__u32 counter_bits)
{
	if (!kb_type_ok(type))
		return -EINVAL;
	if (k < KBLOOM_K_MIN || k > KBLOOM_K_MAX)
		return -EINVAL;
	if (type == KBLOOM_TYPE_COUNTING && !kb_counter_bits(counter_bits))
		return -EINVAL;
	if (m > KBLOOM_M_MAX)
		return -E2BIG;
	if (m < KBLOOM_M_MIN || (m & (kb_plan_step(type) - 1)))
		return -EINVAL;
	return 0;
}

/* ---- the planner ------------------------------------------------------ */

/* One planning request: m = u * step */
struct kb_plan_req {
	__u32 type;
	__u64 n;
	__u64 step;
	__s64 lnt;	/* ln of the target, Q32.32 */
};

static inline int kb_plan_pass(const struct kb_plan_req *rq, __u64 u,
			       __u32 k)
{
	return kb_ln_fpr_lim(rq->type, u * rq->step, k, rq->n, rq->lnt) <=
	       rq->lnt;
}

/* Smallest u in [lo, hi] that passes, hi passing (p falls as m grows) */
static inline __u64 kb_plan_bisect(const struct kb_plan_req *rq, __u32 k,
				   __u64 lo, __u64 hi)
{
	__u64 mid;

	while (lo < hi) {
		mid = lo + ((hi - lo) >> 1);
		if (kb_plan_pass(rq, mid, k))
			hi = mid;
		else
			lo = mid + 1;
	}
	return hi;
}

/* Smallest passing u, hi passing: gallop down from hi, then bisect */
static inline __u64 kb_plan_gallop(const struct kb_plan_req *rq, __u32 k,
				   __u64 hi)
{
	__u64 g = 1;

	while (g < hi && kb_plan_pass(rq, hi - g, k)) {
		hi -= g;
		g <<= 1;
	}
	return kb_plan_bisect(rq, k, g < hi ? hi - g + 1 : 1, hi);
}

/*
 * Offers k: it wins if it reaches the target with fewer words than the
 * best so far, or with as many and a smaller k.  A k that does not win
 * costs one evaluation.
 */
static inline void kb_plan_try(const struct kb_plan_req *rq, __u32 k,
			       __u64 *best_u, __u32 *best_k)
{
	__u64 u = *best_u;

	if (k > *best_k) {
		if (u <= 1)
			return;
		u--;
	}
	if (!kb_plan_pass(rq, u, k))
		return;
	*best_u = kb_plan_gallop(rq, k, u);
	*best_k = k;
}

/* k of the classical optimum, -log2 p, as the first candidate */
static inline __u32 kb_plan_k0(__s64 lnt)
{
	__u64 k = ((__u64)-lnt * KB_LOG2E_Q24 + (1ULL << 55)) >> 56;

	if (k < KBLOOM_K_MIN)
		return KBLOOM_K_MIN;
	return k > KBLOOM_K_MAX ? KBLOOM_K_MAX : (__u32)k;
}

static inline __s64 kb_plan_lnp(const struct kb_plan_req *rq, __u64 u,
				__u32 k)
{
	return kb_ln_fpr_lim(rq->type, u * rq->step, k, rq->n, 0);
}

/*
 * The k with the smallest p at m = u * step (the smallest such k on ties),
 * walking from k: p is unimodal in k.  This is only the order in which
 * kb_plan() offers the k: every k is examined anyway.
 */
static inline __u32 kb_plan_kbest(const struct kb_plan_req *rq, __u64 u,
				  __u32 k)
{
	__s64 c = kb_plan_lnp(rq, u, k), t;

	while (k > KBLOOM_K_MIN) {
		t = kb_plan_lnp(rq, u, k - 1);
		if (t > c)
			break;
		c = t;
		k--;
	}
	while (k < KBLOOM_K_MAX) {
		t = kb_plan_lnp(rq, u, k + 1);
		if (t >= c)
			break;
		c = t;
		k++;
	}
	return k;
}

/**
 * kb_plan() - size a filter for n keys at a target false-positive rate
 * @type: KBLOOM_TYPE_*
 * @n: expected keys, > 0
 * @p_pico: target p in units of 1e-12,
 *          KBLOOM_P_TARGET_MIN..KBLOOM_P_TARGET_MAX
 * @counter_bits: counting filters: 0 (default 4), 4 or 8; ignored (and
 *                reported 0) for bit filters
 * @out: the plan; written only on success
 *
 * Finds the smallest m (a multiple of 512 for blocked filters, of 64
 * otherwise) for which some k in KBLOOM_K_MIN..KBLOOM_K_MAX gives a
 * predicted p <= target at n, and the smallest such k.  Counting filters
 * use the classical formula.  Every k is examined: the k of the classical
 * optimum is bisected over the whole range of m, then the k with the
 * smallest p at that m is offered, then every other k: each costs one
 * evaluation unless it improves on the best so far.
 *
 * Return: 0; -EINVAL for an unknown type or counter width, n == 0, a
 * target out of range or a NULL @out; -E2BIG when m would exceed
 * KBLOOM_M_MAX.
 */
static inline int kb_plan(__u32 type, __u64 n, __u64 p_pico,
			  __u32 counter_bits, struct kb_plan *out)
{
	struct kb_plan_req rq;
	__u64 umax, best_u;
	__u32 k, k0, k1, best_k = 0;

	if (!out || !n || !kb_type_ok(type) ||
	    p_pico < KBLOOM_P_TARGET_MIN || p_pico > KBLOOM_P_TARGET_MAX)
		return -EINVAL;
	if (type == KBLOOM_TYPE_COUNTING && !kb_counter_bits(counter_bits))
		return -EINVAL;
	rq.type = type;
	rq.n = n;
	rq.step = kb_plan_step(type);
	rq.lnt = kb_hp_to_ln(kb_ln_hp(p_pico, 0) - KB_LN_1E12_HP);
	umax = type == KBLOOM_TYPE_BLOCKED ? KBLOOM_M_MAX / KBLOOM_BLOCK_BITS :
					     KBLOOM_M_MAX / 64;
	k0 = kb_plan_k0(rq.lnt);
	best_u = umax + 1;
	if (kb_plan_pass(&rq, umax, k0)) {
		best_u = kb_plan_bisect(&rq, k0, 1, umax);
		best_k = k0;
	}
	k1 = kb_plan_kbest(&rq, best_u > umax ? umax : best_u, k0);
	if (k1 != k0)
		kb_plan_try(&rq, k1, &best_u, &best_k);
	for (k = KBLOOM_K_MIN; k <= KBLOOM_K_MAX; k++)
		if (k != k0 && k != k1)
			kb_plan_try(&rq, k, &best_u, &best_k);
	if (!best_k)
		return -E2BIG;
	out->m = best_u * rq.step;
	out->k = best_k;
	out->counter_bits = type == KBLOOM_TYPE_COUNTING ?
			    kb_counter_bits(counter_bits) : 0;
	out->bytes = kb_plan_bytes(type, out->m, out->counter_bits);
	out->fpr_pico = kb_plan_fpr_pico(type, out->m, out->k, n);
	return 0;
}

/* ---- cardinality estimate --------------------------------------------- */

/**
 * kb_n_est() - estimated number of distinct keys in a filter
 * @m: bits (or counters), at most 2^48 for full accuracy
 * @k: probes per key
 * @ones: set bits (for counting filters: non-zero counters)
 *
 * n_est = -(m / k) ln(1 - ones / m), rounded to nearest; the error before
 * rounding is below (m / k) 2^-53.
 *
 * Return: the estimate; 0 for ones == 0 or m == 0 or k == 0; KB_N_EST_INF
 * (U64_MAX) when ones >= m (a full filter says nothing about n).
 */
static inline __u64 kb_n_est(__u64 m, __u32 k, __u64 ones)
{
	__u64 hi, lo, v;

	if (!m || !k || !ones)
		return 0;
	if (ones >= m)
		return KB_N_EST_INF;
	/* v = m * d in Q8, d = -ln(1 - ones / m) in Q56 */
	lo = kb_mul128(m, (__u64)kb_nln1m(ones, m), &hi);
	if (hi >> 47)
		return KB_N_EST_INF;
	v = (hi << 16) | (lo >> 48);
	return kb_div_fx(v + ((__u64)k << 7), (__u64)k << 8, 0);
}

#endif /* _UAPI_KBLOOM_PLAN_H */
