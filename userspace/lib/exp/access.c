// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the error message and the accessors of an experiment;
 * the leakage ratio of a result, tx_off / tx_tree.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "exp_int.h"

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
