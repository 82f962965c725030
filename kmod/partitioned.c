// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko's partitioned Bloom filter (KBLOOM_TYPE_PARTITIONED) as a
 * table of struct kb_type_ops: k slices of s bits, probe i sets one bit of
 * slice i.  Positions, shape and planner are uapi/kbloom_partitioned.h's,
 * the ones libkbloom uses, so images move between the two.
 *
 * Lock-free like the standard filter: readers (TEST, the kfunc
 * bpf_kbloom_test()) load words with atomic64_read(), ADD sets bits with
 * atomic64_or().  The set bits and the cardinality estimate are the
 * generic bit array's (kb_filter_stat()).
 */
#include <linux/bitops.h>

#include "kbloom_int.h"
#include "uapi/kbloom_partitioned.h"

/* Planned from (capacity, fpr_pico), or explicit (k, buckets = s). */
static int kb_part_create_shape(const struct kbloom_create *cmd,
				struct kb_shape *s)
{
	if (cmd->capacity || cmd->fpr_pico) {
		if (cmd->k || cmd->buckets)
			return -EINVAL;
		return kb_part_plan(cmd->capacity, cmd->fpr_pico, s);
	}
	if (cmd->k >= KBLOOM_K_MIN && cmd->k <= KBLOOM_K_MAX &&
	    cmd->buckets > KBLOOM_M_MAX / cmd->k)
		return -E2BIG;
	return kb_part_shape_init(s, cmd->k, cmd->buckets);
}

static int kb_part_create(const struct kbloom_create *cmd, struct kb_geom *g)
{
	struct kb_shape s;
	int ret;

	if (cmd->m || cmd->counter_bits || cmd->fp_bits || cmd->slots ||
	    cmd->tables || cmd->vi_l || cmd->update)
		return -EINVAL;
	ret = kb_part_create_shape(cmd, &s);
	if (ret)
		return ret == -E2BIG ? -E2BIG : -EINVAL;
	g->k = s.k;
	g->m = s.m;
	g->buckets = s.buckets;
	if (cmd->capacity) {
		g->capacity = cmd->capacity;
		g->fpr_pico = cmd->fpr_pico;
	}
	return 0;
}

static bool kb_part_test(const struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	u64 bit;
	u32 i;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++) {
		bit = kb_part_next(&p, i, f->g.buckets);
		if (!(atomic64_read(&f->words[bit >> 6]) & BIT_ULL(bit & 63)))
			return false;
	}
	return true;
}

static int kb_part_add(struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	atomic64_t *w;
	u64 bit;
	u32 i;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++) {
		bit = kb_part_next(&p, i, f->g.buckets);
		w = &f->words[bit >> 6];
		if (!(atomic64_read(w) & BIT_ULL(bit & 63)))
			atomic64_or(BIT_ULL(bit & 63), w);
	}
	return 0;
}

static u64 kb_part_fpr(const struct kb_filter *f, u64 n)
{
	return kb_part_fpr_pico(f->g.m, f->g.k, n);
}

const struct kb_type_ops kb_part_ops = {
	.create = kb_part_create,
	.test = kb_part_test,
	.add = kb_part_add,
	.fpr_pico = kb_part_fpr,
};
