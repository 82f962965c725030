/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom: the partitioned Bloom filter (KBLOOM_TYPE_PARTITIONED): k
 * disjoint slices of s bits, m = k s; probe i sets one bit of slice i, so
 * a key's k bits are always distinct.  Its rate after n keys is
 * (1 - (1 - k/m)^n)^k, about the standard filter's at the same m and k.
 * Positions and the planner are uapi/kbloom_partitioned.h's, so a filter
 * moves between this library and kbloom.ko as a version-3 image
 * (KBLOOM_IOCTL_SAVE / RESTORE), and XDP programs query the module's copy
 * with bpf_kbloom_test().
 *
 * Concurrency: as the standard filter of libkbloom.h.  Adds set bits with
 * atomic OR, tests load words with relaxed atomics; both may run from any
 * number of threads at once.  Clear, load and destroy are not concurrent
 * with other calls on the filter.
 *
 * Errors are negative errno values; bad arguments are -EINVAL and change
 * nothing.
 */
#ifndef _LIBKBLOOM_PARTITIONED_H
#define _LIBKBLOOM_PARTITIONED_H

#include <stddef.h>
#include <linux/types.h>

#include "libkbloom.h"
#include "kbloom/uapi/kbloom_variants.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kbloom_part;

/**
 * kbloom_part_create() - a filter for @n keys at rate @p_pico, planned by
 * kb_part_plan() (the standard planner's k, slices rounded up to words)
 * @opts: NULL or options: hash_id, seed, KBLOOM_OPT_RANDOM_SEED and name
 *        as for kbloom_create(); counter_bits must be 0
 * @fp: out: the filter (untouched on error)
 *
 * Return: 0; -EINVAL (bad option, n == 0, p out of range); -E2BIG (m over
 * KBLOOM_M_MAX); -EIO (no random seed); -ENOMEM.
 */
int kbloom_part_create(__u64 n, __u64 p_pico, const struct kbloom_opts *opts,
		       struct kbloom_part **fp);

/**
 * kbloom_part_create_ks() - a filter of @k slices of @slice_bits bits
 * @k: slices (probes per key), KBLOOM_K_MIN..KBLOOM_K_MAX
 * @slice_bits: a multiple of 64, KBLOOM_M_MIN..KBLOOM_M_MAX / k
 *
 * Return: as kbloom_part_create(); -EINVAL for a geometry
 * kb_shape_check() refuses.
 */
int kbloom_part_create_ks(__u32 k, __u64 slice_bits,
			  const struct kbloom_opts *opts,
			  struct kbloom_part **fp);

/* Free a filter (NULL is fine). */
void kbloom_part_destroy(struct kbloom_part *f);

/* Add a key of 1..KBLOOM_KEY_MAX bytes.  Return: 0 or -EINVAL. */
int kbloom_part_add(struct kbloom_part *f, const void *key, __u32 len);

/* 1 possibly present, 0 definitely absent, -EINVAL. */
int kbloom_part_test(const struct kbloom_part *f, const void *key,
		     __u32 len);

/* Zero every bit and count. */
void kbloom_part_clear(struct kbloom_part *f);

/**
 * struct kbloom_part_stats - kbloom_part_stats() output
 * @shape: the geometry (type, k slices, m bits, buckets = slice bits)
 * @hash_id, @seed: the hash
 * @capacity, @fpr_pico: the planned (n, p), 0 for an explicit shape
 * @bytes: memory of the bit array
 * @inserted: add operations
 * @ones: set bits
 * @ones_min, @ones_max: set bits of the emptiest and fullest slice
 * @n_est: distinct keys estimated from @ones (kb_n_est())
 * @fpr_now_pico: the predicted rate at @inserted keys (kb_part_fpr_pico())
 */
struct kbloom_part_stats {
	struct kb_shape shape;
	__u32 hash_id;
	__u32 reserved;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 bytes;
	__u64 inserted;
	__u64 ones;
	__u64 ones_min;
	__u64 ones_max;
	__u64 n_est;
	__u64 fpr_now_pico;
};

/* Fill @st (reads the whole array).  Return: 0 or -EINVAL. */
int kbloom_part_stats(const struct kbloom_part *f,
		      struct kbloom_part_stats *st);

/* The name recorded in images ("" when none). */
const char *kbloom_part_name(const struct kbloom_part *f);

/*
 * Images: version 3 (uapi/kbloom_image.h: base header, geometry tail with
 * the slice bits in @buckets, the words little-endian).  Load verifies
 * the whole image (kb_image_verify()'s errors) before it allocates
 * anything; a valid image of another type is -EOPNOTSUPP.
 */

/* Bytes of @f's image (0 for NULL). */
size_t kbloom_part_image_size(const struct kbloom_part *f);

/**
 * kbloom_part_save() - write @f's image to @buf
 * @image_len: NULL, or out: the image size (also on -EMSGSIZE)
 *
 * Return: 0; -EMSGSIZE when @buf_len is too small; -EINVAL.
 */
int kbloom_part_save(const struct kbloom_part *f, void *buf, size_t buf_len,
		     size_t *image_len);

/* @f's image in a new malloc()ed buffer.  Return: 0, -ENOMEM, -EINVAL. */
int kbloom_part_save_alloc(const struct kbloom_part *f, void **buf,
			   size_t *len);

/* Return: 0 and a new filter in *@fp, or the image's error, -ENOMEM. */
int kbloom_part_load(const void *buf, size_t len, struct kbloom_part **fp);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_PARTITIONED_H */
