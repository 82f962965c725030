// SPDX-License-Identifier: GPL-2.0
/*
 * One cuckoo filter, three executors: a filter of kbloom.ko (CREATE
 * cuckoo, ADD of N keys) is saved (SAVE, a version-3 image), loaded by
 * libkbloom_cuckoo and into the BPF map of a gate of the cuckoo variant;
 * for the N keys and N absent keys, the module (TEST batch), the library
 * and the BPF lookup (bpf/kbloom_cuckoo.h, through the batch probe of
 * tests/bpf/xdp_cuckoo.bpf.c, 128 keys per BPF_PROG_TEST_RUN, and its
 * one-key probe on the first key of each batch) give the same answer for
 * every key, and every present key is found by all three.  The map saved
 * again restores into the module as the same filter.
 * KBLOOM_XDP_CUCKOO_N sets N (default 10^6).
 */
#include <stdlib.h>

#include "guest_harness.h"
#include "kmod_util.h"
#include "libkbloom_cuckoo.h"
#include "libkbloom_dev.h"
#include "tests/bpf/xdp_cuckoo_util.h"

#define P_02PCT		2000000000ULL

FIXTURE(three) {
	int fd;
	char name[64];
	struct ckt_gate g;
	__u64 n;
	__u8 *keys;		/* n present keys, then n absent ones */
};

FIXTURE_SETUP(three)
{
	const char *env = getenv("KBLOOM_XDP_CUCKOO_N");
	__u64 i;

	self->n = env ? strtoull(env, NULL, 0) : 1000000;
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ku_destroy_all(self->fd));
	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "three");
	self->keys = malloc(32 * self->n);
	ASSERT_NE(NULL, self->keys);
	for (i = 0; i < 2 * self->n; i++)
		ckt_key(i < self->n ? 1 : 2, i % self->n, self->keys + 16 * i);
}

FIXTURE_TEARDOWN(three)
{
	ckt_gate_free(&self->g);
	kbt_unpin(self->name);
	free(self->keys);
	ku_destroy_all(self->fd);
	close(self->fd);
}

/*
 * Keys that the three executors answer differently, or -1.  The BPF
 * answers come from the batch probe, CKT_BATCH keys a run; the one-key
 * probe answers the first key of each batch alike.
 */
static long disagreements(FIXTURE_DATA(three) *self,
			  const struct kbloom_cuckoo *c, const __u8 *bits,
			  __u64 from, __u64 *maybe)
{
	__u8 v[CKT_BATCH];
	const __u8 *k;
	__u64 i, j, cnt;
	long bad = 0;
	int m, l;

	*maybe = 0;
	for (i = 0; i < self->n; i += cnt) {
		cnt = self->n - i < CKT_BATCH ? self->n - i : CKT_BATCH;
		k = self->keys + 16 * (from + i);
		if (ckt_probe_batch(self->g.batch_fd, k, cnt, 16, v))
			return -1;
		bad += ckt_probe(self->g.fd, k, 16) != v[0];
		for (j = 0; j < cnt; j++, k += 16) {
			m = (bits[(i + j) / 8] >> ((i + j) % 8)) & 1;
			l = kbloom_cuckoo_test(c, k, 16);
			if (l < 0)
				return -1;
			bad += m != v[j] || v[j] != l;
			*maybe += v[j];
		}
	}
	return bad;
}

TEST_F_TIMEOUT(three, module_library_bpf_agree, 900)
{
	struct kbloom_xdp_opts o = { .mode = KBLOOM_GATE_MONITOR };
	struct kbloom_gate_cuckoo_info info;
	struct kbloom_cuckoo *c = NULL;
	__u64 n = self->n, found, fp;
	size_t len, blen;
	void *img, *back;
	__u8 *bits;

	ASSERT_EQ(0, ku_create_np(self->fd, "three", KBLOOM_TYPE_CUCKOO, n,
				  P_02PCT, NULL));
	ASSERT_EQ(0, kbloom_dev_add_batch(self->fd, "three", self->keys,
					  16 * n, 16, n, NULL));
	ASSERT_EQ(0, kbloom_dev_save_alloc(self->fd, "three", &img, &len));
	ASSERT_EQ(0, kbloom_cuckoo_load(img, len, &c));
	ASSERT_EQ(0, ckt_gate_make(&self->g, self->name, &o));
	ASSERT_EQ(0, kbloom_gate_cuckoo_load_image(self->g.x, img, len));
	ASSERT_EQ(0, kbloom_gate_cuckoo_info(self->g.x, &info));
	EXPECT_EQ(n, info.params.inserted);

	bits = calloc((n + 7) / 8, 1);
	ASSERT_NE(NULL, bits);
	EXPECT_EQ((long)n, kbloom_dev_test_batch(self->fd, "three", self->keys,
						 16 * n, 16, n, bits, NULL));
	EXPECT_EQ(0, disagreements(self, c, bits, 0, &found));
	EXPECT_EQ(n, found);
	memset(bits, 0, (n + 7) / 8);
	ASSERT_LE(0, kbloom_dev_test_batch(self->fd, "three",
					   self->keys + 16 * n, 16 * n, 16, n,
					   bits, NULL));
	EXPECT_EQ(0, disagreements(self, c, bits, n, &fp));
	/* 0.185% at 95% load: a sanity bound, agreement is the test */
	EXPECT_LT(fp, n * 3 / 1000 + 10);
	TH_LOG("%llu keys found by all three, %llu absent keys answered alike, %llu false positives (%.3f%%)",
	       (unsigned long long)n, (unsigned long long)n,
	       (unsigned long long)fp, fp * 100.0 / n);

	/* the map's image restores into the module as the same filter */
	ASSERT_EQ(0, kbloom_gate_cuckoo_save_image(self->g.x, &back, &blen));
	ASSERT_EQ(len, blen);
	EXPECT_EQ(0, memcmp((__u8 *)img + len - 8 * info.params.nwords,
			    (__u8 *)back + blen - 8 * info.params.nwords,
			    8 * info.params.nwords));
	EXPECT_EQ(0, kbloom_dev_restore(self->fd, "three", back, blen,
					 KBLOOM_RESTORE_REPLACE));
	EXPECT_EQ((long)n, kbloom_dev_test_batch(self->fd, "three", self->keys,
						 16 * n, 16, n, NULL, NULL));
	free(back);
	free(bits);
	free(img);
	kbloom_cuckoo_destroy(c);
}

TEST_HARNESS_MAIN
