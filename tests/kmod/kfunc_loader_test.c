// SPDX-License-Identifier: GPL-2.0
/*
 * The kfunc variants of the gate and mcast paths loaded the way users
 * load them, through libkbloom_xdp.h and kbloomctl, on kbloom.ko's
 * filters (in the guest), packets through BPF_PROG_TEST_RUN of the pinned
 * programs:
 *
 * gate      a module filter name selects the kfunc variant (auto); the
 *           verdict follows the module filter: kbloom_gate_add() puts the
 *           address in the exact map and the module filter (drop, DENY),
 *           a KBLOOM_IOCTL_DEL takes it out of the filter (pass, decided
 *           without an exact lookup), an ADD brings it back (drop),
 *           kbloom_gate_del() removes it from both; RESTORE --replace of
 *           the module filter with an empty image is seen at once;
 *           kbloom_xdp_replace() keeps the variant and the name (a new
 *           program, the same answers); renaming to a missing filter
 *           counts errors and lets the exact map decide; rebuild and
 *           image load / save are refused
 * mcast     the variant asked for explicitly; a port made later takes its
 *           module filter name from the pattern ("kl.%s" -> "kl.lo"); a
 *           join passes the group's copies, an ioctl DEL stops them, an
 *           ADD restarts them, a leave stops them; replace keeps all of
 *           it; a port without a module filter drops; resize is refused
 * kbloomctl xdp attach gate|mcast ... module-filter, status, gate add /
 *           del / test / stats, mcast join / leave / ports on module
 *           filters made and tested with kbloomctl create / test
 * ids       the references' ids (struct kbloom_kfunc_ref in gate_kfilter,
 *           mc_kfilter): resolved by create, by setting a name (a new
 *           gen), by a
 *           port made from the pattern (the pattern itself: 0); a name
 *           of no filter: 0, found by kbloom_xdp_module_resolve() once
 *           the filter exists; after a SWAP the programs keep their
 *           filter until kbloomctl xdp resolve, which makes them follow
 *           the name; kbloom_xdp_replace() resolves a stale id; xdp
 *           resolve of a missing instance fails naming it
 */
#include "guest_harness.h"
#include "kmod_util.h"
#include "bpf/xdp_util.h"
#include "core/kbloomctl_util.h"
#include "uapi/kbloom_kfunc.h"

#define KL_GATE		"kl-gate"	/* instances */
#define KL_MCAST	"kl-mcast"
#define KL_CTL_GATE	"kl-ctl-gate"
#define KL_CTL_MCAST	"kl-ctl-mcast"
#define KL_GFILTER	"kl.gate"	/* module filters */
#define KL_EMPTY	"kl.empty"
#define KL_PORT		"kl.lo"
#define KL_LATER	"kl.later"
#define KL_LO		1		/* the port of the mcast tests: lo */

/* Fail with the reason when the kfuncs cannot be used. */
#define KL_NEED_BTF() do {						\
	if (access(KBLOOM_XDP_MODULE_BTF, F_OK))			\
		TH_LOG("FAIL: kbloom.ko has no BTF (%s missing)",	\
		       KBLOOM_XDP_MODULE_BTF);				\
	ASSERT_EQ(0, access(KBLOOM_XDP_MODULE_BTF, F_OK));		\
} while (0)

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

FIXTURE(kl) {
	int fd;
	struct logbuf log;
	struct kbloom_xdp_opts o;
	struct kbloom_xdp *x;
};

static void kl_clean(int fd)
{
	static const char *const names[] = {
		KL_GFILTER, KL_EMPTY, KL_PORT, "kl.ctl", KL_LATER,
	};
	static const char *const inst[] = {
		KL_GATE, KL_MCAST, KL_CTL_GATE, KL_CTL_MCAST,
	};
	size_t i;

	for (i = 0; i < ARRAY_LEN(inst); i++)
		kbloom_xdp_unpin(NULL, inst[i]);
	for (i = 0; i < ARRAY_LEN(names); i++)
		ku_destroy(fd, names[i]);
}

FIXTURE_SETUP(kl)
{
	self->x = NULL;
	KL_NEED_BTF();
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	kl_clean(self->fd);
	memset(&self->o, 0, sizeof(self->o));
	self->o.log = log_to_buf;
	self->o.log_ctx = &self->log;
	/* small maps: preallocating 64k entries is slow under TCG */
	self->o.max_keys = 64;
	self->o.max_filters = 4;
}

FIXTURE_TEARDOWN(kl)
{
	kbloom_xdp_close(self->x);
	if (self->fd >= 0) {
		kl_clean(self->fd);
		close(self->fd);
	}
}

static int kl_counting(int fd, const char *name)
{
	return ku_create_mk(fd, name, KBLOOM_TYPE_COUNTING, 1 << 14, 4, 4, 0);
}

/* 1: @key possibly in module filter @name, 0: absent, -errno. */
static int kl_mtest(int fd, const char *name, const void *key, __u32 len)
{
	__u32 hits = 0;
	int ret;

	ret = ku_keys(fd, KBLOOM_IOCTL_TEST, name, key, len, len, 1, NULL,
		      NULL, &hits);
	return ret ? ret : (int)hits;
}

static int kl_mkey(int fd, unsigned long cmd, const char *name,
		   const void *key, __u32 len)
{
	return ku_keys(fd, cmd, name, key, len, len, 1, NULL, NULL, NULL);
}

/* Run pinned program @pin of instance @inst on a frame; the verdict. */
static int kl_run(const char *inst, const char *pin, int ifindex,
		  const __u8 *src, const __u8 *dst)
{
	struct kbt_frame_opts o = { .src = src, .dst = dst };
	__u8 buf[256];
	__u32 retval = 0;
	size_t len;
	int fd, ret;

	fd = kbt_prog(inst, pin);
	if (fd < 0)
		return -errno;
	len = kbt_frame(buf, &o);
	ret = kbt_run(fd, buf, len, ifindex, &retval);
	close(fd);
	return ret ? -errno : (int)retval;
}

static const __u8 kl_in[16] = { 10, 1, 0, 1 };
static const __u8 kl_dst[16] = { 10, 1, 0, 200 };

static int kl_gate_run(void)
{
	return kl_run(KL_GATE, "prog_gate", 0, kl_in, kl_dst);
}

/* The gate KL_GATE (DENY) on a new counting module filter KL_GFILTER. */
static void kl_gate_make(struct __test_metadata *_metadata,
			 FIXTURE_DATA(kl) *self)
{
	ASSERT_EQ(0, kl_counting(self->fd, KL_GFILTER));
	self->o.module_filter = KL_GFILTER;
	self->o.mode = KBLOOM_GATE_DENY;
	ASSERT_EQ(0, kbloom_xdp_create(KL_GATE, KBLOOM_XDP_GATE, &self->o,
				       &self->x))
		TH_LOG("log: %s", self->log.text);
}

TEST_F_TIMEOUT(kl, gate, 300)
{
	struct kbloom_gate_stats st, st2;
	char name[KBLOOM_NAME_LEN];
	void *img = NULL;
	__u64 img_len = 0;
	size_t xdp_len = 0;
	__u32 id0;

	kl_gate_make(_metadata, self);
	ASSERT_NE(NULL, self->x);
	EXPECT_EQ(KBLOOM_XDP_VARIANT_KFUNC, kbloom_xdp_variant(self->x));
	ASSERT_EQ(0, kbloom_xdp_module_filter(self->x, 0, name));
	EXPECT_STREQ(KL_GFILTER, name);

	/* add: exact map + module filter */
	EXPECT_EQ(XDP_PASS, kl_gate_run());
	ASSERT_EQ(0, kbloom_gate_add(self->x, kl_in, 4));
	EXPECT_EQ(1, kl_mtest(self->fd, KL_GFILTER, kl_in, 4));
	EXPECT_EQ(XDP_DROP, kl_gate_run());

	/* the module's DEL and ADD decide */
	ASSERT_EQ(0, kl_mkey(self->fd, KBLOOM_IOCTL_DEL, KL_GFILTER, kl_in, 4));
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &st));
	EXPECT_EQ(XDP_PASS, kl_gate_run());
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &st2));
	EXPECT_EQ(st.filter_negatives + 1, st2.filter_negatives);
	EXPECT_EQ(st.exact_lookups, st2.exact_lookups);
	ASSERT_EQ(0, kl_mkey(self->fd, KBLOOM_IOCTL_ADD, KL_GFILTER, kl_in, 4));
	EXPECT_EQ(XDP_DROP, kl_gate_run());

	/* del: both */
	ASSERT_EQ(0, kbloom_gate_del(self->x, kl_in, 4));
	EXPECT_EQ(0, kl_mtest(self->fd, KL_GFILTER, kl_in, 4));
	EXPECT_EQ(XDP_PASS, kl_gate_run());
	ASSERT_EQ(0, kbloom_gate_add(self->x, kl_in, 4));
	EXPECT_EQ(XDP_DROP, kl_gate_run());

	/* nothing to rebuild */
	EXPECT_EQ(-EOPNOTSUPP, kbloom_gate_rebuild(self->x, NULL));

	/* hot replace: new programs, same variant, same answers */
	id0 = kbt_prog_id(KL_GATE, "prog_gate");
	ASSERT_NE(0, id0);
	ASSERT_EQ(0, kbloom_xdp_replace(self->x))
		TH_LOG("log: %s", self->log.text);
	EXPECT_NE(id0, kbt_prog_id(KL_GATE, "prog_gate"));
	kbloom_xdp_close(self->x);
	self->x = NULL;
	ASSERT_EQ(0, kbloom_xdp_open(KL_GATE, &self->o, &self->x));
	EXPECT_EQ(KBLOOM_XDP_VARIANT_KFUNC, kbloom_xdp_variant(self->x));
	ASSERT_EQ(0, kbloom_xdp_module_filter(self->x, 0, name));
	EXPECT_STREQ(KL_GFILTER, name);
	EXPECT_EQ(XDP_DROP, kl_gate_run());
	ASSERT_EQ(0, kl_mkey(self->fd, KBLOOM_IOCTL_DEL, KL_GFILTER, kl_in, 4));
	EXPECT_EQ(XDP_PASS, kl_gate_run());
	ASSERT_EQ(0, kl_mkey(self->fd, KBLOOM_IOCTL_ADD, KL_GFILTER, kl_in, 4));
	EXPECT_EQ(XDP_DROP, kl_gate_run());

	/* RESTORE --replace of the module filter by an empty one */
	ASSERT_EQ(0, kl_counting(self->fd, KL_EMPTY));
	ASSERT_EQ(0, ku_save(self->fd, KL_EMPTY, &img, &img_len));
	ASSERT_EQ(0, ku_restore(self->fd, KL_GFILTER, img, img_len,
				KBLOOM_RESTORE_REPLACE));
	free(img);
	EXPECT_EQ(XDP_PASS, kl_gate_run());
	ASSERT_EQ(0, kl_mkey(self->fd, KBLOOM_IOCTL_ADD, KL_GFILTER, kl_in, 4));
	EXPECT_EQ(XDP_DROP, kl_gate_run());

	/* renamed to a filter that does not exist: errors, exact decides */
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &st));
	ASSERT_EQ(0, kbloom_xdp_set_module_filter(self->x, 0, "kl.none"));
	EXPECT_EQ(XDP_DROP, kl_gate_run());
	ASSERT_EQ(0, kbloom_gate_stats(self->x, &st2));
	EXPECT_EQ(st.errors + 1, st2.errors);
	/* and adding then fails, naming the filter, with nothing changed */
	self->log.len = 0;
	EXPECT_EQ(-ENOENT, kbloom_gate_add(self->x, kl_dst, 4));
	EXPECT_NE(NULL, strstr(self->log.text, "kl.none"))
		TH_LOG("log: %s", self->log.text);
	EXPECT_EQ(-ENOENT, kbloom_gate_del(self->x, kl_dst, 4));
	/* bad names; the gate has id 0 only */
	EXPECT_EQ(-EINVAL, kbloom_xdp_set_module_filter(self->x, 0, "a b"));
	EXPECT_EQ(-EINVAL, kbloom_xdp_set_module_filter(self->x, 0, "g%s"));
	EXPECT_EQ(-EINVAL, kbloom_xdp_set_module_filter(self->x, 1, "g"));
	/* no name: -ENOENT, errors counted */
	ASSERT_EQ(0, kbloom_xdp_set_module_filter(self->x, 0, NULL));
	EXPECT_EQ(-ENOENT, kbloom_xdp_module_filter(self->x, 0, name));
	EXPECT_EQ(-ENOENT, kbloom_xdp_set_module_filter(self->x, 0, NULL));
	EXPECT_EQ(XDP_DROP, kl_gate_run());
	/* images move through the module, not the unread blocks maps */
	self->log.len = 0;
	EXPECT_EQ(-EOPNOTSUPP, kbloom_xdp_filter_save_image(self->x, 0, &img,
							    &xdp_len));
	EXPECT_NE(NULL, strstr(self->log.text, "kfunc"))
		TH_LOG("log: %s", self->log.text);
	EXPECT_EQ(-EOPNOTSUPP, kbloom_xdp_filter_load_image(self->x, 0,
							    kl_in, 4));

	ASSERT_EQ(0, kbloom_xdp_destroy(self->x));
	self->x = NULL;
}

static int kl_check(const __u8 *group)
{
	static const __u8 src[16] = { 10, 1, 0, 9 };

	return kl_run(KL_MCAST, "prog_check", KL_LO, src, group);
}

TEST_F_TIMEOUT(kl, mcast, 300)
{
	char name[KBLOOM_NAME_LEN];
	struct kbloom_xdp_geom g = {};
	__u8 g1[16], g2[16];
	__u32 id0;

	kbt_group(g1, 0, 1);
	kbt_group(g2, 0, 2);
	ASSERT_EQ(0, kl_counting(self->fd, KL_PORT));
	self->o.variant = KBLOOM_XDP_VARIANT_KFUNC;
	self->o.module_filter = "kl.%s";
	ASSERT_EQ(0, kbloom_xdp_create(KL_MCAST, KBLOOM_XDP_MCAST, &self->o,
				       &self->x))
		TH_LOG("log: %s", self->log.text);
	EXPECT_EQ(KBLOOM_XDP_VARIANT_KFUNC, kbloom_xdp_variant(self->x));
	ASSERT_EQ(0, kbloom_xdp_module_filter(self->x, 0, name));
	EXPECT_STREQ("kl.%s", name);

	/* a port made now takes its name from the pattern */
	ASSERT_EQ(0, kbloom_mcast_port_add(self->x, KL_LO, NULL))
		TH_LOG("log: %s", self->log.text);
	ASSERT_EQ(0, kbloom_xdp_module_filter(self->x, KL_LO, name));
	EXPECT_STREQ(KL_PORT, name);

	/* join: the module filter has the group */
	EXPECT_EQ(XDP_DROP, kl_check(g1));
	ASSERT_EQ(0, kbloom_mcast_join(self->x, KL_LO, g1, 4));
	EXPECT_EQ(1, kl_mtest(self->fd, KL_PORT, g1, 4));
	EXPECT_EQ(XDP_PASS, kl_check(g1));
	EXPECT_EQ(XDP_DROP, kl_check(g2));

	/* the module's DEL and ADD decide */
	ASSERT_EQ(0, kl_mkey(self->fd, KBLOOM_IOCTL_DEL, KL_PORT, g1, 4));
	EXPECT_EQ(XDP_DROP, kl_check(g1));
	ASSERT_EQ(0, kl_mkey(self->fd, KBLOOM_IOCTL_ADD, KL_PORT, g1, 4));
	EXPECT_EQ(XDP_PASS, kl_check(g1));

	/* leave: one DEL, the membership goes */
	ASSERT_EQ(0, kbloom_mcast_leave(self->x, KL_LO, g1, 4));
	EXPECT_EQ(0, kl_mtest(self->fd, KL_PORT, g1, 4));
	EXPECT_EQ(XDP_DROP, kl_check(g1));
	EXPECT_EQ(0, kbloom_mcast_groups(self->x, KL_LO, NULL, 0));
	EXPECT_EQ(-ENOENT, kbloom_mcast_leave(self->x, KL_LO, g1, 4));
	ASSERT_EQ(0, kbloom_mcast_join(self->x, KL_LO, g1, 4));
	EXPECT_EQ(XDP_PASS, kl_check(g1));

	/* hot replace keeps the variant and the names */
	id0 = kbt_prog_id(KL_MCAST, "prog_check");
	ASSERT_EQ(0, kbloom_xdp_replace(self->x))
		TH_LOG("log: %s", self->log.text);
	EXPECT_NE(id0, kbt_prog_id(KL_MCAST, "prog_check"));
	kbloom_xdp_close(self->x);
	self->x = NULL;
	ASSERT_EQ(0, kbloom_xdp_open(KL_MCAST, &self->o, &self->x));
	EXPECT_EQ(KBLOOM_XDP_VARIANT_KFUNC, kbloom_xdp_variant(self->x));
	ASSERT_EQ(0, kbloom_xdp_module_filter(self->x, KL_LO, name));
	EXPECT_STREQ(KL_PORT, name);
	EXPECT_EQ(XDP_PASS, kl_check(g1));
	ASSERT_EQ(0, kl_mkey(self->fd, KBLOOM_IOCTL_DEL, KL_PORT, g1, 4));
	EXPECT_EQ(XDP_DROP, kl_check(g1));
	ASSERT_EQ(0, kl_mkey(self->fd, KBLOOM_IOCTL_ADD, KL_PORT, g1, 4));
	EXPECT_EQ(XDP_PASS, kl_check(g1));

	/* a name of a missing filter, then none: the copies are dropped */
	ASSERT_EQ(0, kbloom_xdp_set_module_filter(self->x, KL_LO, "kl.none"));
	EXPECT_EQ(XDP_DROP, kl_check(g1));
	/* a join fails, naming the filter; a leave still drops the membership */
	self->log.len = 0;
	EXPECT_EQ(-ENOENT, kbloom_mcast_join(self->x, KL_LO, g2, 4));
	EXPECT_NE(NULL, strstr(self->log.text, "kl.none"))
		TH_LOG("log: %s", self->log.text);
	EXPECT_EQ(0, kbloom_mcast_leave(self->x, KL_LO, g1, 4));
	EXPECT_EQ(0, kbloom_mcast_groups(self->x, KL_LO, NULL, 0));
	ASSERT_EQ(0, kbloom_xdp_set_module_filter(self->x, KL_LO, NULL));
	EXPECT_EQ(XDP_DROP, kl_check(g1));
	EXPECT_EQ(-ENOENT, kbloom_mcast_join(self->x, KL_LO, g2, 4));
	/* "%s" in a port's name: its interface (kl.lo, which still has g1) */
	ASSERT_EQ(0, kbloom_xdp_set_module_filter(self->x, KL_LO, "kl.%s"));
	ASSERT_EQ(0, kbloom_xdp_module_filter(self->x, KL_LO, name));
	EXPECT_STREQ(KL_PORT, name);
	EXPECT_EQ(XDP_PASS, kl_check(g1));

	/* the filters are the module's: no resize */
	g.capacity = 100;
	EXPECT_EQ(-EOPNOTSUPP, kbloom_mcast_port_resize(self->x, KL_LO, &g));

	/* a removed port loses its name */
	ASSERT_EQ(0, kbloom_mcast_port_del(self->x, KL_LO));
	EXPECT_EQ(-ENOENT, kbloom_xdp_module_filter(self->x, KL_LO, name));
	ASSERT_EQ(0, kbloom_xdp_destroy(self->x));
	self->x = NULL;
}

/* ---- ids ------------------------------------------------------------------------ */

/* The id of module filter @name, 0 when there is none. */
static __u32 kl_id(int fd, const char *name)
{
	struct kbloom_stat st;

	return ku_stat(fd, name, &st) ? 0 : st.id;
}

/* Reference @key of instance @inst's pinned map @map: read or written. */
static int kl_ref(const char *inst, const char *map, __u32 key,
		  struct kbloom_kfunc_ref *r, int set)
{
	int fd = kbt_prog(inst, map), ret;

	if (fd < 0)
		return -errno;
	if (set)
		ret = bpf_map_update_elem(fd, &key, r, BPF_EXIST);
	else
		ret = bpf_map_lookup_elem(fd, &key, r);
	close(fd);
	return ret ? -errno : 0;
}

/* The id in the gate's reference, or ~0U when it cannot be read. */
static __u32 kl_gate_id(void)
{
	struct kbloom_kfunc_ref r;

	return kl_ref(KL_GATE, "gate_kfilter", 0, &r, 0) ? ~0U : r.id;
}

/* After a SWAP the filter resolved before, until kbloomctl xdp resolve. */
static void kl_ids_swap(struct __test_metadata *_metadata, int fd)
{
	struct kbctl_res r;
	__u32 id = kl_id(fd, KL_GFILTER);

	ASSERT_EQ(id, kl_gate_id());
	ASSERT_EQ(0, ku_name_pair(fd, KBLOOM_IOCTL_SWAP, KL_GFILTER, KL_EMPTY,
				  0));
	EXPECT_EQ(id, kl_gate_id());
	EXPECT_EQ(XDP_DROP, kl_gate_run());
	EXPECT_EQ(0, kbctl_run(&r, "xdp", "resolve", KL_GATE))
		TH_LOG("stderr: %s", r.err);
	EXPECT_NE(NULL, strstr(r.out, KL_GATE ": 1 module filter found"))
		TH_LOG("out: %s", r.out);
	kbctl_free(&r);
	EXPECT_EQ(kl_id(fd, KL_GFILTER), kl_gate_id());
	EXPECT_NE(id, kl_gate_id());
	EXPECT_EQ(XDP_PASS, kl_gate_run());
	EXPECT_NE(0, kbctl_run(&r, "xdp", "resolve", "kl-none"));
	EXPECT_NE(NULL, strstr(r.err, "kl-none")) TH_LOG("err: %s", r.err);
	kbctl_free(&r);
}

static void kl_ids_mcast(struct __test_metadata *_metadata,
			 FIXTURE_DATA(kl) *self)
{
	struct kbloom_kfunc_ref r;

	ASSERT_EQ(0, kl_counting(self->fd, KL_PORT));
	self->o.mode = 0;
	self->o.variant = KBLOOM_XDP_VARIANT_KFUNC;
	self->o.module_filter = "kl.%s";
	ASSERT_EQ(0, kbloom_xdp_create(KL_MCAST, KBLOOM_XDP_MCAST, &self->o,
				       &self->x))
		TH_LOG("log: %s", self->log.text);
	ASSERT_EQ(0, kbloom_mcast_port_add(self->x, KL_LO, NULL))
		TH_LOG("log: %s", self->log.text);
	ASSERT_EQ(0, kl_ref(KL_MCAST, "mc_kfilter", KL_LO, &r, 0));
	EXPECT_STREQ(KL_PORT, r.name);
	EXPECT_EQ(kl_id(self->fd, KL_PORT), r.id);
	ASSERT_EQ(0, kl_ref(KL_MCAST, "mc_kfilter", 0, &r, 0));
	EXPECT_EQ(0, r.id);
	ASSERT_EQ(0, kbloom_xdp_destroy(self->x));
	self->x = NULL;
}

TEST_F_TIMEOUT(kl, ids, 300)
{
	struct kbloom_kfunc_ref r;
	__u32 id, gen;

	ASSERT_EQ(0, kl_counting(self->fd, KL_EMPTY));
	kl_gate_make(_metadata, self);
	ASSERT_NE(NULL, self->x);
	id = kl_id(self->fd, KL_GFILTER);
	ASSERT_NE(0, id);
	EXPECT_EQ(id, kl_gate_id());
	ASSERT_EQ(0, kbloom_gate_add(self->x, kl_in, 4));
	EXPECT_EQ(XDP_DROP, kl_gate_run());

	/* a name set: its id at once, a new gen */
	ASSERT_EQ(0, kl_ref(KL_GATE, "gate_kfilter", 0, &r, 0));
	gen = r.gen;
	ASSERT_EQ(0, kbloom_xdp_set_module_filter(self->x, 0, KL_EMPTY));
	EXPECT_EQ(kl_id(self->fd, KL_EMPTY), kl_gate_id());
	ASSERT_EQ(0, kl_ref(KL_GATE, "gate_kfilter", 0, &r, 0));
	EXPECT_EQ(gen + 1, r.gen);
	EXPECT_EQ(XDP_PASS, kl_gate_run());
	/* a name of no filter: 0, until resolved once the filter exists */
	ASSERT_EQ(0, kbloom_xdp_set_module_filter(self->x, 0, KL_LATER));
	EXPECT_EQ(0, kl_gate_id());
	EXPECT_EQ(0, kbloom_xdp_module_resolve(self->x));
	ASSERT_EQ(0, kl_counting(self->fd, KL_LATER));
	EXPECT_EQ(1, kbloom_xdp_module_resolve(self->x));
	EXPECT_EQ(kl_id(self->fd, KL_LATER), kl_gate_id());
	EXPECT_EQ(-EINVAL, kbloom_xdp_module_resolve(NULL));

	/* SWAP, then kbloomctl xdp resolve */
	ASSERT_EQ(0, kbloom_xdp_set_module_filter(self->x, 0, KL_GFILTER));
	kl_ids_swap(_metadata, self->fd);

	/* replace resolves a stale id (another live filter's) */
	ASSERT_EQ(0, kl_ref(KL_GATE, "gate_kfilter", 0, &r, 0));
	r.id = kl_id(self->fd, KL_EMPTY);
	ASSERT_EQ(0, kl_ref(KL_GATE, "gate_kfilter", 0, &r, 1));
	EXPECT_EQ(XDP_DROP, kl_gate_run());
	ASSERT_EQ(0, kbloom_xdp_replace(self->x))
		TH_LOG("log: %s", self->log.text);
	EXPECT_EQ(kl_id(self->fd, KL_GFILTER), kl_gate_id());
	EXPECT_EQ(XDP_PASS, kl_gate_run());
	ASSERT_EQ(0, kbloom_xdp_destroy(self->x));
	self->x = NULL;

	kl_ids_mcast(_metadata, self);
}

/* ---- kbloomctl ------------------------------------------------------------------ */

#define OK(r, ...) do {							\
	EXPECT_EQ(0, kbctl_run(r, __VA_ARGS__)) TH_LOG("stderr: %s", (r)->err); \
	EXPECT_EQ(0, (int)(r)->err_len) TH_LOG("stderr: %s", (r)->err);	\
} while (0)

#define HAS(s, sub)							\
	EXPECT_NE(NULL, strstr(s, sub)) TH_LOG("wanted '%s' in: %s", sub, s)

TEST_F_TIMEOUT(kl, kbloomctl, 300)
{
	struct kbctl_res r;
	__u8 a[16] = { 10, 1, 0, 7 }, g1[16];

	kbt_group(g1, 0, 3);
	/* the gate */
	OK(&r, "create", "kl.ctl", "counting", "capacity", "1000", "fpr", "1%");
	kbctl_free(&r);
	OK(&r, "xdp", "attach", "gate", KL_CTL_GATE, "dev", "lo", "mode",
	   "generic", "policy", "deny", "keys", "64", "module-filter",
	   "kl.ctl");
	kbctl_free(&r);
	OK(&r, "xdp", "status", KL_CTL_GATE);
	HAS(r.out, "variant kfunc (kbloom.ko filters), module filter kl.ctl");
	kbctl_free(&r);
	OK(&r, "xdp", "status", KL_CTL_GATE, "-j");
	EXPECT_EQ(1, kbj_valid(r.out, r.out_len));
	HAS(r.out, "\"variant\":\"kfunc\"");
	HAS(r.out, "\"module_filter\":\"kl.ctl\"");
	kbctl_free(&r);
	OK(&r, "gate", "add", KL_CTL_GATE, "10.1.0.7");
	kbctl_free(&r);
	OK(&r, "--key", "ipv4", "test", "kl.ctl", "10.1.0.7");
	kbctl_free(&r);
	EXPECT_EQ(XDP_DROP, kl_run(KL_CTL_GATE, "prog_gate", 0, a, kl_dst));
	OK(&r, "gate", "test", KL_CTL_GATE, "10.1.0.7");
	HAS(r.out, "in the set (filter: possibly present)");
	kbctl_free(&r);
	OK(&r, "gate", "stats", KL_CTL_GATE);
	HAS(r.out, "variant:           kfunc, module filter kl.ctl");
	HAS(r.out, "inserted:          1");
	kbctl_free(&r);
	/* the module's del decides */
	OK(&r, "--key", "ipv4", "del", "kl.ctl", "10.1.0.7");
	kbctl_free(&r);
	EXPECT_EQ(XDP_PASS, kl_run(KL_CTL_GATE, "prog_gate", 0, a, kl_dst));
	OK(&r, "gate", "test", KL_CTL_GATE, "10.1.0.7");
	HAS(r.out, "in the set (filter: definitely absent)");
	kbctl_free(&r);
	kbctl_run(&r, "gate", "rebuild", KL_CTL_GATE);
	EXPECT_EQ(3, r.status);
	HAS(r.err, "kbloom.ko");
	kbctl_free(&r);
	/* a new name on the kfunc gate, of no filter yet: a note */
	EXPECT_EQ(0, kbctl_run(&r, "xdp", "attach", "gate", KL_CTL_GATE, "dev",
			       "lo", "-exist", "module-filter", "kl.empty"))
		TH_LOG("stderr: %s", r.err);
	HAS(r.err, "module filter kl.empty does not exist yet");
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "xdp", "status", KL_CTL_GATE));
	HAS(r.out, "module filter kl.empty");
	kbctl_free(&r);
	kbctl_run(&r, "gate", "add", KL_CTL_GATE, "10.1.0.8");
	EXPECT_EQ(3, r.status);
	HAS(r.err, "no such filter in kbloom.ko");
	kbctl_free(&r);
	OK(&r, "gate", "list", KL_CTL_GATE);
	EXPECT_EQ(NULL, strstr(r.out, "10.1.0.8"));
	kbctl_free(&r);
	OK(&r, "xdp", "detach", KL_CTL_GATE);
	kbctl_free(&r);

	/* the switch: ports named from the pattern */
	OK(&r, "create", KL_PORT, "counting", "capacity", "1000", "fpr", "1%");
	kbctl_free(&r);
	OK(&r, "xdp", "attach", "mcast", KL_CTL_MCAST, "dev", "lo", "mode",
	   "generic", "ports", "4", "members", "64", "variant", "kfunc",
	   "module-filter", "kl.%s");
	kbctl_free(&r);
	OK(&r, "xdp", "status", KL_CTL_MCAST);
	HAS(r.out, "variant kfunc (kbloom.ko filters), module filter of new ports kl.%s");
	HAS(r.out, "module filter kl.lo");
	kbctl_free(&r);
	OK(&r, "mcast", "join", KL_CTL_MCAST, "lo", "239.1.0.3");
	kbctl_free(&r);
	OK(&r, "--key", "ipv4", "test", KL_PORT, "239.1.0.3");
	kbctl_free(&r);
	EXPECT_EQ(XDP_PASS, kl_run(KL_CTL_MCAST, "prog_check", KL_LO, a, g1));
	OK(&r, "mcast", "ports", KL_CTL_MCAST);
	HAS(r.out, "MODULE_FILTER");
	HAS(r.out, KL_PORT);
	kbctl_free(&r);
	OK(&r, "mcast", "ports", KL_CTL_MCAST, "-j");
	EXPECT_EQ(1, kbj_valid(r.out, r.out_len));
	HAS(r.out, "\"module_filter\":\"kl.lo\"");
	kbctl_free(&r);
	OK(&r, "mcast", "leave", KL_CTL_MCAST, "lo", "239.1.0.3");
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "--key", "ipv4", "test", KL_PORT,
			       "239.1.0.3"));
	kbctl_free(&r);
	EXPECT_EQ(XDP_DROP, kl_run(KL_CTL_MCAST, "prog_check", KL_LO, a, g1));
	OK(&r, "xdp", "detach", KL_CTL_MCAST);
	kbctl_free(&r);
}

TEST_HARNESS_MAIN
