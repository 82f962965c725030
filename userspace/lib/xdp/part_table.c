// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP: partitioned filters in a filter table of BPF maps
 * (uapi/kbloom_part_maps.h).  Loading fills a new mmapped blocks map with
 * the image's words in the idle slot of the filter's pair, then publishes
 * parameters naming it in one update; saving maps the blocks map and
 * writes the words behind a version-3 head.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>

#include "libkbloom_partitioned.h"
#include "libkbloom_xdp_part.h"
#include "../image_v3.h"

#define KBXP_HDR_LEN	(KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN)

/* The image's parameters (all but the slot and generation). */
static int kbxp_params(const void *img, size_t len,
		       struct kbloom_part_params *p)
{
	struct kbloom_part_stats st;
	struct kbloom_part *f;
	int ret;

	ret = kbloom_part_load(img, len, &f);
	if (ret)
		return ret;
	ret = kbloom_part_stats(f, &st);
	memset(p, 0, sizeof(*p));
	p->shape = st.shape;
	p->version = KBLOOM_XDP_LAYOUT_VERSION;
	p->hash_id = st.hash_id;
	p->seed = st.seed;
	p->nwords = st.shape.m / 64;
	p->nblocks = (__u32)((p->nwords + KBLOOM_BLOCK_WORDS - 1) /
			     KBLOOM_BLOCK_WORDS);
	p->inserted = st.inserted;
	p->capacity = st.capacity;
	p->fpr_pico = st.fpr_pico;
	memcpy(p->name, kbloom_part_name(f), strlen(kbloom_part_name(f)));
	kbloom_part_destroy(f);
	return ret;
}

/* A new blocks map holding the image's words. */
static int kbxp_blocks(const struct kbloom_xdp_part_table *t,
		       const struct kbloom_part_params *p, const __u8 *payload)
{
	LIBBPF_OPTS(bpf_map_create_opts, o,
		    .map_flags = BPF_F_MMAPABLE | BPF_F_INNER_MAP);
	size_t bytes = (size_t)p->nblocks * sizeof(struct kbloom_block);
	__u64 i, w, *mem;
	int fd;

	if (t->btf_fd >= 0) {
		o.btf_fd = t->btf_fd;
		o.btf_key_type_id = t->btf_key_id;
		o.btf_value_type_id = t->btf_block_id;
	}
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "part_blocks", sizeof(__u32),
			    sizeof(struct kbloom_block), p->nblocks, &o);
	if (fd < 0)
		return fd;
	mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED) {
		i = errno;
		close(fd);
		return -(int)i;
	}
	for (i = 0; i < p->nwords; i++) {
		memcpy(&w, payload + i * 8, 8);
		mem[i] = kb_le64(w);
	}
	munmap(mem, bytes);
	return fd;
}

/* The slot the new filter takes, and its generation. */
static void kbxp_slot(const struct kbloom_xdp_part_table *t, __u32 id,
		      __u32 index, struct kbloom_part_params *p)
{
	struct kbloom_part_params old;
	__u32 base = index * KBLOOM_SLOTS_PER_FILTER;

	p->slot = base;
	p->gen = 1;
	if (bpf_map_lookup_elem(t->part_fd, &id, &old))
		return;
	if (old.slot == base)
		p->slot = base + 1;
	p->gen = old.gen + 1;
}

/* The pair of slots of @index in the table's map of blocks maps. */
static int kbxp_index_ok(const struct kbloom_xdp_part_table *t, __u32 index)
{
	struct bpf_map_info info = {};
	__u32 ilen = sizeof(info);
	int ret;

	if (t->part_fd < 0 || t->filters_fd < 0 ||
	    index > (~0U - 1) / KBLOOM_SLOTS_PER_FILTER)
		return -EINVAL;
	ret = bpf_obj_get_info_by_fd(t->filters_fd, &info, &ilen);
	if (ret)
		return ret;
	if (info.type != BPF_MAP_TYPE_ARRAY_OF_MAPS)
		return -EINVAL;
	return (index + 1) * KBLOOM_SLOTS_PER_FILTER <= info.max_entries ?
	       0 : -ENOSPC;
}

int kbloom_xdp_part_load(const struct kbloom_xdp_part_table *t, __u32 id,
			 __u32 index, const void *img, size_t len)
{
	struct kbloom_part_params p;
	int fd, ret;

	if (!t || !img)
		return -EINVAL;
	ret = kbxp_index_ok(t, index) ?: kbxp_params(img, len, &p);
	if (ret)
		return ret;
	kbxp_slot(t, id, index, &p);
	fd = kbxp_blocks(t, &p, (const __u8 *)img + KBXP_HDR_LEN);
	if (fd < 0)
		return fd;
	ret = bpf_map_update_elem(t->filters_fd, &p.slot, &fd, 0);
	close(fd);
	if (ret)
		return ret;
	ret = bpf_map_update_elem(t->part_fd, &id, &p, 0);
	if (ret)
		bpf_map_delete_elem(t->filters_fd, &p.slot);
	return ret;
}

/* The blocks map of @p's slot, mapped read-only (@p->nblocks of it). */
static int kbxp_map_words(const struct kbloom_xdp_part_table *t,
			  const struct kbloom_part_params *p, __u64 **words,
			  size_t *bytes)
{
	struct bpf_map_info info = {};
	__u32 map_id, ilen = sizeof(info);
	void *mem;
	int fd, ret;

	ret = bpf_map_lookup_elem(t->filters_fd, &p->slot, &map_id);
	if (ret)
		return ret;
	fd = bpf_map_get_fd_by_id(map_id);
	if (fd < 0)
		return fd;
	ret = bpf_obj_get_info_by_fd(fd, &info, &ilen);
	if (!ret && (info.value_size != sizeof(struct kbloom_block) ||
		     info.max_entries < p->nblocks))
		ret = -EBADMSG;
	*bytes = (size_t)info.max_entries * sizeof(struct kbloom_block);
	mem = ret ? MAP_FAILED :
		    mmap(NULL, *bytes, PROT_READ, MAP_SHARED, fd, 0);
	if (!ret && mem == MAP_FAILED)
		ret = -errno;
	close(fd);
	if (!ret)
		*words = mem;
	return ret;
}

/* Parameters a partitioned filter of this layout can have. */
static int kbxp_params_ok(const struct kbloom_part_params *p)
{
	struct kb_shape s = p->shape;

	if (p->version != KBLOOM_XDP_LAYOUT_VERSION ||
	    s.type != KBLOOM_TYPE_PARTITIONED || kb_shape_check(&s) ||
	    p->nwords != kb_shape_words(&s) ||
	    p->nblocks != (p->nwords + KBLOOM_BLOCK_WORDS - 1) /
			  KBLOOM_BLOCK_WORDS ||
	    p->hash_id < KBLOOM_HASH_FAST || p->hash_id > KBLOOM_HASH_MAX)
		return -EBADMSG;
	return kb_image_name_valid(p->name) ? 0 : -EBADMSG;
}

int kbloom_xdp_part_save(const struct kbloom_xdp_part_table *t, __u32 id,
			 void **img, size_t *len)
{
	struct kbloom_part_params p;
	struct kbloom_image_head hd;
	__u64 *words;
	size_t bytes, n;
	void *buf;
	int ret;

	if (!t || !img || !len)
		return -EINVAL;
	ret = bpf_map_lookup_elem(t->part_fd, &id, &p);
	ret = ret ?: kbxp_params_ok(&p);
	ret = ret ?: kbxp_map_words(t, &p, &words, &bytes);
	if (ret)
		return ret;
	n = KBXP_HDR_LEN + p.nwords * 8;
	buf = malloc(n);
	if (buf) {
		kb_image_head_init(&hd, &p.shape, p.hash_id, p.seed);
		hd.h.capacity = kb_le64(p.capacity);
		hd.h.fpr_pico = kb_le64(p.fpr_pico);
		hd.h.inserted = kb_le64(p.inserted);
		memcpy(hd.h.name, p.name, KBLOOM_NAME_LEN);
		kb_image_v3_emit(&hd, words, p.nwords, buf);
	}
	munmap(words, bytes);
	if (!buf)
		return -ENOMEM;
	*img = buf;
	*len = n;
	return 0;
}
