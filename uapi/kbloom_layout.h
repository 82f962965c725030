/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: probe positions and memory layouts, shared by every executor.
 *
 * A filter is an array of 64-bit words, stored little-endian in images and
 * in native order in memory.  From the 64-bit key hash h:
 *
 * Blocked (KBLOOM_TYPE_BLOCKED), m bits in m / 512 blocks of 8 words:
 *   block = kb_reduce32(h >> 32, m / 512)
 *   probe i (0 <= i < k) sets bit b_i of the block, where
 *     g_0 = (u32)h, g_{i+1} = g_i * 0x9E3779B9 (mod 2^32), b_i = g_i >> 23
 *   i.e. the top 9 bits of a multiplicative sequence (the scheme of
 *   RocksDB's FastLocalBloom), bit b of a block is bit (b & 63) of word
 *   (b >> 6).  All k probes touch one cache line.
 *
 * Standard (KBLOOM_TYPE_STANDARD), m bits, and counting
 * (KBLOOM_TYPE_COUNTING), m counters: probe i reduces the high half of a
 * multiplicative sequence over the whole 64-bit hash,
 *     g_0 = h, g_{i+1} = g_i * KB_PROBE_MUL (mod 2^64)
 *     w_i = g_i >> 32 (the probe word), pos_i = kb_reduce32(w_i, m)
 *   with KB_PROBE_MUL = 0x9E3779B97F4A7C15 (odd, 2^64 / golden ratio): one
 *   64-bit multiply and one multiply-shift per probe, no branch, no
 *   division; the words do not depend on m.  Bit j is bit (j & 63) of
 *   word (j >> 6).  Counter j of width w (4 or 8 bits) is bits
 *   [(j % (64 / w)) * w, +w) of word j / (64 / w).
 *
 *   Distinct positions: for i < j, u = g_i is uniform when h is (h times
 *   an odd constant) and g_j = u a, a = KB_PROBE_MUL^(j - i).  Probes i
 *   and j share a position only if u (a - 1) mod 2^64 is within 2^64 / m
 *   of 0; u (a - 1) is uniform over the multiples of 2^v with
 *   v = v_2(a - 1) = 2 + v_2(j - i) <= 6, so that happens with
 *   probability 1 / m, as for independent positions, and a key's k
 *   positions are all distinct with the birthday probability
 *   prod_{i<k} (1 - i / m) (tests/core/probe_test.c counts it).  No class
 *   of keys is worse: g_i runs through fewer than 32 distinct values only
 *   for hashes with 58 or more low zero bits.  And the positions are a
 *   function of all 64 hash bits: a non-key meets an inserted key's whole
 *   sequence no more often than independent positions would (plus 2^-64).
 *
 *   Not double hashing, on purpose.  Double hashing in the 32-bit domain,
 *   reduced afterwards (x_{i+1} = x_i + y_i, y_{i+1} = y_i + i + 1,
 *   pos_i = kb_reduce32(x_i, m), this header's earlier definition), puts
 *   the probes of a key whose step y is within about 2^32 / (k m) of a
 *   multiple of 2^32 / q, q < k, on about q positions.  In the index
 *   domain [0, m) (Kirsch and Mitzenmacher; Dillinger and Manolios'
 *   enhanced variant) a key's positions are fixed by (x_0, y_0), one of
 *   only m^2 sequences, so a non-key repeats one of n inserted keys' whole
 *   sequences with probability about n / m^2, whatever k.  Both are
 *   floors that dominate at small m and many bits per key: at m = 32768,
 *   n = 730, k = 22 (predicted 8.7e-10) a simulation measured 1.9e-6
 *   (32-bit domain) and 8.5e-7 (enhanced double hashing in [0, m)), and
 *   0 in 2e8 non-keys with this sequence.
 *
 * Range reduction is multiply-shift (Lemire's fastrange): the 32-bit value
 * x maps to (x * n) >> 32, which is in [0, n) for n <= 2^32 and has no
 * modulo bias beyond the 2^-32 granularity of x.
 */
#ifndef _UAPI_KBLOOM_LAYOUT_H
#define _UAPI_KBLOOM_LAYOUT_H

#include <linux/types.h>
#include "kbloom_base.h"

#define KB_BLOCK_MUL	0x9E3779B9U

static inline __u32 kb_reduce32(__u32 x, __u64 n)
{
	return (__u32)(((__u64)x * n) >> 32);
}

/* Index of the block of a key's hash in a blocked filter of nblocks. */
static inline __u32 kb_block_index(__u64 h, __u64 nblocks)
{
	return kb_reduce32((__u32)(h >> 32), nblocks);
}

/*
 * The in-block bit (0..511) of a key's next probe: *@g is (u32)h before
 * the first probe, and steps to the next probe's value.
 */
static inline __u32 kb_block_probe(__u32 *g)
{
	__u32 b = *g >> 23;

	*g *= KB_BLOCK_MUL;
	return b;
}

/*
 * The in-block mask of a key: word w of the block must contain mask[w].
 * k is 1..KBLOOM_K_MAX.
 */
static inline void kb_block_mask(__u64 h, __u32 k, __u64 mask[KBLOOM_BLOCK_WORDS])
{
	__u32 g = (__u32)h;
	__u32 i, b;

	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		mask[i] = 0;
	for (i = 0; i < KBLOOM_K_MAX; i++) {
		if (i >= k)
			break;
		b = kb_block_probe(&g);
		mask[b >> 6] |= 1ULL << (b & 63);
	}
}

/* Iterator over the k positions of a standard or counting filter. */
#define KB_PROBE_MUL	0x9E3779B97F4A7C15ULL

struct kb_probe {
	__u64 g;
};

static inline void kb_probe_init(struct kb_probe *p, __u64 h)
{
	p->g = h;
}

/* The probe word w_i of the next position: kb_reduce32(w_i, m) for any m. */
static inline __u32 kb_probe_word(const struct kb_probe *p)
{
	return (__u32)(p->g >> 32);
}

/* The next position over @m (1..2^32) bits or counters. */
static inline __u32 kb_probe_next(struct kb_probe *p, __u64 m)
{
	__u32 pos = kb_reduce32(kb_probe_word(p), m);

	p->g *= KB_PROBE_MUL;
	return pos;
}

/* Number of 64-bit words of a filter's array. */
static inline __u64 kb_words(__u32 type, __u64 m, __u32 counter_bits)
{
	if (type == KBLOOM_TYPE_COUNTING)
		return (m * counter_bits + 63) / 64;
	return (m + 63) / 64;
}

/* Counters per word and the word / shift of counter j. */
static inline __u32 kb_ctr_per_word(__u32 counter_bits)
{
	return 64 / counter_bits;
}

static inline __u64 kb_ctr_word(__u64 j, __u32 counter_bits)
{
	return counter_bits == 4 ? j >> 4 : j >> 3;
}

static inline __u32 kb_ctr_shift(__u64 j, __u32 counter_bits)
{
	return counter_bits == 4 ? (__u32)(j & 15) * 4 : (__u32)(j & 7) * 8;
}

static inline __u64 kb_ctr_max(__u32 counter_bits)
{
	return (1ULL << counter_bits) - 1;
}

static inline __u64 kb_ctr_get(__u64 word, __u32 shift, __u32 counter_bits)
{
	return (word >> shift) & kb_ctr_max(counter_bits);
}

/*
 * Counter transitions, applied by the executor inside its own atomic
 * compare-and-exchange loop on the word.  A counter at its maximum is
 * saturated: it never moves again, so a deletion can never create a false
 * negative after an overflow.
 */
static inline __u64 kb_ctr_inc(__u64 word, __u32 shift, __u32 counter_bits)
{
	if (kb_ctr_get(word, shift, counter_bits) == kb_ctr_max(counter_bits))
		return word;
	return word + (1ULL << shift);
}

static inline __u64 kb_ctr_dec(__u64 word, __u32 shift, __u32 counter_bits)
{
	__u64 c = kb_ctr_get(word, shift, counter_bits);

	if (c == 0 || c == kb_ctr_max(counter_bits))
		return word;
	return word - (1ULL << shift);
}

/* Number of one bits of a word (occupancy statistics). */
static inline __u32 kb_popcount64(__u64 w)
{
	/* SWAR: no compiler builtin, which would need libgcc in a module */
	w -= (w >> 1) & 0x5555555555555555ULL;
	w = (w & 0x3333333333333333ULL) + ((w >> 2) & 0x3333333333333333ULL);
	w = (w + (w >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
	return (__u32)((w * 0x0101010101010101ULL) >> 56);
}

/* Number of non-zero counters in a word (counting occupancy). */
static inline __u32 kb_ctr_nonzero(__u64 w, __u32 counter_bits)
{
	__u64 lo;

	if (counter_bits == 4) {
		/* fold each nibble onto its low bit */
		lo = w | (w >> 1);
		lo |= lo >> 2;
		lo &= 0x1111111111111111ULL;
	} else {
		lo = w | (w >> 1);
		lo |= lo >> 2;
		lo |= lo >> 4;
		lo &= 0x0101010101010101ULL;
	}
	return kb_popcount64(lo);
}

#endif /* _UAPI_KBLOOM_LAYOUT_H */
