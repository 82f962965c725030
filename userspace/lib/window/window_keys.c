// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom age-partitioned window: add, test and the rotations.  A key's
 * bit in physical slice j is kb_win_walk_next()'s (uapi/kbloom_var_window.h),
 * the position kbloom.ko uses; a rotation clears the oldest slice and
 * makes it the head.
 */
#include "window_int.h"

void kbw_clear_slice(struct kbloom_win *f, __u32 phys)
{
	__u64 per = f->s.buckets / 64, i;

	for (i = 0; i < per; i++)
		kbw_store(&f->words[(__u64)phys * per + i], 0);
}

/* One rotation: clear the oldest slice, then publish it as the head. */
static void kbw_rotate_one(struct kbloom_win *f)
{
	__u32 head = kb_win_next_head(f->head, f->slices);

	kbw_clear_slice(f, head);
	__atomic_store_n(&f->head, head, __ATOMIC_RELEASE);
	f->rotations++;
}

/* Time clock: the rotations due at @now (at most every slice cleared). */
static __u64 kbw_catch_up(struct kbloom_win *f, __u64 now)
{
	__u64 due = kb_win_due(now, f->gen_start, f->gen_len), i;

	if (!due)
		return 0;
	kbw_store(&f->gen_start, f->gen_start + due * f->gen_len);
	f->gen_keys = 0;
	for (i = 0; i < due && i < f->slices; i++)
		kbw_rotate_one(f);
	f->rotations += due - i;
	return due;
}

int kbloom_win_rotate(struct kbloom_win *f)
{
	if (!f)
		return -EINVAL;
	if (kbw_timed(f))
		kbw_store(&f->gen_start, kbw_now(f));
	kbw_rotate_one(f);
	f->gen_keys = 0;
	return 0;
}

int kbloom_win_tick(struct kbloom_win *f)
{
	__u64 due;

	if (!f || !kbw_timed(f))
		return -EINVAL;
	due = kbw_catch_up(f, kbw_now(f));
	return due > 0x7fffffff ? 0x7fffffff : (int)due;
}

static bool kbw_key_ok(const struct kbloom_win *f, const void *key,
		       __u32 len)
{
	return f && key && len >= 1 && len <= KBLOOM_KEY_MAX;
}

int kbloom_win_add(struct kbloom_win *f, const void *key, __u32 len)
{
	struct kb_win_walk w;
	__u64 bit;
	__u32 i;

	if (!kbw_key_ok(f, key, len))
		return -EINVAL;
	if (kbw_timed(f)) {
		kbw_catch_up(f, kbw_now(f));
	} else if (f->gen_keys >= f->gen_len) {
		kbw_rotate_one(f);
		f->gen_keys = 0;
	}
	kb_win_walk_init(&w, kb_hash(f->hash_id, f->seed, key, len), f->head,
			 f->slices);
	for (i = 0; i < f->s.k; i++) {
		bit = kb_win_walk_next(&w, f->s.buckets);
		__atomic_fetch_or(&f->words[bit >> 6], 1ULL << (bit & 63),
				  __ATOMIC_RELAXED);
	}
	f->gen_keys++;
	__atomic_fetch_add(&f->inserted, 1, __ATOMIC_RELAXED);
	return 0;
}

/*
 * Slices a test may look at: all of them, less (time clock) those the
 * rotations due now would clear.
 */
static __u32 kbw_live(const struct kbloom_win *f)
{
	__u64 due;

	if (!kbw_timed(f))
		return f->slices;
	due = kb_win_due(kbw_now(f), kbw_load(&f->gen_start), f->gen_len);
	return due >= f->slices ? 0 : f->slices - (__u32)due;
}

int kbloom_win_test(const struct kbloom_win *f, const void *key, __u32 len)
{
	__u32 head, live, i, run = 0;
	struct kb_win_walk w;
	__u64 bit, word;
	int r;

	if (!kbw_key_ok(f, key, len))
		return -EINVAL;
	head = __atomic_load_n(&f->head, __ATOMIC_ACQUIRE);
	live = kbw_live(f);
	kb_win_walk_init(&w, kb_hash(f->hash_id, f->seed, key, len), head,
			 f->slices);
	for (i = 0; i < live; i++) {
		bit = kb_win_walk_next(&w, f->s.buckets);
		word = kbw_load(&f->words[bit >> 6]);
		r = kb_win_run_step(&run, !!(word & (1ULL << (bit & 63))),
				    f->s.k, live - i - 1);
		if (r)
			return r > 0;
	}
	return 0;
}
