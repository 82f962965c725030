// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom: many keys into an ACBF at once (kbloom_acbf_add_many()).
 * The levels are canonical (uapi/kbloom_var_acbf.h: each level is the
 * ordered bits of the ones of the level below), so the counters are read
 * out into one byte each, the keys counted in, and the levels written
 * again in O(m + k n) instead of one O(m) shift per counter unit: the
 * same bits, lengths, statistics and directory as one add per key.
 */
#include <stdlib.h>

#include "acbf_int.h"

/*
 * The counters at @j or above are @list[0..@len), ascending; level j + 1
 * (from bit @start) has one bit for each.  Read it into @cnt (@write
 * false: a set bit raises a counter at j to j + 1) or write it from @cnt;
 * keep in @list the counters above j.  Return: how many.
 */
static __u64 kb_acbf_level_pass(struct kbloom_acbf *f, __u8 *cnt,
				__u64 *list, __u64 len, __u32 j, __u64 start,
				bool write)
{
	__u64 e, i, keep = 0;

	for (e = 0; e < len; e++) {
		i = list[e];
		if (write && cnt[i] > j)
			kb_sarr_bit_put(&f->a, start + e, true);
		else if (!write && kb_sarr_bit(&f->a, start + e))
			cnt[i] = (__u8)(j + 1);
		if (cnt[i] > j)
			list[keep++] = i;
	}
	return keep;
}

/* The upper levels of the @len counters of level 1 in @list (see above). */
static void kb_acbf_levels_pass(struct kbloom_acbf *f, __u8 *cnt,
				__u64 *list, __u64 len, bool write)
{
	__u64 start = f->m1, next;
	__u32 j;

	if (write)
		f->used = 0;
	for (j = 1; j < f->levels && len; j++) {
		next = kb_acbf_level_pass(f, cnt, list, len, j, start, write);
		if (write) {
			f->lvl_len[j + 1] = len;
			f->used += len;
		}
		start += len;
		len = next;
	}
}

/* The counters not 0 (level 1's ones) in @list, ascending: how many. */
static __u64 kb_acbf_ones_list(const struct kbloom_acbf *f, __u64 *list)
{
	__u64 i, n = 0;

	for (i = 0; i < f->m1; i++)
		if (kb_sarr_bit(&f->a, i))
			list[n++] = i;
	return n;
}

/* Every counter's value into @cnt (m1 bytes, zeroed); @list: m1 entries. */
static void kb_acbf_counts_read(struct kbloom_acbf *f, __u8 *cnt,
				__u64 *list)
{
	__u64 e, n = kb_acbf_ones_list(f, list);

	for (e = 0; e < n; e++)
		cnt[list[e]] = 1;
	kb_acbf_levels_pass(f, cnt, list, n, false);
}

/* The levels of the counters @cnt: words, lengths, used, directory. */
static void kb_acbf_counts_write(struct kbloom_acbf *f, __u8 *cnt,
				 __u64 *list)
{
	__u64 i, n = 0;

	memset(f->a.words, 0, f->a.nwords * 8);
	memset(&f->lvl_len[2], 0, (KB_ACBF_LEVELS_MAX - 1) * 8);
	for (i = 0; i < f->m1; i++) {
		if (!cnt[i])
			continue;
		kb_sarr_bit_put(&f->a, i, true);
		list[n++] = i;
	}
	kb_acbf_levels_pass(f, cnt, list, n, true);
	kb_acbf_dir_build(f, 0, f->a.s.m - 1);
}

/* The keys' k units each into @cnt; the saturated ones counted. */
static __u64 kb_acbf_count_keys(const struct kbloom_acbf *f, __u8 *cnt,
				const __u8 *keys, __u32 len, __u64 count)
{
	__u64 j, pos, sat = 0;
	struct kb_probe p;
	__u32 i;

	for (j = 0; j < count; j++) {
		kb_probe_init(&p, kb_sarr_hash(&f->a, keys + j * len, len));
		for (i = 0; i < f->a.s.k; i++) {
			pos = kb_probe_next(&p, f->m1);
			if (cnt[pos] == f->levels)
				sat++;
			else
				cnt[pos]++;
		}
	}
	return sat;
}

int kbloom_acbf_add_many(struct kbloom_acbf *f, const void *keys,
			 __u32 key_len, __u64 count)
{
	__u64 sat, *list;
	__u8 *cnt;

	if (!f || !key_len || key_len > KBLOOM_KEY_MAX || (count && !keys))
		return -EINVAL;
	if (count > (f->a.s.m - f->m1 - f->used) / f->a.s.k)
		return -ENOSPC;
	if (!count)
		return 0;
	cnt = calloc(f->m1, 1);
	list = malloc(f->m1 * sizeof(*list));
	if (!cnt || !list) {
		free(cnt);
		free(list);
		return -ENOMEM;
	}
	if (f->used || f->a.inserted || kb_acbf_rank(f, f->m1))
		kb_acbf_counts_read(f, cnt, list);
	sat = kb_acbf_count_keys(f, cnt, keys, key_len, count);
	kb_acbf_counts_write(f, cnt, list);
	free(list);
	free(cnt);
	f->a.saturations += sat;
	f->a.inserted += count;
	return sat ? 1 : 0;
}
