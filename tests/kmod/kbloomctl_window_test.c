// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl create NAME window ... against the module: the time form of
 * the issue (seconds 60 fpr 0.1%) and the count form (keys N) reach the
 * module (read back with STAT), add and test work, stat prints the
 * window, the slices, the head and the generation, save and restore move
 * the window, plan has a window row, and every bad keyword is a usage
 * error (exit 2) naming it, with nothing created.
 */
#include <stdlib.h>

#include "guest_harness.h"
#include "kmod_util.h"
#include "core/kbloomctl_util.h"
#include "kbloomctl_create_util.h"
#include "uapi/kbloom_var_window.h"

#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))
#define P_01PCT		1000000000ULL

KU_CTL_FIXTURE(wc, "wc");

static void expect_out(struct __test_metadata *_metadata, const char *name,
		       const char *want)
{
	struct kbctl_res r;

	EXPECT_EQ(0, kbctl_run(&r, "stat", name));
	EXPECT_NE(NULL, strstr(r.out, want)) TH_LOG("%s", r.out);
	kbctl_free(&r);
}

TEST_F(wc, seconds)
{
	struct kbloom_stat st;
	struct kb_shape s;

	/* generations of 60 s: no rotation before the last stat, even under
	 * TCG on a loaded host (with 6 s, one came and head was 19)
	 */
	CTL(0, "", "create", "ws", "window", "seconds", "600", "fpr", "0.1%");
	ASSERT_OK(ku_stat(self->fd, "ws", &st));
	ASSERT_OK(kb_win_plan(100000, P_01PCT, 0, 0, KB_WIN_CLOCK_NS, &s));
	EXPECT_EQ(KBLOOM_TYPE_AGE_PARTITIONED, st.type);
	EXPECT_EQ(KB_WIN_CLOCK_NS, st.update);
	EXPECT_EQ(s.k, st.k);
	EXPECT_EQ(s.tables, st.tables);
	EXPECT_EQ(s.buckets, st.buckets);
	EXPECT_EQ(100000, st.capacity);
	EXPECT_EQ(kb_win_gen_len(600000000000ULL, s.tables), st.gen_len);
	CTL(0, "", "add", "ws", "192.0.2.7", "198.51.100.1");
	CTL(0, "192.0.2.7: possibly present\n", "test", "ws", "192.0.2.7");
	expect_out(_metadata, "ws", "type:         window\n");
	expect_out(_metadata, "ws", "window:       ");
	expect_out(_metadata, "ws", "generations of");
	expect_out(_metadata, "ws", "generation:   age ");
	expect_out(_metadata, "ws", "head 0\n");
}

TEST_F(wc, keys_rotate_and_images)
{
	struct kbloom_stat a, b;
	struct kbctl_res r;

	CTL(0, "", "create", "wk", "window", "keys", "4", "hashes", "3",
	    "extra-slices", "2", "slice-bits", "1024", "seed", "5");
	CTL(0, "", "-exist", "create", "wk", "window", "keys", "4", "hashes",
	    "3", "extra-slices", "2", "slice-bits", "1024", "seed", "5");
	/* generations of 2 keys: the fifth add rotates twice over */
	CTL(0, "", "add", "wk", "k1", "k2", "k3", "k4", "k5", "k6", "k7");
	CTL(0, "k4: possibly present\nk7: possibly present\n", "test", "wk",
	    "k4", "k7");
	CTL(1, "k1: definitely absent\n", "test", "wk", "k1");
	ASSERT_OK(ku_stat(self->fd, "wk", &a));
	EXPECT_EQ(3, a.rotations);
	EXPECT_EQ(1, a.gen_clock);
	EXPECT_EQ(2, a.head);
	expect_out(_metadata, "wk",
		   "slices:       5 of 1024 bits (k 3 + l 2), head 2\n");
	expect_out(_metadata, "wk",
		   "window:       4 keys: 2 generations of 2 (up to 6 kept)\n");
	expect_out(_metadata, "wk", "generation:   1 of 2 keys, 3 rotations\n");
	ASSERT_EQ(0, kbctl_run(&r, "save", "wk", "-o", self->img))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "restore", "wk2", "-i", self->img))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	ASSERT_OK(ku_stat(self->fd, "wk2", &b));
	EXPECT_EQ(a.head, b.head);
	EXPECT_EQ(a.rotations, b.rotations);
	EXPECT_EQ(a.gen_clock, b.gen_clock);
	EXPECT_EQ(a.ones, b.ones);
	CTL(0, "k7: possibly present\n", "test", "wk2", "k7");
}

TEST_F(wc, bad_keywords)
{
	BAD(self->fd, "window: give one of", "window", "fpr", "1%");
	BAD(self->fd, "window: give one of", "window", "keys", "10",
	    "seconds", "1", "fpr", "1%");
	BAD(self->fd, "window size", "window", "keys", "10");
	BAD(self->fd, "capacity: a keys window", "window", "keys", "10",
	    "capacity", "5", "fpr", "1%");
	BAD(self->fd, "slice-bits '100'", "window", "keys", "10", "hashes",
	    "3", "extra-slices", "2", "slice-bits", "100");
	BAD(self->fd, "slice-bits: needs hashes", "window", "keys", "10",
	    "slice-bits", "128");
	BAD(self->fd, "extra-slices '33'", "window", "keys", "10", "fpr",
	    "1%", "extra-slices", "33");
	BAD(self->fd, "milliseconds 3: generations under 1 ms", "window",
	    "milliseconds", "3", "fpr", "1%", "extra-slices", "4");
	BAD(self->fd, "keys '0'", "window", "keys", "0", "fpr", "1%");
	BAD(self->fd, "fpr: too big", "window", "keys", "1099511627776",
	    "fpr", "1e-9");
}

/* A window may forget: xdp attach gate and mcast refuse it, nothing made. */
TEST_F(wc, refused_by_gate_and_mcast)
{
	struct kbctl_res r;

	CTL(0, "", "create", "wg", "window", "keys", "100", "fpr", "1%");
	EXPECT_EQ(2, kbctl_run(&r, "xdp", "attach", "gate", "kbwc-gate", "dev",
			       "lo", "mode", "generic", "module-filter", "wg"));
	EXPECT_NE(NULL, strstr(r.err, "module-filter 'wg': a window filter may forget keys (MAY_FN)"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(2, kbctl_run(&r, "xdp", "attach", "mcast", "kbwc-mc", "dev",
			       "lo", "mode", "generic", "module-filter", "wg"));
	EXPECT_NE(NULL, strstr(r.err, "MAY_FN")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_NE(0, kbctl_run(&r, "xdp", "status", "kbwc-gate"));
	kbctl_free(&r);
}

/* plan's "window" row: at most the target, k from it. */
TEST(plan_row)
{
	unsigned long long m, b;
	struct kbctl_res r;
	unsigned int k;
	const char *l;
	double f;

	ASSERT_EQ(0, kbctl_run(&r, "plan", "capacity", "70000", "fpr",
			       "0.1%"));
	l = strstr(r.out, "\nwindow ");
	ASSERT_NE(NULL, l) TH_LOG("%s", r.out);
	ASSERT_EQ(4, sscanf(l + 8, "%llu %u %llu %*f %lf", &m, &k, &b, &f));
	EXPECT_EQ(10, k);
	EXPECT_EQ(m / 8, b);
	EXPECT_LE(f, 0.001);
	kbctl_free(&r);
}

TEST_HARNESS_MAIN
