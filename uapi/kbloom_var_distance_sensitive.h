/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the distance-sensitive Bloom filter
 * (KBLOOM_TYPE_DISTANCE_SENSITIVE; Kirsch and Mitzenmacher, "Distance-
 * sensitive Bloom filters", ALENEX 2006): "is y within Hamming distance
 * eps l of a key of the set?" for keys of a fixed length of l bits, by
 * locality-sensitive hashing (bit sampling).  It answers "close" for some
 * keys it never saw and can miss a close key: false positives and false
 * negatives, so its images carry KBLOOM_IMAGE_F_MAY_FN.
 *
 * Layout: k partitions of s bits (m = k s).  Function i samples b bit
 * positions of the key, j = 0..b-1:
 *   pos_ij = kb_reduce32(kb_fmix64(seed ^ KB_DSBF_SALT ^ (i 64 + j)) >> 32, l)
 * (with replacement), packs the sampled bits into v_i (bit j of v_i is
 * key bit pos_ij, key bit p being bit p % 8 of byte p / 8), and sets or
 * tests bit i s + kb_reduce32(kb_fmix64(v_i ^ seed ^ (i + 1) KB_DSBF_MIX)
 * >> 32, s).  A key is "close" iff at least t of its k bits are set.
 *
 * Bounds (Kirsch and Mitzenmacher, section 3, with bit sampling): a key y
 * at distance d of x matches x in function i with probability
 * (1 - d / l)^b.  A query within eps l of a key of the set (n keys) finds
 * each of its bits set with probability at least p1 = (1 - eps)^b; a
 * query at distance at least delta l from every key finds each set with
 * probability at most p2 = 1 - (1 - (1 - delta)^b - 1/s)^n.  The k bits
 * are independent given the set, so with t between k p2 and k p1:
 *   FN <= P(Bin(k, p1) < t) <= exp(-2 k (p1 - t/k)^2)
 *   FP <= P(Bin(k, p2) >= t) <= exp(-2 k (t/k - p2)^2)   (Hoeffding).
 *
 * Shape (struct kb_shape): @k partitions (1..32), @buckets = s (bits per
 * partition, a multiple of 64), @m = k s, @tables = b (1..64), @slots =
 * the key's bytes (1..KBLOOM_KEY_MAX), @update = t (1..k); every other
 * field 0.
 */
#ifndef _UAPI_KBLOOM_VAR_DISTANCE_SENSITIVE_H
#define _UAPI_KBLOOM_VAR_DISTANCE_SENSITIVE_H

#include <linux/types.h>
#include "kbloom_base.h"
#include "kbloom_hash.h"
#include "kbloom_layout.h"

#define KB_DSBF_SALT	0xD15C0DE5A3F1B7E9ULL
#define KB_DSBF_MIX	0x9E3779B97F4A7C15ULL
#define KB_DSBF_B_MAX	64U

/* Key bit @p of @key (bit p % 8 of byte p / 8). */
static inline __u64 kb_dsbf_key_bit(const __u8 *key, __u32 p)
{
	return (key[p / 8] >> (p % 8)) & 1;
}

/* Sampled bit position j of function i over @lbits key bits. */
static inline __u32 kb_dsbf_pos(__u64 seed, __u32 i, __u32 j, __u32 lbits)
{
	__u64 x = kb_fmix64(seed ^ KB_DSBF_SALT ^ ((__u64)i * 64 + j));

	return kb_reduce32((__u32)(x >> 32), lbits);
}

/* The bit in [0, s) of function @i for the sampled bits @v. */
static inline __u32 kb_dsbf_slot(__u64 seed, __u32 i, __u64 v, __u64 s)
{
	__u64 x = kb_fmix64(v ^ seed ^ ((__u64)(i + 1) * KB_DSBF_MIX));

	return kb_reduce32((__u32)(x >> 32), s);
}

/* The bit of function @i of @key (@len bytes) in [0, s), @b samples. */
static inline __u32 kb_dsbf_cell(__u64 seed, __u32 i, __u32 b,
				 const __u8 *key, __u32 len, __u64 s)
{
	__u64 v = 0;
	__u32 j;

	for (j = 0; j < b && j < KB_DSBF_B_MAX; j++)
		v |= kb_dsbf_key_bit(key, kb_dsbf_pos(seed, i, j, len * 8)) << j;
	return kb_dsbf_slot(seed, i, v, s);
}

/* The shape rules above, as fields. */
static inline int kb_dsbf_geom_ok(__u32 k, __u64 s, __u64 m, __u32 b,
				  __u32 key_len, __u32 t)
{
	if (k < KBLOOM_K_MIN || k > KBLOOM_K_MAX || t < 1 || t > k)
		return 0;
	if (b < 1 || b > KB_DSBF_B_MAX || key_len < 1 ||
	    key_len > KBLOOM_KEY_MAX)
		return 0;
	if (s < 64 || (s & 63) || s > KBLOOM_M_MAX / k)
		return 0;
	return m == s * k && m >= KBLOOM_M_MIN;
}

#endif /* _UAPI_KBLOOM_VAR_DISTANCE_SENSITIVE_H */
