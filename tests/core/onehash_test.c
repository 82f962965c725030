// SPDX-License-Identifier: GPL-2.0
/*
 * The one-hashing Bloom filter (uapi/kbloom_var_onehash.h,
 * libkbloom_survey.h):
 *   - the partition sizes are the k primes below the slice bits, and
 *     golden vectors pin the positions (i s + h mod m_i);
 *   - the measured rate is within +-10% of prod_i (1 - (1 - 1/m_i)^n) at
 *     8, 10 and 16 bits per key, with no false negative, and the lookup
 *     time is printed next to the partitioned filter's of the same k and
 *     slice bits;
 *   - a planned filter measures at most 1.1x its target;
 *   - images round-trip (version 3); bad geometry, options, keys and
 *     images are refused with their errno and change nothing.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_partitioned.h"
#include "libkbloom_survey.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_var_onehash.h"
#include "core_util.h"

#define N_KEYS		100000ULL
#define P_1PCT		10000000000ULL
#define SEED		0x0E4A5

static __u64 key_of(__u64 i)
{
	return cu_mix(i ^ 0x0E4A5171);
}

static void add_range(struct __test_metadata *_metadata, struct kbloom_oh *f,
		      __u64 lo, __u64 hi)
{
	__u64 i, key;

	for (i = lo; i < hi; i++) {
		key = key_of(i);
		ASSERT_EQ(0, kbloom_oh_add(f, &key, 8));
	}
}

/* Share of the keys [lo, hi) that test present. */
static double oh_rate(const struct kbloom_oh *f, __u64 lo, __u64 hi)
{
	__u64 i, key, fp = 0;

	for (i = lo; i < hi; i++) {
		key = key_of(i);
		fp += kbloom_oh_test(f, &key, 8) == 1;
	}
	return (double)fp / (hi - lo);
}

/* ---- positions ------------------------------------------------------- */

TEST(partition_sizes_are_primes)
{
	static const __u32 want[] = { 1021, 1019, 1013, 1009, 997, 991 };
	__u32 sizes[KBLOOM_K_MAX], i, j;

	ASSERT_EQ(0, kb_oh_sizes(1024, 6, sizes));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(want[i], sizes[i]);
	/* 32 distinct decreasing primes below the smallest slice */
	ASSERT_EQ(0, kb_oh_sizes(KB_OH_SLICE_MIN, KBLOOM_K_MAX, sizes));
	for (i = 0; i < KBLOOM_K_MAX; i++) {
		EXPECT_TRUE(kb_oh_is_prime(sizes[i]));
		EXPECT_GE(KB_OH_SLICE_MIN, sizes[i]);
		for (j = 2; j * j <= sizes[i]; j++)
			EXPECT_NE(0, sizes[i] % j);
		if (i)
			EXPECT_GT(sizes[i - 1], sizes[i]);
	}
	EXPECT_EQ(-EINVAL, kb_oh_sizes(10, 5, sizes));	/* 2, 3, 5, 7 */
	EXPECT_FALSE(kb_oh_is_prime(1));
	EXPECT_FALSE(kb_oh_is_prime(4294967295ULL));
	EXPECT_TRUE(kb_oh_is_prime(4294967291ULL));	/* largest < 2^32 */
}

/*
 * k = 3 partitions of s = 1024 bits: sizes 1021, 1019, 1013; residues
 * computed with Python's arbitrary-precision %.
 */
static const struct {
	__u64 h;
	__u64 bit[3];
} gold[] = {
	{ 0x0123456789ABCDEFULL, { 559, 1024 + 947, 2048 + 162 } },
	{ 0xFFFFFFFFFFFFFFFFULL, { 432, 1024 + 344, 2048 + 222 } },
	{ 1021ULL * 1019 * 1013, { 0, 1024 + 0, 2048 + 0 } },
};

TEST(golden_positions)
{
	__u32 sizes[3], i, j;

	ASSERT_EQ(0, kb_oh_sizes(1024, 3, sizes));
	for (i = 0; i < ARRAY_SIZE(gold); i++)
		for (j = 0; j < 3; j++)
			EXPECT_EQ(gold[i].bit[j],
				  kb_oh_bit(gold[i].h, j, sizes[j], 1024))
				TH_LOG("hash %u probe %u", i, j);
}

/* One add sets one bit in each partition, below its prime size. */
TEST(one_bit_per_partition)
{
	struct kbloom_oh_stats st;
	struct kbloom_oh *f;
	__u64 key = 7, i, bit;
	__u32 j;

	ASSERT_EQ(0, kbloom_oh_create_ks(9, 640, NULL, &f));
	ASSERT_EQ(0, kbloom_oh_add(f, &key, 8));
	ASSERT_EQ(0, kbloom_oh_stats(f, &st));
	EXPECT_EQ(9, st.ones);
	EXPECT_EQ(1, st.inserted);
	EXPECT_EQ(9 * 640, st.shape.m);
	EXPECT_EQ(631, st.sizes[0]);
	EXPECT_EQ(0, st.sizes[9]);
	for (i = 0; i < 10000; i++) {
		for (j = 0; j < 9; j++) {
			bit = kb_oh_bit(cu_mix(i), j, st.sizes[j], 640);
			ASSERT_EQ(j, bit / 640);
			ASSERT_GT(st.sizes[j], bit % 640);
		}
	}
	kbloom_oh_destroy(f);
}

/* ---- the rate -------------------------------------------------------- */

FIXTURE(rate) {
	struct kbloom_oh *f;
	__u64 slice;
};

FIXTURE_VARIANT(rate) {
	__u32 bits_per_key;
	__u32 k;
	__u64 probes;
};

FIXTURE_VARIANT_ADD(rate, bpk8) {
	.bits_per_key = 8, .k = 6, .probes = 1000000,
};

FIXTURE_VARIANT_ADD(rate, bpk10) {
	.bits_per_key = 10, .k = 7, .probes = 2000000,
};

FIXTURE_VARIANT_ADD(rate, bpk16) {
	.bits_per_key = 16, .k = 11, .probes = 8000000,
};

FIXTURE_SETUP(rate)
{
	struct kbloom_opts o = { .seed = SEED };

	self->slice = (N_KEYS * variant->bits_per_key / variant->k + 63) &
		      ~63ULL;
	ASSERT_EQ(0, kbloom_oh_create_ks(variant->k, self->slice, &o,
					 &self->f));
}

FIXTURE_TEARDOWN(rate)
{
	kbloom_oh_destroy(self->f);
}

TEST_F(rate, within_10pct_of_formula)
{
	struct kbloom_oh_stats st;
	double meas, exact;
	__u64 i, key;

	add_range(_metadata, self->f, 0, N_KEYS);
	for (i = 0; i < N_KEYS; i++) {
		key = key_of(i);
		ASSERT_EQ(1, kbloom_oh_test(self->f, &key, 8));
	}
	meas = oh_rate(self->f, N_KEYS, N_KEYS + variant->probes);
	ASSERT_EQ(0, kbloom_oh_stats(self->f, &st));
	exact = kbloom_oh_fpr(st.sizes, variant->k, N_KEYS);
	TH_LOG("one-hashing %u bits/key, k=%u, s=%llu (m_0=%u .. m_%u=%u): measured %.5f%%, prod(1-(1-1/m_i)^n) %.5f%% (%+.1f%%)",
	       variant->bits_per_key, variant->k,
	       (unsigned long long)self->slice, st.sizes[0], variant->k - 1,
	       st.sizes[variant->k - 1], meas * 100, exact * 100,
	       (meas / exact - 1) * 100);
	EXPECT_LE(fabs(meas - exact), 0.1 * exact);
	EXPECT_EQ(exact, st.fpr_now);
	EXPECT_EQ(N_KEYS, st.inserted);
}

/* ---- lookup time next to the partitioned filter ------------------------ */

/* ns per lookup of @n absent keys, best of 3 runs. */
static double time_lookups(int (*test)(const void *, const void *, __u32),
			   const void *f, __u64 n, __u64 *hits)
{
	double best = 1e30, t;
	__u64 i, key;
	int r;

	for (r = 0; r < 3; r++) {
		*hits = 0;
		t = cu_now();
		for (i = 0; i < n; i++) {
			key = key_of(N_KEYS + i);
			*hits += test(f, &key, 8) == 1;
		}
		t = (cu_now() - t) * 1e9 / n;
		best = t < best ? t : best;
	}
	return best;
}

static int oh_test_fn(const void *f, const void *key, __u32 len)
{
	return kbloom_oh_test(f, key, len);
}

static int part_test_fn(const void *f, const void *key, __u32 len)
{
	return kbloom_part_test(f, key, len);
}

TEST(lookup_time_next_to_partitioned)
{
	struct kbloom_opts o = { .seed = SEED };
	__u64 slice = 1000000 / 7 / 64 * 64, hits_oh, hits_part;
	struct kbloom_part *p;
	struct kbloom_oh *f;
	double t_oh, t_part;

	ASSERT_EQ(0, kbloom_oh_create_ks(7, slice, &o, &f));
	ASSERT_EQ(0, kbloom_part_create_ks(7, slice, &o, &p));
	add_range(_metadata, f, 0, N_KEYS);
	for (__u64 i = 0; i < N_KEYS; i++) {
		__u64 key = key_of(i);

		ASSERT_EQ(0, kbloom_part_add(p, &key, 8));
	}
	t_oh = time_lookups(oh_test_fn, f, 500000, &hits_oh);
	t_part = time_lookups(part_test_fn, p, 500000, &hits_part);
	TH_LOG("lookup, 10 bits/key, k=7, %llu-bit slices, absent keys: one-hashing %.1f ns, partitioned %.1f ns (%.2fx); false positives %llu vs %llu of 500000",
	       (unsigned long long)slice, t_oh, t_part, t_oh / t_part,
	       (unsigned long long)hits_oh, (unsigned long long)hits_part);
	EXPECT_GT(t_oh, 0);
	EXPECT_GT(t_part, 0);
	/* both near 0.82%: the same memory and probes */
	EXPECT_LT(hits_oh, 500000 / 50);
	EXPECT_LT(hits_part, 500000 / 50);
	kbloom_part_destroy(p);
	kbloom_oh_destroy(f);
}

/* ---- the planner ----------------------------------------------------- */

TEST(planned_filter_meets_target)
{
	struct kbloom_oh_stats st;
	struct kbloom_oh *f;
	double meas;

	ASSERT_EQ(0, kbloom_oh_create(N_KEYS, P_1PCT, NULL, &f));
	add_range(_metadata, f, 0, N_KEYS);
	meas = oh_rate(f, N_KEYS, N_KEYS + 1000000);
	ASSERT_EQ(0, kbloom_oh_stats(f, &st));
	TH_LOG("n=%llu p=1%%: k=%u s=%llu (%.2f bits/key), measured %.4f%%, formula %.4f%%",
	       N_KEYS, st.shape.k, (unsigned long long)st.shape.buckets,
	       (double)st.shape.m / N_KEYS, meas * 100, st.fpr_now * 100);
	EXPECT_EQ(N_KEYS, st.capacity);
	EXPECT_EQ(P_1PCT, st.fpr_pico);
	EXPECT_LE(meas, 0.011);
	EXPECT_LE(st.fpr_now, 0.0101);
	kbloom_oh_destroy(f);
	/* tiny n: the slice is raised to KB_OH_SLICE_MIN */
	ASSERT_EQ(0, kbloom_oh_create(1, P_1PCT, NULL, &f));
	ASSERT_EQ(0, kbloom_oh_stats(f, &st));
	EXPECT_EQ(KB_OH_SLICE_MIN, st.shape.buckets);
	kbloom_oh_destroy(f);
}

/* ---- bad geometry, options and keys ----------------------------------- */

static struct kb_shape oh_shape(void)
{
	struct kb_shape s = {
		.type = KBLOOM_TYPE_ONE_HASHING, .k = 4, .buckets = 1024,
	};

	kb_shape_derive(&s);
	return s;
}

#define BAD_FIELD(field, val) do {					\
		struct kb_shape _s = oh_shape();			\
									\
		_s.field = (val);					\
		EXPECT_EQ(-EINVAL, kb_shape_check(&_s))			\
			TH_LOG(#field " = %llu",			\
			       (unsigned long long)(val));		\
	} while (0)

TEST(bad_geometry_refused)
{
	struct kbloom_opts o = { .counter_bits = 4 };
	struct kb_shape s = oh_shape();
	struct kbloom_oh *f = NULL;

	EXPECT_EQ(0, kb_shape_check(&s));
	EXPECT_EQ(4096, s.m);
	BAD_FIELD(counter_bits, 4);
	BAD_FIELD(fp_bits, 8);
	BAD_FIELD(slots, 4);
	BAD_FIELD(tables, 4);
	BAD_FIELD(vi_l, 3);
	BAD_FIELD(update, 1);
	BAD_FIELD(m, 4096 + 64);
	BAD_FIELD(k, 0);
	BAD_FIELD(k, 33);
	BAD_FIELD(buckets, 1000);
	BAD_FIELD(buckets, 192);

	EXPECT_EQ(-EINVAL, kbloom_oh_create_ks(0, 1024, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_oh_create_ks(33, 1024, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_oh_create_ks(4, 1000, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_oh_create_ks(4, 192, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_oh_create_ks(4, KBLOOM_M_MAX / 2, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_oh_create_ks(4, 1024, &o, &f));
	o.counter_bits = 0;
	o.hash_id = KBLOOM_HASH_XXH64;	/* only the split-block type's */
	EXPECT_EQ(-EINVAL, kbloom_oh_create_ks(4, 1024, &o, &f));
	o.hash_id = 0;
	o.name = "bad name";
	EXPECT_EQ(-EINVAL, kbloom_oh_create(1000, P_1PCT, &o, &f));
	o.name = NULL;
	o.flags = 0x80;
	EXPECT_EQ(-EINVAL, kbloom_oh_create(1000, P_1PCT, &o, &f));
	EXPECT_EQ(-EINVAL, kbloom_oh_create(0, P_1PCT, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_oh_create(1000, 0, NULL, &f));
	EXPECT_EQ(-E2BIG, kbloom_oh_create(1ULL << 40, P_1PCT, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_oh_create_ks(4, 1024, NULL, NULL));
	EXPECT_EQ(NULL, f);
	EXPECT_EQ(-EINVAL, kbloom_oh_add(NULL, "k", 1));
	EXPECT_EQ(-EINVAL, kbloom_oh_test(NULL, "k", 1));
	EXPECT_EQ(-EINVAL, kbloom_oh_stats(NULL, NULL));
	EXPECT_EQ(-1, kbloom_oh_fpr(NULL, 3, 10));
}

TEST(bad_keys_change_nothing)
{
	__u8 key[KBLOOM_KEY_MAX + 1] = { 1 };
	struct kbloom_oh_stats st;
	struct kbloom_oh *f;

	ASSERT_EQ(0, kbloom_oh_create_ks(3, 256, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_oh_add(f, key, 0));
	EXPECT_EQ(-EINVAL, kbloom_oh_add(f, key, KBLOOM_KEY_MAX + 1));
	EXPECT_EQ(-EINVAL, kbloom_oh_add(f, NULL, 8));
	EXPECT_EQ(-EINVAL, kbloom_oh_test(f, key, 0));
	ASSERT_EQ(0, kbloom_oh_stats(f, &st));
	EXPECT_EQ(0, st.ones);
	EXPECT_EQ(0, st.inserted);
	EXPECT_EQ(0, kbloom_oh_add(f, key, KBLOOM_KEY_MAX));
	EXPECT_EQ(1, kbloom_oh_test(f, key, KBLOOM_KEY_MAX));
	kbloom_oh_clear(f);
	EXPECT_EQ(0, kbloom_oh_test(f, key, KBLOOM_KEY_MAX));
	ASSERT_EQ(0, kbloom_oh_stats(f, &st));
	EXPECT_EQ(0, st.ones);
	kbloom_oh_destroy(f);
}

/* ---- images ---------------------------------------------------------- */

TEST(image_round_trip)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_SIPHASH13,
				 .seed = 77, .name = "oh.img" };
	struct kbloom_oh_stats a, b;
	struct kbloom_oh *f, *g;
	__u64 i, key, diff = 0;
	size_t len, need;
	void *img;

	ASSERT_EQ(0, kbloom_oh_create(20000, 1000000000ULL, &o, &f));
	add_range(_metadata, f, 0, 20000);
	ASSERT_EQ(0, kbloom_oh_save_alloc(f, &img, &len));
	EXPECT_EQ(kbloom_oh_image_size(f), len);
	EXPECT_EQ(0, kb_image_verify(img, len));
	EXPECT_EQ(-EMSGSIZE, kbloom_oh_save(f, img, len - 1, &need));
	EXPECT_EQ(len, need);
	ASSERT_EQ(0, kbloom_oh_load(img, len, &g));
	for (i = 0; i < 200000; i++) {
		key = key_of(i);
		diff += kbloom_oh_test(f, &key, 8) != kbloom_oh_test(g, &key, 8);
	}
	EXPECT_EQ(0, diff);
	ASSERT_EQ(0, kbloom_oh_stats(f, &a));
	ASSERT_EQ(0, kbloom_oh_stats(g, &b));
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
	free(img);
	kbloom_oh_destroy(f);
	kbloom_oh_destroy(g);
}

/* A valid image of @f, then one field changed and the checksum redone. */
static int reload_broken(struct kbloom_oh *f, int what)
{
	struct kbloom_image_head *hd;
	struct kbloom_oh *g = NULL;
	size_t len, hl = sizeof(*hd);
	int ret;
	__u8 *buf;

	if (kbloom_oh_save_alloc(f, (void **)&buf, &len))
		return 1;
	hd = (struct kbloom_image_head *)buf;
	switch (what) {
	case 0: hd->g.buckets = kb_le64(kb_le64(hd->g.buckets) + 64); break;
	case 1: hd->h.counter_bits = 4; break;
	case 2: hd->h.saturations = kb_le64(1); break;
	case 3: hd->h.k = kb_le32(kb_le32(hd->h.k) + 1); break;
	case 4: hd->h.m = kb_le64(kb_le64(hd->h.m) + 64); break;
	case 5: hd->g.fp_bits = 8; break;
	case 6: hd->g.overflows = kb_le64(1); break;
	case 7: hd->h.flags = KBLOOM_IMAGE_F_MAY_FN; break;
	case 8: len -= 8; break;
	case 9: hd->h.hash_id = KBLOOM_HASH_XXH64; break;
	}
	hd->h.crc = 0;
	hd->h.crc = kb_le32(kb_image_crc_head(hd, buf + hl, len - hl));
	ret = kbloom_oh_load(buf, len, &g);
	kbloom_oh_destroy(g);
	free(buf);
	return ret;
}

TEST(bad_images_refused)
{
	struct kbloom_oh *f, *g = NULL;
	struct kbloom_part *p;
	size_t len;
	__u8 *img;
	int i;

	ASSERT_EQ(0, kbloom_oh_create_ks(4, 1024, NULL, &f));
	add_range(_metadata, f, 0, 100);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(-EBADMSG, reload_broken(f, i)) TH_LOG("case %d", i);
	EXPECT_EQ(-EMSGSIZE, reload_broken(f, 8));
	EXPECT_EQ(-EOPNOTSUPP, reload_broken(f, 9));

	ASSERT_EQ(0, kbloom_oh_save_alloc(f, (void **)&img, &len));
	img[len - 1] ^= 1;
	EXPECT_EQ(-EBADMSG, kbloom_oh_load(img, len, &g));
	EXPECT_EQ(-EMSGSIZE, kbloom_oh_load(img, 100, &g));
	EXPECT_EQ(-EINVAL, kbloom_oh_load(NULL, len, &g));
	EXPECT_EQ(NULL, g);
	free(img);

	/* a valid image of another type of the same layout */
	ASSERT_EQ(0, kbloom_part_create_ks(4, 1024, NULL, &p));
	ASSERT_EQ(0, kbloom_part_save_alloc(p, (void **)&img, &len));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_oh_load(img, len, &g));
	free(img);
	kbloom_part_destroy(p);
	kbloom_oh_destroy(f);
}

TEST_HARNESS_MAIN
