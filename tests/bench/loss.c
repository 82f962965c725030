// SPDX-License-Identifier: GPL-2.0
/*
 * make bench BENCH=loss: the XDP loss digest's per-packet cost (parse,
 * key, fold into k = 4 cells with atomic ADD and XOR) against the XDP
 * blocked insert of the same key (parse, key, one 64-byte block), on the
 * host, through BPF_PROG_TEST_RUN with repeat
 * (tests/bench/loss_bench.bpf.c), each run a fresh key.
 *
 * Sizes: the digest has LB_CELLS cells per bank (1.5 cells for each of
 * 1000 losses an epoch may list, 60 KiB a bank); the blocked filter has
 * as many bytes as a bank, k = 7.  Each figure is ns per run, the median
 * of LB_ROUNDS rounds of LB_REPEAT runs, the two programs alternating.
 *
 * Output: the two figures and "loss digest fold vs blocked insert: N.NNx"
 * (the goal is at most 2x); build/bench-loss.json (or $KBLOOM_BENCH_JSON).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "libkbloom.h"
#include "libkbloom_loss.h"
#include "tests/bench/loss_bench.skel.h"

#define LB_ROUNDS	9
#define LB_REPEAT	200000
#define LB_CELLS	1500U
#define LB_K_BLOCKED	7U

/* Mean ns per run of @prog over @repeat runs on a UDP frame, or -errno. */
static double lb_run(struct bpf_program *prog, __u32 repeat)
{
	__u8 f[60] = { 2, 0, 0, 0, 1, 2, 2, 0, 0, 0, 1, 1, 0x08, 0x00,
		       0x45, 0, 0, 46, 0, 0, 0, 0, 64, 17, 0, 0,
		       10, 9, 1, 1, 10, 9, 2, 1, 0x27, 0x10, 0x13, 0x88,
		       0, 26 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = f,
		    .data_size_in = sizeof(f), .repeat = repeat);
	int ret = bpf_prog_test_run_opts(bpf_program__fd(prog), &o);

	return ret ? ret : (double)o.duration;
}

static int lb_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int lb_load(struct loss_bench **sp)
{
	struct kbloom_loss_params p = {
		.seed = 1, .hash_id = KBLOOM_HASH_FAST, .k = 4,
		.cells = LB_CELLS,
	};
	__u32 bank_bytes = LB_CELLS * sizeof(struct kbloom_loss_cell);
	struct loss_bench *s;
	__u32 zero = 0;
	int ret;

	s = loss_bench__open();
	if (!s)
		return -errno;
	*sp = s;
	s->rodata->lb_nblocks = bank_bytes / KBLOOM_BLOCK_BYTES;
	s->rodata->lb_k = LB_K_BLOCKED;
	bpf_map__set_max_entries(s->maps.lb_blocks, s->rodata->lb_nblocks);
	bpf_map__set_max_entries(s->maps.loss_cells,
				 LB_CELLS * KBLOOM_LOSS_BANKS);
	ret = loss_bench__load(s);
	if (!ret && bpf_map_update_elem(bpf_map__fd(s->maps.loss_params),
					&zero, &p, BPF_ANY))
		ret = -errno;
	return ret;
}

static void lb_json(double d, double blk)
{
	const char *path = getenv("KBLOOM_BENCH_JSON") ?: "build/bench-loss.json";
	FILE *f = fopen(path, "w");

	if (!f)
		return;
	fprintf(f, "{\"loss_digest_fold_ns\": %.1f, \"blocked_insert_ns\": %.1f, \"loss digest fold vs blocked insert\": %.3f}\n",
		d, blk, d / blk);
	fclose(f);
}

int main(void)
{
	double d[LB_ROUNDS], blk[LB_ROUNDS];
	struct loss_bench *s = NULL;
	int r, ret;

	ret = lb_load(&s);
	for (r = 0; !ret && r < LB_ROUNDS; r++) {
		d[r] = lb_run(s->progs.lb_digest, LB_REPEAT);
		blk[r] = lb_run(s->progs.lb_blocked, LB_REPEAT);
		if (d[r] < 0 || blk[r] < 0)
			ret = -EIO;
	}
	if (ret) {
		fprintf(stderr, "bench loss: %s\n", strerror(-ret));
		goto out;
	}
	qsort(d, LB_ROUNDS, sizeof(double), lb_cmp);
	qsort(blk, LB_ROUNDS, sizeof(double), lb_cmp);
	printf("loss digest fold (%u cells, k=4, atomic ADD/XOR): %.1f ns\n",
	       LB_CELLS, d[LB_ROUNDS / 2]);
	printf("blocked insert (%u bytes, k=%u): %.1f ns\n",
	       LB_CELLS * (unsigned int)sizeof(struct kbloom_loss_cell),
	       LB_K_BLOCKED, blk[LB_ROUNDS / 2]);
	printf("loss digest fold vs blocked insert: %.2fx (failed folds: %llu)\n",
	       d[LB_ROUNDS / 2] / blk[LB_ROUNDS / 2],
	       (unsigned long long)s->bss->lb_failed);
	lb_json(d[LB_ROUNDS / 2], blk[LB_ROUNDS / 2]);
out:
	loss_bench__destroy(s);
	return ret ? 1 : 0;
}
