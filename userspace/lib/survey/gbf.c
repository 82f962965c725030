// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom: the generalized Bloom filter (GBF; uapi/kbloom_var_gbf.h):
 * k1 set and k0 reset probes over m bits of any initial contents.
 */
#include <math.h>
#include <stdlib.h>

#include "survey_array.h"
#include "uapi/kbloom_var_gbf.h"

struct kbloom_gbf {
	struct kb_sarr a;
};

/* The k1 set positions, then the k0 reset positions, into @pos. */
static __u32 kb_gbf_positions(const struct kbloom_gbf *f, const void *key,
			      __u32 len, __u32 *pos)
{
	__u32 i, n = f->a.s.k + f->a.s.tables;
	struct kb_probe p;

	kb_probe_init(&p, kb_sarr_hash(&f->a, key, len));
	for (i = 0; i < n; i++)
		pos[i] = kb_probe_next(&p, f->a.s.m);
	return n;
}

int kbloom_gbf_add(struct kbloom_gbf *f, const void *key, __u32 len)
{
	__u32 pos[KBLOOM_K_MAX], i, n;

	if (!f || !kb_sarr_key_ok(key, len))
		return -EINVAL;
	n = kb_gbf_positions(f, key, len, pos);
	for (i = 0; i < f->a.s.k; i++)	/* set first: a reset position wins */
		kb_sarr_bit_put(&f->a, pos[i], true);
	for (; i < n; i++)
		kb_sarr_bit_put(&f->a, pos[i], false);
	f->a.inserted++;
	return 0;
}

int kbloom_gbf_test(const struct kbloom_gbf *f, const void *key, __u32 len)
{
	__u32 pos[KBLOOM_K_MAX], i, n;

	if (!f || !kb_sarr_key_ok(key, len))
		return -EINVAL;
	n = kb_gbf_positions(f, key, len, pos);
	for (i = 0; i < n; i++) {
		bool set = i < f->a.s.k;	/* a set probe, else a reset one */

		if (kb_sarr_bit(&f->a, pos[i]) != set)
			return 0;
	}
	return 1;
}

void kbloom_gbf_fill_random(struct kbloom_gbf *f, __u64 seed)
{
	__u64 i;

	if (!f)
		return;
	for (i = 0; i < f->a.nwords; i++) {
		seed += KB_PROBE_MUL;
		f->a.words[i] = kb_fmix64(seed);
	}
}

int kbloom_gbf_create(__u64 m, __u32 k1, __u32 k0,
		      const struct kbloom_opts *o, struct kbloom_gbf **fp)
{
	struct kb_shape s;

	if (!fp)
		return -EINVAL;
	kb_gbf_shape_init(&s, m, k1, k0);
	return kb_sarr_new(&s, o, sizeof(**fp), (void **)fp);
}

void kbloom_gbf_destroy(struct kbloom_gbf *f)
{
	if (!f)
		return;
	kb_sarr_fini(&f->a);
	free(f);
}

int kbloom_gbf_stats(const struct kbloom_gbf *f, struct kbloom_gbf_stats *st)
{
	if (!f || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->m = f->a.s.m;
	st->k1 = f->a.s.k;
	st->k0 = f->a.s.tables;
	st->inserted = f->a.inserted;
	st->ones = kb_sarr_ones(&f->a, f->a.s.m);
	return 0;
}

/*
 * One add, seen from one bit (a = 1 - 1/m): reset with probability
 * 1 - a^k0, set with s = a^k0 (1 - a^k1), untouched with u = a^(k0+k1).
 * After j adds a bit that was 1 with probability b is 1 with probability
 *   q(j, b) = b u^j + s (1 - u^j) / (1 - u)
 * (the bit is what the last add that touched it made it).
 */
struct kb_gbf_bit {
	double s;
	double u;
};

static struct kb_gbf_bit kb_gbf_bit_model(__u64 m, __u32 k1, __u32 k0)
{
	double a = 1.0 - 1.0 / (double)m;
	struct kb_gbf_bit b = {
		.s = pow(a, k0) * (1.0 - pow(a, k1)),
		.u = pow(a, k0 + k1),
	};

	return b;
}

static double kb_gbf_q(const struct kb_gbf_bit *bm, double uj, double b)
{
	return b * uj + bm->s * (1.0 - uj) / (1.0 - bm->u);
}

/* A key never added passes with q(n)^k1 (1 - q(n))^k0. */
double kbloom_gbf_fpr(__u64 m, __u32 k1, __u32 k0, __u64 n, double b0)
{
	struct kb_gbf_bit bm;
	double q;

	if (m < 2)
		return 1.0;
	bm = kb_gbf_bit_model(m, k1, k0);
	q = kb_gbf_q(&bm, pow(bm.u, (double)n), b0);
	return pow(q, k1) * pow(1.0 - q, k0);
}

/*
 * The key added j adds before the end passes when none of its set bits
 * collided with its own reset bits ((1 - k0/m)^k1) and, after the j later
 * adds, its set bits are 1 (q(j, 1)) and its reset bits 0 (1 - q(j, 0)).
 * The false-negative rate is 1 minus the mean over j = 0..n-1.
 */
double kbloom_gbf_fnr(__u64 m, __u32 k1, __u32 k0, __u64 n, double b0)
{
	double uj = 1.0, sum = 0.0, self;
	struct kb_gbf_bit bm;
	__u64 j;

	if (m < 2 || !n)
		return 0.0;
	bm = kb_gbf_bit_model(m, k1, k0);
	self = pow(1.0 - (double)k0 / (double)m, k1);
	for (j = 0; j < n; j++) {
		sum += pow(kb_gbf_q(&bm, uj, 1.0), k1) *
		       pow(1.0 - kb_gbf_q(&bm, uj, 0.0), k0);
		uj *= bm.u;
	}
	return 1.0 - self * sum / (double)n;
}

size_t kbloom_gbf_image_size(const struct kbloom_gbf *f)
{
	return f ? kb_sarr_image_size(&f->a) : 0;
}

int kbloom_gbf_save(const struct kbloom_gbf *f, void *buf, size_t buf_len,
		    size_t *image_len)
{
	return f ? kb_sarr_save(&f->a, buf, buf_len, image_len) : -EINVAL;
}

int kbloom_gbf_save_alloc(const struct kbloom_gbf *f, void **buf,
			  size_t *len)
{
	return f && buf ? kb_sarr_save_alloc(&f->a, buf, len) : -EINVAL;
}

int kbloom_gbf_load(const void *buf, size_t len, struct kbloom_gbf **fp)
{
	if (!fp)
		return -EINVAL;
	return kb_sarr_load_new(buf, len, KBLOOM_TYPE_GENERALIZED, sizeof(**fp), (void **)fp);
}
