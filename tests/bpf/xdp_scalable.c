// SPDX-License-Identifier: GPL-2.0
/*
 * The map-backed XDP lookup of scalable and dynamic filters
 * (bpf/kbloom_scalable.h, kbloom_sbf_map_fill()) under BPF_PROG_TEST_RUN:
 *
 * grown_*        a filter grown over several generations (dynamic: with
 *                deletes refused and generations merged) goes through its
 *                container image, as kbloom.ko's SAVE writes it (byte for
 *                byte the library's: tests/kmod/scalable_test.c), into the
 *                maps: the XDP verdict of every key and non-key equals
 *                the library's test, no false negative
 * growth_append  maps filled from the filter at one generation, then
 *                filled again after it grew: the new answers, the same
 *                rows for the old generations
 * maps_checked   maps too small or of another shape are refused, nothing
 *                written
 */
#include "kselftest_harness.h"
#include "xdp_scalable_util.h"

#define P_1PCT		10000000000ULL
#define N_KEYS		20000U

static void key16(__u8 out[16], __u64 i)
{
	memset(out, 0, 16);
	memcpy(out, &i, sizeof(i));
	out[15] = 0x5c;
}

static struct kbloom_sbf *sbf_new(__u32 type, __u64 cap)
{
	struct kb_sbf_params p = { .type = type, .capacity = cap,
				   .fpr_pico = P_1PCT };
	struct kbloom_opts o = { .seed = 0x5CA1, .hash_id = KBLOOM_HASH_SIPHASH13 };
	struct kbloom_sbf *f = NULL;

	return kbloom_sbf_create(&p, &o, &f) ? NULL : f;
}

/* @f through its image, as a loader gets it from a file or the module. */
static struct kbloom_sbf *via_image(const struct kbloom_sbf *f)
{
	struct kbloom_sbf *g = NULL;
	size_t len;
	void *img;

	if (kbloom_sbf_save_alloc(f, &img, &len))
		return NULL;
	if (kbloom_sbf_load(img, len, &g))
		g = NULL;
	free(img);
	return g;
}

/* Keys [0, n) and non-keys [n, 2n): BPF against the library. */
static __u32 differences(struct __test_metadata *_metadata,
			 struct xdp_scalable *s, const struct kbloom_sbf *f,
			 __u32 n, __u32 *present)
{
	__u32 i, diff = 0;
	__u8 key[16];
	int v, lib;

	*present = 0;
	for (i = 0; i < 2 * n; i++) {
		key16(key, i);
		v = xs_verdict(s, key);
		lib = kbloom_sbf_test(f, key, 16);
		EXPECT_TRUE(v == XDP_PASS || v == XDP_DROP) TH_LOG("key %u: %d", i, v);
		diff += lib != (v == XDP_PASS);
		*present += v == XDP_PASS;
		if (i < n && v != XDP_PASS)
			diff += 1000000;	/* a false negative */
	}
	return diff;
}

static void add_keys(struct kbloom_sbf *f, __u32 lo, __u32 hi)
{
	__u8 key[16];
	__u32 i;

	for (i = lo; i < hi; i++) {
		key16(key, i);
		kbloom_sbf_add(f, key, 16);
	}
}

TEST(grown_scalable)
{
	struct kbloom_sbf_stats st;
	struct kbloom_sbf *f, *g;
	struct xdp_scalable *s;
	__u32 present;

	f = sbf_new(KBLOOM_TYPE_SCALABLE, 500);
	ASSERT_NE(NULL, f);
	add_keys(f, 0, N_KEYS);
	g = via_image(f);
	ASSERT_NE(NULL, g);
	ASSERT_EQ(0, kbloom_sbf_stats(g, &st));
	EXPECT_LE(5, st.generations);
	s = xs_open(kbloom_sbf_map_words(g));
	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, xs_fill(s, g));
	EXPECT_EQ(0, differences(_metadata, s, g, N_KEYS, &present));
	TH_LOG("%u generations: %u of %u keys and non-keys possibly present",
	       st.generations, present, 2 * N_KEYS);
	xdp_scalable__destroy(s);
	kbloom_sbf_destroy(f);
	kbloom_sbf_destroy(g);
}

TEST(grown_dynamic)
{
	struct kbloom_sbf_stats st;
	struct kbloom_sbf *f, *g;
	struct xdp_scalable *s;
	__u32 present, i;
	__u8 key[16];

	f = sbf_new(KBLOOM_TYPE_DYNAMIC, 2000);
	ASSERT_NE(NULL, f);
	add_keys(f, 0, 7000);
	for (i = 7000; i-- > 3000;) {	/* deletes: refusals and merges */
		key16(key, i);
		kbloom_sbf_del(f, key, 16);
	}
	g = via_image(f);
	ASSERT_NE(NULL, g);
	ASSERT_EQ(0, kbloom_sbf_stats(g, &st));
	TH_LOG("%u generations, %llu refused, %llu merges", st.generations,
	       (unsigned long long)st.refused, (unsigned long long)st.merges);
	EXPECT_LT(0, st.merges);
	s = xs_open(kbloom_sbf_map_words(g));
	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, xs_fill(s, g));
	EXPECT_EQ(0, differences(_metadata, s, g, 3000, &present));
	xdp_scalable__destroy(s);
	kbloom_sbf_destroy(f);
	kbloom_sbf_destroy(g);
}

TEST(growth_append)
{
	struct xdp_scalable *s;
	struct kbloom_sbf *f;
	__u32 present;

	f = sbf_new(KBLOOM_TYPE_SCALABLE, 1000);
	ASSERT_NE(NULL, f);
	add_keys(f, 0, 800);
	/* room for what it will grow to: 1000 + 2000 + 4000 keys */
	s = xs_open(1 << 16);
	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, xs_fill(s, f));
	EXPECT_EQ(0, differences(_metadata, s, f, 800, &present));
	add_keys(f, 800, 6000);
	ASSERT_EQ(0, xs_fill(s, f));
	EXPECT_EQ(0, differences(_metadata, s, f, 6000, &present));
	xdp_scalable__destroy(s);
	kbloom_sbf_destroy(f);
}

TEST(maps_checked)
{
	struct xdp_scalable *s;
	struct kbloom_sbf *f;
	__u32 zero = 0;
	struct kb_sbf_map_meta m;

	f = sbf_new(KBLOOM_TYPE_SCALABLE, 1000);
	ASSERT_NE(NULL, f);
	add_keys(f, 0, 5000);
	s = xs_open(kbloom_sbf_map_words(f) - 1);
	ASSERT_NE(NULL, s);
	EXPECT_EQ(-E2BIG, xs_fill(s, f));
	ASSERT_EQ(0, bpf_map_lookup_elem(bpf_map__fd(s->maps.sbf_meta), &zero,
					 &m));
	EXPECT_EQ(0, m.generations);
	EXPECT_EQ(-EINVAL, kbloom_sbf_map_fill(f, bpf_map__fd(s->maps.sbf_gens),
					       bpf_map__fd(s->maps.sbf_gens),
					       bpf_map__fd(s->maps.sbf_words)));
	xdp_scalable__destroy(s);
	kbloom_sbf_destroy(f);
}

TEST_HARNESS_MAIN
