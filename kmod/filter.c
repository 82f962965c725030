// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko filter objects: allocation, the dispatch of the per-key
 * operations to the filter's type (struct kb_type_ops) and the statistics.
 * The word array is atomic64_t, read with atomic64_read() (READ_ONCE).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/bitops.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/nospec.h>
#include <linux/indirect_call_wrapper.h>

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

void kb_geom_shape(const struct kb_geom *g, struct kb_shape *s)
{
	s->type = g->type;
	s->k = g->k;
	s->m = g->m;
	s->counter_bits = g->counter_bits;
	s->fp_bits = g->fp_bits;
	s->slots = g->slots;
	s->tables = g->tables;
	s->vi_l = g->vi_l;
	s->update = g->update;
	s->buckets = g->buckets;
}

/* 64-bit words of a geometry's array. */
u64 kb_geom_words(const struct kb_geom *g)
{
	struct kb_shape s;

	if (kb_type_classic(g->type))
		return kb_words(g->type, g->m, g->counter_bits);
	kb_geom_shape(g, &s);
	return kb_shape_words(&s);
}

/* Array bytes of a geometry: 0, or -E2BIG over max_filter_bytes. */
int kb_geom_bytes(const struct kb_geom *g, u64 *bytes)
{
	*bytes = kb_geom_words(g) * 8;
	return *bytes > kb_max_filter_bytes ? -E2BIG : 0;
}

struct kb_filter *kb_filter_alloc(const struct kb_geom *g, const char *name)
{
	struct kb_filter *f;

	f = kmem_cache_zalloc(kb_filter_cache, KB_GFP);
	if (!f)
		return NULL;
	f->g = *g;
	f->ops = kb_type_ops(g->type);
	f->nwords = kb_geom_words(g);
	f->bytes = f->nwords * sizeof(u64);
	f->words = kvcalloc(f->nwords, sizeof(*f->words), KB_GFP);
	if (!f->words)
		goto err_filter;
	if (f->ops->init && f->ops->init(f))
		goto err_words;
	atomic64_add(f->bytes, &kb_live_bytes);
	refcount_set(&f->ref, 1);
	mutex_init(&f->wmutex);
	spin_lock_init(&f->wlock);
	seqcount_spinlock_init(&f->wseq, &f->wlock);
	strscpy_pad(f->name, name, sizeof(f->name));
	return f;

err_words:
	kvfree(f->words);
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
	if (f->ops->release)
		f->ops->release(f);
	kvfree(f->words);
	kfree(f->scratch);
	kmem_cache_free(kb_filter_cache, f);
}

/* Free @f after a grace period: a lookup may still see it. */
void kb_filter_free(struct kb_filter *f)
{
	call_rcu(&f->rcu, kb_filter_free_rcu);
}

/* @f was published: its type's timers start. */
void kb_filter_arm(struct kb_filter *f)
{
	if (f->ops->arm)
		f->ops->arm(f);
}

/* @f was unpublished: its type's timers stop before its last put. */
void kb_filter_disarm(struct kb_filter *f)
{
	if (f->ops->disarm)
		f->ops->disarm(f);
}

static u64 kb_key_hash(const struct kb_filter *f, const u8 *key, u32 len)
{
	return kb_hash(f->g.hash_id, f->g.seed, key, len);
}

/*
 * Every type has its own table; a type without one cannot be created or
 * restored, and the kfunc path, which reaches kb_filter_test() too, never
 * reads a later type's array as a bit array.
 */
static const struct kb_type_ops *const kb_types[KBLOOM_TYPE_LAST + 1] = {
	[KBLOOM_TYPE_STANDARD] = &kb_standard_ops,
	[KBLOOM_TYPE_BLOCKED] = &kb_blocked_ops,
	[KBLOOM_TYPE_COUNTING] = &kb_counting_ops,
	[KBLOOM_TYPE_CUCKOO] = &kb_cuckoo_ops,
	[KBLOOM_TYPE_VI_COUNTING] = &kb_vi_ops,
	[KBLOOM_TYPE_DLEFT] = &kb_dleft_ops,
	[KBLOOM_TYPE_COUNT_MIN] = &kb_cm_ops,
	[KBLOOM_TYPE_PARTITIONED] = &kb_part_ops,
	[KBLOOM_TYPE_SCALABLE] = &kb_sbf_ops,
	[KBLOOM_TYPE_DYNAMIC] = &kb_sbf_ops,
	[KBLOOM_TYPE_STABLE] = &kb_stable_ops,
	[KBLOOM_TYPE_AGE_PARTITIONED] = &kb_win_ops,
	[KBLOOM_TYPE_DELETABLE] = &kb_del_ops,
};

/* The operations of @type, or NULL when this module does not hold it. */
const struct kb_type_ops *kb_type_ops(u32 type)
{
	if (!kb_type_known(type))
		return NULL;
	return kb_types[array_index_nospec(type, KBLOOM_TYPE_LAST + 1)];
}

/*
 * Also the kfunc's lookup, once per packet: the classic types' tests are
 * called directly (INDIRECT_CALL_3 compares the pointer first), since an
 * indirect call costs a retpoline where the kernel uses them.
 */
bool kb_filter_test(const struct kb_filter *f, const u8 *key, u32 len)
{
	return INDIRECT_CALL_3(f->ops->test, kb_blocked_test,
			       kb_standard_test, kb_counting_test, f,
			       kb_key_hash(f, key, len));
}

/*
 * Add one key.  Return: the counter increments lost to saturation, or
 * -ENOSPC when the type has no room for it (nothing changed).
 */
int kb_filter_add(struct kb_filter *f, const u8 *key, u32 len)
{
	return f->ops->add(f, kb_key_hash(f, key, len));
}

/*
 * Delete one key (the type has ops->del).  A definitely absent key is
 * skipped.  Return: true when deleted.
 */
bool kb_filter_del(struct kb_filter *f, const u8 *key, u32 len)
{
	return f->ops->del(f, kb_key_hash(f, key, len));
}

/*
 * Delete one key of a type with ops->remove.  Return: 1 deleted, 0
 * definitely absent (skipped), or the type's errno (refused).
 */
int kb_filter_remove(struct kb_filter *f, const u8 *key, u32 len)
{
	return f->ops->remove(f, kb_key_hash(f, key, len));
}

/* The multiplicity estimate of a key (the type has ops->count). */
u64 kb_filter_count(const struct kb_filter *f, const u8 *key, u32 len)
{
	return f->ops->count(f, kb_key_hash(f, key, len));
}

/*
 * Zero the array and the counts.  Under f->wmutex, which the writers of
 * the relocating types (cuckoo, d-left) take: a flush and an add of them
 * are ordered, one before the other.  The classic types' writers take no
 * lock: an add racing a flush may leave some of its bits, never a bit of
 * a key added before the flush began.
 */
void kb_filter_flush(struct kb_filter *f)
{
	u64 i;

	mutex_lock(&f->wmutex);
	for (i = 0; i < f->nwords; i++) {
		atomic64_set(&f->words[i], 0);
		if (!((i + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	atomic64_set(&f->inserted, 0);
	atomic64_set(&f->saturations, 0);
	atomic64_set(&f->kicks, 0);
	atomic64_set(&f->overflows, 0);
	if (f->ops->flush)
		f->ops->flush(f);
	mutex_unlock(&f->wmutex);
}

/* One bits, or the type's occupied cells. */
static u64 kb_filter_ones(const struct kb_filter *f)
{
	u64 i, ones = 0, word;

	if (f->ops->ones)
		return f->ops->ones(f);
	for (i = 0; i < f->nwords; i++) {
		word = atomic64_read(&f->words[i]);
		if (word)
			ones += hweight64(word);
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

void kb_filter_stat(const struct kb_filter *f, struct kbloom_stat *st)
{
	const struct kb_geom *g = &f->g;

	st->fp_bits = g->fp_bits;
	st->slots = g->slots;
	st->tables = g->tables;
	st->vi_l = g->vi_l;
	st->update = g->update;
	st->buckets = g->buckets;
	st->image_flags = kb_type_may_fn(g->type) ? KBLOOM_IMAGE_F_MAY_FN : 0;
	st->kicks = atomic64_read(&f->kicks);
	st->overflows = atomic64_read(&f->overflows);

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
	st->fpr_now_pico = f->ops->fpr_pico ?
			   f->ops->fpr_pico(f, st->inserted) :
			   kb_plan_fpr_pico(g->type, g->m, g->k, st->inserted);
	st->id = f->id;
	if (f->ops->stat)
		f->ops->stat(f, st);
}
