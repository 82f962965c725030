// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_sketch: the loader of the XDP counting sketch
 * (bpf/kbloom_countmin.bpf.c, maps in uapi/kbloom_sketch_maps.h).  One
 * form is loaded (per-CPU or shared rows); its two sketch maps get the
 * sketch's word count, the other form's keep one element.  The maps are
 * read and written as the words of the uapi layout, so a map becomes a
 * library sketch (and an image) and the other way round.
 *
 * An XDP sketch either owns its loaded skeleton (kbloom_sketch_xdp_open())
 * or, made by kbs_xdp_adopt() from the pins of an instance
 * (sketch_xdp_int.h), descriptors of its program and maps; every call
 * below goes through the descriptors.
 */
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>

#include "sketch_int.h"
#include "sketch_xdp_int.h"
#include "bpf/kbloom_countmin.skel.h"

struct kbloom_sketch_xdp {
	struct kbloom_countmin *skel;	/* NULL: adopted, @fd owned */
	struct kbloom_sketch *proto;	/* geometry and seed, no counts */
	struct kbs_xdp_fds fd;		/* rows[]: packets, bytes */
	int ncpu;
	int shared;
	int ifindex;
	__u32 xdp_flags;
};

#define KBX_NFDS	((int)(sizeof(struct kbs_xdp_fds) / sizeof(int)))

static void kbx_fds_close(struct kbs_xdp_fds *f)
{
	int *fd = &f->prog, i;

	for (i = 0; i < KBX_NFDS; i++)
		if (fd[i] >= 0)
			close(fd[i]);
}

/* A new XDP sketch, no descriptors yet. */
static struct kbloom_sketch_xdp *kbx_alloc(void)
{
	struct kbloom_sketch_xdp *x = calloc(1, sizeof(*x));
	int *fd, i;

	if (!x)
		return NULL;
	fd = &x->fd.prog;
	for (i = 0; i < KBX_NFDS; i++)
		fd[i] = -1;
	x->ncpu = libbpf_num_possible_cpus();
	return x;
}

static int kbx_opts_check(const struct kbloom_sketch_xdp_opts *o)
{
	if (o->shared > 1 || o->action > KBLOOM_SKETCH_DROP ||
	    (o->flags & ~KBLOOM_SKETCH_F_ALL))
		return -EINVAL;
	if (o->shared && o->geom.update == KB_CM_MIN_INC)
		return -EOPNOTSUPP;
	return 0;
}

/*
 * The two row maps (packets, bytes), per possible CPU unless shared: more
 * than the machine's memory is refused before the kernel tries (it
 * allocates a per-CPU array element by element: minutes, then ENOMEM).
 */
static int kbx_fits(const struct kbloom_sketch_xdp *x)
{
	__u64 bytes = kbloom_sketch_words(x->proto) * 8ULL * 2 *
		      (x->shared ? 1 : (__u64)x->ncpu);
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	if (pages > 0 && psz > 0 && bytes / (__u64)psz >= (__u64)pages)
		return -E2BIG;
	return 0;
}

/* Size the loaded form's maps, leave the other program out. */
static int kbx_prepare(struct kbloom_sketch_xdp *x, struct bpf_map *map[2])
{
	struct kbloom_countmin *sk = x->skel;
	struct bpf_program *other;
	int i, ret;

	other = x->shared ? sk->progs.kbloom_sketch_pcpu :
			    sk->progs.kbloom_sketch_shared;
	map[0] = x->shared ? sk->maps.sketch_pkts : sk->maps.sketch_pkts_pcpu;
	map[1] = x->shared ? sk->maps.sketch_bytes : sk->maps.sketch_bytes_pcpu;
	ret = bpf_program__set_autoload(other, false);
	for (i = 0; i < 2 && !ret; i++)
		ret = bpf_map__set_max_entries(map[i], (__u32)x->proto->nwords);
	return ret;
}

/* The descriptors of the loaded skeleton. */
static void kbx_skel_fds(struct kbloom_sketch_xdp *x, struct bpf_map *map[2])
{
	struct kbloom_countmin *sk = x->skel;

	x->fd.prog = bpf_program__fd(x->shared ? sk->progs.kbloom_sketch_shared :
					       sk->progs.kbloom_sketch_pcpu);
	x->fd.params = bpf_map__fd(sk->maps.sketch_params);
	x->fd.rows[0] = bpf_map__fd(map[0]);
	x->fd.rows[1] = bpf_map__fd(map[1]);
	x->fd.stats = bpf_map__fd(sk->maps.sketch_stats);
}

static int kbx_params(struct kbloom_sketch_xdp *x,
		      const struct kbloom_sketch_xdp_opts *o)
{
	const struct kbloom_sketch *s = x->proto;
	struct kbloom_sketch_params p = {
		.seed = s->seed, .width = s->shape.buckets,
		.hash_id = s->hash_id, .rows = s->shape.tables,
		.counter_bits = s->shape.counter_bits,
		.update = s->shape.update, .action = o->action,
		.flags = o->flags, .mark = o->mark,
		.threshold = o->threshold, .nwords = s->nwords,
	};
	__u32 zero = 0;

	return bpf_map_update_elem(x->fd.params, &zero, &p, BPF_ANY) ?
	       -errno : 0;
}

int kbloom_sketch_xdp_open(const struct kbloom_sketch_xdp_opts *o,
			   struct kbloom_sketch_xdp **xp)
{
	struct kbloom_sketch_xdp *x;
	struct bpf_map *map[2];
	int ret;

	if (!o || !xp)
		return -EINVAL;
	ret = kbx_opts_check(o);
	if (ret)
		return ret;
	x = kbx_alloc();
	if (!x)
		return -ENOMEM;
	x->shared = o->shared;
	ret = x->ncpu > 0 ? 0 : x->ncpu;
	if (!ret)
		ret = kbloom_sketch_create(&o->geom, &x->proto);
	if (!ret)
		ret = kbx_fits(x);
	if (ret)
		goto err_free;
	x->skel = kbloom_countmin__open();
	if (!x->skel) {
		ret = -errno;
		goto err_free;
	}
	ret = kbx_prepare(x, map);
	if (!ret)
		ret = kbloom_countmin__load(x->skel);
	if (!ret) {
		kbx_skel_fds(x, map);
		ret = kbx_params(x, o);
	}
	if (ret)
		goto err_free;
	*xp = x;
	return 0;

err_free:
	kbloom_sketch_xdp_close(x);
	return ret;
}

int kbloom_sketch_xdp_prog_fd(const struct kbloom_sketch_xdp *x)
{
	return x ? x->fd.prog : -EINVAL;
}

int kbloom_sketch_xdp_attach(struct kbloom_sketch_xdp *x, int ifindex,
			     __u32 xdp_flags)
{
	int ret;

	if (!x)
		return -EINVAL;
	if (x->ifindex)
		return -EBUSY;
	ret = bpf_xdp_attach(ifindex, x->fd.prog, xdp_flags, NULL);
	if (ret)
		return ret;
	x->ifindex = ifindex;
	x->xdp_flags = xdp_flags;
	return 0;
}

/* All words of map @which: ncpu values per word (1 for shared rows). */
static int kbx_dump(const struct kbloom_sketch_xdp *x, int which,
		    __u64 **out)
{
	__u32 per = x->shared ? 1 : (__u32)x->ncpu, i, n;
	int fd = x->fd.rows[which];
	__u64 *v;

	n = (__u32)x->proto->nwords;
	v = calloc((size_t)n * per, 8);
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (bpf_map_lookup_elem(fd, &i, v + (size_t)i * per)) {
			free(v);
			return -errno;
		}
	}
	*out = v;
	return 0;
}

int kbloom_sketch_xdp_stats(const struct kbloom_sketch_xdp *x,
			    struct kbloom_sketch_stats *st)
{
	struct kbloom_sketch_stats *v;
	__u64 *sum = (__u64 *)st;
	const __u64 *one;
	__u32 zero = 0;
	size_t f, n = sizeof(*st) / 8;
	int c, ret = 0;

	if (!x || !st)
		return -EINVAL;
	v = calloc(x->ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	memset(st, 0, sizeof(*st));
	if (bpf_map_lookup_elem(x->fd.stats, &zero, v))
		ret = -errno;
	for (c = 0; c < x->ncpu && !ret; c++) {
		one = (const __u64 *)&v[c];
		for (f = 0; f < n; f++)
			sum[f] += one[f];
	}
	free(v);
	return ret;
}

/* CPU @cpu's words of a dump, in a fresh array of the sketch's words. */
static void kbx_cpu_words(const struct kbloom_sketch_xdp *x, const __u64 *v,
			  int cpu, __u64 *words)
{
	__u32 per = x->shared ? 1 : (__u32)x->ncpu;
	__u64 i;

	for (i = 0; i < x->proto->nwords; i++)
		words[i] = v[i * per + cpu];
}

int kbloom_sketch_xdp_read(const struct kbloom_sketch_xdp *x, int bytes,
			   struct kbloom_sketch **sp)
{
	struct kbloom_sketch_stats st;
	struct kbloom_sketch *s = NULL;
	__u64 *v = NULL, *words = NULL;
	int c, ret;

	if (!x || !sp || bytes < 0 || bytes > 1)
		return -EINVAL;
	ret = kbloom_sketch_xdp_stats(x, &st);
	if (!ret)
		ret = kbx_dump(x, bytes, &v);
	if (!ret)
		ret = kbs_new(&x->proto->shape, x->proto->hash_id,
			      x->proto->seed, &s);
	words = ret ? NULL : calloc(x->proto->nwords, 8);
	if (!ret && !words)
		ret = -ENOMEM;
	for (c = 0; !ret && c < (x->shared ? 1 : x->ncpu); c++) {
		kbx_cpu_words(x, v, c, words);
		ret = kbloom_sketch_merge_words(s, words, s->nwords, 0);
	}
	if (!ret) {
		s->total = bytes ? st.bytes : st.counted;
		*sp = s;
		s = NULL;
	}
	kbloom_sketch_free(s);
	free(words);
	free(v);
	return ret;
}

int kbloom_sketch_xdp_write(struct kbloom_sketch_xdp *x, int bytes,
			    const struct kbloom_sketch *s)
{
	__u32 per, i;
	__u64 *v;
	int fd, ret = 0;

	if (!x || !s || bytes < 0 || bytes > 1)
		return -EINVAL;
	if (memcmp(&s->shape, &x->proto->shape, sizeof(s->shape)) ||
	    s->hash_id != x->proto->hash_id || s->seed != x->proto->seed)
		return -EINVAL;
	per = x->shared ? 1 : (__u32)x->ncpu;
	v = calloc(per, 8);
	if (!v)
		return -ENOMEM;
	fd = x->fd.rows[bytes];
	for (i = 0; i < s->nwords && !ret; i++) {
		v[0] = s->words[i];
		if (bpf_map_update_elem(fd, &i, v, BPF_ANY))
			ret = -errno;
	}
	free(v);
	return ret;
}

void kbloom_sketch_xdp_close(struct kbloom_sketch_xdp *x)
{
	if (!x)
		return;
	if (x->ifindex)
		bpf_xdp_detach(x->ifindex, x->xdp_flags, NULL);
	if (x->skel)
		kbloom_countmin__destroy(x->skel);
	else
		kbx_fds_close(&x->fd);
	kbloom_sketch_free(x->proto);
	free(x);
}

/* ---- adopted from pins (sketch_xdp_int.h) ------------------------------- */

void kbs_xdp_fds(const struct kbloom_sketch_xdp *x, struct kbs_xdp_fds *f)
{
	*f = x->fd;
}

/* Type and element count of map @fd. */
static int kbx_map_info(int fd, __u32 *type, __u32 *max)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	*type = info.type;
	*max = info.max_entries;
	return 0;
}

/* The form and geometry of the adopted maps, from the params. */
static int kbx_adopt_shape(struct kbloom_sketch_xdp *x)
{
	struct kbloom_sketch_opts o = { .flags = KBLOOM_SKETCH_SEED };
	struct kbloom_sketch_params p;
	__u32 zero = 0, type[2], max[2];
	int i, ret;

	if (bpf_map_lookup_elem(x->fd.params, &zero, &p))
		return -errno;
	for (i = 0; i < 2; i++) {
		ret = kbx_map_info(x->fd.rows[i], &type[i], &max[i]);
		if (ret)
			return ret;
	}
	x->shared = type[0] == BPF_MAP_TYPE_ARRAY;
	o.rows = p.rows;
	o.width = p.width;
	o.counter_bits = p.counter_bits;
	o.update = p.update;
	o.hash_id = p.hash_id;
	o.seed = p.seed;
	if (type[0] != type[1] || kbloom_sketch_create(&o, &x->proto))
		return -EUCLEAN;
	if (x->proto->nwords != p.nwords || max[0] != p.nwords ||
	    max[1] != p.nwords)
		return -EUCLEAN;
	return 0;
}

int kbs_xdp_adopt(const struct kbs_xdp_fds *f, struct kbloom_sketch_xdp **xp)
{
	const int *in = &f->prog;
	struct kbloom_sketch_xdp *x;
	int *own, i, ret;

	x = kbx_alloc();
	if (!x)
		return -ENOMEM;
	own = &x->fd.prog;
	for (i = 0, ret = 0; i < KBX_NFDS && !ret; i++) {
		own[i] = fcntl(in[i], F_DUPFD_CLOEXEC, 0);
		ret = own[i] < 0 ? -errno : 0;
	}
	if (!ret)
		ret = x->ncpu > 0 ? kbx_adopt_shape(x) : x->ncpu;
	if (ret) {
		kbloom_sketch_xdp_close(x);
		return ret;
	}
	*xp = x;
	return 0;
}
