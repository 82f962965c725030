// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl's XDP commands on the host (root): xdp attach|detach|status,
 * mcast join|leave|ports|groups|stats, gate add|del|test|list|mode|stats|
 * rebuild and map load|save|dump|stat|test, run as the program they are
 * (build/kbloomctl, fork + exec) against a switch of veth links between
 * network namespaces held by file descriptors (tests/bpf/xdp_util.h):
 *
 *          h0      h1      h2      h3        hosts (eth0 each)
 *          |       |       |       |
 *          p0      p1      p2      p3        namespace "sw"
 *
 *  - every command's success path, with real frames through the mcast
 *    and gate programs, and the counters the commands print;
 *  - usage errors: exit 2, one line naming the argument and what is
 *    allowed, nothing on standard output, nothing created;
 *  - system errors: exit 3, one line with the operation and strerror, and
 *    nothing changed (an attach that fails half-way is undone);
 *  - -j output of every read command parsed by python3 -m json.tool (and
 *    by the C validator of tests/core/kbloomctl_util.h);
 *  - images: a blocked filter built and saved with libkbloom (the module's
 *    image format) loaded into a pinned BPF filter with map load, then
 *    seen by map dump (the same words), map test, gate test and the
 *    packets; map save -> libkbloom and map save | map load between
 *    instances; images that must be refused are, with nothing changed.
 *
 * Instances are named kbt<pid>-*, removed by the teardown, and by the
 * janitor of a later run if this process died.
 */
#include <linux/bpf.h>

#include "kselftest_harness.h"
#include "tests/bpf/kbloomctl_xdp_util.h"
#include "libkbloom.h"

#define NPORTS	4
#define UNAME	"kbtusage0"	/* never created */
#define UPATH	KBT_PIN_ROOT "/" UNAME "/filter_0"

/* ---- helpers ------------------------------------------------------------------ */

#define ARGS(...)	KBCTL_ARGS(__VA_ARGS__)

/* ---- no state: help and usage errors ------------------------------------------ */

static const char *const help_paths[][2] = {
	{ "xdp" }, { "xdp", "attach" }, { "xdp", "detach" }, { "xdp", "status" },
	{ "mcast" }, { "mcast", "join" }, { "mcast", "leave" },
	{ "mcast", "ports" }, { "mcast", "groups" }, { "mcast", "stats" },
	{ "mcast", "config" }, { "mcast", "sync" },
	{ "gate" }, { "gate", "add" }, { "gate", "del" }, { "gate", "test" },
	{ "gate", "list" }, { "gate", "mode" }, { "gate", "stats" },
	{ "gate", "rebuild" },
	{ "map" }, { "map", "load" }, { "map", "save" }, { "map", "dump" },
	{ "map", "stat" }, { "map", "test" },
};

TEST(help_every_command)
{
	struct kbctl_res r;

	OK(&r, "--help");
	EXPECT_NE(NULL, strstr(r.out, "\n  xdp "));
	EXPECT_NE(NULL, strstr(r.out, "\n  mcast "));
	EXPECT_NE(NULL, strstr(r.out, "\n  gate "));
	EXPECT_NE(NULL, strstr(r.out, "\n  map "));
	kbctl_free(&r);
	/* help A B says the same; --help wins over bad arguments */
	kbctl_check_help(_metadata, help_paths, ARRAY_SIZE(help_paths), true);
	/* the groups list their subcommands, the read commands offer -j */
	kbctl_run(&r, "gate", "--help");
	EXPECT_NE(NULL, strstr(r.out, "\n  rebuild "));
	kbctl_free(&r);
	kbctl_run(&r, "mcast", "stats", "--help");
	EXPECT_NE(NULL, strstr(r.out, "-j"));
	EXPECT_NE(NULL, strstr(r.out, "LEAK_RATE"));
	kbctl_free(&r);
}

#define A(...)	ARGS(__VA_ARGS__)
#define ATT(...) A("xdp", "attach", "mcast", UNAME, "dev", "p0", __VA_ARGS__)

static const struct usage_case usage_cases[] = {
	{ A("xdp"), "missing subcommand (allowed: attach detach status resolve)" },
	{ A("xdp", "resolve"), "missing NAME" },
	{ A("xdp", "resolve", UNAME, "x"), "argument 'x': unexpected" },
	{ A("xdp", "resolve", "bad.name"), "NAME 'bad.name': invalid character '.'" },
	{ A("xdp", "bogus"), "subcommand 'bogus': unknown" },
	{ A("xdp", "attach", "mcast"), "missing NAME" },
	{ A("xdp", "attach", "vlan", UNAME, "dev", "p0"),
	  "KIND 'vlan': unknown (allowed: mcast|gate|pass|ipbf|mcbf|sketch|conntrack|dedupe|window)" },
	{ A("xdp", "attach", "ipbf", UNAME, "dev", "p0", "bits", "512"),
	  "bits: not for ipbf (allowed: dev mode netns" },
	{ A("xdp", "attach", "mcast", "bad.name", "dev", "p0"),
	  "NAME 'bad.name': invalid character '.'" },
	{ A("xdp", "attach", "mcast",
	    "n234567890123456789012345678901234567890123456789012345678901234",
	    "dev", "p0"), "64 characters, too long (allowed: 1..63" },
	{ A("xdp", "attach", "mcast", UNAME), "missing dev IFACE..." },
	{ A("xdp", "attach", "mcast", UNAME, "dev"), "dev: missing IFACE..." },
	{ A("xdp", "attach", "mcast", UNAME, "dev", "mode", "native"),
	  "dev: missing IFACE..." },
	{ A("xdp", "attach", "mcast", UNAME, "speed", "9", "dev", "p0"),
	  "'speed': unknown keyword (allowed: dev mode netns" },
	{ ATT("mode", "turbo"),
	  "mode 'turbo': unknown (allowed: auto|native|generic)" },
	{ ATT("mode", "native", "mode", "generic"), "mode: given twice" },
	{ ATT("bits", "1000", "hashes", "3"),
	  "bits '1000': not a multiple of 512" },
	{ ATT("bits", "1024"), "bits: needs hashes K too" },
	{ ATT("hashes", "3"), "hashes: needs bits M too" },
	{ ATT("bits", "1024", "hashes", "99"),
	  "hashes '99': out of range (allowed: an integer 1..32)" },
	{ ATT("capacity", "100", "bits", "1024", "hashes", "2"),
	  "not with capacity" },
	{ ATT("fpr", "0.9"), "fpr '0.9': out of range" },
	{ ATT("capacity", "ten"), "capacity 'ten': not a number" },
	{ ATT("hash", "md5"), "hash 'md5': unknown (allowed: fast|siphash)" },
	{ ATT("seed", "-1"), "seed '-1': not a number" },
	{ ATT("ports", "0"), "ports '0': out of range" },
	{ ATT("policy", "deny"), "policy: only for gate instances" },
	{ ATT("keys", "5"), "keys: only for gate instances" },
	{ A("xdp", "attach", "gate", UNAME, "dev", "p0", "members", "5"),
	  "members: only for mcast instances" },
	{ A("xdp", "attach", "gate", UNAME, "dev", "p0", "policy", "drop"),
	  "policy 'drop': unknown (allowed: monitor|deny|allow)" },
	{ A("xdp", "attach", "gate", UNAME, "dev", "p0", "match", "both"),
	  "match 'both': unknown (allowed: src|dst)" },
	{ A("xdp", "attach", "pass", UNAME, "dev", "p0", "capacity", "5"),
	  "capacity: not for pass (allowed: dev mode netns)" },
	{ A("xdp", "attach", "mcast", UNAME, "dev", "p0", "p0"),
	  "dev 'p0': given twice" },
	{ A("xdp", "attach", "mcast", UNAME, "dev", "a/b"),
	  "dev 'a/b': invalid character" },
	{ A("xdp", "attach", "mcast", UNAME, "dev", "averyveryverylongname"),
	  "too long (allowed: an interface name of 1..15 characters" },
	{ ATT("netns", ""), "netns '': invalid" },
	{ ATT("-j"), "option -j: not accepted by xdp attach" },
	{ A("xdp", "detach", "bad.name"), "NAME 'bad.name'" },
	{ A("xdp", "detach", UNAME, "dev"), "dev: missing IFACE" },
	{ A("xdp", "detach", UNAME, "-j"), "option -j: not accepted" },
	{ A("xdp", "status", UNAME, "bogus", "1"), "'bogus': unknown keyword" },
	{ A("mcast"), "missing subcommand" },
	{ A("mcast", "join", UNAME), "missing PORT" },
	{ A("mcast", "join", UNAME, "p0"), "missing GROUP" },
	{ A("mcast", "join", UNAME, "p0", "10.0.0.1"),
	  "GROUP '10.0.0.1': not a multicast group (allowed: 224.0.0.0/4 or ff00::/8)" },
	{ A("mcast", "join", UNAME, "p0", "239.1.1.300"),
	  "GROUP '239.1.1.300': not an address" },
	{ A("mcast", "join", UNAME, "p0", "fe80::1"),
	  "GROUP 'fe80::1': not a multicast group" },
	{ A("mcast", "leave", UNAME, "p0", "239.1.1.1", "netns"),
	  "netns: missing NS" },
	{ A("mcast", "leave", UNAME, "p0", "239.1.1.1", "netns", "a", "b"),
	  "'b': unexpected after netns a" },
	{ A("mcast", "ports", UNAME, "p0"), "argument 'p0': unexpected" },
	{ A("mcast", "stats", UNAME, "p0", "extra"),
	  "argument 'extra': unexpected" },
	{ A("mcast", "groups", "x.y"), "NAME 'x.y'" },
	{ A("mcast", "config", UNAME, "flood", "all"),
	  "flood 'all': unknown (allowed: ports|stack|off)" },
	{ A("mcast", "config", UNAME, "flood"), "flood: missing ports|stack|off" },
	{ A("mcast", "config", UNAME, "audit", "on"), "'audit': unknown keyword" },
	{ A("mcast", "sync", UNAME), "missing bridge BR" },
	{ A("mcast", "sync", UNAME, "bridge", "br0", "mode", "twice"),
	  "mode 'twice': unknown (allowed: follow|once)" },
	{ A("gate", "add", UNAME), "missing ADDR" },
	{ A("gate", "add", UNAME, "1.2.3.999"),
	  "ADDR '1.2.3.999': not an address (allowed: an IPv4 or IPv6 address)" },
	{ A("gate", "del", UNAME, "10.0.0.1", "nope"), "ADDR 'nope'" },
	{ A("gate", "test", UNAME, "10.0.0.1", "--key", "hex"),
	  "option --key: not accepted by gate test" },
	{ A("gate", "mode", UNAME, "block"),
	  "MODE 'block': unknown (allowed: monitor|deny|allow)" },
	{ A("gate", "mode", UNAME, "deny", "match", "both"),
	  "match 'both': unknown (allowed: src|dst)" },
	{ A("gate", "mode", UNAME, "deny", "from", "src"),
	  "'from': unknown keyword (allowed: match)" },
	{ A("gate", "mode", UNAME, "deny", "match"), "match: missing src|dst" },
	{ A("gate", "rebuild", UNAME, "bits", "100", "hashes", "2"),
	  "bits '100': out of range" },
	{ A("gate", "list"), "missing NAME" },
	{ A("map", "load", "/tmp/x"),
	  "PATH '/tmp/x': not a pinned filter (allowed: /sys/fs/bpf/kbloom/NAME/filter_ID" },
	{ A("map", "dump", KBT_PIN_ROOT "/x/filter_1a"), "not a pinned filter" },
	{ A("map", "dump", KBT_PIN_ROOT "/x/filter_"), "not a pinned filter" },
	{ A("map", "stat", "filter_0"), "PATH 'filter_0': not a pinned filter" },
	{ A("map", "stat", "/filter_0"), "no instance directory" },
	{ A("map", "stat", KBT_PIN_ROOT "/a.b/filter_0"), "NAME 'a.b'" },
	{ A("map", "test", UPATH), "missing KEY" },
	{ A("map", "test", UPATH, "--key", "ipv4", "300.1.1.1"), "300.1.1.1" },
	{ A("map", "test", UPATH, "--key", "ip"), "--key 'ip': unknown encoding" },
	{ A("map", "test", UPATH, "g1"), "KEY 1 'g1': not an IP address" },
	{ A("map", "load", UPATH, "-o", "f"),
	  "option -o: not accepted by map load" },
	{ A("map", "save", UPATH, "extra"), "argument 'extra': unexpected" },
};

TEST(usage_errors_change_nothing)
{
	kbctl_check_usage(_metadata, usage_cases, ARRAY_SIZE(usage_cases),
			  UNAME);
}

/* ---- the switch ------------------------------------------------------------------ */

FIXTURE(sw) {
	char name[64];		/* the mcast instance */
	char pass[64];		/* the XDP_PASS links of the host ends */
	char gate[64];
	char other[64];		/* a second instance, for conflicts */
	char named_ns[32];	/* a namespace in /run/netns, when made */
	char dir[64];		/* temporary files */
	struct kbt_ns sw, host[NPORTS];
	int port[NPORTS];	/* ifindex of p<i> in sw */
	char port_s[NPORTS][16];
};

static void net_cleanup(FIXTURE_DATA(sw) *self)
{
	char cmd[128];
	int i;

	if (self->name[0])
		kbt_unpin(self->name);
	if (self->pass[0])
		kbt_unpin(self->pass);
	if (self->gate[0])
		kbt_unpin(self->gate);
	if (self->other[0])
		kbt_unpin(self->other);
	if (self->named_ns[0]) {
		snprintf(cmd, sizeof(cmd), "ip netns del %s 2>/dev/null",
			 self->named_ns);
		if (system(cmd))
			fprintf(stderr, "# %s failed\n", cmd);
	}
	for (i = 0; i < NPORTS; i++)
		kbt_ns_free(&self->host[i]);
	kbt_ns_free(&self->sw);
	if (self->dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
		if (system(cmd))
			fprintf(stderr, "# %s failed\n", cmd);
	}
}

static int net_setup(FIXTURE_DATA(sw) *self)
{
	char p[16];
	int i;

	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "sw");
	kbt_name(self->pass, sizeof(self->pass), "pass");
	kbt_name(self->gate, sizeof(self->gate), "gate");
	kbt_name(self->other, sizeof(self->other), "other");
	snprintf(self->dir, sizeof(self->dir), "/tmp/kbt%d-XXXXXX",
		 (int)getpid());
	if (!mkdtemp(self->dir)) {
		self->dir[0] = 0;
		return -1;
	}
	if (kbt_switch_new(&self->sw, self->host, NPORTS))
		return -1;
	for (i = 0; i < NPORTS; i++) {
		snprintf(p, sizeof(p), "p%d", i);
		self->port[i] = kbt_ifindex(&self->sw, p);
		if (self->port[i] <= 0)
			return -1;
		snprintf(self->port_s[i], sizeof(self->port_s[i]), "%d",
			 self->port[i]);
	}
	return 0;
}

FIXTURE_SETUP(sw)
{
	int ret = net_setup(self);

	if (ret)
		net_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(sw)
{
	net_cleanup(self);
}

static const char *tpath(FIXTURE_DATA(sw) *self, const char *leaf)
{
	static char buf[4][128];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", self->dir, leaf);
	return buf[i];
}

static const char *fpath(const char *inst, int id)
{
	static char buf[4][160];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s/filter_%d", KBT_PIN_ROOT, inst,
		 id);
	return buf[i];
}

/* Send @n frames to IPv4 group @g (239.1.x.y) from host 0. */
static int send_group(FIXTURE_DATA(sw) *self, const __u8 *grp, int v6, int n)
{
	static const __u8 src4[4] = { 10, 0, 0, 9 };
	static const __u8 src6[16] = { 0xfd, [15] = 9 };
	struct kbt_payload pl = { KBT_MAGIC, 0, 0, 0 };
	struct kbt_frame_opts o = { .v6 = v6, .payload = &pl, .plen = sizeof(pl) };
	__u8 f[256];
	size_t len;
	int fd, i, ret = 0;

	o.src = v6 ? src6 : src4;
	o.dst = grp;
	fd = kbt_psock(&self->host[0], "eth0");
	if (fd < 0)
		return -1;
	for (i = 0; i < n; i++) {
		pl.seq = i;
		len = kbt_frame(f, &o);
		if (send(fd, f, len, 0) != (ssize_t)len)
			ret = -1;
	}
	close(fd);
	usleep(100000);
	return ret;
}

/* Frames carrying a kbt payload queued on @fd. */
static int drain_count(int fd)
{
	struct kbt_payload pl;
	int n = 0;

	while (kbt_precv(fd, &pl))
		n++;
	return n;
}

/* The switch: mcast on p0..p2 (p3 added later), pass on every host end. */
static void make_switch(struct __test_metadata *_metadata,
			FIXTURE_DATA(sw) *self)
{
	struct kbctl_res r;

	OK(&r, "xdp", "attach", "mcast", self->name, "dev", "p0", "p1", "p2",
	   "mode", "native", "netns", self->sw.path);
	kbctl_free(&r);
	kbctl_attach_pass(_metadata, self->pass, self->host, NPORTS);
}

TEST_F_TIMEOUT(sw, mcast_switch, 120)
{
	static const __u8 g1[4] = { 239, 1, 0, 1 }, g2[4] = { 239, 1, 0, 2 };
	static const __u8 g6[16] = { 0xff, 0x3e, [13] = 1, [15] = 6 };
	struct kbctl_res r;
	const char *ns = self->sw.path;
	char dir[160], want[256];
	int rx1, rx2, rx3;

	make_switch(_metadata, self);
	snprintf(dir, sizeof(dir), "%s/%s", KBT_PIN_ROOT, self->name);
	EXPECT_TRUE(exists(dir));

	/* a port with its own (tiny) filter, by ifindex */
	OK(&r, "xdp", "attach", "mcast", self->name, "dev", self->port_s[3],
	   "bits", "512", "hashes", "1", "netns", ns);
	kbctl_free(&r);

	/* status: text and JSON */
	OK(&r, "xdp", "status", self->name, "netns", ns);
	snprintf(want, sizeof(want), "%s: mcast, %s\n", self->name, dir);
	EXPECT_EQ(0, strncmp(r.out, want, strlen(want))) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "ports 4, memberships 0"));
	EXPECT_NE(NULL, strstr(r.out, "\n  p3 "));
	EXPECT_NE(NULL, strstr(r.out, " native "));
	kbctl_free(&r);
	OK(&r, "xdp", "status", self->name, "netns", ns, "-j");
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"kind\":\"mcast\""));
	EXPECT_NE(NULL, strstr(r.out, "\"ifname\":\"p2\""));
	EXPECT_NE(NULL, strstr(r.out, "\"mode\":\"native\""));
	kbctl_free(&r);
	OK(&r, "xdp", "status", self->pass, "-j");
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"kind\":\"pass\""));
	EXPECT_EQ(4, count(r.out, "\"link_id\""));
	kbctl_free(&r);
	OK(&r, "xdp", "status", "-j");
	EXPECT_JSON(&r);
	EXPECT_EQ('[', r.out[0]);
	EXPECT_NE(NULL, strstr(r.out, self->name));
	EXPECT_NE(NULL, strstr(r.out, self->pass));
	kbctl_free(&r);

	/* join: p1 g1 + an IPv6 group, p2 g1 g2 */
	OK(&r, "mcast", "join", self->name, "p1", "239.1.0.1", "ff3e::1:6",
	   "netns", ns);
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);
	OK(&r, "mcast", "join", self->name, "p2", "239.1.0.1", "239.1.0.2",
	   "netns", ns);
	kbctl_free(&r);
	OK(&r, "mcast", "join", self->name, "p2", "239.1.0.2", "-exist",
	   "netns", ns);
	kbctl_free(&r);

	OK(&r, "mcast", "groups", self->name, "netns", ns);
	EXPECT_NE(NULL, strstr(r.out, "p1 239.1.0.1\n"));
	EXPECT_NE(NULL, strstr(r.out, "p1 ff3e::1:6\n"));
	EXPECT_NE(NULL, strstr(r.out, "p2 239.1.0.2\n"));
	EXPECT_NE(NULL, strstr(r.out, "p0: no groups\n"));
	kbctl_free(&r);
	OK(&r, "mcast", "groups", self->name, "p2", "netns", ns, "-j");
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"groups\":[\"239.1.0."));
	EXPECT_EQ(NULL, strstr(r.out, "\"p1\""));
	kbctl_free(&r);

	OK(&r, "mcast", "ports", self->name, "netns", ns);
	EXPECT_EQ(0, strncmp(r.out, "PORT ", 5));
	EXPECT_EQ(5, kbctl_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\np3 ")) TH_LOG("%s", r.out);
	kbctl_free(&r);
	OK(&r, "mcast", "ports", self->name, "netns", ns, "-j");
	EXPECT_JSON(&r);
	EXPECT_EQ(512, jnum(r.out, "\"port\":\"p3\"", "m"));
	EXPECT_EQ(1, jnum(r.out, "\"port\":\"p3\"", "k"));
	EXPECT_EQ(2, jnum(r.out, "\"port\":\"p1\"", "groups"));
	kbctl_free(&r);

	/* traffic: g1 to p1 and p2, g2 to p2, the IPv6 group to p1 */
	rx1 = kbt_psock(&self->host[1], "eth0");
	rx2 = kbt_psock(&self->host[2], "eth0");
	rx3 = kbt_psock(&self->host[3], "eth0");
	ASSERT_LE(0, rx1);
	ASSERT_LE(0, rx2);
	ASSERT_LE(0, rx3);
	ASSERT_EQ(0, send_group(self, g1, 0, 20));
	ASSERT_EQ(0, send_group(self, g2, 0, 10));
	ASSERT_EQ(0, send_group(self, g6, 1, 5));
	EXPECT_EQ(25, drain_count(rx1));
	EXPECT_EQ(30, drain_count(rx2));

	OK(&r, "mcast", "stats", self->name, "netns", ns);
	EXPECT_EQ(0, strncmp(r.out, "PORT ", 5));
	EXPECT_NE(NULL, strstr(r.out, "LEAK_RATE"));
	kbctl_free(&r);
	OK(&r, "mcast", "stats", self->name, "netns", ns, "-j");
	EXPECT_JSON(&r);
	EXPECT_EQ(35, jnum(r.out, "\"port\":\"p0\"", "rx_packets"));
	EXPECT_EQ(35, jnum(r.out, "\"port\":\"p0\"", "rx_mcast"));
	EXPECT_EQ(35, jnum(r.out, "\"port\":\"p1\"", "tx_seen"));
	EXPECT_EQ(25, jnum(r.out, "\"port\":\"p1\"", "tx_forwarded"));
	EXPECT_EQ(10, jnum(r.out, "\"port\":\"p1\"", "tx_filtered"));
	EXPECT_EQ(30, jnum(r.out, "\"port\":\"p2\"", "tx_forwarded"));
	EXPECT_EQ(0, jnum(r.out, "\"port\":\"p2\"", "tx_leaked"));
	kbctl_free(&r);
	/* p3 joined nothing: what it forwarded is exactly what leaked */
	OK(&r, "mcast", "stats", self->name, "p3", "netns", ns, "-j");
	EXPECT_JSON(&r);
	EXPECT_EQ(jnum(r.out, NULL, "tx_forwarded"),
		  jnum(r.out, NULL, "tx_leaked"));
	EXPECT_EQ(drain_count(rx3), jnum(r.out, NULL, "tx_forwarded"));
	kbctl_free(&r);

	/* leave: g1 no longer reaches p1 */
	OK(&r, "mcast", "leave", self->name, "p1", "239.1.0.1", "netns", ns);
	kbctl_free(&r);
	ASSERT_EQ(0, send_group(self, g1, 0, 7));
	EXPECT_EQ(0, drain_count(rx1));
	EXPECT_EQ(7, drain_count(rx2));
	OK(&r, "mcast", "leave", self->name, "p1", "239.1.0.1", "-exist",
	   "netns", ns);
	kbctl_free(&r);

	/* -q: read commands print nothing */
	OK(&r, "mcast", "stats", self->name, "netns", ns, "-q");
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);
	OK(&r, "xdp", "status", "-q");
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);

	/* detach one port: its link, filter and memberships go */
	OK(&r, "xdp", "detach", self->name, "dev", "p2", "netns", ns);
	kbctl_free(&r);
	snprintf(want, sizeof(want), "%s/filter_%d", dir, self->port[2]);
	EXPECT_FALSE(exists(want));
	OK(&r, "mcast", "ports", self->name, "netns", ns);
	EXPECT_EQ(NULL, strstr(r.out, "\np2 "));
	kbctl_free(&r);
	ASSERT_EQ(0, send_group(self, g2, 0, 3));
	EXPECT_EQ(0, drain_count(rx2));
	OK(&r, "xdp", "detach", self->name, "dev", "p2", "-exist", "netns", ns);
	kbctl_free(&r);

	/* pass: detach per namespace; the last one removes the instance */
	OK(&r, "xdp", "detach", self->pass, "dev", "eth0", "netns",
	   self->host[0].path);
	kbctl_free(&r);
	EXPECT_TRUE(inst_exists(self->pass));

	/* the whole instance */
	OK(&r, "xdp", "detach", self->name);
	kbctl_free(&r);
	EXPECT_FALSE(exists(dir));
	OK(&r, "xdp", "detach", self->name, "-exist");
	kbctl_free(&r);
	close(rx1);
	close(rx2);
	close(rx3);
}

TEST_F_TIMEOUT(sw, system_errors_change_nothing, 120)
{
	const char *ns = self->sw.path;
	struct kbctl_res r;
	char leaf[160];

	make_switch(_metadata, self);

	/* no such instance, interface, port, membership */
	kbctl_run(&r, "mcast", "join", self->other, "p0", "239.1.1.1");
	EXPECT_SYS(&r, "mcast join ");
	EXPECT_NE(NULL, strstr(r.err, ": No such file or directory (no XDP instance named"));
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "attach", "mcast", self->name, "dev", "p9",
		  "netns", ns);
	EXPECT_SYS(&r, ": p9: No such device (no interface p9 in netns ");
	kbctl_free(&r);
	kbctl_run(&r, "mcast", "join", self->name, "p3", "239.1.1.1", "netns",
		  ns);
	EXPECT_SYS(&r, "p3: No such file or directory (p3 is not a port of");
	kbctl_free(&r);
	kbctl_run(&r, "mcast", "leave", self->name, "p1", "239.1.1.1", "netns",
		  ns);
	EXPECT_SYS(&r, "p1 239.1.1.1: No such file or directory (not joined");
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "detach", self->other);
	EXPECT_SYS(&r, "No such file or directory (no such instance)");
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "status", self->other);
	EXPECT_SYS(&r, "No such file or directory");
	kbctl_free(&r);

	/* a join of several groups that fails on one joins none */
	OK(&r, "mcast", "join", self->name, "p1", "239.1.1.2", "netns", ns);
	kbctl_free(&r);
	kbctl_run(&r, "mcast", "join", self->name, "p1", "239.1.1.1",
		  "239.1.1.2", "239.1.1.3", "netns", ns);
	EXPECT_SYS(&r, "p1 239.1.1.2: File exists (joined already; -exist ignores it)");
	kbctl_free(&r);
	OK(&r, "mcast", "groups", self->name, "p1", "netns", ns);
	EXPECT_STREQ("p1 239.1.1.2\n", r.out);
	kbctl_free(&r);

	/* attached already */
	kbctl_run(&r, "xdp", "attach", "mcast", self->name, "dev", "p1",
		  "netns", ns);
	EXPECT_SYS(&r, "dev p1: File exists (already attached");
	kbctl_free(&r);
	OK(&r, "xdp", "attach", "mcast", self->name, "dev", "p1", "-exist",
	   "netns", ns);
	kbctl_free(&r);

	/* the wrong kind of instance */
	kbctl_run(&r, "gate", "add", self->name, "10.0.0.1");
	EXPECT_SYS(&r, "Invalid argument (");
	EXPECT_NE(NULL, strstr(r.err, "mcast instance, not gate"));
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "attach", "gate", self->name, "dev", "p3",
		  "netns", ns);
	EXPECT_SYS(&r, "File exists (an instance of another kind)");
	kbctl_free(&r);
	/* sizes of an existing gate, creation settings of an existing mcast */
	kbctl_run(&r, "xdp", "attach", "mcast", self->name, "dev", "p3",
		  "ports", "8", "netns", ns);
	EXPECT_SYS(&r, "ports and members apply when the instance is created");
	kbctl_free(&r);

	/* the namespace is recorded: another one is refused, none is too */
	kbctl_run(&r, "mcast", "ports", self->name, "netns",
		  self->host[1].path);
	EXPECT_SYS(&r, "Invalid cross-device link (the interfaces of");
	kbctl_free(&r);
	kbctl_run(&r, "mcast", "join", self->name, "p1", "239.1.1.9");
	EXPECT_SYS(&r, "give netns NS");
	kbctl_free(&r);

	/* another XDP program on p3 (the pass instance): busy, undone */
	OK(&r, "xdp", "attach", "pass", self->other, "dev", "p3", "netns", ns);
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "attach", "mcast", self->name, "dev", "p3",
		  "netns", ns);
	EXPECT_SYS(&r, "dev p3: Device or resource busy");
	kbctl_free(&r);
	snprintf(leaf, sizeof(leaf), "%s/%s/filter_%d", KBT_PIN_ROOT,
		 self->name, self->port[3]);
	EXPECT_FALSE(exists(leaf));	/* the port made for it is gone */
	/* a new instance whose second device fails is not left behind */
	kbctl_run(&r, "xdp", "attach", "gate", self->gate, "dev", "p0", "p3",
		  "netns", ns);
	EXPECT_SYS(&r, "dev p0: Device or resource busy");
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->gate));
	/* a pass attach: p1 runs mcast, busy; the instance stays as it was */
	kbctl_run(&r, "xdp", "attach", "pass", self->other, "dev", "p1", "p2",
		  "netns", ns);
	EXPECT_SYS(&r, "Device or resource busy");
	kbctl_free(&r);
	OK(&r, "xdp", "status", self->other, "netns", ns, "-j");
	EXPECT_NE(NULL, strstr(r.out, "\"ifname\":\"p3\"")) TH_LOG("%s", r.out);
	EXPECT_EQ(NULL, strstr(r.out, "\"ifname\":\"p1\""));
	kbctl_free(&r);

	/* a filter that does not exist */
	kbctl_run(&r, "map", "stat", fpath(self->name, 999));
	EXPECT_SYS(&r, "No such file or directory (no such pinned filter)");
	kbctl_free(&r);
	/* a netns that does not exist */
	kbctl_run(&r, "xdp", "status", "netns", "kbt-nonexistent-ns");
	EXPECT_SYS(&r, "netns kbt-nonexistent-ns: No such file or directory");
	kbctl_free(&r);
}

TEST_F_TIMEOUT(sw, recorded_namespace_by_name, 120)
{
	struct kbctl_res r;
	char cmd[512];

	/* a namespace of "ip netns add": commands find it by themselves */
	snprintf(self->named_ns, sizeof(self->named_ns), "kbt%d-ns",
		 (int)getpid());
	snprintf(cmd, sizeof(cmd),
		 "ip netns add %s && ip -n %s link add q0 type veth peer name q1 && ip -n %s link set q0 up && ip -n %s link set q1 up",
		 self->named_ns, self->named_ns, self->named_ns,
		 self->named_ns);
	ASSERT_EQ(0, system(cmd));
	OK(&r, "xdp", "attach", "mcast", self->name, "dev", "q0", "netns",
	   self->named_ns);
	kbctl_free(&r);
	OK(&r, "xdp", "attach", "mcast", self->name, "dev", "q1");
	kbctl_free(&r);
	OK(&r, "mcast", "join", self->name, "q1", "239.2.2.2");
	kbctl_free(&r);
	OK(&r, "xdp", "status", self->name);
	EXPECT_NE(NULL, strstr(r.out, "\n  q0 ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\n  q1 "));
	kbctl_free(&r);
	OK(&r, "mcast", "groups", self->name);
	EXPECT_EQ(2, kbctl_lines(r.out));
	EXPECT_NE(NULL, strstr(r.out, "q0: no groups\n")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "q1 239.2.2.2\n"));
	kbctl_free(&r);
	OK(&r, "xdp", "detach", self->name, "dev", "q0");
	kbctl_free(&r);
	OK(&r, "xdp", "detach", self->name);
	kbctl_free(&r);
}

TEST_F_TIMEOUT(sw, gate_commands, 120)
{
	static const __u8 s1[4] = { 10, 0, 0, 1 }, s2[4] = { 10, 0, 0, 2 };
	static const __u8 dst[4] = { 10, 0, 0, 100 };
	const char *ns = self->sw.path;
	struct kbt_frame_opts o = { 0 };
	struct kbctl_res r;
	__u8 f[128];
	size_t len;
	int fd, i;

	OK(&r, "xdp", "attach", "gate", self->gate, "dev", "p0", "netns", ns,
	   "policy", "deny", "capacity", "1000", "fpr", "1%", "keys", "4096");
	kbctl_free(&r);
	OK(&r, "xdp", "status", self->gate, "netns", ns);
	EXPECT_NE(NULL, strstr(r.out, "policy deny, match src, 0 addresses in the set"))
		TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\n  p0 "));
	kbctl_free(&r);

	OK(&r, "gate", "add", self->gate, "10.0.0.1", "10.0.0.3", "fd00::1");
	kbctl_free(&r);
	kbctl_run(&r, "gate", "add", self->gate, "10.0.0.5", "10.0.0.1");
	EXPECT_SYS(&r, "10.0.0.1: File exists (in the set already; -exist ignores it)");
	kbctl_free(&r);
	OK(&r, "gate", "add", self->gate, "10.0.0.1", "-exist");
	kbctl_free(&r);
	OK(&r, "gate", "list", self->gate);
	EXPECT_EQ(3, kbctl_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(NULL, strstr(r.out, "10.0.0.5"));	/* undone */
	kbctl_free(&r);
	OK(&r, "gate", "list", self->gate, "-j");
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"fd00::1\""));
	kbctl_free(&r);

	OK(&r, "gate", "test", self->gate, "10.0.0.1", "fd00::1");
	EXPECT_STREQ("10.0.0.1: in the set (filter: possibly present)\n"
		     "fd00::1: in the set (filter: possibly present)\n", r.out);
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "gate", "test", self->gate, "10.0.0.1",
			       "10.9.9.9"));
	EXPECT_NE(NULL, strstr(r.out, "10.9.9.9: not in the set (filter: definitely absent)"));
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "gate", "test", self->gate, "10.9.9.9",
			       "-j"));
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"in_set\":false"));
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "gate", "test", self->gate, "10.9.9.9",
			       "-q"));
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);

	/* del: out of the set, its bits stay until rebuild */
	OK(&r, "gate", "del", self->gate, "10.0.0.3");
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "gate", "test", self->gate, "10.0.0.3"));
	EXPECT_STREQ("10.0.0.3: not in the set (filter: possibly present, a false positive)\n",
		     r.out);
	kbctl_free(&r);
	kbctl_run(&r, "gate", "del", self->gate, "10.0.0.3");
	EXPECT_SYS(&r, "10.0.0.3: No such file or directory (not in the set");
	kbctl_free(&r);
	OK(&r, "gate", "del", self->gate, "10.0.0.3", "-exist");
	kbctl_free(&r);
	OK(&r, "gate", "rebuild", self->gate, "bits", "2048", "hashes", "3");
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "gate", "test", self->gate, "10.0.0.3"));
	EXPECT_NE(NULL, strstr(r.out, "definitely absent"));
	kbctl_free(&r);
	OK(&r, "map", "stat", fpath(self->gate, 0));
	EXPECT_NE(NULL, strstr(r.out, "m:            2048 bits\nk:            3\n"))
		TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "inserted:     2\n"));
	kbctl_free(&r);

	/* traffic from h0: 10.0.0.1 dropped (deny), 10.0.0.2 passed */
	fd = kbt_psock(&self->host[0], "eth0");
	ASSERT_LE(0, fd);
	o.dst = dst;
	for (i = 0; i < 6; i++) {
		o.src = i < 2 ? s1 : s2;
		len = kbt_frame(f, &o);
		EXPECT_EQ((ssize_t)len, send(fd, f, len, 0));
	}
	close(fd);
	usleep(100000);
	OK(&r, "gate", "stats", self->gate, "-j");
	EXPECT_JSON(&r);
	EXPECT_EQ(6, jnum(r.out, NULL, "packets"));
	EXPECT_EQ(2, jnum(r.out, NULL, "drops"));
	EXPECT_EQ(2, jnum(r.out, NULL, "exact_hits"));
	EXPECT_EQ(4, jnum(r.out, NULL, "passed"));
	EXPECT_NE(NULL, strstr(r.out, "\"policy\":\"deny\""));
	kbctl_free(&r);
	OK(&r, "gate", "stats", self->gate);
	EXPECT_NE(NULL, strstr(r.out, "policy:            deny, match src\n"));
	EXPECT_NE(NULL, strstr(r.out, "drops:             2\n"));
	kbctl_free(&r);

	/* mode: allow, match dst: now 10.0.0.100 must be in the set */
	OK(&r, "gate", "mode", self->gate, "allow", "match", "dst");
	kbctl_free(&r);
	OK(&r, "gate", "stats", self->gate);
	EXPECT_NE(NULL, strstr(r.out, "policy:            allow, match dst\n"));
	kbctl_free(&r);
	OK(&r, "gate", "mode", self->gate, "monitor");
	kbctl_free(&r);
	OK(&r, "gate", "stats", self->gate, "-j");
	EXPECT_NE(NULL, strstr(r.out, "\"policy\":\"monitor\",\"match\":\"dst\""));
	kbctl_free(&r);

	OK(&r, "xdp", "detach", self->gate, "dev", "p0", "netns", ns);
	kbctl_free(&r);
	OK(&r, "xdp", "status", self->gate);
	EXPECT_NE(NULL, strstr(r.out, "not attached"));
	kbctl_free(&r);
	OK(&r, "xdp", "detach", self->gate);
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->gate));
}

/* ---- images ---------------------------------------------------------------------- */

/* A blocked filter of @n IPv4 keys 10.1.<i>, saved by libkbloom at @path. */
static struct kbloom_filter *lib_image(const char *path, __u32 type, int n,
				       __u64 seed)
{
	struct kbloom_opts o = { .seed = seed, .name = "fromlib" };
	struct kbloom_filter *f;
	__u8 key[4] = { 10, 1, 0, 0 };
	int i;

	if (kbloom_create_mk(type, 4096, 4, &o, &f))
		return NULL;
	for (i = 0; i < n; i++) {
		key[2] = (__u8)(i >> 8);
		key[3] = (__u8)i;
		if (kbloom_add(f, key, 4)) {
			kbloom_destroy(f);
			return NULL;
		}
	}
	if (kbloom_save_file(f, path)) {
		kbloom_destroy(f);
		return NULL;
	}
	return f;
}

/* The words of map dump's text output, in order, into @w (max @max). */
static int dump_words(const char *out, __u64 *w, int max)
{
	const char *p = out;
	int n = 0, i;

	while ((p = strstr(p, "\nblock "))) {
		p = strchr(p, ':');
		if (!p)
			break;
		p++;
		for (i = 0; i < 8 && n < max; i++) {
			char *end;

			w[n++] = strtoull(p, &end, 16);
			p = end;
		}
	}
	return n;
}

TEST_F_TIMEOUT(sw, map_load_roundtrip, 120)
{
	static const __u8 g[4] = { 239, 5, 0, 1 };
	const char *img = tpath(self, "lib.img"), *back = tpath(self, "back.img");
	const char *gf, *pf, *ns = self->sw.path;
	struct kbloom_filter *f, *b = NULL;
	const __u64 *words, *bw;
	__u64 nw, nbw, dw[64];
	struct kbctl_res r, r2;
	char seed[64];
	int rx;

	/* a gate and an mcast switch, each with a filter */
	OK(&r, "xdp", "attach", "gate", self->gate, "dev", "p3", "netns", ns);
	kbctl_free(&r);
	make_switch(_metadata, self);
	gf = fpath(self->gate, 0);
	pf = fpath(self->name, self->port[1]);

	/* libkbloom (the module's image format) -> BPF map */
	f = lib_image(img, KBLOOM_TYPE_BLOCKED, 100, 1234);
	ASSERT_NE(NULL, f);
	OK(&r, "map", "load", gf, "-i", img);
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);
	OK(&r, "map", "stat", gf, "-j");
	EXPECT_JSON(&r);
	EXPECT_EQ(4096, jnum(r.out, NULL, "m"));
	EXPECT_EQ(4, jnum(r.out, NULL, "k"));
	EXPECT_EQ(100, jnum(r.out, NULL, "inserted"));
	EXPECT_EQ(8, jnum(r.out, NULL, "nblocks"));
	snprintf(seed, sizeof(seed), "\"seed\":\"0x%016llx\"", 1234ULL);
	EXPECT_NE(NULL, strstr(r.out, seed));
	EXPECT_NE(NULL, strstr(r.out, "\"kind\":\"gate\""));
	kbctl_free(&r);

	/* map dump shows the very words libkbloom holds */
	OK(&r, "map", "dump", gf);
	EXPECT_NE(NULL, strstr(r.out, "m:            4096 bits\n"));
	words = kbloom_words(f, &nw);
	ASSERT_EQ(64, (int)nw);
	EXPECT_EQ(64, dump_words(r.out, dw, 64));
	EXPECT_EQ(0, memcmp(words, dw, sizeof(dw)));
	kbctl_free(&r);
	OK(&r, "map", "dump", gf, "-j");
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"blocks\":[[\"0x"));
	kbctl_free(&r);

	/* the keys are there for map test and the gate's filter */
	OK(&r, "map", "test", gf, "--key", "ipv4", "10.1.0.0", "10.1.0.42",
	   "10.1.0.99");
	EXPECT_EQ(3, kbctl_lines(r.out));
	kbctl_free(&r);
	OK(&r, "map", "test", gf, "--key", "ipv4", "10.1.0.7", "-j");
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"present\":true"));
	kbctl_free(&r);
	/* addresses without --key: the filter's keys are addresses */
	OK(&r, "map", "test", gf, "10.1.0.42", "-j");
	EXPECT_NE(NULL, strstr(r.out, "{\"key\":\"10.1.0.42\",\"present\":true}"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "map", "test", gf, "--key", "ipv4",
			       "192.0.2.1"));
	kbctl_free(&r);
	/* a gate confirms in its exact set: a loaded key is not in it */
	EXPECT_EQ(1, kbctl_run(&r, "gate", "test", self->gate, "10.1.0.42"));
	EXPECT_STREQ("10.1.0.42: not in the set (filter: possibly present, a false positive)\n",
		     r.out);
	kbctl_free(&r);

	/* BPF map -> file -> libkbloom: the same filter */
	OK(&r, "map", "save", gf, "-o", back);
	kbctl_free(&r);
	ASSERT_EQ(0, kbloom_load_file(back, &b));
	bw = kbloom_words(b, &nbw);
	ASSERT_EQ(nw, nbw);
	EXPECT_EQ(0, memcmp(words, bw, nw * 8));
	kbloom_destroy(b);

	/* gate -> mcast port, through a pipe: the port forwards the group */
	kbctl_run_pipe(&r, &r2, ARGS("map", "save", gf),
		       ARGS("map", "load", pf));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(0, r2.status) TH_LOG("%s", r2.err);
	kbctl_free(&r);
	kbctl_free(&r2);
	OK(&r, "map", "stat", pf, "-j");
	EXPECT_EQ(4096, jnum(r.out, NULL, "m"));
	kbctl_free(&r);
	/* a libkbloom filter of the group, through standard input */
	kbloom_destroy(f);
	{
		struct kbloom_opts o = { .seed = 7 };

		ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 1024, 3, &o,
					      &f));
		ASSERT_EQ(0, kbloom_add(f, g, 4));
		ASSERT_EQ(0, kbloom_save_file(f, img));
	}
	EXPECT_EQ(0, kbctl_run_in(&r, img, "map", "load", pf));
	kbctl_free(&r);
	OK(&r, "map", "test", pf, "--key", "ipv4", "239.5.0.1");
	kbctl_free(&r);
	rx = kbt_psock(&self->host[1], "eth0");
	ASSERT_LE(0, rx);
	ASSERT_EQ(0, send_group(self, g, 0, 4));
	EXPECT_EQ(4, drain_count(rx));
	close(rx);
	/* p1 never joined it: the egress program counts the leaks */
	OK(&r, "mcast", "stats", self->name, "p1", "netns", ns, "-j");
	EXPECT_EQ(4, jnum(r.out, NULL, "tx_leaked"));
	kbctl_free(&r);
	kbloom_destroy(f);
}

TEST_F_TIMEOUT(sw, map_load_refuses_bad_images, 120)
{
	const char *ns = self->sw.path, *gf;
	const char *cnt = tpath(self, "counting.img"), *bad = tpath(self, "bad.img");
	const char *two = tpath(self, "two.img"), *good = tpath(self, "good.img");
	struct kbloom_filter *f;
	struct kbctl_res r;
	char *buf;
	size_t len;
	long long gen;
	int fd;

	OK(&r, "xdp", "attach", "gate", self->gate, "dev", "p3", "netns", ns);
	kbctl_free(&r);
	gf = fpath(self->gate, 0);
	OK(&r, "map", "stat", gf, "-j");
	gen = jnum(r.out, NULL, "generation");
	EXPECT_LT(0, gen);
	kbctl_free(&r);

	/* a counting filter does not load into a BPF map */
	f = lib_image(cnt, KBLOOM_TYPE_COUNTING, 10, 1);
	ASSERT_NE(NULL, f);
	kbloom_destroy(f);
	kbctl_run(&r, "map", "load", gf, "-i", cnt);
	EXPECT_SYS(&r, "Operation not supported (a counting filter: only blocked filters load into a BPF map)");
	kbctl_free(&r);

	/* a flipped payload bit: bad checksum */
	f = lib_image(good, KBLOOM_TYPE_BLOCKED, 10, 1);
	ASSERT_NE(NULL, f);
	kbloom_destroy(f);
	fd = open(good, O_RDONLY);
	ASSERT_LE(0, fd);
	buf = kbctl_slurp(fd, &len);
	close(fd);
	ASSERT_NE(NULL, buf);
	buf[len - 3] ^= 0x10;
	ASSERT_EQ(0, kbctl_write_file(bad, buf, len));
	kbctl_run(&r, "map", "load", gf, "-i", bad);
	EXPECT_SYS(&r, "Bad message");
	kbctl_free(&r);
	buf[len - 3] ^= 0x10;

	/* two images: map load takes one */
	buf = realloc(buf, 2 * len);
	ASSERT_NE(NULL, buf);
	memcpy(buf + len, buf, len);
	ASSERT_EQ(0, kbctl_write_file(two, buf, 2 * len));
	kbctl_run(&r, "map", "load", gf, "-i", two);
	EXPECT_SYS(&r, "more than one image");
	kbctl_free(&r);
	/* empty, truncated, missing input */
	kbctl_run_in(&r, "/dev/null", "map", "load", gf);
	EXPECT_SYS(&r, "empty input");
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_write_file(bad, buf, 100));
	kbctl_run(&r, "map", "load", gf, "-i", bad);
	EXPECT_SYS(&r, "Message too long");
	kbctl_free(&r);
	kbctl_run(&r, "map", "load", gf, "-i", tpath(self, "nonexistent"));
	EXPECT_SYS(&r, ": No such file or directory");
	kbctl_free(&r);
	free(buf);

	/* none of those changed the filter */
	OK(&r, "map", "stat", gf, "-j");
	EXPECT_EQ(gen, jnum(r.out, NULL, "generation"));
	kbctl_free(&r);
	/* the good one does */
	OK(&r, "map", "load", gf, "-i", good);
	kbctl_free(&r);
	OK(&r, "map", "stat", gf, "-j");
	EXPECT_EQ(gen + 1, jnum(r.out, NULL, "generation"));
	kbctl_free(&r);
}

TEST_HARNESS_MAIN
