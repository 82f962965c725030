// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: mcbf create and mcbf port.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcbf.h"

static const char *const onoff_words[] = { "on", "off", NULL };

/* ---- mcbf create ------------------------------------------------------------- */

int mcbf_make(struct ctl *c, const char *name, const char *netns,
	      int ns_fd, __u32 ports, __u32 members, int audit,
	      const char *op, struct kbloom_net **np)
{
	struct kbloom_net_opts o;
	int ret;

	memset(&o, 0, sizeof(o));
	o.pin_root = xdp_root();
	o.netns = netns;
	o.log = xdp_log;
	o.max_ports = ports;
	o.max_members = members;
	ret = kbloom_net_create(name, KBLOOM_NET_MCBF, &o, np);
	if (ret)
		return xdp_fail(c, ret, "%s: create", op);
	ret = audit ? 0 : kbloom_mcbf_set_flags(*np, 0);
	ret = ret ?: net_mark_netns(*np, ns_fd);
	if (!ret)
		return 0;
	ret = xdp_fail(c, ret, "%s: create", op);
	kbloom_net_destroy(*np);
	*np = NULL;
	return ret;
}

int mcbf_create_args(const struct ctl *c, struct xkw *kw, __u64 *ports,
		     __u64 *members, int *audit)
{
	const char *s;
	char all[16];
	int ret;

	*ports = 0;
	*members = 0;
	*audit = 1;
	s = xkw_val(kw, "ports");
	if (s) {
		ret = arg_u64(s, 1, 4096, ports);
		if (ret)
			return arg_bad_u64(c, "ports", s, ret, 1, 4096,
					   "ports of the switch");
	}
	s = xkw_val(kw, "members");
	if (s) {
		ret = arg_u64(s, 1, 1U << 24, members);
		if (ret)
			return arg_bad_u64(c, "members", s, ret, 1, 1U << 24,
					   "memberships, all ports together");
	}
	s = xkw_get(kw, "audit") ? xkw_val(kw, "audit") : NULL;
	if (s) {
		*audit = arg_pick(s, onoff_words);
		if (*audit < 0) {
			arg_words(all, sizeof(all), onoff_words);
			return ctl_usage(c, "audit '%s': unknown (allowed: %s)",
					 s, all);
		}
		*audit = !*audit;
	}
	return 0;
}

int mcbf_cmd_create(struct ctl *c, int argc, char **argv)
{
	struct xkw kw[] = {
		{ .name = "ports", .arg = "N" }, { .name = "members", .arg = "N" },
		{ .name = "audit", .arg = "on|off" },
		{ .name = "netns", .arg = "NS" }, { 0 }
	};
	const char *name = argv[0], *netns;
	struct kbloom_net *n = NULL;
	__u64 ports, members;
	int audit, ns_fd = -1, ret;
	char op[160];

	ret = xdp_arg_name(c, name);
	ret = ret ?: xkw_parse(c, argc - 1, argv + 1, kw);
	ret = ret ?: mcbf_create_args(c, kw, &ports, &members, &audit);
	ret = ret ?: xkw_netns(c, kw, &netns);
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
	ret = xdp_netns_open(c, netns, &ns_fd);
	ret = ret ?: mcbf_make(c, name, netns, ns_fd, (__u32)ports,
			       (__u32)members, audit, op, &n);
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

int mcbf_cmd_port(struct ctl *c, int argc, char **argv)
{
	struct xkw kw[] = { XKW_MCBF_SPEC, { .name = "netns", .arg = "NS" },
			    { 0 } };
	struct netinst m = { .ns_fd = -1 };
	struct kbloom_mcbf_port cur;
	struct kbloom_mcbf_spec spec;
	struct specarg a;
	const char *netns;
	int ifindex, ret;
	bool is_port;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: xkw_parse(c, argc - 2, argv + 2, kw);
	ret = ret ?: spec_parse(c, kw, &a);
	ret = ret ?: xkw_netns(c, kw, &netns);
	if (ret)
		return ret;
	ret = net_inst_open(c, &m, argv[0], netns, XK_MCBF);
	ret = ret ?: xdp_port(c, m.op, m.ns_fd, m.netns, argv[1], &ifindex);
	if (ret)
		goto out;
	is_port = !kbloom_mcbf_port_get(m.n, ifindex, &cur);
	ret = spec_final(c, &a, is_port ? &cur : NULL, &spec);
	ret = ret ?: port_rebuild(c, &m, argv[1], ifindex, &spec);
	if (!ret)
		xdp_notes(c);
out:
	net_inst_close(&m);
	return ret;
}
