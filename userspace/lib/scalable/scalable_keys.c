// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom scalable and dynamic filters: keys over the generations.  An
 * add goes to the newest generation, after opening the next one when the
 * newest is full by its estimated count (kb_sbf_gen(): ones >= full_ones).
 */
#include "scalable_int.h"

static bool ksbf_key_ok(const void *key, __u32 len)
{
	return key && len >= 1 && len <= KBLOOM_KEY_MAX;
}

static __u64 ksbf_hash(const struct kbloom_sbf *f, const void *key, __u32 len)
{
	return kb_hash(f->hash_id, f->seed, key, len);
}

/* Generations that report @h present, and the last of them in *@last. */
static __u32 ksbf_matches(const struct kbloom_sbf *f, __u64 h, __u32 *last)
{
	__u32 i, n = 0;

	for (i = 0; i < f->ngens; i++) {
		if (!ksbf_gen_test(f->gens[i], h))
			continue;
		n++;
		*last = i;
	}
	return n;
}

int kbloom_sbf_test(const struct kbloom_sbf *f, const void *key, __u32 len)
{
	__u64 h;
	__u32 i;

	if (!f || !ksbf_key_ok(key, len))
		return -EINVAL;
	h = ksbf_hash(f, key, len);
	/* newest first: the generation most keys are in */
	for (i = f->ngens; i-- > 0;)
		if (ksbf_gen_test(f->gens[i], h))
			return 1;
	return 0;
}

/* The generation adds go to: the newest, or a new one when it is full. */
static int ksbf_active(struct kbloom_sbf *f, struct ksbf_gen **gp)
{
	struct ksbf_gen *last = f->gens[f->ngens - 1];
	int ret;

	if (last->ones < last->g.full_ones) {
		*gp = last;
		return 0;
	}
	ret = ksbf_gen_new(f, f->ngens, &f->gens[f->ngens]);
	if (ret) {
		f->overflows += ret == -ENOSPC;
		return ret;
	}
	*gp = f->gens[f->ngens++];
	return 0;
}

int kbloom_sbf_add(struct kbloom_sbf *f, const void *key, __u32 len)
{
	struct ksbf_gen *gen;
	__u64 h;
	int ret;

	if (!f || !ksbf_key_ok(key, len))
		return -EINVAL;
	if (f->p.type == KBLOOM_TYPE_SCALABLE &&
	    kbloom_sbf_test(f, key, len)) {
		f->inserted++;	/* an add applied, as kbloom.ko counts it */
		return 1;
	}
	h = ksbf_hash(f, key, len);
	ret = ksbf_active(f, &gen);
	if (ret)
		return ret;
	ksbf_gen_add(gen, h);
	f->inserted++;
	return 0;
}

/* Merge generation @j into @i (i < j) and drop @j. */
static void ksbf_merge_pair(struct kbloom_sbf *f, __u32 i, __u32 j)
{
	ksbf_gen_merge(f->gens[i], f->gens[j]);
	ksbf_gen_free(f->gens[j]);
	memmove(&f->gens[j], &f->gens[j + 1],
		(f->ngens - j - 1) * sizeof(f->gens[0]));
	f->gens[--f->ngens] = NULL;
	f->merges++;
}

/* One pair whose estimated counts fit in one generation, merged. */
static bool ksbf_merge_one(struct kbloom_sbf *f)
{
	__u64 ni, nj;
	__u32 i, j;

	for (i = 0; i < f->ngens; i++) {
		ni = ksbf_gen_est(f->gens[i]);
		for (j = i + 1; j < f->ngens; j++) {
			nj = ksbf_gen_est(f->gens[j]);
			if (ni + nj > f->p.capacity)
				continue;
			ksbf_merge_pair(f, i, j);
			return true;
		}
	}
	return false;
}

/*
 * After a delete from @at: merge it with another generation while the two
 * fit in one; only pairs with @at can have become possible (kbloom.ko too).
 */
static void ksbf_merge_from(struct kbloom_sbf *f, __u32 at)
{
	__u64 na;
	__u32 j;

	for (;;) {
		na = ksbf_gen_est(f->gens[at]);
		for (j = 0; j < f->ngens; j++)
			if (j != at &&
			    na + ksbf_gen_est(f->gens[j]) <= f->p.capacity)
				break;
		if (j == f->ngens)
			return;
		ksbf_merge_pair(f, at < j ? at : j, at < j ? j : at);
		at = at < j ? at : j;
	}
}

int kbloom_sbf_merge(struct kbloom_sbf *f)
{
	int n = 0;

	if (!f)
		return -EINVAL;
	if (f->p.type != KBLOOM_TYPE_DYNAMIC)
		return -EOPNOTSUPP;
	while (ksbf_merge_one(f))
		n++;
	return n;
}

int kbloom_sbf_del(struct kbloom_sbf *f, const void *key, __u32 len)
{
	__u32 n, at = 0;
	__u64 h;

	if (!f || !ksbf_key_ok(key, len))
		return -EINVAL;
	if (f->p.type != KBLOOM_TYPE_DYNAMIC)
		return -EOPNOTSUPP;
	h = ksbf_hash(f, key, len);
	n = ksbf_matches(f, h, &at);
	if (!n)
		return 0;
	if (n > 1) {
		f->refused++;
		return -ENOTUNIQ;
	}
	ksbf_gen_del(f->gens[at], h);
	f->inserted -= !!f->inserted;
	ksbf_merge_from(f, at);
	return 1;
}
