// SPDX-License-Identifier: GPL-2.0
/*
 * The library's XDP attach module on the host, whose kernel refuses
 * freplace (EXT) programs, so that libxdp's dispatcher cannot be used:
 * kbloom falls back to its own bpf_link with one log line saying why (the
 * kernel's refusal, or no bpffs for libxdp's state), the link runs (real
 * frames counted), status and detach read the pin back, and a program
 * that is not a dispatcher is refused by id and name.  Each test runs in
 * its own mount namespace (bpffs mounted or not, as it needs) and network
 * namespace.
 */
#include <sys/mount.h>
#include <linux/if_link.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"
#include "tests/bpf/xdp_attach_util.h"

#define XC_PROTO	0x88b5

FIXTURE(fb) {
	struct kbt_ns ns;
	int saved;
	int v0, lo;
	struct kbt_inst in;
	char pin[320];
};

/*
 * A private mount namespace with a fresh bpffs on /sys/fs/bpf, or (@bare)
 * none there and one on /mnt for the instance's pins.
 */
static const char *fb_mounts(int bare)
{
	const char *root = bare ? "/mnt" : "/sys/fs/bpf";

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return NULL;
	if (bare)
		umount2("/sys/fs/bpf", MNT_DETACH);
	return mount("bpf", root, "bpf", 0, "mode=0700") ? NULL : root;
}

static int fb_prepare(FIXTURE_DATA(fb) *self, int bare)
{
	const char *root = fb_mounts(bare);
	char name[64], dir[192];

	if (!root)
		return -1;
	kbt_name(name, sizeof(name), "fb");
	snprintf(dir, sizeof(dir), "%s/%s", root, name);
	if (kbt_ns_quiet(&self->ns) || kbt_ns_enter(&self->ns, &self->saved))
		return -1;
	if (kbt_veth(NULL, "v0", &self->ns, "v1", 1) ||
	    kbt_sh(NULL, "ip link set dev lo up"))
		return -1;
	self->v0 = kbt_ifindex(NULL, "v0");
	self->lo = kbt_ifindex(NULL, "lo");
	if (kbt_inst_open(&self->in, dir))
		return -1;
	kbt_inst_pin(&self->in, "attach_v0", self->pin, sizeof(self->pin));
	return 0;
}

FIXTURE_SETUP(fb)
{
	ASSERT_EQ(0, fb_prepare(self, 0));
}

FIXTURE_TEARDOWN(fb)
{
	unlink(self->pin);
	if (self->in.kb)
		kbt_inst_close(&self->in);
	if (self->saved > 0)
		kbt_ns_leave(self->saved);
	kbt_ns_free(&self->ns);
}

/* How many lines of @log contain @what. */
static int fb_lines(const char *log, const char *what)
{
	const char *p = log;
	int n = 0;

	while ((p = strstr(p, what))) {
		n++;
		p = strchr(p, '\n') ?: p + strlen(p);
	}
	return n;
}

/* Is an XDP program attached to @ifindex? */
static int fb_xdp_on(int ifindex)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);

	return !bpf_xdp_query(ifindex, 0, &q) &&
	       q.attach_mode != XDP_ATTACHED_NONE;
}

/* Send @n frames of XC_PROTO from v1 and wait for kb_hits to count them. */
static __u64 fb_frames(FIXTURE_DATA(fb) *self, int n)
{
	__u8 f[60] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		       0x02, 0, 0, 0, 0x01, 0x02, XC_PROTO >> 8, XC_PROTO & 0xff };
	int fd = kbt_psock(NULL, "v1"), hits, i;
	double end = kbt_now() + 3;

	if (fd < 0)
		return 0;
	for (i = 0; i < n; i++)
		send(fd, f, sizeof(f), 0);
	close(fd);
	hits = bpf_map__fd(self->in.kb->maps.kb_hits);
	while (kbt_hits(hits) < (__u64)n && kbt_now() < end)
		usleep(10000);
	return kbt_hits(hits);
}

TEST_F(fb, kernel_refuses_freplace_own_link)
{
	struct kb_xdp_attachment a, s;

	ASSERT_EQ(0, kbt_inst_attach(&self->in, self->v0, self->pin, 0, 0, &a));
	TH_LOG("log: %s", self->in.log.text);
	if (a.via == KB_XDP_VIA_DISPATCHER)
		SKIP(return, "this kernel loads freplace programs");
	EXPECT_EQ(KB_XDP_VIA_LINK, a.via);
	EXPECT_EQ(1, fb_lines(self->in.log.text,
			      "v0: libxdp dispatcher unavailable (the kernel refuses freplace (EXT) programs: "));
	EXPECT_EQ(1, fb_lines(self->in.log.text,
			      "attaching kbloom's own XDP link"));
	EXPECT_EQ(0, fb_lines(self->in.log.text, "libxdp: "));
	EXPECT_EQ(KBLOOM_XDP_MODE_NATIVE, a.mode);
	EXPECT_NE(0, a.link_id);
	EXPECT_EQ(5, fb_frames(self, 5));	/* the own link runs */

	ASSERT_EQ(0, kb_xdp_attach_status(self->v0, self->pin, &s));
	EXPECT_EQ(KB_XDP_VIA_LINK, s.via);
	EXPECT_EQ(a.link_id, s.link_id);
	EXPECT_EQ(a.prog_id, s.prog_id);
	EXPECT_EQ(-EEXIST, kbt_inst_attach(&self->in, self->v0, self->pin, 0,
					   0, NULL));
	ASSERT_EQ(0, kb_xdp_detach(self->v0, self->pin, NULL, NULL));
	EXPECT_FALSE(fb_xdp_on(self->v0));
	EXPECT_NE(0, access(self->pin, F_OK));
	EXPECT_EQ(-ENOENT, kb_xdp_detach(self->v0, self->pin, NULL, NULL));

	/* quiet: the reason only in the attachment */
	self->in.log.len = 0;
	self->in.log.text[0] = 0;
	ASSERT_EQ(0, kbt_inst_attach(&self->in, self->v0, self->pin,
				     KB_XDP_ATTACH_QUIET, 0, &a));
	EXPECT_EQ(KB_XDP_VIA_LINK, a.via);
	EXPECT_EQ(0, self->in.log.len);
	EXPECT_NE(NULL, strstr(a.why, "the kernel refuses freplace (EXT) programs"));
	EXPECT_EQ(0, kb_xdp_detach(self->v0, self->pin, NULL, NULL));
}

TEST_F(fb, other_program_is_named)
{
	struct kb_xdp_attachment a;
	char other[320], want[96];

	ASSERT_EQ(0, kbt_inst_attach(&self->in, self->v0, self->pin,
				     KB_XDP_ATTACH_OWN_LINK, 0, &a));
	EXPECT_EQ(0, fb_lines(self->in.log.text, "unavailable"));
	kbt_inst_pin(&self->in, "attach_other", other, sizeof(other));
	self->in.log.len = 0;
	self->in.log.text[0] = 0;
	EXPECT_EQ(-EBUSY, kbt_inst_attach(&self->in, self->v0, other, 0, 0,
					  NULL));
	snprintf(want, sizeof(want),
		 "v0: another XDP program is attached and is not a libxdp dispatcher: id %u (kb_count)",
		 a.prog_id);
	EXPECT_EQ(1, fb_lines(self->in.log.text, want));
	EXPECT_NE(0, access(other, F_OK));
	EXPECT_EQ(0, kb_xdp_detach(self->v0, self->pin, NULL, NULL));
}

TEST_F(fb, generic_fallback_on_lo)
{
	struct kb_xdp_attach_req r = {
		.ifindex = self->lo,
		.mode = KBLOOM_XDP_MODE_NATIVE,
		.prog_fd = bpf_program__fd(self->in.kb->progs.kb_count),
		.pin_path = self->pin,
	};
	struct kb_xdp_attachment a;

	EXPECT_EQ(-EOPNOTSUPP, kb_xdp_attach(&r, &a, kbt_log_line,
					     &self->in.log));
	EXPECT_NE(0, access(self->pin, F_OK));
	self->in.log.len = 0;
	ASSERT_EQ(0, kbt_inst_attach(&self->in, self->lo, self->pin, 0, 0, &a));
	EXPECT_EQ(KBLOOM_XDP_MODE_GENERIC, a.mode);
	EXPECT_EQ(1, fb_lines(self->in.log.text,
			      "lo: native XDP unavailable"));
	EXPECT_EQ(0, kb_xdp_detach(self->lo, self->pin, NULL, NULL));
	EXPECT_FALSE(fb_xdp_on(self->lo));
}

TEST_F(fb, unpinned_link_goes_with_its_fd)
{
	struct kb_xdp_attach_req r = {
		.ifindex = self->v0,
		.prog_fd = bpf_program__fd(self->in.kb->progs.kb_count),
	};
	struct kb_xdp_attachment a;
	int fd;

	fd = kb_xdp_attach(&r, &a, kbt_log_line, &self->in.log);
	ASSERT_LE(0, fd);
	EXPECT_EQ(KB_XDP_VIA_LINK, a.via);
	EXPECT_TRUE(fb_xdp_on(self->v0));
	close(fd);
	EXPECT_FALSE(fb_xdp_on(self->v0));
	r.ext_obj = self->in.kb->obj;	/* a component needs a pin */
	EXPECT_EQ(-EINVAL, kb_xdp_attach(&r, &a, NULL, NULL));
}

FIXTURE(nofs) {
	FIXTURE_DATA(fb) fb;
};

FIXTURE_SETUP(nofs)
{
	ASSERT_EQ(0, fb_prepare(&self->fb, 1));
}

FIXTURE_TEARDOWN(nofs)
{
	unlink(self->fb.pin);
	if (self->fb.in.kb)
		kbt_inst_close(&self->fb.in);
	if (self->fb.saved > 0)
		kbt_ns_leave(self->fb.saved);
	kbt_ns_free(&self->fb.ns);
}

TEST_F(nofs, no_bpffs_own_link)
{
	struct kbt_inst *in = &self->fb.in;
	struct kb_xdp_attachment a;

	ASSERT_EQ(0, kbt_inst_attach(in, self->fb.v0, self->fb.pin, 0, 0, &a));
	TH_LOG("log: %s", in->log.text);
	EXPECT_EQ(KB_XDP_VIA_LINK, a.via);
	EXPECT_EQ(1, fb_lines(in->log.text,
			      "v0: libxdp dispatcher unavailable (no bpffs on /sys/fs/bpf for its state), attaching kbloom's own XDP link"));
	EXPECT_EQ(0, kb_xdp_detach(self->fb.v0, self->fb.pin, NULL, NULL));
}

TEST_HARNESS_MAIN
