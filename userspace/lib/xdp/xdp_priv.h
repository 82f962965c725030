/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP instances: what the mcast and gate kinds share (path.c:
 * loading, variants, module filter names; filter.c: filter tables); each
 * kind (kind_mcast.c, kind_gate.c) describes itself in a struct kbx_desc.
 */
#ifndef _KBLOOM_XDP_PRIV_H
#define _KBLOOM_XDP_PRIV_H

#include <limits.h>
#include <linux/types.h>
#include "libkbloom_xdp.h"
#include "inst.h"
#include "pin.h"

#define XDP_DEF_MAX_PORTS	64U
#define XDP_DEF_MAX_KEYS	65536U

#include <stdbool.h>

/* One mmapped blocks map, cached per slot. */
struct kbx_blocks {
	__u32 map_id;		/* 0: none */
	int fd;
	__u64 *words;
	size_t len;		/* bytes mapped */
	__u32 nblocks;
};

enum { XDP_PROG_MAIN, XDP_PROG_EGRESS, XDP_PROG_CHECK, XDP_NPROGS };

struct kbloom_xdp;
struct bpf_object;
struct kbloom_cuckoo;

struct kbx_prog_pin {
	const char *prog;	/* program name in the object */
	const char *pin;	/* pin name in the instance directory */
};

/**
 * struct kbx_desc - a kind of the mcast/gate family
 * @xdp_kind: its enum kbloom_xdp_kind
 * @multi: filters per port (ids are ifindexes, id 0 names new ports)
 * @params, @filters, @stats, @exact, @config, @ports, @kfilter: map pins
 * @plist: map pin of the ports in counters index order (NULL: none)
 * @blocks_name: name of a new blocks map (with the id when @multi)
 * @progs: its programs and their pins
 * @cuckoo, @cseq: map pins of the cuckoo variant (NULL: the kind has none)
 * @deletable: map pin of the deletable variant (NULL: the kind has none)
 * @pfast: map pin of the copy of @params by index (NULL: none; pfast.c)
 * @groups: map pin of the ports of each group by ifindex (NULL: none;
 *          kind_mcast_groups.c)
 * @gcache: map pin of its direct-mapped copy (NULL: none)
 * @cuckoo_fill: the cuckoo variant's exact record of filter @id into @c
 *               (@missing: only the keys @c does not hold), 0 or -ENOSPC
 * @objs: the object of each variant ([0] map, [1] kfunc, [2] cuckoo,
 *        [3] deletable, a NULL name where the kind has none): its name
 *        and its skeleton's ELF
 * @init: create-time settings of the kind
 * @ports_replace: optional: point the devmap at @egress_fd (< 0: empty it)
 * @published: optional: filter @p->id now has parameters @p (in their
 *             slot, which is current); called before the old slot is
 *             emptied
 */
struct kbx_desc {
	enum kbloom_xdp_kind xdp_kind;
	bool multi;
	const char *params;
	const char *filters;
	const char *stats;
	const char *exact;
	const char *config;
	const char *ports;
	const char *plist;
	const char *kfilter;
	const char *cuckoo;
	const char *cseq;
	const char *deletable;
	const char *pfast;
	const char *groups;
	const char *gcache;
	const char *blocks_name;
	struct kbx_prog_pin progs[XDP_NPROGS];
	struct kbp_obj objs[4];
	int (*init)(struct kbloom_xdp *x, const struct kbloom_xdp_opts *o);
	int (*ports_replace)(struct kbloom_xdp *x, int egress_fd);
	int (*cuckoo_fill)(struct kbloom_xdp *x, __u32 id,
			   struct kbloom_cuckoo *c, int missing);
	void (*published)(struct kbloom_xdp *x, const struct kbloom_params *p);
};

struct kbloom_xdp {
	struct kbloom_inst *inst;
	const struct kbx_desc *desc;
	const char *name;	/* inst->name */
	const char *dir;	/* inst->dir */

	/* filter table */
	int params_fd;
	int filters_fd;
	__u32 nslots;
	struct kbx_blocks *slots;

	/* path maps */
	int stats_fd;
	int exact_fd;
	int config_fd;
	int ports_fd;		/* mcast devmap */
	int plist_fd;		/* mcast ports by counters index, or -1 */
	__u32 max_filters;

	/* programs: ingress or gate, egress, check */
	int prog_fd[3];

	/* BTF of struct kbloom_block for new blocks maps */
	int btf_fd;
	__u32 btf_key_id;
	__u32 btf_block_id;

	/* kfunc variant: module filter references (gate_kfilter, mc_kfilter) */
	enum kbloom_xdp_variant variant;	/* MAP or KFUNC */
	int kfilter_fd;		/* -1 for MAP */
	int dev_fd;		/* /dev/kbloom, opened on first use, or -1 */

	/* cuckoo variant: gate_ or mc_cuckoo, _cseq (kind_gate_cuckoo.c) */
	struct kbx_cuckoo *cuckoo;	/* NULL for the other variants */

	/* deletable variant: mc_deletable (kind_mcast_del.c), else -1 */
	int del_fd;

	/* the copy of the parameters by index (pfast.c), or -1 and NULL */
	int pfast_fd;
	struct kbloom_mcast_pfast *pfast;
	size_t pfast_len;

	/* the ports of each group and its copy (kind_mcast_groups.c) */
	int groups_fd;		/* or -1 */
	int gcache_fd;		/* or -1 */
	struct kbloom_mcast_gcache *gcache;	/* mmapped, or NULL */
};

/* the core's log and lock, for a handle */
#define kbx_log(x, ...)	kbi_log((x)->inst, __VA_ARGS__)

/* may_fn.c: 0, or -KBLOOM_XDP_E_MAY_FN and a log line naming the type */
int kbx_may_fn_refuse(struct kbloom_xdp *x, __u32 type, __u32 flags,
		      const char *what);
int kbx_may_fn_image(struct kbloom_xdp *x, const void *img, size_t len);
int kbx_may_fn_module(struct kbloom_xdp *x, const char *name);

static inline int kbx_lock(struct kbloom_xdp *x)
{
	return kbi_lock(x->inst);
}

static inline void kbx_unlock(struct kbloom_xdp *x)
{
	kbi_unlock(x->inst);
}

/* path.c */
int kbx_geom_to_params(const struct kbloom_xdp_geom *g,
		       struct kbloom_params *p);

/* path.c: module filters of kfunc instances */
int kbx_kfunc(const struct kbloom_xdp *x);
int kbx_module_name(struct kbloom_xdp *x, __u32 id,
		    char name[KBLOOM_NAME_LEN]);
int kbx_module_keys(struct kbloom_xdp *x, __u32 id, unsigned long req,
		    const void *key, __u32 len);
int kbx_module_name_port(struct kbloom_xdp *x, int ifindex);
int kbx_module_name_del(struct kbloom_xdp *x, __u32 id);

/* kfunc_ref.c: the references' ids (struct kbloom_kfunc_ref) */
int kbx_module_dev(struct kbloom_xdp *x);
int kbx_module_ref_set(struct kbloom_xdp *x, __u32 id,
		       const char name[KBLOOM_NAME_LEN]);
int kbx_module_ref_clear(struct kbloom_xdp *x, __u32 id);
int kbx_module_resolve(struct kbloom_xdp *x);

/* filter.c */
int kbx_slot_blocks(struct kbloom_xdp *x, __u32 slot, __u32 nblocks,
		    struct kbx_blocks **bp);
/*
 * Replacing a filter: kbx_slot_fill() makes a new blocks map of @nblocks
 * in the idle @slot, @nwords of @words copied in (@le: little-endian
 * bytes; NULL: zeroed), and enters it into <path>_filters; then the
 * caller publishes parameters naming @slot and calls kbx_slot_retire()
 * (pin it as filter_<id>, empty @old after a grace period), or
 * kbx_slot_drop() to undo.
 */
int kbx_slot_fill(struct kbloom_xdp *x, __u32 id, __u32 slot,
		  __u32 nblocks, const __u64 *words, __u64 nwords, int le);
void kbx_slot_drop(struct kbloom_xdp *x, __u32 slot);
void kbx_slot_retire(struct kbloom_xdp *x, __u32 id, __u32 slot, __u32 old);
void kbx_slots_release(struct kbloom_xdp *x, __u32 id, __u32 slot);
int kbx_filter_pin(struct kbloom_xdp *x, __u32 id, int fd);
int kbx_filter_get(struct kbloom_xdp *x, __u32 id, struct kbloom_params *p);
int kbx_filter_blocks(struct kbloom_xdp *x, const struct kbloom_params *p,
		      struct kbx_blocks **bp);
int kbx_filter_create(struct kbloom_xdp *x, __u32 id, __u32 index,
		      const struct kbloom_params *geom);
int kbx_filter_swap(struct kbloom_xdp *x, __u32 id,
		    const struct kbloom_params *geom, const __u64 *words,
		    int le);
int kbx_filter_rewrite(struct kbloom_xdp *x, const struct kbloom_params *p,
		       const __u64 *words);
int kbx_filter_remove(struct kbloom_xdp *x, __u32 id);
void kbx_filter_release(struct kbloom_xdp *x);

/* pfast.c: every write of a parameters element, and its copy by index */
int kbx_pfast_open(struct kbloom_xdp *x);
void kbx_pfast_close(struct kbloom_xdp *x);
int kbx_params_put(struct kbloom_xdp *x, __u32 id,
		   const struct kbloom_params *p, __u64 flags);
void kbx_params_del(struct kbloom_xdp *x, __u32 id);
int kbx_filter_add_locked(struct kbloom_xdp *x, __u32 id, const void *key,
			  __u32 len);
void kbx_words_add(__u64 *words, const struct kbloom_params *p,
		   const void *key, __u32 len);

/* kind_mcast_groups.c: mc_groups, in step with mc_members */
struct kbloom_member_key;
int kbx_mcast_groups_open(struct kbloom_xdp *x);
void kbx_mcast_groups_close(struct kbloom_xdp *x);
int kbx_mcast_group_set(struct kbloom_xdp *x,
			const struct kbloom_member_key *k, int on);

/* kind_gate_cuckoo.c: the cuckoo variant's filters, by id (gate: 0) */
struct kbloom_cuckoo_params;
int kbx_cuckoo_geom(struct kbloom_xdp *x, const struct kbloom_xdp_geom *g,
		    struct kbloom_cuckoo_params *p);
int kbx_cuckoo_open(struct kbloom_xdp *x);
void kbx_cuckoo_close(struct kbloom_xdp *x);
int kbx_cuckoo_create(struct kbloom_xdp *x, __u32 id, __u32 index,
		      struct kbloom_cuckoo_params *p);
int kbx_cuckoo_remove(struct kbloom_xdp *x, __u32 id);
int kbx_cuckoo_init(struct kbloom_xdp *x, const struct kbloom_xdp_opts *o);
int kbx_cuckoo_keys(struct kbloom_xdp *x, __u32 id, int add, const void *key,
		    __u32 len);
int kbx_cuckoo_rebuild_locked(struct kbloom_xdp *x, __u32 id,
			      const struct kbloom_xdp_geom *geom);
int kbx_cuckoo_rebuild(struct kbloom_xdp *x,
		       const struct kbloom_xdp_geom *geom);
int kbx_gate_cuckoo_fill(struct kbloom_xdp *x, __u32 id,
			 struct kbloom_cuckoo *c, int missing);

static inline int kbx_cuckoo(const struct kbloom_xdp *x)
{
	return x->variant == KBLOOM_XDP_VARIANT_CUCKOO;
}

/* kind_mcast_cuckoo.c: the mcast ports' cuckoo filters */
struct kbloom_member_key;
int kbx_mcast_cuckoo_port_add(struct kbloom_xdp *x, __u32 id, __u32 index,
			      const struct kbloom_xdp_geom *g);
int kbx_mcast_cuckoo_port_del(struct kbloom_xdp *x, __u32 id);
int kbx_mcast_cuckoo_leave(struct kbloom_xdp *x,
			   const struct kbloom_member_key *k);
int kbx_mcast_cuckoo_fill(struct kbloom_xdp *x, __u32 id,
			  struct kbloom_cuckoo *c, int missing);

/* kind_mcast_del.c: the mcast ports' deletable filters */
struct kbloom_del_params;
int kbx_del_geom(struct kbloom_xdp *x, const struct kbloom_xdp_geom *g,
		 struct kbloom_del_params *p);
int kbx_mcast_del_port_add(struct kbloom_xdp *x, __u32 id, __u32 index,
			   const struct kbloom_xdp_geom *g);
int kbx_mcast_del_port_del(struct kbloom_xdp *x, __u32 id);
int kbx_mcast_del_join(struct kbloom_xdp *x, __u32 id, const void *key,
		       __u32 len);
int kbx_mcast_del_leave(struct kbloom_xdp *x,
			const struct kbloom_member_key *k);
int kbx_mcast_del_rebuild(struct kbloom_xdp *x, __u32 id,
			  const struct kbloom_xdp_geom *geom);

static inline int kbx_deletable(const struct kbloom_xdp *x)
{
	return x->variant == KBLOOM_XDP_VARIANT_DELETABLE;
}

/* path.c: the ops of both kinds */
int kbx_inst_create(struct kbloom_inst *i, const void *opts);
int kbx_inst_open(struct kbloom_inst *i);
void kbx_inst_close(struct kbloom_inst *i);
int kbx_inst_prog_fd(const struct kbloom_inst *i);
int kbx_inst_replace(struct kbloom_inst *i);
void kbx_info(struct kbloom_xdp *x, struct kbloom_inst_info *info);
/* The kind's ingress program for libxdp's dispatcher (kbi_ops.ext_open). */
int kbx_inst_ext_open(struct kbloom_inst *i, struct bpf_object **obj,
		      const char **prog);

#endif /* _KBLOOM_XDP_PRIV_H */
