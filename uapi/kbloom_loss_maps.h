/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the BPF maps of the XDP loss digest (bpf/kbloom_loss_digest.bpf.c), in
 * the manner of LossRadar (Li et al., CoNEXT 2016), shared with its
 * loader in libkbloom (libkbloom_loss.h).
 *
 * Two observation points on a path each fold every IPv4 packet into an
 * IBLT (uapi/kbloom_var_iblt.h) of the same shape and seed: its key is
 * the packet's 5-tuple and IP identification (struct kbloom_loss_key),
 * its value the IP total length.  Subtracting the downstream digest from
 * the upstream one and decoding lists the packets the path lost between
 * the two points (+1), and any it made up or duplicated (-1).  A packet
 * is folded with BPF atomics: the count by atomic ADD, the sums by atomic
 * XOR, into k cells of the active bank.
 *
 * Epochs: the cells map holds two banks of @cells cells.  Packets fold
 * into bank @bank of the params; the reader flips @bank, waits for the
 * programs in flight, reads the old bank as an IBLT and zeroes it.  Both
 * points must flip at the same packet boundary for their digests to
 * subtract to the path's loss (LossRadar stamps a batch id in packets;
 * here the flips are the reader's: a test flips both between bursts).
 *
 * Key: IPv4 only (IPv6 has no identification field), first fragments and
 * unfragmented packets; ports for TCP, UDP and SCTP, 0 otherwise.  Other
 * frames pass unfolded and are counted as skipped.
 *
 * Maps:
 *   loss_params  ARRAY 1                        0 -> struct kbloom_loss_params
 *   loss_cells   ARRAY 2 cells, BPF_F_MMAPABLE  bank b cell c at b cells + c
 *                -> struct kbloom_loss_cell (the IBLT cell of key words 2)
 *   loss_stats   PERCPU_ARRAY 1                 0 -> struct kbloom_loss_stats
 */
#ifndef _UAPI_KBLOOM_LOSS_MAPS_H
#define _UAPI_KBLOOM_LOSS_MAPS_H

#include <linux/types.h>

#define KBLOOM_LOSS_BANKS	2U
#define KBLOOM_LOSS_KEY_WORDS	2U
#define KBLOOM_LOSS_KEY_LEN	15U	/* bytes after the length byte */

/* struct kbloom_loss_params.action: after the fold */
#define KBLOOM_LOSS_PASS	0U
#define KBLOOM_LOSS_DROP	1U

/**
 * struct kbloom_loss_key - the encoded key of a packet (2 key words)
 * @len: KBLOOM_LOSS_KEY_LEN: the IBLT key encoding's length byte
 * @proto: IP protocol
 * @id: IP identification (network order)
 * @saddr, @daddr: IPv4 addresses (network order)
 * @sport, @dport: ports (network order), 0 without
 *
 * The key hashed (kb_hash()) is the 15 bytes from @proto; the key words
 * are the 16 bytes read little-endian, as kb_iblt_encode() makes them.
 */
struct kbloom_loss_key {
	__u8 len;
	__u8 proto;
	__be16 id;
	__be32 saddr;
	__be32 daddr;
	__be16 sport;
	__be16 dport;
};

/* An IBLT cell of 2 key words (KB_IBLT_W_* order). */
struct kbloom_loss_cell {
	__u64 count;
	__u64 check;
	__u64 value;
	__u64 key[KBLOOM_LOSS_KEY_WORDS];
};

/**
 * struct kbloom_loss_params - loss_params[0]
 * @seed, @hash_id: the key hash
 * @k: cells per packet (partitions), KB_IBLT_K_MIN..KB_IBLT_K_MAX
 * @cells: cells per bank, a multiple of @k
 * @bank: the bank packets fold into, 0 or 1
 * @action: KBLOOM_LOSS_PASS or KBLOOM_LOSS_DROP
 */
struct kbloom_loss_params {
	__u64 seed;
	__u32 hash_id;
	__u32 k;
	__u32 cells;
	__u32 bank;
	__u32 action;
	__u32 reserved;
};

/**
 * struct kbloom_loss_stats - loss_stats[0], one per CPU
 * @packets: frames seen
 * @folded: packets folded into a digest
 * @bytes: their IP total lengths
 * @skipped: frames passed unfolded (not IPv4, a later fragment, short)
 * @errors: frames passed for parameters that do not match the maps
 */
struct kbloom_loss_stats {
	__u64 packets;
	__u64 folded;
	__u64 bytes;
	__u64 skipped;
	__u64 errors;
};

#endif /* _UAPI_KBLOOM_LOSS_MAPS_H */
