/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the BPF map layout of the in-packet Bloom filter path (ipbf:
 * LIPSIN zFilters and multi-stage MSBF, bpf/kbloom_ipbf.bpf.c) and of the
 * Multi-Class Bloom filter path (mcbf, bpf/kbloom_mcbf.bpf.c).
 *
 * Shared by the BPF programs and the libkbloom loader
 * (userspace/lib/xdp_ipbf.c): fixed-width types only, no
 * implicit padding, no BPF helpers.  The header formats and the class
 * encoding are in uapi/kbloom_ipbf.h.
 *
 * ipbf, one instance per forwarding node (a switch, or a host):
 *
 *   ipbf_port    HASH (BPF_F_NO_PREALLOC)  ifindex -> struct kbloom_ipbf_port:
 *                the port's link IDs and link hashes in every tag set,
 *                its counters index and flags; an update replaces the
 *                element under RCU (a packet sees the old or the new
 *                link IDs, never a mix)
 *   ipbf_ports   DEVMAP_HASH               ifindex -> port + egress program
 *                (forwarding ports only, not KBLOOM_IPBF_PORT_LOCAL)
 *   ipbf_stats   PERCPU_ARRAY              index -> struct kbloom_ipbf_stats
 *   ipbf_config  ARRAY[1]                  struct kbloom_ipbf_cfg
 *
 * mcbf, one instance per switch:
 *
 *   mcbf_port    HASH (BPF_F_NO_PREALLOC)  ifindex -> struct kbloom_mcbf_port:
 *                the port's filter parameters and its class table, in
 *                one element, so that a filter and the k of its classes
 *                change together
 *   mcbf_filters ARRAY_OF_MAPS             slot -> blocks map (two slots
 *                per port, as the mcast path: uapi/kbloom_xdp_maps.h)
 *   mcbf_ports   DEVMAP_HASH               ifindex -> port + egress program
 *   mcbf_stats   PERCPU_ARRAY              index -> struct kbloom_mcbf_stats
 *   mcbf_members HASH                      struct kbloom_member_key: the
 *                exact memberships, read only to count leaks
 *   mcbf_config  ARRAY[1]                  struct kbloom_mcbf_cfg
 */
#ifndef _UAPI_KBLOOM_NET_MAPS_H
#define _UAPI_KBLOOM_NET_MAPS_H

#include <linux/types.h>
#include <linux/const.h>
#include "kbloom_ipbf.h"
#include "kbloom_xdp_maps.h"

/* ---- ipbf ------------------------------------------------------------- */

/*
 * struct kbloom_ipbf_port.flags
 *
 * KBLOOM_IPBF_PORT_LOCAL: the interface of an end node (a host, or the
 * internal port of a switch's own stack).  A frame arriving on it is
 * delivered to the local stack (XDP_PASS) iff its zFilter contains the
 * port's internal link ID lid[tag] (an MSBF frame: iff its header is
 * valid); it is never forwarded, and the port is not in ipbf_ports.
 */
#define KBLOOM_IPBF_PORT_LOCAL	_BITUL(0)
#define KBLOOM_IPBF_PORT_F_ALL	KBLOOM_IPBF_PORT_LOCAL

/**
 * struct kbloom_ipbf_port - a port of an ipbf node
 * @index: counters index in ipbf_stats (set by the loader)
 * @flags: KBLOOM_IPBF_PORT_*
 * @node: the control plane's node number (informational)
 * @port: the control plane's local port number (informational)
 * @lid: LIPSIN link ID of the link leaving through this port, per tag
 *       set; for a LOCAL port, the node's internal link ID per tag set
 * @lhash: link hash of the same link per tag set: the MSBF positions
 */
struct kbloom_ipbf_port {
	__u32 index;
	__u32 flags;
	__u32 node;
	__u32 port;
	struct kb_ipbf_zf lid[KB_IPBF_D_MAX];
	__u64 lhash[KB_IPBF_D_MAX];
};

/**
 * struct kbloom_ipbf_cfg - the node's settings
 * @fill_limit: most one bits a zFilter may have, 1..256 (default 128)
 * @d: tag sets in use, 1..KB_IPBF_D_MAX (default 8): a larger tag is
 *     dropped
 * @k: bits per LIPSIN link ID (informational: the link IDs carry it)
 * @flags: 0
 * @seed: the link-ID seed (informational)
 */
struct kbloom_ipbf_cfg {
	__u32 fill_limit;
	__u32 d;
	__u32 k;
	__u32 flags;
	__u64 seed;
};

/**
 * struct kbloom_ipbf_stats - per port, per CPU counters of the ipbf path
 * @rx_packets: frames seen by the ingress program on this port
 * @rx_other: frames that are not ipbf (EtherType), passed to the stack
 * @rx_forwarded: ipbf frames broadcast to the other ports (hop limit
 *                decremented)
 * @rx_local: ipbf frames delivered to the local stack (LOCAL port)
 * @rx_end: MSBF frames without a stage left at a forwarding port:
 *          nothing to forward, dropped
 * @drop_truncated: frames shorter than their header
 * @drop_header: unknown version or flags, reserved byte set, tag of 16
 *               or more, a LIPSIN header with stages
 * @drop_tag: a tag set the node does not have (tag >= cfg.d)
 * @drop_hop: hop limit 0 at a forwarding port
 * @drop_fill: a zFilter with more one bits than cfg.fill_limit
 * @drop_stage: an MSBF stage with a malformed Elias-gamma length or a
 *              record that goes past the end of the frame
 * @drop_local: LOCAL port: the zFilter does not contain the internal
 *              link ID
 * @tx_seen: copies offered to this port by the devmap
 * @tx_forwarded: copies whose link ID (stage) matched: sent
 * @tx_filtered: copies whose link ID (stage) did not match: dropped
 * @tx_errors: copies dropped because the port has no record, the copy is
 *             not a valid ipbf frame, or the stage could not be removed
 */
struct kbloom_ipbf_stats {
	__u64 rx_packets;
	__u64 rx_other;
	__u64 rx_forwarded;
	__u64 rx_local;
	__u64 rx_end;
	__u64 drop_truncated;
	__u64 drop_header;
	__u64 drop_tag;
	__u64 drop_hop;
	__u64 drop_fill;
	__u64 drop_stage;
	__u64 drop_local;
	__u64 tx_seen;
	__u64 tx_forwarded;
	__u64 tx_filtered;
	__u64 tx_errors;
};

/* ---- mcbf ------------------------------------------------------------- */

/**
 * struct kbloom_mcbf_port - a port's Multi-Class Bloom filter
 * @p: the filter (uapi/kbloom_xdp_maps.h): type KBLOOM_TYPE_BLOCKED; p.k is
 *     the largest k of the class table (informational), each group is
 *     tested with the k of its class
 * @cls: the k of each class (uapi/kbloom_ipbf.h), 0 for an unused class:
 *       its groups are never members
 */
struct kbloom_mcbf_port {
	struct kbloom_params p;
	struct kb_mcbf_classes cls;
};

/* struct kbloom_mcbf_cfg.flags */
#define KBLOOM_MCBF_F_AUDIT	_BITUL(0)	/* count leaks (tx_leaked) */
/* link-local groups: as KBLOOM_MCAST_F_LOCAL_* (the same bits) */
#define KBLOOM_MCBF_F_LOCAL_STACK  KBLOOM_MCAST_F_LOCAL_STACK
#define KBLOOM_MCBF_F_LOCAL_FILTER KBLOOM_MCAST_F_LOCAL_FILTER
#define KBLOOM_MCBF_F_ALL	(KBLOOM_MCBF_F_AUDIT | KBLOOM_MCAST_F_LOCAL_MASK)

struct kbloom_mcbf_cfg {
	__u32 flags;
	__u32 reserved;
};

/**
 * struct kbloom_mcbf_stats - per port, per CPU counters of the mcbf path
 * @rx_packets .. @rx_malformed: as struct kbloom_mcast_stats
 * @tx_seen: copies offered to this port
 * @tx_forwarded: copies whose group the port's filter may hold: sent
 * @tx_filtered: copies whose group the filter does not hold (including
 *               @tx_unused): dropped
 * @tx_unused: copies of a group whose class is unused on this port
 * @tx_leaked: forwarded copies of a group the port has not joined (false
 *             positives), counted with KBLOOM_MCBF_F_AUDIT
 * @tx_errors: copies dropped because the port has no filter or the copy
 *             is not multicast
 * @rx_local, @tx_flooded: as struct kbloom_mcast_stats
 */
struct kbloom_mcbf_stats {
	__u64 rx_packets;
	__u64 rx_mcast;
	__u64 rx_control;
	__u64 rx_other;
	__u64 rx_malformed;
	__u64 tx_seen;
	__u64 tx_forwarded;
	__u64 tx_filtered;
	__u64 tx_unused;
	__u64 tx_leaked;
	__u64 tx_errors;
	__u64 rx_local;
	__u64 tx_flooded;
};

#endif /* _UAPI_KBLOOM_NET_MAPS_H */
