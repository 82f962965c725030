// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_stable: the loader of the XDP duplicate suppressor
 * (bpf/kbloom_dedupe.bpf.c, maps in uapi/kbloom_dedupe_maps.h).  The cells
 * map is mmapped: a library filter reads it word for word (relaxed loads)
 * and an image is copied into it word for word.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "stable_int.h"
#include "stable_xdp_int.h"
#include "bpf/kbloom_dedupe.skel.h"

struct kbloom_stable_xdp {
	struct kbloom_dedupe *skel;	/* NULL: adopted, @fd owned */
	struct kbst_xdp_fds fd;
	struct kb_shape s;
	__u32 hash_id;
	__u64 seed;
	__u64 *cells;		/* the mmapped dedupe_cells */
	size_t map_len;
	int ifindex;
	__u32 xdp_flags;
};

static int kbst_xdp_check(const struct kbloom_stable_xdp_opts *o,
			  struct kb_shape *s)
{
	if (o->reserved || o->hash_id > KBLOOM_HASH_MAX ||
	    o->action > KBLOOM_DEDUPE_DROP)
		return -EINVAL;
	return kb_stable_shape_init(s, o->m, o->k, o->cell_bits, o->p) ?
	       -EINVAL : 0;
}

static int kbst_xdp_params(struct kbloom_stable_xdp *x, __u32 action)
{
	struct kbloom_dedupe_params p = {
		.seed = x->seed, .m = x->s.m, .hash_id = x->hash_id,
		.k = x->s.k, .cell_bits = x->s.counter_bits,
		.p = (__u32)x->s.buckets, .action = action,
		.nwords = kb_shape_words(&x->s),
	};
	__u32 zero = 0;

	return bpf_map_update_elem(x->fd.params, &zero, &p, BPF_ANY) ?
	       -errno : 0;
}

/* Map the cells of @x->fd.cells. */
static int kbst_xdp_map(struct kbloom_stable_xdp *x)
{
	long page = sysconf(_SC_PAGESIZE);
	void *m;

	x->map_len = (kb_shape_words(&x->s) * 8 + page - 1) / page * page;
	m = mmap(NULL, x->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		 x->fd.cells, 0);
	if (m == MAP_FAILED)
		return -errno;
	x->cells = m;
	return 0;
}

/* Load the skeleton with the cells map sized, then map the cells. */
static int kbst_xdp_load(struct kbloom_stable_xdp *x)
{
	struct kbloom_dedupe *sk;
	int ret;

	sk = kbloom_dedupe__open();
	if (!sk)
		return -errno;
	x->skel = sk;
	ret = bpf_map__set_max_entries(sk->maps.dedupe_cells,
				       (__u32)kb_shape_words(&x->s));
	ret = ret ?: kbloom_dedupe__load(sk);
	if (ret)
		return ret;
	x->fd.prog = bpf_program__fd(sk->progs.kbloom_dedupe);
	x->fd.params = bpf_map__fd(sk->maps.dedupe_params);
	x->fd.cells = bpf_map__fd(sk->maps.dedupe_cells);
	x->fd.stats = bpf_map__fd(sk->maps.dedupe_stats);
	return kbst_xdp_map(x);
}

static struct kbloom_stable_xdp *kbst_xdp_alloc(void)
{
	struct kbloom_stable_xdp *x = calloc(1, sizeof(*x));

	if (x)
		x->fd = (struct kbst_xdp_fds){ -1, -1, -1, -1 };
	return x;
}

int kbloom_stable_xdp_open(const struct kbloom_stable_xdp_opts *o,
			   struct kbloom_stable_xdp **xp)
{
	struct kbloom_stable_xdp *x;
	struct kb_shape s;
	int ret;

	if (!o || !xp || kbst_xdp_check(o, &s))
		return -EINVAL;
	x = kbst_xdp_alloc();
	if (!x)
		return -ENOMEM;
	x->s = s;
	x->hash_id = o->hash_id ? o->hash_id : KBLOOM_HASH_FAST;
	x->seed = o->seed;
	ret = kbst_xdp_load(x);
	ret = ret ?: kbst_xdp_params(x, o->action);
	if (ret) {
		kbloom_stable_xdp_close(x);
		return ret;
	}
	*xp = x;
	return 0;
}

int kbloom_stable_xdp_prog_fd(const struct kbloom_stable_xdp *x)
{
	return x ? x->fd.prog : -EINVAL;
}

int kbloom_stable_xdp_attach(struct kbloom_stable_xdp *x, int ifindex,
			     __u32 xdp_flags)
{
	int ret;

	if (!x)
		return -EINVAL;
	if (x->ifindex)
		return -EBUSY;
	ret = bpf_xdp_attach(ifindex, kbloom_stable_xdp_prog_fd(x), xdp_flags,
			     NULL);
	if (ret)
		return ret;
	x->ifindex = ifindex;
	x->xdp_flags = xdp_flags;
	return 0;
}

int kbloom_stable_xdp_stats(const struct kbloom_stable_xdp *x,
			    struct kbloom_dedupe_stats *st)
{
	int ncpu = libbpf_num_possible_cpus(), c, i;
	struct kbloom_dedupe_stats *v;
	__u64 *sum = (__u64 *)st, *one;
	__u32 zero = 0;

	if (!x || !st || ncpu <= 0)
		return -EINVAL;
	v = calloc(ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(x->fd.stats, &zero, v)) {
		free(v);
		return -errno;
	}
	memset(st, 0, sizeof(*st));
	for (c = 0; c < ncpu; c++) {
		one = (__u64 *)&v[c];
		for (i = 0; i < (int)(sizeof(*st) / 8); i++)
			sum[i] += one[i];
	}
	free(v);
	return 0;
}

int kbloom_stable_xdp_read(const struct kbloom_stable_xdp *x,
			   struct kbloom_stable **fp)
{
	struct kbloom_stable *f;
	__u64 i;
	int ret;

	if (!x || !fp)
		return -EINVAL;
	ret = kbst_new(&x->s, x->hash_id, x->seed, &f);
	if (ret)
		return ret;
	for (i = 0; i < f->nwords; i++)
		f->words[i] = __atomic_load_n(&x->cells[i], __ATOMIC_RELAXED);
	*fp = f;
	return 0;
}

int kbloom_stable_xdp_load_image(struct kbloom_stable_xdp *x,
				 const void *img, size_t len)
{
	struct kbloom_stable *f;
	__u64 i;
	int ret;

	if (!x || !img)
		return -EINVAL;
	ret = kbloom_stable_load(img, len, &f);
	if (ret)
		return ret;
	if (memcmp(&f->s, &x->s, sizeof(f->s)) || f->hash_id != x->hash_id ||
	    f->seed != x->seed) {
		kbloom_stable_destroy(f);
		return -EINVAL;
	}
	for (i = 0; i < f->nwords; i++)
		__atomic_store_n(&x->cells[i], f->words[i], __ATOMIC_RELAXED);
	kbloom_stable_destroy(f);
	return 0;
}

void kbloom_stable_xdp_close(struct kbloom_stable_xdp *x)
{
	int *fd, i;

	if (!x)
		return;
	if (x->ifindex)
		bpf_xdp_detach(x->ifindex, x->xdp_flags, NULL);
	if (x->cells)
		munmap(x->cells, x->map_len);
	if (x->skel) {
		kbloom_dedupe__destroy(x->skel);
	} else {
		fd = &x->fd.prog;
		for (i = 0; i < 4; i++)
			if (fd[i] >= 0)
				close(fd[i]);
	}
	free(x);
}

/* ---- the instance kind's calls (stable_xdp_int.h) ------------------------ */

void kbst_xdp_fds(const struct kbloom_stable_xdp *x, struct kbst_xdp_fds *f)
{
	*f = x->fd;
}

static int kbst_xdp_read_params(const struct kbloom_stable_xdp *x,
				struct kbloom_dedupe_params *p)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(x->fd.params, &zero, p) ? -errno : 0;
}

int kbst_xdp_action(const struct kbloom_stable_xdp *x)
{
	struct kbloom_dedupe_params p;
	int ret = kbst_xdp_read_params(x, &p);

	return ret ?: (int)p.action;
}

/* The geometry of the params map, checked against the cells map. */
static int kbst_xdp_adopt_shape(struct kbloom_stable_xdp *x)
{
	struct kbloom_dedupe_params p;
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	int ret;

	ret = kbst_xdp_read_params(x, &p);
	if (ret)
		return ret;
	if (bpf_obj_get_info_by_fd(x->fd.cells, &info, &len))
		return -errno;
	if (kb_stable_shape_init(&x->s, p.m, p.k, p.cell_bits, p.p) ||
	    p.nwords != kb_shape_words(&x->s) ||
	    info.max_entries != p.nwords)
		return -EUCLEAN;
	x->hash_id = p.hash_id;
	x->seed = p.seed;
	return kbst_xdp_map(x);
}

int kbst_xdp_adopt(const struct kbst_xdp_fds *f, struct kbloom_stable_xdp **xp)
{
	const int *in = &f->prog;
	struct kbloom_stable_xdp *x;
	int *own, i, ret;

	x = kbst_xdp_alloc();
	if (!x)
		return -ENOMEM;
	own = &x->fd.prog;
	for (i = 0, ret = 0; i < 4 && !ret; i++) {
		own[i] = fcntl(in[i], F_DUPFD_CLOEXEC, 0);
		ret = own[i] < 0 ? -errno : 0;
	}
	ret = ret ?: kbst_xdp_adopt_shape(x);
	if (ret) {
		kbloom_stable_xdp_close(x);
		return ret;
	}
	*xp = x;
	return 0;
}
