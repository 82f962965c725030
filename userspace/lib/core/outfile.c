// SPDX-License-Identifier: GPL-2.0
/*
 * libkbloom: the one output path of every image written to a file name
 * (kbloom_save_file(), kbloomctl's -o).
 *
 * A regular file, or a name that does not exist yet, is written to a
 * temporary file beside it, fsync()ed and renamed over it, so the name
 * always holds a whole image; an existing file keeps its mode (and, for
 * root, its owner).  A symlink is followed: its target is what is
 * replaced, the link stays.  Anything else (standard output "-", a device
 * such as /dev/null, a FIFO, a socket, a name under /dev or /proc such as
 * /dev/stdout) is opened and written in place: renaming over it would
 * replace the node.  A new file holding a secret (KBLOOM_OUT_SECRET) is
 * created 0600, otherwise 0666 less the umask.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "libkbloom.h"

#define OUT_TRIES	64

struct kbloom_out {
	int fd;
	bool in_place;
	char *target;		/* the name renamed over (atomic) */
	char *tmp;		/* the temporary file (atomic) */
};

static bool out_dev_proc(const char *name)
{
	return !strncmp(name, "/dev/", 5) || !strncmp(name, "/proc/", 6);
}

/*
 * Written in place: not a regular file, or a name of /dev or /proc as
 * given or resolved (/dev/stdout to a file: the shell's redirection).
 */
static bool out_special(const char *path, const char *real,
			const struct stat *st)
{
	return !S_ISREG(st->st_mode) || out_dev_proc(path) ||
	       out_dev_proc(real);
}

/* "DIR/.BASE.XXXXXX" for @target, its random part filled in */
static int out_tmp_name(const char *target, char **out)
{
	static const char az[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	const char *slash = strrchr(target, '/');
	unsigned char rnd[6];
	char *name, *x;
	int i, n;

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return -errno;
	if (slash)
		n = asprintf(&name, "%.*s/.%s.XXXXXX", (int)(slash - target),
			     target, slash + 1);
	else
		n = asprintf(&name, ".%s.XXXXXX", target);
	if (n < 0)
		return -ENOMEM;
	x = name + n - 6;
	for (i = 0; i < 6; i++)
		x[i] = az[rnd[i] % (sizeof(az) - 1)];
	*out = name;
	return 0;
}

/*
 * A new temporary file beside o->target, of mode @mode (less the umask:
 * open() applies it), or for an existing @st, its mode and owner.
 */
static int out_tmp_open(struct kbloom_out *o, const struct stat *st,
			mode_t mode)
{
	int i, ret;

	for (i = 0; i < OUT_TRIES; i++) {
		ret = out_tmp_name(o->target, &o->tmp);
		if (ret)
			return ret;
		o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			     st ? 0600 : mode);
		if (o->fd >= 0)
			break;
		ret = -errno;
		free(o->tmp);
		o->tmp = NULL;
		if (ret != -EEXIST)
			return ret;
	}
	if (o->fd < 0)
		return -EEXIST;
	if (!st)
		return 0;
	if (fchmod(o->fd, st->st_mode & 07777) ||
	    (!geteuid() && fchown(o->fd, st->st_uid, st->st_gid))) {
		ret = -errno;
		close(o->fd);
		unlink(o->tmp);
		return ret;
	}
	return 0;
}

static int out_in_place(struct kbloom_out *o, const char *path, int flags)
{
	o->in_place = true;
	if (!strcmp(path, "-")) {
		o->fd = STDOUT_FILENO;
		return 0;
	}
	o->fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | flags, 0666);
	return o->fd < 0 ? -errno : 0;
}

/* Which name to write, and how: fills @o; Return: 0 or -errno */
static int out_route(struct kbloom_out *o, const char *path,
		     unsigned int flags)
{
	mode_t mode = flags & KBLOOM_OUT_SECRET ? 0600 : 0666;
	struct stat st;
	char *real;

	if (!strcmp(path, "-"))
		return out_in_place(o, path, 0);
	if (stat(path, &st)) {
		if (errno != ENOENT)
			return -errno;
		/* a dangling symlink: created through it, in place */
		if (!lstat(path, &st))
			return out_in_place(o, path, O_CREAT);
		o->target = strdup(path);
		return o->target ? out_tmp_open(o, NULL, mode) : -ENOMEM;
	}
	/* /dev/stdout to a pipe: a link realpath() cannot resolve */
	real = realpath(path, NULL);
	if (!real || out_special(path, real, &st)) {
		free(real);
		return out_in_place(o, path, 0);
	}
	o->target = real;
	return out_tmp_open(o, &st, mode);
}

int kbloom_out_open(const char *path, unsigned int flags,
		    struct kbloom_out **op)
{
	struct kbloom_out *o;
	int ret;

	if (!path || !*path || !op || (flags & ~KBLOOM_OUT_SECRET))
		return -EINVAL;
	o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	o->fd = -1;
	ret = out_route(o, path, flags);
	if (ret) {
		free(o->target);
		free(o->tmp);
		free(o);
		return ret;
	}
	*op = o;
	return 0;
}

int kbloom_out_fd(const struct kbloom_out *o)
{
	return o ? o->fd : -EINVAL;
}

/* fsync the directory of @name, so that the rename is durable */
static void out_sync_dir(const char *name)
{
	const char *slash = strrchr(name, '/');
	char dir[PATH_MAX];
	int fd;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - name) + 1 : 1,
		 slash ? name : ".");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	fsync(fd);
	close(fd);
}

static int out_finish_tmp(struct kbloom_out *o, bool commit)
{
	int ret = 0;

	if (commit && fsync(o->fd))
		ret = -errno;
	if (close(o->fd) && commit && !ret)
		ret = -errno;
	if (commit && !ret && rename(o->tmp, o->target))
		ret = -errno;
	if (!commit || ret)
		unlink(o->tmp);
	else
		out_sync_dir(o->target);
	return ret;
}

int kbloom_out_close(struct kbloom_out *o, bool commit)
{
	int ret = 0;

	if (!o)
		return -EINVAL;
	if (!o->in_place)
		ret = out_finish_tmp(o, commit);
	else if (o->fd != STDOUT_FILENO && close(o->fd) && commit)
		ret = -errno;
	free(o->target);
	free(o->tmp);
	free(o);
	return ret;
}

int kbloom_out_write(struct kbloom_out *o, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	if (!o)
		return -EINVAL;
	while (len) {
		n = write(o->fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= n;
	}
	return 0;
}

bool kbloom_image_secret(const void *img, size_t len)
{
	const struct kbloom_image_hdr *h = img;

	return img && len >= KBLOOM_IMAGE_HDR_LEN &&
	       h->hash_id == KBLOOM_HASH_SIPHASH13;
}
