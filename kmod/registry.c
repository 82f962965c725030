// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko registry: filter names -> filter objects.
 *
 * A hash table of RCU hlists: lookups walk it under rcu_read_lock() and
 * take a reference with refcount_inc_not_zero(); writers (publish, replace,
 * unpublish) hold kb_reg_lock, which also guards the limits and the byte
 * accounting.  The registry owns one reference of every published filter.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "kbloom_int.h"

#define KB_HASH_BITS	8

static DEFINE_HASHTABLE(kb_names, KB_HASH_BITS);
static DEFINE_MUTEX(kb_reg_lock);
static u32 kb_nr_filters;	/* published filters, under kb_reg_lock */
static u64 kb_total_bytes;	/* their array bytes, under kb_reg_lock */
static u32 kb_last_id;		/* under kb_reg_lock */

static u32 kb_name_hash(const char *name)
{
	return jhash(name, strnlen(name, KBLOOM_NAME_LEN), 0);
}

/* Under rcu_read_lock() or kb_reg_lock. */
static struct kb_filter *kb_lookup(const char *name)
{
	struct kb_filter *f;

	hash_for_each_possible_rcu(kb_names, f, node, kb_name_hash(name),
				   lockdep_is_held(&kb_reg_lock))
		if (!strncmp(f->name, name, KBLOOM_NAME_LEN))
			return f;
	return NULL;
}

/* Walks of one name in kb_filter_get() (see there). */
#define KB_GET_TRIES	8

/*
 * The filter named @name with a reference, or NULL when there is none.
 *
 * Lock-free: an RCU walk and refcount_inc_not_zero().  A walk racing with
 * RESTORE --replace can find the old filter after the registry dropped its
 * reference (kb_reg_replace() puts the old filter after the swap), although
 * the new one is already published: its refcount is zero.  That refcount
 * reached zero only after hlist_replace_rcu() (the registry holds a
 * reference while a filter is published, and refcount_dec_and_test()
 * orders the swap before the decrement), so having read it as zero, a
 * second walk finds the new filter: the name never looks absent to an
 * ioctl or a kfunc while it is being swapped.  DESTROY unpublishes the
 * name, and the second walk answers NULL.  Every failed try means a whole
 * RESTORE (allocation, copy, publish) ended within one bucket walk; the
 * bound only matters if that keeps happening, and keeps the walk finite
 * in softirq (the kfuncs).
 */
struct kb_filter *kb_filter_get(const char *name)
{
	struct kb_filter *f;
	int i;

	for (i = 0; i < KB_GET_TRIES; i++) {
		rcu_read_lock();
		f = kb_lookup(name);
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

static void kb_reg_account(struct kb_filter *f)
{
	f->id = ++kb_last_id;
	kb_nr_filters++;
	kb_total_bytes += f->bytes;
	kb_filter_arm(f);
}

static void kb_reg_unaccount(struct kb_filter *f)
{
	kb_filter_disarm(f);
	kb_nr_filters--;
	kb_total_bytes -= f->bytes;
}

/*
 * Publish @f under its name; the registry takes over the caller's
 * reference.  Return: 0; -EEXIST with *@dup set to the filter of that
 * name (a new reference) when @dup is not NULL; -ENOSPC.
 */
int kb_reg_publish(struct kb_filter *f, struct kb_filter **dup)
{
	struct kb_filter *old;
	int ret;

	mutex_lock(&kb_reg_lock);
	old = kb_lookup(f->name);
	if (old) {
		if (dup) {
			refcount_inc(&old->ref);
			*dup = old;
		}
		ret = -EEXIST;
		goto out_unlock;
	}
	ret = kb_reg_room(f->name, f->bytes, true, 0);
	if (ret)
		goto out_unlock;
	kb_reg_account(f);
	hash_add_rcu(kb_names, &f->node, kb_name_hash(f->name));
out_unlock:
	mutex_unlock(&kb_reg_lock);
	return ret;
}

/*
 * Publish @f, atomically replacing the filter of the same name if there is
 * one: a concurrent lookup finds the old or the new filter.
 */
int kb_reg_replace(struct kb_filter *f)
{
	struct kb_filter *old;
	int ret;

	mutex_lock(&kb_reg_lock);
	old = kb_lookup(f->name);
	ret = kb_reg_room(f->name, f->bytes, !old, old ? old->bytes : 0);
	if (ret)
		goto out_unlock;
	if (old) {
		kb_reg_unaccount(old);
		kb_reg_account(f);
		hlist_replace_rcu(&old->node, &f->node);
	} else {
		kb_reg_account(f);
		hash_add_rcu(kb_names, &f->node, kb_name_hash(f->name));
	}
out_unlock:
	mutex_unlock(&kb_reg_lock);
	if (!ret && old)
		kb_filter_put(old);
	return ret;
}

static void kb_reg_remove(struct kb_filter *f)
{
	hash_del_rcu(&f->node);
	kb_reg_unaccount(f);
}

/* Unpublish the filter named @name.  Return: 0 or -ENOENT. */
int kb_reg_unpublish(const char *name)
{
	struct kb_filter *f;

	mutex_lock(&kb_reg_lock);
	f = kb_lookup(name);
	if (f)
		kb_reg_remove(f);
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
	struct kb_filter *f;
	int bkt;

	mutex_lock(&kb_reg_lock);
	hash_for_each_safe(kb_names, bkt, tmp, f, node) {
		kb_reg_remove(f);
		kb_filter_put(f);
	}
	mutex_unlock(&kb_reg_lock);
}

void kb_reg_flush_all(void)
{
	struct kb_filter *f;
	int bkt;

	mutex_lock(&kb_reg_lock);
	hash_for_each(kb_names, bkt, f, node)
		kb_filter_flush(f);
	mutex_unlock(&kb_reg_lock);
}

/*
 * Up to @cap entries (unsorted) into @ents.  Return: the number of
 * filters, which may be more than @cap (then nothing useful is in @ents).
 */
u32 kb_reg_list(struct kbloom_list_entry *ents, u32 cap)
{
	struct kb_filter *f;
	u32 n = 0;
	int bkt;

	mutex_lock(&kb_reg_lock);
	if (kb_nr_filters <= cap) {
		hash_for_each(kb_names, bkt, f, node) {
			memcpy(ents[n].name, f->name, KBLOOM_NAME_LEN);
			ents[n].id = f->id;
			ents[n].type = f->g.type;
			n++;
		}
	}
	n = kb_nr_filters;
	mutex_unlock(&kb_reg_lock);
	return n;
}

void kb_reg_device_stat(u32 *filters, u64 *bytes)
{
	mutex_lock(&kb_reg_lock);
	*filters = kb_nr_filters;
	*bytes = kb_total_bytes;
	mutex_unlock(&kb_reg_lock);
}
