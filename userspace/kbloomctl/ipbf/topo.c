// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl ipbf: topologies (TOPO: a builder of libkbloom_net.h or a
 * topology file) and the names of their nodes, hosts and links.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ipbf.h"

static const char topo_allowed[] =
	"allowed: line:SWITCHES[:HOSTS], tree:DEPTH:FANOUT[:HOSTS], fat-tree:K, leaf-spine:LEAVES:SPINES[:HOSTS], file:PATH";

void topo_free(struct topo *tp)
{
	kb_topo_free(tp->t);
	free(tp->name);
	tp->t = NULL;
	tp->name = NULL;
}

/* Names of a builder's topology: switches first, then the hosts. */
static void topo_names_builder(struct topo *tp)
{
	const struct kb_topo *t = tp->t;
	__u32 i, sw = 0;

	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].kind == KB_NODE_SWITCH)
			snprintf(tp->name[i], TOPO_NAME_MAX, "s%u", sw++);
	for (i = 0; i < t->nhosts; i++)
		snprintf(tp->name[t->hosts[i]], TOPO_NAME_MAX, "h%u", i);
}

/*
 * Names of a topology file: the second word of its switch and host
 * statements, in order (the node numbers of kb_exp_topo_load(), which
 * has checked the file).
 */
static int topo_names_file(struct topo *tp, const char *path)
{
	char line[512], *w0, *w1, *save, *hash;
	__u32 i = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (i < tp->t->nnodes && fgets(line, sizeof(line), f)) {
		hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		save = NULL;
		w0 = strtok_r(line, " \t\r\n", &save);
		w1 = w0 ? strtok_r(NULL, " \t\r\n", &save) : NULL;
		if (!w1 || (strcmp(w0, "switch") && strcmp(w0, "host")))
			continue;
		snprintf(tp->name[i++], TOPO_NAME_MAX, "%s", w1);
	}
	fclose(f);
	return i == tp->t->nnodes ? 0 : -EIO;
}

/* "a:b:c" into at most @max numbers; how many, or -1. */
static int topo_nums(const char *s, __u32 *v, int max)
{
	char buf[64], *p, *save = NULL;
	__u64 x;
	int n = 0;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return -1;
	for (p = strtok_r(buf, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
		if (n == max || arg_u64(p, 0, 0xFFFFFFFFULL, &x))
			return -1;
		v[n++] = (__u32)x;
	}
	return n;
}

static int topo_build(const struct ctl *c, const char *s, struct kb_topo **t)
{
	static const struct {
		const char *kind;
		int min, max;
		const char *ranges;
	} kinds[] = {
		{ "line:", 1, 2, "line:SWITCHES 1..4096[:HOSTS per switch 0..256, default 1]" },
		{ "tree:", 2, 3, "tree:DEPTH 1..12:FANOUT 1..64[:HOSTS per leaf 1..256, default 1], at most 2^20 nodes" },
		{ "fat-tree:", 1, 1, "fat-tree:K, K even 2..64" },
		{ "leaf-spine:", 2, 3, "leaf-spine:LEAVES 1..4096:SPINES 1..256[:HOSTS per leaf 1..256, default 1]" },
	};
	__u32 v[3] = { 0, 0, 1 };
	size_t i, len;
	int n, ret = -EINVAL;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		len = strlen(kinds[i].kind);
		if (strncmp(s, kinds[i].kind, len))
			continue;
		n = topo_nums(s + len, v, kinds[i].max);
		if (n < kinds[i].min)
			return ctl_usage(c, "topo '%s': not %s", s,
					 kinds[i].ranges);
		if (i == 0)
			ret = kb_topo_line(v[0], n > 1 ? v[1] : 1, t);
		else if (i == 1)
			ret = kb_topo_tree(v[0], v[1], n > 2 ? v[2] : 1, t);
		else if (i == 2)
			ret = kb_topo_fat_tree(v[0], t);
		else
			ret = kb_topo_leaf_spine(v[0], v[1], n > 2 ? v[2] : 1,
						 t);
		if (ret == -ERANGE)
			return ctl_usage(c, "topo '%s': out of range (allowed: %s)",
					 s, kinds[i].ranges);
		if (ret)
			return ctl_syserr(c, ret, NULL, "%s: topo %s",
					  c->cmd_path, s);
		return 0;
	}
	return ctl_usage(c, "topo '%s': unknown (%s)", s, topo_allowed);
}

int topo_load(const struct ctl *c, const char *s, struct topo *tp)
{
	char why[256];
	int ret;

	memset(tp, 0, sizeof(*tp));
	tp->spec = s;
	if (!strncmp(s, "file:", 5)) {
		if (!s[5])
			return ctl_usage(c, "topo '%s': no file named (allowed: file:PATH)",
					 s);
		why[0] = 0;
		ret = kb_exp_topo_load(s + 5, &tp->t, why, sizeof(why));
		if (ret == -EINVAL)
			return ctl_usage(c, "topo %s: %s", s, why);
		if (ret)
			return ctl_syserr(c, ret, NULL, "%s: read topology file %s",
					  c->cmd_path, s + 5);
	} else {
		ret = topo_build(c, s, &tp->t);
		if (ret)
			return ret;
	}
	tp->name = calloc(tp->t->nnodes, sizeof(*tp->name));
	if (!tp->name) {
		topo_free(tp);
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	}
	if (strncmp(s, "file:", 5)) {
		topo_names_builder(tp);
		return 0;
	}
	ret = topo_names_file(tp, s + 5);
	if (ret) {
		topo_free(tp);
		return ctl_syserr(c, ret, "changed while read?",
				  "%s: read topology file %s", c->cmd_path,
				  s + 5);
	}
	return 0;
}

/* NODE: a name of the topology, or a node number. */
int topo_node(const struct ctl *c, const struct topo *tp,
	      const char *what, const char *s, __u32 *node)
{
	const struct kb_topo *t = tp->t;
	__u64 v;
	__u32 i;

	for (i = 0; i < t->nnodes; i++) {
		if (!strcmp(tp->name[i], s)) {
			*node = i;
			return 0;
		}
	}
	if (!arg_u64(s, 0, t->nnodes - 1, &v)) {
		*node = (__u32)v;
		return 0;
	}
	return ctl_usage(c, "%s '%s': no such node in topo %s (allowed: a name such as %s or %s, or a node number 0..%u)",
			 what, s, tp->spec, tp->name[0],
			 t->nhosts ? tp->name[t->hosts[0]] : tp->name[0],
			 t->nnodes - 1);
}

int topo_host(const struct ctl *c, const struct topo *tp,
	      const char *what, const char *s, __u32 *node)
{
	int ret = topo_node(c, tp, what, s, node);

	if (ret)
		return ret;
	if (tp->t->nodes[*node].kind != KB_NODE_HOST)
		return ctl_usage(c, "%s '%s': a switch (allowed: a host, such as %s)",
				 what, s, tp->t->nhosts ?
				 tp->name[tp->t->hosts[0]] : "h0");
	return 0;
}

/* NODE:PORT, a directed link: the global port. */
int topo_link(const struct ctl *c, const struct topo *tp,
	      const char *what, const char *s, __u32 *port)
{
	char node_s[128];
	const char *colon = strrchr(s, ':');
	__u32 node, np;
	__u64 v;
	int ret;

	if (!colon || colon == s || !colon[1] ||
	    (size_t)(colon - s) >= sizeof(node_s))
		return ctl_usage(c, "%s '%s': not NODE:PORT (allowed: a node and one of its local port numbers, such as %s:0)",
				 what, s, tp->name[0]);
	snprintf(node_s, sizeof(node_s), "%.*s", (int)(colon - s), s);
	ret = topo_node(c, tp, what, node_s, &node);
	if (ret)
		return ret;
	np = tp->t->nodes[node].nports;
	if (arg_u64(colon + 1, 0, np ? np - 1 : 0, &v) || !np)
		return ctl_usage(c, "%s '%s': %s has %u port%s (allowed: PORT 0..%u)",
				 what, s, tp->name[node], np, np == 1 ? "" : "s",
				 np ? np - 1 : 0);
	*port = kb_topo_port(tp->t, node, (__u32)v);
	return 0;
}

const char *link_str(const struct topo *tp, __u32 port, char *buf,
		     size_t len)
{
	const struct kb_port *p = &tp->t->ports[port];

	snprintf(buf, len, "%s:%u", tp->name[p->node], p->local);
	return buf;
}
