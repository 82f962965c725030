// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: deletable Bloom filters of /dev/kbloom (kmod/deletable.c):
 * create NAME deletable (capacity N fpr P | bits M hashes K)
 * [region-bits S] [seed S] (module.c's create hands it here), the
 * deletable row of plan and the deletable line of stat.  add, test, del,
 * save and restore are the module's commands; a del of a key that is not
 * deletable is refused (module.c says so).  The module checks the
 * geometry again; the checks here name the keyword at fault first.
 */
#include <errno.h>
#include <string.h>

#include "kbloomctl.h"
#include "libkbloom_deletable.h"
#include "uapi/kbloom_var_deletable.h"

#define DL(_n, _a, _t, _m, ...)					\
	KW(_n, _a, _t, struct kbloom_create, _m, __VA_ARGS__)

static const struct kw del_kw[] = {
	DL("capacity", "N", KWT_U64, capacity, .min = 1,
	   .max = KBLOOM_M_MAX, .extra = "keys expected"),
	DL("fpr", "P", KWT_PROB, fpr_pico),
	DL("bits", "M", KWT_U64, m, .min = KBLOOM_M_MIN, .max = KBLOOM_M_MAX,
	   .extra = "a multiple of 64 and of the region bits"),
	DL("hashes", "K", KWT_U32, k, .min = KBLOOM_K_MIN, .max = KBLOOM_K_MAX),
	DL("region-bits", "S", KWT_U64, buckets, .min = 1,
	   .max = KB_DEL_REGION_MAX, .extra = "a power of two; 4 by default"),
	DL("seed", "S", KWT_U64, seed, .min = 0, .max = ~0ULL,
	   .extra = "decimal or 0x hex"),
	{ 0 }
};

static const struct kw_table del_table = {
	.kw = del_kw,
	.missing_hint = "value (see " KBCTL_NAME " create --help)",
	.any_value = true,
};

static bool dl_has(__u64 given, const char *name)
{
	return kw_has(&del_table, given, name);
}

/* Explicit (bits M hashes K): M a multiple of 64 and of the regions. */
static int dl_check_mk(struct ctl *c, const struct kbloom_create *cr)
{
	struct kb_shape s;

	if (cr->m % 64)
		return ctl_usage(c, "bits '%llu': not a multiple of 64 (allowed: a multiple of 64, 64..2^32)",
				 (unsigned long long)cr->m);
	if (kb_del_shape_init(&s, cr->k, cr->m, cr->buckets))
		return ctl_usage(c, "bits %llu: not a multiple of region-bits %llu (allowed: region-bits a power of two up to bits M)",
				 (unsigned long long)cr->m,
				 (unsigned long long)cr->buckets);
	return 0;
}

/* Planned (capacity N fpr P) or explicit (bits M hashes K). */
static int dl_check(struct ctl *c, struct kbloom_create *cr, __u64 given)
{
	bool cap = dl_has(given, "capacity"), fpr = dl_has(given, "fpr");
	bool m = dl_has(given, "bits"), k = dl_has(given, "hashes");
	bool planned = cap || fpr;
	struct kb_shape s;
	int ret;

	if (!cr->buckets)
		cr->buckets = KB_DEL_REGION_DEFAULT;
	if (!kb_pow2(cr->buckets))
		return ctl_usage(c, "region-bits '%llu': not a power of two (allowed: 1, 2, 4, ..., 65536)",
				 (unsigned long long)cr->buckets);
	if (planned == (m || k))
		return ctl_usage(c, "deletable size: give capacity N fpr P, or bits M hashes K");
	if (planned && !(cap && fpr))
		return ctl_usage(c, "%s: needs %s too", cap ? "capacity" : "fpr",
				 cap ? "fpr P" : "capacity N");
	if (!planned && !(m && k))
		return ctl_usage(c, "%s: needs %s too", m ? "bits" : "hashes",
				 m ? "hashes K" : "bits M");
	if (!planned)
		return dl_check_mk(c, cr);
	ret = kb_del_plan(cr->capacity, cr->fpr_pico, cr->buckets, &s);
	if (ret)
		return ctl_usage(c, "capacity %llu fpr: %s (allowed: a filter of at most 2^32 bits; lower the capacity or raise fpr)",
				 (unsigned long long)cr->capacity,
				 ret == -E2BIG ? "too big" : "cannot be planned");
	return 0;
}

/* create NAME deletable ...: argv[0] is NAME (checked), argv[1] the type. */
int deletable_create(struct ctl *c, int argc, char **argv)
{
	struct kbloom_create cr = { .type = KBLOOM_TYPE_DELETABLE };
	__u64 given;
	int ret;

	memcpy(cr.name, argv[0], strlen(argv[0]));
	ret = kw_parse(c, &del_table, argc - 2, argv + 2, &cr, &given);
	if (ret)
		return ret;
	ret = dl_check(c, &cr, given);
	if (ret)
		return ret;
	return create_send(c, &cr, dl_has(given, "seed"));
}

/*
 * The deletable plan row: the standard k and m, m rounded to regions of
 * the default 4 bits; the memory counts the collision bitmap.
 */
int deletable_plan(__u64 n, __u64 p, struct kb_plan *out)
{
	struct kb_shape s;
	int ret = kb_del_plan(n, p, 0, &s);

	if (ret)
		return ret;
	out->m = s.m;
	out->k = s.k;
	out->bytes = kb_shape_words(&s) * 8;
	out->fpr_pico = kb_del_fpr_pico(s.m, s.k, n);
	return 0;
}

/* The deletable line of stat: regions, refusals, the predicted share. */
void deletable_stat_text(const struct kbloom_stat *st)
{
	double exact = 0;

	kbloom_del_predict(st->m, st->k, st->buckets, st->inserted, NULL,
			   &exact);
	printf("deletable:    %llu regions of %llu bits; %llu deletes refused; deletable now ~%.1f%% of the keys\n",
	       (unsigned long long)(st->m / st->buckets),
	       (unsigned long long)st->buckets,
	       (unsigned long long)st->kicks, 100.0 * exact);
}
