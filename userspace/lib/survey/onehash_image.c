// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom one-hashing filters: version-3 images (uapi/kbloom_image.h):
 * the base header (k, m = k s), the geometry tail (buckets = s) and the
 * words little-endian (bitarray_v4a.h).  Load verifies everything before
 * it allocates.
 */
#include "onehash_int.h"

size_t kbloom_oh_image_size(const struct kbloom_oh *f)
{
	return f ? kba_image_size(&f->a) : 0;
}

int kbloom_oh_save(const struct kbloom_oh *f, void *buf, size_t buf_len,
		   size_t *image_len)
{
	if (!f)
		return -EINVAL;
	return kba_save(&f->a, __atomic_load_n(&f->inserted, __ATOMIC_RELAXED),
			buf, buf_len, image_len);
}

int kbloom_oh_save_alloc(const struct kbloom_oh *f, void **buf, size_t *len)
{
	if (!f || !buf)
		return -EINVAL;
	return kba_save_alloc(&f->a,
			      __atomic_load_n(&f->inserted, __ATOMIC_RELAXED),
			      buf, len);
}

int kbloom_oh_load(const void *buf, size_t len, struct kbloom_oh **fp)
{
	struct kbloom_image_head hd;
	struct kbloom_oh *f;
	struct kb_shape s;
	int ret;

	if (!buf || !fp)
		return -EINVAL;
	ret = kba_verify(buf, len, KBLOOM_TYPE_ONE_HASHING, 0, &hd);
	if (ret)
		return ret;
	kb_image_shape(&hd.h, &hd.g, &s);
	ret = kboh_new(&s, hd.h.hash_id, kb_le64(hd.h.seed), &f);
	if (ret)
		return ret;
	kba_load(&f->a, buf, &hd, &f->inserted);
	*fp = f;
	return 0;
}
