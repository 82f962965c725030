/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the mcbf tests: group addresses of a given MC-BF class
 * (uapi/kbloom_ipbf.h: the high nibble of IPv4 octet 1, of IPv6 byte 12)
 * and their frames.
 */
#ifndef KBT_MCBF_UTIL_H
#define KBT_MCBF_UTIL_H

#include "tests/bpf/ipbf_util.h"

/* Group @g of class @cls: 239.(cls << 4 | g >> 16 & 15).(g >> 8).g, or
 * ff3e::(cls << 4 | g >> 24 & 15):(g >> 16):(g >> 8):g in the last 4 bytes.
 */
static inline void mcbf_group(struct kbloom_addr_key *k, int v6, __u32 cls,
			      __u32 g)
{
	memset(k, 0, sizeof(*k));
	if (!v6) {
		k->len = 4;
		k->addr[0] = 239;
		k->addr[1] = (__u8)(cls << 4 | (g >> 16 & 15));
		k->addr[2] = (__u8)(g >> 8);
		k->addr[3] = (__u8)g;
	} else {
		k->len = 16;
		k->addr[0] = 0xff;
		k->addr[1] = 0x3e;
		k->addr[12] = (__u8)(cls << 4 | (g >> 24 & 15));
		k->addr[13] = (__u8)(g >> 16);
		k->addr[14] = (__u8)(g >> 8);
		k->addr[15] = (__u8)g;
	}
}

static inline int mcbf_test_key(const struct kb_mcbf *f,
				const struct kbloom_addr_key *k)
{
	return k->len == 4 ? kb_mcbf_test_v4(f, k->addr) :
			     kb_mcbf_test_v6(f, k->addr);
}

static inline int mcbf_add_key(struct kb_mcbf *f,
			       const struct kbloom_addr_key *k)
{
	return k->len == 4 ? kb_mcbf_add_v4(f, k->addr) :
			     kb_mcbf_add_v6(f, k->addr);
}

/* A UDP frame to group @k carrying @pl. */
static inline size_t mcbf_frame(__u8 *f, const struct kbloom_addr_key *k,
				const struct kbt_payload *pl)
{
	static const __u8 src4[4] = { 10, 0, 0, 9 };
	static const __u8 src6[16] = { 0xfd, [15] = 9 };
	struct kbt_frame_opts o = {
		.v6 = k->len == 16, .dst = k->addr,
		.payload = pl, .plen = pl ? sizeof(*pl) : 0,
	};

	o.src = o.v6 ? src6 : src4;
	return kbt_frame(f, &o);
}

/* A kb_mcbf of @spec holding @n groups. */
static inline struct kb_mcbf *mcbf_build(const struct kbloom_mcbf_spec *spec,
					 const struct kbloom_addr_key *g,
					 __u32 n)
{
	struct kb_mcbf *f;
	__u32 i;

	if (kb_mcbf_new(KBLOOM_TYPE_BLOCKED, spec->m,
			spec->hash_id ? spec->hash_id : KBLOOM_HASH_FAST,
			spec->seed, &spec->classes, &f))
		return NULL;
	for (i = 0; i < n; i++)
		if (mcbf_add_key(f, &g[i])) {
			kb_mcbf_free(f);
			return NULL;
		}
	return f;
}

#endif /* KBT_MCBF_UTIL_H */
