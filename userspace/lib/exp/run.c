// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the model run of a scheme at one M.
 *
 * Every group's packets are forwarded under the scheme's state (forward.c)
 * and counted per run and per bucket of group size, b = floor(log2 size)
 * (at most KB_EXP_BUCKETS - 1): transmissions on and off the tree, whose
 * ratio tx_off / tx_tree is the leakage, and per switch the off-tree
 * transmissions it decided, its candidate links and those that matched.
 * A run's CPU time is its workers' plus the calling thread's serial parts.
 */
#include <stdatomic.h>
#include <string.h>

#include "exp_int.h"

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
	m->fn_links += pk->cand_fn;
	if (pk->receivers > pk->res.delivered)
		m->lost += pk->receivers - pk->res.delivered;
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
	d->fn_links += s->fn_links;
	d->lost += s->lost;
}

/*
 * Add packet @pk to the run and to its size bucket, and its off-tree
 * transmissions to their switches (those of a per-port whole walk are
 * there already: forward.c counts them list by list and gives no trace).
 */
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

	while (exp_grab(x, &lo, &hi)) {
		for (g = lo; g < hi; g++) {
			err = exp_state_group(w, s, g, acc_pkt, NULL, &w->acc);
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
	double c0 = exp_cpu_s(), w0 = 0;
	__u32 i, j, p;
	int err;

	for (i = 0; i < x->nthreads; i++)
		w0 += x->w[i].cpu;
	err = exp_state_build(x, r->scheme, r->bits, &s);
	if (err)
		return kb_exp_set_error(x, err, "%s: building the state: %s",
				kb_exp_scheme_name(r->scheme), strerror(-err));
	s->fast = 1;
	for (i = 0; i < x->nthreads; i++)
		acc_reset(x, &x->w[i]);
	err = exp_par_run(x, phase_forward, s);
	if (err) {
		kb_exp_state_free(s);
		return kb_exp_set_error(x, err, "%s: forwarding: %s",
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
	r->seconds += exp_cpu_s() - c0;
	r->m.mem_bytes = s->mem;
	r->m.probes = s->probes;
	r->m.port_tests = s->tests;
	r->m.exact_tests = s->exact;
	r->m.exact_pred = s->exact_pred;
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
		r->m.k_ports += s->port_kn[p];
	}
	kb_exp_state_free(s);
	return 0;
}

int kb_exp_prepare(struct kb_exp *x)
{
	return x ? exp_prepare(x) : -EINVAL;
}

int kb_exp_run(struct kb_exp *x)
{
	__u32 i;
	int err;

	if (!x)
		return -EINVAL;
	err = exp_prepare(x);
	if (err)
		return err;
	for (i = 0; i < x->nruns; i++) {
		err = run_one(x, &x->runs[i]);
		if (err)
			return err;
	}
	x->seconds = exp_now_s() - x->t0;
	exp_progress_tick(x);
	return 0;
}
