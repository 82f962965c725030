// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko's Count-Min sketch (KBLOOM_TYPE_COUNT_MIN): CREATE (explicit
 * geometry, or epsilon with the rows), ADD and COUNT (never below the
 * truth, exact on a sparse key set), DEL (minimum selection only), SAVE
 * read by libkbloom_sketch with equal estimates and equal counters,
 * RESTORE of a library image, saturation, concurrent minimal increase
 * never below the truth, and every bad geometry refused with its errno.
 */
#include <pthread.h>
#include <stddef.h>
#include "guest_harness.h"
#include "kmod_util.h"
#include "libkbloom_sketch.h"
#include "core/kbloomctl_util.h"

#define EXPECT_ERRNO(expected, cmd) EXPECT_EQ(-(expected), (cmd))
#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))
#define SEED		0xC0FFEEULL
#define EPS_01PCT	1000000000ULL

static int cm_create(int fd, const char *name, __u32 rows, __u64 width,
		     __u32 cb, __u32 update)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_COUNT_MIN,
		.tables = rows, .buckets = width, .counter_bits = cb,
		.update = update, .seed = SEED, .flags = KBLOOM_CREATE_SEED,
	};

	ku_name(c.name, name);
	return ku_ioctl(fd, KBLOOM_IOCTL_CREATE, &c);
}

static int add(int fd, const char *name, const __u8 *keys, __u32 n)
{
	return ku_keys(fd, KBLOOM_IOCTL_ADD, name, keys, 16ULL * n, 16, n,
		       NULL, NULL, NULL);
}

static int del(int fd, const char *name, const __u8 *keys, __u32 n,
	       __u32 *done, __u32 *hits)
{
	return ku_keys(fd, KBLOOM_IOCTL_DEL, name, keys, 16ULL * n, 16, n,
		       NULL, done, hits);
}

static int count(int fd, const char *name, const __u8 *keys, __u32 n,
		 __u64 *est)
{
	return ku_keys(fd, KBLOOM_IOCTL_COUNT, name, keys, 16ULL * n, 16, n,
		       est, NULL, NULL);
}

/* A library sketch of the module's seed and geometry. */
static int lib_sketch(__u32 rows, __u64 width, __u32 cb, __u32 update,
		      struct kbloom_sketch **s)
{
	struct kbloom_sketch_opts o = {
		.rows = rows, .width = width, .counter_bits = cb,
		.update = update, .flags = KBLOOM_SKETCH_SEED, .seed = SEED,
	};

	return kbloom_sketch_create(&o, s);
}

FIXTURE(cm) {
	int fd;
};

FIXTURE_VARIANT(cm) {
	__u32 update;
};

FIXTURE_VARIANT_ADD(cm, all) {
	.update = KB_CM_ALL,
};

FIXTURE_VARIANT_ADD(cm, min_inc) {
	.update = KB_CM_MIN_INC,
};

FIXTURE_SETUP(cm)
{
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ASSERT_OK(ku_destroy_all(self->fd));
}

FIXTURE_TEARDOWN(cm)
{
	ku_destroy_all(self->fd);
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
	close(self->fd);
}

TEST_F(cm, create_and_stat)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_COUNT_MIN,
		.fpr_pico = EPS_01PCT, .tables = 5, .update = variant->update,
	};
	struct kbloom_stat st;

	ASSERT_OK(cm_create(self->fd, "x", 4, 1024, 16, variant->update));
	ASSERT_OK(ku_stat(self->fd, "x", &st));
	EXPECT_EQ(KBLOOM_TYPE_COUNT_MIN, st.type);
	EXPECT_EQ(4, st.k);
	EXPECT_EQ(4096, st.m);
	EXPECT_EQ(4, st.tables);
	EXPECT_EQ(1024, st.buckets);
	EXPECT_EQ(16, st.counter_bits);
	EXPECT_EQ(variant->update, st.update);
	EXPECT_EQ(8192, st.bytes);
	EXPECT_EQ(0, st.image_flags);
	/* epsilon 0.1% and d = 5 rows: w = 2719, 32-bit counters */
	ku_name(c.name, "eps");
	ASSERT_OK(ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	EXPECT_EQ(5 * 2719, c.m);
	EXPECT_EQ(5, c.k);
	EXPECT_EQ((5 * 2719 * 4 + 7) / 8 * 8, c.bytes);
	EXPECT_EQ(2719, c.buckets);	/* the planned width comes back */
	EXPECT_EQ(5, c.tables);
	EXPECT_EQ(32, c.counter_bits);
	ASSERT_OK(ku_stat(self->fd, "eps", &st));
	EXPECT_EQ(2719, st.buckets);
	EXPECT_EQ(32, st.counter_bits);
	EXPECT_EQ(EPS_01PCT, st.fpr_pico);
}

/* Key i added i % 5 times, 1 Mi counters: never below, and exact. */
TEST_F(cm, sparse_counts_exact)
{
	enum { N = 500 };
	static __u8 keys[16 * N];
	static __u64 est[N];
	struct kbloom_stat st;
	__u32 i, r, exact = 0, total = 0;

	ASSERT_OK(cm_create(self->fd, "c", 4, 1 << 16, 32, variant->update));
	ku_keys16(keys, 5, 0, N);
	for (r = 1; r < 5; r++)
		for (i = 0; i < N; i++)
			if (i % 5 >= r) {
				ASSERT_OK(add(self->fd, "c", keys + 16 * i, 1));
				total++;
			}
	ASSERT_OK(count(self->fd, "c", keys, N, est));
	for (i = 0; i < N; i++) {
		ASSERT_LE(i % 5, est[i]);
		exact += est[i] == i % 5;
	}
	EXPECT_LE(N - 1, exact);
	TH_LOG("exact estimates: %u of %u", exact, N);
	ASSERT_OK(ku_stat(self->fd, "c", &st));
	EXPECT_EQ(total, st.inserted);
	EXPECT_EQ(0, st.saturations);
	/* at most d counters per distinct key that was added */
	EXPECT_GE(4ULL * (N - N / 5), st.ones);
}

TEST_F(cm, delete)
{
	__u8 keys[16 * 3];
	__u64 est[3];
	__u32 done = 9, hits = 9;

	ASSERT_OK(cm_create(self->fd, "d", 4, 4096, 32, variant->update));
	ku_keys16(keys, 6, 0, 3);
	ASSERT_OK(add(self->fd, "d", keys, 2));
	ASSERT_OK(add(self->fd, "d", keys, 1));
	if (variant->update == KB_CM_MIN_INC) {
		EXPECT_ERRNO(EOPNOTSUPP, del(self->fd, "d", keys, 3, &done,
					     &hits));
		EXPECT_EQ(0, done);
		ASSERT_OK(count(self->fd, "d", keys, 3, est));
		EXPECT_EQ(2, est[0]);
		EXPECT_EQ(1, est[1]);
		return;
	}
	/* key 2 was never added: skipped, nothing decremented for it */
	ASSERT_OK(del(self->fd, "d", keys, 3, &done, &hits));
	EXPECT_EQ(2, done);
	EXPECT_EQ(1, hits);
	ASSERT_OK(count(self->fd, "d", keys, 3, est));
	EXPECT_EQ(1, est[0]);
	EXPECT_EQ(0, est[1]);
	EXPECT_EQ(0, est[2]);
}

/* A 16-bit counter stops at 65535; every lost row update is counted. */
TEST_F(cm, saturation)
{
	enum { N = 65540 };
	static __u8 keys[16 * N];
	struct kbloom_stat st;
	__u64 est = 0;
	__u32 i;

	ASSERT_OK(cm_create(self->fd, "s", 3, 64, 16, variant->update));
	for (i = 0; i < N; i++)
		ku_key16(keys + 16 * i, 7, 1);
	ASSERT_OK(add(self->fd, "s", keys, N));
	ASSERT_OK(count(self->fd, "s", keys, 1, &est));
	EXPECT_EQ(65535, est);
	ASSERT_OK(ku_stat(self->fd, "s", &st));
	EXPECT_EQ(3 * (N - 65535), st.saturations);
	if (variant->update == KB_CM_ALL) {
		ASSERT_OK(del(self->fd, "s", keys, 1, NULL, NULL));
		ASSERT_OK(count(self->fd, "s", keys, 1, &est));
		EXPECT_EQ(65535, est);
	}
}

/* Keys of a skewed stream: key i added (i % 97) + 1 times, in rounds. */
static __u32 skewed_stream(int fd, const char *name, struct kbloom_sketch *s,
			   __u8 *keys, __u32 nkeys)
{
	__u32 i, r, total = 0;

	for (r = 0; r < 97; r++)
		for (i = 0; i < nkeys; i++) {
			if (i % 97 < r)
				continue;
			if (fd >= 0 && add(fd, name, keys + 16 * i, 1))
				return 0;
			if (s && kbloom_sketch_add(s, keys + 16 * i, 16, 1) < 0)
				return 0;
			total++;
		}
	return total;
}

/* SAVE, loaded by the library: the same counters and the same estimates. */
TEST_F(cm, save_equals_library)
{
	enum { N = 3000 };
	static __u8 keys[16 * N];
	static __u64 est[N];
	struct kbloom_sketch *img_s, *lib_s;
	struct kbloom_sketch_stat st;
	void *img;
	__u64 len;
	__u32 i, total;

	ASSERT_OK(cm_create(self->fd, "v", 5, 2719, 32, variant->update));
	ASSERT_OK(lib_sketch(5, 2719, 32, variant->update, &lib_s));
	ku_keys16(keys, 8, 0, N);
	total = skewed_stream(self->fd, "v", lib_s, keys, N);
	ASSERT_NE(0, total);
	ASSERT_OK(ku_save(self->fd, "v", &img, &len));
	ASSERT_OK(kbloom_sketch_load(img, len, &img_s));
	ASSERT_OK(kbloom_sketch_stat(img_s, &st));
	EXPECT_EQ(total, st.total);
	EXPECT_EQ(variant->update, st.update);
	ASSERT_EQ(kbloom_sketch_words(lib_s), kbloom_sketch_words(img_s));
	EXPECT_EQ(0, memcmp(kbloom_sketch_data(lib_s),
			    kbloom_sketch_data(img_s),
			    kbloom_sketch_words(img_s) * 8));
	ASSERT_OK(count(self->fd, "v", keys, N, est));
	for (i = 0; i < N; i++) {
		ASSERT_EQ(est[i], kbloom_sketch_count(img_s, keys + 16 * i, 16));
		ASSERT_LE(i % 97 + 1, est[i]);
	}
	kbloom_sketch_free(img_s);
	kbloom_sketch_free(lib_s);
	free(img);
}

/* RESTORE of a library image: the module's COUNT is the library's. */
TEST_F(cm, restore_library_image)
{
	enum { N = 2000 };
	static __u8 keys[16 * N];
	static __u64 est[N];
	struct kbloom_sketch *s;
	struct kbloom_stat st;
	size_t len;
	void *img;
	__u32 i;

	ASSERT_OK(lib_sketch(4, 512, 16, variant->update, &s));
	ku_keys16(keys, 9, 0, N);
	for (i = 0; i < N; i++)
		ASSERT_LE(0, kbloom_sketch_add(s, keys + 16 * i, 16, 1 + i % 50));
	len = kbloom_sketch_image_size(s);
	img = malloc(len);
	ASSERT_NE(NULL, img);
	ASSERT_OK(kbloom_sketch_save(s, img, len, NULL));
	ASSERT_OK(ku_restore(self->fd, "r", img, len, 0));
	ASSERT_OK(ku_stat(self->fd, "r", &st));
	EXPECT_EQ(KBLOOM_TYPE_COUNT_MIN, st.type);
	EXPECT_EQ(512, st.buckets);
	EXPECT_EQ(4, st.tables);
	EXPECT_EQ(variant->update, st.update);
	ASSERT_OK(count(self->fd, "r", keys, N, est));
	for (i = 0; i < N; i++)
		ASSERT_EQ(kbloom_sketch_count(s, keys + 16 * i, 16), est[i]);
	/* a broken library image is refused and creates nothing */
	((__u8 *)img)[len - 1] ^= 1;
	EXPECT_ERRNO(EBADMSG, ku_restore(self->fd, "r2", img, len, 0));
	EXPECT_ERRNO(ENOENT, ku_stat(self->fd, "r2", &st));
	kbloom_sketch_free(s);
	free(img);
}

struct adder {
	int fd;
	pthread_t th;
	const __u8 *keys;
	__u32 n, rounds;
	int err;
};

static void *adder_main(void *arg)
{
	struct adder *a = arg;
	__u32 r;

	for (r = 0; r < a->rounds && !a->err; r++)
		a->err = add(a->fd, "p", a->keys, a->n);
	return NULL;
}

/* Threads adding the same keys at once: never below the truth. */
TEST_F(cm, concurrent_adds_never_below)
{
	enum { T = 4, K = 8, REP = 512, ROUNDS = 40 };
	static __u8 keys[16 * K * REP];
	struct adder a[T];
	__u64 est[K];
	__u32 i, over = 0;

	ASSERT_OK(cm_create(self->fd, "p", 4, 1 << 12, 32, variant->update));
	for (i = 0; i < K * REP; i++)
		ku_key16(keys + 16 * i, 10, i % K);
	for (i = 0; i < T; i++) {
		a[i] = (struct adder){ .fd = self->fd, .keys = keys,
				       .n = K * REP, .rounds = ROUNDS };
		ASSERT_EQ(0, pthread_create(&a[i].th, NULL, adder_main, &a[i]));
	}
	for (i = 0; i < T; i++) {
		pthread_join(a[i].th, NULL);
		ASSERT_OK(a[i].err);
	}
	ASSERT_OK(count(self->fd, "p", keys, K, est));
	for (i = 0; i < K; i++) {
		ASSERT_LE((__u64)T * REP * ROUNDS, est[i]);
		over += est[i] - (__u64)T * REP * ROUNDS;
		if (variant->update == KB_CM_ALL)
			EXPECT_EQ((__u64)T * REP * ROUNDS, est[i]);
	}
	TH_LOG("%u adds per key from %u threads; overestimate in sum %u",
	       T * REP * ROUNDS, T, over);
}

/* kbloomctl count: the module's estimates, one line per key. */
TEST_F(cm, kbloomctl_count)
{
	struct kbctl_res r;

	ASSERT_OK(cm_create(self->fd, "k", 4, 256, 16, variant->update));
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_ADD, "k", "aaabbc", 6, 1, 6,
			  NULL, NULL, NULL));
	ASSERT_EQ(0, kbctl_run(&r, "count", "k", "a", "b", "c", "d"));
	EXPECT_STREQ("a: 3\nb: 2\nc: 1\nd: 0\n", r.out);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "count", "nosuch", "a"));
	EXPECT_STREQ("kbloomctl: count nosuch: No such file or directory\n",
		     r.err);
	kbctl_free(&r);
}

struct bad_create {
	const char *what;
	struct kbloom_create c;
	int err;
};

TEST_F(cm, bad_geometry_refused)
{
	static const struct bad_create bad[] = {
		{ "counter bits 8", { .tables = 4, .buckets = 64,
				      .counter_bits = 8 }, EINVAL },
		{ "counter bits 64", { .tables = 4, .buckets = 64,
				       .counter_bits = 64 }, EINVAL },
		{ "rows 0", { .buckets = 64 }, EINVAL },
		{ "rows 17", { .tables = 17, .buckets = 64 }, EINVAL },
		{ "width 15", { .tables = 4, .buckets = 15 }, EINVAL },
		{ "update 3", { .tables = 4, .buckets = 64, .update = 3 },
		  EINVAL },
		{ "epsilon and width", { .tables = 4, .buckets = 64,
					 .fpr_pico = EPS_01PCT }, EINVAL },
		{ "epsilon 0.6", { .tables = 4,
				   .fpr_pico = 600000000000ULL }, EINVAL },
		{ "capacity", { .tables = 4, .buckets = 64,
				.capacity = 1000 }, EINVAL },
		{ "m", { .tables = 4, .buckets = 64, .m = 256 }, EINVAL },
		{ "k", { .tables = 4, .buckets = 64, .k = 4 }, EINVAL },
		{ "fp_bits", { .tables = 4, .buckets = 64, .fp_bits = 8 },
		  EINVAL },
		{ "slots", { .tables = 4, .buckets = 64, .slots = 4 },
		  EINVAL },
		{ "vi_l", { .tables = 4, .buckets = 64, .vi_l = 4 }, EINVAL },
		{ "16 x 2^30 counters", { .tables = 16,
					  .buckets = 1ULL << 30 }, E2BIG },
	};
	struct kbloom_create c;
	size_t i;

	for (i = 0; i < ARRAY_LEN(bad); i++) {
		c = bad[i].c;
		c.size = sizeof(c);
		c.type = KBLOOM_TYPE_COUNT_MIN;
		c.update = c.update ? c.update : variant->update;
		ku_name(c.name, "bad");
		EXPECT_ERRNO(bad[i].err, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE,
						  &c))
			TH_LOG("%s", bad[i].what);
	}
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
}

TEST_HARNESS_MAIN
