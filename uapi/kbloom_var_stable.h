/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the stable Bloom filter (KBLOOM_TYPE_STABLE; Deng and Rafiei,
 * "Approximately detecting duplicates for streaming data using stable
 * Bloom filters", SIGMOD 2006), shared by every executor (kbloom.ko, the
 * XDP test-and-add program, libkbloom).
 *
 * m cells of d bits (d = 1, 2, 4 or 8; Max = 2^d - 1), k probes, P
 * decrements.  Each insert first decrements P cells (a cell at 0 stays
 * 0), then sets the key's k cells to Max; a key is "possibly present"
 * iff all its k cells are non-zero.  Old keys fade: the filter forgets,
 * so it can answer "absent" for a key that was inserted (a false
 * negative) and its images carry KBLOOM_IMAGE_F_MAY_FN.
 *
 * Shape (struct kb_shape, kbloom_shape.h): @type, @k (1..32), @m cells
 * (KBLOOM_M_MIN..KBLOOM_M_MAX, a multiple of 64, so a word never holds
 * cells of both ends of the array), @counter_bits = d, @buckets = P
 * (1..KB_STABLE_P_MAX, at most m); every other field 0.  Cell n is bits
 * [n d, n d + d) of the array (word n d / 64).  The image's geometry tail
 * records P in @buckets.
 *
 * Membership positions: cell i of a key is the standard filter's position
 * (kbloom_layout.h: g_0 = h, g_{i+1} = g_i * KB_PROBE_MUL, cell_i =
 * kb_reduce32(g_i >> 32, m)), identical in every executor.
 *
 * Decrement positions: one random start r = kb_reduce32(u, m) from a
 * 32-bit random u, then the P consecutive cells r, r + 1, ..., r + P - 1
 * (mod m).  Each cell is still decremented with probability P / m per
 * insert, independently from one insert to the next, which is all the
 * analysis below uses; P consecutive cells are one to three words, so the
 * decrement costs a few word operations instead of P cache misses.  u is
 * drawn by each executor from its own source and is never derived from
 * the key: kbloom.ko get_random_u32(), XDP bpf_get_prandom_u32(),
 * libkbloom a counter-based stream (kbloom_stable_reseed()).  So two
 * executors fed the same keys age differently cell by cell, with the same
 * statistics, while a key's membership cells are the same everywhere (an
 * image moves between them and answers the same).  A key-derived
 * decrement would make a repeated key erase the same cells each time.
 *
 * Stable point (Deng and Rafiei, Theorem 1 and Corollary 1): with
 * a = k / m (a cell is set by an insert) and b = P / m (decremented),
 * for Max = 1 a cell is a two-state chain, 1 -> 0 with probability
 * b (1 - a), 0 -> 1 with probability a, whose limit is
 *
 *   z1 = b (1 - a) / (a + b (1 - a)) = 1 / (1 + 1 / (P (1/k - 1/m)))
 *
 * and for Max > 1 the share of zero cells is z = z1^Max; the
 * false-positive rate at the stable point is FPS = (1 - z)^k
 * (k = 3, P = 10, Max = 1: z = 0.769, FPS = 1.23%).
 *
 * False negatives (Deng and Rafiei, section 4.2; Max = 1): a key
 * inserted, then g other inserts, then tested: each of its cells starts
 * at 1 and is 0 after g steps of the chain with probability
 *
 *   z1 (1 - ((1 - a)(1 - b))^g),
 *
 * and the key is missed when any of its k cells is:
 * FN(g) = 1 - (1 - z1 (1 - ((1 - a)(1 - b))^g))^k.
 *
 * Planner: kb_stable_plan() finds the least P whose FPS is at most a
 * target, for a given m, k and d (FPS falls as P grows).
 */
#ifndef _UAPI_KBLOOM_VAR_STABLE_H
#define _UAPI_KBLOOM_VAR_STABLE_H

#include "kbloom_shape.h"

#define KB_STABLE_K_DEFAULT	3U
#define KB_STABLE_P_DEFAULT	10U

/* Max, the value a key's cells are set to: every bit of the cell. */
static inline __u64 kb_stable_max(__u32 d)
{
	return kb_field_mask(d);
}

/* Cells per 64-bit word. */
static inline __u32 kb_stable_per_word(__u32 d)
{
	return 64 / d;
}

/* The low bit of every cell of a word. */
static inline __u64 kb_stable_lows(__u32 d)
{
	switch (d) {
	case 1:
		return ~0ULL;
	case 2:
		return 0x5555555555555555ULL;
	case 4:
		return 0x1111111111111111ULL;
	default:
		return 0x0101010101010101ULL;
	}
}

/* The low bits of the non-zero cells of @w (each cell folded onto it). */
static inline __u64 kb_stable_nonzero(__u64 w, __u32 d)
{
	__u64 x = w;

	if (d > 1)
		x |= x >> 1;
	if (d > 2)
		x |= x >> 2;
	if (d > 4)
		x |= x >> 4;
	return x & kb_stable_lows(d);
}

/*
 * @w with every non-zero cell among @lows (low bits of the cells to
 * decrement) lowered by one: a non-zero cell never borrows from the next,
 * so one subtraction does them all.  Executors apply it in their
 * compare-and-exchange loop on the word.
 */
static inline __u64 kb_stable_dec(__u64 w, __u64 lows, __u32 d)
{
	return w - (kb_stable_nonzero(w, d) & lows);
}

/* Word and in-word mask (all its bits) of cell @c. */
static inline __u64 kb_stable_word(__u64 c, __u32 d)
{
	return c * d / 64;
}

static inline __u64 kb_stable_mask(__u64 c, __u32 d)
{
	return kb_stable_max(d) << (c * d % 64);
}

/*
 * A run of the decrement window inside one word: from cell @c, at most
 * @left cells, up to the end of its word.  Return: the cells covered;
 * *@lows the low bits of their fields.
 */
static inline __u32 kb_stable_run(__u64 c, __u32 left, __u32 d, __u64 *lows)
{
	__u32 pw = kb_stable_per_word(d), off = (__u32)(c % pw);
	__u32 n = pw - off < left ? pw - off : left;
	__u64 span = n * d >= 64 ? ~0ULL : ((1ULL << (n * d)) - 1);

	*lows = (span << (off * d)) & kb_stable_lows(d);
	return n;
}

/* The first cell of the decrement window for the 32-bit random @u. */
static inline __u64 kb_stable_start(__u32 u, __u64 m)
{
	return kb_reduce32(u, m);
}

/* The cell after a run of @n cells from @c, wrapping at @m. */
static inline __u64 kb_stable_next(__u64 c, __u32 n, __u64 m)
{
	c += n;
	return c >= m ? c - m : c;
}

/* A stable shape: @m cells of @d bits, @k probes, @p decrements. */
static inline int kb_stable_shape_init(struct kb_shape *s, __u64 m, __u32 k,
				       __u32 d, __u32 p)
{
	__builtin_memset(s, 0, sizeof(*s));
	s->type = KBLOOM_TYPE_STABLE;
	s->k = k;
	s->m = m;
	s->counter_bits = d;
	s->buckets = p;
	return kb_shape_check(s);
}

/* z1 = P (m - k) / (P (m - k) + k m) in Q62 (the Max = 1 zero share). */
static inline __u64 kb_stable_z1_q62(__u64 m, __u32 k, __u64 p)
{
	__u64 num = p * (m - k);

	return kb_div_fx(num, num + (__u64)k * m, KB_P_SHIFT);
}

/* The stable point's share of zero cells z = z1^Max, in Q62. */
static inline __u64 kb_stable_zero_q62(__u64 m, __u32 k, __u64 p, __u32 d)
{
	return kb_pow_q62(kb_stable_z1_q62(m, k, p), kb_stable_max(d));
}

/* FPS = (1 - z)^k in Q62. */
static inline __u64 kb_stable_fps_q62(__u64 m, __u32 k, __u64 p, __u32 d)
{
	return kb_pow_q62(KB_P_ONE - kb_stable_zero_q62(m, k, p, d), k);
}

/* The stable point's rate of a valid shape, in 1e-12 units. */
static inline __u64 kb_stable_fps_pico(const struct kb_shape *s)
{
	return kb_p_to_pico(kb_stable_fps_q62(s->m, s->k, s->buckets,
					      s->counter_bits));
}

/* The stable point's share of zero cells of a valid shape, in ppm. */
static inline __u64 kb_stable_zero_ppm(const struct kb_shape *s)
{
	return kb_p_to_pico(kb_stable_zero_q62(s->m, s->k, s->buckets,
					       s->counter_bits)) / 1000000;
}

/**
 * kb_stable_plan() - the least P whose stable-point rate is at most a target
 * @p_pico: target FPS, KBLOOM_P_TARGET_MIN..KBLOOM_P_TARGET_MAX
 * @s: in: type, m, k, counter_bits of a stable shape (@buckets ignored);
 *     out: @buckets = P, written only on success
 *
 * Return: 0; -EINVAL for a target out of range or a shape that no P
 * makes valid; -ERANGE when even P = min(m, KB_STABLE_P_MAX) misses the
 * target.
 */
static inline int kb_stable_plan(__u64 p_pico, struct kb_shape *s)
{
	__u64 lo = 1, hi, mid;
	struct kb_shape t;

	if (p_pico < KBLOOM_P_TARGET_MIN || p_pico > KBLOOM_P_TARGET_MAX)
		return -EINVAL;
	t = *s;
	hi = t.m < KB_STABLE_P_MAX ? t.m : KB_STABLE_P_MAX;
	t.buckets = hi;
	if (t.type != KBLOOM_TYPE_STABLE || kb_shape_check(&t))
		return -EINVAL;
	if (kb_stable_fps_pico(&t) > p_pico)
		return -ERANGE;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		t.buckets = mid;
		if (kb_stable_fps_pico(&t) <= p_pico)
			hi = mid;
		else
			lo = mid + 1;
	}
	s->buckets = lo;
	return 0;
}

#endif /* _UAPI_KBLOOM_VAR_STABLE_H */
