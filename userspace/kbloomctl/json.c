// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: a small streaming JSON writer for -j.  Commas are placed by
 * the writer; strings are escaped (control characters and bytes that are
 * not ASCII as \u00XX, so any byte string gives valid JSON); numbers are
 * integers or finite doubles (a non-finite double becomes null).
 */
#include <math.h>

#include "kbloomctl.h"

/* -p: every writer of this run indents */
static bool json_pretty_on;

void json_set_pretty(bool on)
{
	json_pretty_on = on;
}

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->need_comma = false;
	j->after_key = false;
	j->pretty = json_pretty_on;
}

/* -p: a new line, indented to @depth */
static void json_indent(struct json *j, int depth)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	fprintf(j->f, "%*s", 2 * depth, "");
}

/*
 * Before any value: the comma that separates it from the previous one
 * (and with -p, a new line in a container).
 */
static void json_sep(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
	} else {
		if (j->need_comma)
			fputc(',', j->f);
		if (j->depth)
			json_indent(j, j->depth);
	}
	j->need_comma = true;
}

static void json_open(struct json *j, char ch)
{
	json_sep(j);
	fputc(ch, j->f);
	j->depth++;
	j->need_comma = false;
}

static void json_close(struct json *j, char ch)
{
	if (j->need_comma)	/* not empty: the bracket on its own line */
		json_indent(j, j->depth - 1);
	fputc(ch, j->f);
	j->depth--;
	j->need_comma = true;
}

void json_obj(struct json *j)
{
	json_open(j, '{');
}

void json_obj_end(struct json *j)
{
	json_close(j, '}');
}

void json_arr(struct json *j)
{
	json_open(j, '[');
}

void json_arr_end(struct json *j)
{
	json_close(j, ']');
}

static void json_raw_str(struct json *j, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', j->f);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", j->f);
			break;
		case '\\':
			fputs("\\\\", j->f);
			break;
		case '\n':
			fputs("\\n", j->f);
			break;
		case '\t':
			fputs("\\t", j->f);
			break;
		default:
			if (*p < 0x20 || *p >= 0x7f)
				fprintf(j->f, "\\u%04x", *p);
			else
				fputc(*p, j->f);
		}
	}
	fputc('"', j->f);
}

void json_key(struct json *j, const char *k)
{
	json_sep(j);
	json_raw_str(j, k);
	fputs(j->pretty ? ": " : ":", j->f);
	j->after_key = true;
}

void json_str(struct json *j, const char *s)
{
	json_sep(j);
	json_raw_str(j, s);
}

void json_u64(struct json *j, __u64 v)
{
	json_sep(j);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_double(struct json *j, double v)
{
	json_sep(j);
	if (isfinite(v))
		fprintf(j->f, "%.6g", v);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, bool v)
{
	json_sep(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	json_sep(j);
	fputs("null", j->f);
}

/* The end of the document: a newline. */
void json_end(struct json *j)
{
	fputc('\n', j->f);
}

void json_kstr(struct json *j, const char *k, const char *s)
{
	json_key(j, k);
	json_str(j, s);
}

void json_ku64(struct json *j, const char *k, __u64 v)
{
	json_key(j, k);
	json_u64(j, v);
}

void json_kdouble(struct json *j, const char *k, double v)
{
	json_key(j, k);
	json_double(j, v);
}

void json_kbool(struct json *j, const char *k, bool v)
{
	json_key(j, k);
	json_bool(j, v);
}
