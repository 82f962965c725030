/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom distance-sensitive filter internals.
 *
 *   distance_sensitive.c        create, destroy, add, test
 *   distance_sensitive_image.c  version-3 images
 *
 * The sampled positions kb_dsbf_pos() are computed once, at creation.
 */
#ifndef _KBLOOM_DISTANCE_SENSITIVE_INT_H
#define _KBLOOM_DISTANCE_SENSITIVE_INT_H

#include "libkbloom_survey.h"
#include "uapi/kbloom_shape.h"

struct kbloom_dsbf {
	__u64 *words;
	__u64 nwords;
	struct kb_shape s;	/* k, m, buckets = s, tables = b, slots =
				 * key bytes, update = t */
	__u32 hash_id;
	__u64 seed;
	__u64 inserted;
	__u64 capacity;		/* an image's, kept for its save */
	__u64 fpr_pico;
	__u16 *pos;		/* k b sampled positions */
	char name[KBLOOM_NAME_LEN];
};

/* distance_sensitive.c */
int kb_dsbf_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
		struct kbloom_dsbf **fp);

#endif /* _KBLOOM_DISTANCE_SENSITIVE_INT_H */
