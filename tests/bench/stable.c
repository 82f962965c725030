// SPDX-License-Identifier: GPL-2.0
/*
 * make bench BENCH=stable: the XDP duplicate suppressor's test-and-add
 * (a stable Bloom filter, bpf/kbloom_stable.h) against the XDP blocked
 * insert, on the host, through BPF_PROG_TEST_RUN with repeat
 * (tests/bench/stable_bench.bpf.c).
 *
 * Both filters have the bytes libkbloom plans for a blocked filter of 1M
 * keys at 1% (about 1.2 MiB): the blocked filter those bits, the stable
 * filter as many 1-bit cells (Max = 1), k = 3, P = 10 (stable point
 * 1.23%), brought to its stable point by the warm-up round.  Each run
 * tests and adds, or inserts, a fresh 40-byte key.  Each figure is ns per
 * run, the median of SB_ROUNDS rounds of SB_REPEAT runs, the two programs
 * alternating.
 *
 * Output: the two figures and "stable test-and-add time vs blocked insert:
 * N.Nx" (the goal is at most 1.5x); build/bench-stable.json (or
 * $KBLOOM_BENCH_JSON).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "libkbloom.h"
#include "libkbloom_stable.h"
#include "tests/bench/stable_bench.skel.h"

#define SB_ROUNDS	9
#define SB_REPEAT	200000

/* Mean ns per run of @prog over @repeat runs, or a negative errno. */
static double sb_run(struct bpf_program *prog, __u32 repeat)
{
	__u8 frame[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame,
		    .data_size_in = sizeof(frame), .repeat = repeat);
	int ret = bpf_prog_test_run_opts(bpf_program__fd(prog), &o);

	return ret ? ret : (double)o.duration;
}

static int sb_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int sb_load(struct stable_bench **sp, __u64 *m)
{
	struct kbloom_filter *blk;
	struct kbloom_stats bs;
	struct stable_bench *s;
	struct kb_shape sh;
	__u32 zero = 0;
	int ret;

	ret = kbloom_create(KBLOOM_TYPE_BLOCKED, 1000000, 10000000000ULL,
			    NULL, &blk);
	if (ret)
		return ret;
	kbloom_stats(blk, &bs);
	kbloom_destroy(blk);
	*m = bs.m;
	ret = kb_stable_shape_init(&sh, bs.m, 3, 1, 10);
	if (ret)
		return ret;
	struct kbloom_dedupe_params p = {
		.m = sh.m, .hash_id = KBLOOM_HASH_FAST, .k = 3, .cell_bits = 1,
		.p = 10, .nwords = kb_shape_words(&sh),
	};
	s = stable_bench__open();
	if (!s)
		return -errno;
	s->rodata->sb_nblocks = (__u32)(bs.m / KBLOOM_BLOCK_BITS);
	s->rodata->sb_k = bs.k;
	bpf_map__set_max_entries(s->maps.sb_blocks, s->rodata->sb_nblocks);
	bpf_map__set_max_entries(s->maps.dedupe_cells, (__u32)p.nwords);
	ret = stable_bench__load(s);
	if (!ret)
		ret = bpf_map_update_elem(bpf_map__fd(s->maps.dedupe_params),
					  &zero, &p, BPF_ANY);
	*sp = s;
	return ret;
}

static void sb_json(double st, double blk)
{
	const char *path = getenv("KBLOOM_BENCH_JSON") ?: "build/bench-stable.json";
	FILE *f = fopen(path, "w");

	if (!f)
		return;
	fprintf(f, "{\"stable_test_add_ns\": %.1f, \"blocked_insert_ns\": %.1f, \"stable test-and-add time vs blocked insert\": %.3f}\n",
		st, blk, st / blk);
	fclose(f);
}

int main(void)
{
	double st[SB_ROUNDS], blk[SB_ROUNDS];
	struct stable_bench *s = NULL;
	int r, ret;
	__u64 m = 0;

	ret = sb_load(&s, &m);
	/* warm-up: 10 m / 3 test-and-adds bring the cells near the point */
	if (!ret && sb_run(s->progs.sb_dedupe, (__u32)(m * 10 / 3)) < 0)
		ret = -EIO;
	for (r = 0; !ret && r < SB_ROUNDS; r++) {
		st[r] = sb_run(s->progs.sb_dedupe, SB_REPEAT);
		blk[r] = sb_run(s->progs.sb_blocked, SB_REPEAT);
		if (st[r] < 0 || blk[r] < 0)
			ret = -EIO;
	}
	if (ret) {
		fprintf(stderr, "bench stable: %s\n", strerror(-ret));
		goto out;
	}
	qsort(st, SB_ROUNDS, sizeof(double), sb_cmp);
	qsort(blk, SB_ROUNDS, sizeof(double), sb_cmp);
	printf("stable test-and-add (%llu 1-bit cells, k=3, P=10): %.1f ns\n",
	       (unsigned long long)m, st[SB_ROUNDS / 2]);
	printf("blocked insert (1M keys, 1%%): %.1f ns\n", blk[SB_ROUNDS / 2]);
	printf("stable test-and-add time vs blocked insert: %.2fx (failed: %llu, repeats: %llu)\n",
	       st[SB_ROUNDS / 2] / blk[SB_ROUNDS / 2],
	       (unsigned long long)s->bss->sb_failed,
	       (unsigned long long)s->bss->sb_repeats);
	sb_json(st[SB_ROUNDS / 2], blk[SB_ROUNDS / 2]);
out:
	stable_bench__destroy(s);
	return ret ? 1 : 0;
}
