/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the tests of the library's XDP attach module
 * (userspace/lib/xdp/attach.h): the host's fallback test (bpf suite) and
 * the guest's coexistence test with xdp-tools (kmod suite).  Both attach
 * kb_count of tests/kmod/xdp_coexist_kb.bpf.c as a kbloom instance does:
 * the object loaded once with its maps pinned under a directory, and a
 * fresh copy of it opened for each attach (the EXT copy).
 */
#ifndef KBT_XDP_ATTACH_UTIL_H
#define KBT_XDP_ATTACH_UTIL_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tests/bpf/xdp_util.h"
#include "userspace/lib/xdp/attach.h"
#include "tests/kmod/xdp_coexist_kb.skel.h"

/* The instance: kb_count loaded, kb_hits pinned under @dir. */
struct kbt_inst {
	struct xdp_coexist_kb *kb;
	char dir[192];
	struct kbt_log log;
};

static inline int kbt_inst_open(struct kbt_inst *in, const char *dir)
{
	char p[320];

	snprintf(in->dir, sizeof(in->dir), "%s", dir);
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	in->kb = xdp_coexist_kb__open_and_load();
	if (!in->kb)
		return -errno ?: -ENOMEM;
	snprintf(p, sizeof(p), "%s/kb_hits", dir);
	return bpf_map__pin(in->kb->maps.kb_hits, p);
}

static inline void kbt_inst_close(struct kbt_inst *in)
{
	char p[320];

	snprintf(p, sizeof(p), "%s/kb_hits", in->dir);
	unlink(p);
	rmdir(in->dir);
	xdp_coexist_kb__destroy(in->kb);
	in->kb = NULL;
}

/* @in's pin path of attachment @tag. */
static inline void kbt_inst_pin(const struct kbt_inst *in, const char *tag,
				char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", in->dir, tag);
}

/*
 * kb_xdp_attach() (@replace: kb_xdp_replace()) of kb_count on @ifindex,
 * pinned at @pin, at run priority 20, as an instance does it.
 */
static inline int kbt_inst_attach(struct kbt_inst *in, int ifindex,
				  const char *pin, __u32 flags, int replace,
				  struct kb_xdp_attachment *out)
{
	struct xdp_coexist_kb *copy = xdp_coexist_kb__open();
	int fd = bpf_program__fd(in->kb->progs.kb_count);
	struct kb_xdp_attach_req r = {
		.ifindex = ifindex,
		.mode = KBLOOM_XDP_MODE_AUTO,
		.prog_fd = fd,
		.ext_obj = copy ? copy->obj : NULL,
		.prog_name = "kb_count",
		.map_dir = in->dir,
		.run_prio = 20,
		.chain_actions = 1U << XDP_PASS,
		.pin_path = pin,
		.flags = flags,
	};
	int ret;

	if (!copy)
		return -ENOMEM;
	if (replace)
		ret = kb_xdp_replace(&r, fd, kbt_log_line, &in->log);
	else
		ret = kb_xdp_attach(&r, out, kbt_log_line, &in->log);
	xdp_coexist_kb__destroy(copy);
	return ret;
}

/* The counter of map @fd (slot 0). */
static inline __u64 kbt_hits(int fd)
{
	__u32 zero = 0;
	__u64 v = 0;

	bpf_map_lookup_elem(fd, &zero, &v);
	return v;
}

#endif /* KBT_XDP_ATTACH_UTIL_H */
