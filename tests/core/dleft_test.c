// SPDX-License-Identifier: GPL-2.0
/*
 * d-left counting filters (libkbloom_dleft): the false-positive rate of
 * d = 4, c = 8, r = 12 at 75% load against d L 2^-r and its bytes against
 * counting/4 at that rate; exact deletes; overflow and saturation refused
 * and counted; the cell layout of uapi; image round trips; bad shapes and
 * bad images refused; readers that never miss a key under writers.  The
 * lines layout (KB_DLEFT_LAYOUT_LINES) too: the rate and exact deletes at
 * 75% load, its cells, its overflow at 75% load (filling and under churn)
 * beside the spread layout's, its images, unknown layouts refused.
 */
#include <pthread.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom_dleft.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_plan.h"
#include "core_util.h"

#define DL_BUCKETS	65536ULL
/* 75% of d B c = 4 * 65536 * 8 cells */
#define DL_N		(DL_BUCKETS * 24)
#define DL_PROBES	2000000ULL
#define DL_ABSENT	(1ULL << 40)
#define DL_P_PICO	6000000000ULL	/* 0.6%: r = 12 at 75% load */

static __u64 key_of(__u64 i)
{
	return cu_mix(i);
}

static int add_i(struct kbloom_dleft *f, __u64 i)
{
	__u64 k = key_of(i);

	return kbloom_dleft_add(f, &k, sizeof(k));
}

static int test_i(const struct kbloom_dleft *f, __u64 i)
{
	__u64 k = key_of(i);

	return kbloom_dleft_test(f, &k, sizeof(k));
}

static int del_i(struct kbloom_dleft *f, __u64 i)
{
	__u64 k = key_of(i);

	return kbloom_dleft_del(f, &k, sizeof(k));
}

/* Positives among @count keys from @from. */
static __u64 positives(const struct kbloom_dleft *f, __u64 from, __u64 count)
{
	__u64 i, n = 0;

	for (i = 0; i < count; i++)
		n += test_i(f, from + i) == 1;
	return n;
}

/* The measured rate is within 10% of d L 2^-r at the current load. */
static double rate_vs_formula(const struct kbloom_dleft *f, __u64 fp,
			      __u64 probes, double *formula)
{
	struct kbloom_dleft_stats st;

	kbloom_dleft_stats(f, &st);
	*formula = (double)kb_dleft_fpr_pico(st.cells_used, st.shape.buckets,
					     st.shape.fp_bits) / KBLOOM_P_UNIT;
	return (double)fp / probes / *formula;
}

static int all_zero(const struct kbloom_dleft *f)
{
	__u64 n, i;
	const __u64 *w = kbloom_dleft_words(f, &n);

	for (i = 0; i < n; i++)
		if (w[i])
			return 0;
	return 1;
}

/* Occupied cells whose counter is below its maximum. */
static __u64 cells_below_max(const struct kbloom_dleft *f)
{
	struct kbloom_dleft_stats st;
	__u64 nw, n, c, bad = 0;
	const __u64 *w = kbloom_dleft_words(f, &nw);
	__u32 bits, cb;

	kbloom_dleft_stats(f, &st);
	cb = st.shape.counter_bits;
	bits = st.shape.fp_bits + cb;
	for (n = 0; n < st.shape.m; n++) {
		c = kb_field_get(w[kb_field_word(n, bits)],
				 kb_field_word(n, bits) + 1 < nw ?
				 w[kb_field_word(n, bits) + 1] : 0,
				 kb_field_shift(n, bits), bits);
		c = kb_dleft_cell_count(c, cb);
		bad += c && c < kb_ctr_max(cb);
	}
	return bad;
}

FIXTURE(full) {
	struct kbloom_dleft *f;
};

/* Both layouts: the planner's shape, subtables spread or in lines. */
FIXTURE_VARIANT(full) {
	__u32 layout;
};

FIXTURE_VARIANT_ADD(full, spread) {
	.layout = KB_DLEFT_LAYOUT_SPREAD,
};

FIXTURE_VARIANT_ADD(full, lines) {
	.layout = KB_DLEFT_LAYOUT_LINES,
};

FIXTURE_SETUP(full)
{
	struct kbloom_dleft_opts o = { .seed = 0xD1EF7 };
	struct kb_shape s = { .update = variant->layout };
	__u64 i;

	ASSERT_EQ(0, kbloom_dleft_create(DL_N, DL_P_PICO, &s, &o, &self->f));
	for (i = 0; i < DL_N; i++)
		ASSERT_EQ(0, add_i(self->f, i));
}

FIXTURE_TEARDOWN(full)
{
	kbloom_dleft_destroy(self->f);
}

/* The planner's shape, its bits per key and counting/4's bytes. */
TEST(plan_default_shape)
{
	struct kb_shape s = { 0 };
	struct kb_plan cp;
	__u64 p, bytes;

	ASSERT_EQ(0, kb_dleft_plan(DL_N, DL_P_PICO, &s));
	ASSERT_EQ(KBLOOM_TYPE_DLEFT, s.type);
	ASSERT_EQ(4, s.tables);
	ASSERT_EQ(8, s.slots);
	ASSERT_EQ(2, s.counter_bits);
	ASSERT_EQ(12, s.fp_bits);
	ASSERT_EQ(DL_BUCKETS, s.buckets);
	ASSERT_EQ(4, s.k);
	p = kb_dleft_fpr_pico(DL_N, s.buckets, s.fp_bits);
	bytes = kb_shape_words(&s) * 8;
	ASSERT_EQ(0, kb_plan(KBLOOM_TYPE_COUNTING, DL_N, p, 4, &cp));
	TH_LOG("d-left d=4 c=8 r=12 w=2: p %.4f%%, %.2f bits/key, %llu bytes; counting/4 at that p: %.2f bits/key, %llu bytes (ratio %.3f)",
	       100.0 * p / KBLOOM_P_UNIT, 8.0 * bytes / DL_N,
	       (unsigned long long)bytes, 8.0 * cp.bytes / DL_N,
	       (unsigned long long)cp.bytes, (double)bytes / cp.bytes);
	ASSERT_LT(8.0 * bytes / DL_N, 18.7 + 0.05);
	ASSERT_LE(bytes * 2, cp.bytes);
}

TEST_F(full, fpr_at_75pct_load)
{
	struct kbloom_dleft_stats st;
	double ratio, formula;
	__u64 fp;

	ASSERT_EQ(0, kbloom_dleft_stats(self->f, &st));
	ASSERT_EQ(variant->layout, st.shape.update);
	ASSERT_EQ(0, st.overflows);
	ASSERT_EQ(DL_N, st.inserted);
	ASSERT_GT(st.load_ppm, 745000);
	ASSERT_LE(st.load_ppm, 750000);
	fp = positives(self->f, DL_ABSENT, DL_PROBES);
	ratio = rate_vs_formula(self->f, fp, DL_PROBES, &formula);
	TH_LOG("75%% load: measured %.4f%% (%llu / %llu), d L 2^-r = %.4f%%, ratio %.3f",
	       100.0 * fp / DL_PROBES, (unsigned long long)fp,
	       (unsigned long long)DL_PROBES, 100 * formula, ratio);
	ASSERT_GT(ratio, 0.9);
	ASSERT_LT(ratio, 1.1);
	ASSERT_EQ(DL_N, positives(self->f, 0, DL_N));
}

/* Delete half: no false negative; the deleted half tests as absent keys. */
TEST_F(full, deletes_exact)
{
	double ratio, formula;
	__u64 i, fp;

	for (i = 0; i < DL_N; i += 2)
		ASSERT_EQ(0, del_i(self->f, i));
	for (i = 1; i < DL_N; i += 2)
		ASSERT_EQ(1, test_i(self->f, i));
	for (i = 0, fp = 0; i < DL_N; i += 2)
		fp += test_i(self->f, i);
	ratio = rate_vs_formula(self->f, fp, DL_N / 2, &formula);
	TH_LOG("deleted half: %.4f%% positive, d L 2^-r = %.4f%%, ratio %.3f",
	       200.0 * fp / DL_N, 100 * formula, ratio);
	ASSERT_GT(ratio, 0.9);
	ASSERT_LT(ratio, 1.1);
	for (i = 1; i < DL_N; i += 2)
		ASSERT_EQ(0, del_i(self->f, i));
	/* what stays: counters that reached 2^w - 1 (keys sharing a print) */
	ASSERT_EQ(0, cells_below_max(self->f));
}

static void mk_shape(struct kb_shape *s, __u32 d, __u32 c, __u32 r, __u32 w,
		     __u64 b)
{
	*s = (struct kb_shape){ .type = KBLOOM_TYPE_DLEFT, .tables = d,
				.slots = c, .fp_bits = r, .counter_bits = w,
				.buckets = b };
}

TEST(overflow_refused_and_counted)
{
	struct kbloom_dleft_stats st;
	struct kbloom_dleft *f;
	struct kb_shape s;
	__u64 i, before[1], n;
	int ret, refused = 0;

	mk_shape(&s, 2, 1, 8, 2, 2);	/* 4 cells: 56 bits, one word */
	ASSERT_EQ(0, kbloom_dleft_create_shape(&s, NULL, &f));
	for (i = 0; i < 64; i++) {
		memcpy(before, kbloom_dleft_words(f, &n), 8);
		ret = add_i(f, i);
		if (ret == -ENOSPC) {
			refused++;
			ASSERT_EQ(0, memcmp(before, kbloom_dleft_words(f, &n),
					    8));
			ASSERT_EQ(0, test_i(f, i));
		} else {
			ASSERT_EQ(0, ret);
		}
	}
	ASSERT_EQ(0, kbloom_dleft_stats(f, &st));
	ASSERT_GT(refused, 0);
	ASSERT_EQ(refused, st.overflows);
	ASSERT_EQ(64 - refused, st.inserted);
	ASSERT_LE(st.cells_used, 4);
	kbloom_dleft_destroy(f);
}

static __u64 count_of(const struct kbloom_dleft *f, __u64 k)
{
	__u64 c = ~0ULL;

	return kbloom_dleft_count(f, &k, sizeof(k), &c) ? ~0ULL : c;
}

TEST(count_and_saturation)
{
	struct kbloom_dleft_stats st;
	struct kbloom_dleft *f;
	__u64 k = 42;
	int i;

	ASSERT_EQ(0, kbloom_dleft_create(1000, 10000000000ULL, NULL, NULL,
					 &f));
	for (i = 1; i <= 2; i++) {
		ASSERT_EQ(0, kbloom_dleft_add(f, &k, 8));
		ASSERT_EQ(i, count_of(f, k));
	}
	for (i = 1; i >= 0; i--) {
		ASSERT_EQ(0, kbloom_dleft_del(f, &k, 8));
		ASSERT_EQ(i, count_of(f, k));
	}
	ASSERT_EQ(0, kbloom_dleft_test(f, &k, 8));
	ASSERT_EQ(-ENOENT, kbloom_dleft_del(f, &k, 8));
	ASSERT_TRUE(all_zero(f));
	/* w = 2: the counter holds 3 copies; a fourth is a saturation */
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, kbloom_dleft_add(f, &k, 8));
	ASSERT_EQ(1, kbloom_dleft_add(f, &k, 8));
	ASSERT_EQ(3, count_of(f, k));
	/* a saturated counter never decrements */
	ASSERT_EQ(0, kbloom_dleft_del(f, &k, 8));
	ASSERT_EQ(3, count_of(f, k));
	ASSERT_EQ(0, kbloom_dleft_stats(f, &st));
	ASSERT_EQ(1, st.saturations);
	ASSERT_EQ(1, st.cells_used);
	ASSERT_EQ(-EINVAL, kbloom_dleft_add(f, &k, 0));
	ASSERT_EQ(-EINVAL, kbloom_dleft_test(f, &k, KBLOOM_KEY_MAX + 1));
	kbloom_dleft_destroy(f);
}

/* The first key of an empty filter lands in subtable 0, cell 0 of its bucket. */
TEST(cell_layout_of_uapi)
{
	struct kbloom_dleft *f;
	struct kb_shape s;
	__u64 h, rem, n, first, nw, k = 7;
	__u32 q, bits = 17;
	const __u64 *w;

	mk_shape(&s, 3, 5, 13, 4, 1024);	/* 17-bit cells straddle */
	ASSERT_EQ(0, kbloom_dleft_create_shape(&s, NULL, &f));
	ASSERT_EQ(0, kbloom_dleft_add(f, &k, 8));
	kb_shape_derive(&s);
	h = kb_hash(KBLOOM_HASH_FAST, 0, &k, 8);
	q = kb_log2_exact(s.buckets) + s.fp_bits;
	first = kb_dleft_locate(h, 0, q, &s, &rem);
	ASSERT_EQ(kb_dleft_cell(0, kb_dleft_perm(kb_dleft_print(h, 1024, 13),
						 0, 1024, 13) >> 13, 0, 1024,
				5), first);
	w = kbloom_dleft_words(f, &nw);
	n = first;
	ASSERT_EQ(kb_dleft_cell_val(rem, 1, 4),
		  kb_field_get(w[kb_field_word(n, bits)],
			       kb_field_word(n, bits) + 1 < nw ?
			       w[kb_field_word(n, bits) + 1] : 0,
			       kb_field_shift(n, bits), bits));
	kbloom_dleft_destroy(f);
}

/*
 * The lines layout: a key's buckets in subtables 0 and 1 are one half of
 * one line (bucket index and remainder of v_0), those in 2 and 3 the other
 * half of one line (v_1); with 16-bit cells a line is one 64-byte cache
 * line, so a key touches two.
 */
TEST(lines_cell_layout_of_uapi)
{
	struct kb_shape s;
	__u64 first[4], rem[4], h, i, v, line;
	__u32 j, q;

	mk_shape(&s, 4, 8, 12, 4, 1024);
	s.update = KB_DLEFT_LAYOUT_LINES;
	ASSERT_EQ(0, kb_shape_derive(&s));
	q = kb_log2_exact(s.buckets) + s.fp_bits;
	for (i = 0; i < 100000; i++) {
		h = cu_mix(i);
		v = kb_dleft_print(h, 1024, 12);
		for (j = 0; j < 4; j++) {
			first[j] = kb_dleft_locate(h, j, q, &s, &rem[j]);
			ASSERT_EQ(j * 8, first[j] % 32);
			ASSERT_EQ(j, kb_dleft_cell_table(first[j] + 7, &s));
			line = kb_dleft_perm(v, j / 2, 1024, 12);
			ASSERT_EQ(line >> 12, first[j] / 32);
			ASSERT_EQ(line & 4095, rem[j]);
			/* 16-bit cells: the bucket lies in one cache line */
			ASSERT_EQ(first[j] * 2 / 64, (first[j] + 7) * 2 / 64);
		}
		ASSERT_EQ(first[0] / 32, first[1] / 32);
		ASSERT_EQ(first[2] / 32, first[3] / 32);
		ASSERT_EQ(rem[0], rem[1]);
		ASSERT_EQ(rem[2], rem[3]);
	}
	/* d = 3: subtables 0 and 1 share v_0, subtable 2 takes v_1 */
	mk_shape(&s, 3, 5, 13, 4, 1024);
	s.update = KB_DLEFT_LAYOUT_LINES;
	ASSERT_EQ(0, kb_shape_derive(&s));
	h = cu_mix(5);
	v = kb_dleft_print(h, 1024, 13);
	q = 10 + 13;
	first[2] = kb_dleft_locate(h, 2, q, &s, &rem[2]);
	line = kb_dleft_perm(v, 1, 1024, 13);
	ASSERT_EQ(((line >> 13) * 3 + 2) * 5, first[2]);
	ASSERT_EQ(line & 8191, rem[2]);
}

/* Overflow of the two layouts, d = 4, c = 8, r = 12, w = 2, B = 4096. */
#define OV_BUILDS	8
#define OV_B		4096ULL
#define OV_N		(OV_B * 24)	/* 75% of the cells */
#define OV_CYCLES	2

struct ov_count {
	__u64 fill;	/* refused while filling to 75% */
	__u64 churn;	/* refused while replacing every key OV_CYCLES times */
	__u64 inserts;
};

/*
 * One build of @layout: fill to 75% load, then OV_CYCLES times delete the
 * oldest key and insert a new one (the load stays at 75%, as in a
 * connection tracker at its capacity).
 */
static int ov_build(__u32 layout, __u64 seed, struct ov_count *oc)
{
	struct kbloom_dleft_opts o = { .seed = seed };
	struct kb_shape s;
	struct kbloom_dleft *f;
	__u8 *gone = calloc(OV_N * (OV_CYCLES + 1), 1);
	__u64 i;
	int ret;

	if (!gone)
		return -ENOMEM;
	mk_shape(&s, 4, 8, 12, 2, OV_B);
	s.update = layout;
	ret = kbloom_dleft_create_shape(&s, &o, &f);
	if (ret)
		goto out_free;
	for (i = 0; !ret && i < OV_N * (OV_CYCLES + 1); i++) {
		if (i >= OV_N && !gone[i - OV_N])
			ret = del_i(f, i - OV_N);
		if (ret)
			break;
		ret = add_i(f, i);
		oc->inserts++;
		if (ret == -ENOSPC) {
			gone[i] = 1;
			*(i < OV_N ? &oc->fill : &oc->churn) += 1;
		}
		ret = ret == -ENOSPC || ret == 1 ? 0 : ret;
	}
	kbloom_dleft_destroy(f);
out_free:
	free(gone);
	return ret;
}

/*
 * Builds that reach 75% load never overflow in either layout; at 75%
 * under churn the lines layout refuses at most one insert in 10^5 (about
 * 3 in 10^7 measured at B = 2^16: README, d-left).
 */
TEST(overflow_lines_vs_spread)
{
	struct ov_count sp = { 0 }, ln = { 0 };
	__u64 b;

	for (b = 0; b < OV_BUILDS; b++) {
		ASSERT_EQ(0, ov_build(KB_DLEFT_LAYOUT_SPREAD, b, &sp));
		ASSERT_EQ(0, ov_build(KB_DLEFT_LAYOUT_LINES, b, &ln));
	}
	TH_LOG("%d builds at 75%% load: overflows filling spread %llu lines %llu; churn (%llu inserts each) spread %llu lines %llu",
	       OV_BUILDS, (unsigned long long)sp.fill,
	       (unsigned long long)ln.fill, (unsigned long long)ln.inserts,
	       (unsigned long long)sp.churn, (unsigned long long)ln.churn);
	ASSERT_EQ(0, sp.fill);
	ASSERT_EQ(0, ln.fill);
	ASSERT_LE(ln.churn * 100000, ln.inserts);
}

/* Add, count and delete keys of 17-bit cells of shape @s: all back to 0. */
static void straddle_exact(struct __test_metadata *_metadata,
			   const struct kb_shape *s)
{
	struct kbloom_dleft *f;
	__u64 i, k, c;

	ASSERT_EQ(0, kbloom_dleft_create_shape(s, NULL, &f));
	for (i = 0; i < 9000; i++)
		ASSERT_EQ(0, add_i(f, i % 3000));
	for (i = 0; i < 3000; i++) {
		k = key_of(i);
		ASSERT_EQ(0, kbloom_dleft_count(f, &k, 8, &c));
		ASSERT_GE(c, 3);
	}
	for (i = 0; i < 9000; i++)
		ASSERT_EQ(0, del_i(f, i % 3000));
	ASSERT_TRUE(all_zero(f));
	kbloom_dleft_destroy(f);
}

/*
 * Straddling cells and counts, in both layouts: add, count, delete
 * everything to zero.
 */
TEST(straddling_cells_exact)
{
	struct kb_shape s;
	__u32 layout;

	for (layout = 0; layout <= KB_DLEFT_LAYOUT_LINES; layout++) {
		mk_shape(&s, 3, 5, 13, 4, 1024);
		s.update = layout;
		straddle_exact(_metadata, &s);
	}
}

TEST(bad_shapes_refused)
{
	static const __u32 bad[][4] = {	/* d, c, r, w */
		{ 1, 8, 12, 2 }, { 9, 8, 12, 2 }, { 4, 0, 12, 2 },
		{ 4, 17, 12, 2 }, { 4, 8, 3, 2 }, { 4, 8, 33, 2 },
		{ 4, 8, 12, 3 }, { 4, 8, 12, 0 }, { 4, 8, 12, 16 },
	};
	struct kbloom_dleft *f = NULL;
	struct kb_shape s;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		mk_shape(&s, bad[i][0], bad[i][1], bad[i][2], bad[i][3], 1024);
		EXPECT_EQ(-EINVAL, kbloom_dleft_create_shape(&s, NULL, &f));
	}
	mk_shape(&s, 4, 8, 12, 2, 1000);	/* not a power of two */
	EXPECT_EQ(-EINVAL, kbloom_dleft_create_shape(&s, NULL, &f));
	mk_shape(&s, 4, 8, 12, 2, 1);
	EXPECT_EQ(-EINVAL, kbloom_dleft_create_shape(&s, NULL, &f));
	mk_shape(&s, 4, 8, 12, 2, 1024);
	s.type = KBLOOM_TYPE_CUCKOO;
	EXPECT_EQ(-EINVAL, kbloom_dleft_create_shape(&s, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_dleft_create(0, DL_P_PICO, NULL, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_dleft_create(1000, 0, NULL, NULL, &f));
	/* 1e-9 at 24 keys per bucket needs r = 35 */
	EXPECT_EQ(-EINVAL, kbloom_dleft_create(1000, 1000, NULL, NULL, &f));
	EXPECT_EQ(-E2BIG, kbloom_dleft_create(KBLOOM_M_MAX, DL_P_PICO, NULL,
					      NULL, &f));
	EXPECT_EQ(NULL, f);
}

static int save_alloc(const struct kbloom_dleft *f, __u8 **buf, size_t *len)
{
	*len = kbloom_dleft_image_size(f);
	*buf = malloc(*len + 1);
	if (!*buf)
		return -ENOMEM;
	return kbloom_dleft_save(f, *buf, *len, NULL);
}

/* Rewrite the checksum of a v3 image after an edit. */
static void recrc(__u8 *buf, size_t len)
{
	struct kbloom_image_head hd;

	memcpy(&hd, buf, sizeof(hd));
	hd.h.crc = kb_le32(kb_image_crc_head(&hd, buf + sizeof(hd),
					     len - sizeof(hd)));
	memcpy(buf, &hd, sizeof(hd));
}

TEST(image_round_trip)
{
	struct kbloom_dleft_opts o = { .seed = 99, .name = "flows" };
	struct kbloom_dleft_stats a, b;
	struct kbloom_dleft *f, *g;
	const __u64 *wf, *wg;
	__u64 i, n1, n2;
	size_t len;
	__u8 *buf;

	ASSERT_EQ(0, kbloom_dleft_create(20000, 10000000000ULL, NULL, &o, &f));
	for (i = 0; i < 15000; i++)
		ASSERT_EQ(0, add_i(f, i));
	for (i = 0; i < 5000; i++)
		ASSERT_EQ(0, del_i(f, i));
	ASSERT_EQ(0, save_alloc(f, &buf, &len));
	/* at an odd address too */
	memmove(buf + 1, buf, len);
	ASSERT_EQ(0, kbloom_dleft_load(buf + 1, len, &g));
	wf = kbloom_dleft_words(f, &n1);
	wg = kbloom_dleft_words(g, &n2);
	ASSERT_EQ(n1, n2);
	ASSERT_EQ(0, memcmp(wf, wg, n1 * 8));
	kbloom_dleft_stats(f, &a);
	kbloom_dleft_stats(g, &b);
	ASSERT_EQ(0, memcmp(&a, &b, sizeof(a)));
	for (i = 0; i < 20000; i++)
		ASSERT_EQ(test_i(f, i), test_i(g, i));
	kbloom_dleft_destroy(g);
	kbloom_dleft_destroy(f);
	free(buf);
}

TEST(bad_images_refused)
{
	struct kbloom_dleft *f, *g = NULL;
	struct kbloom_image_head hd;
	size_t len;
	__u8 *buf;

	ASSERT_EQ(0, kbloom_dleft_create(1000, 10000000000ULL, NULL, NULL,
					 &f));
	ASSERT_EQ(0, add_i(f, 1));
	ASSERT_EQ(0, save_alloc(f, &buf, &len));
	EXPECT_EQ(-EMSGSIZE, kbloom_dleft_load(buf, len - 1, &g));
	EXPECT_EQ(-EMSGSIZE, kbloom_dleft_load(buf, 100, &g));
	buf[len - 1] ^= 1;
	EXPECT_EQ(-EBADMSG, kbloom_dleft_load(buf, len, &g));
	buf[len - 1] ^= 1;
	memcpy(&hd, buf, sizeof(hd));
	hd.g.tables = 1;		/* bad geometry, valid checksum */
	memcpy(buf, &hd, sizeof(hd));
	recrc(buf, len);
	EXPECT_EQ(-EBADMSG, kbloom_dleft_load(buf, len, &g));
	hd.g.tables = 4;
	hd.h.type = KBLOOM_TYPE_COUNT_MIN;	/* another type */
	memcpy(buf, &hd, sizeof(hd));
	recrc(buf, len);
	EXPECT_EQ(-EOPNOTSUPP, kbloom_dleft_load(buf, len, &g));
	hd.h.type = KBLOOM_TYPE_DLEFT;
	hd.h.version = kb_le16(2);
	memcpy(buf, &hd, sizeof(hd));
	EXPECT_EQ(-EBADMSG, kbloom_dleft_load(buf, len, &g));
	hd.h.version = kb_le16(KBLOOM_IMAGE_VERSION_GEOM);
	hd.g.overflows = kb_le64(3);
	hd.g.kicks = kb_le64(1);		/* d-left has no kicks */
	memcpy(buf, &hd, sizeof(hd));
	recrc(buf, len);
	EXPECT_EQ(-EBADMSG, kbloom_dleft_load(buf, len, &g));
	EXPECT_EQ(NULL, g);
	kbloom_dleft_destroy(f);
	free(buf);
}

/*
 * A lines image keeps its layout; an unknown layout is refused, as a
 * reader that knows only the spread layout refuses the lines one (it
 * takes update = 0 only).
 */
TEST(lines_image_and_unknown_layout)
{
	struct kb_shape s = { .update = KB_DLEFT_LAYOUT_LINES };
	struct kbloom_dleft_stats st;
	struct kbloom_dleft *f, *g = NULL;
	struct kbloom_image_head hd;
	size_t len;
	__u8 *buf;
	__u64 i;

	ASSERT_EQ(0, kbloom_dleft_create(20000, 10000000000ULL, &s, NULL, &f));
	for (i = 0; i < 15000; i++)
		ASSERT_EQ(0, add_i(f, i));
	ASSERT_EQ(0, save_alloc(f, &buf, &len));
	ASSERT_EQ(0, kbloom_dleft_load(buf, len, &g));
	ASSERT_EQ(0, kbloom_dleft_stats(g, &st));
	ASSERT_EQ(KB_DLEFT_LAYOUT_LINES, st.shape.update);
	for (i = 0; i < 20000; i++)
		ASSERT_EQ(test_i(f, i), test_i(g, i));
	kbloom_dleft_destroy(g);
	g = NULL;
	memcpy(&hd, buf, sizeof(hd));
	hd.g.update = KB_DLEFT_LAYOUT_LINES + 1;
	memcpy(buf, &hd, sizeof(hd));
	recrc(buf, len);
	EXPECT_EQ(-EBADMSG, kbloom_dleft_load(buf, len, &g));
	EXPECT_EQ(NULL, g);
	s = (struct kb_shape){ .update = KB_DLEFT_LAYOUT_LINES + 1 };
	EXPECT_EQ(-EINVAL, kb_dleft_plan(1000, DL_P_PICO, &s));
	EXPECT_EQ(-EINVAL, kbloom_dleft_create(1000, DL_P_PICO, &s, NULL, &g));
	mk_shape(&s, 4, 8, 12, 2, 1024);
	s.update = KB_DLEFT_LAYOUT_LINES + 1;
	EXPECT_EQ(-EINVAL, kbloom_dleft_create_shape(&s, NULL, &g));
	EXPECT_EQ(NULL, g);
	kbloom_dleft_destroy(f);
	free(buf);
}

/* Readers under a writer that moves the straddling counts of their keys. */
#define RW_KEYS		2000
#define RW_ROUNDS	300

struct rw_ctx {
	struct kbloom_dleft *f;
	int stop;
	__u64 misses;
};

static void *rw_reader(void *arg)
{
	struct rw_ctx *c = arg;
	__u64 i, misses = 0;

	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE))
		for (i = 0; i < RW_KEYS; i++)
			misses += test_i(c->f, i) != 1;
	__atomic_store_n(&c->misses, misses, __ATOMIC_RELEASE);
	return NULL;
}

TEST(readers_never_miss)
{
	struct rw_ctx c = { 0 };
	pthread_t rd[2];
	struct kb_shape s;
	__u64 i, r;

	mk_shape(&s, 3, 5, 13, 4, 256);	/* counts straddle words */
	ASSERT_EQ(0, kbloom_dleft_create_shape(&s, NULL, &c.f));
	for (i = 0; i < RW_KEYS; i++)
		ASSERT_EQ(0, add_i(c.f, i));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&rd[i], NULL, rw_reader, &c));
	for (r = 0; r < RW_ROUNDS; r++) {
		for (i = 0; i < RW_KEYS; i++)
			add_i(c.f, RW_KEYS + (i + r) % 500);
		for (i = 0; i < RW_KEYS; i++)
			ASSERT_EQ(0, r & 1 ? del_i(c.f, i) : add_i(c.f, i));
		for (i = 0; i < RW_KEYS; i++)
			del_i(c.f, RW_KEYS + (i + r) % 500);
	}
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 2; i++)
		pthread_join(rd[i], NULL);
	ASSERT_EQ(0, c.misses);
	kbloom_dleft_destroy(c.f);
}

TEST_HARNESS_MAIN
