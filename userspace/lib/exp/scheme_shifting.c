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
 * (the blocked filter's formula for 2k bits per group).  The k and rate
 * of a group count are memoised for the run (ports share their counts).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheme.h"
#include "libkbloom_survey.h"

#define SHBF_K_MAX	8U

/*
 * Per group count n: its k (0: not yet) and the rate's bits, filled by
 * the building threads (any of them: the values only depend on n and M),
 * the rate stored before its k (release).
 */
struct shbf_plan {
	__u32 *k;
	__u64 *pred;
};

static void shbf_plan_free(void *plan)
{
	struct shbf_plan *pl = plan;

	if (!pl)
		return;
	free(pl->k);
	free(pl->pred);
	free(pl);
}

static int shbf_plan(struct kb_exp *x, struct kb_exp_state *s, void **plan)
{
	struct shbf_plan *pl = calloc(1, sizeof(*pl));

	(void)s;
	if (!pl)
		return -ENOMEM;
	pl->k = calloc(x->p.groups + 1, sizeof(*pl->k));
	pl->pred = calloc(x->p.groups + 1, sizeof(*pl->pred));
	if (!pl->k || !pl->pred) {
		shbf_plan_free(pl);
		return -ENOMEM;
	}
	*plan = pl;
	return 0;
}

/*
 * The rates of k = @klo..@khi into @p[k]: one pass over i, each Poisson
 * weight computed once for every k (the sums and their order per k are
 * those of one pass per k).
 */
static void shbf_pred_ks(__u64 m, __u64 n, __u32 klo, __u32 khi, double *p)
{
	double lambda = (double)n * KBLOOM_BLOCK_BITS / m, w, f;
	__u32 i, k;

	for (k = klo; k <= khi; k++)
		p[k] = 0;
	for (i = 0; i < 4 * lambda + 64; i++) {
		w = exp(-lambda + i * log(lambda) - lgamma(i + 1.0));
		for (k = klo; k <= khi; k++) {
			f = -expm1(2.0 * k * i *
				   log1p(-1.0 / KBLOOM_BLOCK_BITS));
			p[k] += w * pow(f, 2 * k);
		}
	}
}

static __u32 shbf_best_k(__u64 m, __u64 n, double *pred)
{
	double best = INFINITY, v[SHBF_K_MAX + 1];
	__u32 k, bk = 1;

	if (n)
		shbf_pred_ks(m, n, 1, SHBF_K_MAX, v);
	for (k = 1; k <= SHBF_K_MAX; k++) {
		if (!n)
			v[k] = 0;
		if (v[k] < best) {
			best = v[k];
			bk = k;
		}
	}
	*pred = best;
	return bk;
}

/* shbf_best_k() of the port's n groups, memoised in the plan. */
static __u32 shbf_memo_k(const struct exp_port_ctx *c, double *pred)
{
	struct shbf_plan *pl = c->plan;
	__u32 k = __atomic_load_n(&pl->k[c->n], __ATOMIC_ACQUIRE);
	__u64 bits;

	if (k) {
		bits = __atomic_load_n(&pl->pred[c->n], __ATOMIC_RELAXED);
		memcpy(pred, &bits, sizeof(bits));
		return k;
	}
	k = shbf_best_k(c->bits, c->n, pred);
	memcpy(&bits, pred, sizeof(bits));
	__atomic_store_n(&pl->pred[c->n], bits, __ATOMIC_RELAXED);
	__atomic_store_n(&pl->k[c->n], k, __ATOMIC_RELEASE);
	return k;
}

static int shbf_build(struct exp_port_ctx *c, void **port)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_FAST, .seed = c->seed };
	struct kbloom_shbf *f;
	double pred, v[KBLOOM_K_MAX + 1];
	__u32 k;
	__u64 i;
	int err;

	k = c->x->p.k ? c->x->p.k : shbf_memo_k(c, &pred);
	if (c->x->p.k && c->n)
		shbf_pred_ks(c->bits, c->n, k, k, v);
	if (c->x->p.k)
		pred = c->n ? v[k] : 0;
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
	.plan = shbf_plan,
	.plan_free = shbf_plan_free,
	.build = shbf_build,
	.test = shbf_test,
	.destroy = shbf_destroy,
	.bytes = shbf_bytes,
};
