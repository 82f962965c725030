// SPDX-License-Identifier: GPL-2.0
/*
 * Test probe of the BPF-side cuckoo lookup (bpf/kbloom_cuckoo.h): the
 * frame is [key length: 4 or 16][key bytes][padding]; the key is tested
 * against the cuckoo filter of a gate instance, whose gate_cuckoo,
 * gate_filters and gate_cseq the test shares (bpf_map__reuse_fd).
 *
 * Verdicts: XDP_PASS possibly present, XDP_DROP definitely absent,
 * XDP_ABORTED for a bad frame or a lookup error.
 *
 * kbloom_cuckoo_probe_batch tests up to CKT_BATCH keys per run, the same
 * lookup key by key (one BPF_PROG_TEST_RUN per key made the guest's
 * three-executor test spend most of its time in the syscall under TCG):
 * the frame is [key length][count][6 bytes padding][CKT_BATCH keys of 16
 * bytes][CKT_BATCH verdict bytes], the program writes each key's verdict
 * (1 possibly present, 0 absent) and returns XDP_PASS, or XDP_ABORTED for
 * a bad frame or a lookup error.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_cuckoo.h"
#include "tests/bpf/xdp_cuckoo_batch.h"

KBLOOM_BTF_TYPES;

KBLOOM_CUCKOO_PARAMS_MAP(probe_cuckoo);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, KBLOOM_SLOTS_PER_FILTER);
	__type(key, __u32);
	__array(values, struct kbloom_blocks);
} probe_filters SEC(".maps");

KBLOOM_CUCKOO_SEQ_MAP(probe_cseq);

SEC("xdp")
int kbloom_cuckoo_probe(struct xdp_md *ctx)
{
	__u8 *data = (__u8 *)(long)ctx->data;
	__u8 *end = (__u8 *)(long)ctx->data_end;
	struct kbloom_bpf_cuckoo c;
	__u8 key[KBLOOM_ADDR6_LEN];
	int ret;

	if (data + 1 + KBLOOM_ADDR6_LEN > end)
		return XDP_ABORTED;
	__builtin_memcpy(key, data + 1, KBLOOM_ADDR6_LEN);
	if (kbloom_bpf_cuckoo_get(&probe_cuckoo, &probe_filters, &probe_cseq,
				  0, &c))
		return XDP_ABORTED;
	if (data[0] == KBLOOM_ADDR4_LEN)
		ret = kbloom_bpf_cuckoo_test(&c, key, KBLOOM_ADDR4_LEN);
	else if (data[0] == KBLOOM_ADDR6_LEN)
		ret = kbloom_bpf_cuckoo_test(&c, key, KBLOOM_ADDR6_LEN);
	else
		return XDP_ABORTED;
	if (ret < 0)
		return XDP_ABORTED;
	return ret == KBLOOM_MAYBE ? XDP_PASS : XDP_DROP;
}

/*
 * Key @i of a batch frame: 1 possibly present, 0 absent, -1 an error.
 * The key is copied out with bpf_xdp_load_bytes(), which checks the
 * offset itself.
 */
__noinline int ckt_probe_one(struct xdp_md *ctx, __u32 i, __u32 len)
{
	struct kbloom_bpf_cuckoo c;
	__u8 key[KBLOOM_ADDR6_LEN];
	int ret;

	if (i >= CKT_BATCH ||
	    bpf_xdp_load_bytes(ctx, CKT_BATCH_KEYS + i * CKT_BATCH_STRIDE, key,
			       KBLOOM_ADDR6_LEN))
		return -1;
	if (kbloom_bpf_cuckoo_get(&probe_cuckoo, &probe_filters, &probe_cseq,
				  0, &c))
		return -1;
	if (len == KBLOOM_ADDR4_LEN)
		ret = kbloom_bpf_cuckoo_test(&c, key, KBLOOM_ADDR4_LEN);
	else if (len == KBLOOM_ADDR6_LEN)
		ret = kbloom_bpf_cuckoo_test(&c, key, KBLOOM_ADDR6_LEN);
	else
		return -1;
	if (ret < 0)
		return -1;
	return ret == KBLOOM_MAYBE;
}

SEC("xdp")
int kbloom_cuckoo_probe_batch(struct xdp_md *ctx)
{
	__u8 *data = (__u8 *)(long)ctx->data;
	__u8 *end = (__u8 *)(long)ctx->data_end;
	__u32 i, n, len;
	__u8 v;
	int ret;

	if (data + CKT_BATCH_KEYS > end)
		return XDP_ABORTED;
	len = data[0];
	n = data[1];
	for (i = 0; i < CKT_BATCH && i < n; i++) {
		ret = ckt_probe_one(ctx, i, len);
		if (ret < 0)
			return XDP_ABORTED;
		v = ret;
		if (bpf_xdp_store_bytes(ctx, CKT_BATCH_VERDICTS + i, &v, 1))
			return XDP_ABORTED;
	}
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
