// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom mcbf: the multicast switch of bpf/kbloom_mcast.bpf.c with
 * Multi-Class Bloom filters on its ports (Li et al., ICNP 2011): a group
 * is tested with the number of probes of its class, so that groups likely
 * to be present cost fewer bits and unlikely ones leak less.
 *
 * The switch of bpf/kbloom_mcast.h (the same frames, parser, devmap
 * pattern, blocked filters, counters and leak audit as mcast) with two
 * hooks of its own: the port record, struct kbloom_mcbf_port (the filter
 * and its class table), and the egress test:
 *
 *   class = kb_mcbf_class_v4() / _v6() of the group address (the high
 *           nibble of IPv4 octet 1, of IPv6 byte 12: uapi/kbloom_ipbf.h),
 *   k     = the port's class table, 0 for an unused class: not a member,
 *           dropped without a lookup (tx_unused),
 *   kbloom_bpf_test_hash_k(the port's blocks, h, k).
 *
 * The class costs one shift and one byte load per copy and no per-group
 * state.  The filters are built by the control plane (kb_mcbf_new(),
 * kb_mcbf_add_v4()/_v6(): libkbloom_net.h) and loaded whole by the loader,
 * which publishes a port's filter and its class table in one element
 * (struct kbloom_mcbf_port), so that no copy is tested with the k of one
 * table against the bits of another.
 *
 * kbloom_mcbf_ingress: multicast data frames to every other port of
 * mcbf_ports (BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS); IGMP, MLD,
 * unicast, ARP, malformed IP: to the stack, never forwarded.
 * kbloom_mcbf_egress: the devmap program of every port.
 * kbloom_mcbf_check: the egress decision as a plain XDP program for
 * BPF_PROG_TEST_RUN, for port ctx->ingress_ifindex, counting nothing.
 *
 * Maps (uapi/kbloom_net_maps.h): mcbf_port, mcbf_filters, mcbf_ports,
 * mcbf_stats, mcbf_members, mcbf_config.
 */
#include "uapi/kbloom_net_maps.h"

/* its loader keeps no port list: each copy is decided at egress */
#define MCAST_DECIDE_AT_EGRESS

#define MCAST_PORT		struct kbloom_mcbf_port
#define mcast_port_params(port)	(&(port)->p)
#define MCAST_PORT_MAP		mcbf_port
#define MCAST_MAP(x)		mcbf_##x
#define MCAST_PROG(x)		kbloom_mcbf_##x
#define MCAST_STATS		struct kbloom_mcbf_stats
#define MCAST_CFG		struct kbloom_mcbf_cfg
#define MCAST_F_AUDIT		KBLOOM_MCBF_F_AUDIT
#include "bpf/kbloom_mcast.h"

/* The class-aware test; an unused class counts in tx_unused. */
static __always_inline int mcast_port_test(__u32 ifindex,
					   const struct kbloom_mcbf_port *port,
					   const struct kbloom_pkt *pkt,
					   struct mcast_hash *hc,
					   struct kbloom_mcbf_stats *st)
{
	struct kbloom_bpf_filter f = { .p = &port->p };
	__u32 cls, k;
	__u64 h;

	if (pkt->addr_len == KBLOOM_ADDR4_LEN)
		cls = kb_mcbf_class_v4(pkt->dst);
	else
		cls = kb_mcbf_class_v6(pkt->dst);
	k = kb_mcbf_class_k(&port->cls, cls);
	if (!k) {
		if (st)
			st->tx_unused++;
		return KBLOOM_ABSENT;
	}
	if (kbloom_bpf_filter_blocks(&mcbf_filters, &f))
		return -ENOENT;
	h = mcast_group_hash(hc, pkt, f.p->hash_id, f.p->seed);
	return kbloom_bpf_test_hash_k(f.blocks, f.p->nblocks, h, k);
}

char LICENSE[] SEC("license") = "GPL";
