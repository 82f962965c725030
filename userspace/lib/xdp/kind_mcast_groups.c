// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: mc_groups, the ports that joined each group
 * by ifindex (struct kbloom_mcast_gmask, uapi/kbloom_xdp_maps.h), and
 * mc_gcache, its direct-mapped copy, which the mcast ingress program
 * reads once per frame to audit leaks instead of looking mc_members up
 * for every forwarded copy.
 *
 * Their one writer is the loader, under the instance lock, in step with
 * mc_members (kind_mcast.c): a port's bit is set with the membership,
 * before its filter holds the group (a join, a router port on), and
 * cleared before the membership goes (a leave, a router port off, a port
 * removed, a join undone), so that the audit sees what the per-copy
 * lookup of mc_members saw.  Each mc_groups update replaces the element
 * whole (never torn for a reader); an empty mask deletes it.  Then the
 * group's mc_gcache element, through mmap: seq + 1, the element, seq + 1
 * (a program takes an element read between two equal even values of
 * seq).  A group takes its element only when the element is free, and
 * frees it when its mask is empty.  A port of ifindex KBLOOM_MCAST_GMASK_PORTS or above has no
 * bit: its egress program audits its copies in mc_members.  An instance
 * pinned before the maps has neither (its programs audit per copy).
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include "uapi/kbloom_xdp_maps.h"
#include "xdp_priv.h"

#define GCACHE_LEN	((size_t)KBLOOM_MCAST_GCACHE * \
			 sizeof(struct kbloom_mcast_gcache))

/* mc_groups and mc_gcache (pinned with it), mmapped. */
int kbx_mcast_groups_open(struct kbloom_xdp *x)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	void *mem;
	int ret;

	ret = kbp_get(x->dir, x->desc->groups, &x->groups_fd);
	ret = ret ?: kbp_get(x->dir, x->desc->gcache, &x->gcache_fd);
	ret = ret ?: kbp_err(bpf_obj_get_info_by_fd(x->gcache_fd, &info, &len));
	if (ret)
		return ret;
	if (info.value_size != sizeof(struct kbloom_mcast_gcache) ||
	    info.max_entries != KBLOOM_MCAST_GCACHE)
		return -EUCLEAN;
	mem = mmap(NULL, GCACHE_LEN, PROT_READ | PROT_WRITE, MAP_SHARED,
		   x->gcache_fd, 0);
	if (mem == MAP_FAILED)
		return -errno;
	x->gcache = mem;
	return 0;
}

void kbx_mcast_groups_close(struct kbloom_xdp *x)
{
	if (x->gcache)
		munmap(x->gcache, GCACHE_LEN);
	x->gcache = NULL;
	kbp_close_fd(&x->gcache_fd);
	kbp_close_fd(&x->groups_fd);
}

static bool gcache_holds(const struct kbloom_mcast_gcache *e,
			 const struct kbloom_member_key *g)
{
	return e->len == g->len && !memcmp(e->addr, g->addr, sizeof(e->addr));
}

/* Group @g's mask @m (empty: none) in its mc_gcache element. */
static void gcache_put(struct kbloom_xdp *x, const struct kbloom_member_key *g,
		       const struct kbloom_mcast_gmask *m, bool empty)
{
	struct kbloom_mcast_gcache *e;
	__u32 seq;

	if (!x->gcache || g->len == KBLOOM_MEMBER_ROUTER_LEN)
		return;		/* router ports: read on a leak only */
	e = &x->gcache[kb_mcast_gcache_slot(g->addr, g->len)];
	if (e->len && !gcache_holds(e, g))
		return;		/* another group's: @g stays in mc_groups */
	if (!e->len && empty)
		return;
	seq = __atomic_load_n(&e->seq, __ATOMIC_RELAXED);
	__atomic_store_n(&e->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	if (empty) {
		memset(&e->m, 0, sizeof(e->m));
		memset(e->addr, 0, sizeof(e->addr));
		e->len = 0;
	} else {
		e->m = *m;
		memcpy(e->addr, g->addr, sizeof(e->addr));
		e->len = g->len;
	}
	__atomic_store_n(&e->seq, seq + 2, __ATOMIC_RELEASE);
}

static bool gmask_empty(const struct kbloom_mcast_gmask *m)
{
	size_t w;

	for (w = 0; w < sizeof(m->ports) / sizeof(m->ports[0]); w++)
		if (m->ports[w])
			return false;
	return true;
}

int kbx_mcast_group_set(struct kbloom_xdp *x,
			const struct kbloom_member_key *k, int on)
{
	struct kbloom_mcast_gmask m = {};
	struct kbloom_member_key g = *k;
	__u32 i = k->ifindex;
	__u64 bit;
	bool empty;
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
	empty = gmask_empty(&m);
	if (empty)
		ret = kbp_err(bpf_map_delete_elem(x->groups_fd, &g));
	else
		ret = kbp_err(bpf_map_update_elem(x->groups_fd, &g, &m, BPF_ANY));
	if (ret == -ENOENT && empty)
		ret = 0;
	if (!ret)
		gcache_put(x, &g, &m, empty);
	return ret == -E2BIG ? -ENOSPC : ret;
}
