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

/*
 * Bucket @b of the group hash @h in port @ifindex's filter
 * (kbloom_bpf_cuckoo_bucket_has()): a global function, which the
 * verifier checks once, for the second to last of a lookup's
 * KBLOOM_CUCKOO_BPF_TRIES reads, after a first that a writer disturbed
 * (mcast_cuckoo_retry()).  The reads in line took the ingress program
 * to 960k of its million processed instructions on 6.18; a whole retry
 * in a function of its own would not fit the stack under the walk's
 * callback.  The parameters are looked up again: a replacement meanwhile
 * is read whole (each bucket under the parameters of its filter), and
 * the counter, one for every port, still tells a writer ran.
 */
__noinline int mcast_cuckoo_bucket(__u32 ifindex, __u64 h, __u32 b)
{
	struct kbloom_bpf_cuckoo c;

	if (kbloom_bpf_cuckoo_get(&mc_cuckoo, &mc_filters, &mc_cseq, ifindex,
				  &c))
		return -ENOENT;
	return kbloom_bpf_cuckoo_bucket_has(&c, h, b);
}

/* The reads after the first, as in kbloom_bpf_cuckoo_test_hash(). */
static __always_inline int mcast_cuckoo_retry(const struct kbloom_bpf_cuckoo *c,
					      __u32 ifindex, __u64 h)
{
	int ret, r1, r2;
	__u32 t, seq;

	for (t = 1; t < KBLOOM_CUCKOO_BPF_TRIES; t++) {
		seq = kbc_seq(c->seq);
		barrier();
		r1 = mcast_cuckoo_bucket(ifindex, h, 0);
		/* the alternate bucket only when the first does not hold it */
		r2 = r1 ? 0 : mcast_cuckoo_bucket(ifindex, h, 1);
		if (r1 < 0 || r2 < 0)
			return r1 < 0 ? r1 : r2;
		ret = kbc_settle(c, seq, r1 | r2, 0);
		if (ret != -EAGAIN)
			return ret;
	}
	return KBLOOM_MAYBE;
}

static __always_inline int mcast_port_test(__u32 ifindex,
					   const struct kbloom_params *p,
					   const struct kbloom_pkt *pkt,
					   struct mcast_hash *hc,
					   struct kbloom_mcast_stats *st)
{
	struct kbloom_bpf_cuckoo c;
	__u64 h;
	int ret;

	if (kbloom_bpf_cuckoo_get(&mc_cuckoo, &mc_filters, &mc_cseq, ifindex,
				  &c))
		return -ENOENT;
	h = mcast_group_hash(hc, pkt, c.p->hash_id, c.p->seed);
	ret = kbloom_bpf_cuckoo_test_tries(&c, h, 1);
	if (ret != -EAGAIN)
		return ret;
	return mcast_cuckoo_retry(&c, ifindex, h);
}

char LICENSE[] SEC("license") = "GPL";
