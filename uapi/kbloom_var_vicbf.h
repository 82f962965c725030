/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the variable-increment counting filter: its positions,
 * layout and planner, shared by every executor.  Its shape and the one
 * validation are kbloom_shape.h's.
 *
 * Variable-increment counting (Rottenstreich, Kanizo, Keslassy, INFOCOM
 * 2012), m counters of 4 or 8 bits (the counting layout) and L: probe i
 * takes g_i of the standard/counting sequence (kbloom_layout.h), position
 * kb_reduce32(g_i >> 32, m), increment v_i = L + kb_reduce32((u32)g_i, L),
 * one of {L, ..., 2L - 1}.  A counter c holding key x's v is c = v + S
 * where S, the other keys' increments, is 0 or at least L: x is possibly
 * present iff every probed c is saturated, equal to v, or at least v + L.
 *
 * Range reduction is kb_reduce32() (multiply-shift) everywhere.
 */
#ifndef _UAPI_KBLOOM_VAR_VICBF_H
#define _UAPI_KBLOOM_VAR_VICBF_H

#include "kbloom_shape.h"

/*
 * The next position over @m counters, and its increment in [@l, 2 @l).
 * Same sequence as kb_probe_next(): the positions of a VI filter are those
 * of a counting filter with the same m and k.
 */
static inline __u32 kb_vi_next(struct kb_probe *p, __u64 m, __u32 l,
			       __u32 *inc)
{
	__u32 pos = kb_reduce32(kb_probe_word(p), m);

	*inc = l + kb_reduce32((__u32)p->g, l);
	p->g *= KB_PROBE_MUL;
	return pos;
}

/* Counter @c is consistent with holding increment @v (see above). */
static inline int kb_vi_match(__u64 c, __u32 v, __u32 l, __u32 counter_bits)
{
	return c == kb_ctr_max(counter_bits) || c == v || c >= (__u64)v + l;
}

/*
 * Counter transitions of the VI filter, applied inside the executor's
 * compare-and-exchange loop on the word (as kb_ctr_inc()/kb_ctr_dec()).
 * An add of @v saturates at the maximum when c + v reaches it; a saturated
 * counter never moves again, so no delete can create a false negative.  A
 * delete takes @v from a counter that is not saturated: c == v gives 0,
 * c >= v + L gives c - v >= L.  Any other c (possible only when a delete
 * of a key that was never added races with other deletes) gives 0, so
 * that every counter is always 0, at least L or saturated: an added key
 * then always matches (kb_vi_counters_ok() checks images for it).
 */
static inline __u64 kb_vi_ctr_add(__u64 word, __u32 shift, __u32 counter_bits,
				  __u32 v)
{
	__u64 max = kb_ctr_max(counter_bits);
	__u64 c = kb_ctr_get(word, shift, counter_bits);

	c = (c == max || c + v >= max) ? max : c + v;
	return (word & ~(max << shift)) | (c << shift);
}

static inline __u64 kb_vi_ctr_sub(__u64 word, __u32 shift, __u32 counter_bits,
				  __u32 v, __u32 l)
{
	__u64 max = kb_ctr_max(counter_bits);
	__u64 c = kb_ctr_get(word, shift, counter_bits);

	if (c == max)
		return word;
	c = c >= (__u64)v + l ? c - v : 0;
	return (word & ~(max << shift)) | (c << shift);
}

/*
 * Every counter of a VI payload (@len bytes of little-endian words, at any
 * alignment) is 0, at least @l or saturated: the states adds and deletes
 * leave (kb_vi_ctr_sub()).  A payload with a counter in [1, @l) would make
 * a later add of a key not find it.
 */
static inline int kb_vi_counters_ok(const __u8 *payload, __u64 len,
				    __u32 counter_bits, __u32 l)
{
	__u64 i, w, c;
	__u32 b, s;

	for (i = 0; i + 8 <= len; i += 8) {
		w = 0;
		for (b = 0; b < 8; b++)
			w |= (__u64)payload[i + b] << (8 * b);
		for (s = 0; s < 64 && w; s += counter_bits) {
			c = kb_ctr_get(w, s, counter_bits);
			if (c && c < l)
				return 0;
		}
	}
	return 1;
}

/*
 * The increment range of a VI filter when none is given: with 4-bit
 * counters L = 3, the largest L for which three keys on one counter reach
 * its maximum (15) only when all three draw the largest increment, so a
 * filter under add and delete churn keeps its rate (L = 4 is ~5x lower on
 * a set that only grows, but three keys mostly saturate a counter and
 * churn piles up saturated counters: the README gives both); with 8-bit
 * counters L = 4.
 */
#define KB_VI_L_DEFAULT_4	3U
#define KB_VI_L_DEFAULT_8	4U

/* The default L of a VI filter of @counter_bits (0: 4) counters. */
static inline __u32 kb_vi_l_default(__u32 counter_bits)
{
	return counter_bits == KBLOOM_COUNTER_BITS_WIDE ? KB_VI_L_DEFAULT_8 :
							  KB_VI_L_DEFAULT_4;
}

/*
 * A VI shape of @counter_bits (0: 4) and @l (0: kb_vi_l_default()), k and m
 * still 0: what CREATE and the library start from.
 */
static inline void kb_vi_shape_init(struct kb_shape *s, __u32 counter_bits,
				    __u32 l)
{
	s->type = KBLOOM_TYPE_VI_COUNTING;
	s->k = 0;
	s->m = 0;
	s->counter_bits = counter_bits ? counter_bits :
					 KBLOOM_COUNTER_BITS_DEFAULT;
	s->fp_bits = 0;
	s->slots = 0;
	s->tables = 0;
	s->vi_l = l ? l : kb_vi_l_default(s->counter_bits);
	s->update = 0;
	s->buckets = 0;
}

/* Terms of the series of e^lambda beyond lambda^2 / 2 (lambda < 1). */
#define KB_VI_SERIES_MAX	40U

/*
 * The false-positive probability of a VI filter (Rottenstreich, Kanizo,
 * Keslassy, INFOCOM 2012, Theorem on D_L = {L, ..., 2L - 1}).  A probed
 * counter holds the increments of j other keys; the query's increment v is
 * uniform in D_L.  The counter is consistent with v (a false "present" at
 * that probe) with probability
 *   j = 0:   0
 *   j = 1:   1 / L                          (the one increment equals v)
 *   j = 2:   1 - (L^2 - 1) / (6 L^2)        (u1 + u2 >= v + L; the pairs
 *            below are the (L - 1) L (L + 1) / 6 triples a + b < c of
 *            offsets in [0, L))
 *   j >= 3:  1                              (the sum is >= 3L > v + L - 1)
 * The paper weights these with the binomial p_j = C(nk, j) m^-j
 * (1 - 1/m)^(nk - j); as for the classic formula (kbloom_plan.h) this uses
 * its Poisson limit, lambda = k n / m:
 *   q = 1 - e^-lambda (1 + lambda (L - 1) / L + lambda^2 (L^2 - 1) / (12 L^2))
 *   p = q^k
 * Saturation does not change it: L <= 2^(w - 2) keeps two increments
 * (<= 4L - 2) below the maximum 2^w - 1, and j >= 3 is "present" anyway.
 * For lambda < 1, q is computed as e^-lambda times the positive series
 * lambda / L + lambda^2 (5 L^2 + 1) / (12 L^2) + sum_{j >= 3} lambda^j / j!
 * (no cancellation for a tiny lambda); otherwise directly (q >= 0.2).
 */
static inline struct kb_fl kb_vi_small_sum(struct kb_fl lam, __u32 l)
{
	struct kb_fl s, t, sq = kb_fl_mul(lam, lam);
	__u32 j;

	s = kb_fl_div_u32(lam, l);
	t = kb_fl_div_u32(kb_fl_mul_u32(sq, 5 * l * l + 1), 12 * l * l);
	s = kb_fl_add(s, t);
	t = kb_fl_div_u32(kb_fl_mul(sq, lam), 6);
	for (j = 3; j < KB_VI_SERIES_MAX && t.m && t.e > s.e - 64; j++) {
		s = kb_fl_add(s, t);
		t = kb_fl_div_u32(kb_fl_mul(t, lam), j + 1);
	}
	return s;
}

/* ln q, Q32.32, for lambda >= 1 (@lam_q32 the same lambda in Q32.32) */
static inline __s64 kb_vi_ln_q_large(struct kb_fl lam, __s64 lam_q32, __u32 l)
{
	struct kb_fl a = kb_fl_make(1ULL << 63, 0), t;
	__u64 neg;

	t = kb_fl_div_u32(kb_fl_mul_u32(lam, l - 1), l);
	a = kb_fl_add(a, t);
	t = kb_fl_mul_u32(kb_fl_mul(lam, lam), l * l - 1);
	a = kb_fl_add(a, kb_fl_div_u32(t, 12 * l * l));
	neg = kb_fl_q62(kb_fl_mul(kb_fl_exp(-lam_q32), a));
	if (neg >= KB_P_ONE)
		return KB_LN_NEG_INF;
	return kb_ln_fx(KB_P_ONE - neg, KB_P_SHIFT);
}

/**
 * kb_vi_ln_fpr() - ln of the predicted false-positive probability
 * @m: counters, non-zero
 * @k: probes per key, KBLOOM_K_MIN..KBLOOM_K_MAX
 * @n: keys inserted
 * @l: increments in [@l, 2 @l), 2..64
 *
 * Return: ln p in Q32.32 (<= 0); KB_LN_NEG_INF for n == 0; 0 (p = 1) for
 * invalid parameters.
 */
static inline __s64 kb_vi_ln_fpr(__u64 m, __u32 k, __u64 n, __u32 l)
{
	struct kb_fl lam;
	__u64 lam_q32;
	__s64 lnq;
	int s;

	if (!m || k < KBLOOM_K_MIN || k > KBLOOM_K_MAX || l < 2 || l > 64)
		return 0;
	if (!n)
		return KB_LN_NEG_INF;
	if (n >> 55) {		/* keep n * k in 64 bits */
		s = kb_fls64(n) - 54;
		n >>= s;
		m >>= s;
		if (!m)
			return 0;
	}
	lam_q32 = kb_div_fx(n * k, m, KB_LN_SHIFT);
	if (lam_q32 >= KB_A_SAT)
		return 0;
	lam = kb_fl_div(n * k, m);
	if (lam_q32 < KB_LN_ONE)
		lnq = kb_fl_ln(kb_vi_small_sum(lam, l)) - (__s64)lam_q32;
	else
		lnq = kb_vi_ln_q_large(lam, (__s64)lam_q32, l);
	if (lnq >= 0)
		return 0;
	return lnq * k;
}

/* kb_vi_ln_fpr() as a probability in units of 1e-12, rounded. */
static inline __u64 kb_vi_fpr_pico(__u64 m, __u32 k, __u64 n, __u32 l)
{
	return kb_p_to_pico(kb_exp_q32(kb_vi_ln_fpr(m, k, n, l)));
}

/* Smallest u in [lo, hi] with p(64 u, k) <= target, hi passing. */
static inline __u64 kb_vi_bisect(__u64 n, __u32 k, __u32 l, __s64 lnt,
				 __u64 lo, __u64 hi)
{
	__u64 mid;

	while (lo < hi) {
		mid = lo + ((hi - lo) >> 1);
		if (kb_vi_ln_fpr(mid * 64, k, n, l) <= lnt)
			hi = mid;
		else
			lo = mid + 1;
	}
	return hi;
}

/**
 * kb_vi_plan() - size a VI filter for n keys at a target rate
 * @n: expected keys, > 0
 * @p_pico: target p in units of 1e-12,
 *          KBLOOM_P_TARGET_MIN..KBLOOM_P_TARGET_MAX
 * @l: increments in [@l, 2 @l); 0 selects kb_vi_l_default(@counter_bits)
 * @counter_bits: 4 (also when 0) or 8
 * @out: the plan (m counters, k, counter width, bytes, predicted p at n);
 *       written only on success
 *
 * The smallest m (a multiple of 64) for which some k gives a predicted p
 * (kb_vi_ln_fpr()) <= target at n, and the smallest such k: each k is
 * bisected over the m below the best so far (p falls as m grows).
 *
 * Return: 0; -EINVAL for n == 0, a target out of range, an @l or
 * @counter_bits outside the shape's limits (kb_vi_shape_ok()) or a NULL
 * @out; -E2BIG when m would exceed KBLOOM_M_MAX.
 */
static inline int kb_vi_plan(__u64 n, __u64 p_pico, __u32 l,
			     __u32 counter_bits, struct kb_plan *out)
{
	__u64 best_u = KBLOOM_M_MAX / 64 + 1, hi;
	__u32 k, best_k = 0;
	__s64 lnt;

	counter_bits = counter_bits ? counter_bits : KBLOOM_COUNTER_BITS_DEFAULT;
	l = l ? l : kb_vi_l_default(counter_bits);
	if (!out || !n || p_pico < KBLOOM_P_TARGET_MIN ||
	    p_pico > KBLOOM_P_TARGET_MAX)
		return -EINVAL;
	if ((counter_bits != KBLOOM_COUNTER_BITS_DEFAULT &&
	     counter_bits != KBLOOM_COUNTER_BITS_WIDE) ||
	    l < 2 || l > (1U << (counter_bits - 2)))
		return -EINVAL;
	lnt = kb_hp_to_ln(kb_ln_hp(p_pico, 0) - KB_LN_1E12_HP);
	for (k = KBLOOM_K_MIN; k <= KBLOOM_K_MAX; k++) {
		hi = best_u > KBLOOM_M_MAX / 64 ? KBLOOM_M_MAX / 64 : best_u - 1;
		if (!hi || kb_vi_ln_fpr(hi * 64, k, n, l) > lnt)
			continue;
		best_u = kb_vi_bisect(n, k, l, lnt, 1, hi);
		best_k = k;
	}
	if (!best_k)
		return -E2BIG;
	out->m = best_u * 64;
	out->k = best_k;
	out->counter_bits = counter_bits;
	out->bytes = kb_words(KBLOOM_TYPE_COUNTING, out->m, counter_bits) * 8;
	out->fpr_pico = kb_vi_fpr_pico(out->m, best_k, n, l);
	return 0;
}

#endif /* _UAPI_KBLOOM_VAR_VICBF_H */
