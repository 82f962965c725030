// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko built without BTF (tests/core/nobtf_test builds it into
 * build/nobtf/kbloom.ko with every BTF source left out) loads and works,
 * without kfuncs, and says so:
 *
 * loads_without_kfuncs  the module in place is replaced by that one: it
 *                       loads, logs "built without BTF: no kfuncs", has no
 *                       /sys/kernel/btf/kbloom, and its ioctls create, fill
 *                       and test a filter; then the usual module is loaded
 *                       back for the tests after this one
 *
 * Skipped when build/nobtf/kbloom.ko was not built (/kbloom/build/... in
 * the guest).
 */
#include "guest_harness.h"
#include "kmod_util.h"

static const char *nb_path(const char *const *paths, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!access(paths[i], R_OK))
			return paths[i];
	return NULL;
}

static const char *const nb_ko[] = {
	"/kbloom/build/nobtf/kbloom.ko", "build/nobtf/kbloom.ko",
};
static const char *const nb_usual[] = {
	"/kbloom/build/kbloom.ko", "build/kbloom.ko",
};

static int nb_unload(void)
{
	return access("/sys/module/kbloom", F_OK) ? 0 : ku_mod_unload();
}

TEST(loads_without_kfuncs)
{
	const char *ko = nb_path(nb_ko, ARRAY_LEN(nb_ko));
	const char *usual = nb_path(nb_usual, ARRAY_LEN(nb_usual));
	const char *msg = "kbloom: built without BTF: no kfuncs";
	__u8 key[16] = "nobtf";
	__u32 hits = 0;
	int before, fd;

	if (!ko)
		SKIP(return, "build/nobtf/kbloom.ko not built (tests/core/nobtf_test)");
	ASSERT_NE(NULL, usual);
	before = ku_klog_count(msg);
	ASSERT_EQ(0, nb_unload());
	ASSERT_EQ(0, ku_mod_load(ko, ""));
	EXPECT_EQ(before + 1, ku_klog_count(msg));
	EXPECT_NE(0, access("/sys/kernel/btf/kbloom", F_OK));
	fd = ku_open();
	EXPECT_LE(0, fd);
	if (fd >= 0) {
		EXPECT_EQ(0, ku_create_mk(fd, "nobtf", KBLOOM_TYPE_BLOCKED, 4096,
					  4, 0, 0));
		EXPECT_EQ(0, ku_keys(fd, KBLOOM_IOCTL_ADD, "nobtf", key, 16, 16,
				     1, NULL, NULL, NULL));
		EXPECT_EQ(0, ku_keys(fd, KBLOOM_IOCTL_TEST, "nobtf", key, 16,
				     16, 1, NULL, NULL, &hits));
		EXPECT_EQ(1, hits);
		close(fd);
	}
	/* the usual module back, with its kfuncs */
	EXPECT_EQ(0, nb_unload());
	ASSERT_EQ(0, ku_mod_load(usual, ""));
	EXPECT_EQ(0, access("/sys/kernel/btf/kbloom", F_OK));
}

TEST_HARNESS_MAIN
