// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the sketch kind, the Count-Min sketch of
 * libkbloom_sketch (bpf/kbloom_countmin.bpf.c) as a pinned instance.
 *
 * Creating loads the sketch with kbloom_sketch_xdp_open() (its sizing,
 * parameters and form are the sketch library's), pins its program and
 * maps, and opens the instance from the pins like any later process:
 * kbs_xdp_adopt() gives the sketch library's object over the pinned
 * descriptors, and every read and write is that library's.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "libkbloom_xdp_count.h"
#include "userspace/lib/sketch/sketch_xdp_int.h"
#include "kind_count.h"
#include "kinds.h"
#include "pin.h"

/* The pins, in the order of struct kbs_xdp_fds. */
static const char *const sk_pins[] = {
	"prog_sketch", "sketch_params", "sketch_pkts", "sketch_bytes",
	"sketch_stats",
};

#define SK_NPINS	((int)(sizeof(sk_pins) / sizeof(sk_pins[0])))

static int sk_open(struct kbloom_inst *i)
{
	struct kbloom_sketch_xdp *x = NULL;
	struct kbs_xdp_fds f;
	int ret;

	ret = kbc_get(i, sk_pins, SK_NPINS, &f.prog);
	if (!ret) {
		ret = kbs_xdp_adopt(&f, &x);
		if (ret)
			kbi_log(i, "%s: the sketch's pins do not agree (%s/sketch_params): %s",
				i->name, i->dir, strerror(-ret));
	}
	kbc_close(&f.prog, SK_NPINS);
	i->priv = x;
	return ret;
}

static int sk_create(struct kbloom_inst *i, const void *opts)
{
	struct kbloom_sketch_xdp *x;
	struct kbs_xdp_fds f;
	int ret;

	if (!opts) {
		kbi_log(i, "%s: no sketch options", i->name);
		return -EINVAL;
	}
	ret = kbloom_sketch_xdp_open(opts, &x);
	if (ret == -E2BIG) {
		kbi_log(i, "%s: its rows would need more than this machine's memory (packets and bytes, per CPU unless shared)",
			i->name);
		return ret;
	}
	if (ret) {
		kbi_log(i, "%s: loading the sketch failed: %s", i->name,
			strerror(-ret));
		return ret;
	}
	kbs_xdp_fds(x, &f);
	ret = kbc_pin(i, sk_pins, SK_NPINS, &f.prog);
	kbloom_sketch_xdp_close(x);
	return ret ?: sk_open(i);
}

static void sk_close(struct kbloom_inst *i)
{
	kbloom_sketch_xdp_close(i->priv);
	i->priv = NULL;
}

static int sk_prog_fd(const struct kbloom_inst *i)
{
	return kbloom_sketch_xdp_prog_fd(i->priv);
}

const struct kbi_ops kbx_sketch_ops = {
	.kind = "sketch",
	.create = sk_create,
	.open = sk_open,
	.close = sk_close,
	.prog_fd = sk_prog_fd,
	.run_prio = 10,
};

/* ---- the calls of libkbloom_xdp_count.h ------------------------------------- */

static struct kbloom_sketch_xdp *sk_of(struct kbloom_inst *i)
{
	return i && i->ops == &kbx_sketch_ops ? i->priv : NULL;
}

int kbloom_xdp_sketch_create(const char *name,
			     const struct kbloom_inst_opts *o,
			     const struct kbloom_sketch_xdp_opts *so,
			     struct kbloom_inst **ip)
{
	if (!so || !ip)
		return -EINVAL;
	return kbi_create(name, &kbx_sketch_ops, o, so, ip);
}

int kbloom_xdp_sketch_open(const char *name, const struct kbloom_inst_opts *o,
			   struct kbloom_inst **ip)
{
	return kbc_open(name, o, &kbx_sketch_ops, ip);
}

int kbloom_xdp_sketch_params(struct kbloom_inst *i,
			     struct kbloom_sketch_params *p)
{
	struct kbloom_sketch_xdp *x = sk_of(i);
	struct kbs_xdp_fds f;
	__u32 zero = 0;

	if (!x || !p)
		return -EINVAL;
	kbs_xdp_fds(x, &f);
	return kbp_err(bpf_map_lookup_elem(f.params, &zero, p));
}

int kbloom_xdp_sketch_shared(struct kbloom_inst *i)
{
	struct kbloom_sketch_xdp *x = sk_of(i);
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	struct kbs_xdp_fds f;
	int ret;

	if (!x)
		return -EINVAL;
	kbs_xdp_fds(x, &f);
	ret = kbp_err(bpf_obj_get_info_by_fd(f.rows[0], &info, &len));
	return ret ?: info.type == BPF_MAP_TYPE_ARRAY;
}

int kbloom_xdp_sketch_count(struct kbloom_inst *i, const void *addr,
			    __u32 len, __u64 *pkts, __u64 *bytes)
{
	struct kbloom_sketch *s[2] = { NULL, NULL };
	int w, ret = 0;

	if (!sk_of(i) || !addr || !pkts || !bytes ||
	    (len != KBLOOM_ADDR4_LEN && len != KBLOOM_ADDR6_LEN))
		return -EINVAL;
	for (w = 0; w < 2 && !ret; w++)
		ret = kbloom_sketch_xdp_read(sk_of(i), w, &s[w]);
	if (!ret) {
		*pkts = kbloom_sketch_count(s[0], addr, len);
		*bytes = kbloom_sketch_count(s[1], addr, len);
	}
	kbloom_sketch_free(s[0]);
	kbloom_sketch_free(s[1]);
	return ret;
}

int kbloom_xdp_sketch_stats(struct kbloom_inst *i,
			    struct kbloom_sketch_stats *st)
{
	return sk_of(i) ? kbloom_sketch_xdp_stats(sk_of(i), st) : -EINVAL;
}

int kbloom_xdp_sketch_read(struct kbloom_inst *i, int bytes,
			   struct kbloom_sketch **sp)
{
	return sk_of(i) ? kbloom_sketch_xdp_read(sk_of(i), bytes, sp) : -EINVAL;
}

int kbloom_xdp_sketch_write(struct kbloom_inst *i, int bytes,
			    const struct kbloom_sketch *s)
{
	int ret;

	if (!sk_of(i))
		return -EINVAL;
	ret = kbi_lock(i);
	if (ret)
		return ret;
	ret = kbloom_sketch_xdp_write(sk_of(i), bytes, s);
	kbi_unlock(i);
	return ret;
}
