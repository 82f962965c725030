// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the -o FILE of every command that writes one (save, map
 * save, gate save, sketch save, conntrack save, ipbf header), through the
 * library's kbloom_out (libkbloom.h):
 * a regular or new file is replaced atomically keeping its mode, "-",
 * "stdout", /dev/stdout, devices and FIFOs are written in place, a
 * symlink is followed, and an output holding a secret (a SipHash seed)
 * is created 0600.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "kbloomctl.h"
#include "libkbloom.h"

#define OUT_CHUNK	(1U << 20)

/* -o's value: NULL, "-" and "stdout" are standard output */
static const char *out_path(const char *path)
{
	return !path || !strcmp(path, "-") || !strcmp(path, "stdout") ?
	       "-" : path;
}

bool ctl_out_is_std(const char *path)
{
	return !strcmp(out_path(path), "-");
}

const char *ctl_out_name(const char *path)
{
	return ctl_out_is_std(path) ? "standard output" : path;
}

int ctl_out_open(struct ctl *c, const char *op, const char *path,
		 bool secret, struct kbloom_out **o)
{
	int ret;

	if (path && !*path)	/* open("") would say "Invalid argument" */
		return ctl_usage(c, "output file '': empty (allowed: a file name, or - for standard output)");
	ret = kbloom_out_open(out_path(path), secret ? KBLOOM_OUT_SECRET : 0,
			      o);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s: open %s", op,
				  ctl_out_name(path));
	return 0;
}

/* All of @buf, in chunks that move the progress line @pg. */
static int out_chunks(struct kbloom_out *o, const void *buf, size_t len,
		      struct progress *pg)
{
	const char *p = buf;
	__u64 done = 0;
	size_t n;
	int ret;

	while (len) {
		n = len < OUT_CHUNK ? len : OUT_CHUNK;
		ret = kbloom_out_write(o, p, n);
		if (ret)
			return ret;
		p += n;
		len -= n;
		done += n;
		progress_update(pg, done);
	}
	return 0;
}

int ctl_out_send(struct ctl *c, struct kbloom_out *o, const char *op,
		 const char *path, const void *buf, size_t len)
{
	struct progress pg;
	int ret;

	progress_start(c, &pg, op, len, true);
	ret = out_chunks(o, buf, len, &pg);
	if (ret) {
		progress_fail(&pg);
		return ctl_syserr(c, ret, NULL, "%s: write %s", op,
				  ctl_out_name(path));
	}
	progress_end(&pg);
	return 0;
}

int ctl_out_close(struct ctl *c, const char *op, const char *path,
		  struct kbloom_out *o, bool failed)
{
	int ret = kbloom_out_close(o, !failed);

	if (ret && !failed)
		return ctl_syserr(c, ret, NULL, "%s: write %s", op,
				  ctl_out_name(path));
	return 0;
}

/*
 * A whole binary image to @path (-o's value; standard output when it is
 * "-", "stdout" or NULL, but never a terminal), 0600 when it holds a
 * secret seed.
 */
int ctl_out_image(struct ctl *c, const char *op, const char *path,
		  const void *img, size_t len)
{
	struct kbloom_out *o;
	int ret;

	if (ctl_out_is_std(path) && isatty(STDOUT_FILENO))
		return ctl_usage(c, "standard output is a terminal: refusing to write a binary image (allowed: -o FILE, or redirect to a file or pipe)");
	ret = ctl_out_open(c, op, path, kbloom_image_secret(img, len), &o);
	if (ret)
		return ret;
	ret = ctl_out_send(c, o, op, path, img, len);
	return ctl_out_close(c, op, path, o, ret != 0) ?: ret;
}
