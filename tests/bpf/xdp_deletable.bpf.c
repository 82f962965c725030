// SPDX-License-Identifier: GPL-2.0
/*
 * Test probe of the XDP lookup of a deletable filter
 * (bpf/kbloom_standard.h over the body): the frame is [key length: 4 or
 * 16][key bytes, zero padded to 16], a group address as the mcast port
 * filters see it; the key is tested against the body in probe_blocks
 * with the geometry and hash in the globals, which the test writes
 * (tests/bpf/xdp_deletable.c) from a libkbloom_deletable filter.
 *
 * Verdicts: XDP_PASS possibly present, XDP_DROP definitely absent,
 * XDP_ABORTED for a bad frame or a lookup error.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_standard.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);		/* the test sets the body's blocks */
	__type(key, __u32);
	__type(value, struct kbloom_block);
} probe_blocks SEC(".maps");

__u64 probe_m;		/* body bits */
__u64 probe_seed;
__u32 probe_k;
__u32 probe_hash_id;

SEC("xdp")
int kbloom_del_probe(struct xdp_md *ctx)
{
	__u8 *data = (__u8 *)(long)ctx->data;
	__u8 *end = (__u8 *)(long)ctx->data_end;
	__u8 key[KBLOOM_ADDR6_LEN];
	int ret;

	if (data + 1 + KBLOOM_ADDR6_LEN > end)
		return XDP_ABORTED;
	__builtin_memcpy(key, data + 1, KBLOOM_ADDR6_LEN);
	if (data[0] == KBLOOM_ADDR4_LEN)
		ret = kbloom_bpf_std_test(&probe_blocks, probe_m, probe_k,
					  probe_hash_id, probe_seed, key,
					  KBLOOM_ADDR4_LEN);
	else if (data[0] == KBLOOM_ADDR6_LEN)
		ret = kbloom_bpf_std_test(&probe_blocks, probe_m, probe_k,
					  probe_hash_id, probe_seed, key,
					  KBLOOM_ADDR6_LEN);
	else
		return XDP_ABORTED;
	if (ret < 0)
		return XDP_ABORTED;
	return ret == KBLOOM_ABSENT ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
