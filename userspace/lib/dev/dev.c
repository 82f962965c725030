// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_dev: the /dev/kbloom ioctls, typed, and key batches of any
 * size split into ioctls the module accepts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "libkbloom_dev.h"

/* Copy a valid name into a NUL-padded field; -EINVAL otherwise. */
static int dev_name(char dst[KBLOOM_NAME_LEN], const char *name)
{
	memset(dst, 0, KBLOOM_NAME_LEN);
	if (!name || strnlen(name, KBLOOM_NAME_LEN) >= KBLOOM_NAME_LEN ||
	    !kb_name_valid(name))
		return -EINVAL;
	memcpy(dst, name, strlen(name));
	return 0;
}

static int dev_ioctl(int fd, unsigned long req, void *arg)
{
	if (ioctl(fd, req, arg) < 0)
		return -errno;
	return 0;
}

int kbloom_dev_open(const char *path)
{
	int fd = open(path ? path : KBLOOM_DEVICE, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

void kbloom_dev_close(int fd)
{
	int saved = errno;

	if (fd >= 0)
		close(fd);
	errno = saved;
}

int kbloom_dev_version(int fd, struct kbloom_version *v)
{
	if (!v)
		return -EINVAL;
	memset(v, 0, sizeof(*v));
	v->size = sizeof(*v);
	return dev_ioctl(fd, KBLOOM_IOCTL_VERSION, v);
}

int kbloom_dev_create(int fd, struct kbloom_create *c)
{
	if (!c || strnlen(c->name, KBLOOM_NAME_LEN) >= KBLOOM_NAME_LEN ||
	    !kb_name_valid(c->name))
		return -EINVAL;
	c->size = sizeof(*c);
	return dev_ioctl(fd, KBLOOM_IOCTL_CREATE, c);
}

static int dev_name_op(int fd, unsigned long req, const char *name)
{
	struct kbloom_name_op op = { .size = sizeof(op) };

	if (!name)
		op.flags = KBLOOM_ALL;
	else if (dev_name(op.name, name))
		return -EINVAL;
	return dev_ioctl(fd, req, &op);
}

int kbloom_dev_destroy(int fd, const char *name)
{
	return dev_name_op(fd, KBLOOM_IOCTL_DESTROY, name);
}

int kbloom_dev_flush(int fd, const char *name)
{
	return dev_name_op(fd, KBLOOM_IOCTL_FLUSH, name);
}

static int dev_name_pair(int fd, unsigned long req, const char *name,
			 const char *other)
{
	struct kbloom_name_pair op = { .size = sizeof(op) };

	if (dev_name(op.name, name) || dev_name(op.other, other))
		return -EINVAL;
	return dev_ioctl(fd, req, &op);
}

int kbloom_dev_swap(int fd, const char *a, const char *b)
{
	return dev_name_pair(fd, KBLOOM_IOCTL_SWAP, a, b);
}

int kbloom_dev_rename(int fd, const char *name, const char *new_name)
{
	return dev_name_pair(fd, KBLOOM_IOCTL_RENAME, name, new_name);
}

int kbloom_dev_keys(int fd, unsigned long req, const char *name,
		    struct kbloom_keys *k)
{
	if (!k || dev_name(k->name, name))
		return -EINVAL;
	k->size = sizeof(*k);
	return dev_ioctl(fd, req, k);
}

int kbloom_dev_stat(int fd, const char *name, struct kbloom_stat *st)
{
	if (!st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	if (!name)
		st->flags = KBLOOM_STAT_DEVICE;
	else if (dev_name(st->name, name))
		return -EINVAL;
	return dev_ioctl(fd, KBLOOM_IOCTL_STAT, st);
}

int kbloom_dev_list(int fd, struct kbloom_list_entry *entries, __u32 *count)
{
	struct kbloom_list l = { .size = sizeof(l) };
	int ret;

	if (!count || (*count && !entries))
		return -EINVAL;
	l.count = *count;
	l.entries = (__u64)(unsigned long)entries;
	ret = dev_ioctl(fd, KBLOOM_IOCTL_LIST, &l);
	if (!ret || ret == -EMSGSIZE)
		*count = l.count;
	return ret;
}

int kbloom_dev_list_alloc(int fd, struct kbloom_list_entry **entries,
			  __u32 *count)
{
	struct kbloom_list_entry *e = NULL, *ne;
	__u32 room = 0, n;
	int ret, tries;

	if (!entries || !count)
		return -EINVAL;
	for (tries = 0; tries < 16; tries++) {
		n = room;
		ret = kbloom_dev_list(fd, e, &n);
		if (!ret && n <= room) {
			if (!n) {
				free(e);
				e = NULL;
			}
			*entries = e;
			*count = n;
			return 0;
		}
		if (ret && ret != -EMSGSIZE)
			break;
		/* some slack for filters created in between */
		room = n + 8;
		ne = realloc(e, (size_t)room * sizeof(*e));
		if (!ne) {
			ret = -ENOMEM;
			break;
		}
		e = ne;
	}
	free(e);
	return ret ? ret : -EAGAIN;
}

int kbloom_dev_save(int fd, const char *name, void *buf, __u64 buf_len,
		    __u64 *image_len)
{
	struct kbloom_image_op op = { .size = sizeof(op) };
	int ret;

	if (dev_name(op.name, name) || (buf_len && !buf))
		return -EINVAL;
	op.buf = (__u64)(unsigned long)buf;
	op.buf_len = buf_len;
	ret = dev_ioctl(fd, KBLOOM_IOCTL_SAVE, &op);
	if (image_len && (!ret || ret == -EMSGSIZE))
		*image_len = op.image_len;
	return ret;
}

int kbloom_dev_save_alloc(int fd, const char *name, void **bufp, size_t *lenp)
{
	__u64 need = 0, have = 0;
	void *buf = NULL, *nb;
	int ret, tries;

	if (!bufp || !lenp)
		return -EINVAL;
	for (tries = 0; tries < 8; tries++) {
		ret = kbloom_dev_save(fd, name, buf, have, &need);
		if (!ret && have) {
			*bufp = buf;
			*lenp = need;
			return 0;
		}
		if (ret && ret != -EMSGSIZE)
			break;
		if (need < KBLOOM_IMAGE_HDR_LEN || need > (size_t)-1) {
			ret = -EBADMSG;
			break;
		}
		nb = realloc(buf, need);
		if (!nb) {
			ret = -ENOMEM;
			break;
		}
		buf = nb;
		have = need;
	}
	free(buf);
	return ret ? ret : -EAGAIN;
}

int kbloom_dev_restore(int fd, const char *name, const void *buf, size_t len,
		       __u32 flags)
{
	struct kbloom_image_op op = { .size = sizeof(op), .flags = flags };

	if (!buf || (name && name[0] && dev_name(op.name, name)))
		return -EINVAL;
	op.buf = (__u64)(unsigned long)buf;
	op.buf_len = len;
	return dev_ioctl(fd, KBLOOM_IOCTL_RESTORE, &op);
}

/* --- key batches ---------------------------------------------------------- */

int kbloom_dev_keys_check(const void *keys, size_t keys_len, __u32 key_len,
			  __u64 count)
{
	const __u8 *p = keys;
	size_t off = 0;
	__u64 i;

	if (key_len > KBLOOM_KEY_MAX || (count && !keys))
		return -EINVAL;
	if (key_len)
		return count <= keys_len / key_len &&
		       keys_len == count * key_len ? 0 : -EINVAL;
	for (i = 0; i < count; i++) {
		if (off >= keys_len || p[off] < 1 || p[off] > KBLOOM_KEY_MAX)
			return -EINVAL;
		off += 1 + p[off];
	}
	return off == keys_len ? 0 : -EINVAL;
}

/*
 * The next chunk of a checked key set from byte @off: how many keys and how
 * many bytes one ioctl takes.  Except for the last chunk, the count is a
 * multiple of 8 so that each chunk's results start on a byte of the
 * caller's bitmap.
 */
static void batch_chunk(const __u8 *keys, size_t off, __u32 key_len,
			__u64 left, __u32 max_keys, __u64 max_bytes,
			__u32 *nkeys, size_t *nbytes)
{
	__u64 n, lim = max_keys;
	size_t b = 0, kb, start[8];

	if (key_len) {
		if (max_bytes / key_len < lim)
			lim = max_bytes / key_len;
		n = left <= lim ? left : lim & ~7ULL;
		*nkeys = (__u32)n;
		*nbytes = n * key_len;
		return;
	}
	for (n = 0; n < left && n < lim; n++) {
		kb = 1 + (size_t)keys[off + b];
		if (b + kb > max_bytes)
			break;
		start[n & 7] = b;
		b += kb;
	}
	if (n < left && (n & 7)) {
		/* back off to a multiple of 8 keys: n >= 8 here */
		n &= ~7ULL;
		b = start[n & 7];
	}
	*nkeys = (__u32)n;
	*nbytes = b;
}

/*
 * The caller's limits per ioctl, within the module's, and at least 8 keys
 * of the largest size.
 */
static void batch_limits(const struct kbloom_dev_batch *res, __u32 *max_keys,
			 __u64 *max_bytes)
{
	*max_keys = res->max_keys && res->max_keys < KBLOOM_BATCH_KEYS_MAX ?
		    res->max_keys : KBLOOM_BATCH_KEYS_MAX;
	*max_bytes = res->max_bytes && res->max_bytes < KBLOOM_BATCH_BYTES_MAX ?
		     res->max_bytes : KBLOOM_BATCH_BYTES_MAX;
	if (*max_keys < 8)
		*max_keys = 8;
	if (*max_bytes < 8 * (1 + KBLOOM_KEY_MAX))
		*max_bytes = 8 * (1 + KBLOOM_KEY_MAX);
}

static long dev_batch(int fd, unsigned long req, const char *name,
		      const void *keys, size_t keys_len, __u32 key_len,
		      __u64 count, __u8 *results, struct kbloom_dev_batch *res)
{
	struct kbloom_dev_batch dummy = { 0 };
	const __u8 *kp = keys;
	struct kbloom_keys k;
	char nm[KBLOOM_NAME_LEN];
	__u8 *tmp = NULL;
	__u32 max_keys, nkeys;
	__u64 max_bytes;
	size_t off = 0, nbytes;
	__u64 pos = 0;
	int ret = 0;

	if (!res)
		res = &dummy;
	res->done = 0;
	res->hits = 0;
	res->ioctls = 0;
	if (dev_name(nm, name) || kbloom_dev_keys_check(keys, keys_len,
							key_len, count))
		return -EINVAL;
	batch_limits(res, &max_keys, &max_bytes);
	if (req == KBLOOM_IOCTL_TEST && !results && count) {
		tmp = malloc(((count < max_keys ? count : max_keys) + 7) / 8);
		if (!tmp)
			return -ENOMEM;
	}
	while (pos < count) {
		batch_chunk(kp, off, key_len, count - pos, max_keys, max_bytes,
			    &nkeys, &nbytes);
		memset(&k, 0, sizeof(k));
		k.key_len = key_len;
		k.count = nkeys;
		k.keys = (__u64)(unsigned long)(kp + off);
		k.keys_len = nbytes;
		if (req == KBLOOM_IOCTL_TEST || results)
			k.results = (__u64)(unsigned long)(results ?
					results + pos / 8 : tmp);
		ret = kbloom_dev_keys(fd, req, nm, &k);
		res->ioctls++;
		res->done += k.done;
		res->hits += k.hits;
		if (ret)
			break;
		/* DEL: deleted + skipped; ADD, TEST: done */
		if (k.done + (req == KBLOOM_IOCTL_DEL ? k.hits : 0) != nkeys) {
			ret = -EIO;	/* the module broke its contract */
			break;
		}
		pos += nkeys;
		off += nbytes;
		if (res->progress)
			res->progress(res->progress_arg, pos, count);
	}
	free(tmp);
	if (ret)
		return ret;
	return req == KBLOOM_IOCTL_TEST || results ? (long)res->hits : 0;
}

int kbloom_dev_add_batch(int fd, const char *name, const void *keys,
			 size_t keys_len, __u32 key_len, __u64 count,
			 struct kbloom_dev_batch *res)
{
	return (int)dev_batch(fd, KBLOOM_IOCTL_ADD, name, keys, keys_len,
			      key_len, count, NULL, res);
}

long kbloom_dev_add_batch_new(int fd, const char *name, const void *keys,
			      size_t keys_len, __u32 key_len, __u64 count,
			      __u8 *fresh, struct kbloom_dev_batch *res)
{
	if (!fresh)
		return -EINVAL;
	return dev_batch(fd, KBLOOM_IOCTL_ADD, name, keys, keys_len, key_len,
			 count, fresh, res);
}

int kbloom_dev_del_batch(int fd, const char *name, const void *keys,
			 size_t keys_len, __u32 key_len, __u64 count,
			 struct kbloom_dev_batch *res)
{
	return (int)dev_batch(fd, KBLOOM_IOCTL_DEL, name, keys, keys_len,
			      key_len, count, NULL, res);
}

long kbloom_dev_test_batch(int fd, const char *name, const void *keys,
			   size_t keys_len, __u32 key_len, __u64 count,
			   __u8 *results, struct kbloom_dev_batch *res)
{
	return dev_batch(fd, KBLOOM_IOCTL_TEST, name, keys, keys_len, key_len,
			 count, results, res);
}
