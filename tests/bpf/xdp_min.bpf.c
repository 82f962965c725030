// SPDX-License-Identifier: GPL-2.0
/*
 * The smallest XDP program of the bpf suite: drops a frame whose first byte
 * is 0xff, passes the rest.  It also includes every uapi header, so the
 * build proves they compile under clang -target bpf, and it publishes the
 * fast hash of the frame's first 8 bytes so the test can compare it with
 * the userspace result of the same definition.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "uapi/kbloom.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_plan.h"
#include "uapi/kbloom_kfunc.h"
#include "uapi/kbloom_xdp_maps.h"
#include "uapi/kbloom_net_maps.h"


__u64 last_hash;

SEC("xdp")
int xdp_min(struct xdp_md *ctx)
{
	__u8 *data = (__u8 *)(long)ctx->data;
	__u8 *end = (__u8 *)(long)ctx->data_end;
	__u8 key[8];

	if (data + sizeof(key) > end)
		return XDP_PASS;
	__builtin_memcpy(key, data, sizeof(key));
	last_hash = kb_hash(KBLOOM_HASH_FAST, 42, key, sizeof(key));
	return data[0] == 0xff ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
