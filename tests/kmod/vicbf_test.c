// SPDX-License-Identifier: GPL-2.0
/*
 * The variable-increment counting filter (KBLOOM_TYPE_VI_COUNTING) in
 * kbloom.ko, against libkbloom's VI family (libkbloom_vicbf.h):
 *
 * keys           CREATE (explicit and planned: kb_vi_plan()'s m and k),
 *                ADD, TEST, DEL (absent keys skipped), STAT (vi_l,
 *                counter width, inserted, saturations, occupancy, the VI
 *                formula's predicted rate), COUNT (never below the truth)
 * save_to_lib    SAVE of 100k keys loads in the library, which answers
 *                exactly as the module's TEST on 100k keys and 100k
 *                non-keys and saves the same image byte for byte
 * restore_lib    RESTORE of a library image: the module answers as the
 *                library, STAT shows the image's geometry and counts
 * bad_geometry   every bad field (L, counter width, k, m, fields of other
 *                variants, (n, p) and (m, k) both or neither) is EINVAL,
 *                m over KBLOOM_M_MAX E2BIG; nothing is created
 *
 * The kfunc path (bpf_kbloom_test()) on a VI filter is kfunc_test's "vi"
 * variant: its answers equal the ioctl's.
 */
#include <stddef.h>
#include "guest_harness.h"
#include "kmod_util.h"
#include "type_fixture.h"
#include "libkbloom_vicbf.h"
#include "uapi/kbloom_variants.h"

#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))
#define N_KEYS		100000U
#define SEED		0x5EEDF00DULL

static int vi_create(int fd, const char *name, __u64 m, __u32 k, __u32 l,
		     __u32 cb)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_VI_COUNTING, .m = m,
		.k = k, .vi_l = l, .counter_bits = cb, .seed = SEED,
		.flags = KBLOOM_CREATE_SEED,
	};

	ku_name(c.name, name);
	return ku_ioctl(fd, KBLOOM_IOCTL_CREATE, &c);
}

KU_TYPE_FIXTURE(vi, 7, N_KEYS);

TEST_F(vi, keys)
{
	struct kbloom_create out;
	struct kbloom_stat st;
	__u32 done, hits, deleted, i;
	struct kb_plan plan;
	__u64 est[4];
	__u8 hot[16];

	ASSERT_OK(vi_create(self->fd, "vi", 1 << 16, 4, 0, 0));
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_ADD, "vi", self->keys, 1000,
			     NULL, &done, NULL));
	EXPECT_EQ(1000, done);
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_TEST, "vi", self->keys,
			     1000, NULL, &done, &hits));
	EXPECT_EQ(1000, hits);
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_DEL, "vi", self->keys, 500,
			     NULL, &deleted, &hits));
	EXPECT_EQ(500, deleted);	/* each one tests present */
	EXPECT_EQ(0, hits);
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_TEST, "vi",
			     self->keys + 16 * 500, 500, NULL, &done, &hits));
	EXPECT_EQ(500, hits);	/* no false negative after deletes */
	ASSERT_OK(ku_stat(self->fd, "vi", &st));
	EXPECT_EQ(KBLOOM_TYPE_VI_COUNTING, st.type);
	EXPECT_EQ(kb_vi_l_default(4), st.vi_l);	/* 3 */
	EXPECT_EQ(4, st.counter_bits);
	EXPECT_EQ(1 << 16, st.m);
	EXPECT_EQ(4, st.k);
	EXPECT_EQ((1 << 16) / 2, st.bytes);
	EXPECT_EQ(1000 - deleted, st.inserted);
	EXPECT_LT(0, st.ones);
	EXPECT_EQ(kb_vi_fpr_pico(1 << 16, 4, st.inserted, 3), st.fpr_now_pico);

	/* a key added 3 times, 8-bit counters: counted at least 3 times */
	ASSERT_OK(vi_create(self->fd, "vi8", 1 << 20, 4, 16, 8));
	ku_key16(hot, 9, 1);
	for (i = 0; i < 3; i++)
		ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_ADD, "vi8", hot, 1,
				     NULL, NULL, NULL));
	memcpy(self->keys, hot, 16);
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_COUNT, "vi8", self->keys, 4,
			     est, &done, &hits));
	EXPECT_LE(3, est[0]);
	EXPECT_EQ(1, hits);
	/* 4-bit counters saturate: counted in STAT */
	for (i = 0; i < 5; i++)
		ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_ADD, "vi", hot, 1,
				     NULL, NULL, NULL));
	ASSERT_OK(ku_stat(self->fd, "vi", &st));
	EXPECT_LE(4, st.saturations);

	/* planned: the planner's m and k */
	ASSERT_OK(ku_create_np(self->fd, "vip", KBLOOM_TYPE_VI_COUNTING,
			       N_KEYS, 10000000000ULL, &out));
	ASSERT_OK(kb_vi_plan(N_KEYS, 10000000000ULL, 0, 0, &plan));
	EXPECT_EQ(plan.m, out.m);
	EXPECT_EQ(plan.k, out.k);
	EXPECT_EQ(plan.bytes, out.bytes);
}

/* The module's TEST answers as a bitmap over keys [0, 2 N_KEYS). */
static int module_answers(int fd, const char *name, const __u8 *keys,
			  __u8 *bits)
{
	__u32 i, n = 2 * N_KEYS, step = 50000;
	int ret;

	for (i = 0; i < n; i += step) {
		ret = ku_batch16(fd, KBLOOM_IOCTL_TEST, name, keys + 16ULL * i,
				 step, bits + i / 8, NULL, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

static __u32 disagreements(const struct kbloom_vicbf *f, const __u8 *keys,
			   const __u8 *bits)
{
	__u32 i, bad = 0;
	int lib, mod;

	for (i = 0; i < 2 * N_KEYS; i++) {
		lib = kbloom_vicbf_test(f, keys + 16ULL * i, 16);
		mod = (bits[i / 8] >> (i % 8)) & 1;
		bad += lib != mod;
	}
	return bad;
}

TEST_F(vi, save_to_lib)
{
	struct kbloom_vicbf *f;
	void *img, *img2;
	__u64 len;
	size_t len2;
	__u32 i, present = 0;

	ASSERT_OK(vi_create(self->fd, "vs", 8ULL * N_KEYS, 6, 4, 4));
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_ADD, "vs", self->keys,
			     N_KEYS, NULL, NULL, NULL));
	ASSERT_OK(ku_save(self->fd, "vs", &img, &len));
	ASSERT_OK(kbloom_vicbf_load(img, len, &f));
	ASSERT_OK(module_answers(self->fd, "vs", self->keys, self->bits));
	EXPECT_EQ(0, disagreements(f, self->keys, self->bits));
	for (i = 0; i < N_KEYS; i++)
		present += kbloom_vicbf_test(f, self->keys + 16ULL * i, 16);
	EXPECT_EQ(N_KEYS, present);
	ASSERT_OK(kbloom_vicbf_save_alloc(f, &img2, &len2));
	ASSERT_EQ(len, len2);
	EXPECT_EQ(0, memcmp(img, img2, len));
	free(img);
	free(img2);
	kbloom_vicbf_destroy(f);
}

TEST_F(vi, restore_lib)
{
	struct kbloom_vicbf_opts o = { .seed = SEED, .vi_l = 3 };
	struct kbloom_vicbf_stats ls;
	struct kbloom_stat st;
	struct kbloom_vicbf *f;
	size_t len;
	void *img;
	__u32 i;

	ASSERT_OK(kbloom_vicbf_create_mk(8ULL * N_KEYS, 4, &o, &f));
	for (i = 0; i < N_KEYS; i++)
		ASSERT_LE(0, kbloom_vicbf_add(f, self->keys + 16ULL * i, 16));
	ASSERT_OK(kbloom_vicbf_save_alloc(f, &img, &len));
	ASSERT_OK(ku_restore(self->fd, "vr", img, len, 0));
	ASSERT_OK(module_answers(self->fd, "vr", self->keys, self->bits));
	EXPECT_EQ(0, disagreements(f, self->keys, self->bits));
	ASSERT_OK(ku_stat(self->fd, "vr", &st));
	ASSERT_OK(kbloom_vicbf_stats(f, &ls));
	EXPECT_EQ(KBLOOM_TYPE_VI_COUNTING, st.type);
	EXPECT_EQ(3, st.vi_l);
	EXPECT_EQ(ls.m, st.m);
	EXPECT_EQ(ls.k, st.k);
	EXPECT_EQ(ls.inserted, st.inserted);
	EXPECT_EQ(ls.saturations, st.saturations);
	EXPECT_EQ(ls.ones, st.ones);
	EXPECT_EQ(ls.fpr_now_pico, st.fpr_now_pico);
	free(img);
	kbloom_vicbf_destroy(f);
}

TEST_F(vi, bad_geometry)
{
	static const struct { __u64 m; __u32 k, l, cb; } bad[] = {
		{ 1024, 4, 1, 4 }, { 1024, 4, 5, 4 }, { 1024, 4, 65, 8 },
		{ 1024, 4, 4, 6 }, { 1024, 4, 4, 16 }, { 1024, 0, 4, 4 },
		{ 1024, 33, 4, 4 }, { 1000, 4, 4, 4 }, { 32, 4, 4, 4 },
		{ 0, 0, 4, 4 },
	};
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_VI_COUNTING, .m = 1024,
		.k = 4,
	};
	__u32 i;

	for (i = 0; i < ARRAY_LEN(bad); i++)
		EXPECT_EQ(-EINVAL, vi_create(self->fd, "bad", bad[i].m,
					     bad[i].k, bad[i].l, bad[i].cb))
			TH_LOG("case %u", i);
	EXPECT_EQ(-E2BIG, vi_create(self->fd, "bad", (1ULL << 32) + 64, 4,
				    4, 4));
	ku_name(c.name, "bad");
	c.fp_bits = 12;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.fp_bits = 0;
	c.buckets = 64;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.buckets = 0;
	c.capacity = 1000;
	c.fpr_pico = 10000000000ULL;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.m = 0;
	c.k = 0;
	c.fpr_pico = 1;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.fpr_pico = 10000000000ULL;
	c.vi_l = 5;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.vi_l = 0;
	c.capacity = 1ULL << 40;
	c.fpr_pico = 1000;
	EXPECT_EQ(-E2BIG, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
}

TEST_HARNESS_MAIN
