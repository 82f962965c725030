// SPDX-License-Identifier: GPL-2.0
/*
 * The mcast path with deletable port filters (KBLOOM_XDP_VARIANT_DELETABLE,
 * bpf/kbloom_deletable_mcast.bpf.c), end to end on real frames:
 *
 *            h0   h1   h2        hs (sender)
 *            |    |    |         |
 *           p0   p1   p2        p3      switch namespace
 *
 * Each host's port joins and leaves many groups with the kbloomctl
 * commands (mcast join / mcast leave, IPv4 and IPv6): in each of CYCLES
 * rounds the port's filter (planned for CAPACITY groups at 1%, regions of
 * 4 bits) is rebuilt from its members (a fresh collision bitmap), new
 * groups are joined up to GROUPS members (twice the capacity, so that a
 * third of the leaves need a rebuild), and half of them leave in a random
 * order.  A leave of a deletable group clears its bits
 * in place, any other rewrites the port's filter from its members.
 *  - After every leave command every member tests present (0 false
 *    negatives).
 *  - Then the sender sends to every group ever used: each host receives
 *    every frame of its groups, and a frame of a group it left or never
 *    joined only when the port's filter still answers "possibly present"
 *    for it (a false positive); those are counted, and the port's
 *    tx_leaked says the same number.
 *  - The share of leaves that needed a rebuild (mcast stats) is within
 *    +-10% of the share kbloom_del_predict()'s formula (2) predicts at the
 *    keys each leave found; mcast stats -j reports the same counts.
 * Bad inputs (a geometry a deletable filter cannot have, a leave of a
 * group not joined, a router port) get a clear error and change nothing.
 * A port's filter moves as a version-3 deletable image (kbloomctl map
 * save / map load): the library loads what the port saves, a library
 * image that holds the port's groups comes back byte for byte, one that
 * lacks them gets them before the swap, and an image of another type or
 * a corrupt one is refused and changes nothing.
 * Learning: with the ports in a snooping Linux bridge and kbloomctl mcast
 * sync running, a host's socket joins (IP_ADD_MEMBERSHIP: the kernel's
 * IGMP report, nothing typed) and leaves (IP_DROP_MEMBERSHIP); the join
 * reaches the port's deletable filter and the datagrams the host, the
 * leave clears the group in place (a delete, no rebuild) and the next
 * datagrams are filtered.
 */
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/kbloomctl_xdp_util.h"
#include "tests/bpf/mcast_traffic_util.h"
#include "tests/bpf/mcast_app_util.h"
#include "uapi/kbloom_variants.h"
#include "libkbloom_deletable.h"

#define NHOSTS		3
#define NPORTS		(NHOSTS + 1)
#define SENDER		NHOSTS
#define UNIVERSE	1024U	/* groups a host may use */
#define NGROUPS		(NHOSTS * UNIVERSE)
#define CAPACITY	256U	/* a port's filter: planned for 256 at 1% */
#define GROUPS		512U	/* a port's members after its joins: 2x */
#define LEAVES		(GROUPS / 2)
#define CYCLES		12
#define ROUNDS		2
#define REGION_BITS	4U
#define P_1PCT		10000000000ULL
#define CHUNK		128U	/* groups per kbloomctl command */

FIXTURE(mcd) {
	struct kbt_mcsw s;
	__u8 member[NHOSTS][UNIVERSE];	/* 0 never joined, 1 member, 2 left */
	struct kbt_log log;
	pid_t sync;			/* kbloomctl mcast sync, if started */
};

static int sw_setup(FIXTURE_DATA(mcd) *self)
{
	struct kbloom_xdp_opts o = {
		.variant = KBLOOM_XDP_VARIANT_DELETABLE,
		.geom = { .capacity = CAPACITY, .fpr_pico = P_1PCT,
			  .region_bits = REGION_BITS },
		.log = kbt_log_line, .log_ctx = &self->log,
	};

	unsetenv("KBLOOMCTL_PIN_ROOT");
	return kbt_mcsw_new(&self->s, "mcd", NPORTS, &o);
}

FIXTURE_SETUP(mcd)
{
	int ret;

	if (geteuid())
		SKIP(return, "needs root (BPF, namespaces)");
	ret = sw_setup(self);
	if (ret)
		kbt_mcsw_free(&self->s);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(mcd)
{
	int st;

	if (self->sync > 0) {
		kill(self->sync, SIGTERM);
		waitpid(self->sync, &st, 0);
	}
	kbt_mcsw_free(&self->s);
}

/* Group @g (0..NGROUPS - 1): IPv4 239.1.x.y when even, else ff3e::1:x:y. */
static __u32 group_addr(__u8 a[16], __u32 g)
{
	kbt_group(a, g & 1, g);
	return g & 1 ? 16 : 4;
}

/* Group @i of host @h's universe. */
static __u32 host_group(int h, __u32 i)
{
	return (__u32)h * UNIVERSE + i;
}

/*
 * kbloomctl mcast join|leave NAME p<h> GROUP... for the groups @idx[0..n)
 * (n <= CHUNK) of host @h's universe.  Return: its exit status.
 */
static int ctl_chunk(FIXTURE_DATA(mcd) *self, const char *verb, int h,
		     const __u32 *idx, __u32 n, struct kbctl_res *r)
{
	static char text[CHUNK][INET6_ADDRSTRLEN];
	const char *args[CHUNK + 8];
	char port[8];
	__u32 i, len;
	__u8 a[16];
	int k = 0;

	snprintf(port, sizeof(port), "p%d", h);
	args[k++] = "mcast";
	args[k++] = verb;
	args[k++] = self->s.name;
	args[k++] = port;
	for (i = 0; i < n && i < CHUNK; i++) {
		len = group_addr(a, host_group(h, idx[i]));
		inet_ntop(len == 4 ? AF_INET : AF_INET6, a, text[i],
			  sizeof(text[i]));
		args[k++] = text[i];
	}
	args[k++] = "netns";
	args[k++] = self->s.sw.path;
	args[k] = NULL;
	return kbctl_run_io(r, NULL, NULL, args);
}

/* The same for any number of groups, CHUNK a command, in order. */
static int ctl_groups(FIXTURE_DATA(mcd) *self, const char *verb, int h,
		      const __u32 *idx, __u32 n, struct kbctl_res *r)
{
	__u32 i, c;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < n && !ret; i += c) {
		c = n - i < CHUNK ? n - i : CHUNK;
		kbctl_free(r);
		ret = ctl_chunk(self, verb, h, idx + i, c, r);
	}
	return ret;
}

/* Shuffle @v[0..n) with the generator state @r. */
static void shuffle(__u32 *v, __u32 n, __u64 *r)
{
	__u32 i, j, t;

	for (i = n - 1; i > 0; i--) {
		j = (__u32)(kbt_rand(r) % (i + 1));
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

/* Host @h's members (@want 1) or other groups of its universe into @v. */
static __u32 pick(FIXTURE_DATA(mcd) *self, int h, int want, __u32 *v)
{
	__u32 i, n = 0;

	for (i = 0; i < UNIVERSE; i++)
		if ((self->member[h][i] == 1) == want)
			v[n++] = i;
	return n;
}

/* Every member of host @h tests present in its port's filter. */
static int members_present(FIXTURE_DATA(mcd) *self, int h)
{
	__u32 i, len;
	__u8 a[16];

	for (i = 0; i < UNIVERSE; i++) {
		if (self->member[h][i] != 1)
			continue;
		len = group_addr(a, host_group(h, i));
		if (kbloom_xdp_del_test(self->s.x, self->s.port[h], a, len) != 1)
			return 0;
	}
	return 1;
}

/*
 * One cycle of host @h: its filter rebuilt from its members, new groups
 * joined up to GROUPS, then LEAVES of its members leave in a random order.
 */
static void cycle(struct __test_metadata *_metadata, FIXTURE_DATA(mcd) *self,
		  int h, __u64 *r)
{
	__u32 v[UNIVERSE], n, i;
	struct kbctl_res res;

	ASSERT_EQ(0, kbloom_mcast_port_resize(self->s.x, self->s.port[h], NULL));
	n = pick(self, h, 1, v);
	ASSERT_GE(GROUPS, n);
	i = GROUPS - n;
	n = pick(self, h, 0, v);
	shuffle(v, n, r);
	EXPECT_EQ(0, ctl_groups(self, "join", h, v, i, &res))
		TH_LOG("join: %s", res.err);
	kbctl_free(&res);
	while (i--)
		self->member[h][v[i]] = 1;
	n = pick(self, h, 1, v);
	ASSERT_EQ(GROUPS, n);
	shuffle(v, n, r);
	EXPECT_EQ(0, ctl_groups(self, "leave", h, v, LEAVES, &res))
		TH_LOG("leave: %s", res.err);
	kbctl_free(&res);
	for (i = 0; i < LEAVES; i++)
		self->member[h][v[i]] = 2;
	EXPECT_EQ(1, members_present(self, h)) TH_LOG("host %d lost a member", h);
}

static void stats_all(FIXTURE_DATA(mcd) *self,
		      struct kbloom_mcast_stats st[NPORTS])
{
	int i;

	for (i = 0; i < NPORTS; i++)
		if (kbloom_mcast_stats(self->s.x, self->s.port[i], &st[i]))
			memset(&st[i], 0xff, sizeof(st[i]));
}

/* ROUNDS frames to every group, the hosts' captures counted in @cnt. */
static void send_all(struct __test_metadata *_metadata,
		     FIXTURE_DATA(mcd) *self, __u32 cnt[NPORTS][NGROUPS])
{
	__u8 f[256], dst[16];
	__u32 g, r, len;
	size_t n;
	int tx;

	kbt_mc_drain(self->s.rx, NPORTS, NULL, NGROUPS, 0.05);
	tx = kbt_psock(&self->s.host[SENDER], "eth0");
	ASSERT_LE(0, tx);
	for (r = 0; r < ROUNDS; r++) {
		for (g = 0; g < NGROUPS; g++) {
			len = group_addr(dst, g);
			n = kbt_mc_frame(f, len == 16, dst, g, r, 0);
			EXPECT_EQ((ssize_t)n, send(tx, f, n, 0));
			if (g % 16 == 15)
				usleep(300);
		}
	}
	close(tx);
	kbt_mc_drain(self->s.rx, NPORTS, &cnt[0][0], NGROUPS, 0.3);
}

/*
 * Host @h got every frame of its groups, and of any other group exactly
 * as many as its port's filter lets through (a false positive).  Return:
 * the frames of groups not joined that it got; @left, @left_fp: the
 * groups it left, and those of them still let through.
 */
static __u64 host_check(struct __test_metadata *_metadata,
			FIXTURE_DATA(mcd) *self, int h,
			const __u32 cnt[NGROUPS], __u32 *left, __u32 *left_fp)
{
	__u32 g, len;
	__u64 fp = 0;
	__u8 a[16];
	int t, mine;

	*left = *left_fp = 0;
	for (g = 0; g < NGROUPS; g++) {
		mine = g / UNIVERSE == (__u32)h ? self->member[h][g % UNIVERSE] :
						  0;
		if (mine == 1) {
			EXPECT_EQ(ROUNDS, cnt[g]) TH_LOG("host %d group %u", h, g);
			continue;
		}
		len = group_addr(a, g);
		t = kbloom_xdp_del_test(self->s.x, self->s.port[h], a, len);
		EXPECT_EQ(t ? ROUNDS : 0, cnt[g])
			TH_LOG("host %d group %u (filter says %d)", h, g, t);
		fp += cnt[g];
		*left += mine == 2;
		*left_fp += mine == 2 && t == 1;
	}
	return fp;
}

/* The sums of the ports' leave counts. */
static void shares(struct __test_metadata *_metadata,
		   FIXTURE_DATA(mcd) *self, struct kbloom_del_params *sum)
{
	struct kbloom_xdp_del_info di;
	int h;

	memset(sum, 0, sizeof(*sum));
	for (h = 0; h < NHOSTS; h++) {
		ASSERT_EQ(0, kbloom_xdp_del_info(self->s.x, self->s.port[h], &di));
		EXPECT_EQ(GROUPS - LEAVES, di.params.inserted);
		sum->leaves += di.params.leaves;
		sum->deleted += di.params.deleted;
		sum->rebuilds += di.params.rebuilds;
		sum->predicted_nano += di.params.predicted_nano;
	}
}

TEST_F_TIMEOUT(mcd, join_leave_traffic_rebuild_share, 600)
{
	struct kbloom_mcast_stats st0[NPORTS], st1[NPORTS];
	static __u32 cnt[NPORTS][NGROUPS];
	struct kbloom_xdp_del_info di;
	struct kbloom_del_params sum;
	__u64 r = 0xDE1C457ULL, fp;
	char want_rb[48];
	__u32 left, left_fp;
	double share, want;
	struct kbctl_res res;
	int h, c;

	for (c = 0; c < CYCLES; c++)
		for (h = 0; h < NHOSTS; h++)
			cycle(_metadata, self, h, &r);

	stats_all(self, st0);
	memset(cnt, 0, sizeof(cnt));
	send_all(_metadata, self, cnt);
	stats_all(self, st1);
	for (h = 0; h < NHOSTS; h++) {
		fp = host_check(_metadata, self, h, cnt[h], &left, &left_fp);
		EXPECT_LT(0, left);
		EXPECT_EQ(fp, st1[h].tx_leaked - st0[h].tx_leaked);
		EXPECT_EQ(0, st1[h].tx_errors - st0[h].tx_errors);
		EXPECT_EQ((__u64)ROUNDS * (GROUPS - LEAVES) + fp,
			  st1[h].tx_forwarded - st0[h].tx_forwarded);
		TH_LOG("host %d: %u member groups, every frame; of %u other groups %llu leaked (false positives, %u of the %u it left)",
		       h, GROUPS - LEAVES, NGROUPS - (GROUPS - LEAVES),
		       (unsigned long long)fp / ROUNDS, left_fp, left);
	}

	shares(_metadata, self, &sum);
	ASSERT_EQ((__u64)NHOSTS * CYCLES * LEAVES, sum.leaves);
	EXPECT_EQ(sum.leaves, sum.deleted + sum.rebuilds);
	share = (double)sum.rebuilds / sum.leaves;
	want = sum.predicted_nano / 1e9 / sum.leaves;
	TH_LOG("%llu leaves: %llu in place, %llu rebuilds, rebuild share %.2f%%, kbloom_del_predict() %.2f%% (%+.1f%%)",
	       (unsigned long long)sum.leaves,
	       (unsigned long long)sum.deleted,
	       (unsigned long long)sum.rebuilds, 100 * share, 100 * want,
	       100 * (share / want - 1));
	EXPECT_LE(share, want * 1.1);
	EXPECT_GE(share, want * 0.9);

	/* mcast stats -j says the same */
	ASSERT_EQ(0, kbloom_xdp_del_info(self->s.x, self->s.port[0], &di));
	snprintf(want_rb, sizeof(want_rb), "\"rebuilds\":%llu,",
		 (unsigned long long)di.params.rebuilds);
	EXPECT_EQ(0, kbctl_run(&res, "-j", "mcast", "stats", self->s.name, "p0",
			       "netns", self->s.sw.path)) TH_LOG("%s", res.err);
	EXPECT_JSON(&res);
	EXPECT_NE(NULL, strstr(res.out, want_rb)) TH_LOG("%s", res.out);
	EXPECT_NE(NULL, strstr(res.out, "\"rebuild_share_predicted\":"));
	kbctl_free(&res);
}

/* The numbers a refused call must leave as they were. */
static void snap(struct __test_metadata *_metadata, FIXTURE_DATA(mcd) *self,
		 struct kbloom_xdp_del_info *di)
{
	ASSERT_EQ(0, kbloom_xdp_del_info(self->s.x, self->s.port[0], di));
}

static void same(struct __test_metadata *_metadata,
		 const struct kbloom_xdp_del_info *a,
		 const struct kbloom_xdp_del_info *b)
{
	EXPECT_EQ(0, memcmp(&a->params, &b->params, sizeof(a->params)));
	EXPECT_EQ(a->ones, b->ones);
	EXPECT_EQ(a->collided, b->collided);
}

TEST_F_TIMEOUT(mcd, bad_inputs_change_nothing, 120)
{
	struct kbloom_xdp_geom odd = { .m = 1000, .k = 3 };
	struct kbloom_xdp_geom reg = { .region_bits = 3 };
	struct kbloom_xdp_geom bk = { .m = 1024, .k = 3, .region_bits = 2048 };
	struct kbloom_xdp_opts o = {
		.variant = KBLOOM_XDP_VARIANT_DELETABLE,
		.log = kbt_log_line, .log_ctx = &self->log,
	};
	struct kbloom_xdp_del_info a, b;
	char other[64], ns[80];
	struct kbloom_xdp *y = NULL;
	struct kbctl_res res;
	__u32 idx[2] = { 0, 1 };
	__u8 g[16];
	__u32 len;

	ASSERT_EQ(0, ctl_groups(self, "join", 0, idx, 2, &res));
	kbctl_free(&res);
	self->member[0][0] = self->member[0][1] = 1;
	snap(_metadata, self, &a);

	/* a geometry a deletable filter cannot have: no instance */
	kbt_name(other, sizeof(other), "mcdbad");
	o.netns = self->s.sw.path;
	o.geom = odd;
	EXPECT_EQ(-EINVAL, kbloom_xdp_create(other, KBLOOM_XDP_MCAST, &o, &y));
	EXPECT_NE(NULL, strstr(self->log.text, "not a deletable filter"));
	o.geom = reg;
	EXPECT_EQ(-EINVAL, kbloom_xdp_create(other, KBLOOM_XDP_MCAST, &o, &y));
	EXPECT_NE(NULL, strstr(self->log.text, "region-bits 3"));
	EXPECT_EQ(-EINVAL, kbloom_xdp_create(other, KBLOOM_XDP_GATE, &o, &y));
	EXPECT_NE(NULL, strstr(self->log.text, "for mcast ports only"));
	EXPECT_FALSE(inst_exists(other));

	/* on the switch: refused, nothing changed */
	self->log.len = 0;
	EXPECT_EQ(-EINVAL, kbloom_mcast_port_resize(self->s.x, self->s.port[0],
						    &bk));
	EXPECT_NE(NULL, strstr(self->log.text, "not a deletable filter"));
	len = group_addr(g, host_group(0, 7));
	EXPECT_EQ(-ENOENT, kbloom_mcast_leave(self->s.x, self->s.port[0], g, len));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_mcast_router(self->s.x, self->s.port[0], 1,
						   KBLOOM_MEMBER_STATIC));
	EXPECT_NE(NULL, strstr(self->log.text, "not on a deletable switch"));
	snap(_metadata, self, &b);
	same(_metadata, &a, &b);

	/* the same through kbloomctl: one line naming the field */
	snprintf(ns, sizeof(ns), "%s", self->s.sw.path);
	kbctl_run(&res, "xdp", "attach", "mcast", other, "dev", "p1", "netns",
		  ns, "filter", "deletable", "region-bits", "3");
	EXPECT_USAGE(&res, "region-bits '3': not a power of two");
	kbctl_free(&res);
	kbctl_run(&res, "xdp", "attach", "mcast", other, "dev", "p1", "netns",
		  ns, "filter", "deletable", "bits", "1000", "hashes", "3");
	EXPECT_USAGE(&res, "bits '1000': not a multiple of 64");
	kbctl_free(&res);
	kbctl_run(&res, "xdp", "attach", "gate", other, "dev", "p1", "netns",
		  ns, "filter", "deletable");
	EXPECT_USAGE(&res, "filter deletable: only for mcast");
	kbctl_free(&res);
	kbctl_run(&res, "xdp", "attach", "mcast", other, "dev", "p1", "netns",
		  ns, "region-bits", "8");
	EXPECT_USAGE(&res, "region-bits: only with filter deletable");
	kbctl_free(&res);
	EXPECT_FALSE(inst_exists(other));
	kbctl_run(&res, "mcast", "leave", self->s.name, "p0", "239.1.0.7",
		  "netns", ns);
	EXPECT_SYS(&res, "not joined");
	kbctl_free(&res);
	snap(_metadata, self, &b);
	same(_metadata, &a, &b);
	EXPECT_EQ(1, members_present(self, 0));
}

/* ---- images: map save, map load ----------------------------------------- */

/* An image of @len bytes into a new file @path: 0 or -1. */
static int file_put(const char *path, const void *b, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ret = f && fwrite(b, 1, len, f) == len ? 0 : -1;

	if (f && fclose(f))
		ret = -1;
	return ret;
}

/* An image in memory: its bytes and length. */
struct img {
	void *b;
	size_t len;
};

/*
 * A library filter planned as the ports are, holding groups [@from, @to)
 * of host 0's universe, saved (no name) into @m and the file @path.
 */
static int lib_image(const char *path, __u32 from, __u32 to, struct img *m)
{
	struct kbloom_del *f;
	__u32 g;
	__u8 a[16];
	int ret;

	free(m->b);
	memset(m, 0, sizeof(*m));
	ret = kbloom_del_create(CAPACITY, P_1PCT, REGION_BITS, NULL, &f);
	if (ret)
		return ret;
	for (g = from; !ret && g < to; g++)
		ret = kbloom_del_add(f, a, group_addr(a, host_group(0, g)));
	ret = ret ?: kbloom_del_save_alloc(f, &m->b, &m->len);
	ret = ret ?: file_put(path, m->b, m->len);
	kbloom_del_destroy(f);
	return ret;
}

/* kbloomctl map save PIN -o -: the image in @r's output. */
static void map_save(struct __test_metadata *_metadata, const char *pin,
		     struct kbctl_res *r)
{
	OK(r, "map", "save", pin, "-o", "-");
	ASSERT_LT(0, (int)r->out_len);
}

/* Port 0's image, as kbloomctl map save writes it, in the library. */
static void port_image_loads(struct __test_metadata *_metadata,
			     FIXTURE_DATA(mcd) *self, const char *pin)
{
	struct kbloom_xdp_del_info di;
	struct kbloom_del_stats st;
	struct kbloom_del *f = NULL;
	__u32 i, len, bad = 0;
	struct kbctl_res r;
	__u8 a[16];

	map_save(_metadata, pin, &r);
	ASSERT_EQ(0, kbloom_del_load(r.out, r.out_len, &f));
	kbctl_free(&r);
	ASSERT_EQ(0, kbloom_xdp_del_info(self->s.x, self->s.port[0], &di));
	ASSERT_EQ(0, kbloom_del_stats(f, &st));
	EXPECT_EQ(0, memcmp(&st.shape, &di.params.shape, sizeof(st.shape)));
	EXPECT_EQ(di.params.inserted, st.inserted);
	EXPECT_EQ(di.ones, st.ones);
	EXPECT_EQ(di.collided, st.collided);
	for (i = 0; i < UNIVERSE; i++) {
		len = group_addr(a, host_group(0, i));
		bad += kbloom_del_test(f, a, len) !=
		       kbloom_xdp_del_test(self->s.x, self->s.port[0], a, len);
	}
	EXPECT_EQ(0, bad);
	kbloom_del_destroy(f);
}

/*
 * A corrupt copy of @m (a payload bit: the CRC fails) into @bad, a
 * blocked filter's image into @blk (and both files).
 */
static int bad_images(const struct img *m, const char *pbad, struct img *bad,
		      const char *pblk, struct img *blk)
{
	struct kbloom_filter *f;
	int ret;

	bad->b = malloc(m->len);
	if (!bad->b)
		return -1;
	memcpy(bad->b, m->b, m->len);
	bad->len = m->len;
	((__u8 *)bad->b)[m->len - 1] ^= 0x10;
	ret = file_put(pbad, bad->b, bad->len);
	ret = ret ?: kbloom_create(KBLOOM_TYPE_BLOCKED, 100, P_1PCT, NULL, &f);
	if (ret)
		return ret;
	ret = kbloom_save_alloc(f, &blk->b, &blk->len);
	ret = ret ?: file_put(pblk, blk->b, blk->len);
	kbloom_destroy(f);
	return ret;
}

/* The refusals of map load: nothing changes, one line each. */
static void images_refused(struct __test_metadata *_metadata,
			   FIXTURE_DATA(mcd) *self, const char *dir,
			   const char *pin, const struct img *m)
{
	struct img bad = { 0 }, blk = { 0 };
	struct kbloom_xdp_del_info a, b;
	char pbad[96], pblk[96];
	struct kbctl_res r;
	__u32 id = self->s.port[0];

	snprintf(pbad, sizeof(pbad), "%s/bad.img", dir);
	snprintf(pblk, sizeof(pblk), "%s/blocked.img", dir);
	ASSERT_EQ(0, bad_images(m, pbad, &bad, pblk, &blk));
	snap(_metadata, self, &a);
	kbctl_run(&r, "map", "load", pin, "-i", pblk);
	EXPECT_SYS(&r, "a blocked filter image: this is a deletable filter");
	kbctl_free(&r);
	kbctl_run(&r, "map", "load", pin, "-i", pbad);
	EXPECT_SYS(&r, "bad checksum");
	kbctl_free(&r);
	EXPECT_EQ(-EBADMSG, kbloom_xdp_del_load_image(self->s.x, id, bad.b,
						      bad.len));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_xdp_del_load_image(self->s.x, id, blk.b,
							 blk.len));
	snap(_metadata, self, &b);
	same(_metadata, &a, &b);
	unlink(pbad);
	unlink(pblk);
	free(bad.b);
	free(blk.b);
}

TEST_F_TIMEOUT(mcd, map_save_load_images, 120)
{
	char dir[64], path[96], pin[160], text[INET6_ADDRSTRLEN];
	struct kbloom_xdp_del_info a, b;
	struct img m = { 0 };
	struct kbctl_res r;
	__u32 idx[8], i;
	__u8 g[16];

	snprintf(dir, sizeof(dir), "/tmp/kbt%d-XXXXXX", (int)getpid());
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/lib.img", dir);
	snprintf(pin, sizeof(pin), "%s/%s/filter_%d", KBT_PIN_ROOT,
		 self->s.name, self->s.port[0]);
	for (i = 0; i < 8; i++) {
		idx[i] = i;
		self->member[0][i] = 1;
	}
	ASSERT_EQ(0, ctl_groups(self, "join", 0, idx, 8, &r));
	kbctl_free(&r);

	/* what the port saves, the library loads: the same answers */
	port_image_loads(_metadata, self, pin);

	/* an image holding the port's groups and 24 more: back byte for byte */
	ASSERT_EQ(0, lib_image(path, 0, 32, &m));
	OK(&r, "map", "load", pin, "-i", path);
	kbctl_free(&r);
	map_save(_metadata, pin, &r);
	EXPECT_EQ(m.len, r.out_len);
	EXPECT_EQ(0, memcmp(m.b, r.out, m.len < r.out_len ? m.len : r.out_len));
	kbctl_free(&r);
	group_addr(g, host_group(0, 20));
	inet_ntop(AF_INET, g, text, sizeof(text));
	OK(&r, "map", "test", pin, text);
	kbctl_free(&r);

	/* an image without them: the port's groups added before the swap */
	snap(_metadata, self, &a);
	ASSERT_EQ(0, lib_image(path, 100, 104, &m));
	OK(&r, "map", "load", pin, "-i", path);
	kbctl_free(&r);
	snap(_metadata, self, &b);
	EXPECT_EQ(4 + 8, b.params.inserted);
	EXPECT_EQ(a.params.gen + 1, b.params.gen);
	EXPECT_EQ(a.params.leaves, b.params.leaves);
	EXPECT_EQ(1, members_present(self, 0));
	EXPECT_EQ(0, kbloom_xdp_del_test(self->s.x, self->s.port[0], g, 4));

	/* a leave from the loaded filter: in place or rebuilt, never a miss */
	ASSERT_EQ(0, ctl_groups(self, "leave", 0, idx, 1, &r));
	kbctl_free(&r);
	self->member[0][0] = 2;
	EXPECT_EQ(1, members_present(self, 0));
	snap(_metadata, self, &b);
	EXPECT_EQ(a.params.leaves + 1, b.params.leaves);

	images_refused(_metadata, self, dir, pin, &m);
	free(m.b);
	unlink(path);
	rmdir(dir);
}

/* ---- learning from sockets: a bridge, mcast sync ------------------------- */

#define LEAVE_CS	20	/* the bridge's mcast_last_member_interval */
#define LEAVE_COUNT	2	/* ... and mcast_last_member_count */
#define LEARN_S		3.0	/* a join or leave reaches the filter within */

/*
 * The ports in bridge br0 (snooping, no querier, quick leaves), the hosts
 * addressed 10.9.0.<i + 1>, the sender's checksum offload off, then
 * kbloomctl mcast sync in the background: its pid.
 */
static pid_t learn_setup(FIXTURE_DATA(mcd) *self)
{
	int i, null;
	pid_t pid;

	if (kbt_sh(&self->s.sw, "ip link add br0 type bridge mcast_snooping 1 mcast_querier 0 mcast_last_member_interval %d mcast_last_member_count %d",
		   LEAVE_CS, LEAVE_COUNT) ||
	    kbt_sh(&self->s.sw, "ip link set dev br0 up"))
		return -1;
	for (i = 0; i < NPORTS; i++)
		if (kbt_sh(&self->s.sw, "ip link set dev p%d master br0", i) ||
		    kbt_sh(&self->s.host[i], "ip addr add 10.9.0.%d/24 dev eth0",
			   i + 1))
			return -1;
	if (kbt_tx_csum_off(&self->s.host[SENDER], "eth0"))
		return -1;
	pid = fork();
	if (!pid) {
		null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		kbctl_exec((const char *const[]){ "mcast", "sync", self->s.name,
			"bridge", "br0", "netns", self->s.sw.path, NULL });
	}
	return pid;
}

/* Wait until port @h's filter answers @want for @g: seconds, -1 at LEARN_S. */
static double learn_wait(FIXTURE_DATA(mcd) *self, int h, const __u8 *g,
			 int want)
{
	double t0 = kbt_now();

	while (kbloom_xdp_del_test(self->s.x, self->s.port[h], g, 4) != want) {
		if (kbt_now() - t0 > LEARN_S)
			return -1;
		usleep(10000);
	}
	return kbt_now() - t0;
}

/* @n datagrams of @id from the sender to @g; what reached socket @rx. */
static int learn_send(FIXTURE_DATA(mcd) *self, int tx, int rx,
		      const __u8 *g, __u32 id, int n)
{
	int i;

	for (i = 0; i < n; i++)
		kbt_app_send(tx, 0, g, KBT_APP_PORT, id, i);
	usleep(200000);
	return kbt_app_count(rx, id);
}

TEST_F_TIMEOUT(mcd, socket_join_leave_learned, 60)
{
	static const __u8 g[4] = { 239, 9, 0, 1 };
	struct kbloom_mcast_stats sa, sb;
	struct kbloom_xdp_del_info a, b;
	struct ip_mreqn m = { 0 };
	int tx, rx, n = 20;
	double t;

	self->sync = learn_setup(self);
	ASSERT_LT(0, self->sync);
	tx = kbt_app_tx(&self->s.host[SENDER], 0);
	ASSERT_LE(0, tx);
	ASSERT_EQ(0, kbloom_xdp_del_info(self->s.x, self->s.port[1], &a));

	/* h1's socket joins: the report, the bridge, sync, the filter */
	rx = kbt_app_rx(&self->s.host[1], 0, g, KBT_APP_PORT);
	ASSERT_LE(0, rx);
	t = learn_wait(self, 1, g, 1);
	EXPECT_LE(0, t) TH_LOG("the join never reached the filter");
	ksft_print_msg("join learned %.3f s after IP_ADD_MEMBERSHIP\n", t);
	fflush(stdout);
	usleep(50000);
	EXPECT_EQ(n, learn_send(self, tx, rx, g, 301, n));
	ASSERT_EQ(0, kbloom_xdp_del_info(self->s.x, self->s.port[1], &b));
	EXPECT_EQ(a.params.inserted + 1, b.params.inserted);

	/* it leaves: the group's bits cleared in place, no rebuild */
	m.imr_multiaddr.s_addr = *(const __u32 *)g;
	m.imr_ifindex = kbt_ifindex(&self->s.host[1], "eth0");
	ASSERT_EQ(0, setsockopt(rx, IPPROTO_IP, IP_DROP_MEMBERSHIP, &m,
				sizeof(m)));
	t = learn_wait(self, 1, g, 0);
	EXPECT_LE(0, t) TH_LOG("the leave never cleared the filter");
	ksft_print_msg("leave cleared %.3f s after IP_DROP_MEMBERSHIP (bridge leave time %.1f s)\n",
		       t, LEAVE_COUNT * LEAVE_CS / 100.0);
	fflush(stdout);
	usleep(50000);
	a = b;
	ASSERT_EQ(0, kbloom_xdp_del_info(self->s.x, self->s.port[1], &b));
	EXPECT_EQ(a.params.leaves + 1, b.params.leaves);
	EXPECT_EQ(a.params.deleted + 1, b.params.deleted);
	EXPECT_EQ(a.params.rebuilds, b.params.rebuilds);
	EXPECT_EQ(a.params.gen, b.params.gen);	/* same filter, in place */
	EXPECT_EQ(a.params.inserted - 1, b.params.inserted);
	ASSERT_EQ(0, kbloom_mcast_stats(self->s.x, self->s.port[1], &sa));
	EXPECT_EQ(0, learn_send(self, tx, rx, g, 302, n));
	ASSERT_EQ(0, kbloom_mcast_stats(self->s.x, self->s.port[1], &sb));
	EXPECT_EQ(n, sb.tx_filtered - sa.tx_filtered);
	EXPECT_EQ(0, sb.tx_forwarded - sa.tx_forwarded);

	close(rx);
	close(tx);
}

/* bpftool's dump of pin @pin of the switch into @out (NUL-terminated). */
static int dump(FIXTURE_DATA(mcd) *self, const char *pin, char *out,
		size_t size)
{
	char cmd[256];
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "bpftool map dump pinned %s/%s/%s 2>&1",
		 KBT_PIN_ROOT, self->s.name, pin);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, size - 1, p);
	out[n] = 0;
	return pclose(p);
}

TEST_F_TIMEOUT(mcd, bpftool_dump_typed, 60)
{
	static char out[1 << 16];
	__u32 idx[3] = { 0, 1, 2 };
	struct kbctl_res res;
	char pin[32];

	ASSERT_EQ(0, ctl_groups(self, "join", 0, idx, 3, &res));
	kbctl_free(&res);
	/* the port's parameters by field, its blocks as words */
	ASSERT_EQ(0, dump(self, "mc_deletable", out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\"shape\": {"));
	EXPECT_NE(NULL, strstr(out, "\"buckets\": 4"));
	EXPECT_NE(NULL, strstr(out, "\"predicted_nano\": "));
	EXPECT_NE(NULL, strstr(out, "\"inserted\": 3"));
	snprintf(pin, sizeof(pin), "filter_%d", self->s.port[0]);
	ASSERT_EQ(0, dump(self, pin, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\"w\": ["));
}

TEST_HARNESS_MAIN
