// SPDX-License-Identifier: GPL-2.0
/*
 * A name being swapped never looks absent: while one thread RESTOREs
 * (with KBLOOM_RESTORE_REPLACE) the same name over and over, reader
 * threads hammer it with KBLOOM_IOCTL_TEST and KBLOOM_IOCTL_STAT by name.
 * Every call must succeed: no ENOENT (kb_filter_get() walks the registry
 * again when it finds the filter being replaced, whose last reference is
 * gone), and every key of the image is found in both the old and the new
 * filter.  3 s (KBLOOM_RR_SECONDS overrides).
 *
 * Then DESTROY + CREATE under the same readers instead of a swap, where
 * ENOENT is the right answer between the two: the readers see success or
 * ENOENT, nothing else.
 */
#include <pthread.h>
#include <time.h>
#include "guest_harness.h"
#include "kmod_util.h"

#define RR_NAME		"rr.swap"
#define RR_READERS	2
#define RR_KEYS		8

struct rr_reader {
	pthread_t th;
	int fd;
	__u64 calls;
	__u64 enoent;
	__u64 misses;		/* keys of the image not found */
	__u64 errors;		/* anything else */
	int last_err;
};

static volatile int rr_stop;

static double rr_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double rr_seconds(void)
{
	const char *s = getenv("KBLOOM_RR_SECONDS");
	double v = s ? atof(s) : 0;

	return v > 0 ? v : 3;
}

static void rr_count(struct rr_reader *r, int ret)
{
	r->calls++;
	if (ret == -ENOENT) {
		r->enoent++;
	} else if (ret) {
		r->errors++;
		r->last_err = ret;
	}
}

static void *rr_read(void *arg)
{
	struct rr_reader *r = arg;
	__u8 keys[RR_KEYS * 16];
	struct kbloom_stat st;
	__u32 hits;
	int ret;

	ku_keys16(keys, 7, 0, RR_KEYS);
	while (!rr_stop) {
		hits = 0;
		ret = ku_keys(r->fd, KBLOOM_IOCTL_TEST, RR_NAME, keys,
			      sizeof(keys), 16, RR_KEYS, NULL, NULL, &hits);
		rr_count(r, ret);
		if (!ret)
			r->misses += RR_KEYS - hits;
		rr_count(r, ku_stat(r->fd, RR_NAME, &st));
	}
	return NULL;
}

FIXTURE(rr) {
	int fd;
	void *img;
	__u64 img_len;
	struct rr_reader rd[RR_READERS];
};

static int rr_create(int fd)
{
	__u8 keys[RR_KEYS * 16];
	int ret;

	ret = ku_create_mk(fd, RR_NAME, KBLOOM_TYPE_COUNTING, 1 << 12, 4, 4, 0);
	ku_keys16(keys, 7, 0, RR_KEYS);
	return ret ?: ku_keys(fd, KBLOOM_IOCTL_ADD, RR_NAME, keys,
			      sizeof(keys), 16, RR_KEYS, NULL, NULL, NULL);
}

FIXTURE_SETUP(rr)
{
	int i;

	self->img = NULL;
	self->fd = ku_open();
	ASSERT_LE(0, self->fd) TH_LOG("%s: %s", KBLOOM_DEVICE, strerror(errno));
	ku_destroy(self->fd, RR_NAME);
	ASSERT_EQ(0, rr_create(self->fd));
	ASSERT_EQ(0, ku_save(self->fd, RR_NAME, &self->img, &self->img_len));
	for (i = 0; i < RR_READERS; i++) {
		memset(&self->rd[i], 0, sizeof(self->rd[i]));
		self->rd[i].fd = ku_open();
		ASSERT_LE(0, self->rd[i].fd);
	}
}

FIXTURE_TEARDOWN(rr)
{
	int i;

	for (i = 0; i < RR_READERS; i++)
		if (self->rd[i].fd >= 0)
			close(self->rd[i].fd);
	if (self->fd >= 0) {
		ku_destroy(self->fd, RR_NAME);
		close(self->fd);
	}
	free(self->img);
}

static void rr_start(FIXTURE_DATA(rr) *self)
{
	int i;

	rr_stop = 0;
	for (i = 0; i < RR_READERS; i++)
		pthread_create(&self->rd[i].th, NULL, rr_read, &self->rd[i]);
}

static void rr_join(FIXTURE_DATA(rr) *self, struct rr_reader *sum)
{
	int i;

	rr_stop = 1;
	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < RR_READERS; i++) {
		pthread_join(self->rd[i].th, NULL);
		sum->calls += self->rd[i].calls;
		sum->enoent += self->rd[i].enoent;
		sum->misses += self->rd[i].misses;
		sum->errors += self->rd[i].errors;
		if (self->rd[i].last_err)
			sum->last_err = self->rd[i].last_err;
	}
}

TEST_F_TIMEOUT(rr, replace_never_enoent, 120)
{
	double end = rr_now() + rr_seconds();
	struct rr_reader sum;
	__u64 swaps = 0, failed = 0;
	struct kbloom_stat st;
	__u32 id0;

	ASSERT_EQ(0, ku_stat(self->fd, RR_NAME, &st));
	id0 = st.id;
	rr_start(self);
	while (rr_now() < end) {
		if (ku_restore(self->fd, RR_NAME, self->img, self->img_len,
			       KBLOOM_RESTORE_REPLACE))
			failed++;
		else
			swaps++;
	}
	rr_join(self, &sum);
	TH_LOG("%llu swaps, %llu reader calls, %llu ENOENT",
	       (unsigned long long)swaps, (unsigned long long)sum.calls,
	       (unsigned long long)sum.enoent);
	EXPECT_EQ(0, failed);
	EXPECT_LT(10, swaps);
	EXPECT_LT(100, sum.calls);
	EXPECT_EQ(0, sum.enoent);
	EXPECT_EQ(0, sum.misses);
	EXPECT_EQ(0, sum.errors) TH_LOG("last error %d", sum.last_err);
	/* every swap published a new filter */
	ASSERT_EQ(0, ku_stat(self->fd, RR_NAME, &st));
	EXPECT_LE(id0 + swaps, st.id);
	EXPECT_EQ(RR_KEYS, st.inserted);
}

TEST_F_TIMEOUT(rr, destroy_create_enoent_seen, 120)
{
	double end = rr_now() + rr_seconds();
	struct rr_reader sum;
	__u64 rounds = 0;

	rr_start(self);
	while (rr_now() < end) {
		if (ku_destroy(self->fd, RR_NAME) || rr_create(self->fd))
			break;
		rounds++;
	}
	rr_join(self, &sum);
	TH_LOG("%llu rounds, %llu reader calls, %llu ENOENT",
	       (unsigned long long)rounds, (unsigned long long)sum.calls,
	       (unsigned long long)sum.enoent);
	EXPECT_LT(10, rounds);
	EXPECT_EQ(0, sum.errors) TH_LOG("last error %d", sum.last_err);
	/* a reader may land between DESTROY and CREATE: not asserted */
}

TEST_HARNESS_MAIN
