// SPDX-License-Identifier: GPL-2.0
/*
 * The variant of an XDP instance on a host without kbloom.ko (the bpf
 * suite's host: no module support), through libkbloom_xdp.h and
 * kbloomctl:
 *
 *  - asking for the kfunc variant is refused with -ENOENT and a log line
 *    naming kbloom.ko and its BTF; nothing is left pinned; kbloomctl says
 *    so in one line and exits 3;
 *  - auto with a module filter name falls back to the map-backed variant
 *    with a note, and the instance works as one (a packet test-run);
 *  - map-backed instances have no module filters (-EOPNOTSUPP, also
 *    kbloom_xdp_module_resolve() and kbloomctl xdp resolve), keep
 *    their variant through kbloom_xdp_replace() and show it in status;
 *  - bad names and variants are -EINVAL / usage errors.
 *
 * The kfunc variant itself runs in the guest (tests/kmod/kfunc_loader_test.c).
 */
#include <linux/bpf.h>

#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"
#include "core/kbloomctl_util.h"

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

FIXTURE(var) {
	char name[64];
	struct logbuf log;
	struct kbloom_xdp_opts o;
	bool module;
};

FIXTURE_SETUP(var)
{
	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "var");
	self->o.log = log_to_buf;
	self->o.log_ctx = &self->log;
	self->module = !access(KBLOOM_XDP_MODULE_BTF, F_OK);
	if (self->module)
		SKIP(return, "%s exists: kbloom.ko is loaded here",
		     KBLOOM_XDP_MODULE_BTF);
}

FIXTURE_TEARDOWN(var)
{
	kbt_unpin(self->name);
}

static bool pinned(const char *name)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", KBT_PIN_ROOT, name);
	return !access(p, F_OK);
}

TEST_F(var, kfunc_without_module)
{
	static const enum kbloom_xdp_kind kinds[] = {
		KBLOOM_XDP_GATE, KBLOOM_XDP_MCAST,
	};
	struct kbloom_xdp *x = NULL;
	size_t i;

	if (self->module)
		return;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		self->log.len = 0;
		self->log.text[0] = 0;
		self->o.variant = KBLOOM_XDP_VARIANT_KFUNC;
		self->o.module_filter = i ? "sw.%s" : "blocked";
		EXPECT_EQ(-ENOENT, kbloom_xdp_create(self->name, kinds[i],
						     &self->o, &x));
		EXPECT_EQ(NULL, x);
		EXPECT_NE(NULL, strstr(self->log.text, "kbloom.ko"))
			TH_LOG("log: %s", self->log.text);
		EXPECT_NE(NULL, strstr(self->log.text, KBLOOM_XDP_MODULE_BTF))
			TH_LOG("log: %s", self->log.text);
		EXPECT_FALSE(pinned(self->name));
		/* without a name too */
		self->o.module_filter = NULL;
		EXPECT_EQ(-ENOENT, kbloom_xdp_create(self->name, kinds[i],
						     &self->o, &x));
		EXPECT_FALSE(pinned(self->name));
	}
}

TEST_F(var, auto_falls_back_to_map)
{
	char name[KBLOOM_NAME_LEN];
	struct kbloom_xdp *x = NULL;
	__u8 buf[256], src[16] = { 10, 9, 0, 1 }, dst[16] = { 10, 9, 0, 2 };
	struct kbt_frame_opts fo = { .src = src, .dst = dst };
	__u32 retval = 0;
	size_t len;
	int fd;

	if (self->module)
		return;
	self->o.module_filter = "blocked";
	self->o.mode = KBLOOM_GATE_DENY;
	self->o.max_keys = 64;
	ASSERT_EQ(0, kbloom_xdp_create(self->name, KBLOOM_XDP_GATE, &self->o,
				       &x)) TH_LOG("log: %s", self->log.text);
	EXPECT_EQ(KBLOOM_XDP_VARIANT_MAP, kbloom_xdp_variant(x));
	EXPECT_NE(NULL, strstr(self->log.text, "map-backed"))
		TH_LOG("log: %s", self->log.text);
	EXPECT_NE(NULL, strstr(self->log.text, "blocked"));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_xdp_set_module_filter(x, 0, "blocked"));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_xdp_module_filter(x, 0, name));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_xdp_module_resolve(x));
	/* no kfunc name map was pinned */
	fd = kbt_prog(self->name, "gate_kfilter");
	EXPECT_GT(0, fd);
	/* a working map-backed gate */
	ASSERT_EQ(0, kbloom_gate_add(x, src, 4));
	len = kbt_frame(buf, &fo);
	fd = kbt_prog(self->name, "prog_gate");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, kbt_run(fd, buf, len, 0, &retval));
	EXPECT_EQ(XDP_DROP, retval);
	close(fd);

	/* replace keeps the variant; a fresh handle sees it */
	ASSERT_EQ(0, kbloom_xdp_replace(x)) TH_LOG("log: %s", self->log.text);
	kbloom_xdp_close(x);
	x = NULL;
	ASSERT_EQ(0, kbloom_xdp_open(self->name, &self->o, &x));
	EXPECT_EQ(KBLOOM_XDP_VARIANT_MAP, kbloom_xdp_variant(x));
	fd = kbt_prog(self->name, "prog_gate");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, kbt_run(fd, buf, len, 0, &retval));
	EXPECT_EQ(XDP_DROP, retval);
	close(fd);
	kbloom_xdp_close(x);
}

TEST_F(var, bad_options)
{
	struct kbloom_xdp *x = NULL;

	if (self->module)
		return;
	/* a module filter with the map variant asked for */
	self->o.variant = KBLOOM_XDP_VARIANT_MAP;
	self->o.module_filter = "blocked";
	EXPECT_EQ(-EINVAL, kbloom_xdp_create(self->name, KBLOOM_XDP_GATE,
					     &self->o, &x));
	/* an unknown variant */
	self->o.variant = 7;
	self->o.module_filter = NULL;
	EXPECT_EQ(-EINVAL, kbloom_xdp_create(self->name, KBLOOM_XDP_GATE,
					     &self->o, &x));
	/* names: invalid characters, too long, %s for a gate, two %s */
	self->o.variant = KBLOOM_XDP_VARIANT_AUTO;
	self->o.module_filter = "a b";
	EXPECT_EQ(-EINVAL, kbloom_xdp_create(self->name, KBLOOM_XDP_GATE,
					     &self->o, &x));
	self->o.module_filter = "0123456789012345678901234567890123";
	EXPECT_EQ(-EINVAL, kbloom_xdp_create(self->name, KBLOOM_XDP_GATE,
					     &self->o, &x));
	self->o.module_filter = "g.%s";
	EXPECT_EQ(-EINVAL, kbloom_xdp_create(self->name, KBLOOM_XDP_GATE,
					     &self->o, &x));
	self->o.module_filter = "%s.%s";
	EXPECT_EQ(-EINVAL, kbloom_xdp_create(self->name, KBLOOM_XDP_MCAST,
					     &self->o, &x));
	EXPECT_EQ(NULL, x);
	EXPECT_FALSE(pinned(self->name));
}

/* ---- kbloomctl ------------------------------------------------------------------ */

#define EXPECT_EXIT(r, code, sub) do {					\
	EXPECT_EQ(code, (r)->status) TH_LOG("stderr: %s", (r)->err);	\
	EXPECT_EQ(0, (int)(r)->out_len);				\
	EXPECT_EQ(1, kbctl_lines((r)->err)) TH_LOG("stderr: %s", (r)->err); \
	EXPECT_NE(NULL, strstr((r)->err, sub))				\
		TH_LOG("wanted '%s' in: %s", sub, (r)->err);		\
} while (0)

TEST_F(var, kbloomctl)
{
	struct kbt_ns ns = { 0 };
	struct kbctl_res r;

	if (self->module)
		return;
	/* a namespace of our own: its lo gets the gate */
	ASSERT_EQ(0, kbt_ns_new(&ns));
	ASSERT_EQ(0, kbt_sh(&ns, "ip link set dev lo up"));
	/* kfunc asked for: exit 3, one line naming the module */
	kbctl_run(&r, "xdp", "attach", "gate", self->name, "dev", "lo",
		  "variant", "kfunc", "module-filter", "blocked");
	EXPECT_EXIT(&r, 3, "kbloom.ko");
	EXPECT_NE(NULL, strstr(r.err, "No such file or directory"));
	kbctl_free(&r);
	EXPECT_FALSE(pinned(self->name));
	kbctl_run(&r, "xdp", "attach", "mcast", self->name, "dev", "lo",
		  "variant", "kfunc");
	EXPECT_EXIT(&r, 3, KBLOOM_XDP_MODULE_BTF);
	kbctl_free(&r);
	EXPECT_FALSE(pinned(self->name));

	/* usage errors: nothing made */
	kbctl_run(&r, "xdp", "attach", "gate", self->name, "dev", "lo",
		  "variant", "bogus");
	EXPECT_EXIT(&r, 2, "variant 'bogus'");
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "attach", "gate", self->name, "dev", "lo",
		  "variant", "map", "module-filter", "blocked");
	EXPECT_EXIT(&r, 2, "not with variant map");
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "attach", "gate", self->name, "dev", "lo",
		  "module-filter", "a", "b");
	EXPECT_EXIT(&r, 2, "module-filter");
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "attach", "mcast", self->name, "dev", "lo",
		  "module-filter", "bad name");
	EXPECT_EXIT(&r, 2, "module-filter 'bad name'");
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "attach", "pass", self->name, "dev", "lo",
		  "variant", "kfunc");
	EXPECT_EXIT(&r, 2, "only for mcast and gate");
	kbctl_free(&r);
	EXPECT_FALSE(pinned(self->name));

	/* auto with a name: map-backed, with a note; status says so */
	EXPECT_EQ(0, kbctl_run(&r, "xdp", "attach", "gate", self->name, "dev",
			       "lo", "netns", ns.path, "mode", "generic",
			       "module-filter", "blocked"))
		TH_LOG("stderr: %s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "note:")) TH_LOG("stderr: %s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "map-backed"));
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "xdp", "status", self->name, "netns",
			       ns.path));
	EXPECT_NE(NULL, strstr(r.out, "variant map")) TH_LOG("out: %s", r.out);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "xdp", "status", self->name, "netns",
			       ns.path, "-j"));
	EXPECT_EQ(1, kbj_valid(r.out, r.out_len));
	EXPECT_NE(NULL, strstr(r.out, "\"variant\":\"map\"")) TH_LOG("out: %s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\"module_filter\":null"));
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "gate", "stats", self->name));
	EXPECT_NE(NULL, strstr(r.out, "variant:           map"));
	kbctl_free(&r);
	/* a map-backed instance has no module filters */
	kbctl_run(&r, "xdp", "attach", "gate", self->name, "dev", "lo",
		  "netns", ns.path, "module-filter", "other", "-exist");
	EXPECT_EXIT(&r, 3, "map-backed");
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "attach", "gate", self->name, "dev", "lo",
		  "netns", ns.path, "variant", "kfunc", "-exist");
	EXPECT_EXIT(&r, 3, "variant applies when the instance is made");
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "resolve", self->name);
	EXPECT_EXIT(&r, 3, "map-backed");
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "xdp", "detach", self->name, "netns",
			       ns.path)) TH_LOG("stderr: %s", r.err);
	kbctl_free(&r);
	kbt_ns_free(&ns);

	/* the help names the keywords */
	EXPECT_EQ(0, kbctl_run(&r, "xdp", "attach", "--help"));
	EXPECT_NE(NULL, strstr(r.out, "module-filter NAME"));
	EXPECT_NE(NULL, strstr(r.out, "variant auto|map|kfunc"));
	kbctl_free(&r);
}

TEST_HARNESS_MAIN
