// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: experiment parameters, their checks, scheme names, and
 * the topology file format.
 *
 * Every refusal is one line "WHAT: WHY" naming the parameter (or the
 * file and line) and the allowed range, so that kbloomctl can print it
 * as it is.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libkbloom_exp.h"

static const char *const scheme_names[KB_EXP_NSCHEMES] = {
	[KB_EXP_EXACT] = "exact",
	[KB_EXP_STANDARD] = "standard",
	[KB_EXP_BLOCKED] = "blocked",
	[KB_EXP_MCBF] = "mcbf",
	[KB_EXP_LIPSIN1] = "lipsin1",
	[KB_EXP_LIPSIN8] = "lipsin8",
	[KB_EXP_MSBF] = "msbf",
};

const char *kb_exp_scheme_name(__u32 scheme)
{
	return scheme < KB_EXP_NSCHEMES ? scheme_names[scheme] : "?";
}

int kb_exp_scheme_parse(const char *name)
{
	int i;

	for (i = 0; i < KB_EXP_NSCHEMES; i++)
		if (name && !strcmp(name, scheme_names[i]))
			return i;
	return -EINVAL;
}

void kb_exp_params_init(struct kb_exp_params *p)
{
	static const __u64 sweep[] = { 8192, 16384, 32768, 65536, 131072 };
	__u32 i;

	memset(p, 0, sizeof(*p));
	p->topo = KB_EXP_TOPO_FAT_TREE;
	p->ft_k = 16;
	p->groups = 10000;
	p->dist = KB_EXP_DIST_UNIFORM;
	p->size_min = 1;
	p->size_max = 0;
	p->zipf_s = 1.0;
	p->nbits = sizeof(sweep) / sizeof(sweep[0]);
	for (i = 0; i < p->nbits; i++)
		p->bits[i] = sweep[i];
	p->nclass = 4;
	p->mcbf_type = KBLOOM_TYPE_BLOCKED;
	p->lipsin_k = KB_IPBF_K_DEFAULT;
	p->fill_limit = KB_IPBF_FILL_DEFAULT;
	p->msbf_start_fp = 1.0;
	p->schemes = KB_EXP_ALL;
	p->seed = 1;
}

__attribute__((format(printf, 3, 4)))
static int why_set(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return -ERANGE;
}

/* The host count of the built-in topologies (0 for a file). */
static __u64 params_hosts(const struct kb_exp_params *p)
{
	switch (p->topo) {
	case KB_EXP_TOPO_FAT_TREE:
		return (__u64)p->ft_k * p->ft_k * p->ft_k / 4;
	case KB_EXP_TOPO_LEAF_SPINE:
		return (__u64)p->ls_leaves * p->ls_hosts;
	}
	return 0;
}

static int check_topo(const struct kb_exp_params *p, char *why, size_t len)
{
	switch (p->topo) {
	case KB_EXP_TOPO_FAT_TREE:
		if (p->ft_k < 2 || p->ft_k > KB_EXP_FT_K_MAX || p->ft_k % 2)
			return why_set(why, len,
				       "fat-tree k %u: out of range (an even number, 2..%u)",
				       p->ft_k, KB_EXP_FT_K_MAX);
		return 0;
	case KB_EXP_TOPO_LEAF_SPINE:
		if (p->ls_leaves < 1 || p->ls_leaves > 4096)
			return why_set(why, len, "leaf-spine leaves %u: out of range (1..4096)",
				       p->ls_leaves);
		if (p->ls_spines < 1 || p->ls_spines > 256)
			return why_set(why, len, "leaf-spine spines %u: out of range (1..256)",
				       p->ls_spines);
		if (p->ls_hosts < 1 || p->ls_hosts > 256)
			return why_set(why, len,
				       "leaf-spine hosts per leaf %u: out of range (1..256)",
				       p->ls_hosts);
		if ((__u64)p->ls_leaves * p->ls_hosts < 2)
			return why_set(why, len,
				       "leaf-spine: %u host: at least 2 are needed (a source and a receiver)",
				       p->ls_leaves * p->ls_hosts);
		if ((__u64)p->ls_leaves * p->ls_hosts > 65536)
			return why_set(why, len,
				       "leaf-spine: %llu hosts: at most 65536",
				       (unsigned long long)p->ls_leaves *
				       p->ls_hosts);
		return 0;
	case KB_EXP_TOPO_FILE:
		if (!p->topo_file || !*p->topo_file)
			return why_set(why, len, "topology file: none given");
		return 0;
	}
	return why_set(why, len, "topology: unknown kind %u", p->topo);
}

static int check_sizes(const struct kb_exp_params *p, __u64 nhosts,
		       char *why, size_t len)
{
	__u64 max = p->size_max;

	if (p->groups < 1 || p->groups > KB_EXP_GROUPS_MAX)
		return why_set(why, len, "groups %u: out of range (1..%u)",
			       p->groups, KB_EXP_GROUPS_MAX);
	if (p->dist < KB_EXP_DIST_UNIFORM || p->dist > KB_EXP_DIST_FIXED)
		return why_set(why, len, "sizes: unknown distribution %u",
			       p->dist);
	if (p->size_min < 1)
		return why_set(why, len,
			       "sizes: smallest group %u: a group has at least 1 receiver",
			       p->size_min);
	if (p->dist == KB_EXP_DIST_FIXED)
		max = p->size_min;
	if (max && p->dist != KB_EXP_DIST_FIXED && max < p->size_min)
		return why_set(why, len,
			       "sizes: largest group %llu is smaller than the smallest %u",
			       (unsigned long long)max, p->size_min);
	if (p->dist == KB_EXP_DIST_ZIPF &&
	    !(p->zipf_s > 0.0 && p->zipf_s <= 10.0))
		return why_set(why, len,
			       "sizes: zipf exponent %g: out of range (0 < s <= 10)",
			       p->zipf_s);
	if (!nhosts)
		return 0;
	if (nhosts < 2)
		return why_set(why, len,
			       "topology: %llu host: at least 2 are needed (a source and a receiver)",
			       (unsigned long long)nhosts);
	if (max > nhosts || p->size_min > nhosts)
		return why_set(why, len,
			       "sizes: a group of %llu receivers is larger than the %llu hosts of the topology",
			       (unsigned long long)(max > p->size_min ? max : p->size_min),
			       (unsigned long long)nhosts);
	return 0;
}

static int check_bits(const struct kb_exp_params *p, char *why, size_t len)
{
	__u64 step, m;
	__u32 i;
	int ref = !p->ref_bits;

	if (!(p->schemes & KB_EXP_PORT_FILTERS))
		return 0;
	if (p->nbits < 1 || p->nbits > KB_EXP_BITS_MAX)
		return why_set(why, len, "bits: %u sizes given (1..%d)",
			       p->nbits, KB_EXP_BITS_MAX);
	step = (p->schemes & KB_EXP_S(KB_EXP_BLOCKED)) ||
	       ((p->schemes & KB_EXP_S(KB_EXP_MCBF)) &&
		p->mcbf_type == KBLOOM_TYPE_BLOCKED) ? KBLOOM_BLOCK_BITS : 64;
	for (i = 0; i < p->nbits; i++) {
		m = p->bits[i];
		if (!m)
			return why_set(why, len,
				       "bits: 0: a filter needs at least one word (%llu..%llu bits per port)",
				       (unsigned long long)step,
				       (unsigned long long)(1ULL << 26));
		if (m < step || m > (1ULL << 26) || m % step)
			return why_set(why, len,
				       "bits %llu: out of range (a multiple of %llu, %llu..%llu bits per port%s)",
				       (unsigned long long)m,
				       (unsigned long long)step,
				       (unsigned long long)step,
				       (unsigned long long)(1ULL << 26),
				       step == 512 ? "; blocked and MC-BF filters are whole 512-bit blocks" : "");
		if (i && m <= p->bits[i - 1])
			return why_set(why, len,
				       "bits: %llu after %llu: the sizes must be ascending and distinct",
				       (unsigned long long)m,
				       (unsigned long long)p->bits[i - 1]);
		if (m == p->ref_bits)
			ref = 1;
	}
	if (!ref)
		return why_set(why, len,
			       "ref-bits %llu: not one of the swept sizes",
			       (unsigned long long)p->ref_bits);
	if (p->k > KBLOOM_K_MAX)
		return why_set(why, len,
			       "hashes %u: out of range (1..%u, or auto)", p->k,
			       KBLOOM_K_MAX);
	return 0;
}

static int check_classes(const struct kb_exp_params *p, char *why,
			 size_t len)
{
	__u32 i, given = 0;

	if (!(p->schemes & KB_EXP_S(KB_EXP_MCBF)))
		return 0;
	if (p->nclass < 1 || p->nclass > KB_MCBF_CLASSES)
		return why_set(why, len, "classes %u: out of range (1..%u)",
			       p->nclass, KB_MCBF_CLASSES);
	for (i = 0; i < p->nclass; i++)
		given += p->presence[i] != 0.0;
	if (given && given != p->nclass)
		return why_set(why, len,
			       "presence: %u of %u class probabilities given (all or none)",
			       given, p->nclass);
	for (i = 0; given && i < p->nclass; i++) {
		if (!(p->presence[i] > 0.0 && p->presence[i] < 1.0))
			return why_set(why, len,
				       "presence %g: out of range (0 < p < 1)",
				       p->presence[i]);
		if (i && p->presence[i] == p->presence[i - 1])
			return why_set(why, len,
				       "presence %g: given twice (one probability per class)",
				       p->presence[i]);
	}
	if (p->mcbf_type != KBLOOM_TYPE_BLOCKED &&
	    p->mcbf_type != KBLOOM_TYPE_STANDARD)
		return why_set(why, len,
			       "mcbf-type: %u: blocked or standard", p->mcbf_type);
	return 0;
}

static int check_in_packet(const struct kb_exp_params *p, char *why,
			   size_t len)
{
	if (!(p->schemes & KB_EXP_IN_PACKET))
		return 0;
	if (p->lipsin_k < KB_IPBF_K_MIN || p->lipsin_k > KB_IPBF_K_MAX)
		return why_set(why, len,
			       "lipsin-k %u: out of range (%u..%u bits per link ID)",
			       p->lipsin_k, KB_IPBF_K_MIN, KB_IPBF_K_MAX);
	if (p->fill_limit < 1 || p->fill_limit > KB_IPBF_ZF_BITS)
		return why_set(why, len,
			       "fill-limit %u: out of range (1..%u one bits of the zFilter)",
			       p->fill_limit, KB_IPBF_ZF_BITS);
	if (p->fill_limit < p->lipsin_k)
		return why_set(why, len,
			       "fill-limit %u: below lipsin-k %u, no link ID would fit",
			       p->fill_limit, p->lipsin_k);
	if (p->hop_slack > 64)
		return why_set(why, len, "hop-slack %u: out of range (0..64)",
			       p->hop_slack);
	if (!(p->msbf_start_fp >= 0.0 && p->msbf_start_fp <= 1000.0))
		return why_set(why, len,
			       "msbf-start %g: out of range (0..1000; 0: default)",
			       p->msbf_start_fp);
	return 0;
}

int kb_exp_params_check(const struct kb_exp_params *p, __u32 nhosts,
			char *why, size_t len)
{
	__u64 hosts = nhosts ? nhosts : params_hosts(p);
	int ret;

	if (!p)
		return -EINVAL;
	if (!p->schemes || (p->schemes & ~KB_EXP_ALL))
		return why_set(why, len, "schemes: none selected");
	ret = check_topo(p, why, len);
	if (!ret)
		ret = check_sizes(p, hosts, why, len);
	if (!ret)
		ret = check_bits(p, why, len);
	if (!ret)
		ret = check_classes(p, why, len);
	if (!ret)
		ret = check_in_packet(p, why, len);
	if (!ret && p->threads > KB_EXP_THREADS_MAX)
		ret = why_set(why, len, "threads %u: out of range (1..%u)",
			      p->threads, KB_EXP_THREADS_MAX);
	return ret;
}

/* ---- topology files -------------------------------------------------- */

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
	if (!ret && ferror(in))
		ret = tf_err(&f, "read error");
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
