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
 * A test reads one block.
 */
#include <errno.h>

#include "scheme.h"
#include "libkbloom_survey.h"

static int sb_build(struct exp_port_ctx *c, __u32 type, __u32 hash,
		    void **port)
{
	struct kbloom_opts o = { .hash_id = hash, .seed = c->seed };
	struct kbloom_sb *f;
	__u64 i;
	int err;

	err = kbloom_sb_create_blocks(type, c->bits / kb_sb_block_bits(type),
				      &o, &f);
	for (i = 0; !err && i < c->n; i++)
		err = kbloom_sb_add(f, c->keys + 4 * i, 4);
	if (err) {
		kbloom_sb_destroy(f);
		return err;
	}
	c->k_sum = KB_SB_K;
	c->k_n = 1;
	c->pred[0] = c->n ? kbloom_sb_fpr(type, c->bits, c->n) : 0.0;
	c->probes = exp_port_tests(c);
	*port = f;
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
	return kbloom_sb_test(port, key, 4) == 1;
}

static void sb_destroy(void *port)
{
	kbloom_sb_destroy(port);
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
	.destroy = sb_destroy,
	.bytes = sb_bytes,
};
