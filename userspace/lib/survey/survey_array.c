// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom survey variants IV, group b: the one-array object of the
 * accurate counting, FP-CBF, retouched and generalized filters, and its
 * version-3 image (uapi/kbloom_image.h): the base header, the geometry
 * tail and the words.  Loading verifies the whole image before it
 * allocates the filter.
 */
#include <stdlib.h>

#include "survey_array.h"
#include "../create_v3.h"
#include "../image_v3.h"

int kb_sarr_init(struct kb_sarr *a, const struct kb_shape *s,
		 const struct kbloom_opts *o)
{
	int ret;

	memset(a, 0, sizeof(*a));
	if (kb_shape_check(s))
		return -EINVAL;
	ret = kb_opts_v3(o, &a->hash_id, &a->seed);
	if (ret)
		return ret;
	a->s = *s;
	a->nwords = kb_shape_words(s);
	a->words = kb_v3_words_alloc(a->nwords);
	if (!a->words)
		return -ENOMEM;
	if (o && o->name)
		strncpy(a->name, o->name, KBLOOM_NAME_LEN - 1);
	return 0;
}

void kb_sarr_fini(struct kb_sarr *a)
{
	free(a->words);
	a->words = NULL;
}

__u64 kb_sarr_ones(const struct kb_sarr *a, __u64 nbits)
{
	__u64 i, n = 0;

	for (i = 0; i < nbits / 64; i++)
		n += __builtin_popcountll(a->words[i]);
	if (nbits & 63)
		n += __builtin_popcountll(a->words[i] &
					  ((1ULL << (nbits & 63)) - 1));
	return n;
}

size_t kb_sarr_image_size(const struct kb_sarr *a)
{
	return sizeof(struct kbloom_image_head) + a->nwords * 8;
}

int kb_sarr_save(const struct kb_sarr *a, void *buf, size_t buf_len,
		 size_t *image_len)
{
	struct kbloom_image_head hd;
	int ret;

	ret = kb_image_v3_room(kb_sarr_image_size(a), buf, buf_len, image_len);
	if (ret)
		return ret;
	kb_image_head_init(&hd, &a->s, a->hash_id, a->seed);
	kb_image_v3_meta_out(&hd, a->capacity, a->fpr_pico, a->inserted,
			     a->name);
	hd.h.saturations = kb_le64(a->saturations);
	kb_image_v3_emit(&hd, a->words, a->nwords, buf);
	return 0;
}

int kb_sarr_save_alloc(const struct kb_sarr *a, void **buf, size_t *len)
{
	size_t n = kb_sarr_image_size(a);
	int ret;

	ret = kb_image_v3_alloc(n, buf, len);
	if (ret)
		return ret;
	ret = kb_sarr_save(a, *buf, n, NULL);
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}

int kb_sarr_load(const void *buf, size_t len, __u32 type,
		 struct kb_sarr *a)
{
	const struct kbloom_image_head *hd;
	struct kbloom_opts o = { 0 };
	struct kb_shape s;
	void *img;
	int ret;

	if (!buf)
		return -EINVAL;
	ret = kb_image_v3_copy_verified(buf, len, type, &img);
	if (ret)
		return ret;
	hd = img;
	kb_image_shape(&hd->h, &hd->g, &s);
	o.hash_id = hd->h.hash_id;
	o.seed = kb_le64(hd->h.seed);
	ret = kb_sarr_init(a, &s, &o);
	if (ret)
		goto out_free_img;
	kb_image_v3_words_in(img, a->words, a->nwords);
	kb_image_v3_meta_in(hd, &a->capacity, &a->fpr_pico, &a->inserted,
			    a->name);
	a->saturations = kb_le64(hd->h.saturations);
out_free_img:
	free(img);
	return ret;
}

int kb_sarr_new(const struct kb_shape *s, const struct kbloom_opts *o,
		size_t size, void **out)
{
	struct kb_sarr *a = calloc(1, size);
	int ret;

	if (!a)
		return -ENOMEM;
	ret = kb_sarr_init(a, s, o);
	if (ret) {
		free(a);
		return ret;
	}
	*out = a;
	return 0;
}

int kb_sarr_load_new(const void *buf, size_t len, __u32 type, size_t size,
		     void **out)
{
	struct kb_sarr *a = calloc(1, size);
	int ret;

	if (!a)
		return -ENOMEM;
	ret = kb_sarr_load(buf, len, type, a);
	if (ret) {
		free(a);
		return ret;
	}
	*out = a;
	return 0;
}
