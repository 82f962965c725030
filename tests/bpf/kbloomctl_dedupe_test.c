// SPDX-License-Identifier: GPL-2.0
/*
 * The dedupe kind of XDP instances (libkbloom_xdp_dedupe.h: a stable
 * Bloom filter tested and added per frame) through kbloomctl
 * (build/kbloomctl, fork + exec) on a veth pair between two namespaces:
 *
 *      namespace a: p0 10.0.0.1  (the XDP instance)
 *      namespace b: h0 10.0.0.2  (sends UDP datagrams)
 *
 * Static neighbours, IPv6 off: the only frames p0 receives are the
 * test's.
 *
 *  - real frames: ten copies of one datagram, the first passes and nine
 *    are dropped; ten datagrams of different payloads all pass; the
 *    counters of dedupe stats (text and -j) and xdp status add up, and
 *    the library opening the pins in this process reads the same;
 *  - dedupe save writes a stable image (MAY_FN) the library loads;
 *  - usage errors: exit 2, one line naming the keyword, nothing created;
 *  - xdp detach NAME leaves no pins.
 */
#include <netinet/in.h>

#include "kselftest_harness.h"
#include "tests/bpf/kbloomctl_xdp_util.h"
#include "libkbloom_xdp_dedupe.h"

#define UNAME	"kbtusage0"	/* never created */
#define PAYLOAD	64

static const char *const help_paths[][2] = {
	{ "dedupe" }, { "dedupe", "stats" }, { "dedupe", "save" },
};

TEST(help)
{
	kbctl_check_help(_metadata, help_paths, ARRAY_SIZE(help_paths), true);
}

static const struct {
	const char *const *args;
	const char *says;
} usage[] = {
	{ KBCTL_ARGS("xdp", "attach", "dedupe", UNAME, "dev", "lo",
		     "decrement", "10"), "missing cells M" },
	{ KBCTL_ARGS("xdp", "attach", "dedupe", UNAME, "dev", "lo", "cells",
		     "4096"), "give decrement P or fpr P" },
	{ KBCTL_ARGS("xdp", "attach", "dedupe", UNAME, "dev", "lo", "cells",
		     "4096", "decrement", "10", "fpr", "1%"), "not both" },
	{ KBCTL_ARGS("xdp", "attach", "dedupe", UNAME, "dev", "lo", "cells",
		     "4100", "decrement", "10"), "cells '4100'" },
	{ KBCTL_ARGS("xdp", "attach", "dedupe", UNAME, "dev", "lo", "cells",
		     "64", "decrement", "100"), "decrement 100: more than cells" },
	{ KBCTL_ARGS("xdp", "attach", "dedupe", UNAME, "dev", "lo", "cells",
		     "4096", "decrement", "10", "cell-bits", "3"),
	  "cell-bits '3'" },
	{ KBCTL_ARGS("xdp", "attach", "dedupe", UNAME, "dev", "lo", "cells",
		     "4096", "fpr", "1e-9", "hashes", "1"), "fpr: no decrement" },
	{ KBCTL_ARGS("xdp", "attach", "dedupe", UNAME, "dev", "lo", "cells",
		     "4096", "decrement", "10", "action", "mark"),
	  "action 'mark'" },
	{ KBCTL_ARGS("dedupe", "stats", UNAME, "extra"), "extra" },
};

TEST(usage_errors_make_nothing)
{
	struct kbctl_res r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(usage); i++) {
		kbctl_run_io(&r, NULL, NULL, usage[i].args);
		EXPECT_USAGE(&r, usage[i].says);
		EXPECT_FALSE(inst_exists(UNAME)) TH_LOG("case %zu", i);
		kbctl_free(&r);
	}
}

FIXTURE(pair) {
	char dd[64];
	struct kbt_ns a, b;
	int p0;
};

static int pair_make(FIXTURE_DATA(pair) *self)
{
	kbt_janitor();
	kbt_name(self->dd, sizeof(self->dd), "dedupe");
	if (kbt_ns_quiet(&self->a) || kbt_ns_quiet(&self->b) ||
	    kbt_veth(&self->a, "p0", &self->b, "h0", 1))
		return -1;
	if (kbt_sh(&self->a, "ip addr add 10.0.0.1/24 dev p0") ||
	    kbt_sh(&self->b, "ip addr add 10.0.0.2/24 dev h0") ||
	    kbt_sh(&self->a, "ip neigh replace 10.0.0.2 lladdr 02:00:00:00:01:02 dev p0") ||
	    kbt_sh(&self->b, "ip neigh replace 10.0.0.1 lladdr 02:00:00:00:01:01 dev h0"))
		return -1;
	self->p0 = kbt_ifindex(&self->a, "p0");
	return self->p0 > 0 ? 0 : -1;
}

FIXTURE_SETUP(pair)
{
	if (geteuid())
		SKIP(return, "needs root (BPF, namespaces)");
	ASSERT_EQ(0, pair_make(self));
}

FIXTURE_TEARDOWN(pair)
{
	if (geteuid())
		return;
	kbt_unpin(self->dd);
	kbt_ns_free(&self->a);
	kbt_ns_free(&self->b);
}

/* @n datagrams from 10.0.0.2 to 10.0.0.1:9; payload byte 0 is @tag + i. */
static int send_udp(FIXTURE_DATA(pair) *self, int n, int tag, int step)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(9) };
	char buf[PAYLOAD] = { 0 };
	int saved, fd, i, ret = 0;

	inet_pton(AF_INET, "10.0.0.1", &to.sin_addr);
	if (kbt_ns_enter(&self->b, &saved))
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	for (i = 0; fd >= 0 && i < n && !ret; i++) {
		buf[0] = (char)(tag + i * step);
		if (sendto(fd, buf, sizeof(buf), 0, (struct sockaddr *)&to,
			   sizeof(to)) != sizeof(buf))
			ret = -1;
	}
	if (fd >= 0)
		close(fd);
	kbt_ns_leave(saved);
	usleep(100000);	/* the peer's NAPI runs the program */
	return fd < 0 ? -1 : ret;
}

TEST_F(pair, copies_dropped)
{
	struct kbloom_inst_opts io = { .netns = self->a.path };
	struct kbloom_dedupe_stats st;
	struct kbloom_stable *f;
	struct kbloom_inst *in;
	struct kbctl_res r;

	OK(&r, "xdp", "attach", "dedupe", self->dd, "dev", "p0", "netns",
	   self->a.path, "cells", "65536", "decrement", "10", "mode",
	   "generic");
	kbctl_free(&r);
	ASSERT_EQ(0, send_udp(self, 10, 1, 0));		/* one datagram x10 */
	ASSERT_EQ(0, send_udp(self, 10, 100, 1));	/* ten datagrams */
	OK(&r, "-j", "dedupe", "stats", self->dd);
	EXPECT_JSON(&r);
	EXPECT_EQ(20, jnum(r.out, NULL, "packets"));
	EXPECT_EQ(11, jnum(r.out, NULL, "first"));
	EXPECT_EQ(9, jnum(r.out, NULL, "repeats"));
	EXPECT_EQ(9, jnum(r.out, NULL, "dropped"));
	kbctl_free(&r);
	OK(&r, "dedupe", "stats", self->dd);
	EXPECT_NE(NULL, strstr(r.out, "decrement 10, action drop"));
	EXPECT_NE(NULL, strstr(r.out, "stable point 76.92%"));
	kbctl_free(&r);
	OK(&r, "xdp", "status", self->dd);
	EXPECT_NE(NULL, strstr(r.out, "65536 cells, decrement 10, action drop, 11 first copies, 9 repeats"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	/* the library reads the pins as kbloomctl did */
	ASSERT_EQ(0, kbloom_xdp_dedupe_open(self->dd, &io, &in));
	ASSERT_EQ(0, kbloom_stable_xdp_stats(kbloom_xdp_dedupe(in), &st));
	EXPECT_EQ(9, st.dropped);
	EXPECT_EQ(KBLOOM_DEDUPE_DROP, kbloom_xdp_dedupe_action(in));
	kbloom_inst_close(in);
	/* the cells as an image, on standard output */
	OK(&r, "dedupe", "save", self->dd);
	ASSERT_EQ(0, kbloom_stable_load(r.out, r.out_len, &f));
	EXPECT_EQ(KBLOOM_IMAGE_F_MAY_FN,
		  ((struct kbloom_image_hdr *)r.out)->flags);
	kbloom_stable_destroy(f);
	kbctl_free(&r);
	OK(&r, "xdp", "detach", self->dd);
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->dd));
}

TEST_HARNESS_MAIN
