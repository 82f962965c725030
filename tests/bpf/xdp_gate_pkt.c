// SPDX-License-Identifier: GPL-2.0
/*
 * The gate path on synthetic frames (BPF_PROG_TEST_RUN): deny, allow and
 * monitor modes on IPv4 and IPv6 sources (and destinations), tags, non-IP
 * frames, malformed and truncated frames; the filter as a negative gate:
 * "definitely absent" never reaches the exact map, a false positive of
 * the filter is caught by the exact map and counted, and the counters add
 * up.
 */
#include <sched.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"

FIXTURE(gpkt) {
	char name[64];
	struct kbloom_xdp *x;
	int prog;
};

FIXTURE_VARIANT(gpkt) {
	__u64 m;	/* 0: planned for 1024 keys at 0.01% */
	__u32 k;
};

FIXTURE_VARIANT_ADD(gpkt, planned) {
	.m = 0,
};

/* a tiny filter: many false positives, all caught by the exact map */
FIXTURE_VARIANT_ADD(gpkt, tiny) {
	.m = 512,
	.k = 1,
};

static void gp_cleanup(FIXTURE_DATA(gpkt) *self)
{
	kbt_gate_drop(self->name, &self->x, &self->prog);
}

static int gp_setup(FIXTURE_DATA(gpkt) *self,
		    const FIXTURE_VARIANT(gpkt) *variant)
{
	struct kbloom_xdp_opts o = {
		.mode = KBLOOM_GATE_DENY,
		.geom = { .m = variant->m, .k = variant->k },
	};

	return kbt_gate_new("gpkt", &o, self->name, &self->x, &self->prog);
}

FIXTURE_SETUP(gpkt)
{
	int ret = gp_setup(self, variant);

	if (ret)
		gp_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(gpkt)
{
	gp_cleanup(self);
}

static const __u8 mc4[4] = { 239, 1, 1, 1 };
static const __u8 dst4[4] = { 10, 0, 0, 100 };
static const __u8 dst6[16] = { 0xfd, 0, [15] = 0x64 };
static const struct kbt_payload pl = { KBT_MAGIC, 0, 0, 0 };

static void addr_of(__u8 a[16], int v6, __u32 i)
{
	memset(a, 0, 16);
	if (!v6) {
		a[0] = 10;
		a[1] = 9;
		a[2] = (__u8)(i >> 8);
		a[3] = (__u8)i;
	} else {
		a[0] = 0xfd;
		a[13] = 9;
		a[14] = (__u8)(i >> 8);
		a[15] = (__u8)i;
	}
}

static size_t frame_from(__u8 *f, int v6, const __u8 *src, int vlan)
{
	struct kbt_frame_opts o = {
		.v6 = v6, .vlan = vlan, .src = src,
		.dst = v6 ? dst6 : dst4, .payload = &pl, .plen = sizeof(pl),
	};

	return kbt_frame(f, &o);
}

static __u32 verdict(int prog, const __u8 *f, size_t n)
{
	__u32 rv = XDP_ABORTED;

	if (kbt_run(prog, f, (__u32)n, 0, &rv))
		return 0xdead;
	return rv;
}

TEST_F(gpkt, deny_allow_monitor)
{
	static const __u32 modes[3] = { KBLOOM_GATE_DENY, KBLOOM_GATE_ALLOW,
					KBLOOM_GATE_MONITOR };
	__u8 a[16], f[256];
	__u32 i, m, want;
	int v6, vl, in;
	size_t n;

	for (v6 = 0; v6 < 2; v6++)
		for (i = 1; i <= 20; i += 4) {
			addr_of(a, v6, i);
			ASSERT_EQ(0, kbloom_gate_add(self->x, a, v6 ? 16 : 4));
		}
	for (m = 0; m < 3; m++) {
		ASSERT_EQ(0, kbloom_gate_set_mode(self->x, modes[m], 0));
		for (v6 = 0; v6 < 2; v6++)
			for (vl = 0; vl < 2; vl++)
				for (i = 0; i < 24; i++) {
					addr_of(a, v6, i);
					in = i >= 1 && i <= 20 && (i - 1) % 4 == 0;
					n = frame_from(f, v6, a, vl ? 42 : 0);
					if (modes[m] == KBLOOM_GATE_DENY)
						want = in ? XDP_DROP : XDP_PASS;
					else if (modes[m] == KBLOOM_GATE_ALLOW)
						want = in ? XDP_PASS : XDP_DROP;
					else
						want = XDP_PASS;
					EXPECT_EQ(want, verdict(self->prog, f, n))
						TH_LOG("mode %u v6 %d tag %d addr %u",
						       modes[m], v6, vl, i);
				}
	}
}

TEST_F(gpkt, destination_flag)
{
	__u8 a[16], f[256];
	size_t n;

	addr_of(a, 0, 7);
	ASSERT_EQ(0, kbloom_gate_add(self->x, dst4, 4));
	ASSERT_EQ(0, kbloom_gate_set_mode(self->x, KBLOOM_GATE_DENY, 0));
	n = frame_from(f, 0, a, 0);
	EXPECT_EQ(XDP_PASS, verdict(self->prog, f, n));
	ASSERT_EQ(0, kbloom_gate_set_mode(self->x, KBLOOM_GATE_DENY,
					  KBLOOM_GATE_F_DST));
	EXPECT_EQ(XDP_DROP, verdict(self->prog, f, n));
	n = frame_from(f, 1, a, 0);
	EXPECT_EQ(XDP_PASS, verdict(self->prog, f, n));
}

TEST_F(gpkt, non_ip_passes_malformed_dropped)
{
	struct kbloom_gate_stats a, b;
	__u8 src[16], f[256];
	size_t n;

	memset(f, 0, 64);
	memset(f, 0xff, 6);
	f[12] = 0x08;
	f[13] = 0x06;	/* ARP */
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &a));
	EXPECT_EQ(XDP_PASS, verdict(self->prog, f, 60));
	ASSERT_EQ(0, kbloom_gate_set_mode(self->x, KBLOOM_GATE_ALLOW, 0));
	EXPECT_EQ(XDP_PASS, verdict(self->prog, f, 60));
	addr_of(src, 0, 1);
	n = frame_from(f, 0, src, 0);
	f[14] = 0x46;	/* IHL 6 without the option: inconsistent */
	f[14 + 3] = 20;
	EXPECT_EQ(XDP_DROP, verdict(self->prog, f, n));
	ASSERT_EQ(0, kbloom_gate_set_mode(self->x, KBLOOM_GATE_DENY, 0));
	EXPECT_EQ(XDP_DROP, verdict(self->prog, f, n));
	ASSERT_EQ(0, kbloom_gate_set_mode(self->x, KBLOOM_GATE_MONITOR, 0));
	EXPECT_EQ(XDP_PASS, verdict(self->prog, f, n));
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &b));
	EXPECT_EQ(5, b.packets - a.packets);
	EXPECT_EQ(2, b.not_ip - a.not_ip);
	EXPECT_EQ(3, b.malformed - a.malformed);
	EXPECT_EQ(2, b.drops - a.drops);
}

/* Every truncation is dropped in deny and allow mode, never aborted. */
TEST_F(gpkt, every_truncation)
{
	__u8 src[16], f[512];
	__u32 len, mode;
	int v6, vl;
	size_t n;

	for (v6 = 0; v6 < 2; v6++) {
		addr_of(src, v6, 3);
		for (vl = 0; vl < 2; vl++) {
			n = frame_from(f, v6, src, vl ? 9 : 0);
			for (mode = KBLOOM_GATE_MONITOR;
			     mode <= KBLOOM_GATE_ALLOW; mode++) {
				ASSERT_EQ(0, kbloom_gate_set_mode(self->x, mode,
								  0));
				for (len = 14; len < n; len++) {
					__u32 v = verdict(self->prog, f, len);

					EXPECT_EQ(mode == KBLOOM_GATE_MONITOR ?
						  XDP_PASS : XDP_DROP, v)
						TH_LOG("v6 %d tag %d len %u",
						       v6, vl, len);
				}
				/* whole: not in the set */
				EXPECT_EQ(mode == KBLOOM_GATE_ALLOW ? XDP_DROP :
					  XDP_PASS, verdict(self->prog, f, n));
			}
		}
	}
}

/* A key only in the exact map is not seen: the filter said "absent". */
TEST_F(gpkt, negative_never_reaches_exact_map)
{
	struct kbloom_addr_key k = { .len = 4 };
	struct kbloom_gate_stats a, b;
	__u8 src[16], f[256];
	char p[512];
	__u32 one = 1, i;
	size_t n;
	int fd;

	/* an address the filter does not hold */
	for (i = 100;; i++) {
		addr_of(src, 0, i);
		if (!kbloom_xdp_filter_test(self->x, 0, src, 4))
			break;
		ASSERT_LT(i, 10000);
	}
	memcpy(k.addr, src, 4);
	snprintf(p, sizeof(p), "%s/gate_exact", kbloom_xdp_dir(self->x));
	fd = bpf_obj_get(p);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bpf_map_update_elem(fd, &k, &one, BPF_NOEXIST));
	close(fd);
	n = frame_from(f, 0, src, 0);
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &a));
	EXPECT_EQ(XDP_PASS, verdict(self->prog, f, n));
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &b));
	EXPECT_EQ(1, b.filter_negatives - a.filter_negatives);
	EXPECT_EQ(0, b.exact_lookups - a.exact_lookups);
	/* through the API the key is in force */
	EXPECT_EQ(-EEXIST, kbloom_gate_add(self->x, src, 4));
	ASSERT_EQ(0, kbloom_gate_del(self->x, src, 4));
	ASSERT_EQ(0, kbloom_gate_add(self->x, src, 4));
	EXPECT_EQ(XDP_DROP, verdict(self->prog, f, n));
}

TEST_F(gpkt, false_positives_caught)
{
	struct kbloom_gate_stats a, b;
	__u8 src[16], f[256];
	__u32 i, fps = 0, tested = 0, mode;
	size_t n;

	for (i = 0; i < 300; i++) {
		addr_of(src, 1, i);
		ASSERT_EQ(0, kbloom_gate_add(self->x, src, 16));
	}
	for (mode = KBLOOM_GATE_DENY; mode <= KBLOOM_GATE_ALLOW; mode++) {
		ASSERT_EQ(0, kbloom_gate_set_mode(self->x, mode, 0));
		ASSERT_EQ(0, kbloom_gate_stats(self->x, &a));
		fps = tested = 0;
		for (i = 1000; i < 3000; i++) {
			int t;

			addr_of(src, 1, i);
			t = kbloom_xdp_filter_test(self->x, 0, src, 16);
			n = frame_from(f, 1, src, 0);
			EXPECT_EQ(mode == KBLOOM_GATE_DENY ? XDP_PASS :
				  XDP_DROP, verdict(self->prog, f, n));
			fps += t;
			tested++;
		}
		ASSERT_EQ(0, kbloom_gate_stats(self->x, &b));
		EXPECT_EQ(fps, b.false_positives - a.false_positives);
		EXPECT_EQ(fps, b.exact_lookups - a.exact_lookups);
		EXPECT_EQ(tested - fps, b.filter_negatives - a.filter_negatives);
		EXPECT_EQ(0, b.exact_hits - a.exact_hits);
	}
	if (variant->m == 512)
		EXPECT_GT(fps, 100);	/* the tiny filter is mostly ones */
	TH_LOG("%u false positives in %u unlisted sources", fps, tested);
}

TEST_F(gpkt, counters_add_up)
{
	struct kbloom_gate_stats s;
	__u64 seed = 42, r;
	__u8 src[16], f[256];
	__u32 i;
	size_t n;

	for (i = 0; i < 50; i++) {
		addr_of(src, i & 1, i);
		ASSERT_EQ(0, kbloom_gate_add(self->x, src, i & 1 ? 16 : 4));
	}
	for (i = 0; i < 3000; i++) {
		r = kbt_rand(&seed);
		addr_of(src, r & 1, (r >> 8) % 200);
		n = frame_from(f, r & 1, src, (r >> 1) & 1 ? 5 : 0);
		if (((r >> 2) & 15) == 0)
			n = 14 + (r >> 16) % (n - 14);	/* truncated */
		if (((r >> 2) & 15) == 1) {
			f[12] = 0x08;
			f[13] = 0x06;	/* not IP */
		}
		verdict(self->prog, f, n);
	}
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &s));
	EXPECT_EQ(3000, s.packets);
	EXPECT_EQ(s.packets, s.not_ip + s.malformed + s.filter_negatives +
		  s.exact_lookups);
	EXPECT_EQ(s.packets, s.not_ip + s.drops + s.passed);
	EXPECT_EQ(s.exact_lookups, s.exact_hits + s.false_positives);
	EXPECT_EQ(0, s.errors);
	EXPECT_GT(s.not_ip, 0);
	EXPECT_GT(s.malformed, 0);
	EXPECT_GT(s.exact_hits, 0);
}

TEST_F(gpkt, delete_and_rebuild)
{
	struct kbloom_xdp_filter_info a, b;
	__u8 src[16], f[256];
	__u32 i;
	size_t n;

	for (i = 0; i < 40; i++) {
		addr_of(src, 0, i);
		ASSERT_EQ(0, kbloom_gate_add(self->x, src, 4));
	}
	addr_of(src, 0, 7);
	n = frame_from(f, 0, src, 0);
	EXPECT_EQ(XDP_DROP, verdict(self->prog, f, n));
	ASSERT_EQ(0, kbloom_gate_del(self->x, src, 4));
	EXPECT_EQ(-ENOENT, kbloom_gate_del(self->x, src, 4));
	/* the bits stay, the exact map has the last word */
	EXPECT_EQ(1, kbloom_xdp_filter_test(self->x, 0, src, 4));
	EXPECT_EQ(XDP_PASS, verdict(self->prog, f, n));
	ASSERT_EQ(0, kbloom_xdp_filter_info(self->x, 0, &a));
	ASSERT_EQ(0, kbloom_gate_rebuild(self->x, NULL));
	ASSERT_EQ(0, kbloom_xdp_filter_info(self->x, 0, &b));
	EXPECT_EQ(a.params.gen + 1, b.params.gen);
	EXPECT_EQ(39, b.params.inserted);
	EXPECT_LE(b.ones, a.ones);
	EXPECT_EQ(XDP_PASS, verdict(self->prog, f, n));
	for (i = 0; i < 40; i++) {
		if (i == 7)
			continue;
		addr_of(src, 0, i);
		n = frame_from(f, 0, src, 0);
		EXPECT_EQ(XDP_DROP, verdict(self->prog, f, n));
	}
	/* rebuild into another geometry */
	{
		struct kbloom_xdp_geom g = { .capacity = 100000,
					     .fpr_pico = 1000000 };

		ASSERT_EQ(0, kbloom_gate_rebuild(self->x, &g));
		ASSERT_EQ(0, kbloom_xdp_filter_info(self->x, 0, &b));
		EXPECT_EQ(100000, b.params.capacity);
		EXPECT_GT(b.m, a.m);
		for (i = 0; i < 40; i++) {
			addr_of(src, 0, i);
			n = frame_from(f, 0, src, 0);
			EXPECT_EQ(i == 7 ? XDP_PASS : XDP_DROP,
				  verdict(self->prog, f, n));
		}
	}
}

TEST_F(gpkt, argument_errors)
{
	struct kbloom_xdp_opts o = { .max_keys = 4 };
	__u8 src[16];
	struct kbloom_xdp *y;
	char name[64];
	__u32 i;

	addr_of(src, 0, 1);
	EXPECT_EQ(-EINVAL, kbloom_gate_add(self->x, src, 5));
	EXPECT_EQ(-EINVAL, kbloom_gate_add(self->x, NULL, 4));
	EXPECT_EQ(-EINVAL, kbloom_gate_set_mode(self->x, 3, 0));
	EXPECT_EQ(-EINVAL, kbloom_gate_set_mode(self->x, 0, 2));
	EXPECT_EQ(-EINVAL, kbloom_mcast_join(self->x, 1, mc4, 4));
	kbt_name(name, sizeof(name), "gpkt-small");
	ASSERT_EQ(0, kbloom_xdp_create(name, KBLOOM_XDP_GATE, &o, &y));
	for (i = 0; i < 4; i++) {
		addr_of(src, 0, i);
		EXPECT_EQ(0, kbloom_gate_add(y, src, 4));
	}
	addr_of(src, 0, 9);
	EXPECT_EQ(-ENOSPC, kbloom_gate_add(y, src, 4));
	EXPECT_EQ(0, kbloom_xdp_destroy(y));
	kbt_unpin(name);
}

/* ---- the adaptive mode and the batches ---------------------------------- */

#define NLISTED	200U
#define NDEL	20U	/* listed addresses 0..NDEL-1 are deleted by a test */

/* Listed address @i (10.9.0.i...) or unlisted address @i (10.9.3.232 + i). */
static void ad_addr(__u8 a[16], __u32 i, int listed)
{
	addr_of(a, 0, listed ? i : 1000 + i);
}

/* The set: NLISTED addresses; this thread on one CPU (one window). */
static int ad_fill(struct kbloom_xdp *x)
{
	struct kbloom_addr_key k[NLISTED];
	cpu_set_t cpus;
	__u32 i, at;

	CPU_ZERO(&cpus);
	CPU_SET(sched_getcpu() > 0 ? sched_getcpu() : 0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		return -errno;
	memset(k, 0, sizeof(k));
	for (i = 0; i < NLISTED; i++) {
		k[i].len = KBLOOM_ADDR4_LEN;
		ad_addr(k[i].addr, i, 1);
	}
	return kbloom_gate_add_batch(x, k, NLISTED, 0, &at);
}

static __u32 ad_verdict(int prog, __u32 i, int listed)
{
	__u8 a[16], f[256];

	ad_addr(a, i, listed);
	return verdict(prog, f, frame_from(f, 0, a, 0));
}

/*
 * @n frames, listed with probability @pct % (addresses NDEL.. of the set):
 * how many verdicts were wrong.
 */
static int burst(int prog, __u32 n, __u32 pct, __u64 *seed)
{
	int wrong = 0, listed;
	__u32 i, a;

	for (i = 0; i < n; i++) {
		listed = kbt_rand(seed) % 100 < pct;
		a = NDEL + kbt_rand(seed) % (NLISTED - NDEL);
		if (ad_verdict(prog, a, listed) !=
		    (listed ? XDP_DROP : XDP_PASS))
			wrong++;
	}
	return wrong;
}

static void expect_sums(struct __test_metadata *_metadata,
			const struct kbloom_gate_stats *s)
{
	EXPECT_EQ(s->packets, s->not_ip + s->malformed +
		  s->filter_negatives + s->exact_lookups + s->direct_lookups);
	EXPECT_EQ(s->exact_lookups, s->exact_hits + s->false_positives);
	EXPECT_EQ(s->packets, s->drops + s->passed);
}

TEST_F(gpkt, adapt_switches_both_ways)
{
	struct kbloom_gate_stats s;
	__u32 on, off;
	__u64 seed = 1;

	ASSERT_EQ(0, ad_fill(self->x));
	EXPECT_EQ(0, kbloom_gate_adapt(self->x, &on, &off));
	EXPECT_EQ(0, on);	/* off in a new gate */
	ASSERT_EQ(0, kbloom_gate_set_adapt(self->x, 75, 50));
	EXPECT_EQ(0, kbloom_gate_adapt(self->x, &on, &off));
	EXPECT_EQ(75, on);
	EXPECT_EQ(50, off);

	/* a flood of listed sources: direct mode */
	EXPECT_EQ(0, burst(self->prog, 4 * KBLOOM_GATE_ADAPT_WINDOW, 100,
			   &seed));
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &s));
	EXPECT_EQ(1, s.to_direct);
	EXPECT_EQ(0, s.to_filter);
	EXPECT_EQ(1, s.direct_now);
	EXPECT_EQ(3 * KBLOOM_GATE_ADAPT_WINDOW, s.direct_lookups);
	EXPECT_EQ(s.direct_lookups, s.direct_hits);
	expect_sums(_metadata, &s);

	/* unlisted sources: back to the filter */
	EXPECT_EQ(0, burst(self->prog, 2 * KBLOOM_GATE_ADAPT_WINDOW, 0,
			   &seed));
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &s));
	EXPECT_EQ(1, s.to_direct);
	EXPECT_EQ(1, s.to_filter);
	EXPECT_EQ(0, s.direct_now);
	EXPECT_EQ(4 * KBLOOM_GATE_ADAPT_WINDOW, s.direct_lookups);
	expect_sums(_metadata, &s);
}

TEST_F(gpkt, adapt_never_changes_a_verdict)
{
	static const __u32 pcts[] = { 100, 0, 90, 10, 60, 99, 1, 80, 40, 100 };
	struct kbloom_gate_stats s;
	__u64 seed = 7;
	__u8 a[16];
	__u32 i;

	ASSERT_EQ(0, ad_fill(self->x));
	ASSERT_EQ(0, kbloom_gate_set_adapt(self->x, 75, 50));
	for (i = 0; i < ARRAY_SIZE(pcts); i++)
		EXPECT_EQ(0, burst(self->prog, 300, pcts[i], &seed))
			TH_LOG("burst %u (%u%% listed)", i, pcts[i]);
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &s));
	EXPECT_LE(2, s.to_direct);
	EXPECT_LE(2, s.to_filter);
	expect_sums(_metadata, &s);

	/* deleted addresses pass in both modes (their bits stay) */
	for (i = 0; i < NDEL; i++) {
		ad_addr(a, i, 1);
		ASSERT_EQ(0, kbloom_gate_del(self->x, a, 4));
	}
	EXPECT_EQ(0, burst(self->prog, 300, 100, &seed));	/* direct */
	for (i = 0; i < NDEL; i++)
		EXPECT_EQ(XDP_PASS, ad_verdict(self->prog, i, 1));
	EXPECT_EQ(XDP_DROP, ad_verdict(self->prog, NDEL, 1));
	EXPECT_EQ(0, burst(self->prog, 300, 0, &seed));	/* filter */
	for (i = 0; i < NDEL; i++)
		EXPECT_EQ(XDP_PASS, ad_verdict(self->prog, i, 1));
}

TEST_F(gpkt, adapt_off_and_bad_settings)
{
	struct kbloom_gate_stats a, b;
	__u64 seed = 3;

	ASSERT_EQ(0, ad_fill(self->x));
	EXPECT_EQ(-EINVAL, kbloom_gate_set_adapt(self->x, 50, 75));
	EXPECT_EQ(-EINVAL, kbloom_gate_set_adapt(self->x, 101, 0));
	EXPECT_EQ(-EINVAL, kbloom_gate_set_adapt(NULL, 75, 50));
	ASSERT_EQ(0, kbloom_gate_set_adapt(self->x, 75, 50));
	EXPECT_EQ(0, burst(self->prog, 2 * KBLOOM_GATE_ADAPT_WINDOW, 100,
			   &seed));
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &a));
	ASSERT_EQ(1, a.direct_now);
	/* off: the next packet goes through the filter again */
	ASSERT_EQ(0, kbloom_gate_set_adapt(self->x, 0, 0));
	EXPECT_EQ(XDP_DROP, ad_verdict(self->prog, 5, 1));
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &b));
	EXPECT_EQ(a.direct_lookups, b.direct_lookups);
	EXPECT_EQ(a.exact_lookups + 1, b.exact_lookups);
	EXPECT_EQ(a.to_filter, b.to_filter);
}

/* The batches: all or nothing, with the index of the address at fault. */
TEST_F(gpkt, batches_all_or_nothing)
{
	struct kbloom_addr_key k[4];
	__u32 at, i;

	ASSERT_EQ(0, ad_fill(self->x));
	memset(k, 0, sizeof(k));
	for (i = 0; i < 4; i++) {
		k[i].len = KBLOOM_ADDR4_LEN;
		ad_addr(k[i].addr, 500 + i, 0);
	}
	ad_addr(k[2].addr, 7, 1);		/* listed already */
	EXPECT_EQ(-EEXIST, kbloom_gate_add_batch(self->x, k, 4, 0, &at));
	EXPECT_EQ(2, at);
	EXPECT_EQ(XDP_PASS, ad_verdict(self->prog, 500, 0));
	EXPECT_EQ(0, kbloom_gate_add_batch(self->x, k, 4,
					   KBLOOM_GATE_BATCH_EXIST, &at));
	EXPECT_EQ(XDP_DROP, ad_verdict(self->prog, 500, 0));
	EXPECT_EQ(XDP_DROP, ad_verdict(self->prog, 503, 0));

	k[3].addr[3] ^= 0x55;			/* not in the set */
	EXPECT_EQ(-ENOENT, kbloom_gate_del_batch(self->x, k, 4, 0, &at));
	EXPECT_EQ(3, at);
	EXPECT_EQ(XDP_DROP, ad_verdict(self->prog, 500, 0));
	EXPECT_EQ(XDP_DROP, ad_verdict(self->prog, 7, 1));

	k[1] = k[0];				/* twice in one batch */
	k[0].addr[3] ^= 0x77;
	k[1].addr[3] ^= 0x77;
	EXPECT_EQ(-EEXIST, kbloom_gate_add_batch(self->x, k, 2, 0, &at));
	EXPECT_EQ(1, at);
	k[1].addr[15] = 1;			/* not zero after len */
	EXPECT_EQ(-EINVAL, kbloom_gate_add_batch(self->x, k, 2, 0, &at));
	EXPECT_EQ(1, at);
	EXPECT_EQ(-EINVAL, kbloom_gate_add_batch(self->x, k, 2, 2, &at));
	EXPECT_EQ(-EINVAL, kbloom_gate_add_batch(self->x, NULL, 2, 0, &at));
}

TEST_HARNESS_MAIN
