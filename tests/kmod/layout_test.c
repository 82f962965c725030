// SPDX-License-Identifier: GPL-2.0
/*
 * The ioctl structures have one layout on 64 and 32 bits (issue 16,
 * item 5), so the module needs no compat translation: compat_ptr_ioctl
 * passes a 32-bit caller's pointer on as is.  This file is built twice,
 * natively and with -m32 (layout_test-m32): the static assertions below,
 * the sizes and offsets measured on x86-64 (pahole shows no holes), hold
 * in both builds or neither compiles.  At run time, every command's
 * structure goes through the module from this build: a 32-bit caller's
 * answers are read back at the same offsets.
 */
#include <stddef.h>
#include "guest_harness.h"
#include "kmod_util.h"

#define LAYOUT(type, size)	_Static_assert(sizeof(struct type) == (size), \
					       #type " size")
#define AT(type, field, off)	_Static_assert(offsetof(struct type, field) == \
					       (off), #type "." #field)

LAYOUT(kbloom_version, 24);
LAYOUT(kbloom_create, 144);
AT(kbloom_create, seed, 80);
AT(kbloom_create, window, 136);
LAYOUT(kbloom_name_op, 40);
LAYOUT(kbloom_keys, 80);
AT(kbloom_keys, keys, 48);
AT(kbloom_keys, keys_len, 56);
AT(kbloom_keys, results, 64);
AT(kbloom_keys, done, 72);
AT(kbloom_keys, hits, 76);
LAYOUT(kbloom_stat, 240);
AT(kbloom_stat, filters, 148);
AT(kbloom_stat, window, 200);
AT(kbloom_stat, head, 232);
LAYOUT(kbloom_list, 24);
AT(kbloom_list, entries, 16);
LAYOUT(kbloom_list_entry, 40);
LAYOUT(kbloom_image_op, 64);
AT(kbloom_image_op, buf, 40);
AT(kbloom_image_op, buf_len, 48);
AT(kbloom_image_op, image_len, 56);

FIXTURE(layout) {
	int fd;
};

FIXTURE_SETUP(layout)
{
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ku_destroy_all(self->fd));
}

FIXTURE_TEARDOWN(layout)
{
	ku_destroy_all(self->fd);
	close(self->fd);
}

TEST_F(layout, word_size)
{
	TH_LOG("sizeof(long) = %zu", sizeof(long));
	EXPECT_TRUE(sizeof(long) == 4 || sizeof(long) == 8);
}

/* Every command once, its answers read back where this build put them. */
TEST_F(layout, every_command)
{
	struct kbloom_version v = { .size = sizeof(v) };
	struct kbloom_list_entry e[2];
	struct kbloom_list l = { .size = sizeof(l), .count = 2,
				 .entries = (uintptr_t)e };
	__u8 keys[64 * 16], bits[8];
	struct kbloom_create c;
	struct kbloom_stat st;
	__u32 done, hits;
	__u64 len;
	void *img;

	ASSERT_EQ(0, ku_ioctl(self->fd, KBLOOM_IOCTL_VERSION, &v));
	EXPECT_EQ(KBLOOM_ABI_MAJOR, v.major);
	EXPECT_EQ(KBLOOM_KEY_MAX, v.key_max);
	ASSERT_EQ(0, ku_create_np(self->fd, "l32", KBLOOM_TYPE_COUNTING,
				  1000, 10000000000ULL, &c));
	EXPECT_NE(0, c.m);
	EXPECT_NE(0, c.id);
	EXPECT_NE(0, c.bytes);
	ku_keys16(keys, 32, 0, 64);
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "l32", keys,
			     sizeof(keys), 16, 64, NULL, &done, NULL));
	EXPECT_EQ(64, done);
	memset(bits, 0, sizeof(bits));
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_TEST, "l32", keys,
			     sizeof(keys), 16, 64, bits, &done, &hits));
	EXPECT_EQ(64, hits);
	EXPECT_EQ(64, ku_popcount_bytes(bits, sizeof(bits)));
	ASSERT_EQ(0, ku_stat(self->fd, "l32", &st));
	EXPECT_EQ(64, st.inserted);
	EXPECT_EQ(c.m, st.m);
	EXPECT_EQ(c.id, st.id);
	EXPECT_EQ(c.bytes, st.bytes);
	EXPECT_EQ(c.seed, st.seed);
	ASSERT_EQ(0, ku_ioctl(self->fd, KBLOOM_IOCTL_LIST, &l));
	EXPECT_EQ(1, l.count);
	EXPECT_STREQ("l32", e[0].name);
	ASSERT_EQ(0, ku_save(self->fd, "l32", &img, &len));
	EXPECT_EQ(0, ku_restore(self->fd, "l32b", img, len, 0));
	free(img);
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_DEL, "l32b", keys,
			     sizeof(keys), 16, 64, NULL, &done, &hits));
	EXPECT_EQ(64, done + hits);
	EXPECT_EQ(0, ku_name_cmd(self->fd, KBLOOM_IOCTL_FLUSH, "l32", 0));
	EXPECT_EQ(0, ku_destroy(self->fd, "l32b"));
}

TEST_HARNESS_MAIN
