/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP instances: the core (inst.c) and the ops a kind plugs in.
 *
 * An instance is the directory <pin_root>/<name>/ of its pins.  The core
 * owns what every kind shares: the directory and its flock, the bpffs
 * mount, the network namespace of the interfaces, the kind marker (a
 * frozen one-element map pinned as "kind", written at create and read
 * back at open), the XDP links (link_<ifindex>, or link_<ifindex>_ns<ino>
 * for a kind whose links live in several namespaces) with their
 * native-to-generic fallback, their status and their replacement.  A
 * kind (kind_*.c) owns its programs, maps and private data, and is
 * reached only through its struct kbi_ops: the core never names one.
 */
#ifndef _KBLOOM_XDP_INST_H
#define _KBLOOM_XDP_INST_H

#include <limits.h>
#include <stdbool.h>
#include <linux/types.h>
#include "libkbloom_xdp.h"

struct kbloom_inst;
struct bpf_object;

#define KBI_F_ANY_NS	(1U << 0)	/* links in several namespaces */

/**
 * struct kbi_ops - what a kind of instance plugs into the core
 * @kind: its name, the marker's value ("mcast", ...)
 * @flags: KBI_F_*
 * @data: the kind's own description, for code shared by several kinds
 * @create: load and pin the programs and maps of a new instance (the
 *          directory exists, is locked and marked) from the kind's
 *          options @opts, and set i->priv; the core unpins on failure
 * @open: set i->priv from the pins of an existing instance (locked)
 * @close: release i->priv
 * @prog_fd: the XDP program of the links
 * @port_attach: optional, before a link is made on @ifindex (in the
 *               instance's namespace, locked): make or check the port;
 *               *@made: a port was made for it, @port_undo removes it
 * @port_undo: optional, see @port_attach
 * @link_gone: optional, after the link on @ifindex was detached (locked):
 *             remove what @port_attach made for it
 * @replace: optional: load the programs anew and switch to them (locked)
 * @teardown: optional, before the pins go: what holds programs (devmap
 *            entries), after every link is detached
 * @info: optional: what the instance holds (struct kbloom_inst_info)
 * @ext_open: optional: a fresh, not loaded object of @prog_fd's program
 *            (*@prog its name) whose maps reuse the instance's: libxdp
 *            loads its EXT copy for the dispatcher (attach.h); without
 *            it, kbloom's own link
 * @run_prio: the dispatcher run priority of the kind's program
 */
struct kbi_ops {
	const char *kind;
	unsigned int flags;
	const void *data;
	int (*create)(struct kbloom_inst *i, const void *opts);
	int (*open)(struct kbloom_inst *i);
	void (*close)(struct kbloom_inst *i);
	int (*prog_fd)(const struct kbloom_inst *i);
	int (*port_attach)(struct kbloom_inst *i, int ifindex, bool *made);
	void (*port_undo)(struct kbloom_inst *i, int ifindex);
	void (*link_gone)(struct kbloom_inst *i, int ifindex);
	int (*replace)(struct kbloom_inst *i);
	void (*teardown)(struct kbloom_inst *i);
	void (*info)(struct kbloom_inst *i, struct kbloom_inst_info *info);
	int (*ext_open)(struct kbloom_inst *i, struct bpf_object **obj,
			const char **prog);
	__u32 run_prio;
};

/**
 * struct kbloom_inst - an open instance
 * @ops: its kind
 * @priv: the kind's data
 * @name: the instance name
 * @root: the pin root
 * @dir: <root>/<name>
 * @dir_fd: the directory, flock()ed by kbi_lock()
 * @lock_depth: kbi_lock() nesting
 * @netns_fd: namespace of the interfaces, -1: the caller's
 * @log: log callback, NULL: stderr
 * @log_ctx: its argument
 */
struct kbloom_inst {
	const struct kbi_ops *ops;
	void *priv;
	char name[KBLOOM_XDP_NAME_MAX];
	char root[PATH_MAX];
	char dir[PATH_MAX];
	int dir_fd;
	int lock_depth;
	int netns_fd;
	kbloom_xdp_log_fn log;
	void *log_ctx;
};

/* Finds the ops of a marker's kind, NULL when unknown. */
typedef const struct kbi_ops *(*kbi_find_fn)(const char *kind);

void kbi_log(const struct kbloom_inst *i, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int kbi_lock(struct kbloom_inst *i);
void kbi_unlock(struct kbloom_inst *i);

int kbi_create(const char *name, const struct kbi_ops *ops,
	       const struct kbloom_inst_opts *o, const void *kind_opts,
	       struct kbloom_inst **ip);
/* Open @name: @find gives the ops of the kind its marker names. */
int kbi_open(const char *name, const struct kbloom_inst_opts *o,
	     kbi_find_fn find, struct kbloom_inst **ip);

/**
 * struct kbi_link_req - one program to attach to one interface
 * @ifindex: the interface, in the calling thread's namespace
 * @mode: enum kbloom_xdp_mode: AUTO is native, else generic (logged)
 * @prog_fd: the XDP program
 * @pin: where the attachment is pinned; NULL: kbi_link_attach() returns
 *       the link's fd instead
 * @ext_obj, @prog_name, @run_prio: the EXT copy (see kbi_ops.ext_open);
 *        NULL: the own link
 * @who: names the instance in the log
 * @log, @log_ctx: the log callback (NULL: stderr)
 */
struct kbi_link_req {
	int ifindex;
	enum kbloom_xdp_mode mode;
	int prog_fd;
	const char *pin;
	struct bpf_object *ext_obj;
	const char *prog_name;
	__u32 run_prio;
	const char *who;
	kbloom_xdp_log_fn log;
	void *log_ctx;
};

/*
 * The one way kbloom attaches a program: 0 (or the fd, @r->pin NULL) and
 * the mode got in *@got, or -errno with one log line.
 */
int kbi_link_attach(const struct kbi_link_req *r, enum kbloom_xdp_mode *got);
/* Detach from @ifindex (locked by the caller or not); -ENOENT if not. */
int kbi_detach(struct kbloom_inst *i, int ifindex);
/* Switch every link from program @old_fd to @new_fd, all or none. */
int kbi_links_update(struct kbloom_inst *i, int old_fd, int new_fd);

/* Does interface @ifindex exist in the instance's namespace? */
int kbi_ifname(const struct kbloom_inst *i, int ifindex, char *buf);

#endif /* _KBLOOM_XDP_INST_H */
