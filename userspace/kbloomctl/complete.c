// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl completion bash: the bash completion script, printed from the
 * command tables themselves (commands, subcommands, KEYWORD VALUE tables,
 * enum words, options), so that it never lists a word the parser refuses.
 * The build installs its output as share/bash-completion/completions/
 * kbloomctl.
 *
 * The script's tables are case statements over the command path ("xdp
 * attach"): _kbloomctl_sub (its subcommands), _kbloomctl_kw (its keywords)
 * and _kbloomctl_val (what follows "PATH KEYWORD": enum words, @file,
 * @iface, @netns, or @any for a free value).  A command with a keyword
 * table (struct ctl_cmd @kw) gives its rows; any other its synopsis, read
 * as the grammar it is: lower-case words are keywords or literal words,
 * "KEYWORD a|b" offers a or b after KEYWORD, "KEYWORD VALUE" a value whose
 * name says its kind (FILE, IFACE, NS).
 */
#include <ctype.h>
#include <string.h>

#include "kbloomctl.h"

/* What a keyword's value completes to: its words, or a class. */
static void comp_val(FILE *f, const struct kw *k)
{
	const char *const *w;

	if (k->type == KWT_ENUM && k->words) {
		for (w = k->words; *w; w++)
			fprintf(f, "%s%s", w == k->words ? "" : " ", *w);
		return;
	}
	if (k->type == KWT_NETNS)
		fputs("@netns", f);
	else if (k->arg && strstr(k->arg, "FILE"))
		fputs("@file", f);
	else if (k->arg && strstr(k->arg, "IFACE"))
		fputs("@iface", f);
	else
		fputs("@any", f);
}

#define SYN_SEP		" []()"
#define SYN_KW_MAX	64

/* a keyword or literal word of a synopsis: [a-z][a-z0-9-]* */
static bool syn_word(const char *t, size_t n)
{
	size_t i;

	if (!n || !islower((unsigned char)t[0]))
		return false;
	for (i = 1; i < n; i++)
		if (!islower((unsigned char)t[i]) && !isdigit((unsigned char)t[i]) &&
		    t[i] != '-')
			return false;
	return true;
}

/* "a|b|c" of such words */
static bool syn_alts(const char *t, size_t n)
{
	size_t w;

	while (n) {
		w = strcspn(t, "|");
		if (w > n)
			w = n;
		if (!syn_word(t, w))
			return false;
		t += w + (w < n);
		n -= w + (w < n);
	}
	return true;
}

/* the next token of @p: its start into *@t, its length; 0 at the end */
static size_t syn_next(const char **p, const char **t)
{
	size_t n;

	*p += strspn(*p, SYN_SEP);
	*t = *p;
	n = strcspn(*p, SYN_SEP);
	*p += n;
	return n;
}

static void syn_value(FILE *f, const char *v, size_t n)
{
	size_t i;

	if (syn_alts(v, n)) {
		for (i = 0; i < n; i++)
			fputc(v[i] == '|' ? ' ' : v[i], f);
	} else if (memmem(v, n, "FILE", 4)) {
		fputs("@file", f);
	} else if (memmem(v, n, "IFACE", 5)) {
		fputs("@iface", f);
	} else {
		fputs(n == 2 && !memcmp(v, "NS", 2) ? "@netns" : "@any", f);
	}
}

/* Is the token @t (@n) one of the @nseen before?  If not, add it. */
static bool syn_seen(const char **seen, size_t *nseen, const char *t,
		     size_t n)
{
	size_t i;

	for (i = 0; i < *nseen; i++)
		if (!strncmp(seen[i], t, n) && strchr(SYN_SEP, seen[i][n]))
			return true;
	if (*nseen < SYN_KW_MAX)
		seen[(*nseen)++] = t;
	return false;
}

/* pass 1: the words of "a|b" or "kw", each once, space-separated */
static void syn_words(FILE *f, const char *t, size_t n, const char **seen,
		      size_t *nseen)
{
	size_t w;

	while (n) {
		w = strcspn(t, "|");
		if (w > n)
			w = n;
		if (!syn_seen(seen, nseen, t, w))
			fprintf(f, "%s%.*s", *nseen > 1 ? " " : "", (int)w, t);
		t += w + (w < n);
		n -= w + (w < n);
	}
}

/*
 * The synopsis of @cmd: @pass 1 its words (a literal "a|b" split), 2 a
 * row "PATH KEYWORD" per keyword followed by a value (its first one).
 */
static void syn_rows(FILE *f, const char *path, const char *syn, int pass)
{
	const char *p = syn, *t, *v, *seen[SYN_KW_MAX];
	size_t n, vn, nseen = 0;

	for (n = syn_next(&p, &t); n; n = syn_next(&p, &t)) {
		if (!syn_word(t, n)) {
			if (pass == 1 && syn_alts(t, n))
				syn_words(f, t, n, seen, &nseen);
			continue;
		}
		if (pass == 1)
			syn_words(f, t, n, seen, &nseen);
		vn = syn_next(&p, &v);
		if (!vn || *v == '|' || syn_word(v, vn)) {
			p = v;	/* not a value: the next word again */
			continue;
		}
		if (pass != 2 || syn_seen(seen, &nseen, t, n))
			continue;
		fprintf(f, "\t\"%s %.*s\") echo \"", path, (int)n, t);
		syn_value(f, v, vn);
		fputs("\";;\n", f);
	}
}

/* The rows of one command (@path) and, recursively, of its subcommands. */
static void comp_cmd(FILE *f, const char *path, const struct ctl_cmd *cmd,
		     int pass)
{
	const struct ctl_cmd *s;
	const struct kw *k;
	char sub[128];

	if (pass == 0 && cmd->sub) {
		fprintf(f, "\t\"%s\") echo \"", path);
		for (s = cmd->sub; s->name; s++)
			fprintf(f, "%s%s", s == cmd->sub ? "" : " ", s->name);
		fputs("\";;\n", f);
	}
	if (pass == 1 && cmd->kw) {
		fprintf(f, "\t\"%s\") echo \"", path);
		for (k = cmd->kw->kw; k->name; k++)
			fprintf(f, "%s%s", k == cmd->kw->kw ? "" : " ", k->name);
		fputs("\";;\n", f);
	} else if (pass == 1 && !cmd->sub && cmd->synopsis) {
		fprintf(f, "\t\"%s\") echo \"", path);
		syn_rows(f, path, cmd->synopsis, 1);
		fputs("\";;\n", f);
	}
	if (pass == 2 && !cmd->kw && !cmd->sub && cmd->synopsis)
		syn_rows(f, path, cmd->synopsis, 2);
	for (k = cmd->kw ? cmd->kw->kw : NULL; pass == 2 && k && k->name; k++) {
		fprintf(f, "\t\"%s %s\") echo \"", path, k->name);
		comp_val(f, k);
		fputs("\";;\n", f);
	}
	for (s = cmd->sub; s && s->name; s++) {
		snprintf(sub, sizeof(sub), "%s %s", path, s->name);
		comp_cmd(f, sub, s, pass);
	}
}

/* One case function: @pass 0 subcommands, 1 keywords, 2 values. */
static void comp_fn(FILE *f, const char *fn, const char *key,
		    const struct ctl_cmd *const *tabs, int pass)
{
	const struct ctl_cmd *const *t;
	const struct ctl_cmd *cmd;

	fprintf(f, "%s()\n{\n\tcase \"%s\" in\n", fn, key);
	if (pass == 0) {
		fputs("\t\"\") echo \"", f);
		for (t = tabs; *t; t++)
			for (cmd = *t; cmd->name; cmd++)
				fprintf(f, "%s%s", t == tabs && cmd == *t ?
					"" : " ", cmd->name);
		fputs("\";;\n", f);
	}
	for (t = tabs; *t; t++)
		for (cmd = *t; cmd->name; cmd++)
			comp_cmd(f, cmd->name, cmd, pass);
	fputs("\tesac\n}\n\n", f);
}

/* The options: every spelling; those with a value and what it takes. */
static void comp_opts(FILE *f, const struct ctl_optname *o, size_t n)
{
	const char *const *w;
	size_t i, len;
	const char *p;

	fputs("_kbloomctl_opts=\"", f);
	for (i = 0; i < n; i++)
		for (p = o[i].names; *p; p += len + !!p[len]) {
			len = strcspn(p, "|");
			fprintf(f, "%s%.*s", i || p != o[i].names ? " " : "",
				(int)len, p);
		}
	fputs("\"\n\n_kbloomctl_optval()\n{\n\tcase \"$1\" in\n", f);
	for (i = 0; i < n; i++) {
		if (!o[i].arg)
			continue;
		fputs("\t", f);
		for (p = o[i].names; *p; p += len + !!p[len]) {
			len = strcspn(p, "|");
			fprintf(f, "%s%.*s", p != o[i].names ? "|" : "",
				(int)len, p);
		}
		if (!strcmp(o[i].arg, "ENC")) {
			fputs(") echo \"", f);
			for (w = key_enc_names; *w; w++)
				fprintf(f, "%s%s", w == key_enc_names ? "" :
					" ", *w);
			fputs("\";;\n", f);
		} else {
			fprintf(f, ") echo \"%s\";;\n",
				strstr(o[i].arg, "FILE") ? "@file" : "@any");
		}
	}
	fputs("\tesac\n}\n\n", f);
}

/*
 * The driver: the command path is the words that name a command or a
 * subcommand (options and their values skipped); then the value of an
 * option or a keyword, an option, or a subcommand or keyword of the path.
 */
static const char comp_main[] =
"_kbloomctl_reply()\n"
"{\n"
"\tcase \"$1\" in\n"
"\t@file) COMPREPLY=($(compgen -f -- \"$2\"));;\n"
"\t@iface) COMPREPLY=($(compgen -W \"$(ls /sys/class/net 2>/dev/null)\" -- \"$2\"));;\n"
"\t@netns) COMPREPLY=($(compgen -W \"$(ip netns list 2>/dev/null | cut -d' ' -f1)\" -- \"$2\"));;\n"
"\t@any) COMPREPLY=();;\n"
"\t*) COMPREPLY=($(compgen -W \"$1\" -- \"$2\"));;\n"
"\tesac\n"
"}\n"
"\n"
"_kbloomctl()\n"
"{\n"
"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
"\tlocal path= w v i\n"
"\n"
"\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
"\t\tw=${COMP_WORDS[i]}\n"
"\t\tif [ -n \"$(_kbloomctl_optval \"$w\")\" ]; then\n"
"\t\t\ti=$((i + 1))\n"
"\t\telif [[ \" $(_kbloomctl_sub \"$path\") \" == *\" $w \"* ]]; then\n"
"\t\t\tpath=${path:+$path }$w\n"
"\t\tfi\n"
"\tdone\n"
"\tv=$(_kbloomctl_optval \"$prev\")\n"
"\t[ -n \"$v\" ] || [ -z \"$path\" ] || v=$(_kbloomctl_val \"$path $prev\")\n"
"\tif [ -n \"$v\" ]; then\n"
"\t\t_kbloomctl_reply \"$v\" \"$cur\"\n"
"\telif [[ $cur == -* ]]; then\n"
"\t\t_kbloomctl_reply \"$_kbloomctl_opts\" \"$cur\"\n"
"\telse\n"
"\t\tv=\"$(_kbloomctl_sub \"$path\") $(_kbloomctl_kw \"$path\")\"\n"
"\t\t_kbloomctl_reply \"$v\" \"$cur\"\n"
"\tfi\n"
"}\n"
"\n"
"complete -F _kbloomctl kbloomctl\n";

void complete_bash(FILE *f, const struct ctl_cmd *const *tabs,
		   const struct ctl_optname *opts, size_t nopts)
{
	fputs("# bash completion for kbloomctl(8), generated by\n"
	      "# \"kbloomctl completion bash\" from its command tables.\n\n",
	      f);
	comp_fn(f, "_kbloomctl_sub", "$1", tabs, 0);
	comp_fn(f, "_kbloomctl_kw", "$1", tabs, 1);
	comp_fn(f, "_kbloomctl_val", "$1", tabs, 2);
	comp_opts(f, opts, nopts);
	fputs(comp_main, f);
}
