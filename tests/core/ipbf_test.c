// SPDX-License-Identifier: GPL-2.0
/*
 * In-packet Bloom filters: the header helpers of uapi/kbloom_ipbf.h
 * (Elias gamma, stage records, link IDs), the topologies and trees of
 * libkbloom_net, LIPSIN zFilters (false-positive rate against the exact
 * formula, best of d tag sets), MSBF headers (false-positive free on line,
 * tree and fat-tree topologies), the simulator's hop and fill limits, and
 * the errno of bad input.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "libkbloom_net.h"
#include "core_util.h"

static __u32 rnd(struct cu_rng *r, __u32 n)
{
	return (__u32)(((cu_next(r) >> 32) * n) >> 32);
}

/* An independent Elias-gamma writer, MSB first, for the round trips. */
static void put_bit(__u8 *b, __u32 *pos, int v)
{
	if (v)
		b[*pos >> 3] |= 0x80 >> (*pos & 7);
	(*pos)++;
}

static void put_gamma(__u8 *b, __u32 *pos, __u32 m)
{
	int nbits = 0, i;

	while ((m >> nbits) > 1)
		nbits++;
	for (i = 0; i < nbits; i++)
		put_bit(b, pos, 0);
	for (i = nbits; i >= 0; i--)
		put_bit(b, pos, (m >> i) & 1);
}

/* ---- uapi helpers -------------------------------------------------- */

TEST(hdr_layout)
{
	struct kb_ipbf_hdr h;

	EXPECT_EQ(8, sizeof(struct kb_ipbf_hdr));
	EXPECT_EQ(0, (char *)&h.version - (char *)&h);
	EXPECT_EQ(2, (char *)&h.hop_limit - (char *)&h);
	EXPECT_EQ(3, (char *)&h.tag - (char *)&h);
	EXPECT_EQ(4, (char *)&h.nstages - (char *)&h);
	EXPECT_EQ(6, (char *)&h.inner_proto - (char *)&h);
	EXPECT_EQ(40, KB_IPBF_LIPSIN_LEN);
	EXPECT_EQ(0x88B5, KB_IPBF_ETH_P);
}

TEST(gamma_roundtrip)
{
	__u8 buf[16];
	__u32 m, shift, pos, len, v;
	__u64 w;

	for (m = 1; m <= KB_IPBF_STAGE_M_MAX; m++) {
		for (shift = 0; shift < 8; shift += (m < 300 ? 1 : 7)) {
			memset(buf, 0, sizeof(buf));
			pos = shift;
			put_gamma(buf, &pos, m);
			ASSERT_EQ(pos - shift, kb_ipbf_gamma_len(m));
			w = kb_ipbf_load_be64(buf, 8) << shift;
			len = 0;
			v = kb_ipbf_gamma_decode(w, 64 - shift, &len);
			ASSERT_EQ(m, v);
			ASSERT_EQ(kb_ipbf_gamma_len(m), len);
			/* exactly as many bits as the code: still fine */
			ASSERT_EQ(m, kb_ipbf_gamma_decode(w, len, &len));
			/* one bit short: malformed */
			ASSERT_EQ(0, kb_ipbf_gamma_decode(w, len - 1, &len));
		}
	}
	EXPECT_EQ(31, kb_ipbf_gamma_len(65535));
	EXPECT_EQ(1, kb_ipbf_gamma_len(1));
	EXPECT_EQ(3, kb_ipbf_gamma_len(2));
	EXPECT_EQ(3, kb_ipbf_gamma_len(3));
	EXPECT_EQ(5, kb_ipbf_gamma_len(4));
}

TEST(gamma_malformed)
{
	__u32 len = 77, z;

	/* all zeros, and every run of 16 or more leading zeros */
	EXPECT_EQ(0, kb_ipbf_gamma_decode(0, 64, &len));
	for (z = 16; z < 64; z++)
		EXPECT_EQ(0, kb_ipbf_gamma_decode(1ULL << (63 - z), 64, &len));
	/* 15 zeros is the longest code: 65535 and 32768 decode */
	EXPECT_EQ(65535, kb_ipbf_gamma_decode(0xFFFFULL << 33, 64, &len));
	EXPECT_EQ(31, len);
	EXPECT_EQ(32768, kb_ipbf_gamma_decode(1ULL << 48, 64, &len));
	/* nothing available */
	EXPECT_EQ(0, kb_ipbf_gamma_decode(1ULL << 63, 0, &len));
	EXPECT_EQ(31, len);	/* untouched by failures */
}

/* One stage record of m bits and k probes, written by the test. */
static __u32 make_stage(__u8 *b, __u32 m, __u32 k, __u32 fill_seed)
{
	struct cu_rng r = { fill_seed | 1 };
	__u32 pos = 0, i;

	put_gamma(b, &pos, m);
	for (i = 0; i < 4; i++)
		put_bit(b, &pos, ((k - 1) >> (3 - i)) & 1);
	for (i = 0; i < m; i++)
		put_bit(b, &pos, cu_next(&r) & 1);
	return (pos + 7) / 8;
}

TEST(stage_parse_edges)
{
	static const __u32 ms[] = { 1, 2, 7, 63, 64, 100, 1000, 65535 };
	struct kb_ipbf_stage st;
	__u32 i, k, bytes, avail;
	__u8 *b = calloc(1, 9000);

	ASSERT_NE(NULL, b);
	for (i = 0; i < ARRAY_SIZE(ms); i++) {
		for (k = 1; k <= 16; k += 5) {
			memset(b, 0, 9000);
			bytes = make_stage(b, ms[i], k, i * 31 + k);
			ASSERT_EQ(0, kb_ipbf_stage_parse(kb_ipbf_load_be64(b, 8),
							 bytes, &st));
			EXPECT_EQ(ms[i], st.m);
			EXPECT_EQ(k, st.k);
			EXPECT_EQ(bytes, st.bytes);
			EXPECT_EQ(kb_ipbf_gamma_len(ms[i]) + 4, st.off);
			/* truncated at every length: refused */
			for (avail = 0; avail < bytes; avail++)
				ASSERT_EQ(-1, kb_ipbf_stage_parse(
					kb_ipbf_load_be64(b, avail < 8 ? avail : 8),
					avail, &st));
		}
	}
	free(b);
}

TEST(link_ids)
{
	struct kb_ipbf_zf a, b, z;
	__u32 k, i;
	__u64 lh;

	for (k = KB_IPBF_K_MIN; k <= KB_IPBF_K_MAX; k++) {
		for (i = 0; i < 200; i++) {
			lh = kb_ipbf_link_hash(42, i, i % 7, k % 8);
			ASSERT_EQ(0, kb_ipbf_lid(lh, k, &a));
			ASSERT_EQ(k, kb_ipbf_zf_fill(&a));
		}
	}
	EXPECT_EQ(-1, kb_ipbf_lid(1, 0, &a));
	EXPECT_EQ(-1, kb_ipbf_lid(1, KB_IPBF_K_MAX + 1, &a));
	/* deterministic; node, port, tag and seed all matter */
	lh = kb_ipbf_link_hash(1, 2, 3, 4);
	EXPECT_EQ(lh, kb_ipbf_link_hash(1, 2, 3, 4));
	EXPECT_NE(lh, kb_ipbf_link_hash(0, 2, 3, 4));
	EXPECT_NE(lh, kb_ipbf_link_hash(1, 3, 3, 4));
	EXPECT_NE(lh, kb_ipbf_link_hash(1, 2, 4, 4));
	EXPECT_NE(lh, kb_ipbf_link_hash(1, 2, 3, 5));
	/* match and fill */
	kb_ipbf_lid(lh, 5, &a);
	kb_ipbf_lid(kb_ipbf_link_hash(1, 2, 3, 6), 5, &b);
	memset(&z, 0, sizeof(z));
	EXPECT_FALSE(kb_ipbf_zf_match(&z, &a));
	kb_ipbf_zf_or(&z, &a);
	EXPECT_TRUE(kb_ipbf_zf_match(&z, &a));
	kb_ipbf_zf_or(&z, &b);
	EXPECT_TRUE(kb_ipbf_zf_match(&z, &b));
	EXPECT_LE(kb_ipbf_zf_fill(&z), 10);
	memset(&z, 0xFF, sizeof(z));
	EXPECT_EQ(256, kb_ipbf_zf_fill(&z));
}

/* ---- topologies and trees ------------------------------------------ */

static void check_topo(struct __test_metadata *_metadata,
		       const struct kb_topo *t)
{
	__u32 p, n, hosts = 0;

	for (p = 0; p < t->nports; p++) {
		const struct kb_port *q = &t->ports[p];

		ASSERT_EQ(p, t->ports[q->peer].peer);
		ASSERT_EQ(q->node, t->ports[q->peer].peer_node);
		ASSERT_EQ(p, kb_topo_port(t, q->node, q->local));
	}
	for (n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].kind == KB_NODE_HOST) {
			ASSERT_EQ(1, t->nodes[n].nports);
			ASSERT_EQ(n, t->hosts[hosts]);
			hosts++;
		}
	}
	ASSERT_EQ(t->nhosts, hosts);
}

TEST(topologies)
{
	struct kb_topo *t;

	ASSERT_EQ(0, kb_topo_fat_tree(4, &t));
	EXPECT_EQ(36, t->nnodes);
	EXPECT_EQ(16, t->nhosts);
	EXPECT_EQ(96, t->nports);
	EXPECT_EQ(4, t->max_degree);
	check_topo(_metadata, t);
	/* the documented numbering: edge 0 of pod 1 is node 14 ... */
	EXPECT_EQ(1, t->nodes[14].level);
	EXPECT_EQ(6, t->ports[kb_topo_port(t, 14, 0)].peer_node);
	EXPECT_EQ(7, t->ports[kb_topo_port(t, 14, 1)].peer_node);
	EXPECT_EQ(t->hosts[4], t->ports[kb_topo_port(t, 14, 2)].peer_node);
	/* ... core 3 (j = 1, i = 1) reaches pod 2 through aggregation 1 */
	EXPECT_EQ(9, t->ports[kb_topo_port(t, 3, 2)].peer_node);
	EXPECT_EQ(3, t->ports[kb_topo_port(t, 9, 3)].peer_node);
	kb_topo_free(t);

	ASSERT_EQ(0, kb_topo_fat_tree(16, &t));
	EXPECT_EQ(320 + 1024, t->nnodes);
	EXPECT_EQ(1024, t->nhosts);
	EXPECT_EQ(6144, t->nports);
	check_topo(_metadata, t);
	kb_topo_free(t);

	ASSERT_EQ(0, kb_topo_leaf_spine(8, 4, 6, &t));
	EXPECT_EQ(12 + 48, t->nnodes);
	EXPECT_EQ(2 * (32 + 48), t->nports);
	check_topo(_metadata, t);
	kb_topo_free(t);

	ASSERT_EQ(0, kb_topo_line(3, 2, &t));
	EXPECT_EQ(9, t->nnodes);
	EXPECT_EQ(2 * (2 + 6), t->nports);
	check_topo(_metadata, t);
	kb_topo_free(t);

	ASSERT_EQ(0, kb_topo_tree(3, 2, 2, &t));	/* 7 switches */
	EXPECT_EQ(7 + 8, t->nnodes);
	EXPECT_EQ(2 * (6 + 8), t->nports);
	EXPECT_EQ(3, t->nodes[0].level);
	check_topo(_metadata, t);
	kb_topo_free(t);
}

TEST(spt_fat_tree)
{
	struct kb_topo *t;
	struct kb_spt *s;
	struct kb_tree *tr;
	__u32 h0, i;

	ASSERT_EQ(0, kb_topo_fat_tree(4, &t));
	ASSERT_EQ(0, kb_spt_new(t, &s));
	ASSERT_EQ(0, kb_tree_new(t, &tr));
	h0 = t->hosts[0];
	ASSERT_EQ(0, kb_spt_compute(s, h0, 7));
	/* same edge switch 2 hops, same pod 4, other pods 6 */
	EXPECT_EQ(2, s->dist[t->hosts[1]]);
	EXPECT_EQ(4, s->dist[t->hosts[2]]);
	EXPECT_EQ(4, s->dist[t->hosts[3]]);
	for (i = 4; i < 16; i++)
		EXPECT_EQ(6, s->dist[t->hosts[i]]);
	ASSERT_EQ(0, kb_tree_build(tr, s, t->hosts, 16));
	EXPECT_EQ(15, tr->nmembers);	/* the source is not one */
	EXPECT_EQ(tr->nnodes - 1, tr->nlinks);
	EXPECT_EQ(6, tr->height);
	for (i = 0; i < tr->nlinks; i++) {
		__u32 v = t->ports[tr->links[i]].peer_node;

		EXPECT_EQ(tr->depth[t->ports[tr->links[i]].node] + 1,
			  tr->depth[v]);
		EXPECT_EQ(s->dist[v], tr->depth[v]);
	}
	kb_tree_free(tr);
	kb_spt_free(s);
	kb_topo_free(t);
}

/* ---- zFilter false-positive rate ----------------------------------- */

static double binom(int n, int r)
{
	double v = 1.0;
	int i;

	for (i = 1; i <= r; i++)
		v = v * (n - r + i) / i;
	return v;
}

/* C(m - j, k) / C(m, k) = prod_{i<k} (m - j - i) / (m - i), exactly. */
static double avoid(int m, int k, int j)
{
	double v = 1.0;
	int i;

	for (i = 0; i < k; i++)
		v *= (double)(m - j - i) / (m - i);
	return v;
}

/*
 * The exact false-positive rate of a zFilter made of n link IDs against
 * an independent link ID, all of k distinct bits of m = 256 chosen
 * uniformly.  The test ID T is a false positive iff each of its k bits is
 * in the filter Z.  By symmetry fix T; by inclusion-exclusion over the set
 * J of T's bits missing from Z,
 *   P(T in Z) = sum_{j=0..k} (-1)^j C(k, j) P(j given bits all outside Z)
 * and one link ID avoids j given bits with probability
 * C(m - j, k) / C(m, k), independently for the n IDs:
 *   P = sum_{j=0..k} (-1)^j C(k, j) [C(m - j, k) / C(m, k)]^n.
 * (1 - (1 - 1/m)^(k n))^k is its with-replacement approximation; it
 * overestimates (a test ID drawn with replacement may have fewer than k
 * distinct bits to match): by 14% at n = 10, k = 5.
 */
static double zf_fpr_exact(int n, int k, int m)
{
	double sum = 0.0;
	int j;

	for (j = 0; j <= k; j++)
		sum += (j & 1 ? -1.0 : 1.0) * binom(k, j) *
		       pow(avoid(m, k, j), n);
	return sum;
}

static double zf_fpr_approx(int n, int k, int m)
{
	return pow(1.0 - pow(1.0 - 1.0 / m, (double)k * n), k);
}

/* Grow a random tree of @n links: random switch source, random edges. */
static void random_tree(struct __test_metadata *_metadata,
			const struct kb_topo *t, struct kb_tree *tr,
			struct cu_rng *r, __u32 n)
{
	__u32 src, u, p;

	do
		src = rnd(r, t->nnodes);
	while (t->nodes[src].kind != KB_NODE_SWITCH);
	ASSERT_EQ(0, kb_tree_reset(tr, src));
	while (tr->nlinks < n) {
		u = tr->nodes[rnd(r, tr->nnodes)];
		if (t->nodes[u].kind != KB_NODE_SWITCH)
			continue;
		p = t->nodes[u].first_port + rnd(r, t->nodes[u].nports);
		if (tr->depth[t->ports[p].peer_node] == KB_NONE)
			ASSERT_EQ(0, kb_tree_add_link(tr, p));
	}
}

/*
 * Sample size: per tree size n, T random trees on a k = 16 fat-tree (6144
 * directed links), fresh link IDs (a new seed) every 16 trees, every link
 * that is not a tree link tested: about 6130 tests per tree.  T is chosen
 * so that the expected number of false positives is at least 4000
 * (relative standard error of the count 1/sqrt(4000) = 1.6%, so +-10% is
 * 6 sigma) and T >= 1500 (the rate given one tree varies with its fill,
 * by about 25% relative for n = 10: over 1500 trees that adds 0.7%).  A
 * tree and a link outside it have independent IDs whatever the seed, so
 * sharing a seed between trees correlates trials but biases nothing.
 */
static void fpr_check(struct __test_metadata *_metadata, __u32 n)
{
	double p = zf_fpr_exact(n, KB_IPBF_K_DEFAULT, KB_IPBF_ZF_BITS);
	double approx = zf_fpr_approx(n, KB_IPBF_K_DEFAULT, KB_IPBF_ZF_BITS);
	struct cu_rng r = { 0x1BF5EEDULL + n };
	__u64 tests = 0, fps = 0;
	struct kb_ipbf_zf zf;
	struct kb_tree *tr;
	struct kb_lids *l = NULL;
	struct kb_topo *t;
	__u32 trial, T, i, q;
	double meas;

	ASSERT_EQ(0, kb_topo_fat_tree(16, &t));
	ASSERT_EQ(0, kb_tree_new(t, &tr));
	T = (__u32)ceil(4000.0 / (p * (t->nports - n)));
	if (T < 1500)
		T = 1500;
	for (trial = 0; trial < T; trial++) {
		if (trial % 16 == 0) {
			if (trial)
				kb_lids_free(l);
			ASSERT_EQ(0, kb_lids_new(t, cu_next(&r),
						 KB_IPBF_K_DEFAULT, 1, &l));
		}
		random_tree(_metadata, t, tr, &r, n);
		memset(&zf, 0, sizeof(zf));
		for (i = 0; i < tr->nlinks; i++)
			kb_ipbf_zf_or(&zf, kb_lid(l, 0, tr->links[i]));
		for (q = 0; q < t->nports; q++) {
			if (tr->on_tree[q])
				continue;
			tests++;
			fps += kb_ipbf_zf_match(&zf, kb_lid(l, 0, q));
		}
	}
	kb_lids_free(l);
	meas = (double)fps / tests;
	TH_LOG("n=%u links: trees %u, tests %llu, false positives %llu: "
	       "measured %.4e, exact %.4e (%+.1f%%), with replacement %.4e",
	       n, T, (unsigned long long)tests, (unsigned long long)fps, meas,
	       p, 100.0 * (meas - p) / p, approx);
	EXPECT_LT(fabs(meas - p), 0.10 * p);
	kb_tree_free(tr);
	kb_topo_free(t);
}

TEST(zf_fpr_10_links)
{
	fpr_check(_metadata, 10);
}

TEST(zf_fpr_20_links)
{
	fpr_check(_metadata, 20);
}

TEST(zf_fpr_35_links)
{
	fpr_check(_metadata, 35);
}

TEST(zf_fpr_formula)
{
	double one = 1.0 / binom(256, 5);

	/* k = 1: exactly the with-replacement form, 1 - (1 - 1/m)^n */
	EXPECT_GT(1e-12, fabs(zf_fpr_exact(7, 1, 256) -
			      zf_fpr_approx(7, 1, 256)));
	/*
	 * one link: a k-subset inside another one is the same subset (the
	 * alternating sum cancels to 1e-10: compare relatively)
	 */
	EXPECT_GT(1e-3, fabs(zf_fpr_exact(1, 5, 256) - one) / one);
	/* m = k: every ID is all the bits */
	EXPECT_GT(1e-12, fabs(zf_fpr_exact(3, 4, 4) - 1.0));
	/* the approximation is off by more than the test's tolerance */
	EXPECT_LT(1.10 * zf_fpr_exact(10, 5, 256), zf_fpr_approx(10, 5, 256));
}

/* ---- LIPSIN: best of d, simulation ---------------------------------- */

/* A random group of @g hosts other than @src. */
static void random_group(const struct kb_topo *t, struct cu_rng *r, __u32 src,
			 __u32 g, __u32 *dst)
{
	__u32 i, j, h;

	for (i = 0; i < g; i++) {
again:
		h = t->hosts[rnd(r, t->nhosts)];
		if (h == src)
			goto again;
		for (j = 0; j < i; j++)
			if (dst[j] == h)
				goto again;
		dst[i] = h;
	}
}

TEST(best_of_d_beats_d1)
{
	double fp1 = 0, fp8 = 0, leak1 = 0, leak8 = 0;
	struct kb_zf_result z1, z8;
	struct kb_sim_result r1, r8;
	__u8 h1[64], h8[64];
	struct cu_rng r = { 99 };
	struct kb_topo *t;
	struct kb_spt *s;
	struct kb_tree *tr;
	struct kb_lids *l;
	struct kb_sim *sim;
	__u32 dst[64], g, i, src, n = 0;

	ASSERT_EQ(0, kb_topo_fat_tree(8, &t));
	ASSERT_EQ(0, kb_spt_new(t, &s));
	ASSERT_EQ(0, kb_tree_new(t, &tr));
	ASSERT_EQ(0, kb_lids_new(t, 2024, 5, 8, &l));
	ASSERT_EQ(0, kb_sim_new(t, 0, &sim));
	for (i = 0; i < 1000; i++) {
		src = t->hosts[rnd(&r, t->nhosts)];
		g = 3 + rnd(&r, 8);
		random_group(t, &r, src, g, dst);
		ASSERT_EQ(0, kb_spt_compute(s, src, i + 1));
		ASSERT_EQ(0, kb_tree_build(tr, s, dst, g));
		if (kb_zf_build(l, tr, 1, 128, &z1) || kb_zf_build(l, tr, 8, 128, &z8))
			continue;
		n++;
		/* tag 0 is one of the 8 choices */
		ASSERT_LE(z8.fp, z1.fp);
		ASSERT_EQ(z1.fp, kb_zf_count_fp(l, tr, &z1.zf, z1.tag));
		fp1 += z1.fp;
		fp8 += z8.fp;
		kb_ipbf_write_lipsin(h1, sizeof(h1), tr->height, z1.tag, 0x0800,
				     &z1.zf);
		kb_ipbf_write_lipsin(h8, sizeof(h8), tr->height, z8.tag, 0x0800,
				     &z8.zf);
		ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, h1, 40, 128, &r1));
		ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, h8, 40, 128, &r8));
		/* no false negatives, whatever the tag */
		ASSERT_EQ(tr->nmembers, r1.delivered);
		ASSERT_EQ(tr->nmembers, r8.delivered);
		leak1 += (double)r1.tx_off / r1.tx_tree;
		leak8 += (double)r8.tx_off / r8.tx_tree;
	}
	ASSERT_GT(n, 800);
	TH_LOG("%u trees of 4..11 hosts on a k=8 fat-tree: matching candidates "
	       "per tree d=1 %.3f, d=8 %.3f; leakage ratio d=1 %.4f, d=8 %.4f",
	       n, fp1 / n, fp8 / n, leak1 / n, leak8 / n);
	EXPECT_LT(fp8, 0.5 * fp1);
	EXPECT_LT(leak8, leak1);
	kb_sim_free(sim);
	kb_lids_free(l);
	kb_tree_free(tr);
	kb_spt_free(s);
	kb_topo_free(t);
}

/*
 * A LIPSIN packet reaches every member, and its off-tree transmissions
 * from tree nodes are exactly the candidates the control plane counts
 * (plus, after a cascade back into the tree, a node's own ingress link).
 */
TEST(lipsin_sim_predicted)
{
	struct kb_zf_result z;
	struct kb_sim_result res;
	struct cu_rng r = { 5 };
	struct kb_topo *t;
	struct kb_spt *s;
	struct kb_tree *tr;
	struct kb_lids *l;
	struct kb_sim *sim;
	__u32 dst[40], i, j, n, src, u, g, pred, seen, fits = 0;
	const __u32 *trace;
	__u8 hdr[40], *hit;

	ASSERT_EQ(0, kb_topo_fat_tree(8, &t));
	ASSERT_EQ(0, kb_spt_new(t, &s));
	ASSERT_EQ(0, kb_tree_new(t, &tr));
	ASSERT_EQ(0, kb_lids_new(t, 77, 5, 8, &l));
	ASSERT_EQ(0, kb_sim_new(t, 0, &sim));
	hit = calloc(t->nports, 1);
	ASSERT_NE(NULL, hit);
	for (i = 0; i < 300; i++) {
		src = t->hosts[rnd(&r, t->nhosts)];
		g = 1 + rnd(&r, 10);
		random_group(t, &r, src, g, dst);
		ASSERT_EQ(0, kb_spt_compute(s, src, i));
		ASSERT_EQ(0, kb_tree_build(tr, s, dst, g));
		if (kb_zf_build(l, tr, 8, 128, &z))
			continue;	/* too large for 256 bits at 50% */
		fits++;
		ASSERT_EQ(40, kb_ipbf_write_lipsin(hdr, 40, tr->height, z.tag,
						   0x86DD, &z.zf));
		ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, 128, &res));
		ASSERT_EQ(tr->nmembers, res.delivered);
		ASSERT_EQ(0, res.truncated);
		ASSERT_LE(tr->nlinks, res.tx_tree);
		trace = kb_sim_trace(sim, &n);
		ASSERT_EQ(res.tx, n);
		memset(hit, 0, t->nports);
		pred = seen = 0;
		for (j = 0; j < n; j++) {
			u = t->ports[trace[j]].node;
			if (tr->on_tree[trace[j]] || tr->depth[u] == KB_NONE)
				continue;
			if (trace[j] == tr->in_port[u])
				continue;
			ASSERT_TRUE(kb_ipbf_zf_match(&z.zf,
						     kb_lid(l, z.tag, trace[j])));
			seen += !hit[trace[j]];
			hit[trace[j]] = 1;
		}
		pred = z.fp;
		ASSERT_EQ(pred, seen);
		/* a tree without false positives is followed exactly */
		if (!z.fp) {
			ASSERT_EQ(tr->nlinks, res.tx);
			ASSERT_EQ(0, res.leaked_hosts);
		}
	}
	EXPECT_LT(250, fits);
	free(hit);
	kb_sim_free(sim);
	kb_lids_free(l);
	kb_tree_free(tr);
	kb_spt_free(s);
	kb_topo_free(t);
}

TEST(sim_hop_and_fill_limits)
{
	struct kb_sim_result res;
	struct kb_ipbf_zf zf;
	struct kb_topo *t;
	struct kb_spt *s;
	struct kb_tree *tr;
	struct kb_lids *l;
	struct kb_sim *sim;
	struct kb_zf_result z;
	__u32 dst, src;
	__u8 hdr[40];

	/* line of 4 switches, one host each: host 0 -> host 3, 5 links */
	ASSERT_EQ(0, kb_topo_line(4, 1, &t));
	ASSERT_EQ(0, kb_spt_new(t, &s));
	ASSERT_EQ(0, kb_tree_new(t, &tr));
	ASSERT_EQ(0, kb_lids_new(t, 3, 5, 8, &l));
	ASSERT_EQ(0, kb_sim_new(t, 0, &sim));
	src = t->hosts[0];
	dst = t->hosts[3];
	ASSERT_EQ(0, kb_spt_compute(s, src, 0));
	ASSERT_EQ(0, kb_tree_build(tr, s, &dst, 1));
	ASSERT_EQ(5, tr->nlinks);
	ASSERT_EQ(0, kb_zf_build(l, tr, 8, 128, &z));
	ASSERT_EQ(0, z.fp);

	kb_ipbf_write_lipsin(hdr, 40, 5, z.tag, 0, &z.zf);
	ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, 128, &res));
	EXPECT_EQ(1, res.delivered);
	EXPECT_EQ(5, res.tx_tree);
	/* hop limit 0: the source drops it; 1: one link, then dropped */
	kb_ipbf_write_lipsin(hdr, 40, 0, z.tag, 0, &z.zf);
	ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, 128, &res));
	EXPECT_EQ(0, res.tx);
	EXPECT_EQ(1, res.drop_hop);
	kb_ipbf_write_lipsin(hdr, 40, 1, z.tag, 0, &z.zf);
	ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, 128, &res));
	EXPECT_EQ(1, res.tx);
	EXPECT_EQ(1, res.drop_hop);
	EXPECT_EQ(0, res.delivered);
	/* hop limit 4: one short */
	kb_ipbf_write_lipsin(hdr, 40, 4, z.tag, 0, &z.zf);
	ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, 128, &res));
	EXPECT_EQ(4, res.tx);
	EXPECT_EQ(0, res.delivered);

	/* an all-ones filter is dropped, not broadcast */
	memset(&zf, 0xFF, sizeof(zf));
	kb_ipbf_write_lipsin(hdr, 40, 5, 0, 0, &zf);
	ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, 128, &res));
	EXPECT_EQ(0, res.tx);
	EXPECT_EQ(1, res.drop_fill);
	ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, 256, &res));
	EXPECT_GT(res.tx, 5);		/* allowed: floods (hop limited) */
	/* exactly at the limit passes, one above is dropped */
	ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, z.fill, &res));
	kb_ipbf_write_lipsin(hdr, 40, 5, z.tag, 0, &z.zf);
	ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, z.fill, &res));
	EXPECT_EQ(0, res.drop_fill);
	EXPECT_EQ(1, res.delivered);
	ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, z.fill - 1, &res));
	EXPECT_EQ(1, res.drop_fill);
	/* the control plane refuses a tree over the limit */
	EXPECT_EQ(-E2BIG, kb_zf_build(l, tr, 8, z.fill / 2, &z));

	/* unknown version, unknown flag, reserved byte, truncated: dropped */
	kb_ipbf_write_lipsin(hdr, 40, 5, 0, 0, &zf);
	hdr[0] = 2;
	ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, 256, &res));
	EXPECT_EQ(1, res.drop_bad);
	EXPECT_EQ(0, res.tx);
	hdr[0] = 1;
	hdr[1] = 0x80;
	ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, 256, &res));
	EXPECT_EQ(1, res.drop_bad);
	hdr[1] = 0;
	hdr[5] = 1;
	ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, 256, &res));
	EXPECT_EQ(1, res.drop_bad);
	hdr[5] = 0;
	ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 39, 256, &res));
	EXPECT_EQ(1, res.drop_bad);
	hdr[3] = 8;	/* a tag set the nodes do not have (d = 8) */
	ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, 256, &res));
	EXPECT_EQ(1, res.drop_bad);

	kb_sim_free(sim);
	kb_lids_free(l);
	kb_tree_free(tr);
	kb_spt_free(s);
	kb_topo_free(t);
}

/* The transmission budget stops a flood and says so. */
TEST(sim_budget)
{
	struct kb_sim_result res;
	struct kb_ipbf_zf zf;
	struct kb_topo *t;
	struct kb_lids *l;
	struct kb_sim *sim;
	__u8 hdr[40];

	ASSERT_EQ(0, kb_topo_fat_tree(4, &t));
	ASSERT_EQ(0, kb_lids_new(t, 3, 5, 1, &l));
	ASSERT_EQ(0, kb_sim_new(t, 1000, &sim));
	memset(&zf, 0xFF, sizeof(zf));
	kb_ipbf_write_lipsin(hdr, 40, 255, 0, 0, &zf);
	ASSERT_EQ(0, kb_sim_run(sim, l, NULL, t->hosts[0], hdr, 40, 256, &res));
	EXPECT_EQ(1, res.truncated);
	EXPECT_EQ(1000, res.tx);
	kb_sim_free(sim);
	kb_lids_free(l);
	kb_topo_free(t);
}

/* ---- MSBF ---------------------------------------------------------- */

/* Every stage of @hdr: tree links match, candidate links do not. */
static void check_stages(struct __test_metadata *_metadata,
			 const struct kb_lids *l, const struct kb_tree *tr,
			 const __u8 *hdr, const struct kb_ipbf_info *in)
{
	const struct kb_topo *t = tr->topo;
	__u32 i, u, p, end, d;
	int match;

	for (i = 0; i < tr->nnodes; i++) {
		u = tr->nodes[i];
		d = tr->depth[u];
		if (d >= in->nstages ||
		    (u != tr->src && t->nodes[u].kind == KB_NODE_HOST))
			continue;
		end = t->nodes[u].first_port + t->nodes[u].nports;
		for (p = t->nodes[u].first_port; p < end; p++) {
			if (p == tr->in_port[u])
				continue;
			match = kb_ipbf_stage_match(hdr + in->stage_at[d],
						    in->stage[d].bytes,
						    &in->stage[d],
						    kb_lhash(l, in->hdr.tag, p));
			ASSERT_EQ(tr->on_tree[p], match);
		}
	}
}

static void msbf_check(struct __test_metadata *_metadata, struct kb_topo *t,
		       __u32 ngroups, __u32 gmax, __u32 flags, __u32 ntags,
		       double *avg_bytes)
{
	struct kb_msbf_params prm = { .flags = flags, .ntags = ntags,
				      .inner_proto = 0x0800 };
	struct cu_rng r = { 0xB10F + t->nnodes + flags };
	struct kb_ipbf_info *in = malloc(sizeof(*in));
	struct kb_msbf_info info;
	struct kb_sim_result res;
	__u32 *dst = malloc(t->nhosts * sizeof(*dst));
	__u8 *hdr = malloc(65536);
	struct kb_msbf *ms;
	struct kb_lids *l;
	struct kb_tree *tr;
	struct kb_spt *s;
	struct kb_sim *sim;
	__u32 i, g, src, bytes = 0;
	int len;

	ASSERT_NE(NULL, in);
	ASSERT_NE(NULL, dst);
	ASSERT_NE(NULL, hdr);
	ASSERT_EQ(0, kb_spt_new(t, &s));
	ASSERT_EQ(0, kb_tree_new(t, &tr));
	ASSERT_EQ(0, kb_lids_new(t, 11, 5, 8, &l));
	ASSERT_EQ(0, kb_msbf_new(t, &ms));
	ASSERT_EQ(0, kb_sim_new(t, 0, &sim));
	for (i = 0; i < ngroups; i++) {
		src = t->hosts[rnd(&r, t->nhosts)];
		g = 1 + rnd(&r, gmax < t->nhosts - 1 ? gmax : t->nhosts - 1);
		random_group(t, &r, src, g, dst);
		ASSERT_EQ(0, kb_spt_compute(s, src, i + 1));
		ASSERT_EQ(0, kb_tree_build(tr, s, dst, g));
		len = kb_msbf_build(ms, l, tr, &prm, hdr, 65536, &info);
		ASSERT_LT(0, len);
		ASSERT_EQ(info.bytes, len);
		ASSERT_EQ(tr->height, info.nstages);
		ASSERT_EQ(0, kb_ipbf_parse(hdr, len, in));
		ASSERT_EQ(len, in->len);
		ASSERT_EQ(KB_IPBF_F_MSBF, in->hdr.flags);
		ASSERT_EQ(info.tag, in->hdr.tag);
		check_stages(_metadata, l, tr, hdr, in);
		ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, len, 128, &res));
		ASSERT_EQ(0, res.tx_off);
		ASSERT_EQ(tr->nlinks, res.tx_tree);
		ASSERT_EQ(tr->nmembers, res.delivered);
		ASSERT_EQ(0, res.dup);
		ASSERT_EQ(0, res.leaked_hosts);
		ASSERT_EQ(0, res.drop_bad + res.drop_hop + res.truncated);
		bytes += len;
	}
	if (avg_bytes)
		*avg_bytes = (double)bytes / ngroups;
	kb_sim_free(sim);
	kb_msbf_free(ms);
	kb_lids_free(l);
	kb_tree_free(tr);
	kb_spt_free(s);
	free(hdr);
	free(dst);
	free(in);
}

TEST(msbf_fp_free_line)
{
	struct kb_topo *t;

	ASSERT_EQ(0, kb_topo_line(8, 3, &t));
	msbf_check(_metadata, t, 300, 24, 0, 1, NULL);
	msbf_check(_metadata, t, 100, 24, KB_MSBF_EXACT, 1, NULL);
	kb_topo_free(t);
}

TEST(msbf_fp_free_tree)
{
	struct kb_topo *t;

	ASSERT_EQ(0, kb_topo_tree(4, 3, 3, &t));	/* 40 switches */
	msbf_check(_metadata, t, 300, 81, 0, 1, NULL);
	msbf_check(_metadata, t, 100, 20, KB_MSBF_EXACT, 4, NULL);
	kb_topo_free(t);
}

TEST(msbf_fp_free_fat_tree)
{
	double def, exact, tags;
	struct kb_topo *t;

	ASSERT_EQ(0, kb_topo_fat_tree(8, &t));
	msbf_check(_metadata, t, 150, 127, 0, 1, &def);
	msbf_check(_metadata, t, 150, 127, KB_MSBF_EXACT, 1, &exact);
	msbf_check(_metadata, t, 150, 127, 0, 8, &tags);
	TH_LOG("k=8 fat-tree, groups of 1..127: MSBF header %.1f bytes "
	       "(exact scan %.1f, best of 8 tags %.1f)", def, exact, tags);
	EXPECT_LE(exact, def);
	EXPECT_LE(tags, def);
	kb_topo_free(t);
	ASSERT_EQ(0, kb_topo_fat_tree(16, &t));
	msbf_check(_metadata, t, 30, 1023, 0, 1, &def);
	TH_LOG("k=16 fat-tree, groups of 1..1023: MSBF header %.1f bytes", def);
	kb_topo_free(t);
}

static void lipsin_roundtrip(struct __test_metadata *_metadata)
{
	struct kb_ipbf_zf zf = { { 1, 0x8000000000000000ULL, 3, 5 } };
	struct kb_ipbf_info in;
	__u8 hdr[40];
	__u32 cut;

	ASSERT_EQ(40, kb_ipbf_write_lipsin(hdr, 40, 7, 3, 0x0800, &zf));
	EXPECT_EQ(1, hdr[8]);
	EXPECT_EQ(0x80, hdr[23]);
	ASSERT_EQ(0, kb_ipbf_parse(hdr, 40, &in));
	EXPECT_EQ(0, memcmp(&zf, &in.zf, sizeof(zf)));
	EXPECT_EQ(7, in.hdr.hop_limit);
	EXPECT_EQ(3, in.hdr.tag);
	EXPECT_EQ(40, in.len);
	for (cut = 0; cut < 40; cut++)
		ASSERT_EQ(-EBADMSG, kb_ipbf_parse(hdr, cut, &in));
	EXPECT_EQ(-EMSGSIZE, kb_ipbf_write_lipsin(hdr, 39, 7, 3, 0, &zf));
	EXPECT_EQ(-ERANGE, kb_ipbf_write_lipsin(hdr, 40, 7, 16, 0, &zf));
}

TEST(msbf_roundtrip_and_limits)
{
	struct kb_msbf_params prm = { .hop_limit = 9, .inner_proto = 0x86DD,
				      .k_min = 2, .k_max = 3 };
	struct kb_ipbf_info in;
	struct kb_msbf_info info;
	struct kb_msbf *ms;
	struct kb_lids *l;
	struct kb_tree *tr;
	struct kb_spt *s;
	struct kb_topo *t;
	__u8 hdr[512], copy[512];
	__u32 i, len, cut;

	ASSERT_EQ(0, kb_topo_fat_tree(4, &t));
	ASSERT_EQ(0, kb_spt_new(t, &s));
	ASSERT_EQ(0, kb_tree_new(t, &tr));
	ASSERT_EQ(0, kb_lids_new(t, 5, 5, 4, &l));
	ASSERT_EQ(0, kb_msbf_new(t, &ms));
	ASSERT_EQ(0, kb_spt_compute(s, t->hosts[0], 1));
	ASSERT_EQ(0, kb_tree_build(tr, s, t->hosts + 1, 9));
	len = kb_msbf_build(ms, l, tr, &prm, hdr, sizeof(hdr), &info);
	ASSERT_LT(8, len);
	ASSERT_EQ(0, kb_ipbf_parse(hdr, len, &in));
	EXPECT_EQ(1, in.hdr.version);
	EXPECT_EQ(9, in.hdr.hop_limit);
	EXPECT_EQ(6, in.hdr.nstages);
	EXPECT_EQ(0x86, hdr[6]);
	EXPECT_EQ(0xDD, hdr[7]);
	for (i = 0; i < in.nstages; i++) {
		EXPECT_EQ(info.stage_m[i], in.stage[i].m);
		EXPECT_EQ(info.stage_k[i], in.stage[i].k);
		EXPECT_EQ(info.stage_bytes[i], in.stage[i].bytes);
		EXPECT_LE(2, in.stage[i].k);
		EXPECT_GE(3, in.stage[i].k);
	}
	/* trailing inner packet bytes do not matter */
	ASSERT_EQ(0, kb_ipbf_parse(hdr, sizeof(hdr), &in));
	EXPECT_EQ(len, in.len);
	/* truncated anywhere: refused, and the simulator forwards nothing */
	for (cut = 0; cut < len; cut++)
		ASSERT_EQ(-EBADMSG, kb_ipbf_parse(hdr, cut, &in));
	/* a stage longer than the packet: refused */
	memcpy(copy, hdr, len);
	copy[KB_IPBF_HDR_LEN] = 0;	/* the first gamma gets 8+ zeros */
	copy[KB_IPBF_HDR_LEN + 1] = 0x01;
	EXPECT_EQ(-EBADMSG, kb_ipbf_parse(copy, len, &in));
	/* too small a buffer or limit: -EMSGSIZE, buffer untouched */
	memset(copy, 0xA5, sizeof(copy));
	EXPECT_EQ(-EMSGSIZE, kb_msbf_build(ms, l, tr, &prm, copy, len - 1,
					   NULL));
	EXPECT_EQ(0xA5, copy[0]);
	prm.max_bytes = len - 1;
	EXPECT_EQ(-EMSGSIZE, kb_msbf_build(ms, l, tr, &prm, copy, 512, NULL));
	prm.max_bytes = len;
	EXPECT_EQ(len, kb_msbf_build(ms, l, tr, &prm, copy, 512, NULL));
	EXPECT_EQ(0, memcmp(hdr, copy, len));

	lipsin_roundtrip(_metadata);
	kb_msbf_free(ms);
	kb_lids_free(l);
	kb_tree_free(tr);
	kb_spt_free(s);
	kb_topo_free(t);
}

/* ---- bad input ------------------------------------------------------ */

/* Objects of another topology are refused. */
static void other_topology(struct __test_metadata *_metadata,
			   const struct kb_topo *t, const struct kb_topo *t2,
			   const struct kb_lids *l, const struct kb_tree *tr,
			   struct kb_msbf *ms)
{
	struct kb_sim_result res;
	struct kb_zf_result z;
	struct kb_tree *tr2;
	struct kb_sim *sim;
	__u8 buf[64] = { 0 };

	ASSERT_EQ(0, kb_tree_new(t2, &tr2));
	ASSERT_EQ(0, kb_tree_reset(tr2, 0));
	EXPECT_EQ(-EINVAL, kb_zf_build(l, tr2, 8, 128, &z));
	EXPECT_EQ(-EINVAL, kb_msbf_build(ms, l, tr2, NULL, buf, 64, NULL));
	ASSERT_EQ(0, kb_sim_new(t, 0, &sim));
	EXPECT_EQ(-EINVAL, kb_sim_run(sim, l, tr2, 0, buf, 40, 128, &res));
	EXPECT_EQ(-ERANGE, kb_sim_run(sim, l, tr, 0, buf, 40, 0, &res));
	EXPECT_EQ(-EINVAL, kb_sim_run(sim, l, tr, t->nnodes, buf, 40, 128,
				      &res));
	kb_sim_free(sim);
	kb_tree_free(tr2);
}

TEST(bad_input)
{
	struct kb_msbf_params prm = { 0 };
	struct kb_zf_result z;
	struct kb_topo *t, *t2, *u;
	struct kb_spt *s;
	struct kb_tree *tr;
	struct kb_lids *l;
	struct kb_msbf *ms;
	__u32 dst[20], i;
	__u8 buf[64];

	EXPECT_EQ(-ERANGE, kb_topo_fat_tree(3, &t));
	EXPECT_EQ(-ERANGE, kb_topo_fat_tree(0, &t));
	EXPECT_EQ(-ERANGE, kb_topo_fat_tree(66, &t));
	EXPECT_EQ(-ERANGE, kb_topo_line(0, 1, &t));
	EXPECT_EQ(-ERANGE, kb_topo_tree(0, 2, 1, &t));
	EXPECT_EQ(-ERANGE, kb_topo_tree(13, 2, 1, &t));
	EXPECT_EQ(-ERANGE, kb_topo_tree(12, 64, 1, &t));
	EXPECT_EQ(-ERANGE, kb_topo_leaf_spine(4, 0, 1, &t));
	EXPECT_EQ(-EINVAL, kb_topo_fat_tree(4, NULL));

	/* hand-built: self link, second link of a host, duplicates */
	ASSERT_EQ(0, kb_topo_new(&u));
	ASSERT_EQ(0, kb_topo_add_node(u, KB_NODE_SWITCH, 1));
	ASSERT_EQ(1, kb_topo_add_node(u, KB_NODE_SWITCH, 1));
	ASSERT_EQ(2, kb_topo_add_node(u, KB_NODE_HOST, 0));
	EXPECT_EQ(-EINVAL, kb_topo_add_node(u, 7, 0));
	EXPECT_EQ(-EINVAL, kb_topo_add_link(u, 0, 0));
	EXPECT_EQ(-EINVAL, kb_topo_add_link(u, 0, 3));
	EXPECT_EQ(0, kb_topo_add_link(u, 0, 2));
	EXPECT_EQ(-EINVAL, kb_topo_add_link(u, 1, 2));
	EXPECT_EQ(0, kb_topo_add_link(u, 0, 1));
	EXPECT_EQ(0, kb_topo_add_link(u, 1, 0));
	EXPECT_EQ(-EEXIST, kb_topo_finalize(u));
	kb_topo_free(u);

	ASSERT_EQ(0, kb_topo_fat_tree(4, &t));
	ASSERT_EQ(0, kb_topo_fat_tree(4, &t2));
	ASSERT_EQ(0, kb_spt_new(t, &s));
	ASSERT_EQ(0, kb_tree_new(t, &tr));
	EXPECT_EQ(-ERANGE, kb_lids_new(t, 1, 0, 8, &l));
	EXPECT_EQ(-ERANGE, kb_lids_new(t, 1, 33, 8, &l));
	EXPECT_EQ(-ERANGE, kb_lids_new(t, 1, 5, 0, &l));
	EXPECT_EQ(-ERANGE, kb_lids_new(t, 1, 5, 17, &l));
	ASSERT_EQ(0, kb_lids_new(t, 1, 5, 8, &l));
	ASSERT_EQ(0, kb_msbf_new(t, &ms));

	EXPECT_EQ(-EINVAL, kb_spt_compute(s, t->nnodes, 0));
	ASSERT_EQ(0, kb_spt_compute(s, t->hosts[0], 0));
	/* a group larger than the host count */
	for (i = 0; i < 17; i++)
		dst[i] = t->hosts[i % 16];
	EXPECT_EQ(-E2BIG, kb_tree_build(tr, s, dst, 17));
	/* not a host */
	dst[0] = 0;
	EXPECT_EQ(-EINVAL, kb_tree_build(tr, s, dst, 1));
	EXPECT_EQ(-EINVAL, kb_tree_build(tr, s, NULL, 1));
	EXPECT_EQ(0, kb_tree_build(tr, s, t->hosts, 16));
	EXPECT_EQ(-EINVAL, kb_tree_add_link(tr, tr->links[0]));
	EXPECT_EQ(-EINVAL, kb_tree_add_link(tr, t->nports));

	EXPECT_EQ(-ERANGE, kb_zf_build(l, tr, 0, 128, &z));
	EXPECT_EQ(-ERANGE, kb_zf_build(l, tr, 9, 128, &z));
	EXPECT_EQ(-ERANGE, kb_zf_build(l, tr, 8, 0, &z));
	EXPECT_EQ(-ERANGE, kb_zf_build(l, tr, 8, 257, &z));
	EXPECT_EQ(-E2BIG, kb_zf_build(l, tr, 8, 10, &z));

	prm.k_min = 0;
	prm.k_max = 17;
	EXPECT_EQ(-ERANGE, kb_msbf_build(ms, l, tr, &prm, buf, 64, NULL));
	prm.k_min = 3;
	prm.k_max = 2;
	EXPECT_EQ(-ERANGE, kb_msbf_build(ms, l, tr, &prm, buf, 64, NULL));
	prm.k_max = 0;
	prm.k_min = 0;
	prm.tag = 8;
	EXPECT_EQ(-ERANGE, kb_msbf_build(ms, l, tr, &prm, buf, 64, NULL));
	prm.tag = 0;
	prm.ntags = 9;
	EXPECT_EQ(-ERANGE, kb_msbf_build(ms, l, tr, &prm, buf, 64, NULL));
	prm.ntags = 0;
	prm.flags = 0x100;
	EXPECT_EQ(-EINVAL, kb_msbf_build(ms, l, tr, &prm, buf, 64, NULL));
	prm.flags = 0;
	prm.start_fp = -1;
	EXPECT_EQ(-ERANGE, kb_msbf_build(ms, l, tr, &prm, buf, 64, NULL));
	EXPECT_EQ(-EMSGSIZE, kb_msbf_build(ms, l, tr, NULL, buf, 8, NULL));

	other_topology(_metadata, t, t2, l, tr, ms);
	kb_msbf_free(ms);
	kb_lids_free(l);
	kb_tree_free(tr);
	kb_spt_free(s);
	kb_topo_free(t2);
	kb_topo_free(t);
}

/* CPU time of this thread: the rates below mean something on a busy host. */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * The experiments' scale: a k = 16 fat-tree (1024 hosts), groups of
 * 2..1024 hosts: LIPSIN (d = 8) and MSBF headers built and simulated.
 * Reports the CPU time per operation (under the sanitizers: several times
 * the library's -O2 build).
 */
TEST(scale_fat_tree_16)
{
	double t0, t_zf = 0, t_msbf = 0, t_sim = 0, leak = 0, hb = 0;
	struct kb_msbf_info info;
	struct kb_zf_result z;
	struct kb_sim_result res;
	struct cu_rng r = { 1234 };
	__u32 *dst, i, g, src, n = 0, ngroups = 100;
	struct kb_topo *t;
	struct kb_spt *s;
	struct kb_tree *tr;
	struct kb_lids *l;
	struct kb_msbf *ms;
	struct kb_sim *sim;
	__u8 *hdr;
	int len;

	ASSERT_EQ(0, kb_topo_fat_tree(16, &t));
	dst = malloc(t->nhosts * sizeof(*dst));
	hdr = malloc(65536);
	ASSERT_NE(NULL, dst);
	ASSERT_NE(NULL, hdr);
	ASSERT_EQ(0, kb_spt_new(t, &s));
	ASSERT_EQ(0, kb_tree_new(t, &tr));
	ASSERT_EQ(0, kb_lids_new(t, 8, 5, 8, &l));
	ASSERT_EQ(0, kb_msbf_new(t, &ms));
	ASSERT_EQ(0, kb_sim_new(t, 0, &sim));
	for (i = 0; i < ngroups; i++) {
		src = t->hosts[rnd(&r, t->nhosts)];
		g = 1 + rnd(&r, 1023);
		random_group(t, &r, src, g, dst);
		ASSERT_EQ(0, kb_spt_compute(s, src, i + 1));
		ASSERT_EQ(0, kb_tree_build(tr, s, dst, g));
		t0 = cpu_now();
		len = kb_msbf_build(ms, l, tr, NULL, hdr, 65536, &info);
		t_msbf += cpu_now() - t0;
		ASSERT_LT(0, len);
		hb += len;
		t0 = cpu_now();
		ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, len, 128, &res));
		t_sim += cpu_now() - t0;
		ASSERT_EQ(0, res.tx_off);
		ASSERT_EQ(tr->nmembers, res.delivered);
		/* LIPSIN: a small group of the same source */
		g = 1 + rnd(&r, 8);
		random_group(t, &r, src, g, dst);
		ASSERT_EQ(0, kb_tree_build(tr, s, dst, g));
		t0 = cpu_now();
		if (kb_zf_build(l, tr, 8, 128, &z))
			continue;	/* too large for 256 bits */
		t_zf += cpu_now() - t0;
		n++;
		kb_ipbf_write_lipsin(hdr, 40, tr->height, z.tag, 0, &z.zf);
		ASSERT_EQ(0, kb_sim_run(sim, l, tr, src, hdr, 40, 128, &res));
		leak += (double)res.tx_off / res.tx_tree;
	}
	TH_LOG("k=16 fat-tree, %u groups of 1..1023: MSBF %.0f us/header, "
	       "%.0f bytes avg; sim %.0f us/packet; LIPSIN, groups of 1..8: "
	       "%u fit, %.0f us/zFilter (d=8), leakage ratio %.4f", ngroups,
	       1e6 * t_msbf / ngroups, hb / ngroups, 1e6 * t_sim / ngroups,
	       n, n ? 1e6 * t_zf / n : 0.0, n ? leak / n : 0.0);
	kb_sim_free(sim);
	kb_msbf_free(ms);
	kb_lids_free(l);
	kb_tree_free(tr);
	kb_spt_free(s);
	free(hdr);
	free(dst);
	kb_topo_free(t);
}

TEST_HARNESS_MAIN
