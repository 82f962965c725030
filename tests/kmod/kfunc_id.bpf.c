// SPDX-License-Identifier: GPL-2.0
/*
 * XDP program of kfunc_id_test: kbloom.ko's bpf_kbloom_test_id(), the
 * lookup by filter id without a name or a reference, under
 * BPF_PROG_TEST_RUN.
 *
 * The filter is the one of id filter_id (.bss, set by the test at any
 * time).  Frame: 14 bytes of Ethernet header (not looked at), a u8 key
 * length (clamped to KEY_BUF), then KEY_BUF bytes starting with the key.
 * Verdicts: XDP_PASS possibly present, XDP_DROP absent, XDP_TX the kfunc
 * answered an error (in last_ret), XDP_ABORTED a short frame.  Every run
 * counts its answer in answers[]: 0 absent, 1 present, 2 -ENOENT, 3 other.
 */
#include <linux/bpf.h>
#include <linux/errno.h>
#include <bpf/bpf_helpers.h>
#include "uapi/kbloom_kfunc.h"

#define HDR	14
#define KEY_BUF	80	/* above KBLOOM_KEY_MAX: 65..80 reach the kfunc */

__u32 filter_id;
int last_ret;
__u64 answers[4];

SEC("xdp")
int kf_id(struct xdp_md *ctx)
{
	__u8 key[KEY_BUF] = {};
	__u32 len;
	__u8 l;
	int ret;

	if (bpf_xdp_load_bytes(ctx, HDR, &l, 1) ||
	    bpf_xdp_load_bytes(ctx, HDR + 1, key, KEY_BUF))
		return XDP_ABORTED;
	len = l;
	if (len > KEY_BUF)
		len = KEY_BUF;
	ret = bpf_kbloom_test_id(filter_id, key, len);
	last_ret = ret;
	/* constant indices: the 6.1 verifier loses the bounds of ret */
	if (ret == 1) {
		__sync_fetch_and_add(&answers[1], 1);
		return XDP_PASS;
	}
	if (ret == 0) {
		__sync_fetch_and_add(&answers[0], 1);
		return XDP_DROP;
	}
	if (ret == -ENOENT)
		__sync_fetch_and_add(&answers[2], 1);
	else
		__sync_fetch_and_add(&answers[3], 1);
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
