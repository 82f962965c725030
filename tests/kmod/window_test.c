// SPDX-License-Identifier: GPL-2.0
/*
 * The age-partitioned window (KBLOOM_TYPE_AGE_PARTITIONED) in kbloom.ko,
 * against libkbloom's window family (libkbloom_window.h):
 *
 * count_window   k = 10, l = 7 planned for 0.1% over N = 70000 keys: after
 *                200000 keys the last N all test present, the rate of
 *                non-keys is at most 0.12%, keys of 3 windows ago are
 *                forgotten; STAT shows the window, the generation, the
 *                rotations and the MAY_FN flag; DEL and COUNT refused
 * time_window    generations of 200 ms rotated by the module's work item:
 *                with no ADD at all, STAT's rotations and head move, keys
 *                inside the window (1.4 s) all test present, keys older
 *                than (l + 1) generations test absent
 * timer_churn    time windows of 1 ms generations created, filled,
 *                destroyed, replaced by RESTORE and left to rmmod: the
 *                work stops with its filter (the runner's rmmod and
 *                slub_debug check what is left)
 * save_to_lib    SAVE loads in the library with the same answers, head,
 *                rotations and generation clock; the library saves the
 *                same image back byte for byte
 * restore_lib    RESTORE of a library image: the module answers as the
 *                library and goes on rotating at the same key
 * bad_params     every bad field is EINVAL (E2BIG over KBLOOM_M_MAX); a
 *                window on another type is EINVAL; nothing is created
 */
#include <stddef.h>
#include <time.h>
#include "guest_harness.h"
#include "kmod_util.h"
#include "type_fixture.h"
#include "libkbloom_window.h"
#include "uapi/kbloom_var_window.h"

#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))
#define N_WIN		70000U
#define N_ALL		200000U
#define SEED		0x3A11ULL
#define P_01PCT		1000000000ULL
#define MS		1000000ULL

static int win_create(int fd, const char *name, struct kbloom_create *c)
{
	c->size = sizeof(*c);
	c->type = KBLOOM_TYPE_AGE_PARTITIONED;
	c->seed = SEED;
	c->flags = KBLOOM_CREATE_SEED;
	ku_name(c->name, name);
	return ku_ioctl(fd, KBLOOM_IOCTL_CREATE, c);
}

/* ADD or TEST of keys [first, first + n) of the fixture's key space. */
static int win_batch(int fd, unsigned long cmd, const char *name,
		     const __u8 *keys, __u32 first, __u32 n, __u32 *hits)
{
	__u32 i, step, h, sum = 0;
	int ret;

	for (i = 0; i < n; i += step) {
		step = n - i < 50000 ? n - i : 50000;
		ret = ku_keys(fd, cmd, name, keys + 16ULL * (first + i),
			      16ULL * step, 16, step, NULL, NULL, &h);
		if (ret)
			return ret;
		sum += cmd == KBLOOM_IOCTL_TEST ? h : 0;
	}
	if (hits)
		*hits = sum;
	return 0;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

KU_TYPE_FIXTURE(win, 12, N_ALL);

TEST_F(win, count_window)
{
	struct kbloom_create c = { .update = KB_WIN_CLOCK_KEYS, .k = 10,
				   .tables = 7, .window = N_WIN,
				   .fpr_pico = P_01PCT };
	struct kbloom_stat st;
	__u32 hits, fp;
	__u64 est[2];

	ASSERT_OK(win_create(self->fd, "w", &c));
	EXPECT_EQ(10, c.k);
	EXPECT_EQ(7, c.tables);
	ASSERT_OK(win_batch(self->fd, KBLOOM_IOCTL_ADD, "w", self->keys, 0,
			    N_ALL, NULL));
	ASSERT_OK(win_batch(self->fd, KBLOOM_IOCTL_TEST, "w", self->keys,
			    N_ALL - N_WIN, N_WIN, &hits));
	EXPECT_EQ(N_WIN, hits);		/* 0 false negatives */
	ASSERT_OK(win_batch(self->fd, KBLOOM_IOCTL_TEST, "w", self->keys,
			    N_ALL, N_ALL, &fp));
	TH_LOG("%u of %u non-keys present (%.4f%%)", fp, N_ALL,
	       100.0 * fp / N_ALL);
	EXPECT_LE(fp, N_ALL * 12 / 10000);
	ASSERT_OK(win_batch(self->fd, KBLOOM_IOCTL_TEST, "w", self->keys, 0,
			    30000, &hits));
	EXPECT_LE(hits, 30000 * 12 / 10000);
	EXPECT_EQ(-EOPNOTSUPP, ku_keys(self->fd, KBLOOM_IOCTL_DEL, "w",
				       self->keys, 16, 16, 1, NULL, NULL,
				       NULL));
	EXPECT_EQ(-EOPNOTSUPP, ku_keys(self->fd, KBLOOM_IOCTL_COUNT, "w",
				       self->keys, 32, 16, 2, est, NULL,
				       NULL));
	ASSERT_OK(ku_stat(self->fd, "w", &st));
	EXPECT_EQ(KBLOOM_TYPE_AGE_PARTITIONED, st.type);
	EXPECT_EQ(KBLOOM_IMAGE_F_MAY_FN, st.image_flags);
	EXPECT_EQ(N_WIN, st.window);
	EXPECT_EQ(N_WIN / 7, st.gen_len);
	EXPECT_EQ(N_WIN / 7, st.gen_clock);
	EXPECT_EQ(N_ALL / (N_WIN / 7) - 1, st.rotations);
	EXPECT_EQ((17 - st.rotations % 17) % 17, st.head);
	EXPECT_EQ(KB_WIN_CLOCK_KEYS, st.update);
	EXPECT_EQ(st.buckets * 17, st.m);
	EXPECT_EQ(N_ALL, st.inserted);
	EXPECT_EQ(kb_win_fpr_pico(10, 7, st.buckets, N_WIN / 7, N_WIN / 7),
		  st.fpr_now_pico);
}

TEST_F(win, time_window)
{
	struct kbloom_create c = { .update = KB_WIN_CLOCK_NS, .k = 6,
				   .tables = 7, .window = 1400 * MS,
				   .buckets = 8192 };
	struct kbloom_stat st;
	__u32 hits;

	ASSERT_OK(win_create(self->fd, "t", &c));
	ASSERT_OK(win_batch(self->fd, KBLOOM_IOCTL_ADD, "t", self->keys, 0,
			    1000, NULL));
	sleep_ms(500);
	ASSERT_OK(win_batch(self->fd, KBLOOM_IOCTL_ADD, "t", self->keys,
			    1000, 1000, NULL));
	sleep_ms(600);
	/* 1.1 s and 0.6 s old, inside the 1.4 s window */
	ASSERT_OK(win_batch(self->fd, KBLOOM_IOCTL_TEST, "t", self->keys, 0,
			    2000, &hits));
	EXPECT_EQ(2000, hits);
	sleep_ms(1200);
	/* 2.3 s and 1.8 s old: more than (l + 1) generations (1.6 s) */
	ASSERT_OK(win_batch(self->fd, KBLOOM_IOCTL_TEST, "t", self->keys, 0,
			    2000, &hits));
	EXPECT_LE(hits, 10);
	/* no ADD since 1.8 s: the work item rotated */
	ASSERT_OK(ku_stat(self->fd, "t", &st));
	TH_LOG("rotations %llu, head %u, generation age %llu ns",
	       (unsigned long long)st.rotations, st.head,
	       (unsigned long long)st.gen_clock);
	EXPECT_LE(10, st.rotations);
	EXPECT_GT(200 * MS, st.gen_clock);
	EXPECT_EQ(200 * MS, st.gen_len);
	EXPECT_EQ(1400 * MS, st.window);
}

TEST_F(win, timer_churn)
{
	const struct kbloom_create c0 = { .update = KB_WIN_CLOCK_NS, .k = 3,
					  .tables = 2, .window = 2 * MS,
					  .buckets = 4096 };
	struct kbloom_create c;
	char name[KBLOOM_NAME_LEN];
	void *img;
	__u64 len;
	int i;

	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		c = c0;	/* CREATE writes the geometry used back */
		ASSERT_OK(win_create(self->fd, name, &c));
		ASSERT_OK(win_batch(self->fd, KBLOOM_IOCTL_ADD, name,
				    self->keys, 0, 2000, NULL));
	}
	sleep_ms(50);
	ASSERT_OK(ku_save(self->fd, "c0", &img, &len));
	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		ASSERT_OK(ku_restore(self->fd, name, img, len,
				     KBLOOM_RESTORE_REPLACE));
	}
	for (i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		ASSERT_OK(ku_destroy(self->fd, name));
	}
	free(img);
	/* c10..c19 are left running for the teardown and rmmod */
	sleep_ms(50);
}

TEST_F(win, save_to_lib)
{
	struct kbloom_create c = { .update = KB_WIN_CLOCK_KEYS, .k = 8,
				   .tables = 5, .window = 50000,
				   .fpr_pico = 10 * P_01PCT };
	struct kbloom_win_stats ls;
	struct kbloom_stat st;
	struct kbloom_win *f;
	__u32 hits, lib = 0, i;
	void *img, *img2;
	size_t len2;
	__u64 len;

	ASSERT_OK(win_create(self->fd, "s", &c));
	ASSERT_OK(win_batch(self->fd, KBLOOM_IOCTL_ADD, "s", self->keys, 0,
			    123456, NULL));
	ASSERT_OK(ku_save(self->fd, "s", &img, &len));
	ASSERT_OK(kbloom_win_load(img, len, &f));
	ASSERT_OK(ku_stat(self->fd, "s", &st));
	ASSERT_OK(kbloom_win_stats(f, &ls));
	EXPECT_EQ(st.head, ls.head);
	EXPECT_EQ(st.rotations, ls.rotations);
	EXPECT_EQ(st.gen_clock, ls.gen_clock);
	EXPECT_EQ(st.gen_len, ls.gen_len);
	EXPECT_EQ(st.ones, ls.ones);
	ASSERT_OK(win_batch(self->fd, KBLOOM_IOCTL_TEST, "s", self->keys, 0,
			    2 * N_ALL, &hits));
	for (i = 0; i < 2 * N_ALL; i++)
		lib += kbloom_win_test(f, self->keys + 16ULL * i, 16) == 1;
	EXPECT_EQ(hits, lib);
	ASSERT_OK(kbloom_win_save_alloc(f, &img2, &len2));
	ASSERT_EQ(len, len2);
	EXPECT_EQ(0, memcmp(img, img2, len));
	free(img);
	free(img2);
	kbloom_win_destroy(f);
}

TEST_F(win, restore_lib)
{
	struct kbloom_win_params wp = { .clock = KB_WIN_CLOCK_KEYS, .k = 5,
					.l = 4, .window = 20000,
					.slice_bits = 65536 };
	struct kbloom_opts o = { .seed = SEED, .name = "wlib" };
	struct kbloom_win_stats ls;
	struct kbloom_stat st;
	struct kbloom_win *f;
	__u32 hits, lib = 0, i;
	size_t len;
	void *img;

	ASSERT_OK(kbloom_win_create(&wp, &o, &f));
	for (i = 0; i < 47000; i++)
		ASSERT_OK(kbloom_win_add(f, self->keys + 16ULL * i, 16));
	ASSERT_OK(kbloom_win_save_alloc(f, &img, &len));
	ASSERT_OK(ku_restore(self->fd, "", img, len, 0));
	/* both go on: the same rotations at the same keys */
	for (i = 47000; i < 60000; i++)
		ASSERT_OK(kbloom_win_add(f, self->keys + 16ULL * i, 16));
	ASSERT_OK(win_batch(self->fd, KBLOOM_IOCTL_ADD, "wlib", self->keys,
			    47000, 13000, NULL));
	ASSERT_OK(win_batch(self->fd, KBLOOM_IOCTL_TEST, "wlib", self->keys,
			    0, 2 * N_ALL, &hits));
	for (i = 0; i < 2 * N_ALL; i++)
		lib += kbloom_win_test(f, self->keys + 16ULL * i, 16) == 1;
	EXPECT_EQ(lib, hits);
	ASSERT_OK(ku_stat(self->fd, "wlib", &st));
	ASSERT_OK(kbloom_win_stats(f, &ls));
	EXPECT_EQ(ls.head, st.head);
	EXPECT_EQ(ls.rotations, st.rotations);
	EXPECT_EQ(ls.gen_clock, st.gen_clock);
	EXPECT_EQ(ls.ones, st.ones);
	EXPECT_EQ(ls.inserted, st.inserted);
	free(img);
	kbloom_win_destroy(f);
}

TEST_F(win, bad_params)
{
	const struct kbloom_create ok = { .update = KB_WIN_CLOCK_KEYS,
					  .k = 4, .tables = 3,
					  .window = 3000, .buckets = 1024 };
	struct kbloom_create c;
	int i;

	for (i = 0; i < 14; i++) {
		c = ok;
		switch (i) {
		case 0: c.update = 0; break;
		case 1: c.update = 3; break;
		case 2: c.window = 0; break;
		case 3: c.tables = 0; break;
		case 4: c.tables = KB_WIN_L_MAX + 1; break;
		case 5: c.k = 0; break;
		case 6: c.buckets = 1000; break;
		case 7: c.fpr_pico = P_01PCT; break;
		case 8: c.capacity = 10; break;
		case 9: c.m = 4096; break;
		case 10: c.fp_bits = 8; break;
		case 11: c.counter_bits = 4; break;
		case 12:	/* generations under 1 ms */
			c.update = KB_WIN_CLOCK_NS;
			c.window = 3 * MS - 3;
			break;
		case 13:	/* a count window has no capacity */
			c.buckets = 0;
			c.fpr_pico = P_01PCT;
			c.capacity = 3000;
			break;
		}
		EXPECT_EQ(-EINVAL, win_create(self->fd, "bad", &c))
			TH_LOG("case %d", i);
	}
	c = ok;
	c.buckets = 1ULL << 30;
	EXPECT_EQ(-E2BIG, win_create(self->fd, "bad", &c));
	c = ok;
	c.buckets = 0;
	c.fpr_pico = 1000;
	c.window = 1ULL << 40;
	EXPECT_EQ(-E2BIG, win_create(self->fd, "bad", &c));
	/* a window on another type */
	c = (struct kbloom_create){ .size = sizeof(c),
				    .type = KBLOOM_TYPE_BLOCKED,
				    .m = 4096, .k = 4, .window = 10 };
	ku_name(c.name, "bad");
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
	c = ok;
	EXPECT_EQ(0, win_create(self->fd, "good", &c));
}

TEST_HARNESS_MAIN
