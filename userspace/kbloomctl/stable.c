// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: stable Bloom filters of /dev/kbloom (kmod/stable.c):
 * create NAME stable cells M [hashes K] [cell-bits 1|2|4|8]
 * (decrement P | fpr P) [seed S] (module.c's create hands it here), the
 * stable line of stat (P, Max, the share of zero cells now and at the
 * stable point) and the stable row of plan.  add, test, save and restore
 * are the module's commands, unchanged.  The module checks the geometry
 * again; the checks here name the keyword at fault first.
 */
#include <errno.h>
#include <string.h>

#include "kbloomctl.h"
#include "uapi/kbloom_plan.h"
#include "uapi/kbloom_var_stable.h"

static const char *const st_cell_words[] = { "1", "2", "4", "8", NULL };
static const __u32 st_cell_ids[] = { 1, 2, 4, 8 };

#define ST(_n, _a, _t, _m, ...)					\
	KW(_n, _a, _t, struct kbloom_create, _m, __VA_ARGS__)

static const struct kw stable_kw[] = {
	ST("cells", "M", KWT_U64, m, .min = KBLOOM_M_MIN,
	   .max = KBLOOM_M_MAX, .extra = "a multiple of 64"),
	ST("hashes", "K", KWT_U32, k, .min = KBLOOM_K_MIN,
	   .max = KBLOOM_K_MAX, .extra = "cells set per key"),
	ST("cell-bits", "1|2|4|8", KWT_ENUM, counter_bits,
	   .words = st_cell_words, .vals = st_cell_ids),
	ST("decrement", "P", KWT_U64, buckets, .min = 1,
	   .max = KB_STABLE_P_MAX, .extra = "cells decremented per insert"),
	ST("fpr", "P", KWT_PROB, fpr_pico),
	ST("seed", "S", KWT_U64, seed, .min = 0, .max = ~0ULL,
	   .extra = "decimal or 0x hex"),
	{ 0 }
};

static const struct kw_table stable_table = {
	.kw = stable_kw,
	.missing_hint = "value (see " KBCTL_NAME " create --help)",
	.any_value = true,
};

static bool st_has(__u64 given, const char *name)
{
	return kw_has(&stable_table, given, name);
}

/* cells M, and exactly one of decrement P and fpr P. */
static int st_check(struct ctl *c, struct kbloom_create *cr, __u64 given)
{
	bool dec = st_has(given, "decrement"), fpr = st_has(given, "fpr");
	struct kb_shape s;
	int ret;

	if (!st_has(given, "cells"))
		return ctl_usage(c, "stable: missing cells M (allowed: cells M [hashes K] [cell-bits 1|2|4|8] (decrement P | fpr P))");
	if (dec == fpr)
		return ctl_usage(c, "stable: give decrement P or fpr P (the stable point's rate), not %s",
				 dec ? "both" : "neither");
	if (cr->m % 64)
		return ctl_usage(c, "cells '%llu': not a multiple of 64 (allowed: a multiple of 64, 64..2^32)",
				 (unsigned long long)cr->m);
	if (dec && cr->buckets > cr->m)
		return ctl_usage(c, "decrement %llu: more than cells %llu (allowed: 1..min(cells, %u))",
				 (unsigned long long)cr->buckets,
				 (unsigned long long)cr->m, KB_STABLE_P_MAX);
	if (dec)
		return 0;
	kb_stable_shape_init(&s, cr->m, cr->k, cr->counter_bits, 1);
	ret = kb_stable_plan(cr->fpr_pico, &s);
	if (ret)
		return ctl_usage(c, "fpr: no decrement up to %u reaches it with hashes %u and cell-bits %u (allowed: a higher fpr, or more hashes)",
				 KB_STABLE_P_MAX, cr->k, cr->counter_bits);
	return 0;
}

/* create NAME stable ...: argv[0] is NAME (checked), argv[1] the type. */
int stable_create(struct ctl *c, int argc, char **argv)
{
	struct kbloom_create cr = {
		.type = KBLOOM_TYPE_STABLE, .k = KB_STABLE_K_DEFAULT,
		.counter_bits = 1,
	};
	__u64 given;
	int ret;

	memcpy(cr.name, argv[0], strlen(argv[0]));
	ret = kw_parse(c, &stable_table, argc - 2, argv + 2, &cr, &given);
	if (ret)
		return ret;
	ret = st_check(c, &cr, given);
	if (ret)
		return ret;
	return create_send(c, &cr, st_has(given, "seed"));
}

/* The stable line of stat: the decay and where it settles. */
void stable_stat_text(const struct kbloom_stat *st)
{
	struct kb_shape s;
	char fps[32];

	if (kb_stable_shape_init(&s, st->m, st->k, st->counter_bits,
				 (__u32)st->buckets))
		return;
	fmt_prob(fps, sizeof(fps), kb_stable_fps_pico(&s));
	printf("stable:       decrement %llu, Max %llu (%u-bit cells); zero cells %.2f%% (stable point %.2f%%, fpr there %s)\n",
	       (unsigned long long)st->buckets,
	       (unsigned long long)kb_stable_max(st->counter_bits),
	       st->counter_bits, 100.0 - st->occupancy_ppm / 1e4,
	       kb_stable_zero_ppm(&s) / 1e4, fps);
}

/*
 * The stable row of plan: as many 1-bit cells as the standard filter's
 * bits, k = 3, the least P whose stable point meets the rate.  It has no
 * capacity: the rate holds over any stream, and old keys are forgotten.
 */
int plan_stable_row(__u64 n, __u64 p, struct kb_plan *plan)
{
	struct kb_shape s;
	int ret;

	ret = kb_plan(KBLOOM_TYPE_STANDARD, n, p, 0, plan);
	if (ret)
		return ret;
	kb_stable_shape_init(&s, plan->m, KB_STABLE_K_DEFAULT, 1, 1);
	ret = kb_stable_plan(p, &s);
	if (ret)
		return ret;
	plan->k = s.k;
	plan->bytes = kb_shape_words(&s) * 8;
	plan->fpr_pico = kb_stable_fps_pico(&s);
	return 0;
}
