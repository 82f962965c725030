// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_net: topologies, shortest-path trees and delivery trees.
 *
 * A topology is built as a list of nodes and undirected links, then
 * finalized into arrays: each node owns a contiguous range of global port
 * ids, and each port is one directed link (node -> peer_node) whose
 * reverse is the port at the other end.  Trees and SPTs are arrays over
 * those ids, allocated once per topology and reset in the time of the
 * last tree, so the per-group work allocates nothing.
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
	for (s = 0; !err && s < nsw; s++)
		for (i = 0; !err && i < h; i++)
			err = kb_topo_add_link(t, first + s, hid + s * h + i);
	return err;
}

static int topo_done(struct kb_topo *t, int err, struct kb_topo **tp)
{
	if (!err)
		err = kb_topo_finalize(t);
	if (err) {
		kb_topo_free(t);
		return err;
	}
	*tp = t;
	return 0;
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
	for (i = 0; !err && i + 1 < nsw; i++)
		err = kb_topo_add_link(t, i, i + 1);
	if (!err)
		err = add_hosts(t, 0, nsw, hosts_per_sw);
	return topo_done(t, err, tp);
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
	for (lvl = 0; !err && lvl < depth; lvl++) {
		err = add_nodes(t, width, KB_NODE_SWITCH, depth - lvl, &s);
		for (i = 0; !err && lvl && i < width; i++)
			err = kb_topo_add_link(t, first + i / fanout, s + i);
		first = s;
		if (lvl + 1 < depth)
			width *= fanout;
	}
	if (!err)
		err = add_hosts(t, first, width, hosts_per_leaf);
	return topo_done(t, err, tp);
}

int kb_topo_fat_tree(__u32 k, struct kb_topo **tp)
{
	__u32 h, core, agg, edge, pod, i, j;
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
	if (!err)
		err = add_nodes(t, k * h, KB_NODE_SWITCH, 2, &agg);
	if (!err)
		err = add_nodes(t, k * h, KB_NODE_SWITCH, 1, &edge);
	/* edge uplinks, then aggregation uplinks, then hosts */
	for (pod = 0; !err && pod < k; pod++)
		for (i = 0; !err && i < h; i++)
			for (j = 0; !err && j < h; j++)
				err = kb_topo_add_link(t, edge + pod * h + i,
						       agg + pod * h + j);
	for (pod = 0; !err && pod < k; pod++)
		for (j = 0; !err && j < h; j++)
			for (i = 0; !err && i < h; i++)
				err = kb_topo_add_link(t, agg + pod * h + j,
						       core + j * h + i);
	if (!err)
		err = add_hosts(t, edge, k * h, h);
	return topo_done(t, err, tp);
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
	if (!err)
		err = add_nodes(t, leaves, KB_NODE_SWITCH, 1, &leaf);
	for (i = 0; !err && i < leaves; i++)
		for (j = 0; !err && j < spines; j++)
			err = kb_topo_add_link(t, leaf + i, spine + j);
	if (!err)
		err = add_hosts(t, leaf, leaves, hosts_per_leaf);
	return topo_done(t, err, tp);
}

/* ---- shortest-path trees -------------------------------------------- */

int kb_spt_new(const struct kb_topo *t, struct kb_spt **sp)
{
	struct kb_spt *s;

	if (!t || !t->final || !sp)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->topo = t;
	s->src = KB_NONE;
	s->dist = malloc((size_t)t->nnodes * sizeof(*s->dist));
	s->parent_port = malloc((size_t)t->nnodes * sizeof(*s->parent_port));
	s->order = malloc((size_t)t->nnodes * sizeof(*s->order));
	if (!s->dist || !s->parent_port || !s->order) {
		kb_spt_free(s);
		return -ENOMEM;
	}
	*sp = s;
	return 0;
}

void kb_spt_free(struct kb_spt *s)
{
	if (!s)
		return;
	free(s->dist);
	free(s->parent_port);
	free(s->order);
	free(s);
}

/* Packets traverse switches; a host only sends (as the source). */
static inline bool relays(const struct kb_topo *t, __u32 n, __u32 src)
{
	return n == src || t->nodes[n].kind == KB_NODE_SWITCH;
}

static void spt_bfs(struct kb_spt *s, __u32 src)
{
	const struct kb_topo *t = s->topo;
	__u32 head = 0, tail = 0, n, p, end, v;

	for (n = 0; n < t->nnodes; n++) {
		s->dist[n] = KB_NONE;
		s->parent_port[n] = KB_NONE;
	}
	s->dist[src] = 0;
	s->order[tail++] = src;
	while (head < tail) {
		n = s->order[head++];
		if (!relays(t, n, src))
			continue;
		end = t->nodes[n].first_port + t->nodes[n].nports;
		for (p = t->nodes[n].first_port; p < end; p++) {
			v = t->ports[p].peer_node;
			if (s->dist[v] != KB_NONE)
				continue;
			s->dist[v] = s->dist[n] + 1;
			s->order[tail++] = v;
		}
	}
	s->nreach = tail;
}

/* The parent of @v among its equal-cost candidates, by hash of the seed. */
static __u32 spt_parent(const struct kb_spt *s, __u32 v, __u64 seed)
{
	const struct kb_topo *t = s->topo;
	__u32 p, end, cnt = 0, pick, first = t->nodes[v].first_port;
	__u32 u;

	end = first + t->nodes[v].nports;
	for (p = first; p < end; p++) {
		u = t->ports[p].peer_node;
		if (s->dist[u] + 1 == s->dist[v] && relays(t, u, s->src))
			cnt++;
	}
	pick = seed ? kb_reduce32((__u32)kb_fmix64(seed ^ ((__u64)v * KB_P1)),
				  cnt) : 0;
	for (p = first; p < end; p++) {
		u = t->ports[p].peer_node;
		if (s->dist[u] + 1 != s->dist[v] || !relays(t, u, s->src))
			continue;
		if (!pick--)
			return t->ports[p].peer;
	}
	return KB_NONE;
}

int kb_spt_compute(struct kb_spt *s, __u32 src, __u64 seed)
{
	__u32 i, v;

	if (!s || src >= s->topo->nnodes)
		return -EINVAL;
	s->src = src;
	spt_bfs(s, src);
	for (i = 1; i < s->nreach; i++) {
		v = s->order[i];
		s->parent_port[v] = spt_parent(s, v, seed);
	}
	return 0;
}

/* ---- delivery trees ------------------------------------------------- */

int kb_tree_new(const struct kb_topo *t, struct kb_tree **trp)
{
	struct kb_tree *tr;
	size_t nn;

	if (!t || !t->final || !trp)
		return -EINVAL;
	nn = t->nnodes;
	tr = calloc(1, sizeof(*tr));
	if (!tr)
		return -ENOMEM;
	tr->topo = t;
	tr->links = malloc(nn * sizeof(*tr->links));
	tr->nodes = malloc(nn * sizeof(*tr->nodes));
	tr->depth = malloc(nn * sizeof(*tr->depth));
	tr->in_port = malloc(nn * sizeof(*tr->in_port));
	tr->path = malloc(nn * sizeof(*tr->path));
	tr->member = calloc(nn, 1);
	tr->on_tree = calloc(t->nports ? t->nports : 1, 1);
	if (!tr->links || !tr->nodes || !tr->depth || !tr->in_port ||
	    !tr->path || !tr->member || !tr->on_tree) {
		kb_tree_free(tr);
		return -ENOMEM;
	}
	memset(tr->depth, 0xFF, nn * sizeof(*tr->depth));
	memset(tr->in_port, 0xFF, nn * sizeof(*tr->in_port));
	tr->src = KB_NONE;
	*trp = tr;
	return 0;
}

void kb_tree_free(struct kb_tree *tr)
{
	if (!tr)
		return;
	free(tr->links);
	free(tr->nodes);
	free(tr->depth);
	free(tr->in_port);
	free(tr->path);
	free(tr->member);
	free(tr->on_tree);
	free(tr);
}

int kb_tree_reset(struct kb_tree *tr, __u32 src)
{
	__u32 i, n;

	if (!tr || src >= tr->topo->nnodes)
		return -EINVAL;
	for (i = 0; i < tr->nnodes; i++) {
		n = tr->nodes[i];
		tr->depth[n] = KB_NONE;
		tr->in_port[n] = KB_NONE;
		tr->member[n] = 0;
	}
	for (i = 0; i < tr->nlinks; i++)
		tr->on_tree[tr->links[i]] = 0;
	tr->src = src;
	tr->nodes[0] = src;
	tr->depth[src] = 0;
	tr->nnodes = 1;
	tr->nlinks = 0;
	tr->nmembers = 0;
	tr->height = 0;
	return 0;
}

static void tree_link(struct kb_tree *tr, __u32 port)
{
	const struct kb_port *p = &tr->topo->ports[port];
	__u32 v = p->peer_node, d = tr->depth[p->node] + 1;

	tr->links[tr->nlinks++] = port;
	tr->on_tree[port] = 1;
	tr->depth[v] = d;
	tr->in_port[v] = p->peer;
	tr->nodes[tr->nnodes++] = v;
	if (d > tr->height)
		tr->height = d;
}

int kb_tree_add_link(struct kb_tree *tr, __u32 port)
{
	const struct kb_port *p;

	if (!tr || tr->src == KB_NONE || port >= tr->topo->nports)
		return -EINVAL;
	p = &tr->topo->ports[port];
	if (tr->depth[p->node] == KB_NONE || tr->depth[p->peer_node] != KB_NONE)
		return -EINVAL;
	tree_link(tr, port);
	return 0;
}

int kb_tree_add_member(struct kb_tree *tr, __u32 node)
{
	if (!tr || node >= tr->topo->nnodes || tr->depth[node] == KB_NONE)
		return -EINVAL;
	if (!tr->member[node]) {
		tr->member[node] = 1;
		tr->nmembers++;
	}
	return 0;
}

static int check_dsts(const struct kb_spt *s, const __u32 *dst, __u32 ndst)
{
	const struct kb_topo *t = s->topo;
	__u32 i;

	if (ndst > t->nhosts)
		return -E2BIG;
	if (ndst && !dst)
		return -EINVAL;
	for (i = 0; i < ndst; i++) {
		if (dst[i] >= t->nnodes || t->nodes[dst[i]].kind != KB_NODE_HOST ||
		    s->dist[dst[i]] == KB_NONE)
			return -EINVAL;
	}
	return 0;
}

/*
 * Join @v to the tree along the SPT: climb to the first node already in
 * the tree, then add the links top down.
 */
static void tree_join(struct kb_tree *tr, const struct kb_spt *s, __u32 v)
{
	const struct kb_topo *t = tr->topo;
	__u32 *path = tr->path, n = 0;

	while (tr->depth[v] == KB_NONE) {
		path[n++] = s->parent_port[v];
		v = t->ports[s->parent_port[v]].node;
	}
	while (n--)
		tree_link(tr, path[n]);
}

int kb_tree_build(struct kb_tree *tr, const struct kb_spt *s,
		  const __u32 *dst, __u32 ndst)
{
	__u32 i;
	int err;

	if (!tr || !s || s->topo != tr->topo || s->src == KB_NONE)
		return -EINVAL;
	err = check_dsts(s, dst, ndst);
	if (err)
		return err;
	kb_tree_reset(tr, s->src);
	for (i = 0; i < ndst; i++) {
		if (dst[i] == s->src)
			continue;
		tree_join(tr, s, dst[i]);
		kb_tree_add_member(tr, dst[i]);
	}
	return 0;
}
