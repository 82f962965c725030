// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom IBLT: version-3 images (uapi/kbloom_image.h): the base header
 * (k, m cells, inserted = the net count of keys), the geometry tail
 * (slots = key words, tables = strata, buckets = cells per table) and the
 * cells' words little-endian.  Any payload is a table some sequence of
 * inserts, deletes and subtractions reaches, so the checksum and the
 * shape are all a load checks; it verifies everything before it
 * allocates.
 */
#include <stdlib.h>

#include "iblt_int.h"
#include "../image_v3.h"

#define KBIB_HDR_LEN	(KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN)

size_t kbloom_iblt_image_size(const struct kbloom_iblt *f)
{
	return f ? KBIB_HDR_LEN + f->nwords * 8 : 0;
}

int kbloom_iblt_save(const struct kbloom_iblt *f, void *buf, size_t buf_len,
		     size_t *image_len)
{
	struct kbloom_image_head hd;
	int ret;

	if (!f)
		return -EINVAL;
	ret = kb_image_v3_room(kbloom_iblt_image_size(f), buf, buf_len,
			       image_len);
	if (ret)
		return ret;
	kb_image_head_init(&hd, &f->s, f->hash_id, f->seed);
	kb_image_v3_meta_out(&hd, 0, 0, f->inserted - f->deleted, f->name);
	kb_image_v3_emit(&hd, f->words, f->nwords, buf);
	return 0;
}

int kbloom_iblt_save_alloc(const struct kbloom_iblt *f, void **buf,
			   size_t *len)
{
	size_t n;
	int ret;

	if (!f || !buf)
		return -EINVAL;
	n = kbloom_iblt_image_size(f);
	ret = kb_image_v3_alloc(n, buf, len);
	if (!ret)
		kbloom_iblt_save(f, *buf, n, NULL);
	return ret;
}

int kbloom_iblt_load(const void *buf, size_t len, struct kbloom_iblt **fp)
{
	struct kbloom_image_head hd;
	struct kbloom_iblt *f;
	struct kb_shape s;
	__u64 cap, fpr;
	int ret;

	if (!buf || !fp)
		return -EINVAL;
	ret = kb_image_verify_v3(buf, len, KBLOOM_TYPE_IBLT, &hd);
	if (ret)
		return ret;
	if (hd.h.capacity || hd.h.fpr_pico)
		return -EBADMSG;
	kb_image_shape(&hd.h, &hd.g, &s);
	ret = kbib_new(&s, hd.h.hash_id, kb_le64(hd.h.seed), &f);
	if (ret)
		return ret;
	kb_image_v3_words_in(buf, f->words, f->nwords);
	kb_image_v3_meta_in(&hd, &cap, &fpr, &f->inserted, f->name);
	*fp = f;
	return 0;
}
