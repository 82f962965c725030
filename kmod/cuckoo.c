// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko cuckoo filters (Fan et al., CoNEXT 2014) as a table of struct
 * kb_type_ops.  Positions, layout, planner and the kick path search are
 * uapi/kbloom_variants.h's; slots are packed f-bit fields of the
 * atomic64_t words.
 *
 * Writers (ADD, DEL) are serialised by f->wlock, taken with bottom halves
 * disabled: the kfunc readers run in softirq, and must never interrupt a
 * writer inside its window on the writer's own CPU.  A writer changes
 * slots only inside a window of f->wseq (odd inside); an insert that
 * relocates searches its whole path first (kb_cuckoo_search(), nothing
 * moves, at most KB_CUCKOO_MAX_KICKS entries examined), then moves the
 * entries from the end of the path back to its root
 * (kb_cuckoo_relocate()), so an entry is always in one of its buckets: a
 * reader may see one twice, never zero times.  A slot that straddles two
 * words is written as two atomic64_set() in the window.
 *
 * Readers (TEST, COUNT, the kfunc bpf_kbloom_test()) take no lock.  A
 * reader reads bucket i1, then i2: an entry moving from i2 to i1 between
 * the two reads would be missed, so a negative answer stands only when
 * f->wseq was even before the reads and unchanged after them; a positive
 * answer stands as soon as it is seen.  A reader retries at most
 * KB_CUCKOO_READ_TRIES times; a window lasts one path's moves (a few slot
 * writes, with bottom halves and preemption off), so the bound is reached
 * only under a continuous stream of relocating inserts.  A test that
 * reaches it answers "possibly present": a false positive, which a filter
 * may give, instead of a false negative, which it may not; a COUNT
 * answers its last read.  Readers thus never spin without bound, never
 * sleep and never take the lock (kfunc.c documents that kfuncs do not).
 */
#include <linux/seqlock.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "kbloom_int.h"
#include "uapi/kbloom_variants.h"

#define KB_CUCKOO_READ_TRIES	64

struct kb_ckey {
	u32 fp;
	u32 i1;
	u32 i2;
};

static void kb_ckey(const struct kb_filter *f, u64 h, struct kb_ckey *k)
{
	k->fp = kb_cuckoo_fp(h, f->g.fp_bits);
	k->i1 = kb_cuckoo_index(h, f->g.buckets);
	k->i2 = kb_cuckoo_alt(k->i1, k->fp, f->g.buckets);
}

static u32 kb_cslot_get(const void *arr, u32 b, u32 s)
{
	const struct kb_filter *f = arr;
	u32 fb = f->g.fp_bits, sh;
	u64 n = kb_cuckoo_slot(b, s, f->g.slots), w = kb_field_word(n, fb);
	u64 hi = 0;

	sh = kb_field_shift(n, fb);
	if (kb_field_spills(sh, fb))
		hi = atomic64_read(&f->words[w + 1]);
	return kb_field_get(atomic64_read(&f->words[w]), hi, sh, fb);
}

/* A writer's store (under f->wlock, inside the f->wseq window). */
static void kb_cslot_put(void *arr, u32 b, u32 s, u32 v)
{
	struct kb_filter *f = arr;
	u32 fb = f->g.fp_bits, sh;
	u64 n = kb_cuckoo_slot(b, s, f->g.slots), w = kb_field_word(n, fb);
	atomic64_t *lo = &f->words[w];

	sh = kb_field_shift(n, fb);
	atomic64_set(lo, kb_field_put_lo(atomic64_read(lo), sh, fb, v));
	if (kb_field_spills(sh, fb))
		atomic64_set(lo + 1, kb_field_put_hi(atomic64_read(lo + 1), sh,
						     fb, v));
}

/* A slot of the key's buckets holding @v, *@b its bucket; or -1. */
static int kb_clocate(const struct kb_filter *f, const struct kb_ckey *k,
		      u32 v, u32 *b)
{
	return kb_cuckoo_locate(f, kb_cslot_get, f->g.slots, k->i1, k->i2, v,
				b);
}

/* Copies of the key's fingerprint in its buckets. */
static u32 kb_ccopies(const struct kb_filter *f, const struct kb_ckey *k)
{
	return kb_cuckoo_copies(f, kb_cslot_get, f->g.slots, k->i1, k->i2,
				k->fp);
}

static bool kb_cuckoo_test(const struct kb_filter *f, u64 h)
{
	struct kb_ckey k;
	unsigned int seq, tries;
	u32 b;

	kb_ckey(f, h, &k);
	for (tries = 0; tries < KB_CUCKOO_READ_TRIES; tries++) {
		seq = raw_read_seqcount(&f->wseq);
		if (kb_clocate(f, &k, k.fp, &b) >= 0)
			return true;
		if (!(seq & 1) && !read_seqcount_retry(&f->wseq, seq))
			return false;
		cpu_relax();
	}
	return true;	/* writers kept moving entries: see above */
}

static u64 kb_cuckoo_count(const struct kb_filter *f, u64 h)
{
	struct kb_ckey k;
	unsigned int seq, tries;
	u32 n = 0;

	kb_ckey(f, h, &k);
	for (tries = 0; tries < KB_CUCKOO_READ_TRIES; tries++) {
		seq = raw_read_seqcount(&f->wseq);
		n = kb_ccopies(f, &k);
		if (!(seq & 1) && !read_seqcount_retry(&f->wseq, seq))
			break;
		cpu_relax();
	}
	return n;
}

/* The path search's nodes, allocated by the first insert (process). */
static struct kb_cuckoo_node *kb_cuckoo_scratch(struct kb_filter *f)
{
	struct kb_cuckoo_node *p = READ_ONCE(f->scratch);

	if (p)
		return p;
	p = kmalloc_array(KB_CUCKOO_SEARCH_NODES, sizeof(*p), KB_GFP);
	if (!p)
		return NULL;
	if (cmpxchg(&f->scratch, NULL, p))
		kfree(p);
	return READ_ONCE(f->scratch);
}

/* Store @fp after moving the path ending at node @n (under wlock). */
static void kb_cuckoo_store(struct kb_filter *f, u32 n, u32 eb, u32 es,
			    u32 fp)
{
	u32 moved;

	write_seqcount_begin(&f->wseq);
	moved = kb_cuckoo_relocate(f, kb_cslot_get, kb_cslot_put, f->scratch,
				   n, eb, es, fp);
	write_seqcount_end(&f->wseq);
	if (moved)
		atomic64_add(moved, &f->kicks);
}

static int kb_cuckoo_insert(struct kb_filter *f, const struct kb_ckey *k)
{
	u32 eb, es;
	int n;

	n = kb_clocate(f, k, 0, &eb);
	if (n >= 0) {
		kb_cuckoo_store(f, KB_CUCKOO_NO_PARENT, eb, n, k->fp);
		return 0;
	}
	n = kb_cuckoo_search(f, kb_cslot_get, f->g.slots, f->g.buckets, k->i1,
			     k->i2, f->scratch, &eb, &es);
	if (n < 0)
		return n;
	kb_cuckoo_store(f, n, eb, es, k->fp);
	return 0;
}

/* 0, or -ENOSPC without a path (nothing changed), or -ENOMEM. */
static int kb_cuckoo_add(struct kb_filter *f, u64 h)
{
	struct kb_ckey k;
	int ret;

	if (!kb_cuckoo_scratch(f))
		return -ENOMEM;
	kb_ckey(f, h, &k);
	mutex_lock(&f->wmutex);
	spin_lock_bh(&f->wlock);
	ret = kb_cuckoo_insert(f, &k);
	spin_unlock_bh(&f->wlock);
	mutex_unlock(&f->wmutex);
	return ret;
}

/*
 * Remove one copy of the fingerprint from one of the key's buckets.  As in
 * the paper, a key never added may share fingerprint and buckets with one
 * that was: deleting it removes that key's copy.
 */
static bool kb_cuckoo_del(struct kb_filter *f, u64 h)
{
	struct kb_ckey k;
	u32 b;
	int s;

	kb_ckey(f, h, &k);
	mutex_lock(&f->wmutex);
	spin_lock_bh(&f->wlock);
	s = kb_clocate(f, &k, k.fp, &b);
	if (s >= 0) {
		write_seqcount_begin(&f->wseq);
		kb_cslot_put(f, b, s, 0);
		write_seqcount_end(&f->wseq);
	}
	spin_unlock_bh(&f->wlock);
	mutex_unlock(&f->wmutex);
	return s >= 0;
}

/* Occupied slots. */
static u64 kb_cuckoo_ones(const struct kb_filter *f)
{
	u64 b, used = 0;
	u32 s;

	for (b = 0; b < f->g.buckets; b++) {
		for (s = 0; s < f->g.slots; s++)
			used += kb_cslot_get(f, b, s) != 0;
		if (!((b + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	return used;
}

/* The rate with @n fingerprints stored: 1 - (1 - 2^-f)^(2 n / B). */
static u64 kb_cuckoo_fpr_now(const struct kb_filter *f, u64 n)
{
	return kb_cuckoo_fpr_pico(f->g.fp_bits, f->g.buckets, n);
}

/* Each occupied slot is one key's copy. */
static void kb_cuckoo_stat(const struct kb_filter *f, struct kbloom_stat *st)
{
	st->n_est = st->ones;
}

/*
 * CREATE: planned from (capacity, fpr_pico) by kb_cuckoo_plan(), or
 * explicit (fp_bits, slots, buckets); m and k are derived (they must be
 * 0), the other types' fields must be 0.
 */
static int kb_cuckoo_create(const struct kbloom_create *cmd, struct kb_geom *g)
{
	struct kb_shape s = { .type = KBLOOM_TYPE_CUCKOO };
	bool planned = cmd->capacity || cmd->fpr_pico;
	int ret;

	if (cmd->m || cmd->k || cmd->counter_bits || cmd->tables ||
	    cmd->vi_l || cmd->update)
		return -EINVAL;
	if (planned) {
		if (cmd->fp_bits || cmd->slots || cmd->buckets)
			return -EINVAL;
		ret = kb_cuckoo_plan(cmd->capacity, cmd->fpr_pico, &s);
		g->capacity = cmd->capacity;
		g->fpr_pico = cmd->fpr_pico;
	} else {
		s.fp_bits = cmd->fp_bits;
		s.slots = cmd->slots;
		s.buckets = cmd->buckets;
		ret = kb_shape_derive(&s);
	}
	if (ret)
		return ret == -E2BIG ? -E2BIG : -EINVAL;
	g->k = s.k;
	g->m = s.m;
	g->fp_bits = s.fp_bits;
	g->slots = s.slots;
	g->buckets = s.buckets;
	return 0;
}

const struct kb_type_ops kb_cuckoo_ops = {
	.create = kb_cuckoo_create,
	.test = kb_cuckoo_test,
	.add = kb_cuckoo_add,
	.del = kb_cuckoo_del,
	.count = kb_cuckoo_count,
	.ones = kb_cuckoo_ones,
	.fpr_pico = kb_cuckoo_fpr_now,
	.stat = kb_cuckoo_stat,
};
