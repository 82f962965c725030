// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom gate, kfunc variant: the gate of kbloom_gate.bpf.c with its
 * filter owned by kbloom.ko instead of a BPF map.
 *
 * Same frames, modes, verdicts, counters and maps as kbloom_gate.bpf.c
 * (bpf/kbloom_maps.h), and the same program name, so a loader can load
 * either object into one instance; plus
 *   gate_kfilter  HASH  0 -> struct kbloom_kfunc_name: the module filter
 * The address is tested with bpf_kbloom_get()/bpf_kbloom_test()/
 * bpf_kbloom_put() (kmod/kbloom_kfunc.h) against that filter, which
 * /dev/kbloom users fill, delete from (a counting filter forgets a deleted
 * address at once: no rebuild) and swap with RESTORE.  "Definitely
 * absent" decides at once; "possibly present" is confirmed by gate_exact,
 * so a false positive never changes a verdict.  No gate_kfilter entry, or
 * no module filter of that name: counted in errors, and gate_exact
 * decides alone, as in the map-backed gate.  gate_params and gate_filters
 * are not read.
 *
 * Loading needs kbloom.ko with BTF (/sys/kernel/btf/kbloom); without the
 * module, load kbloom_gate.bpf.c.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_bpf.h"
#include "bpf/kbloom_pkt.h"
#include "kmod/kbloom_kfunc.h"

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

/* BPF_F_NO_PREALLOC: an update replaces the name under RCU, never torn. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_kfunc_name);
} gate_kfilter SEC(".maps");

/* The module filter's answer: KBLOOM_ABSENT, KBLOOM_MAYBE or -ENOENT. */
static __always_inline int gate_kfunc_test(const __u8 *addr, __u32 len)
{
	struct kbloom_kfunc_name *n;
	struct kb_filter *f;
	__u32 zero = 0;
	int ret;

	n = bpf_map_lookup_elem(&gate_kfilter, &zero);
	if (!n)
		return -ENOENT;
	f = bpf_kbloom_get(n->name, sizeof(n->name));
	if (!f)
		return -ENOENT;
	if (len == KBLOOM_ADDR4_LEN)
		ret = bpf_kbloom_test(f, addr, KBLOOM_ADDR4_LEN);
	else
		ret = bpf_kbloom_test(f, addr, KBLOOM_ADDR6_LEN);
	bpf_kbloom_put(f);
	return ret;
}

/* Whether the address is in the set: the filter first, then the exact map. */
static __always_inline int gate_lookup(struct kbloom_gate_stats *st,
				       const __u8 *addr, __u32 len)
{
	struct kbloom_addr_key key = {};
	int ret;

	ret = gate_kfunc_test(addr, len);
	if (ret == KBLOOM_ABSENT) {
		st->filter_negatives++;
		return 0;
	}
	if (ret < 0)
		st->errors++;
	key.len = len;
	__builtin_memcpy(key.addr, addr, sizeof(key.addr));
	st->exact_lookups++;
	if (bpf_map_lookup_elem(&gate_exact, &key)) {
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
	in = gate_lookup(st, (cfg->flags & KBLOOM_GATE_F_DST) ? pkt.dst :
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

char LICENSE[] SEC("license") = "GPL";
