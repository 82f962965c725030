// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko's Count-Min sketch (spectral Bloom filter), KBLOOM_TYPE_COUNT_MIN:
 * d rows of w counters of 16 or 32 bits, row i's counter of a key at
 * kb_cm_counter(i, probe word i, w) (uapi/kbloom_variants.h), the same
 * positions and packing as libkbloom_sketch and the XDP sketch.
 *
 * CREATE takes the geometry explicitly (tables = d, buckets = w) or
 * fpr_pico = epsilon with tables = d (w = kb_cm_width(epsilon)); delta has
 * no field in the ABI: the library and kbloomctl plan d from it
 * (kb_cm_plan()).  capacity, m, k, fp_bits, slots and vi_l must be 0;
 * counter_bits 0 means 32, update 0 means KB_CM_ALL.
 *
 * No lock on any path; every counter moves by a compare-and-exchange on
 * its 64-bit word, and a counter at its maximum never moves again.
 *
 * KB_CM_ALL: ADD raises each row by one, DEL lowers each row by one (a key
 * whose estimate is 0 is definitely absent and skipped).
 *
 * KB_CM_MIN_INC (minimal increase, conservative update): an attempt reads
 * the key's d counters, mu = their minimum, and moves each counter that
 * read mu from mu to mu + 1 with a compare-and-exchange that expects mu;
 * when one of them no longer holds mu the attempt stops and starts again
 * from a new read (the counters it raised stay raised: an overestimate,
 * never an underestimate).  Race semantics: an estimate is never below the
 * number of adds of the key that returned.  Two attempts that complete
 * for the same key have different mu: if both read mu, each counter
 * raised by one was read above mu by the other, so each read one of the
 * other's counters after the other finished its reads, which cannot hold
 * for both.  So n completed adds have n distinct mu >= 0, the largest is at
 * least n - 1, and afterwards every counter of the key is at least n.
 * Alone, an attempt is exactly the library's sequential minimal increase,
 * so a sketch built here and one built by libkbloom from the same keys
 * have the same counters.  DEL is refused (EOPNOTSUPP).
 */
#include <linux/sched.h>

#include "kbloom_int.h"

static int kb_cm_create(const struct kbloom_create *cmd, struct kb_geom *g)
{
	struct kb_shape s = { .type = KBLOOM_TYPE_COUNT_MIN };

	if (cmd->capacity || cmd->m || cmd->k || cmd->fp_bits || cmd->slots ||
	    cmd->vi_l)
		return -EINVAL;
	if (cmd->fpr_pico && cmd->buckets)
		return -EINVAL;
	s.tables = cmd->tables;
	s.buckets = cmd->fpr_pico ? kb_cm_width(cmd->fpr_pico) : cmd->buckets;
	s.counter_bits = cmd->counter_bits ? cmd->counter_bits :
			 KB_CM_COUNTER_BITS_DEFAULT;
	s.update = cmd->update ? cmd->update : KB_CM_ALL;
	if (kb_shape_derive(&s))
		return kb_cm_too_big(&s) ? -E2BIG : -EINVAL;
	g->k = s.k;
	g->m = s.m;
	g->counter_bits = s.counter_bits;
	g->tables = s.tables;
	g->buckets = s.buckets;
	g->update = s.update;
	g->fpr_pico = cmd->fpr_pico;
	return 0;
}

/* The key's counter number in each row. */
static void kb_cm_pos(const struct kb_filter *f, u64 h,
		      u64 pos[KB_CM_ROWS_MAX])
{
	struct kb_probe p;
	u32 i;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.tables; i++) {
		pos[i] = kb_cm_counter(i, kb_probe_word(&p), f->g.buckets);
		p.g *= KB_PROBE_MUL;
	}
}

static atomic64_t *kb_cm_word(const struct kb_filter *f, u64 n)
{
	return &f->words[kb_field_word(n, f->g.counter_bits)];
}

static u64 kb_cm_read(const struct kb_filter *f, u64 n)
{
	return kb_cm_get(atomic64_read(kb_cm_word(f, n)), n,
			 f->g.counter_bits);
}

/* Minimum over the rows; fills @c with each row's counter. */
static u64 kb_cm_min(const struct kb_filter *f, const u64 *pos, u64 *c)
{
	u64 min = kb_field_mask(f->g.counter_bits);
	u32 i;

	for (i = 0; i < f->g.tables; i++) {
		c[i] = kb_cm_read(f, pos[i]);
		min = min_t(u64, min, c[i]);
	}
	return min;
}

/*
 * Move counter @n from @expect to @to, other counters of its word
 * untouched.  @expect ~0ULL: from whatever it holds, to @to = ~0ULL for
 * +1, @to = ~0ULL - 1 for -1 (a saturated or, for -1, zero counter stays).
 * Return: false when the counter did not hold @expect or did not move.
 */
#define KB_CM_ANY	(~0ULL)
#define KB_CM_INC	(~0ULL)
#define KB_CM_DEC	(~0ULL - 1)

static u64 kb_cm_next(u64 c, u64 expect, u64 to, u32 cb)
{
	u64 max = kb_field_mask(cb);

	if (expect != KB_CM_ANY)
		return c == expect ? to : c;
	if (c == max)
		return c;
	if (to == KB_CM_INC)
		return c + 1;
	return c ? c - 1 : c;
}

static bool kb_cm_move(struct kb_filter *f, u64 n, u64 expect, u64 to)
{
	u32 cb = f->g.counter_bits, shift = kb_field_shift(n, cb);
	atomic64_t *w = kb_cm_word(f, n);
	s64 old = atomic64_read(w);
	u64 c, v;

	do {
		c = kb_cm_get(old, n, cb);
		v = kb_cm_next(c, expect, to, cb);
		if (v == c)
			return false;
	} while (!atomic64_try_cmpxchg(w, &old,
				       kb_field_put_lo(old, shift, cb, v)));
	return true;
}

/* One minimal-increase attempt: false when a counter moved under it. */
static bool kb_cm_min_inc_try(struct kb_filter *f, const u64 *pos, int *lost)
{
	u64 c[KB_CM_ROWS_MAX], mu = kb_cm_min(f, pos, c);
	u32 i;

	if (mu == kb_field_mask(f->g.counter_bits)) {
		*lost = f->g.tables;
		return true;
	}
	for (i = 0; i < f->g.tables; i++)
		if (c[i] == mu && !kb_cm_move(f, pos[i], mu, mu + 1))
			return false;
	return true;
}

/* Return: rows lost to saturation. */
static int kb_cm_add(struct kb_filter *f, u64 h)
{
	u64 pos[KB_CM_ROWS_MAX];
	int lost = 0;
	u32 i;

	kb_cm_pos(f, h, pos);
	if (f->g.update == KB_CM_MIN_INC) {
		while (!kb_cm_min_inc_try(f, pos, &lost))
			cpu_relax();
		return lost;
	}
	for (i = 0; i < f->g.tables; i++)
		if (!kb_cm_move(f, pos[i], KB_CM_ANY, KB_CM_INC))
			lost++;
	return lost;
}

/* KB_CM_ALL only (kb_cm_can_del()): a key estimated at 0 is skipped. */
static bool kb_cm_del(struct kb_filter *f, u64 h)
{
	u64 pos[KB_CM_ROWS_MAX], c[KB_CM_ROWS_MAX];
	u32 i;

	kb_cm_pos(f, h, pos);
	if (!kb_cm_min(f, pos, c))
		return false;
	for (i = 0; i < f->g.tables; i++)
		kb_cm_move(f, pos[i], KB_CM_ANY, KB_CM_DEC);
	return true;
}

static bool kb_cm_can_del(const struct kb_geom *g)
{
	return g->update == KB_CM_ALL;
}

static u64 kb_cm_count(const struct kb_filter *f, u64 h)
{
	u64 pos[KB_CM_ROWS_MAX], c[KB_CM_ROWS_MAX];

	kb_cm_pos(f, h, pos);
	return kb_cm_min(f, pos, c);
}

/* Possibly present: a non-zero estimate (the kfunc path). */
static bool kb_cm_test(const struct kb_filter *f, u64 h)
{
	return kb_cm_count(f, h) != 0;
}

/* Non-zero counters. */
static u64 kb_cm_ones(const struct kb_filter *f)
{
	u64 n, ones = 0;

	for (n = 0; n < f->g.m; n++) {
		ones += !!kb_cm_read(f, n);
		if (!((n + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	return ones;
}

const struct kb_type_ops kb_cm_ops = {
	.create = kb_cm_create,
	.test = kb_cm_test,
	.add = kb_cm_add,
	.del = kb_cm_del,
	.can_del = kb_cm_can_del,
	.count = kb_cm_count,
	.ones = kb_cm_ones,
};
