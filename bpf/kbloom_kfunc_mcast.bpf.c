// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom mcast, kfunc variant: the multicast switch of kbloom_mcast.bpf.c
 * with each port's filter of joined groups owned by kbloom.ko instead of
 * a BPF map.
 *
 * Same frames, verdicts, counters and maps as kbloom_mcast.bpf.c
 * (uapi/kbloom_xdp_maps.h), and the same program names (kbloom_mcast_ingress,
 * kbloom_mcast_egress, kbloom_mcast_check), so a loader can load either
 * object into one instance; plus
 *   mc_kfilter  HASH  ifindex -> struct kbloom_kfunc_ref: the port's
 *               module filter, its name and id
 * A port is still a port by its mc_params entry (which also holds its
 * counters index); its filter is the module filter of mc_kfilter, tested
 * with bpf_kbloom_test_id() (by its name when the id misses:
 * bpf/kbloom_kfunc_ref.h, uapi/kbloom_kfunc.h).  With a counting module
 * filter a leave is one KBLOOM_IOCTL_DEL: the group's counters go down
 * and the copies stop, with no rebuild.  No mc_kfilter entry, or no
 * module filter of that name: the copy is dropped and counted in
 * tx_errors, as a port without a filter in the map-backed switch.
 * mc_filters is not read.
 *
 * Loading needs kbloom.ko with BTF (/sys/kernel/btf/kbloom); without the
 * module, load kbloom_mcast.bpf.c.
 */
#include "bpf/kbloom_mcast.h"
#include "bpf/kbloom_kfunc_ref.h"

/* BPF_F_NO_PREALLOC: an update replaces the element under RCU, never torn. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, KBLOOM_MCAST_PORTS);
	__type(key, __u32);
	__type(value, struct kbloom_kfunc_ref);
} mc_kfilter SEC(".maps");

/*
 * Port @ifindex's module filter on the group: KBLOOM_* or -ENOENT.  The
 * module hashes the group with the filter's own hash id and seed, which
 * the program does not know (a restore --replace may change them), so
 * @hc is not used: each port's kfunc call hashes the group.
 */
static __always_inline int mcast_port_test(__u32 ifindex,
					   const struct kbloom_params *p,
					   const struct kbloom_pkt *pkt,
					   struct mcast_hash *hc,
					   struct kbloom_mcast_stats *st)
{
	struct kbloom_kfunc_ref *ref;

	ref = bpf_map_lookup_elem(&mc_kfilter, &ifindex);
	if (!ref)
		return -ENOENT;
	return kbloom_kfunc_ref_test(ref, pkt->dst, pkt->addr_len);
}

char LICENSE[] SEC("license") = "GPL";
