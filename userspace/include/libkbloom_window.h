/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom: the age-partitioned Bloom filter (KBLOOM_TYPE_AGE_PARTITIONED),
 * "was this key seen in the last N keys / T seconds" (Shtul, Baquero,
 * Almeida 2020).  k + l slices; an add sets the key's bit in the k newest
 * slices; a key tests present iff k logically consecutive slices hold its
 * bit; a new generation clears the oldest slice and makes it the newest.
 * Generations are counted in keys (the count clock: every one of the last
 * l g keys tests present) or in nanoseconds (the time clock: every key of
 * the last l gen_len ns does).  Older keys are forgotten (MAY_FN).
 * Positions, rotation rule, rate and planner are uapi/kbloom_var_window.h's,
 * so a filter moves between this library and kbloom.ko as a version-3
 * image whose tail carries the head slice and the generation clock.
 *
 * Time.  The library reads its clock (CLOCK_MONOTONIC unless
 * kbloom_win_set_clock() gave another) in add, test and tick.  An add or
 * a tick performs the rotations due; a test applies the rotations due
 * without writing: it does not look at slices that a rotation due now
 * would clear, so its answer never depends on when the writer last ran.
 *
 * Concurrency: one writer at a time (add, rotate, tick, clear, load);
 * tests load words with relaxed atomics and may run from any number of
 * threads beside the writer.  A test racing a rotation may miss only a
 * key that the rotation forgets.
 *
 * Errors are negative errno values; bad arguments are -EINVAL and change
 * nothing.
 */
#ifndef _LIBKBLOOM_WINDOW_H
#define _LIBKBLOOM_WINDOW_H

#include <stddef.h>
#include <linux/types.h>

#include "libkbloom.h"
#include "kbloom/uapi/kbloom_variants.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kbloom_win;

/**
 * struct kbloom_win_params - the window to create
 * @clock: KB_WIN_CLOCK_KEYS or KB_WIN_CLOCK_NS
 * @k: slices a key is added to; 0 with @fpr_pico: planned
 * @l: slices beyond k; 0 with @fpr_pico: planned
 * @window: the guaranteed window: keys (count clock) or ns (time clock);
 *     a generation is ceil(@window / l) of them
 * @capacity: time clock: keys expected within @window (the planner's
 *     load); count clock: 0 (the window is the load)
 * @fpr_pico: target rate just before a rotation (1e-12 units), planned by
 *     kb_win_plan(); 0 with @slice_bits
 * @slice_bits: explicit slice size (a multiple of 64) with @k and @l; 0
 *     when planned
 */
struct kbloom_win_params {
	__u32 clock;
	__u32 k;
	__u32 l;
	__u32 reserved;		/* must be 0 */
	__u64 window;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 slice_bits;
};

/**
 * kbloom_win_create() - a new, empty window filter
 * @wp: the window
 * @opts: NULL or options: hash_id, seed, KBLOOM_OPT_RANDOM_SEED and name
 *        as for kbloom_create(); counter_bits must be 0
 * @fp: out: the filter (untouched on error)
 *
 * Return: 0; -EINVAL (bad clock, window, k, l, slice bits, target,
 * option, or both or neither of @fpr_pico and @slice_bits); -E2BIG (no
 * slice up to KBLOOM_M_MAX reaches the target); -EIO (no random seed);
 * -ENOMEM.
 */
int kbloom_win_create(const struct kbloom_win_params *wp,
		      const struct kbloom_opts *opts, struct kbloom_win **fp);

/* Free a filter (NULL is fine). */
void kbloom_win_destroy(struct kbloom_win *f);

/*
 * The clock of a time window: @now(@ctx) returns nanoseconds, never
 * going back.  NULL restores CLOCK_MONOTONIC.  The current generation
 * keeps its age: it started that long before the new clock's now.
 * Return: 0 or -EINVAL.
 */
typedef __u64 (*kbloom_win_clock_fn)(void *ctx);
int kbloom_win_set_clock(struct kbloom_win *f, kbloom_win_clock_fn now,
			 void *ctx);

/* Add a key (rotating first when due).  Return: 0 or -EINVAL. */
int kbloom_win_add(struct kbloom_win *f, const void *key, __u32 len);

/* 1 present in the window, 0 absent, -EINVAL. */
int kbloom_win_test(const struct kbloom_win *f, const void *key, __u32 len);

/* Start a new generation now (either clock).  Return: 0 or -EINVAL. */
int kbloom_win_rotate(struct kbloom_win *f);

/* Time clock: the rotations due.  Return: how many, or -EINVAL. */
int kbloom_win_tick(struct kbloom_win *f);

/* Zero every slice and count; the head and generation start again. */
void kbloom_win_clear(struct kbloom_win *f);

/**
 * struct kbloom_win_stats - kbloom_win_stats() output
 * @shape: the geometry (k, tables = l, buckets = slice bits, m, update =
 *     the clock)
 * @hash_id, @seed: the hash
 * @window: keys or ns guaranteed (l * @gen_len)
 * @gen_len: keys or ns per generation
 * @capacity, @fpr_pico: the planned load and target, 0 when explicit
 * @bytes: memory of the slices
 * @inserted: add operations
 * @head: physical index of the newest slice
 * @gen_clock: keys in the current generation, or ns since it started
 * @rotations: generations started since create
 * @ones: set bits; @ones_newest, @ones_oldest: of the newest and oldest
 *     slice
 * @fpr_now_pico: the predicted rate (kb_win_fpr_pico()) at the current
 *     generation's fill, with the count of the current generation as g
 *     for a time clock when it is larger
 */
struct kbloom_win_stats {
	struct kb_shape shape;
	__u32 hash_id;
	__u32 head;
	__u64 seed;
	__u64 window;
	__u64 gen_len;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 bytes;
	__u64 inserted;
	__u64 gen_clock;
	__u64 rotations;
	__u64 ones;
	__u64 ones_newest;
	__u64 ones_oldest;
	__u64 fpr_now_pico;
};

/* Fill @st (reads the whole array).  Return: 0 or -EINVAL. */
int kbloom_win_stats(const struct kbloom_win *f, struct kbloom_win_stats *st);

/* The name recorded in images ("" when none). */
const char *kbloom_win_name(const struct kbloom_win *f);

/*
 * Images: version 3 (uapi/kbloom_image.h): base header (k, m), geometry
 * tail (tables = l, buckets = slice bits, update = clock, reserved[] =
 * KB_WIN_GEOM_*: generation length, head, clock, rotations), the words
 * little-endian.  A time window records the age of its current
 * generation; a load starts it that long before the loader's now.  Load
 * verifies the whole image (kb_image_verify()'s errors) before it
 * allocates anything; a valid image of another type is -EOPNOTSUPP.
 */
size_t kbloom_win_image_size(const struct kbloom_win *f);
int kbloom_win_save(const struct kbloom_win *f, void *buf, size_t buf_len,
		    size_t *image_len);
int kbloom_win_save_alloc(const struct kbloom_win *f, void **buf,
			  size_t *len);
int kbloom_win_load(const void *buf, size_t len, struct kbloom_win **fp);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_WINDOW_H */
