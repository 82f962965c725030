// SPDX-License-Identifier: GPL-2.0
/*
 * make bench BENCH=dleft: the programs.  The tracker's own code
 * (bpf/kbloom_dleft_ct.bpf.c, its maps included) and:
 *   db_insdel   insert then delete key i of a fresh key stream in the
 *               tracker's filter (dl_update(), what a SYN and a FIN do
 *               after parsing): the load of the filter stays as it is;
 *   db_blocked  insert key i into a blocked filter (kbloom_bpf_add_hash_k(),
 *               what every kbloom XDP insert does).
 * Key i is a struct kbloom_dleft_flow holding i, hashed whole by both.
 */
#include "bpf/kbloom_dleft_ct.bpf.c"
#include "bpf/kbloom_bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);		/* set by the driver: nblocks */
	__type(key, __u32);
	__type(value, struct kbloom_block);
} db_blocks SEC(".maps");

const volatile __u32 db_nblocks = 1;
const volatile __u32 db_k = 1;
__u64 db_next_dl = 1ULL << 40;
__u64 db_next_blk = 1ULL << 40;
__u64 db_failed;

static __always_inline void db_key(struct kbloom_dleft_flow *k, __u64 i)
{
	__builtin_memset(k, 0, sizeof(*k));
	__builtin_memcpy(k->a, &i, sizeof(i));
	k->proto = IPPROTO_TCP;
	k->family = 4;
}

SEC("xdp")
int db_insdel(struct xdp_md *ctx)
{
	const struct kbloom_dleft_params *p;
	struct kbloom_dleft_flow key;
	struct dl_scan s;
	struct dl_ctx c;
	__u32 zero = 0;

	p = bpf_map_lookup_elem(&dleft_params, &zero);
	if (!p)
		return XDP_ABORTED;
	db_key(&key, db_next_dl++);
	if (dl_ctx_init(&c, &s, p, &key))
		return XDP_ABORTED;
	if (dl_update(&c, &s, 1) != DL_DONE || dl_update(&c, &s, 0) != DL_DONE)
		db_failed++;
	return XDP_PASS;
}

SEC("xdp")
int db_blocked(struct xdp_md *ctx)
{
	struct kbloom_dleft_flow key;

	db_key(&key, db_next_blk++);
	if (kbloom_bpf_add_hash_k(&db_blocks, db_nblocks,
				  kb_hash(KBLOOM_HASH_FAST, 0, &key,
					  sizeof(key)), db_k))
		return XDP_ABORTED;
	return XDP_PASS;
}
