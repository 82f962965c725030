// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: what the ipbf kind (LIPSIN and MSBF
 * forwarding, bpf/kbloom_ipbf.bpf.c) and the mcbf kind (Multi-Class Bloom
 * filters, bpf/kbloom_mcbf.bpf.c) share (their struct kbi_ops point here,
 * their struct kbn_desc says what differs): loading, pins, ports and
 * counters, and the kbloom_net_*() calls that are the core's.  See
 * libkbloom_xdp_net.h.
 *
 * The two kinds differ in their port records: ipbf keeps a port's link
 * IDs in ipbf_port, mcbf a port's filter and class table in mcbf_port
 * plus its blocks map in mcbf_filters (kind_ipbf.c, kind_mcbf.c).
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "uapi/kbloom_xdp_maps.h"
#include "uapi/kbloom_net_maps.h"
#include "net_priv.h"

/* Does @ifindex exist in the instance's namespace? */
int net_ifindex_ok(const struct kbloom_net *n, int ifindex)
{
	char ifname[IF_NAMESIZE];
	int ret;

	if (ifindex <= 0)
		return -EINVAL;
	ret = kbi_ifname(n->inst, ifindex, ifname);
	if (ret)
		net_log(n, "%s: no interface with ifindex %d", n->name, ifindex);
	return ret;
}

/* ---- handles ------------------------------------------------------------- */

static struct kbloom_net *net_alloc(struct kbloom_inst *i)
{
	struct kbloom_net *n = calloc(1, sizeof(*n));
	int k;

	if (!n)
		return NULL;
	n->inst = i;
	n->desc = i->ops->data;
	n->name = i->name;
	n->dir = i->dir;
	n->btf_fd = -1;
	for (k = 0; k < NM_COUNT; k++)
		n->map_fd[k] = -1;
	for (k = 0; k < 3; k++)
		n->prog_fd[k] = -1;
	i->priv = n;
	return n;
}

void kbn_inst_close(struct kbloom_inst *i)
{
	struct kbloom_net *n = i->priv;
	int k;

	for (k = 0; k < NM_COUNT; k++)
		kbp_close_fd(&n->map_fd[k]);
	for (k = 0; k < 3; k++)
		kbp_close_fd(&n->prog_fd[k]);
	kbp_close_fd(&n->btf_fd);
	free(n);
	i->priv = NULL;
}

int kbn_inst_prog_fd(const struct kbloom_inst *i)
{
	const struct kbloom_net *n = i->priv;

	return n->prog_fd[KBLOOM_NET_PROG_INGRESS];
}

static const char *const net_prog_pins[3] = {
	"prog_ingress", "prog_egress", "prog_check",
};

static int net_open_pins(struct kbloom_net *n)
{
	const struct kbn_desc *d = n->desc;
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	int i, ret;

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
	if (d->blocks_btf)
		kbp_open_btf(info.btf_id, &n->btf_fd, &n->btf_key_id,
			     &n->btf_block_id);
	return 0;
}

int kbn_inst_open(struct kbloom_inst *i)
{
	struct kbloom_net *n = net_alloc(i);

	return n ? net_open_pins(n) : -ENOMEM;
}

/* ---- loading ------------------------------------------------------------- */

static int net_pin_obj(struct kbloom_net *n, struct bpf_object *obj)
{
	int i, ret;

	ret = kbp_pin_maps(obj, n->dir);
	for (i = 0; !ret && i < 3; i++)
		ret = kbp_pin_prog(obj, n->dir, n->desc->progs[i],
				   net_prog_pins[i]);
	return ret;
}

static int net_load_new(struct kbloom_net *n, const struct kbloom_net_opts *o)
{
	const struct kbn_desc *d = n->desc;
	__u32 members = o && o->max_members ? o->max_members : NET_DEF_MEMBERS;
	struct bpf_object *obj;
	int ret;

	ret = kbp_obj_open(&d->obj, &obj);
	if (ret)
		return ret;
	ret = kbp_set_max(obj, d->maps[NM_PORT], n->max_ports);
	ret = ret ?: kbp_set_max(obj, d->maps[NM_PORTS], n->max_ports);
	ret = ret ?: kbp_set_max(obj, d->maps[NM_STATS], n->max_ports);
	ret = ret ?: kbp_set_max(obj, d->maps[NM_FILTERS],
				 n->max_ports * KBLOOM_SLOTS_PER_FILTER);
	ret = ret ?: kbp_set_max(obj, d->maps[NM_MEMBERS], members);
	if (!ret) {
		ret = bpf_object__load(obj);
		if (ret)
			net_log(n, "%s: loading the %s programs failed: %s",
				n->name, n->inst->ops->kind, strerror(-ret));
	}
	ret = ret ?: net_pin_obj(n, obj);
	bpf_object__close(obj);
	return ret;
}

int kbn_inst_create(struct kbloom_inst *i, const void *opts)
{
	const struct kbloom_net_opts *o = opts;
	struct kbloom_net *n;
	int ret;

	if (o && o->max_ports > NET_MAX_PORTS) {
		kbi_log(i, "%s: ports %u: at most %u", i->name, o->max_ports,
			NET_MAX_PORTS);
		return -EINVAL;
	}
	n = net_alloc(i);
	if (!n)
		return -ENOMEM;
	n->max_ports = o && o->max_ports ? o->max_ports : NET_DEF_PORTS;
	ret = net_load_new(n, o);
	ret = ret ?: net_open_pins(n);
	ret = ret ?: n->desc->init(n);
	return ret;
}

/* The devmap entries hold the egress program: dropped before the pins. */
void kbn_inst_teardown(struct kbloom_inst *i)
{
	struct kbloom_net *n = i->priv;
	__u32 *keys, cnt, k;

	if (kbp_map_keys(n->map_fd[NM_PORTS], &keys, &cnt))
		return;
	for (k = 0; k < cnt; k++)
		bpf_map_delete_elem(n->map_fd[NM_PORTS], &keys[k]);
	free(keys);
}

/* Only a port is attached. */
int kbn_inst_port_attach(struct kbloom_inst *i, int ifindex, bool *made)
{
	struct kbloom_net *n = i->priv;
	__u8 rec[NET_REC_MAX];
	__u32 key = ifindex;

	if (!bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, rec))
		return 0;
	net_log(n, "%s: ifindex %d is not a port", n->name, ifindex);
	return -ENOENT;
}

/* ---- the kbloom_net_*() calls of the core ----------------------------------- */

struct kbloom_inst *kbloom_net_inst(struct kbloom_net *n)
{
	return n ? n->inst : NULL;
}

struct kbloom_net *kbloom_net_of(struct kbloom_inst *i)
{
	return i && i->ops->open == kbn_inst_open ? i->priv : NULL;
}

void kbloom_net_close(struct kbloom_net *n)
{
	if (n)
		kbloom_inst_close(n->inst);
}

int kbloom_net_destroy(struct kbloom_net *n)
{
	return n ? kbloom_inst_destroy(n->inst) : -EINVAL;
}

enum kbloom_net_kind kbloom_net_kind(const struct kbloom_net *n)
{
	return n ? n->desc->net_kind : 0;
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

int kbloom_net_attach(struct kbloom_net *n, int ifindex,
		      enum kbloom_xdp_mode mode, enum kbloom_xdp_mode *got)
{
	return n ? kbloom_inst_attach(n->inst, ifindex, mode, got) : -EINVAL;
}

int kbloom_net_detach(struct kbloom_net *n, int ifindex)
{
	return n ? kbloom_inst_detach(n->inst, ifindex) : -EINVAL;
}

/* ---- ports and counters (both kinds) ------------------------------------- */

/*
 * Port @ifindex out of the path (locked): its record into @rec, its link
 * detached, its devmap entry and record deleted.  -ENOENT: not a port.
 */
int net_port_drop(struct kbloom_net *n, int ifindex, void *rec)
{
	__u32 key = ifindex;
	int ret;

	ret = kbp_err(bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, rec));
	if (ret)
		return ret;
	ret = kbi_detach(n->inst, ifindex);
	if (ret && ret != -ENOENT)
		return ret;
	bpf_map_delete_elem(n->map_fd[NM_PORTS], &key);
	bpf_map_delete_elem(n->map_fd[NM_PORT], &key);
	return 0;
}

/* ---- ports and counters (both paths) ------------------------------------- */

/* The lowest counters index no port uses. */
int net_free_index(struct kbloom_net *n, __u32 *index)
{
	__u8 rec[NET_REC_MAX];
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
		idx = n->desc->rec_index(rec);
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

int net_zero_stats(struct kbloom_net *n, __u32 index)
{
	int ncpu = libbpf_num_possible_cpus();
	void *zero;
	int ret;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	zero = calloc(ncpu, n->desc->stats_size);
	if (!zero)
		return -ENOMEM;
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_STATS], &index, zero,
					  0));
	free(zero);
	return ret;
}

/* The counters of the port's index, summed over the CPUs into @out. */
int net_stats(struct kbloom_net *n, int ifindex, __u64 *out)
{
	__u8 rec[NET_REC_MAX];
	size_t nf = n->desc->stats_size / sizeof(__u64), c, f;
	int ncpu = libbpf_num_possible_cpus();
	__u32 key = ifindex, index;
	__u64 *v;
	int ret;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	ret = kbp_err(bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, rec));
	if (ret)
		return ret;
	index = n->desc->rec_index(rec);
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
int net_devmap_add(struct kbloom_net *n, int ifindex)
{
	struct bpf_devmap_val v = {};
	__u32 key = ifindex;
	int ret, ns;

	v.ifindex = ifindex;
	v.bpf_prog.fd = n->prog_fd[KBLOOM_NET_PROG_EGRESS];
	ret = kbp_ns_enter(n->inst->netns_fd, &ns);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_PORTS], &key, &v, 0));
	kbp_ns_leave(ns);
	if (ret)
		net_log(n, "%s: cannot add ifindex %d to the devmap: %s",
			n->name, ifindex, strerror(-ret));
	return ret;
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
