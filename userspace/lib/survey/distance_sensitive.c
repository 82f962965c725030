// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom distance-sensitive Bloom filter
 * (uapi/kbloom_var_distance_sensitive.h): bit sampling into k partitions,
 * "close" when at least t of a key's k bits are set.
 */
#include <stdlib.h>
#include <string.h>

#include "distance_sensitive_int.h"
#include "../create_v3.h"

int kb_dsbf_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
		struct kbloom_dsbf **fp)
{
	struct kbloom_dsbf *f = calloc(1, sizeof(*f));
	__u32 i, j;

	if (!f)
		return -ENOMEM;
	f->s = *s;
	f->nwords = kb_shape_words(s);
	f->words = kb_v3_words_alloc(f->nwords);
	f->pos = calloc((size_t)s->k * s->tables, sizeof(*f->pos));
	if (!f->words || !f->pos) {
		free(f->words);
		free(f->pos);
		free(f);
		return -ENOMEM;
	}
	for (i = 0; i < s->k; i++)
		for (j = 0; j < s->tables; j++)
			f->pos[i * s->tables + j] =
				(__u16)kb_dsbf_pos(seed, i, j, s->slots * 8);
	f->hash_id = hash_id;
	f->seed = seed;
	*fp = f;
	return 0;
}

int kbloom_dsbf_create(__u32 key_len, __u32 k, __u64 s, __u32 b, __u32 t,
		       const struct kbloom_opts *opts,
		       struct kbloom_dsbf **fp)
{
	struct kb_shape sh = { .type = KBLOOM_TYPE_DISTANCE_SENSITIVE, .k = k,
			       .m = s * k, .buckets = s, .tables = b,
			       .slots = key_len, .update = t };
	struct kbloom_dsbf *f;
	__u32 hash_id;
	__u64 seed;
	int ret;

	if (!fp || k > KBLOOM_K_MAX || kb_shape_check(&sh))
		return -EINVAL;
	ret = kb_opts_v3(opts, &hash_id, &seed);
	if (ret)
		return ret;
	ret = kb_dsbf_new(&sh, hash_id, seed, &f);
	if (ret)
		return ret;
	if (opts && opts->name)
		strncpy(f->name, opts->name, KBLOOM_NAME_LEN - 1);
	*fp = f;
	return 0;
}

void kbloom_dsbf_destroy(struct kbloom_dsbf *f)
{
	if (!f)
		return;
	free(f->words);
	free(f->pos);
	free(f);
}

/* Bit of partition @i of @key, over the whole array. */
static __u64 dsbf_bit(const struct kbloom_dsbf *f, __u32 i, const __u8 *key)
{
	const __u16 *pos = f->pos + (size_t)i * f->s.tables;
	__u64 v = 0;
	__u32 j;

	for (j = 0; j < f->s.tables; j++)
		v |= kb_dsbf_key_bit(key, pos[j]) << j;
	return i * f->s.buckets + kb_dsbf_slot(f->seed, i, v, f->s.buckets);
}

static int dsbf_key_ok(const struct kbloom_dsbf *f, const void *key,
		       __u32 len)
{
	return f && key && len == f->s.slots;
}

int kbloom_dsbf_add(struct kbloom_dsbf *f, const void *key, __u32 len)
{
	__u64 bit;
	__u32 i;

	if (!dsbf_key_ok(f, key, len))
		return -EINVAL;
	for (i = 0; i < f->s.k; i++) {
		bit = dsbf_bit(f, i, key);
		__atomic_fetch_or(&f->words[bit / 64], 1ULL << (bit % 64),
				  __ATOMIC_RELAXED);
	}
	__atomic_fetch_add(&f->inserted, 1, __ATOMIC_RELAXED);
	return 0;
}

int kbloom_dsbf_hits(const struct kbloom_dsbf *f, const void *key,
		     __u32 len)
{
	__u64 bit, w;
	__u32 i;
	int n = 0;

	if (!dsbf_key_ok(f, key, len))
		return -EINVAL;
	for (i = 0; i < f->s.k; i++) {
		bit = dsbf_bit(f, i, key);
		w = __atomic_load_n(&f->words[bit / 64], __ATOMIC_RELAXED);
		n += (w >> (bit % 64)) & 1;
	}
	return n;
}

int kbloom_dsbf_test(const struct kbloom_dsbf *f, const void *key,
		     __u32 len)
{
	int n = kbloom_dsbf_hits(f, key, len);

	return n < 0 ? n : n >= (int)f->s.update;
}
