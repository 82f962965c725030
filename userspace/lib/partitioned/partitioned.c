// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom partitioned filters: creation from a plan (kb_part_plan()) or
 * an explicit (k, slice bits), destruction, clearing and statistics.  The
 * shape is checked by kb_shape_check() (uapi/kbloom_variants.h), the one
 * validation every executor uses.
 */
#include <stdint.h>
#include <stdlib.h>

#include "partitioned_int.h"
#include "../create_v3.h"

/* A zeroed filter of a checked shape: 0, -EINVAL or -ENOMEM. */
int kbp_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	    struct kbloom_part **fp)
{
	struct kbloom_part *f;

	if (s->type != KBLOOM_TYPE_PARTITIONED || kb_shape_check(s))
		return -EINVAL;
	f = aligned_alloc(KBP_CACHELINE, sizeof(*f));
	if (!f)
		return -ENOMEM;
	memset(f, 0, sizeof(*f));
	f->s = *s;
	f->nwords = kb_shape_words(s);
	f->words = kb_v3_words_alloc(f->nwords);
	if (!f->words)
		goto err_free_filter;
	f->hash_id = hash_id;
	f->seed = seed;
	*fp = f;
	return 0;

err_free_filter:
	free(f);
	return -ENOMEM;
}

static int kbp_create(const struct kb_shape *s, const struct kbloom_opts *o,
		      struct kbloom_part **fp)
{
	__u32 hash_id;
	__u64 seed;
	int ret;

	ret = kb_opts_v3(o, &hash_id, &seed);
	if (ret)
		return ret;
	ret = kbp_new(s, hash_id, seed, fp);
	if (ret)
		return ret;
	if (o && o->name)
		strncpy((*fp)->name, o->name, KBLOOM_NAME_LEN - 1);
	return 0;
}

int kbloom_part_create(__u64 n, __u64 p_pico, const struct kbloom_opts *opts,
		       struct kbloom_part **fp)
{
	struct kb_shape s;
	int ret;

	if (!fp)
		return -EINVAL;
	ret = kb_part_plan(n, p_pico, &s);
	if (ret)
		return ret;
	ret = kbp_create(&s, opts, fp);
	if (ret)
		return ret;
	(*fp)->capacity = n;
	(*fp)->fpr_pico = p_pico;
	return 0;
}

int kbloom_part_create_ks(__u32 k, __u64 slice_bits,
			  const struct kbloom_opts *opts,
			  struct kbloom_part **fp)
{
	struct kb_shape s;

	if (!fp || kb_part_shape_init(&s, k, slice_bits))
		return -EINVAL;
	return kbp_create(&s, opts, fp);
}

void kbloom_part_destroy(struct kbloom_part *f)
{
	if (!f)
		return;
	free(f->words);
	free(f);
}

void kbloom_part_clear(struct kbloom_part *f)
{
	__u64 i;

	if (!f)
		return;
	for (i = 0; i < f->nwords; i++)
		kbp_store(&f->words[i], 0);
	kbp_store(&f->inserted, 0);
}

const char *kbloom_part_name(const struct kbloom_part *f)
{
	return f ? f->name : "";
}

/* Set bits in all, and of the emptiest and the fullest slice. */
static void kbp_ones(const struct kbloom_part *f, struct kbloom_part_stats *st)
{
	__u64 per = f->s.buckets / 64, w, i, ones;
	__u32 slice;

	st->ones_min = ~0ULL;
	for (slice = 0; slice < f->s.k; slice++) {
		ones = 0;
		for (i = 0; i < per; i++) {
			w = kbp_load(&f->words[slice * per + i]);
			ones += kb_popcount64(w);
		}
		st->ones += ones;
		st->ones_min = ones < st->ones_min ? ones : st->ones_min;
		st->ones_max = ones > st->ones_max ? ones : st->ones_max;
	}
}

int kbloom_part_stats(const struct kbloom_part *f,
		      struct kbloom_part_stats *st)
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
	st->inserted = kbp_load(&f->inserted);
	kbp_ones(f, st);
	st->n_est = kb_n_est(f->s.m, f->s.k, st->ones);
	st->fpr_now_pico = kb_part_fpr_pico(f->s.m, f->s.k, st->inserted);
	return 0;
}
