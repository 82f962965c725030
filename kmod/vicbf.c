// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko's variable-increment counting filter (VI-CBF, Rottenstreich,
 * Kanizo, Keslassy, INFOCOM 2012) as a struct kb_type_ops table.  The
 * positions, increments, counter steps, match rule and planner are
 * uapi/kbloom_variants.h's; the array is the counting filter's.
 *
 * Lock-free like the counting filter: readers load words with
 * atomic64_read(), writers move a counter with a compare-and-exchange
 * loop on its word around kb_vi_ctr_add() and kb_vi_ctr_sub().  A
 * saturated counter never moves again, so a delete never creates a false
 * negative.
 */
#include <linux/sched.h>

#include "kbloom_int.h"
#include "uapi/kbloom_layout.h"
#include "uapi/kbloom_plan.h"
#include "uapi/kbloom_variants.h"

/* The shape of a CREATE command, with k and m not yet decided. */
static int kb_vi_create_shape(const struct kbloom_create *cmd,
			      struct kb_shape *s)
{
	if (cmd->fp_bits || cmd->slots || cmd->tables || cmd->update ||
	    cmd->buckets)
		return -EINVAL;
	kb_vi_shape_init(s, cmd->counter_bits, cmd->vi_l);
	return 0;
}

/* (m, k) planned from (capacity, fpr_pico), or explicit. */
static int kb_vi_create_mk(const struct kbloom_create *cmd,
			   struct kb_shape *s)
{
	bool planned = cmd->capacity || cmd->fpr_pico;
	struct kb_plan plan;
	int ret;

	if (planned == (cmd->m || cmd->k))
		return -EINVAL;
	if (!planned) {
		if (cmd->m > KBLOOM_M_MAX)
			return -E2BIG;
		s->m = cmd->m;
		s->k = cmd->k;
		return 0;
	}
	ret = kb_vi_plan(cmd->capacity, cmd->fpr_pico, s->vi_l,
			 s->counter_bits, &plan);
	if (ret)
		return ret == -E2BIG ? -E2BIG : -EINVAL;
	s->m = plan.m;
	s->k = plan.k;
	return 0;
}

static int kb_vi_create(const struct kbloom_create *cmd, struct kb_geom *g)
{
	struct kb_shape s;
	int ret;

	ret = kb_vi_create_shape(cmd, &s);
	if (ret)
		return ret;
	ret = kb_vi_create_mk(cmd, &s);
	if (ret)
		return ret;
	if (kb_shape_check(&s))
		return -EINVAL;
	g->k = s.k;
	g->m = s.m;
	g->counter_bits = s.counter_bits;
	g->vi_l = s.vi_l;
	if (cmd->capacity) {
		g->capacity = cmd->capacity;
		g->fpr_pico = cmd->fpr_pico;
	}
	return 0;
}

static u64 kb_vi_counter(const struct kb_filter *f, u32 j)
{
	u32 cb = f->g.counter_bits;

	return kb_ctr_get(atomic64_read(&f->words[kb_ctr_word(j, cb)]),
			  kb_ctr_shift(j, cb), cb);
}

static bool kb_vi_test(const struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	u32 i, j, v;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++) {
		j = kb_vi_next(&p, f->g.m, f->g.vi_l, &v);
		if (!kb_vi_match(kb_vi_counter(f, j), v, f->g.vi_l,
				 f->g.counter_bits))
			return false;
	}
	return true;
}

/*
 * Add (@add) or take away @v at counter @j.  Return: true when an add
 * left the counter saturated (its increment is lost to deletes).
 */
static bool kb_vi_update(struct kb_filter *f, u32 j, u32 v, bool add)
{
	u32 cb = f->g.counter_bits, shift = kb_ctr_shift(j, cb);
	atomic64_t *w = &f->words[kb_ctr_word(j, cb)];
	s64 old = atomic64_read(w);
	u64 new;

	do {
		new = add ? kb_vi_ctr_add(old, shift, cb, v) :
			    kb_vi_ctr_sub(old, shift, cb, v, f->g.vi_l);
		if (new == (u64)old)
			break;
	} while (!atomic64_try_cmpxchg(w, &old, new));
	return add && kb_ctr_get(new, shift, cb) == kb_ctr_max(cb);
}

/* Return: the increments that reached or found a saturated counter. */
static int kb_vi_add(struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	u32 i, j, v, lost = 0;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++) {
		j = kb_vi_next(&p, f->g.m, f->g.vi_l, &v);
		lost += kb_vi_update(f, j, v, true);
	}
	return lost;
}

/* Only a key that tests present: its increments leave its counters. */
static bool kb_vi_del(struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	u32 i, j, v;

	if (!kb_vi_test(f, h))
		return false;
	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++) {
		j = kb_vi_next(&p, f->g.m, f->g.vi_l, &v);
		kb_vi_update(f, j, v, false);
	}
	return true;
}

/*
 * The multiplicity estimate: 0 for an absent key, else the minimum over
 * the probes of floor(c / v).  A key added x times puts x v into each of
 * its counters, so while no counter saturated c >= x v and the estimate
 * never underestimates (Cohen and Matias' minimum selection, with the
 * increment as the unit).  A saturated counter reads as its maximum, as
 * in the counting filter: with 4-bit counters and v >= 4 the estimate is
 * at most 3.
 */
static u64 kb_vi_count(const struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	u32 i, j, v, c, min = U32_MAX;

	if (!kb_vi_test(f, h))
		return 0;
	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++) {
		j = kb_vi_next(&p, f->g.m, f->g.vi_l, &v);
		c = (u32)kb_vi_counter(f, j);
		min = min_t(u32, min, c / v);
	}
	return min;
}

/* Non-zero counters. */
static u64 kb_vi_ones(const struct kb_filter *f)
{
	u64 w, n = 0;

	for (w = 0; w < f->nwords; w++) {
		n += kb_ctr_nonzero(atomic64_read(&f->words[w]),
				    f->g.counter_bits);
		if (!((w + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	return n;
}

static u64 kb_vi_fpr(const struct kb_filter *f, u64 n)
{
	return kb_vi_fpr_pico(f->g.m, f->g.k, n, f->g.vi_l);
}

const struct kb_type_ops kb_vi_ops = {
	.create = kb_vi_create,
	.test = kb_vi_test,
	.add = kb_vi_add,
	.del = kb_vi_del,
	.count = kb_vi_count,
	.ones = kb_vi_ones,
	.fpr_pico = kb_vi_fpr,
};
