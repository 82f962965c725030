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
 * (KBLOOM_TYPE_COUNTING), m counters, use enhanced double hashing
 * (Dillinger and Manolios) on two 32-bit halves:
 *     x_0 = h >> 32, y_0 = (u32)h
 *     pos_i = kb_reduce32(x_i, m); x_{i+1} = x_i + y_i; y_{i+1} = y_i + i + 1
 *   all mod 2^32.  Bit j is bit (j & 63) of word (j >> 6).  Counter j of
 *   width w (4 or 8 bits) is bits [(j % (64 / w)) * w, +w) of word
 *   j / (64 / w).
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
		b = g >> 23;
		mask[b >> 6] |= 1ULL << (b & 63);
		g *= KB_BLOCK_MUL;
	}
}

/* Iterator over the k positions of a standard or counting filter. */
struct kb_probe {
	__u32 x;
	__u32 y;
	__u32 i;
};

static inline void kb_probe_init(struct kb_probe *p, __u64 h)
{
	p->x = (__u32)(h >> 32);
	p->y = (__u32)h;
	p->i = 0;
}

static inline __u32 kb_probe_next(struct kb_probe *p, __u64 m)
{
	__u32 pos = kb_reduce32(p->x, m);

	p->x += p->y;
	p->i++;
	p->y += p->i;
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
