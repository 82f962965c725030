/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the BPF maps of the XDP counting sketch
 * (bpf/kbloom_countmin.bpf.c), shared with its loader in libkbloom_sketch
 * (userspace/lib/sketch/).
 *
 * Per source address (the key of uapi/kbloom_xdp_maps.h: the 4 or 16
 * bytes of the IPv4 or IPv6 source, network order), two Count-Min
 * sketches of one geometry and seed (uapi/kbloom_variants.h): one counts
 * packets, one counts bytes (the frame length).  Each sketch is the words
 * of the uapi layout, one __u64 per array element: element i is word i of
 * a COUNT_MIN image's payload (host order), so an image loads into a map
 * and a map saves as an image without any transformation.
 *
 * Two forms of the same program, chosen by the loader:
 *   kbloom_sketch_pcpu    BPF_MAP_TYPE_PERCPU_ARRAY rows (sketch_pkts_pcpu,
 *                         sketch_bytes_pcpu): no atomics, each CPU counts
 *                         what it receives, with either update rule,
 *                         exactly as libkbloom_sketch; the sketch of the
 *                         whole stream is the sum of the CPUs' (for
 *                         KB_CM_ALL exactly the shared sketch, counter for
 *                         counter); the threshold compares each CPU's own
 *                         estimate;
 *   kbloom_sketch_shared  BPF_MAP_TYPE_ARRAY rows (sketch_pkts,
 *                         sketch_bytes), KB_CM_ALL only: each counter
 *                         moves by compare-and-exchange on its word (a
 *                         saturated counter stays); the threshold compares
 *                         the estimate of all CPUs.
 *
 * Maps:
 *   sketch_params       ARRAY 1         0 -> struct kbloom_sketch_params
 *   sketch_pkts(_pcpu)  (PERCPU_)ARRAY  word -> __u64, nwords elements
 *   sketch_bytes(_pcpu) (PERCPU_)ARRAY  word -> __u64, nwords elements
 *   sketch_stats        PERCPU_ARRAY 1  0 -> struct kbloom_sketch_stats
 * (the maps of the form that is not loaded keep one element).
 *
 * Threshold.  With @threshold non-zero, a frame whose source's estimate
 * after this frame (packets, or bytes with KBLOOM_SKETCH_F_BYTES) exceeds
 * it is "over": KBLOOM_SKETCH_COUNT only counts it, KBLOOM_SKETCH_MARK
 * passes it with @mark in 4 bytes of XDP metadata (bpf_xdp_adjust_meta();
 * a tc program or AF_XDP reads it), KBLOOM_SKETCH_DROP drops it.
 * Frames that are not IP, and malformed or truncated IP frames, pass
 * untouched and are not counted in the sketches (only in the stats).
 */
#ifndef _UAPI_KBLOOM_SKETCH_MAPS_H
#define _UAPI_KBLOOM_SKETCH_MAPS_H

#include <linux/types.h>
#include <linux/const.h>

/* struct kbloom_sketch_params.action */
#define KBLOOM_SKETCH_COUNT	0U
#define KBLOOM_SKETCH_MARK	1U
#define KBLOOM_SKETCH_DROP	2U

/* struct kbloom_sketch_params.flags */
#define KBLOOM_SKETCH_F_BYTES	_BITUL(0)	/* threshold on bytes */
#define KBLOOM_SKETCH_F_ALL	KBLOOM_SKETCH_F_BYTES

/* Tries of a shared counter's compare-and-exchange before it gives up. */
#define KBLOOM_SKETCH_CAS_TRIES	8U

/**
 * struct kbloom_sketch_params - sketch_params[0]
 * @seed, @hash_id: the key hash (kb_hash())
 * @width: w, columns per row
 * @rows: d, 1..KB_CM_ROWS_MAX
 * @counter_bits: 16 or 32
 * @update: KB_CM_ALL or KB_CM_MIN_INC
 * @action: KBLOOM_SKETCH_COUNT, _MARK or _DROP
 * @flags: KBLOOM_SKETCH_F_*
 * @mark: the metadata value of KBLOOM_SKETCH_MARK
 * @threshold: estimate above which a frame is over; 0: none
 * @nwords: words of each sketch map (kb_shape_words())
 * @reserved: 0
 */
struct kbloom_sketch_params {
	__u64 seed;
	__u64 width;
	__u32 hash_id;
	__u32 rows;
	__u32 counter_bits;
	__u32 update;
	__u32 action;
	__u32 flags;
	__u32 mark;
	__u32 reserved;
	__u64 threshold;
	__u64 nwords;
};

/**
 * struct kbloom_sketch_stats - sketch_stats[0], one per CPU
 * @packets: frames seen
 * @counted: IP frames counted in the sketches
 * @bytes: their bytes
 * @not_ip: frames that are not IP
 * @malformed: malformed or truncated IP frames
 * @over: counted frames over the threshold
 * @marked: frames passed with the mark
 * @dropped: frames dropped
 * @saturations: row updates clipped at the counter maximum
 * @contended: shared row updates given up after KBLOOM_SKETCH_CAS_TRIES
 *     failed compare-and-exchanges (that row misses the frame: the one
 *     case where an estimate can fall below the truth, counted here)
 * @errors: frames not counted for a missing map element (parameters that
 *     do not match the maps)
 */
struct kbloom_sketch_stats {
	__u64 packets;
	__u64 counted;
	__u64 bytes;
	__u64 not_ip;
	__u64 malformed;
	__u64 over;
	__u64 marked;
	__u64 dropped;
	__u64 saturations;
	__u64 contended;
	__u64 errors;
};

#endif /* _UAPI_KBLOOM_SKETCH_MAPS_H */
