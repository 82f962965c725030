// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom cuckoo: the per-key operations.
 *
 * Writers hold c->lock and change slots only inside a window of the
 * sequence counter (odd inside).  An add that relocates writes the end of
 * its path first and the new fingerprint last, so an entry is always in
 * at least one of its buckets; but a reader that reads bucket i1, then
 * bucket i2, can still miss an entry that moved from i2 to i1 between its
 * two reads.  So a negative answer stands only when the counter was even
 * before the reads and unchanged after them; a positive answer always
 * stands (whatever it saw was an entry of the filter, perhaps a copy).
 * After KBLOOM_CUCKOO_READ_TRIES retries the reader reads once under the
 * writer mutex.
 */
#include <sched.h>

#include "cuckoo_int.h"

struct kcf_key {
	__u32 fp;
	__u32 i1;
	__u32 i2;
};

static int kcf_key(const struct kbloom_cuckoo *c, const void *key, __u32 len,
		   struct kcf_key *k)
{
	__u64 h;

	if (!c || !key || !len || len > KBLOOM_KEY_MAX)
		return -EINVAL;
	h = kb_hash(c->hash_id, c->seed, key, len);
	k->fp = kb_cuckoo_fp(h, c->s.fp_bits);
	k->i1 = kb_cuckoo_index(h, c->s.buckets);
	k->i2 = kb_cuckoo_alt(k->i1, k->fp, c->s.buckets);
	return 0;
}

static __u32 kcf_get(const void *arr, __u32 b, __u32 s)
{
	return kcf_slot_get(arr, b, s);
}

static void kcf_put(void *arr, __u32 b, __u32 s, __u32 v)
{
	kcf_slot_put(arr, b, s, v);
}

/* A slot of the key's buckets holding @v, *@b its bucket; or -1. */
static int kcf_locate(const struct kbloom_cuckoo *c, const struct kcf_key *k,
		      __u32 v, __u32 *b)
{
	return kb_cuckoo_locate(c, kcf_get, c->s.slots, k->i1, k->i2, v, b);
}

/* Copies of the fingerprint in the key's buckets. */
static __u32 kcf_copies(const struct kbloom_cuckoo *c, const struct kcf_key *k)
{
	return kb_cuckoo_copies(c, kcf_get, c->s.slots, k->i1, k->i2, k->fp);
}

/*
 * The key's copies as of one consistent read: @any stops at the first
 * copy (a test), and a non-zero answer then needs no validation.
 */
static __u32 kcf_read(const struct kbloom_cuckoo *c, const struct kcf_key *k,
		      bool any)
{
	struct kbloom_cuckoo *w = (struct kbloom_cuckoo *)c;
	__u32 seq, tries, n, b;

	for (tries = 0; tries < KBLOOM_CUCKOO_READ_TRIES; tries++) {
		seq = __atomic_load_n(c->seq, __ATOMIC_ACQUIRE);
		if (any && kcf_locate(c, k, k->fp, &b) >= 0)
			return 1;
		n = any ? 0 : kcf_copies(c, k);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (!(seq & 1) &&
		    __atomic_load_n(c->seq, __ATOMIC_RELAXED) == seq)
			return n;
		if (tries & 1)
			sched_yield();
	}
	pthread_mutex_lock(&w->lock);
	n = kcf_copies(c, k);
	pthread_mutex_unlock(&w->lock);
	return n;
}

int kbloom_cuckoo_test(const struct kbloom_cuckoo *c, const void *key,
		       __u32 len)
{
	struct kcf_key k;
	int ret = kcf_key(c, key, len, &k);

	if (ret)
		return ret;
	return kcf_read(c, &k, true) ? 1 : 0;
}

long kbloom_cuckoo_count(const struct kbloom_cuckoo *c, const void *key,
			 __u32 len)
{
	struct kcf_key k;
	int ret = kcf_key(c, key, len, &k);

	if (ret)
		return ret;
	return kcf_read(c, &k, false);
}

/* Store @fp, moving the path ending at node @n first. */
static void kcf_relocate(struct kbloom_cuckoo *c, __u32 n, __u32 eb,
			 __u32 es, __u32 fp)
{
	__u32 moved;

	kcf_write_begin(c);
	moved = kb_cuckoo_relocate(c, kcf_get, kcf_put, c->path, n, eb, es, fp);
	kcf_write_end(c);
	kcf_add_stat(&c->kicks, moved);
	if (moved > c->longest_path)
		__atomic_store_n(&c->longest_path, moved, __ATOMIC_RELAXED);
}

/* Under the lock: 0, or -ENOSPC (nothing changed). */
static int kcf_insert(struct kbloom_cuckoo *c, const struct kcf_key *k)
{
	__u32 eb, es;
	int n;

	n = kcf_locate(c, k, 0, &eb);
	if (n >= 0) {
		kcf_relocate(c, KB_CUCKOO_NO_PARENT, eb, (__u32)n, k->fp);
		return 0;
	}
	n = kb_cuckoo_search(c, kcf_get, c->s.slots, c->s.buckets, k->i1,
			     k->i2, c->path, &eb, &es);
	if (n < 0)
		return n;
	kcf_relocate(c, (__u32)n, eb, es, k->fp);
	return 0;
}

int kbloom_cuckoo_add(struct kbloom_cuckoo *c, const void *key, __u32 len)
{
	struct kcf_key k;
	int ret = kcf_key(c, key, len, &k);

	if (ret)
		return ret;
	pthread_mutex_lock(&c->lock);
	ret = kcf_insert(c, &k);
	kcf_add_stat(ret ? &c->overflows : &c->inserted, 1);
	pthread_mutex_unlock(&c->lock);
	return ret;
}

int kbloom_cuckoo_del(struct kbloom_cuckoo *c, const void *key, __u32 len)
{
	struct kcf_key k;
	__u32 b;
	int s, ret = kcf_key(c, key, len, &k);

	if (ret)
		return ret;
	pthread_mutex_lock(&c->lock);
	s = kcf_locate(c, &k, k.fp, &b);
	if (s >= 0) {
		kcf_write_begin(c);
		kcf_slot_put(c, b, (__u32)s, 0);
		kcf_write_end(c);
		kcf_add_stat(&c->inserted, (__u64)-1);
		kcf_add_stat(&c->deleted, 1);
	}
	pthread_mutex_unlock(&c->lock);
	return s >= 0 ? 0 : -ENOENT;
}
