// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the conntrack kind, the d-left connection
 * tracker of libkbloom_dleft (bpf/kbloom_dleft_ct.bpf.c) as a pinned
 * instance.
 *
 * Creating plans the filter (kb_dleft_plan(), its cells widened to 8, 16
 * or 32 bits: the XDP form's one-word cells), makes it with
 * kbloom_dleft_create_shape(), loads the tracker with
 * kbloom_dleft_xdp_open(), pins its program and maps, and opens the
 * instance from the pins like any later process: dl_xdp_adopt() gives the
 * d-left library's tracker over the pinned descriptors (the words map
 * mapped), and stats, export and import are that library's.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "libkbloom_xdp_count.h"
#include "userspace/lib/dleft/dleft_xdp_int.h"
#include "kind_count.h"
#include "kinds.h"

/* The pins, in the order of struct dl_xdp_fds. */
static const char *const ct_pins[] = {
	"prog_conntrack", "dleft_params", "dleft_words", "dleft_stats",
};

#define CT_NPINS	((int)(sizeof(ct_pins) / sizeof(ct_pins[0])))

static int ct_open(struct kbloom_inst *i)
{
	struct kbloom_dleft_xdp *x = NULL;
	struct dl_xdp_fds f;
	int ret;

	ret = kbc_get(i, ct_pins, CT_NPINS, &f.prog);
	if (!ret) {
		ret = dl_xdp_adopt(&f, &x);
		if (ret)
			kbi_log(i, "%s: the tracker's pins do not agree (%s/dleft_params): %s",
				i->name, i->dir, strerror(-ret));
	}
	kbc_close(&f.prog, CT_NPINS);
	i->priv = x;
	return ret;
}

int kbloom_xdp_conntrack_plan(__u64 n, __u64 p_pico, struct kb_shape *s)
{
	__u32 cell, w;
	int ret;

	if (!s)
		return -EINVAL;
	ret = kb_dleft_plan(n, p_pico, s);
	if (ret)
		return ret;
	w = s->counter_bits;
	cell = s->fp_bits + w;
	cell = cell <= 8 ? 8 : cell <= 16 ? 16 : cell <= 32 ? 32 : 0;
	if (!cell || cell - w > KB_DLEFT_REM_MAX)
		return -EINVAL;
	s->fp_bits = cell - w;
	return kb_shape_derive(s);
}

/* The empty filter of @co, planned or explicit. */
static int ct_filter(const struct kbloom_conntrack_opts *co,
		     struct kbloom_dleft **fp)
{
	struct kbloom_dleft_opts fo = co->filter;
	struct kb_shape s = co->shape;
	int ret;

	fo.name = NULL;
	if (co->miss > KBLOOM_DLEFT_MISS_DROP)
		return -EINVAL;
	if (co->capacity || co->fpr_pico) {
		ret = kbloom_xdp_conntrack_plan(co->capacity, co->fpr_pico, &s);
		if (ret)
			return ret;
	}
	return kbloom_dleft_create_shape(&s, &fo, fp);
}

static int ct_create(struct kbloom_inst *i, const void *opts)
{
	const struct kbloom_conntrack_opts *co = opts;
	struct kbloom_dleft_xdp *x = NULL;
	struct kbloom_dleft *f = NULL;
	struct dl_xdp_fds fds;
	int ret;

	ret = co ? ct_filter(co, &f) : -EINVAL;
	ret = ret ?: kbloom_dleft_xdp_open(f, co->miss, &x);
	kbloom_dleft_destroy(f);
	if (ret) {
		kbi_log(i, "%s: loading the tracker failed: %s", i->name,
			strerror(-ret));
		return ret;
	}
	dl_xdp_fds(x, &fds);
	ret = kbc_pin(i, ct_pins, CT_NPINS, &fds.prog);
	kbloom_dleft_xdp_close(x);
	return ret ?: ct_open(i);
}

static void ct_close(struct kbloom_inst *i)
{
	kbloom_dleft_xdp_close(i->priv);
	i->priv = NULL;
}

static int ct_prog_fd(const struct kbloom_inst *i)
{
	return kbloom_dleft_xdp_prog_fd(i->priv);
}

const struct kbi_ops kbx_conntrack_ops = {
	.kind = "conntrack",
	.create = ct_create,
	.open = ct_open,
	.close = ct_close,
	.prog_fd = ct_prog_fd,
	.run_prio = 10,
};

/* ---- the calls of libkbloom_xdp_count.h ------------------------------------- */

static struct kbloom_dleft_xdp *ct_of(struct kbloom_inst *i)
{
	return i && i->ops == &kbx_conntrack_ops ? i->priv : NULL;
}

int kbloom_xdp_conntrack_create(const char *name,
				const struct kbloom_inst_opts *o,
				const struct kbloom_conntrack_opts *co,
				struct kbloom_inst **ip)
{
	if (!co || !ip)
		return -EINVAL;
	return kbi_create(name, &kbx_conntrack_ops, o, co, ip);
}

int kbloom_xdp_conntrack_open(const char *name,
			      const struct kbloom_inst_opts *o,
			      struct kbloom_inst **ip)
{
	return kbc_open(name, o, &kbx_conntrack_ops, ip);
}

int kbloom_xdp_conntrack_params(struct kbloom_inst *i,
				struct kbloom_dleft_params *p)
{
	if (!ct_of(i) || !p)
		return -EINVAL;
	dl_xdp_params(ct_of(i), p);
	return 0;
}

int kbloom_xdp_conntrack_set_miss(struct kbloom_inst *i, __u32 miss)
{
	int ret;

	if (!ct_of(i))
		return -EINVAL;
	ret = kbi_lock(i);
	if (ret)
		return ret;
	ret = kbloom_dleft_xdp_set_miss(ct_of(i), miss);
	kbi_unlock(i);
	return ret;
}

int kbloom_xdp_conntrack_stats(struct kbloom_inst *i,
			       struct kbloom_dleft_xdp_stats *st)
{
	return ct_of(i) ? kbloom_dleft_xdp_stats(ct_of(i), st) : -EINVAL;
}

int kbloom_xdp_conntrack_export(struct kbloom_inst *i,
				struct kbloom_dleft **fp)
{
	struct kbloom_dleft_params p;
	struct kbloom_dleft_opts fo = {};
	struct kbloom_dleft *f = NULL;
	int ret;

	if (!ct_of(i) || !fp)
		return -EINVAL;
	dl_xdp_params(ct_of(i), &p);
	fo.hash_id = p.hash_id;
	fo.seed = p.seed;
	ret = kbloom_dleft_create_shape(&p.shape, &fo, &f);
	ret = ret ?: kbloom_dleft_xdp_export(ct_of(i), f);
	if (ret) {
		kbloom_dleft_destroy(f);
		return ret;
	}
	*fp = f;
	return 0;
}

int kbloom_xdp_conntrack_import(struct kbloom_inst *i,
				const struct kbloom_dleft *f)
{
	int ret;

	if (!ct_of(i))
		return -EINVAL;
	ret = kbi_lock(i);
	if (ret)
		return ret;
	ret = kbloom_dleft_xdp_import(ct_of(i), f);
	kbi_unlock(i);
	return ret;
}

int kbloom_xdp_conntrack_lookup(struct kbloom_inst *i,
				const struct kbloom_dleft_flow *k,
				__u64 *count)
{
	struct kbloom_dleft *f = NULL;
	int ret;

	if (!k || !count)
		return -EINVAL;
	ret = kbloom_xdp_conntrack_export(i, &f);
	ret = ret ?: kbloom_dleft_count(f, k, sizeof(*k), count);
	kbloom_dleft_destroy(f);
	return ret;
}
