// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: XDP loss digests (libkbloom_loss.h), in the manner of
 * LossRadar: two observation points on a path fold every IPv4 packet
 * into an IBLT per epoch; the difference of their digests lists the
 * packets lost between them.
 *
 *   loss attach NAME dev IFACE [netns NS] [cells N | lost D] [hashes K]
 *               [hash fast|siphash] [seed S] [action pass|drop]
 *   loss detach NAME
 *   loss stats NAME           geometry and counters
 *   loss swap NAME OUT        end the epoch: its digest as an IBLT image
 *   loss dump NAME OUT        the current epoch's digest, as it is now
 *   loss diff UP DOWN         the packets in UP's digest and not in DOWN's
 *
 * Pins: KBLOOM_LOSS_PIN_ROOT/NAME.  Both points need the same cells,
 * hashes, hash and seed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "kbloomctl.h"
#include "libkbloom_loss.h"

static const char *const ls_action_words[] = { "pass", "drop", NULL };

struct ls_args {
	const char *dev;
	const char *netns;
	struct kbloom_loss_opts o;
	__u64 lost;
};

#define LA(_n, _a, _t, _m, ...)	KW(_n, _a, _t, struct ls_args, _m, __VA_ARGS__)

static const struct kw attach_kw[] = {
	LA("dev", "IFACE", KWT_STR, dev, .required = true),
	LA("netns", "NS", KWT_NETNS, netns),
	LA("cells", "N", KWT_U32, o.cells, .min = 1,
	   .max = KB_IBLT_CELLS_MAX / 2, .help = "cells per epoch"),
	LA("lost", "D", KWT_U64, lost, .min = 1, .max = KB_IBLT_CELLS_MAX / 3,
	   .help = "losses an epoch lists: 1.5 D cells"),
	LA("hashes", "K", KWT_U32, o.k, .min = KB_IBLT_K_MIN,
	   .max = KB_IBLT_K_MAX, .help = "cells per packet (default 4)"),
	LA("hash", "fast|siphash", KWT_ENUM, o.hash_id,
	   .words = xdp_hash_words, .vals = xdp_hash_ids),
	LA("seed", "S", KWT_U64, o.seed, .min = 0, .max = ~0ULL,
	   .extra = "decimal or 0x hex"),
	LA("action", "pass|drop", KWT_ENUM, o.action,
	   .words = ls_action_words, .help = "after the fold (default pass)"),
	{ 0 }
};

static const struct kw_table attach_table = { .kw = attach_kw };

static int ls_dir(struct ctl *c, const char *name, char *buf, size_t len)
{
	if (!arg_name_ok(name))
		return arg_name(c, "NAME", name);
	snprintf(buf, len, "%s/%s", KBLOOM_LOSS_PIN_ROOT, name);
	return 0;
}

static int ls_open(struct ctl *c, const char *name, struct kbloom_loss **lp)
{
	char dir[256];
	int ret = ls_dir(c, name, dir, sizeof(dir));

	if (ret)
		return ret;
	ret = kbloom_loss_open(dir, lp);
	if (ret)
		return ctl_syserr(c, ret, ret == -ENOENT ?
				  "no loss digest of that name (loss attach)" :
				  NULL, "%s: %s", c->cmd_path, name);
	return 0;
}

static int ls_geometry(struct ctl *c, struct ls_args *a, __u64 given)
{
	__u32 k = a->o.k ? a->o.k : KB_IBLT_K_DEFAULT;

	if (kw_has(&attach_table, given, "cells") &&
	    kw_has(&attach_table, given, "lost"))
		return ctl_usage(c, "lost D: not with cells N (give one)");
	if (a->lost)
		a->o.cells = (__u32)kb_iblt_cells_for(a->lost, 150, k);
	if (!a->o.cells)
		return ctl_usage(c, "missing cells N or lost D (the digest's size)");
	return 0;
}

static int cmd_attach(struct ctl *c, int argc, char **argv)
{
	struct ls_args a = { 0 };
	struct kbloom_loss *l;
	int ret, ns_fd = -1, idx, saved;
	char dir[256];
	__u64 given = 0;

	ret = ls_dir(c, argv[0], dir, sizeof(dir));
	ret = ret ?: kw_parse(c, &attach_table, argc - 1, argv + 1, &a,
			      &given);
	ret = ret ?: ls_geometry(c, &a, given);
	ret = ret ?: xdp_netns_open(c, a.netns, &ns_fd);
	ret = ret ?: xdp_port(c, c->cmd_path, ns_fd, a.netns, a.dev, &idx);
	if (ret)
		goto out;
	mkdir(KBLOOM_LOSS_PIN_ROOT, 0700);
	ret = xdp_ns_enter(ns_fd, &saved);
	ret = ret ?: kbloom_loss_attach(dir, idx, &a.o, &l);
	xdp_ns_leave(saved);
	if (ret) {
		ret = ctl_syserr(c, ret, ret == -EEXIST ?
				 "a loss digest of that name exists" : NULL,
				 "%s %s dev %s", c->cmd_path, argv[0], a.dev);
		goto out;
	}
	kbloom_loss_close(l);
out:
	if (ns_fd >= 0)
		close(ns_fd);
	return ret;
}

static int cmd_detach(struct ctl *c, int argc, char **argv)
{
	char dir[256];
	int ret = ls_dir(c, argv[0], dir, sizeof(dir));

	if (ret)
		return ret;
	ret = kbloom_loss_detach(dir);
	if (ret)
		return ctl_syserr(c, ret, ret == -ENOENT ?
				  "no loss digest of that name" : NULL,
				  "%s: %s", c->cmd_path, argv[0]);
	rmdir(KBLOOM_LOSS_PIN_ROOT);
	return 0;
}

static int cmd_stats(struct ctl *c, int argc, char **argv)
{
	struct kbloom_loss_params p;
	struct kbloom_loss_stats st;
	struct kbloom_loss *l;
	int ret;

	ret = ls_open(c, argv[0], &l);
	if (ret)
		return ret;
	ret = kbloom_loss_params(l, &p) ?: kbloom_loss_stats(l, &st);
	if (!ret) {
		printf("loss %s: cells %u, hashes %u, hash %s, bank %u, action %s\n",
		       argv[0], p.cells, p.k, hash_name(p.hash_id), p.bank,
		       ls_action_words[p.action & 1]);
		printf("packets %llu, folded %llu (%llu bytes), skipped %llu, errors %llu\n",
		       (unsigned long long)st.packets,
		       (unsigned long long)st.folded,
		       (unsigned long long)st.bytes,
		       (unsigned long long)st.skipped,
		       (unsigned long long)st.errors);
	}
	kbloom_loss_close(l);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s: %s", c->cmd_path, argv[0]);
	return ctl_flush_stdout(c);
}

static int ls_write(struct ctl *c, const char *path,
		    const struct kbloom_iblt *f)
{
	size_t len;
	void *img;
	int ret = kbloom_iblt_save_alloc(f, &img, &len);

	if (ret)
		return ctl_syserr(c, ret, NULL, "%s: %s", c->cmd_path, path);
	ret = ctl_out_image(c, c->cmd_path, path, img, len);
	free(img);
	return ret;
}

/* loss swap and loss dump: an epoch's digest into OUT. */
static int ls_save(struct ctl *c, char **argv, bool swap)
{
	struct kbloom_iblt *f = NULL;
	struct kbloom_loss *l;
	int ret;

	ret = ls_open(c, argv[0], &l);
	if (ret)
		return ret;
	ret = swap ? kbloom_loss_swap(l, &f) : kbloom_loss_read(l, &f);
	kbloom_loss_close(l);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s: %s", c->cmd_path, argv[0]);
	ret = ls_write(c, argv[1], f);
	kbloom_iblt_destroy(f);
	return ret;
}

static int cmd_swap(struct ctl *c, int argc, char **argv)
{
	return ls_save(c, argv, true);
}

static int cmd_dump(struct ctl *c, int argc, char **argv)
{
	return ls_save(c, argv, false);
}

static int ls_read(struct ctl *c, const char *path, struct kbloom_iblt **fp)
{
	int ret = kbloom_iblt_load_file(path, fp);

	if (!ret)
		return 0;
	return ctl_syserr(c, ret, ret == -EFBIG ?
			  "oversize: more cells than a digest holds" :
			  ret == -EOPNOTSUPP ? "not a loss digest image" :
			  NULL, "%s: %s", c->cmd_path, path);
}

static int ls_list(struct ctl *c, const struct kbloom_iblt *f,
		   const char *what)
{
	struct kbloom_iblt_stats st;
	struct kbloom_iblt_entry *e;
	char text[128];
	size_t n, i;
	int ret;

	kbloom_iblt_stats(f, &st);
	e = calloc(st.cells, sizeof(*e));
	if (!e)
		return ctl_syserr(c, -ENOMEM, NULL, "%s", c->cmd_path);
	ret = kbloom_iblt_decode(f, e, st.cells, &n);
	for (i = 0; !ret && i < n; i++)
		ret = kbloom_loss_format(&e[i], text, sizeof(text)) ?:
		      (printf("%s\n", text) < 0 ? -EIO : 0);
	free(e);
	if (ret == -E2BIG || ret == -EINVAL)
		return ctl_syserr(c, -E2BIG, "does not decode: more losses than the digest's cells list, or not digests of one path's epoch; attach with more cells (lost D)",
				  "%s: %s", c->cmd_path, what);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s: %s", c->cmd_path, what);
	return ctl_flush_stdout(c);
}

static int cmd_diff(struct ctl *c, int argc, char **argv)
{
	struct kbloom_iblt *up = NULL, *down = NULL;
	int ret;

	ret = ls_read(c, argv[0], &up);
	ret = ret ?: ls_read(c, argv[1], &down);
	if (!ret && kbloom_iblt_subtract(up, down))
		ret = ctl_usage(c, "%s, %s: digests of another geometry, hash or seed (allowed: both points attached with the same cells, hashes, hash and seed)",
				argv[0], argv[1]);
	ret = ret ?: ls_list(c, up, argv[0]);
	kbloom_iblt_destroy(up);
	kbloom_iblt_destroy(down);
	return ret;
}

static const struct ctl_cmd loss_sub[] = {
	{
		.name = "attach",
		.synopsis = "NAME dev IFACE [netns NS] [cells N | lost D] [hashes K] [hash fast|siphash] [seed S] [action pass|drop]",
		.summary = "an observation point: every IPv4 packet folded into the digest",
		.min_args = 3,
		.max_args = CTL_ARGS_ANY,
		.kw = &attach_table,
		.run = cmd_attach,
	},
	{
		.name = "detach",
		.synopsis = "NAME",
		.summary = "remove an observation point",
		.min_args = 1,
		.max_args = 1,
		.run = cmd_detach,
	},
	{
		.name = "stats",
		.synopsis = "NAME",
		.summary = "a point's geometry and counters",
		.min_args = 1,
		.max_args = 1,
		.run = cmd_stats,
	},
	{
		.name = "swap",
		.synopsis = "NAME OUT",
		.summary = "end the epoch: its digest as an IBLT image",
		.min_args = 2,
		.max_args = 2,
		.run = cmd_swap,
	},
	{
		.name = "dump",
		.synopsis = "NAME OUT",
		.summary = "the current epoch's digest as it is now",
		.min_args = 2,
		.max_args = 2,
		.run = cmd_dump,
	},
	{
		.name = "diff",
		.synopsis = "UP DOWN",
		.summary = "the packets UP saw and DOWN did not (one epoch's digests)",
		.min_args = 2,
		.max_args = 2,
		.run = cmd_diff,
	},
	{ 0 }
};

const struct ctl_cmd loss_cmds[] = {
	{
		.name = "loss",
		.summary = "XDP loss digests: which packets a path lost",
		.sub = loss_sub,
	},
	{ 0 }
};
