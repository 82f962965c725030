// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl create NAME dleft ... and create NAME countmin ... against the
 * module: the geometry reaches the module (read back with STAT), the keys
 * commands and count work on them, stat prints their lines, and every bad
 * keyword is a usage error (exit 2) naming it, with nothing created.
 */
#include "guest_harness.h"
#include "kmod_util.h"
#include "core/kbloomctl_util.h"
#include "kbloomctl_create_util.h"

#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))

FIXTURE(sk) {
	int fd;
};

FIXTURE_SETUP(sk)
{
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ASSERT_OK(ku_destroy_all(self->fd));
}

FIXTURE_TEARDOWN(sk)
{
	ku_destroy_all(self->fd);
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
	close(self->fd);
}

TEST_F(sk, dleft)
{
	struct kbloom_stat st;
	struct kbctl_res r;

	CTL(0, "", "create", "dl", "dleft", "capacity", "100000", "fpr", "1%");
	ASSERT_OK(ku_stat(self->fd, "dl", &st));
	EXPECT_EQ(KBLOOM_TYPE_DLEFT, st.type);
	EXPECT_EQ(4, st.tables);
	EXPECT_EQ(8, st.slots);
	EXPECT_EQ(2, st.counter_bits);
	EXPECT_EQ(0, st.buckets & (st.buckets - 1));
	CTL(0, "", "add", "dl", "alpha", "beta", "beta");
	CTL(0, "alpha: 1\nbeta: 2\ngamma: 0\n", "count", "dl", "alpha", "beta",
	    "gamma");
	CTL(0, "", "del", "dl", "beta");
	CTL(0, "beta: 1\n", "count", "dl", "beta");
	EXPECT_EQ(0, kbctl_run(&r, "stat", "dl"));
	EXPECT_NE(NULL, strstr(r.out, "d-left:       4 subtables of")) TH_LOG("%s", r.out);
	kbctl_free(&r);

	CTL(0, "", "create", "dl2", "dleft", "fp-bits", "12", "slots", "4",
	    "tables", "2", "buckets", "256", "counter-bits", "4", "seed", "9");
	ASSERT_OK(ku_stat(self->fd, "dl2", &st));
	EXPECT_EQ(2 * 256 * 4, st.m);
	EXPECT_EQ(12, st.fp_bits);
	EXPECT_EQ(9, st.seed);
	/* -exist: the same geometry again is fine */
	CTL(0, "", "-exist", "create", "dl2", "dleft", "fp-bits", "12",
	    "slots", "4", "tables", "2", "buckets", "256", "counter-bits", "4");

	BAD(self->fd, "buckets '1000'", "dleft", "fp-bits", "12", "slots", "4",
	    "tables", "2", "buckets", "1000", "counter-bits", "4");
	BAD(self->fd, "tables '9'", "dleft", "tables", "9");
	BAD(self->fd, "counter-bits '3'", "dleft", "counter-bits", "3");
	BAD(self->fd, "buckets: not with capacity", "dleft", "capacity", "10",
	    "fpr", "1%", "buckets", "8");
	BAD(self->fd, "capacity: needs fpr", "dleft", "capacity", "10");
	BAD(self->fd, "d-left size", "dleft", "fp-bits", "12");
}

TEST_F(sk, countmin)
{
	struct kbloom_stat st;
	struct kbctl_res r;

	CTL(0, "", "create", "cm", "countmin", "epsilon", "0.1%", "delta", "1%");
	ASSERT_OK(ku_stat(self->fd, "cm", &st));
	EXPECT_EQ(KBLOOM_TYPE_COUNT_MIN, st.type);
	EXPECT_EQ(5, st.tables);
	EXPECT_EQ(2719, st.buckets);
	EXPECT_EQ(32, st.counter_bits);
	CTL(0, "", "add", "cm", "alpha", "alpha", "alpha", "beta");
	CTL(0, "alpha: 3\nbeta: 1\n", "count", "cm", "alpha", "beta");
	CTL(0, "", "del", "cm", "alpha");
	CTL(0, "alpha: 2\n", "count", "cm", "alpha");
	EXPECT_EQ(0, kbctl_run(&r, "stat", "cm"));
	EXPECT_NE(NULL, strstr(r.out, "count-min:    5 rows of 2719 32-bit counters, update all"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);

	CTL(0, "", "create", "mi", "countmin", "width", "1024", "rows", "3",
	    "counter-bits", "16", "update", "min-inc");
	ASSERT_OK(ku_stat(self->fd, "mi", &st));
	EXPECT_EQ(3 * 1024, st.m);
	EXPECT_EQ(KB_CM_MIN_INC, st.update);
	EXPECT_EQ(16, st.counter_bits);
	/* minimal increase cannot delete */
	CTL(0, "", "add", "mi", "alpha");
	CTL(3, "", "del", "mi", "alpha");

	BAD(self->fd, "Count-Min rows", "countmin", "epsilon", "0.1%");
	BAD(self->fd, "Count-Min width", "countmin", "epsilon", "0.1%",
	    "width", "100", "rows", "3");
	BAD(self->fd, "width '10'", "countmin", "width", "10", "rows", "3");
	BAD(self->fd, "delta: too small", "countmin", "epsilon", "0.1%",
	    "delta", "1e-9");
	BAD(self->fd, "update 'x'", "countmin", "update", "x");
	BAD(self->fd, "counter-bits '8'", "countmin", "counter-bits", "8");
}

TEST_HARNESS_MAIN
