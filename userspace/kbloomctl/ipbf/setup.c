// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: ipbf setup, a node's ports and link IDs from a topology in
 * one command.
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipbf.h"

/* ---- ipbf setup ------------------------------------------------------------- */

struct setup {
	const char *name;
	const char *netns;
	int ns_fd;
	struct topo tp;
	__u32 node;
	struct lidopt o;
	__u32 mode;
	__u32 ports;
	const char *topo_s, *node_s;
	struct kw_list devl;
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

static const struct kw setup_kw[] = {
	KW("topo", "TOPO", KWT_STR, struct setup, topo_s, .required = true),
	KW("node", "NODE", KWT_STR, struct setup, node_s, .required = true),
	KW("dev", "IFACE...", KWT_LIST, struct setup, devl, .required = true),
	KW_LIDS(struct setup, o),
	KW_FILL(struct setup, o),
	KW_MODE(struct setup, mode),
	KW_PORTS(struct setup, ports),
	KW("netns", "NS", KWT_NETNS, struct setup, netns),
	{ 0 }
};

static const struct kw_table setup_table = { .kw = setup_kw };

static int setup_args(struct ctl *c, struct setup *s, int argc, char **argv)
{
	const struct kb_node *nd;
	char peer[64];
	__u64 given;
	int ret;

	s->name = argv[0];
	lidopt_init(&s->o);
	ret = xdp_arg_name(c, s->name);
	ret = ret ?: kw_parse(c, &setup_table, argc - 1, argv + 1, s, &given);
	if (ret)
		return ret;
	lidopt_given(&s->o, &setup_table, given);
	s->dev = s->devl.v;
	s->ndev = s->devl.n;
	ret = net_arg_devs(c, s->ndev, s->dev);
	ret = ret ?: topo_load(c, s->topo_s, &s->tp);
	if (ret)
		return ret;
	ret = topo_node(c, &s->tp, "node", s->node_s, &s->node);
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
				s->ports, &cfg, op, &n);
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

int ipbf_cmd_setup(struct ctl *c, int argc, char **argv)
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
