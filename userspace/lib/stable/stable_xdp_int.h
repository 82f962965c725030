/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_stable internals for the XDP instance kind "dedupe"
 * (userspace/lib/xdp/kind_dedupe.c): the program and maps of a loaded
 * suppressor as file descriptors, to pin them, and a suppressor made from
 * such descriptors (opened from the pins), on which every
 * kbloom_stable_xdp_*() call of libkbloom_stable.h works.
 */
#ifndef _KBLOOM_STABLE_XDP_INT_H
#define _KBLOOM_STABLE_XDP_INT_H

#include "libkbloom_stable.h"

/**
 * struct kbst_xdp_fds - the objects of an XDP suppressor
 * @prog: kbloom_dedupe
 * @params, @cells, @stats: dedupe_params, dedupe_cells, dedupe_stats
 */
struct kbst_xdp_fds {
	int prog;
	int params;
	int cells;
	int stats;
};

/* @x's descriptors (still @x's: not to be closed). */
void kbst_xdp_fds(const struct kbloom_stable_xdp *x, struct kbst_xdp_fds *f);

/**
 * kbst_xdp_adopt() - a suppressor over @f (duplicated; the caller keeps
 * its own), its geometry read from the params map
 *
 * Return: 0; -EUCLEAN when the params are not a valid stable shape or do
 * not match the cells map; -ENOMEM; -errno of the reads and the mmap.
 */
int kbst_xdp_adopt(const struct kbst_xdp_fds *f, struct kbloom_stable_xdp **xp);

/* The action of the params map (KBLOOM_DEDUPE_*), or -errno. */
int kbst_xdp_action(const struct kbloom_stable_xdp *x);

#endif /* _KBLOOM_STABLE_XDP_INT_H */
