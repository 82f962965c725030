/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom: the deletable Bloom filter (KBLOOM_TYPE_DELETABLE; Rothenberg
 * et al. 2010): a standard filter of m bits in regions of s bits, and a
 * collision bitmap of m / s bits.  A key is deletable iff one of its k
 * bits lies in a region where no two probes met; deleting it clears its
 * bits in such regions and no other key's.  Deletes without counters, at
 * m / s extra bits (25% at the default s = 4).  Positions, layout and the
 * planner are uapi/kbloom_var_deletable.h's, so a filter moves between
 * this library, kbloom.ko (KBLOOM_IOCTL_SAVE / RESTORE) and the XDP port
 * filters as a version-3 image.
 *
 * Concurrency: tests may run from any number of threads, also while one
 * writer adds or deletes.  Adds may run concurrently with each other
 * (atomic OR); a delete must not run concurrently with another add or
 * delete of the filter (it reads the collision bitmap the adds write).
 * Clear, load and destroy are not concurrent with other calls.
 *
 * Errors are negative errno values; bad arguments are -EINVAL and change
 * nothing.
 */
#ifndef _LIBKBLOOM_DELETABLE_H
#define _LIBKBLOOM_DELETABLE_H

#include <stddef.h>
#include <linux/types.h>

#include "libkbloom.h"
#include "kbloom/uapi/kbloom_variants.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kbloom_del;

/**
 * kbloom_del_create() - a filter for @n keys at rate @p_pico, planned by
 * kb_del_plan() (the standard planner's k and m, m rounded up to regions)
 * @region_bits: s, a power of two 1..KB_DEL_REGION_MAX; 0 means
 *               KB_DEL_REGION_DEFAULT
 * @opts: NULL or options: hash_id, seed, KBLOOM_OPT_RANDOM_SEED and name
 *        as for kbloom_create(); counter_bits must be 0
 * @fp: out: the filter (untouched on error)
 *
 * Return: 0; -EINVAL (bad option, n == 0, p or s out of range); -E2BIG (m
 * over KBLOOM_M_MAX); -EIO (no random seed); -ENOMEM.
 */
int kbloom_del_create(__u64 n, __u64 p_pico, __u64 region_bits,
		      const struct kbloom_opts *opts, struct kbloom_del **fp);

/**
 * kbloom_del_create_mk() - a filter of @m body bits, @k probes, regions
 * of @region_bits bits (m a multiple of 64 and of @region_bits)
 *
 * Return: as kbloom_del_create(); -EINVAL for a geometry kb_shape_check()
 * refuses.
 */
int kbloom_del_create_mk(__u64 m, __u32 k, __u64 region_bits,
			 const struct kbloom_opts *opts,
			 struct kbloom_del **fp);

/**
 * kbloom_del_create_in() - a filter over the caller's memory
 * @s: a deletable shape (kb_shape_check(); kb_del_shape_init())
 * @hash_id, @seed: its hash (hash_id 0: KBLOOM_HASH_FAST)
 * @words: the filter's array (the body, then the collision bitmap),
 *         @nwords >= kb_shape_words(@s) words, kept (not cleared) as the
 *         filter's contents and never freed here: e.g. an mmapped BPF
 *         blocks map (uapi/kbloom_xdp_maps.h) that XDP programs read
 *
 * The counts (inserted, deleted, refused) start at 0: they are this
 * object's, not the array's.  Adds and deletes through other objects over
 * the same words must be serialised with this one's by the caller
 * (libkbloom_xdp takes the instance lock).
 *
 * Return: 0 and *@fp; -EINVAL (bad shape, hash id, too few words);
 * -ENOMEM.
 */
int kbloom_del_create_in(const struct kb_shape *s, __u32 hash_id,
			 __u64 seed, __u64 *words, __u64 nwords,
			 struct kbloom_del **fp);

/* Free a filter (NULL is fine; the words of kbloom_del_create_in() stay). */
void kbloom_del_destroy(struct kbloom_del *f);

/*
 * Add a key of 1..KBLOOM_KEY_MAX bytes; a probe that finds its bit set
 * marks the bit's region collided.  Return: 0 or -EINVAL.
 */
int kbloom_del_add(struct kbloom_del *f, const void *key, __u32 len);

/* 1 possibly present, 0 definitely absent, -EINVAL. */
int kbloom_del_test(const struct kbloom_del *f, const void *key, __u32 len);

/*
 * 1 when the key tests present and one of its bits lies in a
 * collision-free region (a delete would succeed), 0 otherwise, -EINVAL.
 */
int kbloom_del_deletable(const struct kbloom_del *f, const void *key,
			 __u32 len);

/**
 * kbloom_del_delete() - delete a key that was added
 *
 * Clears the key's bits that lie in collision-free regions.  Deleting a
 * key that was never added but tests positive may clear another key's
 * bit: delete only keys you added.
 *
 * Return: 1 deleted; 0 definitely absent (nothing changed); -ENOTUNIQ
 * when every bit of the key lies in a collided region (not deletable,
 * nothing changed, counted in @refused); -EINVAL.
 */
int kbloom_del_delete(struct kbloom_del *f, const void *key, __u32 len);

/* Zero every bit (body and collision bitmap) and count. */
void kbloom_del_clear(struct kbloom_del *f);

/**
 * struct kbloom_del_stats - kbloom_del_stats() output
 * @shape: the geometry (type, k, m body bits, buckets = region bits)
 * @hash_id, @seed: the hash
 * @capacity, @fpr_pico: the planned (n, p), 0 for an explicit shape
 * @bytes: memory of the body and the bitmap
 * @regions: r = m / s
 * @inserted: keys added minus keys deleted
 * @deleted: deletes applied; @refused: deletes refused (-ENOTUNIQ)
 * @ones: set bits of the body
 * @collided: regions marked collided
 * @n_est: distinct keys estimated from @ones (kb_n_est())
 * @fpr_now_pico: the predicted rate at @inserted keys
 */
struct kbloom_del_stats {
	struct kb_shape shape;
	__u32 hash_id;
	__u32 reserved;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 bytes;
	__u64 regions;
	__u64 inserted;
	__u64 deleted;
	__u64 refused;
	__u64 ones;
	__u64 collided;
	__u64 n_est;
	__u64 fpr_now_pico;
};

/* Fill @st (reads the whole array).  Return: 0 or -EINVAL. */
int kbloom_del_stats(const struct kbloom_del *f, struct kbloom_del_stats *st);

/* The name recorded in images ("" when none). */
const char *kbloom_del_name(const struct kbloom_del *f);

/**
 * kbloom_del_predict() - the deletable fraction after @n keys
 * @m, @k, @region_bits: the geometry
 * @paper: out (or NULL): the paper's formula (1) of
 *         uapi/kbloom_var_deletable.h
 * @exact: out (or NULL): formula (2), the key's own bit conditioned
 *
 * Return: 0 or -EINVAL (m, k or region_bits 0).
 */
int kbloom_del_predict(__u64 m, __u32 k, __u64 region_bits, __u64 n,
		       double *paper, double *exact);

/*
 * Images: version 3 (uapi/kbloom_image.h: base header, geometry tail with
 * the region bits in @buckets, the body then the bitmap, little-endian).
 * Load verifies the whole image (kb_image_verify()'s errors) before it
 * allocates anything; a valid image of another type is -EOPNOTSUPP.
 * The deleted and refused counts are not part of the image.
 */

/* Bytes of @f's image (0 for NULL). */
size_t kbloom_del_image_size(const struct kbloom_del *f);

/**
 * kbloom_del_save() - write @f's image to @buf
 * @image_len: NULL, or out: the image size (also on -EMSGSIZE)
 *
 * Return: 0; -EMSGSIZE when @buf_len is too small; -EINVAL.
 */
int kbloom_del_save(const struct kbloom_del *f, void *buf, size_t buf_len,
		    size_t *image_len);

/* @f's image in a new malloc()ed buffer.  Return: 0, -ENOMEM, -EINVAL. */
int kbloom_del_save_alloc(const struct kbloom_del *f, void **buf,
			  size_t *len);

/* Return: 0 and a new filter in *@fp, or the image's error, -ENOMEM. */
int kbloom_del_load(const void *buf, size_t len, struct kbloom_del **fp);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_DELETABLE_H */
