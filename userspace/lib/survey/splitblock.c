// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom split-block filters (uapi/kbloom_var_splitblock.h): creation
 * from a block count or from (n, p) by the split-block rate, destruction,
 * clearing, statistics.
 */
#include <math.h>

#include "splitblock_int.h"

int kbsb_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	     struct kbloom_sb **fp)
{
	struct kbloom_sb *f;

	if (!kb_sb_block_bits(s->type) || kb_shape_check(s) ||
	    !kb_type_hash_ok(s->type, hash_id))
		return -EINVAL;
	f = aligned_alloc(KBA_CACHELINE, sizeof(*f));
	if (!f)
		return -ENOMEM;
	memset(f, 0, sizeof(*f));
	if (kba_init(&f->a, s, hash_id, seed)) {
		free(f);
		return -ENOMEM;
	}
	f->block_words = kb_sb_block_bits(s->type) / 64;
	*fp = f;
	return 0;
}

/* The options of @type: kb_opts_v3()'s, and xxHash64 for split-block. */
static int kbsb_opts(__u32 type, const struct kbloom_opts *o,
		     __u32 *hash_id, __u64 *seed)
{
	struct kbloom_opts t;
	int ret;

	if (!o || o->hash_id != KBLOOM_HASH_XXH64)
		return kb_opts_v3(o, hash_id, seed);
	if (!kb_type_hash_ok(type, o->hash_id))
		return -EINVAL;
	t = *o;
	t.hash_id = 0;
	ret = kb_opts_v3(&t, hash_id, seed);
	*hash_id = KBLOOM_HASH_XXH64;
	return ret;
}

int kbloom_sb_create_blocks(__u32 type, __u64 blocks,
			    const struct kbloom_opts *opts,
			    struct kbloom_sb **fp)
{
	struct kb_shape s = { .type = type, .buckets = blocks };
	__u32 hash_id;
	__u64 seed;
	int ret;

	if (!fp || !kb_sb_block_bits(type) || kb_shape_derive(&s))
		return -EINVAL;
	ret = kbsb_opts(type, opts, &hash_id, &seed);
	if (ret)
		return ret;
	ret = kbsb_new(&s, hash_id, seed, fp);
	if (!ret)
		kba_name(&(*fp)->a, opts);
	return ret;
}

/* Poisson keys per block beyond which every word is full (p = 1). */
#define KBSB_LAMBDA_FULL	1e6

/* sum_i Pois_lambda(i) (1 - (1 - 1/w)^i)^8, summed where it has mass. */
double kbloom_sb_fpr(__u32 type, __u64 m, __u64 n)
{
	double bb = kb_sb_block_bits(type), w, lambda, lo, hi, i, p = 0;

	if (!bb || !m || m % (__u64)bb)
		return -1;
	w = type == KBLOOM_TYPE_ULTRA_FAST ? 64 : 32;
	lambda = (double)n * bb / (double)m;
	if (lambda > KBSB_LAMBDA_FULL)
		return 1;
	lo = floor(lambda - 12 * sqrt(lambda) - 30);
	hi = ceil(lambda + 12 * sqrt(lambda) + 30);
	for (i = lo > 0 ? lo : 0; i <= hi; i++)
		p += exp(i * log(lambda > 0 ? lambda : 1) - lambda -
			 lgamma(i + 1)) *
		     pow(-expm1(i * log1p(-1 / w)), KB_SB_K);
	return lambda > 0 ? p : 0;
}

/* The fewest blocks whose rate for n keys is at most p: 0 if none. */
static __u64 kbsb_plan(__u32 type, __u64 n, double p)
{
	__u64 bb = kb_sb_block_bits(type), lo = 1, hi = KBLOOM_M_MAX / bb;
	__u64 mid;

	if (kbloom_sb_fpr(type, hi * bb, n) > p)
		return 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (kbloom_sb_fpr(type, mid * bb, n) <= p)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

int kbloom_sb_create(__u32 type, __u64 n, __u64 p_pico,
		     const struct kbloom_opts *opts, struct kbloom_sb **fp)
{
	__u64 z;
	int ret;

	if (!fp || !kb_sb_block_bits(type) || !n ||
	    p_pico < KBLOOM_P_TARGET_MIN || p_pico > KBLOOM_P_TARGET_MAX)
		return -EINVAL;
	z = kbsb_plan(type, n, (double)p_pico / KBLOOM_P_UNIT);
	if (!z)
		return -E2BIG;
	/* Parquet's readers (Arrow's among them) want 2^j-byte bitsets */
	if (type == KBLOOM_TYPE_SPLIT_BLOCK)
		z = 1ULL << kb_log2_exact(z);
	if (z > KBLOOM_M_MAX / kb_sb_block_bits(type))
		return -E2BIG;
	ret = kbloom_sb_create_blocks(type, z, opts, fp);
	if (ret)
		return ret;
	(*fp)->a.capacity = n;
	(*fp)->a.fpr_pico = p_pico;
	return 0;
}

void kbloom_sb_destroy(struct kbloom_sb *f)
{
	if (!f)
		return;
	free(f->a.words);
	free(f);
}

void kbloom_sb_clear(struct kbloom_sb *f)
{
	if (f)
		kba_clear(&f->a, &f->inserted);
}

int kbloom_sb_stats(const struct kbloom_sb *f, struct kbloom_sb_stats *st)
{
	if (!f || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->shape = f->a.s;
	st->hash_id = f->a.hash_id;
	st->seed = f->a.seed;
	st->capacity = f->a.capacity;
	st->fpr_pico = f->a.fpr_pico;
	st->bytes = f->a.nwords * 8;
	st->inserted = __atomic_load_n(&f->inserted, __ATOMIC_RELAXED);
	st->ones = kba_ones(&f->a);
	st->fpr_now = kbloom_sb_fpr(f->a.s.type, f->a.s.m, st->inserted);
	return 0;
}
