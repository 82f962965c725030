// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl's Multi-Class Bloom filter commands on the host (root): mcbf
 * optimize|create|port|join|leave|ports|groups|stats and xdp
 * attach|detach|status of mcbf instances, run as the program they are
 * (build/kbloomctl, fork + exec), against a switch of veth links between
 * network namespaces:
 *
 *          h0      h1      h2      h3        hosts (eth0 each; h0 sends)
 *          |       |       |       |
 *          p0      p1      p2      p3        namespace "sw"
 *
 *  - mcbf optimize prints the class plan of kb_mcbf_optimize();
 *  - a switch made with xdp attach mcbf, groups joined with mcbf join:
 *    every host receives exactly the groups its port's filter may hold
 *    (the control plane's copy of the filter, built with libkbloom, says
 *    which: its groups, the predicted false positives, never a group of a
 *    class the port leaves unused), and mcbf stats counts the same
 *    (forwarded, filtered, unused, leaked);
 *  - a new class table from the optimiser (mcbf port ... class) keeps the
 *    groups; leave removes one; xdp detach removes ports and the switch;
 *  - usage errors: exit 2, one line, nothing on standard output, nothing
 *    created; system errors: exit 3, one line, nothing changed;
 *  - -j output parsed by python3 -m json.tool.
 */
#include <linux/bpf.h>

#include "kselftest_harness.h"
#include "tests/bpf/mcbf_util.h"
#include "tests/bpf/kbloomctl_xdp_util.h"

#define NPORTS	4
#define NGROUPS	64
#define NBACK	300	/* background groups of class 0 on p1 */
#define ROUNDS	4
#define BITS	1024
#define UNAME	"kbtusage0"	/* never created */

/* ---- helpers ------------------------------------------------------------------ */

#define NS	"netns", self->sw.path

/* "K0,K1,..." of a plan, as kbloomctl prints it */
static void plan_str(char *buf, size_t len, const struct kb_mcbf_plan *p)
{
	size_t off = 0;
	__u32 i;

	buf[0] = 0;
	for (i = 0; i < p->nclass && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%u", i ? "," : "",
				p->k[i]);
}

/* ---- no state: help, usage, the optimiser ------------------------------------------ */

static const char *const help_paths[][2] = {
	{ "mcbf" }, { "mcbf", "optimize" }, { "mcbf", "create" },
	{ "mcbf", "port" }, { "mcbf", "join" }, { "mcbf", "leave" },
	{ "mcbf", "ports" }, { "mcbf", "groups" }, { "mcbf", "stats" },
};

TEST(help_every_command)
{
	struct kbctl_res r;

	OK(&r, "--help");
	EXPECT_NE(NULL, strstr(r.out, "\n  mcbf "));
	kbctl_free(&r);
	kbctl_check_help(_metadata, help_paths, ARRAY_SIZE(help_paths), false);
	kbctl_run(&r, "mcbf", "stats", "--help");
	EXPECT_NE(NULL, strstr(r.out, "LEAK_RATE"));
	EXPECT_NE(NULL, strstr(r.out, "-j"));
	kbctl_free(&r);
}

#define A(...)	KBCTL_ARGS(__VA_ARGS__)
#define OPT(...) A("mcbf", "optimize", __VA_ARGS__)
#define ATT(...) A("xdp", "attach", "mcbf", UNAME, "dev", "p0", __VA_ARGS__)

static const struct usage_case usage_cases[] = {
	{ A("mcbf"), "missing subcommand (allowed: optimize create port join leave ports groups stats)" },
	{ A("mcbf", "optimize"), "missing bits M" },
	{ OPT("bits", "512"), "missing class GROUPS:P[:W]..." },
	{ OPT("bits", "1000", "class", "1:0.5"), "bits '1000': not a multiple of 512" },
	{ OPT("bits", "0", "class", "1:0.5"), "bits '0': out of range (allowed: an integer 512..4294967296" },
	{ OPT("bits", "512", "class", "10"), "class '10': not GROUPS:P[:W]" },
	{ OPT("bits", "512", "class", "10:1.5"), "class '10:1.5': presence 1.5 out of range" },
	{ OPT("bits", "512", "class", "10:0.5:2:3"), "class '10:0.5:2:3': not GROUPS:P[:W]" },
	{ OPT("bits", "512", "class", "-1:0.5"), "class '-1:0.5': not GROUPS:P[:W]" },
	{ OPT("bits", "512", "class", "1:.1", "2:.1", "3:.1", "4:.1", "5:.1",
	      "6:.1", "7:.1", "8:.1", "9:.1", "10:.1", "11:.1", "12:.1",
	      "13:.1", "14:.1", "15:.1", "16:.1", "17:.1"),
	  "class: 17 classes (allowed: 1..16" },
	{ OPT("bits", "512", "class", "1:0.5", "kmin", "0"), "kmin '0': out of range (allowed: an integer 1..32)" },
	{ OPT("bits", "512", "class", "1:0.5", "kmin", "6", "kmax", "3"), "kmin 6: above kmax 3" },
	{ OPT("bits", "512", "class", "1:0.5", "-o", "x"), "option -o: not accepted by mcbf optimize" },
	{ A("mcbf", "create", "a.b"), "NAME 'a.b': invalid character '.'" },
	{ A("mcbf", "create", UNAME, "audit", "yes"), "audit 'yes': unknown (allowed: on|off)" },
	{ A("mcbf", "create", UNAME, "members", "0"), "members '0': out of range" },
	{ A("mcbf", "create", UNAME, "ports", "5000"), "ports '5000': out of range (allowed: an integer 1..4096" },
	{ A("mcbf", "port", UNAME), "missing PORT" },
	{ A("mcbf", "port", UNAME, "p0", "classes", "0"), "classes '0': no class used" },
	{ A("mcbf", "port", UNAME, "p0", "classes", "1,,2"), "classes '1,,2': not a list" },
	{ A("mcbf", "port", UNAME, "p0", "classes", "1,2,x"), "classes '1,2,x': 'x' is not a k" },
	{ A("mcbf", "port", UNAME, "p0", "classes", "33"), "classes '33': '33' is not a k" },
	{ A("mcbf", "port", UNAME, "p0", "classes", "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"),
	  "classes '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1': more than 16 values" },
	{ A("mcbf", "port", UNAME, "p0", "classes", "all:0"), "classes 'all:0': bad k" },
	{ A("mcbf", "port", UNAME, "p0", "classes", "1", "class", "1:0.5"), "classes: not with class" },
	{ A("mcbf", "port", UNAME, "p0", "hash", "md5"), "hash 'md5': unknown (allowed: fast|siphash)" },
	{ A("mcbf", "port", UNAME, "p0", "seed", "x"), "seed 'x': not a number" },
	{ A("mcbf", "port", UNAME, "p0", "bits", "100"), "bits '100': out of range" },
	{ A("mcbf", "port", UNAME, "p0", "bits", "512", "class", "1:2"), "class '1:2': presence 2 out of range" },
	{ A("mcbf", "join", UNAME), "missing PORT" },
	{ A("mcbf", "join", UNAME, "p0"), "missing GROUP" },
	{ A("mcbf", "join", UNAME, "p0", "10.1.1.1"), "GROUP '10.1.1.1': not a multicast group" },
	{ A("mcbf", "join", UNAME, "p0", "239.1.1.1", "239.1.1.1"), "GROUP '239.1.1.1': given twice" },
	{ A("mcbf", "leave", UNAME, "p0", "ff3e::1", "netns"), "netns: missing NS" },
	{ A("mcbf", "ports", UNAME, "p0"), "argument 'p0': unexpected" },
	{ A("mcbf", "groups", UNAME, "p0", "p1"), "argument 'p1': unexpected" },
	{ A("mcbf", "stats", "x.y"), "NAME 'x.y'" },
	{ A("xdp", "attach", "mcbf", UNAME), "missing dev IFACE..." },
	{ ATT("hashes", "3"), "hashes: not for mcbf (allowed: bits M, classes LIST" },
	{ ATT("capacity", "100"), "capacity: not for mcbf" },
	{ ATT("classes", "0,0"), "classes '0,0': no class used" },
	{ ATT("bits", "777"), "bits '777': not a multiple of 512" },
	{ ATT("audit", "x"), "audit 'x': unknown" },
	{ ATT("mode", "fast"), "mode 'fast': unknown" },
	{ ATT("-j"), "option -j: not accepted by xdp attach" },
};

TEST(usage_errors_change_nothing)
{
	kbctl_check_usage(_metadata, usage_cases, ARRAY_SIZE(usage_cases),
			  UNAME);
}

TEST(optimize_is_the_libraries)
{
	static const struct kb_mcbf_class_spec cs[3] = {
		{ .groups = 20, .p = 0.8, .w = 1 },
		{ .groups = 50, .p = 0.2, .w = 1 },
		{ .groups = 200, .p = 0.02, .w = 5 },
	};
	struct kb_mcbf_plan plan;
	struct kbctl_res r;
	char want[128], k[64];

	ASSERT_EQ(0, kb_mcbf_optimize(512, cs, 3, 1, 16, &plan));
	plan_str(k, sizeof(k), &plan);
	OK(&r, "mcbf", "optimize", "bits", "512", "class", "20:0.8", "50:0.2",
	   "200:0.02:5");
	snprintf(want, sizeof(want), "\nclasses %s\n", k);
	EXPECT_NE(NULL, strstr(r.out, want)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "239.32.0.0/12 ff3e::2000:0/100"));
	snprintf(want, sizeof(want), "one k for every class: k %u,",
		 plan.k_uniform);
	EXPECT_NE(NULL, strstr(r.out, want)) TH_LOG("%s", r.out);
	kbctl_free(&r);
	OK(&r, "mcbf", "optimize", "bits", "512", "class", "20:0.8", "50:0.2",
	   "200:0.02:5", "-j");
	EXPECT_JSON(&r);
	snprintf(want, sizeof(want), "\"classes\":\"%s\"", k);
	EXPECT_NE(NULL, strstr(r.out, want)) TH_LOG("%s", r.out);
	EXPECT_EQ(plan.k[2], jnum(r.out, "{\"class\":2", "k"));
	EXPECT_EQ(512, jnum(r.out, NULL, "bits"));
	kbctl_free(&r);
	/* kmin, kmax bound the plan */
	OK(&r, "mcbf", "optimize", "bits", "512", "class", "20:0.8", "50:0.2",
	   "kmin", "3", "kmax", "3", "-j");
	EXPECT_NE(NULL, strstr(r.out, "\"classes\":\"3,3\""));
	kbctl_free(&r);
}

/* ---- the switch ---------------------------------------------------------------- */

FIXTURE(sw) {
	char name[64], pass[64], other[64];
	struct kbt_ns sw, host[NPORTS];
	struct kbloom_addr_key g[NGROUPS];
	char gs[NGROUPS][64];
	__u64 joined[NPORTS];	/* bit j: group j joined on port i */
	struct kbloom_addr_key bg[NBACK];
	int nbg;		/* of them joined on p1 */
	int rx[NPORTS];
};

static void sw_free(FIXTURE_DATA(sw) *self)
{
	int i;

	for (i = 0; i < NPORTS; i++) {
		if (self->rx[i] > 0)
			close(self->rx[i]);
		self->rx[i] = 0;
		kbt_ns_free(&self->host[i]);
	}
	if (self->name[0])
		kbt_unpin(self->name);
	if (self->pass[0])
		kbt_unpin(self->pass);
	if (self->other[0])
		kbt_unpin(self->other);
	kbt_ns_free(&self->sw);
}

static int sw_make(FIXTURE_DATA(sw) *self)
{
	int i;

	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "mcbf");
	kbt_name(self->pass, sizeof(self->pass), "pass");
	kbt_name(self->other, sizeof(self->other), "other");
	/* group j: class j % 4, IPv6 when j is odd */
	for (i = 0; i < NGROUPS; i++) {
		mcbf_group(&self->g[i], i & 1, i % 4, 100 + i);
		inet_ntop(i & 1 ? AF_INET6 : AF_INET, self->g[i].addr,
			  self->gs[i], sizeof(self->gs[i]));
	}
	return kbt_switch_new(&self->sw, self->host, NPORTS);
}

FIXTURE_SETUP(sw)
{
	int ret = sw_make(self);

	if (ret)
		sw_free(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(sw)
{
	sw_free(self);
}

/* xdp attach mcbf on every port (classes 1,2,5: class 3 unused), pass. */
static void make_switch(struct __test_metadata *_metadata,
			FIXTURE_DATA(sw) *self)
{
	struct kbctl_res r;

	OK(&r, "xdp", "attach", "mcbf", self->name, "dev", "p0", "p1", "p2",
	   "p3", "bits", "1024", "classes", "1,2,5", "mode", "native", NS);
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);
	kbctl_attach_pass(_metadata, self->pass, self->host, NPORTS);
}

static void join(struct __test_metadata *_metadata, FIXTURE_DATA(sw) *self,
		 int port, const int *grp, int n)
{
	const char *args[32] = { "mcbf", "join", self->name, NULL };
	struct kbctl_res r;
	char p[8];
	int i, a = 3;

	snprintf(p, sizeof(p), "p%d", port);
	args[a++] = p;
	for (i = 0; i < n; i++) {
		args[a++] = self->gs[grp[i]];
		self->joined[port] |= 1ULL << grp[i];
	}
	args[a++] = "netns";
	args[a++] = self->sw.path;
	args[a] = NULL;
	kbctl_run_io(&r, NULL, NULL, args);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);
}

/* Port @i's counter @key in the JSON of mcbf stats. */
static long long port_stat(const char *json, int i, const char *key)
{
	char from[32];

	snprintf(from, sizeof(from), "\"port\":\"p%d\"", i);
	return jnum(json, from, key);
}

/*
 * Send every group ROUNDS times from h0 and check, per host port, what
 * arrives and what mcbf stats counts against the control plane's copy of
 * the port's filter (@k: its class table).
 */
static int check_traffic(struct __test_metadata *_metadata,
			 FIXTURE_DATA(sw) *self, const __u8 k[NPORTS][4])
{
	__u32 cnt[NPORTS][NGROUPS] = { 0 }, want, fwd, leak, unused;
	struct kbloom_addr_key mg[NGROUPS + NBACK];
	struct kbloom_mcbf_spec spec;
	struct kbctl_res r, b;
	struct kbt_payload pl;
	struct kb_mcbf *f;
	int i, j, n, tx, rnd, fps = 0;
	__u8 fr[256];
	size_t len;

	for (i = 1; i < NPORTS; i++) {
		if (self->rx[i] <= 0)
			self->rx[i] = kbt_psock(&self->host[i], "eth0");
		ASSERT_LT(0, self->rx[i]);
		while (kbt_precv(self->rx[i], &pl))
			;
	}
	OK(&b, "mcbf", "stats", self->name, NS, "-j");
	tx = kbt_psock(&self->host[0], "eth0");
	ASSERT_LE(0, tx);
	for (rnd = 0; rnd < ROUNDS; rnd++)
		for (j = 0; j < NGROUPS; j++) {
			pl = (struct kbt_payload){ KBT_MAGIC, j, rnd, 0 };
			len = mcbf_frame(fr, &self->g[j], &pl);
			ASSERT_EQ((ssize_t)len, send(tx, fr, len, 0));
		}
	close(tx);
	usleep(300000);
	for (i = 1; i < NPORTS; i++)
		while (kbt_precv(self->rx[i], &pl))
			if (pl.group < NGROUPS)
				cnt[i][pl.group]++;
	OK(&r, "mcbf", "stats", self->name, NS, "-j");
	EXPECT_JSON(&r);
	for (i = 1; i < NPORTS; i++) {
		memset(&spec, 0, sizeof(spec));
		spec.m = BITS;
		memcpy(spec.classes.k, k[i], 4);
		for (j = 0, n = 0; j < NGROUPS; j++)
			if (self->joined[i] >> j & 1)
				mg[n++] = self->g[j];
		for (j = 0; i == 1 && j < self->nbg; j++)
			mg[n++] = self->bg[j];
		f = mcbf_build(&spec, mg, n);
		ASSERT_NE(NULL, f);
		fwd = leak = unused = 0;
		for (j = 0; j < NGROUPS; j++) {
			want = mcbf_test_key(f, &self->g[j]);
			if (self->joined[i] >> j & 1)
				EXPECT_EQ(1, want);
			EXPECT_EQ(want ? ROUNDS : 0, (int)cnt[i][j])
				TH_LOG("port %d group %d", i, j);
			fwd += want;
			leak += want && !(self->joined[i] >> j & 1);
			unused += !k[i][j % 4];
		}
		kb_mcbf_free(f);
		fps += leak;
		TH_LOG("p%d: %u groups forwarded, %u false positives, %u of an unused class",
		       i, fwd, leak, unused);
#define DELTA(key) (port_stat(r.out, i, key) - port_stat(b.out, i, key))
		EXPECT_EQ(NGROUPS * ROUNDS, DELTA("tx_seen"));
		EXPECT_EQ(fwd * ROUNDS, DELTA("tx_forwarded"));
		EXPECT_EQ(leak * ROUNDS, DELTA("tx_leaked"));
		EXPECT_EQ(unused * ROUNDS, DELTA("tx_unused"));
		EXPECT_EQ((NGROUPS - fwd) * ROUNDS, DELTA("tx_filtered"));
#undef DELTA
	}
	EXPECT_EQ(NGROUPS * ROUNDS, port_stat(r.out, 0, "rx_mcast") -
				    port_stat(b.out, 0, "rx_mcast"));
	EXPECT_EQ(0, port_stat(r.out, 0, "tx_seen"));
	kbctl_free(&b);
	kbctl_free(&r);
	return fps;
}

/* p1 joins the background groups (class 0, never sent), 100 a command. */
static void join_background(struct __test_metadata *_metadata,
			    FIXTURE_DATA(sw) *self)
{
	char s[NBACK][64];
	const char *args[128];
	struct kbctl_res r;
	int i, a;

	for (i = 0; i < NBACK; i++) {
		mcbf_group(&self->bg[i], 0, 0, 5000 + i);
		inet_ntop(AF_INET, self->bg[i].addr, s[i], sizeof(s[i]));
	}
	for (i = 0; i < NBACK; i += 100) {
		a = 0;
		args[a++] = "mcbf";
		args[a++] = "join";
		args[a++] = self->name;
		args[a++] = "p1";
		while (a < 104 && i + a - 4 < NBACK) {
			args[a] = s[i + a - 4];
			a++;
		}
		args[a++] = "netns";
		args[a++] = self->sw.path;
		args[a] = NULL;
		kbctl_run_io(&r, NULL, NULL, args);
		EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
		kbctl_free(&r);
	}
	self->nbg = NBACK;
}

TEST_F_TIMEOUT(sw, forwards_by_class, 180)
{
	static const int g1[] = { 0, 1, 2 }, g2[] = { 4, 0, 5 }, g3[] = { 6 };
	__u8 k[NPORTS][4] = { { 1, 2, 5 }, { 1, 2, 5 }, { 1, 2, 5 },
			      { 1, 2, 5 } };
	struct kb_mcbf_class_spec cs[2] = { { 20, 0.8, 1 }, { 50, 0.2, 1 } };
	struct kb_mcbf_plan plan;
	char dir[128], want[400], ks[32];
	struct kbctl_res r;

	make_switch(_metadata, self);
	join(_metadata, self, 1, g1, 3);
	join(_metadata, self, 2, g2, 3);
	join(_metadata, self, 3, g3, 1);
	join_background(_metadata, self);

	/* status, ports, groups */
	OK(&r, "xdp", "status", self->name, NS);
	snprintf(dir, sizeof(dir), "%s/%s", KBT_PIN_ROOT, self->name);
	snprintf(want, sizeof(want), "%s: mcbf, %s\n  ports 4, memberships 307, audit on\n",
		 self->name, dir);
	EXPECT_EQ(0, strncmp(r.out, want, strlen(want))) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\n  p3 "));
	kbctl_free(&r);
	OK(&r, "xdp", "status", self->name, NS, "-j");
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"kind\":\"mcbf\""));
	EXPECT_EQ(307, jnum(r.out, NULL, "memberships"));
	kbctl_free(&r);
	OK(&r, "mcbf", "ports", self->name, NS);
	EXPECT_EQ(0, strncmp(r.out, "PORT ", 5));
	EXPECT_EQ(5, kbctl_lines(r.out));
	EXPECT_NE(NULL, strstr(r.out, "1,2,5\n"));
	kbctl_free(&r);
	OK(&r, "mcbf", "ports", self->name, NS, "-j");
	EXPECT_JSON(&r);
	EXPECT_EQ(BITS, jnum(r.out, "\"port\":\"p1\"", "m"));
	EXPECT_EQ(303, jnum(r.out, "\"port\":\"p1\"", "groups"));
	EXPECT_EQ(0, jnum(r.out, "\"port\":\"p0\"", "ones"));
	EXPECT_NE(NULL, strstr(r.out, "\"classes\":\"1,2,5\""));
	EXPECT_NE(NULL, strstr(r.out, "{\"class\":2,\"k\":5,\"fpr_now\":"));
	kbctl_free(&r);
	OK(&r, "mcbf", "groups", self->name, "p1", NS);
	snprintf(want, sizeof(want), "p1 %s class 0\n", self->gs[0]);
	EXPECT_NE(NULL, strstr(r.out, want)) TH_LOG("%s", r.out);
	snprintf(want, sizeof(want), "p1 %s class 1\n", self->gs[1]);
	EXPECT_NE(NULL, strstr(r.out, want));
	EXPECT_EQ(303, kbctl_lines(r.out));
	kbctl_free(&r);
	OK(&r, "mcbf", "groups", self->name, NS, "-j");
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "{\"port\":\"p0\",\"ifindex\":"));
	kbctl_free(&r);

	/* the background makes false positives: predicted, counted */
	EXPECT_LT(0, check_traffic(_metadata, self, k));
	OK(&r, "mcbf", "stats", self->name, NS);
	EXPECT_EQ(0, strncmp(r.out, "PORT ", 5));
	EXPECT_NE(NULL, strstr(r.out, "LEAK_RATE"));
	EXPECT_EQ(5, kbctl_lines(r.out));
	kbctl_free(&r);

	/* p2's classes from the optimiser: its groups stay */
	ASSERT_EQ(0, kb_mcbf_optimize(BITS, cs, 2, 1, 16, &plan));
	OK(&r, "mcbf", "port", self->name, "p2", "class", "20:0.8", "50:0.2",
	   NS);
	kbctl_free(&r);
	memset(k[2], 0, 4);
	k[2][0] = (__u8)plan.k[0];
	k[2][1] = (__u8)plan.k[1];
	snprintf(ks, sizeof(ks), "\"classes\":\"%u,%u\"", plan.k[0], plan.k[1]);
	OK(&r, "mcbf", "ports", self->name, NS, "-j");
	EXPECT_NE(NULL, strstr(r.out, ks)) TH_LOG("%s", r.out);
	EXPECT_EQ(3, jnum(r.out, "\"port\":\"p2\"", "groups"));
	kbctl_free(&r);

	/* leave: p1 without group 1; the traffic follows both changes */
	OK(&r, "mcbf", "leave", self->name, "p1", self->gs[1], NS);
	kbctl_free(&r);
	self->joined[1] &= ~(1ULL << 1);
	OK(&r, "mcbf", "groups", self->name, "p1", NS);
	EXPECT_EQ(302, kbctl_lines(r.out));
	kbctl_free(&r);
	check_traffic(_metadata, self, k);
}

TEST_F_TIMEOUT(sw, system_errors_change_nothing, 180)
{
	static const int g1[] = { 0, 1 };
	struct kbctl_res r;
	char want[160];

	/* nothing there yet */
	kbctl_run(&r, "mcbf", "join", self->name, "p1", self->gs[0], NS);
	EXPECT_SYS(&r, "No such file or directory (no XDP instance named");
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "attach", "mcbf", self->name, "dev", "p0", "p9",
		  NS);
	EXPECT_SYS(&r, "p9: No such device (no interface p9 in netns ");
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->name));

	make_switch(_metadata, self);
	join(_metadata, self, 1, g1, 2);
	/* a group of the unused class 3 */
	kbctl_run(&r, "mcbf", "join", self->name, "p1", self->gs[3], NS);
	snprintf(want, sizeof(want), "p1 %s: Invalid argument (its class 3 is unused in classes 1,2,5",
		 self->gs[3]);
	EXPECT_SYS(&r, want);
	kbctl_free(&r);
	/* joined already; -exist; not joined */
	kbctl_run(&r, "mcbf", "join", self->name, "p1", self->gs[8],
		  self->gs[0], NS);
	EXPECT_SYS(&r, "File exists (joined already; -exist ignores it)");
	kbctl_free(&r);
	OK(&r, "mcbf", "groups", self->name, "p1", NS, "-j");
	EXPECT_EQ(NULL, strstr(r.out, self->gs[8]));	/* all or nothing */
	kbctl_free(&r);
	OK(&r, "mcbf", "join", self->name, "p1", self->gs[8], self->gs[0],
	   NS, "-exist");
	kbctl_free(&r);
	kbctl_run(&r, "mcbf", "leave", self->name, "p1", self->gs[4], NS);
	EXPECT_SYS(&r, "No such file or directory (not joined; -exist ignores it)");
	kbctl_free(&r);
	OK(&r, "mcbf", "leave", self->name, "p1", self->gs[4], NS, "-exist");
	kbctl_free(&r);
	/* a class table that leaves a joined group's class unused */
	kbctl_run(&r, "mcbf", "port", self->name, "p1", "classes", "3", NS);
	EXPECT_SYS(&r, "Invalid argument (its class 1 is unused in classes 3; mcbf leave it first)");
	kbctl_free(&r);
	OK(&r, "mcbf", "ports", self->name, NS, "-j");
	EXPECT_NE(NULL, strstr(r.out, "\"classes\":\"1,2,5\""));
	EXPECT_EQ(NULL, strstr(r.out, "\"classes\":\"3\""));
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "attach", "mcbf", self->name, "dev", "p1", NS);
	EXPECT_SYS(&r, "dev p1: File exists (already attached; -exist ignores it)");
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "attach", "mcbf", self->name, "dev", "p1",
		  "members", "5", NS);
	EXPECT_SYS(&r, "ports, members and audit apply when the instance is made");
	kbctl_free(&r);
	kbctl_run(&r, "mcbf", "create", self->name, NS);
	EXPECT_SYS(&r, "File exists (-exist ignores it)");
	kbctl_free(&r);
	OK(&r, "mcbf", "create", self->name, NS, "-exist");
	kbctl_free(&r);
	kbctl_run(&r, "ipbf", "create", self->name, NS);
	EXPECT_SYS(&r, "File exists (an instance of another kind)");
	kbctl_free(&r);
	kbctl_run(&r, "mcbf", "stats", self->name, "lo", NS);
	EXPECT_SYS(&r, "lo: No such file or directory (lo is not a port of");
	kbctl_free(&r);

	/* a second switch, without attaching: create, a port, audit off */
	OK(&r, "mcbf", "create", self->other, "audit", "off", "ports", "8", NS);
	kbctl_free(&r);
	OK(&r, "mcbf", "port", self->other, "p0", "bits", "512", "classes",
	   "all:2", "seed", "9", "hash", "siphash", NS);
	kbctl_free(&r);
	OK(&r, "mcbf", "ports", self->other, NS, "-j");
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"attached\":false,\"m\":512,\"hash\":\"siphash\",\"seed\":9,\"classes\":\"all:2\""))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	OK(&r, "xdp", "status", self->other, NS, "-j");
	EXPECT_NE(NULL, strstr(r.out, "\"audit\":false"));
	kbctl_free(&r);
	/* a size for a port that is one already */
	kbctl_run(&r, "xdp", "attach", "mcbf", self->other, "dev", "p0",
		  "bits", "1024", NS);
	EXPECT_SYS(&r, "dev p0: File exists (a port already: its filter stays; mcbf port changes it)");
	kbctl_free(&r);

	/* detach: a port, then the whole switch */
	OK(&r, "xdp", "detach", self->name, "dev", "p3", NS);
	kbctl_free(&r);
	OK(&r, "mcbf", "ports", self->name, NS);
	EXPECT_EQ(4, kbctl_lines(r.out));
	kbctl_free(&r);
	kbctl_run(&r, "mcbf", "join", self->name, "p3", self->gs[0], NS);
	EXPECT_SYS(&r, "p3 is not a port of");
	kbctl_free(&r);
	OK(&r, "xdp", "detach", self->name);
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->name));
	OK(&r, "xdp", "detach", self->other);
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->other));
}

TEST_HARNESS_MAIN
