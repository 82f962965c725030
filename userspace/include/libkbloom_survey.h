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
