// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko ioctls, modeled on tools/testing/selftests/iommu/iommufd.c:
 * the success path of every command (cmd_length of every command:
 * cmd_length_test.c), and the documented errno of every kind of bad input:
 * ENOTTY, EFAULT, EINVAL (reserved, names, parameters, batches),
 * EOPNOTSUPP (unknown flags, DEL on a bit filter), E2BIG, ENOSPC, EEXIST,
 * ENOENT, EMSGSIZE, EBADMSG, EPROTONOSUPPORT, and EPERM without
 * CAP_NET_ADMIN.
 */
#include <stddef.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include "guest_harness.h"
#include "kmod_util.h"

#define EXPECT_ERRNO(expected, cmd) EXPECT_EQ(-(expected), (cmd))
#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))

#ifndef offsetofend
#define offsetofend(T, m) (offsetof(T, m) + sizeof(((T *)0)->m))
#endif

FIXTURE(kb) {
	int fd;
};

FIXTURE_SETUP(kb)
{
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ASSERT_OK(ku_destroy_all(self->fd));
}

FIXTURE_TEARDOWN(kb)
{
	ku_destroy_all(self->fd);
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
	close(self->fd);
}

static const struct {
	__u32 type;
	__u32 counter_bits;
	__u64 m;
	__u32 k;
} geoms[] = {
	{ KBLOOM_TYPE_STANDARD, 0, 64 * 1024, 7 },
	{ KBLOOM_TYPE_BLOCKED, 0, 512 * 128, 8 },
	{ KBLOOM_TYPE_COUNTING, 4, 64 * 1024, 7 },
	{ KBLOOM_TYPE_COUNTING, 8, 64 * 1024, 5 },
};

TEST_F(kb, create_mk)
{
	struct kbloom_create c;
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(geoms); i++) {
		memset(&c, 0, sizeof(c));
		c.size = sizeof(c);
		snprintf(c.name, sizeof(c.name), "f%u", i);
		c.type = geoms[i].type;
		c.m = geoms[i].m;
		c.k = geoms[i].k;
		c.counter_bits = geoms[i].counter_bits;
		ASSERT_OK(ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
		EXPECT_EQ(geoms[i].m, c.m);
		EXPECT_EQ(geoms[i].k, c.k);
		EXPECT_EQ(kb_payload_len(c.type, c.m, c.counter_bits), c.bytes);
		EXPECT_NE(0, c.id);
		EXPECT_NE(0, c.seed);	/* random; 0 has probability 2^-64 */
	}
}

TEST_F(kb, create_np)
{
	struct kbloom_create c, d;
	struct kbloom_stat st;

	ASSERT_OK(ku_create_np(self->fd, "np.blocked", KBLOOM_TYPE_BLOCKED,
			       100000, 10000000000ULL, &c));
	EXPECT_EQ(0, c.m % 512);
	EXPECT_LE(900000, c.m);		/* about 10 bits per key at 1% */
	EXPECT_GE(1300000, c.m);
	EXPECT_LE(5, c.k);
	EXPECT_GE(9, c.k);
	EXPECT_EQ(c.m / 8, c.bytes);
	ASSERT_OK(ku_stat(self->fd, "np.blocked", &st));
	EXPECT_EQ(100000, st.capacity);
	EXPECT_EQ(10000000000ULL, st.fpr_pico);
	EXPECT_EQ(KBLOOM_HASH_FAST, st.hash_id);	/* hash_id 0 */
	EXPECT_EQ(c.id, st.id);
	EXPECT_EQ(c.seed, st.seed);

	ASSERT_OK(ku_create_np(self->fd, "np_counting", KBLOOM_TYPE_COUNTING,
			       1000, 1000000000ULL, &d));
	EXPECT_EQ(0, d.m % 64);
	EXPECT_EQ(d.m / 2, d.bytes);	/* 4-bit counters by default */
	EXPECT_NE(c.id, d.id);
	EXPECT_NE(c.seed, d.seed);
	ASSERT_OK(ku_stat(self->fd, "np_counting", &st));
	EXPECT_EQ(4, st.counter_bits);
}

TEST_F(kb, create_seed_hash_exist)
{
	struct kbloom_create c = {
		.size = sizeof(c), .flags = KBLOOM_CREATE_SEED,
		.type = KBLOOM_TYPE_STANDARD, .hash_id = KBLOOM_HASH_SIPHASH13,
		.m = 4096, .k = 3, .seed = 0x1234567890ULL,
	};
	struct kbloom_create again;
	struct kbloom_stat st;
	__u32 id;

	ku_name(c.name, "seeded");
	again = c;
	ASSERT_OK(ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	EXPECT_EQ(0x1234567890ULL, c.seed);
	id = c.id;
	ASSERT_OK(ku_stat(self->fd, "seeded", &st));
	EXPECT_EQ(KBLOOM_HASH_SIPHASH13, st.hash_id);
	EXPECT_EQ(0x1234567890ULL, st.seed);

	c = again;
	EXPECT_ERRNO(EEXIST, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c = again;
	c.flags |= KBLOOM_CREATE_EXIST;
	ASSERT_OK(ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	EXPECT_EQ(id, c.id);
	EXPECT_EQ(4096, c.m);
	c = again;
	c.flags |= KBLOOM_CREATE_EXIST;
	c.k = 4;	/* not identical */
	EXPECT_ERRNO(EEXIST, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c = again;
	c.flags |= KBLOOM_CREATE_EXIST;
	c.type = KBLOOM_TYPE_BLOCKED;
	EXPECT_ERRNO(EEXIST, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
}

/* ADD, TEST, DEL of fixed keys on every type. */
TEST_F(kb, add_test_del)
{
	enum { N = 1000 };
	static __u8 keys[N * 16], other[N * 16];
	__u8 bits[(N + 7) / 8];
	__u32 done, hits;
	struct kbloom_stat st;
	unsigned int i;

	ku_keys16(keys, 1, 0, N);
	ku_keys16(other, 2, 0, N);
	for (i = 0; i < ARRAY_LEN(geoms); i++) {
		const char *nm = "atd";
		bool counting = geoms[i].type == KBLOOM_TYPE_COUNTING;

		ASSERT_OK(ku_create_mk(self->fd, nm, geoms[i].type, geoms[i].m,
				       geoms[i].k, geoms[i].counter_bits, 0));
		memset(bits, 0xa5, sizeof(bits));
		ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, nm, keys,
				  sizeof(keys), 16, N, bits, &done, &hits));
		EXPECT_EQ(N, done);
		EXPECT_EQ(0, hits);
		EXPECT_EQ(0, ku_popcount_bytes(bits, sizeof(bits)));

		ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_ADD, nm, keys,
				  sizeof(keys), 16, N, NULL, &done, &hits));
		EXPECT_EQ(N, done);
		memset(bits, 0, sizeof(bits));
		ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, nm, keys,
				  sizeof(keys), 16, N, bits, &done, &hits));
		EXPECT_EQ(N, done);
		EXPECT_EQ(N, hits);
		EXPECT_EQ(N, ku_popcount_bytes(bits, sizeof(bits)));
		/* no bitmap: only hits */
		ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, nm, keys,
				  sizeof(keys), 16, N, NULL, &done, &hits));
		EXPECT_EQ(N, hits);
		/* the bits past count in the last byte are cleared */
		memset(bits, 0xff, sizeof(bits));
		ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, nm, keys,
				  16 * 3, 16, 3, bits, &done, &hits));
		EXPECT_EQ(0x07, bits[0]);
		EXPECT_EQ(0xff, bits[1]);	/* past the bitmap: untouched */

		ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, nm, other,
				  sizeof(other), 16, N, bits, &done, &hits));
		EXPECT_GT(N / 10, hits);	/* false positives, a few % */
		EXPECT_EQ(hits, ku_popcount_bytes(bits, sizeof(bits)));

		ASSERT_OK(ku_stat(self->fd, nm, &st));
		EXPECT_EQ(N, st.inserted);
		if (!counting) {
			EXPECT_ERRNO(EOPNOTSUPP,
				     ku_keys(self->fd, KBLOOM_IOCTL_DEL, nm,
					     keys, sizeof(keys), 16, N, NULL,
					     &done, &hits));
			EXPECT_EQ(0, done);
			ASSERT_OK(ku_destroy(self->fd, nm));
			continue;
		}
		/* delete the first half; the second half stays */
		ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_DEL, nm, keys,
				  sizeof(keys) / 2, 16, N / 2, NULL, &done,
				  &hits));
		EXPECT_EQ(N / 2, done);
		EXPECT_EQ(0, hits);
		ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, nm,
				  keys + sizeof(keys) / 2, sizeof(keys) / 2,
				  16, N / 2, NULL, &done, &hits));
		EXPECT_EQ(N / 2, hits);
		ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, nm, keys,
				  sizeof(keys) / 2, 16, N / 2, NULL, &done,
				  &hits));
		EXPECT_GT(N / 10, hits);
		ASSERT_OK(ku_stat(self->fd, nm, &st));
		EXPECT_EQ(N / 2, st.inserted);
		/* keys never added are skipped, not deleted */
		ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_DEL, nm, other,
				  sizeof(other), 16, N, NULL, &done, &hits));
		EXPECT_EQ(N, done + hits);
		EXPECT_LT(N - N / 10, hits);
		ASSERT_OK(ku_destroy(self->fd, nm));
	}
}

/* Length-prefixed keys of every length 1..64, and malformed batches. */
TEST_F(kb, variable_keys)
{
	__u8 buf[64 * 65], bad[64 * 65], bits[8];
	__u32 n = 0, len, done = 1, hits = 1;
	size_t off = 0;

	for (len = 1; len <= KBLOOM_KEY_MAX; len++, n++) {
		buf[off++] = len;
		memset(buf + off, len, len);
		off += len;
	}
	ASSERT_OK(ku_create_mk(self->fd, "var", KBLOOM_TYPE_BLOCKED, 65536,
			       6, 0, 0));
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, "var", buf, off, 0, n,
			  bits, &done, &hits));
	EXPECT_EQ(0, hits);

	/* malformed: nothing is applied and done = 0 */
	memcpy(bad, buf, off);
	bad[0] = 0;
	EXPECT_ERRNO(EINVAL, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "var", bad,
				     off, 0, n, NULL, &done, &hits));
	EXPECT_EQ(0, done);
	memcpy(bad, buf, off);
	bad[off - 65] = 65;	/* the last key says 65 */
	EXPECT_ERRNO(EINVAL, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "var", bad,
				     off, 0, n, NULL, &done, &hits));
	EXPECT_ERRNO(EINVAL, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "var", buf,
				     off - 1, 0, n, NULL, &done, &hits));
	EXPECT_ERRNO(EINVAL, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "var", buf,
				     off, 0, n - 1, NULL, &done, &hits));
	EXPECT_ERRNO(EINVAL, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "var", buf,
				     off + 1, 0, n, NULL, &done, &hits));
	EXPECT_ERRNO(EINVAL, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "var", buf,
				     off, 0, 0, NULL, &done, &hits));
	/* fixed keys: keys_len must be count * key_len, key_len <= 64 */
	EXPECT_ERRNO(EINVAL, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "var", buf,
				     65, 65, 1, NULL, &done, &hits));
	EXPECT_ERRNO(EINVAL, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "var", buf,
				     63, 8, 8, NULL, &done, &hits));
	/* results is TEST's and (ABI 1.2, tests/kmod/add_new_test) ADD's */
	EXPECT_ERRNO(EINVAL, ku_keys(self->fd, KBLOOM_IOCTL_DEL, "var", buf,
				     off, 0, n, bits, &done, &hits));
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, "var", buf, off, 0, n,
			  bits, &done, &hits));
	EXPECT_EQ(0, hits);

	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_ADD, "var", buf, off, 0, n,
			  NULL, &done, &hits));
	EXPECT_EQ(n, done);
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, "var", buf, off, 0, n,
			  bits, &done, &hits));
	EXPECT_EQ(n, hits);
	EXPECT_EQ(n, ku_popcount_bytes(bits, sizeof(bits)));
	/* a key of 7 bytes 0x07 was added as part of the variable batch */
	memset(bad, 7, 7);
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, "var", bad, 7, 7, 1,
			  bits, &done, &hits));
	EXPECT_EQ(1, hits);
}

TEST_F(kb, stat_counts)
{
	enum { N = 2000 };
	static __u8 keys[N * 16];
	struct kbloom_stat st, dev;
	__u32 done, hits, i;
	__u8 one[16];

	ku_keys16(keys, 3, 0, N);
	ASSERT_OK(ku_create_mk(self->fd, "st", KBLOOM_TYPE_STANDARD, 65536, 5,
			       0, 0));
	ASSERT_OK(ku_stat(self->fd, "st", &st));
	EXPECT_EQ(0, st.ones);
	EXPECT_EQ(0, st.n_est);
	EXPECT_EQ(0, st.fpr_now_pico);
	EXPECT_EQ(65536 / 8, st.bytes);
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_ADD, "st", keys, sizeof(keys),
			  16, N, NULL, &done, &hits));
	ASSERT_OK(ku_stat(self->fd, "st", &st));
	EXPECT_EQ(KBLOOM_TYPE_STANDARD, st.type);
	EXPECT_EQ(65536, st.m);
	EXPECT_EQ(5, st.k);
	EXPECT_EQ(N, st.inserted);
	EXPECT_LT(N * 5 * 9 / 10, st.ones);
	EXPECT_GE(N * 5, st.ones);
	EXPECT_EQ(st.ones * 1000000 / 65536, st.occupancy_ppm);
	EXPECT_LT(N * 95 / 100, st.n_est);
	EXPECT_GT(N * 105 / 100, st.n_est);
	EXPECT_LT(0, st.fpr_now_pico);
	EXPECT_GT(KBLOOM_P_UNIT / 1000, st.fpr_now_pico);
	EXPECT_EQ(0, st.saturations);

	/* a 4-bit counter saturates at 15 and stays there */
	ASSERT_OK(ku_create_mk(self->fd, "sat", KBLOOM_TYPE_COUNTING, 4096, 3,
			       4, 0));
	ku_key16(one, 9, 9);
	for (i = 0; i < 20; i++)
		ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_ADD, "sat", one, 16,
				  16, 1, NULL, &done, &hits));
	ASSERT_OK(ku_stat(self->fd, "sat", &st));
	EXPECT_LE(5 * 3, st.saturations);
	EXPECT_GE(3, st.ones);
	for (i = 0; i < 20; i++)
		ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_DEL, "sat", one, 16,
				  16, 1, NULL, &done, &hits));
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, "sat", one, 16, 16, 1,
			  NULL, &done, &hits));
	EXPECT_EQ(1, hits);	/* saturated: never decremented */

	ASSERT_OK(ku_stat_dev(self->fd, &dev));
	EXPECT_EQ(2, dev.filters);
	EXPECT_EQ(65536 / 8 + 4096 / 2, dev.bytes);
	EXPECT_EQ(0, dev.m);
	EXPECT_EQ(0, dev.id);
	ASSERT_OK(ku_destroy_all(self->fd));
	ASSERT_OK(ku_stat_dev(self->fd, &dev));
	EXPECT_EQ(0, dev.filters);
	EXPECT_EQ(0, dev.bytes);
}

TEST_F(kb, list)
{
	static const char *const names[] = { "zeta", "alpha", "Mid.1", "b-2" };
	struct kbloom_list_entry ents[8];
	struct kbloom_list l = { .size = sizeof(l) };
	unsigned int i;

	ASSERT_OK(ku_ioctl(self->fd, KBLOOM_IOCTL_LIST, &l));
	EXPECT_EQ(0, l.count);
	for (i = 0; i < ARRAY_LEN(names); i++)
		ASSERT_OK(ku_create_mk(self->fd, names[i], geoms[i].type,
				       geoms[i].m, geoms[i].k,
				       geoms[i].counter_bits, 0));
	/* ask */
	l.count = 0;
	EXPECT_ERRNO(EMSGSIZE, ku_ioctl(self->fd, KBLOOM_IOCTL_LIST, &l));
	EXPECT_EQ(4, l.count);
	l.count = 3;
	memset(ents, 0x5a, sizeof(ents));
	l.entries = (uintptr_t)ents;
	EXPECT_ERRNO(EMSGSIZE, ku_ioctl(self->fd, KBLOOM_IOCTL_LIST, &l));
	EXPECT_EQ(4, l.count);
	EXPECT_EQ(0x5a, ents[0].name[0]);	/* nothing else written */
	l.count = 8;
	ASSERT_OK(ku_ioctl(self->fd, KBLOOM_IOCTL_LIST, &l));
	ASSERT_EQ(4, l.count);
	EXPECT_STREQ("Mid.1", ents[0].name);
	EXPECT_STREQ("alpha", ents[1].name);
	EXPECT_STREQ("b-2", ents[2].name);
	EXPECT_STREQ("zeta", ents[3].name);
	EXPECT_EQ(KBLOOM_TYPE_COUNTING, ents[0].type);
	EXPECT_EQ(KBLOOM_TYPE_BLOCKED, ents[1].type);
	EXPECT_EQ(KBLOOM_TYPE_STANDARD, ents[3].type);
	EXPECT_EQ(0x5a, ents[4].name[0]);
	for (i = 0; i < 4; i++)
		EXPECT_NE(0, ents[i].id);
}

TEST_F(kb, flush)
{
	enum { N = 500 };
	static __u8 keys[N * 16];
	struct kbloom_stat st;
	__u32 done, hits;

	ku_keys16(keys, 4, 0, N);
	ASSERT_OK(ku_create_mk(self->fd, "fl1", KBLOOM_TYPE_COUNTING, 8192, 4,
			       8, 0));
	ASSERT_OK(ku_create_mk(self->fd, "fl2", KBLOOM_TYPE_BLOCKED, 8192, 4,
			       0, 0));
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_ADD, "fl1", keys,
			  sizeof(keys), 16, N, NULL, &done, &hits));
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_ADD, "fl2", keys,
			  sizeof(keys), 16, N, NULL, &done, &hits));
	ASSERT_OK(ku_name_cmd(self->fd, KBLOOM_IOCTL_FLUSH, "fl1", 0));
	ASSERT_OK(ku_stat(self->fd, "fl1", &st));
	EXPECT_EQ(0, st.ones);
	EXPECT_EQ(0, st.inserted);
	EXPECT_EQ(0, st.saturations);
	ASSERT_OK(ku_stat(self->fd, "fl2", &st));
	EXPECT_EQ(N, st.inserted);
	ASSERT_OK(ku_name_cmd(self->fd, KBLOOM_IOCTL_FLUSH, "", KBLOOM_ALL));
	ASSERT_OK(ku_stat(self->fd, "fl2", &st));
	EXPECT_EQ(0, st.ones);
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, "fl2", keys,
			  sizeof(keys), 16, N, NULL, &done, &hits));
	EXPECT_EQ(0, hits);
	EXPECT_ERRNO(EINVAL, ku_name_cmd(self->fd, KBLOOM_IOCTL_FLUSH, "fl2",
					 KBLOOM_ALL));
	EXPECT_ERRNO(EINVAL, ku_name_cmd(self->fd, KBLOOM_IOCTL_DESTROY, "fl2",
					 KBLOOM_ALL));
	EXPECT_ERRNO(EINVAL, ku_name_cmd(self->fd, KBLOOM_IOCTL_FLUSH, "", 0));
}

/* Recompute an image's checksum after editing its header. */
static void reseal(void *img, __u64 len)
{
	struct kbloom_image_hdr *h = img;

	h->crc = kb_le32(kb_image_crc(h, (__u8 *)img + KBLOOM_IMAGE_HDR_LEN,
				      len - KBLOOM_IMAGE_HDR_LEN));
}

TEST_F(kb, save_restore)
{
	enum { N = 3000 };
	static __u8 keys[N * 16], other[N * 16];
	__u8 bits1[N / 8], bits2[N / 8];
	struct kbloom_image_op op = { .size = sizeof(op) };
	struct kbloom_stat st, st2;
	struct kbloom_image_hdr *h;
	__u32 done, hits, hits2;
	__u64 len;
	void *img;
	__u8 *bad;

	ku_keys16(keys, 5, 0, N);
	ku_keys16(other, 6, 0, N);
	ASSERT_OK(ku_create_np(self->fd, "orig", KBLOOM_TYPE_COUNTING, N,
			       10000000000ULL, NULL));
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_ADD, "orig", keys,
			  sizeof(keys), 16, N, NULL, &done, &hits));

	/* size query, then a too small buffer */
	ku_name(op.name, "orig");
	EXPECT_ERRNO(EMSGSIZE, ku_ioctl(self->fd, KBLOOM_IOCTL_SAVE, &op));
	ASSERT_OK(ku_stat(self->fd, "orig", &st));
	EXPECT_EQ(KBLOOM_IMAGE_HDR_LEN + st.bytes, op.image_len);
	op.buf_len = op.image_len - 1;
	op.buf = (uintptr_t)keys;
	EXPECT_ERRNO(EMSGSIZE, ku_ioctl(self->fd, KBLOOM_IOCTL_SAVE, &op));

	ASSERT_OK(ku_save(self->fd, "orig", &img, &len));
	ASSERT_OK(kb_image_verify(img, len));
	h = img;
	EXPECT_STREQ("orig", h->name);
	EXPECT_EQ(N, kb_le64(h->inserted));
	EXPECT_EQ(N, kb_le64(h->capacity));
	EXPECT_EQ(st.seed, kb_le64(h->seed));

	/* restore under another name: the same answers */
	ASSERT_OK(ku_restore(self->fd, "copy", img, len, 0));
	ASSERT_OK(ku_stat(self->fd, "copy", &st2));
	EXPECT_EQ(st.m, st2.m);
	EXPECT_EQ(st.k, st2.k);
	EXPECT_EQ(st.seed, st2.seed);
	EXPECT_EQ(st.ones, st2.ones);
	EXPECT_EQ(st.inserted, st2.inserted);
	EXPECT_EQ(st.capacity, st2.capacity);
	EXPECT_NE(st.id, st2.id);
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, "orig", other,
			  sizeof(other), 16, N, bits1, &done, &hits));
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, "copy", other,
			  sizeof(other), 16, N, bits2, &done, &hits2));
	EXPECT_EQ(hits, hits2);
	EXPECT_EQ(0, memcmp(bits1, bits2, sizeof(bits1)));
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, "copy", keys,
			  sizeof(keys), 16, N, NULL, &done, &hits2));
	EXPECT_EQ(N, hits2);

	/* empty name: the image's; existing name: EEXIST; REPLACE swaps */
	EXPECT_ERRNO(EEXIST, ku_restore(self->fd, "", img, len, 0));
	ASSERT_OK(ku_destroy(self->fd, "orig"));
	ASSERT_OK(ku_restore(self->fd, "", img, len, 0));
	ASSERT_OK(ku_stat(self->fd, "orig", &st2));
	EXPECT_EQ(st.ones, st2.ones);
	ASSERT_OK(ku_name_cmd(self->fd, KBLOOM_IOCTL_FLUSH, "copy", 0));
	ASSERT_OK(ku_restore(self->fd, "copy", img, len,
			     KBLOOM_RESTORE_REPLACE));
	ASSERT_OK(ku_stat(self->fd, "copy", &st2));
	EXPECT_EQ(st.ones, st2.ones);
	ASSERT_OK(ku_restore(self->fd, "new", img, len,
			     KBLOOM_RESTORE_REPLACE));
	EXPECT_ERRNO(EOPNOTSUPP, ku_restore(self->fd, "x", img, len, 2));

	/* image errors, each on a copy */
	bad = malloc(len + 8);
	ASSERT_NE(NULL, bad);
	h = (struct kbloom_image_hdr *)bad;
	memcpy(bad, img, len);
	bad[len - 1] ^= 1;
	EXPECT_ERRNO(EBADMSG, ku_restore(self->fd, "e1", bad, len, 0));
	memcpy(bad, img, len);
	h->magic ^= 1;
	EXPECT_ERRNO(EBADMSG, ku_restore(self->fd, "e1", bad, len, 0));
	memcpy(bad, img, len);
	h->version = kb_le16(KBLOOM_IMAGE_VERSION_MAX + 1);
	reseal(bad, len);
	EXPECT_ERRNO(EPROTONOSUPPORT, ku_restore(self->fd, "e1", bad, len, 0));
	memcpy(bad, img, len);
	h->version = kb_le16(1);	/* the old probe positions */
	reseal(bad, len);
	EXPECT_ERRNO(EPROTONOSUPPORT, ku_restore(self->fd, "e1", bad, len, 0));
	memcpy(bad, img, len);
	h->type = KBLOOM_TYPE_LAST + 1;
	reseal(bad, len);
	EXPECT_ERRNO(EOPNOTSUPP, ku_restore(self->fd, "e1", bad, len, 0));
	memcpy(bad, img, len);
	h->k = kb_le32(0);
	reseal(bad, len);
	EXPECT_ERRNO(EBADMSG, ku_restore(self->fd, "e1", bad, len, 0));
	memcpy(bad, img, len);
	h->reserved2 = 1;
	reseal(bad, len);
	EXPECT_ERRNO(EBADMSG, ku_restore(self->fd, "e1", bad, len, 0));
	memcpy(bad, img, len);
	EXPECT_ERRNO(EMSGSIZE, ku_restore(self->fd, "e1", bad, len - 8, 0));
	EXPECT_ERRNO(EMSGSIZE, ku_restore(self->fd, "e1", bad, len + 8, 0));
	EXPECT_ERRNO(EMSGSIZE, ku_restore(self->fd, "e1", bad, 100, 0));
	EXPECT_ERRNO(EMSGSIZE, ku_restore(self->fd, "e1", bad, 0, 0));
	/* neither the call nor the image names the filter */
	memset(h->name, 0, sizeof(h->name));
	reseal(bad, len);
	EXPECT_ERRNO(EINVAL, ku_restore(self->fd, "", bad, len, 0));
	ASSERT_OK(ku_restore(self->fd, "e2", bad, len, 0));
	EXPECT_ERRNO(ENOENT, ku_stat(self->fd, "e1", &st2));
	free(bad);
	free(img);
}

/* ---- errors ----------------------------------------------------------- */

TEST_F(kb, enotty)
{
	struct kbloom_version v = { .size = sizeof(v) };
	static const unsigned long bad[] = {
		_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_BASE - 1),
		_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_RENAME + 1),
		_IO(KBLOOM_IOCTL_TYPE, 0xff),
		_IO(KBLOOM_IOCTL_TYPE, 0),
		_IO(KBLOOM_IOCTL_TYPE + 1, KBLOOM_CMD_VERSION),
		_IOR(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_VERSION, __u32),
		_IOW(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_CREATE, struct kbloom_create),
		_IOWR(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_TEST, struct kbloom_keys),
		_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_VERSION) | (1 << 16),
		0x12345678,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(bad); i++)
		EXPECT_ERRNO(ENOTTY, ku_ioctl(self->fd, bad[i], &v));
}

TEST_F(kb, efault_buffers)
{
	struct kbloom_list l = { .size = sizeof(l), .count = 4,
				 .entries = 8 };
	struct kbloom_image_op op = { .size = sizeof(op) };
	static __u8 keys[16 * 8];
	long pg = sysconf(_SC_PAGESIZE);
	__u32 done = 7, hits = 7;
	__u8 *ro;
	void *img;
	__u64 len;

	ku_keys16(keys, 8, 0, 8);
	ASSERT_OK(ku_create_mk(self->fd, "ef", KBLOOM_TYPE_COUNTING, 4096, 3,
			       4, 0));
	EXPECT_ERRNO(EFAULT, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "ef",
				     (void *)8, sizeof(keys), 16, 8, NULL,
				     &done, &hits));
	EXPECT_EQ(0, done);
	/* keys running into an unmapped page: nothing applied */
	ro = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	ASSERT_OK(mprotect(ro + pg, pg, PROT_NONE));
	memcpy(ro + pg - 64, keys, 64);
	EXPECT_ERRNO(EFAULT, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "ef",
				     ro + pg - 64, sizeof(keys), 16, 8, NULL,
				     &done, &hits));
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, "ef", ro + pg - 64, 64,
			  16, 4, NULL, &done, &hits));
	EXPECT_EQ(0, hits);
	/* results: unmapped, read-only */
	EXPECT_ERRNO(EFAULT, ku_keys(self->fd, KBLOOM_IOCTL_TEST, "ef", keys,
				     sizeof(keys), 16, 8, ro + pg, &done,
				     &hits));
	ASSERT_OK(mprotect(ro, pg, PROT_READ));
	EXPECT_ERRNO(EFAULT, ku_keys(self->fd, KBLOOM_IOCTL_TEST, "ef", keys,
				     sizeof(keys), 16, 8, ro, &done, &hits));
	EXPECT_ERRNO(EFAULT, ku_keys(self->fd, KBLOOM_IOCTL_DEL, "ef",
				     (void *)0xffff888000000000UL,
				     sizeof(keys), 16, 8, NULL, &done, &hits));
	/* LIST entries */
	EXPECT_ERRNO(EFAULT, ku_ioctl(self->fd, KBLOOM_IOCTL_LIST, &l));
	l.entries = (uintptr_t)ro;
	EXPECT_ERRNO(EFAULT, ku_ioctl(self->fd, KBLOOM_IOCTL_LIST, &l));
	/* SAVE into read-only or unmapped memory, RESTORE from unmapped */
	ku_name(op.name, "ef");
	op.buf = (uintptr_t)ro;
	op.buf_len = 1 << 20;
	EXPECT_ERRNO(EFAULT, ku_ioctl(self->fd, KBLOOM_IOCTL_SAVE, &op));
	op.buf = (uintptr_t)(ro + pg);
	EXPECT_ERRNO(EFAULT, ku_ioctl(self->fd, KBLOOM_IOCTL_SAVE, &op));
	op.buf = 0;
	EXPECT_ERRNO(EFAULT, ku_ioctl(self->fd, KBLOOM_IOCTL_RESTORE, &op));
	/* a valid header whose payload runs into an unmapped page */
	ASSERT_OK(ku_save(self->fd, "ef", &img, &len));
	ASSERT_OK(mprotect(ro, pg, PROT_READ | PROT_WRITE));
	memcpy(ro + pg - KBLOOM_IMAGE_HDR_LEN, img, KBLOOM_IMAGE_HDR_LEN);
	EXPECT_ERRNO(EFAULT, ku_restore(self->fd, "ef2",
					ro + pg - KBLOOM_IMAGE_HDR_LEN, len,
					0));
	EXPECT_ERRNO(ENOENT, ku_destroy(self->fd, "ef2"));
	free(img);
	munmap(ro, 2 * pg);
}

TEST_F(kb, einval_create)
{
	struct kbloom_create base = {
		.size = sizeof(base), .type = KBLOOM_TYPE_BLOCKED,
		.m = 4096, .k = 4,
	}, c;
	static const char *const bad_names[] = {
		"", "a b", "a/b", "ä", "a\n", "0123456789012345678901234567890X",
	};
	unsigned int i;

	ku_name(base.name, "ok");
#define TRY(errno_, stmt) do { c = base; stmt; \
	EXPECT_ERRNO(errno_, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c)); \
	} while (0)
	TRY(EINVAL, c.reserved = 1);
	TRY(EOPNOTSUPP, c.flags = 1 << 2);
	TRY(EOPNOTSUPP, c.flags = 1U << 31);
	for (i = 0; i < ARRAY_LEN(bad_names); i++)
		TRY(EINVAL, (memset(c.name, 0, 32),
			     memcpy(c.name, bad_names[i],
				    strnlen(bad_names[i], 32))));
	TRY(EINVAL, c.name[5] = 'x');		/* garbage after the NUL */
	TRY(EINVAL, memset(c.name, 'a', 32));	/* no NUL */
	TRY(EINVAL, c.type = 0);
	TRY(EINVAL, c.type = KBLOOM_TYPE_LAST + 1);
	TRY(EOPNOTSUPP, c.type = KBLOOM_TYPE_MATRIX);	/* known, not here */
	TRY(EINVAL, c.reserved1 = 1);
	TRY(EINVAL, c.fp_bits = 12);		/* geometry of a variant */
	TRY(EINVAL, c.slots = 4);
	TRY(EINVAL, c.tables = 4);
	TRY(EINVAL, c.vi_l = 4);
	TRY(EINVAL, c.update = 1);
	TRY(EINVAL, c.buckets = 1024);
	TRY(EINVAL, c.hash_id = KBLOOM_HASH_MAX + 1);
	TRY(EINVAL, c.counter_bits = 4);	/* not counting */
	TRY(EINVAL, (c.type = KBLOOM_TYPE_COUNTING, c.counter_bits = 2));
	TRY(EINVAL, (c.type = KBLOOM_TYPE_COUNTING, c.counter_bits = 16));
	TRY(EINVAL, c.k = 0);
	TRY(EINVAL, c.k = KBLOOM_K_MAX + 1);
	TRY(EINVAL, c.m = 0);
	TRY(EINVAL, c.m = 4096 + 64);		/* blocked: whole blocks */
	TRY(EINVAL, (c.type = KBLOOM_TYPE_STANDARD, c.m = 4096 + 1));
	TRY(EINVAL, (c.type = KBLOOM_TYPE_STANDARD, c.m = 32));
	TRY(EINVAL, c.capacity = 1000);		/* both (n, p) and (m, k) */
	TRY(EINVAL, c.fpr_pico = 1000000);
	TRY(EINVAL, (c.m = 0, c.k = 0));	/* neither */
	TRY(EINVAL, (c.m = 0, c.k = 0, c.capacity = 100));
	TRY(EINVAL, (c.m = 0, c.k = 0, c.fpr_pico = 10000));
	TRY(EINVAL, (c.m = 0, c.k = 0, c.capacity = 100, c.fpr_pico = 999));
	TRY(EINVAL, (c.m = 0, c.k = 0, c.capacity = 100,
		     c.fpr_pico = KBLOOM_P_TARGET_MAX + 1));
#undef TRY
	EXPECT_ERRNO(ENOENT, ku_destroy(self->fd, "ok"));
}

TEST_F(kb, einval_reserved_and_flags)
{
	struct kbloom_list l = { .size = sizeof(l), .reserved = 1 };
	struct kbloom_version v = { .size = sizeof(v), .flags = 1 };
	struct kbloom_stat st = { .size = sizeof(st), .flags = 2 };
	struct kbloom_image_op op = { .size = sizeof(op), .flags = 1 };
	__u8 key[16] = { 1 };
	struct kbloom_keys b = {
		.size = sizeof(b), .flags = 1, .key_len = 16, .count = 1,
		.keys = (uintptr_t)key, .keys_len = 16,
	};

	ASSERT_OK(ku_create_mk(self->fd, "rf", KBLOOM_TYPE_COUNTING, 4096, 3,
			       0, 0));
	EXPECT_ERRNO(EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_LIST, &l));
	l.reserved = 0;
	l.flags = 1;
	EXPECT_ERRNO(EOPNOTSUPP, ku_ioctl(self->fd, KBLOOM_IOCTL_LIST, &l));
	EXPECT_ERRNO(EOPNOTSUPP, ku_ioctl(self->fd, KBLOOM_IOCTL_VERSION, &v));
	ku_name(st.name, "rf");
	EXPECT_ERRNO(EOPNOTSUPP, ku_ioctl(self->fd, KBLOOM_IOCTL_STAT, &st));
	ku_name(op.name, "rf");
	EXPECT_ERRNO(EOPNOTSUPP, ku_ioctl(self->fd, KBLOOM_IOCTL_SAVE, &op));
	ku_name(b.name, "rf");
	EXPECT_ERRNO(EOPNOTSUPP, ku_ioctl(self->fd, KBLOOM_IOCTL_ADD, &b));
	EXPECT_ERRNO(EOPNOTSUPP, ku_ioctl(self->fd, KBLOOM_IOCTL_DEL, &b));
	EXPECT_ERRNO(EOPNOTSUPP, ku_ioctl(self->fd, KBLOOM_IOCTL_TEST, &b));
	EXPECT_ERRNO(EOPNOTSUPP, ku_name_cmd(self->fd, KBLOOM_IOCTL_DESTROY,
					     "rf", 2));
	EXPECT_ERRNO(EOPNOTSUPP, ku_name_cmd(self->fd, KBLOOM_IOCTL_FLUSH,
					     "rf", 1U << 31));
	/* a name with garbage after its NUL, an invalid name */
	b.flags = 0;
	b.name[3] = 'z';
	EXPECT_ERRNO(EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_TEST, &b));
	ku_name(st.name, "r f");
	st.flags = 0;
	EXPECT_ERRNO(EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_STAT, &st));
	st.flags = KBLOOM_STAT_DEVICE;
	EXPECT_ERRNO(EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_STAT, &st));
	EXPECT_ERRNO(EINVAL, ku_name_cmd(self->fd, KBLOOM_IOCTL_DESTROY,
					 "", 0));
}

TEST_F(kb, oversize)
{
	unsigned long long fmax = ku_param("max_filter_bytes", 256ULL << 20);
	struct kbloom_image_hdr h;
	struct kbloom_create c;
	__u8 key[16] = { 0 };
	__u32 done, hits;

	/* beyond KBLOOM_M_MAX */
	EXPECT_ERRNO(E2BIG, ku_create_mk(self->fd, "big", KBLOOM_TYPE_STANDARD,
					 KBLOOM_M_MAX + 64, 3, 0, 0));
	/* within KBLOOM_M_MAX, beyond max_filter_bytes */
	if (fmax < (4ULL << 30))
		EXPECT_ERRNO(E2BIG, ku_create_mk(self->fd, "big",
						 KBLOOM_TYPE_COUNTING,
						 KBLOOM_M_MAX, 3, 8, 0));
	if (fmax < (512ULL << 20))
		EXPECT_ERRNO(E2BIG, ku_create_mk(self->fd, "big",
						 KBLOOM_TYPE_BLOCKED,
						 KBLOOM_M_MAX, 3, 0, 0));
	/* the planner cannot fit 10^12 keys at 1e-9 in 2^32 bits */
	EXPECT_ERRNO(E2BIG, ku_create_np(self->fd, "big", KBLOOM_TYPE_BLOCKED,
					 1000000000000ULL, 1000, &c));
	/* batches over the limits */
	ASSERT_OK(ku_create_mk(self->fd, "ov", KBLOOM_TYPE_BLOCKED, 4096, 3,
			       0, 0));
	EXPECT_ERRNO(E2BIG, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "ov", key,
				    (__u64)KBLOOM_BATCH_KEYS_MAX + 1,
				    1, KBLOOM_BATCH_KEYS_MAX + 1, NULL, &done,
				    &hits));
	EXPECT_ERRNO(E2BIG, ku_keys(self->fd, KBLOOM_IOCTL_TEST, "ov", key,
				    KBLOOM_BATCH_BYTES_MAX + 64ULL, 64,
				    (KBLOOM_BATCH_BYTES_MAX + 64ULL) / 64,
				    NULL, &done, &hits));
	/* an image too large for max_filter_bytes: refused on its header */
	memset(&h, 0, sizeof(h));
	h.magic = kb_le32(KBLOOM_IMAGE_MAGIC);
	h.version = kb_le16(KBLOOM_IMAGE_VERSION);
	h.hdr_len = kb_le16(KBLOOM_IMAGE_HDR_LEN);
	h.type = KBLOOM_TYPE_COUNTING;
	h.hash_id = KBLOOM_HASH_FAST;
	h.counter_bits = 8;
	h.k = kb_le32(3);
	h.m = kb_le64(KBLOOM_M_MAX);
	h.payload_len = kb_le64(kb_payload_len(h.type, KBLOOM_M_MAX, 8));
	ku_name(h.name, "huge");
	if (fmax < (4ULL << 30))
		EXPECT_ERRNO(E2BIG, ku_restore(self->fd, "", &h,
					       KBLOOM_IMAGE_HDR_LEN +
					       kb_le64(h.payload_len), 0));
	EXPECT_ERRNO(ENOENT, ku_destroy(self->fd, "big"));
	EXPECT_ERRNO(ENOENT, ku_destroy(self->fd, "huge"));
}

/* max_filters: one filter more than the limit is ENOSPC. */
TEST_F(kb, enospc_filters)
{
	unsigned long long max = ku_param("max_filters", 1024);
	char name[32];
	unsigned long long i;
	int ret = 0;

	if (max > 4096)
		SKIP(return, "max_filters=%llu is too many to fill", max);
	for (i = 0; i < max && !ret; i++) {
		snprintf(name, sizeof(name), "n%llu", i);
		ret = ku_create_mk(self->fd, name, KBLOOM_TYPE_STANDARD, 64, 1,
				   0, 0);
	}
	ASSERT_EQ(0, ret);
	EXPECT_ERRNO(ENOSPC, ku_create_mk(self->fd, "one.more",
					  KBLOOM_TYPE_STANDARD, 64, 1, 0, 0));
	EXPECT_EQ(max * 8, ku_dev_bytes(self->fd));
	ASSERT_OK(ku_destroy(self->fd, "n0"));
	ASSERT_OK(ku_create_mk(self->fd, "one.more", KBLOOM_TYPE_STANDARD, 64,
			       1, 0, 0));
}

TEST_F(kb, enoent)
{
	struct kbloom_image_op op = { .size = sizeof(op) };
	struct kbloom_stat st;
	__u8 key[4] = "abc";
	__u32 done, hits;

	EXPECT_ERRNO(ENOENT, ku_destroy(self->fd, "nope"));
	EXPECT_ERRNO(ENOENT, ku_name_cmd(self->fd, KBLOOM_IOCTL_FLUSH, "nope",
					 0));
	EXPECT_ERRNO(ENOENT, ku_stat(self->fd, "nope", &st));
	EXPECT_ERRNO(ENOENT, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "nope", key,
				     4, 4, 1, NULL, &done, &hits));
	EXPECT_ERRNO(ENOENT, ku_keys(self->fd, KBLOOM_IOCTL_DEL, "nope", key,
				     4, 4, 1, NULL, &done, &hits));
	EXPECT_ERRNO(ENOENT, ku_keys(self->fd, KBLOOM_IOCTL_TEST, "nope", key,
				     4, 4, 1, NULL, &done, &hits));
	ku_name(op.name, "nope");
	EXPECT_ERRNO(ENOENT, ku_ioctl(self->fd, KBLOOM_IOCTL_SAVE, &op));
	/* a destroyed name is gone */
	ASSERT_OK(ku_create_mk(self->fd, "gone", KBLOOM_TYPE_BLOCKED, 512, 1,
			       0, 0));
	ASSERT_OK(ku_destroy(self->fd, "gone"));
	EXPECT_ERRNO(ENOENT, ku_stat(self->fd, "gone", &st));
	EXPECT_ERRNO(ENOENT, ku_destroy(self->fd, "gone"));
}

/* ---- privilege -------------------------------------------------------- */

static int drop_net_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	data[CAP_NET_ADMIN / 32].effective &= ~(1U << (CAP_NET_ADMIN % 32));
	data[CAP_NET_ADMIN / 32].permitted &= ~(1U << (CAP_NET_ADMIN % 32));
	data[CAP_NET_ADMIN / 32].inheritable &= ~(1U << (CAP_NET_ADMIN % 32));
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

#define CHILD_EXPECT(expected, stmt) do {				\
	int r_ = (stmt);						\
	if (r_ != (expected)) {						\
		fprintf(stderr, "# child: %s = %d, expected %d\n",	\
			#stmt, r_, (expected));				\
		fails++;						\
	}								\
} while (0)

/* Runs in a child without CAP_NET_ADMIN; returns the failed checks. */
static int unprivileged_checks(int fd, const void *img, __u64 len)
{
	struct kbloom_version v = { .size = sizeof(v) };
	struct kbloom_list_entry ents[4];
	struct kbloom_list l = {
		.size = sizeof(l), .count = 4, .entries = (uintptr_t)ents,
	};
	__u8 key[16] = "k", bits[1];
	struct kbloom_stat st;
	__u32 done, hits;
	void *img2;
	__u64 len2;
	int fails = 0;

	CHILD_EXPECT(-EPERM, ku_create_mk(fd, "p2", KBLOOM_TYPE_BLOCKED, 512,
					  1, 0, 0));
	CHILD_EXPECT(-EPERM, ku_destroy(fd, "priv"));
	CHILD_EXPECT(-EPERM, ku_destroy_all(fd));
	CHILD_EXPECT(-EPERM, ku_keys(fd, KBLOOM_IOCTL_ADD, "priv", key, 16,
				     16, 1, NULL, &done, &hits));
	CHILD_EXPECT(-EPERM, ku_keys(fd, KBLOOM_IOCTL_DEL, "priv", key, 16,
				     16, 1, NULL, &done, &hits));
	CHILD_EXPECT(-EPERM, ku_name_cmd(fd, KBLOOM_IOCTL_FLUSH, "priv", 0));
	CHILD_EXPECT(-EPERM, ku_restore(fd, "p3", img, len, 0));
	CHILD_EXPECT(-EPERM, ku_restore(fd, "priv", img, len,
					KBLOOM_RESTORE_REPLACE));
	CHILD_EXPECT(-EPERM, ku_name_pair(fd, KBLOOM_IOCTL_SWAP, "priv", "p3",
					  0));
	CHILD_EXPECT(-EPERM, ku_name_pair(fd, KBLOOM_IOCTL_RENAME, "priv", "p3",
					  0));
	/* EPERM comes before any other check */
	CHILD_EXPECT(-EPERM, ku_ioctl(fd, KBLOOM_IOCTL_CREATE, NULL));
	/* reads are open to anyone who could open the device */
	CHILD_EXPECT(0, ku_ioctl(fd, KBLOOM_IOCTL_VERSION, &v));
	CHILD_EXPECT(0, ku_keys(fd, KBLOOM_IOCTL_TEST, "priv", key, 16, 16, 1,
				bits, &done, &hits));
	CHILD_EXPECT(1, (int)hits);
	CHILD_EXPECT(0, ku_stat(fd, "priv", &st));
	CHILD_EXPECT(1, (int)st.inserted);
	CHILD_EXPECT(0, ku_stat_dev(fd, &st));
	CHILD_EXPECT(0, ku_ioctl(fd, KBLOOM_IOCTL_LIST, &l));
	CHILD_EXPECT(1, (int)l.count);
	CHILD_EXPECT(0, ku_save(fd, "priv", &img2, &len2));
	if (!fails) {
		CHILD_EXPECT((int)len, (int)len2);
		CHILD_EXPECT(0, memcmp(img, img2, len));
	}
	return fails;
}

TEST_F(kb, eperm_without_cap_net_admin)
{
	__u8 key[16] = "k";
	int status, fd2;
	void *img;
	__u64 len;
	pid_t pid;

	ASSERT_OK(ku_create_mk(self->fd, "priv", KBLOOM_TYPE_COUNTING, 4096,
			       3, 0, 0));
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_ADD, "priv", key, 16, 16, 1,
			  NULL, NULL, NULL));
	ASSERT_OK(ku_save(self->fd, "priv", &img, &len));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (drop_net_admin())
			_exit(100);
		/* both an fd opened before and one opened after the drop */
		fd2 = ku_open();
		if (fd2 < 0)
			_exit(101);
		_exit(unprivileged_checks(self->fd, img, len) +
		      unprivileged_checks(fd2, img, len));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* nothing changed */
	ASSERT_OK(ku_keys(self->fd, KBLOOM_IOCTL_TEST, "priv", key, 16, 16, 1,
			  NULL, NULL, NULL));
	free(img);
}

TEST_HARNESS_MAIN
