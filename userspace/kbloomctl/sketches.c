// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: create NAME dleft ... and create NAME countmin ... (module.c's
 * create hands them here), and their lines of stat.  The module plans and
 * checks the geometry again (kmod/dleft.c, kmod/countmin.c); the checks
 * here name the keyword at fault first.
 *
 *   dleft    capacity N fpr P [tables D] [slots C] [counter-bits W]
 *            | fp-bits R slots C tables D buckets B counter-bits W,
 *            [layout spread|lines] (KB_DLEFT_LAYOUT_*, CREATE's update)
 *   countmin epsilon E [delta X | rows D] [counter-bits 16|32]
 *            [update all|min-inc] | rows D width W [...]
 */
#include <errno.h>
#include <string.h>

#include "kbloomctl.h"
#include "uapi/kbloom_variants.h"

/* --- d-left -------------------------------------------------------------- */

const char *const dl_counter_words[] = { "2", "4", "8", NULL };
const __u32 dl_counter_ids[] = { 2, 4, 8 };
const char *const dl_layout_words[] = { "spread", "lines", NULL };
const __u32 dl_layout_ids[] = { KB_DLEFT_LAYOUT_SPREAD, KB_DLEFT_LAYOUT_LINES };

/* The keyword of d-left layout @update. */
const char *dl_layout_name(__u32 update)
{
	return update == KB_DLEFT_LAYOUT_LINES ? "lines" :
	       update == KB_DLEFT_LAYOUT_SPREAD ? "spread" : "unknown";
}

#define CR(_n, _a, _t, _m, ...)					\
	KW(_n, _a, _t, struct kbloom_create, _m, __VA_ARGS__)

static const struct kw dleft_kw[] = {
	CR("capacity", "N", KWT_U64, capacity, .min = 1,
	   .max = KBLOOM_M_MAX, .extra = "keys expected"),
	CR("fpr", "P", KWT_PROB, fpr_pico),
	CR("tables", "D", KWT_U32, tables, .min = KB_DLEFT_TABLES_MIN,
	   .max = KB_DLEFT_TABLES_MAX, .extra = "subtables"),
	CR("slots", "C", KWT_U32, slots, .min = 1, .max = KB_DLEFT_CELLS_MAX,
	   .extra = "cells per bucket"),
	CR("buckets", "B", KWT_U64, buckets, .min = 2,
	   .max = 1ULL << 31, .extra = "a power of two, per subtable"),
	CR("fp-bits", "R", KWT_U32, fp_bits, .min = KB_DLEFT_REM_MIN,
	   .max = KB_DLEFT_REM_MAX, .extra = "remainder bits"),
	CR("counter-bits", "2|4|8", KWT_ENUM, counter_bits,
	   .words = dl_counter_words, .vals = dl_counter_ids),
	CR("seed", "S", KWT_U64, seed, .min = 0, .max = ~0ULL,
	   .extra = "decimal or 0x hex"),
	CR("layout", "spread|lines", KWT_ENUM, update,
	   .words = dl_layout_words, .vals = dl_layout_ids),
	{ 0 }
};

static const struct kw_table dleft_table = {
	.kw = dleft_kw,
	.missing_hint = "value (see " KBCTL_NAME " create --help)",
	.any_value = true,
};

static bool dl_has(__u64 given, const char *name)
{
	return kw_has(&dleft_table, given, name);
}

static int dl_check(struct ctl *c, struct kbloom_create *cr, __u64 given)
{
	bool cap = dl_has(given, "capacity"), fpr = dl_has(given, "fpr");
	bool planned = cap || fpr;
	struct kb_shape s = { .type = KBLOOM_TYPE_DLEFT,
			      .counter_bits = cr->counter_bits,
			      .fp_bits = cr->fp_bits, .slots = cr->slots,
			      .tables = cr->tables, .update = cr->update,
			      .buckets = cr->buckets };

	if (planned && (dl_has(given, "buckets") || dl_has(given, "fp-bits")))
		return ctl_usage(c, "%s: not with capacity N fpr P (the planner picks it)",
				 dl_has(given, "buckets") ? "buckets" : "fp-bits");
	if (planned && !(cap && fpr))
		return ctl_usage(c, "%s: needs %s too", cap ? "capacity" : "fpr",
				 cap ? "fpr P" : "capacity N");
	if (planned)
		return kb_dleft_plan(cr->capacity, cr->fpr_pico, &s) ?
		       ctl_usage(c, "capacity %llu fpr: cannot be planned (allowed: at most 2^32 cells, fpr reachable with 32 remainder bits)",
				 (unsigned long long)cr->capacity) : 0;
	if (!(dl_has(given, "fp-bits") && dl_has(given, "slots") &&
	      dl_has(given, "tables") && dl_has(given, "buckets") &&
	      dl_has(given, "counter-bits")))
		return ctl_usage(c, "d-left size: give capacity N fpr P, or fp-bits R slots C tables D buckets B counter-bits W");
	if (!kb_pow2(cr->buckets))
		return ctl_usage(c, "buckets '%llu': not a power of two",
				 (unsigned long long)cr->buckets);
	return kb_shape_derive(&s) ?
	       ctl_usage(c, "buckets %llu: times tables and slots over 2^32 cells",
			 (unsigned long long)cr->buckets) : 0;
}

int dleft_create(struct ctl *c, int argc, char **argv)
{
	struct kbloom_create cr = { .type = KBLOOM_TYPE_DLEFT };
	__u64 given;
	int ret;

	memcpy(cr.name, argv[0], strlen(argv[0]));
	ret = kw_parse(c, &dleft_table, argc - 2, argv + 2, &cr, &given);
	if (ret)
		return ret;
	ret = dl_check(c, &cr, given);
	if (ret)
		return ret;
	return create_send(c, &cr, dl_has(given, "seed"));
}

/* --- Count-Min ------------------------------------------------------------- */

/* What the keywords fill: delta has no field of its own in CREATE. */
struct cm_args {
	struct kbloom_create cr;
	__u64 delta;
};

const char *const cm_counter_words[] = { "16", "32", NULL };
const __u32 cm_counter_ids[] = { 16, 32 };
const char *const cm_update_words[] = { "all", "min-inc", NULL };
const __u32 cm_update_ids[] = { KB_CM_ALL, KB_CM_MIN_INC };

#define CM(_n, _a, _t, _m, ...)					\
	KW(_n, _a, _t, struct cm_args, _m, __VA_ARGS__)

static const struct kw countmin_kw[] = {
	CM("epsilon", "E", KWT_PROB, cr.fpr_pico),
	CM("delta", "X", KWT_PROB, delta),
	CM("rows", "D", KWT_U32, cr.tables, .min = 1, .max = KB_CM_ROWS_MAX),
	CM("width", "W", KWT_U64, cr.buckets, .min = KB_CM_WIDTH_MIN,
	   .max = KBLOOM_M_MAX, .extra = "counters per row"),
	CM("counter-bits", "16|32", KWT_ENUM, cr.counter_bits,
	   .words = cm_counter_words, .vals = cm_counter_ids),
	CM("update", "all|min-inc", KWT_ENUM, cr.update,
	   .words = cm_update_words, .vals = cm_update_ids),
	CM("seed", "S", KWT_U64, cr.seed, .min = 0, .max = ~0ULL,
	   .extra = "decimal or 0x hex"),
	{ 0 }
};

static const struct kw_table countmin_table = {
	.kw = countmin_kw,
	.missing_hint = "value (see " KBCTL_NAME " create --help)",
	.any_value = true,
};

static bool cm_has(__u64 given, const char *name)
{
	return kw_has(&countmin_table, given, name);
}

/* epsilon E (width planned) or width W; delta X (rows planned) or rows D. */
static int cm_check(struct ctl *c, struct cm_args *a, __u64 given)
{
	bool eps = cm_has(given, "epsilon"), width = cm_has(given, "width");
	bool delta = cm_has(given, "delta"), rows = cm_has(given, "rows");

	if (eps == width)
		return ctl_usage(c, "Count-Min width: give epsilon E or width W");
	if (delta == rows)
		return ctl_usage(c, "Count-Min rows: give delta X or rows D");
	if (delta) {
		a->cr.tables = kb_cm_rows(a->delta);
		if (!a->cr.tables)
			return ctl_usage(c, "delta: too small (allowed: at least 1.2e-7, at most %u rows)",
					 KB_CM_ROWS_MAX);
	}
	return 0;
}

int countmin_create(struct ctl *c, int argc, char **argv)
{
	struct cm_args a = { .cr = { .type = KBLOOM_TYPE_COUNT_MIN } };
	__u64 given;
	int ret;

	memcpy(a.cr.name, argv[0], strlen(argv[0]));
	ret = kw_parse(c, &countmin_table, argc - 2, argv + 2, &a, &given);
	if (ret)
		return ret;
	ret = cm_check(c, &a, given);
	if (ret)
		return ret;
	return create_send(c, &a.cr, cm_has(given, "seed"));
}

/* --- stat -------------------------------------------------------------------- */

void sketches_stat_text(const struct kbloom_stat *st)
{
	if (st->type == KBLOOM_TYPE_DLEFT) {
		printf("d-left:       %u subtables of %llu buckets of %u cells, %u-bit remainders, %u-bit counters, layout %s\n",
		       st->tables, (unsigned long long)st->buckets, st->slots,
		       st->fp_bits, st->counter_bits,
		       dl_layout_name(st->update));
		printf("overflows:    %llu\n", (unsigned long long)st->overflows);
	} else if (st->type == KBLOOM_TYPE_COUNT_MIN) {
		printf("count-min:    %u rows of %llu %u-bit counters, update %s\n",
		       st->tables, (unsigned long long)st->buckets,
		       st->counter_bits,
		       st->update == KB_CM_MIN_INC ? "min-inc" : "all");
	}
}
