// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: persistent Bloom filters (libkbloom_persistent.h), archives
 * of filters saved per epoch, in files; no module needed:
 *
 *   persistent append ARCHIVE IMAGE|- [epoch E]   close an epoch
 *   persistent test ARCHIVE KEY [from T1] [to T2] was KEY in T1..T2?
 *   persistent stat ARCHIVE                       epochs, levels, rates
 *
 * IMAGE is one filter's image: kbloomctl save NAME (the module), map save
 * PATH (an XDP filter) or libkbloom's kbloom_save().  An ARCHIVE that
 * does not exist is made by its first append.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbloomctl.h"
#include "libkbloom.h"
#include "libkbloom_persistent.h"

struct pers_args {
	__u64 epoch;
	__u64 from;
	__u64 to;
};

static const struct kw append_kw[] = {
	KW("epoch", "E", KWT_U64, struct pers_args, epoch, .min = 0,
	   .max = ~0ULL - 1, .help = "the epoch's number (default: the next)"),
	{ 0 }
};

static const struct kw_table append_table = { .kw = append_kw };

static const struct kw test_kw[] = {
	KW("from", "T1", KWT_U64, struct pers_args, from, .min = 0,
	   .max = ~0ULL, .help = "the first epoch (default: the archive's)"),
	KW("to", "T2", KWT_U64, struct pers_args, to, .min = 0,
	   .max = ~0ULL, .help = "the last epoch (default: the archive's)"),
	{ 0 }
};

static const struct kw_table test_table = { .kw = test_kw };

/* A failed read of ARCHIVE, in one line. */
static int archive_err(struct ctl *c, int ret, const char *path)
{
	return ctl_syserr(c, ret, image_why(ret) ?
			  "not a persistent archive, or damaged" :
			  ret == -ESPIPE ? "not a regular file" : NULL,
			  "%s: %s", c->cmd_path, path);
}

/* ARCHIVE, loaded; a new empty one when @may_create and it is absent. */
static int pers_open(struct ctl *c, const char *path, bool may_create,
		     struct kbloom_pers **ap)
{
	int ret = kbloom_pers_load_file(path, ap);

	if (ret == -ENOENT && may_create)
		ret = kbloom_pers_create(ap);
	return ret ? archive_err(c, ret, path) : 0;
}

/* "a counting filter, m 4096, k 3, hash fast" */
static void geom_text(char *buf, size_t len, __u32 type, __u64 m, __u32 k,
		      __u32 hash_id)
{
	snprintf(buf, len, "%s, m %llu, k %u, hash %s", type_name(type),
		 (unsigned long long)m, k, hash_name(hash_id));
}

/* The one line of a refused append. */
static int append_refused(struct ctl *c, int ret, const char *archive,
			  const char *image, const struct kbloom_pers *a,
			  const struct kbloom_filter *f, __u64 epoch)
{
	struct kbloom_pers_stats ps;
	struct kbloom_stats fs;
	char want[160], got[160];

	kbloom_pers_stats(a, &ps);
	if (ret == -ENOSPC)
		return ctl_usage(c, "%s: full (%llu epochs, the most an archive holds)",
				 archive, (unsigned long long)ps.epochs);
	if (ret != -EINVAL)
		return ctl_syserr(c, ret, NULL, "%s %s", c->cmd_path, archive);
	if (epoch != KBLOOM_PERS_NEXT && epoch != ps.first + ps.epochs)
		return ctl_usage(c, "epoch %llu: not the next epoch of %s (allowed: %llu; epochs are appended in order)",
				 (unsigned long long)epoch, archive,
				 (unsigned long long)(ps.first + ps.epochs));
	kbloom_stats(f, &fs);
	geom_text(want, sizeof(want), ps.type, ps.m, ps.k, ps.hash_id);
	geom_text(got, sizeof(got), fs.type, fs.m, fs.k, fs.hash_id);
	return ctl_usage(c, "IMAGE %s: %s%s, not the geometry of %s's epochs (allowed: %s, the same seed)",
			 image, got, fs.seed != ps.seed ? ", another seed" : "",
			 archive, want);
}

/* The epoch's filter from IMAGE ("-": standard input). */
static int image_read(struct ctl *c, const char *image,
		      struct kbloom_filter **fp)
{
	bool std = !strcmp(image, "-");
	int ret;

	if (std && isatty(STDIN_FILENO))
		return ctl_usage(c, "IMAGE -: standard input is a terminal (allowed: a file, or redirect from one)");
	ret = kbloom_load_file(std ? "/dev/stdin" : image, fp);
	if (!ret)
		return 0;
	return ctl_syserr(c, ret, ret == -EOPNOTSUPP ?
			  "not a standard, blocked or counting filter" :
			  image_why(ret),
			  "%s: IMAGE %s", c->cmd_path, image);
}

static int cmd_append(struct ctl *c, int argc, char **argv)
{
	struct pers_args pa = { .epoch = KBLOOM_PERS_NEXT };
	struct kbloom_pers_stats st;
	struct kbloom_filter *f = NULL;
	struct kbloom_pers *a = NULL;
	int ret;

	ret = kw_parse(c, &append_table, argc - 2, argv + 2, &pa, NULL);
	ret = ret ?: image_read(c, argv[1], &f);
	ret = ret ?: pers_open(c, argv[0], true, &a);
	if (ret)
		goto out;
	ret = kbloom_pers_append(a, pa.epoch, f);
	if (ret) {
		ret = append_refused(c, ret, argv[0], argv[1], a, f, pa.epoch);
		goto out;
	}
	f = NULL;
	ret = kbloom_pers_save_file(a, argv[0]);
	if (ret) {
		ret = ctl_syserr(c, ret, NULL, "%s: write %s", c->cmd_path,
				 argv[0]);
		goto out;
	}
	kbloom_pers_stats(a, &st);
	if (!ctl_quiet(c))
		printf("%s: epoch %llu appended (epochs %llu..%llu, %llu filters in all)\n",
		       argv[0], (unsigned long long)(st.first + st.epochs - 1),
		       (unsigned long long)st.first,
		       (unsigned long long)(st.first + st.epochs - 1),
		       (unsigned long long)st.members);
	ret = ctl_flush_stdout(c);
out:
	kbloom_destroy(f);
	kbloom_pers_destroy(a);
	return ret;
}

/* T1 and T2: given, or the archive's ends; inside it. */
static int test_range(struct ctl *c, __u64 first, __u64 epochs, __u64 given,
		      struct pers_args *pa, const char *archive)
{
	__u64 last = first + epochs - 1;

	if (!kw_has(&test_table, given, "from"))
		pa->from = first;
	if (!kw_has(&test_table, given, "to"))
		pa->to = last;
	if (pa->from < first || pa->from > last)
		return ctl_usage(c, "from %llu: not an epoch of %s (allowed: %llu..%llu)",
				 (unsigned long long)pa->from, archive,
				 (unsigned long long)first,
				 (unsigned long long)last);
	if (pa->to < pa->from || pa->to > last)
		return ctl_usage(c, "to %llu: not an epoch of %s from %llu (allowed: %llu..%llu)",
				 (unsigned long long)pa->to, archive,
				 (unsigned long long)pa->from,
				 (unsigned long long)pa->from,
				 (unsigned long long)last);
	return 0;
}

static void test_print(struct ctl *c, const char *text, int hit,
		       const struct pers_args *pa,
		       const struct kbloom_pers_query *q)
{
	struct json j;

	if (!c->set[CO_JSON]) {
		printf("%s: %s epochs %llu..%llu (%u of %u filters tested, union bound %.3g)\n",
		       text, hit ? "possibly present in" :
				   "definitely absent from",
		       (unsigned long long)pa->from,
		       (unsigned long long)pa->to, q->tested, q->cover,
		       pico_to_double(q->fpr_pico));
		return;
	}
	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "key", text);
	json_ku64(&j, "from", pa->from);
	json_ku64(&j, "to", pa->to);
	json_kbool(&j, "present", hit);
	json_ku64(&j, "filters", q->cover);
	json_ku64(&j, "tested", q->tested);
	json_kdouble(&j, "fpr_bound", pico_to_double(q->fpr_pico));
	json_obj_end(&j);
	json_end(&j);
}

/* Reads the archive's header and the cover's filters only. */
static int cmd_test(struct ctl *c, int argc, char **argv)
{
	struct pers_args pa = { 0 };
	struct kbloom_pers_query q;
	__u8 key[KBLOOM_KEY_MAX];
	__u64 given, first, epochs;
	char why[128];
	__u32 len;
	int ret, hit;

	ret = kw_parse(c, &test_table, argc - 2, argv + 2, &pa, &given);
	if (ret)
		return ret;
	if (key_parse(c->key_enc, argv[1], strlen(argv[1]), key, &len, why,
		      sizeof(why)))
		return ctl_usage(c, "KEY '%s': %s", argv[1], why);
	ret = kbloom_pers_file_epochs(argv[0], &first, &epochs);
	if (ret)
		return archive_err(c, ret, argv[0]);
	ret = test_range(c, first, epochs, given, &pa, argv[0]);
	if (ret)
		return ret;
	hit = kbloom_pers_test_file(argv[0], pa.from, pa.to, key, len, &q);
	if (hit < 0)
		return archive_err(c, hit, argv[0]);
	if (!ctl_quiet(c)) {
		test_print(c, argv[1], hit, &pa, &q);
		ret = ctl_flush_stdout(c);
		if (ret)
			return ret;
	}
	return hit ? KBCTL_OK : KBCTL_ABSENT;
}

static void stat_text(const char *archive, const struct kbloom_pers_stats *st)
{
	char size[64];
	__u32 j;

	fmt_size(size, sizeof(size), st->bytes);
	printf("archive:      %s\n", archive);
	printf("epochs:       %llu..%llu (%llu)\n",
	       (unsigned long long)st->first,
	       (unsigned long long)(st->first + st->epochs - 1),
	       (unsigned long long)st->epochs);
	printf("type:         %s\n", type_name(st->type));
	printf("geometry:     m=%llu k=%u hash %s seed 0x%llx\n",
	       (unsigned long long)st->m, st->k, hash_name(st->hash_id),
	       (unsigned long long)st->seed);
	printf("filters:      %llu in %u levels, %s\n",
	       (unsigned long long)st->members, st->levels, size);
	printf("inserted:     %llu\n", (unsigned long long)st->inserted);
	for (j = 0; j < st->levels; j++)
		printf("level %-2u      %llu filter%s of %llu epoch%s, highest predicted fpr %.3g\n",
		       j, (unsigned long long)st->level_nodes[j],
		       st->level_nodes[j] == 1 ? "" : "s", 1ULL << j,
		       j ? "s" : "", pico_to_double(st->level_fpr_max_pico[j]));
}

static void stat_json(const char *archive, const struct kbloom_pers_stats *st)
{
	struct json j;
	__u32 i;

	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "archive", archive);
	json_ku64(&j, "first", st->first);
	json_ku64(&j, "last", st->first + st->epochs - 1);
	json_ku64(&j, "epochs", st->epochs);
	json_kstr(&j, "type", type_name(st->type));
	json_ku64(&j, "m", st->m);
	json_ku64(&j, "k", st->k);
	json_kstr(&j, "hash", hash_name(st->hash_id));
	json_ku64(&j, "seed", st->seed);
	json_ku64(&j, "filters", st->members);
	json_ku64(&j, "bytes", st->bytes);
	json_ku64(&j, "inserted", st->inserted);
	json_key(&j, "levels");
	json_arr(&j);
	for (i = 0; i < st->levels; i++) {
		json_obj(&j);
		json_ku64(&j, "level", i);
		json_ku64(&j, "filters", st->level_nodes[i]);
		json_ku64(&j, "epochs_each", 1ULL << i);
		json_kdouble(&j, "fpr_max",
			     pico_to_double(st->level_fpr_max_pico[i]));
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

static int cmd_stat(struct ctl *c, int argc, char **argv)
{
	struct kbloom_pers_stats st;
	struct kbloom_pers *a;
	int ret;

	ret = pers_open(c, argv[0], false, &a);
	if (ret)
		return ret;
	kbloom_pers_stats(a, &st);
	kbloom_pers_destroy(a);
	if (ctl_quiet(c))
		return KBCTL_OK;
	if (c->set[CO_JSON])
		stat_json(argv[0], &st);
	else
		stat_text(argv[0], &st);
	return ctl_flush_stdout(c);
}

static const struct ctl_cmd persistent_sub[] = {
	{
		.name = "append",
		.synopsis = "ARCHIVE IMAGE|- [epoch E]",
		.summary = "close an epoch: append a saved filter to an archive",
		.help =
"IMAGE (or standard input) holds one image of a standard, blocked or\n"
"counting filter: kbloomctl save NAME, map save PATH, libkbloom.  Every\n"
"epoch has the first one's geometry (type, m, k, hash, seed).  Epochs are\n"
"numbers the user chooses (minutes, a sequence), consecutive: E is the\n"
"archive's next epoch, or any number for the first (default: the next, 0\n"
"for the first).  ARCHIVE is made when it does not exist and replaced\n"
"atomically; it also holds the merged filters of every aligned run of\n"
"2^j epochs, so a range query tests at most 2 log2(range) filters.\n",
		.min_args = 2,
		.max_args = 4,
		.kw = &append_table,
		.run = cmd_append,
	},
	{
		.name = "test",
		.synopsis = "ARCHIVE KEY [from T1] [to T2]",
		.summary = "was KEY added in an epoch from T1 to T2? exit 0 if possibly",
		.help =
"KEY as for the module's test (--key).  The range defaults to the whole\n"
"archive.  Reads the archive's header and the filters of the range's cover\n"
"only (at most 2 log2 of the range), each checked on its own.  Prints the\n"
"answer, the filters tested and the union bound of their predicted rates\n"
"(the range's false-positive rate at most).  Exit status 0 when possibly\n"
"present, 1 when definitely absent.\n",
		.min_args = 2,
		.max_args = 6,
		.opts = CTL_OPT(CO_KEY) | CTL_OPT(CO_JSON),
		.kw = &test_table,
		.run = cmd_test,
	},
	{
		.name = "plan",
		.synopsis = "keys N range R fpr P [type blocked|standard|counting]",
		.summary = "size the epoch filters for ranges of up to R epochs at rate P",
		.help =
"The cover of a range of up to R epochs holds at most R N keys, and the\n"
"rates of its filters add up to at most that of one filter of R N keys\n"
"(kb_pers_plan()): epoch filters planned for R N keys at P keep every\n"
"such range at P or below.  Prints the filter (m, k, bytes), the archive's\n"
"bytes per epoch and the create command of a module filter to save per\n"
"epoch.  Creates nothing; works without the module.\n",
		.max_args = 8,
		.opts = CTL_OPT(CO_JSON),
		.kw = &pplan_table,
		.run = persistent_cmd_plan,
	},
	{
		.name = "stat",
		.synopsis = "ARCHIVE",
		.summary = "an archive's epochs, geometry, levels and their rates",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_stat,
	},
	{ 0 }
};

const struct ctl_cmd persistent_cmds[] = {
	{
		.name = "persistent",
		.synopsis = "append|test|stat ARCHIVE ...",
		.summary = "persistent Bloom filters: archives of filters saved per epoch, range queries",
		.sub = persistent_sub,
	},
	{ 0 }
};
