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
	ret = ret ?: i->ops->open(i);
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
 * today a BPF link, native mode else (AUTO) generic with one log line,
 * pinned at the request's pin.  Another attach method (a libxdp
 * dispatcher component, falling back to this link) replaces the bodies
 * of kbi_link_attach(), kbi_link_detach(), kbi_update() and
 * kbi_link_read()'s reading of the pin: the rest of the core only names
 * pins.
 */
static int kbi_fallback_ok(int err)
{
	return err == -EOPNOTSUPP || err == -EINVAL || err == -524;
}

static int kbi_link_try(int prog_fd, int ifindex, __u32 flags)
{
	LIBBPF_OPTS(bpf_link_create_opts, o, .flags = flags);

	return kbp_err(bpf_link_create(prog_fd, ifindex, BPF_XDP, &o));
}

/* A link in @r->mode: native, else (AUTO) generic with a log line. */
static int kbi_link_make(const struct kbi_link_req *r,
			 const struct kbloom_inst *l, const char *ifname,
			 enum kbloom_xdp_mode *got)
{
	int fd = -EOPNOTSUPP;

	*got = KBLOOM_XDP_MODE_NATIVE;
	if (r->mode != KBLOOM_XDP_MODE_GENERIC) {
		fd = kbi_link_try(r->prog_fd, r->ifindex, XDP_FLAGS_DRV_MODE);
		if (fd >= 0 || r->mode == KBLOOM_XDP_MODE_NATIVE ||
		    !kbi_fallback_ok(fd))
			return fd;
		kbi_log(l, "%s: %s: native XDP unavailable (%s), attaching in generic (skb) mode",
			r->who, ifname, strerror(-fd));
	}
	*got = KBLOOM_XDP_MODE_GENERIC;
	return kbi_link_try(r->prog_fd, r->ifindex, XDP_FLAGS_SKB_MODE);
}

int kbi_link_attach(const struct kbi_link_req *r, enum kbloom_xdp_mode *got)
{
	struct kbloom_inst l = { .log = r->log, .log_ctx = r->log_ctx };
	char ifname[IF_NAMESIZE] = "?";
	int fd, ret;

	if_indextoname(r->ifindex, ifname);
	fd = kbi_link_make(r, &l, ifname, got);
	if (fd == -EBUSY || fd == -EEXIST)
		kbi_log(&l, "%s: %s: another XDP program is attached", r->who,
			ifname);
	else if (fd < 0)
		kbi_log(&l, "%s: %s: cannot attach XDP: %s", r->who, ifname,
			strerror(-fd));
	if (fd < 0 || !r->pin)
		return fd;
	ret = kbp_err(bpf_obj_pin(fd, r->pin));
	if (ret)
		bpf_link_detach(fd);
	close(fd);
	return ret;
}

/* Detach and unpin the link pinned at @pin; a defunct link is not an error. */
static int kbi_link_detach(const char *pin)
{
	int fd = bpf_obj_get(pin), ret;

	if (fd < 0)
		return kbp_err(fd);
	ret = kbp_err(bpf_link_detach(fd));
	close(fd);
	if (ret == -ENOLINK)	/* the interface is gone */
		ret = 0;
	if (!ret && unlink(pin))
		ret = -errno;
	return ret;
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
	if (!ret) {
		struct kbi_link_req r = {
			.ifindex = ifindex, .mode = mode,
			.prog_fd = ops->prog_fd(i), .pin = pin,
			.who = i->name, .log = i->log, .log_ctx = i->log_ctx,
		};

		ret = kbi_link_attach(&r, got);
	}
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

int kbi_detach(struct kbloom_inst *i, int ifindex)
{
	char pin[PATH_MAX];
	int ret;

	ret = kbi_link_pin(i, ifindex, pin);
	ret = ret ?: kbi_lock(i);
	if (ret)
		return ret;
	ret = kbi_link_detach(pin);
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

static __u32 kbi_query_mode(int ifindex, __u32 prog_id)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);

	if (!ifindex || bpf_xdp_query(ifindex, 0, &q))
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
		return 0;
	default:
		return 0;
	}
}

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

/* Link @l of pin @name: its ids, then name and mode in its namespace. */
static int kbi_link_read(const struct kbloom_inst *i, const char *name,
			 __u64 rec, struct kbloom_xdp_link *l)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);
	unsigned long long ino = 0;
	char p[PATH_MAX];
	int fd, ret, ns, own, saved;

	memset(l, 0, sizeof(*l));
	if (kbp_path(i->dir, p, "%s", name))
		return -ENAMETOOLONG;
	fd = bpf_obj_get(p);
	if (fd < 0)
		return -errno;
	ret = kbp_err(bpf_obj_get_info_by_fd(fd, &info, &len));
	close(fd);
	if (ret)
		return ret;
	l->ifindex = info.xdp.ifindex;
	l->link_id = info.id;
	l->prog_id = info.prog_id;
	if (sscanf(name, "link_%*u_ns%llu", &ino) == 1)
		l->netns_ino = ino;
	ns = kbi_link_ns(i, l, rec, &own);
	if (ns != -2 && !kbp_ns_enter(ns, &saved)) {
		if (!l->ifindex || !if_indextoname(l->ifindex, l->ifname))
			l->ifname[0] = 0;
		l->mode = kbi_query_mode(l->ifindex, l->prog_id);
		kbp_ns_leave(saved);
	}
	if (own >= 0)
		close(own);
	return 0;
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

static int kbi_update(const char *dir, const char *name, int from, int to)
{
	LIBBPF_OPTS(bpf_link_update_opts, o, .flags = BPF_F_REPLACE,
		    .old_prog_fd = from);
	char p[PATH_MAX];
	int fd, ret;

	ret = kbp_path(dir, p, "%s", name);
	if (ret)
		return ret;
	fd = bpf_obj_get(p);
	if (fd < 0)
		return 0;	/* gone meanwhile */
	ret = kbp_err(bpf_link_update(fd, to, &o));
	close(fd);
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
		ret = kbi_update(i->dir, names[k], old_fd, new_fd);
	if (ret) {
		kbi_log(i, "%s: replacing the program of a link failed: %s",
			i->name, strerror(-ret));
		for (k--; k-- > 0;)
			kbi_update(i->dir, names[k], new_fd, old_fd);
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

	if (!i)
		return -EINVAL;
	snprintf(root, sizeof(root), "%s", i->root);
	snprintf(name, sizeof(name), "%s", i->name);
	kbi_lock(i);
	kbi_clear(i->dir, false); /* first: no frame enters a half-removed path */
	if (i->ops->teardown)
		i->ops->teardown(i);
	kbloom_inst_close(i);	/* releases the lock */
	return kbloom_xdp_unpin(root, name);
}
