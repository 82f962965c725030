// SPDX-License-Identifier: GPL-2.0
/*
 * KBLOOM_IOCTL_SWAP and KBLOOM_IOCTL_RENAME (ipset's swap and rename).
 *
 * swap_exchanges        two filters of different types exchange names:
 *                       type, id, keys and counts follow the filter
 * swap_errors           ENOENT (either or both missing), EINVAL (bad,
 *                       empty or the same name), EOPNOTSUPP (flags); after
 *                       each, both names still have their own filters
 * rename_moves          the filter answers under its new name only, with
 *                       its id and keys; LIST and SAVE use the new name
 * rename_errors         ENOENT, EEXIST (the new name in use), EINVAL;
 *                       nothing changes
 * swap_readers          reader threads TEST both names by ioctl during
 *                       2,000+ swaps (and 1,000+ calls each): 0 ENOENT, 0 misses of a key both
 *                       filters hold
 * swap_kfunc_readers    an XDP program (bpf_kbloom_get() by name) during
 *                       swaps: never "no filter"
 * rename_chain_readers  a filter renamed along n0 -> n1 -> ... while a
 *                       reader follows it: a name it has not left yet is
 *                       never absent (the new binding comes first)
 */
#include <pthread.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "guest_harness.h"
#include "kmod_util.h"
#include "uapi/kbloom_kfunc.h"
#include "tests/kmod/kfunc_xdp.skel.h"

#define SW_SWAPS	2000
#define SW_RENAMES	1500

static int sw_swap(int fd, const char *a, const char *b)
{
	return ku_name_pair(fd, KBLOOM_IOCTL_SWAP, a, b, 0);
}

static int sw_rename(int fd, const char *a, const char *b)
{
	return ku_name_pair(fd, KBLOOM_IOCTL_RENAME, a, b, 0);
}

/* The id of @name, or -errno. */
static long sw_id(int fd, const char *name)
{
	struct kbloom_stat st = { .size = sizeof(st) };
	int ret;

	ku_name(st.name, name);
	ret = ku_ioctl(fd, KBLOOM_IOCTL_STAT, &st);
	return ret ? ret : (long)st.id;
}

static __u32 sw_type(int fd, const char *name)
{
	struct kbloom_stat st = { .size = sizeof(st) };

	ku_name(st.name, name);
	return ku_ioctl(fd, KBLOOM_IOCTL_STAT, &st) ? 0 : st.type;
}

/* 1 when key @i of @space tests present in @name, 0 absent, or -errno. */
static int sw_has(int fd, const char *name, __u32 space, __u32 i)
{
	__u8 key[16];
	__u32 hits = 0;
	int ret;

	ku_key16(key, space, i);
	ret = ku_keys(fd, KBLOOM_IOCTL_TEST, name, key, 16, 16, 1, NULL, NULL,
		      &hits);
	return ret ? ret : (int)hits;
}

static int sw_add(int fd, const char *name, __u32 space, __u32 n)
{
	static __u8 keys[64 * 16];

	ku_keys16(keys, space, 0, n);
	return ku_keys(fd, KBLOOM_IOCTL_ADD, name, keys, 16 * n, 16, n, NULL,
		       NULL, NULL);
}

FIXTURE(sw) {
	int fd;
	long ida, idb;
};

FIXTURE_SETUP(sw)
{
	self->fd = ku_open();
	if (self->fd < 0)
		SKIP(return, "%s: %s (kbloom.ko not loaded)", KBLOOM_DEVICE,
		     strerror(errno));
	ku_destroy_all(self->fd);
	ASSERT_EQ(0, ku_create_mk(self->fd, "sw.a", KBLOOM_TYPE_COUNTING,
				  1 << 16, 4, 4, 0));
	ASSERT_EQ(0, ku_create_mk(self->fd, "sw.b", KBLOOM_TYPE_BLOCKED,
				  1 << 16, 4, 0, 0));
	ASSERT_EQ(0, sw_add(self->fd, "sw.a", 1, 64));
	ASSERT_EQ(0, sw_add(self->fd, "sw.b", 2, 64));
	self->ida = sw_id(self->fd, "sw.a");
	self->idb = sw_id(self->fd, "sw.b");
	ASSERT_LT(0, self->ida);
	ASSERT_LT(0, self->idb);
}

FIXTURE_TEARDOWN(sw)
{
	if (self->fd < 0)
		return;
	ku_destroy_all(self->fd);
	close(self->fd);
}

/* Both names still have the filters of the setup. */
#define EXPECT_UNCHANGED() do {						\
	EXPECT_EQ(self->ida, sw_id(self->fd, "sw.a"));			\
	EXPECT_EQ(self->idb, sw_id(self->fd, "sw.b"));			\
	EXPECT_EQ(KBLOOM_TYPE_COUNTING, sw_type(self->fd, "sw.a"));	\
} while (0)

TEST_F(sw, swap_exchanges)
{
	struct kbloom_stat st = { .size = sizeof(st) };
	__u32 i, missing = 0;

	ASSERT_EQ(0, sw_swap(self->fd, "sw.a", "sw.b"));
	EXPECT_EQ(self->idb, sw_id(self->fd, "sw.a"));
	EXPECT_EQ(self->ida, sw_id(self->fd, "sw.b"));
	EXPECT_EQ(KBLOOM_TYPE_BLOCKED, sw_type(self->fd, "sw.a"));
	EXPECT_EQ(KBLOOM_TYPE_COUNTING, sw_type(self->fd, "sw.b"));
	for (i = 0; i < 64; i++)
		missing += (sw_has(self->fd, "sw.a", 2, i) != 1) +
			   (sw_has(self->fd, "sw.b", 1, i) != 1);
	EXPECT_EQ(0, missing);
	ku_name(st.name, "sw.b");
	ASSERT_EQ(0, ku_ioctl(self->fd, KBLOOM_IOCTL_STAT, &st));
	EXPECT_EQ(64, st.inserted);
	/* the device's totals do not move */
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	st.flags = KBLOOM_STAT_DEVICE;
	ASSERT_EQ(0, ku_ioctl(self->fd, KBLOOM_IOCTL_STAT, &st));
	EXPECT_EQ(2, st.filters);
	/* and back */
	ASSERT_EQ(0, sw_swap(self->fd, "sw.b", "sw.a"));
	EXPECT_UNCHANGED();
}

TEST_F(sw, swap_errors)
{
	char raw[KBLOOM_NAME_LEN];
	struct kbloom_name_pair p = { .size = sizeof(p) };

	EXPECT_EQ(-ENOENT, sw_swap(self->fd, "sw.a", "sw.none"));
	EXPECT_EQ(-ENOENT, sw_swap(self->fd, "sw.none", "sw.b"));
	EXPECT_EQ(-ENOENT, sw_swap(self->fd, "sw.none", "sw.none2"));
	EXPECT_EQ(-EINVAL, sw_swap(self->fd, "sw.a", "sw.a"));
	EXPECT_EQ(-EINVAL, sw_swap(self->fd, "sw.a", "bad/name"));
	EXPECT_EQ(-EINVAL, sw_swap(self->fd, "", "sw.b"));
	EXPECT_EQ(-EINVAL, sw_swap(self->fd, "sw.a", ""));
	EXPECT_EQ(-EOPNOTSUPP, ku_name_pair(self->fd, KBLOOM_IOCTL_SWAP,
					    "sw.a", "sw.b", 1));
	/* a name not NUL-padded to the end of its field */
	ku_name(p.name, "sw.a");
	memset(raw, 0, sizeof(raw));
	memcpy(raw, "sw.b", 4);
	raw[20] = 'x';
	memcpy(p.other, raw, sizeof(raw));
	EXPECT_EQ(-EINVAL, ku_ioctl(self->fd, KBLOOM_IOCTL_SWAP, &p));
	EXPECT_UNCHANGED();
}

TEST_F(sw, rename_moves)
{
	struct kbloom_list_entry ents[4];
	struct kbloom_list l = {
		.size = sizeof(l), .count = 4, .entries = (uintptr_t)ents,
	};
	struct kbloom_image_hdr *h;
	void *img = NULL;
	__u64 len = 0;
	__u32 i, missing = 0;

	ASSERT_EQ(0, sw_rename(self->fd, "sw.a", "sw.c"));
	EXPECT_EQ(-ENOENT, sw_id(self->fd, "sw.a"));
	EXPECT_EQ(self->ida, sw_id(self->fd, "sw.c"));
	for (i = 0; i < 64; i++)
		missing += sw_has(self->fd, "sw.c", 1, i) != 1;
	EXPECT_EQ(0, missing);
	EXPECT_EQ(-ENOENT, sw_has(self->fd, "sw.a", 1, 0));
	ASSERT_EQ(0, ku_ioctl(self->fd, KBLOOM_IOCTL_LIST, &l));
	ASSERT_EQ(2, l.count);
	EXPECT_STREQ("sw.b", ents[0].name);
	EXPECT_STREQ("sw.c", ents[1].name);
	EXPECT_EQ(self->ida, ents[1].id);
	/* SAVE names the image after the filter's current name */
	ASSERT_EQ(0, ku_save(self->fd, "sw.c", &img, &len));
	h = img;
	EXPECT_STREQ("sw.c", h->name);
	free(img);
	/* the old name is free again */
	EXPECT_EQ(0, ku_create_mk(self->fd, "sw.a", KBLOOM_TYPE_BLOCKED, 512,
				  1, 0, 0));
}

TEST_F(sw, rename_errors)
{
	EXPECT_EQ(-ENOENT, sw_rename(self->fd, "sw.none", "sw.c"));
	EXPECT_EQ(-ENOENT, sw_id(self->fd, "sw.c"));
	EXPECT_EQ(-EEXIST, sw_rename(self->fd, "sw.a", "sw.b"));
	EXPECT_EQ(-EINVAL, sw_rename(self->fd, "sw.a", "sw.a"));
	EXPECT_EQ(-EINVAL, sw_rename(self->fd, "sw.a", "bad name"));
	EXPECT_EQ(-EINVAL, sw_rename(self->fd, "", "sw.c"));
	EXPECT_EQ(-EINVAL, sw_rename(self->fd, "sw.a", ""));
	EXPECT_EQ(-EOPNOTSUPP, ku_name_pair(self->fd, KBLOOM_IOCTL_RENAME,
					    "sw.a", "sw.c", 1));
	EXPECT_EQ(-ENOENT, sw_id(self->fd, "sw.c"));
	EXPECT_UNCHANGED();
}

struct sw_reader {
	pthread_t th;
	const char *name;
	__u64 calls, enoent, misses, errors;
};

static volatile int sw_stop;

/* TEST of a key that both filters hold, by name, until sw_stop. */
static void *sw_read(void *arg)
{
	struct sw_reader *r = arg;
	int fd = ku_open(), ret;

	if (fd < 0) {
		r->errors++;
		return NULL;
	}
	while (!sw_stop) {
		ret = sw_has(fd, r->name, 3, r->calls % 8);
		__atomic_fetch_add(&r->calls, 1, __ATOMIC_RELAXED);
		if (ret == -ENOENT)
			r->enoent++;
		else if (ret < 0)
			r->errors++;
		else if (!ret)
			r->misses++;
	}
	close(fd);
	return NULL;
}

static __u64 sw_calls(struct sw_reader *r)
{
	return __atomic_load_n(&r->calls, __ATOMIC_RELAXED);
}

TEST_F(sw, swap_readers)
{
	struct sw_reader r[2] = { { .name = "sw.a" }, { .name = "sw.b" } };
	int i, swaps = 0, failed = 0;

	ASSERT_EQ(0, sw_add(self->fd, "sw.a", 3, 8));
	ASSERT_EQ(0, sw_add(self->fd, "sw.b", 3, 8));
	sw_stop = 0;
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&r[i].th, NULL, sw_read, &r[i]));
	/* at least SW_SWAPS, and until each reader made 1,000 calls */
	for (; swaps < SW_SWAPS || sw_calls(&r[0]) < 1000 ||
	       sw_calls(&r[1]) < 1000; swaps++)
		failed += !!sw_swap(self->fd, "sw.a", "sw.b");
	sw_stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(r[i].th, NULL);
	TH_LOG("%d swaps; readers: %llu + %llu calls", swaps,
	       (unsigned long long)r[0].calls, (unsigned long long)r[1].calls);
	EXPECT_EQ(0, failed);
	for (i = 0; i < 2; i++) {
		EXPECT_LT(0, r[i].calls);
		EXPECT_EQ(0, r[i].enoent);
		EXPECT_EQ(0, r[i].misses);
		EXPECT_EQ(0, r[i].errors);
	}
	EXPECT_EQ(swaps % 2 ? self->idb : self->ida, sw_id(self->fd, "sw.a"));
}

struct sw_swapper {
	pthread_t th;
	int fd;
	__u64 swaps;
	int err;
};

static void *sw_swap_loop(void *arg)
{
	struct sw_swapper *s = arg;

	while (!sw_stop && !s->err) {
		s->err = sw_swap(s->fd, "sw.a", "sw.b");
		s->swaps++;
	}
	return NULL;
}

/* The frame of kf_key (kfunc_xdp.bpf.c): Ethernet header, length, key. */
struct sw_frame {
	__u8 eth[14];
	__u8 len;
	__u8 key[80];
} __attribute__((packed));

TEST_F(sw, swap_kfunc_readers)
{
	struct sw_swapper s = { .fd = self->fd };
	struct sw_frame fr = { .len = 16 };
	struct kfunc_xdp *skel;
	__u64 runs, bad = 0;
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = &fr,
		    .data_size_in = sizeof(fr), .repeat = 1);

	ASSERT_EQ(0, sw_add(self->fd, "sw.a", 3, 8));
	ASSERT_EQ(0, sw_add(self->fd, "sw.b", 3, 8));
	skel = kfunc_xdp__open_and_load();
	ASSERT_NE(NULL, skel) TH_LOG("the kfuncs need module BTF");
	memcpy(skel->bss->filter_name, "sw.a", 4);
	sw_stop = 0;
	ASSERT_EQ(0, pthread_create(&s.th, NULL, sw_swap_loop, &s));
	for (runs = 0; runs < 20000 || s.swaps < 200; runs++) {
		ku_key16(fr.key, 3, runs % 8);
		if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.kf_key),
					   &o) || o.retval != XDP_PASS)
			bad++;
	}
	sw_stop = 1;
	pthread_join(s.th, NULL);
	TH_LOG("%llu runs, %llu swaps", (unsigned long long)runs,
	       (unsigned long long)s.swaps);
	EXPECT_EQ(0, s.err);
	EXPECT_EQ(0, bad);
	kfunc_xdp__destroy(skel);
}

struct sw_chain {
	pthread_t th;
	int fd;
	int started;		/* renames begun (atomic) */
	int err;
};

static void sw_chain_name(char *buf, size_t len, int i)
{
	snprintf(buf, len, "rn.%d", i);
}

static void *sw_chain_loop(void *arg)
{
	struct sw_chain *c = arg;
	char from[KBLOOM_NAME_LEN], to[KBLOOM_NAME_LEN];
	int i;

	for (i = 0; i < SW_RENAMES && !c->err; i++) {
		sw_chain_name(from, sizeof(from), i);
		sw_chain_name(to, sizeof(to), i + 1);
		__atomic_store_n(&c->started, i + 1, __ATOMIC_SEQ_CST);
		c->err = sw_rename(c->fd, from, to);
	}
	return NULL;
}

/*
 * The reader follows the filter: it tests rn.j and moves to rn.j+1 when
 * rn.j is gone.  rn.j may only be gone once the rename of rn.j began
 * (started > j); before that, ENOENT is a name that was briefly neither.
 */
TEST_F(sw, rename_chain_readers)
{
	struct sw_chain c = { .fd = self->fd };
	__u64 calls = 0, early = 0;
	char name[KBLOOM_NAME_LEN];
	int j = 0, ret;

	ASSERT_EQ(0, sw_rename(self->fd, "sw.a", "rn.0"));
	ASSERT_EQ(0, pthread_create(&c.th, NULL, sw_chain_loop, &c));
	while (j < SW_RENAMES) {
		sw_chain_name(name, sizeof(name), j);
		ret = sw_has(self->fd, name, 1, calls % 64);
		calls++;
		if (ret == 1)
			continue;
		if (ret != -ENOENT ||
		    __atomic_load_n(&c.started, __ATOMIC_SEQ_CST) <= j) {
			early++;
			TH_LOG("rn.%d: %d with %d renames begun", j, ret,
			       c.started);
			break;
		}
		j++;
	}
	pthread_join(c.th, NULL);
	TH_LOG("%llu lookups along %d renames", (unsigned long long)calls, j);
	EXPECT_EQ(0, c.err);
	EXPECT_EQ(0, early);
	EXPECT_EQ(SW_RENAMES, j);
	EXPECT_EQ(self->ida, sw_id(self->fd, "rn.1500"));
}

TEST_HARNESS_MAIN
