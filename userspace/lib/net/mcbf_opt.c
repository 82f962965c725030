// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_net: the Multi-Class Bloom filter's optimiser (Li et al.,
 * ICNP 2011).
 *
 * A port's filter holds the multicast groups with a member behind it.
 * Group g of class c is inserted and tested with k_c probes: a group that
 * is likely present (p high) costs fill for little gain when it gets many
 * probes, a group that is likely absent is where leakage happens and is
 * worth many.  With G_c groups of class c, each present with probability
 * p_c and carrying weight w_c, the expected number of bits set is
 * K = sum_c G_c p_c k_c, the fill rho = 1 - (1 - 1/m)^K and the expected
 * leakage sum_c G_c (1 - p_c) w_c rho^k_c.  Setting its derivative in
 * each k_c to zero gives rho^k_c proportional to p_c / ((1 - p_c) w_c),
 * i.e. k_c = C + log_{1/rho}((1 - p_c) w_c / p_c) for one constant C.
 * Integer k and the dependence of rho on all of them make the closed
 * form a seed, not the answer: kb_mcbf_optimize() evaluates
 * the closed form over a grid of (rho, C), keeps the best integer
 * vectors, and descends by single and paired +-1 steps to a local optimum
 * of the exact objective; the core suite checks it against brute force.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libkbloom_net.h"

#define MCBF_SEEDS	4	/* descents started from the best seeds */
#define MCBF_MEMO	512	/* objective values kept per search */

/* The objective, with @lm = log1p(-1 / m) computed by the caller. */
static double objective(__u64 m, double lm, const struct kb_mcbf_class_spec *c,
			__u32 nclass, const __u32 *k, double *rho)
{
	double K = 0.0, r, leak = 0.0;
	__u32 g;

	for (g = 0; g < nclass; g++)
		K += c[g].groups * c[g].p * k[g];
	r = m ? -expm1(K * lm) : 1.0;
	for (g = 0; g < nclass; g++)
		leak += c[g].groups * (1.0 - c[g].p) * c[g].w * pow(r, k[g]);
	if (rho)
		*rho = r;
	return leak;
}

double kb_mcbf_objective(__u64 m, const struct kb_mcbf_class_spec *c,
			 __u32 nclass, const __u32 *k, double *rho)
{
	return objective(m, m ? log1p(-1.0 / (double)m) : 0.0, c, nclass, k,
			 rho);
}

static int spec_ok(const struct kb_mcbf_class_spec *c, __u32 nclass)
{
	__u32 g;

	for (g = 0; g < nclass; g++) {
		if (!(c[g].p >= 0.0 && c[g].p <= 1.0))
			return 0;
		if (!(c[g].groups >= 0.0 && c[g].groups < 1e300) ||
		    !(c[g].w >= 0.0 && c[g].w < 1e300))
			return 0;
	}
	return 1;
}

struct mcbf_cand {
	__u32 k[KB_MCBF_CLASSES];
	double leak;
};

/* An objective value already computed, keyed by its k (0: a free slot). */
struct mcbf_memo {
	__u64 key[2];		/* k as bytes, KB_MCBF_CLASSES of them */
	double leak;
};

/*
 * The search evaluates the same k vectors many times (the grid's seeds
 * clamp to the same vectors, descents revisit their neighbours): the
 * values computed are kept, up to 3/4 of MCBF_MEMO of them.
 */
struct mcbf_search {
	__u64 m;
	double lm;				/* log1p(-1 / m) */
	const struct kb_mcbf_class_spec *c;
	__u32 n;
	__u32 k_min;
	__u32 k_max;
	struct mcbf_cand top[MCBF_SEEDS];	/* best first */
	__u32 ntop;
	__u32 nmemo;
	struct mcbf_memo memo[MCBF_MEMO];
};

static double cand_eval(struct mcbf_search *s, struct mcbf_cand *x)
{
	__u64 key[2] = { 0, 0 };
	struct mcbf_memo *e;
	__u32 g, i;

	for (g = 0; g < s->n; g++)	/* k: 1..KBLOOM_K_MAX, a byte each */
		key[g >> 3] |= (__u64)x->k[g] << (8 * (g & 7));
	i = (__u32)((((key[0] * 0x9E3779B97F4A7C15ULL) ^ key[1]) *
		     0xC2B2AE3D27D4EB4FULL) >> 32) & (MCBF_MEMO - 1);
	for (;; i = (i + 1) & (MCBF_MEMO - 1)) {
		e = &s->memo[i];
		if (!e->key[0])
			break;
		if (e->key[0] == key[0] && e->key[1] == key[1]) {
			x->leak = e->leak;
			return x->leak;
		}
	}
	x->leak = objective(s->m, s->lm, s->c, s->n, x->k, NULL);
	if (s->nmemo < MCBF_MEMO / 4 * 3) {
		e->key[0] = key[0];
		e->key[1] = key[1];
		e->leak = x->leak;
		s->nmemo++;
	}
	return x->leak;
}

static int cand_same(const struct mcbf_search *s, const struct mcbf_cand *a,
		     const struct mcbf_cand *b)
{
	__u32 g;

	for (g = 0; g < s->n; g++)
		if (a->k[g] != b->k[g])
			return 0;
	return 1;
}

/* Keep the MCBF_SEEDS best distinct candidates. */
static void top_insert(struct mcbf_search *s, const struct mcbf_cand *x)
{
	__u32 i, j;

	/* not better than the last of a full list (nor one of the list) */
	if (s->ntop == MCBF_SEEDS && s->top[MCBF_SEEDS - 1].leak <= x->leak)
		return;
	for (i = 0; i < s->ntop; i++)
		if (cand_same(s, &s->top[i], x))
			return;
	for (i = 0; i < s->ntop && s->top[i].leak <= x->leak; i++)
		;
	if (i >= MCBF_SEEDS)
		return;
	if (s->ntop < MCBF_SEEDS)
		s->ntop++;
	for (j = s->ntop - 1; j > i; j--)
		s->top[j] = s->top[j - 1];
	s->top[i] = *x;
}

static __u32 clamp_k(const struct mcbf_search *s, double v)
{
	if (!(v > s->k_min))	/* also NaN */
		return s->k_min;
	if (v > s->k_max)
		return s->k_max;
	return (__u32)lround(v);
}

/*
 * log_{1/rho}((1 - p) w / p) per class; classes that never leak (p = 1 or
 * w = 0) or are never present (p = 0) are pinned to k_min / k_max.
 */
static void seed_terms(const struct mcbf_search *s, double rho, double *t)
{
	const struct kb_mcbf_class_spec *c = s->c;
	double a, b;
	__u32 g;

	for (g = 0; g < s->n; g++) {
		a = c[g].groups * (1.0 - c[g].p) * c[g].w;
		b = c[g].groups * c[g].p;
		if (a <= 0.0)
			t[g] = -INFINITY;
		else if (b <= 0.0)
			t[g] = INFINITY;
		else
			t[g] = log(a / b) / -log(rho);
	}
}

/*
 * Closed-form seeds over a grid of rho and integer offsets C (off).  A
 * seed equal to the one before (offsets that clamp every class alike) is
 * skipped: offering a candidate again never changes the list.
 */
static void seed_grid(struct mcbf_search *s)
{
	double t[KB_MCBF_CLASSES], rho;
	struct mcbf_cand x, prev;
	int i, off, span = (int)s->k_max + 1;
	__u32 g;

	for (i = 1; i < 40; i++) {
		rho = i / 40.0;
		seed_terms(s, rho, t);
		for (off = -span; off <= span; off++) {
			for (g = 0; g < s->n; g++)
				x.k[g] = clamp_k(s, off + t[g]);
			if (off > -span && cand_same(s, &x, &prev))
				continue;
			cand_eval(s, &x);
			top_insert(s, &x);
			prev = x;
		}
	}
}

/* Try one neighbour; keep it in *@x if better. */
static int try_step(struct mcbf_search *s, struct mcbf_cand *x,
		    __u32 g, int dg, __u32 h, int dh)
{
	struct mcbf_cand y = *x;
	int kg = (int)x->k[g] + dg, kh;

	if (kg < (int)s->k_min || kg > (int)s->k_max)
		return 0;
	y.k[g] = kg;
	if (dh) {
		kh = (int)y.k[h] + dh;
		if (kh < (int)s->k_min || kh > (int)s->k_max)
			return 0;
		y.k[h] = kh;
	}
	if (cand_eval(s, &y) >= x->leak)
		return 0;
	*x = y;
	return 1;
}

/* Descend by single and paired +-1 steps until none improves. */
static void descend(struct mcbf_search *s, struct mcbf_cand *x)
{
	int better = 1, d, e;
	__u32 g, h;

	while (better) {
		better = 0;
		for (g = 0; g < s->n; g++)
			for (d = -1; d <= 1; d += 2)
				better |= try_step(s, x, g, d, 0, 0);
		for (g = 0; g < s->n; g++)
			for (h = g + 1; h < s->n; h++)
				for (d = -1; d <= 1; d += 2)
					for (e = -1; e <= 1; e += 2)
						better |= try_step(s, x, g, d,
								   h, e);
	}
}

/* The best single k for every class (the standard filter's choice). */
static void best_uniform(struct mcbf_search *s,
			 struct kb_mcbf_plan *plan)
{
	struct mcbf_cand x;
	__u32 k, g;

	for (k = s->k_min; k <= s->k_max; k++) {
		for (g = 0; g < s->n; g++)
			x.k[g] = k;
		cand_eval(s, &x);
		if (k == s->k_min || x.leak < plan->leak_uniform) {
			plan->leak_uniform = x.leak;
			plan->k_uniform = k;
		}
	}
}

int kb_mcbf_optimize(__u64 m, const struct kb_mcbf_class_spec *c,
		     __u32 nclass, __u32 k_min, __u32 k_max,
		     struct kb_mcbf_plan *plan)
{
	struct mcbf_search s = { .m = m, .c = c, .n = nclass,
				 .k_min = k_min, .k_max = k_max };
	struct kb_mcbf_plan out;
	struct mcbf_cand best;
	__u32 i;

	if (!c || !plan || nclass < 1 || nclass > KB_MCBF_CLASSES ||
	    !spec_ok(c, nclass))
		return -EINVAL;
	if (!m || k_min < 1 || k_max > KBLOOM_K_MAX || k_min > k_max)
		return -ERANGE;
	s.lm = log1p(-1.0 / (double)m);
	memset(&out, 0, sizeof(out));
	best_uniform(&s, &out);
	seed_grid(&s);
	best = s.top[0];
	for (i = 0; i < s.ntop; i++) {
		struct mcbf_cand x = s.top[i];

		descend(&s, &x);
		if (x.leak < best.leak)
			best = x;
	}
	out.nclass = nclass;
	memcpy(out.k, best.k, nclass * sizeof(best.k[0]));
	out.leak = kb_mcbf_objective(m, c, nclass, best.k, &out.rho);
	*plan = out;
	return 0;
}
