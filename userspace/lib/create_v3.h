/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom internal: the creation steps of a version-3 family that
 * takes struct kbloom_opts as they are (the partitioned and window
 * families): the options (a hash, a seed or a random one, a name, no
 * counter width) and the zeroed, cache-aligned word array.
 */
#ifndef _KBLOOM_LIB_CREATE_V3_H
#define _KBLOOM_LIB_CREATE_V3_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "libkbloom.h"
#include "uapi/kbloom_image.h"

/* A name for images: NULL or "" (none), else 1..31 valid characters. */
static inline bool kb_opts_v3_name_ok(const char *name)
{
	if (!name || !name[0])
		return true;
	return strnlen(name, KBLOOM_NAME_LEN) < KBLOOM_NAME_LEN &&
	       kb_name_valid(name);
}

/* The hash of the options (NULL: defaults): 0, -EINVAL or -EIO. */
static inline int kb_opts_v3(const struct kbloom_opts *o, __u32 *hash_id,
			     __u64 *seed)
{
	*hash_id = KBLOOM_HASH_FAST;
	*seed = 0;
	if (!o)
		return 0;
	if (o->reserved || o->counter_bits || !kb_opts_v3_name_ok(o->name) ||
	    (o->flags & ~KBLOOM_OPT_RANDOM_SEED) ||
	    o->hash_id > KBLOOM_HASH_MAX)
		return -EINVAL;
	*hash_id = o->hash_id ? o->hash_id : KBLOOM_HASH_FAST;
	*seed = o->seed;
	if ((o->flags & KBLOOM_OPT_RANDOM_SEED) &&
	    getrandom(seed, sizeof(*seed), 0) != sizeof(*seed))
		return -EIO;
	return 0;
}

#define KB_V3_CACHELINE	64

/* @nwords zeroed words on a cache line boundary, or NULL. */
static inline __u64 *kb_v3_words_alloc(__u64 nwords)
{
	__u64 bytes = (nwords * 8 + KB_V3_CACHELINE - 1) &
		      ~(__u64)(KB_V3_CACHELINE - 1);
	__u64 *w;

	if (bytes > SIZE_MAX)
		return NULL;
	w = aligned_alloc(KB_V3_CACHELINE, bytes);
	if (w)
		memset(w, 0, bytes);
	return w;
}

#endif /* _KBLOOM_LIB_CREATE_V3_H */
