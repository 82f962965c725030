/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the BPF maps of the XDP duplicate suppressor
 * (bpf/kbloom_dedupe.bpf.c), a stable Bloom filter (uapi/kbloom_var_stable.h)
 * tested and added per packet, shared with its loader in libkbloom_stable
 * (userspace/lib/stable/stable_xdp.c).
 *
 * The key of a frame (struct kbloom_dedupe_key): its IP source and
 * destination, the upper-layer protocol and the first
 * KBLOOM_DEDUPE_L4_BYTES bytes of the upper-layer header (ports and
 * sequence numbers of TCP; ports, length and checksum of UDP; type, code,
 * checksum, id and sequence of ICMP echo): what two copies of one packet
 * share and two packets of a flow rarely do.  TTL, hop limit and the IPv4
 * checksum are left out, so a copy that took another path is still a
 * copy.  Non-first fragments and upper-layer headers shorter than the key
 * bytes pass untested (counted as skipped).
 *
 * Per frame, Deng and Rafiei's step: test the key (all k cells
 * non-zero: a repeat), decrement the P cells of a window at
 * bpf_get_prandom_u32(), set the key's k cells to Max.  The first copy
 * passes; a repeat is dropped (KBLOOM_DEDUPE_DROP) or passed and counted
 * (KBLOOM_DEDUPE_COUNT).  A repeat seen long after its first copy may be
 * taken for a first one (the stable filter forgets: a false negative,
 * the copy passes); a packet never seen may be taken for a repeat at the
 * stable point's rate (a false positive, the packet is dropped in DROP
 * mode): size P for that rate (kb_stable_plan()).
 *
 * Maps:
 *   dedupe_params  ARRAY 1                    0 -> struct kbloom_dedupe_params
 *   dedupe_cells   ARRAY nwords, BPF_F_MMAPABLE  word -> __u64: the payload
 *                  of a stable image (host order), so an image loads into
 *                  the map and the map saves as an image unchanged
 *   dedupe_stats   PERCPU_ARRAY 1             0 -> struct kbloom_dedupe_stats
 */
#ifndef _UAPI_KBLOOM_DEDUPE_MAPS_H
#define _UAPI_KBLOOM_DEDUPE_MAPS_H

#include <linux/types.h>

/* struct kbloom_dedupe_params.action */
#define KBLOOM_DEDUPE_COUNT	0U
#define KBLOOM_DEDUPE_DROP	1U

#define KBLOOM_DEDUPE_L4_BYTES	12U
/* Tries of a cell word's compare-and-exchange (cells of 2..8 bits). */
#define KBLOOM_DEDUPE_CAS_TRIES	8U

/**
 * struct kbloom_dedupe_key - what a frame is hashed as (kb_hash())
 * @src, @dst: IP addresses, network order, IPv4 in the first 4 bytes
 * @l4proto: the upper-layer protocol
 * @addr_len: 4 or 16
 * @pad: 0
 * @l4: the first KBLOOM_DEDUPE_L4_BYTES bytes of the upper-layer header
 */
struct kbloom_dedupe_key {
	__u8 src[16];
	__u8 dst[16];
	__u8 l4proto;
	__u8 addr_len;
	__u8 pad[2];
	__u8 l4[KBLOOM_DEDUPE_L4_BYTES];
};

/**
 * struct kbloom_dedupe_params - dedupe_params[0]
 * @seed, @hash_id: the key hash
 * @m: cells; @k: probes; @cell_bits: d (Max = 2^d - 1); @p: decrements
 *     (a valid stable shape: kb_stable_shape_init())
 * @action: KBLOOM_DEDUPE_COUNT or KBLOOM_DEDUPE_DROP
 * @reserved: 0
 * @nwords: elements of dedupe_cells (kb_shape_words())
 */
struct kbloom_dedupe_params {
	__u64 seed;
	__u64 m;
	__u32 hash_id;
	__u32 k;
	__u32 cell_bits;
	__u32 p;
	__u32 action;
	__u32 reserved;
	__u64 nwords;
};

/**
 * struct kbloom_dedupe_stats - dedupe_stats[0], one per CPU
 * @packets: frames seen
 * @first: frames tested absent, passed (and added)
 * @repeats: frames tested present (and added again)
 * @dropped: repeats dropped
 * @not_ip, @malformed: frames passed untested
 * @skipped: non-first fragments and short upper-layer headers, passed
 *     untested
 * @contended: cell words whose decrement was given up after
 *     KBLOOM_DEDUPE_CAS_TRIES failed compare-and-exchanges
 * @errors: frames passed for parameters that do not match the maps
 */
struct kbloom_dedupe_stats {
	__u64 packets;
	__u64 first;
	__u64 repeats;
	__u64 dropped;
	__u64 not_ip;
	__u64 malformed;
	__u64 skipped;
	__u64 contended;
	__u64 errors;
};

#endif /* _UAPI_KBLOOM_DEDUPE_MAPS_H */
