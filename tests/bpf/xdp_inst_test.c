// SPDX-License-Identifier: GPL-2.0
/*
 * The instance core (libkbloom_xdp.h, kbloom_inst_*): every kind's marker
 * is read back by a generic open (not guessed from the other pins), what
 * an instance holds comes from its kind's ops, an instance whose marker
 * is missing or corrupt is refused with a clear error, the
 * native-to-generic fallback of every kind reaches the log callback in
 * the one wording of the core, and pass links live in several
 * namespaces.
 */
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"
#include "libkbloom_xdp_net.h"

#define NKINDS	5

static const char *const kinds[NKINDS] = {
	"mcast", "gate", "pass", "ipbf", "mcbf",
};

FIXTURE(inst) {
	char name[NKINDS][64];
	struct kbt_ns ns;
	int saved;
	int lo;
	struct kbt_log log;
	struct kbloom_inst_opts o;
};

static void in_cleanup(FIXTURE_DATA(inst) *self)
{
	int k;

	for (k = 0; k < NKINDS; k++)
		if (self->name[k][0])
			kbt_unpin(self->name[k]);
	if (self->saved > 0)
		kbt_ns_leave(self->saved);
	self->saved = 0;
	kbt_ns_free(&self->ns);
}

static int in_setup(FIXTURE_DATA(inst) *self)
{
	char tag[16];
	int k;

	kbt_janitor();
	for (k = 0; k < NKINDS; k++) {
		snprintf(tag, sizeof(tag), "in%s", kinds[k]);
		kbt_name(self->name[k], sizeof(self->name[k]), tag);
	}
	if (kbt_ns_quiet(&self->ns))
		return -1;
	if (kbt_ns_enter(&self->ns, &self->saved))
		return -1;
	if (kbt_sh(NULL, "ip link set dev lo up"))
		return -1;
	self->lo = kbt_ifindex(NULL, "lo");
	self->o.log = kbt_log_line;
	self->o.log_ctx = &self->log;
	return 0;
}

FIXTURE_SETUP(inst)
{
	int ret = in_setup(self);

	if (ret)
		in_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(inst)
{
	in_cleanup(self);
}

/* Instance @k of kind kinds[@k], made through the generic call. */
static int make(FIXTURE_DATA(inst) *self, int k, struct kbloom_inst **ip)
{
	return kbloom_inst_create(self->name[k], kinds[k], &self->o, NULL, ip);
}

/* Pin an array map of @value_size bytes holding @val at @name/@leaf. */
static int pin_map(const char *name, const char *leaf, __u32 value_size,
		   const void *val)
{
	char p[512];
	__u32 zero = 0;
	int fd, ret;

	snprintf(p, sizeof(p), "%s/%s/%s", KBT_PIN_ROOT, name, leaf);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "kbt_pin", 4, value_size, 1,
			    NULL);
	if (fd < 0)
		return -errno;
	ret = bpf_map_update_elem(fd, &zero, val, 0) ? -errno : 0;
	if (!ret && bpf_obj_pin(fd, p))
		ret = -errno;
	close(fd);
	return ret;
}

TEST_F(inst, marker_of_every_kind_is_read_back)
{
	struct kbloom_net_opts no = { .log = kbt_log_line,
				      .log_ctx = &self->log };
	struct kbloom_xdp_opts xo = { .log = kbt_log_line,
				      .log_ctx = &self->log };
	char kind[KBLOOM_INST_KIND_MAX], p[512];
	struct kbloom_inst *i;
	struct kbloom_net *n;
	struct kbloom_xdp *x;
	int k;

	for (k = 0; k < NKINDS; k++) {
		ASSERT_EQ(0, make(self, k, &i)) {
			TH_LOG("%s: %s", kinds[k], self->log.text);
		}
		EXPECT_STREQ(kinds[k], kbloom_inst_kind(i));
		kbloom_inst_close(i);
		ASSERT_EQ(0, kbloom_inst_kind_read(NULL, self->name[k], kind));
		EXPECT_STREQ(kinds[k], kind);
		ASSERT_EQ(0, kbloom_inst_open(self->name[k], &self->o, &i));
		EXPECT_STREQ(kinds[k], kbloom_inst_kind(i));
		EXPECT_EQ(k < 2, kbloom_xdp_of(i) != NULL);
		EXPECT_EQ(k > 2, kbloom_net_of(i) != NULL);
		kbloom_inst_close(i);
	}
	/* the pins of another kind beside the marker change nothing */
	snprintf(p, sizeof(p), "%s/%s/mc_params", KBT_PIN_ROOT, self->name[1]);
	ASSERT_EQ(0, pin_map(self->name[1], "mc_params", 8, "mcast\0\0"));
	EXPECT_EQ(0, access(p, F_OK));
	ASSERT_EQ(0, kbloom_inst_open(self->name[1], &self->o, &i));
	EXPECT_STREQ("gate", kbloom_inst_kind(i));
	kbloom_inst_close(i);
	/* a kind's own open refuses another kind */
	EXPECT_EQ(-EINVAL, kbloom_net_open(self->name[0], &no, &n));
	EXPECT_EQ(-EINVAL, kbloom_xdp_open(self->name[3], &xo, &x));
	for (k = 0; k < NKINDS; k++) {
		ASSERT_EQ(0, kbloom_inst_open(self->name[k], &self->o, &i));
		EXPECT_EQ(0, kbloom_inst_destroy(i));
		EXPECT_EQ(-ENOENT, kbloom_inst_kind_read(NULL, self->name[k],
							 kind));
	}
	EXPECT_EQ(-EINVAL, kbloom_inst_create(self->name[0], "bogus",
					      &self->o, NULL, &i));
}

TEST_F(inst, info_comes_from_the_kind)
{
	struct kbloom_ipbf_port rec = {};
	struct kbloom_inst_info f;
	struct kbloom_inst *g, *p, *n;
	__u8 addr[16];
	__u32 len;

	ASSERT_EQ(0, make(self, 1, &g));
	ASSERT_EQ(0, make(self, 2, &p));
	ASSERT_EQ(0, make(self, 3, &n));
	ASSERT_EQ(0, kbloom_xdp_parse_addr("10.0.0.1", addr, &len));
	ASSERT_EQ(0, kbloom_gate_add(kbloom_xdp_of(g), addr, len));
	ASSERT_EQ(0, kbloom_inst_info(g, &f));
	EXPECT_EQ(KBLOOM_INST_INFO_MODE, f.fields & KBLOOM_INST_INFO_MODE);
	EXPECT_EQ(KBLOOM_INST_INFO_VARIANT, f.fields & KBLOOM_INST_INFO_VARIANT);
	EXPECT_EQ(0, f.fields & KBLOOM_INST_INFO_PORTS);
	EXPECT_EQ(1, f.members);
	EXPECT_EQ(KBLOOM_XDP_VARIANT_MAP, f.variant);
	ASSERT_EQ(0, kbloom_inst_info(p, &f));
	EXPECT_EQ(0, f.fields);
	ASSERT_EQ(0, kbloom_ipbf_port_set(kbloom_net_of(n), self->lo, &rec));
	ASSERT_EQ(0, kbloom_inst_info(n, &f));
	EXPECT_EQ(KBLOOM_INST_INFO_PORTS | KBLOOM_INST_INFO_IPBF, f.fields);
	EXPECT_EQ(1, f.ports);
	EXPECT_EQ(KB_IPBF_FILL_DEFAULT, f.fill_limit);
	EXPECT_EQ(-EINVAL, kbloom_inst_info(n, NULL));
	EXPECT_EQ(0, kbloom_inst_destroy(g));
	EXPECT_EQ(0, kbloom_inst_destroy(p));
	EXPECT_EQ(0, kbloom_inst_destroy(n));
}

TEST_F(inst, missing_or_corrupt_marker_is_refused)
{
	struct {
		char kind[KBLOOM_INST_KIND_MAX];
		__u32 version, pad;
		__u64 netns_ino;
	} bogus = { .kind = "bogus", .version = 1 };
	char kind[KBLOOM_INST_KIND_MAX], p[512];
	struct kbloom_xdp_opts xo = { .log = kbt_log_line,
				      .log_ctx = &self->log };
	struct kbloom_inst *i = NULL;
	struct kbloom_xdp *x;

	ASSERT_EQ(0, make(self, 1, &i));
	kbloom_inst_close(i);
	snprintf(p, sizeof(p), "%s/%s/kind", KBT_PIN_ROOT, self->name[1]);

	/* missing: not an instance, whatever the other pins say */
	ASSERT_EQ(0, unlink(p));
	self->log.len = 0;
	EXPECT_EQ(-ENODATA, kbloom_inst_open(self->name[1], &self->o, &i));
	EXPECT_NE(NULL, strstr(self->log.text, "no kind marker")) {
		TH_LOG("%s", self->log.text);
	}
	EXPECT_EQ(-ENODATA, kbloom_inst_kind_read(NULL, self->name[1], kind));
	EXPECT_EQ(-ENODATA, kbloom_xdp_open(self->name[1], &xo, &x));

	/* a marker of another layout */
	ASSERT_EQ(0, pin_map(self->name[1], "kind", 8, "gate\0\0\0"));
	self->log.len = 0;
	EXPECT_EQ(-EUCLEAN, kbloom_inst_open(self->name[1], &self->o, &i));
	EXPECT_NE(NULL, strstr(self->log.text, "is corrupt")) {
		TH_LOG("%s", self->log.text);
	}
	ASSERT_EQ(0, unlink(p));

	/* a kind nobody knows */
	ASSERT_EQ(0, pin_map(self->name[1], "kind", sizeof(bogus), &bogus));
	self->log.len = 0;
	EXPECT_EQ(-EUCLEAN, kbloom_inst_open(self->name[1], &self->o, &i));
	EXPECT_NE(NULL, strstr(self->log.text, "kind 'bogus'")) {
		TH_LOG("%s", self->log.text);
	}

	/* such a directory is still removed whole */
	EXPECT_EQ(0, kbloom_xdp_unpin(NULL, self->name[1]));
	EXPECT_EQ(-ENOENT, kbloom_inst_kind_read(NULL, self->name[1], kind));
}

/* Attach kind @k on lo (no native XDP): the one fallback line. */
static int fallback_line(FIXTURE_DATA(inst) *self, int k, char *line,
			 size_t len)
{
	struct kbloom_ipbf_port rec = {};
	enum kbloom_xdp_mode got = 0;
	struct kbloom_inst *i;
	char *p;
	int ret;

	ret = make(self, k, &i);
	if (ret)
		return ret;
	if (kbloom_net_of(i))
		ret = kbloom_ipbf_port_set(kbloom_net_of(i), self->lo, &rec);
	self->log.len = 0;
	self->log.text[0] = 0;
	ret = ret ?: kbloom_inst_attach(i, self->lo, KBLOOM_XDP_MODE_AUTO,
					&got);
	if (!ret && got != KBLOOM_XDP_MODE_GENERIC)
		ret = -EPROTO;
	kbloom_inst_destroy(i);
	p = strstr(self->log.text, ": lo: ");
	snprintf(line, len, "%s", p ? p : "");
	return ret;
}

TEST_F(inst, fallback_reaches_the_log_in_one_wording)
{
	char gate[256], pass[256], ipbf[256];

	ASSERT_EQ(0, fallback_line(self, 1, gate, sizeof(gate)));
	ASSERT_EQ(0, fallback_line(self, 2, pass, sizeof(pass)));
	ASSERT_EQ(0, fallback_line(self, 3, ipbf, sizeof(ipbf)));
	TH_LOG("%s", gate);
	EXPECT_EQ(0, strncmp(gate, ": lo: native XDP unavailable (", 30));
	EXPECT_NE(NULL, strstr(gate, "attaching in generic (skb) mode"));
	EXPECT_STREQ(gate, pass);
	EXPECT_STREQ(gate, ipbf);
}

TEST_F(inst, pass_links_live_in_several_namespaces)
{
	struct kbloom_xdp_link l[4];
	struct kbloom_inst_opts oa, ob;
	struct kbloom_inst *a, *b;
	struct kbt_ns nb = {};

	ASSERT_EQ(0, kbt_ns_new(&nb));
	ASSERT_EQ(0, kbt_sh(&nb, "ip link set dev lo up"));
	oa = self->o;
	oa.netns = self->ns.path;
	ob = self->o;
	ob.netns = nb.path;
	ASSERT_EQ(0, kbloom_inst_create(self->name[2], "pass", &oa, NULL, &a));
	ASSERT_EQ(0, kbloom_inst_open(self->name[2], &ob, &b));
	ASSERT_EQ(0, kbloom_inst_attach(a, self->lo, KBLOOM_XDP_MODE_AUTO,
					NULL));
	EXPECT_EQ(0, kbloom_inst_attached(b, self->lo));
	ASSERT_EQ(0, kbloom_inst_attach(b, self->lo, KBLOOM_XDP_MODE_AUTO,
					NULL));
	EXPECT_EQ(-EEXIST, kbloom_inst_attach(a, self->lo,
					      KBLOOM_XDP_MODE_AUTO, NULL));
	ASSERT_EQ(2, kbloom_inst_status(b, l, 4));
	EXPECT_NE(l[0].netns_ino, l[1].netns_ino);
	EXPECT_NE(0, l[0].netns_ino);
	EXPECT_EQ(KBLOOM_XDP_MODE_GENERIC, l[0].mode);
	EXPECT_EQ(KBLOOM_XDP_MODE_GENERIC, l[1].mode);
	EXPECT_EQ(0, kbloom_inst_detach(a, self->lo));
	EXPECT_EQ(1, kbloom_inst_status(a, NULL, 0));
	EXPECT_EQ(1, kbloom_inst_attached(b, self->lo));
	kbloom_inst_close(a);
	EXPECT_EQ(0, kbloom_inst_destroy(b));
	kbt_ns_free(&nb);
}

TEST_HARNESS_MAIN
