// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl create NAME stable ... against the module: explicit and
 * planned geometry reach the module (read back with STAT), add and test
 * work, del is refused, stat prints the decay (decrement, Max, the zero
 * share now and at the stable point), save and restore move the filter,
 * plan has a stable row, and every bad keyword is a usage error (exit 2)
 * naming it, with nothing created.
 */
#include <stdlib.h>

#include "guest_harness.h"
#include "kmod_util.h"
#include "core/kbloomctl_util.h"
#include "kbloomctl_create_util.h"
#include "uapi/kbloom_var_stable.h"

#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))

KU_CTL_FIXTURE(sc, "sc");

TEST_F(sc, create_keys_stat)
{
	struct kbloom_stat st;
	struct kbctl_res r;
	struct kb_shape s;

	CTL(0, "", "create", "se", "stable", "cells", "65536", "decrement",
	    "10", "seed", "9");
	ASSERT_OK(ku_stat(self->fd, "se", &st));
	EXPECT_EQ(KBLOOM_TYPE_STABLE, st.type);
	EXPECT_EQ(65536, st.m);
	EXPECT_EQ(3, st.k);
	EXPECT_EQ(1, st.counter_bits);
	EXPECT_EQ(10, st.buckets);
	EXPECT_EQ(9, st.seed);
	EXPECT_EQ(KBLOOM_IMAGE_F_MAY_FN, st.image_flags);
	CTL(0, "", "-exist", "create", "se", "stable", "cells", "65536",
	    "decrement", "10", "seed", "9");
	CTL(0, "", "add", "se", "alpha", "beta");
	CTL(0, "beta: possibly present\n", "test", "se", "beta");
	EXPECT_EQ(3, kbctl_run(&r, "del", "se", "alpha"));
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "stat", "se"));
	EXPECT_NE(NULL, strstr(r.out, "type:         stable\n"))
		TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "stable:       decrement 10, Max 1 (1-bit cells); zero cells"))
		TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "(stable point 76.92%"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);

	/* planned: the least P for 1% with 4-bit cells and k = 4 */
	CTL(0, "", "create", "sp", "stable", "cells", "4096", "hashes", "4",
	    "cell-bits", "4", "fpr", "1%");
	ASSERT_OK(ku_stat(self->fd, "sp", &st));
	ASSERT_OK(kb_stable_shape_init(&s, 4096, 4, 4, 1));
	ASSERT_OK(kb_stable_plan(10000000000ULL, &s));
	EXPECT_EQ(s.buckets, st.buckets);
	EXPECT_EQ(4, st.counter_bits);
}

TEST_F(sc, save_restore)
{
	struct kbloom_stat a, b;
	struct kbctl_res r;

	CTL(0, "", "create", "ss", "stable", "cells", "4096", "decrement",
	    "4");
	CTL(0, "", "add", "ss", "k1", "k2", "k3");
	ASSERT_EQ(0, kbctl_run(&r, "save", "ss", "-o", self->img))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "restore", "ss2", "-i", self->img))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	ASSERT_OK(ku_stat(self->fd, "ss", &a));
	ASSERT_OK(ku_stat(self->fd, "ss2", &b));
	EXPECT_EQ(KBLOOM_TYPE_STABLE, b.type);
	EXPECT_EQ(a.m, b.m);
	EXPECT_EQ(a.buckets, b.buckets);
	EXPECT_EQ(a.ones, b.ones);
	EXPECT_EQ(a.inserted, b.inserted);
	CTL(0, "k3: possibly present\n", "test", "ss2", "k3");
}

TEST_F(sc, bad_keywords)
{
	BAD(self->fd, "missing cells M", "stable", "decrement", "10");
	BAD(self->fd, "give decrement P or fpr P", "stable", "cells", "4096");
	BAD(self->fd, "not both", "stable", "cells", "4096", "decrement",
	    "10", "fpr", "1%");
	BAD(self->fd, "cells '100'", "stable", "cells", "100", "decrement",
	    "10");
	BAD(self->fd, "decrement 100: more than cells", "stable", "cells",
	    "64", "decrement", "100");
	BAD(self->fd, "decrement '5000'", "stable", "cells", "65536",
	    "decrement", "5000");
	BAD(self->fd, "cell-bits '3'", "stable", "cells", "4096",
	    "decrement", "10", "cell-bits", "3");
	BAD(self->fd, "hashes '33'", "stable", "cells", "4096", "decrement",
	    "10", "hashes", "33");
	BAD(self->fd, "fpr: no decrement", "stable", "cells", "4096",
	    "hashes", "1", "fpr", "1e-9");
	BAD(self->fd, "fp-bits", "stable", "fp-bits", "8");
}

/* plan's "stable" row: the standard bits as cells, k = 3, rate met. */
TEST(plan_row)
{
	unsigned long long sm, tm, sb, tb;
	unsigned int sk, tk;
	struct kbctl_res r;
	double sf, tf;
	const char *l;

	ASSERT_EQ(0, kbctl_run(&r, "plan", "capacity", "1000000", "fpr", "1%"));
	l = strstr(r.out, "\nstandard ");
	ASSERT_NE(NULL, l) TH_LOG("%s", r.out);
	ASSERT_EQ(4, sscanf(l + 10, "%llu %u %llu %*f %lf", &sm, &sk, &sb,
			    &sf));
	l = strstr(r.out, "\nstable ");
	ASSERT_NE(NULL, l) TH_LOG("%s", r.out);
	ASSERT_EQ(4, sscanf(l + 8, "%llu %u %llu %*f %lf", &tm, &tk, &tb,
			    &tf));
	EXPECT_EQ(sm, tm);
	EXPECT_EQ(3, tk);
	EXPECT_EQ(sb, tb);
	EXPECT_LE(tf, 0.01);
	EXPECT_GT(tf, 0.009);
	kbctl_free(&r);
}

TEST_HARNESS_MAIN
