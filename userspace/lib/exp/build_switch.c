// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the per-switch structures (scheme_switch.h), built and
 * tested in the threads.
 *
 * The switches are shared out statically, switch i to worker i mod T.  A
 * worker has the scheme build the structure of each of its switches from
 * the (group, port) pairs of the switch's ports (the present groups of
 * each port), then asks its "which ports" query once per group tested at
 * the switch (a group present on, or a candidate of, one of its ports:
 * the switch is on the group's tree, and a packet of the group asks it
 * once there; the cache lines it reads are the probes) and reads the
 * answer for each candidate port (a match is a (group, port) first-order
 * false positive, as for a per-port scheme) and each present port (a
 * miss is a false negative: the answers are at hand, so every per-switch
 * scheme is checked, may_fn or not).  The switch's predicted
 * rate p adds to each candidate group's expected matches.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "scheme_switch.h"

/* One worker's space for its switches, freed at the end of the phase. */
struct sw_scratch {
	__u8 *keys;		/* the switch's pairs: keys, local ports */
	__u32 *kport;
	__u64 cap;
	__u32 *mark;		/* per group: 1 + the switch of its answer */
	__u32 *slot;		/* per group: its answer's index in ans */
	__u64 *ans;		/* answers, words each */
	__u64 nans;
	__u64 cap_ans;		/* in words */
	__u32 words;
};

static void scratch_free(struct sw_scratch *sc)
{
	free(sc->keys);
	free(sc->kport);
	free(sc->mark);
	free(sc->slot);
	free(sc->ans);
}

static int scratch_grow(struct sw_scratch *sc, __u64 n)
{
	void *nk, *np;

	if (n <= sc->cap)
		return 0;
	nk = realloc(sc->keys, n * 4);
	if (!nk)
		return -ENOMEM;
	sc->keys = nk;
	np = realloc(sc->kport, n * sizeof(*sc->kport));
	if (!np)
		return -ENOMEM;
	sc->kport = np;
	sc->cap = n;
	return 0;
}

/* The (group, local port) pairs of switch node @v in @sc; their number. */
static int switch_pairs(const struct kb_exp *x, __u32 v,
			struct sw_scratch *sc, __u64 *np)
{
	const struct kb_topo *t = x->topo;
	__u32 first = t->nodes[v].first_port, j, p;
	__u64 n, i, lo, hi;
	int err;

	p = first + t->nodes[v].nports;
	n = x->pres_off[p] - x->pres_off[first];
	err = scratch_grow(sc, n);
	if (err)
		return err;
	n = 0;
	for (j = 0; j < t->nodes[v].nports; j++) {
		lo = x->pres_off[first + j];
		hi = x->pres_off[first + j + 1];
		for (i = lo; i < hi; i++, n++) {
			memcpy(sc->keys + 4 * n, &x->gkey[x->pres_g[i]], 4);
			sc->kport[n] = j;
		}
	}
	*np = n;
	return 0;
}

/* Switch @i's structure; its k and prediction on each of its ports. */
static int switch_build(struct exp_worker *w, struct kb_exp_state *s,
			__u32 i, struct sw_scratch *sc)
{
	const struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	__u32 v = x->sw[i], first = t->nodes[v].first_port, j;
	struct exp_switch_ctx c = {
		.x = x, .s = s, .worker = w->id, .sw = i,
		.nports = t->nodes[v].nports, .bits = s->bits,
		.seed = exp_port_seed(x, first),
	};
	int err;

	if (c.nports > EXP_SW_PORTS_MAX)
		return -E2BIG;
	err = switch_pairs(x, v, sc, &c.n);
	if (err)
		return err;
	c.keys = sc->keys;
	c.kport = sc->kport;
	err = s->ops->sw->build(&c, &s->sw_obj[i]);
	if (err)
		return err;
	for (j = 0; j < c.nports; j++) {
		s->port_k[first + j] = c.k;
		s->port_kn[first + j] = 1;
		s->pred[(size_t)(first + j) * s->npred] = c.pred;
	}
	return 0;
}

/*
 * Group @g's answer at switch @i: asked the first time (its cache lines
 * to w->probes), then kept.
 */
static const __u64 *switch_answer(struct exp_worker *w,
				  const struct kb_exp_state *s, __u32 i,
				  __u32 g, struct sw_scratch *sc)
{
	__u64 ports[EXP_SW_WORDS], *na;
	__u8 key[4];

	if (sc->mark[g] == i + 1)
		return sc->ans + sc->slot[g] * sc->words;
	if ((sc->nans + 1) * sc->words > sc->cap_ans) {
		sc->cap_ans = 2 * (sc->nans + 1) * sc->words + 1024;
		na = realloc(sc->ans, sc->cap_ans * sizeof(*na));
		if (!na)
			return NULL;
		sc->ans = na;
	}
	kb_exp_group_addr(w->x, g, key);
	w->probes += exp_switch_query(s, i, key, ports);
	sc->mark[g] = i + 1;
	sc->slot[g] = (__u32)sc->nans;
	memcpy(sc->ans + sc->nans * sc->words, ports,
	       sc->words * sizeof(*ports));
	return sc->ans + sc->nans++ * sc->words;
}

/*
 * The answers of switch @i for local port @j to groups @g[0..n): those
 * that are @want go to @l as (group, port) pairs.
 */
static int switch_port_answers(struct exp_worker *w,
			       const struct kb_exp_state *s, __u32 i,
			       __u32 j, const __u32 *g, __u64 n, int want,
			       struct exp_pairs *l, struct sw_scratch *sc)
{
	__u32 first = w->x->topo->nodes[w->x->sw[i]].first_port;
	const __u64 *a;
	__u64 q;
	int err;

	for (q = 0; q < n; q++) {
		a = switch_answer(w, s, i, g[q], sc);
		if (!a)
			return -ENOMEM;
		if ((int)((a[j / 64] >> (j % 64)) & 1) != want)
			continue;
		err = exp_pairs_push(l, g[q], first + j);
		if (err)
			return err;
	}
	return 0;
}

/* Switch @i's candidates and present groups against its answers. */
static int switch_test(struct exp_worker *w, const struct kb_exp_state *s,
		       __u32 i, struct sw_scratch *sc)
{
	const struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	__u32 v = x->sw[i], first = t->nodes[v].first_port, j, p;
	__u64 q, off, n, np;
	double pred;
	int err;

	sc->nans = 0;
	for (j = 0; j < t->nodes[v].nports; j++) {
		p = first + j;
		off = x->cand_off[p];
		n = x->cand_off[p + 1] - off;
		pred = exp_port_pred(s, p, 0);
		for (q = 0; q < n; q++)
			w->g_pred[x->cand_g[off + q]] += pred;
		np = x->pres_off[p + 1] - x->pres_off[p];
		w->tests += n + np;
		err = switch_port_answers(w, s, i, j, x->cand_g + off, n, 1,
					  &w->fp, sc);
		if (!err)
			err = switch_port_answers(w, s, i, j,
						  x->pres_g + x->pres_off[p],
						  np, 0, &w->fn, sc);
		if (err)
			return err;
	}
	return 0;
}

int exp_phase_build_switch(struct exp_worker *w, void *arg)
{
	struct kb_exp_state *s = arg;
	struct kb_exp *x = w->x;
	struct sw_scratch sc = { 0 };
	__u32 i, np;
	int err = -ENOMEM;

	exp_phase_reset(w);
	sc.mark = calloc((size_t)x->p.groups + 1, sizeof(*sc.mark));
	sc.slot = calloc((size_t)x->p.groups + 1, sizeof(*sc.slot));
	if (!sc.mark || !sc.slot)
		goto out_free_scratch;
	for (i = w->id; i < x->nsw; i += x->nthreads) {
		np = x->topo->nodes[x->sw[i]].nports;
		sc.words = (np + 63) / 64;
		err = switch_build(w, s, i, &sc);
		if (!err)
			err = switch_test(w, s, i, &sc);
		if (err)
			goto out_free_scratch;
		atomic_fetch_add(&x->done, 2 * np);
	}
	err = 0;
out_free_scratch:
	scratch_free(&sc);
	return err;
}
