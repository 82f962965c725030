// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom deletable filters: creation from a plan (kb_del_plan()) or an
 * explicit (m, k, region bits), destruction, clearing and statistics.
 * The shape is checked by kb_shape_check() (uapi/kbloom_shape.h), the one
 * validation every executor uses.
 */
#include <stdint.h>
#include <stdlib.h>

#include "deletable_int.h"
#include "../create_v3.h"

/* A filter object of shape @s over no words yet: NULL on ENOMEM. */
static struct kbloom_del *kbd_alloc(const struct kb_shape *s, __u32 hash_id,
				    __u64 seed)
{
	struct kbloom_del *f;

	f = aligned_alloc(KBD_CACHELINE, sizeof(*f));
	if (!f)
		return NULL;
	memset(f, 0, sizeof(*f));
	f->s = *s;
	f->shift = kb_del_shift(s->buckets);
	f->nwords = kb_shape_words(s);
	f->hash_id = hash_id;
	f->seed = seed;
	return f;
}

/* A zeroed filter of a checked shape: 0, -EINVAL or -ENOMEM. */
int kbd_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	    struct kbloom_del **fp)
{
	struct kbloom_del *f;

	if (s->type != KBLOOM_TYPE_DELETABLE || kb_shape_check(s))
		return -EINVAL;
	f = kbd_alloc(s, hash_id, seed);
	if (!f)
		return -ENOMEM;
	f->words = kb_v3_words_alloc(f->nwords);
	if (!f->words)
		goto err_free_filter;
	*fp = f;
	return 0;

err_free_filter:
	free(f);
	return -ENOMEM;
}

static int kbd_create(const struct kb_shape *s, const struct kbloom_opts *o,
		      struct kbloom_del **fp)
{
	__u32 hash_id;
	__u64 seed;
	int ret;

	ret = kb_opts_v3(o, &hash_id, &seed);
	if (ret)
		return ret;
	ret = kbd_new(s, hash_id, seed, fp);
	if (ret)
		return ret;
	if (o && o->name)
		strncpy((*fp)->name, o->name, KBLOOM_NAME_LEN - 1);
	return 0;
}

int kbloom_del_create(__u64 n, __u64 p_pico, __u64 region_bits,
		      const struct kbloom_opts *opts, struct kbloom_del **fp)
{
	struct kb_shape s;
	int ret;

	if (!fp)
		return -EINVAL;
	ret = kb_del_plan(n, p_pico, region_bits, &s);
	if (ret)
		return ret;
	ret = kbd_create(&s, opts, fp);
	if (ret)
		return ret;
	(*fp)->capacity = n;
	(*fp)->fpr_pico = p_pico;
	return 0;
}

int kbloom_del_create_mk(__u64 m, __u32 k, __u64 region_bits,
			 const struct kbloom_opts *opts,
			 struct kbloom_del **fp)
{
	struct kb_shape s;

	if (!fp || kb_del_shape_init(&s, k, m, region_bits))
		return -EINVAL;
	return kbd_create(&s, opts, fp);
}

int kbloom_del_create_in(const struct kb_shape *s, __u32 hash_id,
			 __u64 seed, __u64 *words, __u64 nwords,
			 struct kbloom_del **fp)
{
	struct kbloom_del *f;

	if (!s || !words || !fp || hash_id > KBLOOM_HASH_MAX ||
	    s->type != KBLOOM_TYPE_DELETABLE || kb_shape_check(s) ||
	    nwords < kb_shape_words(s))
		return -EINVAL;
	f = kbd_alloc(s, hash_id ? hash_id : KBLOOM_HASH_FAST, seed);
	if (!f)
		return -ENOMEM;
	f->words = words;
	f->ext = true;
	*fp = f;
	return 0;
}

void kbloom_del_destroy(struct kbloom_del *f)
{
	if (!f)
		return;
	if (!f->ext)
		free(f->words);
	free(f);
}

void kbloom_del_clear(struct kbloom_del *f)
{
	__u64 i;

	if (!f)
		return;
	for (i = 0; i < f->nwords; i++)
		kbd_store(&f->words[i], 0);
	kbd_store(&f->inserted, 0);
	kbd_store(&f->deleted, 0);
	kbd_store(&f->refused, 0);
}

const char *kbloom_del_name(const struct kbloom_del *f)
{
	return f ? f->name : "";
}

/* Set bits of words [from, to). */
static __u64 kbd_ones(const struct kbloom_del *f, __u64 from, __u64 to)
{
	__u64 ones = 0;

	for (; from < to; from++)
		ones += kb_popcount64(kbd_load(&f->words[from]));
	return ones;
}

int kbloom_del_stats(const struct kbloom_del *f, struct kbloom_del_stats *st)
{
	__u64 body;

	if (!f || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	body = f->s.m / 64;
	st->shape = f->s;
	st->hash_id = f->hash_id;
	st->seed = f->seed;
	st->capacity = f->capacity;
	st->fpr_pico = f->fpr_pico;
	st->bytes = f->nwords * 8;
	st->regions = kb_del_regions(f->s.m, f->s.buckets);
	st->inserted = kbd_load(&f->inserted);
	st->deleted = kbd_load(&f->deleted);
	st->refused = kbd_load(&f->refused);
	st->ones = kbd_ones(f, 0, body);
	st->collided = kbd_ones(f, body, f->nwords);
	st->n_est = kb_n_est(f->s.m, f->s.k, st->ones);
	st->fpr_now_pico = kb_del_fpr_pico(f->s.m, f->s.k, st->inserted);
	return 0;
}
