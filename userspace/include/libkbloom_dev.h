/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_dev: typed wrappers over the /dev/kbloom ioctls (uapi/kbloom.h).
 *
 * Every function returns 0 (or a non-negative value where it says so) or a
 * negative errno: the ioctl's errno as documented in uapi/kbloom.h, or
 * -EINVAL for an argument refused before any ioctl is made (an invalid
 * name, a NULL pointer where one is required, a malformed key batch).
 * Structures passed in are completed by the wrapper (size, name); callers
 * fill only the fields they mean.
 *
 * The *_batch() helpers take key sets of any size and split them into
 * ioctls of at most KBLOOM_BATCH_KEYS_MAX keys and KBLOOM_BATCH_BYTES_MAX
 * bytes.  The whole set is validated before the first ioctl: a malformed
 * set applies nothing.  When an ioctl fails part-way, the keys of earlier
 * ioctls stay applied and struct kbloom_dev_batch says exactly how many.
 */
#ifndef _LIBKBLOOM_DEV_H
#define _LIBKBLOOM_DEV_H

#include <stddef.h>
#include <linux/types.h>

#include "kbloom/uapi/kbloom.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * kbloom_dev_open() - open the device read-write, close-on-exec
 * @path: NULL for KBLOOM_DEVICE
 *
 * Return: the file descriptor, or -errno of open().
 */
int kbloom_dev_open(const char *path);

/* close() that keeps errno out of the way; a negative @fd is ignored. */
void kbloom_dev_close(int fd);

/* KBLOOM_IOCTL_VERSION into @v. */
int kbloom_dev_version(int fd, struct kbloom_version *v);

/**
 * kbloom_dev_create() - KBLOOM_IOCTL_CREATE
 * @c: filled by the caller except @size; @c->name must be a valid name.
 *     On success the out fields (m, k, seed, bytes, id) are set.
 */
int kbloom_dev_create(int fd, struct kbloom_create *c);

/* KBLOOM_IOCTL_DESTROY of @name, or of every filter when @name is NULL. */
int kbloom_dev_destroy(int fd, const char *name);

/* KBLOOM_IOCTL_FLUSH of @name, or of every filter when @name is NULL. */
int kbloom_dev_flush(int fd, const char *name);

/*
 * KBLOOM_IOCTL_SWAP: @a and @b exchange their filters (ipset's swap); a
 * lookup of either name meanwhile finds the old or the new filter.
 * -EINVAL (a bad or the same name), -ENOENT (either is missing).
 */
int kbloom_dev_swap(int fd, const char *a, const char *b);

/*
 * KBLOOM_IOCTL_RENAME: the filter @name is named @new_name from now on.
 * -EINVAL (a bad or the same name), -ENOENT (no @name), -EEXIST
 * (@new_name is in use).
 */
int kbloom_dev_rename(int fd, const char *name, const char *new_name);

/**
 * kbloom_dev_keys() - one KBLOOM_IOCTL_ADD, _DEL or _TEST
 * @req: the ioctl request
 * @k: filled by the caller except @size and @name
 *
 * No splitting and no validation beyond the name: the module's answer as
 * is.  Most callers want the *_batch() helpers below.
 */
int kbloom_dev_keys(int fd, unsigned long req, const char *name,
		    struct kbloom_keys *k);

/* KBLOOM_IOCTL_STAT of @name, or of the device when @name is NULL. */
int kbloom_dev_stat(int fd, const char *name, struct kbloom_stat *st);

/**
 * kbloom_dev_list() - KBLOOM_IOCTL_LIST into a caller's array
 * @entries: room for *@count entries (may be NULL when *@count is 0)
 * @count: in: entries at @entries; out: the number of filters
 *
 * Return: 0; -EMSGSIZE when more filters exist (*@count says how many).
 */
int kbloom_dev_list(int fd, struct kbloom_list_entry *entries, __u32 *count);

/**
 * kbloom_dev_list_alloc() - every filter, sorted by name
 * @entries: out: a malloc()ed array (NULL when there is no filter)
 * @count: out: its length
 *
 * Retries while filters are being created concurrently.
 */
int kbloom_dev_list_alloc(int fd, struct kbloom_list_entry **entries,
			  __u32 *count);

/**
 * kbloom_dev_save() - KBLOOM_IOCTL_SAVE
 * @buf_len: bytes at @buf; 0 asks for the size
 * @image_len: out: the image's size (also on -EMSGSIZE)
 */
int kbloom_dev_save(int fd, const char *name, void *buf, __u64 buf_len,
		    __u64 *image_len);

/**
 * kbloom_dev_save_alloc() - the image of @name in a new malloc()ed buffer
 *
 * Asks for the size, then saves; retries when the filter grew in between
 * (a concurrent restore --replace).  Return: 0 (*@buf to free()) or -errno.
 */
int kbloom_dev_save_alloc(int fd, const char *name, void **buf, size_t *len);

/**
 * kbloom_dev_restore() - KBLOOM_IOCTL_RESTORE
 * @name: the filter to create or replace; NULL or "" for the image's name
 * @flags: KBLOOM_RESTORE_REPLACE or 0
 */
int kbloom_dev_restore(int fd, const char *name, const void *buf,
		       size_t len, __u32 flags);

/**
 * struct kbloom_dev_batch - in/out of the *_batch() helpers
 * @progress: in, optional: called after every ioctl with the keys done so
 *            far and the total
 * @progress_arg: in: passed to @progress
 * @max_keys: in: keys per ioctl, 0 for KBLOOM_BATCH_KEYS_MAX (smaller
 *            values exist for tests of the splitting)
 * @max_bytes: in: key bytes per ioctl, 0 for KBLOOM_BATCH_BYTES_MAX
 * @done: out: keys applied (add: inserted; del: deleted; test: tested)
 * @hits: out: test: keys possibly present; del: keys skipped because they
 *        are definitely absent; add_new: keys that were new
 * @ioctls: out: ioctls made
 */
struct kbloom_dev_batch {
	void (*progress)(void *arg, __u64 done, __u64 total);
	void *progress_arg;
	__u32 max_keys;
	__u64 max_bytes;
	__u64 done;
	__u64 hits;
	__u64 ioctls;
};

/*
 * Key sets, in the layout of struct kbloom_keys: with @key_len
 * 1..KBLOOM_KEY_MAX, @count keys of @key_len bytes back to back; with
 * @key_len 0, @count keys each prefixed by one length byte
 * (1..KBLOOM_KEY_MAX).  @keys_len must be exactly what they take.  A
 * @count of 0 makes no ioctl and returns 0.  @res may be NULL.
 */

/* Validate a key set as above: 0 or -EINVAL. */
int kbloom_dev_keys_check(const void *keys, size_t keys_len, __u32 key_len,
			  __u64 count);

int kbloom_dev_add_batch(int fd, const char *name, const void *keys,
			 size_t keys_len, __u32 key_len, __u64 count,
			 struct kbloom_dev_batch *res);

/**
 * kbloom_dev_add_batch_new() - add a key set, and say which keys were new
 * @fresh: a bitmap of (count + 7) / 8 bytes: bit i (byte i / 8, bit i % 8)
 *         set iff key i was definitely absent when the module inserted it
 *         (RedisBloom's BF.MADD; the second of two equal keys is not new)
 *
 * Each ioctl's results come from the very call that inserts its keys, on
 * one filter (KBLOOM_IOCTL_ADD with results, ABI 1.2); a set larger than
 * one ioctl takes several.  Return: the number of new keys (also in
 * @res->hits), or a negative errno (then @fresh is only valid for the
 * @res->done keys applied, rounded down to whole ioctls).
 */
long kbloom_dev_add_batch_new(int fd, const char *name, const void *keys,
			      size_t keys_len, __u32 key_len, __u64 count,
			      __u8 *fresh, struct kbloom_dev_batch *res);

int kbloom_dev_del_batch(int fd, const char *name, const void *keys,
			 size_t keys_len, __u32 key_len, __u64 count,
			 struct kbloom_dev_batch *res);

/**
 * kbloom_dev_test_batch() - test a key set of any size
 * @results: NULL, or a bitmap of (count + 7) / 8 bytes: bit i (byte i / 8,
 *           bit i % 8) set iff key i is possibly present
 *
 * Return: the number of keys possibly present (also in @res->hits), or a
 * negative errno.
 */
long kbloom_dev_test_batch(int fd, const char *name, const void *keys,
			   size_t keys_len, __u32 key_len, __u64 count,
			   __u8 *results, struct kbloom_dev_batch *res);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_DEV_H */
