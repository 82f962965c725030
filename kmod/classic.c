// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko's classic types, standard, blocked and counting filters, as
 * tables of struct kb_type_ops.  Hash, positions and layouts come from
 * uapi/ unchanged.
 *
 * The word array is atomic64_t: readers load words with atomic64_read()
 * (READ_ONCE), bit filters set bits with atomic64_or(), counting filters
 * move counters with a compare-and-exchange loop around kb_ctr_inc() and
 * kb_ctr_dec().  None of these take a lock or sleep.
 */
#include <linux/bitops.h>
#include <linux/sched.h>

#include "kbloom_int.h"
#include "uapi/kbloom_layout.h"
#include "uapi/kbloom_plan.h"

static int kb_create_counter_bits(u32 type, u32 in, u32 *out)
{
	if (type != KBLOOM_TYPE_COUNTING) {
		*out = 0;
		return in ? -EINVAL : 0;
	}
	*out = in ? in : KBLOOM_COUNTER_BITS_DEFAULT;
	if (*out != KBLOOM_COUNTER_BITS_DEFAULT &&
	    *out != KBLOOM_COUNTER_BITS_WIDE)
		return -EINVAL;
	return 0;
}

/* (m, k) from (capacity, fpr_pico) through the shared planner. */
static int kb_geom_planned(const struct kbloom_create *cmd, struct kb_geom *g)
{
	struct kb_plan plan;
	int ret;

	ret = kb_plan(g->type, cmd->capacity, cmd->fpr_pico, g->counter_bits,
		      &plan);
	if (ret)
		return ret == -E2BIG ? -E2BIG : -EINVAL;
	g->m = plan.m;
	g->k = plan.k;
	g->capacity = cmd->capacity;
	g->fpr_pico = cmd->fpr_pico;
	return 0;
}

/* kb_plan_check(): -EINVAL, or -E2BIG for m over KBLOOM_M_MAX. */
static int kb_geom_explicit(const struct kbloom_create *cmd, struct kb_geom *g)
{
	int ret = kb_plan_check(g->type, cmd->m, cmd->k, g->counter_bits);

	if (ret)
		return ret == -E2BIG ? -E2BIG : -EINVAL;
	g->m = cmd->m;
	g->k = cmd->k;
	return 0;
}

/* The block of @h and its in-block mask. */
static atomic64_t *kb_block(const struct kb_filter *f, u64 h,
			    u64 mask[KBLOOM_BLOCK_WORDS])
{
	u64 nblocks = f->g.m / KBLOOM_BLOCK_BITS;

	kb_block_mask(h, f->g.k, mask);
	return f->words + (u64)kb_block_index(h, nblocks) * KBLOOM_BLOCK_WORDS;
}

bool kb_blocked_test(const struct kb_filter *f, u64 h)
{
	u64 mask[KBLOOM_BLOCK_WORDS];
	atomic64_t *blk = kb_block(f, h, mask);
	unsigned int i;

	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		if ((atomic64_read(&blk[i]) & mask[i]) != mask[i])
			return false;
	return true;
}

static int kb_blocked_add(struct kb_filter *f, u64 h)
{
	u64 mask[KBLOOM_BLOCK_WORDS];
	atomic64_t *blk = kb_block(f, h, mask);
	unsigned int i;

	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		if ((atomic64_read(&blk[i]) & mask[i]) != mask[i])
			atomic64_or(mask[i], &blk[i]);
	return 0;
}

bool kb_standard_test(const struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	u32 i, j;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++) {
		j = kb_probe_next(&p, f->g.m);
		if (!(atomic64_read(&f->words[j >> 6]) & BIT_ULL(j & 63)))
			return false;
	}
	return true;
}

static int kb_standard_add(struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	atomic64_t *w;
	u32 i, j;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++) {
		j = kb_probe_next(&p, f->g.m);
		w = &f->words[j >> 6];
		if (!(atomic64_read(w) & BIT_ULL(j & 63)))
			atomic64_or(BIT_ULL(j & 63), w);
	}
	return 0;
}

bool kb_counting_test(const struct kb_filter *f, u64 h)
{
	u32 cb = f->g.counter_bits;
	struct kb_probe p;
	u64 word;
	u32 i, j;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++) {
		j = kb_probe_next(&p, f->g.m);
		word = atomic64_read(&f->words[kb_ctr_word(j, cb)]);
		if (!kb_ctr_get(word, kb_ctr_shift(j, cb), cb))
			return false;
	}
	return true;
}

/*
 * Apply @step (kb_ctr_inc or kb_ctr_dec) to counter @j.  Return: false
 * when the counter did not move (saturated, or zero for a decrement).
 */
static bool kb_ctr_update(struct kb_filter *f, u32 j,
			  u64 (*step)(u64 word, u32 shift, u32 counter_bits))
{
	u32 cb = f->g.counter_bits, shift = kb_ctr_shift(j, cb);
	atomic64_t *w = &f->words[kb_ctr_word(j, cb)];
	s64 old = atomic64_read(w);
	u64 new;

	do {
		new = step(old, shift, cb);
		if (new == (u64)old)
			return false;
	} while (!atomic64_try_cmpxchg(w, &old, new));
	return true;
}

/* Return: the increments lost to saturation. */
static int kb_counting_add(struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	u32 i, lost = 0;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++)
		if (!kb_ctr_update(f, kb_probe_next(&p, f->g.m), kb_ctr_inc))
			lost++;
	return lost;
}

/*
 * A key with a zero counter is definitely absent: it is skipped
 * (decrementing its other counters would create false negatives).
 */
static bool kb_counting_del(struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	u32 i;

	if (!kb_counting_test(f, h))
		return false;
	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++)
		kb_ctr_update(f, kb_probe_next(&p, f->g.m), kb_ctr_dec);
	return true;
}

/*
 * The multiplicity estimate of a key: the minimum of its k counters
 * (Cohen and Matias' minimum selection).  It never underestimates while no
 * counter saturated; a saturated minimum reads as the counter maximum.
 */
static u64 kb_counting_count(const struct kb_filter *f, u64 h)
{
	u32 cb = f->g.counter_bits, i, j;
	u64 c, min = kb_ctr_max(cb);
	struct kb_probe p;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k && min; i++) {
		j = kb_probe_next(&p, f->g.m);
		c = kb_ctr_get(atomic64_read(&f->words[kb_ctr_word(j, cb)]),
			       kb_ctr_shift(j, cb), cb);
		min = min_t(u64, min, c);
	}
	return min;
}

/* Non-zero counters. */
static u64 kb_counting_ones(const struct kb_filter *f)
{
	u32 cb = f->g.counter_bits, i;
	u64 w, n = 0, word;

	for (w = 0; w < f->nwords; w++) {
		word = atomic64_read(&f->words[w]);
		for (i = 0; i < kb_ctr_per_word(cb) && word; i++)
			if (kb_ctr_get(word, i * cb, cb))
				n++;
		if (!((w + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	return n;
}

/*
 * Every type has its own case: a filter of a type without one cannot be
 * created or restored (kb_create_type(), kb_restore_precheck()), and the
 * kfunc path, which reaches this too, must never read a later type's
 * array as a bit array.
 */
/* CREATE of a classic type: no geometry field of the survey variants. */
static int kb_classic_create(const struct kbloom_create *cmd,
			     struct kb_geom *g)
{
	bool planned = cmd->capacity || cmd->fpr_pico;
	int ret;

	if (cmd->fp_bits || cmd->slots || cmd->tables || cmd->vi_l ||
	    cmd->update || cmd->buckets)
		return -EINVAL;
	ret = kb_create_counter_bits(cmd->type, cmd->counter_bits,
				     &g->counter_bits);
	if (ret)
		return ret;
	if (planned == (cmd->m || cmd->k))
		return -EINVAL;
	return planned ? kb_geom_planned(cmd, g) : kb_geom_explicit(cmd, g);
}

const struct kb_type_ops kb_standard_ops = {
	.create = kb_classic_create,
	.test = kb_standard_test,
	.add = kb_standard_add,
};

const struct kb_type_ops kb_blocked_ops = {
	.create = kb_classic_create,
	.test = kb_blocked_test,
	.add = kb_blocked_add,
};

const struct kb_type_ops kb_counting_ops = {
	.create = kb_classic_create,
	.test = kb_counting_test,
	.add = kb_counting_add,
	.del = kb_counting_del,
	.count = kb_counting_count,
	.ones = kb_counting_ones,
};
