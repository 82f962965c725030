/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP loader: internals shared by xdp.c (instances, links),
 * kbx_filter.c (filter tables), kbx_mcast.c and kbx_gate.c.  The helpers
 * shared with xdp_ipbf.c are in pin.h.
 */
#ifndef _KBLOOM_XDP_PRIV_H
#define _KBLOOM_XDP_PRIV_H

#include <limits.h>
#include <linux/types.h>
#include "libkbloom_xdp.h"
#include "pin.h"

#define XDP_DEF_MAX_PORTS	64U
#define XDP_DEF_MAX_KEYS	65536U

/* One mmapped blocks map, cached per slot. */
struct kbx_blocks {
	__u32 map_id;		/* 0: none */
	int fd;
	__u64 *words;
	size_t len;		/* bytes mapped */
	__u32 nblocks;
};

struct kbloom_xdp {
	enum kbloom_xdp_kind kind;
	char name[KBLOOM_XDP_NAME_MAX];
	char dir[PATH_MAX];
	int dir_fd;
	int lock_depth;
	int netns_fd;		/* -1: the caller's */
	kbloom_xdp_log_fn log;
	void *log_ctx;

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
	__u32 max_filters;

	/* programs: ingress or gate, egress, check */
	int prog_fd[3];

	/* BTF of struct kbloom_block for new blocks maps */
	int btf_fd;
	__u32 btf_key_id;
	__u32 btf_block_id;

	/* kfunc variant: module filter names (gate_kfilter, mc_kfilter) */
	enum kbloom_xdp_variant variant;	/* MAP or KFUNC */
	int kfilter_fd;		/* -1 for MAP */
	int dev_fd;		/* /dev/kbloom, opened on first use, or -1 */
};

enum { XDP_PROG_MAIN, XDP_PROG_EGRESS, XDP_PROG_CHECK, XDP_NPROGS };

/* xdp.c */
void kbx_log(const struct kbloom_xdp *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int kbx_lock(struct kbloom_xdp *x);
void kbx_unlock(struct kbloom_xdp *x);
int kbx_geom_to_params(const struct kbloom_xdp_geom *g,
		       struct kbloom_params *p);

/* xdp.c: module filters of kfunc instances */
int kbx_kfunc(const struct kbloom_xdp *x);
int kbx_module_name(struct kbloom_xdp *x, __u32 id,
		    char name[KBLOOM_NAME_LEN]);
int kbx_module_keys(struct kbloom_xdp *x, __u32 id, unsigned long req,
		    const void *key, __u32 len);
int kbx_module_name_port(struct kbloom_xdp *x, int ifindex);
int kbx_module_name_del(struct kbloom_xdp *x, __u32 id);

/* kbx_filter.c */
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
int kbx_filter_add_locked(struct kbloom_xdp *x, __u32 id, const void *key,
			  __u32 len);
void kbx_words_add(__u64 *words, const struct kbloom_params *p,
		   const void *key, __u32 len);

/* kbx_mcast.c, kbx_gate.c: create-time settings */
int kbx_mcast_init(struct kbloom_xdp *x, const struct kbloom_xdp_opts *o);
int kbx_gate_init(struct kbloom_xdp *x, const struct kbloom_xdp_opts *o);
int kbx_mcast_replace_ports(struct kbloom_xdp *x, int egress_fd);

#endif /* _KBLOOM_XDP_PRIV_H */
