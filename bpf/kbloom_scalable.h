/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom: the BPF-side lookup of a scalable or dynamic filter over its
 * generations, in the maps of uapi/kbloom_var_scalable.h (meta, gens,
 * words).  The positions are kb_sbf_pos()'s, the key hash kb_hash(): the
 * ones of kbloom.ko and libkbloom, so a key added by either is found here.
 *
 *	ret = kbloom_sbf_bpf_test(&meta, &gens, &words, key, len);
 *
 * Return: KBLOOM_ABSENT, KBLOOM_MAYBE (some generation holds every probe
 * of the key), or -ENOENT when the maps do not match their meta.  Newest
 * generation first: most keys are there.
 */
#ifndef _KBLOOM_BPF_SCALABLE_H
#define _KBLOOM_BPF_SCALABLE_H

#include "kbloom_bpf.h"
#include "uapi/kbloom_var_scalable.h"

/* Cell @pos of generation @r: set (1), clear (0), or -ENOENT. */
static __always_inline int kbloom_sbf_bpf_cell(void *words,
					       const struct kb_sbf_map_gen *r,
					       __u64 pos)
{
	__u32 cb = r->g.counter_bits, idx;
	__u64 *w;

	idx = (__u32)(r->word_off + (cb ? kb_ctr_word(pos, cb) : pos >> 6));
	w = bpf_map_lookup_elem(words, &idx);
	if (!w)
		return -ENOENT;
	if (!cb)
		return !!(*w & (1ULL << (pos & 63)));
	return !!kb_ctr_get(*w, kb_ctr_shift(pos, cb), cb);
}

/* Generation @g holds every probe of @h: 1, 0, or -ENOENT. */
static __always_inline int kbloom_sbf_bpf_gen(void *gens, void *words,
					      __u32 g, __u64 h)
{
	const struct kb_sbf_map_gen *r = bpf_map_lookup_elem(gens, &g);
	struct kb_probe it;
	__u32 i;
	int set;

	if (!r)
		return -ENOENT;
	kb_probe_init(&it, h);
	for (i = 0; i < KBLOOM_K_MAX && i < r->g.k; i++) {
		set = kbloom_sbf_bpf_cell(words, r, kb_sbf_pos(&r->g, &it, i));
		if (set <= 0)
			return set;
	}
	return 1;
}

/* The walk over the generations, one bpf_loop() step each. */
struct kbloom_sbf_walk {
	void *gens;
	void *words;
	__u64 h;
	__u32 n;
	int ret;
};

static long kbloom_sbf_bpf_step(__u32 g, void *ctx)
{
	struct kbloom_sbf_walk *w = ctx;

	w->ret = kbloom_sbf_bpf_gen(w->gens, w->words, w->n - 1 - g, w->h);
	return w->ret != 0;	/* 1 stops: found, or the maps are wrong */
}

/*
 * One bpf_loop() over the generations (bounded loops nested in loops are
 * too many paths for the verifier), the probes of each a bounded loop.
 */
static __always_inline int kbloom_sbf_bpf_test(void *meta_map, void *gens,
					       void *words, const void *key,
					       __u32 len)
{
	struct kbloom_sbf_walk w = { .gens = gens, .words = words };
	const struct kb_sbf_map_meta *m;
	__u32 zero = 0;

	m = bpf_map_lookup_elem(meta_map, &zero);
	if (!m)
		return -ENOENT;
	w.n = m->generations < KB_SBF_GENS_MAX ? m->generations :
						 KB_SBF_GENS_MAX;
	w.h = kb_hash(m->hash_id, m->seed, key, len);
	bpf_loop(w.n, kbloom_sbf_bpf_step, &w, 0);
	if (w.ret < 0)
		return w.ret;
	return w.ret ? KBLOOM_MAYBE : KBLOOM_ABSENT;
}

#endif /* _KBLOOM_BPF_SCALABLE_H */
