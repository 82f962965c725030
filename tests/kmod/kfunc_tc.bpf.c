// SPDX-License-Identifier: GPL-2.0
/*
 * A tc program calling kbloom.ko's kfuncs: the kfuncs are registered for
 * XDP only, so the verifier must refuse it (kfunc_test.c, tc_refused).
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include "uapi/kbloom_kfunc.h"

char filter_name[32];

SEC("tc")
int kf_tc(struct __sk_buff *skb)
{
	struct kb_filter *f;

	f = bpf_kbloom_get(filter_name, sizeof(filter_name));
	if (f)
		bpf_kbloom_put(f);
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
