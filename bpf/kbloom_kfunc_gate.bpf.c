// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom gate, kfunc variant: the gate of bpf/kbloom_gate.h with its
 * filter owned by kbloom.ko instead of a BPF map.
 *
 * Same frames, modes, verdicts, counters and maps as kbloom_gate.bpf.c
 * (bpf/kbloom_gate.h, uapi/kbloom_xdp_maps.h), and the same program name, so a
 * loader can load either object into one instance; plus
 *   gate_kfilter  ARRAY 0 -> struct kbloom_kfunc_ref: the module filter's
 *                 name and id
 * The address is tested with bpf_kbloom_test_id() against that filter
 * (by its name when the id misses: bpf/kbloom_kfunc_ref.h), which
 * /dev/kbloom users fill, delete from (a counting filter forgets a deleted
 * address at once: no rebuild) and swap with RESTORE.  "Definitely
 * absent" decides at once; "possibly present" is confirmed by gate_exact,
 * so a false positive never changes a verdict.  An empty name, or no
 * module filter of that name: counted in errors, and gate_exact
 * decides alone, as in the map-backed gate.  gate_params and gate_filters
 * are not read.
 *
 * Loading needs kbloom.ko with BTF (/sys/kernel/btf/kbloom); without the
 * module, load kbloom_gate.bpf.c.  libkbloom loads this object for a gate
 * of the kfunc variant (libkbloom_xdp.h).
 */
#include "bpf/kbloom_gate.h"
#include "bpf/kbloom_kfunc_ref.h"

/*
 * An array (a lookup without a hash, inlined by the verifier): a packet
 * that meets the loader's write tests the old or the new filter, or
 * counts one error on a torn name, and decides by the exact map then;
 * never a stale id (struct kbloom_kfunc_ref).  No name: an empty one.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_kfunc_ref);
} gate_kfilter SEC(".maps");

/* The module filter's answer: KBLOOM_ABSENT, KBLOOM_MAYBE or -ENOENT. */
static __always_inline int gate_filter_test(const struct kbloom_gate_cfg *cfg,
					    const __u8 *addr, __u32 len)
{
	struct kbloom_kfunc_ref *ref;
	__u32 zero = 0;

	ref = bpf_map_lookup_elem(&gate_kfilter, &zero);
	if (!ref)
		return -ENOENT;
	return kbloom_kfunc_ref_test(ref, addr, len);
}

char LICENSE[] SEC("license") = "GPL";
