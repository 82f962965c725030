// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_net: the search for the size of an MSBF stage.
 *
 * For each k, from the one of the smallest estimated size outwards, m
 * grows one bit at a time from m0 = -k n / ln(1 - (start_fp / N)^(1/k)),
 * where N (1 - e^(-k n / m))^k, the expected number of the N negatives
 * that match, equals start_fp (m0 = 1 with KB_MSBF_EXACT); the first size
 * with no matching negative is the k's candidate, and the best candidate
 * (bytes, then bits, then k) is the stage.
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
#include <math.h>
#include <string.h>

#include "msbf_int.h"

#define MSBF_DIRECT	32	/* sizes tested on the filter before sorting */

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
 * Sort the @nw words of ms->tmp into ms->words and index them: idx[b] is
 * the first word whose top ibits bits are >= b, with about one word per
 * bucket, so that finding a word's place takes a lookup and a short scan.
 * The sort is the index: a counting sort on those top bits (idx), then an
 * insertion sort, which only moves words inside their bucket.  With @ids,
 * ids[c] is the index in tmp of sorted word c.
 */
static void sort_index(struct kb_msbf *ms, __u32 nw, __u32 *ids)
{
	__u32 *cnt = ms->idx, i, b, nb, sh, v, c, id = 0;

	ms->ibits = 1;
	while ((1U << ms->ibits) < nw && ms->ibits < ms->ibits_max)
		ms->ibits++;
	nb = 1U << ms->ibits;
	sh = 32 - ms->ibits;
	memset(cnt, 0, nb * sizeof(*cnt));
	for (i = 0; i < nw; i++)
		cnt[ms->tmp[i] >> sh]++;
	/* bucket ends, then filled from the back: cnt[b] is its start */
	for (b = 1; b < nb; b++)
		cnt[b] += cnt[b - 1];
	cnt[nb] = nw;
	for (i = nw; i-- > 0;) {
		c = --cnt[ms->tmp[i] >> sh];
		ms->words[c] = ms->tmp[i];
		if (ids)
			ids[c] = i;
	}
	for (i = 1; i < nw; i++) {
		v = ms->words[i];
		if (ids)
			id = ids[i];
		for (c = i; c > 0 && ms->words[c - 1] > v; c--) {
			ms->words[c] = ms->words[c - 1];
			if (ids)
				ids[c] = ids[c - 1];
		}
		ms->words[c] = v;
		if (ids)
			ids[c] = id;
	}
}

/*
 * Sort the positive words of stage @s with @k probes into ms->words and
 * index them (sort_index()).  And mark the cells of near_cell() over
 * MSBF_NEAR m0 cells that hold a word.  Return: the number of words.
 */
static __u32 stage_words(struct kb_msbf *ms, __u32 s, __u32 k, __u32 m0)
{
	__u32 nw = (ms->pstart[s + 1] - ms->pstart[s]) * k;
	__u32 j, i, n = 0;
	const __u32 *x;

	ms->ncells = MSBF_NEAR * m0;
	memset(ms->near, 0, ((ms->ncells + 63) / 64 + 3) * sizeof(ms->near[0]));
	for (j = ms->pstart[s]; j < ms->pstart[s + 1]; j++) {
		x = ms->px[j];
		for (i = 0; i < k; i++) {
			ms->tmp[n++] = x[i];
			near_mark(ms, near_cell(ms, x[i]));
		}
	}
	sort_index(ms, nw, NULL);
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
 * The neighbours of the @nw probe words of stage @s's negatives (@k each)
 * among its positive words, the other way round: the negative words
 * sorted (ms->words, their probes in ms->nid), each positive word x goes
 * to the first of them >= x, c: x is a candidate pred of word c (in lo,
 * plus one) and succ of word c - 1 (in hi).  Then the greatest pred so far
 * ascending, and the least succ descending, are each word's neighbours
 * (pred <= x < succ; with none, the least or greatest positive word, as
 * upper_bound() leaves them): pred of probe t in ms->tmp[t], succ in
 * ms->nsucc[t].
 */
static void neg_neighbours(struct kb_msbf *ms, __u32 s, __u32 k, __u32 nw)
{
	__u32 j, i, t, x, c, end, sh, wmin = ~0U, wmax = 0;
	__u64 cur;

	for (j = ms->nstart[s], t = 0; j < ms->nstart[s + 1]; j++)
		for (i = 0; i < k; i++)
			ms->tmp[t++] = ms->nx[j][i];
	sort_index(ms, nw, ms->nid);
	sh = 32 - ms->ibits;
	for (t = 0; t < nw; t++) {
		ms->lo[t] = 0;
		ms->hi[t] = ~0ULL;
	}
	for (j = ms->pstart[s]; j < ms->pstart[s + 1]; j++) {
		for (i = 0; i < k; i++) {
			x = ms->px[j][i];
			wmin = x < wmin ? x : wmin;
			wmax = x > wmax ? x : wmax;
			c = ms->idx[x >> sh];
			end = ms->idx[(x >> sh) + 1];
			while (c < end && ms->words[c] < x)
				c++;
			if (c < nw && ms->lo[c] <= x)
				ms->lo[c] = x + 1ULL;
			if (c && ms->hi[c - 1] > x)
				ms->hi[c - 1] = x;
		}
	}
	for (t = 0, cur = 0; t < nw; t++) {
		cur = ms->lo[t] > cur ? ms->lo[t] : cur;
		ms->tmp[ms->nid[t]] = cur ? (__u32)(cur - 1) : wmin;
	}
	for (t = nw, cur = ~0ULL; t-- > 0;) {
		cur = ms->hi[t] < cur ? ms->hi[t] : cur;
		ms->nsucc[ms->nid[t]] = cur != ~0ULL ? (__u32)cur : wmax;
	}
}

/*
 * stage_prepare() for a stage of few negatives and many positive words:
 * the negatives' words are sorted instead (neg_neighbours()), and every
 * negative's neighbours found in one pass over the positive words; the
 * same negatives are kept, with the same neighbours, in the same order.
 */
static void stage_prepare_neg(struct kb_msbf *ms, __u32 s, __u32 k, __u32 m0)
{
	__u32 nneg = ms->nstart[s + 1] - ms->nstart[s], j, i, t, g, gmax;
	const __u32 *x;
	struct msbf_neg *a;

	ms->nact = 0;
	if (!nneg)
		return;
	neg_neighbours(ms, s, k, nneg * k);
	for (j = 0; j < nneg; j++) {
		x = ms->nx[ms->nstart[s] + j];
		a = &ms->act[ms->nact];
		gmax = 0;
		for (i = 0, t = j * k; i < k; i++, t++) {
			a->x[i] = x[i];
			a->pred[i] = ms->tmp[t];
			a->succ[i] = ms->nsucc[t];
			g = probe_gap(x[i], a->pred[i], a->succ[i]);
			gmax = g > gmax ? g : gmax;
		}
		if ((__u64)gmax * m0 >= 1ULL << 32)
			continue;
		a->safe = gap_safe(gmax);
		ms->nact++;
	}
}

/*
 * Prepare the scan of stage @s with @k probes from size @m0: sort the
 * positive words, and keep the negatives that are not certainly clean
 * at m0 with their probes' neighbours.  Needs at least one positive.
 * A stage with fewer than half as many negatives as positives sorts its
 * negatives' words instead (stage_prepare_neg()).
 */
static void stage_prepare(struct kb_msbf *ms, __u32 s, __u32 k, __u32 m0)
{
	__u32 j, i, nw, at, g, gmax;
	const __u32 *x;
	struct msbf_neg *a;

	if (2 * (ms->nstart[s + 1] - ms->nstart[s]) <
	    ms->pstart[s + 1] - ms->pstart[s]) {
		stage_prepare_neg(ms, s, k, m0);
		return;
	}
	nw = stage_words(ms, s, k, m0);
	ms->nact = 0;
	for (j = ms->nstart[s]; j < ms->nstart[s + 1]; j++) {
		x = ms->nx[j];
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

/* Build stage @s's filter of @m bits with @k probes into ms->bits. */
void msbf_stage_fill(struct kb_msbf *ms, __u32 s, __u32 k, __u32 m)
{
	__u64 *bits = ms->bits;
	__u32 i, j, b;
	const __u32 *x;

	memset(bits, 0, ((m + 63) / 64) * sizeof(__u64));
	for (j = ms->pstart[s]; j < ms->pstart[s + 1]; j++) {
		x = ms->px[j];
		for (i = 0; i < k; i++) {
			b = kb_reduce32(x[i], m);
			bits[b >> 6] |= 1ULL << (b & 63);
		}
	}
}

/* Is position @b of ms->bits set? */
static inline __u32 stage_bit(const __u64 *bits, __u32 b)
{
	return (__u32)(bits[b >> 6] >> (b & 63)) & 1;
}

/*
 * Is stage @s clean at size @m with @k probes: with the filter of its
 * positives built (msbf_stage_fill()), does every negative find one of
 * its k positions clear?  The answer stage_clean() gives at @m after
 * stage_prepare() (a position is set iff a positive word falls in it,
 * iff one of the word's sorted neighbours does), without the sort: most
 * scans end within a few sizes.  A negative's first two positions are
 * read together, without a branch between them: most negatives stop
 * there, unpredictably.
 */
static int stage_clean_at(struct kb_msbf *ms, __u32 s, __u32 k, __u32 m)
{
	const __u64 *bits = ms->bits;
	__u32 j, i, k1 = k > 1;
	const __u32 *x;

	msbf_stage_fill(ms, s, k, m);
	for (j = ms->nstart[s]; j < ms->nstart[s + 1]; j++) {
		x = ms->nx[j];
		if (!(stage_bit(bits, kb_reduce32(x[0], m)) &
		      stage_bit(bits, kb_reduce32(x[k1], m))))
			continue;
		for (i = 2; i < k; i++)
			if (!stage_bit(bits, kb_reduce32(x[i], m)))
				break;
		if (i >= k)
			return 0;
	}
	return 1;
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
	__u32 m, bits, cap = KB_IPBF_STAGE_M_MAX, tries;
	double est = 4.0 * stage_est(k, n, nneg) + 64.0;

	if (capped && est < cap)
		cap = (__u32)est;
	m = stage_start(c, k, n, nneg);
	if (m > cap || !stage_beats(b, stage_bits(m), k))
		return 0;
	/* no negative left: clean at m (an empty filter matches nothing) */
	ms->nact = 0;
	for (tries = 0; n && tries < MSBF_DIRECT && m <= cap; tries++, m++) {
		bits = stage_bits(m);
		if (!stage_beats(b, bits, k))
			return 0;
		if (stage_clean_at(ms, s, k, m)) {
			b->bits = bits;
			b->m = m;
			b->k = k;
			return 1;
		}
	}
	if (n && m <= cap)
		stage_prepare(ms, s, k, m);
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
__u32 msbf_stage_search(struct kb_msbf *ms, const struct msbf_cfg *c,
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
