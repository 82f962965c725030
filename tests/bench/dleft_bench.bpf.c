// SPDX-License-Identifier: GPL-2.0
/*
 * make bench BENCH=dleft: the programs.  The tracker's own code
 * (bpf/kbloom_dleft_ct.bpf.c, its maps included) and:
 *   db_fill     insert key db_next++ into the tracker's filter and into the
 *               blocked filter (the prefill: N flows open);
 *   db_insdel   what a connection tracker does per connection: the SYN of
 *               flow i = db_next++ inserts it, the FIN of flow i - db_live
 *               (opened db_live connections earlier, so its buckets are as
 *               cold as the filter's size makes them) deletes it: the load
 *               stays at db_live flows.  db_live = 0 deletes the flow just
 *               inserted (a cache-hot delete);
 *   db_blocked  insert key db_next_blk++ into the blocked filter
 *               (kbloom_bpf_add_hash_k(), what every kbloom XDP insert does,
 *               the key hashed by kb_hash_al() from an aligned buffer).
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
__u64 db_next;
__u64 db_next_blk;
__u64 db_live;
__u64 db_failed;
/* failed updates by enum dl_result: inserts at 0..7, deletes at 8..15 */
__u64 db_why[16];

/*
 * Key @i, its bytes unknown to the compiler afterwards (as a packet's
 * are): without the barrier it would fold the hash's lanes of the words
 * it knows to be constant.
 */
static __always_inline void db_key(struct kbloom_dleft_flow *k, __u64 i)
{
	__builtin_memset(k, 0, sizeof(*k));
	__builtin_memcpy(k->a, &i, sizeof(i));
	k->proto = IPPROTO_TCP;
	k->family = 4;
	asm volatile("" : : "r"(k) : "memory");
}

/*
 * Insert key @i into the blocked filter, hashed with kb_hash_al() from an
 * aligned buffer (what every kbloom XDP insert of a stack key does).
 */
static __always_inline int db_blocked_add(__u64 i)
{
	union dl_key key;

	db_key(&key.flow, i);
	return kbloom_bpf_add_hash_k(&db_blocks, db_nblocks,
				     kb_hash_al(KBLOOM_HASH_FAST, 0, key.w,
						sizeof(key.flow)), db_k);
}

/* Insert (@insert) or delete key @i in the tracker's filter. */
static __always_inline int db_update(__u64 i, int insert)
{
	const struct kbloom_dleft_params *p;
	union dl_key key;
	struct dl_ctx c;
	__u32 zero = 0;
	int ret;
	__u64 h;

	p = bpf_map_lookup_elem(&dleft_params, &zero);
	if (!p || !dl_shape_lb(&p->shape))
		return -1;
	db_key(&key.flow, i);
	h = dl_hash(p, &key);
	ret = dl_update(p, dl_ctx_for(&c, p, h), h, insert);
	if (ret == DL_DONE)
		return 0;
	db_why[((insert ? 0 : 8) + ret) & 15]++;
	return -1;
}

SEC("xdp")
int db_fill(struct xdp_md *ctx)
{
	__u64 i = db_next++;

	if (db_update(i, 1) || db_blocked_add(i))
		db_failed++;
	return XDP_PASS;
}

SEC("xdp")
int db_insdel(struct xdp_md *ctx)
{
	__u64 i = db_next++;

	if (db_update(i, 1) || db_update(i - db_live, 0))
		db_failed++;
	return XDP_PASS;
}

SEC("xdp")
int db_blocked(struct xdp_md *ctx)
{
	if (db_blocked_add(db_next_blk++))
		return XDP_ABORTED;
	return XDP_PASS;
}

/* The parts of db_insdel, for KBLOOM_DLEFT_PARTS=1 (the drivers' breakdown). */
__u64 db_sink;

/* Two keys hashed (what the two packets of a connection hash). */
SEC("xdp")
int db_part_hash(struct xdp_md *ctx)
{
	const struct kbloom_dleft_params *p;
	union dl_key key;
	__u32 zero = 0;
	__u64 i = db_next++;

	p = bpf_map_lookup_elem(&dleft_params, &zero);
	if (!p)
		return XDP_ABORTED;
	db_key(&key.flow, i);
	db_sink += dl_hash(p, &key);
	db_key(&key.flow, i - db_live);
	db_sink += dl_hash(p, &key);
	return XDP_PASS;
}

/*
 * Two keys' hashes and positions (with the constants dl_once() finds) or,
 * when @scan, their hashes and the scans of their d buckets (dl_once(),
 * which finds the positions itself; no update).
 */
static __always_inline int db_part(int scan)
{
	const struct kbloom_dleft_params *p;
	union dl_key key;
	struct dl_scan s;
	struct dl_ctx c;
	__u32 zero = 0, lb;
	__u64 i = db_next++, h;
	int n;

	p = bpf_map_lookup_elem(&dleft_params, &zero);
	if (!p || !dl_shape_lb(&p->shape))
		return XDP_ABORTED;
	for (n = 0; n < 2; n++) {
		db_key(&key.flow, n ? i - db_live : i);
		if (scan) {
			h = dl_hash(p, &key);
			db_sink += dl_scan(p, dl_ctx_for(&c, p, h), h);
			continue;
		}
		__builtin_memset(&s, 0, sizeof(s));
		c.shape = p->shape;
		lb = dl_shape_lb(&c.shape);
		if (dl_fixed(&c) && lb == 4)
			dl_positions_of(dl_ctx_set(&c, p, dl_hash(p, &key), 4),
					&s, DL_FIX_TABLES, DL_FIX_SLOTS);
		else
			dl_positions_of(dl_ctx_set(&c, p, dl_hash(p, &key), lb),
					&s, c.shape.tables, c.shape.slots);
		db_sink += s.first[0];
	}
	return XDP_PASS;
}

SEC("xdp")
int db_part_ctx(struct xdp_md *ctx)
{
	return db_part(0);
}

SEC("xdp")
int db_part_scan(struct xdp_md *ctx)
{
	return db_part(1);
}

/* Nothing: the harness's own cost of a run. */
SEC("xdp")
int db_empty(struct xdp_md *ctx)
{
	return XDP_PASS;
}
