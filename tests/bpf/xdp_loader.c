// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP loader: instances and their pins, attach (native, generic with a
 * message, refusals), detach, status, replace (links and devmap entries
 * switch to the new programs, same links), the netns option, persistence
 * across handles and processes, serialization of concurrent writers, and
 * that destroy leaves nothing attached or pinned.
 */
#include <sys/wait.h>
#include <linux/bpf.h>
#include <linux/if_link.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"

struct logbuf {
	char text[4096];
	size_t len;
};

static void log_to_buf(void *ctx, const char *msg)
{
	struct logbuf *b = ctx;
	int n = snprintf(b->text + b->len, sizeof(b->text) - b->len, "%s\n",
			 msg);

	if (n > 0 && b->len + n < sizeof(b->text))
		b->len += n;
}

FIXTURE(ldr) {
	char name[64];
	struct kbt_ns ns;
	int saved;
	int v0, v1, lo;
	struct logbuf log;
	struct kbloom_xdp_opts o;
};

static void ld_cleanup(FIXTURE_DATA(ldr) *self)
{
	char extra[80];

	if (self->name[0]) {
		kbt_unpin(self->name);
		snprintf(extra, sizeof(extra), "%s-b", self->name);
		kbt_unpin(extra);
	}
	if (self->saved > 0)
		kbt_ns_leave(self->saved);
	self->saved = 0;
	kbt_ns_free(&self->ns);
}

static int ld_setup(FIXTURE_DATA(ldr) *self)
{
	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "ldr");
	if (kbt_ns_quiet(&self->ns))
		return -1;
	if (kbt_ns_enter(&self->ns, &self->saved))
		return -1;
	if (kbt_veth(NULL, "v0", &self->ns, "v1", 1) ||
	    kbt_sh(NULL, "ip link set dev lo up"))
		return -1;
	self->v0 = kbt_ifindex(NULL, "v0");
	self->v1 = kbt_ifindex(NULL, "v1");
	self->lo = kbt_ifindex(NULL, "lo");
	self->o.log = log_to_buf;
	self->o.log_ctx = &self->log;
	return 0;
}

FIXTURE_SETUP(ldr)
{
	int ret = ld_setup(self);

	if (ret)
		ld_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(ldr)
{
	ld_cleanup(self);
}

static __u32 xdp_prog_on(int ifindex)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);

	if (bpf_xdp_query(ifindex, 0, &q))
		return 0;
	return q.prog_id ? q.prog_id : q.drv_prog_id ? q.drv_prog_id :
							q.skb_prog_id;
}

TEST_F(ldr, lifecycle_and_pins)
{
	static const char *mc_pins[] = {
		"mc_ports", "mc_params", "mc_filters", "mc_stats", "mc_members",
		"mc_config", "prog_ingress", "prog_egress", "prog_check",
	};
	static const char *gate_pins[] = {
		"gate_params", "gate_filters", "gate_exact", "gate_stats",
		"gate_config", "prog_gate", "filter_0",
	};
	struct kbloom_xdp_opts bad = {};
	struct kbloom_xdp *x, *y;
	char p[512], other[80];
	unsigned int i;

	ASSERT_EQ(0, kbloom_xdp_create(self->name, KBLOOM_XDP_MCAST, &self->o,
				       &x));
	EXPECT_EQ(KBLOOM_XDP_MCAST, kbloom_xdp_kind(x));
	for (i = 0; i < sizeof(mc_pins) / sizeof(mc_pins[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", kbloom_xdp_dir(x), mc_pins[i]);
		EXPECT_EQ(0, access(p, F_OK)) {
			TH_LOG("%s", p);
		}
	}
	EXPECT_EQ(-EEXIST, kbloom_xdp_create(self->name, KBLOOM_XDP_GATE,
					     &self->o, &y));
	kbloom_xdp_close(x);
	ASSERT_EQ(0, kbloom_xdp_open(self->name, &self->o, &x));
	EXPECT_EQ(KBLOOM_XDP_MCAST, kbloom_xdp_kind(x));
	snprintf(p, sizeof(p), "%s", kbloom_xdp_dir(x));
	EXPECT_EQ(0, kbloom_xdp_destroy(x));
	EXPECT_NE(0, access(p, F_OK));
	EXPECT_EQ(-ENOENT, kbloom_xdp_open(self->name, &self->o, &x));

	snprintf(other, sizeof(other), "%s-b", self->name);
	ASSERT_EQ(0, kbloom_xdp_create(other, KBLOOM_XDP_GATE, &self->o, &y));
	EXPECT_EQ(KBLOOM_XDP_GATE, kbloom_xdp_kind(y));
	for (i = 0; i < sizeof(gate_pins) / sizeof(gate_pins[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", kbloom_xdp_dir(y),
			 gate_pins[i]);
		EXPECT_EQ(0, access(p, F_OK)) {
			TH_LOG("%s", p);
		}
	}
	EXPECT_EQ(0, kbloom_xdp_destroy(y));

	EXPECT_EQ(-EINVAL, kbloom_xdp_create("", KBLOOM_XDP_GATE, NULL, &y));
	EXPECT_EQ(-EINVAL, kbloom_xdp_create("a.b", KBLOOM_XDP_GATE, NULL, &y));
	EXPECT_EQ(-EINVAL, kbloom_xdp_create("a/b", KBLOOM_XDP_GATE, NULL, &y));
	EXPECT_EQ(-EINVAL, kbloom_xdp_create(self->name, 7, NULL, &y));
	memset(other, 'a', 70);
	other[70] = 0;
	EXPECT_EQ(-EINVAL, kbloom_xdp_create(other, KBLOOM_XDP_GATE, NULL, &y));
	bad.geom.m = 1000;
	bad.geom.k = 3;
	EXPECT_EQ(-EINVAL, kbloom_xdp_create(self->name, KBLOOM_XDP_GATE, &bad,
					     &y));
	bad.geom.m = 1024;
	bad.geom.k = 40;
	EXPECT_EQ(-EINVAL, kbloom_xdp_create(self->name, KBLOOM_XDP_GATE, &bad,
					     &y));
	bad.geom.k = 3;
	bad.geom.hash_id = 9;
	EXPECT_EQ(-EINVAL, kbloom_xdp_create(self->name, KBLOOM_XDP_GATE, &bad,
					     &y));
	snprintf(p, sizeof(p), "%s/%s", KBT_PIN_ROOT, self->name);
	EXPECT_NE(0, access(p, F_OK));
}

TEST_F(ldr, attach_native_status_detach)
{
	struct kbloom_xdp_link l[4];
	struct kbloom_xdp_filter_info fi;
	enum kbloom_xdp_mode got = 0;
	struct kbloom_xdp *x;

	ASSERT_EQ(0, kbloom_xdp_create(self->name, KBLOOM_XDP_MCAST, &self->o,
				       &x));
	ASSERT_EQ(0, kbloom_xdp_attach(x, self->v0, KBLOOM_XDP_MODE_AUTO,
				       &got));
	EXPECT_EQ(KBLOOM_XDP_MODE_NATIVE, got);
	/* the interface became a port */
	EXPECT_EQ(0, kbloom_xdp_filter_info(x, self->v0, &fi));
	EXPECT_EQ(-EEXIST, kbloom_xdp_attach(x, self->v0, KBLOOM_XDP_MODE_AUTO,
					     NULL));
	ASSERT_EQ(1, kbloom_xdp_status(x, l, 4));
	EXPECT_EQ(self->v0, l[0].ifindex);
	EXPECT_EQ(KBLOOM_XDP_MODE_NATIVE, l[0].mode);
	EXPECT_STREQ("v0", l[0].ifname);
	EXPECT_EQ(kbt_prog_id(self->name, "prog_ingress"), l[0].prog_id);
	EXPECT_EQ(l[0].prog_id, xdp_prog_on(self->v0));
	EXPECT_NE(0, l[0].link_id);

	ASSERT_EQ(0, kbloom_xdp_attach(x, self->v1, KBLOOM_XDP_MODE_GENERIC,
				       &got));
	EXPECT_EQ(KBLOOM_XDP_MODE_GENERIC, got);
	ASSERT_EQ(2, kbloom_xdp_status(x, l, 4));
	EXPECT_EQ(KBLOOM_XDP_MODE_GENERIC,
		  l[0].ifindex == (__u32)self->v1 ? l[0].mode : l[1].mode);
	EXPECT_EQ(2, kbloom_xdp_status(x, NULL, 0));

	ASSERT_EQ(0, kbloom_xdp_detach(x, self->v0));
	EXPECT_EQ(-ENOENT, kbloom_xdp_detach(x, self->v0));
	EXPECT_EQ(0, xdp_prog_on(self->v0));
	ASSERT_EQ(1, kbloom_xdp_status(x, l, 4));
	EXPECT_EQ(self->v1, l[0].ifindex);
	/* detach keeps the port */
	EXPECT_EQ(0, kbloom_xdp_filter_info(x, self->v0, &fi));
	EXPECT_EQ(-EINVAL, kbloom_xdp_attach(x, 0, KBLOOM_XDP_MODE_AUTO, NULL));
	EXPECT_EQ(-ENODEV, kbloom_xdp_attach(x, 999999, KBLOOM_XDP_MODE_AUTO,
					     NULL));
	EXPECT_EQ(0, kbloom_xdp_destroy(x));
	EXPECT_EQ(0, xdp_prog_on(self->v1));
}

TEST_F(ldr, generic_fallback_is_logged)
{
	enum kbloom_xdp_mode got = 0;
	struct kbloom_xdp_link l[2];
	struct kbloom_xdp *x;

	ASSERT_EQ(0, kbloom_xdp_create(self->name, KBLOOM_XDP_GATE, &self->o,
				       &x));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_xdp_attach(x, self->lo,
						 KBLOOM_XDP_MODE_NATIVE, &got));
	self->log.len = 0;
	ASSERT_EQ(0, kbloom_xdp_attach(x, self->lo, KBLOOM_XDP_MODE_AUTO,
				       &got));
	EXPECT_EQ(KBLOOM_XDP_MODE_GENERIC, got);
	EXPECT_NE(NULL, strstr(self->log.text, "lo: native XDP unavailable"));
	EXPECT_NE(NULL, strstr(self->log.text, "generic"));
	TH_LOG("log: %s", self->log.text);
	ASSERT_EQ(1, kbloom_xdp_status(x, l, 2));
	EXPECT_EQ(KBLOOM_XDP_MODE_GENERIC, l[0].mode);
	EXPECT_EQ(0, kbloom_xdp_destroy(x));
	EXPECT_EQ(0, xdp_prog_on(self->lo));
}

TEST_F(ldr, busy_interface_refused)
{
	struct kbloom_xdp *x;
	int lfd = -1;

	ASSERT_EQ(0, kbloom_xdp_pass_attach(self->v1, KBLOOM_XDP_MODE_AUTO,
					    NULL, &lfd));
	EXPECT_NE(0, xdp_prog_on(self->v1));
	ASSERT_EQ(0, kbloom_xdp_create(self->name, KBLOOM_XDP_GATE, &self->o,
				       &x));
	self->log.len = 0;
	EXPECT_EQ(-EBUSY, kbloom_xdp_attach(x, self->v1, KBLOOM_XDP_MODE_AUTO,
					    NULL));
	EXPECT_NE(NULL, strstr(self->log.text, "another XDP program"));
	EXPECT_EQ(0, kbloom_xdp_status(x, NULL, 0));
	close(lfd);	/* the pass program's link goes with its fd */
	EXPECT_EQ(0, xdp_prog_on(self->v1));
	EXPECT_EQ(0, kbloom_xdp_attach(x, self->v1, KBLOOM_XDP_MODE_AUTO,
				       NULL));
	EXPECT_EQ(0, kbloom_xdp_destroy(x));
}

static __u32 devmap_prog_id(const char *name, int ifindex)
{
	struct bpf_devmap_val v = {};
	__u32 key = ifindex;
	char p[512];
	int fd;

	snprintf(p, sizeof(p), "%s/%s/mc_ports", KBT_PIN_ROOT, name);
	fd = bpf_obj_get(p);
	if (fd < 0)
		return 0;
	if (bpf_map_lookup_elem(fd, &key, &v))
		v.bpf_prog.id = 0;
	close(fd);
	return v.bpf_prog.id;
}

TEST_F(ldr, replace_switches_programs_keeps_links)
{
	__u32 old_in, old_eg, new_in, new_eg;
	struct kbloom_xdp_link a[2], b[2];
	struct kbloom_xdp *x, *y;
	__u8 grp[16];

	ASSERT_EQ(0, kbloom_xdp_create(self->name, KBLOOM_XDP_MCAST, &self->o,
				       &x));
	ASSERT_EQ(0, kbloom_xdp_attach(x, self->v0, KBLOOM_XDP_MODE_AUTO,
				       NULL));
	ASSERT_EQ(0, kbloom_xdp_attach(x, self->v1, KBLOOM_XDP_MODE_AUTO,
				       NULL));
	kbt_group(grp, 0, 5);
	ASSERT_EQ(0, kbloom_mcast_join(x, self->v1, grp, 4));
	old_in = kbt_prog_id(self->name, "prog_ingress");
	old_eg = kbt_prog_id(self->name, "prog_egress");
	EXPECT_EQ(old_eg, devmap_prog_id(self->name, self->v0));
	ASSERT_EQ(2, kbloom_xdp_status(x, a, 2));

	ASSERT_EQ(0, kbloom_xdp_replace(x));
	new_in = kbt_prog_id(self->name, "prog_ingress");
	new_eg = kbt_prog_id(self->name, "prog_egress");
	EXPECT_NE(old_in, new_in);
	EXPECT_NE(old_eg, new_eg);
	ASSERT_EQ(2, kbloom_xdp_status(x, b, 2));
	EXPECT_EQ(a[0].link_id, b[0].link_id);
	EXPECT_EQ(a[1].link_id, b[1].link_id);
	EXPECT_EQ(new_in, b[0].prog_id);
	EXPECT_EQ(new_in, b[1].prog_id);
	EXPECT_EQ(new_in, xdp_prog_on(self->v0));
	EXPECT_EQ(new_eg, devmap_prog_id(self->name, self->v0));
	EXPECT_EQ(new_eg, devmap_prog_id(self->name, self->v1));
	/* the state is the same maps: the membership is still there */
	EXPECT_EQ(1, kbloom_xdp_filter_test(x, self->v1, grp, 4));

	/* a second handle replaces again; the first one follows the pins */
	ASSERT_EQ(0, kbloom_xdp_open(self->name, &self->o, &y));
	ASSERT_EQ(0, kbloom_xdp_replace(y));
	kbloom_xdp_close(y);
	ASSERT_EQ(0, kbloom_xdp_replace(x));
	EXPECT_EQ(kbt_prog_id(self->name, "prog_ingress"),
		  xdp_prog_on(self->v1));
	EXPECT_EQ(0, kbloom_xdp_destroy(x));
}

/* Interfaces of another namespace, pins in ours. */
TEST_F(ldr, netns_option)
{
	struct kbloom_xdp_opts o = self->o;
	struct kbloom_xdp_link l[2];
	enum kbloom_xdp_mode got;
	struct kbloom_xdp *x;
	int v0 = self->v0;

	kbt_ns_leave(self->saved);	/* back to the test's namespace */
	self->saved = 0;
	o.netns = self->ns.path;
	ASSERT_EQ(0, kbloom_xdp_create(self->name, KBLOOM_XDP_MCAST, &o, &x));
	ASSERT_EQ(0, kbloom_xdp_attach(x, v0, KBLOOM_XDP_MODE_AUTO, &got));
	EXPECT_EQ(KBLOOM_XDP_MODE_NATIVE, got);
	ASSERT_EQ(1, kbloom_xdp_status(x, l, 2));
	EXPECT_STREQ("v0", l[0].ifname);
	EXPECT_EQ(KBLOOM_XDP_MODE_NATIVE, l[0].mode);
	ASSERT_EQ(0, kbloom_xdp_replace(x));
	ASSERT_EQ(0, kbloom_xdp_detach(x, v0));
	EXPECT_EQ(0, kbloom_xdp_status(x, NULL, 0));
	EXPECT_EQ(0, kbloom_xdp_destroy(x));
}

/* Links and state outlive the handle and the process that made them. */
TEST_F(ldr, state_persists_across_processes)
{
	struct kbloom_xdp_link l[2];
	struct kbloom_addr_key g[4];
	struct kbloom_xdp *x;
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		__u8 grp[16];

		if (kbloom_xdp_create(self->name, KBLOOM_XDP_MCAST, NULL, &x) ||
		    kbloom_xdp_attach(x, self->v0, KBLOOM_XDP_MODE_AUTO, NULL))
			_exit(1);
		kbt_group(grp, 1, 9);
		_exit(kbloom_mcast_join(x, self->v0, grp, 16) ? 2 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, kbloom_xdp_open(self->name, &self->o, &x));
	ASSERT_EQ(1, kbloom_xdp_status(x, l, 2));
	EXPECT_EQ(self->v0, l[0].ifindex);
	EXPECT_EQ(l[0].prog_id, xdp_prog_on(self->v0));
	ASSERT_EQ(1, kbloom_mcast_groups(x, self->v0, g, 4));
	EXPECT_EQ(16, g[0].len);
	EXPECT_EQ(0, kbloom_xdp_destroy(x));
	EXPECT_EQ(0, xdp_prog_on(self->v0));
}

/* Writers in several processes are serialized: nothing is lost. */
TEST_F(ldr, concurrent_writers)
{
	struct kbloom_xdp_filter_info fi;
	struct kbloom_xdp *x;
	int i, status, nproc = 4, per = 150;
	pid_t pids[4];
	__u8 grp[16];

	ASSERT_EQ(0, kbloom_xdp_create(self->name, KBLOOM_XDP_MCAST, &self->o,
				       &x));
	ASSERT_EQ(0, kbloom_mcast_port_add(x, self->v0, NULL));
	for (i = 0; i < nproc; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i]) {
			struct kbloom_xdp *y;
			int j, err = 0;

			if (kbloom_xdp_open(self->name, NULL, &y))
				_exit(1);
			for (j = 0; j < per; j++) {
				kbt_group(grp, j & 1, 1000 * (i + 1) + j);
				err |= kbloom_mcast_join(y, self->v0, grp,
							 j & 1 ? 16 : 4);
			}
			_exit(err ? 2 : 0);
		}
	}
	for (i = 0; i < nproc; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_EQ(0, WEXITSTATUS(status));
	}
	EXPECT_EQ(nproc * per, kbloom_mcast_groups(x, self->v0, NULL, 0));
	ASSERT_EQ(0, kbloom_xdp_filter_info(x, self->v0, &fi));
	EXPECT_EQ(nproc * per, fi.params.inserted);
	for (i = 0; i < nproc * per; i++) {
		int p = i / per, j = i % per;

		kbt_group(grp, j & 1, 1000 * (p + 1) + j);
		EXPECT_EQ(1, kbloom_xdp_filter_test(x, self->v0, grp,
						    j & 1 ? 16 : 4));
	}
	EXPECT_EQ(0, kbloom_xdp_destroy(x));
}

TEST_F(ldr, pass_program_pinned)
{
	char p[512];
	int fd;

	/* pinned where the janitor finds it if the test dies */
	snprintf(p, sizeof(p), "%s/%s", KBT_PIN_ROOT, self->name);
	mkdir(KBT_PIN_ROOT, 0700);
	ASSERT_EQ(0, mkdir(p, 0700));
	snprintf(p, sizeof(p), "%s/%s/link_%d", KBT_PIN_ROOT, self->name,
		 self->v1);
	ASSERT_EQ(0, kbloom_xdp_pass_attach(self->v1, KBLOOM_XDP_MODE_AUTO, p,
					    NULL));
	EXPECT_NE(0, xdp_prog_on(self->v1));
	fd = bpf_obj_get(p);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, bpf_link_detach(fd));
	close(fd);
	EXPECT_EQ(0, xdp_prog_on(self->v1));
}

TEST_HARNESS_MAIN
