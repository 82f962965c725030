// SPDX-License-Identifier: GPL-2.0
/*
 * debian/libkbloom1.symbols (mk/debsymbols.sh) against the library's
 * version script, build/libkbloom.map (mk/libsyms.sh):
 *
 * committed_file_matches  "check" passes on the committed file: every
 *                         exported function has its entry, no entry is
 *                         stale (make deb runs the same check)
 * new_symbol_fails        an exported function without an entry fails,
 *                         and the message names it
 * stale_entry_fails       an entry the library no longer exports fails
 * write_keeps_versions    "write" keeps the version an entry has and
 *                         gives a new function the VERSION given
 *
 * Runs from the repository root (tests/run-suite's working directory) or
 * $KBLOOM_SRC; builds build/libkbloom.map when missing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"

#define DS_FILE	"debian/libkbloom1.symbols"
#define DS_MAP	"build/libkbloom.map"

/* Run @cmd (sh) in the source tree; its output into @out; exit status. */
static int ds_run(const char *cmd, char *out, size_t len)
{
	const char *src = getenv("KBLOOM_SRC");
	char full[2048];
	size_t n = 0;
	FILE *p;
	int st;

	snprintf(full, sizeof(full), "cd '%s' && { %s; } 2>&1",
		 src ? src : ".", cmd);
	p = popen(full, "r");
	if (!p)
		return -1;
	if (len) {
		n = fread(out, 1, len - 1, p);
		out[n] = 0;
	}
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

FIXTURE(ds) {
	char tmp[64];
};

FIXTURE_SETUP(ds)
{
	char out[4096];

	snprintf(self->tmp, sizeof(self->tmp), "/tmp/kbloom-ds.%d", getpid());
	ASSERT_EQ(0, ds_run("test -f " DS_MAP " || { unset MAKEFLAGS MFLAGS MAKELEVEL; make -s " DS_MAP "; }",
			    out, sizeof(out))) TH_LOG("%s", out);
}

FIXTURE_TEARDOWN(ds)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -f %s", self->tmp);
	ds_run(cmd, NULL, 0);
}

TEST_F(ds, committed_file_matches)
{
	char out[4096];

	EXPECT_EQ(0, ds_run("mk/debsymbols.sh check " DS_MAP " " DS_FILE,
			    out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_EQ(0, ds_run("head -n 1 " DS_FILE " | grep -qx 'libkbloom.so.1 libkbloom1 #MINVER#'",
			    NULL, 0));
}

TEST_F(ds, new_symbol_fails)
{
	char cmd[512], out[4096];

	snprintf(cmd, sizeof(cmd),
		 "grep -v '^ kbloom_dev_open@' " DS_FILE " > %s && mk/debsymbols.sh check " DS_MAP " %s",
		 self->tmp, self->tmp);
	EXPECT_EQ(1, ds_run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "exported, not in")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "kbloom_dev_open")) TH_LOG("%s", out);
}

TEST_F(ds, stale_entry_fails)
{
	char cmd[512], out[4096];

	snprintf(cmd, sizeof(cmd),
		 "{ cat " DS_FILE "; echo ' kbloom_gone@KBLOOM_1 1.0.0'; } > %s && mk/debsymbols.sh check " DS_MAP " %s",
		 self->tmp, self->tmp);
	EXPECT_EQ(1, ds_run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "no longer exported (an ABI break: SONAME): kbloom_gone"))
		TH_LOG("%s", out);
}

TEST_F(ds, write_keeps_versions)
{
	char cmd[512], out[512];

	/* kbloom_dev_open as of 0.9, kbloom_dev_close unknown */
	snprintf(cmd, sizeof(cmd),
		 "sed -e 's/^ kbloom_dev_open@KBLOOM_1 .*/ kbloom_dev_open@KBLOOM_1 0.9/' -e '/^ kbloom_dev_close@/d' " DS_FILE " > %s && mk/debsymbols.sh write " DS_MAP " 7.7.7 %s && grep -E '^ kbloom_dev_(open|close)@' %s",
		 self->tmp, self->tmp, self->tmp);
	EXPECT_EQ(0, ds_run(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_STREQ(" kbloom_dev_close@KBLOOM_1 7.7.7\n kbloom_dev_open@KBLOOM_1 0.9\n",
		     out);
}

TEST_HARNESS_MAIN
