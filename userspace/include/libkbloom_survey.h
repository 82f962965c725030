/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom: the survey's further variants (issue "Survey variants IV"),
 * each in userspace/lib/survey/ behind this one header, each from the one
 * kb_hash() of uapi/kbloom_hash.h (or a hash id of its own in the
 * contract), each tested against its formula in tests/core/.
 *
 * Errors are negative errno values; bad arguments are -EINVAL and change
 * nothing.
 */
#ifndef _LIBKBLOOM_SURVEY_H
#define _LIBKBLOOM_SURVEY_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "libkbloom.h"

#ifdef __cplusplus
extern "C" {
#endif

/* === one-hashing, ultra-fast, split-block (Parquet), complement === */

/*
 * One-hashing Bloom filter (KBLOOM_TYPE_ONE_HASHING,
 * uapi/kbloom_var_onehash.h): k partitions of distinct prime sizes, probe
 * i at h mod m_i of the one hash h.  Rate prod_i (1 - (1 - 1/m_i)^n).
 * Concurrent adds and tests are safe (relaxed atomics, as in the
 * standard filter).
 */
struct kbloom_oh;

/*
 * Sized for n keys at p (pico units): the partitioned planner's k and
 * slice bits (kb_part_plan()), so at most the slice's prime gap above the
 * target.  Return: 0; -EINVAL (bad n, p or options); -E2BIG; -ENOMEM.
 */
int kbloom_oh_create(__u64 n, __u64 p_pico, const struct kbloom_opts *opts,
		     struct kbloom_oh **fp);
/* k partitions (1..32) in slices of s bits (>= 256, a multiple of 64). */
int kbloom_oh_create_ks(__u32 k, __u64 slice_bits,
			const struct kbloom_opts *opts, struct kbloom_oh **fp);
void kbloom_oh_destroy(struct kbloom_oh *f);
void kbloom_oh_clear(struct kbloom_oh *f);
/* Return: 0; -EINVAL for a NULL filter or key, or a length not 1..64. */
int kbloom_oh_add(struct kbloom_oh *f, const void *key, __u32 len);
/* Return: 1 possibly present, 0 absent, -EINVAL. */
int kbloom_oh_test(const struct kbloom_oh *f, const void *key, __u32 len);

/**
 * struct kbloom_oh_stats - kbloom_oh_stats() output
 * @shape: type, k partitions, m = k s bits, buckets = s
 * @sizes: the k partition sizes m_i (primes, decreasing), 0 beyond k
 * @fpr_now: prod_i (1 - (1 - 1/m_i)^inserted)
 */
struct kbloom_oh_stats {
	struct kb_shape shape;
	__u32 hash_id;
	__u32 reserved;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 bytes;
	__u64 inserted;
	__u64 ones;
	__u32 sizes[KBLOOM_K_MAX];
	double fpr_now;
};

int kbloom_oh_stats(const struct kbloom_oh *f, struct kbloom_oh_stats *st);
/* prod_i (1 - (1 - 1/sizes_i)^n): the paper's rate. */
double kbloom_oh_fpr(const __u32 *sizes, __u32 k, __u64 n);

/*
 * Images: version 3, the slice bits in the tail's @buckets.  Load
 * verifies everything before it allocates (kb_image_verify()'s errors);
 * a valid image of another type is -EOPNOTSUPP.  Save: -EMSGSIZE when
 * @buf_len is short (*@image_len says how much is needed).
 */
size_t kbloom_oh_image_size(const struct kbloom_oh *f);
int kbloom_oh_save(const struct kbloom_oh *f, void *buf, size_t buf_len,
		   size_t *image_len);
int kbloom_oh_save_alloc(const struct kbloom_oh *f, void **buf, size_t *len);
int kbloom_oh_load(const void *buf, size_t len, struct kbloom_oh **fp);

/*
 * Split-block filters (uapi/kbloom_var_splitblock.h): @type
 * KBLOOM_TYPE_ULTRA_FAST (512-bit blocks, one bit in each 64-bit word)
 * or KBLOOM_TYPE_SPLIT_BLOCK (Parquet's 256-bit blocks of 32-bit words).
 * A split-block filter may take KBLOOM_HASH_XXH64 in its options; with
 * xxHash64 and seed 0 it is a Parquet filter (kbloom_sb_parquet_*()).
 * Concurrent adds and tests are safe.
 */
struct kbloom_sb;

/*
 * Sized for n keys at p (pico units): the fewest blocks whose split-block
 * rate (kbloom_sb_fpr()) is at most p; a Parquet filter's block count is
 * then rounded up to a power of two, as Parquet's readers expect.
 * Return: 0; -EINVAL; -E2BIG (more than KBLOOM_M_MAX bits); -ENOMEM.
 */
int kbloom_sb_create(__u32 type, __u64 n, __u64 p_pico,
		     const struct kbloom_opts *opts, struct kbloom_sb **fp);
/* z blocks (1..KBLOOM_M_MAX / block bits). */
int kbloom_sb_create_blocks(__u32 type, __u64 blocks,
			    const struct kbloom_opts *opts,
			    struct kbloom_sb **fp);
void kbloom_sb_destroy(struct kbloom_sb *f);
void kbloom_sb_clear(struct kbloom_sb *f);
int kbloom_sb_add(struct kbloom_sb *f, const void *key, __u32 len);
/* Return: 1 possibly present, 0 absent, -EINVAL. */
int kbloom_sb_test(const struct kbloom_sb *f, const void *key, __u32 len);
/* The same by a key's hash (Parquet's InsertHash and FindHash). */
int kbloom_sb_add_hash(struct kbloom_sb *f, __u64 h);
int kbloom_sb_test_hash(const struct kbloom_sb *f, __u64 h);

/**
 * struct kbloom_sb_stats - kbloom_sb_stats() output
 * @shape: type, k = 8, m bits, buckets = blocks
 * @fpr_now: the split-block rate at @inserted keys
 */
struct kbloom_sb_stats {
	struct kb_shape shape;
	__u32 hash_id;
	__u32 reserved;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 bytes;
	__u64 inserted;
	__u64 ones;
	double fpr_now;
};

int kbloom_sb_stats(const struct kbloom_sb *f, struct kbloom_sb_stats *st);
/*
 * sum_i Pois_lambda(i) (1 - (1 - 1/w)^i)^8, lambda = n B / m: the rate
 * of @type (B = 512, w = 64 or B = 256, w = 32) with m bits and n keys;
 * -1 for another type or m not a positive multiple of B.
 */
double kbloom_sb_fpr(__u32 type, __u64 m, __u64 n);

size_t kbloom_sb_image_size(const struct kbloom_sb *f);
int kbloom_sb_save(const struct kbloom_sb *f, void *buf, size_t buf_len,
		   size_t *image_len);
int kbloom_sb_save_alloc(const struct kbloom_sb *f, void **buf, size_t *len);
int kbloom_sb_load(const void *buf, size_t len, struct kbloom_sb **fp);

/*
 * Parquet's raw bitset (the bytes after a column chunk's
 * BloomFilterHeader): import makes a KBLOOM_TYPE_SPLIT_BLOCK filter with
 * xxHash64 and seed 0 from @len bytes (a multiple of 32, 32..128 MiB:
 * -EINVAL otherwise; -ENOMEM); export writes the filter's bitset, which
 * is kbloom_sb_parquet_size() bytes (-EMSGSIZE when @buf_len is short,
 * -EOPNOTSUPP for a filter Parquet cannot read: another type, hash or
 * seed, or more than 128 MiB).
 */
int kbloom_sb_parquet_import(const void *bitset, size_t len,
			     struct kbloom_sb **fp);
size_t kbloom_sb_parquet_size(const struct kbloom_sb *f);
int kbloom_sb_parquet_export(const struct kbloom_sb *f, void *buf,
			     size_t buf_len);

/*
 * Complement Bloom filter (KBLOOM_TYPE_COMPLEMENT; Lim, Lee, Yim, IEEE
 * Communications Letters 2015): where the universe U is known (every
 * group of a fabric, every address of a plan), a blocked filter of the
 * set S and one of its complement U \ S.  A key of U that S's filter
 * passes and the complement's rejects is certainly in S: no exact lookup.
 * Only a key both filters pass needs one.  Neither filter forgets, so the
 * verdicts are never wrong for keys of U.  Keys outside U must not be
 * asked (the complement filter cannot reject them).
 */
struct kbloom_comp;

enum kbloom_comp_verdict {
	KBLOOM_COMP_ABSENT = 0,		/* S's filter rejects: not in S */
	KBLOOM_COMP_PRESENT = 1,	/* the complement's rejects: in S */
	KBLOOM_COMP_UNSURE = 2,		/* both pass: ask the exact set */
};

/*
 * Two blocked filters (the options' hash and seed for both): S's for
 * @n_set keys at @p_pico, the complement's for @n_comp keys at
 * @pc_pico.  Return: 0; -EINVAL; -E2BIG; -ENOMEM.
 */
int kbloom_comp_create(__u64 n_set, __u64 p_pico, __u64 n_comp,
		       __u64 pc_pico, const struct kbloom_opts *opts,
		       struct kbloom_comp **fp);
void kbloom_comp_destroy(struct kbloom_comp *f);
/* Add a key of S, or of U \ S.  Return: 0, -EINVAL. */
int kbloom_comp_add(struct kbloom_comp *f, const void *key, __u32 len);
int kbloom_comp_add_complement(struct kbloom_comp *f, const void *key,
			       __u32 len);
/* A key of U: enum kbloom_comp_verdict, or -EINVAL. */
int kbloom_comp_classify(const struct kbloom_comp *f, const void *key,
			 __u32 len);

/* The exact membership test: 1 in S, 0 not, negative errno. */
typedef int (*kbloom_comp_exact_fn)(void *ctx, const void *key, __u32 len);

/*
 * Membership of a key of U: 1 or 0, @exact called only for
 * KBLOOM_COMP_UNSURE (its error returned as is); counted in the stats.
 */
int kbloom_comp_query(struct kbloom_comp *f, const void *key, __u32 len,
		      kbloom_comp_exact_fn exact, void *ctx);

/**
 * struct kbloom_comp_stats - kbloom_comp_stats() output
 * @set_keys, @comp_keys: keys added to S's filter and the complement's
 * @queries: kbloom_comp_query() calls answered
 * @absent, @present, @exact: of those, by S's filter, by the complement's
 *     filter, by the exact lookup
 * @bytes: both filters' arrays
 * @fpr_set, @fpr_comp: the blocked formula's rates of the two filters at
 *     their keys
 * @resolved: the predicted share of positives resolved without the exact
 *     lookup, n_S (1 - f_C) / (n_S + n_C f_S)
 */
struct kbloom_comp_stats {
	__u64 set_keys;
	__u64 comp_keys;
	__u64 queries;
	__u64 absent;
	__u64 present;
	__u64 exact;
	__u64 bytes;
	double fpr_set;
	double fpr_comp;
	double resolved;
};

int kbloom_comp_stats(const struct kbloom_comp *f,
		      struct kbloom_comp_stats *st);
/*
 * The two blocked filters (@complement false: S's), to save as images
 * (kbloom_save()) or to load into the XDP paths; NULL for a NULL @f.
 */
const struct kbloom_filter *kbloom_comp_filter(const struct kbloom_comp *f,
					       bool complement);

/* === end of one-hashing, ultra-fast, split-block, complement === */

/* === accurate counting, FP-CBF, retouched, generalized === */

/* === end of accurate counting, FP-CBF, retouched, generalized === */

/* === shifting, weighted, adaptive, distance-sensitive, matrix === */

/* === end of shifting, weighted, adaptive, distance-sensitive, matrix === */

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_SURVEY_H */
