// SPDX-License-Identifier: GPL-2.0
/*
 * Multi-Class Bloom filters: the per-class k optimiser against brute force
 * on small cases and against the best single k, its shape (rarely present
 * groups get more probes), the class-aware per-port filter (positions of
 * uapi/kbloom_layout.h, no false negatives, false-positive rate per class
 * as its k predicts), the class encoding in group addresses, bad input.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "libkbloom_net.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"
#include "core_util.h"

static double unif(struct cu_rng *r)
{
	return (cu_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- optimiser ----------------------------------------------------- */

TEST(objective_by_hand)
{
	struct kb_mcbf_class_spec c[2] = {
		{ .groups = 100, .p = 0.5, .w = 1.0 },
		{ .groups = 50, .p = 0.1, .w = 3.0 },
	};
	__u32 k[2] = { 3, 6 };
	double rho, K = 100 * 0.5 * 3 + 50 * 0.1 * 6;
	double want_rho = 1.0 - pow(1.0 - 1.0 / 1000, K);
	double want = 100 * 0.5 * 1.0 * pow(want_rho, 3) +
		      50 * 0.9 * 3.0 * pow(want_rho, 6);

	EXPECT_GT(1e-12, fabs(kb_mcbf_objective(1000, c, 2, k, &rho) - want));
	EXPECT_GT(1e-12, fabs(rho - want_rho));
}

/* Every k vector of [k_min, k_max]^n: the true optimum. */
static double brute(__u64 m, const struct kb_mcbf_class_spec *c, __u32 n,
		    __u32 k_min, __u32 k_max, __u32 *best_k)
{
	__u32 k[KB_MCBF_CLASSES], g;
	double best = INFINITY, v;

	for (g = 0; g < n; g++)
		k[g] = k_min;
	for (;;) {
		v = kb_mcbf_objective(m, c, n, k, NULL);
		if (v < best) {
			best = v;
			memcpy(best_k, k, n * sizeof(k[0]));
		}
		for (g = 0; g < n && k[g] == k_max; g++)
			k[g] = k_min;
		if (g == n)
			break;
		k[g]++;
	}
	return best;
}

static void random_classes(struct cu_rng *r, struct kb_mcbf_class_spec *c,
			   __u32 n)
{
	__u32 g;

	for (g = 0; g < n; g++) {
		c[g].groups = 1 + (cu_next(r) % 3000);
		/* presence log-uniform in [1e-4, 1], sometimes 0 or 1 */
		c[g].p = pow(10.0, -4.0 * unif(r));
		if (cu_next(r) % 16 == 0)
			c[g].p = (cu_next(r) & 1) ? 1.0 : 0.0;
		c[g].w = pow(10.0, 2.0 * unif(r) - 1.0);
	}
}

TEST(optimizer_equals_brute_force)
{
	struct kb_mcbf_class_spec c[4];
	struct cu_rng r = { 0xC1A55 };
	struct kb_mcbf_plan plan;
	__u32 i, n, kmax, bk[4], exact = 0;
	double b, worst = 0.0;
	__u64 m;

	for (i = 0; i < 400; i++) {
		n = 1 + i % 4;
		kmax = n == 4 ? 7 : 10;
		m = 256 + cu_next(&r) % 65536;
		random_classes(&r, c, n);
		ASSERT_EQ(0, kb_mcbf_optimize(m, c, n, 1, kmax, &plan));
		b = brute(m, c, n, 1, kmax, bk);
		ASSERT_EQ(n, plan.nclass);
		/* equal to the optimum (ties: any of the optimal vectors) */
		ASSERT_GE(b * (1 + 1e-9) + 1e-300, plan.leak);
		if (b > 0 && (plan.leak - b) / b > worst)
			worst = (plan.leak - b) / b;
		exact += !memcmp(bk, plan.k, n * sizeof(bk[0]));
		/* never worse than one k for everybody */
		ASSERT_LE(plan.leak, plan.leak_uniform * (1 + 1e-12));
	}
	TH_LOG("400 random cases of 1..4 classes: optimiser = brute force in "
	       "all (same k vector in %u; worst excess %.2e)", exact, worst);
}

TEST(optimizer_k_range)
{
	struct kb_mcbf_class_spec c[3];
	struct cu_rng r = { 77 };
	struct kb_mcbf_plan plan;
	__u32 i, g, bk[3];
	double b;

	/* a narrow range away from 1 */
	for (i = 0; i < 100; i++) {
		random_classes(&r, c, 3);
		ASSERT_EQ(0, kb_mcbf_optimize(8192, c, 3, 4, 9, &plan));
		b = brute(8192, c, 3, 4, 9, bk);
		ASSERT_GE(b * (1 + 1e-9) + 1e-300, plan.leak);
		for (g = 0; g < 3; g++) {
			ASSERT_LE(4, plan.k[g]);
			ASSERT_GE(9, plan.k[g]);
		}
	}
	/* a single allowed k */
	ASSERT_EQ(0, kb_mcbf_optimize(8192, c, 3, 5, 5, &plan));
	for (g = 0; g < 3; g++)
		EXPECT_EQ(5, plan.k[g]);
	EXPECT_EQ(5, plan.k_uniform);
}

/* Rarely present groups get more probes; the closed form's direction. */
TEST(optimizer_shape)
{
	struct kb_mcbf_class_spec c[6];
	struct kb_mcbf_plan plan;
	__u32 g;

	for (g = 0; g < 6; g++) {
		c[g].groups = 2000;
		c[g].p = pow(10.0, -(double)g * 0.6);	/* 1 .. 1e-3 */
		c[g].w = 1.0;
	}
	c[0].p = 0.9;
	/* about 2500 present groups in 16384 bits: 6.6 bits each */
	ASSERT_EQ(0, kb_mcbf_optimize(16384, c, 6, 1, 32, &plan));
	for (g = 1; g < 6; g++)
		EXPECT_LE(plan.k[g - 1], plan.k[g]);
	EXPECT_LT(plan.k[0], plan.k[5]);
	EXPECT_LT(plan.leak, plan.leak_uniform);
	TH_LOG("p = 0.9 .. 1e-3: k = %u %u %u %u %u %u (uniform k %u), "
	       "leakage %.4g vs %.4g, fill %.3f", plan.k[0], plan.k[1],
	       plan.k[2], plan.k[3], plan.k[4], plan.k[5], plan.k_uniform,
	       plan.leak, plan.leak_uniform, plan.rho);
	/* never leaking: the fewest probes; never present: the most */
	c[0].p = 1.0;
	c[5].p = 0.0;
	ASSERT_EQ(0, kb_mcbf_optimize(16384, c, 6, 2, 20, &plan));
	EXPECT_EQ(2, plan.k[0]);
	EXPECT_EQ(20, plan.k[5]);
}

TEST(optimizer_bad_input)
{
	struct kb_mcbf_class_spec c[17];
	struct kb_mcbf_plan plan, keep;
	__u32 g;

	for (g = 0; g < 17; g++)
		c[g] = (struct kb_mcbf_class_spec){ 10, 0.5, 1.0 };
	memset(&keep, 0x5A, sizeof(keep));
	plan = keep;
	EXPECT_EQ(-ERANGE, kb_mcbf_optimize(0, c, 2, 1, 8, &plan));
	EXPECT_EQ(-EINVAL, kb_mcbf_optimize(1024, c, 0, 1, 8, &plan));
	EXPECT_EQ(-EINVAL, kb_mcbf_optimize(1024, c, 17, 1, 8, &plan));
	EXPECT_EQ(-EINVAL, kb_mcbf_optimize(1024, NULL, 2, 1, 8, &plan));
	EXPECT_EQ(-EINVAL, kb_mcbf_optimize(1024, c, 2, 1, 8, NULL));
	EXPECT_EQ(-ERANGE, kb_mcbf_optimize(1024, c, 2, 0, 8, &plan));
	EXPECT_EQ(-ERANGE, kb_mcbf_optimize(1024, c, 2, 9, 8, &plan));
	EXPECT_EQ(-ERANGE, kb_mcbf_optimize(1024, c, 2, 1, 33, &plan));
	c[1].p = 1.5;
	EXPECT_EQ(-EINVAL, kb_mcbf_optimize(1024, c, 2, 1, 8, &plan));
	c[1].p = NAN;
	EXPECT_EQ(-EINVAL, kb_mcbf_optimize(1024, c, 2, 1, 8, &plan));
	c[1].p = 0.5;
	c[1].w = -1;
	EXPECT_EQ(-EINVAL, kb_mcbf_optimize(1024, c, 2, 1, 8, &plan));
	c[1].w = INFINITY;
	EXPECT_EQ(-EINVAL, kb_mcbf_optimize(1024, c, 2, 1, 8, &plan));
	c[1].w = 1;
	c[1].groups = -3;
	EXPECT_EQ(-EINVAL, kb_mcbf_optimize(1024, c, 2, 1, 8, &plan));
	EXPECT_EQ(0, memcmp(&plan, &keep, sizeof(plan)));
	c[1].groups = 3;
	EXPECT_EQ(0, kb_mcbf_optimize(1024, c, 16, 1, 32, &plan));
}

/* ---- the per-port filter ------------------------------------------- */

/* IPv4 group i of class c: 239.(c << 4 | i >> 16 & 15).(i >> 8).i */
static void v4_group(__u32 c, __u32 i, __u8 a[4])
{
	a[0] = 239;
	a[1] = (__u8)(c << 4 | ((i >> 16) & 15));
	a[2] = (__u8)(i >> 8);
	a[3] = (__u8)i;
}

TEST(class_encoding)
{
	__u8 v4[4], v6[16] = { 0xff, 0x3e };
	struct kb_mcbf_classes t = { { 0 } };
	__u32 c;

	for (c = 0; c < KB_MCBF_CLASSES; c++) {
		v4_group(c, 0xABCDE, v4);
		EXPECT_EQ(c, kb_mcbf_class_v4(v4));
		v6[12] = (__u8)(c << 4 | 0x9);
		EXPECT_EQ(c, kb_mcbf_class_v6(v6));
		t.k[c] = (__u8)(c + 1);
		EXPECT_EQ(c + 1, kb_mcbf_class_k(&t, c));
	}
	/* 239.37.x.y is class 2 */
	v4[1] = 37;
	EXPECT_EQ(2, kb_mcbf_class_v4(v4));
}

FIXTURE(port) {
	struct kb_mcbf *f;
};

FIXTURE_VARIANT(port) {
	__u32 type;
	__u64 m;
	__u32 hash_id;
};

FIXTURE_VARIANT_ADD(port, blocked) {
	.type = KBLOOM_TYPE_BLOCKED,
	.m = 1 << 16,
	.hash_id = KBLOOM_HASH_FAST,
};

FIXTURE_VARIANT_ADD(port, standard) {
	.type = KBLOOM_TYPE_STANDARD,
	.m = 1 << 16,
	.hash_id = KBLOOM_HASH_SIPHASH13,
};

/* classes 1, 2, 3 with 2, 4 and 8 probes; the others unused */
static const struct kb_mcbf_classes port_classes = {
	{ 0, 2, 4, 8 },
};

FIXTURE_SETUP(port)
{
	ASSERT_EQ(0, kb_mcbf_new(variant->type, variant->m, variant->hash_id,
				 42, &port_classes, &self->f));
}

FIXTURE_TEARDOWN(port)
{
	kb_mcbf_free(self->f);
}

/*
 * The false-positive rate of a key with k probes given the filter as it
 * is: standard, fill^k; blocked, the mean over blocks of the block's
 * fill^k (a key picks a block, then k in-block bits).
 */
static double predict_fp(const struct kb_mcbf *f, __u32 type, __u32 k)
{
	__u64 nw, b, i;
	const __u64 *w = kb_mcbf_words(f, &nw);
	double sum = 0.0;
	__u32 ones;

	if (type == KBLOOM_TYPE_STANDARD)
		return pow((double)kb_mcbf_ones(f) / (nw * 64), k);
	for (b = 0; b < nw / 8; b++) {
		for (ones = 0, i = 0; i < 8; i++)
			ones += kb_popcount64(w[8 * b + i]);
		sum += pow(ones / 512.0, k);
	}
	return sum / (nw / 8);
}

/*
 * 4000 groups of each class in 65536 bits (56000 probes: fill about 57%):
 * every one is found, and the false-positive rate of 200000 absent groups
 * per class is the fill's prediction within 10% (the fewest expected
 * false positives, class 3 at k = 8, are about 2000: 2.2% standard
 * error), falling with k.
 */
TEST_F(port, class_aware)
{
	__u32 c, i, fp[4] = { 0 };
	double pred, meas, last = 1.0;
	__u8 a[4];

	for (c = 1; c <= 3; c++) {
		for (i = 0; i < 4000; i++) {
			v4_group(c, i, a);
			ASSERT_EQ(0, kb_mcbf_add_v4(self->f, a));
		}
	}
	for (c = 1; c <= 3; c++) {
		for (i = 0; i < 4000; i++) {
			v4_group(c, i, a);
			ASSERT_EQ(1, kb_mcbf_test_v4(self->f, a));
		}
	}
	for (c = 1; c <= 3; c++) {
		for (i = 4000; i < 204000; i++) {
			v4_group(c, i, a);
			fp[c] += kb_mcbf_test_v4(self->f, a);
		}
		meas = fp[c] / 200000.0;
		pred = predict_fp(self->f, variant->type, port_classes.k[c]);
		TH_LOG("class %u (k=%u): false positives %.3e, predicted %.3e",
		       c, port_classes.k[c], meas, pred);
		EXPECT_LT(fabs(meas - pred), 0.10 * pred);
		EXPECT_LT(meas, last);
		last = meas;
	}
	/* an unused class: never a member, refused on add */
	v4_group(0, 1, a);
	EXPECT_EQ(0, kb_mcbf_test_v4(self->f, a));
	EXPECT_EQ(-EINVAL, kb_mcbf_add_v4(self->f, a));
	v4_group(9, 1, a);
	EXPECT_EQ(0, kb_mcbf_test_v4(self->f, a));
}

/*
 * kb_mcbf_test_hashes() of 1000 keys of classes 0..4 in one batch against
 * kb_mcbf_test_v4() on @f; a class of 16 is refused and leaves the answers
 * as they were.  Return: the number of different answers, or -1.
 */
static int by_hashes(const struct kb_mcbf *f, const struct kb_mcbf *t,
		     __u32 hash_id)
{
	__u64 h[1000];
	__u8 cls[1000], hits[125], a[4];
	__u32 i;
	int bad = 0;

	for (i = 0; i < 1000; i++) {
		v4_group(i % 5, i, a);
		h[i] = kb_hash(hash_id, 42, a, 4);
		cls[i] = (__u8)(i % 5);
	}
	if (kb_mcbf_test_hashes(t, h, cls, 1000, hits))
		return -1;
	for (i = 0; i < 1000; i++) {
		v4_group(i % 5, i, a);
		bad += ((hits[i >> 3] >> (i & 7)) & 1) != kb_mcbf_test_v4(f, a);
	}
	cls[999] = KB_MCBF_CLASSES;
	memset(hits, 0xA5, sizeof(hits));
	if (kb_mcbf_test_hashes(t, h, cls, 1000, hits) != -EINVAL ||
	    hits[0] != 0xA5 || hits[124] != 0xA5)
		return -1;
	return bad;
}

/*
 * The entry points by hash (a key hashed once for many filters) are those
 * by key: a twin filter filled through kb_mcbf_add_hash() holds the same
 * words, and kb_mcbf_test_hash() answers as kb_mcbf_test() on present and
 * absent keys, an unused class included.
 */
TEST_F(port, by_hash)
{
	struct kb_mcbf *t;
	const __u64 *wa, *wb;
	__u64 na, nb, h;
	__u32 c, i, hits = 0;
	__u8 a[4];

	ASSERT_EQ(0, kb_mcbf_new(variant->type, variant->m, variant->hash_id,
				 42, &port_classes, &t));
	for (i = 0; i < 3000; i++) {
		v4_group(1 + i % 3, i, a);
		ASSERT_EQ(0, kb_mcbf_add_v4(self->f, a));
		h = kb_hash(variant->hash_id, 42, a, 4);
		ASSERT_EQ(0, kb_mcbf_add_hash(t, h, kb_mcbf_class_v4(a)));
	}
	wa = kb_mcbf_words(self->f, &na);
	wb = kb_mcbf_words(t, &nb);
	ASSERT_EQ(na, nb);
	EXPECT_EQ(0, memcmp(wa, wb, na * 8));
	for (c = 0; c <= 3; c++) {
		for (i = 0; i < 20000; i++) {
			v4_group(c, i, a);
			h = kb_hash(variant->hash_id, 42, a, 4);
			ASSERT_EQ(kb_mcbf_test_v4(self->f, a),
				  kb_mcbf_test_hash(t, h, c));
			hits += kb_mcbf_test_hash(t, h, c) == 1;
		}
	}
	EXPECT_GE(hits, 3000);
	EXPECT_EQ(0, by_hashes(self->f, t, variant->hash_id));
	EXPECT_EQ(-EINVAL, kb_mcbf_add_hash(t, h, 0));
	EXPECT_EQ(-EINVAL, kb_mcbf_add_hash(t, h, KB_MCBF_CLASSES));
	EXPECT_EQ(-EINVAL, kb_mcbf_test_hash(t, h, KB_MCBF_CLASSES));
	EXPECT_EQ(-EINVAL, kb_mcbf_add_hash(NULL, h, 1));
	EXPECT_EQ(-EINVAL, kb_mcbf_test_hash(NULL, h, 1));
	EXPECT_EQ(0, memcmp(wa, wb, na * 8));
	kb_mcbf_free(t);
}

/* A key of class c sets exactly the positions of uapi with k = k_c. */
TEST_F(port, uapi_positions)
{
	__u64 h, nw, mask[KBLOOM_BLOCK_WORDS], b, i;
	const __u64 *w = kb_mcbf_words(self->f, &nw);
	struct kb_probe p;
	__u32 c, k, j;
	__u8 a[16];

	for (c = 1; c <= 3; c++) {
		memset(a, 0, sizeof(a));
		a[0] = 0xff;
		a[1] = 0x3e;
		a[12] = (__u8)(c << 4);
		a[15] = (__u8)c;
		kb_mcbf_clear(self->f);
		ASSERT_EQ(0, kb_mcbf_add_v6(self->f, a));
		ASSERT_EQ(1, kb_mcbf_test_v6(self->f, a));
		k = port_classes.k[c];
		h = kb_hash(variant->hash_id, 42, a, 16);
		if (variant->type == KBLOOM_TYPE_BLOCKED) {
			b = kb_block_index(h, nw / 8);
			kb_block_mask(h, k, mask);
			for (i = 0; i < nw; i++)
				ASSERT_EQ(i / 8 == b ? mask[i % 8] : 0, w[i]);
		} else {
			__u64 *want = calloc(nw, 8);

			ASSERT_NE(NULL, want);
			kb_probe_init(&p, h);
			for (i = 0; i < k; i++) {
				j = kb_probe_next(&p, variant->m);
				want[j >> 6] |= 1ULL << (j & 63);
			}
			ASSERT_EQ(0, memcmp(want, w, nw * 8));
			free(want);
		}
		/* at most k bits for one key */
		EXPECT_LE(kb_mcbf_ones(self->f), k);
	}
}

TEST(filter_bad_input)
{
	struct kb_mcbf_classes none = { { 0 } }, big = { { 1, 33 } };
	struct kb_mcbf *f = NULL;
	__u8 key[65] = { 0 };

	EXPECT_EQ(-EINVAL, kb_mcbf_new(KBLOOM_TYPE_BLOCKED, 4096, 1, 0, &none,
				       &f));
	EXPECT_EQ(-ERANGE, kb_mcbf_new(KBLOOM_TYPE_BLOCKED, 4096, 1, 0, &big,
				       &f));
	EXPECT_EQ(-EINVAL, kb_mcbf_new(KBLOOM_TYPE_COUNTING, 4096, 1, 0,
				       &port_classes, &f));
	EXPECT_EQ(-EINVAL, kb_mcbf_new(KBLOOM_TYPE_BLOCKED, 4096, 9, 0,
				       &port_classes, &f));
	EXPECT_EQ(-ERANGE, kb_mcbf_new(KBLOOM_TYPE_BLOCKED, 0, 1, 0,
				       &port_classes, &f));
	EXPECT_EQ(-ERANGE, kb_mcbf_new(KBLOOM_TYPE_BLOCKED, 1000, 1, 0,
				       &port_classes, &f));
	EXPECT_EQ(-ERANGE, kb_mcbf_new(KBLOOM_TYPE_STANDARD, 100, 1, 0,
				       &port_classes, &f));
	EXPECT_EQ(NULL, f);
	ASSERT_EQ(0, kb_mcbf_new(KBLOOM_TYPE_STANDARD, 128, 1, 0,
				 &port_classes, &f));
	EXPECT_EQ(-EINVAL, kb_mcbf_add(f, key, 0, 1));
	EXPECT_EQ(-EINVAL, kb_mcbf_add(f, key, 65, 1));
	EXPECT_EQ(-EINVAL, kb_mcbf_add(f, NULL, 4, 1));
	EXPECT_EQ(-EINVAL, kb_mcbf_add(f, key, 4, 16));
	EXPECT_EQ(-EINVAL, kb_mcbf_test(f, key, 4, 16));
	EXPECT_EQ(-EINVAL, kb_mcbf_test(f, key, 0, 1));
	EXPECT_EQ(0, kb_mcbf_ones(f));
	EXPECT_EQ(0, kb_mcbf_add(f, key, 4, 3));
	EXPECT_EQ(1, kb_mcbf_test(f, key, 4, 3));
	EXPECT_EQ(4, kb_mcbf_class_table(f)->k[2]);
	kb_mcbf_free(f);
	kb_mcbf_free(NULL);
}

TEST_HARNESS_MAIN
