/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the partitioned Bloom filter (KBLOOM_TYPE_PARTITIONED), shared
 * by every executor (kbloom.ko, the kfuncs XDP programs call, libkbloom).
 *
 * k disjoint slices of s bits each, m = k s; probe i sets or tests one bit
 * of slice i.  The probe words are the standard filter's
 * (kbloom_layout.h: g_0 = h, g_{i+1} = g_i * KB_PROBE_MUL, w_i = g_i >> 32):
 *
 *   bit_i = i s + kb_reduce32(w_i, s)
 *
 * Bit j is bit (j & 63) of word (j >> 6); s is a multiple of 64, so slice
 * i is words [i s / 64, (i + 1) s / 64).  A key's k bits are always
 * distinct (one per slice), which the standard filter only has with the
 * birthday probability.
 *
 * The shape (struct kb_shape, kbloom_variants.h) is @type, @k, @buckets =
 * s (KBLOOM_M_MIN..KBLOOM_M_MAX / k, a multiple of 64) and @m = k s
 * (kb_shape_derive() fills it in); every other geometry field is 0.
 *
 * Rate.  Each slice receives exactly one bit per key, so after n keys a
 * given bit of a slice is still 0 with probability (1 - 1/s)^n =
 * (1 - k/m)^n, and a non-key finds all its k bits set with probability
 *
 *   p = (1 - (1 - k/m)^n)^k  ~  (1 - e^(-k n / m))^k,
 *
 * the standard filter's approximation (kb_ln_fpr_std() in
 * kbloom_plan.h), which kb_part_fpr_pico() uses.  The exact value is a
 * little higher, since (1 - 1/s)^n < e^(-n/s), and the two meet as s
 * grows (tests/core/partitioned_test.c measures against the exact one).
 *
 * Planner.  kb_part_plan(n, p) takes the standard planner's k and m
 * (kb_plan(KBLOOM_TYPE_STANDARD, ...)) and rounds s = m / k up to a
 * multiple of 64, so m = k s covers the standard m and the predicted rate
 * is at most the target: integer arithmetic only, as everything here.
 */
#ifndef _UAPI_KBLOOM_PARTITIONED_H
#define _UAPI_KBLOOM_PARTITIONED_H

#include <linux/types.h>
#include <linux/errno.h>
#include "kbloom_base.h"
#include "kbloom_layout.h"
#include "kbloom_plan.h"
#include "kbloom_variants.h"

/* Bits of a slice are whole 64-bit words. */
#define KB_PART_SLICE_STEP	64ULL

/*
 * The bit of probe @i (0 <= i < k) in a filter of @slice bits per slice,
 * then @p moves to the next probe word.  Call it with i = 0, 1, ..., k - 1
 * on an iterator started by kb_probe_init(p, h).
 */
static inline __u64 kb_part_next(struct kb_probe *p, __u32 i, __u64 slice)
{
	return (__u64)i * slice + kb_probe_next(p, slice);
}

/* A partitioned shape of @k slices of @slice bits: m derived, then checked. */
static inline int kb_part_shape_init(struct kb_shape *s, __u32 k,
				     __u64 slice)
{
	__builtin_memset(s, 0, sizeof(*s));
	s->type = KBLOOM_TYPE_PARTITIONED;
	s->k = k;
	s->buckets = slice;
	return kb_shape_derive(s);
}

/* The predicted rate at @n keys in 1e-12 units (KBLOOM_P_UNIT is 1). */
static inline __u64 kb_part_fpr_pico(__u64 m, __u32 k, __u64 n)
{
	return kb_plan_fpr_pico(KBLOOM_TYPE_STANDARD, m, k, n);
}

/**
 * kb_part_plan() - size a partitioned filter for n keys at a target rate
 * @n: expected keys, > 0
 * @p_pico: target p in units of 1e-12,
 *          KBLOOM_P_TARGET_MIN..KBLOOM_P_TARGET_MAX
 * @s: out: the shape (k, s = @buckets, m = k s); written only on success
 *
 * Return: 0; -EINVAL for n == 0, a target out of range or a NULL @s;
 * -E2BIG when m would exceed KBLOOM_M_MAX.
 */
static inline int kb_part_plan(__u64 n, __u64 p_pico, struct kb_shape *s)
{
	struct kb_shape t;
	struct kb_plan plan;
	__u64 slice;
	int ret;

	if (!s)
		return -EINVAL;
	ret = kb_plan(KBLOOM_TYPE_STANDARD, n, p_pico, 0, &plan);
	if (ret)
		return ret;
	slice = (plan.m + plan.k - 1) / plan.k;
	slice = (slice + KB_PART_SLICE_STEP - 1) & ~(KB_PART_SLICE_STEP - 1);
	if (slice > KBLOOM_M_MAX / plan.k)
		return -E2BIG;
	ret = kb_part_shape_init(&t, plan.k, slice);
	if (ret)
		return ret;
	*s = t;
	return 0;
}

#endif /* _UAPI_KBLOOM_PARTITIONED_H */
