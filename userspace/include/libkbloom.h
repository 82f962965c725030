/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom: Bloom filters in userspace memory, bit-compatible with
 * kbloom.ko and the XDP programs.
 *
 * A filter is one of the three types of uapi/kbloom_base.h: blocked
 * (512-bit blocks, one cache line per key), standard (flat bit array) or
 * counting (flat array of saturating 4- or 8-bit counters, with delete).
 * The hash, the probe positions, the layouts and the image format are the
 * ones of uapi/ and nothing else, so an image saved here restores in the
 * module and the other way round, and a key added by any executor is found
 * by every other one.
 *
 * Errors are negative errno values; every function says which.  The
 * common ones:
 *   -EINVAL      a NULL filter/pointer argument where one is required, an
 *                unknown type or hash id, a key length outside
 *                1..KBLOOM_KEY_MAX, a malformed key batch;
 *   -ENOMEM      out of memory;
 *   others       as returned by the planner (uapi/kbloom_plan.h) for
 *                parameters out of range.
 * A failing call changes nothing, unless it says otherwise.
 *
 * Concurrency.  Any number of readers (test, test_batch, stats, save,
 * words) may run concurrently with any number of writers (add, add_batch,
 * del, union into the filter): bits are set with an atomic OR, counters
 * move by compare-and-exchange, reads are relaxed atomic loads.  A filter
 * created with KBLOOM_OPT_SINGLE_WRITER allows one writer at a time (and
 * any number of readers) and writes with plain stores: much faster adds.  A key
 * whose add returned before a test began is found by that test (publish
 * the "add returned" fact to the reader with release/acquire, as for any
 * other data).  clear, destroy and load-into-existing are not concurrent
 * with anything on the same filter.
 *
 * Speed.  A blocked lookup costs one cache line: on x86-64 with AVX2 or
 * AVX-512 the probes of a block are tested in vector registers (chosen at
 * creation; KBLOOM_SIMD=scalar|avx2|avx512 in the environment caps the
 * level and KBLOOM_NO_SIMD=1 selects the scalar code, for testing).  With
 * AVX2 at compile time, kbloom_test() of a 4-, 8- or 16-byte key is
 * inlined (libkbloom_inline.h).
 * Batches hash a chunk of keys, prefetch their blocks, then test them: use
 * kbloom_test_batch() when many keys are at hand.  Arrays of 2 MiB and
 * more are mapped with transparent huge pages (MADV_HUGEPAGE).
 */
#ifndef _LIBKBLOOM_H
#define _LIBKBLOOM_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "kbloom/uapi/kbloom_base.h"
#include "kbloom/uapi/kbloom_image.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kbloom_filter;

/* kbloom_opts.flags */
#define KBLOOM_OPT_RANDOM_SEED	(1U << 0)	/* ignore @seed, getrandom() */
/*
 * Only one thread at a time adds, deletes or clears (readers may still
 * run concurrently): bits and counters are set with plain (relaxed) loads
 * and stores, or one vector store per block, instead of atomic ORs and
 * compare-and-exchange, and the counts without locked instructions.  For
 * filters a thread builds on its own (experiments, images); two writers
 * at once lose bits.
 */
#define KBLOOM_OPT_SINGLE_WRITER	(1U << 1)
#define KBLOOM_OPT_ALL	(KBLOOM_OPT_RANDOM_SEED | KBLOOM_OPT_SINGLE_WRITER)

/**
 * struct kbloom_opts - optional creation parameters (NULL: all defaults)
 * @hash_id: enum kbloom_hash_id; 0 means KBLOOM_HASH_FAST
 * @counter_bits: counting filters: 4 (also when 0) or 8; must be 0 for
 *                the bit filters
 * @flags: KBLOOM_OPT_*
 * @seed: the hash seed (default 0: deterministic; use
 *        KBLOOM_OPT_RANDOM_SEED or a secret seed with KBLOOM_HASH_SIPHASH13
 *        for filters that see adversarial keys)
 * @name: optional name recorded in images (1..31 of [A-Za-z0-9_.-]), or
 *        NULL
 */
struct kbloom_opts {
	__u32 hash_id;
	__u32 counter_bits;
	__u32 flags;
	__u32 reserved;		/* must be 0 */
	__u64 seed;
	const char *name;
};

/**
 * kbloom_create() - a filter sized by the planner for n keys at rate p
 * @type: enum kbloom_type
 * @n: expected number of keys (capacity)
 * @p_pico: target false-positive rate in 1e-12 units (1% = 10^10)
 * @opts: NULL or creation options
 * @fp: out: the new filter (untouched on error)
 *
 * Return: 0; -EINVAL for a bad type, hash id, counter width, name, flag or
 * NULL @fp; the planner's error for (n, p) out of range; -ENOMEM.
 */
int kbloom_create(__u32 type, __u64 n, __u64 p_pico,
		  const struct kbloom_opts *opts, struct kbloom_filter **fp);

/**
 * kbloom_create_mk() - a filter of explicit geometry
 * @m: bits (counters for counting); a multiple of 512 for blocked, of 64
 *     otherwise, within [KBLOOM_M_MIN, KBLOOM_M_MAX]
 * @k: probes per key, 1..KBLOOM_K_MAX
 *
 * Return: as kbloom_create(); kb_plan_check()'s error for (m, k).
 */
int kbloom_create_mk(__u32 type, __u64 m, __u32 k,
		     const struct kbloom_opts *opts, struct kbloom_filter **fp);

/* Free a filter (NULL is fine).  Not concurrent with any other use. */
void kbloom_destroy(struct kbloom_filter *f);

/**
 * kbloom_add() - insert a key of 1..KBLOOM_KEY_MAX bytes
 *
 * Return: 0, or 1 for a counting filter when at least one of the key's
 * counters was already saturated (the increment is lost and counted in
 * the statistics); -EINVAL for a bad key length.
 */
int kbloom_add(struct kbloom_filter *f, const void *key, __u32 len);

/**
 * kbloom_test() - membership query
 *
 * Return: 1 possibly present, 0 definitely absent, -EINVAL for a bad key
 * length.
 */
int kbloom_test(const struct kbloom_filter *f, const void *key, __u32 len);

/**
 * kbloom_del() - delete a key from a counting filter
 *
 * A key with a zero counter among its positions is definitely absent:
 * decrementing its other counters would create false negatives for other
 * keys, so it is skipped and nothing changes.  Saturated counters never
 * decrement.
 *
 * Return: 0 deleted; -ENOENT definitely absent (skipped); -EOPNOTSUPP on
 * a bit filter; -EINVAL for a bad key length.
 */
int kbloom_del(struct kbloom_filter *f, const void *key, __u32 len);

/*
 * Key batches, in the layout of the KBLOOM_IOCTL_ADD/TEST ioctls
 * (struct kbloom_keys in uapi/kbloom.h):
 *   key_len 1..KBLOOM_KEY_MAX: @count keys of key_len bytes back to back,
 *     keys_len == count * key_len;
 *   key_len 0: @count variable keys, each one length byte
 *     (1..KBLOOM_KEY_MAX) followed by that many bytes, keys_len exactly
 *     what they take.
 * A batch is validated whole before any key is applied: a malformed one
 * gives -EINVAL and applies nothing.  count may be 0.
 */

/**
 * kbloom_test_batch() - test @count keys; hash them all, prefetch their
 * cache lines, then test
 * @results: NULL, or a bitmap of (count + 7) / 8 bytes: bit i (byte i / 8,
 *           bit i % 8) is set iff key i is possibly present; bits past
 *           count in the last byte are cleared
 *
 * Return: the number of keys possibly present, or -EINVAL.
 */
long kbloom_test_batch(const struct kbloom_filter *f, const void *keys,
		       size_t keys_len, __u32 key_len, __u32 count,
		       __u8 *results);

/**
 * kbloom_add_batch() - add @count keys, with prefetching
 *
 * Return: 0 (all applied), or -EINVAL (none applied).
 */
int kbloom_add_batch(struct kbloom_filter *f, const void *keys,
		     size_t keys_len, __u32 key_len, __u32 count);

/* Zero every bit or counter and the inserted/deleted/saturation counts. */
void kbloom_clear(struct kbloom_filter *f);

/**
 * kbloom_union() - dst |= src
 *
 * Bit filters OR their words; counting filters add counters, saturating
 * (the lost increments are counted as saturations).  @dst may have
 * concurrent writers and readers; @src may have concurrent writers (the
 * union then contains at least the keys whose add returned before it
 * began).
 *
 * Return: 0; -EINVAL unless both have the same type, hash id, seed, m, k
 * and counter width.
 */
int kbloom_union(struct kbloom_filter *dst, const struct kbloom_filter *src);

/**
 * struct kbloom_stats - kbloom_stats() output
 * @type, @hash_id, @k, @counter_bits, @m, @seed: the geometry
 * @capacity, @fpr_pico: the planned (n, p); 0 when created from (m, k)
 * @bytes: memory of the word array
 * @inserted: keys added minus keys deleted (net count; this is what the
 *            image records as inserted)
 * @deleted: successful deletes
 * @ones: one bits (non-zero counters for counting)
 * @occupancy_ppm: ones / m in parts per million
 * @occupancy: ones / m
 * @n_est: cardinality estimate -(m/k) ln(1 - ones/m) (kb_n_est())
 * @saturations: counter increments lost to saturation
 * @fpr_now_pico: predicted false-positive rate at n = @inserted
 *                (kb_plan_fpr_pico())
 */
struct kbloom_stats {
	__u32 type;
	__u32 hash_id;
	__u32 k;
	__u32 counter_bits;
	__u64 m;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 bytes;
	__u64 inserted;
	__u64 deleted;
	__u64 ones;
	__u64 occupancy_ppm;
	__u64 n_est;
	__u64 saturations;
	__u64 fpr_now_pico;
	double occupancy;
};

/* Fill @st.  Reads the whole array (occupancy).  Return: 0 or -EINVAL. */
int kbloom_stats(const struct kbloom_filter *f, struct kbloom_stats *st);

/* The name recorded in images ("" when none). */
const char *kbloom_name(const struct kbloom_filter *f);

/**
 * kbloom_set_name() - set or clear (NULL or "") the name
 * Return: 0; -EINVAL for an invalid name.
 */
int kbloom_set_name(struct kbloom_filter *f, const char *name);

/*
 * Images (uapi/kbloom_image.h): a 128-byte little-endian header and the
 * words.  Loading accepts images saved by kbloom.ko (KBLOOM_IOCTL_SAVE) and
 * by any other executor; the whole image is verified (kb_image_verify())
 * before anything is allocated or changed.  Image errors:
 *   -EMSGSIZE         length shorter than the header, or not header +
 *                     payload_len;
 *   -EBADMSG          bad magic, checksum or inconsistent header;
 *   -EPROTONOSUPPORT  unknown image version;
 *   -EOPNOTSUPP       unknown type or hash id.
 */

/* Bytes of @f's image. */
size_t kbloom_image_size(const struct kbloom_filter *f);

/**
 * kbloom_save() - write @f's image to @buf
 * @image_len: NULL, or out: the image's size (also on -EMSGSIZE)
 *
 * A snapshot taken while writers run contains at least every key whose add
 * returned before the save began.
 *
 * Return: 0; -EMSGSIZE when @buf_len is too small (nothing written);
 * -EINVAL.
 */
int kbloom_save(const struct kbloom_filter *f, void *buf, size_t buf_len,
		size_t *image_len);

/**
 * kbloom_save_alloc() - @f's image in a new malloc()ed buffer
 * Return: 0 (*@buf to free()), -ENOMEM, -EINVAL.
 */
int kbloom_save_alloc(const struct kbloom_filter *f, void **buf,
		      size_t *len);

/**
 * kbloom_load() - a new filter from an image in memory
 * @fp: out, untouched on error
 *
 * Return: 0; an image error; -EOPNOTSUPP for a valid image of a type
 * other than standard, blocked and counting (version 3: the survey
 * variants); -ENOMEM; -EINVAL for NULL arguments.
 */
int kbloom_load(const void *buf, size_t len, struct kbloom_filter **fp);

/**
 * kbloom_load_into() - replace @f's contents with an image in memory
 *
 * The image must have @f's geometry (type, hash id, seed, m, k, counter
 * width); its words, counts, capacity, target and name replace @f's.
 * Not concurrent with other uses of @f.
 *
 * Return: 0; an image error; -EINVAL for another geometry (@f unchanged).
 */
int kbloom_load_into(struct kbloom_filter *f, const void *buf, size_t len);

/**
 * kbloom_save_file() - write @f's image to @path (kbloom_out_open())
 *
 * A regular file (or a new one) is replaced atomically and keeps its
 * mode; a device, FIFO or "-" is written in place; a new image of a
 * SipHash filter (its secret seed) is created 0600.
 *
 * Return: 0; -ENOMEM; -errno of open/write/fsync/rename.
 */
int kbloom_save_file(const struct kbloom_filter *f, const char *path);

/**
 * kbloom_load_file() - a new filter from an image file (or pipe)
 *
 * The header is checked (kb_image_check()) before the payload buffer is
 * allocated; the whole image is verified before the filter is.
 *
 * Return: as kbloom_load(); -EMSGSIZE also for a file longer than its
 * image; -errno of open/read.
 */
int kbloom_load_file(const char *path, struct kbloom_filter **fp);

/*
 * Output files: the one way every image is written to a name.
 */

struct kbloom_out;

/* kbloom_out_open() flags */
#define KBLOOM_OUT_SECRET	(1U << 0)	/* a new file is created 0600 */

/**
 * kbloom_out_open() - open @path for writing one output
 * @path: a file name, or "-" for standard output
 * @flags: KBLOOM_OUT_*
 * @op: out: the output, for kbloom_out_fd(), _write(), _close()
 *
 * A regular file, or a name that does not exist, is written to a
 * temporary file beside it and renamed over it by kbloom_out_close(): the
 * name always holds a whole output, and an existing file keeps its mode
 * (and, for root, its owner).  A symlink is followed (its target is
 * replaced, the link stays).  "-", a device (/dev/null), a FIFO, a socket
 * and names under /dev and /proc (/dev/stdout) are written in place.  A
 * new file is created 0666 less the umask, 0600 with KBLOOM_OUT_SECRET.
 *
 * Return: 0; -EINVAL for a NULL or empty @path, a NULL @op or an unknown
 * flag; -ENOMEM; -errno of stat/open (a FIFO's open waits for a reader).
 */
int kbloom_out_open(const char *path, unsigned int flags,
		    struct kbloom_out **op);

/* kbloom_out_fd() - its file descriptor, to write to; -EINVAL for NULL */
int kbloom_out_fd(const struct kbloom_out *o);

/* kbloom_out_write() - all of @buf; Return: 0, -EINVAL, -errno of write */
int kbloom_out_write(struct kbloom_out *o, const void *buf, size_t len);

/**
 * kbloom_out_close() - finish and free @o
 * @commit: true: fsync() and rename into place; false: drop the
 *          temporary file (the name keeps what it held)
 *
 * Return: 0; -EINVAL for NULL; -errno of fsync/close/rename (then nothing
 * was replaced).
 */
int kbloom_out_close(struct kbloom_out *o, bool commit);

/* kbloom_image_secret() - does the image carry a secret (a SipHash key)? */
bool kbloom_image_secret(const void *img, size_t len);

/*
 * Raw access, for loading BPF maps and kbloom.ko without a copy.
 */

/**
 * kbloom_words() - the filter's word array, in native byte order
 * @nwords: NULL, or out: its length in 64-bit words
 *
 * For a blocked filter, block b is words [8b, 8b + 8), 64-byte aligned.
 * Words may change under concurrent writers: read them with relaxed
 * atomic loads.
 */
const __u64 *kbloom_words(const struct kbloom_filter *f, __u64 *nwords);

/**
 * kbloom_image_header() - the image header of @f without copying the
 * payload: header then kbloom_words() (each word little-endian; on a
 * little-endian host, the words as they are) form the image that
 * kbloom_save() would write.  The checksum covers the words as read now:
 * do not let writers run between this call and using the words.
 *
 * Return: 0 or -EINVAL.
 */
int kbloom_image_header(const struct kbloom_filter *f,
			struct kbloom_image_hdr *hdr);

#ifdef __cplusplus
}
#endif

#include "libkbloom_inline.h"

#endif /* _LIBKBLOOM_H */
