/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the d-left counting filter: its positions,
 * layout and planner, shared by every executor.  Its shape and the one
 * validation are kbloom_shape.h's.
 *
 * d-left counting (Bonomi et al., ESA 2006), d subtables of B buckets (a
 * power of two) of c cells; a cell is an r-bit remainder above a w-bit
 * counter, (rem << w) | count, empty iff count is 0; cell n is bits
 * [n (r + w), + r + w) of the array.  With q = log2(B) + r:
 *   v   = h >> (64 - q)                          (the key's q-bit print)
 *   v_j = kb_dleft_perm(v, j), a permutation of [0, 2^q) per j < d
 *   bucket_j = v_j >> r, rem_j = v_j mod 2^r
 *   cell (j, bucket_j, s) is cell number (j B + bucket_j) c + s
 * Each v -> v_j is a permutation: two keys share a (bucket,
 * remainder) in one subtable iff they share v, hence in all subtables, so
 * a delete removes exactly one copy of a print that was inserted.  k is d,
 * m = d B c cells.  The operations, the same in every executor:
 *   insert: the first cell (lowest j, then s) holding (bucket_j, rem_j)
 *     with a count counts one more (a count at 2^w - 1 stays: a
 *     saturation); else the first free cell of the least loaded of the d
 *     buckets (fewest occupied cells, the lowest j on ties) becomes
 *     (rem_j << w) | 1; all d buckets full: refused (-ENOSPC, an
 *     overflow), nothing changed;
 *   delete: the first holding cell counts one less, and is cleared to 0
 *     at 0; a saturated count stays (its key can no longer be deleted);
 *   test: some cell holds the key; count: the sum of the holding cells'
 *     counts (one cell unless lock-free writers raced on one print).
 *
 * Layouts (struct kb_shape .update, recorded in the image's geometry
 * tail; a reader that knows only the first refuses the second's images
 * and shapes, since it takes update = 0 only):
 *   KB_DLEFT_LAYOUT_SPREAD (0): subtable after subtable, as above: a
 *     key's d buckets lie in d subtables spread over the array (d cache
 *     misses).
 *   KB_DLEFT_LAYOUT_LINES (1): line i is bucket i of every subtable, one
 *     after the other, and a key's d buckets lie in two lines: subtables
 *     j < e = ceil(d / 2) (the left half of a line) take the bucket and
 *     remainder of v_0, subtables j >= e (the right half) those of v_1:
 *       g = j < e ? 0 : 1, bucket_j = v_g >> r, rem_j = v_g mod 2^r,
 *       cell (j, bucket_j, s) is cell number (bucket_j d + j) c + s.
 *     A left half-line is e buckets of the one bucket index x(v), so a
 *     key's print still determines its (bucket, remainder) in each
 *     subtable (v -> v_g is a permutation): deletes stay exact, and an
 *     absent key still meets d L cells, p = d L 2^-r.  The load balance is
 *     that of two choices among half-lines of e c cells instead of d
 *     choices among buckets of c cells: at the planned 75% load neither
 *     overflows in a build (tests/core/dleft_test.c); past it, and under
 *     churn, the lines layout overflows earlier (README, d-left).  With
 *     d = 4, c = 8 and 16-bit cells a line is one 64-byte cache line and
 *     a key touches two of them.
 *
 * Range reduction is kb_reduce32() (multiply-shift) everywhere.
 */
#ifndef _UAPI_KBLOOM_VAR_DLEFT_H
#define _UAPI_KBLOOM_VAR_DLEFT_H

#include "kbloom_shape.h"

#define KB_DLEFT_MIX	0xC2B2AE3D27D4EB4FULL	/* odd */

/* The print of q = log2(buckets) + rem_bits bits: the top q bits of h. */
static inline __u64 kb_dleft_print_q(__u64 h, __u32 q)
{
	return q >= 64 ? h : h >> (64 - q);
}

/* The key's print v: the top log2(buckets) + rem_bits bits of h. */
static inline __u64 kb_dleft_print(__u64 h, __u64 buckets, __u32 rem_bits)
{
	return kb_dleft_print_q(h, kb_log2_exact(buckets) + rem_bits);
}

/*
 * Subtable @j's permuted print (bucket = v_j >> r, remainder = low r
 * bits): a bijection of the q-bit prints, since each step is one (xor with
 * a constant, multiplication by an odd constant mod 2^q, x ^= x >> s with
 * s >= 1).  Multiplication alone (v_j = v A_j + C_j) would be a
 * permutation too, but its subtables' buckets are strongly correlated (two
 * prints sharing a bucket in subtable 0 share it in subtable 1 about 29%
 * of the time, against 1 / B); the xorshift rounds bring that to 1 / B.
 */
static inline __u64 kb_dleft_perm_q(__u64 v, __u32 j, __u32 q)
{
	__u32 s = (q + 1) / 2;
	__u64 mask = kb_field_mask(q), x;

	x = (v ^ (KB_DLEFT_MIX * (j + 1))) & mask;
	x = (x * (KB_PROBE_MUL * (2ULL * j + 1))) & mask;
	x ^= x >> s;
	x = (x * KB_PROBE_MUL) & mask;
	x ^= x >> s;
	return (x * KB_DLEFT_MIX) & mask;
}

/* kb_dleft_perm_q() with q = log2(@buckets) + @rem_bits. */
static inline __u64 kb_dleft_perm(__u64 v, __u32 j, __u64 buckets,
				  __u32 rem_bits)
{
	return kb_dleft_perm_q(v, j, kb_log2_exact(buckets) + rem_bits);
}

/* Cell number of cell @s of bucket @b in subtable @j. */
static inline __u64 kb_dleft_cell(__u32 j, __u64 b, __u32 s, __u64 buckets,
				  __u32 cells)
{
	return ((__u64)j * buckets + b) * cells + s;
}

/* A cell's value: remainder @rem above a @counter_bits count. */
static inline __u64 kb_dleft_cell_val(__u64 rem, __u64 count,
				      __u32 counter_bits)
{
	return (rem << counter_bits) | count;
}

static inline __u64 kb_dleft_cell_count(__u64 cell, __u32 counter_bits)
{
	return cell & kb_field_mask(counter_bits);
}

static inline __u64 kb_dleft_cell_rem(__u64 cell, __u32 counter_bits)
{
	return cell >> counter_bits;
}

/*
 * A cell holds print remainder @rem: occupied (count not 0) with that
 * remainder.
 */
static inline int kb_dleft_cell_holds(__u64 cell, __u64 rem,
				      __u32 counter_bits)
{
	return kb_dleft_cell_count(cell, counter_bits) &&
	       kb_dleft_cell_rem(cell, counter_bits) == rem;
}

/* Lines layout: cell number of cell @s of bucket @b in subtable @j. */
static inline __u64 kb_dleft_cell_lines(__u32 j, __u64 b, __u32 s,
					__u32 tables, __u32 cells)
{
	return (b * tables + j) * cells + s;
}

/* Lines layout: the permuted print subtable @j takes (0 or 1). */
static inline __u32 kb_dleft_line_half(__u32 j, __u32 tables)
{
	return j < (tables + 1) / 2 ? 0 : 1;
}

/*
 * Where key hash @h lives in subtable @j (q = log2(buckets) + r, see
 * kb_dleft_print_q()), in the layout of @s: the number of the first cell
 * of its bucket, and its remainder in *@rem.
 */
static inline __u64 kb_dleft_locate(__u64 h, __u32 j, __u32 q,
				    const struct kb_shape *s, __u64 *rem)
{
	__u32 lines = s->update == KB_DLEFT_LAYOUT_LINES;
	__u32 g = lines ? kb_dleft_line_half(j, s->tables) : j;
	__u64 vj = kb_dleft_perm_q(kb_dleft_print_q(h, q), g, q);

	*rem = vj & kb_field_mask(s->fp_bits);
	if (lines)
		return kb_dleft_cell_lines(j, vj >> s->fp_bits, 0, s->tables,
					   s->slots);
	return kb_dleft_cell(j, vj >> s->fp_bits, 0, s->buckets, s->slots);
}

/* The subtable cell number @n lies in, in the layout of @s. */
static inline __u32 kb_dleft_cell_table(__u64 n, const struct kb_shape *s)
{
	if (s->update == KB_DLEFT_LAYOUT_LINES)
		return (__u32)(n / s->slots % s->tables);
	return (__u32)(n / s->slots / s->buckets);
}

/*
 * The BPF form (bpf/kbloom_dleft_ct.bpf.c) updates a cell with one
 * compare-and-exchange of one word, so its cells never straddle two
 * words: fp_bits + counter_bits is 8, 16 or 32 (a divisor of 64), e.g.
 * 16-bit cells of r = 12, w = 4 or r = 14, w = 2.  The module and the
 * library take every valid shape.
 */
static inline int kb_dleft_shape_atomic(const struct kb_shape *s)
{
	__u32 bits = s->fp_bits + s->counter_bits;

	return bits == 8 || bits == 16 || bits == 32;
}

/* The planner's defaults: d = 4 subtables, c = 8 cells, w = 2 bits. */
#define KB_DLEFT_PLAN_TABLES	4U
#define KB_DLEFT_PLAN_CELLS	8U
#define KB_DLEFT_PLAN_COUNTER	2U
/* Planned load: n fills 3/4 of the cells. */
#define KB_DLEFT_LOAD_NUM	3U
#define KB_DLEFT_LOAD_DEN	4U

/*
 * The false-positive rate of a d-left filter of @n keys, in pico units:
 * p = d L 2^-r, L = n / (d B) the mean occupied cells of a bucket (each
 * of the d candidate buckets of an absent key holds about L cells, each
 * matching its r-bit remainder with probability 2^-r), so p = n / (B 2^r)
 * (Bonomi et al., ESA 2006, section 4).  Capped at 1.0.
 */
static inline __u64 kb_dleft_fpr_pico(__u64 n, __u64 buckets,
				      __u32 rem_bits)
{
	__u64 a;

	if (!buckets || buckets > KBLOOM_M_MAX || rem_bits > 63 ||
	    n / buckets >= (1ULL << 20))
		return KBLOOM_P_UNIT;
	/* n / B in millionths (< 2^40), then times 1e6 / 2^r (< 2^60) */
	a = n / buckets * 1000000ULL + n % buckets * 1000000ULL / buckets;
	a = a * 1000000ULL >> rem_bits;
	return a > KBLOOM_P_UNIT ? KBLOOM_P_UNIT : a;
}

/*
 * kb_dleft_plan() - a d-left shape for @n keys at rate @p_pico
 * @s: in: tables (d), slots (c) and counter_bits (w), each 0 for the
 *     default (4, 8, 2), and the layout (update: KB_DLEFT_LAYOUT_*); out:
 *     the whole shape (type, k, m, fp_bits, buckets)
 *
 * B = the power of two at or above n / (d c 3/4) (at least 2): n keys
 * fill at most 3/4 of the d B c cells, where overflow of a bucket is
 * vanishingly rare for d = 4, c = 8.  Then r = the smallest remainder
 * width in [KB_DLEFT_REM_MIN, KB_DLEFT_REM_MAX] with
 * kb_dleft_fpr_pico(n, B, r) <= p, i.e. r = ceil(log2(d L / p)) with
 * L = n / (d B).  At n = 3/4 of the cells, r = 12, w = 2: p = 24 / 4096 =
 * 0.59% at 14 / 0.75 = 18.7 bits per key.
 *
 * Return: 0; -EINVAL for n = 0, p outside [KBLOOM_P_TARGET_MIN,
 * KBLOOM_P_TARGET_MAX], a bad d, c, w or layout, or a rate no r reaches;
 * -E2BIG
 * when the cells would exceed KBLOOM_M_MAX.
 */
static inline int kb_dleft_plan(__u64 n, __u64 p_pico, struct kb_shape *s)
{
	__u32 d = s->tables ? s->tables : KB_DLEFT_PLAN_TABLES;
	__u32 c = s->slots ? s->slots : KB_DLEFT_PLAN_CELLS;
	__u32 w = s->counter_bits ? s->counter_bits : KB_DLEFT_PLAN_COUNTER;
	__u64 per = (__u64)d * c * KB_DLEFT_LOAD_NUM, b = 2;
	__u32 r, layout = s->update;

	if (!n || p_pico < KBLOOM_P_TARGET_MIN || p_pico > KBLOOM_P_TARGET_MAX)
		return -EINVAL;
	if (layout > KB_DLEFT_LAYOUT_LINES)
		return -EINVAL;
	if (d < KB_DLEFT_TABLES_MIN || d > KB_DLEFT_TABLES_MAX || !c ||
	    c > KB_DLEFT_CELLS_MAX)
		return -EINVAL;
	if (n > KBLOOM_M_MAX)
		return -E2BIG;
	while (b * per < n * KB_DLEFT_LOAD_DEN)
		b <<= 1;
	if (b > KBLOOM_M_MAX / ((__u64)d * c))
		return -E2BIG;
	for (r = KB_DLEFT_REM_MIN; r <= KB_DLEFT_REM_MAX; r++)
		if (kb_dleft_fpr_pico(n, b, r) <= p_pico)
			break;
	if (r > KB_DLEFT_REM_MAX)
		return -EINVAL;
	*s = (struct kb_shape){ .type = KBLOOM_TYPE_DLEFT, .counter_bits = w,
				.fp_bits = r, .slots = c, .tables = d,
				.update = layout, .buckets = b };
	return kb_shape_derive(s);
}

#endif /* _UAPI_KBLOOM_VAR_DLEFT_H */
