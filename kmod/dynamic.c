// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko's dynamic Bloom filter (KBLOOM_TYPE_DYNAMIC, Guo et al.):
 * DEL and the merge of under-full generations (uapi/kbloom_var_scalable.h).
 * Both run under f->wmutex, the one writer; readers walk the RCU list
 * (scalable.h).
 *
 * A key present in exactly one generation is deleted there; present in
 * several, the delete is refused with ENOTUNIQ and counted.  After a
 * delete, the generation it left and another whose estimated counts sum
 * to at most C are merged: the newer one's counters are added into the older one (readers
 * then find its keys in both), the list without it is published, and it
 * is freed after a grace period, so no reader misses a key meanwhile.
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "scalable.h"

/* Counters of @h in @gen down by one (every one of them is non-zero). */
static void kb_sgen_del(struct kb_sgen *gen, u64 h)
{
	u32 i, sh, cb = gen->g.counter_bits;
	struct kb_probe it;
	u64 pos, old, new;
	atomic64_t *w;

	kb_probe_init(&it, h);
	for (i = 0; i < gen->g.k; i++) {
		pos = kb_sbf_pos(&gen->g, &it, i);
		w = &gen->words[kb_ctr_word(pos, cb)];
		sh = kb_ctr_shift(pos, cb);
		old = atomic64_read(w);
		new = kb_ctr_dec(old, sh, cb);
		atomic64_set(w, new);
		if (kb_ctr_get(old, sh, cb) && !kb_ctr_get(new, sh, cb))
			atomic64_dec(&gen->ones);
	}
	if (atomic64_read(&gen->inserted) > 0)
		atomic64_dec(&gen->inserted);
}

/* @dst += @src counter by counter, saturating; then its counts. */
static void kb_sgen_merge(struct kb_sgen *dst, const struct kb_sgen *src)
{
	u32 cb = dst->g.counter_bits;
	u64 i, a, b;

	for (i = 0; i < dst->nwords; i++) {
		a = atomic64_read(&dst->words[i]);
		b = atomic64_read(&src->words[i]);
		if (b)
			atomic64_set(&dst->words[i], kb_sbf_ctr_merge(a, b, cb));
		if (!((i + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	atomic64_set(&dst->ones, kb_sgen_count_ones(dst));
	atomic64_add(atomic64_read(&src->inserted), &dst->inserted);
	atomic64_add(atomic64_read(&src->saturations), &dst->saturations);
}

/* Merge generation @j of @old into @i and publish the list without it. */
static int kb_dbf_merge_pair(struct kb_filter *f, struct kb_sgens *old,
			     u32 i, u32 j)
{
	struct kb_sbf *sbf = kb_sbf(f);
	struct kb_sgen *src = old->gen[j];
	struct kb_sgens *list;

	list = kmemdup(old, sizeof(*old), KB_GFP);
	if (!list)
		return -ENOMEM;
	kb_sgen_merge(old->gen[i], src);
	memmove(&list->gen[j], &list->gen[j + 1],
		(list->n - j - 1) * sizeof(list->gen[0]));
	list->gen[--list->n] = NULL;
	rcu_assign_pointer(sbf->list, list);
	kfree_rcu(old, rcu);
	sbf->bytes -= src->nwords * 8;
	kvfree_rcu(src, rcu);
	atomic64_inc(&sbf->merges);
	return 0;
}

/*
 * After a delete from generation @at: merge it with another generation
 * while the two fit in one (estimated counts summing to at most C).  Only
 * pairs with @at can have become possible: one estimate per generation.
 */
static void kb_dbf_merge_from(struct kb_filter *f, u32 at)
{
	u64 cap = kb_sbf(f)->p.capacity, na;
	struct kb_sgens *list;
	u32 j;

	for (;;) {
		list = kb_sbf_list(f);
		na = kb_sgen_est(list->gen[at]);
		for (j = 0; j < list->n; j++)
			if (j != at && na + kb_sgen_est(list->gen[j]) <= cap)
				break;
		if (j == list->n)
			return;
		if (kb_dbf_merge_pair(f, list, min(at, j), max(at, j)))
			return;
		at = min(at, j);
	}
}

/* DEL of one key.  Return: 1 deleted, 0 absent, -ENOTUNIQ refused. */
int kb_dbf_remove(struct kb_filter *f, u64 h)
{
	struct kb_sgens *list;
	u32 n, at = 0;
	int ret = 0;

	mutex_lock(&f->wmutex);
	list = kb_sbf_list(f);
	n = kb_sgens_match(list, h, &at);
	if (n > 1) {
		atomic64_inc(&kb_sbf(f)->refused);
		ret = -ENOTUNIQ;
	} else if (n == 1) {
		kb_sgen_del(list->gen[at], h);
		kb_dbf_merge_from(f, at);
		ret = 1;
	}
	mutex_unlock(&f->wmutex);
	return ret;
}
