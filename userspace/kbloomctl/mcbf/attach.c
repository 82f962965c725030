// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: xdp attach mcbf (called by xdp.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcbf.h"

/* ---- xdp attach mcbf ----------------------------------------------------------- */

struct mattach {
	const char *name;
	const char *netns;
	int ns_fd;
	__u32 mode;
	struct kw_list devl;
	int ndev;
	char **dev;
	int *ifindex;
	bool *made;		/* ports this command made */
	struct specarg a;
	struct mcbf_make_args mk;
	bool create_opts;
};

#define MCBF_NOT "not for mcbf (allowed: bits M, classes LIST or class GROUPS:P[:W]..., seed S, hash fast|siphash, mode, netns, ports N, members N, audit on|off)"

static const struct kw mattach_kw[] = {
	KW("dev", "IFACE...", KWT_LIST, struct mattach, devl,
	   .required = true),
	KW_MODE(struct mattach, mode),
	KW("netns", "NS", KWT_NETNS, struct mattach, netns),
	KW_MCBF_SPEC(struct mattach, a),
	KW_MCBF_MAKE(struct mattach, mk),
	KW_FOREIGN(MCBF_NOT),
	{ 0 }
};

static const struct kw_table mattach_table = {
	.kw = mattach_kw,
	.usage = "mcbf NAME dev IFACE... [bits M] [classes LIST | class G:P[:W]...] [seed S] [hash fast|siphash] [mode native|generic|auto] [ports N] [members N] [audit on|off] [netns NS]",
};

static int mattach_args(struct ctl *c, struct mattach *t, int argc,
			char **argv)
{
	const struct kw_table *tab = &mattach_table;
	__u64 given;
	int ret;

	t->name = argv[0];
	t->mk.audit = 1;
	spec_init(&t->a);
	ret = xdp_arg_name(c, t->name);
	ret = ret ?: kw_parse(c, tab, argc - 1, argv + 1, t, &given);
	if (ret)
		return ret;
	t->dev = t->devl.v;
	t->ndev = t->devl.n;
	ret = net_arg_devs(c, t->ndev, t->dev);
	ret = ret ?: spec_check(c, tab, given, &t->a);
	t->create_opts = kw_has(tab, given, "ports") ||
			 kw_has(tab, given, "members") ||
			 kw_has(tab, given, "audit");
	return ret;
}

/* New ports get their (empty) filters; existing ones keep theirs. */
static int mattach_ports(struct ctl *c, struct mattach *t,
			 struct kbloom_net *n, const char *op)
{
	struct kbloom_mcbf_spec spec;
	int i, ret;

	for (i = 0; i < t->ndev; i++) {
		if (net_attached(n, t->ifindex[i]) && !c->set[CO_EXIST])
			return ctl_syserr(c, EEXIST, "already attached; -exist ignores it",
					  "%s: dev %s", op, t->dev[i]);
		if (net_is_port(n, t->ifindex[i]) && t->a.given &&
		    !net_attached(n, t->ifindex[i]))
			return ctl_syserr(c, EEXIST, "a port already: its filter stays; mcbf port changes it",
					  "%s: dev %s", op, t->dev[i]);
	}
	ret = spec_final(c, &t->a, NULL, &spec);
	for (i = 0; !ret && i < t->ndev; i++) {
		if (net_is_port(n, t->ifindex[i]))
			continue;
		ret = kbloom_mcbf_port_build(n, t->ifindex[i], &spec, NULL, 0);
		if (ret)
			ret = xdp_fail(c, ret, "%s: dev %s: port", op,
				       t->dev[i]);
		else
			t->made[i] = true;
	}
	return ret;
}

static int mattach_run(struct ctl *c, struct mattach *t, const char *op)
{
	struct kbloom_net_opts o;
	struct kbloom_net *n = NULL;
	const char *have = xdp_kind_of(t->name);
	bool created = false;
	int i, ret;

	if (have != XK_NONE && have != XK_MCBF)
		return ctl_syserr(c, EEXIST, have == XK_OTHER ?
				  "a directory that is not an instance" :
				  "an instance of another kind", "%s", op);
	if (have != XK_NONE && t->create_opts)
		return ctl_syserr(c, EEXIST, "ports, members and audit apply when the instance is made",
				  "%s", op);
	if (have == XK_NONE) {
		ret = mcbf_make(c, t->name, t->netns, t->ns_fd, &t->mk, op, &n);
		created = !ret;
	} else {
		net_opts(&o, t->netns);
		ret = kbloom_net_open(t->name, &o, &n);
		if (ret)
			ret = xdp_fail(c, ret, "%s: open", op);
	}
	if (ret)
		return ret;
	ret = mattach_ports(c, t, n, op);
	ret = ret ?: net_attach_all(c, n, t->ndev, t->dev, t->ifindex,
				    t->mode, op);
	if (ret && created) {
		kbloom_net_destroy(n);
		return ret;
	}
	for (i = 0; ret && i < t->ndev; i++)
		if (t->made[i])
			kbloom_mcbf_port_del(n, t->ifindex[i]);
	kbloom_net_close(n);
	return ret;
}

int mcbf_xdp_attach(struct ctl *c, int argc, char **argv)
{
	struct mattach t = { .ns_fd = -1 };
	char op[160];
	int ret;

	ret = mattach_args(c, &t, argc, argv);
	if (ret)
		return ret;
	snprintf(op, sizeof(op), "%s mcbf %s", c->cmd_path, t.name);
	t.ifindex = calloc(t.ndev, sizeof(*t.ifindex));
	t.made = calloc(t.ndev, sizeof(*t.made));
	if (!t.ifindex || !t.made) {
		ret = ctl_syserr(c, ENOMEM, NULL, "%s", op);
		goto out;
	}
	xdp_log_reset();
	if (xdp_kind_of(t.name) == XK_MCBF) {
		ret = xdp_inst_ns(c, t.name, t.netns, true, &t.netns);
		if (ret)
			goto out;
	}
	ret = xdp_netns_open(c, t.netns, &t.ns_fd);
	ret = ret ?: net_devs_resolve(c, op, t.ns_fd, t.netns, t.ndev, t.dev,
				      t.ifindex);
	ret = ret ?: mattach_run(c, &t, op);
	if (!ret)
		xdp_notes(c);
out:
	if (t.ns_fd >= 0)
		close(t.ns_fd);
	free(t.ifindex);
	free(t.made);
	return ret;
}
