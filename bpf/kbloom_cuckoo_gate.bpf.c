// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom gate, cuckoo variant: the gate of bpf/kbloom_gate.h with its
 * filter a cuckoo filter in BPF maps, so that removing an address from
 * the set also removes it from the filter (no counters, no rebuild).
 *
 * Same frames, modes, verdicts, counters and maps as kbloom_gate.bpf.c,
 * and the same program name, so a loader can load any variant into one
 * instance; plus (uapi/kbloom_xdp_maps.h)
 *   gate_cuckoo  HASH   0 -> struct kbloom_cuckoo_params: the filter
 *   gate_cseq    ARRAY  0 -> struct kbloom_cuckoo_seq: the writers' counter
 * and the blocks map of the slot gate_cuckoo names in gate_filters.  The
 * loader (libkbloom, kind_gate_cuckoo.c) adds and deletes fingerprints in
 * the mmapped blocks map with libkbloom_cuckoo; bpf/kbloom_cuckoo.h says
 * how a lookup copes with a concurrent relocation.  gate_params is not
 * read.
 */
#include "bpf/kbloom_gate.h"
#include "bpf/kbloom_cuckoo.h"

KBLOOM_CUCKOO_PARAMS_MAP(gate_cuckoo);

KBLOOM_CUCKOO_SEQ_MAP(gate_cseq);

/* The cuckoo filter's answer: KBLOOM_ABSENT, KBLOOM_MAYBE or -ENOENT. */
static __always_inline int gate_filter_test(const struct kbloom_gate_cfg *cfg,
					    const __u8 *addr, __u32 len)
{
	struct kbloom_bpf_cuckoo c;

	if (kbloom_bpf_cuckoo_get(&gate_cuckoo, &gate_filters, &gate_cseq, 0,
				  &c))
		return -ENOENT;
	if (len == KBLOOM_ADDR4_LEN)
		return kbloom_bpf_cuckoo_test(&c, addr, KBLOOM_ADDR4_LEN);
	return kbloom_bpf_cuckoo_test(&c, addr, KBLOOM_ADDR6_LEN);
}

char LICENSE[] SEC("license") = "GPL";
