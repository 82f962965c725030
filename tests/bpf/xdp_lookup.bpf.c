// SPDX-License-Identifier: GPL-2.0
/*
 * Test probe of the BPF-side lookup (bpf/kbloom_bpf.h): the frame is
 * [key length][key bytes][padding]; the key (1..64 bytes, copied to a
 * zeroed stack buffer: a variable length) is tested against, or with
 * probe_add inserted into, filter probe_id of the filter table, whose two
 * maps the test shares with a loader instance (bpf_map__reuse_fd).
 *
 * Verdicts: XDP_PASS possibly present (or inserted), XDP_DROP definitely
 * absent, XDP_ABORTED for a bad frame or a lookup error.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_bpf.h"

KBLOOM_BTF_TYPES;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_params);
} probe_params SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, KBLOOM_SLOTS_PER_FILTER);
	__type(key, __u32);
	__array(values, struct kbloom_blocks);
} probe_filters SEC(".maps");

__u32 probe_id;
__u32 probe_add;

SEC("xdp")
int kbloom_probe(struct xdp_md *ctx)
{
	__u8 *data = (__u8 *)(long)ctx->data;
	__u8 *end = (__u8 *)(long)ctx->data_end;
	struct kbloom_bpf_filter f;
	__u8 key[KBLOOM_KEY_MAX] __attribute__((aligned(8))) = {};
	__u32 len, i;
	int ret;

	if (data + 1 > end)
		return XDP_ABORTED;
	len = data[0];
	if (len < 1 || len > KBLOOM_KEY_MAX)
		return XDP_ABORTED;
	for (i = 0; i < KBLOOM_KEY_MAX; i++) {
		if (i >= len)
			break;
		if (data + 2 + i > end)
			return XDP_ABORTED;
		key[i] = data[1 + i];
	}
	if (kbloom_bpf_filter_get(&probe_params, &probe_filters, probe_id, &f))
		return XDP_ABORTED;
	if (probe_add) {
		ret = kbloom_bpf_add_al(&f, key, len);
		return ret ? XDP_ABORTED : XDP_PASS;
	}
	ret = kbloom_bpf_test_al(&f, key, len);
	if (ret < 0)
		return XDP_ABORTED;
	return ret == KBLOOM_MAYBE ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
