// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom stable filters: version-3 images (uapi/kbloom_image.h), the
 * format kbloom.ko's SAVE writes and RESTORE reads and the XDP dedupe map
 * is filled from: the base header (k, m cells, counter_bits = d, the
 * MAY_FN flag), the geometry tail (buckets = P) and the words
 * little-endian.  Load verifies everything before it allocates.
 */
#include <stdlib.h>

#include "stable_int.h"
#include "../image_v3.h"

#define KBST_HDR_LEN	(KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN)

size_t kbloom_stable_image_size(const struct kbloom_stable *f)
{
	return f ? KBST_HDR_LEN + f->nwords * 8 : 0;
}

int kbloom_stable_save(const struct kbloom_stable *f, void *buf,
		       size_t buf_len, size_t *image_len)
{
	struct kbloom_image_head hd;
	size_t len;

	if (!f)
		return -EINVAL;
	len = kbloom_stable_image_size(f);
	if (image_len)
		*image_len = len;
	if (buf_len < len)
		return -EMSGSIZE;
	if (!buf)
		return -EINVAL;
	kb_image_head_init(&hd, &f->s, f->hash_id, f->seed);
	hd.h.capacity = kb_le64(f->capacity);
	hd.h.fpr_pico = kb_le64(f->fpr_pico);
	hd.h.inserted = kb_le64(kbst_load(&f->inserted));
	memcpy(hd.h.name, f->name, KBLOOM_NAME_LEN);
	kb_image_v3_emit(&hd, f->words, f->nwords, buf);
	return 0;
}

int kbloom_stable_save_alloc(const struct kbloom_stable *f, void **buf,
			     size_t *len)
{
	size_t n;
	void *p;

	if (!f || !buf)
		return -EINVAL;
	n = kbloom_stable_image_size(f);
	p = malloc(n);
	if (!p)
		return -ENOMEM;
	kbloom_stable_save(f, p, n, NULL);
	*buf = p;
	if (len)
		*len = n;
	return 0;
}

int kbloom_stable_load(const void *buf, size_t len, struct kbloom_stable **fp)
{
	const __u8 *in = buf;
	struct kbloom_image_head hd;
	struct kbloom_stable *f;
	struct kb_shape s;
	__u64 i, w;
	int ret;

	if (!buf || !fp)
		return -EINVAL;
	ret = kb_image_verify_v3(buf, len, KBLOOM_TYPE_STABLE, &hd);
	if (ret)
		return ret;
	kb_image_shape(&hd.h, &hd.g, &s);
	ret = kbst_new(&s, hd.h.hash_id, kb_le64(hd.h.seed), &f);
	if (ret)
		return ret;
	for (i = 0; i < f->nwords; i++) {
		memcpy(&w, in + KBST_HDR_LEN + i * 8, 8);
		f->words[i] = kb_le64(w);
	}
	f->capacity = kb_le64(hd.h.capacity);
	f->fpr_pico = kb_le64(hd.h.fpr_pico);
	f->inserted = kb_le64(hd.h.inserted);
	memcpy(f->name, hd.h.name, KBLOOM_NAME_LEN);
	*fp = f;
	return 0;
}
