// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom matrix filters: the container image (uapi/kbloom_image.h,
 * type KBLOOM_TYPE_MATRIX): one standard filter image per row, in row
 * order, each loadable alone; every row of one geometry; the container's
 * params 0 and its inserted the rows' sum.  Load verifies
 * the whole container before it builds anything.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "matrix_int.h"
#include "uapi/kbloom_image.h"

static size_t matrix_image_size(const struct kbloom_matrix *mx)
{
	size_t n = KBLOOM_CONTAINER_HDR_LEN;
	__u32 i;

	for (i = 0; i < mx->nrows; i++)
		n += kbloom_image_size(mx->rows[i]);
	return n;
}

static void matrix_hdr(const struct kbloom_matrix *mx, __u64 total,
		       const __u8 *members, struct kbloom_container_hdr *c)
{
	struct kbloom_stats st;
	__u64 inserted = 0;
	__u32 i, crc;

	for (i = 0; i < mx->nrows; i++) {
		kbloom_stats(mx->rows[i], &st);
		inserted += st.inserted;
	}
	memset(c, 0, sizeof(*c));
	c->magic = kb_le32(KBLOOM_CONTAINER_MAGIC);
	c->version = kb_le16(KBLOOM_CONTAINER_VERSION);
	c->hdr_len = kb_le16(KBLOOM_CONTAINER_HDR_LEN);
	c->type = KBLOOM_TYPE_MATRIX;
	c->hash_id = (__u8)st.hash_id;
	c->count = kb_le32(mx->nrows);
	c->inserted = kb_le64(inserted);
	c->payload_len = kb_le64(total - KBLOOM_CONTAINER_HDR_LEN);
	memcpy(c->name, mx->name, KBLOOM_NAME_LEN);
	crc = kb_crc32c_update(0xFFFFFFFFU, c, sizeof(*c));
	crc = kb_crc32c_update(crc, members, total - KBLOOM_CONTAINER_HDR_LEN);
	c->crc = kb_le32(~crc);
}

int kbloom_matrix_save_alloc(const struct kbloom_matrix *mx, void **buf,
			     size_t *len)
{
	struct kbloom_container_hdr c;
	size_t n, off = KBLOOM_CONTAINER_HDR_LEN, one;
	__u8 *out;
	__u32 i;

	if (!mx || !buf)
		return -EINVAL;
	n = matrix_image_size(mx);
	out = malloc(n);
	if (!out)
		return -ENOMEM;
	for (i = 0; i < mx->nrows; i++) {
		one = kbloom_image_size(mx->rows[i]);
		kbloom_save(mx->rows[i], out + off, one, NULL);
		off += one;
	}
	matrix_hdr(mx, n, out + KBLOOM_CONTAINER_HDR_LEN, &c);
	memcpy(out, &c, sizeof(c));
	*buf = out;
	if (len)
		*len = n;
	return 0;
}

/*
 * Every member a standard filter of the first member's geometry; the
 * container's parameters 0 and its count the members' sum.
 */
static int members_ok(const __u8 *in)
{
	const struct kbloom_container_hdr *c = (const void *)in;
	const struct kbloom_image_hdr *h0, *h;
	__u64 off = KBLOOM_CONTAINER_HDR_LEN, sum = 0;
	__u32 i;

	for (i = 0; i < 6; i++)
		if (c->params[i])
			return -EBADMSG;
	h0 = (const void *)(in + off);
	for (i = 0; i < kb_le32(c->count); i++) {
		h = (const void *)(in + off);
		if (h->type != KBLOOM_TYPE_STANDARD || h->k != h0->k ||
		    h->m != h0->m || h->seed != h0->seed)
			return -EBADMSG;
		sum += kb_le64(h->inserted);
		off += kb_le16(h->hdr_len) + kb_le64(h->payload_len);
	}
	return sum == kb_le64(c->inserted) ? 0 : -EBADMSG;
}

static int matrix_build(const __u8 *in, struct kbloom_matrix **mp)
{
	const struct kbloom_container_hdr *c = (const void *)in;
	const struct kbloom_image_hdr *h;
	__u64 off = KBLOOM_CONTAINER_HDR_LEN, one;
	struct kbloom_matrix *mx;
	__u32 i;
	int ret;

	ret = kb_matrix_alloc(kb_le32(c->count), &mx);
	if (ret)
		return ret;
	for (i = 0; i < mx->nrows; i++) {
		h = (const void *)(in + off);
		one = kb_le16(h->hdr_len) + kb_le64(h->payload_len);
		ret = kbloom_load(in + off, one, &mx->rows[i]);
		if (ret) {
			kbloom_matrix_destroy(mx);
			return ret;
		}
		off += one;
	}
	memcpy(mx->name, c->name, KBLOOM_NAME_LEN);
	*mp = mx;
	return 0;
}

int kbloom_matrix_load(const void *buf, size_t len,
		       struct kbloom_matrix **mp)
{
	const struct kbloom_container_hdr *c;
	void *copy = NULL;
	const __u8 *in = buf;
	int ret;

	if (!buf || !mp)
		return -EINVAL;
	if ((uintptr_t)buf & 7) {
		copy = malloc(len ? len : 1);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, buf, len);
		in = copy;
	}
	ret = kb_container_verify(in, len);
	c = (const void *)in;
	if (!ret && c->type != KBLOOM_TYPE_MATRIX)
		ret = -EOPNOTSUPP;
	if (!ret)
		ret = members_ok(in);
	if (!ret)
		ret = matrix_build(in, mp);
	free(copy);
	return ret;
}
