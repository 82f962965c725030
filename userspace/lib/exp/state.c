// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: states, what the switches hold under one scheme and M.
 *
 * A state holds the per-port filters (built by build.c) and the matching
 * candidates of every group, CSR by group (fp_off, fp_port), with each
 * group's predicted matches.  Its switch memory, per switch of P ports
 * with G groups through it, M bits per filter:
 *   exact              G (4 + ceil(P / 8))  group address, port bitmap
 *   standard, blocked  P M / 8
 *   mcbf               P (M / 8 + 16)       the filter, the class table
 *   lipsin1, lipsin8   P 32, P 8 32         link IDs of 1 or 8 tag sets
 *   msbf               P 8                  link hashes
 *   yesno              P 8 (32 + 8)         link IDs and hashes of 8 sets
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exp_int.h"
#include "uapi/kbloom_plan.h"

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

/*
 * The matching candidates of every group (the workers' pairs from
 * exp_phase_build()): CSR by group.
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
		case KB_EXP_YESNO:	/* link IDs and hashes of 8 tag sets */
			mem += (__u64)np * 8 * (KB_IPBF_ZF_BYTES + 8);
			break;
		}
	}
	return mem;
}

/* MC-BF: the per-thread plan memos; one plan for every port if global. */
static int state_mcbf_plans(struct kb_exp *x, struct kb_exp_state *s,
			    struct build_arg *ba)
{
	const struct kb_topo *t = x->topo;
	double avg_p[KB_MCBF_CLASSES] = { 0 }, avg_a[KB_MCBF_CLASSES] = { 0 };
	struct kb_mcbf_classes glob;
	__u32 p, c, nports = 0;
	int err;

	ba->memo_mcbf = calloc((size_t)PLAN_MEMO * x->nthreads,
			       sizeof(*ba->memo_mcbf));
	if (!ba->memo_mcbf)
		return -ENOMEM;
	if (!x->p.mcbf_global)
		return 0;	/* per-port plans: in the threads */
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
	err = exp_mcbf_plan(x, s->bits, avg_p, avg_a, &glob);
	if (err)
		return err;
	for (p = 0; p < t->nports; p++)
		if (t->nodes[t->ports[p].node].kind == KB_NODE_SWITCH)
			s->cls[p] = glob;
	return 0;
}

/* Standard, blocked: per group count, the k and its predicted rate. */
static int state_k_memo(struct kb_exp *x, struct kb_exp_state *s,
			struct build_arg *ba)
{
	const struct kb_topo *t = x->topo;
	__u32 type = s->scheme == KB_EXP_STANDARD ? KBLOOM_TYPE_STANDARD :
						     KBLOOM_TYPE_BLOCKED;
	__u32 p, n;

	ba->memo = calloc(x->p.groups + 1, 1);
	ba->pred = calloc(x->p.groups + 1, sizeof(*ba->pred));
	if (!ba->memo || !ba->pred)
		return -ENOMEM;
	for (p = 0; p < t->nports; p++) {
		if (t->nodes[t->ports[p].node].kind != KB_NODE_SWITCH)
			continue;
		n = x->port_n[p];
		if (ba->memo[n])
			continue;
		ba->memo[n] = (__u8)exp_best_k(x, type, s->bits, n, NULL);
		ba->pred[n] = exp(exp_ln_q32(kb_plan_ln_fpr(type, s->bits,
							    ba->memo[n], n)));
	}
	return 0;
}

/* The per-port filters of @s, planned here, built in the threads. */
static int state_filters(struct kb_exp *x, struct kb_exp_state *s)
{
	struct build_arg ba = { .s = s };
	int err;

	if (s->scheme == KB_EXP_MCBF)
		err = state_mcbf_plans(x, s, &ba);
	else
		err = state_k_memo(x, s, &ba);
	if (err)
		goto out_free;
	err = exp_par_run(x, exp_phase_build, &ba);
out_free:
	free(ba.memo_mcbf);
	free(ba.memo);
	free(ba.pred);
	return err;
}

int exp_state_build(struct kb_exp *x, __u32 scheme, __u64 bits,
		    struct kb_exp_state **sp)
{
	int filters = !!(KB_EXP_S(scheme) & KB_EXP_PORT_FILTERS);
	struct kb_exp_state *s;
	int err;

	err = state_alloc(x, scheme, bits, &s);
	if (err)
		return err;
	if (filters) {
		err = state_filters(x, s);
		if (err)
			goto err_free_state;
	}
	if (filters || scheme == KB_EXP_EXACT) {
		err = state_test(x, s);
		if (err)
			goto err_free_state;
	}
	s->mem = state_mem(x, s);
	*sp = s;
	return 0;

err_free_state:
	kb_exp_state_free(s);
	return err;
}
