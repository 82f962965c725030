// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko under concurrent use.
 *
 * add_test_del: 4 threads for 10 s (KBLOOM_CONC_SECONDS overrides), each
 * adding its own keys to one blocked, one standard and one counting
 * filter, testing them right after (and a random sample of its older
 * keys), and deleting its oldest keys from the counting filter.  A key
 * whose add completed before the test began must be found: zero false
 * negatives; every delete of a present key must be applied.
 *
 * destroy_under_readers: threads test and add while the main thread
 * destroys, recreates, flushes and replaces (RESTORE) the filter: every
 * call succeeds or says ENOENT, and the kernel log stays clean (slub_debug
 * poisons freed objects; the guest runner fails the run on reports).
 */
#include <pthread.h>
#include <time.h>
#include "guest_harness.h"
#include "kmod_util.h"

#define THREADS		4
#define BATCH		128
#define LIVE_MAX	4096	/* counting: live keys per thread */

static const char *const conc_names[] = {
	"cc.blocked", "cc.standard", "cc.counting",
};

struct worker {
	pthread_t th;
	int fd;
	__u32 id;
	__u64 seed;
	__u64 added;		/* keys [0, added) were added */
	__u64 deleted;		/* keys [0, deleted) left the counting one */
	__u64 ops;
	__u64 fn;		/* false negatives */
	__u64 del_missed;	/* deletes of present keys not applied */
	__u64 errors;
	int last_err;
};

static volatile int conc_stop;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void w_err(struct worker *w, int ret)
{
	if (ret) {
		w->errors++;
		w->last_err = ret;
	}
}

/* TEST @count keys of this worker from @first; count misses as FN. */
static void w_check(struct worker *w, const char *name, __u64 first,
		    __u32 count)
{
	__u8 keys[BATCH * 16];
	__u32 done = 0, hits = 0;

	ku_keys16(keys, w->id, first, count);
	w_err(w, ku_keys(w->fd, KBLOOM_IOCTL_TEST, name, keys, 16 * count, 16,
			 count, NULL, &done, &hits));
	w->fn += count - hits;
	w->ops++;
}

static void w_round(struct worker *w)
{
	__u8 keys[BATCH * 16];
	__u32 done = 0, hits = 0, i;
	__u64 first;

	ku_keys16(keys, w->id, w->added, BATCH);
	for (i = 0; i < ARRAY_LEN(conc_names); i++)
		w_err(w, ku_keys(w->fd, KBLOOM_IOCTL_ADD, conc_names[i], keys,
				 sizeof(keys), 16, BATCH, NULL, NULL, NULL));
	w->ops += 3;
	/* the new keys, then a random sample of older ones */
	for (i = 0; i < ARRAY_LEN(conc_names); i++)
		w_check(w, conc_names[i], w->added, BATCH);
	first = ku_rand_below(&w->seed, w->added + 1);
	w_check(w, "cc.blocked", first, BATCH);
	w_check(w, "cc.standard", first, BATCH);
	first = w->deleted + ku_rand_below(&w->seed, w->added + 1 - w->deleted);
	w_check(w, "cc.counting", first, BATCH);
	w->added += BATCH;
	if (w->added - w->deleted <= LIVE_MAX)
		return;
	ku_keys16(keys, w->id, w->deleted, BATCH);
	w_err(w, ku_keys(w->fd, KBLOOM_IOCTL_DEL, "cc.counting", keys,
			 sizeof(keys), 16, BATCH, NULL, &done, &hits));
	w->del_missed += BATCH - done;
	w->deleted += BATCH;
	w->ops++;
}

static void *w_main(void *arg)
{
	struct worker *w = arg;

	while (!conc_stop)
		w_round(w);
	return NULL;
}

FIXTURE(conc) {
	int fd;
};

FIXTURE_SETUP(conc)
{
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ku_destroy_all(self->fd));
}

FIXTURE_TEARDOWN(conc)
{
	ku_destroy_all(self->fd);
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
	close(self->fd);
}

TEST_F_TIMEOUT(conc, add_test_del, 120)
{
	const char *env = getenv("KBLOOM_CONC_SECONDS");
	double secs = env ? atof(env) : 10, t0;
	struct worker w[THREADS];
	struct kbloom_create c;
	__u64 total = 0;
	unsigned int i;

	ASSERT_EQ(0, ku_create_np(self->fd, "cc.blocked", KBLOOM_TYPE_BLOCKED,
				  1000000, 10000000000ULL, NULL));
	ASSERT_EQ(0, ku_create_np(self->fd, "cc.standard",
				  KBLOOM_TYPE_STANDARD, 1000000,
				  10000000000ULL, NULL));
	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	ku_name(c.name, "cc.counting");
	c.type = KBLOOM_TYPE_COUNTING;
	c.capacity = 100000;
	c.fpr_pico = 10000000000ULL;
	c.counter_bits = 8;
	ASSERT_EQ(0, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));

	conc_stop = 0;
	memset(w, 0, sizeof(w));
	for (i = 0; i < THREADS; i++) {
		w[i].fd = ku_open();
		ASSERT_LE(0, w[i].fd);
		w[i].id = 100 + i;
		w[i].seed = 0x9E3779B97F4A7C15ULL * (i + 1);
		ASSERT_EQ(0, pthread_create(&w[i].th, NULL, w_main, &w[i]));
	}
	t0 = now_s();
	while (now_s() - t0 < secs)
		usleep(100000);
	conc_stop = 1;
	for (i = 0; i < THREADS; i++) {
		ASSERT_EQ(0, pthread_join(w[i].th, NULL));
		close(w[i].fd);
		TH_LOG("thread %u: %llu ioctls, %llu keys added, %llu deleted",
		       i, (unsigned long long)w[i].ops,
		       (unsigned long long)w[i].added,
		       (unsigned long long)w[i].deleted);
		EXPECT_EQ(0, w[i].errors);
		if (w[i].errors)
			TH_LOG("thread %u: last error %d", i, w[i].last_err);
		EXPECT_EQ(0, w[i].fn);
		EXPECT_EQ(0, w[i].del_missed);
		EXPECT_LT(BATCH, w[i].added);
		total += w[i].added;
	}
	/* the counts add up: every add and delete was applied once */
	{
		struct kbloom_stat st;
		__u64 live = 0;

		ASSERT_EQ(0, ku_stat(self->fd, "cc.blocked", &st));
		EXPECT_EQ(total, st.inserted);
		for (i = 0; i < THREADS; i++)
			live += w[i].added - w[i].deleted;
		ASSERT_EQ(0, ku_stat(self->fd, "cc.counting", &st));
		EXPECT_EQ(live, st.inserted);
	}
}

struct reader {
	pthread_t th;
	int fd;
	int add;
	__u64 ok;
	__u64 enoent;
	__u64 other;
	int last;
};

static void *r_main(void *arg)
{
	static __u8 keys[1024 * 16];
	__u8 bits[1024 / 8];
	struct reader *r = arg;
	unsigned long cmd = r->add ? KBLOOM_IOCTL_ADD : KBLOOM_IOCTL_TEST;
	int ret;

	ku_keys16(keys, 7, 0, 1024);
	while (!conc_stop) {
		ret = ku_keys(r->fd, cmd, "victim", keys, sizeof(keys), 16,
			      1024, r->add ? NULL : bits, NULL, NULL);
		if (!ret) {
			__atomic_fetch_add(&r->ok, 1, __ATOMIC_RELAXED);
		} else if (ret == -ENOENT) {
			r->enoent++;
		} else {
			r->other++;
			r->last = ret;
		}
	}
	return NULL;
}

/*
 * Churn for 3 s, then on (up to 30 s) until every thread has had a call
 * succeed: on a slow guest a thread can be scheduled only in the windows
 * without a filter for a while, and the test must see each one race.
 */
static bool churn_more(struct reader *r, unsigned int n, double elapsed)
{
	unsigned int i;

	if (elapsed < 3)
		return true;
	if (elapsed >= 30)
		return false;
	for (i = 0; i < n; i++)
		if (!__atomic_load_n(&r[i].ok, __ATOMIC_RELAXED))
			return true;
	return false;
}

TEST_F_TIMEOUT(conc, destroy_under_readers, 120)
{
	struct reader r[3];
	void *img = NULL;
	__u64 len = 0, rounds = 0;
	unsigned int i;
	double t0;

	ASSERT_EQ(0, ku_create_mk(self->fd, "victim", KBLOOM_TYPE_COUNTING,
				  1 << 16, 4, 4, 0));
	ASSERT_EQ(0, ku_save(self->fd, "victim", &img, &len));
	conc_stop = 0;
	memset(r, 0, sizeof(r));
	for (i = 0; i < ARRAY_LEN(r); i++) {
		r[i].fd = ku_open();
		r[i].add = i == 2;
		ASSERT_EQ(0, pthread_create(&r[i].th, NULL, r_main, &r[i]));
	}
	t0 = now_s();
	while (churn_more(r, ARRAY_LEN(r), now_s() - t0)) {
		switch (rounds++ % 4) {
		case 0:
			EXPECT_EQ(0, ku_destroy(self->fd, "victim"));
			usleep(1000);
			EXPECT_EQ(0, ku_create_mk(self->fd, "victim",
						  KBLOOM_TYPE_BLOCKED, 1 << 16,
						  4, 0, 0));
			break;
		case 1:
			EXPECT_EQ(0, ku_restore(self->fd, "victim", img, len,
						KBLOOM_RESTORE_REPLACE));
			break;
		case 2:
			EXPECT_EQ(0, ku_name_cmd(self->fd, KBLOOM_IOCTL_FLUSH,
						 "victim", 0));
			break;
		default:
			EXPECT_EQ(0, ku_destroy_all(self->fd));
			EXPECT_EQ(0, ku_restore(self->fd, "", img, len, 0));
			break;
		}
	}
	conc_stop = 1;
	for (i = 0; i < ARRAY_LEN(r); i++) {
		ASSERT_EQ(0, pthread_join(r[i].th, NULL));
		close(r[i].fd);
		TH_LOG("%s %u: %llu ok, %llu ENOENT", r[i].add ? "adder" :
		       "reader", i, (unsigned long long)r[i].ok,
		       (unsigned long long)r[i].enoent);
		EXPECT_EQ(0, r[i].other);
		if (r[i].other)
			TH_LOG("unexpected error %d", r[i].last);
		EXPECT_LT(0, r[i].ok);
	}
	TH_LOG("%llu destroy/replace rounds", (unsigned long long)rounds);
	free(img);
}

TEST_HARNESS_MAIN
