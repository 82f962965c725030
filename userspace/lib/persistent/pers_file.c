// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom persistent filter: archives in files.  Saving goes through
 * kbloom_out (a regular file is replaced atomically); loading reads the
 * container header first and checks it against the length it announces
 * before it allocates the rest.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "pers_int.h"

int kbloom_pers_save_file(const struct kbloom_pers *a, const char *path)
{
	struct kbloom_out *o;
	void *img;
	size_t len;
	int ret;

	if (!a || !path)
		return -EINVAL;
	ret = kbloom_pers_save_alloc(a, &img, &len);
	if (ret)
		return ret;
	ret = kbloom_out_open(path, a->geom.hash_id == KBLOOM_HASH_SIPHASH13 ?
			      KBLOOM_OUT_SECRET : 0, &o);
	if (!ret) {
		ret = kbloom_out_write(o, img, len);
		ret = kbloom_out_close(o, !ret) ?: ret;
	}
	free(img);
	return ret;
}

/*
 * Exactly @len bytes of @fd, at @off (pread) or, with @off < 0, where it
 * stands (read: a pipe): 0, -EMSGSIZE at an early end, -errno.
 */
int kbp_read_full(int fd, void *buf, size_t len, __s64 off)
{
	__u8 *p = buf;
	ssize_t r;

	while (len) {
		r = off < 0 ? read(fd, p, len) : pread(fd, p, len, off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			return -EMSGSIZE;
		p += r;
		len -= r;
		if (off >= 0)
			off += r;
	}
	return 0;
}

/* The container behind @fd, checked header first, in a new buffer. */
static int kbp_read_image(int fd, void **out, size_t *out_len)
{
	struct kbloom_container_hdr c;
	__u64 total;
	__u8 extra;
	void *img;
	int ret;

	ret = kbp_read_full(fd, &c, sizeof(c), -1);
	if (ret)
		return ret;
	total = sizeof(c) + kb_le64(c.payload_len);
	ret = total < sizeof(c) ? -EMSGSIZE : kb_container_check(&c, total);
	if (ret)
		return ret;
	img = malloc(total);
	if (!img)
		return -ENOMEM;
	memcpy(img, &c, sizeof(c));
	ret = kbp_read_full(fd, (__u8 *)img + sizeof(c), total - sizeof(c),
			    -1);
	if (!ret && read(fd, &extra, 1) > 0)
		ret = -EMSGSIZE;		/* longer than announced */
	if (ret) {
		free(img);
		return ret;
	}
	*out = img;
	*out_len = total;
	return 0;
}

int kbloom_pers_load_file(const char *path, struct kbloom_pers **ap)
{
	bool std = path && !strcmp(path, "-");
	size_t len;
	void *img;
	int fd, ret;

	if (!path || !ap)
		return -EINVAL;
	fd = std ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = kbp_read_image(fd, &img, &len);
	if (!std)
		close(fd);
	if (ret)
		return ret;
	ret = kbloom_pers_load(img, len, ap);
	free(img);
	return ret;
}
