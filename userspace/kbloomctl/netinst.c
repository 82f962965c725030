// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: instances of libkbloom_xdp_net.h (ipbf and mcbf) opened by
 * name, their ports, the netns NS and listing arguments that mcast, ipbf
 * and mcbf share, and the devices of their xdp attach.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>

#include "kbloomctl.h"
#include "libkbloom_xdp_net.h"

/* ---- instances of libkbloom_xdp_net.h ---------------------------------- */

void net_opts(struct kbloom_net_opts *o, const char *netns)
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

/* dev IFACE...: the names checked, none twice (usage errors only). */
int net_arg_devs(const struct ctl *c, int ndev, char **dev)
{
	int i, j, ret;

	for (i = 0; i < ndev; i++) {
		ret = xdp_arg_ifname(c, "dev", dev[i]);
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
