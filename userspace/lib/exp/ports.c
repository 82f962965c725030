// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: per-port counts and lists of the groups.
 *
 * For every switch port p and class c, over the groups' trees:
 *   present[p][c]  groups of class c whose tree uses p (inserted into p's
 *                  filter);
 *   absent[p][c]   groups of class c for which p is a candidate link: a
 *                  port of a tree switch that is neither a tree link nor
 *                  the switch's ingress (tested on p, absent);
 * and the lists themselves, CSR by port: the present groups ascending
 * (pres_off, pres_g), the candidates class by class, ascending within a
 * class (cand_off, cand_g).  Two passes over the trees with one static
 * split of the groups: the first counts (exp_phase_counts()), the second
 * writes each worker's share from the starts the counts give
 * (cand_starts()).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "exp_int.h"

/*
 * The groups of worker @w in the two passes over the trees that make the
 * port lists (exp_phase_counts(), phase_cands()): a fixed share, so that the
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
int exp_phase_counts(struct exp_worker *w, void *arg)
{
	struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	struct kb_tree *tr = w->tr;
	__u32 lo, hi, g, i, v, p, end, c, nc = x->nclass, n = 0;

	(void)arg;
	group_share(w, &lo, &hi);
	for (g = lo; g < hi; g++) {
		exp_group_tree(x, g, tr);
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
		exp_group_tree(x, g, tr);
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

int exp_candidates(struct kb_exp *x)
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
	err = exp_par_run(x, phase_cands, pos);
	free(pos);
	return err;
}
