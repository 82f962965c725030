// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl's in-packet Bloom filter commands on the host (root): ipbf
 * topo|create|setup|config|port|ports|stats|header|send and xdp
 * attach|detach|status of ipbf instances, run as the program they are
 * (build/kbloomctl, fork + exec), against a network of namespaces built
 * from the topology line:2:2 (every node a namespace, every link a veth
 * pair, local port i of a node is interface p<i> there):
 *
 *          h0  h1          h2  h3
 *            \ /            \ /
 *            s0 ----------- s1
 *
 *  - the link IDs and headers the commands print are the control
 *    plane's (libkbloom_net.h), bit for bit; a topology file gives the
 *    same as the builder it spells out;
 *  - every node set up with ipbf setup, headers from ipbf header sent
 *    with ipbf send: LIPSIN frames reach exactly the hosts the simulator
 *    predicts, MSBF frames exactly the tree's hosts, and the counters of
 *    ipbf stats say so;
 *  - the manual path (ipbf create, ipbf port, xdp attach ipbf) forwards
 *    like setup; xdp detach removes ports and instances;
 *  - usage errors: exit 2, one line naming the argument, nothing on
 *    standard output, nothing created; system errors: exit 3, one line,
 *    nothing changed;
 *  - -j output parsed by python3 -m json.tool.
 *
 * Instances are named kbt<pid>-*, removed by the teardown, and by the
 * janitor of a later run if this process died.
 */
#include <linux/bpf.h>

#include "kselftest_harness.h"
#include "tests/bpf/ipbf_util.h"
#include "tests/bpf/kbloomctl_xdp_util.h"

#define TOPO	"line:2:2"
#define SEED	"42"
#define NNODE	6		/* s0 s1 h0 h1 h2 h3 */
#define FILL	128
#define NPKT	10
#define UNAME	"kbtusage0"	/* never created */

static const char *const node_name[NNODE] = { "s0", "s1", "h0", "h1", "h2",
					      "h3" };

/* ---- helpers ------------------------------------------------------------------ */

/* the namespace of node @i, as two arguments */
#define NS(i)	"netns", self->ns[i].path

/* "[b0,b1,...]" of a link ID */
static void bits_json(char *buf, size_t len, const struct kb_ipbf_zf *z)
{
	size_t off = snprintf(buf, len, "[");
	__u32 b;

	for (b = 0; b < KB_IPBF_ZF_BITS; b++)
		if (z->w[b >> 6] >> (b & 63) & 1)
			off += snprintf(buf + off, len - off, "%s%u",
					off > 1 ? "," : "", b);
	snprintf(buf + off, len - off, "]");
}

static void hex_of(char *out, const __u8 *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = 0;
}

/*
 * The control plane's view of TOPO with SEED: the header of the
 * shortest-path tree from @src to @dst as built (@hdr, for the
 * simulator) and as the source sends it (@sent).
 */
struct cp {
	struct kb_topo *t;
	struct kb_lids *l;
	struct kb_spt *spt;
	struct kb_tree *tr;
	struct kb_sim *sim;
	struct kb_msbf *ms;
	__u8 hdr[1024], sent[1024];
	int len, slen;
};

static int cp_new(struct cp *cp)
{
	memset(cp, 0, sizeof(*cp));
	return kb_topo_line(2, 2, &cp->t) ?:
	       kb_lids_new(cp->t, 42, KB_IPBF_K_DEFAULT, KB_IPBF_D_DEFAULT,
			   &cp->l) ?:
	       kb_spt_new(cp->t, &cp->spt) ?: kb_tree_new(cp->t, &cp->tr) ?:
	       kb_sim_new(cp->t, 0, &cp->sim) ?: kb_msbf_new(cp->t, &cp->ms);
}

static void cp_free(struct cp *cp)
{
	kb_msbf_free(cp->ms);
	kb_sim_free(cp->sim);
	kb_tree_free(cp->tr);
	kb_spt_free(cp->spt);
	kb_lids_free(cp->l);
	kb_topo_free(cp->t);
}

/* @msbf: 0 LIPSIN, 1 MSBF, 2 yes-no */
static int cp_header(struct cp *cp, __u32 src, const __u32 *dst, __u32 n,
		     int msbf)
{
	struct kb_yn_result y;
	struct kb_msbf_params p = { .ntags = KB_IPBF_D_DEFAULT,
				    .inner_proto = 0x88B6 };
	struct kb_zf_result z;
	int ret;

	ret = kb_spt_compute(cp->spt, src, 0) ?:
	      kb_tree_build(cp->tr, cp->spt, dst, n);
	if (ret)
		return ret;
	if (msbf == 2) {
		ret = kb_yn_build(cp->l, cp->tr, NULL, &y);
		if (ret)
			return ret;
		cp->len = kb_ipbf_write_yesno(cp->hdr, sizeof(cp->hdr),
					      cp->tr->height, 0x88B6, &y);
	} else if (msbf) {
		cp->len = kb_msbf_build(cp->ms, cp->l, cp->tr, &p, cp->hdr,
					sizeof(cp->hdr), NULL);
	} else {
		ret = kb_zf_build(cp->l, cp->tr, KB_IPBF_D_DEFAULT, FILL, &z);
		if (ret)
			return ret;
		cp->len = kb_ipbf_write_lipsin(cp->hdr, sizeof(cp->hdr),
					       cp->tr->height, z.tag, 0x88B6,
					       &z.zf);
	}
	if (cp->len < 0)
		return cp->len;
	memcpy(cp->sent, cp->hdr, cp->len);
	cp->slen = kbloom_ipbf_source_step(cp->l, kb_topo_port(cp->t, src, 0),
					   cp->sent, cp->len, FILL);
	return cp->slen < 0 ? cp->slen : 0;
}

/* Per node: the copies of one packet that arrive (the simulator's). */
static int cp_arrivals(struct cp *cp, __u32 src, __u32 *arrive)
{
	struct kb_sim_result res;
	const __u32 *trace;
	__u32 n, i;
	int ret;

	memset(arrive, 0, NNODE * sizeof(*arrive));
	ret = kb_sim_run(cp->sim, cp->l, cp->tr, src, cp->hdr, cp->len, FILL,
			 &res);
	if (ret)
		return ret;
	trace = kb_sim_trace(cp->sim, &n);
	for (i = 0; i < n; i++)
		arrive[cp->t->ports[trace[i]].peer_node]++;
	return 0;
}

/* ---- no state: help, usage errors ----------------------------------------------- */

static const char *const help_paths[][2] = {
	{ "ipbf" }, { "ipbf", "topo" }, { "ipbf", "create" }, { "ipbf", "setup" },
	{ "ipbf", "config" }, { "ipbf", "port" }, { "ipbf", "ports" },
	{ "ipbf", "stats" }, { "ipbf", "header" }, { "ipbf", "send" },
};

TEST(help_every_command)
{
	struct kbctl_res r;

	OK(&r, "--help");
	EXPECT_NE(NULL, strstr(r.out, "\n  ipbf "));
	kbctl_free(&r);
	kbctl_check_help(_metadata, help_paths, ARRAY_SIZE(help_paths), false);
	kbctl_run(&r, "ipbf", "--help");
	EXPECT_NE(NULL, strstr(r.out, "\n  header "));
	EXPECT_NE(NULL, strstr(r.out, "\n  setup "));
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "attach", "--help");
	EXPECT_NE(NULL, strstr(r.out, "mcast|gate|pass|ipbf|mcbf|sketch|conntrack|dedupe|window NAME"));
	kbctl_free(&r);
}

#define A(...)	KBCTL_ARGS(__VA_ARGS__)
#define HDR(...) A("ipbf", "header", "topo", TOPO, "src", "h0", __VA_ARGS__)

static const struct usage_case usage_cases[] = {
	{ A("ipbf"), "missing subcommand (allowed: topo create setup config port ports stats header send)" },
	{ A("ipbf", "topo"), "missing TOPO" },
	{ A("ipbf", "topo", "ring:4"), "topo 'ring:4': unknown (allowed: line:SWITCHES[:HOSTS]" },
	{ A("ipbf", "topo", "tree:20:2"), "topo 'tree:20:2': out of range (allowed: tree:DEPTH 1..12" },
	{ A("ipbf", "topo", "fat-tree:3"), "topo 'fat-tree:3': out of range (allowed: fat-tree:K, K even" },
	{ A("ipbf", "topo", "line:x"), "topo 'line:x': not line:SWITCHES" },
	{ A("ipbf", "topo", "file:"), "topo 'file:': no file named" },
	{ A("ipbf", "topo", TOPO, "node", "s7"), "node 's7': no such node in topo line:2:2 (allowed: a name such as s0 or h0, or a node number 0..5)" },
	{ A("ipbf", "topo", TOPO, "k", "5"), "k: only with node NODE" },
	{ A("ipbf", "topo", TOPO, "node", "s0", "k", "33"), "k '33': out of range (allowed: an integer 1..32" },
	{ A("ipbf", "topo", TOPO, "node", "s0", "d", "17"), "d '17': out of range (allowed: an integer 1..16" },
	{ A("ipbf", "topo", TOPO, "node", "s0", "seed", "-3"), "seed '-3': not a number" },
	{ A("ipbf", "topo", TOPO, "ring", "1"), "'ring': unknown keyword (allowed: node seed k d)" },
	{ A("ipbf", "create", "bad.name"), "NAME 'bad.name': invalid character '.'" },
	{ A("ipbf", "create", UNAME, "fill", "257"), "fill '257': out of range (allowed: an integer 1..256" },
	{ A("ipbf", "create", UNAME, "ports", "0"), "ports '0': out of range" },
	{ A("ipbf", "create", UNAME, "netns", ""), "netns '': invalid" },
	{ A("ipbf", "create", UNAME, "-j"), "option -j: not accepted by ipbf create" },
	{ A("ipbf", "setup", UNAME, "node", "s0", "dev", "p0"), "missing topo TOPO" },
	{ A("ipbf", "setup", UNAME, "topo", TOPO, "dev", "p0"), "missing node NODE" },
	{ A("ipbf", "setup", UNAME, "topo", TOPO, "node", "s0"), "missing dev IFACE..." },
	{ A("ipbf", "setup", UNAME, "topo", TOPO, "node", "s0", "dev", "p0", "p1"),
	  "dev: 2 interfaces for the 3 ports of s0 (allowed: one per local port, in order; port 0 leads to s1:0)" },
	{ A("ipbf", "setup", UNAME, "topo", TOPO, "node", "s0", "dev", "p0", "p1", "p0"),
	  "dev 'p0': given twice" },
	{ A("ipbf", "setup", UNAME, "topo", TOPO, "node", "h0", "dev", "p0", "mode", "fast"),
	  "mode 'fast': unknown (allowed: auto|native|generic)" },
	{ A("ipbf", "setup", UNAME, "topo", TOPO, "node", "h0", "dev", "a/b"),
	  "dev 'a/b': invalid character" },
	{ A("ipbf", "setup", UNAME, "topo", TOPO, "node", "s0", "dev", "p0", "p1", "p2", "ports", "2"),
	  "ports '2': fewer than the 3 ports of s0" },
	{ A("ipbf", "config", UNAME, "fill", "0"), "fill '0': out of range" },
	{ A("ipbf", "config", UNAME, "fill", "9", "-j"), "option -j: only to show the settings" },
	{ A("ipbf", "port", UNAME), "missing IFACE" },
	{ A("ipbf", "port", UNAME, "p0"), "missing link NODE:PORT" },
	{ A("ipbf", "port", UNAME, "p0", "link", "3"), "link '3': not NODE:PORT" },
	{ A("ipbf", "port", UNAME, "p0", "link", "s0:1"), "link 's0:1': not NODE:PORT (allowed: the control plane's node and local port numbers" },
	{ A("ipbf", "port", UNAME, "p0", "link", "s0:3", "topo", TOPO), "link 's0:3': s0 has 3 ports (allowed: PORT 0..2)" },
	{ A("ipbf", "port", UNAME, "p0", "link", "1:0", "role", "host"), "role 'host': unknown (allowed: forward|local)" },
	{ A("ipbf", "ports", UNAME, "p0"), "argument 'p0': unexpected" },
	{ A("ipbf", "stats", UNAME, "p0", "p1"), "argument 'p1': unexpected" },
	{ A("ipbf", "stats", UNAME, "netns"), "netns: missing NS" },
	{ A("ipbf", "header", "topo", TOPO), "missing src" },
	{ HDR("dst", "h2", "links", "h0:0"), "dst: not with links" },
	{ HDR("form", "msbf"), "missing dst HOST... or links NODE:PORT..." },
	{ A("ipbf", "header", "topo", TOPO, "src", "s0", "dst", "h2"), "src 's0': a switch (allowed: a host, such as h0)" },
	{ HDR("dst", "s1"), "dst 's1': a switch" },
	{ HDR("dst", "h9"), "dst 'h9': no such node" },
	{ HDR("dst", "h0"), "dst: only the source (allowed: at least one host other than h0)" },
	{ HDR("links", "s0:0"), "links 's0:0': not reached from src h0 (allowed: links that grow a tree from the source's link h0:0)" },
	{ HDR("links", "h0:0", "s0:0", "s1:0"), "links 's1:0': leads back into the tree at s0" },
	{ HDR("links", "h0:0", "h0:0"), "links 'h0:0': given twice" },
	{ HDR("links", "h0:1"), "links 'h0:1': h0 has 1 port (allowed: PORT 0..0)" },
	{ HDR("links", "h0"), "links 'h0': not NODE:PORT" },
	{ HDR("dst", "h2", "form", "bloom"), "form 'bloom': unknown (allowed: lipsin|msbf|yesno)" },
	{ HDR("dst", "h2", "tags", "9"), "tags '9': out of range (allowed: an integer 1..8, tag sets tried, at most d)" },
	{ HDR("dst", "h2", "d", "2", "tags", "3"), "tags '3': out of range (allowed: an integer 1..2" },
	{ HDR("dst", "h2", "hop-limit", "0"), "hop-limit '0': out of range (allowed: an integer 1..255)" },
	{ HDR("dst", "h2", "proto", "0x10000"), "proto '0x10000': out of range" },
	{ HDR("dst", "h2", "fill", "3"), "tree: its 3 links set more than 3 bits in every tag set tried" },
	{ HDR("dst", "h2", "form", "msbf", "hop-limit", "1"), "hop-limit '1': below the 3 stages of the tree" },
	{ HDR("dst", "h2", "-j", "-o", "/tmp/x"), "option -j: not with -o" },
	{ HDR("dst", "h2", "form", "yesno", "no-bytes", "33"), "no-bytes '33': out of range (allowed: an integer 1..32" },
	{ HDR("dst", "h2", "form", "yesno", "no-k", "0"), "no-k '0': out of range (allowed: an integer 1..8" },
	{ HDR("dst", "h2", "-i", "/tmp/x"), "option -i: not accepted by ipbf header" },
	{ A("ipbf", "send", "p0"), "missing -i FILE" },
	{ A("ipbf", "send", "p0", "-i", "/dev/null"), "-i /dev/null: not an ipbf header of 0 bytes" },
	{ A("ipbf", "send", "p0", "-i", "/dev/null", "count", "0"), "count '0': out of range (allowed: an integer 1..1000000)" },
	{ A("xdp", "attach", "ipbf", UNAME), "missing dev IFACE..." },
	{ A("xdp", "attach", "ipbf", UNAME, "dev", "p0", "bits", "512"),
	  "bits: not for ipbf (allowed: dev mode netns; the link IDs come from ipbf port or ipbf setup)" },
	{ A("xdp", "attach", "ipbf", UNAME, "dev", "p0", "policy", "deny"), "policy: not for ipbf" },
	{ A("xdp", "attach", "ipbf", UNAME, "dev", "p0", "mode", "turbo"), "mode 'turbo': unknown" },
};

TEST(usage_errors_change_nothing)
{
	kbctl_check_usage(_metadata, usage_cases, ARRAY_SIZE(usage_cases),
			  UNAME);
}

/* ---- no state: topologies, link IDs, headers --------------------------------------- */

TEST(topo_lists_nodes_and_link_ids)
{
	char want[256], bits[160], from[64];
	struct kbctl_res r;
	struct cp cp;
	__u32 p, t;

	ASSERT_EQ(0, cp_new(&cp));
	OK(&r, "ipbf", "topo", TOPO);
	EXPECT_NE(NULL, strstr(r.out, "6 nodes (2 switches, 4 hosts), 5 links\n"));
	EXPECT_NE(NULL, strstr(r.out, " s0 ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "0->s1:0 1->h0:0 2->h1:0\n"));
	EXPECT_NE(NULL, strstr(r.out, "0->s1:2\n"));	/* h3 */
	kbctl_free(&r);
	OK(&r, "ipbf", "topo", TOPO, "-j");
	EXPECT_JSON(&r);
	EXPECT_EQ(4, jnum(r.out, NULL, "hosts"));
	EXPECT_NE(NULL, strstr(r.out, "{\"node\":5,\"name\":\"h3\",\"kind\":\"host\""));
	kbctl_free(&r);

	/* the link IDs of s1 (by number) and of h2 (LOCAL: s1:1's IDs) */
	OK(&r, "ipbf", "topo", TOPO, "node", "1", "seed", SEED, "-j");
	EXPECT_JSON(&r);
	for (p = 0; p < 3; p++) {
		for (t = 0; t < KB_IPBF_D_DEFAULT; t++) {
			bits_json(bits, sizeof(bits),
				  kb_lid(cp.l, t, kb_topo_port(cp.t, 1, p)));
			snprintf(want, sizeof(want), "{\"tag\":%u,\"bits\":%s,\"hash\":\"0x%016llx\"}",
				 t, bits, (unsigned long long)
				 kb_lhash(cp.l, t, kb_topo_port(cp.t, 1, p)));
			EXPECT_NE(NULL, strstr(r.out, want)) TH_LOG("%s", want);
		}
	}
	kbctl_free(&r);
	OK(&r, "ipbf", "topo", TOPO, "node", "h2", "seed", SEED);
	EXPECT_NE(NULL, strstr(r.out, "h2 (node 4, host): seed 42, k 5, d 8\n"));
	snprintf(from, sizeof(from), "local    s1:1");
	EXPECT_NE(NULL, strstr(r.out, from)) TH_LOG("%s", r.out);
	bits_json(bits, sizeof(bits), kb_lid(cp.l, 0, kb_topo_port(cp.t, 1, 1)));
	bits[strlen(bits) - 1] = 0;
	EXPECT_NE(NULL, strstr(r.out, bits + 1)) TH_LOG("%s", bits + 1);
	kbctl_free(&r);
	cp_free(&cp);
}

TEST(header_is_the_control_planes)
{
	static const __u32 dst1[1] = { 4 }, dst2[2] = { 3, 5 };
	char path[64], hex[2100];
	struct kbctl_res r;
	struct cp cp;
	size_t len;
	char *bin;

	ASSERT_EQ(0, cp_new(&cp));
	/* LIPSIN, h0 -> h2 */
	ASSERT_EQ(0, cp_header(&cp, 2, dst1, 1, 0));
	OK(&r, "ipbf", "header", "topo", TOPO, "src", "h0", "dst", "h2",
	   "seed", SEED, "-j");
	EXPECT_JSON(&r);
	hex_of(hex, cp.sent, cp.slen);
	EXPECT_NE(NULL, strstr(r.out, hex)) TH_LOG("%s\nwanted %s", r.out, hex);
	EXPECT_EQ(cp.slen, jnum(r.out, NULL, "bytes"));
	EXPECT_EQ(cp.tr->height - 1, jnum(r.out, NULL, "hop_limit"));
	EXPECT_NE(NULL, strstr(r.out, "\"links\":[\"h0:0\",\"s0:0\",\"s1:1\"]"));
	EXPECT_NE(NULL, strstr(r.out, "\"receivers\":[\"h2\"]"));
	EXPECT_EQ(8, count(r.out, "{\"tag\":"));
	kbctl_free(&r);
	/* text: the same bytes; the links form gives the same header */
	OK(&r, "ipbf", "header", "topo", TOPO, "src", "h0", "links", "s1:1",
	   "s0:0", "h0:0", "seed", SEED, "-j");
	EXPECT_NE(NULL, strstr(r.out, hex));
	kbctl_free(&r);
	OK(&r, "ipbf", "header", "topo", TOPO, "src", "h0", "dst", "h2",
	   "seed", SEED);
	EXPECT_NE(NULL, strstr(r.out, "tree from h0: 3 links, 1 receiver, height 3\n"));
	EXPECT_NE(NULL, strstr(r.out, "  <- chosen\n"));
	EXPECT_NE(NULL, strstr(r.out, "header: 40 bytes as h0 sends it (hop limit 2)\n"));
	kbctl_free(&r);
	/* -o FILE: the bytes alone */
	snprintf(path, sizeof(path), "/tmp/kbt%d-hdr", (int)getpid());
	OK(&r, "ipbf", "header", "topo", TOPO, "src", "h0", "dst", "h2",
	   "seed", SEED, "-o", path);
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);
	bin = NULL;
	{
		int fd = open(path, O_RDONLY);

		ASSERT_LE(0, fd);
		bin = kbctl_slurp(fd, &len);
		close(fd);
	}
	ASSERT_NE(NULL, bin);
	EXPECT_EQ((size_t)cp.slen, len);
	EXPECT_EQ(0, memcmp(bin, cp.sent, cp.slen));
	free(bin);
	unlink(path);

	/* MSBF, h0 -> h1 and h3 */
	ASSERT_EQ(0, cp_header(&cp, 2, dst2, 2, 1));
	OK(&r, "ipbf", "header", "topo", TOPO, "src", "h0", "dst", "h1", "h3",
	   "seed", SEED, "form", "msbf", "-j");
	EXPECT_JSON(&r);
	hex_of(hex, cp.sent, cp.slen);
	EXPECT_NE(NULL, strstr(r.out, hex)) TH_LOG("%s\nwanted %s", r.out, hex);
	EXPECT_NE(NULL, strstr(r.out, "\"form\":\"msbf\""));
	EXPECT_NE(NULL, strstr(r.out, "\"receivers\":[\"h1\",\"h3\"]"));
	kbctl_free(&r);
	OK(&r, "ipbf", "header", "topo", TOPO, "src", "h0", "dst", "h1", "h3",
	   "seed", SEED, "form", "msbf");
	EXPECT_NE(NULL, strstr(r.out, "msbf: 3 stages, tag "));
	EXPECT_NE(NULL, strstr(r.out, "its own stage removed"));
	kbctl_free(&r);
	cp_free(&cp);
}

/* form yesno: the bytes of kb_yn_build() + kb_ipbf_write_yesno() */
TEST(yesno_header_is_the_control_planes)
{
	static const __u32 dst2[2] = { 3, 5 };
	struct kbctl_res r;
	char hex[2100];
	struct cp cp;

	ASSERT_EQ(0, cp_new(&cp));
	ASSERT_EQ(0, cp_header(&cp, 2, dst2, 2, 2));
	OK(&r, "ipbf", "header", "topo", TOPO, "src", "h0", "dst", "h1", "h3",
	   "seed", SEED, "form", "yesno", "-j");
	EXPECT_JSON(&r);
	hex_of(hex, cp.sent, cp.slen);
	EXPECT_NE(NULL, strstr(r.out, hex)) TH_LOG("%s\nwanted %s", r.out, hex);
	EXPECT_NE(NULL, strstr(r.out, "\"form\":\"yesno\""));
	EXPECT_EQ(0, jnum(r.out, NULL, "tree_links_in_no"));
	EXPECT_EQ(cp.slen, jnum(r.out, NULL, "bytes"));
	kbctl_free(&r);
	OK(&r, "ipbf", "header", "topo", TOPO, "src", "h0", "dst", "h1", "h3",
	   "seed", SEED, "form", "yesno");
	EXPECT_NE(NULL, strstr(r.out, "yesno: tag ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, " tree links in no\n"));
	kbctl_free(&r);
	cp_free(&cp);
}

TEST(topology_file_is_its_builder)
{
	static const char file[] =
		"# line:2:1 spelled out\n"
		"switch left\nswitch right\nhost alice\nhost bob\n"
		"link left right\nlink left alice\nlink right bob   # the last\n";
	static const char bad[] = "switch a\nhost b\nlink a c\n";
	char path[64], spec[80], *a;
	struct kbctl_res r;

	snprintf(path, sizeof(path), "/tmp/kbt%d-topo", (int)getpid());
	snprintf(spec, sizeof(spec), "file:%s", path);
	ASSERT_EQ(0, kbctl_write_file(path, file, strlen(file)));
	OK(&r, "ipbf", "topo", spec);
	EXPECT_NE(NULL, strstr(r.out, " left ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "0->right:0 1->alice:0\n"));
	kbctl_free(&r);
	OK(&r, "ipbf", "header", "topo", spec, "src", "alice", "dst", "bob",
	   "seed", SEED, "-j");
	a = strstr(r.out, "\"header\":");
	ASSERT_NE(NULL, a);
	a = strdup(a);
	kbctl_free(&r);
	OK(&r, "ipbf", "header", "topo", "line:2:1", "src", "h0", "dst", "h1",
	   "seed", SEED, "-j");
	EXPECT_NE(NULL, strstr(r.out, a)) TH_LOG("%s\nwanted %s", r.out, a);
	free(a);
	kbctl_free(&r);
	/* a bad file: its line, exit 2 */
	ASSERT_EQ(0, kbctl_write_file(path, bad, strlen(bad)));
	kbctl_run(&r, "ipbf", "topo", spec);
	EXPECT_USAGE(&r, ":3: link a c: unknown node 'c'");
	kbctl_free(&r);
	unlink(path);
}

/* ---- the network ------------------------------------------------------------------ */

FIXTURE(net) {
	struct kbt_ns ns[NNODE];
	char name[NNODE][64];
	char hdr[64];		/* a header file */
	struct cp cp;
	int rx[NNODE];
	int scenario;
};

static void topo_free_ns(FIXTURE_DATA(net) *self)
{
	int i;

	for (i = 0; i < NNODE; i++) {
		if (self->rx[i] > 0)
			close(self->rx[i]);
		self->rx[i] = 0;
		if (self->name[i][0])
			kbt_unpin(self->name[i]);
		kbt_ns_free(&self->ns[i]);
	}
	if (self->hdr[0])
		unlink(self->hdr);
	cp_free(&self->cp);
}

static int topo_build_ns(FIXTURE_DATA(net) *self)
{
	const struct kb_port *pp;
	char a[16], b[16];
	__u32 i, p;

	kbt_janitor();
	snprintf(self->hdr, sizeof(self->hdr), "/tmp/kbt%d-hdr", (int)getpid());
	if (cp_new(&self->cp))
		return -1;
	for (i = 0; i < NNODE; i++) {
		kbt_name(self->name[i], sizeof(self->name[i]), node_name[i]);
		if (kbt_ns_quiet(&self->ns[i]))
			return -1;
	}
	for (p = 0; p < self->cp.t->nports; p++) {
		pp = &self->cp.t->ports[p];
		if (pp->peer < p)
			continue;
		snprintf(a, sizeof(a), "p%u", pp->local);
		snprintf(b, sizeof(b), "p%u", self->cp.t->ports[pp->peer].local);
		if (kbt_veth(&self->ns[pp->node], a, &self->ns[pp->peer_node], b,
			     p))
			return -1;
	}
	return 0;
}

FIXTURE_SETUP(net)
{
	int ret = topo_build_ns(self);

	if (ret)
		topo_free_ns(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(net)
{
	topo_free_ns(self);
}

/* ipbf setup on every node, as an operator types it. */
static void setup_all(struct __test_metadata *_metadata,
		      FIXTURE_DATA(net) *self)
{
	struct kbctl_res r;
	int i;

	for (i = 0; i < 2; i++) {
		OK(&r, "ipbf", "setup", self->name[i], "topo", TOPO, "node",
		   node_name[i], "dev", "p0", "p1", "p2", "seed", SEED,
		   "mode", "native", "netns", self->ns[i].path);
		EXPECT_EQ(0, (int)r.out_len);
		kbctl_free(&r);
	}
	for (i = 2; i < NNODE; i++) {
		OK(&r, "ipbf", "setup", self->name[i], "topo", TOPO, "node",
		   node_name[i], "dev", "p0", "seed", SEED, "netns",
		   self->ns[i].path);
		kbctl_free(&r);
	}
}

/* Frames of this process's current scenario queued on @fd. */
static int drain_marked(int fd, const char *mark)
{
	struct sockaddr_ll from;
	socklen_t fl;
	__u8 buf[2048];
	ssize_t n;
	int got = 0;

	for (;;) {
		fl = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			     &fl);
		if (n < 0)
			return got;
		if (from.sll_pkttype == PACKET_OUTGOING || n < 14 ||
		    buf[12] != 0x88 || buf[13] != 0xB5)
			continue;
		if (memmem(buf, n, mark, strlen(mark)))
			got++;
	}
}

/*
 * Send NPKT frames of the header in self->hdr from host @src with ipbf
 * send; *@got: the frames each host received.
 */
static void send_and_count(struct __test_metadata *_metadata,
			   FIXTURE_DATA(net) *self, __u32 src, int *got)
{
	char mark[64], n[16];
	struct kbctl_res r;
	int i;

	snprintf(mark, sizeof(mark), "kbt%d-scenario-%d", (int)getpid(),
		 ++self->scenario);
	snprintf(n, sizeof(n), "%d", NPKT);
	for (i = 2; i < NNODE; i++) {
		if (self->rx[i] <= 0)
			self->rx[i] = kbt_psock(&self->ns[i], "p0");
		ASSERT_LT(0, self->rx[i]);
		drain_marked(self->rx[i], "-");
	}
	OK(&r, "ipbf", "send", "p0", "-i", self->hdr, "count", n, "payload",
	   mark, "netns", self->ns[src].path);
	EXPECT_NE(NULL, strstr(r.out, "sent 10 frames of "));
	kbctl_free(&r);
	usleep(300000);
	for (i = 0; i < NNODE; i++)
		got[i] = i < 2 ? 0 : drain_marked(self->rx[i], mark);
}

static void write_header(struct __test_metadata *_metadata,
			 FIXTURE_DATA(net) *self, const char *const *args)
{
	struct kbctl_res r;

	kbctl_run_io(&r, NULL, self->hdr, args);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	kbctl_free(&r);
}

TEST_F_TIMEOUT(net, setup_send_and_count, 180)
{
	static const __u32 dst_h2[1] = { 4 }, dst_h1h3[2] = { 3, 5 };
	__u32 arrive[NNODE];
	int got[NNODE], i;
	struct kbctl_res r;
	char dir[128], want[400];

	setup_all(_metadata, self);
	/* status, config, ports */
	OK(&r, "xdp", "status", self->name[0], NS(0));
	snprintf(dir, sizeof(dir), "%s/%s", KBT_PIN_ROOT, self->name[0]);
	snprintf(want, sizeof(want), "%s: ipbf, %s\n  ports 3, fill limit 128, d 8, k 5, seed 42\n",
		 self->name[0], dir);
	EXPECT_EQ(0, strncmp(r.out, want, strlen(want))) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\n  p2 ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, " native "));
	kbctl_free(&r);
	OK(&r, "xdp", "status", self->name[0], NS(0), "-j");
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"kind\":\"ipbf\""));
	EXPECT_EQ(42, jnum(r.out, NULL, "seed"));
	EXPECT_EQ(3, jnum(r.out, NULL, "ports"));
	kbctl_free(&r);
	OK(&r, "ipbf", "config", self->name[1], NS(1));
	snprintf(want, sizeof(want), "%s: fill limit 128, d 8, k 5, seed 42; 3 ports, 3 attached\n",
		 self->name[1]);
	EXPECT_STREQ(want, r.out);
	kbctl_free(&r);
	OK(&r, "ipbf", "config", self->name[1], NS(1), "-j");
	EXPECT_JSON(&r);
	EXPECT_EQ(3, jnum(r.out, NULL, "attached"));
	kbctl_free(&r);
	OK(&r, "ipbf", "ports", self->name[2], NS(2));
	EXPECT_NE(NULL, strstr(r.out, "\np0 ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, " yes      local   2:0 "));
	kbctl_free(&r);
	OK(&r, "ipbf", "ports", self->name[0], NS(0), "-j");
	EXPECT_JSON(&r);
	EXPECT_EQ(1, jnum(r.out, "\"port\":\"p1\"", "node_port"));
	EXPECT_NE(NULL, strstr(r.out, "\"role\":\"forward\""));
	kbctl_free(&r);

	/* LIPSIN h0 -> h2: where the simulator says */
	write_header(_metadata, self, A("ipbf", "header", "topo", TOPO, "src",
					"h0", "dst", "h2", "seed", SEED,
					"-o", "-"));
	ASSERT_EQ(0, cp_header(&self->cp, 2, dst_h2, 1, 0));
	ASSERT_EQ(0, cp_arrivals(&self->cp, 2, arrive));
	send_and_count(_metadata, self, 2, got);
	EXPECT_EQ(NPKT, got[4]);
	for (i = 2; i < NNODE; i++)
		EXPECT_EQ(NPKT * (int)arrive[i], got[i]) TH_LOG("host node %d", i);
	OK(&r, "ipbf", "stats", self->name[0], "p0", NS(0), "-j");
	EXPECT_JSON(&r);
	EXPECT_EQ(NPKT, jnum(r.out, NULL, "tx_forwarded"));
	kbctl_free(&r);
	OK(&r, "ipbf", "stats", self->name[4], NS(4), "-j");
	EXPECT_EQ(NPKT, jnum(r.out, NULL, "rx_local"));
	kbctl_free(&r);
	OK(&r, "ipbf", "stats", self->name[0], NS(0));
	EXPECT_EQ(0, strncmp(r.out, "PORT ", 5));
	EXPECT_EQ(4, kbctl_lines(r.out));
	kbctl_free(&r);

	/* MSBF h0 -> h1, h3: exactly those */
	write_header(_metadata, self, A("ipbf", "header", "topo", TOPO, "src",
					"h0", "dst", "h1", "h3", "seed", SEED,
					"form", "msbf", "-o", "-"));
	ASSERT_EQ(0, cp_header(&self->cp, 2, dst_h1h3, 2, 1));
	send_and_count(_metadata, self, 2, got);
	EXPECT_EQ(0, got[2]);
	EXPECT_EQ(NPKT, got[3]);
	EXPECT_EQ(0, got[4]);
	EXPECT_EQ(NPKT, got[5]);

	/* a lower fill limit on s0: the zFilter is dropped there, counted */
	OK(&r, "ipbf", "config", self->name[0], "fill", "8", NS(0));
	kbctl_free(&r);
	write_header(_metadata, self, A("ipbf", "header", "topo", TOPO, "src",
					"h0", "dst", "h2", "seed", SEED,
					"-o", "-"));
	send_and_count(_metadata, self, 2, got);
	EXPECT_EQ(0, got[4]);
	OK(&r, "ipbf", "stats", self->name[0], "p1", NS(0), "-j");
	EXPECT_EQ(NPKT, jnum(r.out, NULL, "drop_fill"));
	kbctl_free(&r);
	OK(&r, "ipbf", "config", self->name[0], "fill", "128", NS(0));
	kbctl_free(&r);
	send_and_count(_metadata, self, 2, got);
	EXPECT_EQ(NPKT, got[4]);
}

TEST_F_TIMEOUT(net, manual_create_port_attach, 180)
{
	static const char *const link_of[3] = { "1:0", "1:1", "1:2" };
	struct kbctl_res r;
	int got[NNODE], i;
	char p[8];

	setup_all(_metadata, self);
	/* s1 again, by hand: create, a port per interface, attach */
	OK(&r, "xdp", "detach", self->name[1]);
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->name[1]));
	OK(&r, "ipbf", "create", self->name[1], "seed", SEED, "netns",
	   self->ns[1].path);
	kbctl_free(&r);
	OK(&r, "ipbf", "create", self->name[1], "seed", SEED, NS(1), "-exist");
	kbctl_free(&r);
	for (i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "p%d", i);
		OK(&r, "ipbf", "port", self->name[1], p, "link", link_of[i], NS(1));
		kbctl_free(&r);
	}
	/* a name of the topology works as well as the numbers */
	OK(&r, "ipbf", "port", self->name[1], "p2", "link", "s1:2", "topo",
	   TOPO, NS(1));
	kbctl_free(&r);
	OK(&r, "ipbf", "ports", self->name[1], NS(1));
	EXPECT_EQ(3, count(r.out, " no "));
	kbctl_free(&r);
	OK(&r, "xdp", "attach", "ipbf", self->name[1], "dev", "p0", "p1", "p2",
	   "mode", "native", NS(1));
	kbctl_free(&r);
	write_header(_metadata, self, A("ipbf", "header", "topo", TOPO, "src",
					"h0", "dst", "h3", "seed", SEED,
					"form", "msbf", "-o", "-"));
	send_and_count(_metadata, self, 2, got);
	EXPECT_EQ(NPKT, got[5]);
	EXPECT_EQ(0, got[4]);

	/* xdp detach dev: the port goes; then the instance */
	OK(&r, "xdp", "detach", self->name[1], "dev", "p2", NS(1));
	kbctl_free(&r);
	OK(&r, "ipbf", "ports", self->name[1], NS(1), "-j");
	EXPECT_JSON(&r);
	EXPECT_EQ(NULL, strstr(r.out, "\"port\":\"p2\""));
	EXPECT_NE(NULL, strstr(r.out, "\"port\":\"p1\""));
	kbctl_free(&r);
	send_and_count(_metadata, self, 2, got);
	EXPECT_EQ(0, got[5]);
	OK(&r, "xdp", "detach", self->name[1], "dev", "p2", NS(1), "-exist");
	kbctl_free(&r);
	OK(&r, "xdp", "detach", self->name[1]);
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->name[1]));
}

TEST_F_TIMEOUT(net, system_errors_change_nothing, 180)
{
	struct kbctl_res r;
	char miss[96];

	/* a missing interface: nothing made */
	kbctl_run(&r, "ipbf", "setup", self->name[0], "topo", TOPO, "node",
		  "s0", "dev", "p0", "p1", "p9", "seed", SEED, "netns",
		  self->ns[0].path);
	EXPECT_SYS(&r, "p9: No such device (no interface p9 in netns ");
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->name[0]));
	/* no such instance */
	kbctl_run(&r, "ipbf", "config", self->name[0]);
	EXPECT_SYS(&r, "No such file or directory (no XDP instance named");
	kbctl_free(&r);
	kbctl_run(&r, "ipbf", "port", self->name[0], "p0", "link", "0:0");
	EXPECT_SYS(&r, "No such file or directory");
	kbctl_free(&r);
	snprintf(miss, sizeof(miss), "kbt-nonexistent-ns");
	kbctl_run(&r, "ipbf", "create", self->name[0], "netns", miss);
	EXPECT_SYS(&r, "netns kbt-nonexistent-ns: No such file or directory");
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->name[0]));

	setup_all(_metadata, self);
	/* setup again: refused; -exist makes it match */
	kbctl_run(&r, "ipbf", "setup", self->name[0], "topo", TOPO, "node",
		  "s0", "dev", "p0", "p1", "p2", "seed", SEED, NS(0));
	EXPECT_SYS(&r, "File exists (-exist makes it match");
	kbctl_free(&r);
	OK(&r, "ipbf", "setup", self->name[0], "topo", TOPO, "node", "s0",
	   "dev", "p0", "p1", "p2", "seed", SEED, NS(0), "-exist");
	kbctl_free(&r);
	/* another node's setup on it: its ports are not in dev */
	kbctl_run(&r, "ipbf", "setup", self->name[0], "topo", TOPO, "node",
		  "h0", "dev", "p0", "seed", SEED, NS(0), "-exist");
	EXPECT_SYS(&r, "File exists (a port not in dev");
	kbctl_free(&r);
	/* seed with ports: refused, nothing changed */
	kbctl_run(&r, "ipbf", "config", self->name[0], "seed", "7", NS(0));
	EXPECT_SYS(&r, "Device or resource busy (the link IDs of its ports come from seed, k and d");
	kbctl_free(&r);
	OK(&r, "ipbf", "config", self->name[0], NS(0), "-j");
	EXPECT_EQ(42, jnum(r.out, NULL, "seed"));
	kbctl_free(&r);
	/* create over it, attach what is attached, a kind mismatch */
	kbctl_run(&r, "ipbf", "create", self->name[0], "seed", "7", NS(0), "-exist");
	EXPECT_SYS(&r, "File exists (with other settings; see ipbf config)");
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "attach", "ipbf", self->name[0], "dev", "p1", NS(0));
	EXPECT_SYS(&r, "dev p1: File exists (already attached; -exist ignores it)");
	kbctl_free(&r);
	OK(&r, "xdp", "attach", "ipbf", self->name[0], "dev", "p1", NS(0), "-exist");
	kbctl_free(&r);
	kbctl_run(&r, "mcast", "ports", self->name[0], NS(0));
	EXPECT_SYS(&r, "Invalid argument (");
	kbctl_free(&r);
	kbctl_run(&r, "mcbf", "ports", self->name[0], NS(0));
	EXPECT_SYS(&r, "is an ipbf instance, not mcbf");
	kbctl_free(&r);
	/* a port that is not one */
	kbctl_run(&r, "ipbf", "stats", self->name[2], "lo", NS(2));
	EXPECT_SYS(&r, "lo: No such file or directory (lo is not a port of");
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "detach", self->name[2], "dev", "lo", NS(2));
	EXPECT_SYS(&r, "dev lo: No such file or directory (not a port; -exist ignores it)");
	kbctl_free(&r);
	OK(&r, "ipbf", "ports", self->name[2], NS(2), "-j");
	EXPECT_NE(NULL, strstr(r.out, "\"port\":\"p0\""));
	kbctl_free(&r);
	/* a header file of garbage is refused before anything is sent */
	ASSERT_EQ(0, kbctl_write_file(self->hdr, "garbage", 7));
	kbctl_run(&r, "ipbf", "send", "p0", "-i", self->hdr, "netns",
		  self->ns[2].path);
	EXPECT_USAGE(&r, "not an ipbf header of 7 bytes");
	kbctl_free(&r);
}

TEST_HARNESS_MAIN
