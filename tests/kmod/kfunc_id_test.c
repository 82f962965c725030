// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_kbloom_test_id(): XDP lookups of kbloom.ko's filters by filter id,
 * without a name lookup or a reference per packet, under
 * BPF_PROG_TEST_RUN in the guest with the module loaded.
 *
 * equals_ioctl          per type, the id's answers equal KBLOOM_IOCTL_TEST
 *                       on 1,000 keys added and 1,000 others
 * errors                id 0, an id never given and a destroyed filter's
 *                       id answer -ENOENT; key lengths 0 and 65 -EINVAL,
 *                       64 an answer
 * swap_keeps_filters    after SWAP each id still tests its own filter, and
 *                       STAT of the other name reports it
 * replace_gives_new_id  RESTORE --replace: the old id answers -ENOENT, the
 *                       name's new id answers from the restored filter
 * destroy_under_test    a thread creates, fills and destroys filters and
 *                       publishes each one's id while the program runs:
 *                       every answer is 1, 0 or -ENOENT (the guest's
 *                       slub_debug poisons freed filters)
 *
 * KBLOOM_KFUNC_SECONDS (default 2) sets the length of the churn test.
 */
#include <pthread.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "guest_harness.h"
#include "kmod_util.h"
#include "uapi/kbloom_kfunc.h"
#include "tests/kmod/kfunc_id.skel.h"

#define KI_HDR		14
#define KI_KEY_BUF	80
#define KI_KEYS		1000

struct ki_frame {
	__u8 eth[KI_HDR];
	__u8 len;
	__u8 key[KI_KEY_BUF];
} __attribute__((packed));

static int ki_need(void)
{
	return !access("/sys/kernel/btf/kbloom", F_OK);
}

/* One run of kf_id on a key of @len bytes: its verdict or -errno. */
static int ki_run(struct kfunc_id *skel, const void *key, __u32 len)
{
	struct ki_frame fr = {};
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = &fr,
		.data_size_in = sizeof(fr),
		.repeat = 1,
	);

	fr.len = len;
	memcpy(fr.key, key, len < KI_KEY_BUF ? len : KI_KEY_BUF);
	if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.kf_id), &o))
		return -errno;
	return o.retval;
}

/* The kfunc's answer for @key in filter @id: 1, 0 or its -errno. */
static int ki_answer(struct kfunc_id *skel, __u32 id, const void *key,
		     __u32 len)
{
	int v;

	skel->bss->filter_id = id;
	v = ki_run(skel, key, len);
	if (v == XDP_PASS)
		return 1;
	if (v == XDP_DROP)
		return 0;
	if (v == XDP_TX)
		return skel->bss->last_ret;
	return v < 0 ? v : -EPROTO;
}

static int ki_ioctl_test(int fd, const char *name, const void *key)
{
	__u32 hits = 0;
	int ret;

	ret = ku_keys(fd, KBLOOM_IOCTL_TEST, name, key, 16, 16, 1, NULL, NULL,
		      &hits);
	return ret ? ret : (int)hits;
}

/* The id of @name, or 0. */
static __u32 ki_id(int fd, const char *name)
{
	struct kbloom_stat st;

	return ku_stat(fd, name, &st) ? 0 : st.id;
}

static int ki_fill(int fd, const char *name, __u32 space)
{
	static __u8 keys[KI_KEYS * 16];

	ku_keys16(keys, space, 0, KI_KEYS);
	return ku_keys(fd, KBLOOM_IOCTL_ADD, name, keys, sizeof(keys), 16,
		       KI_KEYS, NULL, NULL, NULL);
}

FIXTURE(ki) {
	int fd;
	struct kfunc_id *skel;
};

FIXTURE_SETUP(ki)
{
	if (!ki_need())
		TH_LOG("FAIL: kbloom.ko has no BTF: no kfuncs");
	ASSERT_TRUE(ki_need());
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	self->skel = kfunc_id__open_and_load();
	ASSERT_NE(NULL, self->skel);
}

FIXTURE_TEARDOWN(ki)
{
	kfunc_id__destroy(self->skel);
	ku_destroy(self->fd, "ki.a");
	ku_destroy(self->fd, "ki.b");
	close(self->fd);
}

static const __u32 ki_types[] = {
	KBLOOM_TYPE_STANDARD, KBLOOM_TYPE_BLOCKED, KBLOOM_TYPE_COUNTING,
	KBLOOM_TYPE_CUCKOO, KBLOOM_TYPE_PARTITIONED,
};

static int ki_create(int fd, const char *name, __u32 type)
{
	ku_destroy(fd, name);
	if (type == KBLOOM_TYPE_CUCKOO || type == KBLOOM_TYPE_PARTITIONED)
		return ku_create_np(fd, name, type, 20000, 1000000000, NULL);
	return ku_create_mk(fd, name, type, 1 << 16, 4,
			    type == KBLOOM_TYPE_COUNTING ? 4 : 0, 0);
}

TEST_F(ki, equals_ioctl)
{
	__u32 t, id, i, diff, present;
	__u8 key[16];

	for (t = 0; t < ARRAY_LEN(ki_types); t++) {
		ASSERT_EQ(0, ki_create(self->fd, "ki.a", ki_types[t]));
		ASSERT_EQ(0, ki_fill(self->fd, "ki.a", 1));
		id = ki_id(self->fd, "ki.a");
		ASSERT_NE(0, id);
		diff = 0;
		present = 0;
		for (i = 0; i < 2 * KI_KEYS; i++) {
			ku_key16(key, i < KI_KEYS ? 1 : 2, i % KI_KEYS);
			if (ki_answer(self->skel, id, key, 16) !=
			    ki_ioctl_test(self->fd, "ki.a", key))
				diff++;
			present += i < KI_KEYS &&
				   ki_answer(self->skel, id, key, 16) == 1;
		}
		TH_LOG("type %u: id %u, %u of %u added keys present, %u differences",
		       ki_types[t], id, present, KI_KEYS, diff);
		EXPECT_EQ(0, diff);
		EXPECT_EQ(KI_KEYS, present);
	}
}

TEST_F(ki, errors)
{
	__u8 key[KI_KEY_BUF] = { 1 };
	__u32 id;

	EXPECT_EQ(-ENOENT, ki_answer(self->skel, 0, key, 16));
	EXPECT_EQ(-ENOENT, ki_answer(self->skel, 0xfffffff0u, key, 16));
	ASSERT_EQ(0, ki_create(self->fd, "ki.a", KBLOOM_TYPE_BLOCKED));
	id = ki_id(self->fd, "ki.a");
	ASSERT_NE(0, id);
	EXPECT_EQ(-EINVAL, ki_answer(self->skel, id, key, 0));
	EXPECT_EQ(-EINVAL, ki_answer(self->skel, id, key, KBLOOM_KEY_MAX + 1));
	EXPECT_EQ(0, ki_answer(self->skel, id, key, KBLOOM_KEY_MAX));
	EXPECT_EQ(0, ku_destroy(self->fd, "ki.a"));
	EXPECT_EQ(-ENOENT, ki_answer(self->skel, id, key, 16));
	/* a new filter of the same name has another id */
	ASSERT_EQ(0, ki_create(self->fd, "ki.a", KBLOOM_TYPE_BLOCKED));
	EXPECT_NE(id, ki_id(self->fd, "ki.a"));
	EXPECT_EQ(-ENOENT, ki_answer(self->skel, id, key, 16));
}

TEST_F(ki, swap_keeps_filters)
{
	__u32 ida, idb, i, a_hits = 0, b_hits = 0;
	__u8 key[16];

	ASSERT_EQ(0, ki_create(self->fd, "ki.a", KBLOOM_TYPE_BLOCKED));
	ASSERT_EQ(0, ki_create(self->fd, "ki.b", KBLOOM_TYPE_BLOCKED));
	ASSERT_EQ(0, ki_fill(self->fd, "ki.a", 3));
	ida = ki_id(self->fd, "ki.a");
	idb = ki_id(self->fd, "ki.b");
	ASSERT_EQ(0, ku_name_pair(self->fd, KBLOOM_IOCTL_SWAP, "ki.a", "ki.b",
				  0));
	EXPECT_EQ(ida, ki_id(self->fd, "ki.b"));
	EXPECT_EQ(idb, ki_id(self->fd, "ki.a"));
	for (i = 0; i < KI_KEYS; i++) {
		ku_key16(key, 3, i);
		a_hits += ki_answer(self->skel, ida, key, 16) == 1;
		b_hits += ki_answer(self->skel, idb, key, 16) == 1;
	}
	TH_LOG("after SWAP: id %u has %u of %u keys, id %u (empty) %u",
	       ida, a_hits, KI_KEYS, idb, b_hits);
	EXPECT_EQ(KI_KEYS, a_hits);
	EXPECT_EQ(0, b_hits);
}

TEST_F(ki, replace_gives_new_id)
{
	__u32 old, now;
	__u64 len = 0;
	void *img = NULL;
	__u8 key[16];

	ASSERT_EQ(0, ki_create(self->fd, "ki.b", KBLOOM_TYPE_BLOCKED));
	ASSERT_EQ(0, ki_fill(self->fd, "ki.b", 4));
	ASSERT_EQ(0, ku_save(self->fd, "ki.b", &img, &len));
	ASSERT_EQ(0, ki_create(self->fd, "ki.a", KBLOOM_TYPE_BLOCKED));
	old = ki_id(self->fd, "ki.a");
	ASSERT_EQ(0, ku_restore(self->fd, "ki.a", img, len,
				KBLOOM_RESTORE_REPLACE));
	free(img);
	now = ki_id(self->fd, "ki.a");
	EXPECT_NE(0, now);
	EXPECT_NE(old, now);
	ku_key16(key, 4, 9);
	EXPECT_EQ(-ENOENT, ki_answer(self->skel, old, key, 16));
	EXPECT_EQ(1, ki_answer(self->skel, now, key, 16));
}

struct ki_churn {
	struct kfunc_id *skel;
	volatile int *stop;
	__u64 rounds;
	int err;
};

static void *ki_churn_fn(void *arg)
{
	struct ki_churn *c = arg;
	__u8 key[16];
	int fd = ku_open(), ret = fd < 0 ? fd : 0;

	ku_key16(key, 5, 5);
	while (!ret && !*c->stop) {
		ret = ki_create(fd, "ki.gone", KBLOOM_TYPE_COUNTING);
		c->skel->bss->filter_id = ret ? 0 : ki_id(fd, "ki.gone");
		ret = ret ?: ku_keys(fd, KBLOOM_IOCTL_ADD, "ki.gone", key, 16,
				     16, 1, NULL, NULL, NULL);
		ret = ret ?: ku_destroy(fd, "ki.gone");
		c->rounds++;
	}
	c->err = ret;
	if (fd >= 0)
		close(fd);
	return NULL;
}

static double ki_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

TEST_F(ki, destroy_under_test)
{
	const char *s = getenv("KBLOOM_KFUNC_SECONDS");
	struct ki_churn c = { .skel = self->skel };
	volatile int stop = 0;
	__u64 *ans = self->skel->bss->answers;
	struct ki_frame fr = { .len = 16 };
	double end;
	pthread_t th;
	int v;
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = &fr,
		.data_size_in = sizeof(fr),
		.repeat = 1,
	);

	ku_key16(fr.key, 5, 5);
	c.stop = &stop;
	ASSERT_EQ(0, pthread_create(&th, NULL, ki_churn_fn, &c));
	end = ki_now() + (s ? atof(s) : 2.0) / 2;
	while (ki_now() < end) {
		v = bpf_prog_test_run_opts(bpf_program__fd(self->skel->progs.kf_id),
					   &o);
		if (v)
			break;
	}
	stop = 1;
	pthread_join(th, NULL);
	EXPECT_EQ(0, v);
	EXPECT_EQ(0, c.err);
	TH_LOG("%llu create/destroy rounds: present %llu, absent %llu, no filter %llu, other %llu",
	       (unsigned long long)c.rounds, (unsigned long long)ans[1],
	       (unsigned long long)ans[0], (unsigned long long)ans[2],
	       (unsigned long long)ans[3]);
	EXPECT_EQ(0, ans[3]);
	EXPECT_LT(0, ans[0] + ans[1]);
	EXPECT_LT(0, ans[2]);
	ku_destroy(self->fd, "ki.gone");
}

TEST_HARNESS_MAIN
