// SPDX-License-Identifier: GPL-2.0
/*
 * The leakage experiment on real XDP against its model (libkbloom_exp.h):
 * a k = 4 fat-tree of 20 switch and 16 host network namespaces joined by
 * veth links, every scheme's data path loaded from the model's state
 * (mcast with blocked filters, mcbf, ipbf for LIPSIN d = 1, 8, MSBF and
 * yes-no;
 * the exact tables stood for by 2^20-bit mcast filters), and every packet
 * of the model sent from its source host.  Per packet, the transmissions
 * of every switch port and the arrivals at every host must be the
 * model's, so the leaked transmissions agree packet for packet.
 *
 * The parameters are chosen so that every Bloom filter scheme leaks:
 * small per-port filters with 2 probes, LIPSIN link IDs of 1 bit; with
 * them the model predicts about 40 leaks for blocked filters, 6 for
 * MC-BF, 220 for LIPSIN d=1 and 40 for d=8 over 120 groups; yes-no, whose
 * no filters hold the candidates its zFilters wrongly match, leaks less
 * than d=8 (none here: 2497 transmissions, the exact tables' count).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "libkbloom_exp.h"

FIXTURE(exp) {
	struct kb_exp *x;
};

FIXTURE_SETUP(exp)
{
	self->x = NULL;
}

FIXTURE_TEARDOWN(exp)
{
	kb_exp_free(self->x);
}

/* About 20 s on an idle 2-CPU host, most of it loading 76 XDP instances. */
TEST_F_TIMEOUT(exp, model_equals_emulation, 180)
{
	struct kb_exp_emu_result res[KB_EXP_NSCHEMES], *r;
	struct kb_exp_emu_opts o = { .log = stderr };
	const struct kb_exp_run *run;
	struct kb_exp_params p;
	struct kb_exp *x = NULL;
	char why[256] = "";
	__u32 s;

	if (geteuid())
		SKIP(return, "needs root: network namespaces and XDP");
	kb_exp_params_init(&p);
	p.ft_k = 4;
	p.groups = 120;
	p.size_min = 2;
	p.size_max = 14;
	p.nbits = 1;
	p.bits[0] = 512;
	p.k = 2;
	p.lipsin_k = 1;
	p.threads = 1;
	p.schemes = KB_EXP_CLASSIC | KB_EXP_S(KB_EXP_YESNO);
	ASSERT_EQ(0, kb_exp_new(&p, &self->x, why, sizeof(why)))
		TH_LOG("%s", why);
	x = self->x;
	ASSERT_EQ(0, kb_exp_emulate(x, &o, res)) TH_LOG("%s", kb_exp_error(x));
	kb_exp_emu_print(res, stderr);
	/* the model's own run (groups in parallel, FP-free groups skipped) */
	ASSERT_EQ(0, kb_exp_run(x));
	for (s = 0; s < KB_EXP_NSCHEMES; s++) {
		r = &res[s];
		if (!(p.schemes & KB_EXP_S(s)))
			continue;
		if (s == KB_EXP_STANDARD) {
			EXPECT_EQ(-EOPNOTSUPP, r->status);
			continue;
		}
		ASSERT_EQ(0, r->status)
			TH_LOG("%s: %s", kb_exp_scheme_name(s), r->why);
		EXPECT_EQ(p.groups, r->packets + r->skipped)
			TH_LOG("%s", kb_exp_scheme_name(s));
		EXPECT_EQ(0, r->skipped);
		EXPECT_EQ(0, r->pkt_mismatch) TH_LOG("%s", kb_exp_scheme_name(s));
		EXPECT_EQ(0, r->host_mismatch) TH_LOG("%s", kb_exp_scheme_name(s));
		EXPECT_EQ(r->model_tx, r->emu_tx);
		EXPECT_EQ(r->model_leak, r->emu_leak)
			TH_LOG("%s", kb_exp_scheme_name(s));
		EXPECT_EQ(r->model_hosts, r->emu_hosts);
		EXPECT_EQ(r->model_leaked_hosts, r->emu_leaked_hosts);
		if (r->emu_leak_counter != ~0ULL)	/* mcast, mcbf audit */
			EXPECT_EQ(r->emu_leak, r->emu_leak_counter);
		/* what the model's run counted for the same scheme */
		run = kb_exp_find_run(x, s, 512);
		ASSERT_NE(NULL, run);
		EXPECT_EQ(run->m.tx_off, r->model_leak)
			TH_LOG("%s", kb_exp_scheme_name(s));
		if (s == KB_EXP_EXACT || s == KB_EXP_MSBF) {
			EXPECT_EQ(0, r->emu_leak);
		} else if (s == KB_EXP_YESNO) {
			/* lipsin8's subtrees; the no filters cut copies on XDP */
			EXPECT_LT(r->emu_leak, res[KB_EXP_LIPSIN8].emu_leak);
		} else {
			EXPECT_LT(0, r->emu_leak)
				TH_LOG("%s: no leak, a weak comparison",
				       kb_exp_scheme_name(s));
		}
	}
}

TEST_HARNESS_MAIN
