// SPDX-License-Identifier: GPL-2.0
/*
 * KBLOOM_IOCTL_ADD with a result bitmap (ABI 1.2): which keys were new.
 *
 * per_type            for each filter type: of the batch [a, p, a, b, p2]
 *                     where p and p2 are already in the filter, a and b
 *                     are new, the second a is not; hits = 2, done = 5;
 *                     the bits past the count are cleared; variable-length
 *                     keys the same
 * full_writes_nothing a cuckoo filter that fills up inside the batch:
 *                     ENOSPC, done = the keys added, the bitmap untouched
 * del_refuses_results DEL with a bitmap is still EINVAL
 * library_split       kbloom_dev_add_batch_new() over ioctls of 8 keys:
 *                     one bitmap for the whole set, the count of new keys
 * one_filter_per_call while two names are swapped without pause, each
 *                     round adds p to "an.a", then [p, q] with results to
 *                     "an.a": p is reported new exactly when that second
 *                     call hit the other filter, i.e. exactly when p ends
 *                     up in both filters (the answers and the inserts are
 *                     one call on one filter)
 */
#include <pthread.h>
#include <sched.h>
#include "guest_harness.h"
#include "kmod_util.h"
#include "libkbloom_dev.h"

#define AN_ROUNDS	1500

static const struct {
	const char *name;
	__u32 type;
} an_types[] = {
	{ "standard", KBLOOM_TYPE_STANDARD },
	{ "blocked", KBLOOM_TYPE_BLOCKED },
	{ "counting", KBLOOM_TYPE_COUNTING },
	{ "cuckoo", KBLOOM_TYPE_CUCKOO },
	{ "vi", KBLOOM_TYPE_VI_COUNTING },
	{ "dleft", KBLOOM_TYPE_DLEFT },
	{ "partitioned", KBLOOM_TYPE_PARTITIONED },
};

/* ADD of @n 16-byte keys with results into @bits; -errno or 0. */
static int an_add(int fd, const char *name, const __u8 *keys, __u32 n,
		  __u8 *bits, __u32 *done, __u32 *hits)
{
	return ku_keys(fd, KBLOOM_IOCTL_ADD, name, keys, 16 * n, 16, n, bits,
		       done, hits);
}

FIXTURE(an) {
	int fd;
};

FIXTURE_SETUP(an)
{
	self->fd = ku_open();
	if (self->fd < 0)
		SKIP(return, "%s: %s (kbloom.ko not loaded)", KBLOOM_DEVICE,
		     strerror(errno));
	ku_destroy_all(self->fd);
}

FIXTURE_TEARDOWN(an)
{
	if (self->fd < 0)
		return;
	ku_destroy_all(self->fd);
	close(self->fd);
}

TEST_F(an, per_type)
{
	__u8 keys[5 * 16], bits[2];
	/* variable keys: "a", "pp", "a", "bbb", "pp" */
	static const __u8 var[] = { 1, 'a', 2, 'p', 'p', 1, 'a',
				    3, 'b', 'b', 'b', 2, 'p', 'p' };
	__u32 done, hits, i;

	for (i = 0; i < ARRAY_LEN(an_types); i++) {
		TH_LOG("%s", an_types[i].name);
		ku_destroy(self->fd, "an");
		ASSERT_EQ(0, ku_create_np(self->fd, "an", an_types[i].type,
					  10000, 100000000ULL, NULL));
		ku_key16(keys + 16, 2, 1);		/* p */
		ku_key16(keys + 64, 2, 2);		/* p2 */
		ASSERT_EQ(0, an_add(self->fd, "an", keys + 16, 1, NULL, NULL,
				    NULL));
		ASSERT_EQ(0, an_add(self->fd, "an", keys + 64, 1, NULL, NULL,
				    NULL));
		ku_key16(keys, 1, 1);			/* a */
		ku_key16(keys + 32, 1, 1);		/* a again */
		ku_key16(keys + 48, 1, 2);		/* b */
		memset(bits, 0xff, sizeof(bits));
		EXPECT_EQ(0, an_add(self->fd, "an", keys, 5, bits, &done,
				    &hits));
		EXPECT_EQ(5, done);
		EXPECT_EQ(2, hits);
		EXPECT_EQ(0x09, bits[0]);	/* a and b; bits 5..7 cleared */
		EXPECT_EQ(0xff, bits[1]);	/* past the bitmap: untouched */
		memset(bits, 0, sizeof(bits));
		EXPECT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "an", var,
				     sizeof(var), 0, 5, bits, &done, &hits));
		EXPECT_EQ(0x0b, bits[0]);	/* a, pp (new here), bbb */
		EXPECT_EQ(3, hits);
	}
}

TEST_F(an, full_writes_nothing)
{
	static __u8 keys[256 * 16];
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_CUCKOO, .fp_bits = 8,
		.slots = 1, .buckets = 4,
	};
	__u8 bits[32];
	__u32 done = 0, hits = 0;

	ku_name(c.name, "an.full");
	ASSERT_EQ(0, ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &c));
	ku_keys16(keys, 3, 0, 256);
	memset(bits, 0xa5, sizeof(bits));
	EXPECT_EQ(-ENOSPC, an_add(self->fd, "an.full", keys, 256, bits, &done,
				  &hits));
	EXPECT_LT(0, done);
	EXPECT_GT(256, done);
	EXPECT_EQ(0xa5, bits[0]);
	EXPECT_EQ(0xa5, bits[31]);
}

TEST_F(an, del_refuses_results)
{
	__u8 key[16], bits[1] = { 0 };

	ku_key16(key, 4, 0);
	ASSERT_EQ(0, ku_create_mk(self->fd, "an.c", KBLOOM_TYPE_COUNTING, 4096,
				  3, 4, 0));
	ASSERT_EQ(0, an_add(self->fd, "an.c", key, 1, NULL, NULL, NULL));
	EXPECT_EQ(-EINVAL, ku_keys(self->fd, KBLOOM_IOCTL_DEL, "an.c", key, 16,
				   16, 1, bits, NULL, NULL));
}

TEST_F(an, library_split)
{
	struct kbloom_dev_batch b = { .max_keys = 8 };
	__u8 keys[20 * 16], fresh[3];
	__u32 i;

	ASSERT_EQ(0, ku_create_mk(self->fd, "an.l", KBLOOM_TYPE_BLOCKED,
				  1 << 16, 6, 0, 0));
	ku_keys16(keys, 7, 0, 20);
	/* keys 3, 9 and 17 are there already */
	for (i = 3; i < 20; i += i == 3 ? 6 : 8)
		ASSERT_EQ(0, an_add(self->fd, "an.l", keys + 16 * i, 1, NULL,
				    NULL, NULL));
	memset(fresh, 0xff, sizeof(fresh));
	EXPECT_EQ(17, kbloom_dev_add_batch_new(self->fd, "an.l", keys,
					       sizeof(keys), 16, 20, fresh,
					       &b));
	EXPECT_EQ(3, b.ioctls);
	EXPECT_EQ(20, b.done);
	EXPECT_EQ(0xf7, fresh[0]);	/* all but 3 */
	EXPECT_EQ(0xfd, fresh[1]);	/* all but 9 */
	EXPECT_EQ(0x0d, fresh[2]);	/* 16, 18, 19 of 16..19 */
	EXPECT_EQ(-EINVAL, kbloom_dev_add_batch_new(self->fd, "an.l", keys,
						    sizeof(keys), 16, 20,
						    NULL, &b));
}

struct an_swapper {
	pthread_t th;
	volatile int stop;
	__u64 swaps;
	int err;
};

static void *an_swap_loop(void *arg)
{
	struct an_swapper *s = arg;
	int fd = ku_open();

	while (fd >= 0 && !s->stop && !s->err) {
		s->err = ku_name_pair(fd, KBLOOM_IOCTL_SWAP, "an.a", "an.b", 0);
		s->swaps++;
	}
	if (fd < 0)
		s->err = -errno;
	else
		close(fd);
	return NULL;
}

/* 1 when key @i of @space tests present in @name. */
static int an_has(int fd, const char *name, __u32 space, __u32 i)
{
	__u8 key[16];
	__u32 hits = 0;

	ku_key16(key, space, i);
	ku_keys(fd, KBLOOM_IOCTL_TEST, name, key, 16, 16, 1, NULL, NULL,
		&hits);
	return hits;
}

TEST_F(an, one_filter_per_call)
{
	static __u8 was_new[AN_ROUNDS];
	struct an_swapper s = { 0 };
	__u32 i, wrong = 0, split = 0;
	__u8 keys[32], bits;
	int both;

	/* large filters: no false positive among these few keys */
	ASSERT_EQ(0, ku_create_mk(self->fd, "an.a", KBLOOM_TYPE_BLOCKED,
				  1 << 22, 8, 0, 0));
	ASSERT_EQ(0, ku_create_mk(self->fd, "an.b", KBLOOM_TYPE_BLOCKED,
				  1 << 22, 8, 0, 0));
	ASSERT_EQ(0, pthread_create(&s.th, NULL, an_swap_loop, &s));
	for (i = 0; i < AN_ROUNDS; i++) {
		ku_key16(keys, 5, i);			/* p */
		ku_key16(keys + 16, 6, i);		/* q */
		ASSERT_EQ(0, an_add(self->fd, "an.a", keys, 1, NULL, NULL,
				    NULL));
		sched_yield();	/* let the swapper in between */
		bits = 0;
		ASSERT_EQ(0, an_add(self->fd, "an.a", keys, 2, &bits, NULL,
				    NULL));
		ASSERT_EQ(2, bits & 2);			/* q is always new */
		was_new[i] = bits & 1;
	}
	s.stop = 1;
	pthread_join(s.th, NULL);
	EXPECT_EQ(0, s.err);
	for (i = 0; i < AN_ROUNDS; i++) {
		both = an_has(self->fd, "an.a", 5, i) &&
		       an_has(self->fd, "an.b", 5, i);
		split += both;
		wrong += was_new[i] != both;
	}
	TH_LOG("%u rounds, %llu swaps, %u rounds whose two adds hit two filters",
	       AN_ROUNDS, (unsigned long long)s.swaps, split);
	EXPECT_EQ(0, wrong);
	EXPECT_LT(0, split);
}

TEST_HARNESS_MAIN
