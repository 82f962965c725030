// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom: filter images (uapi/kbloom_image.h) in memory and in files.
 *
 * Loading verifies the whole image with kb_image_verify() before it
 * allocates or changes anything; the errors are the ones documented there.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kbloom_int.h"

size_t kbloom_image_size(const struct kbloom_filter *f)
{
	return f ? KBLOOM_IMAGE_HDR_LEN + f->nwords * 8 : 0;
}

/* The header of @f with the checksum field zero. */
static void kbf_hdr_fill(const struct kbloom_filter *f,
			 struct kbloom_image_hdr *h)
{
	memset(h, 0, sizeof(*h));
	h->magic = kb_le32(KBLOOM_IMAGE_MAGIC);
	h->version = kb_le16(KBLOOM_IMAGE_VERSION);
	h->hdr_len = kb_le16(KBLOOM_IMAGE_HDR_LEN);
	h->type = (__u8)f->type;
	h->hash_id = (__u8)f->hash_id;
	h->counter_bits = (__u8)f->counter_bits;
	h->k = kb_le32(f->k);
	h->block_bits = kb_le32(f->type == KBLOOM_TYPE_BLOCKED ?
				KBLOOM_BLOCK_BITS : 0);
	h->seed = kb_le64(f->seed);
	h->m = kb_le64(f->m);
	h->capacity = kb_le64(f->capacity);
	h->fpr_pico = kb_le64(f->fpr_pico);
	h->inserted = kb_le64(kbf_load(&f->inserted));
	h->saturations = kb_le64(kbf_load(&f->saturations));
	h->payload_len = kb_le64(f->nwords * 8);
	memcpy(h->name, f->name, KBLOOM_NAME_LEN);
}

int kbloom_image_header(const struct kbloom_filter *f,
			struct kbloom_image_hdr *hdr)
{
	__u64 buf[64], i, j, n;
	__u32 crc;

	if (!f || !hdr)
		return -EINVAL;
	kbf_hdr_fill(f, hdr);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	(void)buf, (void)i, (void)j, (void)n, (void)crc;
	hdr->crc = kb_le32(kb_image_crc(hdr, f->words, f->nwords * 8));
#else
	crc = kb_crc32c_update(0xFFFFFFFFU, hdr, sizeof(*hdr));
	for (i = 0; i < f->nwords; i += n) {
		n = f->nwords - i < 64 ? f->nwords - i : 64;
		for (j = 0; j < n; j++)
			buf[j] = kb_le64(kbf_load(&f->words[i + j]));
		crc = kb_crc32c_update(crc, buf, n * 8);
	}
	hdr->crc = kb_le32(~crc);
#endif
	return 0;
}

int kbloom_save(const struct kbloom_filter *f, void *buf, size_t buf_len,
		size_t *image_len)
{
	struct kbloom_image_hdr h;
	size_t len;
	__u8 *out = buf;
	__u64 i, w;

	if (!f)
		return -EINVAL;
	len = kbloom_image_size(f);
	if (image_len)
		*image_len = len;
	if (buf_len < len)
		return -EMSGSIZE;
	if (!buf)
		return -EINVAL;
	kbf_hdr_fill(f, &h);
	/* copy first, checksum the copy: consistent under writers */
	for (i = 0; i < f->nwords; i++) {
		w = kb_le64(kbf_load(&f->words[i]));
		memcpy(out + KBLOOM_IMAGE_HDR_LEN + i * 8, &w, 8);
	}
	h.crc = kb_le32(kb_image_crc(&h, out + KBLOOM_IMAGE_HDR_LEN,
				     f->nwords * 8));
	memcpy(out, &h, sizeof(h));
	return 0;
}

int kbloom_save_alloc(const struct kbloom_filter *f, void **buf, size_t *len)
{
	size_t n;
	void *p;
	int ret;

	if (!f || !buf)
		return -EINVAL;
	n = kbloom_image_size(f);
	p = malloc(n);
	if (!p)
		return -ENOMEM;
	ret = kbloom_save(f, p, n, NULL);
	if (ret) {
		free(p);
		return ret;
	}
	*buf = p;
	if (len)
		*len = n;
	return 0;
}

/*
 * kb_image_verify() on an image at any address: it reads the header as a
 * struct, so a misaligned image is verified through an aligned copy of its
 * header and tail (the same steps kb_image_verify() takes).  *hdr gets the
 * base header either way.
 */
static int kbf_verify_copy(const void *buf, size_t len,
			   struct kbloom_image_hdr *hdr)
{
	struct kbloom_image_head hd;
	size_t hl;
	__u32 crc;
	int ret;

	ret = kb_image_check(hdr, len);
	if (ret)
		return ret;
	hl = kb_le16(hdr->hdr_len);
	memcpy(&hd, buf, hl);
	ret = kb_image_geom_check(&hd.h, &hd.g);
	if (ret)
		return ret;
	if (hl == KBLOOM_IMAGE_HDR_LEN)
		crc = kb_image_crc(hdr, (const __u8 *)buf + hl, len - hl);
	else
		crc = kb_image_crc_head(&hd, (const __u8 *)buf + hl, len - hl);
	return crc == kb_le32(hdr->crc) ? 0 : -EBADMSG;
}

/*
 * A verified image of a type the filters of this family hold: the classic
 * types.  A valid image of a later type is -EOPNOTSUPP here (its family
 * loads it).
 */
static int kbf_verify(const void *buf, size_t len,
		      struct kbloom_image_hdr *hdr)
{
	int ret;

	if (len < KBLOOM_IMAGE_HDR_LEN)
		return -EMSGSIZE;
	memcpy(hdr, buf, sizeof(*hdr));
	if (!((uintptr_t)buf & (_Alignof(struct kbloom_image_hdr) - 1)))
		ret = kb_image_verify(buf, len);
	else
		ret = kbf_verify_copy(buf, len, hdr);
	if (ret)
		return ret;
	return kb_type_classic(hdr->type) ? 0 : -EOPNOTSUPP;
}

static void kbf_copy_payload(struct kbloom_filter *f, const void *buf)
{
	const __u8 *p = (const __u8 *)buf + KBLOOM_IMAGE_HDR_LEN;
	__u64 i, w;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	(void)i, (void)w;
	memcpy(f->words, p, f->nwords * 8);
#else
	for (i = 0; i < f->nwords; i++) {
		memcpy(&w, p + i * 8, 8);
		f->words[i] = kb_le64(w);
	}
#endif
}

static void kbf_apply_hdr(struct kbloom_filter *f,
			  const struct kbloom_image_hdr *h)
{
	f->capacity = kb_le64(h->capacity);
	f->fpr_pico = kb_le64(h->fpr_pico);
	kbf_store(&f->inserted, kb_le64(h->inserted));
	kbf_store(&f->deleted, 0);
	kbf_store(&f->saturations, kb_le64(h->saturations));
	memcpy(f->name, h->name, KBLOOM_NAME_LEN);
}

int kbloom_load(const void *buf, size_t len, struct kbloom_filter **fp)
{
	struct kbloom_image_hdr h;
	struct kbloom_filter *f;
	int ret;

	if (!buf || !fp)
		return -EINVAL;
	ret = kbf_verify(buf, len, &h);
	if (ret)
		return ret;
	ret = kbf_new(h.type, kb_le64(h.m), kb_le32(h.k), h.hash_id,
		      h.counter_bits, kb_le64(h.seed), &f);
	if (ret)
		return ret == -ENOMEM ? ret : -EBADMSG;
	kbf_copy_payload(f, buf);
	kbf_apply_hdr(f, &h);
	*fp = f;
	return 0;
}

int kbloom_load_into(struct kbloom_filter *f, const void *buf, size_t len)
{
	struct kbloom_image_hdr h;
	int ret;

	if (!f || !buf)
		return -EINVAL;
	ret = kbf_verify(buf, len, &h);
	if (ret)
		return ret;
	if (h.type != f->type || h.hash_id != f->hash_id ||
	    kb_le64(h.seed) != f->seed || kb_le64(h.m) != f->m ||
	    kb_le32(h.k) != f->k || h.counter_bits != f->counter_bits)
		return -EINVAL;
	kbf_copy_payload(f, buf);
	kbf_apply_hdr(f, &h);
	return 0;
}

/* Read up to len bytes; return the number read (short only at EOF). */
static ssize_t kbf_read_all(int fd, void *buf, size_t len)
{
	__u8 *p = buf;
	size_t got = 0;
	ssize_t r;

	while (got < len) {
		r = read(fd, p + got, len - got > (1U << 30) ?
				      (1U << 30) : len - got);
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

int kbloom_save_file(const struct kbloom_filter *f, const char *path)
{
	struct kbloom_out *o;
	void *img = NULL;
	size_t len;
	int ret;

	if (!f || !path)
		return -EINVAL;
	ret = kbloom_save_alloc(f, &img, &len);
	if (ret)
		return ret;
	ret = kbloom_out_open(path, kbloom_image_secret(img, len) ?
			      KBLOOM_OUT_SECRET : 0, &o);
	if (ret)
		goto out_free;
	ret = kbloom_out_write(o, img, len);
	ret = kbloom_out_close(o, !ret) ?: ret;
out_free:
	free(img);
	return ret;
}

/*
 * Read the image behind fd: the header first, checked against the length
 * it announces (or the file's size), so that a bad header is refused
 * before a payload buffer is allocated.
 */
static int kbf_read_image(int fd, void **out, size_t *out_len)
{
	struct kbloom_image_hdr h;
	size_t total;
	struct stat st;
	__u8 extra;
	ssize_t r;
	void *img;
	int ret;

	if (fstat(fd, &st))
		return -errno;
	r = kbf_read_all(fd, &h, sizeof(h));
	if (r < 0)
		return r;
	if (r < (ssize_t)sizeof(h))
		return -EMSGSIZE;
	if (S_ISREG(st.st_mode))
		total = st.st_size;
	else
		total = KBLOOM_IMAGE_HDR_LEN + kb_le64(h.payload_len);
	ret = kb_image_check(&h, total);
	if (ret)
		return ret;
	img = malloc(total);
	if (!img)
		return -ENOMEM;
	memcpy(img, &h, sizeof(h));
	r = kbf_read_all(fd, (__u8 *)img + sizeof(h), total - sizeof(h));
	if (r >= 0 && (size_t)r != total - sizeof(h))
		r = -EMSGSIZE;			/* shorter than announced */
	if (r >= 0 && kbf_read_all(fd, &extra, 1) != 0)
		r = -EMSGSIZE;			/* longer than announced */
	if (r < 0) {
		free(img);
		return r;
	}
	*out = img;
	*out_len = total;
	return 0;
}

int kbloom_load_file(const char *path, struct kbloom_filter **fp)
{
	void *img;
	size_t len;
	int fd, ret;

	if (!path || !fp)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = kbf_read_image(fd, &img, &len);
	close(fd);
	if (ret)
		return ret;
	ret = kbloom_load(img, len, fp);
	free(img);
	return ret;
}
