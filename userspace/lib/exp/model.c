// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the model of a leakage experiment.
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
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libkbloom.h"
#include "libkbloom_exp.h"
#include "uapi/kbloom_plan.h"

#define EXP_MAX_TX_DEFAULT	(1U << 16)
#define EXP_HDR_MAX		65536U
#define EXP_CHUNK		4U	/* groups per grab */
#define EXP_MCBF_K_MAX		16U
#define EXP_PORT_K_MAX		16U
#define EXP_ETH_P_IP		0x0800

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

struct exp_copy {
	__u32 node;
	__u32 in_port;
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
	__u32 *path;
	__u8 *hdr;
	__u32 *fpmark;			/* per port: fepoch of a known positive */
	__u32 *dmark;			/* per port: fepoch of dval[] */
	__u8 *dval;			/* per port: port_decide() this packet */
	double *zf_pred;		/* zf_fpr() per link count, -1: not yet */
	/* per-port tests: (group, port) positives, predicted per group */
	__u32 *pairs;
	__u64 npairs;
	__u64 cap_pairs;
	double *g_pred;
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
	double cpu;			/* CPU seconds of par_run() work */
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
	struct kbloom_filter **pf;	/* per port: standard, blocked */
	struct kb_mcbf **mf;		/* per port: MC-BF */
	__u32 *port_k;
	double *pred;			/* per port (x nclass for MC-BF) */
	struct kb_mcbf_classes *cls;	/* per port: MC-BF */
	__u64 mem;
	/* the candidate links that match, per group (CSR), and the sum of
	 * their predicted probabilities */
	__u64 *fp_off;
	__u32 *fp_port;
	double *g_pred;
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

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((format(printf, 3, 4)))
static int exp_fail(struct kb_exp *x, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->err, sizeof(x->err), fmt, ap);
	va_end(ap);
	return err;
}

int kb_exp_set_error(struct kb_exp *x, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->err, sizeof(x->err), fmt, ap);
	va_end(ap);
	return err;
}

const char *kb_exp_error(const struct kb_exp *x)
{
	return x ? x->err : "no experiment";
}

/* ---- random streams ---------------------------------------------------- */

static __u64 rng_next(__u64 *s)
{
	__u64 z = (*s += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n >= 1, by 64-bit multiply-shift (bias < 2^-32). */
static __u32 rng_below(__u64 *s, __u32 n)
{
	return (__u32)(((rng_next(s) >> 32) * (__u64)n) >> 32);
}

static double rng_unit(__u64 *s)
{
	return (rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* Every group has its own stream: results independent of threads. */
static __u64 group_stream(const struct kb_exp *x, __u32 g)
{
	return kb_fmix64(x->p.seed ^ 0x67726f7570ULL) ^
	       kb_fmix64((__u64)g + 1);
}

static __u64 sub_seed(const struct kb_exp *x, __u64 what, __u64 i)
{
	return kb_fmix64(kb_fmix64(x->p.seed + what) ^ (i * KB_P1 + 1));
}

#define SEED_ECMP	0x65636d70ULL
#define SEED_LIDS	0x6c696473ULL
#define SEED_PORT	0x706f7274ULL

static __u32 draw_size(const struct kb_exp *x, __u64 *s)
{
	const struct kb_exp_params *p = &x->p;
	__u32 lo, hi, mid, span = x->size_max - p->size_min + 1;
	double u;

	switch (p->dist) {
	case KB_EXP_DIST_FIXED:
		return p->size_min;
	case KB_EXP_DIST_ZIPF:
		u = rng_unit(s);
		lo = 0;
		hi = span - 1;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (x->zipf_cdf[mid] > u)
				hi = mid;
			else
				lo = mid + 1;
		}
		return p->size_min + lo;
	}
	return p->size_min + rng_below(s, span);
}

static int zipf_table(struct kb_exp *x)
{
	__u32 span = x->size_max - x->p.size_min + 1, i;
	double sum = 0.0;

	x->zipf_cdf = malloc(span * sizeof(double));
	if (!x->zipf_cdf)
		return -ENOMEM;
	for (i = 0; i < span; i++) {
		sum += pow((double)(x->p.size_min + i), -x->p.zipf_s);
		x->zipf_cdf[i] = sum;
	}
	for (i = 0; i < span; i++)
		x->zipf_cdf[i] /= sum;
	x->zipf_cdf[span - 1] = 2.0;	/* every u < 1 lands */
	return 0;
}

/* ---- group addresses and classes --------------------------------------- */

void kb_exp_group_addr(const struct kb_exp *x, __u32 g, __u8 addr[4])
{
	__u32 cls = x->grp ? x->grp[g].cls : 0;

	addr[0] = 239;
	addr[1] = (__u8)((cls << 4) | ((g >> 16) & 0xF));
	addr[2] = (__u8)(g >> 8);
	addr[3] = (__u8)g;
}

static double logit(double p)
{
	if (p < 1e-9)
		p = 1e-9;
	if (p > 1 - 1e-9)
		p = 1 - 1e-9;
	return log(p / (1 - p));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Classes from presence: given probabilities, or equal-count quantiles of
 * the groups' presence (class 0 the most present) with each class's mean.
 */
static int assign_classes(struct kb_exp *x)
{
	__u32 n = x->p.groups, c, g, best, cnt[KB_MCBF_CLASSES] = { 0 };
	double *v, sum[KB_MCBF_CLASSES] = { 0 }, d, bd, cut[KB_MCBF_CLASSES];
	int given = x->p.presence[0] != 0.0;

	x->nclass = x->p.nclass ? x->p.nclass : 1;
	if (given) {
		for (c = 0; c < x->nclass; c++)
			x->class_p[c] = x->p.presence[c];
		for (g = 0; g < n; g++) {
			best = 0;
			bd = INFINITY;
			for (c = 0; c < x->nclass; c++) {
				d = fabs(logit(x->grp[g].presence) -
					 logit(x->class_p[c]));
				if (d < bd) {
					bd = d;
					best = c;
				}
			}
			x->grp[g].cls = best;
		}
		return 0;
	}
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (g = 0; g < n; g++)
		v[g] = x->grp[g].presence;
	qsort(v, n, sizeof(*v), cmp_double);
	/* cut[c]: the lowest presence of class c (descending classes) */
	for (c = 0; c < x->nclass; c++)
		cut[c] = v[(size_t)n * (x->nclass - 1 - c) / x->nclass];
	free(v);
	for (g = 0; g < n; g++) {
		for (c = 0; c + 1 < x->nclass; c++)
			if (x->grp[g].presence >= cut[c])
				break;
		x->grp[g].cls = c;
		sum[c] += x->grp[g].presence;
		cnt[c]++;
	}
	for (c = 0; c < x->nclass; c++)
		x->class_p[c] = cnt[c] ? sum[c] / cnt[c] : cut[c];
	for (c = 0; c < x->nclass; c++) {
		if (x->class_p[c] <= 0.0)
			x->class_p[c] = 1e-6;
		if (x->class_p[c] >= 1.0)
			x->class_p[c] = 1 - 1e-6;
	}
	return 0;
}

/* ---- workers and threads ---------------------------------------------- */

static void worker_free(struct exp_worker *w)
{
	kb_spt_free(w->spt);
	kb_tree_free(w->tr);
	kb_tree_free(w->ct);
	kb_sim_free(w->sim);
	kb_msbf_free(w->ms);
	free(w->mark);
	free(w->q);
	free(w->trace);
	free(w->seen);
	free(w->cmark);
	free(w->path);
	free(w->hdr);
	free(w->fpmark);
	free(w->dmark);
	free(w->dval);
	free(w->zf_pred);
	free(w->pairs);
	free(w->g_pred);
	free(w->keys);
	free(w->bitmap);
	free(w->acc.sw_fp);
	free(w->acc.sw_cand);
	free(w->acc.sw_cand_fp);
	free(w->present);
	free(w->absent);
	free(w->sw_groups);
	memset(w, 0, sizeof(*w));
}

static int worker_init(struct kb_exp *x, struct exp_worker *w, __u32 id)
{
	const struct kb_topo *t = x->topo;
	__u32 max_tx = x->p.max_tx ? x->p.max_tx : EXP_MAX_TX_DEFAULT;
	size_t nn = t->nnodes, pc = (size_t)t->nports * KB_MCBF_CLASSES, i;
	int err;

	memset(w, 0, sizeof(*w));
	w->x = x;
	w->id = id;
	err = kb_spt_new(t, &w->spt);
	if (!err)
		err = kb_tree_new(t, &w->tr);
	if (!err)
		err = kb_tree_new(t, &w->ct);
	if (!err)
		err = kb_sim_new(t, max_tx, &w->sim);
	if (!err)
		err = kb_msbf_new(t, &w->ms);
	if (err)
		goto fail;
	w->mark = calloc(nn, sizeof(*w->mark));
	w->q = malloc(((size_t)max_tx + 1) * sizeof(*w->q));
	w->trace = malloc((size_t)max_tx * sizeof(*w->trace));
	w->seen = calloc(nn, sizeof(*w->seen));
	w->cmark = calloc(nn, sizeof(*w->cmark));
	w->path = malloc(nn * sizeof(*w->path));
	w->hdr = malloc(EXP_HDR_MAX);
	w->fpmark = calloc(t->nports + 1, sizeof(*w->fpmark));
	w->dmark = calloc(t->nports + 1, sizeof(*w->dmark));
	w->dval = calloc(t->nports + 1, sizeof(*w->dval));
	w->zf_pred = malloc((t->nports + 1) * sizeof(*w->zf_pred));
	w->g_pred = calloc(x->p.groups + 1, sizeof(*w->g_pred));
	w->acc.sw_fp = calloc(x->nsw + 1, sizeof(__u64));
	w->acc.sw_cand = calloc(x->nsw + 1, sizeof(__u64));
	w->acc.sw_cand_fp = calloc(x->nsw + 1, sizeof(__u64));
	w->present = calloc(pc + 1, sizeof(__u32));
	w->absent = calloc(pc + 1, sizeof(__u32));
	w->sw_groups = calloc(x->nsw + 1, sizeof(__u32));
	if (!w->mark || !w->q || !w->trace || !w->seen || !w->cmark ||
	    !w->path || !w->hdr || !w->fpmark || !w->dmark || !w->dval ||
	    !w->zf_pred || !w->g_pred ||
	    !w->acc.sw_fp || !w->acc.sw_cand ||
	    !w->acc.sw_cand_fp || !w->present || !w->absent || !w->sw_groups) {
		err = -ENOMEM;
		goto fail;
	}
	for (i = 0; i <= t->nports; i++)
		w->zf_pred[i] = -1.0;
	return 0;
fail:
	worker_free(w);
	return err;
}

typedef int (*par_fn)(struct exp_worker *w, void *arg);

/* The workers still running a phase; the last one out wakes the caller. */
struct par_sync {
	pthread_mutex_t lock;
	pthread_cond_t done;
	__u32 running;
};

struct par_job {
	par_fn fn;
	void *arg;
	struct exp_worker *w;
	struct par_sync *sync;
};

static void par_exit(struct par_sync *ps, __u32 n)
{
	pthread_mutex_lock(&ps->lock);
	ps->running -= n;
	if (!ps->running)
		pthread_cond_signal(&ps->done);
	pthread_mutex_unlock(&ps->lock);
}

static void *par_main(void *a)
{
	struct par_job *j = a;
	double c0 = cpu_s();

	j->w->err = j->fn(j->w, j->arg);
	j->w->cpu += cpu_s() - c0;
	par_exit(j->sync, 1);
	return NULL;
}

static void progress_tick(struct kb_exp *x)
{
	if (x->progress)
		x->progress(x->pctx, atomic_load(&x->done), x->total);
}

/*
 * Run @fn on every worker, one thread each (the calling thread reports
 * progress meanwhile).  Return: the first error of a worker.
 */
static int par_run(struct kb_exp *x, par_fn fn, void *arg)
{
	struct par_sync ps = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.done = PTHREAD_COND_INITIALIZER,
		.running = x->nthreads,
	};
	struct par_job jobs[KB_EXP_THREADS_MAX];
	struct timespec until;
	__u32 i, started = 0;
	int err = 0;

	atomic_store(&x->next, 0);
	if (x->nthreads == 1) {
		double c0 = cpu_s();

		err = fn(&x->w[0], arg);
		x->w[0].cpu += cpu_s() - c0;
		progress_tick(x);
		return err;
	}
	for (i = 0; i < x->nthreads; i++) {
		jobs[i] = (struct par_job){ fn, arg, &x->w[i], &ps };
		x->w[i].err = 0;
		if (pthread_create(&x->w[i].thread, NULL, par_main, &jobs[i])) {
			par_exit(&ps, x->nthreads - i);
			err = -EAGAIN;
			break;
		}
		started++;
	}
	/* progress every 100 ms until the last worker is out */
	pthread_mutex_lock(&ps.lock);
	while (ps.running) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		if (pthread_cond_timedwait(&ps.done, &ps.lock, &until)) {
			pthread_mutex_unlock(&ps.lock);
			progress_tick(x);
			pthread_mutex_lock(&ps.lock);
		}
	}
	pthread_mutex_unlock(&ps.lock);
	for (i = 0; i < started; i++) {
		pthread_join(x->w[i].thread, NULL);
		if (!err)
			err = x->w[i].err;
	}
	progress_tick(x);
	return err;
}

/* The next chunk of groups for this thread: [*lo, *hi); 0 when none. */
static int grab(struct kb_exp *x, __u32 *lo, __u32 *hi)
{
	__u32 g = atomic_fetch_add(&x->next, EXP_CHUNK);

	if (g >= x->p.groups)
		return 0;
	*lo = g;
	*hi = g + EXP_CHUNK < x->p.groups ? g + EXP_CHUNK : x->p.groups;
	return 1;
}

/* ---- groups and trees --------------------------------------------------- */

/* The receivers of group @g, ascending, and its source. */
static void draw_group(struct exp_worker *w, __u32 g)
{
	struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	struct exp_group *gr = &x->grp[g];
	__u32 *dst = x->members + gr->moff, nh = t->nhosts, i, n = 0, h;
	__u64 s = group_stream(x, g);
	int complement = gr->size > nh / 2;
	__u32 want = complement ? nh - gr->size : gr->size;

	draw_size(x, &s);	/* the size was drawn from the same stream */
	if (++w->epoch == 0) {
		memset(w->mark, 0, t->nnodes * sizeof(*w->mark));
		w->epoch = 1;
	}
	/* mark @want hosts: the receivers, or the hosts that are not */
	while (n < want) {
		h = rng_below(&s, nh);
		if (w->mark[h] == w->epoch)
			continue;
		w->mark[h] = w->epoch;
		n++;
	}
	n = 0;
	for (i = 0; i < nh; i++)
		if ((w->mark[i] == w->epoch) != complement)
			dst[n++] = t->hosts[i];
	/* the source: a host that is not a receiver, unless all are */
	if (gr->size == nh) {
		gr->src = dst[rng_below(&s, nh)];
		return;
	}
	for (;;) {
		h = rng_below(&s, nh);
		if ((w->mark[h] == w->epoch) == complement) {
			gr->src = t->hosts[h];
			return;
		}
	}
}

/* Rebuild group @g's tree in @tr from its links. */
static void group_tree(const struct kb_exp *x, __u32 g, struct kb_tree *tr)
{
	const struct exp_group *gr = &x->grp[g];
	const __u32 *m = x->members + gr->moff;
	__u32 i;

	kb_tree_reset(tr, gr->src);
	for (i = 0; i < gr->nlinks; i++)
		kb_tree_add_link(tr, gr->links[i]);
	for (i = 0; i < gr->size; i++)
		kb_tree_add_member(tr, m[i]);
}

static int phase_trees(struct exp_worker *w, void *arg)
{
	struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	struct kb_tree *tr = w->tr;
	struct exp_group *gr;
	__u32 lo, hi, g, sw;
	int err;

	(void)arg;
	while (grab(x, &lo, &hi)) {
		for (g = lo; g < hi; g++) {
			gr = &x->grp[g];
			draw_group(w, g);
			err = kb_spt_compute(w->spt, gr->src,
					     sub_seed(x, SEED_ECMP, g) | 1);
			if (!err)
				err = kb_tree_build(tr, w->spt,
						    x->members + gr->moff,
						    gr->size);
			if (err)
				return err;
			gr->links = malloc((tr->nlinks + 1) * sizeof(__u32));
			if (!gr->links)
				return -ENOMEM;
			memcpy(gr->links, tr->links,
			       tr->nlinks * sizeof(__u32));
			gr->nlinks = tr->nlinks;
			gr->height = tr->height;
			gr->cand = kb_tree_candidates(tr);
			sw = tr->nlinks - (t->nodes[gr->src].kind ==
					   KB_NODE_HOST);
			gr->presence = sw + gr->cand ?
				       (double)sw / (sw + gr->cand) : 1.0;
		}
		atomic_fetch_add(&x->done, hi - lo);
	}
	return 0;
}

/*
 * The groups of worker @w in the two passes over the trees that make the
 * port lists (phase_counts(), phase_cands()): a fixed share, so that the
 * second pass finds where its share of each list starts from the first
 * pass's counts of every worker.
 */
static void group_share(const struct exp_worker *w, __u32 *lo, __u32 *hi)
{
	__u64 G = w->x->p.groups, T = w->x->nthreads;

	*lo = (__u32)(G * w->id / T);
	*hi = (__u32)(G * (w->id + 1) / T);
}

/* Per port and class: groups present and candidates; groups per switch. */
static int phase_counts(struct exp_worker *w, void *arg)
{
	struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	struct kb_tree *tr = w->tr;
	__u32 lo, hi, g, i, v, p, end, c, nc = x->nclass, n = 0;

	(void)arg;
	group_share(w, &lo, &hi);
	for (g = lo; g < hi; g++) {
		group_tree(x, g, tr);
		c = x->grp[g].cls;
		for (i = 0; i < tr->nnodes; i++) {
			v = tr->nodes[i];
			if (t->nodes[v].kind != KB_NODE_SWITCH)
				continue;
			w->sw_groups[x->sw_index[v]]++;
			end = t->nodes[v].first_port + t->nodes[v].nports;
			for (p = t->nodes[v].first_port; p < end; p++) {
				if (p == tr->in_port[v])
					continue;
				if (tr->on_tree[p])
					w->present[(size_t)p * nc + c]++;
				else
					w->absent[(size_t)p * nc + c]++;
			}
		}
		if (++n == 256) {
			atomic_fetch_add(&x->done, n);
			n = 0;
		}
	}
	atomic_fetch_add(&x->done, n);
	return 0;
}

/*
 * The starts of one worker's shares of the lists (cand_starts()): per port
 * and class (candidates), then per port (present).
 */
static size_t cand_stride(const struct kb_exp *x)
{
	return (size_t)x->topo->nports * (x->nclass + 1) + 1;
}

/*
 * Fill this worker's share of every port's lists: the candidates by class,
 * groups ascending in each class (the shares are in worker order), the
 * present groups ascending.  @arg holds each worker's starts.
 */
static int phase_cands(struct exp_worker *w, void *arg)
{
	struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	struct kb_tree *tr = w->tr;
	__u64 *pos = (__u64 *)arg + w->id * cand_stride(x), *cpos;
	__u64 *ppos = pos + (size_t)t->nports * x->nclass;
	__u32 lo, hi, g, i, v, p, end, n = 0, nc = x->nclass;

	group_share(w, &lo, &hi);
	for (g = lo; g < hi; g++) {
		group_tree(x, g, tr);
		cpos = pos + x->gcls[g];
		for (i = 0; i < tr->nlinks; i++) {
			p = tr->links[i];
			if (t->nodes[t->ports[p].node].kind == KB_NODE_SWITCH)
				x->pres_g[ppos[p]++] = g;
		}
		for (i = 0; i < tr->nnodes; i++) {
			v = tr->nodes[i];
			if (t->nodes[v].kind != KB_NODE_SWITCH)
				continue;
			end = t->nodes[v].first_port + t->nodes[v].nports;
			for (p = t->nodes[v].first_port; p < end; p++)
				if (p != tr->in_port[v] && !tr->on_tree[p])
					x->cand_g[cpos[(size_t)p * nc]++] = g;
		}
		if (++n == 256) {
			atomic_fetch_add(&x->done, n);
			n = 0;
		}
	}
	atomic_fetch_add(&x->done, n);
	return 0;
}

/*
 * Where each worker's share of each list starts (phase_cands()).  A
 * port's candidates go class by class: the filter tests of a class (its
 * k) follow each other.
 */
static void cand_starts(const struct kb_exp *x, __u64 *pos)
{
	const struct kb_topo *t = x->topo;
	size_t stride = cand_stride(x), pres = (size_t)t->nports * x->nclass;
	__u32 p, c, j, nc = x->nclass;
	__u64 n, np;

	for (p = 0; p < t->nports; p++) {
		n = x->cand_off[p];
		for (c = 0; c < nc; c++) {
			for (j = 0; j < x->nthreads; j++) {
				pos[j * stride + (size_t)p * nc + c] = n;
				n += x->w[j].absent[(size_t)p * nc + c];
			}
		}
		np = x->pres_off[p];
		for (j = 0; j < x->nthreads; j++) {
			pos[j * stride + pres + p] = np;
			for (c = 0; c < nc; c++)
				np += x->w[j].present[(size_t)p * nc + c];
		}
	}
}

static int candidates(struct kb_exp *x)
{
	const struct kb_topo *t = x->topo;
	__u64 *pos, n = 0, np = 0;
	__u32 p, c;
	int err;

	x->cand_off = calloc((size_t)t->nports + 1, sizeof(*x->cand_off));
	x->pres_off = calloc((size_t)t->nports + 1, sizeof(*x->pres_off));
	pos = calloc(cand_stride(x) * x->nthreads, sizeof(*pos));
	x->sw_cand = calloc(x->nsw + 1, sizeof(*x->sw_cand));
	if (!x->cand_off || !x->pres_off || !pos || !x->sw_cand) {
		free(pos);
		return -ENOMEM;
	}
	for (p = 0; p < t->nports; p++) {
		x->pres_off[p] = np;
		if (t->nodes[t->ports[p].node].kind == KB_NODE_SWITCH)
			np += x->port_n[p];
	}
	x->pres_off[t->nports] = np;
	x->pres_g = malloc((np + 1) * sizeof(*x->pres_g));
	if (!x->pres_g) {
		free(pos);
		return -ENOMEM;
	}
	for (p = 0; p < t->nports; p++) {
		x->cand_off[p] = n;
		for (c = 0; c < x->nclass; c++)
			n += x->absent[(size_t)p * x->nclass + c];
		if (t->nodes[t->ports[p].node].kind == KB_NODE_SWITCH)
			x->sw_cand[x->sw_index[t->ports[p].node]] +=
				n - x->cand_off[p];
	}
	x->cand_off[t->nports] = n;
	x->cand_g = malloc((n + 1) * sizeof(*x->cand_g));
	if (!x->cand_g) {
		free(pos);
		return -ENOMEM;
	}
	cand_starts(x, pos);
	err = par_run(x, phase_cands, pos);
	free(pos);
	return err;
}

static int prepare(struct kb_exp *x)
{
	const struct kb_topo *t = x->topo;
	size_t pc = (size_t)t->nports * x->p.nclass;
	__u32 i, j, p;
	__u64 off = 0, s;
	int err;

	if (x->prepared)
		return 0;
	for (i = 0; i < x->p.groups; i++) {
		s = group_stream(x, i);
		x->grp[i].size = draw_size(x, &s);
		x->grp[i].moff = off;
		off += x->grp[i].size;
	}
	x->nmembers = off;
	x->members = malloc((off + 1) * sizeof(*x->members));
	if (!x->members)
		return exp_fail(x, -ENOMEM, "out of memory (%llu receivers)",
				(unsigned long long)off);
	err = par_run(x, phase_trees, NULL);
	if (err)
		return exp_fail(x, err, "delivery trees: %s", strerror(-err));
	err = assign_classes(x);
	if (err)
		return exp_fail(x, err, "classes: %s", strerror(-err));
	x->gkey = malloc(((size_t)x->p.groups + 1) * sizeof(*x->gkey));
	x->gcls = malloc((size_t)x->p.groups + 1);
	if (!x->gkey || !x->gcls)
		return exp_fail(x, -ENOMEM, "out of memory");
	for (i = 0; i < x->p.groups; i++) {
		kb_exp_group_addr(x, i, (__u8 *)&x->gkey[i]);
		x->gcls[i] = (__u8)x->grp[i].cls;
	}
	err = par_run(x, phase_counts, NULL);
	if (err)
		return exp_fail(x, err, "port counts: %s", strerror(-err));
	x->present = calloc(pc + 1, sizeof(__u32));
	x->absent = calloc(pc + 1, sizeof(__u32));
	x->port_n = calloc(t->nports + 1, sizeof(__u32));
	x->sw_groups = calloc(x->nsw + 1, sizeof(__u32));
	if (!x->present || !x->absent || !x->port_n || !x->sw_groups)
		return exp_fail(x, -ENOMEM, "out of memory");
	for (j = 0; j < x->nthreads; j++) {
		for (i = 0; i < pc; i++) {
			x->present[i] += x->w[j].present[i];
			x->absent[i] += x->w[j].absent[i];
		}
		for (i = 0; i < x->nsw; i++)
			x->sw_groups[i] += x->w[j].sw_groups[i];
	}
	for (p = 0; p < t->nports; p++)
		for (i = 0; i < x->nclass; i++)
			x->port_n[p] += x->present[(size_t)p * x->nclass + i];
	if (x->p.schemes & (KB_EXP_PORT_FILTERS | KB_EXP_S(KB_EXP_EXACT))) {
		err = candidates(x);
		if (err)
			return exp_fail(x, err, "candidate links: %s",
					strerror(-err));
	}
	x->prepared = 1;
	return 0;
}

/* ---- per-port forwarding (the mcast rule) --------------------------------- */

/* Does port @p (not a tree link) send this group? */
static int port_decide(const struct kb_exp_state *s, __u32 p,
		       const __u8 *addr)
{
	switch (s->scheme) {
	case KB_EXP_STANDARD:
	case KB_EXP_BLOCKED:
		return s->pf[p] && kbloom_test(s->pf[p], addr, 4) == 1;
	case KB_EXP_MCBF:
		return s->mf[p] && kb_mcbf_test_v4(s->mf[p], addr) == 1;
	}
	return 0;		/* exact: only tree links */
}

/*
 * port_decide() for this packet, once per port: copies that reach a switch
 * again (cascades, duplicates) find its answers.
 */
static inline int fwd_decide(struct exp_worker *w,
			     const struct kb_exp_state *s, __u32 p,
			     const __u8 *addr)
{
	if (w->dmark[p] != w->fepoch) {
		w->dmark[p] = w->fepoch;
		w->dval[p] = (__u8)port_decide(s, p, addr);
	}
	return w->dval[p];
}

static double port_pred(const struct kb_exp_state *s, __u32 p, __u32 cls)
{
	if (!s->pred)
		return 0.0;
	if (s->scheme == KB_EXP_MCBF)
		return s->pred[(size_t)p * s->x->nclass + cls];
	return s->pred[p];
}

static void fwd_arrive(struct exp_worker *w, const struct kb_tree *tr,
		       __u32 v, struct kb_sim_result *r)
{
	if (!tr->member[v]) {
		r->leaked_hosts++;
	} else if (w->seen[v] != w->fepoch) {
		w->seen[v] = w->fepoch;
		r->delivered++;
	} else {
		r->dup++;
	}
}

static __u32 nfp_of(const struct kb_exp_state *s, __u32 g)
{
	return s->fp_off ? (__u32)(s->fp_off[g + 1] - s->fp_off[g]) : 0;
}

/*
 * Follow one packet of group @g under a per-port scheme.  The decisions
 * on the candidate links of the tree switches were taken by the per-port
 * tests of the state (state_test(): the same filter, the same key, so the
 * same answer); any other non-tree port is tested now.  In model runs a
 * group without a matching candidate goes exactly along its tree.
 */
static void fwd_run(struct exp_worker *w, const struct kb_exp_state *s,
		    const struct kb_tree *tr, __u32 g, struct kb_exp_pkt *pk)
{
	const struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	const struct exp_group *gr = &x->grp[g];
	__u32 max_tx = x->p.max_tx ? x->p.max_tx : EXP_MAX_TX_DEFAULT;
	__u32 head = 0, tail = 1, p, end, v, i, nfp = nfp_of(s, g), ep, tin;
	struct kb_sim_result *r = &pk->res;
	int fwd, host, tsw;
	__u8 addr[4];

	pk->cand = gr->cand;
	pk->cand_fp = nfp;
	pk->fp_pred = s->g_pred ? s->g_pred[g] : 0.0;
	pk->tree_links = gr->nlinks;
	if (!nfp && s->fast) {
		/* along the tree, which was not even rebuilt */
		r->tx = r->tx_tree = gr->nlinks;
		r->delivered = gr->size - (gr->size == t->nhosts);
		pk->tree = NULL;
		pk->trace = NULL;
		pk->ntrace = 0;
		return;
	}
	pk->tree = tr;
	kb_exp_group_addr(x, g, addr);
	if (++w->fepoch == 0) {
		memset(w->seen, 0, t->nnodes * sizeof(*w->seen));
		memset(w->fpmark, 0, t->nports * sizeof(*w->fpmark));
		memset(w->dmark, 0, t->nports * sizeof(*w->dmark));
		w->fepoch = 1;
	}
	for (i = 0; i < nfp; i++)
		w->fpmark[s->fp_port[s->fp_off[g] + i]] = w->fepoch;
	ep = w->fepoch;
	w->ntrace = 0;
	w->q[0] = (struct exp_copy){ tr->src, KB_NONE };
	while (head < tail) {
		struct exp_copy c = w->q[head++];

		v = c.node;
		p = t->nodes[v].first_port;
		end = p + t->nodes[v].nports;
		/*
		 * A host delivers (the source sends on its links); a tree
		 * switch sends on its tree links and on the candidates that
		 * matched, and tests its tree ingress port (a copy back up
		 * the tree, or into it from off the tree); any other switch
		 * tests every port.
		 */
		host = t->nodes[v].kind == KB_NODE_HOST;
		if (host && c.in_port != KB_NONE) {
			fwd_arrive(w, tr, v, r);
			continue;
		}
		tsw = !host && tr->depth[v] != KB_NONE;
		tin = tr->in_port[v];
		for (; p < end; p++) {
			if (p == c.in_port)
				continue;
			if (host)
				fwd = 1;
			else if (tsw && p != tin)
				fwd = tr->on_tree[p] | (w->fpmark[p] == ep);
			else
				fwd = tr->on_tree[p] || fwd_decide(w, s, p, addr);
			if (!fwd)
				continue;
			if (w->ntrace >= max_tx) {
				r->truncated = 1;
				goto out;
			}
			w->trace[w->ntrace++] = p;
			r->tx_off += !tr->on_tree[p];
			w->q[tail++] = (struct exp_copy){ t->ports[p].peer_node,
							  t->ports[p].peer };
		}
	}
out:
	r->tx = w->ntrace;
	r->tx_tree = w->ntrace - r->tx_off;
	pk->trace = w->trace;
	pk->ntrace = w->ntrace;
}

/* ---- in-packet schemes -------------------------------------------------------- */

/* Exact zFilter false-positive rate for @n link IDs of @k distinct bits of 256. */
static double zf_fpr(__u32 n, __u32 k)
{
	double sum = 0.0, binom = 1.0, avoid;
	__u32 j, i, m = KB_IPBF_ZF_BITS;

	for (j = 0; j <= k; j++) {
		if (j)
			binom = binom * (k - j + 1) / j;
		avoid = 1.0;
		for (i = 0; i < k; i++)
			avoid *= (double)(m - j - i) / (m - i);
		sum += (j & 1 ? -1.0 : 1.0) * binom * pow(avoid, n);
	}
	return sum > 0.0 ? sum : 0.0;
}

/* A random link ID of @k distinct bits inside a zFilter of @fill ones. */
static double zf_fill_fpr(__u32 fill, __u32 k)
{
	double v = 1.0;
	__u32 i;

	for (i = 0; i < k; i++)
		v *= fill > i ? (double)(fill - i) / (KB_IPBF_ZF_BITS - i) : 0.0;
	return v;
}

static void pkt_sim(struct exp_worker *w, const struct kb_tree *tr,
		    __u32 src, __u32 len, struct kb_exp_pkt *pk)
{
	const struct kb_exp *x = w->x;

	pk->hdr = w->hdr;
	pk->hdr_len = len;
	pk->tree = tr;
	pk->tree_links = tr->nlinks;
	kb_sim_run(w->sim, x->lids, tr, src, w->hdr, len, x->p.fill_limit,
		   &pk->res);
	pk->trace = kb_sim_trace(w->sim, &pk->ntrace);
}

/* Per switch of the subtree: candidate links and their matches. */
static void lipsin_cand(struct exp_worker *w, const struct kb_tree *tr,
			const struct kb_zf_result *z, struct kb_exp_pkt *pk,
			struct kb_exp_run *acc)
{
	const struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	__u32 i, v, p, end, si, m;

	pk->cand = z->candidates;
	pk->cand_fp = z->fp;
	if (w->zf_pred[tr->nlinks] < 0.0)	/* links <= ports */
		w->zf_pred[tr->nlinks] = zf_fpr(tr->nlinks, x->lids->k);
	pk->fp_pred = z->candidates * w->zf_pred[tr->nlinks];
	pk->fp_pred_fill = z->candidates * zf_fill_fpr(z->fill, x->lids->k);
	if (!acc)
		return;
	for (i = 0; i < tr->nnodes; i++) {
		v = tr->nodes[i];
		if (t->nodes[v].kind != KB_NODE_SWITCH)
			continue;
		si = x->sw_index[v];
		end = t->nodes[v].first_port + t->nodes[v].nports;
		for (p = t->nodes[v].first_port; p < end; p++) {
			if (p == tr->in_port[v] || tr->on_tree[p])
				continue;
			m = kb_ipbf_zf_match(&z->zf, kb_lid(x->lids, z->tag, p));
			acc->sw_cand[si]++;
			acc->sw_cand_fp[si] += m;
		}
	}
}

/*
 * The links that join host @m to the subtree @ct along group tree @tr
 * (bottom up in w->path); whether the zFilter of some tag set still fits
 * with them (the new fills in @fill).
 */
static __u32 join_path(struct exp_worker *w, const struct kb_tree *tr,
		       const struct kb_tree *ct, __u32 m, __u32 ntags,
		       const struct kb_ipbf_zf *zf, struct kb_ipbf_zf *nz,
		       int *fits)
{
	const struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	__u32 n = 0, u = m, link, tag, i;

	while (ct->depth[u] == KB_NONE) {
		link = t->ports[tr->in_port[u]].peer;
		w->path[n++] = link;
		u = t->ports[link].node;
	}
	*fits = 0;
	for (tag = 0; tag < ntags; tag++) {
		nz[tag] = zf[tag];
		for (i = 0; i < n; i++)
			kb_ipbf_zf_or(&nz[tag], kb_lid(x->lids, tag, w->path[i]));
		if (kb_ipbf_zf_fill(&nz[tag]) <= x->p.fill_limit)
			*fits = 1;
	}
	return n;
}

static int lipsin_emit(struct exp_worker *w, const struct kb_exp_state *s,
		       __u32 g, __u32 idx, __u32 ntags, pkt_fn fn, void *ctx,
		       struct kb_exp_run *acc)
{
	const struct kb_exp *x = w->x;
	struct kb_exp_pkt pk = { 0 };
	struct kb_zf_result z;
	int len, err;

	err = kb_zf_build(x->lids, w->ct, ntags, x->p.fill_limit, &z);
	if (err)
		return err;
	len = kb_ipbf_write_lipsin(w->hdr, EXP_HDR_MAX,
				   w->ct->height + x->p.hop_slack, z.tag,
				   EXP_ETH_P_IP, &z.zf);
	if (len < 0)
		return len;
	lipsin_cand(w, w->ct, &z, &pk, acc);
	pkt_sim(w, w->ct, x->grp[g].src, len, &pk);
	return fn(w, s, g, idx, &pk, ctx);
}

static int lipsin_group(struct exp_worker *w, const struct kb_exp_state *s,
			__u32 g, pkt_fn fn, void *ctx, struct kb_exp_run *acc)
{
	const struct kb_exp *x = w->x;
	const struct exp_group *gr = &x->grp[g];
	const __u32 *mem = x->members + gr->moff;
	struct kb_ipbf_zf zf[KB_IPBF_D_MAX], nz[KB_IPBF_D_MAX];
	__u32 ntags = s->scheme == KB_EXP_LIPSIN8 ? 8 : 1, i, n, idx = 0;
	struct kb_tree *ct = w->ct;
	int fits, err;

	kb_tree_reset(ct, gr->src);
	memset(zf, 0, sizeof(zf));
	for (i = 0; i < gr->size; i++) {
		n = join_path(w, w->tr, ct, mem[i], ntags, zf, nz, &fits);
		if (!fits && ct->nmembers) {
			err = lipsin_emit(w, s, g, idx++, ntags, fn, ctx, acc);
			if (err)
				return err;	/* or stopped */
			kb_tree_reset(ct, gr->src);
			memset(zf, 0, sizeof(zf));
			n = join_path(w, w->tr, ct, mem[i], ntags, zf, nz,
				      &fits);
		}
		if (!fits) {
			/* one receiver's path alone is over the limit */
			struct kb_exp_pkt pk = { .refused = 1 };

			err = fn(w, s, g, idx++, &pk, ctx);
			if (err)
				return err;
			continue;
		}
		while (n--)
			kb_tree_add_link(ct, w->path[n]);
		kb_tree_add_member(ct, mem[i]);
		memcpy(zf, nz, ntags * sizeof(zf[0]));
	}
	if (ct->nmembers)
		return lipsin_emit(w, s, g, idx, ntags, fn, ctx, acc);
	return 0;
}

static int msbf_group(struct exp_worker *w, const struct kb_exp_state *s,
		      __u32 g, pkt_fn fn, void *ctx, struct kb_exp_run *acc)
{
	const struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	struct kb_msbf_params mp = {
		.ntags = 1,
		.start_fp = x->p.msbf_start_fp,
		.inner_proto = EXP_ETH_P_IP,
	};
	struct kb_exp_pkt pk = { 0 };
	struct kb_tree *tr = w->tr;
	__u32 i, v, p, end, si;
	int len;

	len = kb_msbf_build(w->ms, x->lids, tr, &mp, w->hdr, EXP_HDR_MAX,
			    NULL);
	if (len < 0) {
		pk.refused = 1;
		return fn(w, s, g, 0, &pk, ctx);
	}
	/* false-positive free on the candidates by construction */
	pk.cand = x->grp[g].cand;
	for (i = 0; acc && i < tr->nnodes; i++) {
		v = tr->nodes[i];
		if (t->nodes[v].kind != KB_NODE_SWITCH)
			continue;
		si = x->sw_index[v];
		end = t->nodes[v].first_port + t->nodes[v].nports;
		for (p = t->nodes[v].first_port; p < end; p++)
			if (p != tr->in_port[v] && !tr->on_tree[p])
				acc->sw_cand[si]++;
	}
	pkt_sim(w, tr, x->grp[g].src, len, &pk);
	return fn(w, s, g, 0, &pk, ctx);
}

/* Every packet of group @g under state @s: 0, stopped (> 0), -errno. */
static int state_group(struct exp_worker *w, const struct kb_exp_state *s,
		       __u32 g, pkt_fn fn, void *ctx, struct kb_exp_run *acc)
{
	struct kb_exp_pkt pk = { 0 };

	switch (s->scheme) {
	case KB_EXP_LIPSIN1:
	case KB_EXP_LIPSIN8:
		group_tree(w->x, g, w->tr);
		return lipsin_group(w, s, g, fn, ctx, acc);
	case KB_EXP_MSBF:
		group_tree(w->x, g, w->tr);
		return msbf_group(w, s, g, fn, ctx, acc);
	}
	if (s->fast && !nfp_of(s, g)) {
		fwd_run(w, s, w->tr, g, &pk);	/* no tree needed */
		return fn(w, s, g, 0, &pk, ctx);
	}
	group_tree(w->x, g, w->tr);
	fwd_run(w, s, w->tr, g, &pk);
	return fn(w, s, g, 0, &pk, ctx);
}

/* ---- states ----------------------------------------------------------------- */

static int state_alloc(struct kb_exp *x, __u32 scheme, __u64 bits,
		       struct kb_exp_state **sp)
{
	struct kb_exp_state *s = calloc(1, sizeof(*s));
	size_t np = x->topo->nports;

	if (!s)
		return -ENOMEM;
	s->x = x;
	s->scheme = scheme;
	s->bits = (KB_EXP_S(scheme) & KB_EXP_PORT_FILTERS) ? bits : 0;
	if (KB_EXP_S(scheme) & KB_EXP_PORT_FILTERS) {
		s->port_k = calloc(np + 1, sizeof(*s->port_k));
		s->pred = calloc(np * (scheme == KB_EXP_MCBF ? x->nclass : 1) + 1,
				 sizeof(*s->pred));
		if (scheme == KB_EXP_MCBF) {
			s->mf = calloc(np + 1, sizeof(*s->mf));
			s->cls = calloc(np + 1, sizeof(*s->cls));
		} else {
			s->pf = calloc(np + 1, sizeof(*s->pf));
		}
		if (!s->port_k || !s->pred || (!s->mf && !s->pf) ||
		    (scheme == KB_EXP_MCBF && !s->cls)) {
			kb_exp_state_free(s);
			return -ENOMEM;
		}
	}
	*sp = s;
	return 0;
}

void kb_exp_state_free(struct kb_exp_state *s)
{
	size_t p, np;

	if (!s)
		return;
	np = s->x->topo->nports;
	for (p = 0; s->pf && p < np; p++)
		kbloom_destroy(s->pf[p]);
	for (p = 0; s->mf && p < np; p++)
		kb_mcbf_free(s->mf[p]);
	free(s->pf);
	free(s->mf);
	free(s->port_k);
	free(s->pred);
	free(s->cls);
	free(s->fp_off);
	free(s->fp_port);
	free(s->g_pred);
	free(s->got_trace);
	free(s->got_hdr);
	free(s);
}

static __u64 port_seed(const struct kb_exp *x, __u32 p)
{
	return sub_seed(x, SEED_PORT, p);
}

static double ln_q32(__s64 v)
{
	return v == KB_LN_NEG_INF ? -INFINITY : (double)v / 4294967296.0;
}

/* The k of a port of @n groups: the given one, or the predicted best. */
static __u32 best_k(const struct kb_exp *x, __u32 type, __u64 m, __u32 n,
		    __u8 *memo)
{
	double best = INFINITY, v;
	__u32 k, k0, lo, hi, bk = 1;

	if (x->p.k)
		return x->p.k;
	if (!n)
		return 1;
	if (memo && memo[n])
		return memo[n];
	k0 = (__u32)lround((double)m / n * M_LN2);
	lo = k0 > 3 ? k0 - 2 : 1;
	hi = k0 + 2 < EXP_PORT_K_MAX ? k0 + 2 : EXP_PORT_K_MAX;
	if (lo > hi)
		lo = hi;
	for (k = lo; k <= hi; k++) {
		v = ln_q32(kb_plan_ln_fpr(type, m, k, n));
		if (v < best) {
			best = v;
			bk = k;
		}
	}
	if (memo)
		memo[n] = (__u8)bk;
	return bk;
}

struct build_arg {
	struct kb_exp_state *s;
	__u8 *memo;	/* per n: best k (read-only in the threads) */
	double *pred;	/* per n: its predicted rate */
	struct plan_memo *memo_mcbf;	/* MC-BF plans, PLAN_MEMO per thread */
};

static double ipow(double b, __u32 e)
{
	double r = 1.0;

	while (e) {
		if (e & 1)
			r *= b;
		b *= b;
		e >>= 1;
	}
	return r;
}

/*
 * MC-BF per-port prediction, class by class, from the groups inserted:
 * K = sum_c n_c k_c probes over m bits.  Standard: a probe finds a one
 * with rho = 1 - e^(-K/m), a class-c key matches with rho^k_c.  Blocked:
 * the key's block holds Poisson(B n / m) other keys of k-bar = K / n
 * probes each, as in the blocked formula of DESIGN.md.
 */
static void mcbf_pred(const struct kb_exp *x, struct kb_exp_state *s,
		      __u32 p)
{
	const __u32 *pres = x->present + (size_t)p * x->nclass;
	const struct kb_mcbf_classes *cls = &s->cls[p];
	double K = 0.0, n = 0.0, lam, kbar, pi, base, l1, w, *out;
	double sum[KB_MCBF_CLASSES] = { 0 };
	__u32 c, i, lo, hi;

	out = s->pred + (size_t)p * x->nclass;
	for (c = 0; c < x->nclass; c++) {
		K += (double)pres[c] * cls->k[c];
		n += pres[c];
	}
	if (!n) {
		for (c = 0; c < x->nclass; c++)
			out[c] = 0.0;
		return;
	}
	if (x->p.mcbf_type == KBLOOM_TYPE_STANDARD) {
		base = -expm1(-K / (double)s->bits);
		for (c = 0; c < x->nclass; c++)
			out[c] = ipow(base, cls->k[c]);
		return;
	}
	lam = KBLOOM_BLOCK_BITS * n / (double)s->bits;
	kbar = K / n;
	l1 = kbar * log1p(-1.0 / KBLOOM_BLOCK_BITS);
	/* the Poisson terms within 12 sigma + 20 of the mean, in log space */
	w = 12.0 * sqrt(lam) + 20.0;
	lo = lam > w ? (__u32)(lam - w) : 0;
	hi = (__u32)(lam + w);
	for (i = lo; i <= hi; i++) {
		pi = exp(-lam + i * log(lam) - lgamma(i + 1.0));
		base = -expm1(i * l1);
		for (c = 0; c < x->nclass; c++)
			sum[c] += pi * ipow(base, cls->k[c]);
	}
	for (c = 0; c < x->nclass; c++)
		out[c] = sum[c];
}

/*
 * The MC-BF class table for a port where class c has @pres[c] groups
 * present (inserted) and @abs[c] tested while absent (candidates): the
 * optimiser's objective is then the port's expected false positives,
 * with each class's presence probability pres / (pres + abs) as measured
 * on this port; the best single k for every class is kept if the search
 * finds nothing better.
 */
static int mcbf_plan(const struct kb_exp *x, __u64 m, const double *pres,
		     const double *abs, struct kb_mcbf_classes *out)
{
	struct kb_mcbf_class_spec spec[KB_MCBF_CLASSES];
	struct kb_mcbf_plan plan;
	__u32 c;
	int err;

	for (c = 0; c < x->nclass; c++) {
		spec[c].groups = pres[c] + abs[c];
		spec[c].p = spec[c].groups > 0 ? pres[c] / spec[c].groups :
						 x->class_p[c];
		spec[c].w = 1.0;
	}
	err = kb_mcbf_optimize(m, spec, x->nclass, 1, EXP_MCBF_K_MAX, &plan);
	if (err)
		return err;
	memset(out, 0, sizeof(*out));
	for (c = 0; c < x->nclass; c++)
		out->k[c] = (__u8)(plan.leak_uniform < plan.leak ?
				   plan.k_uniform : plan.k[c]);
	return 0;
}

/*
 * Per-port MC-BF plans are made on the port's class counts rounded to 2%
 * (log scale): ports of the same role then share one optimisation (a
 * memo), which matters at thousands of ports.
 */
#define PLAN_MEMO	16384U
#define PLAN_STEP	0.0198026272961797	/* ln 1.02 */

struct plan_memo {
	__u32 used;
	__u32 q[2 * KB_MCBF_CLASSES];
	struct kb_mcbf_classes cls;
};

static __u32 quant(double n, double *back)
{
	__u32 q = (__u32)lround(log1p(n) / PLAN_STEP);

	*back = expm1(q * PLAN_STEP);
	return q;
}

static int mcbf_port_plan(const struct kb_exp *x, __u64 m, __u32 p,
			  struct plan_memo *memo, struct kb_mcbf_classes *out)
{
	double pres[KB_MCBF_CLASSES], abs[KB_MCBF_CLASSES];
	__u32 q[2 * KB_MCBF_CLASSES] = { 0 }, c, h = 2166136261U, i, tries;
	struct plan_memo *e = NULL;
	size_t o = (size_t)p * x->nclass;
	int err;

	for (c = 0; c < x->nclass; c++) {
		q[2 * c] = quant(x->present[o + c], &pres[c]);
		q[2 * c + 1] = quant(x->absent[o + c], &abs[c]);
		h = (h ^ q[2 * c]) * 16777619U;
		h = (h ^ q[2 * c + 1]) * 16777619U;
	}
	for (tries = 0, i = h & (PLAN_MEMO - 1); tries < PLAN_MEMO;
	     tries++, i = (i + 1) & (PLAN_MEMO - 1)) {
		e = &memo[i];
		if (!e->used)
			break;
		if (!memcmp(e->q, q, sizeof(q))) {
			*out = e->cls;
			return 0;
		}
	}
	err = mcbf_plan(x, m, pres, abs, out);
	if (err || tries == PLAN_MEMO)
		return err;
	e->used = 1;
	memcpy(e->q, q, sizeof(q));
	e->cls = *out;
	return 0;
}

/* The keys of groups @g[0..n) in w->keys (4 bytes each). */
static int gather_keys(struct exp_worker *w, const __u32 *g, __u64 n)
{
	const __u32 *key = w->x->gkey;
	__u64 i;
	void *nk, *nb;

	if (n > w->cap_keys) {
		nk = realloc(w->keys, n * 4);
		if (!nk)
			return -ENOMEM;
		w->keys = nk;
		nb = realloc(w->bitmap, (n + 7) / 8);
		if (!nb)
			return -ENOMEM;
		w->bitmap = nb;
		w->cap_keys = n;
	}
	for (i = 0; i < n; i++)
		memcpy(w->keys + 4 * i, &key[g[i]], 4);
	return 0;
}

/*
 * Test every candidate of port @p against its filter, just built: the
 * matches in w->pairs, the predicted matches added to w->g_pred.
 */
static int port_test(struct exp_worker *w, const struct kb_exp_state *s,
		     __u32 p)
{
	const struct kb_exp *x = w->x;
	__u64 i, off = x->cand_off[p], n = x->cand_off[p + 1] - off;
	int err, hit, batch = s->scheme == KB_EXP_BLOCKED;
	double pred[KB_MCBF_CLASSES];
	__u32 g, c, *np;

	err = gather_keys(w, x->cand_g + off, n);
	if (err)
		return err;
	for (c = 0; c < x->nclass; c++)
		pred[c] = port_pred(s, p, c);
	/*
	 * Blocked: the port's candidates in one batch, hits in w->bitmap.
	 * Standard: one call per key (the batch's k prefetches per key
	 * cost more than they save in cache).
	 */
	if (batch && kbloom_test_batch(s->pf[p], w->keys, 4 * n, 4,
				       (__u32)n, w->bitmap) < 0)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		g = x->cand_g[off + i];
		w->g_pred[g] += pred[x->gcls[g]];
		if (batch)
			hit = (w->bitmap[i >> 3] >> (i & 7)) & 1;
		else if (s->pf)
			hit = kbloom_test(s->pf[p], w->keys + 4 * i, 4) == 1;
		else
			hit = kb_mcbf_test_v4(s->mf[p], w->keys + 4 * i) == 1;
		if (!hit)
			continue;
		if (w->npairs == w->cap_pairs) {
			w->cap_pairs = w->cap_pairs ? 2 * w->cap_pairs : 4096;
			np = realloc(w->pairs, w->cap_pairs * 2 * sizeof(*np));
			if (!np)
				return -ENOMEM;
			w->pairs = np;
		}
		w->pairs[2 * w->npairs] = g;
		w->pairs[2 * w->npairs + 1] = p;
		w->npairs++;
	}
	return 0;
}

/*
 * Create this thread's share of the per-port filters, fill each with its
 * groups and test its candidates against it, port by port (the filter
 * stays in the cache).
 */
static int phase_build(struct exp_worker *w, void *arg)
{
	struct build_arg *ba = arg;
	struct kb_exp_state *s = ba->s;
	struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	__u32 T = x->nthreads, p, type;
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_FAST };
	__u64 i, n;
	int err;

	type = s->scheme == KB_EXP_STANDARD ? KBLOOM_TYPE_STANDARD :
					       KBLOOM_TYPE_BLOCKED;
	w->npairs = 0;
	memset(w->g_pred, 0, x->p.groups * sizeof(*w->g_pred));
	for (p = w->id; p < t->nports; p += T) {
		if (t->nodes[t->ports[p].node].kind != KB_NODE_SWITCH)
			continue;
		n = x->pres_off[p + 1] - x->pres_off[p];
		err = gather_keys(w, x->pres_g + x->pres_off[p], n);
		if (err)
			return err;
		if (s->scheme == KB_EXP_MCBF) {
			err = 0;
			if (!x->p.mcbf_global)
				err = mcbf_port_plan(x, s->bits, p,
						     ba->memo_mcbf +
						     (size_t)PLAN_MEMO * w->id,
						     &s->cls[p]);
			for (i = 0; i < x->nclass; i++)
				s->port_k[p] += s->cls[p].k[i];
			if (!err)
				err = kb_mcbf_new(x->p.mcbf_type, s->bits,
						  KBLOOM_HASH_FAST,
						  port_seed(x, p), &s->cls[p],
						  &s->mf[p]);
			for (i = 0; !err && i < n; i++)
				err = kb_mcbf_add_v4(s->mf[p], w->keys + 4 * i);
			if (!err)
				mcbf_pred(x, s, p);
		} else {
			s->port_k[p] = best_k(x, type, s->bits, x->port_n[p],
					      ba->memo);
			o.seed = port_seed(x, p);
			err = kbloom_create_mk(type, s->bits, s->port_k[p], &o,
					       &s->pf[p]);
			/*
			 * Standard: one call per key: the filter is in the
			 * cache, and the batch call's prefetching (k
			 * positions per key) costs more than it saves.
			 * Blocked: one block per key, the batch is cheaper.
			 */
			if (!err && type == KBLOOM_TYPE_BLOCKED)
				err = kbloom_add_batch(s->pf[p], w->keys, 4 * n,
						       4, (__u32)n);
			for (i = 0; !err && type == KBLOOM_TYPE_STANDARD &&
			     i < n; i++)
				err = kbloom_add(s->pf[p], w->keys + 4 * i, 4) < 0 ?
				      -EINVAL : 0;
			if (!err)
				s->pred[p] = ba->pred[x->port_n[p]];
		}
		if (!err)
			err = port_test(w, s, p);
		if (err)
			return err;
		atomic_fetch_add(&x->done, 2);
	}
	return 0;
}

/*
 * The matching candidates of every group (the workers' pairs from
 * phase_build()): CSR by group.
 */
static int state_test(struct kb_exp *x, struct kb_exp_state *s)
{
	__u32 G = x->p.groups, i, g;
	__u64 j, n = 0, *pos;

	s->fp_off = calloc((size_t)G + 1, sizeof(*s->fp_off));
	s->g_pred = calloc((size_t)G + 1, sizeof(*s->g_pred));
	if (!s->fp_off || !s->g_pred)
		return -ENOMEM;
	if (!s->pf && !s->mf)
		return 0;	/* exact: nothing matches */
	for (i = 0; i < x->nthreads; i++) {
		for (j = 0; j < x->w[i].npairs; j++)
			s->fp_off[x->w[i].pairs[2 * j] + 1]++;
		for (g = 0; g < G; g++)
			s->g_pred[g] += x->w[i].g_pred[g];
		n += x->w[i].npairs;
	}
	for (g = 0; g < G; g++)
		s->fp_off[g + 1] += s->fp_off[g];
	s->fp_port = malloc((n + 1) * sizeof(*s->fp_port));
	pos = malloc(((size_t)G + 1) * sizeof(*pos));
	if (!s->fp_port || !pos) {
		free(pos);
		return -ENOMEM;
	}
	memcpy(pos, s->fp_off, (size_t)G * sizeof(*pos));
	for (i = 0; i < x->nthreads; i++)
		for (j = 0; j < x->w[i].npairs; j++)
			s->fp_port[pos[x->w[i].pairs[2 * j]]++] =
				x->w[i].pairs[2 * j + 1];
	free(pos);
	return 0;
}

/* Switch memory of a state, bytes. */
static __u64 state_mem(const struct kb_exp *x, const struct kb_exp_state *s)
{
	const struct kb_topo *t = x->topo;
	__u64 mem = 0;
	__u32 i, v, np;

	for (i = 0; i < x->nsw; i++) {
		v = x->sw[i];
		np = t->nodes[v].nports;
		switch (s->scheme) {
		case KB_EXP_EXACT:	/* group address + port bitmap */
			mem += (__u64)x->sw_groups[i] * (4 + (np + 7) / 8);
			break;
		case KB_EXP_STANDARD:
		case KB_EXP_BLOCKED:
			mem += (__u64)np * (s->bits / 8);
			break;
		case KB_EXP_MCBF:	/* + the class table */
			mem += (__u64)np * (s->bits / 8 + KB_MCBF_CLASSES);
			break;
		case KB_EXP_LIPSIN1:	/* link IDs */
			mem += (__u64)np * KB_IPBF_ZF_BYTES;
			break;
		case KB_EXP_LIPSIN8:
			mem += (__u64)np * 8 * KB_IPBF_ZF_BYTES;
			break;
		case KB_EXP_MSBF:	/* link hashes */
			mem += (__u64)np * 8;
			break;
		}
	}
	return mem;
}

static int state_build(struct kb_exp *x, __u32 scheme, __u64 bits,
		       struct kb_exp_state **sp)
{
	const struct kb_topo *t = x->topo;
	struct build_arg ba = { 0 };
	struct kb_exp_state *s;
	double avg_p[KB_MCBF_CLASSES] = { 0 }, avg_a[KB_MCBF_CLASSES] = { 0 };
	struct kb_mcbf_classes glob;
	struct plan_memo *memo = NULL;
	__u32 p, c, nports = 0;
	int err;

	err = state_alloc(x, scheme, bits, &s);
	if (err)
		return err;
	if (scheme == KB_EXP_MCBF) {
		memo = calloc((size_t)PLAN_MEMO * x->nthreads, sizeof(*memo));
		if (!memo) {
			err = -ENOMEM;
			goto fail;
		}
		for (p = 0; p < t->nports; p++) {
			if (t->nodes[t->ports[p].node].kind != KB_NODE_SWITCH)
				continue;
			nports++;
			for (c = 0; c < x->nclass; c++) {
				avg_p[c] += x->present[(size_t)p * x->nclass + c];
				avg_a[c] += x->absent[(size_t)p * x->nclass + c];
			}
		}
		for (c = 0; c < x->nclass; c++) {
			avg_p[c] /= nports ? nports : 1;
			avg_a[c] /= nports ? nports : 1;
		}
		if (x->p.mcbf_global) {
			err = mcbf_plan(x, bits, avg_p, avg_a, &glob);
			if (err)
				goto fail;
		}
		/* per-port plans: in the threads (phase_build) */
		for (p = 0; x->p.mcbf_global && p < t->nports; p++)
			if (t->nodes[t->ports[p].node].kind == KB_NODE_SWITCH)
				s->cls[p] = glob;
		ba.memo_mcbf = memo;
	}
	if (KB_EXP_S(scheme) & KB_EXP_PORT_FILTERS) {
		if (scheme != KB_EXP_MCBF) {
			__u32 type = scheme == KB_EXP_STANDARD ?
				     KBLOOM_TYPE_STANDARD : KBLOOM_TYPE_BLOCKED;
			__u32 n;

			/* per group count: k and prediction, before the threads */
			ba.memo = calloc(x->p.groups + 1, 1);
			ba.pred = calloc(x->p.groups + 1, sizeof(*ba.pred));
			if (!ba.memo || !ba.pred) {
				free(ba.memo);
				free(ba.pred);
				err = -ENOMEM;
				goto fail;
			}
			for (p = 0; p < t->nports; p++) {
				if (t->nodes[t->ports[p].node].kind !=
				    KB_NODE_SWITCH)
					continue;
				n = x->port_n[p];
				if (ba.memo[n])
					continue;
				ba.memo[n] = (__u8)best_k(x, type, bits, n, NULL);
				ba.pred[n] = exp(ln_q32(kb_plan_ln_fpr(type, bits,
							ba.memo[n], n)));
			}
		}
		ba.s = s;
		err = par_run(x, phase_build, &ba);
		free(ba.memo);
		free(ba.pred);
		if (err)
			goto fail;
	}
	if (scheme == KB_EXP_EXACT || (KB_EXP_S(scheme) & KB_EXP_PORT_FILTERS)) {
		err = state_test(x, s);
		if (err)
			goto fail;
	}
	s->mem = state_mem(x, s);
	free(memo);
	*sp = s;
	return 0;
fail:
	free(memo);
	kb_exp_state_free(s);
	return err;
}

/* ---- the model run --------------------------------------------------------- */

static __u32 bucket_of(__u32 size)
{
	__u32 b = 0;

	while (size >> (b + 1) && b + 1 < KB_EXP_BUCKETS)
		b++;
	return b;
}

static void metrics_add(struct kb_exp_metrics *m, const struct kb_exp_pkt *pk,
			__u32 first)
{
	m->groups += first;
	if (pk->refused) {
		m->refused++;
		return;
	}
	m->packets++;
	m->tx_tree += pk->res.tx_tree;
	m->tx_off += pk->res.tx_off;
	m->tree_links += pk->tree_links;
	m->cand += pk->cand;
	m->cand_fp += pk->cand_fp;
	m->fp_pred += pk->fp_pred;
	m->fp_pred_fill += pk->fp_pred_fill;
	m->delivered += pk->res.delivered;
	m->dup += pk->res.dup;
	m->leaked_hosts += pk->res.leaked_hosts;
	m->looped += pk->res.truncated;
	m->hdr_bytes += pk->hdr_len;
}

static void metrics_sum(struct kb_exp_metrics *d, const struct kb_exp_metrics *s)
{
	d->groups += s->groups;
	d->packets += s->packets;
	d->refused += s->refused;
	d->tx_tree += s->tx_tree;
	d->tx_off += s->tx_off;
	d->tree_links += s->tree_links;
	d->cand += s->cand;
	d->cand_fp += s->cand_fp;
	d->fp_pred += s->fp_pred;
	d->fp_pred_fill += s->fp_pred_fill;
	d->delivered += s->delivered;
	d->dup += s->dup;
	d->leaked_hosts += s->leaked_hosts;
	d->looped += s->looped;
	d->hdr_bytes += s->hdr_bytes;
}

static int acc_pkt(struct exp_worker *w, const struct kb_exp_state *s,
		   __u32 g, __u32 i, struct kb_exp_pkt *pk, void *ctx)
{
	const struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	struct kb_exp_run *acc = &w->acc;
	__u32 j, p, v;

	(void)s;
	(void)ctx;
	metrics_add(&acc->m, pk, i == 0);
	metrics_add(&acc->b[bucket_of(x->grp[g].size)], pk, i == 0);
	for (j = 0; j < pk->ntrace; j++) {
		p = pk->trace[j];
		if (pk->tree->on_tree[p])
			continue;
		v = t->ports[p].node;
		if (t->nodes[v].kind == KB_NODE_SWITCH)
			acc->sw_fp[x->sw_index[v]]++;
	}
	return 0;
}

static int phase_forward(struct exp_worker *w, void *arg)
{
	const struct kb_exp_state *s = arg;
	struct kb_exp *x = w->x;
	__u32 lo, hi, g;
	int err;

	while (grab(x, &lo, &hi)) {
		for (g = lo; g < hi; g++) {
			err = state_group(w, s, g, acc_pkt, NULL, &w->acc);
			if (err < 0)
				return err;
		}
		atomic_fetch_add(&x->done, hi - lo);
	}
	return 0;
}

static void acc_reset(struct kb_exp *x, struct exp_worker *w)
{
	memset(&w->acc.m, 0, sizeof(w->acc.m));
	memset(w->acc.b, 0, sizeof(w->acc.b));
	memset(w->acc.sw_fp, 0, x->nsw * sizeof(__u64));
	memset(w->acc.sw_cand, 0, x->nsw * sizeof(__u64));
	memset(w->acc.sw_cand_fp, 0, x->nsw * sizeof(__u64));
	w->acc.seconds = 0;
}

static int run_one(struct kb_exp *x, struct kb_exp_run *r)
{
	struct kb_exp_state *s;
	const struct kb_topo *t = x->topo;
	double c0 = cpu_s(), w0 = 0;
	__u32 i, j, p;
	int err;

	for (i = 0; i < x->nthreads; i++)
		w0 += x->w[i].cpu;
	err = state_build(x, r->scheme, r->bits, &s);
	if (err)
		return exp_fail(x, err, "%s: building the state: %s",
				kb_exp_scheme_name(r->scheme), strerror(-err));
	s->fast = 1;
	for (i = 0; i < x->nthreads; i++)
		acc_reset(x, &x->w[i]);
	err = par_run(x, phase_forward, s);
	if (err) {
		kb_exp_state_free(s);
		return exp_fail(x, err, "%s: forwarding: %s",
				kb_exp_scheme_name(r->scheme), strerror(-err));
	}
	for (i = 0; i < x->nthreads; i++) {
		struct exp_worker *w = &x->w[i];

		metrics_sum(&r->m, &w->acc.m);
		for (j = 0; j < KB_EXP_BUCKETS; j++)
			metrics_sum(&r->b[j], &w->acc.b[j]);
		for (j = 0; j < x->nsw; j++) {
			r->sw_fp[j] += w->acc.sw_fp[j];
			r->sw_cand[j] += w->acc.sw_cand[j];
			r->sw_cand_fp[j] += w->acc.sw_cand_fp[j];
		}
		r->seconds += w->cpu;
	}
	/*
	 * CPU of this run: the workers' (one thread: the calling one's, which
	 * ran them) and the calling thread's serial parts.
	 */
	r->seconds -= w0;
	if (x->nthreads == 1)
		r->seconds = 0;
	r->seconds += cpu_s() - c0;
	r->m.mem_bytes = s->mem;
	if (s->fp_off && x->sw_cand) {
		/* per switch: its candidates, and those that matched */
		for (j = 0; j < x->nsw; j++)
			r->sw_cand[j] = x->sw_cand[j];
		for (j = 0; j < s->fp_off[x->p.groups]; j++)
			r->sw_cand_fp[x->sw_index[t->ports[s->fp_port[j]].node]]++;
	}
	for (p = 0; s->port_k && p < t->nports; p++) {
		if (t->nodes[t->ports[p].node].kind != KB_NODE_SWITCH)
			continue;
		r->m.k_sum += s->port_k[p];
		r->m.k_ports += r->scheme == KB_EXP_MCBF ? x->nclass : 1;
	}
	kb_exp_state_free(s);
	return 0;
}

int kb_exp_prepare(struct kb_exp *x)
{
	return x ? prepare(x) : -EINVAL;
}

int kb_exp_run(struct kb_exp *x)
{
	__u32 i;
	int err;

	if (!x)
		return -EINVAL;
	err = prepare(x);
	if (err)
		return err;
	for (i = 0; i < x->nruns; i++) {
		err = run_one(x, &x->runs[i]);
		if (err)
			return err;
	}
	x->seconds = now_s() - x->t0;
	progress_tick(x);
	return 0;
}

/* ---- construction ------------------------------------------------------------ */

static int build_topo(struct kb_exp *x)
{
	const struct kb_exp_params *p = &x->p;
	char why[256];
	int err;

	switch (p->topo) {
	case KB_EXP_TOPO_FAT_TREE:
		err = kb_topo_fat_tree(p->ft_k, &x->topo);
		break;
	case KB_EXP_TOPO_LEAF_SPINE:
		err = kb_topo_leaf_spine(p->ls_leaves, p->ls_spines,
					 p->ls_hosts, &x->topo);
		break;
	default:
		err = kb_exp_topo_load(x->topo_file, &x->topo, why,
				       sizeof(why));
		if (err)
			return exp_fail(x, err, "%s", why);
		return 0;
	}
	if (err)
		return exp_fail(x, err, "topology: %s", strerror(-err));
	return 0;
}

static int add_runs(struct kb_exp *x)
{
	__u32 s, b, n = 0, nsw = x->nsw ? x->nsw : 1;
	struct kb_exp_run *r;

	for (s = 0; s < KB_EXP_NSCHEMES; s++)
		if (x->p.schemes & KB_EXP_S(s))
			n += (KB_EXP_S(s) & KB_EXP_PORT_FILTERS) ? x->p.nbits : 1;
	x->runs = calloc(n, sizeof(*x->runs));
	if (!x->runs)
		return -ENOMEM;
	for (s = 0; s < KB_EXP_NSCHEMES; s++) {
		if (!(x->p.schemes & KB_EXP_S(s)))
			continue;
		for (b = 0; b < ((KB_EXP_S(s) & KB_EXP_PORT_FILTERS) ?
				 x->p.nbits : 1); b++) {
			r = &x->runs[x->nruns++];
			r->scheme = s;
			r->bits = (KB_EXP_S(s) & KB_EXP_PORT_FILTERS) ?
				  x->p.bits[b] : 0;
			r->sw_fp = calloc(nsw, sizeof(__u64));
			r->sw_cand = calloc(nsw, sizeof(__u64));
			r->sw_cand_fp = calloc(nsw, sizeof(__u64));
			if (!r->sw_fp || !r->sw_cand || !r->sw_cand_fp)
				return -ENOMEM;
		}
	}
	return 0;
}

static int index_switches(struct kb_exp *x)
{
	const struct kb_topo *t = x->topo;
	__u32 n;

	x->sw = malloc((t->nnodes + 1) * sizeof(*x->sw));
	x->sw_index = malloc((t->nnodes + 1) * sizeof(*x->sw_index));
	if (!x->sw || !x->sw_index)
		return -ENOMEM;
	for (n = 0; n < t->nnodes; n++) {
		x->sw_index[n] = KB_NONE;
		if (t->nodes[n].kind == KB_NODE_SWITCH) {
			x->sw_index[n] = x->nsw;
			x->sw[x->nsw++] = n;
		}
	}
	return 0;
}

static __u64 switch_ports(const struct kb_exp *x)
{
	__u64 n = 0;
	__u32 i;

	for (i = 0; i < x->nsw; i++)
		n += x->topo->nodes[x->sw[i]].nports;
	return n;
}

static __u32 default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > 8 ? 8 : (__u32)n;
}

int kb_exp_new(const struct kb_exp_params *p, struct kb_exp **xp,
	       char *why, size_t len)
{
	struct kb_exp *x;
	__u32 i;
	int err;

	if (!p || !xp)
		return -EINVAL;
	err = kb_exp_params_check(p, 0, why, len);
	if (err)
		return err;
	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	x->t0 = now_s();
	x->p = *p;
	if (p->topo_file) {
		x->topo_file = strdup(p->topo_file);
		if (!x->topo_file) {
			err = -ENOMEM;
			goto fail;
		}
	}
	x->p.topo_file = x->topo_file;
	err = build_topo(x);
	if (err)
		goto fail_msg;
	if (!x->p.size_max || x->p.dist == KB_EXP_DIST_FIXED)
		x->p.size_max = x->p.dist == KB_EXP_DIST_FIXED ?
				x->p.size_min : x->topo->nhosts;
	err = kb_exp_params_check(&x->p, x->topo->nhosts, x->err,
				  sizeof(x->err));
	if (err)
		goto fail_msg;
	x->size_max = x->p.size_max;
	if (!x->p.ref_bits && x->p.nbits)
		x->p.ref_bits = x->p.bits[(x->p.nbits - 1) / 2];
	if (!x->p.nclass)
		x->p.nclass = 1;
	x->nthreads = x->p.threads ? x->p.threads : default_threads();
	if (x->p.dist == KB_EXP_DIST_ZIPF) {
		err = zipf_table(x);
		if (err)
			goto fail;
	}
	err = index_switches(x);
	if (!err)
		err = add_runs(x);
	if (err)
		goto fail;
	if (x->p.schemes & KB_EXP_IN_PACKET) {
		err = kb_lids_new(x->topo, sub_seed(x, SEED_LIDS, 0),
				  x->p.lipsin_k, 8, &x->lids);
		if (err) {
			exp_fail(x, err, "link IDs: %s", strerror(-err));
			goto fail_msg;
		}
	}
	x->grp = calloc(x->p.groups, sizeof(*x->grp));
	x->w = calloc(x->nthreads, sizeof(*x->w));
	if (!x->grp || !x->w) {
		err = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < x->nthreads; i++) {
		err = worker_init(x, &x->w[i], i);
		if (err)
			goto fail;
	}
	/*
	 * Progress units: a group (trees, counts, candidate lists, forwarding
	 * in every run), and a switch port twice in each per-port run
	 * (building its filter, testing its candidates).
	 */
	x->total = 2ULL * x->p.groups;
	if (x->p.schemes & (KB_EXP_PORT_FILTERS | KB_EXP_S(KB_EXP_EXACT)))
		x->total += x->p.groups;
	for (i = 0; i < x->nruns; i++)
		x->total += x->p.groups +
			    ((KB_EXP_S(x->runs[i].scheme) & KB_EXP_PORT_FILTERS) ?
			     2ULL * switch_ports(x) : 0);
	*xp = x;
	return 0;

fail:
	if (err == -ENOMEM)
		exp_fail(x, err, "out of memory");
	else
		exp_fail(x, err, "%s", strerror(-err));
fail_msg:
	if (why && len)
		snprintf(why, len, "%s", x->err);
	kb_exp_free(x);
	return err;
}

void kb_exp_free(struct kb_exp *x)
{
	__u32 i;

	if (!x)
		return;
	for (i = 0; x->w && i < x->nthreads; i++)
		worker_free(&x->w[i]);
	free(x->w);
	for (i = 0; x->grp && i < x->p.groups; i++)
		free(x->grp[i].links);
	free(x->grp);
	for (i = 0; i < x->nruns; i++) {
		free(x->runs[i].sw_fp);
		free(x->runs[i].sw_cand);
		free(x->runs[i].sw_cand_fp);
	}
	free(x->runs);
	free(x->members);
	free(x->gkey);
	free(x->gcls);
	free(x->zipf_cdf);
	free(x->sw);
	free(x->sw_index);
	free(x->sw_groups);
	free(x->present);
	free(x->absent);
	free(x->port_n);
	free(x->cand_off);
	free(x->cand_g);
	free(x->pres_off);
	free(x->pres_g);
	free(x->sw_cand);
	kb_lids_free(x->lids);
	kb_topo_free(x->topo);
	free(x->topo_file);
	free(x);
}

/* ---- accessors ---------------------------------------------------------------- */

void kb_exp_set_progress(struct kb_exp *x, kb_exp_progress_fn fn, void *ctx)
{
	x->progress = fn;
	x->pctx = ctx;
}

const struct kb_exp_params *kb_exp_get_params(const struct kb_exp *x)
{
	return &x->p;
}

const struct kb_topo *kb_exp_topo(const struct kb_exp *x)
{
	return x->topo;
}

const struct kb_lids *kb_exp_lids(const struct kb_exp *x)
{
	return x->lids;
}

__u32 kb_exp_nruns(const struct kb_exp *x)
{
	return x->nruns;
}

const struct kb_exp_run *kb_exp_get_run(const struct kb_exp *x, __u32 i)
{
	return i < x->nruns ? &x->runs[i] : NULL;
}

const struct kb_exp_run *kb_exp_find_run(const struct kb_exp *x,
					 __u32 scheme, __u64 bits)
{
	__u32 i;

	for (i = 0; i < x->nruns; i++)
		if (x->runs[i].scheme == scheme &&
		    (!(KB_EXP_S(scheme) & KB_EXP_PORT_FILTERS) ||
		     x->runs[i].bits == bits))
			return &x->runs[i];
	return NULL;
}

const __u32 *kb_exp_switches(const struct kb_exp *x, __u32 *n)
{
	*n = x->nsw;
	return x->sw;
}

double kb_exp_seconds(const struct kb_exp *x)
{
	return x->seconds;
}

double kb_exp_leak(const struct kb_exp_metrics *m)
{
	return m->tx_tree ? (double)m->tx_off / m->tx_tree : 0.0;
}

__u32 kb_exp_ngroups(const struct kb_exp *x)
{
	return x->p.groups;
}

__u32 kb_exp_classes(const struct kb_exp *x, const double **presence)
{
	if (presence)
		*presence = x->class_p;
	return x->prepared ? x->nclass : 0;
}

int kb_exp_group_info(struct kb_exp *x, __u32 g, struct kb_exp_group_info *gi)
{
	const struct exp_group *gr;

	if (!x || !gi || g >= x->p.groups)
		return -EINVAL;
	if (!x->prepared)
		return -ENODATA;
	gr = &x->grp[g];
	gi->src = gr->src;
	gi->size = gr->size;
	gi->cls = gr->cls;
	gi->nlinks = gr->nlinks;
	gi->height = gr->height;
	gi->cand = gr->cand;
	gi->presence = gr->presence;
	kb_exp_group_addr(x, g, gi->addr);
	return 0;
}

__u32 kb_exp_group_src(const struct kb_exp *x, __u32 g)
{
	return g < x->p.groups ? x->grp[g].src : KB_NONE;
}

const __u32 *kb_exp_group_members(const struct kb_exp *x, __u32 g, __u32 *n)
{
	if (g >= x->p.groups || !x->members) {
		*n = 0;
		return NULL;
	}
	*n = x->grp[g].size;
	return x->members + x->grp[g].moff;
}

/* ---- single packets ------------------------------------------------------------ */

int kb_exp_state_new(struct kb_exp *x, __u32 scheme, __u64 bits,
		     struct kb_exp_state **sp)
{
	int err;

	if (!x || !sp || scheme >= KB_EXP_NSCHEMES)
		return -EINVAL;
	if ((KB_EXP_S(scheme) & KB_EXP_IN_PACKET) && !x->lids)
		return exp_fail(x, -EINVAL,
				"%s: the experiment has no in-packet scheme (no link IDs)",
				kb_exp_scheme_name(scheme));
	if ((KB_EXP_S(scheme) & KB_EXP_PORT_FILTERS) &&
	    !(x->p.schemes & (KB_EXP_PORT_FILTERS | KB_EXP_S(KB_EXP_EXACT))))
		return exp_fail(x, -EINVAL,
				"%s: the experiment has no per-port scheme (no port lists)",
				kb_exp_scheme_name(scheme));
	if ((KB_EXP_S(scheme) & KB_EXP_PORT_FILTERS) &&
	    (!bits || bits % (scheme == KB_EXP_STANDARD ||
			      (scheme == KB_EXP_MCBF &&
			       x->p.mcbf_type == KBLOOM_TYPE_STANDARD) ?
			      64 : KBLOOM_BLOCK_BITS)))
		return exp_fail(x, -ERANGE, "%s: bits %llu: not a valid size",
				kb_exp_scheme_name(scheme),
				(unsigned long long)bits);
	err = prepare(x);
	if (err)
		return err;
	err = state_build(x, scheme, bits, sp);
	if (err)
		return exp_fail(x, err, "%s: %s", kb_exp_scheme_name(scheme),
				strerror(-err));
	(*sp)->w = &x->w[0];
	return 0;
}

static int keep_pkt(struct exp_worker *w, const struct kb_exp_state *cs,
		    __u32 g, __u32 i, struct kb_exp_pkt *pk, void *ctx)
{
	struct kb_exp_state *s = ctx;

	(void)w;
	(void)cs;
	(void)g;
	s->npk = i + 1;
	if (i != s->want_i || s->found)
		return 0;
	s->found = 1;
	s->got = *pk;
	if (pk->ntrace) {
		s->got_trace = malloc(pk->ntrace * sizeof(__u32));
		if (s->got_trace)
			memcpy(s->got_trace, pk->trace,
			       pk->ntrace * sizeof(__u32));
		else
			s->got.ntrace = 0;
	}
	if (pk->hdr_len) {
		s->got_hdr = malloc(pk->hdr_len);
		if (s->got_hdr)
			memcpy(s->got_hdr, pk->hdr, pk->hdr_len);
	}
	s->got.trace = s->got_trace;
	s->got.hdr = s->got_hdr;
	return 1;	/* stop: its tree stays in the worker */
}

static int state_collect(struct kb_exp_state *s, __u32 g, __u32 i)
{
	int err;

	free(s->got_trace);
	free(s->got_hdr);
	s->got_trace = NULL;
	s->got_hdr = NULL;
	s->want_g = g;
	s->want_i = i;
	s->found = 0;
	s->npk = 0;
	memset(&s->got, 0, sizeof(s->got));
	err = state_group(s->w, s, g, keep_pkt, s, NULL);
	return err < 0 ? err : 0;
}

int kb_exp_state_npackets(struct kb_exp_state *s, __u32 g)
{
	int err;

	if (!s || g >= s->x->p.groups)
		return -EINVAL;
	err = state_collect(s, g, KB_NONE);
	return err ? err : (int)s->npk;
}

int kb_exp_state_forward(struct kb_exp_state *s, __u32 g, __u32 i,
			 struct kb_exp_pkt *pkt)
{
	int err;

	if (!s || !pkt || g >= s->x->p.groups)
		return -EINVAL;
	err = state_collect(s, g, i);
	if (err)
		return err;
	if (!s->found)
		return -ENOENT;
	*pkt = s->got;
	/* the tree: the subtree (LIPSIN) or the group's, in the worker */
	return 0;
}

const __u32 *kb_exp_port_groups(const struct kb_exp *x, __u32 port, __u32 *n)
{
	*n = 0;
	if (!x || !x->pres_off || port >= x->topo->nports)
		return NULL;
	*n = (__u32)(x->pres_off[port + 1] - x->pres_off[port]);
	return x->pres_g + x->pres_off[port];
}

int kb_exp_state_port(const struct kb_exp_state *s, __u32 port,
		      struct kb_exp_port_filter *f)
{
	const struct kb_exp *x;
	struct kbloom_stats st;

	if (!s || !f)
		return -EINVAL;
	x = s->x;
	if (port >= x->topo->nports)
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->ngroups = x->port_n ? x->port_n[port] : 0;
	if (s->pf && s->pf[port]) {
		kbloom_stats(s->pf[port], &st);
		f->type = st.type;
		f->m = st.m;
		f->k = st.k;
		f->hash_id = st.hash_id;
		f->seed = st.seed;
		f->words = kbloom_words(s->pf[port], &f->nwords);
		return 0;
	}
	if (s->mf && s->mf[port]) {
		f->type = x->p.mcbf_type;
		f->m = s->bits;
		f->hash_id = KBLOOM_HASH_FAST;
		f->seed = port_seed(x, port);
		f->words = kb_mcbf_words(s->mf[port], &f->nwords);
		f->classes = s->cls[port];
		return 0;
	}
	return -ENOENT;
}
