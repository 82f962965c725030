// SPDX-License-Identifier: GPL-2.0
/*
 * Cuckoo filters in kbloom.ko (kmod/cuckoo.c): CREATE planned and
 * explicit, every bad geometry refused with EINVAL and nothing created,
 * ADD/TEST/DEL/COUNT/STAT, ADD past capacity (ENOSPC, done = keys added,
 * nothing lost), images that move between the module and libkbloom both
 * ways, and add/del churn by 4 threads against lock-free readers: no false
 * negative for a key whose add returned and that was not deleted; the
 * kbloomctl commands (create NAME cuckoo, count, stat).
 * KBLOOM_CUCKOO_CHURN_S sets the churn's seconds (default 3).
 */
#include <pthread.h>
#include <time.h>

#include "guest_harness.h"
#include "kmod_util.h"
#include "libkbloom_cuckoo.h"
#include "core/kbloomctl_util.h"

#define EXPECT_ERRNO(expected, cmd) EXPECT_EQ(-(expected), (cmd))
#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))

#define P_02PCT		2000000000ULL

FIXTURE(ck) {
	int fd;
};

FIXTURE_SETUP(ck)
{
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ASSERT_OK(ku_destroy_all(self->fd));
}

FIXTURE_TEARDOWN(ck)
{
	ku_destroy_all(self->fd);
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
	close(self->fd);
}

static int create_shape(int fd, const char *name, __u32 fp_bits,
			__u32 slots, __u64 buckets, __u64 seed)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_CUCKOO,
		.fp_bits = fp_bits, .slots = slots, .buckets = buckets,
		.seed = seed, .flags = KBLOOM_CREATE_SEED,
	};

	ku_name(c.name, name);
	return ku_ioctl(fd, KBLOOM_IOCTL_CREATE, &c);
}

static int keys_op(int fd, unsigned long cmd, const char *name,
		   const __u8 *keys, __u32 n, void *res, __u32 *done,
		   __u32 *hits)
{
	return ku_keys(fd, cmd, name, keys, 16ULL * n, 16, n, res, done,
		       hits);
}

/* TEST of @n keys of @space from @first: the hits. */
static __u32 hits_of(int fd, const char *name, __u32 space, __u64 first,
		     __u32 n)
{
	__u8 *keys = malloc(16ULL * n);
	__u32 hits = 0;

	ku_keys16(keys, space, first, n);
	if (keys_op(fd, KBLOOM_IOCTL_TEST, name, keys, n, NULL, NULL, &hits))
		hits = ~0U;
	free(keys);
	return hits;
}

static int add_range(int fd, const char *name, __u32 space, __u64 first,
		     __u32 n, __u32 *done)
{
	__u8 *keys = malloc(16ULL * n);
	int ret;

	ku_keys16(keys, space, first, n);
	ret = keys_op(fd, KBLOOM_IOCTL_ADD, name, keys, n, NULL, done, NULL);
	free(keys);
	return ret;
}

TEST_F(ck, create_planned_and_explicit)
{
	struct kbloom_create out;
	struct kbloom_stat st;

	ASSERT_OK(ku_create_np(self->fd, "p", KBLOOM_TYPE_CUCKOO, 100000,
			       P_02PCT, &out));
	EXPECT_EQ(2, out.k);
	EXPECT_EQ(4 * ((100000 * 5 + 18) / 19), out.m);
	/* the planned geometry comes back */
	EXPECT_EQ(12, out.fp_bits);
	EXPECT_EQ(4, out.slots);
	EXPECT_EQ((100000 * 5 + 18) / 19, out.buckets);
	ASSERT_OK(ku_stat(self->fd, "p", &st));
	EXPECT_EQ(KBLOOM_TYPE_CUCKOO, st.type);
	EXPECT_EQ(12, st.fp_bits);
	EXPECT_EQ(4, st.slots);
	EXPECT_EQ((100000 * 5 + 18) / 19, st.buckets);
	EXPECT_EQ(100000, st.capacity);
	EXPECT_EQ(P_02PCT, st.fpr_pico);
	EXPECT_EQ((st.m * 12 + 63) / 64 * 8, st.bytes);
	EXPECT_EQ(0, st.image_flags);

	ASSERT_OK(create_shape(self->fd, "e", 13, 8, 1001, 5));
	ASSERT_OK(ku_stat(self->fd, "e", &st));
	EXPECT_EQ(13, st.fp_bits);
	EXPECT_EQ(8, st.slots);
	EXPECT_EQ(1001, st.buckets);
	EXPECT_EQ(8008, st.m);
	EXPECT_EQ(2, st.k);
	EXPECT_EQ(5, st.seed);
	EXPECT_EQ(0, st.capacity);
}

TEST_F(ck, bad_geometry_refused)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_CUCKOO,
		.fp_bits = 12, .slots = 4, .buckets = 100,
	};
	struct kbloom_create p = {
		.size = sizeof(c), .type = KBLOOM_TYPE_CUCKOO,
		.capacity = 1000, .fpr_pico = P_02PCT,
	};
	struct kbloom_create t;

#define BAD(base, edit) do {						\
		t = base;						\
		edit;							\
		EXPECT_ERRNO(EINVAL, ku_ioctl(self->fd,			\
					      KBLOOM_IOCTL_CREATE, &t)); \
	} while (0)
	ku_name(c.name, "bad");
	ku_name(p.name, "bad");
	BAD(c, t.fp_bits = 3);
	BAD(c, t.fp_bits = 33);
	BAD(c, t.slots = 0);
	BAD(c, t.slots = 3);
	BAD(c, t.slots = 16);
	BAD(c, t.buckets = 0);
	BAD(c, t.buckets = 1);
	BAD(c, t.buckets = KBLOOM_M_MAX);
	BAD(c, t.m = 400);
	BAD(c, t.k = 2);
	BAD(c, t.counter_bits = 4);
	BAD(c, t.tables = 2);
	BAD(c, t.vi_l = 2);
	BAD(c, t.update = 1);
	BAD(p, t.fp_bits = 12);
	BAD(p, t.buckets = 100);
	BAD(p, t.capacity = 0);
	BAD(p, t.fpr_pico = 0);
	BAD(p, t.fpr_pico = 1500);	/* below f = 32 */
	BAD(p, t.fpr_pico = KBLOOM_P_TARGET_MAX + 1);
#undef BAD
	t = p;
	t.capacity = KBLOOM_M_MAX;
	EXPECT_ERRNO(E2BIG, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &t));
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
	EXPECT_ERRNO(ENOENT, ku_destroy(self->fd, "bad"));
}

TEST_F(ck, add_test_del_count_stat)
{
	enum { N = 14000 };
	static __u8 keys[16 * N];
	struct kbloom_stat st;
	__u32 done, hits, i;
	__u64 est[3];

	/* 4096 slots: N keys in 3 of 4 filled buckets relocate often */
	ASSERT_OK(create_shape(self->fd, "c", 12, 4, 4096, 11));
	ku_keys16(keys, 1, 0, N);
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_ADD, "c", keys, N, NULL,
			  &done, NULL));
	EXPECT_EQ(N, done);
	EXPECT_EQ(N, hits_of(self->fd, "c", 1, 0, N));
	ASSERT_OK(ku_stat(self->fd, "c", &st));
	EXPECT_EQ(N, st.inserted);
	EXPECT_EQ(N, st.ones);
	EXPECT_EQ(N, st.n_est);
	EXPECT_EQ(N * 1000000ULL / 16384, st.occupancy_ppm);
	EXPECT_GT(st.kicks, 0);
	EXPECT_EQ(0, st.overflows);
	EXPECT_EQ(kb_cuckoo_fpr_pico(12, 4096, N), st.fpr_now_pico);
	TH_LOG("load %.3f: %llu kicks", st.occupancy_ppm / 1e6,
	       (unsigned long long)st.kicks);
	/* delete the first half; the rest stays */
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_DEL, "c", keys, N / 2, NULL,
			  &done, &hits));
	EXPECT_EQ(N / 2, done);
	EXPECT_EQ(0, hits);
	EXPECT_EQ(N / 2, hits_of(self->fd, "c", 1, N / 2, N / 2));
	EXPECT_GT(N / 100, hits_of(self->fd, "c", 1, 0, N / 2));
	ASSERT_OK(ku_stat(self->fd, "c", &st));
	EXPECT_EQ(N / 2, st.inserted);
	EXPECT_EQ(N / 2, st.ones);
	/* copies: key 0 three times, key 1 once, key 2 never */
	for (i = 0; i < 3; i++)
		ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_ADD, "c", keys, 2 - !!i,
				  NULL, NULL, NULL));
	ku_keys16(keys, 9, 0, 3);
	ku_keys16(keys, 1, 0, 2);
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_COUNT, "c", keys, 3, est,
			  &done, &hits));
	EXPECT_EQ(3, est[0]);
	EXPECT_EQ(1, est[1]);
	EXPECT_EQ(0, est[2]);
	EXPECT_EQ(2, hits);
	/* a delete takes one copy; an absent key is a miss */
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_DEL, "c", keys, 3, NULL,
			  &done, &hits));
	EXPECT_EQ(2, done);
	EXPECT_EQ(1, hits);
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_COUNT, "c", keys, 3, est,
			  NULL, NULL));
	EXPECT_EQ(2, est[0]);
	EXPECT_EQ(0, est[1]);
}

TEST_F(ck, add_past_capacity)
{
	enum { N = 400 };
	struct kbloom_stat st;
	__u32 done = 0;
	void *a, *b;
	__u64 la, lb;

	/* 256 slots */
	ASSERT_OK(create_shape(self->fd, "s", 12, 4, 64, 3));
	EXPECT_ERRNO(ENOSPC, add_range(self->fd, "s", 2, 0, N, &done));
	EXPECT_LT(256 * 90 / 100, done);
	EXPECT_GE(256, done);
	EXPECT_EQ(done, hits_of(self->fd, "s", 2, 0, done));
	ASSERT_OK(ku_stat(self->fd, "s", &st));
	EXPECT_EQ(done, st.inserted);
	EXPECT_EQ(done, st.ones);
	EXPECT_EQ(1, st.overflows);
	/* the refused key changed nothing */
	ASSERT_OK(ku_save(self->fd, "s", &a, &la));
	EXPECT_ERRNO(ENOSPC, add_range(self->fd, "s", 2, done, 1, NULL));
	ASSERT_OK(ku_save(self->fd, "s", &b, &lb));
	ASSERT_EQ(la, lb);
	EXPECT_EQ(0, memcmp((__u8 *)a + sizeof(struct kbloom_image_head),
			    (__u8 *)b + sizeof(struct kbloom_image_head),
			    la - sizeof(struct kbloom_image_head)));
	TH_LOG("ENOSPC after %u keys in 256 slots (load %.3f)", done,
	       done / 256.0);
	free(a);
	free(b);
}

/* Library answers for keys of @space equal the module's. */
static __u32 lib_mismatches(int fd, const char *name,
			    const struct kbloom_cuckoo *c, __u32 space,
			    __u32 n)
{
	__u8 *keys = malloc(16ULL * n), *res = calloc((n + 7) / 8, 1);
	__u32 i, bad = 0;

	ku_keys16(keys, space, 0, n);
	if (keys_op(fd, KBLOOM_IOCTL_TEST, name, keys, n, res, NULL, NULL))
		bad = n;
	for (i = 0; i < n && !bad; i++)
		bad += kbloom_cuckoo_test(c, keys + 16 * i, 16) !=
		       !!(res[i / 8] & (1 << (i % 8)));
	free(keys);
	free(res);
	return bad;
}

TEST_F(ck, images_module_library_module)
{
	struct kbloom_cuckoo_stats ls;
	struct kbloom_cuckoo *c;
	struct kbloom_stat st;
	void *img, *img2;
	__u64 len;
	size_t llen;
	__u32 done;

	ASSERT_OK(ku_create_np(self->fd, "m", KBLOOM_TYPE_CUCKOO, 100000,
			       P_02PCT, NULL));
	ASSERT_OK(add_range(self->fd, "m", 3, 0, 95000, &done));
	ASSERT_OK(ku_save(self->fd, "m", &img, &len));
	ASSERT_OK(kbloom_cuckoo_load(img, len, &c));
	/* 95k present and 100k absent keys: the same answers */
	EXPECT_EQ(0, lib_mismatches(self->fd, "m", c, 3, 100000));
	EXPECT_EQ(0, lib_mismatches(self->fd, "m", c, 4, 100000));
	ASSERT_OK(kbloom_cuckoo_stats(c, &ls));
	ASSERT_OK(ku_stat(self->fd, "m", &st));
	EXPECT_EQ(st.kicks, ls.kicks);
	EXPECT_EQ(st.inserted, ls.inserted);
	EXPECT_EQ(st.ones, ls.used);
	/* the library adds more, its image restores into the module */
	EXPECT_EQ(0, kbloom_cuckoo_add(c, "library key", 11));
	llen = kbloom_cuckoo_image_size(c);
	img2 = malloc(llen);
	ASSERT_OK(kbloom_cuckoo_save(c, img2, llen, NULL));
	ASSERT_OK(ku_restore(self->fd, "r", img2, llen, 0));
	EXPECT_EQ(0, lib_mismatches(self->fd, "r", c, 3, 100000));
	EXPECT_EQ(0, lib_mismatches(self->fd, "r", c, 4, 100000));
	ASSERT_OK(ku_stat(self->fd, "r", &st));
	EXPECT_EQ(ls.inserted + 1, st.inserted);
	EXPECT_EQ(12, st.fp_bits);
	/* and saves back the same tail and words (the name is its own) */
	free(img);
	ASSERT_OK(ku_save(self->fd, "r", &img, &len));
	ASSERT_EQ(llen, len);
	EXPECT_EQ(0, memcmp((__u8 *)img + KBLOOM_IMAGE_HDR_LEN,
			    (__u8 *)img2 + KBLOOM_IMAGE_HDR_LEN,
			    len - KBLOOM_IMAGE_HDR_LEN));
	/* a broken one creates nothing */
	((__u8 *)img2)[llen - 1] ^= 1;
	EXPECT_ERRNO(EBADMSG, ku_restore(self->fd, "x", img2, llen, 0));
	EXPECT_ERRNO(ENOENT, ku_stat(self->fd, "x", &st));
	kbloom_cuckoo_destroy(c);
	free(img);
	free(img2);
}

/* kbloomctl with the arguments: exit @status, standard output @want. */
#define CTL(status, want, ...) do {					\
	struct kbctl_res r_;						\
	EXPECT_EQ(status, kbctl_run(&r_, __VA_ARGS__))			\
		TH_LOG("stderr: %s", r_.err);				\
	EXPECT_STREQ(want, r_.out);					\
	kbctl_free(&r_);						\
} while (0)

TEST_F(ck, kbloomctl_commands)
{
	struct kbctl_res r;
	struct kbloom_stat st;

	CTL(0, "", "create", "cf", "cuckoo", "capacity", "1000", "fpr",
	    "0.2%", "seed", "7");
	ASSERT_OK(ku_stat(self->fd, "cf", &st));
	EXPECT_EQ(12, st.fp_bits);
	EXPECT_EQ(264, st.buckets);
	EXPECT_EQ(7, st.seed);
	CTL(0, "", "add", "cf", "alpha", "gamma", "gamma");
	CTL(0, "alpha: 1\ngamma: 2\ndelta: 0\n", "count", "cf", "alpha",
	    "gamma", "delta");
	CTL(0, "", "del", "cf", "gamma");
	CTL(0, "gamma: 1\n", "count", "cf", "gamma");
	EXPECT_EQ(0, kbctl_run(&r, "stat", "cf"));
	EXPECT_NE(NULL, strstr(r.out, "cuckoo:       12-bit fingerprints, 264 buckets of 4 slots\n"));
	EXPECT_NE(NULL, strstr(r.out, "kicks:        0\noverflows:    0\n"));
	kbctl_free(&r);
	CTL(0, "", "create", "cf2", "cuckoo", "fp-bits", "16", "slots", "2",
	    "buckets", "100");
	ASSERT_OK(ku_stat(self->fd, "cf2", &st));
	EXPECT_EQ(200, st.m);
	/* bad geometry: a usage error naming the field, nothing created */
	EXPECT_EQ(2, kbctl_run(&r, "create", "x", "cuckoo", "fp-bits", "3",
			       "slots", "4", "buckets", "10"));
	EXPECT_NE(NULL, strstr(r.err, "fp-bits '3'"));
	kbctl_free(&r);
	CTL(2, "", "create", "x", "cuckoo", "fp-bits", "12", "slots", "3",
	    "buckets", "10");
	CTL(2, "", "create", "x", "cuckoo", "capacity", "10", "fp-bits", "12");
	EXPECT_ERRNO(ENOENT, ku_stat(self->fd, "x", &st));
	/* a bit filter has no counts */
	ASSERT_OK(ku_create_mk(self->fd, "bl", KBLOOM_TYPE_BLOCKED, 4096, 3,
			       0, 0));
	CTL(3, "", "count", "bl", "alpha");
}

/*
 * Churn: STABLE keys are added first and never deleted; then each of 4
 * writer threads adds keys of its own space and deletes them a window
 * later, at a load near 90%, so adds keep relocating the stable keys;
 * 2 reader threads test every stable key over and over.  The table is
 * small so that a relocation often moves a key a reader is testing at
 * that moment (a reader without the sequence check shows misses here).
 */
#define CH_BUCKETS	64U
#define CH_STABLE	200U
#define CH_WINDOW	8U
#define CH_WRITERS	4
#define CH_READERS	2

struct churn {
	int fd;
	double end;
	__u64 ops[CH_WRITERS];
	__u64 refused[CH_WRITERS];
	__u64 fn;
	__u64 tests;
	int err;
};

struct churn_arg {
	struct churn *ch;
	int id;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One writer step: add key i, delete key i - window if it was added. */
static int churn_step(struct churn *ch, int id, __u64 i, __u8 *added)
{
	__u8 key[16];
	int ret;

	ku_key16(key, 100 + id, i);
	ret = keys_op(ch->fd, KBLOOM_IOCTL_ADD, "ch", key, 1, NULL, NULL,
		      NULL);
	if (ret && ret != -ENOSPC)
		return ret;
	added[i % CH_WINDOW] = !ret;
	ch->refused[id] += !!ret;
	if (i + 1 < CH_WINDOW || !added[(i + 1) % CH_WINDOW])
		return 0;
	ku_key16(key, 100 + id, i + 1 - CH_WINDOW);
	return keys_op(ch->fd, KBLOOM_IOCTL_DEL, "ch", key, 1, NULL, NULL,
		       NULL);
}

static void *churn_writer(void *p)
{
	struct churn_arg *a = p;
	struct churn *ch = a->ch;
	__u8 added[CH_WINDOW] = { 0 };
	__u64 i;

	for (i = 0; now_s() < ch->end && !ch->err; i++)
		if (churn_step(ch, a->id, i, added))
			ch->err = 1;
	ch->ops[a->id] = i;
	return NULL;
}

static void *churn_reader(void *p)
{
	struct churn *ch = p;
	__u8 *keys = malloc(16ULL * CH_STABLE);
	__u32 hits;
	__u64 fn = 0, tests = 0;

	ku_keys16(keys, 99, 0, CH_STABLE);
	while (now_s() < ch->end && !ch->err) {
		if (keys_op(ch->fd, KBLOOM_IOCTL_TEST, "ch", keys, CH_STABLE,
			    NULL, NULL, &hits))
			ch->err = 2;
		fn += CH_STABLE - hits;
		tests += CH_STABLE;
	}
	__atomic_fetch_add(&ch->fn, fn, __ATOMIC_RELAXED);
	__atomic_fetch_add(&ch->tests, tests, __ATOMIC_RELAXED);
	free(keys);
	return NULL;
}

static double churn_seconds(void)
{
	const char *s = getenv("KBLOOM_CUCKOO_CHURN_S");

	return s ? atof(s) : 3.0;
}

TEST_F(ck, churn_no_false_negatives)
{
	struct churn ch = { .fd = self->fd };
	struct churn_arg args[CH_WRITERS];
	pthread_t w[CH_WRITERS], r[CH_READERS];
	struct kbloom_stat st;
	__u64 ops = 0, refused = 0;
	__u32 done;
	int i;

	ASSERT_OK(create_shape(self->fd, "ch", 12, 4, CH_BUCKETS, 21));
	ASSERT_OK(add_range(self->fd, "ch", 99, 0, CH_STABLE, &done));
	ch.end = now_s() + churn_seconds();
	for (i = 0; i < CH_READERS; i++)
		ASSERT_OK(pthread_create(&r[i], NULL, churn_reader, &ch));
	for (i = 0; i < CH_WRITERS; i++) {
		args[i].ch = &ch;
		args[i].id = i;
		ASSERT_OK(pthread_create(&w[i], NULL, churn_writer, &args[i]));
	}
	for (i = 0; i < CH_WRITERS; i++)
		pthread_join(w[i], NULL);
	for (i = 0; i < CH_READERS; i++)
		pthread_join(r[i], NULL);
	ASSERT_EQ(0, ch.err);
	for (i = 0; i < CH_WRITERS; i++) {
		ops += ch.ops[i];
		refused += ch.refused[i];
	}
	ASSERT_OK(ku_stat(self->fd, "ch", &st));
	EXPECT_EQ(0, ch.fn);
	EXPECT_GT(ch.tests, CH_STABLE);
	EXPECT_EQ(CH_STABLE, hits_of(self->fd, "ch", 99, 0, CH_STABLE));
	TH_LOG("%.0f s: %d writers %llu adds (%llu refused) with deletes, %llu kicks, load %.3f; %d readers %llu tests: %llu false negatives",
	       churn_seconds(), CH_WRITERS, (unsigned long long)ops,
	       (unsigned long long)refused, (unsigned long long)st.kicks,
	       st.occupancy_ppm / 1e6, CH_READERS,
	       (unsigned long long)ch.tests, (unsigned long long)ch.fn);
}

/*
 * FLUSH racing an ADD batch at high load: the batch's relocations must
 * not carry an entry of before the flush into the part already zeroed.
 * Afterwards every occupied slot holds the fingerprint of a key of the
 * batch: the slots in use are at most the batch keys' summed counts.
 */
#define FR_BUCKETS	(1U << 16)
#define FR_OLD		(FR_BUCKETS * 4 / 100 * 93)
#define FR_NEW		40000U

struct flush_race {
	int fd;
	__u8 *keys;
	int started;
	int ret;
};

static void *flush_race_adder(void *p)
{
	struct flush_race *fr = p;

	__atomic_store_n(&fr->started, 1, __ATOMIC_RELEASE);
	fr->ret = keys_op(fr->fd, KBLOOM_IOCTL_ADD, "fr", fr->keys, FR_NEW,
			  NULL, NULL, NULL);
	return NULL;
}

/* The filter "fr" at 93% load, @keys the batch of round @round. */
static int flush_race_fill(int fd, __u8 *keys, int round)
{
	__u32 done;
	int ret;

	ret = create_shape(fd, "fr", 12, 4, FR_BUCKETS, 7 + round);
	ret = ret ?: add_range(fd, "fr", 50 + round, 0, FR_OLD, &done);
	ku_keys16(keys, 60 + round, 0, FR_NEW);
	return ret;
}

/*
 * One race, the FLUSH @delay_us into the batch; the slots in use minus
 * the batch keys' summed counts.
 */
static long flush_race_once(struct __test_metadata *_metadata, int fd,
			    __u8 *keys, __u64 *est, int round, long delay_us)
{
	struct flush_race fr = { .fd = fd, .keys = keys };
	struct kbloom_stat st;
	__u64 sum = 0;
	pthread_t t;
	__u32 i;

	ASSERT_OK(flush_race_fill(fd, keys, round));
	ASSERT_OK(pthread_create(&t, NULL, flush_race_adder, &fr));
	while (!__atomic_load_n(&fr.started, __ATOMIC_ACQUIRE))
		;
	usleep(delay_us);
	EXPECT_EQ(0, ku_name_cmd(fd, KBLOOM_IOCTL_FLUSH, "fr", 0));
	pthread_join(t, NULL);
	EXPECT_TRUE(fr.ret == 0 || fr.ret == -ENOSPC);
	ASSERT_OK(keys_op(fd, KBLOOM_IOCTL_COUNT, "fr", keys, FR_NEW, est,
			  NULL, NULL));
	for (i = 0; i < FR_NEW; i++)
		sum += est[i];
	ASSERT_OK(ku_stat(fd, "fr", &st));
	ASSERT_OK(ku_destroy(fd, "fr"));
	return (long)st.ones - (long)sum;
}

/* Microseconds of one batch without a flush (the guest's speed). */
static long flush_race_batch_us(int fd, __u8 *keys)
{
	double t0;
	long us;

	if (flush_race_fill(fd, keys, 0))
		return -1;
	t0 = now_s();
	keys_op(fd, KBLOOM_IOCTL_ADD, "fr", keys, FR_NEW, NULL, NULL, NULL);
	us = (long)((now_s() - t0) * 1e6);
	ku_destroy(fd, "fr");
	return us;
}

#define FR_ROUNDS	16

TEST_F(ck, flush_racing_add_keeps_no_old_entry)
{
	__u8 *keys = malloc(16ULL * FR_NEW);
	__u64 *est = calloc(FR_NEW, sizeof(*est));
	long extra, batch;
	int round;

	ASSERT_NE(NULL, keys);
	ASSERT_NE(NULL, est);
	batch = flush_race_batch_us(self->fd, keys);
	ASSERT_LT(0, batch);
	/* flushes spread over the batch, where its adds kick the most */
	for (round = 0; round < FR_ROUNDS; round++) {
		extra = flush_race_once(_metadata, self->fd, keys, est, round,
					batch * (round + 1) / (FR_ROUNDS + 1));
		if (extra > 0)
			TH_LOG("round %d: %ld slots hold entries of before the flush",
			       round, extra);
		EXPECT_GE(0, extra);
	}
	TH_LOG("%d flushes over a batch of %ld us", FR_ROUNDS, batch);
	free(est);
	free(keys);
}

TEST_HARNESS_MAIN
