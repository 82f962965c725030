// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the gate's batches (kbloom_gate_add_batch(),
 * kbloom_gate_del_batch()), all or nothing as the module's batches.
 *
 * Adding more than GB_PROBE_MAX keys: the loader program enters them in
 * the exact map from inside the kernel with BPF_NOEXIST (gate_load.c),
 * which finds the addresses in the set already or twice in the batch;
 * they are skipped (KBLOOM_GATE_BATCH_EXIST) or fail the batch, as does
 * a full map, and what it entered is deleted again.  Where that program
 * cannot run, and for small batches, the exact map changes through
 * BPF_MAP_UPDATE_BATCH (one system call for up to GB_CHUNK keys): that
 * has no BPF_NOEXIST, so the set is read first (BPF_MAP_LOOKUP_BATCH;
 * small batches look their keys up one by one instead) and a table of
 * keys says which are in it already or twice in the batch, before
 * anything changed.  Deleting (BPF_MAP_DELETE_BATCH) stops at the first
 * key not in the set and says how many went: that key is skipped, or the
 * batch ends and its done keys are entered again.  Filter 0 (blocked: the
 * map and kfunc variants) then gets the new keys' bits through its
 * mmapped blocks map and its parameters once; a kfunc gate's module
 * filter and a cuckoo filter go key by key (kbx_module_keys(),
 * kbx_cuckoo_keys()), undone on a failure.  So 8M addresses load in
 * seconds where kbloom_gate_add() per address takes a system call or
 * three each.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_xdp_maps.h"
#include "libkbloom_dev.h"
#include "gate_load.h"
#include "kinds.h"
#include "xdp_priv.h"

#define GB_CHUNK	65536U

struct gb {
	struct kbloom_xdp *x;
	const struct kbloom_addr_key *keys;
	__u32 n;
	bool exist;		/* KBLOOM_GATE_BATCH_EXIST */
	bool add;
	bool *done;		/* keys this batch changed in the exact map */
	__u32 ndone;
	__u32 *failed;
	struct kbloom_params p;	/* a blocked filter's, for gb_bits() */
	struct kbx_blocks *blk;
};

static int gb_key_ok(const struct kbloom_addr_key *k)
{
	__u32 i;

	if (k->len != KBLOOM_ADDR4_LEN && k->len != KBLOOM_ADDR6_LEN)
		return 0;
	for (i = k->len; i < sizeof(k->addr); i++)
		if (k->addr[i])
			return 0;
	return 1;
}

/*
 * The keys of the set before the batch, and a table of key indices
 * (0..nold-1: old keys, nold + i: key i of the batch) to find which keys
 * of the batch are in the set already or twice in it: the kernel's batch
 * update has no BPF_NOEXIST.  A small batch (GB_PROBE_MAX) looks its keys
 * up one by one instead of reading a set of millions; the map then says
 * when it is full (E2BIG).
 */
struct gb_tab {
	struct kbloom_addr_key *old;
	__u32 nold;
	__u32 *slot;
	__u32 mask;
};

#define GB_EMPTY	0xffffffffU
/* batches up to this size look their keys up instead of reading the set */
#define GB_PROBE_MAX	4096U

static const struct kbloom_addr_key *gb_at(const struct gb *b,
					   const struct gb_tab *t, __u32 idx)
{
	return idx < t->nold ? &t->old[idx] : &b->keys[idx - t->nold];
}

/* Enter index @idx; return the index of an equal key, or GB_EMPTY. */
static __u32 gb_tab_put(const struct gb *b, struct gb_tab *t, __u32 idx)
{
	const struct kbloom_addr_key *k = gb_at(b, t, idx);
	__u64 i = kb_hash(KBLOOM_HASH_FAST, 0, k, sizeof(*k));

	for (i &= t->mask;; i = (i + 1) & t->mask) {
		if (t->slot[i] == GB_EMPTY) {
			t->slot[i] = idx;
			return GB_EMPTY;
		}
		if (!memcmp(gb_at(b, t, t->slot[i]), k, sizeof(*k)))
			return t->slot[i];
	}
}

/* The keys of the exact map into @t->old (BPF_MAP_LOOKUP_BATCH). */
static int gb_dump(struct gb *b, struct gb_tab *t, __u32 max)
{
	__u32 *vals, cnt, token, n = 0;
	void *in = NULL;
	int ret = 0;

	t->old = calloc(max ? max : 1, sizeof(*t->old));
	vals = calloc(max ? max : 1, sizeof(*vals));
	if (!t->old || !vals) {
		free(vals);
		return -ENOMEM;
	}
	while (n < max) {
		cnt = max - n;
		ret = kbp_err(bpf_map_lookup_batch(b->x->exact_fd, in, &token,
						   &t->old[n], &vals[n], &cnt,
						   NULL));
		n += cnt;
		in = &token;
		if (ret)
			break;
	}
	t->nold = n;
	free(vals);
	return ret == -ENOENT ? 0 : ret;
}

/*
 * Which keys of the batch are new (b->done), or -EEXIST at *failed; a
 * key in the set or twice in the batch is skipped with
 * KBLOOM_GATE_BATCH_EXIST.
 */
static int gb_new_keys(struct gb *b, struct gb_tab *t, __u32 max)
{
	bool probe = b->n <= GB_PROBE_MAX;
	__u64 size = 2;
	__u32 i, v;
	int ret;

	ret = probe ? 0 : gb_dump(b, t, max);
	if (ret)
		return ret;
	while (size < 2ULL * (t->nold + (__u64)b->n))
		size <<= 1;
	t->mask = (__u32)(size - 1);
	t->slot = malloc(size * sizeof(*t->slot));
	if (!t->slot)
		return -ENOMEM;
	memset(t->slot, 0xff, size * sizeof(*t->slot));
	for (i = 0; i < t->nold; i++)
		gb_tab_put(b, t, i);
	for (i = 0; i < b->n; i++) {
		if (gb_tab_put(b, t, t->nold + i) == GB_EMPTY &&
		    (!probe || bpf_map_lookup_elem(b->x->exact_fd, &b->keys[i],
						   &v))) {
			b->done[i] = true;
			b->ndone++;
		} else if (!b->exist) {
			*b->failed = i;
			return -EEXIST;
		}
	}
	return 0;
}

/* A share of the new keys for the exact map, entered by one thread. */
struct gb_part {
	int fd;
	const struct kbloom_addr_key *keys;
	__u32 n;
	const __u32 *one;
	__u32 put;
	int ret;
};

/* Enter @arg's keys in batches of GB_CHUNK. */
static void *gb_part_enter(void *arg)
{
	struct gb_part *pt = arg;
	__u32 cnt;

	pt->ret = 0;
	while (!pt->ret && pt->put < pt->n) {
		cnt = pt->n - pt->put < GB_CHUNK ? pt->n - pt->put : GB_CHUNK;
		pt->ret = kbp_err(bpf_map_update_batch(pt->fd,
						       &pt->keys[pt->put],
						       pt->one, &cnt, NULL));
		pt->put += cnt;
	}
	return NULL;
}

/*
 * Enter @n keys, half of a large batch by a second thread (the hash
 * map's buckets have their own locks; its inserts are cache misses).
 * *@put: the keys entered before a failure, when one thread entered all.
 */
static int gb_enter_keys(struct gb *b, const struct kbloom_addr_key *keys,
			 __u32 n, const __u32 *one, __u32 *put)
{
	struct gb_part pt[2] = {
		{ b->x->exact_fd, keys, n / 2, one, 0, 0 },
		{ b->x->exact_fd, keys + n / 2, n - n / 2, one, 0, 0 },
	};
	pthread_t th;
	int two = n >= 2 * GB_CHUNK;

	if (!two) {
		pt[0].n = 0;
		pt[1].keys = keys;
		pt[1].n = n;
	} else if (pthread_create(&th, NULL, gb_part_enter, &pt[0])) {
		gb_part_enter(&pt[0]);
		two = 0;
	}
	gb_part_enter(&pt[1]);
	if (two)
		pthread_join(th, NULL);
	*put = two ? n : pt[1].put;
	return pt[0].ret ?: pt[1].ret;
}

/* Enter the new keys: -ENOSPC when they do not fit. */
static int gb_exact_enter(struct gb *b, struct gb_tab *t, __u32 max,
			  const __u32 *one)
{
	const struct kbloom_addr_key *keys = b->keys;
	struct kbloom_addr_key *packed = NULL;
	__u32 i, j = 0, put;
	int ret;

	if (t->nold + (__u64)b->ndone > max) {
		for (i = 0; i < b->n && j <= max - t->nold; i++)
			j += b->done[i];
		*b->failed = i - 1;
		return -ENOSPC;
	}
	if (b->ndone < b->n) {
		packed = malloc((size_t)b->ndone * sizeof(*packed) + 1);
		if (!packed)
			return -ENOMEM;
		for (i = 0; i < b->n; i++)
			if (b->done[i])
				packed[j++] = b->keys[i];
		keys = packed;
	}
	ret = gb_enter_keys(b, keys, b->ndone, one, &put);
	free(packed);
	if (!ret)
		return 0;
	*b->failed = b->n;
	for (i = 0, j = 0; put < b->ndone && i < b->n; i++)
		if (b->done[i] && j++ == put)
			*b->failed = i;	/* the key the map refused */
	return ret == -E2BIG ? -ENOSPC : ret;
}

/*
 * Filter 0 is a blocked filter: the map and kfunc variants (a kfunc
 * gate's record of the set, beside its module filter).
 */
static bool gb_blocked(const struct gb *b)
{
	return b->x->variant != KBLOOM_XDP_VARIANT_CUCKOO;
}

/* How many keys ahead gb_bits() hashes a key and prefetches its block. */
#define GB_AHEAD	16U

/*
 * Set the bits of hash @h in the blocks: plain loads and stores of each
 * word (one writer: the instance lock is held; the programs only read).
 */
static void gb_bits_set(struct gb *b, __u64 h)
{
	__u64 *w = b->blk->words + (__u64)kb_block_index(h, b->p.nblocks) *
		   KBLOOM_BLOCK_WORDS;
	__u64 mask[KBLOOM_BLOCK_WORDS], v;
	__u32 i;

	kb_block_mask(h, b->p.k, mask);
	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++) {
		if (!mask[i])
			continue;
		v = __atomic_load_n(&w[i], __ATOMIC_RELAXED);
		__atomic_store_n(&w[i], v | mask[i], __ATOMIC_RELAXED);
	}
}

/*
 * Set the bits of the keys the batch entered, each hashed GB_AHEAD keys
 * ahead and its block prefetched, so that the blocks' cache misses
 * overlap.
 */
static void gb_bits(struct gb *b)
{
	const struct kbloom_addr_key *k;
	__u64 h[GB_AHEAD];
	__u32 i, j = 0, n = 0;

	for (i = 0; i < b->n; i++) {
		if (!b->done[i])
			continue;
		if (n - j == GB_AHEAD)
			gb_bits_set(b, h[j++ % GB_AHEAD]);
		k = &b->keys[i];
		h[n % GB_AHEAD] = kb_hash(b->p.hash_id, b->p.seed, k->addr,
					  k->len);
		__builtin_prefetch(b->blk->words +
				   (__u64)kb_block_index(h[n % GB_AHEAD],
							 b->p.nblocks) *
				   KBLOOM_BLOCK_WORDS, 1);
		n++;
	}
	while (j < n)
		gb_bits_set(b, h[j++ % GB_AHEAD]);
}

/* The set's keys read, then BPF_MAP_UPDATE_BATCH (no loader program). */
static int gb_exact_add_update(struct gb *b, const __u32 *one)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	struct gb_tab t = { 0 };
	int ret;

	ret = kbp_err(bpf_obj_get_info_by_fd(b->x->exact_fd, &info, &len));
	ret = ret ?: gb_new_keys(b, &t, info.max_entries);
	ret = ret ?: gb_exact_enter(b, &t, info.max_entries, one);
	free(t.old);
	free(t.slot);
	return ret;
}

/*
 * Add the keys to the exact map with the loader program (gate_load.c),
 * else (a small batch, or no loader program here) by batch updates.
 */
static int gb_exact_add(struct gb *b, const __u32 *one)
{
	struct kbx_gate_enter e = {
		.exact_fd = b->x->exact_fd, .keys = b->keys, .n = b->n,
		.exist = b->exist, .done = b->done,
	};
	int ret;

	ret = b->n > GB_PROBE_MAX ? kbx_gate_enter(&e) : 1;
	if (ret == 1)
		return gb_exact_add_update(b, one);
	b->ndone = e.ndone;
	if (ret)
		*b->failed = e.failed;
	return ret;
}

/*
 * Delete the keys, in batches of GB_CHUNK: every key deleted or skipped,
 * or -errno at *failed.
 */
static int gb_exact_del(struct gb *b)
{
	__u32 i = 0, cnt, j;
	int ret;

	while (i < b->n) {
		cnt = b->n - i < GB_CHUNK ? b->n - i : GB_CHUNK;
		ret = kbp_err(bpf_map_delete_batch(b->x->exact_fd, &b->keys[i],
						   &cnt, NULL));
		for (j = 0; j < cnt; j++)
			b->done[i + j] = true;
		b->ndone += cnt;
		i += cnt;
		if (!ret)
			continue;
		if (ret == -ENOENT && b->exist) {
			i++;		/* the key at i: skipped */
			continue;
		}
		*b->failed = i;
		return ret;
	}
	return 0;
}

/* Delete the keys an add entered, GB_CHUNK a call; 0 or -errno. */
static int gb_undo_add(struct gb *b)
{
	struct kbloom_addr_key *k;
	__u32 i, j = 0, at, cnt;
	int ret = 0;

	k = malloc((size_t)b->ndone * sizeof(*k) + 1);
	if (!k)
		return -ENOMEM;
	for (i = 0; i < b->n; i++)
		if (b->done[i])
			k[j++] = b->keys[i];
	for (at = 0; !ret && at < j; at += cnt) {
		cnt = j - at < GB_CHUNK ? j - at : GB_CHUNK;
		ret = kbp_err(bpf_map_delete_batch(b->x->exact_fd, &k[at],
						   &cnt, NULL));
	}
	free(k);
	return ret;
}

/* Undo the exact map changes of this batch. */
static void gb_exact_undo(struct gb *b)
{
	__u32 i, one = 1;

	if (b->add && !gb_undo_add(b))
		return;
	for (i = 0; i < b->n; i++) {
		if (!b->done[i])
			continue;
		if (b->add)
			bpf_map_delete_elem(b->x->exact_fd, &b->keys[i]);
		else
			bpf_map_update_elem(b->x->exact_fd, &b->keys[i], &one,
					    BPF_NOEXIST);
	}
}

/* A blocked filter: the new keys' bits, then its parameters. */
static int gb_blocked_add(struct gb *b)
{
	int ret;

	ret = kbx_filter_get(b->x, 0, &b->p);
	ret = ret ?: kbx_filter_blocks(b->x, &b->p, &b->blk);
	if (ret)
		return ret;
	gb_bits(b);
	b->p.inserted += b->ndone;
	return kbp_err(bpf_map_update_elem(b->x->params_fd, &(__u32){ 0 },
					   &b->p, BPF_EXIST));
}

/* One key of the module filter (kfunc) or the cuckoo filter. */
static int gb_filter_one(struct gb *b, __u32 i, int add)
{
	const struct kbloom_addr_key *k = &b->keys[i];

	if (kbx_kfunc(b->x))
		return kbx_module_keys(b->x, 0, add ? KBLOOM_IOCTL_ADD :
				       KBLOOM_IOCTL_DEL, k->addr, k->len);
	return kbx_cuckoo_keys(b->x, 0, add, k->addr, k->len);
}

/*
 * The kfunc and cuckoo filters, key by key.  Deleting: a failure is
 * ignored (the exact map has the last word, as in kbloom_gate_del()).
 */
static int gb_filter_keys(struct gb *b)
{
	__u32 i, j;
	int ret;

	for (i = 0; i < b->n; i++) {
		if (!b->done[i])
			continue;
		ret = gb_filter_one(b, i, b->add);
		if (!ret || !b->add)
			continue;
		*b->failed = i;
		for (j = 0; j < i; j++)
			if (b->done[j])
				gb_filter_one(b, j, 0);
		return ret;
	}
	return 0;
}

/*
 * The filters after the exact map: the module filter of a kfunc gate or
 * the cuckoo filter key by key, then filter 0's parameters (its bits are
 * set by gb_bits()).
 */
static int gb_filter(struct gb *b)
{
	int ret = 0;

	if (!b->ndone)
		return 0;
	if (kbx_kfunc(b->x) || !gb_blocked(b))
		ret = gb_filter_keys(b);
	if (!ret && b->add && gb_blocked(b))
		ret = gb_blocked_add(b);
	return ret;
}

static int gb_run(struct gb *b)
{
	__u32 *one;
	__u32 i;
	int ret;

	for (i = 0; i < b->n; i++)
		if (!gb_key_ok(&b->keys[i])) {
			*b->failed = i;
			return -EINVAL;
		}
	b->done = calloc(b->n ? b->n : 1, sizeof(*b->done));
	one = calloc(b->n < GB_CHUNK ? b->n + 1 : GB_CHUNK, sizeof(*one));
	if (!b->done || !one) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < (b->n < GB_CHUNK ? b->n : GB_CHUNK); i++)
		one[i] = 1;
	ret = kbx_lock(b->x);
	if (ret)
		goto out_free;
	ret = b->add ? gb_exact_add(b, one) : gb_exact_del(b);
	ret = ret ?: gb_filter(b);
	if (ret)
		gb_exact_undo(b);
	kbx_unlock(b->x);
out_free:
	free(one);
	free(b->done);
	return ret;
}

static int gb_batch(struct kbloom_xdp *x, const struct kbloom_addr_key *keys,
		    __u32 n, __u32 flags, __u32 *failed, bool add)
{
	struct gb b = {
		.x = x, .keys = keys, .n = n, .add = add,
		.exist = flags & KBLOOM_GATE_BATCH_EXIST,
	};
	__u32 dummy;

	b.failed = failed ? failed : &dummy;
	*b.failed = n;
	if (!x || x->inst->ops != &kbx_gate_ops || (n && !keys) ||
	    (flags & ~KBLOOM_GATE_BATCH_EXIST))
		return -EINVAL;
	return gb_run(&b);
}

int kbloom_gate_add_batch(struct kbloom_xdp *x,
			  const struct kbloom_addr_key *keys, __u32 n,
			  __u32 flags, __u32 *failed)
{
	return gb_batch(x, keys, n, flags, failed, true);
}

int kbloom_gate_del_batch(struct kbloom_xdp *x,
			  const struct kbloom_addr_key *keys, __u32 n,
			  __u32 flags, __u32 *failed)
{
	return gb_batch(x, keys, n, flags, failed, false);
}
