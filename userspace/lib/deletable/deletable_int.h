/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom deletable filter internals: the filter object.
 *
 *   deletable.c          create, destroy, clear, name, statistics
 *   deletable_keys.c     add, test, deletable, delete
 *   deletable_image.c    version-3 images
 *   deletable_predict.c  the deletable fraction's formulas
 *
 * Words are read with relaxed atomic loads, bits set with relaxed atomic
 * OR and cleared (delete) with relaxed atomic AND.
 */
#ifndef _KBLOOM_DELETABLE_INT_H
#define _KBLOOM_DELETABLE_INT_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "libkbloom_deletable.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_var_deletable.h"

#define KBD_CACHELINE	64

struct kbloom_del {
	/* read by every operation */
	__u64 *words;		/* body, then the collision bitmap */
	__u64 nwords;
	bool ext;		/* @words are the caller's (never freed) */
	struct kb_shape s;
	__u32 shift;		/* log2 of the region bits */
	__u32 hash_id;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	char name[KBLOOM_NAME_LEN];
	/* written by adds and deletes: off the read-mostly line */
	__u64 inserted __attribute__((aligned(KBD_CACHELINE)));
	__u64 deleted;
	__u64 refused;
};

static inline __u64 kbd_load(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void kbd_store(__u64 *p, __u64 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* deletable.c */
int kbd_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	    struct kbloom_del **fp);

#endif /* _KBLOOM_DELETABLE_INT_H */
