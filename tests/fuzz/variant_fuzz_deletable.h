/* SPDX-License-Identifier: GPL-2.0 */
/*
 * variant_fuzz.c's part for the deletable filter (included there after
 * check() and load_refused()): kbloom_del_load() accepts exactly the
 * deletable images kb_image_verify() accepts and writes nothing on
 * failure; a loaded filter saves the input back byte for byte, its
 * collided regions are at most r, a key it adds tests present and
 * deletes or is refused as not deletable (and then still tests
 * present).  Seeds: regions of 1, 4 and 64 bits, both hashes.
 */
#ifndef _VARIANT_FUZZ_DELETABLE_H
#define _VARIANT_FUZZ_DELETABLE_H

#include "libkbloom_deletable.h"

static void del_exercise(struct kbloom_del *f, const uint8_t *data,
			 size_t size)
{
	struct kbloom_del_stats st;
	size_t len;
	void *img;
	int ret;

	len = kbloom_del_image_size(f);
	img = malloc(len ? len : 1);
	check(img != NULL, "out of memory");
	check(kbloom_del_save(f, img, len, &len) == 0, "save failed");
	check(len == size && !memcmp(img, data, size), "round trip differs");
	free(img);
	check(kbloom_del_stats(f, &st) == 0, "stats failed");
	check(st.ones <= st.shape.m && st.collided <= st.regions,
	      "bits past the body or the regions");
	check(kbloom_del_add(f, vf_key, VF_KEY_LEN) == 0, "add failed");
	check(kbloom_del_test(f, vf_key, VF_KEY_LEN) == 1, "false negative");
	ret = kbloom_del_delete(f, vf_key, VF_KEY_LEN);
	check(ret == 1 || ret == -ENOTUNIQ, "delete failed");
	check(ret == 1 || kbloom_del_test(f, vf_key, VF_KEY_LEN) == 1,
	      "a refused delete changed the key");
}

static void del_one(const uint8_t *data, size_t size, int ver, __u8 type)
{
	struct kbloom_del *f = NULL;
	int ret = kbloom_del_load(data, size, &f);

	if (ret) {
		load_refused(ret, f, ver, type, KBLOOM_TYPE_DELETABLE);
		return;
	}
	check(!ver && type == KBLOOM_TYPE_DELETABLE,
	      "deletable: an image accepted that kb_image_verify refuses");
	del_exercise(f, data, size);
	kbloom_del_destroy(f);
}

/* A deletable image of @m bits, regions of @s, @n keys, every third deleted. */
static int del_seed(const char *dir, unsigned int i, __u64 m, __u64 s,
		    __u32 hash, __u64 n)
{
	struct kbloom_opts o = { .hash_id = hash, .seed = 0xD1B + i,
				 .name = "seed" };
	struct kbloom_del *f;
	char name[64];
	size_t len;
	__u64 j, key;
	void *img;
	int ret;

	ret = kbloom_del_create_mk(m, 4, s, &o, &f);
	if (ret)
		return ret;
	for (j = 0; j < n; j++) {
		key = j * 0x9E3779B97F4A7C15ULL;
		kbloom_del_add(f, &key, 8);
	}
	for (j = 0; j < n; j += 3) {
		key = j * 0x9E3779B97F4A7C15ULL;
		kbloom_del_delete(f, &key, 8);
	}
	ret = kbloom_del_save_alloc(f, &img, &len);
	kbloom_del_destroy(f);
	if (ret)
		return ret;
	snprintf(name, sizeof(name), "deletable-%u.img", i);
	ret = fuzz_write_file(dir, name, img, len);
	free(img);
	return ret;
}

static int del_seeds(const char *dir)
{
	int ret = del_seed(dir, 0, 256, 4, KBLOOM_HASH_FAST, 20);

	if (!ret)
		ret = del_seed(dir, 1, 64, 1, KBLOOM_HASH_SIPHASH13, 5);
	if (!ret)
		ret = del_seed(dir, 2, 1024, 64, KBLOOM_HASH_FAST, 60);
	return ret;
}

#endif /* _VARIANT_FUZZ_DELETABLE_H */
