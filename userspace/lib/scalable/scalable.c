// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom scalable and dynamic filters: creation, generations (the
 * geometry of generation i is kb_sbf_gen()'s, uapi/kbloom_var_scalable.h),
 * clearing and statistics.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>

#include "scalable_int.h"

#define KSBF_CACHELINE	64

/* A zeroed generation @i of @f's rule: 0, -ENOSPC (E2BIG for 0), -ENOMEM. */
int ksbf_gen_new(const struct kbloom_sbf *f, __u32 i, struct ksbf_gen **gp)
{
	struct ksbf_gen *gen;
	__u64 bytes;
	int ret;

	gen = calloc(1, sizeof(*gen));
	if (!gen)
		return -ENOMEM;
	ret = kb_sbf_gen(&f->p, i, &gen->g);
	if (ret)
		goto err_free_gen;
	gen->nwords = kb_sbf_gen_words(&gen->g);
	bytes = (gen->nwords * 8 + KSBF_CACHELINE - 1) &
		~(__u64)(KSBF_CACHELINE - 1);
	ret = -ENOMEM;
	gen->words = bytes <= SIZE_MAX ? aligned_alloc(KSBF_CACHELINE, bytes) :
					 NULL;
	if (!gen->words)
		goto err_free_gen;
	memset(gen->words, 0, bytes);
	*gp = gen;
	return 0;

err_free_gen:
	free(gen);
	return ret;
}

void ksbf_gen_free(struct ksbf_gen *gen)
{
	if (!gen)
		return;
	free(gen->words);
	free(gen);
}

/* A filter of checked parameters, without generations. */
int ksbf_new(const struct kb_sbf_params *p, __u32 hash_id, __u64 seed,
	    struct kbloom_sbf **fp)
{
	struct kbloom_sbf *f;

	if (kb_sbf_params_check(p))
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->p = *p;
	f->hash_id = hash_id;
	f->seed = seed;
	*fp = f;
	return 0;
}

/* @p with the type's defaults for its zero fields. */
static void ksbf_defaults(const struct kb_sbf_params *in,
			 struct kb_sbf_params *p)
{
	bool dyn = in->type == KBLOOM_TYPE_DYNAMIC;

	*p = *in;
	if (!p->growth)
		p->growth = dyn ? 1 : KB_SBF_GROWTH_DEFAULT;
	if (!p->ratio_ppm)
		p->ratio_ppm = dyn ? KB_SBF_RATIO_UNIT : KB_SBF_RATIO_DEFAULT;
	if (dyn && !p->counter_bits)
		p->counter_bits = KBLOOM_COUNTER_BITS_DEFAULT;
}

/* The hash of the options (NULL: defaults): 0, -EINVAL or -EIO. */
static int ksbf_opts_hash(const struct kbloom_opts *o, __u32 *hash_id,
			 __u64 *seed)
{
	*hash_id = KBLOOM_HASH_FAST;
	*seed = 0;
	if (!o)
		return 0;
	if (o->reserved || o->counter_bits || o->hash_id > KBLOOM_HASH_MAX ||
	    (o->flags & ~KBLOOM_OPT_RANDOM_SEED))
		return -EINVAL;
	if (o->name && o->name[0] &&
	    (strnlen(o->name, KBLOOM_NAME_LEN) >= KBLOOM_NAME_LEN ||
	     !kb_name_valid(o->name)))
		return -EINVAL;
	if (o->hash_id)
		*hash_id = o->hash_id;
	*seed = o->seed;
	if ((o->flags & KBLOOM_OPT_RANDOM_SEED) &&
	    getrandom(seed, sizeof(*seed), 0) != sizeof(*seed))
		return -EIO;
	return 0;
}

int kbloom_sbf_create(const struct kb_sbf_params *in,
		      const struct kbloom_opts *opts, struct kbloom_sbf **fp)
{
	struct kb_sbf_params p;
	struct kbloom_sbf *f;
	__u32 hash_id;
	__u64 seed;
	int ret;

	if (!in || !fp)
		return -EINVAL;
	ksbf_defaults(in, &p);
	ret = ksbf_opts_hash(opts, &hash_id, &seed);
	if (ret)
		return ret;
	ret = ksbf_new(&p, hash_id, seed, &f);
	if (ret)
		return ret;
	ret = ksbf_gen_new(f, 0, &f->gens[0]);
	if (ret)
		goto err_free_filter;
	f->ngens = 1;
	if (opts && opts->name)
		strncpy(f->name, opts->name, KBLOOM_NAME_LEN - 1);
	*fp = f;
	return 0;

err_free_filter:
	free(f);
	return ret;
}

void kbloom_sbf_destroy(struct kbloom_sbf *f)
{
	__u32 i;

	if (!f)
		return;
	for (i = 0; i < f->ngens; i++)
		ksbf_gen_free(f->gens[i]);
	free(f);
}

void kbloom_sbf_clear(struct kbloom_sbf *f)
{
	struct ksbf_gen *g0;
	__u32 i;

	if (!f)
		return;
	for (i = 1; i < f->ngens; i++) {
		ksbf_gen_free(f->gens[i]);
		f->gens[i] = NULL;
	}
	f->ngens = 1;
	g0 = f->gens[0];
	memset(g0->words, 0, g0->nwords * 8);
	g0->ones = 0;
	g0->inserted = 0;
	g0->saturations = 0;
	f->inserted = 0;
	f->refused = 0;
	f->merges = 0;
	f->overflows = 0;
}

const char *kbloom_sbf_name(const struct kbloom_sbf *f)
{
	return f ? f->name : "";
}

int kbloom_sbf_gen_stats(const struct kbloom_sbf *f, __u32 i,
			 struct kbloom_sbf_gen_stats *st)
{
	const struct ksbf_gen *gen;

	if (!f || !st)
		return -EINVAL;
	if (i >= f->ngens)
		return -ERANGE;
	gen = f->gens[i];
	memset(st, 0, sizeof(*st));
	st->g = gen->g;
	st->ones = gen->ones;
	st->inserted = gen->inserted;
	st->n_est = ksbf_gen_est(gen);
	st->fpr_now_pico = kb_sbf_gen_fpr(&gen->g, st->n_est);
	return 0;
}

int kbloom_sbf_stats(const struct kbloom_sbf *f, struct kbloom_sbf_stats *st)
{
	struct kbloom_sbf_gen_stats gs;
	__u32 i;

	if (!f || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->params = f->p;
	st->hash_id = f->hash_id;
	st->seed = f->seed;
	st->generations = f->ngens;
	st->inserted = f->inserted;
	st->refused = f->refused;
	st->merges = f->merges;
	st->overflows = f->overflows;
	for (i = 0; i < f->ngens; i++) {
		kbloom_sbf_gen_stats(f, i, &gs);
		st->bytes += f->gens[i]->nwords * 8;
		st->n_est += gs.n_est;
		st->saturations += f->gens[i]->saturations;
		st->fpr_now_pico = kb_sbf_fpr_add(st->fpr_now_pico,
						  gs.fpr_now_pico);
	}
	return 0;
}
