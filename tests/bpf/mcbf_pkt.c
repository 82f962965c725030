// SPDX-License-Identifier: GPL-2.0
/*
 * The mcbf path on synthetic frames (BPF_PROG_TEST_RUN).
 *
 * An mcbf instance in a private namespace with three ports: p0 (the
 * sender's, a filter with no group), p1 (a class table of k 2, 4, 8, -,
 * 16 for classes 0..4, class 3 unused, 1024 bits, some groups of every
 * used class) and p2 (k 6, 1, -, 3, 512 bits filled to all ones by the
 * groups of classes 0, 1 and 3; class 2 unused).  kbloom_mcbf_check (the
 * egress decision as a plain XDP program) must answer as the control
 * plane's kb_mcbf_test() for thousands of groups of every class, IPv4 and
 * IPv6: the class of the address picks k, an unused class is never a
 * member (even in a filter of all ones); replacing a port's filter and
 * class table switches both at once; every truncation of a multicast
 * frame is never forwarded and never XDP_ABORTED; two processes joining
 * groups on one port at once (kbloom_mcbf_port_update) lose none.
 */
#include <sys/wait.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/mcbf_util.h"

#define NPORTS	3
#define NG1	60

FIXTURE(mpkt) {
	char name[64];
	struct kbt_ns ns;
	int saved;
	struct kbloom_net *n;
	int ifindex[NPORTS];
	int ingress, check;
	struct kbloom_mcbf_spec spec[NPORTS];
	struct kb_mcbf *f[NPORTS];	/* the control plane's copies */
	__u64 rng;
};

static void mp_cleanup(FIXTURE_DATA(mpkt) *self)
{
	int i;

	for (i = 0; i < NPORTS; i++) {
		kb_mcbf_free(self->f[i]);
		self->f[i] = NULL;
	}
	kbloom_net_close(self->n);
	self->n = NULL;
	if (self->name[0])
		kbt_unpin(self->name);
	if (self->saved > 0)
		kbt_ns_leave(self->saved);
	self->saved = 0;
	kbt_ns_free(&self->ns);
}

/* The class of p1's group @i: 0, 1, 2 and 4 (every seventh). */
static __u32 p1_class(__u32 i)
{
	return i % 7 == 0 ? 4 : (i / 2) % 3;
}

static int mp_setup(FIXTURE_DATA(mpkt) *self)
{
	static const __u8 k1[KB_MCBF_CLASSES] = { 2, 4, 8, 0, 16 };
	static const __u8 k2[KB_MCBF_CLASSES] = { 6, 1, 0, 3 };
	struct kbloom_addr_key g[2000];
	__u32 i, ng;
	int ret;

	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "mcpkt");
	self->rng = 0x3cbf;
	if (kbt_ns_quiet(&self->ns) || kbt_ns_enter(&self->ns, &self->saved))
		return -1;
	if (kbt_veth_ports(&self->ns, NPORTS, self->ifindex))
		return -1;
	ret = kbloom_net_create(self->name, KBLOOM_NET_MCBF, NULL, &self->n);
	if (ret)
		return ret;
	/* p0: the sender's port, no group */
	self->spec[0].m = 512;
	self->spec[0].classes.k[0] = 1;
	self->spec[0].seed = 1;
	/* p1: NG1 groups spread over the used classes */
	self->spec[1].m = 1024;
	self->spec[1].seed = 2;
	memcpy(self->spec[1].classes.k, k1, sizeof(k1));
	/* p2: saturated */
	self->spec[2].m = 512;
	self->spec[2].seed = 3;
	self->spec[2].hash_id = KBLOOM_HASH_SIPHASH13;
	memcpy(self->spec[2].classes.k, k2, sizeof(k2));
	for (i = 0; i < NPORTS; i++) {
		ng = 0;
		if (i == 1)
			for (ng = 0; ng < NG1; ng++)
				mcbf_group(&g[ng], ng & 1, p1_class(ng), ng);
		if (i == 2)
			for (ng = 0; ng < 2000; ng++)
				mcbf_group(&g[ng], ng & 1,
					   ng % 3 == 2 ? 3 : ng % 3, ng);
		self->f[i] = mcbf_build(&self->spec[i], g, ng);
		if (!self->f[i])
			return -1;
		ret = i == 1 ?
		      kbloom_mcbf_port_build(self->n, self->ifindex[i],
					     &self->spec[i], g, ng) :
		      kbloom_mcbf_port_load(self->n, self->ifindex[i],
					    &self->spec[i], self->f[i]);
		ret = ret ?: kbloom_net_attach(self->n, self->ifindex[i],
					       KBLOOM_XDP_MODE_NATIVE, NULL);
		if (ret)
			return ret;
	}
	self->ingress = kbloom_net_prog_fd(self->n, KBLOOM_NET_PROG_INGRESS);
	self->check = kbloom_net_prog_fd(self->n, KBLOOM_NET_PROG_CHECK);
	return self->ingress > 0 && self->check > 0 ? 0 : -1;
}

FIXTURE_SETUP(mpkt)
{
	int ret = mp_setup(self);

	if (ret)
		mp_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(mpkt)
{
	mp_cleanup(self);
}

static const struct kbt_payload pl = { KBT_MAGIC, 1, 2, 3 };

static int check(FIXTURE_DATA(mpkt) *self, __u32 port,
		 const struct kbloom_addr_key *k, __u32 *ret)
{
	__u8 f[256];
	size_t len = mcbf_frame(f, k, &pl);

	return ipbf_run(self->check, f, len, self->ifindex[port], NULL, NULL,
			ret);
}

TEST_F(mpkt, decisions_equal_kb_mcbf)
{
	__u32 i, p, cls, ret, pass[NPORTS] = {}, used2 = 0, unused = 0;
	struct kbloom_addr_key k;
	int want;

	for (i = 0; i < 6000; i++) {
		cls = kbt_rand(&self->rng) % KB_MCBF_CLASSES;
		mcbf_group(&k, i & 1, cls, kbt_rand(&self->rng) % 100000);
		for (p = 0; p < NPORTS; p++) {
			want = mcbf_test_key(self->f[p], &k);
			ASSERT_LE(0, want);
			ASSERT_EQ(0, check(self, p, &k, &ret));
			ASSERT_EQ(want ? XDP_PASS : XDP_DROP, ret)
				TH_LOG("group %u class %u port %u", i, cls, p);
			pass[p] += want;
			if (!self->spec[p].classes.k[cls])
				unused++;
		}
		used2 += !!self->spec[2].classes.k[cls];
	}
	TH_LOG("6000 random groups: kept on p0 %u, p1 %u, p2 %u; %u tests of an unused class",
	       pass[0], pass[1], pass[2], unused);
	EXPECT_EQ(0, pass[0]);		/* an empty filter */
	EXPECT_LT(0, pass[1]);		/* false positives of p1 */
	EXPECT_EQ(used2, pass[2]);	/* all ones: the used classes */
	EXPECT_LT(6000, unused);
}

TEST_F(mpkt, members_pass_unused_class_never)
{
	struct kbloom_addr_key k;
	__u32 i, cls, ret;

	/* every member of p1 passes */
	for (i = 0; i < NG1; i++) {
		mcbf_group(&k, i & 1, p1_class(i), i);
		ASSERT_EQ(1, mcbf_test_key(self->f[1], &k));
		ASSERT_EQ(0, check(self, 1, &k, &ret));
		EXPECT_EQ(XDP_PASS, ret);
	}
	/* p2's filter is all ones; its classes 2, 4..15 are unused */
	EXPECT_EQ(512, kb_mcbf_ones(self->f[2]));
	for (i = 0; i < 400; i++) {
		cls = i % KB_MCBF_CLASSES;
		mcbf_group(&k, i & 1, cls, 7 * i);
		ASSERT_EQ(0, check(self, 2, &k, &ret));
		EXPECT_EQ(self->spec[2].classes.k[cls] ? XDP_PASS : XDP_DROP,
			  ret) TH_LOG("class %u", cls);
	}
}

/*
 * Link-local groups are flooded on mcbf too (the shared switch header):
 * p0's filter is empty, yet it keeps 224.0.0.251 and ff02::1:ff00:1,
 * unless they are filtered as groups; ff05::1 (site scope) is a group.
 */
TEST_F(mpkt, link_local_flooded)
{
	struct kbloom_addr_key k[3] = {
		{ 4, { 224, 0, 0, 251 } },
		{ 16, { 0xff, 2, [11] = 1, [12] = 0xff, [15] = 1 } },
		{ 16, { 0xff, 5, [15] = 1 } },
	};
	__u32 i, ret, flags;

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, check(self, 0, &k[i], &ret));
		EXPECT_EQ(i < 2 ? XDP_PASS : XDP_DROP, ret) TH_LOG("%u", i);
	}
	ASSERT_EQ(0, kbloom_mcbf_set_flags(self->n, KBLOOM_MCBF_F_AUDIT |
					   KBLOOM_MCBF_F_LOCAL_FILTER));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, check(self, 0, &k[i], &ret));
		EXPECT_EQ(XDP_DROP, ret) TH_LOG("%u", i);
	}
	EXPECT_EQ(-EINVAL, kbloom_mcbf_set_flags(self->n,
		  KBLOOM_MCAST_F_LOCAL_MASK));
	ASSERT_EQ(0, kbloom_mcbf_get_flags(self->n, &flags));
	EXPECT_EQ(KBLOOM_MCBF_F_AUDIT | KBLOOM_MCBF_F_LOCAL_FILTER, flags);
}

TEST_F(mpkt, replace_filter_and_classes_together)
{
	struct kbloom_mcbf_spec s = self->spec[1];
	struct kbloom_mcbf_port before, after;
	struct kbloom_addr_key k[3];
	struct kb_mcbf *f;
	__u32 ret, i;

	ASSERT_EQ(0, kbloom_mcbf_port_get(self->n, self->ifindex[1], &before));
	EXPECT_EQ(1, before.p.gen);
	EXPECT_EQ(2, before.p.nblocks);
	EXPECT_EQ(16, before.p.k);
	EXPECT_EQ(0, memcmp(&before.cls, &self->spec[1].classes,
			    sizeof(before.cls)));
	/* class 3 used now, class 0 unused; three groups */
	s.classes.k[0] = 0;
	s.classes.k[3] = 5;
	s.m = 2048;
	mcbf_group(&k[0], 0, 3, 77);
	mcbf_group(&k[1], 1, 3, 78);
	mcbf_group(&k[2], 0, 1, 79);
	f = mcbf_build(&s, k, 3);
	ASSERT_NE(NULL, f);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, check(self, 1, &k[i], &ret));
		/* class 3 is unused in the old table */
		EXPECT_EQ(mcbf_test_key(self->f[1], &k[i]) ? XDP_PASS :
			  XDP_DROP, ret);
	}
	ASSERT_EQ(0, kbloom_mcbf_port_load(self->n, self->ifindex[1], &s, f));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, check(self, 1, &k[i], &ret));
		EXPECT_EQ(XDP_PASS, ret);
	}
	/* the old class-0 members: their class is unused now */
	mcbf_group(&k[0], 0, 0, 0);
	ASSERT_EQ(0, check(self, 1, &k[0], &ret));
	EXPECT_EQ(XDP_DROP, ret);
	ASSERT_EQ(0, kbloom_mcbf_port_get(self->n, self->ifindex[1], &after));
	EXPECT_EQ(2, after.p.gen);
	EXPECT_EQ(before.p.slot ^ 1, after.p.slot);
	EXPECT_EQ(before.p.index, after.p.index);
	EXPECT_EQ(4, after.p.nblocks);
	kb_mcbf_free(f);
}

TEST_F(mpkt, every_truncation)
{
	struct kbloom_mcbf_stats s0, s1;
	struct kbloom_addr_key k;
	__u8 f[256];
	__u32 v6, len, cut, ret, p, cuts = 0;

	ASSERT_EQ(0, kbloom_mcbf_stats(self->n, self->ifindex[0], &s0));
	for (v6 = 0; v6 < 2; v6++) {
		mcbf_group(&k, v6, 0, 1);	/* a p2 "member": all ones */
		len = mcbf_frame(f, &k, &pl);
		for (cut = 14; cut <= len; cut++) {
			ASSERT_EQ(0, ipbf_run(self->ingress, f, cut,
					      self->ifindex[0], NULL, NULL,
					      &ret));
			cuts++;
			EXPECT_NE(XDP_ABORTED, ret);
			EXPECT_EQ(cut < len ? XDP_PASS : XDP_REDIRECT, ret)
				TH_LOG("v6 %u cut %u of %u", v6, cut, len);
			for (p = 1; p < NPORTS; p++) {
				ASSERT_EQ(0, ipbf_run(self->check, f, cut,
						      self->ifindex[p], NULL,
						      NULL, &ret));
				EXPECT_NE(XDP_ABORTED, ret);
				if (cut < len)
					EXPECT_EQ(XDP_DROP, ret);
			}
		}
	}
	ASSERT_EQ(0, kbloom_mcbf_stats(self->n, self->ifindex[0], &s1));
	ipbf_delta(&s0, &s1, sizeof(s1));
	EXPECT_EQ(cuts, s0.rx_packets);
	EXPECT_EQ(2, s0.rx_mcast);
	EXPECT_EQ(cuts - 2, s0.rx_malformed);
}

/* Child @id of update_never_loses_joins: joins its NJOIN groups one by one. */
#define NJOIN	40
static int join_child(const char *name, int ifindex, __u32 id)
{
	struct kbloom_addr_key k;
	struct kbloom_net *n;
	__u32 i;
	int ret;

	ret = kbloom_net_open(name, NULL, &n);
	for (i = 0; !ret && i < NJOIN; i++) {
		mcbf_group(&k, i & 1, i % 3, id * 1000 + i);
		ret = kbloom_mcbf_port_update(n, ifindex, &k, 1, 0);
	}
	kbloom_net_close(n);
	return ret ? 1 : 0;
}

TEST_F(mpkt, update_never_loses_joins)
{
	struct kbloom_addr_key k, got[2 * NJOIN + NG1 + 1];
	__u32 i, id, ret, in = self->ifindex[1];
	int status, nbefore;
	pid_t pid[2];

	nbefore = kbloom_mcbf_groups(self->n, in, got, 0);
	ASSERT_EQ(NG1, nbefore);
	/* two writers at once, read-modify-write of the same port */
	for (id = 0; id < 2; id++) {
		pid[id] = fork();
		ASSERT_LE(0, pid[id]);
		if (!pid[id])
			_exit(join_child(self->name, in, id + 1));
	}
	for (id = 0; id < 2; id++) {
		ASSERT_EQ(pid[id], waitpid(pid[id], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	}
	EXPECT_EQ(NG1 + 2 * NJOIN,
		  kbloom_mcbf_groups(self->n, in, got, ARRAY_SIZE(got)));
	/* every group of both writers and the first NG1 pass the filter */
	for (id = 1; id <= 2; id++)
		for (i = 0; i < NJOIN; i++) {
			mcbf_group(&k, i & 1, i % 3, id * 1000 + i);
			ASSERT_EQ(0, check(self, 1, &k, &ret));
			EXPECT_EQ(XDP_PASS, ret) TH_LOG("writer %u group %u",
							id, i);
		}
	for (i = 0; i < NG1; i++) {
		mcbf_group(&k, i & 1, p1_class(i), i);
		ASSERT_EQ(0, check(self, 1, &k, &ret));
		EXPECT_EQ(XDP_PASS, ret);
	}
	/* joined again / not joined: refused unless EXIST; leave rebuilds */
	mcbf_group(&k, 0, 0, 1000);
	EXPECT_EQ(-EEXIST, kbloom_mcbf_port_update(self->n, in, &k, 1, 0));
	EXPECT_EQ(0, kbloom_mcbf_port_update(self->n, in, &k, 1,
					     KBLOOM_MCBF_UPD_EXIST));
	EXPECT_EQ(0, kbloom_mcbf_port_update(self->n, in, &k, 1,
					     KBLOOM_MCBF_UPD_LEAVE));
	EXPECT_EQ(-ENOENT, kbloom_mcbf_port_update(self->n, in, &k, 1,
						   KBLOOM_MCBF_UPD_LEAVE));
	EXPECT_EQ(NG1 + 2 * NJOIN - 1,
		  kbloom_mcbf_groups(self->n, in, got, ARRAY_SIZE(got)));
}

TEST_F(mpkt, bad_input_changes_nothing)
{
	struct kbloom_mcbf_spec s = self->spec[1];
	struct kbloom_mcbf_port before, after;
	struct kbloom_addr_key k;
	__u8 uni[4] = { 10, 0, 0, 1 };

	ASSERT_EQ(0, kbloom_mcbf_port_get(self->n, self->ifindex[1], &before));
	s.m = 1000;
	EXPECT_EQ(-ERANGE, kbloom_mcbf_port_load(self->n, self->ifindex[1],
						 &s, self->f[1]));
	s = self->spec[1];
	memset(&s.classes, 0, sizeof(s.classes));
	EXPECT_EQ(-EINVAL, kbloom_mcbf_port_build(self->n, self->ifindex[1],
						  &s, NULL, 0));
	s.classes.k[0] = 33;
	EXPECT_EQ(-ERANGE, kbloom_mcbf_port_build(self->n, self->ifindex[1],
						  &s, NULL, 0));
	/* a filter that is not of the spec */
	s = self->spec[1];
	s.classes.k[0] = 3;
	EXPECT_EQ(-EINVAL, kbloom_mcbf_port_load(self->n, self->ifindex[1],
						 &s, self->f[1]));
	/* a group of an unused class (3 on p1) */
	mcbf_group(&k, 0, 3, 5);
	EXPECT_EQ(-EINVAL, kbloom_mcbf_port_build(self->n, self->ifindex[1],
						  &self->spec[1], &k, 1));
	EXPECT_EQ(-EINVAL, kbloom_mcbf_member_add(self->n, self->ifindex[1],
						  uni, 4));
	EXPECT_EQ(-ENODEV, kbloom_mcbf_port_build(self->n, 999999,
						  &self->spec[1], NULL, 0));
	/* an update with a group of an unused class, a unicast address, a
	 * bad flag or an unknown port: refused whole
	 */
	{
		struct kbloom_addr_key two[2];

		mcbf_group(&two[0], 0, 0, 77777);
		mcbf_group(&two[1], 0, 3, 5);
		EXPECT_EQ(-EINVAL, kbloom_mcbf_port_update(self->n,
							   self->ifindex[1],
							   two, 2, 0));
		two[1].len = 4;
		memcpy(two[1].addr, uni, 4);
		EXPECT_EQ(-EINVAL, kbloom_mcbf_port_update(self->n,
							   self->ifindex[1],
							   two, 2, 0));
		EXPECT_EQ(-EINVAL, kbloom_mcbf_port_update(self->n,
							   self->ifindex[1],
							   two, 1, 0x80));
		EXPECT_EQ(-ENOENT, kbloom_mcbf_port_update(self->n, 999999,
							   two, 1, 0));
		EXPECT_EQ(NG1, kbloom_mcbf_groups(self->n, self->ifindex[1],
						  two, 0));
	}
	ASSERT_EQ(0, kbloom_mcbf_port_get(self->n, self->ifindex[1], &after));
	EXPECT_EQ(0, memcmp(&before, &after, sizeof(before)));
	/* an ipbf call on an mcbf instance */
	EXPECT_EQ(-EINVAL, kbloom_ipbf_stats(self->n, self->ifindex[1],
					     (void *)&before));
}

TEST_HARNESS_MAIN
