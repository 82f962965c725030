// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko's d-left counting filter: CREATE planned and explicit,
 * ADD/TEST/DEL/COUNT/STAT, ENOSPC with done when the d buckets of a key
 * are full, SAVE loaded by libkbloom_dleft with identical answers and
 * identical cells, RESTORE of a library image, bad geometry refused;
 * lock-free readers never miss a key while a writer moves the counts of
 * their keys, split across two words (the seqcount path); the lines
 * layout created, reported and saved as the library lays it out.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include "guest_harness.h"
#include "kmod_util.h"
#include "libkbloom_dleft.h"

#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))
#define DL_SEED		0x5EEDD1ULL
#define DL_N		4000U

FIXTURE(dl) {
	int fd;
	__u8 keys[16 * 2 * DL_N];
};

FIXTURE_SETUP(dl)
{
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ASSERT_OK(ku_destroy_all(self->fd));
	ku_keys16(self->keys, 6, 0, 2 * DL_N);
}

FIXTURE_TEARDOWN(dl)
{
	ku_destroy_all(self->fd);
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
	close(self->fd);
}

static int dl_create(int fd, const char *name, const struct kb_shape *s,
		     struct kbloom_create *out)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_DLEFT,
		.counter_bits = s->counter_bits, .fp_bits = s->fp_bits,
		.slots = s->slots, .tables = s->tables, .buckets = s->buckets,
		.update = s->update, .seed = DL_SEED,
		.flags = KBLOOM_CREATE_SEED,
	};
	int ret;

	ku_name(c.name, name);
	ret = ku_ioctl(fd, KBLOOM_IOCTL_CREATE, &c);
	if (out)
		*out = c;
	return ret;
}

static int keys_op(int fd, unsigned long cmd, const char *name,
		   const __u8 *keys, __u32 n, void *res, __u32 *done,
		   __u32 *hits)
{
	return ku_keys(fd, cmd, name, keys, 16ULL * n, 16, n, res, done, hits);
}

static const struct kb_shape dl_small = {
	.type = KBLOOM_TYPE_DLEFT, .tables = 4, .slots = 8, .fp_bits = 12,
	.counter_bits = 2, .buckets = 256,
};

TEST_F(dl, create_planned)
{
	struct kbloom_create c;
	struct kbloom_stat st;

	ASSERT_OK(ku_create_np(self->fd, "p", KBLOOM_TYPE_DLEFT, 24576,
			       6000000000ULL, &c));
	EXPECT_EQ(4 * 8 * 1024, c.m);
	EXPECT_EQ(4, c.k);
	/* the planned shape comes back */
	EXPECT_EQ(4, c.tables);
	EXPECT_EQ(8, c.slots);
	EXPECT_EQ(12, c.fp_bits);
	EXPECT_EQ(2, c.counter_bits);
	EXPECT_EQ(1024, c.buckets);
	ASSERT_OK(ku_stat(self->fd, "p", &st));
	EXPECT_EQ(4, st.tables);
	EXPECT_EQ(8, st.slots);
	EXPECT_EQ(12, st.fp_bits);
	EXPECT_EQ(2, st.counter_bits);
	EXPECT_EQ(KBLOOM_TYPE_DLEFT, st.type);
	EXPECT_EQ(4 * 8 * 1024, st.m);
	EXPECT_EQ(4, st.k);
	EXPECT_EQ(4 * 8 * 1024 * 14 / 8, st.bytes);
	EXPECT_EQ(1024, st.buckets);
}

TEST_F(dl, add_test_del_count_stat)
{
	static __u64 est[DL_N];
	struct kbloom_stat st;
	__u32 done, hits, i;

	ASSERT_OK(dl_create(self->fd, "d", &dl_small, NULL));
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_ADD, "d", self->keys, DL_N,
			  NULL, &done, NULL));
	EXPECT_EQ(DL_N, done);
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_ADD, "d", self->keys, 10,
			  NULL, NULL, NULL));
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_TEST, "d", self->keys, DL_N,
			  NULL, NULL, &hits));
	EXPECT_EQ(DL_N, hits);
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_COUNT, "d", self->keys, DL_N,
			  est, NULL, NULL));
	for (i = 0; i < DL_N; i++)
		ASSERT_LE(i < 10 ? 2 : 1, est[i]);
	ASSERT_OK(ku_stat(self->fd, "d", &st));
	EXPECT_EQ(DL_N + 10, st.inserted);
	EXPECT_LE(DL_N - 10, st.ones);
	EXPECT_GE(DL_N, st.ones);
	EXPECT_EQ(0, st.overflows);
	/* delete everything: every cell empty again */
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_DEL, "d", self->keys, DL_N,
			  NULL, NULL, &hits));
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_DEL, "d", self->keys, 10,
			  NULL, NULL, NULL));
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_TEST, "d", self->keys, DL_N,
			  NULL, NULL, &hits));
	EXPECT_EQ(0, hits);
	ASSERT_OK(ku_stat(self->fd, "d", &st));
	EXPECT_EQ(0, st.ones);
	EXPECT_EQ(0, st.inserted);
}

TEST_F(dl, enospc_with_done)
{
	static const struct kb_shape tiny = {
		.type = KBLOOM_TYPE_DLEFT, .tables = 2, .slots = 1,
		.fp_bits = 8, .counter_bits = 2, .buckets = 2,
	};
	struct kbloom_stat st;
	__u32 done = 0;
	__u64 ones;

	ASSERT_OK(dl_create(self->fd, "t", &tiny, NULL));
	EXPECT_EQ(-ENOSPC, keys_op(self->fd, KBLOOM_IOCTL_ADD, "t", self->keys,
				   64, NULL, &done, NULL));
	EXPECT_LT(0, done);
	ASSERT_OK(ku_stat(self->fd, "t", &st));
	EXPECT_EQ(1, st.overflows);
	EXPECT_EQ(done, st.inserted);
	ones = st.ones;
	/* the refused key again: refused, counted, nothing changed */
	EXPECT_EQ(-ENOSPC, keys_op(self->fd, KBLOOM_IOCTL_ADD, "t",
				   self->keys + 16 * done, 1, NULL, NULL,
				   NULL));
	ASSERT_OK(ku_stat(self->fd, "t", &st));
	EXPECT_EQ(2, st.overflows);
	EXPECT_EQ(done, st.inserted);
	EXPECT_EQ(ones, st.ones);
}

/*
 * The module's SAVE of filter @name of shape @s in the library: the same
 * cells and answers.
 */
static void dl_save_matches(struct __test_metadata *_metadata,
			    FIXTURE_DATA(dl) *self, const struct kb_shape *s,
			    const char *name)
{
	struct kbloom_dleft_opts o = { .seed = DL_SEED };
	struct kbloom_dleft *lib, *img;
	const __u64 *wl, *wi;
	__u64 len, nw, nw2;
	__u32 i, hits;
	__u8 res[2 * DL_N / 8];
	void *buf;

	ASSERT_OK(dl_create(self->fd, name, s, NULL));
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_ADD, name, self->keys, DL_N,
			  NULL, NULL, NULL));
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_DEL, name, self->keys, 500,
			  NULL, NULL, NULL));
	ASSERT_OK(ku_save(self->fd, name, &buf, &len));
	ASSERT_OK(kbloom_dleft_load(buf, len, &img));
	ASSERT_OK(kbloom_dleft_create_shape(s, &o, &lib));
	for (i = 0; i < DL_N; i++)
		ASSERT_LE(0, kbloom_dleft_add(lib, self->keys + 16 * i, 16));
	for (i = 0; i < 500; i++)
		ASSERT_OK(kbloom_dleft_del(lib, self->keys + 16 * i, 16));
	wl = kbloom_dleft_words(lib, &nw);
	wi = kbloom_dleft_words(img, &nw2);
	ASSERT_EQ(nw, nw2);
	ASSERT_EQ(0, memcmp(wl, wi, nw * 8));
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_TEST, name, self->keys,
			  2 * DL_N, res, NULL, &hits));
	for (i = 0; i < 2 * DL_N; i++)
		ASSERT_EQ(!!(res[i / 8] & (1 << (i % 8))),
			  kbloom_dleft_test(img, self->keys + 16 * i, 16));
	kbloom_dleft_destroy(lib);
	kbloom_dleft_destroy(img);
	free(buf);
}

TEST_F(dl, save_matches_library)
{
	dl_save_matches(_metadata, self, &dl_small, "s");
}

TEST_F(dl, restore_library_image)
{
	struct kbloom_dleft_opts o = { .seed = DL_SEED };
	struct kbloom_dleft *lib;
	__u32 i, hits, want = 0;
	struct kbloom_stat st;
	size_t len;
	__u64 len2;
	void *buf, *buf2;

	ASSERT_OK(kbloom_dleft_create_shape(&dl_small, &o, &lib));
	for (i = 0; i < DL_N; i++)
		ASSERT_LE(0, kbloom_dleft_add(lib, self->keys + 16 * i, 16));
	len = kbloom_dleft_image_size(lib);
	buf = malloc(len);
	ASSERT_NE(NULL, buf);
	ASSERT_OK(kbloom_dleft_save(lib, buf, len, NULL));
	ASSERT_OK(ku_restore(self->fd, "r", buf, len, 0));
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_TEST, "r", self->keys,
			  2 * DL_N, NULL, NULL, &hits));
	for (i = 0; i < 2 * DL_N; i++)
		want += kbloom_dleft_test(lib, self->keys + 16 * i, 16);
	EXPECT_EQ(want, hits);
	ASSERT_OK(ku_stat(self->fd, "r", &st));
	EXPECT_EQ(DL_N, st.inserted);
	ASSERT_OK(ku_save(self->fd, "r", &buf2, &len2));
	ASSERT_EQ(len, len2);
	/* the same cells (the header differs in the name) */
	EXPECT_EQ(0, memcmp((__u8 *)buf + 192, (__u8 *)buf2 + 192,
			    len - 192));
	kbloom_dleft_destroy(lib);
	free(buf);
	free(buf2);
}

/*
 * The lines layout (KB_DLEFT_LAYOUT_LINES): planned and explicit, STAT
 * says so, and SAVE gives the library's cells for the same keys.
 */
TEST_F(dl, lines_layout_matches_library)
{
	struct kb_shape s = dl_small;
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_DLEFT,
		.capacity = 24576, .fpr_pico = 6000000000ULL,
		.update = KB_DLEFT_LAYOUT_LINES,
	};
	struct kbloom_stat st;

	ku_name(c.name, "lp");
	ASSERT_OK(ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	EXPECT_EQ(KB_DLEFT_LAYOUT_LINES, c.update);
	EXPECT_EQ(1024, c.buckets);
	ASSERT_OK(ku_stat(self->fd, "lp", &st));
	EXPECT_EQ(KB_DLEFT_LAYOUT_LINES, st.update);
	s.update = KB_DLEFT_LAYOUT_LINES;
	dl_save_matches(_metadata, self, &s, "l");
}

/* Straddling cells and counts (17-bit cells): everything back to 0. */
TEST_F(dl, straddling_cells)
{
	static const struct kb_shape odd = {
		.type = KBLOOM_TYPE_DLEFT, .tables = 3, .slots = 5,
		.fp_bits = 13, .counter_bits = 4, .buckets = 512,
	};
	struct kbloom_stat st;
	__u32 r, hits;

	ASSERT_OK(dl_create(self->fd, "o", &odd, NULL));
	for (r = 0; r < 3; r++)
		ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_ADD, "o", self->keys,
				  DL_N, NULL, NULL, NULL));
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_TEST, "o", self->keys, DL_N,
			  NULL, NULL, &hits));
	EXPECT_EQ(DL_N, hits);
	for (r = 0; r < 3; r++)
		ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_DEL, "o", self->keys,
				  DL_N, NULL, NULL, NULL));
	ASSERT_OK(ku_stat(self->fd, "o", &st));
	EXPECT_EQ(0, st.ones);
}

TEST_F(dl, bad_geometry)
{
	static const __u32 bad[][5] = {	/* d, c, r, w, B */
		{ 1, 8, 12, 2, 256 }, { 9, 8, 12, 2, 256 },
		{ 4, 0, 12, 2, 256 }, { 4, 17, 12, 2, 256 },
		{ 4, 8, 3, 2, 256 }, { 4, 8, 33, 2, 256 },
		{ 4, 8, 12, 3, 256 }, { 4, 8, 12, 2, 100 },
		{ 4, 8, 12, 2, 1 },
	};
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_DLEFT,
		.capacity = 1000, .fpr_pico = 6000000000ULL, .fp_bits = 12,
	};
	struct kb_shape s = dl_small;
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(bad); i++) {
		s.tables = bad[i][0];
		s.slots = bad[i][1];
		s.fp_bits = bad[i][2];
		s.counter_bits = bad[i][3];
		s.buckets = bad[i][4];
		EXPECT_EQ(-EINVAL, dl_create(self->fd, "b", &s, NULL));
	}
	/* planned with a remainder width, or with a Count-Min field */
	ku_name(c.name, "b");
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.fp_bits = 0;
	c.update = KB_DLEFT_LAYOUT_LINES + 1;	/* no such layout */
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.vi_l = 1;
	c.update = 0;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
}

/* Readers under a writer that moves the split counts of their keys. */
#define RW_KEYS		1000U
#define RW_ROUNDS	200U

struct rw_ctx {
	int fd;
	const __u8 *keys;
	int stop;
	__u32 misses;
	__u32 rounds;
};

static void *rw_reader(void *arg)
{
	struct rw_ctx *c = arg;
	__u32 hits, misses = 0, rounds = 0;

	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		if (keys_op(c->fd, KBLOOM_IOCTL_TEST, "rw", c->keys, RW_KEYS,
			    NULL, NULL, &hits))
			break;
		misses += RW_KEYS - hits;
		rounds++;
	}
	__atomic_store_n(&c->misses, misses, __ATOMIC_RELEASE);
	__atomic_store_n(&c->rounds, rounds, __ATOMIC_RELEASE);
	return NULL;
}

TEST_F(dl, readers_never_miss)
{
	static const struct kb_shape odd = {
		.type = KBLOOM_TYPE_DLEFT, .tables = 3, .slots = 5,
		.fp_bits = 13, .counter_bits = 4, .buckets = 256,
	};
	struct rw_ctx c = { .fd = self->fd, .keys = self->keys };
	pthread_t rd;
	__u32 r;

	ASSERT_OK(dl_create(self->fd, "rw", &odd, NULL));
	ASSERT_OK(keys_op(self->fd, KBLOOM_IOCTL_ADD, "rw", self->keys,
			  RW_KEYS, NULL, NULL, NULL));
	ASSERT_EQ(0, pthread_create(&rd, NULL, rw_reader, &c));
	for (r = 0; r < RW_ROUNDS; r++)
		ASSERT_OK(keys_op(self->fd, r & 1 ? KBLOOM_IOCTL_DEL :
				  KBLOOM_IOCTL_ADD, "rw", self->keys, RW_KEYS,
				  NULL, NULL, NULL));
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELEASE);
	pthread_join(rd, NULL);
	TH_LOG("%u reader rounds of %u keys under %u writer rounds",
	       c.rounds, RW_KEYS, RW_ROUNDS);
	EXPECT_LT(0, c.rounds);
	EXPECT_EQ(0, c.misses);
}

TEST_HARNESS_MAIN
