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

/*
 * Accurate counting (ACBF, type KBLOOM_TYPE_ACCURATE_COUNTING; layout
 * uapi/kbloom_var_acbf.h): m bits, of which level 1 (m1 bits) answers
 * membership and the upper levels hold every counter exactly, found by
 * popcount offsets.  An add or delete shifts the upper levels (O(m) bit
 * moves): library only, one writer at a time, readers not concurrent
 * with writers.
 */
struct kbloom_acbf;

#define KBLOOM_ACBF_LEVELS_DEFAULT	15U	/* counts 0..15, as 4-bit counters */

/**
 * kbloom_acbf_create() - an ACBF of @m bits planned for @capacity keys
 * @m: bits in all, a multiple of 64 (4 m' for the bytes of m' 4-bit counters)
 * @k: probes, 1..KBLOOM_K_MAX
 * @capacity: keys it must hold: level 1 is m - k @capacity bits (rounded
 *     down to 64), the upper levels the rest (the paper's 4m - kn)
 * @levels: 2..32 (the largest count); 0: KBLOOM_ACBF_LEVELS_DEFAULT
 * @o: NULL or options (hash, seed, name; counter_bits must be 0)
 *
 * Return: 0; -EINVAL for a shape kb_shape_check() refuses (level 1 below
 * 64 bits) or bad options; -ENOMEM.
 */
int kbloom_acbf_create(__u64 m, __u32 k, __u64 capacity, __u32 levels,
		       const struct kbloom_opts *o, struct kbloom_acbf **fp);
void kbloom_acbf_destroy(struct kbloom_acbf *f);

/*
 * Add a key: 0; 1 when a counter was saturated (counted); -ENOSPC when
 * the upper levels have no room for its k bits (nothing changed); -EINVAL.
 */
int kbloom_acbf_add(struct kbloom_acbf *f, const void *key, __u32 len);
/*
 * Add @count keys of @key_len bytes each, packed at @keys: the same
 * filter as one kbloom_acbf_add() per key, in O(m + k @count) instead of
 * O(m) per counter unit.  Return: 0; 1 when a counter was saturated;
 * -ENOSPC when the upper levels have no room for k @count more bits
 * (nothing changed); -EINVAL; -ENOMEM (nothing changed).
 */
int kbloom_acbf_add_many(struct kbloom_acbf *f, const void *keys,
			 __u32 key_len, __u64 count);
/* Delete a key: 0; -ENOENT when it tests absent (nothing changed). */
int kbloom_acbf_del(struct kbloom_acbf *f, const void *key, __u32 len);
/* 1 possibly present, 0 absent, -EINVAL. */
int kbloom_acbf_test(const struct kbloom_acbf *f, const void *key, __u32 len);
/* The key's count (the smallest of its counters, exact), or -EINVAL. */
int kbloom_acbf_count(const struct kbloom_acbf *f, const void *key,
		      __u32 len);

/**
 * struct kbloom_acbf_stats - geometry and state
 * @m: bits in all; @m1: level-1 bits; @levels: most levels
 * @used: bits the upper levels take now (the sum of the counters)
 * @ones: level-1 ones (non-zero counters)
 */
struct kbloom_acbf_stats {
	__u64 m;
	__u64 m1;
	__u32 k;
	__u32 levels;
	__u64 capacity;
	__u64 inserted;
	__u64 used;
	__u64 ones;
	__u64 saturations;
};

int kbloom_acbf_stats(const struct kbloom_acbf *f,
		      struct kbloom_acbf_stats *st);

/* The paper's rate (1 - e^(-kn/m1))^k; m1 = 4m - kn at capacity. */
double kbloom_acbf_fpr(__u64 m1, __u32 k, __u64 n);

size_t kbloom_acbf_image_size(const struct kbloom_acbf *f);
int kbloom_acbf_save(const struct kbloom_acbf *f, void *buf, size_t buf_len,
		     size_t *image_len);
int kbloom_acbf_save_alloc(const struct kbloom_acbf *f, void **buf,
			   size_t *len);
/* As kbloom_vicbf_load(); -EBADMSG also for levels that are no state. */
int kbloom_acbf_load(const void *buf, size_t len, struct kbloom_acbf **fp);

/*
 * FP-CBF (type KBLOOM_TYPE_FP_COUNTING; uapi/kbloom_var_fpcbf.h): m cells
 * of a counter and an XOR fingerprint field.  Single writer; readers not
 * concurrent with writers.
 */
struct kbloom_fpcbf;

/**
 * kbloom_fpcbf_create() - an FP-CBF of @m cells
 * @m: cells, a multiple of 64; @k: probes, 1..KBLOOM_K_MAX
 * @counter_bits: 2..8; @fp_bits: 1..24
 *
 * Return: 0; -EINVAL for a shape out of range or bad options; -ENOMEM.
 */
int kbloom_fpcbf_create(__u64 m, __u32 k, __u32 counter_bits, __u32 fp_bits,
			const struct kbloom_opts *o, struct kbloom_fpcbf **fp);
void kbloom_fpcbf_destroy(struct kbloom_fpcbf *f);
/* 0; 1 when a counter was saturated; -EINVAL. */
int kbloom_fpcbf_add(struct kbloom_fpcbf *f, const void *key, __u32 len);
/* 0; -ENOENT when the key tests absent (nothing changed); -EINVAL. */
int kbloom_fpcbf_del(struct kbloom_fpcbf *f, const void *key, __u32 len);
int kbloom_fpcbf_test(const struct kbloom_fpcbf *f, const void *key,
		      __u32 len);

struct kbloom_fpcbf_stats {
	__u64 m;
	__u32 k;
	__u32 counter_bits;
	__u32 fp_bits;
	__u32 reserved;
	__u64 bytes;
	__u64 inserted;
	__u64 saturations;
};

int kbloom_fpcbf_stats(const struct kbloom_fpcbf *f,
		       struct kbloom_fpcbf_stats *st);
/*
 * The paper's rate at n keys: q^k, q = P(X >= 2) + P(X = 1) 2^-f, X the
 * keys of a cell, binomial(k n, 1/m).
 */
double kbloom_fpcbf_fpr(__u64 m, __u32 k, __u64 n, __u32 fp_bits);

size_t kbloom_fpcbf_image_size(const struct kbloom_fpcbf *f);
int kbloom_fpcbf_save(const struct kbloom_fpcbf *f, void *buf, size_t buf_len,
		      size_t *image_len);
int kbloom_fpcbf_save_alloc(const struct kbloom_fpcbf *f, void **buf,
			    size_t *len);
int kbloom_fpcbf_load(const void *buf, size_t len, struct kbloom_fpcbf **fp);

/*
 * Retouched (RBF, type KBLOOM_TYPE_RETOUCHED; uapi/kbloom_var_rbf.h): a
 * standard filter whose bits are cleared to remove false positives, at
 * the price of false negatives.  It keeps, beside the bits, how many
 * added keys hash to each bit (not in images): the selective policies
 * that need it (MIN_FN, RATIO) refuse a loaded filter.  Single writer.
 */
struct kbloom_rbf;

/* The bit-clearing policies of kbloom_rbf_retouch() */
#define KBLOOM_RBF_RANDOM	1U	/* a random one of the key's bits */
#define KBLOOM_RBF_MIN_FN	2U	/* the bit fewest members hash to */
#define KBLOOM_RBF_MAX_FP	3U	/* the bit most of the keys hash to */
#define KBLOOM_RBF_RATIO	4U	/* fewest members per such key */

int kbloom_rbf_create(__u64 m, __u32 k, const struct kbloom_opts *o,
		      struct kbloom_rbf **fp);
void kbloom_rbf_destroy(struct kbloom_rbf *f);
int kbloom_rbf_add(struct kbloom_rbf *f, const void *key, __u32 len);
int kbloom_rbf_test(const struct kbloom_rbf *f, const void *key, __u32 len);

/*
 * Random bit clearing: clear @nbits of the set bits, drawn uniformly
 * (from @seed).  Return: the bits cleared (fewer when fewer are set), or
 * -EINVAL.
 */
long kbloom_rbf_clear_random(struct kbloom_rbf *f, __u64 nbits, __u64 seed);

/**
 * kbloom_rbf_retouch() - selective clearing of known false positives
 * @policy: KBLOOM_RBF_RANDOM .. KBLOOM_RBF_RATIO
 * @keys: @count keys of @key_len (1..KBLOOM_KEY_MAX) bytes back to back:
 *     the false positives to remove (keys that test absent are skipped)
 *
 * Each key still present loses one of its bits, chosen by @policy
 * (KBLOOM_RBF_RANDOM draws from @seed).
 * Return: the bits cleared; -EINVAL for a bad policy or batch;
 * -ENODATA for MIN_FN or RATIO on a loaded filter (no member counts).
 */
long kbloom_rbf_retouch(struct kbloom_rbf *f, __u32 policy, const void *keys,
			__u32 key_len, __u64 count, __u64 seed);

/**
 * kbloom_rbf_retouch_ratio() - ratio selection within a bound
 *
 * As kbloom_rbf_retouch() with KBLOOM_RBF_RATIO, but a key's chosen bit
 * is cleared only when the added keys on it are at most @max_ratio times
 * the batch's keys on it (0: only bits no added key uses: no false
 * negative); the other keys stay present.
 * Return: the bits cleared, -EINVAL, -ENODATA (a loaded filter).
 */
long kbloom_rbf_retouch_ratio(struct kbloom_rbf *f, const void *keys,
			      __u32 key_len, __u64 count, __u32 max_ratio);

/*
 * Free the member counts (4 bytes per bit) of a filter whose retouching
 * is done: its bits, answers and image stay; from then on it is as a
 * loaded filter (MIN_FN and RATIO give -ENODATA).  Return: 0, -EINVAL.
 */
int kbloom_rbf_drop_counts(struct kbloom_rbf *f);

struct kbloom_rbf_stats {
	__u64 m;
	__u32 k;
	__u32 counts;	/* 1 when member counts are known */
	__u64 inserted;
	__u64 ones;
	__u64 cleared;
};

int kbloom_rbf_stats(const struct kbloom_rbf *f, struct kbloom_rbf_stats *st);

/*
 * Random clearing of @s of @ones set bits: the share of keys (members,
 * or false positives: the paper's ratio is 1) that lose one of their k
 * bits, 1 - C(ones - k, s) / C(ones, s).
 */
double kbloom_rbf_random_loss(__u64 ones, __u64 s, __u32 k);

size_t kbloom_rbf_image_size(const struct kbloom_rbf *f);
int kbloom_rbf_save(const struct kbloom_rbf *f, void *buf, size_t buf_len,
		    size_t *image_len);
int kbloom_rbf_save_alloc(const struct kbloom_rbf *f, void **buf,
			  size_t *len);
int kbloom_rbf_load(const void *buf, size_t len, struct kbloom_rbf **fp);

/*
 * Generalized (GBF, type KBLOOM_TYPE_GENERALIZED; uapi/kbloom_var_gbf.h):
 * k1 set and k0 reset probes over m bits of any initial contents.
 */
struct kbloom_gbf;

/* @m bits (multiple of 64), @k1 >= 1 set, @k0 >= 1 reset, k1 + k0 <= 32. */
int kbloom_gbf_create(__u64 m, __u32 k1, __u32 k0,
		      const struct kbloom_opts *o, struct kbloom_gbf **fp);
void kbloom_gbf_destroy(struct kbloom_gbf *f);
/* Random initial contents: each bit 1 with probability 1/2 (from @seed). */
void kbloom_gbf_fill_random(struct kbloom_gbf *f, __u64 seed);
int kbloom_gbf_add(struct kbloom_gbf *f, const void *key, __u32 len);
int kbloom_gbf_test(const struct kbloom_gbf *f, const void *key, __u32 len);

struct kbloom_gbf_stats {
	__u64 m;
	__u32 k1;
	__u32 k0;
	__u64 inserted;
	__u64 ones;
};

int kbloom_gbf_stats(const struct kbloom_gbf *f, struct kbloom_gbf_stats *st);

/*
 * The paper's rates after n adds into m bits whose bits start at 1 with
 * probability @b0: false positives of a key never added, and false
 * negatives averaged over the n added keys.
 */
double kbloom_gbf_fpr(__u64 m, __u32 k1, __u32 k0, __u64 n, double b0);
double kbloom_gbf_fnr(__u64 m, __u32 k1, __u32 k0, __u64 n, double b0);

size_t kbloom_gbf_image_size(const struct kbloom_gbf *f);
int kbloom_gbf_save(const struct kbloom_gbf *f, void *buf, size_t buf_len,
		    size_t *image_len);
int kbloom_gbf_save_alloc(const struct kbloom_gbf *f, void **buf,
			  size_t *len);
int kbloom_gbf_load(const void *buf, size_t len, struct kbloom_gbf **fp);

/* === end of accurate counting, FP-CBF, retouched, generalized === */

/* === shifting, weighted, adaptive, distance-sensitive, matrix === */
#include "kbloom/uapi/kbloom_var_shifting.h"
#include "kbloom/uapi/kbloom_var_distance_sensitive.h"

/*
 * Shifting Bloom filter (KBLOOM_TYPE_SHIFTING, uapi/kbloom_var_shifting.h):
 * membership, association (which of two sets) or multiplicity (a count)
 * encoded as offsets inside one 512-bit block per key.  The mode is fixed
 * at creation (KB_SHBF_MEMBERSHIP, _ASSOCIATION, _MULTIPLICITY); calling
 * another mode's function is -EINVAL.
 */
struct kbloom_shbf;

/* @m bits (a multiple of 512), @k base positions (1..32), @cmax counts
 * (multiplicity: 1..57; else 0).  Return: 0, -EINVAL or -ENOMEM. */
int kbloom_shbf_create(__u32 mode, __u64 m, __u32 k, __u32 cmax,
		       const struct kbloom_opts *opts, struct kbloom_shbf **fp);
void kbloom_shbf_destroy(struct kbloom_shbf *f);
/* Membership: add; test gives 1 (possibly present), 0 or -EINVAL. */
int kbloom_shbf_add(struct kbloom_shbf *f, const void *key, __u32 len);
int kbloom_shbf_test(const struct kbloom_shbf *f, const void *key, __u32 len);
/* Association: add to class KB_SHBF_S1, _BOTH or _S2; a query gives the
 * mask of the classes whose bits are all set (0: in neither set). */
int kbloom_shbf_assoc_add(struct kbloom_shbf *f, const void *key, __u32 len,
			  __u32 cls);
int kbloom_shbf_assoc_query(const struct kbloom_shbf *f, const void *key,
			    __u32 len);
/* Multiplicity: add a key with its count (1..cmax) once; the query gives
 * the largest count whose bits are all set, 0 when absent. */
int kbloom_shbf_count_add(struct kbloom_shbf *f, const void *key, __u32 len,
			  __u32 count);
int kbloom_shbf_count(const struct kbloom_shbf *f, const void *key,
		      __u32 len);
/* The 64-byte block a key's query reads (one cache line), for tests. */
const void *kbloom_shbf_line(const struct kbloom_shbf *f, const void *key,
			     __u32 len);
/* The word array (relaxed loads under writers) and keys added. */
const __u64 *kbloom_shbf_words(const struct kbloom_shbf *f, __u64 *nwords);
__u64 kbloom_shbf_inserted(const struct kbloom_shbf *f);
/* Version-3 images (type 25): as kbloom_part_save() and friends. */
size_t kbloom_shbf_image_size(const struct kbloom_shbf *f);
int kbloom_shbf_save(const struct kbloom_shbf *f, void *buf, size_t buf_len,
		     size_t *image_len);
int kbloom_shbf_save_alloc(const struct kbloom_shbf *f, void **buf,
			   size_t *len);
int kbloom_shbf_load(const void *buf, size_t len, struct kbloom_shbf **fp);

/*
 * Weighted Bloom filter (KBLOOM_TYPE_WEIGHTED; Bruck, Gao and Jiang, ISIT
 * 2006): element e, queried with frequency r_e (the r_e add up to 1) and
 * a member with probability x_e, is added and tested with its own k_e
 * probes (the standard filter's positions, kbloom_layout.h).  Expected
 * false-positive rate of a query (the paper's objective):
 *
 *   FP(k) = sum_e r_e (1 - x_e) f^k_e,  f = 1 - exp(-sum_e x_e k_e / m)
 *
 * kbloom_wbf_plan() chooses every k_e in 1..kmax minimising FP(k).  The
 * filter is a bit array of m bits in memory only (no image: the k_e are
 * the querier's, not the filter's).
 */
struct kbloom_wbf;

/* @m bits, a multiple of 64.  Return: 0, -EINVAL or -ENOMEM. */
int kbloom_wbf_create(__u64 m, const struct kbloom_opts *opts,
		      struct kbloom_wbf **fp);
void kbloom_wbf_destroy(struct kbloom_wbf *f);
/* Add or test a key with its @k (1..32) probes. */
int kbloom_wbf_add(struct kbloom_wbf *f, const void *key, __u32 len,
		   __u32 k);
int kbloom_wbf_test(const struct kbloom_wbf *f, const void *key, __u32 len,
		    __u32 k);
/* FP(k) above for @n elements (r_e >= 0, 0 <= x_e <= 1). */
double kbloom_wbf_rate(const double *r, const double *x, const __u32 *k,
		       size_t n, __u64 m);
/*
 * kbloom_wbf_plan() - each element's k_e (into @k) minimising FP(k) over
 * 1..@kmax (1..32); *@rate (may be NULL) the minimum.
 * Return: 0; -EINVAL for n = 0, m = 0, a bad kmax, r or x; -ENOMEM.
 */
int kbloom_wbf_plan(const double *r, const double *x, size_t n, __u64 m,
		    __u32 kmax, __u32 *k, double *rate);

/*
 * Adaptive Bloom filter (KBLOOM_TYPE_ADAPTIVE; Matsumoto, Hazeyama and
 * Kadobayashi 2008): frequency by extra probes.  A key's k base probes
 * are the standard filter's positions (kbloom_layout.h).  An add that
 * finds a base bit zero sets the base bits (a first add); an add that
 * finds them all set sets the first zero bit among the probes that
 * continue the sequence (k + 1, k + 2, ...).  A query counts 1 + the
 * consecutive set bits there.  Counts are never under the truth for keys added (bits are only
 * set); a count runs over when a later probe was set by other keys: at
 * fill f each run extends by a geometric number of mean f / (1 - f).
 * Adds from one thread at a time (find the zero, then set it); queries
 * from any thread.  In memory only (no image).
 */
struct kbloom_abf;

#define KBLOOM_ABF_CHAIN_MAX	65536U	/* extra probes per key */

/* @m bits (a multiple of 64), @k base probes (1..32). */
int kbloom_abf_create(__u64 m, __u32 k, const struct kbloom_opts *opts,
		      struct kbloom_abf **fp);
void kbloom_abf_destroy(struct kbloom_abf *f);
/* Count one more of a key: 0, 1 when its chain is full (the count stays,
 * a saturation), -EINVAL for a bad key. */
int kbloom_abf_add(struct kbloom_abf *f, const void *key, __u32 len);
/* The key's count estimate, 0 when its base bits say absent. */
__u64 kbloom_abf_count(const struct kbloom_abf *f, const void *key,
		       __u32 len);
/* One bits set so far (the fill is ones / m) and saturated adds. */
__u64 kbloom_abf_ones(const struct kbloom_abf *f);
__u64 kbloom_abf_saturations(const struct kbloom_abf *f);

/*
 * Distance-sensitive Bloom filter (KBLOOM_TYPE_DISTANCE_SENSITIVE,
 * uapi/kbloom_var_distance_sensitive.h): "is this key within a small
 * Hamming distance of a key of the set?" for keys of exactly @key_len
 * bytes, by bit sampling: k partitions of @s bits, @b sampled bits per
 * partition, "close" iff at least @t of a key's k bits are set.  It has
 * false negatives (version-3 images flagged KBLOOM_IMAGE_F_MAY_FN).
 */
struct kbloom_dsbf;

/* Return: 0, -EINVAL (the shape rules of the header) or -ENOMEM. */
int kbloom_dsbf_create(__u32 key_len, __u32 k, __u64 s, __u32 b, __u32 t,
		       const struct kbloom_opts *opts,
		       struct kbloom_dsbf **fp);
void kbloom_dsbf_destroy(struct kbloom_dsbf *f);
/* Keys of exactly key_len bytes, else -EINVAL. */
int kbloom_dsbf_add(struct kbloom_dsbf *f, const void *key, __u32 len);
/* 1 (close), 0 (far) or -EINVAL. */
int kbloom_dsbf_test(const struct kbloom_dsbf *f, const void *key,
		     __u32 len);
/* How many of the key's k bits are set (0..k), or -EINVAL. */
int kbloom_dsbf_hits(const struct kbloom_dsbf *f, const void *key,
		     __u32 len);
size_t kbloom_dsbf_image_size(const struct kbloom_dsbf *f);
int kbloom_dsbf_save(const struct kbloom_dsbf *f, void *buf, size_t buf_len,
		     size_t *image_len);
int kbloom_dsbf_save_alloc(const struct kbloom_dsbf *f, void **buf,
			   size_t *len);
int kbloom_dsbf_load(const void *buf, size_t len, struct kbloom_dsbf **fp);

/*
 * Matrix Bloom filter (KBLOOM_TYPE_MATRIX; Geravand and Ahmadi): rows of
 * standard filters of one geometry (m, k, hash, seed), used to compare
 * sets.  Its image is a container (uapi/kbloom_image.h) of one standard
 * image per row.
 *
 * Similarity of two filters of one geometry (the estimate of Swamidass
 * and Baldi / Papapetrou et al.): with t ones of m, n(t) = -(m/k) ln(1 -
 * t/m); |A u B| = n(ones of A | B) and |A n B| = n(A) + n(B) - |A u B|.
 */
struct kbloom_matrix;

struct kbloom_similarity {
	__u64 m;
	__u32 k;
	__u32 reserved;
	__u64 ones_a, ones_b, ones_union;
	double n_a, n_b, n_union, n_inter;
	double jaccard;		/* n_inter / n_union, 0 when both empty */
};

/* @rows (1..4096) rows of @m bits (a multiple of 64), @k probes. */
int kbloom_matrix_create(__u32 rows, __u64 m, __u32 k,
			 const struct kbloom_opts *opts,
			 struct kbloom_matrix **mp);
void kbloom_matrix_destroy(struct kbloom_matrix *mx);
__u32 kbloom_matrix_rows(const struct kbloom_matrix *mx);
/* Row @row's filter (NULL for a bad row): use libkbloom.h on it. */
struct kbloom_filter *kbloom_matrix_row(const struct kbloom_matrix *mx,
					__u32 row);
int kbloom_matrix_add(struct kbloom_matrix *mx, __u32 row, const void *key,
		      __u32 len);
int kbloom_matrix_test(const struct kbloom_matrix *mx, __u32 row,
		       const void *key, __u32 len);
int kbloom_matrix_similar(const struct kbloom_matrix *mx, __u32 a, __u32 b,
			  struct kbloom_similarity *out);
int kbloom_matrix_save_alloc(const struct kbloom_matrix *mx, void **buf,
			     size_t *len);
int kbloom_matrix_load(const void *buf, size_t len,
		       struct kbloom_matrix **mp);

/*
 * kbloom_similarity() - the estimate for two standard or blocked filters
 * (from images, kbloom.ko's SAVE, a matrix's rows).
 * Return: 0; -EINVAL for NULL or filters of different type, m, k, hash or
 * seed; -EOPNOTSUPP for counting filters; -ERANGE when a filter or their
 * union is full (no estimate).
 */
int kbloom_similarity(const struct kbloom_filter *a,
		      const struct kbloom_filter *b,
		      struct kbloom_similarity *out);

/* === end of shifting, weighted, adaptive, distance-sensitive, matrix === */

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_SURVEY_H */
