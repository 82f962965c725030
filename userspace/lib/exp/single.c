// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: single packets and single ports, for the emulation.
 *
 * A state made by kb_exp_state_new() is the one a model run uses, without
 * the model's shortcut (a group with no matching candidate is followed
 * too), so that kb_exp_state_forward() returns the very packet the model
 * counted: its header, its tree (kept in worker 0) and its transmissions;
 * kb_exp_state_port() returns one port's filter as the XDP programs are to
 * hold it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scheme.h"

int kb_exp_state_new(struct kb_exp *x, __u32 scheme, __u64 bits,
		     struct kb_exp_state **sp)
{
	int err;

	if (!x || !sp || scheme >= KB_EXP_NSCHEMES)
		return -EINVAL;
	if ((KB_EXP_S(scheme) & KB_EXP_IN_PACKET) && !x->lids)
		return kb_exp_set_error(x, -EINVAL,
				"%s: the experiment has no in-packet scheme (no link IDs)",
				kb_exp_scheme_name(scheme));
	if ((KB_EXP_S(scheme) & KB_EXP_PORT_FILTERS) &&
	    !(x->p.schemes & (KB_EXP_PORT_FILTERS | KB_EXP_S(KB_EXP_EXACT))))
		return kb_exp_set_error(x, -EINVAL,
				"%s: the experiment has no per-port scheme (no port lists)",
				kb_exp_scheme_name(scheme));
	if (exp_scheme(scheme) &&
	    (!bits || bits % exp_scheme_step(&x->p, KB_EXP_S(scheme))))
		return kb_exp_set_error(x, -ERANGE, "%s: bits %llu: not a valid size",
				kb_exp_scheme_name(scheme),
				(unsigned long long)bits);
	err = exp_prepare(x);
	if (err)
		return err;
	err = exp_state_build(x, scheme, bits, sp);
	if (err)
		return kb_exp_set_error(x, err, "%s: %s", kb_exp_scheme_name(scheme),
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
	err = exp_state_group(s->w, s, g, keep_pkt, s, NULL);
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

	if (!s || !f)
		return -EINVAL;
	x = s->x;
	if (port >= x->topo->nports)
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->ngroups = x->port_n ? x->port_n[port] : 0;
	if (!s->obj || !s->obj[port])
		return -ENOENT;
	if (!s->ops->export)
		return -EOPNOTSUPP;
	return s->ops->export(s, port, s->obj[port], f);
}
