// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: filter similarity (libkbloom_survey.h, kbloom_similarity(),
 * the matrix Bloom filter's estimate):
 *
 *   similar A B      estimated |A|, |B|, |A n B|, |A u B| and Jaccard
 *
 * A and B are each an image file (an operand with a '/' or naming an
 * existing file) or a module filter (kbloom.ko's SAVE), standard or
 * blocked, of one geometry (type, m, k, hash, seed).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kbloomctl.h"
#include "libkbloom.h"
#include "libkbloom_dev.h"
#include "libkbloom_survey.h"

static bool is_file(const char *s)
{
	struct stat st;

	return strchr(s, '/') || !stat(s, &st);
}

/* Module filter @name, through its image. */
static int module_read(struct ctl *c, const char *name,
		       struct kbloom_filter **fp)
{
	size_t len;
	void *img;
	int ret;

	if (!arg_name_ok(name))
		return ctl_usage(c, "'%s': neither a file nor a filter name", name);
	ret = ctl_dev(c);
	if (ret)
		return ret;
	ret = kbloom_dev_save_alloc(c->dev_fd, name, &img, &len);
	if (ret)
		return ctl_syserr(c, ret, ret == -ENOENT ? "no such filter" :
				  NULL, "similar: save %s", name);
	ret = kbloom_load(img, len, fp);
	free(img);
	if (ret)
		return ctl_syserr(c, ret, "not a standard or blocked filter",
				  "similar: %s", name);
	return 0;
}

static int operand_read(struct ctl *c, const char *s,
			struct kbloom_filter **fp)
{
	int ret;

	if (!is_file(s))
		return module_read(c, s, fp);
	ret = kbloom_load_file(s, fp);
	if (!ret)
		return 0;
	return ctl_syserr(c, ret, ret == -EOPNOTSUPP ?
			  "not one image of a standard or blocked filter" :
			  image_why(ret), "similar: %s", s);
}

static void geom(char *buf, size_t len, const struct kbloom_filter *f)
{
	struct kbloom_stats st;

	kbloom_stats(f, &st);
	snprintf(buf, len, "%s, m %llu, k %u, hash %s, seed %#llx",
		 type_name(st.type), (unsigned long long)st.m, st.k,
		 hash_name(st.hash_id), (unsigned long long)st.seed);
}

static int refused(struct ctl *c, int ret, char **argv,
		   const struct kbloom_filter *a,
		   const struct kbloom_filter *b)
{
	char ga[160], gb[160];

	if (ret == -ERANGE)
		return ctl_syserr(c, ret, "a filter or their union is full: no estimate",
				  "similar %s %s", argv[0], argv[1]);
	if (ret == -EOPNOTSUPP)
		return ctl_usage(c, "similar: counting filters have no bit estimate (allowed: standard, blocked)");
	geom(ga, sizeof(ga), a);
	geom(gb, sizeof(gb), b);
	return ctl_usage(c, "similar: A and B differ in geometry (A: %s; B: %s)",
			 ga, gb);
}

static void print_text(const struct kbloom_similarity *s)
{
	printf("|A| ~ %.1f, |B| ~ %.1f, |A n B| ~ %.1f, |A u B| ~ %.1f, Jaccard %.4f (m %llu, k %u)\n",
	       s->n_a, s->n_b, s->n_inter, s->n_union, s->jaccard,
	       (unsigned long long)s->m, s->k);
}

static void print_json(const struct kbloom_similarity *s)
{
	struct json j;

	json_init(&j, stdout);
	json_obj(&j);
	json_ku64(&j, "m", s->m);
	json_ku64(&j, "k", s->k);
	json_ku64(&j, "ones_a", s->ones_a);
	json_ku64(&j, "ones_b", s->ones_b);
	json_ku64(&j, "ones_union", s->ones_union);
	json_kdouble(&j, "n_a", s->n_a);
	json_kdouble(&j, "n_b", s->n_b);
	json_kdouble(&j, "n_inter", s->n_inter);
	json_kdouble(&j, "n_union", s->n_union);
	json_kdouble(&j, "jaccard", s->jaccard);
	json_obj_end(&j);
	json_end(&j);
}

static int cmd_similar(struct ctl *c, int argc, char **argv)
{
	struct kbloom_filter *a = NULL, *b = NULL;
	struct kbloom_similarity s;
	int ret;

	(void)argc;
	ret = operand_read(c, argv[0], &a);
	if (!ret)
		ret = operand_read(c, argv[1], &b);
	if (ret)
		goto out_free;
	ret = kbloom_similarity(a, b, &s);
	if (ret) {
		ret = refused(c, ret, argv, a, b);
		goto out_free;
	}
	if (!ctl_quiet(c)) {
		if (c->set[CO_JSON])
			print_json(&s);
		else
			print_text(&s);
	}
	ret = ctl_flush_stdout(c);
out_free:
	kbloom_destroy(a);
	kbloom_destroy(b);
	return ret;
}

const struct ctl_cmd similar_cmds[] = {
	{
		.name = "similar",
		.synopsis = "A B",
		.summary = "estimate the intersection of two filters' sets from their bits",
		.help =
"A and B are each an image file (an operand with a '/' or naming an\n"
"existing file: kbloomctl save, map save, libkbloom) or a module filter\n"
"(read through kbloom.ko's SAVE), standard or blocked, of one geometry\n"
"(type, m, k, hash, seed).  With t ones of m bits, n(t) = -(m/k) ln(1 -\n"
"t/m) keys; |A u B| = n(ones of A OR B), |A n B| = |A| + |B| - |A u B|\n"
"(the matrix Bloom filter's estimate: within 5% for 10,000-key sets at 10\n"
"bits per key sharing half their keys).  Prints the estimates and the\n"
"Jaccard index |A n B| / |A u B|.\n",
		.min_args = 2,
		.max_args = 2,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_similar,
	},
	{ 0 }
};
