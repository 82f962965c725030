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
 * Level j + 1 (from bit @start) of the counters at @j or above, in
 * position order: read into @cnt (@write false: a set bit raises a
 * counter at j to j + 1) or written from it.  Return: the level's length.
 */
static __u64 kb_acbf_level_pass(struct kbloom_acbf *f, __u8 *cnt, __u32 j,
				__u64 start, bool write)
{
	__u64 i, t = start;

	for (i = 0; i < f->m1; i++) {
		if (cnt[i] < j)
			continue;
		if (write && cnt[i] > j)
			kb_sarr_bit_put(&f->a, t, true);
		else if (!write && kb_sarr_bit(&f->a, t))
			cnt[i] = (__u8)(j + 1);
		t++;
	}
	return t - start;
}

/* Every counter's value into @cnt (m1 bytes, zeroed). */
static void kb_acbf_counts_read(struct kbloom_acbf *f, __u8 *cnt)
{
	__u64 i, start = f->m1, len = 1;
	__u32 j;

	for (i = 0; i < f->m1; i++)
		cnt[i] = kb_sarr_bit(&f->a, i);
	for (j = 1; j < f->levels && len; j++) {
		len = kb_acbf_level_pass(f, cnt, j, start, false);
		start += len;
	}
}

/* The levels of the counters @cnt: words, lengths, used, directory. */
static void kb_acbf_counts_write(struct kbloom_acbf *f, __u8 *cnt)
{
	__u64 i, start = f->m1, len = 1;
	__u32 j;

	memset(f->a.words, 0, f->a.nwords * 8);
	memset(&f->lvl_len[2], 0, (KB_ACBF_LEVELS_MAX - 1) * 8);
	for (i = 0; i < f->m1; i++)
		if (cnt[i])
			kb_sarr_bit_put(&f->a, i, true);
	f->used = 0;
	for (j = 1; j < f->levels && len; j++) {
		len = kb_acbf_level_pass(f, cnt, j, start, true);
		f->lvl_len[j + 1] = len;
		f->used += len;
		start += len;
	}
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
	__u64 sat;
	__u8 *cnt;

	if (!f || !key_len || key_len > KBLOOM_KEY_MAX || (count && !keys))
		return -EINVAL;
	if (count > (f->a.s.m - f->m1 - f->used) / f->a.s.k)
		return -ENOSPC;
	if (!count)
		return 0;
	cnt = calloc(f->m1, 1);
	if (!cnt)
		return -ENOMEM;
	kb_acbf_counts_read(f, cnt);
	sat = kb_acbf_count_keys(f, cnt, keys, key_len, count);
	kb_acbf_counts_write(f, cnt);
	free(cnt);
	f->a.saturations += sat;
	f->a.inserted += count;
	return sat ? 1 : 0;
}
