// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the packets of a group under a state.
 *
 * Per-port schemes follow the rule of the mcast data path: a switch
 * offers a copy to every port but the ingress one and each port sends it
 * iff its filter (kbloom_test(), kb_mcbf_test_v4()) says the group may be
 * there (exact: iff it is a tree link; a scheme that may miss a group
 * drops it on the tree links that miss it, and its receivers below are
 * lost); a per-switch scheme's switch asks its "which ports" query once
 * for all its ports (switch_query.c); hosts deliver and never forward;
 * there is no hop limit, so a loop of false positives is followed until
 * max_tx and counted as looped.  Copies are followed breadth first, each
 * on its own, as on the wire: tx = tx_tree + tx_off transmissions, and at
 * the hosts delivered (a receiver's first copy), dup (again) and
 * leaked_hosts (not a receiver).
 *
 * Model runs (s->fast) need only the counts and the off-tree
 * transmissions: a group none of whose candidates matched goes along its
 * tree, and one with matches (but no tree link that misses it) follows
 * only the copies its matching candidates send, with the tree's
 * transmissions and deliveries counted whole (fwd_cascades()); the walk
 * of every copy from the source (fwd_bfs()) is for the rest, for packets
 * that max_tx may cut (the order of the copies then counts), and for
 * kb_exp_state_forward(), whose trace is every transmission.  A packet
 * whose matching candidates reach a cycle of ports (fwd_loops()) makes
 * copies for ever: it is cut at max_tx, so it takes the whole walk at once.
 *
 * The in-packet schemes are in in_packet.c; exp_state_group() picks.
 */
#include <string.h>

#include "scheme_switch.h"

/* Does port @p (not a tree link) send this group? */
static int port_decide(const struct kb_exp_state *s, __u32 p,
		       const __u8 *addr)
{
	if (!s->ops)
		return 0;	/* exact: only tree links */
	return s->obj[p] && s->ops->test(s->obj[p], addr) == 1;
}

/*
 * port_decide() for this packet, once per port: copies that reach a switch
 * again (cascades, duplicates) find its answers, and so does the walk
 * after the loop search (an answer marked since the packet's first epoch,
 * w->dep, holds: it depends only on the port and the group).
 */
static inline int fwd_decide(struct exp_worker *w,
			     const struct kb_exp_state *s, __u32 p,
			     const __u8 *addr)
{
	if (w->dmark[p] < w->dep && s->sw_obj) {
		exp_switch_decide(w, s, p, addr);	/* all its ports */
	} else if (w->dmark[p] < w->dep) {
		w->dmark[p] = w->fepoch;
		w->dval[p] = (__u8)port_decide(s, p, addr);
	}
	return w->dval[p];
}

/*
 * A copy arrives at host @v.  @tree_done: the tree's own copies are not
 * followed (fwd_cascades()): every member but the source has one already.
 */
static void fwd_arrive(struct exp_worker *w, const struct kb_tree *tr,
		       __u32 v, int tree_done, struct kb_sim_result *r)
{
	if (!tr->member[v]) {
		r->leaked_hosts++;
	} else if (tree_done && v != tr->src) {
		r->dup++;
	} else if (w->seen[v] != w->fepoch) {
		w->seen[v] = w->fepoch;
		r->delivered++;
	} else {
		r->dup++;
	}
}

static __u32 nfp_of(const struct kb_exp_state *s, __u32 g)
{
	return s->fp_off ? (__u32)(s->fp_off[g + 1] - s->fp_off[g]) : 0;
}

static __u32 nfn_of(const struct kb_exp_state *s, __u32 g)
{
	return s->fn_off ? (__u32)(s->fn_off[g + 1] - s->fn_off[g]) : 0;
}

/*
 * A new packet (@again: the same packet walked again): its epoch, with
 * the ports of @g whose decision is not what the tree says marked: the
 * matching candidates (sent although off the tree) and the tree links
 * that miss the group (not sent).  The ports' answers of the packet are
 * kept for a walk again (w->dep).
 */
static __u32 fwd_start(struct exp_worker *w, const struct kb_exp_state *s,
		       __u32 g, __u32 nfp, int again)
{
	const struct kb_topo *t = w->x->topo;
	__u32 i;

	if (++w->fepoch == 0) {
		memset(w->seen, 0, t->nnodes * sizeof(*w->seen));
		memset(w->fpmark, 0, t->nports * sizeof(*w->fpmark));
		memset(w->dmark, 0, t->nports * sizeof(*w->dmark));
		memset(w->lmark, 0, t->nports * sizeof(*w->lmark));
		w->fepoch = 1;
		again = 0;
	}
	if (!again)
		w->dep = w->fepoch;
	for (i = 0; i < nfp; i++)
		w->fpmark[s->fp_port[s->fp_off[g] + i]] = w->fepoch;
	for (i = 0; i < nfn_of(s, g); i++)
		w->fpmark[s->fn_port[s->fn_off[g] + i]] = w->fepoch;
	w->ntrace = 0;
	return w->fepoch;
}

/* The state of one packet's copies, breadth first (fwd_copies()). */
struct fwd_walk {
	const struct kb_tree *tr;
	const __u8 *addr;
	__u32 ep;
	__u32 tail;		/* copies queued in w->q */
	__u32 max_tx;		/* transmissions allowed in w->trace */
	int tree_done;		/* fwd_arrive() */
	__u64 *sw_fp;		/* fwd_bfs(): off-tree copies per switch */
};

/*
 * Does switch port @p send this packet's copy?  @tsw: its switch is on the
 * tree, whose ingress port there is @tin.  A tree switch sends on its tree
 * links but those that miss the group and on the candidates that matched
 * (the marked ports flip the tree's answer), and tests its tree ingress
 * port (a copy back up the tree, or into it from off the tree); any other
 * switch tests every port.
 */
static inline int fwd_switch_sends(struct exp_worker *w,
				   const struct kb_exp_state *s,
				   const struct fwd_walk *fw, int tsw,
				   __u32 tin, __u32 p)
{
	if (tsw && p != tin)
		return fw->tr->on_tree[p] ^ (w->fpmark[p] == fw->ep);
	return fw->tr->on_tree[p] || fwd_decide(w, s, p, fw->addr);
}

/* Send the copy on port @p: 0, or -1 past fw->max_tx transmissions. */
static inline int fwd_send(struct exp_worker *w, struct fwd_walk *fw,
			   const struct kb_topo *t, __u32 p,
			   struct kb_sim_result *r)
{
	if (w->ntrace >= fw->max_tx)
		return -1;
	w->trace[w->ntrace++] = p;
	r->tx_off += !fw->tr->on_tree[p];
	w->q[fw->tail++] = (struct exp_copy){ t->ports[p].peer_node,
					      t->ports[p].peer };
	return 0;
}

/*
 * The queued copies of the packet to fw->addr on tree fw->tr and those
 * they make, breadth first, each on its own; transmissions in w->trace.
 * Return: 0, or -1 when a copy would pass fw->max_tx transmissions.
 */
static int fwd_copies(struct exp_worker *w, const struct kb_exp_state *s,
		      struct fwd_walk *fw, struct kb_sim_result *r)
{
	const struct kb_topo *t = w->x->topo;
	const struct kb_tree *tr = fw->tr;
	__u32 head = 0, p, end, v, tin;
	int fwd, host, tsw;

	while (head < fw->tail) {
		struct exp_copy c = w->q[head++];

		v = c.node;
		p = t->nodes[v].first_port;
		end = p + t->nodes[v].nports;
		/* a host delivers (the source sends on its links) */
		host = t->nodes[v].kind == KB_NODE_HOST;
		if (host && c.in_port != KB_NONE) {
			fwd_arrive(w, tr, v, fw->tree_done, r);
			continue;
		}
		tsw = !host && tr->depth[v] != KB_NONE;
		tin = tr->in_port[v];
		for (; p < end; p++) {
			if (p == c.in_port)
				continue;
			fwd = host || fwd_switch_sends(w, s, fw, tsw, tin, p);
			if (fwd && fwd_send(w, fw, t, p, r))
				return -1;
		}
	}
	return 0;
}

/* Count @n off-tree copies sent by switch @v (fw->sw_fp, if counted). */
static inline void fwd_count_sw(struct exp_worker *w, const struct fwd_walk *fw,
				__u32 v, __u32 n, struct kb_sim_result *r)
{
	r->tx_off += n;
	if (fw->sw_fp && n)
		fw->sw_fp[w->x->sw_index[v]] += n;
}

/*
 * Append the copies that the copy on port @pin makes at switch @v, its
 * list made before (w->lstk[@pin]: where it is in the trace, its length;
 * w->loff[@pin] of them off the tree), to the walk.  Return: 0, or -1
 * past fw->max_tx transmissions.
 */
static int fwd_repeat(struct exp_worker *w, const struct fwd_walk *fw,
		      __u32 pin, __u32 v, struct kb_sim_result *r)
{
	const __u32 *from = w->trace + w->lstk[pin].port;
	__u32 room = fw->max_tx - w->ntrace, n = w->lstk[pin].next, i, off;

	if (n <= room) {
		memcpy(w->trace + w->ntrace, from, n * sizeof(*from));
		w->ntrace += n;
		fwd_count_sw(w, fw, v, w->loff[pin], r);
		return 0;
	}
	for (i = 0, off = 0; i < room; i++) {
		w->trace[w->ntrace++] = from[i];
		off += !fw->tr->on_tree[from[i]];
	}
	fwd_count_sw(w, fw, v, off, r);
	return -1;
}

/*
 * The copies that the copy sent on port @pin makes at switch @v, in port
 * order, appended to the walk, and kept as this packet's list of @pin
 * (w->lmark, w->lstk: where it is in the trace and its length, w->loff:
 * how many are off the tree).  Return: 0, or -1 past fw->max_tx
 * transmissions.
 */
static int fwd_expand(struct exp_worker *w, const struct kb_exp_state *s,
		      const struct fwd_walk *fw, __u32 pin, __u32 v,
		      struct kb_sim_result *r)
{
	const struct kb_topo *t = w->x->topo;
	__u32 p = t->nodes[v].first_port, end = p + t->nodes[v].nports;
	__u32 in = t->ports[pin].peer, from = w->ntrace, off = 0;
	int tsw = fw->tr->depth[v] != KB_NONE;

	for (; p < end; p++) {
		if (p == in ||
		    !fwd_switch_sends(w, s, fw, tsw, fw->tr->in_port[v], p))
			continue;
		if (w->ntrace >= fw->max_tx) {
			fwd_count_sw(w, fw, v, off, r);
			return -1;
		}
		w->trace[w->ntrace++] = p;
		off += !fw->tr->on_tree[p];
	}
	fwd_count_sw(w, fw, v, off, r);
	w->lmark[pin] = fw->ep;
	w->lstk[pin] = (struct exp_lpath){ from, w->ntrace - from };
	w->loff[pin] = off;
	return 0;
}

/*
 * Every copy of the packet from the tree's source: the tree's, the false
 * positives' and their cascades (at most max_tx: then truncated), breadth
 * first, each on its own, as fwd_copies() does.  Each copy is queued as
 * it is sent, so the trace is the queue: the copy sent on w->trace[i]
 * makes its copies when i comes.  These depend only on the port it came
 * by, so each port's list is found once per packet and later copied from
 * the trace (the loop search is over: its w->lmark and w->lstk hold the
 * lists, under a new epoch).
 */
static void fwd_bfs(struct exp_worker *w, const struct kb_exp_state *s,
		    struct fwd_walk *fw, struct kb_sim_result *r)
{
	const struct kb_topo *t = w->x->topo;
	const struct kb_node *src = &t->nodes[fw->tr->src];
	__u32 head, p, v;
	int err = 0;

	fw->tree_done = 0;
	for (p = src->first_port; p < src->first_port + src->nports; p++) {
		if (w->ntrace >= fw->max_tx) {
			r->truncated = 1;
			return;
		}
		w->trace[w->ntrace++] = p;
		r->tx_off += !fw->tr->on_tree[p];
	}
	for (head = 0; head < w->ntrace && !err; head++) {
		p = w->trace[head];
		v = t->ports[p].peer_node;
		if (t->nodes[v].kind == KB_NODE_HOST)
			fwd_arrive(w, fw->tr, v, 0, r);
		else if (w->lmark[p] == fw->ep)
			err = fwd_repeat(w, fw, p, v, r);
		else
			err = fwd_expand(w, s, fw, p, v, r);
	}
	if (err)
		r->truncated = 1;
}

/*
 * The same packet without following its tree, whose copies go along the
 * tree once each (no tree link misses the group): they make its nlinks
 * tree transmissions and reach every receiver, and the tree switches
 * send on the @nfp matching candidates of group @g.  Only the copies of
 * those are followed, from the same rules; the result is fwd_bfs()'s as
 * long as no truncation makes the order count.  Return: 0, or -1 when
 * the tree's and these transmissions together would pass max_tx.
 */
static int fwd_cascades(struct exp_worker *w, const struct kb_exp_state *s,
			struct fwd_walk *fw, __u32 g, __u32 nfp,
			struct kb_sim_result *r)
{
	const struct kb_topo *t = w->x->topo;
	const __u32 *fp = s->fp_port + s->fp_off[g];
	__u32 nlinks = fw->tr->nlinks, i;

	if (nlinks > fw->max_tx)
		return -1;
	fw->max_tx -= nlinks;
	fw->tail = 0;
	fw->tree_done = 1;
	for (i = 0; i < nfp; i++)
		if (fwd_send(w, fw, t, fp[i], r))
			return -1;
	return fwd_copies(w, s, fw, r);
}

/* Put the copy on port @p on the loop search's path (*@sp steps). */
static void fwd_loop_push(struct exp_worker *w, const struct fwd_walk *fw,
			  __u32 *sp, __u32 p)
{
	const struct kb_topo *t = w->x->topo;
	const struct kb_node *n = &t->nodes[t->ports[p].peer_node];

	w->lmark[p] = fw->ep;
	w->lon[p] = 1;
	w->lstk[*sp].port = p;
	/* a copy that reaches a host makes none */
	w->lstk[*sp].next = n->first_port +
			    (n->kind == KB_NODE_HOST ? n->nports : 0);
	(*sp)++;
}

/* The next port the copy on port @e->port makes a copy on, or KB_NONE. */
static __u32 fwd_loop_next(struct exp_worker *w, const struct kb_exp_state *s,
			   const struct fwd_walk *fw, struct exp_lpath *e)
{
	const struct kb_topo *t = w->x->topo;
	__u32 v = t->ports[e->port].peer_node, in = t->ports[e->port].peer;
	__u32 end = t->nodes[v].first_port + t->nodes[v].nports, p;
	int tsw = fw->tr->depth[v] != KB_NONE;

	for (p = e->next; p < end; p++) {
		if (p != in && fwd_switch_sends(w, s, fw, tsw,
						fw->tr->in_port[v], p)) {
			e->next = p + 1;
			return p;
		}
	}
	e->next = end;
	return KB_NONE;
}

/*
 * Does the copy on port @p0 make copies for ever?  The copies a copy makes
 * depend only on the port it came by (fwd_copies()), so it does iff a
 * cycle of ports is reachable from @p0: depth first, each port once per
 * packet (a port searched from an earlier root reaches no cycle).
 */
static int fwd_loop_from(struct exp_worker *w, const struct kb_exp_state *s,
			 const struct fwd_walk *fw, __u32 p0)
{
	__u32 sp = 0, q;

	if (w->lmark[p0] == fw->ep)
		return 0;
	fwd_loop_push(w, fw, &sp, p0);
	while (sp) {
		q = fwd_loop_next(w, s, fw, &w->lstk[sp - 1]);
		if (q == KB_NONE)
			w->lon[w->lstk[--sp].port] = 0;
		else if (w->lmark[q] != fw->ep)
			fwd_loop_push(w, fw, &sp, q);
		else if (w->lon[q])
			return 1;
	}
	return 0;
}

/* Do the copies of the @nfp matching candidates of group @g go on for ever? */
static int fwd_loops(struct exp_worker *w, const struct kb_exp_state *s,
		     const struct fwd_walk *fw, __u32 g, __u32 nfp)
{
	const __u32 *fp = s->fp_port + s->fp_off[g];
	__u32 i;

	for (i = 0; i < nfp; i++)
		if (fwd_loop_from(w, s, fw, fp[i]))
			return 1;
	return 0;
}

/*
 * The walk of packet @pk of group @g (@nfp matching candidates) that its
 * copies need: in model runs an endless one's whole walk, else its
 * cascades, else (past max_tx, or a tree link that misses the group) the
 * whole walk.  Return: the tree's transmissions not in the trace.
 */
static __u32 fwd_walks(struct exp_worker *w, const struct kb_exp_state *s,
		       struct fwd_walk *fw, __u32 g, __u32 nfp,
		       struct kb_exp_pkt *pk)
{
	struct kb_sim_result *r = &pk->res;
	__u32 max_tx = fw->max_tx;

	fw->ep = fwd_start(w, s, g, nfp, 0);
	if (s->fast && !pk->cand_fn && fwd_loops(w, s, fw, g, nfp)) {
		/* endless: cut at max_tx, where the order counts */
		fw->ep = fwd_start(w, s, g, nfp, 1);
		fwd_bfs(w, s, fw, r);
	} else if (s->fast && !pk->cand_fn &&
		   !fwd_cascades(w, s, fw, g, nfp, r)) {
		r->delivered += pk->receivers;
		fw->sw_fp = NULL;	/* not counted: the trace is */
		return fw->tr->nlinks;
	} else if (s->fast && !pk->cand_fn) {
		/* past max_tx: the order counts, the whole walk again */
		memset(r, 0, sizeof(*r));
		fw->max_tx = max_tx;
		fw->ep = fwd_start(w, s, g, nfp, 1);
		fwd_bfs(w, s, fw, r);
	} else {
		fwd_bfs(w, s, fw, r);
	}
	return 0;
}

/*
 * Follow one packet of group @g under a per-port scheme.  The decisions
 * on the candidate links of the tree switches were taken by the per-port
 * tests of the state (state_test(): the same filter, the same key, so the
 * same answer); any other non-tree port is tested now.  In model runs a
 * group without a matching candidate goes exactly along its tree.  With
 * @acc, a whole walk adds its switches' off-tree copies to acc->sw_fp
 * itself (list by list) and gives no trace.
 */
static void fwd_run(struct exp_worker *w, const struct kb_exp_state *s,
		    const struct kb_tree *tr, __u32 g, struct kb_exp_pkt *pk,
		    struct kb_exp_run *acc)
{
	const struct kb_exp *x = w->x;
	const struct exp_group *gr = &x->grp[g];
	__u32 max_tx = x->p.max_tx ? x->p.max_tx : EXP_MAX_TX_DEFAULT;
	__u32 nfp = nfp_of(s, g), tree_tx;
	struct kb_sim_result *r = &pk->res;
	struct fwd_walk fw;
	__u8 addr[4];

	pk->cand = gr->cand;
	pk->cand_fp = nfp;
	pk->cand_fn = nfn_of(s, g);
	pk->fp_pred = s->g_pred ? s->g_pred[g] : 0.0;
	pk->tree_links = gr->nlinks;
	pk->receivers = gr->size - (gr->size == x->topo->nhosts);
	if (!nfp && !pk->cand_fn && s->fast) {
		/* along the tree, which was not even rebuilt */
		r->tx = r->tx_tree = gr->nlinks;
		r->delivered = pk->receivers;
		pk->tree = NULL;
		pk->trace = NULL;
		pk->ntrace = 0;
		return;
	}
	pk->tree = tr;
	kb_exp_group_addr(x, g, addr);
	fw.tr = tr;
	fw.addr = addr;
	fw.max_tx = max_tx;
	fw.sw_fp = acc ? acc->sw_fp : NULL;
	tree_tx = fwd_walks(w, s, &fw, g, nfp, pk);
	r->tx = tree_tx + w->ntrace;
	r->tx_tree = r->tx - r->tx_off;
	/* a walk that counted its switches' copies in @acc gives no trace */
	pk->trace = fw.sw_fp ? NULL : w->trace;
	pk->ntrace = fw.sw_fp ? 0 : w->ntrace;
}

/* Every packet of group @g under state @s: 0, stopped (> 0), -errno. */
int exp_state_group(struct exp_worker *w, const struct kb_exp_state *s,
		       __u32 g, pkt_fn fn, void *ctx, struct kb_exp_run *acc)
{
	struct kb_exp_pkt pk = { 0 };

	switch (s->scheme) {
	case KB_EXP_LIPSIN1:
	case KB_EXP_LIPSIN8:
	case KB_EXP_YESNO:
		exp_group_tree(w->x, g, w->tr);
		return exp_lipsin_group(w, s, g, fn, ctx, acc);
	case KB_EXP_MSBF:
		exp_group_tree(w->x, g, w->tr);
		return exp_msbf_group(w, s, g, fn, ctx, acc);
	}
	if (s->fast && !nfp_of(s, g) && !nfn_of(s, g)) {
		fwd_run(w, s, w->tr, g, &pk, acc);	/* no tree needed */
		return fn(w, s, g, 0, &pk, ctx);
	}
	exp_group_tree(w->x, g, w->tr);
	fwd_run(w, s, w->tr, g, &pk, acc);
	return fn(w, s, g, 0, &pk, ctx);
}
