/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom one-hashing filter internals: the filter object.
 *
 *   onehash.c        create, destroy, clear, add, test, statistics
 *   onehash_image.c  version-3 images
 *
 * The bit array and its image are bitarray_v4a.h's; the partition sizes
 * are computed once (kb_oh_sizes()) at creation and load.
 */
#ifndef _KBLOOM_ONEHASH_INT_H
#define _KBLOOM_ONEHASH_INT_H

#include "bitarray_v4a.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_var_onehash.h"

struct kbloom_oh {
	struct kb_bitarray a;
	__u32 sizes[KBLOOM_K_MAX];
	/* written by every add: off the read-mostly line */
	__u64 inserted __attribute__((aligned(KBA_CACHELINE)));
};

/* onehash.c: a zeroed filter of shape @s (checked here). */
int kboh_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	     struct kbloom_oh **fp);

#endif /* _KBLOOM_ONEHASH_INT_H */
