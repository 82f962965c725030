/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom: partitioned filters (KBLOOM_TYPE_PARTITIONED) in BPF maps,
 * the map-backed XDP form of libkbloom_partitioned.h and kbloom.ko's
 * partitioned filters (uapi/kbloom_part_maps.h: a parameters map and a
 * map of blocks maps; bpf/kbloom_partitioned.h tests and adds keys from a
 * program).
 *
 * The table's maps belong to the caller (a program's object, or pins):
 * these calls move a filter between them and its version-3 image, the
 * image of kbloom_part_save(), of kbloom.ko's KBLOOM_IOCTL_SAVE and of
 * kbloomctl save.  A key added by any executor is found by every other.
 *
 * Errors are negative errno values; a failing call changes nothing.
 */
#ifndef _LIBKBLOOM_XDP_PART_H
#define _LIBKBLOOM_XDP_PART_H

#include <stddef.h>
#include <linux/types.h>

#include "kbloom/uapi/kbloom_part_maps.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct kbloom_xdp_part_table - a filter table of partitioned filters
 * @part_fd: the parameters map (HASH, __u32 id -> struct kbloom_part_params)
 * @filters_fd: the map of blocks maps (ARRAY_OF_MAPS, __u32 slot -> map)
 * @btf_fd: -1, or BTF holding struct kbloom_block (a program's object:
 *          bpf_object__btf()), so that bpftool dumps the blocks typed
 * @btf_key_id, @btf_block_id: the __u32 and struct kbloom_block types of
 *          @btf_fd
 */
struct kbloom_xdp_part_table {
	int part_fd;
	int filters_fd;
	int btf_fd;
	__u32 btf_key_id;
	__u32 btf_block_id;
};

/**
 * kbloom_xdp_part_load() - filter @id of @t from a partitioned image
 * @index: the filter's pair of slots in @t->filters_fd (2 index and
 *         2 index + 1); a filter already there is replaced through the
 *         idle slot of its pair, in one update of its parameters
 *
 * The image is verified whole first (kbloom_part_load()'s errors, and
 * -EOPNOTSUPP for a valid image of another type).
 *
 * Return: 0; an image error; -EINVAL for a bad table or @index; -errno of
 * the bpf() calls (-ENOSPC: no such slot).
 */
int kbloom_xdp_part_load(const struct kbloom_xdp_part_table *t, __u32 id,
			 __u32 index, const void *img, size_t len);

/**
 * kbloom_xdp_part_save() - filter @id of @t as a version-3 image
 * @img: out: a new malloc()ed image; @len: out: its length
 *
 * The words are read while programs may add keys: the image holds at
 * least the keys whose add finished before the call.
 *
 * Return: 0; -ENOENT for no filter @id; -EBADMSG for parameters that are
 * not a partitioned filter of this layout or do not match the blocks map;
 * -ENOMEM; -errno of the bpf() calls.
 */
int kbloom_xdp_part_save(const struct kbloom_xdp_part_table *t, __u32 id,
			 void **img, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_XDP_PART_H */
