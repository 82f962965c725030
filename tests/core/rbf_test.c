// SPDX-License-Identifier: GPL-2.0
/*
 * The retouched Bloom filter (libkbloom_survey.h, RBF; Donnet, Baynat,
 * Friedman, CoNEXT 2006): 5 x 10^4 keys in 8 bits a key, k = 4.
 *   - Random bit clearing of 2% of the set bits: the share of members
 *     that become false negatives (f_N) and the share of false positives
 *     removed (Delta) are each within +-10% of the paper's
 *     1 - C(X - k, s) / C(X, s), and their ratio Sigma = Delta / f_N is
 *     1 +-10% (the paper: random clearing removes false positives in the
 *     same proportion as it creates false negatives).
 *   - The four selective policies (random, minimum FN, maximum FP, ratio
 *     selection) on the false positives found among 10^6 keys never added:
 *     every one of them is removed; minimum-FN and ratio selection make
 *     fewer false negatives than random selection, maximum-FP selection
 *     clears fewer bits (the paper's ordering); Sigma printed for each;
 *     bounded to one member per false positive on the cleared bit, ratio
 *     selection makes fewer false negatives and leaves some false
 *     positives (a set bit always has a member: bound 0 clears nothing).
 *   - Images carry MAY_FN and round-trip; a loaded filter has no member
 *     counts (or after kbloom_rbf_drop_counts(), which keeps its bits and
 *     answers): minimum-FN and ratio selection give ENODATA; bad parameters
 *     give EINVAL and change nothing.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_survey.h"
#include "uapi/kbloom_image.h"
#include "core_util.h"

#define N_KEYS		50000ULL
#define N_PROBES	1000000ULL
#define M_BITS		(8 * N_KEYS)
#define K		4U
#define SEED		0x4BF

static __u64 key_of(__u64 i)
{
	return cu_mix(i ^ 0x4E70);
}

static struct kbloom_rbf *filled(void)
{
	struct kbloom_opts o = { .seed = SEED, .name = "rbf" };
	struct kbloom_rbf *f;
	__u64 i, key;

	if (kbloom_rbf_create(M_BITS, K, &o, &f))
		return NULL;
	for (i = 0; i < N_KEYS; i++) {
		key = key_of(i);
		kbloom_rbf_add(f, &key, 8);
	}
	return f;
}

/* The false positives among the probes, as 8-byte keys: their count. */
static __u64 false_positives(const struct kbloom_rbf *f, __u64 **out)
{
	__u64 i, key, n = 0, *fps = malloc(N_PROBES * 8);

	for (i = 0; fps && i < N_PROBES; i++) {
		key = key_of(N_KEYS + i);
		if (kbloom_rbf_test(f, &key, 8) == 1)
			fps[n++] = key;
	}
	*out = fps;
	return n;
}

/* Share of @keys (or of the members when NULL) that test absent. */
static double lost(const struct kbloom_rbf *f, const __u64 *keys, __u64 n)
{
	__u64 i, key, miss = 0;

	for (i = 0; i < n; i++) {
		key = keys ? keys[i] : key_of(i);
		miss += kbloom_rbf_test(f, &key, 8) != 1;
	}
	return (double)miss / n;
}

TEST(random_clearing_sigma_one)
{
	struct kbloom_rbf_stats st;
	struct kbloom_rbf *f = filled();
	double fn, delta, pred;
	__u64 nfp, s, *fps;

	ASSERT_NE(NULL, f);
	nfp = false_positives(f, &fps);
	ASSERT_NE(NULL, fps);
	ASSERT_LT(1000, nfp);
	ASSERT_EQ(0, kbloom_rbf_stats(f, &st));
	s = st.ones / 50;
	ASSERT_EQ((long)s, kbloom_rbf_clear_random(f, s, 7));
	fn = lost(f, NULL, N_KEYS);
	delta = lost(f, fps, nfp);
	pred = kbloom_rbf_random_loss(st.ones, s, K);
	TH_LOG("random clearing of %llu of %llu ones: f_N %.3f%%, FP removed %.3f%% (of %llu), paper %.3f%%, Sigma %.3f",
	       (unsigned long long)s, (unsigned long long)st.ones, fn * 100,
	       delta * 100, (unsigned long long)nfp, pred * 100, delta / fn);
	EXPECT_LE(fabs(fn - pred), 0.1 * pred);
	EXPECT_LE(fabs(delta - pred), 0.1 * pred);
	EXPECT_LE(fabs(delta / fn - 1), 0.1);
	free(fps);
	kbloom_rbf_destroy(f);
}

static const char *const policy_name[] = {
	"", "random", "minimum FN", "maximum FP", "ratio"
};

TEST(selective_policies)
{
	double fn[KBLOOM_RBF_RATIO + 1];
	long cleared[KBLOOM_RBF_RATIO + 1];
	struct kbloom_rbf *f;
	__u64 nfp, *fps;
	__u32 p;

	for (p = KBLOOM_RBF_RANDOM; p <= KBLOOM_RBF_RATIO; p++) {
		f = filled();
		ASSERT_NE(NULL, f);
		nfp = false_positives(f, &fps);
		ASSERT_NE(NULL, fps);
		cleared[p] = kbloom_rbf_retouch(f, p, fps, 8, nfp, 11);
		ASSERT_LT(0, cleared[p]);
		EXPECT_EQ(1.0, lost(f, fps, nfp));
		fn[p] = lost(f, NULL, N_KEYS);
		TH_LOG("%s selection: %llu false positives removed, %ld bits cleared, f_N %.3f%%, Sigma %.2f",
		       policy_name[p], (unsigned long long)nfp, cleared[p],
		       fn[p] * 100, 1.0 / fn[p]);
		free(fps);
		kbloom_rbf_destroy(f);
	}
	/* bounded to a member per false positive: fewer FN, some FP stay */
	f = filled();
	ASSERT_NE(NULL, f);
	nfp = false_positives(f, &fps);
	ASSERT_NE(NULL, fps);
	EXPECT_EQ(0, kbloom_rbf_retouch_ratio(f, fps, 8, nfp, 0));
	cleared[0] = kbloom_rbf_retouch_ratio(f, fps, 8, nfp, 1);
	EXPECT_LT(0, cleared[0]);
	fn[0] = lost(f, NULL, N_KEYS);
	EXPECT_LT(fn[0], fn[KBLOOM_RBF_RATIO]);
	EXPECT_GT(1.0, lost(f, fps, nfp));
	TH_LOG("ratio selection bounded to 1 member per false positive: %ld bits cleared, %.2f%% of the false positives removed, f_N %.3f%%",
	       cleared[0], lost(f, fps, nfp) * 100, fn[0] * 100);
	free(fps);
	kbloom_rbf_destroy(f);
	EXPECT_LT(fn[KBLOOM_RBF_MIN_FN], fn[KBLOOM_RBF_RANDOM]);
	EXPECT_LT(fn[KBLOOM_RBF_RATIO], fn[KBLOOM_RBF_RANDOM]);
	EXPECT_LT(cleared[KBLOOM_RBF_MAX_FP], cleared[KBLOOM_RBF_RANDOM]);
}

/* The answers for the members and as many other keys, as a weighted sum. */
static __u64 answers(const struct kbloom_rbf *f)
{
	__u64 i, key, sum = 0;

	for (i = 0; i < 2 * N_KEYS; i++) {
		key = key_of(i);
		sum += (__u64)(kbloom_rbf_test(f, &key, 8) == 1) * (i + 1);
	}
	return sum;
}

TEST(drop_counts)
{
	struct kbloom_rbf *f = filled();
	struct kbloom_rbf_stats st;
	__u64 *fps = NULL, nfp, before, key = 1;
	size_t len, len2;
	void *img, *img2;

	ASSERT_NE(NULL, f);
	nfp = false_positives(f, &fps);
	ASSERT_NE(NULL, fps);
	ASSERT_LT(0, kbloom_rbf_retouch_ratio(f, fps, 8, nfp, 1));
	free(fps);
	ASSERT_EQ(0, kbloom_rbf_save_alloc(f, &img, &len));
	before = answers(f);
	EXPECT_EQ(0, kbloom_rbf_drop_counts(f));
	EXPECT_EQ(0, kbloom_rbf_stats(f, &st));
	EXPECT_EQ(0, st.counts);
	EXPECT_EQ(before, answers(f));
	ASSERT_EQ(0, kbloom_rbf_save_alloc(f, &img2, &len2));
	ASSERT_EQ(len, len2);
	EXPECT_EQ(0, memcmp(img, img2, len));
	EXPECT_EQ(-ENODATA, kbloom_rbf_retouch_ratio(f, &key, 8, 1, 1));
	EXPECT_EQ(0, kbloom_rbf_add(f, &key, 8));
	EXPECT_EQ(1, kbloom_rbf_test(f, &key, 8));
	EXPECT_EQ(-EINVAL, kbloom_rbf_drop_counts(NULL));
	free(img);
	free(img2);
	kbloom_rbf_destroy(f);
}

TEST(image_may_fn_and_bad_parameters)
{
	struct kbloom_rbf *f = filled(), *g, *h = (void *)1;
	struct kbloom_image_head *hd;
	size_t len, len2;
	void *img, *img2;
	__u64 key = 1;

	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, kbloom_rbf_save_alloc(f, &img, &len));
	hd = img;
	EXPECT_EQ(KBLOOM_IMAGE_F_MAY_FN, hd->h.flags);
	ASSERT_EQ(0, kbloom_rbf_load(img, len, &g));
	ASSERT_EQ(0, kbloom_rbf_save_alloc(g, &img2, &len2));
	ASSERT_EQ(len, len2);
	EXPECT_EQ(0, memcmp(img, img2, len));
	free(img2);
	EXPECT_EQ(-ENODATA, kbloom_rbf_retouch(g, KBLOOM_RBF_MIN_FN, &key, 8,
					       1, 0));
	EXPECT_EQ(-ENODATA, kbloom_rbf_retouch(g, KBLOOM_RBF_RATIO, &key, 8,
					       1, 0));
	EXPECT_EQ(-EINVAL, kbloom_rbf_retouch(f, 0, &key, 8, 1, 0));
	EXPECT_EQ(-EINVAL, kbloom_rbf_retouch(f, 5, &key, 8, 1, 0));
	EXPECT_EQ(-EINVAL, kbloom_rbf_retouch(f, 1, &key, 0, 1, 0));
	EXPECT_EQ(-EINVAL, kbloom_rbf_retouch(f, 1, &key, 65, 1, 0));
	EXPECT_EQ(-EINVAL, kbloom_rbf_retouch(f, 1, NULL, 8, 1, 0));
	ASSERT_EQ(0, kbloom_rbf_save_alloc(g, &img2, &len2));
	EXPECT_EQ(0, memcmp(img, img2, len));	/* nothing changed */
	/* the flag is the type's: an image without it is refused */
	hd = img;
	hd->h.flags = 0;
	hd->h.crc = kb_le32(kb_image_crc_head(hd, (__u8 *)img + sizeof(*hd),
					      len - sizeof(*hd)));
	EXPECT_EQ(-EBADMSG, kbloom_rbf_load(img, len, &h));
	EXPECT_EQ(-EINVAL, kbloom_rbf_create(1000, 4, NULL, &h));
	EXPECT_EQ(-EINVAL, kbloom_rbf_create(1024, 0, NULL, &h));
	EXPECT_EQ(-EINVAL, kbloom_rbf_create(1024, 33, NULL, &h));
	EXPECT_EQ((void *)1, h);
	free(img);
	free(img2);
	kbloom_rbf_destroy(g);
	kbloom_rbf_destroy(f);
}

TEST_HARNESS_MAIN
