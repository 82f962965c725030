// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the groups' receivers, sources and delivery trees.
 *
 * Group g draws from its own stream (rng.c): its size, then among the H
 * hosts min(size, H - size) distinct ones uniformly (the receivers, or
 * for a group of more than H / 2 the hosts that are not), then its source
 * uniformly among the hosts that are not receivers (any host when every
 * host is).  Its tree is the shortest-path tree from the source to the
 * receivers, equal-cost parents chosen with a per-group seed
 * (kb_spt_compute(), kb_tree_build()); it is kept as its list of links,
 * parents first, and rebuilt from it where needed (exp_group_tree()).
 *
 * Its presence probability is p = S / (S + C): S its tree links that
 * leave a switch, C its candidate links (ports of its tree switches that
 * are neither tree links nor the switch's ingress), so that p is the share
 * of the group's per-port tests that find it present.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "exp_int.h"

/* The receivers of group @g, ascending, and its source. */
static void draw_group(struct exp_worker *w, __u32 g)
{
	struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	struct exp_group *gr = &x->grp[g];
	__u32 *dst = x->members + gr->moff, nh = t->nhosts, i, n = 0, h;
	__u64 s = exp_group_stream(x, g);
	int complement = gr->size > nh / 2;
	__u32 want = complement ? nh - gr->size : gr->size;

	exp_draw_size(x, &s);	/* the size was drawn from the same stream */
	if (++w->epoch == 0) {
		memset(w->mark, 0, t->nnodes * sizeof(*w->mark));
		w->epoch = 1;
	}
	/* mark @want hosts: the receivers, or the hosts that are not */
	while (n < want) {
		h = exp_rng_below(&s, nh);
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
		gr->src = dst[exp_rng_below(&s, nh)];
		return;
	}
	for (;;) {
		h = exp_rng_below(&s, nh);
		if ((w->mark[h] == w->epoch) == complement) {
			gr->src = t->hosts[h];
			return;
		}
	}
}

/* Rebuild group @g's tree in @tr from its links. */
void exp_group_tree(const struct kb_exp *x, __u32 g, struct kb_tree *tr)
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

/* Group @g: its receivers, source and tree, its presence probability. */
static int group_build(struct exp_worker *w, __u32 g)
{
	struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	struct exp_group *gr = &x->grp[g];
	struct kb_tree *tr = w->tr;
	__u32 sw;
	int err;

	draw_group(w, g);
	err = kb_spt_compute(w->spt, gr->src,
			     exp_sub_seed(x, SEED_ECMP, g) | 1);
	if (err)
		return err;
	err = kb_tree_build(tr, w->spt, x->members + gr->moff, gr->size);
	if (err)
		return err;
	gr->links = malloc((tr->nlinks + 1) * sizeof(__u32));
	if (!gr->links)
		return -ENOMEM;
	memcpy(gr->links, tr->links, tr->nlinks * sizeof(__u32));
	gr->nlinks = tr->nlinks;
	gr->height = tr->height;
	gr->cand = kb_tree_candidates(tr);
	sw = tr->nlinks - (t->nodes[gr->src].kind == KB_NODE_HOST);
	gr->presence = sw + gr->cand ? (double)sw / (sw + gr->cand) : 1.0;
	return 0;
}

int exp_phase_trees(struct exp_worker *w, void *arg)
{
	struct kb_exp *x = w->x;
	__u32 lo, hi, g;
	int err;

	(void)arg;
	while (exp_grab(x, &lo, &hi)) {
		for (g = lo; g < hi; g++) {
			err = group_build(w, g);
			if (err)
				return err;
		}
		atomic_fetch_add(&x->done, hi - lo);
	}
	return 0;
}
