/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom internal: the one bit array that the one-hashing and the
 * split-block filters (onehash*.c, splitblock*.c) are made of, with its
 * version-3 image: a shape, a hash, the words, the planned (n, p), a
 * name and the add count.  Words are read with relaxed atomic loads and
 * bits set with relaxed atomic OR, as in the standard filter.
 */
#ifndef _KBLOOM_BITARRAY_V4A_H
#define _KBLOOM_BITARRAY_V4A_H

#include <stdlib.h>
#include <string.h>

#include "libkbloom_survey.h"
#include "../create_v3.h"
#include "../image_v3.h"

#define KBA_CACHELINE	64
#define KBA_HDR_LEN	(KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN)

struct kb_bitarray {
	__u64 *words;
	__u64 nwords;
	struct kb_shape s;
	__u32 hash_id;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	char name[KBLOOM_NAME_LEN];
};

/* The zeroed words of a checked shape @s: 0 or -ENOMEM. */
static inline int kba_init(struct kb_bitarray *a, const struct kb_shape *s,
			   __u32 hash_id, __u64 seed)
{
	a->s = *s;
	a->nwords = kb_shape_words(s);
	a->words = kb_v3_words_alloc(a->nwords);
	a->hash_id = hash_id;
	a->seed = seed;
	return a->words ? 0 : -ENOMEM;
}

/* The options' name, if any, into @a. */
static inline void kba_name(struct kb_bitarray *a, const struct kbloom_opts *o)
{
	if (o && o->name)
		strncpy(a->name, o->name, KBLOOM_NAME_LEN - 1);
}

static inline void kba_clear(struct kb_bitarray *a, __u64 *inserted)
{
	__u64 i;

	for (i = 0; i < a->nwords; i++)
		__atomic_store_n(&a->words[i], 0, __ATOMIC_RELAXED);
	__atomic_store_n(inserted, 0, __ATOMIC_RELAXED);
}

static inline __u64 kba_ones(const struct kb_bitarray *a)
{
	__u64 i, ones = 0;

	for (i = 0; i < a->nwords; i++)
		ones += kb_popcount64(__atomic_load_n(&a->words[i],
						      __ATOMIC_RELAXED));
	return ones;
}

/* Test (and with @add, set) @mask in word @w: 1 when it was all set. */
static inline int kba_mask(__u64 *w, __u64 mask, bool add)
{
	if ((__atomic_load_n(w, __ATOMIC_RELAXED) & mask) == mask)
		return 1;
	if (add)
		__atomic_fetch_or(w, mask, __ATOMIC_RELAXED);
	return 0;
}

static inline size_t kba_image_size(const struct kb_bitarray *a)
{
	return KBA_HDR_LEN + a->nwords * 8;
}

/* The image of @a with @inserted adds into @buf (kbloom_*_save()). */
static inline int kba_save(const struct kb_bitarray *a, __u64 inserted,
			   void *buf, size_t buf_len, size_t *image_len)
{
	struct kbloom_image_head hd;
	int ret;

	ret = kb_image_v3_room(kba_image_size(a), buf, buf_len, image_len);
	if (ret)
		return ret;
	kb_image_head_init(&hd, &a->s, a->hash_id, a->seed);
	kb_image_v3_meta_out(&hd, a->capacity, a->fpr_pico, inserted, a->name);
	kb_image_v3_emit(&hd, a->words, a->nwords, buf);
	return 0;
}

/* The same in a new malloc()ed buffer: 0 or -ENOMEM. */
static inline int kba_save_alloc(const struct kb_bitarray *a, __u64 inserted,
				 void **buf, size_t *len)
{
	size_t n = kba_image_size(a);
	int ret = kb_image_v3_alloc(n, buf, len);

	if (!ret)
		kba_save(a, inserted, *buf, n, NULL);
	return ret;
}

/*
 * The head of a verified image of @type (or @type2, when not 0) into
 * @hd: kb_image_verify_v3()'s errors, and -EBADMSG for saturations (a bit
 * array counts none).
 */
static inline int kba_verify(const void *buf, size_t len, __u32 type,
			     __u32 type2, struct kbloom_image_head *hd)
{
	int ret = kb_image_verify_v3(buf, len, type, hd);

	if (ret == -EOPNOTSUPP && type2)
		ret = kb_image_verify_v3(buf, len, type2, hd);
	if (!ret && hd->h.saturations)
		return -EBADMSG;
	return ret;
}

/* The words and the kept fields of a verified image, into @a. */
static inline void kba_load(struct kb_bitarray *a, const void *buf,
			    const struct kbloom_image_head *hd,
			    __u64 *inserted)
{
	kb_image_v3_words_in(buf, a->words, a->nwords);
	kb_image_v3_meta_in(hd, &a->capacity, &a->fpr_pico, inserted, a->name);
}

#endif /* _KBLOOM_BITARRAY_V4A_H */
