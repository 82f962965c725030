/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the maps of the XDP d-left connection tracker
 * (bpf/kbloom_dleft_ct.bpf.c), shared by the program, its loader
 * (userspace/lib/dleft/dleft_xdp.c) and the tests.
 *
 *   dleft_params  ARRAY 1         0 -> struct kbloom_dleft_params
 *   dleft_words   ARRAY nwords    i -> __u64 word i of the cell array
 *                                 (BPF_F_MMAPABLE: the loader maps it)
 *   dleft_stats   PERCPU_ARRAY 1  0 -> struct kbloom_dleft_xdp_stats
 *
 * The words are those of a d-left filter of uapi/kbloom_variants.h, cell
 * for cell: a filter moves between the map, libkbloom_dleft and kbloom.ko
 * as an image.  The BPF form takes only shapes whose cells sit in one word
 * (kb_dleft_shape_atomic()).
 *
 * The key of a TCP flow is struct kbloom_dleft_flow, the same for both
 * directions: its endpoint a is the smaller (address, port) of the two.
 */
#ifndef _UAPI_KBLOOM_DLEFT_MAPS_H
#define _UAPI_KBLOOM_DLEFT_MAPS_H

#include <linux/types.h>
#include "kbloom_variants.h"

/* What the tracker does with a packet of an unknown flow. */
#define KBLOOM_DLEFT_MISS_PASS	0U	/* count and pass */
#define KBLOOM_DLEFT_MISS_DROP	1U	/* count and drop */

/* The most words the loader gives the map (1 GiB of cells). */
#define KBLOOM_DLEFT_WORDS_MAX	_BITULL(27)

/**
 * struct kbloom_dleft_params - the tracker's filter and policy
 * @shape: the d-left shape (kb_shape_check() and kb_dleft_shape_atomic())
 * @q: log2(shape.buckets) + shape.fp_bits, the print width
 * @hash_id: enum kbloom_hash_id
 * @seed: the hash seed
 * @nwords: words of the cell array (kb_shape_words())
 * @miss: KBLOOM_DLEFT_MISS_*
 * @ready: 1 once the loader wrote the rest; 0: every packet passes
 */
struct kbloom_dleft_params {
	struct kb_shape shape;
	__u32 q;
	__u32 hash_id;
	__u64 seed;
	__u64 nwords;
	__u32 miss;
	__u32 ready;
};

/**
 * struct kbloom_dleft_xdp_stats - the tracker's counters (per CPU)
 * @inserted: SYNs whose flow was added (or counted once more)
 * @overflows: SYNs refused: the flow's d buckets were full
 * @saturations: SYNs of a flow whose counter was at its maximum
 * @deleted: FINs and RSTs that removed one copy of their flow
 * @del_miss: FINs and RSTs of no known flow
 * @hits: other TCP packets of a known flow (passed)
 * @misses: other TCP packets of no known flow
 * @dropped: misses dropped (KBLOOM_DLEFT_MISS_DROP)
 * @races: updates given up after KBLOOM_DLEFT_TRIES lost exchanges
 * @other: frames that are not TCP over IP, or non-first fragments
 * @malformed: truncated or inconsistent frames (passed untouched)
 * @not_ready: frames seen before the parameters were written
 */
struct kbloom_dleft_xdp_stats {
	__u64 inserted;
	__u64 overflows;
	__u64 saturations;
	__u64 deleted;
	__u64 del_miss;
	__u64 hits;
	__u64 misses;
	__u64 dropped;
	__u64 races;
	__u64 other;
	__u64 malformed;
	__u64 not_ready;
};

/* Compare-and-exchange attempts of one update before it gives up. */
#define KBLOOM_DLEFT_TRIES	4

/**
 * struct kbloom_dleft_flow - the key of a TCP flow (40 bytes, hashed whole)
 * @a, @b: the endpoints' addresses, network order; IPv4 in the first 4
 *         bytes, zeros after
 * @a_port, @b_port: their ports, network order
 * @proto: IPPROTO_TCP
 * @family: 4 or 6
 * @pad: zero
 */
struct kbloom_dleft_flow {
	__u8 a[16];
	__u8 b[16];
	__be16 a_port;
	__be16 b_port;
	__u8 proto;
	__u8 family;
	__u8 pad[2];
};

/* Endpoint (@x, @xp) is below (@y, @yp): addresses first, then ports. */
static inline int kb_dleft_ep_less(const __u8 *x, __be16 xp, const __u8 *y,
				   __be16 yp)
{
	int i;

	for (i = 0; i < 16; i++)
		if (x[i] != y[i])
			return x[i] < y[i];
	return xp < yp;
}

/* The flow key of a packet from (@src, @sport) to (@dst, @dport). */
static inline void kb_dleft_flow_key(struct kbloom_dleft_flow *k,
				     __u8 family, const __u8 *src,
				     __be16 sport, const __u8 *dst,
				     __be16 dport)
{
	int swap = kb_dleft_ep_less(dst, dport, src, sport), i;

	for (i = 0; i < 16; i++) {
		k->a[i] = swap ? dst[i] : src[i];
		k->b[i] = swap ? src[i] : dst[i];
	}
	k->a_port = swap ? dport : sport;
	k->b_port = swap ? sport : dport;
	k->proto = 6;	/* IPPROTO_TCP */
	k->family = family;
	k->pad[0] = 0;
	k->pad[1] = 0;
}

#endif /* _UAPI_KBLOOM_DLEFT_MAPS_H */
