// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP d-left connection tracker on crafted frames (BPF_PROG_TEST_RUN):
 * a SYN inserts its flow and a FIN or an RST deletes it, in the cells the
 * library gives the same keys; other segments of known flows pass (both
 * directions, IPv4 and IPv6, one VLAN tag), those of unknown flows are
 * counted and passed or dropped; truncated frames and non-TCP frames
 * pass and change no cell; full buckets and saturated counters are
 * counted; shapes whose cells straddle words are refused.  Both layouts
 * of the filter (spread and lines).
 */
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"
#include "libkbloom_dleft.h"

#define DP_SEED		0xF10735ULL
#define DP_FLOWS	400U
#define TCP_FIN		0x01
#define TCP_SYN		0x02
#define TCP_RST		0x04
#define TCP_ACK		0x10

/* The endpoints of flow @i: client 10.<i>.<i>.1:<1024 + i>, server :80. */
struct dp_flow {
	int v6;
	__u8 cli[16];
	__u8 srv[16];
	__u16 cport;
	__u16 sport;
};

static void dp_flow_of(struct dp_flow *fl, __u32 i)
{
	memset(fl, 0, sizeof(*fl));
	fl->v6 = i & 1;
	if (!fl->v6) {
		fl->cli[0] = 10;
		fl->cli[1] = (__u8)(i >> 8);
		fl->cli[2] = (__u8)i;
		fl->cli[3] = 1;
		fl->srv[0] = 192;
		fl->srv[1] = 0;
		fl->srv[2] = 2;
		fl->srv[3] = 80;
	} else {
		fl->cli[0] = 0xfd;
		fl->cli[14] = (__u8)(i >> 8);
		fl->cli[15] = (__u8)i;
		fl->srv[0] = 0x20;
		fl->srv[1] = 0x01;
		fl->srv[15] = 80;
	}
	fl->cport = (__u16)(1024 + i);
	fl->sport = 80;
}

/* A TCP segment of @fl with @flags, from the client or (@reply) back. */
static size_t dp_frame(__u8 *buf, const struct dp_flow *fl, int reply,
		       __u8 flags, int vlan)
{
	static const __u8 pad[12];
	struct kbt_frame_opts o = {
		.v6 = fl->v6, .vlan = vlan, .l4 = 6,
		.src = reply ? fl->srv : fl->cli,
		.dst = reply ? fl->cli : fl->srv,
		.payload = pad, .plen = sizeof(pad),
	};
	size_t len = kbt_frame(buf, &o);
	__u8 *tcp = buf + len - 20;

	memset(tcp, 0, 20);
	kbt_put16(tcp, reply ? fl->sport : fl->cport);
	kbt_put16(tcp + 2, reply ? fl->cport : fl->sport);
	tcp[12] = 0x50;
	tcp[13] = flags;
	return len;
}

/* The library's key of @fl: kb_dleft_flow_key() as the program builds it. */
static void dp_key(struct kbloom_dleft_flow *k, const struct dp_flow *fl)
{
	kb_dleft_flow_key(k, fl->v6 ? 6 : 4, fl->cli, htons(fl->cport),
			  fl->srv, htons(fl->sport));
}

FIXTURE(dp) {
	struct kbloom_dleft *lib;	/* the same keys, through the library */
	struct kbloom_dleft *snap;	/* the map's cells */
	struct kbloom_dleft_xdp *x;
	int prog;
};

static const struct kb_shape dp_shape = {
	.type = KBLOOM_TYPE_DLEFT, .tables = 4, .slots = 8, .fp_bits = 12,
	.counter_bits = 4, .buckets = 64,
};

/* The shapes of the fixture's variants, in the order below. */
static const struct kb_shape dp_shapes[] = {
	dp_shape,
	{ .type = KBLOOM_TYPE_DLEFT, .tables = 4, .slots = 3,
	  .fp_bits = 12, .counter_bits = 4, .buckets = 256 },
	{ .type = KBLOOM_TYPE_DLEFT, .tables = 4, .slots = 8,
	  .fp_bits = 6, .counter_bits = 2, .buckets = 256 },
	{ .type = KBLOOM_TYPE_DLEFT, .tables = 3, .slots = 5,
	  .fp_bits = 28, .counter_bits = 4, .buckets = 128 },
	{ .type = KBLOOM_TYPE_DLEFT, .tables = 4, .slots = 8,
	  .fp_bits = 12, .counter_bits = 4,
	  .update = KB_DLEFT_LAYOUT_LINES, .buckets = 64 },
	{ .type = KBLOOM_TYPE_DLEFT, .tables = 3, .slots = 3,
	  .fp_bits = 12, .counter_bits = 4,
	  .update = KB_DLEFT_LAYOUT_LINES, .buckets = 256 },
	{ .type = KBLOOM_TYPE_DLEFT, .tables = 4, .slots = 8,
	  .fp_bits = 28, .counter_bits = 4, .buckets = 64 },
	{ .type = KBLOOM_TYPE_DLEFT, .tables = 4, .slots = 8,
	  .fp_bits = 28, .counter_bits = 4,
	  .update = KB_DLEFT_LAYOUT_LINES, .buckets = 64 },
};
#define DP_NSHAPES	(sizeof(dp_shapes) / sizeof(dp_shapes[0]))

FIXTURE_VARIANT(dp) {
	struct kb_shape shape;
};

/* 8 cells of 16 bits: a bucket is two whole words */
FIXTURE_VARIANT_ADD(dp, whole) {
	.shape = dp_shapes[0],
};

/* 3 cells of 16 bits: buckets share and straddle words */
FIXTURE_VARIANT_ADD(dp, straddle16) {
	.shape = dp_shapes[1],
};

/* 8 cells of 8 bits: a bucket is one word */
FIXTURE_VARIANT_ADD(dp, cells8) {
	.shape = dp_shapes[2],
};

/* 5 cells of 32 bits */
FIXTURE_VARIANT_ADD(dp, straddle32) {
	.shape = dp_shapes[3],
};

/* The lines layout: a flow's buckets in two lines of whole words */
FIXTURE_VARIANT_ADD(dp, lines) {
	.shape = dp_shapes[4],
};

/* The lines layout, 3 cells of 16 bits, d = 3: buckets straddle words */
FIXTURE_VARIANT_ADD(dp, lines_straddle16) {
	.shape = dp_shapes[5],
};

/* 8 cells of 32 bits: a bucket is four whole words */
FIXTURE_VARIANT_ADD(dp, whole32) {
	.shape = dp_shapes[6],
};

/* The lines layout, 8 cells of 32 bits */
FIXTURE_VARIANT_ADD(dp, lines32) {
	.shape = dp_shapes[7],
};

/*
 * A tracker of each shape, loaded once, in the harness's process before
 * the tests run (each test runs in a child of it): a load verifies the
 * program, seconds on a loaded machine, and the fixture's tests took
 * a load each for these 8 shapes.  dp_open() hands a test the tracker of
 * its shape with the cells, the miss action (an import of the empty
 * filter) and the statistics reset; the test's kbloom_dleft_xdp_close()
 * closes its child's copies only.
 */
static struct kbloom_dleft_xdp *dp_loaded[DP_NSHAPES];

static void __attribute__((constructor)) dp_preload(void)
{
	struct kbloom_dleft_opts o = { .seed = DP_SEED };
	struct kbloom_dleft *f;
	size_t i;

	for (i = 0; i < DP_NSHAPES; i++) {
		if (kbloom_dleft_create_shape(&dp_shapes[i], &o, &f))
			continue;
		if (kbloom_dleft_xdp_open(f, KBLOOM_DLEFT_MISS_PASS,
					  &dp_loaded[i]))
			dp_loaded[i] = NULL;
		kbloom_dleft_destroy(f);
	}
}

/* The tracker of @f's shape, holding @f's (empty) cells. */
static int dp_open(const struct kbloom_dleft *f, const struct kb_shape *shape,
		   struct kbloom_dleft_xdp **x)
{
	size_t i;

	for (i = 0; i < DP_NSHAPES; i++) {
		if (!dp_loaded[i] || memcmp(shape, &dp_shapes[i], sizeof(*shape)))
			continue;
		*x = dp_loaded[i];
		return kbt_zero_pcpu0(kbloom_dleft_xdp_prog_fd(*x), "dleft_stats",
				      sizeof(struct kbloom_dleft_xdp_stats)) ?:
		       kbloom_dleft_xdp_import(*x, f);
	}
	return kbloom_dleft_xdp_open(f, KBLOOM_DLEFT_MISS_PASS, x);
}

FIXTURE_SETUP(dp)
{
	struct kbloom_dleft_opts o = { .seed = DP_SEED };

	ASSERT_EQ(0, kbloom_dleft_create_shape(&variant->shape, &o,
					       &self->lib));
	ASSERT_EQ(0, kbloom_dleft_create_shape(&variant->shape, &o,
					       &self->snap));
	ASSERT_EQ(0, dp_open(self->lib, &variant->shape, &self->x));
	self->prog = kbloom_dleft_xdp_prog_fd(self->x);
	ASSERT_LE(0, self->prog);
}

FIXTURE_TEARDOWN(dp)
{
	kbloom_dleft_xdp_close(self->x);
	kbloom_dleft_destroy(self->snap);
	kbloom_dleft_destroy(self->lib);
}

/* Run one segment; its XDP verdict. */
static __u32 dp_send(int prog, const struct dp_flow *fl, int reply,
		     __u8 flags, int vlan)
{
	__u8 buf[256];
	__u32 ret = ~0U;
	size_t len = dp_frame(buf, fl, reply, flags, vlan);

	if (kbt_run(prog, buf, (__u32)len, 0, &ret))
		return ~0U;
	return ret;
}

/* The map's cells equal the library's. */
static int dp_same_cells(FIXTURE_DATA(dp) *self)
{
	const __u64 *a, *b;
	__u64 n, n2;

	if (kbloom_dleft_xdp_export(self->x, self->snap))
		return 0;
	a = kbloom_dleft_words(self->lib, &n);
	b = kbloom_dleft_words(self->snap, &n2);
	return n == n2 && !memcmp(a, b, n * 8);
}

TEST_F(dp, syn_inserts_fin_deletes_same_cells)
{
	struct kbloom_dleft_xdp_stats st;
	struct kbloom_dleft_stats ds;
	struct kbloom_dleft_flow k;
	struct dp_flow fl;
	__u32 i;

	for (i = 0; i < DP_FLOWS; i++) {
		dp_flow_of(&fl, i);
		ASSERT_EQ(XDP_PASS, dp_send(self->prog, &fl, 0, TCP_SYN, 0));
		dp_key(&k, &fl);
		ASSERT_EQ(0, kbloom_dleft_add(self->lib, &k, sizeof(k)));
	}
	ASSERT_TRUE(dp_same_cells(self));
	/* SYN-ACK and data both ways: known flows */
	for (i = 0; i < DP_FLOWS; i++) {
		dp_flow_of(&fl, i);
		ASSERT_EQ(XDP_PASS, dp_send(self->prog, &fl, 1,
					    TCP_SYN | TCP_ACK, 0));
		ASSERT_EQ(XDP_PASS, dp_send(self->prog, &fl, 0, TCP_ACK,
					    i % 3 == 0 ? 7 : 0));
	}
	/* FIN from the client for even flows, RST from the server for odd */
	for (i = 0; i < DP_FLOWS / 2; i++) {
		dp_flow_of(&fl, i);
		ASSERT_EQ(XDP_PASS, dp_send(self->prog, &fl, i & 1,
					    i & 1 ? TCP_RST : TCP_FIN | TCP_ACK,
					    0));
		dp_key(&k, &fl);
		ASSERT_EQ(0, kbloom_dleft_del(self->lib, &k, sizeof(k)));
	}
	ASSERT_TRUE(dp_same_cells(self));
	ASSERT_EQ(0, kbloom_dleft_xdp_stats(self->x, &st));
	EXPECT_EQ(DP_FLOWS, st.inserted);
	EXPECT_EQ(DP_FLOWS / 2, st.deleted);
	EXPECT_EQ(2 * DP_FLOWS, st.hits);
	EXPECT_EQ(0, st.misses);
	EXPECT_EQ(0, st.overflows + st.races + st.malformed + st.other);
	/* every flow deleted: the cells are empty again */
	for (i = DP_FLOWS / 2; i < DP_FLOWS; i++) {
		dp_flow_of(&fl, i);
		ASSERT_EQ(XDP_PASS, dp_send(self->prog, &fl, 0, TCP_FIN, 0));
		dp_key(&k, &fl);
		ASSERT_EQ(0, kbloom_dleft_del(self->lib, &k, sizeof(k)));
	}
	ASSERT_TRUE(dp_same_cells(self));
	ASSERT_EQ(0, kbloom_dleft_stats(self->snap, &ds));
	EXPECT_EQ(0, ds.cells_used);
}

TEST_F(dp, unknown_flows_counted_passed_or_dropped)
{
	struct kbloom_dleft_xdp_stats st;
	struct dp_flow fl;
	__u32 i, passed = 0;

	for (i = 0; i < 100; i++) {
		dp_flow_of(&fl, 1000 + i);
		passed += dp_send(self->prog, &fl, 0, TCP_ACK, 0) == XDP_PASS;
	}
	EXPECT_EQ(100, passed);
	ASSERT_EQ(0, kbloom_dleft_xdp_set_miss(self->x,
					       KBLOOM_DLEFT_MISS_DROP));
	dp_flow_of(&fl, 5);
	ASSERT_EQ(XDP_PASS, dp_send(self->prog, &fl, 0, TCP_SYN, 0));
	ASSERT_EQ(XDP_PASS, dp_send(self->prog, &fl, 1, TCP_ACK, 0));
	dp_flow_of(&fl, 6);
	ASSERT_EQ(XDP_DROP, dp_send(self->prog, &fl, 1, TCP_ACK, 0));
	ASSERT_EQ(0, kbloom_dleft_xdp_stats(self->x, &st));
	EXPECT_EQ(101, st.misses);
	EXPECT_EQ(1, st.dropped);
	EXPECT_EQ(1, st.hits);
	EXPECT_EQ(-EINVAL, kbloom_dleft_xdp_set_miss(self->x, 2));
}

/* Truncated SYNs, UDP and ARP frames pass and change no cell. */
TEST_F(dp, truncated_and_other_frames_untouched)
{
	struct kbloom_dleft_xdp_stats st;
	struct dp_flow fl;
	__u8 buf[256], ip[4] = { 10, 0, 0, 1 };
	struct kbt_frame_opts udp = { .src = ip, .dst = ip };
	__u32 ret, cut, n = 0;
	size_t len;
	int v6;

	for (v6 = 0; v6 < 2; v6++) {
		dp_flow_of(&fl, v6);
		len = dp_frame(buf, &fl, 0, TCP_SYN, 0);
		/* BPF_PROG_TEST_RUN takes frames of an Ethernet header on */
		for (cut = ETH_HLEN; cut < len; cut++, n++) {
			ASSERT_EQ(0, kbt_run(self->prog, buf, cut, 0, &ret));
			ASSERT_EQ(XDP_PASS, ret);
		}
	}
	ASSERT_TRUE(dp_same_cells(self));
	len = kbt_frame(buf, &udp);
	ASSERT_EQ(0, kbt_run(self->prog, buf, (__u32)len, 0, &ret));
	ASSERT_EQ(XDP_PASS, ret);
	buf[12] = 0x08;
	buf[13] = 0x06;		/* ARP */
	ASSERT_EQ(0, kbt_run(self->prog, buf, (__u32)len, 0, &ret));
	ASSERT_EQ(XDP_PASS, ret);
	ASSERT_TRUE(dp_same_cells(self));
	ASSERT_EQ(0, kbloom_dleft_xdp_stats(self->x, &st));
	EXPECT_EQ(0, st.inserted);
	EXPECT_EQ(n, st.malformed);
	EXPECT_EQ(2, st.other);
}

TEST_F(dp, saturation_counted)
{
	struct kbloom_dleft_xdp_stats st;
	struct kbloom_dleft_flow k;
	__u64 c, max = kb_ctr_max(variant->shape.counter_bits);
	struct dp_flow fl;
	__u32 i;

	dp_flow_of(&fl, 3);
	for (i = 0; i < max + 1; i++)
		ASSERT_EQ(XDP_PASS, dp_send(self->prog, &fl, 0, TCP_SYN, 0));
	ASSERT_EQ(0, kbloom_dleft_xdp_stats(self->x, &st));
	EXPECT_EQ(max, st.inserted);
	EXPECT_EQ(1, st.saturations);
	ASSERT_EQ(0, kbloom_dleft_xdp_export(self->x, self->snap));
	dp_key(&k, &fl);
	ASSERT_EQ(0, kbloom_dleft_count(self->snap, &k, sizeof(k), &c));
	EXPECT_EQ(max, c);
}

/* @n SYNs of distinct flows into a filter of fewer cells. */
static void dp_overflow(struct __test_metadata *_metadata,
			const struct kb_shape *tiny, __u32 n)
{
	__u32 i, cells = tiny->tables * (__u32)tiny->buckets * tiny->slots;
	struct kbloom_dleft_xdp_stats st;
	struct kbloom_dleft_xdp *x;
	struct kbloom_dleft *f;
	struct dp_flow fl;

	ASSERT_EQ(0, kbloom_dleft_create_shape(tiny, NULL, &f));
	ASSERT_EQ(0, kbloom_dleft_xdp_open(f, KBLOOM_DLEFT_MISS_PASS, &x));
	for (i = 0; i < n; i++) {
		dp_flow_of(&fl, i);
		ASSERT_EQ(XDP_PASS, dp_send(kbloom_dleft_xdp_prog_fd(x), &fl,
					    0, TCP_SYN, 0));
	}
	ASSERT_EQ(0, kbloom_dleft_xdp_stats(x, &st));
	EXPECT_LE(st.inserted, cells);
	EXPECT_EQ(n, st.inserted + st.overflows + st.saturations);
	EXPECT_LE(n - cells, st.overflows);
	kbloom_dleft_xdp_close(x);
	kbloom_dleft_destroy(f);
}

/* A full filter of each layout: the refused SYNs are counted. */
TEST(overflow_counted)
{
	static const struct kb_shape tiny = {
		.type = KBLOOM_TYPE_DLEFT, .tables = 2, .slots = 1,
		.fp_bits = 12, .counter_bits = 4, .buckets = 2,
	};
	__u32 layout;

	for (layout = 0; layout <= KB_DLEFT_LAYOUT_LINES; layout++) {
		struct kb_shape s = tiny;

		s.update = layout;
		dp_overflow(_metadata, &s, 32);
	}
}

/*
 * Full buckets of whole words (8 cells of 16 and of 32 bits, the scans
 * specialised for them), each layout: 64 SYNs for 32 cells.
 */
TEST(overflow_counted_whole)
{
	static const struct kb_shape small = {
		.type = KBLOOM_TYPE_DLEFT, .tables = 2, .slots = 8,
		.fp_bits = 12, .counter_bits = 4, .buckets = 2,
	};
	__u32 layout, bits;

	for (bits = 12; bits <= 28; bits += 16)
		for (layout = 0; layout <= KB_DLEFT_LAYOUT_LINES; layout++) {
			struct kb_shape s = small;

			s.fp_bits = bits;
			s.update = layout;
			dp_overflow(_metadata, &s, 64);
		}
}

/* Cells that straddle words have no BPF form. */
TEST(straddling_shape_refused)
{
	struct kb_shape s = dp_shape;
	struct kbloom_dleft_xdp *x = NULL;
	struct kbloom_dleft *f;

	s.counter_bits = 2;	/* 14-bit cells */
	ASSERT_EQ(0, kbloom_dleft_create_shape(&s, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_dleft_xdp_open(f, KBLOOM_DLEFT_MISS_PASS,
						 &x));
	EXPECT_EQ(NULL, x);
	EXPECT_EQ(-EINVAL, kbloom_dleft_xdp_open(f, 7, &x));
	kbloom_dleft_destroy(f);
}

TEST_HARNESS_MAIN
