// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the standard and blocked per-port schemes.
 *
 * Port p holds a libkbloom filter of M bits (standard, or 512-bit blocks),
 * single-writer (built by one thread, then only read), seeded per port,
 * with the k of the lowest predicted rate for its group count n (or the
 * given k): a memo of k and rate per n is planned once per run
 * (predict.c: exp_best_k(), kb_plan_ln_fpr()).  A test reads k bits
 * (standard) or one 512-bit block (blocked).  Memory: M / 8 bytes.
 *
 * A standard port's tests (28 million candidates per run at k = 16) read
 * its filter's words here, with the positions of uapi/ (the answers of
 * kbloom_test(), bit for bit): the first two probes together, since most
 * candidates miss there, without a call per key.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheme.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"
#include "uapi/kbloom_plan.h"

extern const struct exp_scheme_ops exp_scheme_standard;

/* A standard port: its filter, and what a test reads of it. */
struct std_port {
	struct kbloom_filter *f;
	const __u64 *words;
	__u64 m;
	__u64 seed;
	__u32 k;
};

struct bloom_plan {
	__u32 type;
	__u8 *memo;	/* per n: best k (read-only in the threads) */
	double *pred;	/* per n: its predicted rate */
};

static __u32 bloom_type(const struct kb_exp_state *s)
{
	return s->ops == &exp_scheme_standard ? KBLOOM_TYPE_STANDARD :
						KBLOOM_TYPE_BLOCKED;
}

static void bloom_plan_free(void *plan)
{
	struct bloom_plan *pl = plan;

	if (!pl)
		return;
	free(pl->memo);
	free(pl->pred);
	free(pl);
}

/* Per group count of the switch ports: the k and its predicted rate. */
static int bloom_plan(struct kb_exp *x, struct kb_exp_state *s, void **plan)
{
	const struct kb_topo *t = x->topo;
	struct bloom_plan *pl = calloc(1, sizeof(*pl));
	__u32 p, n;

	if (!pl)
		return -ENOMEM;
	pl->type = bloom_type(s);
	pl->memo = calloc(x->p.groups + 1, 1);
	pl->pred = calloc(x->p.groups + 1, sizeof(*pl->pred));
	if (!pl->memo || !pl->pred) {
		bloom_plan_free(pl);
		return -ENOMEM;
	}
	for (p = 0; p < t->nports; p++) {
		if (t->nodes[t->ports[p].node].kind != KB_NODE_SWITCH)
			continue;
		n = x->port_n[p];
		if (pl->memo[n])
			continue;
		pl->memo[n] = (__u8)exp_best_k(x, pl->type, s->bits, n, NULL);
		pl->pred[n] = exp(exp_ln_q32(kb_plan_ln_fpr(pl->type, s->bits,
							    pl->memo[n], n)));
	}
	*plan = pl;
	return 0;
}

/* A standard port of the filter @f, built (single writer: only read now). */
static int std_port_new(struct kbloom_filter *f, void **port)
{
	struct std_port *sp = calloc(1, sizeof(*sp));
	struct kbloom_stats st;
	__u64 nwords;

	if (!sp)
		return -ENOMEM;
	kbloom_stats(f, &st);
	sp->f = f;
	sp->words = kbloom_words(f, &nwords);
	sp->m = st.m;
	sp->seed = st.seed;
	sp->k = st.k;
	*port = sp;
	return 0;
}

/* The first two probes of the key of hash @h (one when k is 1), no branch. */
static inline int std_first(const struct std_port *sp, __u64 h)
{
	struct kb_probe p;
	__u32 a, b;

	kb_probe_init(&p, h);
	a = kb_probe_next(&p, sp->m);
	b = sp->k < 2 ? a : kb_probe_next(&p, sp->m);
	return (sp->words[a >> 6] >> (a & 63)) &
	       (sp->words[b >> 6] >> (b & 63)) & 1;
}

/* Its other probes, 2..k-1, up to the first clear one. */
static inline int std_rest(const struct std_port *sp, __u64 h)
{
	struct kb_probe p;
	__u32 i, a;

	kb_probe_init(&p, h * KB_PROBE_MUL * KB_PROBE_MUL);
	for (i = 2; i < sp->k; i++) {
		a = kb_probe_next(&p, sp->m);
		if (!((sp->words[a >> 6] >> (a & 63)) & 1))
			return 0;
	}
	return 1;
}

/* kbloom_test() of a standard port's filter for a key of hash @h. */
static inline int std_test_h(const struct std_port *sp, __u64 h)
{
	return std_first(sp, h) && std_rest(sp, h);
}

/* kbloom_test() of a standard port's filter (fast hash, 4-byte keys). */
static int std_test(const void *port, const __u8 *key)
{
	const struct std_port *sp = port;

	return std_test_h(sp, kb_hash_fast(sp->seed, key, 4));
}

#define STD_CHUNK	64U

/*
 * The same for the groups @g of @x: each key's hash from the seed-free
 * half that the experiment keeps (x->gmix), three multiplies instead of
 * five (uapi/kbloom_hash.h: kb_hash_fast_mixed()); STD_CHUNK keys at a
 * time, their first two probes without a branch (most keys stop there,
 * unpredictably), then the other probes of the keys that passed them.
 */
static int std_test_groups(const void *port, const struct kb_exp *x,
			   const __u32 *g, __u64 n, __u8 *hits)
{
	const struct std_port *sp = port;
	__u64 h[STD_CHUNK], c, i, len, at;
	__u32 live[STD_CHUNK], nl, j;

	memset(hits, 0, (n + 7) / 8);
	for (c = 0; c < n; c += len) {
		len = n - c < STD_CHUNK ? n - c : STD_CHUNK;
		for (i = 0, nl = 0; i < len; i++) {
			h[i] = kb_hash_fast_mixed(sp->seed, 4,
						  x->gmix[g[c + i]]);
			live[nl] = (__u32)i;
			nl += (__u32)std_first(sp, h[i]);
		}
		for (j = 0; j < nl; j++) {
			at = c + live[j];
			if (std_rest(sp, h[live[j]]))
				hits[at >> 3] |= (__u8)(1U << (at & 7));
		}
	}
	return 0;
}

static int bloom_build(struct exp_port_ctx *c, void **port)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_FAST,
				 .flags = KBLOOM_OPT_SINGLE_WRITER,
				 .seed = c->seed };
	const struct bloom_plan *pl = c->plan;
	__u32 n = c->x->port_n[c->port], k;
	struct kbloom_filter *f;
	__u64 i;
	int err;

	k = exp_best_k(c->x, pl->type, c->bits, n, pl->memo);
	err = kbloom_create_mk(pl->type, c->bits, k, &o, &f);
	if (err)
		return err;
	/*
	 * Standard: one call per key: the filter is in the cache, and the
	 * batch call's prefetching (k positions per key) costs more than it
	 * saves.  Blocked: one block per key, the batch is cheaper.
	 */
	if (pl->type == KBLOOM_TYPE_BLOCKED)
		err = kbloom_add_batch(f, c->keys, 4 * c->n, 4, (__u32)c->n);
	for (i = 0; pl->type == KBLOOM_TYPE_STANDARD && i < c->n; i++)
		if (kbloom_add(f, c->keys + 4 * i, 4) < 0)
			err = -EINVAL;
	if (err) {
		kbloom_destroy(f);
		return err;
	}
	c->k_sum = k;
	c->k_n = 1;
	c->pred[0] = pl->pred[n];
	c->probes = exp_port_tests(c) *
		    (pl->type == KBLOOM_TYPE_STANDARD ? k : 1);
	if (pl->type == KBLOOM_TYPE_STANDARD) {
		err = std_port_new(f, port);
		if (err)
			kbloom_destroy(f);
		return err;
	}
	*port = f;
	return 0;
}

static int bloom_test(const void *port, const __u8 *key)
{
	return kbloom_test(port, key, 4) == 1;
}

static int blocked_test_batch(const void *port, const __u8 *keys, __u32 n,
			      __u8 *hits)
{
	return kbloom_test_batch(port, keys, 4 * (size_t)n, 4, n, hits) < 0 ?
	       -EINVAL : 0;
}

static void bloom_destroy(void *port)
{
	kbloom_destroy(port);
}

static void std_destroy(void *port)
{
	struct std_port *sp = port;

	if (!sp)
		return;
	kbloom_destroy(sp->f);
	free(sp);
}

static __u64 bloom_bytes(const struct kb_exp *x, __u64 bits)
{
	(void)x;
	return bits / 8;
}

static int bloom_export(const struct kb_exp_state *s, __u32 port,
			const void *obj, struct kb_exp_port_filter *f)
{
	struct kbloom_stats st;

	(void)s;
	(void)port;
	kbloom_stats(obj, &st);
	f->type = st.type;
	f->m = st.m;
	f->k = st.k;
	f->hash_id = st.hash_id;
	f->seed = st.seed;
	f->words = kbloom_words(obj, &f->nwords);
	return 0;
}

static int std_export(const struct kb_exp_state *s, __u32 port,
		      const void *obj, struct kb_exp_port_filter *f)
{
	const struct std_port *sp = obj;

	return bloom_export(s, port, sp->f, f);
}

static __u64 step_word(const struct kb_exp_params *p)
{
	(void)p;
	return 64;
}

static __u64 step_block(const struct kb_exp_params *p)
{
	(void)p;
	return KBLOOM_BLOCK_BITS;
}

const struct exp_scheme_ops exp_scheme_standard = {
	.name = "standard",
	.title = "standard per-port",
	.color = "#1f77b4",
	.bits_step = step_word,
	.plan = bloom_plan,
	.plan_free = bloom_plan_free,
	.build = bloom_build,
	.test = std_test,
	.test_groups = std_test_groups,
	.destroy = std_destroy,
	.bytes = bloom_bytes,
	.export = std_export,
};

const struct exp_scheme_ops exp_scheme_blocked = {
	.name = "blocked",
	.title = "blocked per-port",
	.color = "#ff7f0e",
	.bits_step = step_block,
	.plan = bloom_plan,
	.plan_free = bloom_plan_free,
	.build = bloom_build,
	.test = bloom_test,
	.test_batch = blocked_test_batch,
	.destroy = bloom_destroy,
	.bytes = bloom_bytes,
	.export = bloom_export,
};
