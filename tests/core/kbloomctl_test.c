// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl on the host, without the module: options and dispatch, every
 * command's --help, usage errors (exit 2, one line naming the argument and
 * what is allowed, nothing done: the device is never opened), key parsing
 * with line numbers, image checks of restore, plan output and -j JSON
 * (checked with python3 -m json.tool and with the C validator that the
 * guest's tests use).
 *
 * KBLOOMCTL_DEVICE points at a path that does not exist, so a command
 * that gets past its argument checks fails with exit 3 and "open": the
 * usage-error tests check that it never gets there.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "uapi/kbloom_image.h"
#include "core/kbloomctl_util.h"

#define NODEV	"/nonexistent/kbloom"

/* the writer under test, compiled in (it has no other dependency) */
#include "../../userspace/kbloomctl/json.c"

__attribute__((constructor)) static void core_env(void)
{
	setenv("KBLOOMCTL_DEVICE", NODEV, 1);
}

static const char *const commands[] = {
	"create", "destroy", "add", "del", "test", "list", "stat", "flush",
	"save", "restore", "plan", "help", NULL
};

/* A temporary file name that the test owns. */
static char *tmp_path(const char *tag)
{
	char *p = NULL;

	if (asprintf(&p, "/tmp/kbloomctl-core-%d-%s", getpid(), tag) < 0)
		return NULL;
	return p;
}

/* A usage error: exit 2, nothing on stdout, one line on stderr with @sub. */
#define EXPECT_USAGE(r, sub) do {					\
	EXPECT_EQ(2, (r)->status);					\
	EXPECT_EQ(0, (int)(r)->out_len);				\
	EXPECT_EQ(1, kbctl_lines((r)->err)) TH_LOG("stderr: %s", (r)->err); \
	EXPECT_EQ(0, strncmp((r)->err, "kbloomctl: ", 11));		\
	EXPECT_NE(NULL, strstr((r)->err, sub))				\
		TH_LOG("wanted '%s' in: %s", sub, (r)->err);		\
	EXPECT_EQ(NULL, strstr((r)->err, NODEV));			\
} while (0)

/* Got past every argument check: the (missing) device was opened. */
#define EXPECT_REACHED_DEVICE(r) do {					\
	EXPECT_EQ(3, (r)->status) TH_LOG("stderr: %s", (r)->err);	\
	EXPECT_NE(NULL, strstr((r)->err, "open " NODEV ": No such file or directory")) \
		TH_LOG("stderr: %s", (r)->err);				\
} while (0)

TEST(binary_exists)
{
	ASSERT_EQ(0, access(kbctl_path(), X_OK))
		TH_LOG("%s missing: make ctl", kbctl_path());
}

TEST(version)
{
	struct kbctl_res r;

	EXPECT_EQ(0, kbctl_run(&r, "--version"));
	EXPECT_EQ(0, strncmp(r.out, "kbloomctl ", 10));
	EXPECT_NE(NULL, strstr(r.out, "ABI 1."));
	EXPECT_EQ(0, (int)r.err_len);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "-V"));
	kbctl_free(&r);
}

TEST(help_global)
{
	struct kbctl_res r, h;
	int i;

	EXPECT_EQ(0, kbctl_run(&r, "--help"));
	EXPECT_EQ(0, strncmp(r.out, "Usage: kbloomctl", 16));
	for (i = 0; commands[i]; i++) {
		char want[32];

		snprintf(want, sizeof(want), "\n  %s ", commands[i]);
		EXPECT_NE(NULL, strstr(r.out, want)) TH_LOG("%s", commands[i]);
	}
	EXPECT_NE(NULL, strstr(r.out, "Exit status"));
	EXPECT_EQ(0, kbctl_run(&h, "help"));
	EXPECT_STREQ(r.out, h.out);
	kbctl_free(&h);
	EXPECT_EQ(0, kbctl_run(&h, "-h"));
	EXPECT_STREQ(r.out, h.out);
	kbctl_free(&h);
	kbctl_free(&r);
}

TEST(help_every_command)
{
	struct kbctl_res r, h;
	char want[64];
	int i;

	for (i = 0; commands[i]; i++) {
		EXPECT_EQ(0, kbctl_run(&r, commands[i], "--help"))
			TH_LOG("%s --help: %s", commands[i], r.err);
		snprintf(want, sizeof(want), "Usage: kbloomctl %s",
			 commands[i]);
		EXPECT_EQ(0, strncmp(r.out, want, strlen(want)))
			TH_LOG("%s", r.out);
		EXPECT_NE(NULL, strstr(r.out, "Options:"));
		EXPECT_EQ(0, (int)r.err_len);
		/* help CMD says the same; --help wins over bad arguments */
		EXPECT_EQ(0, kbctl_run(&h, "help", commands[i]));
		EXPECT_STREQ(r.out, h.out);
		kbctl_free(&h);
		EXPECT_EQ(0, kbctl_run(&h, commands[i], "bad name!", "-h"));
		EXPECT_STREQ(r.out, h.out);
		kbctl_free(&h);
		kbctl_free(&r);
	}
	/* only the options a command accepts are shown */
	kbctl_run(&r, "list", "--help");
	EXPECT_NE(NULL, strstr(r.out, "-j"));
	EXPECT_EQ(NULL, strstr(r.out, "--replace"));
	kbctl_free(&r);
	kbctl_run(&r, "help", "nosuch");
	EXPECT_USAGE(&r, "COMMAND 'nosuch': unknown");
	kbctl_free(&r);
}

TEST(dispatch_errors)
{
	struct kbctl_res r;

	kbctl_run(&r, "-q");
	EXPECT_USAGE(&r, "missing COMMAND");
	kbctl_free(&r);
	kbctl_run(&r, "frobnicate");
	EXPECT_USAGE(&r, "command 'frobnicate': unknown (allowed: create destroy add");
	kbctl_free(&r);
	kbctl_run(&r, "list", "-x");
	EXPECT_USAGE(&r, "option '-x': unknown (allowed: -exist -q -j --key -f");
	kbctl_free(&r);
	kbctl_run(&r, "list", "-f", "x");
	EXPECT_USAGE(&r, "option -f: not accepted by list (accepted: -j -n)");
	kbctl_free(&r);
	kbctl_run(&r, "del", "foo", "x", "-j");
	EXPECT_USAGE(&r, "option -j: not accepted by del (accepted: -exist --key -f)");
	kbctl_free(&r);
	kbctl_run(&r, "-exist", "plan", "capacity", "1", "fpr", "0.1");
	EXPECT_USAGE(&r, "option -exist: not accepted by plan");
	kbctl_free(&r);
	kbctl_run(&r, "save", "-o");
	EXPECT_USAGE(&r, "option -o: missing FILE");
	kbctl_free(&r);
	kbctl_run(&r, "add", "foo", "-f", "a", "-f", "b");
	EXPECT_USAGE(&r, "option -f: given twice ('a' and 'b'; allowed once)");
	kbctl_free(&r);
	kbctl_run(&r, "list", "--json=yes");
	EXPECT_USAGE(&r, "option -j: takes no value");
	kbctl_free(&r);
	kbctl_run(&r, "stat", "a", "b");
	EXPECT_USAGE(&r, "argument 'b': unexpected, at most 1 allowed (usage: kbloomctl stat [NAME])");
	kbctl_free(&r);
	kbctl_run(&r, "add");
	EXPECT_USAGE(&r, "missing NAME (usage: kbloomctl add NAME");
	kbctl_free(&r);
	kbctl_run(&r, "create", "foo");
	EXPECT_USAGE(&r, "missing counting|blocked|standard");
	kbctl_free(&r);
}

struct usage_case {
	const char *args[16];
	const char *msg;
};

static const struct usage_case create_cases[] = {
	{ { "create", "a b", "blocked", "capacity", "1", "fpr", "1%" },
	  "NAME 'a b': invalid character (allowed: 1..31 characters of A-Z a-z 0-9 _ . -)" },
	{ { "create", "abcdefghijabcdefghijabcdefghij12", "blocked" },
	  "32 characters, too long (allowed: 1..31" },
	{ { "create", "f", "bloom", "capacity", "1", "fpr", "1%" },
	  "TYPE 'bloom': unknown (allowed: counting|blocked|standard)" },
	{ { "create", "f", "blocked" },
	  "missing size (allowed: capacity N fpr P, or bits M hashes K)" },
	{ { "create", "f", "blocked", "capacity", "100" },
	  "capacity: needs fpr P too (allowed: capacity N fpr P)" },
	{ { "create", "f", "blocked", "fpr", "0.1" },
	  "fpr: needs capacity N too" },
	{ { "create", "f", "blocked", "bits", "4096" },
	  "bits: needs hashes K too (allowed: bits M hashes K)" },
	{ { "create", "f", "blocked", "capacity", "1", "fpr", "1%", "bits", "512" },
	  "bits: not with capacity (allowed: capacity N fpr P, or bits M hashes K)" },
	{ { "create", "f", "blocked", "capacity", "0", "fpr", "1%" },
	  "capacity '0': out of range (allowed: an integer 1..4294967296" },
	{ { "create", "f", "blocked", "capacity", "1k", "fpr", "1%" },
	  "capacity '1k': not a number (allowed: an integer 1..4294967296" },
	{ { "create", "f", "blocked", "capacity", "10", "fpr", "0.6" },
	  "fpr '0.6': out of range (allowed: 1e-09..0.5, written as 0.01, 1% or 1e-4)" },
	{ { "create", "f", "blocked", "capacity", "10", "fpr", "1e-10" },
	  "fpr '1e-10': out of range" },
	{ { "create", "f", "blocked", "capacity", "10", "fpr", "0" },
	  "fpr '0': out of range" },
	{ { "create", "f", "blocked", "capacity", "10", "fpr", "50.1%" },
	  "fpr '50.1%': out of range" },
	{ { "create", "f", "blocked", "capacity", "10", "fpr", "often" },
	  "fpr 'often': not a probability (allowed: 1e-09..0.5" },
	{ { "create", "f", "blocked", "capacity", "10", "fpr", "1%%" },
	  "fpr '1%%': not a probability" },
	{ { "create", "f", "blocked", "capacity", "10", "fpr", "nan" },
	  "fpr 'nan': not a probability" },
	{ { "create", "f", "blocked", "capacity", "4294967296", "fpr", "1e-9" },
	  "capacity 4294967296 fpr 1e-09: too big (allowed: a filter of at most 4294967296 bits" },
	{ { "create", "f", "standard", "bits", "100", "hashes", "3" },
	  "bits '100': not a multiple of 64 (allowed: a multiple of 64 for standard filters, 64..4294967296)" },
	{ { "create", "f", "blocked", "bits", "1024064", "hashes", "3" },
	  "bits '1024064': not a multiple of 512" },
	{ { "create", "f", "blocked", "bits", "32", "hashes", "3" },
	  "bits '32': out of range (allowed: an integer 64..4294967296" },
	{ { "create", "f", "blocked", "bits", "8589934592", "hashes", "3" },
	  "bits '8589934592': out of range" },
	{ { "create", "f", "blocked", "bits", "4096", "hashes", "0" },
	  "hashes '0': out of range (allowed: an integer 1..32)" },
	{ { "create", "f", "blocked", "bits", "4096", "hashes", "33" },
	  "hashes '33': out of range (allowed: an integer 1..32)" },
	{ { "create", "f", "counting", "bits", "4096", "hashes", "3", "counter-bits", "16" },
	  "counter-bits '16': not a counter width (allowed: 4 or 8)" },
	{ { "create", "f", "blocked", "bits", "4096", "hashes", "3", "counter-bits", "8" },
	  "counter-bits: only for counting filters (this one is blocked)" },
	{ { "create", "f", "blocked", "bits", "4096", "hashes", "3", "hash", "md5" },
	  "hash 'md5': unknown (allowed: siphash|fast" },
	{ { "create", "f", "blocked", "bits", "4096", "hashes", "3", "seed", "-1" },
	  "seed '-1': not a number (allowed: an integer 0..18446744073709551615, decimal or 0x hex)" },
	{ { "create", "f", "blocked", "bits", "4096", "hashes", "3", "seed", "18446744073709551616" },
	  "seed '18446744073709551616': out of range" },
	{ { "create", "f", "blocked", "bits", "4096", "hashes", "3", "seed" },
	  "seed: missing value" },
	{ { "create", "f", "blocked", "bits", "4096", "hashes", "3", "hashes", "4" },
	  "hashes: given twice (allowed once)" },
	{ { "create", "f", "blocked", "bits", "4096", "hashes", "3", "colour", "red" },
	  "'colour': unknown keyword (allowed: capacity|fpr|bits|hashes|counter-bits|hash|seed)" },
};

static const struct usage_case other_cases[] = {
	{ { "add", "foo" },
	  "missing KEY (give KEY arguments, -f FILE, or - for standard input)" },
	{ { "add", "foo", "a", "-f", "/dev/null" },
	  "KEY 'a': not allowed with -f /dev/null" },
	{ { "add", "foo", "--key", "base64", "a" },
	  "--key 'base64': unknown encoding (allowed: str|hex|ipv4|ipv6|u64|addr)" },
	{ { "add", "foo", "--key", "ipv4", "10.0.0.256" },
	  "KEY 1 '10.0.0.256': not an IPv4 address (allowed: a dotted quad" },
	{ { "test", "foo", "--key=ipv6", "::1", "1::2::3" },
	  "KEY 2 '1::2::3': not an IPv6 address" },
	{ { "del", "foo", "--key", "hex", "abc" },
	  "KEY 1 'abc': odd number of hex digits (allowed: 1..64 bytes" },
	{ { "add", "foo", "--key", "hex", "0xzz" },
	  "KEY 1 '0xzz': not a hex digit at offset 2" },
	{ { "add", "foo", "--key", "hex",
	    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff00" },
	  "more than 64 bytes (allowed: 1..64 bytes as hex digits)" },
	{ { "add", "foo", "--key", "u64", "18446744073709551616" },
	  "KEY 1 '18446744073709551616': not an unsigned integer (allowed: 0..18446744073709551615" },
	{ { "add", "foo", "--key", "u64", "-3" },
	  "KEY 1 '-3': not an unsigned integer" },
	{ { "add", "foo", "" }, "KEY 1 '': 0 bytes (allowed: 1..64 bytes)" },
	{ { "add", "foo", "0123456789012345678901234567890123456789012345678901234567890123456789" },
	  "70 bytes (allowed: 1..64 bytes)" },
	{ { "add", "no/slash", "x" }, "NAME 'no/slash': invalid character" },
	{ { "test", "", "x" }, "NAME '': empty (allowed: 1..31" },
	{ { "destroy", "a:b" }, "NAME 'a:b': invalid character" },
	{ { "flush", "a b" }, "NAME 'a b': invalid character" },
	{ { "stat", "a*" }, "NAME 'a*': invalid character" },
	{ { "list", "a*" }, "NAME 'a*': invalid character" },
	{ { "save", "a*", "-o", "/dev/null" }, "NAME 'a*': invalid character" },
	{ { "restore", "a*", "-i", "/dev/null" }, "NAME 'a*': invalid character" },
	{ { "plan", "capacity", "10" }, "missing fpr P (allowed: capacity N fpr P)" },
	{ { "plan" }, "missing capacity N" },
	{ { "plan", "capacity", "10", "p", "0.1" },
	  "'p': unknown keyword (allowed: capacity N fpr P [layout spread|lines])" },
	{ { "plan", "capacity", "-5", "fpr", "0.1" },
	  "capacity '-5': not a number (allowed: an integer 1..4294967296" },
	{ { "plan", "capacity", "10", "fpr", "5" }, "fpr '5': out of range" },
	{ { "plan", "capacity", "4294967296", "fpr", "1e-9" },
	  "too big for any filter" },
	/* an empty output file name: a usage error, not open's EINVAL */
	{ { "sbbf", "create", "", "keys", "10" },
	  "output file '': empty (allowed: a file name, or - for standard output)" },
	{ { "iblt", "build", "", "-f", "/dev/null", "cells", "10" },
	  "output file '': empty" },
	/* the refused plan names both of its values */
	{ { "xdp", "attach", "conntrack", "kbt-none", "dev", "lo", "capacity",
	    "4294967296", "fpr", "1e-9" },
	  "capacity 4294967296 fpr 1e-09: cannot be planned" },
};

/*
 * The rules of the one keyword parser (kw.c) as each command's table sets
 * them: refused twice or repeated, a keyword as a value or not, the
 * dashed forms, and the word an unknown keyword is shown as.
 */
static const struct usage_case keyword_cases[] = {
	{ { "plan", "capacity", "10", "capacity", "5" },
	  "capacity: given twice (allowed once)" },
	{ { "plan", "fpr", "0.1", "capacity" },
	  "capacity: missing value (allowed: capacity N fpr P [layout spread|lines])" },
	{ { "plan", "capacity", "10", "fpr", "0.1", "layout", "lines", "layout",
	    "spread" },
	  "layout: given twice (allowed once)" },
	/* more words than the command takes: a keyword twice is named */
	{ { "sbbf", "create", "x.img", "keys", "1", "fpr", "1%", "fpr", "2%" },
	  "fpr: given twice (allowed once)" },
	{ { "persistent", "append", "x.arch", "x.img", "epoch", "3", "epoch",
	    "4" },
	  "epoch: given twice (allowed once)" },
	{ { "persistent", "plan", "keys", "1", "range", "1", "fpr", "1%", "type",
	    "blocked", "type", "standard" },
	  "type: given twice (allowed once)" },
	{ { "plan", "capacity", "10", "fpr", "0.1", "layout" },
	  "layout: missing value (allowed: capacity N fpr P [layout spread|lines])" },
	/* create, plan, experiment: a keyword is a value of one */
	{ { "create", "f", "blocked", "bits", "4096", "seed", "hashes" },
	  "seed 'hashes': not a number" },
	{ { "plan", "capacity", "fpr", "fpr", "0.1" },
	  "capacity 'fpr': not a number" },
	{ { "experiment", "out", "mode", "groups", "0" },
	  "groups '0': out of range (allowed: an integer 1..1000000)" },
	/* experiment: a keyword again replaces it, values in order */
	{ { "experiment", "groups", "5", "groups", "0" },
	  "groups '0': out of range" },
	{ { "experiment", "groups", "0", "threads", "0" },
	  "groups '0': out of range" },
	{ { "experiment", "--threads", "0", "groups", "0" },
	  "threads '0': out of range (allowed: an integer 1..64)" },
	{ { "experiment", "--mcbf-type=cuckoo" },
	  "mcbf-type 'cuckoo': allowed: blocked, standard" },
	{ { "experiment", "--plots" },
	  "--plots: missing value (see kbloomctl experiment --help)" },
	{ { "experiment", "--plots=" }, "plots '': allowed: yes, no" },
	{ { "experiment", "--colour=red" },
	  "'--colour': unknown keyword (see kbloomctl experiment --help)" },
	{ { "experiment", "--abcdefghijabcdefghijabcdefghijabcdefghij=1" },
	  "'--abcdefghijabcdefghijabcdefghijab': unknown keyword" },
	/* a dashed keyword of a table that is not dashed is an option */
	{ { "plan", "--capacity", "10", "fpr", "0.1" },
	  "option '--capacity': unknown" },
};

static void check_cases(struct __test_metadata *_metadata,
			const struct usage_case *cases, int n)
{
	struct kbctl_res r;
	int i;

	for (i = 0; i < n; i++) {
		kbctl_run_io(&r, NULL, NULL, cases[i].args);
		TH_LOG("case %d: %s %s", i, cases[i].args[0],
		       cases[i].args[1] ? cases[i].args[1] : "");
		EXPECT_USAGE(&r, cases[i].msg);
		kbctl_free(&r);
	}
}

TEST(usage_create)
{
	check_cases(_metadata, create_cases,
		    sizeof(create_cases) / sizeof(create_cases[0]));
}

TEST(usage_other)
{
	check_cases(_metadata, other_cases,
		    sizeof(other_cases) / sizeof(other_cases[0]));
}

TEST(usage_keywords)
{
	check_cases(_metadata, keyword_cases,
		    sizeof(keyword_cases) / sizeof(keyword_cases[0]));
}

/* A table with help prints it: experiment --help lists every keyword. */
TEST(help_keyword_table)
{
	static const char *const kws[] = {
		"mode", "topo", "groups", "sizes", "bits", "ref-bits", "hashes",
		"classes", "presence", "mcbf-type", "mcbf-plan", "lipsin-k",
		"fill-limit", "hop-slack", "msbf-start", "schemes", "seed",
		"threads", "max-tx", "out", "plots", "packets", "verbose", NULL
	};
	struct kbctl_res r;
	char line[48];
	int i;

	EXPECT_EQ(0, kbctl_run(&r, "experiment", "--help"));
	EXPECT_NE(NULL, strstr(r.out, "\nKeywords (each KEYWORD VALUE, --KEYWORD VALUE or --KEYWORD=VALUE):\n"));
	for (i = 0; kws[i]; i++) {
		snprintf(line, sizeof(line), "\n  %s ", kws[i]);
		EXPECT_NE(NULL, strstr(r.out, line)) TH_LOG("no %s", line);
	}
	EXPECT_NE(NULL, strstr(r.out, "\nTopology file:"));
	kbctl_free(&r);
}

/*
 * A help's stated range is the one the parser takes: zipf's S from 0.01
 * (0.005 is refused), mcbf optimize's kmin and kmax up to 32.
 */
TEST(help_ranges_match_parser)
{
	struct kbctl_res r;

	EXPECT_EQ(0, kbctl_run(&r, "experiment", "--help"));
	EXPECT_NE(NULL, strstr(r.out, "size^-S, 0.01 <= S <= 10\n"));
	kbctl_free(&r);
	EXPECT_EQ(2, kbctl_run(&r, "experiment", "sizes", "zipf:0.005"));
	EXPECT_NE(NULL, strstr(r.err, "(allowed: 0.01..10)")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "mcbf", "optimize", "--help"));
	EXPECT_NE(NULL, strstr(r.out, "kmin and kmax bound k\n(1..32; 1 and 16 unless given)"));
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "mcbf", "optimize", "bits", "4096", "class",
			       "1:0.5", "kmin", "17", "kmax", "32"));
	EXPECT_NE(NULL, strstr(r.out, "k 32")) TH_LOG("%s", r.out);
	kbctl_free(&r);
}

/* Valid arguments get as far as the device (and no further, here). */
TEST(valid_arguments_reach_device)
{
	static const char *const ok[][16] = {
		{ "create", "f", "blocked", "capacity", "1000", "fpr", "1%" },
		{ "create", "f.1_x-Y", "counting", "capacity", "1000", "fpr", "1e-4",
		  "counter-bits", "8", "hash", "siphash", "seed", "0x2a" },
		{ "create", "f", "standard", "bits", "4096", "hashes", "7" },
		{ "create", "f", "blocked", "bits", "4096", "hashes", "32",
		  "-exist" },
		{ "create", "f", "counting", "fpr", "0.5", "capacity", "4294967" },
		{ "destroy" }, { "destroy", "f", "-exist" }, { "flush" },
		{ "list" }, { "list", "-j" }, { "stat" }, { "stat", "f", "-j" },
		{ "add", "f", "x", "y" }, { "test", "-q", "f", "x" },
		{ "del", "f", "x", "-exist" },
		{ "add", "f", "--key", "ipv4", "10.0.0.1", "192.0.2.255" },
		{ "add", "f", "--key", "ipv6", "2001:db8::1", "::ffff:1.2.3.4" },
		{ "add", "f", "--key", "u64", "0", "18446744073709551615", "0x10" },
		{ "add", "f", "--key", "hex", "00", "0xAbCd", "aa:bb:cc", "de-ad" },
		{ "add", "f", "--", "-dash", "--key" },
		{ "save", "f", "-o", "/tmp/never-written" },
		{ "-j", "test", "f", "k" },
	};
	struct kbctl_res r;
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		kbctl_run_io(&r, NULL, NULL, ok[i]);
		TH_LOG("case %zu: %s", i, ok[i][0]);
		EXPECT_REACHED_DEVICE(&r);
		EXPECT_EQ(1, kbctl_lines(r.err));
		kbctl_free(&r);
	}
	EXPECT_NE(0, access("/tmp/never-written", F_OK));
}

TEST(keys_file_line_numbers)
{
	char *path = tmp_path("keys");
	struct kbctl_res r;
	const char *text =
		"10.0.0.1\n"
		"  10.0.0.2\t\n"	/* blanks around: fine */
		"10.0.0.300\n"		/* line 3: bad */
		"\n"			/* empty: skipped */
		"10.0.0.4\r\n"		/* CRLF: fine */
		"ten\n";		/* line 6: bad */

	ASSERT_EQ(0, kbctl_write_file(path, text, strlen(text)));
	EXPECT_EQ(2, kbctl_run(&r, "add", "f", "--key", "ipv4", "-f", path));
	EXPECT_EQ(3, kbctl_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, ":3: key '10.0.0.300': not an IPv4 address"));
	EXPECT_NE(NULL, strstr(r.err, ":6: key 'ten': not an IPv4 address"));
	EXPECT_NE(NULL, strstr(r.err, "2 bad keys in 6 lines, nothing applied"));
	EXPECT_EQ(NULL, strstr(r.err, "open " NODEV));
	kbctl_free(&r);

	/* the same from standard input, twice spelled */
	EXPECT_EQ(2, kbctl_run_in(&r, path, "test", "f", "--key", "ipv4", "-"));
	EXPECT_NE(NULL, strstr(r.err, "<stdin>:3: key '10.0.0.300'"));
	kbctl_free(&r);
	EXPECT_EQ(2, kbctl_run_in(&r, path, "del", "f", "--key", "ipv4",
				  "-f", "-"));
	EXPECT_NE(NULL, strstr(r.err, "<stdin>:6: key 'ten'"));
	kbctl_free(&r);

	/* one bad line: one line of error */
	ASSERT_EQ(0, kbctl_write_file(path, "1\n2\nx\n", 6));
	EXPECT_EQ(2, kbctl_run(&r, "add", "f", "--key", "u64", "-f", path));
	EXPECT_EQ(1, kbctl_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, ":3: key 'x': not an unsigned integer"));
	kbctl_free(&r);

	/* every line good: parsing passes, the device is next */
	text = "10.0.0.1\n  10.0.0.2\t\n\n10.0.0.4\r\n";
	ASSERT_EQ(0, kbctl_write_file(path, text, strlen(text)));
	EXPECT_EQ(3, kbctl_run(&r, "add", "f", "--key", "ipv4", "-f", path));
	EXPECT_REACHED_DEVICE(&r);
	kbctl_free(&r);

	/* str keys are whole lines, blanks included; a NUL is a byte */
	ASSERT_EQ(0, kbctl_write_file(path, " a b \nx\0y\n", 10));
	EXPECT_EQ(3, kbctl_run(&r, "add", "f", "-f", path));
	EXPECT_REACHED_DEVICE(&r);
	kbctl_free(&r);

	/* a missing file is a system error naming it */
	unlink(path);
	EXPECT_EQ(3, kbctl_run(&r, "add", "f", "-f", path));
	EXPECT_NE(NULL, strstr(r.err, "add: open "));
	EXPECT_NE(NULL, strstr(r.err, ": No such file or directory"));
	kbctl_free(&r);
	free(path);
}

TEST(keys_many_bad_lines)
{
	char *path = tmp_path("manybad");
	struct kbctl_res r;
	FILE *f = fopen(path, "w");
	int i;

	ASSERT_NE(NULL, f);
	for (i = 1; i <= 1000; i++)
		fprintf(f, i % 50 ? "%d\n" : "bad%d\n", i);
	fclose(f);
	EXPECT_EQ(2, kbctl_run(&r, "add", "f", "--key", "u64", "-f", path));
	/* the first ten bad lines, then the count */
	EXPECT_EQ(11, kbctl_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, ":50: key 'bad50'"));
	EXPECT_NE(NULL, strstr(r.err, ":500: key 'bad500'"));
	EXPECT_EQ(NULL, strstr(r.err, ":550:"));
	EXPECT_NE(NULL, strstr(r.err, "20 bad keys in 1000 lines (the first ones shown), nothing applied"));
	kbctl_free(&r);
	unlink(path);
	free(path);
}

/* One "TYPE M K BYTES BITS/KEY FPR" row of plan's table. */
struct plan_row {
	unsigned long long m, bytes;
	unsigned int k;
	double bpk, fpr;
};

static int plan_row(const char *out, const char *type, struct plan_row *row)
{
	char want[32];
	const char *l;

	snprintf(want, sizeof(want), "\n%s ", type);
	l = strstr(out, want);
	if (!l)
		return -1;
	return sscanf(l + strlen(want), "%llu %u %llu %lf %lf", &row->m,
		      &row->k, &row->bytes, &row->bpk, &row->fpr) == 5 ? 0 : -1;
}

TEST(plan_table)
{
	struct plan_row st, bl, c4, c8, vi, ck, dl;
	struct kbctl_res r, r2;

	ASSERT_EQ(0, kbctl_run(&r, "plan", "capacity", "1000000", "fpr", "1%"));
	EXPECT_EQ(0, (int)r.err_len);
	EXPECT_NE(NULL, strstr(r.out, "capacity 1000000 keys, target fpr 0.01"));
	ASSERT_EQ(0, plan_row(r.out, "standard", &st)) TH_LOG("%s", r.out);
	ASSERT_EQ(0, plan_row(r.out, "blocked", &bl));
	ASSERT_EQ(0, plan_row(r.out, "counting/4", &c4));
	ASSERT_EQ(0, plan_row(r.out, "counting/8", &c8));
	/* classical: m/n = 9.585 bits at k = 7 for 1% */
	EXPECT_EQ(7, st.k);
	EXPECT_LE(9585000ULL, st.m);
	EXPECT_GE(9700000ULL, st.m);
	EXPECT_EQ(0, st.m % 64);
	EXPECT_EQ(st.m / 8, st.bytes);
	EXPECT_LE(st.fpr, 0.01);
	/* blocked needs more bits for the same rate, in whole blocks */
	EXPECT_EQ(0, bl.m % 512);
	EXPECT_LT(st.m, bl.m);
	EXPECT_LE(bl.fpr, 0.01);
	/* counting: same m as standard, 4 or 8 bits per counter */
	EXPECT_EQ(st.m, c4.m);
	EXPECT_EQ(st.k, c4.k);
	EXPECT_EQ(c4.m / 2, c4.bytes);
	EXPECT_EQ(c8.m, c8.bytes);
	EXPECT_LT(c4.bpk, c8.bpk);
	/* VI-CBF: deletable at under half of counting/4's bytes */
	ASSERT_EQ(0, plan_row(r.out, "vi-cbf/4", &vi));
	EXPECT_EQ(vi.m / 2, vi.bytes);
	EXPECT_LE(vi.fpr, 0.01);
	EXPECT_LT(2 * vi.bpk, c4.bpk);
	/* cuckoo, d-left: deletable, cuckoo at under a third of counting/4 */
	ASSERT_EQ(0, plan_row(r.out, "cuckoo", &ck)) TH_LOG("%s", r.out);
	EXPECT_EQ(2, ck.k);
	EXPECT_LE(ck.fpr, 0.01);
	EXPECT_LT(3 * ck.bpk, c4.bpk);
	ASSERT_EQ(0, plan_row(r.out, "d-left", &dl)) TH_LOG("%s", r.out);
	EXPECT_EQ(4, dl.k);
	EXPECT_EQ(0, dl.m % 32);	/* 4 subtables of 8-cell buckets */
	EXPECT_LE(dl.fpr, 0.01);
	EXPECT_LT(dl.bpk, c4.bpk);	/* B is a power of two: load <= 75% */

	/* 0.01, 1% and 1e-2 are the same probability; options anywhere */
	EXPECT_EQ(0, kbctl_run(&r2, "plan", "fpr", "0.01", "capacity", "1000000"));
	EXPECT_STREQ(r.out, r2.out);
	kbctl_free(&r2);
	EXPECT_EQ(0, kbctl_run(&r2, "plan", "capacity", "1000000", "fpr", "1e-2"));
	EXPECT_STREQ(r.out, r2.out);
	kbctl_free(&r2);
	kbctl_free(&r);

	/* -q: nothing */
	EXPECT_EQ(0, kbctl_run(&r, "-q", "plan", "capacity", "10", "fpr", "0.1"));
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);

	/* too big for a blocked filter only: that row says so */
	EXPECT_EQ(0, kbctl_run(&r, "plan", "capacity", "440000000", "fpr", "1%"));
	EXPECT_NE(NULL, strstr(r.out, "\nblocked    too big")) TH_LOG("%s", r.out);
	EXPECT_EQ(0, plan_row(r.out, "standard", &st));
	kbctl_free(&r);
}

/* python3 -m json.tool accepts the file: 1, refuses: 0, no python: -1 */
static int python_json_ok(const char *path)
{
	char cmd[512];
	int st;

	if (system("python3 -c 'import json' >/dev/null 2>&1"))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "python3 -m json.tool < '%s' > /dev/null 2>&1", path);
	st = system(cmd);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

TEST(plan_json)
{
	char *path = tmp_path("plan.json");
	struct kbctl_res r;
	int ok;

	ASSERT_EQ(0, kbctl_run(&r, "plan", "capacity", "5000", "fpr", "1e-4",
			       "-j"));
	EXPECT_TRUE(kbj_valid(r.out, r.out_len)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\"capacity\":5000"));
	EXPECT_NE(NULL, strstr(r.out, "\"type\":\"blocked\""));
	EXPECT_NE(NULL, strstr(r.out, "\"counter_bits\":8"));
	ASSERT_EQ(0, kbctl_write_file(path, r.out, r.out_len));
	ok = python_json_ok(path);
	if (ok < 0)
		SKIP(goto out, "no python3");
	EXPECT_EQ(1, ok);
out:
	kbctl_free(&r);
	unlink(path);
	free(path);
}

/* -p: the same JSON as -j, indented two spaces a level */
TEST(plan_pretty_json)
{
	struct kbctl_res j, p;
	size_t i, n = 0;
	bool in_str = false;

	ASSERT_EQ(0, kbctl_run(&j, "plan", "capacity", "5000", "fpr", "1e-4",
			       "-j"));
	ASSERT_EQ(0, kbctl_run(&p, "plan", "capacity", "5000", "fpr", "1e-4",
			       "-p"));
	EXPECT_TRUE(kbj_valid(p.out, p.out_len)) TH_LOG("%s", p.out);
	EXPECT_EQ(0, strncmp(p.out, "{\n  \"capacity\": 5000,\n  \"", 25))
		TH_LOG("%s", p.out);
	EXPECT_NE(NULL, strstr(p.out, "\n    {\n      \"type\": \"standard\","));
	/* without the whitespace outside strings: -j's bytes */
	for (i = 0; i < p.out_len; i++) {
		in_str ^= p.out[i] == '"' && (!i || p.out[i - 1] != '\\');
		if (in_str || !strchr(" \n", p.out[i]))
			p.out[n++] = p.out[i];
	}
	p.out[n] = 0;
	j.out[j.out_len - 1] = 0;	/* its final newline */
	EXPECT_STREQ(j.out, p.out);
	kbctl_free(&j);
	kbctl_free(&p);
}

/* The writer with hard strings, checked by python3 and by kbj_valid(). */
TEST(json_writer_and_validator)
{
	static const char *const strs[] = {
		"", "plain", "quote\" back\\slash", "tab\tnl\ncr\r",
		"\x01\x1f\x7f", "\xc3\xa9t\xc3\xa9", "\xff\xfe raw bytes",
		"</script>", "\\u0000",
	};
	char *path = tmp_path("writer.json"), *text;
	struct json j;
	size_t len, i;
	FILE *f;
	int ok;

	f = fopen(path, "w+");
	ASSERT_NE(NULL, f);
	json_init(&j, f);
	json_obj(&j);
	json_key(&j, "strings");
	json_arr(&j);
	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		json_str(&j, strs[i]);
	json_arr_end(&j);
	json_key(&j, "empty_obj");
	json_obj(&j);
	json_obj_end(&j);
	json_key(&j, "empty_arr");
	json_arr(&j);
	json_arr_end(&j);
	json_ku64(&j, "max", ~0ULL);
	json_kdouble(&j, "tiny", 1e-12);
	json_kdouble(&j, "inf", INFINITY);
	json_kbool(&j, "t", true);
	json_key(&j, "n");
	json_null(&j);
	json_key(&j, "nested");
	json_arr(&j);
	json_obj(&j);
	json_kstr(&j, "a", "b");
	json_obj_end(&j);
	json_obj(&j);
	json_obj_end(&j);
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
	EXPECT_EQ(0, j.depth);
	fflush(f);
	text = kbctl_slurp(fileno(f), &len);
	fclose(f);
	EXPECT_TRUE(kbj_valid(text, len)) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "\"quote\\\" back\\\\slash\""));
	EXPECT_NE(NULL, strstr(text, "\"inf\":null"));
	ok = python_json_ok(path);
	if (ok >= 0)
		EXPECT_EQ(1, ok) TH_LOG("%s", text);
	free(text);
	unlink(path);
	free(path);
}

/*
 * python3's json module on each of @n documents, in one process: 1
 * accepted, 0 refused; -1 without python3.  Files are read as strict
 * UTF-8, as RFC 8259 requires.
 */
static int python_json_many(const char *const *docs, int n, int *res)
{
	char *dir = tmp_path("docs"), *cmd = NULL, *p, line[16];
	size_t cap = 0;
	FILE *out;
	int i;

	if (system("python3 -c 'import json' >/dev/null 2>&1"))
		return -1;
	mkdir(dir, 0700);
	out = open_memstream(&cmd, &cap);
	fprintf(out, "python3 -c 'import json, sys\n"
		"for p in sys.argv[1:]:\n"
		"    try:\n"
		"        json.load(open(p, encoding=\"utf-8\")); print(1)\n"
		"    except Exception:\n"
		"        print(0)\n'");
	for (i = 0; i < n; i++) {
		if (asprintf(&p, "%s/%d", dir, i) < 0)
			return -1;
		kbctl_write_file(p, docs[i], strlen(docs[i]));
		fprintf(out, " %s", p);
		free(p);
	}
	fclose(out);
	out = popen(cmd, "r");
	for (i = 0; i < n && out && fgets(line, sizeof(line), out); i++)
		res[i] = atoi(line);
	if (out)
		pclose(out);
	for (i = 0; i < n; i++) {
		if (asprintf(&p, "%s/%d", dir, i) >= 0) {
			unlink(p);
			free(p);
		}
	}
	rmdir(dir);
	free(dir);
	free(cmd);
	return 0;
}

/* The validator agrees with python3 on what to accept and refuse. */
TEST(json_validator_agrees_with_python)
{
	static const char *const docs[] = {
		/* refused */
		"", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}",
		"[01]", "[1.]", "[.5]", "[1e]", "[-]", "\"\t\"", "\"\\x\"",
		"\"\\u12\"", "[1] [2]", "nul", "[true false]", "\"\xff\"",
		"{\"a\":1 \"b\":2}", "[\"a\",,\"b\"]", "\"\xc0\xaf\"",
		/* accepted */
		"0", "-0.5e+3", "[]", "{}",
		" {\"a\": [1, 2.5, -3e-9, true, null]} ",
		"\"\\u00e9\\n\"", "\"\xc3\xa9\"", "[[[{}]]]",
	};
	const int nbad = 22, n = sizeof(docs) / sizeof(docs[0]);
	int i, py[64], have;

	ASSERT_LE(n, 64);
	for (i = 0; i < n; i++)
		EXPECT_EQ(i >= nbad, kbj_valid(docs[i], strlen(docs[i])))
			TH_LOG("doc %d", i);
	have = python_json_many(docs, n, py);
	if (have < 0)
		SKIP(return, "no python3");
	for (i = 0; i < n; i++)
		EXPECT_EQ(i >= nbad, py[i]) TH_LOG("python, doc %d", i);
}

/* --- images for restore, built by hand from uapi/kbloom_image.h ------------ */

static size_t make_image(void **out, const char *name, __u32 type, __u64 m,
			 __u32 k, __u32 cb)
{
	__u64 payload = kb_payload_len(type, m, cb);
	struct kbloom_image_hdr *h;
	__u8 *img = calloc(1, KBLOOM_IMAGE_HDR_LEN + payload);

	h = (struct kbloom_image_hdr *)img;
	h->magic = kb_le32(KBLOOM_IMAGE_MAGIC);
	h->version = kb_le16(KBLOOM_IMAGE_VERSION);
	h->hdr_len = kb_le16(KBLOOM_IMAGE_HDR_LEN);
	h->type = type;
	h->hash_id = KBLOOM_HASH_FAST;
	h->counter_bits = cb;
	h->k = kb_le32(k);
	h->block_bits = kb_le32(type == KBLOOM_TYPE_BLOCKED ? 512 : 0);
	h->m = kb_le64(m);
	h->payload_len = kb_le64(payload);
	strncpy(h->name, name, KBLOOM_NAME_LEN - 1);
	img[KBLOOM_IMAGE_HDR_LEN] = 0x5a;	/* some bits */
	h->crc = kb_le32(kb_image_crc(h, img + KBLOOM_IMAGE_HDR_LEN, payload));
	*out = img;
	return KBLOOM_IMAGE_HDR_LEN + payload;
}

TEST(restore_checks_images_first)
{
	char *one = tmp_path("one.img"), *two = tmp_path("two.img");
	char *anon = tmp_path("anon.img"), *bad = tmp_path("bad.img");
	void *a, *b, *c;
	size_t la, lb, lc;
	struct kbctl_res r;
	char *both, *dup2img;

	la = make_image(&a, "alpha", KBLOOM_TYPE_BLOCKED, 4096, 6, 0);
	lb = make_image(&b, "beta", KBLOOM_TYPE_COUNTING, 1024, 3, 4);
	lc = make_image(&c, "", KBLOOM_TYPE_STANDARD, 640, 2, 0);
	ASSERT_EQ(0, kb_image_verify(a, la));
	ASSERT_EQ(0, kb_image_verify(b, lb));
	ASSERT_EQ(0, kbctl_write_file(one, a, la));
	both = malloc(la + lb);
	memcpy(both, a, la);
	memcpy(both + la, b, lb);
	ASSERT_EQ(0, kbctl_write_file(two, both, la + lb));
	ASSERT_EQ(0, kbctl_write_file(anon, c, lc));

	/* good images: on to the device */
	EXPECT_EQ(3, kbctl_run(&r, "restore", "-i", one));
	EXPECT_REACHED_DEVICE(&r);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run(&r, "restore", "-i", two, "--replace"));
	EXPECT_REACHED_DEVICE(&r);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run_in(&r, two, "restore"));
	EXPECT_REACHED_DEVICE(&r);
	kbctl_free(&r);
	EXPECT_EQ(3, kbctl_run_in(&r, anon, "restore", "gamma", "-i", "stdin"));
	EXPECT_REACHED_DEVICE(&r);
	kbctl_free(&r);

	/* NAME with two images; an image without a name and no NAME */
	kbctl_run(&r, "restore", "x", "-i", two);
	EXPECT_USAGE(&r, "NAME 'x': ");
	EXPECT_NE(NULL, strstr(r.err, "holds 2 images (allowed: exactly one image with NAME"));
	kbctl_free(&r);
	kbctl_run(&r, "restore", "-i", anon);
	EXPECT_USAGE(&r, "image 1 has no name (allowed: give NAME to restore it)");
	kbctl_free(&r);

	/* the same image twice */
	dup2img = malloc(2 * la);
	memcpy(dup2img, a, la);
	memcpy(dup2img + la, a, la);
	ASSERT_EQ(0, kbctl_write_file(bad, dup2img, 2 * la));
	free(dup2img);
	EXPECT_EQ(3, kbctl_run(&r, "restore", "-i", bad));
	EXPECT_NE(NULL, strstr(r.err, "restore alpha: File exists (named twice in the input)"));
	EXPECT_EQ(NULL, strstr(r.err, NODEV));
	kbctl_free(&r);

	/* a flipped payload bit: checksum */
	((__u8 *)b)[lb - 1] ^= 1;
	ASSERT_EQ(0, kbctl_write_file(bad, b, lb));
	EXPECT_EQ(3, kbctl_run(&r, "restore", "-i", bad));
	EXPECT_NE(NULL, strstr(r.err, ": image 1: Bad message (bad checksum)")) TH_LOG("%s", r.err);
	EXPECT_EQ(1, kbctl_lines(r.err));
	kbctl_free(&r);
	/* the second image of a stream is bad: nothing is restored */
	memcpy(both, a, la);
	memcpy(both + la, b, lb);
	ASSERT_EQ(0, kbctl_write_file(bad, both, la + lb));
	EXPECT_EQ(3, kbctl_run(&r, "restore", "-i", bad));
	EXPECT_NE(NULL, strstr(r.err, ": image 2: Bad message"));
	EXPECT_EQ(NULL, strstr(r.err, NODEV));
	kbctl_free(&r);
	/* truncated payload, truncated header, garbage */
	ASSERT_EQ(0, kbctl_write_file(bad, a, la - 1));
	EXPECT_EQ(3, kbctl_run(&r, "restore", "-i", bad));
	EXPECT_NE(NULL, strstr(r.err, "image 1: Message too long (truncated payload)")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_write_file(bad, a, 100));
	EXPECT_EQ(3, kbctl_run(&r, "restore", "-i", bad));
	EXPECT_NE(NULL, strstr(r.err, "truncated header"));
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_write_file(bad, "hello, world\n", 13));
	EXPECT_EQ(3, kbctl_run(&r, "restore", "x", "-i", bad));
	EXPECT_NE(NULL, strstr(r.err, "truncated header"));
	kbctl_free(&r);
	memset(both, 'x', 200);
	ASSERT_EQ(0, kbctl_write_file(bad, both, 200));
	EXPECT_EQ(3, kbctl_run(&r, "restore", "-i", bad));
	EXPECT_NE(NULL, strstr(r.err, "Bad message (not a valid kbloom image header)"));
	kbctl_free(&r);
	/* a missing file */
	unlink(bad);
	EXPECT_EQ(3, kbctl_run(&r, "restore", "-i", bad));
	EXPECT_NE(NULL, strstr(r.err, "restore: open "));
	EXPECT_NE(NULL, strstr(r.err, "No such file or directory"));
	kbctl_free(&r);

	unlink(one);
	unlink(two);
	unlink(anon);
	free(a);
	free(b);
	free(c);
	free(both);
	free(one);
	free(two);
	free(anon);
	free(bad);
}

/* Binary images never go to (or come from) a terminal. */
TEST(terminal_refused)
{
	struct kbctl_res r;

	kbctl_run_pty(&r, NULL, KBCTL_ARGS("save", "foo"));
	EXPECT_EQ(2, r.status) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "save: standard output is a terminal: refusing to write a binary image"));
	kbctl_free(&r);
	kbctl_run_pty(&r, NULL, KBCTL_ARGS("save", "-o", "-"));
	EXPECT_EQ(2, r.status);
	kbctl_free(&r);
	kbctl_run_pty(&r, NULL, KBCTL_ARGS("restore"));
	EXPECT_EQ(2, r.status) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "restore: standard input is a terminal: refusing to read a binary image"));
	kbctl_free(&r);
	/* stdout redirected to a file: fine (then the device is missing) */
	kbctl_run_pty(&r, "/dev/null", KBCTL_ARGS("save", "foo"));
	EXPECT_EQ(3, r.status) TH_LOG("%s", r.out);
	kbctl_free(&r);
}

TEST(system_error_names_operation)
{
	struct kbctl_res r;

	EXPECT_EQ(3, kbctl_run(&r, "list"));
	EXPECT_STREQ("kbloomctl: open " NODEV
		     ": No such file or directory (is kbloom.ko loaded?)\n",
		     r.err);
	kbctl_free(&r);
	setenv("KBLOOMCTL_DEVICE", "/dev/null", 1);
	EXPECT_EQ(3, kbctl_run(&r, "stat", "x"));
	EXPECT_NE(NULL, strstr(r.err, "kbloomctl: version of /dev/null: "));
	EXPECT_NE(NULL, strstr(r.err, "(not a kbloom device?)"));
	kbctl_free(&r);
	setenv("KBLOOMCTL_DEVICE", NODEV, 1);
}

TEST_HARNESS_MAIN
