// SPDX-License-Identifier: GPL-2.0
/*
 * The source's forwarding step (kbloom_ipbf_source_step()) on the shared
 * cases of tests/core/ipbf_bad_stages.h: the verdict of the XDP ingress
 * and of the simulator at the source (tests/bpf/ipbf_pkt.c,
 * tests/bpf/ipbf_frame.c, tests/core/ipbf_stages_test.c), in their order
 * of checks: a yes-no header over the fill limit with a malformed no
 * record is a fill drop (-ERANGE), an MSBF frame one byte over the frame
 * limit is dropped (-EBADMSG) though stripping stage 0 would bring it
 * under it, and its hop limit 0 comes first (-EHOSTUNREACH).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "kselftest_harness.h"
#include "libkbloom_xdp_net.h"
#include "tests/core/ipbf_bad_stages.h"

#define FILL	128U

/* The source step's return for case @c of @len bytes from base @b. */
static int expected_ret(const struct ibs_net *n, const struct ibs_case *c,
			__u32 len)
{
	switch (c->verdict) {
	case IBS_STAGE:
	case IBS_HEADER:
		return -EBADMSG;
	case IBS_HOP:
		return -EHOSTUNREACH;
	case IBS_FILL:
		return -ERANGE;
	default:
		if (c->base == IBS_MSBF)
			return (int)(len - n->in[IBS_MSBF]->stage[0].bytes);
		return (int)len;
	}
}

/*
 * Every case through the source step on the source host's port: its
 * verdict, the one the simulator gives on the same bytes (checked too);
 * a refused header left as it was.
 */
TEST(source_step_as_ingress)
{
	const struct ibs_case *c;
	__u8 *copy, *before;
	struct ibs_net n;
	__u32 i, len, port;
	int ret;

	copy = malloc(IBS_COPY_MAX);
	before = malloc(IBS_COPY_MAX);
	ASSERT_NE(NULL, copy);
	ASSERT_NE(NULL, before);
	ASSERT_EQ(0, ibs_net_up(&n));
	port = kb_topo_port(n.t, n.tr->src, 0);
	for (i = 0; i < IBS_NCASES; i++) {
		c = &ibs_cases[i];
		len = ibs_make(&n, c, copy);
		EXPECT_EQ(1, ibs_sim_agrees(&n, c, copy, len))
			TH_LOG("%s", c->what);
		memcpy(before, copy, len);
		ret = kbloom_ipbf_source_step(n.l, port, copy, len, FILL);
		EXPECT_EQ(expected_ret(&n, c, len), ret) TH_LOG("%s", c->what);
		if (ret < 0)
			EXPECT_EQ(0, memcmp(before, copy, len))
				TH_LOG("%s", c->what);
	}
	ibs_net_down(&n);
	free(before);
	free(copy);
}

/*
 * MSBF frames from the limit less 2 bytes to the limit plus stage 0's
 * bytes (Ethernet header included): forwarded with stage 0 removed up to
 * the limit, refused above it, as the ingress and the simulator drop
 * them at the source, where the stripped frame would be under the limit.
 */
TEST(source_step_msbf_frame_limit)
{
	struct kb_sim_result res;
	__u32 len, top, skip, port;
	struct ibs_net n;
	__u8 *copy;
	int over, ret;

	ASSERT_EQ(0, ibs_net_up(&n));
	skip = n.in[IBS_MSBF]->stage[0].bytes;
	top = KB_IPBF_FRAME_MAX - KB_IPBF_ETH_LEN + skip;
	copy = calloc(1, top);
	ASSERT_NE(NULL, copy);
	port = kb_topo_port(n.t, n.tr->src, 0);
	for (len = KB_IPBF_FRAME_MAX - KB_IPBF_ETH_LEN - 2; len <= top; len++) {
		over = KB_IPBF_ETH_LEN + len > KB_IPBF_FRAME_MAX;
		memset(copy, 0, top);
		memcpy(copy, n.hdr[IBS_MSBF], n.len[IBS_MSBF]);
		ASSERT_EQ(0, kb_sim_run(n.sim, n.l, n.tr, n.tr->src, copy, len,
					FILL, &res));
		EXPECT_EQ(over, res.drop_bad) TH_LOG("len %u", len);
		ret = kbloom_ipbf_source_step(n.l, port, copy, len, FILL);
		EXPECT_EQ(over ? -EBADMSG : (int)(len - skip), ret)
			TH_LOG("len %u", len);
	}
	ibs_net_down(&n);
	free(copy);
}

TEST_HARNESS_MAIN
