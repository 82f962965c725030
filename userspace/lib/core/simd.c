// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom: the blocked-filter test and insert with AVX2 or AVX-512,
 * chosen at run time (kbf_simd_level()).
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
 * The block is read with two aligned 32-byte loads (kbloom__load256()).  Each
 * 8-byte word in them is read atomically, like the relaxed loads of the
 * scalar path; and bits only go from 0 to 1 while readers run (clear is
 * not concurrent with anything), so a key whose add returned before the
 * read began is always found.  Measured, the two vector loads instead of
 * eight scalar loads and the inserts that assemble them are worth 10-20%
 * of lookup throughput.
 *
 * AVX-512 (F, VL, BW and BITALG) does the same in fewer instructions: the
 * eight g_i sit in the low halves of eight 64-bit lanes (one vpmuludq),
 * vpermq gives each lane the block word of its probe (g_i >> 29, the
 * 64-bit word of bit g_i >> 23), and vpshufbitqmb picks in each lane the
 * bit (g_i >> 23) & 63 of that word into a mask register.  Inserts build
 * the block mask in one register: probe i's one-hot 512-bit value is
 * 1 << (b_i - 64 j) in 64-bit lane j (vpsllvq gives 0 for counts outside
 * 0..63, so only the lane of the probe's word keeps a bit).
 *
 * golden_test.c checks these results against kb_block_mask() for every k,
 * and simd_test.c checks every level against the scalar code on random
 * keys and sizes (KBLOOM_SIMD=scalar|avx2|avx512 caps the level,
 * KBLOOM_NO_SIMD=1 is scalar).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kbloom_int.h"

#if KBF_SIMD
#include <immintrin.h>

#define KBF_M8	(KBLOOM__M7 * KBLOOM__M1)

#define KBF_T_AVX2	"avx2,bmi,bmi2"
#define KBF_T_AVX512	\
	"avx2,bmi,bmi2,avx512f,avx512vl,avx512bw,avx512dq,avx512bitalg"
#define KBF_FN_AVX2 __attribute__((target(KBF_T_AVX2), always_inline)) inline
#define KBF_FN_AVX512 \
	__attribute__((target(KBF_T_AVX512), always_inline)) inline

/*
 * A relaxed load of a whole block (kbloom__load256(), libkbloom_inline.h)
 * and its store (single-writer filters).
 */
static KBF_FN_AVX512 __m512i kbf_load512(const __u64 *p)
{
	__m512i v;

	asm volatile("vmovdqa64 %1, %0" : "=v" (v) : "m" (*(const __m512i *)p));
	return v;
}

static KBF_FN_AVX512 void kbf_store512(__u64 *p, __m512i v)
{
	asm volatile("vmovdqa64 %1, %0" : "=m" (*(__m512i *)p) : "v" (v));
}

/*
 * Up to 8 probes in one round; kmask has bit i set for each probe i < k
 * of the round.  9..16 probes: all 8 lanes of the first round, then the
 * next 8 powers.
 */
static KBF_FN_AVX2 bool kbf_blk_avx2(const struct kbloom_filter *f,
				  const __u64 *w, __u64 h)
{
	const __m256i p0 = _mm256_setr_epi32(1, KBLOOM__M1, KBLOOM__M2,
					     KBLOOM__M3, KBLOOM__M4, KBLOOM__M5,
					     KBLOOM__M6, KBLOOM__M7);
	__m256i lo = kbloom__load256(w);
	__m256i hi = kbloom__load256(w + 4);
	__m256i g = _mm256_mullo_epi32(_mm256_set1_epi32((int)(__u32)h), p0);
	__u32 m = (__u32)_mm256_movemask_ps(
		_mm256_castsi256_ps(kbloom__probe8(lo, hi, g)));

	if (f->k <= 8)
		return (m & f->kmask) == f->kmask;
	if (m != 0xFF)
		return false;
	g = _mm256_mullo_epi32(g, _mm256_set1_epi32((int)KBF_M8));
	m = (__u32)_mm256_movemask_ps(
		_mm256_castsi256_ps(kbloom__probe8(lo, hi, g)));
	return (m & f->kmask) == f->kmask;
}

/* g_i = (u32)h * KB_BLOCK_MUL^i in the low half of 64-bit lane i */
static KBF_FN_AVX512 __m512i kbf_g512(__u64 h)
{
	const __m512i p0 = _mm512_setr_epi64(1, KBLOOM__M1, KBLOOM__M2,
					     KBLOOM__M3, KBLOOM__M4, KBLOOM__M5,
					     KBLOOM__M6, KBLOOM__M7);

	return _mm512_mul_epu32(_mm512_set1_epi64((long long)h), p0);
}

/* Bit 8i set iff probe i (g_i in lane i) hits a one bit of the block. */
static KBF_FN_AVX512 __u64 kbf_probe512(__m512i blk, __m512i g)
{
	__m512i sel = _mm512_permutexvar_epi64(_mm512_srli_epi64(g, 29), blk);

	return _mm512_bitshuffle_epi64_mask(sel, _mm512_srli_epi64(g, 23));
}

static KBF_FN_AVX512 bool kbf_blk_avx512(const struct kbloom_filter *f,
				      const __u64 *w, __u64 h)
{
	__m512i blk = kbf_load512(w);
	__m512i g = kbf_g512(h);
	__u64 m = kbf_probe512(blk, g);

	if (f->k <= 8)
		return (m & f->kmask64) == f->kmask64;
	if ((m & 0x0101010101010101ULL) != 0x0101010101010101ULL)
		return false;
	g = _mm512_mul_epu32(g, _mm512_set1_epi64(KBF_M8));
	return (kbf_probe512(blk, g) & f->kmask64) == f->kmask64;
}

/*
 * The 512-bit mask of one round of 8 probes, lanes of @live only (the
 * others get an index past the block, which no lane keeps), without a
 * branch and without memory: b holds probe i's bit index in lane i, and
 * its rotations by r lanes (valignq) give lane j probe (j + r) mod 8, whose
 * one-hot value in word j is 1 << (b - 64 j) (vpsllvq gives 0 for counts
 * outside 0..63).  Eight such rounds cover every probe in every lane.
 * (The former version stored b and broadcast each lane back from memory:
 * single inserts 7-20% slower, measured.)
 */
static KBF_FN_AVX512 __m512i kbf_mask_round(__m512i g, __u32 live)
{
	const __m512i off = _mm512_setr_epi64(0, 64, 128, 192, 256, 320,
					      384, 448);
	const __m512i one = _mm512_set1_epi64(1);
	__m512i b = _mm512_mask_blend_epi64((__mmask8)live,
		_mm512_set1_epi64(1024), _mm512_srli_epi64(_mm512_and_si512(g,
			_mm512_set1_epi64(0xFFFFFFFFULL)), 23));
	__m512i x[8];

#define KBF_ROT(r) _mm512_sllv_epi64(one, \
		_mm512_sub_epi64(_mm512_alignr_epi64(b, b, r), off))
	x[0] = _mm512_sllv_epi64(one, _mm512_sub_epi64(b, off));
	x[1] = KBF_ROT(1);
	x[2] = KBF_ROT(2);
	x[3] = KBF_ROT(3);
	x[4] = KBF_ROT(4);
	x[5] = KBF_ROT(5);
	x[6] = KBF_ROT(6);
	x[7] = KBF_ROT(7);
#undef KBF_ROT
	x[0] = _mm512_ternarylogic_epi64(x[0], x[1], x[2], 0xFE);
	x[3] = _mm512_ternarylogic_epi64(x[3], x[4], x[5], 0xFE);
	x[6] = _mm512_or_si512(x[6], x[7]);
	return _mm512_ternarylogic_epi64(x[0], x[3], x[6], 0xFE);
}

/* The block mask of kb_block_mask(), in a register. */
static KBF_FN_AVX512 __m512i kbf_mask512(const struct kbloom_filter *f, __u64 h)
{
	__m512i g = kbf_g512(h);
	__m512i m;

	if (f->k <= 8)
		return kbf_mask_round(g, f->kmask);
	m = kbf_mask_round(g, 0xFF);
	g = _mm512_mul_epu32(g, _mm512_set1_epi64(KBF_M8));
	return _mm512_or_si512(m, kbf_mask_round(g, f->kmask));
}

__attribute__((target(KBF_T_AVX2)))
static int kbf_test_avx2(const struct kbloom_filter *f, __u64 h)
{
	return kbf_blk_avx2(f, kbf_block(f, h), h);
}

__attribute__((target(KBF_T_AVX512)))
static int kbf_test_avx512(const struct kbloom_filter *f, __u64 h)
{
	return kbf_blk_avx512(f, kbf_block(f, h), h);
}

int kbf_simd_test(const struct kbloom_filter *f, __u64 h)
{
	if (f->simd == KBF_AVX512)
		return kbf_test_avx512(f, h);
	return kbf_test_avx2(f, h);
}

/* One result bit per key into @res (when not NULL); return the hits. */
#define KBF_TEST_CHUNK(test)						\
	do {								\
		__u32 i, hits = 0;					\
		__u8 byte = 0;						\
		bool r;							\
									\
		for (i = 0; i < n; i++) {				\
			r = test(f, kbf_block(f, h[i]), h[i]);		\
			hits += r;					\
			byte |= (__u8)r << (i & 7);			\
			if ((i & 7) == 7 || i == n - 1) {		\
				if (res)				\
					res[i >> 3] = byte;		\
				byte = 0;				\
			}						\
		}							\
		return hits;						\
	} while (0)

__attribute__((target(KBF_T_AVX2)))
static __u32 kbf_chunk_avx2(const struct kbloom_filter *f, const __u64 *h,
			    __u32 n, __u8 *res)
{
	KBF_TEST_CHUNK(kbf_blk_avx2);
}

__attribute__((target(KBF_T_AVX512)))
static __u32 kbf_chunk_avx512(const struct kbloom_filter *f, const __u64 *h,
			      __u32 n, __u8 *res)
{
	KBF_TEST_CHUNK(kbf_blk_avx512);
}

/* kb_fast_lane() and kb_fmix64() (uapi/kbloom_hash.h) on 8 lanes */
static KBF_FN_AVX512 __m512i kbf_lane512(__m512i h, __m512i w)
{
	const __m512i p1 = _mm512_set1_epi64((long long)KB_P1);

	w = _mm512_mullo_epi64(w, _mm512_set1_epi64((long long)KB_P2));
	w = _mm512_mullo_epi64(_mm512_rol_epi64(w, 31), p1);
	h = _mm512_rol_epi64(_mm512_xor_si512(h, w), 27);
	return _mm512_add_epi64(_mm512_mullo_epi64(h, p1),
				_mm512_set1_epi64((long long)KB_P4));
}

static KBF_FN_AVX512 __m512i kbf_fmix512(__m512i h)
{
	h = _mm512_xor_si512(h, _mm512_srli_epi64(h, 33));
	h = _mm512_mullo_epi64(h, _mm512_set1_epi64(0xFF51AFD7ED558CCDLL));
	h = _mm512_xor_si512(h, _mm512_srli_epi64(h, 33));
	h = _mm512_mullo_epi64(h, _mm512_set1_epi64(0xC4CEB9FE1A85EC53LL));
	return _mm512_xor_si512(h, _mm512_srli_epi64(h, 33));
}

/* kb_hash_fast() of the 8 keys of @len (4, 8 or 16 bytes) at @p */
static KBF_FN_AVX512 __m512i kbf_hash8(__u64 seed, const __u8 *p, __u32 len)
{
	const __m512i even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
	const __m512i odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
	__m512i h = _mm512_set1_epi64((long long)(seed + KB_P3 + len * KB_P1));
	__m512i a, b;

	if (len == 4) {
		a = _mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)p));
		h = kbf_lane512(h, _mm512_xor_si512(a,
				_mm512_set1_epi64((long long)KB_P3)));
	} else if (len == 8) {
		h = kbf_lane512(h, _mm512_loadu_si512(p));
	} else {
		a = _mm512_loadu_si512(p);
		b = _mm512_loadu_si512(p + 64);
		h = kbf_lane512(h, _mm512_permutex2var_epi64(a, even, b));
		h = kbf_lane512(h, _mm512_permutex2var_epi64(a, odd, b));
	}
	return kbf_fmix512(h);
}

/*
 * A batch chunk of a blocked filter with the fast hash and 4-, 8- or
 * 16-byte keys: hash 8 keys at a time into h[], their blocks into blk[]
 * (kbf_block()), then prefetch the blocks.
 */
__attribute__((target(KBF_T_AVX512)))
void kbf_simd_hash_chunk(const struct kbloom_filter *f, const __u8 *p,
			 __u32 len, __u32 n, __u64 *h, __u64 **blk, bool write)
{
	const __m512i base = _mm512_set1_epi64((long long)(uintptr_t)f->words);
	const __m512i nb = _mm512_set1_epi64((long long)f->nblocks);
	__m512i hv, idx;
	__u32 i;

	for (i = 0; i + 8 <= n; i += 8) {
		hv = kbf_hash8(f->seed, p + (size_t)i * len, len);
		_mm512_storeu_si512(h + i, hv);
		idx = _mm512_srli_epi64(_mm512_mul_epu32(
				_mm512_srli_epi64(hv, 32), nb), 32);
		_mm512_storeu_si512(blk + i, _mm512_add_epi64(base,
				_mm512_slli_epi64(idx, 6)));
	}
	for (; i < n; i++) {
		h[i] = kb_hash_fast(f->seed, p + (size_t)i * len, len);
		blk[i] = kbf_block(f, h[i]);
	}
	for (i = 0; i < n; i++) {
		if (write)
			__builtin_prefetch(blk[i], 1, 3);
		else
			__builtin_prefetch(blk[i], 0, 3);
	}
}

/* Test a chunk hashed by kbf_simd_hash_chunk(); return the hits. */
__attribute__((target(KBF_T_AVX512)))
__u32 kbf_simd_test_blk(const struct kbloom_filter *f, const __u64 *h,
			__u64 *const *blk, __u32 n, __u8 *res)
{
	__u32 i, hits = 0;
	__u8 byte = 0;
	bool r;

	for (i = 0; i < n; i++) {
		r = kbf_blk_avx512(f, blk[i], h[i]);
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

__u32 kbf_simd_test_chunk(const struct kbloom_filter *f, const __u64 *h,
			  __u32 n, __u8 *res)
{
	if (f->simd == KBF_AVX512)
		return kbf_chunk_avx512(f, h, n, res);
	return kbf_chunk_avx2(f, h, n, res);
}

/*
 * OR a block mask (from kb_block_mask()) into a block: one compare finds
 * the words that miss part of their mask, and only those take an atomic
 * OR.  (The AVX2 path keeps this: with the mask in memory, the locked ORs
 * of every word of the key measured 6% slower here.)
 */
__attribute__((target(KBF_T_AVX2)))
void kbf_simd_apply(__u64 *w, const __u64 *mask)
{
	__m256i mlo = _mm256_loadu_si256((const __m256i *)mask);
	__m256i mhi = _mm256_loadu_si256((const __m256i *)(mask + 4));
	__m256i zero = _mm256_setzero_si256();
	__m256i need_lo = _mm256_andnot_si256(kbloom__load256(w), mlo);
	__m256i need_hi = _mm256_andnot_si256(kbloom__load256(w + 4), mhi);
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

/*
 * A concurrent insert of mask @m into the block @w that misses some of its
 * bits (@blk: the block as loaded).  A single key's block was just loaded
 * and is likely still on its way from memory: a locked OR into every word
 * the key's mask touches (@every), not only the words that miss bits, so
 * that the branches depend on the hash alone and are resolved, and
 * mispredicted when they are, long before the block arrives instead of
 * flushing the work after it.  More locked ORs (5.25 on average for k = 8
 * against 4.4), yet single inserts measured 69 to 63 ns through
 * kbloom_add() (0.21x to 0.23x Impala's SimdBlockFilter, load 15; the
 * scalar path's kbf_blk_apply() 115 to 98 ns).  A batch prefetched its
 * blocks: there the words that miss bits only (batched concurrent inserts
 * measured 5.5x libbloom's that way, 4.2x with every word).
 */
static KBF_FN_AVX512 void kbf_or_block(__u64 *w, __m512i m, __m512i blk,
				       bool every)
{
	__u64 mask[8] __attribute__((aligned(64)));
	__u32 need = _mm512_test_epi64_mask(_mm512_andnot_si512(blk, m), m);
	__u32 i;

	if (!need)
		return;
	_mm512_store_si512((__m512i *)mask, m);
	if (every) {
		need = _mm512_test_epi64_mask(m, m);
#pragma GCC unroll 8
		for (i = 0; i < 8; i++)
			if (need & (1U << i))
				__atomic_fetch_or(&w[i], mask[i],
						  __ATOMIC_RELAXED);
		return;
	}
	while (need) {
		i = __builtin_ctz(need);
		__atomic_fetch_or(&w[i], mask[i], __ATOMIC_RELAXED);
		need &= need - 1;
	}
}

/* Add hash @h: one store (single writer) or kbf_or_block(). */
static KBF_FN_AVX512 void kbf_add_avx512(const struct kbloom_filter *f,
					 __u64 *w, __u64 h, bool single)
{
	__m512i m = kbf_mask512(f, h), blk = kbf_load512(w);

	if (f->single_writer)
		kbf_store512(w, _mm512_or_si512(blk, m));
	else
		kbf_or_block(w, m, blk, single);
}

__attribute__((target(KBF_T_AVX512)))
void kbf_simd_add(const struct kbloom_filter *f, __u64 h)
{
	kbf_add_avx512(f, kbf_block(f, h), h, true);
}

/* Add a chunk: kbf_simd_hash_chunk()'s h[] and blk[], or h[] alone. */
__attribute__((target(KBF_T_AVX512)))
void kbf_simd_add_chunk(const struct kbloom_filter *f, const __u64 *h,
			__u64 *const *blk, __u32 n)
{
	__u32 i;

	for (i = 0; i < n; i++)
		kbf_add_avx512(f, blk ? blk[i] : kbf_block(f, h[i]), h[i],
			       false);
}

static bool kbf_avx512_cpu(void)
{
	return __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512vl") &&
	       __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512dq") &&
	       __builtin_cpu_supports("avx512bitalg");
}

/*
 * The level for a new filter: the best the CPU has, capped by
 * KBLOOM_SIMD=scalar|avx2|avx512 or turned off by KBLOOM_NO_SIMD=1 (for
 * testing).
 */
__u8 kbf_simd_level(__u32 type, __u32 k)
{
	const char *off = getenv("KBLOOM_NO_SIMD");
	const char *cap = getenv("KBLOOM_SIMD");

	if (off && *off && *off != '0')
		return KBF_SCALAR;
	if (type != KBLOOM_TYPE_BLOCKED || k > 16 ||
	    !__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("bmi2"))
		return KBF_SCALAR;
	if (cap && !strcmp(cap, "scalar"))
		return KBF_SCALAR;
	if ((cap && !strcmp(cap, "avx2")) || !kbf_avx512_cpu())
		return KBF_AVX2;
	return KBF_AVX512;
}

/*
 * Hash single keys in a vector register (KBLOOM__INL_VHASH)?  Where
 * vpmullq is about as fast as a scalar multiply: AMD's AVX-512 cores (Zen
 * 4 and later; Intel's take three micro-ops and 15 cycles for it).
 */
bool kbf_simd_vhash(__u8 simd)
{
	return simd == KBF_AVX512 && __builtin_cpu_is("amd");
}

#else /* !KBF_SIMD */

__u8 kbf_simd_level(__u32 type, __u32 k)
{
	return KBF_SCALAR;
}

bool kbf_simd_vhash(__u8 simd)
{
	return false;
}

#endif
