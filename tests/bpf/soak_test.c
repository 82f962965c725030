// SPDX-License-Identifier: GPL-2.0
/*
 * The packet paths under change: a soak of mcast, mcbf and gate (root).
 *
 *    h0  h1  h2  h3   hs         h0  h1  h2  h3   hs          hg
 *    |   |   |   |    |          |   |   |   |    |           |
 *    p0  p1  p2  p3   p4         p0  p1  p2  p3   p4          g0
 *    mcast switch (netns)        mcbf switch (netns)          gate, deny
 *
 * Three generators (tests/bpf/soak_traffic.h) send numbered frames at a
 * steady rate for SOAK_SECONDS (default 30): each switch's hs to 8 groups
 * (6 IPv4, 2 IPv6), 2000 a second, through the switch to the hosts (XDP
 * pass on their eth0); hg from 8 sources, 1000 a second, into the gate,
 * captured behind it on g0.  Meanwhile the churn changes the control
 * plane every 20 to 80 ms through kbloomctl (and the library where
 * kbloomctl has no command): joins and leaves, mcast port filters saved
 * and loaded back (map save | map load) and resized, mcbf port filters
 * rebuilt (bits, classes, seed), the mcast and gate programs replaced
 * through their links, p3 of either switch removed and added back, gate
 * addresses added and removed, the gate's filter rebuilt (tiny or roomy)
 * and loaded back, its policy flipped between deny and allow.
 *
 * tests/bpf/soak_oracle.h judges every frame at every receiver: nothing
 * due is lost (at a change or not), nothing not due arrives; the frames of
 * a pair whose state a change flips are "in change" while it runs.  And:
 * no xdp_exception (XDP_ABORTED) anywhere, counted by raw tracepoints
 * (tests/bpf/soak_trace.bpf.c); every counter adds up per port (kbloomctl
 * mcast stats, mcbf stats, gate stats): offered = forwarded + filtered +
 * errors (no errors), forwarded = what the host received, leaks counted
 * only for frames in change; the gate's packets = passed + dropped, each
 * decided by the filter or the exact set, and passed = what arrived.
 */
#include <pthread.h>
#include <linux/bpf.h>

#include "kselftest_harness.h"
#include "tests/bpf/kbloomctl_xdp_util.h"
#include "tests/bpf/soak_traffic.h"
#include "tests/bpf/soak_trace.skel.h"

#define NHOST		4	/* p0..p3 */
#define SENDER		NHOST	/* p4 */
#define MOVER		3	/* p3: removed and added back */
#define NKEY		SOAK_NKEY
#define SW_PPS		2000
#define GT_PPS		1000
#define GUARD_MS	250	/* a frame's flight, at most */
#define SOAK_DEF	30
#define SOAK_MAX	(24 * 3600)

enum { SW_MCAST, SW_MCBF, NSW };

struct changes {
	unsigned int join, leave, load, rebuild, replace, port, gadd, gdel,
		grebuild, gload, gmode, failed;
};

/* A switch: its instance, namespaces, flow, receivers and oracle. */
struct sw {
	const char *kind;		/* "mcast" or "mcbf" */
	char name[64];
	struct kbt_ns ns, host[NHOST + 1];
	int port[NHOST + 1];
	struct kbloom_xdp *x;		/* mcast: resize, replace */
	struct soak_flow fl;
	struct soak_rcv rx[NHOST];
	struct soak_track flips, wins;
	__u8 due[NHOST][NKEY], init[NHOST][NKEY];
	bool mover_in;
	struct soak_tally per[NHOST], sum;
};

struct gate {
	char name[64];
	struct kbt_ns ns, host;
	struct kbloom_xdp *x;		/* replace */
	struct soak_flow fl;
	struct soak_rcv rx;
	struct soak_track flips, wins;
	__u8 due[NKEY], init[NKEY];
	bool deny;
	struct soak_tally sum;
};

FIXTURE(soak) {
	char pass[64], dir[64];
	struct sw sw[NSW];
	struct gate g;
	struct soak_trace *trace;
	struct changes ch;
	char first_err[512];
	__u64 rng;
	unsigned int seconds;
	bool cleaned;
};

static unsigned int soak_seconds(void)
{
	const char *s = getenv("SOAK_SECONDS");
	char *end;
	unsigned long v;

	if (!s || !*s)
		return SOAK_DEF;
	v = strtoul(s, &end, 10);
	if (*end || v < 1 || v > SOAK_MAX) {
		fprintf(stderr, "# SOAK_SECONDS '%s': not 1..%d, using %d\n",
			s, SOAK_MAX, SOAK_DEF);
		return SOAK_DEF;
	}
	return v;
}

/* kbloomctl @args; 0, or -1 with its stderr in first_err (once). */
static int ctl(FIXTURE_DATA(soak) *self, const char *const *args)
{
	struct kbctl_res r;
	int ret;

	ret = kbctl_run_io(&r, NULL, NULL, args);
	if (ret && !self->first_err[0])
		snprintf(self->first_err, sizeof(self->first_err),
			 "kbloomctl %s %s: exit %d: %s", args[0], args[1], ret,
			 r.err ? r.err : "");
	kbctl_free(&r);
	return ret ? -1 : 0;
}

#define CTL(self, ...)	ctl(self, KBCTL_ARGS(__VA_ARGS__))

/* ---- setup --------------------------------------------------------------- */

static int sw_net(struct sw *s, int idx)
{
	char p[16];
	int i;

	if (kbt_ns_quiet(&s->ns))
		return -1;
	for (i = 0; i <= NHOST; i++) {
		snprintf(p, sizeof(p), "p%d", i);
		if (kbt_ns_quiet(&s->host[i]) ||
		    kbt_veth(&s->ns, p, &s->host[i], "eth0", 16 * idx + i))
			return -1;
		s->port[i] = kbt_ifindex(&s->ns, p);
		if (s->port[i] <= 0)
			return -1;
	}
	return 0;
}

static int sw_attach(FIXTURE_DATA(soak) *self, struct sw *s)
{
	struct kbloom_xdp_opts o = { .netns = s->ns.path };
	int i;

	if (CTL(self, "xdp", "attach", s->kind, s->name, "dev", "p0", "p1",
		"p2", "p3", "p4", "mode", "native", "netns", s->ns.path))
		return -1;
	for (i = 0; i < NHOST; i++)
		if (CTL(self, "xdp", "attach", "pass", self->pass, "dev",
			"eth0", "mode", "native", "netns", s->host[i].path))
			return -1;
	s->mover_in = true;
	if (strcmp(s->kind, "mcast"))
		return 0;
	return kbloom_xdp_open(s->name, &o, &s->x) ? -1 : 0;
}

static int sw_flow(struct sw *s, __u32 tag, unsigned int seconds)
{
	int i;

	s->fl = (struct soak_flow){ .tag = tag, .pps = SW_PPS,
				    .max = SW_PPS * (seconds + 10) };
	s->fl.fd = kbt_psock(&s->host[SENDER], "eth0");
	if (s->fl.fd < 0)
		return -1;
	for (i = 0; i < NHOST; i++)
		if (soak_rcv_open(&s->rx[i], &s->host[i], "eth0", &s->fl))
			return -1;
	return 0;
}

static int gate_setup(FIXTURE_DATA(soak) *self, struct gate *g)
{
	struct kbloom_xdp_opts o = { .netns = g->ns.path };

	if (kbt_ns_quiet(&g->ns) || kbt_ns_quiet(&g->host) ||
	    kbt_veth(&g->ns, "g0", &g->host, "eth0", 0x40))
		return -1;
	if (CTL(self, "xdp", "attach", "gate", g->name, "dev", "g0",
		"policy", "deny", "mode", "native", "netns", g->ns.path))
		return -1;
	g->deny = true;
	if (kbloom_xdp_open(g->name, &o, &g->x))
		return -1;
	g->fl = (struct soak_flow){ .tag = NSW + 1, .gate = true,
				    .pps = GT_PPS,
				    .max = GT_PPS * (self->seconds + 10) };
	g->fl.fd = kbt_psock(&g->host, "eth0");
	if (g->fl.fd < 0)
		return -1;
	return soak_rcv_open(&g->rx, &g->ns, "g0", &g->fl);
}

static int make_paths(FIXTURE_DATA(soak) *self)
{
	static const char *const kinds[NSW] = { "mcast", "mcbf" };
	int i;

	kbt_name(self->pass, sizeof(self->pass), "pass");
	kbt_name(self->g.name, sizeof(self->g.name), "gate");
	snprintf(self->dir, sizeof(self->dir), "/tmp/kbt%d-XXXXXX",
		 (int)getpid());
	if (!mkdtemp(self->dir)) {
		self->dir[0] = 0;
		return -1;
	}
	self->trace = soak_trace__open_and_load();
	if (!self->trace || soak_trace__attach(self->trace))
		return -1;
	for (i = 0; i < NSW; i++) {
		struct sw *s = &self->sw[i];

		s->kind = kinds[i];
		kbt_name(s->name, sizeof(s->name), s->kind);
		if (sw_net(s, i) || sw_attach(self, s) ||
		    sw_flow(s, i + 1, self->seconds))
			return -1;
	}
	return gate_setup(self, &self->g);
}

static void sw_cleanup(struct sw *s)
{
	int i;

	for (i = 0; i < NHOST; i++)
		soak_rcv_close(&s->rx[i]);
	for (i = 0; i <= NHOST; i++)
		kbt_ns_free(&s->host[i]);
	if (s->fl.fd > 0)
		close(s->fl.fd);
	if (s->x)
		kbloom_xdp_close(s->x);
	if (s->name[0])
		kbt_unpin(s->name);
	kbt_ns_free(&s->ns);
	soak_track_free(&s->flips);
	soak_track_free(&s->wins);
}

static void gate_cleanup(struct gate *g)
{
	soak_rcv_close(&g->rx);
	if (g->fl.fd > 0)
		close(g->fl.fd);
	if (g->x)
		kbloom_xdp_close(g->x);
	if (g->name[0])
		kbt_unpin(g->name);
	kbt_ns_free(&g->ns);
	kbt_ns_free(&g->host);
	soak_track_free(&g->flips);
	soak_track_free(&g->wins);
}

/* Idempotent: the setup calls it on failure, the teardown again. */
static void soak_cleanup(FIXTURE_DATA(soak) *self)
{
	char cmd[96];
	int i;

	if (self->cleaned)
		return;
	self->cleaned = true;
	for (i = 0; i < NSW; i++)
		sw_cleanup(&self->sw[i]);
	gate_cleanup(&self->g);
	kbt_unpin(self->pass);
	soak_trace__destroy(self->trace);
	if (self->dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
		if (system(cmd))
			fprintf(stderr, "# %s failed\n", cmd);
	}
}

FIXTURE_SETUP(soak)
{
	int ret;

	kbt_janitor();
	self->seconds = soak_seconds();
	ret = make_paths(self);
	if (ret) {
		TH_LOG("setup: %s", self->first_err);
		soak_cleanup(self);
	}
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(soak)
{
	soak_cleanup(self);
}

/* ---- the churn ----------------------------------------------------------- */

/*
 * A change of flow @fl began at frame @s0 and returned now with @ret:
 * count it in *@kind and record its window in @wins.
 */
static int changed(FIXTURE_DATA(soak) *self, struct soak_flow *fl,
		   struct soak_track *wins, __u32 s0, int ret,
		   unsigned int *kind)
{
	if (ret) {
		self->ch.failed++;
		return -1;
	}
	(*kind)++;
	return soak_track_add(wins, s0, soak_mark(fl), SOAK_ANY, 0, 0);
}

/* The change at @s0 flipped receiver @rcv's state of @key (*@state). */
static int flip(struct soak_track *flips, struct soak_flow *fl, __u32 s0,
		int rcv, int key, __u8 *state)
{
	*state = !*state;
	return soak_track_add(flips, s0, soak_mark(fl), rcv, key, *state);
}

static int pick_port(FIXTURE_DATA(soak) *self, const struct sw *s)
{
	int p = kbt_rand(&self->rng) % NHOST;

	return p == MOVER && !s->mover_in ? 0 : p;
}

/* A port joins a group it has not joined, or leaves one it has. */
static int sw_member(FIXTURE_DATA(soak) *self, struct sw *s)
{
	int p = pick_port(self, s), k = kbt_rand(&self->rng) % NKEY;
	char port[8], grp[INET6_ADDRSTRLEN];
	__u32 s0 = soak_mark(&s->fl);
	bool due = s->due[p][k];
	__u8 a[16];
	int ret;

	soak_addr_str(a, soak_group(a, k), grp);
	snprintf(port, sizeof(port), "p%d", p);
	ret = CTL(self, s->kind, due ? "leave" : "join", s->name, port, grp,
		  "netns", s->ns.path);
	if (changed(self, &s->fl, &s->wins, s0, ret,
		    due ? &self->ch.leave : &self->ch.join))
		return -1;
	return flip(&s->flips, &s->fl, s0, p, k, &s->due[p][k]);
}

/* map save | map load of filter @id of instance @name. */
static int save_load(FIXTURE_DATA(soak) *self, const char *name, int id)
{
	char path[160], img[96];

	snprintf(path, sizeof(path), "%s/%s/filter_%d", KBT_PIN_ROOT, name, id);
	snprintf(img, sizeof(img), "%s/filter.img", self->dir);
	if (CTL(self, "map", "save", path, "-o", img))
		return -1;
	return CTL(self, "map", "load", path, "-i", img);
}

/* mcast: a port's filter rebuilt at 256 groups at 0.1% or 1024 at 0.01%. */
static int mcast_resize(FIXTURE_DATA(soak) *self, struct sw *s, int p)
{
	struct kbloom_xdp_geom g = { .capacity = 1024, .fpr_pico = 100000000 };
	int ret;

	if (kbt_rand(&self->rng) & 1)
		g = (struct kbloom_xdp_geom){ .capacity = 256,
					      .fpr_pico = 1000000000 };
	ret = kbloom_xdp_geom_plan(&g);
	ret = ret ?: kbloom_mcast_port_resize(s->x, s->port[p], &g);
	if (ret && !self->first_err[0])
		snprintf(self->first_err, sizeof(self->first_err),
			 "mcast port resize p%d: %s", p, strerror(-ret));
	return ret;
}

/* mcbf: a port's filter rebuilt with other bits, class table, seed. */
static int mcbf_port(FIXTURE_DATA(soak) *self, struct sw *s, int p)
{
	__u64 r = kbt_rand(&self->rng);
	char port[8], seed[16];

	snprintf(port, sizeof(port), "p%d", p);
	snprintf(seed, sizeof(seed), "%u", (unsigned int)(r >> 8) % 1000);
	return CTL(self, "mcbf", "port", s->name, port, "bits",
		   r & 1 ? "2048" : "4096", "classes", r & 2 ? "all:6" : "all:4",
		   "seed", seed, "netns", s->ns.path);
}

static int sw_rebuild(FIXTURE_DATA(soak) *self, struct sw *s)
{
	int p = pick_port(self, s), ret;
	__u32 s0 = soak_mark(&s->fl);

	ret = s->x ? mcast_resize(self, s, p) : mcbf_port(self, s, p);
	return changed(self, &s->fl, &s->wins, s0, ret, &self->ch.rebuild);
}

/* mcast: a port's filter saved and loaded back; mcbf: rebuilt. */
static int sw_load(FIXTURE_DATA(soak) *self, struct sw *s)
{
	int p = pick_port(self, s);
	__u32 s0 = soak_mark(&s->fl);

	if (!s->x)
		return sw_rebuild(self, s);
	return changed(self, &s->fl, &s->wins, s0,
		       save_load(self, s->name, s->port[p]), &self->ch.load);
}

/* The programs replaced through their links (mcbf: not replaceable). */
static int replace_progs(FIXTURE_DATA(soak) *self, struct kbloom_xdp *x,
			 struct soak_flow *fl, struct soak_track *wins)
{
	__u32 s0 = soak_mark(fl);
	int ret = kbloom_xdp_replace(x);

	if (ret && !self->first_err[0])
		snprintf(self->first_err, sizeof(self->first_err),
			 "replace %s: %s", kbloom_xdp_dir(x), strerror(-ret));
	return changed(self, fl, wins, s0, ret, &self->ch.replace);
}

/* p3 removed (its memberships with it), or added back without any. */
static int sw_port(FIXTURE_DATA(soak) *self, struct sw *s)
{
	__u32 s0 = soak_mark(&s->fl);
	int k, ret;

	if (!s->mover_in)
		ret = CTL(self, "xdp", "attach", s->kind, s->name, "dev", "p3",
			  "mode", "native", "netns", s->ns.path);
	else
		ret = CTL(self, "xdp", "detach", s->name, "dev", "p3",
			  "netns", s->ns.path);
	if (changed(self, &s->fl, &s->wins, s0, ret, &self->ch.port))
		return -1;
	s->mover_in = !s->mover_in;
	for (k = 0; k < NKEY; k++)
		if (s->due[MOVER][k] &&
		    flip(&s->flips, &s->fl, s0, MOVER, k, &s->due[MOVER][k]))
			return -1;
	return 0;
}

/* One change of switch @s, drawn by weight. */
static int sw_churn(FIXTURE_DATA(soak) *self, struct sw *s)
{
	unsigned int r = kbt_rand(&self->rng) % 100;

	if (r < 50)
		return sw_member(self, s);
	if (r < 65)
		return sw_load(self, s);
	if (r < 78)
		return sw_rebuild(self, s);
	if (r < 90 && s->x)
		return replace_progs(self, s->x, &s->fl, &s->wins);
	if (r < 90)
		return sw_rebuild(self, s);
	return sw_port(self, s);
}

/* A source added to the gate's set, or removed from it. */
static int gate_addr(FIXTURE_DATA(soak) *self, struct gate *g)
{
	int k = kbt_rand(&self->rng) % NKEY, ret;
	bool in = g->deny ? !g->due[k] : g->due[k];
	char src[INET6_ADDRSTRLEN];
	__u32 s0 = soak_mark(&g->fl);
	__u8 a[16];

	soak_addr_str(a, soak_source(a, k), src);
	ret = CTL(self, "gate", in ? "del" : "add", g->name, src);
	if (changed(self, &g->fl, &g->wins, s0, ret,
		    in ? &self->ch.gdel : &self->ch.gadd))
		return -1;
	return flip(&g->flips, &g->fl, s0, 0, k, &g->due[k]);
}

/* The filter rebuilt tiny (false positives reach the set) or roomy. */
static int gate_rebuild(FIXTURE_DATA(soak) *self, struct gate *g)
{
	__u32 s0 = soak_mark(&g->fl);
	int ret;

	if (kbt_rand(&self->rng) & 1)
		ret = CTL(self, "gate", "rebuild", g->name, "bits", "512",
			  "hashes", "1");
	else
		ret = CTL(self, "gate", "rebuild", g->name, "capacity",
			  "4096", "fpr", "0.01%");
	return changed(self, &g->fl, &g->wins, s0, ret, &self->ch.grebuild);
}

static int gate_load(FIXTURE_DATA(soak) *self, struct gate *g)
{
	__u32 s0 = soak_mark(&g->fl);

	return changed(self, &g->fl, &g->wins, s0, save_load(self, g->name, 0),
		       &self->ch.gload);
}

/* deny <-> allow: every source's verdict flips. */
static int gate_mode(FIXTURE_DATA(soak) *self, struct gate *g)
{
	__u32 s0 = soak_mark(&g->fl);
	int k, ret;

	ret = CTL(self, "gate", "mode", g->name, g->deny ? "allow" : "deny");
	if (changed(self, &g->fl, &g->wins, s0, ret, &self->ch.gmode))
		return -1;
	g->deny = !g->deny;
	for (k = 0; k < NKEY; k++)
		if (flip(&g->flips, &g->fl, s0, 0, k, &g->due[k]))
			return -1;
	return 0;
}

static int gate_churn(FIXTURE_DATA(soak) *self, struct gate *g)
{
	unsigned int r = kbt_rand(&self->rng) % 100;

	if (r < 45)
		return gate_addr(self, g);
	if (r < 65)
		return gate_rebuild(self, g);
	if (r < 80)
		return gate_load(self, g);
	if (r < 92)
		return replace_progs(self, g->x, &g->fl, &g->wins);
	return gate_mode(self, g);
}

/* One change: the mcast switch 40%, mcbf 30%, the gate 30%. */
static int churn_once(FIXTURE_DATA(soak) *self)
{
	unsigned int r = kbt_rand(&self->rng) % 10;

	if (r < 4)
		return sw_churn(self, &self->sw[SW_MCAST]);
	if (r < 7)
		return sw_churn(self, &self->sw[SW_MCBF]);
	return gate_churn(self, &self->g);
}

static unsigned int changes_made(const struct changes *c)
{
	return c->join + c->leave + c->load + c->rebuild + c->replace +
	       c->port + c->gadd + c->gdel + c->grebuild + c->gload + c->gmode;
}

/* Initial states: p0 joined groups 0 and 6, p1 1..3, p2 none, p3 4. */
static int sw_join_initial(FIXTURE_DATA(soak) *self, struct sw *s)
{
	static const __u8 joins[NHOST] = { 0x41, 0x0e, 0x00, 0x10 };
	char port[8], grp[INET6_ADDRSTRLEN];
	__u8 a[16];
	int p, k;

	for (p = 0; p < NHOST; p++)
		for (k = 0; k < NKEY; k++) {
			if (!(joins[p] >> k & 1))
				continue;
			soak_addr_str(a, soak_group(a, k), grp);
			snprintf(port, sizeof(port), "p%d", p);
			if (CTL(self, s->kind, "join", s->name, port, grp,
				"netns", s->ns.path))
				return -1;
			s->due[p][k] = 1;
			s->init[p][k] = 1;
		}
	return 0;
}

static int initial_states(FIXTURE_DATA(soak) *self)
{
	int i;

	for (i = 0; i < NSW; i++)
		if (sw_join_initial(self, &self->sw[i]))
			return -1;
	/* deny, nothing in the set: every source passes */
	for (i = 0; i < NKEY; i++) {
		self->g.due[i] = 1;
		self->g.init[i] = 1;
	}
	return 0;
}

/* ---- the verdicts -------------------------------------------------------- */

static long long stat_of(const char *out, const char *port, const char *key)
{
	char from[32];

	snprintf(from, sizeof(from), "\"port\":\"%s\"", port);
	return jnum(out, from, key);
}

/* One port of kbloomctl KIND stats -j: its copies add up. */
static void check_port(struct __test_metadata *_metadata,
		       const struct sw *s, const char *out, int i)
{
	long long seen, fwd, filt, err, leak;
	char p[8];

	snprintf(p, sizeof(p), "p%d", i);
	seen = stat_of(out, p, "tx_seen");
	fwd = stat_of(out, p, "tx_forwarded");
	filt = stat_of(out, p, "tx_filtered");
	err = stat_of(out, p, "tx_errors");
	leak = stat_of(out, p, "tx_leaked");
	printf("# %s %s: offered %lld = forwarded %lld + filtered %lld + errors %lld, leaked %lld; host received %llu%s\n",
	       s->kind, p, seen, fwd, filt, err, leak,
	       (unsigned long long)s->per[i].received,
	       i == MOVER ? " (counters: since p3 was last added)" : "");
	EXPECT_EQ(seen, fwd + filt + err) TH_LOG("%s %s", s->kind, p);
	EXPECT_EQ(0, err) TH_LOG("%s %s", s->kind, p);
	/* forwarded to a non-member: only a frame caught by a leave */
	EXPECT_LE(leak, s->per[i].undecided) TH_LOG("%s %s", s->kind, p);
	if (i == MOVER)
		return;
	EXPECT_EQ(soak_mark(&s->fl), seen)
		TH_LOG("%s %s", s->kind, p);
	EXPECT_EQ(s->per[i].received, fwd) TH_LOG("%s %s", s->kind, p);
}

/*
 * kbloomctl mcast|mcbf stats: each port's copies add up (offered =
 * forwarded + filtered + errors, no errors, leaks only in change); a port
 * never removed was offered every frame and forwarded exactly what its
 * host received; p4 took every frame in.
 */
static void check_sw_stats(struct __test_metadata *_metadata,
			   FIXTURE_DATA(soak) *self, struct sw *s)
{
	__u32 sent = soak_mark(&s->fl);
	struct kbctl_res r;
	int i;

	OK(&r, s->kind, "stats", s->name, "netns", s->ns.path, "-j");
	for (i = 0; i < NHOST; i++)
		if (i != MOVER || s->mover_in)
			check_port(_metadata, s, r.out, i);
	EXPECT_EQ(sent, stat_of(r.out, "p4", "rx_packets")) TH_LOG("%s", s->kind);
	EXPECT_EQ(sent, stat_of(r.out, "p4", "rx_mcast")) TH_LOG("%s", s->kind);
	kbctl_free(&r);
}

/*
 * kbloomctl gate stats: every frame seen, passed + dropped, each decided
 * by the filter or the exact set; passed is what arrived behind it.
 */
static void check_gate_stats(struct __test_metadata *_metadata,
			     struct gate *g)
{
	long long pk, pass, drop, neg, look, hit, fp;
	struct kbctl_res r;

	OK(&r, "gate", "stats", g->name, "-j");
	pk = jnum(r.out, NULL, "packets");
	pass = jnum(r.out, NULL, "passed");
	drop = jnum(r.out, NULL, "drops");
	neg = jnum(r.out, NULL, "filter_negatives");
	look = jnum(r.out, NULL, "exact_lookups");
	hit = jnum(r.out, NULL, "exact_hits");
	fp = jnum(r.out, NULL, "false_positives");
	printf("# gate: packets %lld = passed %lld + dropped %lld; filter negatives %lld + exact lookups %lld (hits %lld, false positives caught %lld); received %llu\n",
	       pk, pass, drop, neg, look, hit, fp,
	       (unsigned long long)g->sum.received);
	EXPECT_EQ(soak_mark(&g->fl), pk);
	EXPECT_EQ(pk, pass + drop);
	EXPECT_EQ(pk, neg + look);
	EXPECT_EQ(look, hit + fp);
	EXPECT_EQ(g->sum.received, pass);
	EXPECT_EQ(0, jnum(r.out, NULL, "not_ip"));
	EXPECT_EQ(0, jnum(r.out, NULL, "malformed"));
	EXPECT_EQ(0, jnum(r.out, NULL, "errors"));
	kbctl_free(&r);
}

static void tally_sum(struct soak_tally *sum, const struct soak_tally *t)
{
	sum->due += t->due;
	sum->delivered += t->delivered;
	sum->lost += t->lost;
	sum->lost_change += t->lost_change;
	sum->across += t->across;
	sum->leaked += t->leaked;
	sum->undecided += t->undecided;
	sum->received += t->received;
}

/* Judge every receiver of every path. */
static void judge_all(FIXTURE_DATA(soak) *self)
{
	struct gate *g = &self->g;
	int i, p;

	for (i = 0; i < NSW; i++) {
		struct sw *s = &self->sw[i];

		for (p = 0; p < NHOST; p++) {
			soak_judge(&s->flips, &s->wins, p, s->init[p], NKEY,
				   soak_mark(&s->fl), SW_PPS * GUARD_MS / 1000,
				   s->rx[p].seen, &s->per[p]);
			tally_sum(&s->sum, &s->per[p]);
		}
	}
	soak_judge(&g->flips, &g->wins, 0, g->init, NKEY, soak_mark(&g->fl),
		   GT_PPS * GUARD_MS / 1000, g->rx.seen, &g->sum);
}

static void report_tally(const char *what, const struct soak_tally *t)
{
	printf("# %s: delivered %llu of %llu due, lost %llu, lost to changes %llu (of %llu due across a change), leaked %llu, in change %llu\n",
	       what, t->delivered, t->due, t->lost, t->lost_change, t->across,
	       t->leaked, t->undecided);
}

static void report(FIXTURE_DATA(soak) *self)
{
	const struct changes *c = &self->ch;
	const struct soak_trace__bss *b = self->trace->bss;

	printf("# soak %u s: sent %u mcast + %u mcbf + %u gate frames\n",
	       self->seconds, soak_mark(&self->sw[SW_MCAST].fl),
	       soak_mark(&self->sw[SW_MCBF].fl), soak_mark(&self->g.fl));
	report_tally("mcast, to members", &self->sw[SW_MCAST].sum);
	report_tally("mcbf, to members", &self->sw[SW_MCBF].sum);
	report_tally("gate, passing", &self->g.sum);
	printf("# changes made %u: join %u leave %u map-load %u port-filter %u replace %u port %u gate-add %u gate-del %u gate-rebuild %u gate-load %u gate-mode %u; failed %u\n",
	       changes_made(c), c->join, c->leave, c->load, c->rebuild,
	       c->replace, c->port, c->gadd, c->gdel, c->grebuild, c->gload,
	       c->gmode, c->failed);
	printf("# xdp_exception %llu (XDP_ABORTED %llu), xdp_redirect_err %llu (machine-wide, during the soak)\n",
	       (unsigned long long)b->exceptions,
	       (unsigned long long)b->exc_act[XDP_ABORTED],
	       (unsigned long long)b->redirect_errs);
}

static void expect_clean(struct __test_metadata *_metadata, const char *what,
			 const struct soak_tally *t, const struct soak_flow *fl,
			 __u32 pps, unsigned int seconds)
{
	/* traffic enough to mean something, and no send failed */
	EXPECT_GT(soak_mark(fl), pps * seconds / 4)
		TH_LOG("%s", what);
	EXPECT_EQ(0, fl->err) TH_LOG("%s", what);
	EXPECT_GT(t->due, 0) TH_LOG("%s", what);
	/* nothing due lost, nothing else delivered */
	EXPECT_EQ(0, t->lost) TH_LOG("%s", what);
	EXPECT_EQ(0, t->leaked) TH_LOG("%s", what);
}

/* ---- the soak ------------------------------------------------------------ */

/* Churn until the time is up; 0, or -1 when a change failed. */
static int churn(FIXTURE_DATA(soak) *self)
{
	double end = kbt_now() + self->seconds;

	while (kbt_now() < end) {
		if (churn_once(self))
			return -1;
		usleep(20000 + kbt_rand(&self->rng) % 60000);
	}
	return 0;
}

static struct soak_flow *flow_of(FIXTURE_DATA(soak) *self, int i)
{
	return i < NSW ? &self->sw[i].fl : &self->g.fl;
}

/* Traffic on, churn for the soak's seconds, traffic off, all landed. */
static int run_soak(FIXTURE_DATA(soak) *self)
{
	struct soak_rx rx = {};
	pthread_t gen[NSW + 1], rth;
	int i, p, ret;

	for (i = 0; i < NSW; i++)
		for (p = 0; p < NHOST; p++)
			rx.rcv[rx.n++] = &self->sw[i].rx[p];
	rx.rcv[rx.n++] = &self->g.rx;
	if (pthread_create(&rth, NULL, soak_receiver, &rx))
		return -1;
	for (i = 0; i <= NSW; i++)
		if (pthread_create(&gen[i], NULL, soak_generator,
				   flow_of(self, i)))
			abort();	/* no way to stop the ones started */
	usleep(200000);
	ret = churn(self);
	usleep(200000);
	for (i = 0; i <= NSW; i++) {
		atomic_store(&flow_of(self, i)->stop, 1);
		pthread_join(gen[i], NULL);
	}
	usleep(300000);		/* the last frames land */
	atomic_store(&rx.stop, 1);
	pthread_join(rth, NULL);
	return ret;
}

/* SOAK_SEED=S: the same sequence of changes (not the same timing). */
TEST_F(soak, run)
{
	const char *seed = getenv("SOAK_SEED");
	int i, p, ret;

	self->rng = seed && *seed ? strtoull(seed, NULL, 0) :
				    (__u64)time(NULL) ^ getpid();
	printf("# SOAK_SEED %llu, SOAK_SECONDS %u\n",
	       (unsigned long long)self->rng, self->seconds);
	ASSERT_EQ(0, initial_states(self)) TH_LOG("%s", self->first_err);
	ret = run_soak(self);
	judge_all(self);
	report(self);
	EXPECT_EQ(0, ret) TH_LOG("%s", self->first_err);
	EXPECT_GE(changes_made(&self->ch), 2 * self->seconds);
	for (i = 0; i < NSW; i++) {
		struct sw *s = &self->sw[i];

		expect_clean(_metadata, s->kind, &s->sum, &s->fl, SW_PPS,
			     self->seconds);
		for (p = 0; p < NHOST; p++)
			EXPECT_EQ(0, s->rx[p].dup) TH_LOG("%s p%d", s->kind, p);
		check_sw_stats(_metadata, self, s);
	}
	expect_clean(_metadata, "gate", &self->g.sum, &self->g.fl, GT_PPS,
		     self->seconds);
	EXPECT_EQ(0, self->g.rx.dup);
	check_gate_stats(_metadata, &self->g);
	/* never XDP_ABORTED, nor any other exception */
	EXPECT_EQ(0, self->trace->bss->exceptions);
}

/* The harness's timeout follows SOAK_SECONDS: setup, soak, checks. */
static void __attribute__((constructor)) soak_timeout(void)
{
	_soak_run_object.timeout = soak_seconds() + 120;
}

TEST_HARNESS_MAIN
