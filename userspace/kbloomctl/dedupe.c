// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: duplicate suppression at XDP with a stable Bloom filter as an
 * instance (libkbloom_xdp_dedupe.h, kind "dedupe"):
 *
 *   xdp attach dedupe NAME dev IFACE... [mode M] [netns NS] cells M
 *       [hashes K] [cell-bits 1|2|4|8] (decrement P | fpr P)
 *       [action drop|count] [hash fast|siphash] [seed S]
 *   dedupe stats NAME           the filter, its decay, the counters
 *   dedupe save NAME [-o FILE|-]    the cells as a stable image
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbloomctl.h"
#include "libkbloom_xdp_dedupe.h"
#include "libkbloom_xdp_count.h"

/* ---- xdp attach dedupe ------------------------------------------------------ */

static const char *const dd_action_words[] = { "count", "drop", NULL };
static const char *const dd_cell_words[] = { "1", "2", "4", "8", NULL };
static const __u32 dd_cell_ids[] = { 1, 2, 4, 8 };

struct dd_args {
	struct count_attach at;
	struct kbloom_stable_xdp_opts o;
	__u64 p;
	__u64 fpr;
};

#define DA(_n, _a, _t, _m, ...)	KW(_n, _a, _t, struct dd_args, _m, __VA_ARGS__)

/* dev, mode and netns first: the other rows (bit 3 on) make the instance */
static const struct kw dd_kw[] = {
	DA("dev", "IFACE...", KWT_LIST, at.devl, .required = true),
	KW_MODE(struct dd_args, at.mode),
	DA("netns", "NS", KWT_NETNS, at.netns),
	DA("cells", "M", KWT_U64, o.m, .min = KBLOOM_M_MIN,
	   .max = KBLOOM_M_MAX, .extra = "a multiple of 64"),
	DA("hashes", "K", KWT_U32, o.k, .min = KBLOOM_K_MIN,
	   .max = KBLOOM_K_MAX, .extra = "cells set per frame"),
	DA("cell-bits", "1|2|4|8", KWT_ENUM, o.cell_bits,
	   .words = dd_cell_words, .vals = dd_cell_ids),
	DA("decrement", "P", KWT_U64, p, .min = 1, .max = KB_STABLE_P_MAX,
	   .extra = "cells decremented per frame"),
	DA("fpr", "P", KWT_PROB, fpr),
	DA("action", "count|drop", KWT_ENUM, o.action,
	   .words = dd_action_words),
	DA("hash", "fast|siphash", KWT_ENUM, o.hash_id,
	   .words = xdp_hash_words, .vals = xdp_hash_ids),
	DA("seed", "S", KWT_U64, o.seed, .min = 0, .max = ~0ULL,
	   .extra = "decimal or 0x hex"),
	{ 0 }
};

static const struct kw_table dd_table = { .kw = dd_kw };

/* cells M, and exactly one of decrement P and fpr P (P then planned). */
static int dd_size(const struct ctl *c, struct dd_args *a, __u64 given)
{
	bool dec = kw_has(&dd_table, given, "decrement");
	bool fpr = kw_has(&dd_table, given, "fpr");
	struct kb_shape s;

	if (!kw_has(&dd_table, given, "cells"))
		return ctl_usage(c, "dedupe: missing cells M (allowed: cells M [hashes K] [cell-bits 1|2|4|8] (decrement P | fpr P))");
	if (dec == fpr)
		return ctl_usage(c, "dedupe: give decrement P or fpr P (the stable point's rate), not %s",
				 dec ? "both" : "neither");
	if (a->o.m % 64)
		return ctl_usage(c, "cells '%llu': not a multiple of 64 (allowed: a multiple of 64, 64..2^32)",
				 (unsigned long long)a->o.m);
	if (dec && a->p > a->o.m)
		return ctl_usage(c, "decrement %llu: more than cells %llu (allowed: 1..min(cells, %u))",
				 (unsigned long long)a->p,
				 (unsigned long long)a->o.m, KB_STABLE_P_MAX);
	kb_stable_shape_init(&s, a->o.m, a->o.k, a->o.cell_bits, 1);
	if (fpr && kb_stable_plan(a->fpr, &s))
		return ctl_usage(c, "fpr: no decrement up to %u reaches it with hashes %u and cell-bits %u (allowed: a higher fpr, or more hashes)",
				 KB_STABLE_P_MAX, a->o.k, a->o.cell_bits);
	a->o.p = fpr ? (__u32)s.buckets : (__u32)a->p;
	return 0;
}

int dedupe_xdp_attach(struct ctl *c, int argc, char **argv)
{
	struct dd_args a = {
		.at = { .name = argv[0], .kind = XK_DEDUPE },
		.o = { .k = KB_STABLE_K_DEFAULT, .cell_bits = 1,
		       .action = KBLOOM_DEDUPE_DROP },
	};
	__u64 given;
	int ret;

	ret = xdp_arg_name(c, a.at.name);
	ret = ret ?: kw_parse(c, &dd_table, argc - 1, argv + 1, &a, &given);
	if (ret)
		return ret;
	a.at.create_opts = given & ~7ULL;	/* not only dev, mode, netns */
	if (xdp_kind_of(a.at.name) == XK_NONE || a.at.create_opts) {
		ret = dd_size(c, &a, given);
		if (ret)
			return ret;
	}
	a.at.kopts = &a.o;
	return count_attach(c, &a.at);
}

/* ---- dedupe stats, save ------------------------------------------------------- */

static void dd_stats_out(const struct ctl *c, const char *name,
			 const struct kbloom_stable_stats *fs,
			 const struct kbloom_dedupe_stats *st, int action)
{
	const struct kb_shape *s = &fs->shape;
	struct json j;

	if (!c->set[CO_JSON]) {
		printf("%s: %llu cells of %u bits (Max %llu), hashes %u, decrement %llu, action %s\n",
		       name, (unsigned long long)s->m, s->counter_bits,
		       (unsigned long long)kb_stable_max(s->counter_bits), s->k,
		       (unsigned long long)s->buckets,
		       dd_action_words[action & 1]);
		printf("zero cells %.2f%% (stable point %.2f%%, fpr there %.4f%%)\n",
		       fs->zero_ppm / 1e4, fs->zero_stable_ppm / 1e4,
		       fs->fps_pico / 1e10);
		printf("packets %llu first %llu repeats %llu dropped %llu not-ip %llu malformed %llu skipped %llu contended %llu errors %llu\n",
		       (unsigned long long)st->packets,
		       (unsigned long long)st->first,
		       (unsigned long long)st->repeats,
		       (unsigned long long)st->dropped,
		       (unsigned long long)st->not_ip,
		       (unsigned long long)st->malformed,
		       (unsigned long long)st->skipped,
		       (unsigned long long)st->contended,
		       (unsigned long long)st->errors);
		return;
	}
	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "name", name);
	json_ku64(&j, "cells", s->m);
	json_ku64(&j, "cell_bits", s->counter_bits);
	json_ku64(&j, "hashes", s->k);
	json_ku64(&j, "decrement", s->buckets);
	json_kstr(&j, "action", dd_action_words[action & 1]);
	json_kdouble(&j, "zero_share", fs->zero_ppm / 1e6);
	json_kdouble(&j, "zero_share_stable", fs->zero_stable_ppm / 1e6);
	json_kdouble(&j, "fpr_stable", fs->fps_pico / 1e12);
	json_ku64(&j, "packets", st->packets);
	json_ku64(&j, "first", st->first);
	json_ku64(&j, "repeats", st->repeats);
	json_ku64(&j, "dropped", st->dropped);
	json_ku64(&j, "skipped", st->skipped);
	json_ku64(&j, "errors", st->errors);
	json_obj_end(&j);
	json_end(&j);
}

/* The instance's cells as a library filter, its counters, its action. */
static int dd_read(struct ctl *c, const char *name, struct kbloom_stable **f,
		   struct kbloom_dedupe_stats *st, int *action)
{
	struct kbloom_inst *in = NULL;
	int ret;

	ret = xdp_arg_name(c, name);
	ret = ret ?: count_open(c, name, XK_DEDUPE, &in);
	if (ret)
		return ret;
	ret = kbloom_stable_xdp_read(kbloom_xdp_dedupe(in), f);
	ret = ret ?: kbloom_stable_xdp_stats(kbloom_xdp_dedupe(in), st);
	*action = kbloom_xdp_dedupe_action(in);
	kbloom_inst_close(in);
	if (!ret && *action < 0)
		ret = *action;
	return ret ? xdp_fail(c, ret, "%s %s", c->cmd_path, name) : 0;
}

static int cmd_stats(struct ctl *c, int argc, char **argv)
{
	struct kbloom_stable_stats fs;
	struct kbloom_dedupe_stats st;
	struct kbloom_stable *f = NULL;
	int action, ret;

	ret = dd_read(c, argv[0], &f, &st, &action);
	if (ret)
		return ret;
	kbloom_stable_stats(f, &fs);
	kbloom_stable_destroy(f);
	dd_stats_out(c, argv[0], &fs, &st, action);
	return ctl_flush_stdout(c);
}

static int cmd_save(struct ctl *c, int argc, char **argv)
{
	struct kbloom_dedupe_stats st;
	struct kbloom_stable *f = NULL;
	size_t len = 0;
	void *img = NULL;
	char op[160];
	int action, ret;

	ret = dd_read(c, argv[0], &f, &st, &action);
	if (ret)
		return ret;
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, argv[0]);
	ret = kbloom_stable_save_alloc(f, &img, &len);
	kbloom_stable_destroy(f);
	return count_save_out(c, op, ret, img, len);
}

/* ---- xdp status ---------------------------------------------------------------- */

void dedupe_summary(const char *name, struct json *j)
{
	struct kbloom_inst *in = count_peek(name);
	struct kbloom_stable_xdp *x = kbloom_xdp_dedupe(in);
	int action = kbloom_xdp_dedupe_action(in);
	struct kbloom_stable_stats fs;
	struct kbloom_dedupe_stats st;
	struct kbloom_stable *f = NULL;

	if (action < 0 || kbloom_stable_xdp_read(x, &f) ||
	    kbloom_stable_xdp_stats(x, &st) || kbloom_stable_stats(f, &fs))
		goto out;
	if (j) {
		json_ku64(j, "cells", fs.shape.m);
		json_ku64(j, "decrement", fs.shape.buckets);
		json_kstr(j, "action", dd_action_words[action & 1]);
		json_ku64(j, "repeats", st.repeats);
	} else {
		printf("  %llu cells, decrement %llu, action %s, %llu first copies, %llu repeats\n",
		       (unsigned long long)fs.shape.m,
		       (unsigned long long)fs.shape.buckets,
		       dd_action_words[action & 1],
		       (unsigned long long)st.first,
		       (unsigned long long)st.repeats);
	}
out:
	kbloom_stable_destroy(f);
	kbloom_inst_close(in);
}

/* ---- the table ---------------------------------------------------------------- */

static const struct ctl_cmd dedupe_sub[] = {
	{
		.name = "stats",
		.synopsis = "NAME",
		.summary = "the filter, its decay (zero cells now and at the stable point) and the counters",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_stats,
	},
	{
		.name = "save",
		.synopsis = "NAME [-o FILE|-]",
		.summary = "write the cells as a stable image",
		.help =
"The image loads in libkbloom (kbloom_stable_load()) and in kbloom.ko\n"
"(kbloomctl restore); the gate and mcast paths refuse it (MAY_FN).\n",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_OUTPUT),
		.run = cmd_save,
	},
	{ 0 }
};

const struct ctl_cmd dedupe_cmds[] = {
	{
		.name = "dedupe",
		.synopsis = "stats|save NAME ...",
		.summary = "the XDP duplicate suppressor (xdp attach dedupe): a stable Bloom filter per frame",
		.sub = dedupe_sub,
	},
	{ 0 }
};
