// SPDX-License-Identifier: GPL-2.0
/*
 * One partitioned filter, three executors: a filter of kbloom.ko (CREATE
 * partitioned, ADD of N keys) is saved (SAVE, a version-3 image), loaded
 * by libkbloom_partitioned and into BPF maps (libkbloom_xdp_part.h); for
 * the N keys and N absent keys the module (TEST batch), the library and
 * the BPF lookup (bpf/kbloom_partitioned.h, through the probe of
 * tests/bpf/xdp_partitioned.bpf.c, BPF_PROG_TEST_RUN) give the same answer
 * for every key, and every present key is found by all three.  Keys added
 * from BPF, saved from the maps, restore into the module, which then finds
 * them.  KBLOOM_XDP_PART_N sets N (a multiple of 8; default 10^5).
 */
#include <stdlib.h>

#include "guest_harness.h"
#include "kmod_util.h"
#include "libkbloom_dev.h"
#include "libkbloom_partitioned.h"
#include "tests/bpf/xdp_part_util.h"

#define P_1PCT		10000000000ULL

FIXTURE(three) {
	int fd;
	struct ptt_probe p;
	__u64 n;
	__u8 *keys;		/* n present keys, then n absent ones */
};

FIXTURE_SETUP(three)
{
	const char *env = getenv("KBLOOM_XDP_PART_N");
	__u64 i;

	self->n = env ? strtoull(env, NULL, 0) & ~7ULL : 100000;
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ku_destroy_all(self->fd));
	self->keys = malloc(32 * self->n);
	ASSERT_NE(NULL, self->keys);
	for (i = 0; i < 2 * self->n; i++)
		ptt_key(i < self->n ? 1 : 2, i % self->n, 1,
			self->keys + 16 * i);
	ASSERT_EQ(0, ptt_open(&self->p));
}

FIXTURE_TEARDOWN(three)
{
	ptt_close(&self->p);
	free(self->keys);
	ku_destroy_all(self->fd);
	close(self->fd);
}

/*
 * The three answers on the 2n keys: those where they differ, the keys
 * (the first n) all three find and the absent keys all three call
 * possibly present; -1 on an error.  @bits: the module's answers.
 */
static long tally(FIXTURE_DATA(three) *self, const struct kbloom_part *f,
		  const __u8 *bits, __u64 *found, __u64 *fp)
{
	int answer[3];
	long differ = 0;
	__u64 i;

	*found = *fp = 0;
	for (i = 0; i < 2 * self->n; i++) {
		answer[0] = (bits[i / 8] >> (i % 8)) & 1;
		answer[1] = kbloom_part_test(f, self->keys + 16 * i, 16);
		answer[2] = ptt_run(&self->p, 0, self->keys + 16 * i, 16);
		if (answer[1] < 0 || answer[2] < 0)
			return -1;
		if (answer[0] != answer[1] || answer[1] != answer[2]) {
			differ++;
			continue;
		}
		*(i < self->n ? found : fp) += answer[0];
	}
	return differ;
}

TEST_F_TIMEOUT(three, module_library_bpf_agree, 900)
{
	struct kbloom_part *f = NULL;
	__u64 n = self->n, found, fp;
	size_t len;
	void *img;
	__u8 *bits;

	ASSERT_EQ(0, n % 8);
	ASSERT_EQ(0, ku_create_np(self->fd, "three", KBLOOM_TYPE_PARTITIONED,
				  n, P_1PCT, NULL));
	ASSERT_EQ(0, kbloom_dev_add_batch(self->fd, "three", self->keys,
					  16 * n, 16, n, NULL));
	ASSERT_EQ(0, kbloom_dev_save_alloc(self->fd, "three", &img, &len));
	ASSERT_EQ(0, kbloom_part_load(img, len, &f));
	ASSERT_EQ(0, kbloom_xdp_part_load(&self->p.t, 0, 0, img, len));
	free(img);
	bits = calloc(2 * n / 8, 1);
	ASSERT_NE(NULL, bits);
	EXPECT_EQ((long)n, kbloom_dev_test_batch(self->fd, "three", self->keys,
						 16 * n, 16, n, bits, NULL));
	ASSERT_LE(0, kbloom_dev_test_batch(self->fd, "three",
					   self->keys + 16 * n, 16 * n, 16, n,
					   bits + n / 8, NULL));
	EXPECT_EQ(0, tally(self, f, bits, &found, &fp));
	EXPECT_EQ(n, found);
	/* planned for 1%: a sanity bound, agreement is the test */
	EXPECT_LT(fp, n * 12 / 1000 + 10);
	TH_LOG("%llu keys found by all three, %llu absent keys answered alike, %llu false positives (%.3f%%)",
	       (unsigned long long)n, (unsigned long long)n,
	       (unsigned long long)fp, fp * 100.0 / n);
	free(bits);
	kbloom_part_destroy(f);
}

/* Keys added from BPF, saved from the maps, found by the module. */
TEST_F_TIMEOUT(three, bpf_adds_restore_into_module, 900)
{
	__u64 i, n = self->n < 10000 ? self->n : 10000;
	size_t len;
	void *img;

	ASSERT_EQ(0, ku_create_np(self->fd, "three", KBLOOM_TYPE_PARTITIONED,
				  n, P_1PCT, NULL));
	ASSERT_EQ(0, kbloom_dev_save_alloc(self->fd, "three", &img, &len));
	ASSERT_EQ(0, kbloom_xdp_part_load(&self->p.t, 0, 0, img, len));
	free(img);
	for (i = 0; i < n; i++)
		ASSERT_EQ(1, ptt_run(&self->p, 1, self->keys + 16 * i, 16));
	ASSERT_EQ(0, kbloom_xdp_part_save(&self->p.t, 0, &img, &len));
	EXPECT_EQ(0, kbloom_dev_restore(self->fd, "three", img, len,
					 KBLOOM_RESTORE_REPLACE));
	EXPECT_EQ((long)n, kbloom_dev_test_batch(self->fd, "three", self->keys,
						 16 * n, 16, n, NULL, NULL));
	free(img);
}

TEST_HARNESS_MAIN
