// SPDX-License-Identifier: GPL-2.0
/*
 * libkbloom filters: no false negatives for every type and key shape,
 * the API's argument checks and errno values, batches, clear, union and
 * statistics (the cardinality estimate at half fill).
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"
#include "uapi/kbloom_plan.h"
#include "core_util.h"

#define P_1PCT	10000000000ULL		/* 1% in 1e-12 units */

/* ---- no false negatives ------------------------------------------------ */

FIXTURE(nofn) {
	struct kbloom_filter *f;
};

FIXTURE_VARIANT(nofn) {
	__u32 type;
	__u32 counter_bits;
	__u32 hash_id;
};

FIXTURE_VARIANT_ADD(nofn, blocked) {
	.type = KBLOOM_TYPE_BLOCKED,
};

FIXTURE_VARIANT_ADD(nofn, blocked_sip) {
	.type = KBLOOM_TYPE_BLOCKED,
	.hash_id = KBLOOM_HASH_SIPHASH13,
};

FIXTURE_VARIANT_ADD(nofn, standard) {
	.type = KBLOOM_TYPE_STANDARD,
};

FIXTURE_VARIANT_ADD(nofn, counting4) {
	.type = KBLOOM_TYPE_COUNTING,
	.counter_bits = 4,
};

FIXTURE_VARIANT_ADD(nofn, counting8) {
	.type = KBLOOM_TYPE_COUNTING,
	.counter_bits = 8,
	.hash_id = KBLOOM_HASH_SIPHASH13,
};

FIXTURE_SETUP(nofn)
{
	struct kbloom_opts o = {
		.hash_id = variant->hash_id,
		.counter_bits = variant->counter_bits,
		.seed = 0xC0FFEE,
	};

	ASSERT_EQ(0, kbloom_create(variant->type, 1000000, P_1PCT, &o,
				   &self->f));
}

FIXTURE_TEARDOWN(nofn)
{
	kbloom_destroy(self->f);
}

#define NOFN_N		1000000U
#define NOFN_STR_N	200000U

/* Check all n keys singly and as one batch; return the batch's hits. */
static long nofn_batch(struct kbloom_filter *f, const void *keys, size_t len,
		       __u32 key_len, __u32 n)
{
	return kbloom_test_batch(f, keys, len, key_len, n, NULL);
}

TEST_F_TIMEOUT(nofn, random_u64, 60)
{
	__u64 *keys = malloc(NOFN_N * 8);
	struct kbloom_stats st;
	__u32 i;

	ASSERT_NE(NULL, keys);
	for (i = 0; i < NOFN_N; i++)
		keys[i] = cu_mix(i + 0xABCDEF0000ULL);
	for (i = 0; i < NOFN_N / 2; i++)
		ASSERT_LE(0, kbloom_add(self->f, &keys[i], 8));
	ASSERT_EQ(0, kbloom_add_batch(self->f, keys + NOFN_N / 2,
				      NOFN_N / 2 * 8, 8, NOFN_N / 2));
	for (i = 0; i < NOFN_N; i++)
		ASSERT_EQ(1, kbloom_test(self->f, &keys[i], 8))
			TH_LOG("false negative: key %u", i);
	ASSERT_EQ((long)NOFN_N, nofn_batch(self->f, keys, NOFN_N * 8, 8,
					   NOFN_N));
	ASSERT_EQ(0, kbloom_stats(self->f, &st));
	ASSERT_EQ(NOFN_N, st.inserted);
	free(keys);
}

TEST_F_TIMEOUT(nofn, sequential_u32, 60)
{
	__u32 *keys = malloc(NOFN_N * 4);
	__u32 i;

	ASSERT_NE(NULL, keys);
	for (i = 0; i < NOFN_N; i++) {
		keys[i] = i;
		ASSERT_LE(0, kbloom_add(self->f, &keys[i], 4));
	}
	for (i = 0; i < NOFN_N; i++)
		ASSERT_EQ(1, kbloom_test(self->f, &i, 4))
			TH_LOG("false negative: %u", i);
	ASSERT_EQ((long)NOFN_N, nofn_batch(self->f, keys, NOFN_N * 4, 4,
					   NOFN_N));
	free(keys);
}

TEST_F_TIMEOUT(nofn, variable_strings, 60)
{
	__u8 *packed = malloc(NOFN_STR_N * 65);
	size_t off = 0;
	char key[64];
	__u32 i, len;

	ASSERT_NE(NULL, packed);
	/* half added singly, half as a length-prefixed batch */
	for (i = 0; i < NOFN_STR_N; i++) {
		len = cu_strkey(i, key);
		if (i < NOFN_STR_N / 2) {
			ASSERT_LE(0, kbloom_add(self->f, key, len));
			continue;
		}
		packed[off++] = (__u8)len;
		memcpy(packed + off, key, len);
		off += len;
	}
	ASSERT_EQ(0, kbloom_add_batch(self->f, packed, off, 0,
				      NOFN_STR_N / 2));
	off = 0;
	for (i = 0; i < NOFN_STR_N; i++) {
		len = cu_strkey(i, key);
		ASSERT_EQ(1, kbloom_test(self->f, key, len))
			TH_LOG("false negative: string %u", i);
		packed[off++] = (__u8)len;
		memcpy(packed + off, key, len);
		off += len;
	}
	ASSERT_EQ((long)NOFN_STR_N, nofn_batch(self->f, packed, off, 0,
					       NOFN_STR_N));
	free(packed);
}

/* ---- creation and argument checks -------------------------------------- */

TEST(create_errors)
{
	struct kbloom_filter *f = (struct kbloom_filter *)0x1, *sentinel = f;
	struct kbloom_opts o = { 0 };

	ASSERT_EQ(-EINVAL, kbloom_create(0, 1000, P_1PCT, NULL, &f));
	ASSERT_EQ(-EINVAL, kbloom_create(KBLOOM_TYPE_MAX + 1, 1000, P_1PCT,
					 NULL, &f));
	ASSERT_EQ(-EINVAL, kbloom_create(KBLOOM_TYPE_BLOCKED, 1000, P_1PCT,
					 NULL, NULL));
	o.hash_id = KBLOOM_HASH_MAX + 1;
	ASSERT_EQ(-EINVAL, kbloom_create(KBLOOM_TYPE_BLOCKED, 1000, P_1PCT,
					 &o, &f));
	o.hash_id = 0;
	o.counter_bits = 4;
	ASSERT_EQ(-EINVAL, kbloom_create(KBLOOM_TYPE_BLOCKED, 1000, P_1PCT,
					 &o, &f));
	o.counter_bits = 5;
	ASSERT_EQ(-EINVAL, kbloom_create(KBLOOM_TYPE_COUNTING, 1000, P_1PCT,
					 &o, &f));
	o.counter_bits = 0;
	o.flags = 1U << 7;
	ASSERT_EQ(-EINVAL, kbloom_create(KBLOOM_TYPE_BLOCKED, 1000, P_1PCT,
					 &o, &f));
	o.flags = 0;
	o.reserved = 1;
	ASSERT_EQ(-EINVAL, kbloom_create(KBLOOM_TYPE_BLOCKED, 1000, P_1PCT,
					 &o, &f));
	o.reserved = 0;
	o.name = "bad name";
	ASSERT_EQ(-EINVAL, kbloom_create(KBLOOM_TYPE_BLOCKED, 1000, P_1PCT,
					 &o, &f));
	o.name = "0123456789012345678901234567890123";	/* > 31 */
	ASSERT_EQ(-EINVAL, kbloom_create(KBLOOM_TYPE_BLOCKED, 1000, P_1PCT,
					 &o, &f));
	o.name = NULL;
	/* the planner refuses (n, p) out of range */
	EXPECT_GT(0, kbloom_create(KBLOOM_TYPE_BLOCKED, 0, P_1PCT, &o, &f));
	EXPECT_GT(0, kbloom_create(KBLOOM_TYPE_BLOCKED, 1000, 0, &o, &f));
	EXPECT_GT(0, kbloom_create(KBLOOM_TYPE_BLOCKED, 1000,
				   KBLOOM_P_UNIT, &o, &f));
	/* and (m, k) out of range */
	EXPECT_GT(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 1000, 7, &o, &f));
	EXPECT_GT(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 512 * 3 + 64, 7,
				      &o, &f));
	EXPECT_GT(0, kbloom_create_mk(KBLOOM_TYPE_STANDARD, 4096, 0, &o, &f));
	EXPECT_GT(0, kbloom_create_mk(KBLOOM_TYPE_STANDARD, 4096,
				      KBLOOM_K_MAX + 1, &o, &f));
	EXPECT_GT(0, kbloom_create_mk(KBLOOM_TYPE_STANDARD, 32, 3, &o, &f));
	EXPECT_GT(0, kbloom_create_mk(KBLOOM_TYPE_STANDARD,
				      KBLOOM_M_MAX + 64, 3, &o, &f));
	/* nothing was written to the output on any failure */
	ASSERT_EQ(sentinel, f);
}

TEST(create_planned)
{
	struct kbloom_opts o = { .counter_bits = 0, .name = "planned.1" };
	struct kbloom_filter *f;
	struct kbloom_stats st;
	struct kb_plan plan;
	__u32 type;

	for (type = KBLOOM_TYPE_STANDARD; type <= KBLOOM_TYPE_MAX; type++) {
		o.counter_bits = type == KBLOOM_TYPE_COUNTING ? 8 : 0;
		ASSERT_EQ(0, kb_plan(type, 123457, P_1PCT / 10,
				     o.counter_bits, &plan));
		ASSERT_EQ(0, kbloom_create(type, 123457, P_1PCT / 10, &o, &f));
		ASSERT_EQ(0, kbloom_stats(f, &st));
		EXPECT_EQ(type, st.type);
		EXPECT_EQ((__u32)KBLOOM_HASH_FAST, st.hash_id);
		EXPECT_EQ(plan.m, st.m);
		EXPECT_EQ(plan.k, st.k);
		EXPECT_EQ(plan.bytes, st.bytes);
		EXPECT_EQ(o.counter_bits, st.counter_bits);
		EXPECT_EQ(123457ULL, st.capacity);
		EXPECT_EQ(P_1PCT / 10, st.fpr_pico);
		EXPECT_EQ(0ULL, st.inserted);
		EXPECT_EQ(0ULL, st.ones);
		EXPECT_EQ(0ULL, st.n_est);
		EXPECT_STREQ("planned.1", kbloom_name(f));
		/* the plan meets its target at capacity */
		EXPECT_GE(P_1PCT / 10,
			  kb_plan_fpr_pico(type, st.m, st.k, 123457));
		kbloom_destroy(f);
	}
	/* counting defaults to 4-bit counters */
	ASSERT_EQ(0, kbloom_create(KBLOOM_TYPE_COUNTING, 1000, P_1PCT, NULL,
				   &f));
	ASSERT_EQ(0, kbloom_stats(f, &st));
	EXPECT_EQ(4U, st.counter_bits);
	kbloom_destroy(f);
	kbloom_destroy(NULL);
}

TEST(random_seed)
{
	struct kbloom_opts o = { .flags = KBLOOM_OPT_RANDOM_SEED, .seed = 7 };
	struct kbloom_filter *a, *b;
	struct kbloom_stats sa, sb;

	ASSERT_EQ(0, kbloom_create(KBLOOM_TYPE_BLOCKED, 100, P_1PCT, &o, &a));
	ASSERT_EQ(0, kbloom_create(KBLOOM_TYPE_BLOCKED, 100, P_1PCT, &o, &b));
	ASSERT_EQ(0, kbloom_stats(a, &sa));
	ASSERT_EQ(0, kbloom_stats(b, &sb));
	EXPECT_NE(sa.seed, sb.seed);
	kbloom_destroy(a);
	kbloom_destroy(b);
}

TEST(key_errors)
{
	__u8 key[KBLOOM_KEY_MAX + 1] = { 1 };
	struct kbloom_filter *f;

	ASSERT_EQ(0, kbloom_create(KBLOOM_TYPE_BLOCKED, 1000, P_1PCT, NULL,
				   &f));
	EXPECT_EQ(-EINVAL, kbloom_add(f, key, 0));
	EXPECT_EQ(-EINVAL, kbloom_add(f, key, KBLOOM_KEY_MAX + 1));
	EXPECT_EQ(-EINVAL, kbloom_add(f, NULL, 4));
	EXPECT_EQ(-EINVAL, kbloom_add(NULL, key, 4));
	EXPECT_EQ(-EINVAL, kbloom_test(f, key, 0));
	EXPECT_EQ(-EINVAL, kbloom_test(f, key, KBLOOM_KEY_MAX + 1));
	EXPECT_EQ(-EINVAL, kbloom_test(NULL, key, 1));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_del(f, key, 4));
	EXPECT_EQ(-EINVAL, kbloom_del(f, key, 0));
	/* the longest key works */
	EXPECT_EQ(0, kbloom_add(f, key, KBLOOM_KEY_MAX));
	EXPECT_EQ(1, kbloom_test(f, key, KBLOOM_KEY_MAX));
	kbloom_destroy(f);
}

/* ---- batches ----------------------------------------------------------- */

static void *snapshot(struct kbloom_filter *f, size_t *len)
{
	void *img = NULL;

	if (kbloom_save_alloc(f, &img, len))
		return NULL;
	return img;
}

TEST(batch_errors_apply_nothing)
{
	__u8 bad[] = { 3, 'a', 'b', 'c', 0, 'x' }, res[2] = { 0xAA, 0xAA };
	__u8 big[] = { KBLOOM_KEY_MAX + 1 };
	struct kbloom_filter *f;
	__u64 keys[4] = { 1, 2, 3, 4 };
	size_t l0, l1;
	void *s0, *s1;

	ASSERT_EQ(0, kbloom_create(KBLOOM_TYPE_COUNTING, 1000, P_1PCT, NULL,
				   &f));
	ASSERT_EQ(0, kbloom_add(f, &keys[0], 8));
	s0 = snapshot(f, &l0);
	ASSERT_NE(NULL, s0);
	/* fixed keys: keys_len must be count * key_len */
	EXPECT_EQ(-EINVAL, kbloom_add_batch(f, keys, 31, 8, 4));
	EXPECT_EQ(-EINVAL, kbloom_add_batch(f, keys, 33, 8, 4));
	EXPECT_EQ(-EINVAL, kbloom_add_batch(f, keys, 32, KBLOOM_KEY_MAX + 1,
					    4));
	EXPECT_EQ(-EINVAL, kbloom_add_batch(f, NULL, 32, 8, 4));
	EXPECT_EQ(-EINVAL, kbloom_add_batch(NULL, keys, 32, 8, 4));
	/*
	 * variable keys: a zero length, a length past the end, a tail,
	 * a length above KBLOOM_KEY_MAX
	 */
	EXPECT_EQ(-EINVAL, kbloom_add_batch(f, bad, sizeof(bad), 0, 2));
	EXPECT_EQ(-EINVAL, kbloom_add_batch(f, bad, 3, 0, 1));
	EXPECT_EQ(-EINVAL, kbloom_add_batch(f, bad, 5, 0, 1));
	EXPECT_EQ(-EINVAL, kbloom_add_batch(f, big, 1, 0, 1));
	EXPECT_EQ(-EINVAL, kbloom_test_batch(f, bad, sizeof(bad), 0, 2, res));
	EXPECT_EQ(-EINVAL, kbloom_test_batch(f, keys, 31, 8, 4, res));
	EXPECT_EQ(0xAA, res[0]);
	s1 = snapshot(f, &l1);
	ASSERT_NE(NULL, s1);
	ASSERT_EQ(l0, l1);
	EXPECT_EQ(0, memcmp(s0, s1, l0));
	/* an empty batch is fine */
	EXPECT_EQ(0, kbloom_add_batch(f, NULL, 0, 8, 0));
	EXPECT_EQ(0, kbloom_test_batch(f, NULL, 0, 8, 0, NULL));
	free(s0);
	free(s1);
	kbloom_destroy(f);
}

TEST(batch_results_match_single)
{
	static const __u32 types[] = { KBLOOM_TYPE_BLOCKED,
				       KBLOOM_TYPE_STANDARD,
				       KBLOOM_TYPE_COUNTING };
	__u64 keys[1000];
	__u8 res[126], i8;
	struct kbloom_filter *f;
	__u32 t, i, count;
	long hits, want;

	for (t = 0; t < 3; t++) {
		/* small and overfull: about half the probes hit */
		ASSERT_EQ(0, kbloom_create_mk(types[t], 4096, 3, NULL, &f));
		for (i = 0; i < 1000; i++) {
			keys[i] = cu_mix(i);
			if (i < 1000 / 2)
				ASSERT_LE(0, kbloom_add(f, &keys[i], 8));
		}
		/* odd counts exercise the chunk tail and the last byte */
		for (count = 1; count <= 1000; count += 333) {
			memset(res, 0xFF, sizeof(res));
			hits = kbloom_test_batch(f, keys, count * 8, 8, count,
						 res);
			want = 0;
			for (i = 0; i < count; i++) {
				int r = kbloom_test(f, &keys[i], 8);

				want += r;
				ASSERT_EQ(r, (res[i / 8] >> (i % 8)) & 1);
			}
			ASSERT_EQ(want, hits);
			i8 = res[(count - 1) / 8];
			if (count % 8)
				ASSERT_EQ(0, i8 >> (count % 8));
			ASSERT_EQ(0xFF, res[(count + 7) / 8]);
		}
		kbloom_destroy(f);
	}
}

/* ---- clear, union ------------------------------------------------------ */

TEST(clear)
{
	struct kbloom_filter *f;
	struct kbloom_stats st;
	__u64 i, nw;
	const __u64 *w;

	ASSERT_EQ(0, kbloom_create(KBLOOM_TYPE_COUNTING, 1000, P_1PCT, NULL,
				   &f));
	for (i = 0; i < 1000; i++)
		ASSERT_LE(0, kbloom_add(f, &i, 8));
	kbloom_clear(f);
	ASSERT_EQ(0, kbloom_stats(f, &st));
	EXPECT_EQ(0ULL, st.inserted);
	EXPECT_EQ(0ULL, st.ones);
	EXPECT_EQ(0ULL, st.saturations);
	w = kbloom_words(f, &nw);
	for (i = 0; i < nw; i++)
		ASSERT_EQ(0ULL, w[i]);
	for (i = 0; i < 1000; i++)
		ASSERT_EQ(0, kbloom_test(f, &i, 8));
	kbloom_destroy(f);
}

TEST(union_bits)
{
	struct kbloom_opts o = { .seed = 3 };
	struct kbloom_filter *a, *b, *c;
	struct kbloom_stats st;
	__u64 i;
	__u32 t;

	for (t = KBLOOM_TYPE_STANDARD; t <= KBLOOM_TYPE_MAX; t++) {
		ASSERT_EQ(0, kbloom_create(t, 20000, P_1PCT, &o, &a));
		ASSERT_EQ(0, kbloom_create(t, 20000, P_1PCT, &o, &b));
		for (i = 0; i < 20000; i++)
			ASSERT_LE(0, kbloom_add(i & 1 ? a : b, &i, 8));
		ASSERT_EQ(0, kbloom_union(a, b));
		for (i = 0; i < 20000; i++)
			ASSERT_EQ(1, kbloom_test(a, &i, 8));
		ASSERT_EQ(0, kbloom_stats(a, &st));
		EXPECT_EQ(20000ULL, st.inserted);
		/* union equals inserting everything into one filter */
		ASSERT_EQ(0, kbloom_create(t, 20000, P_1PCT, &o, &c));
		for (i = 0; i < 20000; i++)
			ASSERT_LE(0, kbloom_add(c, &i, 8));
		{
			__u64 na, nc, j;
			const __u64 *wa = kbloom_words(a, &na);
			const __u64 *wc = kbloom_words(c, &nc);

			ASSERT_EQ(na, nc);
			for (j = 0; j < na; j++)
				ASSERT_EQ(wc[j], wa[j]);
		}
		kbloom_destroy(a);
		kbloom_destroy(b);
		kbloom_destroy(c);
	}
}

TEST(union_incompatible)
{
	struct kbloom_opts o = { .seed = 3 }, o2 = o;
	struct kbloom_filter *a, *b;
	size_t l0, l1;
	void *s0, *s1;
	__u64 key = 1;

	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 4096, 6, &o, &a));
	ASSERT_EQ(0, kbloom_add(a, &key, 8));
	s0 = snapshot(a, &l0);
	ASSERT_NE(NULL, s0);
	/* each parameter in turn */
	o2.seed = 4;
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 4096, 6, &o2, &b));
	EXPECT_EQ(-EINVAL, kbloom_union(a, b));
	kbloom_destroy(b);
	o2 = o;
	o2.hash_id = KBLOOM_HASH_SIPHASH13;
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 4096, 6, &o2, &b));
	EXPECT_EQ(-EINVAL, kbloom_union(a, b));
	kbloom_destroy(b);
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 4096, 7, &o, &b));
	EXPECT_EQ(-EINVAL, kbloom_union(a, b));
	kbloom_destroy(b);
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 4608, 6, &o, &b));
	EXPECT_EQ(-EINVAL, kbloom_union(a, b));
	kbloom_destroy(b);
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_STANDARD, 4096, 6, &o, &b));
	EXPECT_EQ(-EINVAL, kbloom_union(a, b));
	kbloom_destroy(b);
	EXPECT_EQ(-EINVAL, kbloom_union(a, NULL));
	s1 = snapshot(a, &l1);
	ASSERT_NE(NULL, s1);
	ASSERT_EQ(l0, l1);
	EXPECT_EQ(0, memcmp(s0, s1, l0));
	free(s0);
	free(s1);
	kbloom_destroy(a);
	/* counter widths */
	o.counter_bits = 4;
	o2 = o;
	o2.counter_bits = 8;
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_COUNTING, 4096, 6, &o, &a));
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_COUNTING, 4096, 6, &o2, &b));
	EXPECT_EQ(-EINVAL, kbloom_union(a, b));
	kbloom_destroy(a);
	kbloom_destroy(b);
}

/* Counting union adds counters and saturates, counting what is lost. */
TEST(union_counting_saturates)
{
	struct kbloom_opts o = { .seed = 11, .counter_bits = 4 };
	struct kbloom_filter *a, *b;
	struct kbloom_stats st;
	const __u64 *w;
	__u64 key = 77, h, nw;
	struct kb_probe p;
	__u32 i, j;

	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_COUNTING, 64 * 1024, 4, &o,
				      &a));
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_COUNTING, 64 * 1024, 4, &o,
				      &b));
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(0, kbloom_add(a, &key, 8));
		ASSERT_EQ(0, kbloom_add(b, &key, 8));
	}
	ASSERT_EQ(0, kbloom_union(a, b));
	ASSERT_EQ(0, kbloom_stats(a, &st));
	/* four distinct counters (checked below), each 10 + 10 -> 15 */
	EXPECT_EQ(4ULL * 5, st.saturations);
	EXPECT_EQ(20ULL, st.inserted);
	w = kbloom_words(a, &nw);
	h = kb_hash(KBLOOM_HASH_FAST, 11, &key, 8);
	kb_probe_init(&p, h);
	for (i = 0; i < 4; i++) {
		j = kb_probe_next(&p, 64 * 1024);
		EXPECT_EQ(15ULL, kb_ctr_get(w[kb_ctr_word(j, 4)],
					    kb_ctr_shift(j, 4), 4));
	}
	kbloom_destroy(a);
	kbloom_destroy(b);
}

/* ---- statistics -------------------------------------------------------- */

FIXTURE(halffill) {
	struct kbloom_filter *f;
};

FIXTURE_VARIANT(halffill) {
	__u32 type;
};

FIXTURE_VARIANT_ADD(halffill, blocked) {
	.type = KBLOOM_TYPE_BLOCKED,
};

FIXTURE_VARIANT_ADD(halffill, standard) {
	.type = KBLOOM_TYPE_STANDARD,
};

FIXTURE_VARIANT_ADD(halffill, counting) {
	.type = KBLOOM_TYPE_COUNTING,
};

FIXTURE_SETUP(halffill)
{
	struct kbloom_opts o = { .seed = 17 };

	ASSERT_EQ(0, kbloom_create_mk(variant->type, 1ULL << 21, 7, &o,
				      &self->f));
}

FIXTURE_TEARDOWN(halffill)
{
	kbloom_destroy(self->f);
}

/*
 * At half fill (n = m ln 2 / k keys) the estimate -(m/k) ln(1 - X) is
 * within 3% of n, the occupancy is close to 1/2 and the predicted rate is
 * the planner's at n.
 */
TEST_F(halffill, n_est_within_3pct)
{
	__u64 m = 1ULL << 21, n = (__u64)(m * M_LN2 / 7), i, key;
	struct kbloom_stats st;
	double err;

	for (i = 0; i < n; i++) {
		key = cu_mix(i ^ 0xF00D);
		ASSERT_LE(0, kbloom_add(self->f, &key, 8));
	}
	ASSERT_EQ(0, kbloom_stats(self->f, &st));
	EXPECT_EQ(n, st.inserted);
	EXPECT_EQ(st.ones * 1000000 / m, st.occupancy_ppm);
	EXPECT_LT(fabs(st.occupancy - 0.5), 0.01);
	err = fabs((double)st.n_est - (double)n) / (double)n;
	TH_LOG("n %llu n_est %llu (%.2f%%) occupancy %.4f",
	       (unsigned long long)n, (unsigned long long)st.n_est,
	       err * 100, st.occupancy);
	EXPECT_LT(err, 0.03);
	EXPECT_EQ(kb_n_est(m, 7, st.ones), st.n_est);
	EXPECT_EQ(kb_plan_fpr_pico(variant->type, m, 7, n), st.fpr_now_pico);
	EXPECT_EQ(0ULL, st.saturations);
}

TEST(name)
{
	struct kbloom_filter *f;

	ASSERT_EQ(0, kbloom_create(KBLOOM_TYPE_BLOCKED, 10, P_1PCT, NULL, &f));
	EXPECT_STREQ("", kbloom_name(f));
	EXPECT_EQ(0, kbloom_set_name(f, "a-b_c.9"));
	EXPECT_STREQ("a-b_c.9", kbloom_name(f));
	EXPECT_EQ(-EINVAL, kbloom_set_name(f, "no/slash"));
	EXPECT_STREQ("a-b_c.9", kbloom_name(f));
	EXPECT_EQ(0, kbloom_set_name(f, NULL));
	EXPECT_STREQ("", kbloom_name(f));
	kbloom_destroy(f);
}

TEST_HARNESS_MAIN
