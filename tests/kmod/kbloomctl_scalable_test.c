// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl create NAME scalable|dynamic ... against the module: the
 * parameters reach the module (read back with STAT), add grows the filter
 * and stat prints one row per generation, del on a dynamic filter, save
 * and restore move the filter, every bad keyword is a usage error (exit
 * 2) naming it with nothing created, and plan has the two rows.
 */
#include <stdlib.h>

#include "guest_harness.h"
#include "kmod_util.h"
#include "core/kbloomctl_util.h"
#include "kbloomctl_create_util.h"
#include "uapi/kbloom_var_scalable.h"

#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))

FIXTURE(sc) {
	int fd;
	char img[64];
	char keys[64];
};

FIXTURE_SETUP(sc)
{
	FILE *f;
	int i;

	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ASSERT_OK(ku_destroy_all(self->fd));
	snprintf(self->img, sizeof(self->img), "/tmp/kbsc.%d.img", getpid());
	snprintf(self->keys, sizeof(self->keys), "/tmp/kbsc.%d.keys",
		 getpid());
	f = fopen(self->keys, "w");
	ASSERT_NE(NULL, f);
	for (i = 0; i < 5000; i++)
		fprintf(f, "key-%d\n", i);
	fclose(f);
}

FIXTURE_TEARDOWN(sc)
{
	unlink(self->img);
	unlink(self->keys);
	ku_destroy_all(self->fd);
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
	close(self->fd);
}

TEST_F(sc, create_grow_stat)
{
	struct kbloom_stat st;
	struct kbctl_res r;

	CTL(0, "", "create", "s", "scalable", "fpr", "1%", "capacity", "1000",
	    "growth", "4", "ratio", "0.8", "seed", "7");
	ASSERT_OK(ku_stat(self->fd, "s", &st));
	EXPECT_EQ(KBLOOM_TYPE_SCALABLE, st.type);
	EXPECT_EQ(1000, st.capacity);
	EXPECT_EQ(10000000000ULL, st.fpr_pico);
	EXPECT_EQ(4, st.tables);
	EXPECT_EQ(800000, st.buckets);
	EXPECT_EQ(1, st.slots);
	/* -exist: the same parameters again are fine */
	CTL(0, "", "-exist", "create", "s", "scalable", "fpr", "1%",
	    "capacity", "1000", "growth", "4", "ratio", "0.8", "seed", "7");
	CTL(0, NULL, "add", "s", "-f", self->keys);
	CTL(0, "key-1: possibly present\nkey-4999: possibly present\n",
	    "test", "s", "key-1", "key-4999");
	ASSERT_OK(ku_stat(self->fd, "s", &st));
	EXPECT_EQ(3, st.slots);		/* 1000 + 4000 < 5000 */
	EXPECT_EQ(0, kbctl_run(&r, "stat", "s"));
	EXPECT_NE(NULL, strstr(r.out, "type:         scalable\n"))
		TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out,
			       "scalable:     growth 4, ratio 0.8, 3 generations"))
		TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\n    2  ")) TH_LOG("%s", r.out);
	EXPECT_EQ(NULL, strstr(r.out, "\n    3  ")) TH_LOG("%s", r.out);
	kbctl_free(&r);

	/* defaults: capacity 1024, growth 2, ratio 0.9 */
	CTL(0, "", "create", "d", "scalable", "fpr", "0.1%");
	ASSERT_OK(ku_stat(self->fd, "d", &st));
	EXPECT_EQ(1024, st.capacity);
	EXPECT_EQ(2, st.tables);
	EXPECT_EQ(KB_SBF_RATIO_DEFAULT, st.buckets);
}

TEST_F(sc, dynamic_del_save_restore)
{
	struct kbloom_stat a, b;
	struct kbctl_res r;

	CTL(0, "", "create", "y", "dynamic", "fpr", "1%", "capacity", "2000",
	    "counter-bits", "8", "seed", "7");
	CTL(0, NULL, "add", "y", "-f", self->keys);
	ASSERT_OK(ku_stat(self->fd, "y", &a));
	EXPECT_EQ(KBLOOM_TYPE_DYNAMIC, a.type);
	EXPECT_EQ(8, a.counter_bits);
	EXPECT_EQ(3, a.slots);
	EXPECT_EQ(0, kbctl_run(&r, "stat", "y"));
	EXPECT_NE(NULL, strstr(r.out, "dynamic:      3 generations"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	CTL(0, NULL, "del", "y", "key-1");
	ASSERT_OK(ku_stat(self->fd, "y", &a));
	EXPECT_EQ(4999, a.inserted);
	ASSERT_EQ(0, kbctl_run(&r, "save", "y", "-o", self->img))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "restore", "y2", "-i", self->img))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	ASSERT_OK(ku_stat(self->fd, "y", &a));
	ASSERT_OK(ku_stat(self->fd, "y2", &b));
	EXPECT_EQ(KBLOOM_TYPE_DYNAMIC, b.type);
	EXPECT_EQ(a.m, b.m);
	EXPECT_EQ(a.slots, b.slots);
	EXPECT_EQ(a.ones, b.ones);
	EXPECT_EQ(a.inserted, b.inserted);
	CTL(0, "key-2: possibly present\n", "test", "y2", "key-2");
}

/*
 * The first key DEL refuses (several generations hold it), found through
 * the ioctl one key at a time: -1 when none is.
 */
static int refused_key(int fd, char key[32])
{
	int i, ret;

	for (i = 0; i < 5000; i++) {
		snprintf(key, 32, "key-%d", i);
		ret = ku_keys(fd, KBLOOM_IOCTL_DEL, "z", key, strlen(key),
			      strlen(key), 1, NULL, NULL, NULL);
		if (ret == -ENOTUNIQ)
			return i;
	}
	return -1;
}

/* del of a key in several generations: one line that says so. */
TEST_F(sc, dynamic_del_refused)
{
	struct kbctl_res r;
	int lines = 0;
	char key[32];
	const char *p;

	CTL(0, "", "create", "z", "dynamic", "fpr", "5%", "capacity", "1000",
	    "seed", "7");
	CTL(0, NULL, "add", "z", "-f", self->keys);
	ASSERT_LE(0, refused_key(self->fd, key));
	EXPECT_NE(0, kbctl_run(&r, "del", "z", key));
	EXPECT_NE(NULL, strstr(r.err, "several generations")) TH_LOG("%s", r.err);
	for (p = r.err; *p; p++)
		lines += *p == '\n';
	EXPECT_EQ(1, lines) TH_LOG("%s", r.err);
	kbctl_free(&r);
	CTL(0, NULL, "test", "z", key);
}

TEST_F(sc, bad_keywords)
{
	BAD(self->fd, "growth '17'", "scalable", "fpr", "1%", "growth", "17");
	BAD(self->fd, "ratio '1'", "scalable", "fpr", "1%", "ratio", "1");
	BAD(self->fd, "ratio 0.999999", "scalable", "fpr", "1e-9", "ratio",
	    "0.999999");
	BAD(self->fd, "missing fpr", "scalable", "capacity", "10");
	BAD(self->fd, "counter-bits", "scalable", "fpr", "1%",
	    "counter-bits", "4");
	BAD(self->fd, "capacity", "scalable", "fpr", "1%", "capacity", "0");
	BAD(self->fd, "counter-bits '5'", "dynamic", "fpr", "1%",
	    "counter-bits", "5");
	BAD(self->fd, "growth", "dynamic", "fpr", "1%", "growth", "2");
	BAD(self->fd, "ratio", "dynamic", "fpr", "1%", "ratio", "0.9");
	BAD(self->fd, "capacity 4294967296 fpr", "scalable", "fpr", "1%",
	    "capacity", "4294967296");
}

/* plan's scalable row: N keys in ten generations, <= 17 bits per key. */
TEST(plan_rows)
{
	unsigned long long m, b;
	struct kbctl_res r;
	const char *l;
	unsigned int k;
	double bpk, f;

	ASSERT_EQ(0, kbctl_run(&r, "plan", "capacity", "1000000", "fpr", "1%"));
	l = strstr(r.out, "\nscalable ");
	ASSERT_NE(NULL, l) TH_LOG("%s", r.out);
	ASSERT_EQ(5, sscanf(l + 10, "%llu %u %llu %lf %lf", &m, &k, &b, &bpk,
			    &f));
	EXPECT_LE(bpk, 17.0);
	EXPECT_LE(f, 0.01);
	EXPECT_NE(NULL, strstr(r.out, "\ndynamic/4 ")) TH_LOG("%s", r.out);
	kbctl_free(&r);
}

TEST_HARNESS_MAIN
