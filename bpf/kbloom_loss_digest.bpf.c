// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom XDP loss digest: every IPv4 packet's 5-tuple and identification
 * folded into k cells of the active bank of an IBLT with atomic ADD and
 * XOR (LossRadar).  Key, maps, epochs: uapi/kbloom_loss_maps.h.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_loss_params);
} loss_params SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 2);		/* set by the loader: 2 cells */
	__type(key, __u32);
	__type(value, struct kbloom_loss_cell);
} loss_cells SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_loss_stats);
} loss_stats SEC(".maps");

#define KB_LOSS_CELLS loss_cells
#include "bpf/kbloom_loss.h"

SEC("xdp")
int kbloom_loss(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	const struct kbloom_loss_params *p;
	struct kbloom_loss_stats *st;
	struct kbloom_loss_key key;
	__u32 zero = 0, tot;

	st = bpf_map_lookup_elem(&loss_stats, &zero);
	p = bpf_map_lookup_elem(&loss_params, &zero);
	if (!st || !p)
		return XDP_PASS;
	st->packets++;
	if (kb_loss_key(data, data_end, &key, &tot)) {
		st->skipped++;
		return XDP_PASS;
	}
	if (kb_loss_fold(p, &key, tot)) {
		st->errors++;
		return XDP_PASS;
	}
	st->folded++;
	st->bytes += tot;
	return p->action == KBLOOM_LOSS_DROP ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
