/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom: the BPF-side lookup and insert of a blocked filter, used by
 * every XDP program (mcast, gate, the tests, the benchmarks).
 *
 * Nothing here re-implements the filter: the key hash is kb_hash()
 * (uapi/kbloom_hash.h), the block is kb_block_index() and the in-block
 * probes are kb_block_mask() (uapi/kbloom_layout.h), exactly as in
 * kbloom.ko and libkbloom, so a key added by any executor is found here.
 *
 * A test is one hash, one map lookup of a 64-byte block and k bit tests
 * folded into (at most) eight word compares; an insert ORs the same mask
 * into the block with atomic OR, so concurrent inserts (BPF on other CPUs,
 * the loader through mmap) never lose bits.
 *
 * Usage, from any program type that may call bpf_map_lookup_elem():
 *
 *	struct kbloom_bpf_filter f;
 *
 *	if (kbloom_bpf_filter_get(&my_params, &my_filters, id, &f))
 *		... no such filter ...
 *	ret = kbloom_bpf_test(&f, key, len);	KBLOOM_ABSENT, KBLOOM_MAYBE
 *						or -errno
 *
 * or, with a blocks map of its own (a plain BPF_MAP_TYPE_ARRAY of struct
 * kbloom_block) and parameters from anywhere:
 *
 *	f.p = &params;
 *	f.blocks = &my_blocks;
 *
 * Keys are 1..KBLOOM_KEY_MAX bytes on the stack; pass a constant length
 * where possible (addresses: KBLOOM_ADDR4_LEN, KBLOOM_ADDR6_LEN) so that
 * the hash unrolls to straight-line code.  A variable length works too:
 * copy the key into a zeroed buffer of KBLOOM_KEY_MAX bytes first.  A key
 * on an 8-byte boundary takes the _al forms (kbloom_bpf_test_al(),
 * kbloom_bpf_add_al(), kbloom_bpf_hash_al()): the same hash, read a word
 * at a time instead of a byte at a time.
 */
#ifndef _KBLOOM_BPF_H
#define _KBLOOM_BPF_H

#include <linux/bpf.h>
#include <linux/errno.h>
#include <bpf/bpf_helpers.h>
#include "uapi/kbloom_base.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"
#include "uapi/kbloom_xdp_maps.h"

enum {
	KBLOOM_ABSENT = 0,	/* definitely not in the filter */
	KBLOOM_MAYBE = 1,	/* possibly in the filter */
};

/*
 * The blocks map as a map-in-map value: the template of every blocks map
 * in a <path>_filters map.  BPF_F_INNER_MAP lets blocks maps of any size
 * share one outer map.  The loader creates the blocks maps itself, with
 * the BTF of struct kbloom_block taken from the program's object.
 */
struct kbloom_blocks {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE | BPF_F_INNER_MAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_block);
};

/*
 * clang 14 emits struct kbloom_block as a forward declaration when it
 * appears only inside an inner map template; one read-only global of the
 * type makes it a complete, named BTF type (for libbpf, for the loader's
 * blocks maps and for bpftool).  Use once per object that has a filter
 * table.
 */
#define KBLOOM_BTF_TYPES \
	const struct kbloom_block kbloom_btf_block = {}

/**
 * struct kbloom_bpf_filter - a filter ready for tests
 * @p: its parameters
 * @blocks: its blocks map (a map pointer or a map-in-map value)
 */
struct kbloom_bpf_filter {
	const struct kbloom_params *p;
	void *blocks;
};

/*
 * kbloom_bpf_filter_get() - find filter @id in a filter table;
 * kbloom_bpf_filter_blocks() - the blocks map of the parameters in @f->p
 *
 * Return: 0, or -ENOENT when the table has no filter @id or its slot is
 * empty.
 */
static __always_inline int kbloom_bpf_filter_blocks(void *filters_map,
						    struct kbloom_bpf_filter *f)
{
	__u32 slot = f->p->slot;

	f->blocks = bpf_map_lookup_elem(filters_map, &slot);
	return f->blocks ? 0 : -ENOENT;
}

static __always_inline int kbloom_bpf_filter_get(void *params_map,
						 void *filters_map, __u32 id,
						 struct kbloom_bpf_filter *f)
{
	f->p = bpf_map_lookup_elem(params_map, &id);
	if (!f->p)
		return -ENOENT;
	return kbloom_bpf_filter_blocks(filters_map, f);
}

/* The key hash under a filter's hash id and seed. */
static __always_inline __u64 kbloom_bpf_hash(const struct kbloom_params *p,
					     const void *key, __u32 len)
{
	return kb_hash(p->hash_id, p->seed, key, len);
}

/*
 * The same hash of a key on an 8-byte boundary (kb_hash_al(): whole
 * words with one load each, where kb_hash() reads a byte at a time).
 */
static __always_inline __u64 kbloom_bpf_hash_al(const struct kbloom_params *p,
						const void *key, __u32 len)
{
	return kb_hash_al(p->hash_id, p->seed, key, len);
}

/*
 * kbloom_bpf_test_hash_k() - membership test of a hashed key with k
 * probes (k may differ from the filter's own, e.g. per group class)
 *
 * Return: KBLOOM_ABSENT, KBLOOM_MAYBE, or -ENOENT when the block is out
 * of the blocks map (parameters that do not match the map).
 */
static __always_inline int kbloom_bpf_test_hash_k(void *blocks,
						  __u32 nblocks, __u64 h,
						  __u32 k)
{
	__u64 mask[KBLOOM_BLOCK_WORDS], missing = 0;
	struct kbloom_block *b;
	__u32 idx, i;

	idx = kb_block_index(h, nblocks);
	b = bpf_map_lookup_elem(blocks, &idx);
	if (!b)
		return -ENOENT;
	kb_block_mask(h, k, mask);
	/*
	 * The mask stays in its stack slots (clang 14 otherwise keeps the
	 * eight words in registers and spills them: 4 ns more per test).
	 */
	barrier();
	/*
	 * One 64-bit load per word (atomic against concurrent OR), folded
	 * without a branch: no early exit to mispredict when the block
	 * arrives, so the next packet's work is not thrown away.  Measured
	 * (tests/bench/xdp.c, XDP_BENCH_EXPERIMENTS=1): absent keys beyond
	 * the cache 8-16% faster, present keys unchanged there; in cache,
	 * present keys about 5 ns slower.
	 */
	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		missing |= mask[i] & ~b->w[i];
	return missing ? KBLOOM_ABSENT : KBLOOM_MAYBE;
}

/*
 * kbloom_bpf_add_hash_k() - insert a hashed key with k probes
 *
 * Return: 0, or -ENOENT as kbloom_bpf_test_hash_k().
 */
static __always_inline int kbloom_bpf_add_hash_k(void *blocks, __u32 nblocks,
						 __u64 h, __u32 k)
{
	__u64 mask[KBLOOM_BLOCK_WORDS];
	struct kbloom_block *b;
	__u32 idx, i;

	idx = kb_block_index(h, nblocks);
	b = bpf_map_lookup_elem(blocks, &idx);
	if (!b)
		return -ENOENT;
	kb_block_mask(h, k, mask);
	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		if (mask[i])
			__sync_fetch_and_or(&b->w[i], mask[i]);
	return 0;
}

static __always_inline int kbloom_bpf_test_hash(const struct kbloom_bpf_filter *f,
						__u64 h)
{
	return kbloom_bpf_test_hash_k(f->blocks, f->p->nblocks, h, f->p->k);
}

/* kbloom_bpf_test() - membership test of a key of @len bytes. */
static __always_inline int kbloom_bpf_test(const struct kbloom_bpf_filter *f,
					   const void *key, __u32 len)
{
	return kbloom_bpf_test_hash(f, kbloom_bpf_hash(f->p, key, len));
}

/* kbloom_bpf_add() - insert a key of @len bytes. */
static __always_inline int kbloom_bpf_add(const struct kbloom_bpf_filter *f,
					  const void *key, __u32 len)
{
	return kbloom_bpf_add_hash_k(f->blocks, f->p->nblocks,
				     kbloom_bpf_hash(f->p, key, len), f->p->k);
}

/*
 * kbloom_bpf_test_al(), kbloom_bpf_add_al() - kbloom_bpf_test() and
 * kbloom_bpf_add() of a key on an 8-byte boundary (a stack buffer in a
 * union with __u64 or declared with the aligned(8) attribute).
 */
static __always_inline int kbloom_bpf_test_al(const struct kbloom_bpf_filter *f,
					      const void *key, __u32 len)
{
	return kbloom_bpf_test_hash(f, kbloom_bpf_hash_al(f->p, key, len));
}

static __always_inline int kbloom_bpf_add_al(const struct kbloom_bpf_filter *f,
					     const void *key, __u32 len)
{
	return kbloom_bpf_add_hash_k(f->blocks, f->p->nblocks,
				     kbloom_bpf_hash_al(f->p, key, len),
				     f->p->k);
}

#endif /* _KBLOOM_BPF_H */
