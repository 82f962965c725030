/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_net: the control plane of the forwarding paths that carry a
 * Bloom filter in the packet (LIPSIN zFilters, multi-stage MSBF) or keep
 * one per port with per-class hash counts (MC-BF); see uapi/kbloom_ipbf.h
 * for the header format and the class encoding.
 *
 *   topologies   nodes (hosts, switches), ports, directed links; builders
 *                for a line, a tree, a k-ary fat-tree and a leaf-spine
 *   trees        shortest-path delivery trees from a source to hosts
 *   link IDs     per directed link and tag set, from a seed
 *   zFilters     the best of d tag sets for a tree
 *   MSBF         false-positive-free multi-stage headers
 *   simulation   where a header makes a packet go, link by link, with the
 *                cascades of false positives
 *   MC-BF        the per-class k optimiser and the per-port filter
 *
 * Sized for data-center experiments (fat-trees of 1024 hosts, 10^5
 * groups): topologies are arrays, and the per-tree, per-header and
 * per-packet work (kb_tree_build, kb_zf_build, kb_msbf_build,
 * kb_sim_run) allocates nothing: the work space comes from objects made
 * once per topology.  None of the objects is thread safe; use one of each
 * per thread (topologies and link-ID sets are read-only once built and can
 * be shared).
 *
 * Errors are negative errno values:
 *   -EINVAL   a NULL or malformed argument, a node or port that does not
 *             exist or has the wrong kind;
 *   -ERANGE   a numeric parameter out of its range (k, d, m, fill limit,
 *             topology sizes); the range is in the function's comment;
 *   -E2BIG    more destinations than hosts, a tree too large for a
 *             256-bit zFilter under the fill limit;
 *   -EMSGSIZE a header longer than the buffer or the limit;
 *   -ENOMEM   out of memory.
 * A failing call changes none of its outputs.
 */
#ifndef _LIBKBLOOM_NET_H
#define _LIBKBLOOM_NET_H

#include <stddef.h>
#include <linux/types.h>

#include "kbloom/uapi/kbloom_ipbf.h"
#include "kbloom/uapi/kbloom_ipbf_yesno.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KB_NONE		0xFFFFFFFFU

/* ---- topologies ---------------------------------------------------- */

enum kb_node_kind {
	KB_NODE_HOST = 0,
	KB_NODE_SWITCH = 1,
};

/*
 * A node; level is the tier the builders set (informational): hosts 0,
 * then as each builder says.
 */
struct kb_node {
	__u32 first_port;	/* global id of local port 0 */
	__u16 nports;
	__u8 kind;		/* enum kb_node_kind */
	__u8 level;
};

/*
 * Port p (global id) of node n is local port p - nodes[n].first_port; it
 * is also the id of the directed link that leaves n through it.  peer is
 * the port at the other end (the reverse link), peer_node its node.
 */
struct kb_port {
	__u32 node;
	__u32 peer;
	__u32 peer_node;
	__u32 local;		/* local port number */
};

struct kb_topo {
	__u32 nnodes;
	__u32 nports;		/* directed links: 2 x undirected links */
	__u32 nhosts;
	__u32 max_degree;
	struct kb_node *nodes;
	struct kb_port *ports;
	__u32 *hosts;		/* node ids of the hosts, ascending */
	/* building state (until kb_topo_finalize()) */
	__u32 cap_nodes;
	__u32 nedges;
	__u32 cap_edges;
	__u32 *edges;		/* pairs of node ids */
	int final;
};

/*
 * Building by hand: kb_topo_new(), then nodes and links, then
 * kb_topo_finalize(); local ports are numbered in the order of the links.
 * kb_topo_add_node() returns the new node id (>= 0); kb_topo_add_link()
 * refuses self-links and links of a host that already has one (-EINVAL)
 * and duplicates (-EEXIST).  Nothing can be added after finalize.
 */
int kb_topo_new(struct kb_topo **tp);
int kb_topo_add_node(struct kb_topo *t, __u32 kind, __u32 level);
int kb_topo_add_link(struct kb_topo *t, __u32 a, __u32 b);
int kb_topo_finalize(struct kb_topo *t);
void kb_topo_free(struct kb_topo *t);

/*
 * Builders.  Switches first, then the hosts, host j of switch s (in the
 * order of the switches that have hosts) being node first_host + s * h + j.
 *   line:       @nsw (1..4096) switches 0..nsw-1 in a chain (level 1),
 *               @hosts_per_sw (0..256) hosts on each;
 *   tree:       a complete @fanout-ary (1..64) tree of switches @depth
 *               (1..12) levels deep, numbered level by level from the
 *               root, node 0 (level = depth), to the leaves (level 1);
 *               @hosts_per_leaf (1..256) hosts on each leaf; at most 2^20
 *               nodes;
 *   fat-tree:   k-ary (k even, 2..64), h = k/2: core c (level 3) is node
 *               c < h^2; aggregation j of pod p (level 2) is h^2 + p h + j;
 *               edge i of pod p (level 1) is h^2 + k h + p h + i; h hosts
 *               per edge switch (k^3/4 hosts).  Edge ports: h uplinks to
 *               the pod's aggregation switches, then the hosts;
 *               aggregation j: the h edge switches, then cores j h ..
 *               j h + h - 1; core: one port per pod;
 *   leaf-spine: @spines (1..256) switches, then @leaves (1..4096), every
 *               leaf linked to every spine (leaf ports: the spines, then
 *               the hosts), @hosts_per_leaf (1..256) hosts per leaf.
 * Return: 0; -ERANGE for a size out of range; -ENOMEM.
 */
int kb_topo_line(__u32 nsw, __u32 hosts_per_sw, struct kb_topo **tp);
int kb_topo_tree(__u32 depth, __u32 fanout, __u32 hosts_per_leaf,
		 struct kb_topo **tp);
int kb_topo_fat_tree(__u32 k, struct kb_topo **tp);
int kb_topo_leaf_spine(__u32 leaves, __u32 spines, __u32 hosts_per_leaf,
		       struct kb_topo **tp);

static inline __u32 kb_topo_port(const struct kb_topo *t, __u32 node,
				 __u32 local)
{
	return t->nodes[node].first_port + local;
}

/* ---- shortest-path trees ------------------------------------------- */

/*
 * Breadth-first distances from @src and one parent per node.  Among the
 * equal-cost parents the choice is a hash of (@seed, node): delivery trees
 * spread over the fabric as under ECMP; seed 0 takes the lowest port.
 * parent_port[n] is the directed link (global port) parent -> n, KB_NONE
 * for the source and unreachable nodes; dist[n] is KB_NONE unreachable.
 */
struct kb_spt {
	const struct kb_topo *topo;
	__u32 src;
	__u32 nreach;
	__u32 *dist;
	__u32 *parent_port;
	__u32 *order;		/* reached nodes in BFS order */
};

int kb_spt_new(const struct kb_topo *t, struct kb_spt **sp);
/* Return: 0; -EINVAL for a bad @src. */
int kb_spt_compute(struct kb_spt *s, __u32 src, __u64 seed);
void kb_spt_free(struct kb_spt *s);

/* ---- delivery trees ------------------------------------------------ */

/*
 * A tree of directed links rooted at @src.  Per-node and per-port arrays
 * span the topology; kb_tree_reset() clears only what the last tree
 * touched.
 */
struct kb_tree {
	const struct kb_topo *topo;
	__u32 src;
	__u32 height;		/* largest depth of a tree node */
	__u32 nlinks;
	__u32 nnodes;
	__u32 nmembers;
	__u32 *links;		/* tree links (global ports), parent first */
	__u32 *nodes;		/* tree nodes, src first, parents first */
	__u32 *depth;		/* per node: hops from src, KB_NONE if out */
	__u32 *in_port;		/* per node: its port toward the parent */
	__u8 *on_tree;		/* per port: the directed link is a tree link */
	__u8 *member;		/* per node: a destination of the tree */
	__u32 *path;		/* work space */
};

int kb_tree_new(const struct kb_topo *t, struct kb_tree **trp);
void kb_tree_free(struct kb_tree *tr);

/* Empty tree at @src.  Return: 0; -EINVAL for a bad node. */
int kb_tree_reset(struct kb_tree *tr, __u32 src);

/*
 * Grow the tree by the directed link @port: its node must be in the tree
 * and its peer node not.  Return: 0; -EINVAL.
 */
int kb_tree_add_link(struct kb_tree *tr, __u32 port);

/* Mark a tree node as a destination.  Return: 0; -EINVAL. */
int kb_tree_add_member(struct kb_tree *tr, __u32 node);

/*
 * The shortest-path tree of @s (computed for the source) to the hosts
 * @dst[0..ndst-1]; the tree is reset first.  The source itself and
 * repeated destinations are allowed and add nothing.
 * Return: 0; -E2BIG when @ndst exceeds the host count; -EINVAL for a
 * destination that is not a host or not reachable (the tree is then
 * empty).
 */
int kb_tree_build(struct kb_tree *tr, const struct kb_spt *s,
		  const __u32 *dst, __u32 ndst);

/* ---- link IDs ------------------------------------------------------ */

/*
 * Every directed link's hash and LIPSIN link ID in each of @d tag sets
 * (uapi/kbloom_ipbf.h: kb_ipbf_link_hash(), kb_ipbf_lid()), indexed
 * [tag * topo->nports + port].
 */
struct kb_lids {
	const struct kb_topo *topo;
	__u64 seed;
	__u32 k;
	__u32 d;
	__u64 *lhash;
	struct kb_ipbf_zf *lid;
};

/* Return: 0; -ERANGE for k outside 1..32 or d outside 1..16; -ENOMEM. */
int kb_lids_new(const struct kb_topo *t, __u64 seed, __u32 k, __u32 d,
		struct kb_lids **lp);
void kb_lids_free(struct kb_lids *l);

static inline const struct kb_ipbf_zf *
kb_lid(const struct kb_lids *l, __u32 tag, __u32 port)
{
	return &l->lid[(size_t)tag * l->topo->nports + port];
}

static inline __u64 kb_lhash(const struct kb_lids *l, __u32 tag, __u32 port)
{
	return l->lhash[(size_t)tag * l->topo->nports + port];
}

/* ---- zFilters ------------------------------------------------------ */

/*
 * The candidate links of a tree: every port of a tree node that is
 * neither a tree link nor the node's ingress port -- the links on which
 * forwarding along the tree could leak.
 */
__u32 kb_tree_candidates(const struct kb_tree *tr);

struct kb_zf_result {
	struct kb_ipbf_zf zf;
	__u32 tag;
	__u32 fill;		/* one bits */
	__u32 fp;		/* candidate links that match */
	__u32 candidates;
};

/*
 * The zFilter of @tr: the OR of its links' IDs in one of the tag sets
 * 0..@ntags-1 (1..l->d), the one with the fewest matching candidate links
 * among those whose fill is at most @fill_limit (1..256); ties go to the
 * lower fill, then the lower tag.
 * Return: 0; -ERANGE for @ntags or @fill_limit; -E2BIG when every tag set
 * exceeds the fill limit; -EINVAL for a tree of another topology.
 */
int kb_zf_build(const struct kb_lids *l, const struct kb_tree *tr,
		__u32 ntags, __u32 fill_limit, struct kb_zf_result *r);

/*
 * kb_zf_build(), and per node of @tr the candidate links that match the
 * chosen zFilter: @node_fp is work space for tr->nnodes * @ntags counts;
 * on return node_fp[i] is node tr->nodes[i]'s (0 for a node that does
 * not forward).  Return: as kb_zf_build(); -EINVAL for a NULL @node_fp.
 */
int kb_zf_build_nodes(const struct kb_lids *l, const struct kb_tree *tr,
		      __u32 ntags, __u32 fill_limit, struct kb_zf_result *r,
		      __u32 *node_fp);

/* Matching candidates of @tr for a zFilter in tag set @tag. */
__u32 kb_zf_count_fp(const struct kb_lids *l, const struct kb_tree *tr,
		     const struct kb_ipbf_zf *zf, __u32 tag);

/*
 * Write a LIPSIN header (KB_IPBF_LIPSIN_LEN bytes) into @buf.
 * Return: the bytes written; -EMSGSIZE for a short buffer; -ERANGE for a
 * tag >= KB_IPBF_D_MAX.
 */
int kb_ipbf_write_lipsin(void *buf, size_t len, __u32 hop_limit, __u32 tag,
			 __u16 inner_proto, const struct kb_ipbf_zf *zf);

/* ---- yes-no headers (uapi/kbloom_ipbf_yesno.h) ---------------------- */

#define KB_YN_NO_BYTES_DEFAULT	8U	/* a 64-bit no filter */
#define KB_YN_NO_K_DEFAULT	2U
#define KB_YN_SEEDS_DEFAULT	8U
#define KB_YN_FP_MAX		256U	/* false positives one build inserts */

/*
 * @ntags:      tag sets tried, 1..l->d;
 * @fill_limit: the yes part's fill limit, 1..256;
 * @no_bytes:   the no filter's bytes when one is needed, 1..32;
 * @no_k:       its probes per link, 1..8;
 * @nseeds:     draws of no positions tried per tag set, 1..256.
 */
struct kb_yn_params {
	__u32 ntags;
	__u32 fill_limit;
	__u32 no_bytes;
	__u32 no_k;
	__u32 nseeds;
};

struct kb_yn_result {
	struct kb_ipbf_zf zf;		/* the yes part */
	struct kb_ipbf_no no;		/* no record (bytes 0: no filter) */
	__u8 no_bits[KB_IPBF_NO_BYTES_MAX];
	__u32 tag;
	__u32 fill;			/* one bits of yes */
	__u32 candidates;
	__u32 fp_yes;			/* candidate links in yes */
	__u32 fp;			/* ... and not in no: left to leak */
	__u32 excluded;			/* tree links in no: always 0 */
};

/*
 * The yes-no header of @tr.  For every tag set 0..ntags-1 whose zFilter
 * (the OR of the tree's link IDs) is within the fill limit: the candidate
 * links that match it are inserted into a no filter one by one, in the
 * order of their ports, and an insertion that would make any tree link
 * test positive in no is undone (that link stays a false positive); each
 * of @nseeds draws is tried.  The result leaves the fewest candidate false
 * positives (ties: the shorter no filter, the lower fill, tag, seed); a
 * tag set without any gets an empty no filter.  Every tree link is then checked against no
 * (@r->excluded, 0 by construction).  @p NULL: all l->d tag sets, fill
 * limit 128 and the defaults above.
 * Return: 0; -ERANGE for a parameter out of range; -E2BIG when every tag
 * set exceeds the fill limit; -EINVAL for a tree of another topology.
 */
int kb_yn_build(const struct kb_lids *l, const struct kb_tree *tr,
		const struct kb_yn_params *p, struct kb_yn_result *r);

/*
 * Write the yes-no header of @r (KB_IPBF_YESNO_LEN + r->no.bytes bytes).
 * Return: the bytes written; -EMSGSIZE for a short buffer; -ERANGE for a
 * tag, hop limit or no record out of range.
 */
int kb_ipbf_write_yesno(void *buf, size_t len, __u32 hop_limit,
			__u16 inner_proto, const struct kb_yn_result *r);

/* ---- MSBF ---------------------------------------------------------- */

/* kb_msbf_params.flags */
#define KB_MSBF_EXACT	(1U << 0)	/* scan every stage from m = 1 */

/*
 * @k_min, @k_max: the probes per link tried in every stage (1..16;
 *                 0, 0 means 1..16);
 * @ntags:         tag sets tried (0 or 1: tag @tag only; else 0..ntags-1,
 *                 the shortest header wins);
 * @tag:           the tag set when ntags <= 1;
 * @max_bytes:     refuse longer headers (0: no limit but the buffer);
 * @start_fp:      the first size tried for a stage is where the expected
 *                 number of matching off-tree links is @start_fp (0: 4.0).
 *                 Each size is a fresh draw of positions, so starting
 *                 lower (a larger start_fp) scans more sizes and finds
 *                 smaller stages for more CPU.  Measured on a k = 16
 *                 fat-tree: start_fp 1, 2, 4, 8 give headers 13-34%,
 *                 7-21%, 5-10%, 4-5% longer than KB_MSBF_EXACT (small to
 *                 large groups), which costs 5-15 times the CPU of the
 *                 default (about 0.1, 0.5 and 2 ms per header at -O2 for
 *                 groups of up to 5, 50 and 1023 hosts);
 * @hop_limit:     0: the number of stages.
 *
 * KB_MSBF_EXACT scans every size from 1 bit and every k in range: the
 * smallest stages the format can carry for these link IDs (in the tag
 * set).  Without it, k0 (the k of the smallest estimated stage) is tried
 * first, then its neighbours outwards while each still finds a better
 * stage.
 */
struct kb_msbf_params {
	__u32 flags;
	__u32 k_min;
	__u32 k_max;
	__u32 ntags;
	__u32 tag;
	__u32 max_bytes;
	__u32 hop_limit;
	__u16 inner_proto;
	double start_fp;
};

struct kb_msbf_info {
	__u32 bytes;		/* the header, fixed part included */
	__u32 nstages;
	__u32 tag;
	__u32 stage_m[KB_IPBF_STAGES_MAX];
	__u8 stage_k[KB_IPBF_STAGES_MAX];
	__u16 stage_bytes[KB_IPBF_STAGES_MAX];
};

/* Work space for MSBF headers on one topology. */
struct kb_msbf;

int kb_msbf_new(const struct kb_topo *t, struct kb_msbf **mp);
void kb_msbf_free(struct kb_msbf *m);

/*
 * Build the MSBF header of @tr into @buf: one stage per depth
 * 0..height-1, each the smallest (in bytes, then bits, then k) filter
 * found that no candidate link of a node of that depth matches.
 * @p may be NULL (defaults).  @info may be NULL.
 * Return: the header's bytes; -EMSGSIZE longer than @len or
 * @p->max_bytes, or a stage would need more than 65535 bits; -ERANGE for
 * bad parameters; -EINVAL for a tree taller than 255 or of another
 * topology.
 */
int kb_msbf_build(struct kb_msbf *m, const struct kb_lids *l,
		  const struct kb_tree *tr, const struct kb_msbf_params *p,
		  void *buf, size_t len, struct kb_msbf_info *info);

/* ---- parsing (tests, tools) ---------------------------------------- */

struct kb_ipbf_info {
	struct kb_ipbf_hdr hdr;
	struct kb_ipbf_zf zf;		/* LIPSIN */
	__u32 nstages;			/* MSBF: stages parsed */
	struct kb_ipbf_stage stage[KB_IPBF_STAGES_MAX];
	__u32 stage_at[KB_IPBF_STAGES_MAX];	/* byte offset of each */
	__u32 len;			/* header bytes, inner packet next */
	struct kb_ipbf_no no;		/* yes-no: the no record */
	__u8 no_bits[KB_IPBF_NO_BYTES_MAX];	/* ... and its filter */
};

/*
 * Parse a whole header as a forwarding node would, all stages at once.
 * @len: the header and the inner packet when the caller has it.
 * Return: 0; -EBADMSG for anything a node would drop (kb_ipbf_hdr_check(),
 * a malformed stage, stages past @len, an MSBF header with a stage left
 * in more than KB_IPBF_FRAME_MAX - KB_IPBF_ETH_LEN bytes, a malformed or
 * truncated no record).  The hop limit and the fill are not checked.
 */
int kb_ipbf_parse(const void *buf, size_t len, struct kb_ipbf_info *info);

/* ---- simulated forwarding ------------------------------------------ */

/*
 * kb_sim_run() forwards one packet carrying the header @hdr from @src
 * over the topology as the XDP programs do: at each node the header is
 * checked (version, flags, tag, fill limit for LIPSIN, then a yes-no
 * header's no record; for MSBF every stage left, each a well-formed
 * record ending within @len, as the XDP ingress walks them, so a header
 * with a malformed later stage crosses no link) and a packet with hop
 * limit 0 or no stage left is not forwarded; then every port but the
 * ingress one whose link ID matches gets a copy (hop limit - 1; MSBF:
 * first stage removed).  Copies are processed breadth first, each
 * independently (no duplicate suppression: cascades and loops of false
 * positives count as the data path would see them) until none is left or
 * @max_tx transmissions.
 *
 * @hdr and @len are the frame after its Ethernet header: the ipbf header
 * and the inner packet when the caller has it.  The XDP ingress does not
 * parse the stages of an MSBF frame longer than KB_IPBF_FRAME_MAX bytes
 * (Ethernet header included) and drops it (its drop_stage); so does the
 * simulator at every node that would forward it (drop_bad): an MSBF
 * packet of more than KB_IPBF_FRAME_MAX - KB_IPBF_ETH_LEN bytes is dropped
 * at its source and crosses no link.  LIPSIN and yes-no frames have no
 * such limit in either.
 *
 * With a tree, transmissions are split into tree and off-tree links and
 * arrivals at hosts into members and others.
 */
struct kb_sim_result {
	__u64 tx;		/* link transmissions */
	__u64 tx_tree;		/* ... on tree links */
	__u64 tx_off;		/* ... elsewhere: leaks */
	__u32 delivered;	/* member hosts reached (distinct) */
	__u32 dup;		/* further arrivals at member hosts */
	__u32 leaked_hosts;	/* arrivals at hosts that are not members */
	__u32 drop_hop;		/* copies not forwarded: hop limit 0 */
	__u32 drop_fill;	/* ... fill above the limit */
	__u32 drop_bad;		/* ... malformed header or stage */
	__u32 truncated;	/* stopped at max_tx */
};

struct kb_sim;

/* @max_tx: the transmission budget of one run (0: 1 << 18). */
int kb_sim_new(const struct kb_topo *t, __u32 max_tx, struct kb_sim **sp);
void kb_sim_free(struct kb_sim *s);

/*
 * @tr may be NULL (then every transmission counts in tx only and every
 * host arrival as leaked).  @fill_limit: 1..256 (LIPSIN).
 * Return: 0; -EINVAL; -ERANGE.
 */
int kb_sim_run(struct kb_sim *s, const struct kb_lids *l,
	       const struct kb_tree *tr, __u32 src, const void *hdr,
	       size_t len, __u32 fill_limit, struct kb_sim_result *r);

/*
 * The links the last run transmitted on, in order (global ports, with
 * repeats); valid until the next run.
 */
const __u32 *kb_sim_trace(const struct kb_sim *s, __u32 *n);

/* ---- MC-BF --------------------------------------------------------- */

/*
 * A class of groups for the optimiser: @groups of them on the port's
 * candidate list, each present (a member behind the port) with probability
 * @p and carrying traffic weight @w.
 */
struct kb_mcbf_class_spec {
	double groups;
	double p;
	double w;
};

struct kb_mcbf_plan {
	__u32 nclass;
	__u32 k[KB_MCBF_CLASSES];
	double rho;		/* expected fill at these k */
	double leak;		/* expected leakage, the objective */
	__u32 k_uniform;	/* the best single k for every class */
	double leak_uniform;	/* its leakage */
};

/*
 * The objective: expected fill rho = 1 - (1 - 1/m)^K, K = sum_g groups_g
 * p_g k_g (the expected number of probes set), and expected leakage
 * sum_g groups_g (1 - p_g) w_g rho^k_g.  Stores rho in *@rho if not NULL.
 */
double kb_mcbf_objective(__u64 m, const struct kb_mcbf_class_spec *c,
			 __u32 nclass, const __u32 *k, double *rho);

/*
 * Integer k_g in [@k_min, @k_max] minimising kb_mcbf_objective() at @m
 * bits: seeds from the closed form k_g = C + log_{1/rho}((1-p_g) w_g /
 * p_g) over a grid of rho and C, then descent by single and paired
 * +-1 steps until no step improves.
 * Return: 0; -EINVAL for nclass outside 1..16, p outside [0, 1], negative
 * or non-finite groups or weights; -ERANGE for m = 0, k_min < 1,
 * k_max > KBLOOM_K_MAX or k_min > k_max.
 */
int kb_mcbf_optimize(__u64 m, const struct kb_mcbf_class_spec *c,
		     __u32 nclass, __u32 k_min, __u32 k_max,
		     struct kb_mcbf_plan *plan);

/*
 * A per-port MC-BF: KBLOOM_TYPE_BLOCKED (m a multiple of 512) or
 * KBLOOM_TYPE_STANDARD (m a multiple of 64), m in [64, 2^32]; a key of
 * class c is hashed with kb_hash(hash_id, seed) and gets the positions of
 * uapi/kbloom_layout.h with k = classes->k[c].
 */
struct kb_mcbf;

/*
 * Return: 0; -EINVAL for a bad type, hash id or a table without a used
 * class; -ERANGE for m, or a k above KBLOOM_K_MAX; -ENOMEM.
 */
int kb_mcbf_new(__u32 type, __u64 m, __u32 hash_id, __u64 seed,
		const struct kb_mcbf_classes *classes, struct kb_mcbf **fp);
void kb_mcbf_free(struct kb_mcbf *f);

/*
 * Add and test a key (1..KBLOOM_KEY_MAX bytes) of class @cls.
 * Return: add: 0; test: 1 possibly a member, 0 not.  -EINVAL for a bad
 * key, a class >= 16 or an unused class (test: an unused class is 0).
 */
int kb_mcbf_add(struct kb_mcbf *f, const void *key, __u32 len, __u32 cls);
int kb_mcbf_test(const struct kb_mcbf *f, const void *key, __u32 len,
		 __u32 cls);
/*
 * The same for a key whose hash under the filter's hash id and seed is
 * @h, computed by the caller (a key hashed once for many filters, e.g.
 * with kb_hash_fast_mixed(), uapi/kbloom_hash.h).  Same returns.
 */
int kb_mcbf_add_hash(struct kb_mcbf *f, __u64 h, __u32 cls);
int kb_mcbf_test_hash(const struct kb_mcbf *f, __u64 h, __u32 cls);
/*
 * kb_mcbf_test_hash() of @n keys (hashes @h, classes @cls), answer i in
 * bit (i & 7) of @hits[i >> 3] (1: possibly a member).  Return: 0;
 * -EINVAL for a NULL array or a class >= 16 (then @hits is untouched).
 */
int kb_mcbf_test_hashes(const struct kb_mcbf *f, const __u64 *h,
			const __u8 *cls, __u32 n, __u8 *hits);

/* Groups by address (network byte order), class from the address. */
int kb_mcbf_add_v4(struct kb_mcbf *f, const __u8 grp[4]);
int kb_mcbf_test_v4(const struct kb_mcbf *f, const __u8 grp[4]);
int kb_mcbf_add_v6(struct kb_mcbf *f, const __u8 grp[16]);
int kb_mcbf_test_v6(const struct kb_mcbf *f, const __u8 grp[16]);

void kb_mcbf_clear(struct kb_mcbf *f);
/* One bits. */
__u64 kb_mcbf_ones(const struct kb_mcbf *f);
/* The bit array (blocked: 64-byte aligned blocks), native-order words. */
const __u64 *kb_mcbf_words(const struct kb_mcbf *f, __u64 *nwords);
const struct kb_mcbf_classes *kb_mcbf_class_table(const struct kb_mcbf *f);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_NET_H */
