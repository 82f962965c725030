// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: XDP instances opened by name (libkbloom_xdp.h), the kind of
 * an instance (the library's, read from its marker) and the namespace it
 * records.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "kbloomctl.h"
#include "libkbloom_xdp.h"

/* ---- instances ------------------------------------------------------------ */

/*
 * An instance remembers the namespace of its interfaces (the library
 * records it when the instance is made).  Later commands without netns
 * NS find that namespace in /run/netns; a netns NS that is another one
 * is refused (one instance, one namespace).
 *
 * The namespace to use for instance @name: @given, or the recorded one
 * (*@ns NULL: ours).  With @strict, a recorded namespace that cannot be
 * found is an error; else *@ns stays NULL.
 */
int xdp_inst_ns(const struct ctl *c, const char *name, const char *given,
		bool strict, const char **ns)
{
	static char found[96];
	__u64 rec = 0, ino;
	char why[192];
	int fd, ret;

	*ns = given;
	kbloom_inst_netns(xdp_root(), name, &rec);
	if (!rec)
		return 0;
	if (given) {
		ret = xdp_netns_open(c, given, &fd);
		if (ret)
			return ret;
		ino = ns_inode(fd);
		close(fd);
		if (ino == rec)
			return 0;
		kbloom_inst_netns_name(rec, found, sizeof(found));
		snprintf(why, sizeof(why), "the interfaces of %s are in netns %s",
			 name, !strcmp(found, "-") ? "of this shell" : found);
		return ctl_syserr(c, EXDEV, why, "%s: netns %s", c->cmd_path,
				  given);
	}
	if (rec == ns_inode(-1))
		return 0;
	if (!kbloom_inst_netns_name(rec, found, sizeof(found))) {
		*ns = found;
		return 0;
	}
	if (!strict)
		return 0;
	snprintf(why, sizeof(why), "the interfaces of %s are in a namespace not in %s (inode %llu): give netns NS",
		 name, NETNS_DIR, (unsigned long long)rec);
	return ctl_syserr(c, EXDEV, why, "%s %s", c->cmd_path, name);
}

/*
 * The kinds, by the library's names: xdp_kind_of() returns one of these
 * (so that kinds compare as pointers), XK_NONE for no directory, XK_OTHER
 * for a directory whose kind marker is missing, corrupt or unknown.
 */
const char XK_MCAST[] = "mcast", XK_GATE[] = "gate", XK_PASS[] = "pass",
	   XK_IPBF[] = "ipbf", XK_MCBF[] = "mcbf", XK_OTHER[] = "unknown",
	   XK_SKETCH[] = "sketch", XK_CONNTRACK[] = "conntrack",
	   XK_DEDUPE[] = "dedupe", XK_WINDOW[] = "window";

const char *xdp_kind_at(const char *root, const char *name)
{
	static const char *const kinds[] = { XK_MCAST, XK_GATE, XK_PASS,
					     XK_IPBF, XK_MCBF, XK_SKETCH,
					     XK_CONNTRACK, XK_DEDUPE, XK_WINDOW };
	char k[KBLOOM_INST_KIND_MAX];
	size_t i;
	int ret;

	ret = kbloom_inst_kind_read(root, name, k);
	if (ret == -ENOENT)
		return XK_NONE;
	for (i = 0; !ret && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(k, kinds[i]))
			return kinds[i];
	return XK_OTHER;
}

const char *xdp_kind_of(const char *name)
{
	return xdp_kind_at(xdp_root(), name);
}

const char *xdp_kind_name(const char *k)
{
	return k ? k : "none";
}

void xdp_inst_opts(struct kbloom_inst_opts *o, const char *netns)
{
	static char path[256];

	memset(o, 0, sizeof(*o));
	o->pin_root = xdp_root();
	o->log = xdp_log;
	if (netns) {
		netns_path(netns, path, sizeof(path));
		o->netns = path;
	}
}

void xdp_opts(struct kbloom_xdp_opts *o, const char *netns)
{
	struct kbloom_inst_opts io;

	xdp_inst_opts(&io, netns);
	memset(o, 0, sizeof(*o));
	o->pin_root = io.pin_root;
	o->netns = io.netns;
	o->log = io.log;
}

/*
 * Open instance @name of kind @want (XK_NONE: mcast or gate); exit 3
 * when there is none or it is of another kind.
 */
int xdp_open(struct ctl *c, const char *name, const char *netns,
	     const char *want, struct kbloom_xdp **xp)
{
	const char *k = xdp_kind_of(name);
	struct kbloom_xdp_opts o;
	char why[128];
	int ret;

	xdp_log_reset();
	if (k == XK_NONE) {
		snprintf(why, sizeof(why), "no XDP instance named %s in %s",
			 name, xdp_root());
		return ctl_syserr(c, ENOENT, why, "%s %s", c->cmd_path, name);
	}
	if ((want && k != want) ||
	    (!want && k != XK_MCAST && k != XK_GATE)) {
		snprintf(why, sizeof(why), "%s is a%s %s instance%s%s", name,
			 k == XK_IPBF || k == XK_OTHER ? "n" : "",
			 xdp_kind_name(k), want ? ", not " : "",
			 want ? xdp_kind_name(want) : "");
		return ctl_syserr(c, EINVAL, why, "%s %s", c->cmd_path, name);
	}
	xdp_opts(&o, netns);
	ret = kbloom_xdp_open(name, &o, xp);
	if (ret)
		return xdp_fail(c, ret, "%s %s: open", c->cmd_path, name);
	return 0;
}

/* A pin of instance @x, opened; -errno. */
int xdp_pin_fd(struct kbloom_xdp *x, const char *leaf)
{
	char p[PATH_MAX];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", kbloom_xdp_dir(x), leaf);
	fd = bpf_obj_get(p);
	return fd < 0 ? -errno : fd;
}
