/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_dleft internals for the XDP instance kind "conntrack"
 * (userspace/lib/xdp/kind_conntrack.c): the program and maps of a loaded
 * tracker as file descriptors, to pin them, and a tracker made from such
 * descriptors (opened from the pins), on which every kbloom_dleft_xdp_*()
 * call of libkbloom_dleft.h works.
 */
#ifndef _DLEFT_XDP_INT_H
#define _DLEFT_XDP_INT_H

#include "libkbloom_dleft.h"

/**
 * struct dl_xdp_fds - the objects of an XDP tracker
 * @prog: the XDP program
 * @params: dleft_params
 * @words: dleft_words (BPF_F_MMAPABLE)
 * @stats: dleft_stats
 */
struct dl_xdp_fds {
	int prog;
	int params;
	int words;
	int stats;
};

/* @x's descriptors (still @x's: not to be closed). */
void dl_xdp_fds(const struct kbloom_dleft_xdp *x, struct dl_xdp_fds *f);

/* The parameters @x was loaded or adopted with. */
void dl_xdp_params(const struct kbloom_dleft_xdp *x,
		   struct kbloom_dleft_params *p);

/**
 * dl_xdp_adopt() - a tracker over @f (duplicated; the caller keeps its
 * own), its filter's shape read from the params map
 *
 * Return: 0; -EUCLEAN when the params are not ready or do not fit the
 * words map; -ENOMEM; -errno of the map reads and mmap().
 */
int dl_xdp_adopt(const struct dl_xdp_fds *f, struct kbloom_dleft_xdp **xp);

#endif /* _DLEFT_XDP_INT_H */
