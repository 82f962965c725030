// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom pass: an XDP program that passes every frame.
 *
 * A veth end receives XDP-redirected frames (the mcast path's devmap)
 * only when its peer has an XDP program attached: the loader attaches
 * this one to the host side of such links (kbloom_xdp_pass_attach()).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int kbloom_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
