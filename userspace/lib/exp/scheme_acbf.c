// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the accurate counting (ACBF) per-port scheme
 * (libkbloom_survey.h).
 *
 * Port p holds an ACBF of M bits, seeded per port, planned for its n
 * groups: level 1 is m1 = M - k n bits (rounded down to 64), the upper
 * levels hold the n groups' k n counter units exactly (a switch that
 * counts joins per group: the paper's "4m - kn" with M = 4m).  k is the
 * one of the lowest (1 - e^(-kn/m1))^k among 1..16 that leaves level 1 at
 * least 64 bits (or the run's k).  A port whose n groups leave no such k
 * (n > M - 64) cannot hold its set: it answers "present" for every group
 * (the switch floods that port: no false negative, maximal leakage;
 * predicted rate 1).  A test reads k level-1 bits.  Memory: M / 8 bytes.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "scheme.h"
#include "libkbloom_survey.h"

#define ACBF_K_MAX	16U

struct acbf_port {
	struct kbloom_acbf *f;	/* NULL: cannot hold its groups, floods */
};

/* Level 1 of @n keys at @k probes in @m bits; 0 if below 64 bits. */
static __u64 acbf_m1(__u64 m, __u64 n, __u32 k)
{
	__u64 up = (__u64)k * (n ? n : 1);

	return up + 64 > m ? 0 : (m - up) & ~63ULL;
}

/* The k of the lowest rate (or @force), and its rate; 0 if none fits. */
static __u32 acbf_k(__u64 m, __u64 n, __u32 force, double *pred)
{
	__u32 k, lo = force ? force : 1, hi = force ? force : ACBF_K_MAX;
	__u32 bk = 0;
	double v;

	*pred = 1.0;
	for (k = lo; k <= hi; k++) {
		if (!acbf_m1(m, n, k))
			continue;
		v = n ? kbloom_acbf_fpr(acbf_m1(m, n, k), k, n) : 0.0;
		if (!bk || v < *pred) {
			*pred = v;
			bk = k;
		}
	}
	return bk;
}

static int acbf_fill(const struct exp_port_ctx *c, __u32 k,
		     struct kbloom_acbf **out)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_FAST, .seed = c->seed };
	struct kbloom_acbf *f;
	int err;

	err = kbloom_acbf_create(c->bits, k, c->n ? c->n : 1, 0, &o, &f);
	if (err)
		return err;
	err = kbloom_acbf_add_many(f, c->keys, 4, c->n);
	if (err < 0) {
		kbloom_acbf_destroy(f);
		return err;
	}
	*out = f;
	return 0;
}

static int acbf_build(struct exp_port_ctx *c, void **port)
{
	struct acbf_port *ap = calloc(1, sizeof(*ap));
	__u32 k;
	int err;

	if (!ap)
		return -ENOMEM;
	k = acbf_k(c->bits, c->n, c->x->p.k, &c->pred[0]);
	if (k) {
		err = acbf_fill(c, k, &ap->f);
		if (err) {
			free(ap);
			return err;
		}
	}
	c->k_sum = k ? k : 1;
	c->k_n = 1;
	c->probes = exp_port_tests(c) * c->k_sum;
	*port = ap;
	return 0;
}

static int acbf_test(const void *port, const __u8 *key)
{
	const struct acbf_port *ap = port;

	return !ap->f || kbloom_acbf_test(ap->f, key, 4) == 1;
}

static void acbf_destroy(void *port)
{
	struct acbf_port *ap = port;

	kbloom_acbf_destroy(ap->f);
	free(ap);
}

static __u64 acbf_bytes(const struct kb_exp *x, __u64 bits)
{
	(void)x;
	return bits / 8;
}

static __u64 acbf_step(const struct kb_exp_params *p)
{
	(void)p;
	return 64;
}

const struct exp_scheme_ops exp_scheme_acbf = {
	.name = "acbf",
	.title = "accurate counting per-port",
	.color = "#c5b0d5",
	.bits_step = acbf_step,
	.build = acbf_build,
	.test = acbf_test,
	.destroy = acbf_destroy,
	.bytes = acbf_bytes,
};
