// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom cuckoo: the kick path search of an insert whose two buckets
 * are full.  Breadth first over slots: a node is a slot whose entry would
 * move to its other bucket, kb_cuckoo_alt(bucket, entry); the roots are
 * the slots of the key's buckets, the children of a node the slots of the
 * bucket its entry moves to.  The search ends at the first node whose
 * entry's other bucket has an empty slot, or after KB_CUCKOO_MAX_KICKS
 * nodes examined.  Nothing moves here: the caller moves the entries from
 * the end of the path back to its root (cuckoo_keys.c).  A bucket enters
 * the search once, with all its slots (nodes n b .. n b + b - 1), so a
 * path never holds a slot twice and every slot on it is copied before it
 * is overwritten.
 */
#include "cuckoo_int.h"

/* Bucket @b has nodes already (the search visits a bucket once). */
static bool kcf_seen(const struct kcf_node *nodes, __u32 count, __u32 b,
		     __u32 slots)
{
	__u32 n;

	for (n = 0; n < count; n += slots)
		if (nodes[n].bucket == b)
			return true;
	return false;
}

/* Append the slots of bucket @b as children of @parent; the new count. */
static __u32 kcf_push_bucket(struct kcf_node *nodes, __u32 count, __u32 b,
			     __u16 parent, __u32 slots)
{
	__u32 s;

	if (count + slots > KCF_PATH_NODES || kcf_seen(nodes, count, b, slots))
		return count;
	for (s = 0; s < slots; s++) {
		nodes[count].bucket = b;
		nodes[count].slot = (__u16)s;
		nodes[count].parent = parent;
		count++;
	}
	return count;
}

/*
 * kcf_path_search() - the node whose entry moves into an empty slot
 * @i1, @i2: the key's buckets (full)
 * @end_bucket, @end_slot: out: that empty slot
 *
 * c->path holds the nodes; the path is the returned node and its
 * ancestors.  Return: the node index, or -ENOSPC.
 */
int kcf_path_search(struct kbloom_cuckoo *c, __u32 i1, __u32 i2,
		    __u32 *end_bucket, __u32 *end_slot)
{
	struct kcf_node *nodes = c->path;
	__u32 count, head, b, v;
	int s;

	count = kcf_push_bucket(nodes, 0, i1, KCF_NO_PARENT, c->s.slots);
	count = kcf_push_bucket(nodes, count, i2, KCF_NO_PARENT, c->s.slots);
	for (head = 0; head < count && head < KB_CUCKOO_MAX_KICKS; head++) {
		v = kcf_slot_get(c, nodes[head].bucket, nodes[head].slot);
		b = kb_cuckoo_alt(nodes[head].bucket, v, c->s.buckets);
		s = kcf_find(c, b, 0);
		if (s >= 0) {
			*end_bucket = b;
			*end_slot = (__u32)s;
			return (int)head;
		}
		count = kcf_push_bucket(nodes, count, b, (__u16)head,
					c->s.slots);
	}
	return -ENOSPC;
}
