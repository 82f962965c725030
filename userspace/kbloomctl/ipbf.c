// SPDX-License-Identifier: GPL-2.0
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
 * and what the ipbf and mcbf commands share: instances of
 * libkbloom_xdp_net.h opened by name, their ports, and the xdp attach,
 * detach and status of both kinds (called from xdp.c).
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
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <bpf/bpf.h>

#include "kbloomctl.h"
#include "libkbloom_xdp_net.h"
#include "libkbloom_exp.h"

#define IPBF_HDR_MAX	65536	/* header bytes: the largest MSBF we build */
#define IPBF_SEND_MAX	1000000	/* count N */
#define IPBF_PROTO_DEF	0x88B6	/* inner EtherType: local experimental 2 */
#define TOPO_NAME_MAX	32

static const char *const mode_words[] = { "auto", "native", "generic", NULL };
static const char *const role_words[] = { "forward", "local", NULL };
static const char *const form_words[] = { "lipsin", "msbf", NULL };

/* ---- instances of libkbloom_xdp_net.h ---------------------------------- */

static void net_opts(struct kbloom_net_opts *o, const char *netns)
{
	memset(o, 0, sizeof(*o));
	o->pin_root = xdp_root();
	o->netns = netns;
	o->log = xdp_log;
}

/*
 * Open instance @name of kind @want (XK_IPBF or XK_MCBF), in the
 * namespace given or recorded; exit 3 when there is none or it is of
 * another kind.
 */
int net_inst_open(struct ctl *c, struct netinst *m, const char *name,
		  const char *netns, const char *want)
{
	struct kbloom_net_opts o;
	const char *k;
	char why[160];
	int ret;

	m->n = NULL;
	m->ns_fd = -1;
	m->name = name;
	m->netns = netns;
	if (!m->op[0])		/* else the caller's */
		snprintf(m->op, sizeof(m->op), "%s %s", c->cmd_path, name);
	xdp_log_reset();
	k = xdp_kind_of(name);
	if (k == XK_NONE) {
		snprintf(why, sizeof(why), "no XDP instance named %s in %s; %s",
			 name, xdp_root(), want == XK_IPBF ?
			 "ipbf create or ipbf setup makes one" :
			 "mcbf create or xdp attach mcbf makes one");
		return ctl_syserr(c, ENOENT, why, "%s", m->op);
	}
	if (k != want) {
		snprintf(why, sizeof(why), "%s is a%s %s instance, not %s",
			 name, k == XK_IPBF || k == XK_OTHER ? "n" : "",
			 xdp_kind_name(k), xdp_kind_name(want));
		return ctl_syserr(c, EINVAL, why, "%s", m->op);
	}
	ret = xdp_inst_ns(c, name, netns, true, &m->netns);
	ret = ret ?: xdp_netns_open(c, m->netns, &m->ns_fd);
	if (ret)
		return ret;
	net_opts(&o, m->netns);
	ret = kbloom_net_open(name, &o, &m->n);
	if (ret)
		return xdp_fail(c, ret, "%s: open", m->op);
	return 0;
}

void net_inst_close(struct netinst *m)
{
	kbloom_net_close(m->n);
	m->n = NULL;
	if (m->ns_fd >= 0)
		close(m->ns_fd);
	m->ns_fd = -1;
}

/* Is @ifindex a port of @n? */
bool net_is_port(struct kbloom_net *n, int ifindex)
{
	__u32 *ids;
	int cnt, i;
	bool yes = false;

	cnt = kbloom_net_ports(n, NULL, 0);
	if (cnt <= 0)
		return false;
	ids = calloc(cnt, sizeof(*ids));
	if (!ids)
		return false;
	cnt = kbloom_net_ports(n, ids, cnt);
	for (i = 0; i < cnt; i++)
		if (ids[i] == (__u32)ifindex)
			yes = true;
	free(ids);
	return yes;
}

/* The ports of @n, sorted, malloc()ed. */
int net_port_ids(struct kbloom_net *n, __u32 **ids, __u32 *cnt)
{
	int k, got;

	*ids = NULL;
	*cnt = 0;
	k = kbloom_net_ports(n, NULL, 0);
	if (k <= 0)
		return k;
	*ids = calloc(k, sizeof(**ids));
	if (!*ids)
		return -ENOMEM;
	got = kbloom_net_ports(n, *ids, k);
	if (got < 0) {
		free(*ids);
		*ids = NULL;
		return got;
	}
	*cnt = got < k ? got : k;
	return 0;
}

bool net_attached(struct kbloom_net *n, int ifindex)
{
	return xdp_attached(kbloom_net_inst(n), ifindex);
}

/* PORT: an interface that is a port of the instance. */
int net_inst_port(struct ctl *c, struct netinst *m, const char *s,
		  int *ifindex)
{
	char why[192];
	int ret;

	ret = xdp_port(c, m->op, m->ns_fd, m->netns, s, ifindex);
	if (ret)
		return ret;
	if (net_is_port(m->n, *ifindex))
		return 0;
	snprintf(why, sizeof(why), "%s is not a port of %s; %s", s, m->name,
		 kbloom_net_kind(m->n) == KBLOOM_NET_IPBF ?
		 "ipbf port or ipbf setup makes it one" :
		 "mcbf port or xdp attach mcbf makes it one");
	return ctl_syserr(c, ENOENT, why, "%s: %s", m->op, s);
}

void net_port_name(const struct netinst *m, __u32 ifindex, char *buf,
		   size_t len)
{
	xdp_port_label(m->ns_fd, ifindex, buf, len);
}

/* The ports to show: PORT, or every port. */
int net_which(struct ctl *c, struct netinst *m, const char *port,
	      __u32 **ids, __u32 *n)
{
	int ifindex, ret;

	if (!port) {
		ret = net_port_ids(m->n, ids, n);
		return ret ? xdp_fail(c, ret, "%s: list the ports", m->op) : 0;
	}
	ret = net_inst_port(c, m, port, &ifindex);
	if (ret)
		return ret;
	*ids = malloc(sizeof(**ids));
	if (!*ids)
		return ctl_syserr(c, ENOMEM, NULL, "%s", m->op);
	**ids = ifindex;
	*n = 1;
	return 0;
}

/*
 * The positional arguments and an optional trailing "netns NS" (taken
 * out of @argc), as in the mcast commands.
 */
int net_take_netns(const struct ctl *c, int *argc, char **argv,
		   const char **netns)
{
	int i;

	*netns = NULL;
	for (i = 1; i < *argc; i++) {
		if (strcmp(argv[i], "netns"))
			continue;
		if (i + 1 == *argc)
			return ctl_usage(c, "netns: missing NS");
		if (i + 2 != *argc)
			return ctl_usage(c, "'%s': unexpected after netns %s (usage: %s %s %s)",
					 argv[i + 2], argv[i + 1], KBCTL_NAME,
					 c->cmd_path, c->cmd->synopsis);
		*netns = argv[i + 1];
		*argc = i;
		return xdp_arg_netns(c, *netns);
	}
	return 0;
}

/*
 * The arguments of a listing of an instance's ports (ipbf, mcbf and mcast
 * ports, groups, stats): NAME, then PORT when @most is 2, then an optional
 * "netns NS" (taken out of @argc).
 */
int net_list_args(const struct ctl *c, int *argc, char **argv, int most,
		  const char **netns)
{
	int ret;

	ret = net_take_netns(c, argc, argv, netns);
	ret = ret ?: xdp_arg_name(c, argv[0]);
	if (ret)
		return ret;
	if (*argc > most)
		return ctl_usage(c, "argument '%s': unexpected (usage: %s %s %s)",
				 argv[most], KBCTL_NAME, c->cmd_path,
				 c->cmd->synopsis);
	return 0;
}

/*
 * The start of a listing of the ports of instance NAME of kind @want: the
 * arguments (net_list_args()), then the instance opened in @m and PORT or
 * every port in *@ids (malloc()ed).  On failure too, the caller frees *@ids
 * and closes @m.
 */
int net_list_open(struct ctl *c, int argc, char **argv, int most,
		  const char *want, struct netinst *m, __u32 **ids,
		  __u32 *n)
{
	const char *netns;
	int ret;

	ret = net_list_args(c, &argc, argv, most, &netns);
	ret = ret ?: net_inst_open(c, m, argv[0], netns, want);
	return ret ?: net_which(c, m, argc > 1 ? argv[1] : NULL, ids, n);
}

/*
 * The @cnt groups @g of port @ifn (@id) in an mcast or mcbf groups
 * listing; @cls, if not NULL, gives the class of a group (mcbf).
 */
void net_groups_one(const struct ctl *c, struct json *j, const char *ifn,
		    __u32 id, const struct kbloom_addr_key *g, int cnt,
		    __u32 (*cls)(const struct kbloom_addr_key *g))
{
	char a[64];
	int k;

	if (c->set[CO_JSON]) {
		json_obj(j);
		json_kstr(j, "port", ifn);
		json_ku64(j, "ifindex", id);
		json_key(j, "groups");
		json_arr(j);
	} else if (!cnt) {
		printf("%s: no groups\n", ifn);
	}
	for (k = 0; k < cnt; k++) {
		xdp_addr_str(g[k].addr, g[k].len, a, sizeof(a));
		if (c->set[CO_JSON])
			json_str(j, a);
		else if (cls)
			printf("%s %s class %u\n", ifn, a, cls(&g[k]));
		else
			printf("%s %s\n", ifn, a);
	}
	if (c->set[CO_JSON]) {
		json_arr_end(j);
		json_obj_end(j);
	}
}

/* mode auto|native|generic into an enum kbloom_xdp_mode */
int net_arg_mode(const struct ctl *c, const char *s, int *mode)
{
	char all[64];
	int i;

	*mode = KBLOOM_XDP_MODE_AUTO;
	if (!s)
		return 0;
	i = arg_pick(s, mode_words);
	if (i < 0) {
		arg_words(all, sizeof(all), mode_words);
		return ctl_usage(c, "mode '%s': unknown (allowed: %s)", s, all);
	}
	*mode = i == 0 ? KBLOOM_XDP_MODE_AUTO : i == 1 ?
		KBLOOM_XDP_MODE_NATIVE : KBLOOM_XDP_MODE_GENERIC;
	return 0;
}

/* An interface name as a usage check, as xdp attach does. */
static int net_arg_ifname(const struct ctl *c, const char *what,
			  const char *s)
{
	size_t i, n = strlen(s);

	if (!n || n >= IF_NAMESIZE)
		return ctl_usage(c, "%s '%s': %s (allowed: an interface name of 1..%u characters, or an ifindex)",
				 what, s, n ? "too long" : "empty",
				 IF_NAMESIZE - 1);
	for (i = 0; i < n; i++)
		if (s[i] == '/' || s[i] == ':' || isspace((unsigned char)s[i]))
			return ctl_usage(c, "%s '%s': invalid character (allowed: an interface name without '/', ':' or spaces, or an ifindex)",
					 what, s);
	return 0;
}

/* dev IFACE...: the names checked, none twice (usage errors only). */
int net_arg_devs(const struct ctl *c, int ndev, char **dev)
{
	int i, j, ret;

	for (i = 0; i < ndev; i++) {
		ret = net_arg_ifname(c, "dev", dev[i]);
		if (ret)
			return ret;
		for (j = 0; j < i; j++)
			if (!strcmp(dev[i], dev[j]))
				return ctl_usage(c, "dev '%s': given twice (allowed once)",
						 dev[i]);
	}
	return 0;
}

/* The interfaces of dev in namespace @ns_fd (exit 3 when one is missing). */
int net_devs_resolve(const struct ctl *c, const char *op, int ns_fd,
		     const char *netns, int ndev, char **dev, int *ifindex)
{
	int i, j, ret;

	for (i = 0; i < ndev; i++) {
		ret = xdp_port(c, op, ns_fd, netns, dev[i], &ifindex[i]);
		if (ret)
			return ret;
		for (j = 0; j < i; j++)
			if (ifindex[i] == ifindex[j])
				return ctl_usage(c, "dev '%s': the same interface as '%s' (allowed once)",
						 dev[i], dev[j]);
	}
	return 0;
}

/*
 * Attach the ingress program to every interface of @ifindex not attached
 * yet (*@done[i] set for those this call attached); on a failure, detach
 * them again and return the exit code.
 */
int net_attach_all(struct ctl *c, struct kbloom_net *n, int ndev,
		   char **dev, const int *ifindex, int mode, const char *op)
{
	bool *done = calloc(ndev ? ndev : 1, sizeof(bool));
	int i, ret = 0;

	if (!done)
		return ctl_syserr(c, ENOMEM, NULL, "%s", op);
	for (i = 0; i < ndev; i++) {
		if (net_attached(n, ifindex[i]))
			continue;
		ret = kbloom_net_attach(n, ifindex[i], mode, NULL);
		if (ret) {
			ret = xdp_fail(c, ret, "%s: dev %s", op, dev[i]);
			break;
		}
		done[i] = true;
	}
	for (i = 0; ret && i < ndev; i++)
		if (done[i])
			kbloom_net_detach(n, ifindex[i]);
	free(done);
	return ret;
}

/* ---- xdp attach ipbf, xdp detach and xdp status of ipbf and mcbf -------- */

/*
 * The keywords of xdp attach for other kinds: known, so that dev stops
 * at them, and refused with what @kind allows instead.
 */
int net_foreign_kw(const struct ctl *c, struct xkw *kw,
		   const char *const *foreign, const char *kind,
		   const char *allowed)
{
	int i;

	for (i = 0; foreign[i]; i++)
		if (xkw_get(kw, foreign[i]) && xkw_get(kw, foreign[i])->n)
			return ctl_usage(c, "%s: not for %s (allowed: %s)",
					 foreign[i], kind, allowed);
	return 0;
}

/*
 * xdp attach ipbf NAME dev IFACE... [mode M] [netns NS]: attach the
 * ingress program to ports made by ipbf port (or ipbf setup).
 */
int ipbf_xdp_attach(struct ctl *c, int argc, char **argv)
{
	static const char *const foreign[] = {
		"capacity", "fpr", "bits", "hashes", "hash", "seed", "ports",
		"members", "keys", "policy", "match", "variant",
		"module-filter", "classes", "class", "audit", NULL
	};
	struct xkw kw[] = {
		{ .name = "dev", .arg = "IFACE...", .many = true },
		{ .name = "mode", .arg = "native|generic|auto" },
		{ .name = "netns", .arg = "NS" }, XKW_FOREIGN,
		{ .name = "bits", .arg = "M" }, { .name = "hash", .arg = "H" },
		{ .name = "seed", .arg = "S" }, { .name = "ports", .arg = "N" },
		{ .name = "members", .arg = "N" },
		{ .name = "classes", .arg = "LIST" },
		{ .name = "class", .arg = "SPEC...", .many = true },
		{ .name = "audit", .arg = "on|off" }, { 0 }
	};
	struct netinst m = { .ns_fd = -1 };
	const char *netns;
	int *ifindex = NULL, ndev, i, mode, ret;
	char **dev;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: xkw_parse(c, argc - 1, argv + 1, kw);
	ret = ret ?: net_foreign_kw(c, kw, foreign, "ipbf",
				    "dev mode netns; the link IDs come from ipbf port or ipbf setup");
	if (ret)
		return ret;
	dev = xkw_get(kw, "dev")->v;
	ndev = xkw_get(kw, "dev")->n;
	if (!ndev)
		return ctl_usage(c, "missing dev IFACE... (usage: %s %s ipbf NAME dev IFACE... [mode native|generic|auto] [netns NS])",
				 KBCTL_NAME, c->cmd_path);
	netns = xkw_val(kw, "netns");
	ret = net_arg_devs(c, ndev, dev);
	ret = ret ?: net_arg_mode(c, xkw_val(kw, "mode"), &mode);
	if (!ret && netns)
		ret = xdp_arg_netns(c, netns);
	if (ret)
		return ret;
	ifindex = calloc(ndev, sizeof(*ifindex));
	if (!ifindex)
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	snprintf(m.op, sizeof(m.op), "%s ipbf %s", c->cmd_path, argv[0]);
	ret = net_inst_open(c, &m, argv[0], netns, XK_IPBF);
	ret = ret ?: net_devs_resolve(c, m.op, m.ns_fd, m.netns, ndev, dev,
				      ifindex);
	for (i = 0; !ret && i < ndev; i++) {
		if (!net_is_port(m.n, ifindex[i]))
			ret = ctl_syserr(c, ENOENT, "not a port: its link IDs first, with ipbf port or ipbf setup",
					 "%s: dev %s", m.op, dev[i]);
		else if (net_attached(m.n, ifindex[i]) && !c->set[CO_EXIST])
			ret = ctl_syserr(c, EEXIST, "already attached; -exist ignores it",
					 "%s: dev %s", m.op, dev[i]);
	}
	ret = ret ?: net_attach_all(c, m.n, ndev, dev, ifindex, mode, m.op);
	if (!ret)
		xdp_notes(c);
	net_inst_close(&m);
	free(ifindex);
	return ret;
}

/* xdp detach NAME dev IFACE...: the ports are removed. */
int net_detach_ports(struct ctl *c, const char *k, const char *name,
		     const char *netns, int ndev, char **dev,
		     const int *ifindex, const char *op)
{
	struct kbloom_net_opts o;
	struct kbloom_net *n;
	bool *skip;
	int i, ret;

	skip = calloc(ndev ? ndev : 1, sizeof(bool));
	if (!skip)
		return ctl_syserr(c, ENOMEM, NULL, "%s", op);
	net_opts(&o, netns);
	ret = kbloom_net_open(name, &o, &n);
	if (ret) {
		free(skip);
		return xdp_fail(c, ret, "%s: open", op);
	}
	for (i = 0; i < ndev; i++) {
		if (net_is_port(n, ifindex[i]))
			continue;
		if (!c->set[CO_EXIST]) {
			ret = ctl_syserr(c, ENOENT, "not a port; -exist ignores it",
					 "%s: dev %s", op, dev[i]);
			goto out;
		}
		skip[i] = true;
	}
	for (i = 0; i < ndev; i++) {
		if (skip[i])
			continue;
		ret = k == XK_IPBF ? kbloom_ipbf_port_del(n, ifindex[i]) :
				     kbloom_mcbf_port_del(n, ifindex[i]);
		if (ret) {
			ret = xdp_fail(c, ret, "%s: dev %s", op, dev[i]);
			goto out;
		}
	}
	xdp_notes(c);
out:
	kbloom_net_close(n);
	free(skip);
	return ret;
}

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

static const char topo_allowed[] =
	"allowed: line:SWITCHES[:HOSTS], tree:DEPTH:FANOUT[:HOSTS], fat-tree:K, leaf-spine:LEAVES:SPINES[:HOSTS], file:PATH";

static void topo_free(struct topo *tp)
{
	kb_topo_free(tp->t);
	free(tp->name);
	tp->t = NULL;
	tp->name = NULL;
}

/* Names of a builder's topology: switches first, then the hosts. */
static void topo_names_builder(struct topo *tp)
{
	const struct kb_topo *t = tp->t;
	__u32 i, sw = 0;

	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].kind == KB_NODE_SWITCH)
			snprintf(tp->name[i], TOPO_NAME_MAX, "s%u", sw++);
	for (i = 0; i < t->nhosts; i++)
		snprintf(tp->name[t->hosts[i]], TOPO_NAME_MAX, "h%u", i);
}

/*
 * Names of a topology file: the second word of its switch and host
 * statements, in order (the node numbers of kb_exp_topo_load(), which
 * has checked the file).
 */
static int topo_names_file(struct topo *tp, const char *path)
{
	char line[512], *w0, *w1, *save, *hash;
	__u32 i = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (i < tp->t->nnodes && fgets(line, sizeof(line), f)) {
		hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		save = NULL;
		w0 = strtok_r(line, " \t\r\n", &save);
		w1 = w0 ? strtok_r(NULL, " \t\r\n", &save) : NULL;
		if (!w1 || (strcmp(w0, "switch") && strcmp(w0, "host")))
			continue;
		snprintf(tp->name[i++], TOPO_NAME_MAX, "%s", w1);
	}
	fclose(f);
	return i == tp->t->nnodes ? 0 : -EIO;
}

/* "a:b:c" into at most @max numbers; how many, or -1. */
static int topo_nums(const char *s, __u32 *v, int max)
{
	char buf[64], *p, *save = NULL;
	__u64 x;
	int n = 0;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return -1;
	for (p = strtok_r(buf, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
		if (n == max || arg_u64(p, 0, 0xFFFFFFFFULL, &x))
			return -1;
		v[n++] = (__u32)x;
	}
	return n;
}

static int topo_build(const struct ctl *c, const char *s, struct kb_topo **t)
{
	static const struct {
		const char *kind;
		int min, max;
		const char *ranges;
	} kinds[] = {
		{ "line:", 1, 2, "line:SWITCHES 1..4096[:HOSTS per switch 0..256, default 1]" },
		{ "tree:", 2, 3, "tree:DEPTH 1..12:FANOUT 1..64[:HOSTS per leaf 1..256, default 1], at most 2^20 nodes" },
		{ "fat-tree:", 1, 1, "fat-tree:K, K even 2..64" },
		{ "leaf-spine:", 2, 3, "leaf-spine:LEAVES 1..4096:SPINES 1..256[:HOSTS per leaf 1..256, default 1]" },
	};
	__u32 v[3] = { 0, 0, 1 };
	size_t i, len;
	int n, ret = -EINVAL;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		len = strlen(kinds[i].kind);
		if (strncmp(s, kinds[i].kind, len))
			continue;
		n = topo_nums(s + len, v, kinds[i].max);
		if (n < kinds[i].min)
			return ctl_usage(c, "topo '%s': not %s", s,
					 kinds[i].ranges);
		if (i == 0)
			ret = kb_topo_line(v[0], n > 1 ? v[1] : 1, t);
		else if (i == 1)
			ret = kb_topo_tree(v[0], v[1], n > 2 ? v[2] : 1, t);
		else if (i == 2)
			ret = kb_topo_fat_tree(v[0], t);
		else
			ret = kb_topo_leaf_spine(v[0], v[1], n > 2 ? v[2] : 1,
						 t);
		if (ret == -ERANGE)
			return ctl_usage(c, "topo '%s': out of range (allowed: %s)",
					 s, kinds[i].ranges);
		if (ret)
			return ctl_syserr(c, ret, NULL, "%s: topo %s",
					  c->cmd_path, s);
		return 0;
	}
	return ctl_usage(c, "topo '%s': unknown (%s)", s, topo_allowed);
}

static int topo_load(const struct ctl *c, const char *s, struct topo *tp)
{
	char why[256];
	int ret;

	memset(tp, 0, sizeof(*tp));
	tp->spec = s;
	if (!strncmp(s, "file:", 5)) {
		if (!s[5])
			return ctl_usage(c, "topo '%s': no file named (allowed: file:PATH)",
					 s);
		why[0] = 0;
		ret = kb_exp_topo_load(s + 5, &tp->t, why, sizeof(why));
		if (ret == -EINVAL)
			return ctl_usage(c, "topo %s: %s", s, why);
		if (ret)
			return ctl_syserr(c, ret, NULL, "%s: read topology file %s",
					  c->cmd_path, s + 5);
	} else {
		ret = topo_build(c, s, &tp->t);
		if (ret)
			return ret;
	}
	tp->name = calloc(tp->t->nnodes, sizeof(*tp->name));
	if (!tp->name) {
		topo_free(tp);
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	}
	if (strncmp(s, "file:", 5)) {
		topo_names_builder(tp);
		return 0;
	}
	ret = topo_names_file(tp, s + 5);
	if (ret) {
		topo_free(tp);
		return ctl_syserr(c, ret, "changed while read?",
				  "%s: read topology file %s", c->cmd_path,
				  s + 5);
	}
	return 0;
}

/* NODE: a name of the topology, or a node number. */
static int topo_node(const struct ctl *c, const struct topo *tp,
		     const char *what, const char *s, __u32 *node)
{
	const struct kb_topo *t = tp->t;
	__u64 v;
	__u32 i;

	for (i = 0; i < t->nnodes; i++) {
		if (!strcmp(tp->name[i], s)) {
			*node = i;
			return 0;
		}
	}
	if (!arg_u64(s, 0, t->nnodes - 1, &v)) {
		*node = (__u32)v;
		return 0;
	}
	return ctl_usage(c, "%s '%s': no such node in topo %s (allowed: a name such as %s or %s, or a node number 0..%u)",
			 what, s, tp->spec, tp->name[0],
			 t->nhosts ? tp->name[t->hosts[0]] : tp->name[0],
			 t->nnodes - 1);
}

static int topo_host(const struct ctl *c, const struct topo *tp,
		     const char *what, const char *s, __u32 *node)
{
	int ret = topo_node(c, tp, what, s, node);

	if (ret)
		return ret;
	if (tp->t->nodes[*node].kind != KB_NODE_HOST)
		return ctl_usage(c, "%s '%s': a switch (allowed: a host, such as %s)",
				 what, s, tp->t->nhosts ?
				 tp->name[tp->t->hosts[0]] : "h0");
	return 0;
}

/* NODE:PORT, a directed link: the global port. */
static int topo_link(const struct ctl *c, const struct topo *tp,
		     const char *what, const char *s, __u32 *port)
{
	char node_s[128];
	const char *colon = strrchr(s, ':');
	__u32 node, np;
	__u64 v;
	int ret;

	if (!colon || colon == s || !colon[1] ||
	    (size_t)(colon - s) >= sizeof(node_s))
		return ctl_usage(c, "%s '%s': not NODE:PORT (allowed: a node and one of its local port numbers, such as %s:0)",
				 what, s, tp->name[0]);
	snprintf(node_s, sizeof(node_s), "%.*s", (int)(colon - s), s);
	ret = topo_node(c, tp, what, node_s, &node);
	if (ret)
		return ret;
	np = tp->t->nodes[node].nports;
	if (arg_u64(colon + 1, 0, np ? np - 1 : 0, &v) || !np)
		return ctl_usage(c, "%s '%s': %s has %u port%s (allowed: PORT 0..%u)",
				 what, s, tp->name[node], np, np == 1 ? "" : "s",
				 np ? np - 1 : 0);
	*port = kb_topo_port(tp->t, node, (__u32)v);
	return 0;
}

static const char *link_str(const struct topo *tp, __u32 port, char *buf,
			    size_t len)
{
	const struct kb_port *p = &tp->t->ports[port];

	snprintf(buf, len, "%s:%u", tp->name[p->node], p->local);
	return buf;
}

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

#define XKW_LIDS							\
	{ .name = "seed", .arg = "S" }, { .name = "k", .arg = "K" },	\
	{ .name = "d", .arg = "D" }

static int kw_num(const struct ctl *c, struct xkw *kw, const char *name,
		  __u64 min, __u64 max, const char *extra, __u64 *out,
		  bool *given)
{
	const char *s = xkw_val(kw, name);
	int ret;

	if (given)
		*given = s;
	if (!s)
		return 0;
	ret = arg_u64(s, min, max, out);
	return ret ? arg_bad_u64(c, name, s, ret, min, max, extra) : 0;
}

static int lidopt_parse(const struct ctl *c, struct xkw *kw,
			struct lidopt *o)
{
	__u64 k = KB_IPBF_K_DEFAULT, d = KB_IPBF_D_DEFAULT;
	__u64 fill = KB_IPBF_FILL_DEFAULT;
	int ret;

	o->seed = 0;
	ret = kw_num(c, kw, "seed", 0, ~0ULL, "decimal or 0x hex", &o->seed,
		     &o->seed_given);
	ret = ret ?: kw_num(c, kw, "k", KB_IPBF_K_MIN, KB_IPBF_K_MAX,
			    "bits per link ID", &k, &o->k_given);
	ret = ret ?: kw_num(c, kw, "d", 1, KB_IPBF_D_MAX, "tag sets", &d,
			    &o->d_given);
	if (!ret && xkw_get(kw, "fill"))
		ret = kw_num(c, kw, "fill", 1, KB_IPBF_ZF_BITS,
			     "one bits a zFilter may have", &fill,
			     &o->fill_given);
	o->k = (__u32)k;
	o->d = (__u32)d;
	o->fill = (__u32)fill;
	return ret;
}

/* The record of the link (node, port) for every tag set, from @cfg. */
static void lid_record(const struct kbloom_ipbf_cfg *cfg, __u32 node,
		       __u32 port, bool local, struct kbloom_ipbf_port *rec)
{
	__u32 t;

	memset(rec, 0, sizeof(*rec));
	rec->node = node;
	rec->port = port;
	rec->flags = local ? KBLOOM_IPBF_PORT_LOCAL : 0;
	for (t = 0; t < cfg->d && t < KB_IPBF_D_MAX; t++) {
		rec->lhash[t] = kb_ipbf_link_hash(cfg->seed, node, port, t);
		kb_ipbf_lid(rec->lhash[t], cfg->k, &rec->lid[t]);
	}
}

/* "12,77,130" */
static void zf_bits(char *buf, size_t len, const struct kb_ipbf_zf *z)
{
	size_t off = 0;
	__u32 b;

	buf[0] = 0;
	for (b = 0; b < KB_IPBF_ZF_BITS && off < len; b++)
		if (z->w[b >> 6] >> (b & 63) & 1)
			off += snprintf(buf + off, len - off, "%s%u",
					off ? "," : "", b);
}

static void json_zf_bits(struct json *j, const char *key,
			 const struct kb_ipbf_zf *z)
{
	__u32 b;

	json_key(j, key);
	json_arr(j);
	for (b = 0; b < KB_IPBF_ZF_BITS; b++)
		if (z->w[b >> 6] >> (b & 63) & 1)
			json_u64(j, b);
	json_arr_end(j);
}

static void json_lids(struct json *j, const struct kbloom_ipbf_port *rec,
		      __u32 d)
{
	char h[24];
	__u32 t;

	json_key(j, "lids");
	json_arr(j);
	for (t = 0; t < d && t < KB_IPBF_D_MAX; t++) {
		json_obj(j);
		json_ku64(j, "tag", t);
		json_zf_bits(j, "bits", &rec->lid[t]);
		snprintf(h, sizeof(h), "0x%016llx",
			 (unsigned long long)rec->lhash[t]);
		json_kstr(j, "hash", h);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* ---- ipbf topo ------------------------------------------------------------ */

static void topo_list_text(const struct topo *tp)
{
	const struct kb_topo *t = tp->t;
	char peer[64];
	__u32 i, p;

	printf("%u nodes (%u switches, %u hosts), %u links\n", t->nnodes,
	       t->nnodes - t->nhosts, t->nhosts, t->nports / 2);
	printf("%5s %-12s %-6s %5s  %s\n", "NODE", "NAME", "KIND", "LEVEL",
	       "PORTS (PORT->PEER:PORT)");
	for (i = 0; i < t->nnodes; i++) {
		printf("%5u %-12s %-6s %5u ", i, tp->name[i],
		       t->nodes[i].kind == KB_NODE_HOST ? "host" : "switch",
		       t->nodes[i].level);
		for (p = 0; p < t->nodes[i].nports; p++)
			printf(" %u->%s", p, link_str(tp,
			       t->ports[kb_topo_port(t, i, p)].peer, peer,
			       sizeof(peer)));
		printf("\n");
	}
}

static void topo_list_json(const struct topo *tp)
{
	const struct kb_topo *t = tp->t;
	const struct kb_port *pp;
	struct json j;
	__u32 i, p;

	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "topo", tp->spec);
	json_ku64(&j, "switches", t->nnodes - t->nhosts);
	json_ku64(&j, "hosts", t->nhosts);
	json_ku64(&j, "links", t->nports / 2);
	json_key(&j, "nodes");
	json_arr(&j);
	for (i = 0; i < t->nnodes; i++) {
		json_obj(&j);
		json_ku64(&j, "node", i);
		json_kstr(&j, "name", tp->name[i]);
		json_kstr(&j, "kind", t->nodes[i].kind == KB_NODE_HOST ?
				      "host" : "switch");
		json_ku64(&j, "level", t->nodes[i].level);
		json_key(&j, "ports");
		json_arr(&j);
		for (p = 0; p < t->nodes[i].nports; p++) {
			pp = &t->ports[kb_topo_port(t, i, p)];
			json_obj(&j);
			json_ku64(&j, "port", p);
			json_kstr(&j, "peer", tp->name[pp->peer_node]);
			json_ku64(&j, "peer_port", t->ports[pp->peer].local);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

/* The records ipbf setup loads on node @node: one per local port. */
static int node_records(const struct kb_lids *l, __u32 node,
			struct kbloom_ipbf_port *rec)
{
	const struct kb_node *nd = &l->topo->nodes[node];
	__u32 p;
	int ret = 0;

	for (p = 0; !ret && p < nd->nports; p++)
		ret = nd->kind == KB_NODE_HOST ?
		      kbloom_ipbf_local_from_lids(l, node, &rec[p]) :
		      kbloom_ipbf_port_from_lids(l, nd->first_port + p,
						 &rec[p]);
	return ret;
}

static void node_lids_text(const struct topo *tp, const struct lidopt *o,
			   __u32 node, const struct kbloom_ipbf_port *rec)
{
	const struct kb_topo *t = tp->t;
	const struct kb_node *nd = &t->nodes[node];
	char peer[64], ids[160], from[64];
	__u32 p, g;

	printf("%s (node %u, %s): seed %llu, k %u, d %u\n", tp->name[node],
	       node, nd->kind == KB_NODE_HOST ? "host" : "switch",
	       (unsigned long long)o->seed, o->k, o->d);
	printf("%4s %-12s %-8s %-12s %3s  %-18s %s\n", "PORT", "PEER", "ROLE",
	       "LINK", "TAG", "LINK HASH", "LINK ID (BITS)");
	for (p = 0; p < nd->nports; p++) {
		link_str(tp, t->ports[kb_topo_port(t, node, p)].peer, peer,
			 sizeof(peer));
		/* a host's port holds its access link's IDs (LOCAL) */
		link_str(tp, nd->kind == KB_NODE_HOST ?
			 t->ports[kb_topo_port(t, node, p)].peer :
			 kb_topo_port(t, node, p), from, sizeof(from));
		for (g = 0; g < o->d; g++) {
			zf_bits(ids, sizeof(ids), &rec[p].lid[g]);
			if (!g)
				printf("%4u %-12s %-8s %-12s", p, peer,
				       rec[p].flags & KBLOOM_IPBF_PORT_LOCAL ?
				       "local" : "forward", from);
			else
				printf("%4s %-12s %-8s %-12s", "", "", "", "");
			printf(" %3u  0x%016llx %s\n", g,
			       (unsigned long long)rec[p].lhash[g], ids);
		}
	}
}

static void node_lids_json(const struct topo *tp, const struct lidopt *o,
			   __u32 node, const struct kbloom_ipbf_port *rec)
{
	const struct kb_topo *t = tp->t;
	const struct kb_node *nd = &t->nodes[node];
	const struct kb_port *pp;
	char from[64];
	struct json j;
	__u32 p;

	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "topo", tp->spec);
	json_ku64(&j, "node", node);
	json_kstr(&j, "name", tp->name[node]);
	json_kstr(&j, "kind", nd->kind == KB_NODE_HOST ? "host" : "switch");
	json_ku64(&j, "seed", o->seed);
	json_ku64(&j, "k", o->k);
	json_ku64(&j, "d", o->d);
	json_key(&j, "ports");
	json_arr(&j);
	for (p = 0; p < nd->nports; p++) {
		pp = &t->ports[kb_topo_port(t, node, p)];
		json_obj(&j);
		json_ku64(&j, "port", p);
		json_kstr(&j, "peer", tp->name[pp->peer_node]);
		json_ku64(&j, "peer_port", t->ports[pp->peer].local);
		json_kstr(&j, "role", rec[p].flags & KBLOOM_IPBF_PORT_LOCAL ?
				      "local" : "forward");
		json_kstr(&j, "link", link_str(tp, nd->kind == KB_NODE_HOST ?
						   pp->peer :
						   kb_topo_port(t, node, p),
						   from, sizeof(from)));
		json_lids(&j, &rec[p], o->d);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

static int cmd_topo(struct ctl *c, int argc, char **argv)
{
	struct xkw kw[] = {
		{ .name = "node", .arg = "NODE" }, XKW_LIDS, { 0 }
	};
	struct kbloom_ipbf_port *rec = NULL;
	struct kb_lids *l = NULL;
	struct topo tp = { 0 };
	struct lidopt o;
	__u32 node = 0;
	int ret;

	ret = xkw_parse(c, argc - 1, argv + 1, kw);
	ret = ret ?: lidopt_parse(c, kw, &o);
	if (ret)
		return ret;
	if (!xkw_val(kw, "node") && (o.seed_given || o.k_given || o.d_given))
		return ctl_usage(c, "%s: only with node NODE (the link IDs of its ports)",
				 o.seed_given ? "seed" : o.k_given ? "k" : "d");
	ret = topo_load(c, argv[0], &tp);
	if (ret)
		return ret;
	if (xkw_val(kw, "node")) {
		ret = topo_node(c, &tp, "node", xkw_val(kw, "node"), &node);
		if (ret)
			goto out;
	}
	if (ctl_quiet(c))
		goto out;
	if (!xkw_val(kw, "node")) {
		if (c->set[CO_JSON])
			topo_list_json(&tp);
		else
			topo_list_text(&tp);
		ret = ctl_flush_stdout(c);
		goto out;
	}
	rec = calloc(tp.t->nodes[node].nports + 1, sizeof(*rec));
	ret = rec ? kb_lids_new(tp.t, o.seed, o.k, o.d, &l) : -ENOMEM;
	ret = ret ?: node_records(l, node, rec);
	if (ret) {
		ret = ctl_syserr(c, ret, NULL, "%s: link IDs", c->cmd_path);
		goto out;
	}
	if (c->set[CO_JSON])
		node_lids_json(&tp, &o, node, rec);
	else
		node_lids_text(&tp, &o, node, rec);
	ret = ctl_flush_stdout(c);
out:
	kb_lids_free(l);
	free(rec);
	topo_free(&tp);
	return ret;
}

/* ---- ipbf create, config ------------------------------------------------- */

static void cfg_of(const struct lidopt *o, struct kbloom_ipbf_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->fill_limit = o->fill;
	cfg->d = o->d;
	cfg->k = o->k;
	cfg->seed = o->seed;
}

static bool cfg_same(const struct kbloom_ipbf_cfg *a,
		     const struct kbloom_ipbf_cfg *b)
{
	return a->fill_limit == b->fill_limit && a->d == b->d &&
	       a->k == b->k && a->seed == b->seed;
}

/*
 * Make ipbf instance @name with @cfg (@ports: 0 for the default), its
 * namespace recorded.  *@np: the handle; exit code.
 */
static int ipbf_make(struct ctl *c, const char *name, const char *netns,
		     int ns_fd, __u32 ports, const struct kbloom_ipbf_cfg *cfg,
		     const char *op, struct kbloom_net **np)
{
	struct kbloom_net_opts o;
	int ret;

	net_opts(&o, netns);
	o.max_ports = ports;
	ret = kbloom_net_create(name, KBLOOM_NET_IPBF, &o, np);
	if (ret)
		return xdp_fail(c, ret, "%s: create", op);
	ret = kbloom_ipbf_set_config(*np, cfg);
	if (ret) {
		ret = xdp_fail(c, ret, "%s: config", op);
		goto undo;
	}
	return 0;
undo:
	kbloom_net_destroy(*np);
	*np = NULL;
	return ret;
}

/* An existing instance @name: an ipbf one whose config is @cfg (-exist). */
static int ipbf_exists(struct ctl *c, const char *name, const char *netns,
		       const struct kbloom_ipbf_cfg *cfg, const char *op)
{
	struct kbloom_ipbf_cfg cur;
	struct netinst m = { .ns_fd = -1 };
	int ret;

	if (xdp_kind_of(name) != XK_IPBF)
		return ctl_syserr(c, EEXIST, "an instance of another kind",
				  "%s", op);
	if (!c->set[CO_EXIST])
		return ctl_syserr(c, EEXIST, "-exist: not an error when its settings are the same",
				  "%s", op);
	ret = net_inst_open(c, &m, name, netns, XK_IPBF);
	if (ret)
		return ret;
	ret = kbloom_ipbf_get_config(m.n, &cur);
	if (ret)
		ret = xdp_fail(c, ret, "%s: config", op);
	else if (!cfg_same(&cur, cfg))
		ret = ctl_syserr(c, EEXIST, "with other settings; see ipbf config",
				 "%s", op);
	net_inst_close(&m);
	return ret;
}

static int cmd_create(struct ctl *c, int argc, char **argv)
{
	struct xkw kw[] = {
		XKW_LIDS, { .name = "fill", .arg = "F" },
		{ .name = "ports", .arg = "N" }, { .name = "netns", .arg = "NS" },
		{ 0 }
	};
	const char *name = argv[0], *netns;
	struct kbloom_ipbf_cfg cfg;
	struct kbloom_net *n = NULL;
	struct lidopt o;
	__u64 ports = 0;
	char op[160];
	int ns_fd = -1, ret;

	ret = xdp_arg_name(c, name);
	ret = ret ?: xkw_parse(c, argc - 1, argv + 1, kw);
	ret = ret ?: lidopt_parse(c, kw, &o);
	ret = ret ?: kw_num(c, kw, "ports", 1, 4096, "ports of the node",
			    &ports, NULL);
	ret = ret ?: xkw_netns(c, kw, &netns);
	if (ret)
		return ret;
	cfg_of(&o, &cfg);
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, name);
	xdp_log_reset();
	if (xdp_kind_of(name) != XK_NONE)
		return ipbf_exists(c, name, netns, &cfg, op);
	ret = xdp_netns_open(c, netns, &ns_fd);
	ret = ret ?: ipbf_make(c, name, netns, ns_fd, (__u32)ports, &cfg, op,
			       &n);
	if (!ret)
		xdp_notes(c);
	kbloom_net_close(n);
	if (ns_fd >= 0)
		close(ns_fd);
	return ret;
}

static void config_show(struct ctl *c, struct netinst *m,
			const struct kbloom_ipbf_cfg *cfg)
{
	__u32 *ids = NULL, n = 0, i, att = 0;
	struct json j;

	net_port_ids(m->n, &ids, &n);
	for (i = 0; i < n; i++)
		att += net_attached(m->n, ids[i]);
	free(ids);
	if (!c->set[CO_JSON]) {
		printf("%s: fill limit %u, d %u, k %u, seed %llu; %u ports, %u attached\n",
		       m->name, cfg->fill_limit, cfg->d, cfg->k,
		       (unsigned long long)cfg->seed, n, att);
		return;
	}
	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "name", m->name);
	json_ku64(&j, "fill_limit", cfg->fill_limit);
	json_ku64(&j, "d", cfg->d);
	json_ku64(&j, "k", cfg->k);
	json_ku64(&j, "seed", cfg->seed);
	json_ku64(&j, "ports", n);
	json_ku64(&j, "attached", att);
	json_obj_end(&j);
	json_end(&j);
}

static int cmd_config(struct ctl *c, int argc, char **argv)
{
	struct xkw kw[] = {
		XKW_LIDS, { .name = "fill", .arg = "F" },
		{ .name = "netns", .arg = "NS" }, { 0 }
	};
	struct netinst m = { .ns_fd = -1 };
	struct kbloom_ipbf_cfg cur, cfg;
	const char *netns;
	struct lidopt o;
	int ret, nports;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: xkw_parse(c, argc - 1, argv + 1, kw);
	ret = ret ?: lidopt_parse(c, kw, &o);
	ret = ret ?: xkw_netns(c, kw, &netns);
	if (ret)
		return ret;
	if (c->set[CO_JSON] &&
	    (o.seed_given || o.k_given || o.d_given || o.fill_given))
		return ctl_usage(c, "option -j: only to show the settings (without seed, k, d, fill)");
	ret = net_inst_open(c, &m, argv[0], netns, XK_IPBF);
	if (ret)
		return ret;
	ret = kbloom_ipbf_get_config(m.n, &cur);
	if (ret) {
		ret = xdp_fail(c, ret, "%s: config", m.op);
		goto out;
	}
	if (!o.seed_given && !o.k_given && !o.d_given && !o.fill_given) {
		if (!ctl_quiet(c))
			config_show(c, &m, &cur);
		ret = ctl_flush_stdout(c);
		goto out;
	}
	cfg = cur;
	if (o.seed_given)
		cfg.seed = o.seed;
	if (o.k_given)
		cfg.k = o.k;
	if (o.d_given)
		cfg.d = o.d;
	if (o.fill_given)
		cfg.fill_limit = o.fill;
	nports = kbloom_net_ports(m.n, NULL, 0);
	if (nports > 0 && (cfg.seed != cur.seed || cfg.k != cur.k ||
			   cfg.d != cur.d)) {
		ret = ctl_syserr(c, EBUSY, "the link IDs of its ports come from seed, k and d: set them before the ports, or make the node anew with ipbf setup",
				 "%s", m.op);
		goto out;
	}
	ret = kbloom_ipbf_set_config(m.n, &cfg);
	if (ret)
		ret = xdp_fail(c, ret, "%s: config", m.op);
	else
		xdp_notes(c);
out:
	net_inst_close(&m);
	return ret;
}

/* ---- ipbf setup ------------------------------------------------------------- */

struct setup {
	const char *name;
	const char *netns;
	int ns_fd;
	struct topo tp;
	__u32 node;
	struct lidopt o;
	int mode;
	__u64 ports;
	int ndev;
	char **dev;
	int *ifindex;
	struct kbloom_ipbf_port *rec;
	/* for the undo of an existing instance (-exist) */
	struct kbloom_ipbf_cfg old_cfg;
	struct kbloom_ipbf_port *old_rec;
	bool *was_port;
	bool *was_attached;
};

static int setup_args(struct ctl *c, struct setup *s, int argc, char **argv)
{
	struct xkw kw[] = {
		{ .name = "topo", .arg = "TOPO" }, { .name = "node", .arg = "NODE" },
		{ .name = "dev", .arg = "IFACE...", .many = true },
		XKW_LIDS, { .name = "fill", .arg = "F" },
		{ .name = "mode", .arg = "native|generic|auto" },
		{ .name = "ports", .arg = "N" }, { .name = "netns", .arg = "NS" },
		{ 0 }
	};
	const struct kb_node *nd;
	char peer[64];
	int ret;

	s->name = argv[0];
	ret = xdp_arg_name(c, s->name);
	ret = ret ?: xkw_parse(c, argc - 1, argv + 1, kw);
	if (ret)
		return ret;
	if (!xkw_val(kw, "topo") || !xkw_val(kw, "node") ||
	    !xkw_get(kw, "dev")->n)
		return ctl_usage(c, "missing %s (usage: %s %s %s)",
				 !xkw_val(kw, "topo") ? "topo TOPO" :
				 !xkw_val(kw, "node") ? "node NODE" :
				 "dev IFACE...", KBCTL_NAME, c->cmd_path,
				 c->cmd->synopsis);
	s->dev = xkw_get(kw, "dev")->v;
	s->ndev = xkw_get(kw, "dev")->n;
	s->netns = xkw_val(kw, "netns");
	ret = lidopt_parse(c, kw, &s->o);
	ret = ret ?: kw_num(c, kw, "ports", 1, 4096, "ports of the node",
			    &s->ports, NULL);
	ret = ret ?: net_arg_mode(c, xkw_val(kw, "mode"), &s->mode);
	ret = ret ?: net_arg_devs(c, s->ndev, s->dev);
	if (!ret && s->netns)
		ret = xdp_arg_netns(c, s->netns);
	ret = ret ?: topo_load(c, xkw_val(kw, "topo"), &s->tp);
	if (ret)
		return ret;
	ret = topo_node(c, &s->tp, "node", xkw_val(kw, "node"), &s->node);
	if (ret)
		return ret;
	nd = &s->tp.t->nodes[s->node];
	if (s->ndev != nd->nports)
		return ctl_usage(c, "dev: %d interface%s for the %u port%s of %s (allowed: one per local port, in order; port 0 leads to %s)",
				 s->ndev, s->ndev == 1 ? "" : "s", nd->nports,
				 nd->nports == 1 ? "" : "s",
				 s->tp.name[s->node],
				 link_str(&s->tp, s->tp.t->ports[nd->first_port].peer,
					  peer, sizeof(peer)));
	if (s->ports && s->ports < nd->nports)
		return ctl_usage(c, "ports '%llu': fewer than the %u ports of %s",
				 (unsigned long long)s->ports, nd->nports,
				 s->tp.name[s->node]);
	return 0;
}

/* Remember the state of an existing instance, refuse foreign ports. */
static int setup_save(struct ctl *c, struct setup *s, struct kbloom_net *n,
		      const char *op)
{
	__u32 *ids = NULL, cnt = 0, i;
	char ifn[IF_NAMESIZE];
	int d, ret;

	ret = kbloom_ipbf_get_config(n, &s->old_cfg);
	ret = ret ?: net_port_ids(n, &ids, &cnt);
	if (ret)
		return xdp_fail(c, ret, "%s: read", op);
	for (i = 0; i < cnt; i++) {
		for (d = 0; d < s->ndev; d++)
			if (ids[i] == (__u32)s->ifindex[d])
				break;
		if (d < s->ndev)
			continue;
		xdp_ifname(s->ns_fd, ids[i], ifn, sizeof(ifn));
		ret = ctl_syserr(c, EEXIST, "a port not in dev: remove it first (xdp detach NAME dev IFACE)",
				 "%s: port %s", op, ifn[0] ? ifn : "?");
		free(ids);
		return ret;
	}
	free(ids);
	for (d = 0; d < s->ndev; d++) {
		s->was_port[d] = !kbloom_ipbf_port_get(n, s->ifindex[d],
						       &s->old_rec[d]);
		s->was_attached[d] = net_attached(n, s->ifindex[d]);
	}
	return 0;
}

static void setup_undo(struct setup *s, struct kbloom_net *n)
{
	int d;

	for (d = 0; d < s->ndev; d++) {
		if (!s->was_attached[d] && net_attached(n, s->ifindex[d]))
			kbloom_net_detach(n, s->ifindex[d]);
		if (s->was_port[d])
			kbloom_ipbf_port_set(n, s->ifindex[d], &s->old_rec[d]);
		else
			kbloom_ipbf_port_del(n, s->ifindex[d]);
	}
	kbloom_ipbf_set_config(n, &s->old_cfg);
}

/* Configuration, the ports' records, then the links. */
static int setup_apply(struct ctl *c, struct setup *s, struct kbloom_net *n,
		       const char *op)
{
	struct kbloom_ipbf_cfg cfg;
	int d, ret;

	cfg_of(&s->o, &cfg);
	ret = kbloom_ipbf_set_config(n, &cfg);
	if (ret)
		return xdp_fail(c, ret, "%s: config", op);
	for (d = 0; d < s->ndev; d++) {
		ret = kbloom_ipbf_port_set(n, s->ifindex[d], &s->rec[d]);
		if (ret)
			return xdp_fail(c, ret, "%s: dev %s", op, s->dev[d]);
	}
	return net_attach_all(c, n, s->ndev, s->dev, s->ifindex, s->mode, op);
}

static int setup_run(struct ctl *c, struct setup *s, const char *op)
{
	struct kbloom_ipbf_cfg cfg;
	struct kbloom_net_opts o;
	struct kbloom_net *n = NULL;
	const char *have;
	int ret;

	have = xdp_kind_of(s->name);
	if (have != XK_NONE && have != XK_IPBF)
		return ctl_syserr(c, EEXIST, "an instance of another kind",
				  "%s", op);
	if (have != XK_NONE && !c->set[CO_EXIST])
		return ctl_syserr(c, EEXIST, "-exist makes it match; xdp detach NAME removes it",
				  "%s", op);
	if (have == XK_NONE) {
		cfg_of(&s->o, &cfg);
		ret = ipbf_make(c, s->name, s->netns, s->ns_fd,
				(__u32)s->ports, &cfg, op, &n);
		if (ret)
			return ret;
		ret = setup_apply(c, s, n, op);
		if (ret)
			kbloom_net_destroy(n);
		else
			kbloom_net_close(n);
		return ret;
	}
	net_opts(&o, s->netns);
	ret = kbloom_net_open(s->name, &o, &n);
	if (ret)
		return xdp_fail(c, ret, "%s: open", op);
	ret = setup_save(c, s, n, op);
	if (!ret) {
		ret = setup_apply(c, s, n, op);
		if (ret)
			setup_undo(s, n);
	}
	kbloom_net_close(n);
	return ret;
}

static int cmd_setup(struct ctl *c, int argc, char **argv)
{
	struct setup s = { .ns_fd = -1 };
	struct kb_lids *l = NULL;
	char op[160];
	int ret;

	ret = setup_args(c, &s, argc, argv);
	if (ret)
		goto out;
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, s.name);
	s.ifindex = calloc(s.ndev, sizeof(*s.ifindex));
	s.rec = calloc(s.ndev, sizeof(*s.rec));
	s.old_rec = calloc(s.ndev, sizeof(*s.old_rec));
	s.was_port = calloc(s.ndev, sizeof(bool));
	s.was_attached = calloc(s.ndev, sizeof(bool));
	if (!s.ifindex || !s.rec || !s.old_rec || !s.was_port ||
	    !s.was_attached) {
		ret = ctl_syserr(c, ENOMEM, NULL, "%s", op);
		goto out;
	}
	ret = kb_lids_new(s.tp.t, s.o.seed, s.o.k, s.o.d, &l);
	ret = ret ?: node_records(l, s.node, s.rec);
	if (ret) {
		ret = ctl_syserr(c, ret, NULL, "%s: link IDs", op);
		goto out;
	}
	xdp_log_reset();
	if (xdp_kind_of(s.name) != XK_NONE) {
		ret = xdp_inst_ns(c, s.name, s.netns, true, &s.netns);
		if (ret)
			goto out;
	}
	ret = xdp_netns_open(c, s.netns, &s.ns_fd);
	ret = ret ?: net_devs_resolve(c, op, s.ns_fd, s.netns, s.ndev, s.dev,
				      s.ifindex);
	ret = ret ?: setup_run(c, &s, op);
	if (!ret)
		xdp_notes(c);
out:
	kb_lids_free(l);
	topo_free(&s.tp);
	if (s.ns_fd >= 0)
		close(s.ns_fd);
	free(s.ifindex);
	free(s.rec);
	free(s.old_rec);
	free(s.was_port);
	free(s.was_attached);
	return ret;
}

/* ---- ipbf port, ports ------------------------------------------------------ */

/* link NODE:PORT without a topology: two numbers. */
static int link_nums(const struct ctl *c, const char *s, __u32 *node,
		     __u32 *port)
{
	const char *colon = strrchr(s, ':');
	char buf[32];
	__u64 a, b;

	if (!colon || (size_t)(colon - s) >= sizeof(buf))
		goto bad;
	snprintf(buf, sizeof(buf), "%.*s", (int)(colon - s), s);
	if (arg_u64(buf, 0, 0xFFFFFFFFULL, &a) ||
	    arg_u64(colon + 1, 0, 0xFFFFFFFFULL, &b))
		goto bad;
	*node = (__u32)a;
	*port = (__u32)b;
	return 0;
bad:
	return ctl_usage(c, "link '%s': not NODE:PORT (allowed: the control plane's node and local port numbers, such as 3:0; names with topo TOPO)",
			 s);
}

static int cmd_port(struct ctl *c, int argc, char **argv)
{
	struct xkw kw[] = {
		{ .name = "link", .arg = "NODE:PORT" },
		{ .name = "role", .arg = "forward|local" },
		{ .name = "topo", .arg = "TOPO" }, { .name = "netns", .arg = "NS" },
		{ 0 }
	};
	struct netinst m = { .ns_fd = -1 };
	struct kbloom_ipbf_port rec;
	struct kbloom_ipbf_cfg cfg;
	struct topo tp = { 0 };
	const char *netns, *link;
	__u32 node = 0, port = 0, gp;
	int ifindex, role = 0, ret;
	char all[32];

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: net_arg_ifname(c, "IFACE", argv[1]);
	ret = ret ?: xkw_parse(c, argc - 2, argv + 2, kw);
	if (ret)
		return ret;
	link = xkw_val(kw, "link");
	if (!link)
		return ctl_usage(c, "missing link NODE:PORT (usage: %s %s %s)",
				 KBCTL_NAME, c->cmd_path, c->cmd->synopsis);
	if (xkw_val(kw, "role")) {
		role = arg_pick(xkw_val(kw, "role"), role_words);
		if (role < 0) {
			arg_words(all, sizeof(all), role_words);
			return ctl_usage(c, "role '%s': unknown (allowed: %s)",
					 xkw_val(kw, "role"), all);
		}
	}
	ret = xkw_netns(c, kw, &netns);
	if (ret)
		return ret;
	if (xkw_val(kw, "topo")) {
		ret = topo_load(c, xkw_val(kw, "topo"), &tp);
		ret = ret ?: topo_link(c, &tp, "link", link, &gp);
		if (!ret) {
			node = tp.t->ports[gp].node;
			port = tp.t->ports[gp].local;
		}
		topo_free(&tp);
	} else {
		ret = link_nums(c, link, &node, &port);
	}
	if (ret)
		return ret;
	ret = net_inst_open(c, &m, argv[0], netns, XK_IPBF);
	ret = ret ?: xdp_port(c, m.op, m.ns_fd, m.netns, argv[1], &ifindex);
	if (ret)
		goto out;
	ret = kbloom_ipbf_get_config(m.n, &cfg);
	if (ret) {
		ret = xdp_fail(c, ret, "%s: config", m.op);
		goto out;
	}
	lid_record(&cfg, node, port, role == 1, &rec);
	ret = kbloom_ipbf_port_set(m.n, ifindex, &rec);
	if (ret)
		ret = xdp_fail(c, ret, "%s: %s", m.op, argv[1]);
	else
		xdp_notes(c);
out:
	net_inst_close(&m);
	return ret;
}

static void ports_json_one(struct json *j, struct netinst *m, __u32 id,
			   const struct kbloom_ipbf_port *rec, __u32 d)
{
	char ifn[IF_NAMESIZE];

	net_port_name(m, id, ifn, sizeof(ifn));
	json_obj(j);
	json_key(j, "port");
	if (strcmp(ifn, "?"))
		json_str(j, ifn);
	else
		json_null(j);
	json_ku64(j, "ifindex", id);
	json_kbool(j, "attached", net_attached(m->n, id));
	json_kstr(j, "role", rec->flags & KBLOOM_IPBF_PORT_LOCAL ? "local" :
							       "forward");
	json_ku64(j, "node", rec->node);
	json_ku64(j, "node_port", rec->port);
	json_lids(j, rec, d);
	json_obj_end(j);
}

static int cmd_ports(struct ctl *c, int argc, char **argv)
{
	struct netinst m = { .ns_fd = -1 };
	struct kbloom_ipbf_port rec;
	struct kbloom_ipbf_cfg cfg;
	char ifn[IF_NAMESIZE], ids_s[160], lk[32];
	__u32 *ids = NULL, n = 0, i;
	struct json j;
	int ret;

	ret = net_list_open(c, argc, argv, 1, XK_IPBF, &m, &ids, &n);
	if (ret || ctl_quiet(c))
		goto out;
	ret = kbloom_ipbf_get_config(m.n, &cfg);
	if (ret) {
		ret = xdp_fail(c, ret, "%s: config", m.op);
		goto out;
	}
	if (!ctl_list_begin(c, &j))
		printf("%-16s %7s %-8s %-7s %-10s %s\n", "PORT", "IFINDEX",
		       "ATTACHED", "ROLE", "NODE:PORT", "LINK ID (TAG 0)");
	for (i = 0; i < n; i++) {
		if (kbloom_ipbf_port_get(m.n, ids[i], &rec))
			continue;	/* removed meanwhile */
		if (c->set[CO_JSON]) {
			ports_json_one(&j, &m, ids[i], &rec, cfg.d);
			continue;
		}
		net_port_name(&m, ids[i], ifn, sizeof(ifn));
		zf_bits(ids_s, sizeof(ids_s), &rec.lid[0]);
		snprintf(lk, sizeof(lk), "%u:%u", rec.node, rec.port);
		printf("%-16s %7u %-8s %-7s %-10s %s\n", ifn, ids[i],
		       net_attached(m.n, ids[i]) ? "yes" : "no",
		       rec.flags & KBLOOM_IPBF_PORT_LOCAL ? "local" : "forward",
		       lk, ids_s);
	}
	ret = ctl_list_end(c, &j);
out:
	free(ids);
	net_inst_close(&m);
	return ret;
}

/* ---- ipbf stats ------------------------------------------------------------- */

static const char *const stat_names[] = {
	"rx_packets", "rx_other", "rx_forwarded", "rx_local", "rx_end",
	"drop_truncated", "drop_header", "drop_tag", "drop_hop", "drop_fill",
	"drop_stage", "drop_local", "tx_seen", "tx_forwarded", "tx_filtered",
	"tx_errors",
};

_Static_assert(ARRAY_SIZE(stat_names) * sizeof(__u64) ==
	       sizeof(struct kbloom_ipbf_stats), "a name per counter");

static const char *const stat_heads[] = {
	"RX", "OTHER", "FWD", "LOCAL", "END", "TRUNC", "HDR", "TAG", "HOP",
	"FILL", "STAGE", "NOTME", "TX", "SENT", "FILTERED", "ERR",
};

static int cmd_stats(struct ctl *c, int argc, char **argv)
{
	struct netinst m = { .ns_fd = -1 };
	struct kbloom_ipbf_stats st;
	char ifn[IF_NAMESIZE];
	__u32 *ids = NULL, n = 0, i, f;
	const __u64 *v = (const __u64 *)&st;
	struct json j;
	int ret;

	ret = net_list_open(c, argc, argv, 2, XK_IPBF, &m, &ids, &n);
	if (ret || ctl_quiet(c))
		goto out;
	if (!ctl_list_begin(c, &j)) {
		printf("%-10s", "PORT");
		for (f = 0; f < ARRAY_SIZE(stat_heads); f++)
			printf(" %*s", f == 14 ? 8 : 6, stat_heads[f]);
		printf("\n");
	}
	for (i = 0; i < n; i++) {
		ret = kbloom_ipbf_stats(m.n, ids[i], &st);
		if (ret == -ENOENT)
			continue;
		if (ret) {
			ret = xdp_fail(c, ret, "%s: port %u", m.op, ids[i]);
			goto out;
		}
		net_port_name(&m, ids[i], ifn, sizeof(ifn));
		if (c->set[CO_JSON]) {
			json_obj(&j);
			json_kstr(&j, "port", ifn);
			json_ku64(&j, "ifindex", ids[i]);
			for (f = 0; f < ARRAY_SIZE(stat_names); f++)
				json_ku64(&j, stat_names[f], v[f]);
			json_obj_end(&j);
			continue;
		}
		printf("%-10s", ifn);
		for (f = 0; f < ARRAY_SIZE(stat_names); f++)
			printf(" %*llu", f == 14 ? 8 : 6,
			       (unsigned long long)v[f]);
		printf("\n");
	}
	ret = ctl_list_end(c, &j);
out:
	free(ids);
	net_inst_close(&m);
	return ret;
}

/* ---- ipbf header ------------------------------------------------------------ */

struct hdr {
	struct topo tp;
	struct lidopt o;
	__u32 src;
	int form;		/* 0 lipsin, 1 msbf */
	__u64 tags;
	__u64 hop;		/* 0: default */
	__u64 proto;
	int ndst;
	char **dst;
	int nlinks;
	char **links;
	const char *out;
	struct kb_lids *l;
	struct kb_spt *spt;
	struct kb_tree *tr;
	struct kb_msbf *ms;
	__u8 *buf;
	int len;		/* as built */
	int sent;		/* after the source's step */
	struct kb_zf_result z;
	struct kb_msbf_info info;
};

static int hdr_args(struct ctl *c, struct hdr *h, int argc, char **argv)
{
	struct xkw kw[] = {
		{ .name = "topo", .arg = "TOPO" }, { .name = "src", .arg = "HOST" },
		{ .name = "dst", .arg = "HOST...", .many = true },
		{ .name = "links", .arg = "NODE:PORT...", .many = true },
		{ .name = "form", .arg = "lipsin|msbf" },
		XKW_LIDS, { .name = "fill", .arg = "F" },
		{ .name = "tags", .arg = "N" },
		{ .name = "hop-limit", .arg = "H" },
		{ .name = "proto", .arg = "ETHERTYPE" },
		{ 0 }
	};
	const char *form;
	char all[32];
	int ret;

	ret = xkw_parse(c, argc, argv, kw);
	if (ret)
		return ret;
	if (!xkw_val(kw, "topo") || !xkw_val(kw, "src"))
		return ctl_usage(c, "missing %s (usage: %s %s %s)",
				 xkw_val(kw, "topo") ? "src HOST" : "topo TOPO",
				 KBCTL_NAME, c->cmd_path, c->cmd->synopsis);
	h->dst = xkw_get(kw, "dst")->v;
	h->ndst = xkw_get(kw, "dst")->n;
	h->links = xkw_get(kw, "links")->v;
	h->nlinks = xkw_get(kw, "links")->n;
	if (!h->ndst == !h->nlinks)
		return ctl_usage(c, "%s (allowed: dst HOST... for the shortest-path tree to those hosts, or links NODE:PORT... for a tree of your own)",
				 h->ndst ? "dst: not with links" :
				 "missing dst HOST... or links NODE:PORT...");
	form = xkw_val(kw, "form");
	if (form) {
		h->form = arg_pick(form, form_words);
		if (h->form < 0) {
			arg_words(all, sizeof(all), form_words);
			return ctl_usage(c, "form '%s': unknown (allowed: %s)",
					 form, all);
		}
	}
	h->proto = IPBF_PROTO_DEF;
	ret = lidopt_parse(c, kw, &h->o);
	h->tags = h->o.d;
	ret = ret ?: kw_num(c, kw, "tags", 1, h->o.d,
			    "tag sets tried, at most d", &h->tags, NULL);
	ret = ret ?: kw_num(c, kw, "hop-limit", 1, 255, NULL, &h->hop, NULL);
	ret = ret ?: kw_num(c, kw, "proto", 0, 0xFFFF,
			    "the inner packet's EtherType, such as 0x0800", &h->proto,
			    NULL);
	ret = ret ?: topo_load(c, xkw_val(kw, "topo"), &h->tp);
	ret = ret ?: topo_host(c, &h->tp, "src", xkw_val(kw, "src"), &h->src);
	return ret;
}

/* dst HOST...: the shortest-path tree. */
static int hdr_tree_dst(struct ctl *c, struct hdr *h)
{
	__u32 *dst, i, others = 0;
	int ret;

	dst = calloc(h->ndst, sizeof(*dst));
	if (!dst)
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	for (i = 0, ret = 0; !ret && i < (__u32)h->ndst; i++) {
		ret = topo_host(c, &h->tp, "dst", h->dst[i], &dst[i]);
		others += dst[i] != h->src;
	}
	if (!ret && !others)
		ret = ctl_usage(c, "dst: only the source (allowed: at least one host other than %s)",
				h->tp.name[h->src]);
	if (!ret) {
		ret = kb_spt_new(h->tp.t, &h->spt);
		ret = ret ?: kb_spt_compute(h->spt, h->src, 0);
		ret = ret ?: kb_tree_build(h->tr, h->spt, dst, h->ndst);
		if (ret == -EINVAL)
			ret = ctl_usage(c, "dst: a host %s cannot reach (the topology is not connected)",
					h->tp.name[h->src]);
		else if (ret)
			ret = ctl_syserr(c, ret, NULL, "%s: tree", c->cmd_path);
	}
	free(dst);
	return ret;
}

/* links NODE:PORT...: grown from the source, in any order. */
static int hdr_tree_links(struct ctl *c, struct hdr *h)
{
	const struct kb_topo *t = h->tp.t;
	__u32 *port, i, left, added;
	char a[64], b[64];
	bool *in;
	int ret = 0, j;

	port = calloc(h->nlinks, sizeof(*port));
	in = calloc(h->nlinks, sizeof(*in));
	if (!port || !in) {
		ret = ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
		goto out;
	}
	for (j = 0; !ret && j < h->nlinks; j++)
		ret = topo_link(c, &h->tp, "links", h->links[j], &port[j]);
	for (j = 0; !ret && j < h->nlinks; j++)
		for (i = 0; i < (__u32)j; i++)
			if (port[i] == port[j])
				ret = ctl_usage(c, "links '%s': given twice (allowed once)",
						h->links[j]);
	if (ret)
		goto out;
	kb_tree_reset(h->tr, h->src);
	for (left = h->nlinks, added = 1; left && added;) {
		added = 0;
		for (j = 0; j < h->nlinks; j++) {
			if (in[j] || h->tr->depth[t->ports[port[j]].node] == KB_NONE)
				continue;
			if (kb_tree_add_link(h->tr, port[j])) {
				link_str(&h->tp, port[j], a, sizeof(a));
				ret = ctl_usage(c, "links '%s': leads back into the tree at %s (allowed: a tree: one way to each node)",
						a, h->tp.name[t->ports[port[j]].peer_node]);
				goto out;
			}
			in[j] = true;
			left--;
			added++;
		}
	}
	for (j = 0; left && j < h->nlinks; j++) {
		if (in[j])
			continue;
		snprintf(b, sizeof(b), "%s:0", h->tp.name[h->src]);
		ret = ctl_usage(c, "links '%s': not reached from src %s (allowed: links that grow a tree from the source's link %s)",
				h->links[j], h->tp.name[h->src], b);
		goto out;
	}
	for (i = 0; i < t->nhosts; i++)
		if (t->hosts[i] != h->src &&
		    h->tr->depth[t->hosts[i]] != KB_NONE)
			kb_tree_add_member(h->tr, t->hosts[i]);
out:
	free(port);
	free(in);
	return ret;
}

static int hdr_lipsin(struct ctl *c, struct hdr *h)
{
	int ret;

	ret = kb_zf_build(h->l, h->tr, (__u32)h->tags, h->o.fill, &h->z);
	if (ret == -E2BIG)
		return ctl_usage(c, "tree: its %u links set more than %u bits in every tag set tried (allowed: a smaller tree, fill up to 256, more tags, or form msbf)",
				 h->tr->nlinks, h->o.fill);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s: zFilter", c->cmd_path);
	h->len = kb_ipbf_write_lipsin(h->buf, IPBF_HDR_MAX,
				      h->hop ? (__u32)h->hop : h->tr->height,
				      h->z.tag, (__u16)h->proto, &h->z.zf);
	if (h->len < 0)
		return ctl_syserr(c, h->len, NULL, "%s: header", c->cmd_path);
	return 0;
}

static int hdr_msbf(struct ctl *c, struct hdr *h)
{
	struct kb_msbf_params p = { 0 };
	int ret;

	p.ntags = (__u32)h->tags;
	p.hop_limit = (__u32)h->hop;
	p.inner_proto = (__u16)h->proto;
	ret = kb_msbf_new(h->tp.t, &h->ms);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s: msbf", c->cmd_path);
	h->len = kb_msbf_build(h->ms, h->l, h->tr, &p, h->buf, IPBF_HDR_MAX,
			       &h->info);
	if (h->len == -EMSGSIZE)
		return ctl_usage(c, "tree: its MSBF header would exceed %u bytes (allowed: a smaller tree)",
				 IPBF_HDR_MAX);
	if (h->hop && h->len > 0 && h->hop < h->info.nstages)
		return ctl_usage(c, "hop-limit '%llu': below the %u stages of the tree (allowed: %u..255)",
				 (unsigned long long)h->hop, h->info.nstages,
				 h->info.nstages);
	if (h->len < 0)
		return ctl_syserr(c, h->len, NULL, "%s: header", c->cmd_path);
	return 0;
}

/* The tree, the header, then the source's own forwarding step. */
static int hdr_build(struct ctl *c, struct hdr *h)
{
	int ret;

	h->buf = malloc(IPBF_HDR_MAX);
	ret = h->buf ? kb_lids_new(h->tp.t, h->o.seed, h->o.k, h->o.d, &h->l) :
		       -ENOMEM;
	ret = ret ?: kb_tree_new(h->tp.t, &h->tr);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s", c->cmd_path);
	ret = h->ndst ? hdr_tree_dst(c, h) : hdr_tree_links(c, h);
	ret = ret ?: h->form ? hdr_msbf(c, h) : hdr_lipsin(c, h);
	if (ret)
		return ret;
	h->sent = kbloom_ipbf_source_step(h->l, kb_topo_port(h->tp.t, h->src, 0),
					  h->buf, h->len, h->o.fill);
	if (h->sent == -ENOENT)
		return ctl_usage(c, "links: none leaves src %s (allowed: a tree that starts with %s:0)",
				 h->tp.name[h->src], h->tp.name[h->src]);
	if (h->sent < 0)
		return ctl_syserr(c, h->sent, NULL, "%s: the source's step",
				  c->cmd_path);
	return 0;
}

static void hdr_free(struct hdr *h)
{
	kb_msbf_free(h->ms);
	kb_tree_free(h->tr);
	kb_spt_free(h->spt);
	kb_lids_free(h->l);
	topo_free(&h->tp);
	free(h->buf);
}

static void hex_str(char *out, const __u8 *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = 0;
}

static void hdr_text_tree(const struct hdr *h)
{
	const struct kb_tree *tr = h->tr;
	const struct kb_topo *t = h->tp.t;
	char a[64];
	__u32 i;

	printf("tree from %s: %u links, %u receiver%s, height %u\n",
	       h->tp.name[h->src], tr->nlinks, tr->nmembers,
	       tr->nmembers == 1 ? "" : "s", tr->height);
	printf("  links:");
	for (i = 0; i < tr->nlinks; i++)
		printf(" %s", link_str(&h->tp, tr->links[i], a, sizeof(a)));
	printf("\n  receivers:");
	for (i = 0; i < t->nhosts; i++)
		if (tr->member[t->hosts[i]])
			printf(" %s", h->tp.name[t->hosts[i]]);
	printf("\n");
}

static void hdr_text_tags(const struct hdr *h)
{
	struct kb_ipbf_zf zf;
	__u32 t, i;

	printf("%3s %5s %9s\n", "TAG", "FILL", "FALSE_POS");
	for (t = 0; t < h->tags; t++) {
		memset(&zf, 0, sizeof(zf));
		for (i = 0; i < h->tr->nlinks; i++)
			kb_ipbf_zf_or(&zf, kb_lid(h->l, t, h->tr->links[i]));
		printf("%3u %5u %9u%s\n", t, kb_ipbf_zf_fill(&zf),
		       kb_zf_count_fp(h->l, h->tr, &zf, t),
		       t == h->z.tag ? "  <- chosen" :
		       kb_ipbf_zf_fill(&zf) > h->o.fill ? "  (over the fill limit)" : "");
	}
}

static void hdr_text(const struct hdr *h)
{
	__u32 s;
	int i;

	hdr_text_tree(h);
	if (!h->form) {
		printf("lipsin: tag %u of %llu, fill %u of 256 bits (limit %u), %u of %u candidate links match\n",
		       h->z.tag, (unsigned long long)h->tags, h->z.fill,
		       h->o.fill, h->z.fp, h->z.candidates);
		hdr_text_tags(h);
	} else {
		printf("msbf: %u stages, tag %u, %u bytes, no false positive\n",
		       h->info.nstages, h->info.tag, h->info.bytes);
		printf("%5s %6s %3s %6s\n", "STAGE", "M", "K", "BYTES");
		for (s = 0; s < h->info.nstages; s++)
			printf("%5u %6u %3u %6u\n", s, h->info.stage_m[s],
			       h->info.stage_k[s], h->info.stage_bytes[s]);
	}
	printf("header: %d bytes as %s sends it (hop limit %u%s)",
	       h->sent, h->tp.name[h->src], h->buf[2],
	       h->form ? ", its own stage removed" : "");
	for (i = 0; i < h->sent; i++)
		printf("%s%02x", i % 16 ? " " : "\n  ", h->buf[i]);
	printf("\n");
}

static void hdr_json(const struct hdr *h)
{
	const struct kb_topo *t = h->tp.t;
	struct kb_ipbf_zf zf;
	char a[64], *hex;
	struct json j;
	__u32 i, g;

	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "form", form_words[h->form]);
	json_kstr(&j, "src", h->tp.name[h->src]);
	json_key(&j, "links");
	json_arr(&j);
	for (i = 0; i < h->tr->nlinks; i++)
		json_str(&j, link_str(&h->tp, h->tr->links[i], a, sizeof(a)));
	json_arr_end(&j);
	json_key(&j, "receivers");
	json_arr(&j);
	for (i = 0; i < t->nhosts; i++)
		if (h->tr->member[t->hosts[i]])
			json_str(&j, h->tp.name[t->hosts[i]]);
	json_arr_end(&j);
	json_ku64(&j, "height", h->tr->height);
	json_ku64(&j, "seed", h->o.seed);
	json_ku64(&j, "k", h->o.k);
	json_ku64(&j, "d", h->o.d);
	if (!h->form) {
		json_ku64(&j, "tag", h->z.tag);
		json_ku64(&j, "fill", h->z.fill);
		json_ku64(&j, "fill_limit", h->o.fill);
		json_ku64(&j, "false_positives", h->z.fp);
		json_ku64(&j, "candidates", h->z.candidates);
		json_key(&j, "tags");
		json_arr(&j);
		for (g = 0; g < h->tags; g++) {
			memset(&zf, 0, sizeof(zf));
			for (i = 0; i < h->tr->nlinks; i++)
				kb_ipbf_zf_or(&zf, kb_lid(h->l, g,
							  h->tr->links[i]));
			json_obj(&j);
			json_ku64(&j, "tag", g);
			json_ku64(&j, "fill", kb_ipbf_zf_fill(&zf));
			json_ku64(&j, "false_positives",
				  kb_zf_count_fp(h->l, h->tr, &zf, g));
			json_obj_end(&j);
		}
		json_arr_end(&j);
	} else {
		json_ku64(&j, "tag", h->info.tag);
		json_key(&j, "stages");
		json_arr(&j);
		for (i = 0; i < h->info.nstages; i++) {
			json_obj(&j);
			json_ku64(&j, "m", h->info.stage_m[i]);
			json_ku64(&j, "k", h->info.stage_k[i]);
			json_ku64(&j, "bytes", h->info.stage_bytes[i]);
			json_obj_end(&j);
		}
		json_arr_end(&j);
	}
	json_ku64(&j, "hop_limit", h->buf[2]);
	json_ku64(&j, "bytes", h->sent);
	hex = malloc(2 * h->sent + 1);
	if (hex) {
		hex_str(hex, h->buf, h->sent);
		json_kstr(&j, "header", hex);
		free(hex);
	}
	json_obj_end(&j);
	json_end(&j);
}

static int hdr_write(struct ctl *c, const struct hdr *h)
{
	bool out = !strcmp(h->out, "-") || !strcmp(h->out, "stdout");
	FILE *f = out ? stdout : fopen(h->out, "we");

	if (!f)
		return ctl_syserr(c, errno, NULL, "%s: open %s", c->cmd_path,
				  h->out);
	if (fwrite(h->buf, 1, h->sent, f) != (size_t)h->sent || fflush(f)) {
		if (!out)
			fclose(f);
		return ctl_syserr(c, errno ? errno : EIO, NULL, "%s: write %s",
				  c->cmd_path, h->out);
	}
	if (!out && fclose(f))
		return ctl_syserr(c, errno, NULL, "%s: write %s", c->cmd_path,
				  h->out);
	return KBCTL_OK;
}

static int cmd_header(struct ctl *c, int argc, char **argv)
{
	struct hdr h = { 0 };
	int ret;

	h.out = c->set[CO_OUTPUT] ? c->val[CO_OUTPUT] : NULL;
	if (h.out && c->set[CO_JSON])
		return ctl_usage(c, "option -j: not with -o (the header bytes go to FILE)");
	ret = hdr_args(c, &h, argc, argv);
	ret = ret ?: hdr_build(c, &h);
	if (ret)
		goto out;
	if (h.out)
		ret = hdr_write(c, &h);
	else if (!ctl_quiet(c) && c->set[CO_JSON])
		hdr_json(&h);
	else if (!ctl_quiet(c))
		hdr_text(&h);
	if (!ret && !h.out)
		ret = ctl_flush_stdout(c);
out:
	hdr_free(&h);
	return ret;
}

/* ---- ipbf send -------------------------------------------------------------- */

/* The header of -i FILE ('-': standard input), checked as a node would. */
static int send_read(struct ctl *c, const char *path, __u8 *buf, int *len)
{
	bool in = !strcmp(path, "-") || !strcmp(path, "stdin");
	struct kb_ipbf_info *info;
	FILE *f = in ? stdin : fopen(path, "re");
	size_t n;
	int ret = 0;

	if (!f)
		return ctl_syserr(c, errno, NULL, "%s: open %s", c->cmd_path,
				  path);
	n = fread(buf, 1, IPBF_HDR_MAX, f);
	if (ferror(f))
		ret = ctl_syserr(c, errno ? errno : EIO, NULL, "%s: read %s",
				 c->cmd_path, path);
	else if (!feof(f) && fgetc(f) != EOF)
		ret = ctl_usage(c, "-i %s: longer than %u bytes (allowed: one header from ipbf header -o)",
				path, IPBF_HDR_MAX);
	if (!in)
		fclose(f);
	if (ret)
		return ret;
	info = malloc(sizeof(*info));
	if (!info)
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	if (kb_ipbf_parse(buf, n, info) || info->len != n)
		ret = ctl_usage(c, "-i %s: not an ipbf header of %zu bytes (allowed: the output of ipbf header -o)",
				path, n);
	free(info);
	*len = (int)n;
	return ret;
}

/* A raw socket on @ifindex and its MAC address, in namespace @ns_fd. */
static int send_socket(int ns_fd, int ifindex, __u8 mac[6])
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct ifreq ifr = { 0 };
	int saved, fd, ret;

	ret = xdp_ns_enter(ns_fd, &saved);
	if (ret)
		return ret;
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);	/* no receiving */
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	sll.sll_ifindex = ifindex;
	if (!if_indextoname(ifindex, ifr.ifr_name) ||
	    ioctl(fd, SIOCGIFHWADDR, &ifr) ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		ret = -errno;
		close(fd);
		goto out;
	}
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	ret = fd;
out:
	xdp_ns_leave(saved);
	return ret;
}

static int cmd_send(struct ctl *c, int argc, char **argv)
{
	struct xkw kw[] = {
		{ .name = "count", .arg = "N" }, { .name = "payload", .arg = "TEXT" },
		{ .name = "netns", .arg = "NS" }, { 0 }
	};
	const char *netns, *payload = "kbloom ipbf";
	__u8 *frame = NULL, mac[6];
	int ns_fd = -1, fd = -1, ifindex, hlen = 0, ret;
	size_t plen, flen;
	__u64 count = 1, i;
	char op[96];

	ret = net_arg_ifname(c, "IFACE", argv[0]);
	ret = ret ?: xkw_parse(c, argc - 1, argv + 1, kw);
	ret = ret ?: kw_num(c, kw, "count", 1, IPBF_SEND_MAX, NULL, &count,
			    NULL);
	if (ret)
		return ret;
	if (!c->set[CO_INPUT])
		return ctl_usage(c, "missing -i FILE (the header, from ipbf header -o FILE; '-': standard input)");
	if (xkw_val(kw, "payload"))
		payload = xkw_val(kw, "payload");
	plen = strlen(payload);
	if (plen > 1400)
		return ctl_usage(c, "payload: %zu bytes (allowed: 0..1400)",
				 plen);
	ret = xkw_netns(c, kw, &netns);
	if (ret)
		return ret;
	frame = calloc(1, ETH_HLEN + IPBF_HDR_MAX + plen + ETH_ZLEN);
	if (!frame)
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	ret = send_read(c, c->val[CO_INPUT], frame + ETH_HLEN, &hlen);
	if (ret)
		goto out;
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, argv[0]);
	ret = xdp_netns_open(c, netns, &ns_fd);
	ret = ret ?: xdp_port(c, op, ns_fd, netns, argv[0], &ifindex);
	if (ret)
		goto out;
	fd = send_socket(ns_fd, ifindex, mac);
	if (fd < 0) {
		ret = ctl_syserr(c, fd, NULL, "%s: socket", op);
		goto out;
	}
	memset(frame, 0xff, ETH_ALEN);
	memcpy(frame + ETH_ALEN, mac, ETH_ALEN);
	frame[12] = KB_IPBF_ETH_P >> 8;
	frame[13] = KB_IPBF_ETH_P & 0xff;
	memcpy(frame + ETH_HLEN + hlen, payload, plen);
	flen = ETH_HLEN + hlen + plen;
	if (flen < ETH_ZLEN)
		flen = ETH_ZLEN;
	for (i = 0; i < count; i++) {
		if (send(fd, frame, flen, 0) == (ssize_t)flen)
			continue;
		ret = ctl_syserr(c, errno, errno == EMSGSIZE ?
				 "the frame is longer than the interface's MTU" :
				 NULL, "%s: send frame %llu", op,
				 (unsigned long long)i + 1);
		goto out;
	}
	if (!ctl_quiet(c))
		printf("sent %llu frame%s of %zu bytes (header %d) on %s\n",
		       (unsigned long long)count, count == 1 ? "" : "s", flen,
		       hlen, argv[0]);
	ret = ctl_flush_stdout(c);
out:
	if (fd >= 0)
		close(fd);
	if (ns_fd >= 0)
		close(ns_fd);
	free(frame);
	return ret;
}

/* ---- the table ---------------------------------------------------------------- */

static const char topo_help[] =
"TOPO is a topology of libkbloom_net.h: the node and local port numbers of\n"
"the control plane, from which the link IDs come.\n"
"  line:SWITCHES[:HOSTS]          a chain of switches, HOSTS (1) on each\n"
"  tree:DEPTH:FANOUT[:HOSTS]      a complete tree of switches, HOSTS (1) per leaf\n"
"  fat-tree:K                     a k-ary fat-tree (K even)\n"
"  leaf-spine:LEAVES:SPINES[:HOSTS]\n"
"  file:PATH                      a topology file: 'switch NAME', 'host NAME',\n"
"                                 'link NAME NAME' statements ('#' comments)\n"
"Nodes of the builders are named s<N> (switch N) and h<J> (host J); those of\n"
"a file by the file.  A node's local ports are numbered in the order of its\n"
"links.  Without node: every node, its kind, level and ports (PORT:PEER:\n"
"local port PORT leads to PEER, a peer node and its port).  With node NODE:\n"
"the link IDs that ipbf setup loads on NODE, for each port and tag set:\n"
"the link hash and the k bit numbers (0..255) of the LIPSIN link ID.  A\n"
"forwarding port holds the IDs of the link leaving through it; a host's\n"
"port holds those of its access link (LOCAL: it delivers a packet whose\n"
"zFilter contains them).  seed S (0), k K (5, 1..32 bits per link ID) and\n"
"d D (8, 1..16 tag sets) must be the same on every node and for ipbf\n"
"header: they define the IDs.\n";

static const char setup_help[] =
"One command per node of the topology (see ipbf topo): makes instance NAME\n"
"(pinned in /sys/fs/bpf/kbloom/NAME), sets its configuration (seed, k, d\n"
"and fill limit F: the most one bits a zFilter may have, 1..256, default\n"
"128), gives each local port of NODE its link IDs and attaches the ingress\n"
"program.  dev lists one interface per local port of NODE, in order (port\n"
"0 first).  A switch's ports forward; a host's port is LOCAL: it delivers\n"
"packets whose zFilter holds its access link's ID, and its XDP program is\n"
"also the one a veth peer needs for redirected frames to arrive.  mode,\n"
"netns and ports N (64) as for xdp attach.  An existing instance is\n"
"refused; with -exist it is made to match (other ports are refused), and\n"
"what this command changed is undone if a step fails.\n";

static const char port_help[] =
"Gives interface IFACE of instance NAME the link IDs of link NODE:PORT,\n"
"computed with the instance's seed, k and d (see ipbf config): the link\n"
"leaving through IFACE for a forwarding port (role forward, the default),\n"
"or the access link into this host for a LOCAL port (role local).  NODE\n"
"and PORT are the control plane's numbers, or names of topo TOPO.  A port\n"
"that exists gets its new IDs in one update; attach the ingress program\n"
"with xdp attach ipbf NAME dev IFACE, remove the port with xdp detach NAME\n"
"dev IFACE.\n";

static const char header_help[] =
"Computes the header a source host puts in every packet of a delivery tree,\n"
"for switches set up with the same TOPO, seed, k, d and fill (see ipbf\n"
"setup).  The tree: dst HOST..., the shortest-path tree from src to those\n"
"hosts; or links NODE:PORT..., the directed links of a tree of your own,\n"
"starting with the source's link (SRC:0), in any order.\n"
"  form lipsin   (default) a 256-bit zFilter: the OR of the tree links' IDs in\n"
"                the tag set (of tags N, default d) with the fewest candidate\n"
"                links that match (false positives: copies off the tree), each\n"
"                tag set shown with its fill and false positives\n"
"  form msbf     one stage filter per hop, each sized until no off-tree link\n"
"                of its hop matches: no false positive, longer headers\n"
"  hop-limit H   default: the tree's height (lipsin), its stages (msbf)\n"
"  proto P       the inner packet's EtherType (0x88B6)\n"
"The header printed is the one the source sends: after its own forwarding\n"
"step (hop limit - 1, MSBF: its stage removed).  -o FILE writes those bytes\n"
"to FILE ('-': standard output) for ipbf send, and prints nothing.\n";

static const char stats_help[] =
"Per port, from the ingress program: RX frames, OTHER (not ipbf: passed),\n"
"FWD (broadcast to the other ports), LOCAL (delivered here), END (MSBF, no\n"
"stage left), and the drops: TRUNC (truncated), HDR (bad version, flags or\n"
"reserved byte), TAG (tag >= d), HOP (hop limit 0), FILL (above the fill\n"
"limit), STAGE (a malformed MSBF stage), NOTME (a LOCAL port not in the\n"
"zFilter).  From the egress program: TX copies offered to the port, SENT\n"
"(the link ID matched), FILTERED (it did not), ERR.  -j: the same fields by\n"
"their names (rx_packets ... tx_errors).\n";

static const struct ctl_cmd ipbf_sub[] = {
	{
		.name = "topo",
		.synopsis = "TOPO [node NODE] [seed S] [k K] [d D]",
		.summary = "a topology's nodes and ports, or the link IDs of one node",
		.help = topo_help,
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_topo,
	},
	{
		.name = "create",
		.synopsis = "NAME [seed S] [k K] [d D] [fill F] [ports N] [netns NS]",
		.summary = "make an ipbf node without ports (then ipbf port, xdp attach ipbf)",
		.help =
"Makes instance NAME with its configuration: seed S (0), k K (5) and d D\n"
"(8) for the link IDs of the ports made later with ipbf port, fill limit F\n"
"(128), at most N ports (64).  netns NS: the namespace of its interfaces,\n"
"remembered.  -exist: an ipbf instance NAME with the same settings is not\n"
"an error.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = cmd_create,
	},
	{
		.name = "setup",
		.synopsis = "NAME topo TOPO node NODE dev IFACE... [seed S] [k K] [d D] [fill F] [mode native|generic|auto] [ports N] [netns NS]",
		.summary = "make node NODE of a topology: config, link IDs of its ports, attach",
		.help = setup_help,
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = cmd_setup,
	},
	{
		.name = "config",
		.synopsis = "NAME [seed S] [k K] [d D] [fill F] [netns NS]",
		.summary = "show or change a node's fill limit, d, k and seed",
		.help =
"Without settings: the configuration, the ports and how many are attached.\n"
"fill F takes effect with the next packet.  seed, k and d define the link\n"
"IDs of the ports: they change only while the node has no port.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_config,
	},
	{
		.name = "port",
		.synopsis = "NAME IFACE link NODE:PORT [role forward|local] [topo TOPO] [netns NS]",
		.summary = "give an interface the link IDs of a link (makes it a port)",
		.help = port_help,
		.min_args = 2,
		.max_args = CTL_ARGS_ANY,
		.run = cmd_port,
	},
	{
		.name = "ports",
		.synopsis = "NAME [netns NS]",
		.summary = "the ports: role, link, link ID of tag set 0, attached",
		.help =
"NODE:PORT: the control plane's node and local port numbers of the port's\n"
"record (ipbf setup: the node's own; a LOCAL port of a host: the host and\n"
"0; ipbf port: its link).  -j gives every tag set's link ID (bit numbers)\n"
"and link hash.\n",
		.min_args = 1,
		.max_args = 3,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_ports,
	},
	{
		.name = "stats",
		.synopsis = "NAME [PORT] [netns NS]",
		.summary = "per-port counters: forwarded, delivered, filtered, drops by reason",
		.help = stats_help,
		.min_args = 1,
		.max_args = 4,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_stats,
	},
	{
		.name = "header",
		.synopsis = "topo TOPO src HOST (dst HOST... | links NODE:PORT...) [form lipsin|msbf] [seed S] [k K] [d D] [fill F] [tags N] [hop-limit H] [proto P]",
		.summary = "the zFilter or MSBF header of a delivery tree, as its source sends it",
		.help = header_help,
		.min_args = 4,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_JSON) | CTL_OPT(CO_OUTPUT),
		.run = cmd_header,
	},
	{
		.name = "send",
		.synopsis = "IFACE -i FILE [count N] [payload TEXT] [netns NS]",
		.summary = "send frames with a header from ipbf header -o",
		.help =
"Sends N (1) Ethernet frames on IFACE: broadcast destination, the\n"
"interface's address, EtherType 0x88B5, the header of FILE ('-': standard\n"
"input), then TEXT (\"kbloom ipbf\", up to 1400 bytes), padded to 60 bytes.\n"
"The header is checked as a node would first.  The source host's IFACE\n"
"needs no XDP program; the switches forward by the header alone.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_INPUT),
		.run = cmd_send,
	},
	{ 0 }
};

const struct ctl_cmd ipbf_cmds[] = {
	{
		.name = "ipbf",
		.synopsis = "topo|create|setup|config|port|ports|stats|header|send ...",
		.summary = "in-packet Bloom filters (LIPSIN, MSBF): link IDs, nodes, headers",
		.sub = ipbf_sub,
	},
	{ 0 }
};
