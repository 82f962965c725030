// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: mcast and gate instances of libkbloom_xdp.h opened by name,
 * the kind of an instance directory, and the namespace it records.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>

#include "kbloomctl.h"
#include "libkbloom_xdp.h"

/* ---- instances ------------------------------------------------------------ */

/*
 * An mcast or gate instance remembers the namespace of its interfaces:
 * the first attach pins the instance's program once more as
 * netns_<inode of the namespace>.  Later commands without netns NS find
 * that namespace in /run/netns; a netns NS that is another one is refused
 * (one instance, one namespace).
 */
__u64 marker_ino(const char *name)
{
	unsigned long long ino = 0;
	char dir[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (snprintf(dir, sizeof(dir), "%s/%s", xdp_root(),
		     name) >= (int)sizeof(dir))
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (sscanf(e->d_name, "netns_%llu", &ino) == 1)
			break;
	closedir(d);
	return ino;
}

/*
 * The namespace to use for instance @name: @given, or the recorded one
 * (*@ns NULL: ours).  With @strict, a recorded namespace that cannot be
 * found is an error; else *@ns stays NULL.
 */
int xdp_inst_ns(const struct ctl *c, const char *name, const char *given,
		bool strict, const char **ns)
{
	static char found[96];
	__u64 rec = marker_ino(name), ino;
	char why[192];
	int fd, ret;

	*ns = given;
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
		ns_name_of(rec, found, sizeof(found));
		snprintf(why, sizeof(why), "the interfaces of %s are in netns %s",
			 name, !strcmp(found, "-") ? "of this shell" : found);
		return ctl_syserr(c, EXDEV, why, "%s: netns %s", c->cmd_path,
				  given);
	}
	if (rec == ns_inode(-1))
		return 0;
	ns_name_of(rec, found, sizeof(found));
	if (strncmp(found, "ns:", 3)) {
		*ns = found;
		return 0;
	}
	if (!strict)
		return 0;
	snprintf(why, sizeof(why), "the interfaces of %s are in a namespace not in %s (inode %llu): give netns NS",
		 name, NETNS_DIR, (unsigned long long)rec);
	return ctl_syserr(c, EXDEV, why, "%s %s", c->cmd_path, name);
}

/* Record the namespace of the interfaces of @x (see marker_ino()). */
int mark_netns(struct kbloom_xdp *x, enum xdp_kind k, int ns_fd)
{
	char p[PATH_MAX];
	int fd, ret;

	if (marker_ino(strrchr(kbloom_xdp_dir(x), '/') + 1))
		return 0;
	fd = xdp_pin_fd(x, k == XK_MCAST ? "prog_ingress" : "prog_gate");
	if (fd < 0)
		return fd;
	ret = snprintf(p, sizeof(p), "%s/netns_%llu", kbloom_xdp_dir(x),
		       (unsigned long long)ns_inode(ns_fd)) >= (int)sizeof(p) ?
	      -ENAMETOOLONG : 0;
	if (!ret && bpf_obj_pin(fd, p))
		ret = -errno;
	close(fd);
	return ret;
}

bool has_pin(const char *dir, const char *leaf)
{
	char p[PATH_MAX];

	if (snprintf(p, sizeof(p), "%s/%s", dir, leaf) >= (int)sizeof(p))
		return false;
	return !access(p, F_OK);
}

void inst_dir(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", xdp_root(), name);
}

enum xdp_kind xdp_kind_of(const char *name)
{
	char dir[PATH_MAX];
	struct stat st;

	inst_dir(name, dir, sizeof(dir));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return XK_NONE;
	if (has_pin(dir, "mc_params"))
		return XK_MCAST;
	if (has_pin(dir, "gate_params"))
		return XK_GATE;
	if (has_pin(dir, "ipbf_config"))
		return XK_IPBF;
	if (has_pin(dir, "mcbf_config"))
		return XK_MCBF;
	if (has_pin(dir, "prog_pass"))
		return XK_PASS;
	return XK_OTHER;
}

const char *xdp_kind_name(enum xdp_kind k)
{
	static const char *const names[] = {
		[XK_NONE] = "none", [XK_MCAST] = "mcast", [XK_GATE] = "gate",
		[XK_PASS] = "pass", [XK_IPBF] = "ipbf", [XK_MCBF] = "mcbf",
		[XK_OTHER] = "unknown",
	};

	return names[k];
}

void opts_netns(struct kbloom_xdp_opts *o, const char *netns)
{
	static char path[256];

	o->netns = NULL;
	if (netns) {
		netns_path(netns, path, sizeof(path));
		o->netns = path;
	}
}

void opts_init(struct kbloom_xdp_opts *o, const char *netns)
{
	memset(o, 0, sizeof(*o));
	o->pin_root = xdp_root();
	o->log = xdp_log;
	opts_netns(o, netns);
}

/*
 * Open instance @name of kind @want (XK_NONE: mcast or gate); exit 3
 * when there is none or it is of another kind.
 */
int xdp_open(struct ctl *c, const char *name, const char *netns,
	     enum xdp_kind want, struct kbloom_xdp **xp)
{
	enum xdp_kind k = xdp_kind_of(name);
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
	opts_init(&o, netns);
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
