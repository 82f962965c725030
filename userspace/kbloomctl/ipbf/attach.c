// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: xdp attach ipbf (called by xdp.c).
 */
#include <errno.h>
#include <stdlib.h>

#include "ipbf.h"

#define IPBF_NOT "not for ipbf (allowed: dev mode netns; the link IDs come from ipbf port or ipbf setup)"

struct attach_args {
	struct kw_list dev;
	__u32 mode;
	const char *netns;
};

static const struct kw attach_kw[] = {
	KW("dev", "IFACE...", KWT_LIST, struct attach_args, dev,
	   .required = true),
	KW_MODE(struct attach_args, mode),
	KW("netns", "NS", KWT_NETNS, struct attach_args, netns),
	KW_FOREIGN(IPBF_NOT),
	KW_REFUSE("bits", "M", IPBF_NOT, 1),
	KW_REFUSE("hash", "H", IPBF_NOT, 1),
	KW_REFUSE("seed", "S", IPBF_NOT, 1),
	KW_REFUSE("ports", "N", IPBF_NOT, 1),
	KW_REFUSE("members", "N", IPBF_NOT, 1),
	KW_REFUSE("classes", "LIST", IPBF_NOT, 1),
	KW_REFUSE("class", "SPEC...", IPBF_NOT, 0),
	KW_REFUSE("audit", "on|off", IPBF_NOT, 1),
	{ 0 }
};

static const struct kw_table attach_table = {
	.kw = attach_kw,
	.usage = "ipbf NAME dev IFACE... [mode native|generic|auto] [netns NS]",
};

/*
 * xdp attach ipbf NAME dev IFACE... [mode M] [netns NS]: attach the
 * ingress program to ports made by ipbf port (or ipbf setup).
 */
int ipbf_xdp_attach(struct ctl *c, int argc, char **argv)
{
	struct netinst m = { .ns_fd = -1 };
	struct attach_args a = { 0 };
	int *ifindex = NULL, ndev, i, ret;
	const char *netns;
	char **dev;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: kw_parse(c, &attach_table, argc - 1, argv + 1, &a, NULL);
	if (ret)
		return ret;
	dev = a.dev.v;
	ndev = a.dev.n;
	netns = a.netns;
	ret = net_arg_devs(c, ndev, dev);
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
	ret = ret ?: net_attach_all(c, m.n, ndev, dev, ifindex, a.mode, m.op);
	if (!ret)
		xdp_notes(c);
	net_inst_close(&m);
	free(ifindex);
	return ret;
}
