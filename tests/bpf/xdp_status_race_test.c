// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl xdp status while another kbloomctl attaches and detaches an
 * instance, as a monitoring loop beside an operator does: an instance
 * listed and then detached before status opened it is left out, never
 * read through a handle that was not opened (status crashed with SIGSEGV
 * or "double free" in about one run of seven).  A child attaches and
 * detaches a gate until RUNS runs of status are done; in those runs:
 *   - every `xdp status` (text and JSON in turn) exits 0 with nothing on
 *     standard error, and the JSON is one valid value;
 *   - `xdp status NAME` of the racing gate exits 0 (present) or fails in
 *     one line naming "no such instance" (exit 3), nothing else.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kbloomctl_xdp_util.h"

#define RUNS	30

FIXTURE(sr) {
	char gate[64];
	struct kbt_ns ns;
	pid_t child;
};

FIXTURE_SETUP(sr)
{
	kbt_janitor();
	kbt_name(self->gate, sizeof(self->gate), "sr");
	self->child = -1;
	ASSERT_EQ(0, kbt_ns_quiet(&self->ns));
	ASSERT_EQ(0, kbt_sh(&self->ns, "ip link add name sra type veth peer name srb && ip link set sra up && ip link set srb up"));
}

FIXTURE_TEARDOWN(sr)
{
	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	kbt_unpin(self->gate);
	kbt_ns_free(&self->ns);
}

/*
 * The child: attach and detach @gate until @stop (a pipe's read end) is
 * closed by the parent; exit 0 if every command succeeded.
 */
static void churn(const char *gate, const char *ns, int stop)
{
	struct kbctl_res r;
	int bad = 0;
	char c;

	fcntl(stop, F_SETFL, O_NONBLOCK);
	while (read(stop, &c, 1) < 0) {
		bad |= kbctl_run(&r, "xdp", "attach", "gate", gate, "dev",
				 "sra", "netns", ns, "mode", "generic",
				 "policy", "deny", "capacity", "1000", "fpr",
				 "1%");
		kbctl_free(&r);
		bad |= kbctl_run(&r, "xdp", "detach", gate);
		kbctl_free(&r);
	}
	_exit(bad ? 1 : 0);
}

/* Status run @i: text, JSON, or of the racing gate by name (1 if shown). */
static int status_run(struct __test_metadata *_metadata, const char *gate,
		      int i)
{
	struct kbctl_res r;
	int shown = 0;

	if (i % 3 == 2) {
		kbctl_run(&r, "xdp", "status", gate, i % 2 ? "-j" : "-q");
		if (r.status) {
			EXPECT_SYS(&r, "no such instance");
			EXPECT_EQ(0, (int)r.out_len) TH_LOG("%s", r.out);
		}
		shown = !r.status;
	} else if (i % 3 == 1) {
		EXPECT_EQ(0, kbctl_run(&r, "xdp", "status", "-j"))
			TH_LOG("run %d stderr: %s", i, r.err);
		EXPECT_JSON(&r);
	} else {
		EXPECT_EQ(0, kbctl_run(&r, "xdp", "status"))
			TH_LOG("run %d stderr: %s", i, r.err);
		EXPECT_EQ(0, (int)r.err_len) TH_LOG("%s", r.err);
	}
	kbctl_free(&r);
	return shown;
}

TEST_F_TIMEOUT(sr, status_beside_attach_and_detach, 180)
{
	int p[2], st = -1, i, named = 0;

	ASSERT_EQ(0, pipe(p));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (!self->child) {
		close(p[1]);
		churn(self->gate, self->ns.path, p[0]);
	}
	close(p[0]);
	for (i = 0; i < RUNS; i++)
		named += status_run(_metadata, self->gate, i);
	close(p[1]);
	ASSERT_EQ(self->child, waitpid(self->child, &st, 0));
	self->child = -1;
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
	TH_LOG("%d status runs beside attach/detach, the gate shown by name in %d of %d",
	       RUNS, named, RUNS / 3);
}

TEST_HARNESS_MAIN
