// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom split-block filters: version-3 images (uapi/kbloom_image.h:
 * the base header, the geometry tail with the block count in @buckets,
 * the words little-endian; bitarray_v4a.h) and Parquet's raw bitset,
 * which is the same words' bytes.  Loads verify everything before they
 * allocate.
 */
#include "splitblock_int.h"

size_t kbloom_sb_image_size(const struct kbloom_sb *f)
{
	return f ? kba_image_size(&f->a) : 0;
}

int kbloom_sb_save(const struct kbloom_sb *f, void *buf, size_t buf_len,
		   size_t *image_len)
{
	if (!f)
		return -EINVAL;
	return kba_save(&f->a, __atomic_load_n(&f->inserted, __ATOMIC_RELAXED),
			buf, buf_len, image_len);
}

int kbloom_sb_save_alloc(const struct kbloom_sb *f, void **buf, size_t *len)
{
	if (!f || !buf)
		return -EINVAL;
	return kba_save_alloc(&f->a,
			      __atomic_load_n(&f->inserted, __ATOMIC_RELAXED),
			      buf, len);
}

int kbloom_sb_load(const void *buf, size_t len, struct kbloom_sb **fp)
{
	struct kbloom_image_head hd;
	struct kbloom_sb *f;
	struct kb_shape s;
	int ret;

	if (!buf || !fp)
		return -EINVAL;
	ret = kba_verify(buf, len, KBLOOM_TYPE_ULTRA_FAST,
			 KBLOOM_TYPE_SPLIT_BLOCK, &hd);
	if (ret)
		return ret;
	kb_image_shape(&hd.h, &hd.g, &s);
	ret = kbsb_new(&s, hd.h.hash_id, kb_le64(hd.h.seed), &f);
	if (ret)
		return ret;
	kba_load(&f->a, buf, &hd, &f->inserted);
	*fp = f;
	return 0;
}

/* ---- Parquet's raw bitset ---------------------------------------------- */

int kbloom_sb_parquet_import(const void *bitset, size_t len,
			     struct kbloom_sb **fp)
{
	struct kb_shape s = { .type = KBLOOM_TYPE_SPLIT_BLOCK };
	struct kbloom_sb *f;
	__u64 i, w;
	int ret;

	if (!bitset || !fp || len < KB_SBBF_BYTES_MIN ||
	    len > KB_SBBF_BYTES_MAX || len % (KB_SBBF_BLOCK_BITS / 8))
		return -EINVAL;
	s.buckets = len / (KB_SBBF_BLOCK_BITS / 8);
	if (kb_shape_derive(&s))
		return -EINVAL;
	ret = kbsb_new(&s, KBLOOM_HASH_XXH64, 0, &f);
	if (ret)
		return ret;
	/* the same little-endian words as an image's payload */
	for (i = 0; i < f->a.nwords; i++) {
		memcpy(&w, (const __u8 *)bitset + i * 8, 8);
		f->a.words[i] = kb_le64(w);
	}
	*fp = f;
	return 0;
}

/* A filter Parquet reads: SBBF, xxHash64, seed 0, at most 128 MiB. */
static bool kbsb_parquet_ok(const struct kbloom_sb *f)
{
	return f->a.s.type == KBLOOM_TYPE_SPLIT_BLOCK &&
	       f->a.hash_id == KBLOOM_HASH_XXH64 && !f->a.seed &&
	       f->a.nwords * 8 <= KB_SBBF_BYTES_MAX;
}

size_t kbloom_sb_parquet_size(const struct kbloom_sb *f)
{
	return f && kbsb_parquet_ok(f) ? f->a.nwords * 8 : 0;
}

int kbloom_sb_parquet_export(const struct kbloom_sb *f, void *buf,
			     size_t buf_len)
{
	__u8 *out = buf;
	__u64 i, w;

	if (!f || !buf)
		return -EINVAL;
	if (!kbsb_parquet_ok(f))
		return -EOPNOTSUPP;
	if (buf_len < f->a.nwords * 8)
		return -EMSGSIZE;
	for (i = 0; i < f->a.nwords; i++) {
		w = kb_le64(__atomic_load_n(&f->a.words[i], __ATOMIC_RELAXED));
		memcpy(out + i * 8, &w, 8);
	}
	return 0;
}
