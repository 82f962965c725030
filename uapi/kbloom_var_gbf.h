/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the generalized Bloom filter (GBF; Laufer, Velloso, Duarte
 * 2007, survey [LVD07]): m bits that start at any value, k1 = @k set
 * probes h_1..h_k1 and k0 = @tables reset probes g_1..g_k0.  The k1 + k0
 * positions of a key of hash h are the standard sequence over m
 * (kb_probe_next()): the first k1 are the set positions, the next k0 the
 * reset positions.  An add sets the h bits, then clears the g bits (a
 * position that is both ends 0); a key is possibly present iff every h
 * bit is 1 and every g bit is 0.  Later adds may clear or set a key's
 * bits: the type may forget (KBLOOM_IMAGE_F_MAY_FN).  Shape:
 * kbloom_shape.h.
 */
#ifndef _UAPI_KBLOOM_VAR_GBF_H
#define _UAPI_KBLOOM_VAR_GBF_H

#include "kbloom_shape.h"

/* A GBF shape of @m bits, @k1 set and @k0 reset probes. */
static inline void kb_gbf_shape_init(struct kb_shape *s, __u64 m, __u32 k1,
				     __u32 k0)
{
	__builtin_memset(s, 0, sizeof(*s));
	s->type = KBLOOM_TYPE_GENERALIZED;
	s->k = k1;
	s->m = m;
	s->tables = k0;
}

#endif /* _UAPI_KBLOOM_VAR_GBF_H */
