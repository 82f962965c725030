// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the mcast kind's cuckoo variant
 * (bpf/kbloom_cuckoo_mcast.bpf.c): each port's filter is a cuckoo filter
 * (kind_gate_cuckoo.c, filter id = the port's ifindex), so that a leave
 * deletes the group's fingerprint at once instead of rebuilding the
 * port's filter from its memberships.
 *
 * A port is still named in mc_params, by a record of type
 * KBLOOM_TYPE_CUCKOO that holds its counters index (the programs' key
 * into mc_stats) and the first of its two slots; its filter, the live
 * slot and the counts are its element of mc_cuckoo.  mc_members stays the
 * exact record: a port's filter is refilled from it (rebuild, image
 * load), and the egress program reads it only to count leaks.
 */
#include <errno.h>
#include <string.h>
#include <bpf/bpf.h>

#include "uapi/kbloom_xdp_maps.h"
#include "libkbloom_cuckoo.h"
#include "xdp_priv.h"

/* Port @id's cuckoo filter of geometry @g, its record in mc_params. */
int kbx_mcast_cuckoo_port_add(struct kbloom_xdp *x, __u32 id, __u32 index,
			      const struct kbloom_xdp_geom *g)
{
	struct kbloom_cuckoo_params cp;
	struct kbloom_params rec = {};
	int ret;

	ret = kbx_cuckoo_geom(x, g, &cp);
	ret = ret ?: kbx_cuckoo_create(x, id, index, &cp);
	if (ret)
		return ret;
	rec.type = KBLOOM_TYPE_CUCKOO;
	rec.version = KBLOOM_XDP_LAYOUT_VERSION;
	rec.hash_id = cp.hash_id;
	rec.seed = cp.seed;
	rec.nblocks = cp.nblocks;
	rec.slot = cp.slot;
	rec.id = id;
	rec.index = index;
	rec.gen = 1;
	rec.capacity = cp.capacity;
	rec.fpr_pico = cp.fpr_pico;
	ret = kbx_params_put(x, id, &rec, BPF_NOEXIST);
	if (ret)
		kbx_cuckoo_remove(x, id);
	return ret;
}

/* Port @id's record, then its filter (after a grace period). */
int kbx_mcast_cuckoo_port_del(struct kbloom_xdp *x, __u32 id)
{
	kbx_params_del(x, id);
	return kbx_cuckoo_remove(x, id);
}

/*
 * Group @k left: its fingerprint leaves the port's filter.  A filter
 * that did not hold it (an image loaded without it) forwards nothing
 * more of it anyway: logged, not an error.
 */
int kbx_mcast_cuckoo_leave(struct kbloom_xdp *x,
			   const struct kbloom_member_key *k)
{
	int ret = kbx_cuckoo_keys(x, k->ifindex, 0, k->addr, k->len);

	if (ret != -ENOENT)
		return ret;
	kbx_log(x, "%s: the cuckoo filter of port %u did not hold the group",
		x->name, k->ifindex);
	return 0;
}

/*
 * The mcast kind's kbx_desc.cuckoo_fill: the groups of port @id in
 * mc_members into @c (@missing: those @c does not hold yet), so that
 * the filter holds every membership: 0, or -ENOSPC (logged).
 */
int kbx_mcast_cuckoo_fill(struct kbloom_xdp *x, __u32 id,
			  struct kbloom_cuckoo *c, int missing)
{
	struct kbloom_member_key key, next;
	__u64 n = 0;
	int ret;

	for (ret = bpf_map_get_next_key(x->exact_fd, NULL, &next); !ret;
	     ret = bpf_map_get_next_key(x->exact_fd, &key, &next)) {
		key = next;
		if (key.ifindex != id || key.len == KBLOOM_MEMBER_ROUTER_LEN)
			continue;
		if (missing && kbloom_cuckoo_test(c, key.addr, key.len) == 1)
			continue;
		ret = kbloom_cuckoo_add(c, key.addr, key.len);
		if (ret) {
			kbx_log(x, "%s: the groups of port %u do not fit the new cuckoo filter (full after %llu): give a larger capacity",
				x->name, id, (unsigned long long)n);
			return ret;
		}
		n++;
	}
	return 0;
}
