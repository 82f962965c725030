/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the one-hashing Bloom filter (KBLOOM_TYPE_ONE_HASHING; Lu,
 * Wan, Li, Wu, "One-hashing Bloom filter", IWQoS 2015).  Only libkbloom
 * implements it; the module refuses the type.
 *
 * k partitions of distinct prime sizes m_0 > m_1 > ... > m_{k-1}, all
 * probes from one hash value: probe i of a key with hash h is bit
 * h mod m_i of partition i.  Distinct primes are pairwise coprime, so by
 * the Chinese remainder theorem the k residues of a uniform h are
 * independent and uniform, which is the paper's argument; the rate is
 *
 *   p = prod_i (1 - (1 - 1/m_i)^n).
 *
 * Layout: partition i starts at bit i s of an array of k s bits, s the
 * slice bits (a multiple of 64, so each partition starts on a word, as
 * in the partitioned filter), and m_i is the i-th prime below s + 1:
 * m_0 the largest prime <= s, m_{i+1} the largest prime < m_i.  The
 * s - m_i bits at the end of each slice stay zero (a prime gap, about
 * ln s bits).  h is the one kb_hash() of the key, whole 64 bits.
 *
 * Shape (struct kb_shape, kbloom_shape.h): @type, @k partitions
 * (1..KBLOOM_K_MAX), @buckets = s (KB_OH_SLICE_MIN..KBLOOM_M_MAX / k, a
 * multiple of 64), @m = k s; every other field 0.  The image's geometry
 * tail records s in @buckets; the prime sizes follow from s and k.
 */
#ifndef _UAPI_KBLOOM_VAR_ONEHASH_H
#define _UAPI_KBLOOM_VAR_ONEHASH_H

#include "kbloom_shape.h"

/*
 * An integer n >= 2 is prime: trial division by 2 and the odd numbers up
 * to sqrt(n) (n < 2^32: at most 32768 divisions).
 */
static inline int kb_oh_is_prime(__u64 n)
{
	__u64 d;

	if (n < 2)
		return 0;
	if (n < 4)
		return 1;
	if (!(n & 1))
		return 0;
	for (d = 3; d * d <= n; d += 2)
		if (n % d == 0)
			return 0;
	return 1;
}

/*
 * The k partition sizes of slice bits s into @sizes (k entries).
 * Return: 0, or -EINVAL when fewer than k primes are <= s (a shape that
 * passed kb_shape_check() always has enough: s >= KB_OH_SLICE_MIN).
 */
static inline int kb_oh_sizes(__u64 s, __u32 k, __u32 *sizes)
{
	__u64 c = s;
	__u32 i;

	for (i = 0; i < k; i++) {
		while (c >= 2 && !kb_oh_is_prime(c))
			c--;
		if (c < 2)
			return -EINVAL;
		sizes[i] = (__u32)c--;
	}
	return 0;
}

/* Bit of probe i (partition i, of size size_i) of hash h, slices of s. */
static inline __u64 kb_oh_bit(__u64 h, __u32 i, __u32 size_i, __u64 s)
{
	return (__u64)i * s + h % size_i;
}

#endif /* _UAPI_KBLOOM_VAR_ONEHASH_H */
