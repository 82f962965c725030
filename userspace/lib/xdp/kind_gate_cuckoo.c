// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the cuckoo variant's filters, by filter id:
 * the gate's filter 0 (bpf/kbloom_cuckoo_gate.bpf.c: gate_cuckoo,
 * gate_cseq), so that kbloom_gate_del() removes the address from the
 * filter too, and the mcast ports' filters, one per ifindex
 * (bpf/kbloom_cuckoo_mcast.bpf.c: mc_cuckoo, mc_cseq; kind_mcast_cuckoo.c),
 * so that a leave deletes the group's fingerprint.  Each is a cuckoo
 * filter in a blocks map (uapi/kbloom_xdp_maps.h).
 *
 * The loader writes the filter with libkbloom_cuckoo, bound to the
 * mmapped blocks map and to the mmapped gate_cseq counter
 * (kbloom_cuckoo_create_in()): the same kick path search and back-to-front
 * moves as kbloom.ko, inside the counter's odd window that the programs
 * validate against (bpf/kbloom_cuckoo.h); one counter for all the
 * instance's filters.  Writers are serialised by the instance lock; the
 * counts (inserted, kicks, overflows) live in the params map between
 * processes.  A new geometry or an image is filled
 * into the idle slot and published with the parameters, as filter.c does
 * for blocked filters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>

#include "uapi/kbloom_xdp_maps.h"
#include "libkbloom_cuckoo.h"
#include "xdp_priv.h"

struct kbx_cuckoo {
	int params_fd;
	int seq_fd;
	struct kbloom_cuckoo_seq *seq;	/* mmapped gate_cseq */
	size_t seq_len;
};

/* ---- geometry ------------------------------------------------------------- */

/* The programs read a bucket as one field of at most 64 bits. */
static int gc_width_ok(struct kbloom_xdp *x, const struct kb_shape *s)
{
	if (s->fp_bits * s->slots <= KBLOOM_CUCKOO_BPF_BUCKET_BITS)
		return 0;
	kbx_log(x, "%s: buckets of %u slots of %u bits: the XDP cuckoo filter takes buckets of at most %u bits (fingerprints of at most %u bits at 4 slots: a rate of 0.012%% or more)",
		x->name, s->slots, s->fp_bits, KBLOOM_CUCKOO_BPF_BUCKET_BITS,
		KBLOOM_CUCKOO_BPF_BUCKET_BITS / KB_CUCKOO_PLAN_SLOTS);
	return -EINVAL;
}

int kbx_cuckoo_geom(struct kbloom_xdp *x, const struct kbloom_xdp_geom *g,
		    struct kbloom_cuckoo_params *p)
{
	struct kbloom_xdp_geom t = {};
	struct kb_shape s = {};
	int ret;

	if (g)
		t = *g;
	if (t.m || t.k) {
		kbx_log(x, "%s: a cuckoo filter is planned from capacity and fpr; bits and hashes are for blocked filters",
			x->name);
		return -EINVAL;
	}
	if (t.region_bits || t.pad || t.hash_id > KBLOOM_HASH_MAX) {
		kbx_log(x, "%s: hash id %u out of range (0..%u)", x->name,
			t.hash_id, KBLOOM_HASH_MAX);
		return -EINVAL;
	}
	if (!t.capacity)
		t.capacity = KBLOOM_XDP_DEF_CAPACITY;
	if (!t.fpr_pico)
		t.fpr_pico = KBLOOM_XDP_CUCKOO_DEF_FPR_PICO;
	ret = kb_cuckoo_plan(t.capacity, t.fpr_pico, &s);
	if (ret) {
		kbx_log(x, "%s: no cuckoo filter for capacity %llu at fpr %llu pico (fingerprints of %u..%u bits, at most %llu slots)",
			x->name, (unsigned long long)t.capacity,
			(unsigned long long)t.fpr_pico, KB_CUCKOO_FP_MIN,
			KB_CUCKOO_FP_MAX, (unsigned long long)KBLOOM_M_MAX);
		return ret;
	}
	ret = gc_width_ok(x, &s);
	if (ret)
		return ret;
	memset(p, 0, sizeof(*p));
	p->shape = s;
	p->version = KBLOOM_XDP_LAYOUT_VERSION;
	p->hash_id = t.hash_id ? t.hash_id : KBLOOM_HASH_FAST;
	p->seed = t.seed;
	p->nwords = kb_shape_words(&s);
	p->nblocks = (__u32)((p->nwords + KBLOOM_BLOCK_WORDS - 1) /
			     KBLOOM_BLOCK_WORDS);
	p->capacity = t.capacity;
	p->fpr_pico = t.fpr_pico;
	return 0;
}

/* ---- pins ------------------------------------------------------------------ */

int kbx_cuckoo_open(struct kbloom_xdp *x)
{
	const struct kbx_desc *d = x->desc;
	struct kbx_cuckoo *c;
	void *mem;
	int ret;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->params_fd = -1;
	c->seq_fd = -1;
	x->cuckoo = c;
	ret = kbp_get(x->dir, d->cuckoo, &c->params_fd);
	ret = ret ?: kbp_get(x->dir, d->cseq, &c->seq_fd);
	if (ret)
		return ret;
	c->seq_len = (size_t)sysconf(_SC_PAGESIZE);
	mem = mmap(NULL, c->seq_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		   c->seq_fd, 0);
	if (mem == MAP_FAILED)
		return -errno;
	c->seq = mem;
	return 0;
}

void kbx_cuckoo_close(struct kbloom_xdp *x)
{
	struct kbx_cuckoo *c = x->cuckoo;

	if (!c)
		return;
	if (c->seq)
		munmap(c->seq, c->seq_len);
	kbp_close_fd(&c->params_fd);
	kbp_close_fd(&c->seq_fd);
	free(c);
	x->cuckoo = NULL;
}

/* ---- the filter ------------------------------------------------------------ */

static int gc_params_ok(struct kbloom_xdp *x, __u32 id,
			const struct kbloom_cuckoo_params *p)
{
	if (p->version == KBLOOM_XDP_LAYOUT_VERSION &&
	    p->shape.type == KBLOOM_TYPE_CUCKOO && !kb_shape_check(&p->shape) &&
	    p->hash_id <= KBLOOM_HASH_MAX &&
	    p->nwords == kb_shape_words(&p->shape) &&
	    p->nblocks == (p->nwords + KBLOOM_BLOCK_WORDS - 1) /
			  KBLOOM_BLOCK_WORDS)
		return gc_width_ok(x, &p->shape);
	kbx_log(x, "%s: %s holds no valid cuckoo filter %u (layout %u, type %u, %llu words, %u blocks)",
		x->name, x->desc->cuckoo, id, p->version, p->shape.type,
		(unsigned long long)p->nwords, p->nblocks);
	return -EINVAL;
}

/* The parameters of filter @id and, with @bp, its mapped blocks map. */
static int gc_get(struct kbloom_xdp *x, __u32 id,
		  struct kbloom_cuckoo_params *p, struct kbx_blocks **bp)
{
	int ret;

	ret = kbp_err(bpf_map_lookup_elem(x->cuckoo->params_fd, &id, p));
	ret = ret ?: gc_params_ok(x, id, p);
	if (ret || !bp)
		return ret;
	ret = kbx_slot_blocks(x, p->slot, p->nblocks, bp);
	if (ret == -EINVAL)
		kbx_log(x, "%s: the blocks map of slot %u is smaller than the cuckoo filter's %u blocks",
			x->name, p->slot, p->nblocks);
	return ret;
}

/* A libkbloom_cuckoo filter over the mapped blocks, with @p's counts. */
static int gc_bind(struct kbloom_xdp *x, const struct kbloom_cuckoo_params *p,
		   struct kbx_blocks *b, struct kbloom_cuckoo **cp)
{
	struct kbloom_cuckoo_counts n = {
		.capacity = p->capacity, .fpr_pico = p->fpr_pico,
		.inserted = p->inserted, .kicks = p->kicks,
		.overflows = p->overflows,
	};

	return kbloom_cuckoo_create_in(&p->shape, p->hash_id, p->seed,
				       b->words,
				       (__u64)b->nblocks * KBLOOM_BLOCK_WORDS,
				       &x->cuckoo->seq->seq, &n, cp);
}

static int gc_params_put(struct kbloom_xdp *x, __u32 id,
			 const struct kbloom_cuckoo_params *p, __u64 flags)
{
	return kbp_err(bpf_map_update_elem(x->cuckoo->params_fd, &id, p,
					   flags));
}

/*
 * A new, empty filter @id of geometry @p (kbx_cuckoo_geom()) in the
 * slots of counters index @index, pinned as filter_<id>.
 */
int kbx_cuckoo_create(struct kbloom_xdp *x, __u32 id, __u32 index,
		      struct kbloom_cuckoo_params *p)
{
	__u32 slot = index * KBLOOM_SLOTS_PER_FILTER;
	int ret;

	if (slot + 1 >= x->nslots)
		return -ENOSPC;
	ret = kbx_slot_fill(x, id, slot, p->nblocks, NULL, 0, 0);
	if (ret)
		return ret;
	p->slot = slot;
	p->gen = 1;
	ret = gc_params_put(x, id, p, BPF_NOEXIST);
	if (ret)
		goto err_slot;
	ret = kbx_filter_pin(x, id, x->slots[slot].fd);
	if (ret)
		goto err_params;
	return 0;
err_params:
	bpf_map_delete_elem(x->cuckoo->params_fd, &id);
err_slot:
	kbx_slot_drop(x, slot);
	return ret;
}

int kbx_cuckoo_init(struct kbloom_xdp *x, const struct kbloom_xdp_opts *o)
{
	struct kbloom_cuckoo_params p;
	int ret;

	ret = kbx_cuckoo_geom(x, o ? &o->geom : NULL, &p);
	return ret ?: kbx_cuckoo_create(x, 0, 0, &p);
}

/* Filter @id, its slots and its pin go (the slots after a grace period). */
int kbx_cuckoo_remove(struct kbloom_xdp *x, __u32 id)
{
	struct kbloom_cuckoo_params p;
	int ret;

	ret = gc_get(x, id, &p, NULL);
	if (ret)
		return ret;
	bpf_map_delete_elem(x->cuckoo->params_fd, &id);
	kbx_slots_release(x, id, p.slot);
	return 0;
}

/*
 * Under the lock, before writing: an odd counter means that a writer died
 * inside its window (writers hold the lock); make it even again, or the
 * next window would run with an even counter.  No entry of a returned
 * add is lost: the dead writer had copied every entry it moved before
 * overwriting its old slot; a slot it left half written is at worst a
 * stray fingerprint (a false positive).
 */
static void gc_seq_repair(struct kbloom_xdp *x)
{
	__u32 *seq = &x->cuckoo->seq->seq;
	__u32 v = __atomic_load_n(seq, __ATOMIC_RELAXED);

	if (!(v & 1))
		return;
	kbx_log(x, "%s: the cuckoo filter's writer counter was odd (a writer stopped inside its window): reset",
		x->name);
	__atomic_store_n(seq, v + 1, __ATOMIC_RELEASE);
}

/* Under the lock: add (@add) or delete one key of filter @id. */
int kbx_cuckoo_keys(struct kbloom_xdp *x, __u32 id, int add, const void *key,
		    __u32 len)
{
	struct kbloom_cuckoo_counts n;
	struct kbloom_cuckoo_params p;
	struct kbloom_cuckoo *c;
	struct kbx_blocks *b;
	int ret, put;

	gc_seq_repair(x);
	ret = gc_get(x, id, &p, &b);
	ret = ret ?: gc_bind(x, &p, b, &c);
	if (ret)
		return ret;
	ret = add ? kbloom_cuckoo_add(c, key, len) :
		    kbloom_cuckoo_del(c, key, len);
	kbloom_cuckoo_counts(c, &n);
	kbloom_cuckoo_destroy(c);
	if (ret == -ENOSPC)
		kbx_log(x, "%s: cuckoo filter %u is full (%llu keys, capacity %llu): rebuild it with a larger capacity",
			x->name, id, (unsigned long long)n.inserted,
			(unsigned long long)p.capacity);
	p.inserted = n.inserted;
	p.kicks = n.kicks;
	p.overflows = n.overflows;
	put = gc_params_put(x, id, &p, BPF_EXIST);
	return ret ?: put;
}

/*
 * Publish @np with the slot array @words in the idle slot; the old slot
 * is emptied after a grace period.  Under the lock.
 */
static int gc_swap(struct kbloom_xdp *x, __u32 id,
		   struct kbloom_cuckoo_params *np, const __u64 *words)
{
	struct kbloom_cuckoo_params cur;
	__u32 old, slot;
	int ret;

	ret = gc_get(x, id, &cur, NULL);
	if (ret)
		return ret;
	old = cur.slot;
	slot = old ^ 1;
	ret = kbx_slot_fill(x, id, slot, np->nblocks, words, np->nwords, 0);
	if (ret)
		return ret;
	np->slot = slot;
	np->gen = cur.gen + 1;
	ret = gc_params_put(x, id, np, BPF_EXIST);
	if (ret) {
		kbx_slot_drop(x, slot);
		return ret;
	}
	kbx_slot_retire(x, id, slot, old);
	return 0;
}

/* The parameters of a library filter, for gc_swap(). */
static void gc_params_of(const struct kbloom_cuckoo *c,
			 struct kbloom_cuckoo_params *p)
{
	struct kbloom_cuckoo_counts n;
	struct kbloom_cuckoo_stats st;

	kbloom_cuckoo_stats(c, &st);
	kbloom_cuckoo_counts(c, &n);
	memset(p, 0, sizeof(*p));
	p->shape = st.shape;
	p->version = KBLOOM_XDP_LAYOUT_VERSION;
	p->hash_id = st.hash_id;
	p->seed = st.seed;
	p->nwords = kb_shape_words(&st.shape);
	p->nblocks = (__u32)((p->nwords + KBLOOM_BLOCK_WORDS - 1) /
			     KBLOOM_BLOCK_WORDS);
	p->inserted = n.inserted;
	p->kicks = n.kicks;
	p->overflows = n.overflows;
	p->capacity = n.capacity;
	p->fpr_pico = n.fpr_pico;
}

/* Publish the contents of library filter @c as filter @id (locked). */
static int gc_publish(struct kbloom_xdp *x, __u32 id,
		      const struct kbloom_cuckoo *c)
{
	struct kbloom_cuckoo_params p;
	int ret;

	gc_params_of(c, &p);
	ret = gc_width_ok(x, &p.shape);
	if (ret)
		return ret;
	return gc_swap(x, id, &p, kbloom_cuckoo_words(c, NULL));
}

/*
 * The gate's kbx_desc.cuckoo_fill: every address of gate_exact into @c
 * (@missing: only those @c does not hold yet), so that the filter holds
 * the whole set: 0, or -ENOSPC (logged).
 */
int kbx_gate_cuckoo_fill(struct kbloom_xdp *x, __u32 id,
			 struct kbloom_cuckoo *c, int missing)
{
	struct kbloom_addr_key key, next;
	__u64 n = 0;
	int ret;

	for (ret = bpf_map_get_next_key(x->exact_fd, NULL, &next); !ret;
	     ret = bpf_map_get_next_key(x->exact_fd, &key, &next)) {
		key = next;
		if (missing && kbloom_cuckoo_test(c, key.addr, key.len) == 1)
			continue;
		ret = kbloom_cuckoo_add(c, key.addr, key.len);
		if (ret) {
			kbx_log(x, "%s: the set does not fit the new cuckoo filter (full after %llu addresses): give a larger capacity",
				x->name, (unsigned long long)n);
			return ret;
		}
		n++;
	}
	return 0;
}

/*
 * Under the lock: filter @id rebuilt (@geom: re-planned) from the kind's
 * exact record (kbx_desc.cuckoo_fill).
 */
int kbx_cuckoo_rebuild_locked(struct kbloom_xdp *x, __u32 id,
			      const struct kbloom_xdp_geom *geom)
{
	struct kbloom_cuckoo_params p;
	struct kbloom_cuckoo *c = NULL;
	struct kbloom_opts o = {};
	int ret;

	ret = gc_get(x, id, &p, NULL);
	if (!ret && geom)
		ret = kbx_cuckoo_geom(x, geom, &p);
	if (ret)
		return ret;
	o.hash_id = p.hash_id;
	o.seed = p.seed;
	/* planned again from capacity and rate: the same shape, kept plan */
	ret = p.capacity ?
	      kbloom_cuckoo_create(p.capacity, p.fpr_pico, &o, &c) :
	      kbloom_cuckoo_create_shape(p.shape.fp_bits, p.shape.slots,
					 p.shape.buckets, &o, &c);
	ret = ret ?: x->desc->cuckoo_fill(x, id, c, 0);
	ret = ret ?: gc_publish(x, id, c);
	kbloom_cuckoo_destroy(c);
	return ret;
}

int kbx_cuckoo_rebuild(struct kbloom_xdp *x,
		       const struct kbloom_xdp_geom *geom)
{
	int ret = kbx_lock(x);

	if (ret)
		return ret;
	ret = kbx_cuckoo_rebuild_locked(x, 0, geom);
	kbx_unlock(x);
	return ret;
}

/* ---- the calls of libkbloom_xdp.h ------------------------------------------- */

static int gc_check(struct kbloom_xdp *x)
{
	if (!x)
		return -EINVAL;
	if (x->variant == KBLOOM_XDP_VARIANT_CUCKOO && x->cuckoo)
		return 0;
	kbx_log(x, "%s: not a gate with a cuckoo filter, nor an mcast switch of cuckoo ports (xdp attach gate|mcast ... filter cuckoo)",
		x->name);
	return -EOPNOTSUPP;
}

int kbloom_xdp_cuckoo_test(struct kbloom_xdp *x, __u32 id, const void *key,
			   __u32 len)
{
	struct kbloom_cuckoo_params p;
	struct kbloom_cuckoo *c;
	struct kbx_blocks *b;
	int ret;

	ret = gc_check(x);
	ret = ret ?: gc_get(x, id, &p, &b);
	ret = ret ?: gc_bind(x, &p, b, &c);
	if (ret)
		return ret;
	ret = kbloom_cuckoo_test(c, key, len);
	kbloom_cuckoo_destroy(c);
	return ret;
}

int kbloom_xdp_cuckoo_info(struct kbloom_xdp *x, __u32 id,
			   struct kbloom_gate_cuckoo_info *info)
{
	struct kbloom_cuckoo_stats st;
	struct kbloom_cuckoo *c;
	struct kbx_blocks *b;
	int ret;

	if (!info)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	ret = gc_check(x);
	ret = ret ?: gc_get(x, id, &info->params, &b);
	ret = ret ?: gc_bind(x, &info->params, b, &c);
	if (ret)
		return ret;
	kbloom_cuckoo_stats(c, &st);
	kbloom_cuckoo_destroy(c);
	info->used = st.used;
	info->load_ppm = st.load_ppm;
	info->fpr_now_pico = st.fpr_now_pico;
	info->bytes = (__u64)info->params.nblocks * sizeof(struct kbloom_block);
	info->seq = __atomic_load_n(&x->cuckoo->seq->seq, __ATOMIC_RELAXED);
	return 0;
}

int kbloom_xdp_cuckoo_load_image(struct kbloom_xdp *x, __u32 id,
				 const void *img, size_t len)
{
	struct kbloom_cuckoo_params cur;
	struct kbloom_cuckoo *c;
	int ret;

	ret = gc_check(x);
	if (ret || !img)
		return ret ?: -EINVAL;
	ret = kbx_may_fn_image(x, img, len);
	if (ret)
		return ret;
	ret = kbloom_cuckoo_load(img, len, &c);
	if (ret) {
		kbx_log(x, "%s: the image is not a valid cuckoo filter image (%s)",
			x->name, strerror(-ret));
		return ret;
	}
	ret = kbx_lock(x);
	if (!ret) {
		ret = gc_get(x, id, &cur, NULL);
		ret = ret ?: x->desc->cuckoo_fill(x, id, c, 1);
		ret = ret ?: gc_publish(x, id, c);
		kbx_unlock(x);
	}
	kbloom_cuckoo_destroy(c);
	return ret;
}

int kbloom_xdp_cuckoo_save_image(struct kbloom_xdp *x, __u32 id, void **img,
				 size_t *len)
{
	struct kbloom_cuckoo_params p;
	struct kbloom_cuckoo *c;
	struct kbx_blocks *b;
	int ret;

	ret = gc_check(x);
	if (ret || !img || !len)
		return ret ?: -EINVAL;
	ret = kbx_lock(x);
	if (ret)
		return ret;
	ret = gc_get(x, id, &p, &b);
	ret = ret ?: gc_bind(x, &p, b, &c);
	if (ret)
		goto out;
	*len = kbloom_cuckoo_image_size(c);
	*img = malloc(*len);
	ret = *img ? kbloom_cuckoo_save(c, *img, *len, NULL) : -ENOMEM;
	kbloom_cuckoo_destroy(c);
	if (ret) {
		free(*img);
		*img = NULL;
	}
out:
	kbx_unlock(x);
	return ret;
}

/* The gate's filter is filter 0. */
int kbloom_gate_cuckoo_test(struct kbloom_xdp *x, const void *key, __u32 len)
{
	return kbloom_xdp_cuckoo_test(x, 0, key, len);
}

int kbloom_gate_cuckoo_info(struct kbloom_xdp *x,
			    struct kbloom_gate_cuckoo_info *info)
{
	return kbloom_xdp_cuckoo_info(x, 0, info);
}

int kbloom_gate_cuckoo_load_image(struct kbloom_xdp *x, const void *img,
				  size_t len)
{
	return kbloom_xdp_cuckoo_load_image(x, 0, img, len);
}

int kbloom_gate_cuckoo_save_image(struct kbloom_xdp *x, void **img,
				  size_t *len)
{
	return kbloom_xdp_cuckoo_save_image(x, 0, img, len);
}
