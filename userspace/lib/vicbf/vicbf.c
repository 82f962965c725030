// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom: the variable-increment counting filter, its keys and its
 * statistics.  Readers are lock-free; a counter moves by a compare-and-
 * exchange loop on its 64-bit word around kb_vi_ctr_add()/kb_vi_ctr_sub(),
 * as the classic counting filter's counters do around kb_ctr_inc().
 */
#include <stdlib.h>

#include "vicbf_int.h"

static bool kbv_key_ok(const void *key, __u32 len)
{
	return key && len >= 1 && len <= KBLOOM_KEY_MAX;
}

static int kbv_name_copy(char dst[KBLOOM_NAME_LEN], const char *name)
{
	char tmp[KBLOOM_NAME_LEN] = { 0 };
	size_t len;

	if (name && name[0]) {
		len = strnlen(name, KBLOOM_NAME_LEN);
		if (len >= KBLOOM_NAME_LEN)
			return -EINVAL;
		memcpy(tmp, name, len);
		if (!kb_name_valid(tmp))
			return -EINVAL;
	}
	memcpy(dst, tmp, KBLOOM_NAME_LEN);
	return 0;
}

/* A zeroed filter of a shape kb_shape_check() accepts. */
int kbv_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	    struct kbloom_vicbf **fp)
{
	struct kbloom_vicbf *f;
	size_t bytes;

	if (s->type != KBLOOM_TYPE_VI_COUNTING || kb_shape_check(s))
		return -EINVAL;
	f = aligned_alloc(64, sizeof(*f));
	if (!f)
		return -ENOMEM;
	memset(f, 0, sizeof(*f));
	f->nwords = kb_shape_words(s);
	bytes = (f->nwords * 8 + 63) & ~(size_t)63;
	f->words = aligned_alloc(64, bytes);
	if (!f->words)
		goto err_free_filter;
	memset(f->words, 0, bytes);
	f->m = s->m;
	f->k = s->k;
	f->vi_l = s->vi_l;
	f->counter_bits = s->counter_bits;
	f->hash_id = hash_id;
	f->seed = seed;
	*fp = f;
	return 0;

err_free_filter:
	free(f);
	return -ENOMEM;
}

/* Options into a shape (without k and m) and the hash parameters. */
static int kbv_opts(const struct kbloom_vicbf_opts *o, struct kb_shape *s,
		    __u32 *hash_id)
{
	static const struct kbloom_vicbf_opts defaults;

	if (!o)
		o = &defaults;
	if (o->reserved)
		return -EINVAL;
	*hash_id = o->hash_id ? o->hash_id : KBLOOM_HASH_FAST;
	if (*hash_id > KBLOOM_HASH_MAX)
		return -EINVAL;
	kb_vi_shape_init(s, o->counter_bits, o->vi_l);
	return 0;
}

static int kbv_create(const struct kb_shape *s, __u32 hash_id,
		      const struct kbloom_vicbf_opts *o,
		      struct kbloom_vicbf **fp)
{
	struct kbloom_vicbf *f;
	int ret;

	ret = kbv_new(s, hash_id, o ? o->seed : 0, &f);
	if (ret)
		return ret;
	if (o && kbv_name_copy(f->name, o->name)) {
		kbloom_vicbf_destroy(f);
		return -EINVAL;
	}
	*fp = f;
	return 0;
}

int kbloom_vicbf_create(__u64 n, __u64 p_pico,
			const struct kbloom_vicbf_opts *opts,
			struct kbloom_vicbf **fp)
{
	struct kb_shape s;
	struct kb_plan plan;
	__u32 hash_id;
	int ret;

	if (!fp)
		return -EINVAL;
	ret = kbv_opts(opts, &s, &hash_id);
	if (ret)
		return ret;
	ret = kb_vi_plan(n, p_pico, s.vi_l, s.counter_bits, &plan);
	if (ret)
		return ret;
	s.m = plan.m;
	s.k = plan.k;
	ret = kbv_create(&s, hash_id, opts, fp);
	if (ret)
		return ret;
	(*fp)->capacity = n;
	(*fp)->fpr_pico = p_pico;
	return 0;
}

int kbloom_vicbf_create_mk(__u64 m, __u32 k,
			   const struct kbloom_vicbf_opts *opts,
			   struct kbloom_vicbf **fp)
{
	struct kb_shape s;
	__u32 hash_id;
	int ret;

	if (!fp)
		return -EINVAL;
	ret = kbv_opts(opts, &s, &hash_id);
	if (ret)
		return ret;
	s.m = m;
	s.k = k;
	return kbv_create(&s, hash_id, opts, fp);
}

void kbloom_vicbf_destroy(struct kbloom_vicbf *f)
{
	if (!f)
		return;
	free(f->words);
	free(f);
}

static __u64 *kbv_word(const struct kbloom_vicbf *f, __u32 j)
{
	return f->words + kb_ctr_word(j, f->counter_bits);
}

static bool kbv_test_h(const struct kbloom_vicbf *f, __u64 h)
{
	__u32 cb = f->counter_bits, i, j, v;
	struct kb_probe p;
	__u64 c;

	kb_probe_init(&p, h);
	for (i = 0; i < f->k; i++) {
		j = kb_vi_next(&p, f->m, f->vi_l, &v);
		c = kb_ctr_get(kbv_load(kbv_word(f, j)), kb_ctr_shift(j, cb),
			       cb);
		if (!kb_vi_match(c, v, f->vi_l, cb))
			return false;
	}
	return true;
}

/*
 * Add (@add) or take away @v at counter @j.  Return: true when the counter
 * is saturated after an add.
 */
static bool kbv_update(struct kbloom_vicbf *f, __u32 j, __u32 v, bool add)
{
	__u32 cb = f->counter_bits, sh = kb_ctr_shift(j, cb);
	__u64 *w = kbv_word(f, j), old = kbv_load(w), new;

	do {
		new = add ? kb_vi_ctr_add(old, sh, cb, v) :
			    kb_vi_ctr_sub(old, sh, cb, v, f->vi_l);
		if (new == old)
			break;
	} while (!__atomic_compare_exchange_n(w, &old, new, true,
					      __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return add && kb_ctr_get(new, sh, cb) == kb_ctr_max(cb);
}

/* Return: the increments that saturated (reached or found the maximum). */
static __u32 kbv_apply(struct kbloom_vicbf *f, __u64 h, bool add)
{
	__u32 i, j, v, sat = 0;
	struct kb_probe p;

	kb_probe_init(&p, h);
	for (i = 0; i < f->k; i++) {
		j = kb_vi_next(&p, f->m, f->vi_l, &v);
		sat += kbv_update(f, j, v, add);
	}
	return sat;
}

int kbloom_vicbf_add(struct kbloom_vicbf *f, const void *key, __u32 len)
{
	__u32 sat;

	if (!f || !kbv_key_ok(key, len))
		return -EINVAL;
	sat = kbv_apply(f, kb_hash(f->hash_id, f->seed, key, len), true);
	kbv_count(&f->inserted, 1);
	if (!sat)
		return 0;
	kbv_count(&f->saturations, sat);
	return 1;
}

int kbloom_vicbf_test(const struct kbloom_vicbf *f, const void *key,
		      __u32 len)
{
	if (!f || !kbv_key_ok(key, len))
		return -EINVAL;
	return kbv_test_h(f, kb_hash(f->hash_id, f->seed, key, len));
}

int kbloom_vicbf_del(struct kbloom_vicbf *f, const void *key, __u32 len)
{
	__u64 h;

	if (!f || !kbv_key_ok(key, len))
		return -EINVAL;
	h = kb_hash(f->hash_id, f->seed, key, len);
	if (!kbv_test_h(f, h))
		return -ENOENT;
	kbv_apply(f, h, false);
	kbv_count(&f->inserted, -1ULL);
	kbv_count(&f->deleted, 1);
	return 0;
}

void kbloom_vicbf_clear(struct kbloom_vicbf *f)
{
	__u64 i;

	if (!f)
		return;
	for (i = 0; i < f->nwords; i++)
		kbv_store(&f->words[i], 0);
	kbv_store(&f->inserted, 0);
	kbv_store(&f->deleted, 0);
	kbv_store(&f->saturations, 0);
}

/* Non-zero and saturated counters. */
static void kbv_occupancy(const struct kbloom_vicbf *f, __u64 *ones,
			  __u64 *saturated)
{
	__u32 cb = f->counter_bits, i, per = kb_ctr_per_word(cb);
	__u64 w, word, max = kb_ctr_max(cb);

	*ones = 0;
	*saturated = 0;
	for (w = 0; w < f->nwords; w++) {
		word = kbv_load(&f->words[w]);
		*ones += kb_ctr_nonzero(word, cb);
		for (i = 0; i < per && word; i++)
			*saturated += kb_ctr_get(word, i * cb, cb) == max;
	}
}

int kbloom_vicbf_stats(const struct kbloom_vicbf *f,
		       struct kbloom_vicbf_stats *st)
{
	__s64 n;

	if (!f || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->hash_id = f->hash_id;
	st->k = f->k;
	st->counter_bits = f->counter_bits;
	st->vi_l = f->vi_l;
	st->m = f->m;
	st->seed = f->seed;
	st->capacity = f->capacity;
	st->fpr_pico = f->fpr_pico;
	st->bytes = f->nwords * 8;
	n = (__s64)kbv_load(&f->inserted);
	st->inserted = n > 0 ? (__u64)n : 0;
	st->deleted = kbv_load(&f->deleted);
	st->saturations = kbv_load(&f->saturations);
	kbv_occupancy(f, &st->ones, &st->saturated);
	st->fpr_now_pico = kb_vi_fpr_pico(f->m, f->k, st->inserted, f->vi_l);
	return 0;
}
