// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: what the commands of the counting kinds (sketch_xdp.c,
 * conntrack.c, libkbloom_xdp_count.h) share: their instances opened by
 * name and kind, and xdp attach of such an instance, made on first use,
 * to its interfaces.  Every interface is resolved first (exit 3, nothing
 * made); an attach that fails half-way is undone, a new instance with it.
 * And the image file of their save and load commands: -o FILE (written
 * whole, then renamed over FILE) or standard output, -i FILE or standard
 * input.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbloomctl.h"
#include "libkbloom_xdp_count.h"

/* Open instance @name of kind @want; exit 3 for none or another kind. */
int count_open(struct ctl *c, const char *name, const char *want,
	       struct kbloom_inst **ip)
{
	const char *k = xdp_kind_of(name);
	struct kbloom_inst_opts o;
	char why[160];
	int ret;

	xdp_log_reset();
	if (k != want) {
		if (k == XK_NONE)
			snprintf(why, sizeof(why), "no XDP instance named %s in %s",
				 name, xdp_root());
		else
			snprintf(why, sizeof(why), "%s is a %s instance, not %s",
				 name, xdp_kind_name(k), want);
		return ctl_syserr(c, k == XK_NONE ? ENOENT : EINVAL, why,
				  "%s %s", c->cmd_path, name);
	}
	xdp_inst_opts(&o, NULL);
	ret = kbloom_inst_open(name, &o, ip);
	return ret ? xdp_fail(c, ret, "%s %s: open", c->cmd_path, name) : 0;
}

static void count_log_none(void *ctx, const char *msg)
{
}

/* Instance @name for xdp status, NULL (and nothing said) when it fails. */
struct kbloom_inst *count_peek(const char *name)
{
	struct kbloom_inst_opts o;
	struct kbloom_inst *in;

	xdp_inst_opts(&o, NULL);
	o.log = count_log_none;
	return kbloom_inst_open(name, &o, &in) ? NULL : in;
}

/* Made or opened: instance @a->name, in the namespace @netns. */
static int count_get(struct ctl *c, struct count_attach *a, const char *netns,
		     bool create, const char *op, struct kbloom_inst **in)
{
	struct kbloom_inst_opts o;
	int ret;

	xdp_inst_opts(&o, netns);
	if (create)
		ret = kbloom_inst_create(a->name, a->kind, &o, a->kopts, in);
	else
		ret = kbloom_inst_open(a->name, &o, in);
	return ret ? xdp_fail(c, ret, "%s: %s", op,
			      create ? "create" : "open") : 0;
}

/* Attach @in to every dev not attached yet; undo on failure. */
static int count_devs(struct ctl *c, struct kbloom_inst *in,
		      const struct count_attach *a, const int *ifindex,
		      const char *op)
{
	char **dev = a->devl.v;
	int n = a->devl.n, i, ret = 0;
	enum kbloom_xdp_mode got;
	bool *done;

	done = calloc(n, sizeof(bool));
	if (!done)
		return ctl_syserr(c, ENOMEM, NULL, "%s", op);
	for (i = 0; i < n && !ret; i++)
		if (xdp_attached(in, ifindex[i]) && !c->set[CO_EXIST])
			ret = ctl_syserr(c, EEXIST, "already attached; -exist ignores it",
					 "%s: dev %s", op, dev[i]);
	for (i = 0; i < n && !ret; i++) {
		if (xdp_attached(in, ifindex[i]))
			continue;	/* -exist */
		ret = kbloom_inst_attach(in, ifindex[i], a->mode, &got);
		if (ret)
			ret = xdp_fail(c, ret, "%s: dev %s", op, dev[i]);
		else
			done[i] = true;
	}
	for (i = 0; ret && i < n; i++)
		if (done[i])
			kbloom_inst_detach(in, ifindex[i]);
	free(done);
	return ret;
}

int count_attach(struct ctl *c, struct count_attach *a)
{
	const char *have = xdp_kind_of(a->name), *netns;
	struct kbloom_inst *in = NULL;
	int ns_fd = -1, *ifindex = NULL, ret;
	char op[160];

	snprintf(op, sizeof(op), "%s %s %s", c->cmd_path, a->kind, a->name);
	xdp_log_reset();
	if (have != XK_NONE && have != a->kind)
		return ctl_syserr(c, EEXIST, have == XK_OTHER ?
				  "a directory that is not an instance" :
				  "an instance of another kind", "%s", op);
	if (have != XK_NONE && a->create_opts)
		return ctl_syserr(c, EEXIST, "the size and policy apply when the instance is made (xdp detach NAME removes it)",
				  "%s", op);
	ret = xdp_inst_ns(c, a->name, a->netns, true, &netns);
	ret = ret ?: xdp_devs_resolve(c, op, netns, a->devl.n, a->devl.v,
				       &ns_fd, &ifindex);
	ret = ret ?: count_get(c, a, netns, have == XK_NONE, op, &in);
	ret = ret ?: count_devs(c, in, a, ifindex, op);
	if (ret && in && have == XK_NONE) {
		kbloom_inst_destroy(in);
		in = NULL;
	}
	if (!ret)
		xdp_notes(c);
	kbloom_inst_close(in);
	if (ns_fd >= 0)
		close(ns_fd);
	free(ifindex);
	return ret ? ret : KBCTL_OK;
}

/* ---- image files ----------------------------------------------------------- */

static bool count_std(const char *path)
{
	return !path || !strcmp(path, "-");
}

/* -o FILE or standard output, as every -o (outfile.c) */
int count_image_out(struct ctl *c, const char *op, const void *img,
		    size_t len)
{
	return ctl_out_image(c, op, c->val[CO_OUTPUT], img, len);
}

/*
 * The end of a save command: the error @ret of making the image, else
 * the image @img (freed here) to -o FILE or standard output.
 */
int count_save_out(struct ctl *c, const char *op, int ret, void *img,
		   size_t len)
{
	if (ret)
		ret = xdp_fail(c, ret, "%s", op);
	else
		ret = count_image_out(c, op, img, len) ?: ctl_flush_stdout(c);
	free(img);
	return ret;
}

int count_image_in(struct ctl *c, const char *op, void **img, size_t *len)
{
	const char *in = c->val[CO_INPUT];
	bool std = count_std(in);
	FILE *f = std ? stdin : fopen(in, "rb");
	size_t cap = 0, n = 0, r;
	char *b = NULL, *t;
	int ret = 0;

	if (!f)
		return ctl_syserr(c, errno, NULL, "%s: open %s", op, in);
	do {
		if (n == cap) {
			t = realloc(b, cap ? cap * 2 : 1 << 16);
			if (!t) {
				ret = ENOMEM;
				break;
			}
			b = t;
			cap = cap ? cap * 2 : 1 << 16;
		}
		r = fread(b + n, 1, cap - n, f);
		n += r;
	} while (r);
	if (!ret && ferror(f))
		ret = errno ? errno : EIO;
	if (!std)
		fclose(f);
	if (ret) {
		free(b);
		return ctl_syserr(c, ret, NULL, "%s: read %s", op,
				  std ? "standard input" : in);
	}
	*img = b;
	*len = n;
	return 0;
}
