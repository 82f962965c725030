/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the accurate counting Bloom filter (ACBF; Liu, Huang, Zheng,
 * Qi 2013, survey [LHZQ13]): its positions and array layout, shared by
 * every executor.  Its shape and the one validation are kbloom_shape.h's.
 *
 * m bits in all (the bytes of a 4-bit counting filter of m / 4 counters),
 * in levels:
 *   level 1: the first m1 = @buckets bits; bit i is 1 iff counter i >= 1.
 *            Membership reads level 1 only: probe i of a key is
 *            kb_probe_next() over m1, the standard/counting sequence.
 *   level j + 1 (j >= 1): one bit per 1 of level j, in order; the bit of
 *            counter i is 1 iff counter i >= j + 1.  Counter i's bit in
 *            level j + 1 is at offset popcount(level j before i's bit).
 * The levels follow each other from bit m1 on; level j + 1 is exactly as
 * long as level j has ones, so the lengths are read from the bits.  A
 * count is the number of 1 bits met climbing from level 1; @tables levels
 * at most: a counter at @tables (a 1 in the top level, no level above) is
 * saturated and never changes again.  Bits after the last level are 0.
 * The upper levels hold one bit per unit of every counter: k n bits for
 * n keys, so a filter planned for n keys has m1 = m - k n (the paper's
 * optimal "4m - kn" first level, m there counting 4-bit counters).
 */
#ifndef _UAPI_KBLOOM_VAR_ACBF_H
#define _UAPI_KBLOOM_VAR_ACBF_H

#include "kbloom_shape.h"

/* Bit @i of a little-endian payload of bytes. */
static inline __u32 kb_acbf_bit(const __u8 *p, __u64 i)
{
	return (p[i >> 3] >> (i & 7)) & 1;
}

/* Ones among bits [@lo, @hi) of @p. */
static inline __u64 kb_acbf_ones(const __u8 *p, __u64 lo, __u64 hi)
{
	__u64 n = 0;

	while (lo < hi && (lo & 7))
		n += kb_acbf_bit(p, lo++);
	while (lo + 8 <= hi) {
		n += kb_popcount64(p[lo >> 3]);
		lo += 8;
	}
	while (lo < hi)
		n += kb_acbf_bit(p, lo++);
	return n;
}

/*
 * The end (a bit offset) of the levels of a payload of @m bits with level
 * 1 the first @m1 and at most @levels levels: m + 1 when the levels would
 * not fit in m bits.
 */
static inline __u64 kb_acbf_levels_end(const __u8 *p, __u64 m, __u64 m1,
				       __u32 levels)
{
	__u64 start = 0, len = m1, next;
	__u32 j;

	for (j = 1; j < levels && len; j++) {
		next = kb_acbf_ones(p, start, start + len);
		start += len;
		len = next;
		if (start + len > m)
			return m + 1;
	}
	return start + len;
}

/*
 * A payload (@m bits, level 1 the first @m1) is a state of the filter:
 * its levels fit in m bits and every bit after them is 0.
 */
static inline int kb_acbf_payload_ok(const __u8 *p, __u64 m, __u64 m1,
				     __u32 levels)
{
	__u64 end = kb_acbf_levels_end(p, m, m1, levels);

	return end <= m && !kb_acbf_ones(p, end, m);
}

/* An ACBF shape of @m bits, level 1 of @m1 bits, @k probes, @levels. */
static inline void kb_acbf_shape_init(struct kb_shape *s, __u64 m, __u64 m1,
				      __u32 k, __u32 levels)
{
	__builtin_memset(s, 0, sizeof(*s));
	s->type = KBLOOM_TYPE_ACCURATE_COUNTING;
	s->k = k;
	s->m = m;
	s->buckets = m1;
	s->tables = levels;
}

#endif /* _UAPI_KBLOOM_VAR_ACBF_H */
