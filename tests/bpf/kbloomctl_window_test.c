// SPDX-License-Identifier: GPL-2.0
/*
 * The window kind of XDP instances (libkbloom_xdp_window.h: the
 * age-partitioned window of bpf/kbloom_window.bpf.c, rotated by its
 * programs) through kbloomctl (build/kbloomctl, fork + exec), with UDP
 * datagrams on a veth pair between two namespaces:
 *
 *      namespace a: h0 10.0.0.1, 10.0.0.12   (the peers)
 *      namespace b: p0 10.0.0.2              (the XDP instance)
 *
 * Static neighbours, IPv6 off: the only IP frames are the test's.  A
 * window of 600 ms; a check "inside T" is made only while the clock
 * says so (a loaded host: logged and skipped); "after T" waits past
 * (l + 1) generations.
 *
 *  - mode return: unsolicited datagrams are dropped; after b sends to
 *    10.0.0.1, its datagrams pass and 10.0.0.12's do not; after T they
 *    are dropped again; window stats (-j) and xdp status add up; the
 *    library reads the same; window save writes an image the library
 *    loads, which holds 10.0.0.1;
 *  - mode dedupe: the first datagram of each source passes, repeats
 *    inside T are dropped, the source passes again after T;
 *  - usage errors: exit 2, one line naming the keyword, nothing created;
 *  - xdp detach NAME dev p0 removes the tc egress link with the XDP
 *    one; xdp detach NAME leaves no pins.
 */
#include <netinet/in.h>
#include <bpf/bpf.h>

#include "kselftest_harness.h"
#include "tests/bpf/kbloomctl_xdp_util.h"
#include "libkbloom_xdp_window.h"
#include "libkbloom_window.h"

#define UNAME		"kbtusage0"	/* never created */
#define T_S		0.6		/* milliseconds 600 */
#define FORGET_S	0.9		/* past (l + 1) generations */
#define NPEER		2

static const char *const peer_addr[NPEER] = { "10.0.0.1", "10.0.0.12" };

static const char *const help_paths[][2] = {
	{ "window" }, { "window", "stats" }, { "window", "save" },
};

TEST(help)
{
	kbctl_check_help(_metadata, help_paths, ARRAY_SIZE(help_paths), true);
}

#define WATTACH(...)	KBCTL_ARGS("xdp", "attach", "window", UNAME, "dev", \
				   "lo", __VA_ARGS__)

static const struct usage_case usage[] = {
	{ WATTACH("fpr", "1%"), "give seconds T or milliseconds MS, not neither" },
	{ WATTACH("seconds", "1", "milliseconds", "500"), "not both" },
	{ WATTACH("seconds", "0"), "seconds" },
	{ WATTACH("milliseconds", "x"), "milliseconds" },
	{ WATTACH("seconds", "1", "mode", "bogus"), "mode 'bogus'" },
	{ WATTACH("seconds", "1", "mode", "return", "mode", "dedupe"),
	  "given twice" },
	{ WATTACH("seconds", "1", "fpr", "2"), "fpr" },
	{ WATTACH("seconds", "1", "capacity", "0"), "capacity" },
	{ WATTACH("seconds", "1", "bits", "64"), "'bits'" },
	{ KBCTL_ARGS("window", "stats", UNAME, "extra"), "extra" },
	{ KBCTL_ARGS("window", "save", "bad.name"), "bad.name" },
};

TEST(usage_errors_make_nothing)
{
	kbctl_check_usage(_metadata, usage, ARRAY_SIZE(usage), UNAME);
}

FIXTURE(pair) {
	char wn[64];
	struct kbt_ns a, b;
	int tx[NPEER];		/* a's sockets, one per peer address */
	int rx, btx;		/* b's: receive, contact */
};

static int pair_net(FIXTURE_DATA(pair) *self)
{
	if (kbt_ns_quiet(&self->a) || kbt_ns_quiet(&self->b) ||
	    kbt_veth(&self->a, "h0", &self->b, "p0", 1))
		return -1;
	if (kbt_sh(&self->a, "ip addr add 10.0.0.1/24 dev h0") ||
	    kbt_sh(&self->a, "ip addr add 10.0.0.12/24 dev h0") ||
	    kbt_sh(&self->b, "ip addr add 10.0.0.2/24 dev p0") ||
	    kbt_sh(&self->a, "ip neigh replace 10.0.0.2 lladdr 02:00:00:00:01:02 dev h0") ||
	    kbt_sh(&self->b, "ip neigh replace 10.0.0.1 lladdr 02:00:00:00:01:01 dev p0") ||
	    kbt_sh(&self->b, "ip neigh replace 10.0.0.12 lladdr 02:00:00:00:01:01 dev p0"))
		return -1;
	return 0;
}

static int pair_make(FIXTURE_DATA(pair) *self)
{
	int i;

	kbt_janitor();
	kbt_name(self->wn, sizeof(self->wn), "window");
	if (pair_net(self))
		return -1;
	for (i = 0; i < NPEER; i++) {
		self->tx[i] = kbt_udp_sock(&self->a, peer_addr[i], 5000);
		if (self->tx[i] < 0)
			return -1;
	}
	self->rx = kbt_udp_sock(&self->b, "10.0.0.2", 5000);
	self->btx = kbt_udp_sock(&self->b, "10.0.0.2", 0);
	return self->rx >= 0 && self->btx >= 0 ? 0 : -1;
}

FIXTURE_SETUP(pair)
{
	int i;

	for (i = 0; i < NPEER; i++)
		self->tx[i] = -1;
	self->rx = -1;
	self->btx = -1;
	if (geteuid())
		SKIP(return, "needs root (BPF, namespaces)");
	ASSERT_EQ(0, pair_make(self));
}

FIXTURE_TEARDOWN(pair)
{
	int i;

	if (geteuid())
		return;
	for (i = 0; i < NPEER; i++)
		if (self->tx[i] >= 0)
			close(self->tx[i]);
	if (self->rx >= 0)
		close(self->rx);
	if (self->btx >= 0)
		close(self->btx);
	kbt_unpin(self->wn);
	kbt_ns_free(&self->a);
	kbt_ns_free(&self->b);
}

/* One datagram from each peer of @mask; what b's socket got from each. */
static int from_peers(FIXTURE_DATA(pair) *self, unsigned int mask,
		      int got[NPEER])
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(5000) }, from;
	socklen_t fl;
	char buf[64];
	double t0;
	int i;

	inet_pton(AF_INET, "10.0.0.2", &to.sin_addr);
	memset(got, 0, NPEER * sizeof(got[0]));
	for (i = 0; i < NPEER; i++)
		if ((mask & (1U << i)) &&
		    sendto(self->tx[i], "kbloom", 6, 0,
			   (struct sockaddr *)&to, sizeof(to)) != 6)
			return -1;
	t0 = kbt_now();
	while (kbt_now() - t0 < 0.05) {
		fl = sizeof(from);
		if (recvfrom(self->rx, buf, sizeof(buf), 0,
			     (struct sockaddr *)&from, &fl) < 0) {
			usleep(1000);
			continue;
		}
		got[((__u8 *)&from.sin_addr)[3] == 1 ? 0 : 1]++;
	}
	return 0;
}

/* b sends one datagram to 10.0.0.1 (its tc egress adds the address). */
static int contact(FIXTURE_DATA(pair) *self)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(5000) };

	inet_pton(AF_INET, peer_addr[0], &to.sin_addr);
	return sendto(self->btx, "hello", 5, 0, (struct sockaddr *)&to,
		      sizeof(to)) == 5 ? 0 : -1;
}

static void sleep_until(double t0, double s)
{
	double left = t0 + s - kbt_now();

	if (left > 0)
		usleep((useconds_t)(left * 1e6));
}

static void attach(struct __test_metadata *_metadata,
		   FIXTURE_DATA(pair) *self, const char *mode)
{
	struct kbctl_res r;

	OK(&r, "xdp", "attach", "window", self->wn, "dev", "p0", "netns",
	   self->b.path, "milliseconds", "600", "mode", mode, "mode",
	   "generic");
	kbctl_free(&r);
	ASSERT_TRUE(inst_exists(self->wn));
}

/*
 * The counters of window stats -j add up: every frame passed or dropped;
 * an IP frame at XDP was looked up (present or absent); one leaving
 * through tc egress (mode return) was added; at XDP in mode dedupe, each
 * absent source was added.
 */
static void stats_check(struct __test_metadata *_metadata,
			FIXTURE_DATA(pair) *self, bool dedupe,
			long long min_drops)
{
	long long pk, ps, dr, pr, ab, ins, other;
	struct kbctl_res r;

	OK(&r, "-j", "window", "stats", self->wn);
	EXPECT_JSON(&r);
	pk = jnum(r.out, NULL, "packets");
	ps = jnum(r.out, NULL, "passed");
	dr = jnum(r.out, NULL, "dropped");
	pr = jnum(r.out, NULL, "present");
	ab = jnum(r.out, NULL, "absent");
	ins = jnum(r.out, NULL, "inserted");
	other = jnum(r.out, NULL, "not_ip") + jnum(r.out, NULL, "malformed");
	TH_LOG("packets %lld passed %lld dropped %lld present %lld absent %lld inserted %lld",
	       pk, ps, dr, pr, ab, ins);
	EXPECT_EQ(pk, ps + dr);
	EXPECT_LE(min_drops, dr);
	EXPECT_EQ(pk, pr + ab + other + (dedupe ? 0 : ins));
	if (dedupe) {
		EXPECT_EQ(ab, ins);
	} else {
		EXPECT_LE(1, ins);
	}
	EXPECT_EQ(0, jnum(r.out, NULL, "errors"));
	EXPECT_EQ(600000000, jnum(r.out, NULL, "window_ns"));
	kbctl_free(&r);
}

/* How many BPF links of the system run program @prog_id. */
static int links_of(__u32 prog_id)
{
	struct bpf_link_info info;
	__u32 id = 0, len;
	int fd, n = 0;

	while (!bpf_link_get_next_id(id, &id)) {
		fd = bpf_link_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    info.prog_id == prog_id)
			n++;
		close(fd);
	}
	return n;
}

TEST_F(pair, return_traffic_only_from_contacted_peers)
{
	struct kbloom_inst_opts io = { .netns = self->b.path };
	struct kbloom_win_xdp_stats st;
	__u8 addr[4] = { 10, 0, 0, 1 };
	struct kbloom_inst *in;
	struct kbloom_win *f;
	struct kbctl_res r;
	int got[NPEER];
	__u32 out_id;
	double t0;

	attach(_metadata, self, "return");
	ASSERT_EQ(0, from_peers(self, 3, got));		/* unsolicited */
	EXPECT_EQ(0, got[0] + got[1]);
	t0 = kbt_now();
	ASSERT_EQ(0, contact(self));
	usleep(20000);
	ASSERT_EQ(0, from_peers(self, 3, got));
	if (kbt_now() - t0 < T_S) {
		EXPECT_EQ(1, got[0]);
	} else {
		TH_LOG("host too slow: the check inside T skipped");
	}
	EXPECT_EQ(0, got[1]);
	/* the window as an image: the library finds 10.0.0.1 only */
	OK(&r, "window", "save", self->wn);
	ASSERT_EQ(0, kbloom_win_load(r.out, r.out_len, &f));
	EXPECT_EQ(KBLOOM_IMAGE_F_MAY_FN,
		  ((struct kbloom_image_hdr *)r.out)->flags);
	kbctl_free(&r);
	if (kbt_now() - t0 < T_S) {
		EXPECT_EQ(1, kbloom_win_test(f, addr, 4));
	}
	addr[3] = 12;
	EXPECT_EQ(0, kbloom_win_test(f, addr, 4));
	kbloom_win_destroy(f);
	/* after T: forgotten */
	sleep_until(t0, FORGET_S);
	ASSERT_EQ(0, from_peers(self, 1, got));
	EXPECT_EQ(0, got[0]);
	stats_check(_metadata, self, false, 2 + 1 + 1);
	OK(&r, "xdp", "status", self->wn);
	EXPECT_NE(NULL, strstr(r.out, "mode return, window 600 ms"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	/* the library reads the pins as kbloomctl did */
	ASSERT_EQ(0, kbloom_xdp_window_open(self->wn, &io, &in));
	ASSERT_EQ(0, kbloom_xdp_window_stats(in, &st));
	EXPECT_LE(1, st.inserted);
	EXPECT_LE(4, st.drops);
	EXPECT_LE(1, st.rotations);
	EXPECT_EQ(KBLOOM_XDP_WINDOW_RETURN, kbloom_xdp_window_mode(in));
	kbloom_inst_close(in);
	/* the tc egress link goes with the XDP one */
	out_id = kbt_prog_id(self->wn, "prog_out");
	ASSERT_NE(0, out_id);
	EXPECT_EQ(1, links_of(out_id));
	OK(&r, "xdp", "detach", self->wn, "dev", "p0", "netns",
	   self->b.path);
	kbctl_free(&r);
	EXPECT_TRUE(inst_exists(self->wn));
	EXPECT_EQ(0, links_of(out_id));
	OK(&r, "xdp", "detach", self->wn);
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->wn));
}

TEST_F(pair, dedupe_drops_repeats_inside_t)
{
	struct kbctl_res r;
	int got[NPEER];
	double t0;

	attach(_metadata, self, "dedupe");
	t0 = kbt_now();
	ASSERT_EQ(0, from_peers(self, 1, got));
	EXPECT_EQ(1, got[0]);
	ASSERT_EQ(0, from_peers(self, 3, got));	/* a repeat, a new one */
	if (kbt_now() - t0 < T_S) {
		EXPECT_EQ(0, got[0]);
	} else {
		TH_LOG("host too slow: the check inside T skipped");
	}
	EXPECT_EQ(1, got[1]);
	sleep_until(t0, FORGET_S);
	ASSERT_EQ(0, from_peers(self, 1, got));	/* after T: again */
	EXPECT_EQ(1, got[0]);
	stats_check(_metadata, self, true, 1);
	OK(&r, "window", "stats", self->wn);
	EXPECT_NE(NULL, strstr(r.out, "mode dedupe, window 600 ms"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	OK(&r, "xdp", "detach", self->wn);
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->wn));
}

TEST_HARNESS_MAIN
