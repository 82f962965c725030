// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the image loader (make fuzz).
 *
 * Each input is offered to kbloom_load() as an image, once as it is and
 * once with its checksum made right.  Whatever it is,
 * the loader must not crash, overread or leak; when it accepts an image:
 *   - saving the filter again reproduces the input byte for byte (the
 *     loader kept every field and every word);
 *   - a key can be tested, added and then must be found;
 *   - kbloom_load_into() of the same image into the new filter succeeds.
 * A violation aborts, which libFuzzer reports as a crash.
 *
 * Seed corpus: run the target with -kbloom_seed_corpus=DIR to write valid
 * images of every type, hash and counter width into DIR and exit (the
 * option is handled in LLVMFuzzerInitialize(), before libFuzzer parses its
 * own flags).
 *
 * Build and run (what make fuzz does):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -Iuserspace/include \
 *         -D_GNU_SOURCE -o build/fuzz/image_fuzz tests/fuzz/image_fuzz.c \
 *         userspace/lib/{filter,batch,image,stats,simd}.c -lm
 *   build/fuzz/image_fuzz -kbloom_seed_corpus=build/fuzz/corpus
 *   build/fuzz/image_fuzz -max_total_time=60 build/fuzz/corpus
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_seed.h"
#include "libkbloom.h"

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "image_fuzz: %s\n", what);
		abort();
	}
}

static int one_image(const uint8_t *data, size_t size)
{
	struct kbloom_filter *f = NULL;
	static const char key[] = "fuzz-key";
	struct kbloom_stats st;
	void *img;
	size_t len;
	int ret;

	ret = kbloom_load(data, size, &f);
	if (ret) {
		check(ret == -EMSGSIZE || ret == -EBADMSG ||
		      ret == -EPROTONOSUPPORT || ret == -EOPNOTSUPP,
		      "unexpected load error");
		check(f == NULL, "output written on failure");
		return 0;
	}
	check(kbloom_save_alloc(f, &img, &len) == 0, "save failed");
	check(len == size && !memcmp(img, data, size), "round trip differs");
	check(kbloom_load_into(f, data, size) == 0, "load_into failed");
	check(kbloom_stats(f, &st) == 0, "stats failed");
	check(kbloom_test(f, key, sizeof(key) - 1) >= 0, "test failed");
	check(kbloom_add(f, key, sizeof(key) - 1) >= 0, "add failed");
	check(kbloom_test(f, key, sizeof(key) - 1) == 1, "false negative");
	if (st.type == KBLOOM_TYPE_COUNTING) {
		ret = kbloom_del(f, key, sizeof(key) - 1);
		check(ret == 0, "delete of a present key failed");
	}
	free(img);
	kbloom_destroy(f);
	return 1;
}

/*
 * Each input twice: as it is (the checksum nearly always stops a mutated
 * image), and with its checksum recomputed, so that mutations reach the
 * header consistency checks and the loader's use of the fields.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kbloom_image_hdr h;
	uint8_t *copy;

	one_image(data, size);
	if (size < KBLOOM_IMAGE_HDR_LEN)
		return 0;
	copy = malloc(size);
	check(copy != NULL, "out of memory");
	memcpy(copy, data, size);
	memcpy(&h, copy, sizeof(h));
	h.crc = kb_le32(kb_image_crc(&h, copy + KBLOOM_IMAGE_HDR_LEN,
				     size - KBLOOM_IMAGE_HDR_LEN));
	memcpy(copy, &h, sizeof(h));
	one_image(copy, size);
	free(copy);
	return 0;
}

/* ---- seed corpus ------------------------------------------------------- */

static int write_seed(const char *dir, const char *name, __u32 type, __u64 m,
		      __u32 k, __u32 hash_id, __u32 cb, int nkeys)
{
	struct kbloom_opts o = { .hash_id = hash_id, .counter_bits = cb,
				 .seed = 0x5EED0000 + m + k, .name = name };
	struct kbloom_filter *f;
	char file[64];
	__u64 key;
	void *img;
	size_t len;
	int i, ret;

	ret = kbloom_create_mk(type, m, k, &o, &f);
	if (ret)
		return ret;
	for (i = 0; i < nkeys; i++) {
		key = (__u64)i * 0x9E3779B97F4A7C15ULL;
		kbloom_add(f, &key, 8);
	}
	if (type == KBLOOM_TYPE_COUNTING)
		for (i = 0; i < 300; i++)	/* saturations */
			kbloom_add(f, "hot", 3);
	ret = kbloom_save_alloc(f, &img, &len);
	kbloom_destroy(f);
	if (ret)
		return ret;
	snprintf(file, sizeof(file), "%s.img", name);
	ret = fuzz_write_file(dir, file, img, len);
	free(img);
	return ret;
}

static int write_corpus(const char *dir)
{
	int ret = 0;

	mkdir(dir, 0755);
	ret |= write_seed(dir, "blocked-fast", KBLOOM_TYPE_BLOCKED, 4096, 7,
			  KBLOOM_HASH_FAST, 0, 40);
	ret |= write_seed(dir, "blocked-sip", KBLOOM_TYPE_BLOCKED, 1024, 6,
			  KBLOOM_HASH_SIPHASH13, 0, 10);
	ret |= write_seed(dir, "blocked-k16", KBLOOM_TYPE_BLOCKED, 512, 16,
			  KBLOOM_HASH_FAST, 0, 5);
	ret |= write_seed(dir, "standard-fast", KBLOOM_TYPE_STANDARD, 2048, 5,
			  KBLOOM_HASH_FAST, 0, 60);
	ret |= write_seed(dir, "standard-sip", KBLOOM_TYPE_STANDARD, 64, 1,
			  KBLOOM_HASH_SIPHASH13, 0, 3);
	ret |= write_seed(dir, "counting4", KBLOOM_TYPE_COUNTING, 512, 4,
			  KBLOOM_HASH_FAST, 4, 30);
	ret |= write_seed(dir, "counting8-sip", KBLOOM_TYPE_COUNTING, 256, 3,
			  KBLOOM_HASH_SIPHASH13, 8, 20);
	ret |= write_seed(dir, "counting4-k32", KBLOOM_TYPE_COUNTING, 64, 32,
			  KBLOOM_HASH_FAST, 4, 2);
	return ret;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return fuzz_seed_option(*argc, *argv, "image_fuzz", write_corpus);
}
