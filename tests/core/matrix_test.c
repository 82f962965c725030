// SPDX-License-Identifier: GPL-2.0
/*
 * The matrix Bloom filter as a filter-similarity tool
 * (libkbloom_survey.h):
 *   - |A n B| of two 10,000-key sets at 10 bits per key (k = 7) estimated
 *     from the rows' bits within +-5% at overlaps of 5,000 and 8,000 keys
 *     (2,000 and 0 are printed), through the matrix and through filters
 *     loaded from its rows' images;
 *   - the container image round-trips (same answers, same estimates);
 *   - bad parameters and images are refused with their errno;
 *   - kbloomctl similar A B on image files: the estimate, -j, a geometry
 *     mismatch and a module filter without the module, each refused in
 *     one line (module filters themselves: the guest suite's kbloom.ko).
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom_survey.h"
#include "core_util.h"
#include "core/kbloomctl_util.h"

#define N_SET		10000ULL
#define M_BITS		100032ULL	/* 10 bits per key, 64-bit words */
#define K		7

static const __u64 overlap[] = { 5000, 8000, 2000, 0 };
#define N_ROWS		(1 + sizeof(overlap) / sizeof(overlap[0]))

static __u64 key_of(__u64 i)
{
	return cu_mix(i ^ 0x3A7B1);
}

/* Row 0: keys [0, N); row 1 + j: [N - overlap[j], 2N - overlap[j]). */
static void fill(struct __test_metadata *_metadata, struct kbloom_matrix *mx)
{
	__u64 i, key, lo;
	__u32 j;

	for (i = 0; i < N_SET; i++) {
		key = key_of(i);
		ASSERT_EQ(0, kbloom_matrix_add(mx, 0, &key, 8));
	}
	for (j = 0; j + 1 < N_ROWS; j++) {
		lo = N_SET - overlap[j];
		for (i = lo; i < lo + N_SET; i++) {
			key = key_of(i);
			ASSERT_EQ(0, kbloom_matrix_add(mx, 1 + j, &key, 8));
		}
	}
}

TEST(intersection_estimate)
{
	struct kbloom_similarity s, t;
	struct kbloom_matrix *mx;
	struct kbloom_filter *a, *b;
	void *img;
	size_t len;
	double err;
	__u32 j;

	ASSERT_EQ(0, kbloom_matrix_create(N_ROWS, M_BITS, K, NULL, &mx));
	fill(_metadata, mx);
	for (j = 0; j + 1 < N_ROWS; j++) {
		ASSERT_EQ(0, kbloom_matrix_similar(mx, 0, 1 + j, &s));
		err = overlap[j] ? s.n_inter / overlap[j] - 1 : 0;
		TH_LOG("|A|=|B|=%llu, 10 bits/key, k=%d: |A n B| %llu estimated %.1f (%+.2f%%), |A u B| %.1f, Jaccard %.4f",
		       (unsigned long long)N_SET, K,
		       (unsigned long long)overlap[j], s.n_inter, 100 * err,
		       s.n_union, s.jaccard);
		if (overlap[j] >= 5000)
			EXPECT_LT(fabs(err), 0.05);
		/* the same from the rows' images, as kbloomctl similar reads */
		ASSERT_EQ(0, kbloom_save_alloc(kbloom_matrix_row(mx, 0), &img,
					       &len));
		ASSERT_EQ(0, kbloom_load(img, len, &a));
		free(img);
		ASSERT_EQ(0, kbloom_save_alloc(kbloom_matrix_row(mx, 1 + j),
					       &img, &len));
		ASSERT_EQ(0, kbloom_load(img, len, &b));
		free(img);
		ASSERT_EQ(0, kbloom_similarity(a, b, &t));
		EXPECT_EQ(s.ones_union, t.ones_union);
		EXPECT_EQ(s.n_inter, t.n_inter);
		kbloom_destroy(a);
		kbloom_destroy(b);
	}
	kbloom_matrix_destroy(mx);
}

TEST(image_round_trip)
{
	struct kbloom_opts o = { .name = "docs", .seed = 77 };
	struct kbloom_similarity s, t;
	struct kbloom_matrix *mx, *my;
	__u64 i, key;
	size_t len;
	void *img;
	__u8 *b;
	__u32 r;

	ASSERT_EQ(0, kbloom_matrix_create(N_ROWS, M_BITS, K, &o, &mx));
	fill(_metadata, mx);
	ASSERT_EQ(0, kbloom_matrix_save_alloc(mx, &img, &len));
	ASSERT_EQ(0, kbloom_matrix_load(img, len, &my));
	ASSERT_EQ(N_ROWS, kbloom_matrix_rows(my));
	for (r = 0; r < N_ROWS; r++)
		for (i = 0; i < 3 * N_SET; i += 7) {
			key = key_of(i);
			ASSERT_EQ(kbloom_matrix_test(mx, r, &key, 8),
				  kbloom_matrix_test(my, r, &key, 8));
		}
	ASSERT_EQ(0, kbloom_matrix_similar(mx, 0, 1, &s));
	ASSERT_EQ(0, kbloom_matrix_similar(my, 0, 1, &t));
	EXPECT_EQ(s.n_inter, t.n_inter);
	kbloom_matrix_destroy(my);
	b = img;
	EXPECT_EQ(-EMSGSIZE, kbloom_matrix_load(img, len - 1, &my));
	b[len - 1] ^= 1;
	EXPECT_EQ(-EBADMSG, kbloom_matrix_load(img, len, &my));
	b[len - 1] ^= 1;
	b[8] = KBLOOM_TYPE_SCALABLE;		/* container type */
	EXPECT_EQ(-EBADMSG, kbloom_matrix_load(img, len, &my));	/* crc */
	b[8] = KBLOOM_TYPE_MATRIX;
	EXPECT_EQ(0, kbloom_matrix_load((__u8 *)img, len, &my));
	kbloom_matrix_destroy(my);
	free(img);
	kbloom_matrix_destroy(mx);
}

TEST(bad_parameters)
{
	struct kbloom_matrix *mx = NULL;
	struct kbloom_filter *c, *d;
	struct kbloom_similarity s;
	__u64 key = 1, i;

	EXPECT_EQ(-EINVAL, kbloom_matrix_create(0, 1024, 3, NULL, &mx));
	EXPECT_EQ(-EINVAL, kbloom_matrix_create(4097, 1024, 3, NULL, &mx));
	EXPECT_EQ(-EINVAL, kbloom_matrix_create(2, 1000, 3, NULL, &mx));
	EXPECT_EQ(-EINVAL, kbloom_matrix_create(2, 1024, 0, NULL, &mx));
	EXPECT_TRUE(mx == NULL);
	ASSERT_EQ(0, kbloom_matrix_create(2, 1024, 3, NULL, &mx));
	EXPECT_EQ(-EINVAL, kbloom_matrix_add(mx, 2, &key, 8));
	EXPECT_EQ(-EINVAL, kbloom_matrix_test(mx, 2, &key, 8));
	EXPECT_EQ(-EINVAL, kbloom_matrix_similar(mx, 0, 2, &s));
	EXPECT_EQ(0, kbloom_matrix_test(mx, 0, &key, 8));
	/* different geometry; counting; a full filter */
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_STANDARD, 2048, 3, NULL, &c));
	EXPECT_EQ(-EINVAL, kbloom_similarity(kbloom_matrix_row(mx, 0), c, &s));
	kbloom_destroy(c);
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_COUNTING, 1024, 3, NULL, &c));
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_COUNTING, 1024, 3, NULL, &d));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_similarity(c, d, &s));
	kbloom_destroy(c);
	kbloom_destroy(d);
	for (i = 0; i < 20000; i++)
		kbloom_matrix_add(mx, 1, &i, 8);
	EXPECT_EQ(-ERANGE, kbloom_matrix_similar(mx, 0, 1, &s));
	kbloom_matrix_destroy(mx);
}

/* Row @row of @mx into @path. */
static int save_row(const struct kbloom_matrix *mx, __u32 row,
		    const char *path)
{
	return kbloom_save_file(kbloom_matrix_row(mx, row), path);
}

TEST(kbloomctl_similar)
{
	char dir[] = "/tmp/kb_similar_XXXXXX", a[64], b[64], c[64];
	struct kbloom_matrix *mx, *other;
	struct kbctl_res r;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a.img", dir);
	snprintf(b, sizeof(b), "%s/b.img", dir);
	snprintf(c, sizeof(c), "%s/c.img", dir);
	ASSERT_EQ(0, kbloom_matrix_create(N_ROWS, M_BITS, K, NULL, &mx));
	fill(_metadata, mx);
	ASSERT_EQ(0, kbloom_matrix_create(1, M_BITS, K + 1, NULL, &other));
	ASSERT_EQ(0, save_row(mx, 0, a));
	ASSERT_EQ(0, save_row(mx, 1, b));
	ASSERT_EQ(0, kbloom_save_file(kbloom_matrix_row(other, 0), c));
	ASSERT_EQ(0, kbctl_run(&r, "similar", a, b));
	EXPECT_NE(NULL, strstr(r.out, "|A n B| ~ 49")) TH_LOG("%s", r.out);
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_run(&r, "similar", "-j", a, b));
	EXPECT_TRUE(kbj_valid(r.out, r.out_len));
	EXPECT_NE(NULL, strstr(r.out, "\"n_inter\""));
	kbctl_free(&r);
	EXPECT_EQ(2, kbctl_run(&r, "similar", a, c));
	EXPECT_NE(NULL, strstr(r.err, "differ in geometry")) TH_LOG("%s", r.err);
	EXPECT_EQ(1, kbctl_lines(r.err));
	kbctl_free(&r);
	setenv("KBLOOMCTL_DEVICE", "/nonexistent/kbloom", 1);
	EXPECT_EQ(3, kbctl_run(&r, "similar", a, "nosuchfilter"));
	EXPECT_NE(NULL, strstr(r.err, "kbloom.ko")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(2, kbctl_run(&r, "similar", a));
	kbctl_free(&r);
	/* a file that is not one whole image: what is wrong, in words */
	ASSERT_EQ(0, truncate(b, 200));
	EXPECT_EQ(3, kbctl_run(&r, "similar", a, b));
	EXPECT_NE(NULL, strstr(r.err, "Message too long (truncated")) TH_LOG("%s", r.err);
	EXPECT_EQ(1, kbctl_lines(r.err));
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "similar", a, "/dev/null"));
	EXPECT_NE(NULL, strstr(r.err, "(truncated")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "similar", a, dir));
	EXPECT_NE(NULL, strstr(r.err, "Is a directory")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	/* neither a file nor a name: the command named once */
	EXPECT_EQ(2, kbctl_run(&r, "similar", a, "a b"));
	EXPECT_NE(NULL, strstr(r.err, "kbloomctl: similar: 'a b': neither a file nor a filter name"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(2, kbctl_run(&r, "similar", a, ""));
	EXPECT_NE(NULL, strstr(r.err, "similar: '': neither")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	unlink(a);
	unlink(b);
	unlink(c);
	rmdir(dir);
	kbloom_matrix_destroy(other);
	kbloom_matrix_destroy(mx);
}

TEST_HARNESS_MAIN
