// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the FP-CBF per-port scheme (libkbloom_survey.h).
 *
 * Port p holds a fingerprint counting filter (Pontarelli, Reviriego,
 * Maestro 2016) of M / 8 cells, each a 4-bit counter and a 4-bit
 * fingerprint field, seeded per port: a counting filter a switch can
 * delete groups from, at the bytes of a counting filter of M / 4 4-bit
 * counters.  k is the one of the lowest predicted rate
 * (kbloom_fpcbf_fpr()) for the port's n groups among 1..16 (or the run's
 * k).  Counters saturate, so a port never overflows.  A test reads k
 * cells.  Memory: M / 8 bytes.
 */
#include <errno.h>
#include <math.h>

#include "scheme.h"
#include "libkbloom_survey.h"

#define FPC_CTR_BITS	4U
#define FPC_FP_BITS	4U
#define FPC_CELL_BITS	(FPC_CTR_BITS + FPC_FP_BITS)
#define FPC_K_MAX	16U

/* The k of the lowest rate of @n keys on @m cells (or @force). */
static __u32 fpc_k(__u64 m, __u64 n, __u32 force, double *pred)
{
	__u32 k, lo = force ? force : 1, hi = force ? force : FPC_K_MAX;
	__u32 bk = lo;
	double v;

	*pred = INFINITY;
	for (k = lo; k <= hi; k++) {
		v = kbloom_fpcbf_fpr(m, k, n, FPC_FP_BITS);
		if (v < *pred) {
			*pred = v;
			bk = k;
		}
	}
	if (!n)
		*pred = 0.0;
	return bk;
}

static int fpc_build(struct exp_port_ctx *c, void **port)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_FAST, .seed = c->seed };
	__u64 m = c->bits / FPC_CELL_BITS, i;
	struct kbloom_fpcbf *f;
	__u32 k;
	int err;

	k = fpc_k(m, c->n, c->x->p.k, &c->pred[0]);
	err = kbloom_fpcbf_create(m, k, FPC_CTR_BITS, FPC_FP_BITS, &o, &f);
	if (err)
		return err;
	for (i = 0; i < c->n; i++) {
		err = kbloom_fpcbf_add(f, c->keys + 4 * i, 4);
		if (err < 0) {
			kbloom_fpcbf_destroy(f);
			return err;
		}
	}
	c->k_sum = k;
	c->k_n = 1;
	c->probes = exp_port_tests(c) * k;
	*port = f;
	return 0;
}

static int fpc_test(const void *port, const __u8 *key)
{
	return kbloom_fpcbf_test(port, key, 4) == 1;
}

static void fpc_destroy(void *port)
{
	kbloom_fpcbf_destroy(port);
}

static __u64 fpc_bytes(const struct kb_exp *x, __u64 bits)
{
	(void)x;
	return bits / 8;
}

/* M / 8 cells, a multiple of 64 */
static __u64 fpc_step(const struct kb_exp_params *p)
{
	(void)p;
	return 64 * FPC_CELL_BITS;
}

const struct exp_scheme_ops exp_scheme_fpcbf = {
	.name = "fpcbf",
	.title = "FP-CBF per-port (4+4-bit cells)",
	.color = "#ffbb78",
	.bits_step = fpc_step,
	.build = fpc_build,
	.test = fpc_test,
	.destroy = fpc_destroy,
	.bytes = fpc_bytes,
};
