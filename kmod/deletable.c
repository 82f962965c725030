// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko's deletable Bloom filter (KBLOOM_TYPE_DELETABLE; Rothenberg
 * et al. 2010) as a table of struct kb_type_ops: a standard filter of m
 * bits in regions of s bits, and a collision bitmap of m / s bits after
 * it.  Positions, layout and planner are uapi/kbloom_var_deletable.h's,
 * the ones libkbloom and the XDP port filters use, so images move between
 * them.
 *
 * Readers (TEST, the kfunc bpf_kbloom_test()) take no lock: they load
 * body words with atomic64_read().  ADD sets a bit with
 * atomic64_fetch_or() and, when the bit was set before, the region's
 * collision bit: two adds racing on one bit both see it, one of them as
 * set.  DEL (ops->remove) clears the key's bits in collision-free
 * regions; an add into such a region between the check and the clear
 * would lose its bit, so ADD and DEL are serialised by f->wmutex (FLUSH
 * takes it too).  A key whose bits all lie in collided regions is refused
 * with ENOTUNIQ and nothing changes; refusals are counted in f->kicks
 * (STAT @kicks), zeroed by FLUSH, not saved in images.
 */
#include <linux/bitops.h>
#include <linux/sched.h>

#include "kbloom_int.h"

/* Planned from (capacity, fpr_pico), or explicit (m, k); @buckets = s. */
static int kb_del_create(const struct kbloom_create *cmd, struct kb_geom *g)
{
	struct kb_shape s;
	int ret;

	if (cmd->counter_bits || cmd->fp_bits || cmd->slots || cmd->tables ||
	    cmd->vi_l || cmd->update)
		return -EINVAL;
	if (cmd->capacity || cmd->fpr_pico) {
		if (cmd->k || cmd->m)
			return -EINVAL;
		ret = kb_del_plan(cmd->capacity, cmd->fpr_pico, cmd->buckets,
				  &s);
	} else {
		if (cmd->m > KBLOOM_M_MAX)
			return -E2BIG;
		ret = kb_del_shape_init(&s, cmd->k, cmd->m,
					cmd->buckets ? cmd->buckets :
						       KB_DEL_REGION_DEFAULT);
	}
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

static bool kb_del_bit_set(const struct kb_filter *f, u64 bit)
{
	return atomic64_read(&f->words[bit >> 6]) & BIT_ULL(bit & 63);
}

static bool kb_del_test(const struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	u32 i;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++)
		if (!kb_del_bit_set(f, kb_probe_next(&p, f->g.m)))
			return false;
	return true;
}

/* The word of @bit's collision bit, and its mask in *@mask. */
static atomic64_t *kb_del_cbit(const struct kb_filter *f, u64 bit, u64 *mask)
{
	u32 j = kb_del_region(bit, kb_del_shift(f->g.buckets));

	*mask = BIT_ULL(j & 63);
	return &f->words[kb_del_cword(f->g.m, j)];
}

static bool kb_del_free(const struct kb_filter *f, u64 bit)
{
	u64 mask;

	return !(atomic64_read(kb_del_cbit(f, bit, &mask)) & mask);
}

static int kb_del_add(struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	atomic64_t *cw;
	u64 bit, mask;
	u32 i;

	mutex_lock(&f->wmutex);
	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++) {
		bit = kb_probe_next(&p, f->g.m);
		mask = BIT_ULL(bit & 63);
		if (!(atomic64_fetch_or(mask, &f->words[bit >> 6]) & mask))
			continue;
		cw = kb_del_cbit(f, bit, &mask);
		if (!(atomic64_read(cw) & mask))
			atomic64_or(mask, cw);
	}
	mutex_unlock(&f->wmutex);
	return 0;
}

/* Bits of the key in collision-free regions (under f->wmutex). */
static u32 kb_del_free_bits(const struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	u32 i, n = 0;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++)
		n += kb_del_free(f, kb_probe_next(&p, f->g.m));
	return n;
}

static void kb_del_clear_free(struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	u64 bit;
	u32 i;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++) {
		bit = kb_probe_next(&p, f->g.m);
		if (kb_del_free(f, bit))
			atomic64_andnot(BIT_ULL(bit & 63), &f->words[bit >> 6]);
	}
}

/* DEL of one key.  Return: 1 deleted, 0 absent, -ENOTUNIQ refused. */
static int kb_del_remove(struct kb_filter *f, u64 h)
{
	int ret = 1;

	mutex_lock(&f->wmutex);
	if (!kb_del_test(f, h)) {
		ret = 0;
	} else if (!kb_del_free_bits(f, h)) {
		atomic64_inc(&f->kicks);
		ret = -ENOTUNIQ;
	} else {
		kb_del_clear_free(f, h);
	}
	mutex_unlock(&f->wmutex);
	return ret;
}

/* One bits of the body (the collision bitmap is not counted). */
static u64 kb_del_ones(const struct kb_filter *f)
{
	u64 i, ones = 0, words = f->g.m / 64;

	for (i = 0; i < words; i++) {
		ones += hweight64(atomic64_read(&f->words[i]));
		if (!((i + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	return ones;
}

static u64 kb_del_fpr(const struct kb_filter *f, u64 n)
{
	return kb_del_fpr_pico(f->g.m, f->g.k, n);
}

/* The refusals in f->kicks are STAT's, not the image's (no kicks there). */
static void kb_del_save_tail(const struct kb_filter *f,
			     struct kbloom_image_geom *t)
{
	t->kicks = 0;
}

const struct kb_type_ops kb_del_ops = {
	.create = kb_del_create,
	.test = kb_del_test,
	.add = kb_del_add,
	.remove = kb_del_remove,
	.ones = kb_del_ones,
	.fpr_pico = kb_del_fpr,
	.save_tail = kb_del_save_tail,
};
