// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the random streams of an experiment.
 *
 * Every draw comes from SplitMix64 (s += 0x9E3779B97F4A7C15, then two
 * xor-shift-multiply rounds and a final xor-shift).  A group's stream is
 * seeded from (seed, g) alone (exp_group_stream()), every other stream from
 * (seed, what, i) (exp_sub_seed()): the results depend neither on the
 * number of threads nor on the order of the work.
 *   uniform in [0, n)  floor((r >> 32) n / 2^32), multiply-shift, bias
 *                      below 2^-32
 *   uniform in [0, 1)  (r >> 11) / 2^53
 *   group size         fixed: min; uniform: min + uniform in [0, max - min];
 *                      zipf: P(s) = s^-S / sum_{t = min..max} t^-S, the
 *                      smallest s whose cumulative probability exceeds a
 *                      uniform u (binary search of the table)
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "exp_int.h"

static __u64 rng_next(__u64 *s)
{
	__u64 z = (*s += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n >= 1, by 64-bit multiply-shift (bias < 2^-32). */
__u32 exp_rng_below(__u64 *s, __u32 n)
{
	return (__u32)(((rng_next(s) >> 32) * (__u64)n) >> 32);
}

static double rng_unit(__u64 *s)
{
	return (rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* Every group has its own stream: results independent of threads. */
__u64 exp_group_stream(const struct kb_exp *x, __u32 g)
{
	return kb_fmix64(x->p.seed ^ 0x67726f7570ULL) ^
	       kb_fmix64((__u64)g + 1);
}

__u64 exp_sub_seed(const struct kb_exp *x, __u64 what, __u64 i)
{
	return kb_fmix64(kb_fmix64(x->p.seed + what) ^ (i * KB_P1 + 1));
}

__u64 exp_port_seed(const struct kb_exp *x, __u32 p)
{
	return exp_sub_seed(x, SEED_PORT, p);
}

__u32 exp_draw_size(const struct kb_exp *x, __u64 *s)
{
	const struct kb_exp_params *p = &x->p;
	__u32 lo, hi, mid, span = x->size_max - p->size_min + 1;
	double u;

	switch (p->dist) {
	case KB_EXP_DIST_FIXED:
		return p->size_min;
	case KB_EXP_DIST_ZIPF:
		u = rng_unit(s);
		lo = 0;
		hi = span - 1;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (x->zipf_cdf[mid] > u)
				hi = mid;
			else
				lo = mid + 1;
		}
		return p->size_min + lo;
	}
	return p->size_min + exp_rng_below(s, span);
}

int exp_zipf_table(struct kb_exp *x)
{
	__u32 span = x->size_max - x->p.size_min + 1, i;
	double sum = 0.0;

	x->zipf_cdf = malloc(span * sizeof(double));
	if (!x->zipf_cdf)
		return -ENOMEM;
	for (i = 0; i < span; i++) {
		sum += pow((double)(x->p.size_min + i), -x->p.zipf_s);
		x->zipf_cdf[i] = sum;
	}
	for (i = 0; i < span; i++)
		x->zipf_cdf[i] /= sum;
	x->zipf_cdf[span - 1] = 2.0;	/* every u < 1 lands */
	return 0;
}
