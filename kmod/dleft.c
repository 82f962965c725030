// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko's d-left counting filter (Bonomi et al., ESA 2006) as a table
 * of struct kb_type_ops.  The layout, the permuted prints and the rules
 * of insert, delete, test and count are uapi/kbloom_variants.h's, so the
 * cells are those of libkbloom_dleft and of the XDP tracker.
 *
 * Writers (add, del) hold f->wlock with bottom halves off.  An insert
 * must look at all d buckets for a cell holding its print before it claims
 * a free cell in the least loaded one; two lock-free inserts of one print
 * would claim two cells, and the module's answers (count, exact delete)
 * should be those of the library.  The lock is per filter, held for one
 * key (a few hundred nanoseconds); the cells are still changed with
 * compare-and-exchange, so a FLUSH racing with an add never corrupts a
 * neighbour cell.
 *
 * Readers (test, count: the ioctls and the kfuncs, from XDP) take no lock
 * and never miss a key whose add returned and that was not deleted: an
 * insert only fills a free cell (count 0, ignored by readers), writing
 * the word with the count last; increments and decrements change only the
 * count; a freed cell held only the deleted print.  A count split across
 * two words is the one update a reader could see torn (and read as 0): it
 * is written inside f->wseq, and readers of such a cell (only those) retry
 * while it moves.  Bottom halves are off in the writer, so an XDP reader
 * never spins on a writer it interrupted.
 */
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/sched.h>

#include "kbloom_int.h"

static void kb_dleft_shape(const struct kb_filter *f, struct kb_shape *s)
{
	kb_geom_shape(&f->g, s);
}

static u32 kb_dleft_q(const struct kb_filter *f)
{
	return kb_log2_exact(f->g.buckets) + f->g.fp_bits;
}

static u64 kb_dleft_read_two(const atomic64_t *w, u32 shift, u32 bits)
{
	u64 lo = atomic64_read_acquire(w);

	return kb_field_get(lo, atomic64_read(w + 1), shift, bits);
}

static u64 kb_dleft_get(const struct kb_filter *f, u64 n)
{
	u32 bits = f->g.fp_bits + f->g.counter_bits;
	u32 shift = kb_field_shift(n, bits);
	const atomic64_t *w = f->words + kb_field_word(n, bits);
	unsigned int seq;
	u64 v;

	if (!kb_field_spills(shift, bits))
		return kb_field_get(atomic64_read(w), 0, shift, bits);
	if (!kb_field_spills(shift, f->g.counter_bits))
		return kb_dleft_read_two(w, shift, bits);
	do {
		seq = read_seqcount_begin(&f->wseq);
		v = kb_dleft_read_two(w, shift, bits);
	} while (read_seqcount_retry(&f->wseq, seq));
	return v;
}

/* Set the bits @mask of word @w to @val's, by compare-and-exchange. */
static void kb_dleft_word_put(atomic64_t *w, u64 mask, u64 val)
{
	s64 old = atomic64_read(w);

	while (!atomic64_try_cmpxchg(w, &old, (old & ~mask) | (val & mask)))
		;
}

/* Set cell @n to @v; the caller holds f->wlock. */
static void kb_dleft_put(struct kb_filter *f, u64 n, u64 v)
{
	u32 bits = f->g.fp_bits + f->g.counter_bits;
	u32 shift = kb_field_shift(n, bits);
	atomic64_t *w = f->words + kb_field_word(n, bits);
	bool spans = kb_field_spills(shift, f->g.counter_bits);

	if (!kb_field_spills(shift, bits)) {
		kb_dleft_word_put(w, kb_field_mask(bits) << shift, v << shift);
		return;
	}
	if (spans)
		write_seqcount_begin(&f->wseq);
	kb_dleft_word_put(w + 1, kb_field_mask(bits - (64 - shift)),
			  v >> (64 - shift));
	kb_dleft_word_put(w, kb_field_mask(64 - shift) << shift, v << shift);
	if (spans)
		write_seqcount_end(&f->wseq);
}

/* The key's first cell in each bucket and its remainder there. */
struct kb_dleft_pos {
	u64 first[KB_DLEFT_TABLES_MAX];
	u64 rem[KB_DLEFT_TABLES_MAX];
	u32 load[KB_DLEFT_TABLES_MAX];
};

/* The first cell holding @h's print, or -1; fills @p. */
static s64 kb_dleft_find(const struct kb_filter *f, u64 h,
			 struct kb_dleft_pos *p)
{
	u32 j, i, cb = f->g.counter_bits, q = kb_dleft_q(f);
	struct kb_shape s;
	s64 found = -1;
	u64 c;

	kb_dleft_shape(f, &s);
	for (j = 0; j < s.tables; j++) {
		p->first[j] = kb_dleft_locate(h, j, q, &s, &p->rem[j]);
		p->load[j] = 0;
		for (i = 0; i < s.slots; i++) {
			c = kb_dleft_get(f, p->first[j] + i);
			if (found < 0 && kb_dleft_cell_holds(c, p->rem[j], cb))
				found = p->first[j] + i;
			p->load[j] += !!kb_dleft_cell_count(c, cb);
		}
	}
	return found;
}

/* Some cell holds the key's print: stops at the first one. */
static bool kb_dleft_test(const struct kb_filter *f, u64 h)
{
	u32 j, i, cb = f->g.counter_bits, q = kb_dleft_q(f);
	struct kb_shape s;
	u64 rem, first;

	kb_dleft_shape(f, &s);
	for (j = 0; j < s.tables; j++) {
		first = kb_dleft_locate(h, j, q, &s, &rem);
		for (i = 0; i < s.slots; i++)
			if (kb_dleft_cell_holds(kb_dleft_get(f, first + i),
						rem, cb))
				return true;
	}
	return false;
}

/* A free cell of the least loaded bucket (the lowest j on ties), or -1. */
static s64 kb_dleft_free(const struct kb_filter *f,
			 const struct kb_dleft_pos *p, u32 *jp)
{
	u32 j, best = 0, i;

	for (j = 1; j < f->g.tables; j++)
		if (p->load[j] < p->load[best])
			best = j;
	*jp = best;
	if (p->load[best] >= f->g.slots)
		return -1;
	for (i = 0; i < f->g.slots; i++)
		if (!kb_dleft_cell_count(kb_dleft_get(f, p->first[best] + i),
					 f->g.counter_bits))
			return p->first[best] + i;
	return -1;
}

/* Under f->wlock: 0, 1 saturated, -ENOSPC. */
static int kb_dleft_add_locked(struct kb_filter *f, u64 h)
{
	u32 cb = f->g.counter_bits, j;
	struct kb_dleft_pos p;
	s64 n = kb_dleft_find(f, h, &p);
	u64 c;

	if (n >= 0) {
		c = kb_dleft_get(f, n);
		if (kb_dleft_cell_count(c, cb) == kb_ctr_max(cb))
			return 1;
		kb_dleft_put(f, n, c + 1);
		return 0;
	}
	n = kb_dleft_free(f, &p, &j);
	if (n < 0)
		return -ENOSPC;
	kb_dleft_put(f, n, kb_dleft_cell_val(p.rem[j], 1, cb));
	return 0;
}

static int kb_dleft_add(struct kb_filter *f, u64 h)
{
	int ret;

	mutex_lock(&f->wmutex);
	spin_lock_bh(&f->wlock);
	ret = kb_dleft_add_locked(f, h);
	spin_unlock_bh(&f->wlock);
	mutex_unlock(&f->wmutex);
	return ret;
}

/* A saturated count stays: its copies are no longer known. */
static bool kb_dleft_del(struct kb_filter *f, u64 h)
{
	u32 cb = f->g.counter_bits;
	struct kb_dleft_pos p;
	s64 n;
	u64 c;

	mutex_lock(&f->wmutex);
	spin_lock_bh(&f->wlock);
	n = kb_dleft_find(f, h, &p);
	if (n >= 0) {
		c = kb_dleft_get(f, n);
		if (kb_dleft_cell_count(c, cb) != kb_ctr_max(cb))
			kb_dleft_put(f, n, kb_dleft_cell_count(c, cb) > 1 ?
					   c - 1 : 0);
	}
	spin_unlock_bh(&f->wlock);
	mutex_unlock(&f->wmutex);
	return n >= 0;
}

/* The sum of the counts of the cells holding the key's print. */
static u64 kb_dleft_count(const struct kb_filter *f, u64 h)
{
	u32 j, i, cb = f->g.counter_bits, q = kb_dleft_q(f);
	struct kb_shape s;
	u64 rem, first, c, sum = 0;

	kb_dleft_shape(f, &s);
	for (j = 0; j < s.tables; j++) {
		first = kb_dleft_locate(h, j, q, &s, &rem);
		for (i = 0; i < s.slots; i++) {
			c = kb_dleft_get(f, first + i);
			if (kb_dleft_cell_holds(c, rem, cb))
				sum += kb_dleft_cell_count(c, cb);
		}
	}
	return sum;
}

/* Occupied cells. */
static u64 kb_dleft_ones(const struct kb_filter *f)
{
	u64 n, used = 0;

	for (n = 0; n < f->g.m; n++) {
		used += !!kb_dleft_cell_count(kb_dleft_get(f, n),
					      f->g.counter_bits);
		if (!((n + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	return used;
}

/* A planned shape: (capacity, fpr_pico), optional d, c, w and layout. */
static int kb_dleft_planned(const struct kbloom_create *cmd,
			    struct kb_shape *s)
{
	if (cmd->m || cmd->k || cmd->fp_bits || cmd->buckets)
		return -EINVAL;
	s->tables = cmd->tables;
	s->slots = cmd->slots;
	s->counter_bits = cmd->counter_bits;
	s->update = cmd->update;
	return kb_dleft_plan(cmd->capacity, cmd->fpr_pico, s);
}

/* An explicit shape; k and m are derived (0 or equal to the derived). */
static int kb_dleft_explicit(const struct kbloom_create *cmd,
			     struct kb_shape *s)
{
	*s = (struct kb_shape){ .type = KBLOOM_TYPE_DLEFT,
				.counter_bits = cmd->counter_bits,
				.fp_bits = cmd->fp_bits, .slots = cmd->slots,
				.tables = cmd->tables, .update = cmd->update,
				.buckets = cmd->buckets };
	if (kb_shape_derive(s))
		return -EINVAL;
	if ((cmd->m && cmd->m != s->m) || (cmd->k && cmd->k != s->k))
		return -EINVAL;
	return 0;
}

static int kb_dleft_create(const struct kbloom_create *cmd, struct kb_geom *g)
{
	struct kb_shape s = { 0 };
	int ret;

	if (cmd->vi_l)
		return -EINVAL;
	if (cmd->capacity || cmd->fpr_pico)
		ret = kb_dleft_planned(cmd, &s);
	else
		ret = kb_dleft_explicit(cmd, &s);
	if (ret)
		return ret == -E2BIG ? -E2BIG : -EINVAL;
	g->k = s.k;
	g->m = s.m;
	g->counter_bits = s.counter_bits;
	g->fp_bits = s.fp_bits;
	g->slots = s.slots;
	g->tables = s.tables;
	g->update = s.update;
	g->buckets = s.buckets;
	g->capacity = cmd->capacity;
	g->fpr_pico = cmd->fpr_pico;
	return 0;
}

const struct kb_type_ops kb_dleft_ops = {
	.create = kb_dleft_create,
	.test = kb_dleft_test,
	.add = kb_dleft_add,
	.del = kb_dleft_del,
	.count = kb_dleft_count,
	.ones = kb_dleft_ones,
};
