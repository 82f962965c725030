// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: mc_groups, the ports that joined each group
 * by ifindex (struct kbloom_mcast_gmask, uapi/kbloom_xdp_maps.h), which
 * the mcast ingress program reads once per frame to audit leaks instead
 * of looking mc_members up for every forwarded copy.
 *
 * Its one writer is the loader, under the instance lock, in step with
 * mc_members (kind_mcast.c): a port's bit is set once its filter holds
 * the group (after a join, after a router port's filter is all ones) and
 * cleared before the membership goes (a leave, a router port off, a port
 * removed), so that a set bit always means the port's filter holds the
 * group (the map-backed switch forwards a member's copy without testing
 * its filter when the audit is on).  Each update replaces the element
 * whole (an element is never torn for a reader); an empty mask deletes
 * it.  A port of ifindex KBLOOM_MCAST_GMASK_PORTS or above has no bit:
 * its egress program audits its copies in mc_members.  An instance
 * pinned before the map has none (its programs audit per copy).
 */
#include <errno.h>
#include <bpf/bpf.h>
#include "uapi/kbloom_xdp_maps.h"
#include "xdp_priv.h"

int kbx_mcast_group_set(struct kbloom_xdp *x,
			const struct kbloom_member_key *k, int on)
{
	struct kbloom_mcast_gmask m = {};
	struct kbloom_member_key g = *k;
	__u32 i = k->ifindex;
	__u64 bit;
	int ret;

	if (x->groups_fd < 0 || i >= KBLOOM_MCAST_GMASK_PORTS)
		return 0;
	g.ifindex = 0;
	ret = kbp_err(bpf_map_lookup_elem(x->groups_fd, &g, &m));
	if (ret && ret != -ENOENT)
		return ret;
	bit = 1ULL << (i % 64);
	if (on)
		m.ports[i / 64] |= bit;
	else
		m.ports[i / 64] &= ~bit;
	if (!(m.ports[0] | m.ports[1] | m.ports[2])) {
		ret = kbp_err(bpf_map_delete_elem(x->groups_fd, &g));
		return ret == -ENOENT ? 0 : ret;
	}
	ret = kbp_err(bpf_map_update_elem(x->groups_fd, &g, &m, BPF_ANY));
	return ret == -E2BIG ? -ENOSPC : ret;
}
