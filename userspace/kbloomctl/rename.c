// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: swap and rename of live filters, as ipset's swap and rename.
 *
 * Both rebind names in the module (KBLOOM_IOCTL_SWAP, _RENAME): nothing is
 * copied, and a reader of a swapped name finds the old or the new filter,
 * never none.  Arguments are checked before the device is opened.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kbloomctl.h"
#include "libkbloom_dev.h"

/* NAME and NEW (or NAME2): both valid, and different. */
static int pair_args(struct ctl *c, char **argv, const char *second)
{
	int ret = arg_name(c, "NAME", argv[0]);

	if (!ret)
		ret = arg_name(c, second, argv[1]);
	if (!ret && !strcmp(argv[0], argv[1]))
		ret = ctl_usage(c, "%s '%s': the same name as NAME (allowed: another name)",
				second, argv[1]);
	return ret;
}

/* Which of the two names is missing, for the message of ENOENT. */
static const char *pair_missing(struct ctl *c, char **argv)
{
	struct kbloom_stat st;

	if (kbloom_dev_stat(c->dev_fd, argv[0], &st) == -ENOENT)
		return argv[0];
	return argv[1];
}

static int pair_err(struct ctl *c, int err, char **argv)
{
	char hint[96];

	switch (-err) {
	case ENOENT:
		snprintf(hint, sizeof(hint), "no filter named %s",
			 pair_missing(c, argv));
		break;
	case EEXIST:
		snprintf(hint, sizeof(hint),
			 "a filter named %s exists: destroy it first, or swap",
			 argv[1]);
		break;
	case EPERM:
		snprintf(hint, sizeof(hint), "needs CAP_NET_ADMIN");
		break;
	default:
		hint[0] = '\0';
	}
	return ctl_syserr(c, err, hint, "%s %s %s", c->cmd_path, argv[0],
			  argv[1]);
}

static int pair_run(struct ctl *c, char **argv, const char *second,
		    int (*fn)(int, const char *, const char *))
{
	int ret = pair_args(c, argv, second);

	if (ret)
		return ret;
	ret = ctl_dev(c);
	if (ret)
		return ret;
	ret = fn(c->dev_fd, argv[0], argv[1]);
	return ret ? pair_err(c, ret, argv) : KBCTL_OK;
}

static int cmd_swap(struct ctl *c, int argc, char **argv)
{
	return pair_run(c, argv, "NAME2", kbloom_dev_swap);
}

static int cmd_rename(struct ctl *c, int argc, char **argv)
{
	return pair_run(c, argv, "NEW", kbloom_dev_rename);
}

const struct ctl_cmd rename_cmds[] = {
	{
		.name = "swap",
		.synopsis = "NAME NAME2",
		.summary = "exchange the filters of two names",
		.help =
"As ipset's swap: afterwards NAME is the filter that was NAME2 and the\n"
"reverse, with their keys, counts and ids.  Nothing is copied; a program\n"
"or command looking up either name meanwhile finds the old or the new\n"
"filter, never none.  Unlike ipset, the two may differ in type and size\n"
"(as with restore --replace).  Both must exist.\n",
		.min_args = 2,
		.max_args = 2,
		.run = cmd_swap,
	},
	{
		.name = "rename",
		.synopsis = "NAME NEW",
		.summary = "give a filter a new name",
		.help =
"NEW must not be in use (destroy it first, or swap).  The filter keeps\n"
"its keys, counts and id; a lookup of NAME finds it until it is renamed.\n",
		.min_args = 2,
		.max_args = 2,
		.run = cmd_rename,
	},
	{ 0 }
};
