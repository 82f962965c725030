// SPDX-License-Identifier: GPL-2.0
/*
 * The driver of the gate benchmark (tests/bench/gate.c): BPF_PROG_TEST_RUN
 * runs one frame with repeat R; to give every run another source address,
 * gb_rotate writes source gb_srcs[gb_idx] into the frame (gb_idx moves on
 * by one per run) and tail-calls the program under test in gb_target
 * slot 0 (the gate, xdp-filter, or gb_pass for the baseline).  The frame
 * is rewritten in place, so each run tests the address it wrote.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>

#define GB_SRCS_MAX	(1U << 20)

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} gb_target SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, GB_SRCS_MAX);
	__type(key, __u32);
	__type(value, __u32);
} gb_srcs SEC(".maps");

/* 0: the next source; 1: how many sources gb_srcs holds */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} gb_idx SEC(".maps");

SEC("xdp")
int gb_rotate(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct iphdr *ip = data + sizeof(struct ethhdr);
	__u32 zero = 0, one = 1, *idx, *n, *src, i;

	if ((void *)(ip + 1) > data_end)
		return XDP_ABORTED;
	idx = bpf_map_lookup_elem(&gb_idx, &zero);
	n = bpf_map_lookup_elem(&gb_idx, &one);
	if (!idx || !n || !*n)
		return XDP_ABORTED;
	i = *idx;
	*idx = i + 1 >= *n ? 0 : i + 1;
	src = bpf_map_lookup_elem(&gb_srcs, &i);
	if (!src)
		return XDP_ABORTED;
	ip->saddr = *src;
	bpf_tail_call(ctx, &gb_target, 0);
	return XDP_ABORTED;
}

SEC("xdp")
int gb_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
