// SPDX-License-Identifier: GPL-2.0
/*
 * The contract of the survey variants I (uapi/kbloom_variants.h) and of
 * image version 3 and container images (uapi/kbloom_image.h):
 *  - golden vectors: cuckoo (fingerprint, bucket, alternate bucket), d-left
 *    (bucket and remainder per subtable, both layouts), Count-Min (counter
 *    per row) and VI-CBF (position and increment) for fixed hashes,
 *    computed once by an independent implementation of the formulas in the
 *    header's comment;
 *  - the properties the executors rely on: the cuckoo alternate is an
 *    involution for every bucket count, the d-left permutations are
 *    bijections whose subtables are not correlated, packed fields round
 *    trip across word boundaries;
 *  - every bad geometry refused, each with its errno;
 *  - version-3 images and containers: accepted when valid, and each way of
 *    breaking them refused with the documented errno.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_variants.h"
#include "uapi/kbloom_var_iblt.h"
#include "core_util.h"

struct gold_variant {
	__u64 h;
	__u32 fp, i1, i2;		/* cuckoo f = 12, B = 1000003 */
	__u32 dl_b[4], dl_r[4];		/* d-left B = 1024, r = 12, d = 4 */
	__u32 cm[5];			/* Count-Min w = 2719, d = 5 */
	__u32 vi_pos[3], vi_inc[3];	/* VI m = 4096, L = 4, k = 3 */
};

/* d-left lines layout, h = 0xDEADBEEFCAFEBABE, subtable 3 (B = 1024, r = 12) */
#define GOLD_LINES_FIRST	3768ULL
#define GOLD_LINES_REM		894ULL

static const struct gold_variant gold[] = {
	{ 0x0123456789ABCDEFULL, 2203, 4444, 524434,
	  { 778, 315, 926, 979 }, { 1286, 434, 1406, 2908 },
	  { 12, 2852, 6245, 9502, 12017 },
	  { 18, 201, 1216 }, { 6, 6, 5 } },
	{ 0xFEDCBA9876543210ULL, 1893, 995558, 942788,
	  { 515, 364, 480, 542 }, { 892, 2713, 2707, 2337 },
	  { 2706, 3623, 7697, 8507, 12864 },
	  { 4077, 1363, 3403 }, { 5, 7, 6 } },
	{ 0xDEADBEEFCAFEBABEULL, 3248, 869841, 504558,
	  { 889, 117, 663, 283 }, { 3776, 894, 2021, 835 },
	  { 2365, 2877, 7698, 10488, 11953 },
	  { 3562, 238, 3405 }, { 7, 5, 6 } },
	{ 0x0000000000000001ULL, 1, 0, 618035,
	  { 267, 5, 963, 37 }, { 876, 2948, 1580, 3751 },
	  { 0, 4399, 7809, 9179, 13183 },
	  { 0, 2531, 3572 }, { 4, 5, 7 } },
	{ 0xFFFFFFFFFFFFFFFFULL, 4095, 1000002, 849187,
	  { 503, 494, 63, 650 }, { 3019, 651, 1316, 434 },
	  { 2718, 3757, 5785, 9853, 11287 },
	  { 4095, 1564, 523 }, { 7, 6, 4 } },
};

TEST(golden_cuckoo)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gold); i++) {
		const struct gold_variant *g = &gold[i];
		__u32 fp = kb_cuckoo_fp(g->h, 12);
		__u32 i1 = kb_cuckoo_index(g->h, 1000003);

		EXPECT_EQ(g->fp, fp);
		EXPECT_EQ(g->i1, i1);
		EXPECT_EQ(g->i2, kb_cuckoo_alt(i1, fp, 1000003));
	}
}

TEST(golden_dleft)
{
	unsigned int i, j;
	__u64 v, vj;

	for (i = 0; i < ARRAY_SIZE(gold); i++) {
		v = kb_dleft_print(gold[i].h, 1024, 12);
		for (j = 0; j < 4; j++) {
			vj = kb_dleft_perm(v, j, 1024, 12);
			EXPECT_EQ(gold[i].dl_b[j], vj >> 12);
			EXPECT_EQ(gold[i].dl_r[j], vj & 4095);
		}
	}
	/* q = 64: the whole hash is the print */
	v = kb_dleft_print(0xDEADBEEFCAFEBABEULL, 1ULL << 32, 32);
	EXPECT_EQ(0xDEADBEEFCAFEBABEULL, v);
	vj = kb_dleft_perm(v, 1, 1ULL << 32, 32);
	EXPECT_EQ(3514955523ULL, vj >> 32);
	EXPECT_EQ(3618691122ULL, vj & 0xFFFFFFFFULL);
}

/*
 * The lines layout (d = 4, c = 8, B = 1024, r = 12): subtables 0 and 1 take
 * the bucket and remainder of subtable 0's pinned print, 2 and 3 those of
 * subtable 1's; bucket b of subtable j is cell (4 b + j) 8.
 */
TEST(golden_dleft_lines)
{
	struct kb_shape s = { .type = KBLOOM_TYPE_DLEFT, .tables = 4,
			      .slots = 8, .fp_bits = 12, .counter_bits = 4,
			      .update = KB_DLEFT_LAYOUT_LINES,
			      .buckets = 1024 };
	unsigned int i, j;
	__u64 first, rem;

	ASSERT_EQ(0, kb_shape_derive(&s));
	for (i = 0; i < ARRAY_SIZE(gold); i++) {
		for (j = 0; j < 4; j++) {
			first = kb_dleft_locate(gold[i].h, j, 22, &s, &rem);
			EXPECT_EQ((gold[i].dl_b[j / 2] * 4 + j) * 8, first);
			EXPECT_EQ(gold[i].dl_r[j / 2], rem);
		}
	}
	first = kb_dleft_locate(0xDEADBEEFCAFEBABEULL, 3, 22, &s, &rem);
	EXPECT_EQ(GOLD_LINES_FIRST, first);
	EXPECT_EQ(GOLD_LINES_REM, rem);
}

TEST(golden_count_min_and_vi)
{
	struct kb_probe p;
	unsigned int i, j;
	__u32 inc;

	for (i = 0; i < ARRAY_SIZE(gold); i++) {
		kb_probe_init(&p, gold[i].h);
		for (j = 0; j < 5; j++) {
			EXPECT_EQ(gold[i].cm[j],
				  kb_cm_counter(j, kb_probe_word(&p), 2719));
			kb_probe_next(&p, 2719);
		}
		kb_probe_init(&p, gold[i].h);
		for (j = 0; j < 3; j++) {
			EXPECT_EQ(gold[i].vi_pos[j], kb_vi_next(&p, 4096, 4, &inc));
			EXPECT_EQ(gold[i].vi_inc[j], inc);
		}
	}
}

/* The VI positions are the counting filter's, for the same m and k. */
TEST(vi_positions_are_counting_positions)
{
	struct kb_probe a, b;
	__u32 i, k, inc;
	__u64 h;

	for (i = 0; i < 10000; i++) {
		h = cu_mix(i);
		kb_probe_init(&a, h);
		kb_probe_init(&b, h);
		for (k = 0; k < 8; k++) {
			ASSERT_EQ(kb_probe_next(&a, 100000),
				  kb_vi_next(&b, 100000, 4, &inc));
			ASSERT_TRUE(inc >= 4 && inc <= 7);
		}
	}
}

/* alt(alt(i)) == i for every bucket count, powers of two or not. */
TEST(cuckoo_alt_involution)
{
	static const __u64 counts[] = { 2, 3, 7, 1000, 1024, 1000003,
					(1ULL << 32) - 5, 1ULL << 32 };
	struct cu_rng r = { 42 };
	__u32 i, fp, a, c, n;

	for (c = 0; c < ARRAY_SIZE(counts); c++) {
		for (n = 0; n < 20000; n++) {
			i = kb_reduce32((__u32)cu_next(&r), counts[c]);
			fp = kb_cuckoo_fp(cu_next(&r), 4 + n % 29);
			a = kb_cuckoo_alt(i, fp, counts[c]);
			ASSERT_LT(a, counts[c]);
			ASSERT_EQ(i, kb_cuckoo_alt(a, fp, counts[c]));
		}
	}
}

/* Fingerprints are never 0 (the empty slot) and use every value. */
TEST(cuckoo_fingerprint_range)
{
	static unsigned char seen[16];
	__u32 i, fp;

	for (i = 0; i < 100000; i++) {
		fp = kb_cuckoo_fp(cu_mix(i), 4);
		ASSERT_TRUE(fp >= 1 && fp <= 15);
		seen[fp] = 1;
	}
	for (i = 1; i < 16; i++)
		EXPECT_EQ(1, seen[i]);
	EXPECT_EQ(0xFFFFFFFFU, kb_cuckoo_fp(~0ULL, 32));
	EXPECT_EQ(1U, kb_cuckoo_fp(0, 32));
}

/* Every subtable permutation is a bijection of the q-bit prints. */
TEST(dleft_perm_bijective)
{
	static unsigned char seen[1 << 12];
	__u32 j, v;

	for (j = 0; j < KB_DLEFT_TABLES_MAX; j++) {
		memset(seen, 0, sizeof(seen));
		for (v = 0; v < (1U << 12); v++) {
			__u64 x = kb_dleft_perm(v, j, 256, 4);

			ASSERT_LT(x, 1U << 12);
			ASSERT_EQ(0, seen[x]);
			seen[x] = 1;
		}
	}
}

/*
 * Subtables choose buckets independently: of distinct prints that share a
 * bucket in subtable 0, the share that also shares one in subtable 1 is
 * 1 / B within sampling error (a linear permutation gives ~29%).
 */
TEST(dleft_subtables_independent)
{
	enum { B = 1024, R = 12, N = 1 << 20 };
	__u32 *first = calloc(B, sizeof(*first));
	__u64 v, pairs = 0, same = 0, b0, b1, prev;
	double p, sigma;

	ASSERT_NE(NULL, first);
	for (v = 0; v < N; v++) {
		/* distinct prints: the odd multiple of a counter */
		__u64 x = (v * 0x9E3779B1ULL) & ((1ULL << 22) - 1);

		b0 = kb_dleft_perm(x, 0, B, R) >> R;
		b1 = kb_dleft_perm(x, 1, B, R) >> R;
		if (first[b0]) {
			prev = first[b0] - 1;
			pairs++;
			same += prev == b1;
		}
		first[b0] = (__u32)b1 + 1;
	}
	p = (double)same / pairs;
	sigma = sqrt(1.0 / B / pairs);
	TH_LOG("P(same bucket in 1 | same in 0) = %.6f, 1/B = %.6f, %llu pairs",
	       p, 1.0 / B, (unsigned long long)pairs);
	EXPECT_LT(fabs(p - 1.0 / B), 5 * sigma);
	free(first);
}

TEST(field_roundtrip)
{
	__u64 words[4], v, back;
	__u32 width, shift;
	__u64 n, w;
	struct cu_rng r = { 7 };

	for (width = 1; width <= 40; width++) {
		for (n = 0; n < (192 - 64) / width; n++) {
			memset(words, 0xA5, sizeof(words));
			v = cu_next(&r) & kb_field_mask(width);
			w = kb_field_word(n, width);
			shift = kb_field_shift(n, width);
			words[w] = kb_field_put_lo(words[w], shift, width, v);
			if (kb_field_spills(shift, width))
				words[w + 1] = kb_field_put_hi(words[w + 1],
							       shift, width, v);
			back = kb_field_get(words[w], words[w + 1], shift, width);
			ASSERT_EQ(v, back);
			/* the neighbours are untouched */
			if (shift)
				ASSERT_EQ(0xA5A5A5A5A5A5A5A5ULL &
					  kb_field_mask(shift),
					  words[w] & kb_field_mask(shift));
		}
	}
}

static struct kb_shape cuckoo_shape(void)
{
	struct kb_shape s = { .type = KBLOOM_TYPE_CUCKOO, .fp_bits = 12,
			      .slots = 4, .buckets = 1000 };

	return s;
}

static struct kb_shape dleft_shape(void)
{
	struct kb_shape s = { .type = KBLOOM_TYPE_DLEFT, .counter_bits = 2,
			      .fp_bits = 12, .slots = 8, .tables = 4,
			      .buckets = 1024 };

	return s;
}

static struct kb_shape cm_shape(void)
{
	struct kb_shape s = { .type = KBLOOM_TYPE_COUNT_MIN,
			      .counter_bits = 32, .tables = 5,
			      .buckets = 2719, .update = KB_CM_ALL };

	return s;
}

static struct kb_shape vi_shape(void)
{
	struct kb_shape s = { .type = KBLOOM_TYPE_VI_COUNTING,
			      .counter_bits = 4, .vi_l = 4, .k = 5,
			      .m = 1 << 16 };

	return s;
}

TEST(shape_derive_and_words)
{
	struct kb_shape s = cuckoo_shape();

	ASSERT_EQ(0, kb_shape_derive(&s));
	EXPECT_EQ(2, s.k);
	EXPECT_EQ(4000, s.m);
	EXPECT_EQ((4000 * 12 + 63) / 64, kb_shape_words(&s));
	s = dleft_shape();
	ASSERT_EQ(0, kb_shape_derive(&s));
	EXPECT_EQ(4, s.k);
	EXPECT_EQ(4 * 1024 * 8, s.m);
	EXPECT_EQ(4 * 1024 * 8 * 14 / 64, kb_shape_words(&s));
	s = cm_shape();
	ASSERT_EQ(0, kb_shape_derive(&s));
	EXPECT_EQ(5, s.k);
	EXPECT_EQ(5 * 2719, s.m);
	EXPECT_EQ((5 * 2719 * 32 + 63) / 64, kb_shape_words(&s));
	s = vi_shape();
	ASSERT_EQ(0, kb_shape_derive(&s));
	EXPECT_EQ(5, s.k);
	EXPECT_EQ((1 << 16) / 16, kb_shape_words(&s));
}

#define BAD_SHAPE(mk, field, val)					\
	do {								\
		struct kb_shape s = mk();				\
		s.field = val;						\
		EXPECT_EQ(-EINVAL, kb_shape_derive(&s)) {		\
			TH_LOG(#mk " " #field " = %llu",		\
			       (unsigned long long)(val));		\
		}							\
	} while (0)

TEST(shape_bad_fields)
{
	struct kb_shape s = { .type = KBLOOM_TYPE_ADAPTIVE };

	BAD_SHAPE(cuckoo_shape, fp_bits, 3);
	BAD_SHAPE(cuckoo_shape, fp_bits, 33);
	BAD_SHAPE(cuckoo_shape, slots, 3);
	BAD_SHAPE(cuckoo_shape, slots, 16);
	BAD_SHAPE(cuckoo_shape, buckets, 1);
	BAD_SHAPE(cuckoo_shape, buckets, 1ULL << 31);
	BAD_SHAPE(cuckoo_shape, counter_bits, 4);
	BAD_SHAPE(cuckoo_shape, tables, 2);
	BAD_SHAPE(dleft_shape, counter_bits, 3);
	BAD_SHAPE(dleft_shape, counter_bits, 16);
	BAD_SHAPE(dleft_shape, buckets, 1000);
	BAD_SHAPE(dleft_shape, tables, 1);
	BAD_SHAPE(dleft_shape, tables, 9);
	BAD_SHAPE(dleft_shape, slots, 0);
	BAD_SHAPE(dleft_shape, slots, 17);
	BAD_SHAPE(dleft_shape, fp_bits, 3);
	BAD_SHAPE(dleft_shape, vi_l, 4);
	BAD_SHAPE(cm_shape, counter_bits, 8);
	BAD_SHAPE(cm_shape, update, 0);
	BAD_SHAPE(cm_shape, update, 3);
	BAD_SHAPE(cm_shape, tables, 0);
	BAD_SHAPE(cm_shape, tables, 17);
	BAD_SHAPE(cm_shape, buckets, 15);
	BAD_SHAPE(cm_shape, fp_bits, 8);
	BAD_SHAPE(vi_shape, vi_l, 1);
	BAD_SHAPE(vi_shape, vi_l, 5);
	BAD_SHAPE(vi_shape, counter_bits, 2);
	BAD_SHAPE(vi_shape, m, 1000);
	BAD_SHAPE(vi_shape, k, 0);
	BAD_SHAPE(vi_shape, k, 33);
	BAD_SHAPE(vi_shape, buckets, 8);
	/* more cells than KBLOOM_M_MAX */
	{
		struct kb_shape t = dleft_shape();

		t.buckets = 1ULL << 31;
		t.slots = 1;
		t.tables = 2;
		EXPECT_EQ(0, kb_shape_derive(&t));
		t.tables = 4;
		EXPECT_EQ(-EINVAL, kb_shape_derive(&t));
	}
	/* k and m must be the derived ones */
	{
		struct kb_shape t = cuckoo_shape();

		ASSERT_EQ(0, kb_shape_derive(&t));
		t.k = 3;
		EXPECT_EQ(-EINVAL, kb_shape_check(&t));
	}
	/* a later survey type: not defined by this contract yet */
	EXPECT_EQ(-EOPNOTSUPP, kb_shape_check(&s));
	s.type = KBLOOM_TYPE_BLOCKED;
	EXPECT_EQ(-EOPNOTSUPP, kb_shape_check(&s));
}

TEST(type_table)
{
	__u32 t;

	EXPECT_FALSE(kb_type_known(0));
	EXPECT_FALSE(kb_type_known(KBLOOM_TYPE_LAST + 1));
	for (t = KBLOOM_TYPE_STANDARD; t <= KBLOOM_TYPE_LAST; t++)
		EXPECT_TRUE(kb_type_known(t));
	EXPECT_TRUE(kb_type_may_fn(KBLOOM_TYPE_STABLE));
	EXPECT_TRUE(kb_type_may_fn(KBLOOM_TYPE_AGE_PARTITIONED));
	EXPECT_FALSE(kb_type_may_fn(KBLOOM_TYPE_CUCKOO));
	EXPECT_FALSE(kb_type_may_fn(KBLOOM_TYPE_BLOCKED));
	EXPECT_EQ(KBLOOM_IMAGE_VERSION, kb_image_version_of(KBLOOM_TYPE_COUNTING));
	EXPECT_EQ(KBLOOM_IMAGE_VERSION_GEOM, kb_image_version_of(KBLOOM_TYPE_CUCKOO));
}

/* A valid version-3 image of @s with a recognisable payload. */
struct v3img {
	size_t len;
	union {
		struct kbloom_image_head head;
		__u8 buf[KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN + 65536];
	};
};

static void v3_seal(struct v3img *im)
{
	struct kbloom_image_hdr *h = &im->head.h;
	size_t hl = KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN;

	h->crc = 0;
	h->crc = kb_le32(kb_image_crc_head(&im->head, im->buf + hl, im->len - hl));
}

static void v3_build(struct v3img *im, struct kb_shape s)
{
	struct kbloom_image_hdr *h = &im->head.h;
	struct kbloom_image_geom *g = &im->head.g;
	size_t hl = KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN, i;
	__u64 plen;

	memset(im, 0, sizeof(*im));
	kb_shape_derive(&s);
	plen = kb_shape_words(&s) * 8;
	h->magic = kb_le32(KBLOOM_IMAGE_MAGIC);
	h->version = kb_le16(KBLOOM_IMAGE_VERSION_GEOM);
	h->hdr_len = kb_le16(hl);
	h->type = s.type;
	h->hash_id = KBLOOM_HASH_FAST;
	h->counter_bits = s.counter_bits;
	h->k = kb_le32(s.k);
	h->seed = kb_le64(0x1234);
	h->m = kb_le64(s.m);
	h->payload_len = kb_le64(plen);
	strcpy(h->name, "v3");
	g->fp_bits = s.fp_bits;
	g->slots = s.slots;
	g->tables = s.tables;
	g->vi_l = s.vi_l;
	g->update = s.update;
	g->buckets = kb_le64(s.buckets);
	for (i = 0; i < plen; i++)
		im->buf[hl + i] = (__u8)(i * 7);
	im->len = hl + plen;
	v3_seal(im);
}

TEST(image_v3_valid)
{
	struct v3img *im = malloc(sizeof(*im));

	ASSERT_NE(NULL, im);
	v3_build(im, cuckoo_shape());
	EXPECT_EQ(0, kb_image_verify(im->buf, im->len));
	v3_build(im, dleft_shape());
	EXPECT_EQ(0, kb_image_verify(im->buf, im->len));
	v3_build(im, cm_shape());
	EXPECT_EQ(0, kb_image_verify(im->buf, im->len));
	v3_build(im, vi_shape());
	/* VI counters are 0, >= L or saturated (kb_vi_counters_ok()) */
	EXPECT_EQ(-EBADMSG, kb_image_verify(im->buf, im->len));
	memset(im->buf + KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN, 0xF5,
	       im->len - KBLOOM_IMAGE_HDR_LEN - KBLOOM_IMAGE_GEOM_LEN);
	v3_seal(im);
	EXPECT_EQ(0, kb_image_verify(im->buf, im->len));
	/* a version-2 reader's view: the version it does not know */
	EXPECT_NE(KBLOOM_IMAGE_VERSION, kb_le16(im->head.h.version));
	free(im);
}

/* Break one thing of a valid cuckoo image, reseal, expect @err. */
static int v3_broken(struct v3img *im, int what)
{
	struct kbloom_image_hdr *h = &im->head.h;
	struct kbloom_image_geom *g = &im->head.g;
	int reseal = 1;

	v3_build(im, cuckoo_shape());
	switch (what) {
	case 0: h->version = kb_le16(KBLOOM_IMAGE_VERSION_MAX + 1); break;
	case 1: h->hdr_len = kb_le16(KBLOOM_IMAGE_HDR_LEN); break;
	case 2: h->flags = 0x80; break;
	case 3: h->flags = KBLOOM_IMAGE_F_MAY_FN; break;
	case 4: g->reserved0[1] = 1; break;
	case 5: g->reserved[3] = 1; break;
	case 6: g->fp_bits = 2; break;
	case 7: g->slots = 5; break;
	case 8: h->type = KBLOOM_TYPE_STANDARD; break;
	case 9: h->type = KBLOOM_TYPE_ADAPTIVE; break;
	case 10: h->type = KBLOOM_TYPE_LAST + 1; break;
	case 11: h->saturations = kb_le64(1); break;
	case 12: g->overflows = kb_le64(1); break;	/* a statistic */
	case 13: g->buckets = kb_le64(999); break;
	case 14: g->tables = 1; break;
	case 15: im->len -= 8; break;
	case 16: g->kicks ^= 1; reseal = 0; break;	/* crc covers the tail */
	case 17: h->k = kb_le32(3); break;
	case 18: h->block_bits = kb_le32(512); break;
	case 19: im->len = KBLOOM_IMAGE_HDR_LEN + 16; break;
	case 20: h->version = kb_le16(KBLOOM_IMAGE_VERSION); break;
	}
	if (reseal && im->len >= KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN)
		v3_seal(im);
	return kb_image_verify(im->buf, im->len);
}

TEST(image_v3_refused)
{
	static const int want[] = {
		-EPROTONOSUPPORT, -EBADMSG, -EBADMSG, -EBADMSG, -EBADMSG,
		-EBADMSG, -EBADMSG, -EBADMSG, -EBADMSG, -EOPNOTSUPP,
		-EOPNOTSUPP, -EBADMSG, 0, -EBADMSG, -EBADMSG,
		-EMSGSIZE, -EBADMSG, -EBADMSG, -EBADMSG, -EMSGSIZE,
		-EBADMSG,
	};
	struct v3img *im = malloc(sizeof(*im));
	unsigned int i;

	ASSERT_NE(NULL, im);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		EXPECT_EQ(want[i], v3_broken(im, i)) {
			TH_LOG("case %u", i);
		}
	/* a d-left image may record overflows, not kicks */
	v3_build(im, dleft_shape());
	im->head.g.overflows = kb_le64(3);
	v3_seal(im);
	EXPECT_EQ(0, kb_image_verify(im->buf, im->len));
	im->head.g.kicks = kb_le64(3);
	v3_seal(im);
	EXPECT_EQ(-EBADMSG, kb_image_verify(im->buf, im->len));
	free(im);
}

/*
 * libkbloom's filters are the classic types: a valid version-3 image is
 * -EOPNOTSUPP for kbloom_load(), at any alignment, and allocates nothing.
 */
TEST(image_v3_not_a_classic_filter)
{
	struct v3img *im = malloc(sizeof(*im));
	struct kbloom_filter *f = (void *)1;
	__u8 *odd = malloc(sizeof(im->buf) + 1);

	ASSERT_NE(NULL, im);
	ASSERT_NE(NULL, odd);
	v3_build(im, cuckoo_shape());
	EXPECT_EQ(-EOPNOTSUPP, kbloom_load(im->buf, im->len, &f));
	EXPECT_EQ((void *)1, f);
	memcpy(odd + 1, im->buf, im->len);
	EXPECT_EQ(-EOPNOTSUPP, kbloom_load(odd + 1, im->len, &f));
	/* misaligned and broken: the tail is checked on the copy */
	odd[1 + KBLOOM_IMAGE_HDR_LEN + 40] ^= 1;	/* a reserved field */
	EXPECT_EQ(-EBADMSG, kbloom_load(odd + 1, im->len, &f));
	odd[1 + KBLOOM_IMAGE_HDR_LEN + 40] ^= 1;
	odd[1 + im->len - 1] ^= 1;			/* the payload */
	EXPECT_EQ(-EBADMSG, kbloom_load(odd + 1, im->len, &f));
	EXPECT_EQ((void *)1, f);
	free(odd);
	free(im);
}

/* A version-2 image of a later type is inconsistent. */
TEST(image_v2_of_new_type)
{
	struct kbloom_filter *f;
	void *img;
	size_t len;
	struct kbloom_image_hdr *h;

	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 4096, 6, NULL, &f));
	ASSERT_EQ(0, kbloom_save_alloc(f, &img, &len));
	h = img;
	ASSERT_EQ(KBLOOM_IMAGE_VERSION, kb_le16(h->version));
	ASSERT_EQ(0, kb_image_verify(img, len));
	h->type = KBLOOM_TYPE_CUCKOO;
	h->crc = 0;
	h->crc = kb_le32(kb_image_crc(h, (__u8 *)img + KBLOOM_IMAGE_HDR_LEN,
				      len - KBLOOM_IMAGE_HDR_LEN));
	EXPECT_EQ(-EBADMSG, kb_image_verify(img, len));
	h->type = KBLOOM_TYPE_LAST + 1;
	EXPECT_EQ(-EOPNOTSUPP, kb_image_check(h, len));
	free(img);
	kbloom_destroy(f);
}

/* A container of @n images of blocked filters (hash fast), sealed. */
static __u8 *container_build(unsigned int n, size_t *total)
{
	struct kbloom_container_hdr *c;
	struct kbloom_filter *f;
	size_t off = KBLOOM_CONTAINER_HDR_LEN, len;
	unsigned int i;
	__u8 *buf;
	void *img;
	__u32 crc;

	buf = calloc(1, KBLOOM_CONTAINER_HDR_LEN + n * (KBLOOM_IMAGE_HDR_LEN + 1024));
	if (!buf)
		return NULL;
	for (i = 0; i < n; i++) {
		if (kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 512 * (i + 1), 4,
				     NULL, &f))
			return NULL;
		kbloom_add(f, &i, sizeof(i));
		if (kbloom_save_alloc(f, &img, &len))
			return NULL;
		memcpy(buf + off, img, len);
		off += len;
		free(img);
		kbloom_destroy(f);
	}
	c = (struct kbloom_container_hdr *)buf;
	c->magic = kb_le32(KBLOOM_CONTAINER_MAGIC);
	c->version = kb_le16(KBLOOM_CONTAINER_VERSION);
	c->hdr_len = kb_le16(KBLOOM_CONTAINER_HDR_LEN);
	c->type = KBLOOM_TYPE_SCALABLE;
	c->hash_id = KBLOOM_HASH_FAST;
	c->count = kb_le32(n);
	c->params[0] = kb_le64(2);
	c->payload_len = kb_le64(off - KBLOOM_CONTAINER_HDR_LEN);
	strcpy(c->name, "gens");
	crc = kb_crc32c_update(0xFFFFFFFFU, c, sizeof(*c));
	crc = kb_crc32c_update(crc, buf + KBLOOM_CONTAINER_HDR_LEN,
			       off - KBLOOM_CONTAINER_HDR_LEN);
	c->crc = kb_le32(~crc);
	*total = off;
	return buf;
}

static void container_reseal(__u8 *buf, size_t total)
{
	struct kbloom_container_hdr *c = (struct kbloom_container_hdr *)buf;
	__u32 crc;

	c->crc = 0;
	crc = kb_crc32c_update(0xFFFFFFFFU, c, sizeof(*c));
	crc = kb_crc32c_update(crc, buf + KBLOOM_CONTAINER_HDR_LEN,
			       total - KBLOOM_CONTAINER_HDR_LEN);
	c->crc = kb_le32(~crc);
}

TEST(container_valid_and_members_alone)
{
	size_t total, off = KBLOOM_CONTAINER_HDR_LEN;
	__u64 len;
	unsigned int i;
	__u8 *buf = container_build(3, &total);

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, kb_container_verify(buf, total));
	for (i = 0; i < 3; i++) {
		struct kbloom_filter *f;

		ASSERT_EQ(0, kb_container_member(buf, total, off, &len));
		/* each member loads alone and holds its key */
		ASSERT_EQ(0, kbloom_load(buf + off, len, &f));
		EXPECT_EQ(1, kbloom_test(f, &i, sizeof(i)));
		kbloom_destroy(f);
		off += len;
	}
	EXPECT_EQ(total, off);
	free(buf);
}

TEST(container_refused)
{
	struct kbloom_container_hdr *c;
	size_t total;
	__u8 *buf = container_build(2, &total);
	size_t m1 = KBLOOM_CONTAINER_HDR_LEN + KBLOOM_IMAGE_HDR_LEN + 64;

	ASSERT_NE(NULL, buf);
	c = (struct kbloom_container_hdr *)buf;
	EXPECT_EQ(-EMSGSIZE, kb_container_verify(buf, 100));
	c->type = KBLOOM_TYPE_BLOCKED;
	EXPECT_EQ(-EOPNOTSUPP, kb_container_verify(buf, total));
	c->type = KBLOOM_TYPE_SCALABLE;
	c->version = kb_le16(4);
	EXPECT_EQ(-EPROTONOSUPPORT, kb_container_verify(buf, total));
	c->version = kb_le16(KBLOOM_CONTAINER_VERSION);
	c->count = kb_le32(3);		/* one member missing */
	container_reseal(buf, total);
	EXPECT_EQ(-EMSGSIZE, kb_container_verify(buf, total));
	c->count = kb_le32(1);		/* bytes left over */
	container_reseal(buf, total);
	EXPECT_EQ(-EMSGSIZE, kb_container_verify(buf, total));
	c->count = 0;
	container_reseal(buf, total);
	EXPECT_EQ(-EBADMSG, kb_container_verify(buf, total));
	c->count = kb_le32(2);
	c->flags = KBLOOM_IMAGE_F_MAY_FN;	/* not that of the type */
	container_reseal(buf, total);
	EXPECT_EQ(-EBADMSG, kb_container_verify(buf, total));
	c->flags = 0;
	c->reserved2 = 1;
	container_reseal(buf, total);
	EXPECT_EQ(-EBADMSG, kb_container_verify(buf, total));
	c->reserved2 = 0;
	container_reseal(buf, total);
	ASSERT_EQ(0, kb_container_verify(buf, total));
	/* a member's payload bit: the member's checksum fails */
	buf[m1] ^= 1;
	container_reseal(buf, total);
	EXPECT_EQ(-EBADMSG, kb_container_verify(buf, total));
	buf[m1] ^= 1;
	/* a member of another hash */
	c->hash_id = KBLOOM_HASH_SIPHASH13;
	container_reseal(buf, total);
	EXPECT_EQ(-EBADMSG, kb_container_verify(buf, total));
	c->hash_id = KBLOOM_HASH_FAST;
	container_reseal(buf, total);
	/* the container's own checksum */
	buf[total - 1] ^= 0;
	c->params[5] = 1;
	EXPECT_EQ(-EBADMSG, kb_container_verify(buf, total));
	c->params[5] = 0;
	EXPECT_EQ(0, kb_container_verify(buf, total));
	free(buf);
}

/*
 * IBLT (uapi/kbloom_var_iblt.h): the cells of fixed hashes in table 3 of
 * tables of 152 cells, k = 4 (partitions of 38), computed once by an
 * independent implementation of the formula; a key's k cells are one per
 * partition; the key encoding; the strata shares; bad geometry; an image.
 */
TEST(golden_iblt)
{
	static const struct {
		__u64 h;
		__u64 c[4];
	} gold_iblt[] = {
		{ 0x0123456789ABCDEFULL, { 456, 495, 543, 588 } },
		{ 0xFEDCBA9876543210ULL, { 493, 506, 563, 574 } },
		{ 0xDEADBEEFCAFEBABEULL, { 489, 496, 563, 602 } },
		{ 0x0000000000000001ULL, { 456, 517, 565, 584 } },
		{ 0xFFFFFFFFFFFFFFFFULL, { 493, 508, 536, 593 } },
	};
	__u64 c[4], w[2];
	__u8 key[KBLOOM_KEY_MAX];
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(gold_iblt); i++) {
		kb_iblt_cells(gold_iblt[i].h, 4, 152, 3 * 152, c);
		for (j = 0; j < 4; j++) {
			EXPECT_EQ(gold_iblt[i].c[j], c[j]);
			EXPECT_EQ(j, kb_iblt_partition(c[j] - 3 * 152, 4, 152));
		}
	}
	kb_iblt_encode("239.1.2.3", 9, 2, w);
	EXPECT_EQ(0x322E312E39333209ULL, w[0]);
	EXPECT_EQ(0x332EULL, w[1]);
	EXPECT_EQ(9, kb_iblt_decode_key(w, 2, key));
	EXPECT_EQ(0, memcmp(key, "239.1.2.3", 9));
	w[1] |= 1ULL << 40;		/* padding not zero */
	EXPECT_EQ(0, kb_iblt_decode_key(w, 2, key));
	w[0] = 16;			/* longer than 2 words hold */
	EXPECT_EQ(0, kb_iblt_decode_key(w, 2, key));
	EXPECT_EQ(15, kb_iblt_key_max(2));
	EXPECT_EQ(64, kb_iblt_key_max(9));
	EXPECT_EQ(9, kb_iblt_key_words_for(64));
	EXPECT_EQ(152, kb_iblt_cells_for(100, 150, 4));
}

TEST(iblt_strata_shares)
{
	unsigned int n[4] = { 0 }, i;
	__u64 k;

	for (i = 0; i < 40000; i++) {
		k = cu_mix(i);
		n[kb_iblt_stratum(KBLOOM_HASH_FAST, 5, &k, 8, 4)]++;
	}
	/* 1/2, 1/4, 1/8 and the rest 1/8: within 5% of each */
	EXPECT_LT(fabs(n[0] / 20000.0 - 1), 0.05);
	EXPECT_LT(fabs(n[1] / 10000.0 - 1), 0.05);
	EXPECT_LT(fabs(n[2] / 5000.0 - 1), 0.05);
	EXPECT_LT(fabs(n[3] / 5000.0 - 1), 0.05);
}

TEST(iblt_shape)
{
	struct kb_shape s = { .type = KBLOOM_TYPE_IBLT, .k = 4, .slots = 2,
			      .tables = 8, .buckets = 80 };
	struct kb_shape b;
	struct v3img *im = malloc(sizeof(*im));

	ASSERT_NE(NULL, im);
	ASSERT_EQ(0, kb_shape_derive(&s));
	EXPECT_EQ(640, s.m);
	EXPECT_EQ(640 * 5, kb_shape_words(&s));
	b = s, b.k = 1;
	EXPECT_EQ(-EINVAL, kb_shape_check(&b));
	b = s, b.k = 9;
	EXPECT_EQ(-EINVAL, kb_shape_check(&b));
	b = s, b.k = 3;		/* 80 cells are not 3 partitions */
	EXPECT_EQ(-EINVAL, kb_shape_check(&b));
	b = s, b.slots = 10;
	EXPECT_EQ(-EINVAL, kb_shape_check(&b));
	b = s, b.tables = 0;
	EXPECT_EQ(-EINVAL, kb_shape_derive(&b));
	b = s, b.tables = 65;
	EXPECT_EQ(-EINVAL, kb_shape_derive(&b));
	b = s, b.counter_bits = 4;
	EXPECT_EQ(-EINVAL, kb_shape_check(&b));
	b = s, b.m = 641;
	EXPECT_EQ(-EINVAL, kb_shape_check(&b));
	v3_build(im, s);
	EXPECT_EQ(0, kb_image_verify(im->buf, im->len));
	im->head.h.saturations = kb_le64(1);
	v3_seal(im);
	EXPECT_EQ(-EBADMSG, kb_image_verify(im->buf, im->len));
	free(im);
}

TEST_HARNESS_MAIN
