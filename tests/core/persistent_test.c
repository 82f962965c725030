// SPDX-License-Identifier: GPL-2.0
/*
 * The persistent Bloom filter (uapi/kbloom_var_persistent.h,
 * libkbloom_persistent.h):
 *   - the cover of any range of L epochs is exact, aligned and at most
 *     2 floor(log2 L) nodes (every start, every L up to 300, and L = 2^j
 *     up to 2^11);
 *   - a query over 2^j epochs tests at most 2j filters (counted by the
 *     query and by kb_pers_cover());
 *   - no false negative: every key of every epoch is found in every range
 *     that holds its epoch (blocked, standard and counting epochs);
 *   - the measured rate of a range is within +-10% of the union bound of
 *     the filters its cover touched (blocked and standard);
 *   - images round-trip byte for byte (memory and files), and epochs
 *     saved by kbloom_save() (as kbloom.ko and map save write them) append;
 *   - bad appends, ranges and images are refused with their errno and
 *     change nothing.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_partitioned.h"
#include "libkbloom_persistent.h"
#include "uapi/kbloom_var_persistent.h"
#include "fuzz/fuzz_crc.h"
#include "core_util.h"

#define SEED		0x5EC0DULL

/* Key t of epoch e (distinct for distinct (e, t) with t < 2^20). */
static __u64 key_of(__u64 e, __u64 t)
{
	return cu_mix((e << 20 | t) ^ 0x9E75);
}

/* A non-key: never a key_of() */
static __u64 nonkey_of(__u64 i)
{
	return cu_mix(i | 1ULL << 62);
}

/* An archive of @epochs epochs from @first, @keys keys each. */
static struct kbloom_pers *archive(struct __test_metadata *_metadata,
				   __u32 type, __u64 m, __u32 k, __u64 first,
				   __u64 epochs, __u64 keys)
{
	struct kbloom_opts o = { .seed = SEED };
	struct kbloom_filter *f;
	struct kbloom_pers *a;
	__u64 e, t, key;

	if (kbloom_pers_create(&a))
		return NULL;
	for (e = 0; e < epochs; e++) {
		if (kbloom_create_mk(type, m, k, &o, &f))
			goto out_destroy;
		for (t = 0; t < keys; t++) {
			key = key_of(e, t);
			kbloom_add(f, &key, 8);
		}
		if (kbloom_pers_append(a, e ? KBLOOM_PERS_NEXT : first, f)) {
			kbloom_destroy(f);
			goto out_destroy;
		}
	}
	return a;
out_destroy:
	kbloom_pers_destroy(a);
	return NULL;
}

/* The cover of [a, a + len - 1]: exact, aligned; returns its size. */
static __u32 cover_walk(struct __test_metadata *_metadata, __u64 a,
			__u64 len)
{
	__u64 lo = a, hi = a + len - 1;
	__u32 n = 0, j;

	while (lo <= hi) {
		j = kb_pers_cover_next(lo, hi);
		EXPECT_EQ(0, lo & ((1ULL << j) - 1));
		EXPECT_LE(lo + (1ULL << j) - 1, hi);
		lo += 1ULL << j;
		n++;
	}
	EXPECT_EQ(hi + 1, lo);
	return n;
}

TEST(cover_is_exact_and_small)
{
	__u64 a, len;
	__u32 j, n;

	for (len = 1; len <= 300; len++)
		for (a = 0; a < 300; a++) {
			n = cover_walk(_metadata, a, len);
			ASSERT_LE(n, kb_pers_cover_max(len))
				TH_LOG("start %llu len %llu", a, len);
		}
	for (j = 1; j < KB_PERS_LEVELS; j++)
		for (a = 0; a < (1ULL << (j + 1)) && a < 4096; a++)
			ASSERT_LE(cover_walk(_metadata, a, 1ULL << j), 2 * j);
	EXPECT_EQ(1, kb_pers_members(1));
	EXPECT_EQ(3, kb_pers_members(2));
	EXPECT_EQ(4095, kb_pers_members(2048));
	EXPECT_LE(kb_pers_members(KB_PERS_EPOCHS_MAX),
		  KBLOOM_CONTAINER_MEMBERS_MAX);
}

/* Every range of 2^j epochs: the query tests at most 2j filters. */
TEST(query_touches_at_most_2j_filters)
{
	struct kbloom_pers *a = archive(_metadata, KBLOOM_TYPE_BLOCKED, 8192,
					4, 100, 64, 50);
	struct kbloom_pers_query q;
	__u64 s, key, most = 0;
	__u32 j;
	int ret;

	ASSERT_NE(NULL, a);
	for (j = 1; j <= 6; j++) {
		for (s = 0; s + (1ULL << j) <= 64; s++) {
			key = nonkey_of(s << 8 | j);
			ret = kbloom_pers_test(a, 100 + s,
					       100 + s + (1ULL << j) - 1,
					       &key, 8, &q);
			ASSERT_LE(0, ret);
			ASSERT_LE(q.tested, q.cover);
			ASSERT_LE(q.cover, 2 * j);
			ASSERT_EQ(q.cover, kbloom_pers_cover(a, 100 + s,
				  100 + s + (1ULL << j) - 1, NULL, 0));
			if (!ret)
				ASSERT_EQ(q.cover, q.tested);
			if (q.tested > most)
				most = q.tested;
		}
	}
	TH_LOG("most filters tested for a range of 2^j <= 64 epochs: %llu",
	       most);
	/* the worst range of 2^j epochs takes j + 1 nodes (j = 5 here) */
	EXPECT_EQ(6, most);
	kbloom_pers_destroy(a);
}

static void no_false_negative(struct __test_metadata *_metadata, __u32 type)
{
	struct kbloom_pers *a = archive(_metadata, type, 65536, 5, 7, 37, 300);
	struct cu_rng r = { .s = 0x77 };
	__u64 e, t, key, lo, hi;

	ASSERT_NE(NULL, a);
	for (e = 0; e < 37; e++)
		for (t = 0; t < 300; t++) {
			key = key_of(e, t);
			lo = cu_next(&r) % (e + 1);
			hi = e + cu_next(&r) % (37 - e);
			ASSERT_EQ(1, kbloom_pers_test(a, 7 + lo, 7 + hi, &key,
						      8, NULL));
			ASSERT_EQ(1, kbloom_pers_test(a, 7 + e, 7 + e, &key, 8,
						      NULL));
			ASSERT_EQ(1, kbloom_pers_test(a, 7, 7 + 36, &key, 8,
						      NULL));
		}
	kbloom_pers_destroy(a);
}

TEST(no_false_negatives_blocked)
{
	no_false_negative(_metadata, KBLOOM_TYPE_BLOCKED);
}

TEST(no_false_negatives_standard)
{
	no_false_negative(_metadata, KBLOOM_TYPE_STANDARD);
}

TEST(no_false_negatives_counting)
{
	no_false_negative(_metadata, KBLOOM_TYPE_COUNTING);
}

/*
 * 32 epochs of 4000 keys in 2^18 bits, k = 4; the range [3, 18] takes
 * nodes of 1, 4, 8, 2 and 1 epochs.  Its measured rate over 400k
 * non-keys against the sum of those nodes' predicted rates.
 */
static void rate_vs_union_bound(struct __test_metadata *_metadata,
				__u32 type)
{
	struct kbloom_pers *a = archive(_metadata, type, 1ULL << 18, 4, 0, 32,
					4000);
	struct kbloom_pers_node nodes[8];
	struct kbloom_pers_query q;
	__u64 i, key, fp = 0, probes = 400000;
	double rate, bound;
	int n;

	ASSERT_NE(NULL, a);
	n = kbloom_pers_cover(a, 3, 18, nodes, 8);
	ASSERT_EQ(5, n);
	for (i = 0; i < probes; i++) {
		key = nonkey_of(i);
		fp += kbloom_pers_test(a, 3, 18, &key, 8, &q) == 1;
	}
	rate = (double)fp / probes;
	bound = (double)q.fpr_pico / KBLOOM_P_UNIT;
	TH_LOG("%s: measured %.4f%%, union bound of %d filters %.4f%% (%+.1f%%)",
	       type == KBLOOM_TYPE_BLOCKED ? "blocked" : "standard",
	       rate * 100, n, bound * 100, (rate / bound - 1) * 100);
	EXPECT_LT(fabs(rate / bound - 1), 0.10);
	kbloom_pers_destroy(a);
}

TEST(rate_within_union_bound_blocked)
{
	rate_vs_union_bound(_metadata, KBLOOM_TYPE_BLOCKED);
}

TEST(rate_within_union_bound_standard)
{
	rate_vs_union_bound(_metadata, KBLOOM_TYPE_STANDARD);
}

static void same_answers(struct __test_metadata *_metadata,
			 const struct kbloom_pers *a,
			 const struct kbloom_pers *b, __u64 first, __u64 n)
{
	__u64 i, key, lo, hi;

	for (i = 0; i < 20000; i++) {
		key = i & 1 ? nonkey_of(i) : key_of(i % n, i % 97);
		lo = cu_mix(i) % n;
		hi = lo + cu_mix(i + 1) % (n - lo);
		ASSERT_EQ(kbloom_pers_test(a, first + lo, first + hi, &key, 8,
					   NULL),
			  kbloom_pers_test(b, first + lo, first + hi, &key, 8,
					   NULL));
	}
}

TEST(image_round_trip)
{
	struct kbloom_pers *a = archive(_metadata, KBLOOM_TYPE_BLOCKED, 4096,
					3, 1000, 21, 100);
	struct kbloom_pers_stats sa, sb;
	char path[] = "/tmp/kbloom-pers.XXXXXX";
	struct kbloom_pers *b, *c;
	void *img, *img2;
	size_t len, len2;
	int fd;

	ASSERT_NE(NULL, a);
	ASSERT_EQ(0, kbloom_pers_save_alloc(a, &img, &len));
	ASSERT_EQ(kbloom_pers_image_size(a), len);
	ASSERT_EQ(0, kb_container_verify(img, len));
	ASSERT_EQ(0, kbloom_pers_load(img, len, &b));
	ASSERT_EQ(0, kbloom_pers_save_alloc(b, &img2, &len2));
	ASSERT_EQ(len, len2);
	EXPECT_EQ(0, memcmp(img, img2, len));
	ASSERT_EQ(0, kbloom_pers_stats(a, &sa));
	ASSERT_EQ(0, kbloom_pers_stats(b, &sb));
	EXPECT_EQ(0, memcmp(&sa, &sb, sizeof(sa)));
	EXPECT_EQ(1000, sb.first);
	EXPECT_EQ(21, sb.epochs);
	EXPECT_EQ(kb_pers_members(21), sb.members);
	EXPECT_EQ(5, sb.levels);
	EXPECT_EQ(21 * 100, sb.inserted);
	same_answers(_metadata, a, b, 1000, 21);
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, kbloom_pers_save_file(b, path));
	ASSERT_EQ(0, kbloom_pers_load_file(path, &c));
	same_answers(_metadata, a, c, 1000, 21);
	unlink(path);
	free(img);
	free(img2);
	kbloom_pers_destroy(a);
	kbloom_pers_destroy(b);
	kbloom_pers_destroy(c);
}

/* Epochs as images (what kbloomctl save and map save write). */
TEST(append_images)
{
	struct kbloom_opts o = { .counter_bits = 4 };
	struct kbloom_pers_stats st;
	struct kbloom_filter *f;
	struct kbloom_pers *a;
	__u64 e, key;
	void *img;
	size_t len;

	ASSERT_EQ(0, kbloom_pers_create(&a));
	for (e = 0; e < 6; e++) {
		ASSERT_EQ(0, kbloom_create(KBLOOM_TYPE_COUNTING, 1000,
					   10000000000ULL, &o, &f));
		key = key_of(e, 0);
		ASSERT_EQ(0, kbloom_add(f, &key, 8));
		ASSERT_EQ(0, kbloom_save_alloc(f, &img, &len));
		ASSERT_EQ(0, kbloom_pers_append_image(a, 50 + e, img, len));
		kbloom_destroy(f);
		free(img);
	}
	ASSERT_EQ(0, kbloom_pers_stats(a, &st));
	EXPECT_EQ(KBLOOM_TYPE_COUNTING, st.type);
	EXPECT_EQ(4, st.counter_bits);
	EXPECT_EQ(6, st.epochs);
	EXPECT_EQ(3, st.level_nodes[1]);
	EXPECT_EQ(1, st.level_nodes[2]);
	for (e = 0; e < 6; e++) {
		key = key_of(e, 0);
		EXPECT_EQ(1, kbloom_pers_test(a, 50, 55, &key, 8, NULL));
		EXPECT_EQ(1, kbloom_pers_test(a, 50 + e, 50 + e, &key, 8,
					      NULL));
	}
	kbloom_pers_destroy(a);
}

/* A filter of one more epoch, like @a's but for @type, @m, @k, @seed. */
static int append_one(struct kbloom_pers *a, __u64 epoch, __u32 type,
		      __u64 m, __u32 k, __u64 seed)
{
	struct kbloom_opts o = { .seed = seed };
	struct kbloom_filter *f;
	int ret;

	ret = kbloom_create_mk(type, m, k, &o, &f);
	if (ret)
		return ret;
	ret = kbloom_pers_append(a, epoch, f);
	if (ret)
		kbloom_destroy(f);
	return ret;
}

TEST(bad_appends_and_ranges)
{
	struct kbloom_pers *a = archive(_metadata, KBLOOM_TYPE_BLOCKED, 4096,
					3, 10, 3, 10);
	struct kbloom_pers_stats before, after;
	struct kbloom_pers_node nodes[1];
	struct kbloom_part *p;
	__u8 junk[256];
	__u64 key = 1;
	void *img;
	size_t len;

	ASSERT_NE(NULL, a);
	ASSERT_EQ(0, kbloom_pers_stats(a, &before));
	EXPECT_EQ(-EINVAL, append_one(a, 13, KBLOOM_TYPE_BLOCKED, 8192, 3,
				      SEED));
	EXPECT_EQ(-EINVAL, append_one(a, 13, KBLOOM_TYPE_BLOCKED, 4096, 4,
				      SEED));
	EXPECT_EQ(-EINVAL, append_one(a, 13, KBLOOM_TYPE_BLOCKED, 4096, 3,
				      SEED + 1));
	EXPECT_EQ(-EINVAL, append_one(a, 13, KBLOOM_TYPE_STANDARD, 4096, 3,
				      SEED));
	EXPECT_EQ(-EINVAL, append_one(a, 14, KBLOOM_TYPE_BLOCKED, 4096, 3,
				      SEED));
	EXPECT_EQ(-EINVAL, append_one(a, 12, KBLOOM_TYPE_BLOCKED, 4096, 3,
				      SEED));
	EXPECT_EQ(-EINVAL, kbloom_pers_append(a, 13, NULL));
	ASSERT_EQ(0, kbloom_part_create_ks(3, 1024, NULL, &p));
	ASSERT_EQ(0, kbloom_part_save_alloc(p, &img, &len));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_pers_append_image(a, 13, img, len));
	memset(junk, 0x5a, sizeof(junk));
	EXPECT_EQ(-EBADMSG, kbloom_pers_append_image(a, 13, junk,
						     sizeof(junk)));
	free(img);
	kbloom_part_destroy(p);
	ASSERT_EQ(0, kbloom_pers_stats(a, &after));
	EXPECT_EQ(0, memcmp(&before, &after, sizeof(before)));
	EXPECT_EQ(-ERANGE, kbloom_pers_test(a, 9, 12, &key, 8, NULL));
	EXPECT_EQ(-ERANGE, kbloom_pers_test(a, 10, 13, &key, 8, NULL));
	EXPECT_EQ(-EINVAL, kbloom_pers_test(a, 12, 10, &key, 8, NULL));
	EXPECT_EQ(-EINVAL, kbloom_pers_test(a, 10, 12, &key, 0, NULL));
	EXPECT_EQ(-EINVAL, kbloom_pers_test(a, 10, 12, &key, 65, NULL));
	EXPECT_EQ(-ENOSPC, kbloom_pers_cover(a, 10, 12, nodes, 1));
	EXPECT_EQ(0, append_one(a, 13, KBLOOM_TYPE_BLOCKED, 4096, 3, SEED));
	kbloom_pers_destroy(a);
}

TEST(full_and_empty_archives)
{
	struct kbloom_pers_stats st;
	struct kbloom_pers *a;
	__u64 e, key = 3;
	void *img;
	size_t len;

	ASSERT_EQ(0, kbloom_pers_create(&a));
	EXPECT_EQ(-ERANGE, kbloom_pers_test(a, 0, 0, &key, 8, NULL));
	EXPECT_EQ(-ENODATA, kbloom_pers_save_alloc(a, &img, &len));
	EXPECT_EQ(0, kbloom_pers_image_size(a));
	for (e = 0; e < KB_PERS_EPOCHS_MAX; e++)
		ASSERT_EQ(0, append_one(a, KBLOOM_PERS_NEXT,
					KBLOOM_TYPE_STANDARD, 64, 1, 0));
	EXPECT_EQ(-ENOSPC, append_one(a, KBLOOM_PERS_NEXT,
				      KBLOOM_TYPE_STANDARD, 64, 1, 0));
	ASSERT_EQ(0, kbloom_pers_stats(a, &st));
	EXPECT_EQ(0, st.first);
	EXPECT_EQ(KB_PERS_LEVELS, st.levels);
	EXPECT_EQ(4095, st.members);
	EXPECT_EQ(20, kb_pers_cover_max(2046));
	EXPECT_EQ(20, kbloom_pers_cover(a, 1, 2046, NULL, 0));
	ASSERT_EQ(0, kbloom_pers_save_alloc(a, &img, &len));
	kbloom_pers_destroy(a);
	ASSERT_EQ(0, kbloom_pers_load(img, len, &a));
	free(img);
	kbloom_pers_destroy(a);
}

/*
 * kbloom_pers_load() of @img with byte @off xor @x; the checksum of the
 * member holding @off (members of @one bytes) and of the container made
 * right, so that the field checks behind them answer.
 */
static int load_mutated(const void *img, size_t len, size_t one, size_t off,
			__u8 x)
{
	const size_t hl = KBLOOM_CONTAINER_HDR_LEN;
	struct kbloom_image_hdr h;
	struct kbloom_pers *a = NULL;
	__u8 *b = malloc(len), *mem;
	int ret;

	memcpy(b, img, len);
	b[off] ^= x;
	if (off >= hl) {
		mem = b + hl + (off - hl) / one * one;
		memcpy(&h, mem, sizeof(h));
		h.crc = kb_le32(kb_image_crc(&h, mem + sizeof(h),
					     one - sizeof(h)));
		memcpy(mem, &h, sizeof(h));
	}
	fuzz_fix_crc(b, len);
	ret = kbloom_pers_load(b, len, &a);
	if (!ret)
		kbloom_pers_destroy(a);
	free(b);
	return ret;
}

TEST(bad_images_refused)
{
	struct kbloom_pers *a = archive(_metadata, KBLOOM_TYPE_BLOCKED, 4096,
					3, 0, 4, 20);
	const size_t hl = KBLOOM_CONTAINER_HDR_LEN;
	size_t len, one, pl = KBLOOM_IMAGE_HDR_LEN;
	struct kbloom_pers *b = NULL;
	__u8 *img;

	ASSERT_NE(NULL, a);
	ASSERT_EQ(0, kbloom_pers_save_alloc(a, (void **)&img, &len));
	one = (len - hl) / kb_pers_members(4);
	ASSERT_EQ(hl + 7 * one, len);
	/* members: e0 e1 (0-1) e2 e3 (2-3) (0-3) */
	EXPECT_EQ(0, load_mutated(img, len, one, 0, 0));
	EXPECT_EQ(-EBADMSG, load_mutated(img, len, one, hl + 2 * one + pl, 0x80));
	EXPECT_EQ(-EBADMSG, load_mutated(img, len, one, hl + 6 * one + pl + 9, 1));
	EXPECT_EQ(-EBADMSG, load_mutated(img, len, one, hl + one + pl + 3, 0x10));
	/* the name of a node, its inserted count */
	EXPECT_EQ(-EBADMSG, load_mutated(img, len, one, hl + 2 * one +
		  offsetof(struct kbloom_image_hdr, name), 'x'));
	EXPECT_EQ(-EBADMSG, load_mutated(img, len, one, hl + 5 * one +
		  offsetof(struct kbloom_image_hdr, inserted), 1));
	/* the container: count, epochs, a reserved param, type, inserted */
	EXPECT_EQ(-EBADMSG, load_mutated(img, len, one,
		  offsetof(struct kbloom_container_hdr, params[1]), 1));
	EXPECT_EQ(-EBADMSG, load_mutated(img, len, one,
		  offsetof(struct kbloom_container_hdr, params[3]), 1));
	EXPECT_EQ(-EBADMSG, load_mutated(img, len, one,
		  offsetof(struct kbloom_container_hdr, inserted), 1));
	EXPECT_EQ(-EOPNOTSUPP, load_mutated(img, len, one,
		  offsetof(struct kbloom_container_hdr, type),
		  KBLOOM_TYPE_PERSISTENT ^ KBLOOM_TYPE_SCALABLE));
	/* a member of another seed: another geometry */
	EXPECT_EQ(-EBADMSG, load_mutated(img, len, one, hl + 3 * one +
		  offsetof(struct kbloom_image_hdr, seed), 1));
	/* the first epoch's number is free */
	EXPECT_EQ(0, load_mutated(img, len, one,
		  offsetof(struct kbloom_container_hdr, params[0]), 0xff));
	EXPECT_EQ(-EMSGSIZE, kbloom_pers_load(img, len - 8, &b));
	EXPECT_EQ(-EBADMSG, kbloom_pers_load(img + 8, len - 8, &b));
	EXPECT_EQ(NULL, b);
	free(img);
	kbloom_pers_destroy(a);
}

/* @len bytes at @off of @path xor @x (the member's own crc not fixed). */
static int flip_byte(const char *path, long off, __u8 x)
{
	FILE *f = fopen(path, "r+b");
	int c, ret = -1;

	if (f && !fseek(f, off, SEEK_SET) && (c = fgetc(f)) != EOF &&
	    !fseek(f, off, SEEK_SET) && fputc(c ^ x, f) != EOF)
		ret = 0;
	if (f)
		fclose(f);
	return ret;
}

/*
 * Queries on the file read the cover's members only: the same answers,
 * filters and bound as in memory; a damaged member outside the cover is
 * not seen, one inside it is refused.
 */
TEST(file_queries_read_the_cover_only)
{
	struct kbloom_pers *a = archive(_metadata, KBLOOM_TYPE_BLOCKED, 8192,
					4, 500, 45, 200);
	struct kbloom_pers_query qm, qf;
	char path[] = "/tmp/kbloom-pers-seek.XXXXXX";
	__u64 i, key, lo, hi, first, n;
	size_t one;
	int fd;

	ASSERT_NE(NULL, a);
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, kbloom_pers_save_file(a, path));
	ASSERT_EQ(0, kbloom_pers_file_epochs(path, &first, &n));
	EXPECT_EQ(500, first);
	EXPECT_EQ(45, n);
	for (i = 0; i < 3000; i++) {
		key = i & 1 ? nonkey_of(i) : key_of(i % 45, i % 200);
		lo = cu_mix(i) % 45;
		hi = lo + cu_mix(i + 7) % (45 - lo);
		ASSERT_EQ(kbloom_pers_test(a, 500 + lo, 500 + hi, &key, 8,
					   &qm),
			  kbloom_pers_test_file(path, 500 + lo, 500 + hi, &key,
						8, &qf));
		ASSERT_EQ(qm.cover, qf.cover);
		ASSERT_EQ(qm.tested, qf.tested);
		ASSERT_EQ(qm.fpr_pico, qf.fpr_pico);
	}
	EXPECT_EQ(-ERANGE, kbloom_pers_test_file(path, 499, 510, &key, 8,
						 NULL));
	EXPECT_EQ(-ERANGE, kbloom_pers_test_file(path, 500, 545, &key, 8,
						 NULL));
	EXPECT_EQ(-EINVAL, kbloom_pers_test_file(path, 510, 500, &key, 8,
						 NULL));
	/* a byte of epoch 40's filter: [0, 31] does not read it */
	one = (kbloom_pers_image_size(a) - KBLOOM_CONTAINER_HDR_LEN) /
	      kb_pers_members(45);
	ASSERT_EQ(0, flip_byte(path, KBLOOM_CONTAINER_HDR_LEN +
			       kb_pers_member_index(0, 40) * one + 200, 1));
	key = key_of(3, 3);
	EXPECT_EQ(1, kbloom_pers_test_file(path, 500, 531, &key, 8, &qf));
	EXPECT_EQ(1, qf.cover);
	EXPECT_EQ(-EBADMSG, kbloom_pers_test_file(path, 540, 540, &key, 8,
						  NULL));
	EXPECT_EQ(-EBADMSG, kbloom_pers_test_file(path, 539, 540, &key, 8,
						  NULL));
	/* [32, 44] takes the node of 40..43, not epoch 40's filter */
	EXPECT_LE(0, kbloom_pers_test_file(path, 532, 544, &key, 8, NULL));
	EXPECT_EQ(-EBADMSG, kbloom_pers_file_epochs(path, &first, &n) ?:
		  kbloom_pers_load_file(path, &a) ?: 0);
	EXPECT_EQ(-ESPIPE, kbloom_pers_file_epochs("/dev/null", &first, &n));
	unlink(path);
	kbloom_pers_destroy(a);
}

/*
 * kb_pers_plan(): 1000 keys per epoch, ranges of up to 16 epochs at 1%.
 * The union bound of every range of 1..16 epochs of a 40-epoch archive
 * is at most 1%, and the measured rate of the range with the highest
 * bound is within 10% of it.
 */
TEST(plan_keeps_every_range_under_target)
{
	struct kbloom_pers_query q;
	struct kbloom_pers *a;
	__u64 s, len, key, fp = 0, worst = 0, ws = 0, wl = 0, i;
	struct kb_plan pl;

	ASSERT_EQ(0, kb_pers_plan(KBLOOM_TYPE_BLOCKED, 1000, 16,
				  10000000000ULL, 0, &pl));
	EXPECT_EQ(-EINVAL, kb_pers_plan(KBLOOM_TYPE_PARTITIONED, 1000, 16,
					10000000000ULL, 0, &pl));
	EXPECT_EQ(-EINVAL, kb_pers_plan(KBLOOM_TYPE_BLOCKED, 1000, 0,
					10000000000ULL, 0, &pl));
	EXPECT_EQ(-EINVAL, kb_pers_plan(KBLOOM_TYPE_BLOCKED, 1000, 16, 100,
					0, &pl));
	a = archive(_metadata, KBLOOM_TYPE_BLOCKED, pl.m, pl.k, 0, 40, 1000);
	ASSERT_NE(NULL, a);
	for (len = 1; len <= 16; len++)
		for (s = 0; s + len <= 40; s++) {
			key = nonkey_of(s);
			ASSERT_LE(0, kbloom_pers_test(a, s, s + len - 1, &key,
						      8, &q));
			ASSERT_LE(q.fpr_pico, 10000000000ULL);
			if (q.fpr_pico > worst) {
				worst = q.fpr_pico;
				ws = s;
				wl = len;
			}
		}
	for (i = 0; i < 200000; i++) {
		key = nonkey_of(i);
		fp += kbloom_pers_test(a, ws, ws + wl - 1, &key, 8, NULL) == 1;
	}
	TH_LOG("m %llu k %u per epoch: worst range %llu..%llu, bound %.3f%%, measured %.3f%%",
	       pl.m, pl.k, ws, ws + wl - 1, worst * 1e-10, fp * 100.0 / 200000);
	/* the measured rate of a range within 10% of its bound (blocked) */
	EXPECT_LE(fp, 200000 * worst * 1.1 / KBLOOM_P_UNIT);
	kbloom_pers_destroy(a);
}

TEST_HARNESS_MAIN
