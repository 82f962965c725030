/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom loss digest internals: an attached or opened digest.
 *
 *   loss_xdp.c   load, attach, pin, open, detach
 *   loss_read.c  swap, read, statistics, formatting
 */
#ifndef _KBLOOM_LOSS_INT_H
#define _KBLOOM_LOSS_INT_H

#include "libkbloom_loss.h"

struct kbloom_loss {
	int params_fd;
	int cells_fd;
	int stats_fd;
	struct kbloom_loss_cell *cells;	/* mmapped, 2 banks */
	size_t map_len;
	struct kbloom_loss_params p;	/* as read at attach or open */
};

#endif /* _KBLOOM_LOSS_INT_H */
