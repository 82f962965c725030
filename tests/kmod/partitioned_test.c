// SPDX-License-Identifier: GPL-2.0
/*
 * The partitioned Bloom filter (KBLOOM_TYPE_PARTITIONED) in kbloom.ko,
 * against libkbloom's partitioned family (libkbloom_partitioned.h):
 *
 * keys           CREATE explicit (k, buckets = slice bits) and planned
 *                (kb_part_plan()'s k and s), ADD, TEST (no false
 *                negative), DEL and COUNT refused (EOPNOTSUPP), STAT
 *                (geometry, inserted, k bits per key, the predicted rate)
 * save_to_lib    SAVE of 100k keys loads in the library, which answers
 *                exactly as the module's TEST on 100k keys and 100k
 *                non-keys and saves the same image byte for byte
 * restore_lib    RESTORE of a library image: the module answers as the
 *                library, STAT shows the image's geometry and counts
 * bad_geometry   every bad field (k, slice bits, m, fields of other
 *                variants, (n, p) and (k, s) both or neither) is EINVAL,
 *                m over KBLOOM_M_MAX E2BIG; nothing is created
 *
 * The kfunc path (bpf_kbloom_test()) on a partitioned filter is
 * kfunc_test's "partitioned" variant: its answers equal the ioctl's.
 */
#include <stddef.h>
#include "guest_harness.h"
#include "kmod_util.h"
#include "type_fixture.h"
#include "libkbloom_partitioned.h"
#include "uapi/kbloom_partitioned.h"

#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))
#define N_KEYS		100000U
#define SEED		0x9A27ULL
#define P_1PCT		10000000000ULL

static int part_create(int fd, const char *name, __u32 k, __u64 slice)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_PARTITIONED, .k = k,
		.buckets = slice, .seed = SEED, .flags = KBLOOM_CREATE_SEED,
	};

	ku_name(c.name, name);
	return ku_ioctl(fd, KBLOOM_IOCTL_CREATE, &c);
}

KU_TYPE_FIXTURE(part, 8, N_KEYS);

TEST_F(part, keys)
{
	struct kbloom_create out;
	struct kbloom_stat st;
	__u32 done, hits;
	struct kb_shape s;
	__u64 est[2];

	ASSERT_OK(part_create(self->fd, "p", 5, 1984));
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_ADD, "p", self->keys, 1,
			     NULL, &done, NULL));
	ASSERT_OK(ku_stat(self->fd, "p", &st));
	EXPECT_EQ(5, st.ones);		/* one bit in each slice */
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_ADD, "p", self->keys,
			     1000, NULL, &done, NULL));
	EXPECT_EQ(1000, done);
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_TEST, "p", self->keys,
			     1000, NULL, &done, &hits));
	EXPECT_EQ(1000, hits);
	EXPECT_EQ(-EOPNOTSUPP, ku_batch16(self->fd, KBLOOM_IOCTL_DEL, "p",
					  self->keys, 1, NULL, NULL, NULL));
	EXPECT_EQ(-EOPNOTSUPP, ku_batch16(self->fd, KBLOOM_IOCTL_COUNT, "p",
					  self->keys, 2, est, NULL, NULL));
	ASSERT_OK(ku_stat(self->fd, "p", &st));
	EXPECT_EQ(KBLOOM_TYPE_PARTITIONED, st.type);
	EXPECT_EQ(5, st.k);
	EXPECT_EQ(1984, st.buckets);
	EXPECT_EQ(5 * 1984, st.m);
	EXPECT_EQ(5 * 1984 / 8, st.bytes);
	EXPECT_EQ(1001, st.inserted);
	EXPECT_EQ(0, st.counter_bits);
	EXPECT_EQ(0, st.image_flags);
	EXPECT_LT(0, st.ones);
	EXPECT_EQ(kb_part_fpr_pico(5 * 1984, 5, 1001), st.fpr_now_pico);

	/* planned: the planner's k and slices */
	ASSERT_OK(ku_create_np(self->fd, "pp", KBLOOM_TYPE_PARTITIONED,
			       N_KEYS, P_1PCT, &out));
	ASSERT_OK(kb_part_plan(N_KEYS, P_1PCT, &s));
	EXPECT_EQ(s.m, out.m);
	EXPECT_EQ(s.k, out.k);
	EXPECT_EQ(s.buckets, out.buckets);
	EXPECT_EQ(s.m / 8, out.bytes);
	ASSERT_OK(ku_stat(self->fd, "pp", &st));
	EXPECT_EQ(N_KEYS, st.capacity);
	EXPECT_EQ(P_1PCT, st.fpr_pico);
}

/* The module's TEST answers as a bitmap over keys [0, 2 N_KEYS). */
static int module_answers(int fd, const char *name, const __u8 *keys,
			  __u8 *bits)
{
	__u32 i, n = 2 * N_KEYS, step = 50000;
	int ret;

	for (i = 0; i < n; i += step) {
		ret = ku_batch16(fd, KBLOOM_IOCTL_TEST, name,
				 keys + 16ULL * i, step, bits + i / 8, NULL,
				 NULL);
		if (ret)
			return ret;
	}
	return 0;
}

/* Keys on which the library and the module answer differently. */
static __u32 disagreements(const struct kbloom_part *f, const __u8 *keys,
			   const __u8 *bits, __u32 *present)
{
	__u32 i, bad = 0;
	int lib, mod;

	*present = 0;
	for (i = 0; i < 2 * N_KEYS; i++) {
		lib = kbloom_part_test(f, keys + 16ULL * i, 16);
		mod = (bits[i / 8] >> (i % 8)) & 1;
		bad += lib != mod;
		*present += lib == 1;
	}
	return bad;
}

TEST_F(part, save_to_lib)
{
	struct kbloom_part *f;
	__u32 present, i;
	void *img, *img2;
	size_t len2;
	__u64 len;

	ASSERT_OK(part_create(self->fd, "ps", 7, 142912));
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_ADD, "ps", self->keys,
			     N_KEYS, NULL, NULL, NULL));
	ASSERT_OK(ku_save(self->fd, "ps", &img, &len));
	ASSERT_OK(kbloom_part_load(img, len, &f));
	ASSERT_OK(module_answers(self->fd, "ps", self->keys, self->bits));
	EXPECT_EQ(0, disagreements(f, self->keys, self->bits, &present));
	for (i = 0; i < N_KEYS; i++)
		ASSERT_EQ(1, kbloom_part_test(f, self->keys + 16ULL * i, 16));
	TH_LOG("10 bits/key, k = 7: %u of %u non-keys present (%.3f%%)",
	       present - N_KEYS, N_KEYS,
	       100.0 * (present - N_KEYS) / N_KEYS);
	ASSERT_OK(kbloom_part_save_alloc(f, &img2, &len2));
	ASSERT_EQ(len, len2);
	EXPECT_EQ(0, memcmp(img, img2, len));
	free(img);
	free(img2);
	kbloom_part_destroy(f);
}

TEST_F(part, restore_lib)
{
	struct kbloom_opts o = { .seed = SEED, .name = "plib" };
	struct kbloom_part_stats ls;
	struct kbloom_part *f;
	struct kbloom_stat st;
	__u32 present, i;
	size_t len;
	void *img;

	ASSERT_OK(kbloom_part_create(N_KEYS, P_1PCT, &o, &f));
	for (i = 0; i < N_KEYS; i++)
		ASSERT_OK(kbloom_part_add(f, self->keys + 16ULL * i, 16));
	ASSERT_OK(kbloom_part_save_alloc(f, &img, &len));
	ASSERT_OK(ku_restore(self->fd, "", img, len, 0));
	ASSERT_OK(module_answers(self->fd, "plib", self->keys, self->bits));
	EXPECT_EQ(0, disagreements(f, self->keys, self->bits, &present));
	ASSERT_OK(ku_stat(self->fd, "plib", &st));
	ASSERT_OK(kbloom_part_stats(f, &ls));
	EXPECT_EQ(KBLOOM_TYPE_PARTITIONED, st.type);
	EXPECT_EQ(ls.shape.m, st.m);
	EXPECT_EQ(ls.shape.k, st.k);
	EXPECT_EQ(ls.shape.buckets, st.buckets);
	EXPECT_EQ(ls.capacity, st.capacity);
	EXPECT_EQ(ls.fpr_pico, st.fpr_pico);
	EXPECT_EQ(ls.inserted, st.inserted);
	EXPECT_EQ(ls.ones, st.ones);
	EXPECT_EQ(ls.n_est, st.n_est);
	EXPECT_EQ(ls.fpr_now_pico, st.fpr_now_pico);
	free(img);
	kbloom_part_destroy(f);
}

TEST_F(part, bad_geometry)
{
	static const struct { __u32 k; __u64 s; } bad[] = {
		{ 0, 1024 }, { 33, 1024 }, { 4, 0 }, { 4, 32 }, { 4, 1000 },
		{ 4, 1024 + 1 },
	};
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_PARTITIONED, .k = 4,
		.buckets = 1024,
	};
	__u32 i;

	for (i = 0; i < ARRAY_LEN(bad); i++)
		EXPECT_EQ(-EINVAL, part_create(self->fd, "bad", bad[i].k,
					       bad[i].s))
			TH_LOG("case %u", i);
	EXPECT_EQ(-E2BIG, part_create(self->fd, "bad", 4, 1ULL << 31));
	ku_name(c.name, "bad");
	c.m = 4096;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.m = 0;
	c.counter_bits = 4;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.counter_bits = 0;
	c.fp_bits = 12;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.fp_bits = 0;
	c.tables = 2;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.tables = 0;
	c.capacity = 1000;
	c.fpr_pico = P_1PCT;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.k = 0;
	c.buckets = 0;
	c.fpr_pico = 1;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.capacity = 0;
	c.fpr_pico = 0;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.capacity = 1ULL << 40;
	c.fpr_pico = 1000;
	EXPECT_EQ(-E2BIG, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
}

TEST_HARNESS_MAIN
