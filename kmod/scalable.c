// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko's scalable (KBLOOM_TYPE_SCALABLE) and dynamic
 * (KBLOOM_TYPE_DYNAMIC) Bloom filters as tables of struct kb_type_ops:
 * a list of generations whose geometry, full rule and image are
 * uapi/kbloom_var_scalable.h's, the ones libkbloom uses.
 *
 * Readers (TEST, the kfunc bpf_kbloom_test()) take no lock: under
 * rcu_read_lock() they walk the generation list they find (scalable.h).
 * Writers (ADD, DEL, FLUSH) hold f->wmutex: one writer at a time sets
 * bits and counters (atomic64_set() of the new word: readers see the old
 * or the new word), opens a generation when the newest is full by its
 * estimated count (ones >= full_ones: one comparison per add), merges
 * under-full dynamic generations after a delete, and publishes every new
 * list with rcu_assign_pointer().  A generation is allocated by the
 * writer with KB_GFP: ENOMEM leaves the filter as it was.
 */
#include <linux/bitops.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "scalable.h"

void kb_sbf_params_of(const struct kb_geom *g, struct kb_sbf_params *p)
{
	memset(p, 0, sizeof(*p));
	p->type = g->type;
	p->growth = g->tables;
	p->ratio_ppm = g->buckets;
	p->counter_bits = g->counter_bits;
	p->capacity = g->capacity;
	p->fpr_pico = g->fpr_pico;
}

/* @g's fields from checked parameters; k and m are generation 0's. */
int kb_sbf_geom(const struct kb_sbf_params *p, struct kb_geom *g)
{
	struct kb_sbf_gen g0;
	int ret;

	ret = kb_sbf_gen(p, 0, &g0);
	if (ret)
		return ret;
	if (kb_sbf_gen_words(&g0) * 8 > kb_max_filter_bytes)
		return -E2BIG;
	g->tables = p->growth;
	g->buckets = p->ratio_ppm;
	g->counter_bits = p->counter_bits;
	g->capacity = p->capacity;
	g->fpr_pico = p->fpr_pico;
	g->k = g0.k;
	g->m = g0.m;
	return 0;
}

/*
 * CREATE: (capacity, fpr_pico) and, scalable, @tables = growth (0: 2),
 * @buckets = ratio in ppm (0: 0.9); dynamic, @counter_bits (0: 4).
 */
static int kb_sbf_create(const struct kbloom_create *cmd, struct kb_geom *g)
{
	bool dyn = cmd->type == KBLOOM_TYPE_DYNAMIC;
	struct kb_sbf_params p = {
		.type = cmd->type, .capacity = cmd->capacity,
		.fpr_pico = cmd->fpr_pico, .growth = cmd->tables,
		.counter_bits = cmd->counter_bits,
	};

	if (cmd->m || cmd->k || cmd->fp_bits || cmd->slots || cmd->vi_l ||
	    cmd->update || cmd->buckets > KB_SBF_RATIO_UNIT)
		return -EINVAL;
	p.ratio_ppm = cmd->buckets;
	if (!p.growth)
		p.growth = dyn ? 1 : KB_SBF_GROWTH_DEFAULT;
	if (!p.ratio_ppm)
		p.ratio_ppm = dyn ? KB_SBF_RATIO_UNIT : KB_SBF_RATIO_DEFAULT;
	if (dyn && !p.counter_bits)
		p.counter_bits = KBLOOM_COUNTER_BITS_DEFAULT;
	if (kb_sbf_params_check(&p))
		return -EINVAL;
	return kb_sbf_geom(&p, g);
}

/*
 * A zeroed generation @i, its bytes within max_filter_bytes with the
 * others'.  Return: it, or ERR_PTR -ENOSPC (no such generation, or over
 * the limit), -ENOMEM.
 */
struct kb_sgen *kb_sgen_new(struct kb_sbf *sbf, u32 i)
{
	struct kb_sbf_gen g;
	struct kb_sgen *gen;
	u64 nwords;
	int ret;

	ret = kb_sbf_gen(&sbf->p, i, &g);
	if (ret)
		return ERR_PTR(-ENOSPC);
	nwords = kb_sbf_gen_words(&g);
	if (sbf->bytes + nwords * 8 > kb_max_filter_bytes)
		return ERR_PTR(-ENOSPC);
	gen = kvzalloc(struct_size(gen, words, nwords), KB_GFP);
	if (!gen)
		return ERR_PTR(-ENOMEM);
	gen->g = g;
	gen->nwords = nwords;
	return gen;
}

static int kb_sbf_init(struct kb_filter *f)
{
	struct kb_sgens *list;
	struct kb_sgen *gen;
	struct kb_sbf *sbf;

	sbf = kzalloc(sizeof(*sbf), KB_GFP);
	if (!sbf)
		return -ENOMEM;
	kb_sbf_params_of(&f->g, &sbf->p);
	list = kzalloc(sizeof(*list), KB_GFP);
	if (!list)
		goto err_free_sbf;
	gen = kb_sgen_new(sbf, 0);
	if (IS_ERR(gen))
		goto err_free_list;
	list->gen[0] = gen;
	list->n = 1;
	sbf->bytes = gen->nwords * 8;
	RCU_INIT_POINTER(sbf->list, list);
	f->priv = sbf;
	f->bytes = sbf->bytes;
	return 0;

err_free_list:
	kfree(list);
err_free_sbf:
	kfree(sbf);
	return -ENOMEM;
}

/* After the last reference and a grace period. */
static void kb_sbf_release(struct kb_filter *f)
{
	struct kb_sgens *list = kb_sbf_list(f);
	u32 i;

	for (i = 0; i < list->n; i++)
		kvfree(list->gen[i]);
	kfree(list);
	kfree(f->priv);
}

static bool kb_sgen_test(const struct kb_sgen *gen, u64 h)
{
	u32 i, cb = gen->g.counter_bits;
	struct kb_probe it;
	u64 pos, w;

	kb_probe_init(&it, h);
	for (i = 0; i < gen->g.k; i++) {
		pos = kb_sbf_pos(&gen->g, &it, i);
		if (!cb) {
			w = atomic64_read(&gen->words[pos >> 6]);
			if (!(w & BIT_ULL(pos & 63)))
				return false;
			continue;
		}
		w = atomic64_read(&gen->words[kb_ctr_word(pos, cb)]);
		if (!kb_ctr_get(w, kb_ctr_shift(pos, cb), cb))
			return false;
	}
	return true;
}

/* Generations of @list holding @h; the last of them in *@at. */
u32 kb_sgens_match(const struct kb_sgens *list, u64 h, u32 *at)
{
	u32 i, n = 0;

	for (i = 0; i < list->n; i++) {
		if (!kb_sgen_test(list->gen[i], h))
			continue;
		n++;
		*at = i;
	}
	return n;
}

/* Newest generation first: the one most keys are in. */
static bool kb_sbf_test(const struct kb_filter *f, u64 h)
{
	const struct kb_sgens *list;
	bool hit = false;
	u32 i;

	rcu_read_lock();
	list = rcu_dereference(kb_sbf(f)->list);
	for (i = list->n; i-- > 0 && !hit;)
		hit = kb_sgen_test(list->gen[i], h);
	rcu_read_unlock();
	return hit;
}

/* One cell of the single writer: returns the increments lost. */
static int kb_sgen_set(struct kb_sgen *gen, u64 pos)
{
	u32 cb = gen->g.counter_bits, sh;
	atomic64_t *w;
	u64 old;

	if (!cb) {
		w = &gen->words[pos >> 6];
		old = atomic64_read(w);
		if (!(old & BIT_ULL(pos & 63))) {
			atomic64_set(w, old | BIT_ULL(pos & 63));
			atomic64_inc(&gen->ones);
		}
		return 0;
	}
	w = &gen->words[kb_ctr_word(pos, cb)];
	sh = kb_ctr_shift(pos, cb);
	old = atomic64_read(w);
	if (kb_ctr_get(old, sh, cb) == kb_ctr_max(cb))
		return 1;
	atomic64_set(w, kb_ctr_inc(old, sh, cb));
	if (!kb_ctr_get(old, sh, cb))
		atomic64_inc(&gen->ones);
	return 0;
}

static int kb_sgen_add(struct kb_sgen *gen, u64 h)
{
	struct kb_probe it;
	int lost = 0;
	u32 i;

	kb_probe_init(&it, h);
	for (i = 0; i < gen->g.k; i++)
		lost += kb_sgen_set(gen, kb_sbf_pos(&gen->g, &it, i));
	atomic64_inc(&gen->inserted);
	if (lost)
		atomic64_add(lost, &gen->saturations);
	return lost;
}

/* Open the next generation and publish the list that has it. */
static int kb_sbf_grow(struct kb_filter *f, struct kb_sgens *old,
		       struct kb_sgen **out)
{
	struct kb_sbf *sbf = kb_sbf(f);
	struct kb_sgens *list;
	struct kb_sgen *gen;

	gen = kb_sgen_new(sbf, old->n);
	if (IS_ERR(gen))
		return PTR_ERR(gen);
	list = kmemdup(old, sizeof(*old), KB_GFP);
	if (!list) {
		kvfree(gen);
		return -ENOMEM;
	}
	list->gen[list->n++] = gen;
	sbf->bytes += gen->nwords * 8;
	rcu_assign_pointer(sbf->list, list);
	kfree_rcu(old, rcu);
	*out = gen;
	return 0;
}

/*
 * ADD: to the newest generation, or a new one when it is full.  A
 * scalable key some generation reports present changes nothing.
 */
static int kb_sbf_add(struct kb_filter *f, u64 h)
{
	struct kb_sgens *list;
	struct kb_sgen *gen;
	u32 at;
	int ret = 0;

	mutex_lock(&f->wmutex);
	list = kb_sbf_list(f);
	if (kb_sbf(f)->p.type == KBLOOM_TYPE_SCALABLE &&
	    kb_sgens_match(list, h, &at))
		goto out_unlock;
	gen = list->gen[list->n - 1];
	if (atomic64_read(&gen->ones) >= gen->g.full_ones) {
		ret = kb_sbf_grow(f, list, &gen);
		if (ret)
			goto out_unlock;
	}
	ret = kb_sgen_add(gen, h);
out_unlock:
	mutex_unlock(&f->wmutex);
	return ret;
}

u64 kb_sgen_count_ones(const struct kb_sgen *gen)
{
	u32 cb = gen->g.counter_bits;
	u64 i, w, ones = 0;

	for (i = 0; i < gen->nwords; i++) {
		w = atomic64_read(&gen->words[i]);
		ones += cb ? kb_ctr_nonzero(w, cb) : hweight64(w);
		if (!((i + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	return ones;
}

static u64 kb_sbf_ones(const struct kb_filter *f)
{
	const struct kb_sgens *list;
	u64 ones = 0;
	u32 i;

	rcu_read_lock();
	list = rcu_dereference(kb_sbf(f)->list);
	for (i = 0; i < list->n; i++)
		ones += atomic64_read(&list->gen[i]->ones);
	rcu_read_unlock();
	return ones;
}

/* The union bound of the generations' rates at their estimated counts. */
static u64 kb_sbf_fpr(const struct kb_filter *f, u64 n)
{
	const struct kb_sgens *list;
	const struct kb_sgen *gen;
	u64 sum = 0;
	u32 i;

	rcu_read_lock();
	list = rcu_dereference(kb_sbf(f)->list);
	for (i = 0; i < list->n; i++) {
		gen = list->gen[i];
		sum = kb_sbf_fpr_add(sum, kb_sbf_gen_fpr(&gen->g,
							 kb_sgen_est(gen)));
	}
	rcu_read_unlock();
	return sum;
}

/*
 * STAT of the whole list: m, bytes, n_est and saturations summed over
 * the generations, @slots the number of generations, @kicks the deletes
 * refused (dynamic); @tables and @buckets are growth and ratio.
 */
static void kb_sbf_stat(const struct kb_filter *f, struct kbloom_stat *st)
{
	const struct kb_sgens *list;
	const struct kb_sgen *gen;
	u32 i;

	st->m = 0;
	st->bytes = 0;
	st->n_est = 0;
	st->saturations = 0;
	rcu_read_lock();
	list = rcu_dereference(kb_sbf(f)->list);
	for (i = 0; i < list->n; i++) {
		gen = list->gen[i];
		st->m += gen->g.m;
		st->bytes += gen->nwords * 8;
		st->n_est += kb_sgen_est(gen);
		st->saturations += atomic64_read(&gen->saturations);
	}
	st->slots = list->n;
	rcu_read_unlock();
	st->occupancy_ppm = div64_u64(st->ones * 1000000, st->m);
	st->kicks = atomic64_read(&kb_sbf(f)->refused);
}

/* FLUSH (f->wmutex held): one empty generation 0, every count zero. */
static void kb_sbf_flush(struct kb_filter *f)
{
	struct kb_sgens *old = kb_sbf_list(f), *list;
	struct kb_sbf *sbf = kb_sbf(f);
	struct kb_sgen *g0 = old->gen[0];
	u64 i;
	u32 j;

	/* a few hundred bytes: waited for rather than failed */
	list = kzalloc(sizeof(*list), GFP_KERNEL_ACCOUNT | __GFP_NOFAIL);
	for (i = 0; i < g0->nwords; i++) {
		atomic64_set(&g0->words[i], 0);
		if (!((i + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	atomic64_set(&g0->ones, 0);
	atomic64_set(&g0->inserted, 0);
	atomic64_set(&g0->saturations, 0);
	list->gen[0] = g0;
	list->n = 1;
	rcu_assign_pointer(sbf->list, list);
	for (j = 1; j < old->n; j++)
		kvfree_rcu(old->gen[j], rcu);
	kfree_rcu(old, rcu);
	sbf->bytes = g0->nwords * 8;
	atomic64_set(&sbf->refused, 0);
	atomic64_set(&sbf->merges, 0);
}

/* Only the dynamic filter (counting generations) deletes. */
static bool kb_sbf_can_del(const struct kb_geom *g)
{
	return g->type == KBLOOM_TYPE_DYNAMIC;
}

/* Both types: the generations' type and the parameters tell them apart. */
const struct kb_type_ops kb_sbf_ops = {
	.create = kb_sbf_create,
	.test = kb_sbf_test,
	.add = kb_sbf_add,
	.can_del = kb_sbf_can_del,
	.ones = kb_sbf_ones,
	.fpr_pico = kb_sbf_fpr,
	.stat = kb_sbf_stat,
	.init = kb_sbf_init,
	.release = kb_sbf_release,
	.flush = kb_sbf_flush,
	.remove = kb_dbf_remove,
	.save = kb_sbf_save,
	.restore = kb_sbf_restore,
};
