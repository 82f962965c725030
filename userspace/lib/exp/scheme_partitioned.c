// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the partitioned per-port scheme (libkbloom_partitioned.h).
 *
 * Port p holds a partitioned Bloom filter: k slices of s bits, probe i
 * sets one bit of slice i, s = M / k rounded down to whole words (at
 * most 64 k - 1 of the M bits unused; memory is counted as M / 8).  k is
 * the one of the lowest predicted rate for the port's n groups among
 * round(M ln 2 / n) +- 2 (1..16, at most M / 64 slices):
 *   p = (1 - (1 - 1/s)^n)^k
 * A test reads k bits, one per slice.
 */
#include <errno.h>
#include <math.h>

#include "scheme.h"
#include "libkbloom_partitioned.h"

#define PART_K_MAX	16U

static double part_pred(__u64 slice, __u32 k, __u64 n)
{
	return pow(-expm1((double)n * log1p(-1.0 / (double)slice)), k);
}

/* The k of the lowest predicted rate for @n keys in @m bits. */
static __u32 part_best_k(__u64 m, __u64 n)
{
	__u32 k, k0, lo, hi, kmax = PART_K_MAX, bk = 1;
	double best = INFINITY, v;

	if (kmax > m / 64)
		kmax = (__u32)(m / 64);
	k0 = n ? (__u32)lround((double)m / n * M_LN2) : 1;
	lo = k0 > 3 ? k0 - 2 : 1;
	hi = k0 + 2 < kmax ? k0 + 2 : kmax;
	if (lo > hi)
		lo = hi;
	for (k = lo; k <= hi; k++) {
		v = part_pred(m / k & ~63ULL, k, n);
		if (v < best) {
			best = v;
			bk = k;
		}
	}
	return bk;
}

static int part_build(struct exp_port_ctx *c, void **port)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_FAST, .seed = c->seed };
	__u32 k = c->x->p.k ? c->x->p.k : part_best_k(c->bits, c->n);
	struct kbloom_part *f;
	__u64 slice, i;
	int err;

	if (k > c->bits / 64)
		k = (__u32)(c->bits / 64);	/* a slice is at least a word */
	slice = c->bits / k & ~63ULL;
	err = kbloom_part_create_ks(k, slice, &o, &f);
	if (err)
		return err;
	for (i = 0; i < c->n; i++) {
		err = kbloom_part_add(f, c->keys + 4 * i, 4);
		if (err) {
			kbloom_part_destroy(f);
			return err;
		}
	}
	c->k_sum = k;
	c->k_n = 1;
	c->pred[0] = c->n ? part_pred(slice, k, c->n) : 0.0;
	c->probes = exp_port_tests(c) * k;
	*port = f;
	return 0;
}

static int part_test(const void *port, const __u8 *key)
{
	return kbloom_part_test(port, key, 4) == 1;
}

static void part_destroy(void *port)
{
	kbloom_part_destroy(port);
}

static __u64 part_bytes(const struct kb_exp *x, __u64 bits)
{
	(void)x;
	return bits / 8;
}

static __u64 part_step(const struct kb_exp_params *p)
{
	(void)p;
	return 64;
}

const struct exp_scheme_ops exp_scheme_partitioned = {
	.name = "partitioned",
	.title = "partitioned per-port",
	.color = "#e377c2",
	.bits_step = part_step,
	.build = part_build,
	.test = part_test,
	.destroy = part_destroy,
	.bytes = part_bytes,
};
