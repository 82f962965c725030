// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: construction and destruction of an experiment.
 *
 * kb_exp_new() checks the parameters (params.c), builds the topology,
 * completes what depends on it (the largest group: every host; the
 * reference M: the middle one; threads: the CPUs, at most 8), and makes
 * the runs (one per scheme, one per scheme and M for the per-port
 * filters), the link IDs (8 tag sets) and the workers.  Progress counts,
 * for G groups: 2 G (trees, per-port counts), G more for the per-port
 * lists, and per run G plus, for the per-port schemes, 2 per switch port
 * (building its filter, testing its candidates).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exp_int.h"

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
			return kb_exp_set_error(x, err, "%s", why);
		return 0;
	}
	if (err)
		return kb_exp_set_error(x, err, "topology: %s", strerror(-err));
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

/* What depends on the topology; -errno with the reason in x->err. */
static int new_params(struct kb_exp *x)
{
	int err;

	if (!x->p.size_max || x->p.dist == KB_EXP_DIST_FIXED)
		x->p.size_max = x->p.dist == KB_EXP_DIST_FIXED ?
				x->p.size_min : x->topo->nhosts;
	err = kb_exp_params_check(&x->p, x->topo->nhosts, x->err,
				  sizeof(x->err));
	if (err)
		return err;
	x->size_max = x->p.size_max;
	if (!x->p.ref_bits && x->p.nbits)
		x->p.ref_bits = x->p.bits[(x->p.nbits - 1) / 2];
	if (!x->p.nclass)
		x->p.nclass = 1;
	x->nthreads = x->p.threads ? x->p.threads : default_threads();
	return 0;
}

/* The size table, the switches, the runs, the groups and the workers. */
static int new_tables(struct kb_exp *x)
{
	__u32 i;
	int err;

	if (x->p.dist == KB_EXP_DIST_ZIPF) {
		err = exp_zipf_table(x);
		if (err)
			return err;
	}
	err = index_switches(x);
	if (err)
		return err;
	err = add_runs(x);
	if (err)
		return err;
	x->grp = calloc(x->p.groups, sizeof(*x->grp));
	x->w = calloc(x->nthreads, sizeof(*x->w));
	if (!x->grp || !x->w)
		return -ENOMEM;
	for (i = 0; i < x->nthreads; i++) {
		err = exp_worker_init(x, &x->w[i], i);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Progress units: a group (trees, counts, candidate lists, forwarding in
 * every run), and a switch port twice in each per-port run (building its
 * filter, testing its candidates).
 */
static __u64 progress_total(const struct kb_exp *x)
{
	__u64 total = 2ULL * x->p.groups;
	__u32 i;

	if (x->p.schemes & (KB_EXP_PORT_FILTERS | KB_EXP_S(KB_EXP_EXACT)))
		total += x->p.groups;
	for (i = 0; i < x->nruns; i++)
		total += x->p.groups +
			 ((KB_EXP_S(x->runs[i].scheme) & KB_EXP_PORT_FILTERS) ?
			  2ULL * switch_ports(x) : 0);
	return total;
}

int kb_exp_new(const struct kb_exp_params *p, struct kb_exp **xp,
	       char *why, size_t len)
{
	struct kb_exp *x;
	int err;

	if (!p || !xp)
		return -EINVAL;
	err = kb_exp_params_check(p, 0, why, len);
	if (err)
		return err;
	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	x->t0 = exp_now_s();
	x->p = *p;
	if (p->topo_file) {
		x->topo_file = strdup(p->topo_file);
		if (!x->topo_file) {
			err = -ENOMEM;
			goto err_msg;
		}
	}
	x->p.topo_file = x->topo_file;
	err = build_topo(x);
	if (err)
		goto err_free;
	err = new_params(x);
	if (err)
		goto err_free;
	err = new_tables(x);
	if (err)
		goto err_msg;
	if (x->p.schemes & KB_EXP_IN_PACKET) {
		err = kb_lids_new(x->topo, exp_sub_seed(x, SEED_LIDS, 0),
				  x->p.lipsin_k, 8, &x->lids);
		if (err) {
			kb_exp_set_error(x, err, "link IDs: %s", strerror(-err));
			goto err_free;
		}
	}
	x->total = progress_total(x);
	*xp = x;
	return 0;

err_msg:
	kb_exp_set_error(x, err, "%s", err == -ENOMEM ? "out of memory" :
					 strerror(-err));
err_free:
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
		exp_worker_free(&x->w[i]);
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
	free(x->gmix);
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
