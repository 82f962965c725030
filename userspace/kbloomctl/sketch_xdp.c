// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the Count-Min sketch at XDP as an instance
 * (libkbloom_xdp_count.h, kind "sketch"):
 *
 *   xdp attach sketch NAME dev IFACE... [mode M] [netns NS]
 *       [epsilon P delta P | width W rows D] [counter-bits 16|32]
 *       [update all|min-inc] [hash fast|siphash] [seed S] [shared]
 *       [threshold N [bytes]] [action count|mark|drop] [mark V]
 *   sketch count NAME ADDR...   packets and bytes per source address
 *   sketch stats NAME           the geometry, the policy, the counters
 *   sketch save NAME packets|bytes [-o FILE|-]   a Count-Min image
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbloomctl.h"
#include "libkbloom_xdp_count.h"

/* ---- xdp attach sketch ------------------------------------------------------ */

static const char *const action_words[] = { "count", "mark", "drop", NULL };

struct sk_args {
	struct count_attach at;
	struct kbloom_sketch_xdp_opts o;
	__u32 bytes;
};

#define SA(_n, _a, _t, _m, ...)	KW(_n, _a, _t, struct sk_args, _m, __VA_ARGS__)

/* dev, mode and netns first: the other rows (bit 3 on) make the instance */
static const struct kw sk_kw[] = {
	SA("dev", "IFACE...", KWT_LIST, at.devl, .required = true),
	KW_MODE(struct sk_args, at.mode),
	SA("netns", "NS", KWT_NETNS, at.netns),
	SA("epsilon", "P", KWT_PROB, o.geom.epsilon_pico),
	SA("delta", "P", KWT_PROB, o.geom.delta_pico),
	SA("width", "W", KWT_U64, o.geom.width, .min = KB_CM_WIDTH_MIN,
	   .max = KBLOOM_M_MAX, .extra = "counters per row"),
	SA("rows", "D", KWT_U32, o.geom.rows, .min = 1, .max = KB_CM_ROWS_MAX),
	SA("counter-bits", "16|32", KWT_ENUM, o.geom.counter_bits,
	   .words = cm_counter_words, .vals = cm_counter_ids),
	SA("update", "all|min-inc", KWT_ENUM, o.geom.update,
	   .words = cm_update_words, .vals = cm_update_ids),
	SA("hash", "fast|siphash", KWT_ENUM, o.geom.hash_id,
	   .words = xdp_hash_words, .vals = xdp_hash_ids),
	SA("seed", "S", KWT_U64, o.geom.seed, .min = 0, .max = ~0ULL,
	   .extra = "decimal or 0x hex"),
	SA("shared", "", KWT_FLAG, o.shared),
	SA("threshold", "N", KWT_U64, o.threshold, .min = 1, .max = ~0ULL,
	   .extra = "packets, or bytes with bytes"),
	SA("bytes", "", KWT_FLAG, bytes),
	SA("action", "count|mark|drop", KWT_ENUM, o.action,
	   .words = action_words),
	SA("mark", "V", KWT_U32, o.mark, .min = 0, .max = 0xffffffffU),
	{ 0 }
};

static const struct kw_table sk_table = { .kw = sk_kw };

/* The size: epsilon and delta, or width and rows; the default 0.1%, 1%. */
static int sk_size(const struct ctl *c, struct kbloom_sketch_opts *g,
		   __u64 given)
{
	bool eps = kw_has(&sk_table, given, "epsilon");
	bool del = kw_has(&sk_table, given, "delta");
	bool w = kw_has(&sk_table, given, "width");
	bool d = kw_has(&sk_table, given, "rows");
	struct kbloom_sketch *s;
	int ret;

	if ((eps || del) && (w || d))
		return ctl_usage(c, "%s: not with %s (allowed: epsilon P delta P, or width W rows D)",
				 w ? "width" : "rows",
				 eps ? "epsilon" : "delta");
	if (eps != del || w != d)
		return ctl_usage(c, "%s: needs %s too", eps ? "epsilon" :
				 del ? "delta" : w ? "width" : "rows",
				 eps ? "delta P" : del ? "epsilon P" :
				 w ? "rows D" : "width W");
	if (!eps && !w) {
		g->epsilon_pico = 1000000000ULL;	/* 0.1% */
		g->delta_pico = 10000000000ULL;		/* 1% */
	}
	if (kw_has(&sk_table, given, "seed"))
		g->flags |= KBLOOM_SKETCH_SEED;
	ret = kbloom_sketch_create(g, &s);
	kbloom_sketch_free(s);
	if (ret == -E2BIG)
		return ctl_usage(c, "%s: over %llu counters in all", w ?
				 "width W rows D" : "epsilon P delta P",
				 (unsigned long long)KBLOOM_M_MAX);
	if (ret)
		return ctl_usage(c, "%s: out of range (allowed: each in 1e-9..0.5)",
				 eps ? "epsilon P delta P" : "width W rows D");
	return 0;
}

/* The policy: threshold, bytes, action, mark, shared. */
static int sk_policy(const struct ctl *c, struct sk_args *a, __u64 given)
{
	struct kbloom_sketch_xdp_opts *o = &a->o;

	if (a->bytes && !o->threshold)
		return ctl_usage(c, "bytes: needs threshold N (the threshold counts bytes)");
	if (o->action != KBLOOM_SKETCH_COUNT && !o->threshold)
		return ctl_usage(c, "action %s: needs threshold N",
				 action_words[o->action]);
	if (kw_has(&sk_table, given, "mark") &&
	    o->action != KBLOOM_SKETCH_MARK)
		return ctl_usage(c, "mark: only with action mark");
	if (o->shared && o->geom.update == KB_CM_MIN_INC)
		return ctl_usage(c, "update min-inc: not with shared (shared rows take update all)");
	o->flags = a->bytes ? KBLOOM_SKETCH_F_BYTES : 0;
	return 0;
}

int sketch_xdp_attach(struct ctl *c, int argc, char **argv)
{
	struct sk_args a = { .at = { .name = argv[0], .kind = XK_SKETCH } };
	__u64 given;
	int ret;

	ret = xdp_arg_name(c, a.at.name);
	ret = ret ?: kw_parse(c, &sk_table, argc - 1, argv + 1, &a, &given);
	ret = ret ?: sk_size(c, &a.o.geom, given);
	ret = ret ?: sk_policy(c, &a, given);
	if (ret)
		return ret;
	a.at.create_opts = given & ~7ULL;	/* not only dev, mode, netns */
	a.at.kopts = &a.o;
	return count_attach(c, &a.at);
}

/* ---- sketch count ------------------------------------------------------------ */

static void count_out(const struct ctl *c, const char *name, char **addr,
		      int n, const __u64 *pk, const __u64 *by)
{
	struct json j;
	int i;

	if (!c->set[CO_JSON]) {
		printf("%-40s %12s %16s\n", "SOURCE", "PACKETS", "BYTES");
		for (i = 0; i < n; i++)
			printf("%-40s %12llu %16llu\n", addr[i],
			       (unsigned long long)pk[i],
			       (unsigned long long)by[i]);
		return;
	}
	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "sketch", name);
	json_key(&j, "sources");
	json_arr(&j);
	for (i = 0; i < n; i++) {
		json_obj(&j);
		json_kstr(&j, "address", addr[i]);
		json_ku64(&j, "packets", pk[i]);
		json_ku64(&j, "bytes", by[i]);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

/* The estimates of each address of @addr, both sketches read once. */
static int count_read(struct kbloom_inst *in, char **addr, int n,
		      const __u8 (*a)[16], const __u32 *len, __u64 *pk,
		      __u64 *by)
{
	struct kbloom_sketch *s[2] = { NULL, NULL };
	int i, ret;

	ret = kbloom_xdp_sketch_read(in, 0, &s[0]);
	ret = ret ?: kbloom_xdp_sketch_read(in, 1, &s[1]);
	for (i = 0; !ret && i < n; i++) {
		pk[i] = kbloom_sketch_count(s[0], a[i], len[i]);
		by[i] = kbloom_sketch_count(s[1], a[i], len[i]);
	}
	kbloom_sketch_free(s[0]);
	kbloom_sketch_free(s[1]);
	return ret;
}

static int cmd_count(struct ctl *c, int argc, char **argv)
{
	int n = argc - 1, i, ret;
	struct kbloom_inst *in = NULL;
	__u64 *pk = calloc(n, 8), *by = calloc(n, 8);
	__u8 (*a)[16] = calloc(n, 16);
	__u32 *len = calloc(n, 4);

	ret = xdp_arg_name(c, argv[0]);
	if (!ret && (!pk || !by || !a || !len))
		ret = ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	for (i = 0; !ret && i < n; i++)
		ret = xdp_arg_addr(c, "ADDR", argv[i + 1], false, a[i],
				   &len[i]);
	ret = ret ?: count_open(c, argv[0], XK_SKETCH, &in);
	if (!ret) {
		ret = count_read(in, argv + 1, n, (const __u8 (*)[16])a, len,
				 pk, by);
		if (ret)
			ret = xdp_fail(c, ret, "%s %s", c->cmd_path, argv[0]);
	}
	kbloom_inst_close(in);
	if (!ret && !ctl_quiet(c)) {
		count_out(c, argv[0], argv + 1, n, pk, by);
		ret = ctl_flush_stdout(c);
	}
	free(pk);
	free(by);
	free(a);
	free(len);
	return ret;
}

/* ---- sketch stats ------------------------------------------------------------ */

#define SK_STAT(_f)	{ #_f, offsetof(struct kbloom_sketch_stats, _f) }

static const struct {
	const char *name;
	size_t off;
} sk_stats[] = {
	SK_STAT(packets), SK_STAT(counted), SK_STAT(bytes), SK_STAT(not_ip),
	SK_STAT(malformed), SK_STAT(over), SK_STAT(marked), SK_STAT(dropped),
	SK_STAT(saturations), SK_STAT(contended), SK_STAT(errors),
};

static __u64 sk_stat(const struct kbloom_sketch_stats *st, size_t i)
{
	return *(const __u64 *)((const char *)st + sk_stats[i].off);
}

static void stats_text(const char *name, const struct kbloom_sketch_params *p,
		       int shared, const struct kbloom_sketch_stats *st)
{
	size_t i;

	printf("sketch %s: %u rows of %llu %u-bit counters, update %s, %s rows\n",
	       name, p->rows, (unsigned long long)p->width, p->counter_bits,
	       p->update == KB_CM_MIN_INC ? "min-inc" : "all",
	       shared ? "shared" : "per-CPU");
	if (p->threshold)
		printf("threshold %llu %s, action %s\n",
		       (unsigned long long)p->threshold,
		       p->flags & KBLOOM_SKETCH_F_BYTES ? "bytes" : "packets",
		       action_words[p->action]);
	else
		printf("no threshold: every frame is counted and passed\n");
	for (i = 0; i < ARRAY_SIZE(sk_stats); i++)
		printf("%-12s %llu\n", sk_stats[i].name,
		       (unsigned long long)sk_stat(st, i));
}

static void stats_json(const char *name, const struct kbloom_sketch_params *p,
		       int shared, const struct kbloom_sketch_stats *st)
{
	struct json j;
	size_t i;

	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "sketch", name);
	json_ku64(&j, "rows", p->rows);
	json_ku64(&j, "width", p->width);
	json_ku64(&j, "counter_bits", p->counter_bits);
	json_kstr(&j, "update", p->update == KB_CM_MIN_INC ? "min-inc" : "all");
	json_kbool(&j, "shared", shared);
	json_ku64(&j, "threshold", p->threshold);
	json_kbool(&j, "threshold_bytes", p->flags & KBLOOM_SKETCH_F_BYTES);
	json_kstr(&j, "action", action_words[p->action]);
	for (i = 0; i < ARRAY_SIZE(sk_stats); i++)
		json_ku64(&j, sk_stats[i].name, sk_stat(st, i));
	json_obj_end(&j);
	json_end(&j);
}

static int cmd_stats(struct ctl *c, int argc, char **argv)
{
	struct kbloom_sketch_params p;
	struct kbloom_sketch_stats st;
	struct kbloom_inst *in = NULL;
	int ret, shared = 0;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: count_open(c, argv[0], XK_SKETCH, &in);
	if (ret)
		return ret;
	ret = kbloom_xdp_sketch_params(in, &p);
	ret = ret ?: kbloom_xdp_sketch_stats(in, &st);
	if (!ret)
		shared = kbloom_xdp_sketch_shared(in);
	kbloom_inst_close(in);
	if (ret || shared < 0)
		return xdp_fail(c, ret ?: shared, "%s %s", c->cmd_path, argv[0]);
	if (ctl_quiet(c))
		return KBCTL_OK;
	if (p.action > KBLOOM_SKETCH_DROP)
		p.action = KBLOOM_SKETCH_COUNT;
	if (c->set[CO_JSON])
		stats_json(argv[0], &p, shared, &st);
	else
		stats_text(argv[0], &p, shared, &st);
	return ctl_flush_stdout(c);
}

/* ---- sketch save ----------------------------------------------------------------- */

static const char *const which_words[] = { "packets", "bytes", NULL };

static int cmd_save(struct ctl *c, int argc, char **argv)
{
	struct kbloom_sketch *s = NULL;
	struct kbloom_inst *in = NULL;
	int which, ret;
	size_t n, len = 0;
	void *img = NULL;
	char op[160];

	ret = xdp_arg_name(c, argv[0]);
	if (ret)
		return ret;
	which = arg_pick(argv[1], which_words);
	if (which < 0)
		return ctl_usage(c, "'%s': not a sketch of the instance (allowed: packets|bytes)",
				 argv[1]);
	ret = count_open(c, argv[0], XK_SKETCH, &in);
	if (ret)
		return ret;
	snprintf(op, sizeof(op), "%s %s %s", c->cmd_path, argv[0], argv[1]);
	ret = kbloom_xdp_sketch_read(in, which, &s);
	kbloom_inst_close(in);
	if (!ret) {
		n = kbloom_sketch_image_size(s);
		img = malloc(n);
		ret = img ? kbloom_sketch_save(s, img, n, &len) : -ENOMEM;
	}
	kbloom_sketch_free(s);
	return count_save_out(c, op, ret, img, len);
}

/* ---- xdp status ---------------------------------------------------------------- */

void sketch_summary(const char *name, struct json *j)
{
	struct kbloom_inst *in = count_peek(name);
	struct kbloom_sketch_params p;
	struct kbloom_sketch_stats st;
	int shared = in ? kbloom_xdp_sketch_shared(in) : -1;

	if (shared < 0 || kbloom_xdp_sketch_params(in, &p) ||
	    kbloom_xdp_sketch_stats(in, &st) || p.action > KBLOOM_SKETCH_DROP)
		goto out;
	if (j) {
		json_ku64(j, "rows", p.rows);
		json_ku64(j, "width", p.width);
		json_kbool(j, "shared", shared);
		json_ku64(j, "threshold", p.threshold);
		json_kstr(j, "action", action_words[p.action]);
		json_ku64(j, "counted", st.counted);
	} else {
		printf("  %u rows of %llu %u-bit counters, %s rows, threshold %llu, action %s, %llu frames counted\n",
		       p.rows, (unsigned long long)p.width, p.counter_bits,
		       shared ? "shared" : "per-CPU",
		       (unsigned long long)p.threshold,
		       action_words[p.action], (unsigned long long)st.counted);
	}
out:
	kbloom_inst_close(in);
}

/* ---- the table ---------------------------------------------------------------- */

static const struct ctl_cmd sketch_sub[] = {
	{
		.name = "count",
		.synopsis = "NAME ADDR...",
		.summary = "packets and bytes of source addresses, as the XDP sketch estimates them",
		.help =
"The estimate of each IPv4 or IPv6 source: the minimum over the rows of its\n"
"counters, the per-CPU rows summed.  Never below the truth while no counter\n"
"saturated and no update was contended, and for N counted packets (bytes)\n"
"at most epsilon N above it with probability 1 - delta.\n",
		.min_args = 2,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_count,
	},
	{
		.name = "stats",
		.synopsis = "NAME",
		.summary = "the sketch's geometry, threshold and counters",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_stats,
	},
	{
		.name = "save",
		.synopsis = "NAME packets|bytes [-o FILE|-]",
		.summary = "write the packet or byte sketch (CPUs summed) as a Count-Min image",
		.help =
"The image loads in libkbloom (kbloom_sketch_load()) and in kbloom.ko\n"
"(kbloomctl restore); its N is the packets or bytes counted.\n",
		.min_args = 2,
		.max_args = 2,
		.opts = CTL_OPT(CO_OUTPUT),
		.run = cmd_save,
	},
	{ 0 }
};

const struct ctl_cmd sketch_cmds[] = {
	{
		.name = "sketch",
		.synopsis = "count|stats|save NAME ...",
		.summary = "the XDP Count-Min sketch (xdp attach sketch): per-source counts",
		.sub = sketch_sub,
	},
	{ 0 }
};
