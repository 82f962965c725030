// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: scalable and dynamic Bloom filters of /dev/kbloom
 * (kmod/scalable.c):
 *   create NAME scalable fpr P [capacity N] [growth S] [ratio R] [seed S]
 *   create NAME dynamic fpr P [capacity N] [counter-bits 4|8] [seed S]
 * (module.c's create hands them here) and their generations in stat, read
 * from the module's image with libkbloom_scalable.h.  add, test, del,
 * save and restore are the module's commands, unchanged.  The module
 * checks the parameters again; the checks here name the keyword at fault.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbloomctl.h"
#include "libkbloom_dev.h"
#include "libkbloom_scalable.h"

/* A first capacity when none is given: the filter grows anyway. */
#define SC_CAPACITY_DEFAULT	1024ULL

/* ratio R: a decimal in (0, 1), kept in parts per million. */
static int kw_ratio(const struct ctl *c, const struct kw *k, const char *v,
		    void *field)
{
	char *end;
	double r;

	errno = 0;
	r = strtod(v, &end);
	if (errno || end == v || *end || !(r >= 1e-6 && r <= 0.999999))
		return ctl_usage(c, "ratio '%s': not a tightening ratio (allowed: 0.000001..0.999999, e.g. 0.9)",
				 v);
	*(__u64 *)field = (__u64)(r * KB_SBF_RATIO_UNIT + 0.5);
	return 0;
}

static int kw_cbits(const struct ctl *c, const struct kw *k, const char *v,
		    void *field)
{
	if (strcmp(v, "4") && strcmp(v, "8"))
		return ctl_usage(c, "counter-bits '%s': not a counter width (allowed: 4 or 8)",
				 v);
	*(__u32 *)field = (__u32)atoi(v);
	return 0;
}

#define SC(_n, _a, _t, _m, ...)					\
	KW(_n, _a, _t, struct kbloom_create, _m, __VA_ARGS__)

#define SC_COMMON							\
	SC("capacity", "N", KWT_U64, capacity, .min = 1,		\
	   .max = KBLOOM_M_MAX, .extra = "keys of the first generation"), \
	SC("fpr", "P", KWT_PROB, fpr_pico, .required = true),		\
	SC("seed", "S", KWT_U64, seed, .min = 0, .max = ~0ULL,		\
	   .extra = "decimal or 0x hex")

static const struct kw scalable_kw[] = {
	SC_COMMON,
	SC("growth", "S", KWT_U32, tables, .min = 1,
	   .max = KB_SBF_GROWTH_MAX, .extra = "size factor per generation"),
	SC("ratio", "R", KWT_FN, buckets, .parse = kw_ratio),
	SC("counter-bits", "W", KWT_REFUSE, counter_bits,
	   .extra = "a scalable filter has no counters; create NAME dynamic"),
	{ 0 }
};

static const struct kw dynamic_kw[] = {
	SC_COMMON,
	SC("counter-bits", "4|8", KWT_FN, counter_bits, .parse = kw_cbits),
	SC("growth", "S", KWT_REFUSE, tables,
	   .extra = "dynamic generations are all of one size; create NAME scalable"),
	SC("ratio", "R", KWT_REFUSE, buckets,
	   .extra = "dynamic generations all have the rate P; create NAME scalable"),
	{ 0 }
};

static const struct kw_table scalable_table = {
	.kw = scalable_kw,
	.missing_hint = "value (see " KBCTL_NAME " create --help)",
	.any_value = true,
};

static const struct kw_table dynamic_table = {
	.kw = dynamic_kw,
	.missing_hint = "value (see " KBCTL_NAME " create --help)",
	.any_value = true,
};

/* The rule's own limits, each named by its keyword. */
static int sc_check(struct ctl *c, const struct kbloom_create *cr)
{
	bool dyn = cr->type == KBLOOM_TYPE_DYNAMIC;
	struct kb_sbf_params p = {
		.type = cr->type, .capacity = cr->capacity,
		.fpr_pico = cr->fpr_pico,
		.growth = cr->tables ? cr->tables :
			  (dyn ? 1 : KB_SBF_GROWTH_DEFAULT),
		.ratio_ppm = cr->buckets ? (__u32)cr->buckets :
			     (dyn ? KB_SBF_RATIO_UNIT : KB_SBF_RATIO_DEFAULT),
		.counter_bits = dyn && !cr->counter_bits ?
				KBLOOM_COUNTER_BITS_DEFAULT : cr->counter_bits,
	};
	struct kb_sbf_gen g;

	if (kb_sbf_params_check(&p))
		return ctl_usage(c, "ratio %.6f: fpr times (1 - ratio) is below 1e-9 (allowed: a larger fpr or a smaller ratio)",
				 p.ratio_ppm / (double)KB_SBF_RATIO_UNIT);
	if (kb_sbf_gen(&p, 0, &g))
		return ctl_usage(c, "capacity %llu fpr: the first generation is too big (allowed: at most 2^32 bits; lower the capacity)",
				 (unsigned long long)p.capacity);
	return 0;
}

/* create NAME scalable|dynamic ...: argv[0] NAME (checked), argv[1] the type. */
int scalable_create(struct ctl *c, int argc, char **argv)
{
	bool dyn = !strcmp(argv[1], "dynamic");
	const struct kw_table *t = dyn ? &dynamic_table : &scalable_table;
	struct kbloom_create cr = {
		.type = dyn ? KBLOOM_TYPE_DYNAMIC : KBLOOM_TYPE_SCALABLE,
	};
	__u64 given;
	int ret;

	memcpy(cr.name, argv[0], strlen(argv[0]));
	ret = kw_parse(c, t, argc - 2, argv + 2, &cr, &given);
	if (ret)
		return ret;
	if (!cr.capacity)
		cr.capacity = SC_CAPACITY_DEFAULT;
	ret = sc_check(c, &cr);
	if (ret)
		return ret;
	return create_send(c, &cr, kw_has(t, given, "seed"));
}

/*
 * plan: N keys in a filter of the rule's generations, scalable from a first
 * capacity of N / 1023 (growth 2, ratio 0.9: N keys fill ten generations),
 * dynamic in four generations of N / 4: m and bytes of the generations it opens, the newest one's k,
 * and the union bound of their rates at their keys.
 */
int scalable_plan(__u32 type, __u64 n, __u64 p, struct kb_plan *out)
{
	bool dyn = type == KBLOOM_TYPE_DYNAMIC;
	struct kb_sbf_params pa = {
		.type = type, .fpr_pico = p,
		.growth = dyn ? 1 : KB_SBF_GROWTH_DEFAULT,
		.ratio_ppm = dyn ? KB_SBF_RATIO_UNIT : KB_SBF_RATIO_DEFAULT,
		.counter_bits = dyn ? KBLOOM_COUNTER_BITS_DEFAULT : 0,
		.capacity = dyn ? (n + 3) / 4 : (n + 1022) / 1023,
	};
	struct kb_sbf_gen g;
	__u64 left = n, in;
	__u32 i;
	int ret;

	if (kb_sbf_params_check(&pa))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	for (i = 0; left; i++) {
		ret = kb_sbf_gen(&pa, i, &g);
		if (ret)
			return -E2BIG;
		in = left < g.capacity ? left : g.capacity;
		left -= in;
		out->m += g.m;
		out->k = g.k;
		out->counter_bits = g.counter_bits;
		out->bytes += kb_sbf_gen_words(&g) * 8;
		out->fpr_pico = kb_sbf_fpr_add(out->fpr_pico,
					       kb_sbf_gen_fpr(&g, in));
	}
	return 0;
}

/* Row @i of stat's generations; false past the last. */
static bool sc_gen_row(const struct kbloom_sbf *f, __u32 i)
{
	struct kbloom_sbf_gen_stats gs;
	char a[48], b[48];

	if (kbloom_sbf_gen_stats(f, i, &gs))
		return false;
	fmt_prob(a, sizeof(a), gs.fpr_now_pico);
	fmt_prob(b, sizeof(b), gs.g.fpr_pico);
	printf("  %3u  %12llu %4u %5.1f%%  %12llu %12llu  %-9s %s\n", i,
	       (unsigned long long)gs.g.m, gs.g.k,
	       100.0 * gs.ones / gs.g.full_ones,
	       (unsigned long long)gs.n_est,
	       (unsigned long long)gs.g.capacity, a, b);
	return true;
}

/*
 * The scalable or dynamic lines of stat: the parameters, then one row per
 * generation (size, fill towards its full rule, estimated keys, rate),
 * from the module's image.
 */
void scalable_stat_text(struct ctl *c, const char *name,
			const struct kbloom_stat *st)
{
	struct kbloom_sbf *f = NULL;
	void *img = NULL;
	size_t len;
	__u32 i;

	if (st->type == KBLOOM_TYPE_SCALABLE)
		printf("scalable:     growth %u, ratio %.6g, %u generations\n",
		       st->tables, st->buckets / (double)KB_SBF_RATIO_UNIT,
		       st->slots);
	else
		printf("dynamic:      %u generations, %llu deletes refused (several matched)\n",
		       st->slots, (unsigned long long)st->kicks);
	if (kbloom_dev_save_alloc(c->dev_fd, name, &img, &len) ||
	    kbloom_sbf_load(img, len, &f)) {
		printf("generations:  (the image could not be read)\n");
		goto out_free;
	}
	printf("  gen             m    k  fill    est. keys     capacity  fpr now   target\n");
	for (i = 0; sc_gen_row(f, i); i++)
		;
out_free:
	kbloom_sbf_destroy(f);
	free(img);
}
