// SPDX-License-Identifier: GPL-2.0
/*
 * The shifting Bloom filter (uapi/kbloom_var_shifting.h,
 * libkbloom_survey.h):
 *   - association: 60,000 keys in S1 only, both and S2 only at 10 bits
 *     per key, k = 4: every key's answer holds its class, and the share
 *     of unclear answers is within +-10% of the paper's error
 *     1 - (1 - f^k)^2 averaged over the load of a key's 512-bit block;
 *   - one cache line per query: a key changes only the 64-byte line its
 *     query reads;
 *   - membership: no false negative, rate within +-10% of the blocked
 *     formula for 2k bits per key; multiplicity: never below the count;
 *   - images round-trip; bad parameters and images refused, nothing
 *     changed.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom_survey.h"
#include "core_util.h"

#define N_ASSOC		60000ULL
#define N_MEMBER	40000ULL
#define N_PROBES	400000ULL

static __u64 key_of(__u64 i)
{
	return cu_mix(i ^ 0x5B1F7);
}

static double pois(double lambda, __u32 i)
{
	return exp(-lambda + i * log(lambda) - lgamma(i + 1.0));
}

/* Fill of a 512-bit block holding @i keys of @bits bits each. */
static double block_fill(__u32 i, __u32 bits)
{
	return 1.0 - pow(1.0 - 1.0 / KBLOOM_BLOCK_BITS, (double)i * bits);
}

/* The paper's association error, averaged over the block loads. */
static double assoc_error(__u64 n, __u64 m, __u32 k)
{
	double lambda = (double)n * KBLOOM_BLOCK_BITS / m, e = 0, p;
	__u32 i;

	for (i = 0; i < 200; i++) {
		p = pow(block_fill(i, k), k);
		e += pois(lambda, i) * (1.0 - (1.0 - p) * (1.0 - p));
	}
	return e;
}

/* Membership: a non-key meets 2k bits of a block of keys of 2k bits. */
static double member_rate(__u64 n, __u64 m, __u32 k)
{
	double lambda = (double)n * KBLOOM_BLOCK_BITS / m, r = 0;
	__u32 i;

	for (i = 0; i < 200; i++)
		r += pois(lambda, i) * pow(block_fill(i, 2 * k), 2 * k);
	return r;
}

static __u32 class_of(__u64 i)
{
	static const __u32 cls[] = { KB_SHBF_S1, KB_SHBF_BOTH, KB_SHBF_S2 };

	return cls[i % 3];
}

static __u64 m_of(__u64 n, __u32 bits_per_key)
{
	return (n * bits_per_key + 511) / 512 * 512;
}

TEST(association_error)
{
	__u64 m = m_of(N_ASSOC, 10), i, key, unclear = 0;
	struct kbloom_shbf *f;
	double e, want;
	int ans;

	ASSERT_EQ(0, kbloom_shbf_create(KB_SHBF_ASSOCIATION, m, 4, 0, NULL,
					&f));
	for (i = 0; i < N_ASSOC; i++) {
		key = key_of(i);
		ASSERT_EQ(0, kbloom_shbf_assoc_add(f, &key, 8, class_of(i)));
	}
	for (i = 0; i < N_ASSOC; i++) {
		key = key_of(i);
		ans = kbloom_shbf_assoc_query(f, &key, 8);
		ASSERT_TRUE(ans & class_of(i));
		unclear += (__u32)ans != class_of(i);
	}
	e = (double)unclear / N_ASSOC;
	want = assoc_error(N_ASSOC, m, 4);
	TH_LOG("association, %llu keys, 10 bits/key, k=4: unclear answers %.3f%%, paper's 1-(1-f^k)^2 over block loads %.3f%% (%+.1f%%)",
	       (unsigned long long)N_ASSOC, 100 * e, 100 * want,
	       100 * (e / want - 1));
	EXPECT_LT(fabs(e / want - 1), 0.10);
	kbloom_shbf_destroy(f);
}

/* All non-zero words of @f's array lie in the 64-byte @line. */
static int only_line(const struct kbloom_shbf *f, const __u64 *line)
{
	const __u64 *w;
	__u64 i, n;

	w = kbloom_shbf_words(f, &n);
	if ((uintptr_t)line & 63 || line < w || line + 8 > w + n)
		return 0;
	for (i = 0; i < n; i++)
		if (w[i] && (w + i < line || w + i >= line + 8))
			return 0;
	return 1;
}

static void add_one(struct __test_metadata *_metadata,
		    struct kbloom_shbf *f, __u32 mode, __u64 i)
{
	__u64 key = key_of(i);
	int ret;

	if (mode == KB_SHBF_MEMBERSHIP)
		ret = kbloom_shbf_add(f, &key, 8);
	else if (mode == KB_SHBF_ASSOCIATION)
		ret = kbloom_shbf_assoc_add(f, &key, 8, class_of(i));
	else
		ret = kbloom_shbf_count_add(f, &key, 8, 1 + i % KB_SHBF_CMAX);
	ASSERT_EQ(0, ret);
}

TEST(one_cache_line)
{
	static const __u32 mode[] = { KB_SHBF_MEMBERSHIP, KB_SHBF_ASSOCIATION,
				      KB_SHBF_MULTIPLICITY };
	struct kbloom_shbf *f;
	__u64 i, key;
	__u32 md;

	for (i = 0; i < 300; i++) {
		md = mode[i % 3];
		ASSERT_EQ(0, kbloom_shbf_create(md, 512 * 64, 8,
						md == KB_SHBF_MULTIPLICITY ?
						KB_SHBF_CMAX : 0, NULL, &f));
		add_one(_metadata, f, md, i);
		key = key_of(i);
		ASSERT_TRUE(only_line(f, kbloom_shbf_line(f, &key, 8)));
		kbloom_shbf_destroy(f);
	}
}

TEST(membership_and_multiplicity)
{
	__u64 m = m_of(N_MEMBER, 10), i, key, fp = 0, exact = 0;
	struct kbloom_shbf *f, *c;
	double r, want;
	int got;

	ASSERT_EQ(0, kbloom_shbf_create(KB_SHBF_MEMBERSHIP, m, 3, 0, NULL, &f));
	ASSERT_EQ(0, kbloom_shbf_create(KB_SHBF_MULTIPLICITY, m, 3,
					KB_SHBF_CMAX, NULL, &c));
	for (i = 0; i < N_MEMBER; i++) {
		add_one(_metadata, f, KB_SHBF_MEMBERSHIP, i);
		add_one(_metadata, c, KB_SHBF_MULTIPLICITY, i);
	}
	for (i = 0; i < N_MEMBER; i++) {
		key = key_of(i);
		ASSERT_EQ(1, kbloom_shbf_test(f, &key, 8));
		got = kbloom_shbf_count(c, &key, 8);
		ASSERT_GE(got, (int)(1 + i % KB_SHBF_CMAX));
		exact += got == (int)(1 + i % KB_SHBF_CMAX);
	}
	for (i = N_MEMBER; i < N_MEMBER + N_PROBES; i++) {
		key = key_of(i);
		fp += kbloom_shbf_test(f, &key, 8) == 1;
	}
	r = (double)fp / N_PROBES;
	want = member_rate(N_MEMBER, m, 3);
	TH_LOG("membership, 10 bits/key, k=3 pairs: rate %.4f%%, blocked formula for 2k bits %.4f%% (%+.1f%%); multiplicity (cmax %u): %.2f%% counts exact",
	       100 * r, 100 * want, 100 * (r / want - 1), KB_SHBF_CMAX,
	       100.0 * exact / N_MEMBER);
	EXPECT_LT(fabs(r / want - 1), 0.10);
	kbloom_shbf_destroy(f);
	kbloom_shbf_destroy(c);
}

TEST(image_round_trip)
{
	struct kbloom_shbf *f, *g;
	__u64 i, key;
	size_t len;
	void *img;
	__u8 *b;

	ASSERT_EQ(0, kbloom_shbf_create(KB_SHBF_ASSOCIATION, 512 * 40, 4, 0,
					NULL, &f));
	for (i = 0; i < 2000; i++)
		add_one(_metadata, f, KB_SHBF_ASSOCIATION, i);
	ASSERT_EQ(0, kbloom_shbf_save_alloc(f, &img, &len));
	ASSERT_EQ(0, kbloom_shbf_load(img, len, &g));
	EXPECT_EQ(2000, kbloom_shbf_inserted(g));
	for (i = 0; i < 4000; i++) {
		key = key_of(i);
		ASSERT_EQ(kbloom_shbf_assoc_query(f, &key, 8),
			  kbloom_shbf_assoc_query(g, &key, 8));
	}
	kbloom_shbf_destroy(g);
	b = img;
	EXPECT_EQ(-EMSGSIZE, kbloom_shbf_load(img, len - 1, &g));
	b[len - 1] ^= 1;
	EXPECT_EQ(-EBADMSG, kbloom_shbf_load(img, len, &g));
	b[len - 1] ^= 1;
	b[KBLOOM_IMAGE_HDR_LEN + 4] = 4;	/* tail: update = mode 4 */
	EXPECT_EQ(-EBADMSG, kbloom_shbf_load(img, len, &g));
	b[KBLOOM_IMAGE_HDR_LEN + 4] = KB_SHBF_ASSOCIATION;
	b[8] = KBLOOM_TYPE_PARTITIONED;
	EXPECT_EQ(-EOPNOTSUPP, kbloom_shbf_load(img, len, &g));
	free(img);
	kbloom_shbf_destroy(f);
}

TEST(bad_parameters)
{
	struct kbloom_shbf *f = NULL;
	__u64 key = 1;

	EXPECT_EQ(-EINVAL, kbloom_shbf_create(KB_SHBF_MEMBERSHIP, 1000, 3, 0,
					      NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_shbf_create(KB_SHBF_MEMBERSHIP, 512, 0, 0,
					      NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_shbf_create(KB_SHBF_MEMBERSHIP, 512, 33, 0,
					      NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_shbf_create(0, 512, 3, 0, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_shbf_create(4, 512, 3, 0, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_shbf_create(KB_SHBF_ASSOCIATION, 512, 3, 2,
					      NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_shbf_create(KB_SHBF_MULTIPLICITY, 512, 3,
					      KB_SHBF_CMAX + 1, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_shbf_create(KB_SHBF_MULTIPLICITY, 512, 3, 0,
					      NULL, &f));
	EXPECT_TRUE(f == NULL);
	ASSERT_EQ(0, kbloom_shbf_create(KB_SHBF_MULTIPLICITY, 512, 3, 4, NULL,
					&f));
	EXPECT_EQ(-EINVAL, kbloom_shbf_count_add(f, &key, 8, 0));
	EXPECT_EQ(-EINVAL, kbloom_shbf_count_add(f, &key, 8, 5));
	EXPECT_EQ(-EINVAL, kbloom_shbf_count_add(f, &key, 0, 1));
	EXPECT_EQ(-EINVAL, kbloom_shbf_count_add(f, &key, KBLOOM_KEY_MAX + 1,
						 1));
	EXPECT_EQ(-EINVAL, kbloom_shbf_add(f, &key, 8));
	EXPECT_EQ(-EINVAL, kbloom_shbf_assoc_add(f, &key, 8, KB_SHBF_S1));
	EXPECT_EQ(-EINVAL, kbloom_shbf_test(f, &key, 8));
	EXPECT_EQ(0, kbloom_shbf_inserted(f));
	EXPECT_EQ(0, kbloom_shbf_count(f, &key, 8));
	kbloom_shbf_destroy(f);
	ASSERT_EQ(0, kbloom_shbf_create(KB_SHBF_ASSOCIATION, 512, 3, 0, NULL,
					&f));
	EXPECT_EQ(-EINVAL, kbloom_shbf_assoc_add(f, &key, 8, 3));
	EXPECT_EQ(0, kbloom_shbf_inserted(f));
	kbloom_shbf_destroy(f);
}

TEST_HARNESS_MAIN
