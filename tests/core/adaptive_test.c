// SPDX-License-Identifier: GPL-2.0
/*
 * The adaptive Bloom filter (libkbloom_survey.h, Matsumoto et al.):
 *   - a Zipf(1.1) stream of 200,000 keys over 100,000 ranks into an ABF of
 *     2^21 bits (k = 3) and a Count-Min sketch of the same bits
 *     (userspace/lib/sketch: 4 rows of 16,384 32-bit counters): neither
 *     counts under the truth; the mean absolute and relative errors of
 *     both are printed side by side (all keys seen, and the top 100);
 *   - a key added once runs over by the set probes after its base: the
 *     mean over-count of those keys is within +-10% of f / (1 - f) at the
 *     final fill f;
 *   - bad parameters are refused and change nothing.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom_survey.h"
#include "libkbloom_sketch.h"
#include "core_util.h"

#define RANKS		100000
#define STREAM		200000
#define M_BITS		(1ULL << 21)

static __u64 key_of(__u64 i)
{
	return cu_mix(i ^ 0xAB7F);
}

/* Zipf(1.1) over RANKS: the rank of a uniform draw, by its CDF. */
static __u32 zipf(const double *cdf, struct cu_rng *g)
{
	double u = (cu_next(g) >> 11) * (1.0 / 9007199254740992.0);
	__u32 lo = 0, hi = RANKS - 1, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void zipf_cdf(double *cdf)
{
	double s = 0;
	__u32 r;

	for (r = 0; r < RANKS; r++) {
		s += pow(r + 1.0, -1.1);
		cdf[r] = s;
	}
	for (r = 0; r < RANKS; r++)
		cdf[r] /= s;
}

struct errs {
	double abs, rel;
	__u64 n;
};

static void err_add(struct errs *e, __u64 est, __u64 truth)
{
	e->abs += (double)(est - truth);
	e->rel += (double)(est - truth) / truth;
	e->n++;
}

TEST(frequency_vs_countmin)
{
	static double cdf[RANKS];
	static __u32 truth[RANKS];
	struct kbloom_sketch_opts so = { .rows = 4, .width = 16384,
					 .counter_bits = 32,
					 .flags = KBLOOM_SKETCH_SEED, .seed = 5 };
	struct errs ea = { 0 }, ec = { 0 }, ta = { 0 }, tc = { 0 };
	double over = 0, f;
	__u64 key, a, c, single = 0;
	struct kbloom_sketch *cm;
	struct cu_rng g = { 0x21FF };
	struct kbloom_abf *abf;
	__u32 i, r;

	zipf_cdf(cdf);
	ASSERT_EQ(0, kbloom_abf_create(M_BITS, 3, NULL, &abf));
	ASSERT_EQ(0, kbloom_sketch_create(&so, &cm));
	for (i = 0; i < STREAM; i++) {
		r = zipf(cdf, &g);
		truth[r]++;
		key = key_of(r);
		ASSERT_EQ(0, kbloom_abf_add(abf, &key, 8));
		ASSERT_EQ(0, kbloom_sketch_add(cm, &key, 8, 1));
	}
	for (r = 0; r < RANKS; r++) {
		if (!truth[r])
			continue;
		key = key_of(r);
		a = kbloom_abf_count(abf, &key, 8);
		c = kbloom_sketch_count(cm, &key, 8);
		ASSERT_GE(a, truth[r]);
		ASSERT_GE(c, truth[r]);
		err_add(&ea, a, truth[r]);
		err_add(&ec, c, truth[r]);
		if (r < 100) {
			err_add(&ta, a, truth[r]);
			err_add(&tc, c, truth[r]);
		}
		if (truth[r] == 1) {
			over += (double)(a - 1);
			single++;
		}
	}
	f = (double)kbloom_abf_ones(abf) / M_BITS;
	TH_LOG("Zipf(1.1), %d keys over %d ranks (%llu seen), 2^21 bits each: mean abs error ABF %.3f, Count-Min %.3f; mean rel error ABF %.3f, Count-Min %.3f",
	       STREAM, RANKS, (unsigned long long)ea.n, ea.abs / ea.n,
	       ec.abs / ec.n, ea.rel / ea.n, ec.rel / ec.n);
	TH_LOG("top 100 keys: mean abs error ABF %.2f, Count-Min %.2f; ABF fill %.4f, saturations %llu",
	       ta.abs / ta.n, tc.abs / tc.n, f,
	       (unsigned long long)kbloom_abf_saturations(abf));
	TH_LOG("keys added once (%llu): mean over-count %.4f, f/(1-f) %.4f (%+.1f%%)",
	       (unsigned long long)single, over / single, f / (1 - f),
	       100 * (over / single / (f / (1 - f)) - 1));
	EXPECT_LT(fabs(over / single / (f / (1 - f)) - 1), 0.10);
	kbloom_sketch_free(cm);
	kbloom_abf_destroy(abf);
}

TEST(bad_parameters)
{
	struct kbloom_abf *f = NULL;
	__u64 key = 1;

	EXPECT_EQ(-EINVAL, kbloom_abf_create(1000, 3, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_abf_create(1024, 0, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_abf_create(1024, 33, NULL, &f));
	EXPECT_TRUE(f == NULL);
	ASSERT_EQ(0, kbloom_abf_create(1024, 3, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_abf_add(f, &key, 0));
	EXPECT_EQ(-EINVAL, kbloom_abf_add(f, &key, KBLOOM_KEY_MAX + 1));
	EXPECT_EQ(0, kbloom_abf_ones(f));
	EXPECT_EQ(0, kbloom_abf_count(f, &key, 8));
	EXPECT_EQ(0, kbloom_abf_add(f, &key, 8));
	EXPECT_EQ(1, kbloom_abf_count(f, &key, 8));
	EXPECT_EQ(0, kbloom_abf_add(f, &key, 8));
	EXPECT_EQ(2, kbloom_abf_count(f, &key, 8));
	kbloom_abf_destroy(f);
}

TEST_HARNESS_MAIN
