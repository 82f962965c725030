/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom internal: the bit array of the in-memory survey families that
 * probe at the standard filter's positions (weighted, adaptive): m bits
 * (a multiple of 64), the hash of the options, zeroed words.
 */
#ifndef _KBLOOM_SURVEY_BITS_INT_H
#define _KBLOOM_SURVEY_BITS_INT_H

#include <errno.h>
#include <stdlib.h>

#include "../create_v3.h"

struct kb_sv_bits {
	__u64 *words;
	__u64 m;
	__u32 hash_id;
	__u64 seed;
};

/* Return: 0, -EINVAL (m, options) or -ENOMEM; nothing held on error. */
static inline int kb_sv_bits_init(struct kb_sv_bits *b, __u64 m,
				  const struct kbloom_opts *opts)
{
	int ret;

	if (m < KBLOOM_M_MIN || m > KBLOOM_M_MAX || (m & 63))
		return -EINVAL;
	ret = kb_opts_v3(opts, &b->hash_id, &b->seed);
	if (ret)
		return ret;
	b->words = kb_v3_words_alloc(m / 64);
	if (!b->words)
		return -ENOMEM;
	b->m = m;
	return 0;
}

#endif /* _KBLOOM_SURVEY_BITS_INT_H */
