// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl count: the multiplicity estimates of keys in a module filter
 * (Count-Min sketch, or counting filter), KBLOOM_IOCTL_COUNT through
 * libkbloom_sketch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbloomctl.h"
#include "libkbloom_sketch.h"

static void count_print(struct ctl *c, const struct keyset *ks,
			const __u64 *est, const char *name, __u64 hits)
{
	struct key_iter it = { 0 };
	const __u8 *key;
	struct json j;
	char text[272];
	__u64 i = 0;
	__u32 len;

	if (c->set[CO_JSON]) {
		json_init(&j, stdout);
		json_obj(&j);
		json_kstr(&j, "filter", name);
		json_ku64(&j, "counted", ks->count);
		json_ku64(&j, "nonzero", hits);
		json_key(&j, "keys");
		json_arr(&j);
	}
	while (keys_next(ks, &it, &key, &len)) {
		key_render(ks->enc, key, len, text, sizeof(text));
		if (!c->set[CO_JSON]) {
			printf("%s: %llu\n", text, (unsigned long long)est[i++]);
			continue;
		}
		json_obj(&j);
		json_kstr(&j, "key", text);
		json_ku64(&j, "count", est[i++]);
		json_obj_end(&j);
	}
	if (c->set[CO_JSON]) {
		json_arr_end(&j);
		json_obj_end(&j);
		json_end(&j);
	}
}

static int cmd_count(struct ctl *c, int argc, char **argv)
{
	const char *name = argv[0];
	struct keyset ks;
	__u64 *est = NULL, hits = 0;
	long ret;
	int rc;

	rc = arg_name(c, "NAME", name);
	if (rc)
		return rc;
	rc = keys_collect(c, argc - 1, argv + 1, &ks);
	if (rc)
		goto out;
	est = calloc(ks.count ? ks.count : 1, sizeof(*est));
	rc = est ? ctl_dev(c) : ctl_syserr(c, ENOMEM, NULL, "count %s", name);
	if (rc)
		goto out;
	ret = kbloom_sketch_dev_count(c->dev_fd, name, ks.buf, ks.len,
				      ks.key_len, ks.count, est, &hits);
	if (ret < 0) {
		rc = ctl_syserr(c, (int)-ret, ret == -EOPNOTSUPP ?
				"only countmin and counting filters count" :
				NULL, "count %s", name);
		goto out;
	}
	if (!ctl_quiet(c)) {
		count_print(c, &ks, est, name, hits);
		rc = ctl_flush_stdout(c);
	}
out:
	free(est);
	keys_free(&ks);
	return rc;
}

const struct ctl_cmd countmin_cmds[] = {
	{
		.name = "count",
		.synopsis = "NAME KEY... | NAME -f FILE | NAME -",
		.summary = "estimated multiplicity of keys (countmin, counting)",
		.help =
"Keys as for add.  Prints \"KEY: N\" per key (JSON with -j): the minimum\n"
"of the key's counters, never below the number of times it was added\n"
"(while no counter saturated), at most epsilon N above it with\n"
"probability 1 - delta for a Count-Min sketch of w = e / epsilon columns\n"
"and d = ln(1 / delta) rows.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_KEY) | CTL_OPT(CO_FILE) | CTL_OPT(CO_JSON),
		.run = cmd_count,
	},
	{ 0 }
};
