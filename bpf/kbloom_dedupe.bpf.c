// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom duplicate suppression at XDP: per frame, the stable Bloom
 * filter's test-and-add on the frame's key; the first copy passes, a
 * repeat is dropped or counted.  Key, maps, actions and what may go wrong
 * (a repeat long after its first copy passes; a new packet at the stable
 * point's rate is taken for a repeat): uapi/kbloom_dedupe_maps.h.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_dedupe_maps.h"
#include "bpf/kbloom_pkt.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_dedupe_params);
} dedupe_params SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);		/* set by the loader: nwords */
	__type(key, __u32);
	__type(value, __u64);
} dedupe_cells SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_dedupe_stats);
} dedupe_stats SEC(".maps");

#define KB_STABLE_CELLS dedupe_cells
#include "bpf/kbloom_stable.h"

/* The frame's key; 0, or -1 when it has none (counted as skipped). */
static __always_inline int dd_key(const void *data, const void *data_end,
				  const struct kbloom_pkt *pkt,
				  struct kbloom_dedupe_key *key)
{
	__u32 off = pkt->l4_off;
	const __u8 *l4;

	asm volatile("" : "+r"(off));
	off &= 0xffff;
	l4 = (const __u8 *)data + off;
	if (!pkt->l4_first ||
	    (const void *)(l4 + KBLOOM_DEDUPE_L4_BYTES) > data_end)
		return -1;
	__builtin_memset(key, 0, sizeof(*key));
	__builtin_memcpy(key->src, pkt->src, 16);
	__builtin_memcpy(key->dst, pkt->dst, 16);
	key->l4proto = pkt->l4proto;
	key->addr_len = pkt->addr_len;
	__builtin_memcpy(key->l4, l4, KBLOOM_DEDUPE_L4_BYTES);
	return 0;
}

/* The verdict on a keyed frame. */
static __always_inline int dd_verdict(struct kbloom_dedupe_stats *st,
				      const struct kbloom_dedupe_params *p,
				      int seen)
{
	if (seen < 0) {
		st->errors++;
		return XDP_PASS;
	}
	if (!seen) {
		st->first++;
		return XDP_PASS;
	}
	st->repeats++;
	if (p->action != KBLOOM_DEDUPE_DROP)
		return XDP_PASS;
	st->dropped++;
	return XDP_DROP;
}

SEC("xdp")
int kbloom_dedupe(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct kbloom_dedupe_stats *st;
	struct kbloom_dedupe_key key;
	struct kb_st_op op = { 0 };
	struct kbloom_pkt pkt;
	__u32 zero = 0;
	int cls, seen;

	op.p = bpf_map_lookup_elem(&dedupe_params, &zero);
	st = bpf_map_lookup_elem(&dedupe_stats, &zero);
	if (!op.p || !st)
		return XDP_PASS;
	st->packets++;
	cls = kbloom_parse(data, data_end, &pkt);
	if (cls != KBLOOM_PKT_IP) {
		if (cls == KBLOOM_PKT_NOT_IP)
			st->not_ip++;
		else
			st->malformed++;
		return XDP_PASS;
	}
	if (dd_key(data, data_end, &pkt, &key)) {
		st->skipped++;
		return XDP_PASS;
	}
	if (kb_st_params_ok(op.p)) {
		st->errors++;
		return XDP_PASS;
	}
	seen = kb_st_test_add(&op, kb_hash(op.p->hash_id, op.p->seed, &key,
					   sizeof(key)));
	st->contended += op.contended;
	return dd_verdict(st, op.p, seen);
}

char LICENSE[] SEC("license") = "GPL";
