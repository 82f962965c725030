// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl gate add|del with -f FILE and - (standard input), run as the
 * program it is (build/kbloomctl) on a veth link in a namespace:
 *
 *  - README's example as written: xdp attach gate ... capacity 100000
 *    fpr 0.1% sizes the exact set for it, and 100,001 addresses from a
 *    file go in with one gate add -f (keys N still decides the size when
 *    given: one more address than it holds is refused, nothing added);
 *  - a bad line is refused with its file and line number and nothing of
 *    the batch is added; an address in the set already, or a del of one
 *    not in it, refuses the whole batch (exit 3) unless -exist;
 *  - usage errors of gate add|del and gate adapt (exit 2, one line);
 *    gate adapt on|off shows in gate stats;
 *  - standard input: "-f -" and a lone "-"; the gate's verdicts on frames
 *    (BPF_PROG_TEST_RUN of prog_gate) follow, with the fast hash and with
 *    SipHash (the program inlines the first, calls the second);
 *  - gate save-set and load-set: a set through an image into a new gate,
 *    all or nothing (an address in the set refuses it unless -exist); a
 *    damaged, cut or foreign image is refused naming the field.
 */
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "kselftest_harness.h"
#include "tests/bpf/kbloomctl_xdp_util.h"

#define UNAME	"kbtusage0"	/* never created */
#define A(...)	KBCTL_ARGS(__VA_ARGS__)

static const struct usage_case usage_cases[] = {
	{ A("gate", "add", UNAME, "-f", "/nonexistent/x", "10.0.0.1"),
	  "not allowed with -f" },
	{ A("gate", "del", UNAME, "-", "10.0.0.1"), "ADDR '-'" },
	{ A("gate", "adapt", UNAME, "maybe"), "MODE 'maybe'" },
	{ A("gate", "load-set", UNAME), "FILE" },
	{ A("gate", "adapt", UNAME, "on", "above", "50", "below", "60"),
	  "below 60: more than above 50" },
	{ A("gate", "adapt", UNAME, "on", "above", "101"), "above" },
	{ A("gate", "adapt", UNAME, "off", "below", "5"), "only with on" },
};

TEST(usage_errors_change_nothing)
{
	kbctl_check_usage(_metadata, usage_cases, ARRAY_SIZE(usage_cases),
			  UNAME);
}

FIXTURE(link) {
	struct kbt_ns sw, host;
	char gate[64];
	char file[64];
	char in[64];		/* standard input of a run */
};

static void lk_cleanup(FIXTURE_DATA(link) *self)
{
	if (self->gate[0])
		kbt_unpin(self->gate);
	kbt_ns_free(&self->host);
	kbt_ns_free(&self->sw);
	if (self->file[0])
		unlink(self->file);
	if (self->in[0])
		unlink(self->in);
}

FIXTURE_SETUP(link)
{
	int ret;

	kbt_janitor();
	kbt_name(self->gate, sizeof(self->gate), "gbatch");
	snprintf(self->file, sizeof(self->file), "/tmp/kbt%d-addrs",
		 (int)getpid());
	snprintf(self->in, sizeof(self->in), "/tmp/kbt%d-stdin",
		 (int)getpid());
	ret = kbt_switch_new(&self->sw, &self->host, 1);
	if (ret)
		lk_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(link)
{
	lk_cleanup(self);
}

/* @n addresses 10.x.y.z from @first, one per line, into @path. */
static int write_addrs(const char *path, __u32 first, __u32 n,
		       const char *extra_line2)
{
	FILE *f = fopen(path, "w");
	__u32 i, a;

	if (!f)
		return -1;
	for (i = 0; i < n; i++) {
		a = first + i;
		fprintf(f, "10.%u.%u.%u\n", (a >> 16) & 255, (a >> 8) & 255,
			a & 255);
		if (i == 0 && extra_line2)
			fprintf(f, "%s\n", extra_line2);
	}
	return fclose(f);
}

/* @text into the file @path, for a run's standard input; @path. */
static const char *in_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

/* The gate program's verdict on a frame from @src (dotted quad). */
static int verdict(const char *gate, const char *src)
{
	__u8 s[4];

	if (inet_pton(AF_INET, src, s) != 1)
		return -1;
	return kbt_gate_verdict(gate, s);
}

/* The addresses in the set (gate stats -j "keys"). */
static long long set_size(const char *gate)
{
	struct kbctl_res r;
	long long n;

	if (kbctl_run(&r, "gate", "stats", gate, "-j"))
		n = -1;
	else
		n = jnum(r.out, NULL, "keys");
	kbctl_free(&r);
	return n;
}

/* max_entries of the gate's exact map. */
static __u32 exact_size(const char *gate)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	int fd = kbt_prog(gate, "gate_exact");

	if (fd < 0)
		return 0;
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		info.max_entries = 0;
	close(fd);
	return info.max_entries;
}

TEST_F_TIMEOUT(link, readme_example_and_files, 120)
{
	const char *ns = self->sw.path;
	struct kbctl_res r;
	char where[96];

	OK(&r, "xdp", "attach", "gate", self->gate, "dev", "p0", "netns", ns,
	   "policy", "deny", "capacity", "100000", "fpr", "0.1%");
	kbctl_free(&r);
	EXPECT_EQ(131072, exact_size(self->gate));

	/* a bad line: refused with its number, nothing added */
	ASSERT_EQ(0, write_addrs(self->file, 1, 3, "10.0.0.300"));
	kbctl_run(&r, "gate", "add", self->gate, "-f", self->file);
	snprintf(where, sizeof(where), "%s:2: key '10.0.0.300'", self->file);
	EXPECT_USAGE(&r, where);
	kbctl_free(&r);
	EXPECT_EQ(0, set_size(self->gate));
	EXPECT_EQ(XDP_PASS, verdict(self->gate, "10.0.0.1"));

	/* 100,001 addresses in one batch */
	ASSERT_EQ(0, write_addrs(self->file, 1, 100001, NULL));
	OK(&r, "gate", "add", self->gate, "-f", self->file);
	kbctl_free(&r);
	EXPECT_EQ(100001, set_size(self->gate));
	EXPECT_EQ(XDP_DROP, verdict(self->gate, "10.0.0.1"));
	EXPECT_EQ(XDP_DROP, verdict(self->gate, "10.1.134.161"));  /* 100001 */
	EXPECT_EQ(XDP_PASS, verdict(self->gate, "10.1.134.162"));

	/* one address in the set already: nothing of the batch is added */
	in_file(self->in, "10.200.0.1\n10.0.0.5\n");
	EXPECT_EQ(3, kbctl_run_in(&r, self->in, "gate", "add", self->gate,
				  "-"));
	EXPECT_SYS(&r, "<stdin>, address 2 (10.0.0.5)");
	kbctl_free(&r);
	EXPECT_EQ(XDP_PASS, verdict(self->gate, "10.200.0.1"));
	/* an address twice in the batch: said so, not "in the set already" */
	in_file(self->in, "10.201.0.1\n10.201.0.2\n10.201.0.1\n");
	EXPECT_EQ(3, kbctl_run_in(&r, self->in, "gate", "add", self->gate,
				  "-"));
	EXPECT_SYS(&r, "(given twice in the batch; -exist ignores it)");
	kbctl_free(&r);
	EXPECT_EQ(XDP_PASS, verdict(self->gate, "10.201.0.2"));
	EXPECT_EQ(3, kbctl_run(&r, "gate", "add", self->gate, "10.201.0.3",
			       "10.201.0.3"));
	EXPECT_SYS(&r, "10.201.0.3: File exists (given twice in the batch");
	kbctl_free(&r);
	EXPECT_EQ(XDP_PASS, verdict(self->gate, "10.201.0.3"));
	EXPECT_EQ(3, kbctl_run(&r, "gate", "del", self->gate, "10.0.0.1",
			       "10.0.0.1"));
	EXPECT_SYS(&r, "10.0.0.1: No such file or directory (given twice in the batch");
	kbctl_free(&r);
	EXPECT_EQ(XDP_DROP, verdict(self->gate, "10.0.0.1"));
	in_file(self->in, "");
	EXPECT_EQ(0, kbctl_run_in(&r, self->in, "-exist", "gate", "add",
				  self->gate, "-f", "-"));
	kbctl_free(&r);
	EXPECT_EQ(100001, set_size(self->gate));	/* stdin was empty */
	in_file(self->in, "10.200.0.1\r\n\n 10.0.0.5 \n");
	EXPECT_EQ(0, kbctl_run_in(&r, self->in, "-exist", "gate", "add",
				  self->gate, "-f", "-"));
	kbctl_free(&r);
	EXPECT_EQ(100002, set_size(self->gate));
	EXPECT_EQ(XDP_DROP, verdict(self->gate, "10.200.0.1"));

	/* del: all or nothing too */
	in_file(self->in, "10.200.0.1\n10.222.0.1\n");
	EXPECT_EQ(3, kbctl_run_in(&r, self->in, "gate", "del", self->gate,
				  "-"));
	EXPECT_SYS(&r, "address 2 (10.222.0.1)");
	kbctl_free(&r);
	EXPECT_EQ(XDP_DROP, verdict(self->gate, "10.200.0.1"));
	in_file(self->in, "10.200.0.1\n10.222.0.1\n");
	EXPECT_EQ(0, kbctl_run_in(&r, self->in, "-exist", "gate", "del",
				  self->gate, "-"));
	kbctl_free(&r);
	EXPECT_EQ(XDP_PASS, verdict(self->gate, "10.200.0.1"));
	OK(&r, "gate", "del", self->gate, "-f", self->file);
	kbctl_free(&r);
	EXPECT_EQ(0, set_size(self->gate));
	EXPECT_EQ(XDP_PASS, verdict(self->gate, "10.0.0.1"));
}

/* keys N decides the size; a SipHash gate's verdicts */
TEST_F(link, keys_decides_the_size)
{
	const char *ns = self->sw.path;
	struct kbctl_res r;

	OK(&r, "xdp", "attach", "gate", self->gate, "dev", "p0", "netns", ns,
	   "policy", "deny", "capacity", "100000", "keys", "1000", "hash",
	   "siphash");
	kbctl_free(&r);
	EXPECT_EQ(1000, exact_size(self->gate));
	ASSERT_EQ(0, write_addrs(self->file, 1, 1001, NULL));
	kbctl_run(&r, "gate", "add", self->gate, "-f", self->file);
	EXPECT_SYS(&r, "gate_exact is full");
	kbctl_free(&r);
	EXPECT_EQ(0, set_size(self->gate));
	ASSERT_EQ(0, write_addrs(self->file, 1, 1000, NULL));
	OK(&r, "gate", "add", self->gate, "-f", self->file);
	kbctl_free(&r);
	EXPECT_EQ(1000, set_size(self->gate));
	EXPECT_EQ(XDP_DROP, verdict(self->gate, "10.0.3.232"));	/* 1000 */
	EXPECT_EQ(XDP_PASS, verdict(self->gate, "10.0.3.233"));
	/* full: the map refuses the second address, the first is undone */
	kbctl_run(&r, "gate", "add", self->gate, "10.0.0.5", "10.250.0.1",
		  "-exist");
	EXPECT_SYS(&r, "10.250.0.1: No space left on device (gate_exact is full");
	kbctl_free(&r);
	in_file(self->in, "10.250.0.2\n10.250.0.3\n");
	EXPECT_EQ(3, kbctl_run_in(&r, self->in, "gate", "add", self->gate,
				  "-"));
	EXPECT_SYS(&r, "<stdin>, address 1 (10.250.0.2)");
	kbctl_free(&r);
	EXPECT_EQ(1000, set_size(self->gate));

	/* gate adapt: in gate stats */
	OK(&r, "gate", "adapt", self->gate, "on", "above", "90");
	kbctl_free(&r);
	OK(&r, "gate", "stats", self->gate, "-j");
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"adaptive\":true")) TH_LOG("%s", r.out);
	EXPECT_EQ(90, jnum(r.out, NULL, "adapt_on"));
	EXPECT_EQ(50, jnum(r.out, NULL, "adapt_off"));
	EXPECT_EQ(0, jnum(r.out, NULL, "direct_lookups"));
	kbctl_free(&r);
	OK(&r, "gate", "adapt", self->gate, "off");
	kbctl_free(&r);
	OK(&r, "gate", "stats", self->gate);
	EXPECT_NE(NULL, strstr(r.out, "adaptive:          off\n"))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
}

/* Byte @off of @path xored with @x (a damaged image), or cut at @off. */
static int damage(const char *path, long off, int x)
{
	FILE *f = fopen(path, "r+");
	int c, ret = -1;

	if (!f)
		return -1;
	if (!x)
		ret = ftruncate(fileno(f), off);
	else if (!fseek(f, off, SEEK_SET) && (c = fgetc(f)) != EOF &&
		 !fseek(f, off, SEEK_SET) && fputc(c ^ x, f) != EOF)
		ret = 0;
	return fclose(f) || ret ? -1 : 0;
}

/* gate save-set, then load-set into a new gate: all or nothing, verified */
TEST_F_TIMEOUT(link, save_set_and_load_set, 120)
{
	const char *ns = self->sw.path;
	struct kbctl_res r;
	char img[96];

	snprintf(img, sizeof(img), "%s.img", self->file);
	OK(&r, "xdp", "attach", "gate", self->gate, "dev", "p0", "netns", ns,
	   "policy", "deny", "capacity", "20000");
	kbctl_free(&r);
	ASSERT_EQ(0, write_addrs(self->file, 1, 10000, NULL));
	OK(&r, "gate", "add", self->gate, "-f", self->file);
	kbctl_free(&r);
	OK(&r, "gate", "add", self->gate, "2001:db8::7");
	kbctl_free(&r);
	OK(&r, "gate", "save-set", self->gate, img);
	kbctl_free(&r);
	OK(&r, "xdp", "detach", self->gate);
	kbctl_free(&r);
	OK(&r, "xdp", "attach", "gate", self->gate, "dev", "p0", "netns", ns,
	   "policy", "deny", "capacity", "20000");
	kbctl_free(&r);

	/* one address in the set already: nothing of the image is added */
	OK(&r, "gate", "add", self->gate, "10.0.0.9");
	kbctl_free(&r);
	kbctl_run(&r, "gate", "load-set", self->gate, img);
	EXPECT_SYS(&r, "address");
	EXPECT_NE(NULL, strstr(r.err, "(10.0.0.9)"));
	kbctl_free(&r);
	EXPECT_EQ(1, set_size(self->gate));
	EXPECT_EQ(XDP_PASS, verdict(self->gate, "10.0.0.1"));
	OK(&r, "gate", "load-set", self->gate, img, "-exist");
	kbctl_free(&r);
	EXPECT_EQ(10001, set_size(self->gate));
	EXPECT_EQ(XDP_DROP, verdict(self->gate, "10.0.0.1"));
	EXPECT_EQ(XDP_DROP, verdict(self->gate, "10.0.39.16"));	/* 10000 */
	EXPECT_EQ(XDP_PASS, verdict(self->gate, "10.0.39.17"));

	/* a damaged or cut image is refused naming the field */
	OK(&r, "gate", "del", self->gate, "-f", self->file);
	kbctl_free(&r);
	ASSERT_EQ(0, damage(img, 32 + 20 * 77 + 6, 0x10));
	kbctl_run(&r, "gate", "load-set", self->gate, img);
	EXPECT_SYS(&r, "crc: does not match");
	kbctl_free(&r);
	ASSERT_EQ(0, damage(img, 32 + 20 * 77, 0));
	kbctl_run(&r, "gate", "load-set", self->gate, img);
	EXPECT_SYS(&r, "count: not the file's length");
	kbctl_free(&r);
	kbctl_run(&r, "gate", "load-set", self->gate, self->file);
	EXPECT_SYS(&r, "magic: not a gate set image");
	kbctl_free(&r);
	/* a folder, a device: said so (was "File too large") */
	kbctl_run(&r, "gate", "load-set", self->gate, "/tmp");
	EXPECT_SYS(&r, "read /tmp: Is a directory");
	kbctl_free(&r);
	kbctl_run(&r, "gate", "load-set", self->gate, "/dev/null");
	EXPECT_SYS(&r, "read /dev/null: Illegal seek (not a regular file)");
	kbctl_free(&r);
	EXPECT_EQ(1, set_size(self->gate));		/* 2001:db8::7 */
	unlink(img);
}

TEST_HARNESS_MAIN
