// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the set of a gate instance ("xdp attach gate"): a blocked
 * filter of addresses in front of an exact hash map.  A packet whose
 * address the filter says is definitely absent takes the fast path; a
 * "possibly present" is confirmed in the exact map, so the gate never
 * acts on a false positive (it counts them).
 *
 *   gate add|del NAME ADDR... | -f FILE | -    (gate_set.c)
 *   gate test NAME ADDR...
 *   gate list|stats NAME
 *   gate mode NAME monitor|deny|allow [match src|dst]
 *   gate adapt NAME on [above P] [below Q] | off
 *   gate rebuild NAME [SIZE]
 *   gate load|save NAME FILE     (a cuckoo gate: gate_cuckoo.c)
 *   gate load-set|save-set NAME FILE  (the set as an image: gate_setimg.c,
 *                                     gate_set.c)
 *
 * A kfunc gate ("xdp attach gate ... module-filter F") tests a kbloom.ko
 * filter instead: add and del go to it too, test and stats show what it
 * says, and there is nothing to rebuild.  A cuckoo gate ("xdp attach
 * gate ... filter cuckoo") deletes from its filter on del; its stats
 * lines are gate_cuckoo.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "kbloomctl.h"
#include "libkbloom_xdp.h"

const char *gate_mode_name(__u32 mode)
{
	switch (mode) {
	case KBLOOM_GATE_MONITOR:
		return "monitor";
	case KBLOOM_GATE_DENY:
		return "deny";
	case KBLOOM_GATE_ALLOW:
		return "allow";
	}
	return "unknown";
}

static int gate_cfg_read(struct kbloom_xdp *x, struct kbloom_gate_cfg *cfg)
{
	__u32 zero = 0;
	int fd = xdp_pin_fd(x, "gate_config"), ret;

	if (fd < 0)
		return fd;
	ret = bpf_map_lookup_elem(fd, &zero, cfg) ? -errno : 0;
	close(fd);
	return ret;
}

/* Walk gate_exact: count its keys, and hand each to @fn when given. */
static int gate_walk(struct kbloom_xdp *x, __u64 *n,
		     void (*fn)(void *arg, const struct kbloom_addr_key *k),
		     void *arg)
{
	struct kbloom_addr_key key, next;
	int fd = xdp_pin_fd(x, "gate_exact"), ret;

	*n = 0;
	if (fd < 0)
		return fd;
	for (ret = bpf_map_get_next_key(fd, NULL, &next); !ret;
	     ret = bpf_map_get_next_key(fd, &key, &next)) {
		key = next;
		(*n)++;
		if (fn)
			fn(arg, &key);
	}
	close(fd);
	return 0;
}

static int gate_count(struct kbloom_xdp *x, __u64 *n)
{
	return gate_walk(x, n, NULL, NULL);
}

/* 1: @addr is in the set (gate_exact); 0: not; -errno. */
static int gate_member(int exact_fd, const __u8 *addr, __u32 len)
{
	struct kbloom_addr_key k;
	__u32 v;

	memset(&k, 0, sizeof(k));
	k.len = len;
	memcpy(k.addr, addr, len);
	if (!bpf_map_lookup_elem(exact_fd, &k, &v))
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

struct addrs {
	int n;
	__u8 (*a)[16];
	__u32 *len;
	char **text;
};

static int addrs_parse(const struct ctl *c, int argc, char **argv,
		       struct addrs *as)
{
	int i, ret;

	as->n = argc;
	as->text = argv;
	as->a = calloc(argc, sizeof(*as->a));
	as->len = calloc(argc, sizeof(*as->len));
	if (!as->a || !as->len)
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	for (i = 0; i < argc; i++) {
		ret = xdp_arg_addr(c, "ADDR", argv[i], false, as->a[i],
				   &as->len[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static void addrs_free(struct addrs *as)
{
	free(as->a);
	free(as->len);
}

/* ---- add, del, test ----------------------------------------------------- */

/*
 * A kfunc gate: its module filter's name into @mf and /dev/kbloom into
 * *@dev; a map-backed gate: *@dev = -1.  Exit 3 when the gate has no
 * module filter.
 */
static int gate_module_open(struct ctl *c, struct kbloom_xdp *x,
			    char mf[KBLOOM_NAME_LEN], int *dev)
{
	int ret;

	*dev = -1;
	if (kbloom_xdp_variant(x) != KBLOOM_XDP_VARIANT_KFUNC)
		return 0;
	ret = kbloom_xdp_module_filter(x, 0, mf);
	if (ret)
		return ctl_syserr(c, ret, "a kfunc gate without a module filter; xdp attach gate NAME ... module-filter F",
				  "%s", c->cmd_path);
	*dev = kbloom_dev_open(c->dev_path);
	if (*dev < 0)
		return ctl_syserr(c, *dev, NULL, "%s: open %s", c->cmd_path,
				  c->dev_path);
	return 0;
}

/* What the map-backed filter (blocked or cuckoo) says of an address. */
static int gate_filter_test(struct kbloom_xdp *x, const __u8 *a, __u32 len)
{
	if (kbloom_xdp_variant(x) == KBLOOM_XDP_VARIANT_CUCKOO)
		return kbloom_gate_cuckoo_test(x, a, len);
	return kbloom_xdp_filter_test(x, 0, a, len);
}

static int cmd_test(struct ctl *c, int argc, char **argv)
{
	struct kbloom_xdp *x = NULL;
	struct addrs as = { 0 };
	int i, exact = -1, dev = -1, ret, in, f;
	int *res_in = NULL, *res_f = NULL, members = 0;
	char mf[KBLOOM_NAME_LEN];
	struct json j;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: addrs_parse(c, argc - 1, argv + 1, &as);
	if (ret)
		goto out;
	res_in = calloc(as.n, sizeof(int));
	res_f = calloc(as.n, sizeof(int));
	if (!res_in || !res_f) {
		ret = ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
		goto out;
	}
	ret = xdp_open(c, argv[0], NULL, XK_GATE, &x);
	if (ret)
		goto out;
	exact = xdp_pin_fd(x, "gate_exact");
	if (exact < 0) {
		ret = xdp_fail(c, exact, "%s %s: open gate_exact", c->cmd_path,
			       argv[0]);
		goto out;
	}
	ret = gate_module_open(c, x, mf, &dev);
	if (ret)
		goto out;
	for (i = 0; i < as.n; i++) {
		f = dev >= 0 ? (int)kbloom_dev_test_batch(dev, mf, as.a[i],
							  as.len[i], as.len[i],
							  1, NULL, NULL) :
		    gate_filter_test(x, as.a[i], as.len[i]);
		in = gate_member(exact, as.a[i], as.len[i]);
		if (f < 0 || in < 0) {
			ret = xdp_fail(c, f < 0 ? f : in, "%s %s: %s",
				       c->cmd_path, argv[0], as.text[i]);
			goto out;
		}
		res_f[i] = f;
		res_in[i] = in;
		members += in;
	}
	if (ctl_quiet(c))
		goto done;
	if (c->set[CO_JSON]) {
		json_init(&j, stdout);
		json_obj(&j);
		json_kstr(&j, "gate", argv[0]);
		json_ku64(&j, "tested", as.n);
		json_ku64(&j, "in_set", members);
		json_key(&j, "addresses");
		json_arr(&j);
	}
	for (i = 0; i < as.n; i++) {
		if (c->set[CO_JSON]) {
			json_obj(&j);
			json_kstr(&j, "address", as.text[i]);
			json_kbool(&j, "in_set", res_in[i]);
			json_kbool(&j, "filter", res_f[i]);
			json_obj_end(&j);
			continue;
		}
		printf("%s: %s (filter: %s)\n", as.text[i],
		       res_in[i] ? "in the set" : "not in the set",
		       !res_f[i] ? "definitely absent" :
		       res_in[i] ? "possibly present" :
				   "possibly present, a false positive");
	}
	if (c->set[CO_JSON]) {
		json_arr_end(&j);
		json_obj_end(&j);
		json_end(&j);
	}
	ret = ctl_flush_stdout(c);
	if (ret)
		goto out;
done:
	ret = members == as.n ? KBCTL_OK : KBCTL_ABSENT;
out:
	if (exact >= 0)
		close(exact);
	kbloom_dev_close(dev);
	kbloom_xdp_close(x);
	addrs_free(&as);
	free(res_in);
	free(res_f);
	return ret;
}

/* ---- list, mode, stats, rebuild --------------------------------------------- */

struct list_ctx {
	struct ctl *c;
	struct json *j;
};

static void list_one(void *arg, const struct kbloom_addr_key *k)
{
	struct list_ctx *lc = arg;
	char a[64];

	xdp_addr_str(k->addr, k->len, a, sizeof(a));
	if (lc->c->set[CO_JSON])
		json_str(lc->j, a);
	else
		printf("%s\n", a);
}

static int cmd_list(struct ctl *c, int argc, char **argv)
{
	struct kbloom_xdp *x = NULL;
	struct json j;
	struct list_ctx lc = { c, &j };
	__u64 n;
	int ret;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: xdp_open(c, argv[0], NULL, XK_GATE, &x);
	if (ret)
		return ret;
	if (c->set[CO_JSON] && !ctl_quiet(c)) {
		json_init(&j, stdout);
		json_arr(&j);
	}
	ret = gate_walk(x, &n, ctl_quiet(c) ? NULL : list_one, &lc);
	if (c->set[CO_JSON] && !ctl_quiet(c)) {
		json_arr_end(&j);
		json_end(&j);
	}
	kbloom_xdp_close(x);
	if (ret)
		return xdp_fail(c, ret, "%s %s", c->cmd_path, argv[0]);
	return ctl_flush_stdout(c);
}

static const char *const mode_words[] = { "monitor", "deny", "allow", NULL };
static const __u32 mode_ids[] = { KBLOOM_GATE_MONITOR, KBLOOM_GATE_DENY,
				  KBLOOM_GATE_ALLOW };
static const char *const match_words[] = { "src", "dst", NULL };

struct mode_args {
	__u32 dst;
};

static const struct kw mode_kw[] = {
	KW("match", "src|dst", KWT_ENUM, struct mode_args, dst,
	   .words = match_words),
	{ 0 }
};

static const struct kw_table mode_table = { .kw = mode_kw };

static int cmd_mode(struct ctl *c, int argc, char **argv)
{
	struct kbloom_xdp *x = NULL;
	struct mode_args a = { 0 };
	struct kbloom_gate_cfg cfg;
	__u32 mode, flags;
	char words[64];
	__u64 given;
	int m, ret;

	ret = xdp_arg_name(c, argv[0]);
	if (ret)
		return ret;
	m = arg_pick(argv[1], mode_words);
	if (m < 0) {
		arg_words(words, sizeof(words), mode_words);
		return ctl_usage(c, "MODE '%s': unknown (allowed: %s)", argv[1],
				 words);
	}
	mode = mode_ids[m];
	ret = kw_parse(c, &mode_table, argc - 2, argv + 2, &a, &given);
	ret = ret ?: xdp_open(c, argv[0], NULL, XK_GATE, &x);
	if (ret)
		return ret;
	ret = gate_cfg_read(x, &cfg);
	if (!ret) {
		flags = cfg.flags;
		if (given)
			flags = a.dst ? flags | KBLOOM_GATE_F_DST :
					flags & ~KBLOOM_GATE_F_DST;
		ret = kbloom_gate_set_mode(x, mode, flags);
	}
	kbloom_xdp_close(x);
	if (ret)
		return xdp_fail(c, ret, "%s %s", c->cmd_path, argv[0]);
	xdp_notes(c);
	return KBCTL_OK;
}

static const char *const onoff_words[] = { "off", "on", NULL };

struct adapt_args {
	__u32 above;
	__u32 below;
};

static const struct kw adapt_kw[] = {
	KW("above", "PERCENT", KWT_U32, struct adapt_args, above, .min = 1,
	   .max = 100, .extra = "positives in a window that switch to direct"),
	KW("below", "PERCENT", KWT_U32, struct adapt_args, below, .max = 100,
	   .extra = "positives in a window that switch back"),
	{ 0 }
};

static const struct kw_table adapt_table = { .kw = adapt_kw };

static int cmd_adapt(struct ctl *c, int argc, char **argv)
{
	struct adapt_args a = { KBLOOM_GATE_ADAPT_ON_DEF,
				KBLOOM_GATE_ADAPT_OFF_DEF };
	struct kbloom_xdp *x = NULL;
	char words[16];
	__u64 given;
	int on, ret;

	ret = xdp_arg_name(c, argv[0]);
	if (ret)
		return ret;
	on = arg_pick(argv[1], onoff_words);
	if (on < 0) {
		arg_words(words, sizeof(words), onoff_words);
		return ctl_usage(c, "MODE '%s': unknown (allowed: %s)", argv[1],
				 words);
	}
	ret = kw_parse(c, &adapt_table, argc - 2, argv + 2, &a, &given);
	if (ret)
		return ret;
	if (!on && given)
		return ctl_usage(c, "above/below: only with on");
	if (a.below > a.above)
		return ctl_usage(c, "below %u: more than above %u (allowed: 0..above)",
				 a.below, a.above);
	ret = xdp_open(c, argv[0], NULL, XK_GATE, &x);
	if (ret)
		return ret;
	ret = kbloom_gate_set_adapt(x, on ? a.above : 0, on ? a.below : 0);
	kbloom_xdp_close(x);
	if (ret)
		return xdp_fail(c, ret, "%s %s", c->cmd_path, argv[0]);
	xdp_notes(c);
	return KBCTL_OK;
}

static void stats_adapt_text(const struct kbloom_gate_cfg *cfg,
			     const struct kbloom_gate_stats *st)
{
	if (cfg->adapt_on)
		printf("adaptive:          on, direct at %u%% positives, back below %u%%; %llu CPUs direct now\n",
		       cfg->adapt_on, cfg->adapt_off,
		       (unsigned long long)st->direct_now);
	else
		printf("adaptive:          off\n");
	printf("direct_lookups:    %llu\n",
	       (unsigned long long)st->direct_lookups);
	printf("direct_hits:       %llu\n", (unsigned long long)st->direct_hits);
	printf("to_direct:         %llu\n", (unsigned long long)st->to_direct);
	printf("to_filter:         %llu\n", (unsigned long long)st->to_filter);
}

static void stats_adapt_json(struct json *j, const struct kbloom_gate_cfg *cfg,
			     const struct kbloom_gate_stats *st)
{
	json_kbool(j, "adaptive", cfg->adapt_on != 0);
	json_ku64(j, "adapt_on", cfg->adapt_on);
	json_ku64(j, "adapt_off", cfg->adapt_off);
	json_ku64(j, "direct_now", st->direct_now);
	json_ku64(j, "direct_lookups", st->direct_lookups);
	json_ku64(j, "direct_hits", st->direct_hits);
	json_ku64(j, "to_direct", st->to_direct);
	json_ku64(j, "to_filter", st->to_filter);
}

static void stats_filter_text(const struct kbloom_xdp_filter_info *fi,
			      int kf, const char *mf)
{
	char a[32], b[32];

	if (kf)
		printf("variant:           kfunc, module filter %s%s\n",
		       mf[0] ? mf : "none", mf[0] && !fi->m ?
		       " (not in kbloom.ko)" : "");
	else
		printf("variant:           map\n");
	printf("filter:            %llu %s, k %u, hash %s, seed 0x%016llx\n",
	       (unsigned long long)fi->m,
	       fi->params.type == KBLOOM_TYPE_COUNTING ? "counters" : "bits",
	       fi->params.k, hash_name(fi->params.hash_id),
	       (unsigned long long)fi->params.seed);
	printf("inserted:          %llu\n",
	       (unsigned long long)fi->params.inserted);
	printf("occupancy:         %.2f%% (%llu bits set)\n",
	       fi->occupancy_ppm / 1e4, (unsigned long long)fi->ones);
	printf("n_est:             %llu\n", (unsigned long long)fi->n_est);
	fmt_fpr_now(a, sizeof(a), fi->fpr_now_pico, fi->params.inserted);
	if (fi->params.capacity) {
		fmt_prob(b, sizeof(b), fi->params.fpr_pico);
		printf("fpr:               %s now, target %s\n", a, b);
	} else {
		printf("fpr:               %s now, no target\n", a);
	}
}

static void stats_text(const char *name, const struct kbloom_gate_cfg *cfg,
		       __u64 keys,
		       const struct kbloom_xdp_filter_info *fi,
		       const struct kbloom_gate_stats *st, int kf,
		       const char *mf, const struct kbloom_gate_cuckoo_info *ci)
{
	printf("gate:              %s\n", name);
	printf("policy:            %s, match %s\n", gate_mode_name(cfg->mode),
	       cfg->flags & KBLOOM_GATE_F_DST ? "dst" : "src");
	printf("set:               %llu addresses\n", (unsigned long long)keys);
	if (ci)
		gate_cuckoo_text(ci);
	else
		stats_filter_text(fi, kf, mf);
	printf("packets:           %llu\n", (unsigned long long)st->packets);
	printf("not_ip:            %llu\n", (unsigned long long)st->not_ip);
	printf("malformed:         %llu\n", (unsigned long long)st->malformed);
	printf("filter_negatives:  %llu\n",
	       (unsigned long long)st->filter_negatives);
	printf("exact_lookups:     %llu\n",
	       (unsigned long long)st->exact_lookups);
	printf("exact_hits:        %llu\n", (unsigned long long)st->exact_hits);
	printf("false_positives:   %llu\n",
	       (unsigned long long)st->false_positives);
	printf("errors:            %llu\n", (unsigned long long)st->errors);
	printf("drops:             %llu\n", (unsigned long long)st->drops);
	printf("passed:            %llu\n", (unsigned long long)st->passed);
	stats_adapt_text(cfg, st);
}

static void stats_filter_json(struct json *j,
			      const struct kbloom_xdp_filter_info *fi, int kf,
			      const char *mf)
{
	char seed[24];

	json_kstr(j, "variant", kf ? "kfunc" : "map");
	json_key(j, "module_filter");
	if (mf[0])
		json_str(j, mf);
	else
		json_null(j);
	json_ku64(j, "m", fi->m);
	json_ku64(j, "k", fi->params.k);
	json_kstr(j, "hash", hash_name(fi->params.hash_id));
	snprintf(seed, sizeof(seed), "0x%016llx",
		 (unsigned long long)fi->params.seed);
	json_kstr(j, "seed", seed);
	json_ku64(j, "inserted", fi->params.inserted);
	json_ku64(j, "ones", fi->ones);
	json_kdouble(j, "occupancy", fi->occupancy_ppm / 1e6);
	json_ku64(j, "n_est", fi->n_est);
	json_kdouble(j, "fpr_now", pico_to_double(fi->fpr_now_pico));
	json_key(j, "fpr_target");
	if (fi->params.capacity)
		json_double(j, pico_to_double(fi->params.fpr_pico));
	else
		json_null(j);
}

static void stats_json(const char *name, const struct kbloom_gate_cfg *cfg,
		       __u64 keys,
		       const struct kbloom_xdp_filter_info *fi,
		       const struct kbloom_gate_stats *st, int kf,
		       const char *mf, const struct kbloom_gate_cuckoo_info *ci)
{
	struct json j;

	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "gate", name);
	json_kstr(&j, "policy", gate_mode_name(cfg->mode));
	json_kstr(&j, "match", cfg->flags & KBLOOM_GATE_F_DST ? "dst" : "src");
	json_ku64(&j, "keys", keys);
	if (ci)
		gate_cuckoo_json(&j, ci);
	else
		stats_filter_json(&j, fi, kf, mf);
	json_ku64(&j, "packets", st->packets);
	json_ku64(&j, "not_ip", st->not_ip);
	json_ku64(&j, "malformed", st->malformed);
	json_ku64(&j, "filter_negatives", st->filter_negatives);
	json_ku64(&j, "exact_lookups", st->exact_lookups);
	json_ku64(&j, "exact_hits", st->exact_hits);
	json_ku64(&j, "false_positives", st->false_positives);
	json_ku64(&j, "errors", st->errors);
	json_ku64(&j, "drops", st->drops);
	json_ku64(&j, "passed", st->passed);
	stats_adapt_json(&j, cfg, st);
	json_obj_end(&j);
	json_end(&j);
}

static int cmd_stats(struct ctl *c, int argc, char **argv)
{
	struct kbloom_gate_cuckoo_info cinfo, *ci = NULL;
	struct kbloom_xdp_filter_info fi = { 0 };
	struct kbloom_gate_stats st;
	struct kbloom_xdp *x = NULL;
	char mf[KBLOOM_NAME_LEN] = "";
	struct kbloom_gate_cfg cfg;
	__u64 keys = 0;
	int ret, kf = 0;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: xdp_open(c, argv[0], NULL, XK_GATE, &x);
	if (ret)
		return ret;
	if (kbloom_xdp_variant(x) == KBLOOM_XDP_VARIANT_CUCKOO)
		ci = &cinfo;
	ret = kbloom_gate_stats(x, &st);
	ret = ret ?: ci ? kbloom_gate_cuckoo_info(x, ci) :
			  kbloom_xdp_filter_info(x, 0, &fi);
	ret = ret ?: gate_cfg_read(x, &cfg);
	ret = ret ?: gate_count(x, &keys);
	if (!ret && !ci)
		kf = xdp_module_info(c, x, 0, &fi, mf);
	kbloom_xdp_close(x);
	if (ret)
		return xdp_fail(c, ret, "%s %s", c->cmd_path, argv[0]);
	if (ctl_quiet(c))
		return KBCTL_OK;
	if (c->set[CO_JSON])
		stats_json(argv[0], &cfg, keys, &fi, &st, kf, mf, ci);
	else
		stats_text(argv[0], &cfg, keys, &fi, &st, kf, mf, ci);
	return ctl_flush_stdout(c);
}

struct rebuild_args {
	struct kbloom_xdp_geom g;
};

static const struct kw rebuild_kw[] = {
	KW_GEOM(struct rebuild_args, g.capacity, g.fpr_pico, g.m, g.k,
		g.hash_id, g.seed),
	{ 0 }
};

static const struct kw_table rebuild_table = { .kw = rebuild_kw };

static int cmd_rebuild(struct ctl *c, int argc, char **argv)
{
	struct rebuild_args a = { 0 };
	struct kbloom_xdp *x = NULL;
	bool given;
	__u64 seen;
	int ret;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: kw_parse(c, &rebuild_table, argc - 1, argv + 1, &a,
			      &seen);
	ret = ret ?: xdp_geom_check(c, &rebuild_table, seen, &a.g, &given);
	ret = ret ?: xdp_open(c, argv[0], NULL, XK_GATE, &x);
	if (ret)
		return ret;
	ret = kbloom_gate_rebuild(x, given ? &a.g : NULL);
	kbloom_xdp_close(x);
	if (ret)
		return xdp_fail(c, ret, "%s %s", c->cmd_path, argv[0]);
	xdp_notes(c);
	return KBCTL_OK;
}

/* ---- the table ---------------------------------------------------------------- */

static const struct ctl_cmd gate_sub[] = {
	{
		.name = "add",
		.synopsis = "NAME ADDR... | -f FILE | -",
		.summary = "add IPv4/IPv6 addresses to the set",
		.help =
"Each address goes into the exact map, then into the filter (of a kfunc\n"
"gate: its module filter too): when add returns it is in force.  The\n"
"addresses come from the arguments, or one per line from FILE (-f) or\n"
"standard input (-f - or a lone -).  Every address is parsed first (bad\n"
"lines are reported with their numbers) and the batch is applied whole\n"
"or not at all: if one address fails, nothing is added.  -exist: an\n"
"address in the set already is skipped, not an error.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST) | CTL_OPT(CO_FILE),
		.run = gate_cmd_add,
	},
	{
		.name = "del",
		.synopsis = "NAME ADDR... | -f FILE | -",
		.summary = "remove addresses from the set",
		.help =
"An address leaves the exact map at once; its bits stay in the filter\n"
"(its packets then cost one exact lookup, counted as a false positive)\n"
"until gate rebuild.  A kfunc gate also deletes it from its module\n"
"filter, which a counting filter does at once; a cuckoo gate (filter\n"
"cuckoo) deletes its fingerprint from its filter at once.  Addresses\n"
"as for add (-f FILE, -), all or nothing.  -exist: an address not in the\n"
"set is skipped, not an error.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST) | CTL_OPT(CO_FILE),
		.run = gate_cmd_del,
	},
	{
		.name = "test",
		.synopsis = "NAME ADDR...",
		.summary = "test addresses: exit 0 if all in the set, 1 if any not",
		.help =
"Prints per address whether it is in the set and what the filter says:\n"
"definitely absent, possibly present, or possibly present for an address\n"
"not in the set (a false positive, which the gate catches in its exact\n"
"map).  Exit status 0 when every address is in the set, 1 otherwise.\n",
		.min_args = 2,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_test,
	},
	{
		.name = "list",
		.synopsis = "NAME",
		.summary = "the addresses in the set",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_list,
	},
	{
		.name = "mode",
		.synopsis = "NAME monitor|deny|allow [match src|dst]",
		.summary = "what the gate does: count only, drop the set, drop all else",
		.help =
"  monitor  count, never drop\n"
"  deny     drop packets whose address is in the set\n"
"  allow    drop IP packets whose address is not in the set\n"
"match: the source address (src) or the destination (dst); unchanged when\n"
"not given.  Takes effect with the next packet.\n",
		.min_args = 2,
		.max_args = 4,
		.run = cmd_mode,
	},
	{
		.name = "adapt",
		.synopsis = "NAME on [above P] [below Q] | off",
		.summary = "the adaptive mode: skip the filter while most addresses are in the set",
		.help =
"Each CPU counts, over windows of 64 IP packets, the addresses the gate\n"
"found possibly present.  A window with at least above P percent of them\n"
"(default 75) puts the CPU in direct mode: it looks addresses up in the\n"
"exact set at once, without the filter, whose saving is gone when most\n"
"addresses are listed (a flood of blocked sources); a window below Q\n"
"percent (default 50) puts it back.  Verdicts never change.  gate stats\n"
"shows the setting, the CPUs in direct mode, direct lookups and\n"
"switches.  Off in a new gate.\n",
		.min_args = 2,
		.max_args = 6,
		.run = cmd_adapt,
	},
	{
		.name = "stats",
		.synopsis = "NAME",
		.summary = "policy, set size, filter statistics and packet counters",
		.help =
"The filter: m, k, hash and seed, keys inserted, occupancy, n_est and the\n"
"false-positive rate now against the target.  The counters: packets,\n"
"not IP, malformed, filter negatives (no exact lookup needed), exact\n"
"lookups and hits, false positives caught, errors, drops and passes.\n",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_stats,
	},
	{
		.name = "rebuild",
		.synopsis = "NAME [capacity N fpr P | bits M hashes K] [hash fast|siphash] [seed S]",
		.summary = "rebuild the filter from the set (optionally resized)",
		.help =
"A new filter holding exactly the addresses of the set is built and\n"
"swapped in whole: every packet is tested against the old filter or the\n"
"new one.  Clears the bits of deleted addresses; with a size, resizes.\n"
"Not for a kfunc gate: its filter is kbloom.ko's.  A cuckoo gate is\n"
"re-planned from capacity N fpr P (bits and hashes are refused).\n",
		.min_args = 1,
		.max_args = 13,
		.run = cmd_rebuild,
	},
	{
		.name = "load",
		.synopsis = "NAME FILE",
		.summary = "replace a cuckoo gate's filter with an image",
		.help =
"FILE: a version-3 cuckoo filter image (kbloomctl save of a cuckoo filter\n"
"of kbloom.ko, libkbloom_cuckoo, gate save), of any size with buckets of\n"
"at most 64 bits.  It is verified, the addresses of the set it lacks are\n"
"added to it, and it is swapped in whole.  Only for a gate made with\n"
"filter cuckoo (a blocked gate: map load).\n",
		.min_args = 2,
		.max_args = 2,
		.run = gate_cmd_load,
	},
	{
		.name = "load-set",
		.synopsis = "NAME FILE",
		.summary = "add the addresses of a gate save-set image to the set",
		.help =
"FILE: an image of gate save-set (of a gate of any variant).  It is\n"
"verified first (magic, version, length, checksum), then its addresses\n"
"are added as one batch, all or nothing, as gate add -f does: into an\n"
"empty gate, the saved set and its filter bits.  -exist: an address in\n"
"the set already is skipped, not an error.\n",
		.min_args = 2,
		.max_args = 2,
		.opts = CTL_OPT(CO_EXIST),
		.run = gate_cmd_load_set,
	},
	{
		.name = "save-set",
		.synopsis = "NAME FILE",
		.summary = "write the set's addresses as an image",
		.help =
"The addresses of the set (the exact map) as a binary image with a\n"
"checksum, for gate load-set into this gate or another one.\n",
		.min_args = 2,
		.max_args = 2,
		.run = gate_cmd_save_set,
	},
	{
		.name = "save",
		.synopsis = "NAME FILE",
		.summary = "write a cuckoo gate's filter as an image",
		.help =
"The filter of a gate made with filter cuckoo as a version-3 image, which\n"
"kbloomctl restore loads into kbloom.ko and gate load into another gate\n"
"(a blocked gate: map save).\n",
		.min_args = 2,
		.max_args = 2,
		.run = gate_cmd_save,
	},
	{ 0 }
};

const struct ctl_cmd gate_cmds[] = {
	{
		.name = "gate",
		.synopsis = "add|del|test|list|mode|adapt|stats|rebuild|load|save|load-set|save-set ...",
		.summary = "a gate's set of addresses, its policy and counters",
		.sub = gate_sub,
	},
	{ 0 }
};
