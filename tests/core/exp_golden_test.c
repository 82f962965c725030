// SPDX-License-Identifier: GPL-2.0
/*
 * Leakage experiments (libkbloom_exp.h): the model's results pinned.
 * A few small runs (fat-tree k = 4 and 8, a leaf-spine fabric; uniform
 * and Zipf sizes; the default schemes and yes-no headers; per-port and
 * global MC-BF plans, blocked and standard MC-BF, a fixed k; tiny
 * standard filters whose cascades of false positives loop until max_tx
 * cuts them) write their
 * CSV files, and a checksum of each file (FNV-1a 64 over its bytes, the
 * cpu_seconds column left out) must be the value the model gave before
 * it was made faster: speed-ups of the engine, the forwarding, MSBF,
 * MC-BF or the zFilters must not change a single number.  With 1 and 2
 * threads alike.  A deliberate change of the results updates the values
 * below: the failing test logs the new ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "libkbloom_exp.h"

#define FNV_OFF		0xcbf29ce484222325ULL
#define FNV_PRIME	0x100000001b3ULL
#define NFILES		4
#define LINE_MAX_LEN	4096

static const char *const files[NFILES] = {
	"summary.csv", "by_size.csv", "switches.csv", "fpr.csv",
};

static __u64 fnv(__u64 h, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= FNV_PRIME;
	}
	return h;
}

/* Index of column @name in the CSV header @line, or -1. */
static int column_of(const char *line, const char *name)
{
	size_t n = strlen(name);
	const char *c = line;
	int i = 0;

	while (c) {
		if (!strncmp(c, name, n) && (c[n] == ',' || c[n] == '\n' ||
					     !c[n]))
			return i;
		c = strchr(c, ',');
		if (c)
			c++;
		i++;
	}
	return -1;
}

/* FNV-1a of @line without its column @skip (-1: none). */
static __u64 hash_line(__u64 h, const char *line, int skip)
{
	const char *c = line, *e;
	int i = 0;

	while (*c) {
		e = strpbrk(c, ",\n");
		if (!e)
			e = c + strlen(c);
		if (i != skip)
			h = fnv(h, c, (size_t)(e - c) + (*e != 0));
		if (!*e)
			break;
		c = e + 1;
		i++;
	}
	return h;
}

/* The checksum of @dir/@name, without its cpu_seconds column; 0: none. */
static __u64 file_sum(const char *dir, const char *name)
{
	char path[256], line[LINE_MAX_LEN];
	__u64 h = FNV_OFF;
	int skip = -1, first = 1;
	FILE *in;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	in = fopen(path, "r");
	if (!in)
		return 0;
	while (fgets(line, sizeof(line), in)) {
		if (first)
			skip = column_of(line, "cpu_seconds");
		first = 0;
		h = hash_line(h, line, skip);
	}
	fclose(in);
	return h;
}

/* Run @p, write its CSV files and check their sums against @want. */
static void check_run(struct __test_metadata *_metadata,
		      const struct kb_exp_params *p, const __u64 *want)
{
	char dir[64] = "/tmp/kbexp-golden-XXXXXX", cmd[96], why[256] = "";
	struct kb_exp *x = NULL;
	__u64 got;
	int i;

	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, kb_exp_new(p, &x, why, sizeof(why))) TH_LOG("%s", why);
	ASSERT_EQ(0, kb_exp_run(x)) TH_LOG("%s", kb_exp_error(x));
	ASSERT_EQ(0, kb_exp_write_csv(x, dir));
	for (i = 0; i < NFILES; i++) {
		got = file_sum(dir, files[i]);
		EXPECT_EQ(want[i], got)
			TH_LOG("%s: 0x%016llxULL (threads %u)", files[i],
			       (unsigned long long)got, p->threads);
	}
	kb_exp_free(x);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
}

/* Both thread counts give the same files. */
static void check_threads(struct __test_metadata *_metadata,
			  struct kb_exp_params *p, const __u64 *want)
{
	p->threads = 1;
	check_run(_metadata, p, want);
	p->threads = 2;
	check_run(_metadata, p, want);
}

static void base(struct kb_exp_params *p, __u32 groups, __u64 seed)
{
	kb_exp_params_init(p);
	p->groups = groups;
	p->seed = seed;
	p->schemes = KB_EXP_CLASSIC | KB_EXP_S(KB_EXP_YESNO);
}

TEST(fat_tree_4)
{
	static const __u64 want[NFILES] = {
		0x9d8f96c0c522a552ULL, 0xcfc8c234b6dc1ef4ULL,
		0x0f0a45eac9593816ULL, 0x089fdf93a05203d2ULL,
	};
	struct kb_exp_params p;

	base(&p, 400, 3);
	p.ft_k = 4;
	p.size_max = 16;
	p.nbits = 2;
	p.bits[0] = 512;
	p.bits[1] = 2048;
	check_threads(_metadata, &p, want);
}

TEST(fat_tree_8_zipf_global_plan)
{
	static const __u64 want[NFILES] = {
		0x4c784577205ec687ULL, 0xa3c9d4ca915d5feaULL,
		0x928a31992dcf97a3ULL, 0x134a0add769fdafcULL,
	};
	struct kb_exp_params p;

	base(&p, 600, 5);
	p.ft_k = 8;
	p.dist = KB_EXP_DIST_ZIPF;
	p.zipf_s = 1.1;
	p.size_max = 128;
	p.mcbf_global = 1;
	p.nbits = 3;
	p.bits[0] = 1024;
	p.bits[1] = 4096;
	p.bits[2] = 16384;
	check_threads(_metadata, &p, want);
}

TEST(leaf_spine_standard_mcbf_fixed_k)
{
	static const __u64 want[NFILES] = {
		0x7563d6b599a7d1b1ULL, 0xf00ab065cf6afcb5ULL,
		0x5f01074c0b780fd1ULL, 0xfebfd74b723adc9dULL,
	};
	struct kb_exp_params p;

	base(&p, 500, 7);
	p.topo = KB_EXP_TOPO_LEAF_SPINE;
	p.ls_leaves = 6;
	p.ls_spines = 3;
	p.ls_hosts = 5;
	p.mcbf_type = KBLOOM_TYPE_STANDARD;
	p.k = 3;
	p.msbf_start_fp = 4.0;
	p.nbits = 2;
	p.bits[0] = 512;
	p.bits[1] = 1536;
	check_threads(_metadata, &p, want);
}

/* Tiny standard filters: cascades of false positives, packets cut at max_tx. */
TEST(standard_loops_cut_at_max_tx)
{
	static const __u64 want[NFILES] = {
		0x963314522af463ebULL, 0xe4eeaaa0cf14da12ULL,
		0x62fe15a532c86962ULL, 0x86476b8f9cb959f8ULL,
	};
	struct kb_exp_params p;

	base(&p, 300, 11);
	p.ft_k = 4;
	p.schemes = KB_EXP_S(KB_EXP_EXACT) | KB_EXP_S(KB_EXP_STANDARD);
	p.max_tx = 400;
	p.k = 2;
	p.nbits = 3;
	p.bits[0] = 64;
	p.bits[1] = 128;
	p.bits[2] = 256;
	check_threads(_metadata, &p, want);
}

TEST_HARNESS_MAIN
