/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_dleft: d-left counting Bloom filters (Bonomi, Mitzenmacher,
 * Panigrahy, Singh, Varghese, ESA 2006) in userspace memory,
 * cell-for-cell compatible with kbloom.ko and the XDP connection tracker
 * (bpf/kbloom_dleft_ct.bpf.c).
 *
 * d subtables of B buckets of c cells; a cell is an r-bit remainder of the
 * key's print above a w-bit counter.  The layout, the permuted prints and
 * the rules of insert, delete, test and count are those of
 * uapi/kbloom_variants.h (KBLOOM_TYPE_DLEFT), and nothing else.  A key
 * lives in one cell and never moves; inserting a print already present
 * counts it once more; a delete is exact (it removes one copy of the
 * key's print); an insert finding its d buckets full is refused with
 * -ENOSPC and counted as an overflow.  False positives: p = d L 2^-r,
 * L the mean occupied cells of a bucket (kb_dleft_fpr_pico()).
 *
 * Errors are negative errno values:
 *   -EINVAL   a NULL pointer where one is required, a key length outside
 *             1..KBLOOM_KEY_MAX, a bad shape, hash id, flag or name;
 *   -ENOMEM   out of memory.
 * A failing call changes nothing.
 *
 * Concurrency.  Writers (add, del, clear) are serialised by a mutex of
 * the filter.  Readers (test, count, stats, save, words) take no lock and
 * never miss a key whose add returned before they began and that was not
 * deleted: an insert only writes a free cell (count 0, ignored by every
 * reader) and publishes the word holding the count last, with release
 * order, after the word holding the rest of the remainder; a delete only
 * decrements, and a cell it frees held only the deleted key's print; an
 * increment or decrement changes only the count bits.  The one update a
 * reader could see torn is that of a count split across two words (a
 * cell at bit 64 - w + 1 .. 63 of a word; never for w = 2 with an even
 * cell width): writers bump a sequence count around it and readers of
 * such a cell (only those) re-read when it moved.  A torn read of a cell
 * being filled or freed can only show a transient false positive.
 * destroy and load are not concurrent with anything on the same filter.
 */
#ifndef _LIBKBLOOM_DLEFT_H
#define _LIBKBLOOM_DLEFT_H

#include <stddef.h>
#include <linux/types.h>

#include "kbloom/uapi/kbloom_base.h"
#include "kbloom/uapi/kbloom_variants.h"
#include "kbloom/uapi/kbloom_image.h"
#include "kbloom/uapi/kbloom_dleft_maps.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kbloom_dleft;

/**
 * struct kbloom_dleft_opts - optional creation parameters (NULL: defaults)
 * @hash_id: enum kbloom_hash_id; 0 means KBLOOM_HASH_FAST
 * @reserved: must be 0
 * @seed: the hash seed
 * @name: NULL, or a name recorded in images (1..31 of [A-Za-z0-9_.-])
 */
struct kbloom_dleft_opts {
	__u32 hash_id;
	__u32 reserved;
	__u64 seed;
	const char *name;
};

/**
 * kbloom_dleft_create() - a filter planned for @n keys at rate @p_pico
 * @shape: NULL for the defaults (d = 4, c = 8, w = 2, the spread layout),
 *         or tables, slots and counter_bits to keep (0: default) and the
 *         layout (update: KB_DLEFT_LAYOUT_*); see kb_dleft_plan()
 *
 * Return: 0; -EINVAL, -E2BIG as kb_dleft_plan(); -ENOMEM.
 */
int kbloom_dleft_create(__u64 n, __u64 p_pico, const struct kb_shape *shape,
			const struct kbloom_dleft_opts *opts,
			struct kbloom_dleft **fp);

/**
 * kbloom_dleft_create_shape() - a filter of explicit geometry
 * @shape: type KBLOOM_TYPE_DLEFT, tables, slots, fp_bits, counter_bits,
 *         buckets and the layout (update: KB_DLEFT_LAYOUT_SPREAD or
 *         _LINES); k and m are derived (kb_shape_derive())
 *
 * Return: 0; -EINVAL for a shape kb_shape_derive() refuses; -ENOMEM.
 */
int kbloom_dleft_create_shape(const struct kb_shape *shape,
			      const struct kbloom_dleft_opts *opts,
			      struct kbloom_dleft **fp);

void kbloom_dleft_destroy(struct kbloom_dleft *f);

/**
 * kbloom_dleft_add() - insert one copy of a key
 *
 * Return: 0; 1 when the key's counter was saturated (the copy is not
 * counted; a saturation); -ENOSPC when its d buckets are full (an
 * overflow, nothing changed); -EINVAL.
 */
int kbloom_dleft_add(struct kbloom_dleft *f, const void *key, __u32 len);

/* Return: 1 possibly present, 0 definitely absent, -EINVAL. */
int kbloom_dleft_test(const struct kbloom_dleft *f, const void *key,
		      __u32 len);

/**
 * kbloom_dleft_del() - delete one copy of a key
 *
 * Return: 0 deleted (a saturated counter stays); -ENOENT definitely
 * absent (nothing changed); -EINVAL.
 */
int kbloom_dleft_del(struct kbloom_dleft *f, const void *key, __u32 len);

/**
 * kbloom_dleft_count() - the copies of a key: its cell's counter (the
 * counter maximum when saturated), 0 when absent
 *
 * Return: 0 and *@count; -EINVAL.
 */
int kbloom_dleft_count(const struct kbloom_dleft *f, const void *key,
		       __u32 len, __u64 *count);

/* Empty every cell; zero the inserted, overflow and saturation counts. */
void kbloom_dleft_clear(struct kbloom_dleft *f);

/**
 * struct kbloom_dleft_stats - kbloom_dleft_stats() output
 * @shape: the geometry
 * @hash_id, @seed: the hash
 * @capacity, @fpr_pico: the planned (n, p); 0 when created from a shape
 * @bytes: memory of the cell array
 * @inserted: copies added minus copies deleted
 * @cells_used: occupied cells
 * @load_ppm: cells_used / m in parts per million
 * @overflows: adds refused with -ENOSPC
 * @saturations: adds lost to a saturated counter
 * @fpr_pico_now: kb_dleft_fpr_pico() at n = cells_used
 */
struct kbloom_dleft_stats {
	struct kb_shape shape;
	__u32 hash_id;
	__u32 reserved;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 bytes;
	__u64 inserted;
	__u64 cells_used;
	__u64 load_ppm;
	__u64 overflows;
	__u64 saturations;
	__u64 fpr_pico_now;
};

/* Return: 0, or -EINVAL for a NULL argument. */
int kbloom_dleft_stats(const struct kbloom_dleft *f,
		       struct kbloom_dleft_stats *st);

/* The cell array (read-only): *@nwords 64-bit words, layout of uapi. */
const __u64 *kbloom_dleft_words(const struct kbloom_dleft *f, __u64 *nwords);

/*
 * Images: version 3 (uapi/kbloom_image.h), type KBLOOM_TYPE_DLEFT, the
 * overflows in the geometry tail.  They move between this library,
 * kbloom.ko (SAVE/RESTORE) and the BPF map of the XDP tracker.
 */
size_t kbloom_dleft_image_size(const struct kbloom_dleft *f);

/**
 * kbloom_dleft_save() - write @f's image to @buf
 * @image_len: NULL, or out: the image's size (also on -EMSGSIZE)
 *
 * Return: 0; -EMSGSIZE when @buf_len is short; -EINVAL.
 */
int kbloom_dleft_save(const struct kbloom_dleft *f, void *buf,
		      size_t buf_len, size_t *image_len);

/**
 * kbloom_dleft_load() - a new filter from an image at any address
 *
 * Return: 0; kb_image_verify()'s errors (-EMSGSIZE, -EBADMSG,
 * -EPROTONOSUPPORT, -EOPNOTSUPP); -EOPNOTSUPP for a valid image of
 * another type; -EINVAL for NULL arguments; -ENOMEM.
 */
int kbloom_dleft_load(const void *buf, size_t len, struct kbloom_dleft **fp);

/*
 * The XDP connection tracker (bpf/kbloom_dleft_ct.bpf.c, maps of
 * uapi/kbloom_dleft_maps.h): a SYN inserts its flow, a FIN or an RST
 * deletes it, other segments of unknown flows are counted and passed or
 * dropped.  Its filter is a d-left filter of this library's layout in a
 * BPF array map; the shape must have cells of 8, 16 or 32 bits
 * (kb_dleft_shape_atomic()).  Loading needs CAP_BPF (root).
 */
struct kbloom_dleft_xdp;

/**
 * kbloom_dleft_xdp_open() - load a tracker holding @f's filter
 * @f: gives the shape, hash and seed, and the initial cells
 * @miss: KBLOOM_DLEFT_MISS_PASS or KBLOOM_DLEFT_MISS_DROP
 *
 * Return: 0; -EINVAL for a shape of straddling cells, a bad @miss, NULL
 * arguments; -E2BIG over KBLOOM_DLEFT_WORDS_MAX words; libbpf's error.
 */
int kbloom_dleft_xdp_open(const struct kbloom_dleft *f, __u32 miss,
			  struct kbloom_dleft_xdp **xp);

void kbloom_dleft_xdp_close(struct kbloom_dleft_xdp *x);

/* The program's fd (BPF_PROG_TEST_RUN, attaching elsewhere), or -EINVAL. */
int kbloom_dleft_xdp_prog_fd(const struct kbloom_dleft_xdp *x);

/* Attach to @ifindex with XDP_FLAGS_* @flags; detach (0 when not). */
int kbloom_dleft_xdp_attach(struct kbloom_dleft_xdp *x, int ifindex,
			    __u32 flags);
int kbloom_dleft_xdp_detach(struct kbloom_dleft_xdp *x);

/* Return: 0, or -EINVAL for a bad @miss. */
int kbloom_dleft_xdp_set_miss(struct kbloom_dleft_xdp *x, __u32 miss);

/* The counters summed over the CPUs. */
int kbloom_dleft_xdp_stats(const struct kbloom_dleft_xdp *x,
			   struct kbloom_dleft_xdp_stats *st);

/**
 * kbloom_dleft_xdp_export() - copy the map's cells into @f
 * @f: a filter of the tracker's shape, hash and seed (-EINVAL otherwise)
 *     with no concurrent user; its counts are left as they are
 */
int kbloom_dleft_xdp_export(const struct kbloom_dleft_xdp *x,
			    struct kbloom_dleft *f);

/* Replace the map's cells with @f's (same shape, hash and seed). */
int kbloom_dleft_xdp_import(struct kbloom_dleft_xdp *x,
			    const struct kbloom_dleft *f);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_DLEFT_H */
