// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the XDP paths as pinned instances (libkbloom_xdp.h):
 *
 *   xdp attach mcast|gate|pass NAME dev IFACE... [mode M] [netns NS] [...]
 *   xdp detach NAME [dev IFACE...] [netns NS]
 *   xdp status [NAME] [netns NS]
 *
 * What the XDP commands share (keywords, geometry, addresses, network
 * namespaces, interfaces, opening an instance, the messages of the
 * library) is in xdp_log.c, xdp_args.c, xdp_ns.c and xdp_inst.c.
 *
 * An instance NAME is the directory <root>/NAME of its pins (root:
 * /sys/fs/bpf/kbloom, or $KBLOOMCTL_PIN_ROOT).  "pass" instances are
 * kbloomctl's own: XDP_PASS programs for the host ends of veth links into
 * a switch (a veth end receives redirected frames only when its peer
 * runs an XDP program), one pinned link per interface, named
 * link_<ifindex>_ns<netns inode> since the interfaces live in several
 * namespaces.
 *
 * As in the module commands, every argument is checked first (exit 2,
 * nothing done), then every interface is resolved (exit 3, nothing
 * done), and only then does anything change; a command that fails
 * half-way undoes what it did.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_link.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kbloomctl.h"
#include "libkbloom_xdp.h"
#include "uapi/kbloom_plan.h"

/*
 * kbloom_xdp_pass_attach() logs to standard error: its lines are caught
 * in a temporary file around the call and kept as notes.
 */
static int stderr_catch(void)
{
	FILE *t = tmpfile();
	int saved;

	if (!t)
		return -1;
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	if (saved < 0 || dup2(fileno(t), STDERR_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		fclose(t);
		return -1;
	}
	fclose(t);		/* the dup on fd 2 keeps the file */
	return saved;
}

static void stderr_release(int saved)
{
	char line[256];
	FILE *t;
	int fd;

	if (saved < 0)
		return;
	fflush(stderr);
	fd = dup(STDERR_FILENO);
	dup2(saved, STDERR_FILENO);
	close(saved);
	if (fd < 0)
		return;
	lseek(fd, 0, SEEK_SET);
	t = fdopen(fd, "r");
	if (!t) {
		close(fd);
		return;
	}
	while (fgets(line, sizeof(line), t))
		xdp_log(NULL, strncmp(line, "kbloom: ", 8) ? line : line + 8);
	fclose(t);
}


/* ---- links ---------------------------------------------------------------- */

/**
 * struct xlink - one link_* pin of an instance
 * @pin: its file name
 * @ifindex: the interface (from the link; 0: gone)
 * @mode: KBLOOM_XDP_MODE_NATIVE, _GENERIC, 0 unknown
 * @link_id, @prog_id: ids of the link and its program
 * @ns_ino: pass links: the inode of their namespace, else 0
 * @ifname: the interface's name, "" if unknown
 * @netns: pass links: the namespace's name in /run/netns, "-" for ours
 * @mfilter: ports of a kfunc mcast instance: the module filter, or ""
 */
struct xlink {
	char pin[64];
	__u32 ifindex;
	__u32 mode;
	__u32 link_id;
	__u32 prog_id;
	__u64 ns_ino;
	char ifname[IF_NAMESIZE];
	char netns[64];
	char mfilter[KBLOOM_NAME_LEN];
};

static __u32 query_mode(int ifindex, __u32 prog_id)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);

	if (ifindex <= 0 || bpf_xdp_query(ifindex, 0, &q))
		return 0;
	switch (q.attach_mode) {
	case XDP_ATTACHED_DRV:
		return KBLOOM_XDP_MODE_NATIVE;
	case XDP_ATTACHED_SKB:
		return KBLOOM_XDP_MODE_GENERIC;
	case XDP_ATTACHED_MULTI:
		if (q.drv_prog_id == prog_id)
			return KBLOOM_XDP_MODE_NATIVE;
		if (q.skb_prog_id == prog_id)
			return KBLOOM_XDP_MODE_GENERIC;
	}
	return 0;
}

static const char *mode_name(__u32 mode)
{
	return mode == KBLOOM_XDP_MODE_NATIVE ? "native" :
	       mode == KBLOOM_XDP_MODE_GENERIC ? "generic" : "?";
}

/* Name and mode of @l, seen from its namespace. */
static void link_resolve(struct xlink *l, int ns_fd)
{
	int fd = ns_fd, saved;
	bool owned = false;
	char p[256];

	if (l->ns_ino) {
		/* a pass link: its own namespace */
		ns_name_of(l->ns_ino, l->netns, sizeof(l->netns));
		fd = -2;
		if (ns_fd >= 0 && ns_inode(ns_fd) == l->ns_ino) {
			fd = ns_fd;	/* netns NS given: it is this one */
		} else if (!strcmp(l->netns, "-")) {
			fd = -1;	/* ours */
		} else if (strncmp(l->netns, "ns:", 3)) {
			snprintf(p, sizeof(p), "%s/%s", NETNS_DIR, l->netns);
			fd = open(p, O_RDONLY | O_CLOEXEC);
			owned = fd >= 0;
			if (fd < 0)
				fd = -2;
		}
	}
	/* -2: a namespace we cannot enter: name and mode unknown */
	if (fd != -2 && !xdp_ns_enter(fd, &saved)) {
		if (!l->ifindex || !if_indextoname(l->ifindex, l->ifname))
			l->ifname[0] = 0;
		l->mode = query_mode(l->ifindex, l->prog_id);
		xdp_ns_leave(saved);
	}
	if (owned)
		close(fd);
}

static int link_cmp(const void *a, const void *b)
{
	const struct xlink *x = a, *y = b;

	if (x->ns_ino != y->ns_ino)
		return x->ns_ino < y->ns_ino ? -1 : 1;
	return (x->ifindex > y->ifindex) - (x->ifindex < y->ifindex);
}

/* Every link_* pin of instance directory @dir, sorted. */
static int links_read(const char *dir, int ns_fd, struct xlink **out, int *n)
{
	struct bpf_link_info info;
	struct xlink *v = NULL, *t;
	char p[PATH_MAX];
	struct dirent *e;
	unsigned long long ino;
	int cap = 0, fd, ret;
	__u32 len;
	DIR *d;

	*n = 0;
	*out = NULL;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "link_", 5) ||
		    strlen(e->d_name) >= sizeof(v->pin))
			continue;
		if (snprintf(p, sizeof(p), "%s/%s", dir,
			     e->d_name) >= (int)sizeof(p))
			continue;
		fd = bpf_obj_get(p);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		ret = bpf_obj_get_info_by_fd(fd, &info, &len);
		close(fd);
		if (ret)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			t = realloc(v, cap * sizeof(*v));
			if (!t) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = t;
		}
		t = &v[(*n)++];
		memset(t, 0, sizeof(*t));
		snprintf(t->pin, sizeof(t->pin), "%s", e->d_name);
		t->ifindex = info.xdp.ifindex;
		t->link_id = info.id;
		t->prog_id = info.prog_id;
		if (sscanf(e->d_name, "link_%*u_ns%llu", &ino) == 1)
			t->ns_ino = ino;
		snprintf(t->netns, sizeof(t->netns), "-");
		link_resolve(t, ns_fd);
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), link_cmp);
	*out = v;
	return 0;
}

/* ---- xdp attach ------------------------------------------------------------ */

static const char *const kind_words[] = { "mcast", "gate", "pass", "ipbf",
					   "mcbf", NULL };
static const char *const mode_words[] = { "auto", "native", "generic", NULL };
static const char *const policy_words[] = { "monitor", "deny", "allow",
					     NULL };
static const char *const match_words[] = { "src", "dst", NULL };

struct attach {
	const char *name;
	enum xdp_kind kind;
	enum kbloom_xdp_mode mode;
	const char *netns;
	int ns_fd;
	int ndev;
	char **dev;
	int *ifindex;
	struct kbloom_xdp_opts o;
	struct kbloom_xdp_geom geom;
	bool geom_given;
	bool create_opts;	/* ports, members, keys, policy, match */
	__u32 variant;		/* enum kbloom_xdp_variant of "variant" */
	bool variant_given;
	char **mf;		/* module-filter NAME... */
	int nmf;
	bool mf_pattern;	/* mcast: one NAME with %s, for every new port */
};

static int kw_pick(const struct ctl *c, const char *kw, const char *v,
		   const char *const *words, int *out)
{
	char all[96];
	int i = arg_pick(v, words);

	if (i < 0) {
		arg_words(all, sizeof(all), words);
		return ctl_usage(c, "%s '%s': unknown (allowed: %s)", kw, v,
				 all);
	}
	*out = i;
	return 0;
}

static int kw_u32(const struct ctl *c, struct xkw *kw, const char *name,
		  __u64 min, __u64 max, const char *extra, __u32 *out)
{
	const char *s = xkw_val(kw, name);
	__u64 v;
	int ret;

	if (!s)
		return 0;
	ret = arg_u64(s, min, max, &v);
	if (ret)
		return arg_bad_u64(c, name, s, ret, min, max, extra);
	*out = (__u32)v;
	return 0;
}

/* The devices: none twice, each resolved in the namespace. */
static int devs_resolve(struct ctl *c, struct attach *a, const char *op)
{
	int i, j, ret;

	a->ifindex = calloc(a->ndev, sizeof(int));
	if (!a->ifindex)
		return ctl_syserr(c, ENOMEM, NULL, "%s", op);
	for (i = 0; i < a->ndev; i++) {
		ret = arg_ifname(c, "dev", a->dev[i]);
		if (ret)
			return ret;
		for (j = 0; j < i; j++)
			if (!strcmp(a->dev[i], a->dev[j]))
				return ctl_usage(c, "dev '%s': given twice (allowed once)",
						 a->dev[i]);
	}
	ret = xdp_netns_open(c, a->netns, &a->ns_fd);
	for (i = 0; !ret && i < a->ndev; i++)
		ret = xdp_port(c, op, a->ns_fd, a->netns, a->dev[i],
			       &a->ifindex[i]);
	for (i = 0; !ret && i < a->ndev; i++)
		for (j = 0; j < i; j++)
			if (a->ifindex[i] == a->ifindex[j])
				return ctl_usage(c, "dev '%s': the same interface as '%s' (allowed once)",
						 a->dev[i], a->dev[j]);
	return ret;
}

static bool inst_has_pin(const char *name, const char *leaf)
{
	char dir[PATH_MAX];

	inst_dir(name, dir, sizeof(dir));
	return has_pin(dir, leaf);
}

/* ---- xdp attach: module filters (the kfunc variant) ------------------------- */

static const char *const variant_words[] = { "auto", "map", "kfunc", NULL };

/* A module filter name; with @pattern, one %s (the port's interface). */
static int arg_module_filter(const struct ctl *c, const char *s, bool pattern)
{
	const char *p = strstr(s, "%s");
	char t[KBLOOM_NAME_LEN + 8];
	int n;

	if (p && (!pattern || strstr(p + 2, "%s")))
		goto bad;
	if (p)
		n = snprintf(t, sizeof(t), "%.*sa%s", (int)(p - s), s, p + 2);
	else
		n = snprintf(t, sizeof(t), "%s", s);
	if (n > 0 && n < (int)KBLOOM_NAME_LEN && kb_name_valid(t))
		return 0;
bad:
	return ctl_usage(c, "module-filter '%s': not a module filter name (allowed: 1..31 of A-Z a-z 0-9 _ . -%s)",
			 s, pattern ? ", and for mcast one %s standing for the port's interface" : "");
}

/* variant auto|map|kfunc and module-filter NAME... of xdp attach. */
static int attach_module_args(const struct ctl *c, struct xkw *kw,
			      struct attach *a)
{
	struct xkw *mf = xkw_get(kw, "module-filter");
	const char *v = xkw_val(kw, "variant");
	int i, k = 0, ret;

	if ((v || mf->n) && a->kind != XK_MCAST && a->kind != XK_GATE)
		return ctl_usage(c, "%s: only for mcast and gate instances",
				 v ? "variant" : "module-filter");
	if (v) {
		ret = kw_pick(c, "variant", v, variant_words, &k);
		if (ret)
			return ret;
		a->variant = k == 0 ? KBLOOM_XDP_VARIANT_AUTO :
			     k == 1 ? KBLOOM_XDP_VARIANT_MAP :
				      KBLOOM_XDP_VARIANT_KFUNC;
		a->variant_given = true;
	}
	a->o.variant = a->variant;
	a->mf = mf->v;
	a->nmf = mf->n;
	if (!a->nmf)
		return 0;
	if (a->variant == KBLOOM_XDP_VARIANT_MAP)
		return ctl_usage(c, "module-filter: not with variant map (allowed: variant kfunc or auto)");
	if (a->kind == XK_GATE && a->nmf != 1)
		return ctl_usage(c, "module-filter: %d names for a gate (allowed: one NAME)",
				 a->nmf);
	if (a->kind == XK_MCAST && a->nmf != 1 && a->nmf != a->ndev)
		return ctl_usage(c, "module-filter: %d names for %d devs (allowed: one NAME per dev, in order, or one NAME with %%s for each port's interface)",
				 a->nmf, a->ndev);
	for (i = 0; i < a->nmf; i++) {
		ret = arg_module_filter(c, a->mf[i], a->kind == XK_MCAST);
		if (ret)
			return ret;
	}
	a->mf_pattern = a->kind == XK_MCAST && a->nmf == 1 &&
			strstr(a->mf[0], "%s");
	if (a->kind == XK_GATE || a->mf_pattern)
		a->o.module_filter = a->mf[0];
	return 0;
}

/*
 * A new instance with per-port names and variant auto: the library sees
 * no module_filter, so the choice it would make is made here.
 */
static void attach_variant_auto(struct attach *a)
{
	if (!a->nmf || a->o.module_filter ||
	    a->o.variant != KBLOOM_XDP_VARIANT_AUTO)
		return;
	if (!access(KBLOOM_XDP_MODULE_BTF, F_OK)) {
		a->o.variant = KBLOOM_XDP_VARIANT_KFUNC;
		return;
	}
	a->o.variant = KBLOOM_XDP_VARIANT_MAP;
	xdp_log(NULL, "kbloom.ko with BTF is not here (" KBLOOM_XDP_MODULE_BTF
		" is missing): map-backed filters, module-filter not used");
}

/*
 * Before any interface is attached: the variant asked for against the
 * instance's, and the module filter names set (a new instance got the
 * gate's name or the ports' pattern from its options).
 */
static int attach_module(struct ctl *c, struct attach *a,
			 struct kbloom_xdp *x, bool created, const char *op)
{
	enum kbloom_xdp_variant v = kbloom_xdp_variant(x);
	int i, ret = 0;

	if (!created && a->variant_given &&
	    a->variant != KBLOOM_XDP_VARIANT_AUTO && a->variant != v)
		return ctl_syserr(c, EEXIST, v == KBLOOM_XDP_VARIANT_KFUNC ?
				  "a kfunc instance already; variant applies when the instance is made" :
				  "a map-backed instance already; variant applies when the instance is made",
				  "%s", op);
	if (!a->nmf)
		return 0;
	if (v != KBLOOM_XDP_VARIANT_KFUNC) {
		if (created)
			return 0;	/* auto chose map, with a note */
		return ctl_syserr(c, EOPNOTSUPP, "a map-backed instance; module filters need one made with variant kfunc",
				  "%s: module-filter", op);
	}
	if (a->kind == XK_GATE || a->mf_pattern) {
		if (!created)
			ret = kbloom_xdp_set_module_filter(x, 0, a->mf[0]);
	} else {
		for (i = 0; !ret && i < a->ndev; i++)
			ret = kbloom_xdp_set_module_filter(x, a->ifindex[i],
							   a->mf[i]);
	}
	if (ret)
		return xdp_fail(c, ret, "%s: module-filter", op);
	return 0;
}

/* Notes for names missing, or naming no filter of kbloom.ko (yet). */
static void attach_module_notes(struct attach *a, struct kbloom_xdp *x)
{
	char name[KBLOOM_NAME_LEN], msg[160];
	struct kbloom_stat st;
	int i, n, fd;
	__u32 id;

	if (kbloom_xdp_variant(x) != KBLOOM_XDP_VARIANT_KFUNC)
		return;
	fd = kbloom_dev_open(getenv("KBLOOMCTL_DEVICE"));
	n = a->kind == XK_GATE ? 1 : a->ndev;
	for (i = 0; i < n; i++) {
		id = a->kind == XK_GATE ? 0 : (__u32)a->ifindex[i];
		if (kbloom_xdp_module_filter(x, id, name)) {
			snprintf(msg, sizeof(msg), "%s%s: no module filter named (module-filter NAME): %s",
				 a->kind == XK_GATE ? "gate " : "dev ",
				 a->kind == XK_GATE ? a->name : a->dev[i],
				 a->kind == XK_GATE ?
				 "errors counted, the exact set decides" :
				 "its copies are dropped");
			xdp_log(NULL, msg);
		} else if (fd >= 0 &&
			   kbloom_dev_stat(fd, name, &st) == -ENOENT) {
			snprintf(msg, sizeof(msg), "module filter %s does not exist yet: kbloomctl create %s counting ...",
				 name, name);
			xdp_log(NULL, msg);
		}
	}
	kbloom_dev_close(fd);
}

/* mcast and gate: create the instance if needed, attach every device. */
static int attach_path(struct ctl *c, struct attach *a, const char *op)
{
	enum kbloom_xdp_kind kind = a->kind == XK_MCAST ? KBLOOM_XDP_MCAST :
							  KBLOOM_XDP_GATE;
	enum xdp_kind have = xdp_kind_of(a->name);
	struct kbloom_xdp_filter_info fi;
	bool *was_port = NULL, *done = NULL, created = false;
	struct kbloom_xdp *x = NULL;
	enum kbloom_xdp_mode got;
	char leaf[32];
	int i, ret;

	if (have != XK_NONE && have != a->kind)
		return ctl_syserr(c, EEXIST, have == XK_OTHER ?
				  "a directory that is not an instance" :
				  "an instance of another kind", "%s", op);
	if (have != XK_NONE && (a->create_opts ||
				(a->geom_given && a->kind == XK_GATE)))
		return ctl_syserr(c, EEXIST, a->kind == XK_GATE ?
				  "size, keys, policy and match apply when the instance is created; see gate rebuild and gate mode" :
				  "ports and members apply when the instance is created",
				  "%s", op);
	was_port = calloc(a->ndev, sizeof(bool));
	done = calloc(a->ndev, sizeof(bool));
	if (!was_port || !done) {
		ret = ctl_syserr(c, ENOMEM, NULL, "%s", op);
		goto out;
	}
	if (have == XK_NONE) {
		a->o.geom = a->geom;
		attach_variant_auto(a);
		ret = kbloom_xdp_create(a->name, kind, &a->o, &x);
		if (ret) {
			ret = xdp_fail(c, ret, "%s: create", op);
			goto out;
		}
		created = true;
	} else {
		ret = kbloom_xdp_open(a->name, &a->o, &x);
		if (ret) {
			ret = xdp_fail(c, ret, "%s: open", op);
			goto out;
		}
	}
	/* what is attached already, before anything changes */
	for (i = 0; i < a->ndev; i++) {
		snprintf(leaf, sizeof(leaf), "link_%d", a->ifindex[i]);
		if (inst_has_pin(a->name, leaf) && !c->set[CO_EXIST]) {
			ret = ctl_syserr(c, EEXIST, "already attached; -exist ignores it",
					 "%s: dev %s", op, a->dev[i]);
			goto out;
		}
		was_port[i] = a->kind == XK_MCAST &&
			      !kbloom_xdp_filter_info(x, a->ifindex[i], &fi);
		if (was_port[i] && a->geom_given &&
		    !inst_has_pin(a->name, leaf)) {
			ret = ctl_syserr(c, EEXIST, "a port already: its filter keeps its size",
					 "%s: dev %s", op, a->dev[i]);
			goto out;
		}
	}
	ret = attach_module(c, a, x, created, op);
	if (ret)
		goto undo;
	for (i = 0; i < a->ndev; i++) {
		snprintf(leaf, sizeof(leaf), "link_%d", a->ifindex[i]);
		if (inst_has_pin(a->name, leaf))
			continue;	/* -exist */
		if (a->kind == XK_MCAST && !was_port[i] && a->geom_given) {
			ret = kbloom_mcast_port_add(x, a->ifindex[i], &a->geom);
			if (ret) {
				ret = xdp_fail(c, ret, "%s: dev %s: port", op,
					       a->dev[i]);
				goto undo;
			}
		}
		done[i] = true;
		ret = kbloom_xdp_attach(x, a->ifindex[i], a->mode, &got);
		if (ret) {
			ret = xdp_fail(c, ret, "%s: dev %s", op, a->dev[i]);
			goto undo;
		}
	}
	ret = mark_netns(x, a->kind, a->ns_fd);
	if (ret) {
		ret = xdp_fail(c, ret, "%s: record the namespace", op);
		goto undo;
	}
	attach_module_notes(a, x);
	xdp_notes(c);
	ret = KBCTL_OK;
	goto out;
undo:
	if (created) {
		kbloom_xdp_destroy(x);
		x = NULL;
		goto out;
	}
	for (i = 0; i < a->ndev; i++) {
		if (!done[i])
			continue;
		if (a->kind == XK_MCAST && !was_port[i])
			kbloom_mcast_port_del(x, a->ifindex[i]);
		else
			kbloom_xdp_detach(x, a->ifindex[i]);
	}
out:
	kbloom_xdp_close(x);
	free(was_port);
	free(done);
	return ret;
}

static void pass_pin(const char *name, int ifindex, __u64 ino, char *buf,
		     size_t len)
{
	snprintf(buf, len, "%s/%s/link_%d_ns%llu", xdp_root(), name, ifindex,
		 (unsigned long long)ino);
}

/*
 * The directory of a pass instance, with its marker prog_pass: the
 * XDP_PASS program, pinned from the first link made.
 */
static int pass_dir(const char *name, bool *created)
{
	char dir[PATH_MAX];

	*created = false;
	if (mkdir(xdp_root(), 0700) && errno != EEXIST)
		return -errno;
	inst_dir(name, dir, sizeof(dir));
	if (!mkdir(dir, 0700))
		*created = true;
	else if (errno != EEXIST)
		return -errno;
	return 0;
}

static int pass_mark(const char *name, const char *link_pin)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);
	char p[PATH_MAX];
	int lfd, pfd, ret;

	inst_dir(name, p, sizeof(p));
	if (has_pin(p, "prog_pass"))
		return 0;
	strncat(p, "/prog_pass", sizeof(p) - strlen(p) - 1);
	lfd = bpf_obj_get(link_pin);
	if (lfd < 0)
		return -errno;
	ret = bpf_obj_get_info_by_fd(lfd, &info, &len);
	close(lfd);
	if (ret)
		return -errno;
	pfd = bpf_prog_get_fd_by_id(info.prog_id);
	if (pfd < 0)
		return -errno;
	ret = bpf_obj_pin(pfd, p) ? -errno : 0;
	close(pfd);
	return ret;
}

static int attach_pass(struct ctl *c, struct attach *a, const char *op)
{
	enum xdp_kind have = xdp_kind_of(a->name);
	__u64 ino = ns_inode(a->ns_fd);
	char pin[PATH_MAX];
	bool created, *done;
	int i, saved, cap, ret;

	if (have != XK_NONE && have != XK_PASS)
		return ctl_syserr(c, EEXIST, "an instance of another kind",
				  "%s", op);
	for (i = 0; i < a->ndev; i++) {
		pass_pin(a->name, a->ifindex[i], ino, pin, sizeof(pin));
		if (!access(pin, F_OK) && !c->set[CO_EXIST])
			return ctl_syserr(c, EEXIST, "already attached; -exist ignores it",
					  "%s: dev %s", op, a->dev[i]);
	}
	done = calloc(a->ndev, sizeof(bool));
	if (!done)
		return ctl_syserr(c, ENOMEM, NULL, "%s", op);
	ret = pass_dir(a->name, &created);
	if (ret) {
		ret = ctl_syserr(c, ret, "is bpffs mounted?", "%s: mkdir %s/%s",
				 op, xdp_root(), a->name);
		goto out;
	}
	for (i = 0; i < a->ndev; i++) {
		pass_pin(a->name, a->ifindex[i], ino, pin, sizeof(pin));
		if (!access(pin, F_OK))
			continue;	/* -exist */
		ret = xdp_ns_enter(a->ns_fd, &saved);
		if (ret) {
			ret = ctl_syserr(c, ret, NULL, "%s: enter netns %s", op,
					 a->netns);
			goto undo;
		}
		cap = stderr_catch();
		ret = kbloom_xdp_pass_attach(a->ifindex[i], a->mode, pin, NULL);
		stderr_release(cap);
		xdp_ns_leave(saved);
		if (!ret) {
			done[i] = true;
			ret = pass_mark(a->name, pin);
		}
		if (ret) {
			ret = xdp_fail(c, ret, "%s: dev %s", op, a->dev[i]);
			goto undo;
		}
	}
	xdp_notes(c);
	ret = KBCTL_OK;
	goto out;
undo:
	for (i = 0; i < a->ndev; i++)
		if (done[i]) {
			pass_pin(a->name, a->ifindex[i], ino, pin, sizeof(pin));
			unlink(pin);	/* the last reference: detaches */
		}
	if (created)
		kbloom_xdp_unpin(xdp_root(), a->name);
out:
	free(done);
	return ret;
}

static int cmd_attach(struct ctl *c, int argc, char **argv)
{
	struct xkw kw[] = {
		{ .name = "dev", .arg = "IFACE...", .many = true },
		{ .name = "mode", .arg = "native|generic|auto" },
		{ .name = "netns", .arg = "NS" },
		XKW_GEOM,
		{ .name = "ports", .arg = "N" },
		{ .name = "members", .arg = "N" },
		{ .name = "keys", .arg = "N" },
		{ .name = "policy", .arg = "monitor|deny|allow" },
		{ .name = "match", .arg = "src|dst" },
		{ .name = "variant", .arg = "auto|map|kfunc" },
		{ .name = "module-filter", .arg = "NAME...", .many = true },
		{ 0 }
	};
	static const char *const only_mcast[] = { "ports", "members", NULL };
	static const char *const only_gate[] = { "keys", "policy", "match",
						 NULL };
	static const char *const geom_kw[] = { "capacity", "fpr", "bits",
					       "hashes", "hash", "seed", NULL };
	struct attach a = { .ns_fd = -1 };
	char op[160];
	int i, k = 0, ret;

	ret = kw_pick(c, "KIND", argv[0], kind_words, &k);
	if (ret)
		return ret;
	/* ipbf, mcbf: ipbf/attach.c, mcbf/attach.c (libkbloom_xdp_net.h) */
	if (k == 3)
		return ipbf_xdp_attach(c, argc - 1, argv + 1);
	if (k == 4)
		return mcbf_xdp_attach(c, argc - 1, argv + 1);
	a.kind = k == 0 ? XK_MCAST : k == 1 ? XK_GATE : XK_PASS;
	a.name = argv[1];
	ret = xdp_arg_name(c, a.name);
	ret = ret ?: xkw_parse(c, argc - 2, argv + 2, kw);
	if (ret)
		return ret;
	for (i = 0; only_mcast[i] && a.kind != XK_MCAST; i++)
		if (xkw_val(kw, only_mcast[i]))
			return ctl_usage(c, "%s: only for mcast instances (this is %s)",
					 only_mcast[i], argv[0]);
	for (i = 0; only_gate[i] && a.kind != XK_GATE; i++)
		if (xkw_val(kw, only_gate[i]))
			return ctl_usage(c, "%s: only for gate instances (this is %s)",
					 only_gate[i], argv[0]);
	for (i = 0; geom_kw[i] && a.kind == XK_PASS; i++)
		if (xkw_val(kw, geom_kw[i]))
			return ctl_usage(c, "%s: not for pass (allowed: dev mode netns)",
					 geom_kw[i]);
	if (!xkw_get(kw, "dev")->n)
		return ctl_usage(c, "missing dev IFACE... (usage: %s %s %s)",
				 KBCTL_NAME, c->cmd_path, c->cmd->synopsis);
	a.dev = xkw_get(kw, "dev")->v;
	a.ndev = xkw_get(kw, "dev")->n;
	if (xkw_val(kw, "mode")) {
		ret = kw_pick(c, "mode", xkw_val(kw, "mode"), mode_words, &k);
		if (ret)
			return ret;
		a.mode = k == 0 ? KBLOOM_XDP_MODE_AUTO :
			 k == 1 ? KBLOOM_XDP_MODE_NATIVE :
				  KBLOOM_XDP_MODE_GENERIC;
	}
	ret = xkw_netns(c, kw, &a.netns);
	if (ret)
		return ret;
	opts_init(&a.o, a.netns);
	ret = xdp_geom(c, kw, &a.geom, &a.geom_given);
	ret = ret ?: kw_u32(c, kw, "ports", 1, 4096, "ports of the switch",
			    &a.o.max_filters);
	ret = ret ?: kw_u32(c, kw, "members", 1, 1U << 24,
			    "memberships, all ports together", &a.o.max_keys);
	ret = ret ?: kw_u32(c, kw, "keys", 1, 1U << 24,
			    "addresses in the set", &a.o.max_keys);
	ret = ret ?: attach_module_args(c, kw, &a);
	if (ret)
		return ret;
	if (xkw_val(kw, "policy")) {
		ret = kw_pick(c, "policy", xkw_val(kw, "policy"), policy_words,
			      &k);
		if (ret)
			return ret;
		a.o.mode = k == 0 ? KBLOOM_GATE_MONITOR : k == 1 ?
			   KBLOOM_GATE_DENY : KBLOOM_GATE_ALLOW;
	}
	if (xkw_val(kw, "match")) {
		ret = kw_pick(c, "match", xkw_val(kw, "match"), match_words,
			      &k);
		if (ret)
			return ret;
		a.o.flags = k ? KBLOOM_GATE_F_DST : 0;
	}
	a.create_opts = xkw_val(kw, "ports") || xkw_val(kw, "members") ||
			xkw_val(kw, "keys") || xkw_val(kw, "policy") ||
			xkw_val(kw, "match");
	snprintf(op, sizeof(op), "%s %s %s", c->cmd_path, argv[0], a.name);
	xdp_log_reset();
	if (a.kind != XK_PASS) {
		ret = xdp_inst_ns(c, a.name, a.netns, true, &a.netns);
		if (ret)
			return ret;
		opts_netns(&a.o, a.netns);
	}
	ret = devs_resolve(c, &a, op);
	if (!ret)
		ret = a.kind == XK_PASS ? attach_pass(c, &a, op) :
					  attach_path(c, &a, op);
	if (a.ns_fd >= 0)
		close(a.ns_fd);
	free(a.ifindex);
	return ret;
}

/* ---- xdp detach ------------------------------------------------------------ */

/* Detach one link pin of a pass, ipbf or mcbf instance. */
static int unpin_link(const char *path)
{
	int fd = bpf_obj_get(path), ret = 0;

	if (fd < 0)
		return -errno;
	if (bpf_link_detach(fd) && errno != ENOLINK)
		ret = -errno;
	close(fd);
	if (!ret && unlink(path))
		ret = -errno;
	return ret;
}

static void link_pin(const char *dir, int ifindex, char *buf, size_t len)
{
	if (snprintf(buf, len, "%s/link_%d", dir, ifindex) >= (int)len)
		buf[0] = 0;
}

static bool dir_has_links(const char *dir)
{
	struct dirent *e;
	bool any = false;
	DIR *d = opendir(dir);

	if (!d)
		return false;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "link_", 5))
			any = true;
	closedir(d);
	return any;
}

static int detach_devs(struct ctl *c, struct attach *a, enum xdp_kind k,
		       const char *op)
{
	struct kbloom_xdp_filter_info fi;
	struct kbloom_xdp *x = NULL;
	char dir[PATH_MAX], pin[PATH_MAX];
	__u64 ino = ns_inode(a->ns_fd);
	bool *skip;
	int i, ret = 0;

	/* ipbf, mcbf: the ports are removed (netinst_xdp.c) */
	if (k == XK_IPBF || k == XK_MCBF)
		return net_detach_ports(c, k, a->name, a->netns, a->ndev,
					a->dev, a->ifindex, op);
	skip = calloc(a->ndev, sizeof(bool));
	if (!skip)
		return ctl_syserr(c, ENOMEM, NULL, "%s", op);
	inst_dir(a->name, dir, sizeof(dir));
	if (k == XK_MCAST || k == XK_GATE) {
		ret = kbloom_xdp_open(a->name, &a->o, &x);
		if (ret) {
			ret = xdp_fail(c, ret, "%s: open", op);
			goto out;
		}
	}
	/* every device attached (or an mcast port) before anything changes */
	for (i = 0; i < a->ndev; i++) {
		if (k == XK_PASS)
			pass_pin(a->name, a->ifindex[i], ino, pin, sizeof(pin));
		else
			link_pin(dir, a->ifindex[i], pin, sizeof(pin));
		if (!access(pin, F_OK))
			continue;
		if (k == XK_MCAST &&
		    !kbloom_xdp_filter_info(x, a->ifindex[i], &fi))
			continue;
		if (!c->set[CO_EXIST]) {
			ret = ctl_syserr(c, ENOENT, "not attached; -exist ignores it",
					 "%s: dev %s", op, a->dev[i]);
			goto out;
		}
		skip[i] = true;
	}
	for (i = 0; i < a->ndev; i++) {
		if (skip[i])
			continue;
		if (k == XK_MCAST)
			ret = kbloom_mcast_port_del(x, a->ifindex[i]);
		else if (k == XK_GATE)
			ret = kbloom_xdp_detach(x, a->ifindex[i]);
		else if (k == XK_PASS)
			pass_pin(a->name, a->ifindex[i], ino, pin, sizeof(pin));
		else
			link_pin(dir, a->ifindex[i], pin, sizeof(pin));
		if (k != XK_MCAST && k != XK_GATE)
			ret = unpin_link(pin);
		if (ret) {
			ret = xdp_fail(c, ret, "%s: dev %s", op, a->dev[i]);
			goto out;
		}
	}
	/* a pass instance without links is removed */
	if (k == XK_PASS && !dir_has_links(dir))
		kbloom_xdp_unpin(xdp_root(), a->name);
	xdp_notes(c);
out:
	kbloom_xdp_close(x);
	free(skip);
	return ret;
}

static int cmd_detach(struct ctl *c, int argc, char **argv)
{
	struct xkw kw[] = {
		{ .name = "dev", .arg = "IFACE...", .many = true },
		{ .name = "netns", .arg = "NS" },
		{ 0 }
	};
	struct attach a = { .ns_fd = -1 };
	struct kbloom_xdp *x;
	enum xdp_kind k;
	char op[160];
	int ret;

	a.name = argv[0];
	ret = xdp_arg_name(c, a.name);
	ret = ret ?: xkw_parse(c, argc - 1, argv + 1, kw);
	ret = ret ?: xkw_netns(c, kw, &a.netns);
	if (ret)
		return ret;
	a.dev = xkw_get(kw, "dev")->v;
	a.ndev = xkw_get(kw, "dev")->n;
	opts_init(&a.o, a.netns);
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, a.name);
	xdp_log_reset();
	k = xdp_kind_of(a.name);
	if (k == XK_NONE) {
		if (c->set[CO_EXIST])
			return KBCTL_OK;
		return ctl_syserr(c, ENOENT, "no such instance", "%s", op);
	}
	if (a.ndev) {
		if (k != XK_PASS) {
			ret = xdp_inst_ns(c, a.name, a.netns, true, &a.netns);
			if (ret)
				return ret;
			opts_init(&a.o, a.netns);
		}
		ret = devs_resolve(c, &a, op);
		if (!ret)
			ret = detach_devs(c, &a, k, op);
		if (a.ns_fd >= 0)
			close(a.ns_fd);
		free(a.ifindex);
		return ret;
	}
	/* the whole instance */
	if (k == XK_MCAST || k == XK_GATE) {
		ret = kbloom_xdp_open(a.name, &a.o, &x);
		ret = ret ?: kbloom_xdp_destroy(x);
	} else if (k == XK_IPBF || k == XK_MCBF) {
		ret = net_destroy(a.name);
	} else {
		ret = kbloom_xdp_unpin(xdp_root(), a.name);
	}
	if (ret)
		return xdp_fail(c, ret, "%s", op);
	xdp_notes(c);
	return KBCTL_OK;
}

/* ---- xdp status ------------------------------------------------------------ */

struct inst_info {
	char name[KBLOOM_XDP_NAME_MAX];
	enum xdp_kind kind;
	struct xlink *links;
	int nlinks;
	/* ipbf, mcbf (netinst_xdp.c) */
	struct net_summary net;
	/* mcast */
	__u32 ports;
	__u64 groups;
	/* gate */
	__u32 mode, flags;
	__u64 keys;
	bool have_extra;
	/* mcast and gate: map or kfunc; the gate's (or new ports') module filter */
	enum kbloom_xdp_variant variant;
	char mfilter[KBLOOM_NAME_LEN];
};

static void inst_read(const char *name, const char *netns, int ns_fd,
		      struct inst_info *ii)
{
	struct kbloom_xdp_opts o;
	struct kbloom_xdp *x;
	char dir[PATH_MAX];
	__u32 *ids = NULL, n = 0, i;
	int g, own_fd = -1;

	memset(ii, 0, sizeof(*ii));
	snprintf(ii->name, sizeof(ii->name), "%s", name);
	ii->kind = xdp_kind_of(name);
	inst_dir(name, dir, sizeof(dir));
	/*
	 * Without netns NS: the namespace the instance recorded, if it is
	 * named; if it is not, the names are unknown (-2), not ours.
	 */
	if (!netns && ii->kind != XK_PASS) {
		__u64 rec = marker_ino(name);

		if (!xdp_inst_ns(NULL, name, NULL, false, &netns) && netns &&
		    !xdp_netns_open(NULL, netns, &own_fd))
			ns_fd = own_fd;
		else if (rec && rec != ns_inode(-1))
			ns_fd = -2;
	}
	links_read(dir, ns_fd, &ii->links, &ii->nlinks);
	if (own_fd >= 0)
		close(own_fd);
	if (ii->kind == XK_IPBF || ii->kind == XK_MCBF)
		net_summary_read(name, netns, &ii->net);
	if (ii->kind != XK_MCAST && ii->kind != XK_GATE)
		return;
	opts_init(&o, netns);
	if (kbloom_xdp_open(name, &o, &x))
		return;
	ii->variant = kbloom_xdp_variant(x);
	if (kbloom_xdp_module_filter(x, 0, ii->mfilter))
		ii->mfilter[0] = 0;
	for (i = 0; ii->kind == XK_MCAST && i < (__u32)ii->nlinks; i++)
		if (kbloom_xdp_module_filter(x, ii->links[i].ifindex,
					     ii->links[i].mfilter))
			ii->links[i].mfilter[0] = 0;
	if (ii->kind == XK_MCAST && !mcast_port_ids(x, &ids, &n)) {
		ii->ports = n;
		for (i = 0; i < n; i++) {
			g = kbloom_mcast_groups(x, ids[i], NULL, 0);
			if (g > 0)
				ii->groups += g;
		}
		free(ids);
		ii->have_extra = true;
	}
	if (ii->kind == XK_GATE &&
	    !gate_cfg_read(x, &ii->mode, &ii->flags) &&
	    !gate_count(x, &ii->keys))
		ii->have_extra = true;
	kbloom_xdp_close(x);
}

static const char *variant_name(enum kbloom_xdp_variant v)
{
	return v == KBLOOM_XDP_VARIANT_KFUNC ? "kfunc" : "map";
}

static void status_json_one(struct json *j, const struct inst_info *ii)
{
	char dir[PATH_MAX];
	int i;

	inst_dir(ii->name, dir, sizeof(dir));
	json_obj(j);
	json_kstr(j, "name", ii->name);
	json_kstr(j, "kind", xdp_kind_name(ii->kind));
	json_kstr(j, "dir", dir);
	if (ii->have_extra && ii->kind == XK_MCAST) {
		json_ku64(j, "ports", ii->ports);
		json_ku64(j, "memberships", ii->groups);
	}
	if (ii->have_extra && ii->kind == XK_GATE) {
		json_kstr(j, "policy", gate_mode_name(ii->mode));
		json_kstr(j, "match", ii->flags & KBLOOM_GATE_F_DST ? "dst" :
								     "src");
		json_ku64(j, "keys", ii->keys);
	}
	net_summary_json(j, &ii->net, ii->kind);
	if (ii->have_extra && (ii->kind == XK_MCAST || ii->kind == XK_GATE)) {
		json_kstr(j, "variant", variant_name(ii->variant));
		json_key(j, "module_filter");
		if (ii->mfilter[0])
			json_str(j, ii->mfilter);
		else
			json_null(j);
	}
	json_key(j, "links");
	json_arr(j);
	for (i = 0; i < ii->nlinks; i++) {
		const struct xlink *l = &ii->links[i];

		json_obj(j);
		json_key(j, "ifname");
		if (l->ifname[0])
			json_str(j, l->ifname);
		else
			json_null(j);
		json_ku64(j, "ifindex", l->ifindex);
		json_kstr(j, "mode", l->mode ? mode_name(l->mode) : "unknown");
		if (ii->kind == XK_PASS)
			json_kstr(j, "netns", l->netns);
		json_ku64(j, "link_id", l->link_id);
		json_ku64(j, "prog_id", l->prog_id);
		if (ii->kind == XK_MCAST &&
		    ii->variant == KBLOOM_XDP_VARIANT_KFUNC) {
			json_key(j, "module_filter");
			if (l->mfilter[0])
				json_str(j, l->mfilter);
			else
				json_null(j);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void status_text_one(const struct inst_info *ii)
{
	char dir[PATH_MAX];
	int i;

	inst_dir(ii->name, dir, sizeof(dir));
	printf("%s: %s, %s\n", ii->name, xdp_kind_name(ii->kind), dir);
	if (ii->have_extra && ii->kind == XK_MCAST)
		printf("  ports %u, memberships %llu\n", ii->ports,
		       (unsigned long long)ii->groups);
	if (ii->have_extra && ii->kind == XK_GATE)
		printf("  policy %s, match %s, %llu addresses in the set\n",
		       gate_mode_name(ii->mode),
		       ii->flags & KBLOOM_GATE_F_DST ? "dst" : "src",
		       (unsigned long long)ii->keys);
	net_summary_text(&ii->net, ii->kind);
	if (ii->have_extra && (ii->kind == XK_MCAST || ii->kind == XK_GATE)) {
		if (ii->variant != KBLOOM_XDP_VARIANT_KFUNC)
			printf("  variant map (filters in BPF maps)\n");
		else
			printf("  variant kfunc (kbloom.ko filters), %s %s\n",
			       ii->kind == XK_GATE ? "module filter" :
			       "module filter of new ports",
			       ii->mfilter[0] ? ii->mfilter : "none");
	}
	if (!ii->nlinks) {
		printf("  not attached\n");
		return;
	}
	printf("  %-16s %7s %-7s %s%7s %7s\n", "IFACE", "IFINDEX", "MODE",
	       ii->kind == XK_PASS ? "NETNS            " : "", "LINK", "PROG");
	for (i = 0; i < ii->nlinks; i++) {
		const struct xlink *l = &ii->links[i];
		char ns[24] = "";

		if (ii->kind == XK_PASS)
			snprintf(ns, sizeof(ns), "%-16.16s ", l->netns);
		printf("  %-16s %7u %-7s %s%7u %7u",
		       l->ifname[0] ? l->ifname : "?", l->ifindex,
		       mode_name(l->mode), ns, l->link_id, l->prog_id);
		if (ii->kind == XK_MCAST &&
		    ii->variant == KBLOOM_XDP_VARIANT_KFUNC)
			printf("  module filter %s",
			       l->mfilter[0] ? l->mfilter : "none");
		printf("\n");
	}
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The instance names under the pin root, sorted. */
static int inst_names(char ***out, int *n)
{
	char **v = NULL, **t;
	struct dirent *e;
	int cap = 0;
	DIR *d;

	*n = 0;
	*out = NULL;
	d = opendir(xdp_root());
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || e->d_type != DT_DIR)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			t = realloc(v, cap * sizeof(*v));
			if (!t)
				break;
			v = t;
		}
		v[*n] = strdup(e->d_name);
		if (v[*n])
			(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), name_cmp);
	*out = v;
	return 0;
}

static int cmd_status(struct ctl *c, int argc, char **argv)
{
	struct xkw kw[] = { { .name = "netns", .arg = "NS" }, { 0 } };
	const char *name = NULL, *netns;
	struct inst_info ii;
	char **names = NULL;
	int i, n = 0, ns_fd = -1, ret;
	struct json j;

	/* NAME is optional: a first word that is not a keyword */
	if (argc && !xkw_get(kw, argv[0])) {
		name = argv[0];
		ret = xdp_arg_name(c, name);
		if (ret)
			return ret;
		argc--;
		argv++;
	}
	ret = xkw_parse(c, argc, argv, kw);
	ret = ret ?: xkw_netns(c, kw, &netns);
	if (ret)
		return ret;
	ret = xdp_netns_open(c, netns, &ns_fd);
	if (ret)
		return ret;
	xdp_log_reset();
	if (name) {
		if (xdp_kind_of(name) == XK_NONE) {
			ret = ctl_syserr(c, ENOENT, "no such instance", "%s %s",
					 c->cmd_path, name);
			goto out;
		}
		names = calloc(1, sizeof(*names));
		if (names)
			names[0] = strdup(name);
		if (!names || !names[0]) {
			ret = ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
			goto out;
		}
		n = 1;
	} else {
		ret = inst_names(&names, &n);
		if (ret) {
			ret = ctl_syserr(c, ret, NULL, "%s: read %s",
					 c->cmd_path, xdp_root());
			goto out;
		}
	}
	if (c->set[CO_JSON] && !ctl_quiet(c)) {
		json_init(&j, stdout);
		if (!name)
			json_arr(&j);
	}
	for (i = 0; i < n; i++) {
		inst_read(names[i], netns, ns_fd, &ii);
		if (ctl_quiet(c))
			;
		else if (c->set[CO_JSON])
			status_json_one(&j, &ii);
		else
			status_text_one(&ii);
		free(ii.links);
	}
	if (c->set[CO_JSON] && !ctl_quiet(c)) {
		if (!name)
			json_arr_end(&j);
		json_end(&j);
	} else if (!n && !ctl_quiet(c)) {
		printf("no XDP instances in %s\n", xdp_root());
	}
	ret = ctl_flush_stdout(c);
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (ns_fd >= 0)
		close(ns_fd);
	return ret;
}

/* ---- the table ---------------------------------------------------------------- */

static const struct ctl_cmd xdp_sub[] = {
	{
		.name = "attach",
		.synopsis = "mcast|gate|pass|ipbf|mcbf NAME dev IFACE... [mode native|generic|auto] [netns NS] [SIZE] [ports N] [members N] [keys N] [policy monitor|deny|allow] [match src|dst] [variant auto|map|kfunc] [module-filter NAME...]",
		.summary = "load a path as instance NAME (once) and attach it to interfaces",
		.help =
"Instance NAME (1..63 of A-Z a-z 0-9 _ -) is pinned in /sys/fs/bpf/kbloom/NAME\n"
"(or $KBLOOMCTL_PIN_ROOT/NAME): made on first use, reused after.  Each\n"
"interface gets a pinned XDP link (link_IFINDEX) that stays after kbloomctl\n"
"exits.  IFACE is a name or an ifindex in netns NS (a name in /run/netns\n"
"or a path; default: this namespace); the instance remembers it, and later\n"
"commands without netns find it in /run/netns.  mode: auto (default:\n"
"native, else generic with a note), native, generic.\n"
"  mcast  multicast switch: each interface becomes a port with a filter of\n"
"         its joined groups (see mcast join); SIZE sizes the filters of the\n"
"         ports made by this command (default 1024 groups at 0.01%).\n"
"         ports N (64) and members N (65536) when the instance is made.\n"
"  gate   a filter of addresses in front of an exact set (see gate add):\n"
"         SIZE, keys N (65536), policy monitor (default), deny or allow,\n"
"         match src (default) or dst, when the instance is made.\n"
"  pass   an XDP_PASS program: for the host end of a veth link into a\n"
"         switch (a veth end receives redirected frames only when its\n"
"         peer runs an XDP program).  Links of several namespaces may\n"
"         share one pass instance.\n"
"SIZE: capacity N fpr P, or bits M hashes K (M a multiple of 512), and\n"
"hash fast|siphash, seed S.\n"
"variant, mcast and gate, when the instance is made: map (filters in BPF\n"
"maps), kfunc (the programs test filters of kbloom.ko, which /dev/kbloom\n"
"users add to, delete from and swap: kbloomctl add/del/restore), or auto\n"
"(the default): kfunc when module-filter is given and kbloom.ko is loaded\n"
"with BTF, map otherwise (with a note).  kfunc without the module is an\n"
"error.  module-filter NAME: the gate's module filter; for mcast one NAME\n"
"per dev, in order, or one NAME with %s standing for each port's\n"
"interface (sw0.%s), kept for the ports made later.  On a kfunc instance\n"
"made already it renames.  gate add and mcast join add to the module\n"
"filter too, gate del and mcast leave delete from it (a leave needs a\n"
"counting filter).  Every interface is resolved first; when one\n"
"fails to attach, what this command did is undone.  -exist: an interface\n"
"attached already is not an error.\n"
"  ipbf   attach ports made by ipbf port (ipbf setup makes a whole node and\n"
"         attaches it): dev, mode and netns only.\n"
"  mcbf   Multi-Class Bloom filter switch: each interface becomes a port\n"
"         with an empty filter (bits M: 4096; classes LIST or class\n"
"         GROUPS:P[:W]...: all:4; seed S; hash fast|siphash; see mcbf port,\n"
"         mcbf join); ports N, members N, audit on|off when it is made.\n",
		.min_args = 2,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = cmd_attach,
	},
	{
		.name = "detach",
		.synopsis = "NAME [dev IFACE...] [netns NS]",
		.summary = "detach interfaces, or remove the whole instance",
		.help =
"With dev: detach those interfaces; an mcast, ipbf or mcbf port is removed\n"
"with its filter (or link IDs), memberships and counters.  Without: detach\n"
"every interface and remove instance NAME and all its pins.  -exist: a\n"
"missing instance or an interface not attached is not an error.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = cmd_detach,
	},
	{
		.name = "status",
		.synopsis = "[NAME] [netns NS]",
		.summary = "the instances: kind, pins, attached interfaces and modes",
		.help =
"For each instance (or NAME): its kind and directory, for mcast the ports\n"
"and memberships, for a gate its policy and the size of its set, the\n"
"variant (map or kfunc, with the module filters), for ipbf its ports and\n"
"configuration, for mcbf its ports, memberships and audit, and its links:\n"
"interface, ifindex, mode (native or generic), link and program ids.\n"
"Interface names are looked up in netns NS (pass links: in their own).\n",
		.max_args = 3,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_status,
	},
	{ 0 }
};

const struct ctl_cmd xdp_cmds[] = {
	{
		.name = "xdp",
		.synopsis = "attach|detach|status ...",
		.summary = "XDP paths on interfaces: attach, detach, status",
		.sub = xdp_sub,
	},
	{ 0 }
};
