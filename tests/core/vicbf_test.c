// SPDX-License-Identifier: GPL-2.0
/*
 * The variable-increment counting filter (libkbloom_vicbf.h) at 32 bits
 * per key with 4-bit counters (m = 8 n counters):
 *   - the measured false-positive rate is within +-10% of the paper's
 *     formula (kb_vi_fpr_pico()) and at most 1/10 of a counting filter's
 *     of the same bytes (counting/4, m = 8 n, its best k = 6);
 *   - deleting half the keys leaves 0 false negatives;
 *   - after 10 full add/delete cycles of fresh keys the rate is at most
 *     twice the first with the default L (3 for 4-bit counters; with
 *     L = 4 three keys saturate a 4-bit counter: the rate's growth is
 *     logged, see churn_l4);
 *   - saturations are counted exactly;
 *   - images round-trip (version 3); bad geometry and bad images are
 *     refused with their errno.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_vicbf.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_variants.h"
#include "core_util.h"

#define N_KEYS		100000ULL
#define N_PROBES	8000000ULL
#define N_CHURN		50000ULL
#define P_1PCT		10000000000ULL
#define SEED		0x51CBF

static __u64 key_of(__u64 i)
{
	return cu_mix(i ^ 0xABCDEF);
}

static void add_range(struct __test_metadata *_metadata,
		      struct kbloom_vicbf *f, __u64 lo, __u64 hi)
{
	__u64 i, key;

	for (i = lo; i < hi; i++) {
		key = key_of(i);
		ASSERT_LE(0, kbloom_vicbf_add(f, &key, 8));
	}
}

/* Share of the keys [lo, hi) (never added) that test present. */
static double vi_rate(const struct kbloom_vicbf *f, __u64 lo, __u64 hi)
{
	__u64 i, key, fp = 0;

	for (i = lo; i < hi; i++) {
		key = key_of(i);
		fp += kbloom_vicbf_test(f, &key, 8) == 1;
	}
	return (double)fp / (hi - lo);
}

static double counting_rate(__u64 m, __u32 k, __u64 n, __u64 probes)
{
	struct kbloom_opts o = { .seed = SEED, .counter_bits = 4 };
	struct kbloom_filter *f;
	__u64 i, key, fp = 0;

	if (kbloom_create_mk(KBLOOM_TYPE_COUNTING, m, k, &o, &f))
		return -1;
	for (i = 0; i < n; i++) {
		key = key_of(i);
		kbloom_add(f, &key, 8);
	}
	for (i = 0; i < probes; i++) {
		key = key_of(n + i);
		fp += kbloom_test(f, &key, 8) == 1;
	}
	kbloom_destroy(f);
	return (double)fp / probes;
}

/* The formula in double precision, for the planner's fixed point. */
static double vi_formula(double m, __u32 k, double n, __u32 l)
{
	double lam = k * n / m, q;

	q = 1 - exp(-lam) * (1 + lam * (l - 1) / l +
			     lam * lam * (l * l - 1) / (12.0 * l * l));
	return pow(q, k);
}

FIXTURE(vi) {
	struct kbloom_vicbf *f;
};

FIXTURE_VARIANT(vi) {
	__u32 l;
	__u32 k;
};

/* L = 4 at its best k for 8 counters a key: lowest rate, not churn-safe */
FIXTURE_VARIANT_ADD(vi, l4_k6) {
	.l = 4,
	.k = 6,
};

/* L = 3: the default for 4-bit counters, churn-safe */
FIXTURE_VARIANT_ADD(vi, l3_k4) {
	.l = 3,
	.k = 4,
};

FIXTURE_SETUP(vi)
{
	struct kbloom_vicbf_opts o = { .seed = SEED, .vi_l = variant->l };

	ASSERT_EQ(0, kbloom_vicbf_create_mk(8 * N_KEYS, variant->k, &o,
					    &self->f));
}

FIXTURE_TEARDOWN(vi)
{
	kbloom_vicbf_destroy(self->f);
}

TEST_F(vi, rate_matches_formula_and_beats_counting)
{
	double meas, pred, cnt;

	add_range(_metadata, self->f, 0, N_KEYS);
	meas = vi_rate(self->f, N_KEYS, N_KEYS + N_PROBES);
	pred = kb_vi_fpr_pico(8 * N_KEYS, variant->k, N_KEYS, variant->l) *
	       1e-12;
	cnt = counting_rate(8 * N_KEYS, 6, N_KEYS, N_PROBES / 8);
	TH_LOG("L=%u k=%u, 32 bits/key: measured %.4f%%, formula %.4f%%, counting/4 k=6 %.3f%% (%.0fx)",
	       variant->l, variant->k, meas * 100, pred * 100, cnt * 100,
	       cnt / meas);
	EXPECT_LE(fabs(meas - pred), 0.1 * pred);
	EXPECT_LE(meas, cnt / 10);
}

TEST_F(vi, delete_half_no_false_negative)
{
	struct kbloom_vicbf_stats st;
	__u64 i, key, fn = 0;

	add_range(_metadata, self->f, 0, N_KEYS);
	for (i = 0; i < N_KEYS; i += 2) {
		key = key_of(i);
		ASSERT_EQ(0, kbloom_vicbf_del(self->f, &key, 8));
	}
	for (i = 1; i < N_KEYS; i += 2) {
		key = key_of(i);
		fn += kbloom_vicbf_test(self->f, &key, 8) != 1;
	}
	EXPECT_EQ(0, fn);
	ASSERT_EQ(0, kbloom_vicbf_stats(self->f, &st));
	EXPECT_EQ(N_KEYS / 2, st.inserted);
	EXPECT_EQ(N_KEYS / 2, st.deleted);
}

/*
 * A filter of 8 counters a key with increments in [@l, 2 @l) and @k
 * probes: fill with fresh keys, measure, delete them all; 11 fills.  The
 * rates of the first and the last fill in *first and *last.
 */
static void churn(struct __test_metadata *_metadata, __u32 l, __u32 k,
		  double *first, double *last)
{
	struct kbloom_vicbf_opts o = { .seed = SEED, .vi_l = l };
	struct kbloom_vicbf_stats st;
	struct kbloom_vicbf *f;
	__u64 c, i, key, base;

	ASSERT_EQ(0, kbloom_vicbf_create_mk(8 * N_CHURN, k, &o, &f));
	for (c = 0; c <= 10; c++) {
		base = c * N_CHURN;
		add_range(_metadata, f, base, base + N_CHURN);
		*last = vi_rate(f, 1ULL << 40, (1ULL << 40) + 1000000);
		if (!c)
			*first = *last;
		for (i = base; i < base + N_CHURN; i++) {
			key = key_of(i);
			ASSERT_EQ(0, kbloom_vicbf_del(f, &key, 8));
		}
	}
	/* every key deleted: what is left are saturated counters */
	ASSERT_EQ(0, kbloom_vicbf_stats(f, &st));
	EXPECT_EQ(st.ones, st.saturated);
	EXPECT_LT(0, st.saturations);
	TH_LOG("L=%u k=%u after 10 cycles: %.4f%% vs first %.4f%% (%.2fx), %.2f%% of counters saturated",
	       st.vi_l, k, *last * 100, *first * 100, *last / *first,
	       100.0 * st.saturated / st.m);
	kbloom_vicbf_destroy(f);
}

/* The default L of 4-bit counters (vi_l 0) at its best k, 4. */
TEST(churn_default)
{
	double first, last;

	ASSERT_EQ(3, kb_vi_l_default(4));
	ASSERT_EQ(4, kb_vi_l_default(8));
	churn(_metadata, 0, 4, &first, &last);
	EXPECT_LE(last, 2 * first);
}

/* Logged, not a bound: with L = 4 the rate grows with the saturations. */
TEST(churn_l4)
{
	double first, last;

	churn(_metadata, 4, 6, &first, &last);
	EXPECT_LE(first, last);
}

/* Every (add, probe) that reaches or finds the maximum is counted. */
TEST(saturations_counted)
{
	struct kbloom_vicbf_opts o = { .seed = SEED };
	__u64 model[64] = { 0 }, expect = 0, h;
	struct kbloom_vicbf_stats st;
	struct kbloom_vicbf *f;
	__u32 a, i, j, v, ret;
	struct kb_probe p;

	ASSERT_EQ(0, kbloom_vicbf_create_mk(64, 3, &o, &f));
	h = kb_hash(KBLOOM_HASH_FAST, SEED, "hot", 3);
	for (a = 0; a < 5; a++) {
		ret = 0;
		kb_probe_init(&p, h);
		for (i = 0; i < 3; i++) {
			j = kb_vi_next(&p, 64, kb_vi_l_default(4), &v);
			model[j] = model[j] + v >= 15 ? 15 : model[j] + v;
			ret |= model[j] == 15;
			expect += model[j] == 15;
		}
		EXPECT_EQ(ret, kbloom_vicbf_add(f, "hot", 3));
	}
	ASSERT_EQ(0, kbloom_vicbf_stats(f, &st));
	EXPECT_EQ(expect, st.saturations);
	EXPECT_LE(3, st.saturations);	/* 5 adds of v >= 4 saturate all */
	EXPECT_EQ(st.ones, st.saturated);
	for (a = 0; a < 5; a++)
		EXPECT_EQ(0, kbloom_vicbf_del(f, "hot", 3));
	EXPECT_EQ(1, kbloom_vicbf_test(f, "hot", 3));	/* stuck, never FN */
	kbloom_vicbf_destroy(f);
}

/* Adds and deletes keep every counter at 0, >= L or saturated. */
TEST(counter_steps_keep_invariant)
{
	__u32 cb, l, v, c, r, shift = 16;
	__u64 w, max;

	for (cb = 4; cb <= 8; cb += 4) {
		max = kb_ctr_max(cb);
		for (l = 2; l <= (1U << (cb - 2)); l++)
			for (v = l; v < 2 * l; v++)
				for (c = 0; c <= max; c++) {
					if (c && c < l)
						continue;
					w = (__u64)c << shift | 0xF00F;
					w = kb_vi_ctr_sub(w, shift, cb, v, l);
					r = kb_ctr_get(w, shift, cb);
					ASSERT_TRUE(!r || r >= l);
					ASSERT_EQ(0xF00F, w & 0xFFFF);
					w = (__u64)c << shift;
					r = kb_ctr_get(kb_vi_ctr_add(w, shift, cb, v),
						       shift, cb);
					ASSERT_TRUE(kb_vi_match(r, v, l, cb));
				}
	}
}

TEST(image_round_trip)
{
	struct kbloom_vicbf_opts o = { .seed = SEED, .name = "vi.one",
				       .hash_id = KBLOOM_HASH_SIPHASH13 };
	struct kbloom_vicbf_stats a, b;
	struct kbloom_vicbf *f, *g;
	struct kbloom_filter *cf;
	struct kbloom_image_hdr h;
	void *img, *img2;
	size_t len, len2;
	__u64 i, key;

	ASSERT_EQ(0, kbloom_vicbf_create(20000, P_1PCT, &o, &f));
	add_range(_metadata, f, 0, 20000);
	for (i = 0; i < 4; i++)
		kbloom_vicbf_add(f, "hot", 3);
	ASSERT_EQ(0, kbloom_vicbf_save_alloc(f, &img, &len));
	ASSERT_EQ(kbloom_vicbf_image_size(f), len);
	EXPECT_EQ(0, kb_image_verify(img, len));
	memcpy(&h, img, sizeof(h));
	EXPECT_EQ(KBLOOM_IMAGE_VERSION_GEOM, kb_le16(h.version));
	EXPECT_EQ(KBLOOM_TYPE_VI_COUNTING, h.type);
	EXPECT_EQ(-EOPNOTSUPP, kbloom_load(img, len, &cf));
	ASSERT_EQ(0, kbloom_vicbf_load(img, len, &g));
	ASSERT_EQ(0, kbloom_vicbf_save_alloc(g, &img2, &len2));
	ASSERT_EQ(len, len2);
	EXPECT_EQ(0, memcmp(img, img2, len));
	ASSERT_EQ(0, kbloom_vicbf_stats(f, &a));
	ASSERT_EQ(0, kbloom_vicbf_stats(g, &b));
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
	EXPECT_LT(0, b.saturations);
	for (i = 0; i < 200000; i++) {
		key = key_of(i);
		ASSERT_EQ(kbloom_vicbf_test(f, &key, 8),
			  kbloom_vicbf_test(g, &key, 8));
	}
	free(img);
	free(img2);
	kbloom_vicbf_destroy(f);
	kbloom_vicbf_destroy(g);
}

TEST(bad_geometry)
{
	struct kbloom_vicbf_opts o = { .seed = SEED };
	struct kbloom_vicbf *f = NULL;
	static const struct { __u64 m; __u32 k, l, cb; } bad[] = {
		{ 1024, 4, 1, 4 },	/* L < 2 */
		{ 1024, 4, 5, 4 },	/* L > 2^(4 - 2) */
		{ 1024, 4, 65, 8 },	/* L > 2^(8 - 2) */
		{ 1024, 4, 4, 6 },	/* counter width */
		{ 1024, 4, 4, 16 },
		{ 1024, 0, 4, 4 },	/* k */
		{ 1024, 33, 4, 4 },
		{ 0, 4, 4, 4 },		/* m */
		{ 1000, 4, 4, 4 },	/* not whole words */
		{ 32, 4, 4, 4 },
		{ (1ULL << 32) + 64, 4, 4, 4 },
	};
	__u32 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o.vi_l = bad[i].l;
		o.counter_bits = bad[i].cb;
		EXPECT_EQ(-EINVAL, kbloom_vicbf_create_mk(bad[i].m, bad[i].k,
							  &o, &f));
		EXPECT_EQ(NULL, f);
	}
	o.vi_l = 0;
	o.counter_bits = 0;
	EXPECT_EQ(-EINVAL, kbloom_vicbf_create(0, P_1PCT, &o, &f));
	EXPECT_EQ(-EINVAL, kbloom_vicbf_create(1000, 1, &o, &f));
	EXPECT_EQ(-E2BIG, kbloom_vicbf_create(1ULL << 40, 1000, &o, &f));
	o.reserved = 1;
	EXPECT_EQ(-EINVAL, kbloom_vicbf_create(1000, P_1PCT, &o, &f));
	o.reserved = 0;
	o.hash_id = 3;
	EXPECT_EQ(-EINVAL, kbloom_vicbf_create(1000, P_1PCT, &o, &f));
	o.hash_id = 0;
	o.name = "bad name";
	EXPECT_EQ(-EINVAL, kbloom_vicbf_create(1000, P_1PCT, &o, &f));
	EXPECT_EQ(NULL, f);
	o.name = NULL;
	o.vi_l = 64;
	o.counter_bits = 8;
	ASSERT_EQ(0, kbloom_vicbf_create_mk(1024, 4, &o, &f));
	EXPECT_EQ(-EINVAL, kbloom_vicbf_add(f, "", 0));
	EXPECT_EQ(-EINVAL, kbloom_vicbf_test(f, NULL, 1));
	EXPECT_EQ(-ENOENT, kbloom_vicbf_del(f, "absent", 6));
	kbloom_vicbf_destroy(f);
}

/* @img with its checksum made right again. */
static void fix_crc(void *img, size_t len)
{
	struct kbloom_image_head hd;

	memcpy(&hd, img, sizeof(hd));
	hd.h.crc = kb_le32(kb_image_crc_head(&hd, (__u8 *)img + sizeof(hd),
					     len - sizeof(hd)));
	memcpy(img, &hd, sizeof(hd));
}

/* Edit the head of a copy of @img, fix the crc, try to load it. */
static int load_edited(const void *img, size_t len, size_t off,
		       const void *val, size_t n, bool crc)
{
	struct kbloom_vicbf *g = NULL;
	__u8 *c = malloc(len);
	int ret;

	memcpy(c, img, len);
	memcpy(c + off, val, n);
	if (crc)
		fix_crc(c, len);
	ret = kbloom_vicbf_load(c, len, &g);
	free(c);
	kbloom_vicbf_destroy(g);
	return ret ? ret : (g ? 0 : -1);
}

#define HOFF(f)	offsetof(struct kbloom_image_hdr, f)
#define GOFF(f)	(KBLOOM_IMAGE_HDR_LEN + offsetof(struct kbloom_image_geom, f))

TEST(bad_images)
{
	struct kbloom_vicbf_opts o = { .seed = SEED };
	__u8 b5 = 5, b1 = 1, b6 = 6, b4 = 4, cnt = 3, x = 0xFF;
	__u64 one = 1, m100 = 100;
	__u32 zero = 0;
	struct kbloom_vicbf *f, *g = NULL;
	__u16 v2 = 2;
	void *img;
	size_t len;

	ASSERT_EQ(0, kbloom_vicbf_create_mk(1024, 4, &o, &f));
	add_range(_metadata, f, 0, 50);
	ASSERT_EQ(0, kbloom_vicbf_save_alloc(f, &img, &len));
	EXPECT_EQ(0, load_edited(img, len, 0, img, 1, false));
	EXPECT_EQ(-EMSGSIZE, kbloom_vicbf_load(img, 100, &g));
	EXPECT_EQ(-EMSGSIZE, kbloom_vicbf_load(img, len - 8, &g));
	EXPECT_EQ(NULL, g);
	EXPECT_EQ(-EBADMSG, load_edited(img, len, len - 1, &x, 1, false));
	EXPECT_EQ(-EBADMSG, load_edited(img, len, HOFF(magic), &x, 1, true));
	EXPECT_EQ(-EBADMSG, load_edited(img, len, GOFF(vi_l), &b5, 1, true));
	EXPECT_EQ(-EBADMSG, load_edited(img, len, GOFF(vi_l), &b1, 1, true));
	EXPECT_EQ(-EBADMSG, load_edited(img, len, HOFF(counter_bits), &b6, 1,
					true));
	EXPECT_EQ(-EBADMSG, load_edited(img, len, GOFF(fp_bits), &b4, 1, true));
	EXPECT_EQ(-EBADMSG, load_edited(img, len, GOFF(reserved), &one, 8,
					true));
	EXPECT_EQ(-EBADMSG, load_edited(img, len, GOFF(kicks), &one, 8, true));
	EXPECT_EQ(-EBADMSG, load_edited(img, len, HOFF(flags), &b1, 1, true));
	EXPECT_EQ(-EBADMSG, load_edited(img, len, HOFF(m), &m100, 8, true));
	EXPECT_EQ(-EBADMSG, load_edited(img, len, HOFF(k), &zero, 4, true));
	EXPECT_EQ(-EBADMSG, load_edited(img, len, HOFF(version), &v2, 2, true));
	/* a counter in [1, L): no adds and deletes leave one */
	EXPECT_EQ(-EBADMSG, load_edited(img, len, len - 8, &b1, 1, true));
	EXPECT_EQ(0, load_edited(img, len, len - 8, &b4, 1, true));
	EXPECT_EQ(-EOPNOTSUPP, load_edited(img, len, HOFF(hash_id), &x, 1,
					   true));
	/* a classic type in a version-3 image; a later type's geometry */
	EXPECT_EQ(-EBADMSG, load_edited(img, len, HOFF(type), &cnt, 1, true));
	EXPECT_EQ(-EBADMSG, load_edited(img, len, HOFF(type), &b4, 1, true));
	free(img);
	kbloom_vicbf_destroy(f);
}

TEST(planner)
{
	struct kb_plan vi, cnt;
	double pred, want;
	__u32 l, k;

	ASSERT_EQ(0, kb_vi_plan(N_KEYS, P_1PCT / 10, 0, 0, &vi));
	ASSERT_EQ(0, kb_plan(KBLOOM_TYPE_COUNTING, N_KEYS, P_1PCT / 10, 4,
			     &cnt));
	TH_LOG("n=1e5 p=0.1%%: VI m=%llu k=%u %.2f bits/key; counting/4 %.2f bits/key",
	       (unsigned long long)vi.m, vi.k, vi.bytes * 8.0 / N_KEYS,
	       cnt.bytes * 8.0 / N_KEYS);
	EXPECT_LE(vi.fpr_pico, P_1PCT / 10);
	EXPECT_GT(kb_vi_fpr_pico(vi.m - 64, vi.k, N_KEYS, 3), P_1PCT / 10);
	EXPECT_LT(vi.bytes * 2, cnt.bytes);
	for (l = 2; l <= 64; l *= 2) {
		for (k = 1; k <= 32; k += 5) {
			pred = kb_vi_fpr_pico(1 << 20, k, 150000, l) * 1e-12;
			want = vi_formula(1 << 20, k, 150000, l);
			EXPECT_LE(fabs(pred - want), want * 1e-5 + 1e-12);
		}
	}
}

TEST_HARNESS_MAIN
