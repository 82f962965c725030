/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_exp: the model of a leakage experiment, shared by its files.
 *
 * Preparation (once): the topology, the groups (sizes, receivers, source)
 * and their shortest-path delivery trees, each group's presence
 * probability and MC-BF class, and per switch port how many groups of
 * each class use it (present) or are tested on it while absent
 * (candidates).
 *
 * Runs (one per scheme, one per scheme and M for the per-port filters):
 * a state holds what the switches hold (per-port filters of libkbloom or
 * MC-BF filters, all built from the groups' trees) or, for the in-packet
 * schemes, nothing but the link IDs; then every group's packet(s) go
 * through the forwarding of that scheme:
 *   - LIPSIN and MSBF: the header the control plane builds (kb_zf_build,
 *     kb_msbf_build), forwarded by kb_sim_run;
 *   - per-port schemes: the rule of the mcast data path: a switch offers
 *     a copy to every port but the ingress one, and each port sends it iff
 *     its filter (kbloom_test, kb_mcbf_test) says the group may be there;
 *     hosts deliver and never forward; there is no hop limit, so a packet
 *     that meets a loop of false positives is followed until max_tx and
 *     counted as looped.
 * Copies are followed breadth first, each on its own, as on the wire.
 *
 * Threads: the groups are shared out in chunks (the trees and the
 * forwarding), the ports (building the filters: each thread inserts into
 * its own ports, no atomics); each thread has its own work space and
 * accumulators, added up after each phase.  The results do not depend on
 * the number of threads: every group draws from its own random stream.
 *
 * The files, bottom up (each calls only the ones above it):
 *   rng.c        random streams, group sizes
 *   classes.c    group addresses, MC-BF classes
 *   par.c        workers, threads, the clocks
 *   groups.c     receivers, sources, delivery trees
 *   ports.c      per-port counts and lists of present and candidate groups
 *   prepare.c    the preparation: the above, in order
 *   in_packet.c  LIPSIN and MSBF packets
 *   switch_query.c  a per-switch structure's "which ports" query
 *   forward.c    per-port forwarding; the packets of a group
 *   predict.c    predicted rates and k of the per-port filters
 *   mcbf_plan.c  per-port MC-BF class tables
 *   scheme_*.c   the per-port schemes, one ops table each (scheme.h):
 *                standard and blocked (scheme_bloom.c), MC-BF, ...
 *   scheme.c     the table of the per-port schemes (scheme_list.h)
 *   build.c      per-port structures, built and tested in the threads
 *   build_switch.c  per-switch structures (scheme_switch.h), the same
 *   state.c      states: filters, matching candidates, switch memory
 *   run.c        the model runs
 *   single.c     single packets and ports (the emulation)
 *   access.c     the error message, the accessors
 *   new.c        construction and destruction
 */
#ifndef _KBLOOM_EXP_INT_H
#define _KBLOOM_EXP_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "libkbloom.h"
#include "libkbloom_exp.h"

#define EXP_MAX_TX_DEFAULT	(1U << 16)
#define EXP_HDR_MAX		65536U

#define SEED_ECMP	0x65636d70ULL
#define SEED_LIDS	0x6c696473ULL
#define SEED_PORT	0x706f7274ULL

struct exp_scheme_ops;

struct exp_group {
	__u32 src;
	__u32 size;
	__u32 cls;
	__u32 nlinks;
	__u32 height;
	__u32 cand;
	double presence;
	__u64 moff;		/* first receiver in x->members */
	__u32 *links;		/* tree links, parents first */
};

/* (group, port) pairs, appended by one worker */
struct exp_pairs {
	__u32 *v;		/* group, port, group, port, ... */
	__u64 n;
	__u64 cap;
};

struct exp_copy {
	__u32 node;
	__u32 in_port;
};

/* A step of forward.c's loop search: a copy's port, the next port to try. */
struct exp_lpath {
	__u32 port;
	__u32 next;
};

/* One thread's work space and accumulators. */
struct exp_worker {
	struct kb_exp *x;
	__u32 id;
	struct kb_spt *spt;
	struct kb_tree *tr;		/* a group's tree */
	struct kb_tree *ct;		/* LIPSIN: a packet's subtree */
	struct kb_sim *sim;
	struct kb_msbf *ms;
	__u32 *mark;			/* per node: epoch (receiver draws) */
	__u32 epoch;
	/* per-port forwarding */
	struct exp_copy *q;
	__u32 *trace;
	__u32 ntrace;
	__u32 *seen;			/* per node: fepoch of first arrival */
	__u32 *cmark;			/* per node: fepoch of candidate tests */
	__u32 fepoch;
	__u32 dep;			/* the packet's first fepoch */
	__u32 *path;
	__u8 *hdr;
	__u32 *fpmark;			/* per port: fepoch of a known positive */
	__u32 *dmark;			/* per port: fepoch of dval[] */
	__u8 *dval;			/* per port: port_decide() this packet */
	__u32 *lmark;			/* per port: fepoch of the loop search */
	__u8 *lon;			/* per port: on the search's path */
	struct exp_lpath *lstk;		/* the search's path */
	__u32 *loff;			/* per port: its list's off-tree */
	double *zf_pred;		/* zf_fpr() per link count, -1: not yet */
	__u32 *node_fp;			/* kb_zf_build_nodes(): nodes x d */
	/*
	 * per-port tests: (group, port) positives among the candidates,
	 * negatives among the present groups (may_fn schemes), the
	 * predicted positives per group, the probes of the tests
	 */
	struct exp_pairs fp;
	struct exp_pairs fn;
	double *g_pred;
	double probes;
	double tests;			/* first-order port tests */
	double exact;			/* of those, exact lookups */
	double exact_pred;
	__u8 *keys;			/* a port's group keys, 4 bytes each */
	__u8 *bitmap;
	__u64 cap_keys;
	/* accumulators */
	struct kb_exp_run acc;
	__u32 *present;			/* nports * nclass */
	__u32 *absent;
	__u32 *sw_groups;		/* per switch index */
	pthread_t thread;
	int err;
	double cpu;			/* CPU seconds of exp_par_run() work */
};

struct kb_exp {
	struct kb_exp_params p;
	char *topo_file;
	struct kb_topo *topo;
	struct kb_lids *lids;
	__u32 nthreads;
	__u32 size_max;
	double *zipf_cdf;
	struct exp_group *grp;
	__u32 *gkey;			/* per group: its address, as bytes */
	__u64 *gmix;			/* per group: kb_fast_key_mix() of it */
	__u8 *gcls;			/* per group: its class */
	__u32 *members;
	__u64 nmembers;
	int prepared;
	/* switches */
	__u32 nsw;
	__u32 *sw;
	__u32 *sw_index;		/* per node: index in sw, KB_NONE */
	__u32 *sw_groups;		/* per switch: groups whose tree has it */
	/* per port and class */
	__u32 nclass;
	double class_p[KB_MCBF_CLASSES];
	__u32 *present;
	__u32 *absent;
	__u32 *port_n;			/* groups inserted per port */
	/* per port: the groups for which it is a candidate link (CSR), by class */
	__u64 *cand_off;
	__u32 *cand_g;
	__u64 *sw_cand;			/* per switch: candidate links */
	/* per port: the groups whose tree uses it (CSR) */
	__u64 *pres_off;
	__u32 *pres_g;
	/* runs */
	struct kb_exp_run *runs;
	__u32 nruns;
	struct exp_worker *w;
	/* threads */
	atomic_uint next;
	atomic_ullong done;
	__u64 total;
	kb_exp_progress_fn progress;
	void *pctx;
	double t0;
	double seconds;
	char err[256];
};

struct kb_exp_state {
	struct kb_exp *x;
	__u32 scheme;
	__u64 bits;
	const struct exp_scheme_ops *ops;	/* per-port schemes */
	void **obj;			/* per port: the scheme's structure */
	void **sw_obj;			/* per switch: a per-switch scheme's */
	void *plan;			/* ops->plan()'s */
	__u32 *port_k;			/* per port: k_sum, k_n of build() */
	__u32 *port_kn;
	__u32 npred;			/* per port: 1 or nclass */
	double *pred;			/* per port (x npred) */
	__u64 mem;
	double probes;			/* of the first-order port tests */
	double tests;			/* those tests, and their exact lookups */
	double exact;
	double exact_pred;
	/*
	 * Per group (CSR): the candidate links that match and the sum of
	 * their predicted probabilities (fp_off, fp_port, g_pred); the tree
	 * links whose structure misses the group (fn_off, fn_port; may_fn
	 * schemes only, else NULL)
	 */
	__u64 *fp_off;
	__u32 *fp_port;
	double *g_pred;
	__u64 *fn_off;
	__u32 *fn_port;
	int fast;			/* model runs: FP-free groups skip BFS */
	/* kb_exp_state_forward(): the packets of one group, kept */
	struct exp_worker *w;
	__u32 want_g;
	__u32 want_i;
	int found;
	struct kb_exp_pkt got;
	__u32 *got_trace;
	__u8 *got_hdr;
	__u32 npk;
};

/* Called for each packet; a positive return stops the group there. */
typedef int (*pkt_fn)(struct exp_worker *w, const struct kb_exp_state *s,
		      __u32 g, __u32 i, struct kb_exp_pkt *pkt, void *ctx);

typedef int (*par_fn)(struct exp_worker *w, void *arg);

/* One thread's memo of MC-BF port plans (mcbf_plan.c): PLAN_MEMO entries. */
#define PLAN_MEMO	16384U

struct plan_memo {
	__u32 used;
	__u32 q[2 * KB_MCBF_CLASSES];
	struct kb_mcbf_classes cls;
};


/* rng.c */
__u32 exp_rng_below(__u64 *s, __u32 n);
__u64 exp_group_stream(const struct kb_exp *x, __u32 g);
__u64 exp_sub_seed(const struct kb_exp *x, __u64 what, __u64 i);
__u64 exp_port_seed(const struct kb_exp *x, __u32 p);
__u32 exp_draw_size(const struct kb_exp *x, __u64 *s);
int exp_zipf_table(struct kb_exp *x);

/* classes.c */
int exp_assign_classes(struct kb_exp *x);

/* par.c */
double exp_now_s(void);
double exp_cpu_s(void);
int exp_worker_init(struct kb_exp *x, struct exp_worker *w, __u32 id);
void exp_worker_free(struct exp_worker *w);
void exp_progress_tick(struct kb_exp *x);
int exp_par_run(struct kb_exp *x, par_fn fn, void *arg);
int exp_grab(struct kb_exp *x, __u32 *lo, __u32 *hi);

/* groups.c */
void exp_group_tree(const struct kb_exp *x, __u32 g, struct kb_tree *tr);
int exp_phase_trees(struct exp_worker *w, void *arg);

/* ports.c */
int exp_phase_counts(struct exp_worker *w, void *arg);
int exp_candidates(struct kb_exp *x);

/* prepare.c */
int exp_prepare(struct kb_exp *x);

/* in_packet.c */
int exp_lipsin_group(struct exp_worker *w, const struct kb_exp_state *s,
		     __u32 g, pkt_fn fn, void *ctx, struct kb_exp_run *acc);
int exp_msbf_group(struct exp_worker *w, const struct kb_exp_state *s,
		   __u32 g, pkt_fn fn, void *ctx, struct kb_exp_run *acc);

/* forward.c */
int exp_state_group(struct exp_worker *w, const struct kb_exp_state *s,
		    __u32 g, pkt_fn fn, void *ctx, struct kb_exp_run *acc);

/* predict.c */
double exp_port_pred(const struct kb_exp_state *s, __u32 p, __u32 cls);
double exp_ln_q32(__s64 v);
__u32 exp_best_k(const struct kb_exp *x, __u32 type, __u64 m, __u32 n,
		 __u8 *memo);
void exp_mcbf_pred(const struct kb_exp *x, __u64 bits, __u32 p,
		   const struct kb_mcbf_classes *cls, double *out);

/* mcbf_plan.c */
int exp_mcbf_plan(const struct kb_exp *x, __u64 m, const double *pres,
		  const double *abs, struct kb_mcbf_classes *out);
int exp_mcbf_port_plan(const struct kb_exp *x, __u64 m, __u32 p,
		       struct plan_memo *memo, struct kb_mcbf_classes *out);

/* build.c */
int exp_phase_build(struct exp_worker *w, void *arg);
int exp_pairs_push(struct exp_pairs *l, __u32 g, __u32 p);
void exp_phase_reset(struct exp_worker *w);

/* state.c */
int exp_state_build(struct kb_exp *x, __u32 scheme, __u64 bits,
		    struct kb_exp_state **sp);

#endif /* _KBLOOM_EXP_INT_H */
