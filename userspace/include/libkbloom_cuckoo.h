/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom cuckoo filters (Fan, Andersen, Kaminsky, Mitzenmacher, CoNEXT
 * 2014): a deletable set at about f / alpha bits per key (12.6 bits at a
 * false-positive rate of 0.185%), a quarter of a counting filter's bytes
 * at the same rate.  Positions, layout and planner are those of
 * uapi/kbloom_variants.h, so a filter moves between the library and
 * kbloom.ko as a version-3 image (KBLOOM_IOCTL_SAVE / RESTORE).
 *
 * Each key has an f-bit fingerprint and two buckets of b slots; an insert
 * that finds both buckets full relocates fingerprints to their other
 * buckets (partial-key cuckoo hashing).  The relocation path is searched
 * first (breadth first, at most KB_CUCKOO_MAX_KICKS = 500 entries
 * examined) without moving anything, then the entries move from the end
 * of the path to its start, so that every entry is in one of its buckets
 * at every instant (a reader may see one twice, never zero times).  When
 * no path exists the add fails with -ENOSPC and nothing changes.
 *
 * Delete removes one copy of the key's fingerprint from one of its two
 * buckets.  As in the paper, delete only keys that were added: deleting
 * a key never added may remove another key's fingerprint (same
 * fingerprint, same bucket pair), and that key then tests absent.  A key
 * added c times holds c copies (at most 2 b), kbloom_cuckoo_count() counts
 * them.
 *
 * Concurrency.  Writers (add, del, clear, set_name) are serialised by a
 * mutex of the filter.  Readers (test, count, stats, save) take no lock:
 * the writers make a sequence counter odd while slots change, and a
 * reader that found nothing retries unless the counter was even and
 * unchanged around its reads.  After KBLOOM_CUCKOO_READ_TRIES such
 * retries (a writer descheduled inside its window) the reader takes the
 * writer mutex for one final read, so every answer is exact: a key whose
 * add returned before the test began, and that was not deleted, is found.
 *
 * Errors are negative errno values; bad arguments are -EINVAL and change
 * nothing.
 */
#ifndef _LIBKBLOOM_CUCKOO_H
#define _LIBKBLOOM_CUCKOO_H

#include <stddef.h>
#include <linux/types.h>

#include "libkbloom.h"
#include "kbloom/uapi/kbloom_variants.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kbloom_cuckoo;

/* Lock-free attempts of a reader before it takes the writer mutex. */
#define KBLOOM_CUCKOO_READ_TRIES	256U

/**
 * kbloom_cuckoo_create() - a filter for @n keys at rate @p_pico, planned
 * by kb_cuckoo_plan() (b = 4, load 0.95)
 * @opts: NULL or options: hash_id, seed, KBLOOM_OPT_RANDOM_SEED and name
 *        as for kbloom_create(); counter_bits must be 0
 *
 * Return: 0 and *@cp; -EINVAL (bad option, n == 0, p out of range);
 * -E2BIG (too many slots); -ENOMEM.
 */
int kbloom_cuckoo_create(__u64 n, __u64 p_pico,
			 const struct kbloom_opts *opts,
			 struct kbloom_cuckoo **cp);

/**
 * kbloom_cuckoo_create_shape() - a filter of explicit geometry
 * @fp_bits: fingerprint bits, KB_CUCKOO_FP_MIN..KB_CUCKOO_FP_MAX
 * @slots: slots per bucket: 1, 2, 4 or 8
 * @buckets: 2 .. KBLOOM_M_MAX / slots
 *
 * Return: as kbloom_cuckoo_create(); -EINVAL for a geometry out of range.
 */
int kbloom_cuckoo_create_shape(__u32 fp_bits, __u32 slots, __u64 buckets,
			       const struct kbloom_opts *opts,
			       struct kbloom_cuckoo **cp);

/**
 * struct kbloom_cuckoo_counts - the counts of a filter, without a scan
 * @capacity, @fpr_pico: the planned (n, p), 0 for an explicit shape
 * @inserted: keys added minus keys deleted
 * @deleted: successful deletes
 * @kicks: entries relocated by adds
 * @overflows: adds refused with -ENOSPC
 * @longest_path: the most entries one add relocated
 */
struct kbloom_cuckoo_counts {
	__u64 capacity;
	__u64 fpr_pico;
	__u64 inserted;
	__u64 deleted;
	__u64 kicks;
	__u64 overflows;
	__u64 longest_path;
};

/**
 * kbloom_cuckoo_create_in() - a filter over the caller's memory
 * @s: a cuckoo shape (kb_shape_check())
 * @hash_id, @seed: its hash (hash_id 0: KBLOOM_HASH_FAST)
 * @words: the slot array, @nwords >= kb_shape_words(@s) words, kept (not
 *         cleared) as the filter's contents and never freed here: e.g.
 *         an mmapped BPF blocks map (uapi/kbloom_xdp_maps.h)
 * @seq: the writers' sequence counter, odd while slots change, so that
 *       readers outside this object (XDP programs, bpf/kbloom_cuckoo.h)
 *       validate their reads as kbloom_cuckoo_test() does
 * @start: NULL or the counts to start from (kept by the caller between
 *         objects over the same words)
 *
 * The writer mutex is this object's: writers through other objects over
 * the same words must be serialised by the caller (libkbloom_xdp takes
 * the instance lock).
 *
 * Return: 0 and *@cp; -EINVAL (bad shape, hash id, too few words);
 * -ENOMEM.
 */
int kbloom_cuckoo_create_in(const struct kb_shape *s, __u32 hash_id,
			    __u64 seed, __u64 *words, __u64 nwords,
			    __u32 *seq,
			    const struct kbloom_cuckoo_counts *start,
			    struct kbloom_cuckoo **cp);

/* The counts (no scan of the array).  Return: 0 or -EINVAL. */
int kbloom_cuckoo_counts(const struct kbloom_cuckoo *c,
			 struct kbloom_cuckoo_counts *out);

/* Free a filter (NULL is fine).  Not concurrent with any other use. */
void kbloom_cuckoo_destroy(struct kbloom_cuckoo *c);

/**
 * kbloom_cuckoo_add() - insert a key of 1..KBLOOM_KEY_MAX bytes
 *
 * Return: 0; -ENOSPC when no relocation path was found within 500 kicks
 * (nothing changed, counted in overflows); -EINVAL for a bad key length.
 */
int kbloom_cuckoo_add(struct kbloom_cuckoo *c, const void *key, __u32 len);

/* Return: 1 possibly present, 0 definitely absent, -EINVAL. */
int kbloom_cuckoo_test(const struct kbloom_cuckoo *c, const void *key,
		       __u32 len);

/**
 * kbloom_cuckoo_del() - remove one copy of the key's fingerprint
 *
 * Return: 0 removed; -ENOENT when neither bucket holds the fingerprint
 * (nothing changed); -EINVAL.
 */
int kbloom_cuckoo_del(struct kbloom_cuckoo *c, const void *key, __u32 len);

/* Return: the copies of the key's fingerprint in its two buckets (0 to
 * 2 b; other keys sharing fingerprint and buckets count too), -EINVAL.
 */
long kbloom_cuckoo_count(const struct kbloom_cuckoo *c, const void *key,
			 __u32 len);

/* Empty the filter and zero its statistics (a writer). */
void kbloom_cuckoo_clear(struct kbloom_cuckoo *c);

/**
 * struct kbloom_cuckoo_stats - kbloom_cuckoo_stats() output
 * @shape: the geometry (type, k = 2, m = slots in all, fp_bits, slots,
 *         buckets)
 * @hash_id, @seed: the hash
 * @capacity, @fpr_pico: the planned (n, p), 0 for an explicit shape
 * @bytes: memory of the slot array
 * @inserted: keys added minus keys deleted
 * @deleted: successful deletes
 * @used: occupied slots
 * @load_ppm: used / m in parts per million
 * @kicks: entries relocated by adds
 * @overflows: adds refused with -ENOSPC
 * @longest_path: the most entries one add relocated
 * @fpr_now_pico: 1 - (1 - 2^-f)^(2 used / buckets), the rate at this load
 */
struct kbloom_cuckoo_stats {
	struct kb_shape shape;
	__u32 hash_id;
	__u32 reserved;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 bytes;
	__u64 inserted;
	__u64 deleted;
	__u64 used;
	__u64 load_ppm;
	__u64 kicks;
	__u64 overflows;
	__u64 longest_path;
	__u64 fpr_now_pico;
};

/* Fill @st (reads the whole array).  Return: 0 or -EINVAL. */
int kbloom_cuckoo_stats(const struct kbloom_cuckoo *c,
			struct kbloom_cuckoo_stats *st);

/* The slot array (read with relaxed atomic loads), *nwords its words. */
const __u64 *kbloom_cuckoo_words(const struct kbloom_cuckoo *c,
				 __u64 *nwords);

/*
 * Images: version 3 (uapi/kbloom_image.h: base header, geometry tail with
 * kicks and overflows, the words).  Load verifies the whole image
 * (kb_image_verify()'s errors) before it allocates anything; a valid
 * image of another type is -EOPNOTSUPP.
 */
size_t kbloom_cuckoo_image_size(const struct kbloom_cuckoo *c);

/**
 * kbloom_cuckoo_save() - write the image to @buf
 * @image_len: NULL or out: the image size (also when @buf is too short)
 *
 * Return: 0; -EMSGSIZE when @buf_len is short; -EINVAL.
 */
int kbloom_cuckoo_save(const struct kbloom_cuckoo *c, void *buf,
		       size_t buf_len, size_t *image_len);

/* Return: 0 and a new filter in *@cp, or the image's error, -ENOMEM. */
int kbloom_cuckoo_load(const void *buf, size_t len,
		       struct kbloom_cuckoo **cp);

const char *kbloom_cuckoo_name(const struct kbloom_cuckoo *c);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_CUCKOO_H */
