// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom gate, kfunc variant: the gate of bpf/kbloom_gate.h with its
 * filter owned by kbloom.ko instead of a BPF map.
 *
 * Same frames, modes, verdicts, counters and maps as kbloom_gate.bpf.c
 * (bpf/kbloom_gate.h, uapi/kbloom_xdp_maps.h), and the same program name, so a
 * loader can load either object into one instance; plus
 *   gate_kfilter  HASH  0 -> struct kbloom_kfunc_name: the module filter
 * The address is tested with bpf_kbloom_get()/bpf_kbloom_test()/
 * bpf_kbloom_put() (uapi/kbloom_kfunc.h) against that filter, which
 * /dev/kbloom users fill, delete from (a counting filter forgets a deleted
 * address at once: no rebuild) and swap with RESTORE.  "Definitely
 * absent" decides at once; "possibly present" is confirmed by gate_exact,
 * so a false positive never changes a verdict.  No gate_kfilter entry, or
 * no module filter of that name: counted in errors, and gate_exact
 * decides alone, as in the map-backed gate.  gate_params and gate_filters
 * are not read.
 *
 * Loading needs kbloom.ko with BTF (/sys/kernel/btf/kbloom); without the
 * module, load kbloom_gate.bpf.c.  libkbloom loads this object for a gate
 * of the kfunc variant (libkbloom_xdp.h).
 */
#include "bpf/kbloom_gate.h"
#include "uapi/kbloom_kfunc.h"

/* BPF_F_NO_PREALLOC: an update replaces the name under RCU, never torn. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_kfunc_name);
} gate_kfilter SEC(".maps");

/* The module filter's answer: KBLOOM_ABSENT, KBLOOM_MAYBE or -ENOENT. */
static __always_inline int gate_filter_test(const struct kbloom_gate_cfg *cfg,
					    const __u8 *addr, __u32 len)
{
	struct kbloom_kfunc_name *n;
	struct kb_filter *f;
	__u32 zero = 0;
	int ret;

	n = bpf_map_lookup_elem(&gate_kfilter, &zero);
	if (!n)
		return -ENOENT;
	f = bpf_kbloom_get(n->name, sizeof(n->name));
	if (!f)
		return -ENOENT;
	if (len == KBLOOM_ADDR4_LEN)
		ret = bpf_kbloom_test(f, addr, KBLOOM_ADDR4_LEN);
	else
		ret = bpf_kbloom_test(f, addr, KBLOOM_ADDR6_LEN);
	bpf_kbloom_put(f);
	return ret;
}

char LICENSE[] SEC("license") = "GPL";
