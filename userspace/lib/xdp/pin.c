// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the helpers of pin.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/magic.h>
#include <linux/membarrier.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "pin.h"

int kbp_err(int ret)
{
	if (ret >= 0)
		return ret;
	return ret == -1 && errno ? -errno : ret;
}

void kbp_vlog(kbloom_xdp_log_fn log, void *ctx, const char *fmt, va_list ap)
{
	char buf[512];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (log)
		log(ctx, buf);
	else
		fprintf(stderr, "kbloom: %s\n", buf);
}

int kbp_name_ok(const char *name)
{
	size_t i, n = name ? strlen(name) : 0;

	if (!n || n >= KBLOOM_XDP_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		char c = name[i];

		/* bpffs refuses dots in names */
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

void kbp_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Mount bpffs on /sys/fs/bpf when @root is there and it is not. */
int kbp_bpffs_ensure(const char *root)
{
	size_t n = strlen(KBP_BPFFS);
	struct statfs st;

	if (strncmp(root, KBP_BPFFS, n) || (root[n] && root[n] != '/'))
		return 0;
	if (!statfs(KBP_BPFFS, &st) && st.f_type == BPF_FS_MAGIC)
		return 0;
	if (mount("bpf", KBP_BPFFS, "bpf", 0, "mode=0700"))
		return -errno;
	return 1;
}

int kbp_mkdir_p(const char *path)
{
	char tmp[PATH_MAX];
	size_t i, n = strlen(path);

	if (n >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(tmp, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (tmp[i] != '/' && tmp[i])
			continue;
		tmp[i] = 0;
		if (mkdir(tmp, 0700) && errno != EEXIST)
			return -errno;
		tmp[i] = path[i];
	}
	return 0;
}

int kbp_path(const char *dir, char *buf, const char *fmt, ...)
{
	char leaf[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(leaf, sizeof(leaf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(leaf))
		return -ENAMETOOLONG;
	n = snprintf(buf, PATH_MAX, "%s/%s", dir, leaf);
	if (n < 0 || n >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

int kbp_get(const char *dir, const char *leaf, int *fd)
{
	char p[PATH_MAX];
	int ret;

	if (!leaf)
		return 0;
	ret = kbp_path(dir, p, "%s", leaf);
	if (ret)
		return ret;
	*fd = bpf_obj_get(p);
	return *fd < 0 ? kbp_err(*fd) : 0;
}

/* Pin @fd at @leaf atomically: pin under a temporary name, rename over. */
int kbp_repin(const char *dir, int fd, const char *leaf)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	int ret;

	ret = kbp_path(dir, tmp, "%s_new", leaf);
	ret = ret ?: kbp_path(dir, path, "%s", leaf);
	if (ret)
		return ret;
	unlink(tmp);
	ret = kbp_err(bpf_obj_pin(fd, tmp));
	if (ret)
		return ret;
	if (rename(tmp, path)) {
		ret = -errno;
		unlink(tmp);
	}
	return ret;
}

int kbp_netns_open(const char *ns, char path[PATH_MAX])
{
	int fd;

	if (strchr(ns, '/'))
		snprintf(path, PATH_MAX, "%s", ns);
	else
		snprintf(path, PATH_MAX, "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int kbp_ns_enter(int netns_fd, int *saved)
{
	int err;

	*saved = -1;
	if (netns_fd < 0)
		return 0;
	*saved = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*saved < 0)
		return -errno;
	if (setns(netns_fd, CLONE_NEWNET)) {
		err = -errno;
		close(*saved);
		*saved = -1;
		return err;
	}
	return 0;
}

void kbp_ns_leave(int saved)
{
	if (saved < 0)
		return;
	setns(saved, CLONE_NEWNET);
	close(saved);
}

int kbp_rcu_sync(void)
{
	/* MEMBARRIER_CMD_GLOBAL is synchronize_rcu() in the kernel */
	if (!syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
		return 0;
	usleep(100000);		/* no membarrier: a generous wait */
	return 0;
}

int kbp_map_count(int fd, __u64 *n)
{
	struct bpf_map_info info = {};
	__u8 key[256], next[256];
	__u32 len = sizeof(info);
	int ret;

	ret = kbp_err(bpf_obj_get_info_by_fd(fd, &info, &len));
	if (ret)
		return ret;
	if (info.key_size > sizeof(key))
		return -E2BIG;
	*n = 0;
	for (ret = bpf_map_get_next_key(fd, NULL, next); !ret;
	     ret = bpf_map_get_next_key(fd, key, next)) {
		memcpy(key, next, info.key_size);
		(*n)++;
	}
	return errno == ENOENT ? 0 : -errno;
}

int kbp_map_keys(int fd, __u32 **out, __u32 *cnt)
{
	__u32 key, next, *v = NULL, *t, len = 0, cap = 0;
	int ret;

	for (ret = bpf_map_get_next_key(fd, NULL, &next); !ret;
	     ret = bpf_map_get_next_key(fd, &key, &next)) {
		key = next;
		if (len == cap) {
			cap = cap ? 2 * cap : 16;
			t = realloc(v, cap * sizeof(*v));
			if (!t) {
				free(v);
				return -ENOMEM;
			}
			v = t;
		}
		v[len++] = key;
	}
	*out = v;
	*cnt = len;
	return 0;
}

int kbp_obj_open(const struct kbp_obj *o, struct bpf_object **obj)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = o->name);
	const void *elf;
	size_t sz;

	elf = o->elf(&sz);
	*obj = bpf_object__open_mem(elf, sz, &opts);
	if (*obj)
		return 0;
	return -errno ?: -ENOMEM;
}

int kbp_set_max(struct bpf_object *obj, const char *map, __u32 n)
{
	struct bpf_map *m;

	if (!map)
		return 0;
	m = bpf_object__find_map_by_name(obj, map);
	return m ? bpf_map__set_max_entries(m, n) : -ENOENT;
}

int kbp_pin_maps(struct bpf_object *obj, const char *dir)
{
	struct bpf_map *map;
	char p[PATH_MAX];
	int ret;

	bpf_object__for_each_map(map, obj) {
		if (bpf_map__is_internal(map))
			continue;
		ret = kbp_path(dir, p, "%s", bpf_map__name(map));
		ret = ret ?: bpf_map__pin(map, p);
		if (ret)
			return ret;
	}
	return 0;
}

/* The map pinned at @dir under @map's name against @map: -EUCLEAN if differ. */
static int kbp_pin_matches(const struct bpf_map *map, const char *dir)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	char p[PATH_MAX];
	int fd, ret;

	ret = kbp_path(dir, p, "%s", bpf_map__name(map));
	if (ret)
		return ret;
	fd = bpf_obj_get(p);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	ret = kbp_err(bpf_obj_get_info_by_fd(fd, &info, &len));
	close(fd);
	if (ret)
		return ret;
	if (info.type != bpf_map__type(map) ||
	    info.key_size != bpf_map__key_size(map) ||
	    info.value_size != bpf_map__value_size(map))
		return -EUCLEAN;
	return 0;
}

int kbp_pins_match(const struct kbp_obj *o, const char *dir)
{
	struct bpf_object *obj;
	struct bpf_map *map;
	int ret;

	if (!o->elf)
		return 0;
	ret = kbp_obj_open(o, &obj);
	if (ret)
		return ret;
	bpf_object__for_each_map(map, obj) {
		if (bpf_map__is_internal(map))
			continue;
		ret = kbp_pin_matches(map, dir);
		if (ret)
			break;
	}
	bpf_object__close(obj);
	return ret;
}

int kbp_pin_prog(struct bpf_object *obj, const char *dir, const char *prog,
		 const char *pin)
{
	struct bpf_program *p = bpf_object__find_program_by_name(obj, prog);
	char path[PATH_MAX];
	int ret;

	if (!p)
		return -ENOENT;
	ret = kbp_path(dir, path, "%s", pin);
	return ret ?: bpf_program__pin(p, path);
}

void kbp_open_btf(__u32 btf_id, int *btf_fd, __u32 *key_id, __u32 *block_id)
{
	struct btf *btf;
	int id;

	if (!btf_id)
		return;		/* blocks maps without BTF still work */
	btf = btf__load_from_kernel_by_id(btf_id);
	if (!btf)
		return;
	id = btf__find_by_name_kind(btf, "kbloom_block", BTF_KIND_STRUCT);
	if (id > 0) {
		*block_id = id;
		id = btf__find_by_name_kind(btf, "__u32", BTF_KIND_TYPEDEF);
		if (id > 0)
			*key_id = id;
	}
	btf__free(btf);
	if (*block_id && *key_id)
		*btf_fd = bpf_btf_get_fd_by_id(btf_id);
}
