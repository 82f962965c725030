/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom: the scalable Bloom filter (KBLOOM_TYPE_SCALABLE, Almeida et
 * al. 2007) and its counting mode, the dynamic Bloom filter
 * (KBLOOM_TYPE_DYNAMIC, Guo et al.): a list of generations that grows as
 * keys arrive, so no capacity has to be guessed.  The geometry of each
 * generation, the rule that opens the next one (its estimated count, from
 * its fill, reaches its capacity) and the container image are
 * uapi/kbloom_var_scalable.h's, shared with kbloom.ko and the XDP lookup.
 *
 * Scalable: generation i holds C0 s^i keys at rate P (1 - r) r^i in k
 * slices (partitioned layout); the whole filter stays at or below P.  An
 * add of a key already reported present changes nothing (returns 1), so
 * duplicates never grow the filter.
 * Dynamic: equal counting generations (C keys at rate P each); a delete
 * acts only when exactly one generation holds the key, and is refused with
 * -ENOTUNIQ (and counted) when several do; under-full generations are
 * merged after deletes.
 *
 * Concurrency: tests may run from any number of threads while no writer
 * runs; add, delete, merge, clear and load are not concurrent with any
 * other call on the filter (kbloom.ko's object is the concurrent one).
 *
 * Errors are negative errno values; bad arguments are -EINVAL and change
 * nothing.
 */
#ifndef _LIBKBLOOM_SCALABLE_H
#define _LIBKBLOOM_SCALABLE_H

#include <stddef.h>
#include <linux/types.h>

#include "libkbloom.h"
#include "kbloom/uapi/kbloom_var_scalable.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kbloom_sbf;

/**
 * kbloom_sbf_create() - a filter with its first generation
 * @p: the parameters; growth 0, ratio 0 and counter_bits 0 take the
 *     defaults of the type (scalable 2 and 0.9; dynamic 1, 1.0 and 4)
 * @opts: NULL or options: hash_id, seed, KBLOOM_OPT_RANDOM_SEED and name
 *        as for kbloom_create(); counter_bits must be 0 (it is @p's)
 * @fp: out: the filter (untouched on error)
 *
 * Return: 0; -EINVAL (kb_sbf_params_check(), a bad option); -E2BIG (the
 * first generation over KBLOOM_M_MAX); -EIO (no random seed); -ENOMEM.
 */
int kbloom_sbf_create(const struct kb_sbf_params *p,
		      const struct kbloom_opts *opts, struct kbloom_sbf **fp);

/* Free a filter (NULL is fine). */
void kbloom_sbf_destroy(struct kbloom_sbf *f);

/**
 * kbloom_sbf_add() - add a key of 1..KBLOOM_KEY_MAX bytes
 *
 * Return: 0 added; 1 (scalable) already reported present, nothing
 * changed; -ENOSPC the newest generation is full and the next cannot be
 * made (kb_sbf_gen()), nothing changed, counted; -ENOMEM; -EINVAL.
 */
int kbloom_sbf_add(struct kbloom_sbf *f, const void *key, __u32 len);

/* 1 possibly present (some generation), 0 definitely absent, -EINVAL. */
int kbloom_sbf_test(const struct kbloom_sbf *f, const void *key, __u32 len);

/**
 * kbloom_sbf_del() - delete a key (dynamic only)
 *
 * Return: 1 deleted from the one generation that held it (then
 * under-full generations are merged); 0 absent from every generation;
 * -ENOTUNIQ present in several generations: refused, nothing changed,
 * counted; -EOPNOTSUPP for a scalable filter; -EINVAL.
 */
int kbloom_sbf_del(struct kbloom_sbf *f, const void *key, __u32 len);

/*
 * Merge under-full generations (dynamic): while two have estimated counts
 * summing to at most C, the newer one is added counter by counter into the
 * older and dropped.  Return: merges made; -EOPNOTSUPP (scalable); -EINVAL.
 */
int kbloom_sbf_merge(struct kbloom_sbf *f);

/* Back to one empty generation, every count zero. */
void kbloom_sbf_clear(struct kbloom_sbf *f);

/**
 * struct kbloom_sbf_stats - kbloom_sbf_stats() output
 * @params: the parameters
 * @hash_id, @seed: the hash
 * @generations: generations in use
 * @bytes: memory of their arrays
 * @inserted: adds applied (duplicates included) minus deletes
 * @n_est: sum of the generations' estimated counts
 * @fpr_now_pico: the union bound of the generations' predicted rates at
 *     their estimated counts
 * @refused: deletes refused because several generations matched
 * @merges: generations merged away
 * @overflows: adds refused with -ENOSPC
 * @saturations: counter increments lost (dynamic)
 */
struct kbloom_sbf_stats {
	struct kb_sbf_params params;
	__u32 hash_id;
	__u32 generations;
	__u64 seed;
	__u64 bytes;
	__u64 inserted;
	__u64 n_est;
	__u64 fpr_now_pico;
	__u64 refused;
	__u64 merges;
	__u64 overflows;
	__u64 saturations;
};

/* Fill @st (reads no array).  Return: 0 or -EINVAL. */
int kbloom_sbf_stats(const struct kbloom_sbf *f, struct kbloom_sbf_stats *st);

/**
 * struct kbloom_sbf_gen_stats - one generation
 * @g: its geometry (uapi's rule)
 * @ones: set bits (non-zero counters); full at @g.full_ones
 * @inserted: keys added to it minus keys deleted from it
 * @n_est: kb_n_est() of @ones
 * @fpr_now_pico: its predicted rate at @n_est
 */
struct kbloom_sbf_gen_stats {
	struct kb_sbf_gen g;
	__u64 ones;
	__u64 inserted;
	__u64 n_est;
	__u64 fpr_now_pico;
};

/* Generation @i (0 oldest).  Return: 0; -ERANGE past the last; -EINVAL. */
int kbloom_sbf_gen_stats(const struct kbloom_sbf *f, __u32 i,
			 struct kbloom_sbf_gen_stats *st);

/* The name recorded in images ("" when none). */
const char *kbloom_sbf_name(const struct kbloom_sbf *f);

/*
 * Images: a container (uapi/kbloom_image.h) of one member image per
 * generation (uapi/kbloom_var_scalable.h).  Load verifies the whole image
 * (kb_container_verify(), kb_sbf_image_check()) before it allocates
 * anything; a valid image of another type is -EOPNOTSUPP.
 */

/* Bytes of @f's image (0 for NULL). */
size_t kbloom_sbf_image_size(const struct kbloom_sbf *f);

/**
 * kbloom_sbf_save() - write @f's image to @buf
 * @image_len: NULL, or out: the image size (also on -EMSGSIZE)
 *
 * Return: 0; -EMSGSIZE when @buf_len is too small; -EINVAL.
 */
int kbloom_sbf_save(const struct kbloom_sbf *f, void *buf, size_t buf_len,
		    size_t *image_len);

/* @f's image in a new malloc()ed buffer.  Return: 0, -ENOMEM, -EINVAL. */
int kbloom_sbf_save_alloc(const struct kbloom_sbf *f, void **buf,
			  size_t *len);

/* Return: 0 and a new filter in *@fp, or the image's error, -ENOMEM. */
int kbloom_sbf_load(const void *buf, size_t len, struct kbloom_sbf **fp);

/*
 * The map-backed XDP lookup (bpf/kbloom_scalable.h): three BPF arrays,
 * meta (1 struct kb_sbf_map_meta), gens (struct kb_sbf_map_gen rows) and
 * words (__u64), laid out as uapi/kbloom_var_scalable.h says.
 */

/* Entries the words map needs for @f (0 for NULL). */
__u64 kbloom_sbf_map_words(const struct kbloom_sbf *f);

/**
 * kbloom_sbf_map_fill() - write @f into the lookup's maps
 * @meta_fd, @gens_fd, @words_fd: the three arrays
 *
 * The rows and words of every generation, then the meta (the count).
 * Return: 0; -EINVAL for a map of another shape; -E2BIG when gens or
 * words has too few entries (nothing written); a bpf() errno.
 */
int kbloom_sbf_map_fill(const struct kbloom_sbf *f, int meta_fd, int gens_fd,
			int words_fd);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_SCALABLE_H */
