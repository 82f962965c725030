/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MSBF headers whose first stage is fine and a later one is not, shared
 * by the simulator's core test (tests/core/ipbf_stages_test.c) and the XDP
 * ingress's bpf test (tests/bpf/ipbf_pkt.c), so that both verdicts are
 * about the same bytes.  The XDP ingress walks every stage left before it
 * forwards (ipbf_walk_stage() of bpf/kbloom_ipbf.bpf.c) and the
 * simulator does the same at each hop: each case is dropped at the first
 * node, as malformed (XDP: drop_stage; simulator: drop_bad), or for its
 * hop limit when that is 0 (checked before the walk: drop_hop both).
 *
 * Each case rewrites a copy of a valid header of at least three stages,
 * parsed into @in, and returns the copy's length (the frame ends there:
 * no inner packet follows).
 */
#ifndef KBT_IPBF_BAD_STAGES_H
#define KBT_IPBF_BAD_STAGES_H

#include <stdlib.h>
#include <string.h>

#include "libkbloom_net.h"

#define IBS_MIN_STAGES	3U

struct ibs_case {
	const char *what;
	__u32 (*make)(__u8 *h, __u32 len, const struct kb_ipbf_info *in);
	int hop_drop;	/* 1: dropped for its hop limit 0, not malformed */
};

/* The last stage one byte short. */
static inline __u32 ibs_last_cut(__u8 *h, __u32 len,
				 const struct kb_ipbf_info *in)
{
	return len - 1;
}

/* The frame ends one byte into the last stage. */
static inline __u32 ibs_last_stub(__u8 *h, __u32 len,
				  const struct kb_ipbf_info *in)
{
	return in->stage_at[in->nstages - 1] + 1;
}

/* Stage 1's gamma code: 16 leading zeros (m would need 17 bits). */
static inline __u32 ibs_gamma_zeros(__u8 *h, __u32 len,
				    const struct kb_ipbf_info *in)
{
	h[in->stage_at[1]] = 0;
	h[in->stage_at[1] + 1] = 0;
	return len;
}

/* The last stage's gamma code all zeros to the end of the frame. */
static inline __u32 ibs_last_zero(__u8 *h, __u32 len,
				  const struct kb_ipbf_info *in)
{
	__u32 at = in->stage_at[in->nstages - 1];

	memset(h + at, 0, len - at);
	return len;
}

/*
 * Stage 1 claims m = 65535 (gamma: 15 zeros, then 16 ones; then k), a
 * record of 8197 bytes in a short frame.
 */
static inline __u32 ibs_too_long(__u8 *h, __u32 len,
				 const struct kb_ipbf_info *in)
{
	__u32 at = in->stage_at[1];

	h[at] = 0x00;
	h[at + 1] = 0x01;
	h[at + 2] = 0xFF;
	h[at + 3] = 0xFE;
	return len;
}

/* nstages one more than the stages present. */
static inline __u32 ibs_extra_stage(__u8 *h, __u32 len,
				    const struct kb_ipbf_info *in)
{
	h[4]++;
	return len;
}

/* Stage 1 malformed and hop limit 0: the hop limit is checked first. */
static inline __u32 ibs_hop0(__u8 *h, __u32 len,
			     const struct kb_ipbf_info *in)
{
	h[2] = 0;
	return ibs_gamma_zeros(h, len, in);
}

static const struct ibs_case ibs_cases[] = {
	{ "last stage one byte short", ibs_last_cut, 0 },
	{ "frame ends one byte into the last stage", ibs_last_stub, 0 },
	{ "stage 1 gamma code of 16 zeros", ibs_gamma_zeros, 0 },
	{ "last stage all zeros", ibs_last_zero, 0 },
	{ "stage 1 of 65535 bits in a short frame", ibs_too_long, 0 },
	{ "nstages one more than present", ibs_extra_stage, 0 },
	{ "stage 1 malformed, hop limit 0", ibs_hop0, 1 },
};

#define IBS_NCASES	(sizeof(ibs_cases) / sizeof(ibs_cases[0]))

/*
 * The header the cases start from: host 0 to host 15 of a k = 4 fat-tree
 * (another pod: 6 links, 6 stages, tag 0 of d = 8), and the simulator of
 * that topology.
 */
struct ibs_net {
	struct kb_ipbf_info *in;
	__u8 hdr[512];
	__u32 len;
	struct kb_topo *t;
	struct kb_lids *l;
	struct kb_sim *sim;
	struct kb_spt *s;
	struct kb_tree *tr;
	struct kb_msbf *ms;
};

static inline void ibs_net_down(struct ibs_net *n)
{
	kb_sim_free(n->sim);
	kb_msbf_free(n->ms);
	kb_lids_free(n->l);
	kb_tree_free(n->tr);
	kb_spt_free(n->s);
	kb_topo_free(n->t);
	free(n->in);
	memset(n, 0, sizeof(*n));
}

/* Return: 0, or -1 when a step fails or the header does not suit. */
static inline int ibs_net_up(struct ibs_net *n)
{
	__u32 dst;
	int len;

	memset(n, 0, sizeof(*n));
	n->in = malloc(sizeof(*n->in));
	if (!n->in || kb_topo_fat_tree(4, &n->t) || kb_spt_new(n->t, &n->s) ||
	    kb_tree_new(n->t, &n->tr) || kb_lids_new(n->t, 5, 5, 8, &n->l) ||
	    kb_msbf_new(n->t, &n->ms) || kb_sim_new(n->t, 0, &n->sim))
		return -1;
	dst = n->t->hosts[15];
	if (kb_spt_compute(n->s, n->t->hosts[0], 1) ||
	    kb_tree_build(n->tr, n->s, &dst, 1))
		return -1;
	len = kb_msbf_build(n->ms, n->l, n->tr, NULL, n->hdr, sizeof(n->hdr),
			    NULL);
	if (len <= 0 || kb_ipbf_parse(n->hdr, len, n->in))
		return -1;
	n->len = len;
	/* every case has its bytes: stage 1's four, two of the last stage */
	if (n->in->nstages < IBS_MIN_STAGES ||
	    n->in->stage_at[1] + 4 > n->len ||
	    n->in->stage[n->in->nstages - 1].bytes < 2)
		return -1;
	return 0;
}

/* Case @c's header into @copy: its length. */
static inline __u32 ibs_make(const struct ibs_net *n, const struct ibs_case *c,
			     __u8 *copy)
{
	memcpy(copy, n->hdr, n->len);
	return c->make(copy, n->len, n->in);
}

#endif /* KBT_IPBF_BAD_STAGES_H */
