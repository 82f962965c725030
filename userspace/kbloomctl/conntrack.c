// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the d-left connection tracker at XDP as an instance
 * (libkbloom_xdp_count.h, kind "conntrack"):
 *
 *   xdp attach conntrack NAME dev IFACE... [mode M] [netns NS]
 *       [capacity N fpr P [tables D] [slots C] [counter-bits 2|4|8]
 *        | fp-bits R slots C tables D buckets B counter-bits 2|4|8]
 *       [layout spread|lines] [hash fast|siphash] [seed S] [miss pass|drop]
 *   conntrack stats NAME               the shape, the policy, the counters
 *   conntrack test NAME SRC:PORT DST:PORT   is the TCP flow tracked?
 *   conntrack miss NAME pass|drop      the policy for unknown flows
 *   conntrack save NAME [-o FILE|-]    the cells as a d-left image
 *   conntrack load NAME [-i FILE|-]    an image's cells into the tracker
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "kbloomctl.h"
#include "libkbloom_xdp_count.h"

/* ---- xdp attach conntrack ---------------------------------------------------- */

static const char *const miss_words[] = { "pass", "drop", NULL };

struct ct_args {
	struct count_attach at;
	struct kbloom_conntrack_opts o;
};

#define CA(_n, _a, _t, _m, ...)	KW(_n, _a, _t, struct ct_args, _m, __VA_ARGS__)

/* dev, mode and netns first: the other rows (bit 3 on) make the instance */
static const struct kw ct_kw[] = {
	CA("dev", "IFACE...", KWT_LIST, at.devl, .required = true),
	KW_MODE(struct ct_args, at.mode),
	CA("netns", "NS", KWT_NETNS, at.netns),
	CA("capacity", "N", KWT_U64, o.capacity, .min = 1,
	   .max = KBLOOM_M_MAX, .extra = "flows expected"),
	CA("fpr", "P", KWT_PROB, o.fpr_pico),
	CA("tables", "D", KWT_U32, o.shape.tables, .min = KB_DLEFT_TABLES_MIN,
	   .max = KB_DLEFT_TABLES_MAX, .extra = "subtables"),
	CA("slots", "C", KWT_U32, o.shape.slots, .min = 1,
	   .max = KB_DLEFT_CELLS_MAX, .extra = "cells per bucket"),
	CA("buckets", "B", KWT_U64, o.shape.buckets, .min = 2,
	   .max = 1ULL << 31, .extra = "a power of two, per subtable"),
	CA("fp-bits", "R", KWT_U32, o.shape.fp_bits, .min = KB_DLEFT_REM_MIN,
	   .max = KB_DLEFT_REM_MAX, .extra = "remainder bits"),
	CA("counter-bits", "2|4|8", KWT_ENUM, o.shape.counter_bits,
	   .words = dl_counter_words, .vals = dl_counter_ids),
	CA("hash", "fast|siphash", KWT_ENUM, o.filter.hash_id,
	   .words = xdp_hash_words, .vals = xdp_hash_ids),
	CA("seed", "S", KWT_U64, o.filter.seed, .min = 0, .max = ~0ULL,
	   .extra = "decimal or 0x hex"),
	CA("miss", "pass|drop", KWT_ENUM, o.miss, .words = miss_words),
	CA("layout", "spread|lines", KWT_ENUM, o.shape.update,
	   .words = dl_layout_words, .vals = dl_layout_ids),
	{ 0 }
};

static const struct kw_table ct_table = { .kw = ct_kw };

static bool ct_has(__u64 given, const char *name)
{
	return kw_has(&ct_table, given, name);
}

/* Planned (capacity, fpr; default 65536 flows at 0.1%) or explicit. */
static int ct_size(const struct ctl *c, struct kbloom_conntrack_opts *o,
		   __u64 given)
{
	static const char *const shape_kw[] = { "fp-bits", "slots", "tables",
						"buckets", "counter-bits" };
	bool planned = ct_has(given, "capacity") || ct_has(given, "fpr");
	struct kb_shape s = o->shape;
	size_t i;

	if (planned && (ct_has(given, "buckets") || ct_has(given, "fp-bits")))
		return ctl_usage(c, "%s: not with capacity N fpr P (the planner picks it)",
				 ct_has(given, "buckets") ? "buckets" : "fp-bits");
	if (planned != (ct_has(given, "capacity") && ct_has(given, "fpr")))
		return ctl_usage(c, "%s: needs %s too",
				 ct_has(given, "fpr") ? "fpr" : "capacity",
				 ct_has(given, "fpr") ? "capacity N" : "fpr P");
	for (i = 0; !planned && i < ARRAY_SIZE(shape_kw); i++)
		if (ct_has(given, "buckets") || ct_has(given, "fp-bits"))
			if (!ct_has(given, shape_kw[i]))
				return ctl_usage(c, "d-left shape: missing %s (allowed: capacity N fpr P, or fp-bits R slots C tables D buckets B counter-bits W)",
						 shape_kw[i]);
	if (!planned && !ct_has(given, "buckets")) {
		if (ct_has(given, "tables") || ct_has(given, "slots") ||
		    ct_has(given, "counter-bits"))
			return ctl_usage(c, "d-left shape: needs capacity N fpr P, or fp-bits R and buckets B too");
		o->capacity = 65536;
		o->fpr_pico = 1000000000ULL;	/* 0.1% */
		planned = true;
	}
	if (planned)
		return kbloom_xdp_conntrack_plan(o->capacity, o->fpr_pico, &s) ?
		       ctl_usage(c, "capacity %llu fpr %g: cannot be planned with one-word cells (allowed: at most 2^32 cells, fp-bits + counter-bits at most 32)",
				 (unsigned long long)o->capacity,
				 (double)o->fpr_pico / KBLOOM_P_UNIT) : 0;
	s.type = KBLOOM_TYPE_DLEFT;
	o->shape.type = KBLOOM_TYPE_DLEFT;
	if (!kb_pow2(s.buckets))
		return ctl_usage(c, "buckets '%llu': not a power of two",
				 (unsigned long long)s.buckets);
	if (kb_shape_derive(&s))
		return ctl_usage(c, "buckets %llu: times tables and slots over 2^32 cells",
				 (unsigned long long)s.buckets);
	if (!kb_dleft_shape_atomic(&s))
		return ctl_usage(c, "fp-bits %u counter-bits %u: a %u-bit cell straddles words (allowed: fp-bits + counter-bits = 8, 16 or 32)",
				 s.fp_bits, s.counter_bits,
				 s.fp_bits + s.counter_bits);
	return 0;
}

int conntrack_xdp_attach(struct ctl *c, int argc, char **argv)
{
	struct ct_args a = { .at = { .name = argv[0], .kind = XK_CONNTRACK } };
	__u64 given;
	int ret;

	ret = xdp_arg_name(c, a.at.name);
	ret = ret ?: kw_parse(c, &ct_table, argc - 1, argv + 1, &a, &given);
	ret = ret ?: ct_size(c, &a.o, given);
	if (ret)
		return ret;
	a.at.create_opts = given & ~7ULL;	/* not only dev, mode, netns */
	a.at.kopts = &a.o;
	return count_attach(c, &a.at);
}

/* ---- conntrack stats ---------------------------------------------------------- */

#define CT_STAT(_f)	{ #_f, offsetof(struct kbloom_dleft_xdp_stats, _f) }

static const struct {
	const char *name;
	size_t off;
} ct_stats[] = {
	CT_STAT(inserted), CT_STAT(overflows), CT_STAT(saturations),
	CT_STAT(deleted), CT_STAT(del_miss), CT_STAT(hits), CT_STAT(misses),
	CT_STAT(dropped), CT_STAT(races), CT_STAT(other), CT_STAT(malformed),
	CT_STAT(not_ready),
};

static __u64 ct_stat(const struct kbloom_dleft_xdp_stats *st, size_t i)
{
	return *(const __u64 *)((const char *)st + ct_stats[i].off);
}

static void stats_out(const struct ctl *c, const char *name,
		      const struct kbloom_dleft_params *p,
		      const struct kbloom_dleft_xdp_stats *st)
{
	const struct kb_shape *s = &p->shape;
	struct json j;
	size_t i;

	if (!c->set[CO_JSON]) {
		printf("conntrack %s: %u subtables of %llu buckets of %u cells, %u-bit remainders, %u-bit counters, layout %s, miss %s\n",
		       name, s->tables, (unsigned long long)s->buckets,
		       s->slots, s->fp_bits, s->counter_bits,
		       dl_layout_name(s->update), miss_words[p->miss ? 1 : 0]);
		for (i = 0; i < ARRAY_SIZE(ct_stats); i++)
			printf("%-12s %llu\n", ct_stats[i].name,
			       (unsigned long long)ct_stat(st, i));
		return;
	}
	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "conntrack", name);
	json_ku64(&j, "tables", s->tables);
	json_ku64(&j, "buckets", s->buckets);
	json_ku64(&j, "slots", s->slots);
	json_ku64(&j, "fp_bits", s->fp_bits);
	json_ku64(&j, "counter_bits", s->counter_bits);
	json_kstr(&j, "layout", dl_layout_name(s->update));
	json_kstr(&j, "miss", miss_words[p->miss ? 1 : 0]);
	for (i = 0; i < ARRAY_SIZE(ct_stats); i++)
		json_ku64(&j, ct_stats[i].name, ct_stat(st, i));
	json_obj_end(&j);
	json_end(&j);
}

static int cmd_stats(struct ctl *c, int argc, char **argv)
{
	struct kbloom_dleft_xdp_stats st;
	struct kbloom_dleft_params p;
	struct kbloom_inst *in = NULL;
	int ret;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: count_open(c, argv[0], XK_CONNTRACK, &in);
	if (ret)
		return ret;
	ret = kbloom_xdp_conntrack_params(in, &p);
	ret = ret ?: kbloom_xdp_conntrack_stats(in, &st);
	kbloom_inst_close(in);
	if (ret)
		return xdp_fail(c, ret, "%s %s", c->cmd_path, argv[0]);
	if (ctl_quiet(c))
		return KBCTL_OK;
	stats_out(c, argv[0], &p, &st);
	return ctl_flush_stdout(c);
}

/* ---- conntrack test ------------------------------------------------------------ */

/* ADDR:PORT or [ADDR6]:PORT into 16 address bytes, the length, the port. */
static int ct_endpoint(const struct ctl *c, const char *what, const char *s,
		       __u8 addr[16], __u32 *len, __be16 *port)
{
	const char *colon = strrchr(s, ':');
	char host[64];
	size_t n = colon ? (size_t)(colon - s) : 0;
	__u64 p;

	if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
		s++;
		n -= 2;
	}
	if (!colon || !n || n >= sizeof(host) ||
	    arg_u64(colon + 1, 0, 65535, &p))
		return ctl_usage(c, "%s '%s': not ADDR:PORT (allowed: 10.0.0.1:80, [fd00::1]:80)",
				 what, s);
	memcpy(host, s, n);
	host[n] = 0;
	memset(addr, 0, 16);
	*port = htons((__u16)p);
	return xdp_arg_addr(c, what, host, false, addr, len);
}

static int cmd_test(struct ctl *c, int argc, char **argv)
{
	__u8 src[16], dst[16];
	struct kbloom_dleft_flow k;
	struct kbloom_inst *in = NULL;
	__u32 slen, dlen;
	__be16 sp, dp;
	__u64 copies = 0;
	struct json j;
	int ret;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: ct_endpoint(c, "SRC:PORT", argv[1], src, &slen, &sp);
	ret = ret ?: ct_endpoint(c, "DST:PORT", argv[2], dst, &dlen, &dp);
	if (!ret && slen != dlen)
		ret = ctl_usage(c, "DST:PORT '%s': not of the family of SRC:PORT (allowed: both IPv4 or both IPv6)",
				argv[2]);
	ret = ret ?: count_open(c, argv[0], XK_CONNTRACK, &in);
	if (ret)
		return ret;
	kb_dleft_flow_key(&k, slen == 4 ? 4 : 6, src, sp, dst, dp);
	ret = kbloom_xdp_conntrack_lookup(in, &k, &copies);
	kbloom_inst_close(in);
	if (ret)
		return xdp_fail(c, ret, "%s %s", c->cmd_path, argv[0]);
	if (c->set[CO_JSON] && !ctl_quiet(c)) {
		json_init(&j, stdout);
		json_obj(&j);
		json_kstr(&j, "conntrack", argv[0]);
		json_kstr(&j, "src", argv[1]);
		json_kstr(&j, "dst", argv[2]);
		json_kbool(&j, "tracked", copies);
		json_ku64(&j, "copies", copies);
		json_obj_end(&j);
		json_end(&j);
	} else if (!ctl_quiet(c)) {
		printf("%s %s: %s (%llu cop%s)\n", argv[1], argv[2],
		       copies ? "tracked" : "not tracked",
		       (unsigned long long)copies, copies == 1 ? "y" : "ies");
	}
	ret = ctl_flush_stdout(c);
	return ret ? ret : copies ? KBCTL_OK : KBCTL_ABSENT;
}

/* ---- conntrack miss ------------------------------------------------------------ */

static int cmd_miss(struct ctl *c, int argc, char **argv)
{
	struct kbloom_inst *in = NULL;
	char all[32];
	int miss, ret;

	ret = xdp_arg_name(c, argv[0]);
	if (ret)
		return ret;
	miss = arg_pick(argv[1], miss_words);
	if (miss < 0) {
		arg_words(all, sizeof(all), miss_words);
		return ctl_usage(c, "miss '%s': unknown (allowed: %s)", argv[1],
				 all);
	}
	ret = count_open(c, argv[0], XK_CONNTRACK, &in);
	if (ret)
		return ret;
	ret = kbloom_xdp_conntrack_set_miss(in, miss);
	kbloom_inst_close(in);
	return ret ? xdp_fail(c, ret, "%s %s", c->cmd_path, argv[0]) :
		     KBCTL_OK;
}

/* ---- conntrack save, load -------------------------------------------------------- */

static int cmd_save(struct ctl *c, int argc, char **argv)
{
	struct kbloom_inst *in = NULL;
	struct kbloom_dleft *f = NULL;
	size_t n = 0, len = 0;
	void *img = NULL;
	char op[160];
	int ret;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: count_open(c, argv[0], XK_CONNTRACK, &in);
	if (ret)
		return ret;
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, argv[0]);
	ret = kbloom_xdp_conntrack_export(in, &f);
	kbloom_inst_close(in);
	if (!ret) {
		n = kbloom_dleft_image_size(f);
		img = malloc(n);
		ret = img ? kbloom_dleft_save(f, img, n, &len) : -ENOMEM;
	}
	kbloom_dleft_destroy(f);
	return count_save_out(c, op, ret, img, len);
}

static int cmd_load(struct ctl *c, int argc, char **argv)
{
	struct kbloom_inst *in = NULL;
	struct kbloom_dleft *f = NULL;
	void *img = NULL;
	char op[160];
	size_t len;
	int ret;

	snprintf(op, sizeof(op), "%s %s", c->cmd_path, argv[0]);
	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: count_image_in(c, op, &img, &len);
	if (ret)
		return ret;
	ret = kbloom_dleft_load(img, len, &f);
	free(img);
	if (ret)
		return ctl_syserr(c, -ret, "not a d-left filter's image", "%s",
				  op);
	ret = count_open(c, argv[0], XK_CONNTRACK, &in);
	if (!ret) {
		ret = kbloom_xdp_conntrack_import(in, f);
		if (ret == -EINVAL)
			ret = ctl_syserr(c, EINVAL, "the image's shape, hash or seed is not the tracker's",
					 "%s", op);
		else if (ret)
			ret = xdp_fail(c, ret, "%s", op);
	}
	kbloom_inst_close(in);
	kbloom_dleft_destroy(f);
	return ret;
}

/* ---- xdp status ---------------------------------------------------------------- */

void conntrack_summary(const char *name, struct json *j)
{
	struct kbloom_inst *in = count_peek(name);
	struct kbloom_dleft_xdp_stats st;
	struct kbloom_dleft_params p;

	if (!in || kbloom_xdp_conntrack_params(in, &p) ||
	    kbloom_xdp_conntrack_stats(in, &st))
		goto out;
	if (j) {
		json_ku64(j, "cells", p.shape.m);
		json_kstr(j, "miss", miss_words[p.miss ? 1 : 0]);
		json_ku64(j, "flows", st.inserted - st.deleted);
	} else {
		printf("  %llu cells of %u bits, miss %s, %llu flows in (inserted less deleted)\n",
		       (unsigned long long)p.shape.m,
		       p.shape.fp_bits + p.shape.counter_bits,
		       miss_words[p.miss ? 1 : 0],
		       (unsigned long long)(st.inserted - st.deleted));
	}
out:
	kbloom_inst_close(in);
}

/* ---- the table ---------------------------------------------------------------- */

static const struct ctl_cmd conntrack_sub[] = {
	{
		.name = "stats",
		.synopsis = "NAME",
		.summary = "the tracker's shape, miss policy and counters",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_stats,
	},
	{
		.name = "test",
		.synopsis = "NAME SRC:PORT DST:PORT",
		.summary = "is a TCP flow tracked (exit 0) or not (exit 1)?",
		.help =
"The flow of either direction: a SYN inserted it, a FIN or RST deletes one\n"
"copy.  ADDR:PORT is IPv4 (10.0.0.1:80) or IPv6 in brackets ([fd00::1]:80).\n"
"A flow never seen is reported tracked at the filter's false-positive rate.\n",
		.min_args = 3,
		.max_args = 3,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_test,
	},
	{
		.name = "miss",
		.synopsis = "NAME pass|drop",
		.summary = "pass or drop the segments of flows the tracker does not know",
		.min_args = 2,
		.max_args = 2,
		.run = cmd_miss,
	},
	{
		.name = "save",
		.synopsis = "NAME [-o FILE|-]",
		.summary = "write the tracker's cells as a d-left image (libkbloom, kbloom.ko)",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_OUTPUT),
		.run = cmd_save,
	},
	{
		.name = "load",
		.synopsis = "NAME [-i FILE|-]",
		.summary = "replace the tracker's cells with an image's (same shape, hash, seed)",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_INPUT),
		.run = cmd_load,
	},
	{ 0 }
};

const struct ctl_cmd conntrack_cmds[] = {
	{
		.name = "conntrack",
		.synopsis = "stats|test|miss|save|load NAME ...",
		.summary = "the XDP d-left connection tracker (xdp attach conntrack)",
		.sub = conntrack_sub,
	},
	{ 0 }
};
