// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: group addresses and MC-BF classes.
 *
 * Group g's address is 239.X.Y.Z, X = c << 4 | (g >> 16) & 0xF,
 * Y = (g >> 8) & 0xFF, Z = g & 0xFF: the class c in the high nibble of
 * the second octet (uapi/kbloom_ipbf.h), the same key for every scheme.
 *
 * A group's presence probability p_g (groups.c) is the share of its
 * per-port tests that find it present.  Its class:
 *   - with the classes' probabilities P_c given: the nearest in log-odds,
 *     argmin_c |logit(p_g) - logit(P_c)|, logit(p) = ln(p / (1 - p));
 *   - otherwise: equal-count quantiles of the groups' presence, class 0
 *     the most present; P_c is the mean presence of class c's groups,
 *     clamped to [1e-6, 1 - 1e-6].
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "exp_int.h"

void kb_exp_group_addr(const struct kb_exp *x, __u32 g, __u8 addr[4])
{
	__u32 cls = x->grp ? x->grp[g].cls : 0;

	addr[0] = 239;
	addr[1] = (__u8)((cls << 4) | ((g >> 16) & 0xF));
	addr[2] = (__u8)(g >> 8);
	addr[3] = (__u8)g;
}

static double logit(double p)
{
	if (p < 1e-9)
		p = 1e-9;
	if (p > 1 - 1e-9)
		p = 1 - 1e-9;
	return log(p / (1 - p));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Classes from presence: given probabilities, or equal-count quantiles of
 * the groups' presence (class 0 the most present) with each class's mean.
 */
int exp_assign_classes(struct kb_exp *x)
{
	__u32 n = x->p.groups, c, g, best, cnt[KB_MCBF_CLASSES] = { 0 };
	double *v, sum[KB_MCBF_CLASSES] = { 0 }, d, bd, cut[KB_MCBF_CLASSES];
	int given = x->p.presence[0] != 0.0;

	x->nclass = x->p.nclass ? x->p.nclass : 1;
	if (given) {
		for (c = 0; c < x->nclass; c++)
			x->class_p[c] = x->p.presence[c];
		for (g = 0; g < n; g++) {
			best = 0;
			bd = INFINITY;
			for (c = 0; c < x->nclass; c++) {
				d = fabs(logit(x->grp[g].presence) -
					 logit(x->class_p[c]));
				if (d < bd) {
					bd = d;
					best = c;
				}
			}
			x->grp[g].cls = best;
		}
		return 0;
	}
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (g = 0; g < n; g++)
		v[g] = x->grp[g].presence;
	qsort(v, n, sizeof(*v), cmp_double);
	/* cut[c]: the lowest presence of class c (descending classes) */
	for (c = 0; c < x->nclass; c++)
		cut[c] = v[(size_t)n * (x->nclass - 1 - c) / x->nclass];
	free(v);
	for (g = 0; g < n; g++) {
		for (c = 0; c + 1 < x->nclass; c++)
			if (x->grp[g].presence >= cut[c])
				break;
		x->grp[g].cls = c;
		sum[c] += x->grp[g].presence;
		cnt[c]++;
	}
	for (c = 0; c < x->nclass; c++)
		x->class_p[c] = cnt[c] ? sum[c] / cnt[c] : cut[c];
	for (c = 0; c < x->nclass; c++) {
		if (x->class_p[c] <= 0.0)
			x->class_p[c] = 1e-6;
		if (x->class_p[c] >= 1.0)
			x->class_p[c] = 1 - 1e-6;
	}
	return 0;
}
