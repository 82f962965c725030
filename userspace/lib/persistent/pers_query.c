// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom persistent filter: the cover of a range of epochs (the greedy
 * dyadic decomposition of uapi/kbloom_var_persistent.h), the range query
 * over it, and the archive's statistics.
 */
#include "pers_int.h"

/* The most nodes of a cover: 2 floor(log2 KB_PERS_EPOCHS_MAX), with room. */
#define KBP_COVER_MAX	(2 * KB_PERS_LEVELS)

/* [@from, @to] as relative epochs [*lo, *hi] inside the archive. */
static int kbp_range(const struct kbloom_pers *a, __u64 from, __u64 to,
		     __u64 *lo, __u64 *hi)
{
	if (!a || from > to)
		return -EINVAL;
	if (!a->n || from < a->first || to - a->first >= a->n)
		return -ERANGE;
	*lo = from - a->first;
	*hi = to - a->first;
	return 0;
}

static void kbp_node_out(const struct kbloom_pers *a, __u64 lo, __u32 j,
			 struct kbloom_pers_node *out)
{
	const struct kbp_node *nd = &a->lv[j][lo >> j];

	out->level = j;
	out->reserved = 0;
	out->first = a->first + lo;
	out->last = a->first + lo + (1ULL << j) - 1;
	out->f = nd->f;
	out->fpr_pico = nd->fpr_pico;
}

int kbloom_pers_cover(const struct kbloom_pers *a, __u64 from, __u64 to,
		      struct kbloom_pers_node *nodes, __u32 max)
{
	__u64 lo, hi;
	__u32 cnt = 0, j;
	int ret = kbp_range(a, from, to, &lo, &hi);

	if (ret)
		return ret;
	while (lo <= hi) {
		j = kb_pers_cover_next(lo, hi);
		if (nodes && cnt >= max)
			return -ENOSPC;
		if (nodes)
			kbp_node_out(a, lo, j, &nodes[cnt]);
		cnt++;
		lo += 1ULL << j;
	}
	return (int)cnt;
}

int kbloom_pers_test(const struct kbloom_pers *a, __u64 from, __u64 to,
		     const void *key, __u32 len, struct kbloom_pers_query *q)
{
	struct kbloom_pers_node nodes[KBP_COVER_MAX];
	struct kbloom_pers_query r = { 0 };
	int i, n, ret = 0;

	if (!key || !len || len > KBLOOM_KEY_MAX)
		return -EINVAL;
	n = kbloom_pers_cover(a, from, to, nodes, KBP_COVER_MAX);
	if (n < 0)
		return n;
	r.cover = n;
	for (i = 0; i < n; i++)
		r.fpr_pico += nodes[i].fpr_pico;
	if (r.fpr_pico > KBLOOM_P_UNIT)
		r.fpr_pico = KBLOOM_P_UNIT;
	for (i = 0; i < n && !ret; i++) {
		ret = kbloom_test(nodes[i].f, key, len);
		r.tested++;
		if (ret < 0)
			return ret;
	}
	if (q)
		*q = r;
	return ret;
}

int kbloom_pers_stats(const struct kbloom_pers *a,
		      struct kbloom_pers_stats *st)
{
	const struct kbp_node *nd;
	__u64 x, nodes;
	__u32 j;

	if (!a || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	if (!a->n)
		return 0;
	st->first = a->first;
	st->epochs = a->n;
	st->members = kb_pers_members(a->n);
	st->levels = kb_pers_log2(a->n) + 1;
	st->type = a->geom.type;
	st->hash_id = a->geom.hash_id;
	st->k = a->geom.k;
	st->counter_bits = a->geom.counter_bits;
	st->m = a->geom.m;
	st->seed = a->geom.seed;
	st->bytes = st->members * a->geom.bytes;
	st->inserted = a->inserted;
	for (j = 0; j < st->levels; j++) {
		nodes = kb_pers_level_nodes(a->n, j);
		st->level_nodes[j] = nodes;
		for (x = 0, nd = a->lv[j]; x < nodes; x++, nd++)
			if (nd->fpr_pico > st->level_fpr_max_pico[j])
				st->level_fpr_max_pico[j] = nd->fpr_pico;
	}
	return 0;
}
