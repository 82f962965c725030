// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: ipbf port, ports and stats.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipbf.h"

static const char *const role_words[] = { "forward", "local", NULL };

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

struct port_args {
	const char *link;
	__u32 role;		/* 1: local */
	const char *topo;
	const char *netns;
};

static const struct kw port_kw[] = {
	KW("link", "NODE:PORT", KWT_STR, struct port_args, link,
	   .required = true),
	KW("role", "forward|local", KWT_ENUM, struct port_args, role,
	   .words = role_words),
	KW("topo", "TOPO", KWT_STR, struct port_args, topo),
	KW("netns", "NS", KWT_NETNS, struct port_args, netns),
	{ 0 }
};

static const struct kw_table port_table = { .kw = port_kw };

/* link NODE:PORT, by name with topo TOPO */
static int port_link(const struct ctl *c, const struct port_args *a,
		     __u32 *node, __u32 *port)
{
	struct topo tp = { 0 };
	__u32 gp;
	int ret;

	if (!a->topo)
		return link_nums(c, a->link, node, port);
	ret = topo_load(c, a->topo, &tp);
	ret = ret ?: topo_link(c, &tp, "link", a->link, &gp);
	if (!ret) {
		*node = tp.t->ports[gp].node;
		*port = tp.t->ports[gp].local;
	}
	topo_free(&tp);
	return ret;
}

int ipbf_cmd_port(struct ctl *c, int argc, char **argv)
{
	struct netinst m = { .ns_fd = -1 };
	struct port_args a = { 0 };
	struct kbloom_ipbf_port rec;
	struct kbloom_ipbf_cfg cfg;
	__u32 node = 0, port = 0;
	int ifindex, ret;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: xdp_arg_ifname(c, "IFACE", argv[1]);
	ret = ret ?: kw_parse(c, &port_table, argc - 2, argv + 2, &a, NULL);
	if (ret)
		return ret;
	ret = port_link(c, &a, &node, &port);
	if (ret)
		return ret;
	ret = net_inst_open(c, &m, argv[0], a.netns, XK_IPBF);
	ret = ret ?: xdp_port(c, m.op, m.ns_fd, m.netns, argv[1], &ifindex);
	if (ret)
		goto out;
	ret = kbloom_ipbf_get_config(m.n, &cfg);
	if (ret) {
		ret = xdp_fail(c, ret, "%s: config", m.op);
		goto out;
	}
	lid_record(&cfg, node, port, a.role == 1, &rec);
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

int ipbf_cmd_ports(struct ctl *c, int argc, char **argv)
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

int ipbf_cmd_stats(struct ctl *c, int argc, char **argv)
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
