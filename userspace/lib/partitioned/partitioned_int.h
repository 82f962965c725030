/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom partitioned filter internals: the filter object.
 *
 *   partitioned.c        create, destroy, clear, name, statistics
 *   partitioned_keys.c   add, test (uapi's kb_part_next() positions)
 *   partitioned_image.c  version-3 images
 *
 * Words are read with relaxed atomic loads and bits set with relaxed
 * atomic OR, as in the standard filter.
 */
#ifndef _KBLOOM_PARTITIONED_INT_H
#define _KBLOOM_PARTITIONED_INT_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "libkbloom_partitioned.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_partitioned.h"

#define KBP_CACHELINE	64

struct kbloom_part {
	/* read by every operation */
	__u64 *words;
	__u64 nwords;
	struct kb_shape s;
	__u32 hash_id;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	char name[KBLOOM_NAME_LEN];
	/* written by every add: off the read-mostly line */
	__u64 inserted __attribute__((aligned(KBP_CACHELINE)));
};

static inline __u64 kbp_load(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void kbp_store(__u64 *p, __u64 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* partitioned.c */
int kbp_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	    struct kbloom_part **fp);

#endif /* _KBLOOM_PARTITIONED_INT_H */
