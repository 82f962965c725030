// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the weighted (WBF, Bruck, Gao and Jiang) per-port scheme
 * (libkbloom_survey.h).
 *
 * Every group g gets its own k_g, once per run, from kbloom_wbf_plan()
 * over the groups: its query frequency r_g is its share of all per-port
 * tests (S_g + C_g of them: S_g ports where it is present, C_g where it
 * is a candidate), its membership probability x_g = S_g / (S_g + C_g)
 * (the group's presence).  The paper's single filter stands for a port
 * with the tests' mean load: m = M sum_g x_g / n', n' the present groups
 * of the port a test reads, averaged over the tests.  k_g is a property
 * of the group, like MC-BF's class: the source stamps it in the packet
 * (5 bits), so a port needs no table of groups.  A port's load differs
 * from the mean, so each port uses k = round(kbar + a (k_g - kbar)) + d
 * in 1..16 (kbar the mean k_g), its spread a (wt_spread[], 0: a uniform
 * k) and shift d chosen for the fewest expected matches among its own
 * candidates (2 bytes of state; the `hashes` option is not used).  Port
 * p holds a bit array of M bits, seeded per port, where each present
 * group is added with its k; a test reads k bits.  Predicted rate of a
 * candidate of port p: the paper's formula on the port's own groups, the
 * mean over its candidates of f^k, f = 1 - exp(-sum of the present
 * groups' k / M).  The table's K: the mean k of the inserted groups.
 * Memory: M / 8 bytes.
 */
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "scheme.h"
#include "libkbloom_survey.h"

#define WT_K_MAX	16U
#define WT_NSPREAD	10U

/* The plan: k per group, shared by the ports (they outlive the plan). */
struct wt_plan {
	atomic_uint ref;
	double kbar;		/* the mean of k */
	/* wt_kv() of plan value j at spread a, shift d: kv[a][d + K_MAX][j] */
	__u8 kv[WT_NSPREAD][2 * WT_K_MAX + 1][WT_K_MAX + 1];
	__u32 k[];
};

struct wt_port {
	struct kbloom_wbf *f;
	struct wt_plan *pl;
	__u32 a;		/* the port's spread of the plan's k */
	int d;			/* and its shift */
	__u8 kv[WT_K_MAX + 1];	/* wt_kv() of each plan value, a, d */
};

static void wt_plan_free(void *plan)
{
	struct wt_plan *pl = plan;

	if (pl && atomic_fetch_sub(&pl->ref, 1) == 1)
		free(pl);
}

/* Per group: its tests (r) and present share (xs); the plan's m. */
static double wt_groups(const struct kb_exp *x, double *r, double *xs)
{
	__u64 i, np = x->pres_off[x->topo->nports];
	__u64 nc = x->cand_off[x->topo->nports];
	double t = (double)(np + nc), load = 0, xsum = 0;
	__u32 p, g;

	for (i = 0; i < np; i++)
		xs[x->pres_g[i]] += 1;
	for (i = 0; i < nc; i++)
		r[x->cand_g[i]] += 1;
	for (g = 0; g < x->p.groups; g++) {
		r[g] += xs[g];
		xs[g] = r[g] > 0 ? xs[g] / r[g] : 1.0;
		xsum += xs[g];
		r[g] = t > 0 ? r[g] / t : 0;
	}
	for (p = 0; p < x->topo->nports; p++) {
		np = x->pres_off[p + 1] - x->pres_off[p];
		nc = x->cand_off[p + 1] - x->cand_off[p];
		load += (double)np * (double)(np + nc);
	}
	load = t > 0 ? load / t : 0;
	return load > 0 ? xsum / load : 1.0;
}

/* A port's spread of the plan's k around their mean (0: uniform k). */
static const double wt_spread[WT_NSPREAD] = { -2, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3, 4 };

/* The k of plan value @kg on a port (spread @a, shift @d), 1..WT_K_MAX. */
static __u32 wt_kv(const struct wt_plan *pl, __u32 kg, __u32 a, int d)
{
	double k = round(pl->kbar + wt_spread[a] * (kg - pl->kbar)) + d;

	return k < 1 ? 1 : k > WT_K_MAX ? WT_K_MAX : (__u32)k;
}

/* pl->kv: wt_kv() of every plan value, spread and shift, once per run. */
static void wt_kv_fill(struct wt_plan *pl)
{
	__u32 a, j;
	int d;

	for (a = 0; a < WT_NSPREAD; a++)
		for (d = -(int)WT_K_MAX; d <= (int)WT_K_MAX; d++)
			for (j = 0; j <= WT_K_MAX; j++)
				pl->kv[a][d + WT_K_MAX][j] =
					(__u8)wt_kv(pl, j, a, d);
}

/* wt_kv() from the plan's table. */
static __u32 wt_kt(const struct wt_plan *pl, __u32 kg, __u32 a, int d)
{
	return pl->kv[a][d + WT_K_MAX][kg];
}

static int wt_plan(struct kb_exp *x, struct kb_exp_state *s, void **plan)
{
	__u32 ng = x->p.groups, g;
	struct wt_plan *pl;
	double *r, *xs, scale;
	int err;

	r = calloc(ng, sizeof(*r));
	xs = calloc(ng, sizeof(*xs));
	pl = malloc(sizeof(*pl) + ng * sizeof(pl->k[0]));
	err = -ENOMEM;
	if (!r || !xs || !pl)
		goto free_all;
	atomic_init(&pl->ref, 1);
	scale = wt_groups(x, r, xs);
	err = kbloom_wbf_plan(r, xs, ng, (__u64)ceil(s->bits * scale),
			      WT_K_MAX, pl->k, NULL);
	if (err)
		goto free_all;
	pl->kbar = 0;
	for (g = 0; g < ng; g++)
		pl->kbar += (double)pl->k[g] / ng;
	wt_kv_fill(pl);
	*plan = pl;
	pl = NULL;
free_all:
	free(pl);
	free(xs);
	free(r);
	return err;
}

static __u32 wt_group(const __u8 *key)
{
	return (__u32)(key[1] & 0xF) << 16 | (__u32)key[2] << 8 | key[3];
}

/* A port's groups by the plan's k: present and candidates. */
struct wt_hist {
	__u64 pres[WT_K_MAX + 1];
	__u64 cand[WT_K_MAX + 1];
};

/* The port's k of the group of @key (its table of wt_kv()). */
static __u32 wt_k(const struct wt_port *w, const __u8 *key)
{
	return w->kv[w->pl->k[wt_group(key)]];
}

static void wt_count(const struct exp_port_ctx *c, const struct wt_plan *pl,
		     struct wt_hist *h)
{
	const struct kb_exp *x = c->x;
	__u64 i, off = x->cand_off[c->port], n = x->cand_off[c->port + 1];

	memset(h, 0, sizeof(*h));
	for (i = 0; i < c->n; i++)
		h->pres[pl->k[wt_group(c->keys + 4 * i)]]++;
	for (i = off; i < n; i++)
		h->cand[pl->k[x->cand_g[i]]]++;
}

/*
 * The port's expected matches at spread @a, shift @d: the sum over its
 * candidates of f^k, f the fill of its present groups' probes (*@kp);
 * *@probes its tests' probes.
 */
static double wt_expected(const struct exp_port_ctx *c,
			  const struct wt_plan *pl, const struct wt_hist *h,
			  __u32 a, int d, __u64 *kp, double *probes)
{
	double f, s = 0, fk[WT_K_MAX + 1];
	__u32 j, k;

	*kp = 0;
	*probes = 0;
	for (j = 1; j <= WT_K_MAX; j++) {
		k = wt_kt(pl, j, a, d);
		*kp += h->pres[j] * k;
		*probes += (double)(h->pres[j] + h->cand[j]) * k;
	}
	f = -expm1(-(double)*kp / (double)c->bits);
	for (j = 0; j <= WT_K_MAX; j++)
		fk[j] = -1;	/* f^k, made once per k */
	for (j = 1; j <= WT_K_MAX; j++) {
		if (!h->cand[j])
			continue;
		k = wt_kt(pl, j, a, d);
		if (fk[k] < 0)
			fk[k] = pow(f, k);
		s += (double)h->cand[j] * fk[k];
	}
	return s;
}

/* The port's spread and shift of the plan's k: the least expected matches. */
static void wt_shift(struct exp_port_ctx *c, struct wt_port *w,
		     const struct wt_hist *h)
{
	double best = INFINITY, v, probes;
	__u32 a;
	__u64 kp;
	int d;

	for (a = 0; a < WT_NSPREAD; a++) {
		for (d = -(int)WT_K_MAX; d <= (int)WT_K_MAX; d++) {
			v = wt_expected(c, w->pl, h, a, d, &kp, &probes);
			if (v < best) {
				best = v;
				w->a = a;
				w->d = d;
			}
		}
	}
}

static int wt_fill(struct exp_port_ctx *c, struct wt_port *w)
{
	const struct kb_exp *x = c->x;
	__u64 i, kp, ncand = x->cand_off[c->port + 1] - x->cand_off[c->port];
	struct wt_hist h;
	int err;

	wt_count(c, w->pl, &h);
	wt_shift(c, w, &h);
	for (i = 0; i <= WT_K_MAX; i++)
		w->kv[i] = (__u8)wt_kt(w->pl, (__u32)i, w->a, w->d);
	for (i = 0; i < c->n; i++) {
		err = kbloom_wbf_add(w->f, c->keys + 4 * i, 4,
				     wt_k(w, c->keys + 4 * i));
		if (err)
			return err;
	}
	c->pred[0] = wt_expected(c, w->pl, &h, w->a, w->d, &kp, &c->probes);
	c->pred[0] = ncand ? c->pred[0] / (double)ncand : 0.0;
	c->k_sum = (__u32)kp;
	c->k_n = c->n ? (__u32)c->n : 1;
	return 0;
}

static int wt_build(struct exp_port_ctx *c, void **port)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_FAST, .seed = c->seed };
	struct wt_plan *pl = c->plan;
	struct wt_port *w;
	int err;

	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	err = kbloom_wbf_create(c->bits, &o, &w->f);
	if (err)
		goto free_port;
	w->pl = pl;
	err = wt_fill(c, w);
	if (err)
		goto free_filter;
	atomic_fetch_add(&pl->ref, 1);
	*port = w;
	return 0;
free_filter:
	kbloom_wbf_destroy(w->f);
free_port:
	free(w);
	return err;
}

static int wt_test(const void *port, const __u8 *key)
{
	const struct wt_port *w = port;

	return kbloom_wbf_test(w->f, key, 4, wt_k(w, key)) == 1;
}

static void wt_destroy(void *port)
{
	struct wt_port *w = port;

	kbloom_wbf_destroy(w->f);
	wt_plan_free(w->pl);
	free(w);
}

static __u64 wt_bytes(const struct kb_exp *x, __u64 bits)
{
	(void)x;
	return bits / 8;
}

static __u64 wt_step(const struct kb_exp_params *p)
{
	(void)p;
	return 64;
}

const struct exp_scheme_ops exp_scheme_weighted = {
	.name = "weighted",
	.title = "weighted per-port (k per group)",
	.color = "#393b79",
	.bits_step = wt_step,
	.plan = wt_plan,
	.plan_free = wt_plan_free,
	.build = wt_build,
	.test = wt_test,
	.destroy = wt_destroy,
	.bytes = wt_bytes,
};
