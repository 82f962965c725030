/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_exp: multicast traffic-leakage experiments.
 *
 * One experiment = a topology, a set of multicast groups, the forwarding
 * schemes to compare and their parameters, and a seed.  Everything is
 * deterministic given those: the groups, their delivery trees, the link
 * IDs and every filter.  Two executors run the same experiment:
 *
 *   model     (kb_exp_run)      in memory, at data-center scale: one
 *             packet per group from its source, forwarded over the
 *             topology by the control plane of libkbloom_net (trees,
 *             zFilters, MSBF headers, kb_sim_run) and by per-port filters
 *             of libkbloom (standard, blocked) and MC-BF (kb_mcbf), and
 *             with `schemes all` the survey's variants as model-only
 *             per-port schemes (cuckoo, VI-CBF, d-left, partitioned, ...);
 *   emulation (kb_exp_emulate)  the same packets on the real XDP
 *             programs, one network namespace per switch and per host,
 *             veth links; the leaks are read from the programs' per-port
 *             counters and from what the hosts receive, and compared with
 *             the model packet by packet.
 *
 * Groups.  Group g has `size` receivers, distinct hosts drawn uniformly
 * (size from the distribution of the parameters), and one source, a host
 * drawn uniformly among the other hosts (the source is a receiver only
 * when the group is every host).  Its address is 239.X.Y.Z with the MC-BF
 * class in the high nibble of the second octet (uapi/kbloom_ipbf.h), the
 * same key for every scheme.  Its delivery tree is the shortest-path tree
 * from the source to the receivers, equal-cost parents chosen per group
 * (ECMP-like).
 *
 * Schemes and what a packet carries:
 *   exact     per-port exact group tables (a switch port forwards the
 *             groups whose tree uses it): no leakage, the reference;
 *   standard  per-port standard Bloom filters of M bits holding the same
 *             groups; a switch offers a copy to every port but the
 *             ingress and each port forwards iff its filter matches (the
 *             mcast path);
 *   blocked   the same with 512-bit blocked filters;
 *   mcbf      per-port Multi-Class filters of M bits: the class of a group
 *             (from its presence probability) selects its k, optimised
 *             per port by kb_mcbf_optimize();
 *   lipsin1,  a 256-bit zFilter in the packet (LIPSIN), link IDs of
 *   lipsin8   lipsin_k bits, best of d = 1 or 8 tag sets; a tree too large
 *             for the fill limit is split into several packets, each with
 *             the zFilter of a subtree;
 *   msbf      a multi-stage header, false-positive free by construction;
 *   yesno     lipsin8's zFilter plus a no filter of the candidate links
 *             it wrongly holds (kb_yn_build(): 64 bits, k = 2, no tree
 *             link ever excluded);
 *   cuckoo, vicbf, dleft, partitioned, ...  per-port structures of M bits
 *             of libkbloom's variants (userspace/lib/exp/scheme_*.c), model
 *             only; one that may miss a present group (may_fn) does not
 *             send it on that tree link: lost deliveries.
 *
 * Metrics (per scheme, per filter size M for the per-port schemes):
 *   leakage ratio  transmissions on links outside the packet's tree /
 *                  transmissions on its tree links (duplicates included,
 *                  as kb_sim_run counts them);
 *   false positives: fp = candidate links that match (a candidate is a
 *                  port of a tree switch that is neither a tree link nor
 *                  the ingress: the first-order rate the formulas
 *                  predict), and per switch the forwarding decisions that
 *                  sent a copy off the tree (cascades included);
 *   header bytes per packet, switch memory.
 *
 * Errors are negative errno values; kb_exp_*() functions that take a
 * struct kb_exp also leave a one-line reason in kb_exp_error().
 */
#ifndef _LIBKBLOOM_EXP_H
#define _LIBKBLOOM_EXP_H

#include <stdio.h>
#include <linux/types.h>

#include "libkbloom_net.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The schemes.  The first seven are the classic ones (the default set,
 * KB_EXP_CLASSIC); the per-port schemes added after them are model only
 * (no XDP data path): each is one ops table (userspace/lib/exp/scheme.h),
 * and its value is appended at the end of this list.  Every value after
 * KB_EXP_MSBF is a per-port scheme unless KB_EXP_IN_PACKET names it.
 */
enum kb_exp_scheme {
	KB_EXP_EXACT = 0,
	KB_EXP_STANDARD,
	KB_EXP_BLOCKED,
	KB_EXP_MCBF,
	KB_EXP_LIPSIN1,
	KB_EXP_LIPSIN8,
	KB_EXP_MSBF,
	KB_EXP_YESNO,		/* in-packet, model and XDP (not in the default set) */
	/* per-port schemes of the survey's variants: append here */
	KB_EXP_CUCKOO,
	KB_EXP_VICBF,
	KB_EXP_DLEFT,
	KB_EXP_PARTITIONED,
	KB_EXP_ONEHASH,
	KB_EXP_ULTRAFAST,
	KB_EXP_SBBF,
	KB_EXP_DELETABLE,
	KB_EXP_ACBF,
	KB_EXP_FPCBF,
	KB_EXP_RBF,
	KB_EXP_SHIFTING,
	KB_EXP_COMPLEMENT,
	KB_EXP_WEIGHTED,
	KB_EXP_SHIFTING_PORTS,	/* one structure per switch (which ports) */
	KB_EXP_NSCHEMES
};

#define KB_EXP_S(s)		(1U << (s))
#define KB_EXP_ALL		((1U << KB_EXP_NSCHEMES) - 1)
/* the schemes of the default set: exact .. msbf */
#define KB_EXP_CLASSIC		((1U << (KB_EXP_MSBF + 1)) - 1)
/* the schemes that carry their state in the packet */
#define KB_EXP_IN_PACKET	(KB_EXP_S(KB_EXP_LIPSIN1) | \
				 KB_EXP_S(KB_EXP_LIPSIN8) | \
				 KB_EXP_S(KB_EXP_MSBF) | \
				 KB_EXP_S(KB_EXP_YESNO))
/* the schemes whose state is a per-port structure of M bits */
#define KB_EXP_PORT_FILTERS	(KB_EXP_S(KB_EXP_STANDARD) | \
				 KB_EXP_S(KB_EXP_BLOCKED) | \
				 KB_EXP_S(KB_EXP_MCBF) | \
				 (KB_EXP_ALL & ~KB_EXP_CLASSIC & \
				  ~KB_EXP_IN_PACKET))

enum kb_exp_topo_kind {
	KB_EXP_TOPO_FAT_TREE = 1,
	KB_EXP_TOPO_LEAF_SPINE = 2,
	KB_EXP_TOPO_FILE = 3,
};

enum kb_exp_dist {
	KB_EXP_DIST_UNIFORM = 1,	/* size_min..size_max, uniform */
	KB_EXP_DIST_ZIPF = 2,		/* P(s) ~ s^-zipf_s on size_min..size_max */
	KB_EXP_DIST_FIXED = 3,		/* size_min */
};

#define KB_EXP_BITS_MAX		16	/* points of the sweep over M */
#define KB_EXP_FT_K_MAX		32	/* fat-tree k of the model */
#define KB_EXP_PORT_BITS_MAX	(1ULL << 26)	/* per-port filter bits, at most */
#define KB_EXP_GROUPS_MAX	1000000U
#define KB_EXP_THREADS_MAX	64U

/**
 * struct kb_exp_params - one experiment; kb_exp_params_init() gives the
 * defaults, kb_exp_params_check() says what is wrong
 * @topo: enum kb_exp_topo_kind
 * @ft_k: fat-tree k (even, 2..KB_EXP_FT_K_MAX)
 * @ls_leaves, @ls_spines, @ls_hosts: leaf-spine (1..4096, 1..256, 1..256)
 * @topo_file: topology file (kb_exp_topo_load())
 * @groups: 1..KB_EXP_GROUPS_MAX
 * @dist, @size_min, @size_max, @zipf_s: group sizes (receivers);
 *         size_max 0: the host count; zipf_s in (0, 10]
 * @nbits, @bits: the sweep of per-port filter sizes M (bits; multiples of
 *         512 for blocked and MC-BF, of 64 for standard), ascending
 * @ref_bits: the M of the results by group size (0: the middle of @bits)
 * @k: per-port filter probes, 1..32; 0: per port, the k that minimises
 *     the predicted false-positive rate of that port's group count
 * @nclass: MC-BF classes (1..16)
 * @presence: the presence probability of each class, in (0, 1); all 0:
 *     classes at equal-count quantiles of the groups' presence
 * @mcbf_type: KBLOOM_TYPE_BLOCKED or KBLOOM_TYPE_STANDARD
 * @mcbf_global: one class table for the fabric instead of one per port
 * @lipsin_k: bits per link ID (1..32, 5)
 * @fill_limit: one bits allowed in a zFilter (1..256, 128)
 * @hop_slack: LIPSIN hop limit = tree height + @hop_slack (0..64)
 * @msbf_start_fp: kb_msbf_params.start_fp (0: the library's default)
 * @schemes: KB_EXP_S() bits (KB_EXP_CLASSIC by default)
 * @seed: of everything (groups, trees, link IDs, filter hashes)
 * @threads: 1..KB_EXP_THREADS_MAX (0: the online CPUs, at most 8)
 * @max_tx: transmissions followed per packet (0: 1 << 16); a packet that
 *     reaches it (a forwarding loop) is counted as looped
 */
struct kb_exp_params {
	__u32 topo;
	__u32 ft_k;
	__u32 ls_leaves;
	__u32 ls_spines;
	__u32 ls_hosts;
	const char *topo_file;
	__u32 groups;
	__u32 dist;
	__u32 size_min;
	__u32 size_max;
	double zipf_s;
	__u32 nbits;
	__u64 bits[KB_EXP_BITS_MAX];
	__u64 ref_bits;
	__u32 k;
	__u32 nclass;
	double presence[16];
	__u32 mcbf_type;
	__u32 mcbf_global;
	__u32 lipsin_k;
	__u32 fill_limit;
	__u32 hop_slack;
	double msbf_start_fp;
	__u32 schemes;
	__u64 seed;
	__u32 threads;
	__u32 max_tx;
};

void kb_exp_params_init(struct kb_exp_params *p);

/*
 * Check @p against a topology of @nhosts hosts (0: not known yet).
 * Return: 0, or -EINVAL/-ERANGE with one line in @why ("WHAT: WHY").
 */
int kb_exp_params_check(const struct kb_exp_params *p, __u32 nhosts,
			char *why, size_t len);

/*
 * A topology from a text file (NULL @why: no message):
 *
 *   # comment                 '#' to the end of the line
 *   switch NAME [LEVEL]       a switch (LEVEL 1..255, informational)
 *   host NAME                 a host
 *   link NAME NAME            a link; each node numbers its ports in the
 *                             order of its links
 *
 * NAME: 1..31 of [A-Za-z0-9_.-], unique.  Refused: unknown statements,
 * a link to an unknown node, to itself or twice between the same nodes,
 * a host with no link or more than one, fewer than 2 hosts, a host that
 * cannot reach every other host.  Return: 0; -EINVAL with "FILE:LINE:
 * WHAT" in @why; -errno of reading.
 */
int kb_exp_topo_load(const char *path, struct kb_topo **tp, char *why,
		     size_t len);

/* ---- results ------------------------------------------------------- */

/**
 * struct kb_exp_metrics - one scheme at one M
 * @groups, @packets: groups sent, packets (LIPSIN: one per subtree)
 * @refused: packets the source could not build (no header fits)
 * @tx_tree, @tx_off: transmissions on the packets' tree links / elsewhere
 * @tree_links: sum of the packets' tree links
 * @cand, @cand_fp: candidate links tested / matching (first order)
 * @fp_pred: expected matching candidates by the formulas (sum over the
 *     candidates of each one's predicted probability): per-port filters
 *     from the port's group count (uapi/kbloom_plan.h), LIPSIN from the
 *     packet's number of tree links (link IDs of k distinct bits of 256)
 * @fp_pred_fill: LIPSIN: the same from each zFilter's fill F instead of
 *     its link count: C(F, k) / C(256, k) per candidate
 * @delivered, @dup, @leaked_hosts: arrivals at receivers (first, again)
 *     and at other hosts
 * @looped: packets whose forwarding reached max_tx
 * @hdr_bytes: header bytes over all packets
 * @mem_bytes: forwarding state in all switches
 * @k_sum, @k_ports: per-port filters: sum of the ports' k, ports
 * @lost: receivers that did not get their group's packet (per-port
 *     schemes whose structures may miss a present group: a tree link
 *     that misses it does not carry it)
 * @fn_links: tree links of switches whose structure missed the group
 *     (first-order false negatives)
 * @probes: per-port schemes: memory locations read by the first-order
 *     port tests (each tree link and candidate link of each packet: bits,
 *     counters, buckets or blocks as the scheme reads them)
 * @port_tests: per-port schemes: first-order port tests (each port's
 *     present and candidate groups, once per port)
 * @exact_tests, @exact_pred: of those, the tests a scheme answers by an
 *     exact lookup (complement: both of its filters pass), measured and
 *     predicted by the scheme's formula; 0 for the schemes without one
 */
struct kb_exp_metrics {
	__u64 groups;
	__u64 packets;
	__u64 refused;
	__u64 tx_tree;
	__u64 tx_off;
	__u64 tree_links;
	__u64 cand;
	__u64 cand_fp;
	double fp_pred;
	double fp_pred_fill;
	__u64 delivered;
	__u64 dup;
	__u64 leaked_hosts;
	__u64 looped;
	__u64 hdr_bytes;
	__u64 mem_bytes;
	__u64 k_sum;
	__u64 k_ports;
	__u64 lost;
	__u64 fn_links;
	double probes;
	double port_tests;
	double exact_tests;
	double exact_pred;
};

/* Group sizes in buckets [2^b, 2^(b+1) - 1]. */
#define KB_EXP_BUCKETS		21

struct kb_exp_run {
	__u32 scheme;
	__u64 bits;		/* M, 0 for the schemes without per-port filters */
	struct kb_exp_metrics m;
	struct kb_exp_metrics b[KB_EXP_BUCKETS];
	__u64 *sw_fp;		/* per switch: off-tree transmissions decided */
	__u64 *sw_cand;		/* per switch: candidate links tested */
	__u64 *sw_cand_fp;	/* per switch: ... matching */
	double seconds;		/* CPU time of the run */
};

struct kb_exp;

/* Progress: @done of @total units; called from the calling thread. */
typedef void (*kb_exp_progress_fn)(void *ctx, __u64 done, __u64 total);

/*
 * Build the experiment: the topology, the groups and their trees (no
 * forwarding yet).  @p is copied (the topology file is read now).
 * Return: 0; -EINVAL/-ERANGE for bad parameters (kb_exp_error() says
 * which); -ENOMEM.  On error *@xp is NULL, unless @xp_err is given: then
 * it receives the message.
 */
int kb_exp_new(const struct kb_exp_params *p, struct kb_exp **xp,
	       char *why, size_t len);
void kb_exp_free(struct kb_exp *x);
const char *kb_exp_error(const struct kb_exp *x);
/* Set the message of kb_exp_error() (the executors); returns @err. */
__attribute__((format(printf, 3, 4)))
int kb_exp_set_error(struct kb_exp *x, int err, const char *fmt, ...);
const struct kb_exp_params *kb_exp_get_params(const struct kb_exp *x);
const struct kb_topo *kb_exp_topo(const struct kb_exp *x);
/* The link IDs of the in-packet schemes (d = 8 tag sets), or NULL. */
const struct kb_lids *kb_exp_lids(const struct kb_exp *x);

void kb_exp_set_progress(struct kb_exp *x, kb_exp_progress_fn fn, void *ctx);

/*
 * The groups, their trees and the per-port group lists (kb_exp_run() and
 * kb_exp_state_new() do it when it is not done).  Return: 0 or -errno.
 */
int kb_exp_prepare(struct kb_exp *x);

/*
 * The model: every scheme of the parameters, every M.  Runs the
 * configured number of threads.  Return: 0 or -errno.
 */
int kb_exp_run(struct kb_exp *x);

/* The runs, in scheme order, per-port schemes in the order of @bits. */
__u32 kb_exp_nruns(const struct kb_exp *x);
const struct kb_exp_run *kb_exp_get_run(const struct kb_exp *x, __u32 i);
/* The run of @scheme at @bits (ignored for the other schemes), or NULL. */
const struct kb_exp_run *kb_exp_find_run(const struct kb_exp *x,
					 __u32 scheme, __u64 bits);
/* The switches: node ids, in ascending order (per-switch arrays follow). */
const __u32 *kb_exp_switches(const struct kb_exp *x, __u32 *n);
/* Wall-clock seconds of kb_exp_new() + kb_exp_run(). */
double kb_exp_seconds(const struct kb_exp *x);

const char *kb_exp_scheme_name(__u32 scheme);
/* Return: the scheme of @name ("exact", ..., "msbf", ...), or -EINVAL. */
int kb_exp_scheme_parse(const char *name);

/* Leakage ratio tx_off / tx_tree (0 when there is no tree traffic). */
double kb_exp_leak(const struct kb_exp_metrics *m);

/* ---- output ---------------------------------------------------------- */

/* The summary table (one line per run), human readable. */
void kb_exp_print(const struct kb_exp *x, FILE *f);

/*
 * CSV files in directory @dir (created if missing):
 *   summary.csv     one row per run (scheme, M): every metric;
 *   by_size.csv     per run and group-size bucket;
 *   switches.csv    per run and switch: fp decisions, candidates;
 *   fpr.csv         measured vs predicted false-positive rates;
 *   groups.csv      per group: id, address, source, size, class,
 *                   presence, tree links, tree height.
 * Return: 0 or -errno (the file in kb_exp_error()).
 */
int kb_exp_write_csv(struct kb_exp *x, const char *dir);

/*
 * PNG plots rendered by gnuplot from the CSV files in @dir (and the
 * scripts next to them, plot_*.gp): leak_vs_bits.png, leak_vs_size.png,
 * hdr_vs_size.png.  Return: 0; -ENOENT without gnuplot; -errno.
 */
int kb_exp_plot(struct kb_exp *x, const char *dir);

/* ---- emulation --------------------------------------------------------- */

/**
 * struct kb_exp_emu_opts - the emulation
 * @schemes: KB_EXP_S() bits to emulate (0: every one the loaders allow)
 * @bits: M of the per-port filters (0: the parameters' ref_bits)
 * @max_packets: per scheme, at most this many packets (0: all)
 * @verbose: log each mismatch (to @log)
 * @log: lines of progress and mismatches (NULL: quiet)
 */
struct kb_exp_emu_opts {
	__u32 schemes;
	__u64 bits;
	__u32 max_packets;
	__u32 verbose;
	FILE *log;
};

/**
 * struct kb_exp_emu_result - one scheme, model against emulation
 * @status: 0 compared; -EOPNOTSUPP no XDP data path for the scheme (then
 *          @why says what is missing); other -errno: failed (@why)
 * @packets: packets sent; @skipped: not sent because the model says they
 *          loop (no hop limit in that data path)
 * @model_tx, @emu_tx: link transmissions
 * @model_leak, @emu_leak: transmissions outside the packets' trees
 * @emu_leak_counter: leaks as the data path's own counters tell
 *          (mcast: tx_leaked), ~0 when it has none
 * @model_hosts, @emu_hosts: host arrivals (receivers and others)
 * @model_leaked_hosts, @emu_leaked_hosts: arrivals at non-receivers
 * @pkt_mismatch: packets whose per-link transmissions differ
 * @host_mismatch: (host, packet) arrival counts that differ
 */
struct kb_exp_emu_result {
	int status;
	char why[160];
	__u32 scheme;
	__u64 bits;
	__u64 packets;
	__u64 skipped;
	__u64 model_tx;
	__u64 emu_tx;
	__u64 model_leak;
	__u64 emu_leak;
	__u64 emu_leak_counter;
	__u64 model_hosts;
	__u64 emu_hosts;
	__u64 model_leaked_hosts;
	__u64 emu_leaked_hosts;
	__u64 pkt_mismatch;
	__u64 host_mismatch;
	double seconds;
};

/*
 * Run the experiment on XDP (root; the topology at most 64 switches of at
 * most 60 ports and 256 hosts): builds the namespaces and links, then
 * per scheme loads the data path on every switch, installs the state the
 * model computed, sends every packet and compares.  Everything is
 * removed before it returns.  @res: KB_EXP_NSCHEMES entries, indexed by
 * scheme (status -ENOENT for schemes not asked).
 * Return: 0 when it ran (mismatches are in @res); -errno when the
 * fabric could not be built (kb_exp_error()).
 */
int kb_exp_emulate(struct kb_exp *x, const struct kb_exp_emu_opts *o,
		   struct kb_exp_emu_result *res);

/* Agreement table of kb_exp_emulate()'s results. */
void kb_exp_emu_print(const struct kb_exp_emu_result *res, FILE *f);

/* agreement.csv in @dir: one row per scheme. */
int kb_exp_emu_write_csv(struct kb_exp *x, const struct kb_exp_emu_result *res,
			 const char *dir);

/* ---- single packets (the emulation's model side, tests) ----------------- */

/**
 * struct kb_exp_pkt - one packet through the model
 * @res: transmissions and arrivals, as kb_sim_run() reports them
 * @cand, @cand_fp: candidate links of its tree tested / matching
 * @trace, @ntrace: the links it was transmitted on, in order, with
 *                  repeats (valid until the next call on the same state)
 * @hdr, @hdr_len: the header it carries (in-packet schemes)
 * @tree: its tree (valid as @trace); @tree_links: its links
 * @refused: the source could not build its header: not sent
 * @fp_pred, @fp_pred_fill: as in struct kb_exp_metrics
 * @receivers: per-port schemes: the receivers the packet is for
 * @cand_fn: per-port schemes: its tree links that missed the group
 */
struct kb_exp_pkt {
	struct kb_sim_result res;
	__u32 refused;
	double fp_pred;
	double fp_pred_fill;
	__u64 cand;
	__u64 cand_fp;
	const __u32 *trace;
	__u32 ntrace;
	const __u8 *hdr;
	__u32 hdr_len;
	const struct kb_tree *tree;
	__u32 tree_links;
	__u32 receivers;
	__u32 cand_fn;
};

/* The forwarding state of one scheme at one M (per-port filters, ...). */
struct kb_exp_state;

int kb_exp_state_new(struct kb_exp *x, __u32 scheme, __u64 bits,
		     struct kb_exp_state **sp);
void kb_exp_state_free(struct kb_exp_state *s);

/* Packets of group @g under this scheme (LIPSIN: subtrees; else 1). */
int kb_exp_state_npackets(struct kb_exp_state *s, __u32 g);

/* Forward packet @i of group @g through the model. */
int kb_exp_state_forward(struct kb_exp_state *s, __u32 g, __u32 i,
			 struct kb_exp_pkt *pkt);

/**
 * struct kb_exp_group_info - a group
 * @src: its source (node id)
 * @size: receivers
 * @cls: MC-BF class
 * @nlinks, @height, @cand: its delivery tree: links, height, candidate
 *                          links (kb_tree_candidates())
 * @presence: the fraction of the ports it is tested on (tree links and
 *            candidates of switches) that are tree links
 * @addr: 239.X.Y.Z, class in the high nibble of X
 */
struct kb_exp_group_info {
	__u32 src;
	__u32 size;
	__u32 cls;
	__u32 nlinks;
	__u32 height;
	__u32 cand;
	double presence;
	__u8 addr[4];
};

/* Return: 0, -EINVAL for a bad group, -ENODATA before the trees exist. */
int kb_exp_group_info(struct kb_exp *x, __u32 g, struct kb_exp_group_info *gi);

/* The MC-BF classes' presence probabilities (given or measured). */
__u32 kb_exp_classes(const struct kb_exp *x, const double **presence);

/* Group @g: its address (4 bytes), source, receivers. */
void kb_exp_group_addr(const struct kb_exp *x, __u32 g, __u8 addr[4]);
__u32 kb_exp_group_src(const struct kb_exp *x, __u32 g);
const __u32 *kb_exp_group_members(const struct kb_exp *x, __u32 g,
				  __u32 *n);
__u32 kb_exp_ngroups(const struct kb_exp *x);

/*
 * The per-port filter of a switch port (global port id) in a state of a
 * per-port scheme: its words (native order, blocked: 64-byte blocks) and
 * geometry; -ENOENT for a port without a filter (a host's);
 * -EOPNOTSUPP for a model-only per-port scheme (no XDP data path holds it).
 */
struct kb_exp_port_filter {
	__u32 type;
	__u64 m;
	__u32 k;		/* standard, blocked */
	__u32 hash_id;
	__u64 seed;
	const __u64 *words;
	__u64 nwords;
	__u32 ngroups;		/* groups inserted */
	struct kb_mcbf_classes classes;	/* MC-BF */
};

int kb_exp_state_port(const struct kb_exp_state *s, __u32 port,
		      struct kb_exp_port_filter *f);

/*
 * The groups whose tree uses switch port @port (global id), ascending:
 * what its filter (or exact table) holds.  NULL with *@n = 0 when the
 * experiment has no per-port scheme or before the trees exist.
 */
const __u32 *kb_exp_port_groups(const struct kb_exp *x, __u32 port, __u32 *n);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_EXP_H */
