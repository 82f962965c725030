// SPDX-License-Identifier: GPL-2.0
/*
 * The scalable Bloom filter and its counting mode, the dynamic Bloom
 * filter (uapi/kbloom_var_scalable.h, libkbloom_scalable.h):
 *   - the geometry rule: C0 s^i keys at P (1 - r) r^i in partitioned
 *     generations, counting generations of C at P for dynamic;
 *   - P = 1%, s = 2, r = 0.9, grown 1000x past its first capacity: the
 *     measured rate is at most 1%, at most 17 bits per key, no false
 *     negative; duplicates add no generation (the full rule reads the
 *     estimated count, not the insert counter);
 *   - dynamic: at N = 3.5 C the measured rate is within +-10% of the
 *     survey's equation (26); a delete that matches several generations is
 *     refused (ENOTUNIQ) and counted; under-full generations merge, and
 *     the keys left stay present;
 *   - container images round-trip with identical answers; bad parameters
 *     and bad images are refused with their errno.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom_scalable.h"
#include "libkbloom_partitioned.h"
#include "uapi/kbloom_image.h"
#include "core_util.h"

#define P_1PCT		10000000000ULL
#define N_PROBES	1000000ULL
#define SEED		0x5CA1AB1E

static __u64 key_of(__u64 i)
{
	return cu_mix(i ^ 0x5CA1AB1E5ULL);
}

static struct kbloom_sbf *sbf_new(__u32 type, __u64 c, __u64 p)
{
	struct kb_sbf_params pa = { .type = type, .capacity = c,
				    .fpr_pico = p };
	struct kbloom_opts o = { .seed = SEED };
	struct kbloom_sbf *f = NULL;

	return kbloom_sbf_create(&pa, &o, &f) ? NULL : f;
}

/* Keys [lo, hi): how many add calls did not return 0 or 1. */
static __u64 add_range(struct kbloom_sbf *f, __u64 lo, __u64 hi)
{
	__u64 i, key, bad = 0;
	int ret;

	for (i = lo; i < hi; i++) {
		key = key_of(i);
		ret = kbloom_sbf_add(f, &key, 8);
		bad += ret != 0 && ret != 1;
	}
	return bad;
}

/* Keys of [lo, hi) that test present. */
static __u64 present(const struct kbloom_sbf *f, __u64 lo, __u64 hi)
{
	__u64 i, key, n = 0;

	for (i = lo; i < hi; i++) {
		key = key_of(i);
		n += kbloom_sbf_test(f, &key, 8) == 1;
	}
	return n;
}

static __u32 gens_of(const struct kbloom_sbf *f)
{
	struct kbloom_sbf_stats st;

	return kbloom_sbf_stats(f, &st) ? 0 : st.generations;
}

/* ---- geometry rule --------------------------------------------------- */

TEST(geometry_rule)
{
	struct kb_sbf_params p = { .type = KBLOOM_TYPE_SCALABLE, .growth = 2,
				   .ratio_ppm = 900000, .capacity = 1000,
				   .fpr_pico = P_1PCT };
	struct kb_sbf_gen g0, g3;
	struct kb_shape s;

	ASSERT_EQ(0, kb_sbf_params_check(&p));
	EXPECT_EQ(P_1PCT / 10, kb_sbf_p0(&p));
	ASSERT_EQ(0, kb_sbf_gen(&p, 0, &g0));
	ASSERT_EQ(0, kb_sbf_gen(&p, 3, &g3));
	EXPECT_EQ(KBLOOM_TYPE_PARTITIONED, g0.type);
	EXPECT_EQ(1000, g0.capacity);
	EXPECT_EQ(8000, g3.capacity);
	EXPECT_EQ(P_1PCT / 10 * 729 / 1000, g3.fpr_pico);
	ASSERT_EQ(0, kb_part_plan(8000, g3.fpr_pico, &s));
	EXPECT_EQ(s.k, g3.k);
	EXPECT_EQ(s.m, g3.m);
	EXPECT_EQ(s.buckets, g3.slice);
	/* full: the fill of an estimated C_i keys, not C_i set bits */
	EXPECT_GE(kb_n_est(g3.m, g3.k, g3.full_ones), g3.capacity);
	EXPECT_LT(kb_n_est(g3.m, g3.k, g3.full_ones - 1), g3.capacity);
	EXPECT_LT(g3.full_ones, (__u64)g3.k * g3.capacity);
	/* no generation past the rate floor or the count limit */
	EXPECT_EQ(-ENOSPC, kb_sbf_gen(&p, KB_SBF_GENS_MAX, &g3));
	p.ratio_ppm = 100000;
	EXPECT_EQ(-ENOSPC, kb_sbf_gen(&p, 8, &g3));

	p = (struct kb_sbf_params){ .type = KBLOOM_TYPE_DYNAMIC, .growth = 1,
		.ratio_ppm = KB_SBF_RATIO_UNIT, .counter_bits = 4,
		.capacity = 1000, .fpr_pico = P_1PCT };
	ASSERT_EQ(0, kb_sbf_gen(&p, 5, &g3));
	EXPECT_EQ(KBLOOM_TYPE_COUNTING, g3.type);
	EXPECT_EQ(1000, g3.capacity);
	EXPECT_EQ(P_1PCT, g3.fpr_pico);
	EXPECT_EQ(4, g3.counter_bits);
}

/* ---- scalable: grown 1000x ------------------------------------------- */

#define C0	1000ULL
#define GROWN	(1000 * C0)

TEST(scalable_grown_1000x)
{
	struct kbloom_sbf_stats st;
	struct kbloom_sbf *f;
	__u64 fp, i, key;
	double rate, bpk;

	f = sbf_new(KBLOOM_TYPE_SCALABLE, C0, P_1PCT);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, add_range(f, 0, GROWN));
	EXPECT_EQ(GROWN, present(f, 0, GROWN));
	fp = present(f, GROWN, GROWN + N_PROBES);
	rate = (double)fp / N_PROBES;
	ASSERT_EQ(0, kbloom_sbf_stats(f, &st));
	bpk = st.bytes * 8.0 / GROWN;
	TH_LOG("%u generations, rate %.4f%%, %.2f bits/key, predicted %.4f%%",
	       st.generations, rate * 100, bpk, st.fpr_now_pico * 1e-10);
	EXPECT_LE(rate, 0.01);
	EXPECT_LE(bpk, 17.0);
	EXPECT_EQ(10, st.generations);
	EXPECT_LE(st.fpr_now_pico, P_1PCT);
	/* duplicates: no new generation, nothing changed */
	for (i = 0; i < GROWN; i += 7) {
		key = key_of(i);
		ASSERT_EQ(1, kbloom_sbf_add(f, &key, 8));
	}
	EXPECT_EQ(st.generations, gens_of(f));
	kbloom_sbf_destroy(f);
}

/* Re-adding every key many times: one generation, as for one pass. */
TEST(duplicates_add_no_generation)
{
	struct kbloom_sbf *f;
	int round;

	f = sbf_new(KBLOOM_TYPE_SCALABLE, 10000, P_1PCT);
	ASSERT_NE(NULL, f);
	for (round = 0; round < 20; round++)
		ASSERT_EQ(0, add_range(f, 0, 9000));
	EXPECT_EQ(1, gens_of(f));
	ASSERT_EQ(0, add_range(f, 9000, 12000));
	EXPECT_EQ(2, gens_of(f));
	kbloom_sbf_destroy(f);

	/* dynamic (a multiset): duplicates set no new counter either */
	f = sbf_new(KBLOOM_TYPE_DYNAMIC, 10000, P_1PCT);
	ASSERT_NE(NULL, f);
	for (round = 0; round < 10; round++)
		ASSERT_EQ(0, add_range(f, 0, 9000));
	EXPECT_EQ(1, gens_of(f));
	kbloom_sbf_destroy(f);
}

/* ---- dynamic ---------------------------------------------------------- */

/* The survey's equation (26) at N keys in generations of C. */
static double eq26(double m, double k, double c, double n)
{
	double full = floor(n / c), last = n - c * full;
	double fc = pow(1 - exp(-k * c / m), k);
	double fl = pow(1 - exp(-k * last / m), k);

	return 1 - pow(1 - fc, full) * (1 - fl);
}

#define DC	20000ULL

TEST(dynamic_rate_eq26)
{
	struct kbloom_sbf_gen_stats g;
	struct kbloom_sbf *f;
	double rate, want;
	__u64 n = DC * 7 / 2;

	f = sbf_new(KBLOOM_TYPE_DYNAMIC, DC, P_1PCT);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, add_range(f, 0, n));
	EXPECT_EQ(n, present(f, 0, n));
	EXPECT_EQ(4, gens_of(f));
	ASSERT_EQ(0, kbloom_sbf_gen_stats(f, 0, &g));
	rate = (double)present(f, n, n + N_PROBES) / N_PROBES;
	want = eq26(g.g.m, g.g.k, DC, n);
	TH_LOG("m %llu k %u: measured %.4f%%, equation (26) %.4f%%",
	       (unsigned long long)g.g.m, g.g.k, rate * 100, want * 100);
	EXPECT_LE(fabs(rate / want - 1), 0.10);
	kbloom_sbf_destroy(f);
}

TEST(dynamic_delete_refused_when_ambiguous)
{
	struct kbloom_sbf_stats st;
	struct kbloom_sbf *f;
	__u64 i, key, refused = 0, deleted = 0;
	int ret;

	f = sbf_new(KBLOOM_TYPE_DYNAMIC, 2000, 50000000000ULL);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, add_range(f, 0, 7000));
	ASSERT_EQ(4, gens_of(f));
	for (i = 0; i < 7000; i++) {
		key = key_of(i);
		ret = kbloom_sbf_del(f, &key, 8);
		ASSERT_TRUE(ret == 1 || ret == -ENOTUNIQ) TH_LOG("%d", ret);
		if (ret == 1) {
			deleted++;
			continue;
		}
		refused++;
		/* refused: nothing changed, the key is still there */
		ASSERT_EQ(1, kbloom_sbf_test(f, &key, 8));
	}
	ASSERT_EQ(0, kbloom_sbf_stats(f, &st));
	TH_LOG("deleted %llu, refused %llu, merges %llu",
	       (unsigned long long)deleted, (unsigned long long)refused,
	       (unsigned long long)st.merges);
	EXPECT_GT(refused, 0);
	EXPECT_EQ(refused, st.refused);
	/* an absent key: 0, not refused */
	key = key_of(1ULL << 40);
	while (kbloom_sbf_test(f, &key, 8))
		key++;
	EXPECT_EQ(0, kbloom_sbf_del(f, &key, 8));
	ASSERT_EQ(0, kbloom_sbf_stats(f, &st));
	EXPECT_EQ(refused, st.refused);
	kbloom_sbf_destroy(f);
}

TEST(dynamic_merge_under_full)
{
	struct kbloom_sbf_stats st;
	struct kbloom_sbf *f;
	__u64 i, key, kept = 0, gone = 0;
	__u8 *deleted;

	f = sbf_new(KBLOOM_TYPE_DYNAMIC, 4000, P_1PCT);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, add_range(f, 0, 14000));
	ASSERT_EQ(4, gens_of(f));
	deleted = calloc(14000, 1);
	ASSERT_NE(NULL, deleted);
	/* three keys of four go */
	for (i = 0; i < 14000; i++) {
		if (!(i % 4))
			continue;
		key = key_of(i);
		deleted[i] = kbloom_sbf_del(f, &key, 8) == 1;
		gone += deleted[i];
	}
	ASSERT_EQ(0, kbloom_sbf_stats(f, &st));
	TH_LOG("deleted %llu: %u generations, %llu merges",
	       (unsigned long long)gone, st.generations,
	       (unsigned long long)st.merges);
	EXPECT_GE(st.merges, 2);
	EXPECT_EQ(4 - st.merges, st.generations);
	/* every key not deleted is still present after the merges */
	for (i = 0; i < 14000; i++) {
		key = key_of(i);
		if (!deleted[i])
			kept += kbloom_sbf_test(f, &key, 8) == 1;
		else
			kept++;
	}
	EXPECT_EQ(14000, kept);
	EXPECT_EQ(0, kbloom_sbf_merge(f));
	free(deleted);
	kbloom_sbf_destroy(f);
}

/* ---- images ------------------------------------------------------------ */

static void round_trip(struct __test_metadata *_metadata, __u32 type)
{
	struct kbloom_sbf_stats a, b;
	struct kbloom_sbf *f, *g;
	size_t len, need;
	__u64 i, key, diff = 0;
	void *img;

	f = sbf_new(type, 3000, P_1PCT);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, add_range(f, 0, 20000));
	ASSERT_EQ(0, kbloom_sbf_save_alloc(f, &img, &len));
	EXPECT_EQ(kbloom_sbf_image_size(f), len);
	EXPECT_EQ(0, kb_container_verify(img, len));
	EXPECT_EQ(-EMSGSIZE, kbloom_sbf_save(f, img, len - 1, &need));
	EXPECT_EQ(len, need);
	ASSERT_EQ(0, kbloom_sbf_load(img, len, &g));
	for (i = 0; i < 200000; i++) {
		key = key_of(i);
		diff += kbloom_sbf_test(f, &key, 8) !=
			kbloom_sbf_test(g, &key, 8);
	}
	EXPECT_EQ(0, diff);
	ASSERT_EQ(0, kbloom_sbf_stats(f, &a));
	ASSERT_EQ(0, kbloom_sbf_stats(g, &b));
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
	EXPECT_GT(a.generations, 1);
	free(img);
	kbloom_sbf_destroy(f);
	kbloom_sbf_destroy(g);
}

TEST(images_round_trip)
{
	round_trip(_metadata, KBLOOM_TYPE_SCALABLE);
	round_trip(_metadata, KBLOOM_TYPE_DYNAMIC);
}

/* Each member is an image valid on its own. */
TEST(members_load_alone)
{
	struct kbloom_container_hdr *c;
	struct kbloom_image_hdr *h;
	struct kbloom_part *p = NULL;
	struct kbloom_sbf *f;
	size_t len, mlen;
	__u8 *img;
	__u64 key = key_of(5);

	f = sbf_new(KBLOOM_TYPE_SCALABLE, 1000, P_1PCT);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, add_range(f, 0, 10));
	ASSERT_EQ(0, kbloom_sbf_save_alloc(f, (void **)&img, &len));
	c = (struct kbloom_container_hdr *)img;
	EXPECT_EQ(1, kb_le32(c->count));
	h = (struct kbloom_image_hdr *)(img + KBLOOM_CONTAINER_HDR_LEN);
	mlen = kb_le16(h->hdr_len) + kb_le64(h->payload_len);
	ASSERT_EQ(0, kbloom_part_load(h, mlen, &p));
	EXPECT_EQ(1, kbloom_part_test(p, &key, 8));
	kbloom_part_destroy(p);
	free(img);
	kbloom_sbf_destroy(f);
}

/* A valid container with one thing changed, checksums redone. */
static int reload_broken(struct kbloom_sbf *f, int what)
{
	struct kbloom_container_hdr *c;
	struct kbloom_image_head *hd;
	struct kbloom_sbf *g = NULL;
	size_t len, hl = sizeof(*hd), ml;
	__u32 crc;
	__u8 *buf;
	int ret;

	if (kbloom_sbf_save_alloc(f, (void **)&buf, &len))
		return 1;
	c = (struct kbloom_container_hdr *)buf;
	hd = (struct kbloom_image_head *)(c + 1);
	ml = hl + kb_le64(hd->h.payload_len);
	switch (what) {
	case 0: c->params[KB_SBF_PARAM_GROWTH] = kb_le64(17); break;
	case 1: c->params[KB_SBF_PARAM_RATIO] = kb_le64(KB_SBF_RATIO_UNIT); break;
	case 2: c->params[KB_SBF_PARAM_CAPACITY] = kb_le64(1001); break;
	case 3: c->params[KB_SBF_PARAM_MERGES] = kb_le64(1); break;
	case 4: hd->h.seed = kb_le64(1); break;
	case 5: hd->h.capacity = kb_le64(999); break;
	case 6: hd->h.fpr_pico = kb_le64(P_1PCT); break;
	case 7: memcpy(hd->h.name, "x", 2); break;
	}
	hd->h.crc = 0;
	hd->h.crc = kb_le32(kb_image_crc_head(hd, (__u8 *)hd + hl, ml - hl));
	c->crc = 0;
	crc = kb_crc32c_update(0xFFFFFFFFU, c, sizeof(*c));
	crc = kb_crc32c_update(crc, c + 1, len - sizeof(*c));
	c->crc = kb_le32(~crc);
	ret = kbloom_sbf_load(buf, len, &g);
	kbloom_sbf_destroy(g);
	free(buf);
	return ret;
}

TEST(bad_images_refused)
{
	struct kbloom_part *p;
	struct kbloom_sbf *f, *g = NULL;
	size_t len;
	__u8 *img;
	void *pimg;
	int i;

	f = sbf_new(KBLOOM_TYPE_SCALABLE, 1000, P_1PCT);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, add_range(f, 0, 3000));
	ASSERT_EQ(0, reload_broken(f, -1));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(-EBADMSG, reload_broken(f, i)) TH_LOG("case %d", i);
	ASSERT_EQ(0, kbloom_sbf_save_alloc(f, (void **)&img, &len));
	img[len - 1] ^= 1;
	EXPECT_EQ(-EBADMSG, kbloom_sbf_load(img, len, &g));
	EXPECT_EQ(-EMSGSIZE, kbloom_sbf_load(img, 100, &g));
	EXPECT_EQ(-EMSGSIZE, kbloom_sbf_load(img, len - 8, &g));
	EXPECT_EQ(-EINVAL, kbloom_sbf_load(NULL, len, &g));
	EXPECT_EQ(NULL, g);
	free(img);
	/* a plain image is not a container */
	ASSERT_EQ(0, kbloom_part_create(1000, P_1PCT, NULL, &p));
	ASSERT_EQ(0, kbloom_part_save_alloc(p, &pimg, &len));
	EXPECT_EQ(-EBADMSG, kbloom_sbf_load(pimg, len, &g));
	free(pimg);
	kbloom_part_destroy(p);
	kbloom_sbf_destroy(f);
}

/* ---- bad parameters ----------------------------------------------------- */

static int try_create(__u32 type, __u32 s, __u32 r, __u32 cb, __u64 c,
		      __u64 p)
{
	struct kb_sbf_params pa = { .type = type, .growth = s,
				    .ratio_ppm = r, .counter_bits = cb,
				    .capacity = c, .fpr_pico = p };
	struct kbloom_sbf *f = NULL;
	int ret = kbloom_sbf_create(&pa, NULL, &f);

	kbloom_sbf_destroy(f);
	return ret;
}

TEST(bad_parameters_refused)
{
	struct kbloom_opts o = { .counter_bits = 4 };
	struct kb_sbf_params pa = { .type = KBLOOM_TYPE_SCALABLE,
				    .capacity = 10, .fpr_pico = P_1PCT };
	struct kbloom_sbf *f = NULL;
	__u64 key = 1;

	EXPECT_EQ(0, try_create(KBLOOM_TYPE_SCALABLE, 0, 0, 0, 10, P_1PCT));
	EXPECT_EQ(-EINVAL, try_create(KBLOOM_TYPE_SCALABLE, 17, 0, 0, 10, P_1PCT));
	EXPECT_EQ(-EINVAL, try_create(KBLOOM_TYPE_SCALABLE, 2, 1000000, 0, 10, P_1PCT));
	EXPECT_EQ(-EINVAL, try_create(KBLOOM_TYPE_SCALABLE, 2, 0, 4, 10, P_1PCT));
	EXPECT_EQ(-EINVAL, try_create(KBLOOM_TYPE_SCALABLE, 2, 0, 0, 0, P_1PCT));
	EXPECT_EQ(-EINVAL, try_create(KBLOOM_TYPE_SCALABLE, 2, 0, 0, 10, 0));
	EXPECT_EQ(-EINVAL, try_create(KBLOOM_TYPE_SCALABLE, 2, 999999, 0, 10, 1000));
	EXPECT_EQ(-E2BIG, try_create(KBLOOM_TYPE_SCALABLE, 2, 0, 0, 1ULL << 40, P_1PCT));
	EXPECT_EQ(-EINVAL, try_create(KBLOOM_TYPE_DYNAMIC, 2, 0, 0, 10, P_1PCT));
	EXPECT_EQ(-EINVAL, try_create(KBLOOM_TYPE_DYNAMIC, 0, 900000, 0, 10, P_1PCT));
	EXPECT_EQ(-EINVAL, try_create(KBLOOM_TYPE_DYNAMIC, 0, 0, 3, 10, P_1PCT));
	EXPECT_EQ(0, try_create(KBLOOM_TYPE_DYNAMIC, 0, 0, 8, 10, P_1PCT));
	EXPECT_EQ(-EINVAL, try_create(KBLOOM_TYPE_PARTITIONED, 0, 0, 0, 10, P_1PCT));
	EXPECT_EQ(-EINVAL, kbloom_sbf_create(&pa, &o, &f));
	EXPECT_EQ(NULL, f);

	ASSERT_EQ(0, kbloom_sbf_create(&pa, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_sbf_add(f, &key, 0));
	EXPECT_EQ(-EINVAL, kbloom_sbf_add(f, &key, KBLOOM_KEY_MAX + 1));
	EXPECT_EQ(-EINVAL, kbloom_sbf_test(f, NULL, 8));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_sbf_del(f, &key, 8));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_sbf_merge(f));
	EXPECT_EQ(-ERANGE, kbloom_sbf_gen_stats(f, 1, &(struct kbloom_sbf_gen_stats){}));
	kbloom_sbf_destroy(f);
}

/* Growth stops where the rule stops: ENOSPC, counted, nothing changed. */
TEST(growth_limit_enospc)
{
	struct kbloom_sbf_stats st;
	struct kbloom_sbf *f;
	__u64 i, key;
	int ret = 0;

	f = sbf_new(KBLOOM_TYPE_DYNAMIC, 10, P_1PCT);
	ASSERT_NE(NULL, f);
	for (i = 0; i < 100000 && ret != -ENOSPC; i++) {
		key = key_of(i);
		ret = kbloom_sbf_add(f, &key, 8);
	}
	ASSERT_EQ(-ENOSPC, ret);
	ASSERT_EQ(0, kbloom_sbf_stats(f, &st));
	EXPECT_EQ(KB_SBF_GENS_MAX, st.generations);
	EXPECT_EQ(1, st.overflows);
	EXPECT_EQ(i - 1, st.inserted);
	kbloom_sbf_clear(f);
	EXPECT_EQ(1, gens_of(f));
	EXPECT_EQ(0, present(f, 0, 1000));
	kbloom_sbf_destroy(f);
}

TEST_HARNESS_MAIN
