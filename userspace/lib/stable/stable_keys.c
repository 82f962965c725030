// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom stable filters: add, test and test_add.  Membership cells are
 * the standard probe positions; the decrement window is P consecutive
 * cells from a random start (uapi/kbloom_var_stable.h), the positions
 * and the window kbloom.ko and the XDP program use.
 */
#include "stable_int.h"

#define KBST_GOLDEN	0x9E3779B97F4A7C15ULL

/* The next 32-bit draw of the filter's decrement stream. */
static __u32 kbst_random(struct kbloom_stable *f)
{
	__u64 x = __atomic_fetch_add(&f->rng, KBST_GOLDEN, __ATOMIC_RELAXED);

	return (__u32)(kb_fmix64(x) >> 32);
}

/* One word of the window: its non-zero cells among @lows minus one. */
static void kbst_dec_word(__u64 *w, __u64 lows, __u32 d)
{
	__u64 old = kbst_load(w);

	while (!__atomic_compare_exchange_n(w, &old,
					    kb_stable_dec(old, lows, d), true,
					    __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

/* Decrement the P cells of a window at a random start. */
static void kbst_decrement(struct kbloom_stable *f)
{
	__u32 d = f->s.counter_bits, left = (__u32)f->s.buckets, n;
	__u64 c = kb_stable_start(kbst_random(f), f->s.m), lows;

	while (left) {
		n = kb_stable_run(c, left, d, &lows);
		kbst_dec_word(&f->words[kb_stable_word(c, d)], lows, d);
		c = kb_stable_next(c, n, f->s.m);
		left -= n;
	}
}

/*
 * Walk the key's k cells: a test stops at the first zero one, a set
 * raises each to Max (atomic OR, only when not at Max yet).  Return: 1
 * when every cell visited was non-zero, 0 otherwise.
 */
static int kbst_walk(const struct kbloom_stable *f, __u64 h, bool set)
{
	__u32 d = f->s.counter_bits, i;
	__u64 c, mask, v, *w;
	struct kb_probe p;

	kb_probe_init(&p, h);
	for (i = 0; i < f->s.k; i++) {
		c = kb_probe_next(&p, f->s.m);
		w = &f->words[kb_stable_word(c, d)];
		mask = kb_stable_mask(c, d);
		v = kbst_load(w) & mask;
		if (!set && !v)
			return 0;
		if (set && v != mask)
			__atomic_fetch_or(w, mask, __ATOMIC_RELAXED);
	}
	return 1;
}

static bool kbst_key_ok(const struct kbloom_stable *f, const void *key,
		       __u32 len)
{
	return f && key && len >= 1 && len <= KBLOOM_KEY_MAX;
}

static __u64 kbst_hash(const struct kbloom_stable *f, const void *key,
		      __u32 len)
{
	return kb_hash(f->hash_id, f->seed, key, len);
}

int kbloom_stable_test(const struct kbloom_stable *f, const void *key,
		       __u32 len)
{
	if (!kbst_key_ok(f, key, len))
		return -EINVAL;
	return kbst_walk(f, kbst_hash(f, key, len), false);
}

int kbloom_stable_test_add(struct kbloom_stable *f, const void *key,
			   __u32 len)
{
	__u64 h;
	int dup;

	if (!kbst_key_ok(f, key, len))
		return -EINVAL;
	h = kbst_hash(f, key, len);
	dup = kbst_walk(f, h, false);
	kbst_decrement(f);
	kbst_walk(f, h, true);
	__atomic_fetch_add(&f->inserted, 1, __ATOMIC_RELAXED);
	return dup;
}

int kbloom_stable_add(struct kbloom_stable *f, const void *key, __u32 len)
{
	int ret = kbloom_stable_test_add(f, key, len);

	return ret < 0 ? ret : 0;
}
