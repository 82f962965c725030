// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the ports of an mcast instance (a multicast switch made by
 * "xdp attach mcast"): join, leave, and the ports, groups and counters.
 *
 *   mcast join|leave NAME PORT GROUP... [netns NS]
 *   mcast ports NAME [netns NS]
 *   mcast groups|stats NAME [PORT] [netns NS]
 *   mcast config NAME [flood ports|stack|off] [netns NS]
 *   mcast sync NAME bridge BR ... (mcast_sync.c)
 *
 * A port forwards a group's packets when its blocked filter may hold the
 * group: a false positive is a packet leaked to a port that did not join,
 * which the egress program counts (tx_leaked) against the exact record
 * of memberships.  stats puts the leak rate measured next to the rate the
 * filter predicts for the groups it holds (fpr_now).
 *
 * In a kfunc instance ("xdp attach mcast ... variant kfunc") a port's
 * filter is a kbloom.ko filter: ports and stats show that filter's
 * numbers (KBLOOM_IOCTL_STAT) and its name.  In a cuckoo instance ("xdp
 * attach mcast ... filter cuckoo") M is the filter's slot bits, K 0,
 * OCCUPANCY its load and N_EST its occupied slots.  In a deletable
 * instance ("filter deletable", mcast_del.c) M is the body's bits, and
 * stats adds the leaves: in place, rebuilt, the share rebuilt against
 * the share predicted.
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "kbloomctl.h"
#include "libkbloom_xdp.h"

/*
 * Filter @id of a kfunc instance is the module filter named for it: its
 * name into @name and its numbers over @fi (all zero when there is no
 * such filter).  Return: 1 for a kfunc instance, 0 for map-backed (@fi
 * untouched, @name "").
 */
int xdp_module_info(const struct ctl *c, struct kbloom_xdp *x, __u32 id,
		    struct kbloom_xdp_filter_info *fi,
		    char name[KBLOOM_NAME_LEN])
{
	struct kbloom_stat st;
	int fd, ret = -ENOENT;

	name[0] = 0;
	if (kbloom_xdp_variant(x) != KBLOOM_XDP_VARIANT_KFUNC)
		return 0;
	if (kbloom_xdp_module_filter(x, id, name))
		name[0] = 0;
	fd = name[0] ? kbloom_dev_open(c->dev_path) : -1;
	if (fd >= 0)
		ret = kbloom_dev_stat(fd, name, &st);
	kbloom_dev_close(fd);
	fi->m = ret ? 0 : st.m;
	fi->ones = ret ? 0 : st.ones;
	fi->occupancy_ppm = ret ? 0 : st.occupancy_ppm;
	fi->n_est = ret ? 0 : st.n_est;
	fi->fpr_now_pico = ret ? 0 : st.fpr_now_pico;
	fi->params.k = ret ? 0 : st.k;
	fi->params.hash_id = ret ? 0 : st.hash_id;
	fi->params.seed = ret ? 0 : st.seed;
	fi->params.inserted = ret ? 0 : st.inserted;
	fi->params.capacity = ret ? 0 : st.capacity;
	fi->params.fpr_pico = ret ? 0 : st.fpr_pico;
	fi->params.type = ret ? 0 : st.type;
	return 1;
}

/*
 * The numbers of port @id's filter: a blocked filter's, or a cuckoo
 * filter's in the same fields (m: slot bits, occupancy: load, n_est:
 * occupied slots, k: 0).
 */
static int mc_filter_info(struct kbloom_xdp *x, __u32 id,
			  struct kbloom_xdp_filter_info *fi)
{
	struct kbloom_gate_cuckoo_info ci;
	const struct kbloom_cuckoo_params *p = &ci.params;
	int ret;

	if (kbloom_xdp_variant(x) == KBLOOM_XDP_VARIANT_DELETABLE)
		return mcast_del_filter_info(x, id, fi);
	if (kbloom_xdp_variant(x) != KBLOOM_XDP_VARIANT_CUCKOO)
		return kbloom_xdp_filter_info(x, id, fi);
	ret = kbloom_xdp_cuckoo_info(x, id, &ci);
	if (ret)
		return ret;
	memset(fi, 0, sizeof(*fi));
	fi->params.type = KBLOOM_TYPE_CUCKOO;
	fi->params.hash_id = p->hash_id;
	fi->params.seed = p->seed;
	fi->params.nblocks = p->nblocks;
	fi->params.inserted = p->inserted;
	fi->params.capacity = p->capacity;
	fi->params.fpr_pico = p->fpr_pico;
	fi->m = p->shape.buckets * p->shape.slots * p->shape.fp_bits;
	fi->ones = ci.used;
	fi->occupancy_ppm = ci.load_ppm;
	fi->n_est = ci.used;
	fi->fpr_now_pico = ci.fpr_now_pico;
	return 0;
}

struct mc {
	struct kbloom_xdp *x;
	const char *name;
	const char *netns;
	int ns_fd;
	char op[160];
};

static int mc_open(struct ctl *c, struct mc *m, const char *name,
		   const char *netns)
{
	int ret;

	m->x = NULL;
	m->ns_fd = -1;
	m->name = name;
	m->netns = netns;
	snprintf(m->op, sizeof(m->op), "%s %s", c->cmd_path, name);
	if (xdp_kind_of(name) == XK_MCAST) {
		ret = xdp_inst_ns(c, name, netns, true, &netns);
		if (ret)
			return ret;
		m->netns = netns;
	}
	ret = xdp_netns_open(c, netns, &m->ns_fd);
	return ret ?: xdp_open(c, name, netns, XK_MCAST, &m->x);
}

static void mc_close(struct mc *m)
{
	kbloom_xdp_close(m->x);
	if (m->ns_fd >= 0)
		close(m->ns_fd);
}

/* PORT: an interface that is a port of the instance. */
static int mc_port(struct ctl *c, struct mc *m, const char *s, int *ifindex)
{
	struct kbloom_xdp_filter_info fi;
	char why[160];
	int ret;

	ret = xdp_port(c, m->op, m->ns_fd, m->netns, s, ifindex);
	if (ret)
		return ret;
	if (!mc_filter_info(m->x, *ifindex, &fi))
		return 0;
	snprintf(why, sizeof(why), "%s is not a port of %s; xdp attach mcast %s dev %s",
		 s, m->name, m->name, s);
	return ctl_syserr(c, ENOENT, why, "%s: %s", m->op, s);
}

/* ---- join, leave -------------------------------------------------------- */

static int member_cmd(struct ctl *c, int argc, char **argv, bool join)
{
	const char *netns, *port;
	struct mc m = { .ns_fd = -1 };
	__u8 (*addr)[16] = NULL;
	__u32 *len = NULL;
	bool *done = NULL;
	int i, n, ifindex, ret;
	char a[64];

	ret = net_take_netns(c, &argc, argv, &netns);
	ret = ret ?: xdp_arg_name(c, argv[0]);
	if (ret)
		return ret;
	if (argc < 3)
		return ctl_usage(c, "missing %s (usage: %s %s %s)",
				 argc < 2 ? "PORT" : "GROUP", KBCTL_NAME,
				 c->cmd_path, c->cmd->synopsis);
	port = argv[1];
	n = argc - 2;
	addr = calloc(n, sizeof(*addr));
	len = calloc(n, sizeof(*len));
	done = calloc(n, sizeof(*done));
	if (!addr || !len || !done) {
		ret = ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
		goto out;
	}
	for (i = 0; i < n; i++) {
		ret = xdp_arg_addr(c, "GROUP", argv[i + 2], true, addr[i],
				   &len[i]);
		if (ret)
			goto out;
	}
	ret = mc_open(c, &m, argv[0], netns);
	ret = ret ?: mc_port(c, &m, port, &ifindex);
	if (ret)
		goto out;
	for (i = 0; i < n; i++) {
		ret = join ? kbloom_mcast_join(m.x, ifindex, addr[i], len[i]) :
			     kbloom_mcast_leave(m.x, ifindex, addr[i], len[i]);
		if (ret == (join ? -EEXIST : -ENOENT) && c->set[CO_EXIST])
			continue;
		if (!ret) {
			done[i] = true;
			continue;
		}
		xdp_addr_str(addr[i], len[i], a, sizeof(a));
		if (join && ret == -ENOENT) {
			/* the port's module filter: the library says which */
			ret = xdp_fail(c, ret, "%s: %s %s", m.op, port, a);
			goto undo;
		}
		ret = ctl_syserr(c, ret, ret == -EEXIST ?
				 "joined already; -exist ignores it" :
				 ret == -ENOENT ? "not joined; -exist ignores it" :
				 ret == -ENOSPC ? "mc_members is full (members N of xdp attach)" :
				 NULL, "%s: %s %s", m.op, port, a);
		goto undo;
	}
	xdp_notes(c);
	ret = KBCTL_OK;
	goto out;
undo:
	for (i = 0; i < n; i++)
		if (done[i]) {
			if (join)
				kbloom_mcast_leave(m.x, ifindex, addr[i], len[i]);
			else
				kbloom_mcast_join(m.x, ifindex, addr[i], len[i]);
		}
out:
	mc_close(&m);
	free(addr);
	free(len);
	free(done);
	return ret;
}

static int cmd_join(struct ctl *c, int argc, char **argv)
{
	return member_cmd(c, argc, argv, true);
}

static int cmd_leave(struct ctl *c, int argc, char **argv)
{
	return member_cmd(c, argc, argv, false);
}

/* ---- ports, groups, stats ---------------------------------------------------- */

/* The ports to show: PORT, or every port. */
static int mc_which(struct ctl *c, struct mc *m, int argc, char **argv,
		    __u32 **ids, __u32 *n)
{
	int ifindex, ret;

	if (argc < 2) {
		ret = kbloom_mcast_ports(m->x, ids, n);
		return ret ? xdp_fail(c, ret, "%s: read mc_params", m->op) : 0;
	}
	ret = mc_port(c, m, argv[1], &ifindex);
	if (ret)
		return ret;
	*ids = malloc(sizeof(**ids));
	if (!*ids)
		return ctl_syserr(c, ENOMEM, NULL, "%s", m->op);
	**ids = ifindex;
	*n = 1;
	return 0;
}

/* The start of a listing, as net_list_open() of ipbf and mcbf. */
static int mc_list_open(struct ctl *c, int argc, char **argv, int most,
			struct mc *m, __u32 **ids, __u32 *n)
{
	const char *netns;
	int ret;

	ret = net_list_args(c, &argc, argv, most, &netns);
	ret = ret ?: mc_open(c, m, argv[0], netns);
	return ret ?: mc_which(c, m, argc, argv, ids, n);
}

/*
 * fpr_now in percent; below the 1e-12 resolution: "<1e-10%", the
 * "<1e-12" of the stat commands (fmt_fpr_now()) in percent
 */
static void fpr_cell(char *buf, size_t len,
		     const struct kbloom_xdp_filter_info *fi)
{
	if (!fi->fpr_now_pico && fi->params.inserted)
		snprintf(buf, len, "<1e-10%%");
	else
		fmt_rate(buf, len, pico_to_double(fi->fpr_now_pico));
}

static int cmd_ports(struct ctl *c, int argc, char **argv)
{
	struct kbloom_xdp_filter_info fi;
	struct mc m = { .ns_fd = -1 };
	char ifn[IF_NAMESIZE], occ[24], fpr[24], mf[KBLOOM_NAME_LEN];
	__u32 *ids = NULL, n = 0, i;
	struct json j;
	int g, ret, kf;

	ret = mc_list_open(c, argc, argv, 1, &m, &ids, &n);
	if (ret || ctl_quiet(c))
		goto out;
	if (!ctl_list_begin(c, &j))
		printf("%-16s %7s %-8s %9s %3s %6s %9s %8s %9s%s\n", "PORT",
		       "IFINDEX", "ATTACHED", "M", "K", "GROUPS", "OCCUPANCY",
		       "N_EST", "FPR_NOW",
		       kbloom_xdp_variant(m.x) == KBLOOM_XDP_VARIANT_KFUNC ?
		       "  MODULE_FILTER" : "");
	for (i = 0; i < n; i++) {
		ret = mc_filter_info(m.x, ids[i], &fi);
		if (ret == -ENOENT)
			continue;	/* removed meanwhile */
		if (ret) {
			ret = xdp_fail(c, ret, "%s: port %u", m.op, ids[i]);
			goto out;
		}
		kf = xdp_module_info(c, m.x, ids[i], &fi, mf);
		g = kbloom_mcast_groups(m.x, ids[i], NULL, 0);
		xdp_port_label(m.ns_fd, ids[i], ifn, sizeof(ifn));
		if (c->set[CO_JSON]) {
			json_obj(&j);
			json_key(&j, "port");
			if (strcmp(ifn, "?"))
				json_str(&j, ifn);
			else
				json_null(&j);
			json_ku64(&j, "ifindex", ids[i]);
			json_kbool(&j, "attached", xdp_attached(kbloom_xdp_inst(m.x), ids[i]));
			json_ku64(&j, "m", fi.m);
			json_ku64(&j, "k", fi.params.k);
			json_ku64(&j, "groups", g > 0 ? g : 0);
			json_ku64(&j, "inserted", fi.params.inserted);
			json_ku64(&j, "ones", fi.ones);
			json_kdouble(&j, "occupancy", fi.occupancy_ppm / 1e6);
			json_ku64(&j, "n_est", fi.n_est);
			json_kdouble(&j, "fpr_now",
				     pico_to_double(fi.fpr_now_pico));
			if (kf) {
				json_key(&j, "module_filter");
				if (mf[0])
					json_str(&j, mf);
				else
					json_null(&j);
			}
			json_obj_end(&j);
			continue;
		}
		snprintf(occ, sizeof(occ), "%.2f%%", fi.occupancy_ppm / 1e4);
		fpr_cell(fpr, sizeof(fpr), &fi);
		printf("%-16s %7u %-8s %9llu %3u %6d %9s %8llu %9s", ifn,
		       ids[i], xdp_attached(kbloom_xdp_inst(m.x), ids[i]) ? "yes" : "no",
		       (unsigned long long)fi.m, fi.params.k, g > 0 ? g : 0,
		       occ, (unsigned long long)fi.n_est, fpr);
		if (kf)
			printf("  %s", mf[0] ? mf : "none");
		printf("\n");
	}
	ret = ctl_list_end(c, &j);
out:
	free(ids);
	mc_close(&m);
	return ret;
}

/* "static", "bridge", "static+bridge" */
static void sources_str(__u32 src, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", src & KBLOOM_MEMBER_STATIC ? "static" : "",
		 (src & KBLOOM_MEMBER_ALL) == KBLOOM_MEMBER_ALL ? "+" : "",
		 src & KBLOOM_MEMBER_BRIDGE ? "bridge" : "");
}

/* -j: "groups" (strings), "sources" (the same order), "router" */
static void groups_json(struct json *j, const char *ifn, __u32 id,
			const struct kbloom_mcast_member *g, int cnt)
{
	char a[64], src[32];
	int k, pass;

	json_obj(j);
	json_kstr(j, "port", ifn);
	json_ku64(j, "ifindex", id);
	for (pass = 0; pass < 2; pass++) {
		json_key(j, pass ? "sources" : "groups");
		json_arr(j);
		for (k = 0; k < cnt; k++) {
			if (!g[k].len)
				continue;
			xdp_addr_str(g[k].addr, g[k].len, a, sizeof(a));
			sources_str(g[k].sources, src, sizeof(src));
			json_str(j, pass ? src : a);
		}
		json_arr_end(j);
	}
	json_key(j, "router");
	for (k = 0; k < cnt && g[k].len; k++)
		;
	if (k < cnt) {
		sources_str(g[k].sources, src, sizeof(src));
		json_str(j, src);
	} else {
		json_null(j);
	}
	json_obj_end(j);
}

/*
 * One port's memberships: "PORT GROUP" for those of mcast join alone (as
 * mcbf and ipbf groups), "PORT GROUP SOURCE" for the others, "PORT router
 * SOURCE" for a router port.
 */
static void groups_one(const struct ctl *c, struct json *j, const char *ifn,
		       __u32 id, const struct kbloom_mcast_member *g, int cnt)
{
	char a[64], src[32];
	int k;

	if (c->set[CO_JSON]) {
		groups_json(j, ifn, id, g, cnt);
		return;
	}
	if (!cnt)
		printf("%s: no groups\n", ifn);
	for (k = 0; k < cnt; k++) {
		if (g[k].len)
			xdp_addr_str(g[k].addr, g[k].len, a, sizeof(a));
		else
			snprintf(a, sizeof(a), "router");
		sources_str(g[k].sources, src, sizeof(src));
		if (g[k].sources == KBLOOM_MEMBER_STATIC)
			printf("%s %s\n", ifn, a);
		else
			printf("%s %s %s\n", ifn, a, src);
	}
}

static int cmd_groups(struct ctl *c, int argc, char **argv)
{
	struct kbloom_mcast_member *g = NULL;
	struct mc m = { .ns_fd = -1 };
	char ifn[IF_NAMESIZE];
	__u32 *ids = NULL, n = 0, i;
	struct json j;
	int cnt, cap, ret;

	ret = mc_list_open(c, argc, argv, 2, &m, &ids, &n);
	if (ret || ctl_quiet(c))
		goto out;
	ctl_list_begin(c, &j);
	for (i = 0; i < n; i++) {
		cap = kbloom_mcast_members(m.x, ids[i], NULL, 0);
		cnt = cap;
		free(g);
		g = cnt > 0 ? calloc(cnt, sizeof(*g)) : NULL;
		if (cnt > 0 && g)
			cnt = kbloom_mcast_members(m.x, ids[i], g, cap);
		if (cnt > cap)
			cnt = cap;	/* joined meanwhile: not shown */
		if (cnt < 0 || (cnt > 0 && !g)) {
			ret = xdp_fail(c, cnt < 0 ? cnt : -ENOMEM,
				       "%s: port %u", m.op, ids[i]);
			goto out;
		}
		xdp_port_label(m.ns_fd, ids[i], ifn, sizeof(ifn));
		groups_one(c, &j, ifn, ids[i], g, cnt);
	}
	ret = ctl_list_end(c, &j);
out:
	free(g);
	free(ids);
	mc_close(&m);
	return ret;
}

static int cmd_stats(struct ctl *c, int argc, char **argv)
{
	struct kbloom_xdp_filter_info fi;
	struct kbloom_mcast_stats st;
	struct mc m = { .ns_fd = -1 };
	char ifn[IF_NAMESIZE], fpr[24], leak[24], mf[KBLOOM_NAME_LEN];
	__u32 *ids = NULL, n = 0, i;
	__u64 nonmember;
	struct json j;
	int ret;

	ret = mc_list_open(c, argc, argv, 2, &m, &ids, &n);
	if (ret || ctl_quiet(c))
		goto out;
	if (!ctl_list_begin(c, &j))
		printf("%-10s %8s %8s %8s %8s %9s %8s %8s %6s %6s %9s %9s\n",
		       "PORT", "RX", "RX_MCAST", "RX_LOCAL", "TX_SEEN",
		       "FORWARDED", "FLOODED", "FILTERED", "LEAKED", "ERRORS",
		       "FPR_NOW", "LEAK_RATE");
	for (i = 0; i < n; i++) {
		ret = kbloom_mcast_stats(m.x, ids[i], &st);
		ret = ret ?: mc_filter_info(m.x, ids[i], &fi);
		if (ret == -ENOENT)
			continue;
		if (ret) {
			ret = xdp_fail(c, ret, "%s: port %u", m.op, ids[i]);
			goto out;
		}
		xdp_module_info(c, m.x, ids[i], &fi, mf);
		xdp_port_label(m.ns_fd, ids[i], ifn, sizeof(ifn));
		/* copies of groups the port has not joined */
		nonmember = st.tx_filtered + st.tx_leaked;
		if (c->set[CO_JSON]) {
			json_obj(&j);
			json_kstr(&j, "port", ifn);
			json_ku64(&j, "ifindex", ids[i]);
			json_ku64(&j, "rx_packets", st.rx_packets);
			json_ku64(&j, "rx_mcast", st.rx_mcast);
			json_ku64(&j, "rx_control", st.rx_control);
			json_ku64(&j, "rx_other", st.rx_other);
			json_ku64(&j, "rx_malformed", st.rx_malformed);
			json_ku64(&j, "rx_local", st.rx_local);
			json_ku64(&j, "tx_seen", st.tx_seen);
			json_ku64(&j, "tx_forwarded", st.tx_forwarded);
			json_ku64(&j, "tx_flooded", st.tx_flooded);
			json_ku64(&j, "tx_filtered", st.tx_filtered);
			json_ku64(&j, "tx_leaked", st.tx_leaked);
			json_ku64(&j, "tx_errors", st.tx_errors);
			json_kdouble(&j, "fpr_now",
				     pico_to_double(fi.fpr_now_pico));
			json_key(&j, "leak_rate");
			if (nonmember)
				json_double(&j, (double)st.tx_leaked /
						nonmember);
			else
				json_null(&j);
			mcast_del_stats_json(&j, m.x, ids[i]);
			json_obj_end(&j);
			continue;
		}
		fpr_cell(fpr, sizeof(fpr), &fi);
		if (nonmember)
			fmt_rate(leak, sizeof(leak),
				 (double)st.tx_leaked / nonmember);
		else
			snprintf(leak, sizeof(leak), "-");
		printf("%-10s %8llu %8llu %8llu %8llu %9llu %8llu %8llu %6llu %6llu %9s %9s\n",
		       ifn, (unsigned long long)st.rx_packets,
		       (unsigned long long)st.rx_mcast,
		       (unsigned long long)st.rx_local,
		       (unsigned long long)st.tx_seen,
		       (unsigned long long)st.tx_forwarded,
		       (unsigned long long)st.tx_flooded,
		       (unsigned long long)st.tx_filtered,
		       (unsigned long long)st.tx_leaked,
		       (unsigned long long)st.tx_errors, fpr, leak);
	}
	if (!c->set[CO_JSON])
		mcast_del_stats_text(m.x, m.ns_fd, ids, n);
	ret = ctl_list_end(c, &j);
out:
	free(ids);
	mc_close(&m);
	return ret;
}

/* ---- config ------------------------------------------------------------------- */

static const char *const flood_words[] = { "ports", "stack", "off", NULL };
static const __u32 flood_vals[] = {
	0, KBLOOM_MCAST_F_LOCAL_STACK, KBLOOM_MCAST_F_LOCAL_FILTER,
};

struct config_args {
	__u32 flood;
};

static const struct kw config_kw[] = {
	KW("flood", "ports|stack|off", KWT_ENUM, struct config_args, flood,
	   .words = flood_words, .vals = flood_vals,
	   .help = "link-local groups: to every port, to the stack, or filtered"),
	{ 0 }
};

static const struct kw_table config_table = { .kw = config_kw };

static const char *flood_name(__u32 flags)
{
	return flags & KBLOOM_MCAST_F_LOCAL_STACK ? "stack" :
	       flags & KBLOOM_MCAST_F_LOCAL_FILTER ? "off" : "ports";
}

static void config_show(const struct ctl *c, __u32 flags)
{
	struct json j;

	if (ctl_quiet(c))
		return;
	if (!c->set[CO_JSON]) {
		printf("flood %s, audit %s\n", flood_name(flags),
		       flags & KBLOOM_MCAST_F_AUDIT ? "on" : "off");
		return;
	}
	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "flood", flood_name(flags));
	json_kbool(&j, "audit", flags & KBLOOM_MCAST_F_AUDIT);
	json_obj_end(&j);
	json_end(&j);
}

static int cmd_config(struct ctl *c, int argc, char **argv)
{
	struct mc m = { .ns_fd = -1 };
	struct config_args a = { 0 };
	const char *netns;
	__u64 given = 0;
	__u32 flags;
	int ret;

	ret = net_take_netns(c, &argc, argv, &netns);
	ret = ret ?: xdp_arg_name(c, argv[0]);
	ret = ret ?: kw_parse(c, &config_table, argc - 1, argv + 1, &a, &given);
	if (ret)
		return ret;
	ret = mc_open(c, &m, argv[0], netns);
	if (ret)
		goto out;
	ret = kbloom_mcast_flags(m.x, &flags);
	if (!ret && given) {
		flags = (flags & ~KBLOOM_MCAST_F_LOCAL_MASK) | a.flood;
		ret = kbloom_mcast_set_flags(m.x, flags);
	}
	if (ret) {
		ret = xdp_fail(c, ret, "%s", m.op);
		goto out;
	}
	if (!given)
		config_show(c, flags);
	ret = ctl_flush_stdout(c);
out:
	mc_close(&m);
	return ret;
}

/* ---- the table ---------------------------------------------------------------- */

static const struct ctl_cmd mcast_sub[] = {
	{
		.name = "join",
		.synopsis = "NAME PORT GROUP... [netns NS]",
		.summary = "port PORT joins groups: their packets are forwarded on it",
		.help =
"PORT is an interface (name or ifindex, in netns NS) attached with xdp\n"
"attach mcast NAME.  GROUP is an IPv4 group (224.0.0.0/4) or an IPv6 group\n"
"(ff00::/8).  When join returns, every later packet of the group is\n"
"forwarded on the port.  Every group is checked first; if one fails, the\n"
"groups joined by this command are left again.  -exist: a group joined\n"
"already is not an error.  On a kfunc instance the group is also added to\n"
"the port's module filter (xdp attach ... module-filter).\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = cmd_join,
	},
	{
		.name = "leave",
		.synopsis = "NAME PORT GROUP... [netns NS]",
		.summary = "port PORT leaves groups",
		.help =
"The membership is removed and the port's filter rewritten from the groups\n"
"still joined, so that none of those is missed meanwhile.  -exist: a group\n"
"not joined is not an error.  On a kfunc instance the group is deleted\n"
"from the port's module filter, which must be a counting filter.  On a\n"
"cuckoo instance its fingerprint is deleted.  On a deletable instance\n"
"(xdp attach mcast ... filter deletable) a deletable group's bits are\n"
"cleared in place, and the filter is rewritten from the groups still\n"
"joined only when the group is not deletable (see mcast stats).\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = cmd_leave,
	},
	{
		.name = "ports",
		.synopsis = "NAME [netns NS]",
		.summary = "the ports and their filters: m, k, groups, occupancy, n_est, fpr_now",
		.help =
"fpr_now is the false-positive rate the port's filter predicts for the\n"
"groups it holds: the fraction of other groups' packets it lets through.\n"
"On a kfunc instance the numbers are the module filter's (MODULE_FILTER;\n"
"all 0 while it does not exist).\n",
		.min_args = 1,
		.max_args = 3,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_ports,
	},
	{
		.name = "groups",
		.synopsis = "NAME [PORT] [netns NS]",
		.summary = "the groups each port (or PORT) has joined",
		.min_args = 1,
		.max_args = 4,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_groups,
	},
	{
		.name = "stats",
		.synopsis = "NAME [PORT] [netns NS]",
		.summary = "per-port counters: forwarded, filtered, leaked, next to fpr_now",
		.help =
"RX: frames received on the port; RX_MCAST: multicast data frames it\n"
"broadcast to the other ports; RX_LOCAL: link-local group frames\n"
"(224.0.0.0/24, ff00::/15, ff02::/16; not IGMP, MLD), flooded or passed\n"
"to the stack (mcast config); TX_SEEN: copies offered to the port,\n"
"FORWARDED (its filter may hold the group: sent) + FLOODED (link-local:\n"
"sent unfiltered) + FILTERED (dropped) + ERRORS; LEAKED: forwarded\n"
"copies of groups the port has not joined (false positives; a router\n"
"port has joined every group).  LEAK_RATE = LEAKED / (LEAKED + FILTERED),\n"
"the false-positive rate measured on the copies of groups not joined;\n"
"FPR_NOW is the rate the filter predicts.  On a deletable instance a\n"
"second table: LEAVES (groups that left the port's filter), IN_PLACE\n"
"(deletable: their bits cleared), REBUILDS (not deletable: the filter\n"
"rewritten from the groups still joined), REBUILD_SHARE = REBUILDS /\n"
"LEAVES and PREDICTED, the share formula (2) of the deletable filter\n"
"predicts at the keys each leave found; -j adds leaves, in_place,\n"
"rebuilds, region_bits, collided, rebuild_share and\n"
"rebuild_share_predicted to each port.\n",
		.min_args = 1,
		.max_args = 4,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_stats,
	},
	{
		.name = "config",
		.synopsis = "NAME [flood ports|stack|off] [netns NS]",
		.summary = "what link-local groups do; without a keyword: the settings",
		.help =
"Link-local and reserved groups (IPv4 224.0.0.0/24 but IGMP; IPv6\n"
"ff00::/15 and ff02::/16 but MLD: neighbour discovery, mDNS, VRRP, OSPF)\n"
"are not joined by anyone and must reach every host (RFC 4541 2.1.2).\n"
"flood ports (default): every other port sends them, unfiltered\n"
"(RX_LOCAL, FLOODED in mcast stats); flood stack: they go to the stack,\n"
"where a Linux bridge the ports are in floods them (and the bridge's own\n"
"address sees them); flood off: filtered as any group (joined by hand).\n",
		.min_args = 1,
		.max_args = 5,
		.opts = CTL_OPT(CO_JSON),
		.kw = &config_table,
		.run = cmd_config,
	},
	{
		.name = "sync",
		.synopsis = "NAME bridge BR [mode follow|once] [netns NS]",
		.summary = "learn the memberships of bridge BR's snooping (foreground)",
		.help =
"The ports of NAME are ports of Linux bridge BR with multicast_snooping\n"
"on: the bridge snoops IGMP and MLD (kbloom passes them to the stack) and\n"
"keeps its multicast database (bridge mdb show).  sync makes the ports'\n"
"memberships of source \"bridge\" equal to it (mcast join's, \"static\",\n"
"are kept), then follows its notifications in the foreground: each\n"
"change, and each lost notification, is a full resync.  A router port of\n"
"the bridge receives every group.  One line per change (+ PORT GROUP,\n"
"- PORT GROUP); SIGINT or SIGTERM ends it.  mode once: one resync, exit.\n",
		.min_args = 1,
		.max_args = 7,
		.run = mcast_cmd_sync,
	},
	{ 0 }
};

const struct ctl_cmd mcast_cmds[] = {
	{
		.name = "mcast",
		.synopsis = "join|leave|ports|groups|stats|config|sync ...",
		.summary = "multicast switch ports: join and leave groups, counters",
		.sub = mcast_sub,
	},
	{ 0 }
};
