/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom: the XDP loss digest (bpf/kbloom_loss_digest.bpf.c, maps in
 * uapi/kbloom_loss_maps.h): an observation point folds every IPv4
 * packet's 5-tuple and IP identification into a double-buffered IBLT
 * (libkbloom_iblt.h); two points' digests of the same epoch, subtracted
 * and decoded, list the packets lost between them (LossRadar, Li et al.,
 * CoNEXT 2016).
 *
 * A point is attached to an interface with its program, link and maps
 * pinned in a directory of bpffs (kbloom_loss_attach()), so that another
 * process opens it there (kbloom_loss_open()) to swap epochs and read
 * digests, and kbloom_loss_detach() removes it.
 *
 * Errors are negative errno values; bad arguments are -EINVAL and change
 * nothing.
 */
#ifndef _LIBKBLOOM_LOSS_H
#define _LIBKBLOOM_LOSS_H

#include <stddef.h>
#include <linux/types.h>

#include "libkbloom_iblt.h"
#include "kbloom/uapi/kbloom_loss_maps.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kbloom_loss;

/* Where kbloomctl pins the digests: one directory per name. */
#define KBLOOM_LOSS_PIN_ROOT	"/sys/fs/bpf/kbloom-loss"

/* Microseconds a swap waits for the programs in flight on the old bank. */
#define KBLOOM_LOSS_QUIESCE_US	10000U

/**
 * struct kbloom_loss_opts - a digest's geometry
 * @cells: cells per bank (rounded up to a multiple of @k), up to
 *     KB_IBLT_CELLS_MAX / 2
 * @k: cells per packet (0: KB_IBLT_K_DEFAULT)
 * @hash_id, @seed: the key hash (hash_id 0: KBLOOM_HASH_FAST); both
 *     points of a path need the same geometry and hash
 * @action: KBLOOM_LOSS_PASS or KBLOOM_LOSS_DROP after the fold
 * @xdp_flags: XDP_FLAGS_* of the attachment (0: the kernel's choice)
 */
struct kbloom_loss_opts {
	__u32 cells;
	__u32 k;
	__u32 hash_id;
	__u32 action;
	__u64 seed;
	__u32 xdp_flags;
	__u32 reserved;		/* must be 0 */
};

/**
 * kbloom_loss_attach() - load the digest, attach it to @ifindex, pin it
 * @dir: a directory on bpffs that does not exist yet (created)
 *
 * Return: 0; -EINVAL; -EEXIST (@dir exists); -errno of the load, the
 * attachment or the pins (nothing is left behind).
 */
int kbloom_loss_attach(const char *dir, int ifindex,
		       const struct kbloom_loss_opts *o,
		       struct kbloom_loss **lp);

/* Open the digest pinned in @dir: 0, -ENOENT, -EUCLEAN (bad params). */
int kbloom_loss_open(const char *dir, struct kbloom_loss **lp);

/* Close (the digest stays attached while its pins exist). */
void kbloom_loss_close(struct kbloom_loss *l);

/* Detach the digest pinned in @dir and remove its pins: 0 or -errno. */
int kbloom_loss_detach(const char *dir);

/* The geometry: a copy of the params map (0 or -errno). */
int kbloom_loss_params(const struct kbloom_loss *l,
		       struct kbloom_loss_params *p);

/**
 * kbloom_loss_swap() - end the epoch: fold new packets into the other
 * bank, wait KBLOOM_LOSS_QUIESCE_US, read the old bank into a new IBLT
 * (*@epoch; NULL to drop it) and zero it
 *
 * Return: 0, -ENOMEM, -errno of the map update.
 */
int kbloom_loss_swap(struct kbloom_loss *l, struct kbloom_iblt **epoch);

/* The active bank as an IBLT, as it is now (0 or -ENOMEM). */
int kbloom_loss_read(const struct kbloom_loss *l, struct kbloom_iblt **cur);

/* The per-CPU counters summed (0 or -errno). */
int kbloom_loss_stats(const struct kbloom_loss *l,
		      struct kbloom_loss_stats *st);

/**
 * kbloom_loss_format() - a decoded packet as text:
 * "udp 10.0.0.1:1234 > 10.0.0.2:5678 id 77 len 60 lost" (or "extra" for
 * -1); -EINVAL when @e is not a loss key
 */
int kbloom_loss_format(const struct kbloom_iblt_entry *e, char *buf,
		       size_t len);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_LOSS_H */
