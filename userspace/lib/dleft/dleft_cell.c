// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_dleft: reading and writing one packed cell (uapi field n of
 * width r + w, possibly straddling two words).
 *
 * Writers hold f->lock.  A cell inside one word is one relaxed read of the
 * word and one release store.  A straddling cell is written high word
 * first, then the low word (which holds the count, or at least its low
 * bits) with release order; a reader loads the low word with acquire
 * order, then the high word, so a count it sees as non-zero comes with the
 * remainder written before it.  When the count itself straddles, an
 * increment or decrement changes both words and a reader could combine
 * an old half with a new one (and read 0 for a present key): writers
 * make f->seq odd around that update and readers of such a cell retry
 * until they read both words within one even value of f->seq.
 */
#include <sched.h>

#include "dleft_int.h"


/* A straddling count: both words within one even sequence value. */
static __u64 dl_read_seq(const struct kbloom_dleft *f, const __u64 *w,
			 __u32 shift)
{
	__u64 s, v;

	for (;;) {
		s = __atomic_load_n(&f->seq, __ATOMIC_ACQUIRE);
		if (s & 1) {
			sched_yield();
			continue;
		}
		v = dl_read_two(w, shift, f->cell_bits);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (dl_load(&f->seq) == s)
			return v;
	}
}

__u64 dl_cell_get(const struct kbloom_dleft *f, __u64 n)
{
	__u32 bits = f->cell_bits, shift = kb_field_shift(n, bits);
	const __u64 *w = f->words + kb_field_word(n, bits);

	if (!kb_field_spills(shift, bits))
		return kb_field_get(dl_load(w), 0, shift, bits);
	if (dl_count_spans(f, shift))
		return dl_read_seq(f, w, shift);
	return dl_read_two(w, shift, bits);
}

static void dl_write_two(__u64 *w, __u32 shift, __u32 bits, __u64 v)
{
	dl_store(w + 1, kb_field_put_hi(dl_load(w + 1), shift, bits, v));
	__atomic_store_n(w, kb_field_put_lo(dl_load(w), shift, bits, v),
			 __ATOMIC_RELEASE);
}

/* Set cell @n to @v; the caller holds f->lock. */
void dl_cell_put(struct kbloom_dleft *f, __u64 n, __u64 v)
{
	__u32 bits = f->cell_bits, shift = kb_field_shift(n, bits);
	__u64 *w = f->words + kb_field_word(n, bits), s;

	if (!kb_field_spills(shift, bits)) {
		__atomic_store_n(w, kb_field_put_lo(dl_load(w), shift, bits, v),
				 __ATOMIC_RELEASE);
		return;
	}
	if (!dl_count_spans(f, shift)) {
		dl_write_two(w, shift, bits, v);
		return;
	}
	s = dl_load(&f->seq);
	dl_store(&f->seq, s + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	dl_write_two(w, shift, bits, v);
	__atomic_store_n(&f->seq, s + 2, __ATOMIC_RELEASE);
}

__u64 dl_cells_used(const struct kbloom_dleft *f)
{
	__u64 n, used = 0;

	for (n = 0; n < f->s.m; n++)
		if (kb_dleft_cell_count(dl_cell_get(f, n), f->s.counter_bits))
			used++;
	return used;
}
