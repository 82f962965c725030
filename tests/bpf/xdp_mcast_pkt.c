// SPDX-License-Identifier: GPL-2.0
/*
 * The mcast path on synthetic frames (BPF_PROG_TEST_RUN).
 *
 * An mcast instance with three ports (veth ends in a private namespace);
 * port 1 joins some groups, port 2 none.  kbloom_mcast_ingress is run as
 * if the frame arrived on port 0, kbloom_mcast_check (the egress decision
 * of the devmap program, as a plain XDP program) as if it left on port 1
 * or 2.  Every class of frame: IPv4/IPv6 multicast to joined and other
 * groups, with and without a VLAN tag, IPv4 options, IPv6 extension
 * headers and fragments, IGMP/MLD, link-local groups (flooded, to the
 * stack or filtered), unicast, broadcast, ARP, two tags, and malformed
 * headers; then every truncation of the multicast frames: never
 * XDP_ABORTED, never forwarded unless whole.  The counters of the ingress
 * program match the classes: the ingress port's rx counters, and the tx
 * counters of the other ports, whose copies it decides.
 */
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"
#include "bpf/kbloom_pkt.h"

#define NPORTS	3

FIXTURE(mpkt) {
	char name[64];
	struct kbt_ns ns;
	int saved;
	struct kbloom_xdp *x;
	int ifindex[NPORTS];
	int ingress, check;
	__u8 g4[16], g6[16], o4[16], o6[16];
};

static void mp_cleanup(FIXTURE_DATA(mpkt) *self)
{
	if (self->ingress > 0)
		close(self->ingress);
	if (self->check > 0)
		close(self->check);
	self->ingress = self->check = 0;
	if (self->x)
		kbloom_xdp_close(self->x);
	self->x = NULL;
	if (self->name[0])
		kbt_unpin(self->name);
	if (self->saved > 0)
		kbt_ns_leave(self->saved);
	self->saved = 0;
	kbt_ns_free(&self->ns);
}

static int mp_setup(FIXTURE_DATA(mpkt) *self)
{
	struct kbloom_xdp_opts o = {
		.geom = { .capacity = 64, .fpr_pico = 100000000ULL },
	};
	int i, ret;

	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "mpkt");
	if (kbt_ns_quiet(&self->ns))
		return -1;
	/* the whole test runs in the namespace: ifindexes, test runs */
	if (kbt_ns_enter(&self->ns, &self->saved))
		return -1;
	if (kbt_veth_ports(&self->ns, NPORTS, self->ifindex))
		return -1;
	ret = kbloom_xdp_create(self->name, KBLOOM_XDP_MCAST, &o, &self->x);
	if (ret)
		return ret;
	for (i = 0; i < NPORTS; i++) {
		ret = kbloom_mcast_port_add(self->x, self->ifindex[i], NULL);
		if (ret)
			return ret;
	}
	kbt_group(self->g4, 0, 1);
	kbt_group(self->g6, 1, 1);
	kbt_group(self->o4, 0, 2);
	kbt_group(self->o6, 1, 2);
	ret = kbloom_mcast_join(self->x, self->ifindex[1], self->g4, 4);
	ret = ret ?: kbloom_mcast_join(self->x, self->ifindex[1], self->g6, 16);
	if (ret)
		return ret;
	self->ingress = kbt_prog(self->name, "prog_ingress");
	self->check = kbt_prog(self->name, "prog_check");
	return self->ingress > 0 && self->check > 0 ? 0 : -1;
}

FIXTURE_SETUP(mpkt)
{
	int ret = mp_setup(self);

	if (ret)
		mp_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(mpkt)
{
	mp_cleanup(self);
}

enum { C_MCAST, C_CONTROL, C_OTHER, C_MALFORMED };

struct verdicts {
	__u32 in;	/* ingress on port 0 */
	__u32 chk[NPORTS];
};

static int run_all(FIXTURE_DATA(mpkt) *self, const __u8 *f, __u32 len,
		   struct verdicts *v)
{
	int i;

	if (kbt_run(self->ingress, f, len, self->ifindex[0], &v->in))
		return -1;
	for (i = 1; i < NPORTS; i++)
		if (kbt_run(self->check, f, len, self->ifindex[i], &v->chk[i]))
			return -1;
	return 0;
}

static const __u8 src4[4] = { 10, 0, 0, 1 };
static const __u8 src6[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			       0, 1 };
static const struct kbt_payload pl = { KBT_MAGIC, 1, 2, 3 };

static size_t mk(__u8 *buf, int v6, const __u8 *dst, int vlan, __u32 opts,
		 __u8 l4)
{
	struct kbt_frame_opts o = {
		.v6 = v6, .vlan = vlan, .src = v6 ? src6 : src4, .dst = dst,
		.payload = &pl, .plen = sizeof(pl), .l4 = l4,
	};

	if (v6)
		o.ip6_ext = opts;
	else
		o.ip4_opts = opts;
	return kbt_frame(buf, &o);
}

/* One frame of a class: ingress verdict, check verdicts, one count. */
static void expect_class(struct __test_metadata *_metadata,
			 FIXTURE_DATA(mpkt) *self, const __u8 *f, __u32 len,
			 int cls, int member, const char *what)
{
	struct kbloom_mcast_stats a, b, a1, b1, a2, b2;
	struct verdicts v;

	ASSERT_EQ(0, kbloom_mcast_stats(self->x, self->ifindex[0], &a));
	ASSERT_EQ(0, kbloom_mcast_stats(self->x, self->ifindex[1], &a1));
	ASSERT_EQ(0, kbloom_mcast_stats(self->x, self->ifindex[2], &a2));
	ASSERT_EQ(0, run_all(self, f, len, &v)) TH_LOG("%s", what);
	ASSERT_EQ(0, kbloom_mcast_stats(self->x, self->ifindex[0], &b));
	ASSERT_EQ(0, kbloom_mcast_stats(self->x, self->ifindex[1], &b1));
	ASSERT_EQ(0, kbloom_mcast_stats(self->x, self->ifindex[2], &b2));
	EXPECT_EQ(1, b.rx_packets - a.rx_packets) TH_LOG("%s", what);
	/* the ingress program decides (and counts) every other port's copy */
	EXPECT_EQ(cls == C_MCAST, b1.tx_seen - a1.tx_seen) TH_LOG("%s", what);
	EXPECT_EQ(cls == C_MCAST && member, b1.tx_forwarded - a1.tx_forwarded)
		TH_LOG("%s", what);
	EXPECT_EQ(cls == C_MCAST && !member, b1.tx_filtered - a1.tx_filtered)
		TH_LOG("%s", what);
	EXPECT_EQ(cls == C_MCAST, b2.tx_filtered - a2.tx_filtered)
		TH_LOG("%s", what);
	EXPECT_EQ(0, b2.tx_forwarded - a2.tx_forwarded) TH_LOG("%s", what);
	if (cls == C_MCAST) {
		/* a frame no port keeps is dropped at ingress */
		EXPECT_EQ(member ? XDP_REDIRECT : XDP_DROP, v.in)
			TH_LOG("%s", what);
		EXPECT_EQ(1, b.rx_mcast - a.rx_mcast) TH_LOG("%s", what);
		EXPECT_EQ(member ? XDP_PASS : XDP_DROP, v.chk[1])
			TH_LOG("%s", what);
		EXPECT_EQ(XDP_DROP, v.chk[2]) TH_LOG("%s", what);
		return;
	}
	EXPECT_EQ(XDP_PASS, v.in) TH_LOG("%s", what);
	EXPECT_EQ(XDP_DROP, v.chk[1]) TH_LOG("%s", what);
	EXPECT_EQ(XDP_DROP, v.chk[2]) TH_LOG("%s", what);
	if (cls == C_CONTROL)
		EXPECT_EQ(1, b.rx_control - a.rx_control) TH_LOG("%s", what);
	if (cls == C_OTHER)
		EXPECT_EQ(1, b.rx_other - a.rx_other) TH_LOG("%s", what);
	if (cls == C_MALFORMED)
		EXPECT_EQ(1, b.rx_malformed - a.rx_malformed)
			TH_LOG("%s", what);
}

TEST_F(mpkt, multicast_member_and_not)
{
	__u8 f[512];
	int v6, vl, fp;
	size_t n;

	/* "other" groups must not be false positives of port 1 */
	fp = kbloom_xdp_filter_test(self->x, self->ifindex[1], self->o4, 4) |
	     kbloom_xdp_filter_test(self->x, self->ifindex[1], self->o6, 16);
	ASSERT_EQ(0, fp);
	for (v6 = 0; v6 < 2; v6++) {
		for (vl = 0; vl < 3; vl++) {
			int tci = vl ? 100 : 0;

			n = mk(f, v6, v6 ? self->g6 : self->g4, tci, 0, 0);
			if (vl == 2) {	/* 802.1ad */
				f[12] = 0x88;
				f[13] = 0xa8;
			}
			expect_class(_metadata, self, f, n, C_MCAST, 1,
				     "joined group");
			n = mk(f, v6, v6 ? self->o6 : self->o4, tci, 0, 0);
			if (vl == 2) {
				f[12] = 0x88;
				f[13] = 0xa8;
			}
			expect_class(_metadata, self, f, n, C_MCAST, 0,
				     "other group");
		}
	}
}

TEST_F(mpkt, options_extension_headers_fragments)
{
	__u8 f[1024];
	char what[64];
	__u32 k;
	size_t n;

	for (k = 1; k <= 10; k++) {
		n = mk(f, 0, self->g4, 0, k, 0);
		snprintf(what, sizeof(what), "IPv4, %u option words", k);
		expect_class(_metadata, self, f, n, C_MCAST, 1, what);
	}
	for (k = 1; k <= KBLOOM_IPV6_EXT_MAX; k++) {
		n = mk(f, 1, self->g6, 0, k, 0);
		snprintf(what, sizeof(what), "IPv6, %u extension headers", k);
		expect_class(_metadata, self, f, n, C_MCAST, 1, what);
		n = mk(f, 1, self->g6, 7, k, 0);
		expect_class(_metadata, self, f, n, C_MCAST, 1, what);
	}
	/* a non-first fragment: the 4th header is the fragment header */
	n = mk(f, 1, self->g6, 0, 4, 0);
	f[14 + 40 + 8 + 16 + 8 + 3] = 0x08;	/* offset 1 */
	expect_class(_metadata, self, f, n, C_MCAST, 1, "non-first fragment");
	/* an IPv4 fragment */
	n = mk(f, 0, self->g4, 0, 0, 0);
	f[14 + 6] = 0x20;	/* more fragments */
	expect_class(_metadata, self, f, n, C_MCAST, 1, "IPv4 fragment");
}

TEST_F(mpkt, not_forwarded_classes)
{
	static const __u8 uni4[4] = { 10, 0, 0, 2 }, bc4[4] = { 255, 255, 255,
								  255 };
	static const __u8 igmp[4] = { 224, 0, 0, 22 };
	__u8 uni6[16] = { 0xfd, [15] = 2 }, mld[16] = { 0xff, 2, [15] = 0x16 };
	__u8 f[512];
	size_t n;

	n = mk(f, 0, uni4, 0, 0, 0);
	expect_class(_metadata, self, f, n, C_OTHER, 0, "IPv4 unicast");
	n = mk(f, 0, bc4, 0, 0, 0);
	expect_class(_metadata, self, f, n, C_OTHER, 0, "IPv4 broadcast");
	n = mk(f, 1, uni6, 0, 0, 0);
	expect_class(_metadata, self, f, n, C_OTHER, 0, "IPv6 unicast");
	n = mk(f, 1, uni6, 5, 2, 0);
	expect_class(_metadata, self, f, n, C_OTHER, 0, "IPv6 unicast, tag");
	n = mk(f, 0, igmp, 0, 1, 2);
	expect_class(_metadata, self, f, n, C_CONTROL, 0, "IGMP");
	n = mk(f, 1, mld, 0, 1, 58);
	expect_class(_metadata, self, f, n, C_CONTROL, 0, "MLDv2 report");
	n = mk(f, 1, mld, 9, 1, 58);
	expect_class(_metadata, self, f, n, C_CONTROL, 0, "MLDv2, tag");

	/* ARP request */
	memset(f, 0, 64);
	memset(f, 0xff, 6);
	f[6] = 2;
	f[12] = 0x08;
	f[13] = 0x06;
	f[14 + 1] = 1;
	f[14 + 2] = 0x08;
	f[14 + 4] = 6;
	f[14 + 5] = 4;
	f[14 + 7] = 1;
	expect_class(_metadata, self, f, 60, C_OTHER, 0, "ARP");

	/* two VLAN tags: not parsed, not forwarded */
	n = mk(f, 0, self->g4, 10, 0, 0);
	memmove(f + 16, f + 12, n - 12);
	f[12] = 0x88;
	f[13] = 0xa8;
	f[14] = 0;
	f[15] = 20;
	expect_class(_metadata, self, f, n + 4, C_OTHER, 0, "two tags");
}

TEST_F(mpkt, malformed_headers)
{
	__u8 f[1024];
	size_t n;

	n = mk(f, 0, self->g4, 0, 0, 0);
	f[14] = 0x55;
	expect_class(_metadata, self, f, n, C_MALFORMED, 0, "IPv4 version 5");
	n = mk(f, 0, self->g4, 0, 0, 0);
	f[14] = 0x44;
	expect_class(_metadata, self, f, n, C_MALFORMED, 0, "IHL 4");
	n = mk(f, 0, self->g4, 0, 0, 0);
	f[14 + 2] = 0;
	f[14 + 3] = 19;
	expect_class(_metadata, self, f, n, C_MALFORMED, 0, "total < header");
	n = mk(f, 0, self->g4, 0, 0, 0);
	f[14 + 2] = 0x10;
	expect_class(_metadata, self, f, n, C_MALFORMED, 0, "total > frame");
	n = mk(f, 0, self->g4, 0, 10, 0);
	f[14 + 2] = 0;
	f[14 + 3] = 40;		/* shorter than its 60-byte header */
	expect_class(_metadata, self, f, n, C_MALFORMED, 0, "options cut");
	n = mk(f, 1, self->g6, 0, 0, 0);
	f[14] = 0x40;
	expect_class(_metadata, self, f, n, C_MALFORMED, 0, "IPv6 version 4");
	n = mk(f, 1, self->g6, 0, 0, 0);
	f[14 + 4] = 0x10;
	expect_class(_metadata, self, f, n, C_MALFORMED, 0, "payload > frame");
	n = mk(f, 1, self->g6, 0, KBLOOM_IPV6_EXT_MAX + 1, 0);
	expect_class(_metadata, self, f, n, C_MALFORMED, 0,
		     "too many extension headers");
	n = mk(f, 1, self->g6, 0, 2, 0);
	f[14 + 40 + 1] = 200;	/* hop-by-hop beyond the payload */
	expect_class(_metadata, self, f, n, C_MALFORMED, 0,
		     "extension header beyond payload");
	n = mk(f, 1, self->g6, 0, 0, 0);
	f[14 + 4] = 0;
	f[14 + 5] = 0;		/* payload 0: UDP header outside */
	n = 14 + 40;
	expect_class(_metadata, self, f, n, C_MCAST, 1,
		     "IPv6 with an empty payload is well formed");
}

/* One link-local frame: verdicts and rx_local by the flood setting. */
static void expect_local(struct __test_metadata *_metadata,
			 FIXTURE_DATA(mpkt) *self, const __u8 *f, __u32 len,
			 __u32 flags, const char *what)
{
	struct kbloom_mcast_stats a, b;
	struct verdicts v;

	ASSERT_EQ(0, kbloom_mcast_set_flags(self->x, flags));
	ASSERT_EQ(0, kbloom_mcast_stats(self->x, self->ifindex[0], &a));
	ASSERT_EQ(0, run_all(self, f, len, &v)) TH_LOG("%s", what);
	ASSERT_EQ(0, kbloom_mcast_stats(self->x, self->ifindex[0], &b));
	EXPECT_EQ(1, b.rx_local - a.rx_local) TH_LOG("%s", what);
	EXPECT_EQ(0, b.rx_mcast - a.rx_mcast) TH_LOG("%s", what);
	EXPECT_EQ(flags & KBLOOM_MCAST_F_LOCAL_STACK ? XDP_PASS : XDP_REDIRECT,
		  v.in) TH_LOG("%s", what);
	/* port 1 joined 224.0.0.251 and ff02::fb, port 2 nothing */
	EXPECT_EQ(XDP_PASS, v.chk[1]) TH_LOG("%s", what);
	EXPECT_EQ(flags & KBLOOM_MCAST_F_LOCAL_FILTER ? XDP_DROP : XDP_PASS,
		  v.chk[2]) TH_LOG("%s", what);
}

/*
 * Link-local and reserved groups: flooded (every port, unfiltered), to
 * the stack, or filtered, by the config; IGMP and MLD stay control, and
 * the scopes next to them stay data.
 */
TEST_F(mpkt, link_local_flooded)
{
	static const __u32 modes[] = {
		KBLOOM_MCAST_F_AUDIT,
		KBLOOM_MCAST_F_AUDIT | KBLOOM_MCAST_F_LOCAL_STACK,
		KBLOOM_MCAST_F_LOCAL_FILTER,
	};
	static const __u8 mdns4[4] = { 224, 0, 0, 251 };
	static const __u8 igmp[4] = { 224, 0, 0, 22 };
	static const __u8 not4[4] = { 224, 0, 1, 251 };
	__u8 mdns6[16] = { 0xff, 2, [15] = 0xfb }, ns6[16] = { 0xff, 2,
		[11] = 1, [12] = 0xff, [15] = 2 };
	__u8 if6[16] = { 0xff, 1, [15] = 1 }, site6[16] = { 0xff, 5, [15] = 1 };
	__u8 tr6[16] = { 0xff, 0x12, [15] = 1 }, f[512];
	__u32 m;
	size_t n;

	ASSERT_EQ(0, kbloom_mcast_join(self->x, self->ifindex[1], mdns4, 4));
	ASSERT_EQ(0, kbloom_mcast_join(self->x, self->ifindex[1], mdns6, 16));
	ASSERT_EQ(0, kbloom_mcast_join(self->x, self->ifindex[1], ns6, 16));
	ASSERT_EQ(0, kbloom_mcast_join(self->x, self->ifindex[1], if6, 16));
	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		n = mk(f, 0, mdns4, 0, 0, 0);
		expect_local(_metadata, self, f, n, modes[m], "224.0.0.251");
		n = mk(f, 0, mdns4, 7, 2, 0);
		expect_local(_metadata, self, f, n, modes[m], "tagged, options");
		n = mk(f, 1, mdns6, 0, 0, 0);
		expect_local(_metadata, self, f, n, modes[m], "ff02::fb");
		n = mk(f, 1, ns6, 0, 0, 58);
		f[14 + 40] = 135;	/* a neighbour solicitation */
		expect_local(_metadata, self, f, n, modes[m], "ND");
		n = mk(f, 1, if6, 0, 1, 0);
		expect_local(_metadata, self, f, n, modes[m], "ff01::1");
	}
	/* not link-local: data; IGMP and MLD: control, whatever the mode */
	n = mk(f, 0, not4, 0, 0, 0);
	expect_class(_metadata, self, f, n, C_MCAST, 0, "224.0.1.251");
	n = mk(f, 1, site6, 0, 0, 0);
	expect_class(_metadata, self, f, n, C_MCAST, 0, "ff05::1");
	n = mk(f, 1, tr6, 0, 0, 0);
	expect_class(_metadata, self, f, n, C_MCAST, 0, "ff12::1");
	n = mk(f, 0, igmp, 0, 1, 2);
	expect_class(_metadata, self, f, n, C_CONTROL, 0, "IGMP");
	n = mk(f, 1, mdns6, 0, 1, 58);
	expect_class(_metadata, self, f, n, C_CONTROL, 0, "MLDv2 to ff02::");
	/* both ways at once: refused, nothing changed */
	EXPECT_EQ(-EINVAL, kbloom_mcast_set_flags(self->x,
		  KBLOOM_MCAST_F_LOCAL_MASK));
	ASSERT_EQ(0, kbloom_mcast_flags(self->x, &m));
	EXPECT_EQ(KBLOOM_MCAST_F_LOCAL_FILTER, m);
}

/*
 * Every truncation of every multicast frame shape: never aborted, never
 * forwarded, whatever length, until the frame is whole.  The kernel
 * refuses frames shorter than Ethernet (they never reach XDP): for those
 * the same parser, compiled for userspace, must say malformed.
 */
TEST_F(mpkt, every_truncation)
{
	struct { int v6, vlan; __u32 opts; } shapes[] = {
		{ 0, 0, 0 }, { 0, 0, 10 }, { 0, 100, 0 }, { 0, 100, 3 },
		{ 1, 0, 0 }, { 1, 0, 4 }, { 1, 100, 0 }, { 1, 100, 8 },
	};
	struct kbloom_mcast_stats a, b;
	struct kbloom_pkt pkt;
	struct verdicts v;
	__u32 s, len, runs = 0;
	__u8 f[1024];
	size_t n;

	ASSERT_EQ(0, kbloom_mcast_stats(self->x, self->ifindex[0], &a));
	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		n = mk(f, shapes[s].v6, shapes[s].v6 ? self->g6 : self->g4,
		       shapes[s].vlan, shapes[s].opts, 0);
		for (len = 0; len < 14; len++) {
			EXPECT_NE(0, kbt_run(self->ingress, f, len,
					     self->ifindex[0], &v.in));
			EXPECT_EQ(KBLOOM_PKT_MALFORMED,
				  kbloom_parse(f, f + len, &pkt));
		}
		for (len = 14; len <= n; len++) {
			ASSERT_EQ(0, run_all(self, f, len, &v));
			runs++;
			EXPECT_NE(XDP_ABORTED, v.in);
			EXPECT_NE(XDP_ABORTED, v.chk[1]);
			EXPECT_NE(XDP_ABORTED, v.chk[2]);
			if (len < n) {
				EXPECT_EQ(XDP_PASS, v.in)
					TH_LOG("shape %u len %u", s, len);
				EXPECT_EQ(XDP_DROP, v.chk[1])
					TH_LOG("shape %u len %u", s, len);
				EXPECT_EQ(KBLOOM_PKT_MALFORMED,
					  kbloom_parse(f, f + len, &pkt));
			} else {
				EXPECT_EQ(XDP_REDIRECT, v.in);
				EXPECT_EQ(XDP_PASS, v.chk[1]);
				EXPECT_EQ(KBLOOM_PKT_IP,
					  kbloom_parse(f, f + len, &pkt));
			}
			EXPECT_EQ(XDP_DROP, v.chk[2]);
		}
	}
	ASSERT_EQ(0, kbloom_mcast_stats(self->x, self->ifindex[0], &b));
	EXPECT_EQ(runs, b.rx_packets - a.rx_packets);
	/* every truncated frame is malformed, every whole one multicast */
	EXPECT_EQ(runs, b.rx_mcast - a.rx_mcast + b.rx_malformed -
		  a.rx_malformed + b.rx_other - a.rx_other);
	EXPECT_EQ(sizeof(shapes) / sizeof(shapes[0]), b.rx_mcast - a.rx_mcast);
}

/* The egress decision equals the loader's view of the filter. */
TEST_F(mpkt, check_agrees_with_filter)
{
	__u32 g, fp = 0, v6;
	__u8 grp[16], f[256];
	struct verdicts v;
	size_t n;
	int t;

	for (v6 = 0; v6 < 2; v6++) {
		for (g = 3; g < 3000; g++) {
			kbt_group(grp, v6, g);
			t = kbloom_xdp_filter_test(self->x, self->ifindex[1],
						   grp, v6 ? 16 : 4);
			ASSERT_LE(0, t);
			n = mk(f, v6, grp, 0, 0, 0);
			ASSERT_EQ(0, run_all(self, f, n, &v));
			EXPECT_EQ(t ? XDP_PASS : XDP_DROP, v.chk[1]);
			EXPECT_EQ(XDP_DROP, v.chk[2]);
			fp += t;
		}
	}
	/* 64 groups at 0.01%: 2 joined, so practically none */
	EXPECT_LE(fp, 2);
}

TEST_F(mpkt, join_leave_port_semantics)
{
	__u8 uni[4] = { 10, 1, 2, 3 }, f[256], grp[16];
	struct kbloom_addr_key gl[8];
	struct verdicts v;
	size_t n;

	EXPECT_EQ(-EINVAL, kbloom_mcast_join(self->x, self->ifindex[1], uni, 4));
	EXPECT_EQ(-EINVAL, kbloom_mcast_join(self->x, self->ifindex[1],
					     self->g4, 5));
	EXPECT_EQ(-EEXIST, kbloom_mcast_join(self->x, self->ifindex[1],
					     self->g4, 4));
	EXPECT_EQ(-ENOENT, kbloom_mcast_leave(self->x, self->ifindex[1],
					      self->o4, 4));
	EXPECT_EQ(-ENOENT, kbloom_mcast_join(self->x, 999999, self->o4, 4));
	EXPECT_EQ(-EEXIST, kbloom_mcast_port_add(self->x, self->ifindex[1],
						 NULL));
	EXPECT_EQ(2, kbloom_mcast_groups(self->x, self->ifindex[1], gl, 8));
	EXPECT_EQ(0, kbloom_mcast_groups(self->x, self->ifindex[2], gl, 8));

	/* leave: the group is no longer forwarded, the other one still is */
	ASSERT_EQ(0, kbloom_mcast_leave(self->x, self->ifindex[1], self->g4, 4));
	EXPECT_EQ(1, kbloom_mcast_groups(self->x, self->ifindex[1], gl, 8));
	n = mk(f, 0, self->g4, 0, 0, 0);
	ASSERT_EQ(0, run_all(self, f, n, &v));
	EXPECT_EQ(XDP_DROP, v.chk[1]);
	n = mk(f, 1, self->g6, 0, 0, 0);
	ASSERT_EQ(0, run_all(self, f, n, &v));
	EXPECT_EQ(XDP_PASS, v.chk[1]);

	/* join on port 2 */
	kbt_group(grp, 0, 77);
	ASSERT_EQ(0, kbloom_mcast_join(self->x, self->ifindex[2], grp, 4));
	n = mk(f, 0, grp, 0, 0, 0);
	ASSERT_EQ(0, run_all(self, f, n, &v));
	EXPECT_EQ(XDP_PASS, v.chk[2]);

	/* a removed port forwards nothing and its memberships are gone */
	ASSERT_EQ(0, kbloom_mcast_port_del(self->x, self->ifindex[2]));
	ASSERT_EQ(0, run_all(self, f, n, &v));
	EXPECT_EQ(XDP_DROP, v.chk[2]);
	EXPECT_EQ(-ENOENT, kbloom_mcast_port_del(self->x, self->ifindex[2]));
	ASSERT_EQ(0, kbloom_mcast_port_add(self->x, self->ifindex[2], NULL));
	EXPECT_EQ(0, kbloom_mcast_groups(self->x, self->ifindex[2], gl, 8));
	ASSERT_EQ(0, run_all(self, f, n, &v));
	EXPECT_EQ(XDP_DROP, v.chk[2]);
}

/* Resizing a port swaps in a new blocks map; memberships survive. */
TEST_F(mpkt, resize_swaps_atomically)
{
	struct kbloom_xdp_geom g = { .m = 512 * 8, .k = 6 };
	struct kbloom_xdp_filter_info a, b;
	struct bpf_map_info mi;
	__u32 len = sizeof(mi);
	char p[512];
	struct verdicts v;
	__u8 f[256];
	size_t n;
	int fd;

	ASSERT_EQ(0, kbloom_xdp_filter_info(self->x, self->ifindex[1], &a));
	ASSERT_EQ(0, kbloom_mcast_port_resize(self->x, self->ifindex[1], &g));
	ASSERT_EQ(0, kbloom_xdp_filter_info(self->x, self->ifindex[1], &b));
	EXPECT_EQ(8, b.params.nblocks);
	EXPECT_EQ(6, b.params.k);
	EXPECT_EQ(a.params.gen + 1, b.params.gen);
	EXPECT_EQ(a.params.slot ^ 1, b.params.slot);
	EXPECT_EQ(2, b.params.inserted);
	/* the pin follows the new map */
	snprintf(p, sizeof(p), "%s/filter_%d", kbloom_xdp_dir(self->x),
		 self->ifindex[1]);
	fd = bpf_obj_get(p);
	ASSERT_LE(0, fd);
	memset(&mi, 0, sizeof(mi));
	ASSERT_EQ(0, bpf_obj_get_info_by_fd(fd, &mi, &len));
	close(fd);
	EXPECT_EQ(8, mi.max_entries);
	n = mk(f, 0, self->g4, 0, 0, 0);
	ASSERT_EQ(0, run_all(self, f, n, &v));
	EXPECT_EQ(XDP_PASS, v.chk[1]);
	n = mk(f, 1, self->g6, 0, 0, 0);
	ASSERT_EQ(0, run_all(self, f, n, &v));
	EXPECT_EQ(XDP_PASS, v.chk[1]);
}

TEST_F(mpkt, port_limit)
{
	struct kbloom_xdp_opts o = { .max_filters = 2 };
	struct kbloom_xdp *y;
	char name[64];

	kbt_name(name, sizeof(name), "mpkt-small");
	ASSERT_EQ(0, kbloom_xdp_create(name, KBLOOM_XDP_MCAST, &o, &y));
	EXPECT_EQ(0, kbloom_mcast_port_add(y, self->ifindex[0], NULL));
	EXPECT_EQ(0, kbloom_mcast_port_add(y, self->ifindex[1], NULL));
	EXPECT_EQ(-ENOSPC, kbloom_mcast_port_add(y, self->ifindex[2], NULL));
	EXPECT_EQ(0, kbloom_mcast_port_del(y, self->ifindex[0]));
	EXPECT_EQ(0, kbloom_mcast_port_add(y, self->ifindex[2], NULL));
	EXPECT_EQ(0, kbloom_xdp_destroy(y));
	kbt_unpin(name);
}

TEST_HARNESS_MAIN
