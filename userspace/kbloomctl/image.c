// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: save and restore, in the binary image format of
 * uapi/kbloom_image.h.  A save of one filter is one image; a save of every
 * filter is the images one after the other (each says its own length), and
 * restore reads either back.  Restore reads and verifies every image before
 * it changes anything, and is all or nothing: when the module refuses one
 * image (a limit, memory), what this restore did is undone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "kbloomctl.h"
#include "libkbloom.h"

#define IO_CHUNK	(1U << 20)

struct image {
	void *buf;
	size_t len;
	const char *name;	/* the filter to restore into */
	bool skip;		/* -exist: the name exists, left alone */
	void *old;		/* --replace: the image of the filter replaced */
	size_t old_len;
};

static bool is_std(const char *path, const char *word)
{
	return !path || !strcmp(path, "-") || !strcmp(path, word);
}

/* Read up to @len bytes; fewer only at the end of the input. */
static ssize_t read_full(int fd, void *buf, size_t len, struct progress *pg,
			 __u64 *done)
{
	char *p = buf;
	size_t got = 0, n;
	ssize_t r;

	while (got < len) {
		n = len - got < IO_CHUNK ? len - got : IO_CHUNK;
		r = read(fd, p + got, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		got += r;
		*done += r;
		progress_update(pg, *done);
	}
	return got;
}

/* --- save ------------------------------------------------------------------ */

/* Does any of the @n filters hash with a secret key (SipHash)? */
static bool any_secret(struct ctl *c, const struct kbloom_list_entry *e,
		       __u32 n)
{
	struct kbloom_stat st;
	__u32 i;

	for (i = 0; i < n; i++) {
		/* one that vanished or cannot be read: assume it does */
		if (kbloom_dev_stat(c->dev_fd, e[i].name, &st) ||
		    st.hash_id == KBLOOM_HASH_SIPHASH13)
			return true;
	}
	return false;
}

/* Write the image @buf of @name to @o, with a progress line. */
static int save_write(struct ctl *c, struct kbloom_out *o, const char *path,
		      const char *name, const void *buf, size_t len)
{
	char op[64];

	snprintf(op, sizeof(op), "save %s", name);
	return ctl_out_send(c, o, op, path, buf, len);
}

/* The image of @name, or an exit code after a message; 0 and no image
 * for a filter gone since the list with @skip_missing.
 */
static int save_fetch(struct ctl *c, const char *name, bool skip_missing,
		      void **buf, size_t *len)
{
	int ret;

	*buf = NULL;
	ret = kbloom_dev_save_alloc(c->dev_fd, name, buf, len);
	if (ret == -ENOENT && skip_missing)
		return 0;
	if (ret)
		return ctl_syserr(c, ret, ret == -ENOENT ? "no such filter" :
				  NULL, "save %s", name);
	return 0;
}

static int save_one(struct ctl *c, struct kbloom_out *o, const char *path,
		    const char *name, bool skip_missing)
{
	size_t len;
	void *buf;
	int ret;

	ret = save_fetch(c, name, skip_missing, &buf, &len);
	if (!ret && buf)
		ret = save_write(c, o, path, name, buf, len);
	free(buf);
	return ret;
}

/* save NAME: the image first, so that its secret decides the mode */
static int save_named(struct ctl *c, const char *path, const char *name)
{
	struct kbloom_out *o;
	size_t len;
	void *buf;
	int ret;

	ret = save_fetch(c, name, false, &buf, &len);
	if (ret)
		return ret;
	ret = ctl_out_open(c, "save", path, kbloom_image_secret(buf, len), &o);
	if (!ret) {
		ret = save_write(c, o, path, name, buf, len);
		ret = ctl_out_close(c, "save", path, o, ret != 0) ?: ret;
	}
	free(buf);
	return ret;
}

static int save_all(struct ctl *c, const char *path)
{
	struct kbloom_list_entry *e = NULL;
	struct kbloom_out *o;
	__u32 n = 0, i;
	int ret;

	ret = kbloom_dev_list_alloc(c->dev_fd, &e, &n);
	if (ret)
		return ctl_syserr(c, ret, NULL, "save: list");
	ret = ctl_out_open(c, "save", path, any_secret(c, e, n), &o);
	if (ret)
		goto out;
	for (i = 0; !ret && i < n; i++)
		ret = save_one(c, o, path, e[i].name, true);
	ret = ctl_out_close(c, "save", path, o, ret != 0) ?: ret;
out:
	free(e);
	return ret;
}

static int cmd_save(struct ctl *c, int argc, char **argv)
{
	const char *path = c->val[CO_OUTPUT];
	int ret;

	if (argc) {
		ret = arg_name(c, "NAME", argv[0]);
		if (ret)
			return ret;
	}
	if (ctl_out_is_std(path) && isatty(STDOUT_FILENO))
		return ctl_usage(c, "standard output is a terminal: refusing to write a binary image (allowed: -o FILE, or redirect to a file or pipe)");
	ret = ctl_dev(c);
	if (ret)
		return ret;
	return argc ? save_named(c, path, argv[0]) : save_all(c, path);
}

/* --- restore ----------------------------------------------------------------- */

struct in {
	int fd;
	const char *path;
	struct progress pg;
	__u64 done;
	__u64 size;		/* of a regular file; 0: unknown (a pipe) */
};

/*
 * The rest of the image whose header is @h (img->len bytes in all) after
 * the header.  The buffer grows with what arrives (doubling), never to
 * the length a header claims before the input has it.  Return: payload
 * bytes read (fewer than claimed at the end of the input), or -errno.
 */
static ssize_t read_payload(struct in *in, struct image *img,
			    const struct kbloom_image_hdr *h)
{
	size_t got = sizeof(*h), cap;
	ssize_t r;
	char *nb;

	cap = img->len < IO_CHUNK ? img->len : IO_CHUNK;
	img->buf = malloc(cap);
	if (!img->buf)
		return -ENOMEM;
	memcpy(img->buf, h, sizeof(*h));
	while (got < img->len) {
		if (got == cap) {
			cap = cap > img->len / 2 ? img->len : 2 * cap;
			nb = realloc(img->buf, cap);
			if (!nb)
				return -ENOMEM;
			img->buf = nb;
		}
		r = read_full(in->fd, (char *)img->buf + got, cap - got,
			      &in->pg, &in->done);
		if (r < 0)
			return r;
		got += r;
		if (got < cap)
			break;
	}
	return got - sizeof(*h);
}

/*
 * A container image (uapi/kbloom_image.h) starts with its own magic; its
 * header is as long as a version-2 one, with payload_len and the name at
 * the same offsets.
 */
_Static_assert(offsetof(struct kbloom_container_hdr, payload_len) ==
	       offsetof(struct kbloom_image_hdr, payload_len) &&
	       offsetof(struct kbloom_container_hdr, name) ==
	       offsetof(struct kbloom_image_hdr, name) &&
	       KBLOOM_CONTAINER_HDR_LEN == KBLOOM_IMAGE_HDR_LEN,
	       "container and image headers share payload_len and name");

static bool image_is_container(const struct kbloom_image_hdr *h)
{
	return kb_le32(h->magic) == KBLOOM_CONTAINER_MAGIC;
}

/*
 * The next image of the input into @img.  Return: 1 read, 0 at the end of
 * the input, or an exit code after a message.
 */
static int read_image(struct ctl *c, struct in *in, struct image *img,
		      unsigned int idx)
{
	struct kbloom_image_hdr h;
	__u64 rest;		/* bytes after the base header */
	ssize_t r;
	int ret;

	r = read_full(in->fd, &h, sizeof(h), &in->pg, &in->done);
	if (r == 0)
		return 0;
	if (r < 0)
		return ctl_syserr(c, (int)r, NULL, "restore: read %s",
				  in->path);
	if ((size_t)r < sizeof(h))
		return ctl_syserr(c, EMSGSIZE, "truncated header",
				  "restore: %s: image %u", in->path, idx);
	/* version 3: a geometry tail between the base header and payload */
	img->len = kb_image_hdr_len_of(kb_le16(h.version));
	img->len = (img->len ?: sizeof(h)) + kb_le64(h.payload_len);
	/* a container (scalable, dynamic): payload_len and name in place */
	if (image_is_container(&h))
		img->len = KBLOOM_CONTAINER_HDR_LEN + kb_le64(h.payload_len);
	ret = image_is_container(&h) ?
	      kb_container_check((const void *)&h, img->len) :
	      kb_image_check(&h, img->len);
	if (ret)
		return ctl_syserr(c, ret, "not a valid kbloom image header",
				  "restore: %s: image %u", in->path, idx);
	rest = img->len - sizeof(h);
	/* a file shorter than the header says: refused before reading */
	if (in->size && rest > in->size - in->done)
		return ctl_syserr(c, EMSGSIZE, "truncated payload",
				  "restore: %s: image %u", in->path, idx);
	r = read_payload(in, img, &h);
	if (r == -ENOMEM)
		return ctl_syserr(c, ENOMEM, NULL, "restore: %s: image %u",
				  in->path, idx);
	if (r < 0)
		return ctl_syserr(c, (int)r, NULL, "restore: read %s",
				  in->path);
	if ((__u64)r < rest)
		return ctl_syserr(c, EMSGSIZE, "truncated payload",
				  "restore: %s: image %u", in->path, idx);
	ret = image_is_container(&h) ?
	      kb_container_verify(img->buf, img->len) :
	      kb_image_verify(img->buf, img->len);
	if (ret)
		return ctl_syserr(c, ret, ret == -EBADMSG ? "bad checksum" :
				  NULL, "restore: %s: image %u", in->path, idx);
	return 1;
}

/* Read and verify every image of the input. */
static int read_images(struct ctl *c, struct in *in, struct image **imgs,
		       unsigned int *nimg)
{
	struct image *v = NULL, *nv;
	unsigned int n = 0, cap = 0;
	int ret;

	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				ret = ctl_syserr(c, ENOMEM, NULL, "restore");
				break;
			}
			v = nv;
		}
		memset(&v[n], 0, sizeof(v[n]));
		ret = read_image(c, in, &v[n], n + 1);
		if (ret != 1) {
			free(v[n].buf);
			break;
		}
		n++;
	}
	*imgs = v;
	*nimg = n;
	return ret;
}

static void free_images(struct image *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		free(v[i].buf);
		free(v[i].old);
	}
	free(v);
}

/* Names to restore into: given or recorded, none twice. */
static int restore_names(struct ctl *c, const char *name, struct image *v,
			 unsigned int n, const char *path)
{
	const struct kbloom_image_hdr *h;
	unsigned int i, j;

	if (name && n != 1)
		return ctl_usage(c, "NAME '%s': %s holds %u images (allowed: exactly one image with NAME; without NAME each is restored under its own name)",
				 name, path, n);
	for (i = 0; i < n; i++) {
		h = v[i].buf;
		v[i].name = name ? name : h->name;
		if (!v[i].name[0])
			return ctl_usage(c, "%s: image %u has no name (allowed: give NAME to restore it)",
					 path, i + 1);
		for (j = 0; j < i; j++)
			if (!strcmp(v[i].name, v[j].name))
				return ctl_syserr(c, EEXIST, "named twice in the input",
						  "restore %s", v[i].name);
	}
	return 0;
}

/*
 * Before any restore, each existing target: an error, skipped (-exist),
 * or saved to be put back if the restore is undone (--replace).
 */
static int restore_plan(struct ctl *c, struct image *v, unsigned int n)
{
	struct kbloom_stat st;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = kbloom_dev_stat(c->dev_fd, v[i].name, &st);
		if (ret == -ENOENT)
			continue;
		if (!ret && c->set[CO_REPLACE])
			ret = kbloom_dev_save_alloc(c->dev_fd, v[i].name,
						    &v[i].old, &v[i].old_len);
		if (ret)
			return ctl_syserr(c, ret, NULL, "restore %s",
					  v[i].name);
		if (c->set[CO_EXIST])
			v[i].skip = true;
		else if (!c->set[CO_REPLACE])
			return ctl_syserr(c, EEXIST, "use --replace",
					  "restore %s", v[i].name);
	}
	return 0;
}

/* Undo the restores of v[0..@n): destroy or put the replaced one back. */
static int restore_undo(struct ctl *c, const struct image *v, unsigned int n)
{
	unsigned int i;
	int ret, bad = 0;

	for (i = n; i-- > 0;) {
		if (v[i].skip)
			continue;
		if (v[i].old)
			ret = kbloom_dev_restore(c->dev_fd, v[i].name, v[i].old,
						 v[i].old_len,
						 KBLOOM_RESTORE_REPLACE);
		else
			ret = kbloom_dev_destroy(c->dev_fd, v[i].name);
		if (ret) {
			ctl_syserr(c, ret, NULL, "restore: undo %s", v[i].name);
			bad++;
		}
	}
	return bad;
}

/* Restore every image, or none: the first failure undoes the others. */
static int restore_all(struct ctl *c, const struct image *v, unsigned int n)
{
	__u32 flags = c->set[CO_REPLACE] ? KBLOOM_RESTORE_REPLACE : 0;
	unsigned int i, done = 0;
	char detail[64];
	int ret = 0;

	for (i = 0; i < n; i++) {
		if (v[i].skip)
			continue;
		ret = kbloom_dev_restore(c->dev_fd, v[i].name, v[i].buf,
					 v[i].len, flags);
		if (ret)
			break;
		done++;
	}
	if (!ret)
		return 0;
	snprintf(detail, sizeof(detail), "nothing restored: %u undone", done);
	ctl_syserr(c, ret, done ? detail : NULL, "restore %s", v[i].name);
	if (restore_undo(c, v, i))
		ctl_warn(c, "restore: the undo failed: the filters named above may be left as this restore made them");
	return KBCTL_SYS;
}

static int in_open(struct ctl *c, struct in *in, const char *path)
{
	struct stat st;
	off_t off;

	memset(in, 0, sizeof(*in));
	if (is_std(path, "stdin")) {
		in->fd = STDIN_FILENO;
		in->path = "<stdin>";
	} else {
		in->path = path;
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0)
			return ctl_syserr(c, errno, NULL, "restore: open %s",
					  path);
	}
	/* what is left from the offset: stdin may be a file partly read */
	off = lseek(in->fd, 0, SEEK_CUR);
	if (!fstat(in->fd, &st) && S_ISREG(st.st_mode) && off >= 0 &&
	    off < st.st_size)
		in->size = st.st_size - off;
	progress_start(c, &in->pg, "restore: read", in->size, true);
	return 0;
}

static int cmd_restore(struct ctl *c, int argc, char **argv)
{
	const char *path = c->val[CO_INPUT], *name = argc ? argv[0] : NULL;
	struct image *v = NULL;
	unsigned int n = 0;
	struct in in;
	int ret;

	if (c->set[CO_EXIST] && c->set[CO_REPLACE])
		return ctl_usage(c, "-exist and --replace: choose one (allowed: -exist skips existing filters, --replace swaps them)");
	if (name) {
		ret = arg_name(c, "NAME", name);
		if (ret)
			return ret;
	}
	if (is_std(path, "stdin") && isatty(STDIN_FILENO))
		return ctl_usage(c, "standard input is a terminal: refusing to read a binary image (allowed: -i FILE, or redirect from a file or pipe)");
	ret = in_open(c, &in, path);
	if (ret)
		return ret;
	ret = read_images(c, &in, &v, &n);
	if (in.fd != STDIN_FILENO)
		close(in.fd);
	if (ret) {
		progress_fail(&in.pg);
		goto out;
	}
	progress_end(&in.pg);
	ret = restore_names(c, name, v, n, in.path);
	if (!ret)
		ret = ctl_dev(c);
	if (!ret)
		ret = restore_plan(c, v, n);
	if (!ret)
		ret = restore_all(c, v, n);
out:
	free_images(v, n);
	return ret;
}

const struct ctl_cmd image_cmds[] = {
	{
		.name = "save",
		.synopsis = "[NAME] [-o FILE|-]",
		.summary = "write a filter's binary image, or every filter's",
		.help =
"The image (uapi/kbloom_image.h) holds the parameters, the counts and the\n"
"bits or counters; libkbloom and the BPF map loader read it too.  Without\n"
"NAME the images of every filter follow one another.  Output goes to\n"
"standard output (never to a terminal) or to FILE: a regular or new FILE\n"
"is written atomically (a temporary file renamed over it) and keeps its\n"
"mode, a device or FIFO is written in place, a symlink is followed; a new\n"
"FILE holding a SipHash filter (its secret seed) is created 0600.\n",
		.max_args = 1,
		.opts = CTL_OPT(CO_OUTPUT),
		.run = cmd_save,
	},
	{
		.name = "restore",
		.synopsis = "[NAME] [-i FILE|-] [--replace|-exist]",
		.summary = "create filters from saved images",
		.help =
"Reads images from standard input or FILE and verifies all of them before\n"
"anything changes.  With NAME the input must hold one image, restored\n"
"under NAME; without, every image is restored under its recorded name.\n"
"An existing filter is an error, unless --replace is given: then it is\n"
"swapped atomically (readers see the old or the new filter); or -exist:\n"
"then it is left as it is and its image skipped.\n"
"All or nothing: when the module refuses an image (a limit such as\n"
"max_filters or max_total_bytes, or memory), the filters this restore\n"
"created are destroyed and those it replaced are put back, so the module\n"
"holds what it held before (exit 3).\n",
		.max_args = 1,
		.opts = CTL_OPT(CO_INPUT) | CTL_OPT(CO_REPLACE) |
			CTL_OPT(CO_EXIST),
		.run = cmd_restore,
	},
	{ 0 }
};
