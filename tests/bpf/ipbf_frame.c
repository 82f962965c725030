// SPDX-License-Identifier: GPL-2.0
/*
 * The shared cases of tests/core/ipbf_bad_stages.h on real frames.
 *
 * A switch (node 0 of kb_topo_line(1, 2)) in a private namespace runs the
 * ipbf ingress in generic (skb) mode on two veth ports of MTU 65535;
 * every case is sent as one frame through a packet socket on the peer of
 * port 0.  Generic XDP gives a program without frags support the whole
 * frame, linearised, up to the 65549 bytes an MTU of 65535 lets through,
 * so the frames longer than a page, which BPF_PROG_TEST_RUN cannot give
 * whole (tests/bpf/ipbf_pkt.c runs the others), reach the ingress as from
 * the wire: each case moves exactly the ingress counter of its verdict,
 * the verdict the simulator gives at the source on the same bytes.
 */
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/ipbf_cases.h"

#define NPORTS		2
#define MTU		65535
#define WAIT_SECONDS	3.0

FIXTURE(iframe) {
	char name[64];
	struct kbt_ns ns;
	int saved;
	struct kb_topo *t;
	struct kb_lids *l;
	struct kbloom_net *n;
	int ifindex[NPORTS];
	int sock;		/* a packet socket on q0 */
};

static void if_cleanup(FIXTURE_DATA(iframe) *self)
{
	if (self->sock > 0)
		close(self->sock);
	self->sock = 0;
	ipbf_node_cleanup(&self->n, self->name, &self->saved, &self->ns,
			  &self->l, &self->t);
}

/* Port i is p<i>, its peer q<i>: both in the namespace, MTU 65535. */
static int if_ports(FIXTURE_DATA(iframe) *self)
{
	char a[16], b[16];
	int i;

	for (i = 0; i < NPORTS; i++) {
		snprintf(a, sizeof(a), "p%d", i);
		snprintf(b, sizeof(b), "q%d", i);
		if (kbt_veth(NULL, a, &self->ns, b, i) ||
		    kbt_sh(NULL, "ip link set dev %s mtu %d", a, MTU) ||
		    kbt_sh(NULL, "ip link set dev %s mtu %d", b, MTU))
			return -1;
		self->ifindex[i] = kbt_ifindex(NULL, a);
	}
	return 0;
}

static int if_setup(FIXTURE_DATA(iframe) *self)
{
	int ret;

	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "iframe");
	if (kb_topo_line(1, NPORTS, &self->t) ||
	    kb_lids_new(self->t, 42, KB_IPBF_K_DEFAULT, KB_IPBF_D_DEFAULT,
			&self->l))
		return -1;
	if (kbt_ns_quiet(&self->ns))
		return -1;
	/* the whole test runs in the namespace */
	if (kbt_ns_enter(&self->ns, &self->saved) || if_ports(self))
		return -1;
	ret = kbloom_net_create(self->name, KBLOOM_NET_IPBF, NULL, &self->n);
	ret = ret ?: kbloom_ipbf_node_setup(self->n, self->l, 0, self->ifindex,
					    128, KBLOOM_XDP_MODE_GENERIC);
	if (ret)
		return ret;
	self->sock = kbt_psock(NULL, "q0");
	return self->sock > 0 ? 0 : -1;
}

FIXTURE_SETUP(iframe)
{
	int ret = if_setup(self);

	if (ret)
		if_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(iframe)
{
	if_cleanup(self);
}

static struct kbloom_ipbf_stats if_stats(struct __test_metadata *_metadata,
					 FIXTURE_DATA(iframe) *self)
{
	struct kbloom_ipbf_stats st;

	memset(&st, 0, sizeof(st));
	EXPECT_EQ(0, kbloom_ipbf_stats(self->n, self->ifindex[0], &st));
	return st;
}

/*
 * Send @hdr (@hl bytes, the frame after its Ethernet header) from q0 and
 * wait until port 0's ingress has counted it.  Return: its counters after.
 */
static struct kbloom_ipbf_stats if_send(struct __test_metadata *_metadata,
					FIXTURE_DATA(iframe) *self,
					__u8 *f, const __u8 *hdr, __u32 hl,
					const struct kbloom_ipbf_stats *before)
{
	struct kbloom_ipbf_stats st;
	size_t len = ipbf_frame(f, hdr, hl, NULL);
	double t0 = kbt_now();

	EXPECT_EQ((ssize_t)len, send(self->sock, f, len, 0))
		TH_LOG("send %zu bytes: %s", len, strerror(errno));
	do {
		st = if_stats(_metadata, self);
		if (st.rx_packets > before->rx_packets)
			break;
		usleep(1000);
	} while (kbt_now() - t0 < WAIT_SECONDS);
	EXPECT_EQ(before->rx_packets + 1, st.rx_packets) TH_LOG("%zu bytes", len);
	return st;
}

TEST_F(iframe, shared_cases_on_real_frames)
{
	__u8 *copy = malloc(IBS_COPY_MAX), *f = malloc(14 + IBS_COPY_MAX);
	struct kbloom_ipbf_stats st0, s1;
	const struct ibs_case *c;
	struct ibs_net n;
	__u32 i, hl, b, big = 0;

	ASSERT_NE(NULL, copy);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, ibs_net_up(&n));
	s1 = if_stats(_metadata, self);
	for (b = 0; b < IBS_NBASES; b++) {
		st0 = s1;
		s1 = if_send(_metadata, self, f, n.hdr[b], n.len[b], &st0);
		EXPECT_EQ(st0.rx_forwarded + 1, s1.rx_forwarded);
	}
	for (i = 0; i < IBS_NCASES; i++) {
		c = &ibs_cases[i];
		hl = ibs_make(&n, c, copy);
		EXPECT_EQ(1, ibs_sim_agrees(&n, c, copy, hl))
			TH_LOG("%s", c->what);
		st0 = s1;
		s1 = if_send(_metadata, self, f, copy, hl, &st0);
		EXPECT_EQ(ipbf_verdict_count(&st0, c->verdict) + 1,
			  ipbf_verdict_count(&s1, c->verdict))
			TH_LOG("%s", c->what);
		EXPECT_EQ(ipbf_verdicts(&st0) + 1, ipbf_verdicts(&s1))
			TH_LOG("%s", c->what);
		big += 14 + hl > 4096;
	}
	EXPECT_LE(4, big);
	TH_LOG("%llu frames: %llu forwarded, dropped: %llu stage, %llu header, %llu hop, %llu fill",
	       s1.rx_packets, s1.rx_forwarded, s1.drop_stage, s1.drop_header,
	       s1.drop_hop, s1.drop_fill);
	ibs_net_down(&n);
	free(copy);
	free(f);
}

TEST_HARNESS_MAIN
