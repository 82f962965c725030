/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom internal: the version-3 image steps the one-array survey
 * families share (shifting, distance-sensitive): a save from a
 * description of the filter, and the verified head of a load.
 */
#ifndef _KBLOOM_SURVEY_IMAGE_INT_H
#define _KBLOOM_SURVEY_IMAGE_INT_H

#include "../image_v3.h"
#include "uapi/kbloom_shape.h"

#define KB_SV_HDR_LEN	(KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN)

/* What an image records of a one-array filter. */
struct kb_sv_img {
	const struct kb_shape *s;
	__u32 hash_id;
	__u64 seed;
	__u64 inserted, capacity, fpr_pico;
	const char *name;
	const __u64 *words;
	__u64 nwords;
};

static inline size_t kb_sv_size(const struct kb_sv_img *d)
{
	return KB_SV_HDR_LEN + d->nwords * 8;
}

static inline int kb_sv_save(const struct kb_sv_img *d, void *buf,
			     size_t buf_len, size_t *image_len)
{
	struct kbloom_image_head hd;
	int ret;

	ret = kb_image_v3_room(kb_sv_size(d), buf, buf_len, image_len);
	if (ret)
		return ret;
	kb_image_head_init(&hd, d->s, d->hash_id, d->seed);
	kb_image_v3_meta_out(&hd, d->capacity, d->fpr_pico, d->inserted,
			     d->name);
	kb_image_v3_emit(&hd, d->words, d->nwords, buf);
	return 0;
}

static inline int kb_sv_save_alloc(const struct kb_sv_img *d, void **buf,
				   size_t *len)
{
	size_t n = kb_sv_size(d);
	int ret = kb_image_v3_alloc(n, buf, len);

	if (!ret)
		kb_sv_save(d, *buf, n, NULL);
	return ret;
}

/* A verified image of @type: its head in @hd and its shape in @s. */
static inline int kb_sv_load_head(const void *buf, size_t len, __u32 type,
				  struct kbloom_image_head *hd,
				  struct kb_shape *s)
{
	int ret = kb_image_verify_v3(buf, len, type, hd);

	if (!ret)
		kb_image_shape(&hd->h, &hd->g, s);
	return ret;
}

#endif /* _KBLOOM_SURVEY_IMAGE_INT_H */
