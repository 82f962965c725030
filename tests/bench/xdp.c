// SPDX-License-Identifier: GPL-2.0
/*
 * make bench BENCH=xdp: the XDP-side blocked filter (bpf/kbloom_bpf.h)
 * against the kernel's BPF_MAP_TYPE_BLOOM_FILTER and against the floor,
 * on the host, through BPF_PROG_TEST_RUN with repeat.
 *
 * For n = 10k keys (the filters fit in L1/L2) and n = 8M keys (9.4 MiB of
 * kbloom blocks, 16 MiB of kernel bitmap: far beyond L2, on the 4 KiB
 * pages of vmalloc), target p = 1%:
 *
 *   - kbloom: a blocked filter planned by libkbloom for (n, 1%), in two
 *     blocks maps holding the same bits: kb_blocks, named by the program
 *     (a program that owns its filter, kbloom_bpf_test_hash_k()), and
 *     kb_inner behind a filter table (params hash map + array of maps),
 *     as the mcast and gate paths reach theirs;
 *   - the kernel's bloom map with max_entries = n and nr_hashes =
 *     round(-log2(0.01)) = 7, sized as the kernel sizes it
 *     (n * 7 * 7 / 5 bits rounded up to a power of two);
 *   - a cuckoo filter (bpf/kbloom_cuckoo.h) planned by libkbloom_cuckoo
 *     for (n, 1%) and filled by it, behind its filter table as the gate's
 *     cuckoo variant reaches it: its absent lookup against the blocked
 *     table lookup is the line "cuckoo absent lookup time vs table absent
 *     lookup" (goal at 8M: <= 1.3x);
 *   - the floor: the key and one random load from an array map of the
 *     filter's size, the next run waiting for it (one cache miss per
 *     run); the same load without the wait (misses of consecutive runs
 *     overlap: miss throughput); the key alone.
 *
 * Both filters are filled from BPF by the insert programs (repeat = n, a
 * pass of fresh keys, timed too), then checked: the kbloom blocks must
 * equal, word for word, the filter the uapi definition gives for the same
 * keys (and libkbloom's, else a warning), and every present key must be
 * found by every lookup.
 *
 * Every program does one operation per run on key i of xdp_bench.h, i
 * walking 0..n-1, so each run probes another random place of the filter.
 * Each figure is ns per run, the median of ROUNDS rounds; in a round
 * every program runs once with repeat R (a few ms), in an order that
 * rotates between rounds, so that the machine's drift hits all alike.
 * The kernel reports the mean per run truncated to a whole ns; the wall
 * time of the call refines it when it agrees (nothing ran in between),
 * else the midpoint is taken.
 *
 * Output: a table; the lines "xdp <n> <what> vs <baseline>: N.Nx", where
 * "X vs BPF_MAP_TYPE_BLOOM_FILTER" is a speedup (its time / kbloom's) and
 * "X time vs ..." a cost (kbloom's time / the baseline's); and
 * build/bench-xdp.json (or $KBLOOM_BENCH_JSON).
 *
 * Environment: XDP_BENCH_EXPERIMENTS=1 adds the alternative programs of
 * xdp_bench.bpf.c; XDP_BENCH_N=<n> runs that size alone;
 * XDP_BENCH_ROUNDS=<r>; XDP_BENCH_SPREAD=1 prints the quartiles;
 * XDP_BENCH_HOLD=1 stops after loading, for bpftool prog dump.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "libkbloom.h"
#include "libkbloom_cuckoo.h"
#include "uapi/kbloom_xdp_maps.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"
#include "tests/bench/xdp_bench.h"
#include "tests/bench/xdp_bench.skel.h"

#define P_PICO		10000000000ULL	/* 1% */
#define BF_HASHES	7U		/* round(-log2(0.01)) */
#define SEED		0x5eedULL
#define ROUNDS		101
#define ROUNDS_MAX	1001

enum {
	P_BARE, P_FLOOR, P_FLOOR_OVL, P_HASH,
	P_KB_PRESENT, P_KB_ABSENT, P_KB_INSERT,
	P_TBL_PRESENT, P_TBL_ABSENT, P_TBL_INSERT, P_TBL_BLOCKS, P_TBL_PARAMS,
	P_BF_PRESENT, P_BF_ABSENT, P_BF_PUSH,
	P_CK_PRESENT, P_CK_ABSENT,
	P_OLD_PRESENT, P_OLD_ABSENT, P_PW_PRESENT, P_PW_ABSENT, P_INS8,
	P_BW_PRESENT, P_BW_ABSENT,
	NPROG,
};
#define P_FIRST_EXP	P_OLD_PRESENT

static const struct {
	const char *prog;	/* in xdp_bench.bpf.c */
	const char *label;
	int hit;		/* hits[] slot, -1: none */
	int present;		/* every run must hit */
} progs[NPROG] = {
	[P_BARE] = { "xb_bare", "key only (bare)", -1, 0 },
	[P_FLOOR] = { "xb_floor", "floor: one miss per run", -1, 0 },
	[P_FLOOR_OVL] = { "xb_floor_ovl", "floor, misses overlapping", -1, 0 },
	[P_HASH] = { "xb_hash_only", "key + hash + mask, no memory", -1, 0 },
	[P_KB_PRESENT] = { "xb_kb_present", "kbloom lookup, present", XB_KB_PRESENT, 1 },
	[P_KB_ABSENT] = { "xb_kb_absent", "kbloom lookup, absent", XB_KB_ABSENT, 0 },
	[P_KB_INSERT] = { "xb_kb_insert", "kbloom insert", -1, 0 },
	[P_TBL_PRESENT] = { "xb_tbl_present", "table lookup, present", XB_TBL_PRESENT, 1 },
	[P_TBL_ABSENT] = { "xb_tbl_absent", "table lookup, absent", XB_TBL_ABSENT, 0 },
	[P_TBL_INSERT] = { "xb_tbl_insert", "table insert", -1, 0 },
	[P_TBL_BLOCKS] = { "xb_tbl_blocks", " .. array of maps only, present", XB_TBL_BLOCKS, 1 },
	[P_TBL_PARAMS] = { "xb_tbl_params", " .. params hash only, present", XB_TBL_PARAMS, 1 },
	[P_BF_PRESENT] = { "xb_bf_present", "BLOOM_FILTER peek, present", XB_BF_PRESENT, 1 },
	[P_BF_ABSENT] = { "xb_bf_absent", "BLOOM_FILTER peek, absent", XB_BF_ABSENT, 0 },
	[P_BF_PUSH] = { "xb_bf_push", "BLOOM_FILTER push", -1, 0 },
	[P_CK_PRESENT] = { "xb_ck_present", "cuckoo table lookup, present", XB_CK_PRESENT, 1 },
	[P_CK_ABSENT] = { "xb_ck_absent", "cuckoo table lookup, absent", XB_CK_ABSENT, 0 },
	[P_OLD_PRESENT] = { "xb_old_present", "exp: early-exit test, present", XB_OLD_PRESENT, 1 },
	[P_OLD_ABSENT] = { "xb_old_absent", "exp: early-exit test, absent", XB_OLD_ABSENT, 0 },
	[P_PW_PRESENT] = { "xb_pw_present", "exp: probe-wise test, present", XB_PW_PRESENT, 1 },
	[P_PW_ABSENT] = { "xb_pw_absent", "exp: probe-wise test, absent", XB_PW_ABSENT, 0 },
	[P_INS8] = { "xb_ins8", "exp: insert, 8 atomic ORs", -1, 0 },
	[P_BW_PRESENT] = { "xb_bw_present", "exp: bytewise hash, present", XB_BW_PRESENT, 1 },
	[P_BW_ABSENT] = { "xb_bw_absent", "exp: bytewise hash, absent", XB_BW_ABSENT, 0 },
};

struct size_run {
	__u32 n;
	__u32 repeat;		/* runs per measurement */
	__u64 m;		/* kbloom bits */
	__u32 k;
	__u64 bf_bits;		/* kernel bitmap bits */
	double ns[NPROG];	/* medians */
	double q1[NPROG], q3[NPROG];
	double fill[NPROG];	/* the fill pass: fresh keys */
	double fpr_kb, fpr_tbl, fpr_bf, fpr_ck;
	struct kbloom_cuckoo_params ck;	/* the cuckoo filter's parameters */
	char name[16];
};

static int nprog = P_FIRST_EXP;
static int rounds = ROUNDS;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int die(const char *what, int err)
{
	fprintf(stderr, "xdp bench: %s: %s\n", what, strerror(err < 0 ? -err : err));
	return -1;
}

/* ns per run of @repeat runs, or a negative errno. */
static double time_prog(int fd, __u32 repeat)
{
	__u8 frame[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = frame,
		.data_size_in = sizeof(frame),
		.repeat = repeat,
	);
	double t0, wall;

	t0 = now();
	if (bpf_prog_test_run_opts(fd, &o))
		return -errno;
	wall = (now() - t0) * 1e9 / repeat;
	if (o.retval == XDP_ABORTED)
		return -EIO;
	if (wall >= o.duration && wall < o.duration + 1.0)
		return wall;
	return o.duration + 0.5;
}

/* The kernel's bitmap size for (max_entries, nr_hashes): bloom_map_alloc(). */
static __u64 bf_bits(__u32 n, __u32 k)
{
	__u64 bits = (__u64)n * k / 5 * 7, p = 64;

	if (bits > (1ULL << 31))
		return 1ULL << 32;
	while (p < bits)
		p <<= 1;
	return p;
}

/*
 * The blocks of @map_fd against @ref (the uapi definition), and
 * libkbloom's filter of the same keys (a warning only: the benchmark
 * measures the BPF side).
 */
static int check_blocks(const __u64 *ref, const struct kbloom_filter *lib,
			__u64 nwords, int map_fd, const char *what)
{
	const __u64 *w = kbloom_words(lib, NULL);
	__u64 bytes = nwords * 8, i, diff = 0;
	void *mem;
	int ret = 0;

	mem = mmap(NULL, bytes, PROT_READ, MAP_SHARED, map_fd, 0);
	if (mem == MAP_FAILED)
		return die("mmap blocks", errno);
	if (memcmp(mem, ref, bytes)) {
		fprintf(stderr, "xdp bench: %s differs from the uapi filter of the same keys\n",
			what);
		ret = -1;
	} else if (memcmp(mem, w, bytes)) {
		for (i = 0; i < nwords; i++)
			diff += w[i] != ref[i];
		fprintf(stderr, "xdp bench: WARNING: libkbloom's filter of the same keys differs from the uapi definition in %llu of %llu words\n",
			(unsigned long long)diff, (unsigned long long)nwords);
	}
	munmap(mem, bytes);
	return ret;
}

/* The reference filters: the uapi definition, libkbloom. */
static int build_refs(struct size_run *r, __u64 **refp,
		      struct kbloom_filter **libp)
{
	struct kbloom_opts ko = { .hash_id = KBLOOM_HASH_FAST, .seed = SEED };
	__u64 mask[KBLOOM_BLOCK_WORDS], h, *ref;
	struct kbloom_stats st;
	struct xb_key key;
	__u32 i, j, b, nblocks;
	int err;

	err = kbloom_create(KBLOOM_TYPE_BLOCKED, r->n, P_PICO, &ko, libp);
	if (err)
		return die("kbloom_create", err);
	kbloom_stats(*libp, &st);
	r->m = st.m;
	r->k = st.k;
	r->bf_bits = bf_bits(r->n, BF_HASHES);
	nblocks = r->m / KBLOOM_BLOCK_BITS;
	ref = calloc(nblocks, KBLOOM_BLOCK_BYTES);
	if (!ref)
		return die("calloc", ENOMEM);
	for (i = 0; i < r->n; i++) {
		xb_key(&key, i, 0);
		kbloom_add(*libp, &key, sizeof(key));
		h = kb_hash(KBLOOM_HASH_FAST, SEED, &key, sizeof(key));
		b = kb_block_index(h, nblocks);
		kb_block_mask(h, r->k, mask);
		for (j = 0; j < KBLOOM_BLOCK_WORDS; j++)
			ref[(__u64)b * KBLOOM_BLOCK_WORDS + j] |= mask[j];
	}
	*refp = ref;
	return 0;
}

/*
 * The cuckoo filter of the n present keys, planned for (n, 1%) by
 * libkbloom_cuckoo, and its parameters as the programs read them.
 */
static int build_cuckoo(struct size_run *r, struct kbloom_cuckoo **cp)
{
	struct kbloom_opts ko = { .hash_id = KBLOOM_HASH_FAST, .seed = SEED };
	struct kbloom_cuckoo_stats st;
	struct kbloom_cuckoo_params *p = &r->ck;
	struct xb_key key;
	__u32 i;
	int err;

	err = kbloom_cuckoo_create(r->n, P_PICO, &ko, cp);
	for (i = 0; !err && i < r->n; i++) {
		xb_key(&key, i, 0);
		err = kbloom_cuckoo_add(*cp, &key, sizeof(key));
	}
	if (err)
		return die("the cuckoo filter", err);
	kbloom_cuckoo_stats(*cp, &st);
	memset(p, 0, sizeof(*p));
	p->shape = st.shape;
	p->version = KBLOOM_XDP_LAYOUT_VERSION;
	p->hash_id = KBLOOM_HASH_FAST;
	p->seed = SEED;
	p->nwords = kb_shape_words(&st.shape);
	p->nblocks = (__u32)((p->nwords + KBLOOM_BLOCK_WORDS - 1) /
			     KBLOOM_BLOCK_WORDS);
	p->inserted = st.inserted;
	p->capacity = r->n;
	p->fpr_pico = P_PICO;
	return 0;
}

/* The cuckoo filter's words into ck_inner, its table: ck_params, ck_filters. */
static int load_cuckoo(struct xdp_bench *skel, const struct size_run *r,
		       const struct kbloom_cuckoo *c)
{
	const __u64 *w = kbloom_cuckoo_words(c, NULL);
	size_t bytes = (size_t)r->ck.nblocks * KBLOOM_BLOCK_BYTES;
	__u32 zero = 0, fd = bpf_map__fd(skel->maps.ck_inner);
	void *mem;

	mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED)
		return die("mmap the cuckoo blocks", errno);
	memcpy(mem, w, r->ck.nwords * 8);
	munmap(mem, bytes);
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.ck_filters), &zero, &fd, 0) ||
	    bpf_map_update_elem(bpf_map__fd(skel->maps.ck_params), &zero, &r->ck, 0))
		return die("fill the cuckoo table", errno);
	return 0;
}

static int run_size(struct size_run *r)
{
	static double samples[NPROG][ROUNDS_MAX];
	struct kbloom_filter *lib = NULL;
	struct kbloom_cuckoo *ck = NULL;
	struct xdp_bench *skel = NULL;
	struct bpf_program *prog;
	__u64 runs[NPROG] = { 0 }, *ref = NULL;
	struct kbloom_params p;
	__u32 i, zero = 0, nblocks;
	int fd[NPROG];
	int ret = -1, rep, j, pi, err;
	double ns;

	if (build_refs(r, &ref, &lib) || build_cuckoo(r, &ck))
		goto out;
	nblocks = r->m / KBLOOM_BLOCK_BITS;

	skel = xdp_bench__open();
	if (!skel) {
		die("open the programs", errno);
		goto out;
	}
	skel->rodata->cfg.n = r->n;
	skel->rodata->cfg.nblocks = nblocks;
	skel->rodata->cfg.k = r->k;
	skel->rodata->cfg.hash_id = KBLOOM_HASH_FAST;
	skel->rodata->cfg.seed = SEED;
	bpf_map__set_max_entries(skel->maps.kb_blocks, nblocks);
	bpf_map__set_max_entries(skel->maps.kb_inner, nblocks);
	bpf_map__set_max_entries(skel->maps.ck_inner, r->ck.nblocks);
	bpf_map__set_max_entries(skel->maps.kbf, r->n);
	bpf_map__set_map_extra(skel->maps.kbf, BF_HASHES);
	for (pi = P_FIRST_EXP; pi < NPROG && nprog < NPROG; pi++) {
		prog = bpf_object__find_program_by_name(skel->obj, progs[pi].prog);
		if (prog)
			bpf_program__set_autoload(prog, false);
	}
	err = xdp_bench__load(skel);
	if (err) {
		die("load the programs (root? BPF?)", err);
		goto out;
	}
	/* the filter table: slot 0 -> kb_inner, parameters of filter id 0 */
	i = bpf_map__fd(skel->maps.kb_inner);
	err = bpf_map_update_elem(bpf_map__fd(skel->maps.kb_filters), &zero, &i, 0);
	memset(&p, 0, sizeof(p));
	p.type = KBLOOM_TYPE_BLOCKED;
	p.version = KBLOOM_XDP_LAYOUT_VERSION;
	p.k = r->k;
	p.hash_id = KBLOOM_HASH_FAST;
	p.seed = SEED;
	p.nblocks = nblocks;
	p.capacity = r->n;
	p.fpr_pico = P_PICO;
	if (!err)
		err = bpf_map_update_elem(bpf_map__fd(skel->maps.kb_params), &zero, &p, 0);
	if (err) {
		die("fill the filter table", errno);
		goto out;
	}
	if (load_cuckoo(skel, r, ck))
		goto out;
	for (pi = 0; pi < nprog; pi++) {
		prog = bpf_object__find_program_by_name(skel->obj, progs[pi].prog);
		fd[pi] = prog ? bpf_program__fd(prog) : -1;
		if (fd[pi] < 0) {
			die(progs[pi].prog, ENOENT);
			goto out;
		}
	}
	if (getenv("XDP_BENCH_HOLD")) {
		/* diagnostics: keep the programs loaded for bpftool */
		fprintf(stderr, "xdp bench: holding n = %u, pid %d\n", r->n, (int)getpid());
		pause();
	}

	/* fill: each insert program once over the n keys (fresh keys) */
	for (pi = 0; pi < nprog; pi++) {
		if (pi != P_KB_INSERT && pi != P_TBL_INSERT && pi != P_BF_PUSH)
			continue;
		r->fill[pi] = time_prog(fd[pi], r->n);
		if (r->fill[pi] < 0) {
			die(progs[pi].label, (int)r->fill[pi]);
			goto out;
		}
	}
	if (check_blocks(ref, lib, (__u64)nblocks * KBLOOM_BLOCK_WORDS,
			 bpf_map__fd(skel->maps.kb_blocks), "kb_blocks") ||
	    check_blocks(ref, lib, (__u64)nblocks * KBLOOM_BLOCK_WORDS,
			 bpf_map__fd(skel->maps.kb_inner), "kb_inner"))
		goto out;

	for (rep = 0; rep < rounds; rep++) {
		for (j = 0; j < nprog; j++) {
			pi = (j + rep) % nprog;
			ns = time_prog(fd[pi], r->repeat);
			if (ns < 0) {
				die(progs[pi].label, (int)ns);
				goto out;
			}
			samples[pi][rep] = ns;
			runs[pi] += r->repeat;
		}
	}
	for (pi = 0; pi < nprog; pi++) {
		qsort(samples[pi], rounds, sizeof(double), cmp_dbl);
		r->ns[pi] = samples[pi][rounds / 2];
		r->q1[pi] = samples[pi][rounds / 4];
		r->q3[pi] = samples[pi][3 * rounds / 4];
	}

	for (pi = 0; pi < nprog; pi++) {
		__u64 h;

		if (progs[pi].hit < 0 || !progs[pi].present)
			continue;
		h = skel->bss->hits[progs[pi].hit];
		if (h != runs[pi]) {
			fprintf(stderr, "xdp bench: %s found %llu of %llu present keys\n",
				progs[pi].label, (unsigned long long)h,
				(unsigned long long)runs[pi]);
			goto out;
		}
	}
	r->fpr_kb = (double)skel->bss->hits[XB_KB_ABSENT] / runs[P_KB_ABSENT];
	r->fpr_tbl = (double)skel->bss->hits[XB_TBL_ABSENT] / runs[P_TBL_ABSENT];
	r->fpr_bf = (double)skel->bss->hits[XB_BF_ABSENT] / runs[P_BF_ABSENT];
	r->fpr_ck = (double)skel->bss->hits[XB_CK_ABSENT] / runs[P_CK_ABSENT];
	ret = 0;
out:
	xdp_bench__destroy(skel);
	kbloom_cuckoo_destroy(ck);
	kbloom_destroy(lib);
	free(ref);
	return ret;
}

struct line {
	const char *what;	/* the ratio line after "xdp <n> " */
	int num, den;		/* ratio = ns[num] / ns[den] */
	double goal;		/* at 8M, 0: none */
	int le;			/* goal is ratio <= goal, else >= */
	const char *json;
};

static const struct line lines[] = {
	{ "present lookup vs BPF_MAP_TYPE_BLOOM_FILTER", P_BF_PRESENT, P_KB_PRESENT, 3.0, 0, "present_vs_bloom_map" },
	{ "absent lookup vs BPF_MAP_TYPE_BLOOM_FILTER", P_BF_ABSENT, P_KB_ABSENT, 1.2, 0, "absent_vs_bloom_map" },
	{ "insert vs BPF_MAP_TYPE_BLOOM_FILTER push", P_BF_PUSH, P_KB_INSERT, 3.0, 0, "insert_vs_bloom_map" },
	{ "present lookup time vs one-miss floor", P_KB_PRESENT, P_FLOOR, 1.2, 1, "present_time_vs_floor" },
	{ "absent lookup time vs one-miss floor", P_KB_ABSENT, P_FLOOR, 1.2, 1, "absent_time_vs_floor" },
	{ "present lookup time vs bare key", P_KB_PRESENT, P_BARE, 0, 1, "present_time_vs_bare" },
	{ "absent lookup time vs bare key", P_KB_ABSENT, P_BARE, 0, 1, "absent_time_vs_bare" },
	{ "present lookup time vs overlapping-miss floor", P_KB_PRESENT, P_FLOOR_OVL, 0, 1, "present_time_vs_floor_overlapping" },
	{ "absent lookup time vs overlapping-miss floor", P_KB_ABSENT, P_FLOOR_OVL, 0, 1, "absent_time_vs_floor_overlapping" },
	{ "table present lookup vs BPF_MAP_TYPE_BLOOM_FILTER", P_BF_PRESENT, P_TBL_PRESENT, 0, 0, "table_present_vs_bloom_map" },
	{ "table absent lookup vs BPF_MAP_TYPE_BLOOM_FILTER", P_BF_ABSENT, P_TBL_ABSENT, 0, 0, "table_absent_vs_bloom_map" },
	{ "table insert vs BPF_MAP_TYPE_BLOOM_FILTER push", P_BF_PUSH, P_TBL_INSERT, 0, 0, "table_insert_vs_bloom_map" },
	{ "table present lookup time vs one-miss floor", P_TBL_PRESENT, P_FLOOR, 0, 1, "table_present_time_vs_floor" },
	{ "table absent lookup time vs one-miss floor", P_TBL_ABSENT, P_FLOOR, 0, 1, "table_absent_time_vs_floor" },
	{ "cuckoo absent lookup time vs table absent lookup", P_CK_ABSENT, P_TBL_ABSENT, 1.3, 1, "cuckoo_absent_time_vs_table_absent" },
	{ "cuckoo present lookup time vs table present lookup", P_CK_PRESENT, P_TBL_PRESENT, 0, 1, "cuckoo_present_time_vs_table_present" },
	{ "cuckoo absent lookup time vs one-miss floor", P_CK_ABSENT, P_FLOOR, 0, 1, "cuckoo_absent_time_vs_floor" },
};
#define NLINES (sizeof(lines) / sizeof(lines[0]))

static double ratio(const struct size_run *r, const struct line *l)
{
	return r->ns[l->num] / r->ns[l->den];
}

static int goal_met(const struct line *l, double v)
{
	return l->le ? v <= l->goal : v >= l->goal;
}

static void size_name(struct size_run *r)
{
	if (r->n % 1000000 == 0)
		snprintf(r->name, sizeof(r->name), "%uM", r->n / 1000000);
	else if (r->n % 1000 == 0)
		snprintf(r->name, sizeof(r->name), "%uk", r->n / 1000);
	else
		snprintf(r->name, sizeof(r->name), "%u", r->n);
}

static void write_json(const struct size_run *r, int nr, const char *machine,
		       double load)
{
	const char *path = getenv("KBLOOM_BENCH_JSON") ?: "build/bench-xdp.json";
	const struct size_run *big = &r[nr - 1];
	FILE *f = fopen(path, "w");
	int s, pi, first;
	size_t l;

	if (!f) {
		die(path, errno);
		return;
	}
	fprintf(f, "{\n \"p\": 0.01,\n \"key_bytes\": %u,\n \"rounds\": %d,\n", XB_KEY_LEN, rounds);
	fprintf(f, " \"statistic\": \"median\",\n \"unit\": \"ns per run\",\n");
	fprintf(f, " \"machine\": \"%s\",\n \"loadavg\": %.2f,\n \"sizes\": {\n", machine, load);
	for (s = 0; s < nr; s++) {
		fprintf(f, "  \"%s\": {\"n\": %u, \"repeat\": %u,\n", r[s].name, r[s].n, r[s].repeat);
		fprintf(f, "   \"kbloom\": {\"m\": %llu, \"k\": %u, \"bytes\": %llu, \"fpr\": %.5f},\n",
			(unsigned long long)r[s].m, r[s].k,
			(unsigned long long)r[s].m / 8, r[s].fpr_kb);
		fprintf(f, "   \"bloom_map\": {\"bits\": %llu, \"k\": %u, \"bytes\": %llu, \"fpr\": %.5f},\n",
			(unsigned long long)r[s].bf_bits, BF_HASHES,
			(unsigned long long)r[s].bf_bits / 8, r[s].fpr_bf);
		fprintf(f, "   \"cuckoo\": {\"fp_bits\": %u, \"slots\": %u, \"buckets\": %llu, \"bytes\": %llu, \"fpr\": %.5f},\n",
			r[s].ck.shape.fp_bits, r[s].ck.shape.slots,
			(unsigned long long)r[s].ck.shape.buckets,
			(unsigned long long)r[s].ck.nwords * 8, r[s].fpr_ck);
		fprintf(f, "   \"ns\": {");
		for (pi = 0; pi < nprog; pi++)
			fprintf(f, "%s\"%s\": %.1f", pi ? ", " : "", progs[pi].prog + 3, r[s].ns[pi]);
		fprintf(f, "},\n   \"ns_q1\": {");
		for (pi = 0; pi < nprog; pi++)
			fprintf(f, "%s\"%s\": %.1f", pi ? ", " : "", progs[pi].prog + 3, r[s].q1[pi]);
		fprintf(f, "},\n   \"ns_q3\": {");
		for (pi = 0; pi < nprog; pi++)
			fprintf(f, "%s\"%s\": %.1f", pi ? ", " : "", progs[pi].prog + 3, r[s].q3[pi]);
		fprintf(f, "},\n   \"fill_ns_fresh_keys\": {\"kb_insert\": %.1f, \"tbl_insert\": %.1f, \"bf_push\": %.1f},\n",
			r[s].fill[P_KB_INSERT], r[s].fill[P_TBL_INSERT], r[s].fill[P_BF_PUSH]);
		fprintf(f, "   \"ratios\": {");
		for (l = 0; l < NLINES; l++)
			fprintf(f, "%s\"%s\": %.3f", l ? ", " : "", lines[l].json, ratio(&r[s], &lines[l]));
		fprintf(f, "}}%s\n", s + 1 < nr ? "," : "");
	}
	fprintf(f, " },\n \"goals\": {\"size\": \"%s\"", big->name);
	first = 1;
	for (l = 0; l < NLINES; l++) {
		double v = ratio(big, &lines[l]);

		if (!lines[l].goal)
			continue;
		fprintf(f, ",\n  \"%s\": {\"value\": %.3f, \"goal\": \"%s %.1f\", \"met\": %s}",
			lines[l].json, v, lines[l].le ? "<=" : ">=", lines[l].goal,
			goal_met(&lines[l], v) ? "true" : "false");
		first = 0;
	}
	(void)first;
	fprintf(f, "\n }\n}\n");
	fclose(f);
}

int main(void)
{
	struct size_run r[2] = {
		{ .n = 10000, .repeat = 20000 },
		{ .n = 8000000, .repeat = 10000 },
	};
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	char machine[256], cpu[128] = "?", line[256];
	double t0 = now(), load = -1;
	int s, pi, nr = 2, missed = 0;
	struct utsname u;
	FILE *f;
	size_t l;

	if (getenv("XDP_BENCH_EXPERIMENTS"))
		nprog = NPROG;
	if (getenv("XDP_BENCH_ROUNDS"))
		rounds = atoi(getenv("XDP_BENCH_ROUNDS"));
	if (rounds < 5 || rounds > ROUNDS_MAX)
		rounds = ROUNDS;
	if (getenv("XDP_BENCH_N")) {
		r[0].n = atoi(getenv("XDP_BENCH_N"));
		if (r[0].n > 100000)
			r[0].repeat = r[1].repeat;
		nr = 1;
	}
	setrlimit(RLIMIT_MEMLOCK, &rl);
	libbpf_set_print(NULL);
	uname(&u);
	f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
			snprintf(cpu, sizeof(cpu), "%s", strchr(line, ':') + 2);
			cpu[strcspn(cpu, "\n")] = 0;
			break;
		}
	if (f)
		fclose(f);
	f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = -1;
		fclose(f);
	}
	snprintf(machine, sizeof(machine), "%s, %ld CPUs, Linux %s", cpu,
		 sysconf(_SC_NPROCESSORS_ONLN), u.release);

	for (s = 0; s < nr; s++) {
		size_name(&r[s]);
		if (run_size(&r[s]))
			return 1;
	}

	printf("xdp: BPF_PROG_TEST_RUN, one operation per run, a %u-byte key that changes every run;\n",
	       XB_KEY_LEN);
	printf("  ns per run, median of %d rounds; %s; load average %.2f at the start\n",
	       rounds, machine, load);
	for (s = 0; s < nr; s++)
		printf("  n = %-4s kbloom %llu bits (%.1f bits/key, %.2f MiB), k = %u;"
		       " BLOOM_FILTER %llu bits (%.1f bits/key, %.2f MiB), k = %u\n",
		       r[s].name, (unsigned long long)r[s].m, (double)r[s].m / r[s].n,
		       r[s].m / 8.0 / (1 << 20), r[s].k,
		       (unsigned long long)r[s].bf_bits, (double)r[s].bf_bits / r[s].n,
		       r[s].bf_bits / 8.0 / (1 << 20), BF_HASHES);
	for (s = 0; s < nr; s++)
		printf("  n = %-4s cuckoo %llu buckets of %u %u-bit slots (%.1f bits/key, %.2f MiB)\n",
		       r[s].name, (unsigned long long)r[s].ck.shape.buckets,
		       r[s].ck.shape.slots, r[s].ck.shape.fp_bits,
		       r[s].ck.nwords * 64.0 / r[s].n,
		       r[s].ck.nwords * 8.0 / (1 << 20));
	printf("  %-36s", "ns per run");
	for (s = 0; s < nr; s++)
		printf(" %8s", r[s].name);
	printf("\n");
	for (pi = 0; pi < nprog; pi++) {
		printf("  %-36s", progs[pi].label);
		for (s = 0; s < nr; s++)
			printf(" %8.1f", r[s].ns[pi]);
		if (getenv("XDP_BENCH_SPREAD"))
			for (s = 0; s < nr; s++)
				printf("   [%s q1 %.1f q3 %.1f]", r[s].name, r[s].q1[pi], r[s].q3[pi]);
		printf("\n");
	}
	printf("  %-36s", "fill pass, fresh keys: kbloom");
	for (s = 0; s < nr; s++)
		printf(" %8.1f", r[s].fill[P_KB_INSERT]);
	printf("\n  %-36s", "fill pass, fresh keys: BLOOM_FILTER");
	for (s = 0; s < nr; s++)
		printf(" %8.1f", r[s].fill[P_BF_PUSH]);
	printf("\n  %-36s", "measured fpr: kbloom");
	for (s = 0; s < nr; s++)
		printf(" %7.2f%%", 100 * r[s].fpr_kb);
	printf("\n  %-36s", "measured fpr: BLOOM_FILTER");
	for (s = 0; s < nr; s++)
		printf(" %7.2f%%", 100 * r[s].fpr_bf);
	printf("\n  %-36s", "measured fpr: cuckoo");
	for (s = 0; s < nr; s++)
		printf(" %7.2f%%", 100 * r[s].fpr_ck);
	printf("\n  goals at n = %s:", r[nr - 1].name);
	for (l = 0; l < NLINES; l++) {
		double v = ratio(&r[nr - 1], &lines[l]);

		if (!lines[l].goal)
			continue;
		printf("\n    %-48s %5.2fx  goal %s %.1fx  %s", lines[l].what, v,
		       lines[l].le ? "<=" : ">=", lines[l].goal,
		       goal_met(&lines[l], v) ? "met" : "MISSED");
		missed += !goal_met(&lines[l], v);
	}
	printf("\n");
	for (l = 0; l < NLINES; l++)
		for (s = 0; s < nr; s++)
			printf("xdp %s %s: %.2fx\n", r[s].name, lines[l].what,
			       ratio(&r[s], &lines[l]));
	write_json(r, nr, machine, load);
	printf("xdp bench: %d goal(s) missed; figures in %s (%.0f s)\n", missed,
	       getenv("KBLOOM_BENCH_JSON") ?: "build/bench-xdp.json", now() - t0);
	return 0;
}
