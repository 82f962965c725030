/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the persistent Bloom filter (KBLOOM_TYPE_PERSISTENT; Peng et
 * al., SIGMOD 2018): an archive of closed epochs that answers "was KEY
 * added in any epoch between T1 and T2" from at most 2 log2(T2 - T1 + 1)
 * filters.
 *
 * Epochs.  An epoch is one filter, closed (never added to again) when it
 * enters the archive: a filter of libkbloom, or the image of a module
 * filter (KBLOOM_IOCTL_SAVE) or of an XDP map (kbloomctl map save) taken
 * at the end of a period.  Epochs are numbered by the user with 64-bit
 * integers (minutes since a date, a sequence number); an archive holds
 * the consecutive epochs first .. first + n - 1, appended in order.  Its
 * epoch i (relative: epoch number - first) is leaf i of a binary time
 * decomposition.
 *
 * Decomposition.  The node (j, x) of level j covers the 2^j epochs
 * [x 2^j, (x + 1) 2^j); level 0 is the epochs themselves.  A node exists
 * once all its epochs are closed, and is the merge of its two children
 * (j - 1, 2x) and (j - 1, 2x + 1): every filter of an archive has the
 * geometry of the first epoch (type, hash id, seed, m, k, counter
 * width), so the merge is an OR of the bit arrays (standard, blocked) or
 * a saturating sum of counters (counting), and a key of any covered
 * epoch is found in the node.  Appending epoch i closes the nodes (j, x)
 * with (x + 1) 2^j = i + 1, j = 1 .. ctz(i + 1).
 *
 * Query.  A range [a, b] of relative epochs is covered by the greedy
 * dyadic decomposition (kb_pers_cover_next()): from a, the largest node
 * that starts at a (2^j divides a) and ends at or before b.  A range of
 * L >= 2 epochs takes at most 2 floor(log2 L) nodes, L = 1 one node.  The
 * key is possibly present in the range iff one of those nodes says so:
 * no false negative, and a false-positive rate at most the sum of the
 * nodes' rates (the union bound).  A node of level j holds the keys of
 * 2^j epochs in m bits: size the epoch filters for the keys of the widest
 * range queried, or expect the rate of the upper levels to grow.
 *
 * Image.  A container image (kbloom_image.h) of type
 * KBLOOM_TYPE_PERSISTENT whose members are the filters in the order they
 * were made: for i = 0 .. n - 1, epoch i, then the nodes that epoch i
 * closed, by increasing level.  That is kb_pers_members(n) = 2 n -
 * popcount(n) members, each a version-2 image of a standard, blocked or
 * counting filter of one geometry.  The container's params:
 *   params[KB_PERS_P_FIRST]   the first epoch's number
 *   params[KB_PERS_P_EPOCHS]  n, 1 .. KB_PERS_EPOCHS_MAX
 *   the others                0
 * inserted: the sum of the epochs' inserted counts; flags: 0.  Readers
 * check the container (kb_container_verify()), the params
 * (kb_pers_params_ok()), one geometry, and that each node is exactly the
 * merge of its children (-EBADMSG otherwise).  Every member has the same
 * size (one geometry, version 2), so a reader that answers one query may
 * read only the container header and the members of the cover
 * (kb_pers_member_index()), each checked on its own.
 */
#ifndef _UAPI_KBLOOM_VAR_PERSISTENT_H
#define _UAPI_KBLOOM_VAR_PERSISTENT_H

#include <linux/types.h>
#include "kbloom_base.h"
#include "kbloom_image.h"
#include "kbloom_plan.h"

#define KB_PERS_P_FIRST		0
#define KB_PERS_P_EPOCHS	1
#define KB_PERS_PARAMS		6	/* struct kbloom_container_hdr params */

/*
 * The most epochs of one archive: 2 n - popcount(n) members must fit in
 * KBLOOM_CONTAINER_MEMBERS_MAX (4096); levels 0 .. KB_PERS_LEVELS - 1.
 */
#define KB_PERS_EPOCHS_MAX	2048ULL
#define KB_PERS_LEVELS		12U

/* Trailing zero bits of @x (64 for 0); loops, for every executor. */
static inline __u32 kb_pers_ctz(__u64 x)
{
	__u32 n = 0;

	if (!x)
		return 64;
	for (; !(x & 1); x >>= 1)
		n++;
	return n;
}

/* floor(log2 @x) of @x >= 1. */
static inline __u32 kb_pers_log2(__u64 x)
{
	__u32 n = 0;

	while (x >>= 1)
		n++;
	return n;
}

/* Members of an archive of @n epochs: 2 n - popcount(n). */
static inline __u64 kb_pers_members(__u64 n)
{
	__u64 ones = 0, x;

	for (x = n; x; x &= x - 1)
		ones++;
	return 2 * n - ones;
}

/*
 * The member index of node (@j, @x) in the image: epoch i = (x + 1) 2^j - 1
 * closed it, the members before epoch i's are kb_pers_members(i), and its
 * nodes follow it by level.  All members have one size, so a reader finds
 * any node at hdr_len + index * size without reading the others.
 */
static inline __u64 kb_pers_member_index(__u32 j, __u64 x)
{
	return kb_pers_members(((x + 1) << j) - 1) + j;
}

/* Nodes above the leaf that appending relative epoch @i closes. */
static inline __u32 kb_pers_closes(__u64 i)
{
	return kb_pers_ctz(i + 1);
}

/* Nodes of level @j in an archive of @n epochs. */
static inline __u64 kb_pers_level_nodes(__u64 n, __u32 j)
{
	return j < 64 ? n >> j : 0;
}

/* The member types: bit filters and counting filters (image version 2). */
static inline int kb_pers_member_type_ok(__u32 type)
{
	return kb_type_classic(type);
}

/*
 * The level of the node that starts the cover of [@a, @b] (a <= b,
 * relative epochs): the largest j with 2^j dividing a and a + 2^j - 1 <=
 * b.  The node is (j, a >> j); the rest of the cover starts at a + 2^j.
 */
static inline __u32 kb_pers_cover_next(__u64 a, __u64 b)
{
	__u32 j = kb_pers_log2(b - a + 1);
	__u32 z = kb_pers_ctz(a);

	return z < j ? z : j;
}

/* The most nodes a range of @len >= 1 epochs takes. */
static inline __u32 kb_pers_cover_max(__u64 len)
{
	return len < 2 ? 1 : 2 * kb_pers_log2(len);
}

/* The params of a persistent container: 0 or -EBADMSG. */
static inline int kb_pers_params_ok(const struct kbloom_container_hdr *c)
{
	__u64 first = kb_le64(c->params[KB_PERS_P_FIRST]);
	__u64 n = kb_le64(c->params[KB_PERS_P_EPOCHS]);
	__u32 i;

	if (c->type != KBLOOM_TYPE_PERSISTENT || c->flags)
		return -EBADMSG;
	if (!n || n > KB_PERS_EPOCHS_MAX || first + (n - 1) < first)
		return -EBADMSG;
	for (i = 0; i < KB_PERS_PARAMS; i++)
		if (i != KB_PERS_P_FIRST && i != KB_PERS_P_EPOCHS &&
		    c->params[i])
			return -EBADMSG;
	return kb_le32(c->count) == kb_pers_members(n) ? 0 : -EBADMSG;
}

/**
 * kb_pers_plan() - size the epoch filters of an archive
 * @type: the epochs' type (standard, blocked or counting)
 * @n: keys per epoch, > 0
 * @range: the widest range of epochs queried, 1..KB_PERS_EPOCHS_MAX
 * @p_pico: the rate wanted for any range of up to @range epochs
 * @counter_bits: counting: 4 or 8; else 0
 * @out: the epoch filter's plan (kb_plan())
 *
 * The cover of a range of up to @range epochs holds at most @range @n
 * keys in all, spread over its nodes.  A filter's rate p(x) at x keys is
 * convex with p(0) = 0 up to its planned load when k >= 2 (the exponent
 * k x / m stays below ln k), so the nodes' rates add up to at most
 * p(@range @n): epoch filters planned for @range @n keys at @p_pico keep
 * the union bound of any such range at most @p_pico.  When the plan
 * takes k = 1 (targets near 0.5), the rule is the plain one: @range @n
 * keys at @p_pico / kb_pers_cover_max(@range).
 *
 * Return: 0; -EINVAL for a bad argument (a target out of
 * [KBLOOM_P_TARGET_MIN, KBLOOM_P_TARGET_MAX]); -E2BIG when the filter
 * would be over KBLOOM_M_MAX (kb_plan()'s errors).
 */
static inline int kb_pers_plan(__u32 type, __u64 n, __u64 range,
			       __u64 p_pico, __u32 counter_bits,
			       struct kb_plan *out)
{
	int ret;

	if (!kb_pers_member_type_ok(type) || !n || !range ||
	    range > KB_PERS_EPOCHS_MAX || n > KBLOOM_M_MAX || !out)
		return -EINVAL;
	ret = kb_plan(type, n * range, p_pico, counter_bits, out);
	if (ret || out->k >= 2)
		return ret;
	return kb_plan(type, n * range, p_pico / kb_pers_cover_max(range),
		       counter_bits, out);
}

#endif /* _UAPI_KBLOOM_VAR_PERSISTENT_H */
