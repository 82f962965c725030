// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom mcast, deletable variant: the multicast switch of
 * bpf/kbloom_mcast.h whose ports filter groups with deletable Bloom
 * filters (uapi/kbloom_var_deletable.h) in BPF maps, so that a leave
 * clears the group's bits in place when the group is deletable and the
 * port's filter is rebuilt from its members only otherwise.
 *
 * Same frames, flags, counters, programs and maps as kbloom_mcast.bpf.c
 * (a loader loads either into one instance); mc_params still names each
 * port and its counters index (type KBLOOM_TYPE_DELETABLE there), plus
 * (uapi/kbloom_xdp_maps.h)
 *   mc_deletable  HASH  ifindex -> struct kbloom_del_params: the port's
 *                       filter, its shape, hash and the slot of mc_filters
 *                       holding its blocks map (body, then the collision
 *                       bitmap, which only the loader reads)
 * The test is the standard layout's over the body (bpf/kbloom_standard.h):
 * k bits, each in its own block, stopping at the first clear one.  The
 * loader (kind_mcast_del.c) writes the blocks with libkbloom_deletable.
 */
#include "bpf/kbloom_mcast.h"
#include "bpf/kbloom_standard.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, KBLOOM_MCAST_PORTS);	/* the loader: ports */
	__type(key, __u32);
	__type(value, struct kbloom_del_params);
} mc_deletable SEC(".maps");

static __always_inline int mcast_port_test(__u32 ifindex,
					   const struct kbloom_params *p,
					   const struct kbloom_pkt *pkt,
					   struct mcast_hash *hc,
					   struct kbloom_mcast_stats *st)
{
	const struct kbloom_del_params *d;
	void *blocks;
	__u32 slot;

	d = bpf_map_lookup_elem(&mc_deletable, &ifindex);
	if (!d)
		return -ENOENT;
	slot = d->slot;
	blocks = bpf_map_lookup_elem(&mc_filters, &slot);
	if (!blocks)
		return -ENOENT;
	return kbloom_bpf_std_test_hash(blocks, d->shape.m, d->shape.k,
					mcast_group_hash(hc, pkt, d->hash_id,
							 d->seed));
}

char LICENSE[] SEC("license") = "GPL";
