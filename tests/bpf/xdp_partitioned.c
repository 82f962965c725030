// SPDX-License-Identifier: GPL-2.0
/*
 * The partitioned filter's map-backed XDP form (uapi/kbloom_part_maps.h,
 * bpf/kbloom_partitioned.h, libkbloom_xdp_part.h), against
 * libkbloom_partitioned, through the probe of xdp_partitioned.bpf.c
 * (BPF_PROG_TEST_RUN):
 *   - an image of the library loaded into the maps: the BPF lookup gives
 *     the library's answer on every key, false positives included (keys
 *     of 1..64 bytes under SipHash, 16-byte keys under the fast hash), and
 *     finds every key;
 *   - keys added from BPF (atomic OR) are found by the library in the
 *     image saved from the maps, whose words are those of the library
 *     filter of the same keys;
 *   - an image round-trips byte for byte through the maps; a new image
 *     replaces the filter through the idle slot (generation 2);
 *   - images of other types, damaged images and a bad table are refused
 *     and change nothing.
 * The module, the third executor, is in tests/kmod/xdp_part_test.c.
 */
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom_partitioned.h"
#include "tests/bpf/xdp_part_util.h"

#define N_KEYS		20000ULL
#define P_1PCT		10000000000ULL

FIXTURE(xpart) {
	struct ptt_probe p;
	struct kbloom_part *f;
};

FIXTURE_SETUP(xpart)
{
	if (geteuid())
		SKIP(return, "needs root (BPF)");
	ASSERT_EQ(0, ptt_open(&self->p)) TH_LOG("probe: %s", strerror(errno));
}

FIXTURE_TEARDOWN(xpart)
{
	kbloom_part_destroy(self->f);
	ptt_close(&self->p);
}

/* @f's image into filter 0 of the probe's table. */
static int load_lib(struct ptt_probe *p, const struct kbloom_part *f)
{
	size_t len;
	void *img;
	int ret;

	ret = kbloom_part_save_alloc(f, &img, &len);
	if (ret)
		return ret;
	ret = kbloom_xdp_part_load(&p->t, 0, 0, img, len);
	free(img);
	return ret;
}

/* Keys [0, n) of stream 1 in @f, then BPF and library on 3n keys. */
static void agree(struct __test_metadata *_metadata, FIXTURE_DATA(xpart) *self,
		  int fixed)
{
	__u64 i, fp = 0;
	__u8 key[64];
	__u32 len;
	int b, l;

	for (i = 0; i < N_KEYS; i++) {
		len = ptt_key(1, i, fixed, key);
		ASSERT_EQ(0, kbloom_part_add(self->f, key, len));
	}
	ASSERT_EQ(0, load_lib(&self->p, self->f));
	for (i = 0; i < 3 * N_KEYS; i++) {
		len = ptt_key(i < N_KEYS ? 1 : 2, i, fixed, key);
		b = ptt_run(&self->p, 0, key, len);
		l = kbloom_part_test(self->f, key, len);
		ASSERT_EQ(l, b) TH_LOG("key %llu of %u bytes", i, len);
		if (i < N_KEYS) {
			ASSERT_EQ(1, b);
		} else {
			fp += b;
		}
	}
	TH_LOG("%s keys: BPF = library on %llu keys, %llu of %llu non-keys possibly present in both",
	       fixed ? "16-byte" : "1..64-byte", 3 * N_KEYS, fp, 2 * N_KEYS);
	EXPECT_LT(0, fp);
}

TEST_F(xpart, same_answers_siphash_any_length)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_SIPHASH13,
				 .seed = 0x5EC };

	ASSERT_EQ(0, kbloom_part_create(N_KEYS, P_1PCT, &o, &self->f));
	agree(_metadata, self, 0);
}

TEST_F(xpart, same_answers_fast_16_bytes)
{
	struct kbloom_opts o = { .seed = 77 };

	ASSERT_EQ(0, kbloom_part_create(N_KEYS, P_1PCT, &o, &self->f));
	agree(_metadata, self, 1);
}

TEST_F(xpart, bpf_inserts_found_by_library)
{
	struct kbloom_opts o = { .seed = 9, .name = "xdp-part" };
	struct kbloom_part_stats st;
	struct kbloom_part *back;
	__u8 key[64];
	__u32 len;
	size_t ilen, mlen;
	void *img, *mine;
	__u64 i;

	ASSERT_EQ(0, kbloom_part_create_ks(7, 8192, &o, &self->f));
	ASSERT_EQ(0, load_lib(&self->p, self->f));
	for (i = 0; i < 5000; i++) {
		len = ptt_key(3, i, 0, key);
		ASSERT_EQ(1, ptt_run(&self->p, 1, key, len));
		ASSERT_EQ(0, kbloom_part_add(self->f, key, len));
	}
	ASSERT_EQ(0, kbloom_xdp_part_save(&self->p.t, 0, &img, &ilen));
	ASSERT_EQ(0, kbloom_part_load(img, ilen, &back));
	for (i = 0; i < 5000; i++) {
		len = ptt_key(3, i, 0, key);
		ASSERT_EQ(1, kbloom_part_test(back, key, len));
	}
	ASSERT_EQ(0, kbloom_part_stats(back, &st));
	EXPECT_EQ(5000, st.inserted);
	EXPECT_STREQ("xdp-part", kbloom_part_name(back));
	ASSERT_EQ(0, kbloom_part_save_alloc(self->f, &mine, &mlen));
	ASSERT_EQ(mlen, ilen);
	EXPECT_EQ(0, memcmp(mine, img, ilen));
	kbloom_part_destroy(back);
	free(img);
	free(mine);
}

/* The blocks map of @slot carries struct kbloom_block's BTF (bpftool). */
static bool blocks_typed(const struct ptt_probe *p, __u32 slot)
{
	struct bpf_map_info info = {};
	__u32 map_id, len = sizeof(info);
	bool typed;
	int fd;

	if (bpf_map_lookup_elem(p->t.filters_fd, &slot, &map_id))
		return false;
	fd = bpf_map_get_fd_by_id(map_id);
	if (fd < 0)
		return false;
	typed = !bpf_obj_get_info_by_fd(fd, &info, &len) &&
		info.btf_value_type_id == p->t.btf_block_id &&
		p->t.btf_block_id;
	close(fd);
	return typed;
}

TEST_F(xpart, round_trip_and_replace)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_SIPHASH13, .seed = 3,
				 .name = "first" };
	struct kbloom_part_params prm;
	struct kbloom_part *g;
	size_t len, blen;
	void *img, *back;
	__u32 id = 0;

	ASSERT_EQ(0, kbloom_part_create(1000, P_1PCT, &o, &self->f));
	ASSERT_EQ(0, kbloom_part_add(self->f, "old", 3));
	ASSERT_EQ(0, kbloom_part_save_alloc(self->f, &img, &len));
	ASSERT_EQ(0, kbloom_xdp_part_load(&self->p.t, 0, 0, img, len));
	ASSERT_EQ(0, kbloom_xdp_part_save(&self->p.t, 0, &back, &blen));
	ASSERT_EQ(len, blen);
	EXPECT_EQ(0, memcmp(img, back, len));
	free(img);
	free(back);
	ASSERT_EQ(0, bpf_map_lookup_elem(self->p.t.part_fd, &id, &prm));
	EXPECT_EQ(0, prm.slot);
	EXPECT_EQ(1, prm.gen);
	EXPECT_TRUE(blocks_typed(&self->p, prm.slot));
	o.name = "second";
	ASSERT_EQ(0, kbloom_part_create_ks(3, 4096, &o, &g));
	ASSERT_EQ(0, kbloom_part_add(g, "new", 3));
	ASSERT_EQ(0, load_lib(&self->p, g));
	kbloom_part_destroy(g);
	ASSERT_EQ(0, bpf_map_lookup_elem(self->p.t.part_fd, &id, &prm));
	EXPECT_EQ(1, prm.slot);
	EXPECT_EQ(2, prm.gen);
	EXPECT_EQ(3, prm.shape.k);
	EXPECT_STREQ("second", prm.name);
	EXPECT_EQ(1, ptt_run(&self->p, 0, "new", 3));
	EXPECT_EQ(0, ptt_run(&self->p, 0, "old", 3));
}

TEST_F(xpart, bad_images_change_nothing)
{
	struct kbloom_part_params before, after;
	struct kbloom_filter *blk;
	struct kbloom_xdp_part_table bad;
	size_t len;
	__u8 *img;
	__u32 id = 0;

	ASSERT_EQ(0, kbloom_part_create_ks(4, 1024, NULL, &self->f));
	ASSERT_EQ(0, load_lib(&self->p, self->f));
	ASSERT_EQ(0, bpf_map_lookup_elem(self->p.t.part_fd, &id, &before));
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 4096, 3, NULL,
				      &blk));
	ASSERT_EQ(0, kbloom_save_alloc(blk, (void **)&img, &len));
	kbloom_destroy(blk);
	EXPECT_EQ(-EOPNOTSUPP, kbloom_xdp_part_load(&self->p.t, 0, 0, img,
						    len));
	free(img);
	ASSERT_EQ(0, kbloom_part_save_alloc(self->f, (void **)&img, &len));
	img[len - 1] ^= 1;
	EXPECT_EQ(-EBADMSG, kbloom_xdp_part_load(&self->p.t, 0, 0, img, len));
	EXPECT_EQ(-EMSGSIZE, kbloom_xdp_part_load(&self->p.t, 0, 0, img,
						  len - 8));
	img[len - 1] ^= 1;
	bad = self->p.t;
	bad.part_fd = -1;
	EXPECT_EQ(-EINVAL, kbloom_xdp_part_load(&bad, 0, 0, img, len));
	EXPECT_EQ(-EINVAL, kbloom_xdp_part_load(&self->p.t, 0, ~0U, img, len));
	EXPECT_EQ(-ENOSPC, kbloom_xdp_part_load(&self->p.t, 0, 5, img, len));
	EXPECT_EQ(-ENOENT, kbloom_xdp_part_save(&self->p.t, 9, (void **)&img,
						&len));
	free(img);
	ASSERT_EQ(0, bpf_map_lookup_elem(self->p.t.part_fd, &id, &after));
	EXPECT_EQ(0, memcmp(&before, &after, sizeof(before)));
}

TEST_HARNESS_MAIN
