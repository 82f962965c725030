// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_net: false-positive-free multi-stage headers (MSBF, after
 * Tapolcai et al., "Optimal false-positive-free Bloom filter design for
 * scalable multicast forwarding", IEEE/ACM ToN 2015).
 *
 * Stage s of a tree's header serves the tree nodes s hops from the source.
 * Its positives are the tree links leaving those nodes; its negatives are
 * their candidate links (every other port but the ingress one).  The stage
 * is the smallest filter (bytes, then bits, then k) in which every
 * positive sets its k positions (uapi/kbloom_ipbf.h) and no negative
 * finds all of its k positions set; m grows one bit at a time from a
 * starting size, for each k in the allowed range.  The starting size is
 * where the expected number of matching negatives, N (1 - e^(-k n / m))^k,
 * equals start_fp (4 by default), or 1 with KB_MSBF_EXACT.  Every size is
 * a fresh draw of positions, so the more sizes a scan tries the smaller
 * the stage it finds: start_fp trades build time for header bytes.
 *
 * Testing a size does not build the filter.  Position i of a link over m
 * bits is kb_reduce32(x_i, m) = floor(x_i m / 2^32), with x_i its probe
 * word i (kb_probe_word(), the same for every m): monotone in x_i, so a
 * negative's word x is covered by some positive word iff it is covered by
 * its sorted neighbours pred <= x <= succ among the positive words: one
 * multiply each instead of n k bit sets per size.
 * And a probe whose nearest positive word is g away is uncovered at every
 * m >= 2^32 / g: a negative is certainly clean from the smallest such m
 * of its probes on, and drops out of the scan there.  What is left per
 * size is the few negatives that are still close to positives.  Most
 * negatives are found clean from the starting size on without looking
 * for their neighbours: a bitmap of the cells (four per position at that
 * size) that hold a positive word shows a probe with no positive word
 * that close (stage_far()).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libkbloom_net.h"

#define MSBF_WORDS	((KB_IPBF_STAGE_M_MAX + 64) / 64)
#define MSBF_DEPTHS	(KB_IPBF_STAGES_MAX + 1)
#define MSBF_IBITS	22	/* stage_words(): at most 2^22 + 1 entries */
#define MSBF_NEAR	4	/* near[]: MSBF_NEAR cells per position at m0 */
#define MSBF_NEAR_WORDS	((MSBF_NEAR * KB_IPBF_STAGE_M_MAX + 64) / 64 + 3)

/* A negative link still in the scan: its probes and their neighbours. */
struct msbf_neg {
	__u32 safe;			/* clean at every m >= safe */
	__u32 x[KB_IPBF_STAGE_K_MAX];
	__u32 pred[KB_IPBF_STAGE_K_MAX];
	__u32 succ[KB_IPBF_STAGE_K_MAX];
};

struct kb_msbf {
	const struct kb_topo *topo;
	__u32 *pos;			/* positive ports, grouped by stage */
	__u32 *neg;			/* negative ports, grouped by stage */
	__u32 *px;			/* their probe words in the current tag: */
	__u32 *nx;			/* link j probe i at [j * K_MAX + i] */
	__u32 *words;			/* sorted positive words of one k */
	__u32 *tmp;			/* sort buffer */
	struct msbf_neg *act;		/* negatives in the scan */
	__u32 nact;
	__u32 ibits;			/* stage_words() */
	__u32 ibits_max;
	__u32 *idx;
	__u32 pstart[MSBF_DEPTHS + 1];
	__u32 nstart[MSBF_DEPTHS + 1];
	__u64 bits[MSBF_WORDS];		/* one stage filter, bit p: LSB order */
	__u64 near[MSBF_NEAR_WORDS];	/* cells holding a positive word, +64 */
	__u32 ncells;
	__u32 m[KB_IPBF_STAGES_MAX];	/* plan of the current tag */
	__u8 k[KB_IPBF_STAGES_MAX];
	__u32 best_m[KB_IPBF_STAGES_MAX];
	__u8 best_k[KB_IPBF_STAGES_MAX];
};

struct msbf_cfg {
	__u32 k_min;
	__u32 k_max;
	__u32 tag0;
	__u32 ntags;
	__u32 max_bytes;
	__u32 hop_limit;
	__u32 exact;
	__u16 inner_proto;
	double start_fp;
};

int kb_msbf_new(const struct kb_topo *t, struct kb_msbf **mp)
{
	struct kb_msbf *m;
	size_t n;

	if (!t || !t->final || !mp)
		return -EINVAL;
	n = t->nports ? t->nports : 1;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->topo = t;
	m->pos = malloc(n * sizeof(*m->pos));
	m->neg = malloc(n * sizeof(*m->neg));
	m->px = malloc(n * KB_IPBF_STAGE_K_MAX * sizeof(*m->px));
	m->nx = malloc(n * KB_IPBF_STAGE_K_MAX * sizeof(*m->nx));
	m->words = malloc(n * KB_IPBF_STAGE_K_MAX * sizeof(*m->words));
	m->tmp = malloc(n * KB_IPBF_STAGE_K_MAX * sizeof(*m->tmp));
	m->act = malloc(n * sizeof(*m->act));
	m->ibits_max = 1;
	while (m->ibits_max < MSBF_IBITS &&
	       (1ULL << m->ibits_max) < (__u64)n * KB_IPBF_STAGE_K_MAX)
		m->ibits_max++;
	m->idx = malloc(((1U << m->ibits_max) + 1) * sizeof(*m->idx));
	if (!m->pos || !m->neg || !m->px || !m->nx || !m->words || !m->tmp ||
	    !m->act || !m->idx) {
		kb_msbf_free(m);
		return -ENOMEM;
	}
	*mp = m;
	return 0;
}

void kb_msbf_free(struct kb_msbf *m)
{
	if (!m)
		return;
	free(m->pos);
	free(m->neg);
	free(m->px);
	free(m->nx);
	free(m->words);
	free(m->tmp);
	free(m->act);
	free(m->idx);
	free(m);
}

static int msbf_config(const struct kb_lids *l, const struct kb_msbf_params *p,
		       struct msbf_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->k_min = 1;
	c->k_max = KB_IPBF_STAGE_K_MAX;
	c->ntags = 1;
	c->start_fp = 4.0;
	if (!p)
		return 0;
	if (p->flags & ~KB_MSBF_EXACT)
		return -EINVAL;
	if (p->k_min || p->k_max) {
		if (p->k_min < 1 || p->k_max > KB_IPBF_STAGE_K_MAX ||
		    p->k_min > p->k_max)
			return -ERANGE;
		c->k_min = p->k_min;
		c->k_max = p->k_max;
	}
	if (p->ntags > l->d || (p->ntags <= 1 && p->tag >= l->d) ||
	    p->hop_limit > 255)
		return -ERANGE;
	if (!(p->start_fp >= 0.0) || p->start_fp > 1e9)
		return -ERANGE;
	if (p->ntags > 1)
		c->ntags = p->ntags;
	else
		c->tag0 = p->tag;
	if (p->start_fp > 0.0)
		c->start_fp = p->start_fp;
	c->max_bytes = p->max_bytes;
	c->hop_limit = p->hop_limit;
	c->exact = p->flags & KB_MSBF_EXACT;
	c->inner_proto = p->inner_proto;
	return 0;
}

/* Does tree node @u forward at all (hosts other than the source do not)? */
static inline int relay(const struct kb_tree *tr, __u32 u)
{
	return u == tr->src || tr->topo->nodes[u].kind == KB_NODE_SWITCH;
}

/*
 * Group the positive and negative ports of the tree by stage (counting
 * sort over the depths 0..height-1).
 */
static void msbf_group(struct kb_msbf *ms, const struct kb_tree *tr)
{
	const struct kb_topo *t = tr->topo;
	__u32 i, u, p, end, d, h = tr->height;

	memset(ms->pstart, 0, sizeof(ms->pstart));
	memset(ms->nstart, 0, sizeof(ms->nstart));
	for (i = 0; i < tr->nnodes; i++) {
		u = tr->nodes[i];
		d = tr->depth[u];
		if (d >= h || !relay(tr, u))
			continue;
		end = t->nodes[u].first_port + t->nodes[u].nports;
		for (p = t->nodes[u].first_port; p < end; p++) {
			if (tr->on_tree[p])
				ms->pstart[d + 1]++;
			else if (p != tr->in_port[u])
				ms->nstart[d + 1]++;
		}
	}
	for (d = 0; d < h; d++) {
		ms->pstart[d + 1] += ms->pstart[d];
		ms->nstart[d + 1] += ms->nstart[d];
	}
	for (i = 0; i < tr->nnodes; i++) {
		u = tr->nodes[i];
		d = tr->depth[u];
		if (d >= h || !relay(tr, u))
			continue;
		end = t->nodes[u].first_port + t->nodes[u].nports;
		for (p = t->nodes[u].first_port; p < end; p++) {
			if (tr->on_tree[p])
				ms->pos[ms->pstart[d]++] = p;
			else if (p != tr->in_port[u])
				ms->neg[ms->nstart[d]++] = p;
		}
	}
	/* the fill loop advanced each start to the next one's: shift back */
	for (d = h; d > 0; d--) {
		ms->pstart[d] = ms->pstart[d - 1];
		ms->nstart[d] = ms->nstart[d - 1];
	}
	ms->pstart[0] = 0;
	ms->nstart[0] = 0;
}

/*
 * The probe words of a link: position i over m bits is kb_reduce32(x_i,
 * m) with x_i the kb_probe sequence of its link hash, so one table serves
 * every m and every k (a smaller k uses a prefix).
 */
static void probe_words(__u64 lh, __u32 *x)
{
	struct kb_probe pr;
	__u32 i;

	kb_probe_init(&pr, lh);
	for (i = 0; i < KB_IPBF_STAGE_K_MAX; i++) {
		x[i] = kb_probe_word(&pr);
		kb_probe_next(&pr, 1);
	}
}

static void msbf_load_tag(struct kb_msbf *ms, const struct kb_lids *l,
			  __u32 tag, __u32 h)
{
	__u32 i;

	for (i = 0; i < ms->pstart[h]; i++)
		probe_words(kb_lhash(l, tag, ms->pos[i]),
			    &ms->px[i * KB_IPBF_STAGE_K_MAX]);
	for (i = 0; i < ms->nstart[h]; i++)
		probe_words(kb_lhash(l, tag, ms->neg[i]),
			    &ms->nx[i * KB_IPBF_STAGE_K_MAX]);
}

/* Build stage @s's filter of @m bits with @k probes into ms->bits. */
static void stage_fill(struct kb_msbf *ms, __u32 s, __u32 k, __u32 m)
{
	const __u32 *x = &ms->px[ms->pstart[s] * KB_IPBF_STAGE_K_MAX];
	const __u32 *end = &ms->px[ms->pstart[s + 1] * KB_IPBF_STAGE_K_MAX];
	__u64 *bits = ms->bits;
	__u32 i, b;

	memset(bits, 0, ((m + 63) / 64) * sizeof(__u64));
	for (; x < end; x += KB_IPBF_STAGE_K_MAX) {
		for (i = 0; i < k; i++) {
			b = kb_reduce32(x[i], m);
			bits[b >> 6] |= 1ULL << (b & 63);
		}
	}
}

/* The cell of word @x in near[]: ncells cells over the 2^32 words. */
static inline __u32 near_cell(const struct kb_msbf *ms, __u32 x)
{
	return (__u32)(((__u64)x * ms->ncells) >> 32);
}

/*
 * Mark cell @c, at bit 64 + c of near[]; and on a circle: the cells
 * within MSBF_NEAR of one end also appear past the other end.
 */
static inline void near_mark(struct kb_msbf *ms, __u32 c)
{
	__u32 b = 64 + c;

	ms->near[b >> 6] |= 1ULL << (b & 63);
	if (c < MSBF_NEAR) {
		b = 64 + c + ms->ncells;
		ms->near[b >> 6] |= 1ULL << (b & 63);
	}
	if (c >= ms->ncells - MSBF_NEAR) {
		b = 64 + c - ms->ncells;
		ms->near[b >> 6] |= 1ULL << (b & 63);
	}
}

/*
 * Sort the positive words of stage @s with @k probes into ms->words and
 * index them: idx[b] is the first word whose top ibits bits are >= b, with
 * about one word per bucket, so that finding a word's neighbours takes a
 * lookup and a short scan.  The sort is the index: a counting sort on
 * those top bits (idx), then an insertion sort, which only moves words
 * inside their bucket.  And mark the cells of near_cell() over MSBF_NEAR
 * m0 cells that hold a word.  Return: the number of words.
 */
static __u32 stage_words(struct kb_msbf *ms, __u32 s, __u32 k, __u32 m0)
{
	__u32 nw = (ms->pstart[s + 1] - ms->pstart[s]) * k, *cnt = ms->idx;
	__u32 j, i, n = 0, b, nb, sh, v, c;
	const __u32 *x;

	ms->ibits = 1;
	while ((1U << ms->ibits) < nw && ms->ibits < ms->ibits_max)
		ms->ibits++;
	nb = 1U << ms->ibits;
	sh = 32 - ms->ibits;
	memset(cnt, 0, nb * sizeof(*cnt));
	ms->ncells = MSBF_NEAR * m0;
	memset(ms->near, 0, ((ms->ncells + 63) / 64 + 3) * sizeof(ms->near[0]));
	for (j = ms->pstart[s]; j < ms->pstart[s + 1]; j++) {
		x = &ms->px[j * KB_IPBF_STAGE_K_MAX];
		for (i = 0; i < k; i++) {
			ms->tmp[n++] = x[i];
			cnt[x[i] >> sh]++;
			near_mark(ms, near_cell(ms, x[i]));
		}
	}
	/* bucket ends, then filled from the back: cnt[b] is its start */
	for (b = 1; b < nb; b++)
		cnt[b] += cnt[b - 1];
	cnt[nb] = nw;
	for (i = nw; i-- > 0;) {
		v = ms->tmp[i];
		ms->words[--cnt[v >> sh]] = v;
	}
	for (i = 1; i < nw; i++) {
		v = ms->words[i];
		for (c = i; c > 0 && ms->words[c - 1] > v; c--)
			ms->words[c] = ms->words[c - 1];
		ms->words[c] = v;
	}
	return nw;
}

/* Index of the first of the sorted words greater than @x. */
static __u32 upper_bound(const struct kb_msbf *ms, __u32 x)
{
	__u32 b = x >> (32 - ms->ibits), i = ms->idx[b], end = ms->idx[b + 1];

	while (i < end && ms->words[i] <= x)
		i++;
	return i;
}

/*
 * The distance from probe word @x to its nearest positive word: x and
 * that word fall in different positions once g m >= 2^32, so the probe
 * is uncovered at every such m.  0 when a positive word equals x.
 */
static inline __u32 probe_gap(__u32 x, __u32 pred, __u32 succ)
{
	return x - pred < succ - x ? x - pred : succ - x;
}

/*
 * The first m from which a negative whose widest probe gap is @g is
 * clean whatever m (KB_NONE: none, the gap is 0 or too small).
 */
static __u32 gap_safe(__u32 g)
{
	__u64 m;

	if (!g)
		return KB_NONE;
	m = ((1ULL << 32) + g - 1) / g;
	return m > KB_IPBF_STAGE_M_MAX ? KB_NONE : (__u32)m;
}

/*
 * Is some probe of the negative @x (k of them) certainly clean from m0
 * on, i.e. g m0 >= 2^32 for its gap g (probe_gap())?  A positive word y
 * less than 2^32 / m0 away from x on the circle of 2^32 words lies at
 * most MSBF_NEAR cells from x's cell, so a probe with no marked cell
 * around has none that close, and probe_gap() is never below the circle's
 * distance.  No answer is the exact test's to give (stage_prepare()).
 */
static int stage_far(const struct kb_msbf *ms, const __u32 *x, __u32 k)
{
	__u32 i, b, sh;
	__u64 w;

	for (i = 0; i < k; i++) {
		/* bits 64 + c - NEAR .. 64 + c + NEAR */
		b = 64 + near_cell(ms, x[i]) - MSBF_NEAR;
		sh = b & 63;
		w = ms->near[b >> 6] >> sh |
		    (ms->near[(b >> 6) + 1] << 1) << (63 - sh);
		if (!(w & ((2ULL << (2 * MSBF_NEAR)) - 1)))
			return 1;
	}
	return 0;
}

/*
 * Prepare the scan of stage @s with @k probes from size @m0: sort the
 * positive words, and keep the negatives that are not certainly clean
 * at m0 with their probes' neighbours.  Needs at least one positive.
 */
static void stage_prepare(struct kb_msbf *ms, __u32 s, __u32 k, __u32 m0)
{
	__u32 j, i, nw, at, *x, g, gmax;
	struct msbf_neg *a;

	nw = stage_words(ms, s, k, m0);
	ms->nact = 0;
	for (j = ms->nstart[s]; j < ms->nstart[s + 1]; j++) {
		x = &ms->nx[j * KB_IPBF_STAGE_K_MAX];
		if (stage_far(ms, x, k))
			continue;
		a = &ms->act[ms->nact];
		/* safe = min over probes of gap_safe(), i.e. of the widest */
		gmax = 0;
		for (i = 0; i < k; i++) {
			at = upper_bound(ms, x[i]);
			a->x[i] = x[i];
			a->pred[i] = at ? ms->words[at - 1] : ms->words[at];
			a->succ[i] = at < nw ? ms->words[at] : ms->words[at - 1];
			g = probe_gap(x[i], a->pred[i], a->succ[i]);
			if (g > gmax)
				gmax = g;
			/* clean from m0 on: gap_safe(gmax) <= m0 */
			if ((__u64)gmax * m0 >= 1ULL << 32)
				break;
		}
		if ((__u64)gmax * m0 >= 1ULL << 32)
			continue;
		a->safe = gap_safe(gmax);
		ms->nact++;
	}
}

static inline int probe_covered(const struct msbf_neg *a, __u32 i, __u32 m)
{
	__u32 q = kb_reduce32(a->x[i], m);

	return kb_reduce32(a->pred[i], m) == q || kb_reduce32(a->succ[i], m) == q;
}

/*
 * Is the stage clean at size @m (no active negative has all k probes
 * covered)?  Negatives that are certainly clean from m on leave the list.
 */
static int stage_clean(struct kb_msbf *ms, __u32 k, __u32 m)
{
	struct msbf_neg *a;
	__u32 j = 0, i;

	while (j < ms->nact) {
		a = &ms->act[j];
		if (a->safe <= m) {
			*a = ms->act[--ms->nact];
			continue;
		}
		for (i = 0; i < k; i++)
			if (!probe_covered(a, i, m))
				break;
		if (i == k)
			return 0;
		j++;
	}
	return 1;
}

static __u32 stage_bits(__u32 m)
{
	return kb_ipbf_gamma_len(m) + KB_IPBF_STAGE_KBITS + m;
}

/* The size where the expected number of matching negatives is start_fp. */
static __u32 stage_start(const struct msbf_cfg *c, __u32 k, __u32 n,
			 __u32 nneg)
{
	double f, m;

	if (c->exact || !n || nneg <= c->start_fp)
		return 1;
	f = pow(c->start_fp / nneg, 1.0 / k);
	m = -(double)k * n / log1p(-f);
	if (!(m >= 1.0))
		return 1;
	if (m > KB_IPBF_STAGE_M_MAX)
		return KB_IPBF_STAGE_M_MAX;
	return (__u32)m;
}

struct stage_best {
	__u32 bits;		/* 0: none yet */
	__u32 m;
	__u32 k;
};

/* Would a stage of @bits bits and @k probes beat @b? */
static int stage_beats(const struct stage_best *b, __u32 bits, __u32 k)
{
	if (!b->bits)
		return 1;
	if ((bits + 7) / 8 != (b->bits + 7) / 8)
		return (bits + 7) / 8 < (b->bits + 7) / 8;
	if (bits != b->bits)
		return bits < b->bits;
	return k < b->k;
}

/* The size of stage @s at half an expected false positive, with k probes. */
static double stage_est(__u32 k, __u32 n, __u32 nneg)
{
	if (!n || !nneg)
		return 1.0;
	return -(double)k * n / log1p(-pow(0.5 / nneg, 1.0 / k));
}

/*
 * The k to try first: the one with the smallest stage_est().  Once a
 * stage is found with it, the other k scan only while they can beat it.
 */
static __u32 stage_k0(const struct msbf_cfg *c, __u32 n, __u32 nneg)
{
	__u32 k, k0 = c->k_min;
	double m, best = 0.0;

	for (k = c->k_min; k <= c->k_max; k++) {
		m = stage_est(k, n, nneg);
		if (k == c->k_min || m < best) {
			best = m;
			k0 = k;
		}
	}
	return k0;
}

/*
 * Scan the sizes of stage @s with @k probes while they can beat @b, up to
 * @cap bits when there is no best yet (a link pair whose positions
 * coincide at every size would otherwise scan to the maximum).
 * Return: 1 when it found a better stage.
 */
static int stage_scan(struct kb_msbf *ms, const struct msbf_cfg *c,
		      __u32 s, __u32 k, int capped, struct stage_best *b)
{
	__u32 n = ms->pstart[s + 1] - ms->pstart[s];
	__u32 nneg = ms->nstart[s + 1] - ms->nstart[s];
	__u32 m, bits, cap = KB_IPBF_STAGE_M_MAX;
	double est = 4.0 * stage_est(k, n, nneg) + 64.0;

	if (capped && est < cap)
		cap = (__u32)est;
	m = stage_start(c, k, n, nneg);
	if (!stage_beats(b, stage_bits(m), k))
		return 0;
	if (n)
		stage_prepare(ms, s, k, m);
	else
		ms->nact = 0;	/* an empty filter matches nothing */
	for (; m <= cap; m++) {
		bits = stage_bits(m);
		if (!stage_beats(b, bits, k))
			return 0;
		if (stage_clean(ms, k, m)) {
			b->bits = bits;
			b->m = m;
			b->k = k;
			return 1;
		}
	}
	return 0;
}

/*
 * The best (m, k) of stage @s.  k0 first, then its neighbours outwards
 * while each one still beats the best (the size is about unimodal in k);
 * KB_MSBF_EXACT tries every k.  Return: its bits, or 0 when none fits.
 */
static __u32 stage_search(struct kb_msbf *ms, const struct msbf_cfg *c,
			  __u32 s, __u32 *mo, __u8 *ko)
{
	__u32 n = ms->pstart[s + 1] - ms->pstart[s];
	__u32 nneg = ms->nstart[s + 1] - ms->nstart[s];
	struct stage_best b = { 0, 0, 0 };
	__u32 k0 = stage_k0(c, n, nneg);
	int capped, k, found;

	for (capped = 1; capped >= 0 && !b.bits; capped--) {
		stage_scan(ms, c, s, k0, capped, &b);
		/* without negatives the first size of k0 = k_min is the best */
		if (!nneg)
			break;
		for (k = (int)k0 - 1; k >= (int)c->k_min; k--) {
			found = stage_scan(ms, c, s, k, capped, &b);
			if (!found && !c->exact)
				break;
		}
		for (k = (int)k0 + 1; k <= (int)c->k_max; k++) {
			found = stage_scan(ms, c, s, k, capped, &b);
			if (!found && !c->exact)
				break;
		}
	}
	if (!b.bits)
		return 0;
	*mo = b.m;
	*ko = (__u8)b.k;
	return b.bits;
}

/* Plan every stage in tag set @tag; return the header bytes, 0 if none. */
static __u32 msbf_plan(struct kb_msbf *ms, const struct kb_lids *l,
		       const struct msbf_cfg *c, __u32 tag, __u32 h,
		       __u32 bound)
{
	__u32 s, bits, total = KB_IPBF_HDR_LEN;

	msbf_load_tag(ms, l, tag, h);
	for (s = 0; s < h; s++) {
		bits = stage_search(ms, c, s, &ms->m[s], &ms->k[s]);
		if (!bits)
			return 0;
		total += (bits + 7) / 8;
		if (bound && total >= bound)
			return 0;
	}
	return total;
}

static void put_bits(__u8 *b, __u32 *pos, __u32 v, __u32 n)
{
	__u32 i;

	for (i = n; i-- > 0; (*pos)++)
		if ((v >> i) & 1)
			b[*pos >> 3] |= kb_ipbf_bit_mask(*pos);
}

/* Write stage @s (planned as m, k) at @b; return its bytes. */
static __u32 stage_write(struct kb_msbf *ms, __u32 s, __u32 m, __u32 k,
			 __u8 *b)
{
	__u32 bytes = (stage_bits(m) + 7) / 8, pos = 0, w, off;
	__u64 x;

	memset(b, 0, bytes);
	put_bits(b, &pos, m, kb_ipbf_gamma_len(m));
	put_bits(b, &pos, k - 1, KB_IPBF_STAGE_KBITS);
	stage_fill(ms, s, k, m);
	for (w = 0; w < (m + 63) / 64; w++) {
		for (x = ms->bits[w]; x; x &= x - 1) {
			off = pos + w * 64 + (__u32)__builtin_ctzll(x);
			b[off >> 3] |= kb_ipbf_bit_mask(off);
		}
	}
	return bytes;
}

static void msbf_write(struct kb_msbf *ms, const struct msbf_cfg *c,
		       __u32 tag, __u32 h, __u8 *b)
{
	__u32 s, off = KB_IPBF_HDR_LEN;

	b[0] = KB_IPBF_VERSION;
	b[1] = KB_IPBF_F_MSBF;
	b[2] = (__u8)(c->hop_limit ? c->hop_limit : h);
	b[3] = (__u8)tag;
	b[4] = (__u8)h;
	b[5] = 0;
	b[6] = (__u8)(c->inner_proto >> 8);
	b[7] = (__u8)c->inner_proto;
	for (s = 0; s < h; s++)
		off += stage_write(ms, s, ms->best_m[s], ms->best_k[s], b + off);
}

static void msbf_info(const struct kb_msbf *ms, __u32 tag, __u32 h,
		      __u32 total, struct kb_msbf_info *info)
{
	__u32 s;

	memset(info, 0, sizeof(*info));
	info->bytes = total;
	info->nstages = h;
	info->tag = tag;
	for (s = 0; s < h; s++) {
		info->stage_m[s] = ms->best_m[s];
		info->stage_k[s] = ms->best_k[s];
		info->stage_bytes[s] = (stage_bits(ms->best_m[s]) + 7) / 8;
	}
}

int kb_msbf_build(struct kb_msbf *ms, const struct kb_lids *l,
		  const struct kb_tree *tr, const struct kb_msbf_params *p,
		  void *buf, size_t len, struct kb_msbf_info *info)
{
	__u32 h, tag, best_tag = 0, total, best = 0, limit;
	struct msbf_cfg c;
	int err;

	if (!ms || !l || !tr || !buf || l->topo != ms->topo ||
	    tr->topo != ms->topo || tr->src == KB_NONE)
		return -EINVAL;
	err = msbf_config(l, p, &c);
	if (err)
		return err;
	h = tr->height;
	if (h > KB_IPBF_STAGES_MAX)
		return -EINVAL;
	limit = len > 0x7FFFFFFF ? 0x7FFFFFFF : (__u32)len;
	if (c.max_bytes && c.max_bytes < limit)
		limit = c.max_bytes;
	msbf_group(ms, tr);
	for (tag = c.tag0; tag < c.tag0 + c.ntags; tag++) {
		total = msbf_plan(ms, l, &c, tag, h, best ? best : limit + 1);
		if (!total || (best && total >= best))
			continue;
		best = total;
		best_tag = tag;
		memcpy(ms->best_m, ms->m, h * sizeof(ms->m[0]));
		memcpy(ms->best_k, ms->k, h * sizeof(ms->k[0]));
	}
	if (!best)
		return -EMSGSIZE;
	if (best_tag != tag - 1)
		msbf_load_tag(ms, l, best_tag, h);
	msbf_write(ms, &c, best_tag, h, buf);
	if (info)
		msbf_info(ms, best_tag, h, best, info);
	return (int)best;
}
