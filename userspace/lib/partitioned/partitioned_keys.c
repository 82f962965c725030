// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom partitioned filters: add and test.  Probe i is bit
 * kb_part_next() of slice i (uapi/kbloom_partitioned.h), the position
 * kbloom.ko and its kfuncs use.
 */
#include "partitioned_int.h"

static bool kbp_key_ok(const void *key, __u32 len)
{
	return key && len >= 1 && len <= KBLOOM_KEY_MAX;
}

int kbloom_part_add(struct kbloom_part *f, const void *key, __u32 len)
{
	struct kb_probe p;
	__u64 bit, *w;
	__u32 i;

	if (!f || !kbp_key_ok(key, len))
		return -EINVAL;
	kb_probe_init(&p, kb_hash(f->hash_id, f->seed, key, len));
	for (i = 0; i < f->s.k; i++) {
		bit = kb_part_next(&p, i, f->s.buckets);
		w = &f->words[bit >> 6];
		if (!(kbp_load(w) & (1ULL << (bit & 63))))
			__atomic_fetch_or(w, 1ULL << (bit & 63),
					  __ATOMIC_RELAXED);
	}
	__atomic_fetch_add(&f->inserted, 1, __ATOMIC_RELAXED);
	return 0;
}

int kbloom_part_test(const struct kbloom_part *f, const void *key,
		     __u32 len)
{
	struct kb_probe p;
	__u64 bit;
	__u32 i;

	if (!f || !kbp_key_ok(key, len))
		return -EINVAL;
	kb_probe_init(&p, kb_hash(f->hash_id, f->seed, key, len));
	for (i = 0; i < f->s.k; i++) {
		bit = kb_part_next(&p, i, f->s.buckets);
		if (!(kbp_load(&f->words[bit >> 6]) & (1ULL << (bit & 63))))
			return 0;
	}
	return 1;
}
