// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom split-block filters: add and test.  A key's block is
 * kb_sb_block() of its hash, its mask kb_sb_mask(): one bit in each of
 * the block's eight words (uapi/kbloom_var_splitblock.h).
 */
#include "splitblock_int.h"

/*
 * Test (and with @add, set) hash h's mask.  Return: 1 when every bit was
 * set before, 0 otherwise.
 */
static int kbsb_walk(const struct kbloom_sb *f, __u64 h, bool add)
{
	__u64 mask[KB_SB_K], *w;
	int all = 1;
	__u32 j;

	kb_sb_mask(h, f->a.s.type, mask);
	w = &f->a.words[(__u64)kb_sb_block(h, f->a.s.buckets) *
			f->block_words];
	for (j = 0; j < f->block_words; j++) {
		if (kba_mask(&w[j], mask[j], add))
			continue;
		if (!add)
			return 0;
		all = 0;
	}
	return all;
}

int kbloom_sb_add_hash(struct kbloom_sb *f, __u64 h)
{
	if (!f)
		return -EINVAL;
	kbsb_walk(f, h, true);
	__atomic_fetch_add(&f->inserted, 1, __ATOMIC_RELAXED);
	return 0;
}

int kbloom_sb_test_hash(const struct kbloom_sb *f, __u64 h)
{
	return f ? kbsb_walk(f, h, false) : -EINVAL;
}

static bool kbsb_key_ok(const struct kbloom_sb *f, const void *key,
			__u32 len)
{
	return f && key && len >= 1 && len <= KBLOOM_KEY_MAX;
}

int kbloom_sb_add(struct kbloom_sb *f, const void *key, __u32 len)
{
	if (!kbsb_key_ok(f, key, len))
		return -EINVAL;
	return kbloom_sb_add_hash(f, kb_hash(f->a.hash_id, f->a.seed, key,
					     len));
}

int kbloom_sb_test(const struct kbloom_sb *f, const void *key, __u32 len)
{
	if (!kbsb_key_ok(f, key, len))
		return -EINVAL;
	return kbsb_walk(f, kb_hash(f->a.hash_id, f->a.seed, key, len), false);
}
