/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom gate: packet filtering with a Bloom filter in front of an exact
 * hash map, shared by its two variants, kbloom_gate.bpf.c (a blocked
 * filter in BPF maps) and kbloom_kfunc_gate.bpf.c (a filter owned by
 * kbloom.ko): the maps, the lookup and the program.  A variant defines
 * gate_filter_test(), the filter's answer, and nothing else of the gate.
 *
 * The source address (the destination with KBLOOM_GATE_F_DST) of every
 * IPv4 and IPv6 frame, with or without one VLAN tag, is tested against
 * the filter.  "Definitely absent" decides at once and never touches the
 * exact map; "possibly present" is confirmed by gate_exact, so a false
 * positive of the filter never changes a verdict (it costs one hash map
 * lookup and is counted).  With the adaptive mode on (struct
 * kbloom_gate_cfg), a CPU that finds most addresses possibly present
 * skips the filter and asks the exact map at once, until they are no
 * longer most: the same verdicts, without waiting for the filter's cache
 * miss under a flood of listed sources.  Then:
 *   KBLOOM_GATE_DENY     drop what is in the set, pass the rest;
 *   KBLOOM_GATE_ALLOW    pass what is in the set, drop the rest;
 *   KBLOOM_GATE_MONITOR  count only.
 * Frames that are not IP (ARP, ...) pass, and so do frames with two VLAN
 * tags (not parsed: do not rely on the gate where the stack terminates
 * QinQ).  Malformed IP frames (truncated or inconsistent headers) are
 * dropped in DENY and ALLOW mode: what the gate cannot read it does not
 * let through.
 *
 * Maps (pinned under /sys/fs/bpf/kbloom/<name>/ by the loader):
 *   gate_params   HASH          0 -> struct kbloom_params
 *   gate_filters  ARRAY_OF_MAPS slot -> blocks map (struct kbloom_block)
 *   gate_exact    HASH          struct kbloom_addr_key: the exact set
 *   gate_stats    PERCPU_ARRAY  0 -> struct kbloom_gate_stats
 *   gate_config   ARRAY         0 -> struct kbloom_gate_cfg
 * (gate_params and gate_filters are read by the map-backed variant only.)
 */
#ifndef _KBLOOM_GATE_H
#define _KBLOOM_GATE_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_bpf.h"
#include "bpf/kbloom_pkt.h"

KBLOOM_BTF_TYPES;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_params);
} gate_params SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, KBLOOM_SLOTS_PER_FILTER);
	__type(key, __u32);
	__array(values, struct kbloom_blocks);
} gate_filters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, struct kbloom_addr_key);
	__type(value, __u32);
} gate_exact SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_gate_stats);
} gate_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_gate_cfg);
} gate_config SEC(".maps");

/*
 * The filter's answer on the address (@len: KBLOOM_ADDR4_LEN or
 * KBLOOM_ADDR6_LEN): KBLOOM_MAYBE, KBLOOM_ABSENT or -errno (no filter).
 * Each variant (map-backed, kfunc, cuckoo) defines it; @cfg is the
 * gate's config element (the map-backed variant finds its filter's
 * geometry there); @addr is struct kbloom_pkt's src or dst, on an 8-byte
 * boundary (the map-backed variant hashes it with kb_hash_al()).
 */
static __always_inline int gate_filter_test(const struct kbloom_gate_cfg *cfg,
					    const __u8 *addr, __u32 len);

/* Whether the address is in the exact set. */
static __always_inline int gate_exact_has(const __u8 *addr, __u32 len)
{
	struct kbloom_addr_key key = {};

	key.len = len;
	__builtin_memcpy(key.addr, addr, sizeof(key.addr));
	return !!bpf_map_lookup_elem(&gate_exact, &key);
}

/*
 * The adaptive mode (uapi/kbloom_xdp_maps.h): one more packet of the
 * CPU's window, @pos if its address was possibly present; at the end of
 * a window, the CPU's mode for the next one.
 */
static __always_inline void gate_adapt(const struct kbloom_gate_cfg *cfg,
				       struct kbloom_gate_stats *st, int pos)
{
	__u64 pct;

	if (!cfg->adapt_on)
		return;
	st->win_pos += pos;
	if (++st->win_seen < KBLOOM_GATE_ADAPT_WINDOW)
		return;
	pct = st->win_pos * 100 / KBLOOM_GATE_ADAPT_WINDOW;
	if (!st->direct_now && pct >= cfg->adapt_on) {
		st->direct_now = 1;
		st->to_direct++;
	} else if (st->direct_now && pct < cfg->adapt_off) {
		st->direct_now = 0;
		st->to_filter++;
	}
	st->win_seen = 0;
	st->win_pos = 0;
}

/*
 * Whether the address is in the set: the filter first, then the exact
 * map; in direct mode the exact map alone.
 */
static __always_inline int gate_lookup(const struct kbloom_gate_cfg *cfg,
				       struct kbloom_gate_stats *st,
				       const __u8 *addr, __u32 len)
{
	int ret, in;

	if (st->direct_now && cfg->adapt_on) {
		st->direct_lookups++;
		in = gate_exact_has(addr, len);
		st->direct_hits += in;
		gate_adapt(cfg, st, in);
		return in;
	}
	ret = gate_filter_test(cfg, addr, len);
	gate_adapt(cfg, st, ret != KBLOOM_ABSENT);
	if (ret == KBLOOM_ABSENT) {
		st->filter_negatives++;
		return 0;
	}
	if (ret < 0)
		st->errors++;
	st->exact_lookups++;
	if (gate_exact_has(addr, len)) {
		st->exact_hits++;
		return 1;
	}
	if (ret == KBLOOM_MAYBE)
		st->false_positives++;
	return 0;
}

SEC("xdp")
int kbloom_gate(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct kbloom_gate_stats *st;
	struct kbloom_gate_cfg *cfg;
	struct kbloom_pkt pkt;
	__u32 zero = 0;
	int cls, in, drop;

	cfg = bpf_map_lookup_elem(&gate_config, &zero);
	st = bpf_map_lookup_elem(&gate_stats, &zero);
	if (!cfg || !st)
		return XDP_PASS;
	st->packets++;
	cls = kbloom_parse(data, data_end, &pkt);
	if (cls == KBLOOM_PKT_NOT_IP) {
		st->not_ip++;
		return XDP_PASS;
	}
	if (cls != KBLOOM_PKT_IP) {
		st->malformed++;
		drop = cfg->mode != KBLOOM_GATE_MONITOR;
		goto verdict;
	}
	in = gate_lookup(cfg, st, (cfg->flags & KBLOOM_GATE_F_DST) ? pkt.dst :
			 pkt.src, pkt.addr_len);
	if (cfg->mode == KBLOOM_GATE_DENY)
		drop = in;
	else if (cfg->mode == KBLOOM_GATE_ALLOW)
		drop = !in;
	else
		drop = 0;
verdict:
	if (drop) {
		st->drops++;
		return XDP_DROP;
	}
	st->passed++;
	return XDP_PASS;
}

#endif /* _KBLOOM_GATE_H */
