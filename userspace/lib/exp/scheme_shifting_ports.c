// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the shifting "which port" scheme, one structure per
 * switch (scheme_switch.h).
 *
 * The association query of the shifting Bloom filter (Yang et al., PVLDB
 * 9(5) 2016, ShBF_A: an element of S1 only, of both, or of S2 only sets
 * h_i(e) shifted by 0, o1(e) or o2(e), and one read of a word at h_i(e)
 * answers all three) generalised from two sets to the P ports of a
 * switch, the offset of port j being j:
 *   - a switch of P ports has one array of B = P M bits (M per port: the
 *     budget of the per-port schemes, counted as M / 8 bytes a port);
 *   - group g on port j (its tree uses the port) sets, for i = 1..k, bit
 *     h_i(g) + j, with h_i(g) in [0, B - P] (the contract's hash of the
 *     group address with the switch's seed, positions by kb_probe_next());
 *   - the query of g reads the k windows of P bits [h_i(g), h_i(g) + P)
 *     and ANDs them: bit j of the result says port j may carry g.  A
 *     window is one unaligned read: one cache line, or two when it
 *     crosses a 64-byte boundary; a query reads k windows (the probes are
 *     the lines counted), whatever P, where the per-port schemes test the
 *     P - 1 ports one by one.
 * No member port is ever missed (bits are only set).  A port j off g's
 * tree answers yes when the k bits h_i(g) + j are all set.  With n the
 * switch's (group, port) pairs, each sets k bits of B, nearly uniformly
 * (only the P - 1 bits at each end of the array are less loaded), and a
 * group's own pairs hit its own windows at other offsets only with
 * probability ~ k P / B, so per candidate port
 *   p = (1 - (1 - 1/B)^(k n))^k  ~  (1 - e^(-k n / B))^k,
 * k the one of the lowest p among 1..16 (the per-port schemes' range)
 * for the switch's n, or the `hashes` given.
 *
 * Pooling the bits of a switch spreads one false-positive rate over all
 * its ports, where a per-port filter's rate follows its own port's load:
 * the lightly loaded ports (in a fat-tree, the up ports: a group goes up
 * only from its source) answer falsely more often than their own filter
 * would, and an upward leak can cascade.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheme_switch.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"

#define SHP_K_MAX	16U
#define SHP_LINE_BITS	512U

struct shp {
	__u64 *words;
	__u64 span;		/* window starts: 0 .. B - P */
	__u32 nports;
	__u32 k;
	__u64 seed;
};

static double shp_pred(__u64 b, __u32 k, __u64 n)
{
	return pow(-expm1((double)k * n * log1p(-1.0 / (double)b)), k);
}

/* The k of the lowest predicted rate for @n pairs in @b bits. */
static __u32 shp_best_k(__u64 b, __u64 n, double *pred)
{
	double best = INFINITY, v;
	__u32 k, bk = 1;

	for (k = 1; k <= SHP_K_MAX && n; k++) {
		v = shp_pred(b, k, n);
		if (v < best) {
			best = v;
			bk = k;
		}
	}
	*pred = n ? best : 0.0;
	return bk;
}

/* Bits [b, b + len) of @w, len 1..64, as the low bits of a word. */
static __u64 shp_bits(const __u64 *w, __u64 b, __u32 len)
{
	__u32 o = b & 63;
	__u64 v = w[b >> 6] >> o;

	if (o && o + len > 64)
		v |= w[(b >> 6) + 1] << (64 - o);
	return len == 64 ? v : v & ((1ULL << len) - 1);
}

static int shp_build(struct exp_switch_ctx *c, void **sw)
{
	__u64 b = (__u64)c->nports * c->bits, i, pos;
	struct kb_probe pr;
	struct shp *f;
	__u32 r;

	if (!c->nports || b < c->nports || b - c->nports >= (1ULL << 32))
		return -E2BIG;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->words = aligned_alloc(64, (b + 511) / 512 * 64);
	if (!f->words) {
		free(f);
		return -ENOMEM;
	}
	memset(f->words, 0, (b + 511) / 512 * 64);
	f->span = b - c->nports + 1;
	f->nports = c->nports;
	f->seed = c->seed;
	f->k = c->x->p.k ? c->x->p.k : shp_best_k(b, c->n, &c->pred);
	if (c->x->p.k)
		c->pred = c->n ? shp_pred(b, f->k, c->n) : 0.0;
	for (i = 0; i < c->n; i++) {
		kb_probe_init(&pr, kb_hash(KBLOOM_HASH_FAST, f->seed,
					   c->keys + 4 * i, 4));
		for (r = 0; r < f->k; r++) {
			pos = kb_probe_next(&pr, f->span) + c->kport[i];
			f->words[pos >> 6] |= 1ULL << (pos & 63);
		}
	}
	c->k = f->k;
	*sw = f;
	return 0;
}

/* The AND of the k windows of @key in @ports; the cache lines read. */
static __u32 shp_ports(const void *sw, const __u8 *key, __u64 *ports)
{
	const struct shp *f = sw;
	__u32 r, j, len, lines = 0, nw = (f->nports + 63) / 64;
	struct kb_probe pr;
	__u64 h;

	for (j = 0; j < nw; j++)
		ports[j] = ~0ULL;
	kb_probe_init(&pr, kb_hash(KBLOOM_HASH_FAST, f->seed, key, 4));
	for (r = 0; r < f->k; r++) {
		h = kb_probe_next(&pr, f->span);
		lines += (__u32)((h + f->nports - 1) / SHP_LINE_BITS -
				 h / SHP_LINE_BITS) + 1;
		for (j = 0; j < nw; j++) {
			len = f->nports - 64 * j < 64 ? f->nports - 64 * j : 64;
			ports[j] &= shp_bits(f->words, h + 64 * j, len);
		}
	}
	return lines;
}

static void shp_destroy(void *sw)
{
	struct shp *f = sw;

	free(f->words);
	free(f);
}

static __u64 shp_bytes(const struct kb_exp *x, __u64 bits)
{
	(void)x;
	return bits / 8;
}

static __u64 shp_step(const struct kb_exp_params *p)
{
	(void)p;
	return 64;
}

static const struct exp_switch_ops shp_switch_ops = {
	.build = shp_build,
	.ports = shp_ports,
	.destroy = shp_destroy,
};

const struct exp_scheme_ops exp_scheme_shifting_ports = {
	.name = "shifting-ports",
	.title = "shifting which-port per switch",
	.color = "#e7298a",
	.bits_step = shp_step,
	.bytes = shp_bytes,
	.sw = &shp_switch_ops,
};
