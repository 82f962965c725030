/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom: the stable Bloom filter (KBLOOM_TYPE_STABLE; Deng and Rafiei,
 * SIGMOD 2006): m cells of d bits (Max = 2^d - 1), k probes, P
 * decrements.  Each add first decrements P cells, then sets the key's k
 * cells to Max, so old keys fade and the share of zero cells settles at
 * a stable point whatever the length of the stream: duplicate detection
 * over an unbounded stream in fixed memory, at the price of false
 * negatives for keys seen long ago (images carry KBLOOM_IMAGE_F_MAY_FN;
 * the gate and mcast paths refuse them).  Positions, the stable point and
 * the planner of P are uapi/kbloom_var_stable.h's, so a filter moves
 * between this library, kbloom.ko and the XDP dedupe map as a version-3
 * image.
 *
 * The decrement window's start is drawn from a counter-based random
 * stream of the filter (seeded from getrandom() at creation, or by
 * kbloom_stable_reseed() for a reproducible run); never from the key.
 *
 * Concurrency: add, test and test_add may run from any number of threads
 * at once (cells are set with atomic OR, decremented by compare-and-
 * exchange, read with relaxed loads).  Clear, reseed, load and destroy
 * are not concurrent with other calls on the filter.
 *
 * Errors are negative errno values; bad arguments are -EINVAL and change
 * nothing.
 */
#ifndef _LIBKBLOOM_STABLE_H
#define _LIBKBLOOM_STABLE_H

#include <stddef.h>
#include <linux/types.h>

#include "libkbloom.h"
#include "kbloom/uapi/kbloom_var_stable.h"
#include "kbloom/uapi/kbloom_dedupe_maps.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kbloom_stable;

/**
 * kbloom_stable_create() - a stable filter of explicit geometry
 * @m: cells, a multiple of 64, KBLOOM_M_MIN..KBLOOM_M_MAX
 * @k: probes per key, KBLOOM_K_MIN..KBLOOM_K_MAX
 * @cell_bits: d = 1, 2, 4 or 8 (Max = 2^d - 1)
 * @p: decrements per insert, 1..min(m, KB_STABLE_P_MAX)
 * @opts: NULL or options: hash_id, seed, KBLOOM_OPT_RANDOM_SEED and name
 *        as for kbloom_create(); counter_bits must be 0
 * @fp: out: the filter (untouched on error)
 *
 * Return: 0; -EINVAL (a geometry kb_shape_check() refuses, a bad option);
 * -EIO (no random seed); -ENOMEM.
 */
int kbloom_stable_create(__u64 m, __u32 k, __u32 cell_bits, __u32 p,
			 const struct kbloom_opts *opts,
			 struct kbloom_stable **fp);

/**
 * kbloom_stable_create_fps() - as kbloom_stable_create(), with P the least
 * whose stable-point rate is at most @fps_pico (kb_stable_plan())
 *
 * Return: as kbloom_stable_create(); -ERANGE when no P up to
 * min(m, KB_STABLE_P_MAX) reaches the target.
 */
int kbloom_stable_create_fps(__u64 m, __u32 k, __u32 cell_bits,
			     __u64 fps_pico, const struct kbloom_opts *opts,
			     struct kbloom_stable **fp);

/* Free a filter (NULL is fine). */
void kbloom_stable_destroy(struct kbloom_stable *f);

/* Restart the decrement stream from @seed (reproducible runs). */
void kbloom_stable_reseed(struct kbloom_stable *f, __u64 seed);

/* Decrement P cells, then set the key's k cells to Max.  0 or -EINVAL. */
int kbloom_stable_add(struct kbloom_stable *f, const void *key, __u32 len);

/* 1 possibly present (all k cells non-zero), 0 absent, -EINVAL. */
int kbloom_stable_test(const struct kbloom_stable *f, const void *key,
		       __u32 len);

/*
 * Deng and Rafiei's step: test, then add.  Return: what the test said
 * (1: a duplicate, 0: new), -EINVAL.
 */
int kbloom_stable_test_add(struct kbloom_stable *f, const void *key,
			   __u32 len);

/* Zero every cell and count. */
void kbloom_stable_clear(struct kbloom_stable *f);

/**
 * struct kbloom_stable_stats - kbloom_stable_stats() output
 * @shape: the geometry (k, m cells, counter_bits = d, buckets = P)
 * @hash_id, @seed: the hash
 * @fps_pico: the stable point's false-positive rate (kb_stable_fps_pico())
 * @bytes: memory of the cells
 * @inserted: add operations
 * @zeros: cells at 0 now
 * @zero_ppm: @zeros / m in parts per million
 * @zero_stable_ppm: the stable point's share of zero cells
 *     (kb_stable_zero_ppm()); @zero_ppm approaches it after a few m / P
 *     inserts
 */
struct kbloom_stable_stats {
	struct kb_shape shape;
	__u32 hash_id;
	__u32 reserved;
	__u64 seed;
	__u64 fps_pico;
	__u64 bytes;
	__u64 inserted;
	__u64 zeros;
	__u64 zero_ppm;
	__u64 zero_stable_ppm;
};

/* Fill @st (reads the whole array).  Return: 0 or -EINVAL. */
int kbloom_stable_stats(const struct kbloom_stable *f,
			struct kbloom_stable_stats *st);

/* The name recorded in images ("" when none). */
const char *kbloom_stable_name(const struct kbloom_stable *f);

/*
 * Images: version 3 (uapi/kbloom_image.h: base header with
 * KBLOOM_IMAGE_F_MAY_FN, counter_bits = d, the geometry tail with P in
 * @buckets, the words little-endian).  Load verifies the whole image
 * (kb_image_verify()'s errors) before it allocates anything; a valid
 * image of another type is -EOPNOTSUPP.
 */

/* Bytes of @f's image (0 for NULL). */
size_t kbloom_stable_image_size(const struct kbloom_stable *f);

/**
 * kbloom_stable_save() - write @f's image to @buf
 * @image_len: NULL, or out: the image size (also on -EMSGSIZE)
 *
 * Return: 0; -EMSGSIZE when @buf_len is too small; -EINVAL.
 */
int kbloom_stable_save(const struct kbloom_stable *f, void *buf,
		       size_t buf_len, size_t *image_len);

/* @f's image in a new malloc()ed buffer.  Return: 0, -ENOMEM, -EINVAL. */
int kbloom_stable_save_alloc(const struct kbloom_stable *f, void **buf,
			     size_t *len);

/* Return: 0 and a new filter in *@fp, or the image's error, -ENOMEM. */
int kbloom_stable_load(const void *buf, size_t len,
		       struct kbloom_stable **fp);

/*
 * XDP duplicate suppression (bpf/kbloom_dedupe.bpf.c, maps in
 * uapi/kbloom_dedupe_maps.h): a stable filter in a BPF map, tested and
 * added per frame; the first copy passes, a repeat is dropped or counted.
 * The cells map holds a stable image's payload, so a filter moves
 * between the map, this library and kbloom.ko as an image.
 */
struct kbloom_stable_xdp;

/**
 * struct kbloom_stable_xdp_opts - the XDP suppressor's parameters
 * @m, @k, @cell_bits, @p: the filter (kbloom_stable_create()'s)
 * @hash_id, @seed: the key hash (0: KBLOOM_HASH_FAST, seed 0)
 * @action: KBLOOM_DEDUPE_COUNT or KBLOOM_DEDUPE_DROP
 */
struct kbloom_stable_xdp_opts {
	__u64 m;
	__u32 k;
	__u32 cell_bits;
	__u32 p;
	__u32 hash_id;
	__u64 seed;
	__u32 action;
	__u32 reserved;		/* must be 0 */
};

/**
 * kbloom_stable_xdp_open() - load the program and its maps (not attached)
 *
 * Return: 0; -EINVAL for a bad geometry, hash, action or reserved field;
 * libbpf's error when loading fails.
 */
int kbloom_stable_xdp_open(const struct kbloom_stable_xdp_opts *o,
			   struct kbloom_stable_xdp **xp);

/* The program's descriptor (BPF_PROG_TEST_RUN, pinning), or -EINVAL. */
int kbloom_stable_xdp_prog_fd(const struct kbloom_stable_xdp *x);

/*
 * Attach to @ifindex with XDP_FLAGS_* @xdp_flags; kbloom_stable_xdp_close()
 * detaches.  Return: 0, -EBUSY when attached already, libbpf's error.
 */
int kbloom_stable_xdp_attach(struct kbloom_stable_xdp *x, int ifindex,
			     __u32 xdp_flags);

/* The per-CPU statistics summed.  Return: 0 or -errno. */
int kbloom_stable_xdp_stats(const struct kbloom_stable_xdp *x,
			    struct kbloom_dedupe_stats *st);

/*
 * The cells as a library filter (a copy: kbloom_stable_destroy() it),
 * or the filter of an image put in place of the cells (its geometry
 * and hash must be the map's: -EINVAL otherwise; the image's errors;
 * frames racing the copy see old or new words, each whole).
 */
int kbloom_stable_xdp_read(const struct kbloom_stable_xdp *x,
			   struct kbloom_stable **fp);
int kbloom_stable_xdp_load_image(struct kbloom_stable_xdp *x,
				 const void *img, size_t len);

/* Detach, unload and free (NULL is fine). */
void kbloom_stable_xdp_close(struct kbloom_stable_xdp *x);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_STABLE_H */
