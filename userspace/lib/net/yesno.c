// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_net: yes-no headers (uapi/kbloom_ipbf_yesno.h; Carrea,
 * Vernitski, Reed 2016).
 *
 * The source knows its tree, so it knows which candidate links (ports of
 * the tree's relays that are neither tree links nor ingress ports) the
 * zFilter wrongly holds: those are the "known false positives" the paper
 * stores in a no filter.  A node forwards iff the link is in yes and not
 * in no, so a tree link that tested positive in no would be cut from the
 * tree; the builder therefore undoes any insertion that makes a tree link
 * match no (that false positive stays), and tries several tag sets and
 * draws of the no positions (the paper's "another set of hash functions")
 * for the fewest false positives left.
 *
 * Cost: for each tried (tag, seed) and each false positive, k no probes
 * for every tree link; trees under the fill limit have at most about 40
 * links and a few false positives, and the first tag set without any
 * false positive left ends the search.
 */
#include <errno.h>
#include <string.h>

#include "libkbloom_net.h"

/* One tag set under the fill limit, and its false positives in yes. */
struct yn_tag {
	struct kb_ipbf_zf zf;
	__u32 tag;
	__u32 fill;
	__u32 nfp;		/* candidate links in yes (all of them) */
	__u32 fp[KB_YN_FP_MAX];	/* the first KB_YN_FP_MAX, by port */
};

/* A forwarding tree node: the source, or a switch. */
static int yn_relay(const struct kb_tree *tr, __u32 u)
{
	return u == tr->src || tr->topo->nodes[u].kind == KB_NODE_SWITCH;
}

/* The candidate links of @tr that the zFilter of @yt holds; their count. */
static __u32 yn_false_pos(const struct kb_lids *l, const struct kb_tree *tr,
			  struct yn_tag *yt)
{
	const struct kb_topo *t = tr->topo;
	__u32 i, u, p, end, cand = 0;

	yt->nfp = 0;
	for (i = 0; i < tr->nnodes; i++) {
		u = tr->nodes[i];
		if (!yn_relay(tr, u))
			continue;
		end = t->nodes[u].first_port + t->nodes[u].nports;
		for (p = t->nodes[u].first_port; p < end; p++) {
			if (p == tr->in_port[u] || tr->on_tree[p])
				continue;
			cand++;
			if (!kb_ipbf_zf_match(&yt->zf, kb_lid(l, yt->tag, p)))
				continue;
			if (yt->nfp < KB_YN_FP_MAX)
				yt->fp[yt->nfp] = p;
			yt->nfp++;
		}
	}
	return cand;
}

/* Does any tree link test positive in the no filter? */
static int yn_tree_hit(const struct kb_lids *l, const struct kb_tree *tr,
		       __u32 tag, const struct kb_ipbf_no *no,
		       const __u8 *bits)
{
	__u32 i;

	for (i = 0; i < tr->nlinks; i++)
		if (kb_ipbf_no_match(bits, no, kb_lhash(l, tag, tr->links[i])))
			return 1;
	return 0;
}

/*
 * Fill the no filter of @r (its record set) with the false positives of
 * @yt, each unless it would exclude a tree link.  Return: the false
 * positives left (in yes and not in no; those past KB_YN_FP_MAX count).
 */
static __u32 yn_fill_no(const struct kb_lids *l, const struct kb_tree *tr,
			const struct yn_tag *yt, struct kb_yn_result *r)
{
	__u32 i, n = yt->nfp < KB_YN_FP_MAX ? yt->nfp : KB_YN_FP_MAX;
	__u8 tmp[KB_IPBF_NO_BYTES_MAX];
	__u32 left = yt->nfp - n;
	__u64 lh;

	memset(r->no_bits, 0, sizeof(r->no_bits));
	for (i = 0; i < n; i++) {
		memcpy(tmp, r->no_bits, sizeof(tmp));
		kb_ipbf_no_add(tmp, &r->no, kb_lhash(l, yt->tag, yt->fp[i]));
		if (!yn_tree_hit(l, tr, yt->tag, &r->no, tmp))
			memcpy(r->no_bits, tmp, sizeof(tmp));
	}
	for (i = 0; i < n; i++) {
		lh = kb_lhash(l, yt->tag, yt->fp[i]);
		left += !kb_ipbf_no_match(r->no_bits, &r->no, lh);
	}
	return left;
}

/* Is @cur better than @best: fewer false positives, a shorter header, less fill? */
static int yn_better(const struct kb_yn_result *best, int have,
		     const struct kb_yn_result *cur)
{
	if (!have)
		return 1;
	if (cur->fp != best->fp)
		return cur->fp < best->fp;
	if (cur->no.bytes != best->no.bytes)
		return cur->no.bytes < best->no.bytes;
	return cur->fill < best->fill;
}

/* Try every draw for tag set @yt; keep the best in @best. */
static void yn_try_tag(const struct kb_lids *l, const struct kb_tree *tr,
		       const struct kb_yn_params *p, const struct yn_tag *yt,
		       struct kb_yn_result *best, int *have)
{
	struct kb_yn_result cur;
	__u32 seed;

	memset(&cur, 0, sizeof(cur));
	cur.zf = yt->zf;
	cur.tag = yt->tag;
	cur.fill = yt->fill;
	cur.fp_yes = yt->nfp;
	cur.no.k = (__u8)p->no_k;
	cur.no.bytes = yt->nfp ? (__u8)p->no_bytes : 0;
	for (seed = 0; seed < (yt->nfp ? p->nseeds : 1); seed++) {
		cur.no.seed = (__u8)seed;
		cur.fp = yn_fill_no(l, tr, yt, &cur);
		if (yn_better(best, *have, &cur)) {
			*best = cur;
			*have = 1;
		}
		if (!cur.fp)
			break;
	}
}

static int yn_params(const struct kb_lids *l, const struct kb_yn_params *p,
		     struct kb_yn_params *out)
{
	struct kb_yn_params d = {
		.ntags = l->d,
		.fill_limit = KB_IPBF_FILL_DEFAULT,
		.no_bytes = KB_YN_NO_BYTES_DEFAULT,
		.no_k = KB_YN_NO_K_DEFAULT,
		.nseeds = KB_YN_SEEDS_DEFAULT,
	};

	if (p)
		d = *p;
	if (d.ntags < 1 || d.ntags > l->d || d.fill_limit < 1 ||
	    d.fill_limit > KB_IPBF_ZF_BITS || d.no_bytes < 1 ||
	    d.no_bytes > KB_IPBF_NO_BYTES_MAX || d.no_k < KB_IPBF_NO_K_MIN ||
	    d.no_k > KB_IPBF_NO_K_MAX || d.nseeds < 1 ||
	    d.nseeds > KB_IPBF_NO_SEEDS)
		return -ERANGE;
	*out = d;
	return 0;
}

/* The zFilter of @tr in tag set @tag. */
static void yn_yes(const struct kb_lids *l, const struct kb_tree *tr,
		   __u32 tag, struct kb_ipbf_zf *zf)
{
	__u32 i;

	memset(zf, 0, sizeof(*zf));
	for (i = 0; i < tr->nlinks; i++)
		kb_ipbf_zf_or(zf, kb_lid(l, tag, tr->links[i]));
}

int kb_yn_build(const struct kb_lids *l, const struct kb_tree *tr,
		const struct kb_yn_params *p, struct kb_yn_result *r)
{
	struct kb_yn_result best;
	struct kb_yn_params pr;
	struct yn_tag yt;
	__u32 cand = 0, i;
	int have = 0, err;

	if (!l || !tr || !r || l->topo != tr->topo || tr->src == KB_NONE)
		return -EINVAL;
	err = yn_params(l, p, &pr);
	if (err)
		return err;
	for (yt.tag = 0; yt.tag < pr.ntags; yt.tag++) {
		if (have && !best.fp && !best.no.bytes)
			break;
		yn_yes(l, tr, yt.tag, &yt.zf);
		yt.fill = kb_ipbf_zf_fill(&yt.zf);
		if (yt.fill > pr.fill_limit)
			continue;
		cand = yn_false_pos(l, tr, &yt);
		yn_try_tag(l, tr, &pr, &yt, &best, &have);
	}
	if (!have)
		return -E2BIG;
	best.candidates = cand;
	best.excluded = 0;
	for (i = 0; i < tr->nlinks; i++)
		best.excluded += kb_ipbf_no_match(best.no_bits, &best.no,
				kb_lhash(l, best.tag, tr->links[i]));
	*r = best;
	return 0;
}

int kb_ipbf_write_yesno(void *buf, size_t len, __u32 hop_limit,
			__u16 inner_proto, const struct kb_yn_result *r)
{
	__u8 *b = buf;
	int n;

	if (!buf || !r)
		return -EINVAL;
	if (r->no.k < KB_IPBF_NO_K_MIN || r->no.k > KB_IPBF_NO_K_MAX ||
	    r->no.bytes > KB_IPBF_NO_BYTES_MAX || r->no.reserved)
		return -ERANGE;
	if (len < KB_IPBF_YESNO_LEN + r->no.bytes)
		return -EMSGSIZE;
	n = kb_ipbf_write_lipsin(buf, len, hop_limit, r->tag, inner_proto,
				 &r->zf);
	if (n < 0)
		return n;
	b[1] = KB_IPBF_F_YESNO;
	memcpy(b + KB_IPBF_LIPSIN_LEN, &r->no, KB_IPBF_NO_HDR_LEN);
	memcpy(b + KB_IPBF_YESNO_LEN, r->no_bits, r->no.bytes);
	return (int)(KB_IPBF_YESNO_LEN + r->no.bytes);
}
