// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: ipbf create and ipbf config.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipbf.h"

/* ---- ipbf create, config ------------------------------------------------- */

void cfg_of(const struct lidopt *o, struct kbloom_ipbf_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->fill_limit = o->fill;
	cfg->d = o->d;
	cfg->k = o->k;
	cfg->seed = o->seed;
}

static bool cfg_same(const struct kbloom_ipbf_cfg *a,
		     const struct kbloom_ipbf_cfg *b)
{
	return a->fill_limit == b->fill_limit && a->d == b->d &&
	       a->k == b->k && a->seed == b->seed;
}

/*
 * Make ipbf instance @name with @cfg (@ports: 0 for the default), its
 * namespace recorded.  *@np: the handle; exit code.
 */
int ipbf_make(struct ctl *c, const char *name, const char *netns,
	      int ns_fd, __u32 ports, const struct kbloom_ipbf_cfg *cfg,
	      const char *op, struct kbloom_net **np)
{
	struct kbloom_net_opts o;
	int ret;

	net_opts(&o, netns);
	o.max_ports = ports;
	ret = kbloom_net_create(name, KBLOOM_NET_IPBF, &o, np);
	if (ret)
		return xdp_fail(c, ret, "%s: create", op);
	ret = kbloom_ipbf_set_config(*np, cfg);
	if (ret) {
		ret = xdp_fail(c, ret, "%s: config", op);
		goto undo;
	}
	return 0;
undo:
	kbloom_net_destroy(*np);
	*np = NULL;
	return ret;
}

/* An existing instance @name: an ipbf one whose config is @cfg (-exist). */
static int ipbf_exists(struct ctl *c, const char *name, const char *netns,
		       const struct kbloom_ipbf_cfg *cfg, const char *op)
{
	struct kbloom_ipbf_cfg cur;
	struct netinst m = { .ns_fd = -1 };
	int ret;

	if (xdp_kind_of(name) != XK_IPBF)
		return ctl_syserr(c, EEXIST, "an instance of another kind",
				  "%s", op);
	if (!c->set[CO_EXIST])
		return ctl_syserr(c, EEXIST, "-exist: not an error when its settings are the same",
				  "%s", op);
	ret = net_inst_open(c, &m, name, netns, XK_IPBF);
	if (ret)
		return ret;
	ret = kbloom_ipbf_get_config(m.n, &cur);
	if (ret)
		ret = xdp_fail(c, ret, "%s: config", op);
	else if (!cfg_same(&cur, cfg))
		ret = ctl_syserr(c, EEXIST, "with other settings; see ipbf config",
				 "%s", op);
	net_inst_close(&m);
	return ret;
}

/* the keywords of ipbf create and ipbf config */
struct cfg_args {
	struct lidopt o;
	__u32 ports;
	const char *netns;
};

static const struct kw create_kw[] = {
	KW_LIDS(struct cfg_args, o),
	KW_FILL(struct cfg_args, o),
	KW_PORTS(struct cfg_args, ports),
	KW("netns", "NS", KWT_NETNS, struct cfg_args, netns),
	{ 0 }
};

static const struct kw config_kw[] = {
	KW_LIDS(struct cfg_args, o),
	KW_FILL(struct cfg_args, o),
	KW("netns", "NS", KWT_NETNS, struct cfg_args, netns),
	{ 0 }
};

static const struct kw_table create_table = { .kw = create_kw };
static const struct kw_table config_table = { .kw = config_kw };

static int cfg_args(struct ctl *c, const struct kw_table *t, int argc,
		    char **argv, struct cfg_args *a)
{
	__u64 given;
	int ret;

	memset(a, 0, sizeof(*a));
	lidopt_init(&a->o);
	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: kw_parse(c, t, argc - 1, argv + 1, a, &given);
	if (!ret)
		lidopt_given(&a->o, t, given);
	return ret;
}

int ipbf_cmd_create(struct ctl *c, int argc, char **argv)
{
	const char *name = argv[0];
	struct kbloom_ipbf_cfg cfg;
	struct kbloom_net *n = NULL;
	struct cfg_args a;
	char op[160];
	int ns_fd = -1, ret;

	ret = cfg_args(c, &create_table, argc, argv, &a);
	if (ret)
		return ret;
	cfg_of(&a.o, &cfg);
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, name);
	xdp_log_reset();
	if (xdp_kind_of(name) != XK_NONE)
		return ipbf_exists(c, name, a.netns, &cfg, op);
	ret = xdp_netns_open(c, a.netns, &ns_fd);
	ret = ret ?: ipbf_make(c, name, a.netns, ns_fd, a.ports, &cfg, op,
			       &n);
	if (!ret)
		xdp_notes(c);
	kbloom_net_close(n);
	if (ns_fd >= 0)
		close(ns_fd);
	return ret;
}

static void config_show(struct ctl *c, struct netinst *m,
			const struct kbloom_ipbf_cfg *cfg)
{
	__u32 *ids = NULL, n = 0, i, att = 0;
	struct json j;

	net_port_ids(m->n, &ids, &n);
	for (i = 0; i < n; i++)
		att += net_attached(m->n, ids[i]);
	free(ids);
	if (!c->set[CO_JSON]) {
		printf("%s: fill limit %u, d %u, k %u, seed %llu; %u ports, %u attached\n",
		       m->name, cfg->fill_limit, cfg->d, cfg->k,
		       (unsigned long long)cfg->seed, n, att);
		return;
	}
	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "name", m->name);
	json_ku64(&j, "fill_limit", cfg->fill_limit);
	json_ku64(&j, "d", cfg->d);
	json_ku64(&j, "k", cfg->k);
	json_ku64(&j, "seed", cfg->seed);
	json_ku64(&j, "ports", n);
	json_ku64(&j, "attached", att);
	json_obj_end(&j);
	json_end(&j);
}

int ipbf_cmd_config(struct ctl *c, int argc, char **argv)
{
	struct netinst m = { .ns_fd = -1 };
	struct kbloom_ipbf_cfg cur, cfg;
	struct lidopt o;
	struct cfg_args a;
	int ret, nports;

	ret = cfg_args(c, &config_table, argc, argv, &a);
	if (ret)
		return ret;
	o = a.o;
	if (c->set[CO_JSON] &&
	    (o.seed_given || o.k_given || o.d_given || o.fill_given))
		return ctl_usage(c, "option -j: only to show the settings (without seed, k, d, fill)");
	ret = net_inst_open(c, &m, argv[0], a.netns, XK_IPBF);
	if (ret)
		return ret;
	ret = kbloom_ipbf_get_config(m.n, &cur);
	if (ret) {
		ret = xdp_fail(c, ret, "%s: config", m.op);
		goto out;
	}
	if (!o.seed_given && !o.k_given && !o.d_given && !o.fill_given) {
		if (!ctl_quiet(c))
			config_show(c, &m, &cur);
		ret = ctl_flush_stdout(c);
		goto out;
	}
	cfg = cur;
	if (o.seed_given)
		cfg.seed = o.seed;
	if (o.k_given)
		cfg.k = o.k;
	if (o.d_given)
		cfg.d = o.d;
	if (o.fill_given)
		cfg.fill_limit = o.fill;
	nports = kbloom_net_ports(m.n, NULL, 0);
	if (nports > 0 && (cfg.seed != cur.seed || cfg.k != cur.k ||
			   cfg.d != cur.d)) {
		ret = ctl_syserr(c, EBUSY, "the link IDs of its ports come from seed, k and d: set them before the ports, or make the node anew with ipbf setup",
				 "%s", m.op);
		goto out;
	}
	ret = kbloom_ipbf_set_config(m.n, &cfg);
	if (ret)
		ret = xdp_fail(c, ret, "%s: config", m.op);
	else
		xdp_notes(c);
out:
	net_inst_close(&m);
	return ret;
}
