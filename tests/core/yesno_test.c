// SPDX-License-Identifier: GPL-2.0
/*
 * Yes-no in-packet headers (uapi/kbloom_ipbf_yesno.h): the layout, golden
 * no positions (pinned, and recomputed by an independent writer), the
 * parse rules and the refusal of malformed headers, and the builder's
 * guarantees: no tree link is ever excluded (checked link by link, and
 * by the simulator delivering to every member), fewer false positives
 * than LIPSIN's best of 8 for the same zFilter.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"
#include "libkbloom_net.h"
#include "core_util.h"

static __u32 rnd(struct cu_rng *r, __u32 n)
{
	return (__u32)(((cu_next(r) >> 32) * n) >> 32);
}

TEST(layout)
{
	EXPECT_EQ(4, sizeof(struct kb_ipbf_no));
	EXPECT_EQ(44, KB_IPBF_YESNO_LEN);
	EXPECT_EQ(76, KB_IPBF_YESNO_LEN_MAX);
	EXPECT_EQ(0x02, KB_IPBF_F_YESNO);
	EXPECT_EQ(0x03, KB_IPBF_F_KNOWN);
}

/* The no positions as the format states them, written out here. */
static __u32 own_no_pos(__u64 lh, __u32 seed, __u32 bytes, __u32 i)
{
	__u64 g = kb_fmix64(lh ^ (0x165667B19E3779F9ULL * ((__u64)seed + 1)));

	while (i--)
		g *= 0x9E3779B97F4A7C15ULL;
	return (__u32)(((g >> 32) * (8ULL * bytes)) >> 32);
}

TEST(golden_no_positions)
{
	/* lh 0x0123456789abcdef, seed 0 and 7, 8 bytes, 4 probes: pinned */
	static const __u32 want[2][4] = {
		{ 38, 33, 16, 34 },
		{ 29, 45, 23, 42 },
	};
	struct kb_probe p;
	__u32 s, i, pos;

	for (s = 0; s < 2; s++) {
		kb_ipbf_no_init(&p, 0x0123456789abcdefULL, s ? 7 : 0);
		for (i = 0; i < 4; i++) {
			pos = kb_ipbf_no_next(&p, 8);
			TH_LOG("seed %u probe %u: %u", s ? 7 : 0, i, pos);
			EXPECT_EQ(want[s][i], pos);
			EXPECT_EQ(own_no_pos(0x0123456789abcdefULL, s ? 7 : 0,
					     8, i), pos);
		}
	}
}

TEST(no_add_match)
{
	struct kb_ipbf_no no = { .bytes = 4, .k = 3, .seed = 9 };
	__u8 bits[KB_IPBF_NO_BYTES_MAX] = { 0 };
	__u32 i, ones = 0;

	EXPECT_EQ(0, kb_ipbf_no_match(bits, &no, 42));
	kb_ipbf_no_add(bits, &no, 42);
	EXPECT_EQ(1, kb_ipbf_no_match(bits, &no, 42));
	for (i = 0; i < KB_IPBF_NO_BYTES_MAX; i++)
		ones += __builtin_popcount(bits[i]);
	EXPECT_LE(1, ones);
	EXPECT_GE(3, ones);
	/* nothing past the 4 bytes */
	for (i = 4; i < KB_IPBF_NO_BYTES_MAX; i++)
		EXPECT_EQ(0, bits[i]);
	/* an empty no filter holds nothing */
	no.bytes = 0;
	EXPECT_EQ(0, kb_ipbf_no_match(bits, &no, 42));
}

/* A valid yes-no header of @nb no bytes in @b. */
static __u32 make_hdr(__u8 *b, __u32 nb)
{
	__u32 i;

	memset(b, 0, KB_IPBF_YESNO_LEN_MAX + 8);
	b[0] = KB_IPBF_VERSION;
	b[1] = KB_IPBF_F_YESNO;
	b[2] = 4;
	b[3] = 2;
	b[6] = 0x08;
	for (i = 8; i < 40; i++)
		b[i] = (__u8)(i * 37);
	b[40] = (__u8)nb;
	b[41] = 2;
	b[42] = 5;
	for (i = 0; i < nb; i++)
		b[44 + i] = (__u8)(0xA5 ^ i);
	return KB_IPBF_YESNO_LEN + nb;
}

TEST(parse_rules)
{
	__u8 b[KB_IPBF_YESNO_LEN_MAX + 8];
	struct kb_ipbf_info in;
	__u32 len, nb;

	for (nb = 0; nb <= KB_IPBF_NO_BYTES_MAX; nb += 8) {
		len = make_hdr(b, nb);
		ASSERT_EQ(0, kb_ipbf_parse(b, len, &in));
		EXPECT_EQ(len, in.len);
		EXPECT_EQ(nb, in.no.bytes);
		EXPECT_EQ(2, in.no.k);
		EXPECT_EQ(5, in.no.seed);
		EXPECT_EQ(0, memcmp(in.no_bits, b + 44, nb));
		/* one byte short anywhere: refused */
		EXPECT_EQ(-EBADMSG, kb_ipbf_parse(b, len - 1, &in));
	}
}

TEST(malformed_refused)
{
	__u8 b[KB_IPBF_YESNO_LEN_MAX + 8];
	struct kb_ipbf_info in;
	static const struct {
		__u32 off;
		__u8 v;
	} bad[] = {
		{ 1, KB_IPBF_F_YESNO | KB_IPBF_F_MSBF },	/* both forms */
		{ 1, KB_IPBF_F_YESNO | 0x04 },	/* unknown flag */
		{ 4, 1 },			/* stages */
		{ 5, 1 },			/* reserved */
		{ 40, KB_IPBF_NO_BYTES_MAX + 1 },	/* no filter too long */
		{ 41, 0 },			/* k 0 */
		{ 41, KB_IPBF_NO_K_MAX + 1 },	/* k 9 */
		{ 43, 1 },			/* reserved */
	};
	__u32 i, len;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		len = make_hdr(b, 8);
		b[bad[i].off] = bad[i].v;
		memset(&in, 0x5A, sizeof(in));
		EXPECT_EQ(-EBADMSG, kb_ipbf_parse(b, sizeof(b), &in)) {
			TH_LOG("byte %u = %u accepted", bad[i].off, bad[i].v);
		}
		EXPECT_EQ(0x5A, ((__u8 *)&in)[0]);	/* unchanged */
	}
	/* the yes part alone (a LIPSIN length) is not a yes-no header */
	len = make_hdr(b, 0);
	EXPECT_EQ(-EBADMSG, kb_ipbf_parse(b, KB_IPBF_LIPSIN_LEN, &in));
	EXPECT_EQ(0, kb_ipbf_parse(b, len, &in));
}

struct yn_fix {
	struct kb_topo *t;
	struct kb_spt *s;
	struct kb_tree *tr;
	struct kb_lids *l;
	struct kb_sim *sim;
};

static int fix_new(struct yn_fix *f, __u32 k, __u64 seed)
{
	memset(f, 0, sizeof(*f));
	return kb_topo_fat_tree(k, &f->t) ?: kb_spt_new(f->t, &f->s) ?:
	       kb_tree_new(f->t, &f->tr) ?:
	       kb_lids_new(f->t, seed, 5, 8, &f->l) ?:
	       kb_sim_new(f->t, 0, &f->sim);
}

static void fix_free(struct yn_fix *f)
{
	kb_sim_free(f->sim);
	kb_lids_free(f->l);
	kb_tree_free(f->tr);
	kb_spt_free(f->s);
	kb_topo_free(f->t);
}

/* A random tree of @g receivers from a random host. */
static int random_tree(struct yn_fix *f, struct cu_rng *r, __u32 g,
		       __u32 *src)
{
	__u32 dst[64], i, j, h;

	*src = f->t->hosts[rnd(r, f->t->nhosts)];
	for (i = 0; i < g; i++) {
again:
		h = f->t->hosts[rnd(r, f->t->nhosts)];
		if (h == *src)
			goto again;
		for (j = 0; j < i; j++)
			if (dst[j] == h)
				goto again;
		dst[i] = h;
	}
	return kb_spt_compute(f->s, *src, cu_next(r)) ?:
	       kb_tree_build(f->tr, f->s, dst, g);
}

/* Tree links in no, counted here from the header's bytes. */
static __u32 excluded(const struct yn_fix *f, const __u8 *hdr)
{
	struct kb_ipbf_no no;
	__u32 i, n = 0;

	memcpy(&no, hdr + 40, sizeof(no));
	for (i = 0; i < f->tr->nlinks; i++)
		n += kb_ipbf_no_match(hdr + 44, &no,
				      kb_lhash(f->l, hdr[3], f->tr->links[i]));
	return n;
}

/*
 * 2000 trees of 2..13 receivers on a k = 8 fat-tree: every tree link
 * passes (checked against the header's no filter, and every member
 * receives in the simulator); the false positives left are fewer than
 * LIPSIN's best of 8, and so is the leakage.
 */
TEST(builder_never_excludes_tree)
{
	double leak_z = 0, leak_y = 0;
	__u32 i, src, g, len, n = 0, fp_z = 0, fp_y = 0, fp_yes = 0;
	struct kb_sim_result rz, ry;
	struct kb_yn_result y;
	struct kb_zf_result z;
	struct cu_rng r = { 2016 };
	__u8 hz[64], hy[KB_IPBF_YESNO_LEN_MAX];
	struct yn_fix f;

	ASSERT_EQ(0, fix_new(&f, 8, 1603));
	for (i = 0; i < 2000; i++) {
		g = 2 + rnd(&r, 12);
		ASSERT_EQ(0, random_tree(&f, &r, g, &src));
		if (kb_zf_build(f.l, f.tr, 8, 128, &z))
			continue;
		ASSERT_EQ(0, kb_yn_build(f.l, f.tr, NULL, &y));
		n++;
		ASSERT_EQ(0, y.excluded);
		ASSERT_LE(y.fp, y.fp_yes);
		ASSERT_GE(128, y.fill);
		len = kb_ipbf_write_yesno(hy, sizeof(hy), f.tr->height, 0x0800,
					  &y);
		ASSERT_EQ(KB_IPBF_YESNO_LEN + y.no.bytes, len);
		ASSERT_EQ(0, excluded(&f, hy));
		kb_ipbf_write_lipsin(hz, sizeof(hz), f.tr->height, z.tag,
				     0x0800, &z.zf);
		ASSERT_EQ(0, kb_sim_run(f.sim, f.l, f.tr, src, hz, 40, 128,
					&rz));
		ASSERT_EQ(0, kb_sim_run(f.sim, f.l, f.tr, src, hy, len, 128,
					&ry));
		ASSERT_EQ(f.tr->nmembers, ry.delivered);
		ASSERT_LE(f.tr->nlinks, ry.tx_tree);
		/* no false positive left: the tree, exactly */
		if (!y.fp)
			ASSERT_EQ(f.tr->nlinks, ry.tx);
		fp_z += z.fp;
		fp_y += y.fp;
		fp_yes += y.fp_yes;
		leak_z += (double)rz.tx_off / rz.tx_tree;
		leak_y += (double)ry.tx_off / ry.tx_tree;
	}
	TH_LOG("%u trees: candidate false positives LIPSIN d=8 %u, yes %u, "
	       "yes-no %u; mean leakage %.4f vs %.4f", n, fp_z, fp_yes, fp_y,
	       leak_z / n, leak_y / n);
	ASSERT_LT(1500, n);
	EXPECT_LT(fp_y * 4, fp_z);
	EXPECT_LT(leak_y, leak_z);
	fix_free(&f);
}

/* A tree without false positives gets an empty no filter: 44 bytes. */
TEST(empty_no_filter)
{
	struct kb_yn_result y;
	struct cu_rng r = { 7 };
	__u8 hy[KB_IPBF_YESNO_LEN_MAX];
	struct yn_fix f;
	__u32 src, i, seen = 0;

	ASSERT_EQ(0, fix_new(&f, 4, 11));
	for (i = 0; i < 50 && !seen; i++) {
		ASSERT_EQ(0, random_tree(&f, &r, 1, &src));
		ASSERT_EQ(0, kb_yn_build(f.l, f.tr, NULL, &y));
		if (y.fp_yes)
			continue;
		seen = 1;
		EXPECT_EQ(0, y.no.bytes);
		EXPECT_EQ(KB_IPBF_YESNO_LEN,
			  kb_ipbf_write_yesno(hy, sizeof(hy), 3, 0x0800, &y));
	}
	EXPECT_EQ(1, seen);
	fix_free(&f);
}

TEST(bad_input)
{
	struct kb_yn_params p = {
		.ntags = 8, .fill_limit = 128, .no_bytes = 8, .no_k = 2,
		.nseeds = 8,
	};
	struct kb_yn_params bad;
	struct kb_yn_result y, keep;
	struct cu_rng r = { 3 };
	__u8 hy[KB_IPBF_YESNO_LEN_MAX];
	struct yn_fix f;
	__u32 src;

	ASSERT_EQ(0, fix_new(&f, 4, 5));
	ASSERT_EQ(0, random_tree(&f, &r, 5, &src));
	ASSERT_EQ(0, kb_yn_build(f.l, f.tr, &p, &y));
	keep = y;
#define BAD(field, v) do {						\
		bad = p;						\
		bad.field = (v);					\
		EXPECT_EQ(-ERANGE, kb_yn_build(f.l, f.tr, &bad, &y));	\
		EXPECT_EQ(0, memcmp(&keep, &y, sizeof(y)));		\
	} while (0)
	BAD(ntags, 0);
	BAD(ntags, 9);
	BAD(fill_limit, 0);
	BAD(fill_limit, 257);
	BAD(no_bytes, 0);
	BAD(no_bytes, 33);
	BAD(no_k, 0);
	BAD(no_k, 9);
	BAD(nseeds, 0);
	BAD(nseeds, 257);
#undef BAD
	bad = p;
	bad.fill_limit = 4;
	EXPECT_EQ(-E2BIG, kb_yn_build(f.l, f.tr, &bad, &y));
	EXPECT_EQ(-EINVAL, kb_yn_build(NULL, f.tr, &p, &y));
	EXPECT_EQ(-EMSGSIZE, kb_ipbf_write_yesno(hy, KB_IPBF_YESNO_LEN - 1 +
						 y.no.bytes, 3, 0x0800, &y));
	y.no.k = 0;
	EXPECT_EQ(-ERANGE, kb_ipbf_write_yesno(hy, sizeof(hy), 3, 0x0800, &y));
	fix_free(&f);
}

/* The simulator drops a malformed yes-no header at the source. */
TEST(sim_refuses_malformed)
{
	struct kb_sim_result res;
	struct kb_yn_result y;
	struct cu_rng r = { 13 };
	__u8 hy[KB_IPBF_YESNO_LEN_MAX];
	struct yn_fix f;
	__u32 src;
	int len;

	ASSERT_EQ(0, fix_new(&f, 4, 17));
	ASSERT_EQ(0, random_tree(&f, &r, 6, &src));
	ASSERT_EQ(0, kb_yn_build(f.l, f.tr, NULL, &y));
	len = kb_ipbf_write_yesno(hy, sizeof(hy), 6, 0x0800, &y);
	ASSERT_LT(0, len);
	ASSERT_EQ(0, kb_sim_run(f.sim, f.l, f.tr, src, hy, len, 128, &res));
	EXPECT_EQ(f.tr->nmembers, res.delivered);
	hy[41] = 0;	/* k 0 */
	ASSERT_EQ(0, kb_sim_run(f.sim, f.l, f.tr, src, hy, len, 128, &res));
	EXPECT_EQ(0, res.tx);
	EXPECT_EQ(1, res.drop_bad);
	hy[41] = 2;
	ASSERT_EQ(0, kb_sim_run(f.sim, f.l, f.tr, src, hy, 43, 128, &res));
	EXPECT_EQ(0, res.tx);
	EXPECT_EQ(1, res.drop_bad);
	fix_free(&f);
}

TEST_HARNESS_MAIN
