/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom internals: the filter object and the per-key operations that
 * filter.c (single keys) and batch.c (batches) share.  Everything about
 * hashing, positions and layout comes from uapi/; this file only applies
 * it to a word array with the atomics the concurrency contract needs.
 */
#ifndef _KBLOOM_INT_H
#define _KBLOOM_INT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "libkbloom.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_plan.h"

#define KBF_CACHELINE	64

/* AVX2 blocked test (simd.c), chosen at run time on x86-64 */
#if defined(__x86_64__) && defined(__GNUC__)
#define KBF_SIMD	1
#else
#define KBF_SIMD	0
#endif

/* simd levels: the blocked test and insert code the filter uses */
enum kbf_simd {
	KBF_SCALAR,
	KBF_AVX2,
	KBF_AVX512,	/* AVX-512 F, VL, BW, BITALG (vpshufbitqmb) */
};

struct kbloom_filter {
	/*
	 * read by every operation: the first cache line; its first fields
	 * are the public struct kbloom_fast (libkbloom_inline.h) that the
	 * inline lookup reads, as a union member of the same layout
	 */
	union {
		struct kbloom_fast fast;
		struct {
			__u64 *words;	/* 64-byte aligned */
			__u64 nblocks;	/* blocked: m / 512 */
			__u64 seed;
			__u64 kmask64;	/* simd.c: kmask, one bit per byte */
			__u32 k;
			__u32 kmask;	/* probes of the last round of 8 */
			__u32 inline_ok;
			__u32 fast_version;
			__u64 nbytes;
			__u64 hinit[4];
		};
	};
	__u64 m;
	__u64 sip_k1;		/* kb_sip_k1(seed), cached */
	__u32 type;
	__u32 hash_id;
	__u32 counter_bits;
	__u8 simd;		/* enum kbf_simd */
	bool single_writer;	/* KBLOOM_OPT_SINGLE_WRITER: plain stores */

	__u64 nwords;
	__u64 capacity;
	__u64 fpr_pico;
	size_t map_len;		/* mmap()ed length, 0 when malloc()ed */
	char name[KBLOOM_NAME_LEN];

	/* written by every add: kept off the read-mostly lines above */
	__u64 inserted __attribute__((aligned(KBF_CACHELINE)));
	__u64 deleted;
	__u64 saturations;
};

/* filter.c */
int kbf_new(__u32 type, __u64 m, __u32 k, __u32 hash_id, __u32 counter_bits,
	    __u64 seed, struct kbloom_filter **fp);
bool kbf_same_geometry(const struct kbloom_filter *a,
		       const struct kbloom_filter *b);

__u64 kbf_hash_any(const struct kbloom_filter *f, const void *key, __u32 len);

/* simd.c: f->simd is KBF_AVX2 or KBF_AVX512 (add: KBF_AVX512) */
__u8 kbf_simd_level(__u32 type, __u32 k);
bool kbf_simd_vhash(__u8 simd);
int kbf_simd_test(const struct kbloom_filter *f, __u64 h);
__u32 kbf_simd_test_chunk(const struct kbloom_filter *f, const __u64 *h,
			  __u32 n, __u8 *res);
void kbf_simd_apply(__u64 *w, const __u64 *mask);
void kbf_simd_add(const struct kbloom_filter *f, __u64 h);
void kbf_simd_add_chunk(const struct kbloom_filter *f, const __u64 *h,
			__u64 *const *blk, __u32 n);
void kbf_simd_hash_chunk(const struct kbloom_filter *f, const __u8 *p,
			 __u32 len, __u32 n, __u64 *h, __u64 **blk, bool write);
__u32 kbf_simd_test_blk(const struct kbloom_filter *f, const __u64 *h,
			__u64 *const *blk, __u32 n, __u8 *res);

/* Batches of @key_len hashed 8 at a time by kbf_simd_hash_chunk()? */
static inline bool kbf_simd_batch(const struct kbloom_filter *f,
				  __u32 key_len)
{
	return f->simd == KBF_AVX512 && f->hash_id == KBLOOM_HASH_FAST &&
	       (key_len == 4 || key_len == 8 || key_len == 16);
}

static inline __u64 kbf_load(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void kbf_store(__u64 *p, __u64 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline void kbf_count(__u64 *ctr, __u64 n)
{
	__atomic_fetch_add(ctr, n, __ATOMIC_RELAXED);
}

/* A filter's counter: no locked instruction with a single writer. */
static inline void kbf_count_f(const struct kbloom_filter *f, __u64 *ctr,
			       __u64 n)
{
	if (f->single_writer)
		kbf_store(ctr, kbf_load(ctr) + n);
	else
		kbf_count(ctr, n);
}

static inline bool kbf_key_ok(const void *key, __u32 len)
{
	return key && len >= 1 && len <= KBLOOM_KEY_MAX;
}

/*
 * The filter's kb_hash().  KBLOOM_HASH_SIPHASH13 is kb_hash_sip13() with
 * the derived half of the key, kb_sip_k1(seed), computed once at creation;
 * the fast hash is specialised for the common fixed key lengths so that
 * its loops unroll.  tests/core/golden_test.c checks both against
 * kb_hash().
 */
static inline __attribute__((always_inline)) __u64
kbf_hash(const struct kbloom_filter *f, const void *key, __u32 len)
{
	if (f->hash_id == KBLOOM_HASH_SIPHASH13)
		return kb_siphash(f->seed, f->sip_k1, key, len, 1, 3);
	switch (len) {
	case 4:
		return kb_hash_fast(f->seed, key, 4);
	case 8:
		return kb_hash_fast(f->seed, key, 8);
	case 16:
		return kb_hash_fast(f->seed, key, 16);
	default:
		return kb_hash_fast(f->seed, key, len);
	}
}

static inline __u64 *kbf_block(const struct kbloom_filter *f, __u64 h)
{
	return f->words + (__u64)kb_block_index(h, f->nblocks) *
			  KBLOOM_BLOCK_WORDS;
}

/*
 * Blocked test: the probes of kb_block_mask(), tested as they are
 * generated instead of through a mask array, with no branch: all loads hit
 * the one cache line of the block, so the cost is that line's miss.  The
 * copies for the k the planner picks most often (6 to 8 for 0.5% to 2%)
 * unroll completely; simd.c has the AVX2 version.  golden_test.c checks
 * both against kb_block_mask() for every k.
 */
static inline __attribute__((always_inline)) bool
kbf_blk_test_k(const __u64 *w, __u64 h, __u32 k)
{
	__u32 g = (__u32)h, b, i;
	__u64 acc = 1;

#pragma GCC unroll 8
	for (i = 0; i < k; i++) {
		b = g >> 23;
		acc &= kbf_load(&w[b >> 6]) >> (b & 63);
		g *= KB_BLOCK_MUL;
	}
	return acc & 1;
}

static inline bool kbf_blk_test_any(const __u64 *w, __u64 h, __u32 k)
{
	__u32 g = (__u32)h, b, i;
	__u64 acc = 1;

	for (i = 0; i < k; i++) {
		b = g >> 23;
		acc &= kbf_load(&w[b >> 6]) >> (b & 63);
		g *= KB_BLOCK_MUL;
	}
	return acc & 1;
}

static inline bool kbf_blk_test(const struct kbloom_filter *f, __u64 h)
{
	const __u64 *w = kbf_block(f, h);

	switch (f->k) {
	case 6:
		return kbf_blk_test_k(w, h, 6);
	case 7:
		return kbf_blk_test_k(w, h, 7);
	case 8:
		return kbf_blk_test_k(w, h, 8);
	default:
		return kbf_blk_test_any(w, h, f->k);
	}
}

/*
 * OR a mask into a block: nothing when the block holds it already, else a
 * locked OR into every word of the mask (branches on the hash only, as
 * simd.c explains).
 */
static inline void kbf_blk_apply(__u64 *w, const __u64 *mask)
{
	__u64 need = 0;
	__u32 i;

	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		need |= mask[i] & ~kbf_load(&w[i]);
	if (!need)
		return;
	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		if (mask[i])
			__atomic_fetch_or(&w[i], mask[i], __ATOMIC_RELAXED);
}

/*
 * Single writer: the probes set straight into the block, each word read
 * and written with relaxed (plain) accesses: concurrent readers see a
 * word before or after, never torn; no other writer may run.
 */
static inline void kbf_blk_set_sw(__u64 *w, __u64 h, __u32 k)
{
	__u32 g = (__u32)h, b, i;
	__u64 *p;

	for (i = 0; i < k; i++) {
		b = g >> 23;
		p = &w[b >> 6];
		kbf_store(p, kbf_load(p) | 1ULL << (b & 63));
		g *= KB_BLOCK_MUL;
	}
}

static inline void kbf_blk_add(const struct kbloom_filter *f, __u64 h)
{
	__u64 mask[KBLOOM_BLOCK_WORDS];

#if KBF_SIMD
	if (f->simd == KBF_AVX512) {
		kbf_simd_add(f, h);
		return;
	}
#endif
	if (f->single_writer) {
		kbf_blk_set_sw(kbf_block(f, h), h, f->k);
		return;
	}
	kb_block_mask(h, f->k, mask);
#if KBF_SIMD
	if (f->simd) {
		kbf_simd_apply(kbf_block(f, h), mask);
		return;
	}
#endif
	kbf_blk_apply(kbf_block(f, h), mask);
}

static inline bool kbf_std_test(const struct kbloom_filter *f, __u64 h)
{
	struct kb_probe p;
	__u32 i, j;

	kb_probe_init(&p, h);
	for (i = 0; i < f->k; i++) {
		j = kb_probe_next(&p, f->m);
		if (!(kbf_load(&f->words[j >> 6]) & (1ULL << (j & 63))))
			return false;
	}
	return true;
}

static inline void kbf_std_add(const struct kbloom_filter *f, __u64 h)
{
	struct kb_probe p;
	__u64 bit, *w;
	__u32 i, j;

	kb_probe_init(&p, h);
	for (i = 0; i < f->k; i++) {
		j = kb_probe_next(&p, f->m);
		w = &f->words[j >> 6];
		bit = 1ULL << (j & 63);
		/* single writer: no branch on the bit (half of them mispredict) */
		if (f->single_writer) {
			kbf_store(w, kbf_load(w) | bit);
			continue;
		}
		if (!(kbf_load(w) & bit))
			__atomic_fetch_or(w, bit, __ATOMIC_RELAXED);
	}
}

static inline __u64 *kbf_ctr_word(const struct kbloom_filter *f, __u32 j)
{
	return &f->words[kb_ctr_word(j, f->counter_bits)];
}

static inline bool kbf_ctr_test(const struct kbloom_filter *f, __u64 h)
{
	__u32 cb = f->counter_bits;
	struct kb_probe p;
	__u32 i, j;

	kb_probe_init(&p, h);
	for (i = 0; i < f->k; i++) {
		j = kb_probe_next(&p, f->m);
		if (!kb_ctr_get(kbf_load(kbf_ctr_word(f, j)),
				kb_ctr_shift(j, cb), cb))
			return false;
	}
	return true;
}

/* Increment every counter of the key; return the increments lost. */
static inline __u32 kbf_ctr_add(const struct kbloom_filter *f, __u64 h)
{
	__u32 cb = f->counter_bits, lost = 0, i, j, sh;
	struct kb_probe p;
	__u64 *w, old, new;

	kb_probe_init(&p, h);
	for (i = 0; i < f->k; i++) {
		j = kb_probe_next(&p, f->m);
		w = kbf_ctr_word(f, j);
		sh = kb_ctr_shift(j, cb);
		old = kbf_load(w);
		do {
			new = kb_ctr_inc(old, sh, cb);
			if (new == old) {
				lost++;
				break;
			}
			if (f->single_writer) {
				kbf_store(w, new);
				break;
			}
		} while (!__atomic_compare_exchange_n(w, &old, new, true,
						      __ATOMIC_RELAXED,
						      __ATOMIC_RELAXED));
	}
	return lost;
}

static inline bool kbf_test_h(const struct kbloom_filter *f, __u64 h)
{
	if (f->type == KBLOOM_TYPE_BLOCKED)
		return kbf_blk_test(f, h);
	if (f->type == KBLOOM_TYPE_STANDARD)
		return kbf_std_test(f, h);
	return kbf_ctr_test(f, h);
}

/* Add by hash; return the counter increments lost to saturation. */
static inline __u32 kbf_add_h(const struct kbloom_filter *f, __u64 h)
{
	if (f->type == KBLOOM_TYPE_BLOCKED) {
		kbf_blk_add(f, h);
		return 0;
	}
	if (f->type == KBLOOM_TYPE_STANDARD) {
		kbf_std_add(f, h);
		return 0;
	}
	return kbf_ctr_add(f, h);
}

#endif /* _KBLOOM_INT_H */
