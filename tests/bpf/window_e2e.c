// SPDX-License-Identifier: GPL-2.0
/*
 * The window paths (bpf/kbloom_window.bpf.c) end to end between two
 * namespaces:
 *
 *     a: eth0 10.0.0.1/24 (+ 10.0.0.11..14)  ---  b: eth0 10.0.0.2/24
 *        the peers                              tc egress kbloom_window_out
 *                                               XDP (native) kbloom_window_in
 *                                               or kbloom_window_dedupe
 *
 * A window of T = l gen = 3 x 200 ms, rotated by the programs; each check
 * "inside T" is made only while the clock says so (a loaded host may
 * sleep longer: then it is logged and skipped), each "after T" waits
 * until (l + 1) generations have passed:
 *  - gate of return traffic: UDP from a's sources reaches b only from the
 *    peers b sent to within T: nothing before b sends, then exactly the
 *    peer b contacted, and nothing from it again after (l + 1) gen with
 *    no traffic; ARP keeps working;
 *  - dedupe: the first datagram of each source in T reaches b, repeats
 *    inside T are dropped, and pass again once T is over;
 *  - the counters agree with what b received, and the programs rotated;
 *  - the maps, written as an image, load in libkbloom_window, which finds
 *    the address the tc program added and none other (the same hash,
 *    positions and head).
 */
#include <netinet/in.h>
#include <linux/bpf.h>
#include <linux/if_link.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"
#include "libkbloom_window.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_window_maps.h"
#include "uapi/kbloom_var_window.h"
#include "bpf/kbloom_window.skel.h"

#define NSRC		4		/* 10.0.0.11..14 */
#define GEN_NS		200000000ULL	/* 200 ms */
#define T_S		0.6		/* the window, l gen */
#define FORGET_S	0.85		/* past (l + 1) gen */
#define WIN_K		4
#define WIN_L		3
#define SLICE		1024

FIXTURE(win) {
	struct kbt_ns a, b;
	struct kbloom_window *skel;
	int b_if;
	int tx[NSRC];		/* UDP sockets of a, one per source */
	int rx;			/* UDP socket of b */
	int btx;		/* UDP socket of b, to contact peers */
	int tc_attached;
};

static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* An empty window: parameters, the clock started now, no word set. */
static int win_reset(struct kbloom_window *skel)
{
	struct kbloom_win_xdp_params p = {
		.k = WIN_K, .l = WIN_L, .hash_id = KBLOOM_HASH_FAST,
		.slice_bits = SLICE, .gen_ns = GEN_NS, .seed = 0x3A11,
	};
	struct kbloom_win_xdp_state st = { .gen_start = mono_ns() };
	__u32 zero = 0, i, n = (WIN_K + WIN_L) * SLICE / 64;
	__u64 w = 0;

	for (i = 0; i < n; i++)
		if (bpf_map_update_elem(bpf_map__fd(skel->maps.win_words), &i,
					&w, 0))
			return -1;
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.win_params), &zero, &p,
				0))
		return -1;
	return bpf_map_update_elem(bpf_map__fd(skel->maps.win_state), &zero,
				   &st, 0);
}

/* In b: the XDP program @prog on eth0 (native), replacing any. */
static int xdp_on_b(FIXTURE_DATA(win) *self, struct bpf_program *prog)
{
	int saved, ret;

	if (kbt_ns_enter(&self->b, &saved))
		return -1;
	ret = bpf_xdp_attach(self->b_if, bpf_program__fd(prog),
			     XDP_FLAGS_DRV_MODE, NULL);
	kbt_ns_leave(saved);
	return ret;
}

/* In b: kbloom_window_out on eth0's tc egress. */
static int tc_on_b(FIXTURE_DATA(win) *self)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .attach_point = BPF_TC_EGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = 1, .priority = 1);
	int saved, ret;

	hook.ifindex = self->b_if;
	opts.prog_fd = bpf_program__fd(self->skel->progs.kbloom_window_out);
	if (kbt_ns_enter(&self->b, &saved))
		return -1;
	ret = bpf_tc_hook_create(&hook);
	if (!ret || ret == -EEXIST)
		ret = bpf_tc_attach(&hook, &opts);
	kbt_ns_leave(saved);
	return ret;
}

static void wn_cleanup(FIXTURE_DATA(win) *self)
{
	int i;

	for (i = 0; i < NSRC; i++)
		if (self->tx[i] > 0)
			close(self->tx[i]);
	if (self->rx > 0)
		close(self->rx);
	if (self->btx > 0)
		close(self->btx);
	kbloom_window__destroy(self->skel);
	self->skel = NULL;
	kbt_ns_free(&self->a);
	kbt_ns_free(&self->b);
}

static int wn_net(FIXTURE_DATA(win) *self)
{
	char addr[32];
	int i;

	if (kbt_ns_quiet(&self->a) || kbt_ns_quiet(&self->b))
		return -1;
	if (kbt_veth(&self->a, "eth0", &self->b, "eth0", 9))
		return -1;
	if (kbt_sh(&self->a, "ip addr add 10.0.0.1/24 dev eth0") ||
	    kbt_sh(&self->b, "ip addr add 10.0.0.2/24 dev eth0"))
		return -1;
	for (i = 0; i < NSRC; i++) {
		if (kbt_sh(&self->a, "ip addr add 10.0.0.%d/24 dev eth0",
			   11 + i))
			return -1;
		snprintf(addr, sizeof(addr), "10.0.0.%d", 11 + i);
		self->tx[i] = kbt_udp_sock(&self->a, addr, 5000);
		if (self->tx[i] < 0)
			return -1;
	}
	self->b_if = kbt_ifindex(&self->b, "eth0");
	self->rx = kbt_udp_sock(&self->b, "10.0.0.2", 5000);
	self->btx = kbt_udp_sock(&self->b, "10.0.0.2", 0);
	return self->rx > 0 && self->btx > 0 ? 0 : -1;
}

static int wn_setup(FIXTURE_DATA(win) *self)
{
	if (wn_net(self))
		return -1;
	self->skel = kbloom_window__open();
	if (!self->skel)
		return -1;
	bpf_map__set_max_entries(self->skel->maps.win_words,
				 (WIN_K + WIN_L) * SLICE / 64);
	if (kbloom_window__load(self->skel) || win_reset(self->skel))
		return -1;
	return tc_on_b(self);
}

FIXTURE_SETUP(win)
{
	int ret = wn_setup(self);

	if (ret)
		wn_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(win)
{
	wn_cleanup(self);
}

/* One datagram from each source of @mask; count what b's socket got. */
static int from_peers(FIXTURE_DATA(win) *self, unsigned int mask,
		      __u32 got[NSRC])
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(5000) }, from;
	socklen_t fl;
	char buf[64];
	double last;
	int i;

	inet_pton(AF_INET, "10.0.0.2", &to.sin_addr);
	memset(got, 0, NSRC * sizeof(got[0]));
	for (i = 0; i < NSRC; i++)
		if ((mask & (1U << i)) &&
		    sendto(self->tx[i], "kbloom", 6, 0,
			   (struct sockaddr *)&to, sizeof(to)) != 6)
			return -1;
	last = kbt_now();
	while (kbt_now() - last < 0.05) {
		fl = sizeof(from);
		if (recvfrom(self->rx, buf, sizeof(buf), 0,
			     (struct sockaddr *)&from, &fl) < 0) {
			usleep(1000);
			continue;
		}
		i = ((__u8 *)&from.sin_addr)[3] - 11;
		if (i >= 0 && i < NSRC)
			got[i]++;
	}
	return 0;
}

/* b sends one datagram to peer @i (its tc egress adds the address). */
static int contact(FIXTURE_DATA(win) *self, int i)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(5000) };
	char addr[32];

	snprintf(addr, sizeof(addr), "10.0.0.%d", 11 + i);
	inet_pton(AF_INET, addr, &to.sin_addr);
	return sendto(self->btx, "hello", 5, 0, (struct sockaddr *)&to,
		      sizeof(to)) == 5 ? 0 : -1;
}

static void stats_sum(FIXTURE_DATA(win) *self, struct kbloom_win_xdp_stats *s)
{
	int n = libbpf_num_possible_cpus(), c;
	struct kbloom_win_xdp_stats v[n > 0 ? n : 1];
	__u32 zero = 0;

	memset(s, 0, sizeof(*s));
	if (bpf_map_lookup_elem(bpf_map__fd(self->skel->maps.win_stats),
				&zero, v))
		return;
	for (c = 0; c < n; c++) {
		s->inserted += v[c].inserted;
		s->drops += v[c].drops;
		s->passed += v[c].passed;
		s->rotations += v[c].rotations;
		s->errors += v[c].errors;
		s->present += v[c].present;
		s->absent += v[c].absent;
	}
}

/* Sleep until @s seconds after @t0. */
static void sleep_until(double t0, double s)
{
	double left = t0 + s - kbt_now();

	if (left > 0)
		usleep((useconds_t)(left * 1e6));
}

TEST_F(win, return_traffic_only_from_contacted_peers)
{
	struct kbloom_win_xdp_stats s;
	__u32 got[NSRC];
	double t0;

	ASSERT_EQ(0, xdp_on_b(self, self->skel->progs.kbloom_window_in));
	/* unsolicited: nothing passes (ARP does: the sockets resolve) */
	ASSERT_EQ(0, from_peers(self, 0xf, got));
	EXPECT_EQ(0, got[0] + got[1] + got[2] + got[3]);
	/* b contacts 10.0.0.11: its answers pass, the others' do not */
	t0 = kbt_now();
	ASSERT_EQ(0, contact(self, 0));
	usleep(20000);
	ASSERT_EQ(0, from_peers(self, 0xf, got));
	if (kbt_now() - t0 < T_S) {
		EXPECT_EQ(1, got[0]);
	}
	EXPECT_EQ(0, got[1] + got[2] + got[3]);
	/* still inside T, again */
	sleep_until(t0, T_S / 2);
	ASSERT_EQ(0, from_peers(self, 0x1, got));
	if (kbt_now() - t0 < T_S) {
		EXPECT_EQ(1, got[0]);
	} else {
		TH_LOG("host too slow: the check inside T skipped");
	}
	/* (l + 1) generations after the contact: forgotten */
	sleep_until(t0, FORGET_S);
	ASSERT_EQ(0, from_peers(self, 0x1, got));
	EXPECT_EQ(0, got[0]);
	stats_sum(self, &s);
	TH_LOG("inserted %llu, passed %llu, dropped %llu, rotations %llu",
	       s.inserted, s.passed, s.drops, s.rotations);
	EXPECT_LE(1, s.inserted);
	EXPECT_LE(3 + 3 + 1, s.drops);
	EXPECT_LE(3, s.rotations);
	EXPECT_EQ(0, s.errors);
}

TEST_F(win, dedupe_repeats_inside_t)
{
	struct kbloom_win_xdp_stats s;
	__u32 got[NSRC];
	double t0;

	ASSERT_EQ(0, xdp_on_b(self, self->skel->progs.kbloom_window_dedupe));
	/* a's first datagrams resolve b's address; then a clean window */
	ASSERT_EQ(0, from_peers(self, 0xf, got));
	usleep(100000);
	ASSERT_EQ(0, win_reset(self->skel));
	t0 = kbt_now();
	ASSERT_EQ(0, from_peers(self, 0x3, got));
	EXPECT_EQ(1, got[0]);
	EXPECT_EQ(1, got[1]);
	/* repeats inside T: dropped; a new source passes */
	ASSERT_EQ(0, from_peers(self, 0x7, got));
	if (kbt_now() - t0 < T_S) {
		EXPECT_EQ(0, got[0] + got[1]);
	}
	EXPECT_EQ(1, got[2]);
	sleep_until(t0, T_S / 2);
	ASSERT_EQ(0, from_peers(self, 0x1, got));
	if (kbt_now() - t0 < T_S) {
		EXPECT_EQ(0, got[0]);
	} else {
		TH_LOG("host too slow: the check inside T skipped");
	}
	/* (l + 1) generations after the first: passes again */
	sleep_until(t0, FORGET_S);
	ASSERT_EQ(0, from_peers(self, 0x1, got));
	EXPECT_EQ(1, got[0]);
	stats_sum(self, &s);
	TH_LOG("inserted %llu, passed %llu, dropped %llu, rotations %llu",
	       s.inserted, s.passed, s.drops, s.rotations);
	EXPECT_LE(2, s.drops);
	EXPECT_EQ(0, s.errors);
}

/* The maps as a time window image (its clock: the generation's age). */
static void *maps_image(FIXTURE_DATA(win) *self, size_t *len)
{
	struct kbloom_win_xdp_state st;
	struct kbloom_image_head hd;
	__u32 zero = 0, i, n = (WIN_K + WIN_L) * SLICE / 64;
	struct kb_shape s;
	__u64 w, age;
	__u8 *img;

	if (kb_win_shape_init(&s, WIN_K, WIN_L, SLICE, KB_WIN_CLOCK_NS) ||
	    bpf_map_lookup_elem(bpf_map__fd(self->skel->maps.win_state),
				&zero, &st))
		return NULL;
	*len = sizeof(hd) + n * 8ULL;
	img = calloc(1, *len);
	if (!img)
		return NULL;
	for (i = 0; i < n; i++) {
		w = 0;
		bpf_map_lookup_elem(bpf_map__fd(self->skel->maps.win_words),
				    &i, &w);
		w = kb_le64(w);
		memcpy(img + sizeof(hd) + i * 8ULL, &w, 8);
	}
	kb_image_head_init(&hd, &s, KBLOOM_HASH_FAST, 0x3A11);
	age = mono_ns() - st.gen_start;
	hd.g.reserved[KB_WIN_GEOM_GEN_LEN] = kb_le64(GEN_NS);
	hd.g.reserved[KB_WIN_GEOM_HEAD] = kb_le64(st.head);
	hd.g.reserved[KB_WIN_GEOM_CLOCK] = kb_le64(age < GEN_NS ? age : GEN_NS);
	hd.g.reserved[KB_WIN_GEOM_ROTATIONS] = kb_le64(st.rotations);
	hd.h.crc = kb_le32(kb_image_crc_head(&hd, img + sizeof(hd),
					     *len - sizeof(hd)));
	memcpy(img, &hd, sizeof(hd));
	return img;
}

TEST_F(win, maps_load_in_the_library)
{
	struct kbloom_win *f;
	__u8 addr[4] = { 10, 0, 0, 11 };
	size_t len;
	void *img;
	int i;

	ASSERT_EQ(0, xdp_on_b(self, self->skel->progs.kbloom_window_in));
	ASSERT_EQ(0, contact(self, 0));
	usleep(50000);
	img = maps_image(self, &len);
	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, kbloom_win_load(img, len, &f));
	EXPECT_EQ(1, kbloom_win_test(f, addr, 4));
	for (i = 1; i < 256; i++) {
		addr[3] = (__u8)(11 + i);
		EXPECT_EQ(0, kbloom_win_test(f, addr, 4)) TH_LOG("10.0.0.%d",
								addr[3]);
	}
	kbloom_win_destroy(f);
	free(img);
}

TEST_HARNESS_MAIN
