// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: predicted false-positive rates of the per-port filters,
 * and their k.
 *
 * Standard and blocked, for a port of n groups in m bits, the formulas of
 * uapi/kbloom_plan.h (kb_plan_ln_fpr()), B = 512:
 *   standard  p = (1 - e^(-k n / m))^k
 *   blocked   p = sum_i Pois_{B n / m}(i) (1 - (1 - 1/B)^(i k))^k
 * with k the given one, or the best of round(m ln 2 / n) +- 2 (1 to
 * EXP_PORT_K_MAX) by that formula.
 *
 * MC-BF, class c with n_c groups present and k_c probes,
 * K = sum_c n_c k_c, n = sum_c n_c:
 *   standard  p_c = rho^k_c,  rho = 1 - e^(-K / m)
 *   blocked   p_c = sum_i Pois_{B n / m}(i) (1 - (1 - 1/B)^(i K / n))^k_c,
 *             the terms within 12 sqrt(lambda) + 20 of lambda = B n / m.
 */
#include <math.h>

#include "exp_int.h"
#include "uapi/kbloom_plan.h"

#define EXP_PORT_K_MAX		16U

/* A port's predicted rate for a class-@cls candidate (per port or class). */
double exp_port_pred(const struct kb_exp_state *s, __u32 p, __u32 cls)
{
	if (!s->pred)
		return 0.0;
	return s->pred[(size_t)p * s->npred + (s->npred > 1 ? cls : 0)];
}

double exp_ln_q32(__s64 v)
{
	return v == KB_LN_NEG_INF ? -INFINITY : (double)v / 4294967296.0;
}

/* The k of a port of @n groups: the given one, or the predicted best. */
__u32 exp_best_k(const struct kb_exp *x, __u32 type, __u64 m, __u32 n,
		    __u8 *memo)
{
	double best = INFINITY, v;
	__u32 k, k0, lo, hi, bk = 1;

	if (x->p.k)
		return x->p.k;
	if (!n)
		return 1;
	if (memo && memo[n])
		return memo[n];
	k0 = (__u32)lround((double)m / n * M_LN2);
	lo = k0 > 3 ? k0 - 2 : 1;
	hi = k0 + 2 < EXP_PORT_K_MAX ? k0 + 2 : EXP_PORT_K_MAX;
	if (lo > hi)
		lo = hi;
	for (k = lo; k <= hi; k++) {
		v = exp_ln_q32(kb_plan_ln_fpr(type, m, k, n));
		if (v < best) {
			best = v;
			bk = k;
		}
	}
	if (memo)
		memo[n] = (__u8)bk;
	return bk;
}

static double ipow(double b, __u32 e)
{
	double r = 1.0;

	while (e) {
		if (e & 1)
			r *= b;
		b *= b;
		e >>= 1;
	}
	return r;
}

/*
 * MC-BF per-port prediction, class by class, from the groups inserted:
 * K = sum_c n_c k_c probes over m bits.  Standard: a probe finds a one
 * with rho = 1 - e^(-K/m), a class-c key matches with rho^k_c.  Blocked:
 * the key's block holds Poisson(B n / m) other keys of k-bar = K / n
 * probes each, as in the blocked formula of uapi/kbloom_plan.h.
 */
void exp_mcbf_pred(const struct kb_exp *x, __u64 bits, __u32 p,
		   const struct kb_mcbf_classes *cls, double *out)
{
	const __u32 *pres = x->present + (size_t)p * x->nclass;
	double K = 0.0, n = 0.0, lam, kbar, pi, base, l1, w;
	double sum[KB_MCBF_CLASSES] = { 0 };
	__u32 c, i, lo, hi;

	for (c = 0; c < x->nclass; c++) {
		K += (double)pres[c] * cls->k[c];
		n += pres[c];
	}
	if (!n) {
		for (c = 0; c < x->nclass; c++)
			out[c] = 0.0;
		return;
	}
	if (x->p.mcbf_type == KBLOOM_TYPE_STANDARD) {
		base = -expm1(-K / (double)bits);
		for (c = 0; c < x->nclass; c++)
			out[c] = ipow(base, cls->k[c]);
		return;
	}
	lam = KBLOOM_BLOCK_BITS * n / (double)bits;
	kbar = K / n;
	l1 = kbar * log1p(-1.0 / KBLOOM_BLOCK_BITS);
	/* the Poisson terms within 12 sigma + 20 of the mean, in log space */
	w = 12.0 * sqrt(lam) + 20.0;
	lo = lam > w ? (__u32)(lam - w) : 0;
	hi = (__u32)(lam + w);
	for (i = lo; i <= hi; i++) {
		pi = exp(-lam + i * log(lam) - lgamma(i + 1.0));
		base = -expm1(i * l1);
		for (c = 0; c < x->nclass; c++)
			sum[c] += pi * ipow(base, cls->k[c]);
	}
	for (c = 0; c < x->nclass; c++)
		out[c] = sum[c];
}
