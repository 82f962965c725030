// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_dleft: the loader of the XDP d-left connection tracker
 * (bpf/kbloom_dleft_ct.bpf.c).  It sizes the words map to the filter, maps
 * it (BPF_F_MMAPABLE), copies the cells in and writes the parameters
 * last, with ready = 1, so that the program sees a complete filter.
 *
 * A tracker either owns its loaded skeleton (kbloom_dleft_xdp_open()) or,
 * made by dl_xdp_adopt() from the pins of an instance (dleft_xdp_int.h),
 * descriptors of its program and maps; every call below goes through the
 * descriptors.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dleft_int.h"
#include "dleft_xdp_int.h"
#include "bpf/kbloom_dleft_ct.skel.h"

#define DX_NFDS	((int)(sizeof(struct dl_xdp_fds) / sizeof(int)))

struct kbloom_dleft_xdp {
	struct kbloom_dleft_ct *skel;	/* NULL: adopted, @fd owned */
	struct dl_xdp_fds fd;
	struct kbloom_dleft_params p;
	__u64 *words;
	size_t map_len;
	int ifindex;
	__u32 flags;
};

static int dx_err(int ret)
{
	return ret < 0 ? (errno ? -errno : ret) : ret;
}

static int dx_same(const struct kbloom_dleft_xdp *x,
		   const struct kbloom_dleft *f)
{
	return !memcmp(&x->p.shape, &f->s, sizeof(f->s)) &&
	       x->p.hash_id == f->hash_id && x->p.seed == f->seed;
}

static void dx_params(struct kbloom_dleft_params *p,
		      const struct kbloom_dleft *f, __u32 miss)
{
	memset(p, 0, sizeof(*p));
	p->shape = f->s;
	p->q = f->q;
	p->hash_id = f->hash_id;
	p->seed = f->seed;
	p->nwords = f->nwords;
	p->miss = miss;
	p->ready = 1;
}

static int dx_write_params(struct kbloom_dleft_xdp *x)
{
	__u32 zero = 0;

	return dx_err(bpf_map_update_elem(x->fd.params, &zero, &x->p,
					  BPF_ANY));
}

/* A new tracker, no descriptors yet. */
static struct kbloom_dleft_xdp *dx_alloc(void)
{
	struct kbloom_dleft_xdp *x = calloc(1, sizeof(*x));
	int *fd, i;

	if (!x)
		return NULL;
	fd = &x->fd.prog;
	for (i = 0; i < DX_NFDS; i++)
		fd[i] = -1;
	return x;
}

/* Map the words of map @x->fd.words. */
static int dx_map(struct kbloom_dleft_xdp *x, __u64 nwords)
{
	long page = sysconf(_SC_PAGESIZE);
	void *mem;

	x->map_len = (nwords * 8 + page - 1) / page * page;
	mem = mmap(NULL, x->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		   x->fd.words, 0);
	if (mem == MAP_FAILED)
		return -errno;
	x->words = mem;
	return 0;
}

/* Open, size and load the skeleton; map the words. */
static int dx_load(struct kbloom_dleft_xdp *x, __u64 nwords)
{
	struct kbloom_dleft_ct *sk;
	int ret;

	x->skel = kbloom_dleft_ct__open();
	if (!x->skel)
		return -errno ? -errno : -ENOMEM;
	ret = bpf_map__set_max_entries(x->skel->maps.dleft_words,
				       (__u32)nwords);
	if (!ret)
		ret = kbloom_dleft_ct__load(x->skel);
	if (ret)
		return dx_err(ret);
	sk = x->skel;
	x->fd.prog = bpf_program__fd(sk->progs.xdp_dleft);
	x->fd.params = bpf_map__fd(sk->maps.dleft_params);
	x->fd.words = bpf_map__fd(sk->maps.dleft_words);
	x->fd.stats = bpf_map__fd(sk->maps.dleft_stats);
	return dx_map(x, nwords);
}

static void dx_fds_close(struct dl_xdp_fds *f)
{
	int *fd = &f->prog, i;

	for (i = 0; i < DX_NFDS; i++)
		if (fd[i] >= 0)
			close(fd[i]);
}

int kbloom_dleft_xdp_open(const struct kbloom_dleft *f, __u32 miss,
			  struct kbloom_dleft_xdp **xp)
{
	struct kbloom_dleft_xdp *x;
	int ret;

	if (!f || !xp || miss > KBLOOM_DLEFT_MISS_DROP ||
	    !kb_dleft_shape_atomic(&f->s))
		return -EINVAL;
	if (f->nwords > KBLOOM_DLEFT_WORDS_MAX)
		return -E2BIG;
	x = dx_alloc();
	if (!x)
		return -ENOMEM;
	dx_params(&x->p, f, miss);
	ret = dx_load(x, f->nwords);
	if (ret)
		goto err_close;
	ret = kbloom_dleft_xdp_import(x, f);
	if (ret)
		goto err_close;
	*xp = x;
	return 0;

err_close:
	kbloom_dleft_xdp_close(x);
	return ret;
}

void kbloom_dleft_xdp_close(struct kbloom_dleft_xdp *x)
{
	if (!x)
		return;
	kbloom_dleft_xdp_detach(x);
	if (x->words)
		munmap(x->words, x->map_len);
	if (x->skel)
		kbloom_dleft_ct__destroy(x->skel);
	else
		dx_fds_close(&x->fd);
	free(x);
}

int kbloom_dleft_xdp_prog_fd(const struct kbloom_dleft_xdp *x)
{
	return x ? x->fd.prog : -EINVAL;
}

int kbloom_dleft_xdp_attach(struct kbloom_dleft_xdp *x, int ifindex,
			    __u32 flags)
{
	int ret;

	if (!x || ifindex <= 0 || x->ifindex)
		return -EINVAL;
	ret = bpf_xdp_attach(ifindex, kbloom_dleft_xdp_prog_fd(x), flags,
			     NULL);
	if (ret)
		return dx_err(ret);
	x->ifindex = ifindex;
	x->flags = flags;
	return 0;
}

int kbloom_dleft_xdp_detach(struct kbloom_dleft_xdp *x)
{
	int ret;

	if (!x || !x->ifindex)
		return 0;
	ret = bpf_xdp_detach(x->ifindex, x->flags, NULL);
	x->ifindex = 0;
	return dx_err(ret);
}

int kbloom_dleft_xdp_set_miss(struct kbloom_dleft_xdp *x, __u32 miss)
{
	if (!x || miss > KBLOOM_DLEFT_MISS_DROP)
		return -EINVAL;
	x->p.miss = miss;
	return dx_write_params(x);
}

int kbloom_dleft_xdp_stats(const struct kbloom_dleft_xdp *x,
			   struct kbloom_dleft_xdp_stats *st)
{
	int ncpu = libbpf_num_possible_cpus(), i, j, ret;
	struct kbloom_dleft_xdp_stats *per;
	__u64 *sum = (__u64 *)st;
	const __u64 *one;
	__u32 zero = 0;

	if (!x || !st || ncpu <= 0)
		return -EINVAL;
	per = calloc(ncpu, sizeof(*per));
	if (!per)
		return -ENOMEM;
	ret = dx_err(bpf_map_lookup_elem(x->fd.stats, &zero, per));
	memset(st, 0, sizeof(*st));
	for (i = 0; !ret && i < ncpu; i++) {
		one = (const __u64 *)&per[i];
		for (j = 0; j < (int)(sizeof(*st) / 8); j++)
			sum[j] += one[j];
	}
	free(per);
	return ret;
}

int kbloom_dleft_xdp_export(const struct kbloom_dleft_xdp *x,
			    struct kbloom_dleft *f)
{
	__u64 i;

	if (!x || !f || !dx_same(x, f))
		return -EINVAL;
	for (i = 0; i < f->nwords; i++)
		dl_store(&f->words[i], dl_load(&x->words[i]));
	return 0;
}

int kbloom_dleft_xdp_import(struct kbloom_dleft_xdp *x,
			    const struct kbloom_dleft *f)
{
	__u64 i;

	if (!x || !f || !dx_same(x, f))
		return -EINVAL;
	for (i = 0; i < f->nwords; i++)
		dl_store(&x->words[i], dl_load(&f->words[i]));
	return dx_write_params(x);
}

/* ---- adopted from pins (dleft_xdp_int.h) -------------------------------- */

void dl_xdp_fds(const struct kbloom_dleft_xdp *x, struct dl_xdp_fds *f)
{
	*f = x->fd;
}

void dl_xdp_params(const struct kbloom_dleft_xdp *x,
		   struct kbloom_dleft_params *p)
{
	*p = x->p;
}

/* The params of the adopted maps, checked against the words map. */
static int dx_adopt_params(struct kbloom_dleft_xdp *x)
{
	struct bpf_map_info info = {};
	__u32 zero = 0, len = sizeof(info);
	const struct kb_shape *s = &x->p.shape;

	if (bpf_map_lookup_elem(x->fd.params, &zero, &x->p) ||
	    bpf_obj_get_info_by_fd(x->fd.words, &info, &len))
		return -errno;
	if (!x->p.ready || s->type != KBLOOM_TYPE_DLEFT || kb_shape_check(s) ||
	    !kb_dleft_shape_atomic(s) || kb_shape_words(s) != x->p.nwords ||
	    info.max_entries != x->p.nwords)
		return -EUCLEAN;
	return 0;
}

int dl_xdp_adopt(const struct dl_xdp_fds *f, struct kbloom_dleft_xdp **xp)
{
	const int *in = &f->prog;
	struct kbloom_dleft_xdp *x;
	int *own, i, ret = 0;

	x = dx_alloc();
	if (!x)
		return -ENOMEM;
	own = &x->fd.prog;
	for (i = 0; i < DX_NFDS && !ret; i++) {
		own[i] = fcntl(in[i], F_DUPFD_CLOEXEC, 0);
		ret = own[i] < 0 ? -errno : 0;
	}
	ret = ret ?: dx_adopt_params(x);
	ret = ret ?: dx_map(x, x->p.nwords);
	if (ret) {
		kbloom_dleft_xdp_close(x);
		return ret;
	}
	*xp = x;
	return 0;
}
