// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_length of every kbloom.ko ioctl, modeled on
 * tools/testing/selftests/iommu/iommufd.c: size-1 EINVAL, size+1 with a
 * non-zero tail E2BIG, size+1 with a zero tail like the exact size, and a
 * zero size; and bad pointers to every command's structure (EFAULT).
 * (The success paths and the other errnos: ioctl_test.c.)
 */
#include <stddef.h>
#include <sys/mman.h>
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

/* ---- cmd_length ----------------------------------------------------- */

static __u8 len_keys[32 * 16];
static __u8 len_bits[4];
static struct kbloom_list_entry len_ents[16];
static __u64 len_counts[32];
static __u8 len_img[KBLOOM_IMAGE_HDR_LEN + 65536];
static __u64 len_img_len;

static void len_filter(int fd)
{
	struct kbloom_create c = {
		.size = sizeof(c), .flags = KBLOOM_CREATE_EXIST,
		.type = KBLOOM_TYPE_COUNTING, .m = 4096, .k = 3,
	};

	ku_name(c.name, "len");
	ioctl(fd, KBLOOM_IOCTL_CREATE, &c);
}

static void prep_version(int fd, void *p)
{
}

static void prep_create(int fd, void *p)
{
	struct kbloom_create *c = p;

	ku_destroy(fd, "len");
	c->type = KBLOOM_TYPE_COUNTING;
	c->m = 4096;
	c->k = 3;
	ku_name(c->name, "len");
}

static void prep_name_op(int fd, void *p)
{
	struct kbloom_name_op *o = p;

	len_filter(fd);
	ku_name(o->name, "len");
}

static void prep_keys(int fd, void *p)
{
	struct kbloom_keys *b = p;

	len_filter(fd);
	ku_name(b->name, "len");
	ku_keys16(len_keys, 7, 0, 32);
	b->key_len = 16;
	b->count = 32;
	b->keys = (uintptr_t)len_keys;
	b->keys_len = sizeof(len_keys);
}

static void prep_del(int fd, void *p)
{
	prep_keys(fd, p);
	ku_keys(fd, KBLOOM_IOCTL_ADD, "len", len_keys, sizeof(len_keys), 16,
		32, NULL, NULL, NULL);
}

static void prep_test(int fd, void *p)
{
	struct kbloom_keys *b = p;

	prep_keys(fd, p);
	b->results = (uintptr_t)len_bits;
}

static void prep_count(int fd, void *p)
{
	struct kbloom_keys *b = p;

	prep_keys(fd, p);
	b->results = (uintptr_t)len_counts;
}

static void prep_stat(int fd, void *p)
{
	struct kbloom_stat *s = p;

	len_filter(fd);
	ku_name(s->name, "len");
}

static void prep_list(int fd, void *p)
{
	struct kbloom_list *l = p;

	len_filter(fd);
	l->count = ARRAY_LEN(len_ents);
	l->entries = (uintptr_t)len_ents;
}

static void prep_save(int fd, void *p)
{
	struct kbloom_image_op *o = p;

	len_filter(fd);
	ku_name(o->name, "len");
	o->buf = (uintptr_t)len_img;
	o->buf_len = sizeof(len_img);
}

static void prep_restore(int fd, void *p)
{
	struct kbloom_image_op o = { .size = sizeof(o) };
	struct kbloom_image_op *r = p;

	prep_save(fd, &o);
	if (!ioctl(fd, KBLOOM_IOCTL_SAVE, &o))
		len_img_len = o.image_len;
	ku_name(r->name, "len");
	r->flags = KBLOOM_RESTORE_REPLACE;
	r->buf = (uintptr_t)len_img;
	r->buf_len = len_img_len;
}

/* SWAP "len" and "len2" (any number of times) */
static void prep_swap(int fd, void *p)
{
	struct kbloom_name_pair *o = p;

	len_filter(fd);
	ku_create_mk(fd, "len2", KBLOOM_TYPE_BLOCKED, 512, 1, 0, 0);
	ku_name(o->name, "len");
	ku_name(o->other, "len2");
}

/* RENAME "len" to the free name "len.r" */
static void prep_rename(int fd, void *p)
{
	struct kbloom_name_pair *o = p;

	ku_destroy(fd, "len.r");
	len_filter(fd);
	ku_name(o->name, "len");
	ku_name(o->other, "len.r");
}

#define LEN_CASE(_ioctl, _type, _last, _prep)				\
	{ #_ioctl, _ioctl, sizeof(_type), offsetofend(_type, _last),	\
	  _prep }

static const struct len_case {
	const char *name;
	unsigned long cmd;
	size_t size;
	size_t min_size;
	void (*prep)(int fd, void *cmd);
} len_cases[] = {
	LEN_CASE(KBLOOM_IOCTL_VERSION, struct kbloom_version, key_max,
		 prep_version),
	LEN_CASE(KBLOOM_IOCTL_CREATE, struct kbloom_create, reserved,
		 prep_create),
	LEN_CASE(KBLOOM_IOCTL_DESTROY, struct kbloom_name_op, name,
		 prep_name_op),
	LEN_CASE(KBLOOM_IOCTL_ADD, struct kbloom_keys, hits, prep_keys),
	LEN_CASE(KBLOOM_IOCTL_DEL, struct kbloom_keys, hits, prep_del),
	LEN_CASE(KBLOOM_IOCTL_TEST, struct kbloom_keys, hits, prep_test),
	LEN_CASE(KBLOOM_IOCTL_COUNT, struct kbloom_keys, hits, prep_count),
	LEN_CASE(KBLOOM_IOCTL_STAT, struct kbloom_stat, filters, prep_stat),
	LEN_CASE(KBLOOM_IOCTL_LIST, struct kbloom_list, entries, prep_list),
	LEN_CASE(KBLOOM_IOCTL_FLUSH, struct kbloom_name_op, name,
		 prep_name_op),
	LEN_CASE(KBLOOM_IOCTL_SAVE, struct kbloom_image_op, image_len,
		 prep_save),
	LEN_CASE(KBLOOM_IOCTL_RESTORE, struct kbloom_image_op, image_len,
		 prep_restore),
	LEN_CASE(KBLOOM_IOCTL_SWAP, struct kbloom_name_pair, other, prep_swap),
	LEN_CASE(KBLOOM_IOCTL_RENAME, struct kbloom_name_pair, other,
		 prep_rename),
};

/* A valid command of @size bytes (structure + tail) for case @lc. */
static void len_prep(int fd, const struct len_case *lc, __u8 *buf,
		     __u32 size, __u8 tail)
{
	memset(buf, 0, 4096);
	lc->prep(fd, buf);
	memset(buf + lc->size, tail, 64);
	memcpy(buf, &size, sizeof(size));
}

TEST_F(kb, cmd_length)
{
	static __u8 buf[4096];
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(len_cases); i++) {
		const struct len_case *lc = &len_cases[i];

		TH_LOG("%s", lc->name);
		len_prep(self->fd, lc, buf, lc->min_size - 1, 0xff);
		EXPECT_ERRNO(EINVAL, ku_ioctl(self->fd, lc->cmd, buf));
		len_prep(self->fd, lc, buf, 0, 0);
		EXPECT_ERRNO(EINVAL, ku_ioctl(self->fd, lc->cmd, buf));
		len_prep(self->fd, lc, buf, lc->size + 1, 0xff);
		EXPECT_ERRNO(E2BIG, ku_ioctl(self->fd, lc->cmd, buf));
		len_prep(self->fd, lc, buf, lc->size + 64, 0);
		buf[lc->size + 63] = 1;
		EXPECT_ERRNO(E2BIG, ku_ioctl(self->fd, lc->cmd, buf));
		len_prep(self->fd, lc, buf, lc->size, 0xff);
		EXPECT_EQ(0, ku_ioctl(self->fd, lc->cmd, buf));
		len_prep(self->fd, lc, buf, lc->size + 1, 0);
		EXPECT_EQ(0, ku_ioctl(self->fd, lc->cmd, buf));
		EXPECT_EQ(0, buf[lc->size]);	/* the tail is not written */
		len_prep(self->fd, lc, buf, 4096, 0);
		EXPECT_EQ(0, ku_ioctl(self->fd, lc->cmd, buf));
	}
}

/* A zeroed structure of each command fails the same way at every size. */
TEST_F(kb, cmd_length_zero)
{
	static __u8 buf[4096];
	unsigned int i;
	int exact;

	for (i = 0; i < ARRAY_LEN(len_cases); i++) {
		const struct len_case *lc = &len_cases[i];
		__u32 size = lc->size;

		memset(buf, 0, sizeof(buf));
		memcpy(buf, &size, 4);
		exact = ku_ioctl(self->fd, lc->cmd, buf);
		memset(buf, 0, sizeof(buf));
		size = lc->size + 1;
		memcpy(buf, &size, 4);
		EXPECT_EQ(exact, ku_ioctl(self->fd, lc->cmd, buf));
	}
}

/* Every command with bad pointers to its structure. */
TEST_F(kb, efault_struct)
{
	long pg = sysconf(_SC_PAGESIZE);
	__u8 *map;
	unsigned int i;
	__u32 size;

	map = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_OK(mprotect(map + pg, pg, PROT_NONE));
	for (i = 0; i < ARRAY_LEN(len_cases); i++) {
		const struct len_case *lc = &len_cases[i];
		void *ptrs[] = {
			NULL, (void *)1, map + pg, (void *)0xffff888000000000UL,
			(void *)0x8000000000000000UL,
		};
		unsigned int j;

		for (j = 0; j < ARRAY_LEN(ptrs); j++)
			EXPECT_ERRNO(EFAULT, ku_ioctl(self->fd, lc->cmd,
						      ptrs[j]));
		/* size readable, the rest of the structure is not */
		size = lc->size;
		memcpy(map + pg - 4, &size, 4);
		EXPECT_ERRNO(EFAULT, ku_ioctl(self->fd, lc->cmd, map + pg - 4));
	}
	munmap(map, 2 * pg);
}

TEST_HARNESS_MAIN
