/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_sketch internals for the XDP instance kind "sketch"
 * (userspace/lib/xdp/kind_sketch.c): the program and maps of a loaded XDP
 * sketch as file descriptors, to pin them, and an XDP sketch made from
 * such descriptors (opened from the pins), on which every
 * kbloom_sketch_xdp_*() call of libkbloom_sketch.h works.
 */
#ifndef _KBLOOM_SKETCH_XDP_INT_H
#define _KBLOOM_SKETCH_XDP_INT_H

#include "libkbloom_sketch.h"

/**
 * struct kbs_xdp_fds - the objects of an XDP sketch
 * @prog: the XDP program of the loaded form
 * @params: sketch_params
 * @rows: the packet and byte rows of the loaded form (sketch_pkts and
 *        sketch_bytes, or their _pcpu maps)
 * @stats: sketch_stats
 */
struct kbs_xdp_fds {
	int prog;
	int params;
	int rows[2];
	int stats;
};

/* @x's descriptors (still @x's: not to be closed). */
void kbs_xdp_fds(const struct kbloom_sketch_xdp *x, struct kbs_xdp_fds *f);

/**
 * kbs_xdp_adopt() - an XDP sketch over @f (duplicated; the caller keeps
 * its own), its geometry read from the params map and its form from the
 * rows' map type
 *
 * Return: 0; -EUCLEAN when the params and the maps do not agree; -ENOMEM;
 * -errno of the map reads.
 */
int kbs_xdp_adopt(const struct kbs_xdp_fds *f, struct kbloom_sketch_xdp **xp);

#endif /* _KBLOOM_SKETCH_XDP_INT_H */
