// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the kinds by name.  Opening an instance reads
 * its kind marker and finds the kind's ops here; each kind's own create
 * and open calls (kbloom_xdp_*, kbloom_net_*) go through here too, so
 * that the core (inst.c) and the kinds never refer to each other.
 */
#include <errno.h>
#include <string.h>

#include "libkbloom_xdp_net.h"
#include "kinds.h"

static const struct kbi_ops *const kbr_kinds[] = {
	&kbx_mcast_ops, &kbx_gate_ops, &kbx_pass_ops, &kbn_ipbf_ops,
	&kbn_mcbf_ops,
	&kbx_sketch_ops, &kbx_conntrack_ops,
	&kbx_dedupe_ops,
	&kbx_window_ops,
};

static const struct kbi_ops *kbr_find(const char *kind)
{
	size_t i;

	for (i = 0; kind && i < sizeof(kbr_kinds) / sizeof(kbr_kinds[0]); i++)
		if (!strcmp(kbr_kinds[i]->kind, kind))
			return kbr_kinds[i];
	return NULL;
}

int kbloom_inst_create(const char *name, const char *kind,
		       const struct kbloom_inst_opts *o, const void *kind_opts,
		       struct kbloom_inst **ip)
{
	const struct kbi_ops *ops = kbr_find(kind);

	if (!ops)
		return -EINVAL;
	return kbi_create(name, ops, o, kind_opts, ip);
}

int kbloom_inst_open(const char *name, const struct kbloom_inst_opts *o,
		     struct kbloom_inst **ip)
{
	return kbi_open(name, o, kbr_find, ip);
}

/*
 * The first four fields of struct kbloom_xdp_opts and struct
 * kbloom_net_opts are those of struct kbloom_inst_opts.
 */
#define KBR_INST_OPTS(o) {						\
	.pin_root = (o) ? (o)->pin_root : NULL,				\
	.netns = (o) ? (o)->netns : NULL,				\
	.log = (o) ? (o)->log : NULL,					\
	.log_ctx = (o) ? (o)->log_ctx : NULL,				\
}

/* Open @name, of one of the kinds @a and @b (else -EINVAL, logged). */
static int kbr_open_of(const char *name, const struct kbloom_inst_opts *io,
		       const struct kbi_ops *a, const struct kbi_ops *b,
		       struct kbloom_inst **ip)
{
	int ret = kbi_open(name, io, kbr_find, ip);

	if (ret || (*ip)->ops == a || (*ip)->ops == b)
		return ret;
	kbi_log(*ip, "%s: an instance of kind %s, not %s or %s", name,
		kbloom_inst_kind(*ip), a->kind, b->kind);
	kbloom_inst_close(*ip);
	return -EINVAL;
}

/* ---- mcast and gate ------------------------------------------------------- */

int kbloom_xdp_create(const char *name, enum kbloom_xdp_kind kind,
		      const struct kbloom_xdp_opts *opts,
		      struct kbloom_xdp **xp)
{
	struct kbloom_inst_opts io = KBR_INST_OPTS(opts);
	struct kbloom_inst *i;
	int ret;

	if (!xp || (kind != KBLOOM_XDP_MCAST && kind != KBLOOM_XDP_GATE))
		return -EINVAL;
	ret = kbi_create(name, kind == KBLOOM_XDP_MCAST ? &kbx_mcast_ops :
			 &kbx_gate_ops, &io, opts, &i);
	if (!ret)
		*xp = kbloom_xdp_of(i);
	return ret;
}

int kbloom_xdp_open(const char *name, const struct kbloom_xdp_opts *opts,
		    struct kbloom_xdp **xp)
{
	struct kbloom_inst_opts io = KBR_INST_OPTS(opts);
	struct kbloom_inst *i;
	int ret;

	if (!xp)
		return -EINVAL;
	ret = kbr_open_of(name, &io, &kbx_mcast_ops, &kbx_gate_ops, &i);
	if (!ret)
		*xp = kbloom_xdp_of(i);
	return ret;
}

/* ---- ipbf and mcbf --------------------------------------------------------- */

int kbloom_net_create(const char *name, enum kbloom_net_kind kind,
		      const struct kbloom_net_opts *opts,
		      struct kbloom_net **np)
{
	struct kbloom_inst_opts io = KBR_INST_OPTS(opts);
	struct kbloom_inst *i;
	int ret;

	if (!np || (kind != KBLOOM_NET_IPBF && kind != KBLOOM_NET_MCBF))
		return -EINVAL;
	ret = kbi_create(name, kind == KBLOOM_NET_IPBF ? &kbn_ipbf_ops :
			 &kbn_mcbf_ops, &io, opts, &i);
	if (!ret)
		*np = kbloom_net_of(i);
	return ret;
}

int kbloom_net_open(const char *name, const struct kbloom_net_opts *opts,
		    struct kbloom_net **np)
{
	struct kbloom_inst_opts io = KBR_INST_OPTS(opts);
	struct kbloom_inst *i;
	int ret;

	if (!np)
		return -EINVAL;
	ret = kbr_open_of(name, &io, &kbn_ipbf_ops, &kbn_mcbf_ops, &i);
	if (!ret)
		*np = kbloom_net_of(i);
	return ret;
}
