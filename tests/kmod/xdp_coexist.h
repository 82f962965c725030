/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frame counter of the two programs of xdp_coexist_test
 * (xdp_coexist_kb.bpf.c, xdp_coexist_peer.bpf.c): count the frames of
 * ethertype XC_PROTO (0x88b5, local experimental) in slot 0 of @hits and
 * pass every frame, so that a dispatcher runs the next program.
 */
#ifndef KBLOOM_XDP_COEXIST_H
#define KBLOOM_XDP_COEXIST_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define XC_PROTO	0x88b5

/* @pin: LIBBPF_PIN_BY_NAME pins it under the loader's pin path */
#define XC_HITS_MAP(name, pin)				\
	struct {					\
		__uint(type, BPF_MAP_TYPE_ARRAY);	\
		__uint(max_entries, 1);			\
		__type(key, __u32);			\
		__type(value, __u64);			\
		__uint(pinning, pin);			\
	} name SEC(".maps")

static __always_inline int xc_count(struct xdp_md *ctx, void *hits)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	__u32 zero = 0;
	__u64 *n;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(XC_PROTO))
		return XDP_PASS;
	n = bpf_map_lookup_elem(hits, &zero);
	if (n)
		__sync_fetch_and_add(n, 1);
	return XDP_PASS;
}

#endif /* KBLOOM_XDP_COEXIST_H */
