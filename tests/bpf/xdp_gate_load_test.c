// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom_gate_add_batch() beyond GB_PROBE_MAX (4096) addresses, where the
 * loader program (bpf/kbloom_gate_load.bpf.c) enters them into the exact
 * map from inside the kernel; the same cases through the batch updates it
 * replaces (KBLOOM_GATE_NO_LOADER), and with a cuckoo filter:
 *  - a batch of IPv4 and IPv6 addresses is in the set and in the filter
 *    (prog_gate drops listed sources, passes others);
 *  - an address in the set already, or twice in the batch, refuses the
 *    batch at its index and nothing changes (set, filter bits, counts);
 *    with KBLOOM_GATE_BATCH_EXIST it is skipped;
 *  - a batch the exact map has no room for is refused with -ENOSPC at the
 *    first address that does not fit, and nothing changes;
 *  - a batch large enough for two threads fails at the right index.
 */
#include <stdlib.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"

#define GL_KEYS		16384U	/* the exact map of the fixture's gate */
#define GL_BIG		150000U	/* two threads of the loader */

FIXTURE(gload) {
	char name[64];
	struct kbloom_xdp *x;
	int prog;
};

FIXTURE_VARIANT(gload) {
	__u32 variant;
	int no_loader;		/* KBLOOM_GATE_NO_LOADER: batch updates */
};

FIXTURE_VARIANT_ADD(gload, map_loader) {
	.variant = KBLOOM_XDP_VARIANT_MAP,
};

FIXTURE_VARIANT_ADD(gload, map_updates) {
	.variant = KBLOOM_XDP_VARIANT_MAP,
	.no_loader = 1,
};

FIXTURE_VARIANT_ADD(gload, cuckoo_loader) {
	.variant = KBLOOM_XDP_VARIANT_CUCKOO,
};

static void gl_cleanup(FIXTURE_DATA(gload) *self)
{
	kbt_gate_drop(self->name, &self->x, &self->prog);
}

/* A gate of @variant whose exact map holds @keys addresses. */
static int gl_setup(FIXTURE_DATA(gload) *self,
		    const FIXTURE_VARIANT(gload) *variant, __u32 keys)
{
	struct kbloom_xdp_opts o = {
		.mode = KBLOOM_GATE_DENY, .max_keys = keys,
		.variant = variant->variant,
		.geom = { .capacity = keys, .fpr_pico = 1000000000ULL },
	};

	if (variant->no_loader && setenv("KBLOOM_GATE_NO_LOADER", "1", 1))
		return -errno;
	return kbt_gate_new("gload", &o, self->name, &self->x, &self->prog);
}

FIXTURE_SETUP(gload)
{
	int ret = gl_setup(self, variant, GL_KEYS);

	if (ret)
		gl_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(gload)
{
	gl_cleanup(self);
}

/* Address @i: IPv6 fd00::9:i for every third, else IPv4 10.i. */
static void gl_key(struct kbloom_addr_key *k, __u32 i)
{
	memset(k, 0, sizeof(*k));
	if (i % 3 == 2) {
		k->len = KBLOOM_ADDR6_LEN;
		k->addr[0] = 0xfd;
		k->addr[11] = 9;
		k->addr[13] = (__u8)(i >> 16);
		k->addr[14] = (__u8)(i >> 8);
		k->addr[15] = (__u8)i;
		return;
	}
	k->len = KBLOOM_ADDR4_LEN;
	k->addr[0] = 10;
	k->addr[1] = (__u8)(i >> 16);
	k->addr[2] = (__u8)(i >> 8);
	k->addr[3] = (__u8)i;
}

/* Addresses @from..@from + @n - 1, malloc()ed. */
static struct kbloom_addr_key *gl_keys(__u32 from, __u32 n)
{
	struct kbloom_addr_key *k = calloc(n, sizeof(*k));
	__u32 i;

	for (i = 0; k && i < n; i++)
		gl_key(&k[i], from + i);
	return k;
}

static __u64 gl_members(struct kbloom_xdp *x)
{
	struct kbloom_inst_info info = { 0 };

	if (kbloom_inst_info(kbloom_xdp_inst(x), &info))
		return ~0ULL;
	return info.members;
}

/* The filter's state: one bits and count, or used slots and count. */
static __u64 gl_filter_state(struct kbloom_xdp *x)
{
	struct kbloom_gate_cuckoo_info ci;
	struct kbloom_xdp_filter_info fi;

	if (kbloom_xdp_variant(x) == KBLOOM_XDP_VARIANT_CUCKOO)
		return kbloom_gate_cuckoo_info(x, &ci) ? ~0ULL :
		       ci.used << 32 ^ ci.params.inserted;
	return kbloom_xdp_filter_info(x, 0, &fi) ? ~0ULL :
	       fi.ones << 32 ^ fi.params.inserted;
}

/* prog_gate's verdict on a frame from address @i. */
static __u32 gl_verdict(int prog, __u32 i)
{
	static const __u8 dst4[4] = { 192, 0, 2, 1 };
	static const __u8 dst6[16] = { 0xfd, 0, [15] = 1 };
	struct kbt_payload pl = { KBT_MAGIC, 0, 0, 0 };
	struct kbloom_addr_key k;
	struct kbt_frame_opts o = { .payload = &pl, .plen = sizeof(pl) };
	__u8 f[256];
	__u32 rv = 0xdead;

	gl_key(&k, i);
	o.v6 = k.len == KBLOOM_ADDR6_LEN;
	o.src = k.addr;
	o.dst = o.v6 ? dst6 : dst4;
	if (kbt_run(prog, f, (__u32)kbt_frame(f, &o), 0, &rv))
		return 0xdead;
	return rv;
}

/* How many of addresses @from..@from + @n - 1 (every 7th) got @want. */
static __u32 gl_wrong(int prog, __u32 from, __u32 n, __u32 want)
{
	__u32 i, wrong = 0;

	for (i = from; i < from + n; i += 7)
		wrong += gl_verdict(prog, i) != want;
	return wrong;
}

TEST_F(gload, batch_in_set_and_filter)
{
	struct kbloom_addr_key *k = gl_keys(0, 10000);
	__u32 at = 0;

	ASSERT_NE(NULL, k);
	EXPECT_EQ(0, kbloom_gate_add_batch(self->x, k, 10000, 0, &at));
	EXPECT_EQ(10000, gl_members(self->x));
	EXPECT_EQ(10000, gl_filter_state(self->x) & 0xffffffffU);
	EXPECT_EQ(0, gl_wrong(self->prog, 0, 10000, XDP_DROP));
	EXPECT_EQ(0, gl_wrong(self->prog, 10000, 5000, XDP_PASS));
	free(k);
}

TEST_F(gload, refused_batches_change_nothing)
{
	struct kbloom_addr_key *k = gl_keys(0, 5000), *b = gl_keys(5000, 6000);
	__u64 state;
	__u32 at = 0;

	ASSERT_NE(NULL, k);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, kbloom_gate_add_batch(self->x, k, 5000, 0, &at));
	state = gl_filter_state(self->x);

	gl_key(&b[4500], 17);			/* in the set already */
	EXPECT_EQ(-EEXIST, kbloom_gate_add_batch(self->x, b, 6000, 0, &at));
	EXPECT_EQ(4500, at);
	EXPECT_EQ(5000, gl_members(self->x));
	EXPECT_EQ(state, gl_filter_state(self->x));
	EXPECT_EQ(0, gl_wrong(self->prog, 5000, 4500, XDP_PASS));

	b[4500] = b[10];			/* twice in the batch */
	EXPECT_EQ(-EEXIST, kbloom_gate_add_batch(self->x, b, 6000, 0, &at));
	EXPECT_EQ(4500, at);
	EXPECT_EQ(5000, gl_members(self->x));
	EXPECT_EQ(state, gl_filter_state(self->x));

	EXPECT_EQ(0, kbloom_gate_add_batch(self->x, b, 6000,
					   KBLOOM_GATE_BATCH_EXIST, &at));
	EXPECT_EQ(10999, gl_members(self->x));
	EXPECT_EQ(10999, gl_filter_state(self->x) & 0xffffffffU);
	EXPECT_EQ(0, gl_wrong(self->prog, 0, 9500, XDP_DROP));
	EXPECT_EQ(XDP_PASS, gl_verdict(self->prog, 9500));	/* in no batch */
	free(k);
	free(b);
}

TEST_F(gload, full_map_refused)
{
	struct kbloom_addr_key *k = gl_keys(0, 20000);
	__u64 state;
	__u32 at = 0;

	ASSERT_NE(NULL, k);
	ASSERT_EQ(0, kbloom_gate_add_batch(self->x, k, 10000, 0, &at));
	state = gl_filter_state(self->x);
	EXPECT_EQ(-ENOSPC, kbloom_gate_add_batch(self->x, k + 10000, 10000, 0,
						 &at));
	EXPECT_EQ(GL_KEYS - 10000, at);
	EXPECT_EQ(10000, gl_members(self->x));
	EXPECT_EQ(state, gl_filter_state(self->x));
	EXPECT_EQ(0, gl_wrong(self->prog, 10000, 10000, XDP_PASS));
	EXPECT_EQ(0, kbloom_gate_add_batch(self->x, k + 10000,
					   GL_KEYS - 10000, 0, &at));
	EXPECT_EQ(GL_KEYS, gl_members(self->x));
	free(k);
}

TEST_F_TIMEOUT(gload, two_threads_fail_at_the_index, 120)
{
	struct kbloom_addr_key *k = gl_keys(0, GL_BIG);
	__u32 at = 0;

	ASSERT_NE(NULL, k);
	gl_cleanup(self);
	ASSERT_EQ(0, gl_setup(self, variant, 2 * GL_BIG));
	k[GL_BIG - 10000] = k[3];
	EXPECT_EQ(-EEXIST, kbloom_gate_add_batch(self->x, k, GL_BIG, 0, &at));
	EXPECT_EQ(GL_BIG - 10000, at);
	EXPECT_EQ(0, gl_members(self->x));
	EXPECT_EQ(0, gl_filter_state(self->x) & 0xffffffffU);
	EXPECT_EQ(0, kbloom_gate_add_batch(self->x, k, GL_BIG,
					   KBLOOM_GATE_BATCH_EXIST, &at));
	EXPECT_EQ(GL_BIG - 1, gl_members(self->x));
	EXPECT_EQ(0, gl_wrong(self->prog, 0, GL_BIG - 10000, XDP_DROP));
	free(k);
}

TEST_HARNESS_MAIN
