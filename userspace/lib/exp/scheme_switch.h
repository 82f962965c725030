/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_exp: per-switch schemes, the small extension of the per-port
 * ones (scheme.h).
 *
 * A per-switch scheme holds ONE structure per switch for the groups of
 * all its ports: (group, local port) pairs go in, and one "which ports"
 * query of a group answers every port of the switch at once.  The
 * forwarding asks that query once per packet and switch instead of
 * testing each port's structure.  Its struct exp_scheme_ops sets ->sw
 * (below) and leaves build, test and destroy NULL; name, title, color,
 * bits_step and bytes keep their meaning: M is still the bits per port,
 * a switch of P ports has P M bits, and bytes() is one port's share.
 *
 * For every run (scheme, M) the engine, switch by switch in the threads
 * (build_switch.c):
 *   build()   the switch's structure from its (group, port) pairs;
 *   ports()   once per group whose tree has the switch (the packet's one
 *             query there: its cache lines are the probes), and its
 *             answer gives each candidate port (a match: a first-order
 *             false positive) and each present port (a miss: a false
 *             negative, a lost delivery; checked for every per-switch
 *             scheme);
 * then, packet by packet, ports() at the switches a packet reaches off
 * its tree (switch_query.c), as the per-port test() is for the others.
 */
#ifndef _KBLOOM_EXP_SCHEME_SWITCH_H
#define _KBLOOM_EXP_SCHEME_SWITCH_H

#include "scheme.h"

/* Ports of a switch that a per-switch scheme holds (a query's bitmap). */
#define EXP_SW_PORTS_MAX	1024U
#define EXP_SW_WORDS		(EXP_SW_PORTS_MAX / 64)

/**
 * struct exp_switch_ctx - what a per-switch build() gets, and gives back
 * @x: the experiment (parameters in x->p)
 * @s: the state being built (s->bits = M)
 * @worker: the building thread's index
 * @sw: the switch's index (x->sw[sw] is its node)
 * @nports: P, its ports (local port j is the node's first_port + j)
 * @bits: M, the budget per port in bits: the switch has P M bits
 * @seed: the switch's seed (that of its first port): use it for the hash
 * @keys, @kport, @n: its (group, port) pairs: the group's key (4 bytes
 *        each, at @keys + 4 i) and the local port @kport[i]
 * @k: out: the probes of a query (the table's K column)
 * @pred: out: the predicted false-positive rate of a candidate port
 */
struct exp_switch_ctx {
	const struct kb_exp *x;
	struct kb_exp_state *s;
	__u32 worker;
	__u32 sw;
	__u32 nports;
	__u64 bits;
	__u64 seed;
	const __u8 *keys;
	const __u32 *kport;
	__u64 n;
	__u32 k;
	double pred;
};

/**
 * struct exp_switch_ops - the per-switch part of a scheme
 * @build: the switch c->sw's structure from its c->n pairs, in *@sw;
 *         0 or -errno (the run fails with it)
 * @ports: which ports may carry @key (4 bytes): bit j of @ports[j / 64]
 *         for local port j, the others of the EXP_SW_WORDS words zero;
 *         returns the cache lines the query read.  Read-only, called
 *         from several threads
 * @destroy: frees a switch's structure
 */
struct exp_switch_ops {
	int (*build)(struct exp_switch_ctx *c, void **sw);
	__u32 (*ports)(const void *sw, const __u8 *key, __u64 *ports);
	void (*destroy)(void *sw);
};

/* build_switch.c: this thread's share of the switches (@arg: the state) */
int exp_phase_build_switch(struct exp_worker *w, void *arg);

/* switch_query.c */
__u32 exp_switch_query(const struct kb_exp_state *s, __u32 sw,
		       const __u8 *key, __u64 *ports);
void exp_switch_decide(struct exp_worker *w, const struct kb_exp_state *s,
		       __u32 p, const __u8 *key);

#endif /* _KBLOOM_EXP_SCHEME_SWITCH_H */
