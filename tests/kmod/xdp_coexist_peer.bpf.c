// SPDX-License-Identifier: GPL-2.0
/*
 * The other tool's side of xdp_coexist_test, loaded by xdp-loader (libxdp
 * makes it a dispatcher component): peer_count (xdp_coexist.h) and the
 * map peer_hits, which xdp-loader pins for the test.
 */
#include "tests/kmod/xdp_coexist.h"

XC_HITS_MAP(peer_hits, LIBBPF_PIN_BY_NAME);

SEC("xdp")
int peer_count(struct xdp_md *ctx)
{
	return xc_count(ctx, &peer_hits);
}

char LICENSE[] SEC("license") = "GPL";
