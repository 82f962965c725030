// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom partitioned filters: add and test.  Probe i is bit
 * kb_part_next() of slice i (uapi/kbloom_partitioned.h), the position
 * kbloom.ko and its kfuncs use.
 */
#include "partitioned_int.h"

/*
 * Walk the key's k bits: a test stops at the first clear one, an add sets
 * it (atomic OR, only when clear) and goes on.  Return: 1 when every bit
 * was set before, 0 otherwise; -EINVAL for a bad key.
 */
static int kbp_walk(const struct kbloom_part *f, const void *key, __u32 len,
		    bool add)
{
	__u64 bit, mask, *w;
	struct kb_probe p;
	int all = 1;
	__u32 i;

	if (!f || !key || len < 1 || len > KBLOOM_KEY_MAX)
		return -EINVAL;
	kb_probe_init(&p, kb_hash(f->hash_id, f->seed, key, len));
	for (i = 0; i < f->s.k; i++) {
		bit = kb_part_next(&p, i, f->s.buckets);
		w = &f->words[bit >> 6];
		mask = 1ULL << (bit & 63);
		if (kbp_load(w) & mask)
			continue;
		if (!add)
			return 0;
		__atomic_fetch_or(w, mask, __ATOMIC_RELAXED);
		all = 0;
	}
	return all;
}

int kbloom_part_add(struct kbloom_part *f, const void *key, __u32 len)
{
	int ret = kbp_walk(f, key, len, true);

	if (ret < 0)
		return ret;
	__atomic_fetch_add(&f->inserted, 1, __ATOMIC_RELAXED);
	return 0;
}

int kbloom_part_test(const struct kbloom_part *f, const void *key,
		     __u32 len)
{
	return kbp_walk(f, key, len, false);
}
