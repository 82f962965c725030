/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloomctl: the Multi-Class Bloom filter path (mcbf; libkbloom_net.h,
 * libkbloom_xdp_net.h): a multicast switch whose ports keep a blocked
 * filter of their groups, each group inserted and tested with the k of
 * its class (the high nibble of IPv4 octet 1, of IPv6 byte 12):
 *
 *   mcbf optimize bits M class GROUPS:P[:W]... [kmin K] [kmax K]
 *   mcbf create NAME [ports N] [members N] [audit on|off] [netns NS]
 *   mcbf port NAME PORT [bits M] [classes LIST | class G:P[:W]...]
 *             [seed S] [hash fast|siphash] [netns NS]
 *   mcbf join|leave NAME PORT GROUP... [netns NS]
 *   mcbf ports NAME [netns NS]
 *   mcbf groups|stats NAME [PORT] [netns NS]
 *   xdp attach mcbf NAME dev IFACE... [SPEC] [mode M] [netns NS] ...
 *
 * A port's filter is built from its recorded groups (kbloom_mcbf_port_build())
 * and published with its class table in one update: join, leave and a new
 * class table rebuild it from the groups that remain, so no group of the
 * port is ever missed.  A class with k 0 is unused: its groups are never
 * forwarded on the port, and cannot join it.
 *
 * This header is what the files of this folder share:
 *
 *   class.c     class tables and the filter spec of a port
 *   optimize.c  mcbf optimize
 *   port.c      mcbf create, port
 *   member.c    mcbf join, leave
 *   show.c      mcbf ports, groups, stats
 *   attach.c    xdp attach mcbf
 *   cmds.c      the command table and its help
 */
#ifndef _KBLOOMCTL_MCBF_H
#define _KBLOOMCTL_MCBF_H

#include "../kbloomctl.h"
#include "libkbloom_xdp_net.h"

#define MCBF_DEF_BITS	4096ULL
#define MCBF_DEF_K	4U
#define MCBF_OPT_KMAX	16U	/* the optimiser's default largest k */

/* ---- the spec of a port ----------------------------------------------------- */

/**
 * struct specarg - the filter keywords of mcbf port and xdp attach mcbf
 * @spec: the result (defaults, or the port's, with the keywords on top)
 * @given: any keyword was given
 */
struct specarg {
	struct kbloom_mcbf_spec spec;
	bool bits, classes, seed, hash, given;
	struct kb_mcbf_classes cls;
	struct kb_mcbf_class_spec cs[KB_MCBF_CLASSES];
	__u32 ncs;
	struct kw_list class_l;
};

/* the rows of struct specarg @_a in struct @_st (spec_init() first) */
#define KW_MCBF_SPEC(_st, _a)						\
	KW("bits", "M", KWT_FN, _st, _a.spec.m, .parse = mcbf_kw_bits), \
	KW("classes", "LIST", KWT_FN, _st, _a.cls,			\
	   .parse = mcbf_kw_classes),					\
	KW("class", "GROUPS:P[:W]...", KWT_LIST, _st, _a.class_l),	\
	KW("seed", "S", KWT_U64, _st, _a.spec.seed, .min = 0,		\
	   .max = ~0ULL, .extra = "decimal or 0x hex"),			\
	KW("hash", "fast|siphash", KWT_ENUM, _st, _a.spec.hash_id,	\
	   .words = xdp_hash_words, .vals = xdp_hash_ids)

/* what a new mcbf instance is made with (mcbf create, xdp attach) */
struct mcbf_make_args {
	__u32 ports;
	__u32 members;
	__u32 audit;
};

extern const char *const onoff_words[];
extern const __u32 onoff_vals[];
#define KW_MCBF_MAKE(_st, _m)						\
	KW("ports", "N", KWT_U32, _st, _m.ports, .min = 1, .max = 4096, \
	   .extra = "ports of the switch"),				\
	KW("members", "N", KWT_U32, _st, _m.members, .min = 1,	\
	   .max = 1U << 24, .extra = "memberships, all ports together"), \
	KW("audit", "on|off", KWT_ENUM, _st, _m.audit,			\
	   .words = onoff_words, .vals = onoff_vals)

/* class.c */
void classes_str(char *buf, size_t len, const struct kb_mcbf_classes *t);
int class_specs(const struct ctl *c, const struct kw_list *l,
		struct kb_mcbf_class_spec *cs, __u32 *n);
int mcbf_kw_bits(const struct ctl *c, const struct kw *k, const char *v,
		 void *field);
int mcbf_kw_classes(const struct ctl *c, const struct kw *k, const char *v,
		    void *field);
int optimize_usage(const struct ctl *c, int ret, __u64 m,
		   __u32 kmin, __u32 kmax);
void spec_init(struct specarg *a);
int spec_check(const struct ctl *c, const struct kw_table *t, __u64 given,
	       struct specarg *a);
int spec_final(const struct ctl *c, struct specarg *a,
	       const struct kbloom_mcbf_port *cur,
	       struct kbloom_mcbf_spec *out);
__u32 group_class(const struct kbloom_addr_key *g);
int groups_fit(struct ctl *c, const struct netinst *m, const char *port,
	       const struct kbloom_addr_key *g, int n,
	       const struct kb_mcbf_classes *t, const char *fix);
int port_groups(struct ctl *c, const struct netinst *m, int ifindex,
		struct kbloom_addr_key **g, int *n, int extra);

/* port.c */
int mcbf_make(struct ctl *c, const char *name, const char *netns,
	      int ns_fd, const struct mcbf_make_args *a, const char *op,
	      struct kbloom_net **np);

/* the commands, for cmds.c */
int mcbf_cmd_optimize(struct ctl *c, int argc, char **argv);
int mcbf_cmd_create(struct ctl *c, int argc, char **argv);
int mcbf_cmd_port(struct ctl *c, int argc, char **argv);
int mcbf_cmd_join(struct ctl *c, int argc, char **argv);
int mcbf_cmd_leave(struct ctl *c, int argc, char **argv);
int mcbf_cmd_ports(struct ctl *c, int argc, char **argv);
int mcbf_cmd_groups(struct ctl *c, int argc, char **argv);
int mcbf_cmd_stats(struct ctl *c, int argc, char **argv);

#endif /* _KBLOOMCTL_MCBF_H */
