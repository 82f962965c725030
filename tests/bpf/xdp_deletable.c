// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP lookup of a deletable filter (bpf/kbloom_standard.h over the
 * body, uapi/kbloom_var_deletable.h) as a multicast port's filter,
 * against libkbloom_deletable, through the probe of xdp_deletable.bpf.c
 * (BPF_PROG_TEST_RUN): ports of 128 groups each (IPv4 and IPv6, 1% and
 * regions of 4 bits), whose filter's body is loaded into the probe's
 * blocks map.
 *   - The BPF answer is the library's on every member and on as many
 *     groups never joined, false positives included.
 *   - Half of each port's groups leave: a deletable group is deleted in
 *     place, any other makes the port's filter be rebuilt from its
 *     remaining members.  Then no remaining member tests absent (in BPF
 *     or the library), the BPF answers are still the library's, and the
 *     share of leaves that needed a rebuild is within +-10% of the one
 *     kbloom_del_predict() gives (formula (2), the exact one, at the keys
 *     of the filter the leave found).
 * This checks the lookup and the leave policy on their own; the mcast
 * loader that applies them (xdp attach mcast ... filter deletable) is
 * tested end to end in xdp_mcast_deletable.c.
 */
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom_deletable.h"
#include "uapi/kbloom_var_deletable.h"
#include "tests/bpf/xdp_deletable.skel.h"
#include "tests/bpf/xdp_util.h"

#define GROUPS		128U		/* a port's memberships */
#define LEAVES		(GROUPS / 2)
#define PORTS		1000U
#define P_1PCT		10000000000ULL

FIXTURE(xdel) {
	struct xdp_deletable *skel;
	__u32 nblocks;
	int fd;
};

/* The blocks of a port's body: planned as the ports' filters are. */
static __u32 port_blocks(void)
{
	struct kbloom_del_stats st;
	struct kbloom_del *f;
	__u32 n = 0;

	if (kbloom_del_create(GROUPS, P_1PCT, 0, NULL, &f))
		return 0;
	if (!kbloom_del_stats(f, &st))
		n = (__u32)((st.shape.m + 511) / 512);
	kbloom_del_destroy(f);
	return n;
}

FIXTURE_SETUP(xdel)
{
	if (geteuid())
		SKIP(return, "needs root (BPF)");
	self->nblocks = port_blocks();
	ASSERT_LT(0, self->nblocks);
	self->skel = xdp_deletable__open();
	ASSERT_NE(NULL, self->skel);
	ASSERT_EQ(0, bpf_map__set_max_entries(self->skel->maps.probe_blocks,
					      self->nblocks));
	ASSERT_EQ(0, xdp_deletable__load(self->skel))
		TH_LOG("load: %s", strerror(errno));
	self->fd = bpf_program__fd(self->skel->progs.kbloom_del_probe);
}

FIXTURE_TEARDOWN(xdel)
{
	if (self->skel)
		xdp_deletable__destroy(self->skel);
}

/* Block @blk of a body of @words words at @body, zero past the body. */
static void body_block(const __u8 *body, __u64 words, __u32 blk,
		       struct kbloom_block *b)
{
	__u64 w;
	__u32 i;

	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++) {
		w = (__u64)blk * KBLOOM_BLOCK_WORDS + i;
		b->w[i] = 0;
		if (w < words)
			memcpy(&b->w[i], body + 8 * w, 8);
	}
}

/*
 * @f's body (the words of its image before the collision bitmap) into
 * the probe's blocks map, the rest of the map zeroed, and its geometry
 * and hash into the probe's globals.
 */
static int load_body(FIXTURE_DATA(xdel) *self, const struct kbloom_del *f)
{
	int fd = bpf_map__fd(self->skel->maps.probe_blocks);
	struct kbloom_del_stats st;
	struct kbloom_block b;
	__u64 words, tail;
	size_t len;
	void *img;
	__u32 blk;
	int ret;

	ret = kbloom_del_stats(f, &st) ?: kbloom_del_save_alloc(f, &img, &len);
	if (ret)
		return ret;
	words = st.shape.m / 64;
	tail = 8 * (words + kb_del_cwords(st.shape.m, st.shape.buckets));
	for (blk = 0; blk < self->nblocks && !ret; blk++) {
		body_block((__u8 *)img + len - tail, words, blk, &b);
		if (bpf_map_update_elem(fd, &blk, &b, BPF_ANY))
			ret = -errno;
	}
	free(img);
	self->skel->bss->probe_m = st.shape.m;
	self->skel->bss->probe_k = st.shape.k;
	self->skel->bss->probe_hash_id = st.hash_id;
	self->skel->bss->probe_seed = st.seed;
	return ret;
}

/*
 * Group @i of port @port (@i < GROUPS joined, the next GROUPS never):
 * IPv4 239.x.y.z on even ports, IPv6 ff3e::x on odd ones.  Return: its
 * length.
 */
static __u32 group(__u32 port, __u32 i, __u8 addr[KBLOOM_ADDR6_LEN])
{
	__u32 id = port * 2 * GROUPS + i;

	memset(addr, 0, KBLOOM_ADDR6_LEN);
	if (port % 2 == 0) {
		addr[0] = 239;
		addr[1] = (__u8)(id >> 16);
		addr[2] = (__u8)(id >> 8);
		addr[3] = (__u8)id;
		return KBLOOM_ADDR4_LEN;
	}
	addr[0] = 0xff;
	addr[1] = 0x3e;
	memcpy(addr + 12, &id, sizeof(id));
	return KBLOOM_ADDR6_LEN;
}

/* The probe's answer on group @addr: 1 forward, 0 drop, -1 error. */
static int probe(FIXTURE_DATA(xdel) *self, const __u8 *addr, __u32 len)
{
	__u8 frame[1 + KBLOOM_ADDR6_LEN] = { (__u8)len };
	__u32 rv;

	memcpy(frame + 1, addr, KBLOOM_ADDR6_LEN);
	if (kbt_run(self->fd, frame, sizeof(frame), 0, &rv))
		return -1;
	if (rv == XDP_PASS)
		return 1;
	return rv == XDP_DROP ? 0 : -1;
}

/* A port: its filter, its members, the keys of its last (re)build. */
struct port {
	struct kbloom_del *f;
	__u8 member[GROUPS];
	__u32 id;
	__u64 built;
	__u64 in_place;
	__u64 rebuilds;
	double predicted;	/* rebuilds kbloom_del_predict() expects */
};

/* @pt's filter (re)built from its members. */
static int port_build(struct port *pt)
{
	__u8 addr[KBLOOM_ADDR6_LEN];
	struct kbloom_del *f;
	__u32 i, len;
	int ret;

	ret = kbloom_del_create(GROUPS, P_1PCT, 0, NULL, &f);
	if (ret)
		return ret;
	pt->built = 0;
	for (i = 0; i < GROUPS && !ret; i++) {
		if (!pt->member[i])
			continue;
		len = group(pt->id, i, addr);
		ret = kbloom_del_add(f, addr, len);
		pt->built++;
	}
	kbloom_del_destroy(pt->f);
	pt->f = f;
	return ret;
}

/*
 * Group @i leaves @pt: deleted in place when deletable, else the filter
 * is rebuilt from the members left.  The prediction adds the chance that
 * a key of a filter of pt->built keys is not deletable.
 */
static int port_leave(struct port *pt, __u32 i)
{
	struct kbloom_del_stats st;
	__u8 addr[KBLOOM_ADDR6_LEN];
	__u32 len = group(pt->id, i, addr);
	double exact;
	int ret;

	ret = kbloom_del_stats(pt->f, &st) ?:
	      kbloom_del_predict(st.shape.m, st.shape.k, st.shape.buckets,
				 pt->built, NULL, &exact);
	if (ret)
		return ret;
	pt->predicted += 1.0 - exact;
	pt->member[i] = 0;
	ret = kbloom_del_delete(pt->f, addr, len);
	if (ret == 1) {
		pt->in_place++;
		return 0;
	}
	if (ret != -ENOTUNIQ)
		return ret ?: -ENOENT;	/* 0: a member tested absent */
	pt->rebuilds++;
	return port_build(pt);
}

/*
 * Every group of @pt, joined or not, in BPF and the library: the same
 * answer, and every member present.  Return: the groups that are not
 * members and test present (false positives), or -1 on a mismatch.
 */
static int port_agree(struct __test_metadata *_metadata,
		      FIXTURE_DATA(xdel) *self, const struct port *pt)
{
	__u8 addr[KBLOOM_ADDR6_LEN];
	__u32 i, len;
	int b, l, fp = 0;

	if (load_body(self, pt->f))
		return -1;
	for (i = 0; i < 2 * GROUPS; i++) {
		len = group(pt->id, i, addr);
		b = probe(self, addr, len);
		l = kbloom_del_test(pt->f, addr, len);
		EXPECT_EQ(l, b) TH_LOG("port %u group %u", pt->id, i);
		if (b != l || b < 0)
			return -1;
		if (i < GROUPS && pt->member[i]) {
			EXPECT_EQ(1, b) TH_LOG("port %u lost group %u", pt->id, i);
			if (b != 1)
				return -1;
		} else {
			fp += b;
		}
	}
	return fp;
}

/* Port @id with every group joined. */
static int port_join_all(struct port *pt, __u32 id)
{
	memset(pt, 0, sizeof(*pt));
	pt->id = id;
	memset(pt->member, 1, sizeof(pt->member));
	return port_build(pt);
}

TEST_F(xdel, lookup_is_the_library_s)
{
	__u64 fp = 0;
	struct port pt;
	__u32 id;
	int ret;

	for (id = 0; id < 16; id++) {
		ASSERT_EQ(0, port_join_all(&pt, id));
		ret = port_agree(_metadata, self, &pt);
		kbloom_del_destroy(pt.f);
		ASSERT_LE(0, ret);
		fp += ret;
	}
	TH_LOG("16 ports of %u groups: BPF = library on %u groups, %llu false positives",
	       GROUPS, 16 * 2 * GROUPS, (unsigned long long)fp);
	EXPECT_LT(0, fp);	/* the answers compared include false positives */
}

/* Half the groups of port @id leave, in a random order; @sum tallies. */
static int leave_half(struct __test_metadata *_metadata,
		      FIXTURE_DATA(xdel) *self, __u32 id, struct port *sum,
		      __u64 *fp)
{
	__u32 order[GROUPS], i, j, t;
	__u64 r = 0xDE1ULL << 32 | id;
	struct port pt;
	int ret;

	ret = port_join_all(&pt, id);
	for (i = 0; i < GROUPS; i++)
		order[i] = i;
	for (i = GROUPS - 1; i > 0; i--) {
		j = (__u32)(kbt_rand(&r) % (i + 1));
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < LEAVES && !ret; i++)
		ret = port_leave(&pt, order[i]);
	if (!ret) {
		ret = port_agree(_metadata, self, &pt);
		*fp += ret > 0 ? ret : 0;
		ret = ret < 0 ? ret : 0;
	}
	sum->in_place += pt.in_place;
	sum->rebuilds += pt.rebuilds;
	sum->predicted += pt.predicted;
	kbloom_del_destroy(pt.f);
	return ret;
}

TEST_F(xdel, leave_half_in_place_or_rebuilt)
{
	struct port sum = {};
	double share, want;
	__u64 fp = 0;
	__u32 id;

	for (id = 0; id < PORTS; id++)
		ASSERT_EQ(0, leave_half(_metadata, self, id, &sum, &fp))
			TH_LOG("port %u", id);
	ASSERT_EQ(PORTS * LEAVES, sum.in_place + sum.rebuilds);
	share = (double)sum.rebuilds / (PORTS * LEAVES);
	want = sum.predicted / (PORTS * LEAVES);
	TH_LOG("%u ports, %u leaves each: %llu in place, %llu rebuilds (%.2f%%, kbloom_del_predict() %.2f%%); 0 members lost, %llu false positives, BPF = library",
	       PORTS, LEAVES, (unsigned long long)sum.in_place,
	       (unsigned long long)sum.rebuilds, 100 * share, 100 * want,
	       (unsigned long long)fp);
	EXPECT_LE(share, want * 1.1);
	EXPECT_GE(share, want * 0.9);
}

TEST_HARNESS_MAIN
