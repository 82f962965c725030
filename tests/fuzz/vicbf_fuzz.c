// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the version-3 image contract (make fuzz): every
 * input goes to kb_image_verify(), kb_container_verify() and the VI-CBF
 * loader kbloom_vicbf_load(), as it is and with its checksum made right
 * (image and container), so that mutations reach the field checks.
 * Whatever the bytes, nothing may crash, overread or leak, and:
 *   - an image kb_image_verify() accepts is consistent: version 2 only
 *     for the classic types, version 3 only for later ones, with a shape
 *     kb_shape_check() accepts, the MAY_FN flag of its type and the
 *     payload of its shape;
 *   - kbloom_vicbf_load() accepts exactly the images kb_image_verify()
 *     accepts whose type is KBLOOM_TYPE_VI_COUNTING; a loaded filter saves
 *     the input back byte for byte, finds a key it added, deletes it, and
 *     reports occupancy within its counters;
 *   - a container kb_container_verify() accepts holds exactly count
 *     members, each a valid image of a non-container type with the
 *     container's hash id, filling payload_len.
 * A violation aborts, which libFuzzer reports as a crash.
 *
 * Seed corpus: -kbloom_seed_corpus=DIR writes valid VI images (both
 * counter widths, several L, both hashes, saturated counters) and a
 * container of two of them into DIR and exits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_crc.h"
#include "fuzz_seed.h"
#include "libkbloom_vicbf.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_variants.h"

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "vicbf_fuzz: %s\n", what);
		abort();
	}
}

/* The invariants of an image kb_image_verify() accepted. */
static void image_consistent(const void *img, size_t size)
{
	const struct kbloom_image_head *hd = img;
	const struct kbloom_image_hdr *h = &hd->h;
	struct kb_shape s;

	if (kb_le16(h->version) == KBLOOM_IMAGE_VERSION) {
		check(kb_type_classic(h->type), "version 2 of a later type");
		check(size == KBLOOM_IMAGE_HDR_LEN + kb_le64(h->payload_len),
		      "version 2 length");
		return;
	}
	check(kb_le16(h->version) == KBLOOM_IMAGE_VERSION_GEOM,
	      "unknown version accepted");
	check(!kb_type_classic(h->type), "version 3 of a classic type");
	kb_image_shape(h, &hd->g, &s);
	check(kb_shape_check(&s) == 0, "shape refused by kb_shape_check");
	check(kb_le64(h->payload_len) == kb_shape_words(&s) * 8,
	      "payload not the shape's");
	check(!!(h->flags & KBLOOM_IMAGE_F_MAY_FN) == !!kb_type_may_fn(h->type),
	      "MAY_FN flag not the type's");
}

/* A loaded VI filter: round trip and key operations. */
static void vi_exercise(struct kbloom_vicbf *f, const uint8_t *data,
			size_t size)
{
	static const char key[] = "fuzz-key";
	struct kbloom_vicbf_stats st;
	size_t len;
	void *img;

	check(kbloom_vicbf_save_alloc(f, &img, &len) == 0, "save failed");
	check(len == size && !memcmp(img, data, size), "round trip differs");
	free(img);
	check(kbloom_vicbf_stats(f, &st) == 0, "stats failed");
	check(st.saturated <= st.ones && st.ones <= st.m, "occupancy");
	check(kbloom_vicbf_test(f, key, sizeof(key) - 1) >= 0, "test failed");
	check(kbloom_vicbf_add(f, key, sizeof(key) - 1) >= 0, "add failed");
	check(kbloom_vicbf_test(f, key, sizeof(key) - 1) == 1,
	      "false negative");
	check(kbloom_vicbf_del(f, key, sizeof(key) - 1) == 0, "delete failed");
}

static void one_image(const uint8_t *data, size_t size)
{
	struct kbloom_image_hdr h;
	struct kbloom_vicbf *f = NULL;
	int ver, ret;

	ver = kb_image_verify(data, size);
	if (!ver)
		image_consistent(data, size);
	ret = kbloom_vicbf_load(data, size, &f);
	if (ret) {
		check(f == NULL, "output written on failure");
		check(ret == -EMSGSIZE || ret == -EBADMSG ||
		      ret == -EPROTONOSUPPORT || ret == -EOPNOTSUPP,
		      "unexpected load error");
		memcpy(&h, data, size < sizeof(h) ? 0 : sizeof(h));
		check(ver || (size >= sizeof(h) &&
			      h.type != KBLOOM_TYPE_VI_COUNTING),
		      "a valid VI image refused");
		return;
	}
	memcpy(&h, data, sizeof(h));
	check(!ver && h.type == KBLOOM_TYPE_VI_COUNTING,
	      "an image accepted that kb_image_verify refuses");
	vi_exercise(f, data, size);
	kbloom_vicbf_destroy(f);
}

static void one_container(const uint8_t *data, size_t size)
{
	const struct kbloom_container_hdr *c = (const void *)data;
	const struct kbloom_image_hdr *m;
	__u64 off = KBLOOM_CONTAINER_HDR_LEN, len;
	__u32 i;

	if (kb_container_verify(data, size))
		return;
	for (i = 0; i < kb_le32(c->count); i++) {
		check(kb_container_member(data, size, off, &len) == 0,
		      "member refused after the container was accepted");
		m = (const void *)(data + off);
		check(!kb_type_container(m->type), "container in a container");
		check(m->hash_id == c->hash_id, "member hash id");
		image_consistent(m, len);
		off += len;
	}
	check(off == size, "members do not fill the container");
}

/* Each input in an 8-byte aligned copy, as is and with its crc fixed. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = aligned_alloc(8, (size + 8) & ~(size_t)7);

	check(copy != NULL, "out of memory");
	memcpy(copy, data, size);
	one_image(copy, size);
	one_container(copy, size);
	fuzz_fix_crc(copy, size);
	one_image(copy, size);
	one_container(copy, size);
	free(copy);
	return 0;
}

/* ---- seed corpus ------------------------------------------------------- */

/* A VI image of @nkeys keys (and a hot key that saturates) in *img. */
static int vi_image(__u64 m, __u32 k, __u32 l, __u32 cb, __u32 hash_id,
		    int nkeys, void **img, size_t *len)
{
	struct kbloom_vicbf_opts o = { .hash_id = hash_id, .counter_bits = cb,
				       .vi_l = l, .seed = 0x5EED + m + k,
				       .name = "seed" };
	struct kbloom_vicbf *f;
	__u64 key;
	int i, ret;

	ret = kbloom_vicbf_create_mk(m, k, &o, &f);
	if (ret)
		return ret;
	for (i = 0; i < nkeys; i++) {
		key = (__u64)i * 0x9E3779B97F4A7C15ULL;
		kbloom_vicbf_add(f, &key, 8);
	}
	for (i = 0; i < 80; i++)
		kbloom_vicbf_add(f, "hot", 3);
	ret = kbloom_vicbf_save_alloc(f, img, len);
	kbloom_vicbf_destroy(f);
	return ret;
}

/* A container (type scalable) of the two images @a and @b. */
static int container(const char *dir, const void *a, size_t la,
		     const void *b, size_t lb)
{
	struct kbloom_container_hdr c = { 0 };
	uint8_t *buf;
	int ret;

	c.magic = kb_le32(KBLOOM_CONTAINER_MAGIC);
	c.version = kb_le16(KBLOOM_CONTAINER_VERSION);
	c.hdr_len = kb_le16(KBLOOM_CONTAINER_HDR_LEN);
	c.type = KBLOOM_TYPE_SCALABLE;
	c.hash_id = KBLOOM_HASH_FAST;
	c.count = kb_le32(2);
	c.payload_len = kb_le64(la + lb);
	buf = malloc(sizeof(c) + la + lb);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, &c, sizeof(c));
	memcpy(buf + sizeof(c), a, la);
	memcpy(buf + sizeof(c) + la, b, lb);
	fuzz_fix_crc(buf, sizeof(c) + la + lb);
	ret = kb_container_verify(buf, sizeof(c) + la + lb) ?:
	      fuzz_write_file(dir, "container-2vi.img", buf, sizeof(c) + la + lb);
	free(buf);
	return ret;
}

static int write_corpus(const char *dir)
{
	static const struct { __u64 m; __u32 k, l, cb, hash; int n; } s[] = {
		{ 1024, 4, 4, 4, KBLOOM_HASH_FAST, 60 },
		{ 512, 6, 3, 4, KBLOOM_HASH_SIPHASH13, 30 },
		{ 64, 1, 2, 4, KBLOOM_HASH_FAST, 4 },
		{ 256, 3, 64, 8, KBLOOM_HASH_FAST, 20 },
		{ 2048, 32, 16, 8, KBLOOM_HASH_SIPHASH13, 10 },
	};
	void *img[2] = { NULL, NULL }, *p;
	size_t len[2] = { 0, 0 }, l;
	char name[64];
	unsigned int i;
	int ret = 0;

	mkdir(dir, 0755);
	for (i = 0; i < sizeof(s) / sizeof(s[0]) && !ret; i++) {
		ret = vi_image(s[i].m, s[i].k, s[i].l, s[i].cb, s[i].hash,
			       s[i].n, &p, &l);
		if (ret)
			break;
		snprintf(name, sizeof(name), "vi-%u.img", i);
		ret = fuzz_write_file(dir, name, p, l);
		if (s[i].hash == KBLOOM_HASH_FAST && !img[1]) {
			img[!!img[0]] = p;
			len[!!len[0]] = l;
		} else {
			free(p);
		}
	}
	if (!ret && img[1])
		ret = container(dir, img[0], len[0], img[1], len[1]);
	free(img[0]);
	free(img[1]);
	return ret;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return fuzz_seed_option(*argc, *argv, "vicbf_fuzz", write_corpus);
}
