/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the BPF map layout of the XDP paths.
 *
 * Shared by the BPF programs (bpf/kbloom_*.bpf.c) and the libkbloom loader
 * (userspace/lib/xdp*.c): plain fixed-width types only, no BPF helpers.
 *
 * A blocked filter in BPF is two things:
 *
 *   - a blocks map: BPF_MAP_TYPE_ARRAY of struct kbloom_block (one 64-byte
 *     cache line each, named and BTF-typed so that bpftool prints it),
 *     max_entries = m / 512, created BPF_F_MMAPABLE so that the loader
 *     fills it from a uapi image with one copy and sets bits with atomic
 *     OR while programs read it;
 *   - a struct kbloom_params: type, k, hash id, seed, number of blocks,
 *     layout version, and where the blocks map is.
 *
 * The words of block b are words 8b..8b+7 of the uapi layout
 * (uapi/kbloom_layout.h), in host byte order: a uapi image payload is
 * the blocks map contents on a little-endian host.
 *
 * A path keeps its filters in a filter table of two maps:
 *
 *   <path>_params   BPF_MAP_TYPE_HASH, __u32 filter id -> kbloom_params,
 *                   BPF_F_NO_PREALLOC: an update replaces the element
 *                   under RCU, so a program sees the old or the new
 *                   parameters, never a mix;
 *   <path>_filters  BPF_MAP_TYPE_ARRAY_OF_MAPS, __u32 slot -> blocks map.
 *
 * The filter id is the port's ifindex for per-port filters (mcast) and 0
 * for a path with one filter (gate).  Each filter owns two slots,
 * 2 * index and 2 * index + 1.  Changing a filter's geometry fills a new
 * blocks map in the idle slot and then publishes params naming that slot
 * in one update: a packet is tested against the old filter or the new
 * one, never against a mix of the two, and no packet bypasses the filter.
 *
 * Why one blocks map per filter (map-in-map) rather than one array with
 * per-port offsets: each port's filter has its own size and can be
 * resized or replaced atomically without moving the others, each one is
 * pinned on its own (/sys/fs/bpf/kbloom/<name>/filter_<id>) so that
 * "bpftool map dump pinned" shows exactly one filter, and an image maps
 * onto one blocks map one to one.  The price is one more map lookup per
 * test (the slot), an inlined array access.
 *
 * Keys of addresses.  The key of an IPv4 address is its 4 bytes in
 * network byte order, of an IPv6 address its 16 bytes in network byte
 * order; the key length is part of the hash, so an IPv4 address and an
 * IPv6 address never share a key.  A multicast group's key is the key of
 * its group address (the VLAN is not part of it); a gate's key is the key
 * of the source (or, with KBLOOM_GATE_F_DST, the destination) address.
 */
#ifndef _UAPI_KBLOOM_XDP_MAPS_H
#define _UAPI_KBLOOM_XDP_MAPS_H

#include <linux/types.h>
#include <linux/const.h>
#include "kbloom_base.h"
#include "kbloom_variants.h"

/* struct kbloom_params.version: this layout */
#define KBLOOM_XDP_LAYOUT_VERSION	1U

#define KBLOOM_ADDR4_LEN	4U
#define KBLOOM_ADDR6_LEN	16U

/* Slots of the filter with counters index i in a <path>_filters map */
#define KBLOOM_SLOTS_PER_FILTER	2U

/* One 512-bit block: word w holds bits 64w..64w+63 of the block. */
struct kbloom_block {
	__u64 w[KBLOOM_BLOCK_WORDS];
};

/**
 * struct kbloom_params - a filter, as the programs see it
 * @type: KBLOOM_TYPE_BLOCKED
 * @version: KBLOOM_XDP_LAYOUT_VERSION
 * @k: probes per key, KBLOOM_K_MIN..KBLOOM_K_MAX
 * @hash_id: enum kbloom_hash_id
 * @seed: hash seed
 * @nblocks: blocks of the filter (m / 512), at most the blocks map's size
 * @slot: index in <path>_filters of the blocks map holding the filter
 * @id: the filter id (key in <path>_params): ifindex of a port, or 0
 * @index: counters index (port number), 0..max_filters - 1
 * @gen: generation, bumped each time the blocks map or geometry changes
 * @inserted: keys added through the loader since the filter was built
 * @capacity: planned n, 0 if the filter was built from (m, k)
 * @fpr_pico: planned p in 1e-12 units, 0 if built from (m, k)
 */
struct kbloom_params {
	__u32 type;
	__u32 version;
	__u32 k;
	__u32 hash_id;
	__u64 seed;
	__u32 nblocks;
	__u32 slot;
	__u32 id;
	__u32 index;
	__u64 gen;
	__u64 inserted;
	__u64 capacity;
	__u64 fpr_pico;
};

/* Key of an exact map of addresses (gate_exact). */
struct kbloom_addr_key {
	__u32 len;		/* KBLOOM_ADDR4_LEN or KBLOOM_ADDR6_LEN */
	__u8 addr[16];		/* network order, zero after len bytes */
};

/*
 * Key of the exact membership map of the mcast path (mc_members).  Its
 * value is the set of sources of the membership, KBLOOM_MEMBER_*; the key
 * with len 0 (and a zero address) makes the port a router port, which
 * receives every group.
 */
struct kbloom_member_key {
	__u32 ifindex;		/* the port */
	__u32 len;		/* KBLOOM_ADDR4_LEN, KBLOOM_ADDR6_LEN, 0: router */
	__u8 addr[16];		/* group address, network order, zero padded */
};

/*
 * The membership key of group @g (@len bytes: an IPv4 224.0.0.0/4 or IPv6
 * ff00::/8 address) on port @ifindex, zero padded.  Return: 0, or -1 for
 * a length or an address that is not a multicast group (@k untouched).
 */
static inline int kb_member_key(struct kbloom_member_key *k, __u32 ifindex,
				const __u8 *g, __u32 len)
{
	__u32 i;

	if (!g || (len != KBLOOM_ADDR4_LEN && len != KBLOOM_ADDR6_LEN))
		return -1;
	if (len == KBLOOM_ADDR4_LEN ? (g[0] & 0xf0) != 0xe0 : g[0] != 0xff)
		return -1;
	k->ifindex = ifindex;
	k->len = len;
	for (i = 0; i < sizeof(k->addr); i++)
		k->addr[i] = i < len ? g[i] : 0;
	return 0;
}

#define KBLOOM_MEMBER_STATIC	_BITUL(0)	/* joined by hand (mcast join) */
#define KBLOOM_MEMBER_BRIDGE	_BITUL(1)	/* a bridge's mdb (mcast sync) */
#define KBLOOM_MEMBER_ALL	(KBLOOM_MEMBER_STATIC | KBLOOM_MEMBER_BRIDGE)
#define KBLOOM_MEMBER_ROUTER_LEN 0

/* ---- mcast ------------------------------------------------------------ */

/* struct kbloom_mcast_cfg.flags */
#define KBLOOM_MCAST_F_AUDIT	_BITUL(0)	/* count leaks (tx_leaked) */
/*
 * Link-local and reserved groups (IPv4 224.0.0.0/24 but IGMP; IPv6
 * ff00::/15 and ff02::/16 but MLD: neighbour discovery, mDNS, routing
 * protocols) are flooded to every other port unfiltered (RFC 4541 2.1.2),
 * or, with one of these flags:
 */
#define KBLOOM_MCAST_F_LOCAL_STACK  _BITUL(1)	/* to the stack (a bridge) */
#define KBLOOM_MCAST_F_LOCAL_FILTER _BITUL(2)	/* filtered as other groups */
#define KBLOOM_MCAST_F_LOCAL_MASK   (KBLOOM_MCAST_F_LOCAL_STACK |	\
				     KBLOOM_MCAST_F_LOCAL_FILTER)
#define KBLOOM_MCAST_F_ALL	(KBLOOM_MCAST_F_AUDIT | KBLOOM_MCAST_F_LOCAL_MASK)

/*
 * The instance's settings: @flags for the programs, the default filter of
 * a new port (struct kbloom_xdp_geom of libkbloom_xdp.h) for the loader;
 * @def_region_bits: the deletable variant's region bits (was reserved, 0
 * for the other variants).
 */
struct kbloom_mcast_cfg {
	__u32 flags;
	__u32 def_k;
	__u32 def_hash_id;
	__u32 def_region_bits;
	__u64 def_m;
	__u64 def_seed;
	__u64 def_capacity;
	__u64 def_fpr_pico;
};

/*
 * mc_pfast: BPF_MAP_TYPE_ARRAY, BPF_F_MMAPABLE, ifindex -> struct
 * kbloom_mcast_pfast, for the ports of ifindex below
 * KBLOOM_MCAST_PFAST_PORTS: a copy of each port's mc_params element, which
 * the ingress program reads by index instead of looking mc_params up by
 * hash for the ingress port and for every other port of each frame.  Its
 * one writer is the loader, through mmap, under the instance lock: @seq
 * + 1 (odd), the copy, @seq + 1 (even), after each write of the port's
 * mc_params element and before any grace period that the loader waits
 * for (so no program uses a copy past the wait).  A program reads @seq,
 * the copy, @seq again, and takes the copy only when @seq was even and
 * unchanged and the copy's id is the port's ifindex; otherwise it looks
 * mc_params up.  A copy of id 0: none (the port is gone, or its ifindex
 * is out of the map, or the instance was pinned before the map).
 */
#define KBLOOM_MCAST_PFAST_PORTS	192U

struct kbloom_mcast_pfast {
	__u32 seq;
	__u32 reserved;
	struct kbloom_params p;
};

/*
 * mc_groups: BPF_MAP_TYPE_HASH, struct kbloom_member_key of ifindex 0 ->
 * struct kbloom_mcast_gmask: the ports (by ifindex, below
 * KBLOOM_MCAST_GMASK_PORTS) that have joined each group, bit i of
 * @ports[i / 64] for the port of ifindex i; the key of length 0 (a zero
 * address) holds the router ports.  The loader keeps it in step with
 * mc_members under the instance lock: a port's bit is set when the
 * membership is recorded and cleared before it goes, and an element
 * whose mask is empty is deleted.  The ingress program looks the
 * frame's group up once per frame to audit leaks (KBLOOM_MCAST_F_AUDIT)
 * instead of looking mc_members up for every forwarded copy; ports of
 * ifindex KBLOOM_MCAST_GMASK_PORTS and above are audited in mc_members.
 */
#define KBLOOM_MCAST_GMASK_PORTS	192U

struct kbloom_mcast_gmask {
	__u64 ports[KBLOOM_MCAST_GMASK_PORTS / 64];
};

/*
 * mc_gcache: BPF_MAP_TYPE_ARRAY, BPF_F_MMAPABLE, KBLOOM_MCAST_GCACHE
 * elements: a direct-mapped copy of mc_groups that the ingress program
 * reads before the hash map, at element kb_mcast_gcache_slot() of the
 * group.  An element holds a group (@len and @addr as in struct
 * kbloom_member_key) and its mask, or nothing (@len 0).  Its one writer
 * is the loader, through mmap, under the instance lock, after each write
 * of the group's mc_groups element: @seq + 1 (odd), the element, @seq + 1
 * (even); a group takes a free element only (a group whose element holds
 * another stays in mc_groups alone), and gives it up when its mask is
 * empty.  A program takes an element read between two equal even values
 * of @seq and holding the frame's group; otherwise it looks mc_groups up.
 */
#define KBLOOM_MCAST_GCACHE_BITS	12
#define KBLOOM_MCAST_GCACHE		4096U	/* 2 ^ KBLOOM_MCAST_GCACHE_BITS */

struct kbloom_mcast_gcache {
	__u32 seq;
	__u32 len;
	__u8 addr[16];
	struct kbloom_mcast_gmask m;
};

/* The element of mc_gcache for the group @addr of @len bytes (zero padded). */
static inline __u32 kb_mcast_gcache_slot(const __u8 *addr, __u32 len)
{
	__u32 w[4], i;
	__u64 x;

	for (i = 0; i < 16; i++)
		((__u8 *)w)[i] = addr[i];
	x = (__u64)(w[0] ^ w[1] ^ w[2] ^ w[3] ^ len) * 0x9E3779B97F4A7C15ULL;
	return (__u32)(x >> (64 - KBLOOM_MCAST_GCACHE_BITS));
}

/**
 * struct kbloom_mcast_stats - per port, per CPU counters of the mcast path
 * @rx_packets: frames seen by the ingress program on this port
 * @rx_mcast: IPv4/IPv6 multicast data frames broadcast to the other ports
 * @rx_control: IGMP and MLD frames, passed to the stack
 * @rx_other: frames that are not IP multicast, passed to the stack
 * @rx_malformed: IP frames with a truncated or inconsistent header,
 *                passed to the stack, never forwarded
 * @tx_seen: copies offered to this port (tx_forwarded + tx_filtered +
 *           tx_errors)
 * @tx_forwarded: copies whose group the port's filter may hold: sent
 * @tx_filtered: copies whose group the port's filter does not hold:
 *               dropped
 * @tx_leaked: forwarded copies of a group the port has not joined (false
 *             positives); counted when KBLOOM_MCAST_F_AUDIT is set
 * @tx_errors: copies dropped because the port has no filter or the copy
 *             is not multicast
 * @rx_local: link-local and reserved group frames (not IGMP, MLD):
 *            flooded, or passed to the stack with KBLOOM_MCAST_F_LOCAL_STACK
 * @tx_flooded: copies of link-local frames sent on the port unfiltered
 *
 * rx_packets = rx_mcast + rx_local + rx_control + rx_other + rx_malformed;
 * tx_seen = tx_forwarded + tx_flooded + tx_filtered + tx_errors.
 */
struct kbloom_mcast_stats {
	__u64 rx_packets;
	__u64 rx_mcast;
	__u64 rx_control;
	__u64 rx_other;
	__u64 rx_malformed;
	__u64 tx_seen;
	__u64 tx_forwarded;
	__u64 tx_filtered;
	__u64 tx_leaked;
	__u64 tx_errors;
	__u64 rx_local;
	__u64 tx_flooded;
};

/* ---- gate ------------------------------------------------------------- */

/* struct kbloom_gate_cfg.mode */
enum kbloom_gate_mode {
	KBLOOM_GATE_MONITOR = 0,	/* count, never drop */
	KBLOOM_GATE_DENY = 1,		/* drop addresses in the set */
	KBLOOM_GATE_ALLOW = 2,		/* drop addresses not in the set */
	KBLOOM_GATE_MODE_MAX = KBLOOM_GATE_ALLOW,
};

/* struct kbloom_gate_cfg.flags */
#define KBLOOM_GATE_F_DST	_BITUL(0)	/* match the destination */
#define KBLOOM_GATE_F_ALL	KBLOOM_GATE_F_DST

/**
 * struct kbloom_gate_geo - what a packet needs of the gate's filter in
 * one slot: the hot part of its struct kbloom_params
 * @seed: hash seed
 * @nblocks: blocks of the filter
 * @k: probes per key
 * @hash_id: enum kbloom_hash_id
 * @reserved: zero
 */
struct kbloom_gate_geo {
	__u64 seed;
	__u32 nblocks;
	__u32 k;
	__u32 hash_id;
	__u32 reserved;
};

/*
 * The adaptive mode: each CPU counts, over windows of
 * KBLOOM_GATE_ADAPT_WINDOW IP packets, the packets whose address the gate
 * found possibly present (the filter's "maybe"; in direct mode the exact
 * map's hits).  A window with at least @adapt_on percent of them puts the
 * CPU in direct mode: the exact map is looked up at once, without the
 * filter (whose saving is gone when most addresses are in the set); a
 * window below @adapt_off percent puts it back.  Verdicts never change:
 * the exact map decides every address the filter does not rule out.
 */
#define KBLOOM_GATE_ADAPT_WINDOW	64U
#define KBLOOM_GATE_ADAPT_ON_DEF	75U	/* percent, kbloomctl's default */
#define KBLOOM_GATE_ADAPT_OFF_DEF	50U

/**
 * struct kbloom_gate_cfg - the gate's settings, one element of gate_config
 * @mode: enum kbloom_gate_mode
 * @flags: KBLOOM_GATE_F_*
 * @adapt_on: percent of positives in a window that switches a CPU to
 *            direct mode, 1..100; 0: the adaptive mode is off
 * @adapt_off: percent below which a CPU in direct mode switches back,
 *             0..@adapt_on
 * @geo: map-backed variant: the geometry of the filter in each slot of
 *       gate_filters, written by the loader before the slot is current
 * @slot: the current slot (the slot of gate_params' element 0)
 * @geo_ok: 1: @geo[@slot] and @slot are the filter's, so a packet reads
 *          no gate_params; 0: it reads gate_params
 *
 * The loader writes @geo[new slot] in one update, then @slot in another
 * (the other bytes unchanged), and only after that empties the old slot:
 * a packet sees the old slot with its geometry or the new one with its.
 */
struct kbloom_gate_cfg {
	__u32 mode;
	__u32 flags;
	__u32 adapt_on;
	__u32 adapt_off;
	struct kbloom_gate_geo geo[KBLOOM_SLOTS_PER_FILTER];
	__u32 slot;
	__u32 geo_ok;
};

/**
 * struct kbloom_gate_stats - per CPU counters of the gate path
 * @packets: frames seen
 * @not_ip: frames that are not IPv4/IPv6 (ARP, ...): passed
 * @malformed: IP frames with a truncated or inconsistent header: dropped
 * @filter_negatives: addresses the filter says are definitely absent (the
 *                    exact map is not consulted)
 * @exact_lookups: exact map lookups (filter said "possibly present")
 * @exact_hits: addresses found in the exact map
 * @false_positives: exact lookups that missed: caught false positives
 * @errors: filter lookups that failed (no filter): decided by the exact map
 * @drops: frames dropped (including malformed)
 * @passed: IP frames passed
 * @direct_lookups: exact map lookups made in direct mode, without the
 *                  filter (adaptive mode)
 * @direct_hits: those that found the address
 * @to_direct: switches of a CPU to direct mode
 * @to_filter: switches of a CPU back to the filter
 * @direct_now: 1 while this CPU is in direct mode (summed: the CPUs in it)
 * @win_seen: IP packets of the CPU's current window
 * @win_pos: positives of the CPU's current window
 *
 * packets = not_ip + malformed + filter_negatives + exact_lookups +
 * direct_lookups; exact_lookups = exact_hits + false_positives (+ misses
 * of failed filter lookups, counted in errors).
 */
struct kbloom_gate_stats {
	__u64 packets;
	__u64 not_ip;
	__u64 malformed;
	__u64 filter_negatives;
	__u64 exact_lookups;
	__u64 exact_hits;
	__u64 false_positives;
	__u64 errors;
	__u64 drops;
	__u64 passed;
	__u64 direct_lookups;
	__u64 direct_hits;
	__u64 to_direct;
	__u64 to_filter;
	__u64 direct_now;
	__u64 win_seen;
	__u64 win_pos;
};

/* ---- cuckoo filters (the gate's cuckoo variant) ------------------------ */

/*
 * A cuckoo filter in BPF is a blocks map as above holding the slot array
 * of uapi/kbloom_variants.h word for word: word w of the array is word
 * w % 8 of block w / 8, so the first nwords words of the map are the
 * payload of the filter's version-3 image and the rest of the last block
 * is zero.  A bucket of b f-bit slots is one packed field of b f bits
 * (bucket i is bits [i b f, + b f)): with b f dividing 512 (f = 16, b = 4)
 * every bucket lies in one 64-byte block, otherwise a few straddle two
 * (f = 12, b = 4: 2 bucket positions in 32).  The XDP form takes buckets
 * of at most KBLOOM_CUCKOO_BPF_BUCKET_BITS (f <= 16 at b = 4).
 *
 *   <path>_cuckoo   BPF_MAP_TYPE_HASH, BPF_F_NO_PREALLOC, filter id ->
 *                   struct kbloom_cuckoo_params: the shape and hash, and
 *                   the slot of <path>_filters holding the blocks map
 *                   (swapped as for blocked filters: params last);
 *   <path>_cseq     BPF_MAP_TYPE_ARRAY, BPF_F_MMAPABLE, 0 -> struct
 *                   kbloom_cuckoo_seq: odd while a writer changes slots.
 *
 * Writers are the loader (libkbloom_cuckoo over the mmapped blocks map,
 * serialised by the instance lock): seq + 1, the slot stores (a kick
 * path moved from its end back to its start, so an entry is always in
 * one of its buckets), seq + 1.  A program reads seq, both buckets, seq
 * again: a fingerprint found stands; "absent" stands only if seq was
 * even and unchanged, else it reads again, and after
 * KBLOOM_CUCKOO_BPF_TRIES unstable reads it answers "possibly present".
 */

/* Reads of a BPF lookup before it gives up and answers "possibly present" */
#define KBLOOM_CUCKOO_BPF_TRIES	4U

/* The widest bucket (b f bits) of the XDP form: one field of two words */
#define KBLOOM_CUCKOO_BPF_BUCKET_BITS	64U

/**
 * struct kbloom_cuckoo_params - a cuckoo filter, as the programs see it
 * @shape: the geometry (KBLOOM_TYPE_CUCKOO, kb_shape_check())
 * @version: KBLOOM_XDP_LAYOUT_VERSION
 * @hash_id: enum kbloom_hash_id
 * @seed: hash seed
 * @nwords: words of the slot array, kb_shape_words(@shape)
 * @nblocks: blocks of the blocks map, (@nwords + 7) / 8
 * @slot: index in <path>_filters of the blocks map holding the filter
 * @gen: generation, bumped each time the blocks map changes
 * @inserted: keys in the filter (adds minus deletes through the loader)
 * @kicks: entries relocated by the loader's adds
 * @overflows: adds refused for lack of room (-ENOSPC)
 * @capacity: planned n, 0 for an explicit shape
 * @fpr_pico: planned p in 1e-12 units, 0 for an explicit shape
 */
struct kbloom_cuckoo_params {
	struct kb_shape shape;
	__u32 version;
	__u32 hash_id;
	__u64 seed;
	__u64 nwords;
	__u32 nblocks;
	__u32 slot;
	__u64 gen;
	__u64 inserted;
	__u64 kicks;
	__u64 overflows;
	__u64 capacity;
	__u64 fpr_pico;
};

/* The writers' sequence counter (odd while slots change). */
struct kbloom_cuckoo_seq {
	__u32 seq;
	__u32 reserved;
};

/* ---- deletable filters (the mcast ports' deletable variant) ------------ */

/*
 * A deletable filter (uapi/kbloom_var_deletable.h) in BPF is a blocks map
 * as above holding the filter's array word for word: the body (m bits in
 * the standard layout), then the collision bitmap; word w of the array
 * is word w % 8 of block w / 8, so the first nwords words of the map are
 * the payload of the filter's version-3 image and the rest of the last
 * block is zero.  The programs test the body (bpf/kbloom_standard.h); the
 * bitmap is the loader's only.
 *
 *   <path>_deletable  BPF_MAP_TYPE_HASH, BPF_F_NO_PREALLOC, filter id ->
 *                     struct kbloom_del_params: the shape and hash, the
 *                     slot of <path>_filters holding the blocks map, and
 *                     the loader's counts of leaves.
 *
 * The loader (libkbloom_deletable over the mmapped blocks map, serialised
 * by the instance lock) sets a join's bits with atomic OR; a leave of a
 * deletable group clears the group's bits in collision-free regions, bits
 * no other group has set; a leave of any other group rewrites the body
 * from the remaining members word by word: each word goes from its old
 * value to a subset of it that still holds every member's bits, so a
 * member never tests absent meanwhile.
 */

/**
 * struct kbloom_del_params - a deletable filter, as the programs see it
 * @shape: the geometry (KBLOOM_TYPE_DELETABLE, kb_shape_check(); buckets:
 *         region bits s)
 * @version: KBLOOM_XDP_LAYOUT_VERSION
 * @hash_id: enum kbloom_hash_id
 * @seed: hash seed
 * @nwords: words of the array, kb_shape_words(@shape)
 * @nblocks: blocks of the blocks map, (@nwords + 7) / 8
 * @slot: index in <path>_filters of the blocks map holding the filter
 * @gen: generation, bumped each time the filter is rebuilt or replaced
 * @inserted: keys in the filter (joins minus leaves deleted in place)
 * @built: keys added since the filter was last built: the keys whose
 *         probes made the collision bitmap
 * @leaves: leaves that took a group out of the filter
 * @deleted: of @leaves, deleted in place (the group was deletable)
 * @rebuilds: of @leaves, rebuilt from the members (not deletable)
 * @predicted_nano: the sum over @leaves of the predicted chance that the
 *                  leave needs a rebuild (1 - formula (2) of
 *                  kbloom_var_deletable.h at @built keys), in 1e-9 units
 * @capacity: planned n, 0 for an explicit shape
 * @fpr_pico: planned p in 1e-12 units, 0 for an explicit shape
 */
struct kbloom_del_params {
	struct kb_shape shape;
	__u32 version;
	__u32 hash_id;
	__u64 seed;
	__u64 nwords;
	__u32 nblocks;
	__u32 slot;
	__u64 gen;
	__u64 inserted;
	__u64 built;
	__u64 leaves;
	__u64 deleted;
	__u64 rebuilds;
	__u64 predicted_nano;
	__u64 capacity;
	__u64 fpr_pico;
};

#endif /* _UAPI_KBLOOM_XDP_MAPS_H */
