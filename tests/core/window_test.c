// SPDX-License-Identifier: GPL-2.0
/*
 * The age-partitioned Bloom filter (uapi/kbloom_var_window.h,
 * libkbloom_window.h), a sliding window over keys or time:
 *   - golden vectors pin the positions (physical slice j: bit j s +
 *     reduce(w_j, s) of the standard probe words), computed once by an
 *     independent implementation of the header's formula, and the walk
 *     in logical order from any head;
 *   - k = 10, l = 7, count clock, planned for 0.1%: 0 false negatives
 *     among the last N = l g keys after 20 generations; the measured rate
 *     at most 0.1% and within +-10% of the run-length formula (derived in
 *     the header from the paper's model, recomputed here in double
 *     precision), just before a rotation and half way through one;
 *   - keys older than (l + 1) generations are forgotten;
 *   - the time clock, driven by a controllable clock: every key of the
 *     last T = l gen_len tests present, a key older than T + gen_len is
 *     forgotten by a test before any writer rotated, and tick agrees;
 *   - the planner; images round-trip with the head and the generation
 *     clock; bad parameters, keys and images are refused with their errno
 *     and change nothing.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_window.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_var_window.h"
#include "core_util.h"

#define P_01PCT		1000000000ULL	/* 0.1% */
#define NS		1000000000ULL
#define N_PROBES	2000000ULL

static __u64 key_of(__u64 i)
{
	return cu_mix(i ^ 0x3A11D0);
}

static void add_range(struct __test_metadata *_metadata,
		      struct kbloom_win *f, __u64 lo, __u64 hi)
{
	__u64 i, key;

	for (i = lo; i < hi; i++) {
		key = key_of(i);
		ASSERT_EQ(0, kbloom_win_add(f, &key, 8));
	}
}

/* Keys of [lo, hi) that test present. */
static __u64 present(const struct kbloom_win *f, __u64 lo, __u64 hi)
{
	__u64 i, key, n = 0;

	for (i = lo; i < hi; i++) {
		key = key_of(i);
		n += kbloom_win_test(f, &key, 8) == 1;
	}
	return n;
}

/*
 * The rate of the header's model in double precision: logical slice i
 * holds i g + c keys (i < k) or k g, a bit of it is set with probability
 * 1 - (1 - 1/s)^n_i, and a non-key is present iff k consecutive slices
 * have its bit: the run-length recurrence.
 */
static double window_formula(__u32 k, __u32 l, double s, double g, double c)
{
	double a[64] = { 1 }, r, sum, hit = 0;
	__u32 i, t;

	for (i = 0; i < k + l; i++) {
		r = 1 - pow(1 - 1 / s, i < k ? i * g + c : k * g);
		hit += r * a[k - 1];
		for (sum = 0, t = 0; t < k; t++)
			sum += a[t];
		for (t = k - 1; t > 0; t--)
			a[t] = r * a[t - 1];
		a[0] = (1 - r) * sum;
	}
	return hit;
}

/* ---- positions ------------------------------------------------------- */

/* k + l = 7 slices of s = 4096 bits */
static const struct {
	__u64 h;
	__u64 bit[7];
} gold[] = {
	{ 0x0123456789ABCDEFULL,
	  { 18, 4297, 9408, 14315, 18103, 23821, 25441 } },
	{ 0xFEDCBA9876543210ULL,
	  { 4077, 5459, 11595, 12816, 19380, 20496, 26592 } },
	{ 0xDEADBEEFCAFEBABEULL,
	  { 3562, 4334, 11597, 15800, 18007, 23429, 25351 } },
	{ 0x0000000000000001ULL,
	  { 0, 6627, 11764, 13828, 19860, 21218, 25790 } },
	{ 0xFFFFFFFFFFFFFFFFULL,
	  { 4095, 5660, 8715, 14843, 17003, 23837, 27457 } },
};

TEST(golden_positions)
{
	struct kb_win_walk w;
	__u32 i, j, head;

	for (i = 0; i < ARRAY_SIZE(gold); i++) {
		for (j = 0; j < 7; j++)
			EXPECT_EQ(gold[i].bit[j], kb_win_bit(gold[i].h, j, 4096));
		for (head = 0; head < 7; head++) {
			kb_win_walk_init(&w, gold[i].h, head, 7);
			for (j = 0; j < 7; j++)
				EXPECT_EQ(gold[i].bit[kb_win_phys(head, j, 7)],
					  kb_win_walk_next(&w, 4096));
		}
	}
}

TEST(rotation_rule)
{
	__u32 head = 0, i;

	/* the oldest slice becomes the newest: logical n - 1 -> 0 */
	for (i = 0; i < 17; i++) {
		EXPECT_EQ(kb_win_phys(head, 16, 17),
			  kb_win_next_head(head, 17));
		head = kb_win_next_head(head, 17);
	}
	EXPECT_EQ(0, head);
	EXPECT_EQ(1000, kb_win_gen_len(7000, 7));
	EXPECT_EQ(1001, kb_win_gen_len(7001, 7));
	EXPECT_EQ(0, kb_win_due(5, 10, 3));
	EXPECT_EQ(3, kb_win_due(19, 10, 3));
}

/* ---- the count clock: k = 10, l = 7 at 0.1% -------------------------- */

#define WIN_N	70000ULL	/* l g: g = 10000 */

FIXTURE(count) {
	struct kbloom_win *f;
	struct kbloom_win_stats st;
};

FIXTURE_SETUP(count)
{
	struct kbloom_win_params wp = { .clock = KB_WIN_CLOCK_KEYS, .k = 10,
					.l = 7, .window = WIN_N,
					.fpr_pico = P_01PCT };

	ASSERT_EQ(0, kbloom_win_create(&wp, NULL, &self->f));
	ASSERT_EQ(0, kbloom_win_stats(self->f, &self->st));
	ASSERT_EQ(10, self->st.shape.k);
	ASSERT_EQ(7, self->st.shape.tables);
	ASSERT_EQ(10000, self->st.gen_len);
	ASSERT_EQ(WIN_N, self->st.window);
}

FIXTURE_TEARDOWN(count)
{
	kbloom_win_destroy(self->f);
}

/* Rate of non-keys against the model at c keys of the current generation. */
static void check_rate(struct __test_metadata *_metadata,
		       const struct kbloom_win *f, __u64 c)
{
	struct kbloom_win_stats st;
	double rate, model, uapi;

	ASSERT_EQ(0, kbloom_win_stats(f, &st));
	ASSERT_EQ(c, st.gen_clock);
	rate = (double)present(f, 1ULL << 40, (1ULL << 40) + N_PROBES) /
	       N_PROBES;
	model = window_formula(10, 7, st.shape.buckets, st.gen_len, c);
	uapi = st.fpr_now_pico / 1e12;
	TH_LOG("c = %llu: measured %.5f%%, formula %.5f%% (uapi %.5f%%), %.2f bits/key",
	       c, rate * 100, model * 100, uapi * 100,
	       (double)st.shape.m / WIN_N);
	EXPECT_LE(rate, 0.001);
	EXPECT_LE(fabs(rate / model - 1), 0.10);
	EXPECT_LE(fabs(uapi / model - 1), 0.01);
}

TEST_F(count, no_false_negative_in_window_and_rate)
{
	const __u64 total = 20 * 10000;

	add_range(_metadata, self->f, 0, total);
	/* the last N keys: 0 false negatives */
	EXPECT_EQ(WIN_N, present(self->f, total - WIN_N, total));
	check_rate(_metadata, self->f, 10000);
	add_range(_metadata, self->f, total, total + 5000);
	EXPECT_EQ(WIN_N, present(self->f, total + 5000 - WIN_N,
				 total + 5000));
	check_rate(_metadata, self->f, 5000);
}

TEST_F(count, older_keys_forgotten)
{
	const __u64 total = 20 * 10000;
	__u64 old, edge;

	add_range(_metadata, self->f, 0, total);
	/* generations 0..2: every slice of theirs was cleared */
	old = present(self->f, 0, 3 * 10000);
	/* generation 11 lost one of its 10 slices */
	edge = present(self->f, 11 * 10000, 12 * 10000);
	TH_LOG("present: %llu of 30000 forgotten keys, %llu of 10000 keys one slice short",
	       old, edge);
	EXPECT_LE(old, 30000 / 400);
	EXPECT_LT(edge, 9000);
	/* the window holds up to (l + 1) g keys: generation 12 is still in */
	EXPECT_EQ(10000, present(self->f, 12 * 10000, 13 * 10000));
}

/* ---- the time clock ------------------------------------------------ */

struct fake_clock {
	__u64 ns;
};

static __u64 fake_now(void *ctx)
{
	return ((struct fake_clock *)ctx)->ns;
}

TEST(time_window)
{
	struct kbloom_win_params wp = { .clock = KB_WIN_CLOCK_NS, .k = 10,
					.l = 7, .window = 7 * NS,
					.capacity = 7000,
					.fpr_pico = P_01PCT };
	struct fake_clock clk = { .ns = 1000 * NS };
	struct kbloom_win_stats st;
	struct kbloom_win *f;
	__u64 t;

	ASSERT_EQ(0, kbloom_win_create(&wp, NULL, &f));
	ASSERT_EQ(0, kbloom_win_set_clock(f, fake_now, &clk));
	/* 1000 keys per second for 30 s, one key per ms */
	for (t = 0; t < 30000; t++) {
		clk.ns = 1000 * NS + t * (NS / 1000);
		add_range(_metadata, f, t, t + 1);
	}
	/* every key of the last 7 s: present */
	EXPECT_EQ(7000, present(f, 30000 - 7000, 30000));
	/* keys of 18 s ago and older: no slice of theirs is left */
	EXPECT_LE(present(f, 0, 12000), 12000 / 400);
	ASSERT_EQ(0, kbloom_win_stats(f, &st));
	EXPECT_EQ(NS, st.gen_len);
	EXPECT_EQ(29, st.rotations);

	/*
	 * 6.5 s later, no add: the last generation's keys (6.5..7.5 s old)
	 * are still in, as the window keeps up to (l + 1) generations
	 */
	clk.ns += 6500 * (NS / 1000);
	EXPECT_EQ(1000, present(f, 29000, 30000));
	/*
	 * 9 s after the last key, before any writer rotated: a test looks
	 * at 17 - 9 slices only, too few for a run of 10
	 */
	clk.ns += 2500 * (NS / 1000);
	EXPECT_EQ(0, present(f, 22000, 30000));
	EXPECT_EQ(9, kbloom_win_tick(f));
	EXPECT_EQ(0, present(f, 22000, 30000));
	ASSERT_EQ(0, kbloom_win_stats(f, &st));
	EXPECT_EQ(38, st.rotations);
	EXPECT_EQ(0, kbloom_win_tick(f));
	kbloom_win_destroy(f);
}

TEST(time_rotate_by_hand)
{
	struct kbloom_win_params wp = { .clock = KB_WIN_CLOCK_NS, .k = 3,
					.l = 2, .window = 2 * NS,
					.slice_bits = 4096 };
	struct fake_clock clk = { .ns = 5 * NS };
	struct kbloom_win *f;

	ASSERT_EQ(0, kbloom_win_create(&wp, NULL, &f));
	ASSERT_EQ(0, kbloom_win_set_clock(f, fake_now, &clk));
	add_range(_metadata, f, 0, 10);
	/* l = 2 rotations keep the keys, the third forgets them */
	EXPECT_EQ(0, kbloom_win_rotate(f));
	EXPECT_EQ(0, kbloom_win_rotate(f));
	EXPECT_EQ(10, present(f, 0, 10));
	EXPECT_EQ(0, kbloom_win_rotate(f));
	EXPECT_EQ(0, present(f, 0, 10));
	kbloom_win_destroy(f);
}

/* ---- planner --------------------------------------------------------- */

TEST(planner)
{
	struct kb_shape s;
	__u64 p;

	ASSERT_EQ(0, kb_win_plan(70000, P_01PCT, 0, 0, KB_WIN_CLOCK_KEYS,
				 &s));
	EXPECT_EQ(10, s.k);
	EXPECT_LE(s.tables, 10);
	EXPECT_EQ(0, kb_shape_check(&s));
	p = kb_win_fpr_pico(s.k, s.tables, s.buckets,
			    kb_win_gen_len(70000, s.tables),
			    kb_win_gen_len(70000, s.tables));
	EXPECT_LE(p, P_01PCT);
	/* one word less is over the target */
	p = kb_win_fpr_pico(s.k, s.tables, s.buckets - 64,
			    kb_win_gen_len(70000, s.tables),
			    kb_win_gen_len(70000, s.tables));
	EXPECT_GT(p, P_01PCT);
	EXPECT_EQ(-EINVAL, kb_win_plan(0, P_01PCT, 0, 0, 1, &s));
	EXPECT_EQ(-EINVAL, kb_win_plan(100, 1, 0, 0, 1, &s));
	EXPECT_EQ(-EINVAL, kb_win_plan(100, P_01PCT, 33, 0, 1, &s));
	EXPECT_EQ(-EINVAL, kb_win_plan(100, P_01PCT, 0, 33, 1, &s));
	EXPECT_EQ(-EINVAL, kb_win_plan(100, P_01PCT, 0, 0, 3, &s));
	EXPECT_EQ(-E2BIG, kb_win_plan(1ULL << 40, P_01PCT, 10, 7, 1, &s));
}

/* ---- bad parameters and keys ---------------------------------------- */

TEST(bad_params_refused)
{
	const struct kbloom_win_params ok = { .clock = KB_WIN_CLOCK_KEYS,
					      .k = 4, .l = 3, .window = 300,
					      .slice_bits = 1024 };
	struct kbloom_opts o = { .counter_bits = 4 };
	struct kbloom_win_params wp;
	struct kbloom_win *f = NULL;
	int i;

	for (i = 0; i < 11; i++) {
		wp = ok;
		switch (i) {
		case 0: wp.clock = 0; break;
		case 1: wp.clock = 3; break;
		case 2: wp.window = 0; break;
		case 3: wp.l = 0; break;
		case 4: wp.l = KB_WIN_L_MAX + 1; break;
		case 5: wp.k = KBLOOM_K_MAX + 1; break;
		case 6: wp.slice_bits = 1000; break;
		case 7: wp.fpr_pico = P_01PCT; break;
		case 8: wp.capacity = 10; break;
		case 9: wp.reserved = 1; break;
		case 10: wp.slice_bits = 0; break;
		}
		EXPECT_EQ(-EINVAL, kbloom_win_create(&wp, NULL, &f))
			TH_LOG("case %d", i);
	}
	wp = ok;
	wp.clock = KB_WIN_CLOCK_NS;
	wp.window = 2 * KB_WIN_GEN_NS_MIN;	/* l = 3: generations < 1 ms */
	EXPECT_EQ(-EINVAL, kbloom_win_create(&wp, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_win_create(&ok, &o, &f));
	EXPECT_EQ(-EINVAL, kbloom_win_create(NULL, NULL, &f));
	EXPECT_EQ(NULL, f);
	wp = ok;
	wp.slice_bits = 0;
	wp.fpr_pico = 1;
	EXPECT_EQ(-EINVAL, kbloom_win_create(&wp, NULL, &f));
	EXPECT_EQ(NULL, f);
	EXPECT_EQ(0, kbloom_win_create(&ok, NULL, &f));
	kbloom_win_destroy(f);
}

TEST(bad_keys_change_nothing)
{
	const struct kbloom_win_params wp = { .clock = KB_WIN_CLOCK_KEYS,
					      .k = 3, .l = 2, .window = 2,
					      .slice_bits = 256 };
	__u8 key[KBLOOM_KEY_MAX + 1] = { 1 };
	struct kbloom_win_stats st;
	struct kbloom_win *f;

	ASSERT_EQ(0, kbloom_win_create(&wp, NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_win_add(f, key, 0));
	EXPECT_EQ(-EINVAL, kbloom_win_add(f, key, KBLOOM_KEY_MAX + 1));
	EXPECT_EQ(-EINVAL, kbloom_win_add(f, NULL, 8));
	EXPECT_EQ(-EINVAL, kbloom_win_test(f, key, 0));
	EXPECT_EQ(-EINVAL, kbloom_win_tick(f));	/* a count clock */
	ASSERT_EQ(0, kbloom_win_stats(f, &st));
	EXPECT_EQ(0, st.ones);
	EXPECT_EQ(0, st.inserted);
	EXPECT_EQ(0, st.rotations);
	EXPECT_EQ(0, kbloom_win_add(f, key, KBLOOM_KEY_MAX));
	EXPECT_EQ(1, kbloom_win_test(f, key, KBLOOM_KEY_MAX));
	kbloom_win_clear(f);
	EXPECT_EQ(0, kbloom_win_test(f, key, KBLOOM_KEY_MAX));
	ASSERT_EQ(0, kbloom_win_stats(f, &st));
	EXPECT_EQ(0, st.ones);
	EXPECT_EQ(0, st.inserted);
	kbloom_win_destroy(f);
}

/* ---- images ---------------------------------------------------------- */

static void round_trip(struct __test_metadata *_metadata,
		       struct kbloom_win *f, __u64 n, struct fake_clock *clk)
{
	struct kbloom_win_stats a, b;
	struct kbloom_win *g;
	__u64 i, key, diff = 0;
	size_t len, need;
	void *img;

	ASSERT_EQ(0, kbloom_win_save_alloc(f, &img, &len));
	EXPECT_EQ(kbloom_win_image_size(f), len);
	EXPECT_EQ(0, kb_image_verify(img, len));
	EXPECT_EQ(-EMSGSIZE, kbloom_win_save(f, img, len - 1, &need));
	EXPECT_EQ(len, need);
	ASSERT_EQ(0, kbloom_win_load(img, len, &g));
	if (clk)
		ASSERT_EQ(0, kbloom_win_set_clock(g, fake_now, clk));
	for (i = 0; i < 2 * n; i++) {
		key = key_of(i);
		diff += kbloom_win_test(f, &key, 8) !=
			kbloom_win_test(g, &key, 8);
	}
	EXPECT_EQ(0, diff);
	ASSERT_EQ(0, kbloom_win_stats(f, &a));
	ASSERT_EQ(0, kbloom_win_stats(g, &b));
	EXPECT_EQ(a.head, b.head);
	EXPECT_EQ(a.rotations, b.rotations);
	EXPECT_EQ(a.gen_len, b.gen_len);
	EXPECT_EQ(a.ones, b.ones);
	EXPECT_EQ(a.inserted, b.inserted);
	EXPECT_EQ(0, memcmp(&a.shape, &b.shape, sizeof(a.shape)));
	EXPECT_STREQ("win.img", kbloom_win_name(g));
	/* the next add rotates (count clock) or not at the same key */
	add_range(_metadata, f, n, n + 3000);
	add_range(_metadata, g, n, n + 3000);
	ASSERT_EQ(0, kbloom_win_stats(f, &a));
	ASSERT_EQ(0, kbloom_win_stats(g, &b));
	EXPECT_EQ(a.head, b.head);
	/* a time image's age passed through the real clock of the load */
	EXPECT_LE(llabs((long long)(a.gen_clock - b.gen_clock)),
		  clk ? NS / 1000 : 0);
	free(img);
	kbloom_win_destroy(g);
}

TEST(image_round_trip)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_SIPHASH13,
				 .seed = 77, .name = "win.img" };
	struct kbloom_win_params wp = { .clock = KB_WIN_CLOCK_KEYS, .k = 6,
					.l = 4, .window = 8000,
					.fpr_pico = 10 * P_01PCT };
	struct fake_clock clk = { .ns = 100 * NS };
	struct kbloom_win *f;

	ASSERT_EQ(0, kbloom_win_create(&wp, &o, &f));
	add_range(_metadata, f, 0, 20500);
	round_trip(_metadata, f, 20500, NULL);
	kbloom_win_destroy(f);

	wp.clock = KB_WIN_CLOCK_NS;
	wp.capacity = 8000;
	wp.window = 4 * NS;
	ASSERT_EQ(0, kbloom_win_create(&wp, &o, &f));
	ASSERT_EQ(0, kbloom_win_set_clock(f, fake_now, &clk));
	add_range(_metadata, f, 0, 5000);
	clk.ns += 3 * NS / 2;
	add_range(_metadata, f, 5000, 9000);
	round_trip(_metadata, f, 9000, &clk);
	kbloom_win_destroy(f);
}

/* A valid image of @f, then one field changed and the checksum redone. */
static int reload_broken(struct kbloom_win *f, int what)
{
	struct kbloom_image_head *hd;
	struct kbloom_win *g = NULL;
	size_t len, hl = sizeof(*hd);
	__u64 *res;
	__u8 *buf;
	int ret;

	if (kbloom_win_save_alloc(f, (void **)&buf, &len))
		return 1;
	hd = (struct kbloom_image_head *)buf;
	res = hd->g.reserved;
	switch (what) {
	case 0: res[KB_WIN_GEOM_HEAD] = kb_le64(7); break;
	case 1: res[KB_WIN_GEOM_GEN_LEN] = 0; break;
	case 2: res[KB_WIN_GEOM_CLOCK] = kb_le64(1001); break;
	case 3: hd->g.update = 3; break;
	case 4: hd->g.tables = 0; break;
	case 5: hd->h.saturations = kb_le64(1); break;
	case 6: hd->h.flags = 0; break;
	case 7: hd->g.buckets = kb_le64(kb_le64(hd->g.buckets) + 64); break;
	case 8: hd->g.kicks = kb_le64(1); break;
	case 9: len -= 8; break;
	}
	hd->h.crc = 0;
	hd->h.crc = kb_le32(kb_image_crc_head(hd, buf + hl, len - hl));
	ret = kbloom_win_load(buf, len, &g);
	kbloom_win_destroy(g);
	free(buf);
	return ret;
}

TEST(bad_images_refused)
{
	const struct kbloom_win_params wp = { .clock = KB_WIN_CLOCK_KEYS,
					      .k = 4, .l = 3, .window = 3000,
					      .slice_bits = 1024 };
	struct kbloom_win *f, *g = NULL;
	size_t len;
	__u8 *img;
	int i;

	ASSERT_EQ(0, kbloom_win_create(&wp, NULL, &f));
	add_range(_metadata, f, 0, 2500);
	for (i = 0; i < 9; i++)
		EXPECT_EQ(-EBADMSG, reload_broken(f, i)) TH_LOG("case %d", i);
	EXPECT_EQ(-EMSGSIZE, reload_broken(f, 9));
	ASSERT_EQ(0, kbloom_win_save_alloc(f, (void **)&img, &len));
	img[len - 1] ^= 1;
	EXPECT_EQ(-EBADMSG, kbloom_win_load(img, len, &g));
	EXPECT_EQ(-EMSGSIZE, kbloom_win_load(img, 100, &g));
	EXPECT_EQ(-EINVAL, kbloom_win_load(NULL, len, &g));
	EXPECT_EQ(NULL, g);
	free(img);
	kbloom_win_destroy(f);
}

TEST_HARNESS_MAIN
