/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the BPF map layout of a partitioned filter
 * (KBLOOM_TYPE_PARTITIONED, uapi/kbloom_partitioned.h) at XDP, shared by
 * the BPF side (bpf/kbloom_partitioned.h) and the loader
 * (libkbloom_xdp_part.h).
 *
 * The filter's bits are a blocks map as for a blocked filter
 * (uapi/kbloom_xdp_maps.h: a BPF_F_MMAPABLE BPF_MAP_TYPE_ARRAY of struct
 * kbloom_block) holding the filter's words word for word: word w is word
 * w % 8 of block w / 8, so the first nwords words of the map are the
 * payload of the filter's version-3 image (on a little-endian host) and
 * the rest of the last block is zero.  Probe i of a key tests bit
 * i s + kb_reduce32(w_i, s) (kb_part_next()): k bits in k different
 * slices, so a lookup reads up to k blocks (one per slice; it stops at the
 * first clear bit) where a blocked filter reads one.
 *
 * A filter table of partitioned filters is two maps:
 *
 *   <path>_part     BPF_MAP_TYPE_HASH, BPF_F_NO_PREALLOC, __u32 filter id
 *                   -> struct kbloom_part_params: the shape, the hash and
 *                   the slot of <path>_filters that holds the blocks map;
 *   <path>_filters  BPF_MAP_TYPE_ARRAY_OF_MAPS, __u32 slot -> blocks map.
 *
 * Filter id i owns slots 2 x and 2 x + 1 (x: its index, chosen by the
 * loader); a new image fills a new blocks map in the idle slot and then
 * publishes parameters naming it in one update, so a packet is tested
 * against the old filter or the new one.  Bits are only ever set (atomic
 * OR from BPF programs and from the loader through mmap), so readers need
 * no sequence counter: a key whose insert finished is found by every
 * later lookup.
 */
#ifndef _UAPI_KBLOOM_PART_MAPS_H
#define _UAPI_KBLOOM_PART_MAPS_H

#include <linux/types.h>
#include "kbloom_base.h"
#include "kbloom_image.h"
#include "kbloom_xdp_maps.h"

/**
 * struct kbloom_part_params - a partitioned filter, as the programs see it
 * @shape: the geometry (KBLOOM_TYPE_PARTITIONED: k slices of @buckets
 *         bits, m = k @buckets; kb_shape_check())
 * @version: KBLOOM_XDP_LAYOUT_VERSION
 * @hash_id: enum kbloom_hash_id
 * @seed: hash seed
 * @nwords: words of the filter, m / 64
 * @nblocks: blocks of the blocks map, (@nwords + 7) / 8
 * @slot: index in <path>_filters of the blocks map holding the filter
 * @gen: generation, bumped each time the blocks map changes
 * @inserted: keys added: the image's count, plus BPF inserts
 * @capacity: planned n, 0 for an explicit shape
 * @fpr_pico: planned p in 1e-12 units, 0 for an explicit shape
 * @name: the image's name (NUL-padded, may be empty)
 */
struct kbloom_part_params {
	struct kb_shape shape;
	__u32 version;
	__u32 hash_id;
	__u64 seed;
	__u64 nwords;
	__u32 nblocks;
	__u32 slot;
	__u64 gen;
	__u64 inserted;
	__u64 capacity;
	__u64 fpr_pico;
	char name[KBLOOM_NAME_LEN];
};

#endif /* _UAPI_KBLOOM_PART_MAPS_H */
