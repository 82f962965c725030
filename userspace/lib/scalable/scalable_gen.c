// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom scalable and dynamic filters: one generation's array.  A
 * scalable generation is a partitioned bit array, a dynamic one a counting
 * array (uapi/kbloom_var_scalable.h: kb_sbf_pos()); @ones follows every
 * bit or counter that leaves or returns to 0, the fill the full rule reads.
 */
#include "scalable_int.h"

static bool ksbf_is_counting(const struct ksbf_gen *gen)
{
	return gen->g.type == KBLOOM_TYPE_COUNTING;
}

/* Bit or counter @pos non-zero. */
static bool ksbf_cell_set(const struct ksbf_gen *gen, __u64 pos)
{
	__u32 cb = gen->g.counter_bits;

	if (!ksbf_is_counting(gen))
		return gen->words[pos >> 6] & (1ULL << (pos & 63));
	return kb_ctr_get(gen->words[kb_ctr_word(pos, cb)],
			  kb_ctr_shift(pos, cb), cb);
}

bool ksbf_gen_test(const struct ksbf_gen *gen, __u64 h)
{
	struct kb_probe it;
	__u32 i;

	kb_probe_init(&it, h);
	for (i = 0; i < gen->g.k; i++)
		if (!ksbf_cell_set(gen, kb_sbf_pos(&gen->g, &it, i)))
			return false;
	return true;
}

/* One counter up (saturating); a counter that leaves 0 is a new one. */
static void ksbf_ctr_inc(struct ksbf_gen *gen, __u64 pos)
{
	__u32 cb = gen->g.counter_bits, sh = kb_ctr_shift(pos, cb);
	__u64 *w = &gen->words[kb_ctr_word(pos, cb)];
	__u64 c = kb_ctr_get(*w, sh, cb);

	if (c == kb_ctr_max(cb)) {
		gen->saturations++;
		return;
	}
	gen->ones += !c;
	*w = kb_ctr_inc(*w, sh, cb);
}

void ksbf_gen_add(struct ksbf_gen *gen, __u64 h)
{
	struct kb_probe it;
	__u64 pos, mask;
	__u32 i;

	kb_probe_init(&it, h);
	for (i = 0; i < gen->g.k; i++) {
		pos = kb_sbf_pos(&gen->g, &it, i);
		if (ksbf_is_counting(gen)) {
			ksbf_ctr_inc(gen, pos);
			continue;
		}
		mask = 1ULL << (pos & 63);
		gen->ones += !(gen->words[pos >> 6] & mask);
		gen->words[pos >> 6] |= mask;
	}
	gen->inserted++;
}

/* Counting only, a key every counter of which is non-zero. */
void ksbf_gen_del(struct ksbf_gen *gen, __u64 h)
{
	__u32 cb = gen->g.counter_bits, i, sh;
	struct kb_probe it;
	__u64 pos, *w, was;

	kb_probe_init(&it, h);
	for (i = 0; i < gen->g.k; i++) {
		pos = kb_sbf_pos(&gen->g, &it, i);
		w = &gen->words[kb_ctr_word(pos, cb)];
		sh = kb_ctr_shift(pos, cb);
		was = kb_ctr_get(*w, sh, cb);
		*w = kb_ctr_dec(*w, sh, cb);
		gen->ones -= was && !kb_ctr_get(*w, sh, cb);
	}
	gen->inserted -= !!gen->inserted;
}

__u64 ksbf_gen_count_ones(const struct ksbf_gen *gen)
{
	__u64 i, ones = 0;

	for (i = 0; i < gen->nwords; i++)
		ones += ksbf_is_counting(gen) ?
			kb_ctr_nonzero(gen->words[i], gen->g.counter_bits) :
			kb_popcount64(gen->words[i]);
	return ones;
}

/* @dst += @src counter by counter (same geometry, counting). */
void ksbf_gen_merge(struct ksbf_gen *dst, const struct ksbf_gen *src)
{
	__u64 i;

	for (i = 0; i < dst->nwords; i++)
		dst->words[i] = kb_sbf_ctr_merge(dst->words[i], src->words[i],
						 dst->g.counter_bits);
	dst->ones = ksbf_gen_count_ones(dst);
	dst->inserted += src->inserted;
	dst->saturations += src->saturations;
}
