// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP loader, part II: instances of the ipbf path (LIPSIN and
 * MSBF forwarding, bpf/kbloom_ipbf.bpf.c) and of the mcbf path
 * (Multi-Class Bloom filters, bpf/kbloom_mcbf.bpf.c); see
 * libkbloom_xdp_net.h.
 *
 * The two paths share the instance code (load, pin, open, attach,
 * destroy, port indexes, counters) and differ in their port records:
 * ipbf keeps a port's link IDs in ipbf_port, mcbf a port's filter and
 * class table in mcbf_port plus its blocks map in mcbf_filters (two slots
 * per port: a new filter is filled in the idle slot and published with
 * one update of the port's element, then the old slot is emptied after
 * an RCU grace period, as the mcast path does).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "libkbloom_xdp_net.h"
#include "uapi/kbloom_xdp_maps.h"
#include "uapi/kbloom_net_maps.h"
#include "bpf/kbloom_ipbf.skel.h"
#include "bpf/kbloom_mcbf.skel.h"
#include "pin.h"

#define NET_DEF_PORTS		64U
#define NET_DEF_MEMBERS		65536U
#define NET_MAX_PORTS		4096U

/* The maps of an instance, by role. */
enum {
	NM_PORT,	/* ifindex -> port record */
	NM_PORTS,	/* devmap */
	NM_STATS,
	NM_CONFIG,
	NM_FILTERS,	/* mcbf */
	NM_MEMBERS,	/* mcbf */
	NM_COUNT,
};

struct net_kind_desc {
	const char *name;
	const char *maps[NM_COUNT];
	const char *progs[3];
	size_t port_size;
	size_t stats_size;
};

static const struct net_kind_desc net_kinds[] = {
	[KBLOOM_NET_IPBF] = {
		.name = "ipbf",
		.maps = { "ipbf_port", "ipbf_ports", "ipbf_stats",
			  "ipbf_config", NULL, NULL },
		.progs = { "kbloom_ipbf_ingress", "kbloom_ipbf_egress",
			   "kbloom_ipbf_check" },
		.port_size = sizeof(struct kbloom_ipbf_port),
		.stats_size = sizeof(struct kbloom_ipbf_stats),
	},
	[KBLOOM_NET_MCBF] = {
		.name = "mcbf",
		.maps = { "mcbf_port", "mcbf_ports", "mcbf_stats",
			  "mcbf_config", "mcbf_filters", "mcbf_members" },
		.progs = { "kbloom_mcbf_ingress", "kbloom_mcbf_egress",
			   "kbloom_mcbf_check" },
		.port_size = sizeof(struct kbloom_mcbf_port),
		.stats_size = sizeof(struct kbloom_mcbf_stats),
	},
};

static const char *const net_prog_pins[3] = {
	"prog_ingress", "prog_egress", "prog_check",
};

struct kbloom_net {
	enum kbloom_net_kind kind;
	char name[KBLOOM_XDP_NAME_MAX];
	char root[PATH_MAX];
	char dir[PATH_MAX];
	int dir_fd;
	int locked;
	int netns_fd;		/* -1: the caller's */
	kbloom_xdp_log_fn log;
	void *log_ctx;
	int map_fd[NM_COUNT];
	int prog_fd[3];
	__u32 max_ports;
	/* mcbf: BTF of struct kbloom_block for new blocks maps */
	int btf_fd;
	__u32 btf_key_id;
	__u32 btf_block_id;
};

/* ---- logging, locking, namespaces ---------------------------------------- */

static void net_log(const struct kbloom_net *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void net_log(const struct kbloom_net *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kbp_vlog(n ? n->log : NULL, n ? n->log_ctx : NULL, fmt, ap);
	va_end(ap);
}

static int net_lock(struct kbloom_net *n)
{
	if (flock(n->dir_fd, LOCK_EX))
		return -errno;
	n->locked = 1;
	return 0;
}

static void net_unlock(struct kbloom_net *n)
{
	n->locked = 0;
	flock(n->dir_fd, LOCK_UN);
}

/* Does @ifindex exist in the instance's namespace? */
static int net_ifindex_ok(const struct kbloom_net *n, int ifindex)
{
	char ifname[IF_NAMESIZE];
	int ns, ret;

	if (ifindex <= 0)
		return -EINVAL;
	ret = kbp_ns_enter(n->netns_fd, &ns);
	if (ret)
		return ret;
	ret = if_indextoname(ifindex, ifname) ? 0 : -ENODEV;
	kbp_ns_leave(ns);
	if (ret)
		net_log(n, "%s: no interface with ifindex %d", n->name, ifindex);
	return ret;
}

/* ---- handles ------------------------------------------------------------- */

static struct kbloom_net *net_alloc(const char *name,
				    const struct kbloom_net_opts *o)
{
	const char *root = o && o->pin_root ? o->pin_root :
			   KBLOOM_XDP_PIN_ROOT;
	struct kbloom_net *n = calloc(1, sizeof(*n));
	int i;

	if (!n)
		return NULL;
	n->dir_fd = -1;
	n->netns_fd = -1;
	n->btf_fd = -1;
	for (i = 0; i < NM_COUNT; i++)
		n->map_fd[i] = -1;
	for (i = 0; i < 3; i++)
		n->prog_fd[i] = -1;
	if (o) {
		n->log = o->log;
		n->log_ctx = o->log_ctx;
	}
	snprintf(n->name, sizeof(n->name), "%s", name);
	snprintf(n->root, sizeof(n->root), "%s", root);
	if (snprintf(n->dir, sizeof(n->dir), "%s/%s", root, name) >=
	    (int)sizeof(n->dir)) {
		free(n);
		return NULL;
	}
	return n;
}

void kbloom_net_close(struct kbloom_net *n)
{
	int i;

	if (!n)
		return;
	for (i = 0; i < NM_COUNT; i++)
		kbp_close_fd(&n->map_fd[i]);
	for (i = 0; i < 3; i++)
		kbp_close_fd(&n->prog_fd[i]);
	kbp_close_fd(&n->btf_fd);
	kbp_close_fd(&n->netns_fd);
	kbp_close_fd(&n->dir_fd);
	free(n);
}

enum kbloom_net_kind kbloom_net_kind(const struct kbloom_net *n)
{
	return n ? n->kind : 0;
}

const char *kbloom_net_dir(const struct kbloom_net *n)
{
	return n ? n->dir : NULL;
}

int kbloom_net_prog_fd(const struct kbloom_net *n, enum kbloom_net_prog p)
{
	if (!n || p > KBLOOM_NET_PROG_CHECK)
		return -EINVAL;
	return n->prog_fd[p];
}

static int net_open_netns(struct kbloom_net *n, const char *ns)
{
	char p[PATH_MAX];
	int fd;

	if (!ns)
		return 0;
	fd = kbp_netns_open(ns, p);
	if (fd < 0) {
		net_log(n, "netns %s: %s", p, strerror(-fd));
		return fd;
	}
	n->netns_fd = fd;
	return 0;
}

/* Mount bpffs on /sys/fs/bpf when the pin root is there and it is not. */
static int net_bpffs_ensure(const struct kbloom_net *n)
{
	int ret = kbp_bpffs_ensure(n->root);

	if (ret < 0)
		net_log(n, "cannot mount bpffs on %s: %s", KBP_BPFFS,
			strerror(-ret));
	else if (ret)
		net_log(n, "mounted bpffs on %s", KBP_BPFFS);
	return ret < 0 ? ret : 0;
}

static int net_open_pins(struct kbloom_net *n)
{
	const struct net_kind_desc *d;
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	char p[PATH_MAX];
	int i, ret;

	for (i = KBLOOM_NET_IPBF; i <= KBLOOM_NET_MCBF; i++) {
		if (kbp_path(n->dir, p, "%s", net_kinds[i].maps[NM_CONFIG]))
			return -ENAMETOOLONG;
		if (!access(p, F_OK)) {
			n->kind = i;
			break;
		}
	}
	if (!n->kind)
		return -ENOENT;
	d = &net_kinds[n->kind];
	for (i = 0, ret = 0; !ret && i < NM_COUNT; i++)
		ret = kbp_get(n->dir, d->maps[i], &n->map_fd[i]);
	for (i = 0; !ret && i < 3; i++)
		ret = kbp_get(n->dir, net_prog_pins[i], &n->prog_fd[i]);
	if (ret)
		return ret;
	ret = kbp_err(bpf_obj_get_info_by_fd(n->map_fd[NM_PORT], &info, &len));
	if (ret)
		return ret;
	n->max_ports = info.max_entries;
	if (n->kind == KBLOOM_NET_MCBF)
		kbp_open_btf(info.btf_id, &n->btf_fd, &n->btf_key_id,
			     &n->btf_block_id);
	return 0;
}

int kbloom_net_open(const char *name, const struct kbloom_net_opts *opts,
		    struct kbloom_net **np)
{
	struct kbloom_net *n;
	int ret;

	if (!np || !kbp_name_ok(name))
		return -EINVAL;
	n = net_alloc(name, opts);
	if (!n)
		return -ENOMEM;
	ret = net_bpffs_ensure(n);
	if (ret)
		goto err;
	n->dir_fd = open(n->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (n->dir_fd < 0) {
		ret = -errno;
		goto err;
	}
	ret = net_open_netns(n, opts ? opts->netns : NULL);
	ret = ret ?: net_lock(n);
	if (ret)
		goto err;
	ret = net_open_pins(n);
	net_unlock(n);
	if (ret)
		goto err;
	*np = n;
	return 0;
err:
	kbloom_net_close(n);
	return ret;
}

/* ---- loading ------------------------------------------------------------- */

struct net_skel {
	enum kbloom_net_kind kind;
	struct kbloom_ipbf *ipbf;
	struct kbloom_mcbf *mcbf;
	struct bpf_object *obj;
};

static int net_skel_open(struct net_skel *s, enum kbloom_net_kind kind)
{
	s->kind = kind;
	if (kind == KBLOOM_NET_IPBF) {
		s->ipbf = kbloom_ipbf__open();
		s->obj = s->ipbf ? s->ipbf->obj : NULL;
	} else {
		s->mcbf = kbloom_mcbf__open();
		s->obj = s->mcbf ? s->mcbf->obj : NULL;
	}
	return s->obj ? 0 : (-errno ?: -ENOMEM);
}

static void net_skel_close(struct net_skel *s)
{
	kbloom_ipbf__destroy(s->ipbf);
	kbloom_mcbf__destroy(s->mcbf);
	memset(s, 0, sizeof(*s));
}

static int net_pin_obj(struct kbloom_net *n, struct bpf_object *obj)
{
	const struct net_kind_desc *d = &net_kinds[n->kind];
	int i, ret;

	ret = kbp_pin_maps(obj, n->dir);
	for (i = 0; !ret && i < 3; i++)
		ret = kbp_pin_prog(obj, n->dir, d->progs[i], net_prog_pins[i]);
	return ret;
}

static int net_load_new(struct kbloom_net *n, const struct kbloom_net_opts *o)
{
	const struct net_kind_desc *d = &net_kinds[n->kind];
	__u32 members = o && o->max_members ? o->max_members : NET_DEF_MEMBERS;
	struct net_skel s = {};
	int ret;

	ret = net_skel_open(&s, n->kind);
	if (ret)
		return ret;
	ret = kbp_set_max(s.obj, d->maps[NM_PORT], n->max_ports);
	ret = ret ?: kbp_set_max(s.obj, d->maps[NM_PORTS], n->max_ports);
	ret = ret ?: kbp_set_max(s.obj, d->maps[NM_STATS], n->max_ports);
	ret = ret ?: kbp_set_max(s.obj, d->maps[NM_FILTERS],
				 n->max_ports * KBLOOM_SLOTS_PER_FILTER);
	ret = ret ?: kbp_set_max(s.obj, d->maps[NM_MEMBERS], members);
	if (!ret) {
		ret = bpf_object__load(s.obj);
		if (ret)
			net_log(n, "%s: loading the %s programs failed: %s",
				n->name, d->name, strerror(-ret));
	}
	ret = ret ?: net_pin_obj(n, s.obj);
	net_skel_close(&s);
	return ret;
}

static int net_init_config(struct kbloom_net *n)
{
	struct kbloom_ipbf_cfg icfg = {
		.fill_limit = KB_IPBF_FILL_DEFAULT,
		.d = KB_IPBF_D_DEFAULT,
		.k = KB_IPBF_K_DEFAULT,
	};
	struct kbloom_mcbf_cfg mcfg = { .flags = KBLOOM_MCBF_F_AUDIT };
	__u32 zero = 0;

	if (n->kind == KBLOOM_NET_IPBF)
		return kbp_err(bpf_map_update_elem(n->map_fd[NM_CONFIG], &zero,
						   &icfg, 0));
	return kbp_err(bpf_map_update_elem(n->map_fd[NM_CONFIG], &zero, &mcfg,
					   0));
}

int kbloom_net_create(const char *name, enum kbloom_net_kind kind,
		      const struct kbloom_net_opts *opts,
		      struct kbloom_net **np)
{
	struct kbloom_net *n;
	int ret;

	if (!np || !kbp_name_ok(name) ||
	    (kind != KBLOOM_NET_IPBF && kind != KBLOOM_NET_MCBF))
		return -EINVAL;
	if (opts && opts->max_ports > NET_MAX_PORTS)
		return -EINVAL;
	n = net_alloc(name, opts);
	if (!n)
		return -ENOMEM;
	n->kind = kind;
	n->max_ports = opts && opts->max_ports ? opts->max_ports :
		       NET_DEF_PORTS;
	ret = net_bpffs_ensure(n);
	ret = ret ?: kbp_mkdir_p(n->root);
	ret = ret ?: net_open_netns(n, opts ? opts->netns : NULL);
	if (ret)
		goto err_free;
	if (mkdir(n->dir, 0700)) {
		ret = -errno;
		goto err_free;
	}
	n->dir_fd = open(n->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (n->dir_fd < 0) {
		ret = -errno;
		goto err_unpin;
	}
	ret = net_lock(n);
	if (ret)
		goto err_unpin;
	ret = net_load_new(n, opts);
	ret = ret ?: net_open_pins(n);
	ret = ret ?: net_init_config(n);
	net_unlock(n);
	if (ret)
		goto err_unpin;
	*np = n;
	return 0;
err_unpin:
	kbloom_net_close(n);
	kbloom_xdp_unpin(opts && opts->pin_root ? opts->pin_root :
			 KBLOOM_XDP_PIN_ROOT, name);
	return ret;
err_free:
	kbloom_net_close(n);
	return ret;
}

int kbloom_net_destroy(struct kbloom_net *n)
{
	char root[PATH_MAX], name[KBLOOM_XDP_NAME_MAX];
	__u32 *keys, cnt, i;

	if (!n)
		return -EINVAL;
	snprintf(root, sizeof(root), "%s", n->root);
	snprintf(name, sizeof(name), "%s", n->name);
	net_lock(n);
	/* the devmap entries hold the egress program: drop them first */
	if (!kbp_map_keys(n->map_fd[NM_PORTS], &keys, &cnt)) {
		for (i = 0; i < cnt; i++)
			bpf_map_delete_elem(n->map_fd[NM_PORTS], &keys[i]);
		free(keys);
	}
	kbloom_net_close(n);	/* releases the lock */
	return kbloom_xdp_unpin(root, name);
}

/* ---- links --------------------------------------------------------------- */

static int net_link_create(const struct kbloom_net *n, int prog_fd,
			   int ifindex, enum kbloom_xdp_mode mode,
			   enum kbloom_xdp_mode *got)
{
	int fd = -EOPNOTSUPP;

	if (mode != KBLOOM_XDP_MODE_GENERIC) {
		LIBBPF_OPTS(bpf_link_create_opts, o,
			    .flags = XDP_FLAGS_DRV_MODE);

		fd = kbp_err(bpf_link_create(prog_fd, ifindex, BPF_XDP, &o));
		if (fd >= 0) {
			*got = KBLOOM_XDP_MODE_NATIVE;
			return fd;
		}
		if (mode == KBLOOM_XDP_MODE_NATIVE ||
		    (fd != -EOPNOTSUPP && fd != -EINVAL && fd != -524))
			goto fail;
		net_log(n, "%s: ifindex %d: native XDP unavailable (%s), attaching in generic mode",
			n->name, ifindex, strerror(-fd));
	}
	{
		LIBBPF_OPTS(bpf_link_create_opts, o,
			    .flags = XDP_FLAGS_SKB_MODE);

		fd = kbp_err(bpf_link_create(prog_fd, ifindex, BPF_XDP, &o));
	}
	if (fd >= 0) {
		*got = KBLOOM_XDP_MODE_GENERIC;
		return fd;
	}
fail:
	net_log(n, "%s: ifindex %d: cannot attach XDP: %s", n->name, ifindex,
		fd == -EBUSY || fd == -EEXIST ?
		"another XDP program is attached" : strerror(-fd));
	return fd;
}

static int net_port_exists(struct kbloom_net *n, int ifindex)
{
	__u8 buf[sizeof(struct kbloom_ipbf_port) +
		 sizeof(struct kbloom_mcbf_port)];
	__u32 key = ifindex;

	return bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, buf) ? 0 : 1;
}

static int net_attach_locked(struct kbloom_net *n, int ifindex,
			     enum kbloom_xdp_mode mode,
			     enum kbloom_xdp_mode *got)
{
	enum kbloom_xdp_mode m = 0;
	char path[PATH_MAX];
	int ret, fd, ns;

	ret = kbp_path(n->dir, path, "link_%d", ifindex);
	if (ret)
		return ret;
	if (!access(path, F_OK))
		return -EEXIST;
	if (!net_port_exists(n, ifindex)) {
		net_log(n, "%s: ifindex %d is not a port", n->name, ifindex);
		return -ENOENT;
	}
	ret = kbp_ns_enter(n->netns_fd, &ns);
	if (ret)
		return ret;
	fd = net_link_create(n, n->prog_fd[KBLOOM_NET_PROG_INGRESS], ifindex,
			     mode, &m);
	kbp_ns_leave(ns);
	if (fd < 0)
		return fd;
	ret = kbp_err(bpf_obj_pin(fd, path));
	if (ret)
		bpf_link_detach(fd);
	close(fd);
	if (!ret && got)
		*got = m;
	return ret;
}

int kbloom_net_attach(struct kbloom_net *n, int ifindex,
		      enum kbloom_xdp_mode mode, enum kbloom_xdp_mode *got)
{
	int ret;

	if (!n || ifindex <= 0 || mode > KBLOOM_XDP_MODE_GENERIC)
		return -EINVAL;
	ret = net_lock(n);
	if (ret)
		return ret;
	ret = net_attach_locked(n, ifindex, mode, got);
	net_unlock(n);
	return ret;
}

static int net_detach_locked(struct kbloom_net *n, int ifindex)
{
	char path[PATH_MAX];
	int ret, fd;

	ret = kbp_path(n->dir, path, "link_%d", ifindex);
	if (ret)
		return ret;
	fd = bpf_obj_get(path);
	if (fd < 0)
		return kbp_err(fd);
	ret = kbp_err(bpf_link_detach(fd));
	close(fd);
	if (ret == -ENOLINK)	/* the interface is gone */
		ret = 0;
	if (!ret && unlink(path))
		ret = -errno;
	return ret;
}

int kbloom_net_detach(struct kbloom_net *n, int ifindex)
{
	int ret;

	if (!n || ifindex <= 0)
		return -EINVAL;
	ret = net_lock(n);
	if (ret)
		return ret;
	ret = net_detach_locked(n, ifindex);
	net_unlock(n);
	return ret;
}

/* ---- ports and counters (both paths) ------------------------------------- */

static __u32 net_rec_index(const struct kbloom_net *n, const void *rec)
{
	if (n->kind == KBLOOM_NET_IPBF)
		return ((const struct kbloom_ipbf_port *)rec)->index;
	return ((const struct kbloom_mcbf_port *)rec)->p.index;
}

/* The lowest counters index no port uses. */
static int net_free_index(struct kbloom_net *n, __u32 *index)
{
	__u8 rec[sizeof(struct kbloom_ipbf_port) +
		 sizeof(struct kbloom_mcbf_port)];
	__u32 *keys, cnt, i, idx;
	__u8 *used;
	int ret;

	ret = kbp_map_keys(n->map_fd[NM_PORT], &keys, &cnt);
	if (ret)
		return ret;
	used = calloc(n->max_ports, 1);
	if (!used) {
		free(keys);
		return -ENOMEM;
	}
	for (i = 0; i < cnt; i++) {
		if (bpf_map_lookup_elem(n->map_fd[NM_PORT], &keys[i], rec))
			continue;
		idx = net_rec_index(n, rec);
		if (idx < n->max_ports)
			used[idx] = 1;
	}
	ret = -ENOSPC;
	for (i = 0; i < n->max_ports; i++) {
		if (!used[i]) {
			*index = i;
			ret = 0;
			break;
		}
	}
	free(used);
	free(keys);
	if (ret)
		net_log(n, "%s: no room for another port (max %u)", n->name,
			n->max_ports);
	return ret;
}

static int net_zero_stats(struct kbloom_net *n, __u32 index)
{
	int ncpu = libbpf_num_possible_cpus();
	void *zero;
	int ret;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	zero = calloc(ncpu, net_kinds[n->kind].stats_size);
	if (!zero)
		return -ENOMEM;
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_STATS], &index, zero,
					  0));
	free(zero);
	return ret;
}

/* The counters of the port's index, summed over the CPUs into @out. */
static int net_stats(struct kbloom_net *n, int ifindex, __u64 *out)
{
	__u8 rec[sizeof(struct kbloom_ipbf_port) +
		 sizeof(struct kbloom_mcbf_port)];
	size_t nf = net_kinds[n->kind].stats_size / sizeof(__u64), c, f;
	int ncpu = libbpf_num_possible_cpus();
	__u32 key = ifindex, index;
	__u64 *v;
	int ret;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	ret = kbp_err(bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, rec));
	if (ret)
		return ret;
	index = net_rec_index(n, rec);
	v = calloc(ncpu, nf * sizeof(__u64));
	if (!v)
		return -ENOMEM;
	ret = kbp_err(bpf_map_lookup_elem(n->map_fd[NM_STATS], &index, v));
	if (!ret) {
		memset(out, 0, nf * sizeof(__u64));
		for (c = 0; c < (size_t)ncpu; c++)
			for (f = 0; f < nf; f++)
				out[f] += v[c * nf + f];
	}
	free(v);
	return ret;
}

/* Add @ifindex to the devmap with the egress program. */
static int net_devmap_add(struct kbloom_net *n, int ifindex)
{
	struct bpf_devmap_val v = {};
	__u32 key = ifindex;
	int ret, ns;

	v.ifindex = ifindex;
	v.bpf_prog.fd = n->prog_fd[KBLOOM_NET_PROG_EGRESS];
	ret = kbp_ns_enter(n->netns_fd, &ns);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_PORTS], &key, &v, 0));
	kbp_ns_leave(ns);
	if (ret)
		net_log(n, "%s: cannot add ifindex %d to the devmap: %s",
			n->name, ifindex, strerror(-ret));
	return ret;
}

/* ---- ipbf ---------------------------------------------------------------- */

static int ipbf_check(const struct kbloom_net *n)
{
	return n && n->kind == KBLOOM_NET_IPBF ? 0 : -EINVAL;
}

static int ipbf_cfg_ok(const struct kbloom_net *n,
		       const struct kbloom_ipbf_cfg *c)
{
	if (c->fill_limit < 1 || c->fill_limit > KB_IPBF_ZF_BITS) {
		net_log(n, "fill limit %u: allowed 1..%u", c->fill_limit,
			KB_IPBF_ZF_BITS);
		return -EINVAL;
	}
	if (c->d < 1 || c->d > KB_IPBF_D_MAX) {
		net_log(n, "d %u: allowed 1..%u", c->d, KB_IPBF_D_MAX);
		return -EINVAL;
	}
	if (c->k < KB_IPBF_K_MIN || c->k > KB_IPBF_K_MAX) {
		net_log(n, "k %u: allowed %u..%u", c->k, KB_IPBF_K_MIN,
			KB_IPBF_K_MAX);
		return -EINVAL;
	}
	if (c->flags) {
		net_log(n, "flags %#x: allowed 0", c->flags);
		return -EINVAL;
	}
	return 0;
}

int kbloom_ipbf_set_config(struct kbloom_net *n,
			   const struct kbloom_ipbf_cfg *cfg)
{
	__u32 zero = 0;
	int ret;

	ret = ipbf_check(n);
	if (ret || !cfg)
		return -EINVAL;
	ret = ipbf_cfg_ok(n, cfg);
	ret = ret ?: net_lock(n);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_CONFIG], &zero, cfg,
					  0));
	net_unlock(n);
	return ret;
}

int kbloom_ipbf_get_config(struct kbloom_net *n, struct kbloom_ipbf_cfg *cfg)
{
	__u32 zero = 0;

	if (ipbf_check(n) || !cfg)
		return -EINVAL;
	return kbp_err(bpf_map_lookup_elem(n->map_fd[NM_CONFIG], &zero, cfg));
}

int kbloom_ipbf_port_get(struct kbloom_net *n, int ifindex,
			 struct kbloom_ipbf_port *rec)
{
	__u32 key = ifindex;

	if (ipbf_check(n) || !rec || ifindex <= 0)
		return -EINVAL;
	return kbp_err(bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, rec));
}

int kbloom_ipbf_port_set(struct kbloom_net *n, int ifindex,
			 const struct kbloom_ipbf_port *rec)
{
	struct kbloom_ipbf_port cur, r;
	__u32 key = ifindex;
	int ret, fresh;

	if (ipbf_check(n) || !rec || ifindex <= 0)
		return -EINVAL;
	if (rec->flags & ~KBLOOM_IPBF_PORT_F_ALL) {
		net_log(n, "%s: port flags %#x: allowed %#lx", n->name,
			rec->flags, KBLOOM_IPBF_PORT_F_ALL);
		return -EINVAL;
	}
	ret = net_ifindex_ok(n, ifindex);
	ret = ret ?: net_lock(n);
	if (ret)
		return ret;
	r = *rec;
	fresh = !!bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, &cur);
	if (fresh) {
		ret = net_free_index(n, &r.index);
		ret = ret ?: net_zero_stats(n, r.index);
	} else {
		r.index = cur.index;
	}
	if (ret)
		goto out;
	/* a port that stops forwarding leaves the devmap first */
	if (r.flags & KBLOOM_IPBF_PORT_LOCAL)
		bpf_map_delete_elem(n->map_fd[NM_PORTS], &key);
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_PORT], &key, &r, 0));
	if (ret)
		goto out;
	if (!(r.flags & KBLOOM_IPBF_PORT_LOCAL)) {
		ret = net_devmap_add(n, ifindex);
		if (ret && fresh)
			bpf_map_delete_elem(n->map_fd[NM_PORT], &key);
	}
out:
	net_unlock(n);
	return ret;
}

int kbloom_ipbf_port_del(struct kbloom_net *n, int ifindex)
{
	struct kbloom_ipbf_port cur;
	__u32 key = ifindex;
	int ret;

	if (ipbf_check(n) || ifindex <= 0)
		return -EINVAL;
	ret = net_lock(n);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, &cur));
	if (ret)
		goto out;
	ret = net_detach_locked(n, ifindex);
	if (ret == -ENOENT)
		ret = 0;
	if (ret)
		goto out;
	bpf_map_delete_elem(n->map_fd[NM_PORTS], &key);
	bpf_map_delete_elem(n->map_fd[NM_PORT], &key);
	net_zero_stats(n, cur.index);
out:
	net_unlock(n);
	return ret;
}

int kbloom_ipbf_stats(struct kbloom_net *n, int ifindex,
		      struct kbloom_ipbf_stats *st)
{
	if (ipbf_check(n) || !st || ifindex <= 0)
		return -EINVAL;
	return net_stats(n, ifindex, (__u64 *)st);
}

/* ---- ipbf: from the control plane ---------------------------------------- */

int kbloom_ipbf_port_from_lids(const struct kb_lids *l, __u32 port,
			       struct kbloom_ipbf_port *rec)
{
	const struct kb_port *p;
	__u32 t;

	if (!l || !rec || port >= l->topo->nports)
		return -EINVAL;
	p = &l->topo->ports[port];
	memset(rec, 0, sizeof(*rec));
	rec->node = p->node;
	rec->port = p->local;
	for (t = 0; t < l->d && t < KB_IPBF_D_MAX; t++) {
		rec->lid[t] = *kb_lid(l, t, port);
		rec->lhash[t] = kb_lhash(l, t, port);
	}
	return 0;
}

int kbloom_ipbf_local_from_lids(const struct kb_lids *l, __u32 host,
				struct kbloom_ipbf_port *rec)
{
	const struct kb_node *h;
	__u32 in;
	int ret;

	if (!l || !rec || host >= l->topo->nnodes)
		return -EINVAL;
	h = &l->topo->nodes[host];
	if (h->kind != KB_NODE_HOST || h->nports != 1)
		return -EINVAL;
	/* the access link toward the host: its IDs are its internal IDs */
	in = l->topo->ports[h->first_port].peer;
	ret = kbloom_ipbf_port_from_lids(l, in, rec);
	if (ret)
		return ret;
	rec->node = host;
	rec->port = 0;
	rec->flags = KBLOOM_IPBF_PORT_LOCAL;
	return 0;
}

int kbloom_ipbf_cfg_from_lids(const struct kb_lids *l, __u32 fill_limit,
			      struct kbloom_ipbf_cfg *cfg)
{
	if (!l || !cfg)
		return -EINVAL;
	if (!fill_limit)
		fill_limit = KB_IPBF_FILL_DEFAULT;
	if (fill_limit > KB_IPBF_ZF_BITS)
		return -ERANGE;
	memset(cfg, 0, sizeof(*cfg));
	cfg->fill_limit = fill_limit;
	cfg->d = l->d;
	cfg->k = l->k;
	cfg->seed = l->seed;
	return 0;
}

int kbloom_ipbf_node_setup(struct kbloom_net *n, const struct kb_lids *l,
			   __u32 node, const int *ifindex, __u32 fill_limit,
			   enum kbloom_xdp_mode mode)
{
	struct kbloom_ipbf_port rec;
	struct kbloom_ipbf_cfg cfg;
	const struct kb_node *nd;
	__u32 p;
	int ret;

	if (ipbf_check(n) || !l || !ifindex || node >= l->topo->nnodes)
		return -EINVAL;
	nd = &l->topo->nodes[node];
	ret = kbloom_ipbf_cfg_from_lids(l, fill_limit, &cfg);
	ret = ret ?: kbloom_ipbf_set_config(n, &cfg);
	for (p = 0; !ret && p < nd->nports; p++) {
		if (nd->kind == KB_NODE_HOST)
			ret = kbloom_ipbf_local_from_lids(l, node, &rec);
		else
			ret = kbloom_ipbf_port_from_lids(l, nd->first_port + p,
							 &rec);
		ret = ret ?: kbloom_ipbf_port_set(n, ifindex[p], &rec);
		ret = ret ?: kbloom_net_attach(n, ifindex[p], mode, NULL);
	}
	return ret;
}

int kbloom_ipbf_source_step(const struct kb_lids *l, __u32 port, void *buf,
			    size_t len, __u32 fill_limit)
{
	struct kb_ipbf_info *in;
	struct kb_ipbf_hdr *h = buf;
	__u8 *b = buf;
	__u32 tag, skip;
	int ret;

	if (!l || !buf || port >= l->topo->nports)
		return -EINVAL;
	if (fill_limit < 1 || fill_limit > KB_IPBF_ZF_BITS || len > INT_MAX)
		return -ERANGE;
	in = malloc(sizeof(*in));
	if (!in)
		return -ENOMEM;
	ret = kb_ipbf_parse(buf, len, in);
	if (ret)
		goto out;
	tag = in->hdr.tag;
	ret = -EBADMSG;
	if (tag >= l->d)
		goto out;
	if (!(in->hdr.flags & KB_IPBF_F_MSBF)) {
		ret = -ERANGE;
		if (kb_ipbf_zf_fill(&in->zf) > fill_limit)
			goto out;
		ret = -EHOSTUNREACH;
		if (!in->hdr.hop_limit)
			goto out;
		ret = -ENOENT;
		if (!kb_ipbf_zf_match(&in->zf, kb_lid(l, tag, port)))
			goto out;
		h->hop_limit--;
		ret = (int)len;
		goto out;
	}
	ret = -EHOSTUNREACH;
	if (!in->hdr.hop_limit || !in->nstages)
		goto out;
	ret = -ENOENT;
	if (!kb_ipbf_stage_match(b + in->stage_at[0], in->stage[0].bytes,
				 &in->stage[0], kb_lhash(l, tag, port)))
		goto out;
	skip = in->stage[0].bytes;
	memmove(b + KB_IPBF_HDR_LEN, b + KB_IPBF_HDR_LEN + skip,
		len - KB_IPBF_HDR_LEN - skip);
	h->hop_limit--;
	h->nstages--;
	ret = (int)(len - skip);
out:
	free(in);
	return ret;
}

/* ---- mcbf ---------------------------------------------------------------- */

static int mcbf_check(const struct kbloom_net *n)
{
	return n && n->kind == KBLOOM_NET_MCBF ? 0 : -EINVAL;
}

static int mcbf_spec_ok(const struct kbloom_net *n,
			const struct kbloom_mcbf_spec *s)
{
	__u32 c, used = 0;

	if (s->m < KBLOOM_BLOCK_BITS || s->m > KBLOOM_M_MAX ||
	    s->m % KBLOOM_BLOCK_BITS) {
		net_log(n, "m %llu: allowed a multiple of %u in %u..%llu",
			(unsigned long long)s->m, KBLOOM_BLOCK_BITS,
			KBLOOM_BLOCK_BITS, (unsigned long long)KBLOOM_M_MAX);
		return -ERANGE;
	}
	if (s->hash_id > KBLOOM_HASH_MAX || s->reserved) {
		net_log(n, "hash id %u: allowed 0..%u, reserved 0", s->hash_id,
			KBLOOM_HASH_MAX);
		return -EINVAL;
	}
	for (c = 0; c < KB_MCBF_CLASSES; c++) {
		if (s->classes.k[c] > KBLOOM_K_MAX) {
			net_log(n, "class %u: k %u, allowed 0..%u", c,
				s->classes.k[c], KBLOOM_K_MAX);
			return -ERANGE;
		}
		used += !!s->classes.k[c];
	}
	if (!used) {
		net_log(n, "a class table without a used class");
		return -EINVAL;
	}
	return 0;
}

static void mcbf_spec_params(const struct kbloom_mcbf_spec *s,
			     struct kbloom_params *p)
{
	__u32 c;

	memset(p, 0, sizeof(*p));
	p->type = KBLOOM_TYPE_BLOCKED;
	p->version = KBLOOM_XDP_LAYOUT_VERSION;
	p->hash_id = s->hash_id ? s->hash_id : KBLOOM_HASH_FAST;
	p->seed = s->seed;
	p->nblocks = (__u32)(s->m / KBLOOM_BLOCK_BITS);
	for (c = 0; c < KB_MCBF_CLASSES; c++)
		if (s->classes.k[c] > p->k)
			p->k = s->classes.k[c];
}

/* A new blocks map holding @words (@nblocks blocks). */
static int mcbf_blocks_new(struct kbloom_net *n, int ifindex, __u32 nblocks,
			   const __u64 *words)
{
	LIBBPF_OPTS(bpf_map_create_opts, o,
		    .map_flags = BPF_F_MMAPABLE | BPF_F_INNER_MAP);
	size_t bytes = (size_t)nblocks * sizeof(struct kbloom_block);
	char name[16];
	void *mem;
	int fd;

	if (n->btf_fd >= 0) {
		o.btf_fd = n->btf_fd;
		o.btf_key_type_id = n->btf_key_id;
		o.btf_value_type_id = n->btf_block_id;
	}
	snprintf(name, sizeof(name), "mcbf_%d", ifindex);
	fd = kbp_err(bpf_map_create(BPF_MAP_TYPE_ARRAY, name, sizeof(__u32),
				    sizeof(struct kbloom_block), nblocks, &o));
	if (fd < 0) {
		net_log(n, "%s: cannot create a filter of %u blocks: %s",
			n->name, nblocks, strerror(-fd));
		return fd;
	}
	mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED) {
		close(fd);
		return -errno;
	}
	memcpy(mem, words, bytes);
	munmap(mem, bytes);
	return fd;
}

static int mcbf_load_locked(struct kbloom_net *n, int ifindex,
			    const struct kbloom_mcbf_spec *spec,
			    const __u64 *words)
{
	struct kbloom_mcbf_port cur, r;
	__u32 key = ifindex, slot, old = 0, index;
	char leaf[32];
	int fd, ret, fresh;

	fresh = !!bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, &cur);
	if (fresh) {
		ret = net_free_index(n, &index);
		if (ret)
			return ret;
		slot = index * KBLOOM_SLOTS_PER_FILTER;
	} else {
		index = cur.p.index;
		old = cur.p.slot;
		slot = old ^ 1;
	}
	if (slot >= n->max_ports * KBLOOM_SLOTS_PER_FILTER)
		return -ENOSPC;
	memset(&r, 0, sizeof(r));
	mcbf_spec_params(spec, &r.p);
	r.cls = spec->classes;
	r.p.slot = slot;
	r.p.id = ifindex;
	r.p.index = index;
	r.p.gen = fresh ? 1 : cur.p.gen + 1;
	fd = mcbf_blocks_new(n, ifindex, r.p.nblocks, words);
	if (fd < 0)
		return fd;
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_FILTERS], &slot, &fd,
					  0));
	if (ret)
		goto out_fd;
	if (fresh) {
		ret = net_zero_stats(n, index);
		if (ret)
			goto out_slot;
	}
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_PORT], &key, &r, 0));
	if (ret)
		goto out_slot;
	snprintf(leaf, sizeof(leaf), "filter_%d", ifindex);
	if (kbp_repin(n->dir, fd, leaf))
		net_log(n, "%s: pinning %s failed", n->name, leaf);
	if (fresh) {
		ret = net_devmap_add(n, ifindex);
		if (ret) {
			bpf_map_delete_elem(n->map_fd[NM_PORT], &key);
			goto out_slot;
		}
	} else {
		/* no program holds the old parameters after a grace period */
		kbp_rcu_sync();
		bpf_map_delete_elem(n->map_fd[NM_FILTERS], &old);
	}
	close(fd);
	return 0;
out_slot:
	bpf_map_delete_elem(n->map_fd[NM_FILTERS], &slot);
out_fd:
	close(fd);
	return ret;
}

int kbloom_mcbf_port_load(struct kbloom_net *n, int ifindex,
			  const struct kbloom_mcbf_spec *spec,
			  const struct kb_mcbf *f)
{
	const struct kb_mcbf_classes *cls;
	const __u64 *words;
	__u64 nwords;
	int ret;

	if (mcbf_check(n) || !spec || !f || ifindex <= 0)
		return -EINVAL;
	ret = mcbf_spec_ok(n, spec);
	if (ret)
		return ret;
	words = kb_mcbf_words(f, &nwords);
	cls = kb_mcbf_class_table(f);
	if (!words || !cls || nwords * 64 != spec->m ||
	    memcmp(cls, &spec->classes, sizeof(*cls))) {
		net_log(n, "%s: the filter is not of the spec (m, classes)",
			n->name);
		return -EINVAL;
	}
	ret = net_ifindex_ok(n, ifindex);
	ret = ret ?: net_lock(n);
	if (ret)
		return ret;
	ret = mcbf_load_locked(n, ifindex, spec, words);
	net_unlock(n);
	return ret;
}

static int mcbf_key(struct kbloom_member_key *k, int ifindex,
		    const void *group, __u32 len)
{
	const __u8 *g = group;

	if (!g || (len != KBLOOM_ADDR4_LEN && len != KBLOOM_ADDR6_LEN))
		return -EINVAL;
	if (len == KBLOOM_ADDR4_LEN ? (g[0] & 0xf0) != 0xe0 : g[0] != 0xff)
		return -EINVAL;
	memset(k, 0, sizeof(*k));
	k->ifindex = ifindex;
	k->len = len;
	memcpy(k->addr, g, len);
	return 0;
}

/* The recorded memberships of port @ifindex, malloc()ed. */
static int mcbf_members_of(struct kbloom_net *n, int ifindex,
			   struct kbloom_member_key **out, __u32 *cnt)
{
	struct kbloom_member_key key, next, *v = NULL, *t;
	__u32 len = 0, cap = 0;
	int ret;

	for (ret = bpf_map_get_next_key(n->map_fd[NM_MEMBERS], NULL, &next);
	     !ret;
	     ret = bpf_map_get_next_key(n->map_fd[NM_MEMBERS], &key, &next)) {
		key = next;
		if (key.ifindex != (__u32)ifindex)
			continue;
		if (len == cap) {
			cap = cap ? 2 * cap : 64;
			t = realloc(v, cap * sizeof(*v));
			if (!t) {
				free(v);
				return -ENOMEM;
			}
			v = t;
		}
		v[len++] = key;
	}
	*out = v;
	*cnt = len;
	return 0;
}

/* Delete the recorded memberships of port @ifindex. */
static void mcbf_members_clear(struct kbloom_net *n, int ifindex)
{
	struct kbloom_member_key *v;
	__u32 cnt, i;

	if (mcbf_members_of(n, ifindex, &v, &cnt))
		return;
	for (i = 0; i < cnt; i++)
		bpf_map_delete_elem(n->map_fd[NM_MEMBERS], &v[i]);
	free(v);
}

/* A filter of @spec holding @ngroups groups (-EINVAL: one is not). */
static int mcbf_filter_of(struct kbloom_net *n,
			  const struct kbloom_mcbf_spec *spec,
			  const struct kbloom_addr_key *groups, __u32 ngroups,
			  struct kb_mcbf **out)
{
	struct kbloom_member_key mk;
	struct kb_mcbf *f = NULL;
	__u32 i;
	int ret;

	ret = kb_mcbf_new(KBLOOM_TYPE_BLOCKED, spec->m,
			  spec->hash_id ? spec->hash_id : KBLOOM_HASH_FAST,
			  spec->seed, &spec->classes, &f);
	if (ret)
		return ret;
	for (i = 0; i < ngroups; i++) {
		ret = mcbf_key(&mk, 1, groups[i].addr, groups[i].len);
		if (!ret)
			ret = groups[i].len == KBLOOM_ADDR4_LEN ?
			      kb_mcbf_add_v4(f, groups[i].addr) :
			      kb_mcbf_add_v6(f, groups[i].addr);
		if (ret) {
			char a[INET6_ADDRSTRLEN] = "?";

			inet_ntop(groups[i].len == KBLOOM_ADDR4_LEN ?
				  AF_INET : AF_INET6, groups[i].addr, a,
				  sizeof(a));
			net_log(n, "%s: group %s: not a multicast address or of an unused class",
				n->name, a);
			kb_mcbf_free(f);
			return -EINVAL;
		}
	}
	*out = f;
	return 0;
}

int kbloom_mcbf_port_build(struct kbloom_net *n, int ifindex,
			   const struct kbloom_mcbf_spec *spec,
			   const struct kbloom_addr_key *groups,
			   __u32 ngroups)
{
	struct kbloom_member_key mk;
	struct kb_mcbf *f = NULL;
	__u32 i, one = 1;
	int ret;

	if (mcbf_check(n) || !spec || (ngroups && !groups) || ifindex <= 0)
		return -EINVAL;
	ret = mcbf_spec_ok(n, spec);
	ret = ret ?: mcbf_filter_of(n, spec, groups, ngroups, &f);
	if (ret)
		return ret;
	ret = net_ifindex_ok(n, ifindex);
	ret = ret ?: net_lock(n);
	if (ret)
		goto out;
	ret = mcbf_load_locked(n, ifindex, spec, kb_mcbf_words(f, NULL));
	if (!ret) {
		mcbf_members_clear(n, ifindex);
		for (i = 0; !ret && i < ngroups; i++) {
			mcbf_key(&mk, ifindex, groups[i].addr, groups[i].len);
			ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_MEMBERS],
							  &mk, &one, 0));
		}
	}
	net_unlock(n);
out:
	kb_mcbf_free(f);
	return ret;
}

static int mcbf_group_find(const struct kbloom_addr_key *g, __u32 n,
			   const struct kbloom_addr_key *k)
{
	__u32 i;

	for (i = 0; i < n; i++)
		if (g[i].len == k->len && !memcmp(g[i].addr, k->addr, k->len))
			return (int)i;
	return -1;
}

/*
 * The recorded groups of @ifindex with @nupd joined (@join) or left, into
 * a malloc()ed @out: -EEXIST / -ENOENT for one joined already / not
 * joined, unless @exist.
 */
static int mcbf_groups_updated(struct kbloom_net *n, int ifindex,
			       const struct kbloom_addr_key *upd, __u32 nupd,
			       bool join, bool exist,
			       struct kbloom_addr_key **out, __u32 *nout)
{
	struct kbloom_member_key *v;
	struct kbloom_addr_key *g;
	__u32 cnt, i, len = 0;
	int ret, at;

	ret = mcbf_members_of(n, ifindex, &v, &cnt);
	if (ret)
		return ret;
	g = calloc((size_t)cnt + nupd + 1, sizeof(*g));
	if (!g) {
		free(v);
		return -ENOMEM;
	}
	for (i = 0; i < cnt; i++, len++) {
		g[len].len = v[i].len;
		memcpy(g[len].addr, v[i].addr, sizeof(g[len].addr));
	}
	free(v);
	for (i = 0; i < nupd; i++) {
		at = mcbf_group_find(g, len, &upd[i]);
		if (join && at < 0)
			g[len++] = upd[i];
		else if (!join && at >= 0)
			g[at] = g[--len];
		else if (!exist)
			ret = join ? -EEXIST : -ENOENT;
	}
	if (ret) {
		free(g);
		return ret;
	}
	*out = g;
	*nout = len;
	return 0;
}

/* Record @nupd groups of @ifindex as joined or left (after the load). */
static int mcbf_members_update(struct kbloom_net *n, int ifindex,
			       const struct kbloom_addr_key *upd, __u32 nupd,
			       bool join)
{
	struct kbloom_member_key mk;
	__u32 i, one = 1;
	int ret = 0;

	for (i = 0; !ret && i < nupd; i++) {
		mcbf_key(&mk, ifindex, upd[i].addr, upd[i].len);
		if (join)
			ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_MEMBERS],
							  &mk, &one, 0));
		else
			bpf_map_delete_elem(n->map_fd[NM_MEMBERS], &mk);
	}
	return ret;
}

int kbloom_mcbf_port_update(struct kbloom_net *n, int ifindex,
			    const struct kbloom_addr_key *groups,
			    __u32 ngroups, __u32 flags)
{
	bool join = !(flags & KBLOOM_MCBF_UPD_LEAVE);
	struct kbloom_addr_key *g = NULL;
	struct kbloom_mcbf_port cur;
	struct kbloom_mcbf_spec spec;
	struct kbloom_member_key mk;
	struct kb_mcbf *f = NULL;
	__u32 i, key = ifindex, cnt;
	int ret;

	if (mcbf_check(n) || (ngroups && !groups) || ifindex <= 0 ||
	    (flags & ~(KBLOOM_MCBF_UPD_LEAVE | KBLOOM_MCBF_UPD_EXIST)))
		return -EINVAL;
	for (i = 0; i < ngroups; i++)
		if (mcbf_key(&mk, ifindex, groups[i].addr, groups[i].len))
			return -EINVAL;
	ret = net_lock(n);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, &cur));
	if (ret)
		goto out;
	memset(&spec, 0, sizeof(spec));
	spec.m = (__u64)cur.p.nblocks * KBLOOM_BLOCK_BITS;
	spec.hash_id = cur.p.hash_id;
	spec.seed = cur.p.seed;
	spec.classes = cur.cls;
	ret = mcbf_groups_updated(n, ifindex, groups, ngroups, join,
				  flags & KBLOOM_MCBF_UPD_EXIST, &g, &cnt);
	ret = ret ?: mcbf_filter_of(n, &spec, g, cnt, &f);
	ret = ret ?: mcbf_load_locked(n, ifindex, &spec,
				      kb_mcbf_words(f, NULL));
	ret = ret ?: mcbf_members_update(n, ifindex, groups, ngroups, join);
out:
	net_unlock(n);
	kb_mcbf_free(f);
	free(g);
	return ret;
}

int kbloom_mcbf_port_get(struct kbloom_net *n, int ifindex,
			 struct kbloom_mcbf_port *port)
{
	__u32 key = ifindex;

	if (mcbf_check(n) || !port || ifindex <= 0)
		return -EINVAL;
	return kbp_err(bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, port));
}

int kbloom_mcbf_port_del(struct kbloom_net *n, int ifindex)
{
	struct kbloom_mcbf_port cur;
	__u32 key = ifindex, slot;
	char path[PATH_MAX];
	int ret;

	if (mcbf_check(n) || ifindex <= 0)
		return -EINVAL;
	ret = net_lock(n);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, &cur));
	if (ret)
		goto out;
	ret = net_detach_locked(n, ifindex);
	if (ret == -ENOENT)
		ret = 0;
	if (ret)
		goto out;
	bpf_map_delete_elem(n->map_fd[NM_PORTS], &key);
	bpf_map_delete_elem(n->map_fd[NM_PORT], &key);
	kbp_rcu_sync();
	for (slot = cur.p.slot & ~1U; slot <= (cur.p.slot | 1U); slot++)
		bpf_map_delete_elem(n->map_fd[NM_FILTERS], &slot);
	mcbf_members_clear(n, ifindex);
	net_zero_stats(n, cur.p.index);
	if (!kbp_path(n->dir, path, "filter_%d", ifindex))
		unlink(path);
out:
	net_unlock(n);
	return ret;
}

int kbloom_mcbf_member_add(struct kbloom_net *n, int ifindex,
			   const void *group, __u32 len)
{
	struct kbloom_member_key k;
	__u32 one = 1;
	int ret;

	if (mcbf_check(n) || mcbf_key(&k, ifindex, group, len))
		return -EINVAL;
	ret = net_lock(n);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_MEMBERS], &k, &one,
					  BPF_NOEXIST));
	if (ret == -E2BIG)
		ret = -ENOSPC;
	net_unlock(n);
	return ret;
}

int kbloom_mcbf_member_del(struct kbloom_net *n, int ifindex,
			   const void *group, __u32 len)
{
	struct kbloom_member_key k;
	int ret;

	if (mcbf_check(n) || mcbf_key(&k, ifindex, group, len))
		return -EINVAL;
	ret = net_lock(n);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_delete_elem(n->map_fd[NM_MEMBERS], &k));
	net_unlock(n);
	return ret;
}

int kbloom_mcbf_set_flags(struct kbloom_net *n, __u32 flags)
{
	struct kbloom_mcbf_cfg cfg = { .flags = flags };
	__u32 zero = 0;
	int ret;

	if (mcbf_check(n) || (flags & ~KBLOOM_MCBF_F_ALL))
		return -EINVAL;
	ret = net_lock(n);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_CONFIG], &zero, &cfg,
					  0));
	net_unlock(n);
	return ret;
}

int kbloom_mcbf_stats(struct kbloom_net *n, int ifindex,
		      struct kbloom_mcbf_stats *st)
{
	if (mcbf_check(n) || !st || ifindex <= 0)
		return -EINVAL;
	return net_stats(n, ifindex, (__u64 *)st);
}

static int net_u32_cmp(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return (x > y) - (x < y);
}

int kbloom_net_ports(struct kbloom_net *n, __u32 *ifindex, __u32 max)
{
	__u32 *keys, cnt, i;
	int ret;

	if (!n || (max && !ifindex))
		return -EINVAL;
	ret = kbp_map_keys(n->map_fd[NM_PORT], &keys, &cnt);
	if (ret)
		return ret;
	if (cnt)
		qsort(keys, cnt, sizeof(*keys), net_u32_cmp);
	for (i = 0; i < cnt && i < max; i++)
		ifindex[i] = keys[i];
	free(keys);
	return (int)cnt;
}

int kbloom_mcbf_get_flags(struct kbloom_net *n, __u32 *flags)
{
	struct kbloom_mcbf_cfg cfg;
	__u32 zero = 0;
	int ret;

	if (mcbf_check(n) || !flags)
		return -EINVAL;
	ret = kbp_err(bpf_map_lookup_elem(n->map_fd[NM_CONFIG], &zero, &cfg));
	if (!ret)
		*flags = cfg.flags;
	return ret;
}

static int mcbf_key_cmp(const void *a, const void *b)
{
	const struct kbloom_member_key *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->addr, y->addr, sizeof(x->addr));
}

int kbloom_mcbf_groups(struct kbloom_net *n, int ifindex,
		       struct kbloom_addr_key *out, __u32 max)
{
	struct kbloom_member_key *m;
	__u32 cnt, i;
	int ret;

	if (mcbf_check(n) || ifindex <= 0 || (max && !out))
		return -EINVAL;
	ret = mcbf_members_of(n, ifindex, &m, &cnt);
	if (ret)
		return ret;
	if (cnt)
		qsort(m, cnt, sizeof(*m), mcbf_key_cmp);
	for (i = 0; i < cnt && i < max; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].len = m[i].len;
		memcpy(out[i].addr, m[i].addr, sizeof(out[i].addr));
	}
	free(m);
	return (int)cnt;
}

/* Fill of each block, the per-class rates over the blocks, into @f. */
static void mcbf_fill_blocks(const __u64 *w, __u32 nblocks,
			     const struct kbloom_mcbf_port *rec,
			     struct kbloom_mcbf_fill *f)
{
	__u32 b, i, c, ones;
	double x, sum[KB_MCBF_CLASSES] = { 0 };

	for (b = 0; b < nblocks; b++) {
		ones = 0;
		for (i = 0; i < KBLOOM_BLOCK_BITS / 64; i++)
			ones += (__u32)__builtin_popcountll(w[b * 8 + i]);
		f->ones += ones;
		x = (double)ones / KBLOOM_BLOCK_BITS;
		for (c = 0; c < KB_MCBF_CLASSES; c++)
			if (rec->cls.k[c])
				sum[c] += pow(x, rec->cls.k[c]);
	}
	for (c = 0; c < KB_MCBF_CLASSES; c++)
		f->fpr[c] = nblocks ? sum[c] / nblocks : 0;
}

int kbloom_mcbf_port_fill(struct kbloom_net *n, int ifindex,
			  struct kbloom_mcbf_fill *f)
{
	struct kbloom_mcbf_port rec;
	__u32 key = ifindex, id;
	size_t bytes;
	__u64 *w;
	int fd, ret;

	if (mcbf_check(n) || !f || ifindex <= 0)
		return -EINVAL;
	ret = kbp_err(bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, &rec));
	ret = ret ?: kbp_err(bpf_map_lookup_elem(n->map_fd[NM_FILTERS],
						 &rec.p.slot, &id));
	if (ret)
		return ret;
	fd = kbp_err(bpf_map_get_fd_by_id(id));
	if (fd < 0)
		return fd;
	bytes = (size_t)rec.p.nblocks * sizeof(struct kbloom_block);
	w = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (w == MAP_FAILED)
		return -errno;
	memset(f, 0, sizeof(*f));
	f->m = (__u64)rec.p.nblocks * KBLOOM_BLOCK_BITS;
	mcbf_fill_blocks(w, rec.p.nblocks, &rec, f);
	munmap(w, bytes);
	return 0;
}
