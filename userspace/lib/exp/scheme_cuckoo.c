// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the cuckoo per-port scheme (libkbloom_cuckoo.h).
 *
 * Port p holds a cuckoo filter (Fan et al. 2014) of b = 4 slots per
 * bucket and f-bit fingerprints in its M bits: B = floor(M / (4 f))
 * buckets, seeded per port.  For the port's n groups f is the largest in
 * [4, 32] that keeps the load n / (4 B) at or below 0.95 (the paper's
 * load for b = 4): the rate p = 1 - (1 - 2^-f)^(2 n / B)
 * (kb_cuckoo_fpr_pico()) falls with f faster than fewer buckets raise it.
 * When an insert still finds no room (no relocation path in 500 kicks)
 * the port is rebuilt with f - 1.  A port whose groups do not fit even at
 * f = 4 cannot hold its set: it answers "present" for every group (the
 * switch floods that port: no false negative, maximal leakage; predicted
 * rate 1).  A test reads 2 buckets.  Memory: M / 8 bytes.
 */
#include <errno.h>
#include <stdlib.h>

#include "scheme.h"
#include "libkbloom_cuckoo.h"

#define CK_SLOTS	4U
#define CK_LOAD		0.95

struct ck_port {
	struct kbloom_cuckoo *f;	/* NULL: full, floods */
	__u32 fp_bits;
};

/* The largest f whose buckets hold @n at load CK_LOAD; 0 if none. */
static __u32 ck_fp_bits(__u64 m, __u64 n)
{
	__u32 f;

	for (f = KB_CUCKOO_FP_MAX; f >= KB_CUCKOO_FP_MIN; f--)
		if (m / (CK_SLOTS * f) >= 2 &&
		    n <= CK_LOAD * CK_SLOTS * (double)(m / (CK_SLOTS * f)))
			return f;
	return 0;
}

/* A filter of f-bit fingerprints holding the @n keys, or -ENOSPC. */
static int ck_fill(const struct exp_port_ctx *c, __u32 f,
		   struct kbloom_cuckoo **out)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_FAST, .seed = c->seed };
	struct kbloom_cuckoo *ck;
	__u64 i;
	int err;

	err = kbloom_cuckoo_create_shape(f, CK_SLOTS, c->bits / (CK_SLOTS * f),
					 &o, &ck);
	if (err)
		return err;
	for (i = 0; i < c->n; i++) {
		err = kbloom_cuckoo_add(ck, c->keys + 4 * i, 4);
		if (err) {
			kbloom_cuckoo_destroy(ck);
			return err;
		}
	}
	*out = ck;
	return 0;
}

static int ck_build(struct exp_port_ctx *c, void **port)
{
	struct ck_port *cp = calloc(1, sizeof(*cp));
	__u32 f;
	int err = -ENOSPC;

	if (!cp)
		return -ENOMEM;
	for (f = ck_fp_bits(c->bits, c->n); f >= KB_CUCKOO_FP_MIN; f--) {
		err = ck_fill(c, f, &cp->f);
		if (err != -ENOSPC)
			break;
	}
	if (err && err != -ENOSPC) {
		free(cp);
		return err;
	}
	cp->fp_bits = cp->f ? f : 0;
	c->k_sum = 2;
	c->k_n = 1;
	c->pred[0] = !cp->f ? 1.0 : c->n ?
		     kb_cuckoo_fpr_pico(f, c->bits / (CK_SLOTS * f), c->n) /
		     (double)KBLOOM_P_UNIT : 0.0;
	c->probes = exp_port_tests(c) * (cp->f ? 2 : 0);
	*port = cp;
	return 0;
}

static int ck_test(const void *port, const __u8 *key)
{
	const struct ck_port *cp = port;

	return !cp->f || kbloom_cuckoo_test(cp->f, key, 4) == 1;
}

static void ck_destroy(void *port)
{
	struct ck_port *cp = port;

	if (!cp)
		return;
	kbloom_cuckoo_destroy(cp->f);
	free(cp);
}

static __u64 ck_bytes(const struct kb_exp *x, __u64 bits)
{
	(void)x;
	return bits / 8;
}

static __u64 ck_step(const struct kb_exp_params *p)
{
	(void)p;
	return 64;
}

const struct exp_scheme_ops exp_scheme_cuckoo = {
	.name = "cuckoo",
	.title = "cuckoo per-port (b=4)",
	.color = "#bcbd22",
	.bits_step = ck_step,
	.build = ck_build,
	.test = ck_test,
	.destroy = ck_destroy,
	.bytes = ck_bytes,
};
