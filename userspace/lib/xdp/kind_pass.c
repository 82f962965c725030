// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the pass kind (bpf/kbloom_pass.bpf.c), an
 * XDP_PASS program for the host ends of veth links into a switch: a veth
 * end receives redirected frames only when its peer runs an XDP program.
 * Its one pin is the program (prog_pass); its links may be in several
 * namespaces (KBI_F_ANY_NS).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/kbloom_pass.skel.h"
#include "kinds.h"
#include "pin.h"

#define PASS_PIN	"prog_pass"

struct kbx_pass {
	int prog_fd;
};

static int pass_alloc(struct kbloom_inst *i)
{
	struct kbx_pass *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->prog_fd = -1;
	i->priv = p;
	return 0;
}

static int pass_open(struct kbloom_inst *i)
{
	int ret = pass_alloc(i);
	struct kbx_pass *p = i->priv;

	return ret ?: kbp_get(i->dir, PASS_PIN, &p->prog_fd);
}

static int pass_create(struct kbloom_inst *i, const void *opts)
{
	struct kbloom_pass *s;
	int ret;

	s = kbloom_pass__open_and_load();
	if (!s) {
		ret = -errno ?: -ENOMEM;
		kbi_log(i, "%s: loading the pass program failed: %s", i->name,
			strerror(-ret));
		return ret;
	}
	ret = kbp_pin_prog(s->obj, i->dir, "kbloom_pass", PASS_PIN);
	kbloom_pass__destroy(s);
	return ret ?: pass_open(i);
}

static void pass_close(struct kbloom_inst *i)
{
	struct kbx_pass *p = i->priv;

	kbp_close_fd(&p->prog_fd);
	free(p);
	i->priv = NULL;
}

static int pass_prog_fd(const struct kbloom_inst *i)
{
	const struct kbx_pass *p = i->priv;

	return p->prog_fd;
}

const struct kbi_ops kbx_pass_ops = {
	.kind = "pass",
	.flags = KBI_F_ANY_NS,
	.create = pass_create,
	.open = pass_open,
	.close = pass_close,
	.prog_fd = pass_prog_fd,
};

int kbloom_xdp_pass_attach(int ifindex, enum kbloom_xdp_mode mode,
			   const char *pin_path, int *link_fd)
{
	struct kbi_link_req r = {
		.ifindex = ifindex, .mode = mode, .pin = pin_path,
		.who = "pass",
	};
	enum kbloom_xdp_mode got;
	struct kbloom_pass *s;
	int fd;

	if (ifindex <= 0 || mode > KBLOOM_XDP_MODE_GENERIC ||
	    (!pin_path && !link_fd))
		return -EINVAL;
	s = kbloom_pass__open_and_load();
	if (!s)
		return -errno ?: -ENOMEM;
	r.prog_fd = bpf_program__fd(s->progs.kbloom_pass);
	fd = kbi_link_attach(&r, &got);
	kbloom_pass__destroy(s);
	if (fd < 0 || pin_path)
		return fd < 0 ? fd : 0;
	*link_fd = fd;
	return 0;
}
