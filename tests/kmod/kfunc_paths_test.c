// SPDX-License-Identifier: GPL-2.0
/*
 * The kfunc variants of the XDP paths (bpf/kbloom_kfunc_gate.bpf.c,
 * bpf/kbloom_kfunc_mcast.bpf.c) on kbloom.ko's filters, under
 * BPF_PROG_TEST_RUN in the guest.  The objects are loaded directly from
 * their skeletons and their maps filled by hand, as a loader would.
 *
 * gate           IPv4 then IPv6; DENY and ALLOW: an address in the module filter and the
 *                exact map is in the set; one in the filter only is a
 *                caught false positive; one in neither is decided by the
 *                filter alone; a KBLOOM_IOCTL_DEL takes an address out
 *                of the filter at once (counting filter, no rebuild); no
 *                module filter: counted as an error, the exact map
 *                decides
 * mcast          IPv4 then IPv6; kbloom_mcast_check: a copy of a joined group passes, of
 *                another group is dropped, a leave (DEL) stops it, IGMP
 *                and MLD never pass, a port without a module filter
 *                drops; the devmap egress program loads
 * gate.by_id     the reference's id (struct kbloom_kfunc_ref): a name
 *                alone is resolved by the first packet, which stores the
 *                filter's id and keeps the loader's gen; then the id decides and the name is not
 *                read (a wrong name changes nothing); RESTORE --replace:
 *                the old id misses, the packet tests the restored filter
 *                and keeps its new id, no error; destroyed: a miss, an
 *                error, the exact map decides, created again: resolved by
 *                the next packet; SWAP: the id keeps testing its filter
 * mcast.by_id    the same for a port: resolved by the first copy, a
 *                RESTORE --replace followed at once, a destroyed filter
 *                drops the copies
 */
#include "guest_harness.h"
#include "kmod_util.h"
#include "bpf/xdp_util.h"
#include "uapi/kbloom_kfunc.h"
#include "bpf/kbloom_kfunc_gate.skel.h"
#include "bpf/kbloom_kfunc_mcast.skel.h"

#define KP_BTF		"/sys/kernel/btf/kbloom"
#define KP_GATE		"kp.gate"
#define KP_EMPTY	"kp.empty"
#define KP_PORT		"kp.port1"
#define KP_LO		1	/* the port of the mcast tests: lo */

/* Fail with the reason when the kfuncs cannot be used. */
#define KP_NEED_BTF() do {						\
	if (access(KP_BTF, F_OK))					\
		TH_LOG("FAIL: kbloom.ko has no BTF (%s missing): built without pahole/resolve_btfids?", \
		       KP_BTF);						\
	ASSERT_EQ(0, access(KP_BTF, F_OK));				\
} while (0)

/* A reference by name only (id 0): the program resolves it. */
static void kp_name(struct kbloom_kfunc_ref *n, const char *name)
{
	memset(n, 0, sizeof(*n));
	strncpy(n->name, name, sizeof(n->name) - 1);
}

/* Address @i of family @v6: 10.1.0.i or fd00::i. */
static void kp_addr(__u8 a[16], int v6, __u32 i)
{
	memset(a, 0, 16);
	if (!v6) {
		a[0] = 10;
		a[1] = 1;
		a[3] = (__u8)i;
	} else {
		a[0] = 0xfd;
		a[15] = (__u8)i;
	}
}

static __u32 kp_alen(int v6)
{
	return v6 ? KBLOOM_ADDR6_LEN : KBLOOM_ADDR4_LEN;
}

/* ---- gate ---------------------------------------------------------------- */

FIXTURE(gate) {
	int fd;
	struct kbloom_kfunc_gate *skel;
};

FIXTURE_SETUP(gate)
{
	struct kbloom_kfunc_ref n;
	__u32 zero = 0;

	KP_NEED_BTF();
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ku_destroy(self->fd, KP_GATE);
	ASSERT_EQ(0, ku_create_mk(self->fd, KP_GATE, KBLOOM_TYPE_COUNTING,
				  1 << 14, 4, 4, 0));
	/* small maps, as a loader sizes them: preallocating 64k entries
	 * under TCG and slub_debug takes seconds
	 */
	self->skel = kbloom_kfunc_gate__open();
	ASSERT_NE(NULL, self->skel);
	ASSERT_EQ(0, bpf_map__set_max_entries(self->skel->maps.gate_exact, 64));
	ASSERT_EQ(0, kbloom_kfunc_gate__load(self->skel));
	kp_name(&n, KP_GATE);
	ASSERT_EQ(0, bpf_map__update_elem(self->skel->maps.gate_kfilter,
					  &zero, 4, &n, sizeof(n), 0));
}

FIXTURE_TEARDOWN(gate)
{
	kbloom_kfunc_gate__destroy(self->skel);
	if (self->fd >= 0) {
		ku_destroy(self->fd, KP_GATE);
		close(self->fd);
	}
}

static int gate_mode(struct kbloom_kfunc_gate *skel, __u32 mode)
{
	struct kbloom_gate_cfg cfg = { .mode = mode };
	__u32 zero = 0;

	return bpf_map__update_elem(skel->maps.gate_config, &zero, 4, &cfg,
				    sizeof(cfg), 0);
}

static int gate_exact(struct kbloom_kfunc_gate *skel, const __u8 *a,
		      __u32 len, int add)
{
	struct kbloom_addr_key k = { .len = len };
	__u32 one = 1;

	memcpy(k.addr, a, len);
	if (!add)
		return bpf_map__delete_elem(skel->maps.gate_exact, &k,
					    sizeof(k), 0);
	return bpf_map__update_elem(skel->maps.gate_exact, &k, sizeof(k),
				    &one, sizeof(one), 0);
}

/* Run the gate on a UDP frame from @src. */
static int gate_run(struct kbloom_kfunc_gate *skel, int v6, const __u8 *src)
{
	__u8 dst[16], buf[256];
	struct kbt_frame_opts o = { .v6 = v6, .src = src, .dst = dst };
	__u32 retval = 0;
	size_t len;

	kp_addr(dst, v6, 200);
	len = kbt_frame(buf, &o);
	if (kbt_run(bpf_program__fd(skel->progs.kbloom_gate), buf, len, 0,
		    &retval))
		return -errno;
	return retval;
}

static int gate_stats_reset(struct kbloom_kfunc_gate *skel)
{
	int n = libbpf_num_possible_cpus(), ret;
	struct kbloom_gate_stats *per;
	__u32 zero = 0;

	per = calloc(n, sizeof(*per));
	if (!per)
		return -ENOMEM;
	ret = bpf_map__update_elem(skel->maps.gate_stats, &zero, 4, per,
				   n * sizeof(*per), 0);
	free(per);
	return ret;
}

static int gate_stats(struct kbloom_kfunc_gate *skel,
		      struct kbloom_gate_stats *sum)
{
	int n = libbpf_num_possible_cpus(), i, ret;
	struct kbloom_gate_stats *per;
	__u32 zero = 0;
	__u64 *s, *p;
	size_t j;

	per = calloc(n, sizeof(*per));
	if (!per)
		return -ENOMEM;
	ret = bpf_map__lookup_elem(skel->maps.gate_stats, &zero, 4, per,
				   n * sizeof(*per), 0);
	memset(sum, 0, sizeof(*sum));
	for (i = 0; !ret && i < n; i++) {
		s = (__u64 *)sum;
		p = (__u64 *)&per[i];
		for (j = 0; j < sizeof(*sum) / 8; j++)
			s[j] += p[j];
	}
	free(per);
	return ret;
}

/*
 * One family.  Each object loads once per test: the 6.1 verifier takes
 * seconds over the parser under TCG.
 */
static void gate_case(struct __test_metadata *_metadata,
		      FIXTURE_DATA(gate) *self, int v6)
{
	struct kbloom_kfunc_gate *skel = self->skel;
	__u32 len = kp_alen(v6);
	struct kbloom_gate_stats st, st2;
	__u8 in[16], fp[16], out[16];

	kp_addr(in, v6, 1);	/* in the set: filter + exact */
	kp_addr(fp, v6, 2);	/* in the filter only */
	kp_addr(out, v6, 3);	/* in neither */
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_ADD, KP_GATE, in, len,
			     len, 1, NULL, NULL, NULL));
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_ADD, KP_GATE, fp, len,
			     len, 1, NULL, NULL, NULL));
	ASSERT_EQ(0, gate_exact(skel, in, len, 1));

	ASSERT_EQ(0, gate_mode(skel, KBLOOM_GATE_DENY));
	EXPECT_EQ(XDP_DROP, gate_run(skel, v6, in));
	EXPECT_EQ(XDP_PASS, gate_run(skel, v6, fp));
	EXPECT_EQ(XDP_PASS, gate_run(skel, v6, out));
	ASSERT_EQ(0, gate_stats(skel, &st));
	EXPECT_EQ(3, st.packets);
	EXPECT_EQ(1, st.exact_hits);
	EXPECT_EQ(1, st.false_positives);
	EXPECT_LE(1, st.filter_negatives);
	EXPECT_EQ(0, st.errors);
	EXPECT_EQ(1, st.drops);

	ASSERT_EQ(0, gate_mode(skel, KBLOOM_GATE_ALLOW));
	EXPECT_EQ(XDP_PASS, gate_run(skel, v6, in));
	EXPECT_EQ(XDP_DROP, gate_run(skel, v6, fp));
	EXPECT_EQ(XDP_DROP, gate_run(skel, v6, out));

	/* remove @in: DEL from the module filter and the exact map */
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_DEL, KP_GATE, in, len,
			     len, 1, NULL, NULL, NULL));
	ASSERT_EQ(0, gate_exact(skel, in, len, 0));
	ASSERT_EQ(0, gate_stats(skel, &st));
	EXPECT_EQ(XDP_DROP, gate_run(skel, v6, in));
	ASSERT_EQ(0, gate_stats(skel, &st2));
	/* decided by the filter: no exact lookup */
	EXPECT_EQ(st.exact_lookups, st2.exact_lookups);
	EXPECT_EQ(st.filter_negatives + 1, st2.filter_negatives);

	/* no module filter: an error, and the exact map decides */
	ASSERT_EQ(0, gate_exact(skel, out, len, 1));
	ASSERT_EQ(0, ku_destroy(self->fd, KP_GATE));
	EXPECT_EQ(XDP_PASS, gate_run(skel, v6, out));
	EXPECT_EQ(XDP_DROP, gate_run(skel, v6, fp));
	ASSERT_EQ(0, gate_stats(skel, &st));
	EXPECT_EQ(2, st.errors);

	/* clean slate for the next family */
	ASSERT_EQ(0, gate_exact(skel, fp, len, 1));
	ASSERT_EQ(0, gate_exact(skel, fp, len, 0));
	ASSERT_EQ(0, gate_exact(skel, out, len, 0));
	ASSERT_EQ(0, gate_stats_reset(skel));
	ASSERT_EQ(0, ku_create_mk(self->fd, KP_GATE, KBLOOM_TYPE_COUNTING,
				  1 << 14, 4, 4, 0));
}

TEST_F(gate, deny_allow_delete)
{
	gate_case(_metadata, self, 0);
	gate_case(_metadata, self, 1);
}

/* The id of module filter @name, 0 when there is none. */
static __u32 kp_id(int fd, const char *name)
{
	struct kbloom_stat st;

	return ku_stat(fd, name, &st) ? 0 : st.id;
}

/* RESTORE --replace of @name by an empty counting filter. */
static int kp_replace_empty(int fd, const char *name)
{
	void *img = NULL;
	__u64 len = 0;
	int ret;

	ku_destroy(fd, KP_EMPTY);
	ret = ku_create_mk(fd, KP_EMPTY, KBLOOM_TYPE_COUNTING, 1 << 14, 4, 4,
			   0);
	ret = ret ?: ku_save(fd, KP_EMPTY, &img, &len);
	ret = ret ?: ku_restore(fd, name, img, len, KBLOOM_RESTORE_REPLACE);
	free(img);
	return ret;
}

/* The gate's reference (gate_kfilter 0): read, or written when @set. */
static int gate_ref(struct kbloom_kfunc_gate *skel, struct kbloom_kfunc_ref *r,
		    int set)
{
	__u32 zero = 0;

	if (set)
		return bpf_map__update_elem(skel->maps.gate_kfilter, &zero, 4,
					    r, sizeof(*r), 0);
	return bpf_map__lookup_elem(skel->maps.gate_kfilter, &zero, 4, r,
				    sizeof(*r), 0);
}

/* The id path: a wrong name beside the right id changes nothing. */
static void gate_id_decides(struct __test_metadata *_metadata,
			    FIXTURE_DATA(gate) *self, const __u8 *in, __u32 id)
{
	struct kbloom_kfunc_gate *skel = self->skel;
	struct kbloom_kfunc_ref r;

	kp_name(&r, "kp.nothing");
	r.id = id;
	ASSERT_EQ(0, gate_ref(skel, &r, 1));
	EXPECT_EQ(XDP_DROP, gate_run(skel, 0, in));
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_DEL, KP_GATE, in, 4, 4, 1,
			     NULL, NULL, NULL));
	EXPECT_EQ(XDP_PASS, gate_run(skel, 0, in));
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_ADD, KP_GATE, in, 4, 4, 1,
			     NULL, NULL, NULL));
	EXPECT_EQ(XDP_DROP, gate_run(skel, 0, in));
	ASSERT_EQ(0, gate_ref(skel, &r, 0));
	EXPECT_EQ(id, r.id);
	EXPECT_STREQ("kp.nothing", r.name);
	kp_name(&r, KP_GATE);
	r.id = id;
	ASSERT_EQ(0, gate_ref(skel, &r, 1));
}

TEST_F(gate, by_id)
{
	struct kbloom_kfunc_gate *skel = self->skel;
	struct kbloom_gate_stats st;
	struct kbloom_kfunc_ref r;
	__u32 id, id2;
	__u8 in[16];

	kp_addr(in, 0, 1);
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_ADD, KP_GATE, in, 4, 4, 1,
			     NULL, NULL, NULL));
	ASSERT_EQ(0, gate_exact(skel, in, 4, 1));
	ASSERT_EQ(0, gate_mode(skel, KBLOOM_GATE_DENY));
	id = kp_id(self->fd, KP_GATE);
	ASSERT_NE(0, id);

	/* a name alone (id 0): the first packet resolves it, gen kept */
	kp_name(&r, KP_GATE);
	r.gen = 7;
	ASSERT_EQ(0, gate_ref(skel, &r, 1));
	EXPECT_EQ(XDP_DROP, gate_run(skel, 0, in));
	ASSERT_EQ(0, gate_ref(skel, &r, 0));
	EXPECT_EQ(id, r.id);
	EXPECT_EQ(7, r.gen);
	gate_id_decides(_metadata, self, in, id);

	/* RESTORE --replace: the restored (empty) filter at once, its id kept */
	ASSERT_EQ(0, kp_replace_empty(self->fd, KP_GATE));
	id2 = kp_id(self->fd, KP_GATE);
	ASSERT_NE(id, id2);
	EXPECT_EQ(XDP_PASS, gate_run(skel, 0, in));
	ASSERT_EQ(0, gate_ref(skel, &r, 0));
	EXPECT_EQ(id2, r.id);
	ASSERT_EQ(0, gate_stats(skel, &st));
	EXPECT_EQ(0, st.errors);

	/* destroyed: a miss (an error), the exact map decides */
	ASSERT_EQ(0, ku_destroy(self->fd, KP_GATE));
	EXPECT_EQ(XDP_DROP, gate_run(skel, 0, in));
	ASSERT_EQ(0, gate_stats(skel, &st));
	EXPECT_EQ(1, st.errors);
	ASSERT_EQ(0, gate_ref(skel, &r, 0));
	EXPECT_EQ(id2, r.id);
	/* created again (empty): the next packet resolves it */
	ASSERT_EQ(0, ku_create_mk(self->fd, KP_GATE, KBLOOM_TYPE_COUNTING,
				  1 << 14, 4, 4, 0));
	EXPECT_EQ(XDP_PASS, gate_run(skel, 0, in));
	ASSERT_EQ(0, gate_ref(skel, &r, 0));
	EXPECT_EQ(kp_id(self->fd, KP_GATE), r.id);
	ASSERT_EQ(0, gate_stats(skel, &st));
	EXPECT_EQ(1, st.errors);

	/* SWAP: the id keeps testing its filter, now named KP_EMPTY */
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_ADD, KP_GATE, in, 4, 4, 1,
			     NULL, NULL, NULL));
	id = r.id;
	ASSERT_EQ(0, ku_name_pair(self->fd, KBLOOM_IOCTL_SWAP, KP_GATE,
				  KP_EMPTY, 0));
	EXPECT_EQ(id, kp_id(self->fd, KP_EMPTY));
	EXPECT_EQ(XDP_DROP, gate_run(skel, 0, in));
	ASSERT_EQ(0, gate_ref(skel, &r, 0));
	EXPECT_EQ(id, r.id);
	ku_destroy(self->fd, KP_EMPTY);
}

/* ---- mcast ---------------------------------------------------------------- */

FIXTURE(mcast) {
	int fd;
	struct kbloom_kfunc_mcast *skel;
};

FIXTURE_SETUP(mcast)
{
	struct kbloom_params p = { .id = KP_LO, .index = 0 };
	__u32 port = KP_LO;

	KP_NEED_BTF();
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ku_destroy(self->fd, KP_PORT);
	ASSERT_EQ(0, ku_create_mk(self->fd, KP_PORT, KBLOOM_TYPE_COUNTING,
				  1 << 14, 4, 4, 0));
	/* the egress program (xdp/devmap) must load too */
	self->skel = kbloom_kfunc_mcast__open();
	ASSERT_NE(NULL, self->skel);
	ASSERT_EQ(0, bpf_map__set_max_entries(self->skel->maps.mc_members, 64));
	/* the ingress program has no kfunc: not needed here */
	ASSERT_EQ(0, bpf_program__set_autoload(self->skel->progs.kbloom_mcast_ingress,
					       false));
	ASSERT_EQ(0, kbloom_kfunc_mcast__load(self->skel));
	ASSERT_EQ(0, bpf_map__update_elem(self->skel->maps.mc_params, &port,
					  4, &p, sizeof(p), 0));
}

FIXTURE_TEARDOWN(mcast)
{
	kbloom_kfunc_mcast__destroy(self->skel);
	if (self->fd >= 0) {
		ku_destroy(self->fd, KP_PORT);
		close(self->fd);
	}
}

static int mcast_check(struct kbloom_kfunc_mcast *skel, int v6, __u32 g,
		       __u8 l4)
{
	__u8 src[16], dst[16], buf[256];
	struct kbt_frame_opts o = { .v6 = v6, .src = src, .dst = dst, .l4 = l4 };
	__u32 retval = 0;
	size_t len;

	kp_addr(src, v6, 9);
	kbt_group(dst, v6, g);
	len = kbt_frame(buf, &o);
	if (kbt_run(bpf_program__fd(skel->progs.kbloom_mcast_check), buf,
		    len, KP_LO, &retval))
		return -errno;
	return retval;
}

static void mcast_case(struct __test_metadata *_metadata,
		       FIXTURE_DATA(mcast) *self, int v6)
{
	struct kbloom_kfunc_mcast *skel = self->skel;
	__u32 len = kp_alen(v6), port = KP_LO;
	struct kbloom_kfunc_ref n;
	__u8 g1[16];

	kbt_group(g1, v6, 1);
	/* a port without a module filter name drops */
	EXPECT_EQ(XDP_DROP, mcast_check(skel, v6, 1, 0));
	kp_name(&n, KP_PORT);
	ASSERT_EQ(0, bpf_map__update_elem(skel->maps.mc_kfilter, &port, 4,
					  &n, sizeof(n), 0));
	EXPECT_EQ(XDP_DROP, mcast_check(skel, v6, 1, 0));

	/* join: one ADD */
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_ADD, KP_PORT, g1, len, len,
			     1, NULL, NULL, NULL));
	EXPECT_EQ(XDP_PASS, mcast_check(skel, v6, 1, 0));
	EXPECT_EQ(XDP_DROP, mcast_check(skel, v6, 2, 0));
	/* membership signalling never passes */
	EXPECT_EQ(XDP_DROP, mcast_check(skel, v6, 1,
					v6 ? 58 : 2));

	/* leave: one DEL */
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_DEL, KP_PORT, g1, len, len,
			     1, NULL, NULL, NULL));
	EXPECT_EQ(XDP_DROP, mcast_check(skel, v6, 1, 0));

	/* the module filter gone: drop */
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_ADD, KP_PORT, g1, len, len,
			     1, NULL, NULL, NULL));
	EXPECT_EQ(XDP_PASS, mcast_check(skel, v6, 1, 0));
	ASSERT_EQ(0, ku_destroy(self->fd, KP_PORT));
	EXPECT_EQ(XDP_DROP, mcast_check(skel, v6, 1, 0));

	/* clean slate for the next family */
	ASSERT_EQ(0, bpf_map__delete_elem(skel->maps.mc_kfilter, &port, 4, 0));
	ASSERT_EQ(0, ku_create_mk(self->fd, KP_PORT, KBLOOM_TYPE_COUNTING,
				  1 << 14, 4, 4, 0));
}

TEST_F(mcast, join_leave)
{
	mcast_case(_metadata, self, 0);
	mcast_case(_metadata, self, 1);
}

/* Port KP_LO's reference (mc_kfilter): read, or written when @set. */
static int mcast_ref(struct kbloom_kfunc_mcast *skel,
		     struct kbloom_kfunc_ref *r, int set)
{
	__u32 port = KP_LO;

	if (set)
		return bpf_map__update_elem(skel->maps.mc_kfilter, &port, 4, r,
					    sizeof(*r), 0);
	return bpf_map__lookup_elem(skel->maps.mc_kfilter, &port, 4, r,
				    sizeof(*r), 0);
}

TEST_F(mcast, by_id)
{
	struct kbloom_kfunc_mcast *skel = self->skel;
	struct kbloom_kfunc_ref r;
	__u32 id;
	__u8 g1[16];

	kbt_group(g1, 0, 1);
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_ADD, KP_PORT, g1, 4, 4, 1,
			     NULL, NULL, NULL));
	id = kp_id(self->fd, KP_PORT);
	ASSERT_NE(0, id);
	kp_name(&r, KP_PORT);
	ASSERT_EQ(0, mcast_ref(skel, &r, 1));
	/* resolved by the first copy */
	EXPECT_EQ(XDP_PASS, mcast_check(skel, 0, 1, 0));
	ASSERT_EQ(0, mcast_ref(skel, &r, 0));
	EXPECT_EQ(id, r.id);
	EXPECT_EQ(XDP_DROP, mcast_check(skel, 0, 2, 0));

	/* RESTORE --replace by an empty filter: followed at once */
	ASSERT_EQ(0, kp_replace_empty(self->fd, KP_PORT));
	EXPECT_EQ(XDP_DROP, mcast_check(skel, 0, 1, 0));
	ASSERT_EQ(0, mcast_ref(skel, &r, 0));
	EXPECT_NE(id, r.id);
	EXPECT_EQ(kp_id(self->fd, KP_PORT), r.id);
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_ADD, KP_PORT, g1, 4, 4, 1,
			     NULL, NULL, NULL));
	EXPECT_EQ(XDP_PASS, mcast_check(skel, 0, 1, 0));

	/* destroyed: the copies are dropped */
	ASSERT_EQ(0, ku_destroy(self->fd, KP_PORT));
	EXPECT_EQ(XDP_DROP, mcast_check(skel, 0, 1, 0));
	ku_destroy(self->fd, KP_EMPTY);
}


TEST_HARNESS_MAIN
