// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom age-partitioned window: creation from a plan (kb_win_plan())
 * or an explicit (k, l, slice bits), destruction, clearing, the clock and
 * the statistics.  The shape is checked by kb_shape_check(), the one
 * validation every executor uses.
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "window_int.h"
#include "../create_v3.h"

__u64 kbw_monotonic(void *ctx)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + (__u64)ts.tv_nsec;
}

/* A zeroed window of a checked shape: 0, -EINVAL or -ENOMEM. */
int kbw_new(const struct kb_shape *s, __u64 gen_len, __u32 hash_id,
	    __u64 seed, struct kbloom_win **fp)
{
	struct kbloom_win *f;

	if (s->type != KBLOOM_TYPE_AGE_PARTITIONED || kb_shape_check(s) ||
	    !gen_len || (s->update == KB_WIN_CLOCK_NS &&
			 gen_len < KB_WIN_GEN_NS_MIN))
		return -EINVAL;
	f = aligned_alloc(KBW_CACHELINE, sizeof(*f));
	if (!f)
		return -ENOMEM;
	memset(f, 0, sizeof(*f));
	f->s = *s;
	f->slices = kb_win_slices(s->k, s->tables);
	f->nwords = kb_shape_words(s);
	f->words = kb_v3_words_alloc(f->nwords);
	if (!f->words)
		goto err_free_filter;
	f->gen_len = gen_len;
	f->hash_id = hash_id;
	f->seed = seed;
	f->now = kbw_monotonic;
	f->gen_start = kbw_monotonic(NULL);
	*fp = f;
	return 0;

err_free_filter:
	free(f);
	return -ENOMEM;
}

/* The shape of @wp: planned from (load, target) or explicit. */
static int kbw_shape(const struct kbloom_win_params *wp, struct kb_shape *s)
{
	__u64 load = wp->clock == KB_WIN_CLOCK_KEYS ? wp->window :
						      wp->capacity;

	if (wp->reserved || !wp->window || !!wp->fpr_pico == !!wp->slice_bits)
		return -EINVAL;
	if (wp->clock == KB_WIN_CLOCK_KEYS && wp->capacity)
		return -EINVAL;
	if (wp->fpr_pico)
		return kb_win_plan(load, wp->fpr_pico, wp->k, wp->l, wp->clock,
				   s);
	if (wp->capacity)
		return -EINVAL;
	return kb_win_shape_init(s, wp->k, wp->l, wp->slice_bits, wp->clock) ?
	       -EINVAL : 0;
}

int kbloom_win_create(const struct kbloom_win_params *wp,
		      const struct kbloom_opts *opts, struct kbloom_win **fp)
{
	struct kb_shape s;
	__u32 hash_id;
	__u64 seed;
	int ret;

	if (!wp || !fp)
		return -EINVAL;
	ret = kbw_shape(wp, &s);
	if (ret)
		return ret;
	ret = kb_opts_v3(opts, &hash_id, &seed);
	if (ret)
		return ret;
	ret = kbw_new(&s, kb_win_gen_len(wp->window, s.tables), hash_id, seed,
		      fp);
	if (ret)
		return ret;
	if (opts && opts->name)
		strncpy((*fp)->name, opts->name, KBLOOM_NAME_LEN - 1);
	if (wp->fpr_pico) {
		(*fp)->capacity = wp->clock == KB_WIN_CLOCK_KEYS ? wp->window :
								   wp->capacity;
		(*fp)->fpr_pico = wp->fpr_pico;
	}
	return 0;
}

void kbloom_win_destroy(struct kbloom_win *f)
{
	if (!f)
		return;
	free(f->words);
	free(f);
}

int kbloom_win_set_clock(struct kbloom_win *f, kbloom_win_clock_fn now,
			 void *ctx)
{
	__u64 age, t;

	if (!f)
		return -EINVAL;
	age = kbw_age(f);
	f->now = now ? now : kbw_monotonic;
	f->ctx = now ? ctx : NULL;
	t = kbw_now(f);
	kbw_store(&f->gen_start, t > age ? t - age : 0);
	return 0;
}

void kbloom_win_clear(struct kbloom_win *f)
{
	__u64 i;

	if (!f)
		return;
	for (i = 0; i < f->nwords; i++)
		kbw_store(&f->words[i], 0);
	kbw_store(&f->gen_start, kbw_now(f));
	__atomic_store_n(&f->head, 0, __ATOMIC_RELEASE);
	f->gen_keys = 0;
	f->rotations = 0;
	kbw_store(&f->inserted, 0);
}

const char *kbloom_win_name(const struct kbloom_win *f)
{
	return f ? f->name : "";
}

static __u64 kbw_slice_ones(const struct kbloom_win *f, __u32 phys)
{
	__u64 per = f->s.buckets / 64, i, ones = 0;

	for (i = 0; i < per; i++)
		ones += kb_popcount64(kbw_load(&f->words[phys * per + i]));
	return ones;
}

/* Keys of the current generation, and the load of a full one. */
static void kbw_fill(const struct kbloom_win *f, __u64 *g, __u64 *c)
{
	__u32 l = f->s.tables;

	if (!kbw_timed(f)) {
		*g = f->gen_len;
		*c = f->gen_keys;
		return;
	}
	*c = f->gen_keys;
	*g = f->capacity ? kb_win_gen_len(f->capacity, l) : *c;
	*g = *c > *g ? *c : *g;
}

int kbloom_win_stats(const struct kbloom_win *f, struct kbloom_win_stats *st)
{
	__u64 g, c;
	__u32 j;

	if (!f || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->shape = f->s;
	st->hash_id = f->hash_id;
	st->seed = f->seed;
	st->gen_len = f->gen_len;
	st->window = f->gen_len * f->s.tables;
	st->capacity = f->capacity;
	st->fpr_pico = f->fpr_pico;
	st->bytes = f->nwords * 8;
	st->inserted = kbw_load(&f->inserted);
	st->head = __atomic_load_n(&f->head, __ATOMIC_ACQUIRE);
	st->gen_clock = kbw_timed(f) ? kbw_age(f) : f->gen_keys;
	st->rotations = f->rotations;
	for (j = 0; j < f->slices; j++)
		st->ones += kbw_slice_ones(f, j);
	st->ones_newest = kbw_slice_ones(f, st->head);
	st->ones_oldest = kbw_slice_ones(f, kb_win_phys(st->head,
							f->slices - 1,
							f->slices));
	kbw_fill(f, &g, &c);
	st->fpr_now_pico = kb_win_fpr_pico(f->s.k, f->s.tables, f->s.buckets,
					   g, c);
	return 0;
}
