// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: what is read from a window instance's maps
 * (libkbloom_xdp_window.h): its mode, geometry and clock, its counters
 * summed over the CPUs, and its words as an AGE_PARTITIONED image that
 * libkbloom_window loads (the generation's age as its clock).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "libkbloom_xdp_window.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_var_window.h"
#include "kind_window.h"
#include "kinds.h"
#include "pin.h"

static struct kbw *kbw_of(struct kbloom_inst *i)
{
	return i && i->ops == &kbx_window_ops ? i->priv : NULL;
}

int kbloom_xdp_window_mode(struct kbloom_inst *i)
{
	struct kbw *w = kbw_of(i);

	return w ? (int)w->mode : -EINVAL;
}

int kbloom_xdp_window_params(struct kbloom_inst *i,
			     struct kbloom_win_xdp_params *p,
			     struct kbloom_win_xdp_state *st)
{
	struct kbw *w = kbw_of(i);
	__u32 zero = 0;
	int ret;

	if (!w || !p || !st)
		return -EINVAL;
	ret = bpf_map_lookup_elem(w->fd[KBW_PARAMS], &zero, p);
	ret = ret ?: bpf_map_lookup_elem(w->fd[KBW_STATE], &zero, st);
	return kbp_err(ret);
}

static void kbw_add(struct kbloom_win_xdp_stats *s,
		    const struct kbloom_win_xdp_stats *v)
{
	const __u64 *a = (const __u64 *)v;
	__u64 *t = (__u64 *)s;
	size_t k;

	for (k = 0; k < sizeof(*s) / sizeof(__u64); k++)
		t[k] += a[k];
}

int kbloom_xdp_window_stats(struct kbloom_inst *i,
			    struct kbloom_win_xdp_stats *st)
{
	int n = libbpf_num_possible_cpus(), c, ret;
	struct kbloom_win_xdp_stats *v;
	struct kbw *w = kbw_of(i);
	__u32 zero = 0;

	if (!w || !st)
		return -EINVAL;
	if (n <= 0)
		return n ? n : -EINVAL;
	v = calloc(n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	ret = kbp_err(bpf_map_lookup_elem(w->fd[KBW_STATS], &zero, v));
	memset(st, 0, sizeof(*st));
	for (c = 0; !ret && c < n; c++)
		kbw_add(st, &v[c]);
	free(v);
	return ret;
}

/* The words, little-endian, after the header. */
static int kbw_words(const struct kbw *w, __u8 *out, __u32 n)
{
	__u32 k;
	__u64 v;

	for (k = 0; k < n; k++) {
		if (bpf_map_lookup_elem(w->fd[KBW_WORDS], &k, &v))
			return -errno;
		v = kb_le64(v);
		memcpy(out + k * 8ULL, &v, 8);
	}
	return 0;
}

static __u64 kbw_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The header: geometry, hash, and the clock as the generation's age. */
static int kbw_head(const struct kbloom_win_xdp_params *p,
		    const struct kbloom_win_xdp_state *st,
		    struct kbloom_image_head *hd)
{
	__u64 age = kbw_now() - st->gen_start;
	struct kb_shape s;

	if (kb_win_shape_init(&s, p->k, p->l, p->slice_bits, KB_WIN_CLOCK_NS))
		return -EINVAL;
	kb_image_head_init(hd, &s, p->hash_id, p->seed);
	hd->g.reserved[KB_WIN_GEOM_GEN_LEN] = kb_le64(p->gen_ns);
	hd->g.reserved[KB_WIN_GEOM_HEAD] = kb_le64(st->head);
	hd->g.reserved[KB_WIN_GEOM_CLOCK] = kb_le64(age < p->gen_ns ? age :
						    p->gen_ns);
	hd->g.reserved[KB_WIN_GEOM_ROTATIONS] = kb_le64(st->rotations);
	return 0;
}

int kbloom_xdp_window_save_alloc(struct kbloom_inst *i, void **img,
				 size_t *len)
{
	struct kbloom_win_xdp_params p;
	struct kbloom_win_xdp_state st;
	struct kbloom_image_head hd;
	struct kbw *w = kbw_of(i);
	__u32 n;
	__u8 *b;
	int ret;

	if (!w || !img || !len)
		return -EINVAL;
	ret = kbloom_xdp_window_params(i, &p, &st);
	ret = ret ?: kbw_head(&p, &st, &hd);
	if (ret)
		return ret;
	n = (__u32)((p.k + p.l) * (p.slice_bits / 64));
	b = calloc(1, sizeof(hd) + n * 8ULL);
	if (!b)
		return -ENOMEM;
	ret = kbw_words(w, b + sizeof(hd), n);
	if (ret) {
		free(b);
		return ret;
	}
	hd.h.crc = kb_le32(kb_image_crc_head(&hd, b + sizeof(hd), n * 8ULL));
	memcpy(b, &hd, sizeof(hd));
	*img = b;
	*len = sizeof(hd) + n * 8ULL;
	return 0;
}
