// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the d-left per-port scheme (libkbloom_dleft.h).
 *
 * Port p holds a d-left counting filter (Bonomi et al. 2006): d = 4
 * subtables of B buckets (a power of two) of c = 8 cells, each cell an
 * r-bit remainder and a w = 2-bit counter, seeded per port, in M bits:
 * B d c (r + w) <= M.  Its rate is p = n / (B 2^r) (kb_dleft_fpr_pico()),
 * so for the port's n groups B is the smallest power of two that keeps
 * the load n / (d c B) at or below 3/4 (the library planner's load, where
 * a bucket overflows very rarely), and r = floor(M / (B d c)) - w, at
 * most 32 (B doubles while r would stay 32: a larger M then lowers the
 * load); when that leaves r < 4, B is halved (the load rises, up to 1)
 * while r < 4.  A port whose groups fit no such shape, or whose insert
 * finds its d buckets full, cannot hold its set: it answers "present"
 * for every group (the switch floods that port: no false negative,
 * maximal leakage; predicted rate 1).  A test reads d buckets.  Memory:
 * M / 8 bytes.
 *
 * The model answers a port's tests from the set of its groups' prints
 * (the top log2(B) + r bits of the hash, kb_dleft_print_q()) instead of
 * reading the d buckets of packed cells: the answers are the same, since
 * a key matches a cell of subtable j iff that cell's key has the same
 * bucket and remainder there, i.e. the same permuted print, i.e. (each
 * subtable's permutation is a bijection, kb_dleft_perm_q()) the same
 * print; no group is deleted, and a port that overflowed floods.
 */
#include <errno.h>
#include <stdlib.h>

#include "scheme.h"
#include "libkbloom_dleft.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_var_dleft.h"

#define DL_TABLES	4U
#define DL_CELLS	8U
#define DL_CTR		2U
#define DL_NO_PRINT	(~0ULL)	/* an empty slot: no print has q < 64 bits */

struct dl_port {
	struct kbloom_dleft *f;	/* NULL: full, floods */
	__u64 seed;
	__u32 q;		/* print bits */
	__u64 mask;		/* slots - 1 */
	__u64 *prints;		/* open addressing; NULL: test the filter */
};

static __u64 dl_print(const struct dl_port *dp, const __u8 *key)
{
	return kb_dleft_print_q(kb_hash(KBLOOM_HASH_FAST, dp->seed, key, 4),
				dp->q);
}

/* Print @v's slot: where it is, or the empty slot it would take. */
static __u64 dl_slot(const struct dl_port *dp, __u64 v)
{
	__u64 i = v & dp->mask;

	while (dp->prints[i] != v && dp->prints[i] != DL_NO_PRINT)
		i = (i + 1) & dp->mask;
	return i;
}

/* The prints of the port's groups, in at most half full slots. */
static int dl_prints(const struct exp_port_ctx *c, struct dl_port *dp,
		     const struct kb_shape *s)
{
	__u64 slots = 16, i, v;

	dp->seed = c->seed;
	dp->q = kb_log2_exact(s->buckets) + s->fp_bits;
	if (dp->q >= 64)
		return 0;	/* no free value: the filter answers */
	while (slots < 2 * c->n)
		slots <<= 1;
	dp->prints = malloc(slots * sizeof(*dp->prints));
	if (!dp->prints)
		return -ENOMEM;
	dp->mask = slots - 1;
	for (i = 0; i < slots; i++)
		dp->prints[i] = DL_NO_PRINT;
	for (i = 0; i < c->n; i++) {
		v = dl_print(dp, c->keys + 4 * i);
		dp->prints[dl_slot(dp, v)] = v;
	}
	return 0;
}

/* The shape for @n keys in @m bits (see above); -ENOSPC if none. */
static int dl_shape(__u64 m, __u64 n, struct kb_shape *s)
{
	__u64 dc = (__u64)DL_TABLES * DL_CELLS, b = 2, r;

	while (4 * n > 3 * dc * b)
		b <<= 1;
	/* more buckets while the remainders stay at their 32-bit maximum */
	while (m / (2 * b * dc) >= KB_DLEFT_REM_MAX + DL_CTR)
		b <<= 1;
	for (; b >= 2; b >>= 1) {
		if (n > dc * b)
			return -ENOSPC;
		r = m / (b * dc);
		r = r > DL_CTR ? r - DL_CTR : 0;
		if (r > KB_DLEFT_REM_MAX)
			r = KB_DLEFT_REM_MAX;
		if (r >= KB_DLEFT_REM_MIN)
			break;
	}
	if (b < 2)
		return -ENOSPC;
	*s = (struct kb_shape){ .type = KBLOOM_TYPE_DLEFT,
				.counter_bits = DL_CTR, .fp_bits = (__u32)r,
				.slots = DL_CELLS, .tables = DL_TABLES,
				.buckets = b };
	return kb_shape_derive(s) ? -ENOSPC : 0;
}

/* The filter of the port's keys, or -ENOSPC (no shape, an overflow). */
static int dl_fill(const struct exp_port_ctx *c, const struct kb_shape *s,
		   struct kbloom_dleft **out)
{
	struct kbloom_dleft_opts o = { .hash_id = KBLOOM_HASH_FAST,
				       .seed = c->seed };
	struct kbloom_dleft *f;
	__u64 i;
	int err;

	err = kbloom_dleft_create_shape(s, &o, &f);
	if (err)
		return err;
	for (i = 0; i < c->n; i++) {
		err = kbloom_dleft_add(f, c->keys + 4 * i, 4);
		if (err < 0) {
			kbloom_dleft_destroy(f);
			return err;
		}
	}
	*out = f;
	return 0;
}

static void dl_destroy(void *port)
{
	struct dl_port *dp = port;

	if (!dp)
		return;
	kbloom_dleft_destroy(dp->f);
	free(dp->prints);
	free(dp);
}

static int dl_test(const void *port, const __u8 *key)
{
	const struct dl_port *dp = port;
	__u64 v;

	if (!dp->f)
		return 1;
	if (!dp->prints)
		return kbloom_dleft_test(dp->f, key, 4) == 1;
	v = dl_print(dp, key);
	return dp->prints[dl_slot(dp, v)] == v;
}

static int dl_build(struct exp_port_ctx *c, void **port)
{
	struct dl_port *dp = calloc(1, sizeof(*dp));
	struct kb_shape s;
	int err;

	if (!dp)
		return -ENOMEM;
	err = dl_shape(c->bits, c->n, &s);
	if (!err)
		err = dl_fill(c, &s, &dp->f);
	if (!err)
		err = dl_prints(c, dp, &s);
	if (err && err != -ENOSPC) {
		dl_destroy(dp);
		return err;
	}
	c->k_sum = DL_TABLES;
	c->k_n = 1;
	c->pred[0] = !dp->f ? 1.0 : kb_dleft_fpr_pico(c->n, s.buckets,
						       s.fp_bits) /
				    (double)KBLOOM_P_UNIT;
	c->probes = exp_port_tests(c) * (dp->f ? DL_TABLES : 0);
	*port = dp;
	return 0;
}


static __u64 dl_bytes(const struct kb_exp *x, __u64 bits)
{
	(void)x;
	return bits / 8;
}

static __u64 dl_step(const struct kb_exp_params *p)
{
	(void)p;
	return 64;
}

const struct exp_scheme_ops exp_scheme_dleft = {
	.name = "dleft",
	.title = "d-left per-port (d=4, c=8)",
	.color = "#17becf",
	.bits_step = dl_step,
	.build = dl_build,
	.test = dl_test,
	.destroy = dl_destroy,
	.bytes = dl_bytes,
};
