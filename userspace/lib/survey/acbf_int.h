/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom ACBF internals: the filter (acbf.c: keys, statistics, images)
 * and its levels with a rank directory (acbf_levels.c: popcount offsets,
 * bit insertion and removal).  Layout: uapi/kbloom_var_acbf.h.
 */
#ifndef _KBLOOM_ACBF_INT_H
#define _KBLOOM_ACBF_INT_H

#include "survey_array.h"
#include "uapi/kbloom_var_acbf.h"

#define KB_ACBF_BLOCK_SHIFT	9	/* 512-bit blocks of the directory */
#define KB_ACBF_SUPER_SHIFT	15	/* 64 blocks per superblock */

/*
 * @lvl_len[j]: bits of level j (1..levels); @used: the upper levels' bits;
 * @cnt: ones per 512-bit block of the whole array; @sup: ones before
 * each superblock.  The directory is rebuilt from the words on load.
 */
struct kbloom_acbf {
	struct kb_sarr a;
	__u64 m1;
	__u32 levels;
	__u64 used;
	__u64 lvl_len[KB_ACBF_LEVELS_MAX + 1];
	__u16 *cnt;
	__u64 *sup;
	__u64 nblocks;
	__u64 nsup;
};

/* acbf_levels.c */
int kb_acbf_dir_alloc(struct kbloom_acbf *f);
void kb_acbf_dir_build(struct kbloom_acbf *f, __u64 from, __u64 to);
__u64 kb_acbf_rank(const struct kbloom_acbf *f, __u64 pos);
void kb_acbf_set(struct kbloom_acbf *f, __u64 pos, bool v);
void kb_acbf_insert0(struct kbloom_acbf *f, __u64 pos);
/* @pos must hold a 0 (the top of a counter) */
void kb_acbf_remove(struct kbloom_acbf *f, __u64 pos);

/* Ones among bits [@lo, @hi). */
static inline __u64 kb_acbf_span(const struct kbloom_acbf *f, __u64 lo,
				 __u64 hi)
{
	return kb_acbf_rank(f, hi) - kb_acbf_rank(f, lo);
}

#endif /* _KBLOOM_ACBF_INT_H */
