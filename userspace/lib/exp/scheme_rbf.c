// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the retouched (RBF) per-port scheme (libkbloom_survey.h).
 *
 * Port p holds a standard filter of M bits, seeded per port, with k =
 * round(M / n ln 2) in 1..16 (or the run's k), retouched as Donnet,
 * Baynat and Friedman propose for a known set of troublesome keys: the
 * control plane knows the port's candidate groups (groups whose tree
 * reaches the switch but not this port), and a candidate the filter lets
 * through loses one of its bits, chosen by ratio selection (the bit with
 * the fewest present groups per such candidate, the paper's best
 * policy), when that bit holds at most as many present groups as
 * candidates (RBF_MAX_RATIO: a cleared bit never costs more deliveries
 * than it saves leaks).  Present groups that shared a cleared bit are
 * false negatives: their tree link does not carry them (may_fn, lost
 * deliveries).  Predicted rate: none (0; the clearing is data-driven).
 * A test reads k bits.  Memory: M / 8 bytes.  Once retouched, the port
 * keeps only the bits (kbloom_rbf_drop_counts(): the member counts, 4
 * bytes per bit, would hold 2.7 GB of a run at M = 131072).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheme.h"
#include "libkbloom_survey.h"

#define RBF_K_MAX	16U
#define RBF_MAX_RATIO	1U	/* groups lost per candidate cleared */

static __u32 rbf_k(__u64 m, __u64 n, __u32 force)
{
	double k = n ? round((double)m / (double)n * M_LN2) : 1;

	if (force)
		return force;
	return k < 1 ? 1 : k > RBF_K_MAX ? RBF_K_MAX : (__u32)k;
}

/* The port's candidate groups' keys, 4 bytes each, in *@keys. */
static int rbf_candidates(const struct exp_port_ctx *c, __u8 **keys,
			  __u64 *n)
{
	const struct kb_exp *x = c->x;
	__u64 off = x->cand_off[c->port], i;

	*n = x->cand_off[c->port + 1] - off;
	*keys = malloc(*n ? *n * 4 : 1);
	if (!*keys)
		return -ENOMEM;
	for (i = 0; i < *n; i++)
		memcpy(*keys + 4 * i, &x->gkey[x->cand_g[off + i]], 4);
	return 0;
}

static int rbf_fill(const struct exp_port_ctx *c, struct kbloom_rbf *f)
{
	__u64 i, ncand;
	__u8 *cand;
	long ret;
	int err;

	for (i = 0; i < c->n; i++) {
		err = kbloom_rbf_add(f, c->keys + 4 * i, 4);
		if (err)
			return err;
	}
	err = rbf_candidates(c, &cand, &ncand);
	if (err)
		return err;
	ret = ncand ? kbloom_rbf_retouch_ratio(f, cand, 4, ncand,
					       RBF_MAX_RATIO) : 0;
	free(cand);
	return ret < 0 ? (int)ret : kbloom_rbf_drop_counts(f);
}

static int rbf_build(struct exp_port_ctx *c, void **port)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_FAST, .seed = c->seed };
	__u32 k = rbf_k(c->bits, c->n, c->x->p.k);
	struct kbloom_rbf *f;
	int err;

	err = kbloom_rbf_create(c->bits, k, &o, &f);
	if (err)
		return err;
	err = rbf_fill(c, f);
	if (err) {
		kbloom_rbf_destroy(f);
		return err;
	}
	c->k_sum = k;
	c->k_n = 1;
	c->pred[0] = 0.0;
	c->probes = exp_port_tests(c) * k;
	*port = f;
	return 0;
}

static int rbf_test(const void *port, const __u8 *key)
{
	return kbloom_rbf_test(port, key, 4) == 1;
}

static void rbf_destroy(void *port)
{
	kbloom_rbf_destroy(port);
}

static __u64 rbf_bytes(const struct kb_exp *x, __u64 bits)
{
	(void)x;
	return bits / 8;
}

static __u64 rbf_step(const struct kb_exp_params *p)
{
	(void)p;
	return 64;
}

const struct exp_scheme_ops exp_scheme_rbf = {
	.name = "rbf",
	.title = "retouched per-port (ratio selection)",
	.color = "#98df8a",
	.may_fn = 1,
	.bits_step = rbf_step,
	.build = rbf_build,
	.test = rbf_test,
	.destroy = rbf_destroy,
	.bytes = rbf_bytes,
};
