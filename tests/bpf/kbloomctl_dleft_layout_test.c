// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl and the d-left layouts (KB_DLEFT_LAYOUT_*):
 *  - `xdp attach conntrack NAME ... layout lines` makes a tracker whose
 *    filter is in the lines layout (conntrack stats and the library's
 *    parameters say so; planned and explicit shapes; the default is
 *    spread), and its program tracks a flow inserted by BPF_PROG_TEST_RUN;
 *  - `plan capacity N fpr P [layout spread|lines]` says which layout the
 *    d-left row is planned in (text and JSON), at the same bytes and rate;
 *  - a bad layout, in create dleft, xdp attach conntrack and plan, is a
 *    usage error: exit 2, one line naming the keyword, nothing made.
 */
#include <netinet/in.h>

#include "kselftest_harness.h"
#include "tests/bpf/kbloomctl_xdp_util.h"
#include "libkbloom_xdp_count.h"

#define UNAME	"kbtusage1"	/* never created */

static const struct {
	const char *const *args;
	const char *says;
} usage[] = {
	{ KBCTL_ARGS("xdp", "attach", "conntrack", UNAME, "dev", "lo",
		     "layout", "diagonal"), "layout 'diagonal'" },
	{ KBCTL_ARGS("xdp", "attach", "conntrack", UNAME, "dev", "lo",
		     "layout", "1"), "layout '1'" },
	{ KBCTL_ARGS("xdp", "attach", "conntrack", UNAME, "dev", "lo",
		     "layout"), "layout" },
	{ KBCTL_ARGS("create", UNAME, "dleft", "capacity", "1000", "fpr",
		     "1%", "layout", "rows"), "layout 'rows'" },
	{ KBCTL_ARGS("plan", "capacity", "1000", "fpr", "1%", "layout",
		     "zigzag"), "layout 'zigzag'" },
};

TEST(bad_layout_is_a_usage_error)
{
	struct kbctl_res r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(usage); i++) {
		kbctl_run_io(&r, NULL, NULL, usage[i].args);
		EXPECT_USAGE(&r, usage[i].says);
		EXPECT_NE(NULL, strstr(r.err, "spread|lines"))
			TH_LOG("case %zu: %s", i, r.err);
		EXPECT_FALSE(inst_exists(UNAME)) TH_LOG("case %zu", i);
		kbctl_free(&r);
	}
}

/* The plan of 100000 keys at 0.1% in @layout (NULL: none given). */
static void plan_run(struct kbctl_res *r, const char *layout, int json)
{
	if (json && layout)
		kbctl_run(r, "-j", "plan", "capacity", "100000", "fpr", "0.1%",
			  "layout", layout);
	else if (json)
		kbctl_run(r, "-j", "plan", "capacity", "100000", "fpr", "0.1%");
	else if (layout)
		kbctl_run(r, "plan", "capacity", "100000", "fpr", "0.1%",
			  "layout", layout);
	else
		kbctl_run(r, "plan", "capacity", "100000", "fpr", "0.1%");
}

/* The d-left row of a text plan (from "d-left " to the line's end). */
static char *dleft_row(const char *out)
{
	const char *p = strstr(out, "\nd-left ");
	const char *e = p ? strchr(p + 1, '\n') : NULL;

	return e ? strndup(p + 1, e - p - 1) : NULL;
}

TEST(plan_says_the_layout)
{
	struct kbctl_res r;
	char *spread, *lines;

	plan_run(&r, NULL, 0);
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "d-left layout: spread"));
	spread = dleft_row(r.out);
	kbctl_free(&r);
	plan_run(&r, "lines", 0);
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "d-left layout: lines"));
	EXPECT_EQ(NULL, strstr(r.out, "d-left layout: spread"));
	lines = dleft_row(r.out);
	kbctl_free(&r);
	/* the same cells, bytes and rate in either layout */
	ASSERT_NE(NULL, spread);
	ASSERT_NE(NULL, lines);
	EXPECT_STREQ(spread, lines);
	free(spread);
	free(lines);
	plan_run(&r, "lines", 1);
	EXPECT_EQ(0, r.status);
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"layout\":\"lines\""));
	kbctl_free(&r);
	plan_run(&r, "spread", 1);
	EXPECT_NE(NULL, strstr(r.out, "\"layout\":\"spread\""));
	kbctl_free(&r);
}

FIXTURE(ct) {
	char name[64];
	struct kbt_ns a, b;
};

FIXTURE_SETUP(ct)
{
	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "dlayout");
	ASSERT_EQ(0, kbt_ns_quiet(&self->a));
	ASSERT_EQ(0, kbt_ns_quiet(&self->b));
	ASSERT_EQ(0, kbt_veth(&self->a, "p0", &self->b, "h0", 1));
}

FIXTURE_TEARDOWN(ct)
{
	kbt_unpin(self->name);
	kbt_ns_free(&self->a);
	kbt_ns_free(&self->b);
}

#define NS_A	"netns", self->a.path

/* The tracker's parameters, opened from its pins by this process. */
static int ct_params(FIXTURE_DATA(ct) *self, struct kbloom_dleft_params *p)
{
	struct kbloom_inst_opts o = { .netns = self->a.path };
	struct kbloom_inst *in;
	int ret = kbloom_xdp_conntrack_open(self->name, &o, &in);

	if (ret)
		return ret;
	ret = kbloom_xdp_conntrack_params(in, p);
	kbloom_inst_close(in);
	return ret;
}

/* A SYN from 10.0.0.2:@sport to 10.0.0.1:80 through prog_conntrack. */
static int ct_syn(FIXTURE_DATA(ct) *self, int sport)
{
	static const __u8 src[4] = { 10, 0, 0, 2 }, dst[4] = { 10, 0, 0, 1 };
	static const __u8 pad[12];
	/* a UDP frame of 12 payload bytes: 20 bytes after IPv4, made TCP */
	struct kbt_frame_opts fo = { .src = src, .dst = dst, .l4 = 6,
				     .payload = pad, .plen = sizeof(pad) };
	__u8 f[128], *tcp;
	size_t len = kbt_frame(f, &fo);
	__u32 rv;
	int fd, ret;

	tcp = f + len - 20;
	memset(tcp, 0, 20);
	kbt_put16(tcp, (__u16)sport);
	kbt_put16(tcp + 2, 80);
	tcp[12] = 0x50;		/* 5 words, no options */
	tcp[13] = 0x02;		/* SYN */
	fd = kbt_prog(self->name, "prog_conntrack");
	if (fd < 0)
		return -1;
	ret = kbt_run(fd, f, (__u32)len, 0, &rv);
	close(fd);
	return ret ? -1 : (int)rv;
}

TEST_F(ct, attach_lines_planned)
{
	struct kbloom_dleft_params p;
	struct kbctl_res r;

	OK(&r, "xdp", "attach", "conntrack", self->name, "dev", "p0", NS_A,
	   "capacity", "4096", "fpr", "0.1%", "layout", "lines",
	   "mode", "generic");
	kbctl_free(&r);
	ASSERT_EQ(0, ct_params(self, &p));
	EXPECT_EQ(KB_DLEFT_LAYOUT_LINES, p.shape.update);
	EXPECT_EQ(4, p.shape.tables);
	OK(&r, "conntrack", "stats", self->name);
	EXPECT_NE(NULL, strstr(r.out, "layout lines"));
	kbctl_free(&r);
	OK(&r, "-j", "conntrack", "stats", self->name);
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"layout\":\"lines\""));
	kbctl_free(&r);
	/* the lines program tracks what it inserted */
	EXPECT_EQ(1, kbctl_run(&r, "conntrack", "test", self->name,
			       "10.0.0.2:40001", "10.0.0.1:80"));
	kbctl_free(&r);
	ASSERT_EQ(XDP_PASS, ct_syn(self, 40001));
	EXPECT_EQ(0, kbctl_run(&r, "conntrack", "test", self->name,
			       "10.0.0.2:40001", "10.0.0.1:80"));
	kbctl_free(&r);
	OK(&r, "xdp", "detach", self->name);
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->name));
}

TEST_F(ct, attach_explicit_and_default)
{
	struct kbloom_dleft_params p;
	struct kbctl_res r;

	OK(&r, "xdp", "attach", "conntrack", self->name, "dev", "p0", NS_A,
	   "fp-bits", "12", "slots", "8", "tables", "4", "buckets", "64",
	   "counter-bits", "4", "layout", "lines", "mode", "generic");
	kbctl_free(&r);
	ASSERT_EQ(0, ct_params(self, &p));
	EXPECT_EQ(KB_DLEFT_LAYOUT_LINES, p.shape.update);
	EXPECT_EQ(64, p.shape.buckets);
	OK(&r, "xdp", "detach", self->name);
	kbctl_free(&r);
	/* no layout: spread */
	OK(&r, "xdp", "attach", "conntrack", self->name, "dev", "p0", NS_A,
	   "mode", "generic");
	kbctl_free(&r);
	ASSERT_EQ(0, ct_params(self, &p));
	EXPECT_EQ(KB_DLEFT_LAYOUT_SPREAD, p.shape.update);
	OK(&r, "conntrack", "stats", self->name);
	EXPECT_NE(NULL, strstr(r.out, "layout spread"));
	kbctl_free(&r);
	OK(&r, "xdp", "detach", self->name);
	kbctl_free(&r);
}

TEST_HARNESS_MAIN
