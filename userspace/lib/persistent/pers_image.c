// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom persistent filter: the archive as a container image
 * (uapi/kbloom_var_persistent.h): a container header, then for each epoch
 * its filter's image and the images of the nodes it closed.  Load
 * verifies the container, appends the epochs again and requires every
 * stored node to be, byte for byte, the node that append made.
 */
#include <stdint.h>
#include <stdlib.h>

#include "pers_int.h"

#define KBP_HDR_LEN	KBLOOM_CONTAINER_HDR_LEN

size_t kbloom_pers_image_size(const struct kbloom_pers *a)
{
	if (!a || !a->n)
		return 0;
	return KBP_HDR_LEN +
	       kb_pers_members(a->n) * kbloom_image_size(a->lv[0][0].f);
}

static void kbp_hdr(const struct kbloom_pers *a, struct kbloom_container_hdr *c,
		    __u64 payload_len)
{
	memset(c, 0, sizeof(*c));
	c->magic = kb_le32(KBLOOM_CONTAINER_MAGIC);
	c->version = kb_le16(KBLOOM_CONTAINER_VERSION);
	c->hdr_len = kb_le16(KBP_HDR_LEN);
	c->type = KBLOOM_TYPE_PERSISTENT;
	c->hash_id = (__u8)a->geom.hash_id;
	c->count = kb_le32((__u32)kb_pers_members(a->n));
	c->params[KB_PERS_P_FIRST] = kb_le64(a->first);
	c->params[KB_PERS_P_EPOCHS] = kb_le64(a->n);
	c->inserted = kb_le64(a->inserted);
	c->payload_len = kb_le64(payload_len);
	memcpy(c->name, a->name, KBLOOM_NAME_LEN);
}

/* The members in image order, each @one bytes, from @out on. */
static void kbp_members(const struct kbloom_pers *a, __u8 *out, size_t one)
{
	__u64 i;
	__u32 j;

	for (i = 0; i < a->n; i++)
		for (j = 0; j <= kb_pers_closes(i); j++) {
			kbloom_save(kbp_closed(a, i, j)->f, out, one, NULL);
			out += one;
		}
}

int kbloom_pers_save(const struct kbloom_pers *a, void *buf, size_t buf_len,
		     size_t *image_len)
{
	struct kbloom_container_hdr c;
	__u8 *out = buf;
	size_t len;
	__u32 crc;

	if (!a)
		return -EINVAL;
	if (!a->n)
		return -ENODATA;
	len = kbloom_pers_image_size(a);
	if (image_len)
		*image_len = len;
	if (buf_len < len)
		return -EMSGSIZE;
	if (!buf)
		return -EINVAL;
	kbp_members(a, out + KBP_HDR_LEN, kbloom_image_size(a->lv[0][0].f));
	kbp_hdr(a, &c, len - KBP_HDR_LEN);
	crc = kb_crc32c_update(0xFFFFFFFFU, &c, sizeof(c));
	crc = kb_crc32c_update(crc, out + KBP_HDR_LEN, len - KBP_HDR_LEN);
	c.crc = kb_le32(~crc);
	memcpy(out, &c, sizeof(c));
	return 0;
}

int kbloom_pers_save_alloc(const struct kbloom_pers *a, void **buf,
			   size_t *len)
{
	size_t n = kbloom_pers_image_size(a);
	void *p;
	int ret;

	if (!a || !buf)
		return -EINVAL;
	if (!n)
		return -ENODATA;
	p = malloc(n);
	if (!p)
		return -ENOMEM;
	ret = kbloom_pers_save(a, p, n, NULL);
	if (ret) {
		free(p);
		return ret;
	}
	*buf = p;
	if (len)
		*len = n;
	return 0;
}

/* The epoch member at *@off: loaded and appended (its nodes made). */
static int kbp_load_epoch(struct kbloom_pers *a, const __u8 *in, size_t len,
			  __u64 *off, __u64 epoch)
{
	struct kbloom_filter *f;
	__u64 mlen;
	int ret;

	ret = kb_container_member(in, len, *off, &mlen);
	if (ret)
		return ret;
	ret = kbloom_load(in + *off, mlen, &f);
	if (ret)
		return ret;
	ret = kbloom_pers_append(a, epoch, f);
	if (ret) {
		kbloom_destroy(f);
		return ret == -EINVAL ? -EBADMSG : ret;
	}
	*off += mlen;
	return 0;
}

/* The node member at *@off: the image of the node @f append made. */
static int kbp_load_node(const struct kbloom_filter *f, const __u8 *in,
			 size_t len, __u64 *off)
{
	size_t ilen;
	__u64 mlen;
	void *img;
	int ret;

	ret = kb_container_member(in, len, *off, &mlen);
	if (ret)
		return ret;
	ret = kbloom_save_alloc(f, &img, &ilen);
	if (ret)
		return ret;
	if (ilen != mlen || memcmp(img, in + *off, ilen))
		ret = -EBADMSG;
	free(img);
	*off += mlen;
	return ret;
}

/* The members of a verified container into the empty archive @a. */
static int kbp_load_members(struct kbloom_pers *a, const __u8 *in, size_t len)
{
	const struct kbloom_container_hdr *c = (const void *)in;
	__u64 i, n = kb_le64(c->params[KB_PERS_P_EPOCHS]);
	__u64 off = KBP_HDR_LEN;
	__u32 j;
	int ret;

	for (i = 0; i < n; i++) {
		ret = kbp_load_epoch(a, in, len, &off, i ? KBLOOM_PERS_NEXT :
					kb_le64(c->params[KB_PERS_P_FIRST]));
		for (j = 1; !ret && j <= kb_pers_closes(i); j++)
			ret = kbp_load_node(kbp_closed(a, i, j)->f, in, len,
					    &off);
		if (ret)
			return ret;
	}
	if (a->inserted != kb_le64(c->inserted))
		return -EBADMSG;
	a->first = kb_le64(c->params[KB_PERS_P_FIRST]);
	memcpy(a->name, c->name, KBLOOM_NAME_LEN);
	return 0;
}

/* A valid container of another type: not ours. */
static int kbp_type_ok(const __u8 *in)
{
	const struct kbloom_container_hdr *c = (const void *)in;

	return c->type == KBLOOM_TYPE_PERSISTENT ? 0 : -EOPNOTSUPP;
}

int kbloom_pers_load(const void *buf, size_t len, struct kbloom_pers **ap)
{
	struct kbloom_pers *a = NULL;
	const __u8 *in = buf;
	void *copy = NULL;
	int ret;

	if (!buf || !ap)
		return -EINVAL;
	if ((uintptr_t)buf & 7) {
		copy = malloc(len ? len : 1);
		if (!copy)
			return -ENOMEM;
		in = memcpy(copy, buf, len);
	}
	ret = kb_container_verify(in, len) ?: kbp_type_ok(in) ?:
	      kb_pers_params_ok((const void *)in) ?:
	      kbloom_pers_create(&a) ?:
	      kbp_load_members(a, in, len);
	free(copy);
	if (ret) {
		kbloom_pers_destroy(a);
		return ret;
	}
	*ap = a;
	return 0;
}
