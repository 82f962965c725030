/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP instances: what the ipbf and mcbf kinds share (net.c:
 * loading, pins, ports and counters); each kind (kind_ipbf.c,
 * kind_mcbf.c) describes itself in a struct kbn_desc.
 */
#ifndef _KBLOOM_XDP_NET_PRIV_H
#define _KBLOOM_XDP_NET_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "libkbloom_xdp_net.h"
#include "inst.h"
#include "pin.h"

#define NET_DEF_PORTS		64U
#define NET_DEF_MEMBERS		65536U
#define NET_MAX_PORTS		4096U

/* The maps of an instance, by role. */
enum {
	NM_PORT,	/* ifindex -> port record */
	NM_PORTS,	/* devmap */
	NM_STATS,
	NM_CONFIG,
	NM_FILTERS,	/* mcbf */
	NM_MEMBERS,	/* mcbf */
	NM_COUNT,
};

struct kbloom_net;
struct bpf_object;

/**
 * struct kbn_desc - a kind of the ipbf/mcbf family
 * @net_kind: its enum kbloom_net_kind
 * @maps: its maps by role (NULL: none)
 * @progs: its ingress, egress and check programs
 * @port_size: size of a port record
 * @stats_size: size of a port's counters (one CPU)
 * @rec_index: the counters index of a port record
 * @blocks_btf: new blocks maps need the BTF of struct kbloom_block
 * @obj: its object: name and skeleton's ELF
 * @init: create-time settings
 */
struct kbn_desc {
	enum kbloom_net_kind net_kind;
	const char *maps[NM_COUNT];
	const char *progs[3];
	size_t port_size;
	size_t stats_size;
	__u32 (*rec_index)(const void *rec);
	bool blocks_btf;
	struct kbp_obj obj;
	int (*init)(struct kbloom_net *n);
};

struct kbloom_net {
	struct kbloom_inst *inst;
	const struct kbn_desc *desc;
	const char *name;	/* inst->name */
	const char *dir;	/* inst->dir */
	int map_fd[NM_COUNT];
	int prog_fd[3];
	__u32 max_ports;
	/* mcbf: BTF of struct kbloom_block for new blocks maps */
	int btf_fd;
	__u32 btf_key_id;
	__u32 btf_block_id;
};

/* room for a port record of any kind (each kind asserts it fits) */
#define NET_REC_MAX	1024

#define net_log(n, ...)	kbi_log((n)->inst, __VA_ARGS__)

static inline int net_lock(struct kbloom_net *n)
{
	return kbi_lock(n->inst);
}

static inline void net_unlock(struct kbloom_net *n)
{
	kbi_unlock(n->inst);
}

/* net.c: the ops of both kinds */
int kbn_inst_create(struct kbloom_inst *i, const void *opts);
int kbn_inst_open(struct kbloom_inst *i);
void kbn_inst_close(struct kbloom_inst *i);
int kbn_inst_prog_fd(const struct kbloom_inst *i);
int kbn_inst_port_attach(struct kbloom_inst *i, int ifindex, bool *made);
void kbn_inst_teardown(struct kbloom_inst *i);

/* net.c: ports and counters */
int net_ifindex_ok(const struct kbloom_net *n, int ifindex);
int net_free_index(struct kbloom_net *n, __u32 *index);
int net_zero_stats(struct kbloom_net *n, __u32 index);
int net_stats(struct kbloom_net *n, int ifindex, __u64 *out);
int net_devmap_add(struct kbloom_net *n, int ifindex);
int net_port_drop(struct kbloom_net *n, int ifindex, void *rec);

#endif /* _KBLOOM_XDP_NET_PRIV_H */
