// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_dleft: the filter object and its keys (libkbloom_dleft.h).
 * The rules of insert, delete, test and count are uapi/kbloom_variants.h's.
 */
#include <stdlib.h>

#include "dleft_int.h"

#define DL_ALIGN	64

int dl_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	   struct kbloom_dleft **fp)
{
	struct kbloom_dleft *f;

	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->s = *s;
	f->q = kb_log2_exact(s->buckets) + s->fp_bits;
	f->cell_bits = s->fp_bits + s->counter_bits;
	f->hash_id = hash_id;
	f->seed = seed;
	f->nwords = kb_shape_words(s);
	if (posix_memalign((void **)&f->words, DL_ALIGN, f->nwords * 8))
		goto err_free;
	memset(f->words, 0, f->nwords * 8);
	if (pthread_mutex_init(&f->lock, NULL))
		goto err_words;
	*fp = f;
	return 0;

err_words:
	free(f->words);
err_free:
	free(f);
	return -ENOMEM;
}

int dl_opts(const struct kbloom_dleft_opts *o, __u32 *hash_id, __u64 *seed,
	    char name[KBLOOM_NAME_LEN])
{
	memset(name, 0, KBLOOM_NAME_LEN);
	*hash_id = o && o->hash_id ? o->hash_id : KBLOOM_HASH_FAST;
	*seed = o ? o->seed : 0;
	if (*hash_id > KBLOOM_HASH_MAX || (o && o->reserved))
		return -EINVAL;
	if (!o || !o->name)
		return 0;
	if (strnlen(o->name, KBLOOM_NAME_LEN) >= KBLOOM_NAME_LEN)
		return -EINVAL;
	strncpy(name, o->name, KBLOOM_NAME_LEN - 1);
	return kb_name_valid(name) ? 0 : -EINVAL;
}

int kbloom_dleft_create_shape(const struct kb_shape *shape,
			      const struct kbloom_dleft_opts *opts,
			      struct kbloom_dleft **fp)
{
	char name[KBLOOM_NAME_LEN];
	struct kb_shape s;
	__u32 hash_id;
	__u64 seed;
	int ret;

	if (!shape || !fp || shape->type != KBLOOM_TYPE_DLEFT)
		return -EINVAL;
	s = *shape;
	if (kb_shape_derive(&s) || dl_opts(opts, &hash_id, &seed, name))
		return -EINVAL;
	ret = dl_new(&s, hash_id, seed, fp);
	if (!ret)
		memcpy((*fp)->name, name, KBLOOM_NAME_LEN);
	return ret;
}

int kbloom_dleft_create(__u64 n, __u64 p_pico, const struct kb_shape *shape,
			const struct kbloom_dleft_opts *opts,
			struct kbloom_dleft **fp)
{
	struct kb_shape s = { 0 };
	int ret;

	if (!fp)
		return -EINVAL;
	if (shape) {
		s.tables = shape->tables;
		s.slots = shape->slots;
		s.counter_bits = shape->counter_bits;
		s.update = shape->update;
	}
	ret = kb_dleft_plan(n, p_pico, &s);
	if (ret)
		return ret;
	ret = kbloom_dleft_create_shape(&s, opts, fp);
	if (ret)
		return ret;
	(*fp)->capacity = n;
	(*fp)->fpr_pico = p_pico;
	return 0;
}

void kbloom_dleft_destroy(struct kbloom_dleft *f)
{
	if (!f)
		return;
	pthread_mutex_destroy(&f->lock);
	free(f->words);
	free(f);
}

static int dl_key_ok(const void *f, const void *key, __u32 len)
{
	return f && key && len >= 1 && len <= KBLOOM_KEY_MAX;
}

static __u64 dl_hash(const struct kbloom_dleft *f, const void *key, __u32 len)
{
	return kb_hash(f->hash_id, f->seed, key, len);
}

/*
 * The first cell holding the key of hash @h, or -1; *@load (when not NULL)
 * gets the occupied cells of each of its d buckets and *@first their
 * first cells.
 */
static long long dl_find(const struct kbloom_dleft *f, __u64 h,
			 __u32 *load, __u64 *first)
{
	__u32 j, i, cb = f->s.counter_bits;
	long long found = -1;
	__u64 rem, base, c;

	for (j = 0; j < f->s.tables; j++) {
		base = kb_dleft_locate(h, j, f->q, &f->s, &rem);
		if (first)
			first[j] = base;
		if (load)
			load[j] = 0;
		for (i = 0; i < f->s.slots; i++) {
			c = dl_cell_read(f, base + i);
			if (found < 0 && kb_dleft_cell_holds(c, rem, cb)) {
				found = base + i;
				if (!load)
					return found;
			}
			if (load && kb_dleft_cell_count(c, cb))
				load[j]++;
		}
	}
	return found;
}

/* The free cell of the least loaded bucket (the lowest j on ties), or -1. */
static long long dl_free_cell(const struct kbloom_dleft *f, const __u32 *load,
			      const __u64 *first)
{
	__u32 j, best = 0, i;

	for (j = 1; j < f->s.tables; j++)
		if (load[j] < load[best])
			best = j;
	if (load[best] >= f->s.slots)
		return -1;
	for (i = 0; i < f->s.slots; i++)
		if (!kb_dleft_cell_count(dl_cell_get(f, first[best] + i),
					 f->s.counter_bits))
			return first[best] + i;
	return -1;
}

/* Under f->lock: 0, 1 saturated, -ENOSPC. */
static int dl_add_locked(struct kbloom_dleft *f, __u64 h)
{
	__u32 load[KB_DLEFT_TABLES_MAX], cb = f->s.counter_bits;
	__u64 first[KB_DLEFT_TABLES_MAX], c, rem;
	long long n = dl_find(f, h, load, first);

	if (n >= 0) {
		c = dl_cell_get(f, n);
		if (kb_dleft_cell_count(c, cb) == kb_ctr_max(cb)) {
			dl_store(&f->saturations, f->saturations + 1);
			return 1;
		}
		dl_cell_put(f, n, c + 1);
		return 0;
	}
	n = dl_free_cell(f, load, first);
	if (n < 0) {
		dl_store(&f->overflows, f->overflows + 1);
		return -ENOSPC;
	}
	kb_dleft_locate(h, kb_dleft_cell_table((__u64)n, &f->s), f->q, &f->s,
			&rem);
	dl_cell_put(f, n, kb_dleft_cell_val(rem, 1, cb));
	return 0;
}

int kbloom_dleft_add(struct kbloom_dleft *f, const void *key, __u32 len)
{
	int ret;

	if (!dl_key_ok(f, key, len))
		return -EINVAL;
	pthread_mutex_lock(&f->lock);
	ret = dl_add_locked(f, dl_hash(f, key, len));
	if (ret >= 0)
		dl_store(&f->inserted, f->inserted + 1);
	pthread_mutex_unlock(&f->lock);
	return ret;
}

int kbloom_dleft_test(const struct kbloom_dleft *f, const void *key,
		      __u32 len)
{
	if (!dl_key_ok(f, key, len))
		return -EINVAL;
	return dl_find(f, dl_hash(f, key, len), NULL, NULL) >= 0;
}

int kbloom_dleft_del(struct kbloom_dleft *f, const void *key, __u32 len)
{
	__u32 cb;
	long long n;
	__u64 c;

	if (!dl_key_ok(f, key, len))
		return -EINVAL;
	cb = f->s.counter_bits;
	pthread_mutex_lock(&f->lock);
	n = dl_find(f, dl_hash(f, key, len), NULL, NULL);
	if (n >= 0) {
		c = dl_cell_get(f, n);
		if (kb_dleft_cell_count(c, cb) != kb_ctr_max(cb))
			dl_cell_put(f, n, kb_dleft_cell_count(c, cb) > 1 ?
					  c - 1 : 0);
		dl_store(&f->inserted, f->inserted - 1);
	}
	pthread_mutex_unlock(&f->lock);
	return n >= 0 ? 0 : -ENOENT;
}

int kbloom_dleft_count(const struct kbloom_dleft *f, const void *key,
		       __u32 len, __u64 *count)
{
	__u32 j, i, cb;
	__u64 h, rem, base, c, sum = 0;

	if (!dl_key_ok(f, key, len) || !count)
		return -EINVAL;
	cb = f->s.counter_bits;
	h = dl_hash(f, key, len);
	for (j = 0; j < f->s.tables; j++) {
		base = kb_dleft_locate(h, j, f->q, &f->s, &rem);
		for (i = 0; i < f->s.slots; i++) {
			c = dl_cell_get(f, base + i);
			if (kb_dleft_cell_holds(c, rem, cb))
				sum += kb_dleft_cell_count(c, cb);
		}
	}
	*count = sum;
	return 0;
}

void kbloom_dleft_clear(struct kbloom_dleft *f)
{
	__u64 i;

	if (!f)
		return;
	pthread_mutex_lock(&f->lock);
	for (i = 0; i < f->nwords; i++)
		dl_store(&f->words[i], 0);
	dl_store(&f->inserted, 0);
	dl_store(&f->overflows, 0);
	dl_store(&f->saturations, 0);
	pthread_mutex_unlock(&f->lock);
}

int kbloom_dleft_stats(const struct kbloom_dleft *f,
		       struct kbloom_dleft_stats *st)
{
	if (!f || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->shape = f->s;
	st->hash_id = f->hash_id;
	st->seed = f->seed;
	st->capacity = f->capacity;
	st->fpr_pico = f->fpr_pico;
	st->bytes = f->nwords * 8;
	st->inserted = dl_load(&f->inserted);
	st->cells_used = dl_cells_used(f);
	st->load_ppm = st->cells_used * 1000000 / f->s.m;
	st->overflows = dl_load(&f->overflows);
	st->saturations = dl_load(&f->saturations);
	st->fpr_pico_now = kb_dleft_fpr_pico(st->cells_used, f->s.buckets,
					     f->s.fp_bits);
	return 0;
}

const __u64 *kbloom_dleft_words(const struct kbloom_dleft *f, __u64 *nwords)
{
	if (!f)
		return NULL;
	if (nwords)
		*nwords = f->nwords;
	return f->words;
}
