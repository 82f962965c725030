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

/* === end of shifting, weighted, adaptive, distance-sensitive, matrix === */

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_SURVEY_H */
