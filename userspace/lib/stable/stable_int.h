/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom stable filter internals: the filter object.
 *
 *   stable.c        create, destroy, clear, reseed, name, statistics
 *   stable_keys.c   add, test, test_add (uapi/kbloom_var_stable.h)
 *   stable_image.c  version-3 images
 *
 * Cells are read with relaxed atomic loads, set to Max with relaxed
 * atomic OR, decremented with a compare-and-exchange loop per word.
 */
#ifndef _KBLOOM_STABLE_INT_H
#define _KBLOOM_STABLE_INT_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "libkbloom_stable.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_var_stable.h"

#define KBST_CACHELINE	64

struct kbloom_stable {
	/* read by every operation */
	__u64 *words;
	__u64 nwords;
	struct kb_shape s;
	__u32 hash_id;
	__u64 seed;
	__u64 capacity;		/* an image's, written back */
	__u64 fpr_pico;		/* the planned rate, or an image's */
	char name[KBLOOM_NAME_LEN];
	/* written by every add: off the read-mostly line */
	__u64 inserted __attribute__((aligned(KBST_CACHELINE)));
	__u64 rng;	/* the decrement stream's counter */
};

static inline __u64 kbst_load(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void kbst_store(__u64 *p, __u64 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* stable.c */
int kbst_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	    struct kbloom_stable **fp);

#endif /* _KBLOOM_STABLE_INT_H */
