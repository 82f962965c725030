// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the complement per-port scheme (the complement Bloom
 * filter of libkbloom_survey.h, Lim, Lee, Yim 2015), exact by
 * construction.
 *
 * Port p's universe U is the groups it is tested on: its present groups S
 * (n_S) and its candidates C (n_C, the groups of its switch's trees that do
 * not use it).  It holds the family's two blocked filters, one of S and one
 * of C = U \ S, and the switch's exact table.  M bits are split as the
 * family's create() sizes them at one rate for both (the blocked planner's
 * m is proportional to n at a given rate): in 512-bit blocks in proportion
 * n_S : n_C, each filter at least one block; at M = 512 (one block) or
 * without candidates the complement filter is left out.  Each filter has
 * the k of the lowest predicted rate (predict.c: exp_best_k()).  A test:
 *   S's filter rejects         -> not forwarded (the filter has no false
 *                                 negative: the group is not in S);
 *   else C's filter rejects    -> forwarded, no exact lookup (in S);
 *   else (both pass)           -> the exact table decides.
 * So the port never leaks nor loses a group.  Of its n_S + n_C tests, the
 * exact lookup answers the members of S that C's filter passes (rate f_C)
 * and the candidates that S's filter passes (f_S), by the blocked formula
 * (uapi/kbloom_plan.h) at each filter's n, m, k:
 *   exact = n_S f_C + n_C f_S,   resolved share = 1 - exact / (n_S + n_C)
 * (without the complement filter f_C = 1), in the metrics' exact_tests,
 * exact_pred and port_tests, and summary.csv's resolved_share.
 * Probes: per test, the two filters' blocks (one without C's filter), plus
 * one table lookup per exact test.  Memory: M / 8 bytes, plus the port's
 * share of the exact table (the exact scheme's: per switch, its groups'
 * addresses and port bitmaps, shared out over its ports).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheme.h"
#include "uapi/kbloom_plan.h"

#define COMP_SEED	0x636f6d70ULL	/* C's filter: the port's seed ^ this */

struct comp_port {
	struct kbloom_filter *set;
	struct kbloom_filter *comp;	/* NULL: every S positive is exact */
	__u32 *keys;			/* the exact table, ascending */
	__u64 n;
};

enum { COMP_NO, COMP_YES, COMP_EXACT };

static int comp_cmp(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/* S's filter, then C's: COMP_NO, COMP_YES or COMP_EXACT (ask the table). */
static int comp_verdict(const struct comp_port *f, const __u8 *key)
{
	if (kbloom_test(f->set, key, 4) != 1)
		return COMP_NO;
	if (f->comp && kbloom_test(f->comp, key, 4) != 1)
		return COMP_YES;
	return COMP_EXACT;
}

static void comp_destroy(void *port)
{
	struct comp_port *f = port;

	if (!f)
		return;
	kbloom_destroy(f->set);
	kbloom_destroy(f->comp);
	free(f->keys);
	free(f);
}

/* A blocked filter of @m bits for @n keys; its predicted rate in *@rate. */
static int comp_filter(const struct exp_port_ctx *c, __u64 m, __u64 n,
		       __u64 seed, struct kbloom_filter **fp, __u32 *k,
		       double *rate)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_FAST,
				 .flags = KBLOOM_OPT_SINGLE_WRITER,
				 .seed = seed };

	*k = exp_best_k(c->x, KBLOOM_TYPE_BLOCKED, m, (__u32)n, NULL);
	*rate = n ? exp(exp_ln_q32(kb_plan_ln_fpr(KBLOOM_TYPE_BLOCKED, m, *k,
						  n))) : 0.0;
	return kbloom_create_mk(KBLOOM_TYPE_BLOCKED, m, *k, &o, fp);
}

/* The blocks of S's filter: in proportion n_S : n_C, C's at least one. */
static __u64 comp_set_blocks(__u64 blocks, __u64 ns, __u64 nc)
{
	__u64 b;

	if (!nc || blocks < 2)
		return blocks;
	b = (__u64)llround((double)blocks * ns / (double)(ns + nc));
	return b < 1 ? 1 : b > blocks - 1 ? blocks - 1 : b;
}

/* Both filters' keys and the exact table of the present groups. */
static int comp_fill(struct exp_port_ctx *c, struct comp_port *f)
{
	const struct kb_exp *x = c->x;
	__u64 i, off = x->cand_off[c->port];
	__u64 nc = x->cand_off[c->port + 1] - off;
	int err = 0;

	f->keys = malloc((c->n ? c->n : 1) * sizeof(*f->keys));
	if (!f->keys)
		return -ENOMEM;
	if (c->n)
		memcpy(f->keys, c->keys, c->n * 4);
	qsort(f->keys, c->n, sizeof(*f->keys), comp_cmp);
	f->n = c->n;
	if (c->n && kbloom_add_batch(f->set, c->keys, 4 * c->n, 4,
				     (__u32)c->n) < 0)
		err = -EINVAL;
	for (i = 0; f->comp && !err && i < nc; i++)
		if (kbloom_add(f->comp, &x->gkey[x->cand_g[off + i]], 4) < 0)
			err = -EINVAL;
	return err;
}

/*
 * The filters' answers for the @n keys at @keys, as bitmaps of (n + 7) / 8
 * bytes: S's in @in_s, C's in @in_c (all ones without C's filter).  A key
 * is COMP_NO without its S bit, COMP_YES with S and not C, else
 * COMP_EXACT: comp_verdict() for many keys at once.
 */
static int comp_verdicts(const struct comp_port *f, const __u8 *keys,
			 __u32 n, __u8 *in_s, __u8 *in_c)
{
	if (kbloom_test_batch(f->set, keys, 4 * (size_t)n, 4, n, in_s) < 0)
		return -EINVAL;
	if (!f->comp) {
		memset(in_c, 0xff, (n + 7) / 8);
		return 0;
	}
	if (kbloom_test_batch(f->comp, keys, 4 * (size_t)n, 4, n, in_c) < 0)
		return -EINVAL;
	return 0;
}

/* Of the @n keys at @keys, those the exact table answers, in *@exact. */
static int comp_exact_count(const struct comp_port *f, const __u8 *keys,
			    __u64 n, double *exact)
{
	__u8 *in_s = malloc(2 * ((n + 7) / 8) + 1), *in_c;
	__u64 i;
	int err;

	if (!in_s)
		return -ENOMEM;
	in_c = in_s + (n + 7) / 8;
	err = n ? comp_verdicts(f, keys, (__u32)n, in_s, in_c) : 0;
	for (i = 0; !err && i < (n + 7) / 8; i++)
		*exact += __builtin_popcount(in_s[i] & in_c[i]);
	free(in_s);
	return err;
}

/* The port's exact lookups, measured (c->exact) and predicted. */
static int comp_count(struct exp_port_ctx *c, const struct comp_port *f,
		      double f_s, double f_c)
{
	const struct kb_exp *x = c->x;
	__u64 i, off = x->cand_off[c->port];
	__u64 nc = x->cand_off[c->port + 1] - off;
	__u32 *cand;
	int err;

	c->exact = 0;
	c->exact_pred = c->n * (f->comp ? f_c : 1.0) + nc * f_s;
	cand = malloc((nc ? nc : 1) * sizeof(*cand));
	if (!cand)
		return -ENOMEM;
	for (i = 0; i < nc; i++)
		cand[i] = x->gkey[x->cand_g[off + i]];
	err = comp_exact_count(f, c->keys, c->n, &c->exact);
	if (!err)
		err = comp_exact_count(f, (const __u8 *)cand, nc, &c->exact);
	free(cand);
	return err;
}

static int comp_build(struct exp_port_ctx *c, void **port)
{
	const struct kb_exp *x = c->x;
	__u64 nc = x->cand_off[c->port + 1] - x->cand_off[c->port];
	__u64 blocks = c->bits / KBLOOM_BLOCK_BITS, bs;
	double f_s, f_c = 1.0;
	struct comp_port *f;
	__u32 ks, kc = 0;
	int err;

	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	bs = comp_set_blocks(blocks, c->n, nc);
	err = comp_filter(c, bs * KBLOOM_BLOCK_BITS, c->n, c->seed, &f->set,
			  &ks, &f_s);
	if (!err && bs < blocks)
		err = comp_filter(c, (blocks - bs) * KBLOOM_BLOCK_BITS, nc,
				  c->seed ^ COMP_SEED, &f->comp, &kc, &f_c);
	if (!err)
		err = comp_fill(c, f);
	if (!err)
		err = comp_count(c, f, f_s, f_c);
	if (err) {
		comp_destroy(f);
		return err;
	}
	c->k_sum = ks + kc;
	c->k_n = f->comp ? 2 : 1;
	c->pred[0] = 0.0;	/* never leaks */
	c->probes = exp_port_tests(c) * (f->comp ? 2 : 1) + c->exact;
	*port = f;
	return 0;
}

static int comp_test(const void *port, const __u8 *key)
{
	const struct comp_port *f = port;
	__u32 k;

	switch (comp_verdict(f, key)) {
	case COMP_NO:
		return 0;
	case COMP_YES:
		return 1;
	}
	memcpy(&k, key, 4);
	return !!bsearch(&k, f->keys, f->n, sizeof(k), comp_cmp);
}

/* comp_test() of @n keys: both filters in batches, then the table. */
static int comp_test_batch(const void *port, const __u8 *keys, __u32 n,
			   __u8 *hits)
{
	const struct comp_port *f = port;
	__u8 *in_c = malloc((n + 7) / 8 + 1);
	__u32 i, k;
	int err;

	if (!in_c)
		return -ENOMEM;
	err = n ? comp_verdicts(f, keys, n, hits, in_c) : 0;
	for (i = 0; !err && i < n; i++) {
		if (!((hits[i >> 3] & in_c[i >> 3]) >> (i & 7) & 1))
			continue;
		memcpy(&k, keys + 4 * (size_t)i, 4);
		if (!bsearch(&k, f->keys, f->n, sizeof(k), comp_cmp))
			hits[i >> 3] &= (__u8)~(1U << (i & 7));
	}
	free(in_c);
	return err;
}

/* M / 8, plus the mean share per switch port of the exact tables. */
static __u64 comp_bytes(const struct kb_exp *x, __u64 bits)
{
	const struct kb_topo *t = x->topo;
	__u64 table = 0, ports = 0;
	__u32 i, np;

	for (i = 0; i < x->nsw; i++) {
		np = t->nodes[x->sw[i]].nports;
		table += (__u64)x->sw_groups[i] * (4 + (np + 7) / 8);
		ports += np;
	}
	return bits / 8 + (ports ? (table + ports - 1) / ports : 0);
}

static __u64 comp_step(const struct kb_exp_params *p)
{
	(void)p;
	return KBLOOM_BLOCK_BITS;
}

const struct exp_scheme_ops exp_scheme_complement = {
	.name = "complement",
	.title = "complement per-port",
	.color = "#3182bd",
	.bits_step = comp_step,
	.build = comp_build,
	.test = comp_test,
	.test_batch = comp_test_batch,
	.destroy = comp_destroy,
	.bytes = comp_bytes,
};
