// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom weighted Bloom filter: the per-element choice of k
 * (libkbloom_survey.h, kbloom_wbf_plan()).  With a_e = r_e (1 - x_e) and
 * K = sum_e x_e k_e:
 *
 *   FP(k) = sum_e a_e f^k_e,  f = 1 - exp(-K / m)
 *
 * FP depends on k through the sums A_j = sum of a_e over the elements
 * with k_e = j, and K: each change of one k_e is evaluated exactly in
 * O(kmax).  The steps:
 *   1. the Lagrangian: for a price lam of one expected probe, each k_e
 *      minimises a_e f^k + lam x_e k, a convex function of k whose real
 *      minimum is k = ln(lam x_e / (a_e ln(1/f))) / ln f (Bruck et al.'s
 *      optimum), with f made consistent with the k it gives (a few
 *      rounds); lam over a log grid, the best FP kept;
 *   2. starts from that and from every uniform k (the standard filter's
 *      choices); from each, moves while FP falls: one element's k_e +- 1,
 *      then every element of one k at once +- 1;
 *   3. the best of these.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libkbloom_survey.h"
#include "uapi/kbloom_base.h"

struct wplan {
	const double *r, *x;
	size_t n;
	double m;
	__u32 kmax;
	__u32 *k;
	double A[KBLOOM_K_MAX + 1];
	double K;
};

static double wp_a(const struct wplan *p, size_t e)
{
	return p->r[e] * (1 - p->x[e]);
}

static double wp_fill(const struct wplan *p, double K)
{
	return -expm1(-K / p->m);
}

static double wp_fp(const struct wplan *p, double K)
{
	double f = wp_fill(p, K), fj = 1, s = 0;
	__u32 j;

	for (j = 1; j <= p->kmax; j++) {
		fj *= f;
		s += p->A[j] * fj;
	}
	return s;
}

static void wp_sums(struct wplan *p)
{
	size_t e;

	memset(p->A, 0, sizeof(p->A));
	p->K = 0;
	for (e = 0; e < p->n; e++) {
		p->A[p->k[e]] += wp_a(p, e);
		p->K += p->x[e] * p->k[e];
	}
}

/* argmin over 1..kmax of a f^k + c k (convex in k). */
static __u32 wp_best_k(double a, double c, double f, __u32 kmax)
{
	double kr, g0, g1;
	__u32 k0;

	if (a <= 0 || f <= 0)
		return 1;
	if (c <= 0 || f >= 1)
		return c <= 0 ? kmax : 1;
	kr = log(c / (a * -log(f))) / log(f);
	if (!(kr > 1))
		return 1;
	if (kr >= kmax)
		return kmax;
	k0 = (__u32)kr;
	g0 = a * pow(f, k0) + c * k0;
	g1 = a * pow(f, k0 + 1) + c * (k0 + 1);
	return g1 < g0 ? k0 + 1 : k0;
}

/* The k of price @lam with a consistent fill: FP. */
static double wp_price(struct wplan *p, double lam)
{
	double f = 0.5;
	__u32 it;
	size_t e;

	for (it = 0; it < 8; it++) {
		for (e = 0; e < p->n; e++)
			p->k[e] = wp_best_k(wp_a(p, e), lam * p->x[e], f,
					    p->kmax);
		wp_sums(p);
		f = wp_fill(p, p->K);
	}
	return wp_fp(p, p->K);
}

/* Step 1: the best price on a log grid, into p->k. */
static void wp_lagrange(struct wplan *p, __u32 *best_k)
{
	double best = INFINITY, v, lam;
	int t;

	for (t = -100; t <= 10; t++) {
		lam = pow(10, t / 10.0) / p->m;
		v = wp_price(p, lam);
		if (v < best) {
			best = v;
			memcpy(best_k, p->k, p->n * sizeof(*best_k));
		}
	}
	memcpy(p->k, best_k, p->n * sizeof(*best_k));
	wp_sums(p);
}

/* Move k_e by @d if FP falls; 1 when moved. */
static int wp_try(struct wplan *p, size_t e, int d, double *fp)
{
	__u32 k = p->k[e], nk = (__u32)((int)k + d);
	double a = wp_a(p, e), K = p->K + d * p->x[e], v;

	if (nk < 1 || nk > p->kmax)
		return 0;
	p->A[k] -= a;
	p->A[nk] += a;
	v = wp_fp(p, K);
	if (v < *fp * (1 - 1e-13)) {
		p->k[e] = nk;
		p->K = K;
		*fp = v;
		return 1;
	}
	p->A[nk] -= a;
	p->A[k] += a;
	return 0;
}

/* Every element of k = @j to @j + @d if FP falls; 1 when moved. */
static int wp_try_group(struct wplan *p, __u32 j, int d, double *fp)
{
	__u32 nj = (__u32)((int)j + d);
	double X = 0, K, v, a[2];
	size_t e;

	if (nj < 1 || nj > p->kmax || p->A[j] <= 0)
		return 0;
	for (e = 0; e < p->n; e++)
		if (p->k[e] == j)
			X += p->x[e];
	K = p->K + d * X;
	a[0] = p->A[j];
	a[1] = p->A[nj];
	p->A[nj] += p->A[j];
	p->A[j] = 0;
	v = wp_fp(p, K);
	if (!(v < *fp * (1 - 1e-13))) {
		p->A[j] = a[0];
		p->A[nj] = a[1];
		return 0;
	}
	for (e = 0; e < p->n; e++)
		if (p->k[e] == j)
			p->k[e] = nj;
	p->K = K;
	*fp = v;
	return 1;
}

static int wp_groups(struct wplan *p, double *fp)
{
	int moved = 0;
	__u32 j;

	for (j = 1; j <= p->kmax; j++)
		moved |= wp_try_group(p, j, 1, fp) ||
			 wp_try_group(p, j, -1, fp);
	return moved;
}

/* Step 2: moves until none lowers FP. */
static double wp_descend(struct wplan *p)
{
	double fp;
	int moved, sweep;
	size_t e;

	wp_sums(p);
	fp = wp_fp(p, p->K);
	for (sweep = 0; sweep < 1000; sweep++) {
		moved = 0;
		for (e = 0; e < p->n; e++)
			moved |= wp_try(p, e, 1, &fp) || wp_try(p, e, -1, &fp);
		if (!moved && !wp_groups(p, &fp))
			break;
	}
	return fp;
}

static int wp_args_ok(const double *r, const double *x, size_t n, __u64 m,
		      __u32 kmax, const __u32 *k)
{
	size_t e;

	if (!r || !x || !k || !n || !m || kmax < 1 || kmax > KBLOOM_K_MAX)
		return 0;
	for (e = 0; e < n; e++)
		if (!(r[e] >= 0) || !(x[e] >= 0 && x[e] <= 1) ||
		    !isfinite(r[e]))
			return 0;
	return 1;
}

double kbloom_wbf_rate(const double *r, const double *x, const __u32 *k,
		       size_t n, __u64 m)
{
	double K = 0, s = 0, f;
	size_t e;

	if (!r || !x || !k || !m)
		return NAN;
	for (e = 0; e < n; e++)
		K += x[e] * k[e];
	f = -expm1(-K / (double)m);
	for (e = 0; e < n; e++)
		s += r[e] * (1 - x[e]) * pow(f, k[e]);
	return s;
}

/* One start: uniform @k0 (0: the Lagrangian's), then descent. */
static double wp_start(struct wplan *p, __u32 k0, __u32 *tmp)
{
	size_t e;

	for (e = 0; e < p->n; e++)
		p->k[e] = k0;
	if (!k0)
		wp_lagrange(p, tmp);
	return wp_descend(p);
}

int kbloom_wbf_plan(const double *r, const double *x, size_t n, __u64 m,
		    __u32 kmax, __u32 *k, double *rate)
{
	struct wplan p = { .r = r, .x = x, .n = n, .m = (double)m,
			   .kmax = kmax };
	double best = INFINITY, v;
	__u32 k0;

	if (!wp_args_ok(r, x, n, m, kmax, k))
		return -EINVAL;
	p.k = malloc(2 * n * sizeof(*p.k));
	if (!p.k)
		return -ENOMEM;
	for (k0 = 0; k0 <= kmax; k0++) {
		v = wp_start(&p, k0, p.k + n);
		if (v < best) {
			best = v;
			memcpy(k, p.k, n * sizeof(*k));
		}
	}
	free(p.k);
	if (rate)
		*rate = kbloom_wbf_rate(r, x, k, n, m);
	return 0;
}
