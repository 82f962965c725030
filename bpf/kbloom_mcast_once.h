/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom mcast: membership decided once per frame, at ingress (included
 * by bpf/kbloom_mcast.h, for every variant but those that define
 * MCAST_DECIDE_AT_EGRESS).
 *
 * The ingress program walks the ports of the switch (MCAST_MAP(plist)),
 * tests the group against the filter of every port but the ingress one
 * (mcast_verdict(): the variant's mcast_port_test(), with the group
 * hashed once for all of them; then mcast_tally(): the counters), counts
 * each port's copy in that port's counters, reading each port's
 * parameters from the loader's copy by ifindex (MCAST_MAP(pfast),
 * uapi/kbloom_xdp_maps.h) rather than by a hash lookup in the port map,
 * and hands the result to the egress programs in the frame's XDP
 * metadata, which a devmap redirect keeps for every copy: bit i of
 * struct mcast_meta.keep is set when the port of ifindex i keeps its
 * copy (by ifindex, not by counters index: the egress program has its
 * ifindex without a map lookup; 32 bytes is the most metadata XDP
 * allows).  The frame is then dropped when no port keeps it, broadcast
 * when several do (a copy's egress decision is one bit test), and
 * redirected by ifindex (bpf_redirect()) to the one port that keeps it:
 * that copy is decided, and its egress program, which would only test
 * its bit, does not run (about 20 ns a frame, tests/bench/live.c).
 *
 * Ports of ifindex MCAST_META_BITS or above do not fit the mask: the
 * ingress program leaves them to their egress program, which decides
 * and counts in full as before (and the frame is broadcast).  A copy
 * that arrives without this metadata (a generic-mode link, whose
 * redirect does not carry it; a frame another program redirects into
 * the ports) is decided in full at egress and not counted there: the
 * ingress program counted it.
 *
 * The counters keep their names and meanings (struct kbloom_mcast_stats:
 * tx_seen = tx_forwarded + tx_flooded + tx_filtered + tx_errors), counted
 * when the copy is decided, by the ingress program: a port whose devmap
 * entry is being added or removed at that moment may be counted for a
 * copy it does not get.  The leak audit (MCAST_F_AUDIT) runs once per
 * frame that some port keeps, after the walk (mcast_walk_audit()): the
 * ports that joined the group are read from the loader's direct-mapped
 * copy (MCAST_MAP(gcache)) or else from MCAST_MAP(groups), a mask by
 * ifindex, and every port that keeps a copy of a group it has not joined
 * counts a leak (tx_leaked, as before), router ports aside, which are
 * read only then.  Off, it is one flag test per frame.  The audit is not
 * in the walk's callback: there it made the callback's states too many
 * for the verifier of Linux 6.18 (over a million instructions).
 *
 * The walk's first MCAST_WALK_INLINE steps (counters indexes 0 to
 * MCAST_WALK_INLINE - 1, bpf/kbloom_mcast.h) run in line in the ingress
 * program, the others in a bpf_loop() callback (mcast_walk()).  A
 * callback is a call and a return per step, its registers saved and the
 * walk's state reloaded, and where the kernel sends every return through
 * its SRSO "safe RET" thunk (AMD; the project's machine) that return is
 * dear: the two callbacks of a two-port switch cost about 26 of the
 * ingress program's 108 ns there (tests/bench/live.c, the program alone).
 * In line, a step reads its port's parameters from mc_pfast only; the
 * port map's path (no usable copy) is a global function,
 * mcast_walk_verdict_slow(), which the verifier checks once rather than
 * at every step.
 */
#ifndef _KBLOOM_MCAST_ONCE_H
#define _KBLOOM_MCAST_ONCE_H

#define MCAST_META_MAGIC	0x6b626d31U	/* "kbm1" */
#define MCAST_META_WORDS	3
#define MCAST_META_BITS		(MCAST_META_WORDS * 64)

struct mcast_meta {
	__u32 magic;
	__u32 reserved;
	__u64 keep[MCAST_META_WORDS];
};

/*
 * The ports in counters index order, for the walk: element 0 is the
 * number of indexes to walk (the highest in use + 1), element 1 + i the
 * ifindex of the port of counters index i, 0 if none.  The loader writes
 * one element at a time (an aligned 32-bit value): a port's element
 * before its devmap entry, 0 after the entry is gone.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, KBLOOM_MCAST_PORTS + 1);
	__type(key, __u32);
	__type(value, __u32);
} MCAST_MAP(plist) SEC(".maps");

/*
 * The ports' parameters by ifindex (struct kbloom_mcast_pfast): the
 * variants that include this file have struct kbloom_params ports.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, KBLOOM_MCAST_PFAST_PORTS);
	__type(key, __u32);
	__type(value, struct kbloom_mcast_pfast);
} MCAST_MAP(pfast) SEC(".maps");

/*
 * The ports that joined each group, by ifindex (struct kbloom_mcast_gmask,
 * uapi/kbloom_xdp_maps.h): the leak audit's exact record, looked up once
 * per frame.  Sized by the loader as mc_members.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 65536);
	__type(key, struct kbloom_member_key);
	__type(value, struct kbloom_mcast_gmask);
} MCAST_MAP(groups) SEC(".maps");

/* Its direct-mapped copy, read first (uapi/kbloom_xdp_maps.h). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, KBLOOM_MCAST_GCACHE);
	__type(key, __u32);
	__type(value, struct kbloom_mcast_gcache);
} MCAST_MAP(gcache) SEC(".maps");

/* Word @i's bit of the mask @m of ports by ifindex (@i below 192). */
static __always_inline int mcast_mask_has(const __u64 *m, __u32 i)
{
	__u64 word;

	/* constant offsets: no variable stack access for 6.1's verifier */
	if (i < 64)
		word = m[0];
	else if (i < 128)
		word = m[1];
	else
		word = m[2];
	return (word >> (i & 63)) & 1;
}

/* Copy the mask of group key @k (none: empty) into @m. */
static __always_inline void mcast_mask_read(const struct kbloom_member_key *k,
					    __u64 *m)
{
	const struct kbloom_mcast_gmask *g;

	g = bpf_map_lookup_elem(&MCAST_MAP(groups), k);
	m[0] = g ? g->ports[0] : 0;
	m[1] = g ? g->ports[1] : 0;
	m[2] = g ? g->ports[2] : 0;
}

/*
 * Whether element @e of mc_gcache holds group @a (@len bytes, zero
 * padded): its mask is then in @m.
 */
static __always_inline int mcast_gcache_read(const struct kbloom_mcast_gcache *e,
					     const __u32 *a, __u32 len,
					     __u64 *m)
{
	const __u32 *ea = (const __u32 *)e->addr;
	__u32 seq, same;

	seq = e->seq;
	barrier();
	same = e->len == len && ea[0] == a[0] && ea[1] == a[1] &&
	       ea[2] == a[2] && ea[3] == a[3];
	m[0] = e->m.ports[0];
	m[1] = e->m.ports[1];
	m[2] = e->m.ports[2];
	barrier();
	return same && !(seq & 1) && e->seq == seq;
}

/*
 * Whether the walk audits: with the audit on, for a frame that the
 * ports' filters decide, the ports that joined its group are read into
 * @w->member, once for all of them: from mc_gcache when its element
 * holds the group, else from mc_groups.
 */
static __always_inline int mcast_walk_audit_init(struct mcast_walk *w)
{
	const struct kbloom_mcast_gcache *e;
	struct kbloom_member_key k = {};
	__u32 slot;

	if (!(w->flags & MCAST_F_AUDIT))
		return 0;
	if (w->rx != KBLOOM_MCAST_RX_DATA &&
	    !(w->rx == KBLOOM_MCAST_RX_LOCAL &&
	      (w->flags & MCAST_F_LOCAL_FILTER)))
		return 0;	/* flooded or dropped: nothing to audit */
	slot = kb_mcast_gcache_slot(w->pkt.dst, w->pkt.addr_len);
	e = bpf_map_lookup_elem(&MCAST_MAP(gcache), &slot);
	if (e && mcast_gcache_read(e, (const __u32 *)w->pkt.dst,
				   w->pkt.addr_len, w->member))
		return 1;
	k.len = w->pkt.addr_len;
	__builtin_memcpy(k.addr, w->pkt.dst, sizeof(k.addr));
	mcast_mask_read(&k, w->member);
	return 1;
}

/*
 * Port @ifindex's verdict on the frame (MCAST_V_*, or -ENOENT: not a
 * port) and its counters index in *@index, with the parameters of its
 * copy in mc_pfast (an array element by index: about 30 ns less a port
 * than the hash lookup, measured with tests/bench/live.c) when that copy
 * stays the same across the verdict, else with those of the port map
 * (mcast_walk_verdict()).  The copy is read in place, not copied out:
 * the test reads a few of its words, and the stack of the walk has no
 * room for a whole record.  A copy that gives an error (its slot has no
 * blocks map) is not trusted either: the port map decides, as for a port
 * without a copy.
 *
 * mcast_walk_verdict_copy(): the verdict with the copy, or -EAGAIN when
 * the copy cannot be used (missing, being written, or an error).
 */
static __always_inline int mcast_walk_verdict_copy(struct mcast_walk *w,
						   __u32 ifindex,
						   __u32 *index)
{
	const struct kbloom_mcast_pfast *c;
	__u32 seq;
	int v;

	c = bpf_map_lookup_elem(&MCAST_MAP(pfast), &ifindex);
	if (!c)
		return -EAGAIN;
	seq = c->seq;
	barrier();
	if ((seq & 1) || c->p.id != ifindex)
		return -EAGAIN;
	*index = c->p.index;
	v = mcast_verdict(ifindex, &c->p, &w->pkt, &w->hc, w->rx, w->flags,
			  NULL);
	barrier();
	if (c->seq != seq || v == MCAST_V_ERROR)
		return -EAGAIN;
	return v;
}

/* The verdict with the parameters of the port map (-ENOENT: no port). */
static __always_inline int mcast_walk_verdict_map(struct mcast_walk *w,
						  __u32 ifindex, __u32 *index)
{
	const MCAST_PORT *p;

	p = bpf_map_lookup_elem(&MCAST_PORT_MAP, &ifindex);
	if (!p)
		return -ENOENT;
	*index = p->index;
	return mcast_verdict(ifindex, p, &w->pkt, &w->hc, w->rx, w->flags,
			     NULL);
}

/*
 * mcast_walk_verdict_map() as a global function, for the steps of the
 * walk in line in the ingress program: 6.1's verifier checks it once,
 * not once for every step (it would walk a second copy of the port's
 * test there, and went over its million instructions).  It runs only
 * when a port's copy in mc_pfast cannot be used.
 */
__noinline int mcast_walk_verdict_slow(struct mcast_walk *w, __u32 ifindex,
				       __u32 *index)
{
	if (!w || !index)
		return -ENOENT;
	return mcast_walk_verdict_map(w, ifindex, index);
}

/* The verdict, the port map's path a call away when @in_line. */
static __always_inline int mcast_walk_verdict(struct mcast_walk *w,
					      __u32 ifindex, __u32 *index,
					      int in_line)
{
	int v = mcast_walk_verdict_copy(w, ifindex, index);

	if (v != -EAGAIN)
		return v;
	if (in_line)
		return mcast_walk_verdict_slow(w, ifindex, index);
	return mcast_walk_verdict_map(w, ifindex, index);
}

/* Port @ifindex keeps the copy: its bit in the metadata. */
static __always_inline void mcast_walk_keep(struct mcast_walk *w,
					    __u32 ifindex)
{
	/* constant offsets: no variable stack access for 6.1's verifier */
	if (ifindex < 64)
		w->keep[0] |= 1ULL << ifindex;
	else if (ifindex < 128)
		w->keep[1] |= 1ULL << (ifindex - 64);
	else
		w->keep[2] |= 1ULL << (ifindex - 128);
	w->nkeep++;
	w->last = ifindex;
}

/* The counters of port @ifindex (its copy in mc_pfast, else mc_params). */
static __always_inline MCAST_STATS *mcast_port_stats(__u32 ifindex)
{
	const struct kbloom_mcast_pfast *c;
	const MCAST_PORT *p;
	__u32 seq, index, id;

	c = bpf_map_lookup_elem(&MCAST_MAP(pfast), &ifindex);
	if (c) {
		seq = c->seq;
		barrier();
		id = c->p.id;
		index = c->p.index;
		barrier();
		if (!(seq & 1) && id == ifindex && c->seq == seq)
			return bpf_map_lookup_elem(&MCAST_MAP(stats), &index);
	}
	p = bpf_map_lookup_elem(&MCAST_PORT_MAP, &ifindex);
	return p ? mcast_stats(p) : NULL;
}

/* The ingress port's counters; NULL: not a port of this switch. */
static __always_inline MCAST_STATS *mcast_ingress_stats(struct mcast_walk *w)
{
	return mcast_port_stats(w->ingress);
}

/*
 * The port of step @i of the walk (counters index @i) to decide: its
 * ifindex; 0: none (no port, the ingress port, or one left to its
 * egress program); -1: the end of the list.
 */
static __always_inline long mcast_walk_next(__u32 i, struct mcast_walk *w)
{
	__u32 key = i + 1, ifindex;
	const __u32 *slot;

	slot = bpf_map_lookup_elem(&MCAST_MAP(plist), &key);
	if (!slot)
		return -1;
	ifindex = *slot;
	if (!ifindex || ifindex == w->ingress)
		return 0;
	if (ifindex >= MCAST_META_BITS) {
		w->undecided = 1;
		return 0;
	}
	return ifindex;
}

/* Port @ifindex's verdict, counted (leaks aside), and kept. */
static __always_inline void mcast_walk_decide(struct mcast_walk *w,
					      __u32 ifindex, int in_line)
{
	MCAST_STATS *st;
	__u32 index = 0;
	int v;

	v = mcast_walk_verdict(w, ifindex, &index, in_line);
	if (v < 0)
		return;		/* coming or going */
	st = bpf_map_lookup_elem(&MCAST_MAP(stats), &index);
	if (!st)
		return;		/* as at egress: dropped uncounted */
	if (mcast_tally(st, v))
		mcast_walk_keep(w, ifindex);
}

/*
 * Step @i of the walk: the port of counters index @i, if there is one
 * (@in_line: a step in line in the ingress program).
 */
static __always_inline long mcast_walk_step(__u32 i, struct mcast_walk *w,
					    int in_line)
{
	long ifindex = mcast_walk_next(i, w);

	if (ifindex > 0)
		mcast_walk_decide(w, ifindex, in_line);
	return ifindex < 0;
}

/* Step MCAST_WALK_INLINE + @i, a bpf_loop() callback. */
static long mcast_walk_port(__u32 i, struct mcast_walk *w)
{
	return mcast_walk_step(i + MCAST_WALK_INLINE, w, 0);
}

/*
 * The walk over the @n counters indexes: the first MCAST_WALK_INLINE
 * steps in line (no call, no return), the others one bpf_loop()
 * callback each.
 */
static __always_inline void mcast_walk(struct mcast_walk *w, __u32 n)
{
	__u32 i;

#pragma unroll
	for (i = 0; i < MCAST_WALK_INLINE; i++) {
		if (i >= n || mcast_walk_step(i, w, 1))
			return;
	}
	if (n > MCAST_WALK_INLINE)
		bpf_loop(n - MCAST_WALK_INLINE, mcast_walk_port, w, 0);
}

/*
 * Step @i of the leak count: port @i's forwarded copy is a leak when its
 * bit is in @w->member, which holds the ports that forward a copy of a
 * group they have not joined (and are not router ports).
 */
static long mcast_leak_port(__u32 i, struct mcast_walk *w)
{
	__u32 key = i + 1, ifindex;
	const __u32 *slot;
	MCAST_STATS *st;

	slot = bpf_map_lookup_elem(&MCAST_MAP(plist), &key);
	if (!slot)
		return 1;
	ifindex = *slot;
	if (!ifindex || ifindex >= MCAST_META_BITS ||
	    !mcast_mask_has(w->member, ifindex))
		return 0;
	st = mcast_port_stats(ifindex);
	if (st)
		st->tx_leaked++;
	return 0;
}

/*
 * The leak audit of the walk's decision, once per frame: the ports that
 * keep a copy of a group they have not joined, router ports aside, each
 * count a leak.  Those are false positives (and copies to router ports):
 * the router ports are read, and the ports walked again, only then.
 */
static __always_inline void mcast_walk_audit(struct mcast_walk *w, __u32 n)
{
	struct kbloom_member_key k = {};
	__u64 router[3];
	int i;

	for (i = 0; i < 3; i++)
		w->member[i] = w->keep[i] & ~w->member[i];
	if (!(w->member[0] | w->member[1] | w->member[2]))
		return;
	mcast_mask_read(&k, router);
	for (i = 0; i < 3; i++)
		w->member[i] &= ~router[i];
	if (w->member[0] | w->member[1] | w->member[2])
		bpf_loop(n, mcast_leak_port, w, 0);
}

/* Write the decision in front of the frame; 0 or -errno. */
static __always_inline int mcast_meta_put(struct xdp_md *ctx,
					  const struct mcast_walk *w)
{
	struct mcast_meta *m;

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*m)))
		return -EOPNOTSUPP;
	m = (void *)(long)ctx->data_meta;
	if ((void *)(m + 1) > (void *)(long)ctx->data)
		return -EINVAL;
	m->magic = MCAST_META_MAGIC;
	m->reserved = 0;
	m->keep[0] = w->keep[0];
	m->keep[1] = w->keep[1];
	m->keep[2] = w->keep[2];
	return 0;
}

/*
 * Decide every port, then send the frame to those that keep it: none,
 * dropped here; one, redirected to it alone; else broadcast.  Without
 * room for the metadata the copies are decided at egress, uncounted.
 */
static __always_inline int mcast_forward(struct xdp_md *ctx,
					 struct mcast_walk *w)
{
	__u32 zero = 0, *hi;

	hi = bpf_map_lookup_elem(&MCAST_MAP(plist), &zero);
	if (hi && *hi) {
		mcast_walk(w, *hi);
		if (w->nkeep && mcast_walk_audit_init(w))
			mcast_walk_audit(w, *hi);
	}
	if (!w->undecided && !w->nkeep)
		return XDP_DROP;
	/* decided: that port's egress program has nothing to add */
	if (!w->undecided && w->nkeep == 1)
		return bpf_redirect(w->last, 0);
	mcast_meta_put(ctx, w);
	return bpf_redirect_map(&MCAST_MAP(ports), 0,
				BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
}

/* The egress program: the ingress program's bit for this port. */
static __always_inline int mcast_egress_copy(struct xdp_md *ctx)
{
	const struct mcast_meta *m = (void *)(long)ctx->data_meta;
	__u32 ifindex = ctx->egress_ifindex;
	__u64 word;

	if (ifindex >= MCAST_META_BITS)
		return mcast_egress(ctx, ifindex, 1);
	if ((void *)(m + 1) > (void *)(long)ctx->data ||
	    m->magic != MCAST_META_MAGIC)
		return mcast_egress(ctx, ifindex, 0);
	if (ifindex < 64)
		word = m->keep[0];
	else if (ifindex < 128)
		word = m->keep[1];
	else
		word = m->keep[2];
	return (word >> (ifindex & 63)) & 1 ? XDP_PASS : XDP_DROP;
}

#endif /* _KBLOOM_MCAST_ONCE_H */
