// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom beside xdp-tools on one interface (the guest's 6.1 kernel, where
 * libxdp's dispatcher loads): the library's attach module makes kbloom's
 * ingress program a dispatcher component, so that xdp-loader and
 * xdp-filter programs and kbloom's run on the same veth in either order.
 * Real frames (AF_PACKET on the peer end) are counted by both programs;
 * `xdp-loader status` lists kbloom's; detaching either leaves the other
 * running; a program that is not a dispatcher is refused by name; and
 * kbloomctl's gate and mcast instances join the dispatcher the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <linux/if_ether.h>
#include <xdp/libxdp.h>
#include "guest_harness.h"
#include "tests/bpf/xdp_util.h"
#include "tests/bpf/xdp_attach_util.h"

#define PEER_OBJ	"build/tests/kmod/xdp_coexist_peer.bpf.o"
#define XC_PROTO	0x88b5

FIXTURE(cx) {
	struct kbt_ns ns;
	int saved;
	int v0;
	struct kbt_inst in;
	char pin[320];
	char peer_dir[192];
	int peer_hits;
	int kb_hits;
};

static int cx_prepare(FIXTURE_DATA(cx) *self)
{
	char name[64], dir[160];

	self->peer_hits = -1;
	if (kbt_ns_quiet(&self->ns) || kbt_ns_enter(&self->ns, &self->saved))
		return -1;
	if (kbt_veth(NULL, "v0", &self->ns, "v1", 1))
		return -1;
	self->v0 = kbt_ifindex(NULL, "v0");
	kbt_name(name, sizeof(name), "cx");
	snprintf(dir, sizeof(dir), "/sys/fs/bpf/%s", name);
	snprintf(self->peer_dir, sizeof(self->peer_dir), "%s-peer", dir);
	if (kbt_inst_open(&self->in, dir))
		return -1;
	kbt_inst_pin(&self->in, "attach_v0", self->pin, sizeof(self->pin));
	self->kb_hits = bpf_map__fd(self->in.kb->maps.kb_hits);
	return 0;
}

FIXTURE_SETUP(cx)
{
	if (access("/usr/sbin/xdp-loader", X_OK))
		SKIP(return, "no xdp-loader here (the guest has it)");
	ASSERT_EQ(0, cx_prepare(self));
}

FIXTURE_TEARDOWN(cx)
{
	char p[320];

	if (self->v0 > 0)
		kbt_sh(NULL, "xdp-loader unload --all v0 2>/dev/null || true");
	unlink(self->pin);
	snprintf(p, sizeof(p), "%s/peer_hits", self->peer_dir);
	unlink(p);
	rmdir(self->peer_dir);
	if (self->peer_hits >= 0)
		close(self->peer_hits);
	if (self->in.kb)
		kbt_inst_close(&self->in);
	if (self->saved > 0)
		kbt_ns_leave(self->saved);
	kbt_ns_free(&self->ns);
}

/* xdp-loader loads peer_count on v0 and pins its map for the test. */
static int cx_peer_load(FIXTURE_DATA(cx) *self)
{
	char p[320];

	if (kbt_sh(NULL, "xdp-loader load -m native -p %s v0 %s",
		   self->peer_dir, PEER_OBJ))
		return -1;
	snprintf(p, sizeof(p), "%s/peer_hits", self->peer_dir);
	self->peer_hits = bpf_obj_get(p);
	return self->peer_hits < 0 ? -1 : 0;
}

/* The id of the dispatcher component named @name on v0 (0: none). */
static __u32 cx_component(FIXTURE_DATA(cx) *self, const char *name)
{
	struct xdp_multiprog *mp = xdp_multiprog__get_from_ifindex(self->v0);
	struct xdp_program *p = NULL;
	__u32 id = 0;

	if (libxdp_get_error(mp) || !mp)
		return 0;
	while ((p = xdp_multiprog__next_prog(p, mp)))
		if (!strcmp(xdp_program__name(p), name))
			id = xdp_program__id(p);
	xdp_multiprog__close(mp);
	return id;
}

/* Send @n frames of XC_PROTO from v1, received by v0's XDP. */
static int cx_send(int n)
{
	__u8 f[60] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		       0x02, 0, 0, 0, 0x01, 0x02, XC_PROTO >> 8, XC_PROTO & 0xff };
	int fd = kbt_psock(NULL, "v1"), i, ret = 0;

	if (fd < 0)
		return -1;
	for (i = 0; i < n && !ret; i++)
		if (send(fd, f, sizeof(f), 0) != sizeof(f))
			ret = -1;
	close(fd);
	return ret;
}

/* The counter of map @fd once it reaches @want (or after 3 s). */
static __u64 cx_wait(int fd, __u64 want)
{
	double end = kbt_now() + 3;
	__u64 v;

	while ((v = kbt_hits(fd)) < want && kbt_now() < end)
		usleep(10000);
	usleep(50000);	/* and no more than that */
	return kbt_hits(fd);
}

/* Does `xdp-loader status v0` mention @what? */
static int cx_status_has(const char *what)
{
	char line[256];
	int found = 0;
	FILE *f = popen("xdp-loader status v0 2>&1", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		fprintf(stderr, "# %s", line);
		if (strstr(line, what))
			found = 1;
	}
	pclose(f);
	return found;
}

TEST_F(cx, loader_first_then_kbloom)
{
	struct kb_xdp_attachment a;

	ASSERT_EQ(0, cx_peer_load(self));
	ASSERT_EQ(0, kbt_inst_attach(&self->in, self->v0, self->pin, 0, 0, &a));
	TH_LOG("log: %s", self->in.log.text);
	EXPECT_EQ(KB_XDP_VIA_DISPATCHER, a.via);
	EXPECT_EQ(KBLOOM_XDP_MODE_NATIVE, a.mode);
	EXPECT_EQ(1, a.others);
	EXPECT_EQ(20, a.run_prio);
	EXPECT_TRUE(cx_status_has("kb_count"));
	EXPECT_TRUE(cx_status_has("peer_count"));

	ASSERT_EQ(0, cx_send(5));
	EXPECT_EQ(5, cx_wait(self->kb_hits, 5));
	EXPECT_EQ(5, cx_wait(self->peer_hits, 5));

	/* kbloom leaves: the peer keeps running, kbloom counts no more */
	ASSERT_EQ(0, kb_xdp_detach(self->v0, self->pin, NULL, NULL));
	EXPECT_NE(0, access(self->pin, F_OK));
	EXPECT_FALSE(cx_status_has("kb_count"));
	EXPECT_NE(0, cx_component(self, "peer_count"));
	ASSERT_EQ(0, cx_send(3));
	EXPECT_EQ(8, cx_wait(self->peer_hits, 8));
	EXPECT_EQ(5, kbt_hits(self->kb_hits));
}

TEST_F(cx, kbloom_first_then_loader)
{
	struct kb_xdp_attachment a;
	__u32 peer;

	ASSERT_EQ(0, kbt_inst_attach(&self->in, self->v0, self->pin, 0, 0, &a));
	TH_LOG("log: %s", self->in.log.text);
	EXPECT_EQ(KB_XDP_VIA_DISPATCHER, a.via);
	EXPECT_EQ(0, a.others);
	/* was "Existing program is not using a dispatcher" with a raw link */
	ASSERT_EQ(0, cx_peer_load(self));
	ASSERT_EQ(0, kb_xdp_attach_status(self->v0, self->pin, &a));
	EXPECT_EQ(KB_XDP_VIA_DISPATCHER, a.via);
	EXPECT_EQ(1, a.others);
	EXPECT_TRUE(cx_status_has("kb_count"));

	ASSERT_EQ(0, cx_send(4));
	EXPECT_EQ(4, cx_wait(self->kb_hits, 4));
	EXPECT_EQ(4, cx_wait(self->peer_hits, 4));

	/* the peer leaves: kbloom keeps running alone in the dispatcher */
	peer = cx_component(self, "peer_count");
	ASSERT_NE(0, peer);
	ASSERT_EQ(0, kbt_sh(NULL, "xdp-loader unload -i %u v0", peer));
	ASSERT_EQ(0, kb_xdp_attach_status(self->v0, self->pin, &a));
	EXPECT_EQ(KB_XDP_VIA_DISPATCHER, a.via);
	EXPECT_EQ(0, a.others);
	ASSERT_EQ(0, cx_send(2));
	EXPECT_EQ(6, cx_wait(self->kb_hits, 6));
	EXPECT_EQ(4, kbt_hits(self->peer_hits));
	ASSERT_EQ(0, kb_xdp_detach(self->v0, self->pin, NULL, NULL));
	EXPECT_EQ(0, cx_component(self, "kb_count"));
}

TEST_F(cx, kbloom_then_xdp_filter)
{
	struct kb_xdp_attachment a;

	ASSERT_EQ(0, kbt_inst_attach(&self->in, self->v0, self->pin, 0, 0, &a));
	ASSERT_EQ(0, kbt_sh(NULL, "xdp-filter load -m native v0"));
	EXPECT_TRUE(cx_status_has("xdpfilt"));
	EXPECT_TRUE(cx_status_has("kb_count"));
	ASSERT_EQ(0, cx_send(3));
	EXPECT_EQ(3, cx_wait(self->kb_hits, 3));
	ASSERT_EQ(0, kbt_sh(NULL, "xdp-filter unload v0"));
	ASSERT_EQ(0, kb_xdp_attach_status(self->v0, self->pin, &a));
	EXPECT_EQ(KB_XDP_VIA_DISPATCHER, a.via);
	EXPECT_EQ(0, a.others);
	ASSERT_EQ(0, cx_send(1));
	EXPECT_EQ(4, cx_wait(self->kb_hits, 4));
}

TEST_F(cx, replace_keeps_the_others)
{
	struct kb_xdp_attachment a, b;

	ASSERT_EQ(0, cx_peer_load(self));
	ASSERT_EQ(0, kbt_inst_attach(&self->in, self->v0, self->pin, 0, 0, &a));
	ASSERT_EQ(0, kbt_inst_attach(&self->in, self->v0, self->pin, 0, 1,
				     NULL)) TH_LOG("log: %s", self->in.log.text);
	ASSERT_EQ(0, kb_xdp_attach_status(self->v0, self->pin, &b));
	EXPECT_EQ(KB_XDP_VIA_DISPATCHER, b.via);
	EXPECT_NE(a.prog_id, b.prog_id);
	EXPECT_EQ(1, b.others);
	EXPECT_EQ(b.prog_id, cx_component(self, "kb_count"));
	ASSERT_EQ(0, cx_send(2));
	EXPECT_EQ(2, cx_wait(self->kb_hits, 2));	/* one kbloom copy runs */
	EXPECT_EQ(2, cx_wait(self->peer_hits, 2));
}

TEST_F(cx, own_link_blocks_and_is_named)
{
	struct kb_xdp_attachment a;
	char other[320], want[96];

	/* kbloom's own link (what kbloom did before): not a dispatcher */
	ASSERT_EQ(0, kbt_inst_attach(&self->in, self->v0, self->pin,
				     KB_XDP_ATTACH_OWN_LINK, 0, &a));
	EXPECT_EQ(KB_XDP_VIA_LINK, a.via);
	EXPECT_NE(0, a.link_id);
	EXPECT_EQ(KBLOOM_XDP_MODE_NATIVE, a.mode);
	EXPECT_NE(0, kbt_sh(NULL, "xdp-loader load -m native v0 %s 2>&1",
			    PEER_OBJ));

	kbt_inst_pin(&self->in, "attach_other", other, sizeof(other));
	self->in.log.len = 0;
	EXPECT_EQ(-EBUSY, kbt_inst_attach(&self->in, self->v0, other, 0, 0,
					  NULL));
	snprintf(want, sizeof(want), "id %u (kb_count)", a.prog_id);
	EXPECT_NE(NULL, strstr(self->in.log.text, "not a libxdp dispatcher"));
	EXPECT_NE(NULL, strstr(self->in.log.text, want));
	EXPECT_NE(0, access(other, F_OK));

	ASSERT_EQ(0, kb_xdp_detach(self->v0, self->pin, NULL, NULL));
	ASSERT_EQ(0, cx_peer_load(self));
}

TEST_F(cx, dispatcher_blocks_own_link)
{
	ASSERT_EQ(0, cx_peer_load(self));
	EXPECT_EQ(-EBUSY, kbt_inst_attach(&self->in, self->v0, self->pin,
					  KB_XDP_ATTACH_OWN_LINK, 0, NULL));
	EXPECT_NE(NULL, strstr(self->in.log.text,
			       "v0: another XDP program is attached"));
	EXPECT_NE(0, access(self->pin, F_OK));
	EXPECT_NE(0, cx_component(self, "peer_count"));
}

/* kbloomctl: the gate joins xdp-loader's dispatcher, detach leaves it */
TEST_F(cx, kbloomctl_gate_beside_loader)
{
	char name[64];

	kbt_name(name, sizeof(name), "g");
	ASSERT_EQ(0, cx_peer_load(self));
	ASSERT_EQ(0, kbt_sh(NULL, "build/kbloomctl xdp attach gate %s dev v0",
			    name));
	EXPECT_TRUE(cx_status_has("kbloom_gate"));
	EXPECT_NE(0, cx_component(self, "peer_count"));
	ASSERT_EQ(0, cx_send(3));
	EXPECT_EQ(3, cx_wait(self->peer_hits, 3));	/* the gate passed them */
	ASSERT_EQ(0, kbt_sh(NULL, "build/kbloomctl xdp detach %s", name));
	EXPECT_EQ(0, cx_component(self, "kbloom_gate"));
	EXPECT_NE(0, cx_component(self, "peer_count"));
	ASSERT_EQ(0, cx_send(1));
	EXPECT_EQ(4, cx_wait(self->peer_hits, 4));
}

/* kbloomctl: mcast first, then xdp-filter joins; unloading it leaves mcast */
TEST_F(cx, kbloomctl_mcast_then_xdp_filter)
{
	char name[64];

	kbt_name(name, sizeof(name), "m");
	ASSERT_EQ(0, kbt_sh(NULL, "build/kbloomctl xdp attach mcast %s dev v0",
			    name));
	ASSERT_EQ(0, kbt_sh(NULL, "xdp-filter load -m native v0"));
	EXPECT_TRUE(cx_status_has("xdpfilt"));
	EXPECT_NE(0, cx_component(self, "kbloom_mcast_ingress"));
	ASSERT_EQ(0, kbt_sh(NULL, "xdp-filter unload v0"));
	EXPECT_NE(0, cx_component(self, "kbloom_mcast_ingress"));
	EXPECT_EQ(0, kbt_sh(NULL, "build/kbloomctl xdp detach %s", name));
	EXPECT_EQ(0, cx_component(self, "kbloom_mcast_ingress"));
}

TEST_HARNESS_MAIN
