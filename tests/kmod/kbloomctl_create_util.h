/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checks of kbloomctl create against the module, shared by the guest
 * tests of the variants' create forms (kbloomctl_sketches_test.c,
 * kbloomctl_partitioned_test.c...).  Include after kselftest_harness.h,
 * kmod_util.h and core/kbloomctl_util.h.
 */
#ifndef _KBLOOM_KBLOOMCTL_CREATE_UTIL_H
#define _KBLOOM_KBLOOMCTL_CREATE_UTIL_H

/* kbloomctl with the arguments: exit @status, standard output @want. */
#define CTL(status, want, ...) do {					\
	struct kbctl_res r_;						\
	EXPECT_EQ(status, kbctl_run(&r_, __VA_ARGS__))			\
		TH_LOG("stderr: %s", r_.err);				\
	if (want)							\
		EXPECT_STREQ(want, r_.out);				\
	kbctl_free(&r_);						\
} while (0)

/* A usage error whose message names @word; nothing is created. */
#define BAD(fd, word, ...) do {						\
	struct kbctl_res r_;						\
	struct kbloom_stat st_;						\
	EXPECT_EQ(2, kbctl_run(&r_, "create", "bad", __VA_ARGS__));	\
	EXPECT_NE(NULL, strstr(r_.err, word)) TH_LOG("%s", r_.err);	\
	kbctl_free(&r_);						\
	EXPECT_EQ(-ENOENT, ku_stat(fd, "bad", &st_));			\
} while (0)

/*
 * The fixture of a variant's kbloomctl test: the device on an empty
 * registry and an image path /tmp/kb@tag.PID.img; at teardown the image is
 * removed, every filter destroyed and the device must account 0 bytes.
 */
#define KU_CTL_FIXTURE(f, tag)						\
FIXTURE(f) {								\
	int fd;								\
	char img[64];							\
};									\
									\
FIXTURE_SETUP(f)							\
{									\
	self->fd = ku_open();						\
	ASSERT_LE(0, self->fd);						\
	ASSERT_EQ(0, ku_destroy_all(self->fd));				\
	snprintf(self->img, sizeof(self->img), "/tmp/kb%s.%d.img",	\
		 tag, getpid());					\
}									\
									\
FIXTURE_TEARDOWN(f)							\
{									\
	unlink(self->img);						\
	ku_destroy_all(self->fd);					\
	EXPECT_EQ(0, ku_dev_bytes(self->fd));				\
	close(self->fd);						\
}

#endif /* _KBLOOM_KBLOOMCTL_CREATE_UTIL_H */
