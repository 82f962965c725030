// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom weighted Bloom filter: a bit array of m bits where each key
 * is added and tested with its own number of probes, at the standard
 * filter's positions (kbloom_layout.h: pos_i = reduce32(w_i, m)).  The
 * choice of each k is weighted_plan.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libkbloom_survey.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"
#include "survey_bits_int.h"

struct kbloom_wbf {
	struct kb_sv_bits b;
};

int kbloom_wbf_create(__u64 m, const struct kbloom_opts *opts,
		      struct kbloom_wbf **fp)
{
	struct kbloom_wbf *f;
	int ret;

	if (!fp)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	ret = kb_sv_bits_init(&f->b, m, opts);
	if (ret) {
		free(f);
		return ret;
	}
	*fp = f;
	return 0;
}

void kbloom_wbf_destroy(struct kbloom_wbf *f)
{
	if (!f)
		return;
	free(f->b.words);
	free(f);
}

static int wbf_args(const struct kbloom_wbf *f, const void *key, __u32 len,
		    __u32 k)
{
	return f && key && len && len <= KBLOOM_KEY_MAX &&
	       k >= KBLOOM_K_MIN && k <= KBLOOM_K_MAX;
}

int kbloom_wbf_add(struct kbloom_wbf *f, const void *key, __u32 len,
		   __u32 k)
{
	struct kb_probe p;
	__u32 i, pos;

	if (!wbf_args(f, key, len, k))
		return -EINVAL;
	kb_probe_init(&p, kb_hash(f->b.hash_id, f->b.seed, key, len));
	for (i = 0; i < k; i++) {
		pos = kb_probe_next(&p, f->b.m);
		__atomic_fetch_or(&f->b.words[pos / 64], 1ULL << (pos % 64),
				  __ATOMIC_RELAXED);
	}
	return 0;
}

int kbloom_wbf_test(const struct kbloom_wbf *f, const void *key, __u32 len,
		    __u32 k)
{
	struct kb_probe p;
	__u32 i, pos;
	__u64 w;

	if (!wbf_args(f, key, len, k))
		return -EINVAL;
	kb_probe_init(&p, kb_hash(f->b.hash_id, f->b.seed, key, len));
	for (i = 0; i < k; i++) {
		pos = kb_probe_next(&p, f->b.m);
		w = __atomic_load_n(&f->b.words[pos / 64], __ATOMIC_RELAXED);
		if (!(w & (1ULL << (pos % 64))))
			return 0;
	}
	return 1;
}
