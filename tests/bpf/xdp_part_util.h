/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tests of the partitioned filter's XDP form share
 * (tests/bpf/xdp_partitioned.c on the host, tests/kmod/xdp_part_test.c in
 * the guest): the probe program (tests/bpf/xdp_partitioned.bpf.c) with its
 * filter table, its answer on a key, and the test keys.
 */
#ifndef KBT_XDP_PART_UTIL_H
#define KBT_XDP_PART_UTIL_H

#include <errno.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "libkbloom_xdp_part.h"
#include "tests/bpf/xdp_partitioned.skel.h"
#include "tests/bpf/xdp_util.h"

/* The probe and its table (blocks maps typed with the probe's BTF). */
struct ptt_probe {
	struct xdp_partitioned *skel;
	struct kbloom_xdp_part_table t;
	int fd;			/* the probe program */
};

static inline int ptt_open(struct ptt_probe *p)
{
	struct btf *btf;
	int ret;

	memset(p, 0, sizeof(*p));
	p->skel = xdp_partitioned__open_and_load();
	if (!p->skel)
		return -errno;
	p->fd = bpf_program__fd(p->skel->progs.kbloom_part_probe);
	p->t.part_fd = bpf_map__fd(p->skel->maps.probe_part);
	p->t.filters_fd = bpf_map__fd(p->skel->maps.probe_filters);
	btf = bpf_object__btf(p->skel->obj);
	p->t.btf_fd = btf ? btf__fd(btf) : -1;
	if (btf) {
		ret = btf__find_by_name_kind(btf, "kbloom_block",
					     BTF_KIND_STRUCT);
		p->t.btf_block_id = ret > 0 ? ret : 0;
		ret = btf__find_by_name_kind(btf, "__u32", BTF_KIND_TYPEDEF);
		p->t.btf_key_id = ret > 0 ? ret : 0;
		if (!p->t.btf_block_id || !p->t.btf_key_id)
			p->t.btf_fd = -1;
	}
	return 0;
}

static inline void ptt_close(struct ptt_probe *p)
{
	if (p->skel)
		xdp_partitioned__destroy(p->skel);
	memset(p, 0, sizeof(*p));
}

/* The probe on a key (@op 0: test, 1: add): 1 present/added, 0, -1. */
static inline int ptt_run(const struct ptt_probe *p, int op, const void *key,
			  __u32 len)
{
	__u8 frame[2 + 64] = { (__u8)op, (__u8)len };
	__u32 rv;

	memcpy(frame + 2, key, len);
	if (kbt_run(p->fd, frame, sizeof(frame), 0, &rv))
		return -1;
	if (rv == XDP_PASS)
		return 1;
	return rv == XDP_DROP ? 0 : -1;
}

/* Key @i of stream @s: 1..64 bytes (length from @i), or 16 with @fixed. */
static inline __u32 ptt_key(__u64 s, __u64 i, int fixed, __u8 key[64])
{
	__u64 r = s * 0x100000000ULL + i, w;
	__u32 len = fixed ? 16 : 1 + (__u32)(kbt_rand(&r) % 64), j;

	for (j = 0; j < len; j += 8) {
		w = kbt_rand(&r);
		memcpy(key + j, &w, len - j < 8 ? len - j : 8);
	}
	/* keys of 8 bytes or more are distinct: (s, i) in the first 8 */
	w = s << 48 | i;
	if (len >= 8)
		memcpy(key, &w, 8);
	return len;
}

#endif /* KBT_XDP_PART_UTIL_H */
