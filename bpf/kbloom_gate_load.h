/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom gate loading: what the loader program (bpf/kbloom_gate_load.bpf.c)
 * and libkbloom (userspace/lib/xdp/gate_load.c) share.
 *
 * The library writes a batch of addresses into the mmapped array gl_keys,
 * one struct kbloom_gate_load_slot each, and runs the program with
 * BPF_PROG_TEST_RUN, a struct kbloom_gate_load_args as its context: it
 * enters slots @first..@first + @n - 1 into the gate's exact map with
 * BPF_NOEXIST, so an address in the set already, or twice in the batch,
 * is found by the map itself.  With @undo it deletes the addresses it
 * entered.
 */
#ifndef _KBLOOM_GATE_LOAD_H
#define _KBLOOM_GATE_LOAD_H

#include <linux/types.h>
#include "uapi/kbloom_xdp_maps.h"

/* Slots of gl_keys: one run of the program enters at most this many. */
#define KBLOOM_GATE_LOAD_SLOTS	0x100000U	/* 2^20 */

/**
 * struct kbloom_gate_load_slot - one address of the batch
 * @key: the address, as gate_exact's key
 * @done: set by the program: 1 when it entered @key, 0 when it skipped it
 */
struct kbloom_gate_load_slot {
	struct kbloom_addr_key key;
	__u32 done;
};

/**
 * struct kbloom_gate_load_args - the program's context, in and out
 * @first: in: the first slot
 * @n: in: how many slots from @first
 * @exist: in: 1 skips an address the map has (-EEXIST), 0 stops there
 * @undo: in: 1 deletes the slots flagged @done instead (and clears them)
 * @err: out: 0, or the -errno of the map update that stopped the run
 * @at: out: the slot of that update (@first + @n when none stopped it)
 * @added: out: addresses entered
 */
struct kbloom_gate_load_args {
	__u32 first;
	__u32 n;
	__u32 exist;
	__u32 undo;
	__s32 err;
	__u32 at;
	__u32 added;
};

#endif /* _KBLOOM_GATE_LOAD_H */
