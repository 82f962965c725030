/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP instances: what the counting kinds (kind_sketch.c,
 * kind_conntrack.c) share, in kind_count.c: a kind whose program and maps
 * are a fixed list of pins, made by its family's loader and opened from
 * the pins.
 */
#ifndef _KBLOOM_KIND_COUNT_H
#define _KBLOOM_KIND_COUNT_H

#include "inst.h"

/*
 * The objects at @n pins @leaf of @i into @fd (each -1 first); -errno
 * with one log line naming the pin.  kbc_close() closes them.
 */
int kbc_get(struct kbloom_inst *i, const char *const *leaf, int n, int *fd);
void kbc_close(int *fd, int n);

/* Pin @fd[0..@n) at @leaf in @i's directory; -errno, logged. */
int kbc_pin(struct kbloom_inst *i, const char *const *leaf, int n,
	    const int *fd);

/* Open @name, of kind @ops only (another: -EINVAL, logged). */
int kbc_open(const char *name, const struct kbloom_inst_opts *o,
	     const struct kbi_ops *ops, struct kbloom_inst **ip);

#endif /* _KBLOOM_KIND_COUNT_H */
