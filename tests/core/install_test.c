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
 * install-user: "make install-user DESTDIR=<tmp>/root KDIR=<nowhere>" (no
 * kernel tree is asked for), then a program including every installed
 * public header builds with the flags of
 * "pkg-config --cflags --libs libkbloom" (PKG_CONFIG_SYSROOT_DIR=<tmp>/root)
 * and runs against the installed libkbloom.so.1 (readelf -d: the SONAME;
 * dlopen: the public API is exported, the library's internals are not);
 * "make uninstall" leaves no file behind.
 *
 * make deb: when build/deb holds the four packages, unpacked they hold
 * the files of "make install-user install-dkms-src" (PREFIX=/usr and
 * Debian's LIBDIR; docs aside), and a program builds with pkg-config
 * against libkbloom-dev and runs against libkbloom1 (skipped otherwise).
 *
 * KDIR: a fake kernel tree whose include/generated/utsrelease.h says
 * "9.9.9-kbloom" (include/config/kernel.release: the upstream "9.9.9", as
 * Debian's headers have it): "make -n kmod" given KDIR on the command line
 * or in the environment builds against that tree for that release.
 *
 * The source tree is found from the test's own path (build/tests/core/x:
 * three levels up) or $KBLOOM_SRC; the compiler is $CC, or cc.  No root
 * needed; the temporary directory is removed at teardown.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
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

/* --- install-user, pkg-config, the shared library, uninstall ----------- */

#define INST_SONAME	"libkbloom.so.1"

static int inst_files;

static int inst_count_one(const char *path, const struct stat *sb, int flag,
			  struct FTW *ftw)
{
	inst_files += flag != FTW_D && flag != FTW_DP;
	return 0;
}

/* Files (not directories) under @dir */
static int inst_count_files(const char *dir)
{
	inst_files = 0;
	nftw(dir, inst_count_one, 16, FTW_PHYS);
	return inst_files;
}

/*
 * make -C src @target DESTDIR=@root PREFIX=@prefix [@var], with no kernel
 * tree to be found
 */
static int inst_make_in(FIXTURE_DATA(inst) *self, const char *target,
			const char *root, const char *prefix, const char *var)
{
	char dest[PATH_MAX + 16], pre[PATH_MAX + 8];

	snprintf(dest, sizeof(dest), "DESTDIR=%s", root);
	snprintf(pre, sizeof(pre), "PREFIX=%s", prefix);
	return inst_run(self->tmp, self->log_fd, (char *const[]){
		"make", "-s", "-C", self->src, (char *)target, dest, pre,
		"KDIR=/nonexistent/kbloom-kdir", (char *)var, NULL });
}

static int inst_make(FIXTURE_DATA(inst) *self, const char *target,
		     const char *root)
{
	return inst_make_in(self, target, root, INST_PREFIX, NULL);
}

/* prog.c: every installed public header, a filter, where it came from */
static int inst_write_prog(FIXTURE_DATA(inst) *self, const char *path)
{
	glob_t g;
	size_t i;
	FILE *f;

	if (inst_glob(self->inc, "", &g) <= 0)
		return -1;
	f = fopen(path, "w");
	if (!f)
		goto err_glob;
	fputs("#define _GNU_SOURCE\n", f);
	for (i = 0; i < g.gl_pathc; i++)
		fprintf(f, "#include <%s>\n", strrchr(g.gl_pathv[i], '/') + 1);
	fputs("#include <dlfcn.h>\n#include <stdio.h>\n"
	      "int main(void)\n{\n"
	      "\tstruct kbloom_filter *f;\n\tDl_info di;\n\n"
	      "\tif (kbloom_create(KBLOOM_TYPE_BLOCKED, 1000, 10000000000ULL, NULL, &f))\n"
	      "\t\treturn 2;\n"
	      "\tif (kbloom_add(f, \"key\", 3) < 0 || kbloom_test(f, \"key\", 3) != 1)\n"
	      "\t\treturn 3;\n"
	      "\tkbloom_destroy(f);\n"
	      "\tif (!dladdr((void *)kbloom_create, &di))\n\t\treturn 4;\n"
	      "\tputs(di.dli_fname);\n\treturn 0;\n}\n", f);
	globfree(&g);
	return fclose(f) ? -1 : 0;
err_glob:
	globfree(&g);
	return -1;
}

/* Build @prog.c with pkg-config's flags against @root, run it */
static void inst_build_run(struct __test_metadata *_metadata,
			   FIXTURE_DATA(inst) *self, const char *root,
			   const char *libdir)
{
	char pc[PATH_MAX + 32], lib[PATH_MAX + 16], buf[INST_LOG_MAX];

	snprintf(pc, sizeof(pc), "%s%s/pkgconfig", root, libdir);
	snprintf(lib, sizeof(lib), "%s%s", root, libdir);
	ASSERT_EQ(0, setenv("PKG_CONFIG_SYSROOT_DIR", root, 1));
	ASSERT_EQ(0, setenv("PKG_CONFIG_PATH", pc, 1));
	ASSERT_EQ(0, setenv("LD_LIBRARY_PATH", lib, 1));
	ASSERT_EQ(0, setenv("CC", inst_cc(), 1));
	ASSERT_EQ(0, inst_run(self->tmp, self->log_fd, (char *const[]){
		"sh", "-c", "$CC -Wall -Werror -o prog prog.c "
		"$(pkg-config --cflags --libs libkbloom)", NULL }))
		TH_LOG("build against %s: %s", root, inst_log(self->log_fd, buf));
	ASSERT_EQ(0, inst_run(self->tmp, self->log_fd, (char *const[]){
		"readelf", "-d", "prog", NULL }));
	EXPECT_NE(NULL, strstr(inst_log(self->log_fd, buf),
			       "Shared library: [" INST_SONAME "]"));
	ASSERT_EQ(0, inst_run(self->tmp, self->log_fd, (char *const[]){
		"./prog", NULL })) TH_LOG("%s", inst_log(self->log_fd, buf));
	/* kbloom_create() came from the installed library */
	EXPECT_EQ(0, strncmp(inst_log(self->log_fd, buf), lib, strlen(lib)))
		TH_LOG("loaded from %s, not %s", buf, lib);
}

/* The installed library: its SONAME, what it exports and what not */
static void inst_check_so(struct __test_metadata *_metadata,
			  FIXTURE_DATA(inst) *self, const char *root,
			  const char *libdir)
{
	char so[PATH_MAX + 32], buf[INST_LOG_MAX];
	void *h;

	snprintf(so, sizeof(so), "%s%s/" INST_SONAME, root, libdir);
	ASSERT_EQ(0, inst_run(self->tmp, self->log_fd, (char *const[]){
		"readelf", "-d", so, NULL }));
	EXPECT_NE(NULL, strstr(inst_log(self->log_fd, buf),
			       "Library soname: [" INST_SONAME "]")) TH_LOG("%s", buf);
	h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	ASSERT_NE(NULL, h) TH_LOG("dlopen %s: %s", so, dlerror());
	EXPECT_NE(NULL, dlsym(h, "kbloom_create"));
	EXPECT_NE(NULL, dlsym(h, "kbloom_dev_version"));
	/* internals: a kind's ops of the XDP family, a planner helper */
	EXPECT_EQ(NULL, dlsym(h, "kbx_gate_ops"));
	EXPECT_EQ(NULL, dlsym(h, "exp_now_s"));
	dlclose(h);
}

TEST_F(inst, user_install_pkgconfig_uninstall)
{
	static const char *const want[] = {
		"/lib/libkbloom.a", "/lib/libkbloom.so", "/lib/" INST_SONAME,
		"/lib/pkgconfig/libkbloom.pc", "/sbin/kbloomctl",
		"/share/man/man8/kbloomctl.8",
		"/share/bash-completion/completions/kbloomctl", NULL,
	};
	char root[PATH_MAX / 2], path[2 * PATH_MAX], buf[INST_LOG_MAX];
	const char *const *w;
	struct stat st;

	snprintf(root, sizeof(root), "%s/root", self->tmp);
	ASSERT_EQ(0, inst_make(self, "install-user", root))
		TH_LOG("make install-user: %s", inst_log(self->log_fd, buf));
	EXPECT_EQ(NULL, strstr(inst_log(self->log_fd, buf), "kver"))
		TH_LOG("install-user asked for a kernel tree: %s", buf);
	for (w = want; *w; w++) {
		snprintf(path, sizeof(path), "%s%s%s", root, INST_PREFIX, *w);
		EXPECT_EQ(0, stat(path, &st)) TH_LOG("%s not installed", path);
	}
	snprintf(self->inc, sizeof(self->inc), "%s%s/include", root,
		 INST_PREFIX);
	snprintf(path, sizeof(path), "%s/prog.c", self->tmp);
	ASSERT_EQ(0, inst_write_prog(self, path));
	inst_build_run(_metadata, self, root, INST_PREFIX "/lib");
	inst_check_so(_metadata, self, root, INST_PREFIX "/lib");
	ASSERT_EQ(0, inst_make(self, "uninstall", root))
		TH_LOG("make uninstall: %s", inst_log(self->log_fd, buf));
	EXPECT_EQ(0, inst_count_files(root));
}

/* a file of @text at @root/@rel, its directories made */
static int inst_put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX], *p;
	FILE *f;

	if (mkdir(root, 0755) && errno != EEXIST)
		return -1;
	if (snprintf(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path))
		return -1;
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		if (mkdir(path, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static void inst_kdir_check(struct __test_metadata *_metadata,
			    FIXTURE_DATA(inst) *self, const char *kdir,
			    char *const argv[])
{
	char want[PATH_MAX + 8], buf[INST_LOG_MAX];

	snprintf(want, sizeof(want), "-C %s ", kdir);
	ASSERT_EQ(0, inst_run(self->tmp, self->log_fd, argv))
		TH_LOG("%s", inst_log(self->log_fd, buf));
	inst_log(self->log_fd, buf);
	EXPECT_NE(NULL, strstr(buf, want)) TH_LOG("%s", buf);
	EXPECT_NE(NULL, strstr(buf, "9.9.9-kbloom")) TH_LOG("%s", buf);
	EXPECT_EQ(NULL, strstr(buf, "/linux-headers-")) TH_LOG("%s", buf);
}

TEST_F(inst, kdir_from_command_line_and_environment)
{
	char kdir[PATH_MAX], arg[PATH_MAX + 8];

	snprintf(kdir, sizeof(kdir), "%s/kdir", self->tmp);
	ASSERT_EQ(0, inst_put(kdir, "include/generated/utsrelease.h",
			      "#define UTS_RELEASE \"9.9.9-kbloom\"\n"));
	ASSERT_EQ(0, inst_put(kdir, "include/config/kernel.release",
			      "9.9.9\n"));
	/* make -n runs the $(MAKE) line: a tree that builds nothing */
	ASSERT_EQ(0, inst_put(kdir, "Makefile", "modules:\n\ttrue\n"));
	snprintf(arg, sizeof(arg), "KDIR=%s", kdir);
	inst_kdir_check(_metadata, self, kdir, (char *const[]){
		"make", "-n", "-C", self->src, "kmod", arg, NULL });
	ASSERT_EQ(0, setenv("KDIR", kdir, 1));
	inst_kdir_check(_metadata, self, kdir, (char *const[]){
		"make", "-n", "-C", self->src, "kmod", NULL });
}

/* --- make deb: the packages hold what make install puts in place ------ */

#define DEB_PKGS	"{kbloom-dkms,libkbloom1,libkbloom-dev,kbloomctl}_*.deb"

/* The files of @dir as "./path" lines (docs left out, man pages unzipped) */
static const char *inst_files_of(struct __test_metadata *_metadata,
				 FIXTURE_DATA(inst) *self, const char *dir,
				 char *buf)
{
	EXPECT_EQ(0, inst_run(self->tmp, self->log_fd, (char *const[]){
		"sh", "-c", "cd \"$1\" && find . ! -type d "
		"! -path './usr/share/doc/*' | sed 's/\\.gz$//' | LC_ALL=C sort",
		"_", (char *)dir, NULL }));
	return inst_log(self->log_fd, buf);
}

/* Unpack the four packages of build/deb into @root; Return: how many */
static int inst_unpack_debs(FIXTURE_DATA(inst) *self, const char *root)
{
	char pat[PATH_MAX + 128];
	size_t i, n = 0;
	glob_t g;

	snprintf(pat, sizeof(pat), "%s/build/deb/" DEB_PKGS, self->src);
	if (glob(pat, GLOB_BRACE, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc; i++)
		n += !inst_run(self->tmp, self->log_fd, (char *const[]){
			"dpkg-deb", "-x", g.gl_pathv[i], (char *)root, NULL });
	globfree(&g);
	return (int)n;
}

/*
 * The packages of "make deb" (when build/deb has them) hold the files of
 * make install-user and install-dkms-src (PREFIX=/usr, Debian's LIBDIR);
 * a program builds with pkg-config against the unpacked libkbloom-dev and
 * runs against libkbloom1.
 */
TEST_F(inst, deb_packages_match_install)
{
	char debs[PATH_MAX / 2], inst[PATH_MAX / 2], libdir[PATH_MAX];
	char want[INST_LOG_MAX], got[INST_LOG_MAX], path[PATH_MAX + 8];
	glob_t g;

	snprintf(debs, sizeof(debs), "%s/debs", self->tmp);
	snprintf(inst, sizeof(inst), "%s/inst", self->tmp);
	if (inst_unpack_debs(self, debs) != 4)
		SKIP(return, "no packages in build/deb (make deb builds them)");
	snprintf(path, sizeof(path), "%s/usr/lib/*/" INST_SONAME, debs);
	ASSERT_EQ(0, glob(path, 0, NULL, &g));
	snprintf(libdir, sizeof(libdir), "%.*s",
		 (int)(strrchr(g.gl_pathv[0], '/') - g.gl_pathv[0] -
		       strlen(debs)), g.gl_pathv[0] + strlen(debs));
	globfree(&g);
	snprintf(path, sizeof(path), "LIBDIR=%s", libdir);
	ASSERT_EQ(0, inst_make_in(self, "install-user", inst, "/usr", path))
		TH_LOG("%s", inst_log(self->log_fd, want));
	ASSERT_EQ(0, inst_make_in(self, "install-dkms-src", inst, "/usr",
				  NULL)) TH_LOG("%s", inst_log(self->log_fd, want));
	inst_files_of(_metadata, self, inst, want);
	inst_files_of(_metadata, self, debs, got);
	EXPECT_STREQ(want, got);
	EXPECT_NE(NULL, strstr(got, "\n./usr/src/kbloom-")) TH_LOG("%s", got);
	EXPECT_NE(NULL, strstr(got, "\n./usr/sbin/kbloomctl\n"));
	snprintf(self->inc, sizeof(self->inc), "%s/usr/include", debs);
	snprintf(path, sizeof(path), "%s/prog.c", self->tmp);
	ASSERT_EQ(0, inst_write_prog(self, path));
	inst_build_run(_metadata, self, debs, libdir);
	inst_check_so(_metadata, self, debs, libdir);
}

TEST_HARNESS_MAIN
