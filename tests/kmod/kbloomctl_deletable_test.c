// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl create NAME deletable ... against the module: planned and
 * explicit geometry reach the module (read back with STAT), add, test and
 * del work (a key that is not deletable is refused with a line that says
 * so, and stays), stat prints the regions, the refusals and the
 * predicted deletable share, save and restore move the filter, every bad
 * keyword is a usage error (exit 2) naming it with nothing created, and
 * plan has a deletable row.
 */
#include <stdlib.h>

#include "guest_harness.h"
#include "kmod_util.h"
#include "core/kbloomctl_util.h"
#include "kbloomctl_create_util.h"
#include "uapi/kbloom_var_deletable.h"

#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))

KU_CTL_FIXTURE(dl, "dl");

TEST_F(dl, create_keys_stat)
{
	struct kbloom_stat st;
	struct kbctl_res r;
	struct kb_shape s;

	CTL(0, "", "create", "dp", "deletable", "capacity", "100000", "fpr",
	    "1%");
	ASSERT_OK(ku_stat(self->fd, "dp", &st));
	ASSERT_OK(kb_del_plan(100000, 10000000000ULL, 0, &s));
	EXPECT_EQ(KBLOOM_TYPE_DELETABLE, st.type);
	EXPECT_EQ(s.k, st.k);
	EXPECT_EQ(s.m, st.m);
	EXPECT_EQ(4, st.buckets);
	EXPECT_EQ(100000, st.capacity);

	CTL(0, "", "create", "dk", "deletable", "bits", "4096", "hashes", "3",
	    "region-bits", "8", "seed", "9");
	ASSERT_OK(ku_stat(self->fd, "dk", &st));
	EXPECT_EQ(3, st.k);
	EXPECT_EQ(4096, st.m);
	EXPECT_EQ(8, st.buckets);
	EXPECT_EQ(9, st.seed);
	CTL(0, "", "-exist", "create", "dk", "deletable", "bits", "4096",
	    "hashes", "3", "region-bits", "8", "seed", "9");
	CTL(0, "", "add", "dk", "alpha", "beta");
	CTL(0, "alpha: possibly present\nbeta: possibly present\n", "test",
	    "dk", "alpha", "beta");
	CTL(0, "", "del", "dk", "alpha");
	CTL(0, "beta: possibly present\n", "test", "dk", "beta");
	EXPECT_EQ(0, kbctl_run(&r, "stat", "dk"));
	EXPECT_NE(NULL, strstr(r.out, "deletable:    512 regions of 8 bits; 0 deletes refused"))
		TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "type:         deletable\n"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	ASSERT_OK(ku_stat(self->fd, "dk", &st));
	EXPECT_EQ(1, st.inserted);
}

/* A key added twice has every region collided: its del is refused. */
TEST_F(dl, refused_del)
{
	struct kbloom_stat st;
	struct kbctl_res r;

	CTL(0, "", "create", "dr", "deletable", "bits", "4096", "hashes", "4");
	CTL(0, "", "add", "dr", "twice", "twice");
	EXPECT_EQ(3, kbctl_run(&r, "del", "dr", "twice"));
	EXPECT_NE(NULL, strstr(r.err, "collided regions (deletable)"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	CTL(0, "twice: possibly present\n", "test", "dr", "twice");
	ASSERT_OK(ku_stat(self->fd, "dr", &st));
	EXPECT_EQ(1, st.kicks);
	EXPECT_EQ(2, st.inserted);
}

TEST_F(dl, save_restore)
{
	struct kbloom_stat a, b;
	struct kbctl_res r;

	CTL(0, "", "create", "ds", "deletable", "bits", "8192", "hashes", "4");
	CTL(0, "", "add", "ds", "k1", "k2", "k3");
	CTL(0, "", "del", "ds", "k2");
	ASSERT_EQ(0, kbctl_run(&r, "save", "ds", "-o", self->img))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "restore", "ds2", "-i", self->img))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	ASSERT_OK(ku_stat(self->fd, "ds", &a));
	ASSERT_OK(ku_stat(self->fd, "ds2", &b));
	EXPECT_EQ(KBLOOM_TYPE_DELETABLE, b.type);
	EXPECT_EQ(a.m, b.m);
	EXPECT_EQ(a.buckets, b.buckets);
	EXPECT_EQ(a.ones, b.ones);
	EXPECT_EQ(2, b.inserted);
	CTL(0, "k1: possibly present\nk3: possibly present\n", "test", "ds2",
	    "k1", "k3");
	CTL(0, "", "del", "ds2", "k3");
}

TEST_F(dl, bad_keywords)
{
	BAD(self->fd, "bits '100'", "deletable", "bits", "100", "hashes",
	    "4");
	BAD(self->fd, "hashes '33'", "deletable", "bits", "4096", "hashes",
	    "33");
	BAD(self->fd, "region-bits '3'", "deletable", "bits", "4096",
	    "hashes", "4", "region-bits", "3");
	BAD(self->fd, "region-bits", "deletable", "bits", "4096", "hashes",
	    "4", "region-bits", "131072");
	BAD(self->fd, "not a multiple of region-bits 128", "deletable",
	    "bits", "4160", "hashes", "4", "region-bits", "128");
	BAD(self->fd, "bits: needs hashes", "deletable", "bits", "4096");
	BAD(self->fd, "capacity: needs fpr", "deletable", "capacity", "10");
	BAD(self->fd, "deletable size", "deletable", "capacity", "10", "fpr",
	    "1%", "hashes", "3");
	BAD(self->fd, "deletable size", "deletable");
	BAD(self->fd, "slice-bits", "deletable", "slice-bits", "64");
}

/* plan's "deletable" row: the standard k and m, and the bitmap's bytes. */
TEST(plan_row)
{
	unsigned long long sm, dm, sb, db;
	unsigned int sk, dk;
	struct kbctl_res r;
	double sf, df;
	const char *l;

	ASSERT_EQ(0, kbctl_run(&r, "plan", "capacity", "1000000", "fpr", "1%"));
	l = strstr(r.out, "\nstandard ");
	ASSERT_NE(NULL, l) TH_LOG("%s", r.out);
	ASSERT_EQ(4, sscanf(l + 10, "%llu %u %llu %*f %lf", &sm, &sk, &sb,
			    &sf));
	l = strstr(r.out, "\ndeletable ");
	ASSERT_NE(NULL, l) TH_LOG("%s", r.out);
	ASSERT_EQ(4, sscanf(l + 11, "%llu %u %llu %*f %lf", &dm, &dk, &db,
			    &df));
	EXPECT_EQ(sk, dk);
	EXPECT_LE(sm, dm);
	EXPECT_GT(sm + 64, dm);
	EXPECT_EQ(dm / 8 + (dm / 4 + 63) / 64 * 8, db);
	EXPECT_LE(df, 0.01);
	kbctl_free(&r);
}

TEST_HARNESS_MAIN
