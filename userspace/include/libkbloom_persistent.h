/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom: the persistent Bloom filter (KBLOOM_TYPE_PERSISTENT; Peng et
 * al., SIGMOD 2018), an archive of closed epochs that answers "was KEY
 * added between epoch T1 and epoch T2" from at most 2 log2(T2 - T1 + 1)
 * filters.
 *
 * Each epoch is a filter of libkbloom.h (standard, blocked or counting),
 * closed when it is appended: a filter built here, or the image of a
 * kbloom.ko filter (kbloomctl save, KBLOOM_IOCTL_SAVE) or of an XDP map
 * (kbloomctl map save) taken at the end of a period.  Every epoch has the
 * geometry of the first (type, hash id, seed, m, k, counter width).  The
 * archive keeps the epochs in a binary time decomposition: the node of
 * level j covers 2^j aligned epochs and is the merge of its two children
 * (OR of bits; saturating sum of counters), made when its last epoch is
 * appended.  The rules, the epoch numbering and the image are
 * uapi/kbloom_var_persistent.h's.
 *
 * Memory: about twice the epochs' (2 n - popcount(n) filters).  A node of
 * level j holds the keys of 2^j epochs in one epoch's bits: its rate
 * grows with j, so size the epoch filters for the keys of the widest
 * range you query.
 *
 * Concurrency: none; an archive is used by one thread at a time (or
 * readers only: test, cover, stats and save may run together).
 *
 * Errors are negative errno values; a failing call changes nothing.
 */
#ifndef _LIBKBLOOM_PERSISTENT_H
#define _LIBKBLOOM_PERSISTENT_H

#include <stddef.h>
#include <linux/types.h>

#include "libkbloom.h"
#include "kbloom/uapi/kbloom_var_persistent.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kbloom_pers;

/* The epoch argument of kbloom_pers_append*(): the next one. */
#define KBLOOM_PERS_NEXT	(~0ULL)

/* An empty archive.  Return: 0; -EINVAL for NULL; -ENOMEM. */
int kbloom_pers_create(struct kbloom_pers **ap);

/* Free an archive and its filters (NULL is fine). */
void kbloom_pers_destroy(struct kbloom_pers *a);

/**
 * kbloom_pers_append() - close epoch @epoch with filter @f
 * @epoch: KBLOOM_PERS_NEXT, or the archive's next epoch number (first +
 *         epochs); any number for the first epoch of an empty archive
 *         (KBLOOM_PERS_NEXT: 0)
 * @f: the epoch's filter; on success the archive owns it (and frees it
 *     with the archive): add nothing to it afterwards
 *
 * Makes the nodes the epoch completes (uapi/kbloom_var_persistent.h).
 *
 * Return: 0; -EINVAL for NULL, a filter of another geometry than the
 * first epoch's, or an epoch that is not the next one; -ENOSPC when the
 * archive holds KB_PERS_EPOCHS_MAX epochs; -ENOMEM.  On error the caller
 * keeps @f.
 */
int kbloom_pers_append(struct kbloom_pers *a, __u64 epoch,
		       struct kbloom_filter *f);

/**
 * kbloom_pers_append_image() - close epoch @epoch with the filter of an
 * image (kbloom_save(), KBLOOM_IOCTL_SAVE, kbloomctl save or map save)
 *
 * Return: as kbloom_pers_append(); kbloom_load()'s errors (-EOPNOTSUPP
 * for a valid image of a type that is not standard, blocked or counting).
 */
int kbloom_pers_append_image(struct kbloom_pers *a, __u64 epoch,
			     const void *img, size_t len);

/**
 * struct kbloom_pers_node - one filter of the decomposition
 * @level: j: it covers 2^j epochs
 * @first, @last: its epochs (numbers, inclusive)
 * @f: the filter (owned by the archive)
 * @fpr_pico: its predicted rate: the type's formula
 *            (kb_plan_fpr_pico()) at its estimated distinct keys
 *            (kb_n_est() of its occupancy)
 */
struct kbloom_pers_node {
	__u32 level;
	__u32 reserved;
	__u64 first;
	__u64 last;
	const struct kbloom_filter *f;
	__u64 fpr_pico;
};

/**
 * kbloom_pers_cover() - the nodes that answer for epochs [@from, @to]
 * @nodes: NULL, or room for @max nodes, filled in order of time
 *
 * Return: the number of nodes of the cover (at most
 * kb_pers_cover_max(to - from + 1)); -EINVAL for NULL @a or @from > @to;
 * -ERANGE for a range not inside the archive's epochs; -ENOSPC when
 * @nodes is given and @max is too small.
 */
int kbloom_pers_cover(const struct kbloom_pers *a, __u64 from, __u64 to,
		      struct kbloom_pers_node *nodes, __u32 max);

/**
 * struct kbloom_pers_query - what kbloom_pers_test() looked at
 * @cover: nodes of the range's cover
 * @tested: nodes tested (the test stops at the first "possibly present")
 * @fpr_pico: the union bound of the cover: the sum of its nodes'
 *            predicted rates (at most KBLOOM_P_UNIT)
 */
struct kbloom_pers_query {
	__u32 cover;
	__u32 tested;
	__u64 fpr_pico;
};

/**
 * kbloom_pers_test() - was @key added in an epoch of [@from, @to]?
 * @q: NULL, or out: the filters the answer took
 *
 * Return: 1 possibly (in some epoch of the range), 0 definitely not;
 * -EINVAL for a bad key length or kbloom_pers_cover()'s errors.
 */
int kbloom_pers_test(const struct kbloom_pers *a, __u64 from, __u64 to,
		     const void *key, __u32 len, struct kbloom_pers_query *q);

/**
 * struct kbloom_pers_stats - kbloom_pers_stats() output
 * @first, @epochs: the epochs first .. first + epochs - 1 (0, 0: empty)
 * @members: filters held (2 epochs - popcount(epochs))
 * @levels: levels with a node (0 when empty)
 * @type, @hash_id, @k, @counter_bits, @m, @seed: the epochs' geometry
 * @bytes: memory of the filters' words
 * @inserted: the sum of the epochs' inserted counts
 * @level_nodes: nodes of each level
 * @level_fpr_max_pico: the highest predicted rate of a node of the level
 */
struct kbloom_pers_stats {
	__u64 first;
	__u64 epochs;
	__u64 members;
	__u32 levels;
	__u32 type;
	__u32 hash_id;
	__u32 k;
	__u32 counter_bits;
	__u32 reserved;
	__u64 m;
	__u64 seed;
	__u64 bytes;
	__u64 inserted;
	__u64 level_nodes[KB_PERS_LEVELS];
	__u64 level_fpr_max_pico[KB_PERS_LEVELS];
};

/* Fill @st.  Return: 0 or -EINVAL. */
int kbloom_pers_stats(const struct kbloom_pers *a,
		      struct kbloom_pers_stats *st);

/*
 * Images: a container of type KBLOOM_TYPE_PERSISTENT
 * (uapi/kbloom_var_persistent.h).  Load verifies the container, every
 * member and every node (the merge of its children) before it returns
 * the archive: kb_container_verify()'s errors, -EBADMSG for params, a
 * geometry or a node not as defined, -EOPNOTSUPP for a member of a type
 * that is not standard, blocked or counting.  An empty archive has no
 * image (-ENODATA).
 */

/* Bytes of @a's image (0 for NULL or an empty archive). */
size_t kbloom_pers_image_size(const struct kbloom_pers *a);

/**
 * kbloom_pers_save() - write @a's image to @buf
 * @image_len: NULL, or out: the image size (also on -EMSGSIZE)
 *
 * Return: 0; -EMSGSIZE when @buf_len is too small; -ENODATA for an empty
 * archive; -EINVAL; -ENOMEM.
 */
int kbloom_pers_save(const struct kbloom_pers *a, void *buf, size_t buf_len,
		     size_t *image_len);

/* @a's image in a new malloc()ed buffer.  Return: as kbloom_pers_save(). */
int kbloom_pers_save_alloc(const struct kbloom_pers *a, void **buf,
			   size_t *len);

/* A new archive from an image in memory.  Return: 0, an image error. */
int kbloom_pers_load(const void *buf, size_t len, struct kbloom_pers **ap);

/**
 * kbloom_pers_save_file() - write @a's image to @path (kbloom_out_open():
 * a regular file is replaced atomically; "-" is standard output)
 *
 * Return: as kbloom_pers_save(); -errno of open/write/fsync/rename.
 */
int kbloom_pers_save_file(const struct kbloom_pers *a, const char *path);

/**
 * kbloom_pers_load_file() - a new archive from a file ("-": standard input)
 *
 * Return: as kbloom_pers_load(); -errno of open/read.
 */
int kbloom_pers_load_file(const char *path, struct kbloom_pers **ap);

/*
 * Queries on an archive file without loading it: the container header and
 * the members of the range's cover only (at most 2 log2 L filters), each
 * verified on its own (its checksum, the archive's geometry); the
 * container's checksum, which covers every member, is not read.  The
 * file must be a regular file (it is read at offsets).
 */

/**
 * kbloom_pers_file_epochs() - the epochs of the archive at @path
 * @first, @epochs: out: its epochs first .. first + epochs - 1
 *
 * Return: 0; -errno of open/read; the header's errors (as for
 * kbloom_pers_load(), -ESPIPE for a file that is not a regular file).
 */
int kbloom_pers_file_epochs(const char *path, __u64 *first, __u64 *epochs);

/**
 * kbloom_pers_test_file() - kbloom_pers_test() on the archive at @path,
 * reading only the filters of the range's cover
 *
 * Return: as kbloom_pers_test(); the errors of kbloom_pers_file_epochs();
 * -EBADMSG for a member that is not a valid filter of the archive's
 * geometry; -ENOMEM.
 */
int kbloom_pers_test_file(const char *path, __u64 from, __u64 to,
			  const void *key, __u32 len,
			  struct kbloom_pers_query *q);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_PERSISTENT_H */
