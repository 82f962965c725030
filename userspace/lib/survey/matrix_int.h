/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom matrix filter internals.
 *
 *   matrix.c          rows of standard filters of one geometry
 *   matrix_image.c    the container image (one standard image per row)
 *   matrix_similar.c  the intersection estimate of two filters
 */
#ifndef _KBLOOM_MATRIX_INT_H
#define _KBLOOM_MATRIX_INT_H

#include "libkbloom_survey.h"

struct kbloom_matrix {
	struct kbloom_filter **rows;
	__u32 nrows;
	char name[KBLOOM_NAME_LEN];
};

/* matrix.c: an empty matrix of @nrows NULL rows */
int kb_matrix_alloc(__u32 nrows, struct kbloom_matrix **mp);

#endif /* _KBLOOM_MATRIX_INT_H */
