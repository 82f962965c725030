/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP loader: the mcast and gate paths (bpf/kbloom_*.bpf.c) as
 * pinned, inspectable instances.
 *
 * An instance is one path loaded once and pinned under
 * <pin_root>/<name>/ (default /sys/fs/bpf/kbloom/<name>/):
 *
 *   mcast: mc_ports mc_params mc_filters mc_stats mc_members mc_config
 *          mc_plist (the ports in counters index order)
 *          prog_ingress prog_egress prog_check
 *   gate:  gate_params gate_filters gate_exact gate_stats gate_config
 *          prog_gate
 *   both:  filter_<id>   the blocks map of filter <id> (a port's ifindex,
 *                        or 0 for the gate's one filter)
 *          link_<ifindex> the XDP link of each attached interface
 *
 * (uapi/kbloom_xdp_maps.h describes the maps.)  Anything that can open the
 * pins can use the instance: kbloomctl, a test, bpftool.  Mutating calls
 * take an flock on the instance directory, so processes sharing an
 * instance are serialized; a handle itself is not thread-safe.
 *
 * Interfaces are named by ifindex in the instance's network namespace:
 * the namespace of the calling thread, or opts->netns, which the calls
 * that resolve an ifindex (attach, detach, status, port add/del,
 * replace) enter and leave again.  The pins live in the caller's bpffs
 * either way (beware "ip netns exec", which mounts a fresh /sys: pass
 * the namespace as opts->netns instead).  If pin_root is under
 * /sys/fs/bpf and no bpffs is mounted there, the loader mounts one.
 *
 * Two variants of each path, chosen when the instance is created (struct
 * kbloom_xdp_opts: @variant, @module_filter) and kept by
 * kbloom_xdp_replace():
 *
 *   map    the filters are blocked filters in BPF maps (filter_<id>),
 *          the default; needs nothing but BPF;
 *   kfunc  the programs test filters owned by kbloom.ko, named per filter
 *          id (kbloom_xdp_set_module_filter()), through the module's
 *          kfuncs (bpf/kbloom_kfunc_gate.bpf.c, kbloom_kfunc_mcast.bpf.c,
 *          with their name map gate_kfilter / mc_kfilter); needs
 *          kbloom.ko loaded with BTF (KBLOOM_XDP_MODULE_BTF);
 *   cuckoo the gate and mcast: the filters are cuckoo filters in BPF maps
 *          (bpf/kbloom_cuckoo_gate.bpf.c with gate_cuckoo and gate_cseq,
 *          bpf/kbloom_cuckoo_mcast.bpf.c with mc_cuckoo and mc_cseq), so
 *          that kbloom_gate_del() and kbloom_mcast_leave() delete from
 *          the filter at once.
 *
 * Errors are negative errno values.  Common ones: -EINVAL for a bad
 * argument (the log says which), -ENOENT for a missing instance, port,
 * key or group, -EEXIST for one that already exists, -ENOSPC when a map
 * is full, -EPERM without CAP_BPF/CAP_NET_ADMIN/CAP_SYS_ADMIN.
 *
 * A gate or an mcast port must never answer "absent" for a key it holds
 * (a member's packet dropped, a blocked source let through), so a filter
 * whose type may give false negatives (kb_type_may_fn(): stable, sliding
 * window, retouched, ...; images flagged KBLOOM_IMAGE_F_MAY_FN) is refused
 * wherever one would enter them, with -KBLOOM_XDP_E_MAY_FN and a log line
 * naming the type: kbloom_xdp_filter_load_image(),
 * kbloom_gate_cuckoo_load_image(), kbloom_xdp_set_module_filter() (and
 * the instance creation that names a module filter).
 */
#ifndef _LIBKBLOOM_XDP_H
#define _LIBKBLOOM_XDP_H

#include <stddef.h>
#include <linux/types.h>

#include "kbloom/uapi/kbloom_base.h"
#include "kbloom/uapi/kbloom_image.h"
#include "kbloom/uapi/kbloom_xdp_maps.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The errno of a may-forget filter offered to a gate or an mcast port. */
#define KBLOOM_XDP_E_MAY_FN	EMEDIUMTYPE

#define KBLOOM_XDP_PIN_ROOT	"/sys/fs/bpf/kbloom"
#define KBLOOM_XDP_NAME_MAX	64	/* instance names: 1..63 of [A-Za-z0-9_-] */

enum kbloom_xdp_kind {
	KBLOOM_XDP_MCAST = 1,
	KBLOOM_XDP_GATE = 2,
};

enum kbloom_xdp_mode {
	KBLOOM_XDP_MODE_AUTO = 0,	/* native, else generic (logged) */
	KBLOOM_XDP_MODE_NATIVE = 1,	/* driver mode only */
	KBLOOM_XDP_MODE_GENERIC = 2,	/* skb mode only */
};

/**
 * struct kbloom_xdp_geom - geometry of a blocked filter
 * @m: bits, a multiple of 512; 0: planned from @capacity and @fpr_pico
 * @k: probes per key (with @m), 1..KBLOOM_K_MAX
 * @hash_id: enum kbloom_hash_id, 0 for KBLOOM_HASH_FAST
 * @region_bits: the deletable variant's region bits s, a power of two
 *               1..KB_DEL_REGION_MAX (0: KB_DEL_REGION_DEFAULT, 4); must
 *               be 0 for the other variants (was "reserved")
 * @seed: hash seed
 * @capacity: expected keys (planning, recorded)
 * @fpr_pico: target false-positive rate in 1e-12 units (planning,
 *            recorded)
 * All zero: the default, 1024 keys at 0.01%.
 */
struct kbloom_xdp_geom {
	__u64 m;
	__u32 k;
	__u32 hash_id;
	__u32 region_bits;
	__u32 pad;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
};

#define KBLOOM_XDP_DEF_CAPACITY	1024ULL
#define KBLOOM_XDP_DEF_FPR_PICO	100000000ULL	/* 1e-4 */
/*
 * The default rate of a cuckoo gate: 16-bit fingerprints (b = 4: one
 * bucket per 64-bit word), the widest the XDP form takes, 0.0116%.
 */
#define KBLOOM_XDP_CUCKOO_DEF_FPR_PICO	200000000ULL	/* 2e-4 */

/**
 * enum kbloom_xdp_variant - where the filters of an mcast or gate path live
 * @KBLOOM_XDP_VARIANT_AUTO: create: kfunc when @module_filter is set and
 *                           kbloom.ko has BTF (KBLOOM_XDP_MODULE_BTF
 *                           exists), map otherwise (with a log line when
 *                           a module filter was named)
 * @KBLOOM_XDP_VARIANT_MAP: blocked filters in BPF maps (the default)
 * @KBLOOM_XDP_VARIANT_KFUNC: kbloom.ko's named filters through its
 *                            kfuncs; create fails with -ENOENT when the
 *                            module is not loaded and -EOPNOTSUPP when
 *                            it has no BTF, with a log line saying so
 * @KBLOOM_XDP_VARIANT_CUCKOO: gate and mcast: cuckoo filters in BPF maps
 *                             planned from @geom's capacity and fpr (an
 *                             mcast port's: its own @geom, else the
 *                             instance's; no router ports)
 *                             (b = 4, load 0.95; m and k must be 0; fpr
 *                             0: KBLOOM_XDP_CUCKOO_DEF_FPR_PICO; rates
 *                             below 0.0116% need fingerprints wider than
 *                             the XDP form's 16 bits: -EINVAL)
 * @KBLOOM_XDP_VARIANT_DELETABLE: mcast: deletable Bloom filters in BPF
 *                                maps (bpf/kbloom_deletable_mcast.bpf.c),
 *                                planned from @geom's capacity and fpr
 *                                (kb_del_plan()) or its m (a multiple of
 *                                64 and of the region bits) and k, in
 *                                regions of @geom's region_bits; a leave
 *                                deletes the group in place when it is
 *                                deletable and rebuilds the port's filter
 *                                from its members otherwise; no router
 *                                ports, no module filter
 */
enum kbloom_xdp_variant {
	KBLOOM_XDP_VARIANT_AUTO = 0,
	KBLOOM_XDP_VARIANT_MAP = 1,
	KBLOOM_XDP_VARIANT_KFUNC = 2,
	KBLOOM_XDP_VARIANT_CUCKOO = 3,
	KBLOOM_XDP_VARIANT_DELETABLE = 4,
};

/* Present iff kbloom.ko is loaded with BTF: its kfuncs can be used. */
#define KBLOOM_XDP_MODULE_BTF	"/sys/kernel/btf/kbloom"

typedef void (*kbloom_xdp_log_fn)(void *ctx, const char *msg);

/**
 * struct kbloom_xdp_opts - instance options (NULL: all defaults)
 * @pin_root: directory of the instances; NULL: KBLOOM_XDP_PIN_ROOT
 * @netns: network namespace of the interfaces: a path (/run/netns/sw,
 *         /proc/<pid>/ns/net, ...); NULL: the calling thread's
 * @log: receives one line per notice (native mode unavailable, bpffs
 *       mounted, the reason of a refusal); NULL: stderr
 * @log_ctx: passed to @log
 * @max_filters: create: mcast ports (default 64); ignored for the gate
 * @max_keys: create: exact map entries, gate keys or mcast memberships
 *            (default 65536)
 * @geom: create: the gate's filter, or the default filter of an mcast
 *        port
 * @flags: create, mcast: KBLOOM_MCAST_F_* (default KBLOOM_MCAST_F_AUDIT
 *         unless KBLOOM_XDP_OPT_FLAGS is set); gate: KBLOOM_GATE_F_*
 * @mode: create, gate: enum kbloom_gate_mode
 * @opt_flags: KBLOOM_XDP_OPT_*
 * @variant: create: enum kbloom_xdp_variant (0: AUTO)
 * @module_filter: create, kfunc variant: the module filter of the gate
 *                 (id 0), or of the mcast ports made later (id 0 of an
 *                 mcast instance, see kbloom_xdp_set_module_filter());
 *                 NULL: none yet.  With AUTO, setting it asks for the
 *                 kfunc variant.
 */
struct kbloom_xdp_opts {
	const char *pin_root;
	const char *netns;
	kbloom_xdp_log_fn log;
	void *log_ctx;
	__u32 max_filters;
	__u32 max_keys;
	struct kbloom_xdp_geom geom;
	__u32 flags;
	__u32 mode;
	__u32 opt_flags;
	__u32 variant;
	const char *module_filter;
};

#define KBLOOM_XDP_OPT_FLAGS	(1U << 0)	/* @flags given, even if 0 */

struct kbloom_xdp;

/* ---- instances of every kind ------------------------------------------- */

/*
 * Every instance, whatever its kind (mcast, gate, pass here, ipbf and
 * mcbf in libkbloom_xdp_net.h), is a struct kbloom_inst: one directory
 * <pin_root>/<name>/ holding its kind marker (the pin "kind", written
 * when the instance is made and never guessed from the other pins), its
 * programs, maps and links.  kbloom_inst_open() opens any kind;
 * kbloom_xdp_inst() and kbloom_net_inst() give the instance of a kind's
 * handle, kbloom_xdp_of() and kbloom_net_of() the handle of an instance.
 *
 * The "pass" kind is an XDP_PASS program for the host ends of veth links
 * into a switch (a veth end receives redirected frames only when its peer
 * runs an XDP program); its links may be in several namespaces: each
 * attach uses the namespace the instance was opened in (opts->netns).
 */

#define KBLOOM_INST_KIND_MAX	16

/**
 * struct kbloom_inst_opts - what every kind's options start with
 * @pin_root: directory of the instances; NULL: KBLOOM_XDP_PIN_ROOT
 * @netns: network namespace of the interfaces (a path, or a name under
 *         /run/netns); NULL: the calling thread's
 * @log: receives one line per notice or reason of a failure; NULL: stderr
 * @log_ctx: passed to @log
 */
struct kbloom_inst_opts {
	const char *pin_root;
	const char *netns;
	kbloom_xdp_log_fn log;
	void *log_ctx;
};

struct kbloom_inst;
struct kbloom_xdp_link;

/*
 * kbloom_inst_create() - make instance @name of kind @kind ("mcast",
 * "gate", "pass", "ipbf", "mcbf", "sketch", "conntrack") with the kind's
 * options @kind_opts (struct kbloom_xdp_opts, struct kbloom_net_opts, the
 * sketch and conntrack options of libkbloom_xdp_count.h, or NULL for pass;
 * the first four fields of the first two are then ignored: @o has them).
 * Return: 0; -EEXIST; -EINVAL (name, unknown kind); -errno of loading.
 */
int kbloom_inst_create(const char *name, const char *kind,
		       const struct kbloom_inst_opts *o, const void *kind_opts,
		       struct kbloom_inst **ip);

/*
 * kbloom_inst_open() - open instance @name of any kind.
 * Return: 0; -ENOENT (no such directory); -ENODATA (no kind marker: not
 * an instance); -EUCLEAN (a corrupt marker, or a kind this library does
 * not know); the log says which.
 */
int kbloom_inst_open(const char *name, const struct kbloom_inst_opts *o,
		     struct kbloom_inst **ip);
void kbloom_inst_close(struct kbloom_inst *i);
/* Detach every link, unpin everything, release the handle. */
int kbloom_inst_destroy(struct kbloom_inst *i);

const char *kbloom_inst_kind(const struct kbloom_inst *i);
const char *kbloom_inst_name(const struct kbloom_inst *i);
const char *kbloom_inst_dir(const struct kbloom_inst *i);

/* The kind marker of @name without opening it: as kbloom_inst_open(). */
int kbloom_inst_kind_read(const char *pin_root, const char *name,
			  char kind[KBLOOM_INST_KIND_MAX]);

/*
 * The namespace the instance was made for (the inode of its netns; 0 for
 * pass, whose links may be anywhere).  kbloom_inst_netns_name(): its name
 * under /run/netns, "-" for the caller's own (-ENOENT: "ns:<inode>").
 */
int kbloom_inst_netns(const char *pin_root, const char *name, __u64 *ino);
int kbloom_inst_netns_name(__u64 ino, char *buf, size_t len);

/*
 * Attach the instance's program to @ifindex (a pinned BPF link that stays
 * after the process exits; AUTO: native, else generic with a log line),
 * making the interface a port first where the kind does (mcast), or
 * refusing one that is not (ipbf, mcbf: -ENOENT).  Return: 0; -EEXIST;
 * -EBUSY (another XDP program); -ENODEV; -EOPNOTSUPP (NATIVE refused).
 */
int kbloom_inst_attach(struct kbloom_inst *i, int ifindex,
		       enum kbloom_xdp_mode mode, enum kbloom_xdp_mode *got);
/* Detach from @ifindex (a port stays a port); -ENOENT if not attached. */
int kbloom_inst_detach(struct kbloom_inst *i, int ifindex);
/* 1 when @ifindex has a link of @i (in @i's namespace), else 0. */
int kbloom_inst_attached(const struct kbloom_inst *i, int ifindex);
/* The links: fills up to @max, returns how many exist. */
int kbloom_inst_status(struct kbloom_inst *i, struct kbloom_xdp_link *out,
		       __u32 max);
/* Load the programs anew and switch to them; -EOPNOTSUPP if the kind can't. */
int kbloom_inst_replace(struct kbloom_inst *i);

#define KBLOOM_INST_INFO_PORTS		(1U << 0)	/* @ports */
#define KBLOOM_INST_INFO_MEMBERS	(1U << 1)	/* @members */
#define KBLOOM_INST_INFO_MODE		(1U << 2)	/* @mode */
#define KBLOOM_INST_INFO_FLAGS		(1U << 3)	/* @flags */
#define KBLOOM_INST_INFO_VARIANT	(1U << 4)	/* @variant, @module_filter */
#define KBLOOM_INST_INFO_IPBF		(1U << 5)	/* @fill_limit .. @seed */

/**
 * struct kbloom_inst_info - what an instance holds, from its kind
 * @fields: KBLOOM_INST_INFO_* of the members filled
 * @ports: mcast, ipbf, mcbf: its ports
 * @members: mcast, mcbf: memberships; gate: addresses in the set
 * @mode: gate: enum kbloom_gate_mode
 * @flags: gate: KBLOOM_GATE_F_*; mcbf: KBLOOM_MCBF_F_*
 * @variant: mcast, gate: KBLOOM_XDP_VARIANT_MAP or _KFUNC
 * @module_filter: kfunc variant: the gate's module filter, or the name of
 *                 new mcast ports; "" when none
 * @fill_limit, @d, @k, @seed: ipbf: the node's settings
 */
struct kbloom_inst_info {
	__u32 fields;
	__u32 ports;
	__u64 members;
	__u32 mode;
	__u32 flags;
	__u32 variant;
	char module_filter[KBLOOM_NAME_LEN];
	__u32 fill_limit;
	__u32 d;
	__u32 k;
	__u64 seed;
};

/* What @i holds, as its kind tells (the fields it cannot read stay unset). */
int kbloom_inst_info(struct kbloom_inst *i, struct kbloom_inst_info *info);

struct kbloom_inst *kbloom_xdp_inst(struct kbloom_xdp *x);
/* The mcast or gate handle of @i, NULL for another kind. */
struct kbloom_xdp *kbloom_xdp_of(struct kbloom_inst *i);

/* ---- instances ---------------------------------------------------------- */

/**
 * kbloom_xdp_create() - load a path and pin it as a new instance
 *
 * Return: 0; -EEXIST if the instance exists; -EINVAL for a bad name or
 * option; -errno of loading (the log has the verifier's reason).
 * Nothing is left pinned on failure.
 */
int kbloom_xdp_create(const char *name, enum kbloom_xdp_kind kind,
		      const struct kbloom_xdp_opts *opts,
		      struct kbloom_xdp **xp);

/* Open a pinned instance (only pin_root, netns and log of @opts count). */
int kbloom_xdp_open(const char *name, const struct kbloom_xdp_opts *opts,
		    struct kbloom_xdp **xp);

/* Release the handle; the instance stays pinned and attached. */
void kbloom_xdp_close(struct kbloom_xdp *x);

/* Detach every link, unpin everything, release the handle. */
int kbloom_xdp_destroy(struct kbloom_xdp *x);

/*
 * kbloom_xdp_unpin() - remove instance @name without opening it (also a
 * partly created one): detach its links, delete its pins and directory.
 * Return: 0, -ENOENT, -errno.
 */
int kbloom_xdp_unpin(const char *pin_root, const char *name);

enum kbloom_xdp_kind kbloom_xdp_kind(const struct kbloom_xdp *x);
const char *kbloom_xdp_dir(const struct kbloom_xdp *x);

/* The instance's variant: KBLOOM_XDP_VARIANT_MAP, _KFUNC or _CUCKOO (its
 * pins say). */
enum kbloom_xdp_variant kbloom_xdp_variant(const struct kbloom_xdp *x);

/* ---- module filters (kfunc variant) --------------------------------------- */

/*
 * In a kfunc instance the programs test, for filter @id (0: the gate; an
 * mcast port's ifindex), the kbloom.ko filter of the name set here: one
 * that /dev/kbloom users fill, delete from and swap (RESTORE --replace)
 * while the programs run.  The programs test the filter by its id
 * (bpf_kbloom_test_id(): no name lookup per packet), kept beside the name
 * (struct kbloom_kfunc_ref) and resolved by the loader (KBLOOM_IOCTL_STAT)
 * whenever it writes a name, on kbloom_xdp_module_resolve() and on
 * kbloom_xdp_replace().  When the id misses (a RESTORE --replace gives
 * the name a filter with a new id; the filter was destroyed, or did not
 * exist when the name was set) the program looks the name up, tests that
 * filter and keeps its id for the next packets.  So a filter can be named
 * before it exists, destroyed and created again; while there is none,
 * the gate counts an error and lets its exact map decide, and the port
 * drops the copy (tx_errors).  A SWAP or RENAME in the module leaves the
 * old id valid: the programs go on testing the filter they resolved,
 * under its new name, until kbloom_xdp_module_resolve() (kbloomctl xdp
 * resolve) or until that filter is destroyed.
 *
 * kbloom_gate_add() and kbloom_mcast_join() add the key to the module
 * filter too (KBLOOM_IOCTL_ADD through /dev/kbloom; without the filter,
 * or its name, they fail with -ENOENT, naming it in the log, and change
 * nothing), kbloom_gate_del() and kbloom_mcast_leave() delete it
 * (KBLOOM_IOCTL_DEL: a counting filter forgets it at once; a leave needs
 * one, -EOPNOTSUPP otherwise, a gate del leaves the bits of other types;
 * without the filter both go on).  The blocks maps (filter_<id>) stay the
 * loader's record of the set and the memberships, which
 * kbloom_xdp_filter_info() and friends describe; the programs do not read
 * them, so kbloom_xdp_filter_load_image() and _save_image() refuse a
 * kfunc instance (-EOPNOTSUPP): move the module filter's image instead.
 * A port's name may be set before the port is made; removing the port
 * removes it.
 *
 * For mcast, id 0 holds the name given to each port made later (attach,
 * kbloom_mcast_port_add()) that has none: "%s" in it stands for the
 * interface's name ("sw0.%s" names port p1's filter "sw0.p1"); without
 * "%s" every such port shares the one filter.  A name set for a port
 * (ifindex) may also contain "%s".  Expanded names must be valid module
 * filter names (1..31 of A-Z a-z 0-9 _ . -).
 */

/**
 * kbloom_xdp_set_module_filter() - name the module filter of filter @id
 * @name: NULL or "": remove the name
 *
 * Return: 0; -EOPNOTSUPP for a map-backed instance; -EINVAL for a bad
 * name or id (the gate has only id 0); -ENOENT when removing a name that
 * is not set; -ENODEV for an unknown interface (a name with "%s");
 * -KBLOOM_XDP_E_MAY_FN when kbloom.ko holds a filter of that name whose
 * type may give false negatives (checked by KBLOOM_IOCTL_STAT when the
 * device can be opened; a name is looked up per packet, so a filter made
 * later is the creator's responsibility).
 */
int kbloom_xdp_set_module_filter(struct kbloom_xdp *x, __u32 id,
				 const char *name);

/* The name set for @id into @name; -ENOENT if none, -EOPNOTSUPP (map). */
int kbloom_xdp_module_filter(struct kbloom_xdp *x, __u32 id,
			     char name[KBLOOM_NAME_LEN]);

/**
 * kbloom_xdp_module_resolve() - resolve every module filter name to the id
 * of its filter now (after a SWAP or RENAME in kbloom.ko)
 *
 * Return: how many names have a filter (the others get id 0: the
 * programs look them up by name); -EOPNOTSUPP for a map-backed instance;
 * -errno.
 */
int kbloom_xdp_module_resolve(struct kbloom_xdp *x);

/* ---- interfaces ---------------------------------------------------------- */

/**
 * kbloom_xdp_attach() - attach the path to interface @ifindex
 * @mode: enum kbloom_xdp_mode
 * @got: NULL, or out: KBLOOM_XDP_MODE_NATIVE or _GENERIC
 *
 * A pinned BPF link (link_<ifindex>): it stays after the process exits.
 * In AUTO mode a driver without native XDP gets generic mode and a log
 * line saying so.  For mcast the interface also becomes a port (with
 * the default geometry) unless it already is one.
 *
 * Return: 0; -EEXIST if already attached; -EBUSY if another XDP program
 * is attached; -ENODEV; -EOPNOTSUPP (NATIVE requested, no driver
 * support).
 */
int kbloom_xdp_attach(struct kbloom_xdp *x, int ifindex,
		      enum kbloom_xdp_mode mode, enum kbloom_xdp_mode *got);

/* Detach from @ifindex (an mcast port stays a port). -ENOENT if not. */
int kbloom_xdp_detach(struct kbloom_xdp *x, int ifindex);

/**
 * struct kbloom_xdp_link - kbloom_xdp_status() entry
 * @ifindex: the interface (0: it was deleted, the link is defunct)
 * @mode: KBLOOM_XDP_MODE_NATIVE, _GENERIC, or 0 if unknown
 * @link_id: BPF link id
 * @prog_id: id of the program the link runs
 * @ifname: interface name in the instance's namespace, "" if gone (or
 *          unknown: the instance was opened in another namespace than
 *          the one it recorded)
 * @netns_ino: a kind with links in several namespaces (pass): the inode
 *             of the link's namespace; else 0
 * @netns: with @netns_ino: its name under /run/netns, "-" for the
 *         caller's, "ns:<inode>" when it has none
 */
struct kbloom_xdp_link {
	__u32 ifindex;
	__u32 mode;
	__u32 link_id;
	__u32 prog_id;
	char ifname[16];
	__u64 netns_ino;
	char netns[64];
};

/* The attached interfaces: fills up to @max, returns how many exist. */
int kbloom_xdp_status(struct kbloom_xdp *x, struct kbloom_xdp_link *out,
		      __u32 max);

/**
 * kbloom_xdp_replace() - load the programs anew and swap them in
 *
 * The new programs reuse every map of the instance; each link is switched
 * with bpf_link_update() (BPF_F_REPLACE, expecting the old program) and,
 * for mcast, each port's devmap entry is switched to the new egress
 * program: each packet runs either the old or the new program, none runs
 * neither, so no packet bypasses the filter.  Used to upgrade a running
 * instance to the programs of this library.  The new programs are of the
 * instance's variant (a kfunc instance stays kfunc, with its module
 * filter names).
 *
 * Return: 0 or -errno (the old programs stay in place on failure; for a
 * kfunc instance, -ENOENT or -EOPNOTSUPP as in create when kbloom.ko or
 * its BTF is gone).
 */
int kbloom_xdp_replace(struct kbloom_xdp *x);

/**
 * kbloom_xdp_pass_attach() - attach an XDP_PASS program to @ifindex
 * @pin_path: NULL, or where to pin the link (then *@link_fd is not set)
 * @link_fd: NULL, or out: the link; closing it detaches
 *
 * For the host side of veth links into an mcast switch: a veth end
 * receives redirected frames only when its peer runs an XDP program.
 * Uses the calling thread's network namespace.
 */
int kbloom_xdp_pass_attach(int ifindex, enum kbloom_xdp_mode mode,
			   const char *pin_path, int *link_fd);

/* ---- filters -------------------------------------------------------------- */

/**
 * struct kbloom_xdp_filter_info - a filter of an instance
 * @params: as the programs see them (uapi/kbloom_xdp_maps.h)
 * @m: bits
 * @ones: one bits
 * @occupancy_ppm: ones / m in parts per million
 * @n_est: cardinality estimate -(m / k) ln(1 - ones / m)
 * @fpr_now_pico: predicted false-positive rate at n = params.inserted
 */
struct kbloom_xdp_filter_info {
	struct kbloom_params params;
	__u64 m;
	__u64 ones;
	__u64 occupancy_ppm;
	__u64 n_est;
	__u64 fpr_now_pico;
};

/* Filter @id: a port's ifindex (mcast), 0 (gate). */
int kbloom_xdp_filter_info(struct kbloom_xdp *x, __u32 id,
			   struct kbloom_xdp_filter_info *info);

/*
 * Insert a key into / test a key against filter @id directly (through the
 * mmapped blocks map): no exact map is touched.  test returns 1 possibly
 * present, 0 definitely absent.
 */
int kbloom_xdp_filter_add(struct kbloom_xdp *x, __u32 id, const void *key,
			  __u32 len);
int kbloom_xdp_filter_test(struct kbloom_xdp *x, __u32 id, const void *key,
			   __u32 len);

/**
 * kbloom_xdp_filter_load_image() - replace filter @id by a uapi image
 *
 * The image (uapi/kbloom_image.h) must be a verified blocked filter: a
 * new blocks map of its geometry is filled with one copy and published
 * with the parameters in one update, so every packet is tested against
 * the old filter or the new one.  The exact maps are not changed: a gate
 * still confirms every "possibly present" in gate_exact, and an mcast
 * port's filter is rebuilt from its memberships by the next leave or
 * resize.
 *
 * Return: 0; the image's error (kb_image_verify()); -KBLOOM_XDP_E_MAY_FN
 * for an image flagged KBLOOM_IMAGE_F_MAY_FN (a type that may give false
 * negatives); -EOPNOTSUPP for a type other than blocked or a kfunc
 * instance; -ENOENT for an unknown filter.
 */
int kbloom_xdp_filter_load_image(struct kbloom_xdp *x, __u32 id,
				 const void *img, size_t len);

/* Filter @id as a uapi image in a new malloc()ed buffer (free() it). */
int kbloom_xdp_filter_save_image(struct kbloom_xdp *x, __u32 id, void **img,
				 size_t *len);

/* ---- mcast ------------------------------------------------------------------ */

/*
 * Make @ifindex a port (a devmap entry running the egress program and a
 * filter of @geom, NULL: the instance's default), or remove it (its link,
 * filter, memberships and counters).
 */
int kbloom_mcast_port_add(struct kbloom_xdp *x, int ifindex,
			  const struct kbloom_xdp_geom *geom);
int kbloom_mcast_port_del(struct kbloom_xdp *x, int ifindex);

/*
 * Rebuild port @ifindex's filter from its memberships with geometry @geom
 * (NULL: keep it), swapped in atomically.  -EOPNOTSUPP for a kfunc
 * instance: its filters are the module's.
 */
int kbloom_mcast_port_resize(struct kbloom_xdp *x, int ifindex,
			     const struct kbloom_xdp_geom *geom);

/**
 * kbloom_mcast_join() - port @ifindex joins group @group
 * @group: the group address, network order: 4 bytes (224.0.0.0/4) or 16
 *         (ff00::/8)
 *
 * When it returns, every later copy of the group is forwarded on the
 * port: the bits are set with atomic OR in the live filter.
 *
 * Return: 0; -EEXIST if already joined; -EINVAL for a length other than
 * 4 or 16 or an address that is not multicast; -ENOENT for no such port;
 * -ENOSPC when mc_members is full.
 */
int kbloom_mcast_join(struct kbloom_xdp *x, int ifindex, const void *group,
		      __u32 len);

/*
 * Port @ifindex leaves @group: the membership is deleted and the filter
 * rewritten from the remaining ones, word by word, so that the groups
 * still joined are never missed meanwhile.  -ENOENT if not joined.
 */
int kbloom_mcast_leave(struct kbloom_xdp *x, int ifindex, const void *group,
		       __u32 len);

/*
 * The same with the source of the membership, @src (KBLOOM_MEMBER_STATIC,
 * KBLOOM_MEMBER_BRIDGE of uapi/kbloom_xdp_maps.h; kbloom_mcast_join() and
 * _leave() are KBLOOM_MEMBER_STATIC).  A group joined by two sources
 * stays until both have left; -EEXIST / -ENOENT concern @src alone.
 */
int kbloom_mcast_join_src(struct kbloom_xdp *x, int ifindex,
			  const void *group, __u32 len, __u32 src);
int kbloom_mcast_leave_src(struct kbloom_xdp *x, int ifindex,
			   const void *group, __u32 len, __u32 src);

/*
 * Port @ifindex as a multicast router port (@on non-zero) of source
 * @src, or no longer: a router port receives every group (its filter is
 * all ones, its memberships kept for when it stops).  -EEXIST / -ENOENT as for a
 * join / leave; -EOPNOTSUPP for a kfunc instance.
 */
int kbloom_mcast_router(struct kbloom_xdp *x, int ifindex, int on,
			__u32 src);

/* The groups port @ifindex has joined: up to @max, returns how many. */
int kbloom_mcast_groups(struct kbloom_xdp *x, int ifindex,
			struct kbloom_addr_key *out, __u32 max);

/**
 * struct kbloom_mcast_member - a membership and who made it
 * @len: KBLOOM_ADDR4_LEN, KBLOOM_ADDR6_LEN, or KBLOOM_MEMBER_ROUTER_LEN (0):
 *       the port is a router port
 * @sources: KBLOOM_MEMBER_* bits
 * @addr: the group, network order, zero padded
 */
struct kbloom_mcast_member {
	__u32 len;
	__u32 sources;
	__u8 addr[16];
};

/* Port @ifindex's memberships, router entry included: up to @max. */
int kbloom_mcast_members(struct kbloom_xdp *x, int ifindex,
			 struct kbloom_mcast_member *out, __u32 max);

/* The ports, their ifindexes sorted, in a malloc()ed array (free() it). */
int kbloom_mcast_ports(struct kbloom_xdp *x, __u32 **ids, __u32 *n);

/* Port @ifindex's counters, summed over the CPUs. */
int kbloom_mcast_stats(struct kbloom_xdp *x, int ifindex,
		       struct kbloom_mcast_stats *st);

/*
 * Set KBLOOM_MCAST_F_*: auditing of leaks, what link-local groups do
 * (flooded, KBLOOM_MCAST_F_LOCAL_STACK or _FILTER: not both, -EINVAL).
 */
int kbloom_mcast_set_flags(struct kbloom_xdp *x, __u32 flags);
int kbloom_mcast_flags(struct kbloom_xdp *x, __u32 *flags);

/* ---- gate ------------------------------------------------------------------- */

/*
 * Add / remove an address (4 or 16 bytes, network order) to / from the
 * set: the exact map first, then the filter, so that when add returns
 * the address is in force.  A removed address leaves its bits in the
 * filter (its packets then cost one exact lookup, counted as a false
 * positive) until kbloom_gate_rebuild().  -EEXIST / -ENOENT when already
 * in / not in the set.
 */
int kbloom_gate_add(struct kbloom_xdp *x, const void *addr, __u32 len);
int kbloom_gate_del(struct kbloom_xdp *x, const void *addr, __u32 len);

/*
 * kbloom_gate_add_batch(), kbloom_gate_del_batch() - add / remove @n
 * addresses, all or nothing: @keys[i].len is 4 or 16 and the address is
 * zero after it.  Without KBLOOM_GATE_BATCH_EXIST an address already in
 * (add) or not in (del) the set fails the batch with -EEXIST / -ENOENT
 * (a duplicate within an add batch too); with it, such addresses are
 * skipped.  On failure nothing has changed and *@failed (may be NULL)
 * is the index of the address at fault (@n when none is: -ENOMEM, a
 * lock): -EINVAL (a bad key), -ENOSPC (the exact map is full), -errno.
 * The exact map takes the batch in a few system calls and a blocked
 * filter's bits are set through its mapped blocks, so millions of
 * addresses load in seconds.
 */
#define KBLOOM_GATE_BATCH_EXIST	(1U << 0)

int kbloom_gate_add_batch(struct kbloom_xdp *x,
			  const struct kbloom_addr_key *keys, __u32 n,
			  __u32 flags, __u32 *failed);
int kbloom_gate_del_batch(struct kbloom_xdp *x,
			  const struct kbloom_addr_key *keys, __u32 n,
			  __u32 flags, __u32 *failed);

/*
 * Rebuild the filter from the exact map (@geom NULL: same geometry).
 * -EOPNOTSUPP for a kfunc gate: its filter is the module's.
 */
int kbloom_gate_rebuild(struct kbloom_xdp *x,
			const struct kbloom_xdp_geom *geom);

/*
 * The cuckoo variant (KBLOOM_XDP_VARIANT_CUCKOO).  kbloom_gate_add()
 * inserts the address's fingerprint (-ENOSPC when no kick path is found:
 * the address is then not in the set either, and the log says to rebuild
 * with a larger capacity); kbloom_gate_del() deletes it from the exact
 * map and then from the filter; kbloom_gate_rebuild() re-plans the
 * filter from @geom's capacity and fpr and refills it from the exact map.
 * The calls below fail with -EOPNOTSUPP on a gate of another variant.
 */

/**
 * struct kbloom_gate_cuckoo_info - kbloom_gate_cuckoo_info() output
 * @params: gate_cuckoo's element (shape, hash, counts, slot, gen)
 * @used: occupied slots
 * @load_ppm: used / slots in parts per million
 * @fpr_now_pico: 1 - (1 - 2^-f)^(2 used / buckets)
 * @bytes: bytes of the blocks map
 * @seq: the writers' counter (odd: a writer is inside its window)
 */
struct kbloom_gate_cuckoo_info {
	struct kbloom_cuckoo_params params;
	__u64 used;
	__u64 load_ppm;
	__u64 fpr_now_pico;
	__u64 bytes;
	__u32 seq;
	__u32 reserved;
};

int kbloom_gate_cuckoo_info(struct kbloom_xdp *x,
			    struct kbloom_gate_cuckoo_info *info);

/* What the filter says of a key: 1 possibly present, 0 absent, -errno. */
int kbloom_gate_cuckoo_test(struct kbloom_xdp *x, const void *key,
			    __u32 len);

/*
 * Replace the filter with a version-3 cuckoo image (libkbloom_cuckoo's
 * kbloom_cuckoo_save(), kbloom.ko's SAVE), of any geometry: filled into
 * the idle slot and swapped in whole.  The image is verified first:
 * kb_image_verify()'s errors, -KBLOOM_XDP_E_MAY_FN for an image flagged
 * KBLOOM_IMAGE_F_MAY_FN, -EOPNOTSUPP for another type; nothing changes
 * then.  The exact map is not touched; its addresses that the
 * image lacks are added to the new filter before the swap (-ENOSPC if
 * they do not fit), so the filter always holds the whole set.
 */
int kbloom_gate_cuckoo_load_image(struct kbloom_xdp *x, const void *img,
				  size_t len);

/* The filter's version-3 image, malloc()ed into *@img, *@len bytes. */
int kbloom_gate_cuckoo_save_image(struct kbloom_xdp *x, void **img,
				  size_t *len);

/*
 * The same calls for filter @id of any instance of the cuckoo variant
 * (an mcast port's ifindex, or 0 for the gate).  On mcast, an image's
 * load adds the port's groups that the image lacks; a port's filter is
 * re-planned by kbloom_mcast_port_resize() (capacity and fpr).
 */
int kbloom_xdp_cuckoo_info(struct kbloom_xdp *x, __u32 id,
			   struct kbloom_gate_cuckoo_info *info);
int kbloom_xdp_cuckoo_test(struct kbloom_xdp *x, __u32 id, const void *key,
			   __u32 len);
int kbloom_xdp_cuckoo_load_image(struct kbloom_xdp *x, __u32 id,
				 const void *img, size_t len);
int kbloom_xdp_cuckoo_save_image(struct kbloom_xdp *x, __u32 id, void **img,
				 size_t *len);

/*
 * The deletable variant (KBLOOM_XDP_VARIANT_DELETABLE, mcast only): port
 * @id's (its ifindex) deletable filter.  A join sets the group's bits in
 * place; a leave clears them in place when the group is deletable (one of
 * its bits lies in a region no two probes met in) and otherwise rewrites
 * the port's filter from its remaining members, word by word, so that no
 * member ever tests absent.  params counts the leaves, the in-place
 * deletes, the rebuilds and the rebuilds predicted (uapi/
 * kbloom_xdp_maps.h); kbloom_mcast_port_resize() rebuilds the filter
 * (re-planned when given a geometry) and starts its collision bitmap
 * afresh.  Calls on another variant: -EOPNOTSUPP, logged.
 *
 * struct kbloom_xdp_del_info - kbloom_xdp_del_info() output
 * @params: the port's element of mc_deletable
 * @ones: set bits of the body; @collided: regions marked collided
 * @n_est: keys estimated from @ones; @fpr_now_pico: the standard rate at
 *         @params.inserted keys
 * @share_ppm: the rebuild share, rebuilds / leaves, in 1e-6 (0: no leave)
 * @predicted_ppm: the share predicted, predicted_nano / leaves, in 1e-6
 * @bytes: bytes of the blocks map
 */
struct kbloom_xdp_del_info {
	struct kbloom_del_params params;
	__u64 ones;
	__u64 collided;
	__u64 n_est;
	__u64 fpr_now_pico;
	__u64 share_ppm;
	__u64 predicted_ppm;
	__u64 bytes;
};

int kbloom_xdp_del_info(struct kbloom_xdp *x, __u32 id,
			struct kbloom_xdp_del_info *info);

/* What port @id's filter says of a key: 1 possibly present, 0 absent. */
int kbloom_xdp_del_test(struct kbloom_xdp *x, __u32 id, const void *key,
			__u32 len);

/*
 * Images of port @id's filter: a version-3 deletable filter image
 * (uapi/kbloom_image.h; kbloom.ko's SAVE, libkbloom_deletable's
 * kbloom_del_save(), or this save) both ways.  A load verifies the image
 * before it changes anything (its errno: -EOPNOTSUPP for another type or
 * version, -EBADMSG, ...; a geometry the port could not have: -EINVAL,
 * logged), adds the port's groups that the image lacks and swaps the
 * filter in as kbloom_mcast_port_resize() does (geometry, hash, seed,
 * bits, collision bitmap and inserted count the image's; the counts of
 * leaves stay).  A save writes the body, the bitmap and the counts
 * (inserted, capacity, target rate) with no name: a library image that
 * holds every group of the port comes back byte for byte.
 */
int kbloom_xdp_del_load_image(struct kbloom_xdp *x, __u32 id,
			      const void *img, size_t len);
int kbloom_xdp_del_save_image(struct kbloom_xdp *x, __u32 id, void **img,
			      size_t *len);

/* Set enum kbloom_gate_mode and KBLOOM_GATE_F_*. */
int kbloom_gate_set_mode(struct kbloom_xdp *x, __u32 mode, __u32 flags);

/*
 * The adaptive mode (struct kbloom_gate_cfg of uapi/kbloom_xdp_maps.h):
 * a CPU whose window had at least @on_pct percent of addresses possibly
 * present looks them up in the exact map directly, until a window below
 * @off_pct; @on_pct 0 turns it off (the default of a new gate).
 * -EINVAL unless @off_pct <= @on_pct <= 100.  The counters of
 * kbloom_gate_stats() show it: direct_lookups, to_direct, to_filter,
 * direct_now (the CPUs in direct mode).
 */
int kbloom_gate_set_adapt(struct kbloom_xdp *x, __u32 on_pct, __u32 off_pct);
int kbloom_gate_adapt(struct kbloom_xdp *x, __u32 *on_pct, __u32 *off_pct);

/* The counters, summed over the CPUs. */
int kbloom_gate_stats(struct kbloom_xdp *x, struct kbloom_gate_stats *st);

/* ---- helpers -------------------------------------------------------------- */

/*
 * Parse an IPv4 or IPv6 address into its key: @addr gets 4 or 16 bytes
 * (zero padded to 16), *@len 4 or 16.  Return: 0 or -EINVAL.
 */
int kbloom_xdp_parse_addr(const char *s, __u8 addr[16], __u32 *len);

/* Plan a geometry (fills m and k when m is 0). Return: 0 or -EINVAL/-E2BIG. */
int kbloom_xdp_geom_plan(struct kbloom_xdp_geom *g);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_XDP_H */
