// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the parameters table of a filter table and
 * its copy by index (mc_pfast, struct kbloom_mcast_pfast in
 * uapi/kbloom_xdp_maps.h), which the mcast ingress program reads instead
 * of a hash lookup per port and frame.
 *
 * Every write of an mc_params element (filter.c, kind_mcast_cuckoo.c,
 * kind_mcast_del.c) goes through kbx_params_put() or kbx_params_del():
 * the element first, then its copy, both before the caller waits for a
 * grace period and empties an old slot, so that no program uses a copy
 * that names an emptied slot.  The copy's one writer
 * is this file, under the instance lock, through mmap: seq + 1, the
 * copy, seq + 1 (a program takes a copy read between two equal even
 * values of seq).  A kind without the map (the gate), an instance pinned
 * before it, a filter id of KBLOOM_MCAST_PFAST_PORTS or above: no copy,
 * the programs look the parameters up.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include "uapi/kbloom_xdp_maps.h"
#include "xdp_priv.h"

int kbx_pfast_open(struct kbloom_xdp *x)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	size_t size;
	void *mem;
	int ret;

	ret = kbp_get(x->dir, x->desc->pfast, &x->pfast_fd);
	ret = ret ?: kbp_err(bpf_obj_get_info_by_fd(x->pfast_fd, &info, &len));
	if (ret)
		return ret;
	if (info.value_size != sizeof(struct kbloom_mcast_pfast) ||
	    info.max_entries != KBLOOM_MCAST_PFAST_PORTS)
		return -EUCLEAN;
	size = (size_t)info.max_entries * sizeof(struct kbloom_mcast_pfast);
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
		   x->pfast_fd, 0);
	if (mem == MAP_FAILED)
		return -errno;
	x->pfast = mem;
	x->pfast_len = size;
	return 0;
}

void kbx_pfast_close(struct kbloom_xdp *x)
{
	if (x->pfast)
		munmap(x->pfast, x->pfast_len);
	x->pfast = NULL;
	kbp_close_fd(&x->pfast_fd);
}

/* The copy of filter @id: @p, or none when NULL. */
static void kbx_pfast_set(struct kbloom_xdp *x, __u32 id,
			  const struct kbloom_params *p)
{
	struct kbloom_mcast_pfast *e;
	__u32 seq;

	if (!x->pfast || id >= KBLOOM_MCAST_PFAST_PORTS)
		return;
	e = &x->pfast[id];
	seq = __atomic_load_n(&e->seq, __ATOMIC_RELAXED);
	__atomic_store_n(&e->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	if (p)
		memcpy(&e->p, p, sizeof(e->p));
	else
		memset(&e->p, 0, sizeof(e->p));
	__atomic_store_n(&e->seq, seq + 2, __ATOMIC_RELEASE);
}

int kbx_params_put(struct kbloom_xdp *x, __u32 id,
		   const struct kbloom_params *p, __u64 flags)
{
	int ret;

	ret = kbp_err(bpf_map_update_elem(x->params_fd, &id, p, flags));
	if (!ret)
		kbx_pfast_set(x, id, p);
	return ret;
}

void kbx_params_del(struct kbloom_xdp *x, __u32 id)
{
	kbx_pfast_set(x, id, NULL);
	bpf_map_delete_elem(x->params_fd, &id);
}
