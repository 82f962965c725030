/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom mcast: the multicast switch shared by its three variants,
 * kbloom_mcast.bpf.c (filters in BPF maps), kbloom_kfunc_mcast.bpf.c
 * (filters owned by kbloom.ko) and kbloom_mcbf.bpf.c (Multi-Class Bloom
 * filters): the maps, the ingress program, the leak audit and the
 * membership decision, made once per frame by the ingress program for
 * every port (bpf/kbloom_mcast_once.h) or, in a variant that defines
 * MCAST_DECIDE_AT_EGRESS, by the egress program of each copy.  A variant
 * is its two hooks and nothing else of the switch:
 *
 *   its port record, the value of the port map, defined before the
 *   include (the defaults are mcast's, struct kbloom_params in mc_params):
 *	MCAST_PORT		the record's type
 *	mcast_port_params(port)	its struct kbloom_params (counters index,
 *				filter slot)
 *	MCAST_PORT_MAP		the port map's name
 *   and with it the names and types of the variant's maps and programs:
 *	MCAST_MAP(x)		map x (ports, filters, stats, members, config,
 *				plist)
 *	MCAST_PROG(x)		program x (ingress, egress, check)
 *	MCAST_STATS, MCAST_CFG	the values of the stats and config maps
 *	MCAST_F_AUDIT		the config flag that counts leaks;
 *
 *   its membership test, mcast_port_test(), defined after the include;
 *
 *   and, if it must, MCAST_WALK_INLINE: how many steps of the ingress
 *   program's walk over the ports run in line (bpf/kbloom_mcast_once.h;
 *   default 4; 0 when the variant's test needs more stack than the
 *   ingress program can give it beside the walk's callback).
 *
 * Link-local and reserved groups (kbloom_pkt_mcast_local()) are flooded:
 * every other port sends them unfiltered (tx_flooded), unless the config
 * flags say MCAST_F_LOCAL_STACK (to the stack: the bridge the ports are
 * in floods them) or MCAST_F_LOCAL_FILTER (filtered as other groups); a
 * variant whose config has other bits for these defines the two macros.
 * The ingress program reads the config once per frame it forwards.
 */
#ifndef _KBLOOM_MCAST_H
#define _KBLOOM_MCAST_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_bpf.h"
#include "bpf/kbloom_pkt.h"

#ifndef MCAST_PORT
#define MCAST_PORT		struct kbloom_params
#define mcast_port_params(port)	(port)
#define MCAST_PORT_MAP		mc_params
#define MCAST_MAP(x)		mc_##x
#define MCAST_PROG(x)		kbloom_mcast_##x
#define MCAST_STATS		struct kbloom_mcast_stats
#define MCAST_CFG		struct kbloom_mcast_cfg
#define MCAST_F_AUDIT		KBLOOM_MCAST_F_AUDIT
#endif

#ifndef MCAST_F_LOCAL_STACK
#define MCAST_F_LOCAL_STACK	KBLOOM_MCAST_F_LOCAL_STACK
#define MCAST_F_LOCAL_FILTER	KBLOOM_MCAST_F_LOCAL_FILTER
#endif

#define KBLOOM_MCAST_PORTS	64	/* default, the loader sets the size */
#ifndef MCAST_WALK_INLINE
#define MCAST_WALK_INLINE	4	/* walk steps in line, the first ports */
#endif

KBLOOM_BTF_TYPES;

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, KBLOOM_MCAST_PORTS);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} MCAST_MAP(ports) SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, KBLOOM_MCAST_PORTS);
	__type(key, __u32);
	__type(value, MCAST_PORT);
} MCAST_PORT_MAP SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, KBLOOM_MCAST_PORTS * KBLOOM_SLOTS_PER_FILTER);
	__type(key, __u32);
	__array(values, struct kbloom_blocks);
} MCAST_MAP(filters) SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, KBLOOM_MCAST_PORTS);
	__type(key, __u32);
	__type(value, MCAST_STATS);
} MCAST_MAP(stats) SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, struct kbloom_member_key);
	__type(value, __u32);
} MCAST_MAP(members) SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, MCAST_CFG);
} MCAST_MAP(config) SEC(".maps");

static __always_inline MCAST_STATS *mcast_stats(const MCAST_PORT *port)
{
	__u32 index = mcast_port_params(port)->index;

	return bpf_map_lookup_elem(&MCAST_MAP(stats), &index);
}

/* The config flags of the switch (0 if it has none). */
static __always_inline __u32 mcast_cfg_flags(void)
{
	__u32 zero = 0;
	MCAST_CFG *cfg;

	cfg = bpf_map_lookup_elem(&MCAST_MAP(config), &zero);
	return cfg ? cfg->flags : 0;
}

/* Count a forwarded copy of a group the port has not joined. */
static __always_inline void mcast_audit(MCAST_STATS *st, __u32 ifindex,
					const struct kbloom_pkt *pkt)
{
	struct kbloom_member_key mk = {};

	mk.ifindex = ifindex;
	mk.len = pkt->addr_len;
	__builtin_memcpy(mk.addr, pkt->dst, sizeof(mk.addr));
	if (bpf_map_lookup_elem(&MCAST_MAP(members), &mk))
		return;
	/* a router port (len 0) receives every group: no leak */
	__builtin_memset(&mk.len, 0, sizeof(mk) - sizeof(mk.ifindex));
	if (!bpf_map_lookup_elem(&MCAST_MAP(members), &mk))
		st->tx_leaked++;
}

/*
 * The group's hash, computed once per frame: the ports of a switch share
 * the hash id and seed of their filters (the loader's default), so the
 * first port's test hashes the group and the others reuse the value; a
 * port whose filter has another hash id or seed hashes it anew (and keeps
 * that value for the ports after it).  The positions are the contract's:
 * only the number of times kb_hash() runs changes.
 */
struct mcast_hash {
	__u64 h;
	__u64 seed;
	__u32 hash_id;
	__u32 valid;
};

/*
 * The group's kb_hash() under (@hash_id, @seed), from @hc when it has it
 * (kb_hash_al(): pkt->dst is on an 8-byte boundary).
 */
static __always_inline __u64 mcast_group_hash(struct mcast_hash *hc,
					      const struct kbloom_pkt *pkt,
					      __u32 hash_id, __u64 seed)
{
	if (hc->valid && hc->hash_id == hash_id && hc->seed == seed)
		return hc->h;
	if (pkt->addr_len == KBLOOM_ADDR4_LEN)
		hc->h = kb_hash_al(hash_id, seed, pkt->dst, KBLOOM_ADDR4_LEN);
	else
		hc->h = kb_hash_al(hash_id, seed, pkt->dst, KBLOOM_ADDR6_LEN);
	hc->hash_id = hash_id;
	hc->seed = seed;
	hc->valid = 1;
	return hc->h;
}

/*
 * The port's membership test of the copy's group: KBLOOM_MAYBE,
 * KBLOOM_ABSENT or -errno.  Each variant defines it; it takes the
 * group's hash from @hc (mcast_group_hash()) unless its filter hashes
 * the group itself (a module filter); @st, the port's counters when the
 * copy is counted (else NULL), is for counters of the variant's own
 * (tx_seen, tx_forwarded, tx_filtered, tx_errors are counted here).
 */
static __always_inline int mcast_port_test(__u32 ifindex,
					   const MCAST_PORT *port,
					   const struct kbloom_pkt *pkt,
					   struct mcast_hash *hc,
					   MCAST_STATS *st);

/* What a port does with a copy (mcast_verdict()). */
enum {
	MCAST_V_ERROR,		/* drop: no filter, or not multicast data */
	MCAST_V_ABSENT,		/* drop: the filter does not hold the group */
	MCAST_V_MAYBE,		/* send: the filter may hold the group */
	MCAST_V_FLOOD,		/* send unfiltered: a link-local group */
};

/*
 * What port @ifindex does with a copy of the frame of kind @rx (data or
 * link-local) under the config @flags: MCAST_V_*, nothing counted but
 * the variant's own counters in @st (when not NULL).
 */
static __always_inline int mcast_verdict(__u32 ifindex, const MCAST_PORT *port,
					 const struct kbloom_pkt *pkt,
					 struct mcast_hash *hc, int rx,
					 __u32 flags, MCAST_STATS *st)
{
	int ret;

	if (rx == KBLOOM_MCAST_RX_LOCAL && !(flags & MCAST_F_LOCAL_FILTER))
		return MCAST_V_FLOOD;
	if (rx != KBLOOM_MCAST_RX_DATA && rx != KBLOOM_MCAST_RX_LOCAL)
		return MCAST_V_ERROR;
	ret = mcast_port_test(ifindex, port, pkt, hc, st);
	if (ret == KBLOOM_MAYBE)
		return MCAST_V_MAYBE;
	return ret == KBLOOM_ABSENT ? MCAST_V_ABSENT : MCAST_V_ERROR;
}

/* Count verdict @v in @st, leaks aside: whether the port keeps the copy. */
static __always_inline int mcast_tally(MCAST_STATS *st, int v)
{
	st->tx_seen++;
	if (v == MCAST_V_FLOOD) {
		st->tx_flooded++;
		return 1;
	}
	if (v == MCAST_V_MAYBE) {
		st->tx_forwarded++;
		return 1;
	}
	if (v == MCAST_V_ABSENT)
		st->tx_filtered++;
	else
		st->tx_errors++;
	return 0;
}

/* Count verdict @v of port @ifindex in @st: whether the port keeps it. */
static __always_inline int mcast_count(MCAST_STATS *st, int v, __u32 ifindex,
				       const struct kbloom_pkt *pkt,
				       __u32 flags)
{
	if (v == MCAST_V_MAYBE && (flags & MCAST_F_AUDIT))
		mcast_audit(st, ifindex, pkt);
	return mcast_tally(st, v);
}

/*
 * Whether port @ifindex keeps a copy of the frame of kind @rx (data or
 * link-local) under the config @flags; counted in @st unless NULL.
 */
static __always_inline int mcast_decide(__u32 ifindex, const MCAST_PORT *port,
					const struct kbloom_pkt *pkt,
					struct mcast_hash *hc, int rx,
					__u32 flags, MCAST_STATS *st)
{
	int v = mcast_verdict(ifindex, port, pkt, hc, rx, flags, st);

	if (!st)
		return v >= MCAST_V_MAYBE;
	return mcast_count(st, v, ifindex, pkt, flags);
}

/* Whether port @ifindex keeps this copy, decided here; counted when @count. */
static __always_inline int mcast_egress(struct xdp_md *ctx, __u32 ifindex,
					int count)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct mcast_hash hc = {};
	const MCAST_PORT *port;
	MCAST_STATS *st = NULL;
	struct kbloom_pkt pkt;
	int rx;

	port = bpf_map_lookup_elem(&MCAST_PORT_MAP, &ifindex);
	if (!port)
		return XDP_DROP;
	if (count) {
		st = mcast_stats(port);
		if (!st)
			return XDP_DROP;
	}
	rx = kbloom_mcast_rx(data, data_end, &pkt);
	return mcast_decide(ifindex, port, &pkt, &hc, rx, mcast_cfg_flags(),
			    st) ?
	       XDP_PASS : XDP_DROP;
}

/* What the ingress program knows of a frame it sends to the other ports. */
struct mcast_walk {
	struct kbloom_pkt pkt;
	struct mcast_hash hc;	/* the group's hash, once per frame */
	__u32 ingress;		/* the ingress port: no copy */
	__u32 flags;		/* the config flags */
	__u32 rx;		/* KBLOOM_MCAST_RX_DATA or _LOCAL */
	__u32 nkeep;		/* ports that keep their copy */
	__u32 last;		/* the last of them */
	__u32 undecided;	/* ports left to their egress program */
	__u64 keep[3];		/* struct mcast_meta.keep */
	__u64 member[3];	/* the audit's: ports that joined, then leak */
};

#ifdef MCAST_DECIDE_AT_EGRESS
/*
 * A variant that defines MCAST_DECIDE_AT_EGRESS (mcbf: its loader keeps
 * no port list) broadcasts every frame and decides each copy at egress.
 */
static __always_inline int mcast_forward(struct xdp_md *ctx,
					 struct mcast_walk *w)
{
	return bpf_redirect_map(&MCAST_MAP(ports), 0,
				BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
}

static __always_inline int mcast_egress_copy(struct xdp_md *ctx)
{
	return mcast_egress(ctx, ctx->egress_ifindex, 1);
}

/* The ingress port's counters; NULL: not a port of this switch. */
static __always_inline MCAST_STATS *mcast_ingress_stats(struct mcast_walk *w)
{
	const MCAST_PORT *port;

	port = bpf_map_lookup_elem(&MCAST_PORT_MAP, &w->ingress);
	return port ? mcast_stats(port) : NULL;
}
#else
#include "bpf/kbloom_mcast_once.h"
#endif

SEC("xdp")
int MCAST_PROG(ingress)(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct mcast_walk w = {};
	MCAST_STATS *st;
	int rx;

	w.ingress = ctx->ingress_ifindex;
	st = mcast_ingress_stats(&w);
	if (!st)
		return XDP_PASS;	/* not a port of this switch */
	st->rx_packets++;
	rx = kbloom_mcast_rx(data, data_end, &w.pkt);
	if (!KBLOOM_MCAST_RX_COUNT(st, rx))
		return XDP_PASS;
	w.flags = mcast_cfg_flags();
	if (rx == KBLOOM_MCAST_RX_LOCAL && (w.flags & MCAST_F_LOCAL_STACK))
		return XDP_PASS;	/* the bridge floods it */
	w.rx = rx;
	return mcast_forward(ctx, &w);
}

SEC("xdp/devmap")
int MCAST_PROG(egress)(struct xdp_md *ctx)
{
	return mcast_egress_copy(ctx);
}

SEC("xdp")
int MCAST_PROG(check)(struct xdp_md *ctx)
{
	return mcast_egress(ctx, ctx->ingress_ifindex, 0);
}

#endif /* _KBLOOM_MCAST_H */
