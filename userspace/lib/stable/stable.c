// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom stable filters: creation from an explicit geometry or with P
 * planned for a stable-point rate (kb_stable_plan()), destruction,
 * clearing, the decrement stream's seed and statistics.  The shape is
 * checked by kb_shape_check() (uapi/kbloom_shape.h), the one validation
 * every executor uses.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>

#include "stable_int.h"
#include "../create_v3.h"

/* A zeroed filter of a checked shape: 0, -EINVAL or -ENOMEM. */
int kbst_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	    struct kbloom_stable **fp)
{
	struct kbloom_stable *f;

	if (s->type != KBLOOM_TYPE_STABLE || kb_shape_check(s))
		return -EINVAL;
	f = aligned_alloc(KBST_CACHELINE, sizeof(*f));
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
	if (getrandom(&f->rng, sizeof(f->rng), 0) != sizeof(f->rng))
		f->rng = seed ^ (__u64)(uintptr_t)f;
	*fp = f;
	return 0;

err_free_filter:
	free(f);
	return -ENOMEM;
}

static int kbst_create(const struct kb_shape *s, const struct kbloom_opts *o,
		      struct kbloom_stable **fp)
{
	__u32 hash_id;
	__u64 seed;
	int ret;

	ret = kb_opts_v3(o, &hash_id, &seed);
	if (ret)
		return ret;
	ret = kbst_new(s, hash_id, seed, fp);
	if (ret)
		return ret;
	if (o && o->name)
		strncpy((*fp)->name, o->name, KBLOOM_NAME_LEN - 1);
	return 0;
}

int kbloom_stable_create(__u64 m, __u32 k, __u32 cell_bits, __u32 p,
			 const struct kbloom_opts *opts,
			 struct kbloom_stable **fp)
{
	struct kb_shape s;

	if (!fp || kb_stable_shape_init(&s, m, k, cell_bits, p))
		return -EINVAL;
	return kbst_create(&s, opts, fp);
}

int kbloom_stable_create_fps(__u64 m, __u32 k, __u32 cell_bits,
			     __u64 fps_pico, const struct kbloom_opts *opts,
			     struct kbloom_stable **fp)
{
	struct kb_shape s;
	int ret;

	if (!fp)
		return -EINVAL;
	kb_stable_shape_init(&s, m, k, cell_bits, 1);
	ret = kb_stable_plan(fps_pico, &s);
	ret = ret ?: kbst_create(&s, opts, fp);
	if (!ret)
		(*fp)->fpr_pico = fps_pico;
	return ret;
}

void kbloom_stable_destroy(struct kbloom_stable *f)
{
	if (!f)
		return;
	free(f->words);
	free(f);
}

void kbloom_stable_reseed(struct kbloom_stable *f, __u64 seed)
{
	if (f)
		kbst_store(&f->rng, seed);
}

void kbloom_stable_clear(struct kbloom_stable *f)
{
	__u64 i;

	if (!f)
		return;
	for (i = 0; i < f->nwords; i++)
		kbst_store(&f->words[i], 0);
	kbst_store(&f->inserted, 0);
}

const char *kbloom_stable_name(const struct kbloom_stable *f)
{
	return f ? f->name : "";
}

int kbloom_stable_stats(const struct kbloom_stable *f,
			struct kbloom_stable_stats *st)
{
	__u64 i, nonzero = 0;

	if (!f || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->shape = f->s;
	st->hash_id = f->hash_id;
	st->seed = f->seed;
	st->fps_pico = kb_stable_fps_pico(&f->s);
	st->bytes = f->nwords * 8;
	st->inserted = kbst_load(&f->inserted);
	for (i = 0; i < f->nwords; i++)
		nonzero += kb_popcount64(kb_stable_nonzero(kbst_load(
					&f->words[i]), f->s.counter_bits));
	st->zeros = f->s.m - nonzero;
	st->zero_ppm = st->zeros * 1000000 / f->s.m;
	st->zero_stable_ppm = kb_stable_zero_ppm(&f->s);
	return 0;
}
