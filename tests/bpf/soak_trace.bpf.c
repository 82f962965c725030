// SPDX-License-Identifier: GPL-2.0
/*
 * The soak's witness of the XDP error paths (tests/bpf/soak_test.c):
 * raw tracepoints (no tracefs needed), counted machine-wide while the
 * soak runs.
 *
 *  - xdp:xdp_exception fires for XDP_ABORTED, an invalid action and a
 *    failed XDP_TX, in the driver (veth) and in a devmap's egress
 *    program: @exceptions, by action in @exc_act;
 *  - xdp:xdp_redirect_err: a redirect that failed (@redirect_errs).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define SOAK_ACTS	8

__u64 exceptions;
__u64 exc_act[SOAK_ACTS];
__u64 redirect_errs;

/* (const struct net_device *dev, const struct bpf_prog *xdp, u32 act) */
SEC("raw_tracepoint/xdp_exception")
int soak_exception(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 act = (__u32)ctx->args[2];

	__sync_fetch_and_add(&exceptions, 1);
	if (act < SOAK_ACTS)
		__sync_fetch_and_add(&exc_act[act], 1);
	return 0;
}

SEC("raw_tracepoint/xdp_redirect_err")
int soak_redirect_err(struct bpf_raw_tracepoint_args *ctx)
{
	__sync_fetch_and_add(&redirect_errs, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
