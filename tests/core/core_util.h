/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the core suite: deterministic key streams.
 */
#ifndef _KBLOOM_CORE_UTIL_H
#define _KBLOOM_CORE_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <linux/types.h>

/*
 * splitmix64: a bijection of the 64-bit integers, so distinct i give
 * distinct keys.
 */
static inline __u64 cu_mix(__u64 x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

/* A small deterministic PRNG (xorshift64*). */
struct cu_rng {
	__u64 s;
};

static inline __u64 cu_next(struct cu_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1DULL;
}

/*
 * Variable-length string key i: "k<i>:" followed by pseudo-random
 * printable characters up to a length of 6..64 bytes drawn from i.
 * Distinct i give distinct keys (the prefix up to ':' is i in decimal).
 */
static inline __u32 cu_strkey(__u64 i, char out[64])
{
	__u64 x = cu_mix(i ^ 0x5EED);
	__u32 len = 6 + (__u32)(x % 59), n, j;

	n = (__u32)snprintf(out, 64, "k%llu:", (unsigned long long)i);
	for (j = n; j < len; j++) {
		x = cu_mix(x);
		out[j] = (char)('!' + x % 94);
	}
	return len > n ? len : n;
}

static inline double cu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif /* _KBLOOM_CORE_UTIL_H */
