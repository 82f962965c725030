// SPDX-License-Identifier: GPL-2.0
/*
 * The probe positions of standard and counting filters
 * (uapi/kbloom_layout.h: kb_probe_init(), kb_probe_word(), kb_probe_next()).
 *
 * definition: kb_probe_next() gives pos_i = ((h C^i mod 2^64) >> 32) m >> 32
 * (C = KB_PROBE_MUL), computed here in closed form with 128-bit
 * arithmetic, for random hashes at the edges of m (1 .. 2^32).
 *
 * distinct: over many random hashes, the number D of distinct positions
 * among a key's k probes is distributed as for k independent uniform
 * positions (the exact occupancy distribution, so the birthday
 * probability for D = k), and no key is far below k.  The definition
 * before this one (double hashing in the 32-bit domain, reduced
 * afterwards) fails both: at m = 32768, k = 22 it gave too few keys with
 * one coincidence, and keys whose probes collapsed onto a few positions:
 * the false-positive floor measured on 32 Kbit multicast port filters.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "uapi/kbloom_layout.h"
#include "core_util.h"

/* h C^i mod 2^64 by square-and-multiply, not by the iterator's steps. */
static __u64 ref_g(__u64 h, __u32 i)
{
	__u64 c = KB_PROBE_MUL, r = 1;

	for (; i; i >>= 1) {
		if (i & 1)
			r *= c;
		c *= c;
	}
	return h * r;
}

static __u32 ref_pos(__u64 h, __u32 i, __u64 m)
{
	unsigned __int128 w = ref_g(h, i) >> 32;

	return (__u32)((w * m) >> 32);
}

TEST(definition)
{
	static const __u64 ms[] = {
		1, 2, 3, 63, 64, 100, 1000, 65535, 65536, 1000003,
		1000003ULL * 64, 1ULL << 31, (1ULL << 32) - 1, 1ULL << 32,
	};
	struct cu_rng r = { 0xC0FFEE };
	struct kb_probe p;
	__u64 h, m;
	__u32 t, i, n, w;

	for (t = 0; t < 2000; t++) {
		h = t < 4 ? (__u64[]){ 0, 1, 1ULL << 63, ~0ULL }[t] : cu_next(&r);
		for (n = 0; n < ARRAY_SIZE(ms) + 4; n++) {
			m = n < ARRAY_SIZE(ms) ? ms[n] :
			    1 + (cu_next(&r) >> (32 + n % 4 * 8));
			kb_probe_init(&p, h);
			for (i = 0; i < KBLOOM_K_MAX; i++) {
				w = kb_probe_word(&p);
				ASSERT_EQ((__u32)(ref_g(h, i) >> 32), w);
				ASSERT_EQ(kb_reduce32(w, m), ref_pos(h, i, m));
				ASSERT_EQ(ref_pos(h, i, m), kb_probe_next(&p, m))
					TH_LOG("h %llx m %llu probe %u",
					       (unsigned long long)h,
					       (unsigned long long)m, i);
			}
		}
	}
}

FIXTURE(distinct) {
	__u64 *seen;		/* m bits */
	double *pd;		/* P(D = d), d = 0..k */
};

FIXTURE_VARIANT(distinct) {
	__u64 m;
	__u32 k;
	__u32 keys;
};

/* the reported geometry: 32 Kbit per port, k = 22 */
FIXTURE_VARIANT_ADD(distinct, m32768_k22) {
	.m = 32768, .k = 22, .keys = 1000000,
};

FIXTURE_VARIANT_ADD(distinct, m1000_k32) {
	.m = 1000, .k = 32, .keys = 200000,
};

FIXTURE_VARIANT_ADD(distinct, m64_k8) {
	.m = 64, .k = 8, .keys = 200000,
};

/* an MSBF stage */
FIXTURE_VARIANT_ADD(distinct, m40_k16) {
	.m = 40, .k = 16, .keys = 200000,
};

FIXTURE_VARIANT_ADD(distinct, m1000003_k32) {
	.m = 1000003, .k = 32, .keys = 300000,
};

FIXTURE_SETUP(distinct)
{
	__u32 k = variant->k, t, d;
	double m = (double)variant->m;

	self->seen = calloc((variant->m + 63) / 64, sizeof(__u64));
	self->pd = calloc(k + 1, sizeof(double));
	ASSERT_NE(NULL, self->seen);
	ASSERT_NE(NULL, self->pd);
	/* occupancy of k independent uniform throws into m cells */
	self->pd[0] = 1.0;
	for (t = 0; t < k; t++) {
		for (d = t + 1; d > 0; d--)
			self->pd[d] = self->pd[d] * d / m +
				      self->pd[d - 1] * (m - (d - 1)) / m;
		self->pd[0] = 0.0;
	}
}

FIXTURE_TEARDOWN(distinct)
{
	free(self->seen);
	free(self->pd);
}

/* D of one key; leaves self->seen clear. */
static __u32 key_distinct(__u64 *seen, __u64 h, __u64 m, __u32 k)
{
	__u32 pos[KBLOOM_K_MAX], i, d = 0;
	struct kb_probe p;

	kb_probe_init(&p, h);
	for (i = 0; i < k; i++) {
		pos[i] = kb_probe_next(&p, m);
		if (!(seen[pos[i] >> 6] & (1ULL << (pos[i] & 63)))) {
			seen[pos[i] >> 6] |= 1ULL << (pos[i] & 63);
			d++;
		}
	}
	for (i = 0; i < k; i++)
		seen[pos[i] >> 6] = 0;
	return d;
}

/*
 * Counts of D per value, with the values whose expected count is below
 * 20 merged into one low tail; each bin within 5 standard deviations
 * (plus 3) of its expectation.  And no key at or below the largest D
 * whose expected count over all keys is under 1e-6.
 */
TEST_F(distinct, birthday)
{
	__u32 k = variant->k, n = variant->keys, d, i, lo, floor_d = 0;
	__u32 cnt[KBLOOM_K_MAX + 1] = { 0 };
	double e, tail_e = 0.0, sd, below = 0.0;
	__u64 tail_o = 0;

	for (i = 0; i < n; i++)
		cnt[key_distinct(self->seen, cu_mix(i ^ 0xD15717C7ULL),
				 variant->m, k)]++;
	for (d = 0; d <= k; d++) {
		below += self->pd[d] * n;
		if (below < 1e-6)
			floor_d = d;
	}
	for (lo = 0; lo <= k && self->pd[lo] * n < 20.0; lo++) {
		tail_e += self->pd[lo] * n;
		tail_o += cnt[lo];
	}
	TH_LOG("m %llu k %u, %u keys: all distinct %u (birthday %.1f), low tail D < %u: %llu (%.2f); none expected at D <= %u",
	       (unsigned long long)variant->m, k, n, cnt[k], self->pd[k] * n,
	       lo, (unsigned long long)tail_o, tail_e, floor_d);
	for (d = lo; d <= k; d++) {
		e = self->pd[d] * n;
		sd = sqrt(e * (1.0 - self->pd[d]));
		EXPECT_LE(fabs(cnt[d] - e), 5.0 * sd + 3.0)
			TH_LOG("D = %u: %u keys, expected %.1f", d, cnt[d], e);
	}
	EXPECT_LE(fabs(tail_o - tail_e), 5.0 * sqrt(tail_e) + 3.0);
	for (d = 0, n = 0; d <= floor_d; d++)
		n += cnt[d];
	for (d = 0; d <= k && !cnt[d]; d++)
		;
	EXPECT_EQ(0U, n)
		TH_LOG("%u keys with at most %u distinct positions, the fewest %u",
		       n, floor_d, d);
}

TEST_HARNESS_MAIN
