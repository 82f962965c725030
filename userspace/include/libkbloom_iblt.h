/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom: the invertible Bloom lookup table (KBLOOM_TYPE_IBLT;
 * Goodrich and Mitzenmacher 2011) and the strata estimator (Eppstein et
 * al., SIGCOMM 2011).  Two nodes each fold their set into a table of the
 * same shape and seed; one subtracts the other's table from its own and
 * decodes the difference: the keys only it has (+1) and the keys only the
 * other has (-1), with about 1.5 cells per differing key whatever the
 * size of the sets.  A strata estimator (a table of L strata) first tells
 * how many keys differ, so that the table can be sized.  Cell layout,
 * positions and the estimator's layout are uapi/kbloom_var_iblt.h's; a
 * table moves as a version-3 image (and the XDP loss digest reads into
 * one).
 *
 * A failed decode is reported as failed (-E2BIG) and lists nothing: a key
 * is listed only from a cell whose check hash, length byte and position
 * agree, and only when every cell peels to zero.
 *
 * Concurrency: none; the caller serializes every call on a table.
 *
 * Errors are negative errno values; bad arguments are -EINVAL and change
 * nothing.
 */
#ifndef _LIBKBLOOM_IBLT_H
#define _LIBKBLOOM_IBLT_H

#include <stddef.h>
#include <linux/types.h>

#include "libkbloom.h"
#include "kbloom/uapi/kbloom_var_iblt.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kbloom_iblt;

/**
 * kbloom_iblt_create() - a table of @cells cells for keys of @key_max bytes
 * @cells: cells, rounded up to a multiple of @k; up to KB_IBLT_CELLS_MAX
 * @k: cells per key (partitions), KB_IBLT_K_MIN..KB_IBLT_K_MAX
 * @key_max: the longest key, 1..KBLOOM_KEY_MAX
 * @opts: NULL or options: hash_id, seed, KBLOOM_OPT_RANDOM_SEED and name
 *        as for kbloom_create(); counter_bits must be 0
 * @fp: out: the table (untouched on error)
 *
 * Return: 0; -EINVAL (a geometry kb_shape_check() refuses, a bad option);
 * -EIO (no random seed); -ENOMEM.
 */
int kbloom_iblt_create(__u64 cells, __u32 k, __u32 key_max,
		       const struct kbloom_opts *opts, struct kbloom_iblt **fp);

/**
 * kbloom_iblt_create_strata() - a strata estimator: @strata tables of
 * @cells cells each (0: KB_IBLT_STRATA_DEFAULT, KB_IBLT_STRATUM_CELLS)
 *
 * Return: as kbloom_iblt_create().
 */
int kbloom_iblt_create_strata(__u32 strata, __u64 cells, __u32 k,
			      __u32 key_max, const struct kbloom_opts *opts,
			      struct kbloom_iblt **fp);

/* Free a table (NULL is fine). */
void kbloom_iblt_destroy(struct kbloom_iblt *f);

/* A copy of @f (same shape, hash, seed and cells): 0, -EINVAL, -ENOMEM. */
int kbloom_iblt_dup(const struct kbloom_iblt *f, struct kbloom_iblt **fp);

/*
 * Add (insert) or remove (delete) a key of 1..key_max bytes with its
 * 64-bit @value.  Delete does not look for the key: deleting a key that
 * was never added leaves it as a -1 entry, which decode lists.
 * 0 or -EINVAL.
 */
int kbloom_iblt_insert(struct kbloom_iblt *f, const void *key, __u32 len,
		       __u64 value);
int kbloom_iblt_delete(struct kbloom_iblt *f, const void *key, __u32 len,
		       __u64 value);

/*
 * @a -= @b, cell by cell.  -EINVAL for NULL; -EXDEV when the shapes, hash
 * ids or seeds differ (@a unchanged).
 */
int kbloom_iblt_subtract(struct kbloom_iblt *a, const struct kbloom_iblt *b);

/**
 * struct kbloom_iblt_entry - a key of a decoded difference
 * @key: the key's bytes
 * @len: its length
 * @sign: +1 counted in (added to the first table), -1 counted out
 * @value: its value
 */
struct kbloom_iblt_entry {
	__u8 key[KBLOOM_KEY_MAX];
	__u32 len;
	__s32 sign;
	__u64 value;
};

/**
 * kbloom_iblt_decode() - list the keys of a table (a difference) by peeling
 * @f: the table (unchanged: decoding works on a copy); every table of a
 *     strata estimator is decoded
 * @out: room for @max entries (may be NULL when @max is 0)
 * @n: out: the entries listed (0 on failure)
 *
 * Return: 0 (complete: @n entries, every cell peeled to zero); -E2BIG the
 * table does not decode (too many keys for its cells, or not a table of
 * keys of this shape: nothing is listed); -ENOSPC more than @max keys;
 * -EINVAL; -ENOMEM.
 */
int kbloom_iblt_decode(const struct kbloom_iblt *f,
		       struct kbloom_iblt_entry *out, size_t max, size_t *n);

/**
 * kbloom_iblt_estimate() - the strata estimate of a difference's size
 * @f: a strata estimator (usually one minus another)
 * @d: out: the estimate
 *
 * Return: 0; -EINVAL (NULL, or a table of one stratum); -ENOMEM.
 */
int kbloom_iblt_estimate(const struct kbloom_iblt *f, __u64 *d);

/**
 * struct kbloom_iblt_stats - a table's geometry and counts
 * @k, @cells, @strata, @cells_per_table, @key_words, @key_max: shape
 * @hash_id, @seed: hash
 * @inserted, @deleted: operations applied since creation or load (an
 *     image keeps inserted - deleted as its count)
 * @nonzero: cells that are not all zero
 * @bytes: bytes of the cells
 */
struct kbloom_iblt_stats {
	__u32 k;
	__u32 strata;
	__u32 key_words;
	__u32 key_max;
	__u64 cells;
	__u64 cells_per_table;
	__u32 hash_id;
	__u32 reserved;
	__u64 seed;
	__u64 inserted;
	__u64 deleted;
	__u64 nonzero;
	__u64 bytes;
};

int kbloom_iblt_stats(const struct kbloom_iblt *f,
		      struct kbloom_iblt_stats *st);

/* The name recorded in images ("" for none). */
const char *kbloom_iblt_name(const struct kbloom_iblt *f);

/*
 * Version-3 images (uapi/kbloom_image.h): save as for kbloom_save()
 * (-EMSGSIZE when @buf_len is short, *@image_len the size needed); load
 * verifies everything before it allocates: -EMSGSIZE, -EBADMSG,
 * -EPROTONOSUPPORT, -EOPNOTSUPP (another type) as kb_image_verify_v3().
 */
size_t kbloom_iblt_image_size(const struct kbloom_iblt *f);
int kbloom_iblt_save(const struct kbloom_iblt *f, void *buf, size_t buf_len,
		     size_t *image_len);
int kbloom_iblt_save_alloc(const struct kbloom_iblt *f, void **buf,
			   size_t *len);
int kbloom_iblt_load(const void *buf, size_t len, struct kbloom_iblt **fp);

/*
 * kbloom_iblt_load() of the image in the file (or pipe) @path; -EFBIG for
 * a header announcing more than the largest table, before any read of
 * the payload; -errno of open and read.
 */
int kbloom_iblt_load_file(const char *path, struct kbloom_iblt **fp);

/*
 * The cells as words (3 + key_words per cell, kbloom_var_iblt.h), for
 * the XDP loss digest's reader: @words must hold cells (3 + key_words)
 * words.  kbloom_iblt_add_words() adds (count) and XORs (sums) them into
 * the table, as if their keys had been inserted: 0 or -EINVAL.
 */
int kbloom_iblt_add_words(struct kbloom_iblt *f, const __u64 *words,
			  __u64 nwords);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_IBLT_H */
