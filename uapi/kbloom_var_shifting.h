/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the shifting Bloom filter (KBLOOM_TYPE_SHIFTING; Yang, Liu,
 * Shahzad et al., "A shifting Bloom filter framework for set queries",
 * PVLDB 9(5), 2016): auxiliary information about a key is encoded as an
 * offset added to its positions, not in extra memory.
 *
 * Layout: m bits in 512-bit blocks (one cache line).  A key's block is the
 * blocked filter's (kb_block_index(h, m / 512), kbloom_layout.h) and its k
 * base positions in the block are the blocked filter's sequence
 * (g_0 = (__u32)h, b_i = g_i >> 23, g_{i+1} = g_i * KB_BLOCK_MUL).  A bit
 * at base b with offset o is bit (b + o) mod 512 of the block, so every
 * query reads one cache line, whatever the offsets.
 *
 * Offsets come from a spare word of the key's hash, x = kb_fmix64(h ^
 * KB_SHBF_SALT), with W = KB_SHBF_W:
 *   membership    bits b_i and b_i + o, o = 1 + x mod (W - 1) (1..63);
 *   association   S1 only: b_i; both: b_i + o1, o1 = 1 + x mod (W/2 - 1)
 *                 (1..31); S2 only: b_i + o2, o2 = o1 + 1 +
 *                 (x >> 32) mod (W/2 - 1) (2..62).  A query reports the
 *                 classes whose k bits are all set;
 *   multiplicity  count c (1..cmax) sets b_i + c - 1; a query reports the
 *                 largest c whose k bits are all set (0: absent).
 *
 * Shape (struct kb_shape): @k base positions (1..32), @m bits (a multiple
 * of 512, KBLOOM_M_MIN..KBLOOM_M_MAX), @update the mode (KB_SHBF_*),
 * @tables = cmax (1..KB_SHBF_CMAX) in multiplicity mode, 0 otherwise;
 * every other field 0.
 *
 * Association answer error (the paper's analysis of ShBF_A, section 4):
 * a key of S1 u S2 asked for its class is answered unclearly when either
 * of the two other classes' k bits are all set, each with probability
 * p = f^k at fill f, so the error is 1 - (1 - p)^2.  In 512-bit blocks
 * the fill is that of the key's block, which holds Pois(n / blocks) other
 * keys of k bits each: error = sum_i Pois(i) (1 - (1 - f_i^k)^2), f_i =
 * 1 - (1 - 1/512)^(i k) (Putze et al.'s averaging, as for blocked
 * filters).
 */
#ifndef _UAPI_KBLOOM_VAR_SHIFTING_H
#define _UAPI_KBLOOM_VAR_SHIFTING_H

#include <linux/types.h>
#include "kbloom_base.h"
#include "kbloom_hash.h"
#include "kbloom_layout.h"

#define KB_SHBF_MEMBERSHIP	1U
#define KB_SHBF_ASSOCIATION	2U
#define KB_SHBF_MULTIPLICITY	3U

#define KB_SHBF_W		64U	/* offsets stay below one word */
#define KB_SHBF_CMAX		57U	/* largest count of multiplicity mode */
#define KB_SHBF_SALT		0x5B1F7A3C9E2D4B61ULL

/* association classes (query answers are masks of these) */
#define KB_SHBF_S1		1U	/* in S1 only */
#define KB_SHBF_BOTH		2U	/* in S1 and S2 */
#define KB_SHBF_S2		4U	/* in S2 only */

/* The spare hash word the offsets are drawn from. */
static inline __u64 kb_shbf_x(__u64 h)
{
	return kb_fmix64(h ^ KB_SHBF_SALT);
}

static inline __u32 kb_shbf_off_member(__u64 h)
{
	return 1 + (__u32)(kb_shbf_x(h) % (KB_SHBF_W - 1));
}

/* Offset of association class @cls (KB_SHBF_S1, _BOTH or _S2). */
static inline __u32 kb_shbf_off_assoc(__u64 h, __u32 cls)
{
	__u64 x = kb_shbf_x(h);
	__u32 half = KB_SHBF_W / 2 - 1;
	__u32 o1 = 1 + (__u32)(x % half);

	if (cls == KB_SHBF_S1)
		return 0;
	if (cls == KB_SHBF_BOTH)
		return o1;
	return o1 + 1 + (__u32)((x >> 32) % half);
}

/* Block of a key in a filter of @m bits. */
static inline __u64 kb_shbf_block(__u64 h, __u64 m)
{
	return kb_block_index(h, m / KBLOOM_BLOCK_BITS);
}

/*
 * The in-block mask of a key's k base positions shifted by @off: word w
 * of the key's block must contain mask[w].
 */
static inline void kb_shbf_mask(__u64 h, __u32 k, __u32 off,
				__u64 mask[KBLOOM_BLOCK_WORDS])
{
	__u32 g = (__u32)h;
	__u32 i, b;

	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		mask[i] = 0;
	for (i = 0; i < KBLOOM_K_MAX && i < k; i++) {
		b = ((g >> 23) + off) & (KBLOOM_BLOCK_BITS - 1);
		mask[b >> 6] |= 1ULL << (b & 63);
		g *= KB_BLOCK_MUL;
	}
}

/* The shape rules above (struct kb_shape of kbloom_shape.h, as fields). */
static inline int kb_shbf_geom_ok(__u32 k, __u64 m, __u32 mode, __u32 cmax)
{
	if (k < KBLOOM_K_MIN || k > KBLOOM_K_MAX)
		return 0;
	if (m < KBLOOM_BLOCK_BITS || m > KBLOOM_M_MAX ||
	    m % KBLOOM_BLOCK_BITS)
		return 0;
	if (mode == KB_SHBF_MULTIPLICITY)
		return cmax >= 1 && cmax <= KB_SHBF_CMAX;
	return (mode == KB_SHBF_MEMBERSHIP || mode == KB_SHBF_ASSOCIATION) &&
	       !cmax;
}

#endif /* _UAPI_KBLOOM_VAR_SHIFTING_H */
