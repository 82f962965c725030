// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_net: simulated forwarding of an in-packet Bloom filter header
 * over a topology, with the decisions of the XDP data path (the same
 * uapi/kbloom_ipbf.h helpers decide): the copies of a packet are followed
 * breadth first, every copy on its own, so that a false-positive link
 * that leads to more false positives, or a loop cut by the hop limit,
 * counts exactly as on the wire.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libkbloom_net.h"

#define SIM_MAX_TX_DEFAULT	(1U << 18)

struct sim_copy {
	__u32 node;
	__u32 in_port;		/* KB_NONE at the source */
	__u32 off;		/* MSBF: byte offset of the current stage */
	__u8 hop_limit;
	__u8 nstages;
};

struct kb_sim {
	const struct kb_topo *topo;
	__u32 max_tx;
	__u32 ntrace;
	__u32 epoch;
	struct sim_copy *queue;		/* max_tx + 1 */
	__u32 *trace;			/* max_tx */
	__u32 *seen;			/* per node: epoch of last delivery */
};

/* The packet of one run, as the source wrote it. */
struct sim_pkt {
	const __u8 *b;
	__u32 len;
	__u32 tag;
	int msbf;
	struct kb_ipbf_zf zf;
	struct kb_ipbf_no no;		/* yes-no: the no record (bytes 0: none) */
	const __u8 *no_bits;
	const struct kb_ipbf_zf *lids;	/* the tag's link IDs */
	const __u64 *lhash;		/* the tag's link hashes */
};

int kb_sim_new(const struct kb_topo *t, __u32 max_tx, struct kb_sim **sp)
{
	struct kb_sim *s;

	if (!t || !t->final || !sp)
		return -EINVAL;
	if (!max_tx)
		max_tx = SIM_MAX_TX_DEFAULT;
	if (max_tx > (1U << 30))
		return -ERANGE;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->topo = t;
	s->max_tx = max_tx;
	s->queue = malloc(((size_t)max_tx + 1) * sizeof(*s->queue));
	s->trace = malloc((size_t)max_tx * sizeof(*s->trace));
	s->seen = calloc(t->nnodes, sizeof(*s->seen));
	if (!s->queue || !s->trace || !s->seen) {
		kb_sim_free(s);
		return -ENOMEM;
	}
	*sp = s;
	return 0;
}

void kb_sim_free(struct kb_sim *s)
{
	if (!s)
		return;
	free(s->queue);
	free(s->trace);
	free(s->seen);
	free(s);
}

const __u32 *kb_sim_trace(const struct kb_sim *s, __u32 *n)
{
	if (n)
		*n = s ? s->ntrace : 0;
	return s ? s->trace : NULL;
}

/* A copy arrives at a host (not the source): deliver, never forward. */
static void sim_arrive(struct kb_sim *s, const struct kb_tree *tr, __u32 v,
		       struct kb_sim_result *r)
{
	if (!tr || !tr->member[v]) {
		r->leaked_hosts++;
	} else if (s->seen[v] != s->epoch) {
		s->seen[v] = s->epoch;
		r->delivered++;
	} else {
		r->dup++;
	}
}

/* Transmit a copy on @port; return 0, or -1 when the budget is spent. */
static int sim_tx(struct kb_sim *s, const struct kb_tree *tr,
		  const struct sim_copy *from, __u32 port, __u32 off,
		  __u32 *tail, struct kb_sim_result *r)
{
	const struct kb_port *p = &s->topo->ports[port];
	struct sim_copy *c;

	if (s->ntrace >= s->max_tx) {
		r->truncated = 1;
		return -1;
	}
	s->trace[s->ntrace++] = port;
	r->tx++;
	if (tr && tr->on_tree[port])
		r->tx_tree++;
	else if (tr)
		r->tx_off++;
	c = &s->queue[(*tail)++];
	c->node = p->peer_node;
	c->in_port = p->peer;
	c->off = off;
	c->hop_limit = from->hop_limit - 1;
	c->nstages = from->nstages - (off != from->off);
	return 0;
}

static int sim_lipsin(struct kb_sim *s, const struct kb_tree *tr,
		      const struct sim_pkt *pk, const struct sim_copy *c,
		      __u32 *tail, struct kb_sim_result *r)
{
	const struct kb_node *n = &s->topo->nodes[c->node];
	__u32 p, end = n->first_port + n->nports;

	for (p = n->first_port; p < end; p++) {
		if (p == c->in_port || !kb_ipbf_zf_match(&pk->zf, &pk->lids[p]))
			continue;
		if (kb_ipbf_no_match(pk->no_bits, &pk->no, pk->lhash[p]))
			continue;
		if (sim_tx(s, tr, c, p, c->off, tail, r))
			return -1;
	}
	return 0;
}

/*
 * The frame a copy is at a node: the Ethernet header, then the packet
 * from its fixed header on, less the stages removed on the way (@off is
 * the byte offset of its current stage).
 */
static __u64 sim_frame_len(const struct sim_pkt *pk, __u32 off)
{
	return (__u64)KB_IPBF_ETH_LEN + pk->len - (off - KB_IPBF_HDR_LEN);
}

/*
 * The stage walk of a node's ingress, as the XDP program's
 * (ipbf_walk_stage() of bpf/kbloom_ipbf.bpf.c): each of the @nstages
 * records left, from byte @off, must be a well-formed record that ends
 * within the packet, or the copy is dropped before any port sees it.
 * Return: 0 and the first record's fields in *@st0, or -1: drop.
 */
static int sim_stages_ok(const struct sim_pkt *pk, __u32 off, __u32 nstages,
			 struct kb_ipbf_stage *st0)
{
	struct kb_ipbf_stage st;
	__u32 i, avail;

	for (i = 0; i < nstages; i++) {
		if (off >= pk->len)
			return -1;
		avail = pk->len - off;
		if (kb_ipbf_stage_parse(kb_ipbf_load_be64(pk->b + off,
							  avail < 8 ? avail : 8),
					avail, &st))
			return -1;
		if (!i)
			*st0 = st;
		off += st.bytes;
	}
	return nstages ? 0 : -1;
}

static int sim_msbf(struct kb_sim *s, const struct kb_tree *tr,
		    const struct sim_pkt *pk, const struct sim_copy *c,
		    __u32 *tail, struct kb_sim_result *r)
{
	const struct kb_node *n = &s->topo->nodes[c->node];
	__u32 p, end = n->first_port + n->nports;
	const __u8 *rec = pk->b + c->off;
	struct kb_ipbf_stage st = { 0 };

	/* the walk parses no stage of a frame over the limit */
	if (sim_frame_len(pk, c->off) > KB_IPBF_FRAME_MAX ||
	    sim_stages_ok(pk, c->off, c->nstages, &st)) {
		r->drop_bad++;
		return 0;
	}
	for (p = n->first_port; p < end; p++) {
		if (p == c->in_port ||
		    !kb_ipbf_stage_match(rec, st.bytes, &st, pk->lhash[p]))
			continue;
		if (sim_tx(s, tr, c, p, c->off + st.bytes, tail, r))
			return -1;
	}
	return 0;
}

/* One copy at its node; return -1 when the budget is spent. */
static int sim_step(struct kb_sim *s, const struct kb_tree *tr,
		    const struct sim_pkt *pk, const struct sim_copy *c,
		    __u32 *tail, struct kb_sim_result *r)
{
	if (c->in_port != KB_NONE &&
	    s->topo->nodes[c->node].kind == KB_NODE_HOST) {
		sim_arrive(s, tr, c->node, r);
		return 0;
	}
	if (pk->msbf && !c->nstages)
		return 0;
	if (!c->hop_limit) {
		r->drop_hop++;
		return 0;
	}
	if (pk->msbf)
		return sim_msbf(s, tr, pk, c, tail, r);
	return sim_lipsin(s, tr, pk, c, tail, r);
}

/* The no record of a yes-no header: 0, or -1 when malformed. */
static int sim_no(struct sim_pkt *pk)
{
	if (pk->len < KB_IPBF_YESNO_LEN)
		return -1;
	memcpy(&pk->no, pk->b + KB_IPBF_LIPSIN_LEN, KB_IPBF_NO_HDR_LEN);
	pk->no_bits = pk->b + KB_IPBF_YESNO_LEN;
	return kb_ipbf_no_check(&pk->no, pk->len - KB_IPBF_LIPSIN_LEN);
}

/* Check the header as the first node would; return 0 or the drop reason. */
static int sim_prepare(const struct kb_lids *l, const void *hdr, size_t len,
		       __u32 fill_limit, struct sim_pkt *pk,
		       struct kb_sim_result *r)
{
	const struct kb_ipbf_hdr *h = hdr;
	__u32 avail = len > 0xFFFFFFFFU ? 0xFFFFFFFFU : (__u32)len;

	memset(pk, 0, sizeof(*pk));
	pk->b = hdr;
	pk->len = avail;
	if (avail < KB_IPBF_HDR_LEN || kb_ipbf_hdr_check(h, avail) ||
	    h->tag >= l->d) {
		r->drop_bad++;
		return -1;
	}
	pk->tag = h->tag;
	pk->msbf = !!(h->flags & KB_IPBF_F_MSBF);
	pk->lids = kb_lid(l, pk->tag, 0);
	pk->lhash = &l->lhash[(size_t)pk->tag * l->topo->nports];
	if (pk->msbf)
		return 0;
	/* the fill first, then the no record: ipbf_check_frame()'s order */
	kb_ipbf_zf_load(&pk->zf, pk->b + KB_IPBF_HDR_LEN);
	if (kb_ipbf_zf_fill(&pk->zf) > fill_limit) {
		r->drop_fill++;
		return -1;
	}
	if ((h->flags & KB_IPBF_F_YESNO) && sim_no(pk)) {
		r->drop_bad++;
		return -1;
	}
	return 0;
}

int kb_sim_run(struct kb_sim *s, const struct kb_lids *l,
	       const struct kb_tree *tr, __u32 src, const void *hdr,
	       size_t len, __u32 fill_limit, struct kb_sim_result *r)
{
	const struct kb_ipbf_hdr *h = hdr;
	__u32 head = 0, tail = 1;
	struct kb_sim_result res;
	struct sim_pkt pk;

	if (!s || !l || !hdr || !r || l->topo != s->topo ||
	    (tr && tr->topo != s->topo) || src >= s->topo->nnodes)
		return -EINVAL;
	if (fill_limit < 1 || fill_limit > KB_IPBF_ZF_BITS)
		return -ERANGE;
	memset(&res, 0, sizeof(res));
	s->ntrace = 0;
	if (++s->epoch == 0) {
		memset(s->seen, 0, s->topo->nnodes * sizeof(*s->seen));
		s->epoch = 1;
	}
	if (!sim_prepare(l, hdr, len, fill_limit, &pk, &res)) {
		s->queue[0] = (struct sim_copy){ src, KB_NONE, KB_IPBF_HDR_LEN,
						 h->hop_limit, h->nstages };
		while (head < tail)
			if (sim_step(s, tr, &pk, &s->queue[head++], &tail, &res))
				break;
	}
	*r = res;
	return 0;
}
