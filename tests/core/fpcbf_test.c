// SPDX-License-Identifier: GPL-2.0
/*
 * The fingerprint counting Bloom filter (libkbloom_survey.h, FP-CBF),
 * 4-bit counters and 4-bit fingerprint fields, 10^5 keys, at 32 and at 16
 * bits per key, each at its best k:
 *   - the measured false-positive rate is within +-10% of the paper's
 *     (kbloom_fpcbf_fpr()), and below a 4-bit counting filter's of the
 *     same bytes; both are printed next to the VI-CBF's of the same bytes
 *     (4-bit counters, its default L);
 *   - deleting half the keys leaves 0 false negatives;
 *   - a 2-bit counter saturates, is counted and never moves again;
 *   - images round-trip; bad geometry gives EINVAL; an image with a cell
 *     of counter 0 holding a fingerprint is refused (a key added after
 *     loading it could be missed: make fuzz found one).
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_survey.h"
#include "libkbloom_vicbf.h"
#include "uapi/kbloom_image.h"
#include "core_util.h"

#define N_KEYS		100000ULL
#define N_PROBES	1000000ULL
#define SEED		0xF9CBF

static __u64 key_of(__u64 i)
{
	return cu_mix(i ^ 0xF0C6);
}

static double counting_rate(__u64 m, __u32 k)
{
	struct kbloom_opts o = { .seed = SEED, .counter_bits = 4 };
	struct kbloom_filter *f;
	__u64 i, key, fp = 0;

	if (kbloom_create_mk(KBLOOM_TYPE_COUNTING, m, k, &o, &f))
		return -1;
	for (i = 0; i < N_KEYS; i++) {
		key = key_of(i);
		kbloom_add(f, &key, 8);
	}
	for (i = 0; i < N_PROBES / 4; i++) {
		key = key_of(N_KEYS + i);
		fp += kbloom_test(f, &key, 8) == 1;
	}
	kbloom_destroy(f);
	return (double)fp / (N_PROBES / 4);
}

static double vicbf_rate(__u64 m, __u32 k)
{
	struct kbloom_vicbf_opts o = { .seed = SEED };
	struct kbloom_vicbf *f;
	__u64 i, key, fp = 0;

	if (kbloom_vicbf_create_mk(m, k, &o, &f))
		return -1;
	for (i = 0; i < N_KEYS; i++) {
		key = key_of(i);
		kbloom_vicbf_add(f, &key, 8);
	}
	for (i = 0; i < N_PROBES / 4; i++) {
		key = key_of(N_KEYS + i);
		fp += kbloom_vicbf_test(f, &key, 8) == 1;
	}
	kbloom_vicbf_destroy(f);
	return (double)fp / (N_PROBES / 4);
}

FIXTURE(fp) {
	struct kbloom_fpcbf *f;
};

FIXTURE_VARIANT(fp) {
	__u32 bits_per_key;
	__u32 k;		/* the FP-CBF's best k */
	__u32 k_cbf;		/* counting/4's best k at the same bytes */
};

FIXTURE_VARIANT_ADD(fp, b32) {
	.bits_per_key = 32,
	.k = 4,
	.k_cbf = 6,
};

FIXTURE_VARIANT_ADD(fp, b16) {
	.bits_per_key = 16,
	.k = 2,
	.k_cbf = 3,
};

FIXTURE_SETUP(fp)
{
	struct kbloom_opts o = { .seed = SEED };
	__u64 i, key, cells = variant->bits_per_key * N_KEYS / 8;

	ASSERT_EQ(0, kbloom_fpcbf_create(cells, variant->k, 4, 4, &o,
					 &self->f));
	for (i = 0; i < N_KEYS; i++) {
		key = key_of(i);
		ASSERT_LE(0, kbloom_fpcbf_add(self->f, &key, 8));
	}
}

FIXTURE_TEARDOWN(fp)
{
	kbloom_fpcbf_destroy(self->f);
}

TEST_F(fp, rate_matches_paper_at_equal_bytes)
{
	__u64 i, key, fp = 0, ctrs = variant->bits_per_key * N_KEYS / 4;
	struct kbloom_fpcbf_stats st;
	double meas, pred, cbf, vi;

	for (i = 0; i < N_PROBES; i++) {
		key = key_of(N_KEYS + i);
		fp += kbloom_fpcbf_test(self->f, &key, 8) == 1;
	}
	meas = (double)fp / N_PROBES;
	ASSERT_EQ(0, kbloom_fpcbf_stats(self->f, &st));
	pred = kbloom_fpcbf_fpr(st.m, st.k, N_KEYS, st.fp_bits);
	cbf = counting_rate(ctrs, variant->k_cbf);
	vi = vicbf_rate(ctrs, variant->k_cbf > 4 ? 4 : variant->k_cbf);
	ASSERT_EQ(ctrs / 2, st.bytes);
	TH_LOG("%u bits/key (%llu bytes): FP-CBF c=4 f=4 k=%u measured %.4f%%, paper %.4f%%; counting/4 k=%u %.4f%%; VI-CBF k=%u %.4f%%",
	       variant->bits_per_key, (unsigned long long)st.bytes,
	       variant->k, meas * 100, pred * 100, variant->k_cbf, cbf * 100,
	       variant->k_cbf > 4 ? 4 : variant->k_cbf, vi * 100);
	EXPECT_LE(fabs(meas - pred), 0.1 * pred);
	EXPECT_LT(meas, cbf);
}

TEST_F(fp, delete_half_no_false_negative)
{
	__u64 i, key, fn = 0;

	for (i = 0; i < N_KEYS; i += 2) {
		key = key_of(i);
		ASSERT_EQ(0, kbloom_fpcbf_del(self->f, &key, 8));
	}
	for (i = 1; i < N_KEYS; i += 2) {
		key = key_of(i);
		fn += kbloom_fpcbf_test(self->f, &key, 8) != 1;
	}
	EXPECT_EQ(0, fn);
}

TEST(saturation_and_image)
{
	struct kbloom_opts o = { .seed = SEED, .name = "fp1" };
	struct kbloom_fpcbf_stats st;
	struct kbloom_fpcbf *f, *g, *h = NULL;
	void *img, *img2;
	size_t len, len2;
	int i;

	/* 2-bit counters, 5-bit prints: 7-bit cells straddle words */
	ASSERT_EQ(0, kbloom_fpcbf_create(640, 3, 2, 5, &o, &f));
	EXPECT_EQ(0, kbloom_fpcbf_add(f, "key", 3));
	EXPECT_EQ(0, kbloom_fpcbf_add(f, "key", 3));
	EXPECT_EQ(1, kbloom_fpcbf_add(f, "key", 3));	/* reaches 3 */
	EXPECT_EQ(1, kbloom_fpcbf_add(f, "key", 3));
	ASSERT_EQ(0, kbloom_fpcbf_stats(f, &st));
	EXPECT_EQ(2, st.saturations);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0, kbloom_fpcbf_del(f, "key", 3));
	EXPECT_EQ(1, kbloom_fpcbf_test(f, "key", 3));
	EXPECT_EQ(-ENOENT, kbloom_fpcbf_del(f, "other", 5));
	ASSERT_EQ(0, kbloom_fpcbf_save_alloc(f, &img, &len));
	ASSERT_EQ(0, kbloom_fpcbf_load(img, len, &g));
	ASSERT_EQ(0, kbloom_fpcbf_save_alloc(g, &img2, &len2));
	ASSERT_EQ(len, len2);
	EXPECT_EQ(0, memcmp(img, img2, len));
	EXPECT_EQ(1, kbloom_fpcbf_test(g, "key", 3));
	((__u8 *)img)[len - 1] ^= 1;
	EXPECT_EQ(-EBADMSG, kbloom_fpcbf_load(img, len, &h));
	EXPECT_EQ(NULL, h);
	free(img);
	free(img2);
	kbloom_fpcbf_destroy(g);
	kbloom_fpcbf_destroy(f);
}

/*
 * 4-bit counters and 4-bit prints: a cell per byte, the last byte of the
 * image the last cell.  Counter 0 with print 5 is refused, counter 1 with
 * print 5 loads (the checksum made right for each).
 */
TEST(zero_count_with_print_refused)
{
	struct kbloom_opts o = { .seed = SEED, .name = "fp0" };
	struct kbloom_image_head *hd;
	struct kbloom_fpcbf *f, *g = NULL;
	size_t len;
	__u8 *img;

	ASSERT_EQ(0, kbloom_fpcbf_create(1024, 3, 4, 4, &o, &f));
	ASSERT_EQ(0, kbloom_fpcbf_save_alloc(f, (void **)&img, &len));
	hd = (struct kbloom_image_head *)img;
	img[len - 1] = 0x50;
	hd->h.crc = kb_le32(kb_image_crc_head(hd, img + sizeof(*hd),
					      len - sizeof(*hd)));
	EXPECT_EQ(-EBADMSG, kbloom_fpcbf_load(img, len, &g));
	EXPECT_EQ(NULL, g);
	img[len - 1] = 0x51;
	hd->h.crc = kb_le32(kb_image_crc_head(hd, img + sizeof(*hd),
					      len - sizeof(*hd)));
	ASSERT_EQ(0, kbloom_fpcbf_load(img, len, &g));
	kbloom_fpcbf_destroy(g);
	free(img);
	kbloom_fpcbf_destroy(f);
}

TEST(bad_parameters)
{
	struct kbloom_fpcbf *f = (void *)1;

	EXPECT_EQ(-EINVAL, kbloom_fpcbf_create(1000, 3, 4, 4, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_fpcbf_create(1024, 0, 4, 4, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_fpcbf_create(1024, 3, 1, 4, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_fpcbf_create(1024, 3, 9, 4, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_fpcbf_create(1024, 3, 4, 0, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_fpcbf_create(1024, 3, 4, 25, NULL, &f));
	EXPECT_EQ((void *)1, f);
	EXPECT_EQ(-EINVAL, kbloom_fpcbf_create(1024, 3, 4, 4, NULL, NULL));
}

TEST_HARNESS_MAIN
