// SPDX-License-Identifier: GPL-2.0
/*
 * make bench BENCH=dleft: the XDP d-left tracker's insert + delete against
 * the XDP blocked insert, on the host, through BPF_PROG_TEST_RUN with
 * repeat (tests/bench/dleft_bench.bpf.c), for both layouts of the filter
 * and over a range of flow counts N.
 *
 * Per N, the filters are sized as their users size them, for the same N
 * keys at the same rate: the d-left filter as `kbloomctl xdp attach
 * conntrack capacity N fpr 0.1%` plans it (kbloom_xdp_conntrack_plan():
 * d = 4, c = 8, 16-bit cells of r = 14, w = 2; for N a power of two, B =
 * N / 16 buckets, 50% of the cells used, p = d L 2^-r = 0.098%), in the
 * spread and in the lines layout; the blocked filter planned by
 * kb_plan() for N keys at that same d-left rate.  Both are filled with the
 * same flow keys 0..N-1 by the XDP code itself.  Then each d-left run is
 * one connection of a tracker: the SYN of flow i inserts it, the FIN of
 * flow i - N (opened N connections earlier: its buckets are as cold as
 * the filter's size makes them) deletes it, so N flows stay open; each
 * blocked run inserts flow i.  Each figure is ns per run, the median of
 * DB_ROUNDS rounds of DB_REPEAT runs, the three programs alternating.
 *
 * The default N is 2^23 (8M flows), the size `make bench BENCH=xdp`
 * measures the XDP lookups at (32 MiB of d-left cells, 15 MiB of blocked
 * filter: past this machine's L2 and at or past its share of the L3,
 * the case of a tracker of a busy link); the curve also runs 2^12 (cache
 * resident), 2^16 (the tracker's default capacity, in L2) and 2^20 (in
 * L3).  KBLOOM_DLEFT_KEYS="N ..." runs other counts; the last one is the
 * headline.  KBLOOM_DLEFT_PARTS=1 also times the parts of a connection,
 * each part with the ones before it: the two flows' hashes (dl_hash()),
 * their constants and positions (dl_ctx_set(), dl_positions_of()), their
 * scans (dl_scan(): the call of dl_once(), the constants and positions
 * again and the scan); the rest of insert + delete is the update.
 *
 * A run of db_insdel is both packets of a connection, a run of db_blocked
 * one packet: the harness's own cost of a run (BPF_PROG_TEST_RUN's loop,
 * timed as an empty program in the same rounds) is in each figure once.
 * A tracker pays it per packet, twice per connection: "as two runs"
 * counts it twice, (insert+delete + empty) / blocked, and is at most 2x
 * exactly when the work of insert + delete is at most twice the blocked
 * insert's.
 *
 * Output: two lines per N, then "dleft insert+delete time vs blocked
 * insert: N.Nx" (spread) and "dleft lines insert+delete time vs blocked
 * insert: N.Nx" at the headline N (the goal is at most 2x), and both as
 * two runs; build/bench-dleft.json (or $KBLOOM_BENCH_JSON).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "libkbloom.h"
#include "libkbloom_xdp_count.h"
#include "uapi/kbloom_plan.h"
#include "tests/bench/dleft_bench.skel.h"

#define DB_ROUNDS	9
#define DB_REPEAT	200000
#define DB_FPR		1000000000ULL	/* 0.1% in pico units */
#define DB_SIZES_MAX	16

static const __u64 db_default_sizes[] = { 1ULL << 12, 1ULL << 16,
					  1ULL << 20, 1ULL << 23 };

/* One filter count's figures: ns per run and the filters' sizes. */
struct db_point {
	__u64 n;
	struct kb_shape shape;	/* the d-left shape (spread) */
	struct kb_plan blk;	/* the blocked filter */
	__u64 p_dl;		/* d-left predicted rate, pico units */
	double spread, lines, blocked;
	double empty;		/* a program that does nothing */
	__u64 failed;
	__u64 why[16];		/* db_why of both layouts */
};

/* Mean ns per run of @prog over @repeat runs, or a negative errno. */
static double db_run(struct bpf_program *prog, __u32 repeat)
{
	__u8 frame[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame,
		    .data_size_in = sizeof(frame), .repeat = repeat);
	int ret = bpf_prog_test_run_opts(bpf_program__fd(prog), &o);

	return ret ? ret : (double)o.duration;
}

static int db_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The filters' shapes for @pt->n flows. */
static int db_plan(struct db_point *pt)
{
	struct kb_shape s = { .update = KB_DLEFT_LAYOUT_SPREAD };
	int ret = kbloom_xdp_conntrack_plan(pt->n, DB_FPR, &s);

	if (ret)
		return ret;
	pt->shape = s;
	pt->p_dl = kb_dleft_fpr_pico(pt->n, s.buckets, s.fp_bits);
	return kb_plan(KBLOOM_TYPE_BLOCKED, pt->n, pt->p_dl, 0, &pt->blk);
}

/*
 * The programs of one layout, loaded, their d-left filter (and, when
 * @blk, the blocked filter) filled with flows 0..n-1.
 */
static int db_load(struct dleft_bench **sp, const struct db_point *pt,
		   __u32 layout, int blk)
{
	struct kbloom_dleft_params p = {
		.hash_id = KBLOOM_HASH_FAST, .miss = KBLOOM_DLEFT_MISS_PASS,
		.ready = 1, .shape = pt->shape,
	};
	struct dleft_bench *s;
	__u32 zero = 0;
	int ret;

	p.shape.update = layout;
	p.q = kb_log2_exact(p.shape.buckets) + p.shape.fp_bits;
	p.nwords = kb_shape_words(&p.shape);
	*sp = s = dleft_bench__open();
	if (!s)
		return -errno;
	s->rodata->db_nblocks = blk ? (__u32)(pt->blk.m / KBLOOM_BLOCK_BITS) : 1;
	s->rodata->db_k = blk ? pt->blk.k : 1;
	bpf_map__set_max_entries(s->maps.db_blocks, s->rodata->db_nblocks);
	bpf_map__set_max_entries(s->maps.dleft_words, (__u32)p.nwords);
	ret = dleft_bench__load(s);
	ret = ret ?: bpf_map_update_elem(bpf_map__fd(s->maps.dleft_params),
					 &zero, &p, BPF_ANY);
	if (!ret && db_run(s->progs.db_fill, (__u32)pt->n) < 0)
		ret = -EIO;
	if (ret)
		return ret;
	if (s->bss->db_failed)
		return -ENOSPC;
	s->bss->db_next_blk = pt->n;
	s->bss->db_live = pt->n;
	return 0;
}

/* The medians of @prog's rounds (the breakdown of KBLOOM_DLEFT_PARTS). */
static double db_median(struct bpf_program *prog)
{
	double t[DB_ROUNDS];
	int r;

	for (r = 0; r < DB_ROUNDS; r++)
		t[r] = db_run(prog, DB_REPEAT);
	qsort(t, DB_ROUNDS, sizeof(double), db_cmp);
	return t[DB_ROUNDS / 2];
}

/* Where a connection's time goes: two hashes, two keys' positions. */
static int db_parts(struct dleft_bench *sp, struct dleft_bench *ln,
		    const struct db_point *pt)
{
	printf("%9llu flows: parts (spread): two hashes %.1f ns, and positions %.1f ns, and scans %.1f ns\n",
	       (unsigned long long)pt->n, db_median(sp->progs.db_part_hash),
	       db_median(sp->progs.db_part_ctx),
	       db_median(sp->progs.db_part_scan));
	printf("%9llu flows: parts (lines): two hashes %.1f ns, and positions %.1f ns, and scans %.1f ns\n",
	       (unsigned long long)pt->n, db_median(ln->progs.db_part_hash),
	       db_median(ln->progs.db_part_ctx),
	       db_median(ln->progs.db_part_scan));
	return 0;
}

/*
 * DB_ROUNDS rounds, the four programs alternating: spread, lines, blocked
 * and an empty one.
 */
static int db_rounds(struct dleft_bench *sp, struct dleft_bench *ln,
		     struct db_point *pt)
{
	double dl[DB_ROUNDS], dln[DB_ROUNDS], blk[DB_ROUNDS], emp[DB_ROUNDS];
	int r;

	for (r = 0; r < DB_ROUNDS; r++) {
		dl[r] = db_run(sp->progs.db_insdel, DB_REPEAT);
		dln[r] = db_run(ln->progs.db_insdel, DB_REPEAT);
		blk[r] = db_run(sp->progs.db_blocked, DB_REPEAT);
		emp[r] = db_run(sp->progs.db_empty, DB_REPEAT);
		if (dl[r] < 0 || dln[r] < 0 || blk[r] < 0 || emp[r] < 0)
			return -EIO;
	}
	qsort(dl, DB_ROUNDS, sizeof(double), db_cmp);
	qsort(dln, DB_ROUNDS, sizeof(double), db_cmp);
	qsort(blk, DB_ROUNDS, sizeof(double), db_cmp);
	qsort(emp, DB_ROUNDS, sizeof(double), db_cmp);
	pt->spread = dl[DB_ROUNDS / 2];
	pt->lines = dln[DB_ROUNDS / 2];
	pt->blocked = blk[DB_ROUNDS / 2];
	pt->empty = emp[DB_ROUNDS / 2];
	pt->failed = sp->bss->db_failed + ln->bss->db_failed;
	for (r = 0; r < 16; r++)
		pt->why[r] = sp->bss->db_why[r] + ln->bss->db_why[r];
	return getenv("KBLOOM_DLEFT_PARTS") ? db_parts(sp, ln, pt) : 0;
}

/* Why updates failed (db_why: enum dl_result of inserts, then deletes). */
static void db_why(const struct db_point *pt)
{
	/* enum dl_result: 1 absent, 2 full, 3 saturated, 4 race, 5 error */
	static const char *const what[16] = {
		[2] = "inserts full", [3] = "inserts saturated",
		[4] = "insert races", [5] = "insert errors",
		[8 + 1] = "deletes absent", [8 + 4] = "delete races",
		[8 + 5] = "delete errors",
	};
	int i;

	for (i = 0; i < 16; i++)
		if (pt->why[i])
			printf(": %s %llu", what[i] ? what[i] : "?",
			       (unsigned long long)pt->why[i]);
}

/*
 * Insert + delete as two packets against one: the run's own cost (an
 * empty program's) counted twice, as a SYN and a FIN each pay it, where
 * the bench's single run of both pays it once.
 */
static double db_two_runs(const struct db_point *pt, double dl)
{
	return (dl + pt->empty) / pt->blocked;
}

static void db_print(const struct db_point *pt)
{
	printf("%9llu flows: d-left %6.1f MiB (p %.4f%%), blocked %6.1f MiB k %u (p %.4f%%): spread %.1f ns, lines %.1f ns, blocked %.1f ns: %.2fx, lines %.2fx (failed updates: %llu",
	       (unsigned long long)pt->n,
	       kb_shape_words(&pt->shape) * 8.0 / (1 << 20),
	       pt->p_dl / 1e10, pt->blk.bytes / (double)(1 << 20), pt->blk.k,
	       pt->blk.fpr_pico / 1e10, pt->spread, pt->lines, pt->blocked,
	       pt->spread / pt->blocked, pt->lines / pt->blocked,
	       (unsigned long long)pt->failed);
	if (pt->failed)
		db_why(pt);
	printf(")\n");
	printf("%9llu flows: an empty program %.1f ns: as two runs (a SYN and a FIN each pay a run) %.2fx, lines %.2fx\n",
	       (unsigned long long)pt->n, pt->empty,
	       db_two_runs(pt, pt->spread), db_two_runs(pt, pt->lines));
	fflush(stdout);
}

/* Plan, fill and time the filters of @pt->n flows. */
static int db_point(struct db_point *pt)
{
	struct dleft_bench *sp = NULL, *ln = NULL;
	int ret = db_plan(pt);

	ret = ret ?: db_load(&sp, pt, KB_DLEFT_LAYOUT_SPREAD, 1);
	ret = ret ?: db_load(&ln, pt, KB_DLEFT_LAYOUT_LINES, 0);
	ret = ret ?: db_rounds(sp, ln, pt);
	if (!ret)
		db_print(pt);
	dleft_bench__destroy(ln);
	dleft_bench__destroy(sp);
	return ret;
}

static void db_json(const struct db_point *pts, int np)
{
	const char *path = getenv("KBLOOM_BENCH_JSON") ?: "build/bench-dleft.json";
	const struct db_point *h = &pts[np - 1];
	FILE *f = fopen(path, "w");
	int i;

	if (!f)
		return;
	fprintf(f, "{\"flows\": %llu, \"dleft_insdel_ns\": %.1f, \"dleft_lines_insdel_ns\": %.1f, \"blocked_insert_ns\": %.1f, \"empty_run_ns\": %.1f, \"dleft insert+delete time vs blocked insert\": %.3f, \"dleft lines insert+delete time vs blocked insert\": %.3f, \"as two runs\": %.3f, \"lines as two runs\": %.3f, \"curve\": [",
		(unsigned long long)h->n, h->spread, h->lines, h->blocked,
		h->empty, h->spread / h->blocked, h->lines / h->blocked,
		db_two_runs(h, h->spread), db_two_runs(h, h->lines));
	for (i = 0; i < np; i++)
		fprintf(f, "%s{\"flows\": %llu, \"dleft_bytes\": %llu, \"blocked_bytes\": %llu, \"spread\": %.3f, \"lines\": %.3f, \"spread_two_runs\": %.3f, \"lines_two_runs\": %.3f}",
			i ? ", " : "", (unsigned long long)pts[i].n,
			(unsigned long long)kb_shape_words(&pts[i].shape) * 8,
			(unsigned long long)pts[i].blk.bytes,
			pts[i].spread / pts[i].blocked,
			pts[i].lines / pts[i].blocked,
			db_two_runs(&pts[i], pts[i].spread),
			db_two_runs(&pts[i], pts[i].lines));
	fprintf(f, "]}\n");
	fclose(f);
}

/* The flow counts to run: $KBLOOM_DLEFT_KEYS or the default curve. */
static int db_sizes(struct db_point *pts)
{
	const char *env = getenv("KBLOOM_DLEFT_KEYS");
	char *end;
	int np = 0;

	if (!env) {
		for (; np < (int)(sizeof(db_default_sizes) / sizeof(db_default_sizes[0])); np++)
			pts[np].n = db_default_sizes[np];
		return np;
	}
	while (np < DB_SIZES_MAX) {
		pts[np].n = strtoull(env, &end, 0);
		if (end == env)
			break;
		if (!pts[np].n || pts[np].n > KBLOOM_M_MAX)
			return -1;
		np++;
		env = end;
	}
	return np ? np : -1;
}

int main(void)
{
	struct db_point pts[DB_SIZES_MAX] = { 0 };
	const struct db_point *h;
	int i, np = db_sizes(pts), ret = 0;

	if (np < 0) {
		fprintf(stderr, "bench dleft: KBLOOM_DLEFT_KEYS: flow counts 1..2^32 separated by spaces\n");
		return 1;
	}
	for (i = 0; !ret && i < np; i++)
		ret = db_point(&pts[i]);
	if (ret) {
		fprintf(stderr, "bench dleft: %llu flows: %s\n",
			(unsigned long long)pts[i - 1].n, strerror(-ret));
		return 1;
	}
	h = &pts[np - 1];
	printf("dleft insert+delete time vs blocked insert: %.2fx (%llu flows)\n",
	       h->spread / h->blocked, (unsigned long long)h->n);
	printf("dleft lines insert+delete time vs blocked insert: %.2fx (%llu flows)\n",
	       h->lines / h->blocked, (unsigned long long)h->n);
	printf("dleft insert+delete as two runs vs blocked insert: %.2fx, lines %.2fx (%llu flows)\n",
	       db_two_runs(h, h->spread), db_two_runs(h, h->lines),
	       (unsigned long long)h->n);
	db_json(pts, np);
	return 0;
}
