// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom: the size of the intersection of two filters of one geometry
 * from their bits (libkbloom_survey.h, kbloom_similarity()).
 *
 *   n(t) = -(m / k) ln(1 - t / m)     keys behind t ones of m bits
 *   |A u B| = n(popcount(A | B))      the union's filter is the OR
 *   |A n B| = n(A) + n(B) - |A u B|
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "libkbloom_survey.h"
#include "uapi/kbloom_layout.h"

static int n_of(__u64 ones, __u64 m, __u32 k, double *n)
{
	if (ones >= m)
		return -ERANGE;
	*n = -((double)m / k) * log1p(-(double)ones / m);
	return 0;
}

static void count_ones(const __u64 *a, const __u64 *b, __u64 nwords,
		       struct kbloom_similarity *s)
{
	__u64 i, x, y;

	for (i = 0; i < nwords; i++) {
		x = __atomic_load_n(&a[i], __ATOMIC_RELAXED);
		y = __atomic_load_n(&b[i], __ATOMIC_RELAXED);
		s->ones_a += kb_popcount64(x);
		s->ones_b += kb_popcount64(y);
		s->ones_union += kb_popcount64(x | y);
	}
}

static int same_geometry(const struct kbloom_stats *a,
			 const struct kbloom_stats *b)
{
	return a->type == b->type && a->m == b->m && a->k == b->k &&
	       a->hash_id == b->hash_id && a->seed == b->seed;
}

static int estimate(struct kbloom_similarity *s)
{
	if (n_of(s->ones_a, s->m, s->k, &s->n_a) ||
	    n_of(s->ones_b, s->m, s->k, &s->n_b) ||
	    n_of(s->ones_union, s->m, s->k, &s->n_union))
		return -ERANGE;
	s->n_inter = s->n_a + s->n_b - s->n_union;
	if (s->n_inter < 0)
		s->n_inter = 0;
	s->jaccard = s->n_union > 0 ? s->n_inter / s->n_union : 0;
	return 0;
}

int kbloom_similarity(const struct kbloom_filter *a,
		      const struct kbloom_filter *b,
		      struct kbloom_similarity *out)
{
	struct kbloom_similarity s;
	struct kbloom_stats sa, sb;
	const __u64 *wa, *wb;
	__u64 nwords;
	int ret;

	if (!out || kbloom_stats(a, &sa) || kbloom_stats(b, &sb) ||
	    !same_geometry(&sa, &sb))
		return -EINVAL;
	if (sa.type != KBLOOM_TYPE_STANDARD && sa.type != KBLOOM_TYPE_BLOCKED)
		return -EOPNOTSUPP;
	memset(&s, 0, sizeof(s));
	s.m = sa.m;
	s.k = sa.k;
	wa = kbloom_words(a, &nwords);
	wb = kbloom_words(b, NULL);
	count_ones(wa, wb, nwords, &s);
	ret = estimate(&s);
	if (!ret)
		*out = s;
	return ret;
}
