// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom gate loading: a syscall program that enters a batch of addresses
 * into a gate's exact map from inside the kernel (bpf_loop over the slots
 * of gl_keys, bpf_map_update_elem with BPF_NOEXIST), where
 * BPF_MAP_UPDATE_BATCH copies each key and value from user memory, checks
 * the copies and takes no BPF_NOEXIST.  gate_exact is the gate's pinned
 * map, given to the object before it is loaded (bpf_map__reuse_fd()).
 * bpf/kbloom_gate_load.h describes the slots and the arguments.
 */
#include <linux/bpf.h>
#include <linux/errno.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_gate_load.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, KBLOOM_GATE_LOAD_SLOTS);
	__type(key, __u32);
	__type(value, struct kbloom_gate_load_slot);
} gl_keys SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, struct kbloom_addr_key);
	__type(value, __u32);
} gate_exact SEC(".maps");

struct gl_loop {
	__u32 first;
	__u32 exist;
	__u32 undo;
	__s32 err;
	__u32 at;
	__u32 added;
};

/*
 * Slot @first + @i: entered, skipped, or the end of the run (1); or
 * deleted again (@undo).
 */
static long gl_one(__u64 i, void *arg)
{
	struct gl_loop *l = arg;
	struct kbloom_gate_load_slot *s;
	__u32 one = 1, idx = l->first + (__u32)i;
	int ret;	/* before Linux 6.4 the map's update returns an int */

	s = bpf_map_lookup_elem(&gl_keys, &idx);
	if (!s) {
		l->err = -ERANGE;
		l->at = idx;
		return 1;
	}
	if (l->undo) {
		if (s->done)
			bpf_map_delete_elem(&gate_exact, &s->key);
		s->done = 0;
		return 0;
	}
	ret = bpf_map_update_elem(&gate_exact, &s->key, &one, BPF_NOEXIST);
	s->done = !ret;
	if (!ret) {
		l->added++;
		return 0;
	}
	if (ret == -EEXIST && l->exist)
		return 0;
	l->err = ret;
	l->at = idx;
	return 1;
}

SEC("syscall")
int kbloom_gate_load(struct kbloom_gate_load_args *a)
{
	__u32 first = a->first, n = a->n;
	struct gl_loop l = {
		.first = first, .exist = a->exist, .undo = a->undo,
		.at = first + n,
	};
	long ret;

	ret = bpf_loop(n, gl_one, &l, 0);
	if (ret < 0) {		/* n beyond bpf_loop's limit */
		l.err = (__s32)ret;
		l.at = first;
	}
	a->err = l.err;
	a->at = l.at;
	a->added = l.added;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
