/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: split-block filters, one bit per word of a block.  Only
 * libkbloom implements them; the module refuses both types.
 *
 * KBLOOM_TYPE_ULTRA_FAST (Lu, Wan, Li, Wu, "Ultra-fast Bloom filters
 * using SIMD techniques", IEEE TPDS 2019): 512-bit blocks (one cache
 * line) of eight 64-bit words; a key sets one bit in each of the eight
 * words, so a test is one load and one compare of eight lanes.  The block
 * is kbloom's blocked filter's (kb_block_index(): multiply-shift of the
 * high 32 bits of h); bit j is the top 6 bits of g * salt_j (mod 2^32),
 * g the low 32 bits of h.
 *
 * KBLOOM_TYPE_SPLIT_BLOCK: Apache Parquet's split-block Bloom filter
 * (parquet-format BloomFilter.md, "SBBF"): 256-bit blocks of eight 32-bit
 * words, block ((h >> 32) z) >> 32 of z blocks, bit j of its word the top
 * 5 bits of g * salt_j (mod 2^32), the eight salts below.  The array's
 * bytes (64-bit words little-endian, so 32-bit word 2i is the low half of
 * 64-bit word i) are the Parquet bitset's bytes, byte for byte: a filter
 * moves between a Parquet column chunk and kbloom as it is.  Parquet
 * hashes a value's plain encoding with xxHash64 and seed 0
 * (KBLOOM_HASH_XXH64); with another hash or seed the filter is kbloom's
 * own and only kbloom reads it.
 *
 * The rate (Putze, Sanders, Singler 2007, split into words): with
 * lambda = n B / m keys per block of B bits and w-bit words,
 *
 *   p = sum_i Pois_lambda(i) (1 - (1 - 1/w)^i)^8.
 *
 * Shape (struct kb_shape, kbloom_shape.h): @type, @k = 8, @buckets = z
 * blocks (1..KBLOOM_M_MAX / B), @m = z B bits; every other field 0.  The
 * image's geometry tail records z in @buckets.
 */
#ifndef _UAPI_KBLOOM_VAR_SPLITBLOCK_H
#define _UAPI_KBLOOM_VAR_SPLITBLOCK_H

#include "kbloom_shape.h"

/* KB_SB_K, KB_UF_BLOCK_BITS and KB_SBBF_BLOCK_BITS: kbloom_shape.h */
/* Parquet's bitset length limits (bytes), from its writers */
#define KB_SBBF_BYTES_MIN	32U
#define KB_SBBF_BYTES_MAX	(128U << 20)

/* The salts of the Parquet specification (odd 32-bit multipliers). */
static inline __u32 kb_sb_salt(__u32 j)
{
	static const __u32 salt[KB_SB_K] = {
		0x47B6137BU, 0x44974D91U, 0x8824AD5BU, 0xA2B7289DU,
		0x705495C7U, 0x2DF1424BU, 0x9EFC4947U, 0x5C6BFB31U,
	};

	return salt[j & (KB_SB_K - 1)];
}

/* Bits per block of a split-block type (0 for another type). */
static inline __u32 kb_sb_block_bits(__u32 type)
{
	if (type == KBLOOM_TYPE_ULTRA_FAST)
		return KB_UF_BLOCK_BITS;
	if (type == KBLOOM_TYPE_SPLIT_BLOCK)
		return KB_SBBF_BLOCK_BITS;
	return 0;
}

/* The block of hash h among z blocks: ((h >> 32) z) >> 32. */
static inline __u32 kb_sb_block(__u64 h, __u64 z)
{
	return kb_reduce32((__u32)(h >> 32), z);
}

/*
 * The bit of word j (0..7) of the block: the top log2(w) bits of
 * (g salt_j) mod 2^32, w = 32 (split-block) or 64 (ultra-fast).
 */
static inline __u32 kb_sb_bit(__u64 h, __u32 j, __u32 word_bits)
{
	__u32 y = (__u32)h * kb_sb_salt(j);

	return word_bits == 64 ? y >> 26 : y >> 27;
}

/*
 * The key's block mask as four 64-bit words (its 256 bits, SBBF) or eight
 * (512 bits, UFBF) into @mask: word j of the block holds bit
 * kb_sb_bit(h, j).
 */
static inline void kb_sb_mask(__u64 h, __u32 type, __u64 mask[KB_SB_K])
{
	__u32 j, b;

	for (j = 0; j < KB_SB_K; j++)
		mask[j] = 0;
	for (j = 0; j < KB_SB_K; j++) {
		if (type == KBLOOM_TYPE_ULTRA_FAST) {
			mask[j] = 1ULL << kb_sb_bit(h, j, 64);
			continue;
		}
		b = kb_sb_bit(h, j, 32);
		mask[j / 2] |= 1ULL << (b + 32 * (j & 1));
	}
}

#endif /* _UAPI_KBLOOM_VAR_SPLITBLOCK_H */
