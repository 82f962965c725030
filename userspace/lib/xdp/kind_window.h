/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP instances: the window kind's private data, shared by
 * kind_window.c (create, open, the tc egress link) and kind_window_read.c
 * (the counters and the image).
 */
#ifndef _KBLOOM_KIND_WINDOW_H
#define _KBLOOM_KIND_WINDOW_H

#include "inst.h"

/* The pins, in the order of struct kbw's fd[]. */
enum {
	KBW_PROG, KBW_OUT, KBW_PARAMS, KBW_STATE, KBW_WORDS, KBW_STATS,
	KBW_NPINS
};

/* An open window instance: its pinned objects and mode. */
struct kbw {
	int fd[KBW_NPINS];
	__u32 mode;
};

#endif /* _KBLOOM_KIND_WINDOW_H */
