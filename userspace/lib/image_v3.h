/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom internal: the steps every version-3 image writer and reader
 * shares.  kb_image_v3_emit() is the last step of every writer (the
 * cuckoo, VI-CBF, d-left, partitioned, stable and window families): the
 * head is filled by the family; the words are copied first and the copy
 * is checksummed, so an image saved while writers run is consistent;
 * kb_image_v3_copy_verified() is the first step of the VI-CBF and the
 * survey array loaders.  The
 * one-array families (partitioned, stable, window) also share the room
 * check, the allocation of a save, the base header's fields they keep
 * (capacity, target rate, inserted, name) and the words of a load; the
 * deletable family writes its whole image through kb_image_v3_save_one().
 */
#ifndef _KBLOOM_LIB_IMAGE_V3_H
#define _KBLOOM_LIB_IMAGE_V3_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "uapi/kbloom_image.h"

/* An image of @len bytes into @buf of @buf_len: 0, -EMSGSIZE or -EINVAL. */
static inline int kb_image_v3_room(size_t len, const void *buf,
				   size_t buf_len, size_t *image_len)
{
	if (image_len)
		*image_len = len;
	if (buf_len < len)
		return -EMSGSIZE;
	return buf ? 0 : -EINVAL;
}

/* @n bytes for a save_alloc() into *@buf (and *@len): 0 or -ENOMEM. */
static inline int kb_image_v3_alloc(size_t n, void **buf, size_t *len)
{
	*buf = malloc(n);
	if (!*buf)
		return -ENOMEM;
	if (len)
		*len = n;
	return 0;
}

/* The base header fields a one-array family keeps, into @hd. */
static inline void kb_image_v3_meta_out(struct kbloom_image_head *hd,
					__u64 capacity, __u64 fpr_pico,
					__u64 inserted, const char *name)
{
	hd->h.capacity = kb_le64(capacity);
	hd->h.fpr_pico = kb_le64(fpr_pico);
	hd->h.inserted = kb_le64(inserted);
	memcpy(hd->h.name, name, KBLOOM_NAME_LEN);
}

/* The same fields out of a verified @hd. */
static inline void kb_image_v3_meta_in(const struct kbloom_image_head *hd,
				       __u64 *capacity, __u64 *fpr_pico,
				       __u64 *inserted, char *name)
{
	*capacity = kb_le64(hd->h.capacity);
	*fpr_pico = kb_le64(hd->h.fpr_pico);
	*inserted = kb_le64(hd->h.inserted);
	memcpy(name, hd->h.name, KBLOOM_NAME_LEN);
}

/* The @nwords payload words of a verified one-array image @buf. */
static inline void kb_image_v3_words_in(const void *buf, __u64 *words,
					__u64 nwords)
{
	const __u8 *in = (const __u8 *)buf + sizeof(struct kbloom_image_head);
	__u64 i, w;

	for (i = 0; i < nwords; i++) {
		memcpy(&w, in + i * 8, 8);
		words[i] = kb_le64(w);
	}
}

/*
 * A verified image of @type: kb_image_verify() on an aligned copy of the
 * whole image (the caller's @buf may be at any address), then the type
 * (-EOPNOTSUPP for a valid image of another family).  *@out is the copy,
 * for the caller to free.
 */
static inline int kb_image_v3_copy_verified(const void *buf, size_t len,
					    __u32 type, void **out)
{
	struct kbloom_image_hdr h;
	void *img;
	int ret;

	if (len < KBLOOM_IMAGE_HDR_LEN)
		return -EMSGSIZE;
	memcpy(&h, buf, sizeof(h));
	ret = kb_image_check(&h, len);
	if (ret)
		return ret;
	img = aligned_alloc(8, (len + 7) & ~(size_t)7);
	if (!img)
		return -ENOMEM;
	memcpy(img, buf, len);
	ret = kb_image_verify(img, len);
	if (!ret && h.type != type)
		ret = -EOPNOTSUPP;
	if (ret) {
		free(img);
		return ret;
	}
	*out = img;
	return 0;
}

/* @hd, then @nwords words (relaxed loads, little-endian), into @buf. */
static inline void kb_image_v3_emit(struct kbloom_image_head *hd,
				    const __u64 *words, __u64 nwords,
				    void *buf)
{
	__u8 *out = buf, *payload = out + sizeof(*hd);
	__u64 i, w;

	for (i = 0; i < nwords; i++) {
		w = kb_le64(__atomic_load_n(&words[i], __ATOMIC_RELAXED));
		memcpy(payload + i * 8, &w, 8);
	}
	hd->h.crc = kb_le32(kb_image_crc_head(hd, payload, nwords * 8));
	memcpy(out, hd, sizeof(*hd));
}

/**
 * struct kb_v3_one - what a one-array family's image is written from
 * @s: the shape; @hash_id, @seed: the hash
 * @capacity, @fpr_pico, @inserted, @name: the base header's counts
 * @words, @nwords: the array (read with relaxed loads)
 */
struct kb_v3_one {
	const struct kb_shape *s;
	__u32 hash_id;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 inserted;
	const char *name;
	const __u64 *words;
	__u64 nwords;
};

/* Bytes of the image of @o. */
static inline size_t kb_image_v3_one_size(const struct kb_v3_one *o)
{
	return sizeof(struct kbloom_image_head) + o->nwords * 8;
}

/* The image of @o into @buf: 0, -EMSGSIZE (*@image_len set) or -EINVAL. */
static inline int kb_image_v3_save_one(const struct kb_v3_one *o, void *buf,
				       size_t buf_len, size_t *image_len)
{
	struct kbloom_image_head hd;
	int ret;

	ret = kb_image_v3_room(kb_image_v3_one_size(o), buf, buf_len,
			       image_len);
	if (ret)
		return ret;
	kb_image_head_init(&hd, o->s, o->hash_id, o->seed);
	kb_image_v3_meta_out(&hd, o->capacity, o->fpr_pico, o->inserted,
			     o->name);
	kb_image_v3_emit(&hd, o->words, o->nwords, buf);
	return 0;
}

/* The image of @o in a new malloc()ed *@buf (*@len): 0 or -ENOMEM. */
static inline int kb_image_v3_alloc_one(const struct kb_v3_one *o,
					void **buf, size_t *len)
{
	size_t n = kb_image_v3_one_size(o);
	int ret = kb_image_v3_alloc(n, buf, len);

	if (!ret)
		kb_image_v3_save_one(o, *buf, n, NULL);
	return ret;
}

#endif /* _KBLOOM_LIB_IMAGE_V3_H */
