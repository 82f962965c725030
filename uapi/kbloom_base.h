/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the constants every executor (kernel, BPF, userspace) shares.
 *
 * Header-only and free of libc: it needs only <linux/types.h>, which the
 * kernel, clang -target bpf (with the distribution's asm include path) and
 * userspace all provide.
 */
#ifndef _UAPI_KBLOOM_BASE_H
#define _UAPI_KBLOOM_BASE_H

#include <linux/types.h>
#include <linux/const.h>

/*
 * Filter types.  The value is recorded in images, ioctls and BPF parameter
 * maps; values are never reused.  Every executor refuses a type it does
 * not implement with its documented errno (kbloom.ko: EOPNOTSUPP for a
 * known type it lacks, EINVAL for a value outside this enum; images:
 * EOPNOTSUPP for both).  Types 1..3 are images of version 2; every later
 * type is an image of version 3 with a geometry tail (kbloom_image.h).
 */
enum kbloom_type {
	KBLOOM_TYPE_STANDARD = 1,	/* flat bit array, k scattered probes */
	KBLOOM_TYPE_BLOCKED = 2,	/* 512-bit blocks, all probes in one */
	KBLOOM_TYPE_COUNTING = 3,	/* flat array of saturating counters */
	/* survey variants I: deletion and counts (kbloom_variants.h) */
	KBLOOM_TYPE_CUCKOO = 4,		/* buckets of f-bit fingerprints */
	KBLOOM_TYPE_VI_COUNTING = 5,	/* variable-increment counting */
	KBLOOM_TYPE_DLEFT = 6,		/* d-left counting (fingerprint cells) */
	KBLOOM_TYPE_COUNT_MIN = 7,	/* spectral / Count-Min sketch */
	/* survey variants II: time and streams */
	KBLOOM_TYPE_PARTITIONED = 8,	/* k slices of m / k bits */
	KBLOOM_TYPE_SCALABLE = 9,	/* growing generations (container) */
	KBLOOM_TYPE_DYNAMIC = 10,	/* counting generations (container) */
	KBLOOM_TYPE_STABLE = 11,	/* decaying cells: may forget */
	KBLOOM_TYPE_AGE_PARTITIONED = 12, /* sliding window of slices */
	KBLOOM_TYPE_PERSISTENT = 13,	/* epochs in a time decomposition */
	/* survey variants III: between nodes and in packets */
	KBLOOM_TYPE_IBLT = 14,		/* invertible Bloom lookup table */
	KBLOOM_TYPE_YES_NO = 15,	/* a yes filter and a no filter */
	KBLOOM_TYPE_DELETABLE = 16,	/* regions with a collision bitmap */
	/* survey variants IV */
	KBLOOM_TYPE_ONE_HASHING = 17,
	KBLOOM_TYPE_ULTRA_FAST = 18,
	KBLOOM_TYPE_SPLIT_BLOCK = 19,	/* Parquet SBBF */
	KBLOOM_TYPE_ACCURATE_COUNTING = 20,
	KBLOOM_TYPE_FP_COUNTING = 21,
	KBLOOM_TYPE_RETOUCHED = 22,	/* may forget */
	KBLOOM_TYPE_GENERALIZED = 23,	/* may forget */
	KBLOOM_TYPE_COMPLEMENT = 24,
	KBLOOM_TYPE_SHIFTING = 25,
	KBLOOM_TYPE_WEIGHTED = 26,
	KBLOOM_TYPE_ADAPTIVE = 27,
	KBLOOM_TYPE_DISTANCE_SENSITIVE = 28, /* may forget */
	KBLOOM_TYPE_MATRIX = 29,
	KBLOOM_TYPE_LAST = KBLOOM_TYPE_MATRIX,
	/* the classic types, the only ones of image version 2 */
	KBLOOM_TYPE_MAX = KBLOOM_TYPE_COUNTING,
};

/* A value of enum kbloom_type (implemented here or not). */
static inline int kb_type_known(__u32 type)
{
	return type >= KBLOOM_TYPE_STANDARD && type <= KBLOOM_TYPE_LAST;
}

/* Types 1..3: described by the base image header alone (version 2). */
static inline int kb_type_classic(__u32 type)
{
	return type >= KBLOOM_TYPE_STANDARD && type <= KBLOOM_TYPE_MAX;
}

/*
 * Types that can answer "absent" for a key that was added and not
 * deleted: their images carry KBLOOM_IMAGE_F_MAY_FN, and the paths where
 * a false negative is wrong (the gate, mcast port filters) refuse them.
 */
static inline int kb_type_may_fn(__u32 type)
{
	return type == KBLOOM_TYPE_STABLE ||
	       type == KBLOOM_TYPE_AGE_PARTITIONED ||
	       type == KBLOOM_TYPE_RETOUCHED ||
	       type == KBLOOM_TYPE_GENERALIZED ||
	       type == KBLOOM_TYPE_DISTANCE_SENSITIVE;
}

/* Hash functions.  The id is recorded in images and parameter maps. */
enum kbloom_hash_id {
	KBLOOM_HASH_FAST = 1,		/* seeded 64-bit multiply-mix hash */
	KBLOOM_HASH_SIPHASH13 = 2,	/* SipHash-1-3 keyed PRF */
	/*
	 * xxHash64 (Collet), the hash of Apache Parquet's split-block
	 * filters: only KBLOOM_TYPE_SPLIT_BLOCK accepts it (kb_type_hash_ok()),
	 * so it stays above KBLOOM_HASH_MAX, the last id every type accepts.
	 */
	KBLOOM_HASH_XXH64 = 3,
	KBLOOM_HASH_MAX = KBLOOM_HASH_SIPHASH13,
};

/* A hash id that filters of @type accept (images, creation). */
static inline int kb_type_hash_ok(__u32 type, __u32 hash_id)
{
	if (hash_id == KBLOOM_HASH_XXH64)
		return type == KBLOOM_TYPE_SPLIT_BLOCK;
	return hash_id >= KBLOOM_HASH_FAST && hash_id <= KBLOOM_HASH_MAX;
}

#define KBLOOM_BLOCK_BITS	512U	/* one 64-byte cache line */
#define KBLOOM_BLOCK_BYTES	64U
#define KBLOOM_BLOCK_WORDS	8U	/* 64-bit words per block */

#define KBLOOM_K_MIN		1U
#define KBLOOM_K_MAX		32U	/* probes per key */

/*
 * m is the number of bits (standard, blocked) or counters (counting).
 * Positions are reduced from 32-bit hash words, so m (or the number of
 * blocks) must fit in 32 bits.  A blocked m is a multiple of 512.
 */
#define KBLOOM_M_MIN		64ULL
#define KBLOOM_M_MAX		_BITULL(32)

#define KBLOOM_COUNTER_BITS_DEFAULT	4U	/* packed, two per byte */
#define KBLOOM_COUNTER_BITS_WIDE	8U

#define KBLOOM_KEY_MAX		64U	/* bytes */

/*
 * Probabilities cross the ABI (ioctls, images, CLI) as integers in units of
 * 1e-12 ("pico"): p = 0.01 is 10000000000.  Targets are limited to
 * [1e-9, 0.5].
 */
#define KBLOOM_P_UNIT		1000000000000ULL	/* 1.0 in pico units */
#define KBLOOM_P_TARGET_MIN	1000ULL			/* 1e-9 */
#define KBLOOM_P_TARGET_MAX	500000000000ULL		/* 0.5 */

#endif /* _UAPI_KBLOOM_BASE_H */
