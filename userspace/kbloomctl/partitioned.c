// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: partitioned Bloom filters of /dev/kbloom (kmod/partitioned.c):
 * create NAME partitioned (capacity N fpr P | hashes K slice-bits S)
 * (module.c's create hands it here) and the partitioned line of stat.
 * add, test, save and restore are the module's commands, unchanged.  The
 * module checks the geometry again; the checks here name the keyword at
 * fault first.
 */
#include <errno.h>
#include <string.h>

#include "kbloomctl.h"
#include "uapi/kbloom_partitioned.h"

#define PT(_n, _a, _t, _m, ...)					\
	KW(_n, _a, _t, struct kbloom_create, _m, __VA_ARGS__)

static const struct kw part_kw[] = {
	PT("capacity", "N", KWT_U64, capacity, .min = 1,
	   .max = KBLOOM_M_MAX, .extra = "keys expected"),
	PT("fpr", "P", KWT_PROB, fpr_pico),
	PT("hashes", "K", KWT_U32, k, .min = KBLOOM_K_MIN,
	   .max = KBLOOM_K_MAX, .extra = "slices, one probe each"),
	PT("slice-bits", "S", KWT_U64, buckets, .min = KBLOOM_M_MIN,
	   .max = KBLOOM_M_MAX, .extra = "a multiple of 64"),
	PT("seed", "S", KWT_U64, seed, .min = 0, .max = ~0ULL,
	   .extra = "decimal or 0x hex"),
	{ 0 }
};

static const struct kw_table part_table = {
	.kw = part_kw,
	.missing_hint = "value (see " KBCTL_NAME " create --help)",
	.any_value = true,
};

static bool pt_has(__u64 given, const char *name)
{
	return kw_has(&part_table, given, name);
}

/* Explicit: k slices of s bits, s a multiple of 64, k s <= 2^32. */
static int pt_check_ks(struct ctl *c, const struct kbloom_create *cr)
{
	struct kb_shape s;

	if (cr->buckets % KB_PART_SLICE_STEP)
		return ctl_usage(c, "slice-bits '%llu': not a multiple of 64 (allowed: a multiple of 64, 64..2^32 / K)",
				 (unsigned long long)cr->buckets);
	if (kb_part_shape_init(&s, cr->k, cr->buckets))
		return ctl_usage(c, "slice-bits %llu: times hashes %u over 2^32 bits",
				 (unsigned long long)cr->buckets, cr->k);
	return 0;
}

/* Planned (capacity N fpr P) or explicit (hashes K slice-bits S). */
static int pt_check(struct ctl *c, struct kbloom_create *cr, __u64 given)
{
	bool cap = pt_has(given, "capacity"), fpr = pt_has(given, "fpr");
	bool k = pt_has(given, "hashes"), sb = pt_has(given, "slice-bits");
	bool planned = cap || fpr;
	struct kb_shape s;
	int ret;

	if (planned == (k || sb))
		return ctl_usage(c, "partitioned size: give capacity N fpr P, or hashes K slice-bits S");
	if (planned && !(cap && fpr))
		return ctl_usage(c, "%s: needs %s too", cap ? "capacity" : "fpr",
				 cap ? "fpr P" : "capacity N");
	if (!planned && !(k && sb))
		return ctl_usage(c, "%s: needs %s too", k ? "hashes" : "slice-bits",
				 k ? "slice-bits S" : "hashes K");
	if (!planned)
		return pt_check_ks(c, cr);
	ret = kb_part_plan(cr->capacity, cr->fpr_pico, &s);
	if (ret)
		return ctl_usage(c, "capacity %llu fpr: %s (allowed: a filter of at most 2^32 bits; lower the capacity or raise fpr)",
				 (unsigned long long)cr->capacity,
				 ret == -E2BIG ? "too big" : "cannot be planned");
	return 0;
}

/* create NAME partitioned ...: argv[0] is NAME (checked), argv[1] the type. */
int partitioned_create(struct ctl *c, int argc, char **argv)
{
	struct kbloom_create cr = { .type = KBLOOM_TYPE_PARTITIONED };
	__u64 given;
	int ret;

	memcpy(cr.name, argv[0], strlen(argv[0]));
	ret = kw_parse(c, &part_table, argc - 2, argv + 2, &cr, &given);
	if (ret)
		return ret;
	ret = pt_check(c, &cr, given);
	if (ret)
		return ret;
	return create_send(c, &cr, pt_has(given, "seed"));
}

/* The partitioned line of stat: the slices. */
void partitioned_stat_text(const struct kbloom_stat *st)
{
	printf("partitioned:  %u slices of %llu bits\n", st->k,
	       (unsigned long long)st->buckets);
}
