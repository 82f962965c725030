/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP attach: one ingress program on one interface, as a
 * component of libxdp's dispatcher (so that xdp-loader, xdp-filter and
 * kbloom share the interface, in either order), or, where the dispatcher
 * cannot be used, as kbloom's own bpf_link.  Internal to the library.
 *
 * The attachment is one pin: a BPF program (the dispatcher component, an
 * EXT copy of the ingress program) or a BPF link (the own link).  It stays
 * after the process exits; status and detach read it back.
 *
 * Called with the interface's network namespace entered.  libbpf's and
 * libxdp's print functions are swapped during a call (process-wide; the
 * messages go to the caller's log): do not call from two threads at once.
 */
#ifndef _KBLOOM_XDP_ATTACH_H
#define _KBLOOM_XDP_ATTACH_H

#include <linux/types.h>
#include "libkbloom_xdp.h"

struct bpf_object;

/* libxdp's default run priority (xdp-filter runs at 10). */
#define KB_XDP_RUN_PRIO_DEFAULT	50

/* kb_xdp_attach_req.flags */
#define KB_XDP_ATTACH_OWN_LINK	(1U << 0)	/* never the dispatcher */
/* the dispatcher's fallback reason only in kb_xdp_attachment.why, not logged */
#define KB_XDP_ATTACH_QUIET	(1U << 1)
#define KB_XDP_ATTACH_FLAGS	(KB_XDP_ATTACH_OWN_LINK | KB_XDP_ATTACH_QUIET)

enum kb_xdp_via {
	KB_XDP_VIA_NONE = 0,		/* not attached (any more) */
	KB_XDP_VIA_DISPATCHER = 1,	/* a component of libxdp's dispatcher */
	KB_XDP_VIA_LINK = 2,		/* kbloom's own bpf_link */
};

/**
 * struct kb_xdp_attach_req - what to attach where
 * @ifindex: the interface
 * @mode: enum kbloom_xdp_mode; joining a dispatcher takes its mode (a
 *        conflicting NATIVE or GENERIC request is refused, -EBUSY)
 * @prog_fd: the loaded XDP ingress program: the own link runs it, and it
 *        is the load-time target of the EXT copy
 * @ext_obj: NULL (own link only), or a freshly opened, not loaded object
 *        of the same ELF as @prog_fd's program (e.g. kbloom_gate__open()'s
 *        obj), its maps reusing the instance's (bpf_map__reuse_fd(), or
 *        see @map_dir; internal .rodata/.bss maps are recreated from the
 *        ELF): libxdp loads its program @prog_name as the EXT copy, its
 *        other programs are not loaded.  The caller closes it after the
 *        call.
 * @prog_name: the ingress program's name (needed with @ext_obj)
 * @map_dir: NULL, or the directory of the instance's maps, pinned by name:
 *        every map of @ext_obj reuses the one there
 * @run_prio: dispatcher run priority, lower runs first (0 is valid)
 * @chain_actions: bit (1 << XDP_PASS) ...: the actions after which the
 *        dispatcher runs the next program; 0: XDP_PASS only
 * @pin_path: where the attachment is pinned (kb_xdp_attach: must not
 *        exist); NULL, without @ext_obj: an own link, returned as an fd
 * @flags: KB_XDP_ATTACH_*
 */
struct kb_xdp_attach_req {
	int ifindex;
	enum kbloom_xdp_mode mode;
	int prog_fd;
	struct bpf_object *ext_obj;
	const char *prog_name;
	const char *map_dir;
	__u32 run_prio;
	__u32 chain_actions;
	const char *pin_path;
	__u32 flags;
};

/**
 * struct kb_xdp_attachment - an attachment as it is now
 * @via: enum kb_xdp_via
 * @mode: KBLOOM_XDP_MODE_NATIVE or _GENERIC; 0 when unknown or detached
 * @prog_id: the program that runs (the EXT copy, or the link's program)
 * @link_id: the own link's id; 0 for a dispatcher component
 * @others: other programs sharing the interface's dispatcher
 * @run_prio: the dispatcher run priority (0 for a link)
 * @why: kb_xdp_attach(): why an own link when the dispatcher was asked
 *       for, "" otherwise
 */
struct kb_xdp_attachment {
	__u32 via;
	__u32 mode;
	__u32 prog_id;
	__u32 link_id;
	__u32 others;
	__u32 run_prio;
	char why[160];
};

/**
 * kb_xdp_attach() - attach @req->prog_fd's program to @req->ifindex
 * @out: NULL, or the attachment made
 *
 * Through libxdp's dispatcher when @req->ext_obj is given, bpffs is
 * mounted, the kernel loads the EXT copy and libxdp attaches it; else
 * (and no dispatcher is on the interface) kbloom's own link, with one log
 * line saying why.  AUTO mode tries native, then generic (logged).
 *
 * Return: 0 (the link's fd without @req->pin_path); -EINVAL (bad request); -EEXIST (@pin_path exists); -EBUSY
 * (another program that is not a libxdp dispatcher is attached: the log
 * names it; or the dispatcher's mode conflicts); -EOPNOTSUPP (NATIVE, no
 * driver support); -errno.  Nothing is left attached or pinned on error.
 */
int kb_xdp_attach(const struct kb_xdp_attach_req *req,
		  struct kb_xdp_attachment *out, kbloom_xdp_log_fn log,
		  void *log_ctx);

/*
 * Detach the attachment pinned at @pin_path from @ifindex and unpin it.
 * An attachment that is gone already (interface deleted, dispatcher
 * unloaded by xdp-loader) just loses its pin.  -ENOENT: no pin.
 */
int kb_xdp_detach(int ifindex, const char *pin_path, kbloom_xdp_log_fn log,
		  void *log_ctx);

/*
 * Switch the attachment pinned at @req->pin_path to @req's program:
 * bpf_link_update() of the own link (expecting @old_prog_fd), or a new EXT
 * copy joins the dispatcher before the old one leaves (each packet runs
 * the old program, the new one or both: none runs neither).
 */
int kb_xdp_replace(const struct kb_xdp_attach_req *req, int old_prog_fd,
		   kbloom_xdp_log_fn log, void *log_ctx);

/* The attachment pinned at @pin_path on @ifindex; -ENOENT: no pin. */
int kb_xdp_attach_status(int ifindex, const char *pin_path,
			 struct kb_xdp_attachment *out);

#endif /* _KBLOOM_XDP_ATTACH_H */
