// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom mcast: a multicast switch on XDP whose ports filter groups with
 * blocked Bloom filters.
 *
 * kbloom_mcast_ingress, attached to every port, sends each IPv4
 * (224.0.0.0/4) or IPv6 (ff00::/8) multicast data frame, with or without
 * one VLAN tag, to every other port of mc_ports (BPF_F_BROADCAST |
 * BPF_F_EXCLUDE_INGRESS).  Everything else goes to the stack untouched
 * (XDP_PASS): unicast, broadcast, ARP, IGMP and MLD (the control plane),
 * and malformed IP frames, which are never forwarded.
 *
 * kbloom_mcast_egress runs in mc_ports for every copy (a devmap egress
 * program) and keeps the copy only if the egress port's filter may hold
 * the group: a false positive is a leaked copy, counted as tx_leaked when
 * KBLOOM_MCAST_F_AUDIT asks for the exact check in mc_members.
 *
 * kbloom_mcast_check is the egress decision as a plain XDP program, for
 * BPF_PROG_TEST_RUN (devmap programs cannot be test-run): it answers for
 * the port ctx->ingress_ifindex, XDP_PASS for "would forward", XDP_DROP
 * otherwise, and counts nothing.
 *
 * Maps (pinned under /sys/fs/bpf/kbloom/<name>/ by the loader):
 *   mc_ports    DEVMAP_HASH   ifindex -> port device + egress program
 *   mc_params   HASH          ifindex -> struct kbloom_params (the port's
 *                             filter and counters index)
 *   mc_filters  ARRAY_OF_MAPS slot -> blocks map (struct kbloom_block)
 *   mc_stats    PERCPU_ARRAY  counters index -> struct kbloom_mcast_stats
 *   mc_members  HASH          struct kbloom_member_key: exact membership,
 *                             the loader's record, read only to audit
 *   mc_config   ARRAY         struct kbloom_mcast_cfg
 * Sizes are set by the loader before loading.
 */
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
	int cls;

	p = bpf_map_lookup_elem(&mc_params, &ifindex);
	if (!p)
		return XDP_PASS;	/* not a port of this switch */
	st = mcast_stats(p);
	if (!st)
		return XDP_PASS;
	st->rx_packets++;
	cls = kbloom_parse(data, data_end, &pkt);
	if (cls == KBLOOM_PKT_MALFORMED) {
		st->rx_malformed++;
		return XDP_PASS;
	}
	if (cls != KBLOOM_PKT_IP || !kbloom_pkt_dst_mcast(&pkt)) {
		st->rx_other++;
		return XDP_PASS;
	}
	if (kbloom_pkt_mcast_control(&pkt)) {
		st->rx_control++;
		return XDP_PASS;
	}
	st->rx_mcast++;
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

/* Whether the port @ifindex keeps this copy; counted when @count. */
static __always_inline int mcast_egress(struct xdp_md *ctx, __u32 ifindex,
					int count)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct kbloom_mcast_stats *st = NULL;
	struct kbloom_bpf_filter f;
	struct kbloom_pkt pkt;
	int cls, ret;

	f.p = bpf_map_lookup_elem(&mc_params, &ifindex);
	if (!f.p)
		return XDP_DROP;
	if (count) {
		st = mcast_stats(f.p);
		if (!st)
			return XDP_DROP;
		st->tx_seen++;
	}
	cls = kbloom_parse(data, data_end, &pkt);
	if (cls != KBLOOM_PKT_IP || !kbloom_pkt_dst_mcast(&pkt) ||
	    kbloom_pkt_mcast_control(&pkt)) {
		ret = -EINVAL;
		goto out;
	}
	if (kbloom_bpf_filter_blocks(&mc_filters, &f)) {
		ret = -ENOENT;
		goto out;
	}
	if (pkt.addr_len == KBLOOM_ADDR4_LEN)
		ret = kbloom_bpf_test(&f, pkt.dst, KBLOOM_ADDR4_LEN);
	else
		ret = kbloom_bpf_test(&f, pkt.dst, KBLOOM_ADDR6_LEN);
out:
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

char LICENSE[] SEC("license") = "GPL";
