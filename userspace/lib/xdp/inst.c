// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the core (inst.h).  Handles, the directory and
 * its lock, bpffs, the namespace, the kind marker, and the XDP links of
 * every kind: attach (native, else generic), detach, status, replace,
 * removal.  The kinds are reached through their struct kbi_ops only.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "attach.h"
#include "inst.h"
#include "pin.h"

#define KBI_MARKER	"kind"		/* the pin of the kind marker */
#define KBI_MARKER_VER	1U
#define KBI_LINK	"link_"		/* the pins of the links: */
#define KBI_LINK_FMT	"link_%d"	/* ifindex, */
#define KBI_LINK_NS_FMT	"link_%d_ns%llu"	/* ifindex, netns inode */
#define KBI_NETNS_DIR	"/run/netns"

/* The value of the kind marker. */
struct kbi_marker {
	char kind[KBLOOM_INST_KIND_MAX];
	__u32 version;
	__u32 pad;
	__u64 netns_ino;	/* namespace of the interfaces; 0: any */
};

/* ---- logging, locking ------------------------------------------------------ */

void kbi_log(const struct kbloom_inst *i, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kbp_vlog(i ? i->log : NULL, i ? i->log_ctx : NULL, fmt, ap);
	va_end(ap);
}

int kbi_lock(struct kbloom_inst *i)
{
	if (i->lock_depth++)
		return 0;
	if (flock(i->dir_fd, LOCK_EX)) {
		i->lock_depth--;
		return -errno;
	}
	return 0;
}

void kbi_unlock(struct kbloom_inst *i)
{
	if (--i->lock_depth == 0)
		flock(i->dir_fd, LOCK_UN);
}

/* ---- namespaces ------------------------------------------------------------- */

/* The inode of namespace @fd (-1: the calling thread's), 0 if unknown. */
static __u64 kbi_ns_ino(int fd)
{
	struct stat st;
	int own = -1;

	if (fd < 0)
		fd = own = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		st.st_ino = 0;
	if (own >= 0)
		close(own);
	return st.st_ino;
}

int kbloom_inst_netns_name(__u64 ino, char *buf, size_t len)
{
	char p[PATH_MAX];
	struct dirent *e;
	struct stat st;
	int ret = -ENOENT;
	DIR *d;

	snprintf(buf, len, "ns:%llu", (unsigned long long)ino);
	if (ino == kbi_ns_ino(-1)) {
		snprintf(buf, len, "-");
		return 0;
	}
	d = opendir(KBI_NETNS_DIR);
	if (!d)
		return ret;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    snprintf(p, sizeof(p), "%s/%s", KBI_NETNS_DIR,
			     e->d_name) >= (int)sizeof(p))
			continue;
		if (!stat(p, &st) && st.st_ino == ino &&
		    snprintf(buf, len, "%s", e->d_name) < (int)len) {
			ret = 0;
			break;
		}
	}
	closedir(d);
	return ret;
}

int kbi_ifname(const struct kbloom_inst *i, int ifindex, char *buf)
{
	int ns, ret;

	ret = kbp_ns_enter(i->netns_fd, &ns);
	if (ret)
		return ret;
	if (!if_indextoname(ifindex, buf))
		ret = -ENODEV;
	kbp_ns_leave(ns);
	return ret;
}

/* ---- handles ---------------------------------------------------------------- */

static struct kbloom_inst *kbi_alloc(const char *name,
				     const struct kbloom_inst_opts *o)
{
	const char *root = o && o->pin_root ? o->pin_root :
			   KBLOOM_XDP_PIN_ROOT;
	struct kbloom_inst *i;

	if (!kbp_name_ok(name))
		return NULL;
	i = calloc(1, sizeof(*i));
	if (!i)
		return NULL;
	i->dir_fd = -1;
	i->netns_fd = -1;
	if (o) {
		i->log = o->log;
		i->log_ctx = o->log_ctx;
	}
	snprintf(i->name, sizeof(i->name), "%s", name);
	snprintf(i->root, sizeof(i->root), "%s", root);
	if (snprintf(i->dir, sizeof(i->dir), "%s/%s", root, name) >=
	    (int)sizeof(i->dir)) {
		free(i);
		return NULL;
	}
	return i;
}

/* bpffs on /sys/fs/bpf when the pin root is there, and the namespace. */
static int kbi_env(struct kbloom_inst *i, const struct kbloom_inst_opts *o)
{
	char p[PATH_MAX];
	int ret = kbp_bpffs_ensure(i->root);

	if (ret < 0) {
		kbi_log(i, "cannot mount bpffs on %s: %s", KBP_BPFFS,
			strerror(-ret));
		return ret;
	}
	if (ret)
		kbi_log(i, "mounted bpffs on %s", KBP_BPFFS);
	if (!o || !o->netns)
		return 0;
	ret = kbp_netns_open(o->netns, p);
	if (ret < 0) {
		kbi_log(i, "netns %s: %s", p, strerror(-ret));
		return ret;
	}
	i->netns_fd = ret;
	return 0;
}

void kbloom_inst_close(struct kbloom_inst *i)
{
	if (!i)
		return;
	if (i->priv && i->ops->close)
		i->ops->close(i);
	kbp_close_fd(&i->netns_fd);
	kbp_close_fd(&i->dir_fd);
	free(i);
}

const char *kbloom_inst_kind(const struct kbloom_inst *i)
{
	return i ? i->ops->kind : NULL;
}

const char *kbloom_inst_dir(const struct kbloom_inst *i)
{
	return i ? i->dir : NULL;
}

const char *kbloom_inst_name(const struct kbloom_inst *i)
{
	return i ? i->name : NULL;
}

/* ---- the kind marker -------------------------------------------------------- */

static int kbi_mark(struct kbloom_inst *i)
{
	LIBBPF_OPTS(bpf_map_create_opts, mo, .map_flags = BPF_F_RDONLY_PROG);
	struct kbi_marker m = { .version = KBI_MARKER_VER };
	char p[PATH_MAX];
	__u32 zero = 0;
	int fd, ret;

	snprintf(m.kind, sizeof(m.kind), "%s", i->ops->kind);
	if (!(i->ops->flags & KBI_F_ANY_NS))
		m.netns_ino = kbi_ns_ino(i->netns_fd);
	ret = kbp_path(i->dir, p, "%s", KBI_MARKER);
	if (ret)
		return ret;
	fd = kbp_err(bpf_map_create(BPF_MAP_TYPE_ARRAY, "kbloom_kind",
				    sizeof(zero), sizeof(m), 1, &mo));
	if (fd < 0)
		return fd;
	ret = kbp_err(bpf_map_update_elem(fd, &zero, &m, 0));
	ret = ret ?: kbp_err(bpf_map_freeze(fd));
	ret = ret ?: kbp_err(bpf_obj_pin(fd, p));
	close(fd);
	return ret;
}

/* The marker of directory @dir: -ENODATA none, -EUCLEAN not one. */
static int kbi_marker_read(const char *dir, struct kbi_marker *m)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info), zero = 0;
	char p[PATH_MAX];
	int fd, ret;

	ret = kbp_path(dir, p, "%s", KBI_MARKER);
	if (ret)
		return ret;
	fd = bpf_obj_get(p);
	if (fd < 0)
		return errno == ENOENT ? -ENODATA : -errno;
	ret = kbp_err(bpf_obj_get_info_by_fd(fd, &info, &len));
	if (!ret && (info.type != BPF_MAP_TYPE_ARRAY ||
		     info.value_size != sizeof(*m)))
		ret = -EUCLEAN;
	ret = ret ?: kbp_err(bpf_map_lookup_elem(fd, &zero, m));
	close(fd);
	if (!ret && (m->version != KBI_MARKER_VER ||
		     !memchr(m->kind, 0, sizeof(m->kind)) || !m->kind[0]))
		ret = -EUCLEAN;
	return ret;
}

int kbloom_inst_kind_read(const char *pin_root, const char *name,
			  char kind[KBLOOM_INST_KIND_MAX])
{
	struct kbi_marker m;
	char dir[PATH_MAX];
	struct stat st;
	int ret;

	if (!kbp_name_ok(name) || !kind)
		return -EINVAL;
	ret = kbp_path(pin_root ? pin_root : KBLOOM_XDP_PIN_ROOT, dir, "%s",
		       name);
	if (ret)
		return ret;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return -ENOENT;
	ret = kbi_marker_read(dir, &m);
	if (!ret)
		memcpy(kind, m.kind, KBLOOM_INST_KIND_MAX);
	return ret;
}

int kbloom_inst_netns(const char *pin_root, const char *name, __u64 *ino)
{
	struct kbi_marker m;
	char dir[PATH_MAX];
	int ret;

	if (!kbp_name_ok(name) || !ino)
		return -EINVAL;
	ret = kbp_path(pin_root ? pin_root : KBLOOM_XDP_PIN_ROOT, dir, "%s",
		       name);
	ret = ret ?: kbi_marker_read(dir, &m);
	*ino = ret ? 0 : m.netns_ino;
	return ret;
}

/* The ops of the marker of @i. */
static int kbi_kind_find(struct kbloom_inst *i, kbi_find_fn find)
{
	struct kbi_marker m;
	int ret = kbi_marker_read(i->dir, &m);

	if (ret == -ENODATA)
		kbi_log(i, "%s: no kind marker (%s/%s): not a kbloom instance",
			i->name, i->dir, KBI_MARKER);
	if (ret == -EUCLEAN)
		kbi_log(i, "%s: the kind marker %s/%s is corrupt", i->name,
			i->dir, KBI_MARKER);
	if (ret)
		return ret;
	i->ops = find(m.kind);
	if (!i->ops) {
		kbi_log(i, "%s: kind '%s' is not one this library knows",
			i->name, m.kind);
		return -EUCLEAN;
	}
	return 0;
}

/* Open @i by its kind; maps of another layout are named in the log. */
static int kbi_ops_open(struct kbloom_inst *i)
{
	int ret = i->ops->open(i);

	if (ret == -EUCLEAN)
		kbi_log(i, "%s: its maps in %s were pinned by another kbloom version (other layouts): detach it with that version, or remove the directory",
			i->name, i->dir);
	return ret;
}

/* A handle of @name with its bpffs and namespace, before its directory. */
static int kbi_new(const char *name, const struct kbloom_inst_opts *o,
		   struct kbloom_inst **ip)
{
	struct kbloom_inst *i;
	int ret;

	if (!ip || !kbp_name_ok(name))
		return -EINVAL;
	i = kbi_alloc(name, o);
	if (!i)
		return -ENOMEM;
	ret = kbi_env(i, o);
	if (ret) {
		kbloom_inst_close(i);
		return ret;
	}
	*ip = i;
	return 0;
}

int kbi_open(const char *name, const struct kbloom_inst_opts *o,
	     kbi_find_fn find, struct kbloom_inst **ip)
{
	struct kbloom_inst *i;
	int ret;

	ret = kbi_new(name, o, &i);
	if (ret)
		return ret;
	i->dir_fd = open(i->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ret = i->dir_fd < 0 ? -errno : kbi_lock(i);
	if (ret)
		goto err_close;
	ret = kbi_kind_find(i, find);
	ret = ret ?: kbi_ops_open(i);
	kbi_unlock(i);
	if (ret)
		goto err_close;
	*ip = i;
	return 0;
err_close:
	kbloom_inst_close(i);
	return ret;
}

int kbi_create(const char *name, const struct kbi_ops *ops,
	       const struct kbloom_inst_opts *o, const void *kind_opts,
	       struct kbloom_inst **ip)
{
	struct kbloom_inst *i;
	int ret;

	ret = kbi_new(name, o, &i);
	if (ret)
		return ret;
	i->ops = ops;
	ret = kbp_mkdir_p(i->root);
	if (ret)
		goto err_close;
	if (mkdir(i->dir, 0700)) {
		ret = -errno;
		goto err_close;
	}
	i->dir_fd = open(i->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ret = i->dir_fd < 0 ? -errno : kbi_lock(i);
	if (ret)
		goto err_unpin;
	ret = kbi_mark(i);
	ret = ret ?: ops->create(i, kind_opts);
	kbi_unlock(i);
	if (ret)
		goto err_unpin;
	*ip = i;
	return 0;
err_unpin:
	kbloom_inst_close(i);
	kbloom_xdp_unpin(o ? o->pin_root : NULL, name);
	return ret;
err_close:
	kbloom_inst_close(i);
	return ret;
}

/* ---- links: the attach method ----------------------------------------------- */

/*
 * The one way kbloom attaches a program to an interface, and removes it:
 * the attach module (attach.h): a component of libxdp's dispatcher when
 * the kind gives an EXT copy of its program (ops->ext_open) and the kernel
 * takes it, else a BPF link, native mode else (AUTO) generic, one log line
 * each, pinned at the request's pin.  Why the dispatcher was not used is
 * not logged (a kernel without freplace would say it on every attach).
 */

/* The attach module's lines, after the instance's name. */
struct kbi_who {
	const char *who;
	kbloom_xdp_log_fn log;
	void *log_ctx;
};

static void kbi_who_log(void *ctx, const char *msg)
{
	const struct kbi_who *w = ctx;
	struct kbloom_inst l = { .log = w->log, .log_ctx = w->log_ctx };

	kbi_log(&l, "%s: %s", w->who, msg);
}

int kbi_link_attach(const struct kbi_link_req *r, enum kbloom_xdp_mode *got)
{
	struct kbi_who w = { r->who, r->log, r->log_ctx };
	struct kb_xdp_attach_req q = {
		.ifindex = r->ifindex, .mode = r->mode, .prog_fd = r->prog_fd,
		.ext_obj = r->ext_obj, .prog_name = r->prog_name,
		.run_prio = r->run_prio, .chain_actions = 1U << XDP_PASS,
		.pin_path = r->pin, .flags = KB_XDP_ATTACH_QUIET,
	};
	struct kb_xdp_attachment a;
	int ret;

	ret = kb_xdp_attach(&q, &a, kbi_who_log, &w);
	if (ret >= 0)
		*got = a.mode;
	return ret;
}

/* The ifindex a pin's name carries. */
static int kbi_pin_ifindex(const char *pin)
{
	const char *b = strrchr(pin, '/');
	int ifindex = 0;

	sscanf(b ? b + 1 : pin, KBI_LINK "%d", &ifindex);
	return ifindex;
}

/* Detach and unpin the attachment at @pin; a defunct one is not an error. */
static int kbi_link_detach(const char *pin)
{
	return kb_xdp_detach(kbi_pin_ifindex(pin), pin, NULL, NULL);
}

/* ---- links of an instance --------------------------------------------------- */

static int kbi_link_pin(const struct kbloom_inst *i, int ifindex, char *buf)
{
	if (i->ops->flags & KBI_F_ANY_NS)
		return kbp_path(i->dir, buf, KBI_LINK_NS_FMT, ifindex,
				(unsigned long long)kbi_ns_ino(i->netns_fd));
	return kbp_path(i->dir, buf, KBI_LINK_FMT, ifindex);
}

int kbloom_inst_attached(const struct kbloom_inst *i, int ifindex)
{
	char p[PATH_MAX];

	return i && !kbi_link_pin(i, ifindex, p) && !access(p, F_OK);
}

/* The kind's program on @ifindex, with its EXT copy when it gives one. */
static int kbi_attach_link(struct kbloom_inst *i, int ifindex,
			   enum kbloom_xdp_mode mode, enum kbloom_xdp_mode *got,
			   const char *pin)
{
	const struct kbi_ops *ops = i->ops;
	struct kbi_link_req r = {
		.ifindex = ifindex, .mode = mode,
		.prog_fd = ops->prog_fd(i), .pin = pin,
		.run_prio = ops->run_prio,
		.who = i->name, .log = i->log, .log_ctx = i->log_ctx,
	};
	int ret;

	if (ops->ext_open) {
		ret = ops->ext_open(i, &r.ext_obj, &r.prog_name);
		if (ret)
			return ret;
	}
	ret = kbi_link_attach(&r, got);
	bpf_object__close(r.ext_obj);
	return ret;
}

static int kbi_attach_locked(struct kbloom_inst *i, int ifindex,
			     enum kbloom_xdp_mode mode,
			     enum kbloom_xdp_mode *got, const char *pin)
{
	const struct kbi_ops *ops = i->ops;
	char ifname[IF_NAMESIZE];
	bool made = false;
	int ret, ns;

	ret = kbp_ns_enter(i->netns_fd, &ns);
	if (ret)
		return ret;
	if (!if_indextoname(ifindex, ifname)) {
		kbi_log(i, "%s: no interface with ifindex %d", i->name,
			ifindex);
		ret = -ENODEV;
		goto out_ns;
	}
	if (ops->port_attach)
		ret = ops->port_attach(i, ifindex, &made);
	if (!ret)
		ret = kbi_attach_link(i, ifindex, mode, got, pin);
	if (ret && made)
		ops->port_undo(i, ifindex);
out_ns:
	kbp_ns_leave(ns);
	return ret;
}

int kbloom_inst_attach(struct kbloom_inst *i, int ifindex,
		       enum kbloom_xdp_mode mode, enum kbloom_xdp_mode *got)
{
	enum kbloom_xdp_mode m = 0;
	char pin[PATH_MAX];
	int ret;

	if (!i || ifindex <= 0 || mode > KBLOOM_XDP_MODE_GENERIC)
		return -EINVAL;
	ret = kbi_link_pin(i, ifindex, pin);
	ret = ret ?: kbi_lock(i);
	if (ret)
		return ret;
	ret = access(pin, F_OK) ? kbi_attach_locked(i, ifindex, mode, &m, pin) :
				  -EEXIST;
	kbi_unlock(i);
	if (!ret && got)
		*got = m;
	return ret;
}

/*
 * Enter the namespace of @i's links (a dispatcher component is found
 * through its interface), unless they live in several.
 */
static int kbi_ns_enter_own(const struct kbloom_inst *i, int *saved)
{
	return kbp_ns_enter(i->ops->flags & KBI_F_ANY_NS ? -1 : i->netns_fd,
			    saved);
}

int kbi_detach(struct kbloom_inst *i, int ifindex)
{
	char pin[PATH_MAX];
	int ret, ns;

	ret = kbi_link_pin(i, ifindex, pin);
	ret = ret ?: kbi_lock(i);
	if (ret)
		return ret;
	ret = kbi_ns_enter_own(i, &ns);
	if (!ret) {
		ret = kbi_link_detach(pin);
		if (!ret && i->ops->link_gone)
			i->ops->link_gone(i, ifindex);
		kbp_ns_leave(ns);
	}
	kbi_unlock(i);
	return ret;
}

int kbloom_inst_detach(struct kbloom_inst *i, int ifindex)
{
	if (!i || ifindex <= 0)
		return -EINVAL;
	return kbi_detach(i, ifindex);
}

/* The link pins of @dir, malloc()ed names; -errno. */
static int kbi_link_names(const char *dir, char (**out)[NAME_MAX + 1],
			  int *n)
{
	char (*v)[NAME_MAX + 1] = NULL, (*t)[NAME_MAX + 1];
	struct dirent *e;
	int cap = 0;
	DIR *d;

	*n = 0;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, KBI_LINK, strlen(KBI_LINK)))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			t = realloc(v, cap * sizeof(*v));
			if (!t)
				break;
			v = t;
		}
		snprintf(v[(*n)++], sizeof(*v), "%s", e->d_name);
	}
	closedir(d);
	*out = v;
	return 0;
}

/* ---- status ----------------------------------------------------------------- */

/*
 * The namespace to look at link @l in: the instance's (checked against
 * the one recorded), or for a kind with links in several namespaces the
 * link's own, found under /run/netns.  -2: none to enter.
 */
static int kbi_link_ns(const struct kbloom_inst *i, struct kbloom_xdp_link *l,
		       __u64 rec, int *own)
{
	char p[PATH_MAX];

	*own = -1;
	if (!l->netns_ino)
		return !rec || rec == kbi_ns_ino(i->netns_fd) ? i->netns_fd : -2;
	if (kbloom_inst_netns_name(l->netns_ino, l->netns, sizeof(l->netns)) &&
	    l->netns_ino != kbi_ns_ino(i->netns_fd))
		return -2;
	if (l->netns_ino == kbi_ns_ino(i->netns_fd))
		return i->netns_fd;
	if (!strcmp(l->netns, "-"))
		return -1;
	if (snprintf(p, sizeof(p), "%s/%s", KBI_NETNS_DIR, l->netns) >=
	    (int)sizeof(p))
		return -2;
	*own = open(p, O_RDONLY | O_CLOEXEC);
	return *own >= 0 ? *own : -2;
}

/* Attachment @l of pin @name: its ids, name and mode in its namespace. */
static int kbi_link_read(const struct kbloom_inst *i, const char *name,
			 __u64 rec, struct kbloom_xdp_link *l)
{
	struct kb_xdp_attachment a = {};
	unsigned long long ino = 0;
	int ret, ns, own, saved = -1;
	char p[PATH_MAX];

	memset(l, 0, sizeof(*l));
	if (kbp_path(i->dir, p, "%s", name))
		return -ENAMETOOLONG;
	l->ifindex = kbi_pin_ifindex(name);
	if (sscanf(name, "link_%*u_ns%llu", &ino) == 1)
		l->netns_ino = ino;
	ns = kbi_link_ns(i, l, rec, &own);
	if (ns != -2 && kbp_ns_enter(ns, &saved))
		ns = -2;
	ret = kb_xdp_attach_status(l->ifindex, p, &a);
	if (ns != -2) {
		if (!a.via || !if_indextoname(l->ifindex, l->ifname))
			l->ifname[0] = 0;
		kbp_ns_leave(saved);
	}
	if (own >= 0)
		close(own);
	if (!a.via)
		l->ifindex = 0;	/* defunct: the interface is gone */
	l->link_id = a.link_id;
	l->prog_id = a.prog_id;
	l->mode = ns != -2 ? a.mode : 0;
	return ret;
}

static int kbi_link_cmp(const void *a, const void *b)
{
	const struct kbloom_xdp_link *x = a, *y = b;

	if (x->netns_ino != y->netns_ino)
		return x->netns_ino < y->netns_ino ? -1 : 1;
	return (x->ifindex > y->ifindex) - (x->ifindex < y->ifindex);
}

int kbloom_inst_status(struct kbloom_inst *i, struct kbloom_xdp_link *out,
		       __u32 max)
{
	char (*names)[NAME_MAX + 1] = NULL;
	struct kbloom_xdp_link l;
	__u64 rec = 0;
	int n = 0, k, cnt, ret;

	if (!i || (max && !out))
		return -EINVAL;
	ret = kbi_link_names(i->dir, &names, &cnt);
	if (ret)
		return ret;
	kbloom_inst_netns(i->root, i->name, &rec);
	for (k = 0; k < cnt; k++) {
		if (kbi_link_read(i, names[k], rec, &l))
			continue;
		if ((__u32)n < max)
			out[n] = l;
		n++;
	}
	free(names);
	if (out)
		qsort(out, (__u32)n < max ? (__u32)n : max, sizeof(*out),
		      kbi_link_cmp);
	return n;
}

/* ---- what the kind holds ----------------------------------------------------- */

int kbloom_inst_info(struct kbloom_inst *i, struct kbloom_inst_info *info)
{
	int ret;

	if (!i || !info)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	if (!i->ops->info)
		return 0;
	ret = kbi_lock(i);
	if (ret)
		return ret;
	i->ops->info(i, info);
	kbi_unlock(i);
	return 0;
}

/* ---- replace, removal -------------------------------------------------------- */

/* Switch attachment @name from program @from to @to. */
static int kbi_update(struct kbloom_inst *i, const char *name, int from,
		      int to)
{
	char p[PATH_MAX];
	struct kb_xdp_attach_req r = {
		.ifindex = kbi_pin_ifindex(name), .prog_fd = to, .pin_path = p,
		.run_prio = i->ops->run_prio, .chain_actions = 1U << XDP_PASS,
	};
	struct bpf_object *obj = NULL;
	int ret;

	ret = kbp_path(i->dir, p, "%s", name);
	if (ret)
		return ret;
	if (access(p, F_OK))
		return 0;	/* gone meanwhile */
	if (i->ops->ext_open) {
		ret = i->ops->ext_open(i, &obj, &r.prog_name);
		if (ret)
			return ret;
		r.ext_obj = obj;
	}
	ret = kb_xdp_replace(&r, from, i->log, i->log_ctx);
	bpf_object__close(obj);
	return ret == -ENOLINK ? 0 : ret;	/* defunct: interface gone */
}

int kbi_links_update(struct kbloom_inst *i, int old_fd, int new_fd)
{
	char (*names)[NAME_MAX + 1] = NULL;
	int k, cnt, ret;

	ret = kbi_link_names(i->dir, &names, &cnt);
	if (ret)
		return ret;
	for (k = 0; !ret && k < cnt; k++)
		ret = kbi_update(i, names[k], old_fd, new_fd);
	if (ret) {
		kbi_log(i, "%s: replacing the program of a link failed: %s",
			i->name, strerror(-ret));
		for (k--; k-- > 0;)
			kbi_update(i, names[k], new_fd, old_fd);
	}
	free(names);
	return ret;
}

int kbloom_inst_replace(struct kbloom_inst *i)
{
	int ret;

	if (!i)
		return -EINVAL;
	if (!i->ops->replace)
		return -EOPNOTSUPP;
	ret = kbi_lock(i);
	if (ret)
		return ret;
	ret = i->ops->replace(i);
	kbi_unlock(i);
	return ret;
}

/* Detach every link of @dir; with @unpin_all, delete every pin too. */
static int kbi_clear(const char *dir, bool unpin_all)
{
	char (*names)[NAME_MAX + 1] = NULL, p[PATH_MAX];
	struct dirent *e;
	int k, cnt, err;
	DIR *d;

	err = kbi_link_names(dir, &names, &cnt);
	if (err)
		return err;
	for (k = 0; k < cnt; k++)
		if (!kbp_path(dir, p, "%s", names[k]))
			kbi_link_detach(p);
	free(names);
	d = unpin_all ? opendir(dir) : NULL;
	if (!d)
		return unpin_all ? -errno : 0;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    unlinkat(dirfd(d), e->d_name, 0) && !err)
			err = -errno;
	closedir(d);
	return err;
}

int kbloom_xdp_unpin(const char *pin_root, const char *name)
{
	char dir[PATH_MAX];
	int err;

	if (!kbp_name_ok(name))
		return -EINVAL;
	err = kbp_path(pin_root ? pin_root : KBLOOM_XDP_PIN_ROOT, dir, "%s",
		       name);
	err = err ?: kbi_clear(dir, true);
	if (err && err != -ENOENT)
		rmdir(dir);
	else if (!err && rmdir(dir))
		err = -errno;
	return err;
}

int kbloom_inst_destroy(struct kbloom_inst *i)
{
	char root[PATH_MAX], name[KBLOOM_XDP_NAME_MAX];
	int ns;

	if (!i)
		return -EINVAL;
	snprintf(root, sizeof(root), "%s", i->root);
	snprintf(name, sizeof(name), "%s", i->name);
	kbi_lock(i);
	if (!kbi_ns_enter_own(i, &ns)) {
		/* first: no frame enters a half-removed path */
		kbi_clear(i->dir, false);
		kbp_ns_leave(ns);
	}
	if (i->ops->teardown)
		i->ops->teardown(i);
	kbloom_inst_close(i);	/* releases the lock */
	return kbloom_xdp_unpin(root, name);
}
