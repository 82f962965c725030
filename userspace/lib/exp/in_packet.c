// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the in-packet schemes, LIPSIN and MSBF.
 *
 * LIPSIN: the receivers of a group join a subtree one by one while the
 * zFilter of some tag set stays within the fill limit; a receiver that
 * does not fit starts the next packet, and one whose path alone does not
 * fit is refused.  A packet carries the best of d tag sets (kb_zf_build())
 * and goes where kb_sim_run() sends it.  Its predicted false positives
 * are C P over its C candidate links, for link IDs of k distinct bits of
 * m = 256:
 *   from its n tree links  P(n) = sum_{j = 0..k} (-1)^j C(k, j) a_j^n,
 *                          a_j = prod_{i < k} (m - j - i) / (m - i),
 *     the probability that the OR of n random link IDs covers another
 *     (inclusion-exclusion over the j of its bits left uncovered, a_j the
 *     chance that one ID avoids j given bits);
 *   from the zFilter's fill F  P = prod_{i < k} (F - i) / (m - i)
 *                              = C(F, k) / C(m, k).
 *
 * MSBF: one header per group (kb_msbf_build()), free of false positives
 * on the candidate links by construction.
 *
 * Yes-no: the subtrees of lipsin8, each packet's zFilter completed by a
 * no filter of the candidate links it wrongly holds (kb_yn_build(), no
 * tree link excluded); its false positives, predicted and counted, are
 * the candidates the builder could not exclude.  A header that would cut
 * a tree link (kb_yn_result.excluded) stops the run with -EPROTO: a run
 * that completes lost no tree link on any tree.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "exp_int.h"

#define EXP_ETH_P_IP		0x0800

/* Exact zFilter false-positive rate for @n link IDs of @k distinct bits of 256. */
static double zf_fpr(__u32 n, __u32 k)
{
	double sum = 0.0, binom = 1.0, avoid;
	__u32 j, i, m = KB_IPBF_ZF_BITS;

	for (j = 0; j <= k; j++) {
		if (j)
			binom = binom * (k - j + 1) / j;
		avoid = 1.0;
		for (i = 0; i < k; i++)
			avoid *= (double)(m - j - i) / (m - i);
		sum += (j & 1 ? -1.0 : 1.0) * binom * pow(avoid, n);
	}
	return sum > 0.0 ? sum : 0.0;
}

/* A random link ID of @k distinct bits inside a zFilter of @fill ones. */
static double zf_fill_fpr(__u32 fill, __u32 k)
{
	double v = 1.0;
	__u32 i;

	for (i = 0; i < k; i++)
		v *= fill > i ? (double)(fill - i) / (KB_IPBF_ZF_BITS - i) : 0.0;
	return v;
}

static void pkt_sim(struct exp_worker *w, const struct kb_tree *tr,
		    __u32 src, __u32 len, struct kb_exp_pkt *pk)
{
	const struct kb_exp *x = w->x;

	pk->hdr = w->hdr;
	pk->hdr_len = len;
	pk->tree = tr;
	pk->tree_links = tr->nlinks;
	kb_sim_run(w->sim, x->lids, tr, src, w->hdr, len, x->p.fill_limit,
		   &pk->res);
	pk->trace = kb_sim_trace(w->sim, &pk->ntrace);
}

/*
 * Per switch of the subtree: its candidate links, its ports but the
 * ingress one and its tree links (a tree link is never an ingress port).
 */
static void sw_count(struct exp_worker *w, const struct kb_tree *tr,
		     struct kb_exp_run *acc)
{
	const struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	__u32 i, v;

	for (i = 0; i < tr->nnodes; i++) {
		v = tr->nodes[i];
		if (t->nodes[v].kind == KB_NODE_SWITCH)
			acc->sw_cand[x->sw_index[v]] +=
				t->nodes[v].nports - (tr->in_port[v] != KB_NONE);
	}
	for (i = 0; i < tr->nlinks; i++) {
		v = t->ports[tr->links[i]].node;
		if (t->nodes[v].kind == KB_NODE_SWITCH)
			acc->sw_cand[x->sw_index[v]]--;
	}
}

/*
 * Per switch of the subtree: its candidate links (sw_count()), and those
 * that match the zFilter @zf in tag set @tag and are not in the no filter
 * @no (no @zf: none match), looked for until @left of them are found (the
 * packet's count, when the builder gave it).
 */
static void sw_cand(struct exp_worker *w, const struct kb_tree *tr,
		    const struct kb_ipbf_zf *zf, __u32 tag,
		    const struct kb_ipbf_no *no, const __u8 *no_bits,
		    __u32 left, struct kb_exp_run *acc)
{
	const struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	__u32 i, v, p, end, si, hit;

	if (!acc)
		return;
	sw_count(w, tr, acc);
	for (i = 0; zf && left && i < tr->nnodes; i++) {
		v = tr->nodes[i];
		if (t->nodes[v].kind != KB_NODE_SWITCH)
			continue;
		si = x->sw_index[v];
		end = t->nodes[v].first_port + t->nodes[v].nports;
		for (p = t->nodes[v].first_port; left && p < end; p++) {
			if (p == tr->in_port[v] || tr->on_tree[p])
				continue;
			hit = kb_ipbf_zf_match(zf, kb_lid(x->lids, tag, p)) &&
			      !kb_ipbf_no_match(no_bits, no,
						kb_lhash(x->lids, tag, p));
			acc->sw_cand_fp[si] += hit;
			left -= hit;
		}
	}
}

/*
 * Per switch of the subtree: candidate links and their matches, which
 * kb_zf_build_nodes() counted per node (w->node_fp).
 */
static void lipsin_cand(struct exp_worker *w, const struct kb_tree *tr,
			const struct kb_zf_result *z, struct kb_exp_pkt *pk,
			struct kb_exp_run *acc)
{
	const struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	__u32 i, v;

	pk->cand = z->candidates;
	pk->cand_fp = z->fp;
	if (w->zf_pred[tr->nlinks] < 0.0)	/* links <= ports */
		w->zf_pred[tr->nlinks] = zf_fpr(tr->nlinks, x->lids->k);
	pk->fp_pred = z->candidates * w->zf_pred[tr->nlinks];
	pk->fp_pred_fill = z->candidates * zf_fill_fpr(z->fill, x->lids->k);
	if (!acc)
		return;
	sw_count(w, tr, acc);
	for (i = 0; i < tr->nnodes; i++) {
		v = tr->nodes[i];
		if (t->nodes[v].kind == KB_NODE_SWITCH)
			acc->sw_cand_fp[x->sw_index[v]] += w->node_fp[i];
	}
}

/*
 * The zFilters of a subtree in each tag set, with an upper bound on each
 * one's fill (a link ID has at most k bits, so a path of n links adds at
 * most k n): a filter whose bound is within the limit fits without being
 * counted.
 */
struct zf_sub {
	struct kb_ipbf_zf zf[KB_IPBF_D_MAX];
	__u32 ub[KB_IPBF_D_MAX];
};

/*
 * The links that join host @m to the subtree @ct along group tree @tr
 * (bottom up in w->path); the zFilters of @cur with them in @nxt, and
 * whether some tag set's still fits: some bound within the limit, else
 * the first exact fill that is (the same answer as every tag set's fill,
 * with fewer counts).
 */
static __u32 join_path(struct exp_worker *w, const struct kb_tree *tr,
		       const struct kb_tree *ct, __u32 m, __u32 ntags,
		       const struct zf_sub *cur, struct zf_sub *nxt, int *fits)
{
	const struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	__u32 n = 0, u = m, link, tag, i, limit = x->p.fill_limit;

	while (ct->depth[u] == KB_NONE) {
		link = t->ports[tr->in_port[u]].peer;
		w->path[n++] = link;
		u = t->ports[link].node;
	}
	*fits = 0;
	for (tag = 0; tag < ntags; tag++) {
		nxt->zf[tag] = cur->zf[tag];
		for (i = 0; i < n; i++)
			kb_ipbf_zf_or(&nxt->zf[tag],
				      kb_lid(x->lids, tag, w->path[i]));
		nxt->ub[tag] = cur->ub[tag] + n * x->lids->k;
		*fits |= nxt->ub[tag] <= limit;
	}
	for (tag = 0; !*fits && tag < ntags; tag++) {
		nxt->ub[tag] = kb_ipbf_zf_fill(&nxt->zf[tag]);
		*fits = nxt->ub[tag] <= limit;
	}
	return n;
}

static int yesno_emit(struct exp_worker *w, const struct kb_exp_state *s,
		      __u32 g, __u32 idx, pkt_fn fn, void *ctx,
		      struct kb_exp_run *acc)
{
	const struct kb_exp *x = w->x;
	struct kb_yn_params yp = {
		.ntags = 8,
		.fill_limit = x->p.fill_limit,
		.no_bytes = KB_YN_NO_BYTES_DEFAULT,
		.no_k = KB_YN_NO_K_DEFAULT,
		.nseeds = KB_YN_SEEDS_DEFAULT,
	};
	struct kb_exp_pkt pk = { 0 };
	struct kb_yn_result y;
	int len, err;

	err = kb_yn_build(x->lids, w->ct, &yp, &y);
	if (err)
		return err;
	if (y.excluded)		/* a tree link cut off: never, checked */
		return -EPROTO;
	len = kb_ipbf_write_yesno(w->hdr, EXP_HDR_MAX,
				  w->ct->height + x->p.hop_slack, EXP_ETH_P_IP,
				  &y);
	if (len < 0)
		return len;
	pk.cand = y.candidates;
	pk.cand_fp = y.fp;
	pk.fp_pred = y.fp;
	pk.fp_pred_fill = y.fp;
	sw_cand(w, w->ct, &y.zf, y.tag, &y.no, y.no_bits, KB_NONE, acc);
	pkt_sim(w, w->ct, x->grp[g].src, len, &pk);
	return fn(w, s, g, idx, &pk, ctx);
}

static int lipsin_emit(struct exp_worker *w, const struct kb_exp_state *s,
		       __u32 g, __u32 idx, __u32 ntags, pkt_fn fn, void *ctx,
		       struct kb_exp_run *acc)
{
	const struct kb_exp *x = w->x;
	struct kb_exp_pkt pk = { 0 };
	struct kb_zf_result z;
	int len, err;

	if (s->scheme == KB_EXP_YESNO)
		return yesno_emit(w, s, g, idx, fn, ctx, acc);
	err = kb_zf_build_nodes(x->lids, w->ct, ntags, x->p.fill_limit, &z,
				w->node_fp);
	if (err)
		return err;
	len = kb_ipbf_write_lipsin(w->hdr, EXP_HDR_MAX,
				   w->ct->height + x->p.hop_slack, z.tag,
				   EXP_ETH_P_IP, &z.zf);
	if (len < 0)
		return len;
	lipsin_cand(w, w->ct, &z, &pk, acc);
	pkt_sim(w, w->ct, x->grp[g].src, len, &pk);
	return fn(w, s, g, idx, &pk, ctx);
}

int exp_lipsin_group(struct exp_worker *w, const struct kb_exp_state *s,
			__u32 g, pkt_fn fn, void *ctx, struct kb_exp_run *acc)
{
	const struct kb_exp *x = w->x;
	const struct exp_group *gr = &x->grp[g];
	const __u32 *mem = x->members + gr->moff;
	struct zf_sub sub[2], *cur = &sub[0], *nxt = &sub[1], *tmp;
	__u32 ntags = s->scheme == KB_EXP_LIPSIN1 ? 1 : 8, i, n, idx = 0;
	struct kb_tree *ct = w->ct;
	int fits, err;

	kb_tree_reset(ct, gr->src);
	memset(cur, 0, sizeof(*cur));
	for (i = 0; i < gr->size; i++) {
		n = join_path(w, w->tr, ct, mem[i], ntags, cur, nxt, &fits);
		if (!fits && ct->nmembers) {
			err = lipsin_emit(w, s, g, idx++, ntags, fn, ctx, acc);
			if (err)
				return err;	/* or stopped */
			kb_tree_reset(ct, gr->src);
			memset(cur, 0, sizeof(*cur));
			n = join_path(w, w->tr, ct, mem[i], ntags, cur, nxt,
				      &fits);
		}
		if (!fits) {
			/* one receiver's path alone is over the limit */
			struct kb_exp_pkt pk = { .refused = 1 };

			err = fn(w, s, g, idx++, &pk, ctx);
			if (err)
				return err;
			continue;
		}
		while (n--)
			kb_tree_add_link(ct, w->path[n]);
		kb_tree_add_member(ct, mem[i]);
		tmp = cur;	/* the joined filters are the subtree's now */
		cur = nxt;
		nxt = tmp;
	}
	if (ct->nmembers)
		return lipsin_emit(w, s, g, idx, ntags, fn, ctx, acc);
	return 0;
}

int exp_msbf_group(struct exp_worker *w, const struct kb_exp_state *s,
		      __u32 g, pkt_fn fn, void *ctx, struct kb_exp_run *acc)
{
	const struct kb_exp *x = w->x;
	struct kb_msbf_params mp = {
		.ntags = 1,
		.start_fp = x->p.msbf_start_fp,
		.inner_proto = EXP_ETH_P_IP,
	};
	struct kb_exp_pkt pk = { 0 };
	struct kb_tree *tr = w->tr;
	int len;

	len = kb_msbf_build(w->ms, x->lids, tr, &mp, w->hdr, EXP_HDR_MAX,
			    NULL);
	if (len < 0) {
		pk.refused = 1;
		return fn(w, s, g, 0, &pk, ctx);
	}
	/* false-positive free on the candidates by construction */
	pk.cand = x->grp[g].cand;
	sw_cand(w, tr, NULL, 0, NULL, NULL, 0, acc);	/* counts them */
	pkt_sim(w, tr, x->grp[g].src, len, &pk);
	return fn(w, s, g, 0, &pk, ctx);
}
