// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom: the blocked-filter test with AVX2, chosen at run time.
 *
 * uapi/kbloom_layout.h defines probe i of a key as bit b_i = g_i >> 23 of
 * its block, g_i = (u32)h * 0x9E3779B9^i (mod 2^32).  Eight lanes hold
 * g_0..g_7 at once (one vpmulld by the constant powers), the block is two
 * 256-bit registers of eight 32-bit words, and bit b of the block is bit
 * (b & 31) of 32-bit word b >> 5 = g >> 28 (little-endian words): two
 * vpermd select each lane's word from either half, a blend by bit 3 of the
 * index picks the half, a variable shift and a sign-bit movemask give one
 * bit per probe.  About 15 instructions for up to 8 probes, against 8 per
 * probe in scalar code; 9..16 probes take a second round.
 *
 * The block is read with two aligned 32-byte loads (kbf_load256()).  Each
 * 8-byte word in them is read atomically, like the relaxed loads of the
 * scalar path; and bits only go from 0 to 1 while readers run (clear is
 * not concurrent with anything), so a key whose add returned before the
 * read began is always found.  Measured, the two vector loads instead of
 * eight scalar loads and the inserts that assemble them are worth 10-20%
 * of lookup throughput.
 *
 * golden_test.c checks these results against kb_block_mask() for every k,
 * with and without this path (KBLOOM_NO_SIMD=1 turns it off).
 */
#include <stdlib.h>

#include "kbloom_int.h"

#if KBF_SIMD
#include <immintrin.h>

#define KBF_M1	KB_BLOCK_MUL
#define KBF_M2	(KBF_M1 * KBF_M1)
#define KBF_M3	(KBF_M2 * KBF_M1)
#define KBF_M4	(KBF_M3 * KBF_M1)
#define KBF_M5	(KBF_M4 * KBF_M1)
#define KBF_M6	(KBF_M5 * KBF_M1)
#define KBF_M7	(KBF_M6 * KBF_M1)
#define KBF_M8	(KBF_M7 * KBF_M1)

#define KBF_AVX2 __attribute__((target("avx2"), always_inline)) inline

/*
 * A relaxed load of 4 words: one aligned 32-byte load, written in asm so
 * that it is an access of the machine, outside the C memory model (as the
 * kernel's READ_ONCE() is), not a plain C read racing with the writers'
 * atomic ORs.  x86 performs each aligned 8-byte part of it atomically.
 */
static KBF_AVX2 __m256i kbf_load256(const __u64 *p)
{
	__m256i v;

	asm("vmovdqa %1, %0" : "=x" (v) : "m" (*(const __m256i *)p));
	return v;
}

/* Sign bit of lane i set iff probe i (g_i in lane i) hits a one bit. */
static KBF_AVX2 __m256i kbf_probe8(__m256i lo, __m256i hi, __m256i g)
{
	__m256i d = _mm256_srli_epi32(g, 28);		/* 32-bit word */
	__m256i s = _mm256_srli_epi32(_mm256_slli_epi32(g, 4), 27);
	__m256i wl = _mm256_permutevar8x32_epi32(lo, d);
	__m256i wh = _mm256_permutevar8x32_epi32(hi, d);
	__m256 sel = _mm256_castsi256_ps(_mm256_slli_epi32(d, 28));
	__m256i w = _mm256_castps_si256(
		_mm256_blendv_ps(_mm256_castsi256_ps(wl),
				 _mm256_castsi256_ps(wh), sel));

	return _mm256_slli_epi32(_mm256_srlv_epi32(w, s), 31);
}

/*
 * Up to 8 probes in one round; kmask has bit i set for each probe i < k
 * of the round.  9..16 probes: all 8 lanes of the first round, then the
 * next 8 powers.
 */
static KBF_AVX2 bool kbf_blk_avx2(const struct kbloom_filter *f,
				  const __u64 *w, __u64 h)
{
	const __m256i p0 = _mm256_setr_epi32(1, KBF_M1, KBF_M2, KBF_M3,
					     KBF_M4, KBF_M5, KBF_M6, KBF_M7);
	__m256i lo = kbf_load256(w);
	__m256i hi = kbf_load256(w + 4);
	__m256i g = _mm256_mullo_epi32(_mm256_set1_epi32((int)(__u32)h), p0);
	__u32 m = (__u32)_mm256_movemask_ps(_mm256_castsi256_ps(kbf_probe8(lo, hi, g)));

	if (f->k <= 8)
		return (m & f->kmask) == f->kmask;
	if (m != 0xFF)
		return false;
	g = _mm256_mullo_epi32(g, _mm256_set1_epi32((int)KBF_M8));
	m = (__u32)_mm256_movemask_ps(_mm256_castsi256_ps(kbf_probe8(lo, hi, g)));
	return (m & f->kmask) == f->kmask;
}

__attribute__((target("avx2")))
int kbf_simd_test(const struct kbloom_filter *f, __u64 h)
{
	return kbf_blk_avx2(f, kbf_block(f, h), h);
}

__attribute__((target("avx2")))
__u32 kbf_simd_test_chunk(const struct kbloom_filter *f, const __u64 *h,
			  __u32 n, __u8 *res)
{
	__u32 i, hits = 0;
	__u8 byte = 0;
	bool r;

	for (i = 0; i < n; i++) {
		r = kbf_blk_avx2(f, kbf_block(f, h[i]), h[i]);
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

/*
 * OR a block mask (from kb_block_mask()) into a block: one compare finds
 * the words that miss part of their mask, and only those take an atomic
 * OR.
 */
__attribute__((target("avx2")))
void kbf_simd_apply(__u64 *w, const __u64 *mask)
{
	__m256i mlo = _mm256_loadu_si256((const __m256i *)mask);
	__m256i mhi = _mm256_loadu_si256((const __m256i *)(mask + 4));
	__m256i zero = _mm256_setzero_si256();
	__m256i need_lo = _mm256_andnot_si256(kbf_load256(w), mlo);
	__m256i need_hi = _mm256_andnot_si256(kbf_load256(w + 4), mhi);
	__u32 need, i;

	need = (__u32)_mm256_movemask_pd(_mm256_castsi256_pd(
			_mm256_cmpeq_epi64(need_lo, zero)));
	need |= (__u32)_mm256_movemask_pd(_mm256_castsi256_pd(
			_mm256_cmpeq_epi64(need_hi, zero))) << 4;
	need = ~need & 0xFF;
	while (need) {
		i = __builtin_ctz(need);
		__atomic_fetch_or(&w[i], mask[i], __ATOMIC_RELAXED);
		need &= need - 1;
	}
}

bool kbf_simd_usable(__u32 type, __u32 k)
{
	const char *off = getenv("KBLOOM_NO_SIMD");

	if (off && *off && *off != '0')
		return false;
	return type == KBLOOM_TYPE_BLOCKED && k <= 16 &&
	       __builtin_cpu_supports("avx2");
}

#else /* !KBF_SIMD */

bool kbf_simd_usable(__u32 type, __u32 k)
{
	return false;
}

#endif
