// SPDX-License-Identifier: GPL-2.0
/*
 * The counting kinds of XDP instances (libkbloom_xdp_count.h): "sketch"
 * (the Count-Min sketch at XDP) and "conntrack" (the d-left tracker), on
 * the host (root), made through the library and through kbloomctl
 * (build/kbloomctl, fork + exec) on a veth pair between two namespaces:
 *
 *      namespace a: p0 10.0.0.1  (the XDP instance)
 *      namespace b: h0 10.0.0.2  (sends: UDP datagrams, TCP connections)
 *
 * Static neighbours, IPv6 off: the only frames p0 receives are the
 * test's, so the counts are exact.
 *
 *  - real frames are counted: packets and bytes per source (sketch count),
 *    the threshold's drops, flows inserted by the SYN and deleted by the
 *    FIN (conntrack test, conntrack stats);
 *  - an instance made by one process reads the same in another: the
 *    library's numbers equal kbloomctl's, both ways;
 *  - usage errors: exit 2, one line naming the keyword, nothing created;
 *    a sketch beyond the machine's memory: exit 3 at once, nothing created;
 *  - xdp detach NAME and kbloom_inst_destroy() leave no pins.
 *
 * Instances are named kbt<pid>-*, removed by the teardown, and by the
 * janitor of a later run if this process died.
 */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tests/bpf/kbloomctl_xdp_util.h"
#include "libkbloom_xdp_count.h"

#define UNAME	"kbtusage0"	/* never created */
#define NUDP	10
#define PAYLOAD	100
/* the frame of a datagram: Ethernet, IPv4, UDP headers and the payload */
#define FRAME	(14 + 20 + 8 + PAYLOAD)

static const char *const help_paths[][2] = {
	{ "sketch" }, { "sketch", "count" }, { "sketch", "stats" },
	{ "conntrack" }, { "conntrack", "stats" }, { "conntrack", "test" },
	{ "conntrack", "miss" }, { "conntrack", "save" }, { "conntrack", "load" },
	{ "sketch", "save" },
};

TEST(help)
{
	kbctl_check_help(_metadata, help_paths, ARRAY_SIZE(help_paths), true);
}

/* ---- usage errors: one line naming the keyword, nothing made ---------------- */

static const struct {
	const char *const *args;
	const char *says;
} usage[] = {
	{ KBCTL_ARGS("xdp", "attach", "sketch", UNAME, "bogus", "1", "dev", "lo"),
	  "'bogus': unknown keyword" },
	{ KBCTL_ARGS("xdp", "attach", "sketch", UNAME, "dev", "lo", "epsilon",
		     "0.01"), "epsilon: needs delta" },
	{ KBCTL_ARGS("xdp", "attach", "sketch", UNAME, "dev", "lo", "width",
		     "1000", "epsilon", "0.01"), "width: not with epsilon" },
	{ KBCTL_ARGS("xdp", "attach", "sketch", UNAME, "dev", "lo", "rows",
		     "99", "width", "1000"), "rows '99'" },
	{ KBCTL_ARGS("xdp", "attach", "sketch", UNAME, "dev", "lo",
		     "counter-bits", "8"), "counter-bits '8'" },
	{ KBCTL_ARGS("xdp", "attach", "sketch", UNAME, "dev", "lo", "shared",
		     "update", "min-inc"), "update min-inc: not with shared" },
	{ KBCTL_ARGS("xdp", "attach", "sketch", UNAME, "dev", "lo", "action",
		     "drop"), "action drop: needs threshold" },
	{ KBCTL_ARGS("xdp", "attach", "sketch", UNAME, "dev", "lo", "bytes"),
	  "bytes: needs threshold" },
	{ KBCTL_ARGS("xdp", "attach", "sketch", UNAME, "dev", "lo", "threshold",
		     "5", "mark", "7"), "mark: only with action mark" },
	{ KBCTL_ARGS("xdp", "attach", "conntrack", UNAME, "dev", "lo",
		     "capacity", "100"), "capacity: needs fpr" },
	{ KBCTL_ARGS("xdp", "attach", "conntrack", UNAME, "dev", "lo",
		     "fp-bits", "12", "slots", "8", "tables", "4", "buckets",
		     "64", "counter-bits", "2"), "a 14-bit cell straddles words" },
	{ KBCTL_ARGS("xdp", "attach", "conntrack", UNAME, "dev", "lo",
		     "fp-bits", "12", "slots", "8", "tables", "4", "buckets",
		     "63", "counter-bits", "4"), "buckets '63'" },
	{ KBCTL_ARGS("xdp", "attach", "conntrack", UNAME, "dev", "lo",
		     "fp-bits", "12"), "d-left shape: missing slots" },
	{ KBCTL_ARGS("xdp", "attach", "conntrack", UNAME, "dev", "lo", "miss",
		     "maybe"), "miss 'maybe'" },
	{ KBCTL_ARGS("conntrack", "miss", UNAME, "reject"),
	  "miss 'reject': unknown (allowed: pass|drop)" },
	{ KBCTL_ARGS("sketch", "save", UNAME, "flows"),
	  "'flows': not a sketch of the instance (allowed: packets|bytes)" },
	{ KBCTL_ARGS("sketch", "count", UNAME, "10.0.0.300"),
	  "ADDR '10.0.0.300'" },
	{ KBCTL_ARGS("conntrack", "test", UNAME, "10.0.0.1", "10.0.0.2:80"),
	  "SRC:PORT '10.0.0.1'" },
	{ KBCTL_ARGS("conntrack", "test", UNAME, "10.0.0.1:80",
		     "[fd00::1]:80"), "not of the family of SRC:PORT" },
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

/*
 * A sketch whose row maps outgrow the machine: 2^32 32-bit counters per
 * CPU, packets and bytes, 32 GiB a CPU.  Refused at once (the kernel would
 * allocate the per-CPU array element by element for minutes), naming the
 * memory, nothing made.  Skipped on a machine with that much memory.
 */
TEST(sketch_beyond_memory_refused)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	__u64 need = 32ULL << 30;
	struct kbctl_res r;
	time_t t0;

	if (pages <= 0 || psz <= 0 || (__u64)pages * psz > need)
		SKIP(return, "%ld pages of memory", pages);
	t0 = time(NULL);
	kbctl_run(&r, "xdp", "attach", "sketch", UNAME, "dev", "lo", "width",
		  "2147483648", "rows", "2");
	EXPECT_SYS(&r, "more than this machine's memory");
	EXPECT_GE(5, time(NULL) - t0);
	EXPECT_FALSE(inst_exists(UNAME));
	kbctl_free(&r);
}

/* ---- the pair ------------------------------------------------------------------ */

FIXTURE(pair) {
	char sk[64], ct[64];
	struct kbt_ns a, b;
	int p0;
	char p0_s[16];
};

static int veth_pair_make(FIXTURE_DATA(pair) *self)
{
	kbt_janitor();
	kbt_name(self->sk, sizeof(self->sk), "sketch");
	kbt_name(self->ct, sizeof(self->ct), "ct");
	if (kbt_ns_quiet(&self->a) || kbt_ns_quiet(&self->b) ||
	    kbt_veth(&self->a, "p0", &self->b, "h0", 1))
		return -1;
	if (kbt_sh(&self->a, "ip addr add 10.0.0.1/24 dev p0") ||
	    kbt_sh(&self->b, "ip addr add 10.0.0.2/24 dev h0") ||
	    kbt_sh(&self->a, "ip neigh replace 10.0.0.2 lladdr 02:00:00:00:01:02 dev p0") ||
	    kbt_sh(&self->b, "ip neigh replace 10.0.0.1 lladdr 02:00:00:00:01:01 dev h0"))
		return -1;
	self->p0 = kbt_ifindex(&self->a, "p0");
	snprintf(self->p0_s, sizeof(self->p0_s), "%d", self->p0);
	return self->p0 > 0 ? 0 : -1;
}

FIXTURE_SETUP(pair)
{
	ASSERT_EQ(0, veth_pair_make(self));
}

FIXTURE_TEARDOWN(pair)
{
	kbt_unpin(self->sk);
	kbt_unpin(self->ct);
	kbt_ns_free(&self->a);
	kbt_ns_free(&self->b);
}

#define NS_A	"netns", self->a.path

/* @n datagrams of PAYLOAD bytes from 10.0.0.2 to 10.0.0.1:9. */
static int send_udp(FIXTURE_DATA(pair) *self, int n)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(9) };
	char buf[PAYLOAD] = { 0 };
	int saved, fd, i, ret = 0;

	inet_pton(AF_INET, "10.0.0.1", &to.sin_addr);
	if (kbt_ns_enter(&self->b, &saved))
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	for (i = 0; fd >= 0 && i < n && !ret; i++)
		if (sendto(fd, buf, sizeof(buf), 0, (struct sockaddr *)&to,
			   sizeof(to)) != sizeof(buf))
			ret = -1;
	if (fd >= 0)
		close(fd);
	kbt_ns_leave(saved);
	usleep(100000);	/* the peer's NAPI runs the program */
	return fd < 0 ? -1 : ret;
}

/* A socket of namespace @ns: bound to @addr:@port; listening with @listen. */
static int tcp_sock(const struct kbt_ns *ns, const char *addr, int port,
		    bool listen_on)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	int saved, fd, one = 1;

	inet_pton(AF_INET, addr, &sa.sin_addr);
	if (kbt_ns_enter(ns, &saved))
		return -1;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd >= 0 &&
	    (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	     bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	     (listen_on && listen(fd, 4)))) {
		close(fd);
		fd = -1;
	}
	kbt_ns_leave(saved);
	return fd;
}

/* 10.0.0.2:@sport connects to a listener at 10.0.0.1:80; the client fd. */
static int tcp_flow(FIXTURE_DATA(pair) *self, int sport, int *lfd)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(80) };
	int fd;

	inet_pton(AF_INET, "10.0.0.1", &to.sin_addr);
	*lfd = tcp_sock(&self->a, "10.0.0.1", 80, true);
	fd = tcp_sock(&self->b, "10.0.0.2", sport, false);
	if (*lfd < 0 || fd < 0 ||
	    connect(fd, (struct sockaddr *)&to, sizeof(to))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	usleep(100000);
	return fd;
}

/* The id of the XDP program on p0, 0 for none. */
static __u32 xdp_on_p0(FIXTURE_DATA(pair) *self)
{
	__u32 id = 0;
	int saved;

	if (kbt_ns_enter(&self->a, &saved))
		return ~0U;
	if (bpf_xdp_query_id(self->p0, 0, &id))
		id = ~0U;
	kbt_ns_leave(saved);
	return id;
}

static struct kbloom_inst_opts inst_opts(FIXTURE_DATA(pair) *self)
{
	struct kbloom_inst_opts o = { .netns = self->a.path };

	return o;
}

/* The packets and bytes kbloomctl -j sketch count reports for 10.0.0.2. */
static void ctl_count(struct __test_metadata *_metadata, const char *name,
		      long long *pk, long long *by)
{
	struct kbctl_res r;

	OK(&r, "-j", "sketch", "count", name, "10.0.0.2");
	EXPECT_JSON(&r);
	*pk = jnum(r.out, "10.0.0.2", "packets");
	*by = jnum(r.out, "10.0.0.2", "bytes");
	kbctl_free(&r);
}

/* The file at @path, malloc()ed (NULL: none), *@len its size. */
static void *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *b;

	*len = 0;
	if (fd < 0)
		return NULL;
	b = kbctl_slurp(fd, len);
	close(fd);
	return b;
}

/* ---- sketch ---------------------------------------------------------------------- */

TEST_F(pair, sketch_library_then_kbloomctl)
{
	struct kbloom_sketch_xdp_opts so = {
		.geom = { .epsilon_pico = 1000000000ULL,
			  .delta_pico = 10000000000ULL },
	};
	struct kbloom_inst_opts o = inst_opts(self);
	static const __u8 src[4] = { 10, 0, 0, 2 }, other[4] = { 10, 0, 0, 3 };
	struct kbloom_sketch_stats st;
	struct kbloom_inst *in;
	enum kbloom_xdp_mode got;
	__u64 pk, by;
	long long cpk, cby;
	struct kbctl_res r;
	char dir[160];

	ASSERT_EQ(0, kbloom_xdp_sketch_create(self->sk, &o, &so, &in));
	ASSERT_EQ(-EEXIST, kbloom_xdp_sketch_create(self->sk, &o, &so, &in));
	ASSERT_EQ(0, kbloom_inst_attach(in, self->p0, KBLOOM_XDP_MODE_AUTO,
					&got));
	ASSERT_EQ(0, send_udp(self, NUDP));
	ASSERT_EQ(0, kbloom_xdp_sketch_count(in, src, 4, &pk, &by));
	EXPECT_EQ(NUDP, pk);
	EXPECT_EQ(NUDP * FRAME, by);
	ASSERT_EQ(0, kbloom_xdp_sketch_count(in, other, 4, &pk, &by));
	EXPECT_EQ(0, pk);
	ASSERT_EQ(0, kbloom_xdp_sketch_stats(in, &st));
	EXPECT_EQ(NUDP, st.counted);
	EXPECT_EQ(NUDP * FRAME, st.bytes);
	EXPECT_EQ(0, st.dropped);
	/* another process, from the pins: the same numbers */
	ctl_count(_metadata, self->sk, &cpk, &cby);
	EXPECT_EQ(NUDP, cpk);
	EXPECT_EQ(NUDP * FRAME, cby);
	OK(&r, "-j", "sketch", "stats", self->sk);
	EXPECT_EQ(NUDP, jnum(r.out, NULL, "counted"));
	EXPECT_EQ(5, jnum(r.out, NULL, "rows"));
	EXPECT_EQ(2719, jnum(r.out, NULL, "width"));
	kbctl_free(&r);
	OK(&r, "xdp", "status", self->sk, NS_A);
	EXPECT_NE(NULL, strstr(r.out, ": sketch,"));
	EXPECT_NE(NULL, strstr(r.out, "5 rows of 2719 32-bit counters"));
	EXPECT_NE(NULL, strstr(r.out, "10 frames counted"));
	EXPECT_NE(NULL, strstr(r.out, "p0"));
	kbctl_free(&r);
	/* another kind's calls refuse it */
	EXPECT_EQ(-EINVAL, kbloom_xdp_conntrack_stats(in, NULL));
	snprintf(dir, sizeof(dir), "%s", kbloom_inst_dir(in));
	EXPECT_NE(0, xdp_on_p0(self));
	ASSERT_EQ(0, kbloom_inst_destroy(in));
	EXPECT_FALSE(exists(dir));
	EXPECT_FALSE(inst_exists(self->sk));
	EXPECT_EQ(0, xdp_on_p0(self));
}

/* @s saved as an image and loaded: 0 when the copy counts @src alike. */
static int image_round_trip_sketch(const struct kbloom_sketch *s,
				   const __u8 *src)
{
	size_t n = kbloom_sketch_image_size(s), len;
	struct kbloom_sketch *back = NULL;
	void *img = malloc(n);
	int ret = img ? 0 : -ENOMEM;

	ret = ret ?: kbloom_sketch_save(s, img, n, &len);
	ret = ret ?: kbloom_sketch_load(img, len, &back);
	if (!ret && kbloom_sketch_count(back, src, 4) !=
		    kbloom_sketch_count(s, src, 4))
		ret = -EBADMSG;
	kbloom_sketch_free(back);
	free(img);
	return ret;
}

TEST_F(pair, sketch_kbloomctl_then_library)
{
	struct kbloom_inst_opts o = inst_opts(self);
	static const __u8 src[4] = { 10, 0, 0, 2 };
	struct kbloom_sketch_stats st;
	struct kbloom_sketch_stat sst;
	struct kbloom_sketch *s;
	struct kbloom_inst *in;
	long long cpk, cby;
	struct kbctl_res r;
	char path[96];
	__u64 pk, by;
	size_t len;
	void *img;

	snprintf(path, sizeof(path), "/tmp/%s.img", self->sk);
	OK(&r, "xdp", "attach", "sketch", self->sk, "dev", "p0", NS_A,
	   "width", "1024", "rows", "4", "counter-bits", "16", "threshold",
	   "5", "action", "drop");
	kbctl_free(&r);
	/* made already: its size and policy cannot change */
	kbctl_run(&r, "xdp", "attach", "sketch", self->sk, "dev", "p0", NS_A,
		  "rows", "3", "width", "1024");
	EXPECT_SYS(&r, "apply when the instance is made");
	kbctl_free(&r);
	/* and it is not a conntrack */
	kbctl_run(&r, "conntrack", "stats", self->sk);
	EXPECT_SYS(&r, "not conntrack");
	kbctl_free(&r);
	ASSERT_EQ(0, send_udp(self, NUDP));
	ctl_count(_metadata, self->sk, &cpk, &cby);
	EXPECT_EQ(NUDP, cpk);
	EXPECT_EQ(NUDP * FRAME, cby);
	OK(&r, "-j", "sketch", "stats", self->sk);
	EXPECT_EQ(NUDP, jnum(r.out, NULL, "counted"));
	EXPECT_EQ(NUDP - 5, jnum(r.out, NULL, "over"));
	EXPECT_EQ(NUDP - 5, jnum(r.out, NULL, "dropped"));
	EXPECT_EQ(16, jnum(r.out, NULL, "counter_bits"));
	kbctl_free(&r);
	/* this process, from the pins: the same numbers */
	ASSERT_EQ(0, kbloom_xdp_sketch_open(self->sk, &o, &in));
	ASSERT_EQ(0, kbloom_xdp_sketch_count(in, src, 4, &pk, &by));
	EXPECT_EQ(cpk, (long long)pk);
	EXPECT_EQ(cby, (long long)by);
	ASSERT_EQ(0, kbloom_xdp_sketch_stats(in, &st));
	EXPECT_EQ(NUDP - 5, st.dropped);
	/* the rows as a library sketch, and written back */
	ASSERT_EQ(0, kbloom_xdp_sketch_read(in, 0, &s));
	EXPECT_EQ(NUDP, kbloom_sketch_count(s, src, 4));
	EXPECT_EQ(0, image_round_trip_sketch(s, src));
	kbloom_sketch_clear(s);
	ASSERT_EQ(0, kbloom_xdp_sketch_write(in, 0, s));
	ASSERT_EQ(0, kbloom_xdp_sketch_write(in, 1, s));
	kbloom_sketch_free(s);
	ASSERT_EQ(0, kbloom_xdp_sketch_count(in, src, 4, &pk, &by));
	EXPECT_EQ(0, pk);
	kbloom_inst_close(in);
	/* the rows of another process, as an image on standard output */
	ASSERT_EQ(0, kbctl_run_out(&r, path, "sketch", "save", self->sk,
				   "bytes"));
	kbctl_free(&r);
	img = slurp(path, &len);
	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, kbloom_sketch_load(img, len, &s));
	EXPECT_EQ(0, kbloom_sketch_count(s, src, 4));	/* cleared above */
	ASSERT_EQ(0, kbloom_sketch_stat(s, &sst));
	EXPECT_EQ(NUDP * FRAME, sst.total);	/* N: the bytes counted */
	EXPECT_EQ(4, sst.rows);
	kbloom_sketch_free(s);
	free(img);
	unlink(path);
	OK(&r, "xdp", "detach", self->sk);
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->sk));
	EXPECT_EQ(0, xdp_on_p0(self));
}

/* ---- conntrack ------------------------------------------------------------------- */

/* kbloomctl conntrack test NAME 10.0.0.2:@sport 10.0.0.1:80: its exit. */
static int ctl_test(const char *name, int sport)
{
	struct kbctl_res r;
	char src[32];
	int st;

	snprintf(src, sizeof(src), "10.0.0.2:%d", sport);
	st = kbctl_run(&r, "conntrack", "test", name, src, "10.0.0.1:80");
	kbctl_free(&r);
	return st;
}

static void flow_key(struct kbloom_dleft_flow *k, int sport)
{
	__u8 a[16] = { 10, 0, 0, 2 }, b[16] = { 10, 0, 0, 1 };

	kb_dleft_flow_key(k, 4, a, htons(sport), b, htons(80));
}

TEST_F(pair, conntrack_kbloomctl_then_library)
{
	struct kbloom_inst_opts o = inst_opts(self);
	struct kbloom_dleft_xdp_stats st;
	struct kbloom_dleft_params p;
	struct kbloom_dleft_flow k;
	struct kbloom_inst *in;
	struct kbctl_res r;
	char path[96], lnk[128];
	struct stat lst;
	int fd, lfd;
	__u64 n;

	snprintf(path, sizeof(path), "/tmp/%s.img", self->ct);
	OK(&r, "xdp", "attach", "conntrack", self->ct, "dev", "p0", NS_A,
	   "capacity", "4096", "fpr", "0.1%", "mode", "generic");
	kbctl_free(&r);
	EXPECT_EQ(1, ctl_test(self->ct, 40001));
	fd = tcp_flow(self, 40001, &lfd);
	ASSERT_LE(0, fd);
	/* the SYN inserted the flow, of either direction */
	EXPECT_EQ(0, ctl_test(self->ct, 40001));
	OK(&r, "conntrack", "test", self->ct, "10.0.0.1:80", "10.0.0.2:40001");
	EXPECT_NE(NULL, strstr(r.out, "tracked (1 copy)"));
	kbctl_free(&r);
	EXPECT_EQ(1, ctl_test(self->ct, 40002));
	OK(&r, "-j", "conntrack", "stats", self->ct);
	EXPECT_JSON(&r);
	EXPECT_EQ(1, jnum(r.out, NULL, "inserted"));
	EXPECT_LE(1, jnum(r.out, NULL, "hits"));
	EXPECT_EQ(0, jnum(r.out, NULL, "deleted"));
	kbctl_free(&r);
	/* the policy for unknown flows, switched by another process */
	OK(&r, "conntrack", "miss", self->ct, "drop");
	kbctl_free(&r);
	/* this process, from the pins */
	ASSERT_EQ(0, kbloom_xdp_conntrack_open(self->ct, &o, &in));
	ASSERT_EQ(0, kbloom_xdp_conntrack_params(in, &p));
	EXPECT_EQ(KBLOOM_DLEFT_MISS_DROP, p.miss);
	EXPECT_EQ(-EINVAL, kbloom_xdp_conntrack_set_miss(in, 2));
	ASSERT_EQ(0, kbloom_xdp_conntrack_set_miss(in, KBLOOM_DLEFT_MISS_PASS));
	flow_key(&k, 40001);
	ASSERT_EQ(0, kbloom_xdp_conntrack_lookup(in, &k, &n));
	EXPECT_EQ(1, n);
	/* the cells saved by another process while the flow is in, through
	 * a symlink: followed, never replaced (every -o, outfile.c) */
	snprintf(lnk, sizeof(lnk), "%s.lnk", path);
	unlink(lnk);
	ASSERT_EQ(0, symlink(path, lnk));
	OK(&r, "conntrack", "save", self->ct, "-o", lnk);
	kbctl_free(&r);
	EXPECT_EQ(0, lstat(lnk, &lst));
	EXPECT_TRUE(S_ISLNK(lst.st_mode));
	unlink(lnk);
	/* the FIN deletes it */
	close(fd);
	usleep(200000);
	ASSERT_EQ(0, kbloom_xdp_conntrack_lookup(in, &k, &n));
	EXPECT_EQ(0, n);
	EXPECT_EQ(1, ctl_test(self->ct, 40001));
	ASSERT_EQ(0, kbloom_xdp_conntrack_stats(in, &st));
	EXPECT_EQ(1, st.inserted);
	EXPECT_EQ(1, st.deleted);
	EXPECT_EQ(0, st.dropped);
	/* loaded back: the flow is in again; not an image: nothing changes */
	OK(&r, "conntrack", "load", self->ct, "-i", path);
	kbctl_free(&r);
	EXPECT_EQ(0, ctl_test(self->ct, 40001));
	ASSERT_EQ(0, kbctl_write_file(path, "not an image", 12));
	kbctl_run(&r, "conntrack", "load", self->ct, "-i", path);
	EXPECT_SYS(&r, "not a d-left filter's image");
	kbctl_free(&r);
	EXPECT_EQ(0, ctl_test(self->ct, 40001));
	unlink(path);
	kbloom_inst_close(in);
	close(lfd);
	OK(&r, "-j", "xdp", "status", self->ct, NS_A);
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"kind\":\"conntrack\""));
	EXPECT_EQ(0, jnum(r.out, NULL, "flows"));
	EXPECT_EQ(self->p0, jnum(r.out, NULL, "ifindex"));
	EXPECT_NE(NULL, strstr(r.out, "\"mode\":\"generic\""));
	kbctl_free(&r);
	/* detach from p0: the instance stays, not attached */
	OK(&r, "xdp", "detach", self->ct, "dev", "p0", NS_A);
	kbctl_free(&r);
	EXPECT_TRUE(inst_exists(self->ct));
	EXPECT_EQ(0, xdp_on_p0(self));
	OK(&r, "xdp", "detach", self->ct);
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(self->ct));
	EXPECT_EQ(0, xdp_on_p0(self));
}

/* @f saved as an image and loaded: 0 when the copy holds flow @k once. */
static int image_round_trip_dleft(const struct kbloom_dleft *f,
				  const struct kbloom_dleft_flow *k)
{
	size_t n = kbloom_dleft_image_size(f), len;
	struct kbloom_dleft *back = NULL;
	void *img = malloc(n);
	int ret = img ? 0 : -ENOMEM;
	__u64 c = 0;

	ret = ret ?: kbloom_dleft_save(f, img, n, &len);
	ret = ret ?: kbloom_dleft_load(img, len, &back);
	ret = ret ?: kbloom_dleft_count(back, k, sizeof(*k), &c);
	if (!ret && c != 1)
		ret = -EBADMSG;
	kbloom_dleft_destroy(back);
	free(img);
	return ret;
}

TEST_F(pair, conntrack_library_then_kbloomctl)
{
	struct kbloom_conntrack_opts co = {
		.shape = { .type = KBLOOM_TYPE_DLEFT, .tables = 4, .slots = 8,
			   .fp_bits = 12, .counter_bits = 4, .buckets = 256 },
		.filter = { .seed = 7 },
		.miss = KBLOOM_DLEFT_MISS_DROP,
	};
	struct kbloom_inst_opts o = inst_opts(self);
	struct kbloom_dleft_xdp_stats st;
	struct kbloom_dleft_params p;
	struct kbt_log log = { .len = 0 };
	struct kbloom_dleft_flow k;
	struct kbloom_dleft *f, *empty;
	struct kbloom_inst *in;
	enum kbloom_xdp_mode got;
	struct kbctl_res r;
	int fd, lfd;
	__u64 n;

	co.shape.fp_bits = 10;	/* 14-bit cells: refused, nothing made */
	o.log = kbt_log_line;
	o.log_ctx = &log;
	ASSERT_EQ(-EINVAL, kbloom_xdp_conntrack_create(self->ct, &o, &co, &in));
	EXPECT_NE(NULL, strstr(log.text, "loading the tracker failed"));
	EXPECT_FALSE(inst_exists(self->ct));
	co.shape.fp_bits = 12;
	ASSERT_EQ(0, kbloom_xdp_conntrack_create(self->ct, &o, &co, &in));
	ASSERT_EQ(0, kbloom_xdp_conntrack_params(in, &p));
	EXPECT_EQ(KBLOOM_DLEFT_MISS_DROP, p.miss);
	EXPECT_EQ(256, p.shape.buckets);
	ASSERT_EQ(0, kbloom_inst_attach(in, self->p0, KBLOOM_XDP_MODE_AUTO,
					&got));
	/* the SYN inserts the flow, its segments pass */
	fd = tcp_flow(self, 40003, &lfd);
	ASSERT_LE(0, fd);
	flow_key(&k, 40003);
	ASSERT_EQ(0, kbloom_xdp_conntrack_lookup(in, &k, &n));
	EXPECT_EQ(1, n);
	EXPECT_EQ(0, ctl_test(self->ct, 40003));
	OK(&r, "-j", "conntrack", "stats", self->ct);
	EXPECT_EQ(1, jnum(r.out, NULL, "inserted"));
	EXPECT_EQ(0, jnum(r.out, NULL, "dropped"));
	EXPECT_NE(NULL, strstr(r.out, "\"miss\":\"drop\""));
	kbctl_free(&r);
	/* the cells out as a filter and an image, an empty filter in */
	ASSERT_EQ(0, kbloom_xdp_conntrack_export(in, &f));
	ASSERT_EQ(0, kbloom_dleft_count(f, &k, sizeof(k), &n));
	EXPECT_EQ(1, n);
	EXPECT_EQ(0, image_round_trip_dleft(f, &k));
	ASSERT_EQ(0, kbloom_xdp_conntrack_export(in, &empty));
	kbloom_dleft_clear(empty);
	ASSERT_EQ(0, kbloom_xdp_conntrack_import(in, empty));
	EXPECT_EQ(1, ctl_test(self->ct, 40003));
	/* now a segment of the connection is of no known flow: dropped */
	ASSERT_EQ(1, send(fd, "x", 1, 0));
	usleep(100000);
	ASSERT_EQ(0, kbloom_xdp_conntrack_stats(in, &st));
	EXPECT_LE(1, st.misses);
	EXPECT_LE(1, st.dropped);
	ASSERT_EQ(0, kbloom_xdp_conntrack_import(in, f));
	EXPECT_EQ(0, ctl_test(self->ct, 40003));
	kbloom_dleft_destroy(f);
	kbloom_dleft_destroy(empty);
	close(fd);
	close(lfd);
	ASSERT_EQ(0, kbloom_inst_destroy(in));
	EXPECT_FALSE(inst_exists(self->ct));
}

TEST_HARNESS_MAIN
