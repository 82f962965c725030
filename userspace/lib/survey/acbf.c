// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom: the accurate counting Bloom filter (ACBF; layout and
 * positions uapi/kbloom_var_acbf.h).  A counter is climbed from its
 * level-1 bit: its bit in level j + 1 is at the offset of the ones of
 * level j before its bit there (kb_acbf_span() over the rank directory).
 */
#include <math.h>
#include <stdlib.h>

#include "acbf_int.h"

/*
 * Where counter @i (a level-1 position) stands: @c its value; @top the
 * position of its 0 at level c + 1 (for c < levels); @prev its 1 at level
 * c (level 1: @i); @lvl_start the start of level c + 1.
 */
struct kb_acbf_walk {
	__u32 c;
	__u64 top;
	__u64 prev;
	__u64 lvl_start;
};

static void kb_acbf_climb(const struct kbloom_acbf *f, __u64 i,
			  struct kb_acbf_walk *w)
{
	__u64 pos = i, start = 0, next;
	__u32 j;

	w->c = 0;
	if (!kb_sarr_bit(&f->a, i)) {
		w->top = f->m1 + kb_acbf_rank(f, i);	/* its new level-2 bit */
		return;
	}
	for (j = 1;; j++) {
		w->c = j;
		w->prev = pos;
		if (j == f->levels)
			return;
		next = start + f->lvl_len[j];
		w->lvl_start = next;
		w->top = next + kb_acbf_span(f, start, pos);
		if (!kb_sarr_bit(&f->a, w->top))
			return;
		start = next;
		pos = w->top;
	}
}

/* Counter @i up by one: 0 or 1 (saturated).  The caller has the room. */
static int kb_acbf_inc(struct kbloom_acbf *f, __u64 i)
{
	struct kb_acbf_walk w;
	__u64 idx;

	kb_acbf_climb(f, i, &w);
	if (w.c == f->levels) {
		f->a.saturations++;
		return 1;
	}
	if (!w.c) {
		kb_acbf_set(f, i, true);
		kb_acbf_insert0(f, w.top);
		f->lvl_len[2]++;
		return 0;
	}
	kb_acbf_set(f, w.top, true);
	if (w.c + 1 == f->levels)
		return 0;
	idx = kb_acbf_span(f, w.lvl_start, w.top);
	kb_acbf_insert0(f, w.lvl_start + f->lvl_len[w.c + 1] + idx);
	f->lvl_len[w.c + 2]++;
	return 0;
}

/* Counter @i down by one (not at 0, not saturated). */
static void kb_acbf_dec(struct kbloom_acbf *f, __u64 i)
{
	struct kb_acbf_walk w;

	kb_acbf_climb(f, i, &w);
	if (!w.c || w.c == f->levels)
		return;
	kb_acbf_remove(f, w.top);
	f->lvl_len[w.c + 1]--;
	kb_acbf_set(f, w.prev, false);
}

int kbloom_acbf_test(const struct kbloom_acbf *f, const void *key, __u32 len)
{
	struct kb_probe p;
	__u32 i;

	if (!f || !kb_sarr_key_ok(key, len))
		return -EINVAL;
	kb_probe_init(&p, kb_sarr_hash(&f->a, key, len));
	for (i = 0; i < f->a.s.k; i++)
		if (!kb_sarr_bit(&f->a, kb_probe_next(&p, f->m1)))
			return 0;
	return 1;
}

int kbloom_acbf_count(const struct kbloom_acbf *f, const void *key,
		      __u32 len)
{
	struct kb_acbf_walk w;
	struct kb_probe p;
	__u32 i, min = ~0U;

	if (!f || !kb_sarr_key_ok(key, len))
		return -EINVAL;
	kb_probe_init(&p, kb_sarr_hash(&f->a, key, len));
	for (i = 0; i < f->a.s.k && min; i++) {
		kb_acbf_climb(f, kb_probe_next(&p, f->m1), &w);
		if (w.c < min)
			min = w.c;
	}
	return (int)min;
}

int kbloom_acbf_add(struct kbloom_acbf *f, const void *key, __u32 len)
{
	struct kb_probe p;
	__u32 i;
	int ret = 0;

	if (!f || !kb_sarr_key_ok(key, len))
		return -EINVAL;
	if (f->m1 + f->used + f->a.s.k > f->a.s.m)
		return -ENOSPC;
	kb_probe_init(&p, kb_sarr_hash(&f->a, key, len));
	for (i = 0; i < f->a.s.k; i++)
		ret |= kb_acbf_inc(f, kb_probe_next(&p, f->m1));
	f->a.inserted++;
	return ret;
}

int kbloom_acbf_del(struct kbloom_acbf *f, const void *key, __u32 len)
{
	struct kb_probe p;
	__u32 i;
	int ret = kbloom_acbf_test(f, key, len);

	if (ret <= 0)
		return ret ? ret : -ENOENT;
	kb_probe_init(&p, kb_sarr_hash(&f->a, key, len));
	for (i = 0; i < f->a.s.k; i++)
		kb_acbf_dec(f, kb_probe_next(&p, f->m1));
	return 0;
}

/* A filter around the array @a (taken over: freed on error). */
static int kb_acbf_wrap(struct kb_sarr *a, struct kbloom_acbf **fp)
{
	struct kbloom_acbf *f = calloc(1, sizeof(*f));
	int ret = -ENOMEM;

	if (!f)
		goto out_fini;
	f->a = *a;
	f->m1 = a->s.buckets;
	f->levels = a->s.tables;
	f->lvl_len[1] = f->m1;
	ret = kb_acbf_dir_alloc(f);
	if (ret)
		goto out_free_f;
	*fp = f;
	return 0;
out_free_f:
	free(f);
out_fini:
	kb_sarr_fini(a);
	return ret;
}

int kbloom_acbf_create(__u64 m, __u32 k, __u64 capacity, __u32 levels,
		       const struct kbloom_opts *o, struct kbloom_acbf **fp)
{
	struct kb_shape s;
	struct kb_sarr a;
	__u64 m1;
	int ret;

	if (!fp || k > KBLOOM_K_MAX || capacity > m / (k ? k : 1))
		return -EINVAL;
	m1 = (m - (__u64)k * capacity) & ~63ULL;
	kb_acbf_shape_init(&s, m, m1, k,
			   levels ? levels : KBLOOM_ACBF_LEVELS_DEFAULT);
	ret = kb_sarr_init(&a, &s, o);
	if (ret)
		return ret;
	a.capacity = capacity;
	return kb_acbf_wrap(&a, fp);
}

void kbloom_acbf_destroy(struct kbloom_acbf *f)
{
	if (!f)
		return;
	kb_sarr_fini(&f->a);
	free(f->cnt);
	free(f->sup);
	free(f);
}

int kbloom_acbf_stats(const struct kbloom_acbf *f,
		      struct kbloom_acbf_stats *st)
{
	if (!f || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->m = f->a.s.m;
	st->m1 = f->m1;
	st->k = f->a.s.k;
	st->levels = f->levels;
	st->capacity = f->a.capacity;
	st->inserted = f->a.inserted;
	st->used = f->used;
	st->ones = kb_acbf_rank(f, f->m1);
	st->saturations = f->a.saturations;
	return 0;
}

/* (1 - e^(-kn/m1))^k: level 1 is a standard filter of m1 bits. */
double kbloom_acbf_fpr(__u64 m1, __u32 k, __u64 n)
{
	if (!m1 || !k)
		return 1.0;
	return pow(1.0 - exp(-(double)k * (double)n / (double)m1), k);
}

size_t kbloom_acbf_image_size(const struct kbloom_acbf *f)
{
	return f ? kb_sarr_image_size(&f->a) : 0;
}

int kbloom_acbf_save(const struct kbloom_acbf *f, void *buf, size_t buf_len,
		     size_t *image_len)
{
	return f ? kb_sarr_save(&f->a, buf, buf_len, image_len) : -EINVAL;
}

int kbloom_acbf_save_alloc(const struct kbloom_acbf *f, void **buf,
			   size_t *len)
{
	return f && buf ? kb_sarr_save_alloc(&f->a, buf, len) : -EINVAL;
}

/*
 * The level lengths and directory of loaded words (kb_image_verify() has
 * checked them: kb_acbf_payload_ok()).
 */
static void kb_acbf_levels_read(struct kbloom_acbf *f)
{
	__u64 start = 0, len = f->m1;
	__u32 j;

	kb_acbf_dir_build(f, 0, f->a.s.m - 1);
	f->used = 0;
	for (j = 2; j <= f->levels; j++) {
		f->lvl_len[j] = kb_acbf_span(f, start, start + len);
		start += len;
		len = f->lvl_len[j];
		f->used += len;
	}
}

int kbloom_acbf_load(const void *buf, size_t len, struct kbloom_acbf **fp)
{
	struct kb_sarr a;
	int ret;

	if (!fp)
		return -EINVAL;
	ret = kb_sarr_load(buf, len, KBLOOM_TYPE_ACCURATE_COUNTING, &a);
	if (ret)
		return ret;
	ret = kb_acbf_wrap(&a, fp);
	if (!ret)
		kb_acbf_levels_read(*fp);
	return ret;
}
