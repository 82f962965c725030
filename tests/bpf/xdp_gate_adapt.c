// SPDX-License-Identifier: GPL-2.0
/*
 * The gate's adaptive mode (struct kbloom_gate_cfg, bpf/kbloom_gate.h) on
 * synthetic frames (BPF_PROG_TEST_RUN, the thread pinned to one CPU so
 * that every frame lands in the same per-CPU window):
 *
 *  - a flood of listed sources switches the CPU to direct mode (exact
 *    lookups without the filter), unlisted sources switch it back, and
 *    gate stats shows both switches;
 *  - over a sequence of sources whose listed share swings between floods
 *    and trickles, with a planned filter and with a tiny one (false
 *    positives everywhere), and after deletions, every verdict is the
 *    exact set's: the mode never changes one;
 *  - the counters add up in both modes; turning the mode off sends the
 *    next packet through the filter again; bad percentages are refused.
 * And the batch calls (kbloom_gate_add_batch(), _del_batch()): all or
 * nothing, the index of the address at fault.
 */
#include <sched.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"

#define NLISTED	200U
#define NDEL	20U	/* listed addresses 0..NDEL-1 are deleted by a test */

FIXTURE(adapt) {
	char name[64];
	struct kbloom_xdp *x;
	int prog;
};

FIXTURE_VARIANT(adapt) {
	__u64 m;	/* 0: planned for 1024 keys at 0.01% */
	__u32 k;
};

FIXTURE_VARIANT_ADD(adapt, planned) {
	.m = 0,
};

/* a tiny filter: most unlisted addresses are false positives */
FIXTURE_VARIANT_ADD(adapt, tiny) {
	.m = 512,
	.k = 1,
};

static void ad_cleanup(FIXTURE_DATA(adapt) *self)
{
	if (self->prog > 0)
		close(self->prog);
	self->prog = 0;
	if (self->x)
		kbloom_xdp_close(self->x);
	self->x = NULL;
	if (self->name[0])
		kbt_unpin(self->name);
}

static void addr_of(__u8 a[4], __u32 i, int listed)
{
	a[0] = 10;
	a[1] = listed ? 1 : 2;
	a[2] = (__u8)(i >> 8);
	a[3] = (__u8)i;
}

static int ad_fill(struct kbloom_xdp *x)
{
	struct kbloom_addr_key k[NLISTED];
	__u32 i, at;

	memset(k, 0, sizeof(k));
	for (i = 0; i < NLISTED; i++) {
		k[i].len = KBLOOM_ADDR4_LEN;
		addr_of(k[i].addr, i, 1);
	}
	return kbloom_gate_add_batch(x, k, NLISTED, 0, &at);
}

static int ad_setup(FIXTURE_DATA(adapt) *self,
		    const FIXTURE_VARIANT(adapt) *variant)
{
	struct kbloom_xdp_opts o = {
		.mode = KBLOOM_GATE_DENY,
		.geom = { .m = variant->m, .k = variant->k },
	};
	cpu_set_t cpus;
	int ret;

	CPU_ZERO(&cpus);
	CPU_SET(sched_getcpu() > 0 ? sched_getcpu() : 0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		return -1;
	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "gadapt");
	ret = kbloom_xdp_create(self->name, KBLOOM_XDP_GATE, &o, &self->x);
	ret = ret ?: ad_fill(self->x);
	if (ret)
		return ret;
	self->prog = kbt_prog(self->name, "prog_gate");
	return self->prog > 0 ? 0 : -1;
}

FIXTURE_SETUP(adapt)
{
	int ret = ad_setup(self, variant);

	if (ret)
		ad_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(adapt)
{
	ad_cleanup(self);
}

static const __u8 dst4[4] = { 10, 0, 0, 100 };
static const struct kbt_payload pl = { KBT_MAGIC, 0, 0, 0 };

/* The gate's verdict on a frame from 10.1.x.y (listed) or 10.2.x.y. */
static __u32 verdict(int prog, __u32 i, int listed)
{
	struct kbt_frame_opts o = {
		.dst = dst4, .payload = &pl, .plen = sizeof(pl),
	};
	__u8 src[4], f[128];
	__u32 rv = XDP_ABORTED;

	addr_of(src, i, listed);
	o.src = src;
	if (kbt_run(prog, f, (__u32)kbt_frame(f, &o), 0, &rv))
		return 0xdead;
	return rv;
}

/*
 * @n frames, listed with probability @pct % (addresses NDEL.. of the set):
 * how many verdicts were wrong.
 */
static int burst(int prog, __u32 n, __u32 pct, __u64 *seed)
{
	int wrong = 0, listed;
	__u32 i, a;

	for (i = 0; i < n; i++) {
		listed = kbt_rand(seed) % 100 < pct;
		a = NDEL + kbt_rand(seed) % (NLISTED - NDEL);
		if (verdict(prog, a, listed) !=
		    (listed ? XDP_DROP : XDP_PASS))
			wrong++;
	}
	return wrong;
}

static void expect_sums(struct __test_metadata *_metadata,
			const struct kbloom_gate_stats *s)
{
	EXPECT_EQ(s->packets, s->not_ip + s->malformed +
		  s->filter_negatives + s->exact_lookups + s->direct_lookups);
	EXPECT_EQ(s->exact_lookups, s->exact_hits + s->false_positives);
	EXPECT_EQ(s->packets, s->drops + s->passed);
}

TEST_F(adapt, switches_both_ways)
{
	struct kbloom_gate_stats s;
	__u32 on, off;
	__u64 seed = 1;

	EXPECT_EQ(0, kbloom_gate_adapt(self->x, &on, &off));
	EXPECT_EQ(0, on);	/* off in a new gate */
	ASSERT_EQ(0, kbloom_gate_set_adapt(self->x, 75, 50));
	EXPECT_EQ(0, kbloom_gate_adapt(self->x, &on, &off));
	EXPECT_EQ(75, on);
	EXPECT_EQ(50, off);

	/* a flood of listed sources: direct mode */
	EXPECT_EQ(0, burst(self->prog, 4 * KBLOOM_GATE_ADAPT_WINDOW, 100,
			   &seed));
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &s));
	EXPECT_EQ(1, s.to_direct);
	EXPECT_EQ(0, s.to_filter);
	EXPECT_EQ(1, s.direct_now);
	EXPECT_EQ(3 * KBLOOM_GATE_ADAPT_WINDOW, s.direct_lookups);
	EXPECT_EQ(s.direct_lookups, s.direct_hits);
	expect_sums(_metadata, &s);

	/* unlisted sources: back to the filter */
	EXPECT_EQ(0, burst(self->prog, 2 * KBLOOM_GATE_ADAPT_WINDOW, 0,
			   &seed));
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &s));
	EXPECT_EQ(1, s.to_direct);
	EXPECT_EQ(1, s.to_filter);
	EXPECT_EQ(0, s.direct_now);
	EXPECT_EQ(4 * KBLOOM_GATE_ADAPT_WINDOW, s.direct_lookups);
	expect_sums(_metadata, &s);
}

TEST_F(adapt, never_changes_a_verdict)
{
	static const __u32 pcts[] = { 100, 0, 90, 10, 60, 99, 1, 80, 40, 100 };
	struct kbloom_gate_stats s;
	__u64 seed = 7;
	__u8 a[4];
	__u32 i;

	ASSERT_EQ(0, kbloom_gate_set_adapt(self->x, 75, 50));
	for (i = 0; i < ARRAY_SIZE(pcts); i++)
		EXPECT_EQ(0, burst(self->prog, 300, pcts[i], &seed))
			TH_LOG("burst %u (%u%% listed)", i, pcts[i]);
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &s));
	EXPECT_LE(2, s.to_direct);
	EXPECT_LE(2, s.to_filter);
	expect_sums(_metadata, &s);

	/* deleted addresses pass in both modes (their bits stay) */
	for (i = 0; i < NDEL; i++) {
		addr_of(a, i, 1);
		ASSERT_EQ(0, kbloom_gate_del(self->x, a, 4));
	}
	EXPECT_EQ(0, burst(self->prog, 300, 100, &seed));	/* direct */
	for (i = 0; i < NDEL; i++)
		EXPECT_EQ(XDP_PASS, verdict(self->prog, i, 1));
	EXPECT_EQ(XDP_DROP, verdict(self->prog, NDEL, 1));
	EXPECT_EQ(0, burst(self->prog, 300, 0, &seed));	/* filter */
	for (i = 0; i < NDEL; i++)
		EXPECT_EQ(XDP_PASS, verdict(self->prog, i, 1));
}

TEST_F(adapt, off_and_bad_settings)
{
	struct kbloom_gate_stats a, b;
	__u64 seed = 3;

	EXPECT_EQ(-EINVAL, kbloom_gate_set_adapt(self->x, 50, 75));
	EXPECT_EQ(-EINVAL, kbloom_gate_set_adapt(self->x, 101, 0));
	EXPECT_EQ(-EINVAL, kbloom_gate_set_adapt(NULL, 75, 50));
	ASSERT_EQ(0, kbloom_gate_set_adapt(self->x, 75, 50));
	EXPECT_EQ(0, burst(self->prog, 2 * KBLOOM_GATE_ADAPT_WINDOW, 100,
			   &seed));
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &a));
	ASSERT_EQ(1, a.direct_now);
	/* off: the next packet goes through the filter again */
	ASSERT_EQ(0, kbloom_gate_set_adapt(self->x, 0, 0));
	EXPECT_EQ(XDP_DROP, verdict(self->prog, 5, 1));
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &b));
	EXPECT_EQ(a.direct_lookups, b.direct_lookups);
	EXPECT_EQ(a.exact_lookups + 1, b.exact_lookups);
	EXPECT_EQ(a.to_filter, b.to_filter);
}

/* The batches: all or nothing, with the index of the address at fault. */
TEST_F(adapt, batches_all_or_nothing)
{
	struct kbloom_addr_key k[4];
	__u32 at, i;

	memset(k, 0, sizeof(k));
	for (i = 0; i < 4; i++) {
		k[i].len = KBLOOM_ADDR4_LEN;
		addr_of(k[i].addr, 1000 + i, 0);
	}
	addr_of(k[2].addr, 7, 1);		/* listed already */
	EXPECT_EQ(-EEXIST, kbloom_gate_add_batch(self->x, k, 4, 0, &at));
	EXPECT_EQ(2, at);
	EXPECT_EQ(XDP_PASS, verdict(self->prog, 1000, 0));
	EXPECT_EQ(0, kbloom_gate_add_batch(self->x, k, 4,
					   KBLOOM_GATE_BATCH_EXIST, &at));
	EXPECT_EQ(XDP_DROP, verdict(self->prog, 1000, 0));
	EXPECT_EQ(XDP_DROP, verdict(self->prog, 1003, 0));

	k[3].addr[3] ^= 0x55;			/* not in the set */
	EXPECT_EQ(-ENOENT, kbloom_gate_del_batch(self->x, k, 4, 0, &at));
	EXPECT_EQ(3, at);
	EXPECT_EQ(XDP_DROP, verdict(self->prog, 1000, 0));
	EXPECT_EQ(XDP_DROP, verdict(self->prog, 7, 1));

	k[1] = k[0];				/* twice in one batch */
	k[0].addr[3] ^= 0x77;
	k[1].addr[3] ^= 0x77;
	EXPECT_EQ(-EEXIST, kbloom_gate_add_batch(self->x, k, 2, 0, &at));
	EXPECT_EQ(1, at);
	k[1].addr[15] = 1;			/* not zero after len */
	EXPECT_EQ(-EINVAL, kbloom_gate_add_batch(self->x, k, 2, 0, &at));
	EXPECT_EQ(1, at);
	EXPECT_EQ(-EINVAL, kbloom_gate_add_batch(self->x, k, 2, 2, &at));
	EXPECT_EQ(-EINVAL, kbloom_gate_add_batch(self->x, NULL, 2, 0, &at));
}

TEST_HARNESS_MAIN
