// SPDX-License-Identifier: GPL-2.0
/*
 * The distance-sensitive Bloom filter
 * (uapi/kbloom_var_distance_sensitive.h, libkbloom_survey.h):
 *   - positions: a key alone in a filter sets exactly the bits
 *     i s + kb_dsbf_cell(i) of the header's formula;
 *   - 200 keys of 256 bits, eps = 0.02, delta = 0.25 (k = 32 partitions of
 *     8192 bits, b = 32 sampled bits, t = 9): queries 5 bits from a key
 *     (eps l) are missed, and queries 64 bits from a key (delta l)
 *     accepted, no more often than the Kirsch-Mitzenmacher bounds
 *     (Hoeffding; the binomial tails they bound are printed too);
 *   - images round-trip, flagged MAY_FN; bad parameters refused.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "libkbloom_survey.h"
#include "core_util.h"

#define KEY_LEN		32
#define L_BITS		(KEY_LEN * 8)
#define N_KEYS		200
#define K		32
#define S		8192
#define B		32
#define T		9
#define D_CLOSE		5	/* eps l, eps = 0.02 */
#define D_FAR		64	/* delta l, delta = 0.25 */
#define N_QUERIES	20000

static void key_of(__u64 i, __u8 key[KEY_LEN])
{
	__u64 x;
	int j;

	for (j = 0; j < KEY_LEN; j += 8) {
		x = cu_mix(i * 4 + j / 8 + 0xD5);
		memcpy(key + j, &x, 8);
	}
}

/* @key with @d distinct bits flipped. */
static void flip(__u8 *key, int d, struct cu_rng *g)
{
	__u8 done[L_BITS] = { 0 };
	__u32 p;

	while (d > 0) {
		p = (__u32)(cu_next(g) % L_BITS);
		if (done[p])
			continue;
		done[p] = 1;
		key[p / 8] ^= (__u8)(1 << (p % 8));
		d--;
	}
}

/* P(Bin(n, p) >= t) */
static double binom_ge(int n, double p, int t)
{
	double s = 0;
	int i;

	for (i = t; i <= n; i++)
		s += exp(lgamma(n + 1.0) - lgamma(i + 1.0) -
			 lgamma(n - i + 1.0) + i * log(p) +
			 (n - i) * log1p(-p));
	return s;
}

TEST(positions)
{
	struct kbloom_opts o = { .seed = 0x5EED };
	struct kbloom_dsbf *f;
	__u8 key[KEY_LEN], *payload;
	__u64 w, ones = 0;
	size_t len, j;
	void *img;
	__u32 i, c;

	key_of(7, key);
	ASSERT_EQ(0, kbloom_dsbf_create(KEY_LEN, K, S, B, T, &o, &f));
	ASSERT_EQ(0, kbloom_dsbf_add(f, key, KEY_LEN));
	ASSERT_EQ(0, kbloom_dsbf_save_alloc(f, &img, &len));
	payload = (__u8 *)img + KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN;
	for (j = 0; j < (size_t)K * S / 64; j++) {
		memcpy(&w, payload + j * 8, 8);
		ones += __builtin_popcountll(w);
	}
	EXPECT_EQ(K, ones);
	for (i = 0; i < K; i++) {
		c = i * S + kb_dsbf_cell(0x5EED, i, B, key, KEY_LEN, S);
		EXPECT_TRUE(payload[c / 8] & (1 << (c % 8))) TH_LOG("i %u", i);
	}
	free(img);
	kbloom_dsbf_destroy(f);
}

TEST(rates_within_bounds)
{
	double p1 = pow(1 - (double)D_CLOSE / L_BITS, B);
	double p2 = 1 - pow(1 - pow(1 - (double)D_FAR / L_BITS, B) - 1.0 / S,
			    N_KEYS);
	double fn, fp, fn_h, fp_h, fn_b, fp_b;
	struct cu_rng g = { 0xD1 };
	__u64 miss = 0, hit = 0;
	struct kbloom_dsbf *f;
	__u8 key[KEY_LEN];
	int i;

	ASSERT_EQ(0, kbloom_dsbf_create(KEY_LEN, K, S, B, T, NULL, &f));
	for (i = 0; i < N_KEYS; i++) {
		key_of(i, key);
		ASSERT_EQ(0, kbloom_dsbf_add(f, key, KEY_LEN));
	}
	for (i = 0; i < N_QUERIES; i++) {
		key_of(cu_next(&g) % N_KEYS, key);
		flip(key, D_CLOSE, &g);
		miss += kbloom_dsbf_test(f, key, KEY_LEN) == 0;
		key_of(cu_next(&g) % N_KEYS, key);
		flip(key, D_FAR, &g);
		hit += kbloom_dsbf_test(f, key, KEY_LEN) == 1;
	}
	fn = (double)miss / N_QUERIES;
	fp = (double)hit / N_QUERIES;
	fn_h = exp(-2.0 * K * pow(p1 - (double)T / K, 2));
	fp_h = exp(-2.0 * K * pow((double)T / K - p2, 2));
	fn_b = 1 - binom_ge(K, p1, T);
	fp_b = binom_ge(K, p2, T);
	TH_LOG("l=%d, n=%d, eps l=%d, delta l=%d, k=%d, s=%d, b=%d, t=%d: p1 %.3f, p2 %.4f",
	       L_BITS, N_KEYS, D_CLOSE, D_FAR, K, S, B, T, p1, p2);
	TH_LOG("false negatives %.4f%% (bound: Hoeffding %.3f%%, binomial %.4f%%); false positives %.4f%% (Hoeffding %.3f%%, binomial %.5f%%)",
	       100 * fn, 100 * fn_h, 100 * fn_b, 100 * fp, 100 * fp_h,
	       100 * fp_b);
	EXPECT_LE(fn, fn_h);
	EXPECT_LE(fp, fp_h);
	kbloom_dsbf_destroy(f);
}

TEST(image_round_trip)
{
	struct kbloom_dsbf *f, *h;
	struct cu_rng g = { 3 };
	__u8 key[KEY_LEN], *b;
	size_t len;
	void *img;
	int i;

	ASSERT_EQ(0, kbloom_dsbf_create(KEY_LEN, 8, 256, 16, 3, NULL, &f));
	for (i = 0; i < 50; i++) {
		key_of(i, key);
		ASSERT_EQ(0, kbloom_dsbf_add(f, key, KEY_LEN));
	}
	ASSERT_EQ(0, kbloom_dsbf_save_alloc(f, &img, &len));
	b = img;
	EXPECT_EQ(KBLOOM_IMAGE_F_MAY_FN, b[11] & KBLOOM_IMAGE_F_MAY_FN);
	ASSERT_EQ(0, kbloom_dsbf_load(img, len, &h));
	for (i = 0; i < 2000; i++) {
		key_of(i % 100, key);
		flip(key, i % 40, &g);
		ASSERT_EQ(kbloom_dsbf_hits(f, key, KEY_LEN),
			  kbloom_dsbf_hits(h, key, KEY_LEN));
	}
	kbloom_dsbf_destroy(h);
	b[11] &= ~KBLOOM_IMAGE_F_MAY_FN;
	EXPECT_EQ(-EBADMSG, kbloom_dsbf_load(img, len, &h));
	b[11] |= KBLOOM_IMAGE_F_MAY_FN;
	b[KBLOOM_IMAGE_HDR_LEN + 4] = 9;	/* update: t > k */
	EXPECT_EQ(-EBADMSG, kbloom_dsbf_load(img, len, &h));
	free(img);
	kbloom_dsbf_destroy(f);
}

TEST(bad_parameters)
{
	struct kbloom_dsbf *f = NULL;
	__u8 key[KEY_LEN] = { 0 };

	EXPECT_EQ(-EINVAL, kbloom_dsbf_create(0, 8, 256, 16, 3, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_dsbf_create(65, 8, 256, 16, 3, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_dsbf_create(32, 0, 256, 16, 1, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_dsbf_create(32, 33, 256, 16, 3, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_dsbf_create(32, 8, 100, 16, 3, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_dsbf_create(32, 8, 256, 0, 3, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_dsbf_create(32, 8, 256, 65, 3, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_dsbf_create(32, 8, 256, 16, 0, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_dsbf_create(32, 8, 256, 16, 9, NULL, &f));
	EXPECT_TRUE(f == NULL);
	ASSERT_EQ(0, kbloom_dsbf_create(32, 8, 256, 16, 3, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_dsbf_add(f, key, 31));
	EXPECT_EQ(-EINVAL, kbloom_dsbf_test(f, key, 33));
	EXPECT_EQ(0, kbloom_dsbf_hits(f, key, 32));
	kbloom_dsbf_destroy(f);
}

TEST_HARNESS_MAIN
