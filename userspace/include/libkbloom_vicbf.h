/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom: the variable-increment counting Bloom filter (VI-CBF,
 * Rottenstreich, Kanizo, Keslassy, INFOCOM 2012), a deletable counting
 * filter whose probes add a hashed increment v in [L, 2L) instead of 1.
 * A key is possibly present iff each of its counters is saturated, equal
 * to its v, or at least v + L: at 32 bits per key with 4-bit counters its
 * false-positive rate is over ten times below the classic counting
 * filter's.  Positions, increments and the array layout are those of
 * uapi/kbloom_variants.h (KBLOOM_TYPE_VI_COUNTING), so an image moves
 * between this library and kbloom.ko (image version 3).
 *
 * Concurrency: as the counting filter of libkbloom.h.  Tests are lock-free
 * and may run with adds and deletes; counters change by compare-and-
 * exchange.  A saturated counter never moves again (a delete cannot
 * create a false negative); with 4-bit counters and L = 4 three keys can
 * saturate a counter, so filters under heavy churn keep a growing share
 * of saturated counters: kbloom_vicbf_stats() reports them.
 *
 * Errors are negative errno values.
 */
#ifndef _LIBKBLOOM_VICBF_H
#define _LIBKBLOOM_VICBF_H

#include <stddef.h>
#include <linux/types.h>

#include "kbloom/uapi/kbloom_base.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kbloom_vicbf;

/**
 * struct kbloom_vicbf_opts - optional creation parameters (NULL: defaults)
 * @hash_id: enum kbloom_hash_id; 0 means KBLOOM_HASH_FAST
 * @counter_bits: 4 (also when 0) or 8
 * @vi_l: L, increments in [L, 2L): 2..2^(counter_bits - 2); 0 means 3 for
 *        4-bit counters (churn-safe), 4 for 8-bit ones
 * @reserved: must be 0
 * @seed: the hash seed
 * @name: NULL, or the name recorded in images (1..31 of [A-Za-z0-9_.-])
 */
struct kbloom_vicbf_opts {
	__u32 hash_id;
	__u32 counter_bits;
	__u32 vi_l;
	__u32 reserved;
	__u64 seed;
	const char *name;
};

/**
 * kbloom_vicbf_create() - a VI filter sized by kb_vi_plan() for n keys
 * @n: expected keys
 * @p_pico: target false-positive rate in 1e-12 units
 * @opts: NULL or options
 * @fp: out: the filter (untouched on error)
 *
 * Return: 0; -EINVAL for a bad option, n or p; -E2BIG when m would exceed
 * KBLOOM_M_MAX; -ENOMEM.
 */
int kbloom_vicbf_create(__u64 n, __u64 p_pico,
			const struct kbloom_vicbf_opts *opts,
			struct kbloom_vicbf **fp);

/**
 * kbloom_vicbf_create_mk() - a VI filter of @m counters and @k probes
 *
 * Return: 0; -EINVAL for a geometry kb_shape_check() refuses (m not a
 * multiple of 64 in KBLOOM_M_MIN..KBLOOM_M_MAX, k out of 1..32, L or the
 * counter width out of range) or a bad option; -ENOMEM.
 */
int kbloom_vicbf_create_mk(__u64 m, __u32 k,
			   const struct kbloom_vicbf_opts *opts,
			   struct kbloom_vicbf **fp);

void kbloom_vicbf_destroy(struct kbloom_vicbf *f);

/**
 * kbloom_vicbf_add() - add a key (1..KBLOOM_KEY_MAX bytes)
 * Return: 0; 1 when an increment saturated a counter (counted in the
 * statistics); -EINVAL.
 */
int kbloom_vicbf_add(struct kbloom_vicbf *f, const void *key, __u32 len);

/* 1 possibly present, 0 definitely absent, -EINVAL. */
int kbloom_vicbf_test(const struct kbloom_vicbf *f, const void *key,
		      __u32 len);

/**
 * kbloom_vicbf_del() - delete a key
 *
 * Only a key that tests present is deleted (its increments leave the
 * counters that are not saturated).
 *
 * Return: 0; -ENOENT when the key is definitely absent (nothing changed);
 * -EINVAL.
 */
int kbloom_vicbf_del(struct kbloom_vicbf *f, const void *key, __u32 len);

/* Zero every counter and count. */
void kbloom_vicbf_clear(struct kbloom_vicbf *f);

/**
 * struct kbloom_vicbf_stats - geometry and state
 * @saturations: increments that reached or found a saturated counter
 * @saturated: counters at their maximum now
 * @ones: non-zero counters
 * @fpr_now_pico: predicted rate at @inserted keys (kb_vi_fpr_pico())
 */
struct kbloom_vicbf_stats {
	__u32 hash_id;
	__u32 k;
	__u32 counter_bits;
	__u32 vi_l;
	__u64 m;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 bytes;
	__u64 inserted;
	__u64 deleted;
	__u64 ones;
	__u64 saturated;
	__u64 saturations;
	__u64 fpr_now_pico;
};

/* Return: 0 or -EINVAL. */
int kbloom_vicbf_stats(const struct kbloom_vicbf *f,
		       struct kbloom_vicbf_stats *st);

/*
 * Images: version 3 (uapi/kbloom_image.h) with the geometry tail, the
 * format of kbloom.ko's SAVE and RESTORE.
 */

/* Bytes of @f's image (0 for NULL). */
size_t kbloom_vicbf_image_size(const struct kbloom_vicbf *f);

/**
 * kbloom_vicbf_save() - write @f's image to @buf
 * @image_len: NULL, or out: the image's size (also on -EMSGSIZE)
 * Return: 0; -EMSGSIZE when @buf_len is too small; -EINVAL.
 */
int kbloom_vicbf_save(const struct kbloom_vicbf *f, void *buf,
		      size_t buf_len, size_t *image_len);

/* @f's image in a new malloc()ed buffer. Return: 0, -ENOMEM, -EINVAL. */
int kbloom_vicbf_save_alloc(const struct kbloom_vicbf *f, void **buf,
			    size_t *len);

/**
 * kbloom_vicbf_load() - a new VI filter from an image in memory
 *
 * The whole image is verified (kb_image_verify()) before anything is
 * allocated.
 *
 * Return: 0; -EMSGSIZE, -EBADMSG, -EPROTONOSUPPORT, -EOPNOTSUPP as
 * kb_image_verify(); -EOPNOTSUPP also for a valid image of another type;
 * -ENOMEM; -EINVAL for NULL arguments.
 */
int kbloom_vicbf_load(const void *buf, size_t len, struct kbloom_vicbf **fp);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_VICBF_H */
