/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP instances: a gate's new addresses into its exact map by
 * the loader program (gate_load.c), for gate_batch.c.
 */
#ifndef _KBLOOM_XDP_GATE_LOAD_H
#define _KBLOOM_XDP_GATE_LOAD_H

#include <stdbool.h>
#include <linux/types.h>
#include "uapi/kbloom_xdp_maps.h"

/**
 * struct kbx_gate_enter - one batch for kbx_gate_enter()
 * @exact_fd: the gate's exact map
 * @keys: the addresses (valid keys), @n of them
 * @exist: skip an address the set has, or the batch has twice
 * @done: out, @n flags: the addresses entered
 * @ndone: out: how many
 * @failed: out: the address that stopped the batch
 */
struct kbx_gate_enter {
	int exact_fd;
	const struct kbloom_addr_key *keys;
	__u32 n;
	bool exist;
	bool *done;
	__u32 ndone;
	__u32 failed;
};

/*
 * Enter the addresses: 0; -EEXIST (without @exist) or -ENOSPC (the map
 * is full) at @failed, the entered ones flagged in @done to be undone;
 * 1 when the loader program cannot run here, or KBLOOM_GATE_NO_LOADER is
 * set (nothing entered).
 */
int kbx_gate_enter(struct kbx_gate_enter *e);

#endif /* _KBLOOM_XDP_GATE_LOAD_H */
