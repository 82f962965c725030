// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_sketch: the Count-Min counters, add (minimum selection or
 * minimal increase), count, delete, merge and statistics.  Positions and
 * counter layout are uapi/kbloom_variants.h's; nothing else.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <sys/random.h>

#include "sketch_int.h"

#define KBS_OPT_FLAGS	KBLOOM_SKETCH_SEED

static __u64 kbs_get(const struct kbloom_sketch *s, __u64 n)
{
	__u32 cb = s->shape.counter_bits;

	return kb_cm_get(s->words[kb_field_word(n, cb)], n, cb);
}

static void kbs_set(struct kbloom_sketch *s, __u64 n, __u64 v)
{
	__u32 cb = s->shape.counter_bits;
	__u64 *w = &s->words[kb_field_word(n, cb)];

	*w = kb_field_put_lo(*w, kb_field_shift(n, cb), cb, v);
}

/* The key's counter in each row; 0, or -EINVAL for a bad key length. */
static int kbs_positions(const struct kbloom_sketch *s, const void *key,
			 size_t len, __u64 pos[KB_CM_ROWS_MAX])
{
	struct kb_probe p;
	__u32 i;

	if (!key || !len || len > KBLOOM_KEY_MAX)
		return -EINVAL;
	kb_probe_init(&p, kb_hash(s->hash_id, s->seed, key, (__u32)len));
	for (i = 0; i < s->shape.tables; i++) {
		pos[i] = kb_cm_counter(i, kb_probe_word(&p), s->shape.buckets);
		p.g *= KB_PROBE_MUL;
	}
	return 0;
}

static __u64 kbs_min(const struct kbloom_sketch *s,
		     const __u64 pos[KB_CM_ROWS_MAX])
{
	__u64 c, min = kb_field_mask(s->shape.counter_bits);
	__u32 i;

	for (i = 0; i < s->shape.tables; i++) {
		c = kbs_get(s, pos[i]);
		if (c < min)
			min = c;
	}
	return min;
}

/* @a + @b, saturating at 2^64 - 1 (kb_cm_raise() clips to the counter). */
static __u64 kbs_sum(__u64 a, __u64 b)
{
	return a + b < a ? ~0ULL : a + b;
}

/* Raise row counter @n to @target; 1 when clipped at the maximum. */
static int kbs_raise(struct kbloom_sketch *s, __u64 n, __u64 target)
{
	__u32 cb = s->shape.counter_bits;
	__u64 c = kbs_get(s, n), v = kb_cm_raise(c, target, cb);

	if (v != c)
		kbs_set(s, n, v);
	return target > v;
}

int kbloom_sketch_add(struct kbloom_sketch *s, const void *key, size_t len,
		      __u64 weight)
{
	__u64 pos[KB_CM_ROWS_MAX], target = 0;
	int ret, lost = 0;
	__u32 i;

	if (!s || !weight)
		return -EINVAL;
	ret = kbs_positions(s, key, len, pos);
	if (ret)
		return ret;
	if (s->shape.update == KB_CM_MIN_INC)
		target = kbs_sum(kbs_min(s, pos), weight);
	for (i = 0; i < s->shape.tables; i++) {
		if (s->shape.update != KB_CM_MIN_INC)
			target = kbs_sum(kbs_get(s, pos[i]), weight);
		lost += kbs_raise(s, pos[i], target);
	}
	s->total = kbs_sum(s->total, weight);
	s->saturations += lost;
	return lost;
}

__u64 kbloom_sketch_count(const struct kbloom_sketch *s, const void *key,
			  size_t len)
{
	__u64 pos[KB_CM_ROWS_MAX];

	if (!s || kbs_positions(s, key, len, pos))
		return 0;
	return kbs_min(s, pos);
}

int kbloom_sketch_del(struct kbloom_sketch *s, const void *key, size_t len,
		      __u64 weight)
{
	__u64 pos[KB_CM_ROWS_MAX], c, max;
	__u32 i;
	int ret;

	if (!s || !weight)
		return -EINVAL;
	if (s->shape.update != KB_CM_ALL)
		return -EOPNOTSUPP;
	ret = kbs_positions(s, key, len, pos);
	if (ret)
		return ret;
	if (kbs_min(s, pos) < weight)
		return -ENOENT;
	max = kb_field_mask(s->shape.counter_bits);
	for (i = 0; i < s->shape.tables; i++) {
		c = kbs_get(s, pos[i]);
		if (c != max)
			kbs_set(s, pos[i], c - weight);
	}
	s->total = s->total > weight ? s->total - weight : 0;
	return 0;
}

int kbloom_sketch_merge_words(struct kbloom_sketch *dst, const __u64 *words,
			      size_t nwords, __u64 weight)
{
	__u32 cb, per;
	__u64 n, c, add;

	if (!dst || !words || nwords != dst->nwords)
		return -EINVAL;
	cb = dst->shape.counter_bits;
	per = 64 / cb;
	for (n = 0; n < dst->shape.m; n++) {
		add = kb_cm_get(words[n / per], n, cb);
		if (!add)
			continue;
		c = kbs_get(dst, n);
		dst->saturations += kbs_raise(dst, n, kbs_sum(c, add));
	}
	dst->total = kbs_sum(dst->total, weight);
	return 0;
}

int kbloom_sketch_merge(struct kbloom_sketch *dst,
			const struct kbloom_sketch *src)
{
	const struct kb_shape *a, *b;
	int ret;

	if (!dst || !src)
		return -EINVAL;
	a = &dst->shape;
	b = &src->shape;
	if (a->tables != b->tables || a->buckets != b->buckets ||
	    a->counter_bits != b->counter_bits || a->update != b->update ||
	    dst->hash_id != src->hash_id || dst->seed != src->seed)
		return -EINVAL;
	ret = kbloom_sketch_merge_words(dst, src->words, src->nwords,
					src->total);
	if (!ret)
		dst->saturations += src->saturations;
	return ret;
}

size_t kbloom_sketch_words(const struct kbloom_sketch *s)
{
	return s ? s->nwords : 0;
}

const __u64 *kbloom_sketch_data(const struct kbloom_sketch *s)
{
	return s ? s->words : NULL;
}

void kbloom_sketch_clear(struct kbloom_sketch *s)
{
	if (!s)
		return;
	memset(s->words, 0, s->nwords * 8);
	s->total = 0;
	s->saturations = 0;
}

int kbloom_sketch_stat(const struct kbloom_sketch *s,
		       struct kbloom_sketch_stat *st)
{
	__u64 n, c, max;

	if (!s || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->rows = s->shape.tables;
	st->width = s->shape.buckets;
	st->counter_bits = s->shape.counter_bits;
	st->update = s->shape.update;
	st->hash_id = s->hash_id;
	st->seed = s->seed;
	st->epsilon_pico = s->epsilon_pico;
	st->delta_pico = s->delta_pico;
	st->bytes = s->nwords * 8;
	st->total = s->total;
	st->saturations = s->saturations;
	max = kb_field_mask(s->shape.counter_bits);
	for (n = 0; n < s->shape.m; n++) {
		c = kbs_get(s, n);
		st->nonzero += !!c;
		st->saturated += c == max;
	}
	return 0;
}

int kbs_new(const struct kb_shape *shape, __u32 hash_id, __u64 seed,
	    struct kbloom_sketch **sp)
{
	struct kbloom_sketch *s;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->shape = *shape;
	s->nwords = kb_shape_words(shape);
	s->words = calloc(s->nwords, 8);
	if (!s->words) {
		free(s);
		return -ENOMEM;
	}
	s->hash_id = hash_id;
	s->seed = seed;
	*sp = s;
	return 0;
}

void kbloom_sketch_free(struct kbloom_sketch *s)
{
	if (!s)
		return;
	free(s->words);
	free(s);
}

/* The shape of @o: planned from (epsilon, delta) or explicit. */
static int kbs_shape(const struct kbloom_sketch_opts *o, struct kb_shape *s)
{
	bool planned = o->epsilon_pico || o->delta_pico;

	if (planned == (o->rows || o->width))
		return -EINVAL;
	if (planned)
		return kb_cm_plan(o->epsilon_pico, o->delta_pico,
				  o->counter_bits, o->update, s);
	memset(s, 0, sizeof(*s));
	s->type = KBLOOM_TYPE_COUNT_MIN;
	s->tables = o->rows;
	s->buckets = o->width;
	s->counter_bits = o->counter_bits ? o->counter_bits :
			  KB_CM_COUNTER_BITS_DEFAULT;
	s->update = o->update ? o->update : KB_CM_ALL;
	if (kb_shape_derive(s))
		return kb_cm_too_big(s) ? -E2BIG : -EINVAL;
	return 0;
}

static int kbs_opts_check(const struct kbloom_sketch_opts *o, __u32 *hash_id)
{
	if ((o->flags & ~KBS_OPT_FLAGS) || o->reserved)
		return -EINVAL;
	if (o->name && !kb_name_valid(o->name))
		return -EINVAL;
	*hash_id = o->hash_id ? o->hash_id : KBLOOM_HASH_FAST;
	return *hash_id <= KBLOOM_HASH_MAX ? 0 : -EINVAL;
}

int kbloom_sketch_create(const struct kbloom_sketch_opts *o,
			 struct kbloom_sketch **sp)
{
	struct kb_shape shape;
	__u32 hash_id;
	__u64 seed;
	int ret;

	if (!o || !sp)
		return -EINVAL;
	ret = kbs_opts_check(o, &hash_id);
	if (ret)
		return ret;
	ret = kbs_shape(o, &shape);
	if (ret)
		return ret;
	seed = o->seed;
	if (!(o->flags & KBLOOM_SKETCH_SEED) &&
	    getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		return -errno;
	ret = kbs_new(&shape, hash_id, seed, sp);
	if (ret)
		return ret;
	(*sp)->epsilon_pico = o->epsilon_pico;
	(*sp)->delta_pico = o->delta_pico;
	if (o->name)
		strncpy((*sp)->name, o->name, KBLOOM_NAME_LEN - 1);
	return 0;
}
