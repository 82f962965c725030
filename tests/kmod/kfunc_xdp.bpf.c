// SPDX-License-Identifier: GPL-2.0
/*
 * XDP programs of kfunc_test: they query kbloom.ko's filters through its
 * kfuncs (uapi/kbloom_kfunc.h) under BPF_PROG_TEST_RUN.
 *
 * The filter is the one named filter_name (.bss, set by the test at any
 * time).  Frames: 14 bytes of Ethernet header (not looked at), then
 *   kf_key:  u8 length (0..255, clamped to KEY_BUF), then KEY_BUF bytes
 *            starting with the key;
 *   kf_two:  two keys of 16 bytes;
 *   kf_pkt:  one key of 16 bytes, passed as a packet pointer.
 * Verdicts: XDP_PASS possibly present, XDP_DROP absent, XDP_ABORTED no
 * such filter (or a short frame), XDP_TX the kfunc answered an error
 * (in last_ret).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "uapi/kbloom_kfunc.h"

#define HDR	14
#define KEY_BUF	80	/* above KBLOOM_KEY_MAX: 65..80 reach the kfunc */

char filter_name[32];
int last_ret;
/* kf_two: runs by outcome, bit 0 first key present, bit 1 second */
__u64 pairs[4];
struct kbloom_kfunc_stat stat_out;
int stat_ret;
int stat_small_ret;

static __always_inline int verdict(int ret)
{
	last_ret = ret;
	if (ret == 1)
		return XDP_PASS;
	if (ret == 0)
		return XDP_DROP;
	return XDP_TX;
}

SEC("xdp")
int kf_key(struct xdp_md *ctx)
{
	__u8 key[KEY_BUF] = {};
	struct kb_filter *f;
	__u32 len;
	__u8 l;
	int ret;

	if (bpf_xdp_load_bytes(ctx, HDR, &l, 1) ||
	    bpf_xdp_load_bytes(ctx, HDR + 1, key, KEY_BUF))
		return XDP_ABORTED;
	len = l;
	if (len > KEY_BUF)
		len = KEY_BUF;
	f = bpf_kbloom_get(filter_name, sizeof(filter_name));
	if (!f)
		return XDP_ABORTED;
	ret = bpf_kbloom_test(f, key, len);
	bpf_kbloom_put(f);
	return verdict(ret);
}

/* Both keys against one reference: one filter, even across a RESTORE. */
SEC("xdp")
int kf_two(struct xdp_md *ctx)
{
	__u8 k1[16], k2[16];
	struct kb_filter *f;
	int r1, r2;

	if (bpf_xdp_load_bytes(ctx, HDR, k1, 16) ||
	    bpf_xdp_load_bytes(ctx, HDR + 16, k2, 16))
		return XDP_ABORTED;
	f = bpf_kbloom_get(filter_name, sizeof(filter_name));
	if (!f)
		return XDP_ABORTED;
	r1 = bpf_kbloom_test(f, k1, 16);
	r2 = bpf_kbloom_test(f, k2, 16);
	bpf_kbloom_put(f);
	if (r1 < 0 || r2 < 0)
		return verdict(r1 < 0 ? r1 : r2);
	if (r1 && r2)
		__sync_fetch_and_add(&pairs[3], 1);
	else if (r2)
		__sync_fetch_and_add(&pairs[2], 1);
	else if (r1)
		__sync_fetch_and_add(&pairs[1], 1);
	else
		__sync_fetch_and_add(&pairs[0], 1);
	return (r1 || r2) ? XDP_PASS : XDP_DROP;
}

/* The key straight from the packet. */
SEC("xdp")
int kf_pkt(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct kb_filter *f;
	int ret;

	if (data + HDR + 16 > data_end)
		return XDP_ABORTED;
	f = bpf_kbloom_get(filter_name, sizeof(filter_name));
	if (!f)
		return XDP_ABORTED;
	ret = bpf_kbloom_test(f, data + HDR, 16);
	bpf_kbloom_put(f);
	return verdict(ret);
}

SEC("xdp")
int kf_stat(struct xdp_md *ctx)
{
	struct kb_filter *f;

	f = bpf_kbloom_get(filter_name, sizeof(filter_name));
	if (!f)
		return XDP_ABORTED;
	stat_ret = bpf_kbloom_stat(f, &stat_out, sizeof(stat_out));
	stat_small_ret = bpf_kbloom_stat(f, &stat_out, 8);
	bpf_kbloom_put(f);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
