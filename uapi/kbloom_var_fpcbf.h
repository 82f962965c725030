/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the fingerprint counting Bloom filter (FP-CBF; Pontarelli,
 * Reviriego, Maestro, IPL 2016, survey [PRM16]): positions, fingerprint
 * and cell layout, shared by every executor.  Shape: kbloom_shape.h.
 *
 * m cells of c = counter_bits counter bits and f = fp_bits fingerprint
 * bits: cell i is packed field i of width c + f (kb_field_get()), the
 * counter in its low c bits, the fingerprint field above.  Probe i of a
 * key with hash h is kb_probe_next() over m (the counting sequence); its
 * fingerprint is the low f bits of kb_fmix64(h ^ KB_FPCBF_SALT) (the
 * k + 1st hash).  An add increments the k counters and XORs the
 * fingerprint into their fields; a delete decrements and XORs again.  A
 * key is possibly present iff every probed counter is non-zero and every
 * probed counter of 1 holds its fingerprint.  A counter at 2^c - 1 is
 * saturated: it and its field never change again.  A counter that a
 * delete takes to 0 takes its field to 0 (a delete of a false positive
 * could leave one behind): a cell of counter 0 always has field 0, so a
 * key just added is always found (kb_fpcbf_cells_ok() checks images).
 */
#ifndef _UAPI_KBLOOM_VAR_FPCBF_H
#define _UAPI_KBLOOM_VAR_FPCBF_H

#include "kbloom_shape.h"
#include "kbloom_hash.h"

#define KB_FPCBF_SALT	0xF1C6BF0F1C6BF0F1ULL

/* The fingerprint of the key of hash @h, @fp_bits wide. */
static inline __u64 kb_fpcbf_print(__u64 h, __u32 fp_bits)
{
	return kb_fmix64(h ^ KB_FPCBF_SALT) & kb_field_mask(fp_bits);
}

/* A cell of counter @c and fingerprint field @fp. */
static inline __u64 kb_fpcbf_cell(__u64 c, __u64 fp, __u32 counter_bits)
{
	return c | (fp << counter_bits);
}

/*
 * Every cell of counter 0 of a payload (@m cells of @counter_bits +
 * @fp_bits, little-endian bytes at any alignment) has field 0.
 */
static inline int kb_fpcbf_cells_ok(const __u8 *p, __u64 m,
				    __u32 counter_bits, __u32 fp_bits)
{
	__u32 w = counter_bits + fp_bits, b, sh;
	__u64 n, i, lo, hi, v;

	for (n = 0; n < m; n++) {
		i = kb_field_word(n, w) * 8;
		sh = kb_field_shift(n, w);
		lo = 0;
		hi = 0;
		for (b = 0; b < 8; b++) {
			lo |= (__u64)p[i + b] << (8 * b);
			if (kb_field_spills(sh, w))
				hi |= (__u64)p[i + 8 + b] << (8 * b);
		}
		v = kb_field_get(lo, hi, sh, w);
		if (!(v & kb_field_mask(counter_bits)) && v)
			return 0;
	}
	return 1;
}

/* An FP-CBF shape of @m cells, @k probes, c + f bit cells. */
static inline void kb_fpcbf_shape_init(struct kb_shape *s, __u64 m, __u32 k,
				       __u32 counter_bits, __u32 fp_bits)
{
	__builtin_memset(s, 0, sizeof(*s));
	s->type = KBLOOM_TYPE_FP_COUNTING;
	s->k = k;
	s->m = m;
	s->counter_bits = counter_bits;
	s->fp_bits = fp_bits;
}

#endif /* _UAPI_KBLOOM_VAR_FPCBF_H */
