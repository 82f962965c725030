// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: invertible Bloom lookup tables (libkbloom_iblt.h) in image
 * files, for set reconciliation between nodes; no module needed:
 *
 *   iblt build OUT -f FILE [cells N | diff D] [hashes K] [key-max B]
 *              [strata L] [hash fast|siphash] [seed S]
 *   iblt subtract A B OUT     A - B, cell by cell (same geometry and seed)
 *   iblt decode IMAGE         the keys: "+KEY" only in A, "-KEY" only in B
 *   iblt estimate IMAGE       the strata estimate of a difference's size
 * An image to read may be - (standard input: one of A and B at most).
 *
 * Two nodes build tables of the same geometry and seed from their keys,
 * one sends its table (about 1.5 cells per differing key), the other
 * subtracts and decodes.  A strata estimator (strata L) tells first how
 * many keys differ.  A table that does not decode is an error (exit 3)
 * and prints nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbloomctl.h"
#include "libkbloom_iblt.h"

struct ib_args {
	__u64 cells;
	__u64 diff;
	__u32 k;
	__u32 key_max;
	__u32 strata;
	__u32 hash_id;
	__u64 seed;
};

#define IA(_n, _a, _t, _m, ...)	KW(_n, _a, _t, struct ib_args, _m, __VA_ARGS__)

static const struct kw build_kw[] = {
	IA("cells", "N", KWT_U64, cells, .min = 1, .max = KB_IBLT_CELLS_MAX,
	   .help = "cells (per stratum with strata L)"),
	IA("diff", "D", KWT_U64, diff, .min = 1,
	   .max = KB_IBLT_CELLS_MAX * 2 / 3,
	   .help = "differences to list: 1.5 D cells"),
	IA("hashes", "K", KWT_U32, k, .min = KB_IBLT_K_MIN,
	   .max = KB_IBLT_K_MAX, .help = "cells per key (default 4)"),
	IA("key-max", "B", KWT_U32, key_max, .min = 1, .max = KBLOOM_KEY_MAX,
	   .help = "the longest key in bytes (default 16)"),
	IA("strata", "L", KWT_U32, strata, .min = 2, .max = KB_IBLT_STRATA_MAX,
	   .help = "a strata estimator of L strata (default cells 80)"),
	IA("hash", "fast|siphash", KWT_ENUM, hash_id,
	   .words = xdp_hash_words, .vals = xdp_hash_ids),
	IA("seed", "S", KWT_U64, seed, .min = 0, .max = ~0ULL,
	   .extra = "decimal or 0x hex"),
	{ 0 }
};

static const struct kw_table build_table = { .kw = build_kw };

/* A table read from @path, or an exit code (one line printed). */
/* The table in file @path, or on standard input for "-" (a pipe too). */
static int ib_read(struct ctl *c, const char *path, struct kbloom_iblt **fp)
{
	int ret = kbloom_iblt_load_file(strcmp(path, "-") ? path :
					"/dev/stdin", fp);

	if (!ret)
		return 0;
	return ctl_syserr(c, ret, ret == -EFBIG ?
			  "oversize: more cells than a table holds" :
			  ret == -EOPNOTSUPP ? "not an IBLT image" :
			  ret == -EBADMSG || ret == -EMSGSIZE ?
			  "damaged or truncated image" : NULL,
			  "%s: %s", c->cmd_path, path);
}

static int ib_write(struct ctl *c, const char *path,
		    const struct kbloom_iblt *f)
{
	size_t len;
	void *img;
	int ret;

	ret = kbloom_iblt_save_alloc(f, &img, &len);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s: %s", c->cmd_path, path);
	ret = ctl_out_image(c, c->cmd_path, path, img, len);
	free(img);
	return ret;
}

static int ib_create(struct ctl *c, const struct ib_args *a, __u64 given,
		     struct kbloom_iblt **fp)
{
	struct kbloom_opts o = { .hash_id = a->hash_id, .seed = a->seed };
	__u32 k = a->k ? a->k : KB_IBLT_K_DEFAULT;
	__u32 key_max = a->key_max ? a->key_max : 16;
	__u64 cells = a->cells;
	int ret;

	if (kw_has(&build_table, given, "cells") &&
	    kw_has(&build_table, given, "diff"))
		return ctl_usage(c, "diff D: not with cells N (give one)");
	if (a->diff)
		cells = kb_iblt_cells_for(a->diff, 150, k);
	if (a->strata)
		ret = kbloom_iblt_create_strata(a->strata, cells, k, key_max,
						&o, fp);
	else if (!cells)
		return ctl_usage(c, "missing cells N or diff D (the table's size)");
	else
		ret = kbloom_iblt_create(cells, k, key_max, &o, fp);
	if (ret == -EINVAL)
		return ctl_usage(c, "cells %llu: not a table of %u partitions (allowed: at least %u cells; at most %llu in all)",
				 (unsigned long long)cells, k, k,
				 (unsigned long long)KB_IBLT_CELLS_MAX);
	return ret ? ctl_syserr(c, ret, NULL, "%s", c->cmd_path) : 0;
}

struct ib_key {
	const __u8 *key;
	__u32 len;
	__u64 nr;		/* 1.. in the file's order */
};

static int ib_key_cmp(const void *a, const void *b)
{
	const struct ib_key *x = a, *y = b;
	int d;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	d = memcmp(x->key, y->key, x->len);
	if (d)
		return d;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

/*
 * A table holds a set: a key inserted twice counts 2 in its cells, which
 * never peel, and its difference with a table holding it once lists it.
 * A key given twice refuses the build, naming both.
 */
static int ib_dups(struct ctl *c, const struct keyset *ks)
{
	struct key_iter it = { 0 };
	struct ib_key *v;
	char text[160];
	__u64 n = 0, i;
	int ret = 0;

	v = calloc(ks->count ?: 1, sizeof(*v));
	if (!v)
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	while (n < ks->count && keys_next(ks, &it, &v[n].key, &v[n].len)) {
		v[n].nr = n + 1;
		n++;
	}
	qsort(v, n, sizeof(*v), ib_key_cmp);
	for (i = 1; i < n && !ret; i++) {
		if (v[i].len != v[i - 1].len ||
		    memcmp(v[i].key, v[i - 1].key, v[i].len))
			continue;
		key_render(ks->enc, v[i].key, v[i].len, text, sizeof(text));
		ret = ctl_usage(c, "%s: key '%s' given twice (keys %llu and %llu; a table holds a set, each key once)",
				ks->source ?: "-f", text,
				(unsigned long long)v[i - 1].nr,
				(unsigned long long)v[i].nr);
	}
	free(v);
	return ret;
}

/* Insert every key; a key longer than key-max refuses the whole build. */
static int ib_fill(struct ctl *c, struct kbloom_iblt *f,
		   const struct keyset *ks)
{
	struct kbloom_iblt_stats st;
	struct key_iter it = { 0 };
	const __u8 *key;
	__u32 len;

	kbloom_iblt_stats(f, &st);
	while (keys_next(ks, &it, &key, &len)) {
		if (len > st.key_max)
			return ctl_usage(c, "a key of %u bytes: longer than key-max %u (allowed: key-max up to %u)",
					 len, st.key_max, KBLOOM_KEY_MAX);
		kbloom_iblt_insert(f, key, len, 0);
	}
	return 0;
}

static int cmd_build(struct ctl *c, int argc, char **argv)
{
	struct ib_args a = { 0 };
	struct kbloom_iblt *f = NULL;
	struct keyset ks = { 0 };
	__u64 given = 0;
	int ret;

	if (!c->set[CO_FILE])
		return ctl_usage(c, "missing -f FILE (the keys, one a line; - for standard input)");
	ret = kw_parse(c, &build_table, argc - 1, argv + 1, &a, &given);
	ret = ret ?: keys_collect(c, 0, NULL, &ks);
	ret = ret ?: ib_dups(c, &ks);
	ret = ret ?: ib_create(c, &a, given, &f);
	ret = ret ?: ib_fill(c, f, &ks);
	ret = ret ?: ib_write(c, argv[0], f);
	kbloom_iblt_destroy(f);
	keys_free(&ks);
	return ret;
}

static int cmd_subtract(struct ctl *c, int argc, char **argv)
{
	struct kbloom_iblt *a = NULL, *b = NULL;
	int ret;

	if (!strcmp(argv[0], "-") && !strcmp(argv[1], "-"))
		return ctl_usage(c, "A and B: both - (standard input holds one image)");
	ret = ib_read(c, argv[0], &a);
	ret = ret ?: ib_read(c, argv[1], &b);
	if (!ret && kbloom_iblt_subtract(a, b))
		ret = ctl_usage(c, "%s, %s: tables of another geometry, hash or seed (allowed: tables built with the same cells, hashes, key-max, strata, hash and seed)",
				argv[0], argv[1]);
	ret = ret ?: ib_write(c, argv[2], a);
	kbloom_iblt_destroy(a);
	kbloom_iblt_destroy(b);
	return ret;
}

static int ib_print(struct ctl *c, const struct kbloom_iblt_entry *e,
		    size_t n)
{
	char text[4 * KBLOOM_KEY_MAX + 8];
	size_t i;

	for (i = 0; i < n; i++) {
		key_render(c->key_enc, e[i].key, e[i].len, text, sizeof(text));
		printf("%c%s\n", e[i].sign > 0 ? '+' : '-', text);
	}
	return ctl_flush_stdout(c);
}

static int cmd_decode(struct ctl *c, int argc, char **argv)
{
	struct kbloom_iblt_entry *e = NULL;
	struct kbloom_iblt_stats st;
	struct kbloom_iblt *f;
	size_t n = 0;
	int ret;

	ret = ib_read(c, argv[0], &f);
	if (ret)
		return ret;
	kbloom_iblt_stats(f, &st);
	e = calloc(st.cells ? st.cells : 1, sizeof(*e));
	ret = e ? kbloom_iblt_decode(f, e, st.cells, &n) : -ENOMEM;
	if (ret == -E2BIG)
		ret = ctl_syserr(c, ret, "does not decode: more differing keys than its cells list; build larger tables (diff D, after iblt estimate)",
				 "%s: %s", c->cmd_path, argv[0]);
	else if (ret)
		ret = ctl_syserr(c, ret, NULL, "%s: %s", c->cmd_path, argv[0]);
	else
		ret = ib_print(c, e, n);
	free(e);
	kbloom_iblt_destroy(f);
	return ret;
}

static int cmd_estimate(struct ctl *c, int argc, char **argv)
{
	struct kbloom_iblt *f;
	__u64 d;
	int ret;

	ret = ib_read(c, argv[0], &f);
	if (ret)
		return ret;
	ret = kbloom_iblt_estimate(f, &d);
	if (ret == -EINVAL)
		ret = ctl_usage(c, "%s: not a strata estimator (build it with strata L)",
				argv[0]);
	else if (ret)
		ret = ctl_syserr(c, ret, NULL, "%s: %s", c->cmd_path, argv[0]);
	else
		printf("%llu\n", (unsigned long long)d);
	kbloom_iblt_destroy(f);
	return ret ?: ctl_flush_stdout(c);
}

static const struct ctl_cmd iblt_sub[] = {
	{
		.name = "build",
		.synopsis = "OUT -f FILE [cells N | diff D] [hashes K] [key-max B] [strata L] [hash fast|siphash] [seed S]",
		.summary = "a table (or a strata estimator) of the keys of FILE",
		.help =
"OUT is a file, or - for standard output.  Keys are the lines of FILE in\n"
"the --key encoding.  Two tables subtract only when built with the same\n"
"geometry, hash and seed.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_KEY) | CTL_OPT(CO_FILE),
		.kw = &build_table,
		.run = cmd_build,
	},
	{
		.name = "subtract",
		.synopsis = "A B OUT",
		.summary = "the table of A minus B",
		.help =
"A or B may be - (standard input), OUT - (standard output).\n",
		.min_args = 3,
		.max_args = 3,
		.run = cmd_subtract,
	},
	{
		.name = "decode",
		.synopsis = "IMAGE",
		.summary = "list a difference: +KEY only in A, -KEY only in B",
		.help = "IMAGE may be - (standard input).\n",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_KEY),
		.run = cmd_decode,
	},
	{
		.name = "estimate",
		.synopsis = "IMAGE",
		.summary = "the strata estimate of a difference's size",
		.help = "IMAGE may be - (standard input).\n",
		.min_args = 1,
		.max_args = 1,
		.run = cmd_estimate,
	},
	{ 0 }
};

const struct ctl_cmd iblt_cmds[] = {
	{
		.name = "iblt",
		.summary = "invertible Bloom lookup tables: reconcile key sets",
		.sub = iblt_sub,
	},
	{ 0 }
};
