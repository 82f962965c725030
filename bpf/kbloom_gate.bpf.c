// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom gate, map-backed variant: the gate of bpf/kbloom_gate.h with its
 * filter a blocked Bloom filter in BPF maps (gate_params, gate_filters:
 * the filter table of uapi/kbloom_xdp_maps.h, filter id 0), which the loader
 * fills and swaps.  bpf/kbloom_gate.h describes the frames, modes,
 * verdicts, counters and maps.
 */
#include "bpf/kbloom_gate.h"

static __always_inline int gate_filter_test(const __u8 *addr, __u32 len)
{
	struct kbloom_bpf_filter f;

	if (kbloom_bpf_filter_get(&gate_params, &gate_filters, 0, &f))
		return -ENOENT;
	if (len == KBLOOM_ADDR4_LEN)
		return kbloom_bpf_test(&f, addr, KBLOOM_ADDR4_LEN);
	return kbloom_bpf_test(&f, addr, KBLOOM_ADDR6_LEN);
}

char LICENSE[] SEC("license") = "GPL";
