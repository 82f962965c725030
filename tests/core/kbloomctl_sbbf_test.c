// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl sbbf on the host (no module): a Parquet bitset that
 * parquet-mr wrote for the keys "a0".."a9" (Apache arrow-rs's
 * test_with_fixture, as in splitblock_test.c) answers them present;
 * import then export gives its bytes back; create and add of the same
 * keys export the same bytes.  Bad sizes, files, keys and filters Parquet
 * cannot read are refused with one line, exit 2 (usage) or 3, and the
 * image is left as it was.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_survey.h"
#include "core/kbloomctl_util.h"

#define SB(...)		"sbbf", __VA_ARGS__

static const __u8 parquet_a0_a9[32] = {
	200, 1, 80, 20, 64, 68, 8, 109, 6, 37, 4, 67, 144, 80, 96, 32,
	8, 132, 43, 33, 0, 5, 99, 65, 2, 0, 224, 44, 64, 78, 96, 4,
};

static int rm_one(const char *path, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

FIXTURE(ksb) {
	char dir[32];
	char bits[64];
	char img[64];
	char out[64];
};

FIXTURE_SETUP(ksb)
{
	strcpy(self->dir, "/tmp/kbloomctl-sbbf.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->bits, sizeof(self->bits), "%s/a.bin", self->dir);
	snprintf(self->img, sizeof(self->img), "%s/a.img", self->dir);
	snprintf(self->out, sizeof(self->out), "%s/out.bin", self->dir);
	ASSERT_EQ(0, kbctl_write_file(self->bits, parquet_a0_a9, 32));
}

FIXTURE_TEARDOWN(ksb)
{
	nftw(self->dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* @path holds the fixture's 32 bytes. */
static int is_fixture(const char *path)
{
	__u8 buf[64];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return n == 32 && !memcmp(buf, parquet_a0_a9, 32);
}

TEST_F(ksb, parquet_bitset_in_and_out)
{
	struct kbctl_res r;

	EXPECT_EQ(0, kbctl_run(&r, SB("test", self->bits, "a0", "a5", "a9")));
	EXPECT_NE(NULL, strstr(r.out, "a5: possibly present"));
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, SB("test", self->bits, "a1", "zz")));
	EXPECT_NE(NULL, strstr(r.out, "zz: definitely absent"));
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_run(&r, SB("import", self->bits, self->img)));
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, SB("test", self->img, "a3")));
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_run(&r, SB("export", self->img, self->out)));
	kbctl_free(&r);
	EXPECT_TRUE(is_fixture(self->out));
	ASSERT_EQ(0, kbctl_run(&r, SB("stat", self->img, "-j")));
	EXPECT_NE(NULL, strstr(r.out, "\"hash\":\"xxh64\""));
	EXPECT_NE(NULL, strstr(r.out, "\"blocks\":1"));
	kbctl_free(&r);
}

TEST_F(ksb, create_and_add_give_parquet_bytes)
{
	struct kbctl_res r;

	ASSERT_EQ(0, kbctl_run(&r, SB("create", self->img, "keys", "10")));
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_run(&r, SB("add", self->img, "a0", "a1", "a2",
				      "a3", "a4", "a5", "a6", "a7", "a8",
				      "a9")));
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_run(&r, SB("export", self->img, self->out)));
	kbctl_free(&r);
	EXPECT_TRUE(is_fixture(self->out));
}

TEST_F(ksb, refusals_change_nothing)
{
	char key65[66], ufimg[64];
	struct kbloom_sb *f;
	struct kbctl_res r;
	size_t len;
	void *img;

	EXPECT_EQ(2, kbctl_run(&r, SB("create", self->img, "keys", "0")));
	EXPECT_NE(NULL, strstr(r.err, "keys"));
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, SB("test", "/nonexistent/x.bin", "a")));
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_write_file(self->out, parquet_a0_a9, 24));
	EXPECT_EQ(3, kbctl_run(&r, SB("test", self->out, "a")));
	EXPECT_NE(NULL, strstr(r.err, "not a Parquet bitset"));
	kbctl_free(&r);

	/* a bad key: nothing added, the image as it was */
	ASSERT_EQ(0, kbctl_run(&r, SB("import", self->bits, self->img)));
	kbctl_free(&r);
	memset(key65, 'x', 65);
	key65[65] = 0;
	EXPECT_EQ(2, kbctl_run(&r, SB("add", self->img, "b1", key65)));
	EXPECT_NE(NULL, strstr(r.err, "KEY"));
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_run(&r, SB("export", self->img, self->out)));
	kbctl_free(&r);
	EXPECT_TRUE(is_fixture(self->out));

	/* an ultra-fast filter: Parquet cannot read it */
	snprintf(ufimg, sizeof(ufimg), "%s/uf.img", self->dir);
	ASSERT_EQ(0, kbloom_sb_create_blocks(KBLOOM_TYPE_ULTRA_FAST, 2, NULL,
					     &f));
	ASSERT_EQ(0, kbloom_sb_save_alloc(f, &img, &len));
	ASSERT_EQ(0, kbctl_write_file(ufimg, img, len));
	free(img);
	kbloom_sb_destroy(f);
	EXPECT_EQ(2, kbctl_run(&r, SB("export", ufimg, self->out)));
	EXPECT_NE(NULL, strstr(r.err, "xxh64"));
	EXPECT_EQ(1, kbctl_lines(r.err));
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, SB("test", ufimg, "q")) & ~1);
	kbctl_free(&r);
}

/* A folder named as FILE: "Is a directory", not "Input/output error". */
TEST_F(ksb, folder_named)
{
	struct kbctl_res r;

	EXPECT_EQ(3, kbctl_run(&r, SB("stat", self->dir)));
	EXPECT_NE(NULL, strstr(r.err, ": Is a directory")) TH_LOG("%s", r.err);
	EXPECT_EQ(1, kbctl_lines(r.err));
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, SB("test", self->dir, "a0")));
	EXPECT_NE(NULL, strstr(r.err, ": Is a directory")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, SB("add", self->dir, "a0")));
	EXPECT_NE(NULL, strstr(r.err, ": Is a directory")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, SB("import", self->dir, self->img)));
	EXPECT_NE(NULL, strstr(r.err, ": Is a directory")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_NE(0, access(self->img, F_OK));
}

/* A cut image, or a bitset given as IMAGE: what is wrong, in words. */
TEST_F(ksb, damaged_image_said)
{
	struct kbctl_res r;

	ASSERT_EQ(0, kbctl_run(&r, SB("import", self->bits, self->img)));
	kbctl_free(&r);
	ASSERT_EQ(0, truncate(self->img, 150));
	EXPECT_EQ(3, kbctl_run(&r, SB("stat", self->img)));
	EXPECT_NE(NULL, strstr(r.err, "Message too long (truncated"))
		TH_LOG("%s", r.err);
	EXPECT_EQ(1, kbctl_lines(r.err));
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, SB("export", self->bits, self->out)));
	EXPECT_NE(NULL, strstr(r.err, "Message too long (truncated"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_NE(0, access(self->out, F_OK));
}

TEST_HARNESS_MAIN
