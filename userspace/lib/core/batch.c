// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom: key batches.
 *
 * A batch is processed in chunks of KBF_CHUNK keys: hash every key of the
 * chunk and prefetch the cache lines it will touch (one block for a
 * blocked filter, k words otherwise), then test or set them.  By the time
 * the second pass reaches a key its line has had a whole chunk of hashing
 * to arrive, and the misses of a chunk overlap instead of queueing one
 * after the other.
 */
#include "kbloom_int.h"

/*
 * Keys per chunk.  32 covers an L3 or DRAM miss (about 200-300 cycles)
 * with the hashing of the rest of the chunk and stays within the number of
 * outstanding misses a core tracks; see tests/bench/core.c.
 */
#ifndef KBF_CHUNK
#define KBF_CHUNK	64
#endif

/* Cursor over a validated batch. */
struct kbf_keys {
	const __u8 *p;
	__u32 key_len;		/* 0: variable, length-prefixed */
};

static int kbf_batch_check(const void *keys, size_t keys_len, __u32 key_len,
			   __u32 count)
{
	const __u8 *p = keys;
	size_t off = 0;
	__u32 i;

	if (count && !keys)
		return -EINVAL;
	if (key_len > KBLOOM_KEY_MAX)
		return -EINVAL;
	if (key_len)
		return (__u64)key_len * count == keys_len ? 0 : -EINVAL;
	for (i = 0; i < count; i++) {
		if (off >= keys_len || !p[off] || p[off] > KBLOOM_KEY_MAX)
			return -EINVAL;
		off += 1 + p[off];
		if (off > keys_len)
			return -EINVAL;
	}
	return off == keys_len ? 0 : -EINVAL;
}

static inline __attribute__((always_inline)) __u64
kbf_next_hash(const struct kbloom_filter *f, struct kbf_keys *c,
	      __u32 key_len)
{
	__u64 h;
	__u32 len;

	if (key_len) {
		h = kbf_hash(f, c->p, key_len);
		c->p += key_len;
		return h;
	}
	len = c->p[0];
	h = kbf_hash(f, c->p + 1, len);
	c->p += 1 + len;
	return h;
}

static inline void kbf_prefetch(const struct kbloom_filter *f, __u64 h,
				bool write)
{
	struct kb_probe p;
	__u32 i, j;

	if (f->type == KBLOOM_TYPE_BLOCKED) {
		if (write)
			__builtin_prefetch(kbf_block(f, h), 1, 3);
		else
			__builtin_prefetch(kbf_block(f, h), 0, 3);
		return;
	}
	kb_probe_init(&p, h);
	for (i = 0; i < f->k; i++) {
		j = kb_probe_next(&p, f->m);
		if (f->type == KBLOOM_TYPE_COUNTING)
			__builtin_prefetch(kbf_ctr_word(f, j), 1, 3);
		else if (write)
			__builtin_prefetch(&f->words[j >> 6], 1, 3);
		else
			__builtin_prefetch(&f->words[j >> 6], 0, 3);
	}
}

/* Hash n keys at the cursor into h[] and prefetch their lines. */
static inline __attribute__((always_inline)) void
kbf_hash_chunk(const struct kbloom_filter *f, struct kbf_keys *c,
	       __u32 key_len, __u32 n, __u64 *h, bool write)
{
	__u32 i;

	for (i = 0; i < n; i++) {
		h[i] = kbf_next_hash(f, c, key_len);
		kbf_prefetch(f, h[i], write);
	}
}

/*
 * The common case on its own: 8-byte keys, the fast hash, a blocked
 * filter.  Nothing in the loop but the hash, the block address and the
 * prefetch.
 */
static void kbf_hash_chunk_blk8(const struct kbloom_filter *f,
				struct kbf_keys *c, __u32 n, __u64 *h,
				bool write)
{
	const __u8 *p = c->p;
	__u64 seed = f->seed;
	__u32 i;

	for (i = 0; i < n; i++) {
		h[i] = kb_hash_fast(seed, p + 8 * i, 8);
		if (write)
			__builtin_prefetch(kbf_block(f, h[i]), 1, 3);
		else
			__builtin_prefetch(kbf_block(f, h[i]), 0, 3);
	}
	c->p += 8 * n;
}

static void kbf_hash_chunk_any(const struct kbloom_filter *f,
			       struct kbf_keys *c, __u32 n, __u64 *h,
			       bool write)
{
	switch (c->key_len) {
	case 4:
		kbf_hash_chunk(f, c, 4, n, h, write);
		break;
	case 8:
		if (f->type == KBLOOM_TYPE_BLOCKED &&
		    f->hash_id == KBLOOM_HASH_FAST)
			kbf_hash_chunk_blk8(f, c, n, h, write);
		else
			kbf_hash_chunk(f, c, 8, n, h, write);
		break;
	case 16:
		kbf_hash_chunk(f, c, 16, n, h, write);
		break;
	default:
		kbf_hash_chunk(f, c, c->key_len, n, h, write);
		break;
	}
}

/* Test n hashed keys; n is a multiple of 8 except for the last chunk. */
static __u32 kbf_test_chunk(const struct kbloom_filter *f, const __u64 *h,
			    __u32 n, __u8 *res)
{
	__u32 i, hits = 0;
	__u8 byte = 0;
	bool r;

	for (i = 0; i < n; i++) {
		r = kbf_test_h(f, h[i]);
		hits += r;
		byte |= (__u8)r << (i & 7);
		if ((i & 7) == 7 || i == n - 1) {
			if (res)
				res[i >> 3] = byte;
			byte = 0;
		}
	}
	return hits;
}

/* The blocked fast path: no per-key type dispatch. */
static __u32 kbf_blk_test_chunk(const struct kbloom_filter *f,
				const __u64 *h, __u32 n, __u8 *res)
{
	__u32 i, hits = 0;
	__u8 byte = 0;
	bool r;

	for (i = 0; i < n; i++) {
		r = kbf_blk_test(f, h[i]);
		hits += r;
		byte |= (__u8)r << (i & 7);
		if ((i & 7) == 7 || i == n - 1) {
			if (res)
				res[i >> 3] = byte;
			byte = 0;
		}
	}
	return hits;
}

long kbloom_test_batch(const struct kbloom_filter *f, const void *keys,
		       size_t keys_len, __u32 key_len, __u32 count,
		       __u8 *results)
{
	struct kbf_keys c = { .p = keys, .key_len = key_len };
	__u64 h[KBF_CHUNK], *blk[KBF_CHUNK];
	__u32 done, n;
	long hits = 0;
	__u8 *res;
	int ret;

	if (!f)
		return -EINVAL;
	ret = kbf_batch_check(keys, keys_len, key_len, count);
	if (ret)
		return ret;
	for (done = 0; done < count; done += n) {
		n = count - done < KBF_CHUNK ? count - done : KBF_CHUNK;
		res = results ? results + done / 8 : NULL;
#if KBF_SIMD
		if (kbf_simd_batch(f, key_len)) {
			kbf_simd_hash_chunk(f, c.p, key_len, n, h, blk, false);
			c.p += (size_t)n * key_len;
			hits += kbf_simd_test_blk(f, h, blk, n, res);
			continue;
		}
#endif
		kbf_hash_chunk_any(f, &c, n, h, false);
#if KBF_SIMD
		if (f->simd) {
			hits += kbf_simd_test_chunk(f, h, n, res);
			continue;
		}
#endif
		if (f->type == KBLOOM_TYPE_BLOCKED)
			hits += kbf_blk_test_chunk(f, h, n, res);
		else
			hits += kbf_test_chunk(f, h, n, res);
	}
	return hits;
}

int kbloom_add_batch(struct kbloom_filter *f, const void *keys,
		     size_t keys_len, __u32 key_len, __u32 count)
{
	struct kbf_keys c = { .p = keys, .key_len = key_len };
	__u64 h[KBF_CHUNK], *blk[KBF_CHUNK], lost = 0;
	__u32 done, n, i;
	int ret;

	if (!f)
		return -EINVAL;
	ret = kbf_batch_check(keys, keys_len, key_len, count);
	if (ret)
		return ret;
	for (done = 0; done < count; done += n) {
		n = count - done < KBF_CHUNK ? count - done : KBF_CHUNK;
#if KBF_SIMD
		if (kbf_simd_batch(f, key_len)) {
			kbf_simd_hash_chunk(f, c.p, key_len, n, h, blk, true);
			c.p += (size_t)n * key_len;
			kbf_simd_add_chunk(f, h, blk, n);
			continue;
		}
#endif
		kbf_hash_chunk_any(f, &c, n, h, true);
#if KBF_SIMD
		if (f->simd == KBF_AVX512) {
			kbf_simd_add_chunk(f, h, NULL, n);
			continue;
		}
#endif
		for (i = 0; i < n; i++)
			lost += kbf_add_h(f, h[i]);
	}
	kbf_count_f(f, &f->inserted, count);
	if (lost)
		kbf_count_f(f, &f->saturations, lost);
	return 0;
}
