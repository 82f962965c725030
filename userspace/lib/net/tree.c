// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_net: shortest-path trees and delivery trees.
 *
 * An SPT from a source is a breadth-first search over the finalized
 * topology, every link one hop, through switches only (a host relays
 * nothing; the source sends).  Among the c equal-cost parents of node v
 * the SPT takes number floor(fmix64(seed ^ v P1)_32 c / 2^32), the first
 * with seed 0: per-group ECMP.  A delivery tree is the union of the SPT
 * paths from the source to the members.
 * Both are arrays over the topology's node and port ids, allocated once
 * per topology and reset in the time of the last tree, so that the
 * per-group work allocates nothing.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "libkbloom_net.h"

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
