/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the retouched Bloom filter (RBF; Donnet, Baynat, Friedman,
 * CoNEXT 2006, survey [DBF06]): a standard filter of m bits whose bits
 * may be cleared to remove false positives, at the price of false
 * negatives.  Positions are the standard sequence (kb_probe_next() over
 * m), so its bits are those of a standard filter of the same m, k and
 * hash until a bit is cleared.  Its images carry KBLOOM_IMAGE_F_MAY_FN
 * (kb_type_may_fn()).  The bit-clearing policies are libkbloom's
 * (libkbloom_survey.h).  Shape: kbloom_shape.h.
 */
#ifndef _UAPI_KBLOOM_VAR_RBF_H
#define _UAPI_KBLOOM_VAR_RBF_H

#include "kbloom_shape.h"

/* An RBF shape of @m bits and @k probes. */
static inline void kb_rbf_shape_init(struct kb_shape *s, __u64 m, __u32 k)
{
	__builtin_memset(s, 0, sizeof(*s));
	s->type = KBLOOM_TYPE_RETOUCHED;
	s->k = k;
	s->m = m;
}

#endif /* _UAPI_KBLOOM_VAR_RBF_H */
