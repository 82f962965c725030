/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom VI-CBF internals: the filter object shared by vicbf.c (keys,
 * statistics) and vicbf_image.c (images).  Positions, increments, the
 * counter steps and the formula are uapi/kbloom_variants.h's.
 */
#ifndef _KBLOOM_VICBF_INT_H
#define _KBLOOM_VICBF_INT_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "libkbloom_vicbf.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_variants.h"

struct kbloom_vicbf {
	__u64 *words;
	__u64 nwords;
	__u64 m;
	__u64 seed;
	__u32 k;
	__u32 vi_l;
	__u32 counter_bits;
	__u32 hash_id;
	__u64 capacity;
	__u64 fpr_pico;
	char name[KBLOOM_NAME_LEN];
	/* written by adds and deletes */
	__u64 inserted __attribute__((aligned(64)));
	__u64 deleted;
	__u64 saturations;
};

/* vicbf.c */
int kbv_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	    struct kbloom_vicbf **fp);

static inline __u64 kbv_load(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void kbv_store(__u64 *p, __u64 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline void kbv_count(__u64 *ctr, __u64 n)
{
	__atomic_fetch_add(ctr, n, __ATOMIC_RELAXED);
}

#endif /* _KBLOOM_VICBF_INT_H */
