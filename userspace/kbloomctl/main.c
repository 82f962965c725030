// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: named Bloom filters in /dev/kbloom, in the shape of ipset.
 *
 * This file owns the options, the command tables and the dispatch; the
 * commands live in their own files and are described by struct ctl_cmd
 * arrays (see kbloomctl.h for how to add one).  Arguments are parsed and
 * checked completely before a handler touches the device, so a usage error
 * (exit 2) never changes anything.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbloomctl.h"

static int cmd_help(struct ctl *c, int argc, char **argv);
static int cmd_completion(struct ctl *c, int argc, char **argv);

static const struct ctl_cmd main_cmds[] = {
	{
		.name = "help",
		.synopsis = "[COMMAND]",
		.summary = "show the commands, or one command's arguments",
		.max_args = CTL_ARGS_ANY,
		.run = cmd_help,
	},
	{
		.name = "completion",
		.synopsis = "bash",
		.summary = "print the bash completion script (from the command tables)",
		.min_args = 1,
		.max_args = 1,
		.run = cmd_completion,
	},
	{ 0 }
};

/*
 * Every command table, in the order of the command list of --help.
 * Hook: the XDP commands (xdp, mcast, gate, ipbf, mcbf, map) add their
 * arrays here.
 */
extern const struct ctl_cmd experiment_cmds[];	/* experiment.c */
static const struct ctl_cmd *const cmd_tables[] = {
	module_cmds,
	rename_cmds,
	cuckoo_cmds,
	image_cmds,
	plan_cmds,
	experiment_cmds,
	xdp_cmds, mcast_cmds, gate_cmds, map_cmds,
	ipbf_cmds,
	mcbf_cmds,
	sketch_cmds, conntrack_cmds,
	persistent_cmds,
	sbbf_cmds,
	dedupe_cmds,
	window_cmds,
	iblt_cmds, loss_cmds,
	similar_cmds,
	main_cmds,
	NULL
};

/**
 * struct ctl_optdef - one option
 * @id: enum ctl_opt
 * @names: its spellings, separated by '|'; the first is the one shown
 * @arg: the value's name, or NULL for a flag
 * @help: one line
 */
struct ctl_optdef {
	enum ctl_opt id;
	const char *names;
	const char *arg;
	const char *help;
};

static const struct ctl_optdef opt_table[] = {
	{ CO_EXIST, "-exist|--exist", NULL,
	  "not an error: an identical filter (create), a missing one (destroy, flush), absent keys (del), an existing one (restore: skipped)" },
	{ CO_QUIET, "-q|-quiet|--quiet", NULL,
	  "print nothing but errors (test: the exit code tells)" },
	{ CO_JSON, "-j|--json", NULL, "JSON output (read commands)" },
	{ CO_KEY, "--key|-k", "ENC",
	  "key encoding: str (default), hex, ipv4, ipv6, u64, addr (ipv4 or ipv6)" },
	{ CO_FILE, "-f|--file", "FILE",
	  "keys from FILE, one per line ('-': standard input)" },
	{ CO_OUTPUT, "-o|--output", "FILE",
	  "save, map save: write the image, ipbf header: the header bytes, to FILE ('-' or stdout: standard output)" },
	{ CO_INPUT, "-i|--input", "FILE",
	  "restore: read images from FILE ('-' or stdin: standard input)" },
	{ CO_REPLACE, "--replace|-replace", NULL,
	  "restore: replace an existing filter atomically" },
	{ CO_HELP, "-h|--help", NULL, "show help and exit" },
	{ CO_VERSION, "-V|--version", NULL, "show the version and exit" },
	{ CO_PRETTY, "-p|--pretty", NULL,
	  "indented JSON output (implies -j; where -j is accepted)" },
	{ CO_NAMES, "-n|-name|--name", NULL, "list: the names only" },
	/* hook: options of later commands here (see enum ctl_opt) */
};

#define N_OPTS	ARRAY_SIZE(opt_table)
#define ALWAYS_OPTS	(CTL_OPT(CO_QUIET) | CTL_OPT(CO_HELP) | \
			 CTL_OPT(CO_VERSION))

static const char *opt_shown(const struct ctl_optdef *o, char *buf, size_t len)
{
	size_t n = strcspn(o->names, "|");

	snprintf(buf, len, "%.*s", (int)n, o->names);
	return buf;
}

/* @cmd's options: -p wherever -j is */
static unsigned int cmd_opts(const struct ctl_cmd *cmd)
{
	unsigned int o = cmd->opts | ALWAYS_OPTS;

	return o & CTL_OPT(CO_JSON) ? o | CTL_OPT(CO_PRETTY) : o;
}

static const struct ctl_optdef *opt_def(enum ctl_opt id)
{
	size_t i;

	for (i = 0; i < N_OPTS; i++)
		if (opt_table[i].id == id)
			return &opt_table[i];
	return NULL;
}

/* Match @arg against an option's spellings; *@inl gets "--key=VAL"'s VAL. */
static const struct ctl_optdef *opt_find(const char *arg, const char **inl)
{
	size_t i, alen = strcspn(arg, "=");
	const char *p, *e;

	*inl = NULL;
	for (i = 0; i < N_OPTS; i++) {
		for (p = opt_table[i].names; *p; p = *e ? e + 1 : e) {
			e = p + strcspn(p, "|");
			if ((size_t)(e - p) == strlen(arg) &&
			    !strncmp(p, arg, e - p))
				return &opt_table[i];
			if (arg[alen] == '=' &&
			    (size_t)(e - p) == alen && !strncmp(p, arg, alen) &&
			    !strncmp(arg, "--", 2)) {
				*inl = arg + alen + 1;
				return &opt_table[i];
			}
		}
	}
	return NULL;
}

static void opts_list(char *buf, size_t len, unsigned int mask)
{
	char one[32];
	size_t i, off = 0;

	buf[0] = 0;
	for (i = 0; i < N_OPTS && off < len; i++) {
		if (!(mask & CTL_OPT(opt_table[i].id)))
			continue;
		off += snprintf(buf + off, len - off, "%s%s", off ? " " : "",
				opt_shown(&opt_table[i], one, sizeof(one)));
	}
}

static size_t cmds_append(char *buf, size_t len, size_t off,
			  const struct ctl_cmd *tab)
{
	for (; tab->name && off < len; tab++)
		off += snprintf(buf + off, len - off, "%s%s", off ? " " : "",
				tab->name);
	return off;
}

/* The names of @tab's commands, or of every top-level one. */
static void cmds_list(char *buf, size_t len, const struct ctl_cmd *tab)
{
	const struct ctl_cmd *const *t;
	size_t off = 0;

	buf[0] = 0;
	if (tab) {
		cmds_append(buf, len, 0, tab);
		return;
	}
	for (t = cmd_tables; *t; t++)
		off = cmds_append(buf, len, off, *t);
}

static const struct ctl_cmd *cmd_find(const struct ctl_cmd *tab,
				      const char *name)
{
	const struct ctl_cmd *const *t;
	const struct ctl_cmd *cmd;

	if (tab) {
		for (cmd = tab; cmd->name; cmd++)
			if (!strcmp(cmd->name, name))
				return cmd;
		return NULL;
	}
	for (t = cmd_tables; *t; t++)
		for (cmd = *t; cmd->name; cmd++)
			if (!strcmp(cmd->name, name))
				return cmd;
	return NULL;
}

static void print_opts(FILE *f, unsigned int mask)
{
	char one[32], lhs[48];
	size_t i;

	for (i = 0; i < N_OPTS; i++) {
		const struct ctl_optdef *o = &opt_table[i];

		if (!(mask & CTL_OPT(o->id)))
			continue;
		snprintf(lhs, sizeof(lhs), "%s%s%s",
			 opt_shown(o, one, sizeof(one)), o->arg ? " " : "",
			 o->arg ? o->arg : "");
		fprintf(f, "  %-16s %s\n", lhs, o->help);
	}
}

static void print_usage(FILE *f)
{
	const struct ctl_cmd *const *t;
	const struct ctl_cmd *cmd;

	fprintf(f, "Usage: %s [OPTIONS] COMMAND [ARGUMENTS]\n\n"
		"Named Bloom filters in %s (kbloom.ko), shaped like ipset sets.\n\n"
		"Commands:\n", KBCTL_NAME, KBLOOM_DEVICE);
	for (t = cmd_tables; *t; t++)
		for (cmd = *t; cmd->name; cmd++)
			fprintf(f, "  %-9s %s\n", cmd->name, cmd->summary);
	fprintf(f, "\nOptions (before or after the command; '--' ends them):\n");
	print_opts(f, ~0U);
	fprintf(f, "\nExit status: 0 ok (test: every key possibly present), 1 test: a key\n"
		"definitely absent, 2 usage error (nothing done), 3 system error.\n"
		"'%s COMMAND --help' shows a command's arguments; man kbloomctl.\n",
		KBCTL_NAME);
}

static void print_cmd_help(FILE *f, const char *path, const struct ctl_cmd *cmd)
{
	const struct ctl_cmd *s;

	fprintf(f, "Usage: %s %s%s%s\n\n%s\n", KBCTL_NAME, path,
		cmd->synopsis && *cmd->synopsis ? " " : "",
		cmd->synopsis ? cmd->synopsis : "", cmd->summary);
	if (cmd->kw)
		kw_help(f, cmd->kw);
	if (cmd->help)
		fprintf(f, "\n%s", cmd->help);
	if (cmd->sub) {
		fprintf(f, "\nSubcommands:\n");
		for (s = cmd->sub; s->name; s++)
			fprintf(f, "  %-9s %s\n", s->name, s->summary);
	}
	fprintf(f, "\nOptions:\n");
	print_opts(f, cmd_opts(cmd) & ~CTL_OPT(CO_VERSION));
}

static int cmd_help(struct ctl *c, int argc, char **argv)
{
	const struct ctl_cmd *cmd = NULL, *tab = NULL;
	char path[64] = "", names[256];
	int i;

	if (!argc) {
		print_usage(stdout);
		return ctl_flush_stdout(c);
	}
	for (i = 0; i < argc; i++) {
		cmd = cmd_find(tab, argv[i]);
		if (!cmd) {
			cmds_list(names, sizeof(names), tab);
			return ctl_usage(c, "COMMAND '%s': unknown (allowed: %s)",
					 argv[i], names);
		}
		snprintf(path + strlen(path), sizeof(path) - strlen(path),
			 "%s%s", i ? " " : "", cmd->name);
		tab = cmd->sub;
		if (!tab && i + 1 < argc)
			return ctl_usage(c, "'%s': unexpected after %s",
					 argv[i + 1], path);
	}
	print_cmd_help(stdout, path, cmd);
	return ctl_flush_stdout(c);
}

static int cmd_completion(struct ctl *c, int argc, char **argv)
{
	struct ctl_optname names[N_OPTS];
	size_t i;

	if (strcmp(argv[0], "bash"))
		return ctl_usage(c, "SHELL '%s': unknown (allowed: bash)",
				 argv[0]);
	for (i = 0; i < N_OPTS; i++) {
		names[i].names = opt_table[i].names;
		names[i].arg = opt_table[i].arg;
	}
	complete_bash(stdout, cmd_tables, names, N_OPTS);
	return ctl_flush_stdout(c);
}

/*
 * Is @a, after the command @pos[0], one of that command's --KEYWORD
 * arguments?  Yes for a "--WORD" that is not an option the command
 * accepts (@o: the option it spells, or NULL) of a command whose keyword
 * table is dashed (experiment).
 */
static bool kw_arg(char **pos, int npos, const char *a,
		   const struct ctl_optdef *o)
{
	const struct ctl_cmd *cmd;

	if (!npos || strncmp(a, "--", 2))
		return false;
	cmd = cmd_find(NULL, pos[0]);
	if (!cmd || !cmd->kw || !cmd->kw->dashed)
		return false;
	return !o || !(cmd_opts(cmd) & CTL_OPT(o->id));
}

/*
 * Split argv into options (anywhere, until "--") and positional
 * arguments.  "-" alone is positional.
 */
static int parse_opts(struct ctl *c, int argc, char **argv, char **pos,
		      int *npos)
{
	const struct ctl_optdef *o;
	const char *inl, *v;
	char one[32], all[256];
	bool end = false;
	int i;

	*npos = 0;
	for (i = 1; i < argc; i++) {
		char *a = argv[i];

		/* "-" (stdin) and "-1" (a bad number) are not options */
		if (end || a[0] != '-' || !a[1] ||
		    isdigit((unsigned char)a[1])) {
			pos[(*npos)++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			end = true;
			continue;
		}
		o = opt_find(a, &inl);
		if (kw_arg(pos, *npos, a, o)) {
			pos[(*npos)++] = a;
			continue;
		}
		if (!o) {
			opts_list(all, sizeof(all), ~0U);
			return ctl_usage(c, "option '%s': unknown (allowed: %s; a key starting with '-' goes after '--')",
					 a, all);
		}
		opt_shown(o, one, sizeof(one));
		if (!o->arg) {
			if (inl)
				return ctl_usage(c, "option %s: takes no value",
						 one);
			c->set[o->id] = true;
			continue;
		}
		if (inl) {
			v = inl;
		} else if (i + 1 < argc) {
			v = argv[++i];
		} else {
			return ctl_usage(c, "option %s: missing %s (%s)", one,
					 o->arg, o->help);
		}
		if (c->set[o->id] && strcmp(c->val[o->id], v))
			return ctl_usage(c, "option %s: given twice ('%s' and '%s'; allowed once)",
					 one, c->val[o->id], v);
		c->set[o->id] = true;
		c->val[o->id] = v;
	}
	return 0;
}

static int check_opts(struct ctl *c, const struct ctl_cmd *cmd)
{
	unsigned int ok = cmd_opts(cmd);
	char one[32], allowed[256];
	int i;

	for (i = 0; i < CO__COUNT; i++) {
		if (!c->set[i] || (ok & CTL_OPT(i)))
			continue;
		/* -p goes with -j: not listed on its own */
		opts_list(allowed, sizeof(allowed),
			  ok & ~ALWAYS_OPTS & ~CTL_OPT(CO_PRETTY));
		return ctl_usage(c, "option %s: not accepted by %s (accepted: %s)",
				 opt_shown(opt_def(i), one, sizeof(one)),
				 c->cmd_path,
				 *allowed ? allowed : "-q only");
	}
	return 0;
}

/* The @idx-th word of a synopsis (the name of a required argument). */
static void syn_word(char *buf, size_t len, const char *syn, int idx)
{
	size_t n;

	snprintf(buf, len, "arguments");
	while (syn && *syn) {
		n = strcspn(syn, " ");
		if (!idx--) {
			snprintf(buf, len, "%.*s", (int)n, syn);
			return;
		}
		syn += n;
		syn += strspn(syn, " ");
	}
}

/* A keyword of @t given twice among @args (more than the command takes). */
static const char *kw_twice(const struct kw_table *t, int n, char **args)
{
	const struct kw *k;
	int i, j;

	for (k = t ? t->kw : NULL; k && k->name && !t->repeat; k++)
		for (i = 0; i < n; i++)
			for (j = i + 1; !strcmp(args[i], k->name) && j < n; j++)
				if (!strcmp(args[j], k->name))
					return k->name;
	return NULL;
}

static int check_nargs(struct ctl *c, const struct ctl_cmd *cmd, int n,
		       char **args)
{
	const char *twice;
	const char *syn = cmd->synopsis ? cmd->synopsis : "";
	char word[64];

	if (n < cmd->min_args) {
		syn_word(word, sizeof(word), syn, n);
		return ctl_usage(c, "missing %s (usage: %s %s %s)", word,
				 KBCTL_NAME, c->cmd_path, syn);
	}
	twice = cmd->max_args != CTL_ARGS_ANY && n > cmd->max_args ?
		kw_twice(cmd->kw, n, args) : NULL;
	if (twice)
		return ctl_usage(c, "%s: given twice (allowed once)", twice);
	if (cmd->max_args != CTL_ARGS_ANY && n > cmd->max_args)
		return ctl_usage(c, "argument '%s': unexpected, at most %d allowed (usage: %s %s %s)",
				 args[cmd->max_args], cmd->max_args,
				 KBCTL_NAME, c->cmd_path, syn);
	return 0;
}

static int dispatch(struct ctl *c, int npos, char **pos)
{
	const struct ctl_cmd *cmd, *tab = NULL;
	char names[256];
	int i = 0, ret;

	for (;;) {
		cmd = cmd_find(tab, pos[i]);
		if (!cmd) {
			cmds_list(names, sizeof(names), tab);
			if (tab)
				return ctl_usage(c, "subcommand '%s': unknown (allowed: %s)",
						 pos[i], names);
			return ctl_usage(c, "command '%s': unknown (allowed: %s)",
					 pos[i], names);
		}
		snprintf(c->cmd_path + strlen(c->cmd_path),
			 sizeof(c->cmd_path) - strlen(c->cmd_path), "%s%s",
			 i ? " " : "", cmd->name);
		c->cmd = cmd;
		i++;
		/* a group: on to the subcommand (--help of the group alone) */
		if (!cmd->sub || (c->set[CO_HELP] && i == npos))
			break;
		if (i == npos) {
			cmds_list(names, sizeof(names), cmd->sub);
			return ctl_usage(c, "missing subcommand (allowed: %s)",
					 names);
		}
		tab = cmd->sub;
	}
	if (c->set[CO_HELP]) {
		print_cmd_help(stdout, c->cmd_path, cmd);
		return ctl_flush_stdout(c);
	}
	ret = check_opts(c, cmd);
	if (!ret)
		ret = check_nargs(c, cmd, npos - i, pos + i);
	if (!ret && c->set[CO_KEY])
		ret = keys_enc_opt(c);
	if (ret)
		return ret;
	if (c->set[CO_PRETTY]) {
		c->set[CO_JSON] = true;
		json_set_pretty(true);
	}
	return cmd->run(c, npos - i, pos + i);
}

int main(int argc, char **argv)
{
	struct ctl c = { .dev_fd = -1 };
	char **pos;
	int npos, ret;

	c.dev_path = getenv("KBLOOMCTL_DEVICE");
	if (!c.dev_path || !*c.dev_path)
		c.dev_path = KBLOOM_DEVICE;
	pos = calloc(argc + 1, sizeof(*pos));
	if (!pos)
		return ctl_syserr(&c, -ENOMEM, NULL, "start");
	ret = parse_opts(&c, argc, argv, pos, &npos);
	if (ret)
		goto out;
	if (c.set[CO_VERSION]) {
		printf("%s %s (ioctl ABI %u.%u, image version %u)\n",
		       KBCTL_NAME, KBCTL_VERSION, KBLOOM_ABI_MAJOR,
		       KBLOOM_ABI_MINOR, KBLOOM_IMAGE_VERSION);
		ret = ctl_flush_stdout(&c);
		goto out;
	}
	if (!npos) {
		if (c.set[CO_HELP]) {
			print_usage(stdout);
			ret = ctl_flush_stdout(&c);
		} else {
			ret = ctl_usage(&c, "missing COMMAND (see %s --help)",
					KBCTL_NAME);
		}
		goto out;
	}
	ret = dispatch(&c, npos, pos);
out:
	kbloom_dev_close(c.dev_fd);
	free(pos);
	return ret;
}
