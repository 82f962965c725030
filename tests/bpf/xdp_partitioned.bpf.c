// SPDX-License-Identifier: GPL-2.0
/*
 * Test probe of the BPF-side partitioned filter (bpf/kbloom_partitioned.h):
 * the frame is [op: 0 test, 1 add][key length: 1..64][key bytes, zero
 * padded to 64]; the key is tested against (or added to) filter 0 of the
 * table probe_part / probe_filters, which the test fills with
 * libkbloom_xdp_part.h.
 *
 * Verdicts: XDP_PASS possibly present (or added), XDP_DROP definitely
 * absent, XDP_ABORTED for a bad frame or a lookup error.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_partitioned.h"

KBLOOM_BTF_TYPES;

KBLOOM_PART_PARAMS_MAP(probe_part);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, KBLOOM_SLOTS_PER_FILTER);
	__type(key, __u32);
	__array(values, struct kbloom_blocks);
} probe_filters SEC(".maps");

SEC("xdp")
int kbloom_part_probe(struct xdp_md *ctx)
{
	__u8 *data = (__u8 *)(long)ctx->data;
	__u8 *end = (__u8 *)(long)ctx->data_end;
	__u8 key[KBLOOM_KEY_MAX];
	struct kbloom_bpf_part f;
	__u32 len;
	int ret;

	if (data + 2 + KBLOOM_KEY_MAX > end)
		return XDP_ABORTED;
	len = data[1];
	if (len < 1 || len > KBLOOM_KEY_MAX || data[0] > 1)
		return XDP_ABORTED;
	__builtin_memcpy(key, data + 2, KBLOOM_KEY_MAX);
	if (kbloom_bpf_part_get(&probe_part, &probe_filters, 0, &f))
		return XDP_ABORTED;
	if (data[0])
		ret = kbloom_bpf_part_add(&f, key, len);
	else
		ret = kbloom_bpf_part_test(&f, key, len);
	if (ret < 0)
		return XDP_ABORTED;
	if (data[0])
		return XDP_PASS;
	return ret == KBLOOM_ABSENT ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
