// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the per-port structures, built and tested in the threads.
 *
 * The switch ports are shared out statically, port p to worker p mod T.
 * A worker has the scheme build the structure of each of its ports from
 * the port's present groups (ops->build(), scheme.h; seeded per port),
 * then, while it is in the cache, tests the present groups again when
 * the scheme may answer "absent" for them (a miss is a (group, port)
 * false negative: a tree link that will not carry the group) and every
 * candidate group of the port (a match is a (group, port) first-order
 * false positive).  The port's predicted rate p adds to each candidate
 * group's expected matches, fp_pred(g) = sum of p over g's candidate
 * ports.
 */
#include <endian.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "scheme.h"

/* Room for @n keys in w->keys and their answers in w->bitmap. */
static int keys_room(struct exp_worker *w, __u64 n)
{
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
	return 0;
}

/* The keys of groups @g[0..n) in w->keys (4 bytes each). */
static int gather_keys(struct exp_worker *w, const __u32 *g, __u64 n)
{
	const __u32 *key = w->x->gkey;
	__u64 i;
	int err;

	err = keys_room(w, n);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		memcpy(w->keys + 4 * i, &key[g[i]], 4);
	return 0;
}

int exp_pairs_push(struct exp_pairs *l, __u32 g, __u32 p)
{
	__u32 *nv;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4096;
		nv = realloc(l->v, l->cap * 2 * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		l->v = nv;
	}
	l->v[2 * l->n] = g;
	l->v[2 * l->n + 1] = p;
	l->n++;
	return 0;
}

/*
 * The answers of port @p's structure for the @n groups @g in w->bitmap, by
 * the scheme's batch (test_groups(), or test_batch() of the keys gathered
 * in w->keys); 0 when it has none.
 */
static int port_batch(struct exp_worker *w, const struct kb_exp_state *s,
		      __u32 p, const __u32 *g, __u64 n)
{
	const struct exp_scheme_ops *ops = s->ops;
	int err;

	if (ops->test_groups) {
		err = keys_room(w, n);
		return err ? err : ops->test_groups(s->obj[p], w->x, g, n,
						    w->bitmap);
	}
	err = gather_keys(w, g, n);
	return err ? err : ops->test_batch(s->obj[p], w->keys, (__u32)n,
					   w->bitmap);
}

/*
 * The groups @g[0..n) whose bit i of w->bitmap (bit i & 7 of byte i / 8)
 * is @want go to @l with port @p, in order: 64 answers at a time, only
 * the wanted ones visited (a few percent of the candidates match).
 */
static int push_answers(struct exp_worker *w, __u32 p, const __u32 *g,
			__u64 n, int want, struct exp_pairs *l)
{
	__u64 base, word, left, i;
	int err;

	for (base = 0; base < n; base += 64) {
		left = n - base;
		word = 0;
		memcpy(&word, w->bitmap + base / 8,
		       left < 64 ? (left + 7) / 8 : 8);
		word = le64toh(word);
		if (!want)
			word = ~word;
		if (left < 64)
			word &= (1ULL << left) - 1;
		for (; word; word &= word - 1) {
			i = base + (__u64)__builtin_ctzll(word);
			err = exp_pairs_push(l, g[i], p);
			if (err)
				return err;
		}
	}
	return 0;
}

/*
 * The answers of port @p's structure for the @n keys of groups @g: one
 * batch in w->bitmap when the scheme has one (port_batch()), else one
 * test per key, read where it is (x->gkey); the groups whose answer is
 * @want go to @l.
 */
static int port_answers(struct exp_worker *w, const struct kb_exp_state *s,
			__u32 p, const __u32 *g, __u64 n, int want,
			struct exp_pairs *l)
{
	const struct exp_scheme_ops *ops = s->ops;
	const __u32 *key = w->x->gkey;
	const void *obj = s->obj[p];
	int err;
	__u64 i;

	if (ops->test_batch || ops->test_groups) {
		err = port_batch(w, s, p, g, n);
		return err ? err : push_answers(w, p, g, n, want, l);
	}
	for (i = 0; i < n; i++) {
		if (ops->test(obj, (const __u8 *)&key[g[i]]) != want)
			continue;
		err = exp_pairs_push(l, g[i], p);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Test every candidate of port @p against its structure, just built: the
 * matches in w->fp, the predicted matches added to w->g_pred (the
 * candidates come class by class, x->absent[p][c] of class c).
 */
static int port_test(struct exp_worker *w, const struct kb_exp_state *s,
		     __u32 p)
{
	const struct kb_exp *x = w->x;
	__u64 i = 0, off = x->cand_off[p], n = x->cand_off[p + 1] - off, end;
	const __u32 *g = x->cand_g + off;
	double pred;
	__u32 c;

	for (c = 0; c < x->nclass; c++) {
		pred = exp_port_pred(s, p, c);
		end = i + x->absent[(size_t)p * x->nclass + c];
		for (; i < end; i++)
			w->g_pred[g[i]] += pred;
	}
	return port_answers(w, s, p, g, n, 1, &w->fp);
}

/* Port @p's structure from its @n present groups (in w->keys). */
static int port_build(struct exp_worker *w, struct kb_exp_state *s, __u32 p,
		      __u64 n)
{
	struct kb_exp *x = w->x;
	struct exp_port_ctx c = {
		.x = x, .s = s, .plan = s->plan, .worker = w->id, .port = p,
		.bits = s->bits, .seed = exp_port_seed(x, p), .keys = w->keys,
		.groups = x->pres_g + x->pres_off[p], .n = n, .pres = x->present + (size_t)p * x->nclass,
		.absent = x->absent + (size_t)p * x->nclass,
		.pred = s->pred + (size_t)p * s->npred,
	};
	int err;

	err = s->ops->build(&c, &s->obj[p]);
	if (err)
		return err;
	s->port_k[p] = c.k_sum;
	s->port_kn[p] = c.k_n;
	w->probes += c.probes;
	w->tests += exp_port_tests(&c);
	w->exact += c.exact;
	w->exact_pred += c.exact_pred;
	if (!s->ops->may_fn)
		return 0;
	/* the present groups it misses: their tree link will not carry them */
	return port_answers(w, s, p, x->pres_g + x->pres_off[p], n, 0, &w->fn);
}

/* A worker's (group, port) pairs, probes and predictions, before a build. */
void exp_phase_reset(struct exp_worker *w)
{
	w->fp.n = 0;
	w->fn.n = 0;
	w->probes = 0;
	w->tests = 0;
	w->exact = 0;
	w->exact_pred = 0;
	memset(w->g_pred, 0, w->x->p.groups * sizeof(*w->g_pred));
}

/*
 * Build this thread's share of the per-port structures (@arg: the state),
 * and test each port's present (may_fn) and candidate groups against its
 * structure while it is in the cache.
 */
int exp_phase_build(struct exp_worker *w, void *arg)
{
	struct kb_exp_state *s = arg;
	struct kb_exp *x = w->x;
	const struct kb_topo *t = x->topo;
	__u32 T = x->nthreads, p;
	__u64 n;
	int err;

	exp_phase_reset(w);
	for (p = w->id; p < t->nports; p += T) {
		if (t->nodes[t->ports[p].node].kind != KB_NODE_SWITCH)
			continue;
		n = x->pres_off[p + 1] - x->pres_off[p];
		err = gather_keys(w, x->pres_g + x->pres_off[p], n);
		if (err)
			return err;
		err = port_build(w, s, p, n);
		if (err)
			return err;
		err = port_test(w, s, p);
		if (err)
			return err;
		atomic_fetch_add(&x->done, 2);
	}
	return 0;
}
