// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the one-hashing per-port scheme (libkbloom_survey.h,
 * uapi/kbloom_var_onehash.h).
 *
 * Port p holds a one-hashing Bloom filter: k partitions in slices of s =
 * M / k bits rounded down to whole words, partition i of the i-th prime
 * size m_i below s, probe i at h mod m_i of the one hash h (at most 64 k
 * - 1 bits of M and the prime gaps unused; memory is counted as M / 8).
 * A slice is at least 256 bits, so k <= M / 256.  k is the one of the
 * lowest predicted rate among round(M ln 2 / n) +- 2 (1..16):
 *   p = prod_i (1 - (1 - 1/m_i)^n)
 * A test reads k bits, one per partition.
 */
#include <errno.h>
#include <math.h>

#include "scheme.h"
#include "libkbloom_survey.h"

#define OH_K_MAX	16U
#define OH_SLICE_MIN	256ULL

/* The predicted rate of @k partitions in slices of @slice bits. */
static double oh_pred(__u64 slice, __u32 k, __u64 n)
{
	__u32 sizes[KBLOOM_K_MAX];

	if (kb_oh_sizes(slice, k, sizes))
		return 1;
	return kbloom_oh_fpr(sizes, k, n);
}

/* The k of the lowest predicted rate for @n keys in @m bits. */
static __u32 oh_best_k(__u64 m, __u64 n)
{
	__u32 k, k0, lo, hi, kmax = OH_K_MAX, bk = 1;
	double best = INFINITY, v;

	if (kmax > m / OH_SLICE_MIN)
		kmax = (__u32)(m / OH_SLICE_MIN);
	k0 = n ? (__u32)lround((double)m / n * M_LN2) : 1;
	lo = k0 > 3 ? k0 - 2 : 1;
	hi = k0 + 2 < kmax ? k0 + 2 : kmax;
	if (lo > hi)
		lo = hi;
	for (k = lo; k <= hi; k++) {
		v = oh_pred(m / k & ~63ULL, k, n);
		if (v < best) {
			best = v;
			bk = k;
		}
	}
	return bk;
}

static int oh_build(struct exp_port_ctx *c, void **port)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_FAST, .seed = c->seed };
	__u32 k = c->x->p.k ? c->x->p.k : oh_best_k(c->bits, c->n);
	struct kbloom_oh_stats st;
	struct kbloom_oh *f;
	__u64 slice, i;
	int err;

	if (k > c->bits / OH_SLICE_MIN)
		k = (__u32)(c->bits / OH_SLICE_MIN);
	slice = c->bits / k & ~63ULL;
	err = kbloom_oh_create_ks(k, slice, &o, &f);
	for (i = 0; !err && i < c->n; i++)
		err = kbloom_oh_add(f, c->keys + 4 * i, 4);
	if (err) {
		kbloom_oh_destroy(f);
		return err;
	}
	kbloom_oh_stats(f, &st);
	c->k_sum = k;
	c->k_n = 1;
	c->pred[0] = c->n ? kbloom_oh_fpr(st.sizes, k, c->n) : 0.0;
	c->probes = exp_port_tests(c) * k;
	*port = f;
	return 0;
}

static int oh_test(const void *port, const __u8 *key)
{
	return kbloom_oh_test(port, key, 4) == 1;
}

static void oh_destroy(void *port)
{
	kbloom_oh_destroy(port);
}

static __u64 oh_bytes(const struct kb_exp *x, __u64 bits)
{
	(void)x;
	return bits / 8;
}

/* Whole 256-bit slices: M holds at least one partition. */
static __u64 oh_step(const struct kb_exp_params *p)
{
	(void)p;
	return OH_SLICE_MIN;
}

const struct exp_scheme_ops exp_scheme_onehash = {
	.name = "onehash",
	.title = "one-hashing per-port",
	.color = "#aec7e8",
	.bits_step = oh_step,
	.build = oh_build,
	.test = oh_test,
	.destroy = oh_destroy,
	.bytes = oh_bytes,
};
