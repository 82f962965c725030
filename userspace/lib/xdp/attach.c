// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP attach (attach.h): an ingress program joins libxdp's
 * dispatcher, or gets kbloom's own bpf_link.
 *
 * libxdp runs up to ten programs on an interface through a dispatcher
 * program whose prog0..prog9 functions are replaced (freplace) by the
 * components, each a BPF_PROG_TYPE_EXT program.  kbloom's ingress program
 * is loaded as XDP (its own link runs that one), so for the dispatcher
 * libxdp loads a second copy of it as EXT from a fresh object of the same
 * ELF, whose maps reuse the instance's pinned ones: run priority and
 * chain-call actions can only be given to a program that libxdp loads.
 *
 * A kernel that refuses EXT programs would make libxdp fall back, silently,
 * to a plain netlink attach of the copy.  So kbloom first loads its pass
 * program as EXT with its own ingress program as target (same signature
 * as progN): when the kernel refuses that, the own link, and one line why.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>

#include "attach.h"
#include "bpf/kbloom_pass.skel.h"

#define KBA_BPFFS	"/sys/fs/bpf"

/* One call in progress. */
struct kba {
	const struct kb_xdp_attach_req *req;
	kbloom_xdp_log_fn log;
	void *log_ctx;
	char ifname[IF_NAMESIZE];
	struct xdp_multiprog *mp;	/* the interface's dispatcher, or NULL */
	libbpf_print_fn_t old_bpf_pr;
	libxdp_print_fn_t old_xdp_pr;
};

/* The call of this thread, for the print functions of libbpf and libxdp. */
static __thread struct kba *kba_cur;

static void kba_vlog(const struct kba *a, const char *fmt, va_list ap)
{
	char buf[512];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (a->log)
		a->log(a->log_ctx, buf);
	else
		fprintf(stderr, "kbloom: %s\n", buf);
}

__attribute__((format(printf, 2, 3)))
static void kba_log(const struct kba *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kba_vlog(a, fmt, ap);
	va_end(ap);
}

/* libxdp's warnings go to the caller's log, without their newline. */
static int kba_xdp_print(enum libxdp_print_level level, const char *fmt,
			 va_list ap)
{
	char buf[512];
	size_t n;

	if (level != LIBXDP_WARN || !kba_cur)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	n = strlen(buf);
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	kba_log(kba_cur, "libxdp: %s", buf);
	return 0;
}

/*
 * libbpf is quiet during a call: the EXT copy failing to load is the
 * expected answer of a kernel without freplace, said in one line here.
 */
static int kba_bpf_print(enum libbpf_print_level level, const char *fmt,
			 va_list ap)
{
	return 0;
}

static void kba_begin(struct kba *a, const struct kb_xdp_attach_req *req,
		      int ifindex, kbloom_xdp_log_fn log, void *log_ctx)
{
	memset(a, 0, sizeof(*a));
	a->req = req;
	a->log = log;
	a->log_ctx = log_ctx;
	if (!if_indextoname(ifindex, a->ifname))
		snprintf(a->ifname, sizeof(a->ifname), "ifindex %d", ifindex);
	kba_cur = a;
	a->old_bpf_pr = libbpf_set_print(kba_bpf_print);
	a->old_xdp_pr = libxdp_set_print(kba_xdp_print);
}

static void kba_end(struct kba *a)
{
	libxdp_set_print(a->old_xdp_pr);
	libbpf_set_print(a->old_bpf_pr);
	kba_cur = NULL;
	xdp_multiprog__close(a->mp);
	a->mp = NULL;
}

static enum xdp_attach_mode kba_xdp_mode(enum kbloom_xdp_mode m)
{
	return m == KBLOOM_XDP_MODE_GENERIC ? XDP_MODE_SKB : XDP_MODE_NATIVE;
}

static __u32 kba_kb_mode(enum xdp_attach_mode m)
{
	if (m == XDP_MODE_NATIVE)
		return KBLOOM_XDP_MODE_NATIVE;
	return m == XDP_MODE_SKB ? KBLOOM_XDP_MODE_GENERIC : 0;
}

/* Is @fd a BPF link (else a program)? */
static int kba_is_link(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return 0;
	target[n] = 0;
	return !strcmp(target, "anon_inode:bpf-link");
}

static __u32 kba_prog_id(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

/* ---- what is on the interface ------------------------------------------- */

/*
 * Set a->mp to the interface's dispatcher.  A program that is not one
 * (another tool's, or a bpf_link: libxdp cannot replace either) is named
 * and refused.
 */
static int kba_iface_probe(struct kba *a, int ifindex)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	struct xdp_multiprog *mp;
	struct xdp_program *p;
	int ret;

	ret = bpf_xdp_query(ifindex, 0, &q);
	if (ret)
		return ret;
	if (q.attach_mode == XDP_ATTACHED_NONE)
		return 0;
	mp = xdp_multiprog__get_from_ifindex(ifindex);
	ret = libxdp_get_error(mp);
	if (ret || !mp)
		return ret ? ret : -ENOENT;
	if (!xdp_multiprog__is_legacy(mp)) {
		a->mp = mp;
		return 0;
	}
	p = xdp_multiprog__main_prog(mp);
	kba_log(a, "%s: another XDP program is attached and is not a libxdp dispatcher: id %u (%s); detach it first",
		a->ifname, p ? xdp_program__id(p) : q.prog_id,
		p ? xdp_program__name(p) : "?");
	xdp_multiprog__close(mp);
	return -EBUSY;
}

/* Find the component of id @id in @mp. */
static struct xdp_program *kba_find(const struct xdp_multiprog *mp, __u32 id)
{
	struct xdp_program *p = NULL;

	while ((p = xdp_multiprog__next_prog(p, mp)))
		if (xdp_program__id(p) == id)
			return p;
	return NULL;
}

/* ---- the EXT copy ----------------------------------------------------------- */

/*
 * Does the kernel load EXT programs?  kbloom_pass as EXT, targeting the
 * ingress program: 0, or 1 with @why.
 */
static int kba_probe(struct kba *a, char *why, size_t n)
{
	struct kbloom_pass *s;
	struct bpf_program *p;
	int ret;

	s = kbloom_pass__open();
	if (!s)
		return -errno ?: -ENOMEM;
	p = s->progs.kbloom_pass;
	ret = bpf_program__set_type(p, BPF_PROG_TYPE_EXT);
	ret = ret ?: bpf_program__set_expected_attach_type(p, 0);
	ret = ret ?: bpf_program__set_attach_target(p, a->req->prog_fd,
						    a->req->prog_name);
	ret = ret ?: kbloom_pass__load(s);
	kbloom_pass__destroy(s);
	if (ret)
		snprintf(why, n, "the kernel refuses freplace (EXT) programs: %s",
			 strerror(-ret));
	return ret ? 1 : 0;
}

/* Every map of @obj reuses the one pinned under @dir by its name. */
static int kba_ext_maps(struct kba *a, struct bpf_object *obj, const char *dir)
{
	char path[PATH_MAX];
	struct bpf_map *map;
	int fd, ret;

	bpf_object__for_each_map(map, obj) {
		if (bpf_map__is_internal(map))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir,
			     bpf_map__name(map)) >= (int)sizeof(path))
			return -ENAMETOOLONG;
		fd = bpf_obj_get(path);
		if (fd < 0) {
			kba_log(a, "%s: map %s is not pinned in %s: %s",
				a->ifname, bpf_map__name(map), dir,
				strerror(-fd));
			return fd;
		}
		ret = bpf_map__reuse_fd(map, fd);
		close(fd);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The xdp_program of the copy, not loaded: only the ingress program of the
 * object loads, with the instance's maps, run priority and chain actions.
 */
static int kba_ext_prep(struct kba *a, struct xdp_program **xp)
{
	const struct kb_xdp_attach_req *r = a->req;
	DECLARE_LIBXDP_OPTS(xdp_program_opts, o, .obj = r->ext_obj,
			    .prog_name = r->prog_name);
	struct bpf_program *ext, *p;
	unsigned int act;
	int ret;

	ext = bpf_object__find_program_by_name(r->ext_obj, r->prog_name);
	if (!ext) {
		kba_log(a, "%s: no program %s in the object", a->ifname,
			r->prog_name);
		return -ENOENT;
	}
	ret = r->map_dir ? kba_ext_maps(a, r->ext_obj, r->map_dir) : 0;
	if (ret)
		return ret;
	bpf_object__for_each_program(p, r->ext_obj)
		bpf_program__set_autoload(p, p == ext);
	*xp = xdp_program__create(&o);
	ret = libxdp_get_error(*xp);
	if (ret)
		return ret;
	ret = xdp_program__set_run_prio(*xp, r->run_prio);
	for (act = XDP_ABORTED; !ret && act <= XDP_REDIRECT; act++)
		ret = xdp_program__set_chain_call_enabled(*xp, act,
			(r->chain_actions ?: 1U << XDP_PASS) & (1U << act));
	return ret;
}

/* ---- the dispatcher ------------------------------------------------------- */

static int kba_native_fallback_ok(int err)
{
	return err == -EOPNOTSUPP || err == -EINVAL || err == -524;
}

/*
 * Join (or start) the dispatcher in the mode asked for; one that is there
 * already fixes the mode.  *@got: the mode it runs in.
 */
static int kba_disp_attach(struct kba *a, struct xdp_program *xp, __u32 *got)
{
	enum kbloom_xdp_mode want = a->req->mode;
	int ifindex = a->req->ifindex;
	enum xdp_attach_mode m;
	int ret;

	if (a->mp) {
		m = xdp_multiprog__attach_mode(a->mp);
		if (want != KBLOOM_XDP_MODE_AUTO && m != kba_xdp_mode(want)) {
			kba_log(a, "%s: the libxdp dispatcher there runs in %s mode",
				a->ifname, m == XDP_MODE_SKB ? "generic" : "native");
			return -EBUSY;
		}
	} else {
		m = kba_xdp_mode(want);
	}
	ret = xdp_program__attach(xp, ifindex, m, 0);
	if (ret && !a->mp && want == KBLOOM_XDP_MODE_AUTO &&
	    kba_native_fallback_ok(ret)) {
		kba_log(a, "%s: native XDP unavailable (%s), attaching in generic (skb) mode",
			a->ifname, strerror(-ret));
		m = XDP_MODE_SKB;
		ret = xdp_program__attach(xp, ifindex, m, 0);
	}
	*got = kba_kb_mode(m);
	return ret;
}

/* ---- the own link ------------------------------------------------------------ */

static int kba_link_mode(const struct kba *a, __u32 flags)
{
	LIBBPF_OPTS(bpf_link_create_opts, o, .flags = flags);

	return bpf_link_create(a->req->prog_fd, a->req->ifindex, BPF_XDP, &o);
}

/* A bpf_link of @req->prog_fd, native then generic in AUTO mode. */
static int kba_link_create(struct kba *a, __u32 *got)
{
	enum kbloom_xdp_mode mode = a->req->mode;
	int fd = -EOPNOTSUPP;

	if (mode != KBLOOM_XDP_MODE_GENERIC) {
		fd = kba_link_mode(a, XDP_FLAGS_DRV_MODE);
		*got = KBLOOM_XDP_MODE_NATIVE;
		if (fd >= 0)
			return fd;
		if (mode == KBLOOM_XDP_MODE_NATIVE ||
		    !kba_native_fallback_ok(fd))
			goto fail;
		kba_log(a, "%s: native XDP unavailable (%s), attaching in generic (skb) mode",
			a->ifname, strerror(-fd));
	}
	fd = kba_link_mode(a, XDP_FLAGS_SKB_MODE);
	*got = KBLOOM_XDP_MODE_GENERIC;
	if (fd >= 0)
		return fd;
fail:
	if (fd == -EBUSY || fd == -EEXIST)
		kba_log(a, "%s: another XDP program is attached", a->ifname);
	else
		kba_log(a, "%s: cannot attach XDP: %s", a->ifname,
			strerror(-fd));
	return fd;
}

static int kba_link_status(int fd, struct kb_xdp_attachment *out);

static int kba_link_attach(struct kba *a, struct kb_xdp_attachment *out)
{
	__u32 mode;
	int fd, ret;

	fd = kba_link_create(a, &mode);
	if (fd < 0)
		return fd;
	kba_link_status(fd, out);
	if (!a->req->pin_path)
		return fd;	/* the caller holds it */
	ret = bpf_obj_pin(fd, a->req->pin_path);
	if (ret) {
		bpf_link_detach(fd);
		memset(out, 0, sizeof(*out));
	}
	close(fd);
	return ret;
}

/* ---- attach ---------------------------------------------------------------- */

static void kba_disp_status(int ifindex, __u32 id,
			    struct kb_xdp_attachment *out)
{
	struct xdp_multiprog *mp = xdp_multiprog__get_from_ifindex(ifindex);
	struct xdp_program *p;

	out->prog_id = id;
	if (libxdp_get_error(mp) || !mp)
		return;
	p = xdp_multiprog__is_legacy(mp) ? NULL : kba_find(mp, id);
	if (p) {
		out->via = KB_XDP_VIA_DISPATCHER;
		out->mode = kba_kb_mode(xdp_multiprog__attach_mode(mp));
		out->others = xdp_multiprog__program_count(mp) - 1;
		out->run_prio = xdp_program__run_prio(p);
	}
	xdp_multiprog__close(mp);
}

/* Take the EXT program @fd out of @ifindex's dispatcher (if still in). */
static int kba_disp_leave(int ifindex, int fd)
{
	struct xdp_multiprog *mp = xdp_multiprog__get_from_ifindex(ifindex);
	struct xdp_program *p = NULL;
	int ret = 0;

	if (libxdp_get_error(mp) || !mp)
		return 0;	/* nothing on the interface any more */
	if (xdp_multiprog__is_legacy(mp) || !kba_find(mp, kba_prog_id(fd)))
		goto out;
	p = xdp_program__from_fd(fd);
	ret = libxdp_get_error(p);
	if (!ret)
		ret = xdp_program__detach(p, ifindex,
					  xdp_multiprog__attach_mode(mp), 0);
	xdp_program__close(p);
out:
	xdp_multiprog__close(mp);
	return ret;
}

static int kba_bpffs_ok(void)
{
	const char *dir = secure_getenv(XDP_BPFFS_ENVVAR) ?: KBA_BPFFS;
	struct statfs st;

	return !statfs(dir, &st) && st.f_type == BPF_FS_MAGIC;
}

/*
 * The copy joins the dispatcher: *@xp (closed by the caller) is it,
 * loaded and attached, in mode *@mode.  0, -errno, or 1 with @why: the
 * dispatcher cannot be used here, the own link may.
 */
static int kba_disp_join(struct kba *a, struct xdp_program **xp,
			 __u32 *mode, char *why, size_t n)
{
	int ret;

	*xp = NULL;
	if (!kba_bpffs_ok()) {
		snprintf(why, n, "no bpffs on %s for its state", KBA_BPFFS);
		return 1;
	}
	ret = kba_probe(a, why, n);
	ret = ret ?: kba_ext_prep(a, xp);
	if (ret)
		return ret;
	ret = kba_disp_attach(a, *xp, mode);
	if (!ret)
		return 0;
	snprintf(why, n, "libxdp cannot attach it: %s", strerror(-ret));
	if (!a->mp && ret != -EBUSY &&
	    !(ret == -EOPNOTSUPP && a->req->mode == KBLOOM_XDP_MODE_NATIVE))
		return 1;
	kba_log(a, "%s: %s", a->ifname, why);
	return ret;
}

/*
 * Attach through the dispatcher and pin the copy.  0, -errno, or 1 with
 * @why: the dispatcher cannot be used here, the own link may.
 */
static int kba_disp_try(struct kba *a, struct kb_xdp_attachment *out,
			char *why, size_t n)
{
	int ifindex = a->req->ifindex, ret;
	struct xdp_program *xp;
	__u32 mode = 0;

	ret = kba_disp_join(a, &xp, &mode, why, n);
	if (ret)
		goto out;
	kba_disp_status(ifindex, xdp_program__id(xp), out);
	if (out->via != KB_XDP_VIA_DISPATCHER) {
		/* libxdp's own fallback: a plain attach of the copy */
		xdp_program__detach(xp, ifindex, kba_xdp_mode(mode), 0);
		snprintf(why, n, "libxdp attached it without its dispatcher");
		ret = 1;
		goto out;
	}
	ret = bpf_obj_pin(xdp_program__fd(xp), a->req->pin_path);
	if (ret)
		kba_disp_leave(ifindex, xdp_program__fd(xp));
out:
	if (ret)
		memset(out, 0, sizeof(*out));
	xdp_program__close(xp);
	return ret;
}

static int kba_req_ok(const struct kb_xdp_attach_req *r)
{
	return r && r->ifindex > 0 && r->prog_fd >= 0 &&
	       (r->pin_path || !r->ext_obj) &&
	       r->mode <= KBLOOM_XDP_MODE_GENERIC &&
	       (!r->ext_obj || r->prog_name) &&
	       !(r->flags & ~KB_XDP_ATTACH_FLAGS) &&
	       !(r->chain_actions & ~((2U << XDP_REDIRECT) - 1));
}

int kb_xdp_attach(const struct kb_xdp_attach_req *req,
		  struct kb_xdp_attachment *out, kbloom_xdp_log_fn log,
		  void *log_ctx)
{
	struct kb_xdp_attachment tmp;
	char why[160] = "";
	struct kba a;
	bool disp;
	int ret;

	if (!kba_req_ok(req))
		return -EINVAL;
	disp = req->ext_obj && !(req->flags & KB_XDP_ATTACH_OWN_LINK);
	if (req->pin_path && !access(req->pin_path, F_OK))
		return -EEXIST;
	out = out ?: &tmp;
	memset(out, 0, sizeof(*out));
	kba_begin(&a, req, req->ifindex, log, log_ctx);
	ret = kba_iface_probe(&a, req->ifindex);
	if (ret)
		goto out;
	ret = disp ? kba_disp_try(&a, out, why, sizeof(why)) : 1;
	if (ret == 1 && disp && a.mp) {
		kba_log(&a, "%s: another XDP program is attached: a libxdp dispatcher, which kbloom cannot join (%s)",
			a.ifname, why);
		ret = -EBUSY;
	} else if (ret == 1) {
		if (disp && !(req->flags & KB_XDP_ATTACH_QUIET))
			kba_log(&a, "%s: libxdp dispatcher unavailable (%s), attaching kbloom's own XDP link",
				a.ifname, why);
		ret = kba_link_attach(&a, out);
		if (ret >= 0)
			snprintf(out->why, sizeof(out->why), "%s", why);
	}
out:
	kba_end(&a);
	return ret;
}

/* ---- detach, replace, status ---------------------------------------------- */

int kb_xdp_detach(int ifindex, const char *pin_path, kbloom_xdp_log_fn log,
		  void *log_ctx)
{
	struct kba a;
	int fd, ret;

	if (ifindex <= 0 || !pin_path)
		return -EINVAL;
	fd = bpf_obj_get(pin_path);
	if (fd < 0)
		return fd;
	kba_begin(&a, NULL, ifindex, log, log_ctx);
	if (kba_is_link(fd)) {
		ret = bpf_link_detach(fd);
		if (ret == -ENOLINK)	/* the interface is gone */
			ret = 0;
	} else {
		ret = kba_disp_leave(ifindex, fd);
	}
	if (ret)
		kba_log(&a, "%s: cannot detach: %s", a.ifname, strerror(-ret));
	kba_end(&a);
	close(fd);
	if (!ret && unlink(pin_path))
		ret = -errno;
	return ret;
}

/* A new copy joins the dispatcher, then the old one @old_fd leaves. */
static int kba_disp_replace(struct kba *a, int old_fd, const char *pin_path)
{
	int ifindex = a->req->ifindex, ret;
	char tmp[PATH_MAX], why[160];
	struct xdp_program *xp = NULL;
	__u32 mode;

	/* held by a second pin until it takes the first (bpffs: no dots) */
	if (snprintf(tmp, sizeof(tmp), "%s-new", pin_path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	ret = kba_iface_probe(a, ifindex);
	if (!ret && !a->mp)
		ret = -ENOENT;	/* the dispatcher is gone */
	ret = ret ?: kba_disp_join(a, &xp, &mode, why, sizeof(why));
	if (ret == 1) {
		kba_log(a, "%s: %s", a->ifname, why);
		ret = -EOPNOTSUPP;
	}
	if (ret)
		goto out;
	ret = bpf_obj_pin(xdp_program__fd(xp), tmp);
	ret = ret ?: kba_disp_leave(ifindex, old_fd);
	if (!ret && unlink(pin_path))
		ret = -errno;
	ret = ret ?: bpf_obj_pin(xdp_program__fd(xp), pin_path);
	unlink(tmp);
	if (ret) {
		kba_log(a, "%s: cannot replace: %s", a->ifname, strerror(-ret));
		kba_disp_leave(ifindex, xdp_program__fd(xp));
	}
out:
	xdp_program__close(xp);
	return ret;
}

int kb_xdp_replace(const struct kb_xdp_attach_req *req, int old_prog_fd,
		   kbloom_xdp_log_fn log, void *log_ctx)
{
	LIBBPF_OPTS(bpf_link_update_opts, o, .flags = BPF_F_REPLACE,
		    .old_prog_fd = old_prog_fd);
	struct kba a;
	int fd, ret;

	if (!kba_req_ok(req) || !req->pin_path)
		return -EINVAL;
	fd = bpf_obj_get(req->pin_path);
	if (fd < 0)
		return fd;
	kba_begin(&a, req, req->ifindex, log, log_ctx);
	if (kba_is_link(fd))
		ret = bpf_link_update(fd, req->prog_fd, &o);
	else if (req->ext_obj)
		ret = kba_disp_replace(&a, fd, req->pin_path);
	else
		ret = -EINVAL;	/* a dispatcher component needs the EXT copy */
	kba_end(&a);
	close(fd);
	return ret;
}

/* A link's attachment: its ids, and the mode its interface runs it in. */
static int kba_link_status(int fd, struct kb_xdp_attachment *out)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);
	int ret;

	ret = bpf_obj_get_info_by_fd(fd, &info, &len);
	if (ret)
		return ret;
	out->link_id = info.id;
	out->prog_id = info.prog_id;
	if (!info.xdp.ifindex)
		return 0;	/* defunct: the interface was deleted */
	out->via = KB_XDP_VIA_LINK;
	if (bpf_xdp_query(info.xdp.ifindex, 0, &q))
		return 0;
	if (q.drv_prog_id == info.prog_id)
		out->mode = KBLOOM_XDP_MODE_NATIVE;
	else if (q.skb_prog_id == info.prog_id)
		out->mode = KBLOOM_XDP_MODE_GENERIC;
	return 0;
}

int kb_xdp_attach_status(int ifindex, const char *pin_path,
			 struct kb_xdp_attachment *out)
{
	int fd, ret = 0;

	if (ifindex <= 0 || !pin_path || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	fd = bpf_obj_get(pin_path);
	if (fd < 0)
		return fd;
	if (kba_is_link(fd))
		ret = kba_link_status(fd, out);
	else
		kba_disp_status(ifindex, kba_prog_id(fd), out);
	close(fd);
	return ret;
}
