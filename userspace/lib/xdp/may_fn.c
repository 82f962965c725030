// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the refusal of filters that may give false
 * negatives (kb_type_may_fn(), KBLOOM_IMAGE_F_MAY_FN) at the gate and the
 * mcast ports, where an "absent" for a key that is present drops a
 * member's packet or lets a blocked source through.  One check for the
 * image loaders (filter.c, kind_gate_cuckoo.c) and the module filter
 * names (path.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "xdp_priv.h"
#include "libkbloom_dev.h"
#include "uapi/kbloom.h"

/* Type ids of kb_type_may_fn(), named in the log line. */
static const char *kbx_may_fn_type(__u32 type)
{
	switch (type) {
	case KBLOOM_TYPE_STABLE:
		return "stable";
	case KBLOOM_TYPE_AGE_PARTITIONED:
		return "age-partitioned";
	case KBLOOM_TYPE_RETOUCHED:
		return "retouched";
	case KBLOOM_TYPE_GENERALIZED:
		return "generalized";
	default:
		return "distance-sensitive";
	}
}

int kbx_may_fn_refuse(struct kbloom_xdp *x, __u32 type, __u32 flags,
		      const char *what)
{
	if (!kb_type_may_fn(type) && !(flags & KBLOOM_IMAGE_F_MAY_FN))
		return 0;
	kbx_log(x, "%s: %s: a %s filter may give false negatives; a gate or an mcast port refuses it",
		x->name, what, kbx_may_fn_type(type));
	return -KBLOOM_XDP_E_MAY_FN;
}

int kbx_may_fn_image(struct kbloom_xdp *x, const void *img, size_t len)
{
	const struct kbloom_image_hdr *h = img;

	if (len < sizeof(*h) || kb_le32(h->magic) != KBLOOM_IMAGE_MAGIC)
		return 0;
	return kbx_may_fn_refuse(x, h->type, h->flags, "image");
}

int kbx_may_fn_module(struct kbloom_xdp *x, const char *name)
{
	struct kbloom_stat st;
	char what[KBLOOM_NAME_LEN + 16];
	int fd, ret;

	if (strchr(name, '%'))
		return 0;
	fd = kbloom_dev_open(NULL);
	if (fd < 0)
		return 0;
	ret = kbloom_dev_stat(fd, name, &st);
	kbloom_dev_close(fd);
	if (ret)
		return 0;
	snprintf(what, sizeof(what), "module filter %s", name);
	return kbx_may_fn_refuse(x, st.type, st.image_flags, what);
}
