// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom adaptive Bloom filter (libkbloom_survey.h): a bit array whose
 * keys count their adds in the probes after their k base probes.  Probe
 * i of a key is the standard filter's position i (kbloom_layout.h,
 * kb_probe_next()), for i = 0..k-1 (membership) and k.. (the count).
 */
#include <errno.h>
#include <stdlib.h>

#include "libkbloom_survey.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"
#include "survey_bits_int.h"

struct kbloom_abf {
	struct kb_sv_bits b;
	__u32 k;
	__u64 ones;
	__u64 saturations;
};

int kbloom_abf_create(__u64 m, __u32 k, const struct kbloom_opts *opts,
		      struct kbloom_abf **fp)
{
	struct kbloom_abf *f;
	int ret;

	if (!fp || k < KBLOOM_K_MIN || k > KBLOOM_K_MAX)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	ret = kb_sv_bits_init(&f->b, m, opts);
	if (ret) {
		free(f);
		return ret;
	}
	f->k = k;
	*fp = f;
	return 0;
}

void kbloom_abf_destroy(struct kbloom_abf *f)
{
	if (!f)
		return;
	free(f->b.words);
	free(f);
}

static int abf_get(const struct kbloom_abf *f, __u32 pos)
{
	__u64 w = __atomic_load_n(&f->b.words[pos / 64], __ATOMIC_RELAXED);

	return !!(w & (1ULL << (pos % 64)));
}

static void abf_set(struct kbloom_abf *f, __u32 pos)
{
	__u64 bit = 1ULL << (pos % 64), old;

	old = __atomic_fetch_or(&f->b.words[pos / 64], bit, __ATOMIC_RELAXED);
	if (!(old & bit))
		__atomic_fetch_add(&f->ones, 1, __ATOMIC_RELAXED);
}

static int abf_key_ok(const struct kbloom_abf *f, const void *key,
		      __u32 len)
{
	return f && key && len && len <= KBLOOM_KEY_MAX;
}

/* Set the key's base bits: 1 when they were all set already. */
static int abf_base(struct kbloom_abf *f, __u64 h)
{
	struct kb_probe p;
	int all = 1;
	__u32 i, pos;

	kb_probe_init(&p, h);
	for (i = 0; i < f->k; i++) {
		pos = kb_probe_next(&p, f->b.m);
		if (!abf_get(f, pos)) {
			all = 0;
			abf_set(f, pos);
		}
	}
	return all;
}

int kbloom_abf_add(struct kbloom_abf *f, const void *key, __u32 len)
{
	struct kb_probe p;
	__u32 i, pos;
	__u64 h;

	if (!abf_key_ok(f, key, len))
		return -EINVAL;
	h = kb_hash(f->b.hash_id, f->b.seed, key, len);
	if (!abf_base(f, h))
		return 0;	/* the first add: the base bits alone */
	kb_probe_init(&p, h);
	for (i = 0; i < f->k; i++)
		kb_probe_next(&p, f->b.m);
	for (i = 0; i < KBLOOM_ABF_CHAIN_MAX; i++) {
		pos = kb_probe_next(&p, f->b.m);
		if (!abf_get(f, pos)) {
			abf_set(f, pos);
			return 0;
		}
	}
	__atomic_fetch_add(&f->saturations, 1, __ATOMIC_RELAXED);
	return 1;
}

__u64 kbloom_abf_count(const struct kbloom_abf *f, const void *key,
		       __u32 len)
{
	struct kb_probe p;
	__u32 i;

	if (!abf_key_ok(f, key, len))
		return 0;
	kb_probe_init(&p, kb_hash(f->b.hash_id, f->b.seed, key, len));
	for (i = 0; i < f->k; i++)
		if (!abf_get(f, kb_probe_next(&p, f->b.m)))
			return 0;
	for (i = 0; i < KBLOOM_ABF_CHAIN_MAX; i++)
		if (!abf_get(f, kb_probe_next(&p, f->b.m)))
			break;
	return 1 + (__u64)i;
}

__u64 kbloom_abf_ones(const struct kbloom_abf *f)
{
	return f ? __atomic_load_n(&f->ones, __ATOMIC_RELAXED) : 0;
}

__u64 kbloom_abf_saturations(const struct kbloom_abf *f)
{
	return f ? __atomic_load_n(&f->saturations, __ATOMIC_RELAXED) : 0;
}
