// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the last step of create for the survey variants (cuckoo.c,
 * sketches.c): -exist and seed flags, then KBLOOM_IOCTL_CREATE.
 */
#include "kbloomctl.h"

/* The detail of CREATE's EEXIST: what -exist would (or did) do */
const char *create_exist_hint(const struct ctl *c)
{
	return c->set[CO_EXIST] ?
	       "the filter of that name differs in type or geometry" :
	       "a filter of that name exists; -exist accepts an identical one";
}

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
		return ctl_syserr(c, ret, ret == -EEXIST ?
				  create_exist_hint(c) : NULL,
				  "create %s", cr->name);
	return KBCTL_OK;
}
