// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl create NAME partitioned ... against the module: planned and
 * explicit geometry reach the module (read back with STAT), add and test
 * work, stat prints the slices, save and restore move the filter, and
 * every bad keyword is a usage error (exit 2) naming it, with nothing
 * created.
 */
#include <stdlib.h>

#include "guest_harness.h"
#include "kmod_util.h"
#include "core/kbloomctl_util.h"
#include "kbloomctl_create_util.h"
#include "uapi/kbloom_partitioned.h"

#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))

KU_CTL_FIXTURE(pt, "pt");

TEST_F(pt, create_keys_stat)
{
	struct kbloom_stat st;
	struct kbctl_res r;
	struct kb_shape s;

	CTL(0, "", "create", "pp", "partitioned", "capacity", "100000", "fpr",
	    "1%");
	ASSERT_OK(ku_stat(self->fd, "pp", &st));
	ASSERT_OK(kb_part_plan(100000, 10000000000ULL, &s));
	EXPECT_EQ(KBLOOM_TYPE_PARTITIONED, st.type);
	EXPECT_EQ(s.k, st.k);
	EXPECT_EQ(s.buckets, st.buckets);
	EXPECT_EQ(s.m, st.m);
	EXPECT_EQ(100000, st.capacity);

	CTL(0, "", "create", "pk", "partitioned", "hashes", "5", "slice-bits",
	    "1984", "seed", "9");
	ASSERT_OK(ku_stat(self->fd, "pk", &st));
	EXPECT_EQ(5, st.k);
	EXPECT_EQ(1984, st.buckets);
	EXPECT_EQ(5 * 1984, st.m);
	EXPECT_EQ(9, st.seed);
	/* -exist: the same geometry again is fine */
	CTL(0, "", "-exist", "create", "pk", "partitioned", "hashes", "5",
	    "slice-bits", "1984", "seed", "9");
	CTL(0, "", "add", "pk", "alpha", "beta");
	CTL(0, "alpha: possibly present\nbeta: possibly present\n", "test",
	    "pk", "alpha", "beta");
	EXPECT_EQ(0, kbctl_run(&r, "stat", "pk"));
	EXPECT_NE(NULL, strstr(r.out, "partitioned:  5 slices of 1984 bits"))
		TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "type:         partitioned\n"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	ASSERT_OK(ku_stat(self->fd, "pk", &st));
	EXPECT_EQ(10, st.ones);		/* 2 keys, one bit per slice each */
}

TEST_F(pt, save_restore)
{
	struct kbloom_stat a, b;
	struct kbctl_res r;

	CTL(0, "", "create", "ps", "partitioned", "hashes", "4", "slice-bits",
	    "4096");
	CTL(0, "", "add", "ps", "k1", "k2", "k3");
	ASSERT_EQ(0, kbctl_run(&r, "save", "ps", "-o", self->img))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "restore", "ps2", "-i", self->img))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	ASSERT_OK(ku_stat(self->fd, "ps", &a));
	ASSERT_OK(ku_stat(self->fd, "ps2", &b));
	EXPECT_EQ(KBLOOM_TYPE_PARTITIONED, b.type);
	EXPECT_EQ(a.m, b.m);
	EXPECT_EQ(a.buckets, b.buckets);
	EXPECT_EQ(a.ones, b.ones);
	EXPECT_EQ(a.inserted, b.inserted);
	CTL(0, "k1: possibly present\nk3: possibly present\n", "test", "ps2",
	    "k1", "k3");
}

TEST_F(pt, bad_keywords)
{
	BAD(self->fd, "slice-bits '100'", "partitioned", "hashes", "4",
	    "slice-bits", "100");
	BAD(self->fd, "hashes '33'", "partitioned", "hashes", "33",
	    "slice-bits", "64");
	BAD(self->fd, "slice-bits 2147483648: times hashes 4",
	    "partitioned", "hashes", "4", "slice-bits", "2147483648");
	BAD(self->fd, "hashes: needs slice-bits", "partitioned", "hashes",
	    "4");
	BAD(self->fd, "capacity: needs fpr", "partitioned", "capacity", "10");
	BAD(self->fd, "partitioned size", "partitioned", "capacity", "10",
	    "fpr", "1%", "hashes", "3");
	BAD(self->fd, "partitioned size", "partitioned");
	BAD(self->fd, "fp-bits", "partitioned", "fp-bits", "8");
}

/* plan's "partition" row: the standard k, m within k words above it. */
TEST(plan_row)
{
	unsigned long long sm, pm, sb, pb;
	unsigned int sk, pk;
	struct kbctl_res r;
	double sf, pf;
	const char *l;

	ASSERT_EQ(0, kbctl_run(&r, "plan", "capacity", "1000000", "fpr", "1%"));
	l = strstr(r.out, "\nstandard ");
	ASSERT_NE(NULL, l) TH_LOG("%s", r.out);
	ASSERT_EQ(4, sscanf(l + 10, "%llu %u %llu %*f %lf", &sm, &sk, &sb,
			    &sf));
	l = strstr(r.out, "\npartition ");
	ASSERT_NE(NULL, l) TH_LOG("%s", r.out);
	ASSERT_EQ(4, sscanf(l + 11, "%llu %u %llu %*f %lf", &pm, &pk, &pb,
			    &pf));
	EXPECT_EQ(sk, pk);
	EXPECT_LE(sm, pm);
	EXPECT_GT(sm + 64ULL * pk, pm);
	EXPECT_EQ(pm / 8, pb);
	EXPECT_LE(pf, 0.01);
	kbctl_free(&r);
}

TEST_HARNESS_MAIN
