// SPDX-License-Identifier: GPL-2.0
/*
 * 20 rounds of rmmod/insmod of kbloom.ko with filters created, filled and
 * destroyed in between, some left behind for module exit to free; every
 * other round loads with small limits (max_filters, max_total_bytes,
 * max_filter_bytes) and checks ENOSPC and E2BIG against them.  The module
 * cannot be removed while a file is open.  The test always leaves the
 * module loaded with its default parameters, for the tests after it.
 *
 * The module is /kbloom/build/kbloom.ko in the guest (build/kbloom.ko from
 * the repository root elsewhere, or $KBLOOM_KO); loaded with finit_module()
 * and removed with delete_module(), the system calls behind insmod/rmmod.
 */
#include <sys/stat.h>
#include "guest_harness.h"
#include "kmod_util.h"

#define ROUNDS		20
#define SMALL_PARAMS	"max_filters=4 max_total_bytes=40000 max_filter_bytes=16384"

static const char *ko_path(void)
{
	static const char *const paths[] = {
		"/kbloom/build/kbloom.ko", "build/kbloom.ko",
	};
	const char *env = getenv("KBLOOM_KO");
	unsigned int i;

	if (env)
		return env;
	for (i = 0; i < ARRAY_LEN(paths); i++)
		if (!access(paths[i], R_OK))
			return paths[i];
	return NULL;
}

static int mod_loaded(void)
{
	return !access("/sys/module/kbloom", F_OK);
}

static int mod_load(const char *params)
{
	const char *path = ko_path();

	return path ? ku_mod_load(path, params) : -ENOENT;
}

static int mod_unload(void)
{
	return ku_mod_unload();
}

FIXTURE(reload) {
	int unused;
};

FIXTURE_SETUP(reload)
{
	if (!ko_path())
		SKIP(return, "kbloom.ko not found (set KBLOOM_KO)");
	if (!mod_loaded())
		ASSERT_EQ(0, mod_load(""));
}

/* Whatever happened, leave the module loaded with its defaults. */
FIXTURE_TEARDOWN(reload)
{
	if (ko_path() && !mod_loaded())
		EXPECT_EQ(0, mod_load(""));
}

/* Filters of every type: create, fill, test, destroy some, keep some. */
static int round_filters(int fd, unsigned int round)
{
	static __u8 keys[256 * 16];
	__u32 hits = 0, i;
	char name[32];
	int ret;

	ku_keys16(keys, round, 0, 256);
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "r%u.%u", round, i);
		ret = ku_create_mk(fd, name, KBLOOM_TYPE_STANDARD + i, 8192,
				   4, 0, 0);
		if (ret)
			return ret;
		ret = ku_keys(fd, KBLOOM_IOCTL_ADD, name, keys, sizeof(keys),
			      16, 256, NULL, NULL, NULL);
		if (ret)
			return ret;
		ret = ku_keys(fd, KBLOOM_IOCTL_TEST, name, keys, sizeof(keys),
			      16, 256, NULL, NULL, &hits);
		if (ret || hits != 256)
			return ret ? ret : -EIO;
	}
	snprintf(name, sizeof(name), "r%u.1", round);
	return ku_destroy(fd, name);
}

/* The small limits: ENOSPC for bytes and count, E2BIG per filter. */
static void small_limits(struct __test_metadata *_metadata, int fd)
{
	EXPECT_EQ(4, ku_param("max_filters", 0));
	EXPECT_EQ(40000, ku_param("max_total_bytes", 0));
	EXPECT_EQ(16384, ku_param("max_filter_bytes", 0));
	ASSERT_EQ(0, ku_destroy_all(fd));
	EXPECT_EQ(-E2BIG, ku_create_mk(fd, "big", KBLOOM_TYPE_STANDARD,
				       16384 * 8 + 64, 3, 0, 0));
	ASSERT_EQ(0, ku_create_mk(fd, "a", KBLOOM_TYPE_STANDARD, 16384 * 8, 3,
				  0, 0));
	ASSERT_EQ(0, ku_create_mk(fd, "b", KBLOOM_TYPE_BLOCKED, 16384 * 8, 3,
				  0, 0));
	EXPECT_EQ(-ENOSPC, ku_create_mk(fd, "c", KBLOOM_TYPE_COUNTING, 16384 * 2,
					3, 4, 0));
	ASSERT_EQ(0, ku_create_mk(fd, "c", KBLOOM_TYPE_COUNTING, 128, 3, 4,
				  0));
	ASSERT_EQ(0, ku_create_mk(fd, "d", KBLOOM_TYPE_STANDARD, 64, 3, 0, 0));
	EXPECT_EQ(-ENOSPC, ku_create_mk(fd, "e", KBLOOM_TYPE_STANDARD, 64, 3,
					0, 0));
	EXPECT_EQ(2 * 16384 + 64 + 8, ku_dev_bytes(fd));
	ASSERT_EQ(0, ku_destroy(fd, "a"));
	ASSERT_EQ(0, ku_create_mk(fd, "e", KBLOOM_TYPE_STANDARD, 64, 3, 0, 0));
}

TEST_F_TIMEOUT(reload, rmmod_insmod_rounds, 900)
{
	unsigned int round;
	struct stat st;
	int fd;

	/* no removal while a file is open */
	fd = ku_open();
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EWOULDBLOCK, mod_unload());
	ASSERT_EQ(0, ku_create_mk(fd, "kept", KBLOOM_TYPE_BLOCKED, 4096, 4, 0,
				  0));
	close(fd);

	for (round = 0; round < ROUNDS; round++) {
		/* filters left from the round before are freed by exit */
		ASSERT_EQ(0, mod_unload());
		ASSERT_FALSE(mod_loaded());
		EXPECT_NE(0, stat(KBLOOM_DEVICE, &st));
		ASSERT_EQ(0, mod_load(round % 2 ? "" : SMALL_PARAMS));
		fd = ku_open();
		ASSERT_LE(0, fd);
		EXPECT_EQ(0, ku_dev_bytes(fd));
		if (round % 2 == 0)
			small_limits(_metadata, fd);
		else
			EXPECT_EQ(1024, ku_param("max_filters", 0));
		ASSERT_EQ(0, ku_destroy_all(fd));
		ASSERT_EQ(0, round_filters(fd, round));
		EXPECT_EQ(8192 / 8 + 8192 / 2, ku_dev_bytes(fd));
		close(fd);
	}
	ASSERT_EQ(0, mod_unload());
	ASSERT_EQ(0, mod_load(""));
	fd = ku_open();
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, ku_dev_bytes(fd));
	EXPECT_EQ(1ULL << 30, ku_param("max_total_bytes", 0));
	EXPECT_EQ(256ULL << 20, ku_param("max_filter_bytes", 0));
	close(fd);
}

TEST_HARNESS_MAIN
