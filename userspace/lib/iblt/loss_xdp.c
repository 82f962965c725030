// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom loss digest: the loader (bpf/kbloom_loss_digest.bpf.c through its
 * skeleton), the attachment as a BPF link, and the pins in one bpffs
 * directory: link, params, cells, stats.  The cells map is mmapped.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loss_int.h"
#include "uapi/kbloom_shape.h"
#include "bpf/kbloom_loss_digest.skel.h"

static const char *const kbl_pins[] = { "link", "params", "cells", "stats" };

static int kbl_path(char *buf, const char *dir, const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", dir, name);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/* The params of a geometry, or -EINVAL. */
static int kbl_params_of(const struct kbloom_loss_opts *o,
			 struct kbloom_loss_params *p)
{
	__u32 k = o->k ? o->k : KB_IBLT_K_DEFAULT;

	if (o->reserved || o->hash_id > KBLOOM_HASH_MAX ||
	    o->action > KBLOOM_LOSS_DROP || k < KB_IBLT_K_MIN ||
	    k > KB_IBLT_K_MAX || !o->cells ||
	    o->cells > KB_IBLT_CELLS_MAX / KBLOOM_LOSS_BANKS)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->seed = o->seed;
	p->hash_id = o->hash_id ? o->hash_id : KBLOOM_HASH_FAST;
	p->k = k;
	p->cells = (o->cells + k - 1) / k * k;
	p->action = o->action;
	return 0;
}

static bool kbl_params_ok(const struct kbloom_loss_params *p)
{
	return p->k >= KB_IBLT_K_MIN && p->k <= KB_IBLT_K_MAX && p->cells &&
	       !(p->cells % p->k) && p->bank < KBLOOM_LOSS_BANKS &&
	       p->hash_id >= KBLOOM_HASH_FAST && p->hash_id <= KBLOOM_HASH_MAX &&
	       p->cells <= KB_IBLT_CELLS_MAX / KBLOOM_LOSS_BANKS;
}

static int kbl_map_cells(struct kbloom_loss *l)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t bytes = (size_t)l->p.cells * KBLOOM_LOSS_BANKS *
		       sizeof(struct kbloom_loss_cell);
	void *m;

	l->map_len = (bytes + page - 1) / page * page;
	m = mmap(NULL, l->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		 l->cells_fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	l->cells = m;
	return 0;
}

static struct kbloom_loss *kbl_alloc(void)
{
	struct kbloom_loss *l = calloc(1, sizeof(*l));

	if (l) {
		l->params_fd = -1;
		l->cells_fd = -1;
		l->stats_fd = -1;
	}
	return l;
}

void kbloom_loss_close(struct kbloom_loss *l)
{
	if (!l)
		return;
	if (l->cells)
		munmap(l->cells, l->map_len);
	if (l->params_fd >= 0)
		close(l->params_fd);
	if (l->cells_fd >= 0)
		close(l->cells_fd);
	if (l->stats_fd >= 0)
		close(l->stats_fd);
	free(l);
}

/* Remove the pins of @dir that exist, then @dir. */
static int kbl_unpin(const char *dir)
{
	char path[PATH_MAX];
	unsigned int i;
	int ret = 0;

	for (i = 0; i < sizeof(kbl_pins) / sizeof(kbl_pins[0]); i++) {
		if (kbl_path(path, dir, kbl_pins[i]))
			return -ENAMETOOLONG;
		if (unlink(path) && errno != ENOENT)
			ret = -errno;
	}
	if (rmdir(dir) && !ret)
		ret = -errno;
	return ret;
}

int kbloom_loss_detach(const char *dir)
{
	struct stat st;

	if (!dir)
		return -EINVAL;
	if (stat(dir, &st))
		return -errno;
	return kbl_unpin(dir);
}

static int kbl_pin_all(struct kbloom_loss_digest *sk, int link_fd,
		       const char *dir)
{
	int fds[4] = { link_fd, bpf_map__fd(sk->maps.loss_params),
		       bpf_map__fd(sk->maps.loss_cells),
		       bpf_map__fd(sk->maps.loss_stats) };
	char path[PATH_MAX];
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < 4; i++) {
		ret = kbl_path(path, dir, kbl_pins[i]);
		if (!ret && bpf_obj_pin(fds[i], path))
			ret = -errno;
	}
	return ret;
}

/* Load, set the params, attach (a BPF link) and pin. */
static int kbl_load_attach(const char *dir, int ifindex,
			   const struct kbloom_loss_params *p, __u32 flags)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = flags);
	struct kbloom_loss_digest *sk;
	int ret, link_fd;
	__u32 zero = 0;

	sk = kbloom_loss_digest__open();
	if (!sk)
		return -errno;
	ret = bpf_map__set_max_entries(sk->maps.loss_cells,
				       p->cells * KBLOOM_LOSS_BANKS);
	ret = ret ?: kbloom_loss_digest__load(sk);
	if (!ret && bpf_map_update_elem(bpf_map__fd(sk->maps.loss_params),
					&zero, p, BPF_ANY))
		ret = -errno;
	if (ret)
		goto out_destroy;
	link_fd = bpf_link_create(bpf_program__fd(sk->progs.kbloom_loss),
				  ifindex, BPF_XDP, &lo);
	if (link_fd < 0) {
		ret = -errno;
		goto out_destroy;
	}
	ret = kbl_pin_all(sk, link_fd, dir);
	close(link_fd);
out_destroy:
	kbloom_loss_digest__destroy(sk);
	return ret;
}

int kbloom_loss_attach(const char *dir, int ifindex,
		       const struct kbloom_loss_opts *o,
		       struct kbloom_loss **lp)
{
	struct kbloom_loss_params p;
	int ret;

	if (!dir || !o || !lp || ifindex <= 0 || kbl_params_of(o, &p))
		return -EINVAL;
	if (mkdir(dir, 0700))
		return -errno;
	ret = kbl_load_attach(dir, ifindex, &p, o->xdp_flags);
	ret = ret ?: kbloom_loss_open(dir, lp);
	if (ret)
		kbl_unpin(dir);
	return ret;
}

static int kbl_get(const char *dir, const char *name, int *fd)
{
	char path[PATH_MAX];
	int ret = kbl_path(path, dir, name);

	if (ret)
		return ret;
	*fd = bpf_obj_get(path);
	return *fd < 0 ? -errno : 0;
}

int kbloom_loss_open(const char *dir, struct kbloom_loss **lp)
{
	struct kbloom_loss *l;
	__u32 zero = 0;
	int ret;

	if (!dir || !lp)
		return -EINVAL;
	l = kbl_alloc();
	if (!l)
		return -ENOMEM;
	ret = kbl_get(dir, "params", &l->params_fd);
	ret = ret ?: kbl_get(dir, "cells", &l->cells_fd);
	ret = ret ?: kbl_get(dir, "stats", &l->stats_fd);
	if (!ret && bpf_map_lookup_elem(l->params_fd, &zero, &l->p))
		ret = -errno;
	if (!ret && !kbl_params_ok(&l->p))
		ret = -EUCLEAN;
	ret = ret ?: kbl_map_cells(l);
	if (ret) {
		kbloom_loss_close(l);
		return ret;
	}
	*lp = l;
	return 0;
}
