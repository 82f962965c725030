// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the shifting per-port scheme (libkbloom_survey.h,
 * uapi/kbloom_var_shifting.h), in membership mode.
 *
 * Port p holds a shifting Bloom filter of M bits in 512-bit blocks: a
 * group sets k base bits and the same k bits shifted by its offset
 * o (1..63), all in its block, so a test reads one cache line.  (Its
 * association mode answers "which of two sets" for one filter; a port
 * here holds one set, so membership is the mode that fits a per-port
 * structure.)  k is the one of the lowest predicted rate among 1..8:
 * with lambda = 512 n / M groups per block and f_i = 1 - (1 - 1/512)^(2
 * k i) the fill of a block of i groups,
 *   p = sum_i Pois_lambda(i) f_i^(2k)
 * (the blocked filter's formula for 2k bits per group).
 */
#include <errno.h>
#include <math.h>

#include "scheme.h"
#include "libkbloom_survey.h"

#define SHBF_K_MAX	8U

static double shbf_pred(__u64 m, __u32 k, __u64 n)
{
	double lambda = (double)n * KBLOOM_BLOCK_BITS / m, p = 0, w, f;
	__u32 i;

	for (i = 0; i < 4 * lambda + 64; i++) {
		w = exp(-lambda + i * log(lambda) - lgamma(i + 1.0));
		f = -expm1(2.0 * k * i * log1p(-1.0 / KBLOOM_BLOCK_BITS));
		p += w * pow(f, 2 * k);
	}
	return p;
}

static __u32 shbf_best_k(__u64 m, __u64 n, double *pred)
{
	double best = INFINITY, v;
	__u32 k, bk = 1;

	for (k = 1; k <= SHBF_K_MAX; k++) {
		v = n ? shbf_pred(m, k, n) : 0;
		if (v < best) {
			best = v;
			bk = k;
		}
	}
	*pred = best;
	return bk;
}

static int shbf_build(struct exp_port_ctx *c, void **port)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_FAST, .seed = c->seed };
	struct kbloom_shbf *f;
	double pred;
	__u32 k;
	__u64 i;
	int err;

	k = c->x->p.k ? c->x->p.k : shbf_best_k(c->bits, c->n, &pred);
	if (c->x->p.k)
		pred = c->n ? shbf_pred(c->bits, k, c->n) : 0;
	err = kbloom_shbf_create(KB_SHBF_MEMBERSHIP, c->bits, k, 0, &o, &f);
	if (err)
		return err;
	for (i = 0; i < c->n; i++)
		kbloom_shbf_add(f, c->keys + 4 * i, 4);
	c->k_sum = 2 * k;
	c->k_n = 1;
	c->pred[0] = pred;
	c->probes = exp_port_tests(c);	/* one block per test */
	*port = f;
	return 0;
}

static int shbf_test(const void *port, const __u8 *key)
{
	return kbloom_shbf_test(port, key, 4) == 1;
}

static void shbf_destroy(void *port)
{
	kbloom_shbf_destroy(port);
}

static __u64 shbf_bytes(const struct kb_exp *x, __u64 bits)
{
	(void)x;
	return bits / 8;
}

static __u64 shbf_step(const struct kb_exp_params *p)
{
	(void)p;
	return KBLOOM_BLOCK_BITS;
}

const struct exp_scheme_ops exp_scheme_shifting = {
	.name = "shifting",
	.title = "shifting per-port",
	.color = "#843c39",
	.bits_step = shbf_step,
	.build = shbf_build,
	.test = shbf_test,
	.destroy = shbf_destroy,
	.bytes = shbf_bytes,
};
