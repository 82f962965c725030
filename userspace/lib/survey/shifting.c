// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom shifting Bloom filter (uapi/kbloom_var_shifting.h): one
 * 512-bit block per key; membership, association and multiplicity are
 * the same k base positions shifted by a mode's offset.
 */
#include <stdlib.h>
#include <string.h>

#include "shifting_int.h"
#include "../create_v3.h"

int kb_shbf_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
		struct kbloom_shbf **fp)
{
	struct kbloom_shbf *f = calloc(1, sizeof(*f));

	if (!f)
		return -ENOMEM;
	f->s = *s;
	f->nwords = kb_shape_words(s);
	f->words = kb_v3_words_alloc(f->nwords);
	if (!f->words) {
		free(f);
		return -ENOMEM;
	}
	f->hash_id = hash_id;
	f->seed = seed;
	*fp = f;
	return 0;
}

int kbloom_shbf_create(__u32 mode, __u64 m, __u32 k, __u32 cmax,
		       const struct kbloom_opts *opts, struct kbloom_shbf **fp)
{
	struct kb_shape s = { .type = KBLOOM_TYPE_SHIFTING, .k = k, .m = m,
			      .update = mode, .tables = cmax };
	struct kbloom_shbf *f;
	__u32 hash_id;
	__u64 seed;
	int ret;

	if (!fp || kb_shape_check(&s))
		return -EINVAL;
	ret = kb_opts_v3(opts, &hash_id, &seed);
	if (ret)
		return ret;
	ret = kb_shbf_new(&s, hash_id, seed, &f);
	if (ret)
		return ret;
	if (opts && opts->name)
		strncpy(f->name, opts->name, KBLOOM_NAME_LEN - 1);
	*fp = f;
	return 0;
}

void kbloom_shbf_destroy(struct kbloom_shbf *f)
{
	if (!f)
		return;
	free(f->words);
	free(f);
}

/* The hash of a key of valid length for @mode into @h, or -EINVAL. */
static int shbf_hash(const struct kbloom_shbf *f, __u32 mode,
		     const void *key, __u32 len, __u64 *h)
{
	if (!f || !key || !len || len > KBLOOM_KEY_MAX || f->s.update != mode)
		return -EINVAL;
	*h = kb_hash(f->hash_id, f->seed, key, len);
	return 0;
}

static __u64 *shbf_block(const struct kbloom_shbf *f, __u64 h)
{
	return f->words + kb_shbf_block(h, f->s.m) * KBLOOM_BLOCK_WORDS;
}

static void shbf_set(struct kbloom_shbf *f, __u64 h, __u32 off)
{
	__u64 mask[KBLOOM_BLOCK_WORDS], *blk = shbf_block(f, h);
	__u32 w;

	kb_shbf_mask(h, f->s.k, off, mask);
	for (w = 0; w < KBLOOM_BLOCK_WORDS; w++)
		if (mask[w])
			__atomic_fetch_or(&blk[w], mask[w], __ATOMIC_RELAXED);
}

static void shbf_counted(struct kbloom_shbf *f)
{
	__atomic_fetch_add(&f->inserted, 1, __ATOMIC_RELAXED);
}

/* 1 when the k bits at @off are all set in the key's block @blk. */
static int shbf_has(const __u64 *blk, __u64 h, __u32 k, __u32 off)
{
	__u64 mask[KBLOOM_BLOCK_WORDS], w;
	__u32 i;

	kb_shbf_mask(h, k, off, mask);
	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++) {
		w = __atomic_load_n(&blk[i], __ATOMIC_RELAXED);
		if ((w & mask[i]) != mask[i])
			return 0;
	}
	return 1;
}

int kbloom_shbf_add(struct kbloom_shbf *f, const void *key, __u32 len)
{
	__u64 h;

	if (shbf_hash(f, KB_SHBF_MEMBERSHIP, key, len, &h))
		return -EINVAL;
	shbf_set(f, h, 0);
	shbf_set(f, h, kb_shbf_off_member(h));
	shbf_counted(f);
	return 0;
}

int kbloom_shbf_test(const struct kbloom_shbf *f, const void *key, __u32 len)
{
	const __u64 *blk;
	__u64 h;

	if (shbf_hash(f, KB_SHBF_MEMBERSHIP, key, len, &h))
		return -EINVAL;
	blk = shbf_block(f, h);
	return shbf_has(blk, h, f->s.k, 0) &&
	       shbf_has(blk, h, f->s.k, kb_shbf_off_member(h));
}

int kbloom_shbf_assoc_add(struct kbloom_shbf *f, const void *key, __u32 len,
			  __u32 cls)
{
	__u64 h;

	if (cls != KB_SHBF_S1 && cls != KB_SHBF_BOTH && cls != KB_SHBF_S2)
		return -EINVAL;
	if (shbf_hash(f, KB_SHBF_ASSOCIATION, key, len, &h))
		return -EINVAL;
	shbf_set(f, h, kb_shbf_off_assoc(h, cls));
	shbf_counted(f);
	return 0;
}

int kbloom_shbf_assoc_query(const struct kbloom_shbf *f, const void *key,
			    __u32 len)
{
	static const __u32 cls[] = { KB_SHBF_S1, KB_SHBF_BOTH, KB_SHBF_S2 };
	const __u64 *blk;
	__u64 h;
	int i, ans = 0;

	if (shbf_hash(f, KB_SHBF_ASSOCIATION, key, len, &h))
		return -EINVAL;
	blk = shbf_block(f, h);
	for (i = 0; i < 3; i++)
		if (shbf_has(blk, h, f->s.k, kb_shbf_off_assoc(h, cls[i])))
			ans |= cls[i];
	return ans;
}

int kbloom_shbf_count_add(struct kbloom_shbf *f, const void *key, __u32 len,
			  __u32 count)
{
	__u64 h;

	if (!f || !count || count > f->s.tables)
		return -EINVAL;
	if (shbf_hash(f, KB_SHBF_MULTIPLICITY, key, len, &h))
		return -EINVAL;
	shbf_set(f, h, count - 1);
	shbf_counted(f);
	return 0;
}

int kbloom_shbf_count(const struct kbloom_shbf *f, const void *key,
		      __u32 len)
{
	const __u64 *blk;
	__u64 h;
	__u32 c;

	if (shbf_hash(f, KB_SHBF_MULTIPLICITY, key, len, &h))
		return -EINVAL;
	blk = shbf_block(f, h);
	for (c = f->s.tables; c >= 1; c--)
		if (shbf_has(blk, h, f->s.k, c - 1))
			return (int)c;
	return 0;
}

const void *kbloom_shbf_line(const struct kbloom_shbf *f, const void *key,
			     __u32 len)
{
	__u64 h;

	if (!f || !key || !len || len > KBLOOM_KEY_MAX)
		return NULL;
	h = kb_hash(f->hash_id, f->seed, key, len);
	return shbf_block(f, h);
}

const __u64 *kbloom_shbf_words(const struct kbloom_shbf *f, __u64 *nwords)
{
	if (!f)
		return NULL;
	if (nwords)
		*nwords = f->nwords;
	return f->words;
}

__u64 kbloom_shbf_inserted(const struct kbloom_shbf *f)
{
	return f ? __atomic_load_n(&f->inserted, __ATOMIC_RELAXED) : 0;
}
