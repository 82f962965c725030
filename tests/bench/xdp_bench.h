/* SPDX-License-Identifier: GPL-2.0 */
/*
 * make bench BENCH=xdp: what the benchmark programs (xdp_bench.bpf.c) and
 * their driver (xdp.c) share: the keys and the run configuration.
 *
 * Key i (0 <= i < n) of the inserted set is { i * XB_MUL, XB_SALT }; key i
 * of the absent set is { i * XB_MUL, XB_SALT ^ 1 }: 16 bytes (the size of
 * an IPv6 group), all distinct, reproducible by the programs from a
 * counter alone, so "present" lookups probe exactly the inserted keys.
 * The filter positions come from the key hash, so walking i in order
 * probes the filter at random.
 */
#ifndef KBLOOM_XDP_BENCH_H
#define KBLOOM_XDP_BENCH_H

#include <linux/types.h>

#define XB_MUL		0x9E3779B97F4A7C15ULL	/* odd: a bijection of i */
#define XB_SALT		0x6b626c6f6f6d2d62ULL
#define XB_KEY_LEN	16U

struct xb_key {
	__u64 a;
	__u64 b;
};

static inline void xb_key(struct xb_key *k, __u32 i, __u32 absent)
{
	k->a = (__u64)i * XB_MUL;
	k->b = XB_SALT ^ absent;
}

/*
 * The configuration, read-only to the programs (set before loading, so
 * the verifier sees constants): n keys, the blocked filter's geometry.
 */
struct xb_cfg {
	__u32 n;
	__u32 nblocks;
	__u32 k;
	__u32 hash_id;
	__u64 seed;
};

/* Slots of the per-program "possibly present" counters (hits[]). */
enum {
	XB_BARE, XB_FLOOR, XB_HASH_ONLY,
	XB_KB_PRESENT, XB_KB_ABSENT,
	XB_TBL_PRESENT, XB_TBL_ABSENT, XB_TBL_BLOCKS, XB_TBL_PARAMS,
	XB_BF_PRESENT, XB_BF_ABSENT,
	XB_CK_PRESENT, XB_CK_ABSENT,
	XB_OLD_PRESENT, XB_OLD_ABSENT, XB_PW_PRESENT, XB_PW_ABSENT,
	XB_BW_PRESENT, XB_BW_ABSENT,
	XB_NHITS,
};

#endif /* KBLOOM_XDP_BENCH_H */
