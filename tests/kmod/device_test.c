// SPDX-License-Identifier: GPL-2.0
/*
 * Seed of the kmod suite (runs where kbloom.ko is loaded, in the guest):
 * /dev/kbloom exists with mode 0600 and answers KBLOOM_IOCTL_VERSION.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include "guest_harness.h"
#include "uapi/kbloom.h"

TEST(device_node)
{
	struct stat st;

	ASSERT_EQ(0, stat(KBLOOM_DEVICE, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0600, st.st_mode & 0777);
}

TEST(version)
{
	struct kbloom_version v = { .size = sizeof(v) };
	int fd = open(KBLOOM_DEVICE, O_RDWR);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, KBLOOM_IOCTL_VERSION, &v));
	EXPECT_EQ(KBLOOM_ABI_MAJOR, v.major);
	EXPECT_EQ(KBLOOM_ABI_MINOR, v.minor);
	EXPECT_EQ(KBLOOM_IMAGE_VERSION, v.image_version);
	EXPECT_EQ(KBLOOM_KEY_MAX, v.key_max);
	v.flags = 1;
	EXPECT_EQ(-1, ioctl(fd, KBLOOM_IOCTL_VERSION, &v));
	EXPECT_EQ(EOPNOTSUPP, errno);
	EXPECT_EQ(-1, ioctl(fd, _IO(KBLOOM_IOCTL_TYPE, 0x7f), &v));
	EXPECT_EQ(ENOTTY, errno);
	close(fd);
}

TEST_HARNESS_MAIN
