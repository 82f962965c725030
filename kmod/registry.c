// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko registry: filter names -> filter objects.
 *
 * A name is a binding (struct kb_bind): a node of a hash table of RCU
 * hlists that points, through an RCU pointer, to the filter it names.
 * Lookups walk the table under rcu_read_lock(), read the binding's filter
 * and take a reference with refcount_inc_not_zero(); writers (publish,
 * replace, swap, rename, unpublish) hold kb_reg_lock, which also guards
 * the limits and the byte accounting.  The registry owns one reference of
 * every bound filter; a binding is freed after an RCU grace period.
 *
 * Names and filters are apart so that a name can be rebound without being
 * absent: RESTORE --replace and SWAP store another filter into the same
 * binding (rcu_assign_pointer()), RENAME adds the new binding before it
 * deletes the old one.  f->name is the name the filter was created or
 * restored under, read only to publish it; the binding holds the current
 * one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>

#include "kbloom_int.h"

#define KB_HASH_BITS	8

struct kb_bind {
	struct hlist_node node;
	struct kb_filter __rcu *f;
	struct rcu_head rcu;
	char name[KBLOOM_NAME_LEN];	/* NUL-padded, never changes */
};

static DEFINE_HASHTABLE(kb_names, KB_HASH_BITS);
static DEFINE_MUTEX(kb_reg_lock);
static u32 kb_nr_filters;	/* published filters, under kb_reg_lock */
static u64 kb_total_bytes;	/* their array bytes, under kb_reg_lock */
/*
 * Published filters by id (kb_reg_by_id(), the kfunc bpf_kbloom_test_id()):
 * ids from 1 up, cyclic, never two live filters with one id.  Stores and
 * erases under kb_reg_lock, loads under rcu_read_lock().
 */
static DEFINE_XARRAY_ALLOC1(kb_ids);
static u32 kb_next_id;		/* under kb_reg_lock */

static u32 kb_name_hash(const char *name)
{
	return jhash(name, strnlen(name, KBLOOM_NAME_LEN), 0);
}

/* Under rcu_read_lock() or kb_reg_lock. */
static struct kb_bind *kb_lookup(const char *name)
{
	struct kb_bind *b;

	hash_for_each_possible_rcu(kb_names, b, node, kb_name_hash(name),
				   lockdep_is_held(&kb_reg_lock))
		if (!strncmp(b->name, name, KBLOOM_NAME_LEN))
			return b;
	return NULL;
}

/* The filter of binding @b, under kb_reg_lock. */
static struct kb_filter *kb_bound(struct kb_bind *b)
{
	return rcu_dereference_protected(b->f, lockdep_is_held(&kb_reg_lock));
}

/* A new binding of @name to @f (not yet in the table), or NULL. */
static struct kb_bind *kb_bind_alloc(const char *name, struct kb_filter *f)
{
	struct kb_bind *b = kzalloc(sizeof(*b), KB_GFP);

	if (!b)
		return NULL;
	memcpy(b->name, name, KBLOOM_NAME_LEN);
	RCU_INIT_POINTER(b->f, f);
	return b;
}

/* Walks of one name in kb_filter_get() (see there). */
#define KB_GET_TRIES	8

/*
 * The filter named @name with a reference, or NULL when there is none.
 *
 * Lock-free: an RCU walk, an rcu_dereference() of the binding and
 * refcount_inc_not_zero().  A walk racing with RESTORE --replace can read
 * the old filter after the registry dropped its reference (kb_reg_replace()
 * puts the old filter after the rebinding), although the new one is
 * already bound: its refcount is zero.  That refcount reached zero only
 * after rcu_assign_pointer() stored the new filter (the registry holds a
 * reference while a filter is bound, and refcount_dec_and_test() orders
 * the store before the decrement), so having read it as zero, a second
 * walk finds the new filter: the name never looks absent to an ioctl or a
 * kfunc while it is being replaced.  SWAP drops no reference (both filters
 * stay bound), so the first read succeeds with the old or the new filter;
 * RENAME binds the new name before it unbinds the old one.  DESTROY
 * unbinds the name, and the second walk answers NULL.  Every failed try
 * means a whole RESTORE (allocation, copy, publish) ended within one
 * bucket walk; the bound only matters if that keeps happening, and keeps
 * the walk finite in softirq (the kfuncs).
 */
struct kb_filter *kb_filter_get(const char *name)
{
	struct kb_filter *f;
	struct kb_bind *b;
	int i;

	for (i = 0; i < KB_GET_TRIES; i++) {
		rcu_read_lock();
		b = kb_lookup(name);
		f = b ? rcu_dereference(b->f) : NULL;
		if (f && refcount_inc_not_zero(&f->ref)) {
			rcu_read_unlock();
			return f;
		}
		rcu_read_unlock();
		if (!f)
			return NULL;
		/* order the failed refcount read before the next walk */
		smp_rmb();
	}
	return NULL;
}

void kb_filter_put(struct kb_filter *f)
{
	if (refcount_dec_and_test(&f->ref))
		kb_filter_free(f);
}

/* Room for a filter of @bytes, replacing one of @old_bytes (or none). */
static int kb_reg_room(const char *name, u64 bytes, bool adds, u64 old_bytes)
{
	if (adds && kb_nr_filters >= kb_max_filters) {
		pr_info_ratelimited("filter %s: max_filters (%u) reached\n",
				    name, kb_max_filters);
		return -ENOSPC;
	}
	if (kb_total_bytes - old_bytes + bytes > kb_max_total_bytes) {
		pr_info_ratelimited("filter %s: max_total_bytes (%llu) reached\n",
				    name, kb_max_total_bytes);
		return -ENOSPC;
	}
	return 0;
}

static int kb_reg_account(struct kb_filter *f)
{
	int ret;

	ret = xa_alloc_cyclic(&kb_ids, &f->id, f, xa_limit_32b, &kb_next_id,
			      GFP_KERNEL);
	if (ret < 0)
		return ret;
	kb_nr_filters++;
	kb_total_bytes += f->bytes;
	kb_filter_arm(f);
	return 0;
}

static void kb_reg_unaccount(struct kb_filter *f)
{
	kb_filter_disarm(f);
	xa_erase(&kb_ids, f->id);
	kb_nr_filters--;
	kb_total_bytes -= f->bytes;
}

/*
 * Publish @f under its name; the registry takes over the caller's
 * reference.  Return: 0; -EEXIST with *@dup set to the filter of that
 * name (a new reference) when @dup is not NULL; -ENOSPC; -ENOMEM.
 */
int kb_reg_publish(struct kb_filter *f, struct kb_filter **dup)
{
	struct kb_bind *b, *old;
	int ret;

	b = kb_bind_alloc(f->name, f);
	if (!b)
		return -ENOMEM;
	mutex_lock(&kb_reg_lock);
	old = kb_lookup(f->name);
	if (old) {
		if (dup) {
			*dup = kb_bound(old);
			refcount_inc(&(*dup)->ref);
		}
		ret = -EEXIST;
		goto out_unlock;
	}
	ret = kb_reg_room(f->name, f->bytes, true, 0);
	if (ret)
		goto out_unlock;
	ret = kb_reg_account(f);
	if (ret)
		goto out_unlock;
	hash_add_rcu(kb_names, &b->node, kb_name_hash(b->name));
	b = NULL;
out_unlock:
	mutex_unlock(&kb_reg_lock);
	kfree(b);
	return ret;
}

/*
 * Rebind @b from its filter to @f.  Return: the old filter (its
 * reference), or an ERR_PTR() with nothing changed.
 */
static struct kb_filter *kb_rebind(struct kb_bind *b, struct kb_filter *f)
{
	struct kb_filter *old = kb_bound(b);
	int ret;

	ret = kb_reg_account(f);
	if (ret)
		return ERR_PTR(ret);
	kb_reg_unaccount(old);
	rcu_assign_pointer(b->f, f);
	return old;
}

/*
 * Publish @f, atomically replacing the filter of the same name if there is
 * one: a concurrent lookup finds the old or the new filter.
 */
int kb_reg_replace(struct kb_filter *f)
{
	struct kb_filter *old = NULL;
	struct kb_bind *b, *nb;
	int ret;

	nb = kb_bind_alloc(f->name, f);
	if (!nb)
		return -ENOMEM;
	mutex_lock(&kb_reg_lock);
	b = kb_lookup(f->name);
	ret = kb_reg_room(f->name, f->bytes, !b, b ? kb_bound(b)->bytes : 0);
	if (ret)
		goto out_unlock;
	if (b) {
		old = kb_rebind(b, f);
		if (IS_ERR(old)) {
			ret = PTR_ERR(old);
			old = NULL;
		}
	} else {
		ret = kb_reg_account(f);
		if (ret)
			goto out_unlock;
		hash_add_rcu(kb_names, &nb->node, kb_name_hash(nb->name));
		nb = NULL;
	}
out_unlock:
	mutex_unlock(&kb_reg_lock);
	kfree(nb);
	if (old)
		kb_filter_put(old);
	return ret;
}

/*
 * Exchange the filters of @a and @b (both valid, different names).  No
 * reference moves: each filter stays bound, under the other name, so a
 * lookup of either name finds the old or the new filter at once.
 * Return: 0 or -ENOENT.
 */
int kb_reg_swap(const char *a, const char *b)
{
	struct kb_bind *ba, *bb;
	struct kb_filter *fa;
	int ret = -ENOENT;

	mutex_lock(&kb_reg_lock);
	ba = kb_lookup(a);
	bb = kb_lookup(b);
	if (!ba || !bb)
		goto out_unlock;
	fa = kb_bound(ba);
	rcu_assign_pointer(ba->f, kb_bound(bb));
	rcu_assign_pointer(bb->f, fa);
	ret = 0;
out_unlock:
	mutex_unlock(&kb_reg_lock);
	return ret;
}

/*
 * Bind the filter of @from to the unused name @to, then unbind @from (in
 * that order: a lookup of @from finds the filter until it is renamed).
 * Return: 0, -ENOENT, -EEXIST or -ENOMEM.
 */
int kb_reg_rename(const char *from, const char *to)
{
	struct kb_bind *b, *nb;
	int ret;

	nb = kb_bind_alloc(to, NULL);
	if (!nb)
		return -ENOMEM;
	mutex_lock(&kb_reg_lock);
	b = kb_lookup(from);
	ret = -ENOENT;
	if (!b)
		goto out_unlock;
	ret = -EEXIST;
	if (kb_lookup(to))
		goto out_unlock;
	RCU_INIT_POINTER(nb->f, kb_bound(b));
	hash_add_rcu(kb_names, &nb->node, kb_name_hash(nb->name));
	hash_del_rcu(&b->node);
	kfree_rcu(b, rcu);
	nb = NULL;
	ret = 0;
out_unlock:
	mutex_unlock(&kb_reg_lock);
	kfree(nb);
	return ret;
}

/* Unbind @b; Return: its filter, whose reference the caller puts. */
static struct kb_filter *kb_reg_remove(struct kb_bind *b)
{
	struct kb_filter *f = kb_bound(b);

	hash_del_rcu(&b->node);
	kfree_rcu(b, rcu);
	kb_reg_unaccount(f);
	return f;
}

/* Unpublish the filter named @name.  Return: 0 or -ENOENT. */
int kb_reg_unpublish(const char *name)
{
	struct kb_filter *f = NULL;
	struct kb_bind *b;

	mutex_lock(&kb_reg_lock);
	b = kb_lookup(name);
	if (b)
		f = kb_reg_remove(b);
	mutex_unlock(&kb_reg_lock);
	if (!f)
		return -ENOENT;
	kb_filter_put(f);
	return 0;
}

/* The last put only queues an RCU callback: fine under kb_reg_lock. */
void kb_reg_unpublish_all(void)
{
	struct hlist_node *tmp;
	struct kb_bind *b;
	int bkt;

	mutex_lock(&kb_reg_lock);
	hash_for_each_safe(kb_names, bkt, tmp, b, node)
		kb_filter_put(kb_reg_remove(b));
	mutex_unlock(&kb_reg_lock);
}

void kb_reg_flush_all(void)
{
	struct kb_bind *b;
	int bkt;

	mutex_lock(&kb_reg_lock);
	hash_for_each(kb_names, bkt, b, node)
		kb_filter_flush(kb_bound(b));
	mutex_unlock(&kb_reg_lock);
}

/*
 * Up to @cap entries (unsorted) into @ents.  Return: the number of
 * filters, which may be more than @cap (then nothing useful is in @ents).
 */
u32 kb_reg_list(struct kbloom_list_entry *ents, u32 cap)
{
	struct kb_filter *f;
	struct kb_bind *b;
	u32 n = 0;
	int bkt;

	mutex_lock(&kb_reg_lock);
	if (kb_nr_filters <= cap) {
		hash_for_each(kb_names, bkt, b, node) {
			f = kb_bound(b);
			memcpy(ents[n].name, b->name, KBLOOM_NAME_LEN);
			ents[n].id = f->id;
			ents[n].type = f->g.type;
			n++;
		}
	}
	n = kb_nr_filters;
	mutex_unlock(&kb_reg_lock);
	return n;
}

/*
 * The published filter of id @id, or NULL: xa_load() without its own
 * rcu_read_lock(), for bpf_kbloom_test_id(), which a BPF program calls in
 * its RCU read-side section (see kmod/kfunc.c).  The caller uses the
 * filter only within that section: a filter is freed a grace period after
 * its last reference, which the registry puts only after erasing the id.
 */
struct kb_filter *kb_reg_by_id(u32 id)
{
	XA_STATE(xas, &kb_ids, id);
	struct kb_filter *f;

	do {
		f = xas_load(&xas);
		if (xa_is_zero(f))
			f = NULL;
	} while (unlikely(xas_retry(&xas, f)));
	return f;
}

void kb_reg_device_stat(u32 *filters, u64 *bytes)
{
	mutex_lock(&kb_reg_lock);
	*filters = kb_nr_filters;
	*bytes = kb_total_bytes;
	mutex_unlock(&kb_reg_lock);
}
