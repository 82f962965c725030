// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the cuckoo, d-left, partitioned, scalable, stable,
 * window and deletable image loaders (make fuzz): every input goes to
 * kb_image_verify(), kbloom_cuckoo_load(), kbloom_dleft_load(),
 * kbloom_part_load(), kbloom_sbf_load(), kbloom_stable_load() and
 * kbloom_win_load(), as it is and with its checksums made right (a
 * container's and its members').
 * Whatever the bytes, nothing may crash, overread or leak, and for each
 * loader:
 *   - it accepts exactly the images kb_image_verify() accepts whose type
 *     is its own, and writes nothing on failure;
 *   - a loaded filter saves the input back byte for byte, reports an
 *     occupancy within its slots or cells (partitioned: set bits within
 *     each slice), and a key it adds tests present (cuckoo, d-left:
 *     counts at least once and deletes).
 *   - the scalable loader accepts exactly the containers
 *     kb_container_verify() and kb_sbf_image_check() accept; a loaded
 *     filter saves the input back byte for byte, and a key it adds tests
 *     present (dynamic: and deletes, or is refused as ambiguous).
 * A violation aborts, which libFuzzer reports as a crash.
 *
 * Seed corpus: -kbloom_seed_corpus=DIR writes valid cuckoo images (every
 * bucket size, short and long fingerprints, both hashes, one full) and
 * d-left images (8-, 16-, 32- and odd-width cells, saturated counters)
 * and partitioned images (1, 4 and 32 slices, both hashes), scalable
 * and dynamic containers (one and several generations), stable images
 * (1-, 4- and 8-bit cells) and window images (a count and a time clock)
 * into DIR and exits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_crc.h"
#include "fuzz_seed.h"
#include "libkbloom.h"
#include "libkbloom_cuckoo.h"
#include "libkbloom_dleft.h"
#include "libkbloom_partitioned.h"
#include "libkbloom_scalable.h"
#include "libkbloom_stable.h"
#include "libkbloom_window.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_variants.h"

static const char vf_key[] = "fuzz-key";
#define VF_KEY_LEN	((__u32)sizeof(vf_key) - 1)

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "variant_fuzz: %s\n", what);
		abort();
	}
}

/* A loader's error: one of the image errors, and nothing written. */
static void load_refused(int ret, const void *out, int ver, __u8 type,
			 __u8 own)
{
	check(out == NULL, "output written on failure");
	check(ret == -EMSGSIZE || ret == -EBADMSG ||
	      ret == -EPROTONOSUPPORT || ret == -EOPNOTSUPP,
	      "unexpected load error");
	check(ver || type != own, "a valid image of the loader's type refused");
}

#include "variant_fuzz_deletable.h"

static void cuckoo_exercise(struct kbloom_cuckoo *c, const uint8_t *data,
			    size_t size)
{
	struct kbloom_cuckoo_stats st;
	size_t len = 0;
	void *img;
	int ret;

	len = kbloom_cuckoo_image_size(c);
	img = malloc(len ? len : 1);
	check(img != NULL, "out of memory");
	check(kbloom_cuckoo_save(c, img, len, &len) == 0, "save failed");
	check(len == size && !memcmp(img, data, size), "round trip differs");
	free(img);
	check(kbloom_cuckoo_stats(c, &st) == 0, "stats failed");
	check(st.used <= st.shape.m, "occupancy above the slots");
	ret = kbloom_cuckoo_add(c, vf_key, VF_KEY_LEN);
	check(ret == 0 || ret == -ENOSPC, "add failed");
	if (ret)
		return;
	check(kbloom_cuckoo_test(c, vf_key, VF_KEY_LEN) == 1,
	      "false negative");
	check(kbloom_cuckoo_count(c, vf_key, VF_KEY_LEN) >= 1, "count 0");
	check(kbloom_cuckoo_del(c, vf_key, VF_KEY_LEN) == 0, "delete failed");
}

static void dleft_exercise(struct kbloom_dleft *f, const uint8_t *data,
			   size_t size)
{
	struct kbloom_dleft_stats st;
	size_t len;
	__u64 n;
	void *img;
	int ret;

	len = kbloom_dleft_image_size(f);
	img = malloc(len ? len : 1);
	check(img != NULL, "out of memory");
	check(kbloom_dleft_save(f, img, len, &len) == 0, "save failed");
	check(len == size && !memcmp(img, data, size), "round trip differs");
	free(img);
	check(kbloom_dleft_stats(f, &st) == 0, "stats failed");
	check(st.cells_used <= st.shape.m, "occupancy above the cells");
	ret = kbloom_dleft_add(f, vf_key, VF_KEY_LEN);
	check(ret == 0 || ret == 1 || ret == -ENOSPC, "add failed");
	if (ret < 0)
		return;
	check(kbloom_dleft_test(f, vf_key, VF_KEY_LEN) == 1, "false negative");
	check(kbloom_dleft_count(f, vf_key, VF_KEY_LEN, &n) == 0 && n >= 1,
	      "count 0");
	check(kbloom_dleft_del(f, vf_key, VF_KEY_LEN) == 0, "delete failed");
}

static void part_exercise(struct kbloom_part *f, const uint8_t *data,
			  size_t size)
{
	struct kbloom_part_stats st;
	size_t len;
	void *img;

	len = kbloom_part_image_size(f);
	img = malloc(len ? len : 1);
	check(img != NULL, "out of memory");
	check(kbloom_part_save(f, img, len, &len) == 0, "save failed");
	check(len == size && !memcmp(img, data, size), "round trip differs");
	free(img);
	check(kbloom_part_stats(f, &st) == 0, "stats failed");
	check(st.ones <= st.shape.m && st.ones_max <= st.shape.buckets,
	      "set bits above the slices");
	check(kbloom_part_add(f, vf_key, VF_KEY_LEN) == 0, "add failed");
	check(kbloom_part_test(f, vf_key, VF_KEY_LEN) == 1, "false negative");
	check(kbloom_part_stats(f, &st) == 0 && st.ones_min >= 1,
	      "a slice without the key's bit");
}

static void part_one(const uint8_t *data, size_t size, int ver, __u8 type)
{
	struct kbloom_part *f = NULL;
	int ret = kbloom_part_load(data, size, &f);

	if (ret) {
		load_refused(ret, f, ver, type, KBLOOM_TYPE_PARTITIONED);
		return;
	}
	check(!ver && type == KBLOOM_TYPE_PARTITIONED,
	      "partitioned: an image accepted that kb_image_verify refuses");
	part_exercise(f, data, size);
	kbloom_part_destroy(f);
}

static void sbf_exercise(struct kbloom_sbf *f, const uint8_t *data,
			 size_t size)
{
	struct kbloom_sbf_stats st;
	size_t len;
	void *img;
	int ret;

	len = kbloom_sbf_image_size(f);
	img = malloc(len ? len : 1);
	check(img != NULL, "out of memory");
	check(kbloom_sbf_save(f, img, len, &len) == 0, "save failed");
	check(len == size && !memcmp(img, data, size), "round trip differs");
	free(img);
	check(kbloom_sbf_stats(f, &st) == 0 && st.generations >= 1,
	      "stats failed");
	ret = kbloom_sbf_add(f, vf_key, VF_KEY_LEN);
	check(ret == 0 || ret == 1 || ret == -ENOSPC, "add failed");
	if (ret == -ENOSPC)
		return;
	check(kbloom_sbf_test(f, vf_key, VF_KEY_LEN) == 1, "false negative");
	if (st.params.type != KBLOOM_TYPE_DYNAMIC)
		return;
	ret = kbloom_sbf_del(f, vf_key, VF_KEY_LEN);
	check(ret == 1 || ret == -ENOTUNIQ, "delete failed");
}

/* The scalable loader against kb_container_verify(), kb_sbf_image_check(). */
static void sbf_one(const uint8_t *data, size_t size)
{
	struct kbloom_sbf *f = NULL;
	struct kb_sbf_params p;
	int ver, ret = kbloom_sbf_load(data, size, &f);

	ver = kb_container_verify(data, size);
	if (!ver)
		ver = kb_sbf_image_check(data, size, &p);
	if (ret) {
		check(f == NULL, "output written on failure");
		check(ret == -EMSGSIZE || ret == -EBADMSG ||
		      ret == -EPROTONOSUPPORT || ret == -EOPNOTSUPP,
		      "unexpected load error");
		check(ver != 0, "scalable: a valid container refused");
		return;
	}
	check(!ver, "scalable: a container accepted that the checks refuse");
	sbf_exercise(f, data, size);
	kbloom_sbf_destroy(f);
}

static void stable_exercise(struct kbloom_stable *f, const uint8_t *data,
			    size_t size)
{
	struct kbloom_stable_stats st;
	size_t len;
	void *img;

	len = kbloom_stable_image_size(f);
	img = malloc(len ? len : 1);
	check(img != NULL, "out of memory");
	check(kbloom_stable_save(f, img, len, &len) == 0, "save failed");
	check(len == size && !memcmp(img, data, size), "round trip differs");
	check(((struct kbloom_image_hdr *)img)->flags == KBLOOM_IMAGE_F_MAY_FN,
	      "stable image without MAY_FN");
	free(img);
	check(kbloom_stable_stats(f, &st) == 0 && st.zeros <= st.shape.m,
	      "zero cells above the cells");
	check(kbloom_stable_test_add(f, vf_key, VF_KEY_LEN) >= 0,
	      "test_add failed");
	check(kbloom_stable_test(f, vf_key, VF_KEY_LEN) == 1,
	      "a key just added tests absent");
}

static void stable_one(const uint8_t *data, size_t size, int ver, __u8 type)
{
	struct kbloom_stable *f = NULL;
	int ret = kbloom_stable_load(data, size, &f);

	if (ret) {
		load_refused(ret, f, ver, type, KBLOOM_TYPE_STABLE);
		return;
	}
	check(!ver && type == KBLOOM_TYPE_STABLE,
	      "stable: an image accepted that kb_image_verify refuses");
	stable_exercise(f, data, size);
	kbloom_stable_destroy(f);
}

/*
 * A loaded window: a count window saves the input back byte for byte (a
 * time window's clock is its age, read again: everything else); a key it
 * adds tests present.
 */
static void win_exercise(struct kbloom_win *f, const uint8_t *data,
			 size_t size)
{
	struct kbloom_win_stats st;
	size_t len, hl = KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN;
	__u8 *img;

	len = kbloom_win_image_size(f);
	img = malloc(len ? len : 1);
	check(img != NULL, "out of memory");
	check(kbloom_win_save(f, img, len, &len) == 0, "save failed");
	check(len == size && kb_image_verify(img, len) == 0,
	      "window: saved image refused");
	check(!memcmp(img + hl, data + hl, size - hl), "payload differs");
	check(kbloom_win_stats(f, &st) == 0, "stats failed");
	check(st.shape.update == KB_WIN_CLOCK_NS || !memcmp(img, data, size),
	      "round trip differs");
	free(img);
	check(st.ones <= st.shape.m && st.head < st.shape.k + st.shape.tables,
	      "window state out of range");
	check(kbloom_win_add(f, vf_key, VF_KEY_LEN) == 0, "add failed");
	check(kbloom_win_test(f, vf_key, VF_KEY_LEN) == 1, "false negative");
}

static void win_one(const uint8_t *data, size_t size, int ver, __u8 type)
{
	struct kbloom_win *f = NULL;
	int ret = kbloom_win_load(data, size, &f);

	if (ret) {
		load_refused(ret, f, ver, type, KBLOOM_TYPE_AGE_PARTITIONED);
		return;
	}
	check(!ver && type == KBLOOM_TYPE_AGE_PARTITIONED,
	      "window: an image accepted that kb_image_verify refuses");
	win_exercise(f, data, size);
	kbloom_win_destroy(f);
}

static void one_image(const uint8_t *data, size_t size)
{
	struct kbloom_cuckoo *c = NULL;
	struct kbloom_dleft *f = NULL;
	__u8 type = 0;
	int ver, ret;

	if (size >= sizeof(struct kbloom_image_hdr))
		type = ((const struct kbloom_image_hdr *)data)->type;
	ver = kb_image_verify(data, size);
	part_one(data, size, ver, type);
	sbf_one(data, size);
	stable_one(data, size, ver, type);
	win_one(data, size, ver, type);
	del_one(data, size, ver, type);
	ret = kbloom_cuckoo_load(data, size, &c);
	if (ret) {
		load_refused(ret, c, ver, type, KBLOOM_TYPE_CUCKOO);
	} else {
		check(!ver && type == KBLOOM_TYPE_CUCKOO,
		      "cuckoo: an image accepted that kb_image_verify refuses");
		cuckoo_exercise(c, data, size);
		kbloom_cuckoo_destroy(c);
	}
	ret = kbloom_dleft_load(data, size, &f);
	if (ret) {
		load_refused(ret, f, ver, type, KBLOOM_TYPE_DLEFT);
		return;
	}
	check(!ver && type == KBLOOM_TYPE_DLEFT,
	      "d-left: an image accepted that kb_image_verify refuses");
	dleft_exercise(f, data, size);
	kbloom_dleft_destroy(f);
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

static int save_cuckoo(const char *dir, const char *name,
		       const struct kbloom_cuckoo *c)
{
	size_t len = kbloom_cuckoo_image_size(c);
	void *img = malloc(len);
	int ret = img ? kbloom_cuckoo_save(c, img, len, &len) : -ENOMEM;

	if (!ret)
		ret = fuzz_write_file(dir, name, img, len);
	free(img);
	return ret;
}

/* A cuckoo image of @fp-bit prints, @slots a bucket, filled with @n keys. */
static int cuckoo_seed(const char *dir, unsigned int i, __u32 fp,
		       __u32 slots, __u64 buckets, __u32 hash, __u64 n)
{
	struct kbloom_opts o = { .hash_id = hash, .seed = 0x5EED + i,
				 .name = "seed" };
	struct kbloom_cuckoo *c;
	char name[64];
	__u64 j, key;
	int ret;

	ret = kbloom_cuckoo_create_shape(fp, slots, buckets, &o, &c);
	if (ret)
		return ret;
	for (j = 0; j < n; j++) {
		key = j * 0x9E3779B97F4A7C15ULL;
		kbloom_cuckoo_add(c, &key, 8);	/* the last ones may not fit */
	}
	snprintf(name, sizeof(name), "cuckoo-%u.img", i);
	ret = save_cuckoo(dir, name, c);
	kbloom_cuckoo_destroy(c);
	return ret;
}

static int save_dleft(const char *dir, const char *name,
		      const struct kbloom_dleft *f)
{
	size_t len = kbloom_dleft_image_size(f);
	void *img = malloc(len);
	int ret = img ? kbloom_dleft_save(f, img, len, &len) : -ENOMEM;

	if (!ret)
		ret = fuzz_write_file(dir, name, img, len);
	free(img);
	return ret;
}

/* A d-left image of @s holding @n keys and a saturated hot key. */
static int dleft_seed(const char *dir, unsigned int i,
		      const struct kb_shape *s, __u32 hash, __u64 n)
{
	struct kbloom_dleft_opts o = { .hash_id = hash, .seed = 0xD1EF + i,
				       .name = "seed" };
	struct kbloom_dleft *f;
	char name[64];
	__u64 j, key;
	int ret;

	ret = kbloom_dleft_create_shape(s, &o, &f);
	if (ret)
		return ret;
	for (j = 0; j < n; j++) {
		key = j * 0x9E3779B97F4A7C15ULL;
		kbloom_dleft_add(f, &key, 8);
	}
	for (j = 0; j < 20; j++)
		kbloom_dleft_add(f, "hot", 3);
	snprintf(name, sizeof(name), "dleft-%u.img", i);
	ret = save_dleft(dir, name, f);
	kbloom_dleft_destroy(f);
	return ret;
}

/* A partitioned image of @k slices of @slice bits holding @n keys. */
static int part_seed(const char *dir, unsigned int i, __u32 k, __u64 slice,
		     __u32 hash, __u64 n)
{
	struct kbloom_opts o = { .hash_id = hash, .seed = 0x9A27 + i,
				 .name = "seed" };
	struct kbloom_part *f;
	char name[64];
	size_t len;
	__u64 j, key;
	void *img;
	int ret;

	ret = kbloom_part_create_ks(k, slice, &o, &f);
	if (ret)
		return ret;
	for (j = 0; j < n; j++) {
		key = j * 0x9E3779B97F4A7C15ULL;
		kbloom_part_add(f, &key, 8);
	}
	ret = kbloom_part_save_alloc(f, &img, &len);
	kbloom_part_destroy(f);
	if (ret)
		return ret;
	snprintf(name, sizeof(name), "part-%u.img", i);
	ret = fuzz_write_file(dir, name, img, len);
	free(img);
	return ret;
}

/* A scalable or dynamic container of @n keys from a first capacity @c. */
static int sbf_seed(const char *dir, unsigned int i, __u32 type, __u64 c,
		    __u32 hash, __u64 n)
{
	struct kbloom_opts o = { .hash_id = hash, .seed = 0x5CA1 + i,
				 .name = "seed" };
	struct kb_sbf_params p = { .type = type, .capacity = c,
				   .fpr_pico = 10000000000ULL };
	struct kbloom_sbf *f;
	char name[32];
	size_t len;
	__u64 key;
	void *img;
	int ret;

	ret = kbloom_sbf_create(&p, &o, &f);
	if (ret)
		return ret;
	for (key = 0; key < n; key++)
		kbloom_sbf_add(f, &key, 8);
	ret = kbloom_sbf_save_alloc(f, &img, &len);
	kbloom_sbf_destroy(f);
	if (ret)
		return ret;
	snprintf(name, sizeof(name), "sbf-%u.img", i);
	ret = fuzz_write_file(dir, name, img, len);
	free(img);
	return ret;
}

/* A stable image of @m cells of @d bits, P = @p, holding @n keys. */
static int stable_seed(const char *dir, unsigned int i, __u64 m, __u32 d,
		       __u32 p, __u64 n)
{
	struct kbloom_opts o = { .seed = 0x57AB + i, .name = "seed" };
	struct kbloom_stable *f;
	char name[64];
	size_t len;
	__u64 j, key;
	void *img;
	int ret;

	ret = kbloom_stable_create(m, 3, d, p, &o, &f);
	if (ret)
		return ret;
	for (j = 0; j < n; j++) {
		key = j * 0x9E3779B97F4A7C15ULL;
		kbloom_stable_add(f, &key, 8);
	}
	ret = kbloom_stable_save_alloc(f, &img, &len);
	kbloom_stable_destroy(f);
	if (ret)
		return ret;
	snprintf(name, sizeof(name), "stable-%u.img", i);
	ret = fuzz_write_file(dir, name, img, len);
	free(img);
	return ret;
}

/* A window image of @k + @l slices, either clock, after @n keys. */
static int win_seed(const char *dir, unsigned int i, __u32 k, __u32 l,
		    __u32 clock, __u64 n)
{
	struct kbloom_win_params wp = { .clock = clock, .k = k, .l = l,
					.slice_bits = 128 };
	struct kbloom_opts o = { .seed = 0x3A11 + i, .name = "seed" };
	struct kbloom_win *f;
	char name[64];
	size_t len;
	__u64 j, key;
	void *img;
	int ret;

	wp.window = clock == KB_WIN_CLOCK_KEYS ? 3ULL * l : 1000000000ULL;
	ret = kbloom_win_create(&wp, &o, &f);
	if (ret)
		return ret;
	for (j = 0; j < n; j++) {
		key = j * 0x9E3779B97F4A7C15ULL;
		kbloom_win_add(f, &key, 8);
	}
	ret = kbloom_win_save_alloc(f, &img, &len);
	kbloom_win_destroy(f);
	if (ret)
		return ret;
	snprintf(name, sizeof(name), "window-%u.img", i);
	ret = fuzz_write_file(dir, name, img, len);
	free(img);
	return ret;
}

static int write_corpus(const char *dir)
{
	static const struct { __u32 fp, slots, hash; __u64 buckets, n; } c[] = {
		{ 12, 4, KBLOOM_HASH_FAST, 64, 200 },
		{ 8, 1, KBLOOM_HASH_SIPHASH13, 32, 40 },
		{ 16, 2, KBLOOM_HASH_FAST, 16, 30 },
		{ 24, 8, KBLOOM_HASH_FAST, 8, 70 },
		{ 4, 4, KBLOOM_HASH_FAST, 4, 100 },	/* full */
	};
	static const struct kb_shape d[] = {
		{ .type = KBLOOM_TYPE_DLEFT, .tables = 4, .slots = 8,
		  .fp_bits = 12, .counter_bits = 4, .buckets = 16 },
		{ .type = KBLOOM_TYPE_DLEFT, .tables = 2, .slots = 8,
		  .fp_bits = 6, .counter_bits = 2, .buckets = 8 },
		{ .type = KBLOOM_TYPE_DLEFT, .tables = 3, .slots = 5,
		  .fp_bits = 28, .counter_bits = 4, .buckets = 4 },
		{ .type = KBLOOM_TYPE_DLEFT, .tables = 4, .slots = 3,
		  .fp_bits = 13, .counter_bits = 4, .buckets = 8 },
	};
	unsigned int i;
	int ret = 0;

	mkdir(dir, 0755);
	ret = sbf_seed(dir, 0, KBLOOM_TYPE_SCALABLE, 8, KBLOOM_HASH_FAST, 5);
	if (!ret)
		ret = sbf_seed(dir, 1, KBLOOM_TYPE_SCALABLE, 8,
			       KBLOOM_HASH_SIPHASH13, 60);
	if (!ret)
		ret = sbf_seed(dir, 2, KBLOOM_TYPE_DYNAMIC, 10,
			       KBLOOM_HASH_FAST, 35);
	if (!ret)
		ret = part_seed(dir, 0, 4, 256, KBLOOM_HASH_FAST, 60);
	if (!ret)
		ret = part_seed(dir, 1, 1, 64, KBLOOM_HASH_SIPHASH13, 20);
	if (!ret)
		ret = part_seed(dir, 2, 32, 128, KBLOOM_HASH_FAST, 30);
	if (!ret)
		ret = stable_seed(dir, 0, 256, 1, 10, 100);
	if (!ret)
		ret = stable_seed(dir, 1, 128, 4, 3, 50);
	if (!ret)
		ret = stable_seed(dir, 2, 64, 8, 64, 20);
	if (!ret)
		ret = win_seed(dir, 0, 3, 2, KB_WIN_CLOCK_KEYS, 40);
	if (!ret)
		ret = win_seed(dir, 1, 10, 7, KB_WIN_CLOCK_NS, 50);
	if (!ret)
		ret = del_seeds(dir);
	for (i = 0; !ret && i < sizeof(c) / sizeof(c[0]); i++)
		ret = cuckoo_seed(dir, i, c[i].fp, c[i].slots, c[i].buckets,
				  c[i].hash, c[i].n);
	for (i = 0; !ret && i < sizeof(d) / sizeof(d[0]); i++)
		ret = dleft_seed(dir, i, &d[i],
				 i & 1 ? KBLOOM_HASH_SIPHASH13 :
					 KBLOOM_HASH_FAST, 40);
	return ret;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return fuzz_seed_option(*argc, *argv, "variant_fuzz", write_corpus);
}
