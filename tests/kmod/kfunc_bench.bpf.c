// SPDX-License-Identifier: GPL-2.0
/*
 * The programs of the kfunc benchmark (tests/bench/kfunc.c), timed with
 * BPF_PROG_TEST_RUN repeat: one lookup of one 16-byte key per run, the key
 * taken in turn from the keys map, so every variant pays the same key
 * fetch (bench_base: the fetch alone).
 *
 *   bench_kfunc  kbloom.ko's filter: bpf_kbloom_get + test + put
 *   bench_kget   bpf_kbloom_get + put alone (name lookup and reference)
 *   bench_kid    kbloom.ko's filter by id: bpf_kbloom_test_id, no name
 *                lookup, no reference
 *   bench_kref   the lookup of the kfunc gate: the filter's reference
 *                (struct kbloom_kfunc_ref) from an array, as gate_kfilter,
 *                then by its id (bpf/kbloom_kfunc_ref.h)
 *   bench_krefh  the same from a hash map, as an mcast port's mc_kfilter
 *   bench_map    the map-backed blocked filter of the XDP paths
 *                (bpf/kbloom_bpf.h): params lookup, blocks map lookup from
 *                the filter table, test
 *   bench_bloom  BPF_MAP_TYPE_BLOOM_FILTER: bpf_map_peek_elem
 *
 * Each counts its "possibly present" answers in hits[].
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_bpf.h"
#include "uapi/kbloom_kfunc.h"
#include "bpf/kbloom_kfunc_ref.h"

#define NKEYS	4096	/* a power of two */

struct bench_key {
	__u8 k[16] __attribute__((aligned(8)));
};

KBLOOM_BTF_TYPES;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NKEYS);
	__type(key, __u32);
	__type(value, struct bench_key);
} keys SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_params);
} params SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, KBLOOM_SLOTS_PER_FILTER);
	__type(key, __u32);
	__array(values, struct kbloom_blocks);
} filters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_kfunc_ref);
} kref SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_kfunc_ref);
} krefh SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__uint(max_entries, 10000);	/* set by the benchmark */
	__uint(value_size, 16);
	__uint(map_extra, 5);		/* hash functions, set too */
} bloom SEC(".maps");

char filter_name[32];
__u32 filter_id;
__u32 cursor;
__u64 hits[8];

static __always_inline int next_key(struct bench_key *out)
{
	__u32 i = cursor++ & (NKEYS - 1);
	struct bench_key *k;

	k = bpf_map_lookup_elem(&keys, &i);
	if (!k)
		return -1;
	__builtin_memcpy(out, k, sizeof(*out));
	return 0;
}

SEC("xdp")
int bench_base(struct xdp_md *ctx)
{
	struct bench_key k;

	if (next_key(&k))
		return XDP_ABORTED;
	if (k.k[0] == 0xff && k.k[15] == 0xff)
		hits[0]++;
	return XDP_PASS;
}

SEC("xdp")
int bench_kfunc(struct xdp_md *ctx)
{
	struct bench_key k;
	struct kb_filter *f;
	int ret;

	if (next_key(&k))
		return XDP_ABORTED;
	f = bpf_kbloom_get(filter_name, sizeof(filter_name));
	if (!f)
		return XDP_ABORTED;
	ret = bpf_kbloom_test(f, k.k, sizeof(k.k));
	bpf_kbloom_put(f);
	if (ret == 1)
		hits[1]++;
	return ret == 1 ? XDP_PASS : XDP_DROP;
}

SEC("xdp")
int bench_kget(struct xdp_md *ctx)
{
	struct bench_key k;
	struct kb_filter *f;

	if (next_key(&k))
		return XDP_ABORTED;
	f = bpf_kbloom_get(filter_name, sizeof(filter_name));
	if (!f)
		return XDP_ABORTED;
	bpf_kbloom_put(f);
	if (k.k[0] == 0xff && k.k[15] == 0xff)
		hits[4]++;
	return XDP_PASS;
}

SEC("xdp")
int bench_kid(struct xdp_md *ctx)
{
	struct bench_key k;
	int ret;

	if (next_key(&k))
		return XDP_ABORTED;
	ret = bpf_kbloom_test_id(filter_id, k.k, sizeof(k.k));
	if (ret < 0)
		return XDP_ABORTED;
	if (ret == 1)
		hits[5]++;
	return ret == 1 ? XDP_PASS : XDP_DROP;
}

/* A lookup through the reference in @map (its element 0). */
static __always_inline int kref_run(void *map, __u32 hit)
{
	struct kbloom_kfunc_ref *ref;
	struct bench_key k;
	__u32 zero = 0;
	int ret;

	if (next_key(&k))
		return XDP_ABORTED;
	ref = bpf_map_lookup_elem(map, &zero);
	if (!ref)
		return XDP_ABORTED;
	ret = kbloom_kfunc_ref_test(ref, k.k, sizeof(k.k));
	if (ret < 0)
		return XDP_ABORTED;
	if (ret == 1)
		hits[hit & 7]++;
	return ret == 1 ? XDP_PASS : XDP_DROP;
}

SEC("xdp")
int bench_kref(struct xdp_md *ctx)
{
	return kref_run(&kref, 6);
}

SEC("xdp")
int bench_krefh(struct xdp_md *ctx)
{
	return kref_run(&krefh, 7);
}

SEC("xdp")
int bench_map(struct xdp_md *ctx)
{
	struct kbloom_bpf_filter f;
	struct bench_key k;
	int ret;

	if (next_key(&k))
		return XDP_ABORTED;
	if (kbloom_bpf_filter_get(&params, &filters, 0, &f))
		return XDP_ABORTED;
	ret = kbloom_bpf_test_al(&f, k.k, sizeof(k.k));
	if (ret == KBLOOM_MAYBE)
		hits[2]++;
	return ret == KBLOOM_MAYBE ? XDP_PASS : XDP_DROP;
}

SEC("xdp")
int bench_bloom(struct xdp_md *ctx)
{
	struct bench_key k;

	if (next_key(&k))
		return XDP_ABORTED;
	if (bpf_map_peek_elem(&bloom, &k))
		return XDP_DROP;
	hits[3]++;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
