/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the shape of the survey variants, shared by every executor:
 * struct kb_shape, its validation and array size, and the packed fields
 * the variants' arrays are made of.
 *
 * A shape (struct kb_shape) is everything that fixes a filter's array: it
 * is what CREATE takes and what an image records (the base header plus,
 * for these types, the version-3 geometry tail).  kb_shape_check() is the
 * one validation; kb_shape_words() the one array size.  Every position is
 * derived from the one 64-bit kb_hash() h of the key (kbloom_var_*.h).
 *
 * The partitioned filter's shape (survey variants II) is checked here
 * too; its positions and planner are uapi/kbloom_partitioned.h's.
 *
 * Range reduction is kb_reduce32() (multiply-shift) everywhere.
 */
#ifndef _UAPI_KBLOOM_SHAPE_H
#define _UAPI_KBLOOM_SHAPE_H

#include <linux/types.h>
#include <linux/errno.h>
#include "kbloom_base.h"
#include "kbloom_layout.h"
#include "kbloom_plan.h"
#include "kbloom_var_shifting.h"
#include "kbloom_var_distance_sensitive.h"

/* Count-Min update rules (struct kb_shape .update) */
#define KB_CM_ALL		1U	/* minimum selection: every row */
#define KB_CM_MIN_INC		2U	/* minimal increase */

/* Age-partitioned generation clocks (struct kb_shape .update) */
#define KB_WIN_CLOCK_KEYS	1U	/* gen_len keys per generation */
#define KB_WIN_CLOCK_NS		2U	/* gen_len nanoseconds per generation */

/* Limits of the geometry fields */
#define KB_CUCKOO_FP_MIN	4U
#define KB_CUCKOO_FP_MAX	32U
#define KB_DLEFT_TABLES_MIN	2U
#define KB_DLEFT_TABLES_MAX	8U
#define KB_DLEFT_CELLS_MAX	16U
#define KB_DLEFT_REM_MIN	4U
#define KB_DLEFT_REM_MAX	32U
/* d-left layouts (struct kb_shape .update, kbloom_var_dleft.h) */
#define KB_DLEFT_LAYOUT_SPREAD	0U	/* subtable after subtable */
#define KB_DLEFT_LAYOUT_LINES	1U	/* a key's buckets in two lines */
#define KB_CM_ROWS_MAX		16U
#define KB_CM_WIDTH_MIN		16ULL
#define KB_STABLE_P_MAX		4096U	/* stable: decrements per insert */
#define KB_WIN_L_MIN		1U
#define KB_WIN_L_MAX		32U
#define KB_OH_SLICE_MIN		256ULL	/* one-hashing: 54 primes below */
#define KB_SB_K			8U	/* split-block: words per block */
#define KB_UF_BLOCK_BITS	512U	/* ultra-fast: 8 x 64-bit words */
#define KB_SBBF_BLOCK_BITS	256U	/* Parquet: 8 x 32-bit words */
#define KB_IBLT_K_MIN		2U
#define KB_IBLT_K_MAX		8U
#define KB_IBLT_KEY_WORDS_MAX	9U	/* 64-byte keys and their length */
#define KB_IBLT_STRATA_MAX	64U
#define KB_IBLT_CELLS_MAX	_BITULL(28)

/**
 * struct kb_shape - the geometry of a filter's array
 * @type: enum kbloom_type
 * @k: probes per key (classic, VI); 2 (cuckoo); d (d-left, Count-Min);
 *     slices (partitioned); slices a key is added to (age-partitioned)
 * @m: bits (standard, blocked, partitioned, age-partitioned), counters (counting, VI,
 *     Count-Min), slots (cuckoo) or cells (d-left)
 * @counter_bits: counter width: 4/8 (counting, VI), 2/4/8 (d-left cell
 *     counters), 16/32 (Count-Min), 0 otherwise
 * @fp_bits: cuckoo fingerprint or d-left remainder bits, 0 otherwise
 * @slots: cuckoo slots or d-left cells per bucket, 0 otherwise
 * @tables: d-left subtables or Count-Min rows, age-partitioned l (the
 *     slices beyond k), 0 otherwise
 * @vi_l: VI-CBF increments are drawn from [L, 2L), 0 otherwise
 * @update: Count-Min KB_CM_*, age-partitioned KB_WIN_CLOCK_*, d-left
 *     KB_DLEFT_LAYOUT_*, 0 otherwise
 * @buckets: cuckoo buckets, d-left buckets per subtable, Count-Min
 *     columns, partitioned and age-partitioned slice bits, stable
 *     decrements P, 0 otherwise
 *
 * Stable (kbloom_var_stable.h): @k probes, @m cells of @counter_bits =
 * 1, 2, 4 or 8 bits (Max = 2^bits - 1), @buckets = P.
 *
 * IBLT (kbloom_var_iblt.h): @k partitions, @slots key words per cell,
 * @tables tables (strata; 1 for a plain table), @buckets cells per table.
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
	case KBLOOM_TYPE_AGE_PARTITIONED:
	case KBLOOM_TYPE_ONE_HASHING:
	case KBLOOM_TYPE_ULTRA_FAST:
	case KBLOOM_TYPE_SPLIT_BLOCK:
	case KBLOOM_TYPE_SHIFTING:
	case KBLOOM_TYPE_DISTANCE_SENSITIVE:
		return 1;
	case KBLOOM_TYPE_SCALABLE:
	case KBLOOM_TYPE_DYNAMIC:
		return 0;	/* containers: their generations hold the arrays */
	case KBLOOM_TYPE_ACCURATE_COUNTING:
	case KBLOOM_TYPE_RETOUCHED:
	case KBLOOM_TYPE_GENERALIZED:
		return 1;
	case KBLOOM_TYPE_FP_COUNTING:
		return s->counter_bits + s->fp_bits;
	case KBLOOM_TYPE_IBLT:
		return 64 * (3 + s->slots);	/* count, check, value, key */
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

	if (s->vi_l || s->update > KB_DLEFT_LAYOUT_LINES)
		return 0;
	if (cb != 2 && cb != 4 && cb != 8)
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
 * Stable (kbloom_var_stable.h): m cells of d = 1, 2, 4 or 8 bits (m a
 * multiple of 64), P = @buckets decrements per insert, 1..min(m,
 * KB_STABLE_P_MAX).
 */
static inline int kb_stable_shape_ok(const struct kb_shape *s)
{
	__u32 d = s->counter_bits;

	if (s->fp_bits || s->slots || s->tables || s->vi_l || s->update)
		return 0;
	if (d != 1 && d != 2 && d != 4 && d != 8)
		return 0;
	if (s->k < KBLOOM_K_MIN || s->k > KBLOOM_K_MAX)
		return 0;
	if (s->m < KBLOOM_M_MIN || s->m > KBLOOM_M_MAX || (s->m & 63))
		return 0;
	return s->buckets >= 1 && s->buckets <= KB_STABLE_P_MAX &&
	       s->buckets <= s->m;
}

/*
 * Age-partitioned (kbloom_var_window.h): k + l slices of s = @buckets
 * bits, s a multiple of 64, m = (k + l) s, @tables = l, @update the clock.
 */
static inline int kb_win_shape_ok(const struct kb_shape *s)
{
	__u32 k = s->k, l = s->tables;

	if (s->counter_bits || s->fp_bits || s->slots || s->vi_l)
		return 0;
	if (k < KBLOOM_K_MIN || k > KBLOOM_K_MAX)
		return 0;
	if (l < KB_WIN_L_MIN || l > KB_WIN_L_MAX)
		return 0;
	if (s->update != KB_WIN_CLOCK_KEYS && s->update != KB_WIN_CLOCK_NS)
		return 0;
	if (s->buckets < KBLOOM_M_MIN || (s->buckets & 63) ||
	    s->buckets > KBLOOM_M_MAX / (k + l))
		return 0;
	return s->m == s->buckets * (k + l);
}

/* Survey variants IV: the shape limits of accurate counting and FP-CBF */
#define KB_ACBF_LEVELS_MIN	2U
#define KB_ACBF_LEVELS_MAX	32U
#define KB_FPCBF_CTR_MIN	2U
#define KB_FPCBF_CTR_MAX	8U
#define KB_FPCBF_FP_MIN		1U
#define KB_FPCBF_FP_MAX		24U

/* A bit array of m bits, m a multiple of 64 in KBLOOM_M_MIN..KBLOOM_M_MAX */
static inline int kb_shape_bits_ok(__u64 m)
{
	return m >= KBLOOM_M_MIN && m <= KBLOOM_M_MAX && !(m & 63);
}

/*
 * Accurate counting (kbloom_var_acbf.h): @m bits in all, the first
 * @buckets of them level 1 (a multiple of 64, below m), the rest the
 * upper levels; @tables levels at most (the largest count).
 */
static inline int kb_acbf_shape_ok(const struct kb_shape *s)
{
	if (s->counter_bits || s->fp_bits || s->slots || s->vi_l || s->update)
		return 0;
	if (s->k < KBLOOM_K_MIN || s->k > KBLOOM_K_MAX)
		return 0;
	if (s->tables < KB_ACBF_LEVELS_MIN || s->tables > KB_ACBF_LEVELS_MAX)
		return 0;
	if (!kb_shape_bits_ok(s->m) || s->buckets < KBLOOM_M_MIN ||
	    (s->buckets & 63))
		return 0;
	return s->buckets < s->m;
}

/*
 * FP-CBF (kbloom_var_fpcbf.h): @m cells (a multiple of 64) of a
 * @counter_bits counter and an @fp_bits fingerprint field.
 */
static inline int kb_fpcbf_shape_ok(const struct kb_shape *s)
{
	if (s->slots || s->tables || s->vi_l || s->update || s->buckets)
		return 0;
	if (s->k < KBLOOM_K_MIN || s->k > KBLOOM_K_MAX)
		return 0;
	if (s->counter_bits < KB_FPCBF_CTR_MIN ||
	    s->counter_bits > KB_FPCBF_CTR_MAX ||
	    s->fp_bits < KB_FPCBF_FP_MIN || s->fp_bits > KB_FPCBF_FP_MAX)
		return 0;
	return kb_shape_bits_ok(s->m);
}

/*
 * Retouched (kbloom_var_rbf.h): @m bits, @k probes.  Generalized
 * (kbloom_var_gbf.h): @m bits, @k set probes and @tables reset probes,
 * k + tables <= KBLOOM_K_MAX.
 */
static inline int kb_rbf_gbf_shape_ok(const struct kb_shape *s)
{
	__u32 k0 = s->type == KBLOOM_TYPE_GENERALIZED ? s->tables : 0;

	if (s->counter_bits || s->fp_bits || s->slots || s->vi_l ||
	    s->update || s->buckets || (s->tables && !k0))
		return 0;
	if (s->type == KBLOOM_TYPE_GENERALIZED && !k0)
		return 0;
	if (s->k < KBLOOM_K_MIN || s->k > KBLOOM_K_MAX || k0 > KBLOOM_K_MAX ||
	    s->k + k0 > KBLOOM_K_MAX)
		return 0;
	return kb_shape_bits_ok(s->m);
}

/*
 * One-hashing (kbloom_var_onehash.h): k partitions in slices of s =
 * @buckets bits, s a multiple of 64 and at least KB_OH_SLICE_MIN (so k
 * distinct primes fit below it), m = k s.
 */
static inline int kb_oh_shape_ok(const struct kb_shape *s)
{
	if (s->counter_bits || s->fp_bits || s->slots || s->tables ||
	    s->vi_l || s->update)
		return 0;
	if (s->k < KBLOOM_K_MIN || s->k > KBLOOM_K_MAX)
		return 0;
	if (s->buckets < KB_OH_SLICE_MIN || (s->buckets & 63) ||
	    s->buckets > KBLOOM_M_MAX / s->k)
		return 0;
	return s->m == s->buckets * s->k;
}

/*
 * Split-block, ultra-fast and Parquet (kbloom_var_splitblock.h): k = 8,
 * z = @buckets blocks of B bits (512 or 256), m = z B.
 */
static inline int kb_sb_shape_ok(const struct kb_shape *s)
{
	__u64 b = s->type == KBLOOM_TYPE_ULTRA_FAST ? KB_UF_BLOCK_BITS :
						      KB_SBBF_BLOCK_BITS;

	if (s->counter_bits || s->fp_bits || s->slots || s->tables ||
	    s->vi_l || s->update)
		return 0;
	if (s->k != KB_SB_K || !s->buckets || s->buckets > KBLOOM_M_MAX / b)
		return 0;
	return s->m == s->buckets * b;
}

/*
 * Deletable (kbloom_var_deletable.h): @k probes over a body of @m bits in
 * regions of s = @buckets bits, s a power of two up to 65536 and <= m.
 */
static inline int kb_del_shape_ok(const struct kb_shape *s)
{
	if (s->counter_bits || s->fp_bits || s->slots || s->tables ||
	    s->vi_l || s->update)
		return 0;
	if (s->k < KBLOOM_K_MIN || s->k > KBLOOM_K_MAX)
		return 0;
	if (s->m < KBLOOM_M_MIN || s->m > KBLOOM_M_MAX || (s->m & 63))
		return 0;
	if (!kb_pow2(s->buckets) || s->buckets > 65536 || s->buckets > s->m)
		return 0;
	return !(s->m & (s->buckets - 1));
}

/*
 * IBLT (kbloom_var_iblt.h): @tables tables (strata) of @buckets cells, k
 * partitions of @buckets / k cells each, @slots key words per cell,
 * m = tables buckets cells.
 */
static inline int kb_iblt_shape_ok(const struct kb_shape *s)
{
	if (s->counter_bits || s->fp_bits || s->vi_l || s->update)
		return 0;
	if (s->k < KB_IBLT_K_MIN || s->k > KB_IBLT_K_MAX)
		return 0;
	if (!s->slots || s->slots > KB_IBLT_KEY_WORDS_MAX)
		return 0;
	if (!s->tables || s->tables > KB_IBLT_STRATA_MAX)
		return 0;
	if (s->buckets < s->k || s->buckets % s->k ||
	    s->buckets > KB_IBLT_CELLS_MAX)
		return 0;
	return s->m == s->buckets * s->tables && s->m <= KB_IBLT_CELLS_MAX;
}

/* Shifting (kbloom_var_shifting.h): @update the mode, @tables cmax. */
static inline int kb_shbf_shape_ok(const struct kb_shape *s)
{
	if (s->counter_bits || s->fp_bits || s->slots || s->vi_l ||
	    s->buckets)
		return 0;
	return kb_shbf_geom_ok(s->k, s->m, s->update, s->tables);
}

/* Distance-sensitive (kbloom_var_distance_sensitive.h). */
static inline int kb_dsbf_shape_ok(const struct kb_shape *s)
{
	if (s->counter_bits || s->fp_bits || s->vi_l)
		return 0;
	return kb_dsbf_geom_ok(s->k, s->buckets, s->m, s->tables, s->slots,
			       s->update);
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
	case KBLOOM_TYPE_STABLE:
		ok = kb_stable_shape_ok(s);
		break;
	case KBLOOM_TYPE_AGE_PARTITIONED:
		ok = kb_win_shape_ok(s);
		break;
	case KBLOOM_TYPE_ONE_HASHING:
		ok = kb_oh_shape_ok(s);
		break;
	case KBLOOM_TYPE_ULTRA_FAST:
	case KBLOOM_TYPE_SPLIT_BLOCK:
		ok = kb_sb_shape_ok(s);
		break;
	case KBLOOM_TYPE_DELETABLE:
		ok = kb_del_shape_ok(s);
		break;
	case KBLOOM_TYPE_ACCURATE_COUNTING:
		ok = kb_acbf_shape_ok(s);
		break;
	case KBLOOM_TYPE_FP_COUNTING:
		ok = kb_fpcbf_shape_ok(s);
		break;
	case KBLOOM_TYPE_RETOUCHED:
	case KBLOOM_TYPE_GENERALIZED:
		ok = kb_rbf_gbf_shape_ok(s);
		break;
	case KBLOOM_TYPE_IBLT:
		ok = kb_iblt_shape_ok(s);
		break;
	case KBLOOM_TYPE_SHIFTING:
		ok = kb_shbf_shape_ok(s);
		break;
	case KBLOOM_TYPE_DISTANCE_SENSITIVE:
		ok = kb_dsbf_shape_ok(s);
		break;
	default:
		return -EOPNOTSUPP;
	}
	return ok ? 0 : -EINVAL;
}

/*
 * Fill in @k and @m of the cuckoo, d-left and Count-Min types from their
 * geometry, and @m of the partitioned type (k slices of @buckets bits)
 * and of the age-partitioned type (k + l slices);
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
	case KBLOOM_TYPE_AGE_PARTITIONED:
		s->m = s->k <= KBLOOM_K_MAX && s->tables <= KB_WIN_L_MAX ?
		       s->buckets * (s->k + s->tables) : 0;
		break;
	case KBLOOM_TYPE_ONE_HASHING:
		s->m = s->buckets * (s->k <= KBLOOM_K_MAX ? s->k : 0);
		break;
	case KBLOOM_TYPE_ULTRA_FAST:
	case KBLOOM_TYPE_SPLIT_BLOCK:
		s->k = KB_SB_K;
		s->m = s->buckets * (s->type == KBLOOM_TYPE_ULTRA_FAST ?
				     KB_UF_BLOCK_BITS : KB_SBBF_BLOCK_BITS);
		break;
	case KBLOOM_TYPE_IBLT:
		s->m = s->tables <= KB_IBLT_STRATA_MAX ?
		       s->buckets * s->tables : 0;
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
	if (s->type == KBLOOM_TYPE_DELETABLE)	/* body, collision bitmap */
		return s->m / 64 + (s->m / s->buckets + 63) / 64;
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

#endif /* _UAPI_KBLOOM_SHAPE_H */
