// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom IBLT: an image read from a file or a pipe.  The base header
 * is read and checked first, and the payload it announces is bounded by
 * the largest table (KB_IBLT_CELLS_MAX cells of KB_IBLT_KEY_WORDS_MAX key
 * words) before a buffer is allocated: an oversize digest is refused
 * (-EFBIG) without reading it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iblt_int.h"

#define KBIB_HEAD_LEN	(KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN)
#define KBIB_PAYLOAD_MAX \
	(KB_IBLT_CELLS_MAX * (__u64)kb_iblt_cell_words(KB_IBLT_KEY_WORDS_MAX) * 8)

/* Read up to @len bytes: the count, or -errno. */
static ssize_t kbib_read_all(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t r;

	while (got < len) {
		r = read(fd, (__u8 *)buf + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		got += r;
	}
	return got;
}

/* The image's length from its base header, or an image errno. */
static int kbib_total(const struct kbloom_image_hdr *h, size_t *total)
{
	__u64 pl = kb_le64(h->payload_len);

	if (kb_le32(h->magic) != KBLOOM_IMAGE_MAGIC)
		return -EBADMSG;
	if (kb_le16(h->version) != KBLOOM_IMAGE_VERSION_GEOM ||
	    h->type != KBLOOM_TYPE_IBLT)
		return -EOPNOTSUPP;
	if (pl > KBIB_PAYLOAD_MAX)
		return -EFBIG;
	*total = KBIB_HEAD_LEN + pl;
	return 0;
}

static int kbib_read_image(int fd, void **out, size_t *len)
{
	struct kbloom_image_hdr h;
	size_t total;
	ssize_t r;
	__u8 extra;
	void *img;
	int ret;

	r = kbib_read_all(fd, &h, sizeof(h));
	if (r < 0)
		return r;
	if (r < (ssize_t)sizeof(h))
		return -EMSGSIZE;
	ret = kbib_total(&h, &total);
	if (ret)
		return ret;
	img = malloc(total);
	if (!img)
		return -ENOMEM;
	memcpy(img, &h, sizeof(h));
	r = kbib_read_all(fd, (__u8 *)img + sizeof(h), total - sizeof(h));
	if (r >= 0 && ((size_t)r != total - sizeof(h) ||
		       kbib_read_all(fd, &extra, 1) != 0))
		r = -EMSGSIZE;
	if (r < 0) {
		free(img);
		return r;
	}
	*out = img;
	*len = total;
	return 0;
}

int kbloom_iblt_load_file(const char *path, struct kbloom_iblt **fp)
{
	size_t len = 0;
	void *img = NULL;
	int fd, ret;

	if (!path || !fp)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = kbib_read_image(fd, &img, &len);
	close(fd);
	if (ret)
		return ret;
	ret = kbloom_iblt_load(img, len, fp);
	free(img);
	return ret;
}
