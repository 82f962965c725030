/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the cuckoo filter: its positions,
 * layout and planner, shared by every executor.  Its shape and the one
 * validation are kbloom_shape.h's.
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
 * Range reduction is kb_reduce32() (multiply-shift) everywhere.
 */
#ifndef _UAPI_KBLOOM_VAR_CUCKOO_H
#define _UAPI_KBLOOM_VAR_CUCKOO_H

#include "kbloom_shape.h"

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

#endif /* _UAPI_KBLOOM_VAR_CUCKOO_H */
