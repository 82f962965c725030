// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom ACBF: the bit array of the levels with a rank directory
 * (ones per 512-bit block, ones before each 64-block superblock), and
 * the one-bit shifts an update makes in the upper levels: a bit inserted
 * at a position moves every later used bit up by one, a bit removed moves
 * them down (the paper's "offset indexing": no slack between levels).
 */
#include <stdlib.h>

#include "acbf_int.h"

int kb_acbf_dir_alloc(struct kbloom_acbf *f)
{
	f->nblocks = (f->a.s.m + 511) >> KB_ACBF_BLOCK_SHIFT;
	f->nsup = (f->nblocks + 63) >> 6;
	f->cnt = calloc(f->nblocks, sizeof(*f->cnt));
	f->sup = calloc(f->nsup, sizeof(*f->sup));
	if (f->cnt && f->sup)
		return 0;
	free(f->cnt);
	free(f->sup);
	return -ENOMEM;
}

static __u16 kb_acbf_block_ones(const struct kbloom_acbf *f, __u64 b)
{
	__u64 w = b << 3, end = w + 8, n = 0;

	if (end > f->a.nwords)
		end = f->a.nwords;
	for (; w < end; w++)
		n += __builtin_popcountll(f->a.words[w]);
	return (__u16)n;
}

/*
 * Recount the blocks of bits [@from, @to] and the superblocks after the
 * first: insertions and removals move 0 bits only, so the ones before a
 * superblock past @to stay what they were.
 */
void kb_acbf_dir_build(struct kbloom_acbf *f, __u64 from, __u64 to)
{
	__u64 b, s, sum, last = to >> KB_ACBF_SUPER_SHIFT;

	for (b = from >> KB_ACBF_BLOCK_SHIFT;
	     b <= to >> KB_ACBF_BLOCK_SHIFT && b < f->nblocks; b++)
		f->cnt[b] = kb_acbf_block_ones(f, b);
	s = (from >> KB_ACBF_SUPER_SHIFT) + 1;
	for (; s <= last + 1 && s < f->nsup; s++) {
		sum = 0;
		for (b = (s - 1) << 6; b < s << 6; b++)
			sum += f->cnt[b];
		f->sup[s] = f->sup[s - 1] + sum;
	}
}

/* Ones among bits [0, @pos). */
__u64 kb_acbf_rank(const struct kbloom_acbf *f, __u64 pos)
{
	__u64 b = pos >> KB_ACBF_BLOCK_SHIFT, i, n;
	const __u64 *w = f->a.words;

	if (pos >= f->a.s.m)	/* the end: its superblock may not exist */
		return pos ? kb_acbf_rank(f, pos - 1) +
			     kb_sarr_bit(&f->a, pos - 1) : 0;
	n = f->sup[pos >> KB_ACBF_SUPER_SHIFT];
	for (i = (pos >> KB_ACBF_SUPER_SHIFT) << 6; i < b; i++)
		n += f->cnt[i];
	for (i = b << 3; i < pos >> 6; i++)
		n += __builtin_popcountll(w[i]);
	if (pos & 63)
		n += __builtin_popcountll(w[pos >> 6] &
					  ((1ULL << (pos & 63)) - 1));
	return n;
}

/* Bit @pos to @v, directory included. */
void kb_acbf_set(struct kbloom_acbf *f, __u64 pos, bool v)
{
	__u64 s;

	if (kb_sarr_bit(&f->a, pos) == v)
		return;
	kb_sarr_bit_put(&f->a, pos, v);
	f->cnt[pos >> KB_ACBF_BLOCK_SHIFT] += v ? 1 : -1;
	for (s = (pos >> KB_ACBF_SUPER_SHIFT) + 1; s < f->nsup; s++)
		f->sup[s] += v ? 1 : -1;
}

/* The used bits' end: level 1 and the upper levels. */
static __u64 kb_acbf_end(const struct kbloom_acbf *f)
{
	return f->m1 + f->used;
}

/* Bit @i of the array, 0 past its end. */
static __u32 kb_acbf_bit_or0(const struct kbloom_acbf *f, __u64 i)
{
	return i < f->a.s.m ? kb_sarr_bit(&f->a, i) : 0;
}

/* The ones before each superblock from the one of @from to that of @to. */
static void kb_acbf_sup_build(struct kbloom_acbf *f, __u64 from, __u64 to)
{
	__u64 b, s, sum, last = to >> KB_ACBF_SUPER_SHIFT;

	for (s = (from >> KB_ACBF_SUPER_SHIFT) + 1;
	     s <= last + 1 && s < f->nsup; s++) {
		sum = 0;
		for (b = (s - 1) << 6; b < s << 6; b++)
			sum += f->cnt[b];
		f->sup[s] = f->sup[s - 1] + sum;
	}
}

/*
 * A 0 at @pos, the used bits [@pos, end) one up (end < m: the caller has
 * the room).  Bits at and above end are 0, so word end / 64 loses none.
 * Each block from @pos's on gives its top bit to the next one: after the
 * move that bit is the next block's first.
 */
void kb_acbf_insert0(struct kbloom_acbf *f, __u64 pos)
{
	__u64 *w = f->a.words, wp = pos >> 6, we = kb_acbf_end(f) >> 6, i, b;
	__u64 low = (1ULL << (pos & 63)) - 1, first = pos >> KB_ACBF_BLOCK_SHIFT;
	__u64 last = kb_acbf_end(f) >> KB_ACBF_BLOCK_SHIFT;

	for (i = we; i > wp; i--)
		w[i] = (w[i] << 1) | (w[i - 1] >> 63);
	w[wp] = (w[wp] & low) | ((w[wp] & ~low) << 1);
	for (b = first; b <= last && b < f->nblocks; b++) {
		if (b > first)
			f->cnt[b] += kb_acbf_bit_or0(f, b << KB_ACBF_BLOCK_SHIFT);
		f->cnt[b] -= kb_acbf_bit_or0(f, (b + 1) << KB_ACBF_BLOCK_SHIFT);
	}
	kb_acbf_sup_build(f, pos, kb_acbf_end(f));
	f->used++;
}

/*
 * The used 0 at @pos out, the used bits above it one down: each block
 * after @pos's gives its first bit to the one before (its top bit now).
 */
void kb_acbf_remove(struct kbloom_acbf *f, __u64 pos)
{
	__u64 *w = f->a.words, wp = pos >> 6, i, b;
	__u64 we = (kb_acbf_end(f) - 1) >> 6;
	__u64 low = (1ULL << (pos & 63)) - 1, first = pos >> KB_ACBF_BLOCK_SHIFT;
	__u64 last = (kb_acbf_end(f) - 1) >> KB_ACBF_BLOCK_SHIFT;

	w[wp] = (w[wp] & low) | ((w[wp] >> 1) & ~low);
	for (i = wp; i < we; i++) {
		w[i] |= w[i + 1] << 63;
		w[i + 1] >>= 1;
	}
	for (b = first; b <= last; b++) {
		f->cnt[b] += kb_acbf_bit_or0(f, (b << KB_ACBF_BLOCK_SHIFT) + 511);
		if (b > first)
			f->cnt[b] -= kb_acbf_bit_or0(f,
						     (b << KB_ACBF_BLOCK_SHIFT) - 1);
	}
	kb_acbf_sup_build(f, pos, kb_acbf_end(f) - 1);
	f->used--;
}
