/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the mcast end-to-end tests (xdp_mcast_e2e.c, xdp_mcast_cuckoo.c)
 * share: a numbered frame to a group, and the drain of the hosts'
 * captures into per-host, per-group counts.
 */
#ifndef KBT_MCAST_TRAFFIC_UTIL_H
#define KBT_MCAST_TRAFFIC_UTIL_H

#include "tests/bpf/xdp_util.h"

/*
 * A UDP frame from 10.0.0.9 (fd00::9 for @v6) to group @dst, its payload
 * numbered (group @g, @seq, @tag).
 */
static inline size_t kbt_mc_frame(__u8 *f, int v6, const __u8 *dst, __u32 g,
				  __u32 seq, __u32 tag)
{
	static const __u8 src4[4] = { 10, 0, 0, 9 };
	static const __u8 src6[16] = { 0xfd, [15] = 9 };
	struct kbt_payload pl = { KBT_MAGIC, g, seq, tag };
	struct kbt_frame_opts o = {
		.v6 = v6, .payload = &pl, .plen = sizeof(pl),
		.src = v6 ? src6 : src4, .dst = dst,
	};

	return kbt_frame(f, &o);
}

/*
 * Read the @n captures @rx until nothing arrived for @quiet seconds; a
 * frame of group g < @ngroups on capture i counts in cnt[i * @ngroups +
 * g] (@cnt NULL: thrown away).
 */
static inline void kbt_mc_drain(const int *rx, int n, __u32 *cnt,
				__u32 ngroups, double quiet)
{
	struct kbt_payload pl;
	double last = kbt_now();
	int i, got;

	while (kbt_now() - last < quiet) {
		got = 0;
		for (i = 0; i < n; i++)
			while (kbt_precv(rx[i], &pl)) {
				if (cnt && pl.group < ngroups)
					cnt[i * ngroups + pl.group]++;
				got = 1;
			}
		if (got)
			last = kbt_now();
		else
			usleep(2000);
	}
}

#endif /* KBT_MCAST_TRAFFIC_UTIL_H */
