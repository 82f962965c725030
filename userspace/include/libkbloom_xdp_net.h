/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP loader, part II: the in-packet Bloom filter path (ipbf:
 * LIPSIN zFilters and multi-stage MSBF, bpf/kbloom_ipbf.bpf.c) and the
 * Multi-Class Bloom filter path (mcbf, bpf/kbloom_mcbf.bpf.c), as pinned,
 * inspectable instances.  The control plane that computes what these
 * load (topologies, link IDs, zFilters, MSBF headers, MC-BF filters) is
 * libkbloom_net.h; the header formats are uapi/kbloom_ipbf.h; the maps
 * are uapi/kbloom_net_maps.h.
 *
 * An instance is one node's programs loaded once and pinned under
 * <pin_root>/<name>/ (default /sys/fs/bpf/kbloom/<name>/):
 *
 *   ipbf: ipbf_port ipbf_ports ipbf_stats ipbf_config
 *   mcbf: mcbf_port mcbf_filters mcbf_ports mcbf_stats mcbf_members
 *         mcbf_config filter_<ifindex> (the blocks map of each port)
 *   both: prog_ingress prog_egress prog_check, link_<ifindex> (the XDP
 *         link of each attached interface)
 *
 * so that kbloomctl, bpftool and tests can open a running instance; a
 * handle is not thread-safe; mutating calls take an flock on the
 * instance directory.  As in libkbloom_xdp.h: interfaces are ifindexes in
 * the instance's network namespace (opts->netns, entered and left by the
 * calls that resolve an ifindex), the pins are in the caller's bpffs,
 * kbloom_xdp_unpin() removes a (partly created) instance, and errors are
 * negative errno values with a log line saying why.
 *
 * ipbf, step by step (one instance per node of a kb_topo):
 *
 *   kbloom_net_create(name, KBLOOM_NET_IPBF, &opts, &n);
 *   kbloom_ipbf_node_setup(n, lids, node, ifindex_of_local_port, 128,
 *                          KBLOOM_XDP_MODE_NATIVE);
 *
 * which is kbloom_ipbf_set_config() (fill limit, d, k, seed), then for
 * each local port kbloom_ipbf_port_from_lids() (a switch) or
 * kbloom_ipbf_local_from_lids() (a host) + kbloom_ipbf_port_set() +
 * kbloom_net_attach().  A source host then sends, per packet, the header
 * of kb_zf_build() + kb_ipbf_write_lipsin() or of kb_msbf_build(), after
 * kbloom_ipbf_source_step() (the forwarding step of the source itself).
 * On a veth link, the end of a switch port's peer must run an XDP program
 * (kbloom_xdp_pass_attach(), or an ipbf host instance) for redirected
 * frames to arrive.
 *
 * mcbf, step by step (one instance per switch):
 *
 *   kb_mcbf_optimize(m, classes, nclass, 1, 16, &plan);  -> k per class
 *   kbloom_net_create(name, KBLOOM_NET_MCBF, &opts, &n);
 *   kbloom_mcbf_port_build(n, ifindex, &spec, groups, ngroups);
 *   kbloom_net_attach(n, ifindex, KBLOOM_XDP_MODE_NATIVE, NULL);
 *
 * or a filter built elsewhere with kb_mcbf_new() + kb_mcbf_add_v4()/_v6()
 * loaded with kbloom_mcbf_port_load().
 */
#ifndef _LIBKBLOOM_XDP_NET_H
#define _LIBKBLOOM_XDP_NET_H

#include <stddef.h>
#include <linux/types.h>

#include "libkbloom_xdp.h"
#include "libkbloom_net.h"
#include "kbloom/uapi/kbloom_net_maps.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kbloom_net_kind {
	KBLOOM_NET_IPBF = 1,
	KBLOOM_NET_MCBF = 2,
};

/**
 * struct kbloom_net_opts - instance options (NULL: all defaults)
 * @pin_root: directory of the instances; NULL: KBLOOM_XDP_PIN_ROOT
 * @netns: network namespace of the interfaces (a path, or a name under
 *         /run/netns); NULL: the calling thread's
 * @log: receives one line per notice; NULL: stderr
 * @log_ctx: passed to @log
 * @max_ports: create: ports (default 64)
 * @max_members: create, mcbf: memberships recorded for auditing
 *               (default 65536)
 */
struct kbloom_net_opts {
	const char *pin_root;
	const char *netns;
	kbloom_xdp_log_fn log;
	void *log_ctx;
	__u32 max_ports;
	__u32 max_members;
};

struct kbloom_net;

/* ---- instances ------------------------------------------------------ */

/*
 * Load a path and pin it as a new instance.  ipbf starts with the default
 * configuration (fill limit 128, d 8, k 5, seed 0); mcbf with
 * KBLOOM_MCBF_F_AUDIT.  Return: 0; -EEXIST; -EINVAL for a bad name, kind
 * or option; -errno of loading.  Nothing stays pinned on failure.
 */
int kbloom_net_create(const char *name, enum kbloom_net_kind kind,
		      const struct kbloom_net_opts *opts,
		      struct kbloom_net **np);

/* Open a pinned instance (pin_root, netns, log of @opts). */
int kbloom_net_open(const char *name, const struct kbloom_net_opts *opts,
		    struct kbloom_net **np);

/* Release the handle; the instance stays pinned and attached. */
void kbloom_net_close(struct kbloom_net *n);

/* Detach every link, remove every port and pin, release the handle. */
int kbloom_net_destroy(struct kbloom_net *n);

enum kbloom_net_kind kbloom_net_kind(const struct kbloom_net *n);

/* The instance of @n; the ipbf or mcbf handle of @i, NULL for another kind. */
struct kbloom_inst *kbloom_net_inst(struct kbloom_net *n);
struct kbloom_net *kbloom_net_of(struct kbloom_inst *i);
const char *kbloom_net_dir(const struct kbloom_net *n);

/*
 * Attach the ingress program to port @ifindex (a pinned BPF link,
 * link_<ifindex>; AUTO falls back to generic mode with a log line), or
 * detach it.  The interface must be a port (-ENOENT).  Return as
 * kbloom_xdp_attach().
 */
int kbloom_net_attach(struct kbloom_net *n, int ifindex,
		      enum kbloom_xdp_mode mode, enum kbloom_xdp_mode *got);
int kbloom_net_detach(struct kbloom_net *n, int ifindex);

enum kbloom_net_prog {
	KBLOOM_NET_PROG_INGRESS = 0,	/* the XDP program of every port */
	KBLOOM_NET_PROG_EGRESS = 1,	/* the devmap program */
	KBLOOM_NET_PROG_CHECK = 2,	/* the egress decision, test-runnable */
};

/* A program of the instance (the handle owns the fd), or -EINVAL. */
int kbloom_net_prog_fd(const struct kbloom_net *n, enum kbloom_net_prog p);

/*
 * The ports of the instance (ifindexes, ascending): up to @max of them
 * into @ifindex (which may be NULL when @max is 0).  Return: how many
 * there are (may exceed @max); -errno.
 */
int kbloom_net_ports(struct kbloom_net *n, __u32 *ifindex, __u32 max);

/* ---- ipbf ------------------------------------------------------------ */

/*
 * The node's settings (struct kbloom_ipbf_cfg): fill_limit 1..256, d
 * 1..KB_IPBF_D_MAX, k KB_IPBF_K_MIN..KB_IPBF_K_MAX (informational), flags
 * 0.  Takes effect for the next packet.  -EINVAL names the field.
 */
int kbloom_ipbf_set_config(struct kbloom_net *n,
			   const struct kbloom_ipbf_cfg *cfg);
int kbloom_ipbf_get_config(struct kbloom_net *n, struct kbloom_ipbf_cfg *cfg);

/*
 * Make @ifindex a port with the link IDs of @rec (its index is assigned:
 * @rec->index is ignored), or replace the link IDs of a port in one
 * update (a packet sees the old or the new ones).  A forwarding port
 * joins ipbf_ports; a KBLOOM_IPBF_PORT_LOCAL one does not.  A new port's
 * counters start at zero.  Return: 0; -EINVAL for unknown flags; -ENODEV;
 * -ENOSPC (max_ports).
 */
int kbloom_ipbf_port_set(struct kbloom_net *n, int ifindex,
			 const struct kbloom_ipbf_port *rec);
int kbloom_ipbf_port_get(struct kbloom_net *n, int ifindex,
			 struct kbloom_ipbf_port *rec);
/* Remove a port: its link, devmap entry, record and counters. */
int kbloom_ipbf_port_del(struct kbloom_net *n, int ifindex);

/* Port @ifindex's counters, summed over the CPUs. */
int kbloom_ipbf_stats(struct kbloom_net *n, int ifindex,
		      struct kbloom_ipbf_stats *st);

/*
 * From the control plane.  kbloom_ipbf_port_from_lids(): the record of
 * the directed link leaving through global port @port (every tag set of
 * @l: lid and lhash).  kbloom_ipbf_local_from_lids(): the LOCAL record of
 * host @host: its internal link IDs are those of its access link (the
 * link from its switch to it), which every zFilter of a tree that
 * delivers to the host contains.  kbloom_ipbf_cfg_from_lids(): k, d and
 * seed of @l with @fill_limit (0: KB_IPBF_FILL_DEFAULT).
 * Return: 0; -EINVAL (a port or host that does not exist, a host without
 * a link); -ERANGE (fill limit).
 */
int kbloom_ipbf_port_from_lids(const struct kb_lids *l, __u32 port,
			       struct kbloom_ipbf_port *rec);
int kbloom_ipbf_local_from_lids(const struct kb_lids *l, __u32 host,
				struct kbloom_ipbf_port *rec);
int kbloom_ipbf_cfg_from_lids(const struct kb_lids *l, __u32 fill_limit,
			      struct kbloom_ipbf_cfg *cfg);

/*
 * Set up node @node of @l's topology on instance @n: configuration, then
 * every local port p on interface @ifindex[p] (a switch: forwarding
 * ports; a host: its LOCAL port) and attach the program with @mode.
 * Return: 0 or the first error (ports set up before it stay).
 */
int kbloom_ipbf_node_setup(struct kbloom_net *n, const struct kb_lids *l,
			   __u32 node, const int *ifindex, __u32 fill_limit,
			   enum kbloom_xdp_mode mode);

/*
 * The forwarding step of the source node, in place, for the header (and
 * payload) in @buf of @len bytes that leaves through global port @port:
 * the checks of a node, in the XDP ingress's order and with its verdict
 * (kb_ipbf_hdr_check() and tag < d; LIPSIN and yes-no: fill <=
 * @fill_limit, then the no record, then hop limit > 0; MSBF: a stage left
 * and hop limit > 0, then a frame of at most KB_IPBF_FRAME_MAX bytes with
 * its Ethernet header, then every stage well-formed), the match of the
 * port's link, then hop limit - 1 and, for MSBF, the first stage removed
 * (the rest moves forward).  Return: the new length; -EBADMSG for a
 * header a node would drop; -ERANGE for a fill above the limit;
 * -EHOSTUNREACH for hop limit 0 or no stage left; -ENOENT when the link
 * is not in the header (yes-no: not in yes, or in no).  @buf changes only
 * on success.
 */
int kbloom_ipbf_source_step(const struct kb_lids *l, __u32 port, void *buf,
			    size_t len, __u32 fill_limit);

/* ---- mcbf ------------------------------------------------------------ */

/**
 * struct kbloom_mcbf_spec - a port's Multi-Class Bloom filter
 * @m: bits, a multiple of 512 (blocked), 512..2^32
 * @hash_id: enum kbloom_hash_id, 0: KBLOOM_HASH_FAST
 * @reserved: 0
 * @seed: hash seed
 * @classes: k of each class (0: unused), at least one used, each at most
 *           KBLOOM_K_MAX
 */
struct kbloom_mcbf_spec {
	__u64 m;
	__u32 hash_id;
	__u32 reserved;
	__u64 seed;
	struct kb_mcbf_classes classes;
};

/*
 * Load @f, a KBLOOM_TYPE_BLOCKED kb_mcbf created with @spec (m, hash id,
 * seed, classes: the ones it was built with; m and the classes are
 * checked), as port @ifindex's filter: a new blocks map is filled, then
 * the filter and its class table are published in one update (the port
 * is created, with zero counters, if it was not one), then the old
 * blocks map is released after an RCU grace period.  No packet is
 * tested against a mix of old and new.  Memberships (for the leak
 * audit) are not touched.  Return: 0; -EINVAL; -ERANGE; -ENODEV; -ENOSPC.
 */
int kbloom_mcbf_port_load(struct kbloom_net *n, int ifindex,
			  const struct kbloom_mcbf_spec *spec,
			  const struct kb_mcbf *f);

/*
 * Build port @ifindex's filter from @ngroups group addresses (network
 * order, 4 or 16 bytes, class from the address: uapi/kbloom_ipbf.h) with
 * kb_mcbf, load it as kbloom_mcbf_port_load(), and make those groups the
 * port's recorded memberships.  A group of an unused class is refused
 * (-EINVAL, nothing changed).
 */
int kbloom_mcbf_port_build(struct kbloom_net *n, int ifindex,
			   const struct kbloom_mcbf_spec *spec,
			   const struct kbloom_addr_key *groups,
			   __u32 ngroups);

/*
 * Port @ifindex joins (or, with KBLOOM_MCBF_UPD_LEAVE, leaves) @ngroups
 * groups: under the instance's lock its recorded memberships are read,
 * changed, its filter rebuilt from them with its own m, hash, seed and
 * classes, loaded as kbloom_mcbf_port_load() and the memberships
 * recorded, so concurrent updates of a port (two operators joining at
 * once) are never lost.  Return: 0; -EEXIST / -ENOENT for a group joined
 * already / not joined (ignored with KBLOOM_MCBF_UPD_EXIST); -EINVAL for
 * a bad address, a group of an unused class or unknown flags; -ENOENT
 * for a port that is not one.  Nothing is changed on error.
 */
#define KBLOOM_MCBF_UPD_LEAVE	0x1U
#define KBLOOM_MCBF_UPD_EXIST	0x2U
int kbloom_mcbf_port_update(struct kbloom_net *n, int ifindex,
			    const struct kbloom_addr_key *groups,
			    __u32 ngroups, __u32 flags);

int kbloom_mcbf_port_get(struct kbloom_net *n, int ifindex,
			 struct kbloom_mcbf_port *port);
/* Remove a port: its link, devmap entry, filter, memberships, counters. */
int kbloom_mcbf_port_del(struct kbloom_net *n, int ifindex);

/*
 * Record / forget a membership of port @ifindex (the audit of leaks
 * only: the filter is whatever was loaded).  -EEXIST / -ENOENT.
 */
int kbloom_mcbf_member_add(struct kbloom_net *n, int ifindex,
			   const void *group, __u32 len);
int kbloom_mcbf_member_del(struct kbloom_net *n, int ifindex,
			   const void *group, __u32 len);

/*
 * Set or read KBLOOM_MCBF_F_*: auditing of leaks, what link-local groups
 * do (KBLOOM_MCBF_F_LOCAL_STACK or _FILTER, not both: -EINVAL).
 */
int kbloom_mcbf_set_flags(struct kbloom_net *n, __u32 flags);
int kbloom_mcbf_get_flags(struct kbloom_net *n, __u32 *flags);

/*
 * The recorded memberships of port @ifindex, sorted (IPv4 first): up to
 * @max into @out.  Return: how many there are (may exceed @max); -errno.
 */
int kbloom_mcbf_groups(struct kbloom_net *n, int ifindex,
		       struct kbloom_addr_key *out, __u32 max);

/**
 * struct kbloom_mcbf_fill - what port's filter holds, as published
 * @m: bits
 * @ones: one bits
 * @fpr: per class, the false-positive rate the filter predicts for a
 *       group not inserted: the mean over the blocks of (block fill)^k
 *       at the class's k (0 for an unused class)
 */
struct kbloom_mcbf_fill {
	__u64 m;
	__u64 ones;
	double fpr[KB_MCBF_CLASSES];
};

/* Port @ifindex's fill and predicted rates.  -ENOENT: no such port. */
int kbloom_mcbf_port_fill(struct kbloom_net *n, int ifindex,
			  struct kbloom_mcbf_fill *f);

/* Port @ifindex's counters, summed over the CPUs. */
int kbloom_mcbf_stats(struct kbloom_net *n, int ifindex,
		      struct kbloom_mcbf_stats *st);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_XDP_NET_H */
