/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom: the stable Bloom filter's test-and-add in BPF, over the cells of
 * a map of 64-bit words (uapi/kbloom_dedupe_maps.h): Deng and Rafiei's
 * step with uapi/kbloom_var_stable.h's positions and window, the ones
 * kbloom.ko and libkbloom use.  The includer defines the map before it
 * includes this header and names it KB_STABLE_CELLS.
 *
 * Cells are read with plain 64-bit loads (atomic against the writers),
 * set to Max with an atomic OR, decremented by an atomic AND (1-bit
 * cells) or a compare-and-exchange per word (wider cells).
 */
#ifndef _KBLOOM_STABLE_BPF_H
#define _KBLOOM_STABLE_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "uapi/kbloom_var_stable.h"
#include "uapi/kbloom_dedupe_maps.h"

/* One test-and-add: the parameters, and the window's loop state. */
struct kb_st_op {
	const struct kbloom_dedupe_params *p;
	__u64 c;		/* the window's next cell */
	__u32 left;		/* its cells still to decrement */
	__u32 contended;
	int err;
};

static __always_inline __u64 *kb_st_word(__u64 word)
{
	__u32 i = (__u32)word;

	return bpf_map_lookup_elem(&KB_STABLE_CELLS, &i);
}

/*
 * Walk the key's k cells: a test (@set 0) stops at the first zero one, a
 * set raises each to Max (atomic OR, only when not at Max yet).
 * Return: 1 when every cell visited was non-zero (a test: present), 0 a
 * zero one, -1 no such word.
 */
static __always_inline int kb_st_walk(const struct kbloom_dedupe_params *p,
				      __u64 h, int set)
{
	__u32 d = p->cell_bits, i;
	__u64 c, mask, v, *w;
	struct kb_probe pr;

	kb_probe_init(&pr, h);
	for (i = 0; i < KBLOOM_K_MAX; i++) {
		if (i >= p->k)
			break;
		c = kb_probe_next(&pr, p->m);
		w = kb_st_word(kb_stable_word(c, d));
		if (!w)
			return -1;
		mask = kb_stable_mask(c, d);
		v = *w & mask;
		if (!set && !v)
			return 0;
		if (set && v != mask)
			__sync_fetch_and_or(w, mask);
	}
	return 1;
}

/* A word's cells among @lows decremented; 1 when given up. */
static __always_inline __u32 kb_st_dec_word(__u64 *w, __u64 lows, __u32 d)
{
	__u64 old;
	__u32 t;

	if (d == 1) {
		__sync_fetch_and_and(w, ~lows);
		return 0;
	}
	for (t = 0; t < KBLOOM_DEDUPE_CAS_TRIES; t++) {
		old = *w;
		if (__sync_val_compare_and_swap(w, old,
						kb_stable_dec(old, lows, d)) ==
		    old)
			return 0;
	}
	return 1;
}

static long kb_st_dec_run(__u32 i, void *ctx)
{
	struct kb_st_op *op = ctx;
	__u32 d = op->p->cell_bits, n;
	__u64 lows, *w;

	if (!op->left)
		return 1;
	n = kb_stable_run(op->c, op->left, d, &lows);
	w = kb_st_word(kb_stable_word(op->c, d));
	if (!w) {
		op->err = 1;
		return 1;
	}
	op->contended += kb_st_dec_word(w, lows, d);
	op->c = kb_stable_next(op->c, n, op->p->m);
	op->left -= n;
	return 0;
}

/*
 * kb_st_test_add() - test the key of hash @h, then add it
 *
 * Return: 1 a repeat (every cell was non-zero), 0 a first copy, -1 for
 * parameters that do not match the cells map (nothing changed then,
 * unless the window ran off the map half-way).
 */
static __always_inline int kb_st_test_add(struct kb_st_op *op, __u64 h)
{
	const struct kbloom_dedupe_params *p = op->p;
	int seen = kb_st_walk(p, h, 0);

	if (seen < 0)
		return -1;
	op->c = kb_stable_start(bpf_get_prandom_u32(), p->m);
	op->left = p->p;
	bpf_loop(KB_STABLE_P_MAX + 1, kb_st_dec_run, op, 0);
	if (op->err || kb_st_walk(p, h, 1) < 0)
		return -1;
	return seen;
}

/* Parameters the program can run on: 0, or -1. */
static __always_inline int kb_st_params_ok(const struct kbloom_dedupe_params *p)
{
	struct kb_shape s;

	return kb_stable_shape_init(&s, p->m, p->k, p->cell_bits, p->p) ||
	       p->nwords != kb_shape_words(&s) ? -1 : 0;
}

#endif /* _KBLOOM_STABLE_BPF_H */
