// SPDX-License-Identifier: GPL-2.0
/*
 * The gate end to end between two namespaces:
 *
 *     a: eth0 10.0.0.1/24 (+ 10.0.0.11..18)  ---  b: eth0 10.0.0.2/24
 *                                                 kbloom_gate, native
 *
 *  - IPv4 through real UDP sockets: each of a's addresses sends to b's
 *    UDP socket; b receives exactly the allowed sources, in deny mode and
 *    in allow mode, switched at run time; ARP keeps working (not IP);
 *  - IPv6 as raw frames (no neighbour discovery needed), captured on b
 *    after XDP: the same, per source;
 *  - the counters agree with what b received;
 *  - replacing the program under traffic: no blocked frame gets through,
 *    no allowed frame is lost.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <netinet/in.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"

#define NSRC	8		/* 10.0.0.11..18, fd00::9:1..8 */
#define ROUNDS	20

FIXTURE(gate) {
	char name[64];
	struct kbt_ns a, b;
	struct kbloom_xdp *x;
	int b_if;
	int tx[NSRC];		/* UDP sockets of a, one per source */
	int rx;			/* UDP socket of b */
	int cap;		/* AF_PACKET on b's eth0 */
};

static void gt_cleanup(FIXTURE_DATA(gate) *self)
{
	int i;

	for (i = 0; i < NSRC; i++) {
		if (self->tx[i] > 0)
			close(self->tx[i]);
		self->tx[i] = 0;
	}
	if (self->rx > 0)
		close(self->rx);
	if (self->cap > 0)
		close(self->cap);
	self->rx = self->cap = 0;
	if (self->x)
		kbloom_xdp_close(self->x);
	self->x = NULL;
	if (self->name[0])
		kbt_unpin(self->name);
	kbt_ns_free(&self->a);
	kbt_ns_free(&self->b);
}

static int gt_setup(FIXTURE_DATA(gate) *self)
{
	struct kbloom_xdp_opts o = { .mode = KBLOOM_GATE_DENY };
	enum kbloom_xdp_mode got;
	char addr[32];
	int i, ret;

	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "gate");
	if (kbt_ns_quiet(&self->a) || kbt_ns_quiet(&self->b))
		return -1;
	if (kbt_veth(&self->a, "eth0", &self->b, "eth0", 7))
		return -1;
	if (kbt_sh(&self->a, "ip addr add 10.0.0.1/24 dev eth0") ||
	    kbt_sh(&self->b, "ip addr add 10.0.0.2/24 dev eth0"))
		return -1;
	for (i = 0; i < NSRC; i++)
		if (kbt_sh(&self->a, "ip addr add 10.0.0.%d/24 dev eth0",
			   11 + i))
			return -1;
	self->b_if = kbt_ifindex(&self->b, "eth0");
	o.netns = self->b.path;
	ret = kbloom_xdp_create(self->name, KBLOOM_XDP_GATE, &o, &self->x);
	if (ret)
		return ret;
	ret = kbloom_xdp_attach(self->x, self->b_if, KBLOOM_XDP_MODE_NATIVE,
				&got);
	if (ret)
		return ret;
	for (i = 0; i < NSRC; i++) {
		snprintf(addr, sizeof(addr), "10.0.0.%d", 11 + i);
		self->tx[i] = kbt_udp_sock(&self->a, addr, 0);
		if (self->tx[i] < 0)
			return -1;
	}
	self->rx = kbt_udp_sock(&self->b, "10.0.0.2", 5000);
	self->cap = kbt_psock(&self->b, "eth0");
	return self->rx > 0 && self->cap > 0 ? 0 : -1;
}

FIXTURE_SETUP(gate)
{
	int ret = gt_setup(self);

	if (ret)
		gt_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(gate)
{
	gt_cleanup(self);
}

static void src4(__u8 a[16], int i)
{
	memset(a, 0, 16);
	a[0] = 10;
	a[3] = (__u8)(11 + i);
}

static void src6(__u8 a[16], int i)
{
	memset(a, 0, 16);
	a[0] = 0xfd;
	a[13] = 9;
	a[15] = (__u8)(1 + i);
}

/* Send ROUNDS datagrams from each IPv4 source; count what b's socket got. */
static int udp_round(FIXTURE_DATA(gate) *self, __u32 got[NSRC])
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(5000) }, from;
	socklen_t fl;
	char buf[64];
	double last;
	int i, r;

	inet_pton(AF_INET, "10.0.0.2", &to.sin_addr);
	memset(got, 0, NSRC * sizeof(got[0]));
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < NSRC; i++)
			if (sendto(self->tx[i], "kbloom", 6, 0,
				   (struct sockaddr *)&to, sizeof(to)) != 6)
				return -1;
		usleep(200);
	}
	last = kbt_now();
	while (kbt_now() - last < 0.2) {
		fl = sizeof(from);
		if (recvfrom(self->rx, buf, sizeof(buf), 0,
			     (struct sockaddr *)&from, &fl) < 0) {
			usleep(1000);
			continue;
		}
		last = kbt_now();
		i = ((__u8 *)&from.sin_addr)[3] - 11;
		if (i >= 0 && i < NSRC)
			got[i]++;
	}
	return 0;
}

/* Send ROUNDS raw IPv6 frames from each source; count what b captured. */
static int raw6_round(FIXTURE_DATA(gate) *self, __u32 got[NSRC])
{
	static const __u8 dst[16] = { 0xfd, [15] = 2 };
	static const __u8 dmac[6] = { 2, 0, 0, 0, 7, 2 };
	struct kbt_payload pl = { KBT_MAGIC, 0, 0, 2 };
	struct kbt_frame_opts o = {
		.v6 = 1, .dst = dst, .dmac = dmac, .payload = &pl,
		.plen = sizeof(pl),
	};
	__u8 f[256], s[16];
	double last;
	int tx, i, r;
	size_t n;

	memset(got, 0, NSRC * sizeof(got[0]));
	tx = kbt_psock(&self->a, "eth0");
	if (tx < 0)
		return -1;
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < NSRC; i++) {
			src6(s, i);
			o.src = s;
			pl.group = i;
			pl.seq = r;
			n = kbt_frame(f, &o);
			if (send(tx, f, n, 0) != (ssize_t)n) {
				close(tx);
				return -1;
			}
		}
		usleep(200);
	}
	close(tx);
	last = kbt_now();
	while (kbt_now() - last < 0.2) {
		if (!kbt_precv(self->cap, &pl)) {
			usleep(1000);
			continue;
		}
		last = kbt_now();
		if (pl.tag == 2 && pl.group < NSRC)
			got[pl.group]++;
	}
	return 0;
}

static void drain_cap(int fd)
{
	struct kbt_payload pl;

	while (kbt_precv(fd, &pl))
		;
}

/* The set: sources 2 and 5 (IPv4) and 1, 6 (IPv6). */
static int in4(int i)
{
	return i == 2 || i == 5;
}

static int in6(int i)
{
	return i == 1 || i == 6;
}

TEST_F_TIMEOUT(gate, deny_and_allow_on_real_traffic, 60)
{
	struct kbloom_gate_stats a, b;
	__u32 got[NSRC], mode, i, drops4, drops6;
	__u8 s[16];

	/* open: everything arrives, ARP included (the UDP needs it) */
	ASSERT_EQ(0, udp_round(self, got));
	for (i = 0; i < NSRC; i++)
		EXPECT_EQ(ROUNDS, got[i]);
	for (i = 0; i < NSRC; i++) {
		if (in4(i)) {
			src4(s, i);
			ASSERT_EQ(0, kbloom_gate_add(self->x, s, 4));
		}
		if (in6(i)) {
			src6(s, i);
			ASSERT_EQ(0, kbloom_gate_add(self->x, s, 16));
		}
	}
	for (mode = KBLOOM_GATE_DENY; mode <= KBLOOM_GATE_ALLOW; mode++) {
		ASSERT_EQ(0, kbloom_gate_set_mode(self->x, mode, 0));
		drain_cap(self->cap);
		ASSERT_EQ(0, kbloom_gate_stats(self->x, &a));
		ASSERT_EQ(0, udp_round(self, got));
		drops4 = 0;
		for (i = 0; i < NSRC; i++) {
			int pass = mode == KBLOOM_GATE_DENY ? !in4(i) : in4(i);

			EXPECT_EQ(pass ? ROUNDS : 0, got[i])
				TH_LOG("mode %u IPv4 source %u", mode, i);
			drops4 += pass ? 0 : ROUNDS;
		}
		ASSERT_EQ(0, raw6_round(self, got));
		drops6 = 0;
		for (i = 0; i < NSRC; i++) {
			int pass = mode == KBLOOM_GATE_DENY ? !in6(i) : in6(i);

			EXPECT_EQ(pass ? ROUNDS : 0, got[i])
				TH_LOG("mode %u IPv6 source %u", mode, i);
			drops6 += pass ? 0 : ROUNDS;
		}
		ASSERT_EQ(0, kbloom_gate_stats(self->x, &b));
		EXPECT_EQ(drops4 + drops6, b.drops - a.drops);
		EXPECT_EQ(2 * NSRC * ROUNDS, b.passed - a.passed + b.drops -
			  a.drops);
		EXPECT_EQ((4 + 0) * ROUNDS, b.exact_hits - a.exact_hits);
		EXPECT_EQ(b.exact_lookups - a.exact_lookups,
			  b.exact_hits - a.exact_hits + b.false_positives -
			  a.false_positives);
	}
	/* removal takes effect at once */
	src4(s, 2);
	ASSERT_EQ(0, kbloom_gate_del(self->x, s, 4));
	ASSERT_EQ(0, udp_round(self, got));
	EXPECT_EQ(0, got[2]);		/* allow mode: no longer allowed */
	EXPECT_EQ(ROUNDS, got[5]);
}

struct rflow {
	struct kbt_ns *ns;
	atomic_int stop;
	__u32 sent[2];		/* blocked, allowed */
	int err;
};

static void *rsender(void *arg)
{
	static const __u8 dst[16] = { 0xfd, [15] = 2 };
	static const __u8 dmac[6] = { 2, 0, 0, 0, 7, 2 };
	struct rflow *fl = arg;
	struct kbt_payload pl = { KBT_MAGIC, 0, 0, 3 };
	struct kbt_frame_opts o = {
		.v6 = 1, .dst = dst, .dmac = dmac, .payload = &pl,
		.plen = sizeof(pl),
	};
	__u8 f[256], s[16];
	int tx = kbt_psock(fl->ns, "eth0"), k;
	size_t n;

	if (tx < 0) {
		fl->err = 1;
		return NULL;
	}
	while (!atomic_load(&fl->stop)) {
		for (k = 0; k < 2; k++) {
			src6(s, k ? 0 : 1);	/* 1 is in the set */
			o.src = s;
			pl.group = k;
			pl.seq = fl->sent[k]++;
			n = kbt_frame(f, &o);
			if (send(tx, f, n, 0) != (ssize_t)n)
				fl->err = 1;
		}
		usleep(100);
	}
	close(tx);
	return NULL;
}

TEST_F_TIMEOUT(gate, replace_under_traffic, 60)
{
	struct kbt_payload pl;
	struct rflow fl = {};
	__u32 got[2] = {}, i;
	double last;
	pthread_t th;
	__u8 s[16];

	src6(s, 1);
	ASSERT_EQ(0, kbloom_gate_add(self->x, s, 16));
	ASSERT_EQ(0, kbloom_gate_set_mode(self->x, KBLOOM_GATE_DENY, 0));
	drain_cap(self->cap);
	fl.ns = &self->a;
	ASSERT_EQ(0, pthread_create(&th, NULL, rsender, &fl));
	for (i = 0; i < 5; i++) {
		usleep(20000);
		ASSERT_EQ(0, kbloom_xdp_replace(self->x));
		/* keep the capture drained meanwhile */
		while (kbt_precv(self->cap, &pl))
			if (pl.tag == 3 && pl.group < 2)
				got[pl.group]++;
	}
	usleep(20000);
	atomic_store(&fl.stop, 1);
	pthread_join(th, NULL);
	ASSERT_EQ(0, fl.err);
	last = kbt_now();
	while (kbt_now() - last < 0.2) {
		if (!kbt_precv(self->cap, &pl)) {
			usleep(1000);
			continue;
		}
		last = kbt_now();
		if (pl.tag == 3 && pl.group < 2)
			got[pl.group]++;
	}
	TH_LOG("blocked: %u sent, %u through; allowed: %u sent, %u through",
	       fl.sent[0], got[0], fl.sent[1], got[1]);
	EXPECT_EQ(0, got[0]);
	EXPECT_EQ(fl.sent[1], got[1]);
}

TEST_HARNESS_MAIN
