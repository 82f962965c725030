// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl's -o and its bash completion, on the host without the module.
 *
 * -o goes through one output path (outfile.c, kbloom_out_open()):
 * "ipbf header -o" (it needs no device) writes the same bytes to a new
 * file, through a symlink (the link stays a link to the same name), to a
 * FIFO (another process reads them) and to /dev/null (still the
 * character device 1:3).  tests/core/outfile_test.c checks the modes,
 * the atomic replacement and the SipHash case on the library's side.
 *
 * "kbloomctl completion bash" prints a script that bash accepts and that
 * completes commands, subcommands, keywords and their words (from keyword
 * tables or synopses), --key's encodings and -o's file name from the
 * command tables, and nothing for a free value (capacity N).
 */
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "core/kbloomctl_util.h"

#define HDR_ARGS	"ipbf", "header", "topo", "line:3", "src", "h0", \
			"dst", "h2", "seed", "7"

static int rm_one(const char *path, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

/* the whole of @path, or NULL; its length into *@len */
static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	char *s;

	if (fd < 0)
		return NULL;
	s = kbctl_slurp(fd, len);
	close(fd);
	return s;
}

FIXTURE(kout) {
	char dir[32];
	char ref[64];
	char *want;
	size_t want_len;
};

/* The reference: the header written to a new file */
FIXTURE_SETUP(kout)
{
	struct kbctl_res r;

	strcpy(self->dir, "/tmp/kbloomctl-out.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->ref, sizeof(self->ref), "%s/ref", self->dir);
	ASSERT_EQ(0, kbctl_run(&r, HDR_ARGS, "-o", self->ref))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	self->want = slurp(self->ref, &self->want_len);
	ASSERT_NE(NULL, self->want);
	ASSERT_LT(0, self->want_len);
}

FIXTURE_TEARDOWN(kout)
{
	free(self->want);
	nftw(self->dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

static bool holds(FIXTURE_DATA(kout) *self, const char *path)
{
	size_t len = 0;
	char *got = slurp(path, &len);
	bool same = got && len == self->want_len &&
		    !memcmp(got, self->want, len);

	free(got);
	return same;
}

TEST_F(kout, symlink_still_points_where_it_did)
{
	char link[64], target[64], dst[64];
	struct kbctl_res r;
	struct stat st;
	ssize_t n;

	snprintf(link, sizeof(link), "%s/link", self->dir);
	snprintf(dst, sizeof(dst), "%s/dst", self->dir);
	ASSERT_EQ(0, symlink("dst", link));
	EXPECT_EQ(0, kbctl_run(&r, HDR_ARGS, "-o", link)) TH_LOG("%s", r.err);
	kbctl_free(&r);
	ASSERT_EQ(0, lstat(link, &st));
	EXPECT_TRUE(S_ISLNK(st.st_mode));
	n = readlink(link, target, sizeof(target) - 1);
	ASSERT_LT(0, n);
	target[n] = 0;
	EXPECT_STREQ("dst", target);
	EXPECT_TRUE(holds(self, dst));
}

TEST_F(kout, dev_null_stays_char_device)
{
	struct kbctl_res r;
	struct stat st;

	EXPECT_EQ(0, kbctl_run(&r, HDR_ARGS, "-o", "/dev/null"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	ASSERT_EQ(0, lstat("/dev/null", &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(makedev(1, 3), st.st_rdev);
}

TEST_F(kout, fifo_reader_receives_output)
{
	char fifo[64], got[64];
	struct kbctl_res r;
	struct stat st;
	int status;
	pid_t pid;

	snprintf(fifo, sizeof(fifo), "%s/fifo", self->dir);
	snprintf(got, sizeof(got), "%s/got", self->dir);
	ASSERT_EQ(0, mkfifo(fifo, 0600));
	/* the reader: cat, another program */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		execlp("sh", "sh", "-c", "exec cat \"$1\" > \"$2\"", "_", fifo,
		       got, NULL);
		_exit(127);
	}
	EXPECT_EQ(0, kbctl_run(&r, HDR_ARGS, "-o", fifo)) TH_LOG("%s", r.err);
	kbctl_free(&r);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	ASSERT_EQ(0, lstat(fifo, &st));
	EXPECT_TRUE(S_ISFIFO(st.st_mode));
	EXPECT_TRUE(holds(self, got));
}

/* An output that cannot be opened: a message naming it, nothing made */
TEST_F(kout, unwritable_output_named)
{
	char bad[64];
	struct kbctl_res r;

	snprintf(bad, sizeof(bad), "%s/no/such", self->dir);
	EXPECT_EQ(3, kbctl_run(&r, HDR_ARGS, "-o", bad));
	EXPECT_NE(NULL, strstr(r.err, "ipbf header: open ")) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "/no/such: No such file or directory"));
	kbctl_free(&r);
}

/* What the generated completion offers for the words of @line */
static char *complete(const char *script, const char *line)
{
	static const char prog[] =
		"source \"$1\" || exit 9\n"
		"read -ra COMP_WORDS <<<\"$2\"\n"
		"[[ $2 == *' ' ]] && COMP_WORDS+=('')\n"
		"COMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n"
		"_kbloomctl\n"
		"echo \"${COMPREPLY[*]}\"\n";
	int fds[2], st;
	size_t len;
	char *out;
	pid_t pid;

	if (pipe(fds))
		return NULL;
	pid = fork();
	if (!pid) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		execlp("bash", "bash", "-c", prog, "_", script, line, NULL);
		_exit(127);
	}
	close(fds[1]);
	out = pid > 0 ? kbctl_slurp(fds[0], &len) : NULL;
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, &st, 0);
	if (out && len && out[len - 1] == '\n')
		out[len - 1] = 0;
	return out;
}

TEST_F(kout, bash_completion_from_tables)
{
	static const char *const cases[][2] = {
		{ "kbloomctl cr", "create" },
		{ "kbloomctl xdp att", "attach" },
		{ "kbloomctl gate re", "rebuild" },
		{ "kbloomctl --key ip", "ipv4 ipv6" },
		{ "kbloomctl experiment mode em", "emulate" },
		{ "kbloomctl create f1 blo", "blocked" },
		{ "kbloomctl create f1 blocked hash ", "siphash fast" },
		{ "kbloomctl create f1 blocked capacity ", "" },
		{ "kbloomctl xdp attach mcast m0 mode g", "generic" },
		{ "kbloomctl gate mode g0 deny ma", "match" },
		{ "kbloomctl -o ref", "REF" },
	};
	char script[64], *got;
	struct kbctl_res r;
	size_t i;

	snprintf(script, sizeof(script), "%s/kbloomctl.bash", self->dir);
	ASSERT_EQ(0, kbctl_run_out(&r, script, "completion", "bash"));
	kbctl_free(&r);
	EXPECT_EQ(2, kbctl_run(&r, "completion", "zsh"));
	EXPECT_NE(NULL, strstr(r.err, "SHELL 'zsh': unknown (allowed: bash)"));
	kbctl_free(&r);
	ASSERT_EQ(0, chdir(self->dir));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		got = complete(script, cases[i][0]);
		ASSERT_NE(NULL, got);
		/* a file name: the reference file of the fixture */
		EXPECT_STREQ(strcmp(cases[i][1], "REF") ? cases[i][1] : "ref",
			     got) TH_LOG("'%s'", cases[i][0]);
		free(got);
	}
}

TEST_HARNESS_MAIN
