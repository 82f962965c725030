// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: mcbf create and mcbf port.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcbf.h"

const char *const onoff_words[] = { "on", "off", NULL };
const __u32 onoff_vals[] = { 1, 0 };

/* ---- mcbf create ------------------------------------------------------------- */

int mcbf_make(struct ctl *c, const char *name, const char *netns,
	      int ns_fd, const struct mcbf_make_args *a, const char *op,
	      struct kbloom_net **np)
{
	struct kbloom_net_opts o;
	int ret;

	net_opts(&o, netns);
	o.max_ports = a->ports;
	o.max_members = a->members;
	ret = kbloom_net_create(name, KBLOOM_NET_MCBF, &o, np);
	if (ret)
		return xdp_fail(c, ret, "%s: create", op);
	ret = a->audit ? 0 : kbloom_mcbf_set_flags(*np, 0);
	if (!ret)
		return 0;
	ret = xdp_fail(c, ret, "%s: create", op);
	kbloom_net_destroy(*np);
	*np = NULL;
	return ret;
}

struct create_args {
	struct mcbf_make_args mk;
	const char *netns;
};

static const struct kw create_kw[] = {
	KW_MCBF_MAKE(struct create_args, mk),
	KW("netns", "NS", KWT_NETNS, struct create_args, netns),
	{ 0 }
};

static const struct kw_table create_table = { .kw = create_kw };

int mcbf_cmd_create(struct ctl *c, int argc, char **argv)
{
	struct create_args a = { .mk.audit = 1 };
	struct kbloom_net *n = NULL;
	const char *name = argv[0];
	int ns_fd = -1, ret;
	char op[160];

	ret = xdp_arg_name(c, name);
	ret = ret ?: kw_parse(c, &create_table, argc - 1, argv + 1, &a, NULL);
	if (ret)
		return ret;
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, name);
	xdp_log_reset();
	if (xdp_kind_of(name) != XK_NONE) {
		if (xdp_kind_of(name) != XK_MCBF)
			return ctl_syserr(c, EEXIST, "an instance of another kind",
					  "%s", op);
		if (c->set[CO_EXIST])
			return KBCTL_OK;
		return ctl_syserr(c, EEXIST, "-exist ignores it", "%s", op);
	}
	ret = xdp_netns_open(c, a.netns, &ns_fd);
	ret = ret ?: mcbf_make(c, name, a.netns, ns_fd, &a.mk, op, &n);
	if (!ret)
		xdp_notes(c);
	kbloom_net_close(n);
	if (ns_fd >= 0)
		close(ns_fd);
	return ret;
}

/* ---- mcbf port ----------------------------------------------------------------- */

/* Build (or rebuild) port @ifindex with @spec and its recorded groups. */
static int port_rebuild(struct ctl *c, struct netinst *m, const char *port,
			int ifindex, const struct kbloom_mcbf_spec *spec)
{
	struct kbloom_addr_key *g = NULL;
	int n = 0, ret;

	ret = port_groups(c, m, ifindex, &g, &n, 0);
	ret = ret ?: groups_fit(c, m, port, g, n, &spec->classes,
				"mcbf leave it first");
	if (!ret) {
		ret = kbloom_mcbf_port_build(m->n, ifindex, spec, g, n);
		if (ret)
			ret = xdp_fail(c, ret, "%s: %s", m->op, port);
	}
	free(g);
	return ret;
}

struct port_args {
	struct specarg a;
	const char *netns;
};

static const struct kw port_kw[] = {
	KW_MCBF_SPEC(struct port_args, a),
	KW("netns", "NS", KWT_NETNS, struct port_args, netns),
	{ 0 }
};

static const struct kw_table port_table = { .kw = port_kw };

int mcbf_cmd_port(struct ctl *c, int argc, char **argv)
{
	struct netinst m = { .ns_fd = -1 };
	struct kbloom_mcbf_port cur;
	struct kbloom_mcbf_spec spec;
	struct port_args pa = { 0 };
	int ifindex, ret;
	bool is_port;
	__u64 given;

	spec_init(&pa.a);
	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: kw_parse(c, &port_table, argc - 2, argv + 2, &pa, &given);
	ret = ret ?: spec_check(c, &port_table, given, &pa.a);
	if (ret)
		return ret;
	ret = net_inst_open(c, &m, argv[0], pa.netns, XK_MCBF);
	ret = ret ?: xdp_port(c, m.op, m.ns_fd, m.netns, argv[1], &ifindex);
	if (ret)
		goto out;
	is_port = !kbloom_mcbf_port_get(m.n, ifindex, &cur);
	ret = spec_final(c, &pa.a, is_port ? &cur : NULL, &spec);
	ret = ret ?: port_rebuild(c, &m, argv[1], ifindex, &spec);
	if (!ret)
		xdp_notes(c);
out:
	net_inst_close(&m);
	return ret;
}
