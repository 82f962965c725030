// SPDX-License-Identifier: GPL-2.0
/*
 * The mcast switch in a real network: its ports are ports of a Linux
 * bridge with multicast snooping, "kbloomctl mcast sync" mirrors the
 * bridge's multicast database into the port filters, and the hosts are
 * applications with sockets (tests/bpf/mcast_app_util.h):
 *
 *          h0      h1      h2      h3        hosts (eth0; h0 sends)
 *          |       |       |       |
 *          p0      p1      p2      p3        namespace "sw", bridge br0
 *
 *  - a receiver that joins with IP_ADD_MEMBERSHIP / IPV6_JOIN_GROUP (the
 *    kernel's report, nothing typed) gets the group within 1 s, every
 *    datagram, and the hosts that did not join get none (but predicted
 *    false positives); the counters add up;
 *  - a receiver that closes its socket stops receiving within the
 *    bridge's leave time (last member count x interval) and a second;
 *  - mDNS-style datagrams to 224.0.0.251 and ff02::fb reach every host,
 *    joined or not (flooded), unless "mcast config flood off"; with
 *    "flood stack" the bridge floods them;
 *  - ping -6 between two hosts: neighbour discovery across the switch;
 *  - a router port of the bridge receives every group;
 *  - static memberships (mcast join) are kept beside the bridge's, and
 *    sync refuses what is not a bridge.
 *
 * The hosts' senders have TX checksum offload off (kbt_tx_csum_off()).
 */
#include <poll.h>
#include <sys/wait.h>
#include <linux/bpf.h>

#include "kselftest_harness.h"
#include "tests/bpf/kbloomctl_xdp_util.h"
#include "tests/bpf/mcast_app_util.h"

#define NHOSTS		4
#define LEAVE_CS	20	/* mcast_last_member_interval, 1/100 s */
#define LEAVE_COUNT	2	/* mcast_last_member_count */
#define LEAVE_S		(LEAVE_COUNT * LEAVE_CS / 100.0)

FIXTURE(br) {
	char name[64];
	struct kbt_ns sw, host[NHOSTS];
	struct kbloom_xdp *x;
	int port[NHOSTS];
	int pass_link[NHOSTS];
	int cap[NHOSTS];	/* AF_PACKET on each host's eth0 */
	int tx4, tx6;		/* h0's senders */
	pid_t sync_pid;
	int sync_out;		/* the daemon's standard output */
	char lines[8192];	/* what it printed so far */
	size_t nlines;
};

static const __u8 g4[4] = { 239, 7, 0, 1 };
static const __u8 g6[16] = { 0xff, 0x3e, [13] = 7, [15] = 1 };
static const __u8 mdns4[4] = { 224, 0, 0, 251 };
static const __u8 mdns6[16] = { 0xff, 0x02, [15] = 0xfb };

static void net_cleanup(FIXTURE_DATA(br) *self)
{
	int i, st;

	if (self->sync_pid > 0) {
		kill(self->sync_pid, SIGTERM);
		waitpid(self->sync_pid, &st, 0);
	}
	self->sync_pid = 0;
	if (self->sync_out > 0)
		close(self->sync_out);
	for (i = 0; i < NHOSTS; i++) {
		if (self->cap[i] > 0)
			close(self->cap[i]);
		if (self->pass_link[i] > 0)
			close(self->pass_link[i]);
		self->cap[i] = self->pass_link[i] = 0;
		kbt_ns_free(&self->host[i]);
	}
	if (self->tx4 > 0)
		close(self->tx4);
	if (self->tx6 > 0)
		close(self->tx6);
	if (self->x)
		kbloom_xdp_close(self->x);
	self->x = NULL;
	if (self->name[0])
		kbt_unpin(self->name);
	kbt_ns_free(&self->sw);
}

/* A host: IPv4 and IPv6 addresses usable at once (no DAD wait). */
static int host_setup(FIXTURE_DATA(br) *self, int i)
{
	struct kbt_ns *h = &self->host[i];
	char p[16];

	if (kbt_ns_new(h) ||
	    kbt_write_file(h, "/proc/sys/net/ipv6/conf/default/accept_dad", "0") ||
	    kbt_write_file(h, "/proc/sys/net/ipv6/conf/all/accept_dad", "0"))
		return -1;
	snprintf(p, sizeof(p), "p%d", i);
	if (kbt_veth(&self->sw, p, h, "eth0", i + 1) ||
	    kbt_sh(&self->sw, "ip link set dev %s master br0", p) ||
	    kbt_sh(h, "ip addr add 10.7.0.%d/24 dev eth0", i + 1) ||
	    kbt_sh(h, "ip -6 addr add fd07::%d/64 dev eth0 nodad", i + 1) ||
	    kbt_tx_csum_off(h, "eth0"))
		return -1;
	self->port[i] = kbt_ifindex(&self->sw, p);
	return self->port[i] ? 0 : -1;
}

/* The switch on every port, XDP_PASS on every host end, captures. */
static int switch_setup(FIXTURE_DATA(br) *self)
{
	struct kbloom_xdp_opts o = { .netns = self->sw.path };
	enum kbloom_xdp_mode got;
	int i, saved, ret;

	ret = kbloom_xdp_create(self->name, KBLOOM_XDP_MCAST, &o, &self->x);
	for (i = 0; i < NHOSTS && !ret; i++) {
		ret = kbloom_xdp_attach(self->x, self->port[i],
					KBLOOM_XDP_MODE_NATIVE, &got);
		if (ret || kbt_ns_enter(&self->host[i], &saved))
			return ret ?: -1;
		ret = kbloom_xdp_pass_attach(if_nametoindex("eth0"),
					     KBLOOM_XDP_MODE_NATIVE, NULL,
					     &self->pass_link[i]);
		kbt_ns_leave(saved);
		self->cap[i] = kbt_psock(&self->host[i], "eth0");
		if (self->cap[i] < 0)
			return -1;
	}
	return ret;
}

/* Read what the daemon printed; 1 once @s is in it, 0 at @timeout. */
static int sync_wait(FIXTURE_DATA(br) *self, const char *s, double timeout)
{
	struct pollfd p = { .fd = self->sync_out, .events = POLLIN };
	double t0 = kbt_now();
	ssize_t n;

	while (!strstr(self->lines, s)) {
		if (kbt_now() - t0 > timeout)
			return 0;
		if (poll(&p, 1, 20) <= 0)
			continue;
		n = read(self->sync_out, self->lines + self->nlines,
			 sizeof(self->lines) - 1 - self->nlines);
		if (n <= 0)
			return 0;
		self->nlines += n;
		self->lines[self->nlines] = 0;
	}
	return 1;
}

/* kbloomctl mcast sync NAME bridge br0, in the background. */
static int sync_start(FIXTURE_DATA(br) *self)
{
	int pfd[2];

	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	self->sync_pid = fork();
	if (!self->sync_pid) {
		dup2(pfd[1], 1);
		kbctl_exec((const char *const[]){ "mcast", "sync", self->name,
			"bridge", "br0", "netns", self->sw.path, NULL });
	}
	close(pfd[1]);
	self->sync_out = pfd[0];
	return self->sync_pid > 0 &&
	       sync_wait(self, "synced from bridge br0", 10) ? 0 : -1;
}

static int net_setup(FIXTURE_DATA(br) *self)
{
	int i;

	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "br");
	if (kbt_ns_new(&self->sw) ||
	    kbt_sh(&self->sw, "ip link add br0 type bridge mcast_snooping 1 mcast_querier 0 mcast_last_member_interval %d mcast_last_member_count %d",
		   LEAVE_CS, LEAVE_COUNT) ||
	    kbt_sh(&self->sw, "ip link set dev br0 up"))
		return -1;
	for (i = 0; i < NHOSTS; i++)
		if (host_setup(self, i))
			return -1;
	if (switch_setup(self))
		return -1;
	self->tx4 = kbt_app_tx(&self->host[0], 0);
	self->tx6 = kbt_app_tx(&self->host[0], 1);
	if (self->tx4 < 0 || self->tx6 < 0)
		return -1;
	return sync_start(self);
}

FIXTURE_SETUP(br)
{
	int ret = net_setup(self);

	if (ret)
		net_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(br)
{
	net_cleanup(self);
}

static void stats_all(FIXTURE_DATA(br) *self,
		      struct kbloom_mcast_stats st[NHOSTS])
{
	int i;

	for (i = 0; i < NHOSTS; i++)
		if (kbloom_mcast_stats(self->x, self->port[i], &st[i]))
			memset(&st[i], 0, sizeof(st[i]));
}

/* Send @n datagrams of @id to @group, let them arrive. */
static void send_n(FIXTURE_DATA(br) *self, int v6, const __u8 *group,
		   int port, __u32 id, int n)
{
	int i;

	for (i = 0; i < n; i++)
		kbt_app_send(v6 ? self->tx6 : self->tx4, v6, group, port, id, i);
	usleep(150000);
}

/* Seconds from the join to the first datagram at @rx (-1: none in 3 s). */
static double first_delivery(FIXTURE_DATA(br) *self, int rx, int v6,
			     const __u8 *group, __u32 id)
{
	double t0 = kbt_now();
	__u32 seq = 0;

	while (kbt_now() - t0 < 3) {
		kbt_app_send(v6 ? self->tx6 : self->tx4, v6, group,
			     KBT_APP_PORT, id, seq++);
		usleep(20000);
		if (kbt_app_count(rx, id))
			return kbt_now() - t0;
	}
	return -1;
}

/* Port @i's filter may hold @group: the leak the hosts will see. */
static int predicted(FIXTURE_DATA(br) *self, int i, int v6, const __u8 *g)
{
	return kbloom_xdp_filter_test(self->x, self->port[i], g,
				      v6 ? 16 : 4) == 1;
}

TEST_F_TIMEOUT(br, socket_join_delivers, 60)
{
	struct kbloom_mcast_stats a[NHOSTS], b[NHOSTS];
	const int n = 20;
	int v6, rx, i, got, leak;
	struct kbctl_res r = { 0 };
	double t;

	for (v6 = 0; v6 <= 1; v6++) {
		const __u8 *g = v6 ? g6 : g4;
		__u32 id = 100 + v6;

		/* h1 joins by socket alone: the report, the bridge, sync */
		rx = kbt_app_rx(&self->host[1], v6, g, KBT_APP_PORT);
		ASSERT_LE(0, rx);
		t = first_delivery(self, rx, v6, g, id);
		EXPECT_LE(0, t) TH_LOG("v6 %d: never delivered", v6);
		EXPECT_GT(1.0, t) TH_LOG("v6 %d: %.3f s after the join", v6, t);
		ksft_print_msg("IPv%d: first datagram %.3f s after the join\n",
			       v6 ? 6 : 4, t);
		fflush(stdout);
		usleep(100000);
		kbt_app_count(rx, id);
		for (i = 0; i < NHOSTS; i++)
			kbt_cap_count(self->cap[i], id);

		stats_all(self, a);
		send_n(self, v6, g, KBT_APP_PORT, id, n);
		stats_all(self, b);
		EXPECT_EQ(n, kbt_app_count(rx, id)) TH_LOG("v6 %d", v6);
		EXPECT_EQ(n, b[1].tx_forwarded - a[1].tx_forwarded);
		for (i = 2; i < NHOSTS; i++) {
			leak = predicted(self, i, v6, g) ? n : 0;
			got = kbt_cap_count(self->cap[i], id);
			EXPECT_EQ(leak, got) TH_LOG("h%d v6 %d", i, v6);
			/* every copy offered is forwarded or filtered */
			EXPECT_EQ(n, b[i].tx_seen - a[i].tx_seen);
			EXPECT_EQ(leak, b[i].tx_forwarded - a[i].tx_forwarded);
			EXPECT_EQ(leak, b[i].tx_leaked - a[i].tx_leaked);
			EXPECT_EQ(n - leak, b[i].tx_filtered - a[i].tx_filtered);
		}
		EXPECT_EQ(n, b[0].rx_mcast - a[0].rx_mcast);
		close(rx);
	}
	OK(&r, "mcast", "groups", self->name, "p1", "netns", self->sw.path);
	EXPECT_NE(NULL, strstr(r.out, "p1 239.7.0.1 bridge\n")) TH_LOG("%s", r.out);
	kbctl_free(&r);
	EXPECT_TRUE(sync_wait(self, "+ p1 239.7.0.1\n", 1));
	EXPECT_TRUE(sync_wait(self, "+ p1 ff3e::7:1\n", 1));
}

TEST_F_TIMEOUT(br, socket_close_leaves, 60)
{
	struct kbloom_mcast_stats a[NHOSTS], b[NHOSTS];
	struct kbloom_addr_key k[64];
	int v6, rx, i, cnt, in;
	double t0, t;

	for (v6 = 0; v6 <= 1; v6++) {
		const __u8 *g = v6 ? g6 : g4;
		__u32 id = 200 + v6;

		rx = kbt_app_rx(&self->host[1], v6, g, KBT_APP_PORT);
		ASSERT_LE(0, rx);
		ASSERT_LE(0, first_delivery(self, rx, v6, g, id));
		close(rx);	/* the kernel reports the leave */
		t0 = kbt_now();
		do {
			usleep(10000);
			cnt = kbloom_mcast_groups(self->x, self->port[1], k, 64);
			for (i = 0, in = 0; i < cnt && i < 64; i++)
				in |= !memcmp(k[i].addr, g, v6 ? 16 : 4);
		} while (in && kbt_now() - t0 < LEAVE_S + 3);
		t = kbt_now() - t0;
		EXPECT_FALSE(in) TH_LOG("v6 %d: still joined", v6);
		EXPECT_GT(LEAVE_S + 1.0, t) TH_LOG("v6 %d: left after %.3f s", v6, t);
		ksft_print_msg("IPv%d: left %.3f s after the close (bridge leave time %.1f s)\n",
			       v6 ? 6 : 4, t, LEAVE_S);
		fflush(stdout);

		usleep(50000);
		kbt_cap_count(self->cap[1], id);
		stats_all(self, a);
		send_n(self, v6, g, KBT_APP_PORT, id, 10);
		stats_all(self, b);
		in = predicted(self, 1, v6, g) ? 10 : 0;
		EXPECT_EQ(in, kbt_cap_count(self->cap[1], id)) TH_LOG("v6 %d", v6);
		EXPECT_EQ(10 - in, b[1].tx_filtered - a[1].tx_filtered);
	}
	EXPECT_TRUE(sync_wait(self, "- p1 239.7.0.1\n", 1)) TH_LOG("%s", self->lines);
}

/* mDNS: every host gets it, joined or not (h3 only captures). */
static void mdns_round(struct __test_metadata *_metadata,
		       FIXTURE_DATA(br) *self, int rx[2][3], __u32 id,
		       int expect)
{
	struct kbloom_mcast_stats a[NHOSTS], b[NHOSTS];
	int v6, i;

	for (v6 = 0; v6 <= 1; v6++) {
		for (i = 1; i < NHOSTS; i++)
			kbt_cap_count(self->cap[i], id + v6);
		stats_all(self, a);
		send_n(self, v6, v6 ? mdns6 : mdns4, 5353, id + v6, 5);
		stats_all(self, b);
		for (i = 1; i < 3; i++)
			EXPECT_EQ(expect, kbt_app_count(rx[v6][i], id + v6))
				TH_LOG("h%d v6 %d", i, v6);
		EXPECT_EQ(expect, kbt_cap_count(self->cap[3], id + v6))
			TH_LOG("h3 v6 %d", v6);
		EXPECT_LE(5, b[0].rx_local - a[0].rx_local);
		EXPECT_EQ(0, b[0].rx_mcast - a[0].rx_mcast);
	}
}

TEST_F_TIMEOUT(br, link_local_reaches_every_host, 60)
{
	struct kbloom_mcast_stats a[NHOSTS], b[NHOSTS];
	struct kbctl_res r = { 0 };
	int rx[2][3], v6, i;

	for (v6 = 0; v6 <= 1; v6++)
		for (i = 1; i < 3; i++) {
			rx[v6][i] = kbt_app_rx(&self->host[i], v6,
					       v6 ? mdns6 : mdns4, 5353);
			ASSERT_LE(0, rx[v6][i]);
		}
	usleep(200000);
	stats_all(self, a);
	mdns_round(_metadata, self, rx, 300, 5);
	stats_all(self, b);
	for (i = 1; i < NHOSTS; i++)
		EXPECT_LE(10, b[i].tx_flooded - a[i].tx_flooded);
	OK(&r, "mcast", "stats", self->name, "p1", "netns", self->sw.path, "-j");
	EXPECT_LE(10, jnum(r.out, NULL, "tx_flooded"));
	kbctl_free(&r);

	/* flood stack: the bridge floods them */
	OK(&r, "mcast", "config", self->name, "flood", "stack", "netns",
	   self->sw.path);
	kbctl_free(&r);
	mdns_round(_metadata, self, rx, 310, 5);

	/* flood off: filtered as groups; the bridge learns no 224.0.0.x */
	OK(&r, "mcast", "config", self->name, "flood", "off", "netns",
	   self->sw.path);
	kbctl_free(&r);
	OK(&r, "mcast", "config", self->name, "netns", self->sw.path);
	EXPECT_STREQ("flood off, audit on\n", r.out);
	kbctl_free(&r);
	for (i = 1; i < 3; i++)
		kbt_cap_count(self->cap[i], 320);
	send_n(self, 0, mdns4, 5353, 320, 5);
	for (i = 1; i < 3; i++)
		EXPECT_EQ(predicted(self, i, 0, mdns4) ? 5 : 0,
			  kbt_cap_count(self->cap[i], 320));
	for (v6 = 0; v6 <= 1; v6++)
		for (i = 1; i < 3; i++)
			close(rx[v6][i]);
}

TEST_F_TIMEOUT(br, ping6_across_the_switch, 60)
{
	static const __u8 h2[16] = { 0xfd, 0x07, [15] = 3 };
	struct kbloom_mcast_stats a[NHOSTS], b[NHOSTS];
	double t;

	kbt_sh(&self->host[0], "ip -6 neigh flush dev eth0");
	stats_all(self, a);
	t = kbt_ping6(&self->host[0], h2, 5);
	stats_all(self, b);
	EXPECT_LE(0, t) TH_LOG("no echo reply from fd07::3");
	EXPECT_GT(2.0, t);
	/* the neighbour solicitation went through the switch, flooded */
	EXPECT_LE(1, b[0].rx_local - a[0].rx_local);
	EXPECT_LE(1, b[2].tx_flooded - a[2].tx_flooded);
}

TEST_F_TIMEOUT(br, router_port_gets_every_group, 60)
{
	static const __u8 g[4] = { 239, 7, 0, 99 };
	struct kbloom_mcast_stats a[NHOSTS], b[NHOSTS];
	struct kbctl_res r = { 0 };

	ASSERT_EQ(0, kbt_sh(&self->sw, "ip link set dev p3 type bridge_slave mcast_router 2"));
	ASSERT_TRUE(sync_wait(self, "+ p3 router\n", 2)) TH_LOG("%s", self->lines);
	OK(&r, "mcast", "groups", self->name, "p3", "netns", self->sw.path);
	EXPECT_NE(NULL, strstr(r.out, "p3 router bridge\n")) TH_LOG("%s", r.out);
	kbctl_free(&r);
	kbt_cap_count(self->cap[3], 400);
	stats_all(self, a);
	send_n(self, 0, g, KBT_APP_PORT, 400, 10);
	stats_all(self, b);
	EXPECT_EQ(10, kbt_cap_count(self->cap[3], 400));
	EXPECT_EQ(10, b[3].tx_forwarded - a[3].tx_forwarded);
	EXPECT_EQ(0, b[3].tx_leaked - a[3].tx_leaked);

	ASSERT_EQ(0, kbt_sh(&self->sw, "ip link set dev p3 type bridge_slave mcast_router 0"));
	ASSERT_TRUE(sync_wait(self, "- p3 router\n", 2)) TH_LOG("%s", self->lines);
	send_n(self, 0, g, KBT_APP_PORT, 401, 10);
	EXPECT_EQ(predicted(self, 3, 0, g) ? 10 : 0,
		  kbt_cap_count(self->cap[3], 401));
}

/*
 * Static memberships are never the bridge's; a resync drops the bridge
 * memberships the bridge no longer has; bad bridges are refused.
 */
TEST_F_TIMEOUT(br, sync_keeps_static_refuses_non_bridges, 60)
{
	static const __u8 stale[4] = { 239, 7, 0, 77 };
	struct kbctl_res r = { 0 };
	int rx;

	OK(&r, "mcast", "join", self->name, "p2", "239.7.0.5", "239.7.0.1",
	   "netns", self->sw.path);
	kbctl_free(&r);
	rx = kbt_app_rx(&self->host[2], 0, g4, KBT_APP_PORT);
	ASSERT_LE(0, rx);
	ASSERT_TRUE(sync_wait(self, "+ p2 239.7.0.1\n", 2)) TH_LOG("%s", self->lines);
	OK(&r, "mcast", "groups", self->name, "p2", "netns", self->sw.path);
	EXPECT_NE(NULL, strstr(r.out, "p2 239.7.0.5\n")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "p2 239.7.0.1 static+bridge\n"));
	kbctl_free(&r);
	OK(&r, "mcast", "groups", self->name, "p2", "netns", self->sw.path, "-j");
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"sources\":[")) TH_LOG("%s", r.out);
	kbctl_free(&r);
	/* a second sync, once: in sync already, nothing changes */
	OK(&r, "mcast", "sync", self->name, "bridge", "br0", "mode", "once",
	   "netns", self->sw.path);
	EXPECT_STREQ("synced from bridge br0: 0 joined, 0 left\n", r.out);
	kbctl_free(&r);
	/* a bridge membership the bridge no longer has: the resync drops it */
	ASSERT_EQ(0, kbloom_mcast_join_src(self->x, self->port[3], stale, 4,
					   KBLOOM_MEMBER_BRIDGE));
	OK(&r, "mcast", "sync", self->name, "bridge", "br0", "mode", "once",
	   "netns", self->sw.path);
	EXPECT_STREQ("- p3 239.7.0.77\nsynced from bridge br0: 0 joined, 1 left\n",
		     r.out);
	kbctl_free(&r);
	EXPECT_EQ(-ENOENT, kbloom_mcast_leave_src(self->x, self->port[3],
						  stale, 4, KBLOOM_MEMBER_BRIDGE));
	/* the bridge's side goes, the static one stays */
	close(rx);
	ASSERT_TRUE(sync_wait(self, "- p2 239.7.0.1\n", LEAVE_S + 2));
	OK(&r, "mcast", "groups", self->name, "p2", "netns", self->sw.path);
	EXPECT_NE(NULL, strstr(r.out, "p2 239.7.0.1\n")) TH_LOG("%s", r.out);
	kbctl_free(&r);

	kbctl_run(&r, "mcast", "sync", self->name, "bridge", "nosuch",
		  "netns", self->sw.path);
	EXPECT_SYS(&r, "bridge nosuch: No such device");
	kbctl_free(&r);
	kbctl_run(&r, "mcast", "sync", self->name, "bridge", "p0",
		  "netns", self->sw.path);
	EXPECT_SYS(&r, "not a Linux bridge");
	kbctl_free(&r);
	ASSERT_EQ(0, kbt_sh(&self->sw, "ip link add br1 type bridge mcast_snooping 0"));
	kbctl_run(&r, "mcast", "sync", self->name, "bridge", "br1",
		  "netns", self->sw.path);
	EXPECT_SYS(&r, "bridge br1: Protocol not available (its multicast snooping is off");
	kbctl_free(&r);
}

TEST_HARNESS_MAIN
