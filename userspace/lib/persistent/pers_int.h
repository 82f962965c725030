/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom persistent filter internals: the archive object.
 *
 *   persistent.c   create, destroy, append (the nodes an epoch closes)
 *   pers_query.c   cover, test, statistics
 *   pers_image.c   container images in memory
 *   pers_file.c    container images in files
 *   pers_seek.c    queries that read only the cover's members of a file
 *
 * Level j holds nodes 0 .. (n >> j) - 1 in lv[j]; node x covers relative
 * epochs [x 2^j, (x + 1) 2^j).  The filters are libkbloom.h's, used
 * through its public functions only.
 */
#ifndef _KBLOOM_PERS_INT_H
#define _KBLOOM_PERS_INT_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "libkbloom_persistent.h"

struct kbp_node {
	struct kbloom_filter *f;
	__u64 fpr_pico;		/* predicted at its estimated keys */
};

struct kbloom_pers {
	__u64 first;		/* the first epoch's number */
	__u64 n;		/* epochs */
	struct kbp_node *lv[KB_PERS_LEVELS];
	struct kbloom_stats geom;	/* the first epoch's geometry */
	__u64 inserted;		/* the epochs' inserted counts, summed */
	char name[KBLOOM_NAME_LEN];
};

/* persistent.c: the type's rate at @st's estimated distinct keys */
__u64 kbp_fpr(const struct kbloom_stats *st);

/* pers_file.c: @len bytes of @fd at @off, or where it stands (@off < 0) */
int kbp_read_full(int fd, void *buf, size_t len, __s64 off);

/* The node of level @j that relative epoch @i closed (j <= closes(i)). */
static inline struct kbp_node *kbp_closed(const struct kbloom_pers *a,
					  __u64 i, __u32 j)
{
	return &a->lv[j][((i + 1) >> j) - 1];
}

#endif /* _KBLOOM_PERS_INT_H */
