// SPDX-License-Identifier: GPL-2.0
/*
 * XDP duplicate suppression (bpf/kbloom_dedupe.bpf.c, a stable Bloom
 * filter tested and added per frame, libkbloom_stable's loader) on
 * synthetic frames (BPF_PROG_TEST_RUN):
 *   - the first copy of a frame passes, a copy right after it is dropped
 *     (or passed and counted), also when its TTL (and so its IPv4
 *     checksum) differs: a copy that took another path; IPv6 and VLAN
 *     frames too; non-IP and malformed frames pass untested;
 *   - 2000 distinct frames each sent twice: every second copy dropped,
 *     first copies passed but for the stable filter's false positives;
 *     the counters add up;
 *   - the map read as a library filter answers "present" for the key of
 *     a frame just sent, built in userspace as uapi/kbloom_dedupe_maps.h
 *     defines it (the same positions in both executors);
 *   - a library image loaded into the map makes its keys repeats at
 *     once; an image of another geometry is refused with nothing changed.
 */
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"
#include "libkbloom_stable.h"

#define NFRAMES		2000U
#define M_CELLS		(1U << 16)

FIXTURE(dd) {
	struct kbloom_stable_xdp *x;
	int prog;
};

FIXTURE_VARIANT(dd) {
	__u32 action;
	__u32 cell_bits;
};

FIXTURE_VARIANT_ADD(dd, drop) {
	.action = KBLOOM_DEDUPE_DROP,
	.cell_bits = 1,
};

FIXTURE_VARIANT_ADD(dd, count_4bit) {
	.action = KBLOOM_DEDUPE_COUNT,
	.cell_bits = 4,
};

FIXTURE_SETUP(dd)
{
	struct kbloom_stable_xdp_opts o = {
		.m = M_CELLS, .k = 3, .cell_bits = variant->cell_bits,
		.p = 10, .seed = 0xDD, .action = variant->action,
	};

	if (geteuid())
		SKIP(return, "needs root (BPF)");
	ASSERT_EQ(0, kbloom_stable_xdp_open(&o, &self->x));
	self->prog = kbloom_stable_xdp_prog_fd(self->x);
}

FIXTURE_TEARDOWN(dd)
{
	kbloom_stable_xdp_close(self->x);
}

static const __u8 dst4[4] = { 10, 0, 0, 100 };
static const __u8 dst6[16] = { 0xfd, 0, [15] = 0x64 };

/* Frame @i: its own source; IPv6 for odd @i when @mix, a VLAN tag. */
static size_t frame_of(__u8 *f, __u32 i, int mix, int vlan)
{
	struct kbt_payload pl = { KBT_MAGIC, 0, i, 0 };
	__u8 src[16] = { 10, 9, (__u8)(i >> 8), (__u8)i };
	struct kbt_frame_opts o = {
		.v6 = mix && (i & 1), .vlan = vlan, .src = src, .dst = dst4,
		.payload = &pl, .plen = sizeof(pl),
	};

	if (o.v6) {
		memset(src, 0, sizeof(src));
		src[0] = 0xfd;
		src[14] = (__u8)(i >> 8);
		src[15] = (__u8)i;
		o.dst = dst6;
	}
	return kbt_frame(f, &o);
}

static __u32 verdict(int prog, const __u8 *f, size_t n)
{
	__u32 rv = XDP_ABORTED;

	if (kbt_run(prog, f, (__u32)n, 0, &rv))
		return 0xdead;
	return rv;
}

/* The key of an untagged IPv4 frame, as the program builds it. */
static void key_of4(const __u8 *f, struct kbloom_dedupe_key *k)
{
	memset(k, 0, sizeof(*k));
	memcpy(k->src, f + 14 + 12, 4);
	memcpy(k->dst, f + 14 + 16, 4);
	k->l4proto = f[14 + 9];
	k->addr_len = 4;
	memcpy(k->l4, f + 14 + 20, KBLOOM_DEDUPE_L4_BYTES);
}

TEST_F(dd, copies)
{
	__u32 repeat = variant->action == KBLOOM_DEDUPE_DROP ? XDP_DROP :
							       XDP_PASS;
	struct kbloom_dedupe_stats st;
	__u8 f[256], g[256];
	size_t n;

	n = frame_of(f, 1, 0, 0);
	EXPECT_EQ(XDP_PASS, verdict(self->prog, f, n));
	EXPECT_EQ(repeat, verdict(self->prog, f, n));
	/* another path: TTL and IPv4 checksum differ, still a copy */
	memcpy(g, f, n);
	g[14 + 8] = 7;
	g[14 + 10] ^= 0x55;
	EXPECT_EQ(repeat, verdict(self->prog, g, n));
	/* IPv6 and tagged frames */
	n = frame_of(f, 3, 1, 0);
	EXPECT_EQ(XDP_PASS, verdict(self->prog, f, n));
	EXPECT_EQ(repeat, verdict(self->prog, f, n));
	n = frame_of(f, 4, 0, 5);
	EXPECT_EQ(XDP_PASS, verdict(self->prog, f, n));
	EXPECT_EQ(repeat, verdict(self->prog, f, n));
	/* not IP, malformed: untested */
	n = frame_of(f, 5, 0, 0);
	memcpy(g, f, n);
	g[12] = 0x08;
	g[13] = 0x06;		/* ARP */
	EXPECT_EQ(XDP_PASS, verdict(self->prog, g, n));
	EXPECT_EQ(XDP_PASS, verdict(self->prog, g, n));
	EXPECT_EQ(XDP_PASS, verdict(self->prog, f, 30));
	ASSERT_EQ(0, kbloom_stable_xdp_stats(self->x, &st));
	EXPECT_EQ(10, st.packets);
	EXPECT_EQ(3, st.first);
	EXPECT_EQ(4, st.repeats);
	EXPECT_EQ(repeat == XDP_DROP ? 4 : 0, st.dropped);
	EXPECT_EQ(2, st.not_ip);
	EXPECT_EQ(1, st.malformed);
	EXPECT_EQ(0, st.errors);
}

TEST_F(dd, stream)
{
	__u32 repeat = variant->action == KBLOOM_DEDUPE_DROP ? XDP_DROP :
							       XDP_PASS;
	__u32 i, first = 0, bad = 0, present = 0;
	struct kbloom_dedupe_stats st;
	struct kbloom_dedupe_key k;
	struct kbloom_stable *lib;
	__u8 f[256];
	size_t n;

	for (i = 0; i < NFRAMES; i++) {
		n = frame_of(f, 100 + i, 1, 0);
		first += verdict(self->prog, f, n) == XDP_PASS;
		bad += verdict(self->prog, f, n) != repeat;
	}
	TH_LOG("%u of %u first copies passed", first, NFRAMES);
	EXPECT_EQ(0, bad);
	EXPECT_LE(NFRAMES - 10, first);
	ASSERT_EQ(0, kbloom_stable_xdp_stats(self->x, &st));
	EXPECT_EQ(2 * NFRAMES, st.packets);
	EXPECT_EQ(2 * NFRAMES, st.first + st.repeats);
	EXPECT_EQ(NFRAMES + (NFRAMES - first) * (repeat == XDP_PASS),
		  st.repeats);
	/*
	 * The library finds a frame's key in the map's cells right after
	 * the frame (it may forget it later: a stable filter fades)
	 */
	for (i = 0; i < 50; i++) {
		n = frame_of(f, 10000 + 2 * i, 0, 0);
		EXPECT_NE(0xdead, verdict(self->prog, f, n));
		key_of4(f, &k);
		ASSERT_EQ(0, kbloom_stable_xdp_read(self->x, &lib));
		present += kbloom_stable_test(lib, &k, sizeof(k)) == 1;
		kbloom_stable_destroy(lib);
	}
	EXPECT_EQ(50, present);
}

TEST_F(dd, image)
{
	__u32 repeat = variant->action == KBLOOM_DEDUPE_DROP ? XDP_DROP :
							       XDP_PASS;
	struct kbloom_opts o = { .seed = 0xDD };
	struct kbloom_dedupe_key k;
	struct kbloom_stable *lib, *other;
	__u8 f[256];
	size_t n, len;
	void *img;

	n = frame_of(f, 77, 0, 0);
	key_of4(f, &k);
	ASSERT_EQ(0, kbloom_stable_create(M_CELLS, 3, variant->cell_bits, 10,
					  &o, &lib));
	ASSERT_EQ(0, kbloom_stable_add(lib, &k, sizeof(k)));
	ASSERT_EQ(0, kbloom_stable_save_alloc(lib, &img, &len));
	ASSERT_EQ(0, kbloom_stable_xdp_load_image(self->x, img, len));
	free(img);
	EXPECT_EQ(repeat, verdict(self->prog, f, n));
	/* another geometry: refused, the cells stay */
	ASSERT_EQ(0, kbloom_stable_create(M_CELLS, 4, variant->cell_bits, 10,
					  &o, &other));
	ASSERT_EQ(0, kbloom_stable_save_alloc(other, &img, &len));
	EXPECT_EQ(-EINVAL, kbloom_stable_xdp_load_image(self->x, img, len));
	free(img);
	EXPECT_EQ(repeat, verdict(self->prog, f, n));
	kbloom_stable_destroy(other);
	kbloom_stable_destroy(lib);
}

TEST_HARNESS_MAIN
