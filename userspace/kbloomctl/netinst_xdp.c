// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: what xdp detach and xdp status do with an ipbf or mcbf
 * instance (libkbloom_xdp_net.h).
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

static void net_log_none(void *ctx, const char *msg)
{
}

/* What xdp status shows of an ipbf or mcbf instance. */
void net_summary_read(const char *name, const char *netns,
		      struct net_summary *s)
{
	struct kbloom_ipbf_cfg cfg;
	struct kbloom_net_opts o;
	struct kbloom_net *n;
	__u32 *ids = NULL, cnt = 0, i;
	int g;

	memset(s, 0, sizeof(*s));
	net_opts(&o, netns);
	o.log = net_log_none;	/* a status shows what it can */
	if (kbloom_net_open(name, &o, &n))
		return;
	if (net_port_ids(n, &ids, &cnt))
		goto out;
	s->ports = cnt;
	if (kbloom_net_kind(n) == KBLOOM_NET_IPBF) {
		if (kbloom_ipbf_get_config(n, &cfg))
			goto out;
		s->fill_limit = cfg.fill_limit;
		s->d = cfg.d;
		s->k = cfg.k;
		s->seed = cfg.seed;
	} else {
		if (kbloom_mcbf_get_flags(n, &s->flags))
			goto out;
		for (i = 0; i < cnt; i++) {
			g = kbloom_mcbf_groups(n, ids[i], NULL, 0);
			if (g > 0)
				s->members += g;
		}
	}
	s->valid = true;
out:
	free(ids);
	kbloom_net_close(n);
}

void net_summary_text(const struct net_summary *s, const char *k)
{
	if (!s->valid)
		return;
	if (k == XK_IPBF)
		printf("  ports %u, fill limit %u, d %u, k %u, seed %llu\n",
		       s->ports, s->fill_limit, s->d, s->k,
		       (unsigned long long)s->seed);
	else
		printf("  ports %u, memberships %llu, audit %s\n", s->ports,
		       (unsigned long long)s->members,
		       s->flags & KBLOOM_MCBF_F_AUDIT ? "on" : "off");
}

void net_summary_json(struct json *j, const struct net_summary *s,
		      const char *k)
{
	if (!s->valid)
		return;
	json_ku64(j, "ports", s->ports);
	if (k == XK_IPBF) {
		json_ku64(j, "fill_limit", s->fill_limit);
		json_ku64(j, "d", s->d);
		json_ku64(j, "k", s->k);
		json_ku64(j, "seed", s->seed);
	} else {
		json_ku64(j, "memberships", s->members);
		json_kbool(j, "audit", s->flags & KBLOOM_MCBF_F_AUDIT);
	}
}
