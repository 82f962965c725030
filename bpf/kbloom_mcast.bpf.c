// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom mcast: a multicast switch on XDP whose ports filter groups with
 * blocked Bloom filters.
 *
 * kbloom_mcast_ingress, attached to every port, sends each IPv4
 * (224.0.0.0/4) or IPv6 (ff00::/8) multicast data frame, with or without
 * one VLAN tag, to every other port of mc_ports (BPF_F_BROADCAST |
 * BPF_F_EXCLUDE_INGRESS).  Everything else goes to the stack untouched
 * (XDP_PASS): unicast, broadcast, ARP, IGMP and MLD (the control plane),
 * and malformed IP frames, which are never forwarded.
 *
 * The ingress program decides every other port at once: it tests the
 * group against each port's filter (the port keeps the copy only if its
 * filter may hold the group: a false positive is a leaked copy, counted
 * as tx_leaked when KBLOOM_MCAST_F_AUDIT asks for the exact check in
 * mc_groups, once per frame), counts each port's copy, and writes the set of ports that
 * keep it into the frame's XDP metadata; a frame no port keeps is dropped,
 * one that a single port keeps goes to that port alone, by ifindex
 * (bpf/kbloom_mcast_once.h).  kbloom_mcast_egress runs in mc_ports for
 * every copy (a devmap egress program) and tests the port's bit.
 *
 * kbloom_mcast_check is the egress decision as a plain XDP program, for
 * BPF_PROG_TEST_RUN (devmap programs cannot be test-run): it answers for
 * the port ctx->ingress_ifindex, XDP_PASS for "would forward", XDP_DROP
 * otherwise, and counts nothing.
 *
 * Maps (pinned under /sys/fs/bpf/kbloom/<name>/ by the loader):
 *   mc_ports    DEVMAP_HASH   ifindex -> port device + egress program
 *   mc_params   HASH          ifindex -> struct kbloom_params (the port's
 *                             filter and counters index)
 *   mc_filters  ARRAY_OF_MAPS slot -> blocks map (struct kbloom_block)
 *   mc_stats    PERCPU_ARRAY  counters index -> struct kbloom_mcast_stats
 *   mc_members  HASH          struct kbloom_member_key: exact membership,
 *                             the loader's record, read only to audit
 *                             copies to ports of ifindex 192 and above
 *   mc_groups   HASH          group (struct kbloom_member_key, ifindex 0)
 *                             -> struct kbloom_mcast_gmask: the ports that
 *                             joined it, read once per frame to audit
 *   mc_gcache   ARRAY         its direct-mapped copy, read first
 *   mc_config   ARRAY         struct kbloom_mcast_cfg
 *   mc_plist    ARRAY         the ports in counters index order, for the
 *                             ingress program's walk
 *   mc_pfast    ARRAY         ifindex -> struct kbloom_mcast_pfast: the
 *                             loader's copy of mc_params, read by the
 *                             ingress program instead of a hash lookup
 * Sizes are set by the loader before loading.
 */
#include "bpf/kbloom_mcast.h"

/*
 * The block test of hash @h with @k probes, one probe at a time: each
 * probe reads its bit from its word (kb_block_probe()), no mask on the
 * stack (the walk's steps in line in the ingress program leave no room
 * for one).  KBLOOM_MAYBE, KBLOOM_ABSENT, or -ENOENT (no such block).
 */
static __always_inline int mcast_block_test(void *blocks, __u32 nblocks,
					    __u64 h, __u32 k)
{
	const struct kbloom_block *b;
	__u32 idx = kb_block_index(h, nblocks), g = (__u32)h, i, bit;
	__u64 missing = 0;

	b = bpf_map_lookup_elem(blocks, &idx);
	if (!b)
		return -ENOENT;
	for (i = 0; i < KBLOOM_K_MAX; i++) {
		if (i >= k)
			break;
		bit = kb_block_probe(&g);
		missing |= ~(b->w[bit >> 6] >> (bit & 63)) & 1;
	}
	return missing ? KBLOOM_ABSENT : KBLOOM_MAYBE;
}

static __always_inline int mcast_port_test(__u32 ifindex,
					   const struct kbloom_params *p,
					   const struct kbloom_pkt *pkt,
					   struct mcast_hash *hc,
					   struct kbloom_mcast_stats *st)
{
	struct kbloom_bpf_filter f = { .p = p };

	if (kbloom_bpf_filter_blocks(&mc_filters, &f))
		return -ENOENT;
	return mcast_block_test(f.blocks, p->nblocks,
				mcast_group_hash(hc, pkt, p->hash_id, p->seed),
				p->k);
}

char LICENSE[] SEC("license") = "GPL";
