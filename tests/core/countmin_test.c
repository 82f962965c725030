// SPDX-License-Identifier: GPL-2.0
/*
 * Count-Min sketch (spectral Bloom filter) of libkbloom_sketch: the
 * planner, the (epsilon, delta) guarantee on a Zipf stream, minimal
 * increase against minimum selection, per-CPU sketches summed against one
 * shared sketch, saturation, delete, images and bad geometry.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_sketch.h"
#include "uapi/kbloom_variants.h"
#include "core_util.h"

#define EPS_01PCT	1000000000ULL	/* 0.1% in pico units */
#define DELTA_1PCT	10000000000ULL	/* 1% */
#define ZIPF_S		1.1
#define ZIPF_RANKS	(1U << 20)
#define ZIPF_EVENTS	10000000U
#define SEED		0x5EEDC0DEULL
/* image offsets of the tail's tables and the base header's counter_bits */
#define TABLES_OFF	(KBLOOM_IMAGE_HDR_LEN + 2)
#define CBITS_OFF	10

struct zipf {
	double *cdf;
	__u32 *truth;
	__u32 *stream;
	__u32 n;
};

static __u32 zipf_draw(const struct zipf *z, struct cu_rng *r)
{
	double u = (double)(cu_next(r) >> 11) / 9007199254740992.0;
	__u32 lo = 0, hi = ZIPF_RANKS - 1, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (z->cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* @n events of Zipf(ZIPF_S) over ZIPF_RANKS ranks, and their counts. */
static int zipf_make(struct zipf *z, __u32 n)
{
	struct cu_rng r = { .s = 0x21BF1A7ULL };
	double sum = 0;
	__u32 i;

	z->n = n;
	z->cdf = calloc(ZIPF_RANKS, sizeof(*z->cdf));
	z->truth = calloc(ZIPF_RANKS, sizeof(*z->truth));
	z->stream = calloc(n, sizeof(*z->stream));
	if (!z->cdf || !z->truth || !z->stream)
		return -ENOMEM;
	for (i = 0; i < ZIPF_RANKS; i++) {
		sum += pow(i + 1.0, -ZIPF_S);
		z->cdf[i] = sum;
	}
	for (i = 0; i < ZIPF_RANKS; i++)
		z->cdf[i] /= sum;
	for (i = 0; i < n; i++) {
		z->stream[i] = zipf_draw(z, &r);
		z->truth[z->stream[i]]++;
	}
	return 0;
}

static void zipf_free(struct zipf *z)
{
	free(z->cdf);
	free(z->truth);
	free(z->stream);
}

static int sketch_new(__u32 update, __u32 cb, struct kbloom_sketch **s)
{
	struct kbloom_sketch_opts o = {
		.epsilon_pico = EPS_01PCT, .delta_pico = DELTA_1PCT,
		.update = update, .counter_bits = cb,
		.flags = KBLOOM_SKETCH_SEED, .seed = SEED,
	};

	return kbloom_sketch_create(&o, s);
}

static __u64 rank_key(__u32 rank)
{
	return cu_mix(rank);
}

static void feed(struct kbloom_sketch *s, const struct zipf *z)
{
	__u64 key;
	__u32 i;

	for (i = 0; i < z->n; i++) {
		key = rank_key(z->stream[i]);
		kbloom_sketch_add(s, &key, sizeof(key), 1);
	}
}

static __u64 estimate(const struct kbloom_sketch *s, __u32 rank)
{
	__u64 key = rank_key(rank);

	return kbloom_sketch_count(s, &key, sizeof(key));
}

TEST(plan_matches_the_formulas)
{
	struct kb_shape s;
	double eps, delta;
	__u64 e, d;

	ASSERT_EQ(0, kb_cm_plan(EPS_01PCT, DELTA_1PCT, 0, 0, &s));
	EXPECT_EQ(2719, s.buckets);
	EXPECT_EQ(5, s.tables);
	EXPECT_EQ(5, s.k);
	EXPECT_EQ(5 * 2719, s.m);
	EXPECT_EQ(32, s.counter_bits);
	EXPECT_EQ(KB_CM_ALL, s.update);
	for (e = KBLOOM_P_TARGET_MIN; e <= KBLOOM_P_TARGET_MAX; e = e * 3 + 7) {
		eps = (double)e / KBLOOM_P_UNIT;
		EXPECT_EQ(fmax(KB_CM_WIDTH_MIN, ceil(M_E / eps)),
			  (double)kb_cm_width(e));
	}
	for (d = 200000; d <= KBLOOM_P_TARGET_MAX; d = d * 3 + 11) {
		delta = (double)d / KBLOOM_P_UNIT;
		EXPECT_EQ(ceil(log(1 / delta)), (double)kb_cm_rows(d));
	}
	EXPECT_EQ(0, kb_cm_rows(100000));	/* 1e-7: needs 17 rows */
	EXPECT_EQ(-EINVAL, kb_cm_plan(KBLOOM_P_TARGET_MIN - 1, DELTA_1PCT, 0,
				      0, &s));
	EXPECT_EQ(-EINVAL, kb_cm_plan(EPS_01PCT, KBLOOM_P_TARGET_MAX + 1, 0,
				      0, &s));
	EXPECT_EQ(-EINVAL, kb_cm_plan(EPS_01PCT, DELTA_1PCT, 8, 0, &s));
	EXPECT_EQ(-EINVAL, kb_cm_plan(EPS_01PCT, DELTA_1PCT, 0, 3, &s));
	/* epsilon 1e-9: w = 2718281829, two rows are over 2^32 counters */
	EXPECT_EQ(-E2BIG, kb_cm_plan(KBLOOM_P_TARGET_MIN, 300000000000ULL, 0,
				     0, &s));
}

/*
 * epsilon = 0.1%, delta = 1%: at least 99% of the stream's keys within
 * epsilon N of the truth, none below it.
 */
TEST(zipf_within_epsilon_n)
{
	__u64 est, bound = ZIPF_EVENTS / 1000, seen = 0, within = 0, err = 0;
	struct kbloom_sketch *s;
	struct zipf z = {};
	__u32 r;

	ASSERT_EQ(0, zipf_make(&z, ZIPF_EVENTS));
	ASSERT_EQ(0, sketch_new(KB_CM_ALL, 32, &s));
	feed(s, &z);
	for (r = 0; r < ZIPF_RANKS; r++) {
		if (!z.truth[r])
			continue;
		est = estimate(s, r);
		ASSERT_GE(est, z.truth[r]);
		seen++;
		within += est - z.truth[r] <= bound;
		err += est - z.truth[r];
	}
	TH_LOG("%llu keys, N = %u, eps N = %llu: %.4f%% within, mean error %.1f",
	       seen, ZIPF_EVENTS, bound, 100.0 * within / seen,
	       (double)err / seen);
	EXPECT_GE(within * 100, seen * 99);
	kbloom_sketch_free(s);
	zipf_free(&z);
}

/* The same stream: minimal increase is never above minimum selection. */
TEST(min_inc_never_worse)
{
	__u64 all, inc, err_all = 0, err_inc = 0, seen = 0, better = 0;
	struct kbloom_sketch *a, *m;
	struct zipf z = {};
	__u32 r;

	ASSERT_EQ(0, zipf_make(&z, ZIPF_EVENTS));
	ASSERT_EQ(0, sketch_new(KB_CM_ALL, 32, &a));
	ASSERT_EQ(0, sketch_new(KB_CM_MIN_INC, 32, &m));
	feed(a, &z);
	feed(m, &z);
	for (r = 0; r < ZIPF_RANKS; r++) {
		if (!z.truth[r])
			continue;
		all = estimate(a, r);
		inc = estimate(m, r);
		ASSERT_LE(inc, all);
		ASSERT_GE(inc, z.truth[r]);
		better += inc < all;
		err_all += all - z.truth[r];
		err_inc += inc - z.truth[r];
		seen++;
	}
	TH_LOG("mean error: minimum selection %.1f, minimal increase %.1f; %llu of %llu keys better",
	       (double)err_all / seen, (double)err_inc / seen, better, seen);
	EXPECT_LT(err_inc, err_all);
	kbloom_sketch_free(a);
	kbloom_sketch_free(m);
	zipf_free(&z);
}

/* Four per-CPU sketches summed are the shared sketch, word for word. */
TEST(per_cpu_rows_sum_to_shared)
{
	struct kbloom_sketch *cpu[4], *sum, *shared;
	struct kbloom_sketch_stat a, b;
	struct cu_rng rng = { .s = 77 };
	__u64 key, w;
	__u32 i, c;

	ASSERT_EQ(0, sketch_new(KB_CM_ALL, 32, &sum));
	ASSERT_EQ(0, sketch_new(KB_CM_ALL, 32, &shared));
	for (c = 0; c < 4; c++)
		ASSERT_EQ(0, sketch_new(KB_CM_ALL, 32, &cpu[c]));
	for (i = 0; i < 1000000; i++) {
		key = rank_key(cu_next(&rng) % 5000);
		w = 60 + cu_next(&rng) % 1440;	/* bytes */
		kbloom_sketch_add(cpu[cu_next(&rng) % 4], &key, sizeof(key), w);
		kbloom_sketch_add(shared, &key, sizeof(key), w);
	}
	for (c = 0; c < 4; c++) {
		ASSERT_EQ(0, kbloom_sketch_merge(sum, cpu[c]));
		kbloom_sketch_free(cpu[c]);
	}
	ASSERT_EQ(kbloom_sketch_words(shared), kbloom_sketch_words(sum));
	EXPECT_EQ(0, memcmp(kbloom_sketch_data(shared), kbloom_sketch_data(sum),
			    kbloom_sketch_words(sum) * 8));
	ASSERT_EQ(0, kbloom_sketch_stat(sum, &a));
	ASSERT_EQ(0, kbloom_sketch_stat(shared, &b));
	EXPECT_EQ(b.total, a.total);
	EXPECT_EQ(0, a.saturations);
	EXPECT_EQ(0, b.saturations);
	EXPECT_EQ(a.nonzero, b.nonzero);
	kbloom_sketch_free(sum);
	kbloom_sketch_free(shared);
}

TEST(merge_refuses_another_sketch)
{
	struct kbloom_sketch *a, *b;
	struct kbloom_sketch_opts o = { .rows = 5, .width = 2719,
					.flags = KBLOOM_SKETCH_SEED,
					.seed = SEED + 1 };

	ASSERT_EQ(0, sketch_new(KB_CM_ALL, 32, &a));
	ASSERT_EQ(0, kbloom_sketch_create(&o, &b));
	EXPECT_EQ(-EINVAL, kbloom_sketch_merge(a, b));	/* seed */
	kbloom_sketch_free(b);
	o.seed = SEED;
	o.counter_bits = 16;
	ASSERT_EQ(0, kbloom_sketch_create(&o, &b));
	EXPECT_EQ(-EINVAL, kbloom_sketch_merge(a, b));	/* counter width */
	EXPECT_EQ(-EINVAL, kbloom_sketch_merge_words(a, kbloom_sketch_data(b),
						     kbloom_sketch_words(b), 0));
	kbloom_sketch_free(a);
	kbloom_sketch_free(b);
}

/* A counter at its maximum stays there and every clipped update counts. */
TEST(saturation)
{
	struct kbloom_sketch_stat st;
	struct kbloom_sketch *s;
	__u64 key = 42, other = 43;

	ASSERT_EQ(0, sketch_new(KB_CM_ALL, 16, &s));
	EXPECT_EQ(0, kbloom_sketch_add(s, &key, sizeof(key), 65000));
	EXPECT_EQ(5, kbloom_sketch_add(s, &key, sizeof(key), 1000));
	EXPECT_EQ(65535, kbloom_sketch_count(s, &key, sizeof(key)));
	EXPECT_EQ(5, kbloom_sketch_add(s, &key, sizeof(key), 1));
	/* a delete leaves saturated counters where they are */
	EXPECT_EQ(0, kbloom_sketch_del(s, &key, sizeof(key), 60000));
	EXPECT_EQ(65535, kbloom_sketch_count(s, &key, sizeof(key)));
	EXPECT_EQ(0, kbloom_sketch_add(s, &other, sizeof(other), 1));
	ASSERT_EQ(0, kbloom_sketch_stat(s, &st));
	EXPECT_EQ(10, st.saturations);
	EXPECT_EQ(5, st.saturated);
	kbloom_sketch_free(s);

	ASSERT_EQ(0, sketch_new(KB_CM_MIN_INC, 16, &s));
	EXPECT_EQ(5, kbloom_sketch_add(s, &key, sizeof(key), 70000));
	EXPECT_EQ(65535, kbloom_sketch_count(s, &key, sizeof(key)));
	kbloom_sketch_free(s);
}

TEST(delete)
{
	struct kbloom_sketch *s;
	__u64 key = 7;

	ASSERT_EQ(0, sketch_new(KB_CM_ALL, 32, &s));
	ASSERT_EQ(0, kbloom_sketch_add(s, &key, sizeof(key), 3));
	EXPECT_EQ(0, kbloom_sketch_del(s, &key, sizeof(key), 2));
	EXPECT_EQ(1, kbloom_sketch_count(s, &key, sizeof(key)));
	EXPECT_EQ(-ENOENT, kbloom_sketch_del(s, &key, sizeof(key), 2));
	EXPECT_EQ(1, kbloom_sketch_count(s, &key, sizeof(key)));
	EXPECT_EQ(0, kbloom_sketch_del(s, &key, sizeof(key), 1));
	EXPECT_EQ(0, kbloom_sketch_count(s, &key, sizeof(key)));
	EXPECT_EQ(-EINVAL, kbloom_sketch_del(s, &key, sizeof(key), 0));
	EXPECT_EQ(-EINVAL, kbloom_sketch_add(s, &key, 0, 1));
	EXPECT_EQ(-EINVAL, kbloom_sketch_add(s, &key, KBLOOM_KEY_MAX + 1, 1));
	kbloom_sketch_free(s);

	ASSERT_EQ(0, sketch_new(KB_CM_MIN_INC, 32, &s));
	ASSERT_EQ(0, kbloom_sketch_add(s, &key, sizeof(key), 3));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_sketch_del(s, &key, sizeof(key), 1));
	EXPECT_EQ(3, kbloom_sketch_count(s, &key, sizeof(key)));
	kbloom_sketch_free(s);
}

static void *saved(const struct kbloom_sketch *s, size_t *len)
{
	void *buf = malloc(kbloom_sketch_image_size(s) + 1);

	if (buf && kbloom_sketch_save(s, (char *)buf + 1,
				      kbloom_sketch_image_size(s), len)) {
		free(buf);
		return NULL;
	}
	return buf;
}

TEST(image_round_trip)
{
	struct kbloom_sketch_stat a, b;
	struct kbloom_image_hdr hdr;
	struct kbloom_sketch *s, *t;
	size_t len;
	__u64 key;
	__u8 *buf;
	__u32 i;

	ASSERT_EQ(0, sketch_new(KB_CM_MIN_INC, 16, &s));
	for (i = 0; i < 20000; i++) {
		key = i % 3000;
		kbloom_sketch_add(s, &key, sizeof(key), 1 + i % 7);
	}
	buf = saved(s, &len);
	ASSERT_NE(NULL, buf);
	memcpy(&hdr, buf + 1, sizeof(hdr));
	ASSERT_EQ(KBLOOM_IMAGE_VERSION_GEOM, hdr.version);
	/* a misaligned image loads too */
	ASSERT_EQ(0, kbloom_sketch_load(buf + 1, len, &t));
	ASSERT_EQ(0, kbloom_sketch_stat(s, &a));
	ASSERT_EQ(0, kbloom_sketch_stat(t, &b));
	EXPECT_EQ(a.total, b.total);
	EXPECT_EQ(a.seed, b.seed);
	EXPECT_EQ(a.rows, b.rows);
	EXPECT_EQ(a.width, b.width);
	EXPECT_EQ(a.update, b.update);
	EXPECT_EQ(a.epsilon_pico, b.epsilon_pico);
	EXPECT_EQ(a.nonzero, b.nonzero);
	EXPECT_EQ(0, memcmp(kbloom_sketch_data(s), kbloom_sketch_data(t),
			    kbloom_sketch_words(s) * 8));
	for (i = 0; i < 3000; i++) {
		key = i;
		ASSERT_EQ(kbloom_sketch_count(s, &key, 8),
			  kbloom_sketch_count(t, &key, 8));
	}
	kbloom_sketch_free(t);
	kbloom_sketch_free(s);
	free(buf);
}

/* Re-checksum an edited image. */
static void recrc(__u8 *img, size_t len)
{
	struct kbloom_image_head hd;

	memcpy(&hd, img, sizeof(hd));
	hd.h.crc = kb_le32(kb_image_crc_head(&hd, img + sizeof(hd),
					     len - sizeof(hd)));
	memcpy(img, &hd, sizeof(hd));
}

TEST(bad_images_refused)
{
	struct kbloom_sketch *s, *t = NULL;
	struct kbloom_filter *f;
	__u8 *buf, *img;
	void *cls;
	size_t len, clen;
	__u64 key = 1;

	ASSERT_EQ(0, sketch_new(KB_CM_ALL, 32, &s));
	ASSERT_EQ(0, kbloom_sketch_add(s, &key, sizeof(key), 9));
	buf = saved(s, &len);
	ASSERT_NE(NULL, buf);
	img = buf + 1;

	EXPECT_EQ(-EMSGSIZE, kbloom_sketch_load(img, len - 8, &t));
	img[len - 1] ^= 1;
	EXPECT_EQ(-EBADMSG, kbloom_sketch_load(img, len, &t));
	img[len - 1] ^= 1;
	img[TABLES_OFF] = 0;		/* tables = 0 */
	recrc(img, len);
	EXPECT_EQ(-EBADMSG, kbloom_sketch_load(img, len, &t));
	img[TABLES_OFF] = 5;
	img[CBITS_OFF] = 8;				/* counter_bits = 8 */
	recrc(img, len);
	EXPECT_EQ(-EBADMSG, kbloom_sketch_load(img, len, &t));
	img[CBITS_OFF] = 32;
	recrc(img, len);
	ASSERT_EQ(0, kbloom_sketch_load(img, len, &t));
	EXPECT_EQ(9, kbloom_sketch_count(t, &key, sizeof(key)));
	kbloom_sketch_free(t);
	t = NULL;

	/* a classic (version 2) image is another family's */
	ASSERT_EQ(0, kbloom_create(KBLOOM_TYPE_BLOCKED, 1000, DELTA_1PCT, NULL,
				   &f));
	ASSERT_EQ(0, kbloom_save_alloc(f, &cls, &clen));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_sketch_load(cls, clen, &t));
	EXPECT_EQ(NULL, t);
	/* and the classic family refuses the sketch's */
	EXPECT_EQ(-EOPNOTSUPP, kbloom_load(img, len, &f));
	free(cls);
	kbloom_destroy(f);
	free(buf);
	kbloom_sketch_free(s);
}

struct bad_geom {
	const char *what;
	struct kbloom_sketch_opts o;
	int err;
};

TEST(bad_geometry_refused)
{
	static const struct bad_geom bad[] = {
		{ "counter bits 8", { .rows = 4, .width = 64,
				      .counter_bits = 8 }, -EINVAL },
		{ "counter bits 64", { .rows = 4, .width = 64,
				       .counter_bits = 64 }, -EINVAL },
		{ "rows 17", { .rows = 17, .width = 64 }, -EINVAL },
		{ "width 15", { .rows = 4, .width = 15 }, -EINVAL },
		{ "update 3", { .rows = 4, .width = 64, .update = 3 },
		  -EINVAL },
		{ "rows without width", { .rows = 4 }, -EINVAL },
		{ "both forms", { .rows = 4, .width = 64,
				  .epsilon_pico = EPS_01PCT,
				  .delta_pico = DELTA_1PCT }, -EINVAL },
		{ "neither form", { .counter_bits = 32 }, -EINVAL },
		{ "epsilon 0.6", { .epsilon_pico = 600000000000ULL,
				   .delta_pico = DELTA_1PCT }, -EINVAL },
		{ "delta 1e-8", { .epsilon_pico = EPS_01PCT,
				  .delta_pico = 10000 }, -EINVAL },
		{ "hash id 9", { .rows = 4, .width = 64, .hash_id = 9 },
		  -EINVAL },
		{ "flag 0x80", { .rows = 4, .width = 64, .flags = 0x80 },
		  -EINVAL },
		{ "name", { .rows = 4, .width = 64, .name = "a b" },
		  -EINVAL },
		{ "16 x 2^30 counters", { .rows = 16, .width = 1ULL << 30 },
		  -E2BIG },
	};
	struct kbloom_sketch *s;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		s = NULL;
		EXPECT_EQ(bad[i].err, kbloom_sketch_create(&bad[i].o, &s))
			TH_LOG("%s", bad[i].what);
		EXPECT_EQ(NULL, s);
	}
}

TEST_HARNESS_MAIN
