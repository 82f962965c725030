// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP loader: filter tables (uapi/kbloom_xdp_maps.h).
 *
 * The blocks maps are BPF_F_MMAPABLE arrays: the loader maps them and
 * sets bits with atomic OR, reads them with relaxed loads, and fills a
 * new one from an image with one copy.  Positions come from uapi
 * (kb_hash, kb_block_index, kb_block_mask) exactly as in the programs.
 *
 * Replacing a filter's contents or geometry (kbx_filter_swap) fills the
 * idle slot, publishes the parameters naming it in one update of the
 * RCU-managed params element, waits for an RCU grace period (every
 * program that could still hold the old parameters has finished) and
 * only then empties the old slot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <endian.h>
#include <sys/mman.h>
#include <bpf/bpf.h>

#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_plan.h"
#include "xdp_priv.h"

static void kbx_blocks_unmap(struct kbx_blocks *b)
{
	if (b->words)
		munmap(b->words, b->len);
	if (b->fd >= 0)
		close(b->fd);
	memset(b, 0, sizeof(*b));
	b->fd = -1;
}

void kbx_filter_release(struct kbloom_xdp *x)
{
	__u32 i;

	for (i = 0; x->slots && i < x->nslots; i++)
		kbx_blocks_unmap(&x->slots[i]);
	free(x->slots);
	x->slots = NULL;
}

int kbx_filter_get(struct kbloom_xdp *x, __u32 id, struct kbloom_params *p)
{
	int ret;

	if (x->variant == KBLOOM_XDP_VARIANT_CUCKOO) {
		kbx_log(x, "%s: filter %u is a cuckoo filter (kbloomctl gate stats, mcast ports, map save; kbloom_xdp_cuckoo_info())",
			x->name, id);
		return -EOPNOTSUPP;
	}
	if (x->variant == KBLOOM_XDP_VARIANT_DELETABLE) {
		kbx_log(x, "%s: filter %u is a deletable filter (kbloomctl mcast ports, mcast stats, map save; kbloom_xdp_del_info())",
			x->name, id);
		return -EOPNOTSUPP;
	}
	ret = kbp_err(bpf_map_lookup_elem(x->params_fd, &id, p));
	if (ret)
		return ret;
	if (p->version != KBLOOM_XDP_LAYOUT_VERSION ||
	    p->type != KBLOOM_TYPE_BLOCKED) {
		kbx_log(x, "%s: filter %u has layout %u type %u, not %u %u",
			x->name, id, p->version, p->type,
			KBLOOM_XDP_LAYOUT_VERSION, KBLOOM_TYPE_BLOCKED);
		return -EPROTONOSUPPORT;
	}
	return 0;
}

static int kbx_blocks_map(struct kbx_blocks *b, int fd, __u32 map_id)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	void *mem;
	int ret;

	ret = kbp_err(bpf_obj_get_info_by_fd(fd, &info, &len));
	if (ret)
		return ret;
	if (info.value_size != sizeof(struct kbloom_block) ||
	    !info.max_entries)
		return -EINVAL;
	len = info.max_entries * sizeof(struct kbloom_block);
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED)
		return -errno;
	b->map_id = map_id ? map_id : info.id;
	b->fd = fd;
	b->words = mem;
	b->len = len;
	b->nblocks = info.max_entries;
	return 0;
}

/* The mapped blocks map of @slot, (re)mapped when the slot changed. */
int kbx_slot_blocks(struct kbloom_xdp *x, __u32 slot, __u32 nblocks,
		    struct kbx_blocks **bp)
{
	struct kbx_blocks *b;
	__u32 id;
	int fd, ret;

	if (slot >= x->nslots)
		return -EINVAL;
	ret = kbp_err(bpf_map_lookup_elem(x->filters_fd, &slot, &id));
	if (ret)
		return ret;
	b = &x->slots[slot];
	if (b->map_id != id) {
		kbx_blocks_unmap(b);
		fd = kbp_err(bpf_map_get_fd_by_id(id));
		if (fd < 0)
			return fd;
		ret = kbx_blocks_map(b, fd, id);
		if (ret) {
			close(fd);
			return ret;
		}
	}
	if (b->nblocks < nblocks)
		return -EINVAL;
	*bp = b;
	return 0;
}

int kbx_filter_blocks(struct kbloom_xdp *x, const struct kbloom_params *p,
		      struct kbx_blocks **bp)
{
	return kbx_slot_blocks(x, p->slot, p->nblocks, bp);
}

/* A new blocks map of @nblocks, mapped into @b. */
static int kbx_blocks_new(struct kbloom_xdp *x, __u32 id, __u32 nblocks,
			  struct kbx_blocks *b)
{
	LIBBPF_OPTS(bpf_map_create_opts, o,
		    .map_flags = BPF_F_MMAPABLE | BPF_F_INNER_MAP);
	char name[16];
	int fd, ret;

	if (x->btf_fd >= 0) {
		o.btf_fd = x->btf_fd;
		o.btf_key_type_id = x->btf_key_id;
		o.btf_value_type_id = x->btf_block_id;
	}
	if (x->desc->multi)
		snprintf(name, sizeof(name), "%s%u", x->desc->blocks_name, id);
	else
		snprintf(name, sizeof(name), "%s", x->desc->blocks_name);
	fd = kbp_err(bpf_map_create(BPF_MAP_TYPE_ARRAY, name, sizeof(__u32),
				    sizeof(struct kbloom_block), nblocks, &o));
	if (fd < 0) {
		kbx_log(x, "%s: cannot create a filter of %u blocks: %s",
			x->name, nblocks, strerror(-fd));
		return fd;
	}
	ret = kbx_blocks_map(b, fd, 0);
	if (ret)
		close(fd);
	return ret;
}

int kbx_filter_pin(struct kbloom_xdp *x, __u32 id, int fd)
{
	char leaf[32];

	snprintf(leaf, sizeof(leaf), "filter_%u", id);
	return kbp_repin(x->dir, fd, leaf);
}

int kbx_filter_create(struct kbloom_xdp *x, __u32 id, __u32 index,
		      const struct kbloom_params *geom)
{
	struct kbloom_params p = *geom;
	struct kbx_blocks *b;
	__u32 slot = index * KBLOOM_SLOTS_PER_FILTER;
	char path[PATH_MAX];
	int ret;

	if (slot + 1 >= x->nslots)
		return -ENOSPC;
	b = &x->slots[slot];
	kbx_blocks_unmap(b);
	ret = kbx_blocks_new(x, id, p.nblocks, b);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_update_elem(x->filters_fd, &slot, &b->fd, 0));
	if (ret)
		goto err_unmap;
	p.slot = slot;
	p.id = id;
	p.index = index;
	p.gen = 1;
	ret = kbx_params_put(x, id, &p, BPF_NOEXIST);
	if (ret)
		goto err_slot;
	ret = kbx_filter_pin(x, id, b->fd);
	if (ret)
		goto err_params;
	if (x->desc->published)
		x->desc->published(x, &p);
	return 0;
err_params:
	kbx_params_del(x, id);
err_slot:
	bpf_map_delete_elem(x->filters_fd, &slot);
err_unmap:
	kbx_blocks_unmap(b);
	if (kbp_path(x->dir, path, "filter_%u", id) == 0 && ret != -EEXIST)
		unlink(path);
	return ret;
}

int kbx_slot_fill(struct kbloom_xdp *x, __u32 id, __u32 slot,
		  __u32 nblocks, const __u64 *words, __u64 nwords, int le)
{
	struct kbx_blocks *b;
	__u64 i, w;
	int ret;

	if (slot >= x->nslots)
		return -EINVAL;
	b = &x->slots[slot];
	kbx_blocks_unmap(b);
	ret = kbx_blocks_new(x, id, nblocks, b);
	if (ret)
		return ret;
	for (i = 0; words && i < nwords; i++) {
		if (le) {
			memcpy(&w, (const __u8 *)words + i * 8, 8);
			w = le64toh(w);
		} else {
			w = words[i];
		}
		b->words[i] = w;
	}
	ret = kbp_err(bpf_map_update_elem(x->filters_fd, &slot, &b->fd, 0));
	if (ret)
		kbx_blocks_unmap(b);
	return ret;
}

void kbx_slot_drop(struct kbloom_xdp *x, __u32 slot)
{
	if (slot >= x->nslots)
		return;
	bpf_map_delete_elem(x->filters_fd, &slot);
	kbx_blocks_unmap(&x->slots[slot]);
}

void kbx_slot_retire(struct kbloom_xdp *x, __u32 id, __u32 slot, __u32 old)
{
	int ret = kbx_filter_pin(x, id, x->slots[slot].fd);

	if (ret)
		kbx_log(x, "%s: re-pinning filter_%u failed: %s", x->name, id,
			strerror(-ret));
	/* no program holds the old parameters after a grace period */
	kbp_rcu_sync();
	kbx_slot_drop(x, old);
}

int kbx_filter_swap(struct kbloom_xdp *x, __u32 id,
		    const struct kbloom_params *geom, const __u64 *words,
		    int le)
{
	struct kbloom_params cur, p = *geom;
	__u32 old, slot;
	int ret;

	ret = kbx_filter_get(x, id, &cur);
	if (ret)
		return ret;
	old = cur.slot;
	slot = old ^ 1;
	ret = kbx_slot_fill(x, id, slot, p.nblocks, words,
			    (__u64)p.nblocks * KBLOOM_BLOCK_WORDS, le);
	if (ret)
		return ret;
	p.slot = slot;
	p.id = id;
	p.index = cur.index;
	p.gen = cur.gen + 1;
	ret = kbx_params_put(x, id, &p, BPF_EXIST);
	if (ret) {
		kbx_slot_drop(x, slot);
		return ret;
	}
	if (x->desc->published)
		x->desc->published(x, &p);
	kbx_slot_retire(x, id, slot, old);
	return 0;
}

/*
 * Rewrite the live filter of @p word by word (same geometry): a key
 * present both before and after keeps its bits throughout.
 */
int kbx_filter_rewrite(struct kbloom_xdp *x, const struct kbloom_params *p,
		       const __u64 *words)
{
	struct kbloom_params np = *p;
	struct kbx_blocks *b;
	__u64 i, n = (__u64)p->nblocks * KBLOOM_BLOCK_WORDS;
	int ret;

	ret = kbx_filter_blocks(x, p, &b);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		__atomic_store_n(&b->words[i], words[i], __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	np.gen++;
	return kbx_params_put(x, p->id, &np, BPF_EXIST);
}

/*
 * Filter @id's two slots (the pair of @slot) emptied after a grace period
 * (its parameters are gone already), and its pin.
 */
void kbx_slots_release(struct kbloom_xdp *x, __u32 id, __u32 slot)
{
	char path[PATH_MAX];
	__u32 s;

	kbp_rcu_sync();
	for (s = slot & ~1U; s <= (slot | 1U); s++)
		kbx_slot_drop(x, s);
	if (!kbp_path(x->dir, path, "filter_%u", id))
		unlink(path);
}

int kbx_filter_remove(struct kbloom_xdp *x, __u32 id)
{
	struct kbloom_params p;
	int ret;

	ret = kbx_filter_get(x, id, &p);
	if (ret)
		return ret;
	kbx_params_del(x, id);
	kbx_slots_release(x, id, p.slot);
	return 0;
}

/* Set a key's bits in @words (a filter of @p) with atomic OR. */
void kbx_words_add(__u64 *words, const struct kbloom_params *p,
		   const void *key, __u32 len)
{
	__u64 h = kb_hash(p->hash_id, p->seed, key, len);
	__u64 mask[KBLOOM_BLOCK_WORDS];
	__u64 *w = words + (__u64)kb_block_index(h, p->nblocks) *
			   KBLOOM_BLOCK_WORDS;
	__u32 i;

	kb_block_mask(h, p->k, mask);
	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		if (mask[i])
			__atomic_fetch_or(&w[i], mask[i], __ATOMIC_SEQ_CST);
}

static int kbx_words_test(const __u64 *words, const struct kbloom_params *p,
			  const void *key, __u32 len)
{
	__u64 h = kb_hash(p->hash_id, p->seed, key, len);
	__u64 mask[KBLOOM_BLOCK_WORDS];
	const __u64 *w = words + (__u64)kb_block_index(h, p->nblocks) *
				 KBLOOM_BLOCK_WORDS;
	__u32 i;

	kb_block_mask(h, p->k, mask);
	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		if ((__atomic_load_n(&w[i], __ATOMIC_RELAXED) & mask[i]) !=
		    mask[i])
			return 0;
	return 1;
}

int kbx_filter_add_locked(struct kbloom_xdp *x, __u32 id, const void *key,
			  __u32 len)
{
	struct kbloom_params p;
	struct kbx_blocks *b;
	int ret;

	ret = kbx_filter_get(x, id, &p);
	ret = ret ?: kbx_filter_blocks(x, &p, &b);
	if (ret)
		return ret;
	kbx_words_add(b->words, &p, key, len);
	p.inserted++;
	return kbx_params_put(x, id, &p, BPF_EXIST);
}

int kbloom_xdp_filter_add(struct kbloom_xdp *x, __u32 id, const void *key,
			  __u32 len)
{
	int ret;

	if (!x || !key || !len || len > KBLOOM_KEY_MAX)
		return -EINVAL;
	ret = kbx_lock(x);
	if (ret)
		return ret;
	ret = kbx_filter_add_locked(x, id, key, len);
	kbx_unlock(x);
	return ret;
}

int kbloom_xdp_filter_test(struct kbloom_xdp *x, __u32 id, const void *key,
			   __u32 len)
{
	struct kbloom_params p;
	struct kbx_blocks *b;
	int ret;

	if (!x || !key || !len || len > KBLOOM_KEY_MAX)
		return -EINVAL;
	ret = kbx_filter_get(x, id, &p);
	ret = ret ?: kbx_filter_blocks(x, &p, &b);
	if (ret)
		return ret;
	return kbx_words_test(b->words, &p, key, len);
}

int kbloom_xdp_filter_info(struct kbloom_xdp *x, __u32 id,
			   struct kbloom_xdp_filter_info *info)
{
	struct kbloom_params p;
	struct kbx_blocks *b;
	__u64 i, n, ones = 0;
	int ret;

	if (!x || !info)
		return -EINVAL;
	ret = kbx_filter_get(x, id, &p);
	ret = ret ?: kbx_filter_blocks(x, &p, &b);
	if (ret)
		return ret;
	n = (__u64)p.nblocks * KBLOOM_BLOCK_WORDS;
	for (i = 0; i < n; i++)
		ones += kb_popcount64(__atomic_load_n(&b->words[i],
						      __ATOMIC_RELAXED));
	memset(info, 0, sizeof(*info));
	info->params = p;
	info->m = (__u64)p.nblocks * KBLOOM_BLOCK_BITS;
	info->ones = ones;
	info->occupancy_ppm = info->m ? ones * 1000000 / info->m : 0;
	info->n_est = kb_n_est(info->m, p.k, ones);
	if (p.inserted)
		info->fpr_now_pico = kb_plan_fpr_pico(KBLOOM_TYPE_BLOCKED,
						      info->m, p.k,
						      p.inserted);
	return 0;
}

/*
 * A kfunc instance's programs read kbloom.ko's filters, not its BPF maps:
 * images move through the module (kbloomctl save / restore) instead.
 */
static int kbx_image_variant_ok(const struct kbloom_xdp *x, __u32 id)
{
	if (x->variant != KBLOOM_XDP_VARIANT_KFUNC)
		return 0;
	kbx_log(x, "%s: filter %u: the kfunc variant reads kbloom.ko's filters; save or restore the module filter instead",
		x->name, id);
	return -EOPNOTSUPP;
}

int kbloom_xdp_filter_load_image(struct kbloom_xdp *x, __u32 id,
				 const void *img, size_t len)
{
	const struct kbloom_image_hdr *h = img;
	struct kbloom_params cur, p;
	__u64 m;
	int ret;

	if (!x || !img)
		return -EINVAL;
	ret = kbx_image_variant_ok(x, id);
	if (ret)
		return ret;
	ret = kb_image_verify(img, len);
	if (ret) {
		kbx_log(x, "%s: filter %u: invalid image (%s)", x->name, id,
			strerror(-ret));
		return ret;
	}
	ret = kbx_may_fn_image(x, img, len);
	if (ret)
		return ret;
	if (h->type != KBLOOM_TYPE_BLOCKED) {
		kbx_log(x, "%s: filter %u: image type %u is not blocked",
			x->name, id, h->type);
		return -EOPNOTSUPP;
	}
	m = kb_le64(h->m);
	ret = kbx_lock(x);
	if (ret)
		return ret;
	ret = kbx_filter_get(x, id, &cur);
	if (ret)
		goto out;
	memset(&p, 0, sizeof(p));
	p.type = KBLOOM_TYPE_BLOCKED;
	p.version = KBLOOM_XDP_LAYOUT_VERSION;
	p.k = kb_le32(h->k);
	p.hash_id = h->hash_id;
	p.seed = kb_le64(h->seed);
	p.nblocks = (__u32)(m / KBLOOM_BLOCK_BITS);
	p.inserted = kb_le64(h->inserted);
	p.capacity = kb_le64(h->capacity);
	p.fpr_pico = kb_le64(h->fpr_pico);
	ret = kbx_filter_swap(x, id, &p,
			      (const __u64 *)((const __u8 *)img +
					      KBLOOM_IMAGE_HDR_LEN), 1);
out:
	kbx_unlock(x);
	return ret;
}

int kbloom_xdp_filter_save_image(struct kbloom_xdp *x, __u32 id, void **img,
				 size_t *len)
{
	struct kbloom_image_hdr h;
	struct kbloom_params p;
	struct kbx_blocks *b;
	__u64 i, n, plen;
	__u8 *buf;
	int ret;

	if (!x || !img || !len)
		return -EINVAL;
	ret = kbx_image_variant_ok(x, id);
	ret = ret ?: kbx_filter_get(x, id, &p);
	ret = ret ?: kbx_filter_blocks(x, &p, &b);
	if (ret)
		return ret;
	n = (__u64)p.nblocks * KBLOOM_BLOCK_WORDS;
	plen = n * 8;
	buf = malloc(KBLOOM_IMAGE_HDR_LEN + plen);
	if (!buf)
		return -ENOMEM;
	memset(&h, 0, sizeof(h));
	h.magic = kb_le32(KBLOOM_IMAGE_MAGIC);
	h.version = kb_le16(KBLOOM_IMAGE_VERSION);
	h.hdr_len = kb_le16(KBLOOM_IMAGE_HDR_LEN);
	h.type = KBLOOM_TYPE_BLOCKED;
	h.hash_id = (__u8)p.hash_id;
	h.k = kb_le32(p.k);
	h.block_bits = kb_le32(KBLOOM_BLOCK_BITS);
	h.seed = kb_le64(p.seed);
	h.m = kb_le64((__u64)p.nblocks * KBLOOM_BLOCK_BITS);
	h.capacity = kb_le64(p.capacity);
	h.fpr_pico = kb_le64(p.fpr_pico);
	h.inserted = kb_le64(p.inserted);
	h.payload_len = kb_le64(plen);
	if (strlen(x->name) < KBLOOM_NAME_LEN && kb_name_valid(x->name))
		memcpy(h.name, x->name, strlen(x->name));
	for (i = 0; i < n; i++) {
		__u64 w = kb_le64(__atomic_load_n(&b->words[i],
						  __ATOMIC_RELAXED));

		memcpy(buf + KBLOOM_IMAGE_HDR_LEN + i * 8, &w, 8);
	}
	h.crc = kb_le32(kb_image_crc(&h, buf + KBLOOM_IMAGE_HDR_LEN, plen));
	memcpy(buf, &h, sizeof(h));
	*img = buf;
	*len = KBLOOM_IMAGE_HDR_LEN + plen;
	return 0;
}
