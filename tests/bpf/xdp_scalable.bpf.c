// SPDX-License-Identifier: GPL-2.0
/*
 * The map-backed lookup of a scalable or dynamic filter
 * (bpf/kbloom_scalable.h) as an XDP program: the frame's first 16 bytes
 * are the key; XDP_PASS when possibly present, XDP_DROP when definitely
 * absent, XDP_ABORTED when the maps do not match their meta.  The loader
 * sizes the words map (bpf_map__set_max_entries()) before loading.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_scalable.h"

#define KEY_LEN	16

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kb_sbf_map_meta);
} sbf_meta SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, KB_SBF_GENS_MAX);
	__type(key, __u32);
	__type(value, struct kb_sbf_map_gen);
} sbf_gens SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} sbf_words SEC(".maps");

SEC("xdp")
int xdp_sbf_test(struct xdp_md *ctx)
{
	__u8 *data = (__u8 *)(long)ctx->data;
	__u8 *end = (__u8 *)(long)ctx->data_end;
	__u8 key[KEY_LEN];
	int ret;

	if (data + KEY_LEN > end)
		return XDP_ABORTED;
	__builtin_memcpy(key, data, KEY_LEN);
	ret = kbloom_sbf_bpf_test(&sbf_meta, &sbf_gens, &sbf_words, key,
				  KEY_LEN);
	if (ret < 0)
		return XDP_ABORTED;
	return ret == KBLOOM_MAYBE ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
