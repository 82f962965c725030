// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances, kfunc variant: the module filter references
 * of gate_kfilter and mc_kfilter (struct kbloom_kfunc_ref, one per filter
 * id): a kbloom.ko filter name and the id of the filter bound to it,
 * which the programs test with bpf_kbloom_test_id(), looking the name up
 * only when the id misses (bpf/kbloom_kfunc_ref.h).  Every write bumps
 * the reference's gen, so a program never stores an id it resolved from
 * the name before the write.  Ids are resolved
 * here with KBLOOM_IOCTL_STAT whenever a name is written, and all at once
 * on kbloom_xdp_module_resolve() and kbloom_xdp_replace().  A name whose
 * filter does not exist (yet), a "%s" pattern, or no /dev/kbloom: id 0,
 * which the programs resolve themselves on the first packet.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "uapi/kbloom_kfunc.h"
#include "libkbloom_dev.h"
#include "xdp_priv.h"

int kbx_module_dev(struct kbloom_xdp *x)
{
	int fd;

	if (x->dev_fd >= 0)
		return 0;
	fd = kbloom_dev_open(NULL);
	if (fd < 0)
		return fd;
	x->dev_fd = fd;
	return 0;
}

/* The id of the filter named @name now; 0 when there is none. */
static __u32 kbx_module_id(struct kbloom_xdp *x, const char *name)
{
	struct kbloom_stat st;

	if (!name[0] || strchr(name, '%') || kbx_module_dev(x))
		return 0;
	if (kbloom_dev_stat(x->dev_fd, name, &st))
		return 0;
	return st.id;
}

/* The reference of @id now, its gen kept; a zeroed one when none. */
static void kbx_module_ref_get(struct kbloom_xdp *x, __u32 id,
			       struct kbloom_kfunc_ref *r)
{
	if (bpf_map_lookup_elem(x->kfilter_fd, &id, r))
		memset(r, 0, sizeof(*r));
	r->name[sizeof(r->name) - 1] = 0;
}

int kbx_module_ref_set(struct kbloom_xdp *x, __u32 id,
		       const char name[KBLOOM_NAME_LEN])
{
	struct kbloom_kfunc_ref r;

	kbx_module_ref_get(x, id, &r);
	memcpy(r.name, name, sizeof(r.name));
	r.name[sizeof(r.name) - 1] = 0;
	r.id = kbx_module_id(x, r.name);
	r.gen++;
	return kbp_err(bpf_map_update_elem(x->kfilter_fd, &id, &r, BPF_ANY));
}

/*
 * Remove the name of @id: a hash map's element goes, the gate's array
 * element becomes an empty name.  Return: 0, -ENOENT when there is none.
 */
int kbx_module_ref_clear(struct kbloom_xdp *x, __u32 id)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	struct kbloom_kfunc_ref r;
	int ret;

	ret = kbp_err(bpf_obj_get_info_by_fd(x->kfilter_fd, &info, &len));
	if (ret)
		return ret;
	if (info.type != BPF_MAP_TYPE_ARRAY)
		return kbp_err(bpf_map_delete_elem(x->kfilter_fd, &id));
	kbx_module_ref_get(x, id, &r);
	if (!r.name[0])
		return -ENOENT;
	memset(r.name, 0, sizeof(r.name));
	r.id = 0;
	r.gen++;
	return kbp_err(bpf_map_update_elem(x->kfilter_fd, &id, &r, BPF_EXIST));
}

/* The keys of the references into @keys (up to @max): how many. */
static __u32 kbx_module_keys_of(struct kbloom_xdp *x, __u32 *keys,
				__u32 max)
{
	__u32 n = 0, *prev = NULL;

	while (n < max &&
	       !bpf_map_get_next_key(x->kfilter_fd, prev, &keys[n])) {
		prev = &keys[n];
		n++;
	}
	return n;
}

/* Resolve the reference of @key; 1 when its name has a filter. */
static int kbx_module_resolve_one(struct kbloom_xdp *x, __u32 key)
{
	struct kbloom_kfunc_ref r;
	__u32 id;

	if (bpf_map_lookup_elem(x->kfilter_fd, &key, &r))
		return errno == ENOENT ? 0 : -errno;
	r.name[sizeof(r.name) - 1] = 0;
	id = kbx_module_id(x, r.name);
	if (id == r.id)
		return !!id;
	r.id = id;
	r.gen++;
	if (bpf_map_update_elem(x->kfilter_fd, &key, &r, BPF_EXIST))
		return errno == ENOENT ? 0 : -errno;
	return !!id;
}

/*
 * Every reference anew, keys first (updating a hash map while walking
 * it could visit an element again).  Under the instance's lock, so that
 * no name changes between the read and the write of its reference.
 */
int kbx_module_resolve(struct kbloom_xdp *x)
{
	__u32 max = x->desc->multi ? x->max_filters + 1 : 1, *keys, i, n;
	int ret, found = 0;

	keys = calloc(max, sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	ret = kbx_lock(x);
	if (ret)
		goto out_free;
	n = kbx_module_keys_of(x, keys, max);
	for (i = 0; i < n; i++) {
		ret = kbx_module_resolve_one(x, keys[i]);
		if (ret < 0)
			goto out_unlock;
		found += ret;
	}
	ret = found;
out_unlock:
	kbx_unlock(x);
out_free:
	free(keys);
	return ret;
}

int kbloom_xdp_module_resolve(struct kbloom_xdp *x)
{
	if (!x)
		return -EINVAL;
	if (x->variant != KBLOOM_XDP_VARIANT_KFUNC) {
		kbx_log(x, "%s: a map-backed instance has no module filters (the kfunc variant has)",
			x->name);
		return -EOPNOTSUPP;
	}
	return kbx_module_resolve(x);
}
