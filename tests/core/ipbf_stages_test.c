// SPDX-License-Identifier: GPL-2.0
/*
 * MSBF headers whose later stages are malformed, through the userspace
 * parser and simulator (the cases of ipbf_bad_stages.h, which
 * tests/bpf/ipbf_pkt.c runs through the XDP ingress).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "kselftest_harness.h"
#include "libkbloom_net.h"
#include "core_util.h"
#include "ipbf_bad_stages.h"

/*
 * One bad case of ipbf_bad_stages.h: refused by the parse, and dropped
 * by the simulator at the source (nothing sent), for its hop limit or as
 * malformed, as the XDP ingress drops it at the first node.
 */
static void bad_stage_case(struct __test_metadata *_metadata,
			   const struct ibs_net *n, const struct ibs_case *c)
{
	struct kb_ipbf_info *out = malloc(sizeof(*out));
	struct kb_sim_result res;
	__u8 copy[sizeof(n->hdr)];
	__u32 len;

	ASSERT_NE(NULL, out);
	len = ibs_make(n, c, copy);
	EXPECT_EQ(-EBADMSG, kb_ipbf_parse(copy, len, out)) TH_LOG("%s", c->what);
	ASSERT_EQ(0, kb_sim_run(n->sim, n->l, n->tr, n->tr->src, copy, len,
				128, &res));
	EXPECT_EQ(0, res.tx) TH_LOG("%s", c->what);
	EXPECT_EQ(0, res.delivered);
	EXPECT_EQ(!c->hop_drop, res.drop_bad) TH_LOG("%s", c->what);
	EXPECT_EQ(c->hop_drop, res.drop_hop) TH_LOG("%s", c->what);
	free(out);
}

/*
 * MSBF headers whose later stages are malformed: the simulator walks
 * every stage left at each hop, as the XDP ingress does, so each is
 * dropped at its source (tests/bpf/ipbf_pkt.c gives the XDP verdict on
 * the same cases), where parsing one stage per hop once sent it over
 * the links whose stages were fine.
 */
TEST(msbf_bad_later_stage)
{
	struct kb_sim_result res;
	struct ibs_net n;
	__u32 i;

	ASSERT_EQ(0, ibs_net_up(&n));
	ASSERT_EQ(0, kb_sim_run(n.sim, n.l, n.tr, n.tr->src, n.hdr, n.len, 128,
				&res));
	ASSERT_EQ(1, res.delivered);
	ASSERT_EQ(n.tr->nlinks, res.tx);
	for (i = 0; i < IBS_NCASES; i++)
		bad_stage_case(_metadata, &n, &ibs_cases[i]);
	ibs_net_down(&n);
}

TEST_HARNESS_MAIN
