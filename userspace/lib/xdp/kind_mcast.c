// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the mcast kind (bpf/kbloom_mcast.bpf.c).
 *
 * A port is three things: a devmap entry (mc_ports) that runs the egress
 * program, a filter (mc_params + mc_filters, id = ifindex) and a counters
 * index (mc_stats).  mc_members is the exact record of the memberships:
 * the filter of a port is always rebuilt from it, and the programs count
 * leaks from it, through mc_groups and mc_gcache (its ports by group,
 * kind_mcast_groups.c: every write of a membership key updates them).
 * Its value is the set of sources of a
 * membership (KBLOOM_MEMBER_STATIC, _BRIDGE): a source leaving takes the
 * group out of the filter only when it was the last.  A router port has
 * the key of length 0: its filter is all ones, it receives every group.
 *
 * kfunc variant (bpf/kbloom_kfunc_mcast.bpf.c): the egress program tests
 * the module filter named for the port in mc_kfilter (a new port takes
 * the name of id 0, "%s" its interface).  A join also adds the group to
 * the module filter, a leave deletes it there (one KBLOOM_IOCTL_DEL of a
 * counting filter: no rebuild); the port's blocks map stays the loader's
 * record of its memberships.
 *
 * cuckoo variant (bpf/kbloom_cuckoo_mcast.bpf.c, kind_mcast_cuckoo.c):
 * each port's filter is a cuckoo filter; a join inserts the group's
 * fingerprint (-ENOSPC undoes the membership), a leave deletes it after
 * the membership, so the filter holds exactly the port's groups.  No
 * router ports (a filter of every group).
 *
 * deletable variant (bpf/kbloom_deletable_mcast.bpf.c, kind_mcast_del.c):
 * each port's filter is a deletable Bloom filter; a join sets the group's
 * bits, a leave (after the membership) clears them in place when the
 * group is deletable, else rebuilds the filter from mc_members.  No
 * router ports.
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "uapi/kbloom_xdp_maps.h"
#include "bpf/kbloom_mcast.skel.h"
#include "bpf/kbloom_kfunc_mcast.skel.h"
#include "bpf/kbloom_cuckoo_mcast.skel.h"
#include "bpf/kbloom_deletable_mcast.skel.h"
#include "libkbloom_dev.h"
#include "kinds.h"
#include "xdp_priv.h"

static int mcast_check(const struct kbloom_xdp *x)
{
	return x && x->inst->ops == &kbx_mcast_ops ? 0 : -EINVAL;
}

/* Known flags, and at most one way of handling link-local groups. */
static bool mcast_flags_ok(__u32 flags)
{
	return !(flags & ~KBLOOM_MCAST_F_ALL) &&
	       (flags & KBLOOM_MCAST_F_LOCAL_MASK) != KBLOOM_MCAST_F_LOCAL_MASK;
}

static int mcast_init(struct kbloom_xdp *x,
		      const struct kbloom_xdp_opts *o)
{
	struct kbloom_mcast_cfg cfg = {};
	struct kbloom_xdp_geom g = {};
	__u32 zero = 0;
	int ret;

	cfg.flags = KBLOOM_MCAST_F_AUDIT;
	if (o && (o->opt_flags & KBLOOM_XDP_OPT_FLAGS))
		cfg.flags = o->flags;
	if (!mcast_flags_ok(cfg.flags)) {
		kbx_log(x, "%s: unknown mcast flags %#x", x->name, cfg.flags);
		return -EINVAL;
	}
	if (o)
		g = o->geom;
	/* a cuckoo or deletable switch's: checked by its variant's planner */
	ret = kbx_cuckoo(x) || kbx_deletable(x) ? 0 : kbloom_xdp_geom_plan(&g);
	if (ret)
		return ret;
	cfg.def_region_bits = g.region_bits;
	cfg.def_m = g.m;
	cfg.def_k = g.k;
	cfg.def_hash_id = g.hash_id;
	cfg.def_seed = g.seed;
	cfg.def_capacity = g.capacity;
	cfg.def_fpr_pico = g.fpr_pico;
	return kbp_err(bpf_map_update_elem(x->config_fd, &zero, &cfg, 0));
}

/* The filter of a new port: @geom, or the instance's default. */
static int mcast_port_geom(struct kbloom_xdp *x,
			   const struct kbloom_xdp_geom *geom,
			   struct kbloom_xdp_geom *g)
{
	struct kbloom_mcast_cfg cfg;
	__u32 zero = 0;
	int ret;

	memset(g, 0, sizeof(*g));
	if (geom) {
		*g = *geom;
		return 0;
	}
	ret = kbp_err(bpf_map_lookup_elem(x->config_fd, &zero, &cfg));
	if (ret)
		return ret;
	g->m = cfg.def_m;
	g->k = cfg.def_k;
	g->hash_id = cfg.def_hash_id;
	g->seed = cfg.def_seed;
	g->capacity = cfg.def_capacity;
	g->fpr_pico = cfg.def_fpr_pico;
	g->region_bits = cfg.def_region_bits;
	return 0;
}

/*
 * Port @id's record in mc_params: a blocked filter's, or a cuckoo or
 * deletable port's.
 */
static int mcast_port_get(struct kbloom_xdp *x, __u32 id,
			  struct kbloom_params *p)
{
	if (!kbx_cuckoo(x) && !kbx_deletable(x))
		return kbx_filter_get(x, id, p);
	return kbp_err(bpf_map_lookup_elem(x->params_fd, &id, p));
}

/* A new port's filter of geometry @g (@p: its blocked parameters). */
static int mcast_filter_new(struct kbloom_xdp *x, __u32 id, __u32 index,
			    const struct kbloom_xdp_geom *g,
			    const struct kbloom_params *p)
{
	if (kbx_cuckoo(x))
		return kbx_mcast_cuckoo_port_add(x, id, index, g);
	if (kbx_deletable(x))
		return kbx_mcast_del_port_add(x, id, index, g);
	return kbx_filter_create(x, id, index, p);
}

static int mcast_filter_del(struct kbloom_xdp *x, __u32 id)
{
	if (kbx_cuckoo(x))
		return kbx_mcast_cuckoo_port_del(x, id);
	if (kbx_deletable(x))
		return kbx_mcast_del_port_del(x, id);
	return kbx_filter_remove(x, id);
}

/* Group @key into port @id's filter (locked), whatever its variant. */
static int mcast_filter_add(struct kbloom_xdp *x, __u32 id, const void *key,
			    __u32 len)
{
	if (kbx_cuckoo(x))
		return kbx_cuckoo_keys(x, id, 1, key, len);
	if (kbx_deletable(x))
		return kbx_mcast_del_join(x, id, key, len);
	return kbx_filter_add_locked(x, id, key, len);
}

/* The geometry @g of a new port checked by its variant's planner. */
static int mcast_geom_check(struct kbloom_xdp *x,
			    const struct kbloom_xdp_geom *g,
			    struct kbloom_params *p)
{
	struct kbloom_cuckoo_params cp;
	struct kbloom_del_params dp;

	if (kbx_cuckoo(x))
		return kbx_cuckoo_geom(x, g, &cp);
	if (kbx_deletable(x))
		return kbx_del_geom(x, g, &dp);
	return kbx_geom_to_params(g, p);
}

static int mcast_zero_stats(struct kbloom_xdp *x, __u32 index)
{
	int ncpu = libbpf_num_possible_cpus();
	void *zero;
	int ret;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	zero = calloc(ncpu, sizeof(struct kbloom_mcast_stats));
	if (!zero)
		return -ENOMEM;
	ret = kbp_err(bpf_map_update_elem(x->stats_fd, &index, zero, 0));
	free(zero);
	return ret;
}

/* The lowest counters index no port uses. */
static int mcast_free_index(struct kbloom_xdp *x, __u32 *index)
{
	struct kbloom_params p;
	__u32 key, next, i;
	__u8 *used;
	int ret = 0;

	used = calloc(x->max_filters, 1);
	if (!used)
		return -ENOMEM;
	for (ret = bpf_map_get_next_key(x->params_fd, NULL, &next); !ret;
	     ret = bpf_map_get_next_key(x->params_fd, &key, &next)) {
		key = next;
		if (!bpf_map_lookup_elem(x->params_fd, &key, &p) &&
		    p.index < x->max_filters)
			used[p.index] = 1;
	}
	ret = -ENOSPC;
	for (i = 0; i < x->max_filters; i++) {
		if (!used[i]) {
			*index = i;
			ret = 0;
			break;
		}
	}
	free(used);
	return ret;
}

/*
 * Port list (mc_plist, bpf/kbloom_mcast_once.h): counters index @index
 * is port @ifindex (0: none).  One 32-bit element at a time; the walk's
 * length (element 0) only grows.  An instance pinned before the list
 * has none (its programs decide at egress).
 */
static int mcast_plist_set(struct kbloom_xdp *x, __u32 index, __u32 ifindex)
{
	__u32 key = index + 1, zero = 0, hi;
	int ret;

	if (x->plist_fd < 0)
		return 0;
	ret = kbp_err(bpf_map_update_elem(x->plist_fd, &key, &ifindex, 0));
	if (ret || !ifindex)
		return ret;
	ret = kbp_err(bpf_map_lookup_elem(x->plist_fd, &zero, &hi));
	if (ret || hi >= key)
		return ret;
	return kbp_err(bpf_map_update_elem(x->plist_fd, &zero, &key, 0));
}

int kbloom_mcast_port_add(struct kbloom_xdp *x, int ifindex,
			  const struct kbloom_xdp_geom *geom)
{
	struct bpf_devmap_val v = {};
	char ifname[IF_NAMESIZE];
	struct kbloom_xdp_geom g;
	struct kbloom_params p;
	__u32 id = ifindex, index;
	int ret, ns;

	ret = mcast_check(x);
	if (ret || ifindex <= 0)
		return -EINVAL;
	ret = mcast_port_geom(x, geom, &g);
	ret = ret ?: mcast_geom_check(x, &g, &p);
	if (ret) {
		kbx_log(x, "%s: bad filter geometry for port %d", x->name,
			ifindex);
		return ret;
	}
	ret = kbx_lock(x);
	if (ret)
		return ret;
	if (!mcast_port_get(x, id, &p)) {
		ret = -EEXIST;
		goto out_unlock;
	}
	ret = mcast_free_index(x, &index);
	if (ret) {
		kbx_log(x, "%s: no room for another port (max %u)", x->name,
			x->max_filters);
		goto out_unlock;
	}
	ret = kbp_ns_enter(x->inst->netns_fd, &ns);
	if (ret)
		goto out_unlock;
	if (!if_indextoname(ifindex, ifname)) {
		ret = -ENODEV;
		goto out_ns;
	}
	ret = mcast_filter_new(x, id, index, &g, &p);
	ret = ret ?: mcast_zero_stats(x, index);
	ret = ret ?: kbx_module_name_port(x, ifindex);
	ret = ret ?: mcast_plist_set(x, index, id);
	if (ret)
		goto out_filter;
	v.ifindex = id;
	v.bpf_prog.fd = x->prog_fd[XDP_PROG_EGRESS];
	ret = kbp_err(bpf_map_update_elem(x->ports_fd, &id, &v, 0));
	if (ret) {
		kbx_log(x, "%s: cannot add ifindex %d to mc_ports: %s",
			x->name, ifindex, strerror(-ret));
		goto out_filter;
	}
	goto out_ns;
out_filter:
	mcast_plist_set(x, index, 0);
	mcast_filter_del(x, id);
out_ns:
	kbp_ns_leave(ns);
out_unlock:
	kbx_unlock(x);
	return ret;
}

/* Collect the keys of mc_members, of port @ifindex only when > 0. */
static int mcast_members_of(struct kbloom_xdp *x, int ifindex,
			    struct kbloom_member_key **out, __u32 *n)
{
	struct kbloom_member_key key, next, *v = NULL, *t;
	__u32 cnt = 0, cap = 0;
	int ret;

	for (ret = bpf_map_get_next_key(x->exact_fd, NULL, &next); !ret;
	     ret = bpf_map_get_next_key(x->exact_fd, &key, &next)) {
		key = next;
		if (ifindex > 0 && key.ifindex != (__u32)ifindex)
			continue;
		if (cnt == cap) {
			cap = cap ? cap * 2 : 64;
			t = realloc(v, cap * sizeof(*v));
			if (!t) {
				free(v);
				return -ENOMEM;
			}
			v = t;
		}
		v[cnt++] = key;
	}
	*out = v;
	*n = cnt;
	return 0;
}

int kbloom_mcast_port_del(struct kbloom_xdp *x, int ifindex)
{
	struct kbloom_member_key *m;
	struct kbloom_params p;
	__u32 id = ifindex, n, i;
	int ret;

	ret = mcast_check(x);
	if (ret || ifindex <= 0)
		return -EINVAL;
	ret = kbx_lock(x);
	if (ret)
		return ret;
	ret = mcast_port_get(x, id, &p);
	if (ret)
		goto out;
	ret = kbloom_xdp_detach(x, ifindex);
	if (ret && ret != -ENOENT)
		goto out;
	bpf_map_delete_elem(x->ports_fd, &id);
	mcast_plist_set(x, p.index, 0);
	if (!mcast_members_of(x, ifindex, &m, &n)) {
		for (i = 0; i < n; i++) {
			kbx_mcast_group_set(x, &m[i], 0);
			bpf_map_delete_elem(x->exact_fd, &m[i]);
		}
		free(m);
	}
	ret = mcast_filter_del(x, id);
	mcast_zero_stats(x, p.index);
	kbx_module_name_del(x, id);
out:
	kbx_unlock(x);
	return ret;
}

/* Point every devmap entry at @egress_fd, or delete them all if < 0. */
static int mcast_ports_replace(struct kbloom_xdp *x, int egress_fd)
{
	__u32 *keys, n, i;
	struct bpf_devmap_val v;
	int ret;

	ret = kbp_map_keys(x->ports_fd, &keys, &n);
	if (ret)
		return ret;
	for (i = 0; i < n && !ret; i++) {
		if (egress_fd < 0) {
			bpf_map_delete_elem(x->ports_fd, &keys[i]);
			continue;
		}
		memset(&v, 0, sizeof(v));
		v.ifindex = keys[i];
		v.bpf_prog.fd = egress_fd;
		ret = kbp_err(bpf_map_update_elem(x->ports_fd, &keys[i], &v,
						  BPF_EXIST));
	}
	free(keys);
	return ret;
}

/* -EINVAL for a group that is not a multicast address (kb_member_key()). */
static int mcast_key(struct kbloom_member_key *k, int ifindex,
		     const void *group, __u32 len)
{
	return kb_member_key(k, (__u32)ifindex, group, len) ? -EINVAL : 0;
}

/* One or more known sources. */
static int mcast_src_ok(__u32 src)
{
	return src && !(src & ~KBLOOM_MEMBER_ALL) ? 0 : -EINVAL;
}

/*
 * Source @src of the existing membership @k: -EEXIST when it has it
 * already, else added (the filter holds the group already).  -ENOENT when
 * there is no such membership.
 */
static int mcast_source_add(struct kbloom_xdp *x,
			    const struct kbloom_member_key *k, __u32 src)
{
	__u32 v;
	int ret;

	ret = kbp_err(bpf_map_lookup_elem(x->exact_fd, k, &v));
	if (ret)
		return ret;
	if (v & src)
		return -EEXIST;
	v |= src;
	return kbp_err(bpf_map_update_elem(x->exact_fd, k, &v, BPF_EXIST));
}

/*
 * Source @src of membership @k goes: 1 when other sources keep it (then
 * nothing else changes), 0 when @src was the last (the caller deletes
 * it), -ENOENT when @src does not hold it.
 */
static int mcast_source_drop(struct kbloom_xdp *x,
			     const struct kbloom_member_key *k, __u32 src)
{
	__u32 v;
	int ret;

	ret = kbp_err(bpf_map_lookup_elem(x->exact_fd, k, &v));
	if (ret)
		return ret;
	if (!(v & src))
		return -ENOENT;
	if (!(v & ~src))
		return 0;
	v &= ~src;
	ret = kbp_err(bpf_map_update_elem(x->exact_fd, k, &v, BPF_EXIST));
	return ret ?: 1;
}

int kbloom_mcast_join(struct kbloom_xdp *x, int ifindex, const void *group,
		      __u32 len)
{
	return kbloom_mcast_join_src(x, ifindex, group, len,
				     KBLOOM_MEMBER_STATIC);
}

int kbloom_mcast_join_src(struct kbloom_xdp *x, int ifindex,
			  const void *group, __u32 len, __u32 src)
{
	struct kbloom_member_key k;
	struct kbloom_params p;
	int ret;

	ret = mcast_check(x);
	ret = ret ?: mcast_src_ok(src);
	if (ret)
		return ret;
	ret = mcast_key(&k, ifindex, group, len);
	if (ret) {
		kbx_log(x, "%s: a group is an IPv4 (224.0.0.0/4) or IPv6 (ff00::/8) multicast address",
			x->name);
		return ret;
	}
	ret = kbx_lock(x);
	if (ret)
		return ret;
	ret = mcast_port_get(x, ifindex, &p);
	if (ret)
		goto out;
	ret = mcast_source_add(x, &k, src);
	if (ret != -ENOENT)
		goto out;	/* joined by another source already, or not */
	ret = kbp_err(bpf_map_update_elem(x->exact_fd, &k, &src, BPF_NOEXIST));
	if (ret == -E2BIG)
		ret = -ENOSPC;
	if (ret)
		goto out;
	ret = kbx_mcast_group_set(x, &k, 1);
	if (ret)
		goto err_member;
	if (kbx_kfunc(x)) {
		ret = kbx_module_keys(x, ifindex, KBLOOM_IOCTL_ADD, group, len);
		if (ret)
			goto err_member;
	}
	ret = mcast_filter_add(x, ifindex, group, len);
	if (!ret)
		goto out;
	if (kbx_kfunc(x))
		kbx_module_keys(x, ifindex, KBLOOM_IOCTL_DEL, group, len);
err_member:
	kbx_mcast_group_set(x, &k, 0);
	bpf_map_delete_elem(x->exact_fd, &k);
out:
	kbx_unlock(x);
	return ret;
}

/* The words of port @p's filter built from its memberships. */
static int mcast_build(struct kbloom_xdp *x, int ifindex,
		       struct kbloom_params *p, __u64 **wordsp)
{
	struct kbloom_member_key *m;
	bool router = false;
	__u64 *words;
	__u32 n, i;
	int ret;

	words = calloc((size_t)p->nblocks * KBLOOM_BLOCK_WORDS, 8);
	if (!words)
		return -ENOMEM;
	ret = mcast_members_of(x, ifindex, &m, &n);
	if (ret) {
		free(words);
		return ret;
	}
	p->inserted = 0;
	for (i = 0; i < n; i++) {
		if (m[i].len == KBLOOM_MEMBER_ROUTER_LEN) {
			router = true;
			continue;
		}
		kbx_words_add(words, p, m[i].addr, m[i].len);
		p->inserted++;
	}
	free(m);
	if (router)	/* every group */
		memset(words, 0xff, (size_t)p->nblocks * KBLOOM_BLOCK_WORDS * 8);
	*wordsp = words;
	return 0;
}

/*
 * kfunc: delete a joined group from the port's module filter, before the
 * membership goes (a filter that cannot delete keeps the membership).  No
 * module filter (no name, or none of that name): the port forwards nothing
 * anyway, the membership goes (logged).
 */
static int mcast_module_leave(struct kbloom_xdp *x,
			      const struct kbloom_member_key *k)
{
	__u32 v;
	int ret;

	ret = kbp_err(bpf_map_lookup_elem(x->exact_fd, k, &v));
	if (ret)
		return ret;
	ret = kbx_module_keys(x, k->ifindex, KBLOOM_IOCTL_DEL, k->addr, k->len);
	return ret == -ENOENT ? 0 : ret;
}

int kbloom_mcast_leave(struct kbloom_xdp *x, int ifindex, const void *group,
		       __u32 len)
{
	return kbloom_mcast_leave_src(x, ifindex, group, len,
				      KBLOOM_MEMBER_STATIC);
}

/* Delete membership @k (locked) and rewrite the port's filter without it. */
static int mcast_member_del(struct kbloom_xdp *x,
			    const struct kbloom_member_key *k)
{
	struct kbloom_params p;
	__u64 *words;
	int ret;

	ret = mcast_port_get(x, k->ifindex, &p);
	if (!ret && kbx_kfunc(x) && k->len != KBLOOM_MEMBER_ROUTER_LEN)
		ret = mcast_module_leave(x, k);
	ret = ret ?: kbx_mcast_group_set(x, k, 0);
	ret = ret ?: kbp_err(bpf_map_delete_elem(x->exact_fd, k));
	if (kbx_cuckoo(x))
		return ret ?: kbx_mcast_cuckoo_leave(x, k);
	if (kbx_deletable(x))
		return ret ?: kbx_mcast_del_leave(x, k);
	ret = ret ?: mcast_build(x, k->ifindex, &p, &words);
	if (!ret) {
		ret = kbx_filter_rewrite(x, &p, words);
		free(words);
	}
	return ret;
}

int kbloom_mcast_leave_src(struct kbloom_xdp *x, int ifindex,
			   const void *group, __u32 len, __u32 src)
{
	struct kbloom_member_key k;
	int ret;

	ret = mcast_check(x);
	ret = ret ?: mcast_src_ok(src);
	ret = ret ?: mcast_key(&k, ifindex, group, len);
	if (ret)
		return ret;
	ret = kbx_lock(x);
	if (ret)
		return ret;
	ret = mcast_source_drop(x, &k, src);
	if (!ret)
		ret = mcast_member_del(x, &k);
	kbx_unlock(x);
	return ret < 0 ? ret : 0;
}

#define KFUNC_NO_ROUTER \
	"a router port of a kfunc switch would need a module filter of all ones"
#define KFUNC_NO_RESIZE \
	"the filters of a kfunc switch are kbloom.ko's: resize the module filter (kbloomctl save/restore --replace)"

#define CUCKOO_NO_ROUTER \
	"a router port would need a cuckoo filter of every group: not on a cuckoo switch (xdp attach mcast ... filter blocked)"
#define DELETABLE_NO_ROUTER \
	"a router port would need a deletable filter of every group: not on a deletable switch (xdp attach mcast ... filter blocked)"

/* -EOPNOTSUPP, saying @why, for a kfunc instance (filters in kbloom.ko). */
static int mcast_map_only(struct kbloom_xdp *x, const char *why)
{
	if (!kbx_kfunc(x))
		return 0;
	kbx_log(x, "%s: %s", x->name, why);
	return -EOPNOTSUPP;
}

/* -EOPNOTSUPP for a cuckoo or deletable switch, logged. */
static int mcast_no_cuckoo(struct kbloom_xdp *x, const char *why)
{
	if (!kbx_cuckoo(x) && !kbx_deletable(x))
		return 0;
	kbx_log(x, "%s: %s", x->name,
		kbx_deletable(x) ? DELETABLE_NO_ROUTER : why);
	return -EOPNOTSUPP;
}

/* Router port on (locked): the key of length 0, a filter of all ones. */
static int mcast_router_on(struct kbloom_xdp *x,
			   const struct kbloom_member_key *k, __u32 src)
{
	struct kbloom_params p;
	__u64 *words;
	int ret;

	ret = mcast_source_add(x, k, src);
	if (ret != -ENOENT)
		return ret;
	ret = kbx_filter_get(x, k->ifindex, &p);
	ret = ret ?: kbp_err(bpf_map_update_elem(x->exact_fd, k, &src,
						 BPF_NOEXIST));
	if (ret)
		return ret == -E2BIG ? -ENOSPC : ret;
	ret = kbx_mcast_group_set(x, k, 1);
	ret = ret ?: mcast_build(x, k->ifindex, &p, &words);
	if (!ret) {
		ret = kbx_filter_rewrite(x, &p, words);
		free(words);
	}
	if (ret) {
		kbx_mcast_group_set(x, k, 0);
		bpf_map_delete_elem(x->exact_fd, k);
	}
	return ret;
}

int kbloom_mcast_router(struct kbloom_xdp *x, int ifindex, int on,
			__u32 src)
{
	struct kbloom_member_key k = { .ifindex = ifindex };
	int ret;

	ret = mcast_check(x);
	ret = ret ?: mcast_src_ok(src);
	if (ret || ifindex <= 0)
		return -EINVAL;
	ret = mcast_map_only(x, KFUNC_NO_ROUTER);
	ret = ret ?: mcast_no_cuckoo(x, CUCKOO_NO_ROUTER);
	ret = ret ?: kbx_lock(x);
	if (ret)
		return ret;
	if (on) {
		ret = mcast_router_on(x, &k, src);
	} else {
		ret = mcast_source_drop(x, &k, src);
		if (!ret)
			ret = mcast_member_del(x, &k);
	}
	kbx_unlock(x);
	return ret < 0 ? ret : 0;
}

int kbloom_mcast_port_resize(struct kbloom_xdp *x, int ifindex,
			     const struct kbloom_xdp_geom *geom)
{
	struct kbloom_params cur, p;
	__u64 *words;
	int ret;

	ret = mcast_check(x);
	if (ret || ifindex <= 0)
		return -EINVAL;
	ret = mcast_map_only(x, KFUNC_NO_RESIZE);
	ret = ret ?: kbx_lock(x);
	if (ret)
		return ret;
	if (kbx_cuckoo(x)) {	/* re-planned, refilled from mc_members */
		ret = kbx_cuckoo_rebuild_locked(x, ifindex, geom);
		goto out;
	}
	if (kbx_deletable(x)) {	/* re-planned or not, from mc_members */
		ret = kbx_mcast_del_rebuild(x, ifindex, geom);
		goto out;
	}
	ret = kbx_filter_get(x, ifindex, &cur);
	if (ret)
		goto out;
	p = cur;
	if (geom)
		ret = kbx_geom_to_params(geom, &p);
	ret = ret ?: mcast_build(x, ifindex, &p, &words);
	if (ret)
		goto out;
	ret = kbx_filter_swap(x, ifindex, &p, words, 0);
	free(words);
out:
	kbx_unlock(x);
	return ret;
}

int kbloom_mcast_groups(struct kbloom_xdp *x, int ifindex,
			struct kbloom_addr_key *out, __u32 max)
{
	struct kbloom_member_key *m;
	__u32 n, i, cnt = 0;
	int ret;

	ret = mcast_check(x);
	if (ret || ifindex <= 0 || (max && !out))
		return -EINVAL;
	ret = mcast_members_of(x, ifindex, &m, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		if (m[i].len == KBLOOM_MEMBER_ROUTER_LEN)
			continue;
		if (cnt < max) {
			out[cnt].len = m[i].len;
			memcpy(out[cnt].addr, m[i].addr, sizeof(out[cnt].addr));
		}
		cnt++;
	}
	free(m);
	return (int)cnt;
}

int kbloom_mcast_members(struct kbloom_xdp *x, int ifindex,
			 struct kbloom_mcast_member *out, __u32 max)
{
	struct kbloom_member_key *m;
	__u32 n, i, v;
	int ret;

	ret = mcast_check(x);
	if (ret || ifindex <= 0 || (max && !out))
		return -EINVAL;
	ret = mcast_members_of(x, ifindex, &m, &n);
	if (ret)
		return ret;
	for (i = 0; i < n && i < max; i++) {
		if (bpf_map_lookup_elem(x->exact_fd, &m[i], &v))
			v = 0;	/* gone meanwhile */
		out[i].len = m[i].len;
		out[i].sources = v;
		memcpy(out[i].addr, m[i].addr, sizeof(out[i].addr));
	}
	free(m);
	return (int)n;
}

int kbloom_mcast_stats(struct kbloom_xdp *x, int ifindex,
		       struct kbloom_mcast_stats *st)
{
	int ncpu = libbpf_num_possible_cpus();
	const size_t nf = sizeof(*st) / sizeof(__u64);
	struct kbloom_params p;
	__u64 *v, *sum = (__u64 *)st;
	size_t c, f;
	int ret;

	ret = mcast_check(x);
	if (ret || !st || ifindex <= 0)
		return -EINVAL;
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	ret = mcast_port_get(x, ifindex, &p);
	if (ret)
		return ret;
	v = calloc(ncpu, sizeof(*st));
	if (!v)
		return -ENOMEM;
	ret = kbp_err(bpf_map_lookup_elem(x->stats_fd, &p.index, v));
	if (!ret) {
		memset(st, 0, sizeof(*st));
		for (c = 0; c < (size_t)ncpu; c++)
			for (f = 0; f < nf; f++)
				sum[f] += v[c * nf + f];
	}
	free(v);
	return ret;
}

int kbloom_mcast_flags(struct kbloom_xdp *x, __u32 *flags)
{
	struct kbloom_mcast_cfg cfg;
	__u32 zero = 0;
	int ret;

	ret = mcast_check(x);
	if (ret || !flags)
		return -EINVAL;
	ret = kbp_err(bpf_map_lookup_elem(x->config_fd, &zero, &cfg));
	if (!ret)
		*flags = cfg.flags;
	return ret;
}

static int mcast_u32_cmp(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return (x > y) - (x < y);
}

int kbloom_mcast_ports(struct kbloom_xdp *x, __u32 **ids, __u32 *n)
{
	int ret;

	ret = mcast_check(x);
	if (ret || !ids || !n)
		return -EINVAL;
	ret = kbp_map_keys(x->params_fd, ids, n);
	if (!ret && *n)
		qsort(*ids, *n, sizeof(**ids), mcast_u32_cmp);
	return ret;
}

int kbloom_mcast_set_flags(struct kbloom_xdp *x, __u32 flags)
{
	struct kbloom_mcast_cfg cfg;
	__u32 zero = 0;
	int ret;

	ret = mcast_check(x);
	if (ret || !mcast_flags_ok(flags))
		return -EINVAL;
	ret = kbx_lock(x);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_lookup_elem(x->config_fd, &zero, &cfg));
	if (!ret) {
		cfg.flags = flags;
		ret = kbp_err(bpf_map_update_elem(x->config_fd, &zero, &cfg,
						  0));
	}
	kbx_unlock(x);
	return ret;
}

/* ---- the kind --------------------------------------------------------------- */

/* An interface attached becomes a port (default geometry) if not one. */
static int mcast_port_attach(struct kbloom_inst *i, int ifindex, bool *made)
{
	struct kbloom_xdp *x = i->priv;
	struct kbloom_params p;
	int ret;

	if (mcast_port_get(x, ifindex, &p) != -ENOENT)
		return 0;
	ret = kbloom_mcast_port_add(x, ifindex, NULL);
	*made = !ret;
	return ret;
}

static void mcast_port_undo(struct kbloom_inst *i, int ifindex)
{
	kbloom_mcast_port_del(i->priv, ifindex);
}

static void mcast_teardown(struct kbloom_inst *i)
{
	mcast_ports_replace(i->priv, -1);	/* drop the devmap entries */
}

static void mcast_info(struct kbloom_inst *i, struct kbloom_inst_info *info)
{
	struct kbloom_xdp *x = i->priv;
	__u64 ports;

	if (!kbp_map_count(x->params_fd, &ports) &&
	    !kbp_map_count(x->exact_fd, &info->members)) {
		info->ports = (__u32)ports;
		info->fields |= KBLOOM_INST_INFO_PORTS | KBLOOM_INST_INFO_MEMBERS;
	}
	kbx_info(x, info);
}

static const struct kbx_desc mcast_desc = {
	.xdp_kind = KBLOOM_XDP_MCAST,
	.multi = true,
	.params = "mc_params", .filters = "mc_filters",
	.stats = "mc_stats", .exact = "mc_members",
	.config = "mc_config", .ports = "mc_ports", .plist = "mc_plist",
	.kfilter = "mc_kfilter",
	.cuckoo = "mc_cuckoo", .cseq = "mc_cseq",
	.deletable = "mc_deletable",
	.pfast = "mc_pfast",
	.groups = "mc_groups", .gcache = "mc_gcache",
	.blocks_name = "mc_port_",
	.progs = {
		[XDP_PROG_MAIN] = { "kbloom_mcast_ingress", "prog_ingress" },
		[XDP_PROG_EGRESS] = { "kbloom_mcast_egress", "prog_egress" },
		[XDP_PROG_CHECK] = { "kbloom_mcast_check", "prog_check" },
	},
	.objs = {
		{ "kbloom_mcast", kbloom_mcast__elf_bytes },
		{ "kbloom_kfunc_mcast", kbloom_kfunc_mcast__elf_bytes },
		{ "kbloom_cuckoo_mcast", kbloom_cuckoo_mcast__elf_bytes },
		{ "kbloom_deletable_mcast", kbloom_deletable_mcast__elf_bytes },
	},
	.init = mcast_init,
	.ports_replace = mcast_ports_replace,
	.cuckoo_fill = kbx_mcast_cuckoo_fill,
};

const struct kbi_ops kbx_mcast_ops = {
	.kind = "mcast",
	.data = &mcast_desc,
	.create = kbx_inst_create,
	.open = kbx_inst_open,
	.close = kbx_inst_close,
	.prog_fd = kbx_inst_prog_fd,
	.port_attach = mcast_port_attach,
	.port_undo = mcast_port_undo,
	.replace = kbx_inst_replace,
	.ext_open = kbx_inst_ext_open,
	.run_prio = 30,
	.teardown = mcast_teardown,
	.info = mcast_info,
};
