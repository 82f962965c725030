// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom deletable filters: the deletable fraction after n keys, the
 * paper's formula and the exact one (uapi/kbloom_var_deletable.h, (1)
 * and (2)).
 */
#include <math.h>

#include "deletable_int.h"

/* P(a bit collides) after @probes probes into @m bits: 1 - p_0 - p_1. */
static double kbd_p_c(double m, double probes)
{
	double p0 = pow(1.0 - 1.0 / m, probes);
	double p1 = probes / m * pow(1.0 - 1.0 / m, probes - 1.0);

	return 1.0 - p0 - p1;
}

int kbloom_del_predict(__u64 m, __u32 k, __u64 region_bits, __u64 n,
		       double *paper, double *exact)
{
	double N = (double)k * (double)n, s = (double)region_bits;
	double mm = (double)m, own, region;

	if (!m || !k || !region_bits)
		return -EINVAL;
	if (paper) {
		region = pow(1.0 - kbd_p_c(mm, N), s);
		*paper = 1.0 - pow(1.0 - region, k);
	}
	if (exact) {
		/* the key's own bit: none of the other N - 1 probes hit it */
		own = pow(1.0 - 1.0 / mm, N > 1 ? N - 1.0 : 0.0);
		region = own * pow(1.0 - kbd_p_c(mm, N > 1 ? N - 1.0 : 0.0),
				   s - 1.0);
		*exact = 1.0 - pow(1.0 - region, k);
	}
	return 0;
}
