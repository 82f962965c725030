/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the scalable Bloom filter (KBLOOM_TYPE_SCALABLE, Almeida,
 * Baquero, Preguica, Hutchison 2007) and the dynamic Bloom filter
 * (KBLOOM_TYPE_DYNAMIC, Guo, Wu, Chen, Luo 2010) as its counting mode,
 * shared by every executor (kbloom.ko, libkbloom, the XDP lookup).
 *
 * Both are a list of generations 0, 1, ..., g - 1, each a filter of its
 * own.  A key is possibly present iff some generation says so; adds go to
 * the newest generation; when the newest one is full, the writer opens the
 * next one.
 *
 * Parameters (struct kb_sbf_params): the first capacity C0, the target
 * rate P, the growth s and the tightening ratio r (in parts per million).
 *
 * Geometry rule, generation i (kb_sbf_gen()):
 *   capacity  C_i = C0 s^i
 *   rate      P_i = P0 r^i, P0 = P (1 - r)   (scalable)
 *             P_i = P                        (dynamic: s = 1, r = 1)
 *   layout    scalable: partitioned (KBLOOM_TYPE_PARTITIONED, k slices,
 *             uapi/kbloom_partitioned.h), as Almeida et al. use slices:
 *             each slice takes exactly one bit per key, so the fill of
 *             every slice, not only the average, is that of the plan;
 *             planned by kb_part_plan(C_i, P_i);
 *             dynamic: counting (KBLOOM_TYPE_COUNTING, m counters of 4 or
 *             8 bits, standard probes, kbloom_layout.h), planned by
 *             kb_plan(KBLOOM_TYPE_COUNTING, C, P): Guo's s equal counting
 *             filters, so a key can be deleted from the one that holds it.
 * A generation whose rate would fall below KBLOOM_P_TARGET_MIN, whose m
 * would exceed KBLOOM_M_MAX, or a generation past KB_SBF_GENS_MAX, cannot
 * be made: the add that needs it fails with -ENOSPC (nothing changed).
 *
 * Compounded rate (scalable): a non-key is a false positive if any
 * generation says so, at most sum_i P0 r^i = P0 / (1 - r) = P.  Dynamic:
 * the survey's equation (26), 1 - (1 - f(C))^floor(N / C) (1 - f(N_last)),
 * f(n) = (1 - e^(-k n / m))^k, which grows with N: no bound.
 *
 * Full rule: generation i is full when its estimated count, not its
 * insert counter, reaches C_i: n_est = -(m/k) ln(1 - X/m) >= C_i with X
 * its set bits (non-zero counters), i.e. X >= kb_sbf_full_ones(m, k, C_i),
 * the smallest such X, computed once per generation.  Executors count X
 * as they set bits (a bit or counter that leaves 0), so the test is one
 * comparison per add.  Duplicates set no new bit, so they never open a
 * generation; a scalable add of a key some generation already reports
 * present changes nothing at all.
 *
 * Dynamic delete: the key is looked up in every generation; absent from
 * all, nothing happens; present in exactly one, its counters there are
 * decremented; present in several, the delete is refused with -ENOTUNIQ
 * and counted (deleting from the wrong one would make a false negative).
 * Merge: two generations whose estimated counts sum to at most C are
 * replaced by their counter-wise (saturating) sum, the older keeping its
 * place; every executor merges after a delete that emptied room.
 *
 * Images: a container (uapi/kbloom_image.h) of type SCALABLE or DYNAMIC,
 * params[] as KB_SBF_PARAM_*, one member per generation in order, each a
 * complete image (partitioned, version 3; counting, version 2) whose
 * capacity and fpr_pico fields are C_i and P_i and whose shape is the
 * rule's; every member has the same hash and seed.  kb_sbf_image_check()
 * checks all of it after kb_container_verify().
 */
#ifndef _UAPI_KBLOOM_VAR_SCALABLE_H
#define _UAPI_KBLOOM_VAR_SCALABLE_H

#include <linux/types.h>
#include <linux/errno.h>
#include "kbloom_base.h"
#include "kbloom_layout.h"
#include "kbloom_plan.h"
#include "kbloom_image.h"
#include "kbloom_partitioned.h"

#define KB_SBF_RATIO_UNIT	1000000U	/* r = 1.0, in ppm */
#define KB_SBF_RATIO_DEFAULT	900000U		/* r = 0.9 */
#define KB_SBF_GROWTH_DEFAULT	2U
#define KB_SBF_GROWTH_MAX	16U
#define KB_SBF_GENS_MAX		64U

/* params[] of the container image */
#define KB_SBF_PARAM_CAPACITY	0	/* C0 */
#define KB_SBF_PARAM_FPR	1	/* P, 1e-12 units */
#define KB_SBF_PARAM_GROWTH	2	/* s */
#define KB_SBF_PARAM_RATIO	3	/* r, ppm */
#define KB_SBF_PARAM_REFUSED	4	/* dynamic: deletes refused, else 0 */
#define KB_SBF_PARAM_MERGES	5	/* dynamic: merges done, else 0 */

/**
 * struct kb_sbf_params - what fixes every generation
 * @type: KBLOOM_TYPE_SCALABLE or KBLOOM_TYPE_DYNAMIC
 * @growth: s, 1..KB_SBF_GROWTH_MAX (scalable); 1 (dynamic)
 * @ratio_ppm: r, 1..KB_SBF_RATIO_UNIT - 1 (scalable); KB_SBF_RATIO_UNIT
 *     (dynamic)
 * @counter_bits: 0 (scalable); 4 or 8 (dynamic)
 * @capacity: C0, >= 1
 * @fpr_pico: P, KBLOOM_P_TARGET_MIN..KBLOOM_P_TARGET_MAX; for scalable
 *     P (1 - r) must be at least KBLOOM_P_TARGET_MIN
 */
struct kb_sbf_params {
	__u32 type;
	__u32 growth;
	__u32 ratio_ppm;
	__u32 counter_bits;
	__u64 capacity;
	__u64 fpr_pico;
};

/**
 * struct kb_sbf_gen - the geometry of one generation
 * @type: KBLOOM_TYPE_PARTITIONED or KBLOOM_TYPE_COUNTING
 * @k: probes (slices)
 * @counter_bits: 0, or the counter width
 * @m: bits or counters
 * @slice: partitioned slice bits, 0 for counting
 * @capacity: C_i
 * @fpr_pico: P_i
 * @full_ones: set bits (non-zero counters) at which it is full
 */
struct kb_sbf_gen {
	__u32 type;
	__u32 k;
	__u32 counter_bits;
	__u32 reserved;
	__u64 m;
	__u64 slice;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 full_ones;
};

static inline int kb_sbf_type(__u32 type)
{
	return type == KBLOOM_TYPE_SCALABLE || type == KBLOOM_TYPE_DYNAMIC;
}

/* P0: the rate of generation 0, in 1e-12 units. */
static inline __u64 kb_sbf_p0(const struct kb_sbf_params *p)
{
	if (p->type == KBLOOM_TYPE_DYNAMIC)
		return p->fpr_pico;
	/* P <= 5e11 and 1 - r <= 1e6: the product fits in 64 bits */
	return p->fpr_pico * (KB_SBF_RATIO_UNIT - p->ratio_ppm) /
	       KB_SBF_RATIO_UNIT;
}

/* Return: 0, or -EINVAL for a field out of its range. */
static inline int kb_sbf_params_check(const struct kb_sbf_params *p)
{
	if (!p->capacity || p->fpr_pico < KBLOOM_P_TARGET_MIN ||
	    p->fpr_pico > KBLOOM_P_TARGET_MAX)
		return -EINVAL;
	if (p->type == KBLOOM_TYPE_DYNAMIC)
		return p->growth == 1 && p->ratio_ppm == KB_SBF_RATIO_UNIT &&
		       (p->counter_bits == KBLOOM_COUNTER_BITS_DEFAULT ||
			p->counter_bits == KBLOOM_COUNTER_BITS_WIDE) ?
		       0 : -EINVAL;
	if (p->type != KBLOOM_TYPE_SCALABLE || p->counter_bits)
		return -EINVAL;
	if (!p->growth || p->growth > KB_SBF_GROWTH_MAX || !p->ratio_ppm ||
	    p->ratio_ppm >= KB_SBF_RATIO_UNIT)
		return -EINVAL;
	return kb_sbf_p0(p) >= KBLOOM_P_TARGET_MIN ? 0 : -EINVAL;
}

/*
 * The smallest number of set bits (non-zero counters) X with
 * kb_n_est(m, k, X) >= @c: bisection, about 64 estimates.
 */
static inline __u64 kb_sbf_full_ones(__u64 m, __u32 k, __u64 c)
{
	__u64 lo = 1, hi = m, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (kb_n_est(m, k, mid) >= c)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* C_i and P_i: 0, or -ENOSPC when generation @i cannot be made. */
static inline int kb_sbf_gen_np(const struct kb_sbf_params *p, __u32 i,
				__u64 *n, __u64 *rate)
{
	__u32 j;

	if (i >= KB_SBF_GENS_MAX)
		return -ENOSPC;
	*n = p->capacity;
	*rate = kb_sbf_p0(p);
	for (j = 0; j < i; j++) {
		if (*n > KBLOOM_M_MAX / p->growth)
			return -ENOSPC;
		*n *= p->growth;
		*rate = *rate * p->ratio_ppm / KB_SBF_RATIO_UNIT;
	}
	return *rate >= KBLOOM_P_TARGET_MIN ? 0 : -ENOSPC;
}

/**
 * kb_sbf_gen() - the geometry of generation @i (the rule above)
 * @p: checked parameters (kb_sbf_params_check())
 * @i: 0..KB_SBF_GENS_MAX - 1
 * @g: out, written only on success
 *
 * Return: 0; -ENOSPC when the generation cannot be made (a rate below
 * KBLOOM_P_TARGET_MIN, m over KBLOOM_M_MAX, @i too large); for generation
 * 0 that is -E2BIG (what CREATE reports for a filter too large).
 */
static inline int kb_sbf_gen(const struct kb_sbf_params *p, __u32 i,
			     struct kb_sbf_gen *g)
{
	struct kb_sbf_gen t = { 0 };
	struct kb_shape s;
	struct kb_plan pl;
	int ret;

	ret = kb_sbf_gen_np(p, i, &t.capacity, &t.fpr_pico);
	if (!ret && p->type == KBLOOM_TYPE_SCALABLE)
		ret = kb_part_plan(t.capacity, t.fpr_pico, &s);
	else if (!ret)
		ret = kb_plan(KBLOOM_TYPE_COUNTING, t.capacity, t.fpr_pico,
			      p->counter_bits, &pl);
	if (ret)
		return i ? -ENOSPC : (ret == -ENOSPC ? -E2BIG : ret);
	if (p->type == KBLOOM_TYPE_SCALABLE) {
		t.type = KBLOOM_TYPE_PARTITIONED;
		t.k = s.k;
		t.m = s.m;
		t.slice = s.buckets;
	} else {
		t.type = KBLOOM_TYPE_COUNTING;
		t.k = pl.k;
		t.m = pl.m;
		t.counter_bits = pl.counter_bits;
	}
	t.full_ones = kb_sbf_full_ones(t.m, t.k, t.capacity);
	*g = t;
	return 0;
}

/* 64-bit words of a generation's array. */
static inline __u64 kb_sbf_gen_words(const struct kb_sbf_gen *g)
{
	return kb_words(g->type, g->m, g->counter_bits);
}

/*
 * Position of probe @i (called for i = 0..k-1 on an iterator started by
 * kb_probe_init(it, h)): a bit (scalable) or a counter (dynamic).
 */
static inline __u64 kb_sbf_pos(const struct kb_sbf_gen *g,
			       struct kb_probe *it, __u32 i)
{
	if (g->type == KBLOOM_TYPE_PARTITIONED)
		return kb_part_next(it, i, g->slice);
	return kb_probe_next(it, g->m);
}

/*
 * The predicted rate of the whole filter in 1e-12 units: the union bound
 * sum_i f_i(n_i) over the generations' rates at their estimated counts,
 * at most KBLOOM_P_UNIT.  @fpr is each generation's, added by the caller
 * through kb_sbf_fpr_add().
 */
static inline __u64 kb_sbf_fpr_add(__u64 sum, __u64 fpr)
{
	return sum + fpr > KBLOOM_P_UNIT ? KBLOOM_P_UNIT : sum + fpr;
}

/* A generation's predicted rate at @n keys (1e-12 units). */
static inline __u64 kb_sbf_gen_fpr(const struct kb_sbf_gen *g, __u64 n)
{
	return kb_plan_fpr_pico(KBLOOM_TYPE_STANDARD, g->m, g->k, n);
}

/*
 * Two words of counters of width @cb added counter by counter; a sum over
 * the maximum, or a saturated counter, gives the maximum (merge).
 */
static inline __u64 kb_sbf_ctr_merge(__u64 a, __u64 b, __u32 cb)
{
	__u64 max = kb_ctr_max(cb), out = 0, x, y;
	__u32 sh;

	for (sh = 0; sh < 64; sh += cb) {
		x = (a >> sh) & max;
		y = (b >> sh) & max;
		x = (x == max || y == max || x + y > max) ? max : x + y;
		out |= x << sh;
	}
	return out;
}

/* The container's parameters: 0 or -EBADMSG. */
static inline int kb_sbf_image_params(const struct kbloom_container_hdr *c,
				      struct kb_sbf_params *p,
				      __u32 counter_bits)
{
	p->type = c->type;
	p->capacity = kb_le64(c->params[KB_SBF_PARAM_CAPACITY]);
	p->fpr_pico = kb_le64(c->params[KB_SBF_PARAM_FPR]);
	if (kb_le64(c->params[KB_SBF_PARAM_GROWTH]) > KB_SBF_GROWTH_MAX ||
	    kb_le64(c->params[KB_SBF_PARAM_RATIO]) > KB_SBF_RATIO_UNIT)
		return -EBADMSG;
	p->growth = (__u32)kb_le64(c->params[KB_SBF_PARAM_GROWTH]);
	p->ratio_ppm = (__u32)kb_le64(c->params[KB_SBF_PARAM_RATIO]);
	p->counter_bits = counter_bits;
	if (kb_sbf_params_check(p))
		return -EBADMSG;
	if (p->type == KBLOOM_TYPE_SCALABLE &&
	    (c->params[KB_SBF_PARAM_REFUSED] || c->params[KB_SBF_PARAM_MERGES]))
		return -EBADMSG;
	if (kb_le32(c->count) > KB_SBF_GENS_MAX)
		return -EBADMSG;
	return 0;
}

/* Member @i's header against the rule: 0 or -EBADMSG. */
static inline int kb_sbf_member_ok(const struct kb_sbf_params *p, __u32 i,
				   const struct kbloom_image_head *hd,
				   __u64 seed)
{
	const struct kbloom_image_hdr *h = &hd->h;
	struct kb_sbf_gen g;

	if (kb_sbf_gen(p, i, &g) || h->type != g.type ||
	    kb_le32(h->k) != g.k || kb_le64(h->m) != g.m ||
	    h->counter_bits != g.counter_bits ||
	    kb_le64(h->seed) != seed || kb_le64(h->capacity) != g.capacity ||
	    kb_le64(h->fpr_pico) != g.fpr_pico)
		return -EBADMSG;
	if (g.type == KBLOOM_TYPE_PARTITIONED &&
	    kb_le64(hd->g.buckets) != g.slice)
		return -EBADMSG;
	return 0;
}

/*
 * kb_sbf_image_check() - a scalable or dynamic container against the rule
 * @buf: the image, 8-byte aligned, that passed kb_container_verify()
 * @total: its length
 * @p: out: its parameters
 *
 * Return: 0; -EOPNOTSUPP for a container of another type; -EBADMSG for
 * parameters out of range, more than KB_SBF_GENS_MAX members, a member
 * whose type, shape, seed, capacity or rate is not its generation's, or a
 * name on a member (a member has its container's name).
 */
static inline int kb_sbf_image_check(const void *buf, __u64 total,
				     struct kb_sbf_params *p)
{
	const struct kbloom_container_hdr *c = buf;
	const struct kbloom_image_head *hd;
	__u64 off = KBLOOM_CONTAINER_HDR_LEN, seed;
	__u32 i;
	int ret;

	if (!kb_sbf_type(c->type))
		return -EOPNOTSUPP;
	hd = (const struct kbloom_image_head *)((const __u8 *)buf + off);
	ret = kb_sbf_image_params(c, p, hd->h.counter_bits);
	if (ret)
		return ret;
	seed = kb_le64(hd->h.seed);
	for (i = 0; i < kb_le32(c->count); i++) {
		hd = (const struct kbloom_image_head *)((const __u8 *)buf +
							 off);
		if (kb_sbf_member_ok(p, i, hd, seed) || hd->h.name[0])
			return -EBADMSG;
		off += kb_le16(hd->h.hdr_len) + kb_le64(hd->h.payload_len);
	}
	return off == total ? 0 : -EBADMSG;
}

/*
 * The map-backed XDP lookup (bpf/kbloom_scalable.h): three BPF arrays,
 *   meta    one struct kb_sbf_map_meta (hash, seed, generations in use)
 *   gens    KB_SBF_GENS_MAX struct kb_sbf_map_gen, row i generation i
 *   words   every generation's words one after the other (__u64 each,
 *           native order), generation i from row i's @word_off
 * so that `bpftool map dump` shows the rule's geometry of each generation
 * by name.  A loader writes the rows and words of the generations first
 * and the count in meta last: a reader sees the old count until the new
 * generations are complete (growth is an append).
 */
struct kb_sbf_map_meta {
	__u32 generations;
	__u32 hash_id;
	__u64 seed;
	__u64 words;		/* words in use in the words map */
};

struct kb_sbf_map_gen {
	struct kb_sbf_gen g;
	__u64 word_off;
};

#endif /* _UAPI_KBLOOM_VAR_SCALABLE_H */
