/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP instances: the ops of every kind, for registry.c, which
 * finds a kind by its marker.  A new kind: one kind_*.c with its ops, one
 * line here and one in registry.c.
 */
#ifndef _KBLOOM_XDP_KINDS_H
#define _KBLOOM_XDP_KINDS_H

#include "inst.h"

extern const struct kbi_ops kbx_mcast_ops;
extern const struct kbi_ops kbx_gate_ops;
extern const struct kbi_ops kbx_pass_ops;
extern const struct kbi_ops kbn_ipbf_ops;
extern const struct kbi_ops kbn_mcbf_ops;
extern const struct kbi_ops kbx_sketch_ops, kbx_conntrack_ops;
extern const struct kbi_ops kbx_dedupe_ops;
extern const struct kbi_ops kbx_window_ops;

#endif /* _KBLOOM_XDP_KINDS_H */
