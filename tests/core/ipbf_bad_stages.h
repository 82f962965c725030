/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MSBF headers whose first stage is fine and a later one is not, shared
 * by the simulator's core test (tests/core/ipbf_test.c) and the XDP
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

#endif /* KBT_IPBF_BAD_STAGES_H */
