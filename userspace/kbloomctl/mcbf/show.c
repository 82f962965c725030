// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: mcbf ports, groups and stats.
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

#include "mcbf.h"

/* ---- mcbf ports, groups, stats ---------------------------------------------------- */

static void port_json(struct json *j, struct netinst *m, __u32 id,
		      const struct kbloom_mcbf_port *p,
		      const struct kbloom_mcbf_fill *f, int groups)
{
	char ifn[IF_NAMESIZE], tab[64];
	__u32 c;

	net_port_name(m, id, ifn, sizeof(ifn));
	classes_str(tab, sizeof(tab), &p->cls);
	json_obj(j);
	json_key(j, "port");
	if (strcmp(ifn, "?"))
		json_str(j, ifn);
	else
		json_null(j);
	json_ku64(j, "ifindex", id);
	json_kbool(j, "attached", net_attached(m->n, id));
	json_ku64(j, "m", f->m);
	json_kstr(j, "hash", hash_name(p->p.hash_id));
	json_ku64(j, "seed", p->p.seed);
	json_kstr(j, "classes", tab);
	json_ku64(j, "groups", groups > 0 ? groups : 0);
	json_ku64(j, "ones", f->ones);
	json_kdouble(j, "occupancy", f->m ? (double)f->ones / f->m : 0);
	json_key(j, "class");
	json_arr(j);
	for (c = 0; c < KB_MCBF_CLASSES; c++) {
		if (!p->cls.k[c])
			continue;
		json_obj(j);
		json_ku64(j, "class", c);
		json_ku64(j, "k", p->cls.k[c]);
		json_kdouble(j, "fpr_now", f->fpr[c]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void port_text(struct netinst *m, __u32 id,
		      const struct kbloom_mcbf_port *p,
		      const struct kbloom_mcbf_fill *f, int groups)
{
	char ifn[IF_NAMESIZE], tab[64], occ[24];

	net_port_name(m, id, ifn, sizeof(ifn));
	classes_str(tab, sizeof(tab), &p->cls);
	snprintf(occ, sizeof(occ), "%.2f%%",
		 f->m ? 100.0 * f->ones / f->m : 0.0);
	printf("%-16s %7u %-8s %9llu %-7s %6d %9s  %s\n", ifn, id,
	       net_attached(m->n, id) ? "yes" : "no",
	       (unsigned long long)f->m, hash_name(p->p.hash_id),
	       groups > 0 ? groups : 0, occ, tab);
}

int mcbf_cmd_ports(struct ctl *c, int argc, char **argv)
{
	struct netinst m = { .ns_fd = -1 };
	struct kbloom_mcbf_fill f;
	struct kbloom_mcbf_port p;
	__u32 *ids = NULL, n = 0, i;
	struct json j;
	int g, ret;

	ret = net_list_open(c, argc, argv, 1, XK_MCBF, &m, &ids, &n);
	if (ret || ctl_quiet(c))
		goto out;
	if (!ctl_list_begin(c, &j))
		printf("%-16s %7s %-8s %9s %-7s %6s %9s  %s\n", "PORT",
		       "IFINDEX", "ATTACHED", "M", "HASH", "GROUPS",
		       "OCCUPANCY", "CLASSES (K OF CLASS 0,1,...)");
	for (i = 0; i < n; i++) {
		ret = kbloom_mcbf_port_get(m.n, ids[i], &p);
		ret = ret ?: kbloom_mcbf_port_fill(m.n, ids[i], &f);
		if (ret == -ENOENT)
			continue;	/* removed meanwhile */
		if (ret) {
			ret = xdp_fail(c, ret, "%s: port %u", m.op, ids[i]);
			goto out;
		}
		g = kbloom_mcbf_groups(m.n, ids[i], NULL, 0);
		if (c->set[CO_JSON])
			port_json(&j, &m, ids[i], &p, &f, g);
		else
			port_text(&m, ids[i], &p, &f, g);
	}
	ret = ctl_list_end(c, &j);
out:
	free(ids);
	net_inst_close(&m);
	return ret;
}

int mcbf_cmd_groups(struct ctl *c, int argc, char **argv)
{
	struct kbloom_addr_key *g = NULL;
	struct netinst m = { .ns_fd = -1 };
	char ifn[IF_NAMESIZE];
	__u32 *ids = NULL, n = 0, i;
	struct json j;
	int cnt, ret;

	ret = net_list_open(c, argc, argv, 2, XK_MCBF, &m, &ids, &n);
	if (ret || ctl_quiet(c))
		goto out;
	ctl_list_begin(c, &j);
	for (i = 0; i < n; i++) {
		free(g);
		ret = port_groups(c, &m, ids[i], &g, &cnt, 0);
		if (ret)
			goto out;
		net_port_name(&m, ids[i], ifn, sizeof(ifn));
		net_groups_one(c, &j, ifn, ids[i], g, cnt, group_class);
	}
	ret = ctl_list_end(c, &j);
out:
	free(g);
	free(ids);
	net_inst_close(&m);
	return ret;
}

static void stats_json(struct json *j, const char *ifn, __u32 id,
		       const struct kbloom_mcbf_stats *st)
{
	__u64 nonmember = st->tx_filtered + st->tx_leaked;

	json_obj(j);
	json_kstr(j, "port", ifn);
	json_ku64(j, "ifindex", id);
	json_ku64(j, "rx_packets", st->rx_packets);
	json_ku64(j, "rx_mcast", st->rx_mcast);
	json_ku64(j, "rx_control", st->rx_control);
	json_ku64(j, "rx_other", st->rx_other);
	json_ku64(j, "rx_malformed", st->rx_malformed);
	json_ku64(j, "rx_local", st->rx_local);
	json_ku64(j, "tx_seen", st->tx_seen);
	json_ku64(j, "tx_forwarded", st->tx_forwarded);
	json_ku64(j, "tx_flooded", st->tx_flooded);
	json_ku64(j, "tx_filtered", st->tx_filtered);
	json_ku64(j, "tx_unused", st->tx_unused);
	json_ku64(j, "tx_leaked", st->tx_leaked);
	json_ku64(j, "tx_errors", st->tx_errors);
	json_key(j, "leak_rate");
	if (nonmember)
		json_double(j, (double)st->tx_leaked / nonmember);
	else
		json_null(j);
	json_obj_end(j);
}

static void stats_text(const char *ifn, const struct kbloom_mcbf_stats *st)
{
	__u64 nonmember = st->tx_filtered + st->tx_leaked;
	char leak[24];

	if (nonmember)
		fmt_rate(leak, sizeof(leak), (double)st->tx_leaked / nonmember);
	else
		snprintf(leak, sizeof(leak), "-");
	printf("%-10s %8llu %8llu %8llu %9llu %8llu %6llu %6llu %6llu %9s\n",
	       ifn, (unsigned long long)st->rx_packets,
	       (unsigned long long)st->rx_mcast,
	       (unsigned long long)st->tx_seen,
	       (unsigned long long)st->tx_forwarded,
	       (unsigned long long)st->tx_filtered,
	       (unsigned long long)st->tx_unused,
	       (unsigned long long)st->tx_leaked,
	       (unsigned long long)st->tx_errors, leak);
}

int mcbf_cmd_stats(struct ctl *c, int argc, char **argv)
{
	struct netinst m = { .ns_fd = -1 };
	struct kbloom_mcbf_stats st;
	char ifn[IF_NAMESIZE];
	__u32 *ids = NULL, n = 0, i;
	struct json j;
	int ret;

	ret = net_list_open(c, argc, argv, 2, XK_MCBF, &m, &ids, &n);
	if (ret || ctl_quiet(c))
		goto out;
	if (!ctl_list_begin(c, &j)) {
		printf("%-10s %8s %8s %8s %9s %8s %6s %6s %6s %9s\n", "PORT",
		       "RX", "RX_MCAST", "TX_SEEN", "FORWARDED", "FILTERED",
		       "UNUSED", "LEAKED", "ERRORS", "LEAK_RATE");
	}
	for (i = 0; i < n; i++) {
		ret = kbloom_mcbf_stats(m.n, ids[i], &st);
		if (ret == -ENOENT)
			continue;
		if (ret) {
			ret = xdp_fail(c, ret, "%s: port %u", m.op, ids[i]);
			goto out;
		}
		net_port_name(&m, ids[i], ifn, sizeof(ifn));
		if (c->set[CO_JSON])
			stats_json(&j, ifn, ids[i], &st);
		else
			stats_text(ifn, &st);
	}
	ret = ctl_list_end(c, &j);
out:
	free(ids);
	net_inst_close(&m);
	return ret;
}
