// SPDX-License-Identifier: GPL-2.0
/*
 * The partitioned Bloom filter (uapi/kbloom_partitioned.h,
 * libkbloom_partitioned.h):
 *   - golden vectors pin the positions (bit = i s + reduce(w_i, s) of the
 *     standard probe words), computed once by an independent
 *     implementation of the header's formula;
 *   - the measured rate is within +-10% of (1 - (1 - k/m)^n)^k at 8, 10
 *     and 16 bits per key (k = 6, 7, 11), with no false negative;
 *   - the planner: the standard planner's k, slices of whole words
 *     covering the standard m, predicted rate at most the target, and a
 *     planned filter measures at most 1.1x its target;
 *   - images round-trip (version 3) with identical answers; bad geometry,
 *     bad options and bad images are refused with their errno.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_cuckoo.h"
#include "libkbloom_partitioned.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_partitioned.h"
#include "core_util.h"

#define N_KEYS		100000ULL
#define N_PROBES	4000000ULL
#define P_1PCT		10000000000ULL
#define SEED		0x9A87

static __u64 key_of(__u64 i)
{
	return cu_mix(i ^ 0x9A27171);
}

static void add_range(struct __test_metadata *_metadata,
		      struct kbloom_part *f, __u64 lo, __u64 hi)
{
	__u64 i, key;

	for (i = lo; i < hi; i++) {
		key = key_of(i);
		ASSERT_EQ(0, kbloom_part_add(f, &key, 8));
	}
}

/* Share of the keys [lo, hi) that test present. */
static double part_rate(const struct kbloom_part *f, __u64 lo, __u64 hi)
{
	__u64 i, key, fp = 0;

	for (i = lo; i < hi; i++) {
		key = key_of(i);
		fp += kbloom_part_test(f, &key, 8) == 1;
	}
	return (double)fp / (hi - lo);
}

/* The partitioned filter's rate, exactly. */
static double part_formula(double m, __u32 k, double n)
{
	return pow(1 - pow(1 - k / m, n), k);
}

/* ---- positions ------------------------------------------------------- */

/* k = 5 slices of s = 1984 bits */
static const struct {
	__u64 h;
	__u64 bit[5];
} gold[] = {
	{ 0x0123456789ABCDEFULL, { 8, 2081, 4557, 6933, 8768 } },
	{ 0xFEDCBA9876543210ULL, { 1975, 2644, 5616, 6207, 9387 } },
	{ 0xDEADBEEFCAFEBABEULL, { 1725, 2099, 5617, 7653, 8722 } },
	{ 0x0000000000000001ULL, { 0, 3210, 5698, 6698, 9619 } },
	{ 0xFFFFFFFFFFFFFFFFULL, { 1983, 2741, 4221, 7189, 8236 } },
};

TEST(golden_positions)
{
	struct kb_probe p;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(gold); i++) {
		kb_probe_init(&p, gold[i].h);
		for (j = 0; j < 5; j++)
			EXPECT_EQ(gold[i].bit[j], kb_part_next(&p, j, 1984))
				TH_LOG("hash %u probe %u", i, j);
	}
}

/* Probe i lands in slice i, for any s; one add sets one bit per slice. */
TEST(one_bit_per_slice)
{
	struct kbloom_part_stats st;
	struct kbloom_part *f;
	struct kb_probe p;
	__u64 i, bit, key = 7;
	__u32 j;

	for (i = 0; i < 10000; i++) {
		kb_probe_init(&p, cu_mix(i));
		for (j = 0; j < 32; j++) {
			bit = kb_part_next(&p, j, 64 * (1 + i % 97));
			ASSERT_EQ(j, bit / (64 * (1 + i % 97)));
		}
	}
	ASSERT_EQ(0, kbloom_part_create_ks(9, 640, NULL, &f));
	ASSERT_EQ(0, kbloom_part_add(f, &key, 8));
	ASSERT_EQ(0, kbloom_part_stats(f, &st));
	EXPECT_EQ(9, st.ones);
	EXPECT_EQ(1, st.ones_min);
	EXPECT_EQ(1, st.ones_max);
	EXPECT_EQ(1, st.inserted);
	EXPECT_EQ(9 * 640, st.shape.m);
	EXPECT_EQ(9 * 640 / 8, st.bytes);
	kbloom_part_destroy(f);
}

/* ---- the rate -------------------------------------------------------- */

FIXTURE(rate) {
	struct kbloom_part *f;
	__u64 slice;
};

FIXTURE_VARIANT(rate) {
	__u32 bits_per_key;
	__u32 k;
};

FIXTURE_VARIANT_ADD(rate, bpk8) {
	.bits_per_key = 8,
	.k = 6,
};

FIXTURE_VARIANT_ADD(rate, bpk10) {
	.bits_per_key = 10,
	.k = 7,
};

FIXTURE_VARIANT_ADD(rate, bpk16) {
	.bits_per_key = 16,
	.k = 11,
};

FIXTURE_SETUP(rate)
{
	struct kbloom_opts o = { .seed = SEED };

	/* s rounded to whole words: m within k * 64 bits of n * bits */
	self->slice = (N_KEYS * variant->bits_per_key / variant->k + 63) &
		      ~63ULL;
	ASSERT_EQ(0, kbloom_part_create_ks(variant->k, self->slice, &o,
					   &self->f));
}

FIXTURE_TEARDOWN(rate)
{
	kbloom_part_destroy(self->f);
}

TEST_F(rate, within_10pct_of_formula)
{
	double m = (double)self->slice * variant->k, meas, exact, now;
	struct kbloom_part_stats st;
	__u64 i, key;

	add_range(_metadata, self->f, 0, N_KEYS);
	for (i = 0; i < N_KEYS; i++) {
		key = key_of(i);
		ASSERT_EQ(1, kbloom_part_test(self->f, &key, 8));
	}
	meas = part_rate(self->f, N_KEYS, N_KEYS + N_PROBES);
	exact = part_formula(m, variant->k, N_KEYS);
	ASSERT_EQ(0, kbloom_part_stats(self->f, &st));
	now = st.fpr_now_pico * 1e-12;
	TH_LOG("%u bits/key, k=%u, s=%llu: measured %.5f%%, (1-(1-k/m)^n)^k %.5f%% (%+.1f%%), predicted %.5f%%",
	       variant->bits_per_key, variant->k,
	       (unsigned long long)self->slice, meas * 100, exact * 100,
	       (meas / exact - 1) * 100, now * 100);
	EXPECT_LE(fabs(meas - exact), 0.1 * exact);
	/* the e^-x approximation the planner uses is within 1% here */
	EXPECT_LE(fabs(now - exact), 0.01 * exact);
	EXPECT_EQ(N_KEYS, st.inserted);
	EXPECT_LE(fabs((double)st.n_est - N_KEYS), 0.01 * N_KEYS);
}

/* ---- the planner ----------------------------------------------------- */

TEST(plan_covers_standard)
{
	static const __u64 ns[] = { 1, 100, 12345, 1000000, 50000000 };
	static const __u64 ps[] = { 500000000000ULL, P_1PCT, 1000000000ULL,
				    1000ULL };
	struct kb_shape s;
	struct kb_plan std;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		for (j = 0; j < ARRAY_SIZE(ps); j++) {
			ASSERT_EQ(0, kb_plan(KBLOOM_TYPE_STANDARD, ns[i], ps[j],
					     0, &std));
			ASSERT_EQ(0, kb_part_plan(ns[i], ps[j], &s));
			EXPECT_EQ(0, kb_shape_check(&s));
			EXPECT_EQ(std.k, s.k);
			EXPECT_EQ(0, s.buckets % 64);
			EXPECT_LE(std.m, s.m);
			EXPECT_GT(std.m + 64ULL * s.k, s.m);
			EXPECT_LE(kb_part_fpr_pico(s.m, s.k, ns[i]), ps[j]);
		}
	}
	EXPECT_EQ(-EINVAL, kb_part_plan(0, P_1PCT, &s));
	EXPECT_EQ(-EINVAL, kb_part_plan(100, KBLOOM_P_TARGET_MAX + 1, &s));
	EXPECT_EQ(-EINVAL, kb_part_plan(100, KBLOOM_P_TARGET_MIN - 1, &s));
	EXPECT_EQ(-EINVAL, kb_part_plan(100, P_1PCT, NULL));
	EXPECT_EQ(-E2BIG, kb_part_plan(1ULL << 40, P_1PCT, &s));
}

TEST(planned_filter_meets_target)
{
	struct kbloom_part_stats st;
	struct kbloom_part *f;
	double meas;

	ASSERT_EQ(0, kbloom_part_create(N_KEYS, P_1PCT, NULL, &f));
	add_range(_metadata, f, 0, N_KEYS);
	meas = part_rate(f, N_KEYS, N_KEYS + N_PROBES / 4);
	ASSERT_EQ(0, kbloom_part_stats(f, &st));
	TH_LOG("n=%llu p=1%%: k=%u s=%llu (%.2f bits/key), measured %.4f%%",
	       N_KEYS, st.shape.k, (unsigned long long)st.shape.buckets,
	       (double)st.shape.m / N_KEYS, meas * 100);
	EXPECT_EQ(N_KEYS, st.capacity);
	EXPECT_EQ(P_1PCT, st.fpr_pico);
	EXPECT_LE(meas, 0.011);
	kbloom_part_destroy(f);
}

/* ---- bad geometry and options ------------------------------------------ */

#define BAD_FIELD(field, val) do {					\
		struct kb_shape _s;					\
									\
		ASSERT_EQ(0, kb_part_shape_init(&_s, 4, 1024));		\
		_s.field = (val);					\
		EXPECT_EQ(-EINVAL, kb_shape_check(&_s))			\
			TH_LOG(#field " = %llu",			\
			       (unsigned long long)(val));		\
	} while (0)

TEST(bad_geometry_refused)
{
	struct kbloom_opts o = { .counter_bits = 4 };
	struct kbloom_part *f = NULL;
	struct kb_shape s;

	BAD_FIELD(counter_bits, 4);
	BAD_FIELD(fp_bits, 8);
	BAD_FIELD(slots, 4);
	BAD_FIELD(tables, 4);
	BAD_FIELD(vi_l, 3);
	BAD_FIELD(update, 1);
	BAD_FIELD(m, 4096 + 64);
	BAD_FIELD(k, 5);
	BAD_FIELD(k, 0);
	BAD_FIELD(buckets, 1000);
	EXPECT_EQ(-EINVAL, kb_part_shape_init(&s, 0, 1024));
	EXPECT_EQ(-EINVAL, kb_part_shape_init(&s, 33, 1024));
	EXPECT_EQ(-EINVAL, kb_part_shape_init(&s, 4, 32));
	EXPECT_EQ(-EINVAL, kb_part_shape_init(&s, 4, 100));
	EXPECT_EQ(-EINVAL, kb_part_shape_init(&s, 4, KBLOOM_M_MAX / 2));
	EXPECT_EQ(-EINVAL, kb_part_shape_init(&s, 4, ~0ULL << 6));
	EXPECT_EQ(0, kb_part_shape_init(&s, 4, KBLOOM_M_MAX / 4));

	EXPECT_EQ(-EINVAL, kbloom_part_create_ks(0, 1024, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_part_create_ks(4, 1000, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_part_create_ks(4, 1024, &o, &f));
	o.counter_bits = 0;
	o.hash_id = KBLOOM_HASH_MAX + 1;
	EXPECT_EQ(-EINVAL, kbloom_part_create_ks(4, 1024, &o, &f));
	o.hash_id = 0;
	o.name = "bad name";
	EXPECT_EQ(-EINVAL, kbloom_part_create(1000, P_1PCT, &o, &f));
	o.name = NULL;
	o.flags = 0x80;
	EXPECT_EQ(-EINVAL, kbloom_part_create(1000, P_1PCT, &o, &f));
	EXPECT_EQ(-EINVAL, kbloom_part_create(0, P_1PCT, NULL, &f));
	EXPECT_EQ(-E2BIG, kbloom_part_create(1ULL << 40, P_1PCT, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_part_create_ks(4, 1024, NULL, NULL));
	EXPECT_EQ(NULL, f);
	EXPECT_EQ(-EINVAL, kbloom_part_add(NULL, "k", 1));
	EXPECT_EQ(-EINVAL, kbloom_part_test(NULL, "k", 1));
}

TEST(bad_keys_change_nothing)
{
	__u8 key[KBLOOM_KEY_MAX + 1] = { 1 };
	struct kbloom_part_stats st;
	struct kbloom_part *f;

	ASSERT_EQ(0, kbloom_part_create_ks(3, 256, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_part_add(f, key, 0));
	EXPECT_EQ(-EINVAL, kbloom_part_add(f, key, KBLOOM_KEY_MAX + 1));
	EXPECT_EQ(-EINVAL, kbloom_part_add(f, NULL, 8));
	EXPECT_EQ(-EINVAL, kbloom_part_test(f, key, 0));
	ASSERT_EQ(0, kbloom_part_stats(f, &st));
	EXPECT_EQ(0, st.ones);
	EXPECT_EQ(0, st.inserted);
	EXPECT_EQ(0, kbloom_part_add(f, key, KBLOOM_KEY_MAX));
	EXPECT_EQ(1, kbloom_part_test(f, key, KBLOOM_KEY_MAX));
	kbloom_part_clear(f);
	EXPECT_EQ(0, kbloom_part_test(f, key, KBLOOM_KEY_MAX));
	ASSERT_EQ(0, kbloom_part_stats(f, &st));
	EXPECT_EQ(0, st.ones);
	EXPECT_EQ(0, st.inserted);
	kbloom_part_destroy(f);
}

/* ---- images ---------------------------------------------------------- */

TEST(image_round_trip)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_SIPHASH13,
				 .seed = 77, .name = "part.img" };
	struct kbloom_part_stats a, b;
	struct kbloom_part *f, *g;
	__u64 i, key, diff = 0;
	size_t len, need;
	void *img;

	ASSERT_EQ(0, kbloom_part_create(20000, 1000000000ULL, &o, &f));
	add_range(_metadata, f, 0, 20000);
	ASSERT_EQ(0, kbloom_part_save_alloc(f, &img, &len));
	EXPECT_EQ(kbloom_part_image_size(f), len);
	EXPECT_EQ(0, kb_image_verify(img, len));
	EXPECT_EQ(-EMSGSIZE, kbloom_part_save(f, img, len - 1, &need));
	EXPECT_EQ(len, need);
	ASSERT_EQ(0, kbloom_part_load(img, len, &g));
	for (i = 0; i < 200000; i++) {
		key = key_of(i);
		diff += kbloom_part_test(f, &key, 8) !=
			kbloom_part_test(g, &key, 8);
	}
	EXPECT_EQ(0, diff);
	ASSERT_EQ(0, kbloom_part_stats(f, &a));
	ASSERT_EQ(0, kbloom_part_stats(g, &b));
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
	EXPECT_STREQ("part.img", kbloom_part_name(g));
	free(img);
	kbloom_part_destroy(f);
	kbloom_part_destroy(g);
}

/* A valid image of @f, then one field changed and the checksum redone. */
static int reload_broken(struct kbloom_part *f, int what)
{
	struct kbloom_image_head *hd;
	struct kbloom_part *g = NULL;
	size_t len, hl = sizeof(*hd);
	int ret;
	__u8 *buf;

	if (kbloom_part_save_alloc(f, (void **)&buf, &len))
		return 1;
	hd = (struct kbloom_image_head *)buf;
	switch (what) {
	case 0: hd->g.buckets = kb_le64(kb_le64(hd->g.buckets) + 1); break;
	case 1: hd->h.counter_bits = 4; break;
	case 2: hd->h.saturations = kb_le64(1); break;
	case 3: hd->h.k = kb_le32(kb_le32(hd->h.k) + 1); break;
	case 4: hd->h.m = kb_le64(kb_le64(hd->h.m) + 64); break;
	case 5: hd->g.fp_bits = 8; break;
	case 6: hd->g.overflows = kb_le64(1); break;
	case 7: hd->h.flags = KBLOOM_IMAGE_F_MAY_FN; break;
	case 8: len -= 8; break;
	}
	hd->h.crc = 0;
	hd->h.crc = kb_le32(kb_image_crc_head(hd, buf + hl, len - hl));
	ret = kbloom_part_load(buf, len, &g);
	kbloom_part_destroy(g);
	free(buf);
	return ret;
}

TEST(bad_images_refused)
{
	struct kbloom_part *f, *g = NULL;
	struct kbloom_cuckoo *c;
	size_t len, clen;
	__u8 *img;
	void *cimg;
	int i;

	ASSERT_EQ(0, kbloom_part_create_ks(4, 1024, NULL, &f));
	add_range(_metadata, f, 0, 100);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(-EBADMSG, reload_broken(f, i)) TH_LOG("case %d", i);
	EXPECT_EQ(-EMSGSIZE, reload_broken(f, 8));

	ASSERT_EQ(0, kbloom_part_save_alloc(f, (void **)&img, &len));
	img[len - 1] ^= 1;
	EXPECT_EQ(-EBADMSG, kbloom_part_load(img, len, &g));
	EXPECT_EQ(-EMSGSIZE, kbloom_part_load(img, 100, &g));
	EXPECT_EQ(-EINVAL, kbloom_part_load(NULL, len, &g));
	EXPECT_EQ(NULL, g);
	free(img);

	/* a valid image of another type */
	ASSERT_EQ(0, kbloom_cuckoo_create(1000, P_1PCT, NULL, &c));
	clen = kbloom_cuckoo_image_size(c);
	cimg = malloc(clen);
	ASSERT_NE(NULL, cimg);
	ASSERT_EQ(0, kbloom_cuckoo_save(c, cimg, clen, NULL));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_part_load(cimg, clen, &g));
	free(cimg);
	kbloom_cuckoo_destroy(c);
	kbloom_part_destroy(f);
}

TEST_HARNESS_MAIN
