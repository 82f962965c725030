// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the mcast kind's deletable variant
 * (bpf/kbloom_deletable_mcast.bpf.c): each port's filter is a deletable
 * Bloom filter (uapi/kbloom_var_deletable.h, Rothenberg et al. 2010), so
 * that a leave clears the group's bits in place when the group is
 * deletable, and rebuilds the port's filter from its members only when
 * it is not.
 *
 * A port is still named in mc_params, by a record of type
 * KBLOOM_TYPE_DELETABLE that holds its counters index (the programs' key
 * into mc_stats); its filter is its element of mc_deletable (shape, hash,
 * slot, counts of leaves) and the blocks map in that slot: the body, then
 * the collision bitmap, written with libkbloom_deletable over the mmapped
 * map (kbloom_del_create_in()).  Writers hold the instance lock.
 *
 *   join      the group's k bits set (atomic OR); a bit found set marks
 *             its region collided
 *   leave     deletable: the group's bits in collision-free regions are
 *             cleared (bits no other group set); else the body and bitmap
 *             are rewritten from mc_members word by word, each word going
 *             to a subset of itself that holds every member's bits, so no
 *             member tests absent meanwhile (no slot swap, no grace
 *             period)
 *   resize    a new filter (re-planned, or the same shape) filled from
 *             mc_members in the idle slot and swapped in, as filter.c
 *             does for blocked filters
 *
 *   image     a version-3 deletable image (uapi/kbloom_image.h, what
 *             kbloom.ko's SAVE and libkbloom_deletable write) replaces the
 *             filter as a resize does, the port's groups it lacks added
 *             first; a save writes the filter, its counts and its
 *             collision bitmap as that image (no name: the map keeps none)
 *
 * Each leave adds to predicted_nano the chance that it needs a rebuild,
 * 1 - formula (2) of kbloom_var_deletable.h at the keys added since the
 * last build (those whose probes made the collision bitmap): mcast stats
 * puts the measured share next to it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "uapi/kbloom_xdp_maps.h"
#include "libkbloom_deletable.h"
#include "xdp_priv.h"
#include "../image_v3.h"

/* ---- geometry ------------------------------------------------------------- */

/* Region bits: a power of two 1..KB_DEL_REGION_MAX, 0 the default. */
static int del_region_bits(struct kbloom_xdp *x, __u32 s, __u64 *out)
{
	*out = s ? s : KB_DEL_REGION_DEFAULT;
	if (kb_pow2(*out) && *out <= KB_DEL_REGION_MAX)
		return 0;
	kbx_log(x, "%s: region-bits %u: not a power of two 1..%u", x->name, s,
		KB_DEL_REGION_MAX);
	return -EINVAL;
}

/* The shape of @t: from its bits and hashes, or planned. */
static int del_shape(struct kbloom_xdp *x, struct kbloom_xdp_geom *t,
		     __u64 s, struct kb_shape *sh)
{
	int ret;

	if (t->m || t->k) {
		t->capacity = 0;
		t->fpr_pico = 0;
		ret = kb_del_shape_init(sh, t->k, t->m, s);
		if (ret)
			kbx_log(x, "%s: bits %llu hashes %u: not a deletable filter in regions of %llu bits (bits a multiple of 64 and of region-bits, %llu..%llu; hashes %u..%u)",
				x->name, (unsigned long long)t->m, t->k,
				(unsigned long long)s,
				(unsigned long long)KBLOOM_M_MIN,
				(unsigned long long)KBLOOM_M_MAX, KBLOOM_K_MIN,
				KBLOOM_K_MAX);
		return ret;
	}
	if (!t->capacity)
		t->capacity = KBLOOM_XDP_DEF_CAPACITY;
	if (!t->fpr_pico)
		t->fpr_pico = KBLOOM_XDP_DEF_FPR_PICO;
	ret = kb_del_plan(t->capacity, t->fpr_pico, s, sh);
	if (ret)
		kbx_log(x, "%s: no deletable filter for capacity %llu at fpr %llu pico (fpr %llu..%llu pico, at most %llu bits)",
			x->name, (unsigned long long)t->capacity,
			(unsigned long long)t->fpr_pico,
			(unsigned long long)KBLOOM_P_TARGET_MIN,
			(unsigned long long)KBLOOM_P_TARGET_MAX,
			(unsigned long long)KBLOOM_M_MAX);
	return ret;
}

int kbx_del_geom(struct kbloom_xdp *x, const struct kbloom_xdp_geom *g,
		 struct kbloom_del_params *p)
{
	struct kbloom_xdp_geom t = {};
	struct kb_shape sh;
	__u64 s;
	int ret;

	if (g)
		t = *g;
	if (t.pad || t.hash_id > KBLOOM_HASH_MAX) {
		kbx_log(x, "%s: hash id %u out of range (0..%u)", x->name,
			t.hash_id, KBLOOM_HASH_MAX);
		return -EINVAL;
	}
	ret = del_region_bits(x, t.region_bits, &s);
	ret = ret ?: del_shape(x, &t, s, &sh);
	if (ret)
		return ret;
	memset(p, 0, sizeof(*p));
	p->shape = sh;
	p->version = KBLOOM_XDP_LAYOUT_VERSION;
	p->hash_id = t.hash_id ? t.hash_id : KBLOOM_HASH_FAST;
	p->seed = t.seed;
	p->nwords = kb_shape_words(&sh);
	p->nblocks = (__u32)((p->nwords + KBLOOM_BLOCK_WORDS - 1) /
			     KBLOOM_BLOCK_WORDS);
	p->capacity = t.capacity;
	p->fpr_pico = t.fpr_pico;
	return 0;
}

/* ---- the port's element ------------------------------------------------------ */

static int del_params_ok(struct kbloom_xdp *x, __u32 id,
			 const struct kbloom_del_params *p)
{
	if (p->version == KBLOOM_XDP_LAYOUT_VERSION &&
	    p->shape.type == KBLOOM_TYPE_DELETABLE &&
	    !kb_shape_check(&p->shape) && p->hash_id <= KBLOOM_HASH_MAX &&
	    p->nwords == kb_shape_words(&p->shape) &&
	    p->nblocks == (p->nwords + KBLOOM_BLOCK_WORDS - 1) /
			  KBLOOM_BLOCK_WORDS)
		return 0;
	kbx_log(x, "%s: %s holds no valid deletable filter %u (layout %u, type %u, %llu words, %u blocks)",
		x->name, x->desc->deletable, id, p->version, p->shape.type,
		(unsigned long long)p->nwords, p->nblocks);
	return -EINVAL;
}

/* The parameters of port @id and, with @bp, its mapped blocks map. */
static int del_get(struct kbloom_xdp *x, __u32 id,
		   struct kbloom_del_params *p, struct kbx_blocks **bp)
{
	int ret;

	ret = kbp_err(bpf_map_lookup_elem(x->del_fd, &id, p));
	ret = ret ?: del_params_ok(x, id, p);
	if (ret || !bp)
		return ret;
	ret = kbx_slot_blocks(x, p->slot, p->nblocks, bp);
	if (ret == -EINVAL)
		kbx_log(x, "%s: the blocks map of slot %u is smaller than the deletable filter's %u blocks",
			x->name, p->slot, p->nblocks);
	return ret;
}

static int del_put(struct kbloom_xdp *x, __u32 id,
		   const struct kbloom_del_params *p, __u64 flags)
{
	return kbp_err(bpf_map_update_elem(x->del_fd, &id, p, flags));
}

/* A libkbloom_deletable filter over @words (the map's, or a scratch). */
static int del_bind(const struct kbloom_del_params *p, __u64 *words,
		    struct kbloom_del **fp)
{
	return kbloom_del_create_in(&p->shape, p->hash_id, p->seed, words,
				    p->nwords, fp);
}

/* Port @id's record in mc_params: its counters index and first slot. */
static int del_record(struct kbloom_xdp *x, __u32 id, __u32 index,
		      const struct kbloom_del_params *p, __u64 flags)
{
	struct kbloom_params rec = {};

	rec.type = KBLOOM_TYPE_DELETABLE;
	rec.version = KBLOOM_XDP_LAYOUT_VERSION;
	rec.k = p->shape.k;
	rec.hash_id = p->hash_id;
	rec.seed = p->seed;
	rec.nblocks = p->nblocks;
	rec.slot = p->slot;
	rec.id = id;
	rec.index = index;
	rec.gen = p->gen;
	rec.capacity = p->capacity;
	rec.fpr_pico = p->fpr_pico;
	return kbx_params_put(x, id, &rec, flags);
}

int kbx_mcast_del_port_add(struct kbloom_xdp *x, __u32 id, __u32 index,
			   const struct kbloom_xdp_geom *g)
{
	__u32 slot = index * KBLOOM_SLOTS_PER_FILTER;
	struct kbloom_del_params p;
	int ret;

	ret = kbx_del_geom(x, g, &p);
	if (ret)
		return ret;
	if (slot + 1 >= x->nslots)
		return -ENOSPC;
	ret = kbx_slot_fill(x, id, slot, p.nblocks, NULL, 0, 0);
	if (ret)
		return ret;
	p.slot = slot;
	p.gen = 1;
	ret = del_put(x, id, &p, BPF_NOEXIST);
	if (ret)
		goto err_slot;
	ret = kbx_filter_pin(x, id, x->slots[slot].fd);
	ret = ret ?: del_record(x, id, index, &p, BPF_NOEXIST);
	if (ret)
		goto err_params;
	return 0;
err_params:
	bpf_map_delete_elem(x->del_fd, &id);
err_slot:
	kbx_slot_drop(x, slot);
	return ret;
}

/* Port @id's record, its filter, then its slots after a grace period. */
int kbx_mcast_del_port_del(struct kbloom_xdp *x, __u32 id)
{
	struct kbloom_del_params p;
	int ret;

	kbx_params_del(x, id);
	ret = del_get(x, id, &p, NULL);
	if (ret)
		return ret;
	bpf_map_delete_elem(x->del_fd, &id);
	kbx_slots_release(x, id, p.slot);
	return 0;
}

/* ---- joins, leaves, rebuilds ------------------------------------------------- */

int kbx_mcast_del_join(struct kbloom_xdp *x, __u32 id, const void *key,
		       __u32 len)
{
	struct kbloom_del_params p;
	struct kbloom_del *f;
	struct kbx_blocks *b;
	int ret;

	ret = del_get(x, id, &p, &b);
	ret = ret ?: del_bind(&p, b->words, &f);
	if (ret)
		return ret;
	ret = kbloom_del_add(f, key, len);
	kbloom_del_destroy(f);
	if (ret)
		return ret;
	p.inserted++;
	p.built++;
	return del_put(x, id, &p, BPF_EXIST);
}

/*
 * The members of port @id (not the router key) added to @f (@missing:
 * only those @f does not hold yet): their number in *@n.
 */
static int del_fill(struct kbloom_xdp *x, __u32 id, struct kbloom_del *f,
		    int missing, __u64 *n)
{
	struct kbloom_member_key key, next;
	int ret;

	*n = 0;
	for (ret = bpf_map_get_next_key(x->exact_fd, NULL, &next); !ret;
	     ret = bpf_map_get_next_key(x->exact_fd, &key, &next)) {
		key = next;
		if (key.ifindex != id || key.len == KBLOOM_MEMBER_ROUTER_LEN)
			continue;
		if (missing && kbloom_del_test(f, key.addr, key.len) == 1)
			continue;
		ret = kbloom_del_add(f, key.addr, key.len);
		if (ret)
			return ret;
		(*n)++;
	}
	return 0;
}

/* A scratch array of @p's shape holding port @id's members. */
static int del_build(struct kbloom_xdp *x, __u32 id,
		     const struct kbloom_del_params *p, __u64 **wordsp,
		     __u64 *n)
{
	struct kbloom_del *f;
	__u64 *words;
	int ret;

	words = calloc(p->nwords, sizeof(*words));
	if (!words)
		return -ENOMEM;
	ret = del_bind(p, words, &f);
	if (!ret) {
		ret = del_fill(x, id, f, 0, n);
		kbloom_del_destroy(f);
	}
	if (ret) {
		free(words);
		return ret;
	}
	*wordsp = words;
	return 0;
}

/*
 * Port @id's filter rewritten in place from its members (same shape):
 * every body word goes to a subset of itself that holds every member's
 * bits, then the bitmap is the members' own.
 */
static int del_refill(struct kbloom_xdp *x, __u32 id,
		      struct kbloom_del_params *p, struct kbx_blocks *b)
{
	__u64 *words, n, i;
	int ret;

	ret = del_build(x, id, p, &words, &n);
	if (ret)
		return ret;
	for (i = 0; i < p->nwords; i++)
		__atomic_store_n(&b->words[i], words[i], __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	free(words);
	p->inserted = n;
	p->built = n;
	p->gen++;
	return 0;
}

/* The chance (1e-9) that a leave from @p's filter needs a rebuild. */
static __u64 del_rebuild_chance(const struct kbloom_del_params *p)
{
	double exact;

	if (kbloom_del_predict(p->shape.m, p->shape.k, p->shape.buckets,
			       p->built, NULL, &exact))
		return 0;
	return (__u64)((1.0 - exact) * 1e9 + 0.5);
}

/*
 * Group @k left (its membership is gone): deleted in place when it is
 * deletable, else the port's filter is rebuilt from the members left.
 * A filter that did not hold it forwards nothing more of it: logged.
 */
int kbx_mcast_del_leave(struct kbloom_xdp *x,
			const struct kbloom_member_key *k)
{
	struct kbloom_del_params p;
	struct kbloom_del *f;
	struct kbx_blocks *b;
	__u64 chance;
	int ret;

	ret = del_get(x, k->ifindex, &p, &b);
	ret = ret ?: del_bind(&p, b->words, &f);
	if (ret)
		return ret;
	chance = del_rebuild_chance(&p);
	ret = kbloom_del_delete(f, k->addr, k->len);
	kbloom_del_destroy(f);
	if (!ret) {
		kbx_log(x, "%s: the deletable filter of port %u did not hold the group",
			x->name, k->ifindex);
		return 0;
	}
	if (ret == 1) {
		p.deleted++;
		p.inserted -= p.inserted ? 1 : 0;
	} else if (ret == -ENOTUNIQ) {
		ret = del_refill(x, k->ifindex, &p, b);
		if (ret)
			return ret;
		p.rebuilds++;
	} else {
		return ret;
	}
	p.leaves++;
	p.predicted_nano += chance;
	return del_put(x, k->ifindex, &p, BPF_EXIST);
}

/*
 * Under the lock: port @id's filter (parameters @cur) replaced by @words
 * of parameters @np, filled into the idle slot and swapped in; the old
 * slot is emptied after a grace period.
 */
static int del_publish(struct kbloom_xdp *x, __u32 id,
		       const struct kbloom_del_params *cur,
		       struct kbloom_del_params *np, const __u64 *words)
{
	__u32 slot = cur->slot ^ 1;
	struct kbloom_params rec;
	int ret;

	ret = kbp_err(bpf_map_lookup_elem(x->params_fd, &id, &rec));
	ret = ret ?: kbx_slot_fill(x, id, slot, np->nblocks, words,
				   np->nwords, 0);
	if (ret)
		return ret;
	np->slot = slot;
	np->gen = cur->gen + 1;
	ret = del_put(x, id, np, BPF_EXIST);
	if (ret) {
		kbx_slot_drop(x, slot);
		return ret;
	}
	if (del_record(x, id, rec.index, np, BPF_EXIST))
		kbx_log(x, "%s: mc_params of port %u not updated", x->name, id);
	kbx_slot_retire(x, id, slot, cur->slot);
	return 0;
}

/* New parameters of geometry @geom for a port of @cur: its counts kept. */
static int del_regeom(struct kbloom_xdp *x, const struct kbloom_xdp_geom *geom,
		      const struct kbloom_del_params *cur,
		      struct kbloom_del_params *np)
{
	int ret = kbx_del_geom(x, geom, np);

	if (ret)
		return ret;
	np->leaves = cur->leaves;
	np->deleted = cur->deleted;
	np->rebuilds = cur->rebuilds;
	np->predicted_nano = cur->predicted_nano;
	return 0;
}

/*
 * Under the lock: port @id's filter rebuilt from its members into the
 * idle slot (@geom: re-planned; NULL: the same shape) and swapped in; the
 * counts of leaves stay, the collision bitmap starts afresh.
 */
int kbx_mcast_del_rebuild(struct kbloom_xdp *x, __u32 id,
			  const struct kbloom_xdp_geom *geom)
{
	struct kbloom_del_params cur, np;
	__u64 *words, n;
	int ret;

	ret = del_get(x, id, &cur, NULL);
	if (ret)
		return ret;
	np = cur;
	if (geom) {
		ret = del_regeom(x, geom, &cur, &np);
		if (ret)
			return ret;
	}
	ret = del_build(x, id, &np, &words, &n);
	if (ret)
		return ret;
	np.inserted = n;
	np.built = n;
	ret = del_publish(x, id, &cur, &np, words);
	free(words);
	return ret;
}

/* ---- images ------------------------------------------------------------------ */

/*
 * The port parameters of a verified deletable image @hd: its geometry
 * taken as a port's would be (kbx_del_geom()), its hash, counts and
 * planned (n, p); the port's counts of leaves kept.
 */
static int del_image_params(struct kbloom_xdp *x,
			    const struct kbloom_image_head *hd,
			    const struct kbloom_del_params *cur,
			    struct kbloom_del_params *np)
{
	struct kbloom_xdp_geom g = {
		.m = kb_le64(hd->h.m), .k = kb_le32(hd->h.k),
		.hash_id = hd->h.hash_id, .seed = kb_le64(hd->h.seed),
		.region_bits = (__u32)kb_le64(hd->g.buckets),
	};
	int ret;

	if (kb_le64(hd->g.buckets) > KB_DEL_REGION_MAX) {
		kbx_log(x, "%s: image region bits %llu: at most %u", x->name,
			(unsigned long long)kb_le64(hd->g.buckets),
			KB_DEL_REGION_MAX);
		return -EINVAL;
	}
	ret = del_regeom(x, &g, cur, np);
	if (ret)
		return ret;
	if (np->nwords * 8 != kb_le64(hd->h.payload_len)) {
		kbx_log(x, "%s: image of %llu payload bytes, %llu words for its shape",
			x->name, (unsigned long long)kb_le64(hd->h.payload_len),
			(unsigned long long)np->nwords);
		return -EINVAL;
	}
	np->capacity = kb_le64(hd->h.capacity);
	np->fpr_pico = kb_le64(hd->h.fpr_pico);
	np->inserted = kb_le64(hd->h.inserted);
	np->built = np->inserted;
	return 0;
}

/*
 * The words of image @img as port @id's filter of parameters @np, the
 * port's groups that the image lacks added (counted in @np).
 */
static int del_image_words(struct kbloom_xdp *x, __u32 id, const void *img,
			   struct kbloom_del_params *np, __u64 **wordsp)
{
	struct kbloom_del *f;
	__u64 *words, n = 0;
	int ret;

	words = calloc(np->nwords, sizeof(*words));
	if (!words)
		return -ENOMEM;
	kb_image_v3_words_in(img, words, np->nwords);
	ret = del_bind(np, words, &f);
	if (!ret) {
		ret = del_fill(x, id, f, 1, &n);
		kbloom_del_destroy(f);
	}
	if (ret) {
		free(words);
		return ret;
	}
	np->inserted += n;
	np->built += n;
	*wordsp = words;
	return 0;
}

static int del_load_locked(struct kbloom_xdp *x, __u32 id,
			   const struct kbloom_image_head *hd,
			   const void *img)
{
	struct kbloom_del_params cur, np;
	__u64 *words;
	int ret;

	ret = del_get(x, id, &cur, NULL);
	ret = ret ?: del_image_params(x, hd, &cur, &np);
	ret = ret ?: del_image_words(x, id, img, &np, &words);
	if (ret)
		return ret;
	ret = del_publish(x, id, &cur, &np, words);
	free(words);
	return ret;
}

/* ---- the calls of libkbloom_xdp.h ------------------------------------------- */

static int del_check(struct kbloom_xdp *x)
{
	if (!x)
		return -EINVAL;
	if (kbx_deletable(x) && x->del_fd >= 0)
		return 0;
	kbx_log(x, "%s: not an mcast switch of deletable ports (xdp attach mcast ... filter deletable)",
		x->name);
	return -EOPNOTSUPP;
}

int kbloom_xdp_del_test(struct kbloom_xdp *x, __u32 id, const void *key,
			__u32 len)
{
	struct kbloom_del_params p;
	struct kbloom_del *f;
	struct kbx_blocks *b;
	int ret;

	ret = del_check(x);
	ret = ret ?: del_get(x, id, &p, &b);
	ret = ret ?: del_bind(&p, b->words, &f);
	if (ret)
		return ret;
	ret = kbloom_del_test(f, key, len);
	kbloom_del_destroy(f);
	return ret;
}

int kbloom_xdp_del_load_image(struct kbloom_xdp *x, __u32 id,
			      const void *img, size_t len)
{
	struct kbloom_image_head hd;
	int ret;

	ret = del_check(x);
	if (ret || !img)
		return ret ?: -EINVAL;
	ret = kbx_may_fn_image(x, img, len);
	if (ret)
		return ret;
	ret = kb_image_verify_v3(img, len, KBLOOM_TYPE_DELETABLE, &hd);
	if (ret) {
		kbx_log(x, "%s: the image is not a valid deletable filter image (%s)",
			x->name, strerror(-ret));
		return ret;
	}
	ret = kbx_lock(x);
	if (ret)
		return ret;
	ret = del_load_locked(x, id, &hd, img);
	kbx_unlock(x);
	return ret;
}

int kbloom_xdp_del_save_image(struct kbloom_xdp *x, __u32 id, void **img,
			      size_t *len)
{
	static const char no_name[KBLOOM_NAME_LEN];
	struct kbloom_del_params p;
	struct kbx_blocks *b;
	struct kb_v3_one o;
	int ret;

	ret = del_check(x);
	if (ret || !img || !len)
		return ret ?: -EINVAL;
	ret = kbx_lock(x);
	if (ret)
		return ret;
	ret = del_get(x, id, &p, &b);
	if (!ret) {
		o = (struct kb_v3_one){
			.s = &p.shape, .hash_id = p.hash_id, .seed = p.seed,
			.capacity = p.capacity, .fpr_pico = p.fpr_pico,
			.inserted = p.inserted, .name = no_name,
			.words = b->words, .nwords = p.nwords,
		};
		ret = kb_image_v3_alloc_one(&o, img, len);
	}
	kbx_unlock(x);
	return ret;
}

int kbloom_xdp_del_info(struct kbloom_xdp *x, __u32 id,
			struct kbloom_xdp_del_info *info)
{
	struct kbloom_del_params *p;
	struct kbloom_del_stats st;
	struct kbloom_del *f;
	struct kbx_blocks *b;
	int ret;

	if (!info)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	p = &info->params;
	ret = del_check(x);
	ret = ret ?: del_get(x, id, p, &b);
	ret = ret ?: del_bind(p, b->words, &f);
	if (ret)
		return ret;
	kbloom_del_stats(f, &st);
	kbloom_del_destroy(f);
	info->ones = st.ones;
	info->collided = st.collided;
	info->n_est = st.n_est;
	info->fpr_now_pico = kb_del_fpr_pico(p->shape.m, p->shape.k,
					     p->inserted);
	if (p->leaves) {
		info->share_ppm = p->rebuilds * 1000000 / p->leaves;
		info->predicted_ppm = p->predicted_nano / 1000 / p->leaves;
	}
	info->bytes = (__u64)p->nblocks * sizeof(struct kbloom_block);
	return 0;
}
