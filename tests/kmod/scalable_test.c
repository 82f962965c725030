// SPDX-License-Identifier: GPL-2.0
/*
 * The scalable (KBLOOM_TYPE_SCALABLE) and dynamic (KBLOOM_TYPE_DYNAMIC)
 * Bloom filters in kbloom.ko, against libkbloom_scalable.h:
 *
 * grows          ADD past the first capacity opens generations (STAT
 *                @slots) by the estimated count: re-adding the same keys
 *                opens none; no false negative; COUNT refused
 * same_as_lib    the module and the library, fed the same keys with the
 *                same seed, save the same image byte for byte; the module
 *                image loads in the library with identical answers on
 *                keys and non-keys; a library image restores in the module
 *                with identical answers
 * dynamic_del    DEL of a key of one generation deletes it; a key that
 *                matches several generations is refused with ENOTUNIQ (the
 *                batch stops there, done = the keys deleted before) and
 *                counted (STAT @kicks); deletes merge under-full
 *                generations and no key left is lost
 * flush          back to one empty generation
 * readers        TEST from other threads while the writer grows the
 *                filter: never a false negative for keys added before
 * bad_params     every bad field is EINVAL, a first generation over the
 *                limit E2BIG, nothing created; DEL on scalable EOPNOTSUPP
 * bad_images     a container whose member breaks the rule is EBADMSG
 * xdp_*          the module's image in the XDP lookup's maps
 *                (bpf/kbloom_scalable.h): the program's verdict of every
 *                key and non-key equals the module's TEST and the
 *                library's, on a grown filter
 */
#include <pthread.h>
#include <stddef.h>
#include "guest_harness.h"
#include "kmod_util.h"
#include "type_fixture.h"
#include "libkbloom_scalable.h"
#include "../bpf/xdp_scalable_util.h"

#define ASSERT_OK(cmd) ASSERT_EQ(0, (cmd))
#define SEED		0x5CA1ULL
#define P_1PCT		10000000000ULL
#define C0		2000U
#define N_KEYS		40000U

static int sbf_create(int fd, const char *name, __u32 type, __u64 cap,
		      __u32 growth, __u64 ratio)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = type, .capacity = cap,
		.fpr_pico = P_1PCT, .tables = growth, .buckets = ratio,
		.seed = SEED, .flags = KBLOOM_CREATE_SEED,
	};

	ku_name(c.name, name);
	return ku_ioctl(fd, KBLOOM_IOCTL_CREATE, &c);
}

static int batch(int fd, unsigned long cmd, const char *name,
		 const __u8 *keys, __u32 n, void *res, __u32 *done,
		 __u32 *hits)
{
	return ku_keys(fd, cmd, name, keys, 16ULL * n, 16, n, res, done,
		       hits);
}

static __u32 gens(int fd, const char *name)
{
	struct kbloom_stat st;

	return ku_stat(fd, name, &st) ? 0 : st.slots;
}

/* A library filter of the same parameters and seed. */
static struct kbloom_sbf *lib_new(__u32 type, __u64 cap)
{
	struct kb_sbf_params p = { .type = type, .capacity = cap,
				   .fpr_pico = P_1PCT };
	struct kbloom_opts o = { .seed = SEED };
	struct kbloom_sbf *f = NULL;

	return kbloom_sbf_create(&p, &o, &f) ? NULL : f;
}

KU_TYPE_FIXTURE(sbf, 19, N_KEYS);

TEST_F(sbf, grows)
{
	struct kbloom_stat st;
	__u32 done, hits, n;
	__u64 est[2];

	ASSERT_OK(sbf_create(self->fd, "s", KBLOOM_TYPE_SCALABLE, C0, 0, 0));
	EXPECT_EQ(1, gens(self->fd, "s"));
	ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_ADD, "s", self->keys,
			C0 * 9 / 10, NULL, &done, NULL));
	/* the same keys again and again: the fill does not move */
	for (n = 0; n < 5; n++)
		ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_ADD, "s", self->keys,
				C0 * 9 / 10, NULL, &done, NULL));
	EXPECT_EQ(1, gens(self->fd, "s"));
	ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_ADD, "s", self->keys, N_KEYS,
			NULL, &done, NULL));
	EXPECT_EQ(N_KEYS, done);
	ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_TEST, "s", self->keys, N_KEYS,
			NULL, &done, &hits));
	EXPECT_EQ(N_KEYS, hits);
	ASSERT_OK(ku_stat(self->fd, "s", &st));
	/* 2000 + 4000 + 8000 + 16000 < 40000 <= ... + 32000 */
	EXPECT_EQ(5, st.slots);
	EXPECT_EQ(KBLOOM_TYPE_SCALABLE, st.type);
	EXPECT_EQ(2, st.tables);
	EXPECT_EQ(KB_SBF_RATIO_DEFAULT, st.buckets);
	EXPECT_EQ(C0, st.capacity);
	EXPECT_LE(st.fpr_now_pico, P_1PCT);
	EXPECT_LT(N_KEYS * 9 / 10, st.n_est);
	EXPECT_GT(N_KEYS * 11 / 10, st.n_est);
	EXPECT_EQ(-EOPNOTSUPP, batch(self->fd, KBLOOM_IOCTL_DEL, "s",
				     self->keys, 1, NULL, NULL, NULL));
	EXPECT_EQ(-EOPNOTSUPP, batch(self->fd, KBLOOM_IOCTL_COUNT, "s",
				     self->keys, 2, est, NULL, NULL));
}

/* Module and library fed alike: one image, and the same answers. */
static void same_as_lib(struct __test_metadata *_metadata,
			FIXTURE_DATA(sbf) *self, __u32 type)
{
	struct kbloom_sbf *lf, *lg;
	__u32 i, done, diff = 0;
	void *img, *limg;
	size_t llen;
	__u64 len;
	int lib;

	ASSERT_OK(sbf_create(self->fd, "m", type, C0, 0, 0));
	lf = lib_new(type, C0);
	ASSERT_NE(NULL, lf);
	ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_ADD, "m", self->keys,
			N_KEYS / 2, NULL, &done, NULL));
	for (i = 0; i < N_KEYS / 2; i++)
		ASSERT_LE(0, kbloom_sbf_add(lf, self->keys + 16 * i, 16));
	ASSERT_OK(ku_save(self->fd, "m", &img, &len));
	ASSERT_OK(kbloom_sbf_save_alloc(lf, &limg, &llen));
	/* the names differ ("m" and ""): compare the rest */
	ASSERT_EQ(llen, len);
	ASSERT_OK(kbloom_sbf_load(img, len, &lg));
	EXPECT_EQ(0, memcmp((__u8 *)img + 128, (__u8 *)limg + 128, len - 128));
	ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_TEST, "m", self->keys,
			2 * N_KEYS, self->bits, &done, NULL));
	for (i = 0; i < 2 * N_KEYS; i++) {
		lib = kbloom_sbf_test(lg, self->keys + 16 * i, 16);
		diff += lib != !!(self->bits[i / 8] & (1 << (i % 8)));
	}
	EXPECT_EQ(0, diff);
	/* the library's image restored: the same answers again */
	ASSERT_OK(ku_restore(self->fd, "r", limg, llen, 0));
	ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_TEST, "r", self->keys,
			2 * N_KEYS, self->bits, &done, NULL));
	for (i = 0, diff = 0; i < 2 * N_KEYS; i++) {
		lib = kbloom_sbf_test(lf, self->keys + 16 * i, 16);
		diff += lib != !!(self->bits[i / 8] & (1 << (i % 8)));
	}
	EXPECT_EQ(0, diff);
	EXPECT_EQ(gens(self->fd, "m"), gens(self->fd, "r"));
	free(img);
	free(limg);
	kbloom_sbf_destroy(lf);
	kbloom_sbf_destroy(lg);
}

TEST_F(sbf, same_as_lib_scalable)
{
	same_as_lib(_metadata, self, KBLOOM_TYPE_SCALABLE);
}

TEST_F(sbf, same_as_lib_dynamic)
{
	same_as_lib(_metadata, self, KBLOOM_TYPE_DYNAMIC);
}

/*
 * A batch of a refused key and the next: it stops at the first, done 0,
 * and the next key is still present.
 */
static void batch_stops(struct __test_metadata *_metadata, int fd,
			const __u8 *keys)
{
	__u32 done = 1, hits;

	EXPECT_EQ(-ENOTUNIQ, batch(fd, KBLOOM_IOCTL_DEL, "d", keys, 2, NULL,
				   &done, NULL));
	EXPECT_EQ(0, done);
	ASSERT_OK(batch(fd, KBLOOM_IOCTL_TEST, "d", keys + 16, 1, NULL, &done,
			&hits));
	EXPECT_EQ(1, hits);
}

TEST_F(sbf, dynamic_del)
{
	__u32 i, done, hits, deleted = 0, refused = 0, lost = 0;
	struct kbloom_stat st;
	int ret;

	ASSERT_OK(sbf_create(self->fd, "d", KBLOOM_TYPE_DYNAMIC, C0, 0, 0));
	ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_ADD, "d", self->keys,
			C0 * 7 / 2, NULL, &done, NULL));
	ASSERT_EQ(4, gens(self->fd, "d"));
	/* one key at a time: deleted, or refused and still there */
	for (i = 0; i < C0 * 7 / 2; i++) {
		if (!(i % 4))
			continue;
		ret = batch(self->fd, KBLOOM_IOCTL_DEL, "d",
			    self->keys + 16 * i, 1, NULL, &done, &hits);
		if (ret == -ENOTUNIQ) {
			EXPECT_EQ(0, done);
			if (!refused++)
				batch_stops(_metadata, self->fd,
					    self->keys + 16 * i);
			continue;
		}
		ASSERT_OK(ret);
		deleted += done;
	}
	ASSERT_OK(ku_stat(self->fd, "d", &st));
	TH_LOG("deleted %u, refused %u, %u generations left", deleted,
	       refused, st.slots);
	EXPECT_LT(0, refused);
	EXPECT_EQ(refused + 1, st.kicks);	/* and batch_stops()' */
	EXPECT_GT(4, st.slots);
	/* the keys never deleted are all there */
	ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_TEST, "d", self->keys,
			C0 * 7 / 2, self->bits, &done, NULL));
	for (i = 0; i < C0 * 7 / 2; i += 4)
		lost += !(self->bits[i / 8] & (1 << (i % 8)));
	EXPECT_EQ(0, lost);
}

TEST_F(sbf, flush)
{
	__u32 done, hits;

	ASSERT_OK(sbf_create(self->fd, "s", KBLOOM_TYPE_SCALABLE, C0, 0, 0));
	ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_ADD, "s", self->keys, N_KEYS,
			NULL, &done, NULL));
	EXPECT_LT(1, gens(self->fd, "s"));
	ASSERT_OK(ku_name_cmd(self->fd, KBLOOM_IOCTL_FLUSH, "s", 0));
	EXPECT_EQ(1, gens(self->fd, "s"));
	ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_TEST, "s", self->keys, N_KEYS,
			NULL, &done, &hits));
	EXPECT_EQ(0, hits);
}

struct reader {
	int fd;
	const __u8 *keys;
	volatile int *stop;
	__u32 misses;
};

/* Tests the first C0 keys (added before) until told to stop. */
static void *reader_run(void *arg)
{
	struct reader *r = arg;
	__u32 done, hits;

	while (!*r->stop) {
		if (batch(r->fd, KBLOOM_IOCTL_TEST, "s", r->keys, C0, NULL,
			  &done, &hits) || hits != C0)
			r->misses++;
	}
	return NULL;
}

TEST_F(sbf, readers_during_growth)
{
	volatile int stop = 0;
	struct reader r = { .fd = self->fd, .keys = self->keys,
			    .stop = &stop };
	pthread_t t;
	__u32 i, done;

	ASSERT_OK(sbf_create(self->fd, "s", KBLOOM_TYPE_SCALABLE, 500, 0, 0));
	ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_ADD, "s", self->keys, C0,
			NULL, &done, NULL));
	ASSERT_OK(pthread_create(&t, NULL, reader_run, &r));
	for (i = C0; i < N_KEYS; i += 100)
		ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_ADD, "s",
				self->keys + 16 * i, 100, NULL, &done, NULL));
	stop = 1;
	pthread_join(t, NULL);
	EXPECT_EQ(0, r.misses);
	EXPECT_LT(3, gens(self->fd, "s"));
}

TEST_F(sbf, bad_params)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_SCALABLE,
		.capacity = 1000, .fpr_pico = P_1PCT,
	};
	struct {
		__u32 type;
		const char *field;
		int err;
	} bad[] = {
		{ KBLOOM_TYPE_SCALABLE, "tables", EINVAL },	/* growth 17 */
		{ KBLOOM_TYPE_SCALABLE, "buckets", EINVAL },	/* ratio 1.0 */
		{ KBLOOM_TYPE_SCALABLE, "counter_bits", EINVAL },
		{ KBLOOM_TYPE_SCALABLE, "k", EINVAL },
		{ KBLOOM_TYPE_SCALABLE, "m", EINVAL },
		{ KBLOOM_TYPE_SCALABLE, "capacity", EINVAL },
		{ KBLOOM_TYPE_SCALABLE, "fpr", EINVAL },
		{ KBLOOM_TYPE_SCALABLE, "huge", E2BIG },
		{ KBLOOM_TYPE_DYNAMIC, "tables", EINVAL },
		{ KBLOOM_TYPE_DYNAMIC, "buckets", EINVAL },
		{ KBLOOM_TYPE_DYNAMIC, "counter_bits", EINVAL },
	};
	struct kbloom_create t;
	__u32 i;

	for (i = 0; i < ARRAY_LEN(bad); i++) {
		t = c;
		t.type = bad[i].type;
		ku_name(t.name, "bad");
		if (!strcmp(bad[i].field, "tables"))
			t.tables = t.type == KBLOOM_TYPE_DYNAMIC ? 2 : 17;
		else if (!strcmp(bad[i].field, "buckets"))
			t.buckets = t.type == KBLOOM_TYPE_DYNAMIC ?
				    900000 : KB_SBF_RATIO_UNIT;
		else if (!strcmp(bad[i].field, "counter_bits"))
			t.counter_bits = 3 + (t.type == KBLOOM_TYPE_SCALABLE);
		else if (!strcmp(bad[i].field, "k"))
			t.k = 4;
		else if (!strcmp(bad[i].field, "m"))
			t.m = 4096;
		else if (!strcmp(bad[i].field, "capacity"))
			t.capacity = 0;
		else if (!strcmp(bad[i].field, "fpr"))
			t.fpr_pico = 0;
		else
			t.capacity = 1ULL << 40;
		EXPECT_EQ(-bad[i].err,
			  ku_ioctl(self->fd, KBLOOM_IOCTL_CREATE, &t))
			TH_LOG("%u %s", bad[i].type, bad[i].field);
	}
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
}

/* A library image with member 0's capacity changed, checksums redone. */
TEST_F(sbf, bad_images)
{
	struct kbloom_container_hdr *c;
	struct kbloom_image_head *hd;
	struct kbloom_sbf *lf;
	size_t len, ml;
	__u32 crc, i;
	__u8 *img;

	lf = lib_new(KBLOOM_TYPE_SCALABLE, 1000);
	ASSERT_NE(NULL, lf);
	for (i = 0; i < 3000; i++)
		ASSERT_LE(0, kbloom_sbf_add(lf, self->keys + 16 * i, 16));
	ASSERT_OK(kbloom_sbf_save_alloc(lf, (void **)&img, &len));
	c = (struct kbloom_container_hdr *)img;
	hd = (struct kbloom_image_head *)(c + 1);
	ml = sizeof(*hd) + kb_le64(hd->h.payload_len);
	hd->h.capacity = kb_le64(999);
	hd->h.crc = 0;
	hd->h.crc = kb_le32(kb_image_crc_head(hd, (__u8 *)(hd + 1),
					      ml - sizeof(*hd)));
	c->crc = 0;
	crc = kb_crc32c_update(0xFFFFFFFFU, c, sizeof(*c));
	crc = kb_crc32c_update(crc, c + 1, len - sizeof(*c));
	c->crc = kb_le32(~crc);
	EXPECT_EQ(-EBADMSG, ku_restore(self->fd, "x", img, len, 0));
	img[len - 1] ^= 1;
	EXPECT_EQ(-EBADMSG, ku_restore(self->fd, "x", img, len, 0));
	EXPECT_EQ(-EMSGSIZE, ku_restore(self->fd, "x", img, len - 8, 0));
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
	free(img);
	kbloom_sbf_destroy(lf);
}

/* Module, library and XDP on the module's image of a grown filter. */
static void xdp_same(struct __test_metadata *_metadata,
		     FIXTURE_DATA(sbf) *self, __u32 type)
{
	__u32 i, done, n = N_KEYS / 4, diff = 0;
	struct xdp_scalable *s;
	struct kbloom_sbf *f;
	void *img;
	__u64 len;
	int v, mod;

	ASSERT_OK(sbf_create(self->fd, "x", type, 1000, 0, 0));
	ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_ADD, "x", self->keys, n, NULL,
			&done, NULL));
	EXPECT_LT(2, gens(self->fd, "x"));
	ASSERT_OK(ku_save(self->fd, "x", &img, &len));
	ASSERT_OK(kbloom_sbf_load(img, len, &f));
	s = xs_open(kbloom_sbf_map_words(f));
	ASSERT_NE(NULL, s);
	ASSERT_OK(xs_fill(s, f));
	ASSERT_OK(batch(self->fd, KBLOOM_IOCTL_TEST, "x", self->keys, 2 * n,
			self->bits, &done, NULL));
	for (i = 0; i < 2 * n; i++) {
		v = xs_verdict(s, self->keys + 16 * i);
		ASSERT_TRUE(v == XDP_PASS || v == XDP_DROP);
		mod = !!(self->bits[i / 8] & (1 << (i % 8)));
		diff += mod != (v == XDP_PASS);
		diff += mod != kbloom_sbf_test(f, self->keys + 16 * i, 16);
	}
	EXPECT_EQ(0, diff);
	xdp_scalable__destroy(s);
	kbloom_sbf_destroy(f);
	free(img);
}

TEST_F(sbf, xdp_scalable)
{
	xdp_same(_metadata, self, KBLOOM_TYPE_SCALABLE);
}

TEST_F(sbf, xdp_dynamic)
{
	xdp_same(_metadata, self, KBLOOM_TYPE_DYNAMIC);
}

TEST_HARNESS_MAIN
