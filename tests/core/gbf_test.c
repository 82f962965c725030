// SPDX-License-Identifier: GPL-2.0
/*
 * The generalized Bloom filter (libkbloom_survey.h, GBF; Laufer,
 * Velloso, Duarte 2007): m = 2^16 bits of random initial contents (each
 * bit 1 with probability 1/2), k1 set and k0 reset probes, n adds, ten
 * filters of different seeds and contents:
 *   - the false-positive rate of keys never added and the false-negative
 *     rate of the added keys are each within +-10% of the paper's model
 *     (kbloom_gbf_fpr(), kbloom_gbf_fnr(): the probability q that a bit
 *     is set after j adds, from the initial contents);
 *   - images carry MAY_FN and round-trip; bad shapes give EINVAL.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_survey.h"
#include "uapi/kbloom_image.h"
#include "core_util.h"

#define M_BITS		65536ULL
#define TRIALS		10U
#define N_PROBES	100000ULL

static __u64 key_of(__u64 t, __u64 i)
{
	return cu_mix((t << 40) ^ i ^ 0x6BF);
}

FIXTURE(gbf) {
	__u64 fp;
	__u64 fn;
};

FIXTURE_VARIANT(gbf) {
	__u32 k1;
	__u32 k0;
	__u64 n;
};

FIXTURE_VARIANT_ADD(gbf, k4_2_n2000) {
	.k1 = 4,
	.k0 = 2,
	.n = 2000,
};

FIXTURE_VARIANT_ADD(gbf, k3_1_n5000) {
	.k1 = 3,
	.k0 = 1,
	.n = 5000,
};

/* One trial: a filter of random contents, n adds; its FP and FN counts. */
static void trial(struct __test_metadata *_metadata,
		  const FIXTURE_VARIANT(gbf) *variant, __u32 t,
		  __u64 *fp, __u64 *fn)
{
	struct kbloom_opts o = { .seed = 0x6B0 + t };
	struct kbloom_gbf *f;
	__u64 i, key;

	ASSERT_EQ(0, kbloom_gbf_create(M_BITS, variant->k1, variant->k0, &o,
				       &f));
	kbloom_gbf_fill_random(f, 0xC0FFEE * (t + 1));
	for (i = 0; i < variant->n; i++) {
		key = key_of(t, i);
		ASSERT_EQ(0, kbloom_gbf_add(f, &key, 8));
	}
	for (i = 0; i < variant->n; i++) {
		key = key_of(t, i);
		*fn += kbloom_gbf_test(f, &key, 8) != 1;
	}
	for (i = 0; i < N_PROBES; i++) {
		key = key_of(t, variant->n + i);
		*fp += kbloom_gbf_test(f, &key, 8) == 1;
	}
	kbloom_gbf_destroy(f);
}

FIXTURE_SETUP(gbf)
{
	__u32 t;

	self->fp = 0;
	self->fn = 0;
	for (t = 0; t < TRIALS; t++)
		trial(_metadata, variant, t, &self->fp, &self->fn);
}

FIXTURE_TEARDOWN(gbf)
{
}

TEST_F(gbf, rates_match_paper)
{
	double fp = (double)self->fp / (TRIALS * N_PROBES);
	double fn = (double)self->fn / (TRIALS * variant->n);
	double pfp, pfn;

	pfp = kbloom_gbf_fpr(M_BITS, variant->k1, variant->k0, variant->n,
			     0.5);
	pfn = kbloom_gbf_fnr(M_BITS, variant->k1, variant->k0, variant->n,
			     0.5);
	TH_LOG("m=%llu k1=%u k0=%u n=%llu, random start: FP measured %.3f%% paper %.3f%%; FN measured %.2f%% paper %.2f%%",
	       M_BITS, variant->k1, variant->k0,
	       (unsigned long long)variant->n, fp * 100, pfp * 100, fn * 100,
	       pfn * 100);
	EXPECT_LE(fabs(fp - pfp), 0.1 * pfp);
	EXPECT_LE(fabs(fn - pfn), 0.1 * pfn);
}

TEST(image_may_fn_and_bad_parameters)
{
	struct kbloom_opts o = { .seed = 3, .name = "gbf" };
	struct kbloom_gbf *f, *g, *h = (void *)1;
	struct kbloom_image_head *hd;
	size_t len, len2;
	void *img, *img2;

	ASSERT_EQ(0, kbloom_gbf_create(4096, 3, 2, &o, &f));
	kbloom_gbf_fill_random(f, 9);
	ASSERT_EQ(0, kbloom_gbf_add(f, "x", 1));
	ASSERT_EQ(0, kbloom_gbf_save_alloc(f, &img, &len));
	hd = img;
	EXPECT_EQ(KBLOOM_IMAGE_F_MAY_FN, hd->h.flags);
	EXPECT_EQ(2, hd->g.tables);
	ASSERT_EQ(0, kbloom_gbf_load(img, len, &g));
	EXPECT_EQ(1, kbloom_gbf_test(g, "x", 1));
	ASSERT_EQ(0, kbloom_gbf_save_alloc(g, &img2, &len2));
	ASSERT_EQ(len, len2);
	EXPECT_EQ(0, memcmp(img, img2, len));
	hd->g.tables = 0;	/* no reset probes: not a GBF */
	hd->h.crc = kb_le32(kb_image_crc_head(hd, (__u8 *)img + sizeof(*hd),
					      len - sizeof(*hd)));
	EXPECT_EQ(-EBADMSG, kbloom_gbf_load(img, len, &h));
	EXPECT_EQ(-EINVAL, kbloom_gbf_create(4096, 3, 0, NULL, &h));
	EXPECT_EQ(-EINVAL, kbloom_gbf_create(4096, 0, 2, NULL, &h));
	EXPECT_EQ(-EINVAL, kbloom_gbf_create(4096, 20, 13, NULL, &h));
	EXPECT_EQ(-EINVAL, kbloom_gbf_create(4000, 3, 2, NULL, &h));
	EXPECT_EQ((void *)1, h);
	EXPECT_EQ(-EINVAL, kbloom_gbf_add(f, NULL, 1));
	free(img);
	free(img2);
	kbloom_gbf_destroy(g);
	kbloom_gbf_destroy(f);
}

TEST_HARNESS_MAIN
