// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP loader: instances (load, pin, open, destroy), links
 * (attach, detach, status, replace), the variants (map-backed or kfunc)
 * and the module filter names of kfunc instances, the veth peer program,
 * namespaces and locking.  Filters are in kbx_filter.c, the paths in
 * kbx_mcast.c and kbx_gate.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_link.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "uapi/kbloom_plan.h"
#include "uapi/kbloom_xdp_maps.h"
#include "bpf/kbloom_mcast.skel.h"
#include "bpf/kbloom_gate.skel.h"
#include "bpf/kbloom_kfunc_mcast.skel.h"
#include "bpf/kbloom_kfunc_gate.skel.h"
#include "bpf/kbloom_pass.skel.h"
#include "uapi/kbloom_kfunc.h"
#include "libkbloom_dev.h"
#include "xdp_priv.h"

struct kbx_prog_pin {
	const char *prog;	/* program name in the object */
	const char *pin;	/* pin name in the instance directory */
};

struct kbx_kind_desc {
	const char *params;
	const char *filters;
	const char *stats;
	const char *exact;
	const char *config;
	const char *ports;
	const char *kfilter;	/* name map of the kfunc variant */
	struct kbx_prog_pin progs[XDP_NPROGS];
};

static const struct kbx_kind_desc kbx_kinds[] = {
	[KBLOOM_XDP_MCAST] = {
		.params = "mc_params", .filters = "mc_filters",
		.stats = "mc_stats", .exact = "mc_members",
		.config = "mc_config", .ports = "mc_ports",
		.kfilter = "mc_kfilter",
		.progs = {
			[XDP_PROG_MAIN] = { "kbloom_mcast_ingress", "prog_ingress" },
			[XDP_PROG_EGRESS] = { "kbloom_mcast_egress", "prog_egress" },
			[XDP_PROG_CHECK] = { "kbloom_mcast_check", "prog_check" },
		},
	},
	[KBLOOM_XDP_GATE] = {
		.params = "gate_params", .filters = "gate_filters",
		.stats = "gate_stats", .exact = "gate_exact",
		.config = "gate_config", .ports = NULL,
		.kfilter = "gate_kfilter",
		.progs = {
			[XDP_PROG_MAIN] = { "kbloom_gate", "prog_gate" },
		},
	},
};

/* ---- logging, locking, namespaces ---------------------------------------- */

void kbx_log(const struct kbloom_xdp *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kbp_vlog(x ? x->log : NULL, x ? x->log_ctx : NULL, fmt, ap);
	va_end(ap);
}

int kbx_lock(struct kbloom_xdp *x)
{
	if (x->lock_depth++)
		return 0;
	if (flock(x->dir_fd, LOCK_EX)) {
		x->lock_depth--;
		return -errno;
	}
	return 0;
}

void kbx_unlock(struct kbloom_xdp *x)
{
	if (--x->lock_depth == 0)
		flock(x->dir_fd, LOCK_UN);
}

/* ---- geometry ---------------------------------------------------------------- */

int kbloom_xdp_geom_plan(struct kbloom_xdp_geom *g)
{
	struct kb_plan plan;
	int ret;

	if (!g || g->reserved || g->pad)
		return -EINVAL;
	if (g->m) {
		if (!g->k)
			return -EINVAL;
		return kb_plan_check(KBLOOM_TYPE_BLOCKED, g->m, g->k, 0);
	}
	if (!g->capacity)
		g->capacity = KBLOOM_XDP_DEF_CAPACITY;
	if (!g->fpr_pico)
		g->fpr_pico = KBLOOM_XDP_DEF_FPR_PICO;
	ret = kb_plan(KBLOOM_TYPE_BLOCKED, g->capacity, g->fpr_pico, 0, &plan);
	if (ret)
		return ret;
	g->m = plan.m;
	g->k = plan.k;
	return 0;
}

int kbx_geom_to_params(const struct kbloom_xdp_geom *g,
		       struct kbloom_params *p)
{
	struct kbloom_xdp_geom t = {};
	int ret;

	if (g)
		t = *g;
	ret = kbloom_xdp_geom_plan(&t);
	if (ret)
		return ret;
	if (t.hash_id > KBLOOM_HASH_MAX)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->type = KBLOOM_TYPE_BLOCKED;
	p->version = KBLOOM_XDP_LAYOUT_VERSION;
	p->k = t.k;
	p->hash_id = t.hash_id ? t.hash_id : KBLOOM_HASH_FAST;
	p->seed = t.seed;
	p->nblocks = (__u32)(t.m / KBLOOM_BLOCK_BITS);
	p->capacity = t.capacity;
	p->fpr_pico = t.fpr_pico;
	return 0;
}

int kbloom_xdp_parse_addr(const char *s, __u8 addr[16], __u32 *len)
{
	memset(addr, 0, 16);
	if (!s)
		return -EINVAL;
	if (inet_pton(AF_INET, s, addr) == 1) {
		*len = KBLOOM_ADDR4_LEN;
		return 0;
	}
	if (inet_pton(AF_INET6, s, addr) == 1) {
		*len = KBLOOM_ADDR6_LEN;
		return 0;
	}
	return -EINVAL;
}

/* ---- bpffs, names ------------------------------------------------------------ */

static int kbx_path_exists(const char *dir, const char *leaf)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, leaf);
	return access(p, F_OK) == 0;
}

/* ---- handles ---------------------------------------------------------------- */

static struct kbloom_xdp *kbx_alloc(const char *root, const char *name,
				    const struct kbloom_xdp_opts *o)
{
	struct kbloom_xdp *x = calloc(1, sizeof(*x));
	int i;

	if (!x)
		return NULL;
	x->dir_fd = -1;
	x->netns_fd = -1;
	x->params_fd = -1;
	x->filters_fd = -1;
	x->stats_fd = -1;
	x->exact_fd = -1;
	x->config_fd = -1;
	x->ports_fd = -1;
	x->btf_fd = -1;
	x->variant = KBLOOM_XDP_VARIANT_MAP;
	x->kfilter_fd = -1;
	x->dev_fd = -1;
	for (i = 0; i < XDP_NPROGS; i++)
		x->prog_fd[i] = -1;
	if (o) {
		x->log = o->log;
		x->log_ctx = o->log_ctx;
	}
	snprintf(x->name, sizeof(x->name), "%s", name);
	snprintf(x->dir, sizeof(x->dir), "%s/%s", root, name);
	return x;
}

static int kbx_open_netns(struct kbloom_xdp *x, const char *ns)
{
	char p[PATH_MAX];
	int fd;

	if (!ns)
		return 0;
	fd = kbp_netns_open(ns, p);
	if (fd < 0) {
		kbx_log(x, "netns %s: %s", p, strerror(-fd));
		return fd;
	}
	x->netns_fd = fd;
	return 0;
}

/* Mount bpffs on /sys/fs/bpf when the pin root is there and it is not. */
static int kbx_bpffs_ensure(const struct kbloom_xdp *x, const char *root)
{
	int ret = kbp_bpffs_ensure(root);

	if (ret < 0)
		kbx_log(x, "cannot mount bpffs on %s: %s", KBP_BPFFS,
			strerror(-ret));
	else if (ret)
		kbx_log(x, "mounted bpffs on %s", KBP_BPFFS);
	return ret < 0 ? ret : 0;
}

void kbloom_xdp_close(struct kbloom_xdp *x)
{
	int i;

	if (!x)
		return;
	kbx_filter_release(x);
	kbp_close_fd(&x->params_fd);
	kbp_close_fd(&x->filters_fd);
	kbp_close_fd(&x->stats_fd);
	kbp_close_fd(&x->exact_fd);
	kbp_close_fd(&x->config_fd);
	kbp_close_fd(&x->ports_fd);
	kbp_close_fd(&x->btf_fd);
	kbp_close_fd(&x->kfilter_fd);
	kbp_close_fd(&x->dev_fd);
	for (i = 0; i < XDP_NPROGS; i++)
		kbp_close_fd(&x->prog_fd[i]);
	kbp_close_fd(&x->netns_fd);
	kbp_close_fd(&x->dir_fd);
	free(x);
}

enum kbloom_xdp_kind kbloom_xdp_kind(const struct kbloom_xdp *x)
{
	return x->kind;
}

const char *kbloom_xdp_dir(const struct kbloom_xdp *x)
{
	return x->dir;
}

enum kbloom_xdp_variant kbloom_xdp_variant(const struct kbloom_xdp *x)
{
	return x->variant;
}

static int kbx_map_max_entries(int fd, __u32 *max, __u32 *btf_id)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	int ret;

	ret = bpf_obj_get_info_by_fd(fd, &info, &len);
	if (ret)
		return kbp_err(ret);
	*max = info.max_entries;
	if (btf_id)
		*btf_id = info.btf_id;
	return 0;
}

static int kbx_open_pins(struct kbloom_xdp *x)
{
	const struct kbx_kind_desc *d;
	__u32 btf_id = 0, max = 0;
	int i, ret;

	if (kbx_path_exists(x->dir, kbx_kinds[KBLOOM_XDP_MCAST].params))
		x->kind = KBLOOM_XDP_MCAST;
	else if (kbx_path_exists(x->dir, kbx_kinds[KBLOOM_XDP_GATE].params))
		x->kind = KBLOOM_XDP_GATE;
	else
		return -ENOENT;
	d = &kbx_kinds[x->kind];
	ret = kbp_get(x->dir, d->params, &x->params_fd);
	ret = ret ?: kbp_get(x->dir, d->filters, &x->filters_fd);
	ret = ret ?: kbp_get(x->dir, d->stats, &x->stats_fd);
	ret = ret ?: kbp_get(x->dir, d->exact, &x->exact_fd);
	ret = ret ?: kbp_get(x->dir, d->config, &x->config_fd);
	ret = ret ?: kbp_get(x->dir, d->ports, &x->ports_fd);
	if (!ret && kbx_path_exists(x->dir, d->kfilter)) {
		x->variant = KBLOOM_XDP_VARIANT_KFUNC;
		ret = kbp_get(x->dir, d->kfilter, &x->kfilter_fd);
	}
	for (i = 0; !ret && i < XDP_NPROGS; i++)
		ret = kbp_get(x->dir, d->progs[i].pin, &x->prog_fd[i]);
	if (ret)
		return ret;
	ret = kbx_map_max_entries(x->params_fd, &x->max_filters, &btf_id);
	ret = ret ?: kbx_map_max_entries(x->filters_fd, &max, NULL);
	if (ret)
		return ret;
	x->nslots = max;
	x->slots = calloc(max, sizeof(*x->slots));
	if (!x->slots)
		return -ENOMEM;
	for (i = 0; i < (int)max; i++)
		x->slots[i].fd = -1;
	kbp_open_btf(btf_id, &x->btf_fd, &x->btf_key_id, &x->btf_block_id);
	return 0;
}

int kbloom_xdp_open(const char *name, const struct kbloom_xdp_opts *opts,
		    struct kbloom_xdp **xp)
{
	const char *root = opts && opts->pin_root ? opts->pin_root :
			   KBLOOM_XDP_PIN_ROOT;
	struct kbloom_xdp *x;
	int ret;

	if (!xp || !kbp_name_ok(name))
		return -EINVAL;
	x = kbx_alloc(root, name, opts);
	if (!x)
		return -ENOMEM;
	ret = kbx_bpffs_ensure(x, root);
	if (ret)
		goto err;
	x->dir_fd = open(x->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (x->dir_fd < 0) {
		ret = -errno;
		goto err;
	}
	ret = kbx_open_netns(x, opts ? opts->netns : NULL);
	if (ret)
		goto err;
	ret = kbx_lock(x);
	if (ret)
		goto err;
	ret = kbx_open_pins(x);
	kbx_unlock(x);
	if (ret)
		goto err;
	*xp = x;
	return 0;
err:
	kbloom_xdp_close(x);
	return ret;
}

/* ---- module filters (kfunc variant) --------------------------------------- */

int kbx_kfunc(const struct kbloom_xdp *x)
{
	return x->variant == KBLOOM_XDP_VARIANT_KFUNC;
}

/* @pat with its "%s" (one at most) replaced by @ifname: a valid name. */
static int kbx_name_expand(const char *pat, const char *ifname,
			   char out[KBLOOM_NAME_LEN])
{
	const char *p = strstr(pat, "%s");
	int n;

	memset(out, 0, KBLOOM_NAME_LEN);
	if (p && strstr(p + 2, "%s"))
		return -EINVAL;
	if (p)
		n = snprintf(out, KBLOOM_NAME_LEN, "%.*s%s%s", (int)(p - pat),
			     pat, ifname, p + 2);
	else
		n = snprintf(out, KBLOOM_NAME_LEN, "%s", pat);
	if (n <= 0 || n >= (int)KBLOOM_NAME_LEN || !kb_name_valid(out))
		return -EINVAL;
	return 0;
}

/* The gate has filter 0 only; mcast ports are ifindexes, 0 the pattern. */
static int kbx_name_id_ok(const struct kbloom_xdp *x, __u32 id)
{
	return x->kind == KBLOOM_XDP_MCAST ? id <= INT_MAX : !id;
}

/* The name of interface @ifindex in the instance's namespace. */
static int kbx_ifname(const struct kbloom_xdp *x, int ifindex,
		      char buf[IF_NAMESIZE])
{
	int ns, ret;

	ret = kbp_ns_enter(x->netns_fd, &ns);
	if (ret)
		return ret;
	if (!if_indextoname(ifindex, buf))
		ret = -ENODEV;
	kbp_ns_leave(ns);
	return ret;
}

/*
 * @name as stored for @id: a valid name, "%s" replaced by the interface
 * of port @id; for id 0 of mcast the pattern itself.
 */
static int kbx_name_make(const struct kbloom_xdp *x, __u32 id,
			 const char *name, char out[KBLOOM_NAME_LEN])
{
	char ifname[IF_NAMESIZE] = "a";	/* stands in for any interface */
	int pattern = x->kind == KBLOOM_XDP_MCAST && !id;
	int ret;

	if (strstr(name, "%s")) {
		if (x->kind != KBLOOM_XDP_MCAST)
			goto bad;
		if (id) {
			ret = kbx_ifname(x, (int)id, ifname);
			if (ret) {
				kbx_log(x, "%s: module filter %s: no interface %u",
					x->name, name, id);
				return ret;
			}
		}
	}
	if (kbx_name_expand(name, ifname, out))
		goto bad;
	if (pattern) {
		if (strlen(name) >= KBLOOM_NAME_LEN)
			goto bad;
		memset(out, 0, KBLOOM_NAME_LEN);
		memcpy(out, name, strlen(name));
	}
	return 0;
bad:
	kbx_log(x, "%s: module filter '%s': not a filter name (1..31 of A-Z a-z 0-9 _ . -%s)",
		x->name, name, x->kind == KBLOOM_XDP_MCAST ?
		", and one %s for the port's interface name" : "");
	return -EINVAL;
}

int kbx_module_name(struct kbloom_xdp *x, __u32 id,
		    char name[KBLOOM_NAME_LEN])
{
	struct kbloom_kfunc_name n;
	int ret;

	if (!kbx_kfunc(x))
		return -EOPNOTSUPP;
	ret = kbp_err(bpf_map_lookup_elem(x->kfilter_fd, &id, &n));
	if (ret)
		return ret;
	memcpy(name, n.name, KBLOOM_NAME_LEN);
	name[KBLOOM_NAME_LEN - 1] = 0;
	return 0;
}

int kbx_module_name_del(struct kbloom_xdp *x, __u32 id)
{
	if (!kbx_kfunc(x))
		return 0;
	return kbp_err(bpf_map_delete_elem(x->kfilter_fd, &id));
}

static int kbx_module_name_set(struct kbloom_xdp *x, __u32 id,
			       const char name[KBLOOM_NAME_LEN])
{
	struct kbloom_kfunc_name n;

	memcpy(n.name, name, sizeof(n.name));
	return kbp_err(bpf_map_update_elem(x->kfilter_fd, &id, &n, BPF_ANY));
}

/* A new mcast port without a name gets the pattern's (id 0), if any. */
int kbx_module_name_port(struct kbloom_xdp *x, int ifindex)
{
	char pat[KBLOOM_NAME_LEN], name[KBLOOM_NAME_LEN];
	int ret;

	if (!kbx_kfunc(x) || !kbx_module_name(x, ifindex, name))
		return 0;
	ret = kbx_module_name(x, 0, pat);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	ret = kbx_name_make(x, ifindex, pat, name);
	return ret ?: kbx_module_name_set(x, ifindex, name);
}

/* One key into (or out of) the module filter of @id, by /dev/kbloom. */
int kbx_module_keys(struct kbloom_xdp *x, __u32 id, unsigned long req,
		    const void *key, __u32 len)
{
	const char *op = req == KBLOOM_IOCTL_ADD ? "add" : "delete";
	char name[KBLOOM_NAME_LEN];
	struct kbloom_keys k = {
		.key_len = len, .count = 1, .keys = (uintptr_t)key,
		.keys_len = len,
	};
	int ret;

	ret = kbx_module_name(x, id, name);
	if (ret == -ENOENT)
		kbx_log(x, "%s: filter %u has no module filter (kbloom_xdp_set_module_filter)",
			x->name, id);
	if (ret)
		return ret;
	if (x->dev_fd < 0) {
		ret = kbloom_dev_open(NULL);
		if (ret < 0) {
			kbx_log(x, "%s: module filter %s: %s: %s", x->name,
				name, KBLOOM_DEVICE, strerror(-ret));
			return ret;
		}
		x->dev_fd = ret;
	}
	ret = kbloom_dev_keys(x->dev_fd, req, name, &k);
	if (ret)
		kbx_log(x, "%s: module filter %s: %s: %s%s", x->name, name,
			op, strerror(-ret), ret == -ENOENT ?
			" (no such filter in kbloom.ko)" :
			ret == -EOPNOTSUPP && req == KBLOOM_IOCTL_DEL ?
			" (only a counting filter deletes)" : "");
	return ret;
}

int kbloom_xdp_module_filter(struct kbloom_xdp *x, __u32 id,
			     char name[KBLOOM_NAME_LEN])
{
	if (!x || !name || !kbx_name_id_ok(x, id))
		return -EINVAL;
	return kbx_module_name(x, id, name);
}

int kbloom_xdp_set_module_filter(struct kbloom_xdp *x, __u32 id,
				 const char *name)
{
	char n[KBLOOM_NAME_LEN];
	int ret;

	if (!x || !kbx_name_id_ok(x, id))
		return -EINVAL;
	if (!kbx_kfunc(x)) {
		kbx_log(x, "%s: a map-backed instance has no module filters (the kfunc variant has)",
			x->name);
		return -EOPNOTSUPP;
	}
	if (name && *name) {
		ret = kbx_name_make(x, id, name, n);
		if (ret)
			return ret;
	}
	ret = kbx_lock(x);
	if (ret)
		return ret;
	if (name && *name)
		ret = kbx_module_name_set(x, id, n);
	else
		ret = kbx_module_name_del(x, id);
	kbx_unlock(x);
	return ret;
}

/* ---- loading -------------------------------------------------------------- */

struct kbx_skel {
	enum kbloom_xdp_kind kind;
	enum kbloom_xdp_variant variant;
	void *skel;
	struct bpf_object *obj;
};

/*
 * The object of @x's kind and variant.  The two variants of a path have
 * the same program and map names; the kfunc one adds its name map.
 */
static int kbx_skel_open(struct kbx_skel *s, const struct kbloom_xdp *x)
{
	int kfunc = x->variant == KBLOOM_XDP_VARIANT_KFUNC;

	s->kind = x->kind;
	s->variant = x->variant;
	if (x->kind == KBLOOM_XDP_MCAST && kfunc) {
		struct kbloom_kfunc_mcast *m = kbloom_kfunc_mcast__open();

		s->skel = m;
		s->obj = m ? m->obj : NULL;
	} else if (x->kind == KBLOOM_XDP_MCAST) {
		struct kbloom_mcast *m = kbloom_mcast__open();

		s->skel = m;
		s->obj = m ? m->obj : NULL;
	} else if (kfunc) {
		struct kbloom_kfunc_gate *g = kbloom_kfunc_gate__open();

		s->skel = g;
		s->obj = g ? g->obj : NULL;
	} else {
		struct kbloom_gate *g = kbloom_gate__open();

		s->skel = g;
		s->obj = g ? g->obj : NULL;
	}
	return s->obj ? 0 : -errno ?: -ENOMEM;
}

static void kbx_skel_close(struct kbx_skel *s)
{
	int kfunc = s->variant == KBLOOM_XDP_VARIANT_KFUNC;

	if (!s->skel)
		return;
	if (s->kind == KBLOOM_XDP_MCAST && kfunc)
		kbloom_kfunc_mcast__destroy(s->skel);
	else if (s->kind == KBLOOM_XDP_MCAST)
		kbloom_mcast__destroy(s->skel);
	else if (kfunc)
		kbloom_kfunc_gate__destroy(s->skel);
	else
		kbloom_gate__destroy(s->skel);
	s->skel = NULL;
	s->obj = NULL;
}

/*
 * Whether the kfunc variant can load here: kbloom.ko with BTF.  -ENOENT
 * when the module is not loaded, -EOPNOTSUPP when it has no BTF; the log
 * says which.
 */
static int kbx_kfunc_ready(const struct kbloom_xdp *x)
{
	if (!access(KBLOOM_XDP_MODULE_BTF, F_OK))
		return 0;
	if (!access("/sys/module/kbloom", F_OK)) {
		kbx_log(x, "%s: kbloom.ko is loaded without BTF (%s is missing): its kfuncs cannot be used; build the module with BTF, or use the map-backed variant",
			x->name, KBLOOM_XDP_MODULE_BTF);
		return -EOPNOTSUPP;
	}
	kbx_log(x, "%s: the kfunc variant needs kbloom.ko, which is not loaded (%s is missing); load it, or use the map-backed variant",
		x->name, KBLOOM_XDP_MODULE_BTF);
	return -ENOENT;
}

static int kbx_pin_obj(struct kbloom_xdp *x, struct bpf_object *obj)
{
	const struct kbx_kind_desc *d = &kbx_kinds[x->kind];
	int i, ret;

	ret = kbp_pin_maps(obj, x->dir);
	for (i = 0; !ret && i < XDP_NPROGS; i++) {
		if (d->progs[i].prog)
			ret = kbp_pin_prog(obj, x->dir, d->progs[i].prog,
					   d->progs[i].pin);
	}
	return ret;
}

static int kbx_load_new(struct kbloom_xdp *x, const struct kbloom_xdp_opts *o)
{
	const struct kbx_kind_desc *d = &kbx_kinds[x->kind];
	__u32 nf = x->kind == KBLOOM_XDP_MCAST ? x->max_filters : 1;
	__u32 keys = o && o->max_keys ? o->max_keys : XDP_DEF_MAX_KEYS;
	struct kbx_skel s = {};
	int ret;

	if (x->variant == KBLOOM_XDP_VARIANT_KFUNC) {
		ret = kbx_kfunc_ready(x);
		if (ret)
			return ret;
	}
	ret = kbx_skel_open(&s, x);
	if (ret)
		return ret;
	ret = kbp_set_max(s.obj, d->params, nf);
	ret = ret ?: kbp_set_max(s.obj, d->filters,
				 nf * KBLOOM_SLOTS_PER_FILTER);
	ret = ret ?: kbp_set_max(s.obj, d->exact, keys);
	if (x->kind == KBLOOM_XDP_MCAST) {
		ret = ret ?: kbp_set_max(s.obj, d->stats, nf);
		ret = ret ?: kbp_set_max(s.obj, d->ports, nf);
		/* the ports' names and the name of new ports (id 0) */
		if (x->variant == KBLOOM_XDP_VARIANT_KFUNC)
			ret = ret ?: kbp_set_max(s.obj, d->kfilter, nf + 1);
	}
	if (!ret) {
		ret = bpf_object__load(s.obj);
		if (ret)
			kbx_log(x, "%s: loading the %s%s programs failed: %s",
				x->name,
				x->variant == KBLOOM_XDP_VARIANT_KFUNC ?
				"kfunc " : "",
				x->kind == KBLOOM_XDP_MCAST ? "mcast" : "gate",
				strerror(-ret));
	}
	ret = ret ?: kbx_pin_obj(x, s.obj);
	kbx_skel_close(&s);
	return ret;
}

/* The variant of a new instance (see enum kbloom_xdp_variant). */
static int kbx_variant_pick(struct kbloom_xdp *x,
			    const struct kbloom_xdp_opts *o)
{
	const char *mf = o ? o->module_filter : NULL;
	__u32 v = o ? o->variant : KBLOOM_XDP_VARIANT_AUTO;
	char tmp[KBLOOM_NAME_LEN];

	if (v > KBLOOM_XDP_VARIANT_KFUNC) {
		kbx_log(x, "%s: unknown variant %u", x->name, v);
		return -EINVAL;
	}
	if (mf && *mf && kbx_name_make(x, 0, mf, tmp))
		return -EINVAL;
	if (v == KBLOOM_XDP_VARIANT_AUTO) {
		v = KBLOOM_XDP_VARIANT_MAP;
		if (mf && *mf) {
			if (!access(KBLOOM_XDP_MODULE_BTF, F_OK))
				v = KBLOOM_XDP_VARIANT_KFUNC;
			else
				kbx_log(x, "%s: kbloom.ko with BTF is not here (%s is missing): map-backed filters, module filter %s not used",
					x->name, KBLOOM_XDP_MODULE_BTF, mf);
		}
	}
	if (v == KBLOOM_XDP_VARIANT_MAP && mf && *mf &&
	    o->variant == KBLOOM_XDP_VARIANT_MAP) {
		kbx_log(x, "%s: a module filter needs the kfunc variant",
			x->name);
		return -EINVAL;
	}
	x->variant = v;
	return 0;
}

int kbloom_xdp_create(const char *name, enum kbloom_xdp_kind kind,
		      const struct kbloom_xdp_opts *opts,
		      struct kbloom_xdp **xp)
{
	const char *root = opts && opts->pin_root ? opts->pin_root :
			   KBLOOM_XDP_PIN_ROOT;
	struct kbloom_params geom;
	struct kbloom_xdp *x;
	int ret;

	if (!xp || !kbp_name_ok(name) ||
	    (kind != KBLOOM_XDP_MCAST && kind != KBLOOM_XDP_GATE))
		return -EINVAL;
	x = kbx_alloc(root, name, opts);
	if (!x)
		return -ENOMEM;
	x->kind = kind;
	x->max_filters = opts && opts->max_filters ? opts->max_filters :
			 XDP_DEF_MAX_PORTS;
	ret = kbx_geom_to_params(opts ? &opts->geom : NULL, &geom);
	if (ret) {
		kbx_log(x, "%s: bad filter geometry", name);
		goto err_free;
	}
	ret = kbx_variant_pick(x, opts);
	if (ret)
		goto err_free;
	ret = kbx_bpffs_ensure(x, root);
	ret = ret ?: kbp_mkdir_p(root);
	ret = ret ?: kbx_open_netns(x, opts ? opts->netns : NULL);
	if (ret)
		goto err_free;
	if (mkdir(x->dir, 0700)) {
		ret = -errno;
		goto err_free;
	}
	x->dir_fd = open(x->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (x->dir_fd < 0) {
		ret = -errno;
		goto err_unpin;
	}
	ret = kbx_lock(x);
	if (ret)
		goto err_unpin;
	ret = kbx_load_new(x, opts);
	ret = ret ?: kbx_open_pins(x);
	if (!ret)
		ret = kind == KBLOOM_XDP_MCAST ? kbx_mcast_init(x, opts) :
						 kbx_gate_init(x, opts);
	if (!ret && kbx_kfunc(x) && opts && opts->module_filter &&
	    *opts->module_filter)
		ret = kbloom_xdp_set_module_filter(x, 0, opts->module_filter);
	kbx_unlock(x);
	if (ret)
		goto err_unpin;
	*xp = x;
	return 0;
err_unpin:
	kbloom_xdp_close(x);
	kbloom_xdp_unpin(root, name);
	return ret;
err_free:
	kbloom_xdp_close(x);
	return ret;
}

/* ---- removal ------------------------------------------------------------- */

int kbloom_xdp_unpin(const char *pin_root, const char *name)
{
	char dir[PATH_MAX];
	struct dirent *e;
	int dfd, fd, err = 0;
	DIR *d;

	if (!kbp_name_ok(name))
		return -EINVAL;
	snprintf(dir, sizeof(dir), "%s/%s",
		 pin_root ? pin_root : KBLOOM_XDP_PIN_ROOT, name);
	d = opendir(dir);
	if (!d)
		return -errno;
	dfd = dirfd(d);
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!strncmp(e->d_name, "link_", 5)) {
			char p[PATH_MAX];

			fd = -1;
			if (snprintf(p, sizeof(p), "%s/%s", dir,
				     e->d_name) < (int)sizeof(p))
				fd = bpf_obj_get(p);
			if (fd >= 0) {
				bpf_link_detach(fd);
				close(fd);
			}
		}
		if (unlinkat(dfd, e->d_name, 0) && !err)
			err = -errno;
	}
	closedir(d);
	if (rmdir(dir) && !err)
		err = -errno;
	return err;
}

/* Detach and unpin every link of the instance. */
static void kbx_detach_all(struct kbloom_xdp *x)
{
	char path[PATH_MAX];
	struct dirent *e;
	int fd;
	DIR *d;

	d = opendir(x->dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "link_", 5) ||
		    snprintf(path, sizeof(path), "%s/%s", x->dir,
			     e->d_name) >= (int)sizeof(path))
			continue;
		fd = bpf_obj_get(path);
		if (fd >= 0) {
			bpf_link_detach(fd);
			close(fd);
		}
		unlink(path);
	}
	closedir(d);
}

int kbloom_xdp_destroy(struct kbloom_xdp *x)
{
	char root[PATH_MAX], name[KBLOOM_XDP_NAME_MAX];
	size_t n;

	if (!x)
		return -EINVAL;
	snprintf(name, sizeof(name), "%s", x->name);
	snprintf(root, sizeof(root), "%s", x->dir);
	n = strlen(root) - strlen(name);
	root[n ? n - 1 : 0] = 0;
	kbx_lock(x);
	kbx_detach_all(x);	/* first: no frame enters a half-removed path */
	if (x->kind == KBLOOM_XDP_MCAST)
		kbx_mcast_replace_ports(x, -1);	/* drop the devmap entries */
	kbloom_xdp_close(x);	/* releases the lock */
	return kbloom_xdp_unpin(root, name);
}

/* ---- links ------------------------------------------------------------------ */

static int kbx_fallback_ok(int err)
{
	return err == -EOPNOTSUPP || err == -EINVAL || err == -524;
}

static int kbx_link_create(const struct kbloom_xdp *x, int prog_fd,
			   int ifindex, enum kbloom_xdp_mode mode,
			   enum kbloom_xdp_mode *got)
{
	char ifname[IF_NAMESIZE] = "?";
	int fd = -EOPNOTSUPP;

	if_indextoname(ifindex, ifname);
	if (mode != KBLOOM_XDP_MODE_GENERIC) {
		LIBBPF_OPTS(bpf_link_create_opts, o,
			    .flags = XDP_FLAGS_DRV_MODE);

		fd = kbp_err(bpf_link_create(prog_fd, ifindex, BPF_XDP, &o));
		if (fd >= 0) {
			*got = KBLOOM_XDP_MODE_NATIVE;
			return fd;
		}
		if (mode == KBLOOM_XDP_MODE_NATIVE || !kbx_fallback_ok(fd))
			goto fail;
		kbx_log(x, "%s: native XDP unavailable (%s), attaching in generic (skb) mode",
			ifname, strerror(-fd));
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
	if (fd == -EBUSY || fd == -EEXIST)
		kbx_log(x, "%s: another XDP program is attached", ifname);
	else
		kbx_log(x, "%s: cannot attach XDP: %s", ifname, strerror(-fd));
	return fd;
}

int kbloom_xdp_attach(struct kbloom_xdp *x, int ifindex,
		      enum kbloom_xdp_mode mode, enum kbloom_xdp_mode *got)
{
	enum kbloom_xdp_mode m = 0;
	char ifname[IF_NAMESIZE];
	struct kbloom_params p;
	int ret, fd, ns, added = 0;
	char path[PATH_MAX];

	if (!x || ifindex <= 0 || mode > KBLOOM_XDP_MODE_GENERIC)
		return -EINVAL;
	ret = kbp_path(x->dir, path, "link_%d", ifindex);
	if (ret)
		return ret;
	ret = kbx_lock(x);
	if (ret)
		return ret;
	if (!access(path, F_OK)) {
		ret = -EEXIST;
		goto out_unlock;
	}
	ret = kbp_ns_enter(x->netns_fd, &ns);
	if (ret)
		goto out_unlock;
	if (!if_indextoname(ifindex, ifname)) {
		ret = -ENODEV;
		goto out_ns;
	}
	if (x->kind == KBLOOM_XDP_MCAST &&
	    kbx_filter_get(x, ifindex, &p) == -ENOENT) {
		ret = kbloom_mcast_port_add(x, ifindex, NULL);
		if (ret)
			goto out_ns;
		added = 1;
	}
	fd = kbx_link_create(x, x->prog_fd[XDP_PROG_MAIN], ifindex, mode, &m);
	if (fd < 0) {
		ret = fd;
		goto out_port;
	}
	ret = kbp_err(bpf_obj_pin(fd, path));
	if (ret) {
		bpf_link_detach(fd);
		close(fd);
		goto out_port;
	}
	close(fd);
	if (got)
		*got = m;
	goto out_ns;
out_port:
	if (added)
		kbloom_mcast_port_del(x, ifindex);
out_ns:
	kbp_ns_leave(ns);
out_unlock:
	kbx_unlock(x);
	return ret;
}

int kbloom_xdp_detach(struct kbloom_xdp *x, int ifindex)
{
	char path[PATH_MAX];
	int ret, fd;

	if (!x || ifindex <= 0)
		return -EINVAL;
	ret = kbp_path(x->dir, path, "link_%d", ifindex);
	if (ret)
		return ret;
	ret = kbx_lock(x);
	if (ret)
		return ret;
	fd = bpf_obj_get(path);
	if (fd < 0) {
		ret = kbp_err(fd);
		goto out;
	}
	ret = kbp_err(bpf_link_detach(fd));
	close(fd);
	if (ret == -ENOLINK)	/* the interface is gone */
		ret = 0;
	if (!ret && unlink(path))
		ret = -errno;
out:
	kbx_unlock(x);
	return ret;
}

static __u32 kbx_query_mode(int ifindex, __u32 prog_id)
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

static int kbx_link_cmp(const void *a, const void *b)
{
	const struct kbloom_xdp_link *la = a, *lb = b;

	return (la->ifindex > lb->ifindex) - (la->ifindex < lb->ifindex);
}

int kbloom_xdp_status(struct kbloom_xdp *x, struct kbloom_xdp_link *out,
		      __u32 max)
{
	struct bpf_link_info info;
	struct kbloom_xdp_link l;
	char path[PATH_MAX];
	struct dirent *e;
	int n = 0, ns, fd, ret;
	__u32 len;
	DIR *d;

	if (!x || (max && !out))
		return -EINVAL;
	d = opendir(x->dir);
	if (!d)
		return -errno;
	ret = kbp_ns_enter(x->netns_fd, &ns);
	if (ret) {
		closedir(d);
		return ret;
	}
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "link_", 5))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", x->dir,
			     e->d_name) >= (int)sizeof(path))
			continue;
		fd = bpf_obj_get(path);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		ret = bpf_obj_get_info_by_fd(fd, &info, &len);
		close(fd);
		if (ret)
			continue;
		memset(&l, 0, sizeof(l));
		l.ifindex = info.xdp.ifindex;
		l.link_id = info.id;
		l.prog_id = info.prog_id;
		l.mode = kbx_query_mode(l.ifindex, l.prog_id);
		if (!l.ifindex || !if_indextoname(l.ifindex, l.ifname))
			l.ifname[0] = 0;
		if ((__u32)n < max)
			out[n] = l;
		n++;
	}
	kbp_ns_leave(ns);
	closedir(d);
	if (out)
		qsort(out, (__u32)n < max ? (__u32)n : max, sizeof(*out),
		      kbx_link_cmp);
	return n;
}

/* Switch every link from @old_fd to @new_fd; on failure switch back. */
static int kbx_update_links(struct kbloom_xdp *x, int old_fd, int new_fd)
{
	char path[PATH_MAX];
	int fds[1024], n = 0, i, fd, ret = 0;
	struct dirent *e;
	DIR *d;

	d = opendir(x->dir);
	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < (int)(sizeof(fds) / sizeof(fds[0]))) {
		if (strncmp(e->d_name, "link_", 5))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", x->dir,
			     e->d_name) >= (int)sizeof(path))
			continue;
		fd = bpf_obj_get(path);
		if (fd >= 0)
			fds[n++] = fd;
	}
	closedir(d);
	for (i = 0; i < n; i++) {
		LIBBPF_OPTS(bpf_link_update_opts, o, .flags = BPF_F_REPLACE,
			    .old_prog_fd = old_fd);

		ret = kbp_err(bpf_link_update(fds[i], new_fd, &o));
		if (ret == -ENOLINK)	/* defunct link: interface gone */
			ret = 0;
		if (ret)
			break;
	}
	if (ret) {
		kbx_log(x, "%s: replacing the program of a link failed: %s",
			x->name, strerror(-ret));
		while (i-- > 0) {
			LIBBPF_OPTS(bpf_link_update_opts, o,
				    .flags = BPF_F_REPLACE,
				    .old_prog_fd = new_fd);

			bpf_link_update(fds[i], old_fd, &o);
		}
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
	return ret;
}

static int kbx_reuse_maps(struct kbloom_xdp *x, struct bpf_object *obj)
{
	struct bpf_map *map;
	char p[PATH_MAX];
	int fd, ret;

	bpf_object__for_each_map(map, obj) {
		if (bpf_map__is_internal(map))
			continue;
		ret = kbp_path(x->dir, p, "%s", bpf_map__name(map));
		if (ret)
			return ret;
		fd = bpf_obj_get(p);
		if (fd < 0)
			return kbp_err(fd);
		ret = bpf_map__reuse_fd(map, fd);
		close(fd);
		if (ret)
			return ret;
	}
	return 0;
}

int kbloom_xdp_replace(struct kbloom_xdp *x)
{
	const struct kbx_kind_desc *d;
	int nfd[XDP_NPROGS], i, ns, ret;
	struct bpf_program *prog;
	struct kbx_skel s = {};

	if (!x)
		return -EINVAL;
	d = &kbx_kinds[x->kind];
	for (i = 0; i < XDP_NPROGS; i++)
		nfd[i] = -1;
	ret = kbx_lock(x);
	if (ret)
		return ret;
	/* the programs in force now, whoever loaded them */
	for (i = 0; i < XDP_NPROGS; i++) {
		kbp_close_fd(&x->prog_fd[i]);
		ret = kbp_get(x->dir, d->progs[i].pin, &x->prog_fd[i]);
		if (ret)
			goto out;
	}
	if (kbx_kfunc(x)) {
		ret = kbx_kfunc_ready(x);
		if (ret)
			goto out;
	}
	ret = kbx_skel_open(&s, x);
	ret = ret ?: kbx_reuse_maps(x, s.obj);
	ret = ret ?: bpf_object__load(s.obj);
	if (ret) {
		kbx_log(x, "%s: loading the new programs failed: %s", x->name,
			strerror(-ret));
		goto out;
	}
	for (i = 0; i < XDP_NPROGS; i++) {
		if (!d->progs[i].prog)
			continue;
		prog = bpf_object__find_program_by_name(s.obj,
							d->progs[i].prog);
		nfd[i] = prog ? dup(bpf_program__fd(prog)) : -1;
		if (nfd[i] < 0) {
			ret = -ENOENT;
			goto out;
		}
	}
	ret = kbp_ns_enter(x->netns_fd, &ns);
	if (ret)
		goto out;
	ret = kbx_update_links(x, x->prog_fd[XDP_PROG_MAIN],
			       nfd[XDP_PROG_MAIN]);
	if (!ret && x->kind == KBLOOM_XDP_MCAST) {
		ret = kbx_mcast_replace_ports(x, nfd[XDP_PROG_EGRESS]);
		if (ret) {
			kbx_mcast_replace_ports(x, x->prog_fd[XDP_PROG_EGRESS]);
			kbx_update_links(x, nfd[XDP_PROG_MAIN],
					 x->prog_fd[XDP_PROG_MAIN]);
		}
	}
	kbp_ns_leave(ns);
	if (ret)
		goto out;
	for (i = 0; i < XDP_NPROGS; i++) {
		if (nfd[i] < 0)
			continue;
		ret = kbp_repin(x->dir, nfd[i], d->progs[i].pin);
		if (ret)
			kbx_log(x, "%s: re-pinning %s failed: %s", x->name,
				d->progs[i].pin, strerror(-ret));
		kbp_close_fd(&x->prog_fd[i]);
		x->prog_fd[i] = nfd[i];
		nfd[i] = -1;
	}
	ret = 0;
out:
	for (i = 0; i < XDP_NPROGS; i++)
		kbp_close_fd(&nfd[i]);
	kbx_skel_close(&s);
	kbx_unlock(x);
	return ret;
}

/* ---- the veth peer program ---------------------------------------------------- */

int kbloom_xdp_pass_attach(int ifindex, enum kbloom_xdp_mode mode,
			   const char *pin_path, int *link_fd)
{
	struct kbloom_xdp dummy = { .dir_fd = -1 };
	enum kbloom_xdp_mode got;
	struct kbloom_pass *s;
	int fd, ret = 0;

	if (ifindex <= 0 || mode > KBLOOM_XDP_MODE_GENERIC ||
	    (!pin_path && !link_fd))
		return -EINVAL;
	s = kbloom_pass__open_and_load();
	if (!s)
		return -errno ?: -ENOMEM;
	fd = kbx_link_create(&dummy, bpf_program__fd(s->progs.kbloom_pass),
			     ifindex, mode, &got);
	kbloom_pass__destroy(s);
	if (fd < 0)
		return fd;
	if (pin_path) {
		ret = kbp_err(bpf_obj_pin(fd, pin_path));
		if (ret)
			bpf_link_detach(fd);
		close(fd);
		return ret;
	}
	*link_fd = fd;
	return 0;
}
