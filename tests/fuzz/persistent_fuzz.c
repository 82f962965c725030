// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the persistent archive loader (make fuzz): every
 * input goes to kb_container_verify() and kbloom_pers_load(), as it is,
 * with the container's checksum made right, and with every member's
 * checksum made right too (so that mutations inside a member reach the
 * node and geometry checks).  Whatever the bytes, nothing may crash,
 * overread or leak, and:
 *   - the loader accepts only containers kb_container_verify() accepts,
 *     of the persistent type, and writes nothing on failure (one of the
 *     image errors);
 *   - a loaded archive saves the input back byte for byte, holds
 *     2 n - popcount(n) filters, covers its whole range within
 *     kb_pers_cover_max() filters, and finds in that range a key of its
 *     last epoch's filter;
 *   - the reader of files (kbloom_pers_test_file(), on the bytes in a
 *     memory file) gives an image error or an answer, the loaded
 *     archive's when there is one.
 * A violation aborts, which libFuzzer reports as a crash.
 *
 * Seed corpus: -kbloom_seed_corpus=DIR writes archives of 1, 3 and 6
 * epochs (blocked, standard, counting; both hashes) into DIR and exits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "fuzz_crc.h"
#include "fuzz_seed.h"
#include "libkbloom.h"
#include "libkbloom_persistent.h"

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "persistent_fuzz: %s\n", what);
		abort();
	}
}

/* The key "last" is in the last epoch's filter: a range test finds it. */
static void pers_exercise(const struct kbloom_pers *a, const uint8_t *data,
			  size_t size)
{
	struct kbloom_pers_stats st;
	struct kbloom_pers_query q;
	void *img;
	size_t len;
	int ret;

	check(kbloom_pers_save_alloc(a, &img, &len) == 0, "save failed");
	check(len == size && !memcmp(img, data, size), "round trip differs");
	free(img);
	check(kbloom_pers_stats(a, &st) == 0, "stats failed");
	check(st.epochs && st.members == kb_pers_members(st.epochs),
	      "filters held not 2n - popcount(n)");
	ret = kbloom_pers_test(a, st.first, st.first + st.epochs - 1, "last",
			       4, &q);
	check(ret == 0 || ret == 1, "range test failed");
	check(q.cover <= kb_pers_cover_max(st.epochs) && q.tested <= q.cover,
	      "cover above 2 log2 L");
	check(kbloom_pers_test(a, st.first + st.epochs, st.first + st.epochs,
			       "x", 1, NULL) == -ERANGE ||
	      st.first + st.epochs == 0, "a range past the archive answered");
}

static int image_error(int ret)
{
	return ret == -EMSGSIZE || ret == -EBADMSG ||
	       ret == -EPROTONOSUPPORT || ret == -EOPNOTSUPP;
}

/*
 * The reader of files (kbloom_pers_test_file()) on the same bytes, in a
 * memory file: an image error, or the in-memory answer when @a loaded.
 */
static void file_query(const uint8_t *data, size_t size,
		       const struct kbloom_pers *a)
{
	static int fd = -1;
	static char path[64];
	__u64 first, n;
	int ret;

	if (fd < 0) {
		fd = memfd_create("persistent_fuzz", 0);
		check(fd >= 0, "memfd_create failed");
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	check(!ftruncate(fd, 0) && pwrite(fd, data, size, 0) == (ssize_t)size,
	      "memfd write failed");
	ret = kbloom_pers_file_epochs(path, &first, &n);
	if (ret) {
		check(image_error(ret), "unexpected file header error");
		check(!a, "a loaded archive's file header refused");
		return;
	}
	ret = kbloom_pers_test_file(path, first, first + n - 1, "last", 4,
				    NULL);
	check(ret == 0 || ret == 1 || image_error(ret),
	      "unexpected file query error");
	if (a)
		check(ret == kbloom_pers_test(a, first, first + n - 1, "last",
					      4, NULL),
		      "file query differs from the loaded archive");
}

static void one_archive(const uint8_t *data, size_t size)
{
	const struct kbloom_container_hdr *c = (const void *)data;
	struct kbloom_pers *a = NULL;
	int ver = kb_container_verify(data, size);
	int ret = kbloom_pers_load(data, size, &a);

	if (ret) {
		check(a == NULL, "output written on failure");
		check(image_error(ret), "unexpected load error");
		file_query(data, size, NULL);
		return;
	}
	check(!ver && c->type == KBLOOM_TYPE_PERSISTENT,
	      "an archive accepted that kb_container_verify refuses");
	pers_exercise(a, data, size);
	file_query(data, size, a);
	kbloom_pers_destroy(a);
}

/* Each version-2 member's checksum made right, as far as they parse. */
static void fix_members(uint8_t *b, size_t size)
{
	struct kbloom_image_hdr h;
	size_t off = KBLOOM_CONTAINER_HDR_LEN;
	__u64 len;

	while (off + sizeof(h) <= size) {
		memcpy(&h, b + off, sizeof(h));
		len = kb_le64(h.payload_len);
		if (kb_le16(h.hdr_len) != sizeof(h) ||
		    len > size - off - sizeof(h))
			return;
		len += sizeof(h);
		h.crc = kb_le32(kb_image_crc(&h, b + off + sizeof(h),
					     len - sizeof(h)));
		memcpy(b + off, &h, sizeof(h));
		off += len;
	}
}

/* Each input in an 8-byte aligned copy: as is, crc fixed, members too. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = aligned_alloc(8, (size + 8) & ~(size_t)7);

	check(copy != NULL, "out of memory");
	memcpy(copy, data, size);
	one_archive(copy, size);
	fuzz_fix_crc(copy, size);
	one_archive(copy, size);
	fix_members(copy, size);
	fuzz_fix_crc(copy, size);
	one_archive(copy, size);
	free(copy);
	return 0;
}

/* ---- seed corpus ------------------------------------------------------- */

/* An archive of @n epochs of @type (m bits, k probes), 30 keys each. */
static int pers_seed(const char *dir, unsigned int i, __u32 type, __u64 m,
		     __u32 k, __u32 hash, __u64 n)
{
	struct kbloom_opts o = { .hash_id = hash, .seed = 0x9E75 + i };
	struct kbloom_filter *f;
	struct kbloom_pers *a;
	__u64 e, j, key;
	char name[64];
	size_t len;
	void *img;
	int ret;

	ret = kbloom_pers_create(&a);
	for (e = 0; !ret && e < n; e++) {
		ret = kbloom_create_mk(type, m, k, &o, &f);
		for (j = 0; !ret && j < 30; j++) {
			key = (e << 8 | j) * 0x9E3779B97F4A7C15ULL;
			kbloom_add(f, &key, 8);
		}
		if (!ret && e == n - 1)
			kbloom_add(f, "last", 4);
		ret = ret ?: kbloom_pers_append(a, e ? KBLOOM_PERS_NEXT :
						100 * i, f);
	}
	ret = ret ?: kbloom_pers_save_alloc(a, &img, &len);
	kbloom_pers_destroy(a);
	if (ret)
		return ret;
	snprintf(name, sizeof(name), "pers-%u.img", i);
	ret = fuzz_write_file(dir, name, img, len);
	free(img);
	return ret;
}

static int write_corpus(const char *dir)
{
	int ret;

	mkdir(dir, 0755);
	ret = pers_seed(dir, 0, KBLOOM_TYPE_BLOCKED, 512, 3,
			KBLOOM_HASH_FAST, 6);
	ret = ret ?: pers_seed(dir, 1, KBLOOM_TYPE_STANDARD, 256, 2,
			       KBLOOM_HASH_SIPHASH13, 3);
	ret = ret ?: pers_seed(dir, 2, KBLOOM_TYPE_COUNTING, 128, 2,
			       KBLOOM_HASH_FAST, 1);
	ret = ret ?: pers_seed(dir, 3, KBLOOM_TYPE_COUNTING, 64, 1,
			       KBLOOM_HASH_FAST, 3);
	return ret;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return fuzz_seed_option(*argc, *argv, "persistent_fuzz", write_corpus);
}
