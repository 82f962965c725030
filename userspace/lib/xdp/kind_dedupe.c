// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the dedupe kind, the stable filter's duplicate
 * suppressor of libkbloom_stable (bpf/kbloom_dedupe.bpf.c) as a pinned
 * instance.
 *
 * Creating loads the suppressor with kbloom_stable_xdp_open() (its
 * geometry and action are the stable library's), pins its program and
 * maps, and opens the instance from the pins like any later process:
 * kbst_xdp_adopt() gives the stable library's object over the pinned
 * descriptors, and every read and write is that library's.
 */
#include <errno.h>
#include <string.h>

#include "libkbloom_xdp_dedupe.h"
#include "userspace/lib/stable/stable_xdp_int.h"
#include "kind_count.h"
#include "kinds.h"

/* The pins, in the order of struct kbst_xdp_fds. */
static const char *const dd_pins[] = {
	"prog_dedupe", "dedupe_params", "dedupe_cells", "dedupe_stats",
};

#define DD_NPINS	((int)(sizeof(dd_pins) / sizeof(dd_pins[0])))

static int dd_open(struct kbloom_inst *i)
{
	struct kbloom_stable_xdp *x = NULL;
	struct kbst_xdp_fds f;
	int ret;

	ret = kbc_get(i, dd_pins, DD_NPINS, &f.prog);
	if (!ret) {
		ret = kbst_xdp_adopt(&f, &x);
		if (ret)
			kbi_log(i, "%s: the suppressor's pins do not agree (%s/dedupe_params): %s",
				i->name, i->dir, strerror(-ret));
	}
	kbc_close(&f.prog, DD_NPINS);
	i->priv = x;
	return ret;
}

static int dd_create(struct kbloom_inst *i, const void *opts)
{
	struct kbloom_stable_xdp *x;
	struct kbst_xdp_fds f;
	int ret;

	if (!opts) {
		kbi_log(i, "%s: no dedupe options", i->name);
		return -EINVAL;
	}
	ret = kbloom_stable_xdp_open(opts, &x);
	if (ret) {
		kbi_log(i, "%s: loading the suppressor failed: %s", i->name,
			strerror(-ret));
		return ret;
	}
	kbst_xdp_fds(x, &f);
	ret = kbc_pin(i, dd_pins, DD_NPINS, &f.prog);
	kbloom_stable_xdp_close(x);
	return ret ?: dd_open(i);
}

static void dd_close(struct kbloom_inst *i)
{
	kbloom_stable_xdp_close(i->priv);
	i->priv = NULL;
}

static int dd_prog_fd(const struct kbloom_inst *i)
{
	return kbloom_stable_xdp_prog_fd(i->priv);
}

const struct kbi_ops kbx_dedupe_ops = {
	.kind = "dedupe",
	.create = dd_create,
	.open = dd_open,
	.close = dd_close,
	.prog_fd = dd_prog_fd,
	.run_prio = 10,
};

/* ---- the calls of libkbloom_xdp_dedupe.h ------------------------------------ */

struct kbloom_stable_xdp *kbloom_xdp_dedupe(struct kbloom_inst *i)
{
	return i && i->ops == &kbx_dedupe_ops ? i->priv : NULL;
}

int kbloom_xdp_dedupe_create(const char *name,
			     const struct kbloom_inst_opts *o,
			     const struct kbloom_stable_xdp_opts *so,
			     struct kbloom_inst **ip)
{
	if (!so || !ip)
		return -EINVAL;
	return kbi_create(name, &kbx_dedupe_ops, o, so, ip);
}

int kbloom_xdp_dedupe_open(const char *name, const struct kbloom_inst_opts *o,
			   struct kbloom_inst **ip)
{
	return kbc_open(name, o, &kbx_dedupe_ops, ip);
}

int kbloom_xdp_dedupe_action(struct kbloom_inst *i)
{
	struct kbloom_stable_xdp *x = kbloom_xdp_dedupe(i);

	return x ? kbst_xdp_action(x) : -EINVAL;
}
