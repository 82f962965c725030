// SPDX-License-Identifier: GPL-2.0
/*
 * kb_zf_build_nodes(): the zFilter kb_zf_build() chooses, and per node of
 * the tree the candidate links that match it, against a direct count of
 * each node's ports; its errno for bad input.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "libkbloom_net.h"
#include "core_util.h"

static __u32 rnd(struct cu_rng *r, __u32 n)
{
	return (__u32)(((cu_next(r) >> 32) * n) >> 32);
}

/* @g distinct hosts other than @src into @dst. */
static void draw_group(const struct kb_topo *t, struct cu_rng *r, __u32 src,
		       __u32 g, __u32 *dst)
{
	__u32 n = 0, h, i;

	while (n < g) {
		h = t->hosts[rnd(r, t->nhosts)];
		for (i = 0; i < n && dst[i] != h; i++)
			;
		if (h != src && i == n)
			dst[n++] = h;
	}
}

/* Node @u's candidate links that match @zf in tag set @tag, one by one. */
static __u32 node_matches(const struct kb_lids *l, const struct kb_tree *tr,
			  __u32 u, const struct kb_ipbf_zf *zf, __u32 tag)
{
	const struct kb_topo *t = tr->topo;
	__u32 p, end, n = 0;

	if (u != tr->src && t->nodes[u].kind != KB_NODE_SWITCH)
		return 0;
	end = t->nodes[u].first_port + t->nodes[u].nports;
	for (p = t->nodes[u].first_port; p < end; p++)
		if (p != tr->in_port[u] && !tr->on_tree[p] &&
		    kb_ipbf_zf_match(zf, kb_lid(l, tag, p)))
			n++;
	return n;
}

struct net {
	struct kb_topo *t;
	struct kb_spt *s;
	struct kb_tree *tr;
	struct kb_lids *l;
	__u32 *node_fp;
};

FIXTURE(zfn) {
	struct net n;
};

FIXTURE_SETUP(zfn)
{
	memset(&self->n, 0, sizeof(self->n));
	ASSERT_EQ(0, kb_topo_fat_tree(8, &self->n.t));
	ASSERT_EQ(0, kb_spt_new(self->n.t, &self->n.s));
	ASSERT_EQ(0, kb_tree_new(self->n.t, &self->n.tr));
	ASSERT_EQ(0, kb_lids_new(self->n.t, 77, 5, 8, &self->n.l));
	self->n.node_fp = calloc((size_t)self->n.t->nnodes * KB_IPBF_D_MAX,
				 sizeof(__u32));
	ASSERT_NE(NULL, self->n.node_fp);
}

FIXTURE_TEARDOWN(zfn)
{
	free(self->n.node_fp);
	kb_lids_free(self->n.l);
	kb_tree_free(self->n.tr);
	kb_spt_free(self->n.s);
	kb_topo_free(self->n.t);
}

/* The same choice as kb_zf_build(), and every node's count, d = 1 and 8. */
TEST_F(zfn, counts_per_node)
{
	struct net *n = &self->n;
	struct kb_zf_result a, b;
	struct cu_rng r = { 5 };
	__u32 dst[16], i, j, src, g, ntags, sum, with_fp = 0, trees = 0;

	for (i = 0; i < 400; i++) {
		src = n->t->hosts[rnd(&r, n->t->nhosts)];
		g = 2 + rnd(&r, 8);
		draw_group(n->t, &r, src, g, dst);
		ASSERT_EQ(0, kb_spt_compute(n->s, src, i + 1));
		ASSERT_EQ(0, kb_tree_build(n->tr, n->s, dst, g));
		ntags = i & 1 ? 8 : 1;
		if (kb_zf_build(n->l, n->tr, ntags, 128, &a))
			continue;
		memset(n->node_fp, 0xA5,
		       (size_t)n->tr->nnodes * ntags * sizeof(__u32));
		ASSERT_EQ(0, kb_zf_build_nodes(n->l, n->tr, ntags, 128, &b,
					       n->node_fp));
		ASSERT_EQ(a.tag, b.tag);
		ASSERT_EQ(a.fill, b.fill);
		ASSERT_EQ(a.fp, b.fp);
		ASSERT_EQ(a.candidates, b.candidates);
		ASSERT_EQ(0, memcmp(&a.zf, &b.zf, sizeof(a.zf)));
		for (j = 0, sum = 0; j < n->tr->nnodes; j++) {
			ASSERT_EQ(node_matches(n->l, n->tr, n->tr->nodes[j],
					       &b.zf, b.tag), n->node_fp[j]);
			sum += n->node_fp[j];
		}
		ASSERT_EQ(b.fp, sum);
		with_fp += b.fp > 0;
		trees++;
	}
	TH_LOG("%u trees, %u with matching candidates", trees, with_fp);
	ASSERT_GT(trees, 300);
	/* the per-node counts were put to the test */
	ASSERT_GT(with_fp, 50);
}

TEST_F(zfn, bad_input)
{
	struct net *n = &self->n;
	struct kb_zf_result z;
	__u32 dst[8], src = n->t->hosts[0];
	struct cu_rng r = { 9 };

	draw_group(n->t, &r, src, 8, dst);
	ASSERT_EQ(0, kb_spt_compute(n->s, src, 1));
	ASSERT_EQ(0, kb_tree_build(n->tr, n->s, dst, 8));
	EXPECT_EQ(-EINVAL, kb_zf_build_nodes(n->l, n->tr, 8, 128, &z, NULL));
	EXPECT_EQ(-EINVAL, kb_zf_build_nodes(NULL, n->tr, 8, 128, &z,
					     n->node_fp));
	EXPECT_EQ(-ERANGE, kb_zf_build_nodes(n->l, n->tr, 0, 128, &z,
					     n->node_fp));
	EXPECT_EQ(-ERANGE, kb_zf_build_nodes(n->l, n->tr, 8, 257, &z,
					     n->node_fp));
	EXPECT_EQ(-E2BIG, kb_zf_build_nodes(n->l, n->tr, 8, 1, &z,
					    n->node_fp));
}

TEST_HARNESS_MAIN
