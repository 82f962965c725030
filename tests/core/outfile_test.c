// SPDX-License-Identifier: GPL-2.0
/*
 * The one output path (kbloom_out_open(), kbloom_save_file(), every -o
 * of kbloomctl): a regular or new file is replaced atomically and keeps
 * its mode; "-", /dev/stdout, /dev/null and a FIFO are written in place
 * (the node stays what it was, a FIFO's reader receives the image); a
 * symlink still points where it did; a SipHash filter's new image is
 * 0600; a dropped output leaves the old file and no temporary file.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "libkbloom.h"

static int out_rm_one(const char *path, const struct stat *sb, int flag,
		      struct FTW *ftw)
{
	return remove(path);
}

/* Entries of @dir other than . and .. */
static int out_entries(const char *dir)
{
	struct dirent *d;
	DIR *dh = opendir(dir);
	int n = 0;

	if (!dh)
		return -1;
	while ((d = readdir(dh)))
		n += strcmp(d->d_name, ".") && strcmp(d->d_name, "..");
	closedir(dh);
	return n;
}

/* Does the file @path hold exactly @len bytes of @buf? */
static bool out_holds(const char *path, const void *buf, size_t len)
{
	char *got = malloc(len + 1);
	int fd = open(path, O_RDONLY);
	ssize_t n = -1;

	if (fd >= 0 && got)
		n = read(fd, got, len + 1);
	if (fd >= 0)
		close(fd);
	n = n == (ssize_t)len && !memcmp(got, buf, len);
	free(got);
	return n;
}

FIXTURE(out) {
	char dir[32];
	char path[96];
	struct kbloom_filter *f;
	void *img;
	size_t len;
	mode_t umask_was;
};

static struct kbloom_filter *out_filter(__u32 hash_id)
{
	struct kbloom_opts o = { .hash_id = hash_id, .seed = 0x5eed };
	struct kbloom_filter *f = NULL;

	if (kbloom_create(KBLOOM_TYPE_BLOCKED, 1000, 10000000000ULL, &o, &f))
		return NULL;
	kbloom_add(f, "a", 1);
	kbloom_add(f, "b", 1);
	return f;
}

FIXTURE_SETUP(out)
{
	self->umask_was = umask(022);
	strcpy(self->dir, "/tmp/kbloom-out.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	self->f = out_filter(KBLOOM_HASH_FAST);
	ASSERT_NE(NULL, self->f);
	ASSERT_EQ(0, kbloom_save_alloc(self->f, &self->img, &self->len));
	snprintf(self->path, sizeof(self->path), "%s/f.img", self->dir);
}

FIXTURE_TEARDOWN(out)
{
	kbloom_destroy(self->f);
	free(self->img);
	nftw(self->dir, out_rm_one, 8, FTW_DEPTH | FTW_PHYS);
	umask(self->umask_was);
}

TEST_F(out, new_file_umask_mode)
{
	struct stat st;

	ASSERT_EQ(0, kbloom_save_file(self->f, self->path));
	ASSERT_EQ(0, lstat(self->path, &st));
	EXPECT_TRUE(S_ISREG(st.st_mode));
	EXPECT_EQ(0644, st.st_mode & 07777);
	EXPECT_TRUE(out_holds(self->path, self->img, self->len));
	EXPECT_EQ(1, out_entries(self->dir));
}

TEST_F(out, siphash_image_created_0600)
{
	struct kbloom_filter *s = out_filter(KBLOOM_HASH_SIPHASH13);
	struct stat st;

	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, kbloom_save_file(s, self->path));
	kbloom_destroy(s);
	ASSERT_EQ(0, stat(self->path, &st));
	EXPECT_EQ(0600, st.st_mode & 07777);
	EXPECT_FALSE(kbloom_image_secret(self->img, self->len));
}

/* replaced atomically (a new inode), its mode kept */
TEST_F(out, existing_file_keeps_mode)
{
	struct stat before, after;
	int fd;

	fd = open(self->path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(4, write(fd, "junk", 4));
	ASSERT_EQ(0, fchmod(fd, 0640));
	close(fd);
	ASSERT_EQ(0, stat(self->path, &before));
	ASSERT_EQ(0, kbloom_save_file(self->f, self->path));
	ASSERT_EQ(0, stat(self->path, &after));
	EXPECT_EQ(0640, after.st_mode & 07777);
	EXPECT_NE(before.st_ino, after.st_ino);
	EXPECT_TRUE(out_holds(self->path, self->img, self->len));
	EXPECT_EQ(1, out_entries(self->dir));
}

/* a dropped output: the old content stays, no temporary file */
TEST_F(out, dropped_output_changes_nothing)
{
	struct kbloom_out *o;
	int fd;

	fd = open(self->path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(4, write(fd, "keep", 4));
	close(fd);
	ASSERT_EQ(0, kbloom_out_open(self->path, 0, &o));
	EXPECT_EQ(2, out_entries(self->dir));
	ASSERT_EQ(0, kbloom_out_write(o, self->img, self->len));
	EXPECT_EQ(0, kbloom_out_close(o, false));
	EXPECT_TRUE(out_holds(self->path, "keep", 4));
	EXPECT_EQ(1, out_entries(self->dir));
}

TEST_F(out, symlink_followed_not_replaced)
{
	char link[128], target[128];
	ssize_t n;
	struct stat st;

	snprintf(link, sizeof(link), "%s/link", self->dir);
	ASSERT_EQ(0, symlink("f.img", link));
	ASSERT_EQ(0, kbloom_save_file(self->f, link));
	ASSERT_EQ(0, lstat(link, &st));
	EXPECT_TRUE(S_ISLNK(st.st_mode));
	n = readlink(link, target, sizeof(target) - 1);
	ASSERT_LT(0, n);
	target[n] = 0;
	EXPECT_STREQ("f.img", target);
	EXPECT_TRUE(out_holds(self->path, self->img, self->len));
	EXPECT_EQ(2, out_entries(self->dir));
}

TEST_F(out, dev_null_stays_char_device)
{
	struct stat st;

	ASSERT_EQ(0, kbloom_save_file(self->f, "/dev/null"));
	ASSERT_EQ(0, lstat("/dev/null", &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(makedev(1, 3), st.st_rdev);
	EXPECT_EQ(0, out_entries(self->dir));
}

/* Read all of @path into @out's file, as another process would */
static int out_fifo_reader(const char *path, const char *out)
{
	char buf[4096];
	int in = open(path, O_RDONLY), fd;
	ssize_t n;

	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (in < 0 || fd < 0)
		return 1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, n) != n)
			return 1;
	return n < 0 || close(fd);
}

TEST_F(out, fifo_reader_receives_image)
{
	char fifo[128], got[128];
	struct stat st;
	int status;
	pid_t pid;

	snprintf(fifo, sizeof(fifo), "%s/fifo", self->dir);
	snprintf(got, sizeof(got), "%s/got", self->dir);
	ASSERT_EQ(0, mkfifo(fifo, 0600));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(out_fifo_reader(fifo, got));
	EXPECT_EQ(0, kbloom_save_file(self->f, fifo));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	ASSERT_EQ(0, lstat(fifo, &st));
	EXPECT_TRUE(S_ISFIFO(st.st_mode));
	EXPECT_TRUE(out_holds(got, self->img, self->len));
	EXPECT_EQ(2, out_entries(self->dir));
}

/* "-" and /dev/stdout to a file: written in place, not renamed over it */
TEST_F(out, stdout_written_in_place)
{
	static const char *const names[] = { "-", "/dev/stdout" };
	struct stat before, after;
	int fd, saved, i;

	for (i = 0; i < 2; i++) {
		fd = open(self->path, O_RDWR | O_CREAT | O_TRUNC, 0644);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, fstat(fd, &before));
		fflush(stdout);
		saved = dup(STDOUT_FILENO);
		ASSERT_EQ(STDOUT_FILENO, dup2(fd, STDOUT_FILENO));
		EXPECT_EQ(0, kbloom_save_file(self->f, names[i])) TH_LOG("%s", names[i]);
		ASSERT_EQ(STDOUT_FILENO, dup2(saved, STDOUT_FILENO));
		close(saved);
		close(fd);
		ASSERT_EQ(0, stat(self->path, &after));
		EXPECT_EQ(before.st_ino, after.st_ino) TH_LOG("%s", names[i]);
		EXPECT_TRUE(out_holds(self->path, self->img, self->len));
		EXPECT_EQ(1, out_entries(self->dir));
	}
}

TEST_F(out, bad_arguments_create_nothing)
{
	struct kbloom_out *o = NULL;
	char missing[128];

	snprintf(missing, sizeof(missing), "%s/no/such/dir", self->dir);
	EXPECT_EQ(-EINVAL, kbloom_out_open(NULL, 0, &o));
	EXPECT_EQ(-EINVAL, kbloom_out_open("", 0, &o));
	EXPECT_EQ(-EINVAL, kbloom_out_open(self->path, 1U << 7, &o));
	EXPECT_EQ(-EINVAL, kbloom_out_open(self->path, 0, NULL));
	EXPECT_EQ(-ENOENT, kbloom_out_open(missing, 0, &o));
	EXPECT_EQ(NULL, o);
	EXPECT_EQ(-EINVAL, kbloom_out_close(NULL, true));
	EXPECT_EQ(-EINVAL, kbloom_out_fd(NULL));
	EXPECT_EQ(0, out_entries(self->dir));
}

TEST_HARNESS_MAIN
