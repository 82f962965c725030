/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloomctl: keyword tables (kw.c).  A command declares its KEYWORD VALUE
 * arguments once, as rows of a struct kw table, in the manner of
 * xdp-tools' DEFINE_OPTION and ipset's per-type arguments: name, type,
 * the field of the command's struct it fills, range, help.  kw_parse()
 * fills the struct, kw_help() prints the rows; every refusal is one line
 * naming the keyword.
 *
 *	struct plan_args { __u64 n, p; };
 *	static const struct kw plan_kw[] = {
 *		KW("capacity", "N", KWT_U64, struct plan_args, n,
 *		   .min = 1, .max = KBLOOM_M_MAX),
 *		KW("fpr", "P", KWT_PROB, struct plan_args, p),
 *		{ 0 }
 *	};
 *	static const struct kw_table plan_table = { .kw = plan_kw };
 *	...
 *	ret = kw_parse(c, &plan_table, argc, argv, &args, &given);
 */
#ifndef _KBLOOMCTL_KW_H
#define _KBLOOMCTL_KW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

struct ctl;

enum kw_type {
	KWT_U32,	/* __u32 in [@min, @max] */
	KWT_U64,	/* __u64 in [@min, @max] */
	KWT_PROB,	/* __u64: a probability in pico units (arg_prob()) */
	KWT_ENUM,	/* __u32: @vals[i] (or i) of the i-th of @words */
	KWT_STR,	/* const char *: the word as given */
	KWT_NETNS,	/* const char *: netns NS, checked */
	KWT_LIST,	/* struct kw_list: 1..@max words (0: up to a keyword) */
	KWT_FN,		/* @parse fills the field */
	KWT_REFUSE,	/* another kind's: refused, "NAME: @extra" */
	KWT_FLAG,	/* __u32: 1 when given; takes no value */
};

/* the words of a KWT_LIST keyword */
struct kw_list {
	char **v;
	int n;
	const char *eq;		/* --KEYWORD=VALUE: VALUE */
};

/**
 * struct kw - one keyword of a command
 * @name: the keyword; NULL ends a table
 * @arg: its value's name ("N", "IFACE..."), for help and messages
 * @type: enum kw_type
 * @off, @size: offsetof() and sizeof() the field it fills in the
 *              command's struct (KW() sets both)
 * @min, @max: KWT_U32, KWT_U64: the range; KWT_LIST, KWT_REFUSE: @max
 *              words (0: up to the next keyword)
 * @extra: KWT_U32, KWT_U64: more of the allowed text ("keys expected");
 *         KWT_REFUSE: why, and what is allowed instead;
 *         KWT_ENUM: what a word not in @words is told instead of
 *         "unknown (allowed: A|B)"
 * @words, @vals: KWT_ENUM
 * @parse: KWT_FN: check @v and fill @field; a usage error otherwise
 * @help: one line for --help (kw_help()), or NULL
 * @required: "missing NAME ARG (usage: ...)" when not given
 */
struct kw {
	const char *name;
	const char *arg;
	enum kw_type type;
	size_t off, size;
	__u64 min, max;
	const char *extra;
	const char *const *words;
	const __u32 *vals;
	int (*parse)(const struct ctl *c, const struct kw *k, const char *v,
		     void *field);
	const char *help;
	bool required;
};

#define KW_MAX	64	/* keywords of a table */

/* KW(name, arg, type, struct, member, ...): one row of a table */
#define KW(_name, _arg, _type, _st, _member, ...)			\
	{ .name = (_name), .arg = (_arg), .type = (_type),		\
	  .off = offsetof(_st, _member),				\
	  .size = sizeof(((_st *)0)->_member), __VA_ARGS__ }

/* a keyword of another kind of a command ("bits" of xdp attach ipbf) */
#define KW_REFUSE(_name, _arg, _why, _max)				\
	{ .name = (_name), .arg = (_arg), .type = KWT_REFUSE,		\
	  .extra = (_why), .max = (_max) }

/**
 * struct kw_table - the keywords of a command
 * @kw: the keywords, ended by { 0 }
 * @unknown_hint: the parenthesis of "'X': unknown keyword (...)"; NULL:
 *                "allowed: " and the names, separated by @sep (" ")
 * @missing_hint: of "KEYWORD: missing ...": NULL: the keyword's @arg
 * @dashed: --KEYWORD VALUE and --KEYWORD=VALUE too
 * @repeat: a keyword given again replaces its value (else: refused)
 * @any_value: a keyword of one value takes the next word, even one that
 *             is a keyword (else that word ends it: "missing")
 * @usage: of a missing @required keyword; NULL: the command's synopsis
 */
struct kw_table {
	const struct kw *kw;
	const char *unknown_hint;
	const char *sep;
	const char *missing_hint;
	bool dashed;
	bool repeat;
	bool any_value;
	const char *usage;
};

int kw_parse(const struct ctl *c, const struct kw_table *t, int argc,
	     char **argv, void *out, __u64 *given);
bool kw_has(const struct kw_table *t, __u64 given, const char *name);
void kw_help(FILE *f, const struct kw_table *t);

#endif /* _KBLOOMCTL_KW_H */
