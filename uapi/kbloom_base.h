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
 * Filter types.  The value is recorded in images and BPF parameter maps;
 * values are never reused.  Unknown types are refused everywhere.
 */
enum kbloom_type {
	KBLOOM_TYPE_STANDARD = 1,	/* flat bit array, k scattered probes */
	KBLOOM_TYPE_BLOCKED = 2,	/* 512-bit blocks, all probes in one */
	KBLOOM_TYPE_COUNTING = 3,	/* flat array of saturating counters */
	/* reserved for later variants: partitioned, scalable, stable, ... */
	KBLOOM_TYPE_MAX = KBLOOM_TYPE_COUNTING,
};

/* Hash functions.  The id is recorded in images and parameter maps. */
enum kbloom_hash_id {
	KBLOOM_HASH_FAST = 1,		/* seeded 64-bit multiply-mix hash */
	KBLOOM_HASH_SIPHASH13 = 2,	/* SipHash-1-3 keyed PRF */
	KBLOOM_HASH_MAX = KBLOOM_HASH_SIPHASH13,
};

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
