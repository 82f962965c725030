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
 * The compare-and-exchange needs BPF atomics (clang -mcpu=v3).
 */
#ifndef _KBLOOM_KFUNC_REF_H
#define _KBLOOM_KFUNC_REF_H

#include <linux/bpf.h>
#include <linux/errno.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_bpf.h"
#include "uapi/kbloom_kfunc.h"

/* @id and @gen as one word, for the compare-and-exchange. */
union kbloom_kfunc_ref_word {
	struct {
		__u32 id;
		__u32 gen;
	} f;
	__u64 w;
};

/* That word in the map value (at offset 32: map values are 8-aligned). */
static __always_inline __u64 *kbloom_kfunc_ref_w(struct kbloom_kfunc_ref *ref)
{
	return __builtin_assume_aligned(&ref->id, 8);
}

/*
 * The id missed: the filter of @ref's name, tested, and its id stored in
 * @ref for the next packets, unless the loader wrote the reference after
 * @seen was read (see struct kbloom_kfunc_ref).
 */
static __noinline int kbloom_kfunc_ref_heal(struct kbloom_kfunc_ref *ref,
					    __u64 seen, const __u8 *addr,
					    __u32 len)
{
	struct kbloom_kfunc_stat st = {};
	union kbloom_kfunc_ref_word u;
	struct kb_filter *f;
	int ret;

	f = bpf_kbloom_get(ref->name, sizeof(ref->name));
	if (!f)
		return -ENOENT;
	if (len == KBLOOM_ADDR4_LEN)
		ret = bpf_kbloom_test(f, addr, KBLOOM_ADDR4_LEN);
	else
		ret = bpf_kbloom_test(f, addr, KBLOOM_ADDR6_LEN);
	if (!bpf_kbloom_stat(f, &st, sizeof(st))) {
		u.w = seen;
		u.f.id = st.id;
		__sync_val_compare_and_swap(kbloom_kfunc_ref_w(ref), seen, u.w);
	}
	bpf_kbloom_put(f);
	return ret;
}

static __always_inline int kbloom_kfunc_ref_test(struct kbloom_kfunc_ref *ref,
						 const __u8 *addr, __u32 len)
{
	union kbloom_kfunc_ref_word u;
	int ret;

	u.w = *kbloom_kfunc_ref_w(ref);		/* one 64-bit load */
	if (len == KBLOOM_ADDR4_LEN)
		ret = bpf_kbloom_test_id(u.f.id, addr, KBLOOM_ADDR4_LEN);
	else
		ret = bpf_kbloom_test_id(u.f.id, addr, KBLOOM_ADDR6_LEN);
	if (ret != -ENOENT)
		return ret;
	return kbloom_kfunc_ref_heal(ref, u.w, addr, len);
}

#endif /* _KBLOOM_KFUNC_REF_H */
