// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom scalable and dynamic filters: container images
 * (uapi/kbloom_image.h), the format kbloom.ko's SAVE writes and RESTORE
 * reads: the container header (params[] as KB_SBF_PARAM_*), then one
 * member per generation, a partitioned (version 3) or counting (version
 * 2) image each.  Load verifies everything before it allocates a filter.
 */
#include <stdint.h>
#include <stdlib.h>

#include "scalable_int.h"
#include "../image_v3.h"

static __u64 ksbf_member_hdr_len(const struct ksbf_gen *gen)
{
	return kb_image_hdr_len_of(kb_image_version_of(gen->g.type));
}

static __u64 ksbf_member_len(const struct ksbf_gen *gen)
{
	return ksbf_member_hdr_len(gen) + gen->nwords * 8;
}

size_t kbloom_sbf_image_size(const struct kbloom_sbf *f)
{
	size_t len = KBLOOM_CONTAINER_HDR_LEN;
	__u32 i;

	if (!f)
		return 0;
	for (i = 0; i < f->ngens; i++)
		len += ksbf_member_len(f->gens[i]);
	return len;
}

/* The head both member versions share (a version-2 one has no tail). */
static void ksbf_member_head(const struct kbloom_sbf *f,
			    const struct ksbf_gen *gen,
			    struct kbloom_image_head *hd)
{
	struct kb_shape s = {
		.type = gen->g.type, .k = gen->g.k, .m = gen->g.m,
		.buckets = gen->g.slice,
	};

	kb_image_head_init(hd, &s, f->hash_id, f->seed);
	hd->h.capacity = kb_le64(gen->g.capacity);
	hd->h.fpr_pico = kb_le64(gen->g.fpr_pico);
	hd->h.inserted = kb_le64(gen->inserted);
	if (gen->g.type != KBLOOM_TYPE_COUNTING)
		return;
	hd->h.version = kb_le16(KBLOOM_IMAGE_VERSION);
	hd->h.hdr_len = kb_le16(KBLOOM_IMAGE_HDR_LEN);
	hd->h.counter_bits = (__u8)gen->g.counter_bits;
	hd->h.saturations = kb_le64(gen->saturations);
	hd->h.payload_len = kb_le64(gen->nwords * 8);
}

/* One member at @out. */
static void ksbf_member_emit(const struct kbloom_sbf *f,
			    const struct ksbf_gen *gen, __u8 *out)
{
	struct kbloom_image_head hd;
	__u64 i, w;

	ksbf_member_head(f, gen, &hd);
	if (gen->g.type != KBLOOM_TYPE_COUNTING) {
		kb_image_v3_emit(&hd, gen->words, gen->nwords, out);
		return;
	}
	for (i = 0; i < gen->nwords; i++) {
		w = kb_le64(gen->words[i]);
		memcpy(out + KBLOOM_IMAGE_HDR_LEN + i * 8, &w, 8);
	}
	hd.h.crc = kb_le32(kb_image_crc(&hd.h, out + KBLOOM_IMAGE_HDR_LEN,
					gen->nwords * 8));
	memcpy(out, &hd.h, KBLOOM_IMAGE_HDR_LEN);
}

static void ksbf_container_hdr(const struct kbloom_sbf *f, __u64 total,
			      struct kbloom_container_hdr *c)
{
	memset(c, 0, sizeof(*c));
	c->magic = kb_le32(KBLOOM_CONTAINER_MAGIC);
	c->version = kb_le16(KBLOOM_CONTAINER_VERSION);
	c->hdr_len = kb_le16(KBLOOM_CONTAINER_HDR_LEN);
	c->type = (__u8)f->p.type;
	c->hash_id = (__u8)f->hash_id;
	c->count = kb_le32(f->ngens);
	c->params[KB_SBF_PARAM_CAPACITY] = kb_le64(f->p.capacity);
	c->params[KB_SBF_PARAM_FPR] = kb_le64(f->p.fpr_pico);
	c->params[KB_SBF_PARAM_GROWTH] = kb_le64(f->p.growth);
	c->params[KB_SBF_PARAM_RATIO] = kb_le64(f->p.ratio_ppm);
	c->params[KB_SBF_PARAM_REFUSED] = kb_le64(f->refused);
	c->params[KB_SBF_PARAM_MERGES] = kb_le64(f->merges);
	c->inserted = kb_le64(f->inserted);
	c->payload_len = kb_le64(total - KBLOOM_CONTAINER_HDR_LEN);
	memcpy(c->name, f->name, KBLOOM_NAME_LEN);
}

int kbloom_sbf_save(const struct kbloom_sbf *f, void *buf, size_t buf_len,
		    size_t *image_len)
{
	struct kbloom_container_hdr c;
	__u8 *out = buf;
	size_t len, off = KBLOOM_CONTAINER_HDR_LEN;
	__u32 i, crc;

	if (!f)
		return -EINVAL;
	len = kbloom_sbf_image_size(f);
	if (image_len)
		*image_len = len;
	if (buf_len < len)
		return -EMSGSIZE;
	if (!buf)
		return -EINVAL;
	for (i = 0; i < f->ngens; i++) {
		ksbf_member_emit(f, f->gens[i], out + off);
		off += ksbf_member_len(f->gens[i]);
	}
	ksbf_container_hdr(f, len, &c);
	crc = kb_crc32c_update(0xFFFFFFFFU, &c, sizeof(c));
	crc = kb_crc32c_update(crc, out + KBLOOM_CONTAINER_HDR_LEN,
			       len - KBLOOM_CONTAINER_HDR_LEN);
	c.crc = kb_le32(~crc);
	memcpy(out, &c, sizeof(c));
	return 0;
}

int kbloom_sbf_save_alloc(const struct kbloom_sbf *f, void **buf,
			  size_t *len)
{
	size_t n;
	void *p;

	if (!f || !buf)
		return -EINVAL;
	n = kbloom_sbf_image_size(f);
	p = malloc(n);
	if (!p)
		return -ENOMEM;
	kbloom_sbf_save(f, p, n, NULL);
	*buf = p;
	if (len)
		*len = n;
	return 0;
}

/* Generation @i from the verified member at @in. */
static int ksbf_member_load(struct kbloom_sbf *f, __u32 i, const __u8 *in)
{
	const struct kbloom_image_hdr *h = (const void *)in;
	const __u8 *payload = in + kb_le16(h->hdr_len);
	struct ksbf_gen *gen;
	__u64 j, w;
	int ret;

	ret = ksbf_gen_new(f, i, &gen);
	if (ret)
		return ret;
	for (j = 0; j < gen->nwords; j++) {
		memcpy(&w, payload + j * 8, 8);
		gen->words[j] = kb_le64(w);
	}
	gen->ones = ksbf_gen_count_ones(gen);
	gen->inserted = kb_le64(h->inserted);
	gen->saturations = kb_le64(h->saturations);
	f->gens[i] = gen;
	f->ngens = i + 1;
	return 0;
}

/* A filter from a verified, aligned container. */
static int ksbf_load_checked(const __u8 *in, const struct kb_sbf_params *p,
			    struct kbloom_sbf **fp)
{
	const struct kbloom_container_hdr *c = (const void *)in;
	const struct kbloom_image_hdr *h = (const void *)(c + 1);
	__u64 off = KBLOOM_CONTAINER_HDR_LEN;
	struct kbloom_sbf *f;
	__u32 i;
	int ret;

	ret = ksbf_new(p, c->hash_id, kb_le64(h->seed), &f);
	if (ret)
		return ret;
	for (i = 0; i < kb_le32(c->count); i++) {
		ret = ksbf_member_load(f, i, in + off);
		if (ret)
			goto err_destroy;
		h = (const void *)(in + off);
		off += kb_le16(h->hdr_len) + kb_le64(h->payload_len);
	}
	f->inserted = kb_le64(c->inserted);
	f->refused = kb_le64(c->params[KB_SBF_PARAM_REFUSED]);
	f->merges = kb_le64(c->params[KB_SBF_PARAM_MERGES]);
	memcpy(f->name, c->name, KBLOOM_NAME_LEN);
	*fp = f;
	return 0;

err_destroy:
	kbloom_sbf_destroy(f);
	return ret == -ENOSPC ? -EBADMSG : ret;
}

int kbloom_sbf_load(const void *buf, size_t len, struct kbloom_sbf **fp)
{
	struct kb_sbf_params p;
	__u64 *copy;
	int ret;

	if (!buf || !fp)
		return -EINVAL;
	/* the checks read the headers in place: an aligned copy */
	copy = malloc(len + 8);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	ret = kb_container_verify(copy, len);
	if (!ret)
		ret = kb_sbf_image_check(copy, len, &p);
	if (!ret)
		ret = ksbf_load_checked((const __u8 *)copy, &p, fp);
	free(copy);
	return ret;
}
