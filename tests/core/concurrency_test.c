// SPDX-License-Identifier: GPL-2.0
/*
 * Readers concurrent with writers: 2 writer threads add keys and publish
 * how far they got (a high-water mark, store-release); 2 reader threads
 * load a mark (load-acquire) and test keys below it, often the newest
 * one.  A key whose add returned before the read began must be found:
 * zero false negatives.  For counting filters the writers also add and
 * delete transient keys, so counters move down as well as up (CAS loops
 * racing with each other) while the permanent keys must stay present.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "core_util.h"

#define P_1PCT		10000000000ULL
#define NWRITERS	2
#define NREADERS	2
#define TRANSIENT	16	/* transient keys alive per counting writer */

struct conc {
	struct kbloom_filter *f;
	bool counting;
	__u64 cap;			/* keys per writer */
	__u64 hw[NWRITERS];		/* keys published, per writer */
	int stop;
	__u64 added[NWRITERS];
	__u64 checks[NREADERS];
	__u64 misses[NREADERS];
	__u64 bad_del[NWRITERS];
};

struct targ {
	struct conc *c;
	int id;
};

static __u64 perm_key(int w, __u64 i)
{
	return cu_mix(((__u64)w << 40) + i);
}

static __u64 transient_key(int w, __u64 i)
{
	return cu_mix(((__u64)(w + 8) << 40) + i);
}

static void *writer(void *arg)
{
	struct targ *a = arg;
	struct conc *c = a->c;
	int w = a->id;
	__u64 i, key;

	for (i = 0; i < c->cap && !__atomic_load_n(&c->stop, __ATOMIC_RELAXED);
	     i++) {
		key = perm_key(w, i);
		kbloom_add(c->f, &key, 8);
		/* the add returned: publish it */
		__atomic_store_n(&c->hw[w], i + 1, __ATOMIC_RELEASE);
		if (!c->counting)
			continue;
		key = transient_key(w, i);
		kbloom_add(c->f, &key, 8);
		if (i >= TRANSIENT) {
			key = transient_key(w, i - TRANSIENT);
			if (kbloom_del(c->f, &key, 8))
				c->bad_del[w]++;
		}
	}
	c->added[w] = i;
	return NULL;
}

static void *reader(void *arg)
{
	struct targ *a = arg;
	struct conc *c = a->c;
	struct cu_rng r = { 0x9E3779B9ULL * (a->id + 1) };
	__u64 keys[16], n, x, j;
	__u8 res[2];
	int w;

	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		x = cu_next(&r);
		w = x & 1;
		n = __atomic_load_n(&c->hw[w], __ATOMIC_ACQUIRE);
		if (!n)
			continue;
		/* the newest key, a random older one, then a batch */
		keys[0] = perm_key(w, n - 1);
		c->misses[a->id] += kbloom_test(c->f, &keys[0], 8) != 1;
		keys[0] = perm_key(w, (x >> 8) % n);
		c->misses[a->id] += kbloom_test(c->f, &keys[0], 8) != 1;
		c->checks[a->id] += 2;
		if ((x >> 4) & 7)
			continue;
		for (j = 0; j < 16; j++)
			keys[j] = perm_key(w, j < n ? n - 1 - j : 0);
		c->misses[a->id] += 16 - kbloom_test_batch(c->f, keys,
							   sizeof(keys), 8,
							   16, res);
		c->checks[a->id] += 16;
	}
	return NULL;
}

static void run(struct __test_metadata *_metadata, __u32 type, __u64 cap,
		double seconds)
{
	pthread_t wt[NWRITERS], rt[NREADERS];
	struct targ wa[NWRITERS], ra[NREADERS];
	struct conc c = { .cap = cap };
	struct kbloom_opts o = { .seed = 0xC0C0 };
	__u64 checks = 0, misses = 0, i, key;
	struct kbloom_stats st;
	double t0;
	int j;

	c.counting = type == KBLOOM_TYPE_COUNTING;
	ASSERT_EQ(0, kbloom_create(type, NWRITERS * cap, P_1PCT, &o, &c.f));
	for (j = 0; j < NREADERS; j++) {
		ra[j] = (struct targ){ &c, j };
		ASSERT_EQ(0, pthread_create(&rt[j], NULL, reader, &ra[j]));
	}
	for (j = 0; j < NWRITERS; j++) {
		wa[j] = (struct targ){ &c, j };
		ASSERT_EQ(0, pthread_create(&wt[j], NULL, writer, &wa[j]));
	}
	t0 = cu_now();
	while (cu_now() - t0 < seconds)
		usleep(10000);
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELAXED);
	for (j = 0; j < NWRITERS; j++)
		pthread_join(wt[j], NULL);
	for (j = 0; j < NREADERS; j++) {
		pthread_join(rt[j], NULL);
		checks += c.checks[j];
		misses += c.misses[j];
	}
	TH_LOG("%.1f s: %llu + %llu keys added, %llu concurrent checks, %llu false negatives",
	       seconds, (unsigned long long)c.added[0],
	       (unsigned long long)c.added[1], (unsigned long long)checks,
	       (unsigned long long)misses);
	EXPECT_EQ(0ULL, misses);
	EXPECT_LT(100000ULL, checks);
	EXPECT_LT(10000ULL, c.added[0]);
	EXPECT_EQ(0ULL, c.bad_del[0] + c.bad_del[1]);
	/* afterwards: every published key present, counts add up */
	for (j = 0; j < NWRITERS; j++) {
		for (i = 0; i < c.added[j]; i++) {
			key = perm_key(j, i);
			ASSERT_EQ(1, kbloom_test(c.f, &key, 8));
		}
	}
	ASSERT_EQ(0, kbloom_stats(c.f, &st));
	if (!c.counting) {
		EXPECT_EQ(c.added[0] + c.added[1], st.inserted);
	} else {
		/* permanent + transient adds - transient deletes */
		__u64 want = 0;

		for (j = 0; j < NWRITERS; j++)
			want += c.added[j] + (c.added[j] < TRANSIENT ?
					      c.added[j] : TRANSIENT);
		EXPECT_EQ(want, st.inserted);
	}
	kbloom_destroy(c.f);
}

/*
 * Lost bits: LB_THREADS writers add disjoint keys into the same few
 * blocks at the same time (a spin barrier starts them together), half
 * through kbloom_add() and half through kbloom_add_batch(), round after
 * round.  Setting bits is an OR, so the filter must end bit for bit equal
 * to the same keys added by one thread, and every key present; a write
 * that lost a concurrent writer's bit (a plain read-modify-write of a
 * word or of a block) leaves a word short.
 */
#define LB_THREADS	4
#define LB_KEYS		192	/* per writer per round */
#define LB_ROUNDS	1000
#define LB_M		(16 * 512)	/* 16 blocks, all shared */

struct lb {
	struct kbloom_filter *f;
	__u32 round;
	int ready;
	__u64 keys[LB_THREADS][LB_KEYS];
};

struct lb_arg {
	struct lb *s;
	int id;
};

static void *lb_writer(void *arg)
{
	struct lb_arg *a = arg;
	struct lb *s = a->s;
	const __u64 *k = s->keys[a->id];
	__u32 i;

	__atomic_fetch_add(&s->ready, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE) < LB_THREADS)
		sched_yield();
	if ((a->id + s->round) & 1) {
		kbloom_add_batch(s->f, k, sizeof(s->keys[0]), 8, LB_KEYS);
		return NULL;
	}
	for (i = 0; i < LB_KEYS; i++)
		kbloom_add(s->f, &k[i], 8);
	return NULL;
}

/* One round: the writers at once, then the filter against @ref's words. */
static int lb_round(struct lb *s, struct kbloom_filter *ref)
{
	struct lb_arg a[LB_THREADS];
	pthread_t t[LB_THREADS];
	const __u64 *w, *rw;
	__u64 nw, i;
	int j;

	kbloom_clear(s->f);
	kbloom_clear(ref);
	s->ready = 0;
	for (j = 0; j < LB_THREADS; j++) {
		for (i = 0; i < LB_KEYS; i++) {
			s->keys[j][i] = cu_mix(((__u64)s->round << 32) |
					       ((__u64)j << 16) | i);
			kbloom_add(ref, &s->keys[j][i], 8);
		}
	}
	for (j = 0; j < LB_THREADS; j++) {
		a[j] = (struct lb_arg){ s, j };
		if (pthread_create(&t[j], NULL, lb_writer, &a[j]))
			return -1;
	}
	for (j = 0; j < LB_THREADS; j++)
		pthread_join(t[j], NULL);
	w = kbloom_words(s->f, &nw);
	rw = kbloom_words(ref, NULL);
	for (i = 0; i < nw; i++)
		if (w[i] != rw[i])
			return 1;
	for (j = 0; j < LB_THREADS; j++)
		for (i = 0; i < LB_KEYS; i++)
			if (kbloom_test(s->f, &s->keys[j][i], 8) != 1)
				return 2;
	return 0;
}

TEST(no_lost_bits)
{
	static struct lb s;
	struct kbloom_opts o = { .seed = 0x10575 };
	struct kbloom_filter *ref;
	double t0 = cu_now();
	__u32 bad = 0;

	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, LB_M, 8, &o, &s.f));
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, LB_M, 8, &o, &ref));
	for (s.round = 0; s.round < LB_ROUNDS; s.round++) {
		int r = lb_round(&s, ref);

		ASSERT_LE(0, r);
		bad += r != 0;
	}
	TH_LOG("%u rounds of %u x %u keys in %.1f s", LB_ROUNDS, LB_THREADS,
	       LB_KEYS, cu_now() - t0);
	EXPECT_EQ(0U, bad) TH_LOG("%u of %u rounds lost bits", bad, LB_ROUNDS);
	kbloom_destroy(ref);
	kbloom_destroy(s.f);
}

TEST(blocked)
{
	run(_metadata, KBLOOM_TYPE_BLOCKED, 4000000, 3.0);
}

TEST(standard)
{
	run(_metadata, KBLOOM_TYPE_STANDARD, 4000000, 1.0);
}

TEST(counting_add_del)
{
	run(_metadata, KBLOOM_TYPE_COUNTING, 2000000, 2.0);
}

TEST_HARNESS_MAIN
