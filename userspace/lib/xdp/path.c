// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: what the mcast and gate kinds share (their
 * struct kbi_ops point here, their struct kbx_desc says what differs):
 * loading and pinning a path, opening its pins, the variants (map-backed
 * or kfunc) and the module filter names of kfunc instances, replacing
 * the programs, and the kbloom_xdp_*() calls that are the core's.
 * Filters are in filter.c, the kinds in kind_mcast.c and kind_gate.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "uapi/kbloom_plan.h"
#include "uapi/kbloom_xdp_maps.h"
#include "uapi/kbloom_kfunc.h"
#include "libkbloom_dev.h"
#include "xdp_priv.h"

/* ---- geometry ---------------------------------------------------------------- */

int kbloom_xdp_geom_plan(struct kbloom_xdp_geom *g)
{
	struct kb_plan plan;
	int ret;

	if (!g || g->region_bits || g->pad)
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

/* ---- handles ---------------------------------------------------------------- */

static int kbx_path_exists(const char *dir, const char *leaf)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, leaf);
	return access(p, F_OK) == 0;
}

static struct kbloom_xdp *kbx_alloc(struct kbloom_inst *i)
{
	struct kbloom_xdp *x = calloc(1, sizeof(*x));
	int k;

	if (!x)
		return NULL;
	x->inst = i;
	x->desc = i->ops->data;
	x->name = i->name;
	x->dir = i->dir;
	x->params_fd = -1;
	x->filters_fd = -1;
	x->stats_fd = -1;
	x->exact_fd = -1;
	x->config_fd = -1;
	x->ports_fd = -1;
	x->plist_fd = -1;
	x->btf_fd = -1;
	x->variant = KBLOOM_XDP_VARIANT_MAP;
	x->kfilter_fd = -1;
	x->dev_fd = -1;
	x->del_fd = -1;
	x->pfast_fd = -1;
	x->groups_fd = -1;
	x->gcache_fd = -1;
	for (k = 0; k < XDP_NPROGS; k++)
		x->prog_fd[k] = -1;
	i->priv = x;
	return x;
}

/* Release the handle of an mcast or gate instance. */
void kbx_inst_close(struct kbloom_inst *inst)
{
	struct kbloom_xdp *x = inst->priv;
	int i;

	kbx_filter_release(x);
	kbx_cuckoo_close(x);
	kbx_pfast_close(x);

	kbp_close_fd(&x->params_fd);
	kbp_close_fd(&x->filters_fd);
	kbp_close_fd(&x->stats_fd);
	kbp_close_fd(&x->exact_fd);
	kbp_close_fd(&x->config_fd);
	kbp_close_fd(&x->ports_fd);
	kbp_close_fd(&x->plist_fd);
	kbp_close_fd(&x->btf_fd);
	kbp_close_fd(&x->kfilter_fd);
	kbp_close_fd(&x->dev_fd);
	kbp_close_fd(&x->del_fd);
	kbx_mcast_groups_close(x);
	for (i = 0; i < XDP_NPROGS; i++)
		kbp_close_fd(&x->prog_fd[i]);
	x->inst->priv = NULL;
	free(x);
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

/* The index in kbx_desc.objs of @x's variant's object. */
static int kbx_obj_index(const struct kbloom_xdp *x)
{
	if (x->variant == KBLOOM_XDP_VARIANT_CUCKOO)
		return 2;
	if (x->variant == KBLOOM_XDP_VARIANT_DELETABLE)
		return 3;
	return kbx_kfunc(x);
}

/* The pinned maps of @x have this build's layout (its variant's object). */
static int kbx_pins_match(const struct kbloom_xdp *x)
{
	return kbp_pins_match(&x->desc->objs[kbx_obj_index(x)], x->dir);
}

static int kbx_open_pins(struct kbloom_xdp *x)
{
	const struct kbx_desc *d;
	__u32 btf_id = 0, max = 0;
	int i, ret;

	d = x->desc;
	ret = kbp_get(x->dir, d->params, &x->params_fd);
	ret = ret ?: kbp_get(x->dir, d->filters, &x->filters_fd);
	ret = ret ?: kbp_get(x->dir, d->stats, &x->stats_fd);
	ret = ret ?: kbp_get(x->dir, d->exact, &x->exact_fd);
	ret = ret ?: kbp_get(x->dir, d->config, &x->config_fd);
	ret = ret ?: kbp_get(x->dir, d->ports, &x->ports_fd);
	/* none in an instance pinned before it (its programs need none) */
	if (!ret && d->plist && kbx_path_exists(x->dir, d->plist))
		ret = kbp_get(x->dir, d->plist, &x->plist_fd);
	/* none in an instance pinned before it: its programs look up */
	if (!ret && d->pfast && kbx_path_exists(x->dir, d->pfast))
		ret = kbx_pfast_open(x);
	/* none in an instance pinned before it: its programs audit per copy */
	if (!ret && d->groups && kbx_path_exists(x->dir, d->groups))
		ret = kbx_mcast_groups_open(x);
	if (!ret && kbx_path_exists(x->dir, d->kfilter)) {
		x->variant = KBLOOM_XDP_VARIANT_KFUNC;
		ret = kbp_get(x->dir, d->kfilter, &x->kfilter_fd);
	}
	if (!ret && d->cuckoo && kbx_path_exists(x->dir, d->cuckoo)) {
		x->variant = KBLOOM_XDP_VARIANT_CUCKOO;
		ret = kbx_cuckoo_open(x);
	}
	if (!ret && d->deletable && kbx_path_exists(x->dir, d->deletable)) {
		x->variant = KBLOOM_XDP_VARIANT_DELETABLE;
		ret = kbp_get(x->dir, d->deletable, &x->del_fd);
	}
	for (i = 0; !ret && i < XDP_NPROGS; i++)
		ret = kbp_get(x->dir, d->progs[i].pin, &x->prog_fd[i]);
	ret = ret ?: kbx_pins_match(x);
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

int kbx_inst_open(struct kbloom_inst *i)
{
	struct kbloom_xdp *x = kbx_alloc(i);

	return x ? kbx_open_pins(x) : -ENOMEM;
}

int kbx_inst_prog_fd(const struct kbloom_inst *i)
{
	const struct kbloom_xdp *x = i->priv;

	return x->prog_fd[XDP_PROG_MAIN];
}

/* The variant and module filter of an instance, for its kind's info. */
void kbx_info(struct kbloom_xdp *x, struct kbloom_inst_info *info)
{
	info->variant = x->variant;
	if (kbx_module_name(x, 0, info->module_filter))
		info->module_filter[0] = 0;
	info->fields |= KBLOOM_INST_INFO_VARIANT;
}

/* ---- the kbloom_xdp_*() calls of the core ------------------------------------- */

struct kbloom_inst *kbloom_xdp_inst(struct kbloom_xdp *x)
{
	return x ? x->inst : NULL;
}

struct kbloom_xdp *kbloom_xdp_of(struct kbloom_inst *i)
{
	return i && i->ops->open == kbx_inst_open ? i->priv : NULL;
}

void kbloom_xdp_close(struct kbloom_xdp *x)
{
	if (x)
		kbloom_inst_close(x->inst);
}

int kbloom_xdp_destroy(struct kbloom_xdp *x)
{
	return x ? kbloom_inst_destroy(x->inst) : -EINVAL;
}

enum kbloom_xdp_kind kbloom_xdp_kind(const struct kbloom_xdp *x)
{
	return x->desc->xdp_kind;
}

const char *kbloom_xdp_dir(const struct kbloom_xdp *x)
{
	return x->dir;
}

enum kbloom_xdp_variant kbloom_xdp_variant(const struct kbloom_xdp *x)
{
	return x->variant;
}

int kbloom_xdp_attach(struct kbloom_xdp *x, int ifindex,
		      enum kbloom_xdp_mode mode, enum kbloom_xdp_mode *got)
{
	return x ? kbloom_inst_attach(x->inst, ifindex, mode, got) : -EINVAL;
}

int kbloom_xdp_detach(struct kbloom_xdp *x, int ifindex)
{
	return x ? kbloom_inst_detach(x->inst, ifindex) : -EINVAL;
}

int kbloom_xdp_status(struct kbloom_xdp *x, struct kbloom_xdp_link *out,
		      __u32 max)
{
	return x ? kbloom_inst_status(x->inst, out, max) : -EINVAL;
}

int kbloom_xdp_replace(struct kbloom_xdp *x)
{
	return x ? kbloom_inst_replace(x->inst) : -EINVAL;
}

/* ---- module filters (kfunc variant) --------------------------------------- */

int kbx_kfunc(const struct kbloom_xdp *x)
{
	return x->variant == KBLOOM_XDP_VARIANT_KFUNC;
}

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

static int kbx_name_id_ok(const struct kbloom_xdp *x, __u32 id)
{
	return x->desc->multi ? id <= INT_MAX : !id;
}

/* The name of interface @ifindex in the instance's namespace. */
static int kbx_ifname(const struct kbloom_xdp *x, int ifindex,
		      char buf[IF_NAMESIZE])
{
	return kbi_ifname(x->inst, ifindex, buf);
}

/*
 * @name as stored for @id: a valid name, "%s" replaced by the interface
 * of port @id; for id 0 of mcast the pattern itself.
 */
static int kbx_name_make(const struct kbloom_xdp *x, __u32 id,
			 const char *name, char out[KBLOOM_NAME_LEN])
{
	char ifname[IF_NAMESIZE] = "a";	/* stands in for any interface */
	int pattern = x->desc->multi && !id;
	int ret;

	if (strstr(name, "%s")) {
		if (!x->desc->multi)
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
		x->name, name, x->desc->multi ?
		", and one %s for the port's interface name" : "");
	return -EINVAL;
}

int kbx_module_name(struct kbloom_xdp *x, __u32 id,
		    char name[KBLOOM_NAME_LEN])
{
	struct kbloom_kfunc_ref r;
	int ret;

	if (!kbx_kfunc(x))
		return -EOPNOTSUPP;
	ret = kbp_err(bpf_map_lookup_elem(x->kfilter_fd, &id, &r));
	if (ret)
		return ret;
	memcpy(name, r.name, KBLOOM_NAME_LEN);
	name[KBLOOM_NAME_LEN - 1] = 0;
	return name[0] ? 0 : -ENOENT;	/* the gate's array: no name */
}

int kbx_module_name_del(struct kbloom_xdp *x, __u32 id)
{
	if (!kbx_kfunc(x))
		return 0;
	return kbx_module_ref_clear(x, id);
}

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
	ret = ret ?: kbx_may_fn_module(x, name);
	return ret ?: kbx_module_ref_set(x, ifindex, name);
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
	ret = kbx_module_dev(x);
	if (ret) {
		kbx_log(x, "%s: module filter %s: %s: %s", x->name, name,
			KBLOOM_DEVICE, strerror(-ret));
		return ret;
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
		ret = ret ?: kbx_may_fn_module(x, n);
		if (ret)
			return ret;
	}
	ret = kbx_lock(x);
	if (ret)
		return ret;
	if (name && *name)
		ret = kbx_module_ref_set(x, id, n);
	else
		ret = kbx_module_name_del(x, id);
	kbx_unlock(x);
	return ret;
}

/* ---- loading -------------------------------------------------------------- */

/* The object of @x's kind and variant, opened from its skeleton's ELF. */
static int kbx_obj_open(const struct kbloom_xdp *x, struct bpf_object **obj)
{
	return kbp_obj_open(&x->desc->objs[kbx_obj_index(x)], obj);
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
	const struct kbx_desc *d = x->desc;
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
	const struct kbx_desc *d = x->desc;
	__u32 nf = x->desc->multi ? x->max_filters : 1;
	__u32 keys = o && o->max_keys ? o->max_keys : XDP_DEF_MAX_KEYS;
	struct bpf_object *obj = NULL;
	int ret;

	if (x->variant == KBLOOM_XDP_VARIANT_KFUNC) {
		ret = kbx_kfunc_ready(x);
		if (ret)
			return ret;
	}
	ret = kbx_obj_open(x, &obj);
	if (ret)
		return ret;
	ret = kbp_set_max(obj, d->params, nf);
	ret = ret ?: kbp_set_max(obj, d->filters,
				 nf * KBLOOM_SLOTS_PER_FILTER);
	ret = ret ?: kbp_set_max(obj, d->exact, keys);
	ret = ret ?: kbp_set_max(obj, d->groups, keys);
	if (d->multi) {
		ret = ret ?: kbp_set_max(obj, d->stats, nf);
		ret = ret ?: kbp_set_max(obj, d->ports, nf);
		ret = ret ?: kbp_set_max(obj, d->plist, nf + 1);
		/* the ports' names and the name of new ports (id 0) */
		if (x->variant == KBLOOM_XDP_VARIANT_KFUNC)
			ret = ret ?: kbp_set_max(obj, d->kfilter, nf + 1);
		if (x->variant == KBLOOM_XDP_VARIANT_CUCKOO)
			ret = ret ?: kbp_set_max(obj, d->cuckoo, nf);
		if (x->variant == KBLOOM_XDP_VARIANT_DELETABLE)
			ret = ret ?: kbp_set_max(obj, d->deletable, nf);
	}
	if (!ret) {
		ret = bpf_object__load(obj);
		if (ret)
			kbx_log(x, "%s: loading the %s%s programs failed: %s",
				x->name,
				x->variant == KBLOOM_XDP_VARIANT_KFUNC ?
				"kfunc " : "",
				x->inst->ops->kind,
				strerror(-ret));
	}
	ret = ret ?: kbx_pin_obj(x, obj);
	bpf_object__close(obj);
	return ret;
}

/*
 * The cuckoo and deletable variants: a kind whose object [@obj] exists
 * (else "a @what filter is for @kinds only"), no module filter, a plan.
 */
static int kbx_variant_own(struct kbloom_xdp *x,
			   const struct kbloom_xdp_opts *o, __u32 v, int obj,
			   const char *what, const char *kinds)
{
	struct kbloom_cuckoo_params cp;
	struct kbloom_del_params dp;

	if (!x->desc->objs[obj].name) {
		kbx_log(x, "%s: a %s filter is for %s only", x->name, what,
			kinds);
		return -EINVAL;
	}
	if (o->module_filter && *o->module_filter) {
		kbx_log(x, "%s: a module filter needs the kfunc variant",
			x->name);
		return -EINVAL;
	}
	x->variant = v;
	if (v == KBLOOM_XDP_VARIANT_CUCKOO)
		return kbx_cuckoo_geom(x, &o->geom, &cp);
	return kbx_del_geom(x, &o->geom, &dp);
}

/* The variant of a new instance (see enum kbloom_xdp_variant). */
static int kbx_variant_pick(struct kbloom_xdp *x,
			    const struct kbloom_xdp_opts *o)
{
	const char *mf = o ? o->module_filter : NULL;
	__u32 v = o ? o->variant : KBLOOM_XDP_VARIANT_AUTO;
	char tmp[KBLOOM_NAME_LEN];

	if (v > KBLOOM_XDP_VARIANT_DELETABLE) {
		kbx_log(x, "%s: unknown variant %u", x->name, v);
		return -EINVAL;
	}
	if (v == KBLOOM_XDP_VARIANT_CUCKOO)
		return kbx_variant_own(x, o, v, 2, "cuckoo", "the gate and mcast");
	if (v == KBLOOM_XDP_VARIANT_DELETABLE)
		return kbx_variant_own(x, o, v, 3, "deletable", "mcast ports");
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

int kbx_inst_create(struct kbloom_inst *i, const void *opts)
{
	const struct kbloom_xdp_opts *o = opts;
	struct kbloom_params geom;
	struct kbloom_xdp *x = kbx_alloc(i);
	int ret;

	if (!x)
		return -ENOMEM;
	x->max_filters = o && o->max_filters ? o->max_filters :
			 XDP_DEF_MAX_PORTS;
	ret = kbx_variant_pick(x, o);
	if (ret)
		return ret;
	if (x->variant != KBLOOM_XDP_VARIANT_CUCKOO && !kbx_deletable(x) &&
	    kbx_geom_to_params(o ? &o->geom : NULL, &geom)) {
		kbx_log(x, "%s: bad filter geometry", x->name);
		return -EINVAL;
	}
	ret = kbx_load_new(x, o);
	ret = ret ?: kbx_open_pins(x);
	ret = ret ?: x->desc->init(x, o);
	if (!ret && kbx_kfunc(x) && o && o->module_filter && *o->module_filter)
		ret = kbloom_xdp_set_module_filter(x, 0, o->module_filter);
	return ret;
}

/* ---- replace ------------------------------------------------------------------ */

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
		if (fd < 0) {
			ret = kbp_err(fd);
			if (ret == -ENOENT)
				kbx_log(x, "%s: no pinned %s: the instance was made by an older kbloom (destroy and create it again)",
					x->name, bpf_map__name(map));
			return ret;
		}
		ret = bpf_map__reuse_fd(map, fd);
		close(fd);
		if (ret)
			return ret;
	}
	return 0;
}

int kbx_inst_ext_open(struct kbloom_inst *i, struct bpf_object **obj,
		      const char **prog)
{
	struct kbloom_xdp *x = i->priv;
	int ret;

	*obj = NULL;
	ret = kbx_obj_open(x, obj);
	ret = ret ?: kbx_reuse_maps(x, *obj);
	if (ret) {
		bpf_object__close(*obj);
		*obj = NULL;
		return ret;
	}
	*prog = x->desc->progs[XDP_PROG_MAIN].prog;
	return 0;
}

/* New programs of @x's variant, on the maps of @x: their fds in @nfd. */
static int kbx_reload(struct kbloom_xdp *x, int nfd[XDP_NPROGS])
{
	const struct kbx_desc *d = x->desc;
	struct bpf_program *prog;
	struct bpf_object *obj = NULL;
	int i, ret = 0;

	if (kbx_kfunc(x))
		ret = kbx_kfunc_ready(x);
	ret = ret ?: kbx_obj_open(x, &obj);
	ret = ret ?: kbx_reuse_maps(x, obj);
	ret = ret ?: bpf_object__load(obj);
	if (ret) {
		kbx_log(x, "%s: loading the new programs failed: %s", x->name,
			strerror(-ret));
		goto out;
	}
	for (i = 0; i < XDP_NPROGS; i++) {
		if (!d->progs[i].prog)
			continue;
		prog = bpf_object__find_program_by_name(obj,
							d->progs[i].prog);
		nfd[i] = prog ? dup(bpf_program__fd(prog)) : -1;
		if (nfd[i] < 0) {
			ret = -ENOENT;
			goto out;
		}
	}
out:
	bpf_object__close(obj);
	return ret;
}

/* Links first, then the devmap; undo the links when the devmap fails. */
static int kbx_switch(struct kbloom_xdp *x, const int nfd[XDP_NPROGS])
{
	int ns, ret;

	ret = kbp_ns_enter(x->inst->netns_fd, &ns);
	if (ret)
		return ret;
	ret = kbi_links_update(x->inst, x->prog_fd[XDP_PROG_MAIN],
			       nfd[XDP_PROG_MAIN]);
	if (!ret && x->desc->ports_replace) {
		ret = x->desc->ports_replace(x, nfd[XDP_PROG_EGRESS]);
		if (ret) {
			x->desc->ports_replace(x, x->prog_fd[XDP_PROG_EGRESS]);
			kbi_links_update(x->inst, nfd[XDP_PROG_MAIN],
					 x->prog_fd[XDP_PROG_MAIN]);
		}
	}
	kbp_ns_leave(ns);
	return ret;
}

int kbx_inst_replace(struct kbloom_inst *inst)
{
	struct kbloom_xdp *x = inst->priv;
	const struct kbx_desc *d = x->desc;
	int nfd[XDP_NPROGS], i, ret = 0;

	for (i = 0; i < XDP_NPROGS; i++)
		nfd[i] = -1;
	/* the programs in force now, whoever loaded them */
	for (i = 0; !ret && i < XDP_NPROGS; i++) {
		kbp_close_fd(&x->prog_fd[i]);
		ret = kbp_get(x->dir, d->progs[i].pin, &x->prog_fd[i]);
	}
	/* the new programs start from ids resolved now (a failure: by name) */
	if (!ret && kbx_kfunc(x) && kbx_module_resolve(x) < 0)
		kbx_log(x, "%s: module filter ids not resolved: the programs look the names up",
			x->name);
	ret = ret ?: kbx_reload(x, nfd);
	ret = ret ?: kbx_switch(x, nfd);
	for (i = 0; !ret && i < XDP_NPROGS; i++) {
		if (nfd[i] < 0)
			continue;
		if (kbp_repin(x->dir, nfd[i], d->progs[i].pin))
			kbx_log(x, "%s: re-pinning %s failed", x->name,
				d->progs[i].pin);
		kbp_close_fd(&x->prog_fd[i]);
		x->prog_fd[i] = nfd[i];
		nfd[i] = -1;
	}
	for (i = 0; i < XDP_NPROGS; i++)
		kbp_close_fd(&nfd[i]);
	return ret;
}
