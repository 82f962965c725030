// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom mcbf: the multicast switch of bpf/kbloom_mcast.bpf.c with
 * Multi-Class Bloom filters on its ports (Li et al., ICNP 2011): a group
 * is tested with the number of probes of its class, so that groups likely
 * to be present cost fewer bits and unlikely ones leak less.
 *
 * The same frames, the same parser (bpf/kbloom_pkt.h), the same devmap
 * pattern and the same blocked filters (bpf/kbloom_bpf.h) as mcast; only
 * the egress test differs:
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
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_bpf.h"
#include "bpf/kbloom_pkt.h"
#include "uapi/kbloom_net_maps.h"

#define MCBF_PORTS	64	/* default, the loader sets the size */

KBLOOM_BTF_TYPES;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, MCBF_PORTS);
	__type(key, __u32);
	__type(value, struct kbloom_mcbf_port);
} mcbf_port SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, MCBF_PORTS * KBLOOM_SLOTS_PER_FILTER);
	__type(key, __u32);
	__array(values, struct kbloom_blocks);
} mcbf_filters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, MCBF_PORTS);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} mcbf_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, MCBF_PORTS);
	__type(key, __u32);
	__type(value, struct kbloom_mcbf_stats);
} mcbf_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, struct kbloom_member_key);
	__type(value, __u32);
} mcbf_members SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_mcbf_cfg);
} mcbf_config SEC(".maps");

static __always_inline struct kbloom_mcbf_stats *
mcbf_stats_of(const struct kbloom_mcbf_port *port)
{
	__u32 index = port->p.index;

	return bpf_map_lookup_elem(&mcbf_stats, &index);
}

SEC("xdp")
int kbloom_mcbf_ingress(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u32 ifindex = ctx->ingress_ifindex;
	const struct kbloom_mcbf_port *port;
	struct kbloom_mcbf_stats *st;
	struct kbloom_pkt pkt;

	port = bpf_map_lookup_elem(&mcbf_port, &ifindex);
	if (!port)
		return XDP_PASS;	/* not a port of this switch */
	st = mcbf_stats_of(port);
	if (!st)
		return XDP_PASS;
	st->rx_packets++;
	if (!KBLOOM_MCAST_RX_COUNT(st, kbloom_mcast_rx(data, data_end, &pkt)))
		return XDP_PASS;
	return bpf_redirect_map(&mcbf_ports, 0, BPF_F_BROADCAST |
				BPF_F_EXCLUDE_INGRESS | XDP_DROP);
}

/* Count a forwarded copy of a group the port has not joined. */
static __always_inline void mcbf_audit(struct kbloom_mcbf_stats *st,
				       __u32 ifindex,
				       const struct kbloom_pkt *pkt)
{
	struct kbloom_member_key mk = {};
	struct kbloom_mcbf_cfg *cfg;
	__u32 zero = 0;

	cfg = bpf_map_lookup_elem(&mcbf_config, &zero);
	if (!cfg || !(cfg->flags & KBLOOM_MCBF_F_AUDIT))
		return;
	mk.ifindex = ifindex;
	mk.len = pkt->addr_len;
	__builtin_memcpy(mk.addr, pkt->dst, sizeof(mk.addr));
	if (!bpf_map_lookup_elem(&mcbf_members, &mk))
		st->tx_leaked++;
}

/* The class-aware test: KBLOOM_MAYBE, KBLOOM_ABSENT or -errno. */
static __always_inline int mcbf_test(const struct kbloom_mcbf_port *port,
				     const struct kbloom_pkt *pkt,
				     int *unused)
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
		*unused = 1;
		return KBLOOM_ABSENT;
	}
	if (kbloom_bpf_filter_blocks(&mcbf_filters, &f))
		return -ENOENT;
	if (pkt->addr_len == KBLOOM_ADDR4_LEN)
		h = kbloom_bpf_hash(f.p, pkt->dst, KBLOOM_ADDR4_LEN);
	else
		h = kbloom_bpf_hash(f.p, pkt->dst, KBLOOM_ADDR6_LEN);
	return kbloom_bpf_test_hash_k(f.blocks, f.p->nblocks, h, k);
}

/* Whether the port @ifindex keeps this copy; counted when @count. */
static __always_inline int mcbf_egress(struct xdp_md *ctx, __u32 ifindex,
				       int count)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	const struct kbloom_mcbf_port *port;
	struct kbloom_mcbf_stats *st = NULL;
	struct kbloom_pkt pkt;
	int ret, unused = 0;

	port = bpf_map_lookup_elem(&mcbf_port, &ifindex);
	if (!port)
		return XDP_DROP;
	if (count) {
		st = mcbf_stats_of(port);
		if (!st)
			return XDP_DROP;
		st->tx_seen++;
	}
	if (kbloom_mcast_rx(data, data_end, &pkt) != KBLOOM_MCAST_RX_DATA)
		ret = -EINVAL;
	else
		ret = mcbf_test(port, &pkt, &unused);
	if (ret == KBLOOM_MAYBE) {
		if (st) {
			st->tx_forwarded++;
			mcbf_audit(st, ifindex, &pkt);
		}
		return XDP_PASS;
	}
	if (st) {
		if (ret == KBLOOM_ABSENT) {
			st->tx_filtered++;
			st->tx_unused += unused;
		} else {
			st->tx_errors++;
		}
	}
	return XDP_DROP;
}

SEC("xdp/devmap")
int kbloom_mcbf_egress(struct xdp_md *ctx)
{
	return mcbf_egress(ctx, ctx->egress_ifindex, 1);
}

SEC("xdp")
int kbloom_mcbf_check(struct xdp_md *ctx)
{
	return mcbf_egress(ctx, ctx->ingress_ifindex, 0);
}

char LICENSE[] SEC("license") = "GPL";
