// SPDX-License-Identifier: GPL-2.0
/*
 * Every code path of the blocked filter gives the scalar code's bits and
 * answers, bit for bit: the scalar code (KBLOOM_SIMD=scalar), AVX2 and
 * AVX-512 (each when the CPU has it, chosen at creation), single-writer
 * and concurrent filters, single keys and batches (8 keys hashed at a
 * time in vector registers), and the inline kbloom_test() of
 * libkbloom_inline.h compiled for AVX2 and for AVX-512.  Random sizes
 * (1..4096 blocks), k = 1..16, seeds and key lengths 4, 8, 16 (the vector
 * hash) and 5, 12 (the scalar hash).
 *
 * The inline paths are compiled in this file under #pragma GCC target and
 * called only when __builtin_cpu_supports() says the CPU runs them; the
 * rest of the file calls the library's (kbloom_test).
 */
#include <immintrin.h>	/* first: its functions keep their own targets */

#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,avx512f,avx512vl,avx512bw,avx512dq,avx512bitalg")
#include "libkbloom.h"

/* kbloom_test() with a constant length: the inline path */
#define INL_TEST(name)							\
static __attribute__((noinline)) int name(const struct kbloom_filter *f, \
					  const void *key, __u32 len)	\
{									\
	if (len == 4)							\
		return kbloom_test(f, key, 4);				\
	if (len == 8)							\
		return kbloom_test(f, key, 8);				\
	return kbloom_test(f, key, 16);					\
}

/* inlined with AVX-512 (libkbloom_inline.h) */
INL_TEST(inl_test512)

/* the inline vector hash of a 4-, 8- or 16-byte key (KBLOOM__INL_VHASH) */
static __attribute__((noinline)) __u64 inl_hash512(__u64 seed, const void *key,
						   __u32 len)
{
	/* kb_hash_fast()'s start, as the library's kbf_fast_v2() sets it */
	__u64 hinit[2] = { seed + KB_P3 + (__u64)len * KB_P1, 0 };

	return (__u64)_mm_cvtsi128_si64(kbloom__hash_v(hinit, key, len));
}
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2")
#undef _LIBKBLOOM_INLINE_H
#undef KBLOOM_INLINE_AVX2
#undef KBLOOM_INLINE_AVX512
#define kbloom_test_inline	kbloom_test_inline_avx2
#define kbloom_fast_test_h	kbloom_fast_test_h_avx2
#define kbloom__load256		kbloom__load256_avx2
#define kbloom__probe8		kbloom__probe8_avx2
#define kbloom__lane_w		kbloom__lane_w_avx2
#define kbloom__lane_h		kbloom__lane_h_avx2
#define kbloom__fmix_v		kbloom__fmix_v_avx2
#define kbloom__hash_v		kbloom__hash_v_avx2
#define kbloom__probe512	kbloom__probe512_avx2
#define kbloom__g512		kbloom__g512_avx2
#define kbloom__test_hv		kbloom__test_hv_avx2
#define kbloom__fast_flags	kbloom__fast_flags_avx2
#define kbloom__block		kbloom__block_avx2
#define kbloom__hash_s		kbloom__hash_s_avx2
#undef kbloom_test
#include "libkbloom_inline.h"

/* inlined with AVX2 */
INL_TEST(inl_test256)

/* the inline path's scalar hash and block address (AVX2) */
static __attribute__((noinline)) __u64 inl_hash_s(const __u64 *hinit,
						  const void *key, __u32 len)
{
	if (len == 4)
		return kbloom__hash_s(hinit, key, 4);
	if (len == 8)
		return kbloom__hash_s(hinit, key, 8);
	return kbloom__hash_s(hinit, key, 16);
}

static __attribute__((noinline)) const __u64 *
inl_block(const struct kbloom_fast *v, __u64 h)
{
	return kbloom__block(v, h);
}
#pragma GCC pop_options

#include <stdlib.h>

#include "kselftest_harness.h"
#include "core_util.h"

#define NKEYS		3000
#define NQUERY		4000

static const char *const level_name[] = { "scalar", "avx2", "avx512" };

static bool level_ok(int lvl)
{
	if (lvl == 1)
		return __builtin_cpu_supports("avx2") &&
		       __builtin_cpu_supports("bmi2");
	if (lvl == 2)
		return level_ok(1) && __builtin_cpu_supports("avx512f") &&
		       __builtin_cpu_supports("avx512vl") &&
		       __builtin_cpu_supports("avx512bw") &&
		       __builtin_cpu_supports("avx512dq") &&
		       __builtin_cpu_supports("avx512bitalg");
	return true;
}

struct run {
	__u64 m, seed;
	__u32 k, len;
	__u8 keys[NKEYS * 16];
	__u8 query[NQUERY * 16];
};

struct out {
	__u64 *words;
	__u64 nwords;
	__u8 res[NQUERY / 8];
	__u8 single[NQUERY];
	long hits;
};

/* Build and query one filter at simd level @lvl; its words into @o. */
static int run_level(const struct run *r, int lvl, bool sw, struct out *o)
{
	struct kbloom_opts opts = { .seed = r->seed,
				    .flags = sw ? KBLOOM_OPT_SINGLE_WRITER : 0 };
	struct kbloom_filter *f;
	const __u64 *w;
	__u32 i, half = NKEYS / 2;
	int ret;

	setenv("KBLOOM_SIMD", level_name[lvl], 1);
	ret = kbloom_create_mk(KBLOOM_TYPE_BLOCKED, r->m, r->k, &opts, &f);
	unsetenv("KBLOOM_SIMD");
	if (ret)
		return ret;
	ret = kbloom_add_batch(f, r->keys, (size_t)half * r->len, r->len, half);
	for (i = half; i < NKEYS && !ret; i++)
		ret = kbloom_add(f, r->keys + (size_t)i * r->len, r->len);
	o->hits = kbloom_test_batch(f, r->query, (size_t)NQUERY * r->len,
				    r->len, NQUERY, o->res);
	for (i = 0; i < NQUERY; i++)
		o->single[i] = (kbloom_test)(f, r->query + (size_t)i * r->len,
					     r->len);
	w = kbloom_words(f, &o->nwords);
	o->words = malloc(o->nwords * 8);
	if (o->words)
		memcpy(o->words, w, o->nwords * 8);
	else
		ret = -1;
	/* the inline paths on the same filter, where the CPU has them */
	for (i = 0; i < NQUERY && (r->len == 4 || r->len == 8 || r->len == 16);
	     i++) {
		if (level_ok(2) &&
		    inl_test512(f, r->query + (size_t)i * r->len, r->len) !=
		    o->single[i])
			ret = -2;
		if (level_ok(1) &&
		    inl_test256(f, r->query + (size_t)i * r->len, r->len) !=
		    o->single[i])
			ret = -3;
	}
	kbloom_destroy(f);
	return ret;
}

static void make_run(struct cu_rng *g, struct run *r, __u32 len)
{
	__u32 i;

	r->m = 512ULL * (1 + cu_next(g) % 4096);
	r->k = 1 + cu_next(g) % 16;
	r->seed = cu_next(g);
	r->len = len;
	for (i = 0; i < sizeof(r->keys); i++)
		r->keys[i] = (__u8)cu_next(g);
	/* half the queries are keys that were added */
	for (i = 0; i < NQUERY; i++) {
		memcpy(r->query + (size_t)i * len,
		       r->keys + (cu_next(g) % NKEYS) * len, len);
		if (!(i & 1))
			r->query[(size_t)i * len] ^= 0x5A;
	}
}

static void check_same(struct __test_metadata *_metadata,
		       const struct out *a, const struct out *b,
		       const char *what)
{
	ASSERT_EQ(a->nwords, b->nwords);
	ASSERT_EQ(0, memcmp(a->words, b->words, a->nwords * 8))
		TH_LOG("%s: words differ from the scalar code's", what);
	ASSERT_EQ(a->hits, b->hits) TH_LOG("%s: batch hits", what);
	ASSERT_EQ(0, memcmp(a->res, b->res, sizeof(a->res)))
		TH_LOG("%s: batch results", what);
	ASSERT_EQ(0, memcmp(a->single, b->single, sizeof(a->single)))
		TH_LOG("%s: single results", what);
}

TEST(vector_paths_match_scalar)
{
	static const __u32 lens[] = { 4, 8, 16, 5, 12 };
	static struct run r;
	struct cu_rng g = { 0x51D51D };
	struct out ref, o;
	char what[96];
	__u32 t, levels = 0;
	int lvl, sw;

	for (t = 0; t < 40; t++) {
		make_run(&g, &r, lens[t % 5]);
		ASSERT_EQ(0, run_level(&r, 0, false, &ref));
		/* the fill makes both answers common */
		EXPECT_LT(NQUERY / 2 - 1, ref.hits);
		for (lvl = 0; lvl < 3; lvl++) {
			if (!level_ok(lvl))
				continue;
			levels |= 1U << lvl;
			for (sw = 0; sw < 2; sw++) {
				snprintf(what, sizeof(what),
					 "%s%s m %llu k %u len %u",
					 level_name[lvl],
					 sw ? " single-writer" : "",
					 (unsigned long long)r.m, r.k, r.len);
				ASSERT_EQ(0, run_level(&r, lvl, sw, &o))
					TH_LOG("%s", what);
				check_same(_metadata, &ref, &o, what);
				free(o.words);
			}
		}
		free(ref.words);
	}
	TH_LOG("levels compared with the scalar code: %s%s%s",
	       levels & 1 ? "scalar " : "", levels & 2 ? "avx2 " : "",
	       levels & 4 ? "avx512" : "");
}

/*
 * The inline vector hash (used where the library sets KBLOOM__INL_VHASH:
 * AMD's AVX-512 cores) is kb_hash_fast(), bit for bit, on random seeds
 * and keys of 4, 8 and 16 bytes; the inline lookups above run it on such
 * CPUs, this checks it on every CPU with AVX-512.
 */
TEST(inline_vector_hash)
{
	static const __u32 lens[] = { 4, 8, 16 };
	struct cu_rng g = { 0xA5A5 };
	__u8 key[16];
	__u64 seed;
	__u32 t, i, len;

	if (!level_ok(2))
		SKIP(return, "no AVX-512 (F, VL, BW, DQ, BITALG)");
	for (t = 0; t < 30000; t++) {
		len = lens[t % 3];
		seed = t < 3 ? 0 : cu_next(&g);
		for (i = 0; i < sizeof(key); i++)
			key[i] = (__u8)cu_next(&g);
		ASSERT_EQ(kb_hash_fast(seed, key, len),
			  inl_hash512(seed, key, len))
			TH_LOG("len %u seed %llx", len,
			       (unsigned long long)seed);
	}
}

/*
 * The fields of struct kbloom_fast that the inline path reads (version
 * KBLOOM__FAST_V2): set for every filter the inline path applies to, so
 * that the inline lookups above ran inline and not through the library;
 * the scalar hash from hinit[] is kb_hash_fast(), bit for bit; nbytes
 * gives kb_block_index()'s block.
 */
TEST(fast_header_v2)
{
	static const __u32 lens[] = { 4, 8, 16 };
	struct kbloom_opts o = { 0 };
	const struct kbloom_fast *v;
	struct cu_rng g = { 0xFA57 };
	struct kbloom_filter *f;
	__u8 key[16];
	__u32 t, i, len;
	__u64 h;

	if (!level_ok(1))
		SKIP(return, "no AVX2: no inline path");
	for (t = 0; t < 200; t++) {
		o.seed = cu_next(&g);
		ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED,
			  512ULL * (1 + cu_next(&g) % 100000),
			  1 + t % 8, &o, &f));
		v = (const struct kbloom_fast *)f;
		ASSERT_NE(0U, v->inline_ok);
		ASSERT_EQ((__u32)KBLOOM__FAST_V2, v->version);
		ASSERT_EQ(v->nblocks * 64, v->nbytes);
		ASSERT_EQ(0U, v->hinit[3]);
		for (i = 0; i < 50; i++) {
			len = lens[(t + i) % 3];
			for (h = 0; h < sizeof(key); h++)
				key[h] = (__u8)cu_next(&g);
			h = kb_hash_fast(o.seed, key, len);
			ASSERT_EQ(h, inl_hash_s(KBLOOM__HINIT(v, len), key,
						len));
			ASSERT_EQ(v->words + (__u64)kb_block_index(h,
				  v->nblocks) * KBLOOM_BLOCK_WORDS,
				  inl_block(v, h));
		}
		kbloom_destroy(f);
	}
	/* k > 8 and the SipHash filters take the library's path */
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 5120, 9, NULL, &f));
	EXPECT_EQ(0U, ((const struct kbloom_fast *)f)->version);
	kbloom_destroy(f);
}

/* Single-writer counting filters count, add and delete as the others. */
TEST(single_writer_counts)
{
	struct kbloom_opts o = { .flags = KBLOOM_OPT_SINGLE_WRITER };
	struct kbloom_filter *f;
	struct kbloom_stats st;
	__u64 key[64];
	__u32 i;

	for (i = 0; i < 64; i++)
		key[i] = cu_mix(i);
	ASSERT_EQ(0, kbloom_create(KBLOOM_TYPE_COUNTING, 1000, 10000000000ULL,
				   &o, &f));
	ASSERT_EQ(0, kbloom_add_batch(f, key, sizeof(key), 8, 64));
	ASSERT_EQ(0, kbloom_add(f, &key[0], 8));
	ASSERT_EQ(0, kbloom_del(f, &key[1], 8));
	ASSERT_EQ(0, kbloom_stats(f, &st));
	EXPECT_EQ(64U, st.inserted);
	EXPECT_EQ(1U, st.deleted);
	for (i = 0; i < 64; i++)	/* key 1 was deleted */
		if (i != 1)
			EXPECT_EQ(1, (kbloom_test)(f, &key[i], 8))
				TH_LOG("key %u", i);
	EXPECT_EQ(-ENOENT, kbloom_del(f, &key[1], 8));
	kbloom_destroy(f);
	o.flags = 1U << 7;
	EXPECT_EQ(-EINVAL, kbloom_create(KBLOOM_TYPE_BLOCKED, 1000,
					 10000000000ULL, &o, &f));
}

TEST_HARNESS_MAIN
