// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the per-port filters, built and tested in the threads.
 *
 * The switch ports are shared out statically, port p to worker p mod T.
 * A worker creates the filter of each of its ports (standard or blocked
 * with the port's k, or MC-BF with the port's class table; seeded per
 * port), inserts the port's present groups, and tests every candidate
 * group of the port against it while the filter is in the cache.  A match
 * is a (group, port) pair, a first-order false positive; the port's
 * predicted rate p (predict.c) adds to the group's expected matches,
 * fp_pred(g) = sum of p over g's candidate ports.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "exp_int.h"

/* The keys of groups @g[0..n) in w->keys (4 bytes each). */
static int gather_keys(struct exp_worker *w, const __u32 *g, __u64 n)
{
	const __u32 *key = w->x->gkey;
	__u64 i;
	void *nk, *nb;

	if (n > w->cap_keys) {
		nk = realloc(w->keys, n * 4);
		if (!nk)
			return -ENOMEM;
		w->keys = nk;
		nb = realloc(w->bitmap, (n + 7) / 8);
		if (!nb)
			return -ENOMEM;
		w->bitmap = nb;
		w->cap_keys = n;
	}
	for (i = 0; i < n; i++)
		memcpy(w->keys + 4 * i, &key[g[i]], 4);
	return 0;
}

/*
 * Test every candidate of port @p against its filter, just built: the
 * matches in w->pairs, the predicted matches added to w->g_pred.
 */
static int port_test(struct exp_worker *w, const struct kb_exp_state *s,
		     __u32 p)
{
	const struct kb_exp *x = w->x;
	__u64 i, off = x->cand_off[p], n = x->cand_off[p + 1] - off;
	int err, hit, batch = s->scheme == KB_EXP_BLOCKED;
	double pred[KB_MCBF_CLASSES];
	__u32 g, c, *np;

	err = gather_keys(w, x->cand_g + off, n);
	if (err)
		return err;
	for (c = 0; c < x->nclass; c++)
		pred[c] = exp_port_pred(s, p, c);
	/*
	 * Blocked: the port's candidates in one batch, hits in w->bitmap.
	 * Standard: one call per key (the batch's k prefetches per key
	 * cost more than they save in cache).
	 */
	if (batch && kbloom_test_batch(s->pf[p], w->keys, 4 * n, 4,
				       (__u32)n, w->bitmap) < 0)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		g = x->cand_g[off + i];
		w->g_pred[g] += pred[x->gcls[g]];
		if (batch)
			hit = (w->bitmap[i >> 3] >> (i & 7)) & 1;
		else if (s->pf)
			hit = kbloom_test(s->pf[p], w->keys + 4 * i, 4) == 1;
		else
			hit = kb_mcbf_test_v4(s->mf[p], w->keys + 4 * i) == 1;
		if (!hit)
			continue;
		if (w->npairs == w->cap_pairs) {
			w->cap_pairs = w->cap_pairs ? 2 * w->cap_pairs : 4096;
			np = realloc(w->pairs, w->cap_pairs * 2 * sizeof(*np));
			if (!np)
				return -ENOMEM;
			w->pairs = np;
		}
		w->pairs[2 * w->npairs] = g;
		w->pairs[2 * w->npairs + 1] = p;
		w->npairs++;
	}
	return 0;
}

/* Port @p's MC-BF filter: its class table, its @n groups (in w->keys). */
static int port_build_mcbf(struct exp_worker *w, struct build_arg *ba,
			   __u32 p, __u64 n)
{
	struct kb_exp_state *s = ba->s;
	struct kb_exp *x = w->x;
	__u64 i;
	int err;

	if (!x->p.mcbf_global) {
		err = exp_mcbf_port_plan(x, s->bits, p,
					 ba->memo_mcbf +
					 (size_t)PLAN_MEMO * w->id,
					 &s->cls[p]);
		if (err)
			return err;
	}
	for (i = 0; i < x->nclass; i++)
		s->port_k[p] += s->cls[p].k[i];
	err = kb_mcbf_new(x->p.mcbf_type, s->bits, KBLOOM_HASH_FAST,
			  exp_port_seed(x, p), &s->cls[p], &s->mf[p]);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		err = kb_mcbf_add_v4(s->mf[p], w->keys + 4 * i);
		if (err)
			return err;
	}
	exp_mcbf_pred(x, s, p);
	return 0;
}

/* Port @p's standard or blocked filter of its @n groups (in w->keys). */
static int port_build_bloom(struct exp_worker *w, struct build_arg *ba,
			    __u32 p, __u64 n)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_FAST,
				 .flags = KBLOOM_OPT_SINGLE_WRITER };
	struct kb_exp_state *s = ba->s;
	struct kb_exp *x = w->x;
	__u32 type = s->scheme == KB_EXP_STANDARD ? KBLOOM_TYPE_STANDARD :
						     KBLOOM_TYPE_BLOCKED;
	__u64 i;
	int err;

	s->port_k[p] = exp_best_k(x, type, s->bits, x->port_n[p], ba->memo);
	o.seed = exp_port_seed(x, p);
	err = kbloom_create_mk(type, s->bits, s->port_k[p], &o, &s->pf[p]);
	if (err)
		return err;
	/*
	 * Standard: one call per key: the filter is in the cache, and the
	 * batch call's prefetching (k positions per key) costs more than it
	 * saves.  Blocked: one block per key, the batch is cheaper.
	 */
	if (type == KBLOOM_TYPE_BLOCKED) {
		err = kbloom_add_batch(s->pf[p], w->keys, 4 * n, 4, (__u32)n);
		if (err)
			return err;
	}
	for (i = 0; type == KBLOOM_TYPE_STANDARD && i < n; i++)
		if (kbloom_add(s->pf[p], w->keys + 4 * i, 4) < 0)
			return -EINVAL;
	s->pred[p] = ba->pred[x->port_n[p]];
	return 0;
}

/*
 * Create this thread's share of the per-port filters, fill each with its
 * groups and test its candidates against it, port by port (the filter
 * stays in the cache).
 */
int exp_phase_build(struct exp_worker *w, void *arg)
{
	struct build_arg *ba = arg;
	struct kb_exp_state *s = ba->s;
	struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	__u32 T = x->nthreads, p;
	__u64 n;
	int err;

	w->npairs = 0;
	memset(w->g_pred, 0, x->p.groups * sizeof(*w->g_pred));
	for (p = w->id; p < t->nports; p += T) {
		if (t->nodes[t->ports[p].node].kind != KB_NODE_SWITCH)
			continue;
		n = x->pres_off[p + 1] - x->pres_off[p];
		err = gather_keys(w, x->pres_g + x->pres_off[p], n);
		if (err)
			return err;
		if (s->scheme == KB_EXP_MCBF)
			err = port_build_mcbf(w, ba, p, n);
		else
			err = port_build_bloom(w, ba, p, n);
		if (err)
			return err;
		err = port_test(w, s, p);
		if (err)
			return err;
		atomic_fetch_add(&x->done, 2);
	}
	return 0;
}
