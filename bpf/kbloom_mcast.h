/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom mcast: the multicast switch shared by its two variants,
 * kbloom_mcast.bpf.c (filters in BPF maps) and kbloom_kfunc_mcast.bpf.c
 * (filters owned by kbloom.ko): the maps, the ingress program, the leak
 * audit and the egress decision.  A variant defines mcast_port_test(),
 * the port's membership test, and nothing else of the switch.
 */
#ifndef _KBLOOM_MCAST_H
#define _KBLOOM_MCAST_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_bpf.h"
#include "bpf/kbloom_pkt.h"

#define KBLOOM_MCAST_PORTS	64	/* default, the loader sets the size */

KBLOOM_BTF_TYPES;

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, KBLOOM_MCAST_PORTS);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} mc_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, KBLOOM_MCAST_PORTS);
	__type(key, __u32);
	__type(value, struct kbloom_params);
} mc_params SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, KBLOOM_MCAST_PORTS * KBLOOM_SLOTS_PER_FILTER);
	__type(key, __u32);
	__array(values, struct kbloom_blocks);
} mc_filters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, KBLOOM_MCAST_PORTS);
	__type(key, __u32);
	__type(value, struct kbloom_mcast_stats);
} mc_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, struct kbloom_member_key);
	__type(value, __u32);
} mc_members SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_mcast_cfg);
} mc_config SEC(".maps");

static __always_inline struct kbloom_mcast_stats *
mcast_stats(const struct kbloom_params *p)
{
	__u32 index = p->index;

	return bpf_map_lookup_elem(&mc_stats, &index);
}

SEC("xdp")
int kbloom_mcast_ingress(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u32 ifindex = ctx->ingress_ifindex;
	const struct kbloom_params *p;
	struct kbloom_mcast_stats *st;
	struct kbloom_pkt pkt;

	p = bpf_map_lookup_elem(&mc_params, &ifindex);
	if (!p)
		return XDP_PASS;	/* not a port of this switch */
	st = mcast_stats(p);
	if (!st)
		return XDP_PASS;
	st->rx_packets++;
	if (!KBLOOM_MCAST_RX_COUNT(st, kbloom_mcast_rx(data, data_end, &pkt)))
		return XDP_PASS;
	return bpf_redirect_map(&mc_ports, 0,
				BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
}

/* Count a forwarded copy of a group the port has not joined. */
static __always_inline void mcast_audit(struct kbloom_mcast_stats *st,
					__u32 ifindex,
					const struct kbloom_pkt *pkt)
{
	struct kbloom_member_key mk = {};
	struct kbloom_mcast_cfg *cfg;
	__u32 zero = 0;

	cfg = bpf_map_lookup_elem(&mc_config, &zero);
	if (!cfg || !(cfg->flags & KBLOOM_MCAST_F_AUDIT))
		return;
	mk.ifindex = ifindex;
	mk.len = pkt->addr_len;
	__builtin_memcpy(mk.addr, pkt->dst, sizeof(mk.addr));
	if (!bpf_map_lookup_elem(&mc_members, &mk))
		st->tx_leaked++;
}

/*
 * The port's membership test of the copy's group: KBLOOM_MAYBE,
 * KBLOOM_ABSENT or -errno.  Each variant (map-backed, kfunc) defines it.
 */
static __always_inline int mcast_port_test(__u32 ifindex,
					   const struct kbloom_params *p,
					   const struct kbloom_pkt *pkt);

/* Whether the port @ifindex keeps this copy; counted when @count. */
static __always_inline int mcast_egress(struct xdp_md *ctx, __u32 ifindex,
					int count)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct kbloom_mcast_stats *st = NULL;
	const struct kbloom_params *p;
	struct kbloom_pkt pkt;
	int ret;

	p = bpf_map_lookup_elem(&mc_params, &ifindex);
	if (!p)
		return XDP_DROP;
	if (count) {
		st = mcast_stats(p);
		if (!st)
			return XDP_DROP;
		st->tx_seen++;
	}
	if (kbloom_mcast_rx(data, data_end, &pkt) != KBLOOM_MCAST_RX_DATA)
		ret = -EINVAL;
	else
		ret = mcast_port_test(ifindex, p, &pkt);
	if (ret == KBLOOM_MAYBE) {
		if (st) {
			st->tx_forwarded++;
			mcast_audit(st, ifindex, &pkt);
		}
		return XDP_PASS;
	}
	if (st) {
		if (ret == KBLOOM_ABSENT)
			st->tx_filtered++;
		else
			st->tx_errors++;
	}
	return XDP_DROP;
}

SEC("xdp/devmap")
int kbloom_mcast_egress(struct xdp_md *ctx)
{
	return mcast_egress(ctx, ctx->egress_ifindex, 1);
}

SEC("xdp")
int kbloom_mcast_check(struct xdp_md *ctx)
{
	return mcast_egress(ctx, ctx->ingress_ifindex, 0);
}

#endif /* _KBLOOM_MCAST_H */
