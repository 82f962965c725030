/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the kbloomctl tests of the bpf suite (kbloomctl_xdp_test.c,
 * kbloomctl_ipbf_test.c, kbloomctl_mcbf_test.c): build/kbloomctl run with
 * kbctl_run() (tests/core/kbloomctl_util.h) against the pinned instances
 * and namespaces of tests/bpf/xdp_util.h, and the checks they share:
 *
 *  - OK(): exit 0, nothing on standard error;
 *  - EXPECT_USAGE(): a usage error, exit 2, one line, nothing on stdout;
 *  - EXPECT_SYS(): a system error, exit 3, one line;
 *  - EXPECT_JSON(): -j output accepted by kbj_valid() and, when there is a
 *    python3, by python3 -m json.tool;
 *  - kbctl_check_help(), kbctl_check_usage(): the tables of help paths and
 *    usage errors every test file has.
 *
 * Include after kselftest_harness.h: the checks are its EXPECT_*().
 */
#ifndef KBT_KBLOOMCTL_XDP_UTIL_H
#define KBT_KBLOOMCTL_XDP_UTIL_H

#include <stdbool.h>
#include <sys/wait.h>

#include "tests/bpf/xdp_util.h"
#include "core/kbloomctl_util.h"

/* Success: exit 0, nothing on standard error. */
#define OK(r, ...) do {							\
	EXPECT_EQ(0, kbctl_run(r, __VA_ARGS__)) TH_LOG("stderr: %s", (r)->err); \
	EXPECT_EQ(0, (int)(r)->err_len) TH_LOG("stderr: %s", (r)->err);	\
} while (0)

/* A usage error: exit 2, nothing on stdout, one line with @sub. */
#define EXPECT_USAGE(r, sub) do {					\
	EXPECT_EQ(2, (r)->status) TH_LOG("stderr: %s", (r)->err);	\
	EXPECT_EQ(0, (int)(r)->out_len);				\
	EXPECT_EQ(1, kbctl_lines((r)->err)) TH_LOG("stderr: %s", (r)->err); \
	EXPECT_EQ(0, strncmp((r)->err, "kbloomctl: ", 11));		\
	EXPECT_NE(NULL, strstr((r)->err, sub))				\
		TH_LOG("wanted '%s' in: %s", sub, (r)->err);		\
} while (0)

/* A system error: exit 3, one line with @sub (operation, errno text). */
#define EXPECT_SYS(r, sub) do {						\
	EXPECT_EQ(3, (r)->status) TH_LOG("stderr: %s", (r)->err);	\
	EXPECT_EQ(1, kbctl_lines((r)->err)) TH_LOG("stderr: %s", (r)->err); \
	EXPECT_EQ(0, strncmp((r)->err, "kbloomctl: ", 11));		\
	EXPECT_NE(NULL, strstr((r)->err, sub))				\
		TH_LOG("wanted '%s' in: %s", sub, (r)->err);		\
} while (0)

static inline bool exists(const char *path)
{
	return !access(path, F_OK);
}

/* The pinned instance @name exists. */
static inline bool inst_exists(const char *name)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", KBT_PIN_ROOT, name);
	return exists(p);
}

/*
 * The verdict of gate @gate's program (BPF_PROG_TEST_RUN of prog_gate) on
 * a UDP frame from IPv4 source @src to 10.0.0.100, or -1.
 */
static inline int kbt_gate_verdict(const char *gate, const __u8 src[4])
{
	static const __u8 dst[4] = { 10, 0, 0, 100 };
	struct kbt_frame_opts o = { .src = src, .dst = dst };
	__u8 f[128];
	__u32 rv;
	int fd, ret;

	fd = kbt_prog(gate, "prog_gate");
	if (fd < 0)
		return -1;
	ret = kbt_run(fd, f, (__u32)kbt_frame(f, &o), 0, &rv);
	close(fd);
	return ret ? -1 : (int)rv;
}

/* python3 -m json.tool accepts @text: 1, refuses: 0, no python3: -1 */
static inline int py_json(const char *text, size_t len)
{
	char path[64], cmd[160];
	int st;

	if (system("python3 -c 'import json' >/dev/null 2>&1"))
		return -1;
	snprintf(path, sizeof(path), "/tmp/kbt%d-json", (int)getpid());
	if (kbctl_write_file(path, text, len))
		return 0;
	snprintf(cmd, sizeof(cmd), "python3 -m json.tool < %s > /dev/null 2>&1",
		 path);
	st = system(cmd);
	unlink(path);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

#define EXPECT_JSON(r) do {						\
	int _pj = py_json((r)->out, (r)->out_len);			\
	EXPECT_TRUE(kbj_valid((r)->out, (r)->out_len)) TH_LOG("%s", (r)->out); \
	if (_pj >= 0)							\
		EXPECT_EQ(1, _pj) TH_LOG("json.tool refused: %s", (r)->out); \
} while (0)

/* The number after "KEY": in JSON text (after @from when given), or -1. */
static inline long long jnum(const char *text, const char *from,
			     const char *key)
{
	char want[64];
	const char *p = text;

	if (from) {
		p = strstr(text, from);
		if (!p)
			return -1;
	}
	snprintf(want, sizeof(want), "\"%s\":", key);
	p = strstr(p, want);
	if (!p)
		return -1;
	return strtoll(p + strlen(want), NULL, 0);
}

/* Occurrences of @sub in @s. */
static inline int count(const char *s, const char *sub)
{
	int n = 0;

	while ((s = strstr(s, sub))) {
		n++;
		s += strlen(sub);
	}
	return n;
}

/*
 * Every command of @paths ({ "A" } or { "A", "B" }): A [B] --help prints
 * its usage and options, and help A [B] says the same; with @bad_args,
 * --help (as -h) also wins over bad arguments.
 */
static inline void kbctl_check_help(struct __test_metadata *_metadata,
				    const char *const (*paths)[2], size_t n,
				    bool bad_args)
{
	struct kbctl_res r, h;
	char want[64];
	size_t i;

	for (i = 0; i < n; i++) {
		const char *a = paths[i][0], *b = paths[i][1];

		if (b) {
			EXPECT_EQ(0, kbctl_run(&r, a, b, "--help"));
			snprintf(want, sizeof(want), "Usage: kbloomctl %s %s", a, b);
		} else {
			EXPECT_EQ(0, kbctl_run(&r, a, "--help"));
			snprintf(want, sizeof(want), "Usage: kbloomctl %s", a);
		}
		EXPECT_EQ(0, strncmp(r.out, want, strlen(want)))
			TH_LOG("%s", r.out);
		EXPECT_NE(NULL, strstr(r.out, "Options:"));
		EXPECT_EQ(0, (int)r.err_len);
		/* help A B says the same */
		if (b) {
			EXPECT_EQ(0, kbctl_run(&h, "help", a, b));
		} else {
			EXPECT_EQ(0, kbctl_run(&h, "help", a));
		}
		EXPECT_STREQ(r.out, h.out);
		kbctl_free(&h);
		if (bad_args && b) {
			EXPECT_EQ(0, kbctl_run(&h, a, b, "bad name!", "-h"));
			EXPECT_STREQ(r.out, h.out);
			kbctl_free(&h);
		}
		kbctl_free(&r);
	}
}

/*
 * A switch: namespace @sw and @n hosts, veth p<i> in @sw to eth0 of
 * host[i] (link i). 0, or -1 (the caller frees what was made).
 */
static inline int kbt_switch_new(struct kbt_ns *sw, struct kbt_ns *host,
				 int n)
{
	char p[16];
	int i;

	if (kbt_ns_quiet(sw))
		return -1;
	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "p%d", i);
		if (kbt_ns_quiet(&host[i]) ||
		    kbt_veth(sw, p, &host[i], "eth0", i))
			return -1;
	}
	return 0;
}

/* xdp attach pass @name on eth0 of every one of the @n hosts. */
static inline void kbctl_attach_pass(struct __test_metadata *_metadata,
				     const char *name,
				     const struct kbt_ns *host, int n)
{
	struct kbctl_res r;
	int i;

	for (i = 0; i < n; i++) {
		OK(&r, "xdp", "attach", "pass", name, "dev", "eth0",
		   "mode", "native", "netns", host[i].path);
		kbctl_free(&r);
	}
}

struct usage_case {
	const char *const *args;
	const char *sub;
};

/* Every case: a usage error naming its argument; @uname is not created. */
static inline void kbctl_check_usage(struct __test_metadata *_metadata,
				     const struct usage_case *cases, size_t n,
				     const char *uname)
{
	struct kbctl_res r;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *const *a = cases[i].args;

		kbctl_run_io(&r, NULL, NULL, a);
		if (r.status != 2 || !strstr(r.err, cases[i].sub))
			TH_LOG("case %zu: %s %s %s: %s", i, a[0],
			       a[1] ? a[1] : "", a[1] && a[2] ? a[2] : "",
			       cases[i].sub);
		EXPECT_USAGE(&r, cases[i].sub);
		kbctl_free(&r);
		EXPECT_FALSE(inst_exists(uname));
	}
}

#endif /* KBT_KBLOOMCTL_XDP_UTIL_H */
