/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the Count-Min sketch: its positions,
 * layout and planner, shared by every executor.  Its shape and the one
 * validation are kbloom_shape.h's.
 *
 * Count-Min (Cormode and Muthukrishnan; Cohen and Matias' spectral filter
 * is its minimum selection), d rows of w counters of 16 or 32 bits: row i
 * uses column kb_reduce32(g_i >> 32, w) of the standard/counting probe
 * sequence, counter i w + column; counter n is bits [n cw, + cw).  k is d,
 * m = d w.  Update KB_CM_ALL adds to every row (deletable); KB_CM_MIN_INC
 * (minimal increase, conservative update) raises only the rows at the
 * minimum and cannot delete.
 *
 * Range reduction is kb_reduce32() (multiply-shift) everywhere.
 */
#ifndef _UAPI_KBLOOM_VAR_COUNTMIN_H
#define _UAPI_KBLOOM_VAR_COUNTMIN_H

#include "kbloom_shape.h"

/* Counter number of row @i for the probe word of that row. */
static inline __u64 kb_cm_counter(__u32 i, __u32 probe_word, __u64 width)
{
	return (__u64)i * width + kb_reduce32(probe_word, width);
}

/*
 * Planner: Count-Min (Cormode and Muthukrishnan 2005) guarantees, for a
 * stream of total weight N, estimate(x) <= truth(x) + epsilon N with
 * probability at least 1 - delta, with
 *   w = ceil(e / epsilon) columns, d = ceil(ln(1 / delta)) rows.
 * Integers only (this runs in the kernel):
 *   w = floor(KB_CM_E18 / (epsilon_pico 10^6)) + 1, where KB_CM_E18 is
 *     floor(e 10^18); e / epsilon is never an integer (e is irrational),
 *     so this is exactly its ceiling; w is at least KB_CM_WIDTH_MIN;
 *   d = the least d with e^-d <= delta, i.e. with
 *     kb_cm_exp_neg_pico[d] < delta_pico, the table holding
 *     floor(10^12 e^-d) (e^-d 10^12 is never an integer either).
 * epsilon and delta are in pico units (1e-12), each within
 * [KBLOOM_P_TARGET_MIN, KBLOOM_P_TARGET_MAX].  epsilon = 0.1% and
 * delta = 1% give w = 2719, d = 5.
 *
 * The CREATE ioctl has no delta field: kbloom.ko takes the geometry
 * explicitly (tables = d, buckets = w), or fpr_pico = epsilon with
 * tables = d and buckets = 0, w then kb_cm_width(); the library and the
 * CLI plan d from delta with kb_cm_plan().
 */
#define KB_CM_E18		2718281828459045235ULL	/* floor(e 10^18) */
#define KB_CM_ROWS_DEFAULT	5U	/* delta = 1% */
#define KB_CM_COUNTER_BITS_DEFAULT	32U

static const __u64 kb_cm_exp_neg_pico[KB_CM_ROWS_MAX + 1] = {
	1000000000000ULL, 367879441171ULL, 135335283236ULL, 49787068367ULL,
	18315638888ULL, 6737946999ULL, 2478752176ULL, 911881965ULL,
	335462627ULL, 123409804ULL, 45399929ULL, 16701700ULL, 6144212ULL,
	2260329ULL, 831528ULL, 305902ULL, 112535ULL,
};

static inline int kb_cm_p_ok(__u64 p_pico)
{
	return p_pico >= KBLOOM_P_TARGET_MIN && p_pico <= KBLOOM_P_TARGET_MAX;
}

/* Columns for @eps_pico (0 when out of range): ceil(e / epsilon). */
static inline __u64 kb_cm_width(__u64 eps_pico)
{
	__u64 w;

	if (!kb_cm_p_ok(eps_pico))
		return 0;
	w = KB_CM_E18 / (eps_pico * 1000000ULL) + 1;
	return w < KB_CM_WIDTH_MIN ? KB_CM_WIDTH_MIN : w;
}

/* Rows for @delta_pico: ceil(ln(1 / delta)); 0 when out of range. */
static inline __u32 kb_cm_rows(__u64 delta_pico)
{
	__u32 d;

	if (!kb_cm_p_ok(delta_pico))
		return 0;
	for (d = 1; d <= KB_CM_ROWS_MAX; d++)
		if (kb_cm_exp_neg_pico[d] < delta_pico)
			return d;
	return 0;
}

/*
 * kb_cm_plan() - the shape of a Count-Min sketch for (epsilon, delta)
 * @counter_bits: 16 or 32 (0: 32)
 * @update: KB_CM_ALL or KB_CM_MIN_INC (0: KB_CM_ALL)
 * Return: 0; -EINVAL for epsilon or delta out of range, a delta below
 * e^-KB_CM_ROWS_MAX (more rows than allowed), a bad counter width or
 * update; -E2BIG for d w over KBLOOM_M_MAX.
 */
static inline int kb_cm_plan(__u64 eps_pico, __u64 delta_pico,
			     __u32 counter_bits, __u32 update,
			     struct kb_shape *s)
{
	__u64 w = kb_cm_width(eps_pico);
	__u32 d = kb_cm_rows(delta_pico);

	if (!w || !d)
		return -EINVAL;
	if (w * d > KBLOOM_M_MAX)
		return -E2BIG;
	s->type = KBLOOM_TYPE_COUNT_MIN;
	s->counter_bits = counter_bits ? counter_bits :
			  KB_CM_COUNTER_BITS_DEFAULT;
	s->update = update ? update : KB_CM_ALL;
	s->fp_bits = 0;
	s->slots = 0;
	s->vi_l = 0;
	s->tables = d;
	s->buckets = w;
	return kb_shape_derive(s);
}

/* A Count-Min shape refused only because d w is over KBLOOM_M_MAX. */
static inline int kb_cm_too_big(const struct kb_shape *s)
{
	struct kb_shape t = *s;

	t.buckets = KB_CM_WIDTH_MIN;
	return !kb_shape_derive(&t) && s->buckets <= KBLOOM_M_MAX &&
	       s->buckets * s->tables > KBLOOM_M_MAX;
}

/* Counter @n of a Count-Min array of 64-bit words (16/32 bits: no spill). */
static inline __u64 kb_cm_get(__u64 word, __u64 n, __u32 counter_bits)
{
	return kb_field_get(word, 0, kb_field_shift(n, counter_bits),
			    counter_bits);
}

/*
 * @c raised to at least @target, saturating at the counter maximum (a
 * counter at its maximum stays there: it never moves again).
 */
static inline __u64 kb_cm_raise(__u64 c, __u64 target, __u32 counter_bits)
{
	__u64 max = kb_field_mask(counter_bits);

	if (c == max)
		return c;
	if (target > max)
		return max;
	return target > c ? target : c;
}

#endif /* _UAPI_KBLOOM_VAR_COUNTMIN_H */
