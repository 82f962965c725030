/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture that the tests of one filter type share: the device opened
 * on an empty registry, 2 @n 16-byte keys of key space @space (the first
 * @n are inserted, the next @n are non-keys) and a bitmap of one bit per
 * key for answers; at teardown every filter is destroyed and the device
 * must account 0 bytes.  Include after guest_harness.h and kmod_util.h.
 *
 *	KU_TYPE_FIXTURE(part, 8, N_KEYS);
 *	TEST_F(part, keys) { ... self->fd, self->keys, self->bits ... }
 */
#ifndef KBLOOM_TYPE_FIXTURE_H
#define KBLOOM_TYPE_FIXTURE_H

/* ADD, TEST, DEL or COUNT of @n 16-byte keys. */
static inline int ku_batch16(int fd, unsigned long cmd, const char *name,
			     const __u8 *keys, __u32 n, void *res, __u32 *done,
			     __u32 *hits)
{
	return ku_keys(fd, cmd, name, keys, 16ULL * n, 16, n, res, done,
		       hits);
}

#define KU_TYPE_FIXTURE(f, space, n)					\
FIXTURE(f) {								\
	int fd;								\
	__u8 *keys;	/* n keys, then n non-keys */			\
	__u8 *bits;	/* one bit per key */				\
};									\
									\
FIXTURE_SETUP(f)							\
{									\
	self->fd = ku_open();						\
	ASSERT_LE(0, self->fd);						\
	ASSERT_EQ(0, ku_destroy_all(self->fd));				\
	self->keys = malloc(32ULL * (n));				\
	self->bits = malloc(2 * (n) / 8 + 1);				\
	ASSERT_NE(NULL, self->keys);					\
	ASSERT_NE(NULL, self->bits);					\
	ku_keys16(self->keys, (space), 0, 2 * (n));			\
}									\
									\
FIXTURE_TEARDOWN(f)							\
{									\
	ku_destroy_all(self->fd);					\
	EXPECT_EQ(0, ku_dev_bytes(self->fd));				\
	close(self->fd);						\
	free(self->keys);						\
	free(self->bits);						\
}

#endif /* KBLOOM_TYPE_FIXTURE_H */
