/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The map-backed scalable lookup (tests/bpf/xdp_scalable.bpf.c) for the
 * tests that run it: on the host (tests/bpf/xdp_scalable.c) and on the
 * module's images in the guest (tests/kmod/scalable_test.c).
 */
#ifndef _KBLOOM_XDP_SCALABLE_UTIL_H
#define _KBLOOM_XDP_SCALABLE_UTIL_H

#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "libkbloom_scalable.h"
#include "tests/bpf/xdp_scalable.skel.h"

/* The program loaded with a words map of @words entries, or NULL. */
static inline struct xdp_scalable *xs_open(__u64 words)
{
	struct xdp_scalable *s = xdp_scalable__open();

	if (!s)
		return NULL;
	if (bpf_map__set_max_entries(s->maps.sbf_words, words) ||
	    xdp_scalable__load(s)) {
		xdp_scalable__destroy(s);
		return NULL;
	}
	return s;
}

static inline int xs_fill(struct xdp_scalable *s, const struct kbloom_sbf *f)
{
	return kbloom_sbf_map_fill(f, bpf_map__fd(s->maps.sbf_meta),
				   bpf_map__fd(s->maps.sbf_gens),
				   bpf_map__fd(s->maps.sbf_words));
}

/* The program's verdict on a frame that starts with the 16-byte @key. */
static inline int xs_verdict(struct xdp_scalable *s, const __u8 *key)
{
	__u8 pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt,
		    .data_size_in = sizeof(pkt), .repeat = 1);

	memcpy(pkt, key, 16);
	if (bpf_prog_test_run_opts(bpf_program__fd(s->progs.xdp_sbf_test), &o))
		return -1;
	return (int)o.retval;
}

#endif /* _KBLOOM_XDP_SCALABLE_UTIL_H */
