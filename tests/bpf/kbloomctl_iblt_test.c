// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl iblt and loss between namespaces:
 *  - reconcile: two switches (namespaces, XDP mcast instances on p0 and
 *    p1) hold 300 memberships each, 60 of them differing.  Each lists
 *    its memberships (mcast groups), builds a strata estimator and a
 *    table (iblt build); the estimate of the difference is within 2x of
 *    60; the table of B is sized from it (diff 2 x estimate), subtracted
 *    from A's and decoded: exactly the 30 memberships only A has (+) and
 *    the 30 only B has (-).  B joins and leaves them; then B's
 *    memberships equal A's.
 *  - loss: a digest on a veth end (loss attach), 10 frames, loss swap to
 *    an image, 7 of the frames again, loss swap: loss diff lists the 3
 *    frames of the first epoch missing from the second, with 5-tuple and
 *    id; loss stats counts 17; loss dump; detach leaves no pins.
 *  - a gate's exact set (a BPF hash map): gate list piped into iblt
 *    build --key addr; against a file of 7 of its 9 addresses and one
 *    other, the difference decodes to +2 and -1 addresses.
 *  - bad inputs: an oversize digest header, a damaged image, tables of
 *    another seed, an undecodable difference, a second attach of a name:
 *    one line each, nothing written.
 */
#include "kselftest_harness.h"
#include "kbloomctl_xdp_util.h"
#include "libkbloom_loss.h"

#define A(...)	KBCTL_ARGS(__VA_ARGS__)

FIXTURE(rec) {
	char a[64], b[64], dir[64];
	struct kbt_ns swa, swb, ha[2], hb[2];
};

static const char *tp(FIXTURE_DATA(rec) *self, const char *leaf)
{
	static char buf[8][128];
	static int i;

	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", self->dir, leaf);
	return buf[i];
}

FIXTURE_SETUP(rec)
{
	struct kbctl_res r;

	kbt_janitor();
	kbt_name(self->a, sizeof(self->a), "reca");
	kbt_name(self->b, sizeof(self->b), "recb");
	snprintf(self->dir, sizeof(self->dir), "/tmp/kbt%d-XXXXXX",
		 (int)getpid());
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_EQ(0, kbt_switch_new(&self->swa, self->ha, 2));
	ASSERT_EQ(0, kbt_switch_new(&self->swb, self->hb, 2));
	OK(&r, "xdp", "attach", "mcast", self->a, "dev", "p0", "p1",
	   "netns", self->swa.path);
	kbctl_free(&r);
	OK(&r, "xdp", "attach", "mcast", self->b, "dev", "p0", "p1",
	   "netns", self->swb.path);
	kbctl_free(&r);
}

FIXTURE_TEARDOWN(rec)
{
	char cmd[128];
	int i;

	kbt_unpin(self->a);
	kbt_unpin(self->b);
	for (i = 0; i < 2; i++) {
		kbt_ns_free(&self->ha[i]);
		kbt_ns_free(&self->hb[i]);
	}
	kbt_ns_free(&self->swa);
	kbt_ns_free(&self->swb);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		fprintf(stderr, "# %s failed\n", cmd);
}

/* mcast join|leave @name @port 239.@net.0.[@from, @to) */
static void groups(struct __test_metadata *_metadata, const char *op,
		   const char *name, const char *ns, const char *port,
		   int net, int from, int to)
{
	char g[16];
	struct kbctl_res r;
	int i;

	for (i = from; i < to; i++) {
		snprintf(g, sizeof(g), "239.%d.0.%d", net, i);
		OK(&r, "mcast", op, name, port, g, "netns", ns);
		kbctl_free(&r);
	}
}

/* The sorted lines of @path into @out (a buffer of @len). */
static void sorted(const char *path, char *out, size_t len)
{
	char cmd[256];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof(cmd), "sort '%s'", path);
	p = popen(cmd, "r");
	n = p ? fread(out, 1, len - 1, p) : 0;
	out[n] = 0;
	if (p)
		pclose(p);
}

/* Apply every "+PORT GROUP" (join) and "-PORT GROUP" (leave) to @name. */
static void apply(struct __test_metadata *_metadata, const char *list,
		  const char *name, const char *ns, int *plus, int *minus)
{
	char port[16], group[64], sign;
	const char *s = list;
	struct kbctl_res r;
	int n;

	*plus = *minus = 0;
	while (sscanf(s, "%c%15s %63s\n%n", &sign, port, group, &n) == 3) {
		OK(&r, "mcast", sign == '+' ? "join" : "leave", name, port,
		   group, "netns", ns);
		kbctl_free(&r);
		*(sign == '+' ? plus : minus) += 1;
		s += n;
	}
}

/* A and B's memberships: 60 differ (A only: 30, B only: 30). */
static void memberships(struct __test_metadata *_metadata,
			FIXTURE_DATA(rec) *self)
{
	groups(_metadata, "join", self->a, self->swa.path, "p0", 1, 0, 200);
	groups(_metadata, "join", self->a, self->swa.path, "p1", 2, 0, 100);
	groups(_metadata, "join", self->b, self->swb.path, "p0", 1, 20, 220);
	groups(_metadata, "join", self->b, self->swb.path, "p1", 2, 0, 90);
	groups(_metadata, "join", self->b, self->swb.path, "p1", 3, 0, 10);
}

static void lists(struct __test_metadata *_metadata, FIXTURE_DATA(rec) *self,
		  const char *la, const char *lb)
{
	struct kbctl_res r;

	EXPECT_EQ(0, kbctl_run_out(&r, la, "mcast", "groups", self->a,
				   "netns", self->swa.path));
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run_out(&r, lb, "mcast", "groups", self->b,
				   "netns", self->swb.path));
	kbctl_free(&r);
}

/* The strata estimate of A - B, from the lists. */
static unsigned long long estimate(struct __test_metadata *_metadata,
				   FIXTURE_DATA(rec) *self)
{
	unsigned long long d = 0;
	struct kbctl_res r;

	OK(&r, "iblt", "build", tp(self, "sa"), "-f", tp(self, "a.txt"),
	   "strata", "16", "seed", "5");
	kbctl_free(&r);
	OK(&r, "iblt", "build", tp(self, "sb"), "-f", tp(self, "b.txt"),
	   "strata", "16", "seed", "5");
	kbctl_free(&r);
	OK(&r, "iblt", "subtract", tp(self, "sa"), tp(self, "sb"),
	   tp(self, "sd"));
	kbctl_free(&r);
	OK(&r, "iblt", "estimate", tp(self, "sd"));
	sscanf(r.out, "%llu", &d);
	kbctl_free(&r);
	return d;
}

TEST_F_TIMEOUT(rec, reconcile_mcast_memberships, 600)
{
	static char la[16384], lb[16384];
	unsigned long long d;
	struct kbctl_res r;
	int plus, minus;
	char diff[32];

	memberships(_metadata, self);
	lists(_metadata, self, tp(self, "a.txt"), tp(self, "b.txt"));
	d = estimate(_metadata, self);
	TH_LOG("strata estimate of 60 differing memberships: %llu", d);
	EXPECT_TRUE(d * 2 >= 60 && d <= 120);
	snprintf(diff, sizeof(diff), "%llu", 2 * d);
	OK(&r, "iblt", "build", tp(self, "a.img"), "-f", tp(self, "a.txt"),
	   "diff", diff, "seed", "5");
	kbctl_free(&r);
	OK(&r, "iblt", "build", tp(self, "b.img"), "-f", tp(self, "b.txt"),
	   "diff", diff, "seed", "5");
	kbctl_free(&r);
	OK(&r, "iblt", "subtract", tp(self, "a.img"), tp(self, "b.img"),
	   tp(self, "d.img"));
	kbctl_free(&r);
	OK(&r, "iblt", "decode", tp(self, "d.img"));
	apply(_metadata, r.out, self->b, self->swb.path, &plus, &minus);
	kbctl_free(&r);
	TH_LOG("decoded: %d only in A (joined by B), %d only in B (left)",
	       plus, minus);
	EXPECT_EQ(30, plus);
	EXPECT_EQ(30, minus);
	lists(_metadata, self, tp(self, "a2.txt"), tp(self, "b2.txt"));
	sorted(tp(self, "a2.txt"), la, sizeof(la));
	sorted(tp(self, "b2.txt"), lb, sizeof(lb));
	EXPECT_EQ(300, kbctl_lines(la));
	EXPECT_STREQ(la, lb);
}

TEST_F(rec, bad_tables)
{
	struct kbctl_res r;
	__u8 hdr[KBLOOM_IMAGE_HDR_LEN] = { 0 };
	struct kbloom_image_hdr *h = (void *)hdr;
	FILE *f;

	groups(_metadata, "join", self->a, self->swa.path, "p0", 1, 0, 40);
	lists(_metadata, self, tp(self, "a.txt"), tp(self, "b.txt"));
	OK(&r, "iblt", "build", tp(self, "a.img"), "-f", tp(self, "a.txt"),
	   "cells", "8", "seed", "1");
	kbctl_free(&r);
	OK(&r, "iblt", "build", tp(self, "b.img"), "-f", tp(self, "b.txt"),
	   "cells", "8", "seed", "2");
	kbctl_free(&r);
	/* 40 keys in 8 cells do not decode: exit 3, nothing listed */
	kbctl_run(&r, "iblt", "decode", tp(self, "a.img"));
	EXPECT_SYS(&r, "does not decode");
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);
	kbctl_run(&r, "iblt", "subtract", tp(self, "a.img"), tp(self, "b.img"),
		  tp(self, "d.img"));
	EXPECT_USAGE(&r, "another geometry, hash or seed");
	kbctl_free(&r);
	EXPECT_FALSE(exists(tp(self, "d.img")));
	/* a header announcing 2^60 bytes of cells: refused before reading */
	h->magic = kb_le32(KBLOOM_IMAGE_MAGIC);
	h->version = kb_le16(KBLOOM_IMAGE_VERSION_GEOM);
	h->type = KBLOOM_TYPE_IBLT;
	h->payload_len = kb_le64(1ULL << 60);
	f = fopen(tp(self, "big.img"), "w");
	ASSERT_NE(NULL, f);
	fwrite(hdr, 1, sizeof(hdr), f);
	fclose(f);
	kbctl_run(&r, "iblt", "decode", tp(self, "big.img"));
	EXPECT_SYS(&r, "oversize");
	kbctl_free(&r);
	kbctl_run(&r, "loss", "diff", tp(self, "big.img"), tp(self, "a.img"));
	EXPECT_SYS(&r, "oversize");
	kbctl_free(&r);
	kbctl_run(&r, "iblt", "estimate", tp(self, "a.txt"));
	EXPECT_SYS(&r, "iblt estimate");
	kbctl_free(&r);
	kbctl_run(&r, "iblt", "build", tp(self, "c.img"), "-f",
		  tp(self, "a.txt"), "cells", "8", "hashes", "9");
	EXPECT_USAGE(&r, "hashes");
	kbctl_free(&r);
	EXPECT_FALSE(exists(tp(self, "c.img")));
}

/* @n UDP frames with IP ids @from.. sent on @ifname of @ns. */
static int frames(const struct kbt_ns *ns, const char *ifname, int from,
		  int n)
{
	static const __u8 src[4] = { 10, 7, 0, 1 }, dst[4] = { 10, 7, 0, 2 };
	struct kbt_frame_opts o = { .src = src, .dst = dst };
	int fd = kbt_psock(ns, ifname), i;
	__u8 f[128], *ip = f + 14;
	size_t len;

	if (fd < 0)
		return -1;
	for (i = from; i < from + n; i++) {
		len = kbt_frame(f, &o);
		kbt_put16(ip + 4, (__u16)i);
		kbt_put16(ip + 10, 0);
		kbt_put16(ip + 10, kbt_csum_fold(kbt_csum_add(0, ip, 20)));
		if (send(fd, f, len, 0) != (ssize_t)len)
			break;
	}
	close(fd);
	usleep(100000);
	return i == from + n ? 0 : -1;
}

TEST_F(rec, loss_cli)
{
	char name[64], dir[160];
	struct kbctl_res r;

	kbt_name(name, sizeof(name), "loss");
	snprintf(dir, sizeof(dir), "%s/%s", KBLOOM_LOSS_PIN_ROOT, name);
	/* the point: host 1's eth0, which receives what p1 sends */
	OK(&r, "loss", "attach", name, "dev", "eth0", "netns",
	   self->ha[1].path, "lost", "10");
	kbctl_free(&r);
	kbctl_run(&r, "loss", "attach", name, "dev", "eth0", "netns",
		  self->ha[1].path, "cells", "30");
	EXPECT_SYS(&r, "exists");
	kbctl_free(&r);
	kbctl_run(&r, "loss", "attach", "x", "dev", "eth0", "cells", "30",
		  "lost", "3");
	EXPECT_USAGE(&r, "lost D: not with cells N");
	kbctl_free(&r);
	ASSERT_EQ(0, frames(&self->swa, "p1", 0, 10));
	OK(&r, "loss", "swap", name, tp(self, "u1.img"));
	kbctl_free(&r);
	ASSERT_EQ(0, frames(&self->swa, "p1", 0, 7));
	OK(&r, "loss", "swap", name, tp(self, "u2.img"));
	kbctl_free(&r);
	OK(&r, "loss", "stats", name);
	EXPECT_NE(NULL, strstr(r.out, "folded 17 ")) TH_LOG("%s", r.out);
	kbctl_free(&r);
	OK(&r, "loss", "diff", tp(self, "u1.img"), tp(self, "u2.img"));
	EXPECT_EQ(3, kbctl_lines(r.out));
	EXPECT_NE(NULL, strstr(r.out, "udp 10.7.0.1:40000 > 10.7.0.2:5000 id 7 len "));
	EXPECT_NE(NULL, strstr(r.out, " id 9 len ")) TH_LOG("%s", r.out);
	kbctl_free(&r);
	OK(&r, "loss", "dump", name, tp(self, "now.img"));
	kbctl_free(&r);
	OK(&r, "iblt", "decode", tp(self, "now.img"));
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);
	OK(&r, "loss", "detach", name);
	kbctl_free(&r);
	EXPECT_FALSE(exists(dir));
	kbctl_run(&r, "loss", "stats", name);
	EXPECT_SYS(&r, "no loss digest of that name");
	kbctl_free(&r);
}

TEST_F(rec, gate_exact_set)
{
	char gate[64];
	struct kbctl_res r, r2;
	FILE *f;

	kbt_name(gate, sizeof(gate), "recg");
	OK(&r, "xdp", "attach", "gate", gate, "dev", "eth0", "netns",
	   self->hb[0].path);
	kbctl_free(&r);
	OK(&r, "gate", "add", gate, "10.0.0.1", "10.0.0.2", "10.0.0.3",
	   "10.0.0.4", "10.0.0.5", "10.0.0.6", "10.0.0.7", "fd00::1",
	   "fd00::2");
	kbctl_free(&r);
	kbctl_run_pipe(&r, &r2, A("gate", "list", gate),
		       A("iblt", "build", tp(self, "g.img"), "-f", "-",
			 "--key", "addr", "cells", "20", "seed", "3"));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(0, r2.status) TH_LOG("%s", r2.err);
	kbctl_free(&r);
	kbctl_free(&r2);
	f = fopen(tp(self, "n.txt"), "w");
	ASSERT_NE(NULL, f);
	fputs("10.0.0.1\n10.0.0.2\n10.0.0.3\n10.0.0.4\n10.0.0.5\n10.0.0.6\nfd00::1\n10.0.0.99\n",
	      f);
	fclose(f);
	OK(&r, "iblt", "build", tp(self, "n.img"), "-f", tp(self, "n.txt"),
	   "--key", "addr", "cells", "20", "seed", "3");
	kbctl_free(&r);
	OK(&r, "iblt", "subtract", tp(self, "g.img"), tp(self, "n.img"),
	   tp(self, "d.img"));
	kbctl_free(&r);
	OK(&r, "iblt", "decode", tp(self, "d.img"), "--key", "addr");
	EXPECT_EQ(3, kbctl_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "+10.0.0.7\n"));
	EXPECT_NE(NULL, strstr(r.out, "+fd00::2\n"));
	EXPECT_NE(NULL, strstr(r.out, "-10.0.0.99\n"));
	kbctl_free(&r);
	kbt_unpin(gate);
}

TEST_HARNESS_MAIN
