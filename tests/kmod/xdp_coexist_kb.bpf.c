// SPDX-License-Identifier: GPL-2.0
/*
 * The kbloom side of xdp_coexist_test, shaped like a kbloom ingress
 * object: the ingress program kb_count (xdp_coexist.h), a devmap egress
 * program beside it in the same object (only the ingress one becomes the
 * dispatcher component), and the map kb_hits the test reads.
 */
#include "tests/kmod/xdp_coexist.h"

XC_HITS_MAP(kb_hits, LIBBPF_PIN_NONE);

SEC("xdp")
int kb_count(struct xdp_md *ctx)
{
	return xc_count(ctx, &kb_hits);
}

SEC("xdp/devmap")
int kb_egress(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
