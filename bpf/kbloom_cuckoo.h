/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom: the BPF-side lookup of a cuckoo filter held in a blocks map
 * (uapi/kbloom_xdp_maps.h: struct kbloom_cuckoo_params, the words of the
 * slot array in 64-byte blocks), used by the gate's cuckoo variant, the
 * tests and the benchmarks.
 *
 * Nothing here re-implements the filter: the key hash is kb_hash(), the
 * fingerprint, the buckets and the packing are kb_cuckoo_fp(),
 * kb_cuckoo_index(), kb_cuckoo_alt() and kb_field_*() of
 * uapi/kbloom_variants.h, as in kbloom.ko and libkbloom_cuckoo, so a key
 * added by either is found here.  A bucket of b f-bit slots is one packed
 * field of b f bits (slot s of bucket i is field i b + s, kb_cuckoo_slot()).
 *
 * A lookup reads both buckets, no early exit: their loads do not depend
 * on each other, so their cache misses overlap.  The XDP form takes
 * buckets of at most 64 bits (b f <= 64, KBLOOM_CUCKOO_BPF_BUCKET_BITS:
 * f <= 16 at b = 4, rates down to about 0.012%), each read as one field
 * of one or two words and compared with all its slots at once: with L =
 * the word of b fields holding 1, x = bucket ^ (fp L) has a zero field
 * iff a slot holds fp, and (x - L) & ~x & (L << (f - 1)) is non-zero iff
 * x has a zero field (the borrow out of the lowest zero field sets its
 * top bit; no field below it borrows, and a field whose top bit (x - L)
 * sets without a borrow has its own top bit set, which ~x clears).
 *
 * Concurrent writers (the loader moving entries along a kick path, from
 * the end of the path back, then storing the new fingerprint) keep every
 * entry in at least one of its buckets at every instant, but a reader
 * that reads bucket i1 and then i2 can still miss an entry that moved
 * from i2 to i1 between its two reads, and a slot that spills into a
 * second word can be read half old, half new.  So the reader validates a
 * negative answer against the writers' sequence counter: seq is read
 * before and after the buckets; "absent" stands only if it was even and
 * unchanged; a fingerprint found stands at once (whatever was read is
 * either an entry of the filter or a half-written slot: at worst a false
 * positive, which the gate's exact map catches).  After
 * KBLOOM_CUCKOO_BPF_TRIES unstable reads the answer is "possibly
 * present": a writer stalled inside its window costs exact lookups, never
 * a false negative.  Words and counter are aligned 64- and 32-bit loads
 * (one instruction each, never torn); barrier() keeps the compiler from
 * moving or caching them across the two reads of the counter (clang 14
 * has no atomic loads for BPF), and at run time x86-64's memory model
 * keeps their order (loads are not reordered with older loads; the JIT
 * keeps the program's).  A word the compiler chose to load twice could
 * differ only if a writer ran meanwhile, which the counter then shows.
 * BPF before Linux 6.15 has no load-acquire for weakly ordered machines.
 */
#ifndef _KBLOOM_CUCKOO_BPF_H
#define _KBLOOM_CUCKOO_BPF_H

#include "bpf/kbloom_bpf.h"
#include "uapi/kbloom_variants.h"

/*
 * The two maps a cuckoo filter table adds to <path>_filters
 * (uapi/kbloom_xdp_maps.h): its parameters (BPF_F_NO_PREALLOC: an update
 * replaces them under RCU) and the writers' counter (mmapped by the
 * loader), named @name.
 */
#define KBLOOM_CUCKOO_PARAMS_MAP(name)					\
	struct {							\
		__uint(type, BPF_MAP_TYPE_HASH);			\
		__uint(map_flags, BPF_F_NO_PREALLOC);			\
		__uint(max_entries, 1);					\
		__type(key, __u32);					\
		__type(value, struct kbloom_cuckoo_params);		\
	} name SEC(".maps")

#define KBLOOM_CUCKOO_SEQ_MAP(name)					\
	struct {							\
		__uint(type, BPF_MAP_TYPE_ARRAY);			\
		__uint(map_flags, BPF_F_MMAPABLE);			\
		__uint(max_entries, 1);					\
		__type(key, __u32);					\
		__type(value, struct kbloom_cuckoo_seq);		\
	} name SEC(".maps")

/* The cuckoo filter of a filter table: parameters, blocks and counter. */
struct kbloom_bpf_cuckoo {
	const struct kbloom_cuckoo_params *p;
	void *blocks;
	const struct kbloom_cuckoo_seq *seq;
};

/* The counter of the writers, map @seq_map's element 0. */
static __always_inline int kbloom_bpf_cuckoo_get(void *params_map,
						 void *filters_map,
						 void *seq_map, __u32 id,
						 struct kbloom_bpf_cuckoo *c)
{
	__u32 zero = 0, slot;

	c->p = bpf_map_lookup_elem(params_map, &id);
	c->seq = bpf_map_lookup_elem(seq_map, &zero);
	if (!c->p || !c->seq)
		return -ENOENT;
	slot = c->p->slot;
	c->blocks = bpf_map_lookup_elem(filters_map, &slot);
	return c->blocks ? 0 : -ENOENT;
}

/* Word @w of the slot array (one 64-bit load); *@err on a bad index. */
static __always_inline __u64 kbc_word(void *blocks, __u64 w, int *err)
{
	__u32 idx = (__u32)(w / KBLOOM_BLOCK_WORDS);
	struct kbloom_block *b = bpf_map_lookup_elem(blocks, &idx);

	if (!b) {
		*err = 1;
		return 0;
	}
	return b->w[w % KBLOOM_BLOCK_WORDS];
}

/*
 * Field @n of @width bits of the slot array: one block lookup, two when
 * the field spills past the block's last word.
 */
static __always_inline __u64 kbc_field(void *blocks, __u64 n, __u32 width,
				       int *err)
{
	__u64 w = kb_field_word(n, width), lo, hi = 0;
	__u32 sh = kb_field_shift(n, width);
	__u32 idx = (__u32)(w / KBLOOM_BLOCK_WORDS);
	__u32 j = (__u32)(w % KBLOOM_BLOCK_WORDS);
	struct kbloom_block *b = bpf_map_lookup_elem(blocks, &idx);

	if (!b) {
		*err = 1;
		return 0;
	}
	lo = b->w[j];
	if (kb_field_spills(sh, width))
		hi = j + 1 < KBLOOM_BLOCK_WORDS ?
		     b->w[(j + 1) % KBLOOM_BLOCK_WORDS] :
		     kbc_word(blocks, w + 1, err);
	return kb_field_get(lo, hi, sh, width);
}

/* L: b fields of f bits, each holding 1 (b = slots: 1, 2, 4 or 8). */
static __always_inline __u64 kbc_lows(__u32 f, __u32 slots)
{
	__u64 l = 1;

	if (slots > 1)
		l |= l << f;
	if (slots > 2)
		l |= l << (2 * f);
	if (slots > 4)
		l |= l << (4 * f);
	return l;
}

/* Whether bucket value @v (@slots fields of @f bits) holds @fp. */
static __always_inline int kbc_has(__u64 v, __u64 lows, __u32 f, __u64 fp)
{
	__u64 x = v ^ (fp * lows);

	return ((x - lows) & ~x & (lows << (f - 1))) != 0;
}

/* One read of both buckets (@width = b f bits each): either holds @fp? */
static __always_inline int kbc_read(void *blocks, __u32 i1, __u32 i2,
				    __u32 width, __u64 lows, __u32 f,
				    __u32 fp, int *err)
{
	__u64 v1 = kbc_field(blocks, i1, width, err);
	__u64 v2 = kbc_field(blocks, i2, width, err);

	return kbc_has(v1, lows, f, fp) | kbc_has(v2, lows, f, fp);
}

static __always_inline __u32 kbc_seq(const struct kbloom_cuckoo_seq *s)
{
	return s->seq;
}

/* Where a hashed key's fingerprint may be: its two buckets and shape. */
struct kbc_probe {
	__u64 lows;
	__u32 i1, i2, width, f, fp;
};

/* @q for hash @h under @p; -EINVAL for buckets the XDP form cannot read. */
static __always_inline int kbc_probe_init(const struct kbloom_cuckoo_params *p,
					  __u64 h, struct kbc_probe *q)
{
	__u32 slots = p->shape.slots;

	q->f = p->shape.fp_bits;
	q->width = q->f * slots;
	if (q->width > KBLOOM_CUCKOO_BPF_BUCKET_BITS || !q->f)
		return -EINVAL;
	q->lows = kbc_lows(q->f, slots);
	q->fp = kb_cuckoo_fp(h, q->f);
	q->i1 = kb_cuckoo_index(h, p->shape.buckets);
	q->i2 = kb_cuckoo_alt(q->i1, q->fp, p->shape.buckets);
	return 0;
}

/*
 * What a read of both buckets (@found, @err, between two reads of the
 * writers' counter, the first @seq) says: KBLOOM_MAYBE, KBLOOM_ABSENT,
 * -ENOENT (a bucket out of the blocks map), or -EAGAIN: absent, but a
 * writer ran meanwhile.
 */
static __always_inline int kbc_settle(const struct kbloom_bpf_cuckoo *c,
				      __u32 seq, int found, int err)
{
	if (err)
		return -ENOENT;
	if (found)
		return KBLOOM_MAYBE;
	barrier();
	if (!(seq & 1) && kbc_seq(c->seq) == seq)
		return KBLOOM_ABSENT;
	return -EAGAIN;
}

/* One read of both buckets, validated (kbc_settle()). */
static __always_inline int kbc_try(const struct kbloom_bpf_cuckoo *c,
				   const struct kbc_probe *q)
{
	int err = 0, found;
	__u32 seq;

	seq = kbc_seq(c->seq);
	barrier();
	found = kbc_read(c->blocks, q->i1, q->i2, q->width, q->lows, q->f,
			 q->fp, &err);
	return kbc_settle(c, seq, found, err);
}

/*
 * kbloom_bpf_cuckoo_bucket_has() - one bucket of a hashed key, alone
 * @b: 0, the key's first bucket; 1, its alternate
 *
 * For a global function (a retry, off the fast path) that reads the
 * buckets one call each, between two reads of the writers' counter by
 * its caller (kbc_settle() then says what the reads mean).
 *
 * Return: 1 when the bucket holds the key's fingerprint, 0 when not,
 * -ENOENT, -EINVAL as kbloom_bpf_cuckoo_test_hash().
 */
static __always_inline int
kbloom_bpf_cuckoo_bucket_has(const struct kbloom_bpf_cuckoo *c, __u64 h,
			     __u32 b)
{
	struct kbc_probe q;
	int err = 0, ret;
	__u64 v;

	ret = kbc_probe_init(c->p, h, &q);
	if (ret)
		return ret;
	v = kbc_field(c->blocks, b ? q.i2 : q.i1, q.width, &err);
	if (err)
		return -ENOENT;
	return kbc_has(v, q.lows, q.f, q.fp);
}

/*
 * kbloom_bpf_cuckoo_test_tries() - up to @tries reads of a hashed key
 *
 * Return: KBLOOM_ABSENT, KBLOOM_MAYBE; -EAGAIN when every read was
 * unstable; -ENOENT, -EINVAL as kbloom_bpf_cuckoo_test_hash().  A caller
 * that splits its KBLOOM_CUCKOO_BPF_TRIES reads (the first in line, the
 * others in a function the verifier checks once) calls it once per part.
 */
static __always_inline int
kbloom_bpf_cuckoo_test_tries(const struct kbloom_bpf_cuckoo *c, __u64 h,
			     __u32 tries)
{
	struct kbc_probe q;
	__u32 t;
	int ret;

	ret = kbc_probe_init(c->p, h, &q);
	if (ret)
		return ret;
	for (t = 0; t < tries; t++) {
		ret = kbc_try(c, &q);
		if (ret != -EAGAIN)
			return ret;
	}
	return -EAGAIN;
}

/*
 * kbloom_bpf_cuckoo_test_hash() - membership test of a hashed key
 *
 * Return: KBLOOM_ABSENT, KBLOOM_MAYBE; -ENOENT when a bucket is out of
 * the blocks map (parameters that do not match the map), -EINVAL for
 * buckets wider than KBLOOM_CUCKOO_BPF_BUCKET_BITS.
 */
static __always_inline int
kbloom_bpf_cuckoo_test_hash(const struct kbloom_bpf_cuckoo *c, __u64 h)
{
	int ret = kbloom_bpf_cuckoo_test_tries(c, h, KBLOOM_CUCKOO_BPF_TRIES);

	return ret == -EAGAIN ? KBLOOM_MAYBE : ret;
}

/* kbloom_bpf_cuckoo_test() - membership test of a key of @len bytes. */
static __always_inline int
kbloom_bpf_cuckoo_test(const struct kbloom_bpf_cuckoo *c, const void *key,
		       __u32 len)
{
	return kbloom_bpf_cuckoo_test_hash(c, kb_hash(c->p->hash_id,
						      c->p->seed, key, len));
}

#endif /* _KBLOOM_CUCKOO_BPF_H */
