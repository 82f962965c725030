// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_net: link IDs, LIPSIN zFilters, and parsing of the in-packet
 * headers of uapi/kbloom_ipbf.h.
 *
 * A zFilter is the OR of the link IDs of a delivery tree in one of d tag
 * sets; a node forwards on every link but the ingress one whose ID is
 * contained in it.  The links where that can go wrong are the candidates
 * of the tree: the ports of tree nodes that are neither tree links nor
 * the node's ingress port.  kb_zf_build() picks the tag set with the
 * fewest candidates that match (LIPSIN's "best of d"), among those under
 * the fill limit.  Matches beyond the candidates (a false-positive link
 * leading to more false positives) are what kb_sim_run() counts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libkbloom_net.h"

int kb_lids_new(const struct kb_topo *t, __u64 seed, __u32 k, __u32 d,
		struct kb_lids **lp)
{
	struct kb_lids *l;
	__u32 tag, p;
	size_t n, i;

	if (!t || !t->final || !lp)
		return -EINVAL;
	if (k < KB_IPBF_K_MIN || k > KB_IPBF_K_MAX || d < 1 ||
	    d > KB_IPBF_D_MAX)
		return -ERANGE;
	n = (size_t)d * t->nports;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->lhash = malloc((n ? n : 1) * sizeof(*l->lhash));
	l->lid = malloc((n ? n : 1) * sizeof(*l->lid));
	if (!l->lhash || !l->lid) {
		kb_lids_free(l);
		return -ENOMEM;
	}
	l->topo = t;
	l->seed = seed;
	l->k = k;
	l->d = d;
	for (tag = 0; tag < d; tag++) {
		for (p = 0; p < t->nports; p++) {
			i = (size_t)tag * t->nports + p;
			l->lhash[i] = kb_ipbf_link_hash(seed, t->ports[p].node,
							t->ports[p].local, tag);
			/* k is in range: cannot fail (uapi/kbloom_ipbf.h) */
			kb_ipbf_lid(l->lhash[i], k, &l->lid[i]);
		}
	}
	*lp = l;
	return 0;
}

void kb_lids_free(struct kb_lids *l)
{
	if (!l)
		return;
	free(l->lhash);
	free(l->lid);
	free(l);
}

/* Does tree node @u forward at all (hosts other than the source do not)? */
static inline int tree_relay(const struct kb_tree *tr, __u32 u)
{
	return u == tr->src || tr->topo->nodes[u].kind == KB_NODE_SWITCH;
}

static inline int candidate(const struct kb_tree *tr, __u32 u, __u32 p)
{
	return p != tr->in_port[u] && !tr->on_tree[p];
}

__u32 kb_tree_candidates(const struct kb_tree *tr)
{
	const struct kb_topo *t;
	__u32 i, u, p, end, n = 0;

	if (!tr)
		return 0;
	t = tr->topo;
	for (i = 0; i < tr->nnodes; i++) {
		u = tr->nodes[i];
		if (!tree_relay(tr, u))
			continue;
		end = t->nodes[u].first_port + t->nodes[u].nports;
		for (p = t->nodes[u].first_port; p < end; p++)
			n += candidate(tr, u, p);
	}
	return n;
}

__u32 kb_zf_count_fp(const struct kb_lids *l, const struct kb_tree *tr,
		     const struct kb_ipbf_zf *zf, __u32 tag)
{
	const struct kb_ipbf_zf *lids;
	const struct kb_topo *t;
	__u32 i, u, p, end, n = 0;

	if (!l || !tr || !zf || tag >= l->d || l->topo != tr->topo)
		return 0;
	t = tr->topo;
	lids = kb_lid(l, tag, 0);
	for (i = 0; i < tr->nnodes; i++) {
		u = tr->nodes[i];
		if (!tree_relay(tr, u))
			continue;
		end = t->nodes[u].first_port + t->nodes[u].nports;
		for (p = t->nodes[u].first_port; p < end; p++)
			if (candidate(tr, u, p) && kb_ipbf_zf_match(zf, &lids[p]))
				n++;
	}
	return n;
}

/* The zFilters of the tree in tag sets 0..ntags-1: one pass over its links. */
static void zf_of_tree(const struct kb_lids *l, const struct kb_tree *tr,
		       __u32 ntags, struct kb_ipbf_zf *zf)
{
	__u32 i, tag;

	memset(zf, 0, ntags * sizeof(*zf));
	for (i = 0; i < tr->nlinks; i++)
		for (tag = 0; tag < ntags; tag++)
			kb_ipbf_zf_or(&zf[tag], kb_lid(l, tag, tr->links[i]));
}

/* Is (fp, fill) better than the best so far? */
static int zf_better(const struct kb_zf_result *best, int have, __u32 fp,
		     __u32 fill)
{
	if (!have)
		return 1;
	if (fp != best->fp)
		return fp < best->fp;
	return fill < best->fill;
}

/*
 * The matches of node @u's candidate links in the tag sets @ok[0..nok):
 * added to @fp[j] and, with @nfp, stored at nfp[j].  Return: its
 * candidate links.
 */
static __u32 zf_node_fp(const struct kb_lids *l, const struct kb_tree *tr,
			__u32 u, const struct kb_ipbf_zf *zf, const __u32 *ok,
			__u32 nok, __u32 *fp, __u32 *nfp)
{
	const struct kb_topo *t = tr->topo;
	__u32 j, p, end, cand = 0, f[KB_IPBF_D_MAX] = { 0 };

	end = t->nodes[u].first_port + t->nodes[u].nports;
	for (p = t->nodes[u].first_port; p < end; p++) {
		if (!candidate(tr, u, p))
			continue;
		cand++;
		for (j = 0; j < nok; j++)
			f[j] += kb_ipbf_zf_match(&zf[ok[j]],
						 kb_lid(l, ok[j], p));
	}
	for (j = 0; j < nok; j++) {
		fp[j] += f[j];
		if (nfp)
			nfp[j] = f[j];
	}
	return cand;
}

/*
 * Every tag set's zFilter, then one walk over the candidates that counts
 * the matches of all the sets under the fill limit (kb_zf_count_fp() and
 * kb_tree_candidates() each, in one); with @node_fp, per node too (room
 * for tr->nnodes counts per set), the chosen set's left in its first
 * tr->nnodes counts.
 */
static int zf_build(const struct kb_lids *l, const struct kb_tree *tr,
		    __u32 ntags, __u32 fill_limit, struct kb_zf_result *r,
		    __u32 *node_fp)
{
	struct kb_ipbf_zf zf[KB_IPBF_D_MAX];
	__u32 fill[KB_IPBF_D_MAX], fp[KB_IPBF_D_MAX] = { 0 };
	__u32 tag, ok[KB_IPBF_D_MAX], nok = 0, i, j, jbest = 0, cand = 0;
	struct kb_zf_result best;
	int have = 0;

	if (!l || !tr || !r || l->topo != tr->topo || tr->src == KB_NONE)
		return -EINVAL;
	if (ntags < 1 || ntags > l->d || fill_limit < 1 ||
	    fill_limit > KB_IPBF_ZF_BITS)
		return -ERANGE;
	zf_of_tree(l, tr, ntags, zf);
	for (tag = 0; tag < ntags; tag++) {
		fill[tag] = kb_ipbf_zf_fill(&zf[tag]);
		if (fill[tag] <= fill_limit)
			ok[nok++] = tag;
	}
	if (!nok)
		return -E2BIG;
	for (i = 0; i < tr->nnodes; i++) {
		if (!tree_relay(tr, tr->nodes[i])) {
			for (j = 0; node_fp && j < nok; j++)
				node_fp[(size_t)i * nok + j] = 0;
			continue;
		}
		cand += zf_node_fp(l, tr, tr->nodes[i], zf, ok, nok, fp,
				   node_fp ? node_fp + (size_t)i * nok : NULL);
	}
	for (j = 0; j < nok; j++) {
		tag = ok[j];
		if (!zf_better(&best, have, fp[j], fill[tag]))
			continue;
		best.zf = zf[tag];
		best.tag = tag;
		best.fill = fill[tag];
		best.fp = fp[j];
		jbest = j;
		have = 1;
	}
	/* in place: node i's count is read at i nok + jbest >= i */
	for (i = 0; node_fp && i < tr->nnodes; i++)
		node_fp[i] = node_fp[(size_t)i * nok + jbest];
	best.candidates = cand;
	*r = best;
	return 0;
}

int kb_zf_build(const struct kb_lids *l, const struct kb_tree *tr,
		__u32 ntags, __u32 fill_limit, struct kb_zf_result *r)
{
	return zf_build(l, tr, ntags, fill_limit, r, NULL);
}

int kb_zf_build_nodes(const struct kb_lids *l, const struct kb_tree *tr,
		      __u32 ntags, __u32 fill_limit, struct kb_zf_result *r,
		      __u32 *node_fp)
{
	if (!node_fp)
		return -EINVAL;
	return zf_build(l, tr, ntags, fill_limit, r, node_fp);
}

int kb_ipbf_write_lipsin(void *buf, size_t len, __u32 hop_limit, __u32 tag,
			 __u16 inner_proto, const struct kb_ipbf_zf *zf)
{
	__u8 *b = buf;

	if (!buf || !zf)
		return -EINVAL;
	if (tag >= KB_IPBF_D_MAX || hop_limit > 255)
		return -ERANGE;
	if (len < KB_IPBF_LIPSIN_LEN)
		return -EMSGSIZE;
	b[0] = KB_IPBF_VERSION;
	b[1] = 0;
	b[2] = (__u8)hop_limit;
	b[3] = (__u8)tag;
	b[4] = 0;
	b[5] = 0;
	b[6] = (__u8)(inner_proto >> 8);
	b[7] = (__u8)inner_proto;
	kb_ipbf_zf_store(b + KB_IPBF_HDR_LEN, zf);
	return KB_IPBF_LIPSIN_LEN;
}

static inline __u32 clamp32(size_t v)
{
	return v > 0xFFFFFFFFU ? 0xFFFFFFFFU : (__u32)v;
}

/* The no record of a yes-no header (uapi/kbloom_ipbf_yesno.h): 0 or -1. */
static int kb_yn_parse_no(const __u8 *b, __u32 avail, struct kb_ipbf_info *in)
{
	if (avail < KB_IPBF_YESNO_LEN)
		return -1;
	memcpy(&in->no, b + KB_IPBF_LIPSIN_LEN, KB_IPBF_NO_HDR_LEN);
	if (kb_ipbf_no_check(&in->no, avail - KB_IPBF_LIPSIN_LEN))
		return -1;
	memcpy(in->no_bits, b + KB_IPBF_YESNO_LEN, in->no.bytes);
	in->len = KB_IPBF_YESNO_LEN + in->no.bytes;
	return 0;
}

int kb_ipbf_parse(const void *buf, size_t len, struct kb_ipbf_info *info)
{
	const __u8 *b = buf;
	struct kb_ipbf_info in;
	__u32 s, off, avail;

	if (!buf || !info)
		return -EINVAL;
	if (len < KB_IPBF_HDR_LEN)
		return -EBADMSG;
	avail = clamp32(len);
	memset(&in, 0, sizeof(in));
	memcpy(&in.hdr, b, KB_IPBF_HDR_LEN);
	if (kb_ipbf_hdr_check(&in.hdr, avail))
		return -EBADMSG;
	if (!(in.hdr.flags & KB_IPBF_F_MSBF)) {
		kb_ipbf_zf_load(&in.zf, b + KB_IPBF_HDR_LEN);
		in.len = KB_IPBF_LIPSIN_LEN;
		if ((in.hdr.flags & KB_IPBF_F_YESNO) &&
		    kb_yn_parse_no(b, avail, &in))
			return -EBADMSG;
		*info = in;
		return 0;
	}
	/* a node walks the stages of no longer frame: it drops it */
	if (in.hdr.nstages && len > KB_IPBF_FRAME_MAX - KB_IPBF_ETH_LEN)
		return -EBADMSG;
	off = KB_IPBF_HDR_LEN;
	for (s = 0; s < in.hdr.nstages; s++) {
		avail = clamp32(len - off);
		if (kb_ipbf_stage_parse(kb_ipbf_load_be64(b + off,
							  avail < 8 ? avail : 8),
					avail, &in.stage[s]))
			return -EBADMSG;
		in.stage_at[s] = off;
		off += in.stage[s].bytes;
	}
	in.nstages = s;
	in.len = off;
	*info = in;
	return 0;
}
