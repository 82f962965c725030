/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the kmod suite (header-only: every C file of tests/kmod is its
 * own program).  Plain functions returning 0 or -errno, so that tests can
 * assert on the exact errno of every ioctl.
 */
#ifndef KBLOOM_KMOD_UTIL_H
#define KBLOOM_KMOD_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/syscall.h>

#include "uapi/kbloom.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* ioctl() as 0 or -errno. */
static inline int ku_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

static inline int ku_open(void)
{
	return open(KBLOOM_DEVICE, O_RDWR | O_CLOEXEC);
}

static inline void ku_name(char dst[KBLOOM_NAME_LEN], const char *name)
{
	size_t n = strnlen(name, KBLOOM_NAME_LEN - 1);

	memset(dst, 0, KBLOOM_NAME_LEN);
	memcpy(dst, name, n);
}

/* CREATE from explicit (m, k); @seed is used when non-zero. */
static inline int ku_create_mk(int fd, const char *name, __u32 type, __u64 m,
			       __u32 k, __u32 counter_bits, __u64 seed)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = type, .m = m, .k = k,
		.counter_bits = counter_bits, .seed = seed,
		.flags = seed ? KBLOOM_CREATE_SEED : 0,
	};

	ku_name(c.name, name);
	return ku_ioctl(fd, KBLOOM_IOCTL_CREATE, &c);
}

/* CREATE from (n, p) through the planner; the result in @out if given. */
static inline int ku_create_np(int fd, const char *name, __u32 type, __u64 n,
			       __u64 p_pico, struct kbloom_create *out)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = type, .capacity = n,
		.fpr_pico = p_pico,
	};
	int ret;

	ku_name(c.name, name);
	ret = ku_ioctl(fd, KBLOOM_IOCTL_CREATE, &c);
	if (out)
		*out = c;
	return ret;
}

static inline int ku_name_cmd(int fd, unsigned long cmd, const char *name,
			      __u32 flags)
{
	struct kbloom_name_op o = { .size = sizeof(o), .flags = flags };

	ku_name(o.name, name);
	return ku_ioctl(fd, cmd, &o);
}

static inline int ku_destroy(int fd, const char *name)
{
	return ku_name_cmd(fd, KBLOOM_IOCTL_DESTROY, name, 0);
}

static inline int ku_destroy_all(int fd)
{
	return ku_name_cmd(fd, KBLOOM_IOCTL_DESTROY, "", KBLOOM_ALL);
}

/* SWAP or RENAME of @a and @b, with @flags (0 but for error tests). */
static inline int ku_name_pair(int fd, unsigned long cmd, const char *a,
			       const char *b, __u32 flags)
{
	struct kbloom_name_pair p = { .size = sizeof(p), .flags = flags };

	ku_name(p.name, a);
	ku_name(p.other, b);
	return ku_ioctl(fd, cmd, &p);
}

/* ADD, DEL or TEST of a batch; done and hits returned through pointers. */
static inline int ku_keys(int fd, unsigned long cmd, const char *name,
			  const void *keys, __u64 keys_len, __u32 key_len,
			  __u32 count, void *results, __u32 *done, __u32 *hits)
{
	struct kbloom_keys b = {
		.size = sizeof(b), .key_len = key_len, .count = count,
		.keys = (uintptr_t)keys, .keys_len = keys_len,
		.results = (uintptr_t)results,
	};
	int ret;

	ku_name(b.name, name);
	ret = ku_ioctl(fd, cmd, &b);
	if (done)
		*done = b.done;
	if (hits)
		*hits = b.hits;
	return ret;
}

static inline int ku_stat(int fd, const char *name, struct kbloom_stat *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	ku_name(st->name, name);
	return ku_ioctl(fd, KBLOOM_IOCTL_STAT, st);
}

static inline int ku_stat_dev(int fd, struct kbloom_stat *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	st->flags = KBLOOM_STAT_DEVICE;
	return ku_ioctl(fd, KBLOOM_IOCTL_STAT, st);
}

/* The device's byte count, or -errno. */
static inline long long ku_dev_bytes(int fd)
{
	struct kbloom_stat st;
	int ret = ku_stat_dev(fd, &st);

	return ret ? ret : (long long)st.bytes;
}

/*
 * SAVE @name into a malloc()ed buffer (*img, *len).  Asks for the size
 * first, as documented.
 */
static inline int ku_save(int fd, const char *name, void **img, __u64 *len)
{
	struct kbloom_image_op op = { .size = sizeof(op) };
	int ret;

	ku_name(op.name, name);
	ret = ku_ioctl(fd, KBLOOM_IOCTL_SAVE, &op);
	if (ret != -EMSGSIZE)
		return ret ? ret : -EPROTO;
	*img = malloc(op.image_len);
	if (!*img)
		return -ENOMEM;
	op.buf = (uintptr_t)*img;
	op.buf_len = op.image_len;
	ret = ku_ioctl(fd, KBLOOM_IOCTL_SAVE, &op);
	if (ret) {
		free(*img);
		*img = NULL;
		return ret;
	}
	*len = op.image_len;
	return 0;
}

static inline int ku_restore(int fd, const char *name, const void *img,
			     __u64 len, __u32 flags)
{
	struct kbloom_image_op op = {
		.size = sizeof(op), .flags = flags,
		.buf = (uintptr_t)img, .buf_len = len,
	};

	ku_name(op.name, name);
	return ku_ioctl(fd, KBLOOM_IOCTL_RESTORE, &op);
}

/* Key @i of key space @space: 16 bytes, distinct for distinct (space, i). */
static inline void ku_key16(__u8 out[16], __u32 space, __u64 i)
{
	memcpy(out, &i, 8);
	memcpy(out + 8, &space, 4);
	memcpy(out + 12, "kbK", 4);
}

/* Fill @buf with @count fixed 16-byte keys of @space starting at @first. */
static inline void ku_keys16(__u8 *buf, __u32 space, __u64 first, __u32 count)
{
	__u32 i;

	for (i = 0; i < count; i++)
		ku_key16(buf + 16 * i, space, first + i);
}

/* xorshift64*: the tests' deterministic PRNG. */
static inline __u64 ku_rand(__u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/* Uniform enough in [0, n) for the tests; 0 when n is 0. */
static inline __u64 ku_rand_below(__u64 *s, __u64 n)
{
	return n ? ku_rand(s) % n : 0;
}

static inline int ku_popcount_bytes(const __u8 *p, size_t n)
{
	int c = 0;

	while (n--)
		c += __builtin_popcount(*p++);
	return c;
}

/* Value of a module parameter from sysfs, or @def. */
static inline unsigned long long ku_param(const char *name,
					  unsigned long long def)
{
	char path[128];
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/kbloom/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return def;
	if (fscanf(f, "%llu", &v) != 1)
		v = def;
	fclose(f);
	return v;
}

/* finit_module() of the module file @path (what insmod does); -errno. */
static inline int ku_mod_load(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

/* delete_module() of kbloom (rmmod), without waiting; -errno. */
static inline int ku_mod_unload(void)
{
	return syscall(SYS_delete_module, "kbloom", O_NONBLOCK) ? -errno : 0;
}

/* Occurrences of @needle in the kernel log, or -1. */
static inline int ku_klog_count(const char *needle)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), n = 0;
	char *buf, *p;

	if (len <= 0)
		return -1;
	buf = calloc(1, len + 1);
	if (!buf)
		return -1;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	for (p = buf; len > 0 && (p = strstr(p, needle)); p++)
		n++;
	free(buf);
	return len < 0 ? -1 : n;
}

#endif /* KBLOOM_KMOD_UTIL_H */
