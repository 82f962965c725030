// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_dleft: the loader of the XDP d-left connection tracker
 * (bpf/kbloom_dleft_ct.bpf.c).  It sizes the words map to the filter, maps
 * it (BPF_F_MMAPABLE), copies the cells in and writes the parameters
 * last, with ready = 1, so that the program sees a complete filter.
 */
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dleft_int.h"
#include "bpf/kbloom_dleft_ct.skel.h"

struct kbloom_dleft_xdp {
	struct kbloom_dleft_ct *skel;
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

	return dx_err(bpf_map_update_elem(bpf_map__fd(x->skel->maps.dleft_params),
					  &zero, &x->p, BPF_ANY));
}

/* Open, size and load the skeleton; map the words. */
static int dx_load(struct kbloom_dleft_xdp *x, __u64 nwords)
{
	long page = sysconf(_SC_PAGESIZE);
	void *mem;
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
	x->map_len = (nwords * 8 + page - 1) / page * page;
	mem = mmap(NULL, x->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		   bpf_map__fd(x->skel->maps.dleft_words), 0);
	if (mem == MAP_FAILED)
		return -errno;
	x->words = mem;
	return 0;
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
	x = calloc(1, sizeof(*x));
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
	kbloom_dleft_ct__destroy(x->skel);
	free(x);
}

int kbloom_dleft_xdp_prog_fd(const struct kbloom_dleft_xdp *x)
{
	return x ? bpf_program__fd(x->skel->progs.xdp_dleft) : -EINVAL;
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
	ret = dx_err(bpf_map_lookup_elem(bpf_map__fd(x->skel->maps.dleft_stats),
					 &zero, per));
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
