/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom cuckoo internals: the filter object and its slot accessors.
 *
 *   cuckoo.c       create, destroy, clear, statistics
 *   cuckoo_keys.c  test, count, add, del (reader retry, writer window;
 *                  the kick path search is uapi's kb_cuckoo_search())
 *   cuckoo_image.c version-3 images
 *
 * Slots are packed f-bit fields of the word array (kb_cuckoo_slot(),
 * kb_field_*()); words are read and written with relaxed atomics, the
 * sequence counter orders them (a seqlock: the writer stores seq + 1,
 * a release fence, the slots, then seq + 2 with release; the reader loads
 * seq with acquire, the slots, an acquire fence, then seq again).
 *
 * The words and the counter are the filter's own, or the caller's
 * (kbloom_cuckoo_create_in(): an mmapped BPF map and its counter, read by
 * XDP programs with the same protocol).
 */
#ifndef _KBLOOM_CUCKOO_INT_H
#define _KBLOOM_CUCKOO_INT_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "libkbloom_cuckoo.h"
#include "uapi/kbloom_hash.h"

#define KCF_CACHELINE	64

struct kbloom_cuckoo {
	/* read by every operation */
	__u64 *words;
	__u32 *seq;		/* &seq_own, or the caller's counter */
	bool own_words;		/* allocated here, freed by destroy */
	__u64 nwords;
	struct kb_shape s;
	__u32 hash_id;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	char name[KBLOOM_NAME_LEN];

	/* odd while a writer changes slots; off the read-mostly line */
	__u32 seq_own __attribute__((aligned(KCF_CACHELINE)));

	/* writers only, under @lock (statistics read with atomics) */
	pthread_mutex_t lock __attribute__((aligned(KCF_CACHELINE)));
	__u64 inserted;
	__u64 deleted;
	__u64 kicks;
	__u64 overflows;
	__u64 longest_path;
	struct kb_cuckoo_node path[KB_CUCKOO_SEARCH_NODES];
};

static inline __u64 kcf_load(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void kcf_store(__u64 *p, __u64 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline __u32 kcf_slot_get(const struct kbloom_cuckoo *c, __u32 b,
				 __u32 s)
{
	__u32 f = c->s.fp_bits;
	__u64 n = kb_cuckoo_slot(b, s, c->s.slots), w = kb_field_word(n, f);
	__u32 sh = kb_field_shift(n, f);
	__u64 hi = kb_field_spills(sh, f) ? kcf_load(&c->words[w + 1]) : 0;

	return (__u32)kb_field_get(kcf_load(&c->words[w]), hi, sh, f);
}

/* A writer's store: one word, or two for a slot that spills. */
static inline void kcf_slot_put(struct kbloom_cuckoo *c, __u32 b, __u32 s,
				__u32 v)
{
	__u32 f = c->s.fp_bits;
	__u64 n = kb_cuckoo_slot(b, s, c->s.slots), w = kb_field_word(n, f);
	__u32 sh = kb_field_shift(n, f);

	kcf_store(&c->words[w], kb_field_put_lo(kcf_load(&c->words[w]), sh, f,
						v));
	if (kb_field_spills(sh, f))
		kcf_store(&c->words[w + 1],
			  kb_field_put_hi(kcf_load(&c->words[w + 1]), sh, f,
					  v));
}

/* A writer's window: the counter is odd while slots change. */
static inline void kcf_write_begin(struct kbloom_cuckoo *c)
{
	__atomic_store_n(c->seq, *c->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void kcf_write_end(struct kbloom_cuckoo *c)
{
	__atomic_store_n(c->seq, *c->seq + 1, __ATOMIC_RELEASE);
}

static inline void kcf_add_stat(__u64 *ctr, __u64 n)
{
	__atomic_fetch_add(ctr, n, __ATOMIC_RELAXED);
}

/* cuckoo.c */
int kcf_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	    struct kbloom_cuckoo **cp);
int kcf_new_in(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	       __u64 *words, __u32 *seq, struct kbloom_cuckoo **cp);
int kcf_opts(const struct kbloom_opts *o, __u32 *hash_id, __u64 *seed);

#endif /* _KBLOOM_CUCKOO_INT_H */
