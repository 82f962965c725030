// SPDX-License-Identifier: GPL-2.0
/*
 * make bench BENCH=gate: the gate (bpf/kbloom_gate.bpf.c, a kbloomctl
 * gate made through libkbloom) against xdp-filter, the XDP blocklist of
 * xdp-tools: Debian's shipped object xdpfilt_alw_ip.o (policy allow: the
 * addresses in its maps are dropped, source or destination, IPv4 and
 * IPv6), its filter_ipv4 map resized through libbpf before loading.
 *
 * For blocklists of 10k, 1M and 8M random IPv4 addresses (the same set
 * for both; the gate planned for the set at 0.1%, its exact set sized to
 * hold it), on the same 64-byte UDP frames, BPF_PROG_TEST_RUN gives ns
 * per packet:
 *
 *   - one cached source: one frame, repeat R, its source unlisted or
 *     listed;
 *   - distinct sources: gb_rotate (gate_bench.bpf.c) writes the next of
 *     100k sources into the frame and tail-calls the program under test,
 *     so that every run tests another address; its own cost (the same
 *     rotation tail-calling an XDP_PASS program) is subtracted.  The
 *     sources are unlisted, listed, or 1%, 50%, 99% listed, shuffled.
 *
 * Each figure is the median of ROUNDS rounds, the programs alternating
 * within a round.  Every verdict is checked: a cached source's return
 * code, and for every run the programs' own counters (the gate's drops
 * and passes, xdp-filter's xdp_stats_map per action) against the number
 * of listed sources: listed dropped, unlisted passed.
 *
 * The gate runs twice: as "gate", with the adaptive mode on (75% / 50%,
 * kbloomctl gate adapt's default), and as "gate-filter" with it off (the
 * filter before every exact lookup).  Output: the figures, the lines
 * "gate <case> vs xdp-filter: N.NNx" (xdp-filter's time / the gate's:
 * > 1, the gate is faster), the memory of both (the kernel's memlock of
 * their maps) and build/bench-gate.json (or $KBLOOM_BENCH_JSON).
 *
 * Environment: GATE_BENCH_N=<n> runs one size; GATE_BENCH_ROUNDS=<r>;
 * GATE_BENCH_XDPFILTER=<path of the object>; GATE_BENCH_ADAPT=ON,OFF the
 * adaptive mode's percentages of "gate".
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "libkbloom_xdp.h"
#include "uapi/kbloom_xdp_maps.h"
#include "tests/bench/gate_bench.skel.h"

#define XF_OBJ		"/usr/lib/x86_64-linux-gnu/bpf/xdpfilt_alw_ip.o"
#define XF_FLAG_SRC	1ULL		/* xdp-filter's MAP_FLAG_SRC */
#define NSRC		100000U
#define ROUNDS		7
#define CACHED_REPEAT	200000U
#define FPR_PICO	1000000000ULL	/* 0.1% */
#define NPROGS		3		/* gate, gate-filter, xdp-filter */

static const char *const prog_names[NPROGS] = {
	"gate", "gate-filter", "xdp-filter"
};

struct mix {
	const char *name;
	unsigned int pct;	/* listed sources in percent */
	int cached;		/* one cached source */
};

static const struct mix mixes[] = {
	{ "unlisted cached", 0, 1 },
	{ "listed cached", 100, 1 },
	{ "unlisted distinct", 0, 0 },
	{ "listed distinct", 100, 0 },
	{ "1% listed distinct", 1, 0 },
	{ "50% listed distinct", 50, 0 },
	{ "99% listed distinct", 99, 0 },
};

#define NMIX	(sizeof(mixes) / sizeof(mixes[0]))

/* One blocklist size: the set, the two programs and the figures. */
struct run {
	__u32 n;
	__u32 *set;			/* network order */
	__u32 *other;			/* NSRC unlisted addresses */
	struct kbloom_xdp *gate;
	char gname[32];
	int gate_prog;
	struct bpf_object *xf;
	int xf_prog, xf_map, xf_stats;
	double ns[NMIX][NPROGS];
	__u64 gate_bytes, xf_bytes;
	int bad;			/* wrong verdicts */
};

static struct gate_bench *drv;
static __u8 frame[64];
static __u64 rng = 0x9e3779b97f4a7c15ULL;

static __u64 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* 64 bytes: Ethernet, IPv4 (source @src), UDP, 22 bytes of payload. */
static void frame_make(__u32 src)
{
	struct ethhdr *eth = (void *)frame;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *udp = (void *)(ip + 1);

	memset(frame, 0, sizeof(frame));
	eth->h_proto = htons(ETH_P_IP);
	eth->h_dest[0] = 2;
	eth->h_source[0] = 2;
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons(sizeof(frame) - sizeof(*eth));
	ip->saddr = src;
	ip->daddr = htonl(0xc6336401);	/* 198.51.100.1: not listed */
	udp->source = htons(1234);
	udp->dest = htons(5678);
	udp->len = htons(sizeof(frame) - sizeof(*eth) - sizeof(*ip));
}

/*
 * @n distinct random addresses, and NSRC more that are none of them
 * (198.51.100.1, the frames' destination, is in neither).
 */
static int addrs_make(struct run *r)
{
	__u32 total = r->n + NSRC, i, j;
	__u32 *all = malloc((size_t)total * 2 * sizeof(*all));

	if (!all)
		return -ENOMEM;
	for (i = 0; i < total * 2; i++)
		all[i] = (__u32)rnd();
	qsort(all, total * 2, sizeof(*all), cmp_u32);
	for (i = 0, j = 0; i < total * 2; i++)
		if ((!j || all[i] != all[j - 1]) && all[i] != 0xc6336401)
			all[j++] = all[i];
	if (j < total) {
		free(all);
		return -EAGAIN;
	}
	for (i = j - 1; i > 0; i--) {	/* shuffle: set and others apart */
		__u32 k = rnd() % (i + 1), t = all[i];

		all[i] = all[k];
		all[k] = t;
	}
	for (i = 0; i < total; i++)
		all[i] = htonl(all[i]);
	r->set = all;
	r->other = all + r->n;
	return 0;
}

static __u64 memlock_of(int fd)
{
	char path[64], line[128];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %llu", &v) == 1)
			break;
	fclose(f);
	return v;
}

static __u64 pin_memlock(const char *dir, const char *pin)
{
	char path[256];
	__u64 v;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, pin);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return 0;
	v = memlock_of(fd);
	close(fd);
	return v;
}

/* ---- the two programs ------------------------------------------------ */

static int gate_make(struct run *r)
{
	struct kbloom_xdp_opts o = {
		.mode = KBLOOM_GATE_DENY,
		.geom = { .capacity = r->n, .fpr_pico = FPR_PICO },
	};
	struct kbloom_addr_key *k;
	char path[256];
	__u32 i, bad;
	int ret;

	for (o.max_keys = 65536; o.max_keys < r->n; o.max_keys <<= 1)
		;
	snprintf(r->gname, sizeof(r->gname), "gbench%d", getpid());
	kbloom_xdp_unpin(r->gname, NULL);
	ret = kbloom_xdp_create(r->gname, KBLOOM_XDP_GATE, &o, &r->gate);
	if (ret)
		return ret;
	k = calloc(r->n, sizeof(*k));
	if (!k)
		return -ENOMEM;
	for (i = 0; i < r->n; i++) {
		k[i].len = KBLOOM_ADDR4_LEN;
		memcpy(k[i].addr, &r->set[i], 4);
	}
	ret = kbloom_gate_add_batch(r->gate, k, r->n, 0, &bad);
	free(k);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/%s/prog_gate", KBLOOM_XDP_PIN_ROOT,
		 r->gname);
	r->gate_prog = bpf_obj_get(path);
	snprintf(path, sizeof(path), "%s/%s", KBLOOM_XDP_PIN_ROOT, r->gname);
	r->gate_bytes = pin_memlock(path, "gate_exact") +
			pin_memlock(path, "filter_0");
	return r->gate_prog < 0 ? -errno : 0;
}

static int xf_fill(struct run *r)
{
	int ncpu = libbpf_num_possible_cpus(), ret = 0;
	__u32 i, chunk = 65536, cnt;
	__u64 *vals;

	vals = calloc((size_t)chunk * ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (i = 0; i < chunk * (__u32)ncpu; i++)
		vals[i] = XF_FLAG_SRC;
	for (i = 0; !ret && i < r->n; i += cnt) {
		cnt = r->n - i < chunk ? r->n - i : chunk;
		ret = bpf_map_update_batch(r->xf_map, &r->set[i], vals, &cnt,
					   NULL) ? -errno : 0;
	}
	free(vals);
	return ret;
}

static int xf_make(struct run *r)
{
	const char *path = getenv("GATE_BENCH_XDPFILTER") ?: XF_OBJ;
	struct bpf_program *p;
	struct bpf_map *m;
	int ret;

	r->xf = bpf_object__open_file(path, NULL);
	if (!r->xf)
		return -errno;
	bpf_object__for_each_map(m, r->xf)
		bpf_map__set_pin_path(m, NULL);	/* no pins in /sys/fs/bpf */
	m = bpf_object__find_map_by_name(r->xf, "filter_ipv4");
	if (!m)
		return -ENOENT;
	ret = bpf_map__set_max_entries(m, r->n);
	ret = ret ?: bpf_object__load(r->xf);
	if (ret)
		return ret;
	p = bpf_object__next_program(r->xf, NULL);
	r->xf_prog = p ? bpf_program__fd(p) : -ENOENT;
	r->xf_map = bpf_map__fd(m);
	r->xf_stats = bpf_object__find_map_fd_by_name(r->xf, "xdp_stats_map");
	if (r->xf_prog < 0 || r->xf_stats < 0)
		return -ENOENT;
	r->xf_bytes = memlock_of(r->xf_map);
	return xf_fill(r);
}

static void run_free(struct run *r)
{
	if (r->gate_prog > 0)
		close(r->gate_prog);
	if (r->gate)
		kbloom_xdp_destroy(r->gate);
	bpf_object__close(r->xf);
	free(r->set);
}

/* ---- verdicts ---------------------------------------------------------- */

/* Frames dropped and passed so far by program @p (its own counters). */
static int counts(const struct run *r, int p, __u64 *drop, __u64 *pass)
{
	int ncpu = libbpf_num_possible_cpus(), c;
	struct kbloom_gate_stats st;
	__u64 v[2 * 256];
	__u32 key;

	if (p < 2) {
		if (kbloom_gate_stats(r->gate, &st))
			return -1;
		*drop = st.drops;
		*pass = st.passed;
		return 0;
	}
	*drop = 0;
	*pass = 0;
	for (key = XDP_DROP; key <= XDP_PASS; key++) {
		if (ncpu > 256 || bpf_map_lookup_elem(r->xf_stats, &key, v))
			return -1;
		for (c = 0; c < ncpu; c++)
			*(key == XDP_DROP ? drop : pass) += v[2 * c];
	}
	return 0;
}

static int prog_fd(const struct run *r, int p)
{
	return p < 2 ? r->gate_prog : r->xf_prog;
}

/* "gate": the adaptive mode at GATE_BENCH_ADAPT=ON,OFF or the default. */
static int set_adapt(const struct run *r, int p)
{
	unsigned int on = KBLOOM_GATE_ADAPT_ON_DEF;
	unsigned int off = KBLOOM_GATE_ADAPT_OFF_DEF;
	const char *e = getenv("GATE_BENCH_ADAPT");

	if (e && sscanf(e, "%u,%u", &on, &off) != 2)
		return -EINVAL;
	return kbloom_gate_set_adapt(r->gate, p ? 0 : on, p ? 0 : off);
}

/* ---- timing -------------------------------------------------------------- */

/* ns per run of @fd on the frame, repeat @rep; its last verdict in *@rv. */
static double test_run(int fd, __u32 rep, __u32 *rv)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame,
		    .data_size_in = sizeof(frame), .repeat = rep);
	double t0 = now(), wall;

	if (bpf_prog_test_run_opts(fd, &o))
		return -errno;
	wall = (now() - t0) * 1e9 / rep;
	*rv = o.retval;
	if (wall >= o.duration && wall < o.duration + 1.0)
		return wall;
	return o.duration + 0.5;
}

/* The sources of mix @m into gb_srcs; how many are listed. */
static __u32 srcs_load(const struct run *r, const struct mix *m)
{
	__u32 i, key, listed = 0, one = 1, n = NSRC, zero = 0;
	int fd = bpf_map__fd(drv->maps.gb_srcs);
	__u32 *v = malloc(NSRC * sizeof(*v));

	if (!v)
		return ~0U;
	for (i = 0; i < NSRC; i++) {
		int in = (rnd() % 100) < m->pct;

		v[i] = in ? r->set[rnd() % r->n] : r->other[i];
		listed += in;
	}
	for (i = 0; i < NSRC; i++) {
		key = i;
		bpf_map_update_elem(fd, &key, &v[i], 0);
	}
	free(v);
	fd = bpf_map__fd(drv->maps.gb_idx);
	bpf_map_update_elem(fd, &one, &n, 0);
	bpf_map_update_elem(fd, &zero, &zero, 0);
	return listed;
}

/* Point gb_rotate at @fd; reset the rotation. */
static int target(int fd)
{
	__u32 zero = 0;

	bpf_map_update_elem(bpf_map__fd(drv->maps.gb_idx), &zero, &zero, 0);
	return bpf_map_update_elem(bpf_map__fd(drv->maps.gb_target), &zero,
				   &fd, 0) ? -errno : 0;
}

/* One timed pass of @m through program @p, its verdicts checked. */
static double one_pass(struct run *r, const struct mix *m, int p,
		       __u32 listed)
{
	__u32 rep = m->cached ? CACHED_REPEAT : NSRC, rv;
	__u64 d0, p0, d1, p1, want_drop;
	double t, base = 0;

	if (counts(r, p, &d0, &p0))
		return -EIO;
	if (m->cached) {
		t = test_run(prog_fd(r, p), rep, &rv);
		if (rv != (m->pct ? XDP_DROP : XDP_PASS))
			r->bad++;
	} else {
		target(bpf_program__fd(drv->progs.gb_pass));
		base = test_run(bpf_program__fd(drv->progs.gb_rotate), rep,
				&rv);
		target(prog_fd(r, p));
		t = test_run(bpf_program__fd(drv->progs.gb_rotate), rep, &rv);
	}
	if (counts(r, p, &d1, &p1))
		return -EIO;
	want_drop = m->cached ? (m->pct ? rep : 0) : listed;
	if (d1 - d0 != want_drop || p1 - p0 != rep - want_drop) {
		fprintf(stderr, "gate bench: %s %s: %llu dropped, %llu passed; want %llu, %llu\n",
			prog_names[p], m->name, (unsigned long long)(d1 - d0),
			(unsigned long long)(p1 - p0),
			(unsigned long long)want_drop,
			(unsigned long long)(rep - want_drop));
		r->bad++;
	}
	return t - base;
}

static int rounds_n(void)
{
	const char *e = getenv("GATE_BENCH_ROUNDS");
	int n = e ? atoi(e) : ROUNDS;

	return n > 0 && n < 1000 ? n : ROUNDS;
}

/* Median over the rounds of every program on mix @mi. */
static int mix_run(struct run *r, unsigned int mi)
{
	const struct mix *m = &mixes[mi];
	int nr = rounds_n(), i, j, p;
	static double t[NPROGS][1000];
	__u32 listed;

	listed = srcs_load(r, m);
	frame_make(m->pct ? r->set[0] : r->other[0]);
	if (listed == ~0U)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		for (j = 0; j < NPROGS; j++) {	/* the order rotates */
			p = (i + j) % NPROGS;
			if (p < 2 && set_adapt(r, p))
				return -EIO;
			t[p][i] = one_pass(r, m, p, listed);
		}
	for (p = 0; p < NPROGS; p++) {
		qsort(t[p], nr, sizeof(double), cmp_dbl);
		r->ns[mi][p] = t[p][nr / 2];
	}
	return 0;
}

/* ---- output -------------------------------------------------------------- */

static void print_size(const struct run *r)
{
	unsigned int mi;

	printf("\n# %u addresses: gate %.1f MiB (%.1f B/entry), xdp-filter %.1f MiB (%.1f B/entry)\n",
	       r->n, r->gate_bytes / 1048576.0,
	       (double)r->gate_bytes / r->n, r->xf_bytes / 1048576.0,
	       (double)r->xf_bytes / r->n);
	printf("%-22s %10s %12s %11s\n", "ns/packet", "gate", "gate-filter",
	       "xdp-filter");
	for (mi = 0; mi < NMIX; mi++)
		printf("%-22s %10.1f %12.1f %11.1f\n", mixes[mi].name,
		       r->ns[mi][0], r->ns[mi][1], r->ns[mi][2]);
}

static void size_name(__u32 n, char *buf, size_t len)
{
	if (n >= 1000000 && !(n % 1000000))
		snprintf(buf, len, "%uM", n / 1000000);
	else if (n >= 1000 && !(n % 1000))
		snprintf(buf, len, "%uk", n / 1000);
	else
		snprintf(buf, len, "%u", n);
}

static void print_ratios(const struct run *r)
{
	char sz[16];
	unsigned int mi;

	size_name(r->n, sz, sizeof(sz));
	for (mi = 0; mi < NMIX; mi++)
		printf("gate %s %s vs xdp-filter: %.2fx\n", sz, mixes[mi].name,
		       r->ns[mi][2] / r->ns[mi][0]);
	for (mi = 0; mi < NMIX; mi++)
		printf("gate-filter %s %s vs xdp-filter: %.2fx\n", sz,
		       mixes[mi].name, r->ns[mi][2] / r->ns[mi][1]);
}

static void json_write(const struct run *rs, int nr)
{
	const char *path = getenv("KBLOOM_BENCH_JSON") ?: "build/bench-gate.json";
	unsigned int mi;
	FILE *f = fopen(path, "w");
	char sz[16];
	int s, p;

	if (!f)
		return;
	fprintf(f, "{\n");
	for (s = 0; s < nr; s++) {
		size_name(rs[s].n, sz, sizeof(sz));
		fprintf(f, " \"%s\": {\"gate_bytes\": %llu, \"xdp_filter_bytes\": %llu, \"wrong_verdicts\": %d",
			sz, (unsigned long long)rs[s].gate_bytes,
			(unsigned long long)rs[s].xf_bytes, rs[s].bad);
		for (mi = 0; mi < NMIX; mi++)
			for (p = 0; p < NPROGS; p++)
				fprintf(f, ", \"%s %s ns\": %.1f",
					prog_names[p], mixes[mi].name,
					rs[s].ns[mi][p]);
		fprintf(f, "}%s\n", s + 1 < nr ? "," : "");
	}
	fprintf(f, "}\n");
	fclose(f);
}

/* ---- main ---------------------------------------------------------------- */

static int size_run(struct run *r)
{
	double t0 = now(), t1;
	unsigned int mi;
	int ret;

	ret = addrs_make(r);
	ret = ret ?: gate_make(r);
	t1 = now();
	ret = ret ?: xf_make(r);
	if (ret) {
		fprintf(stderr, "gate bench: %u addresses: %s\n", r->n,
			strerror(-ret));
		return ret;
	}
	printf("# %u addresses: gate built in %.1f s, xdp-filter in %.1f s\n",
	       r->n, t1 - t0, now() - t1);
	for (mi = 0; !ret && mi < NMIX; mi++)
		ret = mix_run(r, mi);
	return ret;
}

static void pin_cpu(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

int main(void)
{
	static const __u32 sizes[] = { 10000, 1000000, 8000000 };
	struct run rs[3] = { 0 };
	const char *e = getenv("GATE_BENCH_N");
	int i, nr = 0, bad = 0, ret = 0;
	double t0 = now();

	pin_cpu();
	drv = gate_bench__open_and_load();
	if (!drv) {
		fprintf(stderr, "gate bench: load the driver: %s\n",
			strerror(errno));
		return 1;
	}
	for (i = 0; i < 3 && !ret; i++) {
		if (e && (__u32)atoi(e) != sizes[i])
			continue;
		rs[nr].n = sizes[i];
		ret = size_run(&rs[nr]);
		if (!ret)
			print_size(&rs[nr]);
		bad += rs[nr].bad;
		run_free(&rs[nr]);
		nr++;
	}
	for (i = 0; !ret && i < nr; i++)
		print_ratios(&rs[i]);
	json_write(rs, ret ? 0 : nr);
	gate_bench__destroy(drv);
	printf("gate bench: %d wrong verdicts, %.0f s\n", bad, now() - t0);
	return ret || bad ? 1 : 0;
}
