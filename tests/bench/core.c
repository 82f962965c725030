// SPDX-License-Identifier: GPL-2.0
/*
 * make bench BENCH=core: libkbloom against Debian's libbloom (1.6) on the
 * same keys, same n and same target p, in the same run.
 *
 * A blocked filter and a libbloom filter are sized for N = 10M keys at
 * p = 1%.  Inserts: INS = 2M keys (a different slice of the N each
 * repetition) into the cleared full-size filter, so every insert touches
 * memory the size of the 10M-key filter.  Lookups: both filters then hold
 * the same N random 8-byte keys; the lookup set is L = 2M keys, half of
 * them inserted and half not, shuffled.  Figures are
 * throughputs in millions of operations per second, each the median of
 * REPS repetitions; the repetitions of the two libraries alternate, so
 * that drift in the machine's speed hits both.
 *
 *   lookup single   kbloom_test() per key      vs bloom_check() per key
 *                   (inlined: this program is built with -march=native)
 *   lookup batched  kbloom_test_batch()        vs bloom_check() per key
 *   insert          kbloom_add_batch() into a KBLOOM_OPT_SINGLE_WRITER
 *                   filter (plain stores)      vs bloom_add() per key
 *   insert concurrent, insert single ...: the same into a filter open to
 *                   concurrent writers (atomic ORs), and kbloom_add() per
 *                   key, each against bloom_add()
 *
 * Extra rows explain the numbers: libbloom given transparent huge pages
 * like kbloom (madvise), the SipHash-1-3 hash id, and the floor: the same
 * hash and one random 8-byte load from an array of the filter's size.
 *
 * Output: the table, one "core <what> vs libbloom: N.Nx" line per goal,
 * and build/bench-core.json (or $KBLOOM_BENCH_JSON).
 */
#include <bloom.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>

#include "libkbloom.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"

#define N		10000000U
#define L		2000000U	/* lookups per repetition */
#define INS		2000000U	/* inserts per repetition */
#define P_PICO		10000000000ULL	/* 1% */
#ifndef REPS
#define REPS		5
#endif
#define BATCH		1024U

static __u64 *ins_keys, *look_keys;
static volatile long sink;

static __u64 mix(__u64 x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void make_keys(void)
{
	__u64 i, j, t;

	ins_keys = malloc((size_t)N * 8);
	look_keys = malloc((size_t)L * 8);
	if (!ins_keys || !look_keys) {
		perror("malloc");
		exit(1);
	}
	for (i = 0; i < N; i++)
		ins_keys[i] = mix(i);
	/* half present (a random sample of the inserted), half absent */
	for (i = 0; i < L; i++)
		look_keys[i] = i & 1 ? mix(N + i) : ins_keys[mix(i) % N];
	for (i = L - 1; i > 0; i--) {
		j = mix(i ^ 0xABCDEF) % (i + 1);
		t = look_keys[i];
		look_keys[i] = look_keys[j];
		look_keys[j] = t;
	}
}

/* ---- the measured loops ---------------------------------------------- */

static double kb_insert_single(struct kbloom_filter *f, const __u64 *keys)
{
	double t0;
	__u32 i;

	kbloom_clear(f);
	t0 = now();
	for (i = 0; i < INS; i++)
		kbloom_add(f, &keys[i], 8);
	return INS / (now() - t0) / 1e6;
}

static double kb_insert_batch(struct kbloom_filter *f, const __u64 *keys)
{
	double t0;
	__u32 i;

	kbloom_clear(f);
	t0 = now();
	for (i = 0; i < INS; i += BATCH)
		kbloom_add_batch(f, &keys[i], BATCH * 8, 8,
				 INS - i < BATCH ? INS - i : BATCH);
	return INS / (now() - t0) / 1e6;
}

static double kb_lookup_single(struct kbloom_filter *f)
{
	double t0;
	long hits = 0;
	__u32 i;

	t0 = now();
	for (i = 0; i < L; i++)
		hits += kbloom_test(f, &look_keys[i], 8);
	t0 = L / (now() - t0) / 1e6;
	sink = hits;
	return t0;
}

static double kb_lookup_batch(struct kbloom_filter *f)
{
	static __u8 res[BATCH / 8];
	double t0;
	long hits = 0;
	__u32 i;

	t0 = now();
	for (i = 0; i < L; i += BATCH)
		hits += kbloom_test_batch(f, &look_keys[i], BATCH * 8, 8,
					  L - i < BATCH ? L - i : BATCH, res);
	t0 = L / (now() - t0) / 1e6;
	sink = hits;
	return t0;
}

static double lb_insert(struct bloom *b, const __u64 *keys, __u32 n)
{
	double t0;
	__u32 i;

	bloom_reset(b);
	t0 = now();
	for (i = 0; i < n; i++)
		bloom_add(b, &keys[i], 8);
	return n / (now() - t0) / 1e6;
}

static double lb_lookup(struct bloom *b)
{
	double t0;
	long hits = 0;
	__u32 i;

	t0 = now();
	for (i = 0; i < L; i++)
		hits += bloom_check(b, &look_keys[i], 8);
	t0 = L / (now() - t0) / 1e6;
	sink = hits;
	return t0;
}

/* The floor: the same hash, one random load from an array as large. */
static double floor_lookup(const __u64 *arr, __u64 nwords, __u64 seed)
{
	double t0;
	__u64 acc = 0;
	__u32 i;

	t0 = now();
	for (i = 0; i < L; i++) {
		__u64 h = kb_hash_fast(seed, &look_keys[i], 8);

		acc += __atomic_load_n(&arr[kb_reduce32(h >> 32, nwords)],
				       __ATOMIC_RELAXED) & 1;
	}
	t0 = L / (now() - t0) / 1e6;
	sink = (long)acc;
	return t0;
}

static long count_hits_kb(struct kbloom_filter *f)
{
	return kbloom_test_batch(f, look_keys, (size_t)L * 8, 8, L, NULL);
}

static long count_hits_lb(struct bloom *b)
{
	long hits = 0;
	__u32 i;

	for (i = 0; i < L; i++)
		hits += bloom_check(b, &look_keys[i], 8);
	return hits;
}

/* ---- bookkeeping ------------------------------------------------------- */

enum {
	F_LB_INS, F_LB_LOOK, F_LBH_LOOK,
	F_KB_INS1, F_KB_INSB, F_SW_INS1, F_SW_INSB, F_KB_LOOK1, F_KB_LOOKB,
	F_SIP_LOOK1, F_SIP_LOOKB, F_FLOOR,
	F_NUM,
};

static const char *const fig_name[F_NUM] = {
	[F_LB_INS] = "libbloom insert",
	[F_LB_LOOK] = "libbloom lookup",
	[F_LBH_LOOK] = "libbloom+THP lookup",
	[F_KB_INS1] = "kbloom insert single (concurrent)",
	[F_KB_INSB] = "kbloom insert batched (concurrent)",
	[F_SW_INS1] = "kbloom insert single (1 writer)",
	[F_SW_INSB] = "kbloom insert batched (1 writer)",
	[F_KB_LOOK1] = "kbloom lookup single",
	[F_KB_LOOKB] = "kbloom lookup batched",
	[F_SIP_LOOK1] = "kbloom siphash lookup single",
	[F_SIP_LOOKB] = "kbloom siphash lookup batched",
	[F_FLOOR] = "floor: hash + 1 random load",
};

static const char *const fig_key[F_NUM] = {
	[F_LB_INS] = "libbloom_insert",
	[F_LB_LOOK] = "libbloom_lookup",
	[F_LBH_LOOK] = "libbloom_thp_lookup",
	[F_KB_INS1] = "kbloom_insert_single",
	[F_KB_INSB] = "kbloom_insert_batched",
	[F_SW_INS1] = "kbloom_single_writer_insert_single",
	[F_SW_INSB] = "kbloom_single_writer_insert_batched",
	[F_KB_LOOK1] = "kbloom_lookup_single",
	[F_KB_LOOKB] = "kbloom_lookup_batched",
	[F_SIP_LOOK1] = "kbloom_siphash_lookup_single",
	[F_SIP_LOOKB] = "kbloom_siphash_lookup_batched",
	[F_FLOOR] = "floor_hash_one_load",
};

static double runs[F_NUM][REPS], fig[F_NUM];

/* the ratio lines: kbloom figure / libbloom figure */
enum {
	R_LOOK1, R_LOOKB, R_INS, R_INS1_SW, R_INSB_CONC, R_INS1_CONC, R_NUM,
};

static const struct {
	const char *line, *key;
	int kb, lb;
} ratio_def[R_NUM] = {
	[R_LOOK1] = { "lookup single", "lookup_single_vs_libbloom",
		      F_KB_LOOK1, F_LB_LOOK },
	[R_LOOKB] = { "lookup batched", "lookup_batched_vs_libbloom",
		      F_KB_LOOKB, F_LB_LOOK },
	[R_INS] = { "insert", "insert_vs_libbloom", F_SW_INSB, F_LB_INS },
	[R_INS1_SW] = { "insert single single-writer",
			"insert_single_single_writer_vs_libbloom",
			F_SW_INS1, F_LB_INS },
	[R_INSB_CONC] = { "insert concurrent",
			  "insert_concurrent_vs_libbloom", F_KB_INSB,
			  F_LB_INS },
	[R_INS1_CONC] = { "insert single concurrent",
			  "insert_single_concurrent_vs_libbloom", F_KB_INS1,
			  F_LB_INS },
};


/* Give libbloom's array transparent huge pages, as kbloom has. */
static void lb_thp(struct bloom *b)
{
	__u64 start = ((__u64)(unsigned long)b->bf + 4095) & ~4095ULL;
	__u64 end = ((__u64)(unsigned long)b->bf + b->bytes) & ~4095ULL;

	if (end > start)
		madvise((void *)(unsigned long)start, end - start,
			MADV_HUGEPAGE);
}

static void write_json(const char *path, const struct kbloom_stats *st,
		       const struct bloom *b, const double *ratio)
{
	FILE *out = fopen(path, "w");
	struct utsname u;
	int i;

	if (!out) {
		perror(path);
		return;
	}
	uname(&u);
	fprintf(out, "{\n \"n\": %u,\n \"p\": 0.01,\n \"lookups\": %u,\n", N, L);
	fprintf(out, " \"inserts\": %u,\n", INS);
	fprintf(out, " \"reps\": %d,\n \"statistic\": \"median\",\n", REPS);
	fprintf(out, " \"unit\": \"Mops/s\",\n \"machine\": \"%s %s\",\n",
		u.machine, u.release);
	fprintf(out, " \"kbloom\": {\"type\": \"blocked\", \"m\": %llu, \"k\": %u, \"bytes\": %llu},\n",
		(unsigned long long)st->m, st->k,
		(unsigned long long)st->bytes);
	fprintf(out, " \"libbloom\": {\"bits\": %d, \"k\": %d, \"bytes\": %d},\n",
		b->bits, b->hashes, b->bytes);
	fprintf(out, " \"mops\": {");
	for (i = 0; i < F_NUM; i++)
		fprintf(out, "%s\n  \"%s\": %.2f", i ? "," : "", fig_key[i],
			fig[i]);
	fprintf(out, "\n },\n \"ratios\": {\n");
	for (i = 0; i < R_NUM; i++)
		fprintf(out, "%s\n  \"%s\": %.2f", i ? "," : "", ratio_def[i].key,
			ratio[i]);
	fprintf(out, "\n },\n \"goals\": {\"lookup_single\": 2.5, \"lookup_batched\": 8.0, \"insert\": 4.0}\n}\n");
	fclose(out);
}

int main(void)
{
	struct kbloom_opts sip = { .hash_id = KBLOOM_HASH_SIPHASH13,
				   .seed = 0x5EED };
	struct kbloom_opts fast = { .seed = 0x5EED };
	struct kbloom_opts sw = { .seed = 0x5EED,
				  .flags = KBLOOM_OPT_SINGLE_WRITER };
	struct kbloom_filter *f, *fs, *fw;
	const char *json = getenv("KBLOOM_BENCH_JSON");
	struct bloom b, bh;
	struct kbloom_stats st;
	double ratio[R_NUM], t0 = now();
	__u64 *floor_arr, nw;
	long hk, hl;
	int r, i;

	make_keys();
	if (kbloom_create(KBLOOM_TYPE_BLOCKED, N, P_PICO, &fast, &f) ||
	    kbloom_create(KBLOOM_TYPE_BLOCKED, N, P_PICO, &sip, &fs) ||
	    kbloom_create(KBLOOM_TYPE_BLOCKED, N, P_PICO, &sw, &fw) ||
	    bloom_init(&b, N, 0.01) || bloom_init(&bh, N, 0.01)) {
		fprintf(stderr, "core: cannot create the filters\n");
		return 1;
	}
	lb_thp(&bh);
	kbloom_stats(f, &st);
	kbloom_words(f, &nw);
	floor_arr = malloc(nw * 8);
	if (!floor_arr)
		return 1;
	for (i = 0; i < (int)nw; i++)	/* distinct pages, not the zero page */
		floor_arr[i] = mix(i);
	/* inserts: a different slice of INS keys each time, into the
	 * cleared (full-size) filters */
	for (r = 0; r < REPS; r++) {
		const __u64 *slice = ins_keys + (__u64)r * INS % (N - INS + 1);

		runs[F_LB_INS][r] = lb_insert(&b, slice, INS);
		runs[F_KB_INS1][r] = kb_insert_single(f, slice);
		runs[F_KB_INSB][r] = kb_insert_batch(f, slice);
		runs[F_SW_INS1][r] = kb_insert_single(fw, slice);
		runs[F_SW_INSB][r] = kb_insert_batch(fw, slice);
	}
	/* then all N keys in every filter for the lookups */
	kbloom_clear(f);
	kbloom_add_batch(f, ins_keys, (size_t)N * 8, 8, N);
	kbloom_add_batch(fs, ins_keys, (size_t)N * 8, 8, N);
	lb_insert(&b, ins_keys, N);
	lb_insert(&bh, ins_keys, N);
	hk = count_hits_kb(f);
	hl = count_hits_lb(&b);
	for (r = 0; r < REPS; r++) {
		runs[F_LB_LOOK][r] = lb_lookup(&b);
		runs[F_KB_LOOK1][r] = kb_lookup_single(f);
		runs[F_LBH_LOOK][r] = lb_lookup(&bh);
		runs[F_KB_LOOKB][r] = kb_lookup_batch(f);
		runs[F_SIP_LOOK1][r] = kb_lookup_single(fs);
		runs[F_SIP_LOOKB][r] = kb_lookup_batch(fs);
		runs[F_FLOOR][r] = floor_lookup(floor_arr, nw, 0x5EED);
	}
	for (i = 0; i < F_NUM; i++)
		fig[i] = median(runs[i], REPS);

	printf("core: n = %u keys of 8 bytes, p = 1%%, %u inserts, %u lookups (half present), median of %d\n",
	       N, INS, L, REPS);
	printf("  kbloom blocked: m = %llu bits (%.1f MiB), k = %u; libbloom: %d bits (%.1f MiB), k = %d\n",
	       (unsigned long long)st.m, st.bytes / 1048576.0, st.k, b.bits,
	       b.bytes / 1048576.0, b.hashes);
	printf("  hits: kbloom %ld, libbloom %ld of %u (%u present)\n", hk, hl,
	       L, L / 2);
	printf("  %-32s %10s\n", "figure", "Mops/s");
	for (i = 0; i < F_NUM; i++)
		printf("  %-32s %10.2f\n", fig_name[i], fig[i]);
	printf("  %-32s %9.1fx\n", "insert single vs libbloom",
	       fig[F_KB_INS1] / fig[F_LB_INS]);
	printf("  %-32s %9.1fx\n", "lookup single vs libbloom+THP",
	       fig[F_KB_LOOK1] / fig[F_LBH_LOOK]);
	printf("  %-32s %9.1fx\n", "lookup batched vs libbloom+THP",
	       fig[F_KB_LOOKB] / fig[F_LBH_LOOK]);
	for (i = 0; i < R_NUM; i++) {
		ratio[i] = fig[ratio_def[i].kb] / fig[ratio_def[i].lb];
		printf("core %s vs libbloom: %.1fx\n", ratio_def[i].line,
		       ratio[i]);
	}
	printf("  (%.0f s)\n", now() - t0);
	write_json(json ? json : "build/bench-core.json", &st, &b, ratio);
	bloom_free(&b);
	bloom_free(&bh);
	kbloom_destroy(f);
	kbloom_destroy(fs);
	kbloom_destroy(fw);
	free(floor_arr);
	free(ins_keys);
	free(look_keys);
	return hk < L / 2 || hl < L / 2;
}
