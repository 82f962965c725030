// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the deletable per-port scheme (libkbloom_deletable.h).
 *
 * Port p holds a deletable Bloom filter: a standard filter of m bits in
 * regions of 4 bits plus a collision bit per region, so that a group's
 * leave clears its bits when one of them lies in a collision-free region
 * (no rebuild of the port's filter).  The M bits of the port hold both:
 * m is the largest multiple of 64 whose m / 64 body words and m / 256
 * bitmap words (rounded up) fit in M / 64 words, about 0.8 M.  k is the
 * one of the lowest predicted rate for the port's n groups among
 * round(m ln 2 / n) +- 2 (1..16):
 *   p = (1 - (1 - 1/m)^(k n))^k
 * A test reads k bits of the body.  The model forwards on the present
 * groups, which a deletable filter holds without false negatives.
 */
#include <errno.h>
#include <math.h>

#include "scheme.h"
#include "libkbloom_deletable.h"

#define DEL_K_MAX	16U
#define DEL_REGION	KB_DEL_REGION_DEFAULT

static double del_pred(__u64 m, __u32 k, __u64 n)
{
	return pow(-expm1((double)k * n * log1p(-1.0 / (double)m)), k);
}

/* Body bits of a port of @bits: body and bitmap words within @bits / 64. */
static __u64 del_body(__u64 bits)
{
	__u64 words = bits / 64, a = words;

	while (a && a + (a * 64 / DEL_REGION + 63) / 64 > words)
		a--;
	return a * 64;
}

/* The k of the lowest predicted rate for @n keys in @m bits. */
static __u32 del_best_k(__u64 m, __u64 n)
{
	__u32 k, k0, lo, hi, bk = 1;
	double best = INFINITY, v;

	k0 = n ? (__u32)lround((double)m / n * M_LN2) : 1;
	lo = k0 > 3 ? k0 - 2 : 1;
	hi = k0 + 2 < DEL_K_MAX ? k0 + 2 : DEL_K_MAX;
	if (lo > hi)
		lo = hi;
	for (k = lo; k <= hi; k++) {
		v = del_pred(m, k, n);
		if (v < best) {
			best = v;
			bk = k;
		}
	}
	return bk;
}

static int del_build(struct exp_port_ctx *c, void **port)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_FAST, .seed = c->seed };
	__u64 m = del_body(c->bits), i;
	__u32 k = c->x->p.k ? c->x->p.k : del_best_k(m, c->n);
	struct kbloom_del *f;
	int err;

	err = kbloom_del_create_mk(m, k, DEL_REGION, &o, &f);
	if (err)
		return err;
	for (i = 0; i < c->n; i++) {
		err = kbloom_del_add(f, c->keys + 4 * i, 4);
		if (err) {
			kbloom_del_destroy(f);
			return err;
		}
	}
	c->k_sum = k;
	c->k_n = 1;
	c->pred[0] = c->n ? del_pred(m, k, c->n) : 0.0;
	c->probes = exp_port_tests(c) * k;
	*port = f;
	return 0;
}

static int del_test(const void *port, const __u8 *key)
{
	return kbloom_del_test(port, key, 4) == 1;
}

static void del_destroy(void *port)
{
	kbloom_del_destroy(port);
}

/* Body and bitmap of one port, in bytes. */
static __u64 del_bytes(const struct kb_exp *x, __u64 bits)
{
	__u64 m = del_body(bits);

	(void)x;
	return m / 8 + (m / DEL_REGION + 63) / 64 * 8;
}

static __u64 del_step(const struct kb_exp_params *p)
{
	(void)p;
	return 64;
}

const struct exp_scheme_ops exp_scheme_deletable = {
	.name = "deletable",
	.title = "deletable per-port",
	.color = "#8c564b",
	.bits_step = del_step,
	.build = del_build,
	.test = del_test,
	.destroy = del_destroy,
	.bytes = del_bytes,
};
