// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_sketch: version-3 images (uapi/kbloom_image.h) of a sketch,
 * the format kbloom.ko's SAVE and RESTORE use for COUNT_MIN filters.
 * Loading verifies the whole image before it allocates anything.
 */
#include <stdlib.h>

#include "sketch_int.h"

size_t kbloom_sketch_image_size(const struct kbloom_sketch *s)
{
	return s ? KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN + s->nwords * 8
		 : 0;
}

static void kbs_head_fill(const struct kbloom_sketch *s,
			  struct kbloom_image_head *hd)
{
	struct kbloom_image_hdr *h = &hd->h;

	kb_image_head_init(hd, &s->shape, s->hash_id, s->seed);
	h->capacity = kb_le64(s->capacity);
	h->fpr_pico = kb_le64(s->epsilon_pico);
	h->inserted = kb_le64(s->total);
	h->saturations = kb_le64(s->saturations);
	memcpy(h->name, s->name, KBLOOM_NAME_LEN);
}

int kbloom_sketch_save(const struct kbloom_sketch *s, void *buf,
		       size_t buf_len, size_t *image_len)
{
	struct kbloom_image_head hd;
	size_t len, hl = sizeof(hd);
	__u8 *out = buf;
	__u64 i, w;

	if (!s)
		return -EINVAL;
	len = kbloom_sketch_image_size(s);
	if (image_len)
		*image_len = len;
	if (buf_len < len)
		return -EMSGSIZE;
	if (!buf)
		return -EINVAL;
	kbs_head_fill(s, &hd);
	for (i = 0; i < s->nwords; i++) {
		w = kb_le64(s->words[i]);
		memcpy(out + hl + i * 8, &w, 8);
	}
	hd.h.crc = kb_le32(kb_image_crc_head(&hd, out + hl, s->nwords * 8));
	memcpy(out, &hd, hl);
	return 0;
}

int kbloom_sketch_load(const void *buf, size_t len, struct kbloom_sketch **sp)
{
	const __u8 *p = (const __u8 *)buf + sizeof(struct kbloom_image_head);
	struct kbloom_image_head hd;
	struct kbloom_sketch *s;
	struct kb_shape shape;
	__u64 i, w;
	int ret;

	if (!buf || !sp)
		return -EINVAL;
	ret = kb_image_verify_v3(buf, len, KBLOOM_TYPE_COUNT_MIN, &hd);
	if (ret)
		return ret;
	kb_image_shape(&hd.h, &hd.g, &shape);
	ret = kbs_new(&shape, hd.h.hash_id, kb_le64(hd.h.seed), &s);
	if (ret)
		return ret;
	for (i = 0; i < s->nwords; i++) {
		memcpy(&w, p + i * 8, 8);
		s->words[i] = kb_le64(w);
	}
	s->epsilon_pico = kb_le64(hd.h.fpr_pico);
	s->capacity = kb_le64(hd.h.capacity);
	s->total = kb_le64(hd.h.inserted);
	s->saturations = kb_le64(hd.h.saturations);
	memcpy(s->name, hd.h.name, KBLOOM_NAME_LEN);
	*sp = s;
	return 0;
}
