/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the deletable Bloom filter (KBLOOM_TYPE_DELETABLE; Rothenberg,
 * Macapuna, Verdi, Magalhaes, IEEE Comm. Letters 2010, arXiv 1005.0352),
 * shared by every executor (kbloom.ko, its kfuncs, libkbloom, the XDP
 * port filters).
 *
 * A standard filter of m bits (the body) split into r = m / s regions of
 * s bits, and a collision bitmap of r bits: bit j is set once two probes
 * (of two keys, or two of one key) have landed in region j on a bit that
 * was already set.  A key is deletable iff one of its k bits lies in a
 * region whose collision bit is clear: that bit was set by this key alone,
 * so clearing it (and every other bit of the key in a collision-free
 * region) removes the key and no other.  A key whose bits all lie in
 * collided regions is not deletable: its delete is refused and changes
 * nothing.  Collision bits are never cleared (but by a flush).
 *
 * Positions are the standard filter's (kbloom_layout.h): probe i is bit
 * kb_probe_next() over m of the probe words of h = kb_hash(key), so a
 * deletable filter answers TEST exactly as a standard filter of the same
 * (m, k, hash, seed) holding the same keys, bit for bit in the body.
 *
 *   region(bit) = bit >> log2(s)          (s a power of two)
 *
 * Array (64-bit words, bit j is bit (j & 63) of word j >> 6):
 *   words [0, m / 64)                        the body
 *   words [m / 64, m / 64 + ceil(r / 64))    the collision bitmap; its
 *                                            bits from r on are 0
 *
 * Shape (struct kb_shape): @type, @k (KBLOOM_K_MIN..KBLOOM_K_MAX), @m (a
 * multiple of 64, KBLOOM_M_MIN..KBLOOM_M_MAX, and of s), @buckets = s
 * region bits (a power of two, 1..KB_DEL_REGION_MAX and <= m); every
 * other field 0.  Image (version 3): the base header (k, m, counts) and
 * the tail's @buckets = s; every other tail field 0, no saturations, no
 * MAY_FN: a delete never makes a key that was added and not deleted test
 * absent (a key that was never added but tests positive is another
 * matter: deleting it may clear a bit that only another key had set, as
 * with every deleting filter; callers delete keys they added).
 *
 * Deletable fraction.  After n keys, with N = k n probes into m bits, a
 * bit is hit by no probe with p_0 = (1 - 1/m)^N, by exactly one with
 * p_1 = (N/m)(1 - 1/m)^(N-1), and collides with p_c = 1 - p_0 - p_1.
 * The paper's formula for the probability that a key is deletable is
 *
 *   P_d = 1 - (1 - (1 - p_c)^s)^k.                                   (1)
 *
 * It takes the key's own bit to collide as any bit does.  Given that the
 * key hit it, its own bit is collision-free only when none of the other
 * N - 1 probes did, (1 - 1/m)^(N-1) ~ e^(-kn/m), so the exact form is
 *
 *   P_d' = 1 - (1 - (1 - 1/m)^(N-1) (1 - p_c')^(s-1))^k,             (2)
 *
 * p_c' over N - 1 probes.  (1) and (2) meet as s k n / m falls; at 10
 * bits per key, k = 7, s = 4, (1) says 99.3% and (2) 91.6% (simulated
 * 91.1%).  tests/core/deletable_test.c measures against both.
 *
 * Rate.  The body is a standard filter: p = (1 - e^(-kn/m))^k at n keys
 * present (kb_plan_fpr_pico() of the standard type); deleted keys no
 * longer count, except for the bits their refused or partial deletes
 * left set.
 *
 * Planner.  kb_del_plan(n, p, s) takes the standard planner's k and m and
 * rounds m up to a multiple of max(64, s), so the body alone meets the
 * target; the bitmap adds m / s bits (25% at the default s = 4).
 */
#ifndef _UAPI_KBLOOM_VAR_DELETABLE_H
#define _UAPI_KBLOOM_VAR_DELETABLE_H

#include <linux/types.h>
#include <linux/errno.h>
#include "kbloom_base.h"
#include "kbloom_layout.h"
#include "kbloom_plan.h"
#include "kbloom_shape.h"

#define KB_DEL_REGION_DEFAULT	4U		/* region bits s */
#define KB_DEL_REGION_MAX	65536U

/* log2 of the region bits @s (a power of two). */
static inline __u32 kb_del_shift(__u64 s)
{
	return kb_log2_exact(s);
}

/* The region of body bit @bit with @shift = kb_del_shift(s). */
static inline __u32 kb_del_region(__u64 bit, __u32 shift)
{
	return (__u32)(bit >> shift);
}

/* Regions r of a body of @m bits in regions of @s bits. */
static inline __u64 kb_del_regions(__u64 m, __u64 s)
{
	return m >> kb_del_shift(s);
}

/* The word of the collision bitmap that holds region @j's bit. */
static inline __u64 kb_del_cword(__u64 m, __u32 j)
{
	return (m >> 6) + (j >> 6);
}

/* Words of the collision bitmap. */
static inline __u64 kb_del_cwords(__u64 m, __u64 s)
{
	return (kb_del_regions(m, s) + 63) / 64;
}

/* A deletable shape of @k probes, @m body bits, regions of @s bits. */
static inline int kb_del_shape_init(struct kb_shape *sh, __u32 k, __u64 m,
				    __u64 s)
{
	__builtin_memset(sh, 0, sizeof(*sh));
	sh->type = KBLOOM_TYPE_DELETABLE;
	sh->k = k;
	sh->m = m;
	sh->buckets = s;
	return kb_shape_derive(sh);
}

/* The predicted rate at @n keys present, in 1e-12 units. */
static inline __u64 kb_del_fpr_pico(__u64 m, __u32 k, __u64 n)
{
	return kb_plan_fpr_pico(KBLOOM_TYPE_STANDARD, m, k, n);
}

/**
 * kb_del_plan() - size a deletable filter for n keys at a target rate
 * @n: expected keys, > 0
 * @p_pico: target p in 1e-12, KBLOOM_P_TARGET_MIN..KBLOOM_P_TARGET_MAX
 * @s: region bits, a power of two 1..KB_DEL_REGION_MAX; 0 means
 *     KB_DEL_REGION_DEFAULT
 * @sh: out: the shape; written only on success
 *
 * Return: 0; -EINVAL for n == 0, a target or region out of range or a
 * NULL @sh; -E2BIG when m would exceed KBLOOM_M_MAX.
 */
static inline int kb_del_plan(__u64 n, __u64 p_pico, __u64 s,
			      struct kb_shape *sh)
{
	struct kb_plan plan;
	struct kb_shape t;
	__u64 step, m;
	int ret;

	if (!sh)
		return -EINVAL;
	if (!s)
		s = KB_DEL_REGION_DEFAULT;
	if (!kb_pow2(s) || s > KB_DEL_REGION_MAX)
		return -EINVAL;
	ret = kb_plan(KBLOOM_TYPE_STANDARD, n, p_pico, 0, &plan);
	if (ret)
		return ret;
	step = s > 64 ? s : 64;
	m = (plan.m + step - 1) & ~(step - 1);
	if (m > KBLOOM_M_MAX)
		return -E2BIG;
	ret = kb_del_shape_init(&t, plan.k, m, s);
	if (ret)
		return ret;
	*sh = t;
	return 0;
}

/*
 * A payload a deletable filter can hold: the bitmap's bits from r on are
 * 0 (@len is the payload's length, checked against the shape before).
 */
static inline int kb_del_payload_ok(const __u8 *payload, __u64 len,
				    __u64 m, __u64 s)
{
	__u64 r = kb_del_regions(m, s), off = (m >> 6) * 8 + r / 8, i;
	__u32 used = (__u32)(r & 7);

	if (used && off < len && (payload[off] >> used))
		return 0;
	for (i = off + !!used; i < len; i++)
		if (payload[i])
			return 0;
	return 1;
}

#endif /* _UAPI_KBLOOM_VAR_DELETABLE_H */
