// SPDX-License-Identifier: GPL-2.0
/*
 * Filter images: bit-exact round trips for every type, in memory and in
 * files; every truncation, a flipped byte in every header field and in
 * the payload, and every inconsistent field are rejected with the errno
 * uapi/kbloom_image.h documents, before anything is allocated or changed;
 * an image written field by field from uapi/ alone (as kbloom.ko writes
 * it) loads.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"
#include "uapi/kbloom_image.h"
#include "core_util.h"

/*
 * Allocation counting through the sanitizer allocator hooks (the suite is
 * built with ASan); without ASan the counts stay 0 and the checks are
 * vacuous.
 */
#if defined(__SANITIZE_ADDRESS__)
/* <sanitizer/allocator_interface.h>, which gcc does not install */
int __sanitizer_install_malloc_and_free_hooks(
	void (*malloc_hook)(const volatile void *, size_t),
	void (*free_hook)(const volatile void *));
size_t __sanitizer_get_current_allocated_bytes(void);

static volatile long n_allocs;

static void count_malloc(const volatile void *p, size_t size)
{
	n_allocs++;
}

static void count_free(const volatile void *p)
{
}

__attribute__((constructor)) static void install_hooks(void)
{
	__sanitizer_install_malloc_and_free_hooks(count_malloc, count_free);
}

static size_t heap_in_use(void)
{
	return __sanitizer_get_current_allocated_bytes();
}
#else
static volatile long n_allocs;

static size_t heap_in_use(void)
{
	return 0;
}
#endif

#define SENTINEL ((struct kbloom_filter *)0x5EA1)

/* A small filter with some keys, its image and its size. */
struct img {
	struct kbloom_filter *f;
	__u8 *buf;
	size_t len;
};

static int make_img(struct img *im, __u32 type, __u64 m, __u32 k,
		    __u32 hash_id, __u32 cb)
{
	struct kbloom_opts o = { .hash_id = hash_id, .counter_bits = cb,
				 .seed = 0x1D1D, .name = "img-test" };
	__u64 i, key;
	int ret;

	ret = kbloom_create_mk(type, m, k, &o, &im->f);
	if (ret)
		return ret;
	for (i = 0; i < m / 16; i++) {
		key = cu_mix(i);
		kbloom_add(im->f, &key, 8);
	}
	if (type == KBLOOM_TYPE_COUNTING) {
		/* saturate one key's counters: a non-zero saturation count */
		for (i = 0; i < 300; i++)
			kbloom_add(im->f, "hot", 3);
	}
	return kbloom_save_alloc(im->f, (void **)&im->buf, &im->len);
}

static void free_img(struct img *im)
{
	kbloom_destroy(im->f);
	free(im->buf);
}

/* Recompute the checksum of an image whose header was edited. */
static void reseal(__u8 *buf, size_t len)
{
	struct kbloom_image_hdr h;

	memcpy(&h, buf, sizeof(h));
	h.crc = kb_le32(kb_image_crc(&h, buf + KBLOOM_IMAGE_HDR_LEN,
				     len - KBLOOM_IMAGE_HDR_LEN));
	memcpy(buf, &h, sizeof(h));
}

FIXTURE(image) {
	struct img im;
};

FIXTURE_VARIANT(image) {
	__u32 type;
	__u64 m;
	__u32 k;
	__u32 hash_id;
	__u32 counter_bits;
};

FIXTURE_VARIANT_ADD(image, blocked) {
	.type = KBLOOM_TYPE_BLOCKED, .m = 2048, .k = 7,
	.hash_id = KBLOOM_HASH_FAST,
};

FIXTURE_VARIANT_ADD(image, blocked_sip) {
	.type = KBLOOM_TYPE_BLOCKED, .m = 1024, .k = 6,
	.hash_id = KBLOOM_HASH_SIPHASH13,
};

FIXTURE_VARIANT_ADD(image, standard) {
	.type = KBLOOM_TYPE_STANDARD, .m = 960, .k = 5,
	.hash_id = KBLOOM_HASH_FAST,
};

FIXTURE_VARIANT_ADD(image, counting4) {
	.type = KBLOOM_TYPE_COUNTING, .m = 256, .k = 4,
	.hash_id = KBLOOM_HASH_FAST, .counter_bits = 4,
};

FIXTURE_VARIANT_ADD(image, counting8) {
	.type = KBLOOM_TYPE_COUNTING, .m = 128, .k = 3,
	.hash_id = KBLOOM_HASH_SIPHASH13, .counter_bits = 8,
};

FIXTURE_SETUP(image)
{
	ASSERT_EQ(0, make_img(&self->im, variant->type, variant->m,
			      variant->k, variant->hash_id,
			      variant->counter_bits));
}

FIXTURE_TEARDOWN(image)
{
	free_img(&self->im);
}

static void stats_eq(struct __test_metadata *_metadata,
		     const struct kbloom_filter *a,
		     const struct kbloom_filter *b)
{
	struct kbloom_stats sa, sb;

	ASSERT_EQ(0, kbloom_stats(a, &sa));
	ASSERT_EQ(0, kbloom_stats(b, &sb));
	EXPECT_EQ(0, memcmp(&sa, &sb, sizeof(sa) - sizeof(double)));
	EXPECT_STREQ(kbloom_name(a), kbloom_name(b));
}

TEST_F(image, roundtrip_bit_exact)
{
	struct img *im = &self->im;
	struct kbloom_image_hdr hdr;
	struct kbloom_filter *g;
	const __u64 *wf, *wg;
	__u64 nf, ng, i, key;
	size_t len2;
	long a0;
	__u8 *buf2;

	ASSERT_EQ(kbloom_image_size(im->f), im->len);
	ASSERT_EQ(0, kb_image_verify(im->buf, im->len));
	a0 = n_allocs;
	ASSERT_EQ(0, kbloom_load(im->buf, im->len, &g));
#if defined(__SANITIZE_ADDRESS__)
	/* the allocation counter works: a successful load allocates */
	ASSERT_LT(a0, n_allocs);
#endif
	wf = kbloom_words(im->f, &nf);
	wg = kbloom_words(g, &ng);
	ASSERT_EQ(nf, ng);
	EXPECT_EQ(0, memcmp(wf, wg, nf * 8));
	stats_eq(_metadata, im->f, g);
	ASSERT_EQ(0, kbloom_save_alloc(g, (void **)&buf2, &len2));
	ASSERT_EQ(im->len, len2);
	EXPECT_EQ(0, memcmp(im->buf, buf2, len2));
	for (i = 0; i < variant->m / 16; i++) {
		key = cu_mix(i);
		ASSERT_EQ(1, kbloom_test(g, &key, 8));
	}
	/* the header-only path: header + raw words == the saved image */
	ASSERT_EQ(0, kbloom_image_header(im->f, &hdr));
	EXPECT_EQ(0, memcmp(&hdr, im->buf, sizeof(hdr)));
	EXPECT_EQ(0, memcmp(wf, im->buf + sizeof(hdr), nf * 8));
	free(buf2);
	kbloom_destroy(g);
}

TEST_F(image, load_misaligned)
{
	struct img *im = &self->im;
	__u8 *raw = malloc(im->len + 8);
	struct kbloom_filter *g;
	int off;

	ASSERT_NE(NULL, raw);
	for (off = 1; off < 8; off++) {
		memcpy(raw + off, im->buf, im->len);
		ASSERT_EQ(0, kbloom_load(raw + off, im->len, &g));
		stats_eq(_metadata, im->f, g);
		kbloom_destroy(g);
		raw[off + 200 < (int)im->len ? off + 200 : off + 130] ^= 1;
		ASSERT_EQ(-EBADMSG, kbloom_load(raw + off, im->len, &g));
		raw[off] ^= 0xFF;	/* magic */
		ASSERT_EQ(-EBADMSG, kbloom_load(raw + off, im->len, &g));
	}
	free(raw);
}

TEST_F(image, save_buffer_too_small)
{
	struct img *im = &self->im;
	__u8 *buf = malloc(im->len);
	size_t need = 0;

	ASSERT_NE(NULL, buf);
	memset(buf, 0x77, im->len);
	ASSERT_EQ(-EMSGSIZE, kbloom_save(im->f, buf, im->len - 1, &need));
	ASSERT_EQ(im->len, need);
	ASSERT_EQ(0x77, buf[0]);
	ASSERT_EQ(-EMSGSIZE, kbloom_save(im->f, NULL, 0, &need));
	ASSERT_EQ(0, kbloom_save(im->f, buf, im->len, NULL));
	ASSERT_EQ(0, memcmp(buf, im->buf, im->len));
	free(buf);
}

/*
 * A failing load must leave *fp alone, allocate nothing, and a failing
 * kbloom_load_into() must leave the target filter as it was.
 */
static void expect_refused(struct __test_metadata *_metadata,
			   const __u8 *buf, size_t len, int err,
			   struct kbloom_filter *target, const __u8 *target_img,
			   size_t target_len, const char *what)
{
	struct kbloom_filter *g = SENTINEL;
	long a0 = n_allocs;
	__u8 *now;
	size_t l;

	ASSERT_EQ(err, kbloom_load(buf, len, &g)) TH_LOG("%s", what);
	ASSERT_EQ(SENTINEL, g);
	ASSERT_EQ(a0, n_allocs) TH_LOG("%s: allocated", what);
	ASSERT_EQ(err == -EINVAL ? -EINVAL : err,
		  kbloom_load_into(target, buf, len)) TH_LOG("%s", what);
	ASSERT_EQ(0, kbloom_save_alloc(target, (void **)&now, &l));
	ASSERT_EQ(target_len, l);
	ASSERT_EQ(0, memcmp(now, target_img, l)) TH_LOG("%s: changed", what);
	free(now);
}

TEST_F(image, every_truncation_rejected)
{
	struct img *im = &self->im;
	__u8 *buf = malloc(im->len + 1);
	char what[64];
	size_t len;

	ASSERT_NE(NULL, buf);
	memcpy(buf, im->buf, im->len);
	for (len = 0; len < im->len; len++) {
		snprintf(what, sizeof(what), "length %zu", len);
		/* a copy of exactly len bytes, so ASan sees any overread */
		__u8 *t = malloc(len ? len : 1);

		ASSERT_NE(NULL, t);
		memcpy(t, buf, len);
		expect_refused(_metadata, t, len, -EMSGSIZE, im->f, im->buf,
			       im->len, what);
		free(t);
	}
	buf[im->len] = 0;
	expect_refused(_metadata, buf, im->len + 1, -EMSGSIZE, im->f, im->buf,
		       im->len, "one byte too long");
	free(buf);
}

/* The errno of a header whose byte at off was changed. */
static int flip_errno(size_t off, __u8 newval)
{
	/* version 3 is known: a 128-byte header is not one of its */
	if (off == offsetof(struct kbloom_image_hdr, version))
		return newval == KBLOOM_IMAGE_VERSION_GEOM ? -EBADMSG :
		       -EPROTONOSUPPORT;
	if (off == offsetof(struct kbloom_image_hdr, version) + 1)
		return -EPROTONOSUPPORT;
	/* a later type is known: a version-2 image of it is inconsistent */
	if (off == offsetof(struct kbloom_image_hdr, type))
		return kb_type_known(newval) ? -EBADMSG : -EOPNOTSUPP;
	if (off == offsetof(struct kbloom_image_hdr, hash_id))
		return newval >= KBLOOM_HASH_FAST &&
		       newval <= KBLOOM_HASH_MAX ? -EBADMSG : -EOPNOTSUPP;
	/* magic, hdr_len, parameters, counts, name, crc, reserved: the
	 * consistency checks or the checksum */
	return -EBADMSG;
}

TEST_F(image, every_header_byte_flip_rejected)
{
	static const __u8 flips[] = { 0x01, 0x02, 0x10, 0x80, 0xFF };
	struct img *im = &self->im;
	__u8 *buf = malloc(im->len);
	char what[64];
	size_t off, i;

	ASSERT_NE(NULL, buf);
	for (off = 0; off < KBLOOM_IMAGE_HDR_LEN; off++) {
		for (i = 0; i < sizeof(flips); i++) {
			memcpy(buf, im->buf, im->len);
			buf[off] ^= flips[i];
			snprintf(what, sizeof(what), "header byte %zu ^ 0x%02x",
				 off, flips[i]);
			expect_refused(_metadata, buf, im->len,
				       flip_errno(off, buf[off]), im->f,
				       im->buf, im->len, what);
		}
	}
	free(buf);
}

TEST_F(image, every_payload_byte_flip_rejected)
{
	struct img *im = &self->im;
	__u8 *buf = malloc(im->len);
	char what[64];
	size_t off;

	ASSERT_NE(NULL, buf);
	for (off = KBLOOM_IMAGE_HDR_LEN; off < im->len; off++) {
		memcpy(buf, im->buf, im->len);
		buf[off] ^= 1U << (off % 8);
		snprintf(what, sizeof(what), "payload byte %zu", off);
		expect_refused(_metadata, buf, im->len, -EBADMSG, im->f,
			       im->buf, im->len, what);
	}
	free(buf);
}

/*
 * Fields edited and the checksum recomputed: each check of
 * kb_image_check() answers on its own.
 */
static const struct {
	const char *what;
	int err;
} edits[] = {
	{ "version 4 (a future version)", -EPROTONOSUPPORT },
	{ "version 0", -EPROTONOSUPPORT },
	{ "version 1 (the old probe positions)", -EPROTONOSUPPORT },
	{ "hdr_len 136", -EBADMSG },
	{ "flags", -EBADMSG },
	{ "reserved0", -EBADMSG },
	{ "reserved1", -EBADMSG },
	{ "reserved2", -EBADMSG },
	{ "type 0", -EOPNOTSUPP },
	{ "type 30 (a future type)", -EOPNOTSUPP },
	{ "type 255", -EOPNOTSUPP },
	{ "hash 0", -EOPNOTSUPP },
	{ "hash 3 (a future hash)", -EOPNOTSUPP },
	{ "k 0", -EBADMSG },
	{ "k 33", -EBADMSG },
	{ "m 0", -EBADMSG },
	{ "m + 1", -EBADMSG },
	{ "m > KBLOOM_M_MAX", -EBADMSG },
	{ "block_bits", -EBADMSG },
	{ "counter_bits", -EBADMSG },
	{ "payload_len - 8", -EBADMSG },
	{ "name character", -EBADMSG },
	{ "name padding", -EBADMSG },
	{ "name unterminated", -EBADMSG },
	{ "version 3 with a 128-byte header", -EBADMSG },
	{ "type 4 (cuckoo) in a version-2 image", -EBADMSG },
	{ "flag MAY_FN in a version-2 image", -EBADMSG },
};

static void edit_hdr(struct kbloom_image_hdr *h, size_t which, bool counting)
{
	switch (which) {
	case 0: h->version = kb_le16(KBLOOM_IMAGE_VERSION_MAX + 1); break;
	case 1: h->version = 0; break;
	case 2: h->version = kb_le16(1); break;
	case 3: h->hdr_len = kb_le16(136); break;
	case 4: h->flags = 1; break;
	case 5: h->reserved0 = kb_le32(1); break;
	case 6: h->reserved1 = kb_le32(1); break;
	case 7: h->reserved2 = kb_le64(1); break;
	case 8: h->type = 0; break;
	case 9: h->type = KBLOOM_TYPE_LAST + 1; break;
	case 10: h->type = 255; break;
	case 11: h->hash_id = 0; break;
	case 12: h->hash_id = KBLOOM_HASH_MAX + 1; break;
	case 13: h->k = 0; break;
	case 14: h->k = kb_le32(KBLOOM_K_MAX + 1); break;
	case 15: h->m = 0; break;
	case 16: h->m = kb_le64(kb_le64(h->m) + 1); break;
	case 17: h->m = kb_le64(KBLOOM_M_MAX + 512); break;
	case 18: h->block_bits = kb_le32(kb_le32(h->block_bits) ^ 512); break;
	case 19: h->counter_bits = counting ? 5 : 4; break;
	case 20: h->payload_len = kb_le64(kb_le64(h->payload_len) - 8); break;
	case 21: h->name[1] = '/'; break;
	case 22: h->name[30] = 'x'; break;
	case 23: memset(h->name, 'a', KBLOOM_NAME_LEN); break;
	case 24: h->version = kb_le16(KBLOOM_IMAGE_VERSION_GEOM); break;
	case 25: h->type = KBLOOM_TYPE_CUCKOO; break;
	case 26: h->flags = KBLOOM_IMAGE_F_MAY_FN; break;
	}
}

TEST_F(image, inconsistent_fields_rejected)
{
	bool counting = variant->type == KBLOOM_TYPE_COUNTING;
	struct img *im = &self->im;
	__u8 *buf = malloc(im->len);
	struct kbloom_image_hdr h;
	size_t i;

	ASSERT_NE(NULL, buf);
	for (i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		memcpy(&h, im->buf, sizeof(h));
		edit_hdr(&h, i, counting);
		memcpy(buf, &h, sizeof(h));
		memcpy(buf + sizeof(h), im->buf + sizeof(h),
		       im->len - sizeof(h));
		reseal(buf, im->len);
		expect_refused(_metadata, buf, im->len, edits[i].err, im->f,
			       im->buf, im->len, edits[i].what);
	}
	/* saturations are only for counting filters */
	if (!counting) {
		memcpy(&h, im->buf, sizeof(h));
		h.saturations = kb_le64(1);
		memcpy(buf, &h, sizeof(h));
		reseal(buf, im->len);
		expect_refused(_metadata, buf, im->len, -EBADMSG, im->f,
			       im->buf, im->len, "saturations");
	}
	free(buf);
}

/* A valid image of another geometry does not go into an existing filter. */
TEST_F(image, load_into_other_geometry)
{
	struct img *im = &self->im, other;
	__u8 *before;
	size_t l;

	ASSERT_EQ(0, make_img(&other, KBLOOM_TYPE_BLOCKED, 4096, 3,
			      KBLOOM_HASH_FAST, 0));
	before = malloc(im->len);
	ASSERT_NE(NULL, before);
	memcpy(before, im->buf, im->len);
	ASSERT_EQ(-EINVAL, kbloom_load_into(im->f, other.buf, other.len));
	free(im->buf);
	ASSERT_EQ(0, kbloom_save_alloc(im->f, (void **)&im->buf, &l));
	ASSERT_EQ(0, memcmp(before, im->buf, l));
	/* and a valid image of the same geometry replaces the contents */
	kbloom_clear(im->f);
	ASSERT_EQ(0, kbloom_load_into(im->f, before, l));
	free(im->buf);
	ASSERT_EQ(0, kbloom_save_alloc(im->f, (void **)&im->buf, &l));
	ASSERT_EQ(0, memcmp(before, im->buf, l));
	free(before);
	free_img(&other);
}

TEST_F(image, file_roundtrip_and_errors)
{
	char dir[] = "/tmp/kbloom-image-XXXXXX", path[128];
	struct img *im = &self->im;
	struct kbloom_filter *g = SENTINEL;
	size_t h0;
	long a0;
	int fd;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f.kbloom", dir);
	ASSERT_EQ(0, kbloom_save_file(im->f, path));
	ASSERT_EQ(0, kbloom_load_file(path, &g));
	stats_eq(_metadata, im->f, g);
	kbloom_destroy(g);
	g = SENTINEL;
	/* truncated: refused from the file size, before any allocation */
	ASSERT_EQ(0, truncate(path, im->len - 1));
	a0 = n_allocs;
	ASSERT_EQ(-EMSGSIZE, kbloom_load_file(path, &g));
	ASSERT_EQ(a0, n_allocs);
	ASSERT_EQ(0, truncate(path, 100));
	ASSERT_EQ(-EMSGSIZE, kbloom_load_file(path, &g));
	/* one byte too long */
	ASSERT_EQ(0, kbloom_save_file(im->f, path));
	ASSERT_EQ(0, truncate(path, im->len + 1));
	ASSERT_EQ(-EMSGSIZE, kbloom_load_file(path, &g));
	/* a corrupt payload: buffer allocated and freed, nothing leaked */
	fd = open(path, O_WRONLY | O_TRUNC);
	ASSERT_LE(0, fd);
	im->buf[im->len - 1] ^= 1;
	ASSERT_EQ((ssize_t)im->len, write(fd, im->buf, im->len));
	im->buf[im->len - 1] ^= 1;
	close(fd);
	h0 = heap_in_use();
	ASSERT_EQ(-EBADMSG, kbloom_load_file(path, &g));
	ASSERT_EQ(h0, heap_in_use());
	ASSERT_EQ(SENTINEL, g);
	/* missing file, missing directory */
	unlink(path);
	ASSERT_EQ(-ENOENT, kbloom_load_file(path, &g));
	snprintf(path, sizeof(path), "%s/none/f.kbloom", dir);
	ASSERT_EQ(-ENOENT, kbloom_save_file(im->f, path));
	ASSERT_EQ(SENTINEL, g);
	ASSERT_EQ(0, rmdir(dir));
}

/* Images stream through pipes too (no size known in advance). */
TEST_F(image, load_from_pipe)
{
	struct img *im = &self->im;
	struct kbloom_filter *g;
	char path[64];
	int p[2];

	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ((ssize_t)im->len, write(p[1], im->buf, im->len));
	close(p[1]);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[0]);
	ASSERT_EQ(0, kbloom_load_file(path, &g));
	close(p[0]);
	stats_eq(_metadata, im->f, g);
	kbloom_destroy(g);
	/* a short stream */
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ((ssize_t)im->len - 1, write(p[1], im->buf, im->len - 1));
	close(p[1]);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[0]);
	g = SENTINEL;
	ASSERT_EQ(-EMSGSIZE, kbloom_load_file(path, &g));
	ASSERT_EQ(SENTINEL, g);
	close(p[0]);
}

/*
 * An image written from uapi/ alone, field by field, the way kbloom.ko's
 * SAVE writes one (little-endian header, words, CRC-32C): libkbloom loads
 * it and finds the keys set with kb_block_mask().
 */
TEST(foreign_image_loads)
{
	const __u64 m = 512 * 64, nblocks = 64, seed = 0xFEEDFACE;
	size_t len = KBLOOM_IMAGE_HDR_LEN + m / 8;
	struct kbloom_image_hdr h = { 0 };
	__u64 mask[8], hv, w, i, j;
	struct kbloom_filter *f;
	struct kbloom_stats st;
	__u8 *img = calloc(1, len), *words;
	char key[16];

	ASSERT_NE(NULL, img);
	words = img + KBLOOM_IMAGE_HDR_LEN;
	for (i = 0; i < 100; i++) {
		snprintf(key, sizeof(key), "host-%llu", (unsigned long long)i);
		hv = kb_hash(KBLOOM_HASH_SIPHASH13, seed, key, strlen(key));
		kb_block_mask(hv, 6, mask);
		for (j = 0; j < 8; j++) {
			__u64 off = (kb_block_index(hv, nblocks) * 8 + j) * 8;

			memcpy(&w, words + off, 8);
			w = kb_le64(kb_le64(w) | mask[j]);
			memcpy(words + off, &w, 8);
		}
	}
	h.magic = kb_le32(KBLOOM_IMAGE_MAGIC);
	h.version = kb_le16(KBLOOM_IMAGE_VERSION);
	h.hdr_len = kb_le16(KBLOOM_IMAGE_HDR_LEN);
	h.type = KBLOOM_TYPE_BLOCKED;
	h.hash_id = KBLOOM_HASH_SIPHASH13;
	h.k = kb_le32(6);
	h.block_bits = kb_le32(KBLOOM_BLOCK_BITS);
	h.seed = kb_le64(seed);
	h.m = kb_le64(m);
	h.capacity = kb_le64(3000);
	h.fpr_pico = kb_le64(10000000000ULL);
	h.inserted = kb_le64(100);
	h.payload_len = kb_le64(m / 8);
	strcpy(h.name, "kmod.hosts");
	h.crc = kb_le32(kb_image_crc(&h, words, m / 8));
	memcpy(img, &h, sizeof(h));
	ASSERT_EQ(0, kbloom_load(img, len, &f));
	ASSERT_EQ(0, kbloom_stats(f, &st));
	EXPECT_EQ(100ULL, st.inserted);
	EXPECT_EQ(3000ULL, st.capacity);
	EXPECT_EQ(10000000000ULL, st.fpr_pico);
	EXPECT_STREQ("kmod.hosts", kbloom_name(f));
	for (i = 0; i < 100; i++) {
		snprintf(key, sizeof(key), "host-%llu", (unsigned long long)i);
		ASSERT_EQ(1, kbloom_test(f, key, strlen(key)));
	}
	kbloom_destroy(f);
	free(img);
}

TEST(null_arguments)
{
	struct kbloom_filter *f;
	__u8 buf[KBLOOM_IMAGE_HDR_LEN] = { 0 };

	EXPECT_EQ(-EINVAL, kbloom_load(NULL, 0, &f));
	EXPECT_EQ(-EINVAL, kbloom_load(buf, sizeof(buf), NULL));
	EXPECT_EQ(-EINVAL, kbloom_load_file(NULL, &f));
	EXPECT_EQ(-EINVAL, kbloom_save(NULL, buf, sizeof(buf), NULL));
	EXPECT_EQ(-EINVAL, kbloom_save_file(NULL, "/tmp/x"));
	EXPECT_EQ(-EINVAL, kbloom_image_header(NULL, NULL));
	EXPECT_EQ(0U, kbloom_image_size(NULL));
}

TEST_HARNESS_MAIN
