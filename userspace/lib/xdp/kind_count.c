// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: what the counting kinds share (kind_count.h).
 */
#include <errno.h>
#include <string.h>

#include "kind_count.h"
#include "pin.h"

int kbc_get(struct kbloom_inst *i, const char *const *leaf, int n, int *fd)
{
	int k, ret = 0;

	for (k = 0; k < n; k++)
		fd[k] = -1;
	for (k = 0; k < n && !ret; k++)
		ret = kbp_get(i->dir, leaf[k], &fd[k]);
	if (ret)
		kbi_log(i, "%s: pin %s/%s: %s", i->name, i->dir, leaf[k - 1],
			strerror(-ret));
	return ret;
}

void kbc_close(int *fd, int n)
{
	int k;

	for (k = 0; k < n; k++)
		kbp_close_fd(&fd[k]);
}

int kbc_pin(struct kbloom_inst *i, const char *const *leaf, int n,
	    const int *fd)
{
	int k, ret = 0;

	for (k = 0; k < n && !ret; k++)
		ret = kbp_repin(i->dir, fd[k], leaf[k]);
	if (ret)
		kbi_log(i, "%s: pinning %s failed: %s", i->name, leaf[k - 1],
			strerror(-ret));
	return ret;
}

int kbc_open(const char *name, const struct kbloom_inst_opts *o,
	     const struct kbi_ops *ops, struct kbloom_inst **ip)
{
	int ret;

	if (!ip)
		return -EINVAL;
	ret = kbloom_inst_open(name, o, ip);
	if (ret || (*ip)->ops == ops)
		return ret;
	kbi_log(*ip, "%s: an instance of kind %s, not %s", name,
		kbloom_inst_kind(*ip), ops->kind);
	kbloom_inst_close(*ip);
	*ip = NULL;
	return -EINVAL;
}
