// SPDX-License-Identifier: GPL-2.0
/*
 * The deletable Bloom filter (KBLOOM_TYPE_DELETABLE) in kbloom.ko,
 * against libkbloom's deletable family (libkbloom_deletable.h):
 *
 * keys             CREATE explicit (m, k, buckets = region bits) and
 *                  planned (kb_del_plan()), ADD, TEST (no false
 *                  negative), COUNT refused (EOPNOTSUPP), STAT (geometry,
 *                  bytes of body and bitmap, inserted, ones of the body)
 * delete_half      DEL of every other key, one per call: each deleted or
 *                  refused with ENOTUNIQ; the keys left all test present;
 *                  STAT inserted = keys - deleted, kicks = refused (not
 *                  in the image: SAVE writes no kicks for the type); the
 *                  library, fed the same adds and deletes, gives the same
 *                  outcome for every key and the same image byte for byte
 * refused_batch    a batch stops at a key that is not deletable: ENOTUNIQ,
 *                  done = the keys deleted before it, the keys after it
 *                  untouched; the refused key's
 *                  delete changes nothing (SAVE before and after equal)
 * restore_lib      RESTORE of a library image: the module answers as the
 *                  library, and deletes as it does
 * bad_geometry     every bad field is EINVAL (region bits not a power of
 *                  two, over 65536 or over m, m not a multiple of 64, fields
 *                  of other variants, (n, p) with (m, k)), m over
 *                  KBLOOM_M_MAX E2BIG; nothing is created
 *
 * The kfunc path (bpf_kbloom_test()) on a deletable filter is kfunc_test's
 * "deletable" variant: its answers equal the ioctl's, also after a DEL.
 */
#include <stddef.h>
#include "guest_harness.h"
#include "kmod_util.h"
#include "type_fixture.h"
#include "libkbloom_deletable.h"
#include "uapi/kbloom_var_deletable.h"

#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))
#define N_KEYS		20000U
#define SEED		0xD1B7ULL
#define P_1PCT		10000000000ULL

static int del_create(int fd, const char *name, __u64 m, __u32 k, __u64 s)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_DELETABLE, .k = k,
		.m = m, .buckets = s, .seed = SEED,
		.flags = KBLOOM_CREATE_SEED,
	};

	ku_name(c.name, name);
	return ku_ioctl(fd, KBLOOM_IOCTL_CREATE, &c);
}

KU_TYPE_FIXTURE(del, 16, N_KEYS);

static const __u8 *key(const __u8 *keys, __u32 i)
{
	return keys + 16ULL * i;
}

TEST_F(del, keys)
{
	struct kbloom_create out;
	struct kbloom_stat st;
	__u32 done, hits;
	struct kb_shape s;
	__u64 est[2];

	ASSERT_OK(del_create(self->fd, "d", 64 * 1000, 5, 8));
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_ADD, "d", self->keys,
			     1000, NULL, &done, NULL));
	EXPECT_EQ(1000, done);
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_TEST, "d", self->keys,
			     1000, NULL, &done, &hits));
	EXPECT_EQ(1000, hits);
	EXPECT_EQ(-EOPNOTSUPP, ku_batch16(self->fd, KBLOOM_IOCTL_COUNT, "d",
					  self->keys, 2, est, NULL, NULL));
	ASSERT_OK(ku_stat(self->fd, "d", &st));
	EXPECT_EQ(KBLOOM_TYPE_DELETABLE, st.type);
	EXPECT_EQ(5, st.k);
	EXPECT_EQ(8, st.buckets);
	EXPECT_EQ(64000, st.m);
	EXPECT_EQ(64000 / 8 + (8000 + 63) / 64 * 8, st.bytes);
	EXPECT_EQ(1000, st.inserted);
	EXPECT_EQ(0, st.image_flags);
	EXPECT_LE(st.ones, 5000);
	EXPECT_LT(4500, st.ones);
	EXPECT_EQ(kb_del_fpr_pico(64000, 5, 1000), st.fpr_now_pico);

	ASSERT_OK(ku_create_np(self->fd, "dp", KBLOOM_TYPE_DELETABLE,
			       N_KEYS, P_1PCT, &out));
	ASSERT_OK(kb_del_plan(N_KEYS, P_1PCT, 0, &s));
	EXPECT_EQ(s.m, out.m);
	EXPECT_EQ(s.k, out.k);
	EXPECT_EQ(KB_DEL_REGION_DEFAULT, out.buckets);
	EXPECT_EQ(kb_shape_words(&s) * 8, out.bytes);
	ASSERT_OK(ku_stat(self->fd, "dp", &st));
	EXPECT_EQ(N_KEYS, st.capacity);
	EXPECT_EQ(P_1PCT, st.fpr_pico);
}

/* DEL of key @i alone: 1 deleted, 0 absent, or the errno. */
static int del_one(int fd, const char *name, const __u8 *keys, __u32 i)
{
	__u32 done = 0, hits = 0;
	int ret;

	ret = ku_batch16(fd, KBLOOM_IOCTL_DEL, name, key(keys, i), 1, NULL,
			 &done, &hits);
	return ret ? ret : (int)done;
}

/* Keys of [lo, hi) (step 2) that the module finds present. */
static __u32 present_every_other(int fd, const char *name, const __u8 *keys,
				 __u32 lo, __u32 hi)
{
	__u32 i, hits, n = 0;

	for (i = lo; i < hi; i += 2)
		if (!ku_batch16(fd, KBLOOM_IOCTL_TEST, name, key(keys, i), 1,
				NULL, NULL, &hits))
				n += hits;
	return n;
}

TEST_F(del, delete_half)
{
	struct kbloom_opts o = { .seed = SEED, .name = "dh" };
	__u32 i, deleted = 0, refused = 0, differ = 0;
	struct kbloom_stat st;
	struct kbloom_del *f;
	void *img, *img2;
	size_t len2;
	__u64 len;
	int mod, lib;

	/* 10 bits per key, k = 7, regions of 4 bits */
	ASSERT_OK(del_create(self->fd, "dh", 10ULL * N_KEYS, 7, 4));
	ASSERT_OK(kbloom_del_create_mk(10ULL * N_KEYS, 7, 4, &o, &f));
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_ADD, "dh", self->keys,
			     N_KEYS, NULL, NULL, NULL));
	for (i = 0; i < N_KEYS; i++)
		ASSERT_OK(kbloom_del_add(f, key(self->keys, i), 16));
	for (i = 0; i < N_KEYS; i += 2) {
		mod = del_one(self->fd, "dh", self->keys, i);
		lib = kbloom_del_delete(f, key(self->keys, i), 16);
		ASSERT_TRUE(mod == 1 || mod == -ENOTUNIQ) TH_LOG("key %u: %d", i, mod);
		differ += mod != lib;
		deleted += mod == 1;
		refused += mod == -ENOTUNIQ;
	}
	EXPECT_EQ(0, differ);
	EXPECT_EQ(N_KEYS / 2, present_every_other(self->fd, "dh", self->keys,
						  1, N_KEYS));
	ASSERT_OK(ku_stat(self->fd, "dh", &st));
	EXPECT_EQ(N_KEYS - deleted, st.inserted);
	EXPECT_EQ(refused, st.kicks);
	TH_LOG("10 bits/key, k = 7, s = 4: %u of %u deletes applied (%.1f%%), %u refused; 0 false negatives",
	       deleted, N_KEYS / 2, 200.0 * deleted / N_KEYS, refused);
	ASSERT_OK(ku_save(self->fd, "dh", &img, &len));
	ASSERT_OK(kbloom_del_save_alloc(f, &img2, &len2));
	ASSERT_EQ(len, len2);
	EXPECT_EQ(0, memcmp(img, img2, len));
	free(img);
	free(img2);
	kbloom_del_destroy(f);
}

TEST_F(del, refused_batch)
{
	__u32 i, bad = N_KEYS, done = 0, hits = 0;
	void *before, *after;
	__u64 l1, l2;
	__u8 batch[3 * 16];
	struct kbloom_stat st;

	/* a small, full filter: regions of 64 bits mostly collide */
	ASSERT_OK(del_create(self->fd, "dr", 64 * 64, 4, 64));
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_ADD, "dr", self->keys,
			     1000, NULL, NULL, NULL));
	for (i = 2; i < 1000 && bad == N_KEYS; i++) {
		ASSERT_OK(ku_save(self->fd, "dr", &before, &l1));
		if (del_one(self->fd, "dr", self->keys, i) == -ENOTUNIQ)
			bad = i;
		else
			free(before);
	}
	ASSERT_NE(N_KEYS, bad);
	ASSERT_OK(ku_save(self->fd, "dr", &after, &l2));
	ASSERT_EQ(l1, l2);
	EXPECT_EQ(0, memcmp(before, after, l1));
	free(before);
	free(after);

	/* an absent key, the refused one, another: the batch stops there */
	for (i = N_KEYS, hits = 1; i < 2 * N_KEYS && hits; i++)
		ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_TEST, "dr",
				     key(self->keys, i), 1, NULL, NULL, &hits));
	ASSERT_EQ(0, hits);
	memcpy(batch, key(self->keys, i - 1), 16);
	memcpy(batch + 16, key(self->keys, bad), 16);
	memcpy(batch + 32, key(self->keys, 1), 16);
	EXPECT_EQ(-ENOTUNIQ, ku_batch16(self->fd, KBLOOM_IOCTL_DEL, "dr",
					batch, 3, NULL, &done, &hits));
	EXPECT_EQ(0, done);	/* deleted before it: the first was absent */
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_TEST, "dr", batch, 3, NULL,
			     NULL, &hits));
	EXPECT_EQ(2, hits);	/* the refused key and the one after it */
	ASSERT_OK(ku_stat(self->fd, "dr", &st));
	EXPECT_EQ(2, st.kicks);
	ASSERT_OK(ku_name_cmd(self->fd, KBLOOM_IOCTL_FLUSH, "dr", 0));
	ASSERT_OK(ku_stat(self->fd, "dr", &st));
	EXPECT_EQ(0, st.kicks + st.ones + st.inserted);
}

TEST_F(del, restore_lib)
{
	struct kbloom_opts o = { .seed = SEED, .name = "dlib" };
	__u32 i, differ = 0, hits;
	struct kbloom_stat st;
	struct kbloom_del_stats ls;
	struct kbloom_del *f;
	size_t len;
	void *img;
	int mod, lib;

	ASSERT_OK(kbloom_del_create(N_KEYS, P_1PCT, 8, &o, &f));
	for (i = 0; i < N_KEYS; i++)
		ASSERT_OK(kbloom_del_add(f, key(self->keys, i), 16));
	ASSERT_OK(kbloom_del_save_alloc(f, &img, &len));
	ASSERT_OK(ku_restore(self->fd, "", img, len, 0));
	for (i = 0; i < 2 * N_KEYS; i += 7) {
		ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_TEST, "dlib",
				     key(self->keys, i), 1, NULL, NULL, &hits));
		differ += (int)hits != kbloom_del_test(f, key(self->keys, i), 16);
	}
	for (i = 0; i < N_KEYS; i += 5) {
		mod = del_one(self->fd, "dlib", self->keys, i);
		lib = kbloom_del_delete(f, key(self->keys, i), 16);
		differ += mod != lib;
	}
	EXPECT_EQ(0, differ);
	ASSERT_OK(ku_stat(self->fd, "dlib", &st));
	ASSERT_OK(kbloom_del_stats(f, &ls));
	EXPECT_EQ(ls.shape.m, st.m);
	EXPECT_EQ(ls.shape.k, st.k);
	EXPECT_EQ(8, st.buckets);
	EXPECT_EQ(ls.capacity, st.capacity);
	EXPECT_EQ(ls.inserted, st.inserted);
	EXPECT_EQ(ls.ones, st.ones);
	EXPECT_EQ(ls.refused, st.kicks);
	EXPECT_EQ(ls.fpr_now_pico, st.fpr_now_pico);
	free(img);
	kbloom_del_destroy(f);
}

TEST_F(del, bad_geometry)
{
	static const struct { __u64 m; __u32 k; __u64 s; } bad[] = {
		{ 4096, 0, 4 }, { 4096, 33, 4 }, { 4096, 4, 3 },
		{ 4096, 4, 131072 }, { 4096, 4, 8192 }, { 4096 + 32, 4, 4 },
		{ 32, 4, 4 }, { 64 * 3, 4, 128 }, { 0, 4, 4 },
	};
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_DELETABLE, .k = 4,
		.m = 4096, .buckets = 4,
	};
	__u32 i;

	for (i = 0; i < ARRAY_LEN(bad); i++)
		EXPECT_EQ(-EINVAL, del_create(self->fd, "bad", bad[i].m,
					      bad[i].k, bad[i].s))
			TH_LOG("case %u", i);
	EXPECT_EQ(-E2BIG, del_create(self->fd, "bad", 1ULL << 33, 4, 4));
	ku_name(c.name, "bad");
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
	c.m = 0;
	c.buckets = 3;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.buckets = 0;
	c.fpr_pico = 1;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.capacity = 1ULL << 40;
	c.fpr_pico = 1000;
	EXPECT_EQ(-E2BIG, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
}

TEST_HARNESS_MAIN
