/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom one-hashing filter internals: the filter object.
 *
 *   onehash.c        create, destroy, clear, add, test, statistics
 *   onehash_image.c  version-3 images
 *
 * The partition sizes are computed once (kb_oh_sizes()) at creation and
 * load.  Words are read with relaxed atomic loads and bits set with
 * relaxed atomic OR.
 */
#ifndef _KBLOOM_ONEHASH_INT_H
#define _KBLOOM_ONEHASH_INT_H

#include "libkbloom_survey.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_var_onehash.h"

#define KBOH_CACHELINE	64

struct kbloom_oh {
	__u64 *words;
	__u64 nwords;
	struct kb_shape s;
	__u32 sizes[KBLOOM_K_MAX];
	__u32 hash_id;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	char name[KBLOOM_NAME_LEN];
	/* written by every add: off the read-mostly line */
	__u64 inserted __attribute__((aligned(KBOH_CACHELINE)));
};

/* onehash.c: a zeroed filter of shape @s (checked here). */
int kboh_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	     struct kbloom_oh **fp);

#endif /* _KBLOOM_ONEHASH_INT_H */
