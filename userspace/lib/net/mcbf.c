// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_net: the Multi-Class Bloom filter of one port (Li et al.,
 * ICNP 2011).
 *
 * A port's filter holds the multicast groups with a member behind it;
 * group g of class c is inserted and tested with the class's k_c probes
 * (the class table, planned by mcbf_opt.c).
 *
 * The filter uses the layouts of uapi/kbloom_layout.h with the class's k:
 * blocked (kb_block_mask(h, k), all probes in one 512-bit block) or
 * standard (kb_probe over m bits).  Blocked probes of a smaller k are a
 * prefix of those of a larger one, as are standard probes.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libkbloom_net.h"

struct kb_mcbf {
	__u64 *words;
	__u64 nwords;
	__u64 m;
	__u64 nblocks;
	__u64 seed;
	__u32 type;
	__u32 hash_id;
	struct kb_mcbf_classes cls;
};

static int classes_ok(const struct kb_mcbf_classes *c)
{
	__u32 i, used = 0;

	for (i = 0; i < KB_MCBF_CLASSES; i++) {
		if (c->k[i] > KBLOOM_K_MAX)
			return -ERANGE;
		used += !!c->k[i];
	}
	return used ? 0 : -EINVAL;
}

int kb_mcbf_new(__u32 type, __u64 m, __u32 hash_id, __u64 seed,
		const struct kb_mcbf_classes *classes, struct kb_mcbf **fp)
{
	struct kb_mcbf *f;
	size_t bytes;
	int err;

	if (!classes || !fp || hash_id < KBLOOM_HASH_FAST ||
	    hash_id > KBLOOM_HASH_MAX)
		return -EINVAL;
	if (type != KBLOOM_TYPE_BLOCKED && type != KBLOOM_TYPE_STANDARD)
		return -EINVAL;
	if (m < KBLOOM_M_MIN || m > KBLOOM_M_MAX ||
	    m % (type == KBLOOM_TYPE_BLOCKED ? KBLOOM_BLOCK_BITS : 64))
		return -ERANGE;
	err = classes_ok(classes);
	if (err)
		return err;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->nwords = m / 64;
	bytes = (f->nwords * 8 + KBLOOM_BLOCK_BYTES - 1) &
		~(size_t)(KBLOOM_BLOCK_BYTES - 1);
	f->words = aligned_alloc(KBLOOM_BLOCK_BYTES, bytes);
	if (!f->words) {
		free(f);
		return -ENOMEM;
	}
	memset(f->words, 0, bytes);
	f->m = m;
	f->nblocks = m / KBLOOM_BLOCK_BITS;
	f->seed = seed;
	f->type = type;
	f->hash_id = hash_id;
	f->cls = *classes;
	*fp = f;
	return 0;
}

void kb_mcbf_free(struct kb_mcbf *f)
{
	if (!f)
		return;
	free(f->words);
	free(f);
}

/*
 * kb_hash(), inline where @len is a constant: the fast hash of a group
 * address is a few multiplies.
 */
static inline __attribute__((always_inline)) __u64
mcbf_hash(const struct kb_mcbf *f, const void *key, __u32 len)
{
	if (f->hash_id == KBLOOM_HASH_SIPHASH13)
		return kb_hash_sip13(f->seed, key, len);
	return kb_hash_fast(f->seed, key, len);
}

/* The k of a key of class @cls, or 0 (bad or unused class). */
static __u32 key_k(const struct kb_mcbf *f, const void *key, __u32 len,
		   __u32 cls)
{
	if (!f || !key || len < 1 || len > KBLOOM_KEY_MAX ||
	    cls >= KB_MCBF_CLASSES)
		return 0;
	return kb_mcbf_class_k(&f->cls, cls);
}

/* The insertion of the key of hash @h with @k (>= 1) probes. */
static inline void mcbf_add_h(struct kb_mcbf *f, __u64 h, __u32 k)
{
	__u64 mask[KBLOOM_BLOCK_WORDS], *w;
	struct kb_probe p;
	__u32 i, j;

	if (f->type == KBLOOM_TYPE_BLOCKED) {
		w = f->words + (__u64)kb_block_index(h, f->nblocks) *
			       KBLOOM_BLOCK_WORDS;
		kb_block_mask(h, k, mask);
		for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
			w[i] |= mask[i];
		return;
	}
	kb_probe_init(&p, h);
	for (i = 0; i < k; i++) {
		j = kb_probe_next(&p, f->m);
		f->words[j >> 6] |= 1ULL << (j & 63);
	}
}

/* The insertion, for keys of @len bytes (a constant where it is inlined). */
static inline __attribute__((always_inline)) int
mcbf_add(struct kb_mcbf *f, const void *key, __u32 len, __u32 cls)
{
	__u32 k = key_k(f, key, len, cls);

	if (!k)
		return -EINVAL;
	mcbf_add_h(f, mcbf_hash(f, key, len), k);
	return 0;
}

int kb_mcbf_add(struct kb_mcbf *f, const void *key, __u32 len, __u32 cls)
{
	return mcbf_add(f, key, len, cls);
}

/*
 * Does the block @w hold probes 0..k-1 of the hash whose low word is @g
 * (the bits of kb_block_mask())?  Probe i is bit g_i >> 23, g_0 = g,
 * g_i+1 = g_i KB_BLOCK_MUL.  A probe's position does not depend on k, so
 * a key that misses with its first probes misses with all k; most tested
 * keys are absent and most of those miss with the first two, tested
 * together without a branch between them.
 */
static inline int block_probes(const __u64 *w, __u32 g, __u32 k)
{
	__u32 b = g >> 23, c, i;

	if (k < 2)
		return (w[b >> 6] >> (b & 63)) & 1;
	g *= KB_BLOCK_MUL;
	c = g >> 23;
	if (!((w[b >> 6] >> (b & 63)) & (w[c >> 6] >> (c & 63)) & 1))
		return 0;
	for (i = 2; i < k; i++) {
		g *= KB_BLOCK_MUL;
		b = g >> 23;
		if (!((w[b >> 6] >> (b & 63)) & 1))
			return 0;
	}
	return 1;
}

/* The test of the key of hash @h with @k (>= 1) probes. */
static inline int mcbf_test_h(const struct kb_mcbf *f, __u64 h, __u32 k)
{
	const __u64 *w;
	struct kb_probe p;
	__u32 i, j;

	if (f->type == KBLOOM_TYPE_BLOCKED) {
		w = f->words + (__u64)kb_block_index(h, f->nblocks) *
			       KBLOOM_BLOCK_WORDS;
		return block_probes(w, (__u32)h, k);
	}
	kb_probe_init(&p, h);
	for (i = 0; i < k; i++) {
		j = kb_probe_next(&p, f->m);
		if (!(f->words[j >> 6] & (1ULL << (j & 63))))
			return 0;
	}
	return 1;
}

/*
 * Probes 0 and 1 (0 alone when @k is 1) of the key of hash @h, without a
 * branch: 0 when one of them is clear.
 */
static inline int mcbf_first(const struct kb_mcbf *f, __u64 h, __u32 k)
{
	const __u64 *w = f->words;
	struct kb_probe p;
	__u32 a, b;

	if (f->type == KBLOOM_TYPE_BLOCKED) {
		w += (__u64)kb_block_index(h, f->nblocks) * KBLOOM_BLOCK_WORDS;
		a = (__u32)h >> 23;
		b = k < 2 ? a : (__u32)((__u32)h * KB_BLOCK_MUL) >> 23;
	} else {
		kb_probe_init(&p, h);
		a = kb_probe_next(&p, f->m);
		b = k < 2 ? a : kb_probe_next(&p, f->m);
	}
	return (w[a >> 6] >> (a & 63)) & (w[b >> 6] >> (b & 63)) & 1;
}

/* The test, for keys of @len bytes (a constant where it is inlined). */
static inline __attribute__((always_inline)) int
mcbf_test(const struct kb_mcbf *f, const void *key, __u32 len, __u32 cls)
{
	__u32 k = kb_mcbf_class_k(&f->cls, cls);

	if (!k)
		return 0;
	return mcbf_test_h(f, mcbf_hash(f, key, len), k);
}

int kb_mcbf_test(const struct kb_mcbf *f, const void *key, __u32 len,
		 __u32 cls)
{
	if (!f || !key || len < 1 || len > KBLOOM_KEY_MAX ||
	    cls >= KB_MCBF_CLASSES)
		return -EINVAL;
	return mcbf_test(f, key, len, cls);
}

int kb_mcbf_add_hash(struct kb_mcbf *f, __u64 h, __u32 cls)
{
	__u32 k;

	if (!f || cls >= KB_MCBF_CLASSES)
		return -EINVAL;
	k = kb_mcbf_class_k(&f->cls, cls);
	if (!k)
		return -EINVAL;
	mcbf_add_h(f, h, k);
	return 0;
}

int kb_mcbf_test_hash(const struct kb_mcbf *f, __u64 h, __u32 cls)
{
	__u32 k;

	if (!f || cls >= KB_MCBF_CLASSES)
		return -EINVAL;
	k = kb_mcbf_class_k(&f->cls, cls);
	return k ? mcbf_test_h(f, h, k) : 0;
}

#define MCBF_CHUNK	64U

/*
 * MCBF_CHUNK keys at a time: their first two probes without a branch
 * (most absent keys stop there, unpredictably), then the whole test of
 * the keys that passed them.
 */
int kb_mcbf_test_hashes(const struct kb_mcbf *f, const __u64 *h,
			const __u8 *cls, __u32 n, __u8 *hits)
{
	__u32 live[MCBF_CHUNK], nl, c, i, j, len, k;

	if (!f || (n && (!h || !cls || !hits)))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (cls[i] >= KB_MCBF_CLASSES)
			return -EINVAL;
	memset(hits, 0, (n + 7) / 8);
	for (c = 0; c < n; c += len) {
		len = n - c < MCBF_CHUNK ? n - c : MCBF_CHUNK;
		for (i = 0, nl = 0; i < len; i++) {
			k = kb_mcbf_class_k(&f->cls, cls[c + i]);
			live[nl] = i;
			nl += (k != 0) & mcbf_first(f, h[c + i], k);
		}
		for (j = 0; j < nl; j++) {
			i = c + live[j];
			k = kb_mcbf_class_k(&f->cls, cls[i]);
			if (mcbf_test_h(f, h[i], k))
				hits[i >> 3] |= (__u8)(1U << (i & 7));
		}
	}
	return 0;
}

int kb_mcbf_add_v4(struct kb_mcbf *f, const __u8 grp[4])
{
	if (!grp)
		return -EINVAL;
	return mcbf_add(f, grp, 4, kb_mcbf_class_v4(grp));
}

int kb_mcbf_test_v4(const struct kb_mcbf *f, const __u8 grp[4])
{
	if (!f || !grp)
		return -EINVAL;
	return mcbf_test(f, grp, 4, kb_mcbf_class_v4(grp));
}

int kb_mcbf_add_v6(struct kb_mcbf *f, const __u8 grp[16])
{
	if (!grp)
		return -EINVAL;
	return kb_mcbf_add(f, grp, 16, kb_mcbf_class_v6(grp));
}

int kb_mcbf_test_v6(const struct kb_mcbf *f, const __u8 grp[16])
{
	if (!grp)
		return -EINVAL;
	return kb_mcbf_test(f, grp, 16, kb_mcbf_class_v6(grp));
}

void kb_mcbf_clear(struct kb_mcbf *f)
{
	if (f)
		memset(f->words, 0, f->nwords * sizeof(*f->words));
}

__u64 kb_mcbf_ones(const struct kb_mcbf *f)
{
	__u64 i, n = 0;

	for (i = 0; f && i < f->nwords; i++)
		n += kb_popcount64(f->words[i]);
	return n;
}

const __u64 *kb_mcbf_words(const struct kb_mcbf *f, __u64 *nwords)
{
	if (nwords)
		*nwords = f ? f->nwords : 0;
	return f ? f->words : NULL;
}

const struct kb_mcbf_classes *kb_mcbf_class_table(const struct kb_mcbf *f)
{
	return f ? &f->cls : NULL;
}
