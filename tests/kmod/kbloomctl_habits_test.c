// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl's ipset and RedisBloom habits against kbloom.ko (in the
 * guest): list -n (names only, -j: strings), -p (indented JSON, still
 * valid), add -j (per key: new, or possibly present before; the second
 * of two equal keys is not new), the warning past a planned capacity,
 * and the messages of the smaller defects of issue 17: test on a missing
 * filter, list of a missing filter (no table header before the error),
 * a second create of a name (the -exist hint), a rate below the 1e-12
 * resolution ("<1e-12 now", as map stat and gate stat print it); swap
 * and rename (ipset's), their messages and exit codes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest_harness.h"
#include "libkbloom_dev.h"
#include "core/kbloomctl_util.h"

FIXTURE(hab) {
	bool nodev;
};

FIXTURE_SETUP(hab)
{
	struct kbctl_res r;

	if (access(KBLOOM_DEVICE, R_OK | W_OK)) {
		self->nodev = true;
		SKIP(return, "%s: %s (kbloom.ko not loaded)", KBLOOM_DEVICE,
		     strerror(errno));
	}
	unsetenv("KBLOOMCTL_DEVICE");
	ASSERT_EQ(0, kbctl_run(&r, "destroy")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_run(&r, "create", "hb", "blocked", "capacity", "4",
			       "fpr", "0.01")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_run(&r, "create", "ha", "counting", "capacity",
			       "100", "fpr", "0.01")) TH_LOG("%s", r.err);
	kbctl_free(&r);
}

FIXTURE_TEARDOWN(hab)
{
	struct kbctl_res r;

	if (self->nodev)
		return;
	kbctl_run(&r, "destroy");
	kbctl_free(&r);
}

TEST_F(hab, list_names_only)
{
	struct kbctl_res r;

	if (self->nodev)
		return;
	EXPECT_EQ(0, kbctl_run(&r, "list", "-n")) TH_LOG("%s", r.err);
	EXPECT_STREQ("ha\nhb\n", r.out);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "list", "-n", "-j"));
	EXPECT_STREQ("[\"ha\",\"hb\"]\n", r.out);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "list", "hb", "--name"));
	EXPECT_STREQ("hb\n", r.out);
	kbctl_free(&r);
}

TEST_F(hab, pretty_json)
{
	struct kbctl_res r;

	if (self->nodev)
		return;
	EXPECT_EQ(0, kbctl_run(&r, "stat", "hb", "-p")) TH_LOG("%s", r.err);
	EXPECT_EQ(1, kbj_valid(r.out, r.out_len)) TH_LOG("%s", r.out);
	EXPECT_EQ(0, strncmp(r.out, "{\n  \"name\": \"hb\",\n", 18))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "list", "-n", "-p"));
	EXPECT_STREQ("[\n  \"ha\",\n  \"hb\"\n]\n", r.out);
	kbctl_free(&r);
	/* -p where -j is not accepted: refused like -j */
	EXPECT_EQ(2, kbctl_run(&r, "flush", "hb", "-p"));
	EXPECT_NE(NULL, strstr(r.err, "option -p: not accepted by flush"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
}

TEST_F(hab, add_json_reports_new_keys)
{
	struct kbctl_res r;

	if (self->nodev)
		return;
	EXPECT_EQ(0, kbctl_run(&r, "add", "ha", "a")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "add", "ha", "a", "b", "b", "-j"))
		TH_LOG("%s", r.err);
	EXPECT_EQ(1, kbj_valid(r.out, r.out_len)) TH_LOG("%s", r.out);
	EXPECT_STREQ("{\"filter\":\"ha\",\"added\":3,\"new\":1,\"keys\":["
		     "{\"key\":\"a\",\"new\":false},"
		     "{\"key\":\"b\",\"new\":true},"
		     "{\"key\":\"b\",\"new\":false}]}\n", r.out);
	EXPECT_EQ(0, (int)r.err_len) TH_LOG("%s", r.err);
	kbctl_free(&r);
	/* a missing filter: the error of the test before the add */
	EXPECT_EQ(3, kbctl_run(&r, "add", "nosuch", "a", "-j"));
	EXPECT_NE(NULL, strstr(r.err, "add nosuch")) TH_LOG("%s", r.err);
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);
}

TEST_F(hab, capacity_warning)
{
	struct kbctl_res r;

	if (self->nodev)
		return;
	EXPECT_EQ(0, kbctl_run(&r, "add", "hb", "1", "2", "3", "4"));
	EXPECT_EQ(0, (int)r.err_len) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "add", "hb", "5"));
	EXPECT_NE(NULL, strstr(r.err, "add hb: 5 insertions, past the planned capacity 4: the false-positive rate is above its target 0.01"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "add", "hb", "6", "-q"));
	EXPECT_EQ(0, (int)r.err_len) TH_LOG("%s", r.err);
	kbctl_free(&r);
}

TEST_F(hab, missing_filter_messages)
{
	struct kbctl_res r;

	if (self->nodev)
		return;
	EXPECT_EQ(3, kbctl_run(&r, "test", "nosuch", "a"));
	EXPECT_STREQ("kbloomctl: test nosuch: No such file or directory (no filter named nosuch)\n",
		     r.err);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "list", "nosuch"));
	EXPECT_EQ(0, (int)r.out_len) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.err, "no filter named nosuch"));
	kbctl_free(&r);
}

TEST_F(hab, create_twice_hints_exist)
{
	struct kbctl_res r;

	if (self->nodev)
		return;
	EXPECT_EQ(3, kbctl_run(&r, "create", "hb", "blocked", "capacity", "4",
			       "fpr", "0.01"));
	EXPECT_NE(NULL, strstr(r.err, "create hb: File exists (a filter of that name exists; -exist accepts an identical one)"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "create", "hb", "counting", "capacity",
			       "4", "fpr", "0.01", "-exist"));
	EXPECT_NE(NULL, strstr(r.err, "differs in type or geometry"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	/* the survey variants' create (create_send()) says the same */
	EXPECT_EQ(0, kbctl_run(&r, "create", "hc", "cuckoo", "capacity", "100",
			       "fpr", "0.01")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "create", "hc", "cuckoo", "capacity", "100",
			       "fpr", "0.01"));
	EXPECT_NE(NULL, strstr(r.err, "create hc: File exists (a filter of that name exists; -exist accepts an identical one)"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
}

TEST_F(hab, tiny_rate_one_spelling)
{
	struct kbctl_res r;

	if (self->nodev)
		return;
	EXPECT_EQ(0, kbctl_run(&r, "create", "big", "blocked", "bits",
			       "1048576", "hashes", "8")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "stat", "big"));
	EXPECT_NE(NULL, strstr(r.out, "\nfpr:          0 now, no target\n"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "add", "big", "a"));
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "stat", "big"));
	EXPECT_NE(NULL, strstr(r.out, "\nfpr:          <1e-12 now, no target\n"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
}

TEST_F(hab, swap_and_rename)
{
	struct kbctl_res r;

	if (self->nodev)
		return;
	EXPECT_EQ(0, kbctl_run(&r, "add", "ha", "x")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "swap", "ha", "hb")) TH_LOG("%s", r.err);
	EXPECT_EQ(0, (int)r.out_len + (int)r.err_len);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "test", "hb", "x")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "stat", "ha", "-j"));
	EXPECT_NE(NULL, strstr(r.out, "\"type\":\"blocked\"")) TH_LOG("%s", r.out);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "rename", "hb", "hc")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "list", "-n"));
	EXPECT_STREQ("ha\nhc\n", r.out);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "test", "hc", "x")) TH_LOG("%s", r.err);
	kbctl_free(&r);
}

TEST_F(hab, swap_and_rename_errors)
{
	struct kbctl_res r;

	if (self->nodev)
		return;
	EXPECT_EQ(3, kbctl_run(&r, "swap", "ha", "nosuch"));
	EXPECT_STREQ("kbloomctl: swap ha nosuch: No such file or directory (no filter named nosuch)\n",
		     r.err);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "swap", "nosuch", "hb"));
	EXPECT_NE(NULL, strstr(r.err, "(no filter named nosuch)"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "rename", "nosuch", "hx"));
	EXPECT_NE(NULL, strstr(r.err, "(no filter named nosuch)"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "rename", "ha", "hb"));
	EXPECT_STREQ("kbloomctl: rename ha hb: File exists (a filter named hb exists: destroy it first, or swap)\n",
		     r.err);
	kbctl_free(&r);
	EXPECT_EQ(2, kbctl_run(&r, "swap", "ha", "ha"));
	EXPECT_STREQ("kbloomctl: swap: NAME2 'ha': the same name as NAME (allowed: another name)\n",
		     r.err);
	kbctl_free(&r);
	EXPECT_EQ(2, kbctl_run(&r, "rename", "ha", "h/b"));
	EXPECT_NE(NULL, strstr(r.err, "rename: NEW 'h/b': invalid character"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(2, kbctl_run(&r, "swap", "ha"));
	kbctl_free(&r);
	/* nothing changed */
	EXPECT_EQ(0, kbctl_run(&r, "list", "-n"));
	EXPECT_STREQ("ha\nhb\n", r.out);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "stat", "ha", "-j"));
	EXPECT_NE(NULL, strstr(r.out, "\"type\":\"counting\""))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
}

TEST_HARNESS_MAIN
