// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl experiment: multicast traffic-leakage experiments
 * (libkbloom_exp.h): the model at data-center scale, or the same
 * experiment on the XDP data paths in network namespaces.
 *
 * Arguments are keyword-value pairs, in the shape of the other commands
 * ("groups 10000 bits 8192,65536"); each keyword may also be written as
 * an option, "--keyword value" or "--keyword=value" ("kbloomctl
 * experiment --mode model --groups=10000"; main.c hands those to the
 * command).  Everything is checked before anything runs: a bad value is
 * one line naming the keyword and what is allowed, exit 2.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "kbloomctl.h"
#include "libkbloom_exp.h"

struct exp_cli {
	struct kb_exp_params p;
	int emulate;
	const char *out;
	int plots;
	__u32 packets;
	int verbose;
	int schemes_given;
	int groups_given;
	int topo_given;
	int sizes_given;
	int bits_given;
};

static int bad(const struct ctl *c, const char *kw, const char *v, const char *allowed)
{
	return ctl_usage(c, "%s '%s': %s", kw, v, allowed);
}

static int num(const struct ctl *c, const char *kw, const char *v,
	       __u64 min, __u64 max, __u64 *out)
{
	int err = arg_u64(v, min, max, out);

	if (err)
		return arg_bad_u64(c, kw, v, err, min, max, NULL);
	return 0;
}

static int num32(const struct ctl *c, const char *kw, const char *v,
		 __u32 min, __u32 max, __u32 *out)
{
	__u64 x;
	int err = num(c, kw, v, min, max, &x);

	if (!err)
		*out = (__u32)x;
	return err;
}

/*
 * A number the library checks (its message knows the context: an even
 * k, a step of 512): only a value that is no number, or more than 32
 * bits, is refused here, with the range allowed, @lo..@hi.
 */
static int num_lib(const struct ctl *c, const char *kw, const char *v,
		   __u64 lo, __u64 hi, const char *extra, __u64 *out)
{
	int err = arg_u64(v, 0, 0xFFFFFFFFU, out);

	if (err)
		return arg_bad_u64(c, kw, v, err, lo, hi, extra);
	return 0;
}

static int num_lib32(const struct ctl *c, const char *kw, const char *v,
		     __u32 lo, __u32 hi, const char *extra, __u32 *out)
{
	__u64 x;
	int err = num_lib(c, kw, v, lo, hi, extra, &x);

	if (!err)
		*out = (__u32)x;
	return err;
}

static int real(const struct ctl *c, const char *kw, const char *v,
		double min, double max, double *out)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (end == v || *end || errno || !isfinite(x))
		return ctl_usage(c, "%s '%s': not a number (allowed: %g..%g)",
				 kw, v, min, max);
	if (x < min || x > max)
		return ctl_usage(c, "%s '%s': out of range (allowed: %g..%g)",
				 kw, v, min, max);
	*out = x;
	return 0;
}

/*
 * A list of @sep-separated items that fits a buffer of @len: an empty
 * item (a separator leading, trailing or doubled) is a typo, not nothing.
 */
static int list_ok(const struct ctl *c, const char *kw, const char *v,
		   char sep, size_t len)
{
	const char *p;

	if (strlen(v) >= len)
		return ctl_usage(c, "%s: longer than %zu characters", kw,
				 len - 1);
	for (p = v; *p; p++)
		if (*p == sep && (p == v || p[1] == sep || !p[1]))
			return ctl_usage(c, "%s '%s': an empty item (a '%c' leading, trailing or doubled)",
					 kw, v, sep);
	return 0;
}

/* "a:b:c" -> up to @max fields (the string is copied into @buf). */
static int fields(char *buf, size_t len, const char *v, char **f, int max)
{
	char *s, *save = NULL;
	int n = 0;

	snprintf(buf, len, "%s", v);
	for (s = strtok_r(buf, ":", &save); s; s = strtok_r(NULL, ":", &save)) {
		if (n == max)
			return max + 1;
		f[n++] = s;
	}
	return n;
}

static int kw_topo(const struct ctl *c, const struct kw *k,
		   const char *v, void *field)
{
	static const char allowed[] =
		"allowed: fat-tree:K, leaf-spine:LEAVES:SPINES:HOSTS, file:PATH";
	struct kb_exp_params *p = field;
	char buf[256], *f[5];
	int n;

	if (!strncmp(v, "file:", 5)) {
		if (!v[5])
			return bad(c, "topo", v, "no file named (file:PATH)");
		p->topo = KB_EXP_TOPO_FILE;
		p->topo_file = v + 5;
		return 0;
	}
	if (list_ok(c, "topo", v, ':', sizeof(buf)))
		return KBCTL_USAGE;
	n = fields(buf, sizeof(buf), v, f, 4);
	if (n == 2 && !strcmp(f[0], "fat-tree")) {
		p->topo = KB_EXP_TOPO_FAT_TREE;
		return num_lib32(c, "topo fat-tree k", f[1], 2,
				 KB_EXP_FT_K_MAX, "even", &p->ft_k);
	}
	if (n == 4 && !strcmp(f[0], "leaf-spine")) {
		p->topo = KB_EXP_TOPO_LEAF_SPINE;
		if (num_lib32(c, "topo leaf-spine leaves", f[1], 1, 4096,
			      NULL, &p->ls_leaves) ||
		    num_lib32(c, "topo leaf-spine spines", f[2], 1, 256,
			      NULL, &p->ls_spines) ||
		    num_lib32(c, "topo leaf-spine hosts", f[3], 1, 256,
			      NULL, &p->ls_hosts))
			return KBCTL_USAGE;
		return 0;
	}
	return bad(c, "topo", v, allowed);
}

static int kw_sizes(const struct ctl *c, const struct kw *k,
		    const char *v, void *field)
{
	static const char allowed[] =
		"allowed: uniform:MIN:MAX, zipf:S[:MIN:MAX], fixed:N";
	struct kb_exp_params *p = field;
	char buf[128], *f[5];
	int n;

	if (list_ok(c, "sizes", v, ':', sizeof(buf)))
		return KBCTL_USAGE;
	n = fields(buf, sizeof(buf), v, f, 4);
	if (n == 3 && !strcmp(f[0], "uniform")) {
		p->dist = KB_EXP_DIST_UNIFORM;
		if (num32(c, "sizes min", f[1], 0, 0xFFFFFFFFU, &p->size_min) ||
		    num32(c, "sizes max", f[2], 0, 0xFFFFFFFFU, &p->size_max))
			return KBCTL_USAGE;
		if (!p->size_max)
			return bad(c, "sizes", v, "largest group 0: a group has at least 1 receiver");
		return 0;
	}
	if ((n == 2 || n == 4) && !strcmp(f[0], "zipf")) {
		p->dist = KB_EXP_DIST_ZIPF;
		if (real(c, "sizes zipf exponent", f[1], 0.01, 10, &p->zipf_s))
			return KBCTL_USAGE;
		if (n == 4 &&
		    (num32(c, "sizes min", f[2], 0, 0xFFFFFFFFU, &p->size_min) ||
		     num32(c, "sizes max", f[3], 0, 0xFFFFFFFFU, &p->size_max)))
			return KBCTL_USAGE;
		if (n == 4 && !p->size_max)
			return bad(c, "sizes", v, "largest group 0: a group has at least 1 receiver");
		return 0;
	}
	if (n == 2 && !strcmp(f[0], "fixed")) {
		p->dist = KB_EXP_DIST_FIXED;
		return num32(c, "sizes fixed", f[1], 0, 0xFFFFFFFFU,
			     &p->size_min);
	}
	return bad(c, "sizes", v, allowed);
}

#define BITS_STEP	"a multiple of 512 (64 for standard alone)"

static int kw_bits(const struct ctl *c, const struct kw *k,
		   const char *v, void *field)
{
	struct kb_exp_params *p = field;
	char buf[512], *s, *save = NULL;
	__u64 m;

	if (list_ok(c, "bits", v, ',', sizeof(buf)))
		return KBCTL_USAGE;
	p->nbits = 0;
	snprintf(buf, sizeof(buf), "%s", v);
	for (s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (p->nbits == KB_EXP_BITS_MAX)
			return bad(c, "bits", v, "too many sizes (at most 16)");
		if (num_lib(c, "bits", s, 64, KB_EXP_PORT_BITS_MAX,
			    BITS_STEP, &m))
			return KBCTL_USAGE;
		p->bits[p->nbits++] = m;
	}
	if (!p->nbits)
		return bad(c, "bits", v, "no size (allowed: M[,M...] bits per port)");
	return 0;
}

static int kw_presence(const struct ctl *c, const struct kw *k,
		       const char *v, void *field)
{
	struct kb_exp_params *p = field;
	char buf[512], *s, *save = NULL;
	__u32 n = 0;

	if (list_ok(c, "presence", v, ',', sizeof(buf)))
		return KBCTL_USAGE;
	snprintf(buf, sizeof(buf), "%s", v);
	memset(p->presence, 0, sizeof(p->presence));
	for (s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (n == KB_MCBF_CLASSES)
			return bad(c, "presence", v, "more than 16 classes");
		if (real(c, "presence", s, 1e-9, 1 - 1e-9, &p->presence[n]))
			return KBCTL_USAGE;
		n++;
	}
	if (!n)
		return bad(c, "presence", v, "no probability (allowed: P[,P...], 0 < P < 1)");
	p->nclass = n;
	return 0;
}

static int kw_schemes(const struct ctl *c, const struct kw *k,
		      const char *v, void *field)
{
	struct kb_exp_params *p = field;
	char buf[256], names[512] = "", *s, *save = NULL;
	__u32 mask = 0, j;
	int i;

	if (!strcmp(v, "all")) {
		p->schemes = KB_EXP_ALL;
		return 0;
	}
	if (list_ok(c, "schemes", v, ',', sizeof(buf)))
		return KBCTL_USAGE;
	snprintf(buf, sizeof(buf), "%s", v);
	for (s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		i = kb_exp_scheme_parse(s);
		if (i >= 0) {
			mask |= KB_EXP_S(i);
			continue;
		}
		for (j = 0; j < KB_EXP_NSCHEMES; j++)
			snprintf(names + strlen(names),
				 sizeof(names) - strlen(names), ", %s",
				 kb_exp_scheme_name(j));
		return ctl_usage(c, "schemes '%s': unknown scheme '%s' (allowed: all, or a list of %s)",
				 v, s, names + 2);
	}
	p->schemes = mask;
	return 0;
}

static int kw_hashes(const struct ctl *c, const struct kw *k,
		     const char *v, void *field)
{
	if (!strcmp(v, "auto")) {
		*(__u32 *)field = 0;
		return 0;
	}
	return num32(c, k->name, v, 1, KBLOOM_K_MAX, field);
}

static int kw_classes(const struct ctl *c, const struct kw *k,
		      const char *v, void *field)
{
	struct kb_exp_params *p = field;

	memset(p->presence, 0, sizeof(p->presence));
	return num32(c, k->name, v, 1, KB_MCBF_CLASSES, &p->nclass);
}

static int kw_real(const struct ctl *c, const struct kw *k, const char *v,
		   void *field)
{
	return real(c, k->name, v, 0, 1000, field);
}

static int kw_out(const struct ctl *c, const struct kw *k, const char *v,
		  void *field)
{
	if (!*v)
		return bad(c, k->name, v, "an empty folder name");
	*(const char **)field = v;
	return 0;
}

static const char *const mode_words[] = { "model", "emulate", NULL };
static const char *const type_words[] = { "blocked", "standard", NULL };
static const __u32 type_vals[] = { KBLOOM_TYPE_BLOCKED, KBLOOM_TYPE_STANDARD };
static const char *const plan_words[] = { "port", "global", NULL };
static const char *const yesno_words[] = { "yes", "on", "no", "off", NULL };
static const __u32 yesno_vals[] = { 1, 1, 0, 0 };

#define EX(_n, _a, _t, _m, ...)					\
	KW(_n, _a, _t, struct exp_cli, _m, __VA_ARGS__)
#define EXP(_n, _a, _t, _m, ...)	EX(_n, _a, _t, p._m, __VA_ARGS__)
#define EXF(_n, _a, _fn, _h)	EX(_n, _a, KWT_FN, p, .parse = _fn, .help = _h)
#define EXU(_n, _a, _m, _lo, _hi, _h)					\
	EXP(_n, _a, KWT_U32, _m, .min = _lo, .max = _hi, .help = _h)

/* Every keyword, and its help */
static const struct kw exp_kw[] = {
	EX("mode", "model|emulate", KWT_ENUM, emulate, .words = mode_words,
	   .extra = "unknown (allowed: model, emulate)",
	   .help = "model: in memory, any size (default); emulate: the\n"
"                         same packets on the XDP programs in network\n"
"                         namespaces (root), compared with the model"),
	EXF("topo", "fat-tree:K", kw_topo,
	    "k-ary fat-tree, K even 2..32 (default 16; emulate 4)\n"
"  topo leaf-spine:L:S:H  L leaves (1..4096), S spines (1..256), H hosts per leaf\n"
"  topo file:PATH         a topology file (below)"),
	EXU("groups", "N", groups, 1, KB_EXP_GROUPS_MAX,
	    "multicast groups, 1..1000000 (default 10000; emulate 120)"),
	EXF("sizes", "uniform:MIN:MAX", kw_sizes,
	    "receivers per group (default 1..hosts; emulate on the\n"
"                         default fat-tree:4 2..14)\n"
"  sizes zipf:S[:MIN:MAX] P(size) ~ size^-S, 0.01 <= S <= 10\n"
"  sizes fixed:N"),
	EXF("bits", "M[,M...]", kw_bits,
	    "per-port filter bits, ascending, a multiple of 512\n"
"                         (64 for standard alone) (default 8192,16384,32768,\n"
"                         65536,131072; emulate 512)"),
	EXP("ref-bits", "M", KWT_U64, ref_bits, .min = 64,
	    .max = KB_EXP_PORT_BITS_MAX,
	    .help = "the M of the group-size results (default: the middle)"),
	EXP("hashes", "K|auto", KWT_FN, k, .parse = kw_hashes,
	    .help = "per-port filter probes 1..32 (auto: per port, the k\n"
"                         of the lowest predicted rate for its group count)"),
	EXF("classes", "N", kw_classes,
	    "MC-BF classes 1..16, cut at equal-count quantiles of\n"
"                         the groups' presence (default 4)"),
	EXF("presence", "P[,P...]", kw_presence,
	    "MC-BF classes by presence probability instead: a\n"
"                         group joins the class of the nearest P (log-odds)"),
	EXP("mcbf-type", "blocked|standard", KWT_ENUM, mcbf_type,
	    .words = type_words, .vals = type_vals,
	    .extra = "allowed: blocked, standard", .help = "(blocked)"),
	EXP("mcbf-plan", "port|global", KWT_ENUM, mcbf_global,
	    .words = plan_words, .extra = "allowed: port, global",
	    .help = "(port)"),
	EXU("lipsin-k", "K", lipsin_k, KB_IPBF_K_MIN, KB_IPBF_K_MAX,
	    "bits per link ID, 1..32 (5)"),
	EXU("fill-limit", "F", fill_limit, 1, KB_IPBF_ZF_BITS,
	    "one bits allowed in a zFilter, 1..256 (128)"),
	EXU("hop-slack", "H", hop_slack, 0, 64,
	    "LIPSIN hop limit = tree height + H, 0..64 (0)"),
	EXP("msbf-start", "F", KWT_FN, msbf_start_fp, .parse = kw_real,
	    .help = "MSBF first stage size where F off-tree links are\n"
"                         expected to match (1; larger: smaller headers, more CPU)"),
	EXF("schemes", "all|LIST", kw_schemes,
	    "exact,standard,blocked,mcbf,lipsin1,lipsin8,msbf\n"
"                         (default); all: these, yesno and the model-only\n"
"                         per-port schemes of the survey (an unknown name lists them)"),
	EXP("seed", "S", KWT_U64, seed, .min = 0, .max = ~0ULL,
	    .help = "of groups, trees, link IDs, filters (1)"),
	EXU("threads", "N", threads, 1, KB_EXP_THREADS_MAX,
	    "worker threads, 1..64 (default: the CPUs, at most 8)"),
	EXU("max-tx", "N", max_tx, 16, 1U << 28,
	    "transmissions followed per packet before it is\n"
"                         counted as looped (65536)"),
	EX("out", "DIR", KWT_FN, out, .parse = kw_out,
	   .help = "write CSV files (and plots) into DIR"),
	EX("plots", "yes|no", KWT_ENUM, plots, .words = yesno_words,
	   .vals = yesno_vals, .extra = "allowed: yes, no",
	   .help = "PNG plots with gnuplot in DIR (yes)"),
	EX("packets", "N", KWT_U32, packets, .min = 0, .max = 1U << 30,
	   .help = "emulate: at most N packets per scheme (all)"),
	EX("verbose", "yes|no", KWT_ENUM, verbose, .words = yesno_words,
	   .vals = yesno_vals, .extra = "allowed: yes, no",
	   .help = "emulate: log every mismatch (no)"),
	{ 0 }
};

static const struct kw_table exp_table = {
	.kw = exp_kw,
	.unknown_hint = "see " KBCTL_NAME " experiment --help",
	.missing_hint = "value (see " KBCTL_NAME " experiment --help)",
	.dashed = true,
	.repeat = true,
	.any_value = true,
};

/*
 * The defaults of the emulation, for what the keywords left unset: a
 * k = 4 fat-tree, 120 groups of 2..14 receivers (any receivers on another
 * topology), 512-bit filters.
 */
static void emulate_defaults(struct exp_cli *e)
{
	struct kb_exp_params *p = &e->p;

	if (!e->topo_given) {
		p->topo = KB_EXP_TOPO_FAT_TREE;
		p->ft_k = 4;
	}
	if (!e->groups_given)
		p->groups = 120;
	if (!e->sizes_given && !e->topo_given) {
		p->dist = KB_EXP_DIST_UNIFORM;
		p->size_min = 2;
		p->size_max = 14;
	}
	if (!e->bits_given) {
		p->nbits = 1;
		p->bits[0] = 512;
	}
}

static int parse_all(struct ctl *c, struct exp_cli *e, int argc, char **argv)
{
	__u64 given;
	int ret;

	ret = kw_parse(c, &exp_table, argc, argv, e, &given);
	if (ret)
		return ret;
	e->schemes_given = kw_has(&exp_table, given, "schemes");
	e->groups_given = kw_has(&exp_table, given, "groups");
	e->topo_given = kw_has(&exp_table, given, "topo");
	e->sizes_given = kw_has(&exp_table, given, "sizes");
	e->bits_given = kw_has(&exp_table, given, "bits");
	if (e->emulate)
		emulate_defaults(e);
	return 0;
}

/* ---- progress ------------------------------------------------------------------ */

struct exp_progress {
	double t0;
	double cpu0;			/* the process's CPU seconds at t0 */
	int on;
	int shown;
	double last;
	const char *what;
};

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A line on a terminal, for runs longer than 2 s, 4 times a second. */
static void exp_progress(void *ctx, __u64 done, __u64 total)
{
	struct exp_progress *pr = ctx;
	double t = mono();

	if (!pr->on || t - pr->t0 < 2.0 || (pr->shown && t - pr->last < 0.25))
		return;
	pr->last = t;
	pr->shown = 1;
	fprintf(stderr, "\r%s: experiment: %s %3u%% (%.0f s)  ", KBCTL_NAME,
		pr->what,
		total ? (unsigned int)(done * 100 / total > 100 ? 100 :
				      done * 100 / total) : 0,
		t - pr->t0);
	fflush(stderr);
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void progress_clear(struct exp_progress *pr)
{
	if (pr->shown)
		fprintf(stderr, "\r%60s\r", "");
	pr->shown = 0;
}

/* ---- the command ------------------------------------------------------------- */

static int exp_fail(struct ctl *c, struct kb_exp *x, int err,
		    struct exp_progress *pr)
{
	progress_clear(pr);
	if (err == -EINVAL || err == -ERANGE)
		return ctl_usage(c, "%s", kb_exp_error(x));
	return ctl_syserr(c, err, kb_exp_error(x), "experiment");
}

/* Written after the run: its message names the error already. */
static int out_fail(struct ctl *c, struct kb_exp *x)
{
	ctl_warn(c, "experiment: %s", kb_exp_error(x));
	return KBCTL_SYS;
}

static int run_model(struct ctl *c, struct exp_cli *e, struct kb_exp *x,
		     struct exp_progress *pr)
{
	int err;

	err = kb_exp_run(x);
	if (err)
		return exp_fail(c, x, err, pr);
	progress_clear(pr);
	if (!ctl_quiet(c))
		kb_exp_print(x, stdout);
	if (e->out) {
		err = kb_exp_write_csv(x, e->out);
		if (!err && e->plots)
			err = kb_exp_plot(x, e->out);
		if (err)
			return out_fail(c, x);
		if (!ctl_quiet(c))
			printf("\nCSV%s in %s/\n",
			       e->plots ? " files and PNG plots" : " files",
			       e->out);
	}
	/* the whole command: the model, the table, the files, the plots */
	if (!ctl_quiet(c))
		printf("\nElapsed: %.1f s wall, %.1f s CPU\n", mono() - pr->t0,
		       cpu_now() - pr->cpu0);
	return ctl_flush_stdout(c);
}

static int run_emulate(struct ctl *c, struct exp_cli *e, struct kb_exp *x,
		       struct exp_progress *pr)
{
	struct kb_exp_emu_result res[KB_EXP_NSCHEMES];
	struct kb_exp_emu_opts o = {
		.schemes = e->schemes_given ? e->p.schemes : 0,
		.max_packets = e->packets,
		.verbose = e->verbose,
		.log = ctl_quiet(c) ? NULL : stderr,
	};
	int err, s, differ = 0;

	progress_clear(pr);
	if (geteuid())
		return ctl_syserr(c, -EPERM,
				  "the emulation needs root: network namespaces and XDP",
				  "experiment mode emulate");
	err = kb_exp_emulate(x, &o, res);
	if (err)
		return ctl_syserr(c, err, kb_exp_error(x), "experiment mode emulate");
	if (!ctl_quiet(c))
		kb_exp_emu_print(res, stdout);
	for (s = 0; s < KB_EXP_NSCHEMES; s++)
		if (!res[s].status &&
		    (res[s].pkt_mismatch || res[s].host_mismatch ||
		     res[s].model_leak != res[s].emu_leak))
			differ = 1;
	if (e->out) {
		err = kb_exp_emu_write_csv(x, res, e->out);
		if (err)
			return out_fail(c, x);
	}
	err = ctl_flush_stdout(c);
	return err ? err : (differ ? 1 : KBCTL_OK);
}

/*
 * out DIR, checked before anything runs: a file at DIR or at one of the
 * folders it would be made in is a usage error.  Other errors (a folder
 * that cannot be written) are the writer's to report.
 */
static int out_check(struct ctl *c, const char *dir)
{
	char buf[4096], *slash;
	struct stat st;

	snprintf(buf, sizeof(buf), "%s", dir);
	for (;;) {
		if (!stat(buf, &st))
			break;
		if (errno != ENOENT && errno != ENOTDIR)
			return 0;
		slash = strrchr(buf, '/');
		if (!slash || slash == buf)
			return 0;
		*slash = 0;
	}
	if (S_ISDIR(st.st_mode))
		return 0;
	return ctl_usage(c, "out '%s': not a folder (%s is not a directory)",
			 dir, buf);
}

static int cmd_experiment(struct ctl *c, int argc, char **argv)
{
	struct exp_cli e = { .plots = 1 };
	struct exp_progress pr = { .t0 = mono(), .cpu0 = cpu_now() };
	struct kb_exp *x = NULL;
	char why[320];
	int err, ret;

	kb_exp_params_init(&e.p);
	ret = parse_all(c, &e, argc, argv);
	if (!ret && e.out)
		ret = out_check(c, e.out);
	if (ret)
		return ret;
	why[0] = 0;
	err = kb_exp_new(&e.p, &x, why, sizeof(why));
	if (err == -EINVAL || err == -ERANGE)
		return ctl_usage(c, "%s", why);
	if (err && why[0]) {	/* it names the errno already */
		ctl_warn(c, "experiment: %s", why);
		return KBCTL_SYS;
	}
	if (err)
		return ctl_syserr(c, err, NULL, "experiment");
	pr.on = !ctl_quiet(c) && isatty(STDERR_FILENO);
	pr.what = e.emulate ? "emulation" : "model";
	kb_exp_set_progress(x, exp_progress, &pr);
	if (e.emulate)
		ret = run_emulate(c, &e, x, &pr);
	else
		ret = run_model(c, &e, x, &pr);
	kb_exp_free(x);
	return ret;
}

static const char experiment_help[] =
"Topology file: one statement per line, '#' comments:\n"
"  switch NAME [LEVEL]    host NAME    link NAME NAME\n"
"NAME is 1..31 of [A-Za-z0-9_.-]; a node numbers its ports in the order of\n"
"its links; every host has exactly one link (to a switch) and reaches every\n"
"other host.  Anything else is refused with the file and line.\n"
"\n"
"Output: a table (one line per scheme and filter size); with out DIR:\n"
"summary.csv, by_size.csv, switches.csv, fpr.csv, groups.csv, params.csv,\n"
"and leak_vs_bits.png, leak_vs_size.png, hdr_vs_size.png,\n"
"leak_lost_vs_bits.png (gnuplot; the scripts plot_*.gp stay next to them).  emulate: the agreement table and\n"
"agreement.csv; exit 1 when the emulation and the model differ.\n"
"\n"
"Example: kbloomctl experiment groups 10000 out /tmp/leak\n"
"         kbloomctl experiment --mode model --groups 10000 --out /tmp/leak\n";

const struct ctl_cmd experiment_cmds[] = {
	{
		.name = "experiment",
		.synopsis = "[--mode model|emulate] [--topo T] [--groups N] [--sizes D] [--bits M,...] [--KEYWORD VALUE]...",
		.summary = "multicast traffic leakage: model, or emulation on XDP",
		.help = experiment_help,
		.max_args = CTL_ARGS_ANY,
		.kw = &exp_table,
		.run = cmd_experiment,
	},
	{ 0 }
};
