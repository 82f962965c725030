// SPDX-License-Identifier: GPL-2.0
/*
 * The complement Bloom filter (libkbloom_survey.h; Lim, Lee, Yim 2015):
 * a universe U of 100k keys, a set S of 20k of them, a blocked filter of
 * S and one of U \ S.
 *   - every verdict is right: ABSENT only for keys outside S, PRESENT
 *     only for keys of S, and kbloom_comp_query() with the exact set
 *     answers membership exactly, calling the exact lookup only for
 *     UNSURE keys;
 *   - the share of S-filter positives resolved without the exact lookup
 *     is within +-10% of n_S (1 - f_C) / (n_S + n_C f_S), for a
 *     complement filter at 1% and at 20%;
 *   - the two filters save and load as blocked images;
 *   - bad parameters are refused with their errno and change nothing.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_survey.h"
#include "core_util.h"

#define N_U		100000ULL
#define N_S		20000ULL
#define P_1PCT		10000000000ULL

static __u64 key_of(__u64 i)
{
	return cu_mix(i ^ 0xC0417E);
}

/* Keys i < N_S are S, the rest of [0, N_U) is U \ S. */
static int exact_in_s(void *ctx, const void *key, __u32 len)
{
	__u64 *calls = ctx, k;
	__u64 i;

	(*calls)++;
	memcpy(&k, key, sizeof(k));
	for (i = 0; i < N_S; i++)
		if (key_of(i) == k)
			return 1;
	return 0;
}

/* The exact set as a bitmap of the universe, for the bulk checks. */
static int in_s(__u64 i)
{
	return i < N_S;
}

static void build(struct __test_metadata *_metadata, __u64 pc_pico,
		  struct kbloom_comp **fp)
{
	struct kbloom_opts o = { .seed = 0xC0 };
	struct kbloom_comp *f;
	__u64 i, key;

	ASSERT_EQ(0, kbloom_comp_create(N_S, P_1PCT, N_U - N_S, pc_pico, &o,
					&f));
	*fp = f;
	for (i = 0; i < N_U; i++) {
		key = key_of(i);
		ASSERT_EQ(0, in_s(i) ? kbloom_comp_add(f, &key, 8) :
				       kbloom_comp_add_complement(f, &key, 8));
	}
}

FIXTURE(comp) {
	struct kbloom_comp *f;
};

FIXTURE_VARIANT(comp) {
	__u64 pc_pico;
};

FIXTURE_VARIANT_ADD(comp, complement_1pct) {
	.pc_pico = P_1PCT,
};

FIXTURE_VARIANT_ADD(comp, complement_20pct) {
	.pc_pico = 20 * P_1PCT,
};

FIXTURE_SETUP(comp)
{
	build(_metadata, variant->pc_pico, &self->f);
}

FIXTURE_TEARDOWN(comp)
{
	kbloom_comp_destroy(self->f);
}

TEST_F(comp, resolved_share_and_no_wrong_verdict)
{
	__u64 i, key, n[3] = { 0 }, wrong = 0, positives;
	struct kbloom_comp_stats st;
	double meas;
	int v;

	for (i = 0; i < N_U; i++) {
		key = key_of(i);
		v = kbloom_comp_classify(self->f, &key, 8);
		ASSERT_GE(v, 0);
		ASSERT_LE(v, 2);
		n[v]++;
		wrong += (v == KBLOOM_COMP_ABSENT && in_s(i)) ||
			 (v == KBLOOM_COMP_PRESENT && !in_s(i));
	}
	positives = n[KBLOOM_COMP_PRESENT] + n[KBLOOM_COMP_UNSURE];
	meas = (double)n[KBLOOM_COMP_PRESENT] / positives;
	ASSERT_EQ(0, kbloom_comp_stats(self->f, &st));
	TH_LOG("complement at %.0f%%: %llu of %llu positives resolved without the exact lookup: %.4f, formula n_S(1-f_C)/(n_S+n_C f_S) %.4f (f_S %.3f%%, f_C %.3f%%; %+.1f%%), %llu wrong verdicts, %.1f bits/key of U",
	       variant->pc_pico / 1e10,
	       (unsigned long long)n[KBLOOM_COMP_PRESENT],
	       (unsigned long long)positives, meas, st.resolved,
	       st.fpr_set * 100, st.fpr_comp * 100,
	       (meas / st.resolved - 1) * 100, (unsigned long long)wrong,
	       st.bytes * 8.0 / N_U);
	EXPECT_EQ(0, wrong);
	EXPECT_LE(fabs(meas - st.resolved), 0.1 * st.resolved);
	EXPECT_EQ(N_S, st.set_keys);
	EXPECT_EQ(N_U - N_S, st.comp_keys);
}

TEST_F(comp, query_calls_exact_only_when_unsure)
{
	__u64 i, key, calls = 0, unsure = 0, wrong = 0;
	struct kbloom_comp_stats st;
	int v;

	/* the exact lookup is a scan of S: every 50th key of U is enough */
	for (i = 0; i < N_U; i += 50) {
		key = key_of(i);
		unsure += kbloom_comp_classify(self->f, &key, 8) ==
			  KBLOOM_COMP_UNSURE;
		v = kbloom_comp_query(self->f, &key, 8, exact_in_s, &calls);
		ASSERT_GE(v, 0);
		wrong += v != in_s(i);
	}
	ASSERT_EQ(0, kbloom_comp_stats(self->f, &st));
	TH_LOG("%llu queries: %llu absent, %llu present, %llu exact",
	       (unsigned long long)st.queries, (unsigned long long)st.absent,
	       (unsigned long long)st.present, (unsigned long long)st.exact);
	EXPECT_EQ(0, wrong);
	EXPECT_EQ(unsure, calls);
	EXPECT_EQ(calls, st.exact);
	EXPECT_EQ(N_U / 50, st.queries);
	EXPECT_EQ(st.queries, st.absent + st.present + st.exact);
}

static int exact_fails(void *ctx, const void *key, __u32 len)
{
	return -EIO;
}

TEST(filters_save_as_blocked_images)
{
	struct kbloom_filter *s, *c;
	struct kbloom_stats st;
	struct kbloom_comp *f;
	__u64 i, key, diff = 0;
	size_t len;
	void *img;
	int v = -1;

	build(_metadata, P_1PCT, &f);
	ASSERT_EQ(0, kbloom_save_alloc(kbloom_comp_filter(f, false), &img,
				       &len));
	ASSERT_EQ(0, kbloom_load(img, len, &s));
	free(img);
	ASSERT_EQ(0, kbloom_save_alloc(kbloom_comp_filter(f, true), &img,
				       &len));
	ASSERT_EQ(0, kbloom_load(img, len, &c));
	free(img);
	ASSERT_EQ(0, kbloom_stats(s, &st));
	EXPECT_EQ(KBLOOM_TYPE_BLOCKED, st.type);
	for (i = 0; i < N_U; i++) {
		key = key_of(i);
		v = kbloom_comp_classify(f, &key, 8);
		diff += v != (!kbloom_test(s, &key, 8) ? KBLOOM_COMP_ABSENT :
			      !kbloom_test(c, &key, 8) ? KBLOOM_COMP_PRESENT :
							 KBLOOM_COMP_UNSURE);
	}
	EXPECT_EQ(0, diff);
	/* an exact lookup's error is returned and not counted */
	for (i = 0; i < N_U && v != KBLOOM_COMP_UNSURE; i++) {
		key = key_of(i);
		v = kbloom_comp_classify(f, &key, 8);
	}
	ASSERT_EQ(KBLOOM_COMP_UNSURE, v);
	EXPECT_EQ(-EIO, kbloom_comp_query(f, &key, 8, exact_fails, NULL));
	kbloom_destroy(s);
	kbloom_destroy(c);
	kbloom_comp_destroy(f);
}

TEST(bad_parameters_refused)
{
	struct kbloom_opts o = { .counter_bits = 4 };
	__u8 key[KBLOOM_KEY_MAX + 1] = { 0 };
	struct kbloom_comp_stats st;
	struct kbloom_comp *f = NULL;

	EXPECT_EQ(-EINVAL, kbloom_comp_create(0, P_1PCT, 10, P_1PCT, NULL,
					      &f));
	EXPECT_EQ(-EINVAL, kbloom_comp_create(10, P_1PCT, 0, P_1PCT, NULL,
					      &f));
	EXPECT_EQ(-EINVAL, kbloom_comp_create(10, 0, 10, P_1PCT, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_comp_create(10, P_1PCT, 10,
					      KBLOOM_P_TARGET_MAX + 1, NULL,
					      &f));
	EXPECT_EQ(-EINVAL, kbloom_comp_create(10, P_1PCT, 10, P_1PCT, &o, &f));
	EXPECT_EQ(-EINVAL, kbloom_comp_create(10, P_1PCT, 10, P_1PCT, NULL,
					      NULL));
	EXPECT_EQ(NULL, f);
	EXPECT_EQ(-EINVAL, kbloom_comp_add(NULL, key, 8));
	EXPECT_EQ(-EINVAL, kbloom_comp_classify(NULL, key, 8));
	EXPECT_EQ(-EINVAL, kbloom_comp_stats(NULL, &st));
	EXPECT_EQ(NULL, kbloom_comp_filter(NULL, true));

	ASSERT_EQ(0, kbloom_comp_create(10, P_1PCT, 10, P_1PCT, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_comp_add(f, key, 0));
	EXPECT_EQ(-EINVAL, kbloom_comp_add(f, key, KBLOOM_KEY_MAX + 1));
	EXPECT_EQ(-EINVAL, kbloom_comp_add_complement(f, NULL, 8));
	EXPECT_EQ(-EINVAL, kbloom_comp_classify(f, key, 0));
	EXPECT_EQ(-EINVAL, kbloom_comp_query(f, key, 0, exact_in_s, NULL));
	EXPECT_EQ(-EINVAL, kbloom_comp_query(f, key, 8, NULL, NULL));
	ASSERT_EQ(0, kbloom_comp_stats(f, &st));
	EXPECT_EQ(0, st.set_keys);
	EXPECT_EQ(0, st.comp_keys);
	EXPECT_EQ(0, st.queries);
	EXPECT_EQ(KBLOOM_COMP_ABSENT, kbloom_comp_classify(f, key, 8));
	kbloom_comp_destroy(f);
}

TEST_HARNESS_MAIN
