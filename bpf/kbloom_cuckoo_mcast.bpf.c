// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom mcast, cuckoo variant: the multicast switch of
 * bpf/kbloom_mcast.h whose ports filter groups with cuckoo filters in BPF
 * maps, so that a leave deletes the group's fingerprint from the port's
 * filter (no counters, no rebuild).
 *
 * Same frames, flags, counters, programs and maps as kbloom_mcast.bpf.c
 * (a loader loads either into one instance); mc_params still names each
 * port and its counters index (type KBLOOM_TYPE_CUCKOO there), plus
 * (uapi/kbloom_xdp_maps.h)
 *   mc_cuckoo  HASH   ifindex -> struct kbloom_cuckoo_params: the port's
 *                     filter, its shape, hash and the slot of mc_filters
 *                     holding its blocks map
 *   mc_cseq    ARRAY  0 -> struct kbloom_cuckoo_seq: the writers' counter
 *                     (one for every port: the loader's writers hold the
 *                     instance lock)
 * The loader (kind_mcast_cuckoo.c) adds and deletes fingerprints in the
 * mmapped blocks maps with libkbloom_cuckoo; bpf/kbloom_cuckoo.h says how
 * a lookup copes with a concurrent relocation.  A bucket is one packed
 * field of b f bits: at the default 16-bit fingerprints and b = 4 it is
 * one aligned 64-bit word, so a copy costs two independent word loads
 * (one per bucket, their misses overlapping); narrower fingerprints let a
 * bucket straddle two words, rarely two blocks.
 */
/* its port test's stack leaves no room for the walk's steps in line */
#define MCAST_WALK_INLINE	0
#include "bpf/kbloom_mcast.h"
#include "bpf/kbloom_cuckoo.h"

KBLOOM_CUCKOO_PARAMS_MAP(mc_cuckoo);	/* sized by the loader: ports */

KBLOOM_CUCKOO_SEQ_MAP(mc_cseq);

static __always_inline int mcast_port_test(__u32 ifindex,
					   const struct kbloom_params *p,
					   const struct kbloom_pkt *pkt,
					   struct mcast_hash *hc,
					   struct kbloom_mcast_stats *st)
{
	struct kbloom_bpf_cuckoo c;

	if (kbloom_bpf_cuckoo_get(&mc_cuckoo, &mc_filters, &mc_cseq, ifindex,
				  &c))
		return -ENOENT;
	return kbloom_bpf_cuckoo_test_hash(&c, mcast_group_hash(hc, pkt,
								c.p->hash_id,
								c.p->seed));
}

char LICENSE[] SEC("license") = "GPL";
