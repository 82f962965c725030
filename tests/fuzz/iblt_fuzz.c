// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the IBLT image loader (make fuzz): every input
 * goes to kbloom_iblt_load() as it is and with its checksum made right.
 * Whatever the bytes, nothing may crash, overread or leak, and:
 *   - the loader accepts only images kb_image_verify() accepts, of the
 *     IBLT type, and writes nothing on failure (one of the image errors);
 *   - a loaded table saves back byte for byte;
 *   - its decode either lists entries that are all keys of the table's
 *     key length whose removal empties it (decode of the table minus a
 *     table of those entries is empty), or fails with -E2BIG; a strata
 *     table's estimate answers.
 * A violation aborts, which libFuzzer reports as a crash.
 *
 * Seed corpus: -kbloom_seed_corpus=DIR writes tables (plain, strata;
 * both hashes; decodable and overloaded) into DIR and exits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_crc.h"
#include "fuzz_seed.h"
#include "libkbloom.h"
#include "libkbloom_iblt.h"

#define FUZZ_LIST_MAX	4096

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "iblt_fuzz: %s\n", what);
		abort();
	}
}

static int image_error(int ret)
{
	return ret == -EMSGSIZE || ret == -EBADMSG ||
	       ret == -EPROTONOSUPPORT || ret == -EOPNOTSUPP;
}

/* Folding the listed entries back out of @f leaves an empty table. */
static void check_list(const struct kbloom_iblt *f,
		       const struct kbloom_iblt_entry *e, size_t n)
{
	struct kbloom_iblt_stats st;
	struct kbloom_iblt *c;
	size_t i;

	check(kbloom_iblt_dup(f, &c) == 0, "dup failed");
	for (i = 0; i < n; i++) {
		if (e[i].sign > 0)
			check(!kbloom_iblt_delete(c, e[i].key, e[i].len,
						  e[i].value), "bad entry");
		else
			check(!kbloom_iblt_insert(c, e[i].key, e[i].len,
						  e[i].value), "bad entry");
	}
	check(kbloom_iblt_stats(c, &st) == 0, "stats failed");
	check(st.nonzero == 0, "a listed difference does not empty the table");
	kbloom_iblt_destroy(c);
}

static void exercise(const struct kbloom_iblt *f, const uint8_t *data,
		     size_t size)
{
	static struct kbloom_iblt_entry e[FUZZ_LIST_MAX];
	struct kbloom_iblt_stats st;
	size_t len, n;
	void *img;
	__u64 d;
	int ret;

	check(kbloom_iblt_save_alloc(f, &img, &len) == 0, "save failed");
	check(len == size && !memcmp(img, data, size), "round trip differs");
	free(img);
	ret = kbloom_iblt_decode(f, e, FUZZ_LIST_MAX, &n);
	check(ret == 0 || ret == -E2BIG || ret == -ENOSPC,
	      "unexpected decode error");
	if (ret == 0)
		check_list(f, e, n);
	check(kbloom_iblt_stats(f, &st) == 0, "stats failed");
	if (st.strata > 1)
		check(kbloom_iblt_estimate(f, &d) == 0, "estimate failed");
}

static void one_image(const uint8_t *data, size_t size)
{
	const struct kbloom_image_hdr *h = (const void *)data;
	struct kbloom_iblt *f = NULL;
	int ver = kb_image_verify(data, size);
	int ret = kbloom_iblt_load(data, size, &f);

	if (ret) {
		check(f == NULL, "output written on failure");
		check(image_error(ret), "unexpected load error");
		return;
	}
	check(!ver && h->type == KBLOOM_TYPE_IBLT,
	      "an image accepted that kb_image_verify refuses");
	exercise(f, data, size);
	kbloom_iblt_destroy(f);
}

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

static int iblt_seed(const char *dir, unsigned int i, __u32 strata,
		     __u64 cells, __u32 hash, __u32 keys)
{
	struct kbloom_opts o = { .hash_id = hash, .seed = 0x1B17 + i };
	struct kbloom_iblt *f;
	char name[64];
	__u64 key, j;
	size_t len;
	void *img;
	int ret;

	ret = strata ? kbloom_iblt_create_strata(strata, cells, 4, 8, &o, &f) :
		       kbloom_iblt_create(cells, 4, 8, &o, &f);
	if (ret)
		return ret;
	for (j = 0; j < keys; j++) {
		key = (j + 1) * 0x9E3779B97F4A7C15ULL;
		if (j % 3)
			kbloom_iblt_insert(f, &key, 1 + j % 8, j);
		else
			kbloom_iblt_delete(f, &key, 1 + j % 8, j);
	}
	ret = kbloom_iblt_save_alloc(f, &img, &len);
	kbloom_iblt_destroy(f);
	if (ret)
		return ret;
	snprintf(name, sizeof(name), "iblt-%u", i);
	ret = fuzz_write_file(dir, name, img, len);
	free(img);
	return ret;
}

static int write_corpus(const char *dir)
{
	return iblt_seed(dir, 0, 0, 12, KBLOOM_HASH_FAST, 5) ?:
	       iblt_seed(dir, 1, 0, 40, KBLOOM_HASH_SIPHASH13, 20) ?:
	       iblt_seed(dir, 2, 0, 16, KBLOOM_HASH_FAST, 40) ?:
	       iblt_seed(dir, 3, 4, 20, KBLOOM_HASH_FAST, 50);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return fuzz_seed_option(*argc, *argv, "iblt_fuzz", write_corpus);
}
