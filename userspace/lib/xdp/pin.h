/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom XDP instances: helpers shared by the core (inst.c) and the
 * kinds: pin directories and paths, bpffs, network namespaces, loading
 * and pinning objects.  They take plain arguments, return 0 or -errno
 * and log nothing: the callers do.
 */
#ifndef _KBLOOM_PIN_H
#define _KBLOOM_PIN_H

#include <limits.h>
#include <stdarg.h>
#include <linux/types.h>
#include "libkbloom_xdp.h"

struct bpf_object;

#define KBP_BPFFS	"/sys/fs/bpf"

/* A libbpf return (-1 with errno, or -errno) as -errno. */
int kbp_err(int ret);

/* Log @fmt through @log, or to stderr when it is NULL. */
void kbp_vlog(kbloom_xdp_log_fn log, void *ctx, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Is @name a valid instance name (and bpffs file name)? */
int kbp_name_ok(const char *name);
void kbp_close_fd(int *fd);

/* 1 when bpffs was mounted on KBP_BPFFS for @root, 0 when not needed. */
int kbp_bpffs_ensure(const char *root);
int kbp_mkdir_p(const char *path);

/* @buf (PATH_MAX) = @dir/@fmt... */
int kbp_path(const char *dir, char *buf, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* *@fd = the object pinned at @dir/@leaf; nothing when @leaf is NULL. */
int kbp_get(const char *dir, const char *leaf, int *fd);
int kbp_repin(const char *dir, int fd, const char *leaf);

/* Open netns @ns (a path, or a name under /run/netns), @path its path. */
int kbp_netns_open(const char *ns, char path[PATH_MAX]);
int kbp_ns_enter(int netns_fd, int *saved);
void kbp_ns_leave(int saved);

/* Wait for an RCU grace period. */
int kbp_rcu_sync(void);

/* How many keys map @fd has (keys of at most 256 bytes); -errno. */
int kbp_map_count(int fd, __u64 *n);
/* Every key of a map of __u32 keys, malloc()ed. */
int kbp_map_keys(int fd, __u32 **out, __u32 *cnt);

/* A BPF object of a kind: its name and its skeleton's ELF bytes. */
struct kbp_obj {
	const char *name;
	const void *(*elf)(size_t *sz);
};

/* Open (not load) object @o into *@obj; -errno. */
int kbp_obj_open(const struct kbp_obj *o, struct bpf_object **obj);
int kbp_set_max(struct bpf_object *obj, const char *map, __u32 n);
/* Pin every map of @obj under @dir, by name. */
int kbp_pin_maps(struct bpf_object *obj, const char *dir);
/*
 * Every map of @o pinned under @dir has @o's type, key and value sizes:
 * -EUCLEAN if one differs (pinned by another kbloom version, whose values
 * this build would misread).
 */
int kbp_pins_match(const struct kbp_obj *o, const char *dir);
/* Pin program @prog of @obj at @dir/@pin. */
int kbp_pin_prog(struct bpf_object *obj, const char *dir, const char *prog,
		 const char *pin);
/* The BTF ids of __u32 and struct kbloom_block and an fd of BTF @btf_id. */
void kbp_open_btf(__u32 btf_id, int *btf_fd, __u32 *key_id, __u32 *block_id);

#endif /* _KBLOOM_PIN_H */
