/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP instances of the counting kinds (struct kbloom_inst of
 * libkbloom_xdp.h: a directory of pins under the pin root, a kind marker,
 * a lock, links with the native-to-generic fallback, status):
 *
 *   "sketch"     the Count-Min sketch at XDP (bpf/kbloom_countmin.bpf.c,
 *                libkbloom_sketch.h): per source address, packets and
 *                bytes, with an optional threshold that counts, marks or
 *                drops.  Pins: prog_sketch, sketch_params, sketch_pkts,
 *                sketch_bytes (the row maps of the loaded form: per-CPU
 *                or shared), sketch_stats.
 *   "conntrack"  the d-left connection tracker at XDP
 *                (bpf/kbloom_dleft_ct.bpf.c, libkbloom_dleft.h): a SYN
 *                inserts its flow, a FIN or RST deletes it, other
 *                segments of unknown flows are counted and passed or
 *                dropped.  Pins: prog_conntrack, dleft_params,
 *                dleft_words, dleft_stats.
 *
 * Both are made once (kbloom_inst_create() with the kind's options works
 * too) and opened from their pins by any later process; attach, detach,
 * status and destroy are the kbloom_inst_*() calls of libkbloom_xdp.h.
 * A call on an instance of another kind returns -EINVAL.
 */
#ifndef _LIBKBLOOM_XDP_COUNT_H
#define _LIBKBLOOM_XDP_COUNT_H

#include <linux/types.h>

#include "libkbloom_xdp.h"
#include "libkbloom_sketch.h"
#include "libkbloom_dleft.h"
#include "kbloom/uapi/kbloom_dleft_maps.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- sketch ---------------------------------------------------------------- */

/**
 * kbloom_xdp_sketch_create() - make sketch instance @name
 * @o: pin root, namespace of the interfaces, log (NULL: defaults)
 * @so: the sketch (struct kbloom_sketch_xdp_opts of libkbloom_sketch.h)
 *
 * Return: 0; -EEXIST; the errors of kbloom_sketch_xdp_open() (-EINVAL for
 * a bad field, -EOPNOTSUPP for a shared minimal-increase sketch, -E2BIG);
 * -errno of pinning.  Nothing is left behind on failure.
 */
int kbloom_xdp_sketch_create(const char *name,
			     const struct kbloom_inst_opts *o,
			     const struct kbloom_sketch_xdp_opts *so,
			     struct kbloom_inst **ip);

/* Open sketch instance @name; -EINVAL (logged) for another kind. */
int kbloom_xdp_sketch_open(const char *name, const struct kbloom_inst_opts *o,
			   struct kbloom_inst **ip);

/* The parameters the instance was made with (sketch_params). */
int kbloom_xdp_sketch_params(struct kbloom_inst *i,
			     struct kbloom_sketch_params *p);

/* 1 when the rows are shared (one array), 0 when per CPU. */
int kbloom_xdp_sketch_shared(struct kbloom_inst *i);

/**
 * kbloom_xdp_sketch_count() - the estimates of source address @addr (4 or
 * 16 bytes, network order): packets and bytes, the minimum over the rows
 * of the counters summed over the CPUs
 * Return: 0; -EINVAL (kind, address length); -ENOMEM; -errno of the maps.
 */
int kbloom_xdp_sketch_count(struct kbloom_inst *i, const void *addr,
			    __u32 len, __u64 *pkts, __u64 *bytes);

/* The stats summed over the CPUs. */
int kbloom_xdp_sketch_stats(struct kbloom_inst *i,
			    struct kbloom_sketch_stats *st);

/**
 * kbloom_xdp_sketch_read() - the packet (@bytes 0) or byte (@bytes 1)
 * sketch as a new library sketch (per-CPU rows summed; N the packets or
 * bytes counted): kbloom_sketch_count(), kbloom_sketch_save() (an image
 * that kbloom.ko and the library load) work on it
 */
int kbloom_xdp_sketch_read(struct kbloom_inst *i, int bytes,
			   struct kbloom_sketch **sp);

/*
 * kbloom_xdp_sketch_write() - replace the packet or byte sketch's
 * counters with @s's (same geometry, update, hash and seed, else -EINVAL)
 */
int kbloom_xdp_sketch_write(struct kbloom_inst *i, int bytes,
			    const struct kbloom_sketch *s);

/* ---- conntrack ------------------------------------------------------------- */

/**
 * struct kbloom_conntrack_opts - a conntrack instance
 * @capacity, @fpr_pico: planned: flows expected and the false-positive
 *     rate (kbloom_xdp_conntrack_plan()); both 0 with an explicit @shape
 * @shape: planned: tables, slots and counter_bits to keep (0: defaults);
 *     explicit (@capacity 0): type KBLOOM_TYPE_DLEFT, tables, slots,
 *     fp_bits, counter_bits and buckets (kbloom_dleft_create_shape());
 *     either way its cells must fit in one word (kb_dleft_shape_atomic())
 * @filter: hash id and seed (its name is not used)
 * @miss: KBLOOM_DLEFT_MISS_PASS or KBLOOM_DLEFT_MISS_DROP
 */
struct kbloom_conntrack_opts {
	__u64 capacity;
	__u64 fpr_pico;
	struct kb_shape shape;
	struct kbloom_dleft_opts filter;
	__u32 miss;
};

/**
 * kbloom_xdp_conntrack_plan() - the shape of a tracker for @n flows at
 * rate @p_pico: kb_dleft_plan() (@s: tables, slots and counter_bits to
 * keep, 0: defaults), its remainder widened so that a cell is 8, 16 or 32
 * bits (one word per cell, as the XDP program needs; the rate only drops)
 * Return: 0; -EINVAL, -E2BIG as kb_dleft_plan(), or no such width.
 */
int kbloom_xdp_conntrack_plan(__u64 n, __u64 p_pico, struct kb_shape *s);

/**
 * kbloom_xdp_conntrack_create() - make conntrack instance @name
 * Return: 0; -EEXIST; -EINVAL for a bad field or a shape whose cells span
 * two words; -E2BIG; -errno of loading and pinning.
 */
int kbloom_xdp_conntrack_create(const char *name,
				const struct kbloom_inst_opts *o,
				const struct kbloom_conntrack_opts *co,
				struct kbloom_inst **ip);

/* Open conntrack instance @name; -EINVAL (logged) for another kind. */
int kbloom_xdp_conntrack_open(const char *name,
			      const struct kbloom_inst_opts *o,
			      struct kbloom_inst **ip);

/* The tracker's parameters (dleft_params). */
int kbloom_xdp_conntrack_params(struct kbloom_inst *i,
				struct kbloom_dleft_params *p);

int kbloom_xdp_conntrack_set_miss(struct kbloom_inst *i, __u32 miss);

/* The counters summed over the CPUs. */
int kbloom_xdp_conntrack_stats(struct kbloom_inst *i,
			       struct kbloom_dleft_xdp_stats *st);

/**
 * kbloom_xdp_conntrack_lookup() - the copies of flow @k in the tracker
 * (0: unknown; a false positive is possible, at the filter's rate); the
 * key as kb_dleft_flow_key() makes it
 */
int kbloom_xdp_conntrack_lookup(struct kbloom_inst *i,
				const struct kbloom_dleft_flow *k,
				__u64 *count);

/*
 * kbloom_xdp_conntrack_export() - the tracker's cells as a new library
 * filter of its shape, hash and seed (kbloom_dleft_save() makes its
 * image); its inserted, overflow and saturation counts are 0 (the map
 * keeps none: see the stats).
 */
int kbloom_xdp_conntrack_export(struct kbloom_inst *i,
				struct kbloom_dleft **fp);

/* Replace the tracker's cells with @f's (same shape, hash and seed). */
int kbloom_xdp_conntrack_import(struct kbloom_inst *i,
				const struct kbloom_dleft *f);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_XDP_COUNT_H */
