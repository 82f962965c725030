// SPDX-License-Identifier: GPL-2.0
/*
 * Malformed and edge headers through the userspace parser and simulator
 * (the cases of ipbf_bad_stages.h, which tests/bpf/ipbf_pkt.c and
 * tests/bpf/ipbf_frame.c run through the XDP ingress).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "kselftest_harness.h"
#include "libkbloom_net.h"
#include "core_util.h"
#include "ipbf_bad_stages.h"

/*
 * One case of ipbf_bad_stages.h: accepted or refused by the parse as the
 * case says, and at the source (the simulator's first node, where the XDP
 * ingress of the first node decides) forwarded along the whole tree, or
 * dropped, nothing sent, under the counter of the case's verdict.
 */
static void bad_stage_case(struct __test_metadata *_metadata,
			   const struct ibs_net *n, const struct ibs_case *c,
			   __u8 *copy)
{
	struct kb_ipbf_info *out = malloc(sizeof(*out));
	int fwd = c->verdict == IBS_FWD;
	struct kb_sim_result res;
	__u32 len;

	ASSERT_NE(NULL, out);
	len = ibs_make(n, c, copy);
	EXPECT_EQ(c->parse_ok ? 0 : -EBADMSG, kb_ipbf_parse(copy, len, out))
		TH_LOG("%s", c->what);
	ASSERT_EQ(0, kb_sim_run(n->sim, n->l, n->tr, n->tr->src, copy, len,
				128, &res));
	EXPECT_EQ(fwd ? n->tr->nlinks : 0, res.tx) TH_LOG("%s", c->what);
	EXPECT_EQ(fwd, res.delivered) TH_LOG("%s", c->what);
	EXPECT_EQ(c->verdict == IBS_STAGE || c->verdict == IBS_HEADER,
		  res.drop_bad) TH_LOG("%s", c->what);
	EXPECT_EQ(c->verdict == IBS_HOP, res.drop_hop) TH_LOG("%s", c->what);
	EXPECT_EQ(c->verdict == IBS_FILL, res.drop_fill) TH_LOG("%s", c->what);
	free(out);
}

/*
 * The cases of ipbf_bad_stages.h: MSBF headers whose later stages are
 * malformed (the simulator walks every stage left at each hop, as the
 * XDP ingress does, so each is dropped at its source, where parsing one
 * stage per hop once sent it over the links whose stages were fine),
 * MSBF frames at and over the ingress's frame limit, yes-no headers over
 * the fill limit with a malformed no record (the fill first, as the XDP
 * ingress).  tests/bpf/ipbf_pkt.c gives the XDP verdict on the same
 * bytes.
 */
TEST(msbf_bad_later_stage)
{
	struct kb_sim_result res;
	struct ibs_net n;
	__u8 *copy;
	__u32 i;

	copy = malloc(IBS_COPY_MAX);
	ASSERT_NE(NULL, copy);
	ASSERT_EQ(0, ibs_net_up(&n));
	for (i = 0; i < IBS_NBASES; i++) {
		ASSERT_EQ(0, kb_sim_run(n.sim, n.l, n.tr, n.tr->src, n.hdr[i],
					n.len[i], 128, &res));
		ASSERT_EQ(1, res.delivered);
		ASSERT_EQ(n.tr->nlinks, res.tx);
	}
	for (i = 0; i < IBS_NCASES; i++)
		bad_stage_case(_metadata, &n, &ibs_cases[i], copy);
	ibs_net_down(&n);
	free(copy);
}

/*
 * The frame limit counts the Ethernet header and the inner packet, and
 * only MSBF: the limit less one byte of inner packet is forwarded, the
 * same header as LIPSIN or yes-no in a frame over the limit is too (the
 * XDP ingress parses those at fixed offsets, whatever follows).
 */
TEST(frame_limit_msbf_only)
{
	struct kb_sim_result res;
	struct ibs_net n;
	__u32 len, lipsin;
	__u8 *copy;

	copy = calloc(1, IBS_COPY_MAX);
	ASSERT_NE(NULL, copy);
	ASSERT_EQ(0, ibs_net_up(&n));
	len = KB_IPBF_FRAME_MAX - KB_IPBF_ETH_LEN - 1;
	memcpy(copy, n.hdr[IBS_MSBF], n.len[IBS_MSBF]);
	ASSERT_EQ(0, kb_sim_run(n.sim, n.l, n.tr, n.tr->src, copy, len, 128,
				&res));
	EXPECT_EQ(n.tr->nlinks, res.tx);
	EXPECT_EQ(0, res.drop_bad);
	ASSERT_EQ(0, kb_sim_run(n.sim, n.l, n.tr, n.tr->src, copy, len + 2,
				128, &res));
	EXPECT_EQ(0, res.tx);
	EXPECT_EQ(1, res.drop_bad);
	/* yes-no, then its yes part alone as a LIPSIN header */
	for (lipsin = 0; lipsin < 2; lipsin++) {
		memset(copy, 0, IBS_COPY_MAX);
		memcpy(copy, n.hdr[IBS_YESNO], n.len[IBS_YESNO]);
		if (lipsin)
			copy[1] = 0;
		ASSERT_EQ(0, kb_sim_run(n.sim, n.l, n.tr, n.tr->src, copy,
					IBS_COPY_MAX, 128, &res));
		EXPECT_EQ(1, res.delivered) TH_LOG("lipsin %u", lipsin);
		EXPECT_LE(n.tr->nlinks, res.tx);
		EXPECT_EQ(0, res.drop_bad + res.drop_fill);
	}
	ibs_net_down(&n);
	free(copy);
}

/*
 * kb_ipbf_parse() refuses what a node drops: an MSBF header with stages
 * left in a frame over the limit (the ingress walks none of them), one
 * byte more than the longest it accepts; with no stage left the frame
 * is delivered, not walked, and accepted at any length.
 */
TEST(parse_frame_limit)
{
	__u32 max = KB_IPBF_FRAME_MAX - KB_IPBF_ETH_LEN;
	struct kb_ipbf_info *out;
	struct ibs_net n;
	__u8 *copy;

	copy = calloc(1, IBS_COPY_MAX);
	out = malloc(sizeof(*out));
	ASSERT_NE(NULL, copy);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, ibs_net_up(&n));
	memcpy(copy, n.hdr[IBS_MSBF], n.len[IBS_MSBF]);
	EXPECT_EQ(0, kb_ipbf_parse(copy, max, out));
	EXPECT_EQ(n.in[IBS_MSBF]->nstages, out->nstages);
	EXPECT_EQ(-EBADMSG, kb_ipbf_parse(copy, max + 1, out));
	copy[4] = 0;
	EXPECT_EQ(0, kb_ipbf_parse(copy, max + 1, out));
	EXPECT_EQ(0, out->nstages);
	ibs_net_down(&n);
	free(out);
	free(copy);
}

TEST_HARNESS_MAIN
