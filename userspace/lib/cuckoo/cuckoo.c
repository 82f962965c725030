// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom cuckoo filters: creation from a plan or a shape, destruction,
 * clearing and statistics.  The shape is checked by kb_shape_derive()
 * (uapi/kbloom_variants.h), the one validation every executor uses.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>

#include "cuckoo_int.h"

/* hash id and seed from the options (NULL: defaults); 0 or -EINVAL. */
int kcf_opts(const struct kbloom_opts *o, __u32 *hash_id, __u64 *seed)
{
	static const struct kbloom_opts defaults;

	if (!o)
		o = &defaults;
	if (o->reserved || o->counter_bits ||
	    (o->flags & ~KBLOOM_OPT_RANDOM_SEED))
		return -EINVAL;
	if (o->name && o->name[0] &&
	    (strnlen(o->name, KBLOOM_NAME_LEN) >= KBLOOM_NAME_LEN ||
	     !kb_name_valid(o->name)))
		return -EINVAL;
	*hash_id = o->hash_id ? o->hash_id : KBLOOM_HASH_FAST;
	if (*hash_id > KBLOOM_HASH_MAX)
		return -EINVAL;
	*seed = o->seed;
	if ((o->flags & KBLOOM_OPT_RANDOM_SEED) &&
	    getrandom(seed, sizeof(*seed), 0) != sizeof(*seed))
		return -EIO;
	return 0;
}

/*
 * A filter of a derived shape over @words (NULL: its own, zeroed) and the
 * counter @seq (NULL: its own): 0, -EINVAL or -ENOMEM.
 */
int kcf_new_in(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	       __u64 *words, __u32 *seq, struct kbloom_cuckoo **cp)
{
	struct kbloom_cuckoo *c;
	__u64 bytes;

	if (s->type != KBLOOM_TYPE_CUCKOO || kb_shape_check(s))
		return -EINVAL;
	c = aligned_alloc(KCF_CACHELINE, sizeof(*c));
	if (!c)
		return -ENOMEM;
	memset(c, 0, sizeof(*c));
	c->s = *s;
	c->nwords = kb_shape_words(s);
	c->seq = seq ? seq : &c->seq_own;
	c->words = words;
	if (!words) {
		bytes = (c->nwords * 8 + KCF_CACHELINE - 1) &
			~(__u64)(KCF_CACHELINE - 1);
		c->words = bytes <= SIZE_MAX ?
			   aligned_alloc(KCF_CACHELINE, bytes) : NULL;
		if (!c->words)
			goto err_filter;
		memset(c->words, 0, bytes);
		c->own_words = true;
	}
	if (pthread_mutex_init(&c->lock, NULL))
		goto err_words;
	c->hash_id = hash_id;
	c->seed = seed;
	*cp = c;
	return 0;

err_words:
	if (c->own_words)
		free(c->words);
err_filter:
	free(c);
	return -ENOMEM;
}

/* A zeroed filter of a derived shape: 0, -EINVAL or -ENOMEM. */
int kcf_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	    struct kbloom_cuckoo **cp)
{
	return kcf_new_in(s, hash_id, seed, NULL, NULL, cp);
}

int kbloom_cuckoo_create_in(const struct kb_shape *s, __u32 hash_id,
			    __u64 seed, __u64 *words, __u64 nwords,
			    __u32 *seq,
			    const struct kbloom_cuckoo_counts *start,
			    struct kbloom_cuckoo **cp)
{
	struct kbloom_cuckoo *c;
	int ret;

	if (!s || !words || !seq || !cp || hash_id > KBLOOM_HASH_MAX ||
	    s->type != KBLOOM_TYPE_CUCKOO || kb_shape_check(s) ||
	    nwords < kb_shape_words(s))
		return -EINVAL;
	ret = kcf_new_in(s, hash_id ? hash_id : KBLOOM_HASH_FAST, seed,
			 words, seq, &c);
	if (ret)
		return ret;
	if (start) {
		c->capacity = start->capacity;
		c->fpr_pico = start->fpr_pico;
		c->inserted = start->inserted;
		c->deleted = start->deleted;
		c->kicks = start->kicks;
		c->overflows = start->overflows;
		c->longest_path = start->longest_path;
	}
	*cp = c;
	return 0;
}

static int kcf_create(struct kb_shape *s, const struct kbloom_opts *opts,
		      struct kbloom_cuckoo **cp)
{
	struct kbloom_cuckoo *c;
	__u32 hash_id;
	__u64 seed;
	int ret;

	ret = kcf_opts(opts, &hash_id, &seed);
	if (ret)
		return ret;
	ret = kcf_new(s, hash_id, seed, &c);
	if (ret)
		return ret;
	if (opts && opts->name)
		strncpy(c->name, opts->name, KBLOOM_NAME_LEN - 1);
	*cp = c;
	return 0;
}

int kbloom_cuckoo_create(__u64 n, __u64 p_pico,
			 const struct kbloom_opts *opts,
			 struct kbloom_cuckoo **cp)
{
	struct kb_shape s;
	int ret;

	if (!cp)
		return -EINVAL;
	ret = kb_cuckoo_plan(n, p_pico, &s);
	if (ret)
		return ret;
	ret = kcf_create(&s, opts, cp);
	if (ret)
		return ret;
	(*cp)->capacity = n;
	(*cp)->fpr_pico = p_pico;
	return 0;
}

int kbloom_cuckoo_create_shape(__u32 fp_bits, __u32 slots, __u64 buckets,
			       const struct kbloom_opts *opts,
			       struct kbloom_cuckoo **cp)
{
	struct kb_shape s = {
		.type = KBLOOM_TYPE_CUCKOO,
		.fp_bits = fp_bits,
		.slots = slots,
		.buckets = buckets,
	};

	if (!cp || kb_shape_derive(&s))
		return -EINVAL;
	return kcf_create(&s, opts, cp);
}

void kbloom_cuckoo_destroy(struct kbloom_cuckoo *c)
{
	if (!c)
		return;
	pthread_mutex_destroy(&c->lock);
	if (c->own_words)
		free(c->words);
	free(c);
}

void kbloom_cuckoo_clear(struct kbloom_cuckoo *c)
{
	__u64 i;

	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	kcf_write_begin(c);
	for (i = 0; i < c->nwords; i++)
		kcf_store(&c->words[i], 0);
	kcf_write_end(c);
	c->inserted = 0;
	c->deleted = 0;
	c->kicks = 0;
	c->overflows = 0;
	c->longest_path = 0;
	pthread_mutex_unlock(&c->lock);
}

/* Occupied slots: non-zero fields. */
static __u64 kcf_used(const struct kbloom_cuckoo *c)
{
	__u64 b, used = 0;
	__u32 s;

	for (b = 0; b < c->s.buckets; b++)
		for (s = 0; s < c->s.slots; s++)
			used += kcf_slot_get(c, (__u32)b, s) != 0;
	return used;
}

static __u64 kcf_read_stat(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

int kbloom_cuckoo_counts(const struct kbloom_cuckoo *c,
			 struct kbloom_cuckoo_counts *out)
{
	if (!c || !out)
		return -EINVAL;
	out->capacity = c->capacity;
	out->fpr_pico = c->fpr_pico;
	out->inserted = kcf_read_stat(&c->inserted);
	out->deleted = kcf_read_stat(&c->deleted);
	out->kicks = kcf_read_stat(&c->kicks);
	out->overflows = kcf_read_stat(&c->overflows);
	out->longest_path = kcf_read_stat(&c->longest_path);
	return 0;
}

int kbloom_cuckoo_stats(const struct kbloom_cuckoo *c,
			struct kbloom_cuckoo_stats *st)
{
	if (!c || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->shape = c->s;
	st->hash_id = c->hash_id;
	st->seed = c->seed;
	st->capacity = c->capacity;
	st->fpr_pico = c->fpr_pico;
	st->bytes = c->nwords * 8;
	st->inserted = kcf_read_stat(&c->inserted);
	st->deleted = kcf_read_stat(&c->deleted);
	st->kicks = kcf_read_stat(&c->kicks);
	st->overflows = kcf_read_stat(&c->overflows);
	st->longest_path = kcf_read_stat(&c->longest_path);
	st->used = kcf_used(c);
	st->load_ppm = st->used * 1000000 / c->s.m;
	st->fpr_now_pico = kb_cuckoo_fpr_pico(c->s.fp_bits, c->s.buckets,
					      st->used);
	return 0;
}

const __u64 *kbloom_cuckoo_words(const struct kbloom_cuckoo *c,
				 __u64 *nwords)
{
	if (!c)
		return NULL;
	if (nwords)
		*nwords = c->nwords;
	return c->words;
}

const char *kbloom_cuckoo_name(const struct kbloom_cuckoo *c)
{
	return c ? c->name : NULL;
}
