// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom one-hashing filters (uapi/kbloom_var_onehash.h): k partitions
 * of distinct prime sizes, probe i at bit h mod m_i of partition i, h the
 * one kb_hash() of the key.
 */
#include <math.h>

#include "onehash_int.h"
#include "uapi/kbloom_partitioned.h"

int kboh_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	     struct kbloom_oh **fp)
{
	struct kbloom_oh *f;

	if (s->type != KBLOOM_TYPE_ONE_HASHING || kb_shape_check(s))
		return -EINVAL;
	f = aligned_alloc(KBA_CACHELINE, sizeof(*f));
	if (!f)
		return -ENOMEM;
	memset(f, 0, sizeof(*f));
	if (kb_oh_sizes(s->buckets, s->k, f->sizes) ||
	    kba_init(&f->a, s, hash_id, seed)) {
		free(f);
		return -ENOMEM;
	}
	*fp = f;
	return 0;
}

static int kboh_create(const struct kb_shape *s, const struct kbloom_opts *o,
		       struct kbloom_oh **fp)
{
	__u32 hash_id;
	__u64 seed;
	int ret;

	ret = kb_opts_v3(o, &hash_id, &seed);
	if (ret)
		return ret;
	ret = kboh_new(s, hash_id, seed, fp);
	if (!ret)
		kba_name(&(*fp)->a, o);
	return ret;
}

int kbloom_oh_create_ks(__u32 k, __u64 slice_bits,
			const struct kbloom_opts *opts, struct kbloom_oh **fp)
{
	struct kb_shape s = {
		.type = KBLOOM_TYPE_ONE_HASHING, .k = k, .buckets = slice_bits,
	};

	if (!fp || kb_shape_derive(&s))
		return -EINVAL;
	return kboh_create(&s, opts, fp);
}

int kbloom_oh_create(__u64 n, __u64 p_pico, const struct kbloom_opts *opts,
		     struct kbloom_oh **fp)
{
	struct kb_shape s;
	int ret;

	if (!fp)
		return -EINVAL;
	ret = kb_part_plan(n, p_pico, &s);
	if (ret)
		return ret;
	if (s.buckets < KB_OH_SLICE_MIN)
		s.buckets = KB_OH_SLICE_MIN;
	s.type = KBLOOM_TYPE_ONE_HASHING;
	if (kb_shape_derive(&s))
		return -E2BIG;
	ret = kboh_create(&s, opts, fp);
	if (ret)
		return ret;
	(*fp)->a.capacity = n;
	(*fp)->a.fpr_pico = p_pico;
	return 0;
}

void kbloom_oh_destroy(struct kbloom_oh *f)
{
	if (!f)
		return;
	free(f->a.words);
	free(f);
}

void kbloom_oh_clear(struct kbloom_oh *f)
{
	if (f)
		kba_clear(&f->a, &f->inserted);
}

/*
 * Walk the key's k bits: a test stops at the first clear one, an add
 * sets each clear one.  Return: 1 when all were set, 0 otherwise, -EINVAL.
 */
static int kboh_walk(const struct kbloom_oh *f, const void *key, __u32 len,
		     bool add)
{
	const struct kb_bitarray *a;
	int all = 1;
	__u64 h, bit;
	__u32 i;

	if (!f || !key || len < 1 || len > KBLOOM_KEY_MAX)
		return -EINVAL;
	a = &f->a;
	h = kb_hash(a->hash_id, a->seed, key, len);
	for (i = 0; i < a->s.k; i++) {
		bit = kb_oh_bit(h, i, f->sizes[i], a->s.buckets);
		if (kba_mask(&a->words[bit >> 6], 1ULL << (bit & 63), add))
			continue;
		if (!add)
			return 0;
		all = 0;
	}
	return all;
}

int kbloom_oh_add(struct kbloom_oh *f, const void *key, __u32 len)
{
	int ret = kboh_walk(f, key, len, true);

	if (ret < 0)
		return ret;
	__atomic_fetch_add(&f->inserted, 1, __ATOMIC_RELAXED);
	return 0;
}

int kbloom_oh_test(const struct kbloom_oh *f, const void *key, __u32 len)
{
	return kboh_walk(f, key, len, false);
}

/* prod_i (1 - (1 - 1/m_i)^n), the one-hashing paper's rate. */
double kbloom_oh_fpr(const __u32 *sizes, __u32 k, __u64 n)
{
	double p = 1;
	__u32 i;

	if (!sizes || !k)
		return -1;
	for (i = 0; i < k; i++) {
		if (!sizes[i])
			return -1;
		p *= -expm1((double)n * log1p(-1.0 / sizes[i]));
	}
	return p;
}

int kbloom_oh_stats(const struct kbloom_oh *f, struct kbloom_oh_stats *st)
{
	if (!f || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->shape = f->a.s;
	memcpy(st->sizes, f->sizes, sizeof(st->sizes));
	st->hash_id = f->a.hash_id;
	st->seed = f->a.seed;
	st->capacity = f->a.capacity;
	st->fpr_pico = f->a.fpr_pico;
	st->bytes = f->a.nwords * 8;
	st->inserted = __atomic_load_n(&f->inserted, __ATOMIC_RELAXED);
	st->ones = kba_ones(&f->a);
	st->fpr_now = kbloom_oh_fpr(f->sizes, f->a.s.k, st->inserted);
	return 0;
}
