// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: states, what the switches hold under one scheme and M.
 *
 * A state holds the per-port structures of a per-port scheme (made by
 * its ops, scheme.h, in build.c) and the matching candidates of every
 * group, CSR by group (fp_off, fp_port), with each group's predicted
 * matches, and the tree links that miss their group (fn_off, fn_port).
 * Its switch memory, per switch of P ports with G groups through it, M
 * bits per filter:
 *   exact              G (4 + ceil(P / 8))  group address, port bitmap
 *   per-port schemes   P ops->bytes(M)      (standard, blocked: M / 8;
 *                                           mcbf: M / 8 + 16, the class
 *                                           table; a per-switch scheme:
 *                                           its P M bits, M / 8 a port)
 *   lipsin1, lipsin8   P 32, P 8 32         link IDs of 1 or 8 tag sets
 *   msbf               P 8                  link hashes
 *   yesno              P 8 (32 + 8)         link IDs and hashes of 8 sets
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scheme_switch.h"

static int state_alloc(struct kb_exp *x, __u32 scheme, __u64 bits,
		       struct kb_exp_state **sp)
{
	struct kb_exp_state *s = calloc(1, sizeof(*s));
	size_t np = x->topo->nports;

	if (!s)
		return -ENOMEM;
	s->x = x;
	s->scheme = scheme;
	s->ops = exp_scheme(scheme);
	s->bits = s->ops ? bits : 0;
	if (s->ops) {
		s->npred = s->ops->pred_per_class ? x->nclass : 1;
		s->obj = calloc(np + 1, sizeof(*s->obj));
		s->port_k = calloc(np + 1, sizeof(*s->port_k));
		s->port_kn = calloc(np + 1, sizeof(*s->port_kn));
		s->pred = calloc(np * s->npred + 1, sizeof(*s->pred));
		if (s->ops->sw)
			s->sw_obj = calloc(x->nsw + 1, sizeof(*s->sw_obj));
		if (!s->obj || !s->port_k || !s->port_kn || !s->pred ||
		    (s->ops->sw && !s->sw_obj)) {
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
	for (p = 0; s->obj && p < np; p++)
		if (s->obj[p])
			s->ops->destroy(s->obj[p]);
	free(s->obj);
	for (p = 0; s->sw_obj && p < s->x->nsw; p++)
		if (s->sw_obj[p])
			s->ops->sw->destroy(s->sw_obj[p]);
	free(s->sw_obj);
	free(s->port_k);
	free(s->port_kn);
	free(s->pred);
	free(s->fp_off);
	free(s->fp_port);
	free(s->g_pred);
	free(s->fn_off);
	free(s->fn_port);
	free(s->got_trace);
	free(s->got_hdr);
	free(s);
}

static const struct exp_pairs *worker_pairs(const struct kb_exp *x, __u32 i,
					    int fn)
{
	return fn ? &x->w[i].fn : &x->w[i].fp;
}

/*
 * The workers' (group, port) pairs of list fp or (@fn) fn, CSR by group
 * in *@off, *@port.
 */
static int state_pairs(struct kb_exp *x, int fn, __u64 **off, __u32 **port)
{
	__u32 G = x->p.groups, i, g;
	const struct exp_pairs *l;
	__u64 j, n = 0, *pos;

	*off = calloc((size_t)G + 1, sizeof(**off));
	if (!*off)
		return -ENOMEM;
	for (i = 0; i < x->nthreads; i++) {
		l = worker_pairs(x, i, fn);
		for (j = 0; j < l->n; j++)
			(*off)[l->v[2 * j] + 1]++;
		n += l->n;
	}
	for (g = 0; g < G; g++)
		(*off)[g + 1] += (*off)[g];
	*port = malloc((n + 1) * sizeof(**port));
	pos = malloc(((size_t)G + 1) * sizeof(*pos));
	if (!*port || !pos) {
		free(pos);
		return -ENOMEM;
	}
	memcpy(pos, *off, (size_t)G * sizeof(*pos));
	for (i = 0; i < x->nthreads; i++) {
		l = worker_pairs(x, i, fn);
		for (j = 0; j < l->n; j++)
			(*port)[pos[l->v[2 * j]]++] = l->v[2 * j + 1];
	}
	free(pos);
	return 0;
}

/*
 * The matching candidates of every group (the workers' fp pairs from
 * exp_phase_build()) and their predicted number; the tree links that
 * miss their group (fn pairs, may_fn and per-switch schemes); the probes.
 */
static int state_test(struct kb_exp *x, struct kb_exp_state *s)
{
	__u32 G = x->p.groups, i, g;
	int err;

	s->g_pred = calloc((size_t)G + 1, sizeof(*s->g_pred));
	if (!s->g_pred)
		return -ENOMEM;
	if (!s->ops) {	/* exact: nothing matches */
		s->fp_off = calloc((size_t)G + 1, sizeof(*s->fp_off));
		return s->fp_off ? 0 : -ENOMEM;
	}
	for (i = 0; i < x->nthreads; i++) {
		for (g = 0; g < G; g++)
			s->g_pred[g] += x->w[i].g_pred[g];
		s->probes += x->w[i].probes;
		s->tests += x->w[i].tests;
		s->exact += x->w[i].exact;
		s->exact_pred += x->w[i].exact_pred;
	}
	err = state_pairs(x, 0, &s->fp_off, &s->fp_port);
	if (err || (!s->ops->may_fn && !s->ops->sw))
		return err;
	return state_pairs(x, 1, &s->fn_off, &s->fn_port);
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
		if (s->ops) {	/* the scheme's structure per port */
			mem += (__u64)np * s->ops->bytes(x, s->bits);
			continue;
		}
		switch (s->scheme) {
		case KB_EXP_EXACT:	/* group address + port bitmap */
			mem += (__u64)x->sw_groups[i] * (4 + (np + 7) / 8);
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

/* The per-port structures of @s, planned here, built in the threads. */
static int state_ports(struct kb_exp *x, struct kb_exp_state *s)
{
	int err = 0;

	if (s->ops->plan)
		err = s->ops->plan(x, s, &s->plan);
	if (!err)
		err = exp_par_run(x, s->ops->sw ? exp_phase_build_switch :
				  exp_phase_build, s);
	if (s->ops->plan_free)
		s->ops->plan_free(s->plan);
	s->plan = NULL;
	return err;
}

int exp_state_build(struct kb_exp *x, __u32 scheme, __u64 bits,
		    struct kb_exp_state **sp)
{
	struct kb_exp_state *s;
	int err;

	err = state_alloc(x, scheme, bits, &s);
	if (err)
		return err;
	if (s->ops) {
		err = state_ports(x, s);
		if (err)
			goto err_free_state;
	}
	if (s->ops || scheme == KB_EXP_EXACT) {
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
