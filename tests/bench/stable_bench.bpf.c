// SPDX-License-Identifier: GPL-2.0
/*
 * make bench BENCH=stable: the programs.  The suppressor's own code
 * (bpf/kbloom_dedupe.bpf.c, its maps included) and:
 *   sb_dedupe   the stable filter's test-and-add of key i of a fresh key
 *               stream (kb_st_test_add(), what a frame does after
 *               parsing and keying);
 *   sb_blocked  insert key i into a blocked filter (kbloom_bpf_add_hash_k(),
 *               what every kbloom XDP insert does).
 * Key i is a struct kbloom_dedupe_key holding i, hashed whole by both.
 */
#include "bpf/kbloom_dedupe.bpf.c"
#include "bpf/kbloom_bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);		/* set by the driver: nblocks */
	__type(key, __u32);
	__type(value, struct kbloom_block);
} sb_blocks SEC(".maps");

const volatile __u32 sb_nblocks = 1;
const volatile __u32 sb_k = 1;
__u64 sb_next_st = 1ULL << 40;
__u64 sb_next_blk = 1ULL << 40;
__u64 sb_failed;
__u64 sb_repeats;

static __always_inline void sb_key(struct kbloom_dedupe_key *k, __u64 i)
{
	__builtin_memset(k, 0, sizeof(*k));
	__builtin_memcpy(k->src, &i, sizeof(i));
	k->l4proto = IPPROTO_UDP;
	k->addr_len = 4;
}

SEC("xdp")
int sb_dedupe(struct xdp_md *ctx)
{
	struct kbloom_dedupe_key key;
	struct kb_st_op op = { 0 };
	__u32 zero = 0;
	int seen;

	op.p = bpf_map_lookup_elem(&dedupe_params, &zero);
	if (!op.p)
		return XDP_ABORTED;
	sb_key(&key, sb_next_st++);
	seen = kb_st_test_add(&op, kb_hash(op.p->hash_id, op.p->seed, &key,
					   sizeof(key)));
	if (seen < 0)
		sb_failed++;
	sb_repeats += seen == 1;
	return XDP_PASS;
}

SEC("xdp")
int sb_blocked(struct xdp_md *ctx)
{
	struct kbloom_dedupe_key key;

	sb_key(&key, sb_next_blk++);
	if (kbloom_bpf_add_hash_k(&sb_blocks, sb_nblocks,
				  kb_hash(KBLOOM_HASH_FAST, 0, &key,
					  sizeof(key)), sb_k))
		return XDP_ABORTED;
	return XDP_PASS;
}
