// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom deletable filters: version-3 images (uapi/kbloom_image.h),
 * the format kbloom.ko's SAVE writes and RESTORE reads: the base header
 * (k, m), the geometry tail (buckets = region bits), the body and the
 * collision bitmap little-endian, written by the one-array steps of
 * ../image_v3.h.  Load verifies everything before it allocates.
 */
#include <stdlib.h>

#include "deletable_int.h"
#include "../image_v3.h"

/* What the image of @f is written from. */
static struct kb_v3_one kbd_one(const struct kbloom_del *f)
{
	return (struct kb_v3_one){
		.s = &f->s, .hash_id = f->hash_id, .seed = f->seed,
		.capacity = f->capacity, .fpr_pico = f->fpr_pico,
		.inserted = kbd_load(&f->inserted), .name = f->name,
		.words = f->words, .nwords = f->nwords,
	};
}

size_t kbloom_del_image_size(const struct kbloom_del *f)
{
	struct kb_v3_one o;

	if (!f)
		return 0;
	o = kbd_one(f);
	return kb_image_v3_one_size(&o);
}

int kbloom_del_save(const struct kbloom_del *f, void *buf, size_t buf_len,
		    size_t *image_len)
{
	struct kb_v3_one o;

	if (!f)
		return -EINVAL;
	o = kbd_one(f);
	return kb_image_v3_save_one(&o, buf, buf_len, image_len);
}

int kbloom_del_save_alloc(const struct kbloom_del *f, void **buf,
			  size_t *len)
{
	struct kb_v3_one o;

	if (!f || !buf)
		return -EINVAL;
	o = kbd_one(f);
	return kb_image_v3_alloc_one(&o, buf, len);
}

int kbloom_del_load(const void *buf, size_t len, struct kbloom_del **fp)
{
	struct kbloom_image_head hd;
	struct kbloom_del *f;
	struct kb_shape s;
	int ret;

	if (!buf || !fp)
		return -EINVAL;
	ret = kb_image_verify_v3(buf, len, KBLOOM_TYPE_DELETABLE, &hd);
	if (ret)
		return ret;
	kb_image_shape(&hd.h, &hd.g, &s);
	ret = kbd_new(&s, hd.h.hash_id, kb_le64(hd.h.seed), &f);
	if (ret)
		return ret;
	kb_image_v3_words_in(buf, f->words, f->nwords);
	kb_image_v3_meta_in(&hd, &f->capacity, &f->fpr_pico, &f->inserted,
			    f->name);
	*fp = f;
	return 0;
}
