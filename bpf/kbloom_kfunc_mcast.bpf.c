// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom mcast, kfunc variant: the multicast switch of kbloom_mcast.bpf.c
 * with each port's filter of joined groups owned by kbloom.ko instead of
 * a BPF map.
 *
 * Same frames, verdicts, counters and maps as kbloom_mcast.bpf.c
 * (bpf/kbloom_maps.h), and the same program names (kbloom_mcast_ingress,
 * kbloom_mcast_egress, kbloom_mcast_check), so a loader can load either
 * object into one instance; plus
 *   mc_kfilter  HASH  ifindex -> struct kbloom_kfunc_name: the port's
 *               module filter
 * A port is still a port by its mc_params entry (which also holds its
 * counters index); its filter is the module filter named in mc_kfilter,
 * tested with bpf_kbloom_get()/bpf_kbloom_test()/bpf_kbloom_put()
 * (kmod/kbloom_kfunc.h).  With a counting module filter a leave is one
 * KBLOOM_IOCTL_DEL: the group's counters go down and the copies stop,
 * with no rebuild.  No mc_kfilter entry, or no module filter of that
 * name: the copy is dropped and counted in tx_errors, as a port without a
 * filter in the map-backed switch.  mc_filters is not read.
 *
 * Loading needs kbloom.ko with BTF (/sys/kernel/btf/kbloom); without the
 * module, load kbloom_mcast.bpf.c.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_bpf.h"
#include "bpf/kbloom_pkt.h"
#include "kmod/kbloom_kfunc.h"

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

/* BPF_F_NO_PREALLOC: an update replaces the name under RCU, never torn. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, KBLOOM_MCAST_PORTS);
	__type(key, __u32);
	__type(value, struct kbloom_kfunc_name);
} mc_kfilter SEC(".maps");

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

/* Port @ifindex's module filter on the group: KBLOOM_* or -ENOENT. */
static __always_inline int mcast_kfunc_test(__u32 ifindex,
					    const struct kbloom_pkt *pkt)
{
	struct kbloom_kfunc_name *n;
	struct kb_filter *f;
	int ret;

	n = bpf_map_lookup_elem(&mc_kfilter, &ifindex);
	if (!n)
		return -ENOENT;
	f = bpf_kbloom_get(n->name, sizeof(n->name));
	if (!f)
		return -ENOENT;
	if (pkt->addr_len == KBLOOM_ADDR4_LEN)
		ret = bpf_kbloom_test(f, pkt->dst, KBLOOM_ADDR4_LEN);
	else
		ret = bpf_kbloom_test(f, pkt->dst, KBLOOM_ADDR6_LEN);
	bpf_kbloom_put(f);
	return ret;
}

/* Whether the port @ifindex keeps this copy; counts when @count is set. */
static __always_inline int mcast_egress(struct xdp_md *ctx, __u32 ifindex,
					int count)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct kbloom_mcast_stats *st = NULL;
	const struct kbloom_params *p;
	struct kbloom_pkt pkt;
	int cls, ret;

	p = bpf_map_lookup_elem(&mc_params, &ifindex);
	if (!p)
		return XDP_DROP;
	if (count) {
		st = mcast_stats(p);
		if (!st)
			return XDP_DROP;
		st->tx_seen++;
	}
	cls = kbloom_parse(data, data_end, &pkt);
	if (cls != KBLOOM_PKT_IP || !kbloom_pkt_dst_mcast(&pkt) ||
	    kbloom_pkt_mcast_control(&pkt))
		ret = -EINVAL;
	else
		ret = mcast_kfunc_test(ifindex, &pkt);
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
