// SPDX-License-Identifier: GPL-2.0
/*
 * The accurate counting Bloom filter (libkbloom_survey.h, ACBF) with the
 * bytes of a 4-bit counting filter of 4 counters a key (m = 16 bits a
 * key), k = 3, planned for its n = 10^5 keys (level 1: m1 = 4m' - kn =
 * 13 bits a key):
 *   - the measured false-positive rate is within +-10% of the paper's
 *     (1 - e^(-kn/(4m - kn)))^k (printed next to counting/4's at the same
 *     bytes);
 *   - every key's count equals the smallest of its counters in an exact
 *     (32-bit) reference array at the same positions, for all 10^5 keys,
 *     after the adds and again after deleting half of them (0 false
 *     negatives); the upper levels hold exactly k n bits;
 *   - a full filter refuses an add with ENOSPC and changes nothing; a
 *     counter at the top level saturates and is counted;
 *   - images round-trip; levels that are no state are refused; bad
 *     geometry gives EINVAL;
 *   - kbloom_acbf_add_many() gives the image and statistics of one add
 *     per key.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_survey.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_var_acbf.h"
#include "core_util.h"

#define N_KEYS		100000ULL
#define N_PROBES	500000ULL
#define K		3U
#define M_BITS		(16 * N_KEYS)
#define SEED		0xACBF

static __u64 key_of(__u64 i)
{
	return cu_mix(i ^ 0xAC0B);
}

/* The exact counters: +@d on the key's level-1 positions over @m1. */
static void ref_update(__u32 *ref, __u64 m1, __u64 key, int d)
{
	struct kb_probe p;
	__u32 i;

	kb_probe_init(&p, kb_hash(KBLOOM_HASH_FAST, SEED, &key, 8));
	for (i = 0; i < K; i++)
		ref[kb_probe_next(&p, m1)] += d;
}

static __u32 ref_count(const __u32 *ref, __u64 m1, __u64 key)
{
	struct kb_probe p;
	__u32 i, c, min = ~0U;

	kb_probe_init(&p, kb_hash(KBLOOM_HASH_FAST, SEED, &key, 8));
	for (i = 0; i < K; i++) {
		c = ref[kb_probe_next(&p, m1)];
		min = c < min ? c : min;
	}
	return min;
}

/* Keys [lo, hi) in steps of @step whose count is not the reference's. */
static __u64 count_errors(const struct kbloom_acbf *f, const __u32 *ref,
			  __u64 m1, __u64 lo, __u64 hi, __u64 step)
{
	__u64 i, key, bad = 0;

	for (i = lo; i < hi; i += step) {
		key = key_of(i);
		bad += kbloom_acbf_count(f, &key, 8) !=
		       (int)ref_count(ref, m1, key);
	}
	return bad;
}

static double acbf_rate(const struct kbloom_acbf *f)
{
	__u64 i, key, fp = 0;

	for (i = 0; i < N_PROBES; i++) {
		key = key_of(N_KEYS + i);
		fp += kbloom_acbf_test(f, &key, 8) == 1;
	}
	return (double)fp / N_PROBES;
}

/* 10^5 adds and 5 x 10^4 deletes, each moving the upper levels */
FIXTURE(big) {
	int unused;
};

FIXTURE_SETUP(big)
{
}

FIXTURE_TEARDOWN(big)
{
}

TEST_F_TIMEOUT(big, rate_and_exact_counts, 90)
{
	struct kbloom_opts o = { .seed = SEED };
	struct kbloom_acbf_stats st;
	struct kbloom_acbf *f;
	double meas, pred, cbf;
	__u64 i, key, fn = 0;
	__u32 *ref;

	ASSERT_EQ(0, kbloom_acbf_create(M_BITS, K, N_KEYS, 0, &o, &f));
	ASSERT_EQ(0, kbloom_acbf_stats(f, &st));
	ASSERT_EQ((M_BITS - K * N_KEYS) & ~63ULL, st.m1);
	ref = calloc(st.m1, sizeof(*ref));
	ASSERT_NE(NULL, ref);
	for (i = 0; i < N_KEYS; i++) {
		key = key_of(i);
		ASSERT_EQ(0, kbloom_acbf_add(f, &key, 8));
		ref_update(ref, st.m1, key, 1);
	}
	meas = acbf_rate(f);
	pred = kbloom_acbf_fpr(st.m1, K, N_KEYS);
	cbf = pow(1 - exp(-(double)K * N_KEYS / (M_BITS / 4)), K);
	TH_LOG("ACBF 16 bits/key k=%u: measured %.4f%%, formula %.4f%%, counting/4 at equal bytes %.3f%%",
	       K, meas * 100, pred * 100, cbf * 100);
	EXPECT_LE(fabs(meas - pred), 0.1 * pred);
	EXPECT_EQ(0, count_errors(f, ref, st.m1, 0, N_KEYS, 1));
	ASSERT_EQ(0, kbloom_acbf_stats(f, &st));
	EXPECT_EQ(K * N_KEYS, st.used);
	/* delete every other key: the rest keep exact counts */
	for (i = 0; i < N_KEYS; i += 2) {
		key = key_of(i);
		ASSERT_EQ(0, kbloom_acbf_del(f, &key, 8));
		ref_update(ref, st.m1, key, -1);
	}
	for (i = 1; i < N_KEYS; i += 2) {
		key = key_of(i);
		fn += kbloom_acbf_test(f, &key, 8) != 1;
	}
	EXPECT_EQ(0, fn);
	EXPECT_EQ(0, count_errors(f, ref, st.m1, 0, N_KEYS, 1));
	ASSERT_EQ(0, kbloom_acbf_stats(f, &st));
	EXPECT_EQ(K * N_KEYS / 2, st.used);
	free(ref);
	kbloom_acbf_destroy(f);
}

/* Planned for 100 keys: the 101st-and-later adds find no room. */
TEST(full_refuses_and_changes_nothing)
{
	struct kbloom_acbf *f;
	void *a, *b;
	size_t la, lb;
	__u64 i, key;
	int ret = 0;

	ASSERT_EQ(0, kbloom_acbf_create(4096, K, 100, 0, NULL, &f));
	for (i = 0; i < 1000 && !ret; i++) {
		key = key_of(i);
		ret = kbloom_acbf_add(f, &key, 8);
	}
	ASSERT_EQ(-ENOSPC, ret);
	/* upper levels of 4096 - m1 bits: that many k-bit adds, then none */
	EXPECT_EQ((4096 - ((4096 - K * 100) & ~63ULL)) / K, i - 1);
	ASSERT_EQ(0, kbloom_acbf_save_alloc(f, &a, &la));
	EXPECT_EQ(-ENOSPC, kbloom_acbf_add(f, &key, 8));
	ASSERT_EQ(0, kbloom_acbf_save_alloc(f, &b, &lb));
	ASSERT_EQ(la, lb);
	EXPECT_EQ(0, memcmp(a, b, la));
	free(a);
	free(b);
	kbloom_acbf_destroy(f);
}

/* Two levels: a counter counts to 2 and stays there. */
TEST(saturates_at_top_level)
{
	struct kbloom_acbf_stats st;
	struct kbloom_acbf *f;
	int i;

	ASSERT_EQ(0, kbloom_acbf_create(4096, 2, 100, 2, NULL, &f));
	EXPECT_EQ(0, kbloom_acbf_add(f, "abc", 3));
	EXPECT_EQ(0, kbloom_acbf_add(f, "abc", 3));
	EXPECT_EQ(2, kbloom_acbf_count(f, "abc", 3));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(1, kbloom_acbf_add(f, "abc", 3));
	EXPECT_EQ(2, kbloom_acbf_count(f, "abc", 3));
	ASSERT_EQ(0, kbloom_acbf_stats(f, &st));
	EXPECT_EQ(6, st.saturations);
	/* saturated counters never go down: still present after deletes */
	for (i = 0; i < 5; i++)
		EXPECT_EQ(0, kbloom_acbf_del(f, "abc", 3));
	EXPECT_EQ(1, kbloom_acbf_test(f, "abc", 3));
	EXPECT_EQ(-ENOENT, kbloom_acbf_del(f, "zzz", 3));
	kbloom_acbf_destroy(f);
}

/* A filter of @n keys (multiplicities 1..3), saved: the image. */
static void *small_image(struct kbloom_acbf **fp, __u64 n, size_t *len)
{
	struct kbloom_opts o = { .seed = SEED, .name = "acbf1" };
	__u64 i, key;
	void *img;

	if (kbloom_acbf_create(64 * 1024, 4, 3 * n, 0, &o, fp))
		return NULL;
	for (i = 0; i < n; i++) {
		key = key_of(i);
		kbloom_acbf_add(*fp, &key, 8);
		if (i % 3)
			kbloom_acbf_add(*fp, &key, 8);
		if (i % 3 == 2)
			kbloom_acbf_add(*fp, &key, 8);
	}
	return kbloom_acbf_save_alloc(*fp, &img, len) ? NULL : img;
}

TEST(image_round_trip)
{
	struct kbloom_acbf *f, *g, *h = NULL;
	struct kbloom_image_head *hd;
	size_t len, len2;
	__u64 i, key;
	void *img, *img2;
	__u8 *bad;

	img = small_image(&f, 2000, &len);
	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, kbloom_acbf_load(img, len, &g));
	ASSERT_EQ(0, kbloom_acbf_save_alloc(g, &img2, &len2));
	ASSERT_EQ(len, len2);
	EXPECT_EQ(0, memcmp(img, img2, len));
	for (i = 0; i < 2000; i++) {
		key = key_of(i);
		EXPECT_EQ(kbloom_acbf_count(f, &key, 8),
			  kbloom_acbf_count(g, &key, 8));
	}
	hd = img;
	EXPECT_EQ(0, hd->h.flags);
	/* a stray 1 after the levels, checksum made right: no state */
	bad = malloc(len);
	ASSERT_NE(NULL, bad);
	memcpy(bad, img, len);
	bad[len - 1] |= 0x80;
	hd = (struct kbloom_image_head *)bad;
	hd->h.crc = kb_le32(kb_image_crc_head(hd, bad + sizeof(*hd),
					      len - sizeof(*hd)));
	EXPECT_EQ(-EBADMSG, kbloom_acbf_load(bad, len, &h));
	EXPECT_EQ(-EMSGSIZE, kbloom_acbf_load(img, len - 1, &h));
	EXPECT_EQ(NULL, h);
	kbloom_acbf_destroy(g);
	free(bad);
	free(img);
	free(img2);
	kbloom_acbf_destroy(f);
}

/*
 * m = 32768 bits, one superblock, planned so that the levels can fill the
 * array to its last bit: counts and reloads stay exact there.
 */
TEST(levels_fill_to_the_end)
{
	struct kbloom_acbf_stats st;
	struct kbloom_acbf *f, *g;
	size_t len;
	void *img;
	__u64 i, key;
	int ret = 0;

	ASSERT_EQ(0, kbloom_acbf_create(32768, 2, 8192, 0, NULL, &f));
	for (i = 0; !ret; i++) {
		key = key_of(i);
		ret = kbloom_acbf_add(f, &key, 8);
	}
	ASSERT_EQ(-ENOSPC, ret);
	ASSERT_EQ(0, kbloom_acbf_stats(f, &st));
	EXPECT_EQ(st.m, st.m1 + st.used);
	ASSERT_EQ(0, kbloom_acbf_save_alloc(f, &img, &len));
	ASSERT_EQ(0, kbloom_acbf_load(img, len, &g));
	for (i = 0; i < 8192; i++) {
		key = key_of(i);
		EXPECT_EQ(kbloom_acbf_count(f, &key, 8),
			  kbloom_acbf_count(g, &key, 8));
	}
	free(img);
	kbloom_acbf_destroy(g);
	kbloom_acbf_destroy(f);
}

TEST(bad_parameters)
{
	struct kbloom_opts o4 = { .counter_bits = 4 };
	struct kbloom_acbf *f = (void *)1;

	EXPECT_EQ(-EINVAL, kbloom_acbf_create(4096, 3, 2000, 0, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_acbf_create(4100, 3, 10, 0, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_acbf_create(4096, 0, 10, 0, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_acbf_create(4096, 33, 10, 0, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_acbf_create(4096, 3, 10, 1, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_acbf_create(4096, 3, 10, 33, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_acbf_create(4096, 3, 10, 0, &o4, &f));
	EXPECT_EQ((void *)1, f);
	ASSERT_EQ(0, kbloom_acbf_create(4096, 3, 10, 0, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_acbf_add(f, "", 0));
	EXPECT_EQ(-EINVAL, kbloom_acbf_count(f, NULL, 3));
	kbloom_acbf_destroy(f);
}

/* The keys of add_many_equals_adds: 1..3 copies each, a hot key 20 more. */
static __u64 batch_keys(__u64 *keys, __u64 n)
{
	__u64 i, c = 0, r;

	for (i = 0; i < n; i++)
		for (r = 0; r <= i % 3; r++)
			keys[c++] = key_of(i);
	for (r = 0; r < 20; r++)
		keys[c++] = key_of(7);
	return c;
}

/*
 * kbloom_acbf_add_many() makes the very filter of one add per key (image
 * bytes and statistics), on an empty filter and on top of earlier adds,
 * saturations included (4 levels); too many keys: ENOSPC, nothing changed.
 */
TEST(add_many_equals_adds)
{
	struct kbloom_opts o = { .seed = SEED, .name = "acbf2" };
	struct kbloom_acbf_stats sa, sb;
	struct kbloom_acbf *a, *b;
	void *ia, *ib, *ic;
	size_t la, lb, lc;
	__u64 *keys, c, i;

	keys = malloc(3 * 1500 * 8 + 20 * 8);
	ASSERT_NE(NULL, keys);
	c = batch_keys(keys, 1500);
	ASSERT_EQ(0, kbloom_acbf_create(64 * 1024, 4, c, 4, &o, &a));
	ASSERT_EQ(0, kbloom_acbf_create(64 * 1024, 4, c, 4, &o, &b));
	for (i = 0; i < c; i++)
		kbloom_acbf_add(a, &keys[i], 8);
	for (i = 0; i < 100; i++)
		kbloom_acbf_add(b, &keys[i], 8);
	EXPECT_EQ(1, kbloom_acbf_add_many(b, keys + 100, 8, c - 100));
	ASSERT_EQ(0, kbloom_acbf_save_alloc(a, &ia, &la));
	ASSERT_EQ(0, kbloom_acbf_save_alloc(b, &ib, &lb));
	ASSERT_EQ(la, lb);
	EXPECT_EQ(0, memcmp(ia, ib, la));
	ASSERT_EQ(0, kbloom_acbf_stats(a, &sa));
	ASSERT_EQ(0, kbloom_acbf_stats(b, &sb));
	EXPECT_EQ(0, memcmp(&sa, &sb, sizeof(sa)));
	EXPECT_LT(0, sa.saturations);
	EXPECT_EQ(kbloom_acbf_count(a, &keys[c - 1], 8),
		  kbloom_acbf_count(b, &keys[c - 1], 8));
	EXPECT_EQ(-ENOSPC, kbloom_acbf_add_many(b, keys, 8, c));
	EXPECT_EQ(-EINVAL, kbloom_acbf_add_many(b, keys, 0, 1));
	EXPECT_EQ(-EINVAL, kbloom_acbf_add_many(b, NULL, 8, 1));
	ASSERT_EQ(0, kbloom_acbf_save_alloc(b, &ic, &lc));
	ASSERT_EQ(lb, lc);
	EXPECT_EQ(0, memcmp(ib, ic, lb));
	free(ia);
	free(ib);
	free(ic);
	free(keys);
	kbloom_acbf_destroy(a);
	kbloom_acbf_destroy(b);
}

TEST_HARNESS_MAIN
