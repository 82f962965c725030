/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the mcast end-to-end tests (xdp_mcast_e2e.c, xdp_mcast_cuckoo.c,
 * xdp_mcast_deletable.c) share: a numbered frame to a group, the drain of
 * the hosts' captures into per-host, per-group counts, and (struct
 * kbt_mcsw) a switch namespace whose ports p0..p<n-1> lead to one host
 * namespace each, attached natively, the host ends passing, a capture on
 * each host's eth0.
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

#define KBT_MCSW_MAX	8

struct kbt_mcsw {
	char name[64];
	struct kbt_ns sw, host[KBT_MCSW_MAX];
	struct kbloom_xdp *x;
	int n;
	int port[KBT_MCSW_MAX];
	int rx[KBT_MCSW_MAX];
	int pass_link[KBT_MCSW_MAX];
};

/* Everything of @s undone, its instance unpinned. */
static inline void kbt_mcsw_free(struct kbt_mcsw *s)
{
	int i;

	for (i = 0; i < KBT_MCSW_MAX; i++) {
		if (s->rx[i] > 0)
			close(s->rx[i]);
		if (s->pass_link[i] > 0)
			close(s->pass_link[i]);
		s->rx[i] = s->pass_link[i] = 0;
		kbt_ns_free(&s->host[i]);
	}
	if (s->x)
		kbloom_xdp_close(s->x);
	s->x = NULL;
	if (s->name[0])
		kbt_unpin(s->name);
	kbt_ns_free(&s->sw);
}

/* Port @i: the switch side attached, the host side passing, a capture. */
static inline int kbt_mcsw_port(struct kbt_mcsw *s, int i)
{
	enum kbloom_xdp_mode got;
	int saved, ret;

	ret = kbloom_xdp_attach(s->x, s->port[i], KBLOOM_XDP_MODE_NATIVE,
				&got);
	if (ret)
		return ret;
	if (kbt_ns_enter(&s->host[i], &saved))
		return -1;
	ret = kbloom_xdp_pass_attach(if_nametoindex("eth0"),
				     KBLOOM_XDP_MODE_NATIVE, NULL,
				     &s->pass_link[i]);
	kbt_ns_leave(saved);
	if (ret)
		return ret;
	s->rx[i] = kbt_psock(&s->host[i], "eth0");
	return s->rx[i] < 0 ? -1 : 0;
}

/*
 * A switch of @n (<= KBT_MCSW_MAX) ports: mcast instance kbt_name(@tag)
 * made with @o (its netns set here).  On failure the caller frees @s.
 */
static inline int kbt_mcsw_new(struct kbt_mcsw *s, const char *tag, int n,
			       struct kbloom_xdp_opts *o)
{
	char a[16];
	int i, ret;

	if (n > KBT_MCSW_MAX)
		return -1;
	s->n = n;
	kbt_janitor();
	kbt_name(s->name, sizeof(s->name), tag);
	if (kbt_ns_quiet(&s->sw))
		return -1;
	for (i = 0; i < n; i++) {
		snprintf(a, sizeof(a), "p%d", i);
		if (kbt_ns_quiet(&s->host[i]) ||
		    kbt_veth(&s->sw, a, &s->host[i], "eth0", i))
			return -1;
		s->port[i] = kbt_ifindex(&s->sw, a);
	}
	o->netns = s->sw.path;
	ret = kbloom_xdp_create(s->name, KBLOOM_XDP_MCAST, o, &s->x);
	for (i = 0; !ret && i < n; i++)
		ret = kbt_mcsw_port(s, i);
	return ret;
}

#endif /* KBT_MCAST_TRAFFIC_UTIL_H */
