// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: mcbf join and mcbf leave.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mcbf.h"

/* ---- mcbf join, leave ------------------------------------------------------------ */

static int group_cmp(const void *x, const void *y)
{
	const struct kbloom_addr_key *a = x, *b = y;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return memcmp(a->addr, b->addr, a->len);
}

static int group_find(const struct kbloom_addr_key *g, int n,
		      const struct kbloom_addr_key *k)
{
	int i;

	for (i = 0; i < n; i++)
		if (!group_cmp(&g[i], k))
			return i;
	return -1;
}

/* The groups of the command line: multicast, none twice. */
static int args_groups(struct ctl *c, int argc, char **argv,
		       struct kbloom_addr_key **out)
{
	struct kbloom_addr_key *g;
	int i, ret;

	g = calloc(argc, sizeof(*g));
	if (!g)
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	for (i = 0; i < argc; i++) {
		ret = xdp_arg_addr(c, "GROUP", argv[i], true, g[i].addr,
				   &g[i].len);
		if (!ret && group_find(g, i, &g[i]) >= 0)
			ret = ctl_usage(c, "GROUP '%s': given twice (allowed once)",
					argv[i]);
		if (ret) {
			free(g);
			return ret;
		}
	}
	*out = g;
	return 0;
}

/* The port's groups with @add joined (or left), into @g, @n. */
static int member_apply(struct ctl *c, struct netinst *m, const char *port,
			struct kbloom_addr_key *g, int *n,
			const struct kbloom_addr_key *add, int nadd, bool join)
{
	char a[64];
	int i, at;

	for (i = 0; i < nadd; i++) {
		at = group_find(g, *n, &add[i]);
		if (join && at < 0) {
			g[(*n)++] = add[i];
			continue;
		}
		if (!join && at >= 0) {
			g[at] = g[--(*n)];
			continue;
		}
		if (c->set[CO_EXIST])
			continue;
		xdp_addr_str(add[i].addr, add[i].len, a, sizeof(a));
		return ctl_syserr(c, join ? EEXIST : ENOENT, join ?
				  "joined already; -exist ignores it" :
				  "not joined; -exist ignores it",
				  "%s: %s %s", m->op, port, a);
	}
	return 0;
}

static int member_cmd(struct ctl *c, int argc, char **argv, bool join)
{
	struct kbloom_addr_key *add = NULL, *g = NULL;
	struct netinst m = { .ns_fd = -1 };
	struct kbloom_mcbf_port cur;
	const char *netns;
	int ifindex, n = 0, ret;

	ret = net_take_netns(c, &argc, argv, &netns);
	ret = ret ?: xdp_arg_name(c, argv[0]);
	if (ret)
		return ret;
	if (argc < 3)
		return ctl_usage(c, "missing %s (usage: %s %s %s)",
				 argc < 2 ? "PORT" : "GROUP", KBCTL_NAME,
				 c->cmd_path, c->cmd->synopsis);
	ret = args_groups(c, argc - 2, argv + 2, &add);
	if (ret)
		return ret;
	ret = net_inst_open(c, &m, argv[0], netns, XK_MCBF);
	ret = ret ?: net_inst_port(c, &m, argv[1], &ifindex);
	if (ret)
		goto out;
	ret = kbloom_mcbf_port_get(m.n, ifindex, &cur);
	if (ret) {
		ret = xdp_fail(c, ret, "%s: %s", m.op, argv[1]);
		goto out;
	}
	if (join)
		ret = groups_fit(c, &m, argv[1], add, argc - 2, &cur.cls,
				 "mcbf port NAME PORT classes LIST gives it a k");
	ret = ret ?: port_groups(c, &m, ifindex, &g, &n, argc - 2);
	ret = ret ?: member_apply(c, &m, argv[1], g, &n, add, argc - 2, join);
	if (ret)
		goto out;
	/* the library applies the change under its lock: never lost */
	ret = kbloom_mcbf_port_update(m.n, ifindex, add, argc - 2,
				      (join ? 0 : KBLOOM_MCBF_UPD_LEAVE) |
				      (c->set[CO_EXIST] ?
				       KBLOOM_MCBF_UPD_EXIST : 0));
	if (ret)
		ret = xdp_fail(c, ret, "%s: %s", m.op, argv[1]);
	else
		xdp_notes(c);
out:
	net_inst_close(&m);
	free(add);
	free(g);
	return ret;
}

int mcbf_cmd_join(struct ctl *c, int argc, char **argv)
{
	return member_cmd(c, argc, argv, true);
}

int mcbf_cmd_leave(struct ctl *c, int argc, char **argv)
{
	return member_cmd(c, argc, argv, false);
}
