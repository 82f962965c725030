// SPDX-License-Identifier: GPL-2.0
/*
 * The mcast path with cuckoo port filters (KBLOOM_XDP_VARIANT_CUCKOO,
 * bpf/kbloom_cuckoo_mcast.bpf.c), end to end on real frames:
 *
 *            h0   h1        hs (sender)
 *            |    |         |
 *           p0   p1        p2      switch namespace
 *
 * The hosts join groups (IPv4 and IPv6), the sender sends to every group:
 *  - each host receives exactly its groups, and the port counters
 *    (mc_stats: tx_seen, tx_forwarded, tx_filtered, tx_leaked, rx) say the
 *    same, as for blocked filters;
 *  - a leave deletes the group's fingerprint from the port's filter (no
 *    counters, no rebuild: the filter's generation stays, its used slots
 *    drop): the left groups are no longer forwarded to that port, the
 *    others still are, and a group joined again is forwarded again.  The
 *    test's groups have pairwise different fingerprints (asserted), so a
 *    left group cannot survive in a slot of another group;
 *  - a writers' counter left odd: every copy forwarded ("possibly
 *    present", the lookup's retries unstable), none an error;
 *  - a port's filter re-planned (kbloom_mcast_port_resize()) keeps its
 *    groups, and so do the programs replaced (kbloom_xdp_replace()); a
 *    router port and bits/hashes are refused.
 */
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"
#include "tests/bpf/mcast_traffic_util.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_variants.h"

#define NHOSTS		2
#define NPORTS		(NHOSTS + 1)
#define SENDER		NHOSTS
#define NGROUPS		16	/* 0..7 IPv4, 8..15 IPv6 */
#define ROUNDS		20

FIXTURE(mck) {
	struct kbt_mcsw s;
	struct kbt_log log;
};

static int sw_setup(FIXTURE_DATA(mck) *self)
{
	struct kbloom_xdp_opts o = {
		.variant = KBLOOM_XDP_VARIANT_CUCKOO,
		.geom = { .capacity = 64 },
		.log = kbt_log_line, .log_ctx = &self->log,
	};

	return kbt_mcsw_new(&self->s, "mck", NPORTS, &o);
}

FIXTURE_SETUP(mck)
{
	int ret = sw_setup(self);

	if (ret)
		kbt_mcsw_free(&self->s);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(mck)
{
	kbt_mcsw_free(&self->s);
}

static void group_addr(__u8 a[16], __u32 g, __u32 *len)
{
	kbt_group(a, g >= 8, 300 + g);
	*len = g >= 8 ? 16 : 4;
}

/* Join (@join) or leave the groups of mask @m on host @h's port. */
static int member(FIXTURE_DATA(mck) *self, int h, __u32 m, int join)
{
	__u32 g, len;
	__u8 a[16];
	int ret = 0;

	for (g = 0; !ret && g < NGROUPS; g++) {
		if (!(m >> g & 1))
			continue;
		group_addr(a, g, &len);
		ret = join ? kbloom_mcast_join(self->s.x, self->s.port[h], a, len) :
			     kbloom_mcast_leave(self->s.x, self->s.port[h], a, len);
	}
	return ret;
}

/*
 * The groups' fingerprints in port @h's filter are pairwise different:
 * then a slot holding one group's fingerprint never answers for another,
 * and a left group's buckets keep no copy of it.
 */
static int fingerprints_distinct(FIXTURE_DATA(mck) *self, int h)
{
	struct kbloom_gate_cuckoo_info ci;
	__u32 fp[NGROUPS], g, i, len;
	__u8 a[16];
	__u64 hash;

	if (kbloom_xdp_cuckoo_info(self->s.x, self->s.port[h], &ci))
		return 0;
	for (g = 0; g < NGROUPS; g++) {
		group_addr(a, g, &len);
		hash = kb_hash(ci.params.hash_id, ci.params.seed, a, len);
		fp[g] = kb_cuckoo_fp(hash, ci.params.shape.fp_bits);
		for (i = 0; i < g; i++)
			if (fp[i] == fp[g])
				return 0;
	}
	return 1;
}

static size_t group_frame(__u8 *f, __u32 g, __u32 seq)
{
	__u8 dst[16];
	__u32 len;

	group_addr(dst, g, &len);
	return kbt_mc_frame(f, g >= 8, dst, g, seq, 0);
}

/* Drain every host capture until nothing arrived for @quiet seconds. */
static void drain(FIXTURE_DATA(mck) *self, __u32 cnt[NPORTS][NGROUPS],
		  double quiet)
{
	kbt_mc_drain(self->s.rx, NPORTS, cnt ? &cnt[0][0] : NULL, NGROUPS,
		     quiet);
}

static void stats_delta(FIXTURE_DATA(mck) *self,
			struct kbloom_mcast_stats st[NPORTS])
{
	struct kbloom_mcast_stats now;
	int i;

	for (i = 0; i < NPORTS; i++) {
		if (kbloom_mcast_stats(self->s.x, self->s.port[i], &now))
			memset(&now, 0xff, sizeof(now));
		now.rx_packets -= st[i].rx_packets;
		now.rx_mcast -= st[i].rx_mcast;
		now.tx_seen -= st[i].tx_seen;
		now.tx_forwarded -= st[i].tx_forwarded;
		now.tx_filtered -= st[i].tx_filtered;
		now.tx_leaked -= st[i].tx_leaked;
		now.tx_errors -= st[i].tx_errors;
		st[i] = now;
	}
}

/*
 * ROUNDS frames to every group: host i receives exactly the groups of
 * @want[i], every frame, and its port's counters say the same, with the
 * groups of @leak[i] (forwarded, not joined) counted as leaks.
 */
static void traffic_leaks(struct __test_metadata *_metadata,
			  FIXTURE_DATA(mck) *self, const __u32 want[NHOSTS],
			  const __u32 leak[NHOSTS])
{
	struct kbloom_mcast_stats st[NPORTS];
	__u32 cnt[NPORTS][NGROUPS] = {};
	__u32 i, g, r, sent = 0, total;
	__u8 f[256];
	size_t n;
	int tx;

	drain(self, NULL, 0.05);
	for (i = 0; i < NPORTS; i++)
		ASSERT_EQ(0, kbloom_mcast_stats(self->s.x, self->s.port[i], &st[i]));
	tx = kbt_psock(&self->s.host[SENDER], "eth0");
	ASSERT_LE(0, tx);
	for (r = 0; r < ROUNDS; r++) {
		for (g = 0; g < NGROUPS; g++, sent++) {
			n = group_frame(f, g, r);
			EXPECT_EQ((ssize_t)n, send(tx, f, n, 0));
		}
		usleep(300);
	}
	close(tx);
	drain(self, cnt, 0.3);
	stats_delta(self, st);
	for (i = 0; i < NHOSTS; i++) {
		total = 0;
		for (g = 0; g < NGROUPS; g++) {
			EXPECT_EQ(want[i] >> g & 1 ? ROUNDS : 0, cnt[i][g])
				TH_LOG("host %u group %u", i, g);
			total += cnt[i][g];
		}
		EXPECT_EQ(sent, st[i].tx_seen);
		EXPECT_EQ(total, st[i].tx_forwarded);
		EXPECT_EQ(sent - total, st[i].tx_filtered);
		EXPECT_EQ(ROUNDS * __builtin_popcount(leak[i]),
			  st[i].tx_leaked);
		EXPECT_EQ(0, st[i].tx_errors);
		EXPECT_EQ(0, st[i].rx_packets);
	}
	EXPECT_EQ(sent, st[SENDER].rx_packets);
	EXPECT_EQ(sent, st[SENDER].rx_mcast);
	EXPECT_EQ(0, st[SENDER].tx_seen);
}

/* traffic_leaks() without leaks. */
static void traffic(struct __test_metadata *_metadata,
		    FIXTURE_DATA(mck) *self, const __u32 want[NHOSTS])
{
	const __u32 none[NHOSTS] = {};

	traffic_leaks(_metadata, self, want, none);
}

/* The writers' counter of the switch's cuckoo filters (mc_cseq) set. */
static int cseq_set(FIXTURE_DATA(mck) *self, __u32 seq)
{
	struct kbloom_cuckoo_seq s = { .seq = seq };
	char path[512];
	__u32 zero = 0;
	int fd, ret;

	snprintf(path, sizeof(path), "%s/mc_cseq", kbloom_xdp_dir(self->s.x));
	fd = bpf_obj_get(path);
	if (fd < 0)
		return -errno;
	ret = bpf_map_update_elem(fd, &zero, &s, 0);
	close(fd);
	return ret;
}

/* Port @h's filter: its slots used, its generation. */
static void filter_state(struct __test_metadata *_metadata,
			 FIXTURE_DATA(mck) *self, int h, __u64 *used,
			 __u64 *gen)
{
	struct kbloom_gate_cuckoo_info ci;

	ASSERT_EQ(0, kbloom_xdp_cuckoo_info(self->s.x, self->s.port[h], &ci));
	*used = ci.used;
	*gen = ci.params.gen;
}

TEST_F_TIMEOUT(mck, join_leave_forwarding, 120)
{
	/* host 0: 0..5 and 8..11; host 1: 4..7 and 10..15 */
	__u32 want[NHOSTS] = { 0x0f3f, 0xfcf0 };
	const __u32 left[NHOSTS] = { 0x0c21, 0x3010 };
	__u64 used, gen, used2, gen2;
	int h;

	for (h = 0; h < NHOSTS; h++) {
		ASSERT_EQ(1, fingerprints_distinct(self, h));
		ASSERT_EQ(0, member(self, h, want[h], 1));
	}
	traffic(_metadata, self, want);

	/* leaves: the fingerprints go, the filter is not rebuilt */
	for (h = 0; h < NHOSTS; h++) {
		filter_state(_metadata, self, h, &used, &gen);
		EXPECT_EQ(__builtin_popcount(want[h]), used);
		ASSERT_EQ(0, member(self, h, left[h], 0));
		want[h] &= ~left[h];
		filter_state(_metadata, self, h, &used2, &gen2);
		EXPECT_EQ(__builtin_popcount(want[h]), used2);
		EXPECT_EQ(gen, gen2);
	}
	traffic(_metadata, self, want);

	/* joined again: forwarded again */
	ASSERT_EQ(0, member(self, 0, 0x0001, 1));
	want[0] |= 0x0001;
	traffic(_metadata, self, want);
}

TEST_F_TIMEOUT(mck, resize_replace_keep_groups_router_refused, 120)
{
	struct kbloom_xdp_geom big = { .capacity = 5000, .fpr_pico = 1000000000ULL };
	struct kbloom_xdp_geom bk = { .m = 1024, .k = 3 };
	struct kbloom_gate_cuckoo_info ci;
	__u32 want[NHOSTS] = { 0x00ff, 0xff00 };
	__u64 buckets;
	int h;

	for (h = 0; h < NHOSTS; h++)
		ASSERT_EQ(0, member(self, h, want[h], 1));
	ASSERT_EQ(0, kbloom_xdp_cuckoo_info(self->s.x, self->s.port[1], &ci));
	buckets = ci.params.shape.buckets;
	ASSERT_EQ(0, kbloom_mcast_port_resize(self->s.x, self->s.port[1], &big));
	ASSERT_EQ(0, kbloom_xdp_cuckoo_info(self->s.x, self->s.port[1], &ci));
	EXPECT_EQ(8, ci.params.inserted);
	EXPECT_EQ(8, ci.used);
	EXPECT_EQ(5000, ci.params.capacity);
	EXPECT_LT(buckets * 50, ci.params.shape.buckets);
	traffic(_metadata, self, want);
	/* the programs replaced: the cuckoo variant again, on the same maps */
	ASSERT_EQ(0, kbloom_xdp_replace(self->s.x));
	EXPECT_EQ(KBLOOM_XDP_VARIANT_CUCKOO, kbloom_xdp_variant(self->s.x));
	traffic(_metadata, self, want);

	/* refused, nothing changed */
	self->log.len = 0;
	self->log.text[0] = 0;
	EXPECT_EQ(-EINVAL, kbloom_mcast_port_resize(self->s.x, self->s.port[1],
						    &bk));
	EXPECT_NE(NULL, strstr(self->log.text,
			       "bits and hashes are for blocked filters"));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_mcast_router(self->s.x, self->s.port[0], 1,
						   KBLOOM_MEMBER_STATIC));
	EXPECT_NE(NULL, strstr(self->log.text, "not on a cuckoo switch"));
	ASSERT_EQ(0, kbloom_xdp_cuckoo_info(self->s.x, self->s.port[1], &ci));
	EXPECT_EQ(8, ci.params.inserted);
	EXPECT_EQ(5000, ci.params.capacity);
	traffic(_metadata, self, want);
}

/*
 * A writer that died inside its window leaves the counter odd: every read
 * of a lookup is unstable, the first in line and the others through
 * mcast_cuckoo_bucket(), so every copy is "possibly present": forwarded,
 * none an error, the groups not joined counted as leaks.  The counter
 * even again, the filters decide again.
 */
TEST_F_TIMEOUT(mck, odd_counter_forwards_every_copy, 120)
{
	const __u32 want[NHOSTS] = { 0x00ff, 0xff00 };
	const __u32 all[NHOSTS] = { 0xffff, 0xffff };
	const __u32 leak[NHOSTS] = { 0xff00, 0x00ff };
	int h;

	for (h = 0; h < NHOSTS; h++)
		ASSERT_EQ(0, member(self, h, want[h], 1));
	ASSERT_EQ(0, cseq_set(self, 7));
	traffic_leaks(_metadata, self, all, leak);
	ASSERT_EQ(0, cseq_set(self, 8));
	traffic(_metadata, self, want);
}

TEST_HARNESS_MAIN
