/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP instances of kind "dedupe" (struct kbloom_inst of
 * libkbloom_xdp.h: a directory of pins under the pin root, a kind marker,
 * a lock, links with the native-to-generic fallback, status): per-frame
 * duplicate suppression with a stable Bloom filter
 * (bpf/kbloom_dedupe.bpf.c, libkbloom_stable.h's kbloom_stable_xdp_*()):
 * the first copy of a frame passes, a repeat is dropped or counted.
 * Pins: prog_dedupe, dedupe_params, dedupe_cells, dedupe_stats.
 *
 * Made once (kbloom_inst_create(name, "dedupe", ...) works too) and
 * opened from its pins by any later process; attach, detach, status and
 * destroy are the kbloom_inst_*() calls of libkbloom_xdp.h.  A call on an
 * instance of another kind returns -EINVAL.
 */
#ifndef _LIBKBLOOM_XDP_DEDUPE_H
#define _LIBKBLOOM_XDP_DEDUPE_H

#include <stddef.h>
#include <linux/types.h>

#include "libkbloom_xdp.h"
#include "libkbloom_stable.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * kbloom_xdp_dedupe_create() - make dedupe instance @name
 * @o: pin root, namespace of the interfaces, log (NULL: defaults)
 * @so: the filter and the action (struct kbloom_stable_xdp_opts)
 *
 * Return: 0; -EEXIST; the errors of kbloom_stable_xdp_open() (-EINVAL for
 * a bad field); -errno of pinning.  Nothing is left behind on failure.
 */
int kbloom_xdp_dedupe_create(const char *name,
			     const struct kbloom_inst_opts *o,
			     const struct kbloom_stable_xdp_opts *so,
			     struct kbloom_inst **ip);

/* Open dedupe instance @name; -EINVAL (logged) for another kind. */
int kbloom_xdp_dedupe_open(const char *name, const struct kbloom_inst_opts *o,
			   struct kbloom_inst **ip);

/* The suppressor of an instance (still the instance's), or NULL. */
struct kbloom_stable_xdp *kbloom_xdp_dedupe(struct kbloom_inst *i);

/* The action it was made with (KBLOOM_DEDUPE_*), or -errno. */
int kbloom_xdp_dedupe_action(struct kbloom_inst *i);

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_XDP_DEDUPE_H */
