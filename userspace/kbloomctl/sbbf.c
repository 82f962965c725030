// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: Parquet split-block Bloom filters (libkbloom_survey.h), in
 * files; no module needed:
 *
 *   sbbf create IMAGE keys N [fpr P]   an empty Parquet filter's image
 *   sbbf add IMAGE KEY...              add keys (the image is replaced)
 *   sbbf test FILE KEY                 possibly present? exit 0 if so
 *   sbbf import BITSET|- IMAGE         Parquet's raw bitset to an image
 *   sbbf export IMAGE BITSET|-         an image to Parquet's raw bitset
 *   sbbf stat FILE                     blocks, bits set, rate
 *
 * BITSET is the bytes that follow a column chunk's BloomFilterHeader in a
 * Parquet file (xxHash64, seed 0, 32-byte blocks); FILE is an image or a
 * bitset (an image starts with the image magic).  A key is a value's
 * plain encoding: the bytes of a string (--key for hex and the rest).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbloomctl.h"
#include "libkbloom.h"
#include "libkbloom_survey.h"

struct sbbf_args {
	__u64 n;
	__u64 p;
};

static const struct kw create_kw[] = {
	KW("keys", "N", KWT_U64, struct sbbf_args, n, .min = 1,
	   .max = 1ULL << 32, .required = true,
	   .help = "distinct values expected"),
	KW("fpr", "P", KWT_PROB, struct sbbf_args, p,
	   .help = "target false-positive rate (default 1%)"),
	{ 0 }
};

static const struct kw_table create_table = { .kw = create_kw };

/* Bytes a FILE may hold: a 128 MiB bitset and an image's header. */
#define SB_FILE_MAX	((size_t)KB_SBBF_BYTES_MAX + 4096)

/* The next read of a file: 0 at its end, -EFBIG past SB_FILE_MAX. */
static int sb_more(FILE *f, __u8 **buf, size_t *len, size_t *cap)
{
	__u8 *t;
	size_t n;

	if (*len == *cap) {
		if (*cap >= SB_FILE_MAX)
			return -EFBIG;
		t = realloc(*buf, *cap * 2);
		if (!t)
			return -ENOMEM;
		*buf = t;
		*cap *= 2;
	}
	errno = 0;
	n = fread(*buf + *len, 1, *cap - *len, f);
	*len += n;
	if (ferror(f))		/* a folder: EISDIR */
		return errno ? -errno : -EIO;
	return n ? 1 : 0;
}

/* The whole of @path ("-": standard input) into a new buffer. */
static int sb_slurp(const char *path, void **bufp, size_t *lenp)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t len = 0, cap = 1 << 16;
	__u8 *buf;
	int ret;

	if (!f)
		return errno ? -errno : -EIO;
	buf = malloc(cap);
	ret = buf ? 1 : -ENOMEM;
	while (ret > 0)
		ret = sb_more(f, &buf, &len, &cap);
	if (f != stdin)
		fclose(f);
	if (ret) {
		free(buf);
		return ret;
	}
	*bufp = buf;
	*lenp = len;
	return 0;
}

/* FILE as a filter: an image of a split-block type, or a raw bitset. */
static int sb_open(struct ctl *c, const char *path, bool image_only,
		   struct kbloom_sb **fp)
{
	const char *why = NULL;
	__u32 magic = 0;
	void *buf = NULL;
	size_t len = 0;
	int ret;

	if (!strcmp(path, "-") && isatty(STDIN_FILENO))
		return ctl_usage(c, "-: standard input is a terminal (allowed: a file, or redirect from one)");
	ret = sb_slurp(path, &buf, &len);
	if (ret)
		return ctl_syserr(c, ret, ret == -EFBIG ?
				  "more than a 128 MiB bitset" : NULL,
				  "%s: %s", c->cmd_path, path);
	if (len >= 4)
		memcpy(&magic, buf, 4);
	if (image_only || kb_le32(magic) == KBLOOM_IMAGE_MAGIC) {
		ret = kbloom_sb_load(buf, len, fp);
		why = ret == -EOPNOTSUPP ?
		      "not a split-block or ultra-fast filter's image" :
		      image_why(ret);
	} else {
		ret = kbloom_sb_parquet_import(buf, len, fp);
		why = ret == -EINVAL ?
		      "not a Parquet bitset (allowed: 32 bytes to 128 MiB, whole 32-byte blocks)" :
		      NULL;
	}
	free(buf);
	return ret ? ctl_syserr(c, ret, why, "%s: %s", c->cmd_path, path) : 0;
}

/* @f's image to @path, replacing it atomically. */
static int sb_write_image(struct ctl *c, const char *path,
			  const struct kbloom_sb *f)
{
	size_t len;
	void *img;
	int ret;

	ret = kbloom_sb_save_alloc(f, &img, &len);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s", c->cmd_path);
	ret = ctl_out_image(c, c->cmd_path, path, img, len);
	free(img);
	return ret;
}

static int cmd_create(struct ctl *c, int argc, char **argv)
{
	struct kbloom_opts o = { .hash_id = KBLOOM_HASH_XXH64 };
	struct sbbf_args a = { .p = KBLOOM_P_UNIT / 100 };
	struct kbloom_sb *f;
	int ret;

	ret = kw_parse(c, &create_table, argc - 1, argv + 1, &a, NULL);
	if (ret)
		return ret;
	ret = kbloom_sb_create(KBLOOM_TYPE_SPLIT_BLOCK, a.n, a.p, &o, &f);
	if (ret == -E2BIG)
		return ctl_usage(c, "keys %llu: too many for a 128 MiB Parquet filter at that rate",
				 (unsigned long long)a.n);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s", c->cmd_path);
	if (kbloom_sb_parquet_size(f) == 0) {
		kbloom_sb_destroy(f);
		return ctl_usage(c, "keys %llu: too many for a 128 MiB Parquet filter at that rate",
				 (unsigned long long)a.n);
	}
	ret = sb_write_image(c, argv[0], f);
	kbloom_sb_destroy(f);
	return ret;
}

/* Add or test each KEY, all parsed first; *@absent: one tested absent. */
static int sb_keys(struct ctl *c, int argc, char **argv, struct kbloom_sb *f,
		   bool add, int *absent)
{
	__u8 key[KBLOOM_KEY_MAX];
	char why[128];
	__u32 len;
	int i, ret;

	for (i = 0; i < argc; i++) {
		if (key_parse(c->key_enc, argv[i], strlen(argv[i]), key, &len,
			      why, sizeof(why)))
			return ctl_usage(c, "KEY '%s': %s", argv[i], why);
	}
	for (i = 0; i < argc; i++) {
		key_parse(c->key_enc, argv[i], strlen(argv[i]), key, &len, why,
			  sizeof(why));
		ret = add ? kbloom_sb_add(f, key, len) :
			    kbloom_sb_test(f, key, len);
		if (ret < 0)
			return ctl_syserr(c, ret, NULL, "%s", c->cmd_path);
		if (!add && !ctl_quiet(c))
			printf("%s: %s\n", argv[i], ret ? "possibly present" :
							  "definitely absent");
		*absent |= !add && !ret;
	}
	return 0;
}

static int cmd_add(struct ctl *c, int argc, char **argv)
{
	struct kbloom_sb *f;
	int ret, absent = 0;

	ret = sb_open(c, argv[0], true, &f);
	if (ret)
		return ret;
	ret = sb_keys(c, argc - 1, argv + 1, f, true, &absent);
	ret = ret ?: sb_write_image(c, argv[0], f);
	kbloom_sb_destroy(f);
	return ret;
}

static int cmd_test(struct ctl *c, int argc, char **argv)
{
	struct kbloom_sb *f;
	int ret, absent = 0;

	ret = sb_open(c, argv[0], false, &f);
	if (ret)
		return ret;
	ret = sb_keys(c, argc - 1, argv + 1, f, false, &absent);
	kbloom_sb_destroy(f);
	ret = ret ?: ctl_flush_stdout(c);
	return ret ?: (absent ? KBCTL_ABSENT : KBCTL_OK);
}

static int cmd_import(struct ctl *c, int argc, char **argv)
{
	struct kbloom_sb *f;
	int ret;

	if (!strcmp(argv[0], "-") && isatty(STDIN_FILENO))
		return ctl_usage(c, "BITSET -: standard input is a terminal (allowed: a file, or redirect from one)");
	ret = sb_open(c, argv[0], false, &f);
	if (ret)
		return ret;
	ret = sb_write_image(c, argv[1], f);
	kbloom_sb_destroy(f);
	return ret;
}

static int cmd_export(struct ctl *c, int argc, char **argv)
{
	struct kbloom_sb_stats st;
	struct kbloom_sb *f;
	size_t len;
	void *buf;
	int ret;

	ret = sb_open(c, argv[0], true, &f);
	if (ret)
		return ret;
	len = kbloom_sb_parquet_size(f);
	kbloom_sb_stats(f, &st);
	if (!len) {
		ret = ctl_usage(c, "IMAGE %s: a %s filter, hash %s, seed 0x%llx: Parquet reads none but split-block filters with hash xxh64 and seed 0 (kbloomctl sbbf create makes one)",
				argv[0], type_name(st.shape.type),
				hash_name(st.hash_id),
				(unsigned long long)st.seed);
		goto out;
	}
	buf = malloc(len);
	ret = buf ? kbloom_sb_parquet_export(f, buf, len) : -ENOMEM;
	if (ret)
		ret = ctl_syserr(c, ret, NULL, "%s", c->cmd_path);
	else
		ret = ctl_out_image(c, c->cmd_path, argv[1], buf, len);
	free(buf);
out:
	kbloom_sb_destroy(f);
	return ret;
}

static int cmd_stat(struct ctl *c, int argc, char **argv)
{
	struct kbloom_sb_stats st;
	struct kbloom_sb *f;
	struct json j;
	int ret;

	ret = sb_open(c, argv[0], false, &f);
	if (ret)
		return ret;
	kbloom_sb_stats(f, &st);
	kbloom_sb_destroy(f);
	if (ctl_quiet(c))
		return KBCTL_OK;
	if (!c->set[CO_JSON]) {
		printf("%s: %s, %llu blocks (%llu bytes), hash %s seed 0x%llx, %llu bits set (%.2f%%), %llu keys added, predicted fpr %.3g%s\n",
		       argv[0], type_name(st.shape.type),
		       (unsigned long long)st.shape.buckets,
		       (unsigned long long)st.bytes, hash_name(st.hash_id),
		       (unsigned long long)st.seed,
		       (unsigned long long)st.ones, 100.0 * st.ones / st.shape.m,
		       (unsigned long long)st.inserted, st.fpr_now,
		       st.inserted ? "" : " (keys unknown: a bitset)");
		return ctl_flush_stdout(c);
	}
	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "file", argv[0]);
	json_kstr(&j, "type", type_name(st.shape.type));
	json_ku64(&j, "blocks", st.shape.buckets);
	json_ku64(&j, "bytes", st.bytes);
	json_kstr(&j, "hash", hash_name(st.hash_id));
	json_ku64(&j, "seed", st.seed);
	json_ku64(&j, "ones", st.ones);
	json_ku64(&j, "inserted", st.inserted);
	json_kdouble(&j, "fpr_now", st.fpr_now);
	json_obj_end(&j);
	json_end(&j);
	return ctl_flush_stdout(c);
}

static const struct ctl_cmd sbbf_sub[] = {
	{
		.name = "create",
		.synopsis = "IMAGE keys N [fpr P]",
		.summary = "write an empty Parquet split-block filter's image",
		.help =
"The fewest 32-byte blocks whose split-block rate for N keys is at most P\n"
"(default 1%), rounded up to a power of two as Parquet's readers expect;\n"
"hash xxHash64, seed 0.  IMAGE is replaced atomically.\n",
		.min_args = 3,
		.max_args = 5,
		.kw = &create_table,
		.run = cmd_create,
	},
	{
		.name = "add",
		.synopsis = "IMAGE KEY...",
		.summary = "add keys to a split-block filter's image",
		.help =
"KEY is a value's plain encoding (a string's bytes; --key hex for others,\n"
"such as an INT64 column's 8 little-endian bytes).  Every KEY is checked\n"
"before any is added; IMAGE is replaced atomically.\n",
		.min_args = 2,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_KEY),
		.run = cmd_add,
	},
	{
		.name = "test",
		.synopsis = "FILE KEY...",
		.summary = "is KEY possibly in the filter? exit 0 if every KEY is",
		.help =
"FILE is an image or a raw Parquet bitset.  Prints one line per KEY; exit\n"
"status 0 when every KEY is possibly present, 1 when one is definitely\n"
"absent.\n",
		.min_args = 2,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_KEY),
		.run = cmd_test,
	},
	{
		.name = "import",
		.synopsis = "BITSET|- IMAGE",
		.summary = "a Parquet filter's raw bitset to a kbloom image",
		.help =
"BITSET holds the bytes after a column chunk's BloomFilterHeader (whole\n"
"32-byte blocks, 32 bytes to 128 MiB).  The image answers every key as\n"
"Parquet's readers do.\n",
		.min_args = 2,
		.max_args = 2,
		.run = cmd_import,
	},
	{
		.name = "export",
		.synopsis = "IMAGE BITSET|-",
		.summary = "a kbloom split-block filter to Parquet's raw bitset",
		.help =
"Only a split-block filter with hash xxh64 and seed 0 can be read by\n"
"Parquet (sbbf create, or an import); the bitset is its words' bytes.\n",
		.min_args = 2,
		.max_args = 2,
		.run = cmd_export,
	},
	{
		.name = "stat",
		.synopsis = "FILE",
		.summary = "a split-block filter's blocks, bits set and rate",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_stat,
	},
	{ 0 }
};

const struct ctl_cmd sbbf_cmds[] = {
	{
		.name = "sbbf",
		.synopsis = "create|add|test|import|export|stat FILE ...",
		.summary = "Parquet split-block Bloom filters: images, raw bitsets",
		.sub = sbbf_sub,
	},
	{ 0 }
};
