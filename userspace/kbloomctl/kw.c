// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the one parser of KEYWORD VALUE arguments.
 *
 * A command declares its keywords once, in a table of struct kw (name,
 * type, the field of the command's struct it fills, range, help), and
 * kw_parse() does the rest: the syntax (unknown keyword, given twice,
 * missing value; --KEYWORD VALUE and --KEYWORD=VALUE for a dashed table),
 * then every value converted into its field, in the order given, each
 * refusal one line naming the keyword (exit 2, nothing done).  A keyword
 * of the table ends a list of values: "dev mode native" is a dev without
 * interfaces, not an interface named mode; it is a single value only in
 * an @any_value table ("out mode": a folder named mode).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbloomctl.h"

/* The keyword of argument @a ("--" and "=VALUE" off for a dashed table). */
static const struct kw *kw_lookup(const struct kw_table *t, const char *a,
				  const char **eq)
{
	const struct kw *k;
	size_t n;

	*eq = NULL;
	if (t->dashed && !strncmp(a, "--", 2)) {
		a += 2;
		*eq = strchr(a, '=');
	}
	n = *eq ? (size_t)(*eq - a) : strlen(a);
	for (k = t->kw; k->name; k++)
		if (strlen(k->name) == n && !strncmp(k->name, a, n))
			return k;
	return NULL;
}

static void kw_names(char *buf, size_t len, const struct kw_table *t)
{
	const struct kw *k;
	size_t off = 0;

	buf[0] = 0;
	for (k = t->kw; k->name && off < len; k++)
		off += snprintf(buf + off, len - off, "%s%s",
				off ? (t->sep ? t->sep : " ") : "", k->name);
}

/*
 * "'WORD': unknown keyword (allowed: ...)"; a dashed table shows WORD
 * without "=VALUE" and at most 32 characters of the keyword.
 */
static int kw_unknown(const struct ctl *c, const struct kw_table *t,
		      const char *a)
{
	int dash = !strncmp(a, "--", 2) ? 2 : 0;
	size_t n = dash ? strcspn(a + dash, "=") : strlen(a);
	char names[256], as[40];
	const char *shown = a;

	if (t->dashed) {
		snprintf(as, sizeof(as), "%.*s",
			 (int)(dash + (n > 32 ? 32 : n)), a);
		shown = as;
	}
	if (t->unknown_hint)
		return ctl_usage(c, "'%s': unknown keyword (%s)", shown,
				 t->unknown_hint);
	kw_names(names, sizeof(names), t);
	return ctl_usage(c, "'%s': unknown keyword (allowed: %s)", shown,
			 names);
}

/* The words of keyword @k at argv[*@i]: into @l; *@i past them. */
static int kw_words(const struct ctl *c, const struct kw_table *t,
		    const struct kw *k, int argc, char **argv, int *i,
		    struct kw_list *l)
{
	const char *a = argv[*i], *eq;
	int max = k->type == KWT_LIST || k->type == KWT_REFUSE ?
		  (int)k->max : 1;

	kw_lookup(t, a, &eq);
	(*i)++;
	if (k->type == KWT_FLAG) {
		l->n = 0;
		return eq ? ctl_usage(c, "%s: takes no value", k->name) : 0;
	}
	if (eq) {
		l->v = argv + *i - 1;
		l->n = 1;
		l->eq = eq + 1;
		return 0;
	}
	l->eq = NULL;
	if (*i == argc ||
	    (kw_lookup(t, argv[*i], &eq) && (max != 1 || !t->any_value))) {
		if (t->missing_hint)
			return ctl_usage(c, "%.*s: missing %s",
					 (int)strcspn(a, "="), a,
					 t->missing_hint);
		return ctl_usage(c, "%s: missing %s", k->name, k->arg);
	}
	l->v = argv + *i;
	l->n = 0;
	do {
		l->n++;
		(*i)++;
	} while ((!max || l->n < max) && *i < argc &&
		 !kw_lookup(t, argv[*i], &eq));
	return 0;
}

static int kw_enum(const struct ctl *c, const struct kw *k, const char *v,
		   __u32 *out)
{
	char all[128];
	int i = arg_pick(v, k->words);

	if (i < 0 && k->extra)
		return ctl_usage(c, "%s '%s': %s", k->name, v, k->extra);
	if (i < 0) {
		arg_words(all, sizeof(all), k->words);
		return ctl_usage(c, "%s '%s': unknown (allowed: %s)", k->name,
				 v, all);
	}
	*out = k->vals ? k->vals[i] : (__u32)i;
	return 0;
}

/* The size of the field a keyword of type @t fills; 0: any. */
static size_t kw_size(enum kw_type t)
{
	switch (t) {
	case KWT_U32:
	case KWT_ENUM:
	case KWT_FLAG:
		return sizeof(__u32);
	case KWT_U64:
	case KWT_PROB:
		return sizeof(__u64);
	case KWT_STR:
	case KWT_NETNS:
		return sizeof(const char *);
	case KWT_LIST:
		return sizeof(struct kw_list);
	default:
		return 0;
	}
}

/* Every row of @t fills a field of the size of its type. */
static int kw_table_ok(const struct ctl *c, const struct kw_table *t)
{
	const struct kw *k;
	size_t want;

	for (k = t->kw; k->name; k++) {
		want = kw_size(k->type);
		if (k->size && want && k->size != want)
			return ctl_syserr(c, EINVAL, "its table row does not match the field it fills",
					  "%s: keyword %s", c->cmd_path,
					  k->name);
	}
	return k - t->kw > KW_MAX ?
	       ctl_syserr(c, E2BIG, "more keywords than KW_MAX", "%s",
			  c->cmd_path) : 0;
}

/* Value @v of keyword @k into its field @f. */
static int kw_value(const struct ctl *c, const struct kw *k,
		    const struct kw_list *l, void *f)
{
	const char *v = l->eq ? l->eq : l->n ? l->v[0] : "";
	__u64 x;
	int ret;

	switch (k->type) {
	case KWT_U32:
	case KWT_U64:
		ret = arg_u64(v, k->min, k->max, &x);
		if (ret)
			return arg_bad_u64(c, k->name, v, ret, k->min, k->max,
					   k->extra);
		if (k->type == KWT_U32)
			*(__u32 *)f = (__u32)x;
		else
			*(__u64 *)f = x;
		return 0;
	case KWT_PROB:
		ret = arg_prob(v, f);
		return ret ? arg_bad_prob(c, k->name, v, ret) : 0;
	case KWT_ENUM:
		return kw_enum(c, k, v, f);
	case KWT_STR:
		*(const char **)f = v;
		return 0;
	case KWT_NETNS:
		*(const char **)f = v;
		return xdp_arg_netns(c, v);
	case KWT_LIST:
		*(struct kw_list *)f = *l;
		return 0;
	case KWT_FN:
		return k->parse(c, k, v, f);
	case KWT_REFUSE:	/* refused before the values */
		return 0;
	case KWT_FLAG:
		*(__u32 *)f = 1;
		return 0;
	}
	return 0;
}

/*
 * The syntax of every argument: each a keyword of @t (@ks[i]) with its
 * words (@l[i]); *@n arguments, *@seen the bits of the keywords given.
 */
static int kw_syntax(const struct ctl *c, const struct kw_table *t,
		     int argc, char **argv, const struct kw **ks,
		     struct kw_list *l, int *n, __u64 *seen)
{
	const char *eq;
	int i = 0, ret;
	__u64 bit;

	for (*n = 0; i < argc; (*n)++) {
		ks[*n] = kw_lookup(t, argv[i], &eq);
		if (!ks[*n])
			return kw_unknown(c, t, argv[i]);
		bit = 1ULL << (ks[*n] - t->kw);
		if ((*seen & bit) && !t->repeat)
			return ctl_usage(c, "%s: given twice (allowed once)",
					 ks[*n]->name);
		*seen |= bit;
		ret = kw_words(c, t, ks[*n], argc, argv, &i, &l[*n]);
		if (ret)
			return ret;
	}
	return 0;
}

/* The first @required keyword of @t not in @seen, refused. */
static int kw_required(const struct ctl *c, const struct kw_table *t,
		       __u64 seen)
{
	const struct kw *k;

	for (k = t->kw; k->name; k++)
		if (k->required && !(seen & (1ULL << (k - t->kw))))
			return ctl_usage(c, "missing %s %s (usage: %s %s %s)",
					 k->name, k->arg, KBCTL_NAME,
					 c->cmd_path, t->usage ? t->usage :
					 c->cmd->synopsis);
	return 0;
}

/*
 * Parse @argc words of KEYWORD VALUE pairs by table @t into @out (the
 * command's struct; each keyword fills out + its @off): the syntax of
 * every argument, then the keywords of other kinds (KWT_REFUSE), then
 * the required ones, then the values in the order given.  *@given (may
 * be NULL) gets bit i for t->kw[i] given.  Return: 0, or the exit code
 * of the usage error printed.
 */
int kw_parse(const struct ctl *c, const struct kw_table *t, int argc,
	     char **argv, void *out, __u64 *given)
{
	struct kw_list *l = calloc(argc + 1, sizeof(*l));
	const struct kw **ks = calloc(argc + 1, sizeof(*ks));
	int n = 0, j, ret;
	__u64 seen = 0;

	if (!l || !ks) {
		ret = ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
		goto out;
	}
	ret = kw_table_ok(c, t);
	ret = ret ?: kw_syntax(c, t, argc, argv, ks, l, &n, &seen);
	for (j = 0; !ret && j < n; j++)
		if (ks[j]->type == KWT_REFUSE)
			ret = ctl_usage(c, "%s: %s", ks[j]->name,
					ks[j]->extra);
	ret = ret ?: kw_required(c, t, seen);
	for (j = 0; !ret && j < n; j++)
		ret = kw_value(c, ks[j], &l[j], (char *)out + ks[j]->off);
	if (!ret && given)
		*given = seen;
out:
	free(l);
	free(ks);
	return ret;
}

/* Was keyword @name of @t in @given (from kw_parse())? */
bool kw_has(const struct kw_table *t, __u64 given, const char *name)
{
	const struct kw *k;

	for (k = t->kw; k->name; k++)
		if (!strcmp(k->name, name))
			return given & (1ULL << (k - t->kw));
	return false;
}

/* The keywords of @t that have help, one per line (for --help). */
void kw_help(FILE *f, const struct kw_table *t)
{
	const struct kw *k;
	char lhs[48];

	for (k = t->kw; k->name && !k->help; k++)
		;
	if (!k->name)
		return;
	fprintf(f, "\nKeywords (each KEYWORD VALUE%s):\n", t->dashed ?
		", --KEYWORD VALUE or --KEYWORD=VALUE" : "");
	for (k = t->kw; k->name; k++) {
		if (!k->help)
			continue;
		snprintf(lhs, sizeof(lhs), "%s %s", k->name, k->arg);
		fprintf(f, "  %-22s %s\n", lhs, k->help);
	}
}
