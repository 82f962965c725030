// SPDX-License-Identifier: GPL-2.0
/*
 * Seed of the bpf suite: load a minimal XDP program, run it on synthetic
 * frames with BPF_PROG_TEST_RUN and check its verdicts, and check that the
 * BPF build of kb_hash() agrees with the userspace one.
 */
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "uapi/kbloom_hash.h"
#include "tests/bpf/xdp_min.skel.h"

static int run(int fd, const void *pkt, __u32 len, __u32 *retval)
{
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = pkt,
		.data_size_in = len,
		.repeat = 1,
	);
	int ret = bpf_prog_test_run_opts(fd, &o);

	*retval = o.retval;
	return ret;
}

FIXTURE(xdp_min) {
	struct xdp_min *skel;
	int fd;
};

FIXTURE_SETUP(xdp_min)
{
	self->skel = xdp_min__open_and_load();
	ASSERT_NE(NULL, self->skel);
	self->fd = bpf_program__fd(self->skel->progs.xdp_min);
}

FIXTURE_TEARDOWN(xdp_min)
{
	xdp_min__destroy(self->skel);
}

TEST_F(xdp_min, verdicts)
{
	__u8 pkt[64] = { 0 };
	__u32 rv;

	ASSERT_EQ(0, run(self->fd, pkt, sizeof(pkt), &rv));
	EXPECT_EQ(XDP_PASS, rv);
	pkt[0] = 0xff;
	ASSERT_EQ(0, run(self->fd, pkt, sizeof(pkt), &rv));
	EXPECT_EQ(XDP_DROP, rv);
}

TEST_F(xdp_min, hash_agrees_with_userspace)
{
	__u8 pkt[64];
	__u32 rv, i;

	for (i = 0; i < sizeof(pkt); i++)
		pkt[i] = (__u8)(i * 37 + 1);
	ASSERT_EQ(0, run(self->fd, pkt, sizeof(pkt), &rv));
	EXPECT_EQ(kb_hash(KBLOOM_HASH_FAST, 42, pkt, 8), self->skel->bss->last_hash);
}

TEST_HARNESS_MAIN
