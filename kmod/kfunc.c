// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko kfuncs: XDP programs query the module's named filters, the
 * same objects the ioctls fill, delete from and swap.
 *
 *   bpf_kbloom_get(name, name__sz)   the filter with a reference, or NULL
 *   bpf_kbloom_put(f)                drop it
 *   bpf_kbloom_test(f, key, key__sz) 1 possibly present, 0 absent, -EINVAL
 *   bpf_kbloom_stat(f, st, st__sz)   struct kbloom_kfunc_stat, 0/-EINVAL
 *   bpf_kbloom_test_id(id, key, key__sz)
 *                                    the test of the filter of that id:
 *                                    1, 0, -ENOENT, -EINVAL
 *
 * Lifetime: acquire/release with a reference, not an id checked per call.
 *
 *  - bpf_kbloom_get() is KF_ACQUIRE | KF_RET_NULL and bpf_kbloom_put() is
 *    KF_RELEASE: the verifier refuses a program that may return with the
 *    reference held or use it after the put, and a program cannot keep it
 *    across runs (no destructor is registered, so a map cannot hold it as
 *    a kptr).  A reference is held for one packet at most.
 *  - The reference is the registry's own (kb_filter_get(), the one
 *    lookup of the ioctls: RCU walk + refcount_inc_not_zero()), so DESTROY
 *    and RESTORE need nothing new: a filter unpublished while a program
 *    holds it stays valid until the put, and its last put frees it after
 *    a grace period (call_rcu(), fine in softirq).  A test of a destroyed
 *    filter therefore never touches freed memory: before the get the
 *    lookup answers NULL ("no filter"), after it the program still tests
 *    the filter it holds.
 *  - RESTORE with replace, and SWAP, rebind the name to another filter
 *    with one rcu_assign_pointer(): a get returns the old or the new
 *    filter (never NULL, see kb_filter_get()); RENAME binds the new name
 *    before it unbinds the old.  Every test made with that
 *    reference sees that one filter, so a packet that tests several keys
 *    never mixes the two.  An id checked per call would give no such
 *    guarantee between two calls.
 *  - It does not depend on the caller running under rcu_read_lock()
 *    (XDP does today, via NAPI/BH or BPF_PROG_TEST_RUN); the price is two
 *    atomics on the filter's refcount per get/put pair.
 *
 * bpf_kbloom_test_id() is the lookup without a name: the id is the one
 * KBLOOM_IOCTL_STAT, LIST and bpf_kbloom_stat() report, looked up in the
 * registry's id table (an xarray load) with no lock and no reference
 * taken: a BPF program runs in an RCU read-side section (XDP with BH
 * disabled in NAPI or under rcu_read_lock() for generic XDP and
 * BPF_PROG_TEST_RUN), which is what keeps the filter whole.  A blocked
 * filter is tested inline, the other types through kb_filter_test().  The
 * id names one filter object, not a name: after a RESTORE --replace or a
 * SWAP the name has another filter with another id (the old id answers
 * -ENOENT once that filter is unpublished; after a SWAP both ids stay
 * valid, each with its own filter).  A control plane that rebinds names
 * writes the new id where its program reads it; the shipped kfunc paths
 * also look the name up themselves when the id answers -ENOENT
 * (bpf/kbloom_kfunc_ref.h).  A filter destroyed during a call is still
 * whole until the call returns: the registry erases the id before it
 * drops its reference, and the last reference frees the filter a grace
 * period later.
 *
 * bpf_kbloom_test() and bpf_kbloom_stat() are KF_TRUSTED_ARGS: they only
 * take the unmodified pointer bpf_kbloom_get() returned.  The key is
 * tested by kb_filter_test(), the test of the ioctls, for every filter
 * type.  None of the kfuncs sleeps or takes a lock.
 *
 * Registered for BPF_PROG_TYPE_XDP only (devmap programs are XDP too); the
 * verifier refuses them to other program types with EACCES.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/string.h>

#include "kbloom_int.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_kfunc.h"
#include "uapi/kbloom_layout.h"
#include "kfunc_compat.h"

/**
 * bpf_kbloom_get() - look up a filter by name and take a reference
 * @name: 1..31 bytes, ended by a NUL or by @name__sz
 * @name__sz: bytes readable at @name
 *
 * Return: the filter, to be released with bpf_kbloom_put(); NULL when no
 * filter has that name or the name is empty or too long.
 */
__bpf_kfunc struct kb_filter *bpf_kbloom_get(const char *name, u32 name__sz)
{
	char key[KBLOOM_NAME_LEN] = {};
	size_t len;

	len = strnlen(name, name__sz);
	if (!len || len >= KBLOOM_NAME_LEN)
		return NULL;
	memcpy(key, name, len);
	return kb_filter_get(key);
}

/**
 * bpf_kbloom_put() - release a filter from bpf_kbloom_get()
 * @f: the filter
 */
__bpf_kfunc void bpf_kbloom_put(struct kb_filter *f)
{
	kb_filter_put(f);
}

/**
 * bpf_kbloom_test() - membership test of a key
 * @f: a filter from bpf_kbloom_get()
 * @key: the key
 * @key__sz: its length, 1..KBLOOM_KEY_MAX
 *
 * Return: 1 possibly present, 0 definitely absent, -EINVAL for a length
 * out of range.
 */
__bpf_kfunc int bpf_kbloom_test(struct kb_filter *f, const void *key,
				u32 key__sz)
{
	if (!key__sz || key__sz > KBLOOM_KEY_MAX)
		return -EINVAL;
	return kb_filter_test(f, key, key__sz);
}

/*
 * The blocked type's test, inline in bpf_kbloom_test_id(): the bits of
 * kb_blocked_test() (kb_block_mask(), kb_block_index() of
 * uapi/kbloom_layout.h) without the two calls of kb_filter_test(), folded
 * without a branch as the map-backed lookup folds them
 * (bpf/kbloom_bpf.h): one 64-bit load per word of the key's block.
 */
static __always_inline bool kb_kfunc_blocked(const struct kb_filter *f,
					     const void *key, u32 len)
{
	u64 h = kb_hash(f->g.hash_id, f->g.seed, key, len);
	u64 mask[KBLOOM_BLOCK_WORDS], missing = 0;
	const atomic64_t *blk;
	unsigned int i;

	kb_block_mask(h, f->g.k, mask);
	blk = f->words + (u64)kb_block_index(h, f->g.m / KBLOOM_BLOCK_BITS) *
			 KBLOOM_BLOCK_WORDS;
	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		missing |= mask[i] & ~(u64)atomic64_read(&blk[i]);
	return !missing;
}

/**
 * bpf_kbloom_test_id() - membership test of a key in the filter of an id
 * @id: the filter's id (KBLOOM_IOCTL_STAT, LIST, bpf_kbloom_stat())
 * @key: the key
 * @key__sz: its length, 1..KBLOOM_KEY_MAX
 *
 * The hot path of the kfunc paths, one call per packet: the id's filter
 * from kb_reg_by_id() (one xarray walk, no lock, no reference: the
 * program's own RCU read-side section keeps the filter), then a blocked
 * filter's test inline, every other type's through kb_filter_test().
 * The verifier has checked that @key__sz bytes are readable at @key;
 * only the range of the length is checked here.
 *
 * Return: 1 possibly present, 0 definitely absent, -ENOENT when no
 * published filter has that id, -EINVAL for a length out of range.
 */
__bpf_kfunc int bpf_kbloom_test_id(u32 id, const void *key, u32 key__sz)
{
	const struct kb_filter *f;

	if (unlikely(key__sz - 1 >= KBLOOM_KEY_MAX))
		return -EINVAL;
	f = kb_reg_by_id(id);
	if (unlikely(!f))
		return -ENOENT;
	if (likely(f->g.type == KBLOOM_TYPE_BLOCKED))
		return kb_kfunc_blocked(f, key, key__sz);
	return kb_filter_test(f, key, key__sz);
}

/**
 * bpf_kbloom_stat() - the filter's geometry and counters
 * @f: a filter from bpf_kbloom_get()
 * @st: out
 * @st__sz: bytes at @st, at least sizeof(struct kbloom_kfunc_stat); bytes
 *          beyond it are zeroed (room for later fields)
 *
 * Return: 0, or -EINVAL when @st__sz is too small.
 */
__bpf_kfunc int bpf_kbloom_stat(struct kb_filter *f,
				struct kbloom_kfunc_stat *st, u32 st__sz)
{
	const struct kb_geom *g = &f->g;

	if (st__sz < sizeof(*st))
		return -EINVAL;
	memset(st, 0, st__sz);
	st->id = f->id;
	st->type = g->type;
	st->k = g->k;
	st->hash_id = g->hash_id;
	st->counter_bits = g->counter_bits;
	st->m = g->m;
	st->bytes = f->bytes;
	st->capacity = g->capacity;
	st->fpr_pico = g->fpr_pico;
	st->inserted = kb_filter_inserted(f);
	st->saturations = atomic64_read(&f->saturations);
	return 0;
}

#ifdef KBLOOM_NO_KFUNCS
/*
 * Built without BTF (make says why: no BTF of the target kernel was at
 * hand): the kfuncs above exist but are not registered, since the kernel
 * would refuse them ("missing module BTF").  modinfo and the kernel log
 * say so; the ioctls are unchanged.
 */
MODULE_INFO(kfuncs, "no (built without BTF: XDP programs cannot call bpf_kbloom_*)");

int kb_kfunc_init(void)
{
	pr_info("built without BTF: no kfuncs (XDP programs cannot call bpf_kbloom_*)\n");
	return 0;
}
#else
MODULE_INFO(kfuncs, "yes");

BTF_KFUNCS_START(kb_kfunc_ids)
BTF_ID_FLAGS(func, bpf_kbloom_get, KF_ACQUIRE | KF_RET_NULL)
BTF_ID_FLAGS(func, bpf_kbloom_put, KF_RELEASE)
BTF_ID_FLAGS(func, bpf_kbloom_test, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpf_kbloom_stat, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpf_kbloom_test_id)
BTF_KFUNCS_END(kb_kfunc_ids)

static const struct btf_kfunc_id_set kb_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &kb_kfunc_ids,
};

/*
 * Without module BTF the kernel logs "missing module BTF, cannot register
 * kfuncs" and returns 0: the ioctls work, XDP programs cannot load
 * (/sys/kernel/btf/kbloom is absent; the kmod suite reports it).
 */
int kb_kfunc_init(void)
{
	return register_btf_kfunc_id_set(BPF_PROG_TYPE_XDP, &kb_kfunc_set);
}
#endif /* KBLOOM_NO_KFUNCS */
