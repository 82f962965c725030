// SPDX-License-Identifier: GPL-2.0
/*
 * The mcbf path end to end, on real frames between network namespaces.
 *
 *            h0   h1   h2   h3        hs (sender)
 *            |    |    |    |         |
 *           p0   p1   p2   p3        p4      switch namespace
 *
 * Every switch port runs kbloom_mcbf_ingress and is in the devmap with
 * kbloom_mcbf_egress; every host end runs an XDP_PASS program.  Each
 * host port has a Multi-Class Bloom filter of 512 bits with its own
 * class table: h0's from the optimiser (kb_mcbf_optimize() over three
 * classes of presence probabilities 0.8, 0.2 and 0.02), the others fixed
 * ones, each with a class left unused; each port holds the host's groups
 * plus 60 groups nobody sends to, so that false positives happen.  The
 * sender sends every group of a set of 64 (IPv4 and IPv6, classes 0..3)
 * through AF_PACKET:
 *
 *  - each host receives exactly the groups its filter says "possibly
 *    present" (kb_mcbf_test() of the control plane's copy): its own and
 *    the predicted false positives, never a group of an unused class;
 *  - the port counters agree: tx_leaked counts the false positives,
 *    tx_unused the copies of an unused class, tx_filtered the rest.
 */
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/mcbf_util.h"

#define NHOSTS		4
#define NPORTS		(NHOSTS + 1)
#define SENDER		NHOSTS
#define NGROUPS		64
#define NBACK		60	/* groups in each filter nobody sends to */
#define ROUNDS		20

FIXTURE(e2e) {
	char name[64];
	struct kbt_ns sw, host[NPORTS];
	struct kbloom_net *n;
	int port[NPORTS];
	int rx[NPORTS];
	int pass_link[NPORTS];
	struct kbloom_mcbf_spec spec[NPORTS];
	struct kb_mcbf *f[NPORTS];
	struct kbloom_addr_key group[NGROUPS];
	__u64 joins[NHOSTS];	/* bit g: host joined group g */
};

static void sw_cleanup(FIXTURE_DATA(e2e) *self)
{
	int i;

	for (i = 0; i < NPORTS; i++) {
		if (self->rx[i] > 0)
			close(self->rx[i]);
		if (self->pass_link[i] > 0)
			close(self->pass_link[i]);
		self->rx[i] = self->pass_link[i] = 0;
		kb_mcbf_free(self->f[i]);
		self->f[i] = NULL;
		kbt_ns_free(&self->host[i]);
	}
	kbloom_net_close(self->n);
	self->n = NULL;
	if (self->name[0])
		kbt_unpin(self->name);
	kbt_ns_free(&self->sw);
}

/* The class tables: h0's from the optimiser, the others fixed. */
static int class_tables(FIXTURE_DATA(e2e) *self)
{
	static const struct kb_mcbf_class_spec cs[3] = {
		{ .groups = 20, .p = 0.8, .w = 1 },
		{ .groups = 50, .p = 0.2, .w = 1 },
		{ .groups = 200, .p = 0.02, .w = 5 },
	};
	static const __u8 fixed[NPORTS][4] = {
		{ 0 }, { 2, 0, 4, 3 }, { 1, 3, 0, 6 }, { 0, 2, 5, 8 },
		{ 1 },
	};
	struct kb_mcbf_plan plan;
	__u32 i, c;
	int ret;

	ret = kb_mcbf_optimize(512, cs, 3, 1, 16, &plan);
	if (ret)
		return ret;
	for (i = 0; i < NPORTS; i++) {
		self->spec[i].m = 512;
		self->spec[i].seed = 100 + i;
		for (c = 0; c < 4; c++)
			self->spec[i].classes.k[c] = i ? fixed[i][c] :
						     (c < 3 ? plan.k[c] : 0);
	}
	return 0;
}

static int sw_setup(FIXTURE_DATA(e2e) *self)
{
	struct kbloom_addr_key g[NGROUPS + NBACK];
	struct kbloom_net_opts o = {};
	__u32 i, j, ng, cls;
	int saved, ret;
	char a[16];

	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "mcbf");
	if (class_tables(self) || kbt_ns_quiet(&self->sw))
		return -1;
	for (i = 0; i < NPORTS; i++) {
		if (kbt_ns_quiet(&self->host[i]))
			return -1;
		snprintf(a, sizeof(a), "p%u", i);
		if (kbt_veth(&self->sw, a, &self->host[i], "eth0", i))
			return -1;
		self->port[i] = kbt_ifindex(&self->sw, a);
	}
	for (j = 0; j < NGROUPS; j++)
		mcbf_group(&self->group[j], j & 1, j % 4, 1000 + j);
	o.netns = self->sw.path;
	ret = kbloom_net_create(self->name, KBLOOM_NET_MCBF, &o, &self->n);
	if (ret)
		return ret;
	for (i = 0; i < NPORTS; i++) {
		/* the host's groups (of its used classes), then background */
		ng = 0;
		if (i < NHOSTS) {
			self->joins[i] = 0x9249249249249249ULL >> i;
			for (j = 0; j < NGROUPS; j++) {
				cls = j % 4;
				if (!(self->joins[i] >> j & 1) ||
				    !self->spec[i].classes.k[cls]) {
					self->joins[i] &= ~(1ULL << j);
					continue;
				}
				g[ng++] = self->group[j];
			}
			for (j = 0; j < NBACK; j++) {
				cls = j % 4;
				while (!self->spec[i].classes.k[cls])
					cls = (cls + 1) % 4;
				mcbf_group(&g[ng++], j & 1, cls, 50000 + j);
			}
		}
		self->f[i] = mcbf_build(&self->spec[i], g, ng);
		if (!self->f[i])
			return -1;
		ret = kbloom_mcbf_port_build(self->n, self->port[i],
					     &self->spec[i], g, ng);
		ret = ret ?: kbloom_net_attach(self->n, self->port[i],
					       KBLOOM_XDP_MODE_NATIVE, NULL);
		if (ret)
			return ret;
		if (kbt_ns_enter(&self->host[i], &saved))
			return -1;
		ret = kbloom_xdp_pass_attach(if_nametoindex("eth0"),
					     KBLOOM_XDP_MODE_NATIVE, NULL,
					     &self->pass_link[i]);
		kbt_ns_leave(saved);
		if (ret)
			return ret;
		self->rx[i] = kbt_psock(&self->host[i], "eth0");
		if (self->rx[i] < 0)
			return -1;
	}
	return 0;
}

FIXTURE_SETUP(e2e)
{
	int ret = sw_setup(self);

	if (ret)
		sw_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(e2e)
{
	sw_cleanup(self);
}

static void drain(FIXTURE_DATA(e2e) *self, __u32 cnt[NPORTS][NGROUPS])
{
	struct kbt_payload pl;
	double last = kbt_now();
	int i, got;

	while (kbt_now() - last < 0.3) {
		got = 0;
		for (i = 0; i < NPORTS; i++)
			while (kbt_precv(self->rx[i], &pl)) {
				if (cnt && pl.magic == KBT_MAGIC &&
				    pl.group < NGROUPS)
					cnt[i][pl.group]++;
				got = 1;
			}
		if (got)
			last = kbt_now();
		else
			usleep(2000);
	}
}

TEST_F_TIMEOUT(e2e, members_and_counted_false_positives, 90)
{
	struct kbloom_mcbf_stats st[NPORTS], before[NPORTS];
	__u32 cnt[NPORTS][NGROUPS] = {}, i, g, r, sent = 0, fps = 0;
	__u32 want, got, leaked, unused, total;
	__u8 f[256];
	size_t n;
	int tx;

	for (i = 0; i < NHOSTS; i++)
		TH_LOG("h%u: k per class %u %u %u %u, %llu of 512 bits set",
		       i, self->spec[i].classes.k[0],
		       self->spec[i].classes.k[1], self->spec[i].classes.k[2],
		       self->spec[i].classes.k[3],
		       (unsigned long long)kb_mcbf_ones(self->f[i]));
	drain(self, NULL);
	for (i = 0; i < NPORTS; i++)
		ASSERT_EQ(0, kbloom_mcbf_stats(self->n, self->port[i],
					       &before[i]));
	tx = kbt_psock(&self->host[SENDER], "eth0");
	ASSERT_LE(0, tx);
	for (r = 0; r < ROUNDS; r++) {
		for (g = 0; g < NGROUPS; g++) {
			struct kbt_payload pl = { KBT_MAGIC, g, r, 0 };

			n = mcbf_frame(f, &self->group[g], &pl);
			ASSERT_EQ((ssize_t)n, send(tx, f, n, 0));
			sent++;
		}
		usleep(500);
	}
	close(tx);
	drain(self, cnt);

	for (i = 0; i < NPORTS; i++) {
		ASSERT_EQ(0, kbloom_mcbf_stats(self->n, self->port[i], &st[i]));
		ipbf_delta(&before[i], &st[i], sizeof(st[i]));
	}
	for (i = 0; i < NHOSTS; i++) {
		total = leaked = unused = 0;
		for (g = 0; g < NGROUPS; g++) {
			want = mcbf_test_key(self->f[i], &self->group[g]);
			if (self->joins[i] >> g & 1)
				EXPECT_EQ(1, want);
			if (!self->spec[i].classes.k[g % 4])
				EXPECT_EQ(0, want);
			got = cnt[i][g];
			EXPECT_EQ(want ? ROUNDS : 0, got)
				TH_LOG("host %u group %u", i, g);
			total += got;
			if (want && !(self->joins[i] >> g & 1))
				leaked++;
			unused += !self->spec[i].classes.k[g % 4];
		}
		fps += leaked;
		TH_LOG("h%u: %u groups joined, %u false positives, %u groups of its unused class",
		       i, __builtin_popcountll(self->joins[i]), leaked, unused);
		EXPECT_EQ(sent, before[i].tx_seen);
		EXPECT_EQ(total, before[i].tx_forwarded);
		EXPECT_EQ(sent - total, before[i].tx_filtered);
		EXPECT_EQ(leaked * ROUNDS, before[i].tx_leaked);
		EXPECT_EQ(unused * ROUNDS, before[i].tx_unused);
		EXPECT_EQ(0, before[i].tx_errors);
		EXPECT_EQ(0, before[i].rx_packets);
	}
	/* the sender's port: every frame in, none back out */
	EXPECT_EQ(sent, before[SENDER].rx_mcast);
	EXPECT_EQ(0, before[SENDER].tx_seen);
	for (g = 0; g < NGROUPS; g++)
		EXPECT_EQ(0, cnt[SENDER][g]);
	EXPECT_LT(0, fps);
}

TEST_HARNESS_MAIN
