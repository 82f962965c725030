/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shared malformed and edge headers of tests/core/ipbf_bad_stages.h
 * on the XDP side (tests/bpf/ipbf_pkt.c through BPF_PROG_TEST_RUN,
 * tests/bpf/ipbf_frame.c on real frames): the ingress counter of each
 * verdict.
 */
#ifndef KBT_IPBF_CASES_H
#define KBT_IPBF_CASES_H

#include "tests/bpf/ipbf_util.h"
#include "tests/core/ipbf_bad_stages.h"

static inline __u64 ipbf_verdict_count(const struct kbloom_ipbf_stats *st,
				       enum ibs_verdict v)
{
	switch (v) {
	case IBS_STAGE:
		return st->drop_stage;
	case IBS_HEADER:
		return st->drop_header;
	case IBS_HOP:
		return st->drop_hop;
	case IBS_FILL:
		return st->drop_fill;
	default:
		return st->rx_forwarded;
	}
}

/* The sum of the drop counters and of the forwarded ones. */
static inline __u64 ipbf_verdicts(const struct kbloom_ipbf_stats *st)
{
	return st->drop_truncated + st->drop_header + st->drop_tag +
	       st->drop_hop + st->drop_fill + st->drop_stage +
	       st->rx_forwarded + st->rx_end;
}

#endif /* KBT_IPBF_CASES_H */
