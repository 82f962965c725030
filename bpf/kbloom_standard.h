/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom: the BPF-side test of a filter in the standard layout (probe i
 * is bit kb_probe_next() over m of the probe words of the key's hash,
 * uapi/kbloom_layout.h) whose m bits lie in a blocks map, 512 bits to a
 * block: bit j is bit (j & 63) of word (j >> 6) % 8 of block j >> 9.
 *
 * The deletable filter (uapi/kbloom_var_deletable.h) answers TEST as a
 * standard filter over its body, so its XDP lookup is this one over the
 * body's words; the collision bitmap behind the body is the control
 * plane's only.
 *
 * Nothing here re-implements the filter: the hash is kb_hash() and the
 * positions kb_probe_next(), as in kbloom.ko and libkbloom, so a key added
 * by either is found here.  A test reads the block of each probe's bit in
 * turn and stops at the first clear bit.
 *
 *	ret = kbloom_bpf_std_test(blocks, m, k, hash_id, seed, key, len);
 *					KBLOOM_ABSENT, KBLOOM_MAYBE or -ENOENT
 */
#ifndef _KBLOOM_STANDARD_BPF_H
#define _KBLOOM_STANDARD_BPF_H

#include "bpf/kbloom_partitioned.h"	/* kbp_bpf_word(): a bit's word */

/*
 * kbloom_bpf_std_test_hash() - membership test of hashed key @h in the
 * @m bits (1..2^32) of @blocks with @k probes (1..KBLOOM_K_MAX)
 *
 * Return: KBLOOM_ABSENT, KBLOOM_MAYBE, or -ENOENT for a bit past the
 * blocks map (an @m that does not match the map).
 */
static __always_inline int kbloom_bpf_std_test_hash(void *blocks, __u64 m,
						    __u32 k, __u64 h)
{
	struct kb_probe pr;
	__u64 mask, *w;
	__u32 i;

	kb_probe_init(&pr, h);
	for (i = 0; i < KBLOOM_K_MAX; i++) {
		if (i >= k)
			break;
		w = kbp_bpf_word(blocks, kb_probe_next(&pr, m), &mask);
		if (!w)
			return -ENOENT;
		if (!(*w & mask))
			return KBLOOM_ABSENT;
	}
	return KBLOOM_MAYBE;
}

/* kbloom_bpf_std_test() - membership test of a key of @len bytes. */
static __always_inline int kbloom_bpf_std_test(void *blocks, __u64 m, __u32 k,
					       __u32 hash_id, __u64 seed,
					       const void *key, __u32 len)
{
	return kbloom_bpf_std_test_hash(blocks, m, k,
					kb_hash(hash_id, seed, key, len));
}

#endif /* _KBLOOM_STANDARD_BPF_H */
