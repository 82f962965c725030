// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl plan: what a filter of each type costs for n keys at a target
 * false-positive rate, from the shared planner (uapi/kbloom_plan.h).
 * Creates nothing and needs no module.
 */
#include <string.h>

#include "kbloomctl.h"
#include "uapi/kbloom_plan.h"
#include "uapi/kbloom_partitioned.h"
#include "uapi/kbloom_variants.h"

struct plan_row {
	const char *label;
	__u32 type;
	__u32 counter_bits;
	__u32 layout;		/* d-left: KB_DLEFT_LAYOUT_* */
	struct kb_plan plan;
	int err;
};

struct plan_args {
	__u64 n;
	__u64 p;
	__u32 layout;
};

static const struct kw plan_kw[] = {
	KW("capacity", "N", KWT_U64, struct plan_args, n, .min = 1,
	   .max = KBLOOM_M_MAX, .extra = "keys expected"),
	KW("fpr", "P", KWT_PROB, struct plan_args, p),
	KW("layout", "spread|lines", KWT_ENUM, struct plan_args, layout,
	   .words = dl_layout_words, .vals = dl_layout_ids),
	{ 0 }
};

static const struct kw_table plan_table = {
	.kw = plan_kw,
	.unknown_hint = "allowed: capacity N fpr P [layout spread|lines]",
	.missing_hint = "value (allowed: capacity N fpr P [layout spread|lines])",
	.any_value = true,
};

static int plan_args(struct ctl *c, int argc, char **argv,
		     struct plan_args *a)
{
	bool cap, fpr;
	__u64 given;
	int ret;

	ret = kw_parse(c, &plan_table, argc, argv, a, &given);
	if (ret)
		return ret;
	cap = kw_has(&plan_table, given, "capacity");
	fpr = kw_has(&plan_table, given, "fpr");
	if (!cap || !fpr)
		return ctl_usage(c, "missing %s (allowed: capacity N fpr P)",
				 cap ? "fpr P" : "capacity N");
	return 0;
}

static void plan_text(__u64 n, __u64 p, const struct plan_row *r, int nr)
{
	const struct plan_row *dl = NULL;
	char tp[32];
	int i;

	fmt_prob(tp, sizeof(tp), p);
	printf("capacity %llu keys, target fpr %s\n\n",
	       (unsigned long long)n, tp);
	printf("%-10s %10s %3s %11s %9s  %s\n", "TYPE", "M", "K", "BYTES",
	       "BITS/KEY", "PREDICTED FPR");
	for (i = 0; i < nr; i++, r++) {
		if (r->err) {
			printf("%-10s %s\n", r->label,
			       r->err == -E2BIG ? "too big (more than 2^32 bits or counters)" :
			       "cannot be planned");
			continue;
		}
		printf("%-10s %10llu %3u %11llu %9.2f  %.6g\n", r->label,
		       (unsigned long long)r->plan.m, r->plan.k,
		       (unsigned long long)r->plan.bytes,
		       r->plan.bytes * 8.0 / n,
		       pico_to_double(r->plan.fpr_pico));
		if (r->type == KBLOOM_TYPE_DLEFT)
			dl = r;
	}
	if (dl)
		printf("\nd-left layout: %s%s\n", dl_layout_name(dl->layout),
		       dl->layout == KB_DLEFT_LAYOUT_LINES ?
		       " (a key's buckets in two cache lines; the same bytes and rate)" :
		       " (subtable after subtable; layout lines puts a key's buckets in two cache lines)");
}

static void plan_json(__u64 n, __u64 p, const struct plan_row *r, int nr)
{
	struct json j;
	int i;

	json_init(&j, stdout);
	json_obj(&j);
	json_ku64(&j, "capacity", n);
	json_kdouble(&j, "fpr_target", pico_to_double(p));
	json_key(&j, "plans");
	json_arr(&j);
	for (i = 0; i < nr; i++, r++) {
		json_obj(&j);
		json_kstr(&j, "type", type_name(r->type));
		json_ku64(&j, "counter_bits", r->counter_bits);
		if (r->type == KBLOOM_TYPE_DLEFT)
			json_kstr(&j, "layout", dl_layout_name(r->layout));
		if (r->err) {
			json_kstr(&j, "error", r->err == -E2BIG ? "too big" :
					       "cannot be planned");
		} else {
			json_ku64(&j, "m", r->plan.m);
			json_ku64(&j, "k", r->plan.k);
			json_ku64(&j, "bytes", r->plan.bytes);
			json_kdouble(&j, "bits_per_key",
				     r->plan.bytes * 8.0 / n);
			json_kdouble(&j, "fpr",
				     pico_to_double(r->plan.fpr_pico));
		}
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

/*
 * A cuckoo (b = 4, 95% load) or d-left (d = 4, 8 cells, 2-bit counters,
 * 75% load) plan as a row: m is slots or cells, k the buckets a key probes.
 */
static int plan_shape_row(struct plan_row *r, __u64 n, __u64 p)
{
	struct kb_shape s = { .type = r->type, .update = r->layout };
	int ret;

	ret = r->type == KBLOOM_TYPE_CUCKOO ? kb_cuckoo_plan(n, p, &s) :
					      kb_dleft_plan(n, p, &s);
	if (ret)
		return ret;
	r->counter_bits = s.counter_bits;
	r->plan.m = s.m;
	r->plan.k = s.k;
	r->plan.bytes = kb_shape_words(&s) * 8;
	r->plan.fpr_pico = r->type == KBLOOM_TYPE_CUCKOO ?
		kb_cuckoo_fpr_pico(s.fp_bits, s.buckets, n) :
		kb_dleft_fpr_pico(n, s.buckets, s.fp_bits);
	return 0;
}

/* A partitioned plan: the standard k, slices rounded up to whole words. */
static int plan_part_row(struct plan_row *r, __u64 n, __u64 p)
{
	struct kb_shape s;
	int ret = kb_part_plan(n, p, &s);

	if (ret)
		return ret;
	r->plan.m = s.m;
	r->plan.k = s.k;
	r->plan.bytes = kb_shape_words(&s) * 8;
	r->plan.fpr_pico = kb_part_fpr_pico(s.m, s.k, n);
	return 0;
}

/*
 * A window of the last N keys: k from P, l of fewest bits, slices sized
 * for the rate just before a rotation (kb_win_plan()).
 */
static int plan_win_row(struct plan_row *r, __u64 n, __u64 p)
{
	struct kb_shape s;
	__u64 g;
	int ret = kb_win_plan(n, p, 0, 0, KB_WIN_CLOCK_KEYS, &s);

	if (ret)
		return ret;
	g = kb_win_gen_len(n, s.tables);
	r->plan.m = s.m;
	r->plan.k = s.k;
	r->plan.bytes = kb_shape_words(&s) * 8;
	r->plan.fpr_pico = kb_win_fpr_pico(s.k, s.tables, s.buckets, g, g);
	return 0;
}

/* The planner of a row's type (VI-CBF: kb_vi_plan() at its default L). */
static int plan_row(struct plan_row *r, __u64 n, __u64 p)
{
	if (r->type == KBLOOM_TYPE_PARTITIONED)
		return plan_part_row(r, n, p);
	if (r->type == KBLOOM_TYPE_DELETABLE)
		return deletable_plan(n, p, &r->plan);
	if (r->type == KBLOOM_TYPE_SCALABLE || r->type == KBLOOM_TYPE_DYNAMIC)
		return scalable_plan(r->type, n, p, &r->plan);
	if (r->type == KBLOOM_TYPE_STABLE)
		return plan_stable_row(n, p, &r->plan);
	if (r->type == KBLOOM_TYPE_AGE_PARTITIONED)
		return plan_win_row(r, n, p);
	if (r->type == KBLOOM_TYPE_VI_COUNTING)
		return kb_vi_plan(n, p, 0, r->counter_bits, &r->plan);
	if (r->type == KBLOOM_TYPE_CUCKOO || r->type == KBLOOM_TYPE_DLEFT)
		return plan_shape_row(r, n, p);
	return kb_plan(r->type, n, p, r->counter_bits, &r->plan);
}

static int cmd_plan(struct ctl *c, int argc, char **argv)
{
	struct plan_row rows[] = {
		{ .label = "standard", .type = KBLOOM_TYPE_STANDARD },
		{ .label = "blocked", .type = KBLOOM_TYPE_BLOCKED },
		{ .label = "counting/4", .type = KBLOOM_TYPE_COUNTING,
		  .counter_bits = 4 },
		{ .label = "counting/8", .type = KBLOOM_TYPE_COUNTING,
		  .counter_bits = 8 },
		{ .label = "vi-cbf/4", .type = KBLOOM_TYPE_VI_COUNTING,
		  .counter_bits = 4 },
		{ .label = "cuckoo", .type = KBLOOM_TYPE_CUCKOO },
		{ .label = "d-left", .type = KBLOOM_TYPE_DLEFT },
		{ .label = "partition", .type = KBLOOM_TYPE_PARTITIONED },
		{ .label = "scalable", .type = KBLOOM_TYPE_SCALABLE },
		{ .label = "dynamic/4", .type = KBLOOM_TYPE_DYNAMIC },
		{ .label = "stable", .type = KBLOOM_TYPE_STABLE },
		{ .label = "window", .type = KBLOOM_TYPE_AGE_PARTITIONED },
		{ .label = "deletable", .type = KBLOOM_TYPE_DELETABLE },
	};
	int i, nr = ARRAY_SIZE(rows), ok = 0, ret;
	struct plan_args a = { 0 };
	__u64 n, p;
	char tp[32];

	ret = plan_args(c, argc, argv, &a);
	if (ret)
		return ret;
	n = a.n;
	p = a.p;
	for (i = 0; i < nr; i++) {
		if (rows[i].type == KBLOOM_TYPE_DLEFT)
			rows[i].layout = a.layout;
		rows[i].err = plan_row(&rows[i], n, p);
		ok += !rows[i].err;
	}
	if (!ok) {
		fmt_prob(tp, sizeof(tp), p);
		return ctl_usage(c, "capacity %llu fpr %s: too big for any filter (allowed: at most %llu bits or counters; lower the capacity or raise fpr)",
				 (unsigned long long)n, tp,
				 (unsigned long long)KBLOOM_M_MAX);
	}
	if (ctl_quiet(c))
		return KBCTL_OK;
	if (c->set[CO_JSON])
		plan_json(n, p, rows, nr);
	else
		plan_text(n, p, rows, nr);
	return ctl_flush_stdout(c);
}

const struct ctl_cmd plan_cmds[] = {
	{
		.name = "plan",
		.synopsis = "capacity N fpr P [layout spread|lines]",
		.summary = "size each filter type for N keys at rate P (creates nothing)",
		.help =
"For standard, blocked (512-bit blocks) and counting filters (4- and\n"
"8-bit counters): m, the best k, the memory, bits of memory per key and\n"
"the predicted false-positive rate at N keys, from the planner the module\n"
"uses for 'create NAME TYPE capacity N fpr P'.  The deletable types are\n"
"counting/4, counting/8, vi-cbf/4 (variable-increment counting, 4-bit\n"
"counters, increments 4..7; the paper's formula), cuckoo (4 slots per\n"
"bucket at 95% load: M is slots, K the 2 buckets probed) and d-left (4\n"
"subtables of 8 cells, 2-bit counters, 75% load: M is cells, K the 4\n"
"buckets probed; layout spread, the default, or lines, which puts a key's\n"
"buckets in two cache lines at the same bytes and rate: the line after the\n"
"table says which).  partition is the partitioned filter, not deletable:\n"
"k slices of whole words, one probe each (the standard k; M is all k\n"
"slices).  scalable is N keys grown from a first generation of N/1023\n"
"(growth 2, ratio 0.9: ten generations) and dynamic/4 N keys in four\n"
"counting generations of N/4 (deletable): M and the memory of every\n"
"generation, K the last one's, the rate the union bound of theirs at\n"
"their keys.  stable has no capacity: M 1-bit cells (the standard bits),\n"
"k = 3 and the least P whose stable point meets P; it forgets old keys.\n"
"window is the age-partitioned window of the last N keys (k from P, l\n"
"of fewest bits, P the rate just before a rotation; M is all k + l\n"
"slices).  deletable is the standard filter plus a collision bit per\n"
"region of 4 bits (M is the standard bits; the memory counts the bitmap).\n"
"N is 1..2^32; P is 1e-9..0.5, written as 0.01, 1% or 1e-4.  Works without the module.\n",
		.max_args = 6,
		.kw = &plan_table,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_plan,
	},
	{ 0 }
};
