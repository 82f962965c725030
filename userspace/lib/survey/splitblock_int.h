/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom split-block filter internals (ultra-fast and Parquet): the
 * filter object.
 *
 *   splitblock.c        create, plan, destroy, clear, statistics, rate
 *   splitblock_keys.c   add and test (kb_sb_block(), kb_sb_mask())
 *   splitblock_image.c  version-3 images, Parquet's raw bitset
 *
 * The bit array and its image are bitarray_v4a.h's.
 */
#ifndef _KBLOOM_SPLITBLOCK_INT_H
#define _KBLOOM_SPLITBLOCK_INT_H

#include "bitarray_v4a.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_var_splitblock.h"

struct kbloom_sb {
	struct kb_bitarray a;
	__u32 block_words;	/* 64-bit words per block: 8 or 4 */
	/* written by every add: off the read-mostly line */
	__u64 inserted __attribute__((aligned(KBA_CACHELINE)));
};

/* splitblock.c: a zeroed filter of shape @s (checked here). */
int kbsb_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	     struct kbloom_sb **fp);

#endif /* _KBLOOM_SPLITBLOCK_INT_H */
