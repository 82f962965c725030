// SPDX-License-Identifier: GPL-2.0
/*
 * Every command with its structure in a read-only page (issue 16, item 2).
 *
 * A command that answers (VERSION, CREATE, ADD, DEL, TEST, COUNT, STAT,
 * LIST, SAVE) fails with EFAULT and changes nothing: the filter's image
 * (words and counts), the device's filter and byte counts and the names
 * are as before.  The same call from a writable page then succeeds, so the
 * EFAULT came from the read-only structure.  DESTROY, FLUSH and RESTORE
 * answer nothing: they succeed and do their work.
 */
#include <sys/mman.h>
#include "guest_harness.h"
#include "kmod_util.h"

#define NKEYS	100
#define EXPECT_ERRNO(expected, cmd) EXPECT_EQ(-(expected), (cmd))

/* What a failed command must leave as it was. */
struct snap {
	void *img;		/* the image of "ro" */
	__u64 len;
	__u32 filters;		/* the device's */
	__u64 bytes;
};

FIXTURE(ro) {
	int fd;
	long pg;
	void *page;		/* the command structures, one page */
	__u8 keys[NKEYS * 16];	/* in "ro" */
	__u8 other[NKEYS * 16];	/* not in "ro" */
	struct snap before;
};

static int snap_take(int fd, struct snap *s)
{
	struct kbloom_stat st;
	int ret;

	ret = ku_stat_dev(fd, &st);
	if (ret)
		return ret;
	s->filters = st.filters;
	s->bytes = st.bytes;
	return ku_save(fd, "ro", &s->img, &s->len);
}

/* The registry and "ro" are exactly as in @s. */
static bool snap_same(int fd, const struct snap *s)
{
	struct snap now;
	bool same;

	if (snap_take(fd, &now))
		return false;
	same = now.filters == s->filters && now.bytes == s->bytes &&
	       now.len == s->len && !memcmp(now.img, s->img, s->len);
	free(now.img);
	return same;
}

FIXTURE_SETUP(ro)
{
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ku_destroy_all(self->fd));
	self->pg = sysconf(_SC_PAGESIZE);
	self->page = mmap(NULL, self->pg, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->page);
	ku_keys16(self->keys, 1, 0, NKEYS);
	ku_keys16(self->other, 2, 0, NKEYS);
	ASSERT_EQ(0, ku_create_mk(self->fd, "ro", KBLOOM_TYPE_COUNTING,
				  64 * 1024, 5, 4, 0x5eed));
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "ro", self->keys,
			     sizeof(self->keys), 16, NKEYS, NULL, NULL, NULL));
	ASSERT_EQ(0, snap_take(self->fd, &self->before));
}

FIXTURE_TEARDOWN(ro)
{
	ku_destroy_all(self->fd);
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
	close(self->fd);
	munmap(self->page, self->pg);
	free(self->before.img);
}

/* @cmd on a copy of @arg (@len bytes) in the page, read-only if @ro. */
static int page_ioctl(int fd, void *page, long pg, unsigned long cmd,
		      const void *arg, size_t len, bool ro)
{
	int ret;

	if (mprotect(page, pg, PROT_READ | PROT_WRITE))
		return -errno;
	memcpy(page, arg, len);
	if (ro && mprotect(page, pg, PROT_READ))
		return -errno;
	ret = ku_ioctl(fd, cmd, page);
	if (mprotect(page, pg, PROT_READ | PROT_WRITE))
		return -errno;
	return ret;
}

#define RO_IOCTL(cmd, arg) \
	page_ioctl(self->fd, self->page, self->pg, cmd, &(arg), sizeof(arg), true)
#define RW_IOCTL(cmd, arg) \
	page_ioctl(self->fd, self->page, self->pg, cmd, &(arg), sizeof(arg), false)

static struct kbloom_keys keys_cmd(const char *name, const __u8 *keys,
				   void *results)
{
	struct kbloom_keys b = {
		.size = sizeof(b), .key_len = 16, .count = NKEYS,
		.keys = (uintptr_t)keys, .keys_len = NKEYS * 16,
		.results = (uintptr_t)results,
	};

	ku_name(b.name, name);
	return b;
}

TEST_F(ro, version)
{
	struct kbloom_version v = { .size = sizeof(v) };

	EXPECT_ERRNO(EFAULT, RO_IOCTL(KBLOOM_IOCTL_VERSION, v));
	EXPECT_EQ(0, RW_IOCTL(KBLOOM_IOCTL_VERSION, v));
	EXPECT_EQ(KBLOOM_ABI_MAJOR, ((struct kbloom_version *)self->page)->major);
}

TEST_F(ro, create)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_BLOCKED,
		.m = 512 * 64, .k = 6,
	};
	struct kbloom_stat st;

	ku_name(c.name, "new");
	EXPECT_ERRNO(EFAULT, RO_IOCTL(KBLOOM_IOCTL_CREATE, c));
	EXPECT_ERRNO(ENOENT, ku_stat(self->fd, "new", &st));
	EXPECT_TRUE(snap_same(self->fd, &self->before));
	EXPECT_EQ(0, RW_IOCTL(KBLOOM_IOCTL_CREATE, c));
	EXPECT_EQ(0, ku_stat(self->fd, "new", &st));
}

/* CREATE of an existing twin with KBLOOM_CREATE_EXIST answers too. */
TEST_F(ro, create_exist)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_COUNTING,
		.m = 64 * 1024, .k = 5, .counter_bits = 4, .seed = 0x5eed,
		.flags = KBLOOM_CREATE_SEED | KBLOOM_CREATE_EXIST,
	};

	ku_name(c.name, "ro");
	EXPECT_ERRNO(EFAULT, RO_IOCTL(KBLOOM_IOCTL_CREATE, c));
	EXPECT_TRUE(snap_same(self->fd, &self->before));
	EXPECT_EQ(0, RW_IOCTL(KBLOOM_IOCTL_CREATE, c));
}

TEST_F(ro, add)
{
	struct kbloom_keys b = keys_cmd("ro", self->other, NULL);
	__u32 hits;

	EXPECT_ERRNO(EFAULT, RO_IOCTL(KBLOOM_IOCTL_ADD, b));
	EXPECT_TRUE(snap_same(self->fd, &self->before));
	EXPECT_EQ(0, RW_IOCTL(KBLOOM_IOCTL_ADD, b));
	EXPECT_EQ(NKEYS, ((struct kbloom_keys *)self->page)->done);
	EXPECT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_TEST, "ro", self->other,
			     sizeof(self->other), 16, NKEYS, NULL, NULL, &hits));
	EXPECT_EQ(NKEYS, hits);
}

TEST_F(ro, del)
{
	struct kbloom_keys b = keys_cmd("ro", self->keys, NULL);

	EXPECT_ERRNO(EFAULT, RO_IOCTL(KBLOOM_IOCTL_DEL, b));
	EXPECT_TRUE(snap_same(self->fd, &self->before));
	EXPECT_EQ(0, RW_IOCTL(KBLOOM_IOCTL_DEL, b));
	EXPECT_EQ(NKEYS, ((struct kbloom_keys *)self->page)->done);
	EXPECT_FALSE(snap_same(self->fd, &self->before));
}

TEST_F(ro, test)
{
	__u8 bits[(NKEYS + 7) / 8];
	struct kbloom_keys b = keys_cmd("ro", self->keys, bits);

	EXPECT_ERRNO(EFAULT, RO_IOCTL(KBLOOM_IOCTL_TEST, b));
	EXPECT_TRUE(snap_same(self->fd, &self->before));
	EXPECT_EQ(0, RW_IOCTL(KBLOOM_IOCTL_TEST, b));
	EXPECT_EQ(NKEYS, ((struct kbloom_keys *)self->page)->hits);
}

TEST_F(ro, count)
{
	__u64 est[NKEYS];
	struct kbloom_keys b = keys_cmd("ro", self->keys, est);

	EXPECT_ERRNO(EFAULT, RO_IOCTL(KBLOOM_IOCTL_COUNT, b));
	EXPECT_TRUE(snap_same(self->fd, &self->before));
	EXPECT_EQ(0, RW_IOCTL(KBLOOM_IOCTL_COUNT, b));
	EXPECT_EQ(NKEYS, ((struct kbloom_keys *)self->page)->hits);
}

TEST_F(ro, stat)
{
	struct kbloom_stat st = { .size = sizeof(st) };

	ku_name(st.name, "ro");
	EXPECT_ERRNO(EFAULT, RO_IOCTL(KBLOOM_IOCTL_STAT, st));
	EXPECT_TRUE(snap_same(self->fd, &self->before));
	EXPECT_EQ(0, RW_IOCTL(KBLOOM_IOCTL_STAT, st));
	EXPECT_EQ(NKEYS, ((struct kbloom_stat *)self->page)->inserted);
}

TEST_F(ro, list)
{
	struct kbloom_list_entry e[4];
	struct kbloom_list l = {
		.size = sizeof(l), .count = 4, .entries = (uintptr_t)e,
	};

	EXPECT_ERRNO(EFAULT, RO_IOCTL(KBLOOM_IOCTL_LIST, l));
	EXPECT_TRUE(snap_same(self->fd, &self->before));
	EXPECT_EQ(0, RW_IOCTL(KBLOOM_IOCTL_LIST, l));
	EXPECT_EQ(1, ((struct kbloom_list *)self->page)->count);
}

TEST_F(ro, save)
{
	struct kbloom_image_op op = {
		.size = sizeof(op), .buf_len = self->before.len,
	};
	void *buf = malloc(self->before.len);

	ASSERT_NE(NULL, buf);
	op.buf = (uintptr_t)buf;
	ku_name(op.name, "ro");
	EXPECT_ERRNO(EFAULT, RO_IOCTL(KBLOOM_IOCTL_SAVE, op));
	EXPECT_TRUE(snap_same(self->fd, &self->before));
	EXPECT_EQ(0, RW_IOCTL(KBLOOM_IOCTL_SAVE, op));
	EXPECT_EQ(self->before.len, ((struct kbloom_image_op *)self->page)->image_len);
	free(buf);
}

/* The commands that answer nothing work from a read-only structure. */
TEST_F(ro, destroy)
{
	struct kbloom_name_op o = { .size = sizeof(o) };
	struct kbloom_stat st;

	ku_name(o.name, "ro");
	EXPECT_EQ(0, RO_IOCTL(KBLOOM_IOCTL_DESTROY, o));
	EXPECT_ERRNO(ENOENT, ku_stat(self->fd, "ro", &st));
}

TEST_F(ro, flush)
{
	struct kbloom_name_op o = { .size = sizeof(o) };
	struct kbloom_stat st;

	ku_name(o.name, "ro");
	EXPECT_EQ(0, RO_IOCTL(KBLOOM_IOCTL_FLUSH, o));
	ASSERT_EQ(0, ku_stat(self->fd, "ro", &st));
	EXPECT_EQ(0, st.inserted);
	EXPECT_EQ(0, st.ones);
}

TEST_F(ro, restore)
{
	struct kbloom_image_op op = {
		.size = sizeof(op), .buf = (uintptr_t)self->before.img,
		.buf_len = self->before.len,
	};
	struct kbloom_stat st;

	ku_name(op.name, "ro2");
	EXPECT_EQ(0, RO_IOCTL(KBLOOM_IOCTL_RESTORE, op));
	ASSERT_EQ(0, ku_stat(self->fd, "ro2", &st));
	EXPECT_EQ(NKEYS, st.inserted);
}

TEST_HARNESS_MAIN
