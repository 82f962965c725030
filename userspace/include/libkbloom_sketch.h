/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_sketch: the Count-Min sketch (spectral Bloom filter) in
 * userspace memory, bit-compatible with kbloom.ko's COUNT_MIN filters and
 * the XDP counting sketch (bpf/kbloom_sketch.bpf.c).
 *
 * d rows of w saturating counters of 16 or 32 bits; a key's counter in
 * row i is kb_cm_counter(i, probe word i, w) (uapi/kbloom_variants.h).
 * Its count is the minimum over the rows (Cohen and Matias' minimum
 * selection): never below the truth while no counter saturated, and for
 * a stream of total weight N at most epsilon N above it with probability
 * 1 - delta (Cormode and Muthukrishnan), for w = ceil(e / epsilon) and
 * d = ceil(ln 1 / delta) (kb_cm_plan()).
 *
 * Update rules (struct kb_shape .update):
 *   KB_CM_ALL      every row gets the weight; keys can be deleted;
 *   KB_CM_MIN_INC  minimal increase (conservative update): each row is
 *                  raised to at most min + weight, so only the rows at
 *                  the minimum grow; never worse than KB_CM_ALL on the
 *                  same stream, never below the truth, no delete.
 * A counter that reaches its maximum stays there (saturated): it is
 * neither raised nor lowered again, and every clipped row update is
 * counted in the saturations.
 *
 * Images are version 3 (uapi/kbloom_image.h): k = d, m = d w, the
 * geometry tail's tables = d, buckets = w and update, fpr_pico = epsilon
 * (0 for an explicit geometry), inserted = the total weight N.  They load
 * in kbloom.ko (RESTORE) and into the XDP sketch's maps.
 *
 * Concurrency: one writer per sketch, readers not concurrent with it.
 * Count on several threads or CPUs with one sketch each and sum them
 * (kbloom_sketch_merge()): the sum of KB_CM_ALL sketches is the sketch of
 * the whole stream, counter for counter.
 *
 * Errors are negative errno values; a failing call changes nothing.
 */
#ifndef _LIBKBLOOM_SKETCH_H
#define _LIBKBLOOM_SKETCH_H

#include <stddef.h>
#include <linux/types.h>

#include "kbloom/uapi/kbloom_base.h"
#include "kbloom/uapi/kbloom_image.h"
#include "kbloom/uapi/kbloom_sketch_maps.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kbloom_sketch;

/* kbloom_sketch_opts.flags */
#define KBLOOM_SKETCH_SEED	(1U << 0)	/* use @seed, else getrandom() */

/**
 * struct kbloom_sketch_opts - creation parameters
 * @epsilon_pico: planned: relative error bound epsilon (1e-12 units),
 *     with @delta_pico; 0 when @rows and @width are given
 * @delta_pico: planned: failure probability delta (1e-12 units)
 * @rows: explicit d, 1..KB_CM_ROWS_MAX (0 when planned)
 * @width: explicit w, KB_CM_WIDTH_MIN.. (0 when planned)
 * @counter_bits: 16 or 32; 0 means 32
 * @update: KB_CM_ALL or KB_CM_MIN_INC; 0 means KB_CM_ALL
 * @hash_id: enum kbloom_hash_id; 0 means KBLOOM_HASH_FAST
 * @flags: KBLOOM_SKETCH_*
 * @seed: the hash seed with KBLOOM_SKETCH_SEED
 * @name: NULL or a filter name (kb_name_valid()), recorded in images
 */
struct kbloom_sketch_opts {
	__u64 epsilon_pico;
	__u64 delta_pico;
	__u32 rows;
	__u32 counter_bits;
	__u64 width;
	__u32 update;
	__u32 hash_id;
	__u32 flags;
	__u32 reserved;
	__u64 seed;
	const char *name;
};

/**
 * struct kbloom_sketch_stat - what kbloom_sketch_stat() reports
 * @rows, @width, @counter_bits, @update, @hash_id, @seed: the geometry
 * @epsilon_pico, @delta_pico: the plan (0 for an explicit geometry;
 *     delta is not recorded in images)
 * @bytes: memory of the counters
 * @total: N, the weight added minus the weight deleted
 * @saturations: row updates clipped at the counter maximum
 * @nonzero: non-zero counters
 * @saturated: counters at their maximum
 */
struct kbloom_sketch_stat {
	__u32 rows;
	__u32 counter_bits;
	__u64 width;
	__u32 update;
	__u32 hash_id;
	__u64 seed;
	__u64 epsilon_pico;
	__u64 delta_pico;
	__u64 bytes;
	__u64 total;
	__u64 saturations;
	__u64 nonzero;
	__u64 saturated;
};

/**
 * kbloom_sketch_create() - a new, empty sketch
 * Exactly one of (@epsilon_pico, @delta_pico) and (@rows, @width).
 *
 * Return: 0; -EINVAL for a bad or inconsistent field (epsilon or delta
 * out of [1e-9, 0.5], rows, width, counter width, update, hash id, flags,
 * name, both forms or neither); -E2BIG for d w over KBLOOM_M_MAX;
 * -ENOMEM; -errno of getrandom().
 */
int kbloom_sketch_create(const struct kbloom_sketch_opts *o,
			 struct kbloom_sketch **sp);

void kbloom_sketch_free(struct kbloom_sketch *s);

/**
 * kbloom_sketch_add() - count @weight more of a key (packets, bytes)
 *
 * Return: 0, or the number of rows whose update was clipped at the
 * counter maximum (also added to the saturations); -EINVAL for a key
 * length outside 1..KBLOOM_KEY_MAX or a weight of 0.
 */
int kbloom_sketch_add(struct kbloom_sketch *s, const void *key, size_t len,
		      __u64 weight);

/**
 * kbloom_sketch_count() - the key's estimate: the minimum over the rows
 * (0 for a bad key length)
 */
__u64 kbloom_sketch_count(const struct kbloom_sketch *s, const void *key,
			  size_t len);

/**
 * kbloom_sketch_del() - take @weight of a key back out (KB_CM_ALL)
 *
 * Saturated counters stay at their maximum.
 * Return: 0; -EOPNOTSUPP for a minimal-increase sketch; -ENOENT when the
 * key's estimate is below @weight (it was not added that often: deleting
 * would break the never-below-the-truth guarantee of other keys);
 * -EINVAL for a bad key length or a weight of 0.
 */
int kbloom_sketch_del(struct kbloom_sketch *s, const void *key, size_t len,
		      __u64 weight);

/**
 * kbloom_sketch_merge() - add @src's counters into @dst, counter by
 * counter (saturating), and its N and saturations
 *
 * Return: 0; -EINVAL for another geometry, hash id or seed.
 */
int kbloom_sketch_merge(struct kbloom_sketch *dst,
			const struct kbloom_sketch *src);

/**
 * kbloom_sketch_merge_words() - add raw counter words of @dst's shape
 * (one CPU's rows of a per-CPU BPF map, native order) into @dst
 * @nwords: must be the sketch's word count (kbloom_sketch_words())
 * @weight: N of those words, added to @dst's
 *
 * Return: 0; -EINVAL for another word count.
 */
int kbloom_sketch_merge_words(struct kbloom_sketch *dst, const __u64 *words,
			      size_t nwords, __u64 weight);

/* Number of 64-bit words of the counters (d w counters, packed). */
size_t kbloom_sketch_words(const struct kbloom_sketch *s);

/* The counters, read-only (native order, kb_cm_get() to read one). */
const __u64 *kbloom_sketch_data(const struct kbloom_sketch *s);

void kbloom_sketch_clear(struct kbloom_sketch *s);

int kbloom_sketch_stat(const struct kbloom_sketch *s,
		       struct kbloom_sketch_stat *st);

/* Bytes of @s's image. */
size_t kbloom_sketch_image_size(const struct kbloom_sketch *s);

/**
 * kbloom_sketch_save() - write @s's version-3 image to @buf
 * @image_len: out (may be NULL), the image's size
 *
 * Return: 0; -EMSGSIZE when @buf_len is too small; -EINVAL.
 */
int kbloom_sketch_save(const struct kbloom_sketch *s, void *buf,
		       size_t buf_len, size_t *image_len);

/**
 * kbloom_sketch_load() - a new sketch from an image in memory (any
 * alignment)
 *
 * Return: 0; the errors of kb_image_verify() (-EMSGSIZE, -EBADMSG,
 * -EPROTONOSUPPORT, -EOPNOTSUPP); -EOPNOTSUPP for a valid image of
 * another type; -ENOMEM; -EINVAL for NULL arguments.
 */
int kbloom_sketch_load(const void *buf, size_t len, struct kbloom_sketch **sp);

/* ---- the XDP counting sketch (bpf/kbloom_countmin.bpf.c) ---------------- */

struct kbloom_sketch_xdp;

/**
 * struct kbloom_sketch_xdp_opts - the XDP sketch's parameters
 * @geom: geometry, update rule, hash and seed of both sketches (packets,
 *     bytes), as for kbloom_sketch_create()
 * @shared: 0: per-CPU rows (either update rule); 1: one shared array
 *     moved by compare-and-exchange (KB_CM_ALL only)
 * @action: KBLOOM_SKETCH_COUNT, _MARK or _DROP
 * @flags: KBLOOM_SKETCH_F_*
 * @mark: the metadata value of KBLOOM_SKETCH_MARK
 * @threshold: estimate above which a frame is over; 0: none
 */
struct kbloom_sketch_xdp_opts {
	struct kbloom_sketch_opts geom;
	__u32 shared;
	__u32 action;
	__u32 flags;
	__u32 mark;
	__u64 threshold;
};

/**
 * kbloom_sketch_xdp_open() - load the XDP sketch program (not attached)
 *
 * Return: 0; the errors of kbloom_sketch_create(); -E2BIG when the two
 * row maps (packets, bytes; per possible CPU unless @shared) would need
 * more bytes than the machine's memory; -EOPNOTSUPP for a shared
 * minimal-increase sketch; -EINVAL for a bad @shared, @action or @flags;
 * -errno of libbpf (open, load, map updates).
 */
int kbloom_sketch_xdp_open(const struct kbloom_sketch_xdp_opts *o,
			   struct kbloom_sketch_xdp **xp);

/* The loaded program (for bpf_xdp_attach() or BPF_PROG_TEST_RUN). */
int kbloom_sketch_xdp_prog_fd(const struct kbloom_sketch_xdp *x);

/**
 * kbloom_sketch_xdp_attach() - attach to @ifindex with XDP_FLAGS_*
 * @xdp_flags; kbloom_sketch_xdp_close() detaches.
 * Return: 0; -EBUSY when attached already; -errno of bpf_xdp_attach().
 */
int kbloom_sketch_xdp_attach(struct kbloom_sketch_xdp *x, int ifindex,
			     __u32 xdp_flags);

/**
 * kbloom_sketch_xdp_read() - the packet (@bytes 0) or byte (@bytes 1)
 * sketch as a new library sketch: per-CPU rows summed; N is the packets
 * or bytes counted (the stats)
 * Return: 0; -ENOMEM; -errno of the map reads.
 */
int kbloom_sketch_xdp_read(const struct kbloom_sketch_xdp *x, int bytes,
			   struct kbloom_sketch **sp);

/**
 * kbloom_sketch_xdp_write() - replace the packet or byte sketch's
 * counters with @s's (per-CPU rows: CPU 0 gets them, the others zero)
 * Return: 0; -EINVAL when @s has another geometry, update, hash or seed;
 * -errno of the map updates.
 */
int kbloom_sketch_xdp_write(struct kbloom_sketch_xdp *x, int bytes,
			    const struct kbloom_sketch *s);

/* The stats summed over the CPUs.  Return: 0 or -errno. */
int kbloom_sketch_xdp_stats(const struct kbloom_sketch_xdp *x,
			    struct kbloom_sketch_stats *st);

void kbloom_sketch_xdp_close(struct kbloom_sketch_xdp *x);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_SKETCH_H */
