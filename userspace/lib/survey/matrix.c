// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom matrix Bloom filter (libkbloom_survey.h): rows of standard
 * filters that share m, k, hash and seed, so that any two rows can be
 * OR-ed and compared (kbloom_similarity()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "matrix_int.h"
#include "uapi/kbloom_image.h"

int kb_matrix_alloc(__u32 nrows, struct kbloom_matrix **mp)
{
	struct kbloom_matrix *mx = calloc(1, sizeof(*mx));

	if (!mx)
		return -ENOMEM;
	mx->rows = calloc(nrows, sizeof(*mx->rows));
	if (!mx->rows) {
		free(mx);
		return -ENOMEM;
	}
	mx->nrows = nrows;
	*mp = mx;
	return 0;
}

void kbloom_matrix_destroy(struct kbloom_matrix *mx)
{
	__u32 i;

	if (!mx)
		return;
	for (i = 0; i < mx->nrows; i++)
		kbloom_destroy(mx->rows[i]);
	free(mx->rows);
	free(mx);
}

/* Rows 1.. take row 0's seed (a random seed is drawn once). */
static int matrix_fill(struct kbloom_matrix *mx, __u64 m, __u32 k,
		       const struct kbloom_opts *opts)
{
	struct kbloom_opts o = { 0 };
	struct kbloom_stats st;
	__u32 i;
	int ret;

	if (opts)
		o = *opts;
	o.name = NULL;
	ret = kbloom_create_mk(KBLOOM_TYPE_STANDARD, m, k, &o, &mx->rows[0]);
	if (ret)
		return ret;
	kbloom_stats(mx->rows[0], &st);
	o.seed = st.seed;
	o.flags &= ~KBLOOM_OPT_RANDOM_SEED;
	for (i = 1; i < mx->nrows; i++) {
		ret = kbloom_create_mk(KBLOOM_TYPE_STANDARD, m, k, &o,
				       &mx->rows[i]);
		if (ret)
			return ret;
	}
	return 0;
}

int kbloom_matrix_create(__u32 rows, __u64 m, __u32 k,
			 const struct kbloom_opts *opts,
			 struct kbloom_matrix **mp)
{
	struct kbloom_matrix *mx;
	int ret;

	if (!mp || !rows || rows > KBLOOM_CONTAINER_MEMBERS_MAX)
		return -EINVAL;
	if (opts && opts->name && opts->name[0] &&
	    (strnlen(opts->name, KBLOOM_NAME_LEN) >= KBLOOM_NAME_LEN ||
	     !kb_name_valid(opts->name)))
		return -EINVAL;
	ret = kb_matrix_alloc(rows, &mx);
	if (ret)
		return ret;
	ret = matrix_fill(mx, m, k, opts);
	if (ret) {
		kbloom_matrix_destroy(mx);
		return ret;
	}
	if (opts && opts->name)
		strncpy(mx->name, opts->name, KBLOOM_NAME_LEN - 1);
	*mp = mx;
	return 0;
}

__u32 kbloom_matrix_rows(const struct kbloom_matrix *mx)
{
	return mx ? mx->nrows : 0;
}

struct kbloom_filter *kbloom_matrix_row(const struct kbloom_matrix *mx,
					__u32 row)
{
	return mx && row < mx->nrows ? mx->rows[row] : NULL;
}

int kbloom_matrix_add(struct kbloom_matrix *mx, __u32 row, const void *key,
		      __u32 len)
{
	struct kbloom_filter *f = kbloom_matrix_row(mx, row);

	return f ? kbloom_add(f, key, len) : -EINVAL;
}

int kbloom_matrix_test(const struct kbloom_matrix *mx, __u32 row,
		       const void *key, __u32 len)
{
	const struct kbloom_filter *f = kbloom_matrix_row(mx, row);

	return f ? kbloom_test(f, key, len) : -EINVAL;
}

int kbloom_matrix_similar(const struct kbloom_matrix *mx, __u32 a, __u32 b,
			  struct kbloom_similarity *out)
{
	const struct kbloom_filter *fa = kbloom_matrix_row(mx, a);
	const struct kbloom_filter *fb = kbloom_matrix_row(mx, b);

	if (!fa || !fb)
		return -EINVAL;
	return kbloom_similarity(fa, fb, out);
}
