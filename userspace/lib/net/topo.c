// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_net: topologies and their builders.
 *
 * A topology is built as a list of nodes and undirected links, then
 * finalized into arrays: each node owns a contiguous range of global port
 * ids, and each port is one directed link (node -> peer_node) whose
 * reverse is the port at the other end.  The builders: a line of
 * switches, a tree of given depth and fanout, a k-ary fat-tree (k^2 / 4
 * core, k^2 / 2 aggregation and k^2 / 2 edge switches, k^3 / 4 hosts), a
 * leaf-spine (every leaf linked to every spine).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "libkbloom_net.h"

#define TOPO_MAX_NODES	(1U << 24)
#define TOPO_MAX_PORTS	(1U << 26)

int kb_topo_new(struct kb_topo **tp)
{
	struct kb_topo *t;

	if (!tp)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	*tp = t;
	return 0;
}

void kb_topo_free(struct kb_topo *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t->ports);
	free(t->hosts);
	free(t->edges);
	free(t);
}

static int grow(void **p, __u32 *cap, __u32 need, size_t size)
{
	__u32 n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, (size_t)n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

int kb_topo_add_node(struct kb_topo *t, __u32 kind, __u32 level)
{
	struct kb_node *n;
	int err;

	if (!t || t->final || kind > KB_NODE_SWITCH || level > 255)
		return -EINVAL;
	if (t->nnodes >= TOPO_MAX_NODES)
		return -ERANGE;
	err = grow((void **)&t->nodes, &t->cap_nodes, t->nnodes + 1,
		   sizeof(*t->nodes));
	if (err)
		return err;
	n = &t->nodes[t->nnodes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->level = level;
	return t->nnodes++;
}

/* During building, nodes[].nports counts the links added so far. */
int kb_topo_add_link(struct kb_topo *t, __u32 a, __u32 b)
{
	struct kb_node *na, *nb;
	int err;

	if (!t || t->final || a >= t->nnodes || b >= t->nnodes || a == b)
		return -EINVAL;
	na = &t->nodes[a];
	nb = &t->nodes[b];
	if ((na->kind == KB_NODE_HOST && na->nports) ||
	    (nb->kind == KB_NODE_HOST && nb->nports))
		return -EINVAL;
	if (na->nports == 0xFFFF || nb->nports == 0xFFFF ||
	    t->nedges >= TOPO_MAX_PORTS / 2)
		return -ERANGE;
	err = grow((void **)&t->edges, &t->cap_edges, 2 * t->nedges + 2,
		   sizeof(*t->edges));
	if (err)
		return err;
	t->edges[2 * t->nedges] = a;
	t->edges[2 * t->nedges + 1] = b;
	t->nedges++;
	na->nports++;
	nb->nports++;
	return 0;
}

/* Any node linked twice to the same peer?  @mark: nnodes entries. */
static bool has_duplicate(const struct kb_topo *t, __u32 *mark)
{
	__u32 n, p;

	for (n = 0; n < t->nnodes; n++)
		mark[n] = KB_NONE;
	for (n = 0; n < t->nnodes; n++) {
		for (p = 0; p < t->nodes[n].nports; p++) {
			__u32 q = t->ports[t->nodes[n].first_port + p].peer_node;

			if (mark[q] == n)
				return true;
			mark[q] = n;
		}
	}
	return false;
}

static void fill_ports(struct kb_topo *t, struct kb_port *ports, __u32 *next)
{
	__u32 e, a, b, pa, pb;

	for (e = 0; e < t->nedges; e++) {
		a = t->edges[2 * e];
		b = t->edges[2 * e + 1];
		pa = next[a]++;
		pb = next[b]++;
		ports[pa] = (struct kb_port){ a, pb, b, pa - t->nodes[a].first_port };
		ports[pb] = (struct kb_port){ b, pa, a, pb - t->nodes[b].first_port };
	}
}

int kb_topo_finalize(struct kb_topo *t)
{
	__u32 *next = NULL, *hosts = NULL;
	struct kb_port *ports = NULL;
	__u32 n, np = 0, nh = 0, maxd = 0;
	int err = -ENOMEM;

	if (!t || t->final || !t->nnodes)
		return -EINVAL;
	next = malloc((size_t)t->nnodes * sizeof(*next));
	hosts = malloc((size_t)t->nnodes * sizeof(*hosts));
	ports = malloc((size_t)(2 * t->nedges + 1) * sizeof(*ports));
	if (!next || !hosts || !ports)
		goto out_free;
	for (n = 0; n < t->nnodes; n++) {
		t->nodes[n].first_port = np;
		next[n] = np;
		np += t->nodes[n].nports;
		if (t->nodes[n].nports > maxd)
			maxd = t->nodes[n].nports;
		if (t->nodes[n].kind == KB_NODE_HOST)
			hosts[nh++] = n;
	}
	fill_ports(t, ports, next);
	t->ports = ports;
	if (has_duplicate(t, next)) {
		t->ports = NULL;
		err = -EEXIST;
		goto out_free;
	}
	t->nports = np;
	t->nhosts = nh;
	t->hosts = hosts;
	t->max_degree = maxd;
	t->final = 1;
	free(next);
	free(t->edges);
	t->edges = NULL;
	t->cap_edges = 0;
	return 0;

out_free:
	free(ports);
	free(hosts);
	free(next);
	return err;
}

/* Add @n nodes of one kind and level; return the first id. */
static int add_nodes(struct kb_topo *t, __u32 n, __u32 kind, __u32 level,
		     __u32 *first)
{
	__u32 i;
	int id;

	*first = t->nnodes;
	for (i = 0; i < n; i++) {
		id = kb_topo_add_node(t, kind, level);
		if (id < 0)
			return id;
	}
	return 0;
}

/* Attach @h hosts to each of @nsw switches first..first+nsw-1. */
static int add_hosts(struct kb_topo *t, __u32 first, __u32 nsw, __u32 h)
{
	__u32 s, i, hid;
	int err;

	err = add_nodes(t, nsw * h, KB_NODE_HOST, 0, &hid);
	if (err)
		return err;
	for (s = 0; s < nsw; s++) {
		for (i = 0; i < h; i++) {
			err = kb_topo_add_link(t, first + s, hid + s * h + i);
			if (err)
				return err;
		}
	}
	return 0;
}

/*
 * @h hosts on each of the switches first..first+nsw-1, then finalize @t
 * into *@tp.  On failure @t is freed.
 */
static int topo_finish(struct kb_topo *t, __u32 first, __u32 nsw, __u32 h,
		       struct kb_topo **tp)
{
	int err;

	err = add_hosts(t, first, nsw, h);
	if (err)
		goto err_free;
	err = kb_topo_finalize(t);
	if (err)
		goto err_free;
	*tp = t;
	return 0;

err_free:
	kb_topo_free(t);
	return err;
}

int kb_topo_line(__u32 nsw, __u32 hosts_per_sw, struct kb_topo **tp)
{
	struct kb_topo *t;
	__u32 s, i;
	int err;

	if (!tp)
		return -EINVAL;
	if (nsw < 1 || nsw > 4096 || hosts_per_sw > 256)
		return -ERANGE;
	err = kb_topo_new(&t);
	if (err)
		return err;
	err = add_nodes(t, nsw, KB_NODE_SWITCH, 1, &s);
	if (err)
		goto err_free;
	for (i = 0; i + 1 < nsw; i++) {
		err = kb_topo_add_link(t, i, i + 1);
		if (err)
			goto err_free;
	}
	return topo_finish(t, 0, nsw, hosts_per_sw, tp);

err_free:
	kb_topo_free(t);
	return err;
}

int kb_topo_tree(__u32 depth, __u32 fanout, __u32 hosts_per_leaf,
		 struct kb_topo **tp)
{
	__u32 lvl, first = 0, width = 1, total = 0, i, s;
	struct kb_topo *t;
	int err;

	if (!tp)
		return -EINVAL;
	if (depth < 1 || depth > 12 || fanout < 1 || fanout > 64 ||
	    hosts_per_leaf < 1 || hosts_per_leaf > 256)
		return -ERANGE;
	for (lvl = 0; lvl < depth; lvl++) {
		total += width;
		if (lvl + 1 < depth && (__u64)width * fanout > (1U << 20))
			return -ERANGE;
		if (lvl + 1 < depth)
			width *= fanout;
	}
	if ((__u64)total + (__u64)width * hosts_per_leaf > (1U << 20))
		return -ERANGE;
	err = kb_topo_new(&t);
	if (err)
		return err;
	/* level by level: the root (level depth) first, leaves (level 1) last */
	width = 1;
	for (lvl = 0; lvl < depth; lvl++) {
		err = add_nodes(t, width, KB_NODE_SWITCH, depth - lvl, &s);
		if (err)
			goto err_free;
		for (i = 0; lvl && i < width; i++) {
			err = kb_topo_add_link(t, first + i / fanout, s + i);
			if (err)
				goto err_free;
		}
		first = s;
		if (lvl + 1 < depth)
			width *= fanout;
	}
	return topo_finish(t, first, width, hosts_per_leaf, tp);

err_free:
	kb_topo_free(t);
	return err;
}

/*
 * The links of a k-ary fat-tree of h = k / 2: in pod p, edge switch i to
 * every aggregation switch j of the pod, then aggregation switch j to
 * the h core switches of group j.
 */
static int fat_tree_links(struct kb_topo *t, __u32 k, __u32 core, __u32 agg,
			  __u32 edge)
{
	__u32 h = k / 2, pod, i, j;
	int err;

	for (pod = 0; pod < k; pod++) {
		for (i = 0; i < h; i++) {
			for (j = 0; j < h; j++) {
				err = kb_topo_add_link(t, edge + pod * h + i,
						       agg + pod * h + j);
				if (err)
					return err;
			}
		}
	}
	for (pod = 0; pod < k; pod++) {
		for (j = 0; j < h; j++) {
			for (i = 0; i < h; i++) {
				err = kb_topo_add_link(t, agg + pod * h + j,
						       core + j * h + i);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

int kb_topo_fat_tree(__u32 k, struct kb_topo **tp)
{
	__u32 h, core, agg, edge;
	struct kb_topo *t;
	int err;

	if (!tp)
		return -EINVAL;
	if (k < 2 || k > 64 || k % 2)
		return -ERANGE;
	h = k / 2;
	err = kb_topo_new(&t);
	if (err)
		return err;
	err = add_nodes(t, h * h, KB_NODE_SWITCH, 3, &core);
	if (err)
		goto err_free;
	err = add_nodes(t, k * h, KB_NODE_SWITCH, 2, &agg);
	if (err)
		goto err_free;
	err = add_nodes(t, k * h, KB_NODE_SWITCH, 1, &edge);
	if (err)
		goto err_free;
	err = fat_tree_links(t, k, core, agg, edge);
	if (err)
		goto err_free;
	return topo_finish(t, edge, k * h, h, tp);

err_free:
	kb_topo_free(t);
	return err;
}

int kb_topo_leaf_spine(__u32 leaves, __u32 spines, __u32 hosts_per_leaf,
		       struct kb_topo **tp)
{
	__u32 leaf, spine, i, j;
	struct kb_topo *t;
	int err;

	if (!tp)
		return -EINVAL;
	if (leaves < 1 || leaves > 4096 || spines < 1 || spines > 256 ||
	    hosts_per_leaf < 1 || hosts_per_leaf > 256)
		return -ERANGE;
	err = kb_topo_new(&t);
	if (err)
		return err;
	err = add_nodes(t, spines, KB_NODE_SWITCH, 2, &spine);
	if (err)
		goto err_free;
	err = add_nodes(t, leaves, KB_NODE_SWITCH, 1, &leaf);
	if (err)
		goto err_free;
	for (i = 0; i < leaves; i++) {
		for (j = 0; j < spines; j++) {
			err = kb_topo_add_link(t, leaf + i, spine + j);
			if (err)
				goto err_free;
		}
	}
	return topo_finish(t, leaf, leaves, hosts_per_leaf, tp);

err_free:
	kb_topo_free(t);
	return err;
}
