// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: topology files (the format is in libkbloom_exp.h).
 *
 * One statement per line; node names are kept in an open-addressing
 * table on their FNV-1a hash.  Each statement is checked as it is read
 * (names, kinds, duplicate links, self links), the whole at the end
 * (every host has one link, at least two hosts, every host reaches every
 * other through switches: a shortest-path tree from the first host
 * spans them all).  A refusal is one line "topology file FILE:LINE:
 * WHAT", and nothing is built.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libkbloom_exp.h"

#define TF_NAME_MAX	32
#define TF_NODES_MAX	65536

struct tf_node {
	char name[TF_NAME_MAX];
	__u32 kind;
	__u32 level;
	__u32 nlinks;
};

struct tf {
	const char *path;
	struct tf_node *nodes;
	__u32 n;
	__u32 cap;
	__u32 *hash;		/* open addressing: node index + 1 */
	__u32 hcap;
	char *why;
	size_t len;
	__u32 line;
};

__attribute__((format(printf, 2, 3)))
static int tf_err(struct tf *f, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (f->why && f->len) {
		if (f->line)
			snprintf(f->why, f->len, "topology file %s:%u: %s",
				 f->path, f->line, msg);
		else
			snprintf(f->why, f->len, "topology file %s: %s",
				 f->path, msg);
	}
	return -EINVAL;
}

static __u32 tf_hash(const char *s)
{
	__u32 h = 2166136261U;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619U;
	return h;
}

static int tf_find(const struct tf *f, const char *name)
{
	__u32 i = tf_hash(name) & (f->hcap - 1);

	while (f->hash[i]) {
		if (!strcmp(f->nodes[f->hash[i] - 1].name, name))
			return (int)f->hash[i] - 1;
		i = (i + 1) & (f->hcap - 1);
	}
	return -1;
}

static int tf_name_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (n < 1 || n >= TF_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.-", s[i]))
			return 0;
	return 1;
}

static int tf_add_node(struct tf *f, const char *name, __u32 kind,
		       __u32 level)
{
	struct tf_node *nn;
	__u32 i;

	if (!tf_name_ok(name))
		return tf_err(f, "node name '%s': 1..%d of [A-Za-z0-9_.-]",
			      name, TF_NAME_MAX - 1);
	if (tf_find(f, name) >= 0)
		return tf_err(f, "node '%s': defined twice", name);
	if (f->n >= TF_NODES_MAX)
		return tf_err(f, "more than %u nodes", TF_NODES_MAX);
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		nn = realloc(f->nodes, f->cap * sizeof(*nn));
		if (!nn)
			return -ENOMEM;
		f->nodes = nn;
	}
	snprintf(f->nodes[f->n].name, TF_NAME_MAX, "%s", name);
	f->nodes[f->n].kind = kind;
	f->nodes[f->n].level = level;
	f->nodes[f->n].nlinks = 0;
	i = tf_hash(name) & (f->hcap - 1);
	while (f->hash[i])
		i = (i + 1) & (f->hcap - 1);
	f->hash[i] = ++f->n;
	return 0;
}

/* Split @s into at most @max words; return how many (max + 1: too many). */
static int tf_words(char *s, char **w, int max)
{
	int n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(s, " \t\r\n", &save); t;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == max)
			return max + 1;
		w[n++] = t;
	}
	return n;
}

/* Every host reaches every other host (through switches). */
static int tf_connected(struct tf *f, const struct kb_topo *t)
{
	struct kb_spt *s;
	__u32 i, h0 = t->hosts[0];
	int ret;

	ret = kb_spt_new(t, &s);
	if (ret)
		return ret;
	ret = kb_spt_compute(s, h0, 0);
	for (i = 1; !ret && i < t->nhosts; i++)
		if (s->dist[t->hosts[i]] == KB_NONE)
			ret = tf_err(f, "host %s cannot reach host %s (the topology is not connected)",
				     f->nodes[t->hosts[i]].name,
				     f->nodes[h0].name);
	kb_spt_free(s);
	return ret;
}

static int tf_statement(struct tf *f, struct kb_topo *t, char **w, int n)
{
	unsigned long v;
	char *end;
	int a, b, ret;

	if (!strcmp(w[0], "switch") || !strcmp(w[0], "host")) {
		__u32 kind = w[0][0] == 's' ? KB_NODE_SWITCH : KB_NODE_HOST;
		__u32 level = kind == KB_NODE_SWITCH ? 1 : 0;

		if (n < 2 || n > (kind == KB_NODE_SWITCH ? 3 : 2))
			return tf_err(f, "'%s': expected '%s'", w[0],
				      kind == KB_NODE_SWITCH ?
				      "switch NAME [LEVEL]" : "host NAME");
		if (n == 3) {
			errno = 0;
			v = strtoul(w[2], &end, 10);
			if (errno || *end || v < 1 || v > 255 || w[2][0] == '-')
				return tf_err(f, "switch %s: level '%s' (1..255)",
					      w[1], w[2]);
			level = (__u32)v;
		}
		ret = tf_add_node(f, w[1], kind, level);
		if (ret)
			return ret;
		ret = kb_topo_add_node(t, kind, level);
		return ret < 0 ? tf_err(f, "node %s: %s", w[1], strerror(-ret)) : 0;
	}
	if (!strcmp(w[0], "link")) {
		if (n != 3)
			return tf_err(f, "'link': expected 'link NAME NAME'");
		a = tf_find(f, w[1]);
		b = tf_find(f, w[2]);
		if (a < 0 || b < 0)
			return tf_err(f, "link %s %s: unknown node '%s' (define it first)",
				      w[1], w[2], a < 0 ? w[1] : w[2]);
		if (a == b)
			return tf_err(f, "link %s %s: a node cannot link to itself",
				      w[1], w[2]);
		if ((f->nodes[a].kind == KB_NODE_HOST && f->nodes[a].nlinks) ||
		    (f->nodes[b].kind == KB_NODE_HOST && f->nodes[b].nlinks))
			return tf_err(f, "link %s %s: host %s already has its one link",
				      w[1], w[2],
				      f->nodes[a].kind == KB_NODE_HOST &&
				      f->nodes[a].nlinks ? w[1] : w[2]);
		if (f->nodes[a].kind == KB_NODE_HOST &&
		    f->nodes[b].kind == KB_NODE_HOST)
			return tf_err(f, "link %s %s: two hosts (hosts attach to switches)",
				      w[1], w[2]);
		ret = kb_topo_add_link(t, a, b);
		if (ret == -ERANGE)
			return tf_err(f, "link %s %s: too many ports", w[1], w[2]);
		if (ret)
			return tf_err(f, "link %s %s: %s", w[1], w[2],
				      strerror(-ret));
		f->nodes[a].nlinks++;
		f->nodes[b].nlinks++;
		return 0;
	}
	return tf_err(f, "'%s': unknown statement (switch, host, link)", w[0]);
}

/* Two links between the same nodes: kb_topo_finalize() says -EEXIST. */
static int tf_finish(struct tf *f, struct kb_topo *t)
{
	__u32 i;
	int ret;

	f->line = 0;
	for (i = 0; i < f->n; i++)
		if (f->nodes[i].kind == KB_NODE_HOST && !f->nodes[i].nlinks)
			return tf_err(f, "host %s has no link", f->nodes[i].name);
	if (!f->n)
		return tf_err(f, "no nodes");
	ret = kb_topo_finalize(t);
	if (ret == -EEXIST)
		return tf_err(f, "two links between the same pair of nodes");
	if (ret)
		return tf_err(f, "%s", strerror(-ret));
	if (t->nhosts < 2)
		return tf_err(f, "%u host: at least 2 are needed (a source and a receiver)",
			      t->nhosts);
	return tf_connected(f, t);
}

int kb_exp_topo_load(const char *path, struct kb_topo **tp, char *why,
		     size_t len)
{
	struct tf f = { .path = path, .why = why, .len = len };
	struct kb_topo *t = NULL;
	char line[512], *w[4], *hash;
	FILE *in;
	int n, ret;

	if (!path || !tp)
		return -EINVAL;
	in = fopen(path, "re");
	if (!in) {
		ret = -errno;
		if (why && len)
			snprintf(why, len, "topology file %s: %s", path,
				 strerror(errno));
		return ret;
	}
	f.hcap = 2 * TF_NODES_MAX;
	f.hash = calloc(f.hcap, sizeof(*f.hash));
	ret = f.hash ? kb_topo_new(&t) : -ENOMEM;
	while (!ret && fgets(line, sizeof(line), in)) {
		f.line++;
		if (!strchr(line, '\n') && !feof(in)) {
			ret = tf_err(&f, "line longer than %zu bytes",
				     sizeof(line) - 2);
			break;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		n = tf_words(line, w, 3);
		if (!n)
			continue;
		if (n > 3) {
			ret = tf_err(&f, "'%s': too many words", w[0]);
			break;
		}
		ret = tf_statement(&f, t, w, n);
	}
	if (!ret && ferror(in)) {
		f.line = 0;	/* a folder: "Is a directory", not a line */
		ret = tf_err(&f, "%s", strerror(errno ?: EIO));
	}
	if (!ret)
		ret = tf_finish(&f, t);
	fclose(in);
	free(f.hash);
	free(f.nodes);
	if (ret) {
		kb_topo_free(t);
		return ret;
	}
	*tp = t;
	return 0;
}
