// SPDX-License-Identifier: GPL-2.0
/*
 * The weighted Bloom filter (libkbloom_survey.h, Bruck, Gao and Jiang):
 *   - the per-element optimiser kbloom_wbf_plan() reaches the minimum of
 *     FP(k) = sum_e r_e (1 - x_e) f^k_e found by brute force: over every
 *     k vector of 5-element cases, and over every per-class k vector of
 *     1,000-element cases of three classes (elements with one r and x);
 *   - a filter built with the planned k_e, 20,000 elements at 8 bits per
 *     expected member: the measured query-weighted false-positive rate is
 *     within +-10% of FP(k), printed next to the best uniform k;
 *   - bad parameters are refused and change nothing.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom_survey.h"
#include "core_util.h"

static double unit(struct cu_rng *g)
{
	return (cu_next(g) >> 11) * (1.0 / 9007199254740992.0);
}

/* Brute force over every k in 1..kmax^n. */
static double brute_all(const double *r, const double *x, size_t n, __u64 m,
			__u32 kmax)
{
	__u32 k[8] = { 0 };
	double best = INFINITY, v;
	size_t i;

	for (i = 0; i < n; i++)
		k[i] = 1;
	for (;;) {
		v = kbloom_wbf_rate(r, x, k, n, m);
		if (v < best)
			best = v;
		for (i = 0; i < n && k[i] == kmax; i++)
			k[i] = 1;
		if (i == n)
			return best;
		k[i]++;
	}
}

TEST(brute_force_small)
{
	struct cu_rng g = { 0x77EE };
	double r[5], x[5], got, want;
	__u32 k[5], c;
	size_t i;

	for (c = 0; c < 40; c++) {
		for (i = 0; i < 5; i++) {
			r[i] = unit(&g);
			x[i] = unit(&g);
		}
		ASSERT_EQ(0, kbloom_wbf_plan(r, x, 5, 4 + c, 8, k, &got));
		want = brute_all(r, x, 5, 4 + c, 8);
		EXPECT_LE(fabs(got - want), 1e-12 + 1e-9 * want)
			TH_LOG("case %u: plan %.12g brute force %.12g", c, got,
			       want);
		EXPECT_LE(fabs(got - kbloom_wbf_rate(r, x, k, 5, 4 + c)),
			  1e-15);
	}
}

#define N_1K	1000
#define KMAX_1K	16

/* FP of class k vector @kc over classes of @cnt elements. */
static double class_rate(const double *cr, const double *cx, const int *cnt,
			 const __u32 *kc, __u64 m)
{
	double K = 0, s = 0, f;
	int c;

	for (c = 0; c < 3; c++)
		K += cnt[c] * cx[c] * kc[c];
	f = -expm1(-K / m);
	for (c = 0; c < 3; c++)
		s += cnt[c] * cr[c] * (1 - cx[c]) * pow(f, kc[c]);
	return s;
}

static double brute_classes(const double *cr, const double *cx,
			    const int *cnt, __u64 m)
{
	double best = INFINITY, v;
	__u32 kc[3];

	for (kc[0] = 1; kc[0] <= KMAX_1K; kc[0]++)
		for (kc[1] = 1; kc[1] <= KMAX_1K; kc[1]++)
			for (kc[2] = 1; kc[2] <= KMAX_1K; kc[2]++) {
				v = class_rate(cr, cx, cnt, kc, m);
				if (v < best)
					best = v;
			}
	return best;
}

TEST(brute_force_1k)
{
	static double r[N_1K], x[N_1K];
	static __u32 k[N_1K];
	struct cu_rng g = { 0x1C1A55 };
	double cr[3], cx[3], got, want, norm;
	int cnt[3], c, i, t;
	__u64 m;

	for (t = 0; t < 10; t++) {
		cnt[0] = 100 + (int)(cu_next(&g) % 400);
		cnt[1] = 100 + (int)(cu_next(&g) % 400);
		cnt[2] = N_1K - cnt[0] - cnt[1];
		for (norm = 0, c = 0; c < 3; c++) {
			cr[c] = 0.05 + unit(&g);
			cx[c] = 0.02 + 0.96 * unit(&g);
			norm += cnt[c] * cr[c];
		}
		for (c = 0; c < 3; c++)
			cr[c] /= norm;
		for (i = 0, c = 0; c < 3; c++)
			for (int j = 0; j < cnt[c]; j++, i++) {
				r[i] = cr[c];
				x[i] = cx[c];
			}
		m = 2000 + cu_next(&g) % 8000;
		ASSERT_EQ(0, kbloom_wbf_plan(r, x, N_1K, m, KMAX_1K, k, &got));
		want = brute_classes(cr, cx, cnt, m);
		TH_LOG("case %d: m %llu, classes %d/%d/%d: plan %.9g, brute force %.9g (%+.2g)",
		       t, (unsigned long long)m, cnt[0], cnt[1], cnt[2], got,
		       want, got / want - 1);
		EXPECT_LT(fabs(got / want - 1), 1e-9);
	}
}

#define N_RATE		20000

static __u64 key_of(__u64 i)
{
	return cu_mix(i ^ 0xE1E7);
}

/* Three membership classes, query weights 1, 3 or 9 (normalised). */
static void rate_universe(double *r, double *x)
{
	static const double xs[] = { 0.8, 0.3, 0.02 }, ws[] = { 1, 3, 9 };
	struct cu_rng g = { 0xACE1 };
	double norm = 0;
	size_t e;

	for (e = 0; e < N_RATE; e++) {
		x[e] = xs[cu_next(&g) % 3];
		r[e] = ws[cu_next(&g) % 3];
		norm += r[e];
	}
	for (e = 0; e < N_RATE; e++)
		r[e] /= norm;
}

/* Query-weighted false positives of @f over the non-members. */
static double measured_rate(struct __test_metadata *_metadata,
			    const double *r, const double *x, const __u32 *k,
			    __u64 m, int trials)
{
	struct cu_rng g = { 0xBEEF };
	struct kbloom_opts o = { 0 };
	struct kbloom_wbf *f;
	double fp = 0;
	__u64 key;
	size_t e;
	int t;

	for (t = 0; t < trials; t++) {
		o.seed = 1000 + t;
		ASSERT_EQ(0, kbloom_wbf_create(m, &o, &f));
		__u8 *member = calloc(N_RATE, 1);

		for (e = 0; e < N_RATE; e++) {
			member[e] = unit(&g) < x[e];
			key = key_of(e);
			if (member[e])
				ASSERT_EQ(0, kbloom_wbf_add(f, &key, 8, k[e]));
		}
		for (e = 0; e < N_RATE; e++) {
			key = key_of(e);
			if (!member[e])
				fp += r[e] * kbloom_wbf_test(f, &key, 8, k[e]);
			else
				ASSERT_EQ(1, kbloom_wbf_test(f, &key, 8, k[e]));
		}
		free(member);
		kbloom_wbf_destroy(f);
	}
	return fp / trials;
}

TEST(expected_rate)
{
	static double r[N_RATE], x[N_RATE];
	static __u32 k[N_RATE], ku[N_RATE];
	double want, got, members = 0, uni, best_uni = INFINITY;
	__u32 j, kbest = 1;
	__u64 m;
	size_t e;

	rate_universe(r, x);
	for (e = 0; e < N_RATE; e++)
		members += x[e];
	m = ((__u64)(8 * members) + 63) / 64 * 64;
	ASSERT_EQ(0, kbloom_wbf_plan(r, x, N_RATE, m, 16, k, &want));
	for (j = 1; j <= 16; j++) {
		for (e = 0; e < N_RATE; e++)
			ku[e] = j;
		uni = kbloom_wbf_rate(r, x, ku, N_RATE, m);
		if (uni < best_uni) {
			best_uni = uni;
			kbest = j;
		}
	}
	got = measured_rate(_metadata, r, x, k, m, 48);
	TH_LOG("%d elements, 8 bits per expected member: measured %.4f%%, FP(k) %.4f%% (%+.1f%%); best uniform k=%u: %.4f%%",
	       N_RATE, 100 * got, 100 * want, 100 * (got / want - 1), kbest,
	       100 * best_uni);
	EXPECT_LT(fabs(got / want - 1), 0.10);
	EXPECT_LT(want, best_uni);
}

TEST(bad_parameters)
{
	double r[2] = { 0.5, 0.5 }, x[2] = { 0.5, 0.5 }, rate = -1;
	__u32 k[2] = { 7, 7 };
	struct kbloom_wbf *f = NULL;
	__u64 key = 1;

	EXPECT_EQ(-EINVAL, kbloom_wbf_create(100, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_wbf_create(0, NULL, &f));
	EXPECT_TRUE(f == NULL);
	EXPECT_EQ(-EINVAL, kbloom_wbf_plan(r, x, 0, 1024, 8, k, &rate));
	EXPECT_EQ(-EINVAL, kbloom_wbf_plan(r, x, 2, 0, 8, k, &rate));
	EXPECT_EQ(-EINVAL, kbloom_wbf_plan(r, x, 2, 1024, 0, k, &rate));
	EXPECT_EQ(-EINVAL, kbloom_wbf_plan(r, x, 2, 1024, 33, k, &rate));
	x[1] = 1.5;
	EXPECT_EQ(-EINVAL, kbloom_wbf_plan(r, x, 2, 1024, 8, k, &rate));
	x[1] = 0.5;
	r[0] = -1;
	EXPECT_EQ(-EINVAL, kbloom_wbf_plan(r, x, 2, 1024, 8, k, &rate));
	EXPECT_EQ(7, k[0]);
	EXPECT_EQ(7, k[1]);
	EXPECT_TRUE(rate == -1);
	ASSERT_EQ(0, kbloom_wbf_create(1024, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_wbf_add(f, &key, 8, 0));
	EXPECT_EQ(-EINVAL, kbloom_wbf_add(f, &key, 8, 33));
	EXPECT_EQ(-EINVAL, kbloom_wbf_add(f, &key, 0, 3));
	EXPECT_EQ(0, kbloom_wbf_test(f, &key, 8, 1));
	kbloom_wbf_destroy(f);
}

TEST_HARNESS_MAIN
