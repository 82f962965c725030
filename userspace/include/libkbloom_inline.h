/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom: the inline lookup of a blocked filter.
 *
 * kbloom_test() of libkbloom.h is this header's kbloom_test_inline(): when
 * the key length is a compile-time 4, 8 or 16 and the program is compiled
 * for AVX2 (-mavx2, -march=native on x86-64), a lookup in a blocked filter
 * with the fast hash is inlined at the call site: the hash, the block
 * address and the test of its probes, about thirty instructions without a
 * call, so that many lookups of a loop are in flight at once.  Every other
 * case (other types, SipHash, variable lengths, programs built without
 * AVX2, KBLOOM_NO_SIMD=1 in the environment when the filter was created)
 * calls the library's kbloom_test().  Define KBLOOM_NO_INLINE before
 * including libkbloom.h to always call the library.
 *
 * Compiled for AVX-512 (F, VL, BW, DQ, BITALG), the lookup reads the
 * filter's inline_ok, which the library sets at creation: on CPUs with a
 * fast 64-bit vector multiply (AMD's AVX-512 cores) the hash runs in a
 * vector register, its constants memory operands, and the whole lookup is
 * about 40 instructions where the scalar hash's 64-bit immediates and
 * their registers made it about 55 in a loop that may also call the
 * library (measured: single lookups from 0.47x to 0.6-0.7x of Impala's
 * SimdBlockFilter, same keys and memory); elsewhere the scalar hash.
 *
 * Filters of libraries with the v2 fast header (version KBLOOM__FAST_V2)
 * carry the hash's start for each inlined key length and the blocks' size
 * in bytes, which the AVX-512 lookup takes as memory operands: in the
 * peer benchmark's loop 50 instructions per lookup where the v1 header
 * took 54 (hash 16, block address 6, block test 12, the guard and the
 * loop's own 16), against 27 for Impala's SimdBlockFilter.  Measured
 * without any guard, with every field in a register, the same lookup
 * reaches only 0.87-0.94x Impala's; with Impala's 256-bit test instead of
 * the 512-bit block 0.97x; with a two-multiply hash instead of the
 * contract's five 0.90-0.93x: the contract's hash and block are what
 * remains.
 *
 * The answers are the library's, bit for bit: the same uapi/ hash and
 * positions (tests/core/simd_test.c checks every path against the scalar
 * code, and the vector hash against kb_hash_fast()).  The block is read with vector loads of aligned 8-byte words,
 * each atomic, as the library's relaxed loads: the concurrency contract of
 * libkbloom.h holds.
 */
#ifndef _LIBKBLOOM_INLINE_H
#define _LIBKBLOOM_INLINE_H

#include <linux/types.h>

#include "libkbloom.h"
#include "kbloom/uapi/kbloom_hash.h"
#include "kbloom/uapi/kbloom_layout.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define KBLOOM__X86	1
#include <immintrin.h>
#else
#define KBLOOM__X86	0
#endif

#if KBLOOM__X86 && defined(__AVX2__) && !defined(KBLOOM_NO_INLINE)
#define KBLOOM_INLINE_AVX2	1
#else
#define KBLOOM_INLINE_AVX2	0
#endif

#if KBLOOM_INLINE_AVX2 && defined(__AVX512F__) && defined(__AVX512VL__) && \
	defined(__AVX512BW__) && defined(__AVX512DQ__) && \
	defined(__AVX512BITALG__)
#define KBLOOM_INLINE_AVX512	1
#else
#define KBLOOM_INLINE_AVX512	0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct kbloom_fast - the first fields of every struct kbloom_filter:
 * what the inline lookup reads.  Read-only for users; its layout is part
 * of the ABI of libkbloom.so.1.
 * @words: the word array (64-byte aligned blocks)
 * @nblocks: blocks of 512 bits (blocked filters)
 * @seed: the hash seed
 * @kmask64: bit 8 i set for each probe i of the last round of eight
 * @k: probes per key
 * @kmask: bit i set for each probe i of the last round of eight
 * @inline_ok: 0 when the inline path does not apply; else it applies (a
 *             blocked filter, the fast hash, k <= 8, the vector code not
 *             turned off) and is KBLOOM__INL_VHASH where the CPU
 *             multiplies 64-bit vector lanes fast (AMD Zen 4 and later:
 *             the hash is computed in a vector register), 1 elsewhere
 * @version: KBLOOM__FAST_V2 when the fields below are set (libraries of
 *           this header and later, for the filters where inline_ok is not
 *           0); 0 before: a program built with this header reads them only
 *           then, and otherwise calls the library
 * @nbytes: nblocks * 64 (< 2^32): a key's block is at byte
 *          ((h >> 32) nbytes >> 32) & ~63, kb_block_index() times 64
 * @hinit: kb_hash_fast()'s start for keys of 4, 8 and 16 bytes,
 *         seed + KB_P3 + len KB_P1 (uapi/kbloom_hash.h); hinit[3] is 0
 *         (nbytes and hinit[i] are read as 16 bytes, into vector lanes)
 *
 * inline_ok and version are read as one 8-byte word (kbloom__fast_flags()),
 * so that the inline path's guard is one load and one compare.
 */
#ifndef KBLOOM__FAST_DEFINED
#define KBLOOM__FAST_DEFINED
struct kbloom_fast {
	__u64 *words;
	__u64 nblocks;
	__u64 seed;
	__u64 kmask64;
	__u32 k;
	__u32 kmask;
	__u32 inline_ok;
	__u32 version;
	__u64 nbytes;
	__u64 hinit[4];
};
#endif

#define KBLOOM__INL_VHASH	2
#define KBLOOM__FAST_V2		1

/* inline_ok in the low half, version in the high half: one load */
#define KBLOOM__FLAGS(ok)	((__u64)KBLOOM__FAST_V2 << 32 | (ok))

static inline __u64 kbloom__fast_flags(const struct kbloom_fast *v)
{
	__u64 x;

	__builtin_memcpy(&x, &v->inline_ok, sizeof(x));
	return x;
}

/* kb_hash_fast()'s start for a key of @len (4, 8 or 16) bytes: @hinit's */
#define KBLOOM__HINIT(v, len)	(&(v)->hinit[(len) == 4 ? 0 : (len) == 8 ? 1 : 2])

/* KB_BLOCK_MUL^i mod 2^32 */
#define KBLOOM__M1	((__u32)KB_BLOCK_MUL)
#define KBLOOM__M2	((__u32)(KBLOOM__M1 * KBLOOM__M1))
#define KBLOOM__M3	((__u32)(KBLOOM__M2 * KBLOOM__M1))
#define KBLOOM__M4	((__u32)(KBLOOM__M3 * KBLOOM__M1))
#define KBLOOM__M5	((__u32)(KBLOOM__M4 * KBLOOM__M1))
#define KBLOOM__M6	((__u32)(KBLOOM__M5 * KBLOOM__M1))
#define KBLOOM__M7	((__u32)(KBLOOM__M6 * KBLOOM__M1))

#if KBLOOM__X86
/*
 * The AVX2 helpers, also the library's (userspace/lib/core/simd.c): they
 * carry their target, so they are defined whatever the compiler flags and
 * inlined only into AVX2 code.
 */
#define KBLOOM__AVX2_FN \
	static inline __attribute__((target("avx2"), always_inline))

/*
 * A relaxed load of 4 words: one aligned 32-byte load, written in asm so
 * that it is an access of the machine, outside the C memory model (as the
 * kernel's READ_ONCE() is), not a plain C read racing with the writers'
 * atomic ORs.  x86 performs each aligned 8-byte part of it atomically.
 */
KBLOOM__AVX2_FN __m256i kbloom__load256(const __u64 *p)
{
	__m256i v;

	__asm__ __volatile__("vmovdqa %1, %0"
			     : "=x" (v) : "m" (*(const __m256i *)p));
	return v;
}

/*
 * Sign bit of lane i set iff probe i (g_i in lane i) hits a one bit of the
 * block (lo: words 0..3, hi: 4..7): bit b = g >> 23 of the block is bit
 * b & 31 of its 32-bit word g >> 28.
 */
KBLOOM__AVX2_FN __m256i kbloom__probe8(__m256i lo, __m256i hi, __m256i g)
{
	__m256i d = _mm256_srli_epi32(g, 28);
	__m256i s = _mm256_srli_epi32(_mm256_slli_epi32(g, 4), 27);
	__m256i wl = _mm256_permutevar8x32_epi32(lo, d);
	__m256i wh = _mm256_permutevar8x32_epi32(hi, d);
	__m256 sel = _mm256_castsi256_ps(_mm256_slli_epi32(d, 28));
	__m256i w = _mm256_castps_si256(
		_mm256_blendv_ps(_mm256_castsi256_ps(wl),
				 _mm256_castsi256_ps(wh), sel));

	return _mm256_slli_epi32(_mm256_srlv_epi32(w, s), 31);
}

#define KBLOOM__AVX512_FN \
	static inline __attribute__((target( \
		"avx2,avx512f,avx512vl,avx512bw,avx512dq,avx512bitalg"), \
		always_inline))

/*
 * kb_hash_fast() (uapi/kbloom_hash.h) in a vector register, for CPUs whose
 * 64-bit vector multiply (vpmullq) is as fast as the scalar one.  The
 * constants are in the low lane only (KBLOOM__K()): the compiler then
 * takes them as memory operands, where a 64-bit immediate, or its
 * broadcast, takes a register and an instruction each.  The high lane is
 * junk except in the key words of 16-byte keys.
 */
#define KBLOOM__K(c)	_mm_set_epi64x(0, (long long)(c))

/* kb_fast_lane()'s key word half, with @p2 = KB_P2 and @p1 = KB_P1 */
KBLOOM__AVX512_FN __m128i kbloom__lane_w(__m128i w, __m128i p2, __m128i p1)
{
	return _mm_mullo_epi64(_mm_rol_epi64(_mm_mullo_epi64(w, p2), 31), p1);
}

/* the rest of kb_fast_lane(): the state's half */
KBLOOM__AVX512_FN __m128i kbloom__lane_h(__m128i h, __m128i w)
{
	h = _mm_rol_epi64(_mm_xor_si128(h, w), 27);
	return _mm_add_epi64(_mm_mullo_epi64(h, KBLOOM__K(KB_P1)),
			     KBLOOM__K(KB_P4));
}

/* kb_fmix64() */
KBLOOM__AVX512_FN __m128i kbloom__fmix_v(__m128i h)
{
	h = _mm_xor_si128(h, _mm_srli_epi64(h, 33));
	h = _mm_mullo_epi64(h, KBLOOM__K(0xFF51AFD7ED558CCDULL));
	h = _mm_xor_si128(h, _mm_srli_epi64(h, 33));
	h = _mm_mullo_epi64(h, KBLOOM__K(0xC4CEB9FE1A85EC53ULL));
	return _mm_xor_si128(h, _mm_srli_epi64(h, 33));
}

/*
 * kb_hash_fast(seed, key, len) in the low lane, len 4, 8 or 16, from
 * @hinit = seed + KB_P3 + len KB_P1 (read as 16 bytes: the high lane is
 * the next word)
 */
KBLOOM__AVX512_FN __m128i kbloom__hash_v(const __u64 *hinit, const void *key,
					 __u32 len)
{
	__m128i h = _mm_loadu_si128((const __m128i *)hinit);
	__m128i p2 = KBLOOM__K(KB_P2), p1 = KBLOOM__K(KB_P1), w;
	__u32 w4;

	if (len == 4) {
		__builtin_memcpy(&w4, key, 4);
		w = _mm_xor_si128(_mm_cvtsi32_si128((int)w4), KBLOOM__K(KB_P3));
	} else if (len == 8) {
		w = _mm_loadl_epi64((const __m128i *)key);
	} else {
		w = kbloom__lane_w(_mm_loadu_si128((const __m128i *)key),
				   _mm_set1_epi64x((long long)KB_P2),
				   _mm_set1_epi64x((long long)KB_P1));
		h = kbloom__lane_h(h, w);
		return kbloom__fmix_v(kbloom__lane_h(h,
					_mm_unpackhi_epi64(w, w)));
	}
	return kbloom__fmix_v(kbloom__lane_h(h, kbloom__lane_w(w, p2, p1)));
}

/*
 * The probes g_i = (u32)h * KB_BLOCK_MUL^i (lane i of @g, k <= 8) in the
 * block at @w: vpermq gives lane i the block word g_i >> 29, vpshufbitqmb
 * its bit (g_i >> 23) & 63 as bit 8 i of a mask register, and ktestq sets
 * the carry flag when every bit of @kmask64 is set there.  The block is
 * read with one aligned 64-byte load, each 8-byte part of it atomic.
 */
KBLOOM__AVX512_FN int kbloom__probe512(const __u64 *w, __m512i g,
				       __u64 kmask64)
{
	__m512i blk, sel;

	__asm__ __volatile__("vmovdqa64 %1, %0"
			     : "=v" (blk) : "m" (*(const __m512i *)w));
	sel = _mm512_permutexvar_epi64(_mm512_srli_epi64(g, 29), blk);
	return _ktestc_mask64_u8(_mm512_bitshuffle_epi64_mask(sel,
				 _mm512_srli_epi64(g, 23)), kmask64);
}

/* g_i = (u32)h * KB_BLOCK_MUL^i in the low half of 64-bit lane i */
KBLOOM__AVX512_FN __m512i kbloom__g512(__m512i h)
{
	const __m512i p0 = _mm512_setr_epi64(1, KBLOOM__M1, KBLOOM__M2,
		KBLOOM__M3, KBLOOM__M4, KBLOOM__M5, KBLOOM__M6, KBLOOM__M7);

	return _mm512_mul_epu32(h, p0);
}

/*
 * The test of the hash in the low lane of @h (kbloom__hash_v()): its
 * block, kb_block_index() times 64 from nbytes, computed in the vector
 * register too.
 */
KBLOOM__AVX512_FN int kbloom__test_hv(const struct kbloom_fast *v, __m128i h)
{
	__m128i x = _mm_mul_epu32(_mm_srli_epi64(h, 32),
				  _mm_loadu_si128((const __m128i *)&v->nbytes));
	const __u64 *w = (const __u64 *)((const char *)v->words +
		(((__u64)_mm_cvtsi128_si64(x) >> 32) & ~63ULL));

	return kbloom__probe512(w, kbloom__g512(_mm512_broadcastq_epi64(h)),
				v->kmask64);
}
#endif

#if KBLOOM_INLINE_AVX2
/* The block of hash @h: kb_block_index() (uapi/kbloom_layout.h) */
static inline __attribute__((always_inline)) const __u64 *
kbloom__block(const struct kbloom_fast *v, __u64 h)
{
	return (const __u64 *)((const char *)v->words +
			       (((h >> 32) * v->nbytes >> 32) & ~63ULL));
}

/*
 * kb_hash_fast() of a 4-, 8- or 16-byte key from @hinit, in scalar
 * registers: its lanes (kb_fast_lane()) and finalizer, unrolled.
 */
static inline __attribute__((always_inline)) __u64
kbloom__hash_s(const __u64 *hinit, const void *key, __u32 len)
{
	const __u8 *p = (const __u8 *)key;

	if (len == 4)
		return kb_fmix64(kb_fast_lane(*hinit, kb_load_le(p, 4) ^ KB_P3));
	if (len == 8)
		return kb_fmix64(kb_fast_lane(*hinit, kb_load_le64(p)));
	return kb_fmix64(kb_fast_lane(kb_fast_lane(*hinit, kb_load_le64(p)),
				      kb_load_le64(p + 8)));
}

#if KBLOOM_INLINE_AVX512
/* The probes of hash @h in its block, k <= 8 (uapi/kbloom_layout.h). */
static inline __attribute__((always_inline)) int
kbloom_fast_test_h(const struct kbloom_fast *v, __u64 h)
{
	return kbloom__probe512(kbloom__block(v, h), kbloom__g512(
				_mm512_set1_epi64((long long)h)), v->kmask64);
}
#else
/* The same with AVX2: eight 32-bit lanes, the block in two registers. */
static inline __attribute__((always_inline)) int
kbloom_fast_test_h(const struct kbloom_fast *v, __u64 h)
{
	const __m256i p0 = _mm256_setr_epi32(1, (int)KBLOOM__M1,
		(int)KBLOOM__M2, (int)KBLOOM__M3, (int)KBLOOM__M4,
		(int)KBLOOM__M5, (int)KBLOOM__M6, (int)KBLOOM__M7);
	const __u64 *w = kbloom__block(v, h);
	__m256i lo = kbloom__load256(w);
	__m256i hi = kbloom__load256(w + 4);
	__m256i g = _mm256_mullo_epi32(_mm256_set1_epi32((int)(__u32)h), p0);
	__u32 m = (__u32)_mm256_movemask_ps(
		_mm256_castsi256_ps(kbloom__probe8(lo, hi, g)));

	return (m & v->kmask) == v->kmask;
}
#endif
#endif

/**
 * kbloom_test_inline() - kbloom_test(), inlined where it can be
 *
 * Return: as kbloom_test().
 */
static inline __attribute__((always_inline)) int
kbloom_test_inline(const struct kbloom_filter *f, const void *key, __u32 len)
{
#if KBLOOM_INLINE_AVX2
	const struct kbloom_fast *v = (const struct kbloom_fast *)f;

	if (!__builtin_constant_p(len) || (len != 4 && len != 8 && len != 16))
		return (kbloom_test)(f, key, len);
#if KBLOOM_INLINE_AVX512
	if (__builtin_expect(f && key && kbloom__fast_flags(v) ==
			     KBLOOM__FLAGS(KBLOOM__INL_VHASH), 1))
		return kbloom__test_hv(v, kbloom__hash_v(KBLOOM__HINIT(v, len),
							 key, len));
#endif
	if (__builtin_expect(f && key && v->version == KBLOOM__FAST_V2, 1))
		return kbloom_fast_test_h(v, kbloom__hash_s(KBLOOM__HINIT(v, len),
							    key, len));
	return (kbloom_test)(f, key, len);
#else
	return (kbloom_test)(f, key, len);
#endif
}

#ifndef KBLOOM_NO_INLINE
#define kbloom_test(f, key, len)	kbloom_test_inline((f), (key), (len))
#endif

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_INLINE_H */
