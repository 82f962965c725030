/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom survey variants IV, group b (accurate counting, FP-CBF,
 * retouched, generalized): the one-array object each of them is built on
 * (survey_array.c): a version-3 shape, its hash, its words, the base
 * header's counts, and its image.
 */
#ifndef _KBLOOM_SURVEY_ARRAY_H
#define _KBLOOM_SURVEY_ARRAY_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "libkbloom_survey.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_image.h"

struct kb_sarr {
	__u64 *words;
	__u64 nwords;
	struct kb_shape s;
	__u32 hash_id;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 inserted;
	__u64 saturations;
	char name[KBLOOM_NAME_LEN];
};

/* @s checked, @o's hash and name, zeroed words: 0, -EINVAL, -EIO, -ENOMEM */
int kb_sarr_init(struct kb_sarr *a, const struct kb_shape *s,
		 const struct kbloom_opts *o);
void kb_sarr_fini(struct kb_sarr *a);

/* A key of 1..KBLOOM_KEY_MAX bytes. */
static inline bool kb_sarr_key_ok(const void *key, __u32 len)
{
	return key && len && len <= KBLOOM_KEY_MAX;
}

static inline __u64 kb_sarr_hash(const struct kb_sarr *a, const void *key,
				 __u32 len)
{
	return kb_hash(a->hash_id, a->seed, key, len);
}

static inline bool kb_sarr_bit(const struct kb_sarr *a, __u64 i)
{
	return (a->words[i >> 6] >> (i & 63)) & 1;
}

static inline void kb_sarr_bit_put(struct kb_sarr *a, __u64 i, bool v)
{
	__u64 b = 1ULL << (i & 63);

	a->words[i >> 6] = v ? a->words[i >> 6] | b : a->words[i >> 6] & ~b;
}

/* Ones among the first @nbits bits. */
__u64 kb_sarr_ones(const struct kb_sarr *a, __u64 nbits);

size_t kb_sarr_image_size(const struct kb_sarr *a);
int kb_sarr_save(const struct kb_sarr *a, void *buf, size_t buf_len,
		 size_t *image_len);
int kb_sarr_save_alloc(const struct kb_sarr *a, void **buf, size_t *len);
/*
 * A verified image of @type into @a (kb_sarr_fini() it): 0, an image error
 * (-EOPNOTSUPP also for another type), -ENOMEM or -EINVAL.
 */
int kb_sarr_load(const void *buf, size_t len, __u32 type,
		 struct kb_sarr *a);

/*
 * A zeroed object of @size bytes whose first member is a struct kb_sarr:
 * made from @s and @o (kb_sarr_new()) or loaded from an image of @type
 * (kb_sarr_load_new()), in *@out; nothing allocated on error.
 */
int kb_sarr_new(const struct kb_shape *s, const struct kbloom_opts *o,
		size_t size, void **out);
int kb_sarr_load_new(const void *buf, size_t len, __u32 type, size_t size,
		     void **out);

#endif /* _KBLOOM_SURVEY_ARRAY_H */
