// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the MC-BF class table of each port.
 *
 * Port p's classes are planned on its own counts: class c with P_c groups
 * present and A_c candidates (tested while absent) has N_c = P_c + A_c
 * groups of presence p_c = P_c / N_c (the class's probability when
 * N_c = 0) and weight 1, so that kb_mcbf_optimize() minimises the port's
 * expected false positives sum_c A_c rho^k_c; the best single k for every
 * class is kept when it does better.  The counts are rounded to 2% on a
 * log scale first, q = round(ln(1 + n) / ln 1.02): ports of the same role
 * then share one optimisation, through a per-thread memo of PLAN_MEMO
 * entries (open addressing on an FNV-1a hash of the q's).
 */
#include <math.h>
#include <string.h>

#include "exp_int.h"

#define EXP_MCBF_K_MAX		16U
#define PLAN_STEP	0.0198026272961797	/* ln 1.02 */

/*
 * The MC-BF class table for a port where class c has @pres[c] groups
 * present (inserted) and @abs[c] tested while absent (candidates): the
 * optimiser's objective is then the port's expected false positives,
 * with each class's presence probability pres / (pres + abs) as measured
 * on this port; the best single k for every class is kept if the search
 * finds nothing better.
 */
int exp_mcbf_plan(const struct kb_exp *x, __u64 m, const double *pres,
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

static __u32 quant(double n, double *back)
{
	__u32 q = (__u32)lround(log1p(n) / PLAN_STEP);

	*back = expm1(q * PLAN_STEP);
	return q;
}

int exp_mcbf_port_plan(const struct kb_exp *x, __u64 m, __u32 p,
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
	err = exp_mcbf_plan(x, m, pres, abs, out);
	if (err || tries == PLAN_MEMO)
		return err;
	e->used = 1;
	memcpy(e->q, q, sizeof(q));
	e->cls = *out;
	return 0;
}
