// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko's stable Bloom filter (KBLOOM_TYPE_STABLE; Deng and Rafiei,
 * SIGMOD 2006) as a table of struct kb_type_ops: m cells of d bits, k
 * probes, P decrements per insert.  Positions, the decrement window, the
 * shape and the stable point are uapi/kbloom_var_stable.h's, the ones
 * libkbloom and the XDP dedupe program use, so images move between them.
 *
 * Lock-free: readers (TEST, the kfunc bpf_kbloom_test()) load words with
 * atomic64_read(); ADD decrements the window's words by compare-and-
 * exchange (kb_stable_dec(): a cell at 0 stays 0), then sets the key's
 * cells to Max with atomic64_or() (Max is every bit of a cell).  Two
 * concurrent ADDs interleave as two inserts of the sequential filter do,
 * cell by cell.  The window's start is get_random_u32(), never the key.
 * DEL and COUNT are refused (EOPNOTSUPP): a cell may be shared and fades
 * by itself.  STAT's ones are the non-zero cells; its fpr_now is the
 * stable point's rate, which the filter approaches whatever n is.
 */
#include <linux/bitops.h>
#include <linux/random.h>
#include <linux/sched.h>

#include "kbloom_int.h"
#include "uapi/kbloom_var_stable.h"

/* Explicit (m, k, counter_bits = d, buckets = P), or P planned from fpr. */
static int kb_stable_create_shape(const struct kbloom_create *cmd,
				  struct kb_shape *s)
{
	u32 d = cmd->counter_bits ? cmd->counter_bits : 1;
	u64 p = cmd->buckets;
	int ret;

	if (cmd->m > KBLOOM_M_MAX)
		return -E2BIG;
	if (p > KB_STABLE_P_MAX || (!p && !cmd->fpr_pico) ||
	    (p && cmd->fpr_pico))
		return -EINVAL;
	ret = kb_stable_shape_init(s, cmd->m, cmd->k, d, p ? (u32)p : 1);
	if (ret || p)
		return ret;
	return kb_stable_plan(cmd->fpr_pico, s) ? -EINVAL : 0;
}

static int kb_stable_create(const struct kbloom_create *cmd,
			    struct kb_geom *g)
{
	struct kb_shape s;
	int ret;

	if (cmd->capacity || cmd->fp_bits || cmd->slots || cmd->tables ||
	    cmd->vi_l || cmd->update)
		return -EINVAL;
	ret = kb_stable_create_shape(cmd, &s);
	if (ret)
		return ret == -E2BIG ? -E2BIG : -EINVAL;
	g->k = s.k;
	g->m = s.m;
	g->counter_bits = s.counter_bits;
	g->buckets = s.buckets;
	g->fpr_pico = cmd->fpr_pico;
	return 0;
}

static bool kb_stable_test(const struct kb_filter *f, u64 h)
{
	u32 d = f->g.counter_bits, i;
	struct kb_probe p;
	u64 c;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++) {
		c = kb_probe_next(&p, f->g.m);
		if (!(atomic64_read(&f->words[kb_stable_word(c, d)]) &
		      kb_stable_mask(c, d)))
			return false;
	}
	return true;
}

/* The P cells of a window at a random start, one word at a time. */
static void kb_stable_decrement(struct kb_filter *f)
{
	u32 d = f->g.counter_bits, left = (u32)f->g.buckets, n;
	u64 c = kb_stable_start(get_random_u32(), f->g.m), lows;
	atomic64_t *w;
	s64 old;

	while (left) {
		n = kb_stable_run(c, left, d, &lows);
		w = &f->words[kb_stable_word(c, d)];
		old = atomic64_read(w);
		while (!atomic64_try_cmpxchg(w, &old,
					     kb_stable_dec(old, lows, d)))
			;
		c = kb_stable_next(c, n, f->g.m);
		left -= n;
	}
}

static int kb_stable_add(struct kb_filter *f, u64 h)
{
	u32 d = f->g.counter_bits, i;
	struct kb_probe p;
	u64 c, mask;
	atomic64_t *w;

	kb_stable_decrement(f);
	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++) {
		c = kb_probe_next(&p, f->g.m);
		w = &f->words[kb_stable_word(c, d)];
		mask = kb_stable_mask(c, d);
		if ((atomic64_read(w) & mask) != mask)
			atomic64_or(mask, w);
	}
	return 0;
}

/* Non-zero cells. */
static u64 kb_stable_ones(const struct kb_filter *f)
{
	u64 i, ones = 0;

	for (i = 0; i < f->nwords; i++) {
		ones += hweight64(kb_stable_nonzero(atomic64_read(&f->words[i]),
						    f->g.counter_bits));
		if (!((i + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	return ones;
}

static u64 kb_stable_fpr(const struct kb_filter *f, u64 n)
{
	struct kb_shape s;

	kb_geom_shape(&f->g, &s);
	return kb_stable_fps_pico(&s);
}

const struct kb_type_ops kb_stable_ops = {
	.create = kb_stable_create,
	.test = kb_stable_test,
	.add = kb_stable_add,
	.ones = kb_stable_ones,
	.fpr_pico = kb_stable_fpr,
};
