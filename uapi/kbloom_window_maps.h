/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the BPF maps of the window paths at XDP and tc
 * (bpf/kbloom_window.bpf.c), shared with their loaders.
 *
 * One age-partitioned window (uapi/kbloom_var_window.h) of source or
 * destination addresses (the 4 or 16 bytes of the IPv4 or IPv6 address,
 * network order), its words one __u64 per array element: element i is
 * word i of an AGE_PARTITIONED image's payload (host order).
 *
 * Rotation is done by the programs themselves: every program compares
 * bpf_ktime_get_ns() with the generation start; the first to see
 * rotations due moves the start on by compare-and-exchange (so exactly
 * one program rotates), clears the oldest slices and publishes the head.
 * A lookup leaves out the slices a rotation due now would clear, as
 * libkbloom and kbloom.ko do, so no rotation needs a timer: a window
 * nobody looks at needs no work.
 *
 * Programs (one object, the same maps):
 *   kbloom_window_out     tc egress: insert the destination of every IP
 *                         frame leaving; always TC_ACT_OK;
 *   kbloom_window_in      XDP: the gate of return traffic: an IP frame
 *                         passes iff its source was a destination in the
 *                         window (a peer contacted in the last T), else
 *                         it is dropped; frames that are not IP pass,
 *                         malformed IP frames are dropped;
 *   kbloom_window_dedupe  XDP: test-and-add of the source: a source seen
 *                         in the window is a repeat and dropped, else it
 *                         is added and passes (one frame per source per
 *                         window).
 *
 * Maps:
 *   win_params  ARRAY 1         0 -> struct kbloom_win_xdp_params
 *   win_state   ARRAY 1         0 -> struct kbloom_win_xdp_state
 *   win_words   ARRAY           word -> __u64, (k + l) s / 64 elements
 *   win_stats   PERCPU_ARRAY 1  0 -> struct kbloom_win_xdp_stats
 */
#ifndef _UAPI_KBLOOM_WINDOW_MAPS_H
#define _UAPI_KBLOOM_WINDOW_MAPS_H

#include <linux/types.h>

/**
 * struct kbloom_win_xdp_params - the window's geometry (written once)
 * @k, @l: slices a key is added to, slices beyond k
 * @hash_id, @reserved: the hash (enum kbloom_hash_id); 0
 * @slice_bits: bits of a slice, a multiple of 64
 * @gen_ns: nanoseconds per generation (the window T is l @gen_ns)
 * @seed: the hash seed
 */
struct kbloom_win_xdp_params {
	__u32 k;
	__u32 l;
	__u32 hash_id;
	__u32 reserved;
	__u64 slice_bits;
	__u64 gen_ns;
	__u64 seed;
};

/**
 * struct kbloom_win_xdp_state - the generation clock
 * @gen_start: bpf_ktime_get_ns() at the start of the current generation
 * @rotations: generations started
 * @head: physical index of the newest slice
 * @reserved: 0
 */
struct kbloom_win_xdp_state {
	__u64 gen_start;
	__u64 rotations;
	__u32 head;
	__u32 reserved;
};

/* Per-CPU counters of the window programs. */
struct kbloom_win_xdp_stats {
	__u64 packets;		/* frames seen */
	__u64 not_ip;		/* passed: not IP */
	__u64 malformed;	/* dropped (in, dedupe), passed (out) */
	__u64 inserted;		/* addresses added */
	__u64 present;		/* lookups that found the address */
	__u64 absent;		/* lookups that did not */
	__u64 drops;
	__u64 passed;
	__u64 rotations;	/* generations this CPU started */
	__u64 errors;		/* no parameters, a word missing */
};

#endif /* _UAPI_KBLOOM_WINDOW_MAPS_H */
