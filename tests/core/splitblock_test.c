// SPDX-License-Identifier: GPL-2.0
/*
 * Split-block filters (uapi/kbloom_var_splitblock.h, libkbloom_survey.h):
 * the ultra-fast filter (512-bit blocks, one bit per 64-bit word) and
 * Apache Parquet's split-block filter (256-bit blocks of 32-bit words,
 * xxHash64, KBLOOM_HASH_XXH64):
 *   - xxHash64 against Apache Arrow's vectors and xxhsum;
 *   - kbloom's SBBF bytes for the keys "a0".."a9" equal the bitset that
 *     parquet-mr wrote for them (Apache arrow-rs's fixture), and the
 *     fixture imported answers present for them;
 *   - both types measure within +-10% of the split-block formula at 8, 10
 *     and 16 bits per key, with no false negative; planned filters meet
 *     their target;
 *   - images round-trip; Parquet export and import refuse what Parquet
 *     cannot read; bad parameters and images are refused with their
 *     errno and change nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_partitioned.h"
#include "libkbloom_survey.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_var_splitblock.h"
#include "core_util.h"

#define N_KEYS		100000ULL
#define P_1PCT		10000000000ULL

static __u64 key_of(__u64 i)
{
	return cu_mix(i ^ 0x5B1F);
}

/* ---- xxHash64 ---------------------------------------------------------- */

/*
 * XXH64 of the bytes 0, 1, ..., i - 1 (i = 0..31) with seed 0, as signed
 * 64-bit integers: HASHES_OF_LOOPING_BYTES_WITH_SEED_0 of Apache Arrow's
 * cpp/src/parquet/bloom_filter_test.cc (XxHashTest), which its comment
 * says came from the reference xxHash (Cyan4973/xxHash c8c4cc0f).
 */
static const long long arrow_xxh64[32] = {
	-1205034819632174695LL, -1642502924627794072LL, 5216751715308240086LL,
	-1889335612763511331LL, -13835840860730338LL, -2521325055659080948LL,
	4867868962443297827LL, 1498682999415010002LL, -8626056615231480947LL,
	7482827008138251355LL, -617731006306969209LL, 7289733825183505098LL,
	4776896707697368229LL, 1428059224718910376LL, 6690813482653982021LL,
	-6248474067697161171LL, 4951407828574235127LL, 6198050452789369270LL,
	5776283192552877204LL, -626480755095427154LL, -6637184445929957204LL,
	8370873622748562952LL, -1705978583731280501LL, -7898818752540221055LL,
	-2516210193198301541LL, 8356900479849653862LL, -4413748141896466000LL,
	-6040072975510680789LL, 1451490609699316991LL, -7948005844616396060LL,
	8567048088357095527LL, -4375578310507393311LL,
};

TEST(xxh64_vectors)
{
	__u8 b[100];
	unsigned int i;

	for (i = 0; i < sizeof(b); i++)
		b[i] = (__u8)i;
	for (i = 0; i < 32; i++)
		EXPECT_EQ((__u64)arrow_xxh64[i], kb_hash_xxh64(0, b, i))
			TH_LOG("length %u", i);
	/* the 32-byte stripes: xxhsum -H64 (Debian's xxhash 0.8) */
	EXPECT_EQ(0xCBF59C5116FF32B4ULL, kb_hash_xxh64(0, b, 32));
	EXPECT_EQ(0xF7C67301DB6713F0ULL, kb_hash_xxh64(0, b, 64));
	EXPECT_EQ(0x6AC1E58032166597ULL, kb_hash_xxh64(0, b, 100));
	/* arrow-rs parquet test_hash_bytes: xxh64("") = 17241709254077376921 */
	EXPECT_EQ(17241709254077376921ULL, kb_hash_xxh64(0, "", 0));
	/* through kb_hash(), as filters call it ("hello": xxhsum) */
	EXPECT_EQ(0x26C7827D889F6DA3ULL,
		  kb_hash(KBLOOM_HASH_XXH64, 0, "hello", 5));
	EXPECT_NE(kb_hash(KBLOOM_HASH_XXH64, 1, "hello", 5),
		  kb_hash(KBLOOM_HASH_XXH64, 0, "hello", 5));
}

/* The hash ids each type takes: xxHash64 only for split-block. */
TEST(hash_ids)
{
	__u32 t;

	for (t = KBLOOM_TYPE_STANDARD; t <= KBLOOM_TYPE_LAST; t++) {
		EXPECT_TRUE(kb_type_hash_ok(t, KBLOOM_HASH_FAST));
		EXPECT_TRUE(kb_type_hash_ok(t, KBLOOM_HASH_SIPHASH13));
		EXPECT_EQ(t == KBLOOM_TYPE_SPLIT_BLOCK,
			  kb_type_hash_ok(t, KBLOOM_HASH_XXH64));
		EXPECT_FALSE(kb_type_hash_ok(t, 0));
		EXPECT_FALSE(kb_type_hash_ok(t, KBLOOM_HASH_XXH64 + 1));
	}
}

/* ---- Parquet's bytes ---------------------------------------------------- */

/*
 * Apache arrow-rs, parquet/src/bloom_filter/mod.rs, test_with_fixture:
 * "bloom filter produced by parquet-mr/spark for a column of ... f"a{i}"
 * for i in 0..10": one 32-byte block.
 */
static const __u8 parquet_a0_a9[32] = {
	200, 1, 80, 20, 64, 68, 8, 109, 6, 37, 4, 67, 144, 80, 96, 32,
	8, 132, 43, 33, 0, 5, 99, 65, 2, 0, 224, 44, 64, 78, 96, 4,
};

static const struct kbloom_opts parquet_opts = {
	.hash_id = KBLOOM_HASH_XXH64,
};

TEST(parquet_bytes_equal_reference)
{
	struct kbloom_sb *f, *g;
	__u8 out[32];
	char key[16];
	int i;

	ASSERT_EQ(0, kbloom_sb_create_blocks(KBLOOM_TYPE_SPLIT_BLOCK, 1,
					     &parquet_opts, &f));
	for (i = 0; i < 10; i++) {
		snprintf(key, sizeof(key), "a%d", i);
		ASSERT_EQ(0, kbloom_sb_add(f, key, 2));
	}
	ASSERT_EQ(32, kbloom_sb_parquet_size(f));
	ASSERT_EQ(0, kbloom_sb_parquet_export(f, out, sizeof(out)));
	EXPECT_EQ(0, memcmp(parquet_a0_a9, out, 32));
	for (i = 0; i < 32; i++)
		EXPECT_EQ(parquet_a0_a9[i], out[i]) TH_LOG("byte %d", i);

	ASSERT_EQ(0, kbloom_sb_parquet_import(parquet_a0_a9, 32, &g));
	for (i = 0; i < 10; i++) {
		snprintf(key, sizeof(key), "a%d", i);
		EXPECT_EQ(1, kbloom_sb_test(g, key, 2));
		EXPECT_EQ(1, kbloom_sb_test_hash(g, kb_hash_xxh64(0, key, 2)));
	}
	ASSERT_EQ(0, kbloom_sb_parquet_export(g, out, sizeof(out)));
	EXPECT_EQ(0, memcmp(parquet_a0_a9, out, 32));
	kbloom_sb_destroy(f);
	kbloom_sb_destroy(g);
}

/* A larger filter: import(export(f)) answers as f, bytes equal. */
TEST(parquet_round_trip)
{
	struct kbloom_sb *f, *g;
	__u64 i, key, diff = 0;
	size_t len;
	__u8 *a, *b;

	ASSERT_EQ(0, kbloom_sb_create(KBLOOM_TYPE_SPLIT_BLOCK, 10000, P_1PCT,
				      &parquet_opts, &f));
	for (i = 0; i < 10000; i++) {
		key = key_of(i);
		ASSERT_EQ(0, kbloom_sb_add(f, &key, 8));
	}
	len = kbloom_sb_parquet_size(f);
	ASSERT_EQ(0, len & (len - 1));	/* 2^j bytes */
	a = malloc(len);
	b = malloc(len);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(-EMSGSIZE, kbloom_sb_parquet_export(f, a, len - 1));
	ASSERT_EQ(0, kbloom_sb_parquet_export(f, a, len));
	ASSERT_EQ(0, kbloom_sb_parquet_import(a, len, &g));
	ASSERT_EQ(0, kbloom_sb_parquet_export(g, b, len));
	EXPECT_EQ(0, memcmp(a, b, len));
	for (i = 0; i < 50000; i++) {
		key = key_of(i);
		diff += kbloom_sb_test(f, &key, 8) != kbloom_sb_test(g, &key, 8);
	}
	EXPECT_EQ(0, diff);
	free(a);
	free(b);
	kbloom_sb_destroy(f);
	kbloom_sb_destroy(g);
}

TEST(parquet_refusals)
{
	struct kbloom_opts seeded = { .hash_id = KBLOOM_HASH_XXH64, .seed = 1 };
	static __u8 bits[64];
	struct kbloom_sb *f = NULL;
	__u8 out[64];

	EXPECT_EQ(-EINVAL, kbloom_sb_parquet_import(bits, 0, &f));
	EXPECT_EQ(-EINVAL, kbloom_sb_parquet_import(bits, 16, &f));
	EXPECT_EQ(-EINVAL, kbloom_sb_parquet_import(bits, 48 + 1, &f));
	EXPECT_EQ(-EINVAL, kbloom_sb_parquet_import(bits, 40, &f));
	EXPECT_EQ(-EINVAL, kbloom_sb_parquet_import(NULL, 32, &f));
	EXPECT_EQ(-EINVAL, kbloom_sb_parquet_import(bits, 32, NULL));
	EXPECT_EQ(-EINVAL, kbloom_sb_parquet_import(bits,
						   KB_SBBF_BYTES_MAX + 32, &f));
	EXPECT_EQ(NULL, f);
	/* 96 bytes: any whole number of blocks */
	ASSERT_EQ(0, kbloom_sb_parquet_import(bits, 64, &f));
	kbloom_sb_destroy(f);

	/* kbloom's own split-block filters: not Parquet's */
	ASSERT_EQ(0, kbloom_sb_create_blocks(KBLOOM_TYPE_SPLIT_BLOCK, 2,
					     &seeded, &f));
	EXPECT_EQ(0, kbloom_sb_parquet_size(f));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_sb_parquet_export(f, out, sizeof(out)));
	kbloom_sb_destroy(f);
	ASSERT_EQ(0, kbloom_sb_create_blocks(KBLOOM_TYPE_SPLIT_BLOCK, 2, NULL,
					     &f));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_sb_parquet_export(f, out, sizeof(out)));
	kbloom_sb_destroy(f);
	ASSERT_EQ(0, kbloom_sb_create_blocks(KBLOOM_TYPE_ULTRA_FAST, 1, NULL,
					     &f));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_sb_parquet_export(f, out, sizeof(out)));
	EXPECT_EQ(-EINVAL, kbloom_sb_parquet_export(NULL, out, sizeof(out)));
	kbloom_sb_destroy(f);
}

/* ---- positions ---------------------------------------------------------- */

/* One bit in each word of the key's block; nothing anywhere else. */
TEST(one_bit_per_word)
{
	static const __u32 types[] = { KBLOOM_TYPE_ULTRA_FAST,
				       KBLOOM_TYPE_SPLIT_BLOCK };
	struct kbloom_sb_stats st;
	__u64 mask[KB_SB_K], i;
	struct kbloom_sb *f;
	__u32 t, j, ones;

	for (t = 0; t < 2; t++) {
		ASSERT_EQ(0, kbloom_sb_create_blocks(types[t], 7, NULL, &f));
		ASSERT_EQ(0, kbloom_sb_add_hash(f, 0x0123456789ABCDEFULL));
		ASSERT_EQ(0, kbloom_sb_stats(f, &st));
		EXPECT_EQ(8, st.ones);
		EXPECT_EQ(7 * kb_sb_block_bits(types[t]), st.shape.m);
		EXPECT_EQ(1, kbloom_sb_test_hash(f, 0x0123456789ABCDEFULL));
		kbloom_sb_destroy(f);
		for (i = 0; i < 1000; i++) {
			kb_sb_mask(cu_mix(i), types[t], mask);
			for (j = ones = 0; j < KB_SB_K; j++)
				ones += kb_popcount64(mask[j]);
			ASSERT_EQ(8, ones);
			for (j = 0; t == 1 && j < 4; j++)
				ASSERT_EQ(2, kb_popcount64(mask[j]));
		}
	}
	/* Parquet: block ((h >> 32) z) >> 32, word j bit (g salt_j) >> 27 */
	EXPECT_EQ(3, kb_sb_block(0x6000000000000000ULL, 8));
	EXPECT_EQ((0x47B6137BU * 5U) >> 27, kb_sb_bit(5, 0, 32));
	EXPECT_EQ((0x5C6BFB31U * 5U) >> 26, kb_sb_bit(5, 7, 64));
}

/* ---- the rate ------------------------------------------------------------ */

FIXTURE(rate) {
	struct kbloom_sb *f;
	__u64 blocks;
};

FIXTURE_VARIANT(rate) {
	__u32 type;
	__u32 bits_per_key;
	__u64 probes;
};

FIXTURE_VARIANT_ADD(rate, uf8) {
	.type = KBLOOM_TYPE_ULTRA_FAST, .bits_per_key = 8, .probes = 1000000,
};

FIXTURE_VARIANT_ADD(rate, uf10) {
	.type = KBLOOM_TYPE_ULTRA_FAST, .bits_per_key = 10, .probes = 1000000,
};

FIXTURE_VARIANT_ADD(rate, uf16) {
	.type = KBLOOM_TYPE_ULTRA_FAST, .bits_per_key = 16, .probes = 4000000,
};

FIXTURE_VARIANT_ADD(rate, sbbf8) {
	.type = KBLOOM_TYPE_SPLIT_BLOCK, .bits_per_key = 8, .probes = 1000000,
};

FIXTURE_VARIANT_ADD(rate, sbbf10) {
	.type = KBLOOM_TYPE_SPLIT_BLOCK, .bits_per_key = 10, .probes = 1000000,
};

FIXTURE_VARIANT_ADD(rate, sbbf16) {
	.type = KBLOOM_TYPE_SPLIT_BLOCK, .bits_per_key = 16, .probes = 4000000,
};

FIXTURE_SETUP(rate)
{
	struct kbloom_opts o = { .seed = 0x5B };
	__u64 bb = kb_sb_block_bits(variant->type);

	if (variant->type == KBLOOM_TYPE_SPLIT_BLOCK)
		o.hash_id = KBLOOM_HASH_XXH64;
	self->blocks = N_KEYS * variant->bits_per_key / bb;
	ASSERT_EQ(0, kbloom_sb_create_blocks(variant->type, self->blocks, &o,
					     &self->f));
}

FIXTURE_TEARDOWN(rate)
{
	kbloom_sb_destroy(self->f);
}

TEST_F(rate, within_10pct_of_formula)
{
	struct kbloom_sb_stats st;
	__u64 i, key, fp = 0;
	double meas, exact;

	for (i = 0; i < N_KEYS; i++) {
		key = key_of(i);
		ASSERT_EQ(0, kbloom_sb_add(self->f, &key, 8));
	}
	for (i = 0; i < N_KEYS; i++) {
		key = key_of(i);
		ASSERT_EQ(1, kbloom_sb_test(self->f, &key, 8));
	}
	for (i = N_KEYS; i < N_KEYS + variant->probes; i++) {
		key = key_of(i);
		fp += kbloom_sb_test(self->f, &key, 8) == 1;
	}
	meas = (double)fp / variant->probes;
	ASSERT_EQ(0, kbloom_sb_stats(self->f, &st));
	exact = kbloom_sb_fpr(variant->type, st.shape.m, N_KEYS);
	TH_LOG("%s %u bits/key (%llu blocks): measured %.5f%%, split-block formula %.5f%% (%+.1f%%)",
	       variant->type == KBLOOM_TYPE_ULTRA_FAST ? "ultra-fast" :
							 "parquet-sbbf",
	       variant->bits_per_key, (unsigned long long)self->blocks,
	       meas * 100, exact * 100, (meas / exact - 1) * 100);
	EXPECT_LE(fabs(meas - exact), 0.1 * exact);
	EXPECT_EQ(exact, st.fpr_now);
	EXPECT_EQ(N_KEYS, st.inserted);
}

/*
 * The formula at its limits: nearly empty blocks give lambda (1/w)^8; at
 * 10 bits/key the SBBF rate is about 1.26%, the ultra-fast one (wider
 * words) about 1.05%, both above the 512-bit blocked filter's 0.96%.
 */
TEST(formula)
{
	double p1 = pow(1.0 / 32, 8), sb10, uf10;

	sb10 = kbloom_sb_fpr(KBLOOM_TYPE_SPLIT_BLOCK, 256 * 100000ULL,
			     2560000);
	uf10 = kbloom_sb_fpr(KBLOOM_TYPE_ULTRA_FAST, 512 * 100000ULL,
			     5120000);
	TH_LOG("10 bits/key: SBBF %.4f%%, UFBF %.4f%%", sb10 * 100,
	       uf10 * 100);
	EXPECT_LT(sb10, 0.013);
	EXPECT_GT(sb10, 0.011);
	EXPECT_LT(uf10, sb10);
	/* lambda -> 0: p ~ lambda (1/w)^8 (lambda = 1e-5 here) */
	EXPECT_LE(fabs(kbloom_sb_fpr(KBLOOM_TYPE_SPLIT_BLOCK, 256 * 1000000ULL,
				     10) / (1e-5 * p1) - 1), 0.01);
	EXPECT_EQ(0, kbloom_sb_fpr(KBLOOM_TYPE_SPLIT_BLOCK, 256, 0));
	EXPECT_EQ(1, kbloom_sb_fpr(KBLOOM_TYPE_SPLIT_BLOCK, 256, 1ULL << 40));
	EXPECT_EQ(-1, kbloom_sb_fpr(KBLOOM_TYPE_BLOCKED, 512, 10));
	EXPECT_EQ(-1, kbloom_sb_fpr(KBLOOM_TYPE_SPLIT_BLOCK, 255, 10));
	EXPECT_EQ(-1, kbloom_sb_fpr(KBLOOM_TYPE_ULTRA_FAST, 0, 10));
}

TEST(planned_filters_meet_target)
{
	static const __u32 types[] = { KBLOOM_TYPE_ULTRA_FAST,
				       KBLOOM_TYPE_SPLIT_BLOCK };
	struct kbloom_sb_stats st;
	__u64 i, key, fp;
	struct kbloom_sb *f;
	double meas;
	__u32 t;

	for (t = 0; t < 2; t++) {
		ASSERT_EQ(0, kbloom_sb_create(types[t], N_KEYS, P_1PCT, NULL,
					      &f));
		for (i = 0; i < N_KEYS; i++) {
			key = key_of(i);
			ASSERT_EQ(0, kbloom_sb_add(f, &key, 8));
		}
		for (i = N_KEYS, fp = 0; i < N_KEYS + 1000000; i++) {
			key = key_of(i);
			fp += kbloom_sb_test(f, &key, 8) == 1;
		}
		meas = fp / 1e6;
		ASSERT_EQ(0, kbloom_sb_stats(f, &st));
		TH_LOG("type %u n=%llu p=1%%: %llu blocks (%.2f bits/key), measured %.4f%%, formula %.4f%%",
		       types[t], N_KEYS, (unsigned long long)st.shape.buckets,
		       (double)st.shape.m / N_KEYS, meas * 100,
		       st.fpr_now * 100);
		EXPECT_LE(st.fpr_now, 0.01);
		EXPECT_LE(meas, 0.011);
		EXPECT_EQ(N_KEYS, st.capacity);
		if (types[t] == KBLOOM_TYPE_SPLIT_BLOCK)
			EXPECT_EQ(0, st.shape.buckets & (st.shape.buckets - 1));
		/* one block fewer misses the target (ultra-fast: exact) */
		if (types[t] == KBLOOM_TYPE_ULTRA_FAST)
			EXPECT_GT(kbloom_sb_fpr(types[t], st.shape.m - 512,
						N_KEYS), 0.01);
		kbloom_sb_destroy(f);
	}
}

/* ---- bad parameters ------------------------------------------------------ */

TEST(bad_parameters_refused)
{
	struct kbloom_opts o = { .counter_bits = 4 };
	struct kb_shape s = { .type = KBLOOM_TYPE_SPLIT_BLOCK, .buckets = 4 };
	struct kbloom_sb *f = NULL;

	ASSERT_EQ(0, kb_shape_derive(&s));
	EXPECT_EQ(8, s.k);
	EXPECT_EQ(1024, s.m);
	s.k = 7;
	EXPECT_EQ(-EINVAL, kb_shape_check(&s));
	s.k = 8;
	s.m = 2048;
	EXPECT_EQ(-EINVAL, kb_shape_check(&s));
	s.m = 1024;
	s.fp_bits = 1;
	EXPECT_EQ(-EINVAL, kb_shape_check(&s));
	s.fp_bits = 0;
	s.type = KBLOOM_TYPE_ULTRA_FAST;
	EXPECT_EQ(-EINVAL, kb_shape_check(&s));	/* 4 blocks are 2048 bits */
	s.buckets = 0;
	EXPECT_EQ(-EINVAL, kb_shape_derive(&s));

	EXPECT_EQ(-EINVAL, kbloom_sb_create_blocks(KBLOOM_TYPE_BLOCKED, 4,
						   NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_sb_create_blocks(KBLOOM_TYPE_ULTRA_FAST, 0,
						   NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_sb_create_blocks(KBLOOM_TYPE_ULTRA_FAST,
						   KBLOOM_M_MAX / 512 + 1,
						   NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_sb_create_blocks(KBLOOM_TYPE_ULTRA_FAST, 4,
						   &o, &f));
	o.counter_bits = 0;
	o.hash_id = KBLOOM_HASH_XXH64;	/* Parquet's hash, not UFBF's */
	EXPECT_EQ(-EINVAL, kbloom_sb_create_blocks(KBLOOM_TYPE_ULTRA_FAST, 4,
						   &o, &f));
	o.hash_id = KBLOOM_HASH_XXH64 + 1;
	EXPECT_EQ(-EINVAL, kbloom_sb_create_blocks(KBLOOM_TYPE_SPLIT_BLOCK, 4,
						   &o, &f));
	o.hash_id = KBLOOM_HASH_XXH64;
	o.name = "bad name";
	EXPECT_EQ(-EINVAL, kbloom_sb_create_blocks(KBLOOM_TYPE_SPLIT_BLOCK, 4,
						   &o, &f));
	EXPECT_EQ(-EINVAL, kbloom_sb_create(KBLOOM_TYPE_SPLIT_BLOCK, 0, P_1PCT,
					    NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_sb_create(KBLOOM_TYPE_SPLIT_BLOCK, 10, 1,
					    NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_sb_create(KBLOOM_TYPE_PARTITIONED, 10,
					    P_1PCT, NULL, &f));
	EXPECT_EQ(-E2BIG, kbloom_sb_create(KBLOOM_TYPE_ULTRA_FAST, 1ULL << 40,
					   P_1PCT, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_sb_create(KBLOOM_TYPE_ULTRA_FAST, 10, P_1PCT,
					    NULL, NULL));
	EXPECT_EQ(NULL, f);
	EXPECT_EQ(-EINVAL, kbloom_sb_add(NULL, "k", 1));
	EXPECT_EQ(-EINVAL, kbloom_sb_test(NULL, "k", 1));
	EXPECT_EQ(-EINVAL, kbloom_sb_add_hash(NULL, 1));
	EXPECT_EQ(-EINVAL, kbloom_sb_test_hash(NULL, 1));
	EXPECT_EQ(-EINVAL, kbloom_sb_stats(NULL, NULL));
}

TEST(bad_keys_change_nothing)
{
	__u8 key[KBLOOM_KEY_MAX + 1] = { 1 };
	struct kbloom_sb_stats st;
	struct kbloom_sb *f;

	ASSERT_EQ(0, kbloom_sb_create_blocks(KBLOOM_TYPE_ULTRA_FAST, 3, NULL,
					     &f));
	EXPECT_EQ(-EINVAL, kbloom_sb_add(f, key, 0));
	EXPECT_EQ(-EINVAL, kbloom_sb_add(f, key, KBLOOM_KEY_MAX + 1));
	EXPECT_EQ(-EINVAL, kbloom_sb_add(f, NULL, 8));
	EXPECT_EQ(-EINVAL, kbloom_sb_test(f, key, 0));
	ASSERT_EQ(0, kbloom_sb_stats(f, &st));
	EXPECT_EQ(0, st.ones);
	EXPECT_EQ(0, st.inserted);
	EXPECT_EQ(0, kbloom_sb_add(f, key, KBLOOM_KEY_MAX));
	EXPECT_EQ(1, kbloom_sb_test(f, key, KBLOOM_KEY_MAX));
	kbloom_sb_clear(f);
	EXPECT_EQ(0, kbloom_sb_test(f, key, KBLOOM_KEY_MAX));
	ASSERT_EQ(0, kbloom_sb_stats(f, &st));
	EXPECT_EQ(0, st.ones);
	kbloom_sb_destroy(f);
}

/* ---- images -------------------------------------------------------------- */

TEST(image_round_trip)
{
	static const __u32 types[] = { KBLOOM_TYPE_ULTRA_FAST,
				       KBLOOM_TYPE_SPLIT_BLOCK };
	struct kbloom_opts o = { .seed = 0, .name = "sb.img" };
	struct kbloom_sb_stats a, b;
	struct kbloom_sb *f, *g;
	__u64 i, key, diff;
	size_t len, need;
	void *img;
	__u32 t;

	for (t = 0; t < 2; t++) {
		o.hash_id = t ? KBLOOM_HASH_XXH64 : KBLOOM_HASH_SIPHASH13;
		ASSERT_EQ(0, kbloom_sb_create(types[t], 20000, 1000000000ULL,
					      &o, &f));
		for (i = 0; i < 20000; i++) {
			key = key_of(i);
			ASSERT_EQ(0, kbloom_sb_add(f, &key, 8));
		}
		ASSERT_EQ(0, kbloom_sb_save_alloc(f, &img, &len));
		EXPECT_EQ(kbloom_sb_image_size(f), len);
		EXPECT_EQ(0, kb_image_verify(img, len));
		EXPECT_EQ(-EMSGSIZE, kbloom_sb_save(f, img, len - 1, &need));
		EXPECT_EQ(len, need);
		ASSERT_EQ(0, kbloom_sb_load(img, len, &g));
		for (i = diff = 0; i < 100000; i++) {
			key = key_of(i);
			diff += kbloom_sb_test(f, &key, 8) !=
				kbloom_sb_test(g, &key, 8);
		}
		EXPECT_EQ(0, diff);
		ASSERT_EQ(0, kbloom_sb_stats(f, &a));
		ASSERT_EQ(0, kbloom_sb_stats(g, &b));
		EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
		/* a version-2 reader's loader refuses it */
		EXPECT_EQ(-EOPNOTSUPP, kbloom_load(img, len, &(struct kbloom_filter *){ NULL }));
		free(img);
		kbloom_sb_destroy(f);
		kbloom_sb_destroy(g);
	}
}

/* A valid image of @f, then one field changed and the checksum redone. */
static int reload_broken(struct kbloom_sb *f, int what)
{
	struct kbloom_image_head *hd;
	struct kbloom_sb *g = NULL;
	size_t len, hl = sizeof(*hd);
	int ret;
	__u8 *buf;

	if (kbloom_sb_save_alloc(f, (void **)&buf, &len))
		return 1;
	hd = (struct kbloom_image_head *)buf;
	switch (what) {
	case 0: hd->g.buckets = kb_le64(kb_le64(hd->g.buckets) + 1); break;
	case 1: hd->h.counter_bits = 4; break;
	case 2: hd->h.saturations = kb_le64(1); break;
	case 3: hd->h.k = kb_le32(7); break;
	case 4: hd->h.m = kb_le64(kb_le64(hd->h.m) + 256); break;
	case 5: hd->g.slots = 8; break;
	case 6: hd->g.kicks = kb_le64(1); break;
	case 7: hd->h.flags = KBLOOM_IMAGE_F_MAY_FN; break;
	case 8: len -= 8; break;
	case 9: hd->h.hash_id = KBLOOM_HASH_XXH64; break;
	case 10: hd->h.type = KBLOOM_TYPE_PARTITIONED; break;
	}
	hd->h.crc = 0;
	hd->h.crc = kb_le32(kb_image_crc_head(hd, buf + hl, len - hl));
	ret = kbloom_sb_load(buf, len, &g);
	kbloom_sb_destroy(g);
	free(buf);
	return ret;
}

TEST(bad_images_refused)
{
	struct kbloom_sb *f, *g = NULL;
	struct kbloom_part *p;
	size_t len;
	__u8 *img;
	int i;

	ASSERT_EQ(0, kbloom_sb_create_blocks(KBLOOM_TYPE_ULTRA_FAST, 4, NULL,
					     &f));
	ASSERT_EQ(0, kbloom_sb_add(f, "x", 1));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(-EBADMSG, reload_broken(f, i)) TH_LOG("case %d", i);
	EXPECT_EQ(-EMSGSIZE, reload_broken(f, 8));
	/* xxHash64 is the split-block type's alone */
	EXPECT_EQ(-EOPNOTSUPP, reload_broken(f, 9));
	EXPECT_EQ(-EOPNOTSUPP, reload_broken(f, 10));

	ASSERT_EQ(0, kbloom_sb_save_alloc(f, (void **)&img, &len));
	img[len - 1] ^= 1;
	EXPECT_EQ(-EBADMSG, kbloom_sb_load(img, len, &g));
	EXPECT_EQ(-EMSGSIZE, kbloom_sb_load(img, 100, &g));
	EXPECT_EQ(-EINVAL, kbloom_sb_load(NULL, len, &g));
	EXPECT_EQ(NULL, g);
	free(img);

	ASSERT_EQ(0, kbloom_part_create_ks(4, 1024, NULL, &p));
	ASSERT_EQ(0, kbloom_part_save_alloc(p, (void **)&img, &len));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_sb_load(img, len, &g));
	free(img);
	kbloom_part_destroy(p);
	kbloom_sb_destroy(f);
}

TEST_HARNESS_MAIN
