// SPDX-License-Identifier: GPL-2.0
/*
 * The mcast path end to end, on real frames between network namespaces.
 *
 *            h0   h1   h2   h3        hs (sender)
 *            |    |    |    |         |
 *           p0   p1   p2   p3        p4      switch namespace "sw"
 *
 * Every switch port runs kbloom_mcast_ingress (native XDP) and is in the
 * devmap with kbloom_mcast_egress; every host end runs an XDP_PASS
 * program (a veth end receives redirected frames only then).  The hosts
 * join different groups (IPv4 and IPv6); the sender sends to every group
 * through AF_PACKET; each host captures what reaches it.
 *
 *  - each host receives exactly its groups' frames plus the false
 *    positives its filter predicts (the test asks the filter for every
 *    group the host did not join; sized at 0.01% there are none), and
 *    the per-port counters agree with what the hosts received;
 *  - a group joined while its traffic flows is delivered from the moment
 *    the join call returns, every frame; a group left stops;
 *  - replacing the programs under traffic loses and leaks nothing.
 *
 * Variant "high_ifindex": p2 and p3 get ifindexes beyond the ingress
 * program's mask (bpf/kbloom_mcast_once.h): their copies are decided and
 * counted by their egress programs, the other ports' by the ingress
 * program, the same answers either way.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"
#include "tests/bpf/mcast_traffic_util.h"

#define NHOSTS		4
#define NPORTS		(NHOSTS + 1)
#define SENDER		NHOSTS
#define NGROUPS		16	/* 0..7 IPv4, 8..15 IPv6 */
#define ROUNDS		40

/* The groups host i joins: bit g of joins[i]. */
static const __u32 joins[NHOSTS] = { 0x0303, 0x1c30, 0xe042, 0x0084 };

FIXTURE(e2e) {
	char name[64];
	struct kbt_ns sw, host[NPORTS];
	struct kbloom_xdp *x;
	int port[NPORTS];	/* ifindex of p<i> in sw */
	int rx[NPORTS];		/* AF_PACKET on each host's eth0 */
	int pass_link[NPORTS];
};

FIXTURE_VARIANT(e2e) {
	int high;	/* p2, p3: ifindex HIGH_IFINDEX + i */
};

#define HIGH_IFINDEX	300

FIXTURE_VARIANT_ADD(e2e, low_ifindex) {
	.high = 0,
};

FIXTURE_VARIANT_ADD(e2e, high_ifindex) {
	.high = 1,
};

/* Port p<i> of the switch and eth0 of its host, p<i> of ifindex @index. */
static int sw_link(FIXTURE_DATA(e2e) *self, int i, int index)
{
	char a[16];

	snprintf(a, sizeof(a), "p%d", i);
	if (!index)
		return kbt_veth(&self->sw, a, &self->host[i], "eth0", i);
	if (kbt_sh(&self->sw, "ip link add %s index %d address 02:00:00:00:%02x:01 type veth peer name eth0 address 02:00:00:00:%02x:02 netns %s",
		   a, index, i, i, self->host[i].path))
		return -1;
	if (kbt_sh(&self->sw, "ip link set dev %s up", a) ||
	    kbt_sh(&self->host[i], "ip link set dev eth0 up"))
		return -1;
	return 0;
}

static void sw_cleanup(FIXTURE_DATA(e2e) *self)
{
	int i;

	for (i = 0; i < NPORTS; i++) {
		if (self->rx[i] > 0)
			close(self->rx[i]);
		if (self->pass_link[i] > 0)
			close(self->pass_link[i]);
		self->rx[i] = self->pass_link[i] = 0;
		kbt_ns_free(&self->host[i]);
	}
	if (self->x)
		kbloom_xdp_close(self->x);
	self->x = NULL;
	if (self->name[0])
		kbt_unpin(self->name);	/* detaches the links */
	kbt_ns_free(&self->sw);
}

static int sw_setup(FIXTURE_DATA(e2e) *self, int high)
{
	struct kbloom_xdp_opts o = {};
	enum kbloom_xdp_mode got;
	char a[16];
	int i, saved, ret;

	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "e2e");
	if (kbt_ns_quiet(&self->sw))
		return -1;
	for (i = 0; i < NPORTS; i++) {
		if (kbt_ns_quiet(&self->host[i]))
			return -1;
		snprintf(a, sizeof(a), "p%d", i);
		if (sw_link(self, i, high && (i == 2 || i == 3) ?
				     HIGH_IFINDEX + i : 0))
			return -1;
		self->port[i] = kbt_ifindex(&self->sw, a);
	}
	o.netns = self->sw.path;
	ret = kbloom_xdp_create(self->name, KBLOOM_XDP_MCAST, &o, &self->x);
	if (ret)
		return ret;
	for (i = 0; i < NPORTS; i++) {
		ret = kbloom_xdp_attach(self->x, self->port[i],
					KBLOOM_XDP_MODE_NATIVE, &got);
		if (ret)
			return ret;
		/* the host side: an XDP_PASS program, and a capture */
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
	int ret = sw_setup(self, variant->high);

	if (ret)
		sw_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(e2e)
{
	sw_cleanup(self);
}

static void group_addr(__u8 a[16], __u32 g, __u32 *len)
{
	kbt_group(a, g >= 8, 100 + g);
	*len = g >= 8 ? 16 : 4;
}

static size_t group_frame(__u8 *f, __u32 g, __u32 seq, __u32 tag)
{
	__u8 dst[16];
	__u32 len;

	group_addr(dst, g, &len);
	return kbt_mc_frame(f, g >= 8, dst, g, seq, tag);
}

/* Drain every host capture until nothing arrived for @quiet seconds. */
static void drain(FIXTURE_DATA(e2e) *self, __u32 cnt[NPORTS][NGROUPS],
		  double quiet)
{
	kbt_mc_drain(self->rx, NPORTS, cnt ? &cnt[0][0] : NULL, NGROUPS,
		     quiet);
}

/* Every host joins its groups (joins[]): 0 or -errno. */
static int join_all(FIXTURE_DATA(e2e) *self)
{
	__u32 i, g, len;
	__u8 a[16];
	int ret;

	for (i = 0; i < NHOSTS; i++)
		for (g = 0; g < NGROUPS; g++) {
			if (!(joins[i] >> g & 1))
				continue;
			group_addr(a, g, &len);
			ret = kbloom_mcast_join(self->x, self->port[i], a, len);
			if (ret)
				return ret;
		}
	return 0;
}

/*
 * Send ROUNDS frames to every group; every host must receive exactly its
 * groups and the false positives its filter predicts, and the counters
 * must say the same.  Return: the number of predicted leaks.
 */
static __u32 traffic_check(struct __test_metadata *_metadata,
			   FIXTURE_DATA(e2e) *self)
{
	struct kbloom_mcast_stats st[NPORTS], before[NPORTS];
	__u32 cnt[NPORTS][NGROUPS] = {}, predicted[NHOSTS] = {};
	__u32 i, g, r, len, sent = 0, leaks = 0;
	__u8 f[256], a[16];
	int tx;
	size_t n;

	/* the false positives each host's filter predicts */
	for (i = 0; i < NHOSTS; i++)
		for (g = 0; g < NGROUPS; g++) {
			if (joins[i] >> g & 1)
				continue;
			group_addr(a, g, &len);
			if (kbloom_xdp_filter_test(self->x, self->port[i], a,
						   len) == 1) {
				predicted[i] |= 1U << g;
				leaks++;
			}
		}
	drain(self, NULL, 0.05);
	for (i = 0; i < NPORTS; i++)
		EXPECT_EQ(0, kbloom_mcast_stats(self->x, self->port[i],
						&before[i]));

	tx = kbt_psock(&self->host[SENDER], "eth0");
	EXPECT_LE(0, tx);
	for (r = 0; r < ROUNDS; r++) {
		for (g = 0; g < NGROUPS; g++) {
			n = group_frame(f, g, r, 0);
			EXPECT_EQ((ssize_t)n, send(tx, f, n, 0));
			sent++;
		}
		usleep(300);
	}
	close(tx);
	drain(self, cnt, 0.3);

	for (i = 0; i < NPORTS; i++) {
		EXPECT_EQ(0, kbloom_mcast_stats(self->x, self->port[i], &st[i]));
		st[i].rx_packets -= before[i].rx_packets;
		st[i].rx_mcast -= before[i].rx_mcast;
		st[i].tx_seen -= before[i].tx_seen;
		st[i].tx_forwarded -= before[i].tx_forwarded;
		st[i].tx_filtered -= before[i].tx_filtered;
		st[i].tx_leaked -= before[i].tx_leaked;
		st[i].tx_errors -= before[i].tx_errors;
	}
	for (i = 0; i < NHOSTS; i++) {
		__u32 total = 0, want = joins[i] | predicted[i];

		for (g = 0; g < NGROUPS; g++) {
			EXPECT_EQ(want >> g & 1 ? ROUNDS : 0, cnt[i][g])
				TH_LOG("host %u group %u", i, g);
			total += cnt[i][g];
		}
		/* the counters of the host's port tell the same story */
		EXPECT_EQ(sent, st[i].tx_seen);
		EXPECT_EQ(total, st[i].tx_forwarded);
		EXPECT_EQ(sent - total, st[i].tx_filtered);
		EXPECT_EQ(__builtin_popcount(predicted[i]) * ROUNDS,
			  st[i].tx_leaked);
		EXPECT_EQ(0, st[i].tx_errors);
		EXPECT_EQ(0, st[i].rx_packets);
	}
	/* the sender's port: every frame in, none back out */
	EXPECT_EQ(sent, st[SENDER].rx_packets);
	EXPECT_EQ(sent, st[SENDER].rx_mcast);
	EXPECT_EQ(0, st[SENDER].tx_seen);
	for (g = 0; g < NGROUPS; g++)
		EXPECT_EQ(0, cnt[SENDER][g]);
	return leaks;
}

TEST_F_TIMEOUT(e2e, hosts_receive_their_groups_counters_agree, 90)
{
	struct kbloom_xdp_geom tiny = { .m = 512, .k = 1 };
	__u32 g, leaks;
	__u8 a[16];

	ASSERT_EQ(0, join_all(self));
	/* sized at 0.01% for 1024 groups, a few groups each: no leak */
	leaks = traffic_check(_metadata, self);
	TH_LOG("sized filters: %u predicted false positives", leaks);
	EXPECT_EQ(0, leaks);

	/*
	 * Host 3's port squeezed into one block with one probe and loaded
	 * with 200 groups nobody sends to: now some traffic leaks to host
	 * 3, exactly the groups its filter predicts, and tx_leaked counts
	 * them.
	 */
	ASSERT_EQ(0, kbloom_mcast_port_resize(self->x, self->port[3], &tiny));
	for (g = 0; g < 200; g++) {
		kbt_group(a, g & 1, 2000 + g);
		ASSERT_EQ(0, kbloom_mcast_join(self->x, self->port[3], a,
					       g & 1 ? 16 : 4));
	}
	leaks = traffic_check(_metadata, self);
	TH_LOG("overloaded port: %u predicted false positives", leaks);
	EXPECT_GT(leaks, 0);
}

struct flow {
	struct kbt_ns *ns;
	__u32 group;
	__u32 gap_us;
	atomic_uint seq;	/* last sequence number started */
	atomic_int stop;
	int err;
};

static void *sender(void *arg)
{
	struct flow *fl = arg;
	__u8 f[256];
	__u32 s;
	size_t n;
	int tx = kbt_psock(fl->ns, "eth0");

	if (tx < 0) {
		fl->err = 1;
		return NULL;
	}
	while (!atomic_load(&fl->stop)) {
		s = atomic_load(&fl->seq) + 1;
		atomic_store(&fl->seq, s);
		n = group_frame(f, fl->group, s, 1);
		if (send(tx, f, n, 0) != (ssize_t)n)
			fl->err = 1;
		usleep(fl->gap_us);
	}
	close(tx);
	return NULL;
}

/*
 * Wait @min_us, then until the flow has started more than @n frames after
 * @from (at most 10 s: a sender starved by a loaded machine gets the time
 * it needs); return the last sequence number started.
 */
static __u32 flow_wait(struct flow *fl, __u32 from, __u32 n, __u32 min_us)
{
	double end = kbt_now() + 10;
	__u32 s;

	usleep(min_us);
	while ((s = atomic_load(&fl->seq)) - from <= n && kbt_now() < end)
		usleep(1000);
	return s;
}

/* Sequence numbers of the flow's frames that host @h received. */
static __u32 collect(int fd, __u32 group, __u8 *seen, __u32 max)
{
	struct kbt_payload pl;
	double last = kbt_now();
	__u32 n = 0;

	while (kbt_now() - last < 0.2) {
		if (!kbt_precv(fd, &pl)) {
			usleep(1000);
			continue;
		}
		last = kbt_now();
		if (pl.group != group || pl.tag != 1 || pl.seq >= max)
			continue;
		seen[pl.seq] = 1;
		n++;
	}
	return n;
}

TEST_F_TIMEOUT(e2e, join_while_traffic_flows, 90)
{
	static const __u32 groups[2] = { 6, 14 };	/* IPv4, IPv6 */
	const __u32 max = 1 << 20;
	__u8 *seen = calloc(max, 1), a[16];
	__u32 t, s, len, at_join, pre_leave, at_leave, last, missing, late;
	struct flow fl = {};
	pthread_t th;

	ASSERT_NE(NULL, seen);
	for (t = 0; t < 2; t++) {
		/* host 0 has not joined the group: nothing reaches it */
		group_addr(a, groups[t], &len);
		ASSERT_EQ(0, kbloom_xdp_filter_test(self->x, self->port[0], a,
						    len));
		memset(seen, 0, max);
		memset(&fl, 0, sizeof(fl));
		fl.ns = &self->host[SENDER];
		fl.group = groups[t];
		fl.gap_us = 50;
		ASSERT_EQ(0, pthread_create(&th, NULL, sender, &fl));
		usleep(100000);
		EXPECT_EQ(0, collect(self->rx[0], groups[t], seen, max));

		ASSERT_EQ(0, kbloom_mcast_join(self->x, self->port[0], a, len));
		at_join = atomic_load(&fl.seq);
		pre_leave = flow_wait(&fl, at_join, 300, 150000);
		ASSERT_EQ(0, kbloom_mcast_leave(self->x, self->port[0], a, len));
		at_leave = atomic_load(&fl.seq);
		usleep(100000);
		atomic_store(&fl.stop, 1);
		pthread_join(th, NULL);
		last = atomic_load(&fl.seq);
		ASSERT_EQ(0, fl.err);
		ASSERT_LT(last, max);
		collect(self->rx[0], groups[t], seen, max);

		/*
		 * Every frame started after the join returned is delivered,
		 * up to the leave (less 100 frames that may still have been
		 * in flight when the leave took effect); none started after
		 * the leave returned is.
		 */
		missing = 0;
		for (s = at_join + 1; s + 100 <= pre_leave; s++)
			missing += !seen[s];
		late = 0;
		for (s = at_leave + 1; s <= last; s++)
			late += seen[s];
		TH_LOG("group %u: join at %u, leave at %u, last %u, missing %u, late %u",
		       groups[t], at_join, at_leave, last, missing, late);
		EXPECT_GT(pre_leave - at_join, 200);
		EXPECT_EQ(0, missing);
		EXPECT_EQ(0, late);
		drain(self, NULL, 0.01);
	}
	free(seen);
}

struct capture {
	int fd;
	__u32 group;
	__u8 *seen;
	__u32 max;
	__u32 frames;
	atomic_int stop;
};

/* Capture the flow's frames on one host while it runs. */
static void *capturer(void *arg)
{
	struct capture *c = arg;
	struct kbt_payload pl;

	while (!atomic_load(&c->stop)) {
		if (!kbt_precv(c->fd, &pl)) {
			usleep(200);
			continue;
		}
		if (pl.group != c->group || pl.tag != 1 || pl.seq >= c->max)
			continue;
		c->seen[pl.seq] = 1;
		c->frames++;
	}
	return NULL;
}

TEST_F_TIMEOUT(e2e, replace_under_traffic, 90)
{
	const __u32 max = 1 << 20;
	struct capture member = {}, other = {};
	__u32 len, s, missing = 0, i, last;
	struct flow fl = {};
	pthread_t th, c1, c2;
	__u8 a[16];

	group_addr(a, 3, &len);
	ASSERT_EQ(0, kbloom_mcast_join(self->x, self->port[1], a, len));
	ASSERT_EQ(0, kbloom_xdp_filter_test(self->x, self->port[2], a, len));
	member.fd = self->rx[1];
	other.fd = self->rx[2];
	member.group = other.group = 3;
	member.max = other.max = max;
	member.seen = calloc(max, 1);
	other.seen = calloc(max, 1);
	ASSERT_NE(NULL, member.seen);
	ASSERT_NE(NULL, other.seen);
	ASSERT_EQ(0, pthread_create(&c1, NULL, capturer, &member));
	ASSERT_EQ(0, pthread_create(&c2, NULL, capturer, &other));
	fl.ns = &self->host[SENDER];
	fl.group = 3;
	fl.gap_us = 100;
	ASSERT_EQ(0, pthread_create(&th, NULL, sender, &fl));
	for (i = 0; i < 5; i++) {
		usleep(20000);
		ASSERT_EQ(0, kbloom_xdp_replace(self->x));
	}
	usleep(20000);
	atomic_store(&fl.stop, 1);
	pthread_join(th, NULL);
	last = atomic_load(&fl.seq);
	usleep(200000);
	atomic_store(&member.stop, 1);
	atomic_store(&other.stop, 1);
	pthread_join(c1, NULL);
	pthread_join(c2, NULL);
	ASSERT_EQ(0, fl.err);
	for (s = 1; s <= last; s++)
		missing += !member.seen[s];
	/* host 2 never joined: nothing reaches it, old or new program */
	TH_LOG("%u frames across 5 replacements, %u missing, %u leaked",
	       last, missing, other.frames);
	EXPECT_EQ(0, missing);
	EXPECT_EQ(0, other.frames);
	free(member.seen);
	free(other.seen);
}

/* The instance's pinned map @map, or -1. */
static int pinned_map(FIXTURE_DATA(e2e) *self, const char *map)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s/%s", KBT_PIN_ROOT, self->name, map);
	return bpf_obj_get(path);
}

/*
 * Whether port @ifindex's copy in mc_pfast is stable and equal to its
 * mc_params element (or, with no element, absent: id 0).
 */
static int pfast_follows(int pfast, int params, __u32 ifindex)
{
	struct kbloom_mcast_pfast e;
	struct kbloom_params p;

	if (bpf_map_lookup_elem(pfast, &ifindex, &e) || e.seq & 1)
		return 0;
	if (bpf_map_lookup_elem(params, &ifindex, &p))
		return e.p.id == 0;
	return !memcmp(&e.p, &p, sizeof(p));
}

/*
 * The ingress program reads each port's parameters from the loader's
 * copy in mc_pfast: the copy follows every change (joins, a resize, a
 * removed port), and a copy caught in a write (odd seq) is not used.
 */
TEST_F_TIMEOUT(e2e, pfast_copies_follow_params, 90)
{
	struct kbloom_xdp_geom geom = { .m = 1 << 14, .k = 4 };
	struct kbloom_mcast_pfast e, saved;
	__u32 i, id;
	int pf, pm;

	pf = pinned_map(self, "mc_pfast");
	pm = pinned_map(self, "mc_params");
	ASSERT_LE(0, pf);
	ASSERT_LE(0, pm);
	ASSERT_EQ(0, join_all(self));
	for (i = 0; i < NPORTS; i++) {
		id = self->port[i];
		if (id >= KBLOOM_MCAST_PFAST_PORTS)
			continue;	/* no copy: looked up by hash */
		EXPECT_TRUE(pfast_follows(pf, pm, id)) TH_LOG("port %u", i);
		ASSERT_EQ(0, bpf_map_lookup_elem(pf, &id, &e));
		EXPECT_EQ(id, e.p.id);
	}

	/* port 1's copy half written, and wrong: the program looks up */
	id = self->port[1];
	ASSERT_EQ(0, bpf_map_lookup_elem(pf, &id, &saved));
	e = saved;
	e.seq |= 1;
	e.p.slot ^= 1;		/* the idle slot: no blocks map */
	e.p.nblocks = 1;
	ASSERT_EQ(0, bpf_map_update_elem(pf, &id, &e, 0));
	EXPECT_EQ(0, traffic_check(_metadata, self));
	ASSERT_EQ(0, bpf_map_update_elem(pf, &id, &saved, 0));

	/* a resize moves the filter to the other slot: so does the copy */
	ASSERT_EQ(0, kbloom_mcast_port_resize(self->x, id, &geom));
	EXPECT_TRUE(pfast_follows(pf, pm, id));
	ASSERT_EQ(0, bpf_map_lookup_elem(pf, &id, &e));
	EXPECT_EQ(saved.p.slot ^ 1, e.p.slot);
	EXPECT_EQ(0, traffic_check(_metadata, self));

	/* a removed port leaves no copy */
	id = self->port[NPORTS - 1];
	ASSERT_EQ(0, kbloom_mcast_port_del(self->x, id));
	if (id < KBLOOM_MCAST_PFAST_PORTS) {
		ASSERT_EQ(0, bpf_map_lookup_elem(pf, &id, &e));
		EXPECT_EQ(0, e.p.id);
		EXPECT_EQ(0, e.seq & 1);
	}
	close(pf);
	close(pm);
}

TEST_HARNESS_MAIN
