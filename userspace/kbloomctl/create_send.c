// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the last step of create for the survey variants (cuckoo.c,
 * sketches.c): -exist and seed flags, then KBLOOM_IOCTL_CREATE.
 */
#include "kbloomctl.h"

int create_send(struct ctl *c, struct kbloom_create *cr, bool seed)
{
	int ret;

	if (seed)
		cr->flags |= KBLOOM_CREATE_SEED;
	if (c->set[CO_EXIST])
		cr->flags |= KBLOOM_CREATE_EXIST;
	ret = ctl_dev(c);
	if (ret)
		return ret;
	ret = kbloom_dev_create(c->dev_fd, cr);
	if (ret)
		return ctl_syserr(c, ret, NULL, "create %s", cr->name);
	return KBCTL_OK;
}
