/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the age-partitioned Bloom filter (KBLOOM_TYPE_AGE_PARTITIONED),
 * a sliding window over a stream of keys (Shtul, Baquero, Almeida,
 * "Age-Partitioned Bloom Filters", 2020), shared by every executor.
 *
 * Geometry.  n = k + l slices of s bits each (s a multiple of 64), m = n s.
 * The shape (struct kb_shape) is @type, @k, @tables = l, @buckets = s,
 * @update = the clock (KB_WIN_CLOCK_KEYS or KB_WIN_CLOCK_NS) and
 * @m = (k + l) s; every other field is 0.
 *
 * Slices.  Physical slice j (0 <= j < n) is bits [j s, (j + 1) s).  The
 * head is the physical index of the newest slice; logical slice i (0 is
 * the newest, n - 1 the oldest) is physical (head + i) mod n.
 *
 * Positions.  A key's bit in physical slice j is that of the partitioned
 * filter's probe j (kbloom_partitioned.h), from the one kb_hash() h:
 *
 *   g_0 = h, g_{j+1} = g_j * KB_PROBE_MUL,
 *   bit_j = j s + kb_reduce32(g_j >> 32, s).
 *
 * A key keeps its position in a slice for the slice's whole life, so
 * rotating never moves a bit.
 *
 * Add sets the key's bit in logical slices 0..k-1.  Test answers present
 * iff the key's bit is set in k logically consecutive slices.
 *
 * Rotation (a new generation): the oldest slice (logical n - 1) is
 * cleared and becomes the head, so every other slice ages by one.
 *   - Count clock: a generation holds g keys (gen_len); an add that finds
 *     g keys in the current generation rotates first.
 *   - Time clock: a generation lasts gen_len nanoseconds from its start;
 *     whoever rotates (a kernel work item, the control plane, the library
 *     before an add) does floor((now - start) / gen_len) rotations (at
 *     most n clear the whole filter) and moves start on by as many
 *     generations.
 *
 * Window.  A key added in generation G has its k bits in the slices that
 * are logical 0..k-1 then; r rotations later they are logical r..r+k-1,
 * all still there while r <= l.  So it tests present until the (l + 1)-th
 * rotation after G: with the count clock every one of the last l g keys
 * is present (0 false negatives; up to (l + 1) g are); with the time
 * clock every key added in the last l gen_len ns is.  A create takes the
 * window W (keys or ns) and sets gen_len = ceil(W / l).  Older keys are
 * forgotten: the type is KBLOOM_IMAGE_F_MAY_FN (kb_type_may_fn()).
 *
 * Rate.  With c keys in the current generation (1 <= c <= g) and a long
 * stream, logical slice i holds n_i = i g + c keys for i < k and k g for
 * i >= k, so a bit of it is set with probability
 * r_i = 1 - (1 - 1/s)^(n_i).  A non-key is a false positive iff k
 * logically consecutive slices have its bit set; taking the slices as
 * independent (the paper's model) that is the probability of a run of
 * k ones in n Bernoulli(r_i) trials, which kb_win_fpr() computes exactly
 * by the run-length recurrence
 *
 *   a_0(t) = [t == 0],
 *   a_{i+1}(0) = (1 - r_i) sum_t a_i(t),
 *   a_{i+1}(t + 1) = r_i a_i(t) (t + 1 < k),
 *   p = sum_i r_i a_i(k - 1),
 *
 * a_i(t) being the probability that no run of k was met before slice i
 * and the run ending at slice i - 1 has length t.  The worst moment is
 * c = g (just before a rotation): kb_win_plan() sizes s for it.
 *
 * The image (kbloom_image.h) is version 3; the geometry tail's
 * reserved[] words carry the window's state (KB_WIN_GEOM_*).
 */
#ifndef _UAPI_KBLOOM_VAR_WINDOW_H
#define _UAPI_KBLOOM_VAR_WINDOW_H

#include <linux/types.h>
#include <linux/errno.h>
#include "kbloom_base.h"
#include "kbloom_layout.h"
#include "kbloom_plan.h"
#include "kbloom_shape.h"

#define KB_WIN_SLICES_MAX	(KBLOOM_K_MAX + KB_WIN_L_MAX)
/* The shortest time generation: 1 ms. */
#define KB_WIN_GEN_NS_MIN	1000000ULL
#define KB_WIN_SLICE_STEP	64ULL

/* The version-3 geometry tail's reserved[] words of this type */
#define KB_WIN_GEOM_GEN_LEN	0	/* keys or ns per generation, >= 1 */
#define KB_WIN_GEOM_HEAD	1	/* physical index of the newest slice */
/* keys in, or ns since the start of, the generation; <= gen_len */
#define KB_WIN_GEOM_CLOCK	2
#define KB_WIN_GEOM_ROTATIONS	3	/* generations started since create */

/* Slices of a window shape. */
static inline __u32 kb_win_slices(__u32 k, __u32 l)
{
	return k + l;
}

/* A window shape of (k, l, s, clock): m derived, then checked. */
static inline int kb_win_shape_init(struct kb_shape *s, __u32 k, __u32 l,
				    __u64 slice, __u32 clock)
{
	struct kb_shape t;
	int ret;

	__builtin_memset(&t, 0, sizeof(t));
	t.type = KBLOOM_TYPE_AGE_PARTITIONED;
	t.k = k;
	t.tables = l;
	t.buckets = slice;
	t.update = clock;
	ret = kb_shape_derive(&t);
	if (ret)
		return ret;
	*s = t;
	return 0;
}

/*
 * The window state of an image tail: a generation length (a time one of
 * at least KB_WIN_GEN_NS_MIN), a head among the slices, a clock within
 * the generation.
 */
static inline int kb_win_state_ok(__u32 slices, __u32 kind, __u64 gen_len,
				  __u64 head, __u64 clock)
{
	if (kind == KB_WIN_CLOCK_NS && gen_len < KB_WIN_GEN_NS_MIN)
		return 0;
	return gen_len && head < slices && clock <= gen_len;
}

/* gen_len of a window of @window keys or ns over @l slices: ceil(W / l). */
static inline __u64 kb_win_gen_len(__u64 window, __u32 l)
{
	if (!l || !window)
		return 0;
	return window / l + (window % l ? 1 : 0);
}

/* Physical slice of logical slice @i. */
static inline __u32 kb_win_phys(__u32 head, __u32 i, __u32 slices)
{
	__u32 j = head + i;

	return j >= slices ? j - slices : j;
}

/* The head after one rotation: the oldest slice, which is cleared. */
static inline __u32 kb_win_next_head(__u32 head, __u32 slices)
{
	return head ? head - 1 : slices - 1;
}

/*
 * A walk over a key's bits in logical order from logical slice 0: the
 * probe word of physical slice j is g_j = h * KB_PROBE_MUL^j.
 */
struct kb_win_walk {
	__u64 h;
	__u64 g;
	__u32 phys;
	__u32 slices;
};

static inline void kb_win_walk_init(struct kb_win_walk *w, __u64 h,
				    __u32 head, __u32 slices)
{
	__u32 j;

	w->h = h;
	w->g = h;
	w->phys = head;
	w->slices = slices;
	for (j = 0; j < head && j < KB_WIN_SLICES_MAX; j++)
		w->g *= KB_PROBE_MUL;
}

/* The key's bit in the next logical slice, then step. */
static inline __u64 kb_win_walk_next(struct kb_win_walk *w, __u64 s)
{
	__u64 bit = (__u64)w->phys * s + kb_reduce32((__u32)(w->g >> 32), s);

	w->phys++;
	w->g *= KB_PROBE_MUL;
	if (w->phys >= w->slices) {
		w->phys = 0;
		w->g = w->h;
	}
	return bit;
}

/* The key's bit in physical slice @j (golden vectors, tests). */
static inline __u64 kb_win_bit(__u64 h, __u32 j, __u64 s)
{
	struct kb_win_walk w;

	kb_win_walk_init(&w, h, j, j + 1);
	return kb_win_walk_next(&w, s);
}

/*
 * Rotations due at @now for a time clock started at @start with
 * generations of @gen_len ns (0 when now < start).
 */
static inline __u64 kb_win_due(__u64 now, __u64 start, __u64 gen_len)
{
	if (!gen_len || now <= start)
		return 0;
	return (now - start) / gen_len;
}

/*
 * Run-length test over the bits seen in logical order: feed each bit
 * with kb_win_run_step(); 1 as soon as @k consecutive were set, -1 when
 * too few slices remain for a run, 0 to go on.
 */
static inline int kb_win_run_step(__u32 *run, int set, __u32 k,
				  __u32 left)
{
	*run = set ? *run + 1 : 0;
	if (*run >= k)
		return 1;
	return *run + left < k ? -1 : 0;
}

/* ---- the rate --------------------------------------------------------- */

/* Probability (Q62) that a bit of a slice of @s bits holding @n keys is 0. */
static inline __u64 kb_win_zero_q62(__u64 s, __u64 n)
{
	__s64 per = kb_nln1m(1, s);	/* -ln(1 - 1/s), Q8.56 */
	__u64 x = kb_mul_shr(n, (__u64)per, KB_HP_SHIFT - KB_LN_SHIFT);

	if (!n)
		return KB_P_ONE;
	if (x >= (__u64)KB_EXP_MIN)
		return 0;
	return kb_exp_q32(-(__s64)x);
}

/* Keys held by logical slice @i with @c keys in the current generation. */
static inline __u64 kb_win_slice_keys(__u32 i, __u32 k, __u64 g, __u64 c)
{
	return i < k ? i * g + c : k * g;
}

/**
 * kb_win_fpr() - the predicted rate, Q62
 * @k, @l, @s: the geometry
 * @g: keys per generation
 * @c: keys in the current generation, 0..g
 *
 * The run-length recurrence above, in Q62 fixed point (truncating: the
 * error is below (k + l) k 2^-62).
 */
static inline __u64 kb_win_fpr(__u32 k, __u32 l, __u64 s, __u64 g, __u64 c)
{
	__u64 a[KBLOOM_K_MAX], sum, z, r, hit = 0;
	__u32 i, t;

	if (k < KBLOOM_K_MIN || k > KBLOOM_K_MAX || !s)
		return 0;
	for (t = 0; t < k; t++)
		a[t] = t ? 0 : KB_P_ONE;
	for (i = 0; i < k + l; i++) {
		z = kb_win_zero_q62(s, kb_win_slice_keys(i, k, g, c));
		r = KB_P_ONE - z;
		hit += kb_mul_shr(r, a[k - 1], KB_P_SHIFT);
		for (sum = 0, t = 0; t < k; t++)
			sum += a[t];
		for (t = k - 1; t > 0; t--)
			a[t] = kb_mul_shr(r, a[t - 1], KB_P_SHIFT);
		a[0] = kb_mul_shr(z, sum, KB_P_SHIFT);
	}
	return hit;
}

/* kb_win_fpr() in 1e-12 units. */
static inline __u64 kb_win_fpr_pico(__u32 k, __u32 l, __u64 s, __u64 g,
				    __u64 c)
{
	return kb_mul_shr(kb_win_fpr(k, l, s, g, c), KBLOOM_P_UNIT,
			  KB_P_SHIFT);
}

/* The smallest k with 2^-k <= p: a window of half-full slices needs it. */
static inline __u32 kb_win_k_for(__u64 p_pico)
{
	__u32 k = 1;

	while (k < KBLOOM_K_MAX && (KBLOOM_P_UNIT >> k) > p_pico)
		k++;
	return k;
}

/*
 * The smallest slice (bits, a multiple of 64) whose rate just before a
 * rotation is at most @p_pico with @g keys per generation; 0 when none up
 * to KBLOOM_M_MAX / (k + l) is.
 */
static inline __u64 kb_win_slice_for(__u32 k, __u32 l, __u64 g,
				     __u64 p_pico)
{
	__u64 lo = 1, hi = KBLOOM_M_MAX / (k + l) / KB_WIN_SLICE_STEP, mid;

	if (kb_win_fpr_pico(k, l, hi * KB_WIN_SLICE_STEP, g, g) > p_pico)
		return 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (kb_win_fpr_pico(k, l, mid * KB_WIN_SLICE_STEP, g, g) <=
		    p_pico)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo * KB_WIN_SLICE_STEP;
}

/*
 * The l <= k of fewest bits for @k, a window of @n keys and rate @p_pico
 * (a larger l saves a little more memory, but a test may visit k + l
 * slices: l <= k keeps it within 2k probes).
 */
static inline __u32 kb_win_best_l(__u32 k, __u64 n, __u64 p_pico)
{
	__u64 s, bits, best = ~0ULL;
	__u32 l, best_l = 0;

	for (l = KB_WIN_L_MIN; l <= k && l <= KB_WIN_L_MAX; l++) {
		s = kb_win_slice_for(k, l, kb_win_gen_len(n, l), p_pico);
		if (!s)
			continue;
		bits = s * (k + l);
		if (bits < best) {
			best = bits;
			best_l = l;
		}
	}
	return best_l;
}

/**
 * kb_win_plan() - size a window for n keys at a target rate
 * @n: keys in the window (count clock: the window; time clock: the keys
 *     expected in it), > 0
 * @p_pico: target rate just before a rotation, in 1e-12 units,
 *     KBLOOM_P_TARGET_MIN..KBLOOM_P_TARGET_MAX
 * @k: slices a key is added to, 0 for kb_win_k_for(@p_pico)
 * @l: extra slices, 0 for the l of fewest bits (kb_win_best_l())
 * @clock: KB_WIN_CLOCK_KEYS or KB_WIN_CLOCK_NS
 * @s: out: the shape, written only on success
 *
 * Return: 0; -EINVAL for n == 0, a target, k, l or clock out of range or
 * a NULL @s; -E2BIG when no slice up to KBLOOM_M_MAX / (k + l) reaches
 * the target.
 */
static inline int kb_win_plan(__u64 n, __u64 p_pico, __u32 k, __u32 l,
			      __u32 clock, struct kb_shape *s)
{
	__u64 slice;

	if (!s || !n || p_pico < KBLOOM_P_TARGET_MIN ||
	    p_pico > KBLOOM_P_TARGET_MAX || k > KBLOOM_K_MAX ||
	    l > KB_WIN_L_MAX ||
	    (clock != KB_WIN_CLOCK_KEYS && clock != KB_WIN_CLOCK_NS))
		return -EINVAL;
	if (!k)
		k = kb_win_k_for(p_pico);
	if (!l)
		l = kb_win_best_l(k, n, p_pico);
	if (!l)
		return -E2BIG;
	slice = kb_win_slice_for(k, l, kb_win_gen_len(n, l), p_pico);
	if (!slice)
		return -E2BIG;
	return kb_win_shape_init(s, k, l, slice, clock);
}

#endif /* _UAPI_KBLOOM_VAR_WINDOW_H */
