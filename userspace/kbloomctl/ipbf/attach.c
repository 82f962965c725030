// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: xdp attach ipbf (called by xdp.c).
 */
#include <errno.h>
#include <stdlib.h>

#include "ipbf.h"

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
	if (!ret) {
		ret = net_mark_netns(m.n, m.ns_fd);
		if (ret)
			ret = xdp_fail(c, ret, "%s: record the namespace", m.op);
	}
	if (!ret)
		xdp_notes(c);
	net_inst_close(&m);
	free(ifindex);
	return ret;
}
