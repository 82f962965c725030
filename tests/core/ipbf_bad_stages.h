/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Malformed and edge headers, shared by the simulator's core test
 * (tests/core/ipbf_stages_test.c) and the XDP ingress's bpf tests
 * (tests/bpf/ipbf_pkt.c through BPF_PROG_TEST_RUN, tests/bpf/ipbf_frame.c
 * on real frames), so that both verdicts are about the same bytes.
 *
 * MSBF headers whose first stage is fine and a later one is not: the XDP
 * ingress walks every stage left before it forwards (ipbf_walk_stage() of
 * bpf/kbloom_ipbf.bpf.c) and the simulator does the same at each hop:
 * each case is dropped at the first node, as malformed (XDP: drop_stage;
 * simulator: drop_bad), or for its hop limit when that is 0 (checked
 * before the walk: drop_hop both).  MSBF frames around the length the
 * ingress parses (KB_IPBF_FRAME_MAX, Ethernet header included): one byte
 * over is dropped as malformed, the limit itself is forwarded (a yes-no
 * frame over it too: the limit is the MSBF stage walk's).  Yes-no
 * headers whose zFilter is over the fill limit and whose no record is
 * malformed: the fill is checked first (drop_fill both).
 *
 * Each case rewrites a copy of a valid header of its base, parsed into
 * @in, and returns the copy's length (the frame ends there: the inner
 * packet, when there is one, is zeros).
 */
#ifndef KBT_IPBF_BAD_STAGES_H
#define KBT_IPBF_BAD_STAGES_H

#include <stdlib.h>
#include <string.h>

#include "libkbloom_net.h"

#define IBS_MIN_STAGES	3U
/* the longest copy: a frame one byte over the limit, less Ethernet */
#define IBS_COPY_MAX	(KB_IPBF_FRAME_MAX + 1 - KB_IPBF_ETH_LEN)

/* The header a case starts from. */
enum ibs_base {
	IBS_MSBF = 0,	/* 6 stages, host 0 to host 15 of a k = 4 fat-tree */
	IBS_YESNO,	/* the yes-no header of that tree */
	IBS_NBASES,
};

/* The first node's verdict, and its counter in each executor. */
enum ibs_verdict {
	IBS_STAGE = 0,	/* XDP drop_stage, simulator drop_bad */
	IBS_HEADER,	/* XDP drop_header, simulator drop_bad */
	IBS_HOP,	/* drop_hop both */
	IBS_FILL,	/* drop_fill both */
	IBS_FWD,	/* forwarded by both */
};

struct ibs_case {
	const char *what;
	__u32 (*make)(__u8 *h, __u32 len, const struct kb_ipbf_info *in);
	enum ibs_base base;
	enum ibs_verdict verdict;
	int parse_ok;	/* kb_ipbf_parse() accepts it (a header check only) */
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

/* The inner packet zeros up to a frame of exactly KB_IPBF_FRAME_MAX bytes. */
static inline __u32 ibs_frame_max(__u8 *h, __u32 len,
				  const struct kb_ipbf_info *in)
{
	__u32 to = KB_IPBF_FRAME_MAX - KB_IPBF_ETH_LEN;

	memset(h + len, 0, to - len);
	return to;
}

/* ... and one byte more: the ingress parses no stage of it. */
static inline __u32 ibs_frame_over(__u8 *h, __u32 len,
				   const struct kb_ipbf_info *in)
{
	len = ibs_frame_max(h, len, in);
	h[len] = 0;
	return len + 1;
}

/* A frame over the limit with hop limit 0: the hop limit is checked first. */
static inline __u32 ibs_frame_over_hop0(__u8 *h, __u32 len,
					const struct kb_ipbf_info *in)
{
	h[2] = 0;
	return ibs_frame_over(h, len, in);
}

/* Yes-no: the no record's k 0 (allowed 1..KB_IPBF_NO_K_MAX). */
static inline __u32 ibs_no_k0(__u8 *h, __u32 len,
			      const struct kb_ipbf_info *in)
{
	h[KB_IPBF_LIPSIN_LEN + 1] = 0;
	return len;
}

/* Yes-no: an all-ones zFilter (fill 256, the limit 128). */
static inline __u32 ibs_yes_full(__u8 *h, __u32 len,
				 const struct kb_ipbf_info *in)
{
	memset(h + KB_IPBF_HDR_LEN, 0xFF, KB_IPBF_ZF_BYTES);
	return len;
}

/* Yes-no: both: the fill is checked before the no record. */
static inline __u32 ibs_yes_full_no_k0(__u8 *h, __u32 len,
				       const struct kb_ipbf_info *in)
{
	return ibs_no_k0(h, ibs_yes_full(h, len, in), in);
}

static const struct ibs_case ibs_cases[] = {
	{ "last stage one byte short", ibs_last_cut, IBS_MSBF, IBS_STAGE, 0 },
	{ "frame ends one byte into the last stage", ibs_last_stub, IBS_MSBF,
	  IBS_STAGE, 0 },
	{ "stage 1 gamma code of 16 zeros", ibs_gamma_zeros, IBS_MSBF,
	  IBS_STAGE, 0 },
	{ "last stage all zeros", ibs_last_zero, IBS_MSBF, IBS_STAGE, 0 },
	{ "stage 1 of 65535 bits in a short frame", ibs_too_long, IBS_MSBF,
	  IBS_STAGE, 0 },
	{ "nstages one more than present", ibs_extra_stage, IBS_MSBF,
	  IBS_STAGE, 0 },
	{ "stage 1 malformed, hop limit 0", ibs_hop0, IBS_MSBF, IBS_HOP, 0 },
	{ "MSBF frame of 65535 bytes", ibs_frame_max, IBS_MSBF, IBS_FWD, 1 },
	{ "MSBF frame of 65536 bytes", ibs_frame_over, IBS_MSBF, IBS_STAGE,
	  0 },
	{ "MSBF frame of 65536 bytes, hop limit 0", ibs_frame_over_hop0,
	  IBS_MSBF, IBS_HOP, 0 },
	{ "yes-no no record k 0", ibs_no_k0, IBS_YESNO, IBS_HEADER, 0 },
	{ "yes-no zFilter all ones", ibs_yes_full, IBS_YESNO, IBS_FILL, 1 },
	{ "yes-no zFilter all ones, no record k 0", ibs_yes_full_no_k0,
	  IBS_YESNO, IBS_FILL, 0 },
	{ "yes-no frame of 65536 bytes", ibs_frame_over, IBS_YESNO, IBS_FWD,
	  1 },
};

#define IBS_NCASES	(sizeof(ibs_cases) / sizeof(ibs_cases[0]))

/*
 * The headers the cases start from: host 0 to host 15 of a k = 4 fat-tree
 * (another pod: 6 links), as MSBF (6 stages, tag 0 of d = 8) and as
 * yes-no, and the simulator of that topology.
 */
struct ibs_net {
	struct kb_ipbf_info *in[IBS_NBASES];
	__u8 hdr[IBS_NBASES][512];
	__u32 len[IBS_NBASES];
	struct kb_topo *t;
	struct kb_lids *l;
	struct kb_sim *sim;
	struct kb_spt *s;
	struct kb_tree *tr;
	struct kb_msbf *ms;
	struct kb_yn_result *yn;
};

static inline void ibs_net_down(struct ibs_net *n)
{
	__u32 b;

	kb_sim_free(n->sim);
	kb_msbf_free(n->ms);
	kb_lids_free(n->l);
	kb_tree_free(n->tr);
	kb_spt_free(n->s);
	kb_topo_free(n->t);
	for (b = 0; b < IBS_NBASES; b++)
		free(n->in[b]);
	free(n->yn);
	memset(n, 0, sizeof(*n));
}

/* Base @b's header of @len bytes (or an error) into n->len[b] and n->in[b]. */
static inline int ibs_base_parse(struct ibs_net *n, enum ibs_base b, int len)
{
	if (len <= 0 || kb_ipbf_parse(n->hdr[b], len, n->in[b]))
		return -1;
	n->len[b] = len;
	return 0;
}

/* Return: 0, or -1 when a step fails or a header does not suit. */
static inline int ibs_net_up(struct ibs_net *n)
{
	const struct kb_ipbf_info *ms;
	__u32 dst;
	int len;

	memset(n, 0, sizeof(*n));
	n->in[IBS_MSBF] = malloc(sizeof(*n->in[IBS_MSBF]));
	n->in[IBS_YESNO] = malloc(sizeof(*n->in[IBS_YESNO]));
	n->yn = malloc(sizeof(*n->yn));
	if (!n->in[IBS_MSBF] || !n->in[IBS_YESNO] || !n->yn ||
	    kb_topo_fat_tree(4, &n->t) || kb_spt_new(n->t, &n->s) ||
	    kb_tree_new(n->t, &n->tr) || kb_lids_new(n->t, 5, 5, 8, &n->l) ||
	    kb_msbf_new(n->t, &n->ms) || kb_sim_new(n->t, 0, &n->sim))
		return -1;
	dst = n->t->hosts[15];
	if (kb_spt_compute(n->s, n->t->hosts[0], 1) ||
	    kb_tree_build(n->tr, n->s, &dst, 1))
		return -1;
	len = kb_msbf_build(n->ms, n->l, n->tr, NULL, n->hdr[IBS_MSBF],
			    sizeof(n->hdr[IBS_MSBF]), NULL);
	if (ibs_base_parse(n, IBS_MSBF, len) ||
	    kb_yn_build(n->l, n->tr, NULL, n->yn))
		return -1;
	len = kb_ipbf_write_yesno(n->hdr[IBS_YESNO], sizeof(n->hdr[IBS_YESNO]),
				  n->tr->height + 1, 0x88B6, n->yn);
	if (ibs_base_parse(n, IBS_YESNO, len))
		return -1;
	/* every case has its bytes: stage 1's four, two of the last stage */
	ms = n->in[IBS_MSBF];
	if (ms->nstages < IBS_MIN_STAGES ||
	    ms->stage_at[1] + 4 > n->len[IBS_MSBF] ||
	    ms->stage[ms->nstages - 1].bytes < 2)
		return -1;
	return 0;
}

/* Case @c's header into @copy (IBS_COPY_MAX bytes): its length. */
static inline __u32 ibs_make(const struct ibs_net *n, const struct ibs_case *c,
			     __u8 *copy)
{
	memcpy(copy, n->hdr[c->base], n->len[c->base]);
	return c->make(copy, n->len[c->base], n->in[c->base]);
}

/*
 * Does the simulator give case @c's verdict on @copy of @len bytes at the
 * source: the whole tree, or nothing sent and one drop under the counter
 * of the verdict?  Return: 1 if it does, 0 if not, -1 if it failed.
 */
static inline int ibs_sim_agrees(const struct ibs_net *n,
				 const struct ibs_case *c, const __u8 *copy,
				 __u32 len)
{
	enum ibs_verdict v = c->verdict;
	struct kb_sim_result r;

	if (kb_sim_run(n->sim, n->l, n->tr, n->tr->src, copy, len, 128, &r))
		return -1;
	if (v == IBS_FWD)
		return r.tx == n->tr->nlinks && r.delivered == 1 &&
		       !r.drop_bad && !r.drop_hop && !r.drop_fill;
	return !r.tx && !r.delivered &&
	       r.drop_bad == (v == IBS_STAGE || v == IBS_HEADER) &&
	       r.drop_hop == (v == IBS_HOP) && r.drop_fill == (v == IBS_FILL);
}

#endif /* KBT_IPBF_BAD_STAGES_H */
