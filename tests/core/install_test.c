// SPDX-License-Identifier: GPL-2.0
/*
 * The installed headers compile alone.
 *
 * "make install-headers DESTDIR=<tmp>" (the header part of make install)
 * into a temporary directory, then each public header (the .h files of
 * $PREFIX/include) and each contract header (of
 * $PREFIX/include/kbloom/uapi) is compiled on its own:
 *
 *	cc -fsyntax-only -Wall -Werror -I<tmp>$PREFIX/include -include <hdr>
 *
 * with that directory as the only -I and <tmp> as the working directory,
 * so nothing of the source tree can be found.  Both directories must
 * hold as many headers as their sources (userspace/include, uapi/).
 *
 * The source tree is found from the test's own path (build/tests/core/x:
 * three levels up) or $KBLOOM_SRC; the compiler is $CC, or cc.  No root
 * needed; the temporary directory is removed at teardown.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

/* the 6.1 harness itself has unused parameters under -Wextra */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"

#define INST_PREFIX	"/usr/local"
#define INST_LOG_MAX	4096

/* The repository root into @buf (PATH_MAX): $KBLOOM_SRC or ../../.. */
static int inst_src_dir(char *buf)
{
	const char *env = getenv("KBLOOM_SRC");
	char self[PATH_MAX], up[PATH_MAX + 16], *slash;
	ssize_t n;

	if (env && *env)
		return realpath(env, buf) ? 0 : -errno;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -errno;
	self[n] = 0;
	slash = strrchr(self, '/');
	if (!slash)
		return -ENOENT;
	*slash = 0;
	snprintf(up, sizeof(up), "%s/../../..", self);
	return realpath(up, buf) ? 0 : -errno;
}

/*
 * Run @argv in @dir with standard output and error into @log_fd (rewound
 * first).  Return: the exit code, 128 + signal, or -1.
 */
static int inst_run(const char *dir, int log_fd, char *const argv[])
{
	pid_t pid;
	int st;

	if (ftruncate(log_fd, 0) || lseek(log_fd, 0, SEEK_SET))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		/* not the jobserver of a make that runs the suite */
		unsetenv("MAKEFLAGS");
		unsetenv("MFLAGS");
		unsetenv("MAKELEVEL");
		if (chdir(dir))
			_exit(126);
		dup2(log_fd, 1);
		dup2(log_fd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
}

/* The start of the log, NUL-terminated, into @buf (INST_LOG_MAX). */
static const char *inst_log(int log_fd, char *buf)
{
	ssize_t n = pread(log_fd, buf, INST_LOG_MAX - 1, 0);

	buf[n > 0 ? n : 0] = 0;
	return buf;
}

static int inst_rm_one(const char *path, const struct stat *sb, int flag,
		       struct FTW *ftw)
{
	return remove(path);
}

/* The .h files of @dir@sub; Return: their number, or -1 */
static int inst_glob(const char *dir, const char *sub, glob_t *g)
{
	char pat[2 * PATH_MAX + 8];

	snprintf(pat, sizeof(pat), "%s%s/*.h", dir, sub);
	switch (glob(pat, 0, NULL, g)) {
	case 0:
		return (int)g->gl_pathc;
	case GLOB_NOMATCH:
		return 0;
	default:
		return -1;
	}
}

FIXTURE(inst) {
	char src[PATH_MAX];
	char tmp[32];
	char inc[PATH_MAX];
	FILE *log;
	int log_fd;
};

/* The temporary directory last: nothing can fail after it. */
FIXTURE_SETUP(inst)
{
	ASSERT_EQ(0, inst_src_dir(self->src));
	self->log = tmpfile();
	ASSERT_NE(NULL, self->log);
	self->log_fd = fileno(self->log);
	strcpy(self->tmp, "/tmp/kbloom-install.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->tmp));
	snprintf(self->inc, sizeof(self->inc), "%s%s/include", self->tmp,
		 INST_PREFIX);
}

FIXTURE_TEARDOWN(inst)
{
	nftw(self->tmp, inst_rm_one, 16, FTW_DEPTH | FTW_PHYS);
	EXPECT_NE(0, access(self->tmp, F_OK));
	fclose(self->log);
}

static void inst_install(struct __test_metadata *_metadata,
			 FIXTURE_DATA(inst) *self)
{
	char dest[64], buf[INST_LOG_MAX];
	int ret;

	snprintf(dest, sizeof(dest), "DESTDIR=%s", self->tmp);
	ret = inst_run(self->tmp, self->log_fd, (char *const[]){
		"make", "-s", "-C", self->src, "install-headers", dest,
		"PREFIX=" INST_PREFIX, NULL });
	ASSERT_EQ(0, ret) TH_LOG("make install-headers in %s: %s", self->src,
				 inst_log(self->log_fd, buf));
}

static char *inst_cc(void)
{
	const char *cc = getenv("CC");

	return (char *)(cc && *cc ? cc : "cc");
}

/* Compile each header of @dir alone; Return: how many failed. */
static int inst_compile_each(struct __test_metadata *_metadata,
			     FIXTURE_DATA(inst) *self, const glob_t *g)
{
	char inc[PATH_MAX + 2], buf[INST_LOG_MAX];
	int failed = 0, ret;
	size_t i;

	snprintf(inc, sizeof(inc), "-I%s", self->inc);
	for (i = 0; i < g->gl_pathc; i++) {
		ret = inst_run(self->tmp, self->log_fd, (char *const[]){
			inst_cc(), "-fsyntax-only", "-Wall", "-Werror", inc,
			"-include", g->gl_pathv[i], "-x", "c", "/dev/null",
			NULL });
		EXPECT_EQ(0, ret) TH_LOG("%s alone: %s", g->gl_pathv[i],
					 inst_log(self->log_fd, buf));
		failed += ret != 0;
	}
	return failed;
}

/* @sub of the installed include dir against @src_sub of the tree */
static void inst_check_dir(struct __test_metadata *_metadata,
			   FIXTURE_DATA(inst) *self, const char *sub,
			   const char *src_sub)
{
	glob_t have, want;
	int n_have, n_want;

	inst_install(_metadata, self);
	n_have = inst_glob(self->inc, sub, &have);
	n_want = inst_glob(self->src, src_sub, &want);
	EXPECT_LT(0, n_want);
	EXPECT_EQ(n_want, n_have);
	if (n_want > 0 && n_have > 0)
		EXPECT_EQ(0, inst_compile_each(_metadata, self, &have));
	globfree(&have);
	globfree(&want);
}

TEST_F(inst, public_headers_alone)
{
	inst_check_dir(_metadata, self, "", "/userspace/include");
}

TEST_F(inst, uapi_headers_alone)
{
	inst_check_dir(_metadata, self, "/kbloom/uapi", "/uapi");
}

/* the one that never compiled installed: XDP, with the map layouts */
TEST_F(inst, xdp_program_includes)
{
	char src[PATH_MAX + 8], inc[PATH_MAX + 2], buf[INST_LOG_MAX];
	FILE *f;

	inst_install(_metadata, self);
	snprintf(src, sizeof(src), "%s/prog.c", self->tmp);
	f = fopen(src, "w");
	ASSERT_NE(NULL, f);
	fputs("#include <libkbloom_xdp_net.h>\n"
	      "int main(void)\n{\n"
	      "\tstruct kbloom_mcbf_stats st = { .tx_unused = 1 };\n\n"
	      "\treturn (int)st.tx_unused - 1 + KBLOOM_GATE_MODE_MAX - 2;\n"
	      "}\n", f);
	ASSERT_EQ(0, fclose(f));
	snprintf(inc, sizeof(inc), "-I%s", self->inc);
	EXPECT_EQ(0, inst_run(self->tmp, self->log_fd, (char *const[]){
		inst_cc(), "-fsyntax-only", "-Wall", "-Werror", inc, src,
		NULL }))
		TH_LOG("%s", inst_log(self->log_fd, buf));
}

TEST_HARNESS_MAIN
