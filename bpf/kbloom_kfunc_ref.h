/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The filter lookup of the kfunc paths (kbloom_kfunc_gate.bpf.c,
 * kbloom_kfunc_mcast.bpf.c): a module filter named by a struct
 * kbloom_kfunc_ref (uapi/kbloom_kfunc.h), tested by its id, and by its
 * name only when the id misses.
 *
 *	ret = kbloom_kfunc_ref_test(ref, addr, len);
 *
 * Return: KBLOOM_MAYBE, KBLOOM_ABSENT, or -ENOENT when no module filter
 * has the name (the caller counts the miss and applies its policy).
 */
#ifndef _KBLOOM_KFUNC_REF_H
#define _KBLOOM_KFUNC_REF_H

#include <linux/bpf.h>
#include <linux/errno.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_bpf.h"
#include "uapi/kbloom_kfunc.h"

/*
 * The id missed: the filter of @ref's name, tested, and its id stored in
 * @ref for the next packets (a plain 32-bit store: every CPU that heals
 * stores the id of the filter bound then; a loader's update replaces the
 * whole element).
 */
static __noinline int kbloom_kfunc_ref_heal(struct kbloom_kfunc_ref *ref,
					    const __u8 *addr, __u32 len)
{
	struct kbloom_kfunc_stat st = {};
	struct kb_filter *f;
	int ret;

	f = bpf_kbloom_get(ref->name, sizeof(ref->name));
	if (!f)
		return -ENOENT;
	if (len == KBLOOM_ADDR4_LEN)
		ret = bpf_kbloom_test(f, addr, KBLOOM_ADDR4_LEN);
	else
		ret = bpf_kbloom_test(f, addr, KBLOOM_ADDR6_LEN);
	if (!bpf_kbloom_stat(f, &st, sizeof(st)))
		ref->id = st.id;
	bpf_kbloom_put(f);
	return ret;
}

static __always_inline int kbloom_kfunc_ref_test(struct kbloom_kfunc_ref *ref,
						 const __u8 *addr, __u32 len)
{
	int ret;

	if (len == KBLOOM_ADDR4_LEN)
		ret = bpf_kbloom_test_id(ref->id, addr, KBLOOM_ADDR4_LEN);
	else
		ret = bpf_kbloom_test_id(ref->id, addr, KBLOOM_ADDR6_LEN);
	if (ret != -ENOENT)
		return ret;
	return kbloom_kfunc_ref_heal(ref, addr, len);
}

#endif /* _KBLOOM_KFUNC_REF_H */
