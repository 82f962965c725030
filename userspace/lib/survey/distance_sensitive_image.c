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
#include "survey_image_int.h"

static void dsbf_desc(const struct kbloom_dsbf *f, struct kb_sv_img *d)
{
	*d = (struct kb_sv_img){ .s = &f->s, .hash_id = f->hash_id,
				 .seed = f->seed, .capacity = f->capacity,
				 .fpr_pico = f->fpr_pico, .name = f->name,
				 .words = f->words, .nwords = f->nwords };
	d->inserted = __atomic_load_n(&f->inserted, __ATOMIC_RELAXED);
}

size_t kbloom_dsbf_image_size(const struct kbloom_dsbf *f)
{
	return f ? KB_SV_HDR_LEN + f->nwords * 8 : 0;
}

int kbloom_dsbf_save(const struct kbloom_dsbf *f, void *buf, size_t buf_len,
		     size_t *image_len)
{
	struct kb_sv_img d;

	if (!f)
		return -EINVAL;
	dsbf_desc(f, &d);
	return kb_sv_save(&d, buf, buf_len, image_len);
}

int kbloom_dsbf_save_alloc(const struct kbloom_dsbf *f, void **buf,
			   size_t *len)
{
	struct kb_sv_img d;

	if (!f || !buf)
		return -EINVAL;
	dsbf_desc(f, &d);
	return kb_sv_save_alloc(&d, buf, len);
}

int kbloom_dsbf_load(const void *buf, size_t len, struct kbloom_dsbf **fp)
{
	struct kbloom_image_head hd;
	struct kbloom_dsbf *f;
	struct kb_shape s;
	int ret;

	if (!buf || !fp)
		return -EINVAL;
	ret = kb_sv_load_head(buf, len, KBLOOM_TYPE_DISTANCE_SENSITIVE, &hd, &s);
	if (!ret)
		ret = kb_dsbf_new(&s, hd.h.hash_id, kb_le64(hd.h.seed), &f);
	if (ret)
		return ret;
	kb_image_v3_words_in(buf, f->words, f->nwords);
	kb_image_v3_meta_in(&hd, &f->capacity, &f->fpr_pico, &f->inserted,
			    f->name);
	*fp = f;
	return 0;
}
