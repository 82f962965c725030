// SPDX-License-Identifier: GPL-2.0
/*
 * The mcast leak audit's record of each group's ports (mc_groups, and
 * its direct-mapped copy mc_gcache, uapi/kbloom_xdp_maps.h), read once
 * per frame by the ingress program.
 *
 * An mcast instance with three ports (veth ends in a private namespace).
 * The loader keeps both maps in step with the memberships: a join sets
 * the port's bit, a leave, a router port off and a port removed clear
 * it, an empty mask takes the group out of both.  The ingress program
 * (BPF_PROG_TEST_RUN, as if the frame arrived on port 0) counts a leak
 * for each forwarded copy of a group the port has not joined, as the
 * per-copy audit did: a group put in port 2's filter by hand leaks on
 * port 2 only, once per frame; a router port does not leak; with the
 * audit off nothing is counted; a group whose mc_gcache element holds
 * another group is read from mc_groups, with the same counts.  An
 * instance pinned before the maps is still managed, but replacing its
 * programs is refused with the message for instances of an older kbloom.
 */
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"

#define NPORTS	3
#define FRAMES	7

FIXTURE(mgrp) {
	char name[64];
	struct kbt_ns ns;
	int saved;
	struct kbloom_xdp *x;
	int ifindex[NPORTS];
	int ingress, groups, gcache;
	__u8 g4[16], h4[16];
};

static void mg_cleanup(FIXTURE_DATA(mgrp) *self)
{
	int *fd[] = { &self->ingress, &self->groups, &self->gcache };
	unsigned int i;

	for (i = 0; i < sizeof(fd) / sizeof(fd[0]); i++) {
		if (*fd[i] > 0)
			close(*fd[i]);
		*fd[i] = 0;
	}
	if (self->x)
		kbloom_xdp_close(self->x);
	self->x = NULL;
	if (self->name[0])
		kbt_unpin(self->name);
	if (self->saved > 0)
		kbt_ns_leave(self->saved);
	self->saved = 0;
	kbt_ns_free(&self->ns);
}

static int mg_map(const char *name, const char *pin)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s/%s", KBT_PIN_ROOT, name, pin);
	return bpf_obj_get(p);
}

static int mg_setup(FIXTURE_DATA(mgrp) *self)
{
	int i, ret;

	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "mgrp");
	if (kbt_ns_quiet(&self->ns) || kbt_ns_enter(&self->ns, &self->saved))
		return -1;
	if (kbt_veth_ports(&self->ns, NPORTS, self->ifindex))
		return -1;
	ret = kbloom_xdp_create(self->name, KBLOOM_XDP_MCAST, NULL, &self->x);
	for (i = 0; !ret && i < NPORTS; i++)
		ret = kbloom_mcast_port_add(self->x, self->ifindex[i], NULL);
	ret = ret ?: kbloom_mcast_set_flags(self->x, KBLOOM_MCAST_F_AUDIT);
	if (ret)
		return ret;
	kbt_group(self->g4, 0, 1);
	kbt_group(self->h4, 0, 2);
	self->ingress = kbt_prog(self->name, "prog_ingress");
	self->groups = mg_map(self->name, "mc_groups");
	self->gcache = mg_map(self->name, "mc_gcache");
	return self->ingress > 0 && self->groups > 0 && self->gcache > 0 ?
	       0 : -1;
}

FIXTURE_SETUP(mgrp)
{
	int ret = mg_setup(self);

	if (ret)
		mg_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(mgrp)
{
	mg_cleanup(self);
}

/* The mask of group @g (4 bytes; NULL: the router ports) in mc_groups. */
static int mg_mask(FIXTURE_DATA(mgrp) *self, const __u8 *g,
		   struct kbloom_mcast_gmask *m)
{
	struct kbloom_member_key k = {};

	if (g && kb_member_key(&k, 0, g, 4))
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	return bpf_map_lookup_elem(self->groups, &k, m) ? -errno : 0;
}

/* Group @g's element of mc_gcache. */
static int mg_cached(FIXTURE_DATA(mgrp) *self, const __u8 *g,
		     struct kbloom_mcast_gcache *e)
{
	__u32 slot = kb_mcast_gcache_slot(g, 4);

	return bpf_map_lookup_elem(self->gcache, &slot, e) ? -errno : 0;
}

static int has(const struct kbloom_mcast_gmask *m, int ifindex)
{
	return (m->ports[ifindex / 64] >> (ifindex % 64)) & 1;
}

/* FRAMES frames of group @g into port 0; the counters of port @i after. */
static int mg_send(FIXTURE_DATA(mgrp) *self, const __u8 *g,
		   struct kbloom_mcast_stats st[NPORTS])
{
	static const struct kbt_payload pl = { KBT_MAGIC, 1, 2, 3 };
	static const __u8 src[4] = { 10, 0, 0, 1 };
	struct kbt_frame_opts o = {
		.src = src, .dst = g, .payload = &pl, .plen = sizeof(pl),
	};
	__u8 f[128];
	__u32 rv, len = kbt_frame(f, &o);
	int i, n;

	for (n = 0; n < FRAMES; n++)
		if (kbt_run(self->ingress, f, len, self->ifindex[0], &rv))
			return -1;
	for (i = 0; i < NPORTS; i++)
		if (kbloom_mcast_stats(self->x, self->ifindex[i], &st[i]))
			return -1;
	return 0;
}

TEST_F(mgrp, in_step_with_memberships)
{
	struct kbloom_mcast_gcache e;
	struct kbloom_mcast_gmask m;
	int p1 = self->ifindex[1], p2 = self->ifindex[2];

	ASSERT_EQ(-ENOENT, mg_mask(self, self->g4, &m));
	ASSERT_EQ(0, kbloom_mcast_join(self->x, p1, self->g4, 4));
	ASSERT_EQ(0, mg_mask(self, self->g4, &m));
	EXPECT_TRUE(has(&m, p1));
	EXPECT_FALSE(has(&m, p2));
	ASSERT_EQ(0, mg_cached(self, self->g4, &e));
	EXPECT_EQ(4, e.len);
	EXPECT_EQ(0, memcmp(e.addr, self->g4, 4));
	EXPECT_EQ(0, memcmp(&e.m, &m, sizeof(m)));
	EXPECT_EQ(0, e.seq & 1);
	ASSERT_EQ(0, kbloom_mcast_join(self->x, p2, self->g4, 4));
	ASSERT_EQ(0, mg_mask(self, self->g4, &m));
	EXPECT_TRUE(has(&m, p1) && has(&m, p2));
	ASSERT_EQ(0, mg_cached(self, self->g4, &e));
	EXPECT_EQ(0, memcmp(&e.m, &m, sizeof(m)));
	/* a second source keeps the membership: the bit stays */
	ASSERT_EQ(0, kbloom_mcast_join_src(self->x, p1, self->g4, 4,
					   KBLOOM_MEMBER_BRIDGE));
	ASSERT_EQ(0, kbloom_mcast_leave(self->x, p1, self->g4, 4));
	ASSERT_EQ(0, mg_mask(self, self->g4, &m));
	EXPECT_TRUE(has(&m, p1));
	ASSERT_EQ(0, kbloom_mcast_leave_src(self->x, p1, self->g4, 4,
					    KBLOOM_MEMBER_BRIDGE));
	ASSERT_EQ(0, mg_mask(self, self->g4, &m));
	EXPECT_FALSE(has(&m, p1));
	EXPECT_TRUE(has(&m, p2));
	/* the port removed: its bit goes, and the group with it */
	ASSERT_EQ(0, kbloom_mcast_port_del(self->x, p2));
	EXPECT_EQ(-ENOENT, mg_mask(self, self->g4, &m));
	ASSERT_EQ(0, mg_cached(self, self->g4, &e));
	EXPECT_EQ(0, e.len);
	/* router ports: the key of length 0, in mc_groups only */
	ASSERT_EQ(0, kbloom_mcast_router(self->x, p1, 1, KBLOOM_MEMBER_STATIC));
	ASSERT_EQ(0, mg_mask(self, NULL, &m));
	EXPECT_TRUE(has(&m, p1));
	ASSERT_EQ(0, kbloom_mcast_router(self->x, p1, 0, KBLOOM_MEMBER_STATIC));
	EXPECT_EQ(-ENOENT, mg_mask(self, NULL, &m));
}

TEST_F(mgrp, leaks_counted_per_copy)
{
	struct kbloom_mcast_stats a[NPORTS], b[NPORTS];
	int p1 = self->ifindex[1], p2 = self->ifindex[2];

	ASSERT_EQ(0, kbloom_mcast_join(self->x, p1, self->g4, 4));
	/* in port 2's filter, not joined: every copy to port 2 leaks */
	ASSERT_EQ(0, kbloom_xdp_filter_add(self->x, p2, self->g4, 4));
	ASSERT_EQ(0, mg_send(self, self->g4, a));
	EXPECT_EQ(FRAMES, a[1].tx_forwarded);
	EXPECT_EQ(0, a[1].tx_leaked);
	EXPECT_EQ(FRAMES, a[2].tx_forwarded);
	EXPECT_EQ(FRAMES, a[2].tx_leaked);
	/* a router port receives every group: no leak */
	ASSERT_EQ(0, kbloom_mcast_router(self->x, p2, 1, KBLOOM_MEMBER_STATIC));
	ASSERT_EQ(0, mg_send(self, self->g4, b));
	EXPECT_EQ(FRAMES, b[2].tx_forwarded - a[2].tx_forwarded);
	EXPECT_EQ(0, b[2].tx_leaked - a[2].tx_leaked);
	ASSERT_EQ(0, kbloom_mcast_router(self->x, p2, 0, KBLOOM_MEMBER_STATIC));
	/* the audit off: forwarded, nothing counted as a leak */
	ASSERT_EQ(0, kbloom_xdp_filter_add(self->x, p2, self->g4, 4));
	ASSERT_EQ(0, kbloom_mcast_set_flags(self->x, 0));
	ASSERT_EQ(0, mg_send(self, self->g4, a));
	EXPECT_EQ(FRAMES, a[2].tx_forwarded - b[2].tx_forwarded);
	EXPECT_EQ(b[2].tx_leaked, a[2].tx_leaked);
	EXPECT_EQ(0, a[1].tx_leaked);
}

TEST_F(mgrp, cache_element_of_another_group)
{
	struct kbloom_mcast_stats a[NPORTS], b[NPORTS];
	struct kbloom_mcast_gcache e, other = { .len = 4 };
	struct kbloom_mcast_gmask m;
	int p1 = self->ifindex[1], p2 = self->ifindex[2];
	__u32 slot = kb_mcast_gcache_slot(self->g4, 4);

	/* the element taken by another group: g4 is read from mc_groups */
	memcpy(other.addr, self->h4, 4);
	other.m.ports[p2 / 64] = 1ULL << (p2 % 64);
	ASSERT_EQ(0, bpf_map_update_elem(self->gcache, &slot, &other, 0));
	ASSERT_EQ(0, kbloom_mcast_join(self->x, p1, self->g4, 4));
	ASSERT_EQ(0, kbloom_mcast_join(self->x, p2, self->g4, 4));
	ASSERT_EQ(0, mg_cached(self, self->g4, &e));
	EXPECT_EQ(0, memcmp(e.addr, self->h4, 4));
	ASSERT_EQ(0, kbloom_mcast_leave(self->x, p2, self->g4, 4));
	ASSERT_EQ(0, mg_mask(self, self->g4, &m));
	EXPECT_TRUE(has(&m, p1));
	EXPECT_FALSE(has(&m, p2));
	/* port 2's filter still holds g4 (a leave rebuilds it: add it) */
	ASSERT_EQ(0, kbloom_xdp_filter_add(self->x, p2, self->g4, 4));
	ASSERT_EQ(0, mg_send(self, self->g4, a));
	EXPECT_EQ(0, a[1].tx_leaked);
	EXPECT_EQ(FRAMES, a[2].tx_leaked);
	/* a copy caught in a write (odd seq) is not taken either */
	other.seq = 1;
	memcpy(other.addr, self->g4, 4);
	ASSERT_EQ(0, bpf_map_update_elem(self->gcache, &slot, &other, 0));
	ASSERT_EQ(0, mg_send(self, self->g4, b));
	EXPECT_EQ(FRAMES, b[2].tx_leaked - a[2].tx_leaked);
	EXPECT_EQ(0, b[1].tx_leaked);
}

/* Every line logged, one after the other, in @ctx (512 bytes). */
static void mg_log(void *ctx, const char *msg)
{
	size_t n = strlen(ctx);

	snprintf((char *)ctx + n, 512 - n, "%s\n", msg);
}

TEST_F(mgrp, older_instance_kept_replace_refused)
{
	struct kbloom_xdp_opts o = { .log = mg_log };
	char p[256], msg[512] = "";
	const char *pin[] = { "mc_groups", "mc_gcache" };
	unsigned int i;

	/* an instance pinned before the maps (their pins gone) */
	o.log_ctx = msg;
	kbloom_xdp_close(self->x);
	self->x = NULL;
	for (i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/%s/%s", KBT_PIN_ROOT, self->name,
			 pin[i]);
		ASSERT_EQ(0, unlink(p));
	}
	ASSERT_EQ(0, kbloom_xdp_open(self->name, &o, &self->x));
	/* managed without them: a join changes no map it lacks */
	ASSERT_EQ(0, kbloom_mcast_join(self->x, self->ifindex[1], self->g4, 4));
	ASSERT_EQ(0, kbloom_mcast_leave(self->x, self->ifindex[1], self->g4,
					4));
	/* new programs would read maps the instance does not have */
	EXPECT_EQ(-ENOENT, kbloom_xdp_replace(self->x));
	EXPECT_NE(NULL, strstr(msg, "no pinned mc_groups")) TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(msg, "destroy and create it again"))
		TH_LOG("%s", msg);
}

TEST_HARNESS_MAIN
