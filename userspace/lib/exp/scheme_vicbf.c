// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the VI-CBF per-port scheme (libkbloom_vicbf.h).
 *
 * Port p holds a variable-increment counting filter (Rottenstreich,
 * Kanizo, Keslassy 2012) of M / 4 four-bit counters, increments in
 * [L, 2L) with L = 4 (a port's set grows and is never churned here: the
 * library's advice for such sets), seeded per port.  It is what a switch
 * would hold to delete groups that leave; the experiment measures what
 * that costs in leakage against a plain filter of the same bytes.  k is
 * the one of the lowest predicted rate for the port's n groups
 * (kb_vi_ln_fpr(), uapi/kbloom_var_vicbf.h) among 1..16, memoised per n
 * for the run.  A test reads k counters.  Memory: M / 8 bytes.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "scheme.h"
#include "libkbloom_vicbf.h"
#include "uapi/kbloom_var_vicbf.h"

#define VI_CTR_BITS	4U
#define VI_L		4U
#define VI_K_MAX	16U

struct vi_plan {
	__u8 *k;	/* per n: best k, 0 not yet (filled before the threads) */
	double *pred;	/* per n: its rate */
};

static void vi_plan_free(void *plan)
{
	struct vi_plan *pl = plan;

	if (!pl)
		return;
	free(pl->k);
	free(pl->pred);
	free(pl);
}

/* The k of the lowest predicted rate of @n keys on @m counters. */
static __u32 vi_best_k(__u64 m, __u32 n, double *pred)
{
	double best = INFINITY, v;
	__u32 k, bk = 1;

	for (k = 1; k <= VI_K_MAX; k++) {
		v = exp_ln_q32(kb_vi_ln_fpr(m, k, n, VI_L));
		if (v < best) {
			best = v;
			bk = k;
		}
	}
	*pred = n ? exp(best) : 0.0;
	return bk;
}

/* Per group count of the switch ports: the k and its predicted rate. */
static int vi_plan(struct kb_exp *x, struct kb_exp_state *s, void **plan)
{
	const struct kb_topo *t = x->topo;
	struct vi_plan *pl = calloc(1, sizeof(*pl));
	__u64 m = s->bits / VI_CTR_BITS;
	__u32 p, n;

	if (!pl)
		return -ENOMEM;
	pl->k = calloc(x->p.groups + 1, 1);
	pl->pred = calloc(x->p.groups + 1, sizeof(*pl->pred));
	if (!pl->k || !pl->pred) {
		vi_plan_free(pl);
		return -ENOMEM;
	}
	for (p = 0; p < t->nports; p++) {
		if (t->nodes[t->ports[p].node].kind != KB_NODE_SWITCH)
			continue;
		n = x->port_n[p];
		if (pl->k[n])
			continue;
		if (!x->p.k) {
			pl->k[n] = (__u8)vi_best_k(m, n, &pl->pred[n]);
			continue;
		}
		pl->k[n] = (__u8)x->p.k;
		pl->pred[n] = exp(exp_ln_q32(kb_vi_ln_fpr(m, x->p.k, n, VI_L)));
	}
	*plan = pl;
	return 0;
}

static int vi_build(struct exp_port_ctx *c, void **port)
{
	struct kbloom_vicbf_opts o = { .hash_id = KBLOOM_HASH_FAST,
				       .counter_bits = VI_CTR_BITS,
				       .vi_l = VI_L, .seed = c->seed };
	const struct vi_plan *pl = c->plan;
	__u32 n = c->x->port_n[c->port], k = pl->k[n];
	struct kbloom_vicbf *f;
	__u64 i;
	int err;

	err = kbloom_vicbf_create_mk(c->bits / VI_CTR_BITS, k, &o, &f);
	if (err)
		return err;
	for (i = 0; i < c->n; i++) {
		err = kbloom_vicbf_add(f, c->keys + 4 * i, 4);
		if (err < 0) {
			kbloom_vicbf_destroy(f);
			return err;
		}
	}
	c->k_sum = k;
	c->k_n = 1;
	c->pred[0] = pl->pred[n];
	c->probes = exp_port_tests(c) * k;
	*port = f;
	return 0;
}

static int vi_test(const void *port, const __u8 *key)
{
	return kbloom_vicbf_test(port, key, 4) == 1;
}

static void vi_destroy(void *port)
{
	kbloom_vicbf_destroy(port);
}

static __u64 vi_bytes(const struct kb_exp *x, __u64 bits)
{
	(void)x;
	return bits / 8;
}

/* M / 4 counters, a multiple of 64 */
static __u64 vi_step(const struct kb_exp_params *p)
{
	(void)p;
	return 64 * VI_CTR_BITS;
}

const struct exp_scheme_ops exp_scheme_vicbf = {
	.name = "vicbf",
	.title = "VI-CBF per-port (4-bit, L=4)",
	.color = "#7f7f7f",
	.bits_step = vi_step,
	.plan = vi_plan,
	.plan_free = vi_plan_free,
	.build = vi_build,
	.test = vi_test,
	.destroy = vi_destroy,
	.bytes = vi_bytes,
};
