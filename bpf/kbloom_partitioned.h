/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom: the BPF-side lookup and insert of a partitioned filter held in
 * a blocks map (uapi/kbloom_part_maps.h: struct kbloom_part_params, the
 * filter's words in 64-byte blocks).
 *
 * Nothing here re-implements the filter: the key hash is kb_hash() and
 * probe i's bit is kb_part_next() (uapi/kbloom_partitioned.h: bit
 * i s + kb_reduce32(w_i, s) of the standard probe words), as in kbloom.ko
 * and libkbloom_partitioned, so a key added by any of them is found here.
 *
 * A test reads the block of each probe's bit in turn and stops at the
 * first clear bit (a non-key usually stops after one or two blocks); an
 * insert sets the k bits with atomic OR, so concurrent inserts (BPF on
 * other CPUs, the loader through mmap) never lose bits and a reader needs
 * no lock.
 *
 *	struct kbloom_bpf_part f;
 *
 *	if (kbloom_bpf_part_get(&my_part, &my_filters, id, &f))
 *		... no such filter ...
 *	ret = kbloom_bpf_part_test(&f, key, len);  KBLOOM_ABSENT,
 *						    KBLOOM_MAYBE or -ENOENT
 */
#ifndef _KBLOOM_PARTITIONED_BPF_H
#define _KBLOOM_PARTITIONED_BPF_H

#include "bpf/kbloom_bpf.h"
#include "uapi/kbloom_partitioned.h"
#include "uapi/kbloom_part_maps.h"

/* The parameters map of a partitioned filter table, named @name. */
#define KBLOOM_PART_PARAMS_MAP(name)					\
	struct {							\
		__uint(type, BPF_MAP_TYPE_HASH);			\
		__uint(map_flags, BPF_F_NO_PREALLOC);			\
		__uint(max_entries, 64);				\
		__type(key, __u32);					\
		__type(value, struct kbloom_part_params);		\
	} name SEC(".maps")

/* A partitioned filter of a filter table: parameters and blocks. */
struct kbloom_bpf_part {
	struct kbloom_part_params *p;
	void *blocks;
};

/* Filter @id: 0, or -ENOENT when the table has no such filter. */
static __always_inline int kbloom_bpf_part_get(void *params_map,
					       void *filters_map, __u32 id,
					       struct kbloom_bpf_part *f)
{
	__u32 slot;

	f->p = bpf_map_lookup_elem(params_map, &id);
	if (!f->p)
		return -ENOENT;
	slot = f->p->slot;
	f->blocks = bpf_map_lookup_elem(filters_map, &slot);
	return f->blocks ? 0 : -ENOENT;
}

/*
 * The word holding bit @bit, or NULL when it is past the blocks map
 * (parameters that do not match the map); *@mask gets the bit.
 */
static __always_inline __u64 *kbp_bpf_word(void *blocks, __u64 bit,
					   __u64 *mask)
{
	__u64 w = bit >> 6;
	__u32 idx = (__u32)(w / KBLOOM_BLOCK_WORDS);
	struct kbloom_block *b = bpf_map_lookup_elem(blocks, &idx);

	*mask = 1ULL << (bit & 63);
	return b ? &b->w[w % KBLOOM_BLOCK_WORDS] : NULL;
}

/*
 * The k bits of hashed key @h: tested (@add 0: KBLOOM_ABSENT at the first
 * clear one, else KBLOOM_MAYBE) or set with atomic OR (@add 1: 0); -ENOENT
 * for a bit past the blocks map.  @add is a constant at every call, so
 * each use compiles to one of the two loops.
 */
static __always_inline int kbp_bpf_walk(const struct kbloom_bpf_part *f,
					__u64 h, int add)
{
	__u64 slice = f->p->shape.buckets, mask, *w;
	__u32 i, k = f->p->shape.k;
	struct kb_probe pr;

	kb_probe_init(&pr, h);
	for (i = 0; i < KBLOOM_K_MAX; i++) {
		if (i >= k)
			break;
		w = kbp_bpf_word(f->blocks, kb_part_next(&pr, i, slice),
				 &mask);
		if (!w)
			return -ENOENT;
		if (*w & mask)
			continue;
		if (!add)
			return KBLOOM_ABSENT;
		__sync_fetch_and_or(w, mask);
	}
	return add ? 0 : KBLOOM_MAYBE;
}

/* kbloom_bpf_part_test_hash() - membership test of a hashed key. */
static __always_inline int kbloom_bpf_part_test_hash(const struct kbloom_bpf_part *f,
						     __u64 h)
{
	return kbp_bpf_walk(f, h, 0);
}

/* kbloom_bpf_part_add_hash() - insert a hashed key (0 or -ENOENT). */
static __always_inline int kbloom_bpf_part_add_hash(const struct kbloom_bpf_part *f,
						    __u64 h)
{
	int ret = kbp_bpf_walk(f, h, 1);

	if (!ret)
		__sync_fetch_and_add(&f->p->inserted, 1);
	return ret;
}

/* kbloom_bpf_part_test() - membership test of a key of @len bytes. */
static __always_inline int kbloom_bpf_part_test(const struct kbloom_bpf_part *f,
						const void *key, __u32 len)
{
	return kbloom_bpf_part_test_hash(f, kb_hash(f->p->hash_id, f->p->seed,
						    key, len));
}

/* kbloom_bpf_part_add() - insert a key of @len bytes. */
static __always_inline int kbloom_bpf_part_add(const struct kbloom_bpf_part *f,
					       const void *key, __u32 len)
{
	return kbloom_bpf_part_add_hash(f, kb_hash(f->p->hash_id, f->p->seed,
						   key, len));
}

#endif /* _KBLOOM_PARTITIONED_BPF_H */
