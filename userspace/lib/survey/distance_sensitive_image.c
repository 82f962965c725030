// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom distance-sensitive filters: version-3 images
 * (uapi/kbloom_image.h), flagged MAY_FN: the base header (k, m), the
 * geometry tail (buckets = s, tables = b, slots = key bytes, update = t)
 * and the words little-endian.  Load verifies everything before it
 * allocates.
 */
#include <stdlib.h>

#include "distance_sensitive_int.h"
#include "../image_v3.h"

#define KBD_HDR_LEN	(KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN)

size_t kbloom_dsbf_image_size(const struct kbloom_dsbf *f)
{
	return f ? KBD_HDR_LEN + f->nwords * 8 : 0;
}

int kbloom_dsbf_save(const struct kbloom_dsbf *f, void *buf, size_t buf_len,
		     size_t *image_len)
{
	struct kbloom_image_head hd;
	int ret;

	if (!f)
		return -EINVAL;
	ret = kb_image_v3_room(kbloom_dsbf_image_size(f), buf, buf_len,
			       image_len);
	if (ret)
		return ret;
	kb_image_head_init(&hd, &f->s, f->hash_id, f->seed);
	kb_image_v3_meta_out(&hd, f->capacity, f->fpr_pico,
			     __atomic_load_n(&f->inserted, __ATOMIC_RELAXED),
			     f->name);
	kb_image_v3_emit(&hd, f->words, f->nwords, buf);
	return 0;
}

int kbloom_dsbf_save_alloc(const struct kbloom_dsbf *f, void **buf,
			   size_t *len)
{
	size_t n;
	int ret;

	if (!f || !buf)
		return -EINVAL;
	n = kbloom_dsbf_image_size(f);
	ret = kb_image_v3_alloc(n, buf, len);
	if (!ret)
		kbloom_dsbf_save(f, *buf, n, NULL);
	return ret;
}

int kbloom_dsbf_load(const void *buf, size_t len, struct kbloom_dsbf **fp)
{
	struct kbloom_image_head hd;
	struct kbloom_dsbf *f;
	struct kb_shape s;
	int ret;

	if (!buf || !fp)
		return -EINVAL;
	ret = kb_image_verify_v3(buf, len, KBLOOM_TYPE_DISTANCE_SENSITIVE, &hd);
	if (ret)
		return ret;
	kb_image_shape(&hd.h, &hd.g, &s);
	ret = kb_dsbf_new(&s, hd.h.hash_id, kb_le64(hd.h.seed), &f);
	if (ret)
		return ret;
	kb_image_v3_words_in(buf, f->words, f->nwords);
	kb_image_v3_meta_in(&hd, &f->capacity, &f->fpr_pico, &f->inserted,
			    f->name);
	*fp = f;
	return 0;
}
