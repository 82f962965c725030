// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the image loaders of the shifting,
 * distance-sensitive and matrix filters (libkbloom_survey.h; make fuzz):
 * every input goes to kbloom_shbf_load(), kbloom_dsbf_load() and
 * kbloom_matrix_load(), as it is and with its checksums made right (a
 * container's and its members').  Whatever the bytes, nothing may crash,
 * overread or leak, and:
 *   - the shifting and distance-sensitive loaders accept exactly the
 *     images kb_image_verify() accepts whose type is their own, and write
 *     nothing on failure; a loaded filter saves the input back byte for
 *     byte and a key it adds is found (shifting: in its mode; distance-
 *     sensitive: close);
 *   - the matrix loader accepts only containers kb_container_verify()
 *     accepts, saves an accepted one back byte for byte, and a key added
 *     to a row tests present there.
 * A violation aborts, which libFuzzer reports as a crash.
 *
 * Seed corpus: -kbloom_seed_corpus=DIR writes a shifting image of each
 * mode, two distance-sensitive images and two matrix containers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_crc.h"
#include "fuzz_seed.h"
#include "libkbloom_survey.h"
#include "uapi/kbloom_image.h"

static const char sf_key[64] = "fuzz-key";

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "survey_c_fuzz: %s\n", what);
		abort();
	}
}

static void refused(int ret, const void *out, int ver, __u8 type, __u8 own)
{
	check(out == NULL, "output written on failure");
	check(ret == -EMSGSIZE || ret == -EBADMSG ||
	      ret == -EPROTONOSUPPORT || ret == -EOPNOTSUPP,
	      "unexpected load error");
	check(ver || type != own, "a valid image of the loader's type refused");
}

static void same_bytes(const void *img, size_t len, const uint8_t *data,
		       size_t size, const char *what)
{
	check(len == size && !memcmp(img, data, size), what);
}

/* A key of the shifting filter's mode: added, then found. */
static void shbf_key(struct kbloom_shbf *f, const uint8_t *data)
{
	const struct kbloom_image_head *hd = (const void *)data;

	switch (hd->g.update) {
	case KB_SHBF_MEMBERSHIP:
		check(!kbloom_shbf_add(f, sf_key, 8) &&
		      kbloom_shbf_test(f, sf_key, 8) == 1, "shifting: key lost");
		break;
	case KB_SHBF_ASSOCIATION:
		check(!kbloom_shbf_assoc_add(f, sf_key, 8, KB_SHBF_BOTH) &&
		      (kbloom_shbf_assoc_query(f, sf_key, 8) & KB_SHBF_BOTH),
		      "shifting: class lost");
		break;
	default:
		check(!kbloom_shbf_count_add(f, sf_key, 8, 1) &&
		      kbloom_shbf_count(f, sf_key, 8) >= 1,
		      "shifting: count lost");
	}
}

static void shbf_one(const uint8_t *data, size_t size, int ver, __u8 type)
{
	struct kbloom_shbf *f = NULL;
	size_t len;
	void *img;
	int ret = kbloom_shbf_load(data, size, &f);

	if (ret) {
		refused(ret, f, ver, type, KBLOOM_TYPE_SHIFTING);
		return;
	}
	check(!ver && type == KBLOOM_TYPE_SHIFTING,
	      "shifting: an image accepted that kb_image_verify refuses");
	check(!kbloom_shbf_save_alloc(f, &img, &len), "shifting: save");
	same_bytes(img, len, data, size, "shifting: saved bytes differ");
	free(img);
	shbf_key(f, data);
	kbloom_shbf_destroy(f);
}

static void dsbf_one(const uint8_t *data, size_t size, int ver, __u8 type)
{
	const struct kbloom_image_head *hd = (const void *)data;
	struct kbloom_dsbf *f = NULL;
	size_t len;
	void *img;
	int ret = kbloom_dsbf_load(data, size, &f);

	if (ret) {
		refused(ret, f, ver, type, KBLOOM_TYPE_DISTANCE_SENSITIVE);
		return;
	}
	check(!ver && type == KBLOOM_TYPE_DISTANCE_SENSITIVE,
	      "distance-sensitive: an image accepted that kb_image_verify refuses");
	check(!kbloom_dsbf_save_alloc(f, &img, &len),
	      "distance-sensitive: save");
	same_bytes(img, len, data, size, "distance-sensitive: saved bytes differ");
	free(img);
	check(!kbloom_dsbf_add(f, sf_key, hd->g.slots) &&
	      kbloom_dsbf_test(f, sf_key, hd->g.slots) == 1,
	      "distance-sensitive: key lost");
	kbloom_dsbf_destroy(f);
}

static void matrix_one(const uint8_t *data, size_t size)
{
	struct kbloom_matrix *mx = NULL;
	size_t len;
	void *img;
	int ret = kbloom_matrix_load(data, size, &mx);

	if (ret) {
		check(mx == NULL, "matrix: output written on failure");
		return;
	}
	check(!kb_container_verify(data, size), "matrix: bad container accepted");
	check(!kbloom_matrix_save_alloc(mx, &img, &len), "matrix: save");
	same_bytes(img, len, data, size, "matrix: saved bytes differ");
	free(img);
	check(!kbloom_matrix_add(mx, 0, sf_key, 8) &&
	      kbloom_matrix_test(mx, 0, sf_key, 8) == 1, "matrix: key lost");
	kbloom_matrix_destroy(mx);
}

static void one_image(const uint8_t *data, size_t size)
{
	__u8 type = 0;
	int ver;

	if (size >= sizeof(struct kbloom_image_hdr))
		type = ((const struct kbloom_image_hdr *)data)->type;
	ver = kb_image_verify(data, size);
	shbf_one(data, size, ver, type);
	dsbf_one(data, size, ver, type);
	matrix_one(data, size);
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

static int write_img(const char *dir, const char *name, void *img,
		     size_t len, int ret)
{
	if (!ret)
		ret = fuzz_write_file(dir, name, img, len);
	free(img);
	return ret;
}

static int shbf_seed(const char *dir, __u32 mode, __u32 cmax)
{
	struct kbloom_opts o = { .seed = 0x5EED + mode, .name = "seed" };
	struct kbloom_shbf *f;
	char name[32];
	void *img = NULL;
	size_t len = 0;
	__u64 i;
	int ret = kbloom_shbf_create(mode, 1024, 4, cmax, &o, &f);

	if (ret)
		return ret;
	for (i = 0; i < 30; i++) {
		if (mode == KB_SHBF_MEMBERSHIP)
			kbloom_shbf_add(f, &i, 8);
		else if (mode == KB_SHBF_ASSOCIATION)
			kbloom_shbf_assoc_add(f, &i, 8, 1U << (i % 3));
		else
			kbloom_shbf_count_add(f, &i, 8, 1 + i % cmax);
	}
	ret = kbloom_shbf_save_alloc(f, &img, &len);
	kbloom_shbf_destroy(f);
	snprintf(name, sizeof(name), "shifting-%u", mode);
	return write_img(dir, name, img, len, ret);
}

static int dsbf_seed(const char *dir, __u32 key_len, __u32 k, __u32 b)
{
	struct kbloom_opts o = { .seed = key_len, .hash_id = 0 };
	struct kbloom_dsbf *f;
	__u8 key[64] = { 0 };
	char name[32];
	void *img = NULL;
	size_t len = 0;
	int ret = kbloom_dsbf_create(key_len, k, 128, b, k / 2 + 1, &o, &f);
	__u32 i;

	if (ret)
		return ret;
	for (i = 0; i < 20; i++) {
		key[i % key_len] ^= (__u8)(i * 37 + 1);
		kbloom_dsbf_add(f, key, key_len);
	}
	ret = kbloom_dsbf_save_alloc(f, &img, &len);
	kbloom_dsbf_destroy(f);
	snprintf(name, sizeof(name), "distance-%u", key_len);
	return write_img(dir, name, img, len, ret);
}

static int matrix_seed(const char *dir, __u32 rows, __u32 hash)
{
	struct kbloom_opts o = { .seed = rows, .hash_id = hash, .name = "m" };
	struct kbloom_matrix *mx;
	char name[32];
	void *img = NULL;
	size_t len = 0;
	__u64 i;
	int ret = kbloom_matrix_create(rows, 256, 3, &o, &mx);

	if (ret)
		return ret;
	for (i = 0; i < 40; i++)
		kbloom_matrix_add(mx, i % rows, &i, 8);
	ret = kbloom_matrix_save_alloc(mx, &img, &len);
	kbloom_matrix_destroy(mx);
	snprintf(name, sizeof(name), "matrix-%u", rows);
	return write_img(dir, name, img, len, ret);
}

static int write_corpus(const char *dir)
{
	int ret = shbf_seed(dir, KB_SHBF_MEMBERSHIP, 0);

	if (!ret)
		ret = shbf_seed(dir, KB_SHBF_ASSOCIATION, 0);
	if (!ret)
		ret = shbf_seed(dir, KB_SHBF_MULTIPLICITY, 8);
	if (!ret)
		ret = dsbf_seed(dir, 8, 8, 12);
	if (!ret)
		ret = dsbf_seed(dir, 32, 4, 64);
	if (!ret)
		ret = matrix_seed(dir, 1, KBLOOM_HASH_FAST);
	if (!ret)
		ret = matrix_seed(dir, 3, KBLOOM_HASH_SIPHASH13);
	return ret;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return fuzz_seed_option(*argc, *argv, "survey_c_fuzz", write_corpus);
}
