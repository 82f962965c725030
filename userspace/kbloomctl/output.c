// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: messages and exit codes, the device, the progress line and
 * the formatting of numbers that every command shares.
 *
 * Every error is one line on stderr, "kbloomctl: WHAT: WHY":
 *   usage errors (exit 2) name the argument, what is wrong with it and
 *   what is allowed;
 *   system errors (exit 3) name the operation and give strerror().
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kbloomctl.h"

/* a progress line appears for work at least this big */
#define PROGRESS_MIN_BYTES	(4ULL << 20)
#define PROGRESS_MIN_KEYS	(256ULL << 10)

int ctl_usage(const struct ctl *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", KBCTL_NAME);
	if (c && c->cmd_path[0])
		fprintf(stderr, "%s: ", c->cmd_path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return KBCTL_USAGE;
}

int ctl_syserr(const struct ctl *c, int err, const char *detail,
	       const char *opfmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", KBCTL_NAME);
	va_start(ap, opfmt);
	vfprintf(stderr, opfmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s", strerror(err < 0 ? -err : err));
	if (detail && *detail)
		fprintf(stderr, " (%s)", detail);
	fputc('\n', stderr);
	return KBCTL_SYS;
}

void ctl_warn(const struct ctl *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", KBCTL_NAME);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool ctl_quiet(const struct ctl *c)
{
	return c->set[CO_QUIET];
}

/* Open the device on first use and check that it speaks our ABI. */
int ctl_dev(struct ctl *c)
{
	struct kbloom_version v;
	char why[96];
	int fd, ret;

	if (c->dev_fd >= 0)
		return 0;
	fd = kbloom_dev_open(c->dev_path);
	if (fd < 0)
		return ctl_syserr(c, fd, fd == -ENOENT ?
				  "is kbloom.ko loaded?" : NULL,
				  "open %s", c->dev_path);
	ret = kbloom_dev_version(fd, &v);
	if (ret) {
		kbloom_dev_close(fd);
		return ctl_syserr(c, ret, "not a kbloom device?",
				  "version of %s", c->dev_path);
	}
	if (v.major != KBLOOM_ABI_MAJOR) {
		kbloom_dev_close(fd);
		snprintf(why, sizeof(why),
			 "module ABI %u.%u, this %s speaks %u.x",
			 v.major, v.minor, KBCTL_NAME, KBLOOM_ABI_MAJOR);
		return ctl_syserr(c, -EPROTO, why, "version of %s",
				  c->dev_path);
	}
	c->dev_fd = fd;
	return 0;
}

int ctl_flush_stdout(const struct ctl *c)
{
	if (fflush(stdout) || ferror(stdout))
		return ctl_syserr(c, errno ? errno : EIO, NULL,
				  "write standard output");
	return KBCTL_OK;
}

/*
 * A listing: with -j a JSON array on standard output (true), else a table
 * whose header the caller prints (false).
 */
bool ctl_list_begin(const struct ctl *c, struct json *j)
{
	if (!c->set[CO_JSON])
		return false;
	json_init(j, stdout);
	json_arr(j);
	return true;
}

/* The end of a listing of ctl_list_begin(), and standard output flushed. */
int ctl_list_end(const struct ctl *c, struct json *j)
{
	if (c->set[CO_JSON]) {
		json_arr_end(j);
		json_end(j);
	}
	return ctl_flush_stdout(c);
}

const char *type_name(__u32 type)
{
	switch (type) {
	case KBLOOM_TYPE_STANDARD:
		return "standard";
	case KBLOOM_TYPE_BLOCKED:
		return "blocked";
	case KBLOOM_TYPE_COUNTING:
		return "counting";
	case KBLOOM_TYPE_CUCKOO:
		return "cuckoo";
	case KBLOOM_TYPE_VI_COUNTING:
		return "vi-counting";
	case KBLOOM_TYPE_COUNT_MIN:
		return "countmin";
	case KBLOOM_TYPE_DLEFT:
		return "dleft";
	case KBLOOM_TYPE_PARTITIONED:
		return "partitioned";
	case KBLOOM_TYPE_SCALABLE:
		return "scalable";
	case KBLOOM_TYPE_DYNAMIC:
		return "dynamic";
	case KBLOOM_TYPE_STABLE:
		return "stable";
	case KBLOOM_TYPE_AGE_PARTITIONED:
		return "window";
	case KBLOOM_TYPE_ULTRA_FAST:
		return "ultra-fast";
	case KBLOOM_TYPE_SPLIT_BLOCK:
		return "split-block";
	case KBLOOM_TYPE_DELETABLE:
		return "deletable";
	}
	return "unknown";
}

const char *hash_name(__u32 hash_id)
{
	switch (hash_id) {
	case KBLOOM_HASH_FAST:
		return "fast";
	case KBLOOM_HASH_SIPHASH13:
		return "siphash";
	case KBLOOM_HASH_XXH64:
		return "xxh64";
	}
	return "unknown";
}

double pico_to_double(__u64 pico)
{
	return (double)pico / (double)KBLOOM_P_UNIT;
}

/* A probability in pico units as "0.01", "1e-09", "0.000957". */
void fmt_prob(char *buf, size_t len, __u64 pico)
{
	snprintf(buf, len, "%.3g", pico_to_double(pico));
}

/*
 * A filter's false-positive rate now, as every stat prints it: below the
 * 1e-12 resolution of a filter that holds keys, "<1e-12" (not "0"; in
 * percent, as mcast ports shows it: "<1e-10%").
 */
void fmt_fpr_now(char *buf, size_t len, __u64 pico, __u64 inserted)
{
	if (!pico && inserted)
		snprintf(buf, len, "<1e-12");
	else
		fmt_prob(buf, len, pico);
}

/* "4096 (4.0 KiB)" */
void fmt_size(char *buf, size_t len, __u64 bytes)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	int u = -1;

	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu (%.1f %s)", (unsigned long long)bytes,
			 v, unit[u]);
}

/* --- progress line ----------------------------------------------------- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A progress line on stderr for big work, only when stderr is a terminal
 * and -q is not given: rewritten in place at most ten times a second.
 */
void progress_start(const struct ctl *c, struct progress *p, const char *label,
		    __u64 total, bool bytes)
{
	memset(p, 0, sizeof(*p));
	p->label = label;
	p->total = total;
	p->bytes = bytes;
	p->on = !ctl_quiet(c) && isatty(STDERR_FILENO) &&
		total >= (bytes ? PROGRESS_MIN_BYTES : PROGRESS_MIN_KEYS);
	p->last = 0;
}

static void progress_show(struct progress *p, __u64 done)
{
	unsigned int pct = p->total ? (unsigned int)(done * 100 / p->total) : 100;

	if (p->bytes)
		fprintf(stderr, "\r%s: %s: %3u%% (%.1f of %.1f MiB)", KBCTL_NAME,
			p->label, pct, done / 1048576.0, p->total / 1048576.0);
	else
		fprintf(stderr, "\r%s: %s: %3u%% (%llu of %llu keys)",
			KBCTL_NAME, p->label, pct, (unsigned long long)done,
			(unsigned long long)p->total);
	fflush(stderr);
	p->shown = true;
}

void progress_update(struct progress *p, __u64 done)
{
	double t;

	if (!p->on)
		return;
	t = now();
	if (p->shown && t - p->last < 0.1)
		return;
	p->last = t;
	progress_show(p, done);
}

/* The final 100% line and a newline, when a line was shown. */
void progress_end(struct progress *p)
{
	if (!p->on)
		return;
	progress_show(p, p->total);
	fputc('\n', stderr);
}

/* End a line shown by work that failed, before its error message. */
void progress_fail(struct progress *p)
{
	if (p->shown)
		fputc('\n', stderr);
	p->on = false;
}

/* For struct kbloom_dev_batch's progress callback. */
void progress_cb(void *arg, __u64 done, __u64 total)
{
	progress_update(arg, done);
}
