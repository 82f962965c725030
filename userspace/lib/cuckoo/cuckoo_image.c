// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom cuckoo: version-3 images (uapi/kbloom_image.h), the format
 * kbloom.ko's SAVE writes and RESTORE reads: the base header, the
 * geometry tail (fp_bits, slots, buckets, kicks, overflows) and the words
 * little-endian.  Load verifies everything before it allocates.
 */
#include <stdlib.h>

#include "cuckoo_int.h"
#include "../image_v3.h"

size_t kbloom_cuckoo_image_size(const struct kbloom_cuckoo *c)
{
	return c ? KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN +
		   c->nwords * 8 : 0;
}

static void kcf_head_fill(const struct kbloom_cuckoo *c,
			  struct kbloom_image_head *hd)
{
	struct kbloom_image_hdr *h = &hd->h;
	struct kbloom_image_geom *g = &hd->g;

	kb_image_head_init(hd, &c->s, c->hash_id, c->seed);
	h->capacity = kb_le64(c->capacity);
	h->fpr_pico = kb_le64(c->fpr_pico);
	h->inserted = kb_le64(__atomic_load_n(&c->inserted, __ATOMIC_RELAXED));
	memcpy(h->name, c->name, KBLOOM_NAME_LEN);
	g->kicks = kb_le64(__atomic_load_n(&c->kicks, __ATOMIC_RELAXED));
	g->overflows = kb_le64(__atomic_load_n(&c->overflows, __ATOMIC_RELAXED));
}

int kbloom_cuckoo_save(const struct kbloom_cuckoo *c, void *buf,
		       size_t buf_len, size_t *image_len)
{
	struct kbloom_image_head hd;
	size_t len;

	if (!c)
		return -EINVAL;
	len = kbloom_cuckoo_image_size(c);
	if (image_len)
		*image_len = len;
	if (buf_len < len)
		return -EMSGSIZE;
	if (!buf)
		return -EINVAL;
	kcf_head_fill(c, &hd);
	kb_image_v3_emit(&hd, c->words, c->nwords, buf);
	return 0;
}

int kbloom_cuckoo_load(const void *buf, size_t len,
		       struct kbloom_cuckoo **cp)
{
	const __u8 *in = buf;
	struct kbloom_image_head hd;
	struct kbloom_cuckoo *c;
	struct kb_shape s;
	__u64 i, w;
	int ret;

	if (!buf || !cp)
		return -EINVAL;
	ret = kb_image_verify_v3(buf, len, KBLOOM_TYPE_CUCKOO, &hd);
	if (ret)
		return ret;
	kb_image_shape(&hd.h, &hd.g, &s);
	ret = kcf_new(&s, hd.h.hash_id, kb_le64(hd.h.seed), &c);
	if (ret)
		return ret;
	for (i = 0; i < c->nwords; i++) {
		memcpy(&w, in + sizeof(hd) + i * 8, 8);
		c->words[i] = kb_le64(w);
	}
	c->capacity = kb_le64(hd.h.capacity);
	c->fpr_pico = kb_le64(hd.h.fpr_pico);
	c->inserted = kb_le64(hd.h.inserted);
	c->kicks = kb_le64(hd.g.kicks);
	c->overflows = kb_le64(hd.g.overflows);
	memcpy(c->name, hd.h.name, KBLOOM_NAME_LEN);
	*cp = c;
	return 0;
}
