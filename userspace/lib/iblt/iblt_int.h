/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom IBLT internals: the table object.
 *
 *   iblt.c         create, destroy, dup, insert, delete, subtract, stats
 *   iblt_decode.c  peeling decode and the strata estimate
 *   iblt_image.c   version-3 images
 *
 * The cells are one array of 64-bit words, cell c at words
 * [c (3 + W), (c + 1) (3 + W)) (uapi/kbloom_var_iblt.h).
 */
#ifndef _KBLOOM_IBLT_INT_H
#define _KBLOOM_IBLT_INT_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "libkbloom_iblt.h"
#include "uapi/kbloom_shape.h"

struct kbloom_iblt {
	__u64 *words;
	__u64 nwords;
	struct kb_shape s;
	__u32 cw;		/* words per cell */
	__u32 hash_id;
	__u64 seed;
	__u64 inserted;
	__u64 deleted;
	char name[KBLOOM_NAME_LEN];
};

static inline __u64 *kbib_cell(const struct kbloom_iblt *f, __u64 c)
{
	return f->words + c * f->cw;
}

/* iblt.c */
int kbib_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	     struct kbloom_iblt **fp);
void kbib_fold(struct kbloom_iblt *f, const __u64 *enc, __u64 h, __u64 check,
	       __u64 value, __u32 table, __s64 sign);

#endif /* _KBLOOM_IBLT_INT_H */
