// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl persistent append|test|stat on the host (no module): epochs
 * saved by libkbloom (the image kbloomctl save and map save write) are
 * appended from files and standard input; test answers for a range with
 * exit 0 or 1 and names the filters it took; stat and -j report the
 * epochs and levels.  Bad epochs, geometries, ranges, images and
 * archives are refused with one line naming the field, exit 2 (usage) or
 * 3, and the archive is left as it was.  plan prints kb_pers_plan()'s
 * epoch filter.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_partitioned.h"
#include "uapi/kbloom_var_persistent.h"
#include "core/kbloomctl_util.h"

#define PC(...)		"persistent", __VA_ARGS__

static int rm_one(const char *path, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

FIXTURE(kpers) {
	char dir[32];
	char arch[64];
	char img[6][64];
};

/* Epoch e's image: keys "eE-0" .. "eE-99"; image 5 is a standard filter. */
static int write_epoch(const char *path, int e, __u32 type)
{
	struct kbloom_opts o = { .seed = 11 };
	struct kbloom_filter *f;
	char key[32];
	int i, n, ret;

	ret = kbloom_create(type, 1000, 10000000000ULL, &o, &f);
	for (i = 0; !ret && i < 100; i++) {
		n = snprintf(key, sizeof(key), "e%d-%d", e, i);
		ret = kbloom_add(f, key, n);
	}
	ret = ret ?: kbloom_save_file(f, path);
	kbloom_destroy(f);
	return ret;
}

FIXTURE_SETUP(kpers)
{
	char dir[sizeof(self->dir)] = "/tmp/kbloomctl-pers.XXXXXX";
	int e;

	ASSERT_NE(NULL, mkdtemp(dir));
	strcpy(self->dir, dir);
	snprintf(self->arch, sizeof(self->arch), "%s/arch", dir);
	for (e = 0; e < 6; e++) {
		snprintf(self->img[e], sizeof(self->img[e]), "%s/e%d.img",
			 dir, e);
		ASSERT_EQ(0, write_epoch(self->img[e], e, e == 5 ?
					 KBLOOM_TYPE_STANDARD :
					 KBLOOM_TYPE_BLOCKED));
	}
}

FIXTURE_TEARDOWN(kpers)
{
	nftw(self->dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* A partitioned filter's image (version 3) at @path. */
static int write_partitioned(const char *path)
{
	struct kbloom_part *p;
	size_t len = 0;
	void *img = NULL;
	FILE *f;
	int ret;

	ret = kbloom_part_create_ks(3, 1024, NULL, &p);
	if (ret)
		return ret;
	ret = kbloom_part_save_alloc(p, &img, &len);
	kbloom_part_destroy(p);
	f = ret ? NULL : fopen(path, "wb");
	if (f && fwrite(img, 1, len, f) != len)
		ret = -EIO;
	if (!ret && (!f || fclose(f)))
		ret = -EIO;
	free(img);
	return ret;
}

/* The last byte of @path flipped (a bit of the last member's words). */
static int damage_tail(const char *path)
{
	FILE *f = fopen(path, "r+b");
	int c, ret = -1;

	if (f && !fseek(f, -1, SEEK_END) && (c = fgetc(f)) != EOF &&
	    !fseek(f, -1, SEEK_END) && fputc(c ^ 0x10, f) != EOF)
		ret = 0;
	if (f && fclose(f))
		ret = -1;
	return ret;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s;

	if (!f)
		return NULL;
	s = kbctl_slurp(fileno(f), len);
	fclose(f);
	return s;
}

/* Epochs 40..44 from images 0..4, image 2 through standard input. */
static void append_five(struct __test_metadata *_metadata,
			FIXTURE_DATA(kpers) *self)
{
	struct kbctl_res r;
	int e;

	ASSERT_EQ(0, kbctl_run(&r, PC("append", self->arch, self->img[0],
				      "epoch", "40")))
		TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "epoch 40 appended"));
	kbctl_free(&r);
	for (e = 1; e < 5; e++) {
		if (e == 2)
			kbctl_run_in(&r, self->img[e],
				     PC("append", self->arch, "-"));
		else
			kbctl_run(&r, PC("append", self->arch, self->img[e]));
		ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
		kbctl_free(&r);
	}
}

TEST_F(kpers, append_test_stat)
{
	struct kbctl_res r;

	append_five(_metadata, self);
	ASSERT_EQ(0, kbctl_run(&r, PC("test", self->arch, "e2-7")));
	EXPECT_NE(NULL, strstr(r.out, "e2-7: possibly present in epochs 40..44"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, PC("test", self->arch, "e2-7", "from",
				      "42", "to", "42")));
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, PC("test", self->arch, "e2-7", "from",
				      "43")));
	EXPECT_NE(NULL, strstr(r.out, "definitely absent from epochs 43..44 (2 of 2 filters tested"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, PC("test", self->arch, "e2-7", "to",
				      "41", "-q")));
	EXPECT_STREQ("", r.out);
	kbctl_free(&r);
	/* 40..43 is one merged filter */
	EXPECT_EQ(0, kbctl_run(&r, PC("test", self->arch, "e0-1", "from",
				      "40", "to", "43", "-j")));
	EXPECT_EQ(1, kbj_valid(r.out, r.out_len)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\"filters\":1,\"tested\":1"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_run(&r, PC("stat", self->arch)));
	EXPECT_NE(NULL, strstr(r.out, "epochs:       40..44 (5)"));
	EXPECT_NE(NULL, strstr(r.out, "filters:      8 in 3 levels"));
	EXPECT_NE(NULL, strstr(r.out, "level 2       1 filter of 4 epochs"));
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_run(&r, PC("stat", self->arch, "-j")));
	EXPECT_EQ(1, kbj_valid(r.out, r.out_len));
	EXPECT_NE(NULL, strstr(r.out, "\"first\":40,\"last\":44,\"epochs\":5"));
	kbctl_free(&r);
}

/* @args fail with @status, @field in the one line, @arch unchanged. */
/* The first @len bytes of @from into @to. */
static int truncate_copy(const char *from, const char *to, size_t len)
{
	size_t n;
	char *buf = slurp(from, &n);
	int ret;

	if (!buf || n < len) {
		free(buf);
		return -1;
	}
	ret = kbctl_write_file(to, buf, len);
	free(buf);
	return ret;
}

static void refused(struct __test_metadata *_metadata, const char *arch,
		    int status, const char *field, const char *const *args)
{
	size_t before_len, after_len;
	char *before = slurp(arch, &before_len), *after, *nl;
	struct kbctl_res r;

	kbctl_run_io(&r, NULL, NULL, args);
	EXPECT_EQ(status, r.status) TH_LOG("%s %s: %s", args[1], args[2],
					   r.err);
	EXPECT_NE(NULL, strstr(r.err, field)) TH_LOG("%s", r.err);
	nl = strchr(r.err, '\n');
	EXPECT_TRUE(nl && !nl[1]) TH_LOG("not one line: %s", r.err);
	after = slurp(arch, &after_len);
	EXPECT_TRUE(before && after && before_len == after_len &&
		    !memcmp(before, after, before_len));
	kbctl_free(&r);
	free(before);
	free(after);
}

TEST_F(kpers, bad_arguments_change_nothing)
{
	char junk[80], part[80];

	append_five(_metadata, self);
	refused(_metadata, self->arch, 2, "epoch 46: not the next epoch",
		KBCTL_ARGS(PC("append", self->arch, self->img[0], "epoch",
			      "46")));
	refused(_metadata, self->arch, 2, "epoch 'x'",
		KBCTL_ARGS(PC("append", self->arch, self->img[0], "epoch",
			      "x")));
	refused(_metadata, self->arch, 2, "IMAGE",
		KBCTL_ARGS(PC("append", self->arch, self->img[5])));
	refused(_metadata, self->arch, 2, "from 39",
		KBCTL_ARGS(PC("test", self->arch, "k", "from", "39")));
	refused(_metadata, self->arch, 2, "to 45",
		KBCTL_ARGS(PC("test", self->arch, "k", "to", "45")));
	refused(_metadata, self->arch, 2, "to 41",
		KBCTL_ARGS(PC("test", self->arch, "k", "from", "42", "to",
			      "41")));
	refused(_metadata, self->arch, 2, "KEY",
		KBCTL_ARGS(PC("test", self->arch, "1.2.3", "--key", "ipv4")));
	refused(_metadata, self->arch, 2, "'epoch': unknown keyword",
		KBCTL_ARGS(PC("test", self->arch, "k", "epoch", "1")));
	/* a partitioned image is no epoch; a file that is no image */
	snprintf(part, sizeof(part), "%s/part.img", self->dir);
	ASSERT_EQ(0, write_partitioned(part));
	refused(_metadata, self->arch, 3, "not a standard, blocked or counting filter",
		KBCTL_ARGS(PC("append", self->arch, part)));
	refused(_metadata, self->arch, 3, "IMAGE",
		KBCTL_ARGS(PC("append", self->arch, self->arch)));
	/* an image is no archive */
	snprintf(junk, sizeof(junk), "%s", self->img[1]);
	refused(_metadata, self->img[1], 3, "not a persistent archive",
		KBCTL_ARGS(PC("stat", junk)));
	refused(_metadata, self->img[1], 3, "not a persistent archive",
		KBCTL_ARGS(PC("append", junk, self->img[0])));
	/* a truncated image, an empty archive: said in words, not "Message too long" */
	snprintf(part, sizeof(part), "%s/short.img", self->dir);
	ASSERT_EQ(0, truncate_copy(self->img[0], part, 200));
	refused(_metadata, self->arch, 3, "truncated",
		KBCTL_ARGS(PC("append", self->arch, part)));
	refused(_metadata, "/dev/null", 3, "not a persistent archive",
		KBCTL_ARGS(PC("stat", "/dev/null")));
	/* a damaged last epoch (member 7 of 8): test reads it, stat too */
	ASSERT_EQ(0, damage_tail(self->arch));
	refused(_metadata, self->arch, 3, "damaged",
		KBCTL_ARGS(PC("test", self->arch, "k", "from", "44")));
	refused(_metadata, self->arch, 3, "damaged",
		KBCTL_ARGS(PC("stat", self->arch)));
}

/* plan: the epoch filter of kb_pers_plan(), its command; bad keywords. */
TEST_F(kpers, plan)
{
	struct kb_plan pl;
	struct kbctl_res r;
	char want[96];

	ASSERT_EQ(0, kb_pers_plan(KBLOOM_TYPE_STANDARD, 500, 32,
				  1000000000ULL, 0, &pl));
	snprintf(want, sizeof(want), "epoch filter: standard m=%llu k=%u",
		 (unsigned long long)pl.m, pl.k);
	ASSERT_EQ(0, kbctl_run(&r, PC("plan", "keys", "500", "range", "32",
				      "fpr", "0.1%", "type", "standard")))
		TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, want)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "at most 10 filters"));
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_run(&r, PC("plan", "keys", "500", "range", "32",
				      "fpr", "0.1%", "-j")));
	EXPECT_EQ(1, kbj_valid(r.out, r.out_len)) TH_LOG("%s", r.out);
	kbctl_free(&r);
	refused(_metadata, self->img[0], 2, "fpr P",
		KBCTL_ARGS(PC("plan", "keys", "500", "range", "32")));
	refused(_metadata, self->img[0], 2, "range '3000'",
		KBCTL_ARGS(PC("plan", "keys", "5", "range", "3000", "fpr",
			      "1%")));
	refused(_metadata, self->img[0], 2, "type 'cuckoo'",
		KBCTL_ARGS(PC("plan", "keys", "5", "range", "3", "fpr", "1%",
			      "type", "cuckoo")));
	refused(_metadata, self->img[0], 2, "too big",
		KBCTL_ARGS(PC("plan", "keys", "100000000", "range", "2048",
			      "fpr", "1%")));
}

TEST_HARNESS_MAIN
