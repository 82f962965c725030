// SPDX-License-Identifier: GPL-2.0
/*
 * Every BPF object kbloom ships (each .bpf.o of build/bpf) loads on the kernel
 * the project targets, Debian's 6.1 in the guest, with kbloom.ko loaded
 * for the kfunc variants: the bpf suite runs on the host's newer kernel,
 * whose verifier accepts programs 6.1's refuses (the gate once read
 * cfg->geo[slot] after @slot's stack copy was a map key: an unbounded
 * access on 6.1; ipbf passed a length 6.1 saw as possibly zero).
 * kbloom_dleft_ct.bpf.o once exceeded 6.1's million processed
 * instructions (its inlined scans and retries, walked call site by call
 * site); they are global functions now, verified once each.
 */
#include <bpf/libbpf.h>
#include <glob.h>
#include <string.h>

#include "guest_harness.h"
#include "kmod_util.h"

static int obj_load(const char *path)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	int ret;

	if (!obj)
		return -errno;
	ret = bpf_object__load(obj);
	bpf_object__close(obj);
	return ret;
}

static int quiet(enum libbpf_print_level level, const char *fmt,
		 va_list ap)
{
	return 0;
}

FIXTURE(obj) {
};

FIXTURE_SETUP(obj)
{
}

FIXTURE_TEARDOWN(obj)
{
}

/* the verifier under TCG: minutes */
TEST_F_TIMEOUT(obj, every_shipped_object_loads, 600)
{
	int fd = ku_open(), ret, loaded = 0;
	glob_t g = { 0 };
	size_t i;

	ASSERT_LE(0, fd);	/* the module is in: kfuncs resolve */
	close(fd);
	ASSERT_EQ(0, glob("build/bpf/*.bpf.o", 0, NULL, &g));
	EXPECT_LE(10, (int)g.gl_pathc);
	libbpf_set_print(quiet);
	for (i = 0; i < g.gl_pathc; i++) {
		ret = obj_load(g.gl_pathv[i]);
		EXPECT_EQ(0, ret) TH_LOG("%s: %s", g.gl_pathv[i],
					 strerror(-ret));
		loaded += !ret;
	}
	TH_LOG("%d objects load", loaded);
	globfree(&g);
}

TEST_HARNESS_MAIN
