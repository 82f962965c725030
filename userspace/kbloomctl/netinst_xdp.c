// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: what xdp detach NAME dev IFACE... does with an ipbf or mcbf
 * instance (libkbloom_xdp_net.h): the ports go with their links.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "kbloomctl.h"
#include "libkbloom_xdp_net.h"

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
