// SPDX-License-Identifier: GPL-2.0
/*
 * The programs of the live benchmark (tests/bench/live.c): the baselines
 * that the mcast path (bpf/kbloom_mcast.bpf.c) is measured against, on the
 * same veth topology, and the receiver's counter.
 *
 *   live_bcast     a plain redirect with the mcast path's fan-out: every
 *                  frame to every other port of live_ports
 *                  (BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS), no parsing,
 *                  no egress program, no filter
 *   live_unicast   a plain redirect of every frame to one port (out_port)
 *   live_flood     a multicast switch without filters: kbloom_parse(),
 *                  then live_bcast's redirect (what the mcast path's
 *                  filters replace: flooding every group to every port)
 *   live_rx        on the receiver's end: count the frame, drop it
 *
 * Explanations (tests/bench/live.c says what each one buys):
 *   live_bcast_eg  live_bcast with a trivial egress program per port
 *   live_bcast_mc  live_bcast into the switch's own mc_ports (its egress
 *                  programs and filters)
 *   live_lean_ingress, live_lean_egress: a leaner mcast path on the
 *                  switch's own filter table: the ingress program parses
 *                  (kbloom_parse()), hashes the group once and passes the
 *                  hash to the egress programs in the frame's metadata;
 *                  the egress program tests the port's filter with it: no
 *                  second parse, no hash per port, no counters, no audit
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_bpf.h"
#include "bpf/kbloom_pkt.h"

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} live_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} live_rx_count SEC(".maps");

/* The same ports, each with the trivial egress program live_egress_pass. */
struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} live_ports_eg SEC(".maps");

/* The mcast instance's mc_ports (its egress programs): reused by the driver. */
struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} mc_ports SEC(".maps");

__u32 out_port;

SEC("xdp")
int live_bcast_eg(struct xdp_md *ctx)
{
	return bpf_redirect_map(&live_ports_eg, 0,
				BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
}

SEC("xdp")
int live_bcast_mc(struct xdp_md *ctx)
{
	return bpf_redirect_map(&mc_ports, 0,
				BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
}

SEC("xdp/devmap")
int live_egress_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("xdp")
int live_bcast(struct xdp_md *ctx)
{
	return bpf_redirect_map(&live_ports, 0,
				BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
}

/* A multicast switch without filters: parse, then flood like live_bcast. */
SEC("xdp")
int live_flood(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct kbloom_pkt pkt;

	if (kbloom_parse(data, data_end, &pkt) != KBLOOM_PKT_IP ||
	    !kbloom_pkt_dst_mcast(&pkt) || kbloom_pkt_mcast_control(&pkt))
		return XDP_PASS;
	return bpf_redirect_map(&live_ports, 0,
				BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
}

SEC("xdp")
int live_unicast(struct xdp_md *ctx)
{
	return bpf_redirect_map(&live_ports, out_port, 0);
}

SEC("xdp")
int live_rx(struct xdp_md *ctx)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&live_rx_count, &zero);

	if (n)
		(*n)++;
	return XDP_DROP;
}

/* The switch's filter table (mc_params, mc_filters): reused by the driver. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct kbloom_params);
} mc_params SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 64 * KBLOOM_SLOTS_PER_FILTER);
	__type(key, __u32);
	__array(values, struct kbloom_blocks);
} mc_filters SEC(".maps");

/* The lean path's ports: live_lean_egress on each. */
struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} lean_ports SEC(".maps");

KBLOOM_BTF_TYPES;

/* the group's hash, for the egress programs; (hash id, seed) of the switch */
struct lean_meta {
	__u64 h;
	__u32 len;
	__u32 pad;
};

const volatile __u32 lean_hash_id = KBLOOM_HASH_FAST;
const volatile __u64 lean_seed;
const volatile __u32 lean_nblocks = 1;
const volatile __u32 lean_k = 1;

/* A copy of p1's filter in a blocks map named directly (inlined lookups). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);		/* set by the driver */
	__type(key, __u32);
	__type(value, struct kbloom_block);
} lean_blocks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} lean2_ports SEC(".maps");

static __always_inline int lean_ingress(struct xdp_md *ctx, void *ports)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct kbloom_pkt pkt;
	struct lean_meta *m;
	__u64 h;

	if (kbloom_parse(data, data_end, &pkt) != KBLOOM_PKT_IP ||
	    !kbloom_pkt_dst_mcast(&pkt) || kbloom_pkt_mcast_control(&pkt))
		return XDP_PASS;
	if (pkt.addr_len == KBLOOM_ADDR4_LEN)
		h = kb_hash(lean_hash_id, lean_seed, pkt.dst, KBLOOM_ADDR4_LEN);
	else
		h = kb_hash(lean_hash_id, lean_seed, pkt.dst, KBLOOM_ADDR6_LEN);
	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*m)))
		return XDP_PASS;
	m = (void *)(long)ctx->data_meta;
	if ((void *)(m + 1) > (void *)(long)ctx->data)
		return XDP_PASS;
	m->h = h;
	m->len = pkt.addr_len;
	return bpf_redirect_map(ports, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
}

SEC("xdp")
int live_lean_ingress(struct xdp_md *ctx)
{
	return lean_ingress(ctx, &lean_ports);
}

SEC("xdp")
int live_lean2_ingress(struct xdp_md *ctx)
{
	return lean_ingress(ctx, &lean2_ports);
}

/* Only p1 has a filter here: the only port a copy goes to. */
SEC("xdp/devmap")
int live_lean2_egress(struct xdp_md *ctx)
{
	struct lean_meta *m = (void *)(long)ctx->data_meta;

	if ((void *)(m + 1) > (void *)(long)ctx->data)
		return XDP_DROP;
	return kbloom_bpf_test_hash_k(&lean_blocks, lean_nblocks, m->h,
				      lean_k) == KBLOOM_MAYBE ?
	       XDP_PASS : XDP_DROP;
}

SEC("xdp/devmap")
int live_lean_egress(struct xdp_md *ctx)
{
	struct lean_meta *m = (void *)(long)ctx->data_meta;
	__u32 ifindex = ctx->egress_ifindex;
	struct kbloom_bpf_filter f;

	if ((void *)(m + 1) > (void *)(long)ctx->data)
		return XDP_DROP;
	if (kbloom_bpf_filter_get(&mc_params, &mc_filters, ifindex, &f))
		return XDP_DROP;
	return kbloom_bpf_test_hash(&f, m->h) == KBLOOM_MAYBE ?
	       XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
