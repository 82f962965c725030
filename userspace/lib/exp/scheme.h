/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_exp: the per-port schemes, one ops table each.
 *
 * A per-port scheme gives every switch port a structure of M bits that
 * holds the groups whose tree uses the port; a port sends a copy of a
 * packet iff its structure says the packet's group may be there.  The
 * engine (state.c, build.c, forward.c, run.c) never names a scheme: it
 * calls the scheme's ops.  A scheme is one file, scheme_<name>.c, that
 * defines a `const struct exp_scheme_ops exp_scheme_<name>`, one line in
 * scheme_list.h and one value of enum kb_exp_scheme
 * (libkbloom_exp.h); EXP_SCHEME.md in the notes and the header of
 * scheme.c say how.
 *
 * For every run (scheme, M) the engine, in the threads, port by port:
 *   build()       makes port p's structure from the keys of its present
 *                 groups (4-byte group addresses, groups ascending);
 *   test()        (or test_batch()) answers for every candidate group of
 *                 the port (a port of a tree switch off the group's tree):
 *                 a match is a first-order false positive, a leak;
 *   test()        again for every present group when may_fn is set: a
 *                 miss is a false negative, and forwarding then does not
 *                 send the group's copy on that tree link, so receivers
 *                 below it are lost deliveries;
 * then, packet by packet, test() for ports the packet reaches off its
 * tree (cascades).  Everything a structure needs to be deterministic comes
 * in struct exp_port_ctx (its seed, the plan); a port's structure is used
 * by one thread at a time, and read-only after build().
 */
#ifndef _KBLOOM_EXP_SCHEME_H
#define _KBLOOM_EXP_SCHEME_H

#include "exp_int.h"

struct exp_switch_ops;

/**
 * struct exp_port_ctx - what build() gets for one port, and gives back
 * @x: the experiment (parameters in x->p; x->nclass classes)
 * @s: the state being built (s->bits = M)
 * @plan: what ops->plan() made for this run (NULL without plan())
 * @worker: the building thread's index, 0..x->nthreads - 1 (its share
 *          of @plan's scratch space, if any)
 * @port: the global port id
 * @bits: M, the port's budget in bits
 * @seed: the port's seed (exp_port_seed()): use it for the hash
 * @keys, @n: the present groups' keys, 4 bytes each
 * @groups: the present groups themselves (x->gmix[g]: the seed-free half
 *          of a key's hash, kb_fast_key_mix(); x->gcls[g]: its class)
 * @pres: per class: the port's present groups (x->present)
 * @absent: per class: the port's candidate groups (x->absent)
 * @k_sum, @k_n: out: the probes of the port's structure (the table's K
 *          column is the mean of k_sum / k_n over the ports); MC-BF adds
 *          one k per class
 * @pred: out: the predicted false-positive rate of a candidate: one
 *        value, or one per class when ops->pred_per_class (0: no formula)
 * @probes: out: the memory locations (bits, counters, buckets, blocks)
 *        that the port's first-order tests read: per test of a present or
 *        candidate group (exp_port_tests() of them; per class in @pres and
 *        @absent), what one test reads, without early exits (a standard
 *        filter: k bits; blocked: 1 block; cuckoo: 2 buckets)
 * @exact, @exact_pred: out, optional: of the port's exp_port_tests(),
 *        those its scheme answers by an exact lookup, measured and
 *        predicted (complement); 0 for the others
 */
struct exp_port_ctx {
	const struct kb_exp *x;
	struct kb_exp_state *s;
	void *plan;
	__u32 worker;
	__u32 port;
	__u64 bits;
	__u64 seed;
	const __u8 *keys;
	const __u32 *groups;
	__u64 n;
	const __u32 *pres;
	const __u32 *absent;
	__u32 k_sum;
	__u32 k_n;
	double *pred;
	double probes;
	double exact;
	double exact_pred;
};

/* The port's first-order tests: its present and candidate groups. */
static inline double exp_port_tests(const struct exp_port_ctx *c)
{
	double n = 0;
	__u32 i;

	for (i = 0; i < c->x->nclass; i++)
		n += (double)c->pres[i] + c->absent[i];
	return n;
}

/**
 * struct exp_scheme_ops - one per-port scheme
 * @name: its name on the command line and in the CSV files ("cuckoo")
 * @title: its name in the plots and tables ("cuckoo per-port")
 * @color: its line colour in the plots ("#rrggbb")
 * @may_fn: its structures can answer "absent" for a present group (then
 *          the present groups are tested too; misses are lost deliveries)
 * @pred_per_class: @pred of build() has x->nclass values (MC-BF)
 * @bits_step: M must be a multiple of this (64: whole words, 512: whole
 *          blocks); at least 64
 * @plan: optional: before the threads build, once per run (scheme, M):
 *        anything the ports share (a memo of k per group count, ...);
 *        *@plan is given to build() and to plan_free()
 * @plan_free: optional: frees *@plan
 * @build: port c->port's structure from its c->n keys, in *@port;
 *         return 0 or -errno (the run fails with it)
 * @test: 1 if the structure may hold @key (4 bytes), 0 if not
 * @test_batch: optional: @n keys of 4 bytes at @keys, answer i in bit
 *         (i & 7) of @hits[i >> 3]; 0 or -errno
 * @test_groups: optional, preferred to @test_batch for the first-order
 *         tests: the @n groups @g of experiment @x (their keys x->gkey[g],
 *         x->gmix[g] the seed-free half of the keys' hash), answer i in
 *         bit (i & 7) of @hits[i >> 3]; 0 or -errno
 * @destroy: frees a port's structure
 * @bytes: switch memory of one port's structure of @bits bits, in bytes
 *         (the structure, plus any table the data path would need)
 * @export: optional: the port's filter as struct kb_exp_port_filter,
 *         for the XDP emulation (schemes without it are model only)
 * @sw: a per-switch scheme's ops (scheme_switch.h; then build, test and
 *      destroy are NULL); NULL for the per-port schemes
 */
struct exp_scheme_ops {
	const char *name;
	const char *title;
	const char *color;
	__u32 may_fn;
	__u32 pred_per_class;
	__u64 (*bits_step)(const struct kb_exp_params *p);
	int (*plan)(struct kb_exp *x, struct kb_exp_state *s, void **plan);
	void (*plan_free)(void *plan);
	int (*build)(struct exp_port_ctx *c, void **port);
	int (*test)(const void *port, const __u8 *key);
	int (*test_batch)(const void *port, const __u8 *keys, __u32 n,
			  __u8 *hits);
	int (*test_groups)(const void *port, const struct kb_exp *x,
			   const __u32 *g, __u64 n, __u8 *hits);
	void (*destroy)(void *port);
	__u64 (*bytes)(const struct kb_exp *x, __u64 bits);
	int (*export)(const struct kb_exp_state *s, __u32 port,
		      const void *obj, struct kb_exp_port_filter *f);
	const struct exp_switch_ops *sw;
};

/* The ops of per-port scheme @scheme, or NULL (not a per-port scheme). */
const struct exp_scheme_ops *exp_scheme(__u32 scheme);
/*
 * The step of M for the per-port schemes of @schemes (KB_EXP_S() bits):
 * the largest of their bits_step() (powers of two), at least 64.
 */
__u64 exp_scheme_step(const struct kb_exp_params *p, __u32 schemes);

#endif /* _KBLOOM_EXP_SCHEME_H */
