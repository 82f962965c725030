// SPDX-License-Identifier: GPL-2.0
/*
 * make bench BENCH=loss: the programs.  The loss digest's own code
 * (bpf/kbloom_loss_digest.bpf.c, its maps included) and, on the same
 * 60-byte IPv4/UDP frame, each run with a fresh IP id (key i):
 *   lb_digest   the frame's key folded into k = 4 cells of the digest
 *               (kb_loss_key(), kb_loss_fold(): what kbloom_loss does);
 *   lb_blocked  the same key inserted into a blocked filter
 *               (kbloom_bpf_add_hash_k(), what every kbloom XDP insert
 *               does).
 */
#include "bpf/kbloom_loss_digest.bpf.c"
#include "bpf/kbloom_bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);		/* set by the driver: nblocks */
	__type(key, __u32);
	__type(value, struct kbloom_block);
} lb_blocks SEC(".maps");

const volatile __u32 lb_nblocks = 1;
const volatile __u32 lb_k = 1;
__u32 lb_next_digest;
__u32 lb_next_blk;
__u64 lb_failed;

SEC("xdp")
int lb_digest(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	const struct kbloom_loss_params *p;
	struct kbloom_loss_key key;
	__u32 zero = 0, tot, i;

	p = bpf_map_lookup_elem(&loss_params, &zero);
	if (!p || kb_loss_key(data, data_end, &key, &tot))
		return XDP_ABORTED;
	i = lb_next_digest++;
	key.id = (__be16)i;
	key.sport = (__be16)(i >> 16);
	if (kb_loss_fold(p, &key, tot))
		lb_failed++;
	return XDP_PASS;
}

SEC("xdp")
int lb_blocked(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct kbloom_loss_key key;
	__u32 tot, i;

	if (kb_loss_key(data, data_end, &key, &tot))
		return XDP_ABORTED;
	i = lb_next_blk++;
	key.id = (__be16)i;
	key.sport = (__be16)(i >> 16);
	if (kbloom_bpf_add_hash_k(&lb_blocks, lb_nblocks,
				  kb_hash(KBLOOM_HASH_FAST, 0, &key.proto,
					  KBLOOM_LOSS_KEY_LEN), lb_k))
		return XDP_ABORTED;
	return XDP_PASS;
}
