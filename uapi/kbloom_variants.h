/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: shapes and positions of the survey variants I, shared by every
 * executor: the cuckoo filter, the variable-increment counting filter, the
 * d-left counting filter and the Count-Min (spectral) sketch.
 *
 * A shape (struct kb_shape) is everything that fixes a filter's array: it
 * is what CREATE takes and what an image records (the base header plus,
 * for these types, the version-3 geometry tail).  kb_shape_check() is the
 * one validation; kb_shape_words() the one array size.  Every position is
 * derived from the one 64-bit kb_hash() h of the key:
 *
 * Cuckoo (Fan et al., CoNEXT 2014), B buckets of b slots of f-bit
 * fingerprints, packed: slot s of bucket i is bits [(i b + s) f, + f) of
 * the array (a slot may straddle two words).
 *   fp = 1 + kb_reduce32((u32)h, 2^f - 1)        (0 marks an empty slot)
 *   i1 = kb_reduce32(h >> 32, B)
 *   t  = kb_reduce32((fp * KB_PROBE_MUL mod 2^64) >> 32, B)
 *   alt(i) = (t - i) mod B
 * alt(alt(i)) = i for every B (an involution, not only for powers of two),
 * and alt depends only on the bucket and the fingerprint, as partial-key
 * cuckoo hashing needs.  k is 2 (buckets per key), m = B b slots.
 *
 * Variable-increment counting (Rottenstreich, Kanizo, Keslassy, INFOCOM
 * 2012), m counters of 4 or 8 bits (the counting layout) and L: probe i
 * takes g_i of the standard/counting sequence (kbloom_layout.h), position
 * kb_reduce32(g_i >> 32, m), increment v_i = L + kb_reduce32((u32)g_i, L),
 * one of {L, ..., 2L - 1}.  A counter c holding key x's v is c = v + S
 * where S, the other keys' increments, is 0 or at least L: x is possibly
 * present iff every probed c is saturated, equal to v, or at least v + L.
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
 * Count-Min (Cormode and Muthukrishnan; Cohen and Matias' spectral filter
 * is its minimum selection), d rows of w counters of 16 or 32 bits: row i
 * uses column kb_reduce32(g_i >> 32, w) of the standard/counting probe
 * sequence, counter i w + column; counter n is bits [n cw, + cw).  k is d,
 * m = d w.  Update KB_CM_ALL adds to every row (deletable); KB_CM_MIN_INC
 * (minimal increase, conservative update) raises only the rows at the
 * minimum and cannot delete.
 *
 * The partitioned filter's shape (survey variants II) is checked here
 * too; its positions and planner are uapi/kbloom_partitioned.h's.
 *
 * Range reduction is kb_reduce32() (multiply-shift) everywhere.
 */
#ifndef _UAPI_KBLOOM_VARIANTS_H
#define _UAPI_KBLOOM_VARIANTS_H

#include <linux/types.h>
#include <linux/errno.h>
#include "kbloom_base.h"
#include "kbloom_layout.h"
#include "kbloom_plan.h"

/* Count-Min update rules (struct kb_shape .update) */
#define KB_CM_ALL		1U	/* minimum selection: every row */
#define KB_CM_MIN_INC		2U	/* minimal increase */

/* Limits of the geometry fields */
#define KB_CUCKOO_FP_MIN	4U
#define KB_CUCKOO_FP_MAX	32U
#define KB_DLEFT_TABLES_MIN	2U
#define KB_DLEFT_TABLES_MAX	8U
#define KB_DLEFT_CELLS_MAX	16U
#define KB_DLEFT_REM_MIN	4U
#define KB_DLEFT_REM_MAX	32U
#define KB_CM_ROWS_MAX		16U
#define KB_CM_WIDTH_MIN		16ULL

/**
 * struct kb_shape - the geometry of a filter's array
 * @type: enum kbloom_type
 * @k: probes per key (classic, VI); 2 (cuckoo); d (d-left, Count-Min);
 *     slices (partitioned)
 * @m: bits (standard, blocked, partitioned), counters (counting, VI,
 *     Count-Min), slots (cuckoo) or cells (d-left)
 * @counter_bits: counter width: 4/8 (counting, VI), 2/4/8 (d-left cell
 *     counters), 16/32 (Count-Min), 0 otherwise
 * @fp_bits: cuckoo fingerprint or d-left remainder bits, 0 otherwise
 * @slots: cuckoo slots or d-left cells per bucket, 0 otherwise
 * @tables: d-left subtables or Count-Min rows, 0 otherwise
 * @vi_l: VI-CBF increments are drawn from [L, 2L), 0 otherwise
 * @update: Count-Min KB_CM_*, 0 otherwise
 * @buckets: cuckoo buckets, d-left buckets per subtable, Count-Min
 *     columns, partitioned slice bits, 0 otherwise
 */
struct kb_shape {
	__u32 type;
	__u32 k;
	__u64 m;
	__u32 counter_bits;
	__u32 fp_bits;
	__u32 slots;
	__u32 tables;
	__u32 vi_l;
	__u32 update;
	__u64 buckets;
};

static inline __u32 kb_log2_exact(__u64 x)
{
	__u32 n = 0;

	while (n < 64 && (1ULL << n) < x)
		n++;
	return n;
}

static inline int kb_pow2(__u64 x)
{
	return x && !(x & (x - 1));
}

/* Bits of one cell (d-left) or slot (cuckoo) or counter. */
static inline __u32 kb_shape_cell_bits(const struct kb_shape *s)
{
	switch (s->type) {
	case KBLOOM_TYPE_CUCKOO:
		return s->fp_bits;
	case KBLOOM_TYPE_DLEFT:
		return s->fp_bits + s->counter_bits;
	case KBLOOM_TYPE_PARTITIONED:
		return 1;
	default:
		return s->counter_bits;
	}
}

static inline int kb_cuckoo_shape_ok(const struct kb_shape *s)
{
	if (s->counter_bits || s->tables || s->vi_l || s->update)
		return 0;
	if (s->fp_bits < KB_CUCKOO_FP_MIN || s->fp_bits > KB_CUCKOO_FP_MAX)
		return 0;
	if (s->slots != 1 && s->slots != 2 && s->slots != 4 && s->slots != 8)
		return 0;
	if (s->buckets < 2 || s->buckets > KBLOOM_M_MAX / s->slots)
		return 0;
	return s->k == 2 && s->m == s->buckets * s->slots;
}

static inline int kb_vi_shape_ok(const struct kb_shape *s)
{
	if (s->fp_bits || s->slots || s->tables || s->update || s->buckets)
		return 0;
	if (s->counter_bits != KBLOOM_COUNTER_BITS_DEFAULT &&
	    s->counter_bits != KBLOOM_COUNTER_BITS_WIDE)
		return 0;
	if (s->vi_l < 2 || s->vi_l > (1U << (s->counter_bits - 2)))
		return 0;
	if (s->k < KBLOOM_K_MIN || s->k > KBLOOM_K_MAX)
		return 0;
	return s->m >= KBLOOM_M_MIN && s->m <= KBLOOM_M_MAX && !(s->m & 63);
}

static inline int kb_dleft_shape_ok(const struct kb_shape *s)
{
	__u32 cb = s->counter_bits;

	if (s->vi_l || s->update || (cb != 2 && cb != 4 && cb != 8))
		return 0;
	if (s->fp_bits < KB_DLEFT_REM_MIN || s->fp_bits > KB_DLEFT_REM_MAX)
		return 0;
	if (s->tables < KB_DLEFT_TABLES_MIN || s->tables > KB_DLEFT_TABLES_MAX)
		return 0;
	if (!s->slots || s->slots > KB_DLEFT_CELLS_MAX)
		return 0;
	if (!kb_pow2(s->buckets) || s->buckets < 2 ||
	    s->buckets > KBLOOM_M_MAX / (s->tables * s->slots))
		return 0;
	if (kb_log2_exact(s->buckets) + s->fp_bits > 64)
		return 0;
	return s->k == s->tables &&
	       s->m == s->buckets * s->tables * s->slots;
}

static inline int kb_cm_shape_ok(const struct kb_shape *s)
{
	if (s->fp_bits || s->slots || s->vi_l)
		return 0;
	if (s->counter_bits != 16 && s->counter_bits != 32)
		return 0;
	if (s->update != KB_CM_ALL && s->update != KB_CM_MIN_INC)
		return 0;
	if (!s->tables || s->tables > KB_CM_ROWS_MAX)
		return 0;
	if (s->buckets < KB_CM_WIDTH_MIN ||
	    s->buckets > KBLOOM_M_MAX / s->tables)
		return 0;
	return s->k == s->tables && s->m == s->buckets * s->tables;
}

/*
 * Partitioned (kbloom_partitioned.h): k slices of s = @buckets bits, s a
 * multiple of 64 (each slice starts on a word), m = k s.
 */
static inline int kb_part_shape_ok(const struct kb_shape *s)
{
	if (s->counter_bits || s->fp_bits || s->slots || s->tables ||
	    s->vi_l || s->update)
		return 0;
	if (s->k < KBLOOM_K_MIN || s->k > KBLOOM_K_MAX)
		return 0;
	if (s->buckets < KBLOOM_M_MIN || (s->buckets & 63) ||
	    s->buckets > KBLOOM_M_MAX / s->k)
		return 0;
	return s->m == s->buckets * s->k;
}

/*
 * kb_shape_check() - validate the shape of a variant of this header.
 * Return: 0; -EOPNOTSUPP for a type this header does not define (the
 * classic types are checked by kb_plan_check(), later types by their own
 * headers); -EINVAL for a field out of its range or inconsistent (@k and
 * @m must be the derived values: see kb_shape_derive()).
 */
static inline int kb_shape_check(const struct kb_shape *s)
{
	int ok;

	switch (s->type) {
	case KBLOOM_TYPE_CUCKOO:
		ok = kb_cuckoo_shape_ok(s);
		break;
	case KBLOOM_TYPE_VI_COUNTING:
		ok = kb_vi_shape_ok(s);
		break;
	case KBLOOM_TYPE_DLEFT:
		ok = kb_dleft_shape_ok(s);
		break;
	case KBLOOM_TYPE_COUNT_MIN:
		ok = kb_cm_shape_ok(s);
		break;
	case KBLOOM_TYPE_PARTITIONED:
		ok = kb_part_shape_ok(s);
		break;
	default:
		return -EOPNOTSUPP;
	}
	return ok ? 0 : -EINVAL;
}

/*
 * Fill in @k and @m of the cuckoo, d-left and Count-Min types from their
 * geometry, and @m of the partitioned type (k slices of @buckets bits);
 * VI keeps the caller's k and m.  Then kb_shape_check().
 */
static inline int kb_shape_derive(struct kb_shape *s)
{
	switch (s->type) {
	case KBLOOM_TYPE_CUCKOO:
		s->k = 2;
		s->m = s->buckets * s->slots;
		break;
	case KBLOOM_TYPE_DLEFT:
	case KBLOOM_TYPE_COUNT_MIN:
		s->k = s->tables;
		s->m = s->buckets * s->tables *
		       (s->type == KBLOOM_TYPE_DLEFT ? s->slots : 1);
		break;
	case KBLOOM_TYPE_PARTITIONED:
		s->m = s->buckets * (s->k <= KBLOOM_K_MAX ? s->k : 0);
		break;
	default:
		break;
	}
	/* products of out-of-range factors are refused by the check */
	if (s->buckets > KBLOOM_M_MAX || s->slots > 64 || s->tables > 64)
		return -EINVAL;
	return kb_shape_check(s);
}

/* 64-bit words of a valid shape's array. */
static inline __u64 kb_shape_words(const struct kb_shape *s)
{
	if (s->type == KBLOOM_TYPE_VI_COUNTING)
		return kb_words(KBLOOM_TYPE_COUNTING, s->m, s->counter_bits);
	return (s->m * kb_shape_cell_bits(s) + 63) / 64;
}

/*
 * Packed fields: field n of width w (1..64) is bits [n w, n w + w) of the
 * array, in word (n w) / 64 at shift (n w) % 64, spilling into the next
 * word when shift + w > 64.
 */
static inline __u64 kb_field_mask(__u32 width)
{
	return width >= 64 ? ~0ULL : (1ULL << width) - 1;
}

static inline __u64 kb_field_word(__u64 n, __u32 width)
{
	return n * width / 64;
}

static inline __u32 kb_field_shift(__u64 n, __u32 width)
{
	return (__u32)(n * width % 64);
}

static inline int kb_field_spills(__u32 shift, __u32 width)
{
	return shift + width > 64;
}

/* The field at @shift of word @lo, continued in @hi if it spills. */
static inline __u64 kb_field_get(__u64 lo, __u64 hi, __u32 shift,
				 __u32 width)
{
	__u64 v = lo >> shift;

	if (kb_field_spills(shift, width))
		v |= hi << (64 - shift);
	return v & kb_field_mask(width);
}

/* @lo with the part of the field at @shift that it holds set to @v. */
static inline __u64 kb_field_put_lo(__u64 lo, __u32 shift, __u32 width,
				    __u64 v)
{
	__u64 mask = kb_field_mask(width) << shift;

	return (lo & ~mask) | ((v << shift) & mask);
}

/* @hi with the spilled part of the field at @shift set to @v. */
static inline __u64 kb_field_put_hi(__u64 hi, __u32 shift, __u32 width,
				    __u64 v)
{
	__u32 used = 64 - shift;
	__u64 mask = kb_field_mask(width - used);

	return (hi & ~mask) | ((v >> used) & mask);
}

/* --- cuckoo --------------------------------------------------------------- */

static inline __u32 kb_cuckoo_fp(__u64 h, __u32 fp_bits)
{
	return 1 + kb_reduce32((__u32)h, kb_field_mask(fp_bits));
}

static inline __u32 kb_cuckoo_index(__u64 h, __u64 buckets)
{
	return kb_reduce32((__u32)(h >> 32), buckets);
}

/* The other bucket of fingerprint @fp in bucket @i: an involution. */
static inline __u32 kb_cuckoo_alt(__u32 i, __u32 fp, __u64 buckets)
{
	__u32 t = kb_reduce32((__u32)(((__u64)fp * KB_PROBE_MUL) >> 32),
			      buckets);

	return t >= i ? t - i : (__u32)(t + buckets - i);
}

/* Field number of slot @s of bucket @i (width fp_bits). */
static inline __u64 kb_cuckoo_slot(__u32 i, __u32 s, __u32 slots)
{
	return (__u64)i * slots + s;
}

/*
 * The cuckoo planner.  A lookup compares the key's fingerprint with the
 * 2 b slots of its two buckets; at load alpha (entries / (B b)) each holds
 * another key's fingerprint with probability alpha, which equals the
 * key's with probability 2^-f, so (Fan et al., section 4)
 *
 *   p = 1 - (1 - 2^-f)^(2 b alpha) = 1 - e^(-2 b alpha L_f),
 *   L_f = -ln(1 - 2^-f)              (kb_ln1m_tab[f - 1], Q62)
 *
 * and the array takes f / alpha bits per key.  kb_cuckoo_plan() plans
 * b = KB_CUCKOO_PLAN_SLOTS slots at load KB_CUCKOO_PLAN_LOAD:
 *
 *   f       = the smallest f in [4, 32] with p(f, alpha) <= target
 *   buckets = ceil(n / (b alpha)) = ceil(5 n / 19)  (b = 4, alpha = 0.95)
 *
 * (f = 12 at p = 0.2%: p = 0.185%, 12.63 bits per key).  The rate is
 * computed in fixed point: 2 b alpha in Q32.32, L_f in Q62, e^-x with
 * kb_exp_mant() (x < ln 2) or kb_exp_q32(): within 1e-6 relative of
 * the double-precision formula for f <= 24, to the pico unit beyond.
 */
#define KB_CUCKOO_PLAN_SLOTS	4U
#define KB_CUCKOO_PLAN_LOAD_NUM	19ULL	/* b alpha = 3.8 = 19 / 5 */
#define KB_CUCKOO_PLAN_LOAD_DEN	5ULL
#define KB_CUCKOO_MAX_KICKS	500U	/* entries examined per insert */

/* p in Q62 for f-bit fingerprints and 2 b alpha = @x2ba (Q32.32). */
static inline __u64 kb_cuckoo_fpr_q62(__u32 fp_bits, __u64 x2ba)
{
	__u64 x;

	if (fp_bits < 1 || fp_bits > 32)
		return KB_P_ONE;
	x = kb_mul_shr(kb_ln1m_tab[fp_bits - 1], x2ba, KB_LN_SHIFT);
	if (x < KB_LN2_Q62)
		return KB_P_ONE - kb_exp_mant(x);
	return KB_P_ONE - kb_exp_q32(-(__s64)(x >> (KB_P_SHIFT - KB_LN_SHIFT)));
}

/*
 * The predicted rate, in pico units, of a cuckoo filter holding @n
 * fingerprints in B = @buckets buckets: 2 b alpha = 2 n / B.
 */
static inline __u64 kb_cuckoo_fpr_pico(__u32 fp_bits, __u64 buckets, __u64 n)
{
	__u64 x2ba;

	if (!n || !buckets)
		return 0;
	x2ba = kb_div_fx(2 * n, buckets, KB_LN_SHIFT);
	return kb_p_to_pico(kb_cuckoo_fpr_q62(fp_bits, x2ba));
}

/* The planned rate of f-bit fingerprints at b = 4, alpha = 0.95. */
static inline __u64 kb_cuckoo_plan_fpr_pico(__u32 fp_bits)
{
	__u64 x2ba = kb_div_fx(2 * KB_CUCKOO_PLAN_LOAD_NUM,
			       KB_CUCKOO_PLAN_LOAD_DEN, KB_LN_SHIFT);

	return kb_p_to_pico(kb_cuckoo_fpr_q62(fp_bits, x2ba));
}

/*
 * kb_cuckoo_plan() - the shape of a cuckoo filter for @n keys at rate
 * @p_pico (see above).  Return: 0 and *s (k and m derived); -EINVAL for
 * n == 0, a target outside [KBLOOM_P_TARGET_MIN, KBLOOM_P_TARGET_MAX] or
 * below the rate of 32-bit fingerprints (1.8e-9); -E2BIG when the slots
 * would exceed KBLOOM_M_MAX.
 */
static inline int kb_cuckoo_plan(__u64 n, __u64 p_pico, struct kb_shape *s)
{
	__u32 f = KB_CUCKOO_FP_MIN;

	if (!n || p_pico < KBLOOM_P_TARGET_MIN || p_pico > KBLOOM_P_TARGET_MAX)
		return -EINVAL;
	while (f <= KB_CUCKOO_FP_MAX && kb_cuckoo_plan_fpr_pico(f) > p_pico)
		f++;
	if (f > KB_CUCKOO_FP_MAX)
		return -EINVAL;
	if (n > KBLOOM_M_MAX)
		return -E2BIG;
	s->type = KBLOOM_TYPE_CUCKOO;
	s->counter_bits = 0;
	s->fp_bits = f;
	s->slots = KB_CUCKOO_PLAN_SLOTS;
	s->tables = 0;
	s->vi_l = 0;
	s->update = 0;
	/* no 64-bit '/' in the kernel: kb_div_fx() */
	s->buckets = kb_div_fx(n * KB_CUCKOO_PLAN_LOAD_DEN +
			       KB_CUCKOO_PLAN_LOAD_NUM - 1,
			       KB_CUCKOO_PLAN_LOAD_NUM, 0);
	if (s->buckets < 2)
		s->buckets = 2;
	if (s->buckets > KBLOOM_M_MAX / s->slots)
		return -E2BIG;
	return kb_shape_derive(s);
}

/*
 * The kick path of an insert whose two buckets are full, shared by the
 * executors that insert (the module and the library; the slot accessors
 * are theirs, passed as functions that the compiler inlines).
 *
 * Breadth first over slots: a node is a slot whose entry would move to
 * its other bucket, kb_cuckoo_alt(bucket, entry); the roots are the slots
 * of the key's two buckets, the children of a node the slots of the
 * bucket its entry moves to.  The search stops at the first node whose
 * entry's other bucket has an empty slot, or after KB_CUCKOO_MAX_KICKS
 * nodes examined (-ENOSPC).  A bucket enters the search once, with all
 * its slots (nodes j b .. j b + b - 1), so a path never holds a slot
 * twice.  Nothing moves during the search; kb_cuckoo_relocate() then
 * copies each entry of the path into its new slot from the end of the
 * path back to its root, so every slot is copied before it is
 * overwritten, and an entry is always in at least one of its buckets.
 */
#define KB_CUCKOO_SEARCH_NODES	(KB_CUCKOO_MAX_KICKS + 16U)
#define KB_CUCKOO_NO_PARENT	0xFFFFU

struct kb_cuckoo_node {
	__u32 bucket;
	__u16 slot;
	__u16 parent;	/* node index, or KB_CUCKOO_NO_PARENT for a root */
};

/* Slot @s of bucket @b of the filter @arr, and its store. */
typedef __u32 (*kb_cuckoo_get_t)(const void *arr, __u32 b, __u32 s);
typedef void (*kb_cuckoo_put_t)(void *arr, __u32 b, __u32 s, __u32 v);

/* A slot of bucket @b holding @v (0: an empty one), or -1. */
static inline int kb_cuckoo_find(const void *arr, kb_cuckoo_get_t get,
				 __u32 slots, __u32 b, __u32 v)
{
	__u32 s;

	for (s = 0; s < slots; s++)
		if (get(arr, b, s) == v)
			return (int)s;
	return -1;
}

/*
 * A slot holding @fp (0: an empty one) in bucket @i1, else in @i2: the
 * slot and *@b its bucket, or -1.
 */
static inline int kb_cuckoo_locate(const void *arr, kb_cuckoo_get_t get,
				   __u32 slots, __u32 i1, __u32 i2, __u32 fp,
				   __u32 *b)
{
	int s = kb_cuckoo_find(arr, get, slots, i1, fp);

	*b = i1;
	if (s < 0) {
		s = kb_cuckoo_find(arr, get, slots, i2, fp);
		*b = i2;
	}
	return s;
}

/* Copies of @fp in buckets @i1 and @i2 (one bucket when they are equal). */
static inline __u32 kb_cuckoo_copies(const void *arr, kb_cuckoo_get_t get,
				     __u32 slots, __u32 i1, __u32 i2,
				     __u32 fp)
{
	__u32 s, n = 0;

	for (s = 0; s < slots; s++) {
		n += get(arr, i1, s) == fp;
		if (i2 != i1)
			n += get(arr, i2, s) == fp;
	}
	return n;
}

/* Append bucket @b's slots as children of @parent: the new count. */
static inline __u32 kb_cuckoo_push(struct kb_cuckoo_node *nodes,
				   __u32 count, __u32 b, __u32 parent,
				   __u32 slots)
{
	__u32 n;

	if (count + slots > KB_CUCKOO_SEARCH_NODES)
		return count;
	for (n = 0; n < count; n += slots)
		if (nodes[n].bucket == b)
			return count;
	for (n = 0; n < slots; n++, count++) {
		nodes[count].bucket = b;
		nodes[count].slot = (__u16)n;
		nodes[count].parent = (__u16)parent;
	}
	return count;
}

/*
 * kb_cuckoo_search() - the path of an insert into full buckets @i1, @i2
 * @nodes: KB_CUCKOO_SEARCH_NODES nodes of scratch
 * @eb, @es: out: the empty slot the last entry of the path moves to
 *
 * Return: the last node of the path (its ancestors are the rest), or
 * -ENOSPC.
 */
static inline int kb_cuckoo_search(const void *arr, kb_cuckoo_get_t get,
				   __u32 slots, __u64 buckets, __u32 i1,
				   __u32 i2, struct kb_cuckoo_node *nodes,
				   __u32 *eb, __u32 *es)
{
	__u32 count, head, b;
	int s;

	count = kb_cuckoo_push(nodes, 0, i1, KB_CUCKOO_NO_PARENT, slots);
	count = kb_cuckoo_push(nodes, count, i2, KB_CUCKOO_NO_PARENT, slots);
	for (head = 0; head < count && head < KB_CUCKOO_MAX_KICKS; head++) {
		b = kb_cuckoo_alt(nodes[head].bucket,
				  get(arr, nodes[head].bucket, nodes[head].slot),
				  buckets);
		s = kb_cuckoo_find(arr, get, slots, b, 0);
		if (s >= 0) {
			*eb = b;
			*es = (__u32)s;
			return (int)head;
		}
		count = kb_cuckoo_push(nodes, count, b, head, slots);
	}
	return -ENOSPC;
}

/*
 * Move the entries of the path ending at node @n (KB_CUCKOO_NO_PARENT:
 * no path) towards the empty slot (@eb, @es), last entry first, then
 * store @fp in the slot the root left.  Return: the entries moved.
 */
static inline __u32 kb_cuckoo_relocate(void *arr, kb_cuckoo_get_t get,
				       kb_cuckoo_put_t put,
				       const struct kb_cuckoo_node *nodes,
				       __u32 n, __u32 eb, __u32 es, __u32 fp)
{
	__u32 moved = 0;

	for (; n != KB_CUCKOO_NO_PARENT; n = nodes[n].parent, moved++) {
		put(arr, eb, es, get(arr, nodes[n].bucket, nodes[n].slot));
		eb = nodes[n].bucket;
		es = nodes[n].slot;
	}
	put(arr, eb, es, fp);
	return moved;
}

/* --- variable-increment counting -------------------------------------------- */

/*
 * The next position over @m counters, and its increment in [@l, 2 @l).
 * Same sequence as kb_probe_next(): the positions of a VI filter are those
 * of a counting filter with the same m and k.
 */
static inline __u32 kb_vi_next(struct kb_probe *p, __u64 m, __u32 l,
			       __u32 *inc)
{
	__u32 pos = kb_reduce32(kb_probe_word(p), m);

	*inc = l + kb_reduce32((__u32)p->g, l);
	p->g *= KB_PROBE_MUL;
	return pos;
}

/* Counter @c is consistent with holding increment @v (see above). */
static inline int kb_vi_match(__u64 c, __u32 v, __u32 l, __u32 counter_bits)
{
	return c == kb_ctr_max(counter_bits) || c == v || c >= (__u64)v + l;
}

/*
 * Counter transitions of the VI filter, applied inside the executor's
 * compare-and-exchange loop on the word (as kb_ctr_inc()/kb_ctr_dec()).
 * An add of @v saturates at the maximum when c + v reaches it; a saturated
 * counter never moves again, so no delete can create a false negative.  A
 * delete takes @v from a counter that is not saturated: c == v gives 0,
 * c >= v + L gives c - v >= L.  Any other c (possible only when a delete
 * of a key that was never added races with other deletes) gives 0, so
 * that every counter is always 0, at least L or saturated: an added key
 * then always matches (kb_vi_counters_ok() checks images for it).
 */
static inline __u64 kb_vi_ctr_add(__u64 word, __u32 shift, __u32 counter_bits,
				  __u32 v)
{
	__u64 max = kb_ctr_max(counter_bits);
	__u64 c = kb_ctr_get(word, shift, counter_bits);

	c = (c == max || c + v >= max) ? max : c + v;
	return (word & ~(max << shift)) | (c << shift);
}

static inline __u64 kb_vi_ctr_sub(__u64 word, __u32 shift, __u32 counter_bits,
				  __u32 v, __u32 l)
{
	__u64 max = kb_ctr_max(counter_bits);
	__u64 c = kb_ctr_get(word, shift, counter_bits);

	if (c == max)
		return word;
	c = c >= (__u64)v + l ? c - v : 0;
	return (word & ~(max << shift)) | (c << shift);
}

/*
 * Every counter of a VI payload (@len bytes of little-endian words, at any
 * alignment) is 0, at least @l or saturated: the states adds and deletes
 * leave (kb_vi_ctr_sub()).  A payload with a counter in [1, @l) would make
 * a later add of a key not find it.
 */
static inline int kb_vi_counters_ok(const __u8 *payload, __u64 len,
				    __u32 counter_bits, __u32 l)
{
	__u64 i, w, c;
	__u32 b, s;

	for (i = 0; i + 8 <= len; i += 8) {
		w = 0;
		for (b = 0; b < 8; b++)
			w |= (__u64)payload[i + b] << (8 * b);
		for (s = 0; s < 64 && w; s += counter_bits) {
			c = kb_ctr_get(w, s, counter_bits);
			if (c && c < l)
				return 0;
		}
	}
	return 1;
}

/*
 * The increment range of a VI filter when none is given: with 4-bit
 * counters L = 3, the largest L for which three keys on one counter reach
 * its maximum (15) only when all three draw the largest increment, so a
 * filter under add and delete churn keeps its rate (L = 4 is ~5x lower on
 * a set that only grows, but three keys mostly saturate a counter and
 * churn piles up saturated counters: the README gives both); with 8-bit
 * counters L = 4.
 */
#define KB_VI_L_DEFAULT_4	3U
#define KB_VI_L_DEFAULT_8	4U

/* The default L of a VI filter of @counter_bits (0: 4) counters. */
static inline __u32 kb_vi_l_default(__u32 counter_bits)
{
	return counter_bits == KBLOOM_COUNTER_BITS_WIDE ? KB_VI_L_DEFAULT_8 :
							  KB_VI_L_DEFAULT_4;
}

/*
 * A VI shape of @counter_bits (0: 4) and @l (0: kb_vi_l_default()), k and m
 * still 0: what CREATE and the library start from.
 */
static inline void kb_vi_shape_init(struct kb_shape *s, __u32 counter_bits,
				    __u32 l)
{
	s->type = KBLOOM_TYPE_VI_COUNTING;
	s->k = 0;
	s->m = 0;
	s->counter_bits = counter_bits ? counter_bits :
					 KBLOOM_COUNTER_BITS_DEFAULT;
	s->fp_bits = 0;
	s->slots = 0;
	s->tables = 0;
	s->vi_l = l ? l : kb_vi_l_default(s->counter_bits);
	s->update = 0;
	s->buckets = 0;
}

/* Terms of the series of e^lambda beyond lambda^2 / 2 (lambda < 1). */
#define KB_VI_SERIES_MAX	40U

/*
 * The false-positive probability of a VI filter (Rottenstreich, Kanizo,
 * Keslassy, INFOCOM 2012, Theorem on D_L = {L, ..., 2L - 1}).  A probed
 * counter holds the increments of j other keys; the query's increment v is
 * uniform in D_L.  The counter is consistent with v (a false "present" at
 * that probe) with probability
 *   j = 0:   0
 *   j = 1:   1 / L                          (the one increment equals v)
 *   j = 2:   1 - (L^2 - 1) / (6 L^2)        (u1 + u2 >= v + L; the pairs
 *            below are the (L - 1) L (L + 1) / 6 triples a + b < c of
 *            offsets in [0, L))
 *   j >= 3:  1                              (the sum is >= 3L > v + L - 1)
 * The paper weights these with the binomial p_j = C(nk, j) m^-j
 * (1 - 1/m)^(nk - j); as for the classic formula (kbloom_plan.h) this uses
 * its Poisson limit, lambda = k n / m:
 *   q = 1 - e^-lambda (1 + lambda (L - 1) / L + lambda^2 (L^2 - 1) / (12 L^2))
 *   p = q^k
 * Saturation does not change it: L <= 2^(w - 2) keeps two increments
 * (<= 4L - 2) below the maximum 2^w - 1, and j >= 3 is "present" anyway.
 * For lambda < 1, q is computed as e^-lambda times the positive series
 * lambda / L + lambda^2 (5 L^2 + 1) / (12 L^2) + sum_{j >= 3} lambda^j / j!
 * (no cancellation for a tiny lambda); otherwise directly (q >= 0.2).
 */
static inline struct kb_fl kb_vi_small_sum(struct kb_fl lam, __u32 l)
{
	struct kb_fl s, t, sq = kb_fl_mul(lam, lam);
	__u32 j;

	s = kb_fl_div_u32(lam, l);
	t = kb_fl_div_u32(kb_fl_mul_u32(sq, 5 * l * l + 1), 12 * l * l);
	s = kb_fl_add(s, t);
	t = kb_fl_div_u32(kb_fl_mul(sq, lam), 6);
	for (j = 3; j < KB_VI_SERIES_MAX && t.m && t.e > s.e - 64; j++) {
		s = kb_fl_add(s, t);
		t = kb_fl_div_u32(kb_fl_mul(t, lam), j + 1);
	}
	return s;
}

/* ln q, Q32.32, for lambda >= 1 (@lam_q32 the same lambda in Q32.32) */
static inline __s64 kb_vi_ln_q_large(struct kb_fl lam, __s64 lam_q32, __u32 l)
{
	struct kb_fl a = kb_fl_make(1ULL << 63, 0), t;
	__u64 neg;

	t = kb_fl_div_u32(kb_fl_mul_u32(lam, l - 1), l);
	a = kb_fl_add(a, t);
	t = kb_fl_mul_u32(kb_fl_mul(lam, lam), l * l - 1);
	a = kb_fl_add(a, kb_fl_div_u32(t, 12 * l * l));
	neg = kb_fl_q62(kb_fl_mul(kb_fl_exp(-lam_q32), a));
	if (neg >= KB_P_ONE)
		return KB_LN_NEG_INF;
	return kb_ln_fx(KB_P_ONE - neg, KB_P_SHIFT);
}

/**
 * kb_vi_ln_fpr() - ln of the predicted false-positive probability
 * @m: counters, non-zero
 * @k: probes per key, KBLOOM_K_MIN..KBLOOM_K_MAX
 * @n: keys inserted
 * @l: increments in [@l, 2 @l), 2..64
 *
 * Return: ln p in Q32.32 (<= 0); KB_LN_NEG_INF for n == 0; 0 (p = 1) for
 * invalid parameters.
 */
static inline __s64 kb_vi_ln_fpr(__u64 m, __u32 k, __u64 n, __u32 l)
{
	struct kb_fl lam;
	__u64 lam_q32;
	__s64 lnq;
	int s;

	if (!m || k < KBLOOM_K_MIN || k > KBLOOM_K_MAX || l < 2 || l > 64)
		return 0;
	if (!n)
		return KB_LN_NEG_INF;
	if (n >> 55) {		/* keep n * k in 64 bits */
		s = kb_fls64(n) - 54;
		n >>= s;
		m >>= s;
		if (!m)
			return 0;
	}
	lam_q32 = kb_div_fx(n * k, m, KB_LN_SHIFT);
	if (lam_q32 >= KB_A_SAT)
		return 0;
	lam = kb_fl_div(n * k, m);
	if (lam_q32 < KB_LN_ONE)
		lnq = kb_fl_ln(kb_vi_small_sum(lam, l)) - (__s64)lam_q32;
	else
		lnq = kb_vi_ln_q_large(lam, (__s64)lam_q32, l);
	if (lnq >= 0)
		return 0;
	return lnq * k;
}

/* kb_vi_ln_fpr() as a probability in units of 1e-12, rounded. */
static inline __u64 kb_vi_fpr_pico(__u64 m, __u32 k, __u64 n, __u32 l)
{
	return kb_p_to_pico(kb_exp_q32(kb_vi_ln_fpr(m, k, n, l)));
}

/* Smallest u in [lo, hi] with p(64 u, k) <= target, hi passing. */
static inline __u64 kb_vi_bisect(__u64 n, __u32 k, __u32 l, __s64 lnt,
				 __u64 lo, __u64 hi)
{
	__u64 mid;

	while (lo < hi) {
		mid = lo + ((hi - lo) >> 1);
		if (kb_vi_ln_fpr(mid * 64, k, n, l) <= lnt)
			hi = mid;
		else
			lo = mid + 1;
	}
	return hi;
}

/**
 * kb_vi_plan() - size a VI filter for n keys at a target rate
 * @n: expected keys, > 0
 * @p_pico: target p in units of 1e-12,
 *          KBLOOM_P_TARGET_MIN..KBLOOM_P_TARGET_MAX
 * @l: increments in [@l, 2 @l); 0 selects kb_vi_l_default(@counter_bits)
 * @counter_bits: 4 (also when 0) or 8
 * @out: the plan (m counters, k, counter width, bytes, predicted p at n);
 *       written only on success
 *
 * The smallest m (a multiple of 64) for which some k gives a predicted p
 * (kb_vi_ln_fpr()) <= target at n, and the smallest such k: each k is
 * bisected over the m below the best so far (p falls as m grows).
 *
 * Return: 0; -EINVAL for n == 0, a target out of range, an @l or
 * @counter_bits outside the shape's limits (kb_vi_shape_ok()) or a NULL
 * @out; -E2BIG when m would exceed KBLOOM_M_MAX.
 */
static inline int kb_vi_plan(__u64 n, __u64 p_pico, __u32 l,
			     __u32 counter_bits, struct kb_plan *out)
{
	__u64 best_u = KBLOOM_M_MAX / 64 + 1, hi;
	__u32 k, best_k = 0;
	__s64 lnt;

	counter_bits = counter_bits ? counter_bits : KBLOOM_COUNTER_BITS_DEFAULT;
	l = l ? l : kb_vi_l_default(counter_bits);
	if (!out || !n || p_pico < KBLOOM_P_TARGET_MIN ||
	    p_pico > KBLOOM_P_TARGET_MAX)
		return -EINVAL;
	if ((counter_bits != KBLOOM_COUNTER_BITS_DEFAULT &&
	     counter_bits != KBLOOM_COUNTER_BITS_WIDE) ||
	    l < 2 || l > (1U << (counter_bits - 2)))
		return -EINVAL;
	lnt = kb_hp_to_ln(kb_ln_hp(p_pico, 0) - KB_LN_1E12_HP);
	for (k = KBLOOM_K_MIN; k <= KBLOOM_K_MAX; k++) {
		hi = best_u > KBLOOM_M_MAX / 64 ? KBLOOM_M_MAX / 64 : best_u - 1;
		if (!hi || kb_vi_ln_fpr(hi * 64, k, n, l) > lnt)
			continue;
		best_u = kb_vi_bisect(n, k, l, lnt, 1, hi);
		best_k = k;
	}
	if (!best_k)
		return -E2BIG;
	out->m = best_u * 64;
	out->k = best_k;
	out->counter_bits = counter_bits;
	out->bytes = kb_words(KBLOOM_TYPE_COUNTING, out->m, counter_bits) * 8;
	out->fpr_pico = kb_vi_fpr_pico(out->m, best_k, n, l);
	return 0;
}

/* --- d-left counting ----------------------------------------------------------- */

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

/*
 * Where key hash @h lives in subtable @j (q = log2(buckets) + r, see
 * kb_dleft_print_q()): the number of the first cell of its bucket, and
 * its remainder in *@rem.
 */
static inline __u64 kb_dleft_locate(__u64 h, __u32 j, __u32 q,
				    const struct kb_shape *s, __u64 *rem)
{
	__u64 vj = kb_dleft_perm_q(kb_dleft_print_q(h, q), j, q);

	*rem = vj & kb_field_mask(s->fp_bits);
	return kb_dleft_cell(j, vj >> s->fp_bits, 0, s->buckets, s->slots);
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
 *     default (4, 8, 2); out: the whole shape (type, k, m, fp_bits,
 *     buckets)
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
 * KBLOOM_P_TARGET_MAX], a bad d, c or w, or a rate no r reaches; -E2BIG
 * when the cells would exceed KBLOOM_M_MAX.
 */
static inline int kb_dleft_plan(__u64 n, __u64 p_pico, struct kb_shape *s)
{
	__u32 d = s->tables ? s->tables : KB_DLEFT_PLAN_TABLES;
	__u32 c = s->slots ? s->slots : KB_DLEFT_PLAN_CELLS;
	__u32 w = s->counter_bits ? s->counter_bits : KB_DLEFT_PLAN_COUNTER;
	__u64 per = (__u64)d * c * KB_DLEFT_LOAD_NUM, b = 2;
	__u32 r;

	if (!n || p_pico < KBLOOM_P_TARGET_MIN || p_pico > KBLOOM_P_TARGET_MAX)
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
				.buckets = b };
	return kb_shape_derive(s);
}

/* --- Count-Min ------------------------------------------------------------------ */

/* Counter number of row @i for the probe word of that row. */
static inline __u64 kb_cm_counter(__u32 i, __u32 probe_word, __u64 width)
{
	return (__u64)i * width + kb_reduce32(probe_word, width);
}

/*
 * Planner: Count-Min (Cormode and Muthukrishnan 2005) guarantees, for a
 * stream of total weight N, estimate(x) <= truth(x) + epsilon N with
 * probability at least 1 - delta, with
 *   w = ceil(e / epsilon) columns, d = ceil(ln(1 / delta)) rows.
 * Integers only (this runs in the kernel):
 *   w = floor(KB_CM_E18 / (epsilon_pico 10^6)) + 1, where KB_CM_E18 is
 *     floor(e 10^18); e / epsilon is never an integer (e is irrational),
 *     so this is exactly its ceiling; w is at least KB_CM_WIDTH_MIN;
 *   d = the least d with e^-d <= delta, i.e. with
 *     kb_cm_exp_neg_pico[d] < delta_pico, the table holding
 *     floor(10^12 e^-d) (e^-d 10^12 is never an integer either).
 * epsilon and delta are in pico units (1e-12), each within
 * [KBLOOM_P_TARGET_MIN, KBLOOM_P_TARGET_MAX].  epsilon = 0.1% and
 * delta = 1% give w = 2719, d = 5.
 *
 * The CREATE ioctl has no delta field: kbloom.ko takes the geometry
 * explicitly (tables = d, buckets = w), or fpr_pico = epsilon with
 * tables = d and buckets = 0, w then kb_cm_width(); the library and the
 * CLI plan d from delta with kb_cm_plan().
 */
#define KB_CM_E18		2718281828459045235ULL	/* floor(e 10^18) */
#define KB_CM_ROWS_DEFAULT	5U	/* delta = 1% */
#define KB_CM_COUNTER_BITS_DEFAULT	32U

static const __u64 kb_cm_exp_neg_pico[KB_CM_ROWS_MAX + 1] = {
	1000000000000ULL, 367879441171ULL, 135335283236ULL, 49787068367ULL,
	18315638888ULL, 6737946999ULL, 2478752176ULL, 911881965ULL,
	335462627ULL, 123409804ULL, 45399929ULL, 16701700ULL, 6144212ULL,
	2260329ULL, 831528ULL, 305902ULL, 112535ULL,
};

static inline int kb_cm_p_ok(__u64 p_pico)
{
	return p_pico >= KBLOOM_P_TARGET_MIN && p_pico <= KBLOOM_P_TARGET_MAX;
}

/* Columns for @eps_pico (0 when out of range): ceil(e / epsilon). */
static inline __u64 kb_cm_width(__u64 eps_pico)
{
	__u64 w;

	if (!kb_cm_p_ok(eps_pico))
		return 0;
	w = KB_CM_E18 / (eps_pico * 1000000ULL) + 1;
	return w < KB_CM_WIDTH_MIN ? KB_CM_WIDTH_MIN : w;
}

/* Rows for @delta_pico: ceil(ln(1 / delta)); 0 when out of range. */
static inline __u32 kb_cm_rows(__u64 delta_pico)
{
	__u32 d;

	if (!kb_cm_p_ok(delta_pico))
		return 0;
	for (d = 1; d <= KB_CM_ROWS_MAX; d++)
		if (kb_cm_exp_neg_pico[d] < delta_pico)
			return d;
	return 0;
}

/*
 * kb_cm_plan() - the shape of a Count-Min sketch for (epsilon, delta)
 * @counter_bits: 16 or 32 (0: 32)
 * @update: KB_CM_ALL or KB_CM_MIN_INC (0: KB_CM_ALL)
 * Return: 0; -EINVAL for epsilon or delta out of range, a delta below
 * e^-KB_CM_ROWS_MAX (more rows than allowed), a bad counter width or
 * update; -E2BIG for d w over KBLOOM_M_MAX.
 */
static inline int kb_cm_plan(__u64 eps_pico, __u64 delta_pico,
			     __u32 counter_bits, __u32 update,
			     struct kb_shape *s)
{
	__u64 w = kb_cm_width(eps_pico);
	__u32 d = kb_cm_rows(delta_pico);

	if (!w || !d)
		return -EINVAL;
	if (w * d > KBLOOM_M_MAX)
		return -E2BIG;
	s->type = KBLOOM_TYPE_COUNT_MIN;
	s->counter_bits = counter_bits ? counter_bits :
			  KB_CM_COUNTER_BITS_DEFAULT;
	s->update = update ? update : KB_CM_ALL;
	s->fp_bits = 0;
	s->slots = 0;
	s->vi_l = 0;
	s->tables = d;
	s->buckets = w;
	return kb_shape_derive(s);
}

/* A Count-Min shape refused only because d w is over KBLOOM_M_MAX. */
static inline int kb_cm_too_big(const struct kb_shape *s)
{
	struct kb_shape t = *s;

	t.buckets = KB_CM_WIDTH_MIN;
	return !kb_shape_derive(&t) && s->buckets <= KBLOOM_M_MAX &&
	       s->buckets * s->tables > KBLOOM_M_MAX;
}

/* Counter @n of a Count-Min array of 64-bit words (16/32 bits: no spill). */
static inline __u64 kb_cm_get(__u64 word, __u64 n, __u32 counter_bits)
{
	return kb_field_get(word, 0, kb_field_shift(n, counter_bits),
			    counter_bits);
}

/*
 * @c raised to at least @target, saturating at the counter maximum (a
 * counter at its maximum stays there: it never moves again).
 */
static inline __u64 kb_cm_raise(__u64 c, __u64 target, __u32 counter_bits)
{
	__u64 max = kb_field_mask(counter_bits);

	if (c == max)
		return c;
	if (target > max)
		return max;
	return target > c ? target : c;
}

#endif /* _UAPI_KBLOOM_VARIANTS_H */
