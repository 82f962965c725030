/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_sketch internals: the sketch object, shared by sketch.c (the
 * counters), sketch_image.c (images) and sketch_xdp.c (the BPF maps).
 */
#ifndef _KBLOOM_SKETCH_INT_H
#define _KBLOOM_SKETCH_INT_H

#include <errno.h>
#include <string.h>

#include "libkbloom_sketch.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_variants.h"

struct kbloom_sketch {
	__u64 *words;
	__u64 nwords;
	struct kb_shape shape;	/* tables = d, buckets = w */
	__u32 hash_id;
	__u64 seed;
	__u64 epsilon_pico;
	__u64 delta_pico;
	__u64 capacity;		/* an image's, kept as it is (unused) */
	__u64 total;		/* N: weight added minus weight deleted */
	__u64 saturations;
	char name[KBLOOM_NAME_LEN];
};

/* sketch.c */
int kbs_new(const struct kb_shape *shape, __u32 hash_id, __u64 seed,
	    struct kbloom_sketch **sp);

#endif /* _KBLOOM_SKETCH_INT_H */
