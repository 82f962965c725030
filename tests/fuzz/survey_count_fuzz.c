// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the loaders of the accurate counting, FP-CBF,
 * retouched and generalized filters (make fuzz): every input goes to
 * kb_image_verify() and to each of the four loaders, as it is and with
 * its checksum made right.  Whatever the bytes, nothing may crash,
 * overread or leak, and:
 *   - a loader accepts exactly the images kb_image_verify() accepts whose
 *     type is its own, and writes nothing on failure (an image error);
 *   - a loaded filter saves the input back byte for byte and answers a
 *     test; an ACBF or FP-CBF with room finds a key it added and deletes
 *     it; an RBF or GBF finds a key it just added unless that key's
 *     positions collide.
 * A violation aborts, which libFuzzer reports as a crash.
 *
 * Seed corpus: -kbloom_seed_corpus=DIR writes images of each type (both
 * hashes, saturated counters, several geometries) into DIR and exits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_crc.h"
#include "fuzz_seed.h"
#include "libkbloom_survey.h"
#include "uapi/kbloom_image.h"

static const char key[] = "fuzz-key";

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "survey_count_fuzz: %s\n", what);
		abort();
	}
}

static int image_error(int ret)
{
	return ret == -EMSGSIZE || ret == -EBADMSG ||
	       ret == -EPROTONOSUPPORT || ret == -EOPNOTSUPP;
}

static void same_bytes(int ret, void *img, size_t len, const uint8_t *data,
		       size_t size)
{
	check(ret == 0, "save failed");
	check(len == size && !memcmp(img, data, size), "round trip differs");
	free(img);
}

static void acbf_exercise(struct kbloom_acbf *f, const uint8_t *d, size_t n)
{
	size_t len;
	void *img;
	int ret;

	ret = kbloom_acbf_save_alloc(f, &img, &len);
	same_bytes(ret, img, len, d, n);
	check(kbloom_acbf_test(f, key, sizeof(key) - 1) >= 0, "test failed");
	ret = kbloom_acbf_add(f, key, sizeof(key) - 1);
	check(ret >= 0 || ret == -ENOSPC, "add failed");
	if (ret == -ENOSPC)
		return;
	check(kbloom_acbf_count(f, key, sizeof(key) - 1) >= 1,
	      "count of an added key");
	check(kbloom_acbf_del(f, key, sizeof(key) - 1) == 0, "delete failed");
}

static void fpcbf_exercise(struct kbloom_fpcbf *f, const uint8_t *d,
			   size_t n)
{
	size_t len;
	void *img;
	int ret;

	ret = kbloom_fpcbf_save_alloc(f, &img, &len);
	same_bytes(ret, img, len, d, n);
	check(kbloom_fpcbf_add(f, key, sizeof(key) - 1) >= 0, "add failed");
	check(kbloom_fpcbf_test(f, key, sizeof(key) - 1) == 1,
	      "false negative");
	check(kbloom_fpcbf_del(f, key, sizeof(key) - 1) == 0, "delete failed");
}

static void rbf_exercise(struct kbloom_rbf *f, const uint8_t *d, size_t n)
{
	size_t len;
	void *img;
	int ret;

	ret = kbloom_rbf_save_alloc(f, &img, &len);
	same_bytes(ret, img, len, d, n);
	check(kbloom_rbf_add(f, key, sizeof(key) - 1) == 0, "add failed");
	check(kbloom_rbf_test(f, key, sizeof(key) - 1) == 1,
	      "false negative before clearing");
	check(kbloom_rbf_retouch(f, KBLOOM_RBF_RATIO, key, sizeof(key) - 1,
				 1, 0) == -ENODATA, "ratio without counts");
	check(kbloom_rbf_retouch(f, KBLOOM_RBF_MAX_FP, key, sizeof(key) - 1,
				 1, 0) == 1, "retouch of a present key");
	check(kbloom_rbf_test(f, key, sizeof(key) - 1) == 0,
	      "retouched key still present");
}

static void gbf_exercise(struct kbloom_gbf *f, const uint8_t *d, size_t n)
{
	struct kbloom_gbf_stats st;
	size_t len;
	void *img;
	int ret;

	ret = kbloom_gbf_save_alloc(f, &img, &len);
	same_bytes(ret, img, len, d, n);
	check(kbloom_gbf_add(f, key, sizeof(key) - 1) == 0, "add failed");
	check(kbloom_gbf_test(f, key, sizeof(key) - 1) >= 0, "test failed");
	check(kbloom_gbf_stats(f, &st) == 0 && st.ones <= st.m, "occupancy");
}

/* The loader of @type accepted (@ret 0) or refused as it must. */
static int loaded(int ret, int ver, __u32 type, const uint8_t *d, size_t n)
{
	struct kbloom_image_hdr h;

	memset(&h, 0, sizeof(h));
	memcpy(&h, d, n < sizeof(h) ? 0 : sizeof(h));
	if (ret) {
		check(image_error(ret), "unexpected load error");
		check(ver || h.type != type, "a valid image refused");
		return 0;
	}
	check(!ver && h.type == type,
	      "an image accepted that kb_image_verify refuses");
	return 1;
}

static void one_image(const uint8_t *d, size_t n)
{
	struct kbloom_fpcbf *fp = NULL;
	struct kbloom_acbf *a = NULL;
	struct kbloom_rbf *r = NULL;
	struct kbloom_gbf *g = NULL;
	int ver = kb_image_verify(d, n);

	if (loaded(kbloom_acbf_load(d, n, &a), ver,
		   KBLOOM_TYPE_ACCURATE_COUNTING, d, n))
		acbf_exercise(a, d, n);
	if (loaded(kbloom_fpcbf_load(d, n, &fp), ver,
		   KBLOOM_TYPE_FP_COUNTING, d, n))
		fpcbf_exercise(fp, d, n);
	if (loaded(kbloom_rbf_load(d, n, &r), ver, KBLOOM_TYPE_RETOUCHED,
		   d, n))
		rbf_exercise(r, d, n);
	if (loaded(kbloom_gbf_load(d, n, &g), ver, KBLOOM_TYPE_GENERALIZED,
		   d, n))
		gbf_exercise(g, d, n);
	kbloom_acbf_destroy(a);
	kbloom_fpcbf_destroy(fp);
	kbloom_rbf_destroy(r);
	kbloom_gbf_destroy(g);
}

/* Each input in an 8-byte aligned copy, as is and with its crc fixed. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = aligned_alloc(8, (size + 8) & ~(size_t)7);

	check(copy != NULL, "out of memory");
	memcpy(copy, data, size);
	one_image(copy, size);
	fuzz_fix_crc(copy, size);
	one_image(copy, size);
	free(copy);
	return 0;
}

/* ---- seed corpus ------------------------------------------------------- */

static int put(const char *dir, const char *name, int ret, void *img,
	       size_t len)
{
	if (!ret)
		ret = fuzz_write_file(dir, name, img, len);
	if (!ret)
		free(img);
	return ret;
}

static int seed_acbf(const char *dir, __u32 hash, __u32 levels)
{
	struct kbloom_opts o = { .hash_id = hash, .seed = 5, .name = "a" };
	struct kbloom_acbf *f;
	char name[32];
	size_t len;
	void *img;
	int i, ret;

	ret = kbloom_acbf_create(2048, 3, 100, levels, &o, &f);
	if (ret)
		return ret;
	for (i = 0; i < 90; i++)
		kbloom_acbf_add(f, &i, sizeof(i));
	for (i = 0; i < 6; i++)
		kbloom_acbf_add(f, "hot", 3);
	snprintf(name, sizeof(name), "acbf-%u-%u.img", hash, levels);
	ret = put(dir, name, kbloom_acbf_save_alloc(f, &img, &len), img, len);
	kbloom_acbf_destroy(f);
	return ret;
}

static int seed_fpcbf(const char *dir, __u32 cb, __u32 fpb)
{
	struct kbloom_opts o = { .seed = cb, .name = "fp" };
	struct kbloom_fpcbf *f;
	char name[32];
	size_t len;
	void *img;
	int i, ret;

	ret = kbloom_fpcbf_create(640, 3, cb, fpb, &o, &f);
	if (ret)
		return ret;
	for (i = 0; i < 100; i++)
		kbloom_fpcbf_add(f, &i, sizeof(i));
	for (i = 0; i < 300; i++)
		kbloom_fpcbf_add(f, "hot", 3);
	snprintf(name, sizeof(name), "fpcbf-%u-%u.img", cb, fpb);
	ret = put(dir, name, kbloom_fpcbf_save_alloc(f, &img, &len), img,
		  len);
	kbloom_fpcbf_destroy(f);
	return ret;
}

static int seed_bits(const char *dir)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_SIPHASH13, .seed = 9 };
	struct kbloom_rbf *r;
	struct kbloom_gbf *g;
	size_t len;
	void *img;
	int i, ret;

	ret = kbloom_rbf_create(1024, 4, &o, &r);
	if (ret)
		return ret;
	for (i = 0; i < 100; i++)
		kbloom_rbf_add(r, &i, sizeof(i));
	kbloom_rbf_clear_random(r, 10, 1);
	ret = put(dir, "rbf.img", kbloom_rbf_save_alloc(r, &img, &len), img,
		  len);
	kbloom_rbf_destroy(r);
	if (ret || kbloom_gbf_create(1024, 3, 2, NULL, &g))
		return ret ? ret : -ENOMEM;
	kbloom_gbf_fill_random(g, 4);
	for (i = 0; i < 50; i++)
		kbloom_gbf_add(g, &i, sizeof(i));
	ret = put(dir, "gbf.img", kbloom_gbf_save_alloc(g, &img, &len), img,
		  len);
	kbloom_gbf_destroy(g);
	return ret;
}

static int write_corpus(const char *dir)
{
	mkdir(dir, 0755);
	return seed_acbf(dir, KBLOOM_HASH_FAST, 0) ?:
	       seed_acbf(dir, KBLOOM_HASH_SIPHASH13, 2) ?:
	       seed_fpcbf(dir, 4, 4) ?: seed_fpcbf(dir, 2, 5) ?:
	       seed_fpcbf(dir, 8, 24) ?: seed_bits(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return fuzz_seed_option(*argc, *argv, "survey_count_fuzz",
				write_corpus);
}
