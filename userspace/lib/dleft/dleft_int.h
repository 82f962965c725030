/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_dleft internals: the filter object and its cell access, shared
 * by dleft.c (keys), dleft_image.c (images) and dleft_xdp.c (the BPF map).
 * The concurrency rules are those of libkbloom_dleft.h.
 */
#ifndef _DLEFT_INT_H
#define _DLEFT_INT_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "libkbloom_dleft.h"
#include "uapi/kbloom_hash.h"

struct kbloom_dleft {
	__u64 *words;
	struct kb_shape s;
	__u32 q;		/* print bits: log2(buckets) + fp_bits */
	__u32 cell_bits;	/* fp_bits + counter_bits */
	__u32 hash_id;
	__u64 seed;
	__u64 nwords;
	__u64 capacity;
	__u64 fpr_pico;
	char name[KBLOOM_NAME_LEN];

	pthread_mutex_t lock;	/* serialises the writers */
	__u64 seq;		/* odd while a two-word count changes */
	__u64 inserted;		/* written under lock, read relaxed */
	__u64 overflows;
	__u64 saturations;
};

/* dleft.c */
int dl_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	   struct kbloom_dleft **fp);
int dl_opts(const struct kbloom_dleft_opts *o, __u32 *hash_id, __u64 *seed,
	    char name[KBLOOM_NAME_LEN]);

/* dleft_cell.c */
__u64 dl_cell_get(const struct kbloom_dleft *f, __u64 n);
void dl_cell_put(struct kbloom_dleft *f, __u64 n, __u64 v);
__u64 dl_cells_used(const struct kbloom_dleft *f);

static inline __u64 dl_load(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void dl_store(__u64 *p, __u64 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* The count bits of a cell at @shift cross the word boundary. */
static inline bool dl_count_spans(const struct kbloom_dleft *f, __u32 shift)
{
	return kb_field_spills(shift, f->s.counter_bits);
}

/* A straddling cell whose count does not straddle (dleft_cell.c). */
static inline __u64 dl_read_two(const __u64 *w, __u32 shift, __u32 bits)
{
	__u64 lo = __atomic_load_n(w, __ATOMIC_ACQUIRE);

	return kb_field_get(lo, dl_load(w + 1), shift, bits);
}

/*
 * dl_cell_get() for the readers' loops, inline but for a straddling
 * count (its sequence check stays in dl_cell_get()).
 */
static inline __u64 dl_cell_read(const struct kbloom_dleft *f, __u64 n)
{
	__u32 bits = f->cell_bits, shift = kb_field_shift(n, bits);
	const __u64 *w = f->words + kb_field_word(n, bits);

	if (!kb_field_spills(shift, bits))
		return kb_field_get(dl_load(w), 0, shift, bits);
	if (dl_count_spans(f, shift))
		return dl_cell_get(f, n);
	return dl_read_two(w, shift, bits);
}

#endif /* _DLEFT_INT_H */
