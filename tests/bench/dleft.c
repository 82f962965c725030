// SPDX-License-Identifier: GPL-2.0
/*
 * make bench BENCH=dleft: the XDP d-left tracker's insert + delete against
 * the XDP blocked insert, on the host, through BPF_PROG_TEST_RUN with
 * repeat (tests/bench/dleft_bench.bpf.c), for both layouts of the filter.
 *
 * The d-left filters: d = 4, c = 8, 16-bit cells (r = 12, w = 4), B =
 * 2^16 buckets (2 Mi cells, 4 MiB), one in the spread layout, one in the
 * lines layout (KB_DLEFT_LAYOUT_*: a key's buckets in two cache lines),
 * each half full with the same library keys before the run; each run
 * inserts then deletes a fresh key, so the load stays at 50%.  The blocked
 * filter: planned by libkbloom for 1M keys at 1% (1.2 MiB); each run
 * inserts a fresh key.  All hash the same 40-byte flow keys.  Each figure
 * is ns per run, the median of ROUNDS rounds of REPEAT runs, the three
 * programs alternating.
 *
 * Output: the three figures, "dleft insert+delete time vs blocked insert:
 * N.Nx" (spread) and "dleft lines insert+delete time vs blocked insert:
 * N.Nx" (the goal is at most 2x); build/bench-dleft.json (or
 * $KBLOOM_BENCH_JSON).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "libkbloom.h"
#include "libkbloom_dleft.h"
#include "tests/bench/dleft_bench.skel.h"

#define DB_ROUNDS	9
#define DB_REPEAT	200000
#define DB_PREFILL	(1U << 20)

static const struct kb_shape db_shape = {
	.type = KBLOOM_TYPE_DLEFT, .tables = 4, .slots = 8, .fp_bits = 12,
	.counter_bits = 4, .buckets = 1U << 16,
};

/* Mean ns per run of @prog over DB_REPEAT runs, or a negative errno. */
static double db_run(struct bpf_program *prog)
{
	__u8 frame[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame,
		    .data_size_in = sizeof(frame), .repeat = DB_REPEAT);
	int ret = bpf_prog_test_run_opts(bpf_program__fd(prog), &o);

	return ret ? ret : (double)o.duration;
}

static int db_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The tracker's filter in @layout, half full, as the library's. */
static int db_prefill(__u32 layout, struct kbloom_dleft **fp)
{
	struct kb_shape s = db_shape;
	__u64 i, k;
	int ret;

	s.update = layout;
	ret = kbloom_dleft_create_shape(&s, NULL, fp);
	for (i = 0; !ret && i < DB_PREFILL; i++) {
		k = i;
		ret = kbloom_dleft_add(*fp, &k, sizeof(k));
	}
	return ret < 0 ? ret : 0;
}

static int db_load(struct dleft_bench **sp, const struct kbloom_dleft *f)
{
	struct kbloom_filter *blk;
	struct kbloom_stats bs;
	struct dleft_bench *s;
	__u64 nw;
	__u32 zero = 0, i;
	struct kbloom_dleft_params p = {
		.hash_id = KBLOOM_HASH_FAST, .miss = KBLOOM_DLEFT_MISS_PASS,
		.ready = 1,
	};
	const __u64 *w = kbloom_dleft_words(f, &nw);
	struct kbloom_dleft_stats st;
	int ret;

	kbloom_dleft_stats(f, &st);
	p.shape = st.shape;

	ret = kbloom_create(KBLOOM_TYPE_BLOCKED, 1000000, 10000000000ULL,
			    NULL, &blk);
	if (ret)
		return ret;
	kbloom_stats(blk, &bs);
	kbloom_destroy(blk);
	s = dleft_bench__open();
	if (!s)
		return -errno;
	kb_shape_derive(&p.shape);
	p.q = kb_log2_exact(p.shape.buckets) + p.shape.fp_bits;
	p.nwords = nw;
	s->rodata->db_nblocks = (__u32)(bs.m / KBLOOM_BLOCK_BITS);
	s->rodata->db_k = bs.k;
	bpf_map__set_max_entries(s->maps.db_blocks, s->rodata->db_nblocks);
	bpf_map__set_max_entries(s->maps.dleft_words, (__u32)nw);
	ret = dleft_bench__load(s);
	if (!ret)
		ret = bpf_map_update_elem(bpf_map__fd(s->maps.dleft_params),
					  &zero, &p, BPF_ANY);
	for (i = 0; !ret && i < nw; i++)
		ret = bpf_map_update_elem(bpf_map__fd(s->maps.dleft_words), &i,
					  &w[i], BPF_ANY);
	*sp = s;
	return ret;
}

static void db_json(double dl, double ln, double blk)
{
	const char *path = getenv("KBLOOM_BENCH_JSON") ?: "build/bench-dleft.json";
	FILE *f = fopen(path, "w");

	if (!f)
		return;
	fprintf(f, "{\"dleft_insdel_ns\": %.1f, \"dleft_lines_insdel_ns\": %.1f, \"blocked_insert_ns\": %.1f, \"dleft insert+delete time vs blocked insert\": %.3f, \"dleft lines insert+delete time vs blocked insert\": %.3f}\n",
		dl, ln, blk, dl / blk, ln / blk);
	fclose(f);
}

/* The filters of both layouts, their programs loaded. */
struct db_side {
	struct kbloom_dleft *f;
	struct dleft_bench *s;
};

static int db_side_init(struct db_side *d, __u32 layout)
{
	int ret = db_prefill(layout, &d->f);

	return ret ? ret : db_load(&d->s, d->f);
}

static void db_side_fini(struct db_side *d)
{
	dleft_bench__destroy(d->s);
	kbloom_dleft_destroy(d->f);
}

/* ROUNDS rounds, the three programs alternating: spread, lines, blocked. */
static int db_rounds(struct db_side *sp, struct db_side *ln, double *dl,
		     double *dln, double *blk)
{
	int r;

	for (r = 0; r < DB_ROUNDS; r++) {
		dl[r] = db_run(sp->s->progs.db_insdel);
		dln[r] = db_run(ln->s->progs.db_insdel);
		blk[r] = db_run(sp->s->progs.db_blocked);
		if (dl[r] < 0 || dln[r] < 0 || blk[r] < 0)
			return -EIO;
	}
	qsort(dl, DB_ROUNDS, sizeof(double), db_cmp);
	qsort(dln, DB_ROUNDS, sizeof(double), db_cmp);
	qsort(blk, DB_ROUNDS, sizeof(double), db_cmp);
	return 0;
}

int main(void)
{
	double dl[DB_ROUNDS], dln[DB_ROUNDS], blk[DB_ROUNDS], m, mln, mb;
	struct db_side sp = { 0 }, ln = { 0 };
	int ret;

	ret = db_side_init(&sp, KB_DLEFT_LAYOUT_SPREAD);
	if (!ret)
		ret = db_side_init(&ln, KB_DLEFT_LAYOUT_LINES);
	if (!ret)
		ret = db_rounds(&sp, &ln, dl, dln, blk);
	if (ret) {
		fprintf(stderr, "bench dleft: %s\n", strerror(-ret));
		goto out;
	}
	m = dl[DB_ROUNDS / 2];
	mln = dln[DB_ROUNDS / 2];
	mb = blk[DB_ROUNDS / 2];
	printf("dleft insert+delete (d=4 c=8 16-bit cells, 50%% load): spread %.1f ns, lines %.1f ns\n",
	       m, mln);
	printf("blocked insert (1M keys, 1%%): %.1f ns\n", mb);
	printf("dleft insert+delete time vs blocked insert: %.2fx (failed updates: %llu)\n",
	       m / mb, (unsigned long long)sp.s->bss->db_failed);
	printf("dleft lines insert+delete time vs blocked insert: %.2fx (failed updates: %llu)\n",
	       mln / mb, (unsigned long long)ln.s->bss->db_failed);
	db_json(m, mln, mb);
out:
	db_side_fini(&ln);
	db_side_fini(&sp);
	return ret ? 1 : 0;
}
