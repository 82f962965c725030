// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the MC-BF per-port scheme.
 *
 * Port p holds a Multi-Class Bloom filter of M bits (kb_mcbf, blocked or
 * standard as the parameters say), seeded per port, whose class table
 * (a k per class) is planned on the port's own counts of present and
 * candidate groups per class (mcbf_plan.c, through a per-thread memo),
 * or once for the fabric (mcbf-plan global).  Its predicted rate is per
 * class (predict.c: exp_mcbf_pred()).  A test of a class-c key reads k_c
 * bits (standard) or one block (blocked).  Memory: M / 8 bytes and the
 * class table (KB_MCBF_CLASSES bytes).  The keys are hashed from the
 * seed-free half the experiment keeps per group (x->gmix), the port's
 * seed added (kb_hash_fast_mixed()): the filter's own hash, KBLOOM_HASH_FAST.
 */
#include <errno.h>
#include <stdlib.h>

#include "scheme.h"
#include "uapi/kbloom_hash.h"

struct mcbf_plan {
	struct plan_memo *memo;		/* PLAN_MEMO per thread */
	int global;
	struct kb_mcbf_classes glob;	/* mcbf-plan global */
};

struct mcbf_port {
	struct kb_mcbf *f;
	struct kb_mcbf_classes cls;
	__u64 seed;
};

/* kb_mcbf_*_v4()'s hash and class of group @g under seed @seed. */
static inline __u64 mcbf_group_hash(const struct kb_exp *x, __u64 seed,
				    __u32 g, __u32 *cls)
{
	*cls = kb_mcbf_class_v4((const __u8 *)&x->gkey[g]);
	return kb_hash_fast_mixed(seed, 4, x->gmix[g]);
}

static void mcbf_plan_free(void *plan)
{
	struct mcbf_plan *pl = plan;

	if (!pl)
		return;
	free(pl->memo);
	free(pl);
}

/* One class table for the fabric from the average port's counts. */
static int mcbf_plan_global(struct kb_exp *x, __u64 bits,
			    struct kb_mcbf_classes *glob)
{
	const struct kb_topo *t = x->topo;
	double avg_p[KB_MCBF_CLASSES] = { 0 }, avg_a[KB_MCBF_CLASSES] = { 0 };
	__u32 p, c, nports = 0;

	for (p = 0; p < t->nports; p++) {
		if (t->nodes[t->ports[p].node].kind != KB_NODE_SWITCH)
			continue;
		nports++;
		for (c = 0; c < x->nclass; c++) {
			avg_p[c] += x->present[(size_t)p * x->nclass + c];
			avg_a[c] += x->absent[(size_t)p * x->nclass + c];
		}
	}
	for (c = 0; c < x->nclass; c++) {
		avg_p[c] /= nports ? nports : 1;
		avg_a[c] /= nports ? nports : 1;
	}
	return exp_mcbf_plan(x, bits, avg_p, avg_a, glob);
}

static int mcbf_plan(struct kb_exp *x, struct kb_exp_state *s, void **plan)
{
	struct mcbf_plan *pl = calloc(1, sizeof(*pl));
	int err;

	if (!pl)
		return -ENOMEM;
	pl->memo = calloc((size_t)PLAN_MEMO * x->nthreads, sizeof(*pl->memo));
	if (!pl->memo) {
		err = -ENOMEM;
		goto err_free_plan;
	}
	pl->global = !!x->p.mcbf_global;
	if (pl->global) {
		err = mcbf_plan_global(x, s->bits, &pl->glob);
		if (err)
			goto err_free_plan;
	}
	*plan = pl;
	return 0;

err_free_plan:
	mcbf_plan_free(pl);
	return err;
}

static double mcbf_probes(const struct exp_port_ctx *c,
			  const struct kb_mcbf_classes *cls)
{
	double n = 0;
	__u32 i;

	if (c->x->p.mcbf_type != KBLOOM_TYPE_STANDARD)
		return exp_port_tests(c);
	for (i = 0; i < c->x->nclass; i++)
		n += ((double)c->pres[i] + c->absent[i]) * cls->k[i];
	return n;
}

static int mcbf_build(struct exp_port_ctx *c, void **port)
{
	const struct kb_exp *x = c->x;
	struct mcbf_plan *pl = c->plan;
	struct mcbf_port *mp = calloc(1, sizeof(*mp));
	__u64 i;
	int err;

	if (!mp)
		return -ENOMEM;
	mp->cls = pl->glob;
	if (!pl->global) {
		err = exp_mcbf_port_plan(x, c->bits, c->port,
					 pl->memo + (size_t)PLAN_MEMO * c->worker,
					 &mp->cls);
		if (err)
			goto err_free_port;
	}
	for (i = 0; i < x->nclass; i++)
		c->k_sum += mp->cls.k[i];
	c->k_n = x->nclass;
	err = kb_mcbf_new(x->p.mcbf_type, c->bits, KBLOOM_HASH_FAST, c->seed,
			  &mp->cls, &mp->f);
	if (err)
		goto err_free_port;
	mp->seed = c->seed;
	for (i = 0; i < c->n; i++) {
		__u32 cls;
		__u64 h = mcbf_group_hash(x, c->seed, c->groups[i], &cls);

		err = kb_mcbf_add_hash(mp->f, h, cls);
		if (err)
			goto err_free_filter;
	}
	exp_mcbf_pred(x, c->bits, c->port, &mp->cls, c->pred);
	c->probes = mcbf_probes(c, &mp->cls);
	*port = mp;
	return 0;

err_free_filter:
	kb_mcbf_free(mp->f);
err_free_port:
	free(mp);
	return err;
}

static int mcbf_test(const void *port, const __u8 *key)
{
	const struct mcbf_port *mp = port;

	return kb_mcbf_test_v4(mp->f, key) == 1;
}

#define MCBF_GROUPS	256U	/* a multiple of 8: whole bytes of hits */

/* The groups' hashes and classes, tested MCBF_GROUPS at a time. */
static int mcbf_test_groups(const void *port, const struct kb_exp *x,
			    const __u32 *g, __u64 n, __u8 *hits)
{
	const struct mcbf_port *mp = port;
	__u64 h[MCBF_GROUPS], c, i, len;
	__u8 cl[MCBF_GROUPS];
	__u32 cls;
	int err;

	for (c = 0; c < n; c += len) {
		len = n - c < MCBF_GROUPS ? n - c : MCBF_GROUPS;
		for (i = 0; i < len; i++) {
			h[i] = mcbf_group_hash(x, mp->seed, g[c + i], &cls);
			cl[i] = (__u8)cls;
		}
		err = kb_mcbf_test_hashes(mp->f, h, cl, (__u32)len,
					  hits + c / 8);
		if (err)
			return err;
	}
	return 0;
}

static void mcbf_destroy(void *port)
{
	struct mcbf_port *mp = port;

	if (!mp)
		return;
	kb_mcbf_free(mp->f);
	free(mp);
}

static __u64 mcbf_bytes(const struct kb_exp *x, __u64 bits)
{
	(void)x;
	return bits / 8 + KB_MCBF_CLASSES;	/* + the class table */
}

static int mcbf_export(const struct kb_exp_state *s, __u32 port,
		       const void *obj, struct kb_exp_port_filter *f)
{
	const struct mcbf_port *mp = obj;
	const struct kb_exp *x = s->x;

	f->type = x->p.mcbf_type;
	f->m = s->bits;
	f->hash_id = KBLOOM_HASH_FAST;
	f->seed = exp_port_seed(x, port);
	f->words = kb_mcbf_words(mp->f, &f->nwords);
	f->classes = mp->cls;
	return 0;
}

static __u64 mcbf_step(const struct kb_exp_params *p)
{
	return p->mcbf_type == KBLOOM_TYPE_STANDARD ? 64 : KBLOOM_BLOCK_BITS;
}

const struct exp_scheme_ops exp_scheme_mcbf = {
	.name = "mcbf",
	.title = "MC-BF per-port",
	.color = "#2ca02c",
	.pred_per_class = 1,
	.bits_step = mcbf_step,
	.plan = mcbf_plan,
	.plan_free = mcbf_plan_free,
	.build = mcbf_build,
	.test = mcbf_test,
	.test_groups = mcbf_test_groups,
	.destroy = mcbf_destroy,
	.bytes = mcbf_bytes,
	.export = mcbf_export,
};
