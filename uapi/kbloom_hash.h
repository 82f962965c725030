/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the one definition of the key hash.
 *
 * Every executor (kbloom.ko, the XDP programs, libkbloom) hashes a key with
 * kb_hash() and nothing else, so a key inserted by one is found by the
 * others.  Golden vectors in tests/core pin the output: any change here is
 * an image format change and needs a new hash id.
 *
 * Keys are 1..KBLOOM_KEY_MAX bytes.  Words are read little-endian whatever
 * the host byte order.  All arithmetic is on unsigned 64-bit integers and
 * wraps on purpose.
 *
 * KBLOOM_HASH_FAST: a seeded multiply-rotate hash in the style of xxHash64
 * (8-byte lanes, each multiplied, rotated and multiplied into the state),
 * finished with the MurmurHash3 fmix64 avalanche.  Fast and well mixed, but
 * not a PRF: an attacker who knows the seed can find colliding keys.
 *
 * KBLOOM_HASH_SIPHASH13: SipHash-1-3 (one compression round, three
 * finalization rounds; Aumasson and Bernstein), a keyed pseudo-random
 * function for filters that see adversarial keys.  The 128-bit SipHash key
 * is expanded from the 64-bit seed: k0 = seed, k1 = fmix64(seed ^ KB_P2).
 *
 * KBLOOM_HASH_XXH64: xxHash64 (Yann Collet's specification, xxhash.com
 * doc/xxhash_spec.md), the hash Apache Parquet's split-block filters take
 * with seed 0.  Only the split-block type accepts it (kb_type_hash_ok());
 * BPF programs serve no such type, so their build leaves it out of
 * kb_hash().  It reads keys of any length.
 */
#ifndef _UAPI_KBLOOM_HASH_H
#define _UAPI_KBLOOM_HASH_H

#include <linux/types.h>
#include "kbloom_base.h"

#define KB_P1	0x9E3779B185EBCA87ULL
#define KB_P2	0xC2B2AE3D27D4EB4FULL
#define KB_P3	0x165667B19E3779F9ULL
#define KB_P4	0x85EBCA77C2B2AE63ULL
#define KB_P5	0x27D4EB2F165667C5ULL

static inline __u64 kb_rotl64(__u64 x, unsigned int r)
{
	return (x << r) | (x >> (64 - r));
}

/* MurmurHash3's 64-bit finalizer: every input bit affects every output bit. */
static inline __u64 kb_fmix64(__u64 h)
{
	h ^= h >> 33;
	h *= 0xFF51AFD7ED558CCDULL;
	h ^= h >> 33;
	h *= 0xC4CEB9FE1A85EC53ULL;
	h ^= h >> 33;
	return h;
}

/* Read n (0..8) bytes at p as a little-endian integer. */
static inline __u64 kb_load_le(const __u8 *p, __u32 n)
{
	__u64 v = 0;
	__u32 i;

	for (i = 0; i < 8; i++) {
		if (i >= n)
			break;
		v |= (__u64)p[i] << (8 * i);
	}
	return v;
}

/* Read 8 bytes at p as a little-endian integer. */
static inline __u64 kb_load_le64(const __u8 *p)
{
#if defined(__bpf__)
	return kb_load_le(p, 8);
#else
	__u64 v;

	__builtin_memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
#endif
}

/* The seed-free half of a lane: the word mixed before it meets the state. */
static inline __u64 kb_fast_mix(__u64 w)
{
	w *= KB_P2;
	w = kb_rotl64(w, 31);
	return w * KB_P1;
}

/* The lane's other half: the mixed word @mw folded into the state @h. */
static inline __u64 kb_fast_fold(__u64 h, __u64 mw)
{
	h ^= mw;
	return kb_rotl64(h, 27) * KB_P1 + KB_P4;
}

static inline __u64 kb_fast_lane(__u64 h, __u64 w)
{
	return kb_fast_fold(h, kb_fast_mix(w));
}

/*
 * kb_hash_fast() of a key of 1..8 bytes in two halves, for a key hashed
 * under many seeds: kb_fast_key_mix(key, len), its seed-free part, once,
 * then kb_hash_fast_mixed(seed, len, mix) == kb_hash_fast(seed, key, len)
 * per seed (its one lane, as kb_hash_fast() reads it, mixed ahead).
 */
static inline __u64 kb_fast_key_mix(const void *key, __u32 len)
{
	const __u8 *p = (const __u8 *)key;

	if (len == 8)
		return kb_fast_mix(kb_load_le64(p));
	return kb_fast_mix(kb_load_le(p, len) ^ KB_P3);
}

static inline __u64 kb_hash_fast_mixed(__u64 seed, __u32 len, __u64 mix)
{
	return kb_fmix64(kb_fast_fold(seed + KB_P3 + (__u64)len * KB_P1, mix));
}

/*
 * The aligned loads: @p is 8-byte aligned (the caller's precondition).
 * kb_load_le64_al() reads the word at @p with one 64-bit load;
 * kb_load_le_al() reads n (0..7) bytes with the widest aligned loads that
 * fit (4, then 2, then 1 bytes), so BPF, which reads its stack aligned
 * only, need not read them byte by byte.  Both little-endian, as
 * kb_load_le64() and kb_load_le().
 */
static inline __u64 kb_load_le64_al(const __u8 *p)
{
	__u64 v;

	__builtin_memcpy(&v, __builtin_assume_aligned(p, 8), sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline __u64 kb_load_le_al(const __u8 *p, __u32 n)
{
	const __u8 *a = (const __u8 *)__builtin_assume_aligned(p, 8);
	__u64 v = 0;
	__u32 off = 0;
	__u32 w32;
	__u16 w16;

	if (n & 4) {
		__builtin_memcpy(&w32, a, sizeof(w32));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		w32 = __builtin_bswap32(w32);
#endif
		v = w32;
		off = 4;
	}
	if (n & 2) {
		__builtin_memcpy(&w16, __builtin_assume_aligned(a + off, 2),
				 sizeof(w16));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		w16 = __builtin_bswap16(w16);
#endif
		v |= (__u64)w16 << (8 * off);
		off += 2;
	}
	if (n & 1)
		v |= (__u64)a[off] << (8 * off);
	return v;
}

/*
 * KBLOOM_HASH_FAST's one definition, over len (1..KBLOOM_KEY_MAX) bytes
 * at @p read with the aligned loads when @al (a constant at every call
 * site) or the bytewise-safe ones otherwise: the same words either way.
 */
static inline __u64 kb_hash_fast_rd(__u64 seed, const __u8 *p, __u32 len,
				    int al)
{
	__u64 h = seed + KB_P3 + (__u64)len * KB_P1;
	__u32 i, off = 0;
	__u64 w;

	for (i = 0; i < KBLOOM_KEY_MAX / 8; i++) {
		if (off + 8 > len)
			break;
		w = al ? kb_load_le64_al(p + off) : kb_load_le64(p + off);
		h = kb_fast_lane(h, w);
		off += 8;
	}
	if (off < len) {
		w = al ? kb_load_le_al(p + off, len - off) :
			 kb_load_le(p + off, len - off);
		h = kb_fast_lane(h, w ^ KB_P3);
	}
	return kb_fmix64(h);
}

/* KBLOOM_HASH_FAST over len (1..KBLOOM_KEY_MAX) bytes. */
static inline __u64 kb_hash_fast(__u64 seed, const void *key, __u32 len)
{
	return kb_hash_fast_rd(seed, (const __u8 *)key, len, 0);
}

/*
 * kb_hash_fast() of a key whose address is 8-byte aligned (precondition:
 * a stack buffer in a union with __u64 or declared with the aligned(8)
 * attribute), read as whole words and an aligned tail: the same result for
 * every key, length and seed.
 */
static inline __u64 kb_hash_fast_al(__u64 seed, const void *key, __u32 len)
{
	return kb_hash_fast_rd(seed, (const __u8 *)key, len, 1);
}

/* One SipRound on the state v[0..3]. */
static inline void kb_sipround(__u64 v[4])
{
	v[0] += v[1];
	v[1] = kb_rotl64(v[1], 13) ^ v[0];
	v[0] = kb_rotl64(v[0], 32);
	v[2] += v[3];
	v[3] = kb_rotl64(v[3], 16) ^ v[2];
	v[0] += v[3];
	v[3] = kb_rotl64(v[3], 21) ^ v[0];
	v[2] += v[1];
	v[1] = kb_rotl64(v[1], 17) ^ v[2];
	v[2] = kb_rotl64(v[2], 32);
}

/*
 * SipHash-c-d with a 128-bit key (k0, k1) and a 64-bit result.  c and d are
 * compile-time constants at every call site; the function is generic only
 * so that the tests can check it against the published SipHash-2-4 vector.
 */
static inline __u64 kb_siphash(__u64 k0, __u64 k1, const void *key, __u32 len,
			       unsigned int c, unsigned int d)
{
	const __u8 *p = (const __u8 *)key;
	__u64 v[4] = {
		k0 ^ 0x736F6D6570736575ULL, k1 ^ 0x646F72616E646F6DULL,
		k0 ^ 0x6C7967656E657261ULL, k1 ^ 0x7465646279746573ULL,
	};
	__u32 i, off = 0;
	unsigned int r;
	__u64 m;

	for (i = 0; i < KBLOOM_KEY_MAX / 8; i++) {
		if (off + 8 > len)
			break;
		m = kb_load_le64(p + off);
		v[3] ^= m;
		for (r = 0; r < c; r++)
			kb_sipround(v);
		v[0] ^= m;
		off += 8;
	}
	m = ((__u64)len << 56) | kb_load_le(p + off, len - off);
	v[3] ^= m;
	for (r = 0; r < c; r++)
		kb_sipround(v);
	v[0] ^= m;
	v[2] ^= 0xFF;
	for (r = 0; r < d; r++)
		kb_sipround(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/* The 128-bit SipHash key derived from a filter's 64-bit seed. */
static inline __u64 kb_sip_k1(__u64 seed)
{
	return kb_fmix64(seed ^ KB_P2);
}

static inline __u64 kb_hash_sip13(__u64 seed, const void *key, __u32 len)
{
	return kb_siphash(seed, kb_sip_k1(seed), key, len, 1, 3);
}

/* xxHash64's stripe round: one 8-byte lane into an accumulator. */
static inline __u64 kb_xxh64_round(__u64 acc, __u64 lane)
{
	acc += lane * KB_P2;
	return kb_rotl64(acc, 31) * KB_P1;
}

/* The four accumulators of inputs of 32 bytes or more, converged. */
static inline __u64 kb_xxh64_stripes(__u64 seed, const __u8 *p, __u64 len)
{
	__u64 v[4] = { seed + KB_P1 + KB_P2, seed + KB_P2, seed, seed - KB_P1 };
	__u64 off, h;
	__u32 i;

	for (off = 0; off + 32 <= len; off += 32)
		for (i = 0; i < 4; i++)
			v[i] = kb_xxh64_round(v[i], kb_load_le64(p + off + 8 * i));
	h = kb_rotl64(v[0], 1) + kb_rotl64(v[1], 7) + kb_rotl64(v[2], 12) +
	    kb_rotl64(v[3], 18);
	for (i = 0; i < 4; i++) {
		h ^= kb_xxh64_round(0, v[i]);
		h = h * KB_P1 + KB_P4;
	}
	return h;
}

/* xxHash64 of len bytes (any length, 0 included) under seed. */
static inline __u64 kb_hash_xxh64(__u64 seed, const void *key, __u64 len)
{
	const __u8 *p = (const __u8 *)key;
	__u64 h, off = len & ~31ULL;

	h = len >= 32 ? kb_xxh64_stripes(seed, p, len) : seed + KB_P5;
	h += len;
	for (; off + 8 <= len; off += 8)
		h = kb_fast_lane(h, kb_load_le64(p + off));
	if (off + 4 <= len) {
		h ^= kb_load_le(p + off, 4) * KB_P1;
		h = kb_rotl64(h, 23) * KB_P2 + KB_P3;
		off += 4;
	}
	for (; off < len; off++) {
		h ^= p[off] * KB_P5;
		h = kb_rotl64(h, 11) * KB_P1;
	}
	h ^= h >> 33;
	h *= KB_P2;
	h ^= h >> 29;
	h *= KB_P3;
	return h ^ (h >> 32);
}

/*
 * The key hash of a filter.  Callers validate hash_id and len when the
 * filter or the key enters the system; an unknown id hashes as
 * KBLOOM_HASH_FAST so that this function never fails.
 */
static inline __u64 kb_hash(__u32 hash_id, __u64 seed, const void *key,
			    __u32 len)
{
	if (hash_id == KBLOOM_HASH_SIPHASH13)
		return kb_hash_sip13(seed, key, len);
#ifndef __bpf__
	if (hash_id == KBLOOM_HASH_XXH64)
		return kb_hash_xxh64(seed, key, len);
#endif
	return kb_hash_fast(seed, key, len);
}

/*
 * kb_hash() of a key whose address is 8-byte aligned (kb_hash_fast_al()'s
 * precondition).  Only KBLOOM_HASH_FAST has an aligned reader: SipHash
 * (and xxHash64 outside BPF) simply run kb_hash()'s own code.
 */
static inline __u64 kb_hash_al(__u32 hash_id, __u64 seed, const void *key,
			       __u32 len)
{
	if (hash_id == KBLOOM_HASH_SIPHASH13 || hash_id == KBLOOM_HASH_XXH64)
		return kb_hash(hash_id, seed, key, len);
	return kb_hash_fast_al(seed, key, len);
}

#endif /* _UAPI_KBLOOM_HASH_H */
