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
	return kbi_open(name, o, kbr_find, NULL, ip);
}

/* ---- mcast and gate ------------------------------------------------------- */

static void kbr_xdp_opts(struct kbloom_inst_opts *io,
			 const struct kbloom_xdp_opts *o)
{
	memset(io, 0, sizeof(*io));
	if (!o)
		return;
	io->pin_root = o->pin_root;
	io->netns = o->netns;
	io->log = o->log;
	io->log_ctx = o->log_ctx;
}

int kbloom_xdp_create(const char *name, enum kbloom_xdp_kind kind,
		      const struct kbloom_xdp_opts *opts,
		      struct kbloom_xdp **xp)
{
	struct kbloom_inst_opts io;
	struct kbloom_inst *i;
	int ret;

	if (!xp || (kind != KBLOOM_XDP_MCAST && kind != KBLOOM_XDP_GATE))
		return -EINVAL;
	kbr_xdp_opts(&io, opts);
	ret = kbi_create(name, kind == KBLOOM_XDP_MCAST ? &kbx_mcast_ops :
			 &kbx_gate_ops, &io, opts, &i);
	if (!ret)
		*xp = kbloom_xdp_of(i);
	return ret;
}

int kbloom_xdp_open(const char *name, const struct kbloom_xdp_opts *opts,
		    struct kbloom_xdp **xp)
{
	struct kbloom_inst_opts io;
	struct kbloom_inst *i;
	int ret;

	if (!xp)
		return -EINVAL;
	kbr_xdp_opts(&io, opts);
	ret = kbi_open(name, &io, kbr_find, NULL, &i);
	if (ret)
		return ret;
	*xp = kbloom_xdp_of(i);
	if (*xp)
		return 0;
	kbi_log(i, "%s: an instance of kind %s, not mcast or gate", name,
		kbloom_inst_kind(i));
	kbloom_inst_close(i);
	return -EINVAL;
}

/* ---- ipbf and mcbf --------------------------------------------------------- */

static void kbr_net_opts(struct kbloom_inst_opts *io,
			 const struct kbloom_net_opts *o)
{
	memset(io, 0, sizeof(*io));
	if (!o)
		return;
	io->pin_root = o->pin_root;
	io->netns = o->netns;
	io->log = o->log;
	io->log_ctx = o->log_ctx;
}

int kbloom_net_create(const char *name, enum kbloom_net_kind kind,
		      const struct kbloom_net_opts *opts,
		      struct kbloom_net **np)
{
	struct kbloom_inst_opts io;
	struct kbloom_inst *i;
	int ret;

	if (!np || (kind != KBLOOM_NET_IPBF && kind != KBLOOM_NET_MCBF))
		return -EINVAL;
	kbr_net_opts(&io, opts);
	ret = kbi_create(name, kind == KBLOOM_NET_IPBF ? &kbn_ipbf_ops :
			 &kbn_mcbf_ops, &io, opts, &i);
	if (!ret)
		*np = kbloom_net_of(i);
	return ret;
}

int kbloom_net_open(const char *name, const struct kbloom_net_opts *opts,
		    struct kbloom_net **np)
{
	struct kbloom_inst_opts io;
	struct kbloom_inst *i;
	int ret;

	if (!np)
		return -EINVAL;
	kbr_net_opts(&io, opts);
	ret = kbi_open(name, &io, kbr_find, NULL, &i);
	if (ret)
		return ret;
	*np = kbloom_net_of(i);
	if (*np)
		return 0;
	kbi_log(i, "%s: an instance of kind %s, not ipbf or mcbf", name,
		kbloom_inst_kind(i));
	kbloom_inst_close(i);
	return -EINVAL;
}
