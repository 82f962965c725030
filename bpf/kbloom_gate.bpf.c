// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom gate, map-backed variant: the gate of bpf/kbloom_gate.h with its
 * filter a blocked Bloom filter in BPF maps (gate_params, gate_filters:
 * the filter table of uapi/kbloom_xdp_maps.h, filter id 0), which the
 * loader fills and swaps.  A packet finds the filter's geometry in
 * gate_config (struct kbloom_gate_cfg: geo, slot), copied there by the
 * loader, and reads gate_params only before that.  bpf/kbloom_gate.h
 * describes the frames, modes, verdicts, counters and maps.
 */
#include "bpf/kbloom_gate.h"

/* The filter's answer through gate_params (before the loader wrote geo). */
static __always_inline int gate_filter_slow(const __u8 *addr, __u32 len)
{
	struct kbloom_bpf_filter f;

	if (kbloom_bpf_filter_get(&gate_params, &gate_filters, 0, &f))
		return -ENOENT;
	if (len == KBLOOM_ADDR4_LEN)
		return kbloom_bpf_test_al(&f, addr, KBLOOM_ADDR4_LEN);
	return kbloom_bpf_test_al(&f, addr, KBLOOM_ADDR6_LEN);
}

/*
 * kb_hash() of an address: the default hash (KBLOOM_HASH_FAST) inlined at
 * the address's constant length (flatten), where clang otherwise calls
 * kb_hash() as a subprogram for any hash and length; SipHash stays a
 * call.  The same function, in its aligned form (kb_hash_al()): @addr is
 * struct kbloom_pkt's src or dst, on an 8-byte boundary.
 */
static __always_inline __attribute__((flatten)) __u64
gate_hash_fast(__u64 seed, const __u8 *addr, __u32 len)
{
	return kb_hash_fast_al(seed, addr, len);
}

static __always_inline __u64 gate_hash(const struct kbloom_gate_geo *g,
				       const __u8 *addr, __u32 len)
{
	if (g->hash_id == KBLOOM_HASH_SIPHASH13)
		return kb_hash_al(g->hash_id, g->seed, addr, len);
	return gate_hash_fast(g->seed, addr, len);
}

/*
 * The geometry comes from the config element the program has read
 * already (struct kbloom_gate_cfg: geo, slot): no gate_params lookup per
 * packet, only the slot's blocks map.
 */
static __always_inline int gate_filter_test(const struct kbloom_gate_cfg *cfg,
					    const __u8 *addr, __u32 len)
{
	const struct kbloom_gate_geo *g;
	__u32 slot = cfg->slot & 1;
	void *blocks;
	__u64 h;

	if (!cfg->geo_ok)
		return gate_filter_slow(addr, len);
	blocks = bpf_map_lookup_elem(&gate_filters, &slot);
	if (!blocks)
		return -ENOENT;
	/*
	 * A constant offset either way: 6.1's verifier loses the bound of
	 * @slot once its stack copy was the lookup's key (cfg->geo[slot] was
	 * an unbounded access there).
	 */
	g = slot ? &cfg->geo[1] : &cfg->geo[0];
	if (len == KBLOOM_ADDR4_LEN)
		h = gate_hash(g, addr, KBLOOM_ADDR4_LEN);
	else
		h = gate_hash(g, addr, KBLOOM_ADDR6_LEN);
	return kbloom_bpf_test_hash_k(blocks, g->nblocks, h, g->k);
}

char LICENSE[] SEC("license") = "GPL";
