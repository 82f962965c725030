// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko without BTF (issue 17): when no BTF of the target kernel can
 * be had, the module still builds, without kfuncs, and says so.
 *
 * base_none            mk/btf.sh base with every source left out
 *                      (KBLOOM_BTF_FROM=none): status 0, an empty output
 *                      and the reason beside it, nothing on stdout
 * module_without_btf   make kmod into build/nobtf (its own cache) with
 *                      the sources left out: it succeeds with exactly one
 *                      warning line; modinfo's "kfuncs" field starts with
 *                      "no"; the module has no .BTF section; the empty
 *                      marker is gone, so the next build looks again.
 *                      Skipped without kernel headers.  That build is
 *                      make's (build/nobtf/make.status, made with the
 *                      tests: its status, its stderr in make.err beside
 *                      it), so that the kmod suite's nobtf_test, which
 *                      loads that module in the guest, need not wait for
 *                      this suite; the test makes it when it is missing
 *                      or out of date.
 *
 * Runs from the repository root (tests/run-suite's working directory) or
 * $KBLOOM_SRC.  No root needed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"

#define NB_DIR	"build/nobtf"

/* Run @cmd (sh) in the source tree; its output into @out; exit status. */
static int nb_run(const char *cmd, char *out, size_t len)
{
	char full[1024];
	size_t n = 0;
	FILE *p;
	int st;

	snprintf(full, sizeof(full), "cd '%s' && { %s; }",
		 getenv("KBLOOM_SRC") ? getenv("KBLOOM_SRC") : ".", cmd);
	p = popen(full, "r");
	if (!p)
		return -1;
	if (len)
		n = fread(out, 1, len - 1, p);
	if (len)
		out[n] = 0;
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int nb_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

TEST(base_none)
{
	char out[4096], why[512];
	struct stat st;
	char tmpl[] = "/tmp/kbloom-nobtf.XXXXXX";
	char cmd[512], path[256];

	ASSERT_NE(NULL, mkdtemp(tmpl));
	snprintf(path, sizeof(path), "%s/btf/vmlinux.btf", tmpl);
	snprintf(cmd, sizeof(cmd),
		 "KBLOOM_BTF_FROM=none KDIR= mk/btf.sh base 6.1.0-0-none %s/src %s 2>/dev/null",
		 tmpl, path);
	EXPECT_EQ(0, nb_run(cmd, out, sizeof(out)));
	EXPECT_STREQ("", out);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0, st.st_size);
	snprintf(cmd, sizeof(cmd), "cat %s.why", path);
	EXPECT_EQ(0, nb_run(cmd, why, sizeof(why)));
	EXPECT_EQ(0, strncmp(why, "no BTF of kernel 6.1.0-0-none: ", 31))
		TH_LOG("%s", why);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	nb_run(cmd, NULL, 0);
}

/* a module build: minutes on a loaded 2-core machine */
FIXTURE(nb) {};
FIXTURE_SETUP(nb) {}
FIXTURE_TEARDOWN(nb) {}

TEST_F_TIMEOUT(nb, module_without_btf, 600)
{
	static char err[8192];
	char out[512];
	int st;

	if (nb_run("KDIR=/usr/src/linux-headers-$(mk/kver.sh 2>/dev/null); test -f $KDIR/Makefile",
		   NULL, 0))
		SKIP(return, "no kernel headers (linux-headers-amd64)");
	/* not the jobserver of a make check around this test */
	ASSERT_EQ(0, nb_run("unset MAKEFLAGS MFLAGS MAKELEVEL; make -s -j2 " NB_DIR "/make.status 2>&1",
			    err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_EQ(0, nb_run("cat " NB_DIR "/make.status", out, sizeof(out)));
	ASSERT_EQ(1, sscanf(out, "%d", &st)) TH_LOG("make.status: %s", out);
	ASSERT_EQ(0, nb_run("cat " NB_DIR "/make.err", err, sizeof(err)));
	EXPECT_EQ(0, st) TH_LOG("%s", err);
	EXPECT_EQ(1, nb_lines(err)) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "warning: kbloom.ko built without kfuncs (no BTF of kernel "))
		TH_LOG("%s", err);
	EXPECT_EQ(0, nb_run("/sbin/modinfo -F kfuncs " NB_DIR "/kbloom.ko",
			    out, sizeof(out)));
	EXPECT_EQ(0, strncmp(out, "no (built without BTF", 21)) TH_LOG("%s", out);
	EXPECT_EQ(1, nb_run("readelf -S -W " NB_DIR "/kbloom.ko | grep -q ' .BTF '",
			    NULL, 0));
	EXPECT_EQ(0, nb_run("test -z \"$(ls " NB_DIR "/cache/btf/*/ 2>/dev/null)\"",
			    NULL, 0));
}

TEST_HARNESS_MAIN
