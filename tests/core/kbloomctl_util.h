/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the kbloomctl tests (tests/core/kbloomctl_test.c on the host,
 * tests/kmod/kbloomctl_test.c in the guest):
 *
 * kbctl_run() and friends run build/kbloomctl (found next to the test
 * binary: build/tests/SUITE/x -> build/kbloomctl; $KBLOOMCTL overrides)
 * with fork/exec, standard input from a file or /dev/null, standard
 * output captured or sent to a file, standard error captured; or in a
 * pseudo-terminal (kbctl_run_pty()); or as a pipeline of two
 * (kbctl_run_pipe()).
 *
 * kbj_valid(text, len) is a strict JSON (RFC 8259) validator: 1 when the
 * text is exactly one JSON value with optional surrounding whitespace.
 * The guest has no python3, so the kmod suite checks -j output with it;
 * the core suite checks it against python3 -m json.tool.
 */
#ifndef _KBLOOMCTL_UTIL_H
#define _KBLOOMCTL_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pty.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* --- running kbloomctl ------------------------------------------------- */

struct kbctl_res {
	int status;		/* exit code; 128 + signal when killed */
	char *out;		/* standard output (NUL-terminated) */
	size_t out_len;
	char *err;		/* standard error (NUL-terminated) */
	size_t err_len;
};

static inline const char *kbctl_path(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("KBLOOMCTL");
	char self[PATH_MAX - 32], *slash;
	ssize_t n;

	if (env && *env)
		return env;
	if (path[0])
		return path;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return "build/kbloomctl";
	self[n] = 0;
	/* build/tests/SUITE/name -> build/kbloomctl */
	slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	snprintf(path, sizeof(path), "%s/../../kbloomctl", self);
	return path;
}

static inline void kbctl_free(struct kbctl_res *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

/* Slurp a file descriptor from its start into a new NUL-terminated buffer. */
static inline char *kbctl_slurp(int fd, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap), *nb;
	ssize_t r;

	if (!buf)
		return NULL;
	lseek(fd, 0, SEEK_SET);
	for (;;) {
		if (n + 1 >= cap) {
			nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

static inline int kbctl_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return -1;
}

/* argv of the child: the binary, then @args (NULL-terminated) */
static inline void kbctl_exec(const char *const *args)
{
	const char *argv[256];
	int i;

	argv[0] = kbctl_path();
	for (i = 0; args[i] && i < 254; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	execv(argv[0], (char *const *)argv);
	fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/*
 * Run kbloomctl with @args.  @in: a file for standard input (NULL:
 * /dev/null).  @out_path: a file for standard output (NULL: captured).
 */
static inline int kbctl_run_io(struct kbctl_res *r, const char *in,
			const char *out_path, const char *const *args)
{
	int ofd, efd, ifd, st;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	ofd = out_path ? open(out_path, O_RDWR | O_CREAT | O_TRUNC, 0644) :
			 fileno(tmpfile());
	efd = fileno(tmpfile());
	ifd = open(in ? in : "/dev/null", O_RDONLY);
	if (ofd < 0 || efd < 0 || ifd < 0)
		return r->status = -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return r->status = -1;
	if (!pid) {
		dup2(ifd, 0);
		dup2(ofd, 1);
		dup2(efd, 2);
		kbctl_exec(args);
	}
	close(ifd);
	waitpid(pid, &st, 0);
	r->status = kbctl_status(st);
	r->out = out_path ? strdup("") : kbctl_slurp(ofd, &r->out_len);
	r->err = kbctl_slurp(efd, &r->err_len);
	close(ofd);
	close(efd);
	return r->status;
}

#define KBCTL_ARGS(...)	((const char *const[]){ __VA_ARGS__, NULL })
/* kbctl_run(&res, "create", "foo", ...) */
#define kbctl_run(r, ...) kbctl_run_io(r, NULL, NULL, KBCTL_ARGS(__VA_ARGS__))
/* kbctl_run_in(&res, "file", "add", "foo", "-") */
#define kbctl_run_in(r, in, ...) \
	kbctl_run_io(r, in, NULL, KBCTL_ARGS(__VA_ARGS__))
/* kbctl_run_out(&res, "file", "save", "foo") */
#define kbctl_run_out(r, out, ...) \
	kbctl_run_io(r, NULL, out, KBCTL_ARGS(__VA_ARGS__))

/*
 * kbloomctl @a | kbloomctl @b.  @ra gets the first one's status and
 * standard error, @rb the second's with its standard output.
 */
static inline int kbctl_run_pipe(struct kbctl_res *ra, struct kbctl_res *rb,
			  const char *const *a, const char *const *b)
{
	int p[2], ea, eb, ob, st;
	pid_t pa, pb;

	memset(ra, 0, sizeof(*ra));
	memset(rb, 0, sizeof(*rb));
	ea = fileno(tmpfile());
	eb = fileno(tmpfile());
	ob = fileno(tmpfile());
	if (ea < 0 || eb < 0 || ob < 0 || pipe(p))
		return -1;
	fflush(NULL);
	pa = fork();
	if (!pa) {
		close(p[0]);
		dup2(p[1], 1);
		dup2(ea, 2);
		kbctl_exec(a);
	}
	pb = fork();
	if (!pb) {
		close(p[1]);
		dup2(p[0], 0);
		dup2(ob, 1);
		dup2(eb, 2);
		kbctl_exec(b);
	}
	close(p[0]);
	close(p[1]);
	waitpid(pa, &st, 0);
	ra->status = kbctl_status(st);
	waitpid(pb, &st, 0);
	rb->status = kbctl_status(st);
	ra->out = strdup("");
	ra->err = kbctl_slurp(ea, &ra->err_len);
	rb->out = kbctl_slurp(ob, &rb->out_len);
	rb->err = kbctl_slurp(eb, &rb->err_len);
	close(ea);
	close(eb);
	close(ob);
	return rb->status;
}

/*
 * Run kbloomctl on a pseudo-terminal (standard input, output and error),
 * except that standard output goes to @out_path when given.  What the
 * terminal showed is in @r->out; @r->err is empty.
 */
static inline int kbctl_run_pty(struct kbctl_res *r, const char *out_path,
			 const char *const *args)
{
	char buf[4096];
	size_t cap = 0;
	int master, st, fd;
	ssize_t n;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	fflush(NULL);
	pid = forkpty(&master, NULL, NULL, NULL);
	if (pid < 0)
		return r->status = -1;
	if (!pid) {
		if (out_path) {
			fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0 || dup2(fd, 1) < 0)
				_exit(126);
		}
		kbctl_exec(args);
	}
	for (;;) {
		n = read(master, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* EIO once the child has gone */
		if (r->out_len + n + 1 > cap) {
			cap = (r->out_len + n + 1) * 2;
			r->out = realloc(r->out, cap);
		}
		memcpy(r->out + r->out_len, buf, n);
		r->out_len += n;
	}
	if (!r->out)
		r->out = calloc(1, 1);
	else
		r->out[r->out_len] = 0;
	r->err = strdup("");
	close(master);
	waitpid(pid, &st, 0);
	return r->status = kbctl_status(st);
}

/* Lines in @s (a last line without a newline counts). */
static inline int kbctl_lines(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		if (*s == '\n' || !s[1])
			n++;
	return n;
}

/* Write @text to a new file @path. */
static inline int kbctl_write_file(const char *path, const void *text, size_t len)
{
	FILE *f = fopen(path, "w");
	size_t w;

	if (!f)
		return -1;
	w = fwrite(text, 1, len, f);
	return fclose(f) || w != len ? -1 : 0;
}

/* --- JSON validation ---------------------------------------------------- */

struct kbj {
	const unsigned char *p;
	const unsigned char *end;
	int depth;
};

static inline int kbj_value(struct kbj *j);

static inline void kbj_ws(struct kbj *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static inline int kbj_lit(struct kbj *j, const char *s)
{
	while (*s) {
		if (j->p >= j->end || *j->p != (unsigned char)*s)
			return 0;
		j->p++;
		s++;
	}
	return 1;
}

static inline int kbj_digits(struct kbj *j)
{
	const unsigned char *s = j->p;

	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > s;
}

static inline int kbj_number(struct kbj *j)
{
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p >= j->end)
		return 0;
	if (*j->p == '0')
		j->p++;
	else if (!kbj_digits(j))
		return 0;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (!kbj_digits(j))
			return 0;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (!kbj_digits(j))
			return 0;
	}
	return 1;
}

static inline int kbj_hex4(struct kbj *j)
{
	int i;

	for (i = 0; i < 4; i++, j->p++) {
		if (j->p >= j->end)
			return 0;
		if (!((*j->p >= '0' && *j->p <= '9') ||
		      (*j->p >= 'a' && *j->p <= 'f') ||
		      (*j->p >= 'A' && *j->p <= 'F')))
			return 0;
	}
	return 1;
}

/* One UTF-8 sequence starting with a byte >= 0x80 (no overlongs). */
static inline int kbj_utf8(struct kbj *j)
{
	unsigned char c = *j->p;
	int n, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 1;
	else if (c >= 0xe0 && c <= 0xef)
		n = 2;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 3;
	else
		return 0;
	j->p++;
	for (i = 0; i < n; i++, j->p++)
		if (j->p >= j->end || (*j->p & 0xc0) != 0x80)
			return 0;
	return 1;
}

static inline int kbj_string(struct kbj *j)
{
	if (j->p >= j->end || *j->p != '"')
		return 0;
	j->p++;
	while (j->p < j->end) {
		unsigned char c = *j->p;

		if (c == '"') {
			j->p++;
			return 1;
		}
		if (c < 0x20)
			return 0;
		if (c >= 0x80) {
			if (!kbj_utf8(j))
				return 0;
			continue;
		}
		j->p++;
		if (c != '\\')
			continue;
		if (j->p >= j->end)
			return 0;
		c = *j->p++;
		if (c == 'u') {
			if (!kbj_hex4(j))
				return 0;
		} else if (!(c == '"' || c == '\\' || c == '/' || c == 'b' ||
			     c == 'f' || c == 'n' || c == 'r' || c == 't')) {
			return 0;
		}
	}
	return 0;
}

static inline int kbj_container(struct kbj *j, unsigned char close, int obj)
{
	j->p++;
	if (++j->depth > 64)
		return 0;
	kbj_ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		j->depth--;
		return 1;
	}
	for (;;) {
		kbj_ws(j);
		if (obj) {
			if (!kbj_string(j))
				return 0;
			kbj_ws(j);
			if (j->p >= j->end || *j->p != ':')
				return 0;
			j->p++;
		}
		if (!kbj_value(j))
			return 0;
		kbj_ws(j);
		if (j->p >= j->end)
			return 0;
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p != close)
			return 0;
		j->p++;
		j->depth--;
		return 1;
	}
}

static inline int kbj_value(struct kbj *j)
{
	kbj_ws(j);
	if (j->p >= j->end)
		return 0;
	switch (*j->p) {
	case '{':
		return kbj_container(j, '}', 1);
	case '[':
		return kbj_container(j, ']', 0);
	case '"':
		return kbj_string(j);
	case 't':
		return kbj_lit(j, "true");
	case 'f':
		return kbj_lit(j, "false");
	case 'n':
		return kbj_lit(j, "null");
	default:
		return kbj_number(j);
	}
}

static inline int kbj_valid(const char *text, size_t len)
{
	struct kbj j = {
		.p = (const unsigned char *)text,
		.end = (const unsigned char *)text + len,
	};

	if (!kbj_value(&j))
		return 0;
	kbj_ws(&j);
	return j.p == j.end;
}

#endif /* _KBLOOMCTL_UTIL_H */
