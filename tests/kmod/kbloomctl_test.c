// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl against kbloom.ko (in the guest, the module loaded): every
 * module command's success path, exit codes (0/1 of test and del, 2 for
 * usage, 3 with the errno text), -exist and -q, JSON output (checked with
 * the C validator: the guest has no python3), save -> restore through a
 * file, through standard output and input and through a pipe, the
 * progress line on a terminal, and the batch splitting of libkbloom_dev.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest_harness.h"
#include "libkbloom_dev.h"
#include "core/kbloomctl_util.h"

FIXTURE(ctl) {
	bool nodev;
	char dir[64];
};

FIXTURE_SETUP(ctl)
{
	struct kbctl_res r;

	if (access(KBLOOM_DEVICE, R_OK | W_OK)) {
		self->nodev = true;
		SKIP(return, "%s: %s (kbloom.ko not loaded)", KBLOOM_DEVICE,
		     strerror(errno));
	}
	unsetenv("KBLOOMCTL_DEVICE");
	strcpy(self->dir, "/tmp/kbctl-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_EQ(0, kbctl_run(&r, "destroy")) TH_LOG("%s", r.err);
	kbctl_free(&r);
}

FIXTURE_TEARDOWN(ctl)
{
	struct kbctl_res r;
	char cmd[96];

	if (self->nodev)
		return;
	kbctl_run(&r, "destroy");
	kbctl_free(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("cleanup of %s failed", self->dir);
}

#define NEED_DEV() do { if (self->nodev) return; } while (0)

/* Success: exit 0, nothing on stderr. */
#define OK(r, ...) do {							\
	EXPECT_EQ(0, kbctl_run(r, __VA_ARGS__)) TH_LOG("stderr: %s", (r)->err); \
	EXPECT_EQ(0, (int)(r)->err_len);				\
} while (0)

/* A path in the test's directory. */
static const char *in_dir(const char *dir, const char *name)
{
	static char buf[4][128];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

/* The number after "FIELD:" in stat's text output, or -1. */
static long long stat_num(const char *out, const char *field)
{
	char want[48];
	const char *p;

	snprintf(want, sizeof(want), "\n%s:", field);
	p = strstr(out, want);
	if (!p && !strncmp(out, want + 1, strlen(want) - 1))
		p = out - 1;
	if (!p)
		return -1;
	return strtoll(p + strlen(want), NULL, 0);
}

static long long stat_field(const char *name, const char *field)
{
	struct kbctl_res r;
	long long v;

	if (kbctl_run(&r, "stat", name)) {
		kbctl_free(&r);
		return -2;
	}
	v = stat_num(r.out, field);
	kbctl_free(&r);
	return v;
}

/* Write @n u64 keys @base, @base + 1, ... one per line. */
static int u64_file(const char *path, unsigned long long base, int n)
{
	FILE *f = fopen(path, "w");
	int i;

	if (!f)
		return -1;
	for (i = 0; i < n; i++)
		fprintf(f, "%llu\n", base + i);
	return fclose(f);
}

TEST_F(ctl, create_each_type)
{
	struct kbctl_res r, p;
	unsigned long long pm;
	unsigned int pk;
	char *row;

	NEED_DEV();
	OK(&r, "create", "c4", "counting", "capacity", "1000", "fpr", "1%");
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);
	OK(&r, "create", "c8", "counting", "capacity", "1000", "fpr", "1e-4",
	   "counter-bits", "8", "hash", "siphash", "seed", "42");
	kbctl_free(&r);
	OK(&r, "create", "b", "blocked", "capacity", "1000", "fpr", "0.01");
	kbctl_free(&r);
	OK(&r, "create", "s", "standard", "bits", "4096", "hashes", "5");
	kbctl_free(&r);

	OK(&r, "list");
	EXPECT_EQ(5, kbctl_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(0, strncmp(r.out, "NAME", 4));
	EXPECT_NE(NULL, strstr(r.out, "\nb "));
	EXPECT_NE(NULL, strstr(r.out, "\nc4 "));
	EXPECT_NE(NULL, strstr(r.out, " counting "));
	EXPECT_NE(NULL, strstr(r.out, " blocked "));
	EXPECT_NE(NULL, strstr(r.out, " standard "));
	kbctl_free(&r);
	OK(&r, "list", "s");
	EXPECT_EQ(2, kbctl_lines(r.out));
	kbctl_free(&r);

	OK(&r, "stat", "c8");
	EXPECT_NE(NULL, strstr(r.out, "type:         counting, 8-bit counters"));
	EXPECT_NE(NULL, strstr(r.out, "hash:         siphash, seed 0x000000000000002a"));
	EXPECT_NE(NULL, strstr(r.out, "capacity:     1000 keys at fpr 0.0001"));
	kbctl_free(&r);
	OK(&r, "stat", "s");
	EXPECT_NE(NULL, strstr(r.out, "m:            4096 bits\nk:            5\n"));
	EXPECT_NE(NULL, strstr(r.out, "bytes:        512\n"));
	EXPECT_NE(NULL, strstr(r.out, "capacity:     none"));
	EXPECT_NE(NULL, strstr(r.out, "no target"));
	kbctl_free(&r);

	/* the module sizes as plan says */
	OK(&p, "plan", "capacity", "1000", "fpr", "1%");
	row = strstr(p.out, "\nblocked ");
	ASSERT_NE(NULL, row);
	ASSERT_EQ(2, sscanf(row + 9, "%llu %u", &pm, &pk));
	EXPECT_EQ((long long)pm, stat_field("b", "m"));
	EXPECT_EQ((long long)pk, stat_field("b", "k"));
	kbctl_free(&p);

	/* device statistics */
	OK(&r, "stat");
	EXPECT_NE(NULL, strstr(r.out, "filters:      4\n"));
	kbctl_free(&r);
}

TEST_F(ctl, create_exist)
{
	struct kbctl_res r;

	NEED_DEV();
	OK(&r, "create", "x", "blocked", "bits", "8192", "hashes", "6");
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "create", "x", "blocked", "bits", "8192",
			       "hashes", "6"));
	EXPECT_STREQ("kbloomctl: create x: File exists (a filter of that name exists; -exist accepts an identical one)\n",
		     r.err);
	kbctl_free(&r);
	OK(&r, "create", "x", "blocked", "bits", "8192", "hashes", "6",
	   "-exist");
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "-exist", "create", "x", "blocked", "bits",
			       "8192", "hashes", "7"));
	EXPECT_NE(NULL, strstr(r.err, "create x: File exists"));
	kbctl_free(&r);
	/* a usage error creates nothing */
	EXPECT_EQ(2, kbctl_run(&r, "create", "y", "blocked", "bits", "8192",
			       "hashes", "70"));
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "stat", "y"));
	kbctl_free(&r);
}

TEST_F(ctl, add_test_del)
{
	struct kbctl_res r;

	NEED_DEV();
	OK(&r, "create", "c", "counting", "capacity", "1000", "fpr", "1e-6");
	kbctl_free(&r);
	OK(&r, "add", "c", "alpha", "beta", "gamma");
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);

	OK(&r, "test", "c", "alpha", "beta", "gamma");
	EXPECT_STREQ("alpha: possibly present\nbeta: possibly present\n"
		     "gamma: possibly present\n", r.out);
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "test", "c", "alpha", "delta"));
	EXPECT_STREQ("alpha: possibly present\ndelta: definitely absent\n",
		     r.out);
	EXPECT_EQ(0, (int)r.err_len);
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "test", "-q", "c", "delta"));
	EXPECT_EQ(0, (int)(r.out_len + r.err_len));
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "test", "c", "beta", "-q"));
	EXPECT_EQ(0, (int)(r.out_len + r.err_len));
	kbctl_free(&r);

	OK(&r, "del", "c", "beta");
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "test", "-q", "c", "beta"));
	kbctl_free(&r);
	EXPECT_EQ(2, stat_field("c", "inserted"));
	/* deleting an absent key: skipped, said, exit 1; -exist: silent */
	EXPECT_EQ(1, kbctl_run(&r, "del", "c", "beta", "alpha"));
	EXPECT_STREQ("kbloomctl: del c: 1 of 2 keys definitely absent, not deleted (-exist ignores them)\n",
		     r.err);
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "test", "-q", "c", "alpha"));
	kbctl_free(&r);
	OK(&r, "del", "c", "beta", "-exist");
	kbctl_free(&r);
	EXPECT_EQ(1, stat_field("c", "inserted"));
	/* -q keeps errors */
	EXPECT_EQ(3, kbctl_run(&r, "-q", "add", "nosuch", "k"));
	EXPECT_NE(0, (int)r.err_len);
	kbctl_free(&r);
}

TEST_F(ctl, encodings_are_bytes)
{
	struct kbctl_res r;

	NEED_DEV();
	OK(&r, "create", "e", "blocked", "capacity", "100", "fpr", "1e-6");
	kbctl_free(&r);
	OK(&r, "add", "e", "--key", "ipv4", "10.0.0.1");
	kbctl_free(&r);
	OK(&r, "add", "e", "--key=ipv6", "2001:db8::1");
	kbctl_free(&r);
	OK(&r, "add", "e", "--key", "u64", "1");
	kbctl_free(&r);
	OK(&r, "add", "e", "abc");
	kbctl_free(&r);
	OK(&r, "test", "-q", "e", "--key", "hex", "0a000001",
	   "20010db8000000000000000000000001", "0x0100000000000000",
	   "61:62:63");
	kbctl_free(&r);
	OK(&r, "test", "e", "--key", "ipv4", "10.0.0.1");
	EXPECT_STREQ("10.0.0.1: possibly present\n", r.out);
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "test", "e", "--key", "u64", "2", "0x1"));
	EXPECT_STREQ("2: definitely absent\n1: possibly present\n", r.out);
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "test", "e", "--key", "hex", "0a000002"));
	EXPECT_STREQ("0a000002: definitely absent\n", r.out);
	kbctl_free(&r);
	/* keys that start with '-' after "--" */
	OK(&r, "add", "e", "--", "-minus");
	kbctl_free(&r);
	OK(&r, "test", "-q", "e", "--key", "hex", "2d6d696e7573");
	kbctl_free(&r);
}

TEST_F(ctl, keys_from_file_and_stdin)
{
	const char *keys = in_dir(self->dir, "keys");
	struct kbctl_res r;

	NEED_DEV();
	ASSERT_EQ(0, u64_file(keys, 1000, 1000));
	OK(&r, "create", "f", "counting", "capacity", "2000", "fpr", "1e-5");
	kbctl_free(&r);
	OK(&r, "add", "f", "--key", "u64", "-f", keys);
	kbctl_free(&r);
	EXPECT_EQ(1000, stat_field("f", "inserted"));
	EXPECT_EQ(0, kbctl_run_in(&r, keys, "test", "-q", "f", "--key", "u64",
				  "-"));
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run_in(&r, keys, "test", "f", "--key", "u64", "-f",
				  "-"));
	EXPECT_EQ(1000, kbctl_lines(r.out));
	EXPECT_NE(NULL, strstr(r.out, "\n1999: possibly present\n"));
	kbctl_free(&r);
	/* delete them all from standard input */
	EXPECT_EQ(0, kbctl_run_in(&r, keys, "del", "f", "--key", "u64", "-"));
	kbctl_free(&r);
	EXPECT_EQ(0, stat_field("f", "inserted"));
	EXPECT_EQ(0, stat_field("f", "n_est"));
}

TEST_F(ctl, bad_batch_applies_nothing)
{
	const char *keys = in_dir(self->dir, "bad");
	struct kbctl_res r;
	FILE *f;
	int i;

	NEED_DEV();
	OK(&r, "create", "n", "blocked", "capacity", "1000", "fpr", "1%");
	kbctl_free(&r);
	f = fopen(keys, "w");
	ASSERT_NE(NULL, f);
	for (i = 1; i <= 100; i++)
		fprintf(f, i == 57 ? "192.0.2.%d.1\n" : "192.0.2.%d\n", i);
	fclose(f);
	EXPECT_EQ(2, kbctl_run(&r, "add", "n", "--key", "ipv4", "-f", keys));
	EXPECT_EQ(1, kbctl_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, ":57: key '192.0.2.57.1': not an IPv4 address"));
	kbctl_free(&r);
	EXPECT_EQ(0, stat_field("n", "inserted"));
	EXPECT_EQ(0, stat_field("n", "n_est"));
	EXPECT_EQ(1, kbctl_run(&r, "test", "-q", "n", "--key", "ipv4",
			       "192.0.2.1"));
	kbctl_free(&r);
}

TEST_F(ctl, json_outputs)
{
	struct kbctl_res r;

	NEED_DEV();
	OK(&r, "create", "j1", "counting", "capacity", "100", "fpr", "1%",
	   "seed", "0xffffffffffffffff");
	kbctl_free(&r);
	OK(&r, "create", "j2", "standard", "bits", "1024", "hashes", "3");
	kbctl_free(&r);
	OK(&r, "add", "j1", "x", "y\"quoted\"", "tab\there");
	kbctl_free(&r);

	OK(&r, "list", "-j");
	EXPECT_TRUE(kbj_valid(r.out, r.out_len)) TH_LOG("%s", r.out);
	EXPECT_EQ('[', r.out[0]);
	EXPECT_NE(NULL, strstr(r.out, "\"name\":\"j1\""));
	EXPECT_NE(NULL, strstr(r.out, "\"type\":\"standard\""));
	kbctl_free(&r);
	OK(&r, "-j", "stat", "j1");
	EXPECT_TRUE(kbj_valid(r.out, r.out_len)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\"inserted\":3"));
	EXPECT_NE(NULL, strstr(r.out, "\"seed\":\"0xffffffffffffffff\""));
	EXPECT_NE(NULL, strstr(r.out, "\"fpr_target\":0.01"));
	EXPECT_NE(NULL, strstr(r.out, "\"n_est\":"));
	EXPECT_NE(NULL, strstr(r.out, "\"occupancy\":"));
	kbctl_free(&r);
	OK(&r, "stat", "j2", "-j");
	EXPECT_TRUE(kbj_valid(r.out, r.out_len)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\"fpr_target\":null"));
	kbctl_free(&r);
	OK(&r, "stat", "-j");
	EXPECT_TRUE(kbj_valid(r.out, r.out_len)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\"filters\":2"));
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "test", "-j", "j1", "y\"quoted\"",
			       "tab\there", "nope"));
	EXPECT_TRUE(kbj_valid(r.out, r.out_len)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\"tested\":3,\"present\":2,\"absent\":1"));
	EXPECT_NE(NULL, strstr(r.out, "{\"key\":\"y\\\"quoted\\\"\",\"present\":true}"));
	EXPECT_NE(NULL, strstr(r.out, "{\"key\":\"tab\\\\x09here\",\"present\":true}"));
	EXPECT_NE(NULL, strstr(r.out, "{\"key\":\"nope\",\"present\":false}"));
	kbctl_free(&r);
	/* an empty list is an empty array */
	OK(&r, "destroy");
	kbctl_free(&r);
	OK(&r, "list", "-j");
	EXPECT_STREQ("[]\n", r.out);
	kbctl_free(&r);
}

TEST_F(ctl, stat_fields)
{
	const char *keys = in_dir(self->dir, "k");
	struct kbctl_res r;
	long long n_est;

	NEED_DEV();
	ASSERT_EQ(0, u64_file(keys, 0, 1000));
	OK(&r, "create", "st", "blocked", "capacity", "1000", "fpr", "1%");
	kbctl_free(&r);
	OK(&r, "add", "st", "--key", "u64", "-f", keys);
	kbctl_free(&r);
	OK(&r, "stat", "st");
	EXPECT_NE(NULL, strstr(r.out, "type:         blocked\n"));
	EXPECT_NE(NULL, strstr(r.out, "hash:         fast, seed 0x"));
	EXPECT_NE(NULL, strstr(r.out, "inserted:     1000\n"));
	EXPECT_NE(NULL, strstr(r.out, "occupancy:    "));
	EXPECT_NE(NULL, strstr(r.out, "% ("));
	EXPECT_NE(NULL, strstr(r.out, "saturations:  0\n"));
	EXPECT_NE(NULL, strstr(r.out, " now, target 0.01")) TH_LOG("%s", r.out);
	n_est = stat_num(r.out, "n_est");
	EXPECT_LT(900, n_est);
	EXPECT_GT(1100, n_est);
	kbctl_free(&r);
	/* quiet stat: nothing */
	OK(&r, "stat", "st", "-q");
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);
}

TEST_F(ctl, flush)
{
	struct kbctl_res r;

	NEED_DEV();
	OK(&r, "create", "f1", "counting", "capacity", "100", "fpr", "1e-6");
	kbctl_free(&r);
	OK(&r, "create", "f2", "blocked", "capacity", "100", "fpr", "1e-6");
	kbctl_free(&r);
	OK(&r, "add", "f1", "k1", "k2");
	kbctl_free(&r);
	OK(&r, "add", "f2", "k1");
	kbctl_free(&r);
	OK(&r, "flush", "f1");
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "test", "-q", "f1", "k1"));
	kbctl_free(&r);
	EXPECT_EQ(0, stat_field("f1", "inserted"));
	EXPECT_EQ(0, kbctl_run(&r, "test", "-q", "f2", "k1"));
	kbctl_free(&r);
	OK(&r, "flush");
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "test", "-q", "f2", "k1"));
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "flush", "nosuch"));
	EXPECT_STREQ("kbloomctl: flush nosuch: No such file or directory (no filter named nosuch)\n",
		     r.err);
	kbctl_free(&r);
	OK(&r, "flush", "nosuch", "-exist");
	kbctl_free(&r);
}

/* stat lines that a save -> restore must keep */
static void same_stat(struct __test_metadata *_metadata, const char *a,
		      const char *b)
{
	static const char *const fields[] = { "m", "k", "inserted",
					      "saturations", "n_est" };
	struct kbctl_res ra, rb;
	char *ha, *hb;
	int i;

	ASSERT_EQ(0, kbctl_run(&ra, "stat", a));
	ASSERT_EQ(0, kbctl_run(&rb, "stat", b));
	for (i = 0; i < 5; i++)
		EXPECT_EQ(stat_num(ra.out, fields[i]),
			  stat_num(rb.out, fields[i])) TH_LOG("field %d", i);
	ha = strstr(ra.out, "\ntype:");
	hb = strstr(rb.out, "\ntype:");
	ASSERT_NE(NULL, ha);
	ASSERT_NE(NULL, hb);
	/* type, hash and seed, m, k, bytes, capacity: the same lines */
	EXPECT_EQ(0, strncmp(ha, hb, strstr(ha, "\ninserted:") - ha))
		TH_LOG("\n%s\n%s", ra.out, rb.out);
	kbctl_free(&ra);
	kbctl_free(&rb);
}

TEST_F(ctl, save_restore_file)
{
	const char *img = in_dir(self->dir, "a.img");
	const char *keys = in_dir(self->dir, "keys");
	struct kbctl_res r;

	NEED_DEV();
	ASSERT_EQ(0, u64_file(keys, 7, 500));
	OK(&r, "create", "a", "counting", "capacity", "1000", "fpr", "1e-4",
	   "hash", "siphash");
	kbctl_free(&r);
	OK(&r, "add", "a", "--key", "u64", "-f", keys);
	kbctl_free(&r);
	OK(&r, "save", "a", "-o", img);
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);

	/* under another name, next to the original */
	OK(&r, "restore", "a2", "-i", img);
	kbctl_free(&r);
	same_stat(_metadata, "a", "a2");
	OK(&r, "test", "-q", "a2", "--key", "u64", "-f", keys);
	kbctl_free(&r);

	/* under its own name, after a destroy */
	OK(&r, "destroy", "a");
	kbctl_free(&r);
	OK(&r, "restore", "-i", img);
	kbctl_free(&r);
	same_stat(_metadata, "a", "a2");
	OK(&r, "test", "-q", "a", "--key", "u64", "-f", keys);
	kbctl_free(&r);

	/* existing: refused, nothing changed; --replace swaps */
	OK(&r, "flush", "a");
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "restore", "-i", img));
	EXPECT_STREQ("kbloomctl: restore a: File exists (use --replace)\n",
		     r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, stat_field("a", "inserted"));
	OK(&r, "restore", "-i", img, "--replace");
	kbctl_free(&r);
	EXPECT_EQ(500, stat_field("a", "inserted"));
	OK(&r, "test", "-q", "a", "--key", "u64", "-f", keys);
	kbctl_free(&r);
	/* the saved file is a valid image of 128 + payload bytes */
	OK(&r, "save", "a", "-o", img);
	kbctl_free(&r);
}

TEST_F(ctl, save_restore_stdio_and_pipe)
{
	const char *img = in_dir(self->dir, "s.img");
	struct kbctl_res r, ra;

	NEED_DEV();
	OK(&r, "create", "src", "blocked", "capacity", "1000", "fpr", "1e-3");
	kbctl_free(&r);
	OK(&r, "add", "src", "one", "two", "three");
	kbctl_free(&r);

	/* standard output to a file, standard input from it */
	EXPECT_EQ(0, kbctl_run_out(&r, img, "save", "src"));
	EXPECT_EQ(0, (int)r.err_len);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run_in(&r, img, "restore", "dst1"));
	EXPECT_EQ(0, (int)r.err_len) TH_LOG("%s", r.err);
	kbctl_free(&r);
	same_stat(_metadata, "src", "dst1");
	EXPECT_EQ(0, kbctl_run_out(&r, img, "save", "src", "-o", "stdout"));
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run_in(&r, img, "restore", "dst2", "-i", "-"));
	kbctl_free(&r);
	OK(&r, "test", "-q", "dst2", "one", "two", "three");
	kbctl_free(&r);

	/* kbloomctl save src | kbloomctl restore dst3 */
	EXPECT_EQ(0, kbctl_run_pipe(&ra, &r, KBCTL_ARGS("save", "src"),
				    KBCTL_ARGS("restore", "dst3")));
	EXPECT_EQ(0, ra.status) TH_LOG("%s", ra.err);
	EXPECT_EQ(0, (int)(ra.err_len + r.err_len)) TH_LOG("%s%s", ra.err, r.err);
	kbctl_free(&ra);
	kbctl_free(&r);
	same_stat(_metadata, "src", "dst3");
	OK(&r, "test", "-q", "dst3", "one", "two", "three");
	kbctl_free(&r);
	/* a pipe into an existing name without --replace */
	kbctl_run_pipe(&ra, &r, KBCTL_ARGS("save", "src"),
		       KBCTL_ARGS("restore", "dst3"));
	EXPECT_EQ(3, r.status);
	EXPECT_NE(NULL, strstr(r.err, "restore dst3: File exists"));
	kbctl_free(&ra);
	kbctl_free(&r);
}

TEST_F(ctl, save_all_restore_all)
{
	const char *img = in_dir(self->dir, "all.img");
	struct kbctl_res r;

	NEED_DEV();
	OK(&r, "create", "p", "counting", "capacity", "100", "fpr", "1%");
	kbctl_free(&r);
	OK(&r, "create", "q", "blocked", "capacity", "100", "fpr", "1%");
	kbctl_free(&r);
	OK(&r, "create", "r", "standard", "capacity", "100", "fpr", "1%");
	kbctl_free(&r);
	OK(&r, "add", "p", "kp");
	kbctl_free(&r);
	OK(&r, "add", "q", "kq");
	kbctl_free(&r);
	OK(&r, "add", "r", "kr");
	kbctl_free(&r);
	OK(&r, "save", "-o", img);
	kbctl_free(&r);
	OK(&r, "destroy");
	kbctl_free(&r);
	OK(&r, "list");
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);
	OK(&r, "restore", "-i", img);
	kbctl_free(&r);
	OK(&r, "list");
	EXPECT_EQ(4, kbctl_lines(r.out)) TH_LOG("%s", r.out);
	kbctl_free(&r);
	OK(&r, "test", "-q", "p", "kp");
	kbctl_free(&r);
	OK(&r, "test", "-q", "q", "kq");
	kbctl_free(&r);
	OK(&r, "test", "-q", "r", "kr");
	kbctl_free(&r);
	/* one NAME and several images: refused before anything changes */
	EXPECT_EQ(2, kbctl_run(&r, "restore", "z", "-i", img));
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "stat", "z"));
	kbctl_free(&r);
	/* all of them back, atomically replaced */
	OK(&r, "restore", "-i", img, "--replace");
	kbctl_free(&r);
	/* nothing to save: an empty stream, which restores to nothing */
	OK(&r, "destroy");
	kbctl_free(&r);
	OK(&r, "save", "-o", img);
	kbctl_free(&r);
	OK(&r, "restore", "-i", img);
	kbctl_free(&r);
}

TEST_F(ctl, destroy)
{
	struct kbctl_res r;

	NEED_DEV();
	OK(&r, "create", "d1", "blocked", "bits", "512", "hashes", "1");
	kbctl_free(&r);
	OK(&r, "create", "d2", "blocked", "bits", "512", "hashes", "1");
	kbctl_free(&r);
	OK(&r, "destroy", "d1");
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "destroy", "d1"));
	EXPECT_STREQ("kbloomctl: destroy d1: No such file or directory (no filter named d1)\n",
		     r.err);
	kbctl_free(&r);
	OK(&r, "destroy", "d1", "-exist");
	kbctl_free(&r);
	OK(&r, "destroy");
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "stat", "d2"));
	kbctl_free(&r);
	OK(&r, "stat");
	EXPECT_NE(NULL, strstr(r.out, "filters:      0\n"));
	kbctl_free(&r);
}

TEST_F(ctl, system_errors)
{
	struct kbctl_res r;

	NEED_DEV();
	EXPECT_EQ(3, kbctl_run(&r, "stat", "nosuch"));
	EXPECT_STREQ("kbloomctl: stat nosuch: No such file or directory (no filter named nosuch)\n",
		     r.err);
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "add", "nosuch", "k"));
	EXPECT_STREQ("kbloomctl: add nosuch: No such file or directory (no filter named nosuch; nothing applied)\n",
		     r.err);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "test", "nosuch", "k"));
	EXPECT_NE(NULL, strstr(r.err, "test nosuch: No such file or directory"));
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "list", "nosuch"));
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "save", "nosuch", "-o",
			       in_dir(self->dir, "never")));
	EXPECT_NE(NULL, strstr(r.err, "save nosuch: No such file or directory"));
	kbctl_free(&r);
	EXPECT_NE(0, access(in_dir(self->dir, "never"), F_OK));
	OK(&r, "create", "bl", "blocked", "bits", "512", "hashes", "2");
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "del", "bl", "k"));
	EXPECT_STREQ("kbloomctl: del bl: Operation not supported (only counting filters delete; nothing applied)\n",
		     r.err);
	kbctl_free(&r);
	/* larger than the module accepts */
	EXPECT_EQ(3, kbctl_run(&r, "create", "huge", "counting", "bits",
			       "4294967296", "hashes", "3", "counter-bits",
			       "8"));
	EXPECT_NE(NULL, strstr(r.err, "create huge: "));
	kbctl_free(&r);
}

/* Big work shows a progress line on a terminal, and only there. */
TEST_F_TIMEOUT(ctl, progress_on_terminal, 600)
{
	const char *keys = in_dir(self->dir, "big");
	const char *img = in_dir(self->dir, "big.img");
	struct kbctl_res r;

	NEED_DEV();
	ASSERT_EQ(0, u64_file(keys, 1, 300000));
	OK(&r, "create", "big", "blocked", "capacity", "300000", "fpr", "1%");
	kbctl_free(&r);
	kbctl_run_pty(&r, NULL, KBCTL_ARGS("add", "big", "--key", "u64", "-f",
					   keys));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "kbloomctl: add big: 100% (300000 of 300000 keys)"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	EXPECT_EQ(300000, stat_field("big", "inserted"));
	/* not a terminal, or -q: no progress */
	OK(&r, "test", "-q", "big", "--key", "u64", "-f", keys);
	kbctl_free(&r);
	kbctl_run_pty(&r, NULL, KBCTL_ARGS("-q", "test", "big", "--key", "u64",
					   "-f", keys));
	EXPECT_EQ(0, r.status);
	EXPECT_EQ(0, (int)r.out_len) TH_LOG("%s", r.out);
	kbctl_free(&r);

	/* a 5 MiB image: saving and restoring show progress */
	OK(&r, "create", "wide", "blocked", "bits", "41943040", "hashes", "6");
	kbctl_free(&r);
	kbctl_run_pty(&r, img, KBCTL_ARGS("save", "wide"));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "kbloomctl: save wide: 100% (5.0 of 5.0 MiB)"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	kbctl_run_pty(&r, NULL, KBCTL_ARGS("restore", "wide2", "-i", img));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "kbloomctl: restore: read: 100%"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
}

/* libkbloom_dev splits big sets into ioctls and reports what it applied. */
TEST_F(ctl, dev_batch_split)
{
	struct kbloom_dev_batch b = { .max_keys = 1000 };
	__u8 keys[2500 * 8], res[2500 / 8 + 1], var[3000 * 66];
	size_t vlen = 0;
	struct kbctl_res r;
	long hits;
	int fd, i;

	NEED_DEV();
	OK(&r, "create", "lib", "counting", "capacity", "10000", "fpr", "1e-6");
	kbctl_free(&r);
	fd = kbloom_dev_open(NULL);
	ASSERT_LE(0, fd);
	for (i = 0; i < 2500; i++)
		memcpy(keys + 8 * i, &(__u64){ i * 2 }, 8);
	/* keys 0 .. 2499 (even values) go in, in 3 ioctls */
	ASSERT_EQ(0, kbloom_dev_add_batch(fd, "lib", keys, sizeof(keys), 8,
					  2500, &b));
	EXPECT_EQ(2500, b.done);
	EXPECT_EQ(3, b.ioctls);
	/* test odd values at a few positions, across the chunk borders */
	for (i = 0; i < 2500; i++)
		if (i == 7 || i == 999 || i == 1000 || i == 2001 || i == 2499)
			memcpy(keys + 8 * i, &(__u64){ i * 2 + 1 }, 8);
	memset(res, 0xee, sizeof(res));
	hits = kbloom_dev_test_batch(fd, "lib", keys, sizeof(keys), 8, 2500,
				     res, &b);
	EXPECT_EQ(2495, hits);
	EXPECT_EQ(2500, b.done);
	for (i = 0; i < 2500; i++) {
		bool in = res[i / 8] & (1U << (i % 8));

		EXPECT_EQ(!(i == 7 || i == 999 || i == 1000 || i == 2001 ||
			    i == 2499), in) TH_LOG("key %d", i);
	}
	/* delete them: 5 are absent and skipped */
	ASSERT_EQ(0, kbloom_dev_del_batch(fd, "lib", keys, sizeof(keys), 8,
					  2500, &b));
	EXPECT_EQ(2495, b.done);
	EXPECT_EQ(5, b.hits);
	EXPECT_EQ(3, b.ioctls);
	EXPECT_EQ(5, stat_field("lib", "inserted"));

	/* variable keys split by bytes: 66-byte limit of 8 keys per ioctl */
	for (i = 0; i < 3000; i++) {
		int len = 1 + i % 64;

		var[vlen++] = len;
		memset(var + vlen, i & 0xff, len);
		var[vlen] = (__u8)(i >> 8);
		vlen += len;
	}
	b = (struct kbloom_dev_batch){ .max_bytes = 600 };
	EXPECT_EQ(-EINVAL, kbloom_dev_add_batch(fd, "lib", var, vlen - 1, 0,
						3000, &b));
	EXPECT_EQ(0, b.ioctls);
	ASSERT_EQ(0, kbloom_dev_add_batch(fd, "lib", var, vlen, 0, 3000, &b));
	EXPECT_EQ(3000, b.done);
	EXPECT_LT(100, b.ioctls);
	hits = kbloom_dev_test_batch(fd, "lib", var, vlen, 0, 3000, NULL, &b);
	EXPECT_EQ(3000, hits);
	/* a failing ioctl part-way: what was applied is reported */
	EXPECT_EQ(-ENOENT, kbloom_dev_add_batch(fd, "nosuch", var, vlen, 0,
						3000, &b));
	EXPECT_EQ(0, b.done);
	EXPECT_EQ(-EINVAL, kbloom_dev_add_batch(fd, "bad name", var, vlen, 0,
						3000, &b));
	kbloom_dev_close(fd);
}

TEST_HARNESS_MAIN
