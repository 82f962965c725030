// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF-side lookup agrees with libkbloom bit for bit.
 *
 * A filter built by libkbloom travels as a uapi image into a loader
 * instance (a gate, whose filter 0 is the filter under test); the probe
 * program (xdp_lookup.bpf.c) shares the instance's filter table and tests
 * keys with kbloom_bpf_test() through BPF_PROG_TEST_RUN: every key
 * inserted by libkbloom is found, and for non-keys the BPF answer equals
 * libkbloom's.  The other direction too: keys inserted by BPF (atomic OR
 * in the program) and by the loader (atomic OR through the mmapped map)
 * are found by libkbloom after an image round trip.  Both hash ids, fixed
 * and variable key lengths.
 */
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_xdp.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_xdp_maps.h"
#include "tests/bpf/xdp_lookup.skel.h"
#include "tests/bpf/xdp_util.h"

#define NKEYS		10000
#define NNONKEYS	100000

FIXTURE(lookup) {
	char name[64];
	struct kbloom_xdp *x;
	struct xdp_lookup *probe;
	int fd;
};

FIXTURE_VARIANT(lookup) {
	__u32 hash_id;
	__u64 seed;
	int var_len;	/* keys of 1..64 bytes, else 16 */
};

FIXTURE_VARIANT_ADD(lookup, fast_fixed) {
	.hash_id = KBLOOM_HASH_FAST,
	.seed = 0,
	.var_len = 0,
};

FIXTURE_VARIANT_ADD(lookup, siphash_varlen) {
	.hash_id = KBLOOM_HASH_SIPHASH13,
	.seed = 0x0123456789abcdefULL,
	.var_len = 1,
};

FIXTURE_VARIANT_ADD(lookup, fast_varlen_seeded) {
	.hash_id = KBLOOM_HASH_FAST,
	.seed = 0xfeedfacecafebeefULL,
	.var_len = 1,
};

static void lk_cleanup(FIXTURE_DATA(lookup) *self)
{
	if (self->probe)
		xdp_lookup__destroy(self->probe);
	self->probe = NULL;
	if (self->x)
		kbloom_xdp_close(self->x);
	self->x = NULL;
	if (self->name[0])
		kbt_unpin(self->name);
}

static int lk_setup(FIXTURE_DATA(lookup) *self)
{
	struct kbloom_xdp_opts o = { .mode = KBLOOM_GATE_MONITOR };
	char p[512];
	int fd, ret;

	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "lookup");
	ret = kbloom_xdp_create(self->name, KBLOOM_XDP_GATE, &o, &self->x);
	if (ret)
		return ret;
	self->probe = xdp_lookup__open();
	if (!self->probe)
		return -errno;
	snprintf(p, sizeof(p), "%s/gate_params", kbloom_xdp_dir(self->x));
	fd = bpf_obj_get(p);
	ret = bpf_map__reuse_fd(self->probe->maps.probe_params, fd);
	close(fd);
	if (ret)
		return ret;
	snprintf(p, sizeof(p), "%s/gate_filters", kbloom_xdp_dir(self->x));
	fd = bpf_obj_get(p);
	ret = bpf_map__reuse_fd(self->probe->maps.probe_filters, fd);
	close(fd);
	if (ret)
		return ret;
	ret = xdp_lookup__load(self->probe);
	if (ret)
		return ret;
	self->fd = bpf_program__fd(self->probe->progs.kbloom_probe);
	return 0;
}

FIXTURE_SETUP(lookup)
{
	int ret = lk_setup(self);

	if (ret)
		lk_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(lookup)
{
	lk_cleanup(self);
}

/* Key @i of stream @stream: its bytes and length. */
static __u32 key_of(__u64 stream, __u64 i, int var_len, __u8 key[64])
{
	__u64 s = stream * 0x100000000ULL + i, r;
	__u32 len = var_len ? 1 + (__u32)(kbt_rand(&s) % 64) : 16, j;

	for (j = 0; j < len; j += 8) {
		r = kbt_rand(&s);
		memcpy(key + j, &r, len - j < 8 ? len - j : 8);
	}
	return len;
}

/* The probe's answer: 1 possibly present, 0 absent, -1 error. */
static int probe(int fd, const __u8 *key, __u32 len)
{
	__u8 frame[80] = {};
	__u32 rv;

	frame[0] = (__u8)len;
	memcpy(frame + 1, key, len);
	if (kbt_run(fd, frame, len + 1 < 14 ? 14 : len + 1, 0, &rv))
		return -1;
	if (rv == XDP_PASS)
		return 1;
	return rv == XDP_DROP ? 0 : -1;
}

static struct kbloom_filter *build(const FIXTURE_VARIANT(lookup) *v,
				   __u64 n, __u64 stream)
{
	struct kbloom_opts o = { .hash_id = v->hash_id, .seed = v->seed };
	struct kbloom_filter *f = NULL;
	__u8 key[64];
	__u64 i;
	__u32 len;

	if (kbloom_create(KBLOOM_TYPE_BLOCKED, n, 10000000000ULL, &o, &f))
		return NULL;
	for (i = 0; i < n; i++) {
		len = key_of(stream, i, v->var_len, key);
		kbloom_add(f, key, len);
	}
	return f;
}

static int load_into_gate(struct kbloom_xdp *x, struct kbloom_filter *f)
{
	size_t len;
	void *img;
	int ret;

	ret = kbloom_save_alloc(f, &img, &len);
	if (ret)
		return ret;
	ret = kbloom_xdp_filter_load_image(x, 0, img, len);
	free(img);
	return ret;
}

TEST_F_TIMEOUT(lookup, libkbloom_keys_found_nonkeys_agree, 120)
{
	struct kbloom_xdp_filter_info info;
	struct kbloom_filter *f;
	struct kbloom_stats st;
	__u64 i, fp = 0, disagree = 0, missing = 0;
	__u8 key[64];
	__u32 len;
	int b, u;

	f = build(variant, NKEYS, 1);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, load_into_gate(self->x, f));
	ASSERT_EQ(0, kbloom_stats(f, &st));
	ASSERT_EQ(0, kbloom_xdp_filter_info(self->x, 0, &info));
	EXPECT_EQ(st.k, info.params.k);
	EXPECT_EQ(st.m, info.m);
	EXPECT_EQ(st.seed, info.params.seed);
	EXPECT_EQ(st.hash_id, info.params.hash_id);
	EXPECT_EQ(st.ones, info.ones);
	EXPECT_EQ(NKEYS, info.params.inserted);

	for (i = 0; i < NKEYS; i++) {
		len = key_of(1, i, variant->var_len, key);
		b = probe(self->fd, key, len);
		ASSERT_LE(0, b);
		if (b != 1)
			missing++;
	}
	EXPECT_EQ(0, missing);

	for (i = 0; i < NNONKEYS; i++) {
		len = key_of(2, i, variant->var_len, key);
		b = probe(self->fd, key, len);
		ASSERT_LE(0, b);
		u = kbloom_test(f, key, len);
		if (b != u || b != kbloom_xdp_filter_test(self->x, 0, key, len))
			disagree++;
		fp += b;
	}
	EXPECT_EQ(0, disagree);
	/* sized for 1%: a sanity bound, the agreement is the test */
	EXPECT_GT(fp, NNONKEYS / 1000);
	EXPECT_LT(fp, NNONKEYS / 25);
	TH_LOG("%d keys found, %d non-keys agree, %llu false positives",
	       NKEYS, NNONKEYS, (unsigned long long)fp);
	kbloom_destroy(f);
}

TEST_F_TIMEOUT(lookup, bpf_and_loader_inserts_found_by_libkbloom, 60)
{
	struct kbloom_filter *f, *g;
	__u64 i, disagree = 0, missing = 0;
	__u8 key[64];
	size_t len;
	__u32 klen;
	void *img;

	/* an empty filter of the variant's hash, seed and geometry */
	f = build(variant, 4000, 3);
	ASSERT_NE(NULL, f);
	kbloom_clear(f);
	ASSERT_EQ(0, load_into_gate(self->x, f));

	/* keys 0..1999 inserted by the BPF program, 2000..3999 by the loader */
	self->probe->bss->probe_add = 1;
	for (i = 0; i < 2000; i++) {
		klen = key_of(3, i, variant->var_len, key);
		ASSERT_EQ(1, probe(self->fd, key, klen));
	}
	self->probe->bss->probe_add = 0;
	for (i = 2000; i < 4000; i++) {
		klen = key_of(3, i, variant->var_len, key);
		ASSERT_EQ(0, kbloom_xdp_filter_add(self->x, 0, key, klen));
	}
	ASSERT_EQ(0, kbloom_xdp_filter_save_image(self->x, 0, &img, &len));
	ASSERT_EQ(0, kb_image_verify(img, len));
	ASSERT_EQ(0, kbloom_load(img, len, &g));
	free(img);
	for (i = 0; i < 4000; i++) {
		klen = key_of(3, i, variant->var_len, key);
		if (kbloom_test(g, key, klen) != 1 ||
		    probe(self->fd, key, klen) != 1)
			missing++;
	}
	EXPECT_EQ(0, missing);
	for (i = 0; i < 20000; i++) {
		klen = key_of(4, i, variant->var_len, key);
		if (kbloom_test(g, key, klen) != probe(self->fd, key, klen))
			disagree++;
	}
	EXPECT_EQ(0, disagree);
	kbloom_destroy(g);
	kbloom_destroy(f);
}

TEST_F(lookup, image_round_trip_and_refusals)
{
	struct kbloom_xdp_filter_info a, b;
	struct kbloom_filter *f, *c;
	struct kbloom_image_hdr *h;
	void *img, *img2;
	size_t len, len2;

	f = build(variant, 500, 5);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, kbloom_save_alloc(f, &img, &len));
	ASSERT_EQ(0, kbloom_xdp_filter_load_image(self->x, 0, img, len));
	ASSERT_EQ(0, kbloom_xdp_filter_save_image(self->x, 0, &img2, &len2));
	/* the same filter: same length, geometry and payload */
	ASSERT_EQ(len, len2);
	EXPECT_EQ(0, memcmp((__u8 *)img + KBLOOM_IMAGE_HDR_LEN,
			    (__u8 *)img2 + KBLOOM_IMAGE_HDR_LEN,
			    len - KBLOOM_IMAGE_HDR_LEN));
	h = img2;
	EXPECT_EQ(((struct kbloom_image_hdr *)img)->m, h->m);
	EXPECT_EQ(((struct kbloom_image_hdr *)img)->k, h->k);
	EXPECT_EQ(((struct kbloom_image_hdr *)img)->seed, h->seed);
	free(img2);

	ASSERT_EQ(0, kbloom_xdp_filter_info(self->x, 0, &a));
	/* a corrupted checksum, a short image, a counting filter: refused */
	((__u8 *)img)[len - 1] ^= 1;
	EXPECT_EQ(-EBADMSG, kbloom_xdp_filter_load_image(self->x, 0, img, len));
	((__u8 *)img)[len - 1] ^= 1;
	EXPECT_EQ(-EMSGSIZE, kbloom_xdp_filter_load_image(self->x, 0, img,
							  len - 8));
	EXPECT_EQ(-EINVAL, kbloom_xdp_filter_load_image(self->x, 0, NULL, len));
	free(img);
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_COUNTING, 4096, 3, NULL, &c));
	ASSERT_EQ(0, kbloom_save_alloc(c, &img, &len));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_xdp_filter_load_image(self->x, 0, img,
							    len));
	free(img);
	kbloom_destroy(c);
	/* nothing changed */
	ASSERT_EQ(0, kbloom_xdp_filter_info(self->x, 0, &b));
	EXPECT_EQ(a.params.gen, b.params.gen);
	EXPECT_EQ(a.ones, b.ones);
	kbloom_destroy(f);
}

/* bpftool prints the blocks and the parameters by their BTF names. */
TEST_F(lookup, bpftool_dump_is_typed)
{
	char cmd[1024], out[8192];
	struct kbloom_filter *f;
	size_t n;
	FILE *p;

	f = build(variant, 100, 6);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, load_into_gate(self->x, f));
	kbloom_destroy(f);
	snprintf(cmd, sizeof(cmd),
		 "bpftool map dump pinned %s/filter_0 2>&1 | head -c 4000; bpftool map dump pinned %s/gate_params 2>&1",
		 kbloom_xdp_dir(self->x), kbloom_xdp_dir(self->x));
	p = popen(cmd, "r");
	ASSERT_NE(NULL, p);
	n = fread(out, 1, sizeof(out) - 1, p);
	pclose(p);
	out[n] = 0;
	EXPECT_NE(NULL, strstr(out, "\"w\": ["));
	EXPECT_NE(NULL, strstr(out, "\"nblocks\": "));
	EXPECT_NE(NULL, strstr(out, "\"hash_id\": "));
	if (!strstr(out, "\"w\": ["))
		TH_LOG("bpftool said: %s", out);
}

/* Frames shorter than Ethernet never reach an XDP program. */
TEST_F(lookup, runt_frames_refused)
{
	__u8 frame[14] = { 1, 1 };
	__u32 rv, n;

	for (n = 0; n < 14; n++)
		EXPECT_NE(0, kbt_run(self->fd, frame, n, 0, &rv));
}

TEST_HARNESS_MAIN
