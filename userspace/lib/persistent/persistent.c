// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom persistent filter: the archive, and appending a closed epoch
 * with the nodes of the binary time decomposition it completes
 * (uapi/kbloom_var_persistent.h).
 */
#include <stdlib.h>

#include "pers_int.h"
#include "uapi/kbloom_plan.h"

int kbloom_pers_create(struct kbloom_pers **ap)
{
	struct kbloom_pers *a;
	__u32 j;

	if (!ap)
		return -EINVAL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	for (j = 0; j < KB_PERS_LEVELS; j++) {
		a->lv[j] = calloc(KB_PERS_EPOCHS_MAX >> j, sizeof(*a->lv[j]));
		if (!a->lv[j]) {
			kbloom_pers_destroy(a);
			return -ENOMEM;
		}
	}
	*ap = a;
	return 0;
}

void kbloom_pers_destroy(struct kbloom_pers *a)
{
	__u64 x;
	__u32 j;

	if (!a)
		return;
	for (j = 0; j < KB_PERS_LEVELS; j++) {
		for (x = 0; a->lv[j] && x < kb_pers_level_nodes(a->n, j); x++)
			kbloom_destroy(a->lv[j][x].f);
		free(a->lv[j]);
	}
	free(a);
}

/* The type's rate at the distinct keys the occupancy gives. */
__u64 kbp_fpr(const struct kbloom_stats *st)
{
	if (st->n_est == KB_N_EST_INF)
		return KBLOOM_P_UNIT;
	return kb_plan_fpr_pico(st->type, st->m, st->k, st->n_est);
}

static bool kbp_same(const struct kbloom_stats *a, const struct kbloom_stats *b)
{
	return a->type == b->type && a->hash_id == b->hash_id &&
	       a->seed == b->seed && a->m == b->m && a->k == b->k &&
	       a->counter_bits == b->counter_bits;
}

/* 0 when @epoch may be appended next. */
static int kbp_epoch_ok(const struct kbloom_pers *a, __u64 epoch)
{
	if (a->n >= KB_PERS_EPOCHS_MAX)
		return -ENOSPC;
	if (!a->n || epoch == KBLOOM_PERS_NEXT)
		return a->n && a->first + a->n == 0 ? -ENOSPC : 0;
	return epoch == a->first + a->n ? 0 : -EINVAL;
}

/* A new node: @left merged with @right, of the archive's geometry. */
static int kbp_merge(const struct kbloom_stats *g,
		     const struct kbloom_filter *left,
		     const struct kbloom_filter *right, struct kbp_node *out)
{
	struct kbloom_opts o = {
		.hash_id = g->hash_id, .seed = g->seed,
		.counter_bits = g->type == KBLOOM_TYPE_COUNTING ?
				g->counter_bits : 0,
	};
	struct kbloom_filter *f;
	struct kbloom_stats st;
	int ret;

	ret = kbloom_create_mk(g->type, g->m, g->k, &o, &f);
	if (ret)
		return ret;
	ret = kbloom_union(f, left) ?: kbloom_union(f, right) ?:
	      kbloom_stats(f, &st);
	if (ret) {
		kbloom_destroy(f);
		return ret;
	}
	out->f = f;
	out->fpr_pico = kbp_fpr(&st);
	return 0;
}

/*
 * The nodes epoch a->n closes, from @made[0] (the epoch) up: made[j]
 * merges node 2x of level j - 1 with made[j - 1] (node 2x + 1).
 */
static int kbp_build(const struct kbloom_pers *a, const struct kbloom_stats *g,
		     struct kbp_node *made, __u32 up)
{
	__u32 j;
	int ret;

	for (j = 1; j <= up; j++) {
		ret = kbp_merge(g, a->lv[j - 1][2 * (((a->n + 1) >> j) - 1)].f,
				made[j - 1].f, &made[j]);
		if (ret)
			goto out_destroy_made;
	}
	return 0;
out_destroy_made:
	while (--j >= 1)
		kbloom_destroy(made[j].f);
	return ret;
}

int kbloom_pers_append(struct kbloom_pers *a, __u64 epoch,
		       struct kbloom_filter *f)
{
	struct kbp_node made[KB_PERS_LEVELS];
	struct kbloom_stats st;
	__u32 j, up;
	int ret;

	if (!a || !f)
		return -EINVAL;
	ret = kbp_epoch_ok(a, epoch) ?: kbloom_stats(f, &st);
	if (ret)
		return ret;
	if (!kb_pers_member_type_ok(st.type) ||
	    (a->n && !kbp_same(&a->geom, &st)))
		return -EINVAL;
	made[0].f = f;
	made[0].fpr_pico = kbp_fpr(&st);
	up = kb_pers_closes(a->n);
	ret = kbp_build(a, a->n ? &a->geom : &st, made, up);
	if (ret)
		return ret;
	if (!a->n) {
		a->first = epoch == KBLOOM_PERS_NEXT ? 0 : epoch;
		a->geom = st;
	}
	for (j = 0; j <= up; j++)
		*kbp_closed(a, a->n, j) = made[j];
	a->inserted += st.inserted;
	a->n++;
	return 0;
}

int kbloom_pers_append_image(struct kbloom_pers *a, __u64 epoch,
			     const void *img, size_t len)
{
	struct kbloom_filter *f;
	int ret;

	if (!a)
		return -EINVAL;
	ret = kbloom_load(img, len, &f);
	if (ret)
		return ret;
	ret = kbloom_pers_append(a, epoch, f);
	if (ret)
		kbloom_destroy(f);
	return ret;
}
