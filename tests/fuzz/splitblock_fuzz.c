// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the loaders of the survey IV filters with an
 * image (make fuzz): the one-hashing (kbloom_oh_load()), ultra-fast and
 * Parquet split-block (kbloom_sb_load()) images, and Parquet's raw bitset
 * (kbloom_sb_parquet_import()).  Every input goes to each, as it is and
 * with its checksum made right.  Whatever the bytes, nothing may crash,
 * overread or leak, and:
 *   - a loader accepts exactly the images kb_image_verify() accepts whose
 *     type is its own (and that count no saturation), and writes nothing
 *     on failure;
 *   - a loaded filter saves the input back byte for byte, and a key it
 *     adds tests present;
 *   - the import accepts exactly the inputs of whole 32-byte blocks of 32
 *     bytes to 128 MiB, and exports them back byte for byte.
 * A violation aborts, which libFuzzer reports as a crash.
 *
 * Seed corpus: -kbloom_seed_corpus=DIR writes one-hashing images (1, 4
 * and 32 partitions, both hashes), ultra-fast and split-block images (one
 * and several blocks, xxHash64) and raw bitsets into DIR and exits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_crc.h"
#include "fuzz_seed.h"
#include "libkbloom.h"
#include "libkbloom_survey.h"
#include "uapi/kbloom_image.h"

static const char sf_key[] = "fuzz-key";
#define SF_KEY_LEN	((__u32)sizeof(sf_key) - 1)

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "splitblock_fuzz: %s\n", what);
		abort();
	}
}

/* A loader's error: one of the image errors, and nothing written. */
static void load_refused(int ret, const void *out, int ver, int own)
{
	check(out == NULL, "output written on failure");
	check(ret == -EMSGSIZE || ret == -EBADMSG ||
	      ret == -EPROTONOSUPPORT || ret == -EOPNOTSUPP,
	      "unexpected load error");
	check(ver || !own, "a valid image of the loader's type refused");
}

/* The header is of type @t1 or @t2 (not 0), with no saturation. */
static int own_type(const uint8_t *b, size_t size, __u32 t1, __u32 t2)
{
	struct kbloom_image_hdr h;

	if (size < sizeof(h))
		return 0;
	memcpy(&h, b, sizeof(h));
	return (h.type == t1 || (t2 && h.type == t2)) && !h.saturations;
}

/* A family's loader and what a loaded filter is checked with. */
struct sf_family {
	const char *name;
	__u32 type, type2;
	int (*load)(const void *buf, size_t len, void **fp);
	int (*save_alloc)(const void *f, void **buf, size_t *len);
	int (*add)(void *f, const void *key, __u32 len);
	int (*test)(const void *f, const void *key, __u32 len);
	void (*destroy)(void *f);
};

static void family_one(const struct sf_family *fam, const uint8_t *b,
		       size_t size, int ver)
{
	int own = !ver && own_type(b, size, fam->type, fam->type2);
	void *f = NULL, *img;
	size_t len;
	int ret;

	ret = fam->load(b, size, &f);
	if (ret) {
		load_refused(ret, f, ver, own);
		return;
	}
	if (!own) {
		fprintf(stderr, "%s: ", fam->name);
		check(0, "loaded what kb_image_verify() refuses");
	}
	check(!fam->save_alloc(f, &img, &len) && len == size &&
	      !memcmp(img, b, size), "saved image differs");
	free(img);
	check(!fam->add(f, sf_key, SF_KEY_LEN) &&
	      fam->test(f, sf_key, SF_KEY_LEN) == 1, "an added key is absent");
	fam->destroy(f);
}

/* The families' functions on void pointers. */
static int oh_load(const void *b, size_t n, void **f)
{
	return kbloom_oh_load(b, n, (struct kbloom_oh **)f);
}

static int oh_save(const void *f, void **b, size_t *n)
{
	return kbloom_oh_save_alloc(f, b, n);
}

static int oh_add(void *f, const void *k, __u32 n)
{
	return kbloom_oh_add(f, k, n);
}

static int oh_test(const void *f, const void *k, __u32 n)
{
	return kbloom_oh_test(f, k, n);
}

static void oh_destroy(void *f)
{
	kbloom_oh_destroy(f);
}

static int sb_load(const void *b, size_t n, void **f)
{
	return kbloom_sb_load(b, n, (struct kbloom_sb **)f);
}

static int sb_save(const void *f, void **b, size_t *n)
{
	return kbloom_sb_save_alloc(f, b, n);
}

static int sb_add(void *f, const void *k, __u32 n)
{
	return kbloom_sb_add(f, k, n);
}

static int sb_test(const void *f, const void *k, __u32 n)
{
	return kbloom_sb_test(f, k, n);
}

static void sb_destroy(void *f)
{
	kbloom_sb_destroy(f);
}

static const struct sf_family sf_oh = {
	.name = "one-hashing", .type = KBLOOM_TYPE_ONE_HASHING,
	.load = oh_load, .save_alloc = oh_save, .add = oh_add,
	.test = oh_test, .destroy = oh_destroy,
};

static const struct sf_family sf_sb = {
	.name = "split-block", .type = KBLOOM_TYPE_ULTRA_FAST,
	.type2 = KBLOOM_TYPE_SPLIT_BLOCK,
	.load = sb_load, .save_alloc = sb_save, .add = sb_add,
	.test = sb_test, .destroy = sb_destroy,
};

static void parquet_one(const uint8_t *b, size_t size)
{
	int ok = size >= KB_SBBF_BYTES_MIN && size <= KB_SBBF_BYTES_MAX &&
		 !(size % 32);
	struct kbloom_sb *f = NULL;
	uint8_t *out;
	int ret;

	ret = kbloom_sb_parquet_import(b, size, &f);
	check(ok ? !ret : ret == -EINVAL && !f, "parquet: import verdict");
	if (ret)
		return;
	out = malloc(size);
	check(out && kbloom_sb_parquet_size(f) == size &&
	      !kbloom_sb_parquet_export(f, out, size) &&
	      !memcmp(out, b, size), "parquet: exported bitset differs");
	free(out);
	check(!kbloom_sb_add(f, sf_key, SF_KEY_LEN) &&
	      kbloom_sb_test(f, sf_key, SF_KEY_LEN) == 1,
	      "parquet: an added key is absent");
	kbloom_sb_destroy(f);
}

static void one_input(const uint8_t *b, size_t size)
{
	int ver = kb_image_verify(b, size);

	family_one(&sf_oh, b, size, ver);
	family_one(&sf_sb, b, size, ver);
	parquet_one(b, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = aligned_alloc(8, (size + 8) & ~(size_t)7);

	check(copy != NULL, "out of memory");
	memcpy(copy, data, size);
	one_input(copy, size);
	fuzz_fix_crc(copy, size);
	one_input(copy, size);
	free(copy);
	return 0;
}

/* ---- seed corpus ------------------------------------------------------- */

static int seed_write(const char *dir, const char *kind, unsigned int i,
		      void *img, size_t len, int ret)
{
	char name[64];

	if (ret)
		return ret;
	snprintf(name, sizeof(name), "%s-%u.img", kind, i);
	ret = fuzz_write_file(dir, name, img, len);
	free(img);
	return ret;
}

static int oh_seed(const char *dir, unsigned int i, __u32 k, __u64 s,
		   __u32 hash)
{
	struct kbloom_opts o = { .hash_id = hash, .seed = i, .name = "seed" };
	struct kbloom_oh *f;
	void *img = NULL;
	size_t len = 0;
	__u64 j;
	int ret;

	ret = kbloom_oh_create_ks(k, s, &o, &f);
	if (ret)
		return ret;
	for (j = 0; !ret && j < 20 * i + 5; j++)
		ret = kbloom_oh_add(f, &j, sizeof(j));
	ret = ret ?: kbloom_oh_save_alloc(f, &img, &len);
	kbloom_oh_destroy(f);
	return seed_write(dir, "onehash", i, img, len, ret);
}

static int sb_seed(const char *dir, unsigned int i, __u32 type, __u64 z,
		   __u32 hash, int parquet)
{
	struct kbloom_opts o = { .hash_id = hash };
	struct kbloom_sb *f;
	void *img = NULL;
	size_t len = 0;
	__u64 j;
	int ret;

	ret = kbloom_sb_create_blocks(type, z, &o, &f);
	if (ret)
		return ret;
	for (j = 0; !ret && j < 10 * z; j++)
		ret = kbloom_sb_add(f, &j, sizeof(j));
	if (parquet) {
		len = kbloom_sb_parquet_size(f);
		img = malloc(len);
		ret = ret ?: img ? kbloom_sb_parquet_export(f, img, len) :
				   -ENOMEM;
	} else {
		ret = ret ?: kbloom_sb_save_alloc(f, &img, &len);
	}
	kbloom_sb_destroy(f);
	return seed_write(dir, parquet ? "bitset" : "splitblock", i, img,
			  len, ret);
}

static int write_corpus(const char *dir)
{
	int ret;

	mkdir(dir, 0755);
	ret = oh_seed(dir, 0, 1, 256, KBLOOM_HASH_FAST);
	ret = ret ?: oh_seed(dir, 1, 4, 1024, KBLOOM_HASH_SIPHASH13);
	ret = ret ?: oh_seed(dir, 2, 32, 320, KBLOOM_HASH_FAST);
	ret = ret ?: sb_seed(dir, 0, KBLOOM_TYPE_ULTRA_FAST, 1,
			     KBLOOM_HASH_FAST, 0);
	ret = ret ?: sb_seed(dir, 1, KBLOOM_TYPE_ULTRA_FAST, 5,
			     KBLOOM_HASH_SIPHASH13, 0);
	ret = ret ?: sb_seed(dir, 2, KBLOOM_TYPE_SPLIT_BLOCK, 1,
			     KBLOOM_HASH_XXH64, 0);
	ret = ret ?: sb_seed(dir, 3, KBLOOM_TYPE_SPLIT_BLOCK, 8,
			     KBLOOM_HASH_XXH64, 0);
	ret = ret ?: sb_seed(dir, 4, KBLOOM_TYPE_SPLIT_BLOCK, 1,
			     KBLOOM_HASH_XXH64, 1);
	ret = ret ?: sb_seed(dir, 5, KBLOOM_TYPE_SPLIT_BLOCK, 6,
			     KBLOOM_HASH_XXH64, 1);
	return ret;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return fuzz_seed_option(*argc, *argv, "splitblock_fuzz", write_corpus);
}
