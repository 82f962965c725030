/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloomctl: in-packet Bloom filters (the ipbf path: LIPSIN zFilters and
 * multi-stage MSBF headers; libkbloom_net.h, libkbloom_xdp_net.h):
 *
 *   ipbf topo TOPO [node NODE] [seed S] [k K] [d D]
 *   ipbf create NAME [seed S] [k K] [d D] [fill F] [ports N] [netns NS]
 *   ipbf setup NAME topo TOPO node NODE dev IFACE... [LIDS] [fill F]
 *              [mode M] [ports N] [netns NS]
 *   ipbf config NAME [seed S] [k K] [d D] [fill F] [netns NS]
 *   ipbf port NAME IFACE link NODE:PORT [role forward|local] [topo TOPO]
 *             [netns NS]
 *   ipbf ports NAME [netns NS]
 *   ipbf stats NAME [PORT] [netns NS]
 *   ipbf header topo TOPO src HOST (dst HOST... | links NODE:PORT...) ...
 *   ipbf send IFACE -i FILE [count N] [payload TEXT] [netns NS]
 *
 * and xdp attach ipbf (attach.c, called from xdp.c).  What ipbf and mcbf
 * share is in ../netinst.c and ../netinst_xdp.c.  This header is what the
 * files of this folder share:
 *
 *   topo.c     topologies (TOPO) and the names of their nodes and links
 *   lids.c     link IDs (seed, k, d, fill) and ipbf topo
 *   config.c   ipbf create, config
 *   setup.c    ipbf setup
 *   port.c     ipbf port, ports, stats
 *   header.c   ipbf header
 *   send.c     ipbf send
 *   attach.c   xdp attach ipbf
 *   cmds.c     the command table and its help
 *
 * The link IDs of a network are a function of the topology (the control
 * plane's node and local port numbers), a seed, k (bits per link ID) and
 * d (tag sets): every command that computes them takes TOPO, seed, k and
 * d, and gets the same IDs from the same values.  A topology is one of the
 * builders of libkbloom_net.h (nodes named s<N> for switch N and h<J> for
 * host J) or a topology file (kb_exp_topo_load(), the names of the file).
 *
 * As everywhere in kbloomctl: arguments first (exit 2, nothing done), then
 * interfaces and instances (exit 3, nothing done), then the changes, undone
 * when one fails half-way.
 */
#ifndef _KBLOOMCTL_IPBF_H
#define _KBLOOMCTL_IPBF_H

#include "../kbloomctl.h"
#include "libkbloom_xdp_net.h"
#include "libkbloom_exp.h"

#define IPBF_HDR_MAX	65536	/* header bytes: the largest MSBF we build */
#define IPBF_SEND_MAX	1000000	/* count N */
#define IPBF_PROTO_DEF	0x88B6	/* inner EtherType: local experimental 2 */
#define TOPO_NAME_MAX	32

/* ---- topologies ------------------------------------------------------------ */

/**
 * struct topo - a topology and the names of its nodes
 * @t: the topology
 * @name: per node: the file's name, or s<N> (switch N) / h<J> (host J)
 * @spec: TOPO as given
 */
struct topo {
	struct kb_topo *t;
	char (*name)[TOPO_NAME_MAX];
	const char *spec;
};

/* ---- link IDs ------------------------------------------------------------- */

/**
 * struct lidopt - seed, k, d and the fill limit of a network
 * @given: which keywords were given (then the values are theirs)
 */
struct lidopt {
	__u64 seed;
	__u32 k, d, fill;
	bool seed_given, k_given, d_given, fill_given;
};

/* lids.c: the rows of struct lidopt @_o in struct @_st */
#define KW_LIDS(_st, _o)						\
	KW("seed", "S", KWT_U64, _st, _o.seed, .min = 0, .max = ~0ULL,	\
	   .extra = "decimal or 0x hex"),				\
	KW("k", "K", KWT_U32, _st, _o.k, .min = KB_IPBF_K_MIN,		\
	   .max = KB_IPBF_K_MAX, .extra = "bits per link ID"),		\
	KW("d", "D", KWT_U32, _st, _o.d, .min = 1, .max = KB_IPBF_D_MAX, \
	   .extra = "tag sets")
#define KW_FILL(_st, _o)						\
	KW("fill", "F", KWT_U32, _st, _o.fill, .min = 1,		\
	   .max = KB_IPBF_ZF_BITS, .extra = "one bits a zFilter may have")
#define KW_PORTS(_st, _m)						\
	KW("ports", "N", KWT_U32, _st, _m, .min = 1, .max = 4096,	\
	   .extra = "ports of the node")

void lidopt_init(struct lidopt *o);
void lidopt_given(struct lidopt *o, const struct kw_table *t, __u64 given);
void lid_record(const struct kbloom_ipbf_cfg *cfg, __u32 node,
		__u32 port, bool local, struct kbloom_ipbf_port *rec);
void zf_bits(char *buf, size_t len, const struct kb_ipbf_zf *z);
void json_lids(struct json *j, const struct kbloom_ipbf_port *rec,
	       __u32 d);
int node_records(const struct kb_lids *l, __u32 node,
		 struct kbloom_ipbf_port *rec);

/* topo.c */
void topo_free(struct topo *tp);
int topo_load(const struct ctl *c, const char *s, struct topo *tp);
int topo_node(const struct ctl *c, const struct topo *tp,
	      const char *what, const char *s, __u32 *node);
int topo_host(const struct ctl *c, const struct topo *tp,
	      const char *what, const char *s, __u32 *node);
int topo_link(const struct ctl *c, const struct topo *tp,
	      const char *what, const char *s, __u32 *port);
const char *link_str(const struct topo *tp, __u32 port, char *buf,
		     size_t len);

/* config.c */
void cfg_of(const struct lidopt *o, struct kbloom_ipbf_cfg *cfg);
int ipbf_make(struct ctl *c, const char *name, const char *netns,
	      int ns_fd, __u32 ports, const struct kbloom_ipbf_cfg *cfg,
	      const char *op, struct kbloom_net **np);

/* the commands, for cmds.c */
int ipbf_cmd_topo(struct ctl *c, int argc, char **argv);
int ipbf_cmd_create(struct ctl *c, int argc, char **argv);
int ipbf_cmd_config(struct ctl *c, int argc, char **argv);
int ipbf_cmd_setup(struct ctl *c, int argc, char **argv);
int ipbf_cmd_port(struct ctl *c, int argc, char **argv);
int ipbf_cmd_ports(struct ctl *c, int argc, char **argv);
int ipbf_cmd_stats(struct ctl *c, int argc, char **argv);
int ipbf_cmd_header(struct ctl *c, int argc, char **argv);
int ipbf_cmd_send(struct ctl *c, int argc, char **argv);

#endif /* _KBLOOMCTL_IPBF_H */
