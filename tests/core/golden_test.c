// SPDX-License-Identifier: GPL-2.0
/*
 * Golden vectors: the hash, the block index and mask, and the standard
 * probe positions for fixed keys and seeds, pinned as literals.  Any change
 * to the definitions in uapi/ fails here: that is an image format change
 * and needs a new hash id or image version.  Also checks that libkbloom
 * applies exactly those definitions (its cached SipHash key, its
 * specialised hash lengths, its on-the-fly blocked test).
 *
 * The literals were computed once from uapi/ (keys: byte i = 7 i + 1).
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "libkbloom.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"
#include "uapi/kbloom_image.h"
#include "core_util.h"

static const __u32 golden_lens[8] = { 1, 3, 7, 8, 9, 16, 31, 64 };

static const struct {
	__u32 hash_id;
	__u64 seed;
	__u64 h[8];		/* for golden_lens */
} golden_hash[] = {
	{ 1, 0x0000000000000000ULL, { 0x5FD7107B3B3523F8ULL, 0x5A8A653C38F915B1ULL, 0x8F6697DA21BB34F7ULL, 0x67DBB81C120CB15BULL,
	   0xFF6CA1D8EB593547ULL, 0xDE53F0BBC804C178ULL, 0x5AA875153A9A6645ULL, 0x1BA54286F386BA44ULL, } },
	{ 1, 0x0000000000000001ULL, { 0x73E00024DCFF275AULL, 0x91844BC146EFD10FULL, 0x682F297F86CB9D75ULL, 0xB1F072726E646BFBULL,
	   0x587D77489DA34A88ULL, 0x93472909B5DBB10FULL, 0x2B5F6AD8566C3363ULL, 0x794B325BC7B73541ULL, } },
	{ 1, 0x0123456789ABCDEFULL, { 0x57700A4FED51FB77ULL, 0x1FC4A13BB0E583BBULL, 0x4441F90C45581B80ULL, 0x719D8B1327649103ULL,
	   0xB84124486B1BDECCULL, 0x97E6AF9F2F8928FDULL, 0xF3930360ACDA5DB8ULL, 0x9516A7349647602FULL, } },
	{ 2, 0x0000000000000000ULL, { 0x5882EABFD603EF1CULL, 0xC7BA962A94BFE35EULL, 0xFBE445B6EC5B754BULL, 0x65E35D60A5F3BBE1ULL,
	   0xEBE319F3C1311103ULL, 0x53990A3E69635385ULL, 0x6685A779F3635341ULL, 0xF4C54C288340F160ULL, } },
	{ 2, 0x0000000000000001ULL, { 0xEF6F1ADA1B84CBD2ULL, 0xD210F1545BF8B13BULL, 0xE2527D27A6B6DF83ULL, 0xC7D51B37AC796010ULL,
	   0x7439F38BEFFC2BA7ULL, 0x865C270DB96BFC67ULL, 0x78B394DE9F3D559EULL, 0x811C12AFB76525B8ULL, } },
	{ 2, 0x0123456789ABCDEFULL, { 0xF025516678DE0BBAULL, 0xA9ECEF30F3BF93E8ULL, 0xA4414F201E7DD3FFULL, 0x89BA6140414E61B0ULL,
	   0xA6438B33193435B6ULL, 0x37A9764BDFD6BF18ULL, 0xC18E6D217D09C9F0ULL, 0x399B2D02A74679D0ULL, } },
};

/* Blocked: KBLOOM_HASH_FAST, seed 42, 8-byte keys, 1000 blocks, k = 7. */
static const struct {
	const char *key;
	__u64 h;
	__u32 block;
	__u64 mask[8];
} golden_block[] = {
	{ "kbloom-0", 0x76E90837041D9E34ULL, 464, { 0x0000000010000100ULL, 0x0000000002000000ULL, 0x0200000000008000ULL, 0x0000000000000000ULL,
	   0x0100000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000100000000000ULL, } },
	{ "kbloom-1", 0x75DCE3D630DF3729ULL, 460, { 0x0000000000000000ULL, 0x0000080200000000ULL, 0x0000000000000800ULL, 0x0000000000000002ULL,
	   0x0020000000000000ULL, 0x0000000000000000ULL, 0x0000000000010000ULL, 0x0010000000000000ULL, } },
	{ "kbloom-2", 0xF8B30C58191BDA39ULL, 971, { 0x0004000000000000ULL, 0x0200000000000800ULL, 0x8000000002000000ULL, 0x0000000000000000ULL,
	   0x0000000000004100ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, } },
	{ "kbloom-3", 0x2EC0A0BE35723E9BULL, 182, { 0x0000000000000080ULL, 0x0000040800000000ULL, 0x0004000000000008ULL, 0x0000000000000000ULL,
	   0x0000000000000000ULL, 0x0100000000000000ULL, 0x0000000002000000ULL, 0x0000000000000000ULL, } },
};

/*
 * Standard: KBLOOM_HASH_SIPHASH13, seed 42, m = 1000003 * 64, 10 probes.
 * Positions computed outside C, by Python's integers in closed form,
 * pos_i = (((h * 0x9E3779B97F4A7C15^i) mod 2^64) >> 32) * m >> 32.
 */
#define GOLDEN_STD_M	(1000003ULL * 64)
static const struct {
	const char *key;
	__u64 h;
	__u32 pos[10];
} golden_std[] = {
	{ "kbloom-0", 0x939911F9AD2F3383ULL, { 36899593, 44238445, 60142124, 5776256, 45045135, 47301161, 14773971, 52235362, 7237133, 14840403, } },
	{ "kbloom-1", 0x89DA7027BD187176ULL, { 34463421, 42046026, 26930284, 29713688, 47356460, 30642215, 44171062, 60757637, 31406187, 7201732, } },
	{ "kbloom-2", 0x657A40216BC4A4D3ULL, { 25369461, 7639667, 14474155, 29754946, 19935372, 61311262, 1838549, 62175415, 32817196, 38738847, } },
	{ "kbloom-3", 0xAFF2F14744AD61F7ULL, { 43987380, 18033960, 38402851, 52750950, 61347568, 24831768, 32651470, 36047078, 55024155, 62839231, } },
};

/*
 * The same sequence (golden_std[0].h) over all KBLOOM_K_MAX probes at the
 * edges of m: KBLOOM_M_MAX, the largest MSBF stage, and a small one.
 */
static const struct {
	__u64 m;
	__u32 pos[32];
} golden_std_m[] = {
	{ 1ULL << 32, { 2476282361U, 2968782907U, 4036057539U, 387636880U, 3022918818U, 3174317692U, 991461492U, 3505445336U,
	   485674331U, 995919664U, 2709732235U, 696896142U, 2424371123U, 1057480910U, 282276898U, 2716890133U,
	   2827610702U, 1252045501U, 201617182U, 2517749490U, 3674009608U, 1341894808U, 1682780894U, 3259231059U,
	   1088199240U, 4184273899U, 2369863569U, 490076708U, 1904165372U, 58931450U, 619843233U, 3207173698U, } },
	{ 65535, { 37784, 45299, 61584, 5914, 46125, 48435, 15128, 53488, 7410, 15196, 41346, 10633, 36992, 16135, 4307, 41455,
	   43145, 19104, 3076, 38417, 56060, 20475, 25676, 49731, 16604, 63845, 36160, 7477, 29054, 899, 9457, 48936, } },
	{ 100, { 57, 69, 93, 9, 70, 73, 23, 81, 11, 23, 63, 16, 56, 24, 6, 63, 65, 29, 4, 58, 85, 31, 39, 75, 25, 97, 55, 11, 44, 1, 14, 74, } },
};

static void golden_key(__u8 key[64])
{
	int i;

	for (i = 0; i < 64; i++)
		key[i] = (__u8)(i * 7 + 1);
}

TEST(siphash24_published_vector)
{
	__u64 k0 = 0x0706050403020100ULL, k1 = 0x0F0E0D0C0B0A0908ULL;
	__u8 msg[15];
	int i;

	/* Aumasson & Bernstein, SipHash paper, appendix A */
	for (i = 0; i < 15; i++)
		msg[i] = (__u8)i;
	ASSERT_EQ(0xA129CA6149BE45E5ULL, kb_siphash(k0, k1, msg, 15, 2, 4));
}

TEST(crc32c_check_value)
{
	ASSERT_EQ(0xE3069283U, kb_crc32c("123456789", 9));
}

TEST(hash_vectors)
{
	__u8 key[64];
	size_t i;
	int l;

	golden_key(key);
	for (i = 0; i < sizeof(golden_hash) / sizeof(golden_hash[0]); i++) {
		for (l = 0; l < 8; l++) {
			__u64 h = kb_hash(golden_hash[i].hash_id,
					  golden_hash[i].seed, key,
					  golden_lens[l]);

			EXPECT_EQ(golden_hash[i].h[l], h)
				TH_LOG("hash %u seed %llx len %u",
				       golden_hash[i].hash_id,
				       (unsigned long long)golden_hash[i].seed,
				       golden_lens[l]);
		}
	}
	/* the SipHash id is SipHash-1-3 keyed with (seed, kb_sip_k1(seed)) */
	EXPECT_EQ(kb_siphash(7, kb_sip_k1(7), key, 13, 1, 3),
		  kb_hash(KBLOOM_HASH_SIPHASH13, 7, key, 13));
}

/*
 * The fast hash of a key of 1..8 bytes in its two halves (the seed-free
 * kb_fast_key_mix(), then kb_hash_fast_mixed() per seed) is
 * kb_hash_fast(), on the golden key and seeds and on random ones.
 */
TEST(hash_fast_halves)
{
	struct cu_rng g = { 0x5EED };
	__u8 key[64];
	__u64 seed;
	__u32 t, len, i;

	golden_key(key);
	for (i = 0; i < 3; i++) {
		seed = golden_hash[i].seed;
		for (len = 1; len <= 8; len++)
			EXPECT_EQ(kb_hash_fast(seed, key, len),
				  kb_hash_fast_mixed(seed, len,
						     kb_fast_key_mix(key,
								     len)));
	}
	EXPECT_EQ(golden_hash[1].h[0],
		  kb_hash_fast_mixed(1, 1, kb_fast_key_mix(key, 1)));
	for (t = 0; t < 20000; t++) {
		len = 1 + t % 8;
		seed = cu_next(&g);
		for (i = 0; i < 8; i++)
			key[i] = (__u8)cu_next(&g);
		ASSERT_EQ(kb_hash_fast(seed, key, len),
			  kb_hash_fast_mixed(seed, len,
					     kb_fast_key_mix(key, len)))
			TH_LOG("len %u seed %llx", len,
			       (unsigned long long)seed);
	}
}

/* A key buffer on an 8-byte boundary, for kb_hash_al(). */
union golden_al_key {
	__u8 b[KBLOOM_KEY_MAX];
	__u64 w[KBLOOM_KEY_MAX / 8];
};

/* The aligned form gives the golden vectors too. */
TEST(hash_al_vectors)
{
	union golden_al_key k;
	size_t i;
	int l;

	golden_key(k.b);
	for (i = 0; i < sizeof(golden_hash) / sizeof(golden_hash[0]); i++)
		for (l = 0; l < 8; l++)
			EXPECT_EQ(golden_hash[i].h[l],
				  kb_hash_al(golden_hash[i].hash_id,
					     golden_hash[i].seed, k.b,
					     golden_lens[l]))
				TH_LOG("hash %u seed %llx len %u",
				       golden_hash[i].hash_id,
				       (unsigned long long)golden_hash[i].seed,
				       golden_lens[l]);
}

/*
 * kb_hash_al() of an aligned key is kb_hash() of the same bytes at an odd
 * address, for every length 1..KBLOOM_KEY_MAX, both BPF hash ids and
 * random keys and seeds; the aligned buffer's bytes past the key are
 * random and must not count (the tail's 4, 2 and 1-byte loads stop at
 * len).
 */
TEST(hash_al_same_as_bytewise)
{
	static const __u32 ids[] = { KBLOOM_HASH_FAST, KBLOOM_HASH_SIPHASH13 };
	struct cu_rng g = { 0xA11C };
	union golden_al_key k;
	__u8 odd[KBLOOM_KEY_MAX + 1];
	__u32 len, t, i, j;
	__u64 seed;

	for (len = 1; len <= KBLOOM_KEY_MAX; len++) {
		for (t = 0; t < 500; t++) {
			seed = t ? cu_next(&g) : 0;
			for (j = 0; j < KBLOOM_KEY_MAX / 8; j++)
				k.w[j] = cu_next(&g);
			memcpy(odd + 1, k.b, len);
			for (i = 0; i < 2; i++)
				ASSERT_EQ(kb_hash(ids[i], seed, odd + 1, len),
					  kb_hash_al(ids[i], seed, k.b, len))
					TH_LOG("hash %u len %u seed %llx",
					       ids[i], len,
					       (unsigned long long)seed);
			ASSERT_EQ(kb_hash_fast(seed, odd + 1, len),
				  kb_hash_fast_al(seed, k.b, len));
		}
	}
}

TEST(block_vectors)
{
	__u64 mask[8];
	size_t i;
	int w;

	for (i = 0; i < sizeof(golden_block) / sizeof(golden_block[0]); i++) {
		__u64 h = kb_hash(KBLOOM_HASH_FAST, 42, golden_block[i].key, 8);

		ASSERT_EQ(golden_block[i].h, h);
		ASSERT_EQ(golden_block[i].block, kb_block_index(h, 1000));
		kb_block_mask(h, 7, mask);
		for (w = 0; w < 8; w++)
			EXPECT_EQ(golden_block[i].mask[w], mask[w]);
	}
}

TEST(standard_vectors)
{
	struct kb_probe p;
	size_t i;
	int j;

	for (i = 0; i < sizeof(golden_std) / sizeof(golden_std[0]); i++) {
		__u64 h = kb_hash(KBLOOM_HASH_SIPHASH13, 42, golden_std[i].key,
				  8);

		ASSERT_EQ(golden_std[i].h, h);
		kb_probe_init(&p, h);
		for (j = 0; j < 10; j++)
			EXPECT_EQ(golden_std[i].pos[j],
				  kb_probe_next(&p, GOLDEN_STD_M));
	}
	for (i = 0; i < sizeof(golden_std_m) / sizeof(golden_std_m[0]); i++) {
		kb_probe_init(&p, golden_std[0].h);
		for (j = 0; j < 32; j++) {
			EXPECT_EQ(golden_std_m[i].pos[j],
				  kb_probe_next(&p, golden_std_m[i].m))
				TH_LOG("m %llu probe %d",
				       (unsigned long long)golden_std_m[i].m, j);
		}
	}
}

/*
 * libkbloom sets exactly the bits uapi/ defines: for each hash id and key
 * length, one key into an empty filter gives exactly the block and mask of
 * kb_hash() + kb_block_mask() (and the positions of kb_probe_next()).
 */
TEST(library_applies_uapi_blocked)
{
	struct kbloom_opts o = { .seed = 0x0123456789ABCDEFULL };
	struct kbloom_filter *f;
	const __u64 *w;
	__u64 mask[8], nw, h, b;
	__u8 key[64];
	__u32 id, l, i;

	golden_key(key);
	for (id = 1; id <= 2; id++) {
		o.hash_id = id;
		ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 512 * 1000,
					      7, &o, &f));
		w = kbloom_words(f, &nw);
		ASSERT_EQ(8000ULL, nw);
		for (l = 0; l < 8; l++) {
			kbloom_clear(f);
			ASSERT_EQ(0, kbloom_add(f, key, golden_lens[l]));
			h = kb_hash(id, o.seed, key, golden_lens[l]);
			b = kb_block_index(h, 1000);
			kb_block_mask(h, 7, mask);
			for (i = 0; i < nw; i++)
				ASSERT_EQ(i / 8 == b ? mask[i % 8] : 0, w[i])
					TH_LOG("id %u len %u word %u", id,
					       golden_lens[l], i);
		}
		kbloom_destroy(f);
	}
}

TEST(library_applies_uapi_standard_counting)
{
	struct kbloom_opts o = { .seed = 99 };
	struct kbloom_filter *f;
	const __u64 *w;
	__u64 nw, m = 64 * 1000, h;
	__u32 id, l, i, cb, j, n;
	struct kb_probe p;
	__u8 key[64];
	__u64 *want;

	golden_key(key);
	for (id = 1; id <= 2; id++) {
		for (cb = 0; cb <= 8; cb += 4) {
			__u32 type = cb ? KBLOOM_TYPE_COUNTING :
					  KBLOOM_TYPE_STANDARD;

			o.hash_id = id;
			o.counter_bits = cb;
			ASSERT_EQ(0, kbloom_create_mk(type, m, 9, &o, &f));
			w = kbloom_words(f, &nw);
			want = calloc(nw, 8);
			ASSERT_NE(NULL, want);
			for (l = 0; l < 8; l++) {
				kbloom_clear(f);
				memset(want, 0, nw * 8);
				ASSERT_EQ(0, kbloom_add(f, key, golden_lens[l]));
				h = kb_hash(id, 99, key, golden_lens[l]);
				kb_probe_init(&p, h);
				for (n = 0; n < 9; n++) {
					j = kb_probe_next(&p, m);
					if (cb)
						want[kb_ctr_word(j, cb)] =
							kb_ctr_inc(want[kb_ctr_word(j, cb)],
								   kb_ctr_shift(j, cb), cb);
					else
						want[j >> 6] |= 1ULL << (j & 63);
				}
				for (i = 0; i < nw; i++)
					ASSERT_EQ(want[i], w[i]);
			}
			free(want);
			kbloom_destroy(f);
		}
	}
}

/*
 * The library's blocked test generates the probes itself (no mask array),
 * has scalar copies specialised for k = 6, 7, 8 and an AVX2 version
 * (userspace/lib/core/simd.c, turned off by KBLOOM_NO_SIMD=1): for every
 * k in 1..32, a one-block filter holding a few keys (added singly and in
 * a batch, which must set exactly the bits of kb_block_mask()) answers
 * every query exactly as kb_block_mask() says it must, singly and in
 * batches, on every path.
 */
static void check_blocked_k(struct __test_metadata *_metadata,
			    __u32 hash_id, bool simd)
{
	struct kbloom_opts o = { .seed = 5, .hash_id = hash_id };
	struct cu_rng r = { 0x1234567 };
	__u64 keys[256], mask[8], want_w[8], h, nw;
	struct kbloom_filter *f;
	__u32 k, i, w, n, hits;
	const __u64 *words;
	__u8 res[32];
	int want;

	setenv("KBLOOM_NO_SIMD", simd ? "0" : "1", 1);
	for (k = 1; k <= KBLOOM_K_MAX; k++) {
		ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 512, k, &o,
					      &f));
		words = kbloom_words(f, &nw);
		/*
		 * fill so that about 30% of random queries hit; half the
		 * keys singly, half as a batch; the words are exactly the
		 * OR of the keys' kb_block_mask()
		 */
		n = (__u32)ceil(-512.0 * log(1 - pow(0.3, 1.0 / k)) / k);
		memset(want_w, 0, sizeof(want_w));
		for (i = 0; i < n; i++) {
			keys[i] = cu_next(&r);
			kb_block_mask(kb_hash(hash_id, 5, &keys[i], 8), k, mask);
			for (w = 0; w < 8; w++)
				want_w[w] |= mask[w];
			if (i < n / 2)
				ASSERT_EQ(0, kbloom_add(f, &keys[i], 8));
		}
		ASSERT_EQ(0, kbloom_add_batch(f, &keys[n / 2], (n - n / 2) * 8,
					      8, n - n / 2));
		for (w = 0; w < 8; w++)
			ASSERT_EQ(want_w[w], words[w]) TH_LOG("k %u word %u", k, w);
		for (i = 0; i < 256; i++)
			keys[i] = cu_next(&r);
		ASSERT_LE(0, kbloom_test_batch(f, keys, sizeof(keys), 8, 256,
					       res));
		for (i = 0, hits = 0; i < 256; i++) {
			h = kb_hash(hash_id, 5, &keys[i], 8);
			kb_block_mask(h, k, mask);
			want = 1;
			for (w = 0; w < 8; w++)
				if ((words[w] & mask[w]) != mask[w])
					want = 0;
			ASSERT_EQ(want, kbloom_test(f, &keys[i], 8))
				TH_LOG("k %u key %u", k, i);
			ASSERT_EQ(want, (res[i / 8] >> (i % 8)) & 1);
			hits += want;
		}
		/* the fill makes both answers common */
		EXPECT_LT(0U, hits);
		EXPECT_GT(256U, hits);
		kbloom_destroy(f);
	}
	unsetenv("KBLOOM_NO_SIMD");
}

TEST(blocked_test_matches_mask)
{
	check_blocked_k(_metadata, KBLOOM_HASH_FAST, true);
	check_blocked_k(_metadata, KBLOOM_HASH_SIPHASH13, true);
}

TEST(blocked_test_matches_mask_scalar)
{
	check_blocked_k(_metadata, KBLOOM_HASH_FAST, false);
	check_blocked_k(_metadata, KBLOOM_HASH_SIPHASH13, false);
}

TEST_HARNESS_MAIN
