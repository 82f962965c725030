/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the yes-no form of the in-packet Bloom filter header
 * (KB_IPBF_F_YESNO; Carrea, Vernitski, Reed 2016, "Yes-no Bloom filter: a
 * way of representing sets with fewer false positives", arXiv 1603.01060;
 * filter type id KBLOOM_TYPE_YES_NO names the form, which only travels in
 * packets).
 *
 * The yes part is a LIPSIN zFilter (uapi/kbloom_ipbf.h: the same link IDs,
 * tag sets and fill limit); the no part is a small Bloom filter of the
 * off-tree links that the yes part would wrongly hold.  A node forwards
 * on an outgoing link L, other than the one it arrived on, iff L is in yes
 * and not in no:
 *
 *   (zFilter & LID(L, tag)) == LID(L, tag)  and  !no_match(L)
 *
 * Layout, after the 8-byte fixed header (flags KB_IPBF_F_YESNO, nstages 0):
 *
 *   bytes 8..39   the yes zFilter, as in the LIPSIN form
 *   byte 40       no_bytes   length of the no filter in bytes,
 *                            0..KB_IPBF_NO_BYTES_MAX (0: nothing excluded)
 *   byte 41       no_k       probes per link in the no filter,
 *                            KB_IPBF_NO_K_MIN..KB_IPBF_NO_K_MAX
 *   byte 42       no_seed    which draw of positions (0..255)
 *   byte 43       reserved   0
 *   bytes 44..    the no filter, m = 8 * no_bytes bits: bit p is bit
 *                 (p & 7) of byte (p >> 3)
 *
 * then the inner packet; the header is KB_IPBF_YESNO_LEN + no_bytes long.
 * A frame shorter than that, a no_k out of range or a reserved byte set
 * is malformed: dropped.
 *
 * No positions.  From the link's hash lh in the header's tag set (the
 * LIPSIN link ID comes from the same lh, kb_ipbf_link_hash()):
 *   g = kb_fmix64(lh ^ (KB_P3 * (no_seed + 1)))
 * then kb_probe_init(&p, g) and no_k times kb_probe_next(&p, m)
 * (uapi/kbloom_layout.h).  A link is in no iff m > 0 and all its no_k
 * positions are one.  The seed gives the source 256 independent draws:
 * the builder (libkbloom_net: kb_yn_build()) inserts the off-tree links
 * that match yes, leaves out any whose insertion would make a tree link
 * test positive in no, and keeps the tag set and seed that leave the
 * fewest false positives, so no tree link is ever excluded.
 */
#ifndef _UAPI_KBLOOM_IPBF_YESNO_H
#define _UAPI_KBLOOM_IPBF_YESNO_H

#include <linux/types.h>
#include "kbloom_hash.h"
#include "kbloom_layout.h"
#include "kbloom_ipbf.h"

#define KB_IPBF_NO_HDR_LEN	4U
#define KB_IPBF_YESNO_LEN	(KB_IPBF_LIPSIN_LEN + KB_IPBF_NO_HDR_LEN)
#define KB_IPBF_NO_BYTES_MAX	32U	/* a no filter of up to 256 bits */
#define KB_IPBF_NO_K_MIN	1U
#define KB_IPBF_NO_K_MAX	8U
#define KB_IPBF_NO_SEEDS	256U
#define KB_IPBF_YESNO_LEN_MAX	(KB_IPBF_YESNO_LEN + KB_IPBF_NO_BYTES_MAX)

/* The no record, bytes 40..43 of a yes-no header. */
struct kb_ipbf_no {
	__u8 bytes;
	__u8 k;
	__u8 seed;
	__u8 reserved;
};

/*
 * Check the no record @no with @avail bytes from its start to the end of
 * the packet.  Return: 0, or -1 (drop) for a k out of range, a reserved
 * byte set, a length over KB_IPBF_NO_BYTES_MAX or past @avail.
 */
static inline int kb_ipbf_no_check(const struct kb_ipbf_no *no, __u32 avail)
{
	if (avail < KB_IPBF_NO_HDR_LEN || no->reserved ||
	    no->k < KB_IPBF_NO_K_MIN || no->k > KB_IPBF_NO_K_MAX ||
	    no->bytes > KB_IPBF_NO_BYTES_MAX)
		return -1;
	if (avail - KB_IPBF_NO_HDR_LEN < no->bytes)
		return -1;
	return 0;
}

/* The probe iterator of link hash @lh in a no filter of draw @seed. */
static inline void kb_ipbf_no_init(struct kb_probe *p, __u64 lh, __u32 seed)
{
	kb_probe_init(p, kb_fmix64(lh ^ (KB_P3 * ((__u64)seed + 1))));
}

/* The next no position (0..8 * @bytes - 1), @bytes >= 1. */
static inline __u32 kb_ipbf_no_next(struct kb_probe *p, __u32 bytes)
{
	return kb_probe_next(p, 8ULL * bytes);
}

/*
 * Is the link of hash @lh in the no filter @bits of record @no (checked)?
 * Return: 1 if all its positions are one, else 0 (always 0 for m = 0).
 */
static inline int kb_ipbf_no_match(const __u8 *bits,
				   const struct kb_ipbf_no *no, __u64 lh)
{
	struct kb_probe p;
	__u32 i, bit;

	if (!no->bytes)
		return 0;
	kb_ipbf_no_init(&p, lh, no->seed);
	for (i = 0; i < KB_IPBF_NO_K_MAX; i++) {
		if (i >= no->k)
			break;
		bit = kb_ipbf_no_next(&p, no->bytes);
		if (!(bits[bit >> 3] & (1U << (bit & 7))))
			return 0;
	}
	return 1;
}

/* Insert the link of hash @lh into the no filter @bits (builders). */
static inline void kb_ipbf_no_add(__u8 *bits, const struct kb_ipbf_no *no,
				  __u64 lh)
{
	struct kb_probe p;
	__u32 i, bit;

	if (!no->bytes)
		return;
	kb_ipbf_no_init(&p, lh, no->seed);
	for (i = 0; i < KB_IPBF_NO_K_MAX; i++) {
		if (i >= no->k)
			break;
		bit = kb_ipbf_no_next(&p, no->bytes);
		bits[bit >> 3] |= (__u8)(1U << (bit & 7));
	}
}

#endif /* _UAPI_KBLOOM_IPBF_YESNO_H */
