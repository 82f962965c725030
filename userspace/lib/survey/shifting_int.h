/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom shifting filter internals: the filter object.
 *
 *   shifting.c        create, destroy, the three modes' add and query
 *   shifting_image.c  version-3 images
 *
 * Bits are set with relaxed atomic OR and read with relaxed loads.
 */
#ifndef _KBLOOM_SHIFTING_INT_H
#define _KBLOOM_SHIFTING_INT_H

#include "libkbloom_survey.h"
#include "uapi/kbloom_shape.h"

struct kbloom_shbf {
	__u64 *words;
	__u64 nwords;
	struct kb_shape s;	/* k, m, update = mode, tables = cmax */
	__u32 hash_id;
	__u64 seed;
	__u64 inserted;
	__u64 capacity;		/* an image's, kept for its save */
	__u64 fpr_pico;
	char name[KBLOOM_NAME_LEN];
};

/* shifting.c */
int kb_shbf_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
		struct kbloom_shbf **fp);

#endif /* _KBLOOM_SHIFTING_INT_H */
