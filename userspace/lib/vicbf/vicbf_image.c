// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom: images of VI filters, version 3 (uapi/kbloom_image.h): the
 * base header, the geometry tail (vi_l) and the counter words, each
 * little-endian.  Loading verifies the whole image before it allocates.
 */
#include <stdlib.h>

#include "vicbf_int.h"
#include "../image_v3.h"

#define KBV_HDR_LEN	(KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN)

size_t kbloom_vicbf_image_size(const struct kbloom_vicbf *f)
{
	return f ? KBV_HDR_LEN + f->nwords * 8 : 0;
}

/* The header and tail of @f, checksum zero. */
static void kbv_head_fill(const struct kbloom_vicbf *f,
			  struct kbloom_image_head *hd)
{
	struct kbloom_image_hdr *h = &hd->h;
	struct kb_shape s = { .type = KBLOOM_TYPE_VI_COUNTING, .k = f->k,
			      .m = f->m, .counter_bits = f->counter_bits,
			      .vi_l = f->vi_l };

	kb_image_head_init(hd, &s, f->hash_id, f->seed);
	h->capacity = kb_le64(f->capacity);
	h->fpr_pico = kb_le64(f->fpr_pico);
	h->inserted = kb_le64(kbv_load(&f->inserted));
	h->saturations = kb_le64(kbv_load(&f->saturations));
	memcpy(h->name, f->name, KBLOOM_NAME_LEN);
}

int kbloom_vicbf_save(const struct kbloom_vicbf *f, void *buf,
		      size_t buf_len, size_t *image_len)
{
	struct kbloom_image_head hd;
	size_t len;

	if (!f)
		return -EINVAL;
	len = kbloom_vicbf_image_size(f);
	if (image_len)
		*image_len = len;
	if (buf_len < len)
		return -EMSGSIZE;
	if (!buf)
		return -EINVAL;
	kbv_head_fill(f, &hd);
	kb_image_v3_emit(&hd, f->words, f->nwords, buf);
	return 0;
}

int kbloom_vicbf_save_alloc(const struct kbloom_vicbf *f, void **buf,
			    size_t *len)
{
	size_t n;
	void *p;
	int ret;

	if (!f || !buf)
		return -EINVAL;
	n = kbloom_vicbf_image_size(f);
	p = malloc(n);
	if (!p)
		return -ENOMEM;
	ret = kbloom_vicbf_save(f, p, n, NULL);
	if (ret) {
		free(p);
		return ret;
	}
	*buf = p;
	if (len)
		*len = n;
	return 0;
}

static void kbv_apply_head(struct kbloom_vicbf *f,
			   const struct kbloom_image_head *hd)
{
	const __u8 *p = (const __u8 *)hd + KBV_HDR_LEN;
	__u64 i, w;

	for (i = 0; i < f->nwords; i++) {
		memcpy(&w, p + i * 8, 8);
		f->words[i] = kb_le64(w);
	}
	f->capacity = kb_le64(hd->h.capacity);
	f->fpr_pico = kb_le64(hd->h.fpr_pico);
	f->inserted = kb_le64(hd->h.inserted);
	f->saturations = kb_le64(hd->h.saturations);
	memcpy(f->name, hd->h.name, KBLOOM_NAME_LEN);
}

int kbloom_vicbf_load(const void *buf, size_t len, struct kbloom_vicbf **fp)
{
	const struct kbloom_image_head *hd;
	struct kbloom_vicbf *f;
	struct kb_shape s;
	void *img;
	int ret;

	if (!buf || !fp)
		return -EINVAL;
	ret = kb_image_v3_copy_verified(buf, len, KBLOOM_TYPE_VI_COUNTING,
					&img);
	if (ret)
		return ret;
	hd = img;
	kb_image_shape(&hd->h, &hd->g, &s);
	ret = kbv_new(&s, hd->h.hash_id, kb_le64(hd->h.seed), &f);
	if (ret)
		goto out_free_img;
	kbv_apply_head(f, hd);
	*fp = f;
out_free_img:
	free(img);
	return ret;
}
