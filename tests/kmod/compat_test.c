// SPDX-License-Identifier: GPL-2.0
/*
 * Same bits in the kernel and in userspace (issue item 6).
 *
 * module_to_lib: a filter filled through kbloom.ko with 100k keys is SAVEd
 * and loaded by libkbloom: the library finds every key and answers 1M
 * non-keys exactly as the module does (identical result bitmaps).  The
 * same filter built by libkbloom from the same seed and keys gives a
 * byte-identical image.
 *
 * lib_to_module: a filter built and filled by libkbloom restores into the
 * module, which then answers the 100k keys and 1M non-keys exactly as the
 * library does; SAVE gives back the library's image byte for byte.
 *
 * positions: independent of libkbloom, a key added through the module is
 * found by computing its positions in userspace with the uapi headers
 * (kb_hash, kb_block_index/kb_block_mask, kb_probe_*, kb_ctr_*) on the
 * words of a SAVEd image, and every non-key gets the module's answer.
 */
#include <stdbool.h>
#include "guest_harness.h"
#include "kmod_util.h"
#include "libkbloom.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"

#define NKEYS		100000
#define NOTKEYS		1000000
#define CHUNK		250000	/* keys per ioctl batch */

struct geom {
	const char *name;
	__u32 type;
	__u32 hash_id;
	__u32 counter_bits;
};

static const struct geom geoms[] = {
	{ "c.blocked", KBLOOM_TYPE_BLOCKED, KBLOOM_HASH_FAST, 0 },
	{ "c.blocked.sip", KBLOOM_TYPE_BLOCKED, KBLOOM_HASH_SIPHASH13, 0 },
	{ "c.standard", KBLOOM_TYPE_STANDARD, KBLOOM_HASH_FAST, 0 },
	{ "c.counting4", KBLOOM_TYPE_COUNTING, KBLOOM_HASH_FAST, 4 },
	{ "c.counting8", KBLOOM_TYPE_COUNTING, KBLOOM_HASH_SIPHASH13, 8 },
};

FIXTURE(compat) {
	int fd;
	__u8 *keys;		/* NKEYS 16-byte keys */
	__u8 *notkeys;		/* NOTKEYS 16-byte keys, another space */
	__u8 *bits_mod;		/* result bitmaps, NOTKEYS bits */
	__u8 *bits_lib;
};

FIXTURE_SETUP(compat)
{
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ku_destroy_all(self->fd));
	self->keys = malloc((size_t)NKEYS * 16);
	self->notkeys = malloc((size_t)NOTKEYS * 16);
	self->bits_mod = malloc(NOTKEYS / 8 + 1);
	self->bits_lib = malloc(NOTKEYS / 8 + 1);
	ASSERT_TRUE(self->keys && self->notkeys && self->bits_mod &&
		    self->bits_lib);
	ku_keys16(self->keys, 0xC0, 0, NKEYS);
	ku_keys16(self->notkeys, 0xC1, 0, NOTKEYS);
}

FIXTURE_TEARDOWN(compat)
{
	ku_destroy_all(self->fd);
	EXPECT_EQ(0, ku_dev_bytes(self->fd));
	close(self->fd);
	free(self->keys);
	free(self->notkeys);
	free(self->bits_mod);
	free(self->bits_lib);
}

/* ADD or TEST @n 16-byte keys through the module in CHUNK batches. */
static int mod_keys(int fd, unsigned long cmd, const char *name,
		    const __u8 *keys, __u32 n, __u8 *bits, __u64 *hits)
{
	__u32 i, c, h;
	int ret;

	*hits = 0;
	for (i = 0; i < n; i += c) {
		c = n - i < CHUNK ? n - i : CHUNK;
		/* CHUNK is a multiple of 8: bitmaps of chunks line up */
		ret = ku_keys(fd, cmd, name, keys + (size_t)16 * i,
			      (__u64)16 * c, 16, c, bits ? bits + i / 8 : NULL,
			      NULL, &h);
		if (ret)
			return ret;
		*hits += h;
	}
	return 0;
}

static int mod_create(int fd, const struct geom *g, __u64 seed)
{
	struct kbloom_create c = {
		.size = sizeof(c), .flags = KBLOOM_CREATE_SEED,
		.type = g->type, .hash_id = g->hash_id,
		.counter_bits = g->counter_bits, .seed = seed,
		.capacity = NKEYS, .fpr_pico = 10000000000ULL,	/* 1% */
	};

	ku_name(c.name, g->name);
	return ku_ioctl(fd, KBLOOM_IOCTL_CREATE, &c);
}

static struct kbloom_filter *lib_create(const struct geom *g, __u64 seed)
{
	struct kbloom_opts o = {
		.hash_id = g->hash_id, .counter_bits = g->counter_bits,
		.seed = seed, .name = g->name,
	};
	struct kbloom_filter *f = NULL;

	if (kbloom_create(g->type, NKEYS, 10000000000ULL, &o, &f))
		return NULL;
	return f;
}

TEST_F_TIMEOUT(compat, module_to_lib, 600)
{
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(geoms); i++) {
		const struct geom *g = &geoms[i];
		__u64 seed = 0xC0FFEE00ULL + i, hits_mod, hits_lib = 0;
		struct kbloom_filter *lf = NULL, *twin;
		void *img, *img2 = NULL;
		size_t len2 = 0;
		__u64 len;

		TH_LOG("%s", g->name);
		ASSERT_EQ(0, mod_create(self->fd, g, seed));
		ASSERT_EQ(0, mod_keys(self->fd, KBLOOM_IOCTL_ADD, g->name,
				      self->keys, NKEYS, NULL, &hits_mod));
		ASSERT_EQ(0, ku_save(self->fd, g->name, &img, &len));
		ASSERT_EQ(0, kbloom_load(img, len, &lf));

		/* every key, in both */
		EXPECT_EQ(NKEYS, kbloom_test_batch(lf, self->keys,
						   (size_t)NKEYS * 16, 16,
						   NKEYS, NULL));
		ASSERT_EQ(0, mod_keys(self->fd, KBLOOM_IOCTL_TEST, g->name,
				      self->keys, NKEYS, NULL, &hits_mod));
		EXPECT_EQ(NKEYS, hits_mod);
		/* the non-keys: identical answers */
		ASSERT_EQ(0, mod_keys(self->fd, KBLOOM_IOCTL_TEST, g->name,
				      self->notkeys, NOTKEYS, self->bits_mod,
				      &hits_mod));
		hits_lib = kbloom_test_batch(lf, self->notkeys,
					     (size_t)NOTKEYS * 16, 16, NOTKEYS,
					     self->bits_lib);
		EXPECT_EQ(hits_mod, hits_lib);
		EXPECT_EQ(0, memcmp(self->bits_mod, self->bits_lib,
				    NOTKEYS / 8));
		EXPECT_GT(NOTKEYS / 50, hits_mod);	/* about 1% */
		TH_LOG("  %llu of %u non-keys possibly present",
		       (unsigned long long)hits_mod, NOTKEYS);

		/* the library's own twin writes the same image */
		twin = lib_create(g, seed);
		ASSERT_NE(NULL, twin);
		ASSERT_EQ(0, kbloom_add_batch(twin, self->keys,
					      (size_t)NKEYS * 16, 16, NKEYS));
		ASSERT_EQ(0, kbloom_save_alloc(twin, &img2, &len2));
		ASSERT_EQ(len, len2);
		EXPECT_EQ(0, memcmp(img, img2, len));
		free(img2);
		kbloom_destroy(twin);
		kbloom_destroy(lf);
		free(img);
		ASSERT_EQ(0, ku_destroy(self->fd, g->name));
	}
}

TEST_F_TIMEOUT(compat, lib_to_module, 600)
{
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(geoms); i++) {
		const struct geom *g = &geoms[i];
		__u64 hits_mod, hits_lib, len2;
		struct kbloom_filter *lf;
		void *img, *img2;
		size_t len;

		TH_LOG("%s", g->name);
		lf = lib_create(g, 0xBEEF0000ULL + i);
		ASSERT_NE(NULL, lf);
		ASSERT_EQ(0, kbloom_add_batch(lf, self->keys,
					      (size_t)NKEYS * 16, 16, NKEYS));
		ASSERT_EQ(0, kbloom_save_alloc(lf, &img, &len));
		ASSERT_EQ(0, ku_restore(self->fd, "", img, len, 0));

		ASSERT_EQ(0, mod_keys(self->fd, KBLOOM_IOCTL_TEST, g->name,
				      self->keys, NKEYS, NULL, &hits_mod));
		EXPECT_EQ(NKEYS, hits_mod);
		ASSERT_EQ(0, mod_keys(self->fd, KBLOOM_IOCTL_TEST, g->name,
				      self->notkeys, NOTKEYS, self->bits_mod,
				      &hits_mod));
		hits_lib = kbloom_test_batch(lf, self->notkeys,
					     (size_t)NOTKEYS * 16, 16, NOTKEYS,
					     self->bits_lib);
		EXPECT_EQ(hits_lib, hits_mod);
		EXPECT_EQ(0, memcmp(self->bits_mod, self->bits_lib,
				    NOTKEYS / 8));
		/* and back: the module saves the library's image unchanged */
		ASSERT_EQ(0, ku_save(self->fd, g->name, &img2, &len2));
		ASSERT_EQ(len, len2);
		EXPECT_EQ(0, memcmp(img, img2, len));
		free(img2);
		free(img);
		kbloom_destroy(lf);
	}
}

/* Is @key in the image's filter?  Positions from the uapi headers only. */
static bool image_test(const struct kbloom_image_hdr *h, const __u64 *words,
		       const void *key, __u32 len)
{
	__u32 k = kb_le32(h->k), cb = h->counter_bits, i, j;
	__u64 m = kb_le64(h->m), w;
	__u64 hash = kb_hash(h->hash_id, kb_le64(h->seed), key, len);
	__u64 mask[KBLOOM_BLOCK_WORDS];
	const __u64 *blk;
	struct kb_probe p;

	if (h->type == KBLOOM_TYPE_BLOCKED) {
		blk = words + (__u64)kb_block_index(hash, m / KBLOOM_BLOCK_BITS) *
			      KBLOOM_BLOCK_WORDS;
		kb_block_mask(hash, k, mask);
		for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
			if ((kb_le64(blk[i]) & mask[i]) != mask[i])
				return false;
		return true;
	}
	kb_probe_init(&p, hash);
	for (i = 0; i < k; i++) {
		j = kb_probe_next(&p, m);
		if (h->type == KBLOOM_TYPE_STANDARD) {
			if (!(kb_le64(words[j >> 6]) & (1ULL << (j & 63))))
				return false;
			continue;
		}
		w = kb_le64(words[kb_ctr_word(j, cb)]);
		if (!kb_ctr_get(w, kb_ctr_shift(j, cb), cb))
			return false;
	}
	return true;
}

TEST_F_TIMEOUT(compat, positions, 600)
{
	unsigned int i, n;

	for (i = 0; i < ARRAY_LEN(geoms); i++) {
		const struct geom *g = &geoms[i];
		const struct kbloom_image_hdr *h;
		__u64 hits, len, present = 0;
		const __u64 *words;
		__u8 var[1 + 13];
		void *img;

		TH_LOG("%s", g->name);
		ASSERT_EQ(0, mod_create(self->fd, g, 0));	/* random seed */
		ASSERT_EQ(0, mod_keys(self->fd, KBLOOM_IOCTL_ADD, g->name,
				      self->keys, NKEYS, NULL, &hits));
		/* and one variable-length key */
		var[0] = 13;
		memcpy(var + 1, "variable-key!", 13);
		ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_ADD, g->name, var,
				     sizeof(var), 0, 1, NULL, NULL, NULL));
		ASSERT_EQ(0, ku_save(self->fd, g->name, &img, &len));
		ASSERT_EQ(0, kb_image_verify(img, len));
		h = img;
		words = (const __u64 *)((const __u8 *)img + KBLOOM_IMAGE_HDR_LEN);
		for (n = 0; n < NKEYS; n++)
			present += image_test(h, words, self->keys + 16 * n,
					      16);
		EXPECT_EQ(NKEYS, present);
		EXPECT_TRUE(image_test(h, words, var + 1, 13));
		/* the non-keys: the module's answers, bit for bit */
		ASSERT_EQ(0, mod_keys(self->fd, KBLOOM_IOCTL_TEST, g->name,
				      self->notkeys, NOTKEYS, self->bits_mod,
				      &hits));
		memset(self->bits_lib, 0, NOTKEYS / 8);
		for (n = 0; n < NOTKEYS; n++)
			if (image_test(h, words, self->notkeys + 16 * n, 16))
				self->bits_lib[n / 8] |= 1 << (n % 8);
		EXPECT_EQ(0, memcmp(self->bits_mod, self->bits_lib,
				    NOTKEYS / 8));
		free(img);
		ASSERT_EQ(0, ku_destroy(self->fd, g->name));
	}
}

TEST_HARNESS_MAIN
