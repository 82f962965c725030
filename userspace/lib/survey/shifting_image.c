// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom shifting filters: version-3 images (uapi/kbloom_image.h):
 * the base header (k, m), the geometry tail (update = mode, tables =
 * cmax) and the words little-endian.  Load verifies everything before it
 * allocates.
 */
#include <stdlib.h>

#include "shifting_int.h"
#include "survey_image_int.h"

static void shbf_desc(const struct kbloom_shbf *f, struct kb_sv_img *d)
{
	*d = (struct kb_sv_img){ .s = &f->s, .hash_id = f->hash_id,
				 .seed = f->seed, .capacity = f->capacity,
				 .fpr_pico = f->fpr_pico, .name = f->name,
				 .words = f->words, .nwords = f->nwords };
	d->inserted = __atomic_load_n(&f->inserted, __ATOMIC_RELAXED);
}

size_t kbloom_shbf_image_size(const struct kbloom_shbf *f)
{
	return f ? KB_SV_HDR_LEN + f->nwords * 8 : 0;
}

int kbloom_shbf_save(const struct kbloom_shbf *f, void *buf, size_t buf_len,
		     size_t *image_len)
{
	struct kb_sv_img d;

	if (!f)
		return -EINVAL;
	shbf_desc(f, &d);
	return kb_sv_save(&d, buf, buf_len, image_len);
}

int kbloom_shbf_save_alloc(const struct kbloom_shbf *f, void **buf,
			   size_t *len)
{
	struct kb_sv_img d;

	if (!f || !buf)
		return -EINVAL;
	shbf_desc(f, &d);
	return kb_sv_save_alloc(&d, buf, len);
}

int kbloom_shbf_load(const void *buf, size_t len, struct kbloom_shbf **fp)
{
	struct kbloom_image_head hd;
	struct kbloom_shbf *f;
	struct kb_shape s;
	int ret;

	if (!buf || !fp)
		return -EINVAL;
	ret = kb_sv_load_head(buf, len, KBLOOM_TYPE_SHIFTING, &hd, &s);
	if (!ret)
		ret = kb_shbf_new(&s, hd.h.hash_id, kb_le64(hd.h.seed), &f);
	if (ret)
		return ret;
	kb_image_v3_words_in(buf, f->words, f->nwords);
	kb_image_v3_meta_in(&hd, &f->capacity, &f->fpr_pico, &f->inserted,
			    f->name);
	*fp = f;
	return 0;
}
