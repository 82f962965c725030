/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom age-partitioned window internals: the filter object.
 *
 *   window.c        create, destroy, clear, clock, name, statistics
 *   window_keys.c   add, test, rotate, tick (uapi's kb_win_* positions
 *                   and rotation rule)
 *   window_image.c  version-3 images
 *
 * Words are read with relaxed atomic loads and bits set with relaxed
 * atomic OR.  The writer publishes a rotation by storing gen_start, then
 * head with release order; a test loads head with acquire order, then
 * gen_start, so it never pairs a new head with an old start.
 */
#ifndef _KBLOOM_WINDOW_INT_H
#define _KBLOOM_WINDOW_INT_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "libkbloom_window.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_var_window.h"

#define KBW_CACHELINE	64

struct kbloom_win {
	/* read by every operation */
	__u64 *words;
	__u64 nwords;
	struct kb_shape s;
	__u32 slices;
	__u32 hash_id;
	__u64 seed;
	__u64 gen_len;
	__u64 capacity;
	__u64 fpr_pico;
	kbloom_win_clock_fn now;
	void *ctx;
	char name[KBLOOM_NAME_LEN];
	/* written by the writer: off the read-mostly line */
	__u32 head __attribute__((aligned(KBW_CACHELINE)));
	__u64 gen_start;	/* time clock: ns at the current generation */
	__u64 gen_keys;		/* count clock: keys in it */
	__u64 rotations;
	__u64 inserted;
};

static inline __u64 kbw_load(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void kbw_store(__u64 *p, __u64 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline bool kbw_timed(const struct kbloom_win *f)
{
	return f->s.update == KB_WIN_CLOCK_NS;
}

static inline __u64 kbw_now(const struct kbloom_win *f)
{
	return f->now(f->ctx);
}

/* Time clock: ns since the current generation started (0 before it). */
static inline __u64 kbw_age(const struct kbloom_win *f)
{
	__u64 now = kbw_now(f), start = kbw_load(&f->gen_start);

	return now > start ? now - start : 0;
}

/* window.c */
int kbw_new(const struct kb_shape *s, __u64 gen_len, __u32 hash_id,
	    __u64 seed, struct kbloom_win **fp);
__u64 kbw_monotonic(void *ctx);
/* window_keys.c */
void kbw_clear_slice(struct kbloom_win *f, __u32 phys);

#endif /* _KBLOOM_WINDOW_INT_H */
