// SPDX-License-Identifier: GPL-2.0
/*
 * Cuckoo filters (libkbloom_cuckoo.h): the planner, the false-positive
 * rate against 1 - (1 - 2^-f)^(2 b alpha), bytes against counting/4, the
 * share of builds that reach 95% load within 500 kicks, -ENOSPC with
 * nothing lost, delete, count, images, and lock-free readers racing a
 * writer that relocates.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom_cuckoo.h"
#include "uapi/kbloom_plan.h"
#include "core_util.h"

#define P_02PCT		2000000000ULL		/* 0.2% in pico units */
#define FPR_KEYS	1000000ULL
#define ABSENT_BASE	(1ULL << 40)

static int add_key(struct kbloom_cuckoo *c, __u64 i)
{
	__u64 key = cu_mix(i);

	return kbloom_cuckoo_add(c, &key, 8);
}

static int test_key(const struct kbloom_cuckoo *c, __u64 i)
{
	__u64 key = cu_mix(i);

	return kbloom_cuckoo_test(c, &key, 8);
}

static int del_key(struct kbloom_cuckoo *c, __u64 i)
{
	__u64 key = cu_mix(i);

	return kbloom_cuckoo_del(c, &key, 8);
}

TEST(plan_shape_and_bytes)
{
	struct kb_plan cnt;
	struct kb_shape s;
	double bits, pred;

	ASSERT_EQ(0, kb_cuckoo_plan(FPR_KEYS, P_02PCT, &s));
	EXPECT_EQ(12, s.fp_bits);
	EXPECT_EQ(4, s.slots);
	EXPECT_EQ(2, s.k);
	/* buckets = ceil(n / (b alpha)) = ceil(n / 3.8) */
	EXPECT_EQ((FPR_KEYS * 5 + 18) / 19, s.buckets);
	EXPECT_EQ(s.buckets * 4, s.m);
	bits = kb_shape_words(&s) * 64.0 / FPR_KEYS;
	EXPECT_LE(bits, 12.7);
	pred = kb_cuckoo_plan_fpr_pico(12) * 1e-12;
	EXPECT_LT(fabs(pred - (1 - pow(1 - 1.0 / 4096, 7.6))), 1e-11);
	/* counting/4 at the cuckoo filter's rate */
	ASSERT_EQ(0, kb_plan(KBLOOM_TYPE_COUNTING, FPR_KEYS,
			     kb_cuckoo_plan_fpr_pico(12), 4, &cnt));
	EXPECT_LE(kb_shape_words(&s) * 8 * 4, cnt.bytes);
	TH_LOG("f 12 b 4: %.3f bits/key, p %.4f%%; counting/4 %.2f bits/key (%.2fx)",
	       bits, pred * 100, cnt.bytes * 8.0 / FPR_KEYS,
	       cnt.bytes / (kb_shape_words(&s) * 8.0));
	/* refusals */
	EXPECT_EQ(-EINVAL, kb_cuckoo_plan(0, P_02PCT, &s));
	EXPECT_EQ(-EINVAL, kb_cuckoo_plan(100, KBLOOM_P_TARGET_MIN - 1, &s));
	EXPECT_EQ(-EINVAL, kb_cuckoo_plan(100, KBLOOM_P_TARGET_MAX + 1, &s));
	EXPECT_EQ(-EINVAL, kb_cuckoo_plan(100, 1500, &s));	/* < f = 32 */
	EXPECT_EQ(-E2BIG, kb_cuckoo_plan(KBLOOM_M_MAX, P_02PCT, &s));
}

TEST(bad_shapes_refused)
{
	struct kbloom_opts o = { .counter_bits = 4 };
	struct kbloom_cuckoo *c = NULL;

	EXPECT_EQ(-EINVAL, kbloom_cuckoo_create_shape(3, 4, 64, NULL, &c));
	EXPECT_EQ(-EINVAL, kbloom_cuckoo_create_shape(33, 4, 64, NULL, &c));
	EXPECT_EQ(-EINVAL, kbloom_cuckoo_create_shape(12, 3, 64, NULL, &c));
	EXPECT_EQ(-EINVAL, kbloom_cuckoo_create_shape(12, 16, 64, NULL, &c));
	EXPECT_EQ(-EINVAL, kbloom_cuckoo_create_shape(12, 4, 1, NULL, &c));
	EXPECT_EQ(-EINVAL, kbloom_cuckoo_create_shape(12, 4, KBLOOM_M_MAX,
						      NULL, &c));
	EXPECT_EQ(-EINVAL, kbloom_cuckoo_create_shape(12, 4, 64, &o, &c));
	EXPECT_EQ(-EINVAL, kbloom_cuckoo_create(0, P_02PCT, NULL, &c));
	EXPECT_EQ(NULL, c);
}

/* f = 12, b = 4 filled to 95%: the measured rate within 10% of formula. */
TEST(fpr_at_95pct_load)
{
	struct kbloom_cuckoo_stats st;
	struct kbloom_cuckoo *c;
	double meas, pred;
	__u64 i, fp = 0;

	ASSERT_EQ(0, kbloom_cuckoo_create(FPR_KEYS, P_02PCT, NULL, &c));
	for (i = 0; i < FPR_KEYS; i++)
		ASSERT_EQ(0, add_key(c, i));
	for (i = 0; i < FPR_KEYS; i++)
		ASSERT_EQ(1, test_key(c, i));
	for (i = 0; i < FPR_KEYS; i++)
		fp += test_key(c, ABSENT_BASE + i);
	ASSERT_EQ(0, kbloom_cuckoo_stats(c, &st));
	EXPECT_EQ(FPR_KEYS, st.used);
	EXPECT_GE(st.load_ppm, 949999);
	meas = (double)fp / FPR_KEYS;
	pred = 1 - pow(1 - ldexp(1, -12), 8.0 * st.used / st.shape.m);
	EXPECT_LT(fabs(meas - pred), 0.1 * pred);
	EXPECT_LT(fabs(st.fpr_now_pico * 1e-12 - pred), 1e-9);
	TH_LOG("f 12 b 4 load %.4f: %llu / %llu = %.4f%% vs formula %.4f%% (%+.1f%%); %.3f bits/key; %llu kicks (%.3f per key), longest path %llu",
	       st.load_ppm / 1e6, (unsigned long long)fp, FPR_KEYS,
	       meas * 100, pred * 100, (meas / pred - 1) * 100,
	       st.bytes * 8.0 / FPR_KEYS, (unsigned long long)st.kicks,
	       (double)st.kicks / FPR_KEYS,
	       (unsigned long long)st.longest_path);
	kbloom_cuckoo_destroy(c);
}

#define BUILDS		1000U
#define BUILD_BUCKETS	256U
#define BUILD_KEYS	973U	/* 95% of 1024 slots */

/* One build to 95% load; 0 or the first add's error. */
static int build_once(__u32 b, __u64 *kicks, __u64 *longest)
{
	struct kbloom_opts o = { .seed = cu_mix(b) };
	struct kbloom_cuckoo_stats st;
	struct kbloom_cuckoo *c;
	int ret = 0;
	__u32 i;

	if (kbloom_cuckoo_create_shape(12, 4, BUILD_BUCKETS, &o, &c))
		return -ENOMEM;
	for (i = 0; i < BUILD_KEYS && !ret; i++)
		ret = add_key(c, (__u64)b << 20 | i);
	kbloom_cuckoo_stats(c, &st);
	*kicks = st.kicks;
	*longest = st.longest_path;
	kbloom_cuckoo_destroy(c);
	return ret;
}

TEST(builds_reach_95pct)
{
	__u64 kicks, longest, total = 0, hist[8] = { 0 }, worst = 0;
	__u32 b, ok = 0, bin;

	for (b = 0; b < BUILDS; b++) {
		if (!build_once(b, &kicks, &longest))
			ok++;
		total += kicks;
		worst = longest > worst ? longest : worst;
		for (bin = 0; bin < 7 && (1ULL << bin) < longest; bin++)
			;
		hist[bin]++;
	}
	EXPECT_GE(ok * 1000ULL, BUILDS * 999ULL);
	TH_LOG("%u / %u builds reached 95%% load (%u keys in %u slots); %.3f kicks per key; longest path per build: <=1 %llu, 2 %llu, 3-4 %llu, 5-8 %llu, 9-16 %llu, 17-32 %llu, 33-64 %llu, more %llu; worst %llu",
	       ok, BUILDS, BUILD_KEYS, BUILD_BUCKETS * 4,
	       (double)total / ((double)BUILDS * BUILD_KEYS),
	       hist[0], hist[1], hist[2], hist[3], hist[4], hist[5], hist[6],
	       hist[7], worst);
}

/*
 * Past capacity: the first -ENOSPC comes near 95% load; every failing add
 * leaves the array as it was, and every key whose add succeeded is found.
 */
TEST(enospc_loses_nothing)
{
	struct kbloom_cuckoo_stats st;
	struct kbloom_cuckoo *c;
	__u64 i, nw, first = 0, fails = 0, *copy;
	bool *added;
	const __u64 *w;
	int ret;

	ASSERT_EQ(0, kbloom_cuckoo_create_shape(12, 4, 1024, NULL, &c));
	w = kbloom_cuckoo_words(c, &nw);
	copy = malloc(nw * 8);
	added = calloc(8192, sizeof(*added));
	ASSERT_NE(NULL, copy);
	ASSERT_NE(NULL, added);
	for (i = 0; i < 8192; i++) {
		memcpy(copy, w, nw * 8);
		ret = add_key(c, i);
		added[i] = !ret;
		if (!ret)
			continue;
		ASSERT_EQ(-ENOSPC, ret);
		ASSERT_EQ(0, memcmp(copy, w, nw * 8));
		if (!fails++)
			first = i;
	}
	ASSERT_GT(fails, 0);
	EXPECT_GE(first, 4096 * 95 / 100);
	for (i = 0; i < 8192; i++)
		if (added[i])
			ASSERT_EQ(1, test_key(c, i));
	ASSERT_EQ(0, kbloom_cuckoo_stats(c, &st));
	EXPECT_EQ(8192 - fails, st.inserted);
	EXPECT_EQ(8192 - fails, st.used);
	EXPECT_EQ(fails, st.overflows);
	TH_LOG("first -ENOSPC at load %.4f; after 8192 adds load %.4f, %llu refused",
	       first / 4096.0, st.load_ppm / 1e6, (unsigned long long)fails);
	free(added);
	free(copy);
	kbloom_cuckoo_destroy(c);
}

TEST(delete_count_duplicates)
{
	struct kbloom_cuckoo_stats st;
	struct kbloom_cuckoo *c;
	__u64 i, key = 42, fn = 0;
	int ret = 0;

	ASSERT_EQ(0, kbloom_cuckoo_create(10000, P_02PCT, NULL, &c));
	for (i = 0; i < 9000; i++)
		ASSERT_EQ(0, add_key(c, i));
	for (i = 0; i < 9000; i += 2)
		ASSERT_EQ(0, del_key(c, i));
	for (i = 1; i < 9000; i += 2)
		fn += test_key(c, i) != 1;
	EXPECT_EQ(0, fn);
	EXPECT_EQ(-ENOENT, del_key(c, ABSENT_BASE));
	/* three copies, counted and deleted one at a time */
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, kbloom_cuckoo_add(c, &key, 8));
	EXPECT_EQ(3, kbloom_cuckoo_count(c, &key, 8));
	ASSERT_EQ(0, kbloom_cuckoo_del(c, &key, 8));
	EXPECT_EQ(2, kbloom_cuckoo_count(c, &key, 8));
	EXPECT_EQ(1, kbloom_cuckoo_test(c, &key, 8));
	ASSERT_EQ(0, kbloom_cuckoo_del(c, &key, 8));
	ASSERT_EQ(0, kbloom_cuckoo_del(c, &key, 8));
	EXPECT_EQ(0, kbloom_cuckoo_count(c, &key, 8));
	EXPECT_EQ(-ENOENT, kbloom_cuckoo_del(c, &key, 8));
	/* two buckets of b slots hold at most 2 b copies */
	for (i = 0; i < 9 && !ret; i++)
		ret = kbloom_cuckoo_add(c, &key, 8);
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_EQ(8, kbloom_cuckoo_count(c, &key, 8));
	ASSERT_EQ(0, kbloom_cuckoo_stats(c, &st));
	EXPECT_EQ(4500 + 8, st.inserted);
	EXPECT_EQ(4500 + 3, st.deleted);
	EXPECT_EQ(-EINVAL, kbloom_cuckoo_add(c, &key, 0));
	EXPECT_EQ(-EINVAL, kbloom_cuckoo_test(c, &key, KBLOOM_KEY_MAX + 1));
	kbloom_cuckoo_destroy(c);
}

static void *save(const struct kbloom_cuckoo *c, size_t *len)
{
	void *buf;

	*len = kbloom_cuckoo_image_size(c);
	buf = malloc(*len);
	if (buf && kbloom_cuckoo_save(c, buf, *len, NULL)) {
		free(buf);
		return NULL;
	}
	return buf;
}

TEST(image_round_trip)
{
	struct kbloom_opts o = { .seed = 7, .name = "cf.one" };
	struct kbloom_cuckoo_stats a, b;
	struct kbloom_cuckoo *c, *d = NULL;
	const __u64 *wa, *wb;
	__u64 i, na, nb;
	size_t len;
	void *img;

	ASSERT_EQ(0, kbloom_cuckoo_create_shape(13, 4, 3001, &o, &c));
	for (i = 0; i < 11000; i++)
		ASSERT_EQ(0, add_key(c, i));
	img = save(c, &len);
	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, kb_image_verify(img, len));
	ASSERT_EQ(0, kbloom_cuckoo_load(img, len, &d));
	wa = kbloom_cuckoo_words(c, &na);
	wb = kbloom_cuckoo_words(d, &nb);
	ASSERT_EQ(na, nb);
	EXPECT_EQ(0, memcmp(wa, wb, na * 8));
	ASSERT_EQ(0, kbloom_cuckoo_stats(c, &a));
	ASSERT_EQ(0, kbloom_cuckoo_stats(d, &b));
	EXPECT_EQ(0, memcmp(&a.shape, &b.shape, sizeof(a.shape)));
	EXPECT_EQ(a.seed, b.seed);
	EXPECT_EQ(a.inserted, b.inserted);
	EXPECT_EQ(a.kicks, b.kicks);
	EXPECT_STREQ("cf.one", kbloom_cuckoo_name(d));
	for (i = 0; i < 11000; i++)
		ASSERT_EQ(1, test_key(d, i));
	EXPECT_EQ(-EMSGSIZE, kbloom_cuckoo_save(c, img, len - 1, NULL));
	kbloom_cuckoo_destroy(d);
	kbloom_cuckoo_destroy(c);
	free(img);
}

/* Re-checksum a modified image (so only the edited field is wrong). */
static void reseal(void *img, size_t len)
{
	struct kbloom_image_head *hd = img;

	hd->h.crc = kb_le32(kb_image_crc_head(hd, (__u8 *)img + sizeof(*hd),
					      len - sizeof(*hd)));
}

static int load_edit(const void *img, size_t len, size_t off, __u64 val,
		     int size, bool seal)
{
	struct kbloom_cuckoo *d = NULL;
	__u8 *buf = malloc(len);
	int ret;

	memcpy(buf, img, len);
	memcpy(buf + off, &val, size);
	if (seal)
		reseal(buf, len);
	ret = kbloom_cuckoo_load(buf, len, &d);
	kbloom_cuckoo_destroy(d);
	free(buf);
	return ret;
}

#define HOFF(f)	offsetof(struct kbloom_image_head, h.f)
#define GOFF(f)	offsetof(struct kbloom_image_head, g.f)

TEST(bad_images_refused)
{
	struct kbloom_cuckoo *c, *d = NULL;
	struct kbloom_filter *cl;
	size_t len, clen;
	void *img, *cimg;

	ASSERT_EQ(0, kbloom_cuckoo_create_shape(12, 4, 100, NULL, &c));
	ASSERT_EQ(0, add_key(c, 1));
	img = save(c, &len);
	ASSERT_NE(NULL, img);
	EXPECT_EQ(-EMSGSIZE, kbloom_cuckoo_load(img, 100, &d));
	EXPECT_EQ(-EMSGSIZE, kbloom_cuckoo_load(img, len - 8, &d));
	EXPECT_EQ(-EBADMSG, load_edit(img, len, HOFF(magic), 0, 4, true));
	EXPECT_EQ(-EPROTONOSUPPORT, load_edit(img, len, HOFF(version), 4, 2,
					      true));
	EXPECT_EQ(-EBADMSG, load_edit(img, len, len - 1, 0x55, 1, false));
	EXPECT_EQ(-EBADMSG, load_edit(img, len, GOFF(fp_bits), 3, 1, true));
	EXPECT_EQ(-EBADMSG, load_edit(img, len, GOFF(fp_bits), 33, 1, true));
	EXPECT_EQ(-EBADMSG, load_edit(img, len, GOFF(slots), 3, 1, true));
	EXPECT_EQ(-EBADMSG, load_edit(img, len, GOFF(buckets), 101, 8, true));
	EXPECT_EQ(-EBADMSG, load_edit(img, len, GOFF(tables), 2, 1, true));
	EXPECT_EQ(-EBADMSG, load_edit(img, len, GOFF(reserved), 1, 8, true));
	EXPECT_EQ(-EBADMSG, load_edit(img, len, HOFF(k), 3, 4, true));
	EXPECT_EQ(-EBADMSG, load_edit(img, len, HOFF(flags),
				      KBLOOM_IMAGE_F_MAY_FN, 1, true));
	EXPECT_EQ(-EBADMSG, load_edit(img, len, HOFF(saturations), 1, 8,
				      true));
	EXPECT_EQ(-EOPNOTSUPP, load_edit(img, len, HOFF(hash_id), 9, 1,
					 true));
	/* a valid image of another type */
	ASSERT_EQ(0, kbloom_create(KBLOOM_TYPE_STANDARD, 100, P_02PCT, NULL,
				   &cl));
	ASSERT_EQ(0, kbloom_save_alloc(cl, &cimg, &clen));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_cuckoo_load(cimg, clen, &d));
	EXPECT_EQ(NULL, d);
	/* and the classic loader refuses the cuckoo image */
	EXPECT_EQ(-EOPNOTSUPP, kbloom_load(img, len, &cl));
	kbloom_destroy(cl);
	free(cimg);
	free(img);
	kbloom_cuckoo_destroy(c);
}

/*
 * Mutated images (bytes flipped in the header, tail or words, sometimes
 * resealed): refused with an image error and nothing returned, or loaded,
 * and then saved back byte for byte and usable.
 */
static int mutant(const __u8 *img, size_t len, __u8 *buf, struct cu_rng *r)
{
	struct kbloom_cuckoo *d = NULL;
	__u32 n = 1 + cu_next(r) % 3, i;
	size_t off;
	int ret;

	memcpy(buf, img, len);
	for (i = 0; i < n; i++) {
		off = cu_next(r) % 4 ? cu_next(r) % sizeof(struct kbloom_image_head) :
				       cu_next(r) % len;
		buf[off] ^= 1 << (cu_next(r) % 8);
	}
	if (cu_next(r) % 2)
		reseal(buf, len);
	ret = kbloom_cuckoo_load(buf, len, &d);
	if (ret)
		return d ? -1000 : ret;
	ret = kbloom_cuckoo_save(d, buf + len, len, NULL) ? -1001 : 0;
	if (!ret && memcmp(buf, buf + len, len))
		ret = -1002;
	if (!ret && (kbloom_cuckoo_add(d, "k", 1) == -EINVAL ||
		     kbloom_cuckoo_test(d, "k", 1) < 0))
		ret = -1003;
	kbloom_cuckoo_destroy(d);
	return ret;
}

TEST(mutated_images)
{
	struct cu_rng r = { 0xF022 };
	struct kbloom_cuckoo *c;
	__u32 i, loaded = 0;
	size_t len;
	__u8 *img, *buf;
	int ret;

	ASSERT_EQ(0, kbloom_cuckoo_create_shape(12, 4, 61, NULL, &c));
	for (i = 0; i < 200; i++)
		ASSERT_EQ(0, add_key(c, i));
	img = save(c, &len);
	ASSERT_NE(NULL, img);
	buf = malloc(2 * len);
	ASSERT_NE(NULL, buf);
	for (i = 0; i < 20000; i++) {
		ret = mutant(img, len, buf, &r);
		ASSERT_TRUE(!ret || ret == -EMSGSIZE || ret == -EBADMSG ||
			    ret == -EPROTONOSUPPORT || ret == -EOPNOTSUPP)
			TH_LOG("mutant %u: %d", i, ret);
		loaded += !ret;
	}
	TH_LOG("20000 mutated images: %u loaded (and saved back identical)",
	       loaded);
	free(buf);
	free(img);
	kbloom_cuckoo_destroy(c);
}

/*
 * A writer adds stable keys (never deleted) and churns others (added, then
 * deleted a window later) at high load, so adds keep relocating; readers
 * test every stable key published as added: none may be missing.
 */
#define RACE_BUCKETS	2048U
#define RACE_STABLE	6000U
#define RACE_WINDOW	1400U
#define RACE_CHURN	400000U
#define RACE_READERS	2

struct race {
	struct kbloom_cuckoo *c;
	__u64 published;	/* stable keys 0..published-1 were added */
	int done;
	__u64 fn;
	__u64 tests;
	int err;
};

static __u64 stable_key(__u64 i)
{
	return i * 2;
}

static __u64 churn_key(__u64 i)
{
	return i * 2 + 1;
}

static void *race_writer(void *arg)
{
	struct race *r = arg;
	__u64 i;

	for (i = 0; i < RACE_CHURN && !r->err; i++) {
		if (i < RACE_STABLE) {
			if (add_key(r->c, stable_key(i)))
				r->err = 1;
			__atomic_store_n(&r->published, i + 1, __ATOMIC_RELEASE);
		}
		if (add_key(r->c, churn_key(i)))
			r->err = 2;
		if (i >= RACE_WINDOW && del_key(r->c, churn_key(i - RACE_WINDOW)))
			r->err = 3;
	}
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *race_reader(void *arg)
{
	struct race *r = arg;
	__u64 n, j, fn = 0, tests = 0;

	while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
		n = __atomic_load_n(&r->published, __ATOMIC_ACQUIRE);
		for (j = 0; j < n; j++, tests++)
			fn += test_key(r->c, stable_key(j)) != 1;
	}
	__atomic_fetch_add(&r->fn, fn, __ATOMIC_RELAXED);
	__atomic_fetch_add(&r->tests, tests, __ATOMIC_RELAXED);
	return NULL;
}

TEST(readers_race_relocations)
{
	struct kbloom_cuckoo_stats st;
	struct race r = { 0 };
	pthread_t w, rd[RACE_READERS];
	int i;

	ASSERT_EQ(0, kbloom_cuckoo_create_shape(12, 4, RACE_BUCKETS, NULL,
						&r.c));
	for (i = 0; i < RACE_READERS; i++)
		ASSERT_EQ(0, pthread_create(&rd[i], NULL, race_reader, &r));
	ASSERT_EQ(0, pthread_create(&w, NULL, race_writer, &r));
	pthread_join(w, NULL);
	for (i = 0; i < RACE_READERS; i++)
		pthread_join(rd[i], NULL);
	ASSERT_EQ(0, r.err);
	ASSERT_EQ(0, kbloom_cuckoo_stats(r.c, &st));
	EXPECT_EQ(0, r.fn);
	EXPECT_GT(st.kicks, 10000);
	EXPECT_GT(r.tests, RACE_STABLE);
	TH_LOG("%llu tests by %d readers racing %llu relocations (load %.3f): %llu false negatives",
	       (unsigned long long)r.tests, RACE_READERS,
	       (unsigned long long)st.kicks, st.load_ppm / 1e6,
	       (unsigned long long)r.fn);
	kbloom_cuckoo_destroy(r.c);
}

TEST_HARNESS_MAIN
