/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP instances of kind "window" (struct kbloom_inst of
 * libkbloom_xdp.h): an age-partitioned window of addresses in BPF maps
 * (bpf/kbloom_window.bpf.c, uapi/kbloom_window_maps.h), rotated by the
 * programs themselves, as a pinned instance.  Two modes:
 *   KBLOOM_XDP_WINDOW_RETURN  the gate of return traffic: an IP frame
 *       passes XDP only when its source was a destination within the
 *       window; attaching also puts the tc egress program that records
 *       destinations on the same device (pinned as tc_<ifindex>, removed
 *       with the XDP link);
 *   KBLOOM_XDP_WINDOW_DEDUPE  a source's repeats within the window are
 *       dropped.
 * Pins: prog_return or prog_dedupe, prog_out, win_params, win_state,
 * win_words, win_stats.
 *
 * Made once (kbloom_inst_create(name, "window", ...) works too) and
 * opened from its pins by any later process; attach, detach, status and
 * destroy are the kbloom_inst_*() calls of libkbloom_xdp.h.  A call on an
 * instance of another kind returns -EINVAL.
 */
#ifndef _LIBKBLOOM_XDP_WINDOW_H
#define _LIBKBLOOM_XDP_WINDOW_H

#include <stddef.h>
#include <linux/types.h>

#include "libkbloom_xdp.h"
#include "kbloom/uapi/kbloom_window_maps.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kbloom_xdp_window_mode {
	KBLOOM_XDP_WINDOW_RETURN = 0,
	KBLOOM_XDP_WINDOW_DEDUPE = 1,
};

/**
 * struct kbloom_xdp_window_opts - the window of a new instance
 * @mode: enum kbloom_xdp_window_mode
 * @hash_id: enum kbloom_hash_id, 0: the fast hash
 * @window_ns: T, nanoseconds; every address of the last T is present
 * @capacity: addresses expected within T (0: 1024)
 * @fpr_pico: target rate (1e-12 units, 0: 0.1%)
 * @seed: the hash seed
 *
 * k, l and the slice size are planned as kbloom_win_create() plans a
 * time window.
 */
struct kbloom_xdp_window_opts {
	__u32 mode;
	__u32 hash_id;
	__u64 window_ns;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 seed;
};

/**
 * kbloom_xdp_window_create() - make window instance @name
 * @o: pin root, namespace of the interfaces, log (NULL: defaults)
 * @wo: the window and the mode
 *
 * Return: 0; -EEXIST; -EINVAL for a bad field; -E2BIG (no slice reaches
 * the target); -errno of loading or pinning.  Nothing is left behind on
 * failure.
 */
int kbloom_xdp_window_create(const char *name,
			     const struct kbloom_inst_opts *o,
			     const struct kbloom_xdp_window_opts *wo,
			     struct kbloom_inst **ip);

/* Open window instance @name; -EINVAL (logged) for another kind. */
int kbloom_xdp_window_open(const char *name, const struct kbloom_inst_opts *o,
			   struct kbloom_inst **ip);

/* The mode it was made with (KBLOOM_XDP_WINDOW_*), or -EINVAL. */
int kbloom_xdp_window_mode(struct kbloom_inst *i);

/* The geometry and the generation clock.  Return: 0 or -errno. */
int kbloom_xdp_window_params(struct kbloom_inst *i,
			     struct kbloom_win_xdp_params *p,
			     struct kbloom_win_xdp_state *st);

/* The counters, summed over the CPUs.  Return: 0 or -errno. */
int kbloom_xdp_window_stats(struct kbloom_inst *i,
			    struct kbloom_win_xdp_stats *st);

/*
 * The window as a version-3 AGE_PARTITIONED image (time clock), which
 * kbloom_win_load() of libkbloom_window.h loads: malloc()ed, in *@img
 * and *@len.  Return: 0 or -errno.
 */
int kbloom_xdp_window_save_alloc(struct kbloom_inst *i, void **img,
				 size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_XDP_WINDOW_H */
