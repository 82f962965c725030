// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_dleft: version-3 images (uapi/kbloom_image.h) of a d-left
 * filter.  Loading verifies the whole image (the checks of
 * kb_image_verify(), on an aligned copy of the header and its tail)
 * before it allocates anything.  Any payload is a valid cell array: the
 * remainder bits of a free cell and the bits past the last cell are
 * ignored by every reader and overwritten by inserts.
 */
#include <stdint.h>
#include <stdlib.h>

#include "dleft_int.h"
#include "../image_v3.h"

#define DL_HEAD_LEN	(KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN)

size_t kbloom_dleft_image_size(const struct kbloom_dleft *f)
{
	return f ? DL_HEAD_LEN + f->nwords * 8 : 0;
}

static void dl_head_fill(const struct kbloom_dleft *f,
			 struct kbloom_image_head *hd)
{
	struct kbloom_image_hdr *h = &hd->h;
	struct kbloom_image_geom *g = &hd->g;

	kb_image_head_init(hd, &f->s, f->hash_id, f->seed);
	h->capacity = kb_le64(f->capacity);
	h->fpr_pico = kb_le64(f->fpr_pico);
	h->inserted = kb_le64(dl_load(&f->inserted));
	h->saturations = kb_le64(dl_load(&f->saturations));
	memcpy(h->name, f->name, KBLOOM_NAME_LEN);
	g->overflows = kb_le64(dl_load(&f->overflows));
}

int kbloom_dleft_save(const struct kbloom_dleft *f, void *buf,
		      size_t buf_len, size_t *image_len)
{
	struct kbloom_image_head hd;
	size_t len;

	if (!f)
		return -EINVAL;
	len = kbloom_dleft_image_size(f);
	if (image_len)
		*image_len = len;
	if (buf_len < len)
		return -EMSGSIZE;
	if (!buf)
		return -EINVAL;
	dl_head_fill(f, &hd);
	kb_image_v3_emit(&hd, f->words, f->nwords, buf);
	return 0;
}

static void dl_apply_head(struct kbloom_dleft *f,
			  const struct kbloom_image_head *hd, const __u8 *p)
{
	__u64 i, w;

	for (i = 0; i < f->nwords; i++) {
		memcpy(&w, p + i * 8, 8);
		f->words[i] = kb_le64(w);
	}
	f->capacity = kb_le64(hd->h.capacity);
	f->fpr_pico = kb_le64(hd->h.fpr_pico);
	f->inserted = kb_le64(hd->h.inserted);
	f->saturations = kb_le64(hd->h.saturations);
	f->overflows = kb_le64(hd->g.overflows);
	memcpy(f->name, hd->h.name, KBLOOM_NAME_LEN);
}

int kbloom_dleft_load(const void *buf, size_t len, struct kbloom_dleft **fp)
{
	struct kbloom_image_head hd;
	struct kb_shape s;
	int ret;

	if (!buf || !fp)
		return -EINVAL;
	if (len < KBLOOM_IMAGE_HDR_LEN)
		return -EMSGSIZE;
	ret = kb_image_verify_v3(buf, len, KBLOOM_TYPE_DLEFT, &hd);
	if (ret)
		return ret;
	kb_image_shape(&hd.h, &hd.g, &s);
	ret = dl_new(&s, hd.h.hash_id, kb_le64(hd.h.seed), fp);
	if (ret)
		return ret;
	dl_apply_head(*fp, &hd, (const __u8 *)buf + DL_HEAD_LEN);
	return 0;
}
