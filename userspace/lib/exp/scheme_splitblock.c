// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the split-block per-port schemes (libkbloom_survey.h,
 * uapi/kbloom_var_splitblock.h): ultra-fast (512-bit blocks, one bit in
 * each of eight 64-bit words) and Parquet's split-block filter (256-bit
 * blocks, one bit in each of eight 32-bit words; the port's seed with
 * xxHash64, so ports differ: Parquet itself uses seed 0).
 *
 * Port p holds one filter of M bits (M / B blocks; memory M / 8).  k is
 * 8, fixed by the layout.  The rate, with lambda = n B / M keys a block
 * and w-bit words:
 *   p = sum_i Pois_lambda(i) (1 - (1 - 1/w)^i)^8
 * A test reads one block.  The ports add and test by hash: each group's
 * key hashed from what the experiment keeps of it (sb_group_hash()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scheme.h"
#include "libkbloom_survey.h"
#include "uapi/kbloom_hash.h"

/* A port: its filter, and the hash and seed the filter keys with. */
struct sb_port {
	struct kbloom_sb *f;
	__u32 hash_id;
	__u64 seed;
};

/*
 * kb_hash() of group @g's key under the port's hash: the fast hash from
 * the seed-free half the experiment keeps (x->gmix, kb_hash_fast_mixed()),
 * xxHash64 inline on its 4 bytes; the library adds and tests by hash.
 */
static __u64 sb_group_hash(const struct sb_port *sp, const struct kb_exp *x,
			   __u32 g)
{
	if (sp->hash_id == KBLOOM_HASH_FAST)
		return kb_hash_fast_mixed(sp->seed, 4, x->gmix[g]);
	return kb_hash_xxh64(sp->seed, &x->gkey[g], 4);
}

static int sb_fill(struct exp_port_ctx *c, struct sb_port *sp)
{
	struct kbloom_sb_stats st;
	__u64 i;
	int err;

	err = kbloom_sb_stats(sp->f, &st);
	if (err)
		return err;
	sp->hash_id = st.hash_id;
	sp->seed = st.seed;
	for (i = 0; !err && i < c->n; i++)
		err = kbloom_sb_add_hash(sp->f,
					 sb_group_hash(sp, c->x, c->groups[i]));
	return err;
}

static int sb_build(struct exp_port_ctx *c, __u32 type, __u32 hash,
		    void **port)
{
	struct kbloom_opts o = { .hash_id = hash, .seed = c->seed };
	struct sb_port *sp = calloc(1, sizeof(*sp));
	int err;

	if (!sp)
		return -ENOMEM;
	err = kbloom_sb_create_blocks(type, c->bits / kb_sb_block_bits(type),
				      &o, &sp->f);
	if (!err)
		err = sb_fill(c, sp);
	if (err) {
		kbloom_sb_destroy(sp->f);
		free(sp);
		return err;
	}
	c->k_sum = KB_SB_K;
	c->k_n = 1;
	c->pred[0] = c->n ? kbloom_sb_fpr(type, c->bits, c->n) : 0.0;
	c->probes = exp_port_tests(c);
	*port = sp;
	return 0;
}

static int uf_build(struct exp_port_ctx *c, void **port)
{
	return sb_build(c, KBLOOM_TYPE_ULTRA_FAST, KBLOOM_HASH_FAST, port);
}

static int sbbf_build(struct exp_port_ctx *c, void **port)
{
	return sb_build(c, KBLOOM_TYPE_SPLIT_BLOCK, KBLOOM_HASH_XXH64, port);
}

static int sb_test(const void *port, const __u8 *key)
{
	const struct sb_port *sp = port;

	return kbloom_sb_test(sp->f, key, 4) == 1;
}

/* The first-order tests of the groups @g, by their hashes. */
static int sb_test_groups(const void *port, const struct kb_exp *x,
			  const __u32 *g, __u64 n, __u8 *hits)
{
	const struct sb_port *sp = port;
	__u64 i;

	memset(hits, 0, (n + 7) / 8);
	for (i = 0; i < n; i++)
		if (kbloom_sb_test_hash(sp->f, sb_group_hash(sp, x, g[i])) == 1)
			hits[i >> 3] |= (__u8)(1U << (i & 7));
	return 0;
}

static void sb_destroy(void *port)
{
	struct sb_port *sp = port;

	kbloom_sb_destroy(sp->f);
	free(sp);
}

static __u64 sb_bytes(const struct kb_exp *x, __u64 bits)
{
	(void)x;
	return bits / 8;
}

static __u64 uf_step(const struct kb_exp_params *p)
{
	(void)p;
	return KB_UF_BLOCK_BITS;
}

static __u64 sbbf_step(const struct kb_exp_params *p)
{
	(void)p;
	return KB_SBBF_BLOCK_BITS;
}

const struct exp_scheme_ops exp_scheme_ultrafast = {
	.name = "ultrafast",
	.title = "ultra-fast per-port",
	.color = "#ffbb78",
	.bits_step = uf_step,
	.build = uf_build,
	.test = sb_test,
	.test_groups = sb_test_groups,
	.destroy = sb_destroy,
	.bytes = sb_bytes,
};

const struct exp_scheme_ops exp_scheme_sbbf = {
	.name = "sbbf",
	.title = "Parquet split-block per-port",
	.color = "#98df8a",
	.bits_step = sbbf_step,
	.build = sbbf_build,
	.test = sb_test,
	.test_groups = sb_test_groups,
	.destroy = sb_destroy,
	.bytes = sb_bytes,
};
