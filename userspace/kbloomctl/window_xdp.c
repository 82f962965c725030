// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the age-partitioned window at XDP as an instance
 * (libkbloom_xdp_window.h, kind "window"):
 *
 *   xdp attach window NAME dev IFACE... (seconds T | milliseconds MS)
 *       [fpr P] [capacity N] [mode return|dedupe] [netns NS]
 *       [mode native|generic|auto]
 *   window stats NAME          the window, its clock, the counters
 *   window save NAME [-o FILE|-]   the window as an AGE_PARTITIONED image
 *
 * mode return (the default) passes return traffic only from the peers
 * the device sent to within T; mode dedupe drops a source's repeats
 * within T.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbloomctl.h"
#include "libkbloom_xdp_window.h"
#include "libkbloom_xdp_count.h"

#define WX_NS_PER_S	1000000000ULL
#define WX_NS_PER_MS	1000000ULL

static const char *const wx_mode_words[] = { "return", "dedupe", NULL };

/* ---- xdp attach window ------------------------------------------------------ */

struct wx_args {
	struct count_attach at;
	struct kbloom_xdp_window_opts o;
	__u64 seconds;
	__u64 ms;
};

#define WXA(_n, _a, _t, _m, ...)	KW(_n, _a, _t, struct wx_args, _m, __VA_ARGS__)

/* dev, mode and netns first: the other rows (bit 3 on) make the instance */
static const struct kw wx_kw[] = {
	WXA("dev", "IFACE...", KWT_LIST, at.devl, .required = true),
	WXA("mode", "native|generic|auto", KWT_ENUM, at.mode,
	    .words = xdp_mode_words,
	    .extra = "unknown (allowed: return|dedupe, native|generic|auto)"),
	WXA("netns", "NS", KWT_NETNS, at.netns),
	WXA("seconds", "T", KWT_U64, seconds, .min = 1, .max = 1ULL << 31,
	    .extra = "the window"),
	WXA("milliseconds", "MS", KWT_U64, ms, .min = 1, .max = 1ULL << 41,
	    .extra = "the window"),
	WXA("fpr", "P", KWT_PROB, o.fpr_pico),
	WXA("capacity", "N", KWT_U64, o.capacity, .min = 1,
	    .max = KBLOOM_M_MAX, .extra = "peers expected within the window"),
	{ 0 }
};

static const struct kw_table wx_table = { .kw = wx_kw };

/*
 * Take "mode return|dedupe" out of @argv into @a (the other mode, of the
 * link, stays for kw_parse()); *@n: the words left in @out.
 */
static int wx_gate_mode(struct ctl *c, struct wx_args *a, int argc,
			char **argv, char **out, int *n, bool *given)
{
	int i, m;

	*n = 0;
	for (i = 0; i < argc; i++) {
		m = i + 1 < argc && !strcmp(argv[i], "mode") ?
		    arg_pick(argv[i + 1], wx_mode_words) : -1;
		if (m < 0) {
			out[(*n)++] = argv[i];
			continue;
		}
		if (*given)
			return ctl_usage(c, "mode %s: the window's mode given twice (allowed once: return|dedupe)",
					 argv[i + 1]);
		*given = true;
		a->o.mode = (__u32)m;
		i++;
	}
	return 0;
}

/* exactly one of seconds T and milliseconds MS: the window in ns */
static int wx_window(struct ctl *c, struct wx_args *a, __u64 given)
{
	bool s = kw_has(&wx_table, given, "seconds");
	bool ms = kw_has(&wx_table, given, "milliseconds");

	if (s == ms)
		return ctl_usage(c, "window: give seconds T or milliseconds MS, not %s",
				 s ? "both" : "neither");
	a->o.window_ns = s ? a->seconds * WX_NS_PER_S : a->ms * WX_NS_PER_MS;
	if (a->o.fpr_pico && (a->o.fpr_pico < KBLOOM_P_TARGET_MIN ||
			      a->o.fpr_pico > KBLOOM_P_TARGET_MAX))
		return ctl_usage(c, "fpr: out of range (allowed: 1e-9..50%%)");
	return 0;
}

int window_xdp_attach(struct ctl *c, int argc, char **argv)
{
	struct wx_args a = { .at = { .name = argv[0], .kind = XK_WINDOW } };
	bool mode_given = false;
	__u64 given;
	char **rest;
	int n, ret;

	rest = calloc(argc > 0 ? argc : 1, sizeof(*rest));
	if (!rest)
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	ret = xdp_arg_name(c, a.at.name);
	ret = ret ?: wx_gate_mode(c, &a, argc - 1, argv + 1, rest, &n,
				  &mode_given);
	ret = ret ?: kw_parse(c, &wx_table, n, rest, &a, &given);
	if (ret)
		goto out;
	a.at.create_opts = (given & ~7ULL) || mode_given;
	if (xdp_kind_of(a.at.name) == XK_NONE || a.at.create_opts) {
		ret = wx_window(c, &a, given);
		if (ret)
			goto out;
	}
	a.at.kopts = &a.o;
	ret = count_attach(c, &a.at);
out:
	free(rest);
	return ret;
}

/* ---- window stats, save ------------------------------------------------------- */

struct wx_read {
	struct kbloom_win_xdp_params p;
	struct kbloom_win_xdp_state st;
	struct kbloom_win_xdp_stats s;
	int mode;
};

static int wx_read_inst(struct kbloom_inst *in, struct wx_read *r)
{
	int ret;

	r->mode = kbloom_xdp_window_mode(in);
	ret = r->mode < 0 ? r->mode : 0;
	ret = ret ?: kbloom_xdp_window_params(in, &r->p, &r->st);
	return ret ?: kbloom_xdp_window_stats(in, &r->s);
}

static void wx_stats_text(const char *name, const struct wx_read *r)
{
	const struct kbloom_win_xdp_stats *s = &r->s;

	printf("%s: mode %s, window %llu ms (%u generations of %llu ms), hashes %u, slices %u of %llu bits\n",
	       name, wx_mode_words[r->mode & 1],
	       (unsigned long long)(r->p.gen_ns * r->p.l / WX_NS_PER_MS),
	       r->p.l, (unsigned long long)(r->p.gen_ns / WX_NS_PER_MS),
	       r->p.k, r->p.k + r->p.l, (unsigned long long)r->p.slice_bits);
	printf("rotations %llu head %u\n",
	       (unsigned long long)r->st.rotations, r->st.head);
	printf("packets %llu inserted %llu present %llu absent %llu passed %llu dropped %llu not-ip %llu malformed %llu errors %llu\n",
	       (unsigned long long)s->packets, (unsigned long long)s->inserted,
	       (unsigned long long)s->present, (unsigned long long)s->absent,
	       (unsigned long long)s->passed, (unsigned long long)s->drops,
	       (unsigned long long)s->not_ip, (unsigned long long)s->malformed,
	       (unsigned long long)s->errors);
}

static void wx_stats_json(const char *name, const struct wx_read *r)
{
	const struct kbloom_win_xdp_stats *s = &r->s;
	struct json j;

	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "name", name);
	json_kstr(&j, "mode", wx_mode_words[r->mode & 1]);
	json_ku64(&j, "window_ns", r->p.gen_ns * r->p.l);
	json_ku64(&j, "generation_ns", r->p.gen_ns);
	json_ku64(&j, "hashes", r->p.k);
	json_ku64(&j, "extra_slices", r->p.l);
	json_ku64(&j, "slice_bits", r->p.slice_bits);
	json_ku64(&j, "rotations", r->st.rotations);
	json_ku64(&j, "packets", s->packets);
	json_ku64(&j, "inserted", s->inserted);
	json_ku64(&j, "present", s->present);
	json_ku64(&j, "absent", s->absent);
	json_ku64(&j, "passed", s->passed);
	json_ku64(&j, "dropped", s->drops);
	json_ku64(&j, "not_ip", s->not_ip);
	json_ku64(&j, "malformed", s->malformed);
	json_ku64(&j, "errors", s->errors);
	json_obj_end(&j);
	json_end(&j);
}

static int cmd_stats(struct ctl *c, int argc, char **argv)
{
	struct kbloom_inst *in = NULL;
	struct wx_read r;
	int ret;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: count_open(c, argv[0], XK_WINDOW, &in);
	if (ret)
		return ret;
	ret = wx_read_inst(in, &r);
	kbloom_inst_close(in);
	if (ret)
		return xdp_fail(c, ret, "%s %s", c->cmd_path, argv[0]);
	if (c->set[CO_JSON])
		wx_stats_json(argv[0], &r);
	else
		wx_stats_text(argv[0], &r);
	return ctl_flush_stdout(c);
}

static int cmd_save(struct ctl *c, int argc, char **argv)
{
	struct kbloom_inst *in = NULL;
	void *img = NULL;
	size_t len = 0;
	char op[160];
	int ret;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: count_open(c, argv[0], XK_WINDOW, &in);
	if (ret)
		return ret;
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, argv[0]);
	ret = kbloom_xdp_window_save_alloc(in, &img, &len);
	kbloom_inst_close(in);
	return count_save_out(c, op, ret, img, len);
}

/* ---- xdp status ---------------------------------------------------------------- */

void window_summary(const char *name, struct json *j)
{
	struct kbloom_inst *in = count_peek(name);
	struct wx_read r;

	if (!in || wx_read_inst(in, &r))
		goto out;
	if (j) {
		json_kstr(j, "mode", wx_mode_words[r.mode & 1]);
		json_ku64(j, "window_ns", r.p.gen_ns * r.p.l);
		json_ku64(j, "passed", r.s.passed);
		json_ku64(j, "dropped", r.s.drops);
	} else {
		printf("  mode %s, window %llu ms, %llu passed, %llu dropped\n",
		       wx_mode_words[r.mode & 1],
		       (unsigned long long)(r.p.gen_ns * r.p.l / WX_NS_PER_MS),
		       (unsigned long long)r.s.passed,
		       (unsigned long long)r.s.drops);
	}
out:
	kbloom_inst_close(in);
}

/* ---- the table ---------------------------------------------------------------- */

static const struct ctl_cmd window_sub[] = {
	{
		.name = "stats",
		.synopsis = "NAME",
		.summary = "the window, its generations and the counters of its programs",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_stats,
	},
	{
		.name = "save",
		.synopsis = "NAME [-o FILE|-]",
		.summary = "write the window as an age-partitioned image",
		.help =
"The image loads in libkbloom (kbloom_win_load()) and in kbloom.ko\n"
"(kbloomctl restore); its clock is the age of the current generation.\n",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_OUTPUT),
		.run = cmd_save,
	},
	{ 0 }
};

const struct ctl_cmd window_cmds[] = {
	{
		.name = "window",
		.synopsis = "stats|save NAME ...",
		.summary = "the XDP window (xdp attach window): return traffic of contacted peers, or repeats dropped",
		.sub = window_sub,
	},
	{ 0 }
};
