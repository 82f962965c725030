// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko filter objects: allocation, the per-key operations and the
 * statistics.  Hash, positions and layouts come from uapi/ unchanged.
 *
 * The word array is atomic64_t: readers load words with atomic64_read()
 * (READ_ONCE), bit filters set bits with atomic64_or(), counting filters
 * move counters with a compare-and-exchange loop around kb_ctr_inc() and
 * kb_ctr_dec().  None of these take a lock or sleep.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/bitops.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "kbloom_int.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"
#include "uapi/kbloom_plan.h"

static struct kmem_cache *kb_filter_cache;
/* Bytes of word arrays allocated and not yet freed, for the exit check. */
static atomic64_t kb_live_bytes = ATOMIC64_INIT(0);

int kb_filter_cache_init(void)
{
	kb_filter_cache = KMEM_CACHE(kb_filter, SLAB_ACCOUNT);
	return kb_filter_cache ? 0 : -ENOMEM;
}

/* After every filter was unpublished: wait for the frees, then check. */
void kb_filter_cache_exit(void)
{
	rcu_barrier();
	WARN_ON_ONCE(atomic64_read(&kb_live_bytes));
	kmem_cache_destroy(kb_filter_cache);
}

/* Array bytes of a geometry: 0, or -E2BIG over max_filter_bytes. */
int kb_geom_bytes(const struct kb_geom *g, u64 *bytes)
{
	*bytes = kb_payload_len(g->type, g->m, g->counter_bits);
	return *bytes > kb_max_filter_bytes ? -E2BIG : 0;
}

struct kb_filter *kb_filter_alloc(const struct kb_geom *g, const char *name)
{
	struct kb_filter *f;

	f = kmem_cache_zalloc(kb_filter_cache, GFP_KERNEL_ACCOUNT);
	if (!f)
		return NULL;
	f->g = *g;
	f->nwords = kb_words(g->type, g->m, g->counter_bits);
	f->bytes = f->nwords * sizeof(u64);
	f->words = kvcalloc(f->nwords, sizeof(*f->words), KB_GFP);
	if (!f->words)
		goto err_filter;
	atomic64_add(f->bytes, &kb_live_bytes);
	refcount_set(&f->ref, 1);
	strscpy_pad(f->name, name, sizeof(f->name));
	return f;

err_filter:
	pr_warn_ratelimited("filter %.31s: cannot allocate %llu bytes\n",
			    name, f->bytes);
	kmem_cache_free(kb_filter_cache, f);
	return NULL;
}

static void kb_filter_free_rcu(struct rcu_head *rcu)
{
	struct kb_filter *f = container_of(rcu, struct kb_filter, rcu);

	atomic64_sub(f->bytes, &kb_live_bytes);
	kvfree(f->words);
	kmem_cache_free(kb_filter_cache, f);
}

/* Free @f after a grace period: a lookup may still see it. */
void kb_filter_free(struct kb_filter *f)
{
	call_rcu(&f->rcu, kb_filter_free_rcu);
}

static u64 kb_key_hash(const struct kb_filter *f, const u8 *key, u32 len)
{
	return kb_hash(f->g.hash_id, f->g.seed, key, len);
}

/* The block of @h and its in-block mask. */
static atomic64_t *kb_block(const struct kb_filter *f, u64 h,
			    u64 mask[KBLOOM_BLOCK_WORDS])
{
	u64 nblocks = f->g.m / KBLOOM_BLOCK_BITS;

	kb_block_mask(h, f->g.k, mask);
	return f->words + (u64)kb_block_index(h, nblocks) * KBLOOM_BLOCK_WORDS;
}

static bool kb_blocked_test(const struct kb_filter *f, u64 h)
{
	u64 mask[KBLOOM_BLOCK_WORDS];
	atomic64_t *blk = kb_block(f, h, mask);
	unsigned int i;

	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		if ((atomic64_read(&blk[i]) & mask[i]) != mask[i])
			return false;
	return true;
}

static void kb_blocked_add(struct kb_filter *f, u64 h)
{
	u64 mask[KBLOOM_BLOCK_WORDS];
	atomic64_t *blk = kb_block(f, h, mask);
	unsigned int i;

	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		if ((atomic64_read(&blk[i]) & mask[i]) != mask[i])
			atomic64_or(mask[i], &blk[i]);
}

static bool kb_standard_test(const struct kb_filter *f, u64 h)
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

static void kb_standard_add(struct kb_filter *f, u64 h)
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
}

static bool kb_counting_test(const struct kb_filter *f, u64 h)
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
static u32 kb_counting_add(struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	u32 i, lost = 0;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++)
		if (!kb_ctr_update(f, kb_probe_next(&p, f->g.m), kb_ctr_inc))
			lost++;
	return lost;
}

static void kb_counting_del(struct kb_filter *f, u64 h)
{
	struct kb_probe p;
	u32 i;

	kb_probe_init(&p, h);
	for (i = 0; i < f->g.k; i++)
		kb_ctr_update(f, kb_probe_next(&p, f->g.m), kb_ctr_dec);
}

/*
 * Every type has its own case: a filter of a type without one cannot be
 * created or restored (kb_create_type(), kb_restore_precheck()), and the
 * kfunc path, which reaches this too, must never read a later type's
 * array as a bit array.
 */
bool kb_filter_test(const struct kb_filter *f, const u8 *key, u32 len)
{
	u64 h = kb_key_hash(f, key, len);

	switch (f->g.type) {
	case KBLOOM_TYPE_STANDARD:
		return kb_standard_test(f, h);
	case KBLOOM_TYPE_BLOCKED:
		return kb_blocked_test(f, h);
	case KBLOOM_TYPE_COUNTING:
		return kb_counting_test(f, h);
	default:
		WARN_ON_ONCE(1);
		return false;
	}
}

/* Add one key.  Return: the counter increments lost to saturation. */
u32 kb_filter_add(struct kb_filter *f, const u8 *key, u32 len)
{
	u64 h = kb_key_hash(f, key, len);

	switch (f->g.type) {
	case KBLOOM_TYPE_STANDARD:
		kb_standard_add(f, h);
		return 0;
	case KBLOOM_TYPE_BLOCKED:
		kb_blocked_add(f, h);
		return 0;
	case KBLOOM_TYPE_COUNTING:
		return kb_counting_add(f, h);
	default:
		WARN_ON_ONCE(1);
		return 0;
	}
}

/*
 * The multiplicity estimate of a key in a counting filter: the minimum of
 * its k counters (Cohen and Matias' minimum selection).  It never
 * underestimates while no counter saturated; a saturated minimum reads as
 * the counter maximum.
 */
u64 kb_filter_count(const struct kb_filter *f, const u8 *key, u32 len)
{
	u32 cb = f->g.counter_bits, i, j;
	u64 h = kb_key_hash(f, key, len);
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

/*
 * Delete one key from a counting filter.  A key with a zero counter is
 * definitely absent: it is skipped (decrementing its other counters would
 * create false negatives).  Return: true when deleted.
 */
bool kb_filter_del(struct kb_filter *f, const u8 *key, u32 len)
{
	u64 h = kb_key_hash(f, key, len);

	if (!kb_counting_test(f, h))
		return false;
	kb_counting_del(f, h);
	return true;
}

void kb_filter_flush(struct kb_filter *f)
{
	u64 i;

	for (i = 0; i < f->nwords; i++) {
		atomic64_set(&f->words[i], 0);
		if (!((i + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	atomic64_set(&f->inserted, 0);
	atomic64_set(&f->saturations, 0);
}

static u32 kb_word_ones(const struct kb_filter *f, u64 word)
{
	u32 cb = f->g.counter_bits, n = 0, i;

	if (f->g.type != KBLOOM_TYPE_COUNTING)
		return hweight64(word);
	for (i = 0; i < kb_ctr_per_word(cb) && word; i++)
		if (kb_ctr_get(word, i * cb, cb))
			n++;
	return n;
}

/* One bits, or non-zero counters. */
static u64 kb_filter_ones(const struct kb_filter *f)
{
	u64 i, ones = 0, word;

	for (i = 0; i < f->nwords; i++) {
		word = atomic64_read(&f->words[i]);
		if (word)
			ones += kb_word_ones(f, word);
		if (!((i + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	return ones;
}

/* The net number of keys added (deletes may race ahead of adds). */
u64 kb_filter_inserted(const struct kb_filter *f)
{
	s64 n = atomic64_read(&f->inserted);

	return n > 0 ? n : 0;
}

/* The classic types' statistics; the geometry fields stay 0. */
void kb_filter_stat(const struct kb_filter *f, struct kbloom_stat *st)
{
	const struct kb_geom *g = &f->g;

	st->type = g->type;
	st->hash_id = g->hash_id;
	st->k = g->k;
	st->counter_bits = g->counter_bits;
	st->m = g->m;
	st->seed = g->seed;
	st->capacity = g->capacity;
	st->fpr_pico = g->fpr_pico;
	st->bytes = f->bytes;
	st->inserted = kb_filter_inserted(f);
	st->ones = kb_filter_ones(f);
	st->occupancy_ppm = div64_u64(st->ones * 1000000, g->m);
	st->n_est = kb_n_est(g->m, g->k, st->ones);
	st->saturations = atomic64_read(&f->saturations);
	st->fpr_now_pico = kb_plan_fpr_pico(g->type, g->m, g->k, st->inserted);
	st->id = f->id;
}
