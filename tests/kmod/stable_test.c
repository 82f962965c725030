// SPDX-License-Identifier: GPL-2.0
/*
 * The stable Bloom filter (KBLOOM_TYPE_STABLE) in kbloom.ko, against
 * libkbloom's stable family (libkbloom_stable.h):
 *
 * keys           CREATE explicit (m, k, cell bits, P) and with P planned
 *                from a stable-point rate; ADD then TEST of one key at a
 *                time (a key just added is always present); DEL and COUNT
 *                refused (EOPNOTSUPP); STAT (geometry, MAY_FN, ones = the
 *                non-zero cells, fpr_now = the stable point's rate)
 * stable_point   k = 3, P = 10, Max = 1 after 10 m ADDs: the zero share
 *                within 2% of the stable point, the rate on non-keys
 *                within 10% of (1 - z)^k
 * save_to_lib    SAVE loads in the library, which answers as the module
 *                on keys and non-keys and saves the same image back
 * restore_lib    RESTORE of a library image: same answers, same STAT
 * bad_geometry   every bad field EINVAL, m over KBLOOM_M_MAX E2BIG;
 *                nothing is created
 * gate_refuses   a kfunc gate refuses a stable module filter
 *                (-KBLOOM_XDP_E_MAY_FN), at creation and when renamed
 */
#include <stddef.h>
#include "guest_harness.h"
#include "kmod_util.h"
#include "type_fixture.h"
#include "bpf/xdp_util.h"
#include "libkbloom_stable.h"
#include "uapi/kbloom_var_stable.h"

#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))
#define N_KEYS		100000U
#define M_POINT		(1U << 16)
#define SEED		0x57ABULL
#define P_1PCT		10000000000ULL
#define STEP		50000U

static int st_create(int fd, const char *name, __u64 m, __u32 k, __u32 d,
		     __u64 p)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_STABLE, .m = m, .k = k,
		.counter_bits = d, .buckets = p, .seed = SEED,
		.flags = KBLOOM_CREATE_SEED,
	};

	ku_name(c.name, name);
	return ku_ioctl(fd, KBLOOM_IOCTL_CREATE, &c);
}

KU_TYPE_FIXTURE(st, 8, N_KEYS);

TEST_F(st, keys)
{
	struct kbloom_create out;
	struct kbloom_stat st;
	__u32 done, hits, i;
	struct kb_shape s;
	__u64 est[2];

	ASSERT_OK(st_create(self->fd, "s", 1 << 20, 3, 1, 10));
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_ADD, "s", self->keys, 1,
			     NULL, &done, NULL));
	ASSERT_OK(ku_stat(self->fd, "s", &st));
	EXPECT_EQ(3, st.ones);
	for (i = 1; i < 1000; i++) {
		ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_ADD, "s",
				     self->keys + 16 * i, 1, NULL, NULL, NULL));
		ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_TEST, "s",
				     self->keys + 16 * i, 1, NULL, NULL,
				     &hits));
		ASSERT_EQ(1, hits);
	}
	/* the 1000 keys faded a little: at most 3 z1 (1 - e^-13000/m) */
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_TEST, "s", self->keys,
			     1000, NULL, &done, &hits));
	EXPECT_EQ(1000, done);
	EXPECT_LE(970, hits);
	EXPECT_EQ(-EOPNOTSUPP, ku_batch16(self->fd, KBLOOM_IOCTL_DEL, "s",
					  self->keys, 1, NULL, NULL, NULL));
	EXPECT_EQ(-EOPNOTSUPP, ku_batch16(self->fd, KBLOOM_IOCTL_COUNT, "s",
					  self->keys, 2, est, NULL, NULL));
	ASSERT_OK(ku_stat(self->fd, "s", &st));
	EXPECT_EQ(KBLOOM_TYPE_STABLE, st.type);
	EXPECT_EQ(3, st.k);
	EXPECT_EQ(1 << 20, st.m);
	EXPECT_EQ(1, st.counter_bits);
	EXPECT_EQ(10, st.buckets);
	EXPECT_EQ((1 << 20) / 8, st.bytes);
	EXPECT_EQ(1000, st.inserted);
	EXPECT_EQ(KBLOOM_IMAGE_F_MAY_FN, st.image_flags);
	ASSERT_OK(kb_stable_shape_init(&s, 1 << 20, 3, 1, 10));
	EXPECT_EQ(kb_stable_fps_pico(&s), st.fpr_now_pico);

	/* P planned for a stable-point rate of 1%: 4-bit cells */
	memset(&out, 0, sizeof(out));
	out.size = sizeof(out);
	out.type = KBLOOM_TYPE_STABLE;
	out.m = 1 << 16;
	out.k = 3;
	out.counter_bits = 4;
	out.fpr_pico = P_1PCT;
	ku_name(out.name, "sp");
	ASSERT_OK(ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &out));
	ASSERT_OK(kb_stable_shape_init(&s, 1 << 16, 3, 4, 1));
	ASSERT_OK(kb_stable_plan(P_1PCT, &s));
	EXPECT_EQ(s.buckets, out.buckets);
	EXPECT_EQ(4, out.counter_bits);
	EXPECT_EQ((1 << 16) / 2, out.bytes);
}

TEST_F_TIMEOUT(st, stable_point, 600)
{
	__u64 first, hits_all = 0;
	struct kbloom_stat st;
	double z, fps, zm, fpm;
	__u8 *buf;
	__u32 hits;

	buf = malloc(16ULL * STEP);
	ASSERT_NE(NULL, buf);
	ASSERT_OK(st_create(self->fd, "sp", M_POINT, 3, 1, 10));
	for (first = 0; first < 10ULL * M_POINT; first += STEP) {
		ku_keys16(buf, 9, first, STEP);
		ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_ADD, "sp", buf,
				     STEP, NULL, NULL, NULL));
	}
	ASSERT_OK(ku_stat(self->fd, "sp", &st));
	z = 1 / (1 + 1 / (10 * (1 / 3.0 - 1.0 / M_POINT)));
	fps = (1 - z) * (1 - z) * (1 - z);
	zm = 1 - (double)st.ones / M_POINT;
	/* the non-keys: space 8, never added to this filter */
	for (first = 0; first < 2 * N_KEYS; first += STEP) {
		ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_TEST, "sp",
				     self->keys + 16 * first, STEP, NULL, NULL,
				     &hits));
		hits_all += hits;
	}
	fpm = (double)hits_all / (2 * N_KEYS);
	TH_LOG("zeros %.4f (stable point %.4f), rate %.5f (%.5f)", zm, z,
	       fpm, fps);
	EXPECT_LT(zm > z ? zm / z - 1 : 1 - zm / z, 0.02);
	EXPECT_LT(fpm > fps ? fpm / fps - 1 : 1 - fpm / fps, 0.10);
	free(buf);
}

/* The module's TEST answers as a bitmap over keys [0, 2 N_KEYS). */
static int module_answers(int fd, const char *name, const __u8 *keys,
			  __u8 *bits)
{
	__u32 i;
	int ret;

	for (i = 0; i < 2 * N_KEYS; i += STEP) {
		ret = ku_batch16(fd, KBLOOM_IOCTL_TEST, name, keys + 16ULL * i,
				 STEP, bits + i / 8, NULL, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

static __u32 disagreements(const struct kbloom_stable *f, const __u8 *keys,
			   const __u8 *bits)
{
	__u32 i, bad = 0;

	for (i = 0; i < 2 * N_KEYS; i++)
		bad += kbloom_stable_test(f, keys + 16ULL * i, 16) !=
		       ((bits[i / 8] >> (i % 8)) & 1);
	return bad;
}

TEST_F(st, save_to_lib)
{
	struct kbloom_stable *f;
	void *img, *img2;
	size_t len2;
	__u64 len;

	ASSERT_OK(st_create(self->fd, "ss", 1 << 18, 4, 2, 16));
	ASSERT_OK(ku_batch16(self->fd, KBLOOM_IOCTL_ADD, "ss", self->keys,
			     N_KEYS, NULL, NULL, NULL));
	ASSERT_OK(ku_save(self->fd, "ss", &img, &len));
	ASSERT_OK(kbloom_stable_load(img, len, &f));
	ASSERT_OK(module_answers(self->fd, "ss", self->keys, self->bits));
	EXPECT_EQ(0, disagreements(f, self->keys, self->bits));
	ASSERT_OK(kbloom_stable_save_alloc(f, &img2, &len2));
	ASSERT_EQ(len, len2);
	EXPECT_EQ(0, memcmp(img, img2, len));
	free(img);
	free(img2);
	kbloom_stable_destroy(f);
}

TEST_F(st, restore_lib)
{
	struct kbloom_opts o = { .seed = SEED, .name = "slib" };
	struct kbloom_stable_stats ls;
	struct kbloom_stable *f;
	struct kbloom_stat st;
	size_t len;
	void *img;
	__u32 i;

	ASSERT_OK(kbloom_stable_create(1 << 18, 3, 1, 10, &o, &f));
	for (i = 0; i < N_KEYS; i++)
		ASSERT_OK(kbloom_stable_add(f, self->keys + 16ULL * i, 16));
	ASSERT_OK(kbloom_stable_save_alloc(f, &img, &len));
	ASSERT_OK(ku_restore(self->fd, "", img, len, 0));
	ASSERT_OK(module_answers(self->fd, "slib", self->keys, self->bits));
	EXPECT_EQ(0, disagreements(f, self->keys, self->bits));
	ASSERT_OK(ku_stat(self->fd, "slib", &st));
	ASSERT_OK(kbloom_stable_stats(f, &ls));
	EXPECT_EQ(KBLOOM_TYPE_STABLE, st.type);
	EXPECT_EQ(ls.shape.m, st.m);
	EXPECT_EQ(ls.shape.k, st.k);
	EXPECT_EQ(ls.shape.buckets, st.buckets);
	EXPECT_EQ(ls.inserted, st.inserted);
	EXPECT_EQ(ls.shape.m - ls.zeros, st.ones);
	EXPECT_EQ(ls.fps_pico, st.fpr_now_pico);
	free(img);
	kbloom_stable_destroy(f);
}

TEST_F(st, bad_geometry)
{
	static const struct { __u64 m; __u32 k, d; __u64 p; } bad[] = {
		{ 4096, 3, 3, 10 }, { 4096, 3, 16, 10 }, { 4096, 0, 1, 10 },
		{ 4096, 33, 1, 10 }, { 4096, 3, 1, 4097 },
		{ 1 << 20, 3, 1, KB_STABLE_P_MAX + 1 }, { 4100, 3, 1, 10 },
		{ 32, 3, 1, 10 }, { 0, 3, 1, 10 }, { 4096, 3, 1, 0 },
	};
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_STABLE, .m = 4096,
		.k = 3, .counter_bits = 1, .buckets = 10,
	};
	__u32 i;

	for (i = 0; i < ARRAY_LEN(bad); i++)
		EXPECT_EQ(-EINVAL, st_create(self->fd, "bad", bad[i].m,
					     bad[i].k, bad[i].d, bad[i].p))
			TH_LOG("case %u", i);
	EXPECT_EQ(-E2BIG, st_create(self->fd, "bad", KBLOOM_M_MAX + 64, 3, 1,
				    10));
	ku_name(c.name, "bad");
	c.fpr_pico = P_1PCT;	/* P and a rate both */
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.fpr_pico = 0;
	c.capacity = 1000;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.capacity = 0;
	c.fp_bits = 12;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.fp_bits = 0;
	c.tables = 2;
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	c.tables = 0;
	c.buckets = 0;
	c.k = 1;
	c.fpr_pico = 1000;	/* no P reaches 1e-9 with k = 1 */
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
}

static void log_drop(void *ctx, const char *msg)
{
}

TEST_F(st, gate_refuses)
{
	struct kbloom_xdp_opts o = {
		.mode = KBLOOM_GATE_DENY, .variant = KBLOOM_XDP_VARIANT_KFUNC,
		.module_filter = "st.mf", .log = log_drop,
	};
	char name[KBLOOM_NAME_LEN];
	struct kbloom_xdp *x = NULL;

	if (access(KBLOOM_XDP_MODULE_BTF, F_OK))
		TH_LOG("FAIL: kbloom.ko has no BTF (%s missing)",
		       KBLOOM_XDP_MODULE_BTF);
	ASSERT_OK(access(KBLOOM_XDP_MODULE_BTF, F_OK));
	ASSERT_OK(st_create(self->fd, "st.mf", 4096, 3, 1, 10));
	ASSERT_OK(ku_create_mk(self->fd, "st.cnt", KBLOOM_TYPE_COUNTING,
			       4096, 3, 4, 0));
	kbloom_xdp_unpin(NULL, "st-gate");
	EXPECT_EQ(-KBLOOM_XDP_E_MAY_FN,
		  kbloom_xdp_create("st-gate", KBLOOM_XDP_GATE, &o, &x));
	kbloom_xdp_close(x);
	x = NULL;
	o.module_filter = "st.cnt";
	ASSERT_OK(kbloom_xdp_create("st-gate", KBLOOM_XDP_GATE, &o, &x));
	EXPECT_EQ(-EMEDIUMTYPE, kbloom_xdp_set_module_filter(x, 0, "st.mf"));
	ASSERT_OK(kbloom_xdp_module_filter(x, 0, name));
	EXPECT_STREQ("st.cnt", name);
	kbloom_xdp_close(x);
	kbloom_xdp_unpin(NULL, "st-gate");
}

TEST_HARNESS_MAIN
